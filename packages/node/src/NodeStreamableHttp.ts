/**
 * Serves an `McpServer` over streamable HTTP on Node's `http` module, in one
 * Layer. DNS-rebinding protection is on by default when bound to a loopback
 * address, off otherwise unless configured.
 *
 * @example
 * ```ts
 * import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
 * import * as Layer from "effect/Layer"
 *
 * const HttpLive = NodeStreamableHttp.layer({ port: 3000, path: "/mcp", eventStore: true })
 * // Layer.launch(HttpLive.pipe(Layer.provide(ServerLive)))
 * ```
 * @since 0.1.0
 */
import type * as Headers from "effect/http/Headers"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { TransportError } from "@effect-mcp/mcp/McpError"
import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
import { McpAuth } from "@effect-mcp/mcp/McpAuth"
import type { McpServer } from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as NetAddress from "effect/net/NetAddress"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Socket } from "node:net"

/**
 * Where to listen, and the endpoint's options.
 * @since 0.1.0
 * @category models
 */
export interface Options extends StreamableHttpServer.Options {
  /** Port to listen on; 0 picks a free one (read it from `HttpServer.HttpServer`'s address). */
  readonly port: number
  /** Address to bind (default 127.0.0.1). */
  readonly host?: string | undefined
  /** Path of the MCP endpoint (default `/mcp`); other paths get 404. */
  readonly path?: string | undefined
  /**
   * Also serve the deprecated 2024-11-05 HTTP+SSE transport, side by side
   * (default off; `true` means GET `/sse` and POST `/messages`).
   */
  readonly legacySse?: boolean | { readonly ssePath?: string | undefined; readonly messagesPath?: string | undefined } | undefined
  /**
   * At shutdown, after the sessions (and their streams) have ended and idle
   * connections are closed: how long connections still busy (a request whose
   * body never comes, a peer that does not read) may stay before they are cut
   * (default 2 seconds).
   */
  readonly closeGrace?: Duration.Input | undefined
  /**
   * Bytes one response may have written and the client not yet taken
   * (default 32 MiB, as the client's default `maxEventSize` and stdio's
   * message limit); a response that goes over it is ended (an SSE stream's
   * request is then cancelled), and the log says so. Writes wait for the
   * client past node's buffer mark, so this is reached by one large answer or
   * batch of events, read or not: it bounds what a client that never reads
   * costs, and is the largest answer the server can send.
   */
  readonly maxBufferedBytes?: number | undefined
  /**
   * Bytes all responses together may hold for clients that have not taken
   * them (default 128 MiB): past it, the responses waiting longest on their
   * clients are ended until they hold less, so N clients that never read
   * cannot pin N × `maxBufferedBytes`, and the others go on being served.
   * @since 0.1.0
   */
  readonly maxTotalBufferedBytes?: number | undefined
  /**
   * How long a response may wait for the client to take what was written
   * (default 30 s): an SSE stream whose client stops reading, or a large
   * whole body it never reads, is then ended, and the log says so.
   */
  readonly writeTimeout?: Duration.Input | undefined
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"])

const pathOf = (url: string | undefined): string => {
  if (url === undefined) return "/"
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/** No body read: GET and DELETE (the endpoint reads none), or a POST declared too long. */
const noBody: Effect.Effect<Uint8Array, Error> = StreamableHttpServer.answered(new Uint8Array(0))

/**
 * Reads a POST's body with node's callbacks before anything of the endpoint runs: the request's
 * fiber then starts with its body in hand rather than waiting for it (a suspension and a resume
 * per POST). The body is gathered as a list of chunks and copied once. `done` is called once: with
 * the body, as soon as it is one byte over `maxBody` (the endpoint answers 413 at once, and closes
 * the connection); or with the failure; never when the request is gone before its body came. Its
 * listeners stay until the request goes (a flag ends them): four removals per POST for nothing.
 */
const readBody = (req: IncomingMessage, maxBody: number, done: (body: Effect.Effect<Uint8Array, Error>) => void) => {
  // declared too long: the endpoint answers 413 from the header alone, nothing is read
  if (Number(req.headers["content-length"]) > maxBody) return done(noBody)
  const chunks: Array<Buffer> = []
  let size = 0
  let settled = false
  const settle = (body: Effect.Effect<Uint8Array, Error>) => {
    if (settled) return
    settled = true
    done(body)
  }
  req.on("data", (chunk: Buffer) => {
    if (settled) return
    const room = maxBody + 1 - size
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
    size += Math.min(chunk.length, room)
    if (size > maxBody) settle(StreamableHttpServer.answered(Buffer.concat(chunks, size)))
  })
  // read first: the endpoint parses it with no fiber (`StreamableHttpServer.Answered`)
  req.on("end", () => settle(StreamableHttpServer.answered(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))))
  req.on("error", (error: Error) => settle(Effect.fail(error)))
  // gone before its body came: nothing to answer
  req.on("close", () => {
    if (!req.complete) settled = true
  })
}

const endpointRequest = (
  req: IncomingMessage,
  body: Effect.Effect<Uint8Array, Error>
): StreamableHttpServer.EndpointRequest => ({
  method: req.method ?? "GET",
  // node gives header names in lower case; only set-cookie is an array, and a request has none
  headers: req.headers as Headers.Headers,
  arrayBuffer: body,
  // the client's address and port, read by spans only
  remote: req.socket
})

type Stalled = Map<ServerResponse, number>

/** A whole body this large is watched until the client took it; smaller ones fit the socket's buffers. */
const WATCHED_BODY = 64 * 1024

const watchWhole = (res: ServerResponse, stalled: Stalled, now: number) => {
  if (res.writableFinished || res.writableLength < WATCHED_BODY) return
  stalled.set(res, now)
  const done = () => stalled.delete(res)
  res.once("finish", done)
  res.once("close", done)
}

/** A whole body written: watched until its client took it, within the byte budgets. */
const wroteWhole = (res: ServerResponse, limits: WriteLimits): Effect.Effect<void> => {
  watchWhole(res, limits.stalled, limits.now())
  const ended = enforceBudgets(res, limits)
  return ended === undefined ? Effect.void : Effect.logWarning(ended)
}

/** Ends the responses whose client has not taken what was written for `timeoutMs`. */
const cutStalled = (stalled: Stalled, now: number, timeoutMs: number): Effect.Effect<void> =>
  Effect.suspend(() => {
    const cut: Array<ServerResponse> = []
    for (const [res, since] of stalled) if (now - since >= timeoutMs) cut.push(res)
    if (cut.length === 0) return Effect.void
    for (const res of cut) {
      stalled.delete(res)
      res.destroy()
    }
    return Effect.logWarning(`ended ${cut.length} response(s) whose client took nothing for ${timeoutMs} ms`)
  })

/** What the responses waiting on their clients hold: the others hold less than node's buffer mark each. */
const heldBytes = (stalled: Stalled): number => {
  let total = 0
  for (const res of stalled.keys()) total += res.writableLength
  return total
}

/**
 * The byte budgets, after a write to `res`: over its own (`maxBufferedBytes`) it is ended; and
 * while the responses waiting on their clients hold more than `maxTotalBufferedBytes` together,
 * the one waiting longest is ended (it may be `res`), until they do not. Ending a response
 * releases what it held, and its stream's request is cancelled. What was ended, as a warning.
 */
const enforceBudgets = (res: ServerResponse, limits: WriteLimits): string | undefined => {
  if (res.destroyed) return undefined
  const unsent = res.writableLength
  if (unsent > limits.maxBufferedBytes) {
    limits.stalled.delete(res)
    res.destroy()
    return `ended a response whose client left ${unsent} bytes unread, over its budget of ${limits.maxBufferedBytes}`
  }
  if (!limits.stalled.has(res)) return undefined
  let total = heldBytes(limits.stalled)
  if (total <= limits.maxTotalBufferedBytes) return undefined
  const held = total
  let ended = 0
  // the longest waiting first (a stable sort: in the order they came, among equals)
  for (const [waiting] of Array.from(limits.stalled).sort(([, a], [, b]) => a - b)) {
    if (total <= limits.maxTotalBufferedBytes) break
    total -= waiting.writableLength
    limits.stalled.delete(waiting)
    waiting.destroy()
    ended++
  }
  return `ended ${ended} response(s) waiting longest on their clients: responses held ${held} unsent bytes, over the server's budget of ${limits.maxTotalBufferedBytes}`
}

interface WriteLimits {
  readonly stalled: Stalled
  readonly maxBufferedBytes: number
  readonly maxTotalBufferedBytes: number
  readonly now: () => number
  /** Runs an effect outside any fiber of a request (a pushed body's `release`, its warnings). */
  readonly runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void>
}

/** How long a connection answered before its request's body came (a 413) is read on, at most, before it is cut. */
const LINGER = Duration.seconds(5)

/**
 * A response written while its request's body still comes (a 413, with `connection: close`):
 * node would end the socket and destroy it once the response is out, and the client's next
 * bytes, arriving on a closed socket, would bring back a reset, which can discard the 413 unread
 * on the client's side (it got `EPIPE` and no answer). Closed gracefully instead, as HTTP servers
 * linger: the answer, then our side's end, while what still comes is read and dropped (node's
 * parser reads on); the socket is destroyed once the client ends its side, or after `LINGER`.
 * Node closes the connection with the socket's `destroySoon`, so that is what is replaced: as
 * node does it when the request came whole by then (a connection kept alive keeps the override
 * of its last request that set one).
 */
const lingerOnClose = (req: IncomingMessage, res: ServerResponse, limits: WriteLimits): void => {
  const socket = res.socket
  if (socket === null) return
  socket.destroySoon = () => {
    if (req.complete) return Socket.prototype.destroySoon.call(socket)
    socket.end()
    if (socket.readableEnded) return void socket.destroy()
    const cut = limits.runFork(Effect.sleep(LINGER).pipe(Effect.andThen(Effect.sync(() => socket.destroy()))))
    socket.once("end", () => socket.destroy())
    socket.once("close", () => cut.interruptUnsafe())
  }
}

/**
 * A request of the platform's handler answered before its body came (the legacy endpoint's 413,
 * whose body is drained behind it): its connection is cut `LINGER` after the answer unless the
 * body ends by then. Effect 3's platform destroyed the request when the endpoint stopped reading
 * it; Effect 4's drains up to 256 KiB and leaves a client that sends no more to node's keep-alive
 * timeout (65 s here), which is no bound.
 */
const cutUnfinished = (req: IncomingMessage, res: ServerResponse, limits: WriteLimits): void => {
  res.once("finish", () => {
    const socket = req.socket
    if (req.complete || socket.destroyed) return
    const cut = limits.runFork(Effect.sleep(LINGER).pipe(Effect.andThen(Effect.sync(() => {
      if (!req.complete) socket.destroy()
    }))))
    const stop = () => cut.interruptUnsafe()
    req.once("end", stop)
    socket.once("close", stop)
  })
}

/**
 * Writes an endpoint's response: whole bodies in one `end`, streams chunk by
 * chunk, waiting for `'drain'` (for no longer than the write timeout, see
 * `cutStalled`) and ending a stream over its byte budget.
 */
const writeResponse = (
  res: ServerResponse,
  response: HttpServerResponse.HttpServerResponse,
  limits: WriteLimits,
  detached: () => void
): Effect.Effect<void> => {
  if (res.writableEnded) return Effect.void
  const body = response.body
  if (body._tag === "Empty") {
    // said to be empty (a 202, a DELETE's 200): framed by its length, as node does not do for a body
    // after `writeHead` (it would be chunked, "0\r\n\r\n"): a client sees its end from the headers
    if (!("content-length" in response.headers)) res.setHeader("content-length", "0")
    res.writeHead(response.status, response.headers)
    res.end()
    return Effect.void
  }
  res.writeHead(response.status, response.headers)
  switch (body._tag) {
    case "Uint8Array":
      res.end(body.body)
      return wroteWhole(res, limits)
    case "Raw": {
      const raw = body.body
      if (typeof raw === "string" || raw instanceof Uint8Array) {
        res.end(raw)
        return wroteWhole(res, limits)
      }
      // the endpoint makes text bodies only
      res.end()
      return Effect.die(new Error("NodeStreamableHttp: a raw response body that is not text"))
    }
    case "Stream": {
      const write = (chunk: ReadonlyArray<Uint8Array>): Effect.Effect<void> => {
        let full = false
        for (const bytes of chunk) full = !res.write(bytes) || full
        if (full && !res.destroyed) limits.stalled.set(res, limits.now())
        const ended = enforceBudgets(res, limits)
        if (ended !== undefined) return Effect.logWarning(ended)
        return full && !res.destroyed
          ? Effect.callback<void>((resume) => {
            const stop = () => {
              limits.stalled.delete(res)
              res.off("drain", go)
              res.off("close", go)
            }
            const go = () => {
              stop()
              resume(Effect.void)
            }
            res.on("drain", go)
            res.on("close", go)
            return Effect.sync(stop)
          })
          : Effect.void
      }
      // our endpoint's SSE bodies are taken directly (`StreamableHttpServer.directBody`): written
      // as their events come, no fiber waits for a standing stream's next event (see `pushBody`)
      const hand = StreamableHttpServer.directBody(body.stream)
      if (hand !== undefined) {
        pushBody(res, hand, limits)
        detached()
        return Effect.void
      }
      return Stream.runForEachArray(body.stream, write).pipe(
        Effect.catchCause((cause) => Effect.logDebug("an SSE response ended with a failure", cause)),
        Effect.ensuring(Effect.sync(() => res.end()))
      )
    }
    default:
      res.end()
      return Effect.die(new Error(`NodeStreamableHttp: a ${body._tag} response body`))
  }
}

/**
 * An SSE body written as its events are offered, by the fiber that offers them (a node callback
 * writes it, and `'drain'` says when a full buffer has room again): an idle session's standing
 * GET is then no fiber, which with its stack was a fifth of the session's heap. The same limits as
 * the pumped path: a write that fills the buffer is watched for the write timeout, a body over its
 * byte budget is ended. `release` runs once the response is closed, however.
 */
const pushBody = (
  res: ServerResponse,
  hand: StreamableHttpServer.DirectBody,
  limits: WriteLimits
): void => {
  // gone already: no `close` is coming
  if (res.destroyed) return void limits.runFork(hand.release)
  const writer = new PushWriter(res, limits)
  res.once("close", () => {
    limits.stalled.delete(res)
    writer.drained = undefined
    limits.runFork(hand.release)
  })
  // called as its method: an endpoint's `push` may be a class's
  writer.drained = hand.push(writer)
}

/**
 * The writer `pushBody` hands the body, as methods: a standing GET keeps it for the life of its
 * session, and its closures were a part of each idle session's heap.
 */
class PushWriter {
  drained: (() => void) | undefined = undefined
  private watching = false
  /** The response's `'drain'` listener (made when a write first fills the buffer). */
  private onDrain: (() => void) | undefined = undefined
  constructor(readonly res: ServerResponse, readonly limits: WriteLimits) {}

  write(text: string): boolean {
    const { res, limits } = this
    if (res.destroyed || res.writableEnded) return true
    const room = res.write(text)
    if (!room && !this.watching) {
      this.watching = true
      limits.stalled.set(res, limits.now())
      res.once(
        "drain",
        this.onDrain ??= () => {
          this.watching = false
          limits.stalled.delete(res)
          this.drained?.()
        }
      )
    }
    const ended = enforceBudgets(res, limits)
    if (ended !== undefined) {
      limits.runFork(Effect.logWarning(ended))
      return true
    }
    return room
  }

  end(): void {
    this.res.end()
  }
}

const noDetach = () => {}

/**
 * A request whose response died (a defect: a store that could not be reached, say) is still
 * answered: a 500 with a JSON-RPC error when nothing was written yet, else its connection ends.
 * Never a request left without a status. An interrupted one (its client left) is not.
 */
const answerDefect = (res: ServerResponse, exit: Exit.Exit<void>, runFork: (effect: Effect.Effect<void>) => unknown) => {
  if (Exit.isSuccess(exit) || Exit.hasInterrupts(exit) || res.writableEnded || res.destroyed) return
  runFork(Effect.logError("a request failed with a defect; answered 500", exit.cause))
  if (res.headersSent) return void res.destroy()
  res.writeHead(500, { "content-type": "application/json" })
  res.end(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}`)
}

/** A response's writing fiber, interrupted when the client goes before it ended. */
const watched = (res: ServerResponse, fiber: Fiber.Fiber<void>) => {
  res.on("close", () => {
    if (!res.writableEnded) fiber.interruptUnsafe()
  })
}

/** What a failed `listen` says, by its code; the address and the code are always named. */
const LISTEN_FAILURES: Readonly<Record<string, string>> = {
  EADDRINUSE: "the address is already in use (another process listens on it)",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "the address is not one of this machine's",
  ENOTFOUND: "the host name does not resolve"
}

/** A failed `listen` as a `TransportError` naming the code and `host:port`, not `ServeError: An error has occurred`. */
const listenError = (host: string, port: number, cause: unknown): TransportError => {
  const address = `${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${port}`
  const code = typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined
  const why = code === undefined
    ? cause instanceof Error ? cause.message : String(cause)
    : `${LISTEN_FAILURES[code] ?? (cause instanceof Error ? cause.message : "listen failed")} (${code})`
  return new TransportError({ reason: "Listen", message: `Cannot listen on ${address}: ${why}`, cause })
}

/** An HTTP app (v3's `HttpApp.Default`): a response for the request in context. */
type App = Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>

/**
 * Routes requests by path to MCP endpoint apps; other paths get 404.
 *
 * @example
 * ```ts
 * import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Effect from "effect/Effect"
 *
 * const app = Effect.map(StreamableHttpServer.make(), (mcp) => NodeStreamableHttp.mount({ "/mcp": mcp.app }))
 * ```
 * @since 0.1.0
 * @category combinators
 */
export const mount = (routes: Readonly<Record<string, App>>): App =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const query = request.url.indexOf("?")
    const app = routes[query === -1 ? request.url : request.url.slice(0, query)]
    return app ?? Effect.succeed(HttpServerResponse.empty({ status: 404 }))
  })

/**
 * The HTTP server, listening, with the MCP endpoint mounted; provides
 * `StreamableHttpServer` (sessions) and `HttpServer` (the bound address).
 * A failed listen is a `TransportError` (reason `Listen`) naming the code
 * and the address: `Cannot listen on 127.0.0.1:3000: the address is already
 * in use (another process listens on it) (EADDRINUSE)`.
 *
 * @example
 * ```ts
 * import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const ServerLive = McpServer.register(McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "my-server", version: "1.0.0" }))
 * )
 *
 * // listens until SIGINT/SIGTERM, then ends the sessions and closes the server
 * NodeStreamableHttp.layer({ port: 3000, path: "/mcp" }).pipe(
 *   Layer.provide(ServerLive),
 *   Layer.launch,
 *   NodeRuntime.runMain
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<StreamableHttpServer.StreamableHttpServer | HttpServer.HttpServer, TransportError, McpServer> => {
  const host = options.host ?? "127.0.0.1"
  const protection = options.dnsRebindingProtection ?? (LOOPBACK.has(host) ? undefined : false)
  const endpoint = StreamableHttpServer.layer({ ...options, dnsRebindingProtection: protection })
  const legacy = options.legacySse === undefined || options.legacySse === false
    ? undefined
    : {
      ssePath: (options.legacySse === true ? undefined : options.legacySse.ssePath) ?? "/sse",
      messagesPath: (options.legacySse === true ? undefined : options.legacySse.messagesPath) ?? "/messages"
    }
  const mcpPath = options.path ?? "/mcp"
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024
  const maxBufferedBytes = options.maxBufferedBytes ?? 32 * 1024 * 1024
  const maxTotalBufferedBytes = options.maxTotalBufferedBytes ?? 128 * 1024 * 1024
  const writeTimeoutMs = Duration.toMillis(options.writeTimeout ?? Duration.seconds(30))
  let server: Server | undefined
  const serve = Layer.effectDiscard(
    Effect.gen(function*() {
      // made, not listening yet (see `listen`): `server` is set
      const mcp = yield* StreamableHttpServer.StreamableHttpServer
      // the MCP path itself is answered by `listener` below
      const routes: Record<string, App> = {}
      // with `McpAuth`: its Protected Resource Metadata (RFC 9728), path-aware and at the root
      const auth = options.auth ?? Option.getOrUndefined(yield* Effect.serviceOption(McpAuth))
      if (auth !== undefined) for (const path of auth.metadataPaths) routes[path] = auth.metadataApp
      if (legacy !== undefined) {
        const old = yield* LegacySseServer.make({ ...options, dnsRebindingProtection: protection, messagesPath: legacy.messagesPath })
        routes[legacy.ssePath] = old.sse
        routes[legacy.messagesPath] = old.messages
      }
      // the engine makes its own span per MCP request; one per HTTP request on top costs without telling more
      const scope = yield* Effect.scope
      const viaPlatform = Object.keys(routes).length === 0
        ? notFound
        : yield* Effect.flatMap(platformNode, (NodeHttpServer) =>
          NodeHttpServer.makeHandler(mount(routes), { scope }).pipe(
            Effect.provideService(HttpMiddleware.TracerDisabledWhen, () => true)
          ))
      const runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void> = Effect.runForkWith(yield* Effect.context<never>())
      // a client that stops reading is cut after the write timeout, on the Clock
      const clock = yield* Clock.Clock
      const limits: WriteLimits = {
        stalled: new Map(),
        maxBufferedBytes,
        maxTotalBufferedBytes,
        now: () => clock.currentTimeMillisUnsafe(),
        runFork
      }
      if (Number.isFinite(writeTimeoutMs)) {
        yield* Effect.forkScoped(Effect.forever(
          Effect.sleep(Duration.millis(Math.max(10, Math.min(writeTimeoutMs / 4, 5_000)))).pipe(
            Effect.andThen(Effect.suspend(() => cutStalled(limits.stalled, limits.now(), writeTimeoutMs)))
          )
        ))
      }
      const listener = (req: IncomingMessage, res: ServerResponse) => {
        if (pathOf(req.url) !== mcpPath) {
          // the legacy endpoint's 413 (or any answer before the body came) closes gracefully too
          lingerOnClose(req, res, limits)
          if (req.method === "POST") cutUnfinished(req, res, limits)
          return viaPlatform(req, res)
        }
        // the MCP endpoint straight on node:http, without the platform's request and response
        // objects: about half the server's CPU per POST, and memory per standing GET
        const serve = (body: Effect.Effect<Uint8Array, Error>) => {
          // answered before its body came (too long): the connection closes without a reset
          if (!req.complete) lingerOnClose(req, res, limits)
          const responded = mcp.respond(endpointRequest(req, body))
          // answered as it was asked (a 202 for a notification, a standing GET, a refusal): written
          // now, with no fiber; what is left to write (a pumped body), in one
          if (StreamableHttpServer.isAnswered(responded)) {
            let written: Effect.Effect<void>
            try {
              written = writeResponse(res, responded.value, limits, noDetach)
            } catch (defect) {
              // as it would have in the fiber: a defect of its own, not a throw out of node's listener
              written = Effect.die(defect)
            }
            if (!StreamableHttpServer.isAnswered(written)) watched(res, runFork(written))
            return
          }
          // a body written by its senders (`pushBody`) outlives the fiber: the response's
          // `close` then keeps no hold of it
          let fiber: Fiber.Fiber<void> | undefined
          let detached = false
          const detach = () => {
            detached = true
            fiber = undefined
          }
          const running = runFork(Effect.flatMap(responded, (response) => writeResponse(res, response, limits, detach)))
          // detached while it ran (`runFork` runs it at once, up to its first wait): keep no hold of it
          if (!detached) fiber = running
          running.addObserver((exit) => answerDefect(res, exit, runFork))
          if (detached) return
          res.on("close", () => {
            if (fiber !== undefined && !res.writableEnded) fiber.interruptUnsafe()
          })
        }
        // a POST's body first (bounded); the endpoint reads no other method's
        if (req.method === "POST") readBody(req, maxBody, serve)
        else serve(noBody)
      }
      const target = server!
      target.on("request", listener)
      yield* Effect.addFinalizer(() => Effect.sync(() => target.off("request", listener)))
    })
  )
  // sessions end first (their streams with them), then the server closes once its connections
  // have; a peer that never reads must not hold the process: after a grace period every
  // connection still open is cut
  const forceClose = Layer.effectDiscard(Effect.addFinalizer(() =>
    Effect.gen(function*() {
      const target = server
      if (target === undefined || !target.listening) return
      // finalizers are uninterruptible: the timer is made interruptible to be stopped once closed
      const grace = yield* Effect.forkDetach(
        Effect.interruptible(Effect.sleep(options.closeGrace ?? "2 seconds").pipe(Effect.andThen(Effect.sync(() => target.closeAllConnections()))))
      )
      yield* Effect.callback<void>((resume) => {
        target.close(() => resume(Effect.void))
        target.closeIdleConnections()
      })
      yield* Fiber.interrupt(grace)
    })
  ))
  // listening comes last, once the `request` listener is on: a connection accepted earlier (a
  // load balancer's probe, a client started beside the server) would find no listener and wait
  // forever, while the endpoint's layers (a fleet's subscription, the platform's import) build
  return listen(() => server!, options.port, host).pipe(
    Layer.provideMerge(serve),
    Layer.provideMerge(endpoint),
    Layer.provideMerge(forceClose),
    Layer.provideMerge(created(() => (server = keptAlive(createServer()))))
  )
}

/**
 * `@effect/platform-node`'s HTTP server, loaded only to serve an app that is not the MCP
 * endpoint (metadata, legacy SSE, `HttpServer.serve`): with it come undici, ws and the Node
 * context, some 20 MiB of RSS that a server of the MCP endpoint alone never uses.
 */
const platformNode = Effect.promise(() => import("@effect/platform-node/NodeHttpServer"))

const notFound = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(404)
  res.end()
}

/**
 * Idle keep-alive connections stay open 65 s (Node's default is 5 s): a client that pools
 * connections reuses one just as the server closes it, and its POST fails with a reset; with a
 * busy event loop that race is common (500 sessions opened at once lost some). Longer than the
 * usual client pool timeouts (undici: 4 s, or the server's hint), as proxies and load balancers
 * do (60–75 s). Shutdown closes idle connections at once, so this holds nothing at close.
 */
const keptAlive = (server: Server): Server => {
  server.keepAliveTimeout = 65_000
  return server
}

/** The `node:http` server, made (not listening) for the life of the scope; closed with it. */
const created = (evaluate: () => Server): Layer.Layer<never> =>
  Layer.effectDiscard(Effect.acquireRelease(Effect.sync(evaluate), (server) =>
    Effect.callback<void>((resume) => {
      if (!server.listening) return resume(Effect.void)
      server.close(() => resume(Effect.void))
    })))

/**
 * The server made by `created`, listening, as the `HttpServer` service; its `serve` runs an app
 * through the platform's handler.
 */
const listen = (made: () => Server, port: number, host: string): Layer.Layer<HttpServer.HttpServer, TransportError> =>
  Layer.effect(
    HttpServer.HttpServer,
    Effect.gen(function*() {
      const server = made()
      yield* Effect.callback<void, TransportError>((resume) => {
        const onError = (cause: unknown) => resume(Effect.fail(listenError(host, port, cause)))
        server.on("error", onError)
        server.listen({ port, host }, () => {
          server.off("error", onError)
          resume(Effect.void)
        })
      })
      const address = server.address()
      return HttpServer.make({
        address: typeof address === "string" || address === null
          ? NetAddress.unixPathAddress(String(address))
          : NetAddress.inetAddressFromNativeUnsafe(address.address, address.port),
        serve: (app, middleware) =>
          Effect.gen(function*() {
            const NodeHttpServer = yield* platformNode
            const scope = yield* Effect.scope
            const handler = yield* NodeHttpServer.makeHandler(app, {
              scope,
              // `HttpServer.make` gives the middleware untyped (`HttpMiddleware`); the platform's own
              // server hands it to `makeHandler` the same way (as `Applied<App, E, R>`, by a cast)
              ...(middleware === undefined ? {} : { middleware: middleware as HttpMiddleware.HttpMiddleware.Applied<typeof app, unknown, HttpServerRequest.HttpServerRequest | Scope.Scope> })
            })
            server.on("request", handler)
            yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", handler)))
          })
      })
    })
  )
