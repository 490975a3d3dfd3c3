/**
 * The streamable HTTP transport, server side (MCP 2025-11-25), as an
 * `effect/http` handler (an effect over the `HttpServerRequest`): mount it at
 * one path in any Effect HTTP server.
 *
 * - POST carries client messages: notifications and responses only → 202;
 *   requests → an SSE stream that carries everything related to them
 *   (progress, logs, reverse calls through their `HandlerContext`) and ends
 *   after the last response, or JSON when `jsonResponse` is set (a request
 *   whose handler sends a related message is switched to SSE, so nothing is
 *   lost).
 * - GET opens the session's standing stream for messages not related to a
 *   request; GET with `Last-Event-ID` resumes any stream of the session.
 * - DELETE ends the session and interrupts everything it owns.
 * - Sessions: a random `Mcp-Session-Id` issued on initialize, an idle timeout,
 *   a maximum count; or `sessionPerRequest`, one short-lived session per POST.
 * - With an event store (the `eventStore` option), every SSE event has an id unique in the
 *   session, each stream opens with a priming event (`id` + `retry`), and a
 *   client that lost a stream gets what it missed, once, within the store's
 *   budgets and grace period (see `EventStore`): an answer the store had to
 *   evict comes back as a JSON-RPC error with the request's id; a finished
 *   stream the store no longer holds is answered 410.
 * - DNS-rebinding protection (`Host` and `Origin` allow-lists) on by default
 *   for loopback names; `cors` lets pages of other origins call it (one
 *   origin list for both).
 * - `toFetchHandler`: the endpoint of a server Layer as a web `fetch` handler,
 *   for Bun, Deno, Cloudflare Workers or any runtime with `Request`/`Response`.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as HttpRouter from "effect/http/HttpRouter"
 * import * as Effect from "effect/Effect"
 *
 * const McpRoute = HttpRouter.use((router) =>
 *   Effect.gen(function*() {
 *     const mcp = yield* StreamableHttpServer.make({ jsonResponse: false })
 *     yield* router.add("*", "/mcp", mcp.app)
 *   })
 * )
 * ```
 * @since 0.1.0
 */
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scheduler from "effect/Scheduler"
import type * as Scope from "effect/Scope"
import type * as Stream from "effect/Stream"
import * as EventStore from "./EventStore.js"
import * as JsonRpc from "./JsonRpc.js"
import * as Answer from "./internal/answered.js"
import type { PrincipalInfo } from "./internal/auth/principal.js"
import { isPrincipal, McpAuth, type McpAuthShape } from "./internal/auth/service.js"
import * as Deadlines from "./internal/deadlines.js"
import type { Config } from "./internal/httpServer/config.js"
import * as Delete from "./internal/httpServer/delete.js"
import * as Fleet from "./internal/httpServer/fleet.js"
import * as Handover from "./internal/httpServer/fleet/handover.js"
import * as Get from "./internal/httpServer/get.js"
import * as Post from "./internal/httpServer/post.js"
import { tracingIn } from "./internal/tracing.js"
import * as Sessions from "./internal/httpServer/sessions.js"
import * as SseStream from "./internal/httpServer/sseStream.js"
import * as Cors from "./internal/httpServer/cors.js"
import { checkOrigin, type DnsRebindingProtection, guardOf } from "./internal/httpServer/origins.js"
import {
  type EndpointRequest,
  discardDeclaredTooLong,
  fromServerRequest,
  jsonRpcError
} from "./internal/httpServer/validate.js"
import { McpServer } from "./McpServer.js"
import * as SessionStore from "./SessionStore.js"

/**
 * Options of the endpoint: response mode, sessions, limits, DNS-rebinding
 * protection, SSE timings, the event store.
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Answer requests with JSON instead of SSE (default false). */
  readonly jsonResponse?: boolean | undefined
  /**
   * 2025 era without sessions: every POST is served by a session of its own that ends with it; GET
   * and DELETE are 405 (default false). 2026-07-28 requests need no option: they never have a session.
   */
  readonly sessionPerRequest?: boolean | undefined
  /** Largest accepted POST body (default 4 MiB); larger is 413, answered as soon as the limit is crossed. */
  readonly maxBodyBytes?: number | undefined
  /**
   * Deepest nesting of arrays and objects in a POST body (default
   * `JsonRpc.DEFAULT_MAX_DEPTH`, 1000); deeper is refused with 400 and -32700,
   * in time linear in the body's length, before it is parsed.
   */
  readonly maxJsonDepth?: number | undefined
  /** A session with no open stream and no activity for this long is closed (default 30 minutes). */
  readonly sessionIdleTimeout?: Duration.Input | undefined
  /** Sessions open at once; one more initialize gets 503 (default 10 000). */
  readonly maxSessions?: number | undefined
  /**
   * `Host`/`Origin` allow-lists; a request outside them gets 403. Default:
   * loopback host names only (`localhost`, `127.0.0.1`, `[::1]`, any port);
   * `allowedHosts: "*"` checks no `Host`; `false` turns the whole check off
   * (behind a reverse proxy that checks instead) unless `cors` is set, whose
   * origins are then still checked. An `Origin` is allowed when listed here
   * or in `cors.allowedOrigins` (one list: origins, `https://*.example.com`,
   * `*`), when it is the request's own (same host and port as `Host`), or when
   * it is a loopback origin and `Host` a loopback name.
   */
  readonly dnsRebindingProtection?: DnsRebindingProtection
  /**
   * CORS, for pages of other origins (a browser client): preflights answered
   * (`OPTIONS` → 204 allowing GET, POST, DELETE and every header MCP clients
   * send, `mcp-param-*` included), and every answer to an allowed origin,
   * errors and SSE streams included, exposing `Mcp-Session-Id`,
   * `MCP-Protocol-Version` and `WWW-Authenticate`. `allowedOrigins` is the
   * `Origin` allow-list of DNS-rebinding protection too; another origin gets
   * 403 without CORS headers. Default: none (no preflight is answered).
   * @since 0.1.0
   */
  readonly cors?: CorsOptions | undefined
  /** The reconnection delay advised to clients in each stream's priming event (default 1 s). */
  readonly retry?: Duration.Input | undefined
  /**
   * SSE comment sent on quiet streams to keep proxies and runtimes from closing
   * them (default 8 s: under Bun's 10 s idle cut, the shortest of the runtimes
   * served).
   */
  readonly keepAlive?: Duration.Input | undefined
  /** Events buffered per open stream before the sender waits for the reader (default 256). */
  readonly streamBuffer?: number | undefined
  /**
   * Characters of events buffered per open stream before the sender waits
   * for the reader (default 16 Mi), besides what the response holds (see
   * `NodeStreamableHttp`'s `maxBufferedBytes`): a client that stops reading
   * holds at most this, and one event more, in a stream's buffer.
   * @since 0.1.0
   */
  readonly streamBufferBytes?: number | undefined
  /**
   * SSE mode: a request answered within this long, with nothing related sent
   * before, gets its whole event stream as one body (default 20 ms); later
   * answers stream, headers first.
   */
  readonly sseFastPath?: Duration.Input | undefined
  /**
   * Keep SSE events for resumability: `true` (a bounded in-memory store,
   * `EventStore.makeMemory`, living as long as the endpoint), its
   * `MemoryOptions`, or a store of your own (an `EventStoreShape`). Default:
   * none; streams then carry no event ids and cannot be resumed.
   */
  readonly eventStore?: boolean | EventStore.MemoryOptions | EventStore.EventStoreShape | undefined
  /**
   * Bearer-token protection (see `McpAuth`); default: the `McpAuth` in
   * context, if any. Runs before anything else reads the request.
   */
  readonly auth?: McpAuthShape | undefined
  /**
   * Sessions shared by every instance of a fleet (see `SessionStore`;
   * `@effect-mcp/redis` provides one): any instance serves any session, no
   * stickiness needed. Default: the `SessionStore` in context, if any; none
   * when `sessionPerRequest`. Give the fleet a shared `eventStore` too, for
   * resumption on another instance.
   */
  readonly sessionStore?: SessionStore.SessionStoreShape | undefined
}

/**
 * The `cors` option: which origins' pages may call the endpoint, and what
 * else their preflights may ask for.
 * @since 0.1.0
 * @category models
 */
export type CorsOptions = Cors.CorsOptions

/**
 * The `dnsRebindingProtection` option: `Host`/`Origin` allow-lists, or `false`.
 * @since 0.1.0
 * @category models
 */
export type { DnsRebindingProtection }

/**
 * What the endpoint reads of an HTTP request: method, URL, headers and body.
 * @since 0.1.0
 * @category models
 */
export type { EndpointRequest }

/**
 * An effect that is its outcome already (an `Exit`, as `Effect.succeed` makes): `respond` gives
 * one for what it answers as it is asked (a 202 for notifications, a standing GET, a refusal), and
 * a listener that read a request's body first gives it so (`EndpointRequest.arrayBuffer`). Whoever
 * finds one (`isAnswered`) uses its value at once, with no fiber; any other effect is run.
 * @since 0.1.0
 * @category models
 */
export type Answered<A, E = never> = Answer.Answered<A, E>

/**
 * `value`, answered now: `Effect.succeed(value)`, typed as what it is.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 *
 * // a body read before the endpoint asked for it
 * const body = StreamableHttpServer.answered(new TextEncoder().encode("{}"))
 * StreamableHttpServer.isAnswered(body) // true
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const answered: <A>(value: A) => Answered<A> = Answer.now

/**
 * Whether an effect is its outcome already, a success (`Answered`): its `value` is then the
 * result, with nothing left to run or to fail.
 * @since 0.1.0
 * @category guards
 */
export const isAnswered: <A, E, R>(effect: Effect.Effect<A, E, R>) => effect is Answered<A> & Exit.Success<A, never> =
  Answer.isSuccess

/**
 * What writes an SSE body given by `directBody`: `write` returns false when the response's buffer
 * is full (then the function `push` returned is called once it has room), `end` ends the response.
 * @since 0.1.0
 * @category listeners
 */
export interface DirectBodyWriter {
  readonly write: (text: string) => boolean
  readonly end: () => void
}

/**
 * An SSE body of this endpoint taken directly, by a listener that writes responses itself
 * (`NodeStreamableHttp`), instead of running the response's `Stream`: the same bytes, with no
 * channel executors kept per open stream. Either `push` (each event written by the fiber that
 * sends it; returns what to call when a full buffer drained) or `pull` (the next chunks; `None`
 * at the end); `release` runs once, when the response is closed, however it ends.
 * @since 0.1.0
 * @category listeners
 */
export interface DirectBody {
  readonly push: (writer: DirectBodyWriter) => () => void
  readonly pull: Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<never>>
  readonly release: Effect.Effect<void>
}

/**
 * The direct form of a response body of this endpoint (`DirectBody`), if it is one of its SSE
 * bodies: taken, it replaces reading the stream (read one way, never both); undefined for any
 * other body, which is read as the stream it is.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Stream from "effect/Stream"
 *
 * StreamableHttpServer.directBody(Stream.empty) // undefined: not one of the endpoint's bodies
 * ```
 * @since 0.1.0
 * @category listeners
 */
export const directBody = (stream: Stream.Stream<Uint8Array, unknown, unknown>): DirectBody | undefined =>
  SseStream.bodyPullOf(stream)

/**
 * A running endpoint: the handler to mount, and its sessions.
 * @since 0.1.0
 * @category models
 */
export interface StreamableHttpServerShape {
  /** The handler of the MCP endpoint (an `effect/http` handler: an effect over the `HttpServerRequest`). */
  readonly app: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
  /**
   * The endpoint without `effect/http`'s request: what `app` runs, for a
   * listener that reads requests itself (see `NodeStreamableHttp`). What it
   * answers as it is asked is `Answered`: written at once, it needs no fiber.
   */
  readonly respond: (request: EndpointRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** Sessions open now (`sessionPerRequest`: the POSTs being served, each a session of its own). */
  readonly sessionCount: Effect.Effect<number>
  /** Ends a session as DELETE would. */
  readonly closeSession: (sessionId: string) => Effect.Effect<void>
}

/**
 * A running streamable HTTP endpoint for the `McpServer` in context.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Effect from "effect/Effect"
 *
 * const openSessions = Effect.flatMap(StreamableHttpServer.StreamableHttpServer, (endpoint) => endpoint.sessionCount)
 * ```
 * @since 0.1.0
 * @category tags
 */
export class StreamableHttpServer extends Context.Service<
  StreamableHttpServer,
  StreamableHttpServerShape
>()("@effect-mcp/mcp/StreamableHttpServer") {}


// The endpoint's parts, each in its module under `internal/httpServer/`:
// - `validate`: Host/Origin, media types, protocol version, the body under its limits
// - `registry` (shared with `LegacySseServer`) and `sessions`: open/lookup/close, idle sweep, maximum
// - `sseStream`: SSE streams, their event-store binding, routing of server messages, keep-alive
// - `post`, `get`, `delete`: the method handlers

const isStore = (u: boolean | EventStore.MemoryOptions | EventStore.EventStoreShape): u is EventStore.EventStoreShape =>
  typeof u === "object" && typeof (u as Partial<EventStore.EventStoreShape>).append === "function"

/** The store the `eventStore` option asks for; an in-memory one lives in the scope. */
const eventStoreOf = (
  option: Options["eventStore"]
): Effect.Effect<EventStore.EventStoreShape | undefined, never, Scope.Scope> =>
  option === undefined || option === false
    ? Effect.succeed(undefined)
    : isStore(option)
    ? Effect.succeed(option)
    : EventStore.makeMemory(option === true ? undefined : option)

/** Under the shortest idle cut of the runtimes served (Bun's 10 s). */
const DEFAULT_KEEP_ALIVE = Duration.seconds(8)

const configOf = (options: Options) =>
  Effect.gen(function*() {
    const config: Config = {
      server: yield* McpServer,
      store: yield* eventStoreOf(options.eventStore),
      fleet: options.sessionPerRequest === true
        ? undefined
        : options.sessionStore ?? Option.getOrUndefined(yield* Effect.serviceOption(SessionStore.SessionStore)),
      auth: options.auth ?? Option.getOrUndefined(yield* Effect.serviceOption(McpAuth)),
      jsonMode: options.jsonResponse === true,
      sessionPerRequest: options.sessionPerRequest === true,
      maxBody: options.maxBodyBytes ?? 4 * 1024 * 1024,
      maxDepth: options.maxJsonDepth ?? JsonRpc.DEFAULT_MAX_DEPTH,
      idleMs: Duration.toMillis(options.sessionIdleTimeout ?? Duration.minutes(30)),
      maxSessions: options.maxSessions ?? 10_000,
      retryMs: Math.round(Duration.toMillis(options.retry ?? Duration.seconds(1))),
      keepAlive: Duration.fromInputUnsafe(options.keepAlive ?? DEFAULT_KEEP_ALIVE),
      bufferSize: options.streamBuffer ?? 256,
      bufferBytes: options.streamBufferBytes ?? 16 * 1024 * 1024,
      sseFastPathMs: Duration.toMillis(options.sseFastPath ?? Duration.millis(20)),
      guard: guardOf(options.dnsRebindingProtection, options.cors?.allowedOrigins),
      cors: options.cors === undefined ? undefined : Cors.make(options.cors)
    }
    return config
  })

/**
 * Builds the endpoint for the `McpServer` in context. Closing the scope ends
 * every session. Time is the Clock's: the idle sweep, keep-alive and the SSE
 * fast path follow a TestClock.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as HttpRouter from "effect/http/HttpRouter"
 * import * as Effect from "effect/Effect"
 *
 * // the endpoint for the McpServer in context, mounted in a router of your own
 * const McpRoute = HttpRouter.use((router) =>
 *   Effect.gen(function*() {
 *     const mcp = yield* StreamableHttpServer.make({ eventStore: true, sessionIdleTimeout: "10 minutes", maxSessions: 1000 })
 *     yield* router.add("*", "/mcp", mcp.app)
 *   })
 * )
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = {}
): Effect.Effect<StreamableHttpServerShape, never, McpServer | Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* configOf(options)
    // the fast path's deadlines: one sleeping fiber for every POST waiting, not a timer each
    const context = yield* Effect.context<never>()
    const fastPath = Deadlines.make(yield* Clock.Clock, Effect.runForkWith(context))
    yield* Effect.addFinalizer(() => fastPath.stop)
    // with a fleet, the streams hand over to other instances through its bus
    const { sessions, streams } = yield* Sessions.make(config, config.fleet === undefined ? undefined : Handover.make(config.fleet))
    const fleet = config.fleet === undefined ? undefined : yield* Fleet.make(config, config.fleet, sessions, streams)
    const endpoint = { config, sessions, streams, fleet }
    // spans' `client.address`/`client.port` are noted per POST only under a tracer that collects spans
    const post = Post.make(endpoint, fastPath, tracingIn(context))
    const get = Get.make(endpoint)
    const del = Delete.make(endpoint)
    const { auth, cors, guard, sessionPerRequest } = config
    const registry = sessions.registry

    const byMethod = (
      request: EndpointRequest,
      principal: PrincipalInfo | undefined
    ): Answer.Answer<HttpServerResponse.HttpServerResponse> => {
      switch (request.method) {
        case "POST":
          return post(request, principal)
        case "GET":
          return get(request, principal)
        case "DELETE":
          return del(request, principal)
        default:
          return Answer.now(
            jsonRpcError(405, -32000, "Method Not Allowed", null, { allow: sessionPerRequest ? "POST" : "GET, POST, DELETE" })
          )
      }
    }

    const authenticated = (request: EndpointRequest): Answer.Answer<HttpServerResponse.HttpServerResponse> => {
      if (auth === undefined) return byMethod(request, undefined)
      return Effect.flatMap(
        auth.authenticate(request.headers),
        (checked) => isPrincipal(checked) ? byMethod(request, checked) : Effect.succeed(checked)
      )
    }

    const respond = (request: EndpointRequest): Answer.Answer<HttpServerResponse.HttpServerResponse> => {
      const rejected = checkOrigin(guard, request.headers)
      if (rejected !== undefined) return Answer.now(rejected)
      const origin = request.headers["origin"]
      if (cors === undefined || origin === undefined) return authenticated(request)
      // an allowed origin (checked above): its preflight answered before auth (it carries no token)
      if (Cors.isPreflight(request.method, request.headers)) return Answer.now(Cors.preflight(cors, origin, request.headers))
      return Cors.allowing(cors, origin, authenticated(request))
    }

    // bodies past the limit are drained here, after the 413 (see `fromServerRequest`)
    const serverScope = yield* Effect.scope
    return {
      // interruptible, as the endpoint expects (a POST whose client hangs up is interrupted): an
      // `effect/http` server runs its handler without interruption unless told so
      app: Effect.interruptible(Effect.flatMap(
        HttpServerRequest.HttpServerRequest,
        (request) => {
          const answer = respond(fromServerRequest(request, config.maxBody, serverScope))
          const discard = discardDeclaredTooLong(request, config.maxBody, serverScope)
          return discard === undefined ? answer : Effect.andThen(discard, answer)
        }
      )),
      respond,
      sessionCount: Effect.sync(() => (sessionPerRequest ? registry.open.size : registry.byId.size)),
      closeSession: (id) =>
        Effect.suspend(() => {
          const session = registry.byId.get(id)
          return session === undefined ? Effect.void : sessions.close(session)
        })
    } satisfies StreamableHttpServerShape
  })

/**
 * The endpoint as a Layer over the `McpServer` in context; its event store,
 * if any, is the `eventStore` option.
 *
 * @example
 * ```ts
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 *
 * const EndpointLive = StreamableHttpServer.layer({ jsonResponse: true })
 * // EndpointLive.pipe(Layer.provide(ServerLive))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (options?: Options): Layer.Layer<StreamableHttpServer, never, McpServer> =>
  Layer.effect(StreamableHttpServer, make(options))

/**
 * The endpoint as a Layer over the `McpServer` and the `EventStore` in
 * context: the store is a requirement of its type (for a store built as a
 * Layer, a shared one say). The `eventStore` option is taken from context.
 *
 * @example
 * ```ts
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Layer from "effect/Layer"
 *
 * const EndpointLive = StreamableHttpServer.layerWithEventStore().pipe(Layer.provide(EventStore.layerMemory()))
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerWithEventStore = (
  options?: Omit<Options, "eventStore">
): Layer.Layer<StreamableHttpServer, never, McpServer | EventStore.EventStore> =>
  Layer.effect(
    StreamableHttpServer,
    Effect.flatMap(EventStore.EventStore, (store) => make({ ...options, eventStore: store }))
  )

/**
 * Options of `toFetchHandler`: the endpoint's (`Options`), where it answers, and whether 2025
 * clients get sessions. Its defaults are a deployed handler's: no `Host` check
 * (`dnsRebindingProtection: { allowedHosts: "*" }`: a public name is not refused; give
 * `allowedHosts` to check it, as a server on a loopback name should), the `Origin` check on
 * (the request's own origin, `cors.allowedOrigins`, loopback pages of a loopback host).
 * @since 0.1.0
 * @category models
 */
export interface FetchHandlerOptions extends Options {
  /** The endpoint's path (`/mcp`); other paths get 404. Default: the endpoint answers on every path. */
  readonly path?: string | undefined
  /**
   * Whether 2025-11-25 clients get sessions (`Mcp-Session-Id`, the standing GET, reverse calls,
   * DELETE). Default: true, except on Cloudflare Workers (`navigator.userAgent` is
   * `Cloudflare-Workers`), whose isolate cannot hold one request's promises for another: there
   * each 2025 POST is served on its own (`sessionPerRequest`), GET and DELETE are 405, and a
   * handler's sampling or elicitation fails saying why. 2026-07-28 clients need no session and
   * get everything, multi-round sampling and elicitation included, on every runtime.
   */
  readonly sessions?: boolean | undefined
}

/**
 * A web `fetch` handler (`toFetchHandler`): `fetch` answers a `Request`; `close` (or `dispose`,
 * its alias) ends every session, stream and fiber of the endpoint and releases the server Layer.
 * @since 0.1.0
 * @category models
 */
export interface FetchHandler {
  readonly fetch: (request: Request) => Promise<Response>
  readonly close: () => Promise<void>
  readonly dispose: () => Promise<void>
}

/**
 * On workerd, the scheduler Effect advises there (see `Scheduler.MixedScheduler`): fibers shared by
 * requests resume on microtasks, not on timers a request owns (which workerd may discard).
 */
const SyncScheduler = Layer.succeed(Scheduler.Scheduler, new Scheduler.MixedScheduler("sync"))

/** Whether this runs in Cloudflare's workerd (whose `navigator.userAgent` says so). */
const onWorkerd = (): boolean =>
  (globalThis as { readonly navigator?: { readonly userAgent?: unknown } }).navigator?.userAgent === "Cloudflare-Workers"

const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/** The endpoint's app behind a path (every path when undefined), with `McpAuth`'s metadata documents beside it. */
const routed = (
  app: StreamableHttpServerShape["app"],
  path: string | undefined,
  auth: McpAuthShape | undefined
): StreamableHttpServerShape["app"] => {
  const metadata = auth?.metadataPaths ?? []
  if (path === undefined && metadata.length === 0) return app
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const at = pathOf(request.url)
    if (metadata.includes(at)) return auth!.metadataApp
    return path === undefined || at === path ? app : Effect.succeed(HttpServerResponse.empty({ status: 404 }))
  })
}

/**
 * The endpoint of a server Layer as a web `fetch` handler: one way to serve on any runtime with
 * `Request` and `Response` (Bun, Deno, Cloudflare Workers, Node with undici, a test). The Layer is
 * built at once (make the handler at module scope), on workerd at the first request (it forbids
 * timers at module scope); `close` ends the sessions and releases it.
 * Defaults fit a deployed handler (see `FetchHandlerOptions`): no `Host` check, the `Origin`
 * check on, an 8 s keep-alive, no 2025 sessions on Cloudflare Workers.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const ServerLive = McpServer.register(McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "my-server", version: "1.0.0" }))
 * )
 *
 * const mcp = StreamableHttpServer.toFetchHandler(ServerLive, {
 *   path: "/mcp",
 *   cors: { allowedOrigins: ["https://app.example.com"] }
 * })
 *
 * // Bun.serve({ fetch: mcp.fetch }), Deno.serve(mcp.fetch), `export default { fetch: mcp.fetch }` on Workers
 * const answer: Promise<Response> = mcp.fetch(new Request("http://localhost/mcp", { method: "DELETE" }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const toFetchHandler = <E>(server: Layer.Layer<McpServer, E>, options: FetchHandlerOptions = {}): FetchHandler => {
  const { path, sessions, ...endpoint } = options
  const workerd = onWorkerd()
  const endpointLayer = layer({
    ...endpoint,
    dnsRebindingProtection: endpoint.dnsRebindingProtection ?? { allowedHosts: "*" },
    sessionPerRequest: endpoint.sessionPerRequest ?? !(sessions ?? !workerd)
  }).pipe(Layer.provideMerge(server), Layer.provideMerge(workerd ? SyncScheduler : Layer.empty))
  const build = () =>
    HttpEffect.toWebHandlerLayerWith(endpointLayer, {
      toHandler: (context) =>
        Effect.succeed(routed(
          Context.get(context, StreamableHttpServer).app,
          path,
          endpoint.auth ?? Option.getOrUndefined(Context.getOption(context, McpAuth))
        ))
    })
  // workerd forbids timers and random values at module scope, where the handler is made: there the
  // Layer is built on the first request
  let built = workerd ? undefined : build()
  const close = () => built === undefined ? Promise.resolve() : built.dispose()
  return { fetch: (request) => (built ??= build()).handler(request), close, dispose: close }
}
