/**
 * The deprecated HTTP+SSE transport of MCP 2024-11-05, server side, as two
 * `effect/http` handlers: `sse` (GET opens the session's event stream, whose
 * first event, `endpoint`, names the URL to POST to) and `messages` (POST of
 * one message or a batch, answered 202; the answers travel on the stream).
 *
 * It runs the same `McpServer` as the streamable transport, with the same
 * protections (`Host`/`Origin` allow-lists, body limit, session validation,
 * idle timeout) and the same `cors` option (preflights of the GET and the
 * POST answered, every answer to an allowed origin readable by its page), so
 * a server can offer both side by side, as the spec's backwards-compatibility
 * section describes.
 *
 * @example
 * ```ts
 * import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
 * import * as Effect from "effect/Effect"
 *
 * const endpoints = Effect.gen(function*() {
 *   const legacy = yield* LegacySseServer.make({ messagesPath: "/messages" })
 *   // mount legacy.sse at GET /sse and legacy.messages at POST /messages
 * })
 * ```
 * @since 0.1.0
 */
import * as Headers from "effect/http/Headers"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberMap from "effect/FiberMap"
import * as Queue from "effect/Queue"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Cors from "./internal/httpServer/cors.js"
import * as Registry from "./internal/httpServer/registry.js"
import { checkOrigin, type DnsRebindingProtection, guardOf } from "./internal/httpServer/origins.js"
import {
  discardDeclaredTooLong,
  fromServerRequest,
  isParsed,
  jsonRpcError,
  readJsonBody
} from "./internal/httpServer/validate.js"
import * as MediaType from "./internal/mediaType.js"
import * as JsonRpc from "./JsonRpc.js"
import type { PrincipalInfo } from "./internal/auth/principal.js"
import { isPrincipal, McpAuth, type McpAuthShape } from "./internal/auth/service.js"
import { McpServer } from "./McpServer.js"
import type { CorsOptions } from "./StreamableHttpServer.js"
import { type TransportShape, fromMailbox } from "./Transport.js"
import * as Telemetry from "./internal/telemetry.js"

/**
 * Options of the legacy endpoints.
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The path clients POST to, announced in the `endpoint` event (default `/messages`). */
  readonly messagesPath?: string | undefined
  /** Largest accepted POST body (default 4 MiB); larger is 413, answered as soon as the limit is crossed. */
  readonly maxBodyBytes?: number | undefined
  /** Deepest nesting of arrays and objects in a POST body (default `JsonRpc.DEFAULT_MAX_DEPTH`); deeper is 400, -32700. */
  readonly maxJsonDepth?: number | undefined
  /** A session without a POST for this long is closed (default 30 minutes). */
  readonly sessionIdleTimeout?: Duration.Input | undefined
  /** Sessions open at once; one more stream gets 503 (default 10 000). */
  readonly maxSessions?: number | undefined
  readonly dnsRebindingProtection?: DnsRebindingProtection
  /**
   * Lets pages of other origins use the endpoints, as `StreamableHttpServer`'s option of the same
   * name: a preflight (`OPTIONS` with `Access-Control-Request-Method`) of the GET or the POST from
   * an allowed origin is answered 204, and every answer to one, the event stream included, carries
   * `Access-Control-Allow-Origin`. `allowedOrigins` joins the `Origin` allow-list.
   */
  readonly cors?: CorsOptions | undefined
  /** SSE comment interval on the stream (default 15 s). */
  readonly keepAlive?: Duration.Input | undefined
  /** Events buffered per stream before the sender waits for the reader (default 256). */
  readonly streamBuffer?: number | undefined
  /** Bearer-token protection (see `McpAuth`); default: the `McpAuth` in context, if any. */
  readonly auth?: McpAuthShape | undefined
}

/**
 * The two legacy endpoints, to mount at GET `/sse` and POST `/messages`.
 * @since 0.1.0
 * @category models
 */
export interface LegacySseServerShape {
  /** GET: opens a session's event stream. */
  readonly sse: Handler
  /** POST `?sessionId=…`: a client message. */
  readonly messages: Handler
  readonly sessionCount: Effect.Effect<number>
}

/** An `effect/http` handler: the response to the `HttpServerRequest` in context. */
type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>

/** A session: its event stream; its `lastActivity` is its latest POST. */
interface Session extends Registry.Entry {
  /** Ended (`Cause.Done`) when the session closes. */
  readonly incoming: Queue.Queue<JsonRpc.Frame, Cause.Done>
  readonly outgoing: Queue.Queue<string, Cause.Done>
  closed: boolean
}

const encoder = new TextEncoder()

/**
 * Builds the two endpoints for the `McpServer` in context. Closing the scope ends every session.
 *
 * @example
 * ```ts
 * import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
 * import * as HttpRouter from "effect/http/HttpRouter"
 * import * as Effect from "effect/Effect"
 *
 * const LegacyRoutes = HttpRouter.use((router) =>
 *   Effect.gen(function*() {
 *     const legacy = yield* LegacySseServer.make({ messagesPath: "/messages" })
 *     yield* router.add("GET", "/sse", legacy.sse)
 *     yield* router.add("POST", "/messages", legacy.messages)
 *   })
 * )
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<LegacySseServerShape, never, McpServer | Scope.Scope> =>
  Effect.gen(function*() {
    const server = yield* McpServer
    const fibers = yield* FiberMap.make<string>()
    const messagesPath = options.messagesPath ?? "/messages"
    const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024
    const maxDepth = options.maxJsonDepth ?? JsonRpc.DEFAULT_MAX_DEPTH
    const scope = yield* Effect.scope
    const bufferSize = options.streamBuffer ?? 256
    const protection = guardOf(options.dnsRebindingProtection, options.cors?.allowedOrigins)
    const cors = options.cors === undefined ? undefined : Cors.make(options.cors)
    const auth = options.auth ?? Option.getOrUndefined(yield* Effect.serviceOption(McpAuth))
    /** The principal of a request, or the response that refuses it; undefined without `McpAuth`. */
    const authenticate = (
      headers: Headers.Headers
    ): Effect.Effect<PrincipalInfo | HttpServerResponse.HttpServerResponse | undefined> =>
      auth === undefined ? Effect.succeed(undefined) : auth.authenticate(headers)

    const closeSession = (session: Session) =>
      Effect.suspend(() => {
        if (session.closed) return Effect.void
        session.closed = true
        registry.remove(session)
        return Queue.end(session.outgoing).pipe(
          Effect.andThen(Queue.end(session.incoming)),
          Effect.andThen(FiberMap.remove(fibers, session.id))
        )
      })
    // sessions, the idle sweep (a session without a POST for the idle timeout), on the Clock
    const registry = yield* Registry.make<Session>({
      maxSessions: options.maxSessions ?? 10_000,
      idleMs: Duration.toMillis(options.sessionIdleTimeout ?? Duration.minutes(30)),
      auth,
      close: closeSession
    })
    // one timer for every stream: a comment keeps proxies from closing quiet streams
    yield* Registry.every(
      options.keepAlive ?? Duration.seconds(15),
      Effect.sync(() => {
        for (const session of registry.open) Queue.offerUnsafe(session.outgoing, ": keep-alive\n\n")
      })
    )

    /**
     * The `Host`/`Origin` check, then CORS: an allowed origin's preflight answered (before auth: it
     * carries no token), its other answers marked readable.
     */
    const guarded = (
      answer: (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse>
    ): Handler =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const rejected = checkOrigin(protection, request.headers)
        if (rejected !== undefined) return Effect.succeed(rejected)
        const origin = request.headers["origin"]
        if (cors === undefined || origin === undefined) return answer(request)
        if (Cors.isPreflight(request.method, request.headers)) return Effect.succeed(Cors.preflight(cors, origin, request.headers))
        return Effect.map(answer(request), (response) => Cors.allow(cors, origin, response))
      })

    const sse: Handler = guarded((request) =>
      Effect.gen(function*() {
        if (request.method !== "GET") return jsonRpcError(405, -32000, "Method Not Allowed", null, { allow: "GET" })
        const accept = request.headers["accept"]
        if (accept !== undefined && !MediaType.accepts(accept, "text/event-stream")) {
          return jsonRpcError(406, -32000, "Not Acceptable: Accept must include text/event-stream")
        }
        const principal = yield* authenticate(request.headers)
        if (principal !== undefined && !isPrincipal(principal)) return principal
        if (registry.full()) return jsonRpcError(503, -32000, "Service Unavailable: too many sessions")
        const id = Registry.randomSessionId()
        const session: Session = {
          id,
          incoming: yield* Queue.make<JsonRpc.Frame, Cause.Done>(),
          outgoing: yield* Queue.make<string, Cause.Done>({ capacity: bufferSize }),
          lastActivity: registry.now(),
          closed: false,
          principal
        }
        registry.add(session, true)
        const transport: TransportShape = {
          ...fromMailbox(session.incoming),
          send: (message) =>
            Queue.offer(session.outgoing, `event: message\ndata: ${JSON.stringify(message)}\n\n`).pipe(Effect.asVoid),
          info: { sessionId: id, principal: () => session.principal, attributes: Telemetry.HTTP_SERVER_ATTRIBUTES }
        }
        yield* FiberMap.run(
          fibers,
          id,
          server.serve(transport).pipe(Effect.ensuring(Effect.suspend(() => closeSession(session))))
        )
        const endpoint = `${messagesPath}?sessionId=${id}`
        const body = Stream.concat(
          Stream.make(`event: endpoint\ndata: ${endpoint}\n\n`),
          Stream.fromQueue(session.outgoing)
        ).pipe(
          Stream.map((text) => encoder.encode(text)),
          // the stream is the session: when the client goes, so does the session
          Stream.ensuring(closeSession(session))
        )
        return HttpServerResponse.stream(body, {
          contentType: "text/event-stream",
          headers: Headers.fromInput({ "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" })
        })
      }))

    const messages: Handler = guarded((request) =>
      Effect.gen(function*() {
        if (request.method !== "POST") return jsonRpcError(405, -32000, "Method Not Allowed", null, { allow: "POST" })
        if (!MediaType.isJson(request.headers["content-type"])) {
          return jsonRpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json")
        }
        const query = request.url.indexOf("?")
        const sessionId = query === -1 ? null : new URLSearchParams(request.url.slice(query + 1)).get("sessionId")
        if (sessionId === null) return jsonRpcError(400, -32000, "Bad Request: sessionId is required")
        const principal = yield* authenticate(request.headers)
        if (principal !== undefined && !isPrincipal(principal)) return principal
        const session = registry.find(sessionId, principal)
        if (!Registry.isSession(session)) return session
        const discard = discardDeclaredTooLong(request, maxBody, scope)
        if (discard !== undefined) yield* discard
        const read = yield* readJsonBody(fromServerRequest(request, maxBody, scope), maxBody, maxDepth)
        if (!isParsed(read)) return read
        const frame = JsonRpc.decode(read.json)
        if (JsonRpc.isInvalid(frame) && frame.respond) {
          return jsonRpcError(400, frame.error.code, frame.error.message, frame.id)
        }
        if (auth !== undefined && principal !== undefined) {
          const requests = (Array.isArray(frame) ? frame : [frame]).filter(JsonRpc.isRequest)
          const denied = yield* auth.authorize(principal, requests, server.requiredScopes)
          if (denied !== undefined) return denied
          session.principal = principal
        }
        session.lastActivity = registry.now()
        yield* Queue.offer(session.incoming, frame)
        return HttpServerResponse.text("Accepted", { status: 202 })
      }))

    // interruptible, as the endpoints expect (a request whose client hangs up is interrupted): an
    // `effect/http` server runs its handler without interruption unless told so
    return {
      sse: Effect.interruptible(sse),
      messages: Effect.interruptible(messages),
      sessionCount: Effect.sync(() => registry.byId.size)
    } satisfies LegacySseServerShape
  })
