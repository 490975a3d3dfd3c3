/**
 * The context of one forward request, provided to its handler while it runs
 * and only then. It is the only way to make reverse calls (sampling,
 * elicitation, roots) and to send notifications that belong to the request
 * (progress, logs): on streamable HTTP they travel on the request's own stream.
 *
 * Every reverse call is a child of the request: when the handler ends or is
 * interrupted (the client cancelled, the session closed), each reverse call
 * still pending is interrupted and `notifications/cancelled` for its id goes
 * to the client. A context used after its request ended fails with
 * `ProtocolError` reason `RequestEnded`.
 *
 * A reverse call the client declines fails with the client's `McpError`
 * (its `method` names the call). That is what the client said, not what the
 * server answers: a tool that does not catch it gets a tool error result
 * naming the failed call, other methods answer -32603 (see `McpError`).
 *
 * ## On 2026-07-28: multi-round-trip requests (what runs twice)
 *
 * A 2026 request carries no session and the server may not send the client a
 * request. There the same handler code runs in rounds (SEP-2322): in
 * `tools/call`, `prompts/get` and `resources/read`, a reverse call whose
 * answer the server does not have yet becomes an entry of `inputRequests` in
 * an `InputRequiredResult`, and the client retries the request with the
 * answers (`inputResponses`) and the `requestState` the server signed. The
 * contract for handler authors:
 *
 * - **The handler runs again from the start on every retry.** Everything
 *   before its last reverse call runs once per round: keep it free of side
 *   effects that must happen once (or make them idempotent), and put them
 *   after the last reverse call, which runs once, in the round that completes.
 * - **Answers are replayed, not re-asked.** Each reverse call is named by its
 *   `inputKey` option, or by its method and a digest of its params (plus a
 *   count when the same question is asked twice); a call whose question was
 *   answered gets the answer at once. Ask the same questions in the same way
 *   on every run: a question that changed (other params) is a new question
 *   and is asked anew.
 * - **Parallel calls are one round, sequential ones are several.** Reverse
 *   calls started together (`Effect.all(…, { concurrency: "unbounded" })`)
 *   are listed in one `InputRequiredResult`; one that waits for another's
 *   answer is asked in the next round. A round ends once the handler has
 *   asked and its fibers have had a few turns without asking more: a branch
 *   that does other asynchronous work before it asks may be asked in a later
 *   round (it is still correct, one round more).
 * - **A round's end interrupts the handler**, like a cancellation: finalizers
 *   run, scopes close, parallel branches are interrupted, and fibers it forked
 *   end with the request; nothing of the run is kept but the answers. Do not
 *   catch the interruption of a reverse call (`Effect.catchCause`,
 *   `Effect.exit` around it): the handler would go on without the answer.
 *   Reverse-call timeouts do not apply (the client takes as long as it
 *   takes); `ctx.progress` and `ctx.log` work in every round.
 * - **Only what the client declared is asked.** A reverse call for a
 *   capability the request's `_meta` does not declare fails at once with
 *   `ProtocolError` reason `CapabilityMissing` (as on 2025); if the handler
 *   does not catch it, the request is answered −32021. Other methods cannot
 *   ask at all.
 * - **The state is signed, not secret.** Answers travel in `requestState`
 *   (HMAC-SHA256 under `McpServer.ServerOptions.requestState`, bound to the
 *   method, the tool/prompt name or resource URI, the arguments and the
 *   caller, with an expiry): any instance with the keys takes the retry, and a
 *   tampered, expired or misapplied state is −32602. The client can read it,
 *   and may send the same state again within its expiry (the same answers,
 *   the same request): an effect that must happen at most once must be
 *   guarded by the server (a stored id), not by the state.
 *
 * @example
 * ```ts
 * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
 * import * as Effect from "effect/Effect"
 *
 * const handler = Effect.gen(function*() {
 *   const ctx = yield* HandlerContext
 *   yield* ctx.progress(1, { total: 2, message: "asking the model" })
 *   const answer = yield* ctx.sample({
 *     messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
 *     maxTokens: 50
 *   })
 *   return answer.content
 * })
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Result from "effect/Result"
import type * as Schema from "effect/Schema"
import * as SchemaValue from "effect/Schema"
import * as SchemaParser from "effect/SchemaParser"
import * as JsonSchema from "./internal/jsonSchema.js"
import { formatIssue, validator } from "./internal/validate.js"
import type * as JsonRpc from "./JsonRpc.js"
import * as Lifecycle from "./Lifecycle.js"
import { type McpError, ProtocolError } from "./McpError.js"
import * as McpSchema from "./McpSchema.js"
import type { IncomingRequest, Protocol, RequestOptions, Result as CallResult } from "./Protocol.js"
import type { ServerSessionShape } from "./ServerSession.js"
import { logs } from "./ServerSession.js"

/**
 * Options of a reverse call. `inputKey` names the call's entry in
 * `inputRequests` on 2026-07-28 (see the module); by default the key is made
 * from the method and the params. The timeouts apply to 2025 sessions only:
 * on 2026 the client takes as long as it takes to retry.
 * @since 0.1.0
 * @category models
 */
export type ReverseCallOptions = Omit<RequestOptions, "route"> & {
  /** The name of this call's input request on 2026-07-28 (unique within the handler). */
  readonly inputKey?: string | undefined
}

/**
 * The context of one forward request; see each member, and the module.
 * @since 0.1.0
 * @category models
 */
export interface HandlerContextShape {
  readonly requestId: JsonRpc.RequestId
  readonly method: string
  /** The request's `_meta`, if any. */
  readonly meta: { readonly [key: string]: unknown } | undefined
  /** The progress token the client supplied, if any. */
  readonly progressToken: string | number | undefined
  /** The session the request belongs to (its push channel outlives the request). */
  readonly session: ServerSessionShape
  /** Whether the request is still running. */
  readonly isActive: () => boolean
  /** A raw reverse call, capability-checked, related to this request. */
  readonly request: (
    method: string,
    params?: JsonRpc.Params,
    options?: ReverseCallOptions
  ) => Effect.Effect<CallResult, McpError | ProtocolError>
  /**
   * `sampling/createMessage`: asks the client's model (the client must declare
   * `sampling`; `tools` in the params need `sampling.tools`). Fails with the
   * client's `McpError` when the user or the client declines.
   *
   * @example
   * ```ts
   * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
   * import * as Effect from "effect/Effect"
   *
   * const summary = (text: string) =>
   *   Effect.gen(function*() {
   *     const ctx = yield* HandlerContext
   *     const result = yield* ctx.sample({
   *       messages: [{ role: "user", content: { type: "text", text: `Summarize:\n${text}` } }],
   *       systemPrompt: "You write one-sentence summaries.",
   *       maxTokens: 100
   *     })
   *     const content = Array.isArray(result.content) ? result.content[0] : result.content
   *     return content?.type === "text" ? content.text : ""
   *   })
   * ```
   */
  readonly sample: (
    params: McpSchema.CreateMessageRequestParams,
    options?: ReverseCallOptions
  ) => Effect.Effect<McpSchema.CreateMessageResult, McpError | ProtocolError>
  /**
   * `elicitation/create`: asks the user. Given `{ message, schema }` (an
   * `effect/Schema` of the flat shape a form allows: string, number,
   * integer, boolean and enum fields, optional or not), publishes the
   * schema's JSON Schema as `requestedSchema` and succeeds with the decoded
   * answer; a declined or cancelled form fails with `ElicitationDeclined`.
   * Given raw params (form or URL mode), the raw result.
   *
   * The client must declare `elicitation` (`elicitation.url` for URL mode),
   * and the session must be 2025-06-18 or later.
   *
   * @example
   * ```ts
   * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
   * import * as Effect from "effect/Effect"
   * import * as McpServer from "@effect-mcp/mcp/McpServer"
   * import * as Schema from "effect/Schema"
   *
   * const Contact = Schema.Struct({ email: Schema.String, newsletter: Schema.optional(Schema.Boolean) })
   *
   * const Subscribe = McpServer.tool({
   *   name: "subscribe",
   *   handler: () =>
   *     Effect.gen(function*() {
   *       const ctx = yield* HandlerContext
   *       const { email, newsletter } = yield* ctx.elicit({ message: "How do we reach you?", schema: Contact })
   *       return `subscribed ${email}${newsletter === true ? " with the newsletter" : ""}`
   *     }).pipe(
   *       // the user declined or cancelled the form
   *       Effect.catchTag("ElicitationDeclined", () => Effect.succeed("not subscribed"))
   *     )
   * })
   * ```
   */
  readonly elicit: {
    <A, I extends ElicitationFields>(
      params: { readonly message: string; readonly schema: Schema.Codec<A, I> },
      options?: ReverseCallOptions
    ): Effect.Effect<A, ElicitationDeclined | McpError | ProtocolError>
    (
      params: McpSchema.ElicitRequestParams,
      options?: ReverseCallOptions
    ): Effect.Effect<McpSchema.ElicitResult, McpError | ProtocolError>
  }
  /**
   * `roots/list`: the directories or files the client lets the server work
   * in (the client must declare `roots`).
   *
   * @example
   * ```ts
   * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
   * import * as Effect from "effect/Effect"
   *
   * const rootUris = Effect.gen(function*() {
   *   const ctx = yield* HandlerContext
   *   const { roots } = yield* ctx.listRoots()
   *   return roots.map((root) => root.uri) // ["file:///home/me/project", …]
   * })
   * ```
   */
  readonly listRoots: (options?: ReverseCallOptions) => Effect.Effect<McpSchema.ListRootsResult, McpError | ProtocolError>
  /** A notification related to this request. */
  readonly notify: (method: string, params?: JsonRpc.Params) => Effect.Effect<void, ProtocolError>
  /**
   * `notifications/progress` for this request; a no-op when the client gave
   * no progress token. `progress` must grow with every call; `total` is
   * optional. A client may restart its timeout for the request on each (ours
   * does by default).
   *
   * @example
   * ```ts
   * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
   * import * as Effect from "effect/Effect"
   *
   * const importAll = (files: ReadonlyArray<string>) =>
   *   Effect.gen(function*() {
   *     const ctx = yield* HandlerContext
   *     for (const [i, file] of files.entries()) {
   *       yield* ctx.progress(i, { total: files.length, message: `importing ${file}` })
   *       // … import the file
   *     }
   *   })
   * ```
   */
  readonly progress: (
    progress: number,
    options?: { readonly total?: number | undefined; readonly message?: string | undefined }
  ) => Effect.Effect<void>
  /**
   * Closes the HTTP stream carrying this request's messages while the request
   * goes on; the client reconnects with `Last-Event-ID` and gets the rest
   * (SEP-1699). A no-op on transports without such streams.
   */
  readonly closeStream: Effect.Effect<void>
  /**
   * `notifications/message` related to this request, sent only when `level`
   * is at or above the level the client asked for. This is the rule, in one
   * place:
   *
   * - 2025 eras (a session): the level set with `logging/setLevel`; when the
   *   client set none, every level is sent.
   * - 2026-07-28 (stateless): the level in this request's `_meta`
   *   (`"io.modelcontextprotocol/logLevel"`, which replaces
   *   `logging/setLevel`); when the request carries none, nothing is sent (the
   *   spec: the server MUST NOT send log messages for such a request).
   *
   * A client asks for a level with `McpClient`'s `logLevel` option (or
   * `setLogLevel`), which is sent in either era; `emcp` asks for `info` on
   * 2026 unless told otherwise (`--log-level`, `--quiet`). To skip building
   * a costly message, `ServerSession.logs(session, level)` tells beforehand.
   * `data` is any JSON value; `logger` names the source.
   *
   * @example
   * ```ts
   * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
   * import * as Effect from "effect/Effect"
   *
   * const warnSlow = (ms: number) =>
   *   Effect.flatMap(HandlerContext, (ctx) => ctx.log("warning", { slowQueryMs: ms }, "database"))
   * ```
   */
  readonly log: (level: McpSchema.LoggingLevel, data: unknown, logger?: string) => Effect.Effect<void>
}

/**
 * The encoded shape of a form `ctx.elicit` may ask for: flat fields of
 * strings, numbers, booleans, and string arrays (multi-select enums), each
 * optional or not. Nested objects do not type-check.
 *
 * @since 0.1.0
 * @category elicitation
 */
export type ElicitationFields = {
  readonly [key: string]: string | number | boolean | ReadonlyArray<string> | undefined
}

/**
 * The user declined or cancelled a form asked for with a schema.
 *
 * @since 0.1.0
 * @category elicitation
 */
export class ElicitationDeclined extends SchemaValue.TaggedError<ElicitationDeclined>(
  "@effect-mcp/mcp/HandlerContext/ElicitationDeclined"
)("ElicitationDeclined", {
  action: SchemaValue.Literals(["decline", "cancel"]),
  message: SchemaValue.String
}) {}

/**
 * What a reverse call of a `HandlerContext` (`ctx.sample`, `ctx.elicit`,
 * `ctx.listRoots`, `ctx.request`) fails with: the client's `McpError`
 * answer, a local `ProtocolError` (a capability the client lacks, a timeout,
 * the request ended), or `ElicitationDeclined`. A tool handler may let any of
 * them through, a declared tool's too (`McpServer.toolHandler`): uncaught, it
 * is a tool error result naming the failed call.
 *
 * @example
 * ```ts
 * import { HandlerContext, type ReverseCallError } from "@effect-mcp/mcp/HandlerContext"
 * import * as Effect from "effect/Effect"
 *
 * const rootUris: Effect.Effect<ReadonlyArray<string>, ReverseCallError, HandlerContext> = Effect.flatMap(
 *   HandlerContext,
 *   (ctx) => Effect.map(ctx.listRoots(), ({ roots }) => roots.map((root) => root.uri))
 * )
 * ```
 * @since 0.1.0
 * @category models
 */
export type ReverseCallError = McpError | ProtocolError | ElicitationDeclined

const requestedSchemas = new WeakMap<object, McpSchema.ElicitRequestedSchema>()
const decodeRequestedSchema = validator(McpSchema.ElicitRequestedSchema)

/**
 * The `requestedSchema` of a schema: its JSON Schema, checked to be one a
 * form allows (a defect otherwise: the schema is the program's, not the
 * peer's). Made once per schema.
 */
const requestedSchemaOf = (schema: Schema.Top): McpSchema.ElicitRequestedSchema => {
  const cached = requestedSchemas.get(schema)
  if (cached !== undefined) return cached
  const json = JsonSchema.make(schema)
  const decoded = decodeRequestedSchema(json)
  if (Result.isFailure(decoded)) {
    throw new Error(
      `ctx.elicit: the schema is not a flat elicitation form (${formatIssue(decoded.failure)}): ${JSON.stringify(json)}`
    )
  }
  // only the keywords a requested schema has (no `additionalProperties`)
  const { properties, required } = decoded.success
  const requested: McpSchema.ElicitRequestedSchema = {
    type: "object",
    properties,
    ...(required !== undefined && required.length > 0 ? { required } : {})
  }
  requestedSchemas.set(schema, requested)
  return requested
}

/**
 * The context of the forward request being handled.
 * @since 0.1.0
 * @category tags
 */
export class HandlerContext extends Context.Service<HandlerContext, HandlerContextShape>()("@effect-mcp/mcp/HandlerContext") {}

const decodeResult = <A, I>(schema: Schema.Codec<A, I>, method: string) => {
  const decode = validator(schema)
  return (result: CallResult): Effect.Effect<A, ProtocolError> => {
    const decoded = decode(result)
    return Result.isSuccess(decoded)
      ? Effect.succeed(decoded.success)
      : Effect.fail(
        new ProtocolError({
          reason: "InvalidResult",
          method,
          message: `Invalid ${method} result: ${formatIssue(decoded.failure)}`
        })
      )
  }
}

const decodeSample = decodeResult(McpSchema.CreateMessageResult, "sampling/createMessage")
const decodeElicit = decodeResult(McpSchema.ElicitResult, "elicitation/create")
const decodeRoots = decodeResult(McpSchema.ListRootsResult, "roots/list")

/**
 * What a context is built from.
 * @since 0.1.0
 * @category models
 */
export interface MakeOptions {
  readonly protocol: Protocol
  readonly incoming: IncomingRequest
  readonly session: ServerSessionShape
  readonly closeStream?: Effect.Effect<void> | undefined
  /**
   * How this context's reverse calls are made, after the check that the request is still
   * active: the capability check and the call itself. Default: the client's declared
   * capabilities are checked, then a request goes out on the wire, related to this one (2025).
   * The 2026 path gives its own: there is no server-to-client request in that era.
   */
  readonly reverseCall?: ReverseCall | undefined
}

/**
 * How a context's reverse calls are made (see `MakeOptions.reverseCall`).
 * @since 0.1.0
 * @category models
 */
export type ReverseCall = (
  method: string,
  params: JsonRpc.Params | undefined,
  options: ReverseCallOptions | undefined
) => Effect.Effect<CallResult, McpError | ProtocolError>

/**
 * Builds the context for one incoming request. `protocol` is the session's
 * engine; the context's reverse calls are forked into the request's scope, so
 * they end with the request.
 *
 * @example
 * ```ts
 * import * as HandlerContext from "@effect-mcp/mcp/HandlerContext"
 * import type * as Protocol from "@effect-mcp/mcp/Protocol"
 * import type { ServerSessionShape } from "@effect-mcp/mcp/ServerSession"
 * import * as Effect from "effect/Effect"
 *
 * declare const protocol: Protocol.Protocol
 * declare const session: ServerSessionShape
 *
 * const onRequest = (incoming: Protocol.IncomingRequest) =>
 *   Effect.flatMap(HandlerContext.make({ protocol, incoming, session }), (ctx) => Effect.succeed({ method: ctx.method }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: MakeOptions): Effect.Effect<HandlerContextShape> => Effect.sync(() => unsafeMake(options))

/**
 * `make`, without the effect: for the engine's per-request path.
 *
 * @example
 * ```ts
 * import * as HandlerContext from "@effect-mcp/mcp/HandlerContext"
 * import type * as Protocol from "@effect-mcp/mcp/Protocol"
 * import type { ServerSessionShape } from "@effect-mcp/mcp/ServerSession"
 *
 * declare const protocol: Protocol.Protocol
 * declare const session: ServerSessionShape
 * declare const incoming: Protocol.IncomingRequest
 *
 * const ctx = HandlerContext.unsafeMake({ protocol, incoming, session })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const unsafeMake = (options: MakeOptions): HandlerContextShape => new RequestContext(options)

/**
 * Why a reverse call cannot go out: a session never initialized (a 2025 POST served on a session
 * of its own, `sessionPerRequest`) knows no capabilities, and could not take the answer either;
 * otherwise the client did not declare the capability.
 */
const incapable = (session: ServerSessionShape, method: string): ProtocolError =>
  session.clientCapabilities() === undefined
    ? new ProtocolError({
      reason: "NotInitialized",
      method,
      message: `Cannot send ${method}: this request's session was never initialized, so the server knows no client ` +
        `capabilities and could not take the client's answer (each 2025 POST is served on a session of its own: ` +
        `the server's sessionPerRequest, or a fetch handler's sessions: false); serve sessions, or have the client ` +
        `speak 2026-07-28, whose requests carry their capabilities`
    })
    : new ProtocolError({ reason: "CapabilityMissing", method, message: `The client did not declare the capability for ${method}` })

/**
 * One request's context. Every request gets one and most handlers use little
 * of it, so its functions are made on first use (getters, so that taking one
 * out of the object, `const { progress } = ctx`, works as with a plain record).
 */
class RequestContext implements HandlerContextShape {
  readonly requestId: JsonRpc.RequestId
  readonly method: string
  readonly meta: { readonly [key: string]: unknown } | undefined
  readonly progressToken: string | number | undefined
  readonly session: ServerSessionShape
  readonly isActive: () => boolean
  readonly closeStream: Effect.Effect<void>
  readonly #protocol: Protocol
  readonly #incoming: IncomingRequest
  readonly #reverseCall: ReverseCall | undefined
  #request: HandlerContextShape["request"] | undefined
  #notify: HandlerContextShape["notify"] | undefined

  constructor(options: MakeOptions) {
    const req = options.incoming.request
    this.#protocol = options.protocol
    this.#incoming = options.incoming
    this.#reverseCall = options.reverseCall
    this.requestId = req.id
    this.method = req.method
    this.meta = req.params?._meta as { readonly [key: string]: unknown } | undefined
    const token = this.meta?.progressToken
    this.progressToken = typeof token === "string" || typeof token === "number" ? token : undefined
    this.session = options.session
    this.isActive = options.incoming.isActive
    this.closeStream = options.closeStream ?? Effect.void
  }

  #ended(method: string) {
    return new ProtocolError({
      reason: "RequestEnded",
      method,
      message: `The request ${this.method} (id ${String(this.requestId)}) has ended; use ServerSession for work that outlives it`
    })
  }

  get request(): HandlerContextShape["request"] {
    return this.#request ??= (method, params, callOptions) =>
      Effect.suspend(() => {
        if (!this.isActive()) return Effect.fail(this.#ended(method))
        if (this.#reverseCall !== undefined) return this.#reverseCall(method, params, callOptions)
        const capable = Lifecycle.clientSupports(this.session.clientCapabilities(), method, params) &&
          (method !== "elicitation/create" || Lifecycle.allowsElicitation(this.session.protocolVersion()))
        if (!capable) return Effect.fail(incapable(this.session, method))
        const route = { relatedRequestId: this.requestId }
        const { inputKey: _, ...requestOptions } = callOptions ?? {}
        return Effect.flatMap(
          Effect.flatMap(
            this.#incoming.scope,
            (scope) => Effect.forkIn(this.#protocol.request(method, params, { ...requestOptions, route }), scope)
          ),
          (fiber) => Effect.onInterrupt(Fiber.join(fiber), () => Fiber.interrupt(fiber))
        )
      })
  }

  get notify(): HandlerContextShape["notify"] {
    return this.#notify ??= (method, params) =>
      Effect.suspend(() =>
        this.isActive()
          ? this.#protocol.notify(method, params, { relatedRequestId: this.requestId })
          : Effect.fail(this.#ended(method))
      )
  }

  get sample(): HandlerContextShape["sample"] {
    const request = this.request
    return (params, o) => Effect.flatMap(request("sampling/createMessage", params as JsonRpc.Params, o), decodeSample)
  }

  get elicit(): HandlerContextShape["elicit"] {
    const request = this.request
    const raw = (params: McpSchema.ElicitRequestParams, o?: ReverseCallOptions) =>
      Effect.flatMap(request("elicitation/create", params as JsonRpc.Params, o), decodeElicit)
    const typed = (
      params: { readonly message: string; readonly schema: Schema.Codec<unknown, unknown> },
      o?: ReverseCallOptions
    ) =>
      Effect.suspend(() => {
        const requestedSchema = requestedSchemaOf(params.schema)
        const decode = SchemaParser.decodeUnknownResult(params.schema, {
          errors: "all",
          onExcessProperty: "ignore",
          reportInput: true
        })
        return Effect.flatMap(raw({ message: params.message, requestedSchema }, o), (result): Effect.Effect<
          unknown,
          ElicitationDeclined | ProtocolError
        > => {
          if (result.action !== "accept") {
            return Effect.fail(
              new ElicitationDeclined({ action: result.action, message: `The user chose to ${result.action} the form` })
            )
          }
          const decoded = decode(result.content ?? {})
          return Result.isSuccess(decoded) ? Effect.succeed(decoded.success) : Effect.fail(
            new ProtocolError({
              reason: "InvalidResult",
              method: "elicitation/create",
              message: `The accepted form does not match the requested schema: ${formatIssue(decoded.failure)}`
            })
          )
        })
      })
    return ((params: { readonly schema?: unknown }, o?: ReverseCallOptions) =>
      SchemaValue.isSchema(params.schema)
        ? typed(params as Parameters<typeof typed>[0], o)
        : raw(params as McpSchema.ElicitRequestParams, o)) as unknown as HandlerContextShape["elicit"]
  }

  get listRoots(): HandlerContextShape["listRoots"] {
    const request = this.request
    return (o) => Effect.flatMap(request("roots/list", undefined, o), decodeRoots)
  }

  get progress(): HandlerContextShape["progress"] {
    const notify = this.notify
    const progressToken = this.progressToken
    return (progress, o) =>
      progressToken === undefined
        ? Effect.void
        : notify("notifications/progress", {
          progressToken,
          progress,
          ...(o?.total !== undefined ? { total: o.total } : {}),
          ...(o?.message !== undefined ? { message: o.message } : {})
        }).pipe(Effect.ignore)
  }

  get log(): HandlerContextShape["log"] {
    const notify = this.notify
    const session = this.session
    return (level, data, logger) =>
      logs(session, level)
        ? notify("notifications/message", logger === undefined ? { level, data } : { level, data, logger }).pipe(
          Effect.ignore
        )
        : Effect.void
  }
}
