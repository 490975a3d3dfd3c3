/**
 * The client's requests on the 2026-07-28 path. Nothing is negotiated once
 * and kept by the server: every request carries the envelope in
 * `params._meta` (protocol version, client capabilities, client info, and the
 * log level once `setLogLevel` chose one), and on HTTP the headers of
 * `headers2026` (the transport derives the standard ones from the envelope;
 * the `Mcp-Param-*` headers of a `tools/call` travel as the request's
 * `Route.headers`).
 *
 * - **−32022** (`UnsupportedProtocolVersion`) with `data.supported` naming a
 *   2026 version this client speaks: the request is sent once more at that
 *   version, which the client keeps from then on.
 * - **`InputRequiredResult`** (multi-round-trip requests): each input request
 *   is answered by the same handlers that answer server→client requests on
 *   the 2025 path (`clientRequests.answer`), and the request is sent again
 *   with a new id, its original params, `inputResponses` and the exact
 *   `requestState` (none when the server sent none), for at most
 *   `maxInputRounds` rounds. Rounds belong to one call: nothing of one call's
 *   rounds reaches another. Interrupting the call interrupts the round in
 *   flight (and cancels its request on the wire).
 * - **`tools/list`**: tools whose `x-mcp-header` annotations break the rules
 *   are dropped (logged with the reason); the annotations of the others are
 *   kept by name for the headers of their calls. A call of a tool not listed
 *   yet that the server refuses with −32020 (its headers) lists the tools and
 *   is made once more.
 * - **Tasks** (the `io.modelcontextprotocol/tasks` extension): a request may
 *   opt into an extension in its own `_meta` client capabilities (merged with
 *   the client's); a `tasks/get` showing input requests not answered yet has
 *   the handlers answer them (`tasks/update`) before it returns.
 * - A result without `resultType` is complete. The calls get a complete
 *   result without `resultType`, caching hints and the server's info in
 *   `_meta`, as a 2025 server would have answered.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"
import type { McpClientShape } from "../../McpClient.js"
import { McpError, ProtocolError } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import * as ClientCalls from "./calls.js"
import * as ClientEra from "./era.js"
import * as ClientListen from "./listen.js"
import * as ClientRequests from "./reverseCalls.js"
import * as Headers2026 from "../headers2026.js"
import type * as ClientNotifications from "./notifications.js"

type ClientError = McpError | ProtocolError

/** What the 2026 requests of one client share. */
export interface Options {
  readonly protocol: Protocol.Protocol
  readonly version: string
  readonly capabilities: McpSchema.ClientCapabilities
  readonly clientInfo: McpSchema.Implementation
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
  ) => Effect.Effect<Protocol.Result, ClientError>
  /** `request` as the wire answered it: complete results keep `resultType`, caching hints and meta (for the cache). */
  readonly raw: Session2026["request"]
  /** Sets the version requests carry (a −32022 answered to `initialize` offered it). */
  readonly useVersion: (version: string) => void
  /** The log level the server should use for the notifications of later requests. */
  readonly setLogLevel: (level: McpSchema.LoggingLevel) => void
}

/** The capabilities as the 2026 envelope declares them: `roots` has no `listChanged` there. */
export const capabilities2026 = (capabilities: McpSchema.ClientCapabilities): McpSchema2026.ClientCapabilities => {
  const { roots, ...rest } = capabilities as McpSchema.ClientCapabilities & { readonly roots?: unknown }
  return (roots === undefined ? rest : { ...rest, roots: {} }) as McpSchema2026.ClientCapabilities
}

const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"])
const TASKS_CAPABILITY = { extensions: { "io.modelcontextprotocol/tasks": {} } }

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const inputRequestFailed = (method: string, key: string, inner: string, message: string) =>
  new ProtocolError({
    reason: "InputRequest",
    method,
    message: `The server asked for input (${inner} "${key}") and the client's handler failed: ${message}`
  })

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

export const make = (options: Options): Session2026 => {
  const { protocol } = options
  const answer = ClientRequests.answer(options.handlers)
  const capabilities = capabilities2026(options.capabilities)
  const maxRounds = options.maxInputRounds ?? 10
  let version = options.version
  let logLevel: McpSchema.LoggingLevel | undefined
  /** `x-mcp-header` parameters of the tools listed so far, by name. */
  const toolHeaders = new Map<string, ReadonlyArray<Headers2026.HeaderParam>>()

  /** The client's capabilities, with what a request opts into on its own (an extension in its `_meta`). */
  const capabilitiesOf = (meta: Record<string, unknown>): McpSchema2026.ClientCapabilities => {
    const own = meta[McpSchema2026.CLIENT_CAPABILITIES_META_KEY]
    if (!isObject(own)) return capabilities
    const extensions = isObject(own.extensions)
      ? { ...(capabilities as { readonly extensions?: object }).extensions, ...own.extensions }
      : (capabilities as { readonly extensions?: object }).extensions
    return { ...capabilities, ...own, ...(extensions !== undefined ? { extensions } : {}) } as McpSchema2026.ClientCapabilities
  }

  /**
   * The envelope of a request whose params have no `_meta` of their own (most): one object for
   * every such request until the version or the log level changes (nothing writes to a request's
   * `_meta`: the engine's `progressToken` goes into a copy).
   */
  let plain: { readonly version: string; readonly logLevel: string | undefined; readonly meta: Record<string, unknown> } | undefined
  const plainMeta = (): Record<string, unknown> => {
    if (plain === undefined || plain.version !== version || plain.logLevel !== logLevel) {
      const meta: Record<string, unknown> = {
        [McpSchema2026.PROTOCOL_VERSION_META_KEY]: version,
        [McpSchema2026.CLIENT_CAPABILITIES_META_KEY]: capabilities,
        [McpSchema2026.CLIENT_INFO_META_KEY]: options.clientInfo,
        ...(logLevel === undefined ? {} : { [McpSchema2026.LOG_LEVEL_META_KEY]: logLevel })
      }
      plain = { version, logLevel, meta }
    }
    return plain.meta
  }

  const envelope = (params: JsonRpc.Params | undefined, method: string): JsonRpc.Params => {
    if (params?._meta === undefined && !TASK_METHODS.has(method)) {
      return params === undefined ? { _meta: plainMeta() } : { ...params, _meta: plainMeta() }
    }
    const given = isObject(params?._meta) ? params._meta : {}
    // a client asking about a task speaks the tasks extension
    const meta = TASK_METHODS.has(method) ? { ...given, [McpSchema2026.CLIENT_CAPABILITIES_META_KEY]: TASKS_CAPABILITY } : given
    return {
      ...params,
      _meta: {
        ...meta,
        [McpSchema2026.PROTOCOL_VERSION_META_KEY]: version,
        [McpSchema2026.CLIENT_CAPABILITIES_META_KEY]: capabilitiesOf(meta),
        [McpSchema2026.CLIENT_INFO_META_KEY]: options.clientInfo,
        ...(logLevel === undefined ? {} : { [McpSchema2026.LOG_LEVEL_META_KEY]: logLevel })
      }
    }
  }

  const routeOf = (method: string, params: JsonRpc.Params | undefined, requestOptions: Protocol.RequestOptions | undefined) => {
    if (method !== "tools/call" || typeof params?.name !== "string") return requestOptions
    const declared = toolHeaders.get(params.name)
    if (declared === undefined || declared.length === 0) return requestOptions
    const headers = Headers2026.paramHeaders(declared, params.arguments as { readonly [key: string]: unknown } | undefined)
    return { ...requestOptions, route: { ...requestOptions?.route, headers: { ...requestOptions?.route?.headers, ...headers } } }
  }

  /** One request on the wire, sent once more at the version a −32022 offers. */
  const send = (method: string, params: JsonRpc.Params | undefined, requestOptions: Protocol.RequestOptions | undefined) => {
    const routed = routeOf(method, params, requestOptions)
    const once = Effect.suspend(() => protocol.request(method, envelope(params, method), routed))
    return Effect.catchIf(once, (e): e is McpError => e instanceof McpError && ClientEra.offeredVersion(e) !== undefined, (e) =>
      Effect.suspend(() => {
        const offered = ClientEra.offeredVersion(e)!
        const asked = version
        version = offered
        return Effect.tap(
          once,
          () => asked === offered ? Effect.void : Effect.logDebug(`the server asked for protocol version ${offered}`)
        )
      }))
  }

  const fulfil = (method: string, requests: McpSchema2026.InputRequests) =>
    Effect.forEach(Object.entries(requests), ([key, inner]) =>
      Effect.map(
        Effect.mapError(answer(inner.method, inner.params), (e) => inputRequestFailed(method, key, inner.method, e.message)),
        (result) => [key, result] as const
      )).pipe(Effect.map((entries) => Object.fromEntries(entries)))

  const rounds = (
    method: string,
    params: JsonRpc.Params | undefined,
    requestOptions: Protocol.RequestOptions | undefined
  ): Effect.Effect<Protocol.Result, ClientError> => {
    const round = (retry: JsonRpc.Params | undefined, done: number): Effect.Effect<Protocol.Result, ClientError> =>
      Effect.flatMap(send(method, retry, requestOptions), (result) => {
        if (McpSchema2026.resultTypeOf(result) !== McpSchema2026.RESULT_TYPE_INPUT_REQUIRED) return Effect.succeed(result)
        const inputRequests = result.inputRequests
        const requestState = result.requestState
        if (
          (inputRequests !== undefined && !isObject(inputRequests)) ||
          (requestState !== undefined && typeof requestState !== "string") ||
          (inputRequests === undefined && requestState === undefined)
        ) {
          return Effect.fail(
            new ProtocolError({
              reason: "InvalidResult",
              method,
              message: `Invalid ${method} result: an InputRequiredResult needs inputRequests (an object) or requestState (a string)`
            })
          )
        }
        if (done >= maxRounds) {
          return Effect.fail(
            new ProtocolError({
              reason: "LimitExceeded",
              method,
              message: `${method} still asked for input after ${maxRounds} rounds`
            })
          )
        }
        return Effect.flatMap(fulfil(method, (inputRequests ?? {}) as McpSchema2026.InputRequests), (inputResponses) =>
          round({
            ...params,
            ...(inputRequests === undefined ? {} : { inputResponses }),
            ...(requestState === undefined ? {} : { requestState })
          }, done + 1))
      })
    return round(params, 0)
  }

  const listTools = (params: JsonRpc.Params | undefined, requestOptions: Protocol.RequestOptions | undefined) =>
    Effect.flatMap(send("tools/list", params, requestOptions), (result) => {
      if (!Array.isArray(result.tools)) return Effect.succeed(result)
      const kept: Array<unknown> = []
      const dropped: Array<string> = []
      for (const tool of result.tools as ReadonlyArray<{ readonly name?: unknown; readonly inputSchema?: unknown }>) {
        const scan = Headers2026.scanToolHeaders(tool?.inputSchema)
        const name = typeof tool?.name === "string" ? tool.name : undefined
        if (scan._tag === "Invalid") {
          dropped.push(`${name ?? "(unnamed)"}: ${scan.reason}`)
          continue
        }
        if (name !== undefined) toolHeaders.set(name, scan.params)
        kept.push(tool)
      }
      const logged = dropped.length === 0
        ? Effect.void
        : Effect.logWarning(`tools/list: dropped ${dropped.length} tool(s) with invalid x-mcp-header annotations`).pipe(
          Effect.annotateLogs("dropped", dropped)
        )
      return Effect.as(logged, dropped.length === 0 ? result : { ...result, tools: kept })
    })

  /** Every page of `tools/list`, for the `x-mcp-header` annotations it records. */
  const learnTools = (cursor?: string): Effect.Effect<void, ClientError> =>
    Effect.flatMap(listTools(cursor === undefined ? undefined : { cursor }, undefined), (result) =>
      typeof result.nextCursor === "string" && result.nextCursor !== cursor ? learnTools(result.nextCursor) : Effect.void)

  /**
   * A call of a tool not listed yet that the server refused for its headers
   * (−32020): the tools are listed, and the call is made once more with the
   * `Mcp-Param-*` headers they declare.
   */
  const callTool = (params: JsonRpc.Params | undefined, requestOptions: Protocol.RequestOptions | undefined) => {
    const name = params?.name
    return Effect.catchIf(
      rounds("tools/call", params, requestOptions),
      (e): e is McpError =>
        e instanceof McpError && e.code === McpSchema2026.HEADER_MISMATCH && typeof name === "string" && !toolHeaders.has(name),
      (e) =>
        Effect.flatMap(learnTools(), () =>
          toolHeaders.has(name as string) ? rounds("tools/call", params, requestOptions) : Effect.fail(e))
    )
  }

  /**
   * Input requests of 2026 tasks (the tasks extension) the client's handlers answered already, by
   * task: a `tasks/get` that shows new ones answers them (`tasks/update`) before it returns;
   * forgotten once the task is seen terminal.
   */
  const answeredInputs = new Map<string, Set<string>>()
  const getTask = (params: JsonRpc.Params | undefined, requestOptions: Protocol.RequestOptions | undefined) =>
    Effect.flatMap(send("tasks/get", params, requestOptions), (task) => {
      const taskId = task.taskId
      if (typeof taskId !== "string") return Effect.succeed(task)
      if (task.status === "completed" || task.status === "failed" || task.status === "cancelled") {
        answeredInputs.delete(taskId)
        return Effect.succeed(task)
      }
      if (task.status !== "input_required" || !isObject(task.inputRequests)) return Effect.succeed(task)
      const seen = answeredInputs.get(taskId) ?? new Set<string>()
      answeredInputs.set(taskId, seen)
      const fresh = Object.fromEntries(Object.entries(task.inputRequests).filter(([key]) => !seen.has(key)))
      if (Object.keys(fresh).length === 0) return Effect.succeed(task)
      return fulfil("tasks/get", fresh as McpSchema2026.InputRequests).pipe(
        Effect.tap((inputResponses) => send("tasks/update", { taskId, inputResponses }, requestOptions)),
        Effect.tap((inputResponses) => Effect.sync(() => Object.keys(inputResponses).forEach((key) => seen.add(key)))),
        Effect.as(task)
      )
    })

  const dispatch: Session2026["request"] = (method, params, requestOptions) =>
    method === "tasks/get"
      ? getTask(params, requestOptions)
      : method === "tools/list"
      ? listTools(params, requestOptions)
      : method === "tools/call"
      ? callTool(params, requestOptions)
      : McpSchema2026.isInputRequiredMethod(method)
      ? rounds(method, params, requestOptions)
      : send(method, params, requestOptions)

  return {
    version: () => version,
    raw: (method, params, requestOptions) =>
      method === "server/discover" ? send(method, params, requestOptions) : dispatch(method, params, requestOptions),
    useVersion: (v) => {
      version = v
    },
    request: (method, params, requestOptions) =>
      method === "server/discover"
        ? send(method, params, requestOptions)
        : Effect.map(dispatch(method, params, requestOptions), settled),
    setLogLevel: (level) => {
      logLevel = level
    }
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
    TASK_METHODS.has(method) ? args.cached(method, params, callOptions) : gated(method, params, callOptions)
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
      toolTasks: (serverCapabilities as { readonly extensions?: { readonly [id: string]: unknown } }).extensions?.[
        "io.modelcontextprotocol/tasks"
      ] !== undefined,
      era: "2026"
    }),
    setLogLevel: (level) => Effect.sync(() => session.setLogLevel(level)),
    listen,
    // 2026 has no resources/subscribe: a listen stream for the one resource
    subscribe: (uri) =>
      Effect.succeed(
        listen({ resources: [uri] }).pipe(
          Stream.map((n) => n.params as McpSchema.ResourceUpdatedNotificationParams),
          Stream.catchAll((error) => Stream.fromEffect(Effect.logWarning(`the subscription to ${uri} ended`, error.message)).pipe(Stream.drain))
        )
      )
  }
}
