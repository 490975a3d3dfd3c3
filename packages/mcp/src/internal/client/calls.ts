/**
 * The calls of a connected client, over its capability-checked `request`:
 * typed requests with their results decoded, lists as auto-paginating
 * Streams, tool calls (by name or by declaration, with `structuredContent`
 * checked against the listed output schema; as a task when the tool
 * requires one, see `client/taskCalls`), and resource subscriptions.
 */
import type * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"
import type { CallOptions, CallToolResult, ClientError, McpClientShape, Tool, ToolCallEvent } from "../../McpClient.js"
import { ProtocolError } from "../../McpError.js"
import * as McpSchema from "../../McpSchema.js"
import * as Lifecycle from "../../Lifecycle.js"
import * as McpPrompt from "../../McpPrompt.js"
import * as McpTool from "../../McpTool.js"
import type * as Protocol from "../../Protocol.js"
import * as ClientListen from "./listen.js"
import * as ClientTaskCalls from "./taskCalls.js"
import * as OutputValidation from "./outputValidation.js"
import * as Schema2026Core from "../schema2026/core.js"
import { formatIssue, validatorOr } from "../validate.js"
import type * as ClientNotifications from "./notifications.js"
import type { EngineRequestOptions } from "../protocol/make.js"

/** A client's `request`, with options of type `O`. */
export type Request<O extends CallOptions = CallOptions> = (
  method: string,
  params?: JsonRpc.Params,
  options?: O
) => Effect.Effect<Protocol.Result, ClientError>

/** Call options the engine takes besides the public ones: the check of the result (`EngineRequestOptions`). */
export type EngineCallOptions = CallOptions & Pick<EngineRequestOptions, "checkResult">

/**
 * A client's `request`, refusing with `CapabilityMissing` a method the server
 * did not declare the capability for (`capabilities` undefined: nothing is refused).
 */
export const gated = <O extends CallOptions = CallOptions>(
  capabilities: McpSchema.ServerCapabilities | undefined,
  send: Request<O>
): Request<O> =>
(method, params, callOptions) =>
  capabilities === undefined || Lifecycle.serverSupports(capabilities, method)
    ? send(method, params, callOptions)
    : Effect.fail(
      new ProtocolError({
        reason: "CapabilityMissing",
        method,
        message: `The server did not declare the capability for ${method}`
      })
    )

/** Decodes a result of `method`, failing with `InvalidResult` (its issue in one line per problem, `path: message`). */
export const decoderFor = <A, I>(schema: Schema.Codec<A, I>, method: string): (u: unknown) => Result.Result<A, ProtocolError> =>
  validatorOr(schema, (issue) =>
    new ProtocolError({
      reason: "InvalidResult",
      method,
      message: `Invalid ${method} result: ${formatIssue(issue)}`
    }))

/**
 * The results the 2026-07-28 revision widens, as the calls give them (settled: no `resultType`, no caching
 * hints, see `client/era2026`): a tool's `outputSchema` any JSON Schema object, `structuredContent` any JSON
 * value. The rest is 2025's (a 2026 tool listed with `execution` by the tasks extension keeps it).
 * 2025-11-25 keeps its own rules (an object schema, an object value).
 */
const { type: _objectRoot, ...outputKeywords } = McpSchema.ToolJsonSchema.schema.fields
const OutputSchema2026 = Schema.StructWithRest(Schema.Struct(outputKeywords), McpSchema.ToolJsonSchema.records)
const Tool2026 = Schema.Struct({ ...McpSchema.Tool.fields, outputSchema: Schema.optionalKey(OutputSchema2026) })
const results2026 = {
  "tools/list": Schema.Struct({ ...McpSchema.ListToolsResult.fields, tools: Schema.Array(Tool2026) }),
  "tools/call": Schema.Struct({
    ...McpSchema.CallToolResult.fields,
    structuredContent: Schema.optionalKey(Schema2026Core.JSONValue)
  })
} as const

/** The era whose rules decode a result. */
export type Era = "2025" | "2026"

/** The schema a result of `method` is decoded with in `era`. */
const resultSchema = (era: Era, method: McpSchema.ClientRequestMethod): Schema.Top =>
  era === "2026" && (method === "tools/list" || method === "tools/call")
    ? results2026[method]
    : McpSchema.ClientRequests[method].result

/** `params` with the caller's `_meta` (`CallOptions._meta`) over its own, if it gave one. */
export const withMeta = <P extends JsonRpc.Params | undefined>(params: P, callOptions: CallOptions | undefined): P => {
  const meta = callOptions?._meta
  if (meta === undefined) return params
  const own = params?._meta
  return { ...params, _meta: typeof own === "object" && own !== null ? { ...own, ...meta } : meta } as P
}

/** A request of `method` whose result is decoded with its schema (the era's, for the methods 2026 widens). */
const typedCall = (request: McpClientShape["request"], era: Era) => <M extends McpSchema.ClientRequestMethod>(method: M) => {
  const decode = decoderFor(
    resultSchema(era, method) as unknown as Schema.Codec<McpSchema.ClientRequestResult<M>, unknown>,
    method
  )
  return (params: JsonRpc.Params | undefined, callOptions?: CallOptions) =>
    Effect.flatMap(request(method, withMeta(params, callOptions), callOptions), (raw) => Effect.fromResult(decode(raw)))
}

/** Decodes a `tools/call` result by the rules of `era`. */
export const callToolDecoder = (era: Era): (u: unknown) => Result.Result<CallToolResult, ProtocolError> =>
  decoderFor(resultSchema(era, "tools/call") as Schema.Codec<CallToolResult, unknown>, "tools/call")

type ListMethod = "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list"
type Typed = ReturnType<typeof typedCall>

// one element per page (an empty page too), so that a bound on pages is a plain `take`
const pages = <A>(typed: Typed, method: ListMethod, key: string): Stream.Stream<ReadonlyArray<A>, ClientError> => {
  const call = typed(method)
  return Stream.paginate(undefined as string | undefined, (cursor) =>
    Effect.map(call(cursor === undefined ? undefined : { cursor }), (result) => {
      const items = (result as unknown as Record<string, ReadonlyArray<A>>)[key] ?? []
      const next = (result as { readonly nextCursor?: string | undefined }).nextCursor
      return [[items], next === undefined ? Option.none<string | undefined>() : Option.some(next)] as const
    }))
}
/**
 * A list as a Stream of its items, and all its items up to a bound on pages. The streams of a
 * client are built when run (`Stream.suspend`), not with each session: a Stream pipeline is some
 * kilobytes of channel structure, and most sessions never list everything.
 */
const lister = (typed: Typed) => <A>(method: ListMethod, key: string) => {
  const paged = Stream.suspend(() => pages<A>(typed, method, key))
  return {
    stream: Stream.suspend(() => Stream.flattenIterable(paged)),
    all: (o?: { readonly maxPages?: number }) => {
      const maxPages = o?.maxPages ?? 1000
      return paged.pipe(
        Stream.take(maxPages + 1),
        Stream.runCollect,
        Effect.flatMap((chunks) =>
          chunks.length > maxPages
            ? Effect.fail(
              new ProtocolError({
                reason: "LimitExceeded",
                method,
                message: `${method} returned more than ${maxPages} pages`
              })
            )
            : Effect.succeed(chunks.flat() as ReadonlyArray<A>)
        )
      )
    }
  }
}


/** The calls of `McpClientShape`: everything but the session's facts, `request`, `notify`, `ping` and `closed`. */
export type Calls = Omit<
  McpClientShape,
  "era" | "serverInfo" | "serverCapabilities" | "protocolVersion" | "instructions" | "request" | "notify" | "ping" | "closed"
>

export const make = (options: {
  readonly request: McpClientShape["request"]
  readonly notifications: ClientNotifications.Notifications
  readonly validateStructuredContent: boolean
  /** The server runs tools as tasks (2025-11-25): a plain call of a tool that requires one is made as a task. */
  readonly toolTasks?: boolean | undefined
  /** The era spoken (default 2025): which rules decode the results, which tasks the server runs. */
  readonly era?: Era | undefined
  /**
   * `request`, passing `checkResult` on to the engine (2025): a tool call's result is then decoded
   * and checked where its response is read, with no continuation of the caller's.
   */
  readonly engineRequest?: Request<EngineCallOptions> | undefined
}): Calls => {
  const { notifications, request } = options
  const era = options.era ?? "2025"
  const typed = typedCall(request, era)
  const list = lister(typed)

  // output schemas of listed tools, for structuredContent validation
  const outputs = OutputValidation.make()
  const tools = list<Tool>("tools/list", "tools")
  const taskCalls = options.toolTasks === true
    ? ClientTaskCalls.make({ request, listAll: Effect.suspend(() => listToolsAll()), era: options.era })
    : undefined
  const rememberTools = (listed: ReadonlyArray<Tool>) => {
    outputs.remember(listed)
    taskCalls?.remember(listed)
  }
  // a listing ends once its output schemas are compiled (`outputs.ready`: the validator is loaded on first need)
  const listToolsAll: Calls["listToolsAll"] = (o) =>
    Effect.tap(tools.all(o), (all) => Effect.andThen(Effect.sync(() => rememberTools(all)), outputs.ready))
  const listTools = Stream.suspend(() =>
    tools.stream.pipe(Stream.tap((t) => Effect.andThen(Effect.sync(() => rememberTools([t])), outputs.ready)))
  )
  const resources = list<McpSchema.Resource>("resources/list", "resources")
  const templates = list<McpSchema.ResourceTemplate>("resources/templates/list", "resourceTemplates")
  const prompts = list<McpSchema.Prompt>("prompts/list", "prompts")

  const decodeCallTool = callToolDecoder(era)
  /** A `tools/call` result decoded, and its `structuredContent` checked against the tool's output schema. */
  const checkCallTool = (name: string) => (raw: unknown): Result.Result<CallToolResult, ProtocolError> => {
    const decoded = decodeCallTool(raw)
    return Result.isFailure(decoded) || !options.validateStructuredContent ? decoded : outputs.checkEither(name, decoded.success)
  }
  const engineRequest = taskCalls === undefined ? options.engineRequest : undefined
  // the hottest call a client makes: its result is decoded and checked where the response is read
  // (2025), or in one continuation
  const callToolRaw = (
    name: string,
    args: { readonly [key: string]: unknown } | undefined,
    callOptions: CallOptions | undefined
  ): Effect.Effect<CallToolResult, ClientError> => {
    if (engineRequest !== undefined) {
      const checkResult = checkCallTool(name) as unknown as (raw: Protocol.Result) => Result.Result<Protocol.Result, ProtocolError>
      return engineRequest(
        "tools/call",
        withMeta(args === undefined ? { name } : { name, arguments: args }, callOptions),
        callOptions === undefined ? { checkResult } : { ...callOptions, checkResult }
      ) as unknown as Effect.Effect<CallToolResult, ClientError>
    }
    return Effect.flatMap(
      taskCalls === undefined
        ? request("tools/call", withMeta(args === undefined ? { name } : { name, arguments: args }, callOptions), callOptions)
        : Effect.suspend(() => {
          const params = withMeta(args === undefined ? { name } : { name, arguments: args }, callOptions)
          return taskCalls.call(name, params, callOptions, request("tools/call", params, callOptions))
        }),
      (raw) => {
        const checked = checkCallTool(name)(raw)
        return Result.isFailure(checked) ? Effect.fail(checked.failure) : Effect.succeed(checked.success)
      }
    )
  }

  const callTypedTool = (tool: McpTool.Any, args: unknown, callOptions: CallOptions | undefined) =>
    Effect.flatMap(
      Schema.encodeUnknownEffect(tool.parameters as Schema.Codec<unknown, unknown>)(args ?? {}),
      (encoded) =>
        Effect.flatMap(
          callToolRaw(tool.name, encoded as { readonly [key: string]: unknown }, callOptions),
          (result) => McpTool.decodeResult(tool, result)
        )
    )

  const callTool = ((
    nameOrTool: string | McpTool.Any,
    args: unknown,
    callOptions: CallOptions | undefined
  ) =>
    typeof nameOrTool === "string"
      ? callToolRaw(nameOrTool, args as { readonly [key: string]: unknown } | undefined, callOptions)
      : callTypedTool(nameOrTool, args, callOptions)) as McpClientShape["callTool"]

  const callToolStream: McpClientShape["callToolStream"] = (name, args, callOptions) =>
    Stream.unwrap(Effect.gen(function*() {
      const queue = yield* Queue.make<ToolCallEvent, ClientError | Cause.Done>()
      yield* callToolRaw(name, args, {
        ...callOptions,
        onProgress: (progress) => Effect.asVoid(Queue.offer(queue, { _tag: "Progress", progress }))
      }).pipe(
        Effect.flatMap((result) => Queue.offer(queue, { _tag: "Result", result })),
        Effect.exit,
        Effect.flatMap((exit) => Exit.isSuccess(exit) ? Queue.end(queue) : Queue.failCause(queue, exit.cause)),
        Effect.forkScoped
      )
      return Stream.fromQueue(queue)
    }))

  const notificationStream = (method: string) =>
    Stream.filter(notifications.stream, (n) => n.method === method)

  const getPromptCall = typed("prompts/get")
  const getPromptRaw = (name: string, args: { readonly [key: string]: string } | undefined, o: CallOptions | undefined) =>
    getPromptCall(args === undefined ? { name } : { name, arguments: args }, o)

  const subscribeCall = typed("resources/subscribe")
  const unsubscribeCall = typed("resources/unsubscribe")
  const subscribed = (uri: string) =>
    Effect.acquireRelease(subscribeCall({ uri }), () => unsubscribeCall({ uri }).pipe(Effect.ignore))

  return {
    listTools,
    listToolsAll,
    callTool,
    callToolStream,
    listResources: resources.stream,
    listResourcesAll: resources.all,
    listResourceTemplates: templates.stream,
    listResourceTemplatesAll: templates.all,
    readResource: (uri, o) => typed("resources/read")({ uri }, o),
    subscribe: (uri) =>
      Effect.gen(function*() {
        const subscription = yield* notifications.subscribe
        yield* subscribed(uri)
        return Stream.fromSubscription(subscription).pipe(
          Stream.filter((n) => n.method === "notifications/resources/updated" && n.params?.uri === uri),
          Stream.map((n) => n.params as McpSchema.ResourceUpdatedNotificationParams)
        )
      }),
    listPrompts: prompts.stream,
    listPromptsAll: prompts.all,
    getPrompt: ((nameOrPrompt: string | McpPrompt.Any, args: unknown, o: CallOptions | undefined) =>
      typeof nameOrPrompt === "string"
        ? getPromptRaw(nameOrPrompt, args as { readonly [key: string]: string } | undefined, o)
        : Effect.flatMap(
          McpPrompt.encodeArguments(nameOrPrompt, args),
          // no arguments to send: no `arguments` (as `getPrompt(name)` sends)
          (encoded) => getPromptRaw(nameOrPrompt.name, Object.keys(encoded).length > 0 ? encoded : undefined, o)
        )) as McpClientShape["getPrompt"],
    complete: (params) => typed("completion/complete")(params as unknown as JsonRpc.Params),
    setLogLevel: (level) => Effect.asVoid(typed("logging/setLevel")({ level })),
    listen: ClientListen.listen2025({ notifications, subscribe: subscribed }),
    notifications: notifications.stream,
    toolListChanged: Stream.suspend(() => Stream.map(notificationStream("notifications/tools/list_changed"), () => undefined)),
    resourceListChanged: Stream.suspend(() =>
      Stream.map(notificationStream("notifications/resources/list_changed"), () => undefined)
    ),
    promptListChanged: Stream.suspend(() => Stream.map(notificationStream("notifications/prompts/list_changed"), () => undefined)),
    logMessages: Stream.suspend(() =>
      notificationStream("notifications/message").pipe(
        Stream.map((n) => n.params as McpSchema.LoggingMessageNotificationParams)
      )
    )
  }
}
