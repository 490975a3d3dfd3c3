/**
 * The streamable HTTP client transport on Node, over undici: what
 * `StreamableHttpClient.layer` needs, in one Layer.
 *
 * The transport's exchanges go to undici directly (a
 * `StreamableHttpClient.HttpBackend`: one `dispatcher.dispatch` each with
 * its own handler, the body handed over as it arrives, time bounds as
 * deadlines on the Clock rather than fiber races, an exchange in a fiber of
 * its own aborted when that fiber ends rather than by a canceler per wait),
 * with its own keep-alive pool for the life of the Layer.
 * The `HttpClient` over the same pool serves what needs one (the legacy
 * HTTP+SSE fallback, `auth`, exchanges under a tracer that collects spans).
 * Opening a session (initialize, initialized, standing GET) takes ~233
 * Effect operations, 2 fibers and one connection (its follow-up requests wait
 * the turn undici takes to free the connection of the answer before them);
 * it took ~1,320 operations and 13 fibers over `NodeHttpClient.layerUndici`.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
 * import * as Layer from "effect/Layer"
 *
 * const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0" }).pipe(
 *   Layer.provide(NodeStreamableHttpClient.layer({ url: "http://127.0.0.1:3000/mcp" }))
 * )
 * ```
 * @since 0.1.0
 */
import * as HttpClient from "effect/http/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Undici from "@effect/platform-node/Undici"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import type { Transport } from "@effect-mcp/mcp/Transport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"

type Dispatcher = Undici.Dispatcher
type Handler = Parameters<Dispatcher["dispatch"]>[1]
type Controller = Parameters<NonNullable<Handler["onRequestStart"]>>[0]
type Headers = StreamableHttpClient.BackendResponse["headers"]

const noop = () => {}

/** A body of this `content-length` is read to its end when of no use, so that its connection is kept. */
const isShort = (length: string | ReadonlyArray<string> | undefined): boolean => {
  const n = typeof length === "string" ? Number(length) : NaN
  return Number.isFinite(n) && n <= 65_536
}

/** Why an exchange is aborted by its reader or by an interruption; nobody reads it (made once: no stack per abort). */
const dropped = new Error("The exchange was dropped")

/** What reads a body: each chunk (false: no more), its end, its failure. */
interface Reader {
  readonly data: (chunk: Buffer) => boolean
  readonly end: () => void
  readonly fail: (error: Error) => void
}

/**
 * One exchange, as undici's handler: the answer's headers go to `respond`,
 * its body to the reader attached (queued until one is). undici's `request`
 * made an async resource, an abort signal and a `Readable` per exchange,
 * and four listeners per body read.
 */
class Exchange implements Handler {
  private controller: Controller | undefined = undefined
  /** Aborted before undici handed over its controller. */
  private aborted: Error | undefined = undefined
  responded = false
  /** The chunks that came before a reader. */
  private queued: Array<Buffer> = []
  /** How the body ended: `null` at its end, the error when it failed or was dropped. */
  private outcome: Error | null | undefined = undefined
  private reader: Reader | undefined = undefined
  private unlisten: (() => void) | undefined = undefined
  /** Undoes `endWith`. */
  private unobserve: (() => void) | undefined = undefined

  constructor(
    private readonly respond: (effect: Effect.Effect<StreamableHttpClient.BackendResponse, Error>) => void,
    signal: AbortSignal | undefined
  ) {
    if (signal === undefined) return
    if (signal.aborted) {
      this.aborted = signal.reason
      return
    }
    const onAbort = () => this.abort(signal.reason)
    signal.addEventListener("abort", onAbort, { once: true })
    this.unlisten = () => signal.removeEventListener("abort", onAbort)
  }

  get ended(): boolean {
    return this.outcome === null
  }

  /** Whether the exchange ends with `fiber` (then its waits have no cancelers). */
  get dedicated(): boolean {
    return this.unobserve !== undefined
  }

  /** Aborts the exchange when `fiber` ends, unless it ended before. */
  endWith(fiber: Fiber.Fiber<unknown, unknown>): void {
    this.unobserve = fiber.addObserver(() => this.abandon())
  }

  /** Nobody waits for the exchange any more: aborted before its headers, dropped after. */
  abandon(): void {
    if (this.responded) this.drop()
    else this.abort(dropped)
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller
    if (this.aborted !== undefined) controller.abort(this.aborted)
  }

  onResponseStart(_controller: Controller, statusCode: number, headers: Headers): void {
    // 1xx: informational
    if (statusCode < 200 || this.responded) return
    this.responded = true
    this.respond(Effect.succeed(answer(statusCode, headers, this)))
  }

  onResponseData(_controller: Controller, chunk: Buffer): void {
    if (this.outcome !== undefined) return
    if (this.reader === undefined) this.queued.push(chunk)
    else if (!this.reader.data(chunk)) this.drop()
  }

  onResponseEnd(): void {
    this.settle(null)
  }

  onResponseError(_controller: Controller | undefined, error: Error): void {
    if (this.responded) return this.settle(error)
    this.responded = true
    this.unlisten?.()
    this.unobserve?.()
    this.respond(Effect.fail(error))
  }

  /** Aborts the exchange (its time is up, or it was interrupted before its headers). */
  abort(reason: Error): void {
    if (this.controller === undefined) this.aborted = reason
    else this.controller.abort(reason)
  }

  /** The body is of no use any more: the exchange is aborted, and its reader told nothing more. */
  drop(): void {
    if (this.outcome !== undefined) return
    this.reader = undefined
    this.settle(dropped)
    this.abort(dropped)
  }

  /** Reads the body: the chunks that came before, then the others as they come. */
  attach(reader: Reader): void {
    const queued = this.queued
    this.queued = []
    for (const chunk of queued) {
      if (!reader.data(chunk)) return this.drop()
    }
    if (this.outcome === undefined) this.reader = reader
    else if (this.outcome === null) reader.end()
    else reader.fail(this.outcome)
  }

  private settle(outcome: Error | null): void {
    if (this.outcome !== undefined) return
    this.outcome = outcome
    this.unlisten?.()
    this.unobserve?.()
    const reader = this.reader
    this.reader = undefined
    if (reader === undefined) return
    if (outcome === null) reader.end()
    else reader.fail(outcome)
  }
}

/**
 * Reads `exchange`'s body: `onData` is called with each chunk, and the effect
 * ends with the body (or when `onData` asks to stop: the exchange is then
 * aborted). Interruption aborts it too.
 */
const readBody = <A>(
  exchange: Exchange,
  onData: (chunk: Buffer) => boolean,
  result: () => A
): Effect.Effect<A, Error> =>
  Effect.callback<A, Error>((resume) => {
    let done = false
    exchange.attach({
      data: (chunk) => {
        if (onData(chunk)) return true
        done = true
        resume(Effect.sync(result))
        return false
      },
      end: () => {
        done = true
        resume(Effect.sync(result))
      },
      fail: (error) => {
        done = true
        resume(Effect.fail(error))
      }
    })
    // a dedicated exchange is dropped when its fiber ends
    return exchange.dedicated ? undefined : Effect.sync(() => {
      if (!done) exchange.drop()
    })
  })

/**
 * Reads a whole body and decodes it once. The bytes are kept as bytes (outside the JavaScript
 * heap) until the end: a body of known length is copied into one buffer of that length as it
 * arrives (each chunk can be collected at once), any other is joined once. Decoding chunk by
 * chunk into a string of pieces put the whole body in the young generation twice (the pieces,
 * then the string they flatten into when parsed), which made V8 grow it: a 16 MiB answer
 * cost ~35 MiB more peak RSS than undici's own `body.text()`.
 */
const readText = (exchange: Exchange, length: string | ReadonlyArray<string> | undefined): Effect.Effect<string, Error> => {
  const declared = typeof length === "string" ? Number(length) : NaN
  // a declared length is the most the body can be (undici fails a longer one); a bound on what is allocated ahead
  let whole: Buffer | undefined = Number.isSafeInteger(declared) && declared > 0 && declared <= MAX_PREALLOCATED
    ? Buffer.allocUnsafe(declared)
    : undefined
  let chunks: Array<Buffer> = []
  let size = 0
  return readBody(exchange, (chunk) => {
    if (whole !== undefined && size + chunk.length <= whole.length) chunk.copy(whole, size)
    else {
      if (whole !== undefined) {
        // more than declared after all: from here on, as a body of unknown length
        chunks = [whole.subarray(0, size)]
        whole = undefined
      }
      chunks.push(chunk)
    }
    size += chunk.length
    return true
  }, () => {
    if (whole !== undefined) return whole.toString("utf8", 0, size)
    return chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, size).toString("utf8")
  })
}

/** The largest declared body length allocated ahead of its bytes. */
const MAX_PREALLOCATED = 64 * 1024 * 1024

const answer = (statusCode: number, headers: Headers, exchange: Exchange): StreamableHttpClient.BackendResponse => ({
  status: statusCode,
  headers,
  get text() {
    return readText(exchange, headers["content-length"])
  },
  read: (f) => readBody(exchange, f, noop),
  discard: Effect.suspend(() => {
    const length = headers["content-length"]
    // an empty body is over already
    if (length === "0" || exchange.ended) return Effect.void
    // a 202 has no body (a chunked one's end came with its headers): read to its end, as aborting
    // an exchange before its end costs its connection
    if (isShort(length) || statusCode === 202) return Effect.ignore(readBody(exchange, () => true, noop))
    exchange.drop()
    return Effect.void
  })
})

/**
 * Two event-loop turns: undici puts a kept-alive socket back in its pool with
 * `setImmediate` after the response, and its pool sees it free a turn later,
 * so a request dispatched before goes to another connection (a connect on both
 * sides). Measured on undici 7 and 8 from a handler's `onResponseEnd`: a
 * dispatch one `setImmediate` later opens a second connection, two later
 * reuses the first (one turn was enough on Effect 3, whose fiber went on
 * after the answer later). `setImmediate`, not the Clock: this is the loop's
 * check phase, not a delay.
 */
const turn: Effect.Effect<void> = Effect.callback<void>((resume) => {
  setImmediate(() => setImmediate(resume, Effect.void))
})

/**
 * The transport's backend over an undici dispatcher: one `dispatcher.dispatch`
 * per exchange with its own handler, the body handed over as it arrives. The
 * platform `HttpClient` costs about twice the CPU per exchange (a request
 * object, a context merge, a span check, a response wrapper whose headers are
 * copied on every read, a Stream per body).
 */
const makeBackend = (dispatcher: Dispatcher): StreamableHttpClient.Backend => ({
  signals: true,
  turn,
  request: (request) =>
    Effect.callback<StreamableHttpClient.BackendResponse, Error>((resume) => {
      const exchange = new Exchange(resume, request.controller?.signal)
      // the fiber running this (`Effect.callback` calls this in it)
      const fiber = request.dedicated === true ? Fiber.getCurrent() : undefined
      if (fiber !== undefined) exchange.endWith(fiber)
      dispatcher.dispatch({
        method: request.method,
        origin: request.url.origin,
        path: request.url.pathname + request.url.search,
        headers: request.headers,
        body: request.body ?? null,
        // timeouts are the transport's (on the Clock)
        headersTimeout: 60 * 60 * 1000,
        bodyTimeout: 0
      }, exchange)
      return exchange.dedicated ? undefined : Effect.sync(() => {
        if (!exchange.responded) exchange.abort(dropped)
      })
    })
})

/**
 * The pool: an undici `Agent`, destroyed with the scope (`NodeHttpClient.makeDispatcher`'s, made
 * here from a static import: the platform's loads undici with `import()` of a module that
 * re-exports it (`export * from "undici"`, CommonJS), which a bundle (esbuild's) turns into a
 * module exporting only `default`, and its `new _.Agent()` fails there).
 */
const makeDispatcher: Effect.Effect<Dispatcher, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => new Undici.Agent()),
  (dispatcher) => Effect.promise(() => dispatcher.destroy())
)

/**
 * An undici `HttpClient` with its own connection pool, closed with the Layer,
 * and the streamable HTTP transport's backend over the same pool (its
 * exchanges skip the `HttpClient` layer: about half the client CPU per
 * exchange). Share it between sessions to one server.
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient: Layer.Layer<HttpClient.HttpClient | StreamableHttpClient.HttpBackend> = Layer.effectContext(
  Effect.flatMap(makeDispatcher, (dispatcher) =>
    Effect.map(
      Effect.provideService(NodeHttpClient.makeUndici, NodeHttpClient.Dispatcher, dispatcher),
      (client) =>
        Context.make(HttpClient.HttpClient, client).pipe(
          Context.add(StreamableHttpClient.HttpBackend, makeBackend(dispatcher))
        )
    ))
)

/**
 * The client transport for one session, over its own `layerHttpClient`.
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: StreamableHttpClient.StreamableHttpClientOptions): Layer.Layer<Transport> =>
  StreamableHttpClient.layer(options).pipe(Layer.provide(layerHttpClient))
