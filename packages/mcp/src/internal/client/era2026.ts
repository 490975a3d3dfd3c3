/**
 * The client's requests on the 2026-07-28 path, wired from their concerns.
 * Nothing is negotiated once and kept by the server: every request carries
 * the envelope in `params._meta` and is sent once more at the version a
 * −32022 offers (`envelope2026`); on HTTP it has the headers of `headers2026`
 * (the transport derives the standard ones from the envelope; the
 * `Mcp-Param-*` headers of a `tools/call` travel as the request's
 * `Route.headers`, learnt from `tools/list` by `toolHeaders2026`). The
 * methods that may ask for input are answered in rounds (`inputRounds2026`);
 * a `tasks/get` answers a task's new input requests (`taskInputs2026`).
 *
 * A result without `resultType` is complete. The calls get a complete
 * result without `resultType`, caching hints and the server's info in
 * `_meta`, as a 2025 server would have answered.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"
import type { McpClientShape } from "../../McpClient.js"
import type * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import * as ClientCalls from "./calls.js"
import * as Envelope2026 from "./envelope2026.js"
import * as ClientEra from "./era.js"
import * as InputRounds2026 from "./inputRounds2026.js"
import * as ClientListen from "./listen.js"
import type * as ClientNotifications from "./notifications.js"
import * as ClientRequests from "./reverseCalls.js"
import * as TaskInputs2026 from "./taskInputs2026.js"
import * as ToolHeaders2026 from "./toolHeaders2026.js"

/** What the 2026 requests of one client share. */
export interface Options extends Envelope2026.Options {
  readonly handlers: ClientRequests.Handlers
  /** Bound on `InputRequiredResult` rounds of one call (default 10). */
  readonly maxInputRounds?: number | undefined
}

export interface Session2026 {
  /** The protocol version requests carry (a −32022 may move it to another 2026 version). */
  readonly version: () => string
  /** A request with the envelope, the −32022 retry and, for the methods that may ask, the input rounds. */
  readonly request: (
    method: string,
    params: JsonRpc.Params | undefined,
    options?: Protocol.RequestOptions | undefined
  ) => Effect.Effect<Protocol.Result, Envelope2026.ClientError>
  /** `request` as the wire answered it: complete results keep `resultType`, caching hints and meta (for the cache). */
  readonly raw: Session2026["request"]
  /** Sets the version requests carry (a −32022 answered to `initialize` offered it). */
  readonly useVersion: (version: string) => void
  /** The log level the server should use for the notifications of later requests. */
  readonly setLogLevel: (level: McpSchema.LoggingLevel) => void
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A complete result as the calls give it, the same in both eras: without
 * `resultType` (read by the rounds), the caching hints `ttlMs` and
 * `cacheScope` (read by the client's cache) and the server's info in `_meta`
 * (the client has it from discover).
 */
export const settled = (result: Protocol.Result): Protocol.Result => {
  if (!("resultType" in result) && !("ttlMs" in result) && !("cacheScope" in result) && !isObject(result._meta)) return result
  const { _meta, cacheScope: _scope, resultType: _, ttlMs: _ttl, ...rest } = result
  if (!isObject(_meta) || !(McpSchema2026.SERVER_INFO_META_KEY in _meta)) {
    return _meta === undefined ? rest : { ...rest, _meta }
  }
  const { [McpSchema2026.SERVER_INFO_META_KEY]: _info, ...meta } = _meta
  return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta }
}

/** Each method to the concern that answers it; the rest are sent as they are. */
const dispatcher = (options: Options, envelope: Envelope2026.Envelope): Envelope2026.Send => {
  const headers = ToolHeaders2026.make(envelope.send)
  const send: Envelope2026.Send = (method, params, requestOptions) =>
    envelope.send(method, params, headers.route(method, params, requestOptions))
  const fulfil = InputRounds2026.fulfil(ClientRequests.answer(options.handlers))
  const rounds = InputRounds2026.rounds({ send, fulfil, maxRounds: options.maxInputRounds ?? 10 })
  const getTask = TaskInputs2026.getTask(send, fulfil)
  return (method, params, requestOptions) =>
    method === "tasks/get"
      ? getTask(params, requestOptions)
      : method === "tools/list"
      ? headers.listTools(params, requestOptions)
      : method === "tools/call"
      ? headers.callTool(params, () => rounds(method, params, requestOptions))
      : McpSchema2026.isInputRequiredMethod(method)
      ? rounds(method, params, requestOptions)
      : send(method, params, requestOptions)
}

export const make = (options: Options): Session2026 => {
  const envelope = Envelope2026.make(options)
  const dispatch = dispatcher(options, envelope)
  return {
    version: envelope.version,
    raw: (method, params, requestOptions) =>
      method === "server/discover" ? envelope.send(method, params, requestOptions) : dispatch(method, params, requestOptions),
    useVersion: envelope.useVersion,
    request: (method, params, requestOptions) =>
      method === "server/discover"
        ? envelope.send(method, params, requestOptions)
        : Effect.map(dispatch(method, params, requestOptions), settled),
    setLogLevel: envelope.setLogLevel
  }
}

/**
 * The client a 2026 server gets: the same calls as on the 2025 path, over
 * the 2026 requests. `ping` is a `server/discover` (2026 has no ping),
 * `setLogLevel` puts the level in the envelope of later requests. Without a
 * discover result (a pinned client whose server did not answer it) the
 * server's capabilities are unknown and no call is refused locally.
 */
export const shape = (args: {
  readonly session: Session2026
  /** `session.request` behind the cache of list results and reads (`client/cache`). */
  readonly cached: Session2026["request"]
  readonly protocol: Protocol.Protocol
  readonly discover: McpSchema2026.DiscoverResult | undefined
  readonly notifications: ClientNotifications.Notifications
  readonly validateStructuredContent: boolean
}): McpClientShape => {
  const { discover, protocol, session } = args
  const listen = ClientListen.listen2026({ request: session.request, notifications: args.notifications })
  const serverCapabilities = (discover?.capabilities ?? {}) as McpSchema.ServerCapabilities
  const gated = ClientCalls.gated(discover === undefined ? undefined : serverCapabilities, args.cached)
  // tasks/* are the tasks extension's on 2026 (no `tasks` capability): the server decides, the client asks
  const request: McpClientShape["request"] = (method, params, callOptions) =>
    TaskInputs2026.TASK_METHODS.has(method) ? args.cached(method, params, callOptions) : gated(method, params, callOptions)
  return {
    era: "2026",
    serverInfo: ClientEra.serverInfoOf(discover),
    serverCapabilities,
    get protocolVersion() {
      return session.version()
    },
    instructions: discover?.instructions,
    request,
    notify: (method, params) => protocol.notify(method, params),
    ping: Effect.asVoid(session.request("server/discover", undefined)),
    closed: protocol.closed,
    ...ClientCalls.make({
      request,
      notifications: args.notifications,
      validateStructuredContent: args.validateStructuredContent,
      // the tasks extension: a plain call of a tool that requires a task is made as one
      toolTasks: serverCapabilities.extensions?.[TaskInputs2026.TASKS_EXTENSION] !== undefined,
      era: "2026"
    }),
    setLogLevel: (level) => Effect.sync(() => session.setLogLevel(level)),
    listen,
    // 2026 has no resources/subscribe: a listen stream for the one resource
    subscribe: (uri) =>
      Effect.succeed(
        listen({ resources: [uri] }).pipe(
          Stream.map((n) => n.params as McpSchema.ResourceUpdatedNotificationParams),
          Stream.catch((error) => Stream.fromEffect(Effect.logWarning(`the subscription to ${uri} ended`, error.message)).pipe(Stream.drain))
        )
      )
  }
}
