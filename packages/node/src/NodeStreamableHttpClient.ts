/**
 * The streamable HTTP client transport on Node, over undici: what
 * `StreamableHttpClient.layer` needs, in one Layer.
 *
 * The transport's exchanges go to undici directly (a
 * `StreamableHttpClient.HttpBackend`: one `dispatcher.request` each, the
 * body read through its events, time bounds as deadlines on the Clock rather
 * than fiber races), with its own keep-alive pool for the life of the Layer.
 * The `HttpClient` over the same pool serves what needs one (the legacy
 * HTTP+SSE fallback, `auth`, exchanges under a tracer that collects spans).
 * Opening a session (initialize, initialized, standing GET) takes ~290
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
import * as HttpClient from "@effect/platform/HttpClient"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import type { Transport } from "@effect-mcp/mcp/Transport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

type Dispatcher = Effect.Effect.Success<typeof NodeHttpClient.makeDispatcher>
type Body = Awaited<ReturnType<Dispatcher["request"]>>["body"]

const noop = () => {}

/** A body of this `content-length` is read to its end when of no use, so that its connection is kept. */
const isShort = (length: string | ReadonlyArray<string> | undefined): boolean => {
  const n = typeof length === "string" ? Number(length) : NaN
  return Number.isFinite(n) && n <= 65_536
}

/**
 * Reads `body` through its events: `onData` is called with each chunk, and
 * the effect ends with the body (or when `onData` asks to stop: the body is
 * then destroyed, which aborts the exchange). Interruption destroys it too.
 */
const readBody = <A>(
  body: Body,
  onData: (chunk: Buffer) => boolean,
  result: () => A
): Effect.Effect<A, Error> =>
  Effect.async<A, Error>((resume) => {
    let done = false
    const finish = (effect: Effect.Effect<A, Error>) => {
      if (done) return
      done = true
      body.off("data", data)
      body.off("end", end)
      body.off("error", error)
      body.off("close", close)
      resume(effect)
    }
    // Buffers: nothing sets an encoding on the body
    const data = (chunk: Buffer) => {
      if (done || onData(chunk)) return
      finish(Effect.sync(result))
      body.destroy()
    }
    const end = () => finish(Effect.sync(result))
    const error = (cause: Error) => finish(Effect.fail(cause))
    // destroyed without an error and before its end (it is not ours to destroy then)
    const close = () => finish(Effect.fail(new Error("The response body was closed before its end")))
    body.on("data", data)
    body.on("end", end)
    body.on("error", error)
    body.on("close", close)
    return Effect.sync(() => {
      if (done) return
      done = true
      body.destroy()
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
const readText = (body: Body, length: string | ReadonlyArray<string> | undefined): Effect.Effect<string, Error> => {
  const declared = typeof length === "string" ? Number(length) : NaN
  // a declared length is the most the body can be (undici fails a longer one); a bound on what is allocated ahead
  let whole: Buffer | undefined = Number.isSafeInteger(declared) && declared > 0 && declared <= MAX_PREALLOCATED
    ? Buffer.allocUnsafe(declared)
    : undefined
  let chunks: Array<Buffer> = []
  let size = 0
  return readBody(body, (chunk) => {
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

const answer = (statusCode: number, headers: StreamableHttpClient.BackendResponse["headers"], body: Body): StreamableHttpClient.BackendResponse => {
  // a destroyed body emits an error that nobody may be listening to any more
  body.on("error", noop)
  return {
    status: statusCode,
    headers,
    get text() {
      return readText(body, headers["content-length"])
    },
    read: (f) => readBody(body, f, noop),
    discard: Effect.suspend(() => {
      const length = headers["content-length"]
      // an empty body is over already
      if (length === "0" || body.readableEnded) return Effect.void
      // a 202 has no body (a chunked one's end came with its headers): read to its end, as destroying
      // a body before its end builds an abort error and its stack trace
      if (isShort(length) || statusCode === 202) return Effect.ignore(readBody(body, () => true, noop))
      body.destroy()
      return Effect.void
    })
  }
}

/**
 * One event-loop turn: undici puts a kept-alive socket back in its pool with
 * `setImmediate` after the response, so a request dispatched in the turn an
 * answer was read goes to another connection (a connect on both sides).
 * `setImmediate`, not the Clock: this is the loop's check phase, not a delay.
 */
const turn: Effect.Effect<void> = Effect.async<void>((resume) => {
  setImmediate(resume, Effect.void)
})

/**
 * The transport's backend over an undici dispatcher: one `dispatcher.request`
 * per exchange, its body read through its events. The platform `HttpClient`
 * costs about twice the CPU per exchange (a request object, a context merge,
 * a span check, a response wrapper whose headers are copied on every read,
 * a Stream per body).
 */
const makeBackend = (dispatcher: Dispatcher): StreamableHttpClient.Backend => ({
  signals: true,
  turn,
  request: (request) =>
    Effect.async<StreamableHttpClient.BackendResponse, Error>((resume) => {
      const controller = request.controller ?? new AbortController()
      let settled = false
      dispatcher.request({
        method: request.method,
        origin: request.url.origin,
        path: request.url.pathname + request.url.search,
        headers: request.headers,
        body: request.body ?? null,
        signal: controller.signal,
        // timeouts are the transport's (on the Clock)
        headersTimeout: 60 * 60 * 1000,
        bodyTimeout: 0
      }, (error, data) => {
        settled = true
        if (error !== null) resume(Effect.fail(error))
        else resume(Effect.succeed(answer(data.statusCode, data.headers, data.body)))
      })
      return Effect.sync(() => {
        if (!settled) controller.abort()
      })
    })
})

/**
 * An undici `HttpClient` with its own connection pool, closed with the Layer,
 * and the streamable HTTP transport's backend over the same pool (its
 * exchanges skip the `HttpClient` layer: about half the client CPU per
 * exchange). Share it between sessions to one server.
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient: Layer.Layer<HttpClient.HttpClient | StreamableHttpClient.HttpBackend> = Layer.scopedContext(
  Effect.map(NodeHttpClient.makeDispatcher, (dispatcher) =>
    Context.make(HttpClient.HttpClient, NodeHttpClient.makeUndici(dispatcher)).pipe(
      Context.add(StreamableHttpClient.HttpBackend, makeBackend(dispatcher))
    ))
)

/**
 * The client transport for one session, over its own `layerHttpClient`.
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: StreamableHttpClient.StreamableHttpClientOptions): Layer.Layer<Transport> =>
  StreamableHttpClient.layer(options).pipe(Layer.provide(layerHttpClient))
