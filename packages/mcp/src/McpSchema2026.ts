/**
 * Model Context Protocol, spec revision 2026-07-28 (the stateless era), as `effect/Schema` schemas.
 *
 * Every definition of the official JSON Schema (`schema/2026-07-28/schema.json`, 155 `$defs`) is
 * exported under its spec name, as a schema value and a type of the same name, with the design
 * rules of {@link McpSchema} (Type == Encoded, exact optional fields, open objects keep unknown keys).
 *
 * ## Design note: two eras, one engine
 *
 * **Shared definitions.** A definition whose wire shape did not change is the very same schema
 * value as in `McpSchema` (re-exported, so `McpSchema2026.TextContent === McpSchema.TextContent`):
 * content blocks (text, image, audio, resource link, embedded resource, tool use), resource,
 * template, prompt and root descriptors, `Implementation`, `Icon`, annotations, the elicitation
 * form schemas, model preferences, completion references, `LoggingLevel`, `RequestId`,
 * `ProgressToken`, `Cursor`, `Error` and the JSON-RPC request, notification and error envelopes.
 *
 * **Definitions that differ** are defined here:
 * - The per-request envelope: `params._meta` is required on every request and carries
 *   `io.modelcontextprotocol/protocolVersion` and `.../clientCapabilities` (required),
 *   `.../clientInfo` and `.../logLevel` (optional; no level means no `notifications/message`).
 *   Results may carry `_meta[".../serverInfo"]`; notifications on a listen stream carry
 *   `_meta[".../subscriptionId"]` (the id of the `subscriptions/listen` request).
 * - Every result has a `resultType`: `"complete"` results (the method's own result) or an
 *   {@link InputRequiredResult} (`"input_required"`, `inputRequests` keyed by name and/or an opaque
 *   `requestState`), which only `tools/call`, `prompts/get` and `resources/read` may answer
 *   ({@link INPUT_REQUIRED_METHODS}); the retry carries `inputResponses` and the `requestState`.
 * - Caching hints `ttlMs` and `cacheScope` are required on the list results, `resources/read` and
 *   `server/discover`.
 * - Server-to-client requests are gone: sampling, elicitation and roots survive only as
 *   {@link InputRequest}s (no `jsonrpc`/`id`, no `task`, no `_meta` in sampling/elicitation params,
 *   no `elicitationId` in URL elicitations) answered by {@link InputResponse}s.
 * - `Tool`: no `execution`; `inputSchema` is any JSON Schema object with `type: "object"`,
 *   `outputSchema` any JSON Schema object; `structuredContent` is any JSON value.
 * - Capabilities: no `tasks`, `roots.listChanged` gone, `extensions` added on both sides.
 * - New methods `server/discover`, `subscriptions/listen`, `notifications/subscriptions/acknowledged`;
 *   removed methods are listed in {@link REMOVED_CLIENT_REQUEST_METHODS} and
 *   {@link REMOVED_NOTIFICATION_METHODS} (answer −32601, HTTP 404). New errors −32020 (header
 *   mismatch), −32021 (missing client capability), −32022 (unsupported version, never on the 2025
 *   path). A missing resource is −32602 with `data.uri` (no −32002).
 *
 * **How the engine chooses (see `ProtocolEra`).** The era is chosen per request over HTTP and per
 * connection over stdio: `initialize` or session traffic → 2025 (`McpSchema`, unchanged); a request
 * whose `params._meta` carries the protocol version, a 2026 `MCP-Protocol-Version` header, or
 * `server/discover` → 2026 (this module). Handlers stay era-neutral: the 2026 path decodes params
 * with these schemas, lifts the envelope out of `_meta` (version, capabilities, client info, log
 * level, MRTR answers and state) into the request context, and hands handlers the same params as
 * the 2025 path; a handler's result (a 2025-shaped value without removed fields) gets
 * `resultType: "complete"`, `_meta[".../serverInfo"]` and, where required, the caching hints when
 * it is encoded with these schemas. Reverse calls become `inputRequests` of an InputRequiredResult.
 * The types line up for this (checked in the tests): 2026 params are assignable to the 2025 params
 * types, a 2025 result plus `resultType: "complete"` is a 2026 result, 2025 sampling/elicitation
 * params are 2026 input-request params (encoding drops `task`/`_meta`), and 2026 elicitation and
 * roots answers are 2025 results. The one gap: a 2026 sampling answer may hold a `tool_result`
 * whose `structuredContent` is not an object, which the 2025 `CreateMessageResult` type rejects.
 *
 * Deliberate differences from the JSON Schema (tested): complete results require
 * `resultType: "complete"` and `InputRequiredResult` requires `"input_required"` plus one of
 * `inputRequests`/`requestState` (the JSON Schema says only `string`), so that a result decodes as
 * exactly one of the two; `JSONValue` also admits `null` and fractional numbers, which the
 * generated JSON Schema drops (`number` rendered as `integer`).
 *
 * @since 0.2.0
 */
import * as Schema from "effect/Schema"
import * as McpSchema from "./McpSchema.js"

export {
  Annotations,
  AudioContent,
  BaseMetadata,
  BlobResourceContents,
  BooleanSchema,
  ContentBlock,
  Cursor,
  EmbeddedResource,
  EnumSchema,
  Error,
  Icon,
  Icons,
  ImageContent,
  Implementation,
  JSONRPCErrorResponse,
  JSONRPCNotification,
  JSONRPCRequest,
  LegacyTitledEnumSchema,
  LoggingLevel,
  ModelHint,
  ModelPreferences,
  MultiSelectEnumSchema,
  Notification,
  NumberSchema,
  PrimitiveSchemaDefinition,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptReference,
  Request,
  RequestId,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  ResourceTemplateReference,
  Role,
  Root,
  SingleSelectEnumSchema,
  StringSchema,
  TextContent,
  TextResourceContents,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  ToolAnnotations,
  ToolChoice,
  ToolUseContent,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema
} from "./McpSchema.js"

// -----------------------------------------------------------------------------
// Protocol versions, `_meta` keys, result types & error codes
// -----------------------------------------------------------------------------

/**
 * The protocol revision implemented by this module.
 * @since 0.2.0
 * @category versions
 * @example
 * import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
 * McpSchema2026.PROTOCOL_VERSION // "2026-07-28"
 */
export const PROTOCOL_VERSION = "2026-07-28" as const

/**
 * The stateless-era revisions this implementation speaks, newest first.
 * @since 0.2.0
 * @category versions
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION] as const

/** `params._meta` key: the protocol version of this request (required; equals `MCP-Protocol-Version`). */
export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion" as const
/** `params._meta` key: the client's capabilities for this request (required; `{}` = none). */
export const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities" as const
/** `params._meta` key: the client's `Implementation` (should be sent; display and logs only). */
export const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo" as const
/** `params._meta` key: the log level for this request (absent: no `notifications/message` at all). */
export const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel" as const
/** `result._meta` key: the server's `Implementation` (should be on every result). */
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo" as const
/** `_meta` key: the id of the `subscriptions/listen` request a notification (or its final result) belongs to. */
export const SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId" as const

/** `resultType` of a finished request (also what a missing `resultType` means). */
export const RESULT_TYPE_COMPLETE = "complete" as const
/** `resultType` of an {@link InputRequiredResult}. */
export const RESULT_TYPE_INPUT_REQUIRED = "input_required" as const

/** Error code: HTTP headers missing, malformed or not matching the body (HTTP 400). */
export const HEADER_MISMATCH = -32020 as const
/** Error code: the request needs a client capability the request did not declare (HTTP 400). */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021 as const
/** Error code: unknown or unsupported protocol version, `data: { supported, requested }` (HTTP 400). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022 as const

// -----------------------------------------------------------------------------
// Helpers & JSON
// -----------------------------------------------------------------------------

const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
const JsonRpcVersion = Schema.Literal("2.0")
const { Implementation, JsonObject, LoggingLevel, ProgressToken, RequestId } = McpSchema
const StringRecord = Schema.Record({ key: Schema.String, value: Schema.String })

/** Any JSON value (never `undefined`); more lenient than the spec's (see the module note). */
export const JSONValue = Schema.Unknown.pipe(
  Schema.filter((u) => u !== undefined, { message: () => "Expected a JSON value, actual undefined" })
)
/** Any JSON value. */
export type JSONValue = typeof JSONValue.Type

/** A JSON object. */
export const JSONObject = JsonObject
/** A JSON object. */
export type JSONObject = McpSchema.JsonObject

/** A JSON array. */
export const JSONArray = Schema.Array(JSONValue)
/** A JSON array. */
export type JSONArray = typeof JSONArray.Type

/** The contents of a `_meta` field: an open object. */
export const MetaObject = McpSchema.Meta
/** The contents of a `_meta` field. */
export type MetaObject = McpSchema.Meta

// -----------------------------------------------------------------------------
// Capabilities
// -----------------------------------------------------------------------------

/** Named capability objects (`experimental`, `extensions`). */
const CapabilityMap = Schema.Record({ key: Schema.String, value: JsonObject })

const ClientCapabilities_ = Schema.Struct({
  experimental: optional(CapabilityMap),
  /** Extensions the client supports, by extension identifier. */
  extensions: optional(CapabilityMap),
  /** Present if the client can answer `roots/list` input requests. */
  roots: optional(JsonObject),
  sampling: optional(Schema.Struct({ context: optional(JsonObject), tools: optional(JsonObject) })),
  elicitation: optional(Schema.Struct({ form: optional(JsonObject), url: optional(JsonObject) }))
})
/** The schema type of {@link ClientCapabilities} (a named interface keeps declaration output small). */
export interface ClientCapabilitiesSchema extends Schema.Struct<typeof ClientCapabilities_.fields> {}
/** Capabilities a client declares, per request, in `_meta[".../clientCapabilities"]`. */
export const ClientCapabilities: ClientCapabilitiesSchema = ClientCapabilities_
/** Capabilities a client declares, per request. */
export interface ClientCapabilities extends Schema.Schema.Type<typeof ClientCapabilities> {}

const ServerCapabilities_ = Schema.Struct({
  experimental: optional(CapabilityMap),
  /** Extensions the server supports, by extension identifier. */
  extensions: optional(CapabilityMap),
  logging: optional(JsonObject),
  completions: optional(JsonObject),
  prompts: optional(Schema.Struct({ listChanged: optional(Schema.Boolean) })),
  resources: optional(Schema.Struct({ subscribe: optional(Schema.Boolean), listChanged: optional(Schema.Boolean) })),
  tools: optional(Schema.Struct({ listChanged: optional(Schema.Boolean) }))
})
/** The schema type of {@link ServerCapabilities} (a named interface keeps declaration output small). */
export interface ServerCapabilitiesSchema extends Schema.Struct<typeof ServerCapabilities_.fields> {}
/** Capabilities a server advertises in `server/discover`. */
export const ServerCapabilities: ServerCapabilitiesSchema = ServerCapabilities_
/** Capabilities a server advertises in `server/discover`. */
export interface ServerCapabilities extends Schema.Schema.Type<typeof ServerCapabilities> {}

// -----------------------------------------------------------------------------
// `_meta` envelopes, params & results
// -----------------------------------------------------------------------------

const RequestMetaObject_ = Schema.Struct({
  progressToken: optional(ProgressToken),
  [PROTOCOL_VERSION_META_KEY]: Schema.String,
  [CLIENT_CAPABILITIES_META_KEY]: ClientCapabilities,
  [CLIENT_INFO_META_KEY]: optional(Implementation),
  [LOG_LEVEL_META_KEY]: optional(LoggingLevel)
}, JsonObject)
/** The schema type of {@link RequestMetaObject} (a named interface keeps declaration output small). */
export interface RequestMetaObjectSchema extends Schema.TypeLiteral<typeof RequestMetaObject_.fields, typeof RequestMetaObject_.records> {}
/** The `_meta` of every request: the per-request envelope (open; other keys survive). */
export const RequestMetaObject: RequestMetaObjectSchema = RequestMetaObject_
/** The `_meta` of every request: the per-request envelope. */
export interface RequestMetaObject extends Schema.Schema.Type<typeof RequestMetaObject> {}

const ResultMetaObject_ = Schema.Struct({ [SERVER_INFO_META_KEY]: optional(Implementation) }, JsonObject)
/** The schema type of {@link ResultMetaObject} (a named interface keeps declaration output small). */
export interface ResultMetaObjectSchema extends Schema.TypeLiteral<typeof ResultMetaObject_.fields, typeof ResultMetaObject_.records> {}
/** The `_meta` of results (open). */
export const ResultMetaObject: ResultMetaObjectSchema = ResultMetaObject_
/** The `_meta` of results. */
export interface ResultMetaObject extends Schema.Schema.Type<typeof ResultMetaObject> {}

const NotificationMetaObject_ = Schema.Struct({ [SUBSCRIPTION_ID_META_KEY]: optional(RequestId) }, JsonObject)
/** The schema type of {@link NotificationMetaObject} (a named interface keeps declaration output small). */
export interface NotificationMetaObjectSchema extends Schema.TypeLiteral<typeof NotificationMetaObject_.fields, typeof NotificationMetaObject_.records> {}
/** The `_meta` of notifications (open): the subscription a notification was delivered on. */
export const NotificationMetaObject: NotificationMetaObjectSchema = NotificationMetaObject_
/** The `_meta` of notifications. */
export interface NotificationMetaObject extends Schema.Schema.Type<typeof NotificationMetaObject> {}

const SubscriptionsListenResultMetaObject_ = Schema.Struct({
  [SERVER_INFO_META_KEY]: optional(Implementation),
  [SUBSCRIPTION_ID_META_KEY]: RequestId
}, JsonObject)
/** The schema type of {@link SubscriptionsListenResultMetaObject} (a named interface keeps declaration output small). */
export interface SubscriptionsListenResultMetaObjectSchema extends Schema.TypeLiteral<typeof SubscriptionsListenResultMetaObject_.fields, typeof SubscriptionsListenResultMetaObject_.records> {}
/** The `_meta` of a {@link SubscriptionsListenResult}: names the subscription it closes. */
export const SubscriptionsListenResultMetaObject: SubscriptionsListenResultMetaObjectSchema = SubscriptionsListenResultMetaObject_
/** The `_meta` of a {@link SubscriptionsListenResult}. */
export interface SubscriptionsListenResultMetaObject extends Schema.Schema.Type<typeof SubscriptionsListenResultMetaObject> {}

const RequestParams_ = Schema.Struct({ _meta: RequestMetaObject })
/** The schema type of {@link RequestParams} (a named interface keeps declaration output small). */
export interface RequestParamsSchema extends Schema.Struct<typeof RequestParams_.fields> {}
/** Common params of any request: the envelope is required. */
export const RequestParams: RequestParamsSchema = RequestParams_
/** Common params of any request. */
export interface RequestParams extends Schema.Schema.Type<typeof RequestParams> {}

/** Common params of any notification. */
export const NotificationParams = Schema.Struct({ _meta: optional(NotificationMetaObject) })
/** Common params of any notification. */
export interface NotificationParams extends Schema.Schema.Type<typeof NotificationParams> {}

/** The type of a result: `"complete"` or `"input_required"` in this revision. */
export const ResultType = Schema.String
/** The type of a result. */
export type ResultType = typeof ResultType.Type

const Result_ = Schema.Struct({ _meta: optional(ResultMetaObject), resultType: ResultType }, JsonObject)
/** The schema type of {@link Result} (a named interface keeps declaration output small). */
export interface ResultSchema extends Schema.TypeLiteral<typeof Result_.fields, typeof Result_.records> {}
/** A result of any request: an open object with a `resultType` (unknown keys are preserved). */
export const Result: ResultSchema = Result_
/** A result of any request. */
export interface Result extends Schema.Schema.Type<typeof Result> {}

/** A response that indicates success but carries no data. */
export const EmptyResult = Result
/** A response that indicates success but carries no data. */
export type EmptyResult = Result

/** The fields every finished (`"complete"`) result starts with. */
const completeFields = {
  _meta: optional(ResultMetaObject),
  resultType: Schema.Literal(RESULT_TYPE_COMPLETE)
}

/** Who may reuse a cached result: `"public"` (anyone) or `"private"` (the same authorization context). */
export const CacheScope = Schema.Literal("private", "public")
/** Who may reuse a cached result. */
export type CacheScope = typeof CacheScope.Type

/** The caching hints of cacheable results. */
const cacheFields = {
  /** How long (ms) the client may cache the result; 0 = immediately stale. */
  ttlMs: Schema.Int.pipe(Schema.nonNegative()),
  cacheScope: CacheScope
}

/** A result that carries caching hints. */
export const CacheableResult = Schema.Struct({ ...completeFields, ...cacheFields })
/** A result that carries caching hints. */
export interface CacheableResult extends Schema.Schema.Type<typeof CacheableResult> {}

const PaginatedRequestParams_ = Schema.Struct({ _meta: RequestMetaObject, cursor: optional(McpSchema.Cursor) })
/** The schema type of {@link PaginatedRequestParams} (a named interface keeps declaration output small). */
export interface PaginatedRequestParamsSchema extends Schema.Struct<typeof PaginatedRequestParams_.fields> {}
/** Common params of paginated requests. */
export const PaginatedRequestParams: PaginatedRequestParamsSchema = PaginatedRequestParams_
/** Common params of paginated requests. */
export interface PaginatedRequestParams extends Schema.Schema.Type<typeof PaginatedRequestParams> {}

/** Common fields of paginated results. */
export const PaginatedResult = Schema.Struct({ ...completeFields, nextCursor: optional(McpSchema.Cursor) })
/** Common fields of paginated results. */
export interface PaginatedResult extends Schema.Schema.Type<typeof PaginatedResult> {}

// -----------------------------------------------------------------------------
// Sampling, elicitation & roots (as input requests)
// -----------------------------------------------------------------------------

/** Tool input schema: any JSON Schema object whose root has `type: "object"`. */
const ToolInputSchema = Schema.Struct({ $schema: optional(Schema.String), type: Schema.Literal("object") }, JsonObject)
/** Tool output schema: any JSON Schema object. */
const ToolOutputSchema = Schema.Struct({ $schema: optional(Schema.String) }, JsonObject)

const Tool_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(McpSchema.Icon)),
  description: optional(Schema.String),
  inputSchema: ToolInputSchema,
  outputSchema: optional(ToolOutputSchema),
  annotations: optional(McpSchema.ToolAnnotations),
  _meta: optional(MetaObject)
})
/** The schema type of {@link Tool} (a named interface keeps declaration output small). */
export interface ToolSchema extends Schema.Struct<typeof Tool_.fields> {}
/** Definition of a tool the client can call (any JSON Schema 2020-12 keyword survives decoding). */
export const Tool: ToolSchema = Tool_
/** Definition of a tool the client can call. */
export interface Tool extends Schema.Schema.Type<typeof Tool> {}

const ToolResultContent_ = Schema.Struct({
  ...McpSchema.ToolResultContent.fields,
  structuredContent: optional(JSONValue)
})
/** The schema type of {@link ToolResultContent} (a named interface keeps declaration output small). */
export interface ToolResultContentSchema extends Schema.Struct<typeof ToolResultContent_.fields> {}
/** The result of a tool use inside sampling; `structuredContent` is any JSON value. */
export const ToolResultContent: ToolResultContentSchema = ToolResultContent_
/** The result of a tool use inside sampling. */
export interface ToolResultContent extends Schema.Schema.Type<typeof ToolResultContent> {}

/** Content of sampling messages. */
export const SamplingMessageContentBlock = Schema.Union(
  McpSchema.TextContent,
  McpSchema.ImageContent,
  McpSchema.AudioContent,
  McpSchema.ToolUseContent,
  ToolResultContent
)
/** Content of sampling messages. */
export type SamplingMessageContentBlock = typeof SamplingMessageContentBlock.Type

const SamplingContent = Schema.Union(...SamplingMessageContentBlock.members, Schema.Array(SamplingMessageContentBlock))

const SamplingMessage_ = Schema.Struct({ role: McpSchema.Role, content: SamplingContent, _meta: optional(MetaObject) })
/** The schema type of {@link SamplingMessage} (a named interface keeps declaration output small). */
export interface SamplingMessageSchema extends Schema.Struct<typeof SamplingMessage_.fields> {}
/** A message issued to or received from an LLM API. */
export const SamplingMessage: SamplingMessageSchema = SamplingMessage_
/** A message issued to or received from an LLM API. */
export interface SamplingMessage extends Schema.Schema.Type<typeof SamplingMessage> {}

const CreateMessageRequestParams_ = Schema.Struct({
  messages: Schema.Array(SamplingMessage),
  modelPreferences: optional(McpSchema.ModelPreferences),
  systemPrompt: optional(Schema.String),
  includeContext: optional(Schema.Literal("allServers", "none", "thisServer")),
  temperature: optional(Schema.Number),
  maxTokens: Schema.Int,
  stopSequences: optional(Schema.Array(Schema.String)),
  metadata: optional(JsonObject),
  tools: optional(Schema.Array(Tool)),
  toolChoice: optional(McpSchema.ToolChoice)
})
/** The schema type of {@link CreateMessageRequestParams} (a named interface keeps declaration output small). */
export interface CreateMessageRequestParamsSchema extends Schema.Struct<typeof CreateMessageRequestParams_.fields> {}
/** Params of a `sampling/createMessage` input request (no `_meta`, no `task`). */
export const CreateMessageRequestParams: CreateMessageRequestParamsSchema = CreateMessageRequestParams_
/** Params of a `sampling/createMessage` input request. */
export interface CreateMessageRequestParams extends Schema.Schema.Type<typeof CreateMessageRequestParams> {}

const CreateMessageResult_ = Schema.Struct({
  ...SamplingMessage.fields,
  model: Schema.String,
  stopReason: optional(Schema.String)
})
/** The schema type of {@link CreateMessageResult} (a named interface keeps declaration output small). */
export interface CreateMessageResultSchema extends Schema.Struct<typeof CreateMessageResult_.fields> {}
/** The client's answer to a `sampling/createMessage` input request. */
export const CreateMessageResult: CreateMessageResultSchema = CreateMessageResult_
/** The client's answer to a `sampling/createMessage` input request. */
export interface CreateMessageResult extends Schema.Schema.Type<typeof CreateMessageResult> {}

const CreateMessageRequest_ = Schema.Struct({
  method: Schema.Literal("sampling/createMessage"),
  params: CreateMessageRequestParams
})
/** The schema type of {@link CreateMessageRequest} (a named interface keeps declaration output small). */
export interface CreateMessageRequestSchema extends Schema.Struct<typeof CreateMessageRequest_.fields> {}
/** An input request: sample the client's LLM. */
export const CreateMessageRequest: CreateMessageRequestSchema = CreateMessageRequest_
/** An input request: sample the client's LLM. */
export interface CreateMessageRequest extends Schema.Schema.Type<typeof CreateMessageRequest> {}

const ElicitRequestFormParams_ = Schema.Struct({
  mode: optional(Schema.Literal("form")),
  message: Schema.String,
  requestedSchema: McpSchema.ElicitRequestedSchema
})
/** The schema type of {@link ElicitRequestFormParams} (a named interface keeps declaration output small). */
export interface ElicitRequestFormParamsSchema extends Schema.Struct<typeof ElicitRequestFormParams_.fields> {}
/** Params of a form-mode elicitation. */
export const ElicitRequestFormParams: ElicitRequestFormParamsSchema = ElicitRequestFormParams_
/** Params of a form-mode elicitation. */
export interface ElicitRequestFormParams extends Schema.Schema.Type<typeof ElicitRequestFormParams> {}

/** Params of a URL-mode elicitation (no `elicitationId` in this revision). */
export const ElicitRequestURLParams = Schema.Struct({
  mode: Schema.Literal("url"),
  message: Schema.String,
  url: Schema.String
})
/** Params of a URL-mode elicitation. */
export interface ElicitRequestURLParams extends Schema.Schema.Type<typeof ElicitRequestURLParams> {}

/** Params of an `elicitation/create` input request. */
export const ElicitRequestParams = Schema.Union(ElicitRequestFormParams, ElicitRequestURLParams)
/** Params of an `elicitation/create` input request. */
export type ElicitRequestParams = typeof ElicitRequestParams.Type

const ElicitRequest_ = Schema.Struct({ method: Schema.Literal("elicitation/create"), params: ElicitRequestParams })
/** The schema type of {@link ElicitRequest} (a named interface keeps declaration output small). */
export interface ElicitRequestSchema extends Schema.Struct<typeof ElicitRequest_.fields> {}
/** An input request: ask the user, through the client. */
export const ElicitRequest: ElicitRequestSchema = ElicitRequest_
/** An input request: ask the user, through the client. */
export interface ElicitRequest extends Schema.Schema.Type<typeof ElicitRequest> {}

const ElicitResult_ = Schema.Struct({
  action: Schema.Literal("accept", "cancel", "decline"),
  content: optional(Schema.Record({
    key: Schema.String,
    value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String))
  }))
})
/** The schema type of {@link ElicitResult} (a named interface keeps declaration output small). */
export interface ElicitResultSchema extends Schema.Struct<typeof ElicitResult_.fields> {}
/** The client's answer to an elicitation (numbers may be fractional, as in `McpSchema.ElicitResult`). */
export const ElicitResult: ElicitResultSchema = ElicitResult_
/** The client's answer to an elicitation. */
export interface ElicitResult extends Schema.Schema.Type<typeof ElicitResult> {}

/** Params of a `roots/list` input request. */
export const ListRootsRequestParams = Schema.Struct({ _meta: optional(MetaObject) })
/** Params of a `roots/list` input request. */
export interface ListRootsRequestParams extends Schema.Schema.Type<typeof ListRootsRequestParams> {}

const ListRootsRequest_ = Schema.Struct({
  method: Schema.Literal("roots/list"),
  params: optional(ListRootsRequestParams)
})
/** The schema type of {@link ListRootsRequest} (a named interface keeps declaration output small). */
export interface ListRootsRequestSchema extends Schema.Struct<typeof ListRootsRequest_.fields> {}
/** An input request: list the client's roots. */
export const ListRootsRequest: ListRootsRequestSchema = ListRootsRequest_
/** An input request: list the client's roots. */
export interface ListRootsRequest extends Schema.Schema.Type<typeof ListRootsRequest> {}

/** The client's answer to a `roots/list` input request. */
export const ListRootsResult = Schema.Struct({ roots: Schema.Array(McpSchema.Root) })
/** The client's answer to a `roots/list` input request. */
export interface ListRootsResult extends Schema.Schema.Type<typeof ListRootsResult> {}

// -----------------------------------------------------------------------------
// Multi-round-trip requests
// -----------------------------------------------------------------------------

/** A request the server needs the client to fulfil before it can finish (sampling, roots, elicitation). */
export const InputRequest = Schema.Union(CreateMessageRequest, ListRootsRequest, ElicitRequest)
/** A request the server needs the client to fulfil. */
export type InputRequest = typeof InputRequest.Type

/** Input requests keyed by server-assigned names. */
export const InputRequests = Schema.Record({ key: Schema.String, value: InputRequest })
/** Input requests keyed by server-assigned names. */
export type InputRequests = typeof InputRequests.Type

/** The client's result for one input request. */
export const InputResponse = Schema.Union(CreateMessageResult, ListRootsResult, ElicitResult)
/** The client's result for one input request. */
export type InputResponse = typeof InputResponse.Type

/** Input responses keyed by the names of the {@link InputRequests} they answer. */
export const InputResponses = Schema.Record({ key: Schema.String, value: InputResponse })
/** Input responses keyed by the names of the input requests they answer. */
export type InputResponses = typeof InputResponses.Type

/** The MRTR fields of a retried request. */
const inputResponseFields = {
  _meta: RequestMetaObject,
  /** Answers to the previous round's `inputRequests`. */
  inputResponses: optional(InputResponses),
  /** The previous round's `requestState`, echoed exactly. */
  requestState: optional(Schema.String)
}

const InputResponseRequestParams_ = Schema.Struct(inputResponseFields)
/** The schema type of {@link InputResponseRequestParams} (a named interface keeps declaration output small). */
export interface InputResponseRequestParamsSchema extends Schema.Struct<typeof InputResponseRequestParams_.fields> {}
/** Params of a request that may answer a previous `InputRequiredResult`. */
export const InputResponseRequestParams: InputResponseRequestParamsSchema = InputResponseRequestParams_
/** Params of a request that may answer a previous `InputRequiredResult`. */
export interface InputResponseRequestParams extends Schema.Schema.Type<typeof InputResponseRequestParams> {}

const InputRequiredResultStruct_ = Schema.Struct({
  _meta: optional(ResultMetaObject),
  resultType: Schema.Literal(RESULT_TYPE_INPUT_REQUIRED),
  inputRequests: optional(InputRequests),
  requestState: optional(Schema.String)
})
/** The fields of an {@link InputRequiredResult} (a named interface keeps declaration output small). */
export interface InputRequiredResultStructSchema extends Schema.Struct<typeof InputRequiredResultStruct_.fields> {}
const InputRequiredResultStruct: InputRequiredResultStructSchema = InputRequiredResultStruct_
/** The schema type of {@link InputRequiredResult}. */
export interface InputRequiredResultSchema extends Schema.filter<InputRequiredResultStructSchema> {}

/**
 * The server needs input before it can finish: the client fulfils `inputRequests` and retries the
 * request (new id) with `inputResponses` and the exact `requestState`. At least one of the two is
 * present (the JSON Schema does not say so; the spec text does).
 */
export const InputRequiredResult: InputRequiredResultSchema = InputRequiredResultStruct.pipe(
  Schema.filter((r) => r.inputRequests !== undefined || r.requestState !== undefined, {
    message: () => "An InputRequiredResult needs inputRequests or requestState"
  })
)
/** The server needs input before it can finish. */
export type InputRequiredResult = typeof InputRequiredResult.Type

// -----------------------------------------------------------------------------
// Discovery, resources, prompts, tools, completion
// -----------------------------------------------------------------------------

const DiscoverResult_ = Schema.Struct({
  ...completeFields,
  ...cacheFields,
  /** Protocol versions the server supports. */
  supportedVersions: Schema.Array(Schema.String),
  capabilities: ServerCapabilities,
  instructions: optional(Schema.String)
})
/** The schema type of {@link DiscoverResult} (a named interface keeps declaration output small). */
export interface DiscoverResultSchema extends Schema.Struct<typeof DiscoverResult_.fields> {}
/** The server's answer to `server/discover`. */
export const DiscoverResult: DiscoverResultSchema = DiscoverResult_
/** The server's answer to `server/discover`. */
export interface DiscoverResult extends Schema.Schema.Type<typeof DiscoverResult> {}

/** Common params of requests about a resource. */
export const ResourceRequestParams = Schema.Struct({ _meta: RequestMetaObject, uri: Schema.String })
/** Common params of requests about a resource. */
export interface ResourceRequestParams extends Schema.Schema.Type<typeof ResourceRequestParams> {}

const ReadResourceRequestParams_ = Schema.Struct({ ...inputResponseFields, uri: Schema.String })
/** The schema type of {@link ReadResourceRequestParams} (a named interface keeps declaration output small). */
export interface ReadResourceRequestParamsSchema extends Schema.Struct<typeof ReadResourceRequestParams_.fields> {}
/** Params of `resources/read`. */
export const ReadResourceRequestParams: ReadResourceRequestParamsSchema = ReadResourceRequestParams_
/** Params of `resources/read`. */
export interface ReadResourceRequestParams extends Schema.Schema.Type<typeof ReadResourceRequestParams> {}

/** The server's answer to `resources/list`. */
export const ListResourcesResult = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  resources: Schema.Array(McpSchema.Resource)
})
/** The server's answer to `resources/list`. */
export interface ListResourcesResult extends Schema.Schema.Type<typeof ListResourcesResult> {}

/** The server's answer to `resources/templates/list`. */
export const ListResourceTemplatesResult = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  resourceTemplates: Schema.Array(McpSchema.ResourceTemplate)
})
/** The server's answer to `resources/templates/list`. */
export interface ListResourceTemplatesResult extends Schema.Schema.Type<typeof ListResourceTemplatesResult> {}

const ReadResourceResult_ = Schema.Struct({
  ...completeFields,
  ...cacheFields,
  contents: Schema.Array(Schema.Union(McpSchema.TextResourceContents, McpSchema.BlobResourceContents))
})
/** The schema type of {@link ReadResourceResult} (a named interface keeps declaration output small). */
export interface ReadResourceResultSchema extends Schema.Struct<typeof ReadResourceResult_.fields> {}
/** The server's answer to `resources/read`. */
export const ReadResourceResult: ReadResourceResultSchema = ReadResourceResult_
/** The server's answer to `resources/read`. */
export interface ReadResourceResult extends Schema.Schema.Type<typeof ReadResourceResult> {}

/** Params of `notifications/resources/updated`. */
export const ResourceUpdatedNotificationParams = Schema.Struct({
  _meta: optional(NotificationMetaObject),
  uri: Schema.String
})
/** Params of `notifications/resources/updated`. */
export interface ResourceUpdatedNotificationParams extends Schema.Schema.Type<typeof ResourceUpdatedNotificationParams> {}

/** The server's answer to `prompts/list`. */
export const ListPromptsResult = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  prompts: Schema.Array(McpSchema.Prompt)
})
/** The server's answer to `prompts/list`. */
export interface ListPromptsResult extends Schema.Schema.Type<typeof ListPromptsResult> {}

const GetPromptRequestParams_ = Schema.Struct({
  ...inputResponseFields,
  name: Schema.String,
  arguments: optional(StringRecord)
})
/** The schema type of {@link GetPromptRequestParams} (a named interface keeps declaration output small). */
export interface GetPromptRequestParamsSchema extends Schema.Struct<typeof GetPromptRequestParams_.fields> {}
/** Params of `prompts/get`. */
export const GetPromptRequestParams: GetPromptRequestParamsSchema = GetPromptRequestParams_
/** Params of `prompts/get`. */
export interface GetPromptRequestParams extends Schema.Schema.Type<typeof GetPromptRequestParams> {}

const GetPromptResult_ = Schema.Struct({
  ...completeFields,
  description: optional(Schema.String),
  messages: Schema.Array(McpSchema.PromptMessage)
})
/** The schema type of {@link GetPromptResult} (a named interface keeps declaration output small). */
export interface GetPromptResultSchema extends Schema.Struct<typeof GetPromptResult_.fields> {}
/** The server's answer to `prompts/get`. */
export const GetPromptResult: GetPromptResultSchema = GetPromptResult_
/** The server's answer to `prompts/get`. */
export interface GetPromptResult extends Schema.Schema.Type<typeof GetPromptResult> {}

const ListToolsResult_ = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  tools: Schema.Array(Tool)
})
/** The schema type of {@link ListToolsResult} (a named interface keeps declaration output small). */
export interface ListToolsResultSchema extends Schema.Struct<typeof ListToolsResult_.fields> {}
/** The server's answer to `tools/list`. */
export const ListToolsResult: ListToolsResultSchema = ListToolsResult_
/** The server's answer to `tools/list`. */
export interface ListToolsResult extends Schema.Schema.Type<typeof ListToolsResult> {}

const CallToolRequestParams_ = Schema.Struct({
  ...inputResponseFields,
  name: Schema.String,
  arguments: optional(JsonObject)
})
/** The schema type of {@link CallToolRequestParams} (a named interface keeps declaration output small). */
export interface CallToolRequestParamsSchema extends Schema.Struct<typeof CallToolRequestParams_.fields> {}
/** Params of `tools/call`. */
export const CallToolRequestParams: CallToolRequestParamsSchema = CallToolRequestParams_
/** Params of `tools/call`. */
export interface CallToolRequestParams extends Schema.Schema.Type<typeof CallToolRequestParams> {}

const CallToolResult_ = Schema.Struct({
  ...completeFields,
  content: Schema.Array(McpSchema.ContentBlock),
  structuredContent: optional(JSONValue),
  isError: optional(Schema.Boolean)
})
/** The schema type of {@link CallToolResult} (a named interface keeps declaration output small). */
export interface CallToolResultSchema extends Schema.Struct<typeof CallToolResult_.fields> {}
/** The server's answer to `tools/call` (`structuredContent` is any JSON value). */
export const CallToolResult: CallToolResultSchema = CallToolResult_
/** The server's answer to `tools/call`. */
export interface CallToolResult extends Schema.Schema.Type<typeof CallToolResult> {}

const CompleteRequestParams_ = Schema.Struct({ ...McpSchema.CompleteRequestParams.fields, _meta: RequestMetaObject })
/** The schema type of {@link CompleteRequestParams} (a named interface keeps declaration output small). */
export interface CompleteRequestParamsSchema extends Schema.Struct<typeof CompleteRequestParams_.fields> {}
/** Params of `completion/complete`. */
export const CompleteRequestParams: CompleteRequestParamsSchema = CompleteRequestParams_
/** Params of `completion/complete`. */
export interface CompleteRequestParams extends Schema.Schema.Type<typeof CompleteRequestParams> {}

/** The server's answer to `completion/complete` (at most 100 values). */
export const CompleteResult = Schema.Struct({
  ...completeFields,
  completion: Schema.Struct({
    values: Schema.Array(Schema.String).pipe(Schema.maxItems(100)),
    total: optional(Schema.Int),
    hasMore: optional(Schema.Boolean)
  })
})
/** The server's answer to `completion/complete`. */
export interface CompleteResult extends Schema.Schema.Type<typeof CompleteResult> {}

// -----------------------------------------------------------------------------
// Subscriptions & notification params
// -----------------------------------------------------------------------------

/** The notifications a client opts in to on a `subscriptions/listen` stream. */
export const SubscriptionFilter = Schema.Struct({
  toolsListChanged: optional(Schema.Boolean),
  promptsListChanged: optional(Schema.Boolean),
  resourcesListChanged: optional(Schema.Boolean),
  /** `notifications/resources/updated` for these URIs (replaces `resources/subscribe`). */
  resourceSubscriptions: optional(Schema.Array(Schema.String))
})
/** The notifications a client opts in to on a `subscriptions/listen` stream. */
export interface SubscriptionFilter extends Schema.Schema.Type<typeof SubscriptionFilter> {}

const SubscriptionsListenRequestParams_ = Schema.Struct({ _meta: RequestMetaObject, notifications: SubscriptionFilter })
/** The schema type of {@link SubscriptionsListenRequestParams} (a named interface keeps declaration output small). */
export interface SubscriptionsListenRequestParamsSchema extends Schema.Struct<typeof SubscriptionsListenRequestParams_.fields> {}
/** Params of `subscriptions/listen`. */
export const SubscriptionsListenRequestParams: SubscriptionsListenRequestParamsSchema = SubscriptionsListenRequestParams_
/** Params of `subscriptions/listen`. */
export interface SubscriptionsListenRequestParams extends Schema.Schema.Type<typeof SubscriptionsListenRequestParams> {}

/** The result that ends a listen stream gracefully (e.g. on shutdown). */
export const SubscriptionsListenResult = Schema.Struct({
  _meta: SubscriptionsListenResultMetaObject,
  resultType: Schema.Literal(RESULT_TYPE_COMPLETE)
})
/** The result that ends a listen stream gracefully. */
export interface SubscriptionsListenResult extends Schema.Schema.Type<typeof SubscriptionsListenResult> {}

/** Params of `notifications/subscriptions/acknowledged`: the subset of the filter the server honours. */
export const SubscriptionsAcknowledgedNotificationParams = Schema.Struct({
  _meta: optional(NotificationMetaObject),
  notifications: SubscriptionFilter
})
/** Params of `notifications/subscriptions/acknowledged`. */
export interface SubscriptionsAcknowledgedNotificationParams
  extends Schema.Schema.Type<typeof SubscriptionsAcknowledgedNotificationParams>
{}

/** Params of `notifications/cancelled` (`requestId` is required in this revision). */
export const CancelledNotificationParams = Schema.Struct({
  _meta: optional(NotificationMetaObject),
  requestId: RequestId,
  reason: optional(Schema.String)
})
/** Params of `notifications/cancelled`. */
export interface CancelledNotificationParams extends Schema.Schema.Type<typeof CancelledNotificationParams> {}

/** Params of `notifications/progress`. */
export const ProgressNotificationParams = Schema.Struct({
  ...McpSchema.ProgressNotificationParams.fields,
  _meta: optional(NotificationMetaObject)
})
/** Params of `notifications/progress`. */
export interface ProgressNotificationParams extends Schema.Schema.Type<typeof ProgressNotificationParams> {}

/** Params of `notifications/message`. */
export const LoggingMessageNotificationParams = Schema.Struct({
  ...McpSchema.LoggingMessageNotificationParams.fields,
  _meta: optional(NotificationMetaObject)
})
/** Params of `notifications/message`. */
export interface LoggingMessageNotificationParams extends Schema.Schema.Type<typeof LoggingMessageNotificationParams> {}

// -----------------------------------------------------------------------------
// Requests & notifications (with their JSON-RPC envelope)
// -----------------------------------------------------------------------------

const jsonRpcRequest = <M extends string, P extends Schema.Schema.Any>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema.Literal(method), params })

const jsonRpcNotification = <M extends string, P extends Schema.Schema.Any>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params })

const jsonRpcNotificationOptionalParams = <M extends string, P extends Schema.Schema.Any>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params: optional(params) })

/** A paginated request (any method; `params` with the envelope is required). */
export const PaginatedRequest = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema.String,
  params: PaginatedRequestParams
})
/** A paginated request. */
export interface PaginatedRequest extends Schema.Schema.Type<typeof PaginatedRequest> {}

/** Asks the server for its versions, capabilities and instructions (servers must implement it). */
export const DiscoverRequest = jsonRpcRequest("server/discover", RequestParams)
/** Asks the server for its versions, capabilities and instructions. */
export interface DiscoverRequest extends Schema.Schema.Type<typeof DiscoverRequest> {}

/** Lists the server's resources. */
export const ListResourcesRequest = jsonRpcRequest("resources/list", PaginatedRequestParams)
/** Lists the server's resources. */
export interface ListResourcesRequest extends Schema.Schema.Type<typeof ListResourcesRequest> {}

/** Lists the server's resource templates. */
export const ListResourceTemplatesRequest = jsonRpcRequest("resources/templates/list", PaginatedRequestParams)
/** Lists the server's resource templates. */
export interface ListResourceTemplatesRequest extends Schema.Schema.Type<typeof ListResourceTemplatesRequest> {}

/** Reads a resource. */
export const ReadResourceRequest = jsonRpcRequest("resources/read", ReadResourceRequestParams)
/** Reads a resource. */
export interface ReadResourceRequest extends Schema.Schema.Type<typeof ReadResourceRequest> {}

/** Opens a long-lived notification stream (replaces the GET stream and `resources/subscribe`). */
export const SubscriptionsListenRequest = jsonRpcRequest("subscriptions/listen", SubscriptionsListenRequestParams)
/** Opens a long-lived notification stream. */
export interface SubscriptionsListenRequest extends Schema.Schema.Type<typeof SubscriptionsListenRequest> {}

/** Lists the server's prompts. */
export const ListPromptsRequest = jsonRpcRequest("prompts/list", PaginatedRequestParams)
/** Lists the server's prompts. */
export interface ListPromptsRequest extends Schema.Schema.Type<typeof ListPromptsRequest> {}

/** Gets a prompt. */
export const GetPromptRequest = jsonRpcRequest("prompts/get", GetPromptRequestParams)
/** Gets a prompt. */
export interface GetPromptRequest extends Schema.Schema.Type<typeof GetPromptRequest> {}

/** Lists the server's tools. */
export const ListToolsRequest = jsonRpcRequest("tools/list", PaginatedRequestParams)
/** Lists the server's tools. */
export interface ListToolsRequest extends Schema.Schema.Type<typeof ListToolsRequest> {}

/** Calls a tool. */
export const CallToolRequest = jsonRpcRequest("tools/call", CallToolRequestParams)
/** Calls a tool. */
export interface CallToolRequest extends Schema.Schema.Type<typeof CallToolRequest> {}

/** Asks for completion options. */
export const CompleteRequest = jsonRpcRequest("completion/complete", CompleteRequestParams)
/** Asks for completion options. */
export interface CompleteRequest extends Schema.Schema.Type<typeof CompleteRequest> {}

/** Cancels a request (client → server; on stdio the server also sends it to end a listen stream). */
export const CancelledNotification = jsonRpcNotification("notifications/cancelled", CancelledNotificationParams)
/** Cancels a request. */
export interface CancelledNotification extends Schema.Schema.Type<typeof CancelledNotification> {}

/** Progress of a long-running request. */
export const ProgressNotification = jsonRpcNotification("notifications/progress", ProgressNotificationParams)
/** Progress of a long-running request. */
export interface ProgressNotification extends Schema.Schema.Type<typeof ProgressNotification> {}

/** The resource list changed. */
export const ResourceListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/resources/list_changed",
  NotificationParams
)
/** The resource list changed. */
export interface ResourceListChangedNotification extends Schema.Schema.Type<typeof ResourceListChangedNotification> {}

/** A subscribed resource changed. */
export const ResourceUpdatedNotification = jsonRpcNotification(
  "notifications/resources/updated",
  ResourceUpdatedNotificationParams
)
/** A subscribed resource changed. */
export interface ResourceUpdatedNotification extends Schema.Schema.Type<typeof ResourceUpdatedNotification> {}

/** The prompt list changed. */
export const PromptListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/prompts/list_changed",
  NotificationParams
)
/** The prompt list changed. */
export interface PromptListChangedNotification extends Schema.Schema.Type<typeof PromptListChangedNotification> {}

/** The tool list changed. */
export const ToolListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/tools/list_changed",
  NotificationParams
)
/** The tool list changed. */
export interface ToolListChangedNotification extends Schema.Schema.Type<typeof ToolListChangedNotification> {}

/** The first frame of a listen stream: which notification types the server will send on it. */
export const SubscriptionsAcknowledgedNotification = jsonRpcNotification(
  "notifications/subscriptions/acknowledged",
  SubscriptionsAcknowledgedNotificationParams
)
/** The first frame of a listen stream. */
export interface SubscriptionsAcknowledgedNotification
  extends Schema.Schema.Type<typeof SubscriptionsAcknowledgedNotification>
{}

/** A log message (only at or above the request's `_meta` log level). */
export const LoggingMessageNotification = jsonRpcNotification("notifications/message", LoggingMessageNotificationParams)
/** A log message. */
export interface LoggingMessageNotification extends Schema.Schema.Type<typeof LoggingMessageNotification> {}

// -----------------------------------------------------------------------------
// Message unions & JSON-RPC responses
// -----------------------------------------------------------------------------

/** Any request a client sends to a server. */
export const ClientRequest = Schema.Union(
  DiscoverRequest,
  ListResourcesRequest,
  ListResourceTemplatesRequest,
  ReadResourceRequest,
  SubscriptionsListenRequest,
  ListPromptsRequest,
  GetPromptRequest,
  ListToolsRequest,
  CallToolRequest,
  CompleteRequest
)
/** Any request a client sends to a server. */
export type ClientRequest = typeof ClientRequest.Type

/** Any notification a client sends to a server: only `notifications/cancelled`. */
export const ClientNotification = CancelledNotification
/** Any notification a client sends to a server. */
export type ClientNotification = CancelledNotification

/** Any result a client sends to a server (none are sent in this revision; kept for the spec). */
export const ClientResult = Result
/** Any result a client sends to a server. */
export type ClientResult = Result

/** Any notification a server sends to a client. */
export const ServerNotification = Schema.Union(
  CancelledNotification,
  ProgressNotification,
  ResourceListChangedNotification,
  SubscriptionsAcknowledgedNotification,
  ResourceUpdatedNotification,
  PromptListChangedNotification,
  ToolListChangedNotification,
  LoggingMessageNotification
)
/** Any notification a server sends to a client. */
export type ServerNotification = typeof ServerNotification.Type

/** Any result a server sends; `Result` first keeps every key (decode by method for precision). */
export const ServerResult = Schema.Union(
  Result,
  InputRequiredResult,
  DiscoverResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  SubscriptionsListenResult,
  ListPromptsResult,
  GetPromptResult,
  ListToolsResult,
  CallToolResult,
  CompleteResult
)
/** Any result a server sends. */
export type ServerResult = typeof ServerResult.Type

/** A successful JSON-RPC response (its result has a `resultType`). */
export const JSONRPCResultResponse = Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, result: Result })
/** A successful JSON-RPC response. */
export interface JSONRPCResultResponse extends Schema.Schema.Type<typeof JSONRPCResultResponse> {}

/** A JSON-RPC response: a result or an error. */
export const JSONRPCResponse = Schema.Union(JSONRPCResultResponse, McpSchema.JSONRPCErrorResponse)
/** A JSON-RPC response. */
export type JSONRPCResponse = typeof JSONRPCResponse.Type

/** Any JSON-RPC message. */
export const JSONRPCMessage = Schema.Union(
  McpSchema.JSONRPCRequest,
  McpSchema.JSONRPCNotification,
  JSONRPCResultResponse,
  McpSchema.JSONRPCErrorResponse
)
/** Any JSON-RPC message. */
export type JSONRPCMessage = typeof JSONRPCMessage.Type

/** What `tools/call` answers: an {@link InputRequiredResult} or a {@link CallToolResult}. */
export const CallToolOutcome = Schema.Union(InputRequiredResult, CallToolResult)
/** What `tools/call` answers. */
export type CallToolOutcome = typeof CallToolOutcome.Type

/** What `prompts/get` answers: an {@link InputRequiredResult} or a {@link GetPromptResult}. */
export const GetPromptOutcome = Schema.Union(InputRequiredResult, GetPromptResult)
/** What `prompts/get` answers. */
export type GetPromptOutcome = typeof GetPromptOutcome.Type

/** What `resources/read` answers: an {@link InputRequiredResult} or a {@link ReadResourceResult}. */
export const ReadResourceOutcome = Schema.Union(InputRequiredResult, ReadResourceResult)
/** What `resources/read` answers. */
export type ReadResourceOutcome = typeof ReadResourceOutcome.Type

const jsonRpcResult = <R extends Schema.Schema.Any>(result: R) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, result })

/** A successful response to `server/discover`. */
export const DiscoverResultResponse = jsonRpcResult(DiscoverResult)
/** A successful response to `server/discover`. */
export interface DiscoverResultResponse extends Schema.Schema.Type<typeof DiscoverResultResponse> {}
/** A successful response to `resources/list`. */
export const ListResourcesResultResponse = jsonRpcResult(ListResourcesResult)
/** A successful response to `resources/list`. */
export interface ListResourcesResultResponse extends Schema.Schema.Type<typeof ListResourcesResultResponse> {}
/** A successful response to `resources/templates/list`. */
export const ListResourceTemplatesResultResponse = jsonRpcResult(ListResourceTemplatesResult)
/** A successful response to `resources/templates/list`. */
export interface ListResourceTemplatesResultResponse
  extends Schema.Schema.Type<typeof ListResourceTemplatesResultResponse>
{}
/** A successful response to `resources/read`. */
export const ReadResourceResultResponse = jsonRpcResult(ReadResourceOutcome)
/** A successful response to `resources/read`. */
export interface ReadResourceResultResponse extends Schema.Schema.Type<typeof ReadResourceResultResponse> {}
/** The response that ends a listen stream gracefully. */
export const SubscriptionsListenResultResponse = jsonRpcResult(SubscriptionsListenResult)
/** The response that ends a listen stream gracefully. */
export interface SubscriptionsListenResultResponse extends Schema.Schema.Type<typeof SubscriptionsListenResultResponse> {}
/** A successful response to `prompts/list`. */
export const ListPromptsResultResponse = jsonRpcResult(ListPromptsResult)
/** A successful response to `prompts/list`. */
export interface ListPromptsResultResponse extends Schema.Schema.Type<typeof ListPromptsResultResponse> {}
/** A successful response to `prompts/get`. */
export const GetPromptResultResponse = jsonRpcResult(GetPromptOutcome)
/** A successful response to `prompts/get`. */
export interface GetPromptResultResponse extends Schema.Schema.Type<typeof GetPromptResultResponse> {}
/** A successful response to `tools/list`. */
export const ListToolsResultResponse = jsonRpcResult(ListToolsResult)
/** A successful response to `tools/list`. */
export interface ListToolsResultResponse extends Schema.Schema.Type<typeof ListToolsResultResponse> {}
/** A successful response to `tools/call`. */
export const CallToolResultResponse = jsonRpcResult(CallToolOutcome)
/** A successful response to `tools/call`. */
export interface CallToolResultResponse extends Schema.Schema.Type<typeof CallToolResultResponse> {}
/** A successful response to `completion/complete`. */
export const CompleteResultResponse = jsonRpcResult(CompleteResult)
/** A successful response to `completion/complete`. */
export interface CompleteResultResponse extends Schema.Schema.Type<typeof CompleteResultResponse> {}

// -----------------------------------------------------------------------------
// Errors
// -----------------------------------------------------------------------------

const errorObject = <C extends number, D extends Schema.Struct.Field>(code: C, data: D) =>
  Schema.Struct({ code: Schema.Literal(code), message: Schema.String, data })

const errorResponse = <E extends Schema.Schema.Any>(error: E) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: optional(RequestId), error })

const anyData = optional(Schema.Unknown)

/** JSON-RPC −32700: invalid JSON. */
export const ParseError = errorObject(-32700, anyData)
/** JSON-RPC −32700: invalid JSON. */
export interface ParseError extends Schema.Schema.Type<typeof ParseError> {}
/** JSON-RPC −32600: not a valid request object. */
export const InvalidRequestError = errorObject(-32600, anyData)
/** JSON-RPC −32600: not a valid request object. */
export interface InvalidRequestError extends Schema.Schema.Type<typeof InvalidRequestError> {}
/** JSON-RPC −32601: unknown or removed method (HTTP 404 on the 2026 path). */
export const MethodNotFoundError = errorObject(-32601, anyData)
/** JSON-RPC −32601: unknown or removed method. */
export interface MethodNotFoundError extends Schema.Schema.Type<typeof MethodNotFoundError> {}
/** JSON-RPC −32602: invalid params (also a bad envelope, a bad `requestState`, a missing resource). */
export const InvalidParamsError = errorObject(-32602, anyData)
/** JSON-RPC −32602: invalid params. */
export interface InvalidParamsError extends Schema.Schema.Type<typeof InvalidParamsError> {}
/** JSON-RPC −32603: internal error. */
export const InternalError = errorObject(-32603, anyData)
/** JSON-RPC −32603: internal error. */
export interface InternalError extends Schema.Schema.Type<typeof InternalError> {}

/** The `error` of a {@link HeaderMismatchError}. */
export const HeaderMismatchErrorObject = errorObject(HEADER_MISMATCH, anyData)
/** The `error` of a {@link HeaderMismatchError}. */
export interface HeaderMismatchErrorObject extends Schema.Schema.Type<typeof HeaderMismatchErrorObject> {}
/** −32020: headers missing, malformed, or not matching the body (HTTP 400). */
export const HeaderMismatchError = errorResponse(HeaderMismatchErrorObject)
/** −32020: headers missing, malformed, or not matching the body. */
export interface HeaderMismatchError extends Schema.Schema.Type<typeof HeaderMismatchError> {}

/** The `error` of a {@link MissingRequiredClientCapabilityError}. */
export const MissingRequiredClientCapabilityErrorObject = errorObject(
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  Schema.Struct({ requiredCapabilities: ClientCapabilities }, JsonObject)
)
/** The `error` of a {@link MissingRequiredClientCapabilityError}. */
export interface MissingRequiredClientCapabilityErrorObject
  extends Schema.Schema.Type<typeof MissingRequiredClientCapabilityErrorObject>
{}
/** −32021: the request needs client capabilities it did not declare (`data.requiredCapabilities`). */
export const MissingRequiredClientCapabilityError = errorResponse(MissingRequiredClientCapabilityErrorObject)
/** −32021: the request needs client capabilities it did not declare. */
export interface MissingRequiredClientCapabilityError
  extends Schema.Schema.Type<typeof MissingRequiredClientCapabilityError>
{}

/** The `error` of an {@link UnsupportedProtocolVersionError}. */
export const UnsupportedProtocolVersionErrorObject = errorObject(
  UNSUPPORTED_PROTOCOL_VERSION,
  Schema.Struct({ supported: Schema.Array(Schema.String), requested: Schema.String }, JsonObject)
)
/** The `error` of an {@link UnsupportedProtocolVersionError}. */
export interface UnsupportedProtocolVersionErrorObject
  extends Schema.Schema.Type<typeof UnsupportedProtocolVersionErrorObject>
{}
/** −32022: the requested version is not supported; `data.supported` lists what is (HTTP 400). */
export const UnsupportedProtocolVersionError = errorResponse(UnsupportedProtocolVersionErrorObject)
/** −32022: the requested version is not supported. */
export interface UnsupportedProtocolVersionError extends Schema.Schema.Type<typeof UnsupportedProtocolVersionError> {}

// -----------------------------------------------------------------------------
// Method tables
// -----------------------------------------------------------------------------

/**
 * Requests a client sends to a server: method -> `{ params, result }`, `result` being what the
 * wire carries (for {@link INPUT_REQUIRED_METHODS}, the union with {@link InputRequiredResult}).
 * @since 0.2.0
 * @category method tables
 * @example
 * import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
 * import * as Schema from "effect/Schema"
 * const outcome = Schema.decodeUnknownSync(McpSchema2026.ClientRequests["tools/call"].result)(
 *   { resultType: "complete", content: [] }
 * )
 */
export const ClientRequests = {
  "server/discover": { params: RequestParams, result: DiscoverResult },
  "resources/list": { params: PaginatedRequestParams, result: ListResourcesResult },
  "resources/templates/list": { params: PaginatedRequestParams, result: ListResourceTemplatesResult },
  "resources/read": { params: ReadResourceRequestParams, result: ReadResourceOutcome },
  "subscriptions/listen": { params: SubscriptionsListenRequestParams, result: SubscriptionsListenResult },
  "prompts/list": { params: PaginatedRequestParams, result: ListPromptsResult },
  "prompts/get": { params: GetPromptRequestParams, result: GetPromptOutcome },
  "tools/list": { params: PaginatedRequestParams, result: ListToolsResult },
  "tools/call": { params: CallToolRequestParams, result: CallToolOutcome },
  "completion/complete": { params: CompleteRequestParams, result: CompleteResult }
} as const satisfies McpSchema.RequestMethodTable

/** The only methods that may answer an {@link InputRequiredResult} (and accept `inputResponses`). */
export const INPUT_REQUIRED_METHODS = ["tools/call", "prompts/get", "resources/read"] as const satisfies ReadonlyArray<
  ClientRequestMethod
>

/**
 * The requests a server may put in `inputRequests`: method -> `{ params, result }` (the result is
 * what the client puts in `inputResponses`). They replace 2025's server-to-client requests.
 * @since 0.2.0
 * @category method tables
 */
export const InputRequestMethods = {
  "sampling/createMessage": { params: CreateMessageRequestParams, result: CreateMessageResult },
  "roots/list": { params: Schema.UndefinedOr(ListRootsRequestParams), result: ListRootsResult },
  "elicitation/create": { params: ElicitRequestParams, result: ElicitResult }
} as const satisfies McpSchema.RequestMethodTable

/** Notifications a client sends to a server. */
export const ClientNotifications = {
  "notifications/cancelled": { params: CancelledNotificationParams }
} as const satisfies McpSchema.NotificationMethodTable

const OptionalNotificationParams = Schema.UndefinedOr(NotificationParams)

/** Notifications a server sends to a client. */
export const ServerNotifications = {
  "notifications/cancelled": { params: CancelledNotificationParams },
  "notifications/progress": { params: ProgressNotificationParams },
  "notifications/message": { params: LoggingMessageNotificationParams },
  "notifications/resources/updated": { params: ResourceUpdatedNotificationParams },
  "notifications/resources/list_changed": { params: OptionalNotificationParams },
  "notifications/tools/list_changed": { params: OptionalNotificationParams },
  "notifications/prompts/list_changed": { params: OptionalNotificationParams },
  "notifications/subscriptions/acknowledged": { params: SubscriptionsAcknowledgedNotificationParams }
} as const satisfies McpSchema.NotificationMethodTable

/** 2025-11-25 client requests that do not exist in this revision (answer −32601, HTTP 404). */
export const REMOVED_CLIENT_REQUEST_METHODS = [
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "tasks/get",
  "tasks/result",
  "tasks/cancel",
  "tasks/list"
] as const satisfies ReadonlyArray<McpSchema.ClientRequestMethod>

/** 2025-11-25 notifications (either direction) that do not exist in this revision. */
export const REMOVED_NOTIFICATION_METHODS = [
  "notifications/initialized",
  "notifications/roots/list_changed",
  "notifications/tasks/status",
  "notifications/elicitation/complete"
] as const satisfies ReadonlyArray<McpSchema.ClientNotificationMethod | McpSchema.ServerNotificationMethod>

/** A request method a client sends to a server. */
export type ClientRequestMethod = keyof typeof ClientRequests
/** The decoded params of client request `M`. */
export type ClientRequestParams<M extends ClientRequestMethod> = Schema.Schema.Type<typeof ClientRequests[M]["params"]>
/** The decoded result of client request `M` (including `InputRequiredResult` where it may answer). */
export type ClientRequestResult<M extends ClientRequestMethod> = Schema.Schema.Type<typeof ClientRequests[M]["result"]>
/** A method a server may ask for in `inputRequests`. */
export type InputRequestMethod = keyof typeof InputRequestMethods
/** A notification method a client sends to a server. */
export type ClientNotificationMethod = keyof typeof ClientNotifications
/** A notification method a server sends to a client. */
export type ServerNotificationMethod = keyof typeof ServerNotifications

const has = (table: object, method: string) => Object.prototype.hasOwnProperty.call(table, method)

/** Whether `method` is a request a client may send in this revision. */
export const isClientRequestMethod = (method: string): method is ClientRequestMethod => has(ClientRequests, method)
/** Whether `method` may be asked for in `inputRequests`. */
export const isInputRequestMethod = (method: string): method is InputRequestMethod => has(InputRequestMethods, method)
/** Whether `method` is a notification a client may send in this revision. */
export const isClientNotificationMethod = (method: string): method is ClientNotificationMethod =>
  has(ClientNotifications, method)
/** Whether `method` is a notification a server may send in this revision. */
export const isServerNotificationMethod = (method: string): method is ServerNotificationMethod =>
  has(ServerNotifications, method)
/** Whether `method` may answer an {@link InputRequiredResult}. */
export const isInputRequiredMethod = (method: string): method is typeof INPUT_REQUIRED_METHODS[number] =>
  (INPUT_REQUIRED_METHODS as ReadonlyArray<string>).includes(method)

/**
 * The `resultType` of a result as a client must read it: a missing one (a server of an earlier
 * revision) means `"complete"`.
 * @since 0.2.0
 * @category results
 * @example
 * import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
 * McpSchema2026.resultTypeOf({ content: [] }) // "complete"
 */
export const resultTypeOf = (result: { readonly resultType?: unknown }): string =>
  typeof result.resultType === "string" ? result.resultType : RESULT_TYPE_COMPLETE
