/**
 * The 2026-07-28 path of the server engine: a request that carries the
 * `_meta` envelope (or arrives on a connection whose era is 2026) is served
 * here, statelessly. Its envelope is checked (−32602, −32022), removed and
 * unknown methods are −32601, `server/discover` is answered here, and the
 * rest goes to the same method handlers as on 2025, with a per-request view
 * of the client (`ServerSession` with the envelope's capabilities, info and
 * log level) so that handlers run unchanged. Results get `resultType`,
 * `_meta[serverInfo]` and, where cacheable, `ttlMs`/`cacheScope`.
 *
 * Reverse calls (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) are the
 * `reverseCall` of the request's `HandlerContext`: a capability the envelope
 * does not declare is −32021; multi-round-trip requests plug in there.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as HandlerContext from "../../HandlerContext.js"
import type * as JsonRpc from "../../JsonRpc.js"
import * as Lifecycle from "../../Lifecycle.js"
import { ErrorResponse, ProtocolError } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../schema2026/core.js"
import type { ListenHook } from "../../McpServer.js"
import type * as Protocol from "../../Protocol.js"
import * as ProtocolEra from "../../ProtocolEra.js"
import { logs, type ServerSessionShape } from "../../ServerSession.js"
import { escalate } from "./failure.js"
import * as Headers2026 from "../headers2026.js"
import * as InputRound from "./inputRound.js"
import { formatIssue, validator } from "../validate.js"
import type { Dispatcher } from "./dispatch.js"
import type { Identity } from "./lifecycle.js"
import * as Listen from "./listen.js"
import type { FeatureRegistry } from "./registry.js"
import { tightest } from "./request.js"
import type { Sessions, SessionState } from "./sessions.js"
import type { EngineIncomingRequest } from "../protocol/make.js"

/** What a 2026 request's `_meta` says about its client. */
export interface Envelope {
  readonly version: string
  readonly clientCapabilities: McpSchema2026.ClientCapabilities
  readonly clientInfo: McpSchema.Implementation | undefined
  readonly logLevel: McpSchema.LoggingLevel | undefined
}

/** A caching hint: how long a result stays fresh, and for whom. */
export interface CacheHint {
  readonly ttlMs: number
  readonly cacheScope: McpSchema2026.CacheScope
}

/** The methods whose complete results carry a caching hint. */
export const CACHEABLE_METHODS = [
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read"
] as const

export type CacheableMethod = typeof CACHEABLE_METHODS[number]

/** Not cached unless the server says so: fresh for 0 ms, for this caller only. */
export const DEFAULT_CACHE_HINT: CacheHint = { ttlMs: 0, cacheScope: "private" }

const decodeMeta = validator(McpSchema2026.RequestMetaObject)
const V = McpSchema2026.PROTOCOL_VERSION_META_KEY
const CAPS = McpSchema2026.CLIENT_CAPABILITIES_META_KEY

const badEnvelope = (problem: string, data: unknown) =>
  ErrorResponse.invalidParams(`Invalid params: the _meta envelope of protocol revision 2026-07-28 ${problem}`, {
    envelope: data
  })

/** −32022: `requested` is not a version this server serves (`data: { supported, requested }`). */
export const unsupportedVersion = (requested: unknown, supported: ReadonlyArray<string>): ErrorResponse =>
  new ErrorResponse({
    code: McpSchema2026.UNSUPPORTED_PROTOCOL_VERSION,
    message: typeof requested === "string"
      ? `Unsupported protocol version: ${requested.slice(0, 100)} (supported: ${supported.join(", ")})`
      : "Unsupported protocol version: the request did not name a protocol version",
    data: typeof requested === "string" ? { supported, requested } : { supported }
  })

/**
 * The envelopes read so far, by the params object they were read from: a 2026 POST's is read
 * at the HTTP edge (`Edge2026.refuse`) and again when the engine serves it, from the same object.
 */
const envelopes = new WeakMap<object, readonly [ReadonlyArray<string>, Result.Result<Envelope, ErrorResponse>]>()

/**
 * The envelope of a request's params, checked: its shape (−32602 naming what is missing or
 * wrong), then its version (−32022 unless it is one of `supported`). Read once per params
 * object and versions served.
 */
export const readEnvelope = (
  params: unknown,
  supported: ReadonlyArray<string>
): Result.Result<Envelope, ErrorResponse> => {
  if (typeof params !== "object" || params === null) return checkEnvelope(params, supported)
  const known = envelopes.get(params)
  if (known !== undefined && known[0] === supported) return known[1]
  const read = checkEnvelope(params, supported)
  envelopes.set(params, [supported, read])
  return read
}

const checkEnvelope = (
  params: unknown,
  supported: ReadonlyArray<string>
): Result.Result<Envelope, ErrorResponse> => {
  const meta = typeof params === "object" && params !== null ? (params as { readonly _meta?: unknown })._meta : undefined
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
    return Result.fail(badEnvelope("is missing: params._meta is required", { missing: ["_meta"] }))
  }
  const missing = [V, CAPS].filter((key) => !(key in meta))
  if (missing.length > 0) return Result.fail(badEnvelope(`lacks ${missing.join(", ")}`, { missing }))
  const decoded = decodeMeta(meta)
  if (Result.isFailure(decoded)) return Result.fail(badEnvelope(`is malformed: ${formatIssue(decoded.failure)}`, { invalid: true }))
  const m = decoded.success
  const version = m[V]
  if (!supported.includes(version)) return Result.fail(unsupportedVersion(version, supported))
  return Result.succeed({
    version,
    clientCapabilities: m[CAPS],
    clientInfo: m[McpSchema2026.CLIENT_INFO_META_KEY] as McpSchema.Implementation | undefined,
    logLevel: m[McpSchema2026.LOG_LEVEL_META_KEY]
  })
}

/**
 * What every per-request view shares, never written: 2026 has no `resources/subscribe` (refused
 * before dispatch), and a 2026 request's feature services are made for it alone
 * (`request.servicesOnce`), not kept.
 */
const NO_SUBSCRIPTIONS = new Set<string>()
const NO_SERVICES = new WeakMap<never, never>()

/**
 * The per-request view of the client: a `SessionState` whose `ServerSession` answers from the
 * envelope, sends on the request's own stream, and logs only at the envelope's level.
 */
export const requestView = (
  parent: SessionState,
  envelope: Envelope,
  protocol: Protocol.Protocol,
  requestId: JsonRpc.RequestId
): SessionState => {
  const route = { relatedRequestId: requestId }
  const capabilities = envelope.clientCapabilities as McpSchema.ClientCapabilities
  const shape: ServerSessionShape = {
    sessionId: parent.shape.sessionId,
    era: "2026",
    protocolVersion: () => envelope.version,
    clientInfo: () => envelope.clientInfo,
    clientCapabilities: () => capabilities,
    logLevel: () => envelope.logLevel,
    notify: (method, params) => protocol.notify(method, params, route),
    log: (level, data, logger) =>
      logs(shape, level)
        ? protocol.notify(
          "notifications/message",
          logger === undefined ? { level, data } : { level, data, logger },
          route
        ).pipe(Effect.ignore)
        : Effect.void
  }
  return {
    shape,
    principal: parent.principal,
    subscriptions: NO_SUBSCRIPTIONS,
    services: NO_SERVICES,
    logLevel: envelope.logLevel,
    initialized: true
  }
}

/** `{ sampling: {} }` for `["sampling"]`, `{ sampling: { tools: {} } }` for `["sampling", "tools"]`. */
const capabilityObject = (path: ReadonlyArray<string>): Record<string, unknown> =>
  path.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {})

/**
 * The reverse calls of a 2026 request before multi-round-trip requests answer them: one the
 * client declared no capability for is −32021 (`data.requiredCapabilities`), escalated so that
 * a tool answers it as that error rather than as a tool error result; any other fails (there
 * is no server-to-client request in this era).
 */
export const reverseCall = (session: ServerSessionShape): HandlerContext.ReverseCall => (method, params) => {
  const path = Lifecycle.clientCapabilityFor(method, params) ?? []
  if (!Lifecycle.clientSupports(session.clientCapabilities(), method, params)) {
    const error = new ProtocolError({
      reason: "CapabilityMissing",
      method,
      message: `The client did not declare the capability for ${method}`
    })
    return Effect.fail(escalate(
      error,
      new ErrorResponse({
        code: McpSchema2026.MISSING_REQUIRED_CLIENT_CAPABILITY,
        message: `Missing required client capability: ${path.join(".")} (for ${method})`,
        data: { requiredCapabilities: capabilityObject(path) }
      })
    ))
  }
  return Effect.fail(
    new ProtocolError({
      reason: "Transport",
      method,
      message: `${method}: a 2026-07-28 request cannot make a server-to-client request`
    })
  )
}

const REMOVED = new Set<string>(McpSchema2026.REMOVED_CLIENT_REQUEST_METHODS)

/** What the 2026 path needs of the server. */
export interface Served {
  readonly identity: Identity
  readonly supported: ReadonlyArray<string>
  readonly cacheHint: (method: CacheableMethod) => CacheHint
  readonly dispatcher: Dispatcher
  /** Whether a registered extension (`McpServer.extend`) serves the method. */
  readonly extensionMethod?: ((method: string) => boolean) | undefined
  /** The extensions' parts of `subscriptions/listen`. */
  readonly listenHooks?: (() => ReadonlyArray<ListenHook>) | undefined
  readonly registry: FeatureRegistry
  readonly sessions: Sessions
}

const isCacheable = (method: string): method is CacheableMethod =>
  (CACHEABLE_METHODS as ReadonlyArray<string>).includes(method)

/** `resultType`, `_meta[serverInfo]` and (for a complete cacheable result) the caching hint. */
const decorate = (served: Served, method: string, result: Protocol.Result): Protocol.Result => {
  const resultType = typeof result.resultType === "string" ? result.resultType : McpSchema2026.RESULT_TYPE_COMPLETE
  const meta = result._meta as { readonly [key: string]: unknown } | undefined
  const out: { [key: string]: unknown } = {
    ...result,
    resultType,
    _meta: { ...meta, [McpSchema2026.SERVER_INFO_META_KEY]: served.identity.serverInfo }
  }
  if (resultType === McpSchema2026.RESULT_TYPE_COMPLETE && isCacheable(method)) {
    const hint = served.cacheHint(method)
    const own = typeof out.ttlMs === "number" && typeof out.cacheScope === "string"
      ? { ttlMs: out.ttlMs, cacheScope: out.cacheScope as McpSchema2026.CacheScope }
      : undefined
    // a read's own hint (its resource's) is the hint; a list's (its features') caps the server's
    const chosen = own === undefined ? hint : method === "resources/read" ? own : tightest([hint, own])!
    out.ttlMs = chosen.ttlMs
    out.cacheScope = chosen.cacheScope
  }
  return out as Protocol.Result
}

/** Errors as 2026 names them: a resource not found is −32602 with `data.uri`. */
const rename = (error: ErrorResponse): ErrorResponse =>
  error.code === McpSchema.RESOURCE_NOT_FOUND
    ? new ErrorResponse({
      code: -32602,
      message: error.message,
      ...(error.data !== undefined ? { data: error.data } : {})
    })
    : error

const withoutTasks = (capabilities: McpSchema.ServerCapabilities): McpSchema.ServerCapabilities => {
  if (capabilities.tasks === undefined) return capabilities
  const { tasks: _, ...rest } = capabilities
  return rest
}

/** The `server/discover` result (before decoration). */
export const discover = (served: Served): Protocol.Result => ({
  supportedVersions: served.supported as Array<string>,
  // `tasks` is 2025-11-25's capability (2026 has the tasks extension instead)
  capabilities: withoutTasks(served.identity.capabilities),
  ...(served.identity.instructions !== undefined ? { instructions: served.identity.instructions } : {})
})

/**
 * The −32020 of a `tools/call` whose `Mcp-Param-*` headers disagree with its arguments (the
 * tool's `x-mcp-header` annotations, valid since its registration); undefined when they agree.
 */
const paramMismatch = (
  inputSchema: unknown,
  args: unknown,
  headers: { readonly [name: string]: string }
): ErrorResponse | undefined => {
  const scan = Headers2026.scanToolHeaders(inputSchema)
  const found = scan._tag === "Valid" ? Headers2026.checkParamHeaders(scan.params, args, headers) : undefined
  return found === undefined ? undefined : new ErrorResponse({
    code: McpSchema2026.HEADER_MISMATCH,
    message: Headers2026.mismatchMessage(found),
    data: Headers2026.mismatchData(found)
  })
}

/**
 * Serves one 2026 request on a connection: `state` is the connection's, `protocol` its engine,
 * `closeStream` what closes the request's stream (streamable HTTP).
 */
export const serve = (
  served: Served,
  state: SessionState,
  protocol: Protocol.Protocol,
  closeStream: (id: JsonRpc.RequestId) => Effect.Effect<void> | undefined,
  headersOf: () => { readonly [name: string]: string } | undefined
) => {
  return (incoming: EngineIncomingRequest): Effect.Effect<Protocol.Result, ErrorResponse> => {
    const { id, method, params } = incoming.request
    const headers = headersOf()
    const envelope = readEnvelope(params, served.supported)
    if (Result.isFailure(envelope)) return Effect.fail(envelope.failure)
    if (method === "server/discover") return Effect.succeed(decorate(served, method, discover(served)))
    const extended = served.extensionMethod?.(method) === true
    // a removed method an extension serves (the tasks extension's tasks/get) is the extension's
    if ((REMOVED.has(method) && !extended) || !(extended || McpSchema2026.isClientRequestMethod(method))) {
      return Effect.fail(ErrorResponse.methodNotFound(method))
    }
    const view = requestView(state, envelope.success, protocol, id)
    if (method === "subscriptions/listen") {
      const request = { request: incoming.request, session: view.shape, era: "2026" as const, principal: view.principal?.() }
      return Listen.listen(served.sessions, protocol, id, params, served.listenHooks?.() ?? [], request)
    }
    const dispatch = served.dispatcher(view, (req) =>
      HandlerContext.unsafeMake({
        protocol: protocol,
        incoming: req,
        session: view.shape,
        closeStream: closeStream(req.request.id),
        // multi-round-trip requests answer what they can (internal/server/inputRequired)
        reverseCall: InputRound.reverseCall(req, view.shape.clientCapabilities, reverseCall(view.shape))
      }), envelope.success)
    if (headers !== undefined && method === "tools/call") {
      // over HTTP: the tool's `Mcp-Param-*` headers agree with its arguments, before it runs
      const p = params as { readonly name?: unknown; readonly arguments?: unknown }
      const tool = typeof p.name === "string" ? served.registry.current().tools.get(p.name) : undefined
      const refused = tool === undefined ? undefined : paramMismatch(tool.feature.definition.inputSchema, p.arguments, headers)
      if (refused !== undefined) return Effect.fail(refused)
    }
    // one frame (`mapBoth` adds a `sync` for the success)
    return Effect.matchEffect(dispatch(incoming), {
      onFailure: (error) => Effect.fail(rename(error)),
      onSuccess: (result) => Effect.succeed(decorate(served, method, result))
    })
  }
}

/** Whether a request without an envelope of its own is on the 2026 path (see `connect`). */
export const eraOf = (
  method: string,
  params: unknown,
  connection: ProtocolEra.Era | undefined
): ProtocolEra.Era => ProtocolEra.requestEra(method, params) ?? connection ?? "2025"
