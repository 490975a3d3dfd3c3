/**
 * Tools: a declaration given its handler (decoding the arguments, encoding
 * the output and the declared failure), and `tools/list` and `tools/call`.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as SchemaParser from "effect/SchemaParser"
import type * as Schema from "effect/Schema"
import { ElicitationDeclined } from "../../HandlerContext.js"
import { ErrorResponse, McpError, ProtocolError } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import type { CacheHint, Tool, ToolContent } from "../../McpFeature.js"
import * as McpTool from "../../McpTool.js"
import * as Answered from "../answered.js"
import * as Failure from "./failure.js"
import { decodesToItself, formatIssue } from "../validate.js"
import type { ListPage } from "./pagination.js"
import type { FeatureRegistry } from "./registry.js"
import { capped, type Handlers, type RequestEnv, runFeature, withFeature } from "./request.js"
import type { Registered } from "./registry.js"
import * as HandlerContext from "../../HandlerContext.js"
import type { ToolCall, ToolCallHook, ToolRunContext } from "../../McpServer.js"
import type * as Protocol from "../../Protocol.js"
import type { EngineIncomingRequest } from "../protocol/make.js"

const toolError = (text: string): McpSchema.CallToolResult => ({ content: [{ type: "text", text }], isError: true })

const toToolResult = (output: ToolContent): McpSchema.CallToolResult => {
  if (typeof output === "string") return { content: [{ type: "text", text: output }] }
  if (Array.isArray(output)) return { content: output as Array<McpSchema.ContentBlock> }
  if ("content" in (output as object) && Array.isArray((output as McpSchema.CallToolResult).content)) {
    return output as McpSchema.CallToolResult
  }
  return { content: [output as McpSchema.ContentBlock] }
}

/** A declared tool with its handler (see `McpServer.toolHandler`). */
export const make = (
  declaration: McpTool.Any,
  handler: (args: unknown) => Effect.Effect<unknown, unknown, unknown>,
  scopes: ReadonlyArray<string> | undefined,
  cacheHint?: CacheHint | undefined,
  taskStart?: "call" | "detach" | undefined
): Tool<unknown> => {
  const decode = SchemaParser.decodeUnknownResult(declaration.parameters as Schema.Codec<unknown, unknown>, {
    errors: "all",
    onExcessProperty: "ignore",
    // the rejected value in the message (`confirm: Expected boolean, actual "yes"`)
    reportInput: true
  })
  // arguments that already are what decoding them gives are used as they are (no decoded copy)
  const asDecoded = decodesToItself(declaration.parameters as Schema.Codec<unknown, unknown>)
  const encodeFailure = declaration.failure === undefined
    ? undefined
    : SchemaParser.encodeUnknownResult(declaration.failure as Schema.Codec<unknown, unknown>)
  const name = declaration.name
  const onSuccess = (output: unknown): Effect.Effect<McpSchema.CallToolResult> => {
    if (declaration.success === undefined) return Effect.succeed(toToolResult(output as ToolContent))
    const encoded = McpTool.encodeSuccess(declaration, output)
    if (Result.isFailure(encoded)) {
      return Effect.die(
        new Error(`Tool ${name} returned a value that does not match its output schema: ${formatIssue(encoded.failure)}`)
      )
    }
    return Effect.succeed<McpSchema.CallToolResult>({
      content: [{ type: "text", text: JSON.stringify(encoded.success) }],
      structuredContent: encoded.success
    })
  }
  // a declared failure is the tool error Failure.ofTool makes, with its encoded value in `_meta`; a
  // reverse call's error (HandlerContext.ReverseCallError) never is (a structural `failure` schema could take one)
  const onFailure = (error: unknown): Effect.Effect<McpSchema.CallToolResult, ErrorResponse> => {
    const encoded = error instanceof ErrorResponse || isReverseCallError(error) ? undefined : encodeFailure?.(error)
    return Failure.ofDeclared(error, encoded === undefined || Result.isFailure(encoded) ? undefined : encoded.success)
  }
  const run = (input: unknown): Effect.Effect<McpSchema.CallToolResult, ErrorResponse> => {
    const ran = handler(input)
    // a handler that answered as it was called (`Effect.succeed`): its result at once, two
    // operations less than matching it
    if (Answered.isSuccess(ran)) return onSuccess(ran.value)
    return Effect.matchEffect(ran, { onSuccess, onFailure }) as Effect.Effect<
      McpSchema.CallToolResult,
      ErrorResponse,
      never
    >
  }
  return {
    _tag: "Tool",
    name,
    definition: declaration.definition,
    ...(scopes !== undefined ? { scopes } : {}),
    ...(cacheHint !== undefined ? { cacheHint } : {}),
    ...(taskStart !== undefined ? { taskStart } : {}),
    call: (args) => {
      const input = args ?? {}
      if (asDecoded !== undefined && asDecoded(input)) return run(input)
      const decoded = decode(input)
      if (Result.isFailure(decoded)) {
        return Effect.succeed(toolError(`Invalid arguments for tool ${name}: ${formatIssue(decoded.failure)}`))
      }
      return run(decoded.success)
    }
  }
}

/** The engine of a handler detached from a 2026 request: notifications are dropped, requests refused. */
const detachedProtocol: Protocol.Protocol = {
  request: (method) =>
    Effect.fail(new ProtocolError({ reason: "Transport", method, message: `${method}: no connection to send it on` })),
  notify: () => Effect.void,
  closed: Effect.never,
  close: () => Effect.void,
  pending: Effect.succeed(0),
  running: Effect.succeed(0)
}

/** A `tools/call` given to the hooks first (`McpServer.Extension.toolCall`); undefined when none answers. */
const hooked = (
  hooks: ReadonlyArray<ToolCallHook>,
  entry: Registered<Tool<unknown>>,
  params: McpSchema.CallToolRequestParams,
  env: RequestEnv
): Effect.Effect<Protocol.Result, ErrorResponse> | undefined => {
  const run = (context?: ToolRunContext) => {
    if (context === undefined) return runFeature(entry, entry.feature.call(params.arguments ?? {}), env)
    const incoming: EngineIncomingRequest = {
      request: env.incoming.request,
      scope: Effect.succeed(context.scope),
      isActive: context.isActive,
      // not the request's fiber: a plain provide
      provide: <A, E>(effect: Effect.Effect<A, E, any>, services: Context.Context<never>, base?: Context.Context<never>) =>
        Effect.provide(effect, base === undefined ? services : Context.merge(base, services)) as Effect.Effect<A, E>
    }
    // on the 2026 path there is no session engine: what the handler notifies after its request goes nowhere
    const protocol = env.session.protocol?.() ?? detachedProtocol
    const handlerContext = HandlerContext.unsafeMake({
      protocol,
      incoming,
      session: env.session.shape,
      reverseCall: context.reverseCall
    })
    return withFeature(entry, entry.feature.call(params.arguments ?? {}), { ...env, incoming, handlerContext })
  }
  const call: ToolCall = {
    params,
    tool: entry.feature.definition,
    request: env.incoming.request,
    session: env.session.shape,
    principal: env.session.principal?.(),
    protocol: env.session.protocol?.(),
    taskStart: entry.feature.taskStart ?? "call",
    reverseCall: (method, p, options) => env.handlerContext.request(method, p, options),
    run
  }
  for (const hook of hooks) {
    const answer = hook(call)
    if (answer !== undefined) return answer
  }
  return undefined
}

/** The definitions `tools/list` shows the client of `env` (a tool's `definitionFor`, else its `definition`). */
const shownTo = (entries: ReadonlyArray<Registered<Tool<unknown>>>, env: RequestEnv): ReadonlyArray<McpSchema.Tool> => {
  if (!entries.some((e) => e.feature.definitionFor !== undefined)) return entries.map((e) => e.feature.definition)
  const client = env.session.shape.clientCapabilities()
  const shown: Array<McpSchema.Tool> = []
  for (const e of entries) {
    const definition = e.feature.definitionFor === undefined ? e.feature.definition : e.feature.definitionFor(client)
    if (definition !== undefined) shown.push(definition)
  }
  return shown
}

/**
 * A 2026 list that differs by client (a tool with `definitionFor`) is for this client only: its
 * hint capped to `"private"` (the 2026 path takes the tightest of it and the server's, so the
 * unbounded `ttlMs` here leaves the server's or the features' own).
 */
const privately = (result: Protocol.Result): Protocol.Result => ({
  ...result,
  ttlMs: typeof result.ttlMs === "number" ? result.ttlMs : Number.MAX_SAFE_INTEGER,
  cacheScope: "private"
})

/** Whether the tool of `entry` is left out for the client of `env` (its `definitionFor` gives none). */
const hiddenFrom = (entry: Registered<Tool<unknown>>, env: RequestEnv): boolean =>
  entry.feature.definitionFor !== undefined && entry.feature.definitionFor(env.session.shape.clientCapabilities()) === undefined

export const handlers = (
  registry: FeatureRegistry,
  listPage: ListPage,
  hooks: () => ReadonlyArray<ToolCallHook> = () => []
): Handlers => ({
  "tools/list": (params: McpSchema.PaginatedRequestParams | undefined, env) =>
    Effect.flatMap(registry.get, (r) => {
      const entries = Array.from(r.tools.values())
      const listed = capped(env, entries, listPage("tools", shownTo(entries, env), params?.cursor))
      return env.envelope !== undefined && entries.some((e) => e.feature.definitionFor !== undefined)
        ? Effect.map(listed, privately)
        : listed
    }),
  "tools/call": (params: McpSchema.CallToolRequestParams, env) => {
    const entry = registry.current().tools.get(params.name)
    if (entry === undefined || hiddenFrom(entry, env)) {
      return Effect.fail(ErrorResponse.invalidParams(`Unknown tool: ${params.name}`))
    }
    const registered = hooks()
    const answer = registered.length === 0 ? undefined : hooked(registered, entry, params, env)
    return answer ?? runFeature(entry, entry.feature.call(params.arguments ?? {}), env)
  }
})

/** A reverse call's error (`HandlerContext.ReverseCallError`): never a tool's declared failure. */
const isReverseCallError = (error: unknown): boolean =>
  error instanceof McpError || error instanceof ProtocolError || error instanceof ElicitationDeclined
