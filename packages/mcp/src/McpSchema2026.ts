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
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Implementation, JsonObject, RequestId } from "./McpSchema.js"
import * as McpSchema from "./McpSchema.js"
// the schemas the server engine validates (the envelope, `subscriptions/listen`, input requests and their
// answers) are defined in internal/schema2026/core, which a server loads instead of this module; they are
// re-exported here, the same values, with their documentation
import * as Core from "./internal/schema2026/core.js"

export {
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Annotations,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  AudioContent,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  BaseMetadata,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  BlobResourceContents,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  BooleanSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ContentBlock,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Cursor,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  EmbeddedResource,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  EnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Error,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Icon,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Icons,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ImageContent,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Implementation,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  JSONRPCErrorResponse,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  JSONRPCNotification,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  JSONRPCRequest,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  LegacyTitledEnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  LoggingLevel,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ModelHint,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ModelPreferences,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  MultiSelectEnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Notification,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  NumberSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  PrimitiveSchemaDefinition,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ProgressToken,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Prompt,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  PromptArgument,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  PromptMessage,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  PromptReference,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Request,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  RequestId,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Resource,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ResourceContents,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ResourceLink,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ResourceTemplate,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ResourceTemplateReference,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Role,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  Root,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  SingleSelectEnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  StringSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  TextContent,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  TextResourceContents,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  TitledMultiSelectEnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  TitledSingleSelectEnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ToolAnnotations,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ToolChoice,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  ToolUseContent,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  UntitledMultiSelectEnumSchema,
  /**
   * Unchanged since 2025-11-25: the same schema as in `McpSchema`.
   * @since 0.1.0
   * @category shared
   */
  UntitledSingleSelectEnumSchema
} from "./McpSchema.js"

// -----------------------------------------------------------------------------
// Protocol versions, `_meta` keys, result types & error codes
// -----------------------------------------------------------------------------

/**
 * The protocol revision implemented by this module.
 * @since 0.1.0
 * @category versions
 * @example
 * ```ts
 * import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
 * McpSchema2026.PROTOCOL_VERSION // "2026-07-28"
 * ```
 */
export const PROTOCOL_VERSION = Core.PROTOCOL_VERSION

/**
 * The stateless-era revisions this implementation speaks, newest first.
 * @since 0.1.0
 * @category versions
 */
export const SUPPORTED_PROTOCOL_VERSIONS = Core.SUPPORTED_PROTOCOL_VERSIONS

/**
 * `params._meta` key: the protocol version of this request (required; equals `MCP-Protocol-Version`).
 * @since 0.1.0
 * @category constants
 */
export const PROTOCOL_VERSION_META_KEY = Core.PROTOCOL_VERSION_META_KEY
/**
 * `params._meta` key: the client's capabilities for this request (required; `{}` = none).
 * @since 0.1.0
 * @category constants
 */
export const CLIENT_CAPABILITIES_META_KEY = Core.CLIENT_CAPABILITIES_META_KEY
/**
 * `params._meta` key: the client's `Implementation` (should be sent; display and logs only).
 * @since 0.1.0
 * @category constants
 */
export const CLIENT_INFO_META_KEY = Core.CLIENT_INFO_META_KEY
/**
 * `params._meta` key: the log level for this request (absent: no `notifications/message` at all).
 * @since 0.1.0
 * @category constants
 */
export const LOG_LEVEL_META_KEY = Core.LOG_LEVEL_META_KEY
/**
 * `result._meta` key: the server's `Implementation` (should be on every result).
 * @since 0.1.0
 * @category constants
 */
export const SERVER_INFO_META_KEY = Core.SERVER_INFO_META_KEY
/**
 * `_meta` key: the id of the `subscriptions/listen` request a notification (or its final result) belongs to.
 * @since 0.1.0
 * @category constants
 */
export const SUBSCRIPTION_ID_META_KEY = Core.SUBSCRIPTION_ID_META_KEY

/**
 * `resultType` of a finished request (also what a missing `resultType` means).
 * @since 0.1.0
 * @category constants
 */
export const RESULT_TYPE_COMPLETE = Core.RESULT_TYPE_COMPLETE
/**
 * `resultType` of an {@link InputRequiredResult}.
 * @since 0.1.0
 * @category constants
 */
export const RESULT_TYPE_INPUT_REQUIRED = Core.RESULT_TYPE_INPUT_REQUIRED

/**
 * Error code: HTTP headers missing, malformed or not matching the body (HTTP 400).
 * @since 0.1.0
 * @category constants
 */
export const HEADER_MISMATCH = Core.HEADER_MISMATCH
/**
 * Error code: the request needs a client capability the request did not declare (HTTP 400).
 * @since 0.1.0
 * @category constants
 */
export const MISSING_REQUIRED_CLIENT_CAPABILITY = Core.MISSING_REQUIRED_CLIENT_CAPABILITY
/**
 * Error code: unknown or unsupported protocol version, `data: { supported, requested }` (HTTP 400).
 * @since 0.1.0
 * @category constants
 */
export const UNSUPPORTED_PROTOCOL_VERSION = Core.UNSUPPORTED_PROTOCOL_VERSION

// -----------------------------------------------------------------------------
// Helpers & JSON
// -----------------------------------------------------------------------------

const optional = Core.optional
const JsonRpcVersion = Schema.Literal("2.0")
const StringRecord = Schema.Record(Schema.String, Schema.String)

/**
 * Any JSON value (never `undefined`); more lenient than the spec's (see the module note).
 * @since 0.1.0
 * @category models
 */
export const JSONValue = Core.JSONValue
/**
 * Any JSON value.
 * @since 0.1.0
 * @category models
 */
export type JSONValue = typeof JSONValue.Type

/**
 * A JSON object.
 * @since 0.1.0
 * @category models
 */
export const JSONObject = JsonObject
/**
 * A JSON object.
 * @since 0.1.0
 * @category models
 */
export type JSONObject = McpSchema.JsonObject

/**
 * A JSON array.
 * @since 0.1.0
 * @category models
 */
export const JSONArray = Schema.Array(JSONValue)
/**
 * A JSON array.
 * @since 0.1.0
 * @category models
 */
export type JSONArray = typeof JSONArray.Type

/**
 * The contents of a `_meta` field: an open object.
 * @since 0.1.0
 * @category models
 */
export const MetaObject = Core.MetaObject
/**
 * The contents of a `_meta` field.
 * @since 0.1.0
 * @category models
 */
export type MetaObject = McpSchema.Meta

// -----------------------------------------------------------------------------
// Capabilities
// -----------------------------------------------------------------------------

/** Named capability objects (`experimental`, `extensions`). */
const CapabilityMap = Core.CapabilityMap

const ClientCapabilities_ = Core.ClientCapabilities_
/**
 * The schema type of {@link ClientCapabilities} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ClientCapabilitiesSchema extends Schema.Struct<typeof ClientCapabilities_.fields> {}
/**
 * Capabilities a client declares, per request, in `_meta[".../clientCapabilities"]`.
 * @since 0.1.0
 * @category capabilities
 */
export const ClientCapabilities: ClientCapabilitiesSchema = Core.ClientCapabilities
/**
 * Capabilities a client declares, per request.
 * @since 0.1.0
 * @category capabilities
 */
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
/**
 * The schema type of {@link ServerCapabilities} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ServerCapabilitiesSchema extends Schema.Struct<typeof ServerCapabilities_.fields> {}
/**
 * Capabilities a server advertises in `server/discover`.
 * @since 0.1.0
 * @category capabilities
 */
export const ServerCapabilities: ServerCapabilitiesSchema = ServerCapabilities_
/**
 * Capabilities a server advertises in `server/discover`.
 * @since 0.1.0
 * @category capabilities
 */
export interface ServerCapabilities extends Schema.Schema.Type<typeof ServerCapabilities> {}

// -----------------------------------------------------------------------------
// `_meta` envelopes, params & results
// -----------------------------------------------------------------------------

const RequestMetaObject_ = Core.RequestMetaObject_
/**
 * The schema type of {@link RequestMetaObject} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface RequestMetaObjectSchema extends Schema.StructWithRest<typeof RequestMetaObject_.schema, typeof RequestMetaObject_.records> {}
/**
 * The `_meta` of every request: the per-request envelope (open; other keys survive).
 * @since 0.1.0
 * @category models
 */
export const RequestMetaObject: RequestMetaObjectSchema = Core.RequestMetaObject
/**
 * The `_meta` of every request: the per-request envelope.
 * @since 0.1.0
 * @category models
 */
export interface RequestMetaObject extends Schema.Schema.Type<typeof RequestMetaObject> {}

const ResultMetaObject_ = Schema.StructWithRest(Schema.Struct({ [SERVER_INFO_META_KEY]: optional(Implementation) }), [JsonObject])
/**
 * The schema type of {@link ResultMetaObject} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ResultMetaObjectSchema extends Schema.StructWithRest<typeof ResultMetaObject_.schema, typeof ResultMetaObject_.records> {}
/**
 * The `_meta` of results (open).
 * @since 0.1.0
 * @category models
 */
export const ResultMetaObject: ResultMetaObjectSchema = ResultMetaObject_
/**
 * The `_meta` of results.
 * @since 0.1.0
 * @category models
 */
export interface ResultMetaObject extends Schema.Schema.Type<typeof ResultMetaObject> {}

const NotificationMetaObject_ = Schema.StructWithRest(Schema.Struct({ [SUBSCRIPTION_ID_META_KEY]: optional(RequestId) }), [JsonObject])
/**
 * The schema type of {@link NotificationMetaObject} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface NotificationMetaObjectSchema extends Schema.StructWithRest<typeof NotificationMetaObject_.schema, typeof NotificationMetaObject_.records> {}
/**
 * The `_meta` of notifications (open): the subscription a notification was delivered on.
 * @since 0.1.0
 * @category models
 */
export const NotificationMetaObject: NotificationMetaObjectSchema = NotificationMetaObject_
/**
 * The `_meta` of notifications.
 * @since 0.1.0
 * @category models
 */
export interface NotificationMetaObject extends Schema.Schema.Type<typeof NotificationMetaObject> {}

const SubscriptionsListenResultMetaObject_ = Schema.StructWithRest(
  Schema.Struct({
    [SERVER_INFO_META_KEY]: optional(Implementation),
    [SUBSCRIPTION_ID_META_KEY]: RequestId
  }),
  [JsonObject]
)
/**
 * The schema type of {@link SubscriptionsListenResultMetaObject} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface SubscriptionsListenResultMetaObjectSchema extends Schema.StructWithRest<typeof SubscriptionsListenResultMetaObject_.schema, typeof SubscriptionsListenResultMetaObject_.records> {}
/**
 * The `_meta` of a {@link SubscriptionsListenResult}: names the subscription it closes.
 * @since 0.1.0
 * @category models
 */
export const SubscriptionsListenResultMetaObject: SubscriptionsListenResultMetaObjectSchema = SubscriptionsListenResultMetaObject_
/**
 * The `_meta` of a {@link SubscriptionsListenResult}.
 * @since 0.1.0
 * @category models
 */
export interface SubscriptionsListenResultMetaObject extends Schema.Schema.Type<typeof SubscriptionsListenResultMetaObject> {}

const RequestParams_ = Schema.Struct({ _meta: RequestMetaObject })
/**
 * The schema type of {@link RequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface RequestParamsSchema extends Schema.Struct<typeof RequestParams_.fields> {}
/**
 * Common params of any request: the envelope is required.
 * @since 0.1.0
 * @category requests
 */
export const RequestParams: RequestParamsSchema = RequestParams_
/**
 * Common params of any request.
 * @since 0.1.0
 * @category requests
 */
export interface RequestParams extends Schema.Schema.Type<typeof RequestParams> {}

/**
 * Common params of any notification.
 * @since 0.1.0
 * @category notifications
 */
export const NotificationParams = Schema.Struct({ _meta: optional(NotificationMetaObject) })
/**
 * Common params of any notification.
 * @since 0.1.0
 * @category notifications
 */
export interface NotificationParams extends Schema.Schema.Type<typeof NotificationParams> {}

/**
 * The type of a result: `"complete"` or `"input_required"` in this revision.
 * @since 0.1.0
 * @category models
 */
export const ResultType = Schema.String
/**
 * The type of a result.
 * @since 0.1.0
 * @category models
 */
export type ResultType = typeof ResultType.Type

const Result_ = Schema.StructWithRest(Schema.Struct({ _meta: optional(ResultMetaObject), resultType: ResultType }), [JsonObject])
/**
 * The schema type of {@link Result} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ResultSchema extends Schema.StructWithRest<typeof Result_.schema, typeof Result_.records> {}
/**
 * A result of any request: an open object with a `resultType` (unknown keys are preserved).
 * @since 0.1.0
 * @category results
 */
export const Result: ResultSchema = Result_
/**
 * A result of any request.
 * @since 0.1.0
 * @category results
 */
export interface Result extends Schema.Schema.Type<typeof Result> {}

/**
 * A response that indicates success but carries no data.
 * @since 0.1.0
 * @category results
 */
export const EmptyResult = Result
/**
 * A response that indicates success but carries no data.
 * @since 0.1.0
 * @category results
 */
export type EmptyResult = Result

/** The fields every finished (`"complete"`) result starts with. */
const completeFields = {
  _meta: optional(ResultMetaObject),
  resultType: Schema.Literal(RESULT_TYPE_COMPLETE)
}

/**
 * Who may reuse a cached result: `"public"` (anyone) or `"private"` (the same authorization context).
 * @since 0.1.0
 * @category models
 */
export const CacheScope = Core.CacheScope
/**
 * Who may reuse a cached result.
 * @since 0.1.0
 * @category models
 */
export type CacheScope = typeof CacheScope.Type

/** The caching hints of cacheable results. */
const cacheFields = {
  /** How long (ms) the client may cache the result; 0 = immediately stale. */
  ttlMs: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  cacheScope: CacheScope
}

/**
 * A result that carries caching hints.
 * @since 0.1.0
 * @category results
 */
export const CacheableResult = Schema.Struct({ ...completeFields, ...cacheFields })
/**
 * A result that carries caching hints.
 * @since 0.1.0
 * @category results
 */
export interface CacheableResult extends Schema.Schema.Type<typeof CacheableResult> {}

const PaginatedRequestParams_ = Schema.Struct({ _meta: RequestMetaObject, cursor: optional(McpSchema.Cursor) })
/**
 * The schema type of {@link PaginatedRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface PaginatedRequestParamsSchema extends Schema.Struct<typeof PaginatedRequestParams_.fields> {}
/**
 * Common params of paginated requests.
 * @since 0.1.0
 * @category requests
 */
export const PaginatedRequestParams: PaginatedRequestParamsSchema = PaginatedRequestParams_
/**
 * Common params of paginated requests.
 * @since 0.1.0
 * @category requests
 */
export interface PaginatedRequestParams extends Schema.Schema.Type<typeof PaginatedRequestParams> {}

/**
 * Common fields of paginated results.
 * @since 0.1.0
 * @category results
 */
export const PaginatedResult = Schema.Struct({ ...completeFields, nextCursor: optional(McpSchema.Cursor) })
/**
 * Common fields of paginated results.
 * @since 0.1.0
 * @category results
 */
export interface PaginatedResult extends Schema.Schema.Type<typeof PaginatedResult> {}

// -----------------------------------------------------------------------------
// Sampling, elicitation & roots (as input requests)
// -----------------------------------------------------------------------------

/** Tool input schema: any JSON Schema object whose root has `type: "object"`. */
/** Tool output schema: any JSON Schema object. */

const Tool_ = Core.Tool_
/**
 * The schema type of {@link Tool} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ToolSchema extends Schema.Struct<typeof Tool_.fields> {}
/**
 * Definition of a tool the client can call (any JSON Schema 2020-12 keyword survives decoding).
 * @since 0.1.0
 * @category models
 */
export const Tool: ToolSchema = Core.Tool
/**
 * Definition of a tool the client can call.
 * @since 0.1.0
 * @category models
 */
export interface Tool extends Schema.Schema.Type<typeof Tool> {}

const ToolResultContent_ = Core.ToolResultContent_
/**
 * The schema type of {@link ToolResultContent} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ToolResultContentSchema extends Schema.Struct<typeof ToolResultContent_.fields> {}
/**
 * The result of a tool use inside sampling; `structuredContent` is any JSON value.
 * @since 0.1.0
 * @category models
 */
export const ToolResultContent: ToolResultContentSchema = Core.ToolResultContent
/**
 * The result of a tool use inside sampling.
 * @since 0.1.0
 * @category models
 */
export interface ToolResultContent extends Schema.Schema.Type<typeof ToolResultContent> {}

/**
 * Content of sampling messages.
 * @since 0.1.0
 * @category models
 */
export const SamplingMessageContentBlock = Core.SamplingMessageContentBlock
/**
 * Content of sampling messages.
 * @since 0.1.0
 * @category models
 */
export type SamplingMessageContentBlock = typeof SamplingMessageContentBlock.Type


const SamplingMessage_ = Core.SamplingMessage_
/**
 * The schema type of {@link SamplingMessage} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface SamplingMessageSchema extends Schema.Struct<typeof SamplingMessage_.fields> {}
/**
 * A message issued to or received from an LLM API.
 * @since 0.1.0
 * @category models
 */
export const SamplingMessage: SamplingMessageSchema = Core.SamplingMessage
/**
 * A message issued to or received from an LLM API.
 * @since 0.1.0
 * @category models
 */
export interface SamplingMessage extends Schema.Schema.Type<typeof SamplingMessage> {}

const CreateMessageRequestParams_ = Core.CreateMessageRequestParams_
/**
 * The schema type of {@link CreateMessageRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface CreateMessageRequestParamsSchema extends Schema.Struct<typeof CreateMessageRequestParams_.fields> {}
/**
 * Params of a `sampling/createMessage` input request (no `_meta`, no `task`).
 * @since 0.1.0
 * @category requests
 */
export const CreateMessageRequestParams: CreateMessageRequestParamsSchema = Core.CreateMessageRequestParams
/**
 * Params of a `sampling/createMessage` input request.
 * @since 0.1.0
 * @category requests
 */
export interface CreateMessageRequestParams extends Schema.Schema.Type<typeof CreateMessageRequestParams> {}

const CreateMessageResult_ = Core.CreateMessageResult_
/**
 * The schema type of {@link CreateMessageResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface CreateMessageResultSchema extends Schema.Struct<typeof CreateMessageResult_.fields> {}
/**
 * The client's answer to a `sampling/createMessage` input request.
 * @since 0.1.0
 * @category results
 */
export const CreateMessageResult: CreateMessageResultSchema = Core.CreateMessageResult
/**
 * The client's answer to a `sampling/createMessage` input request.
 * @since 0.1.0
 * @category results
 */
export interface CreateMessageResult extends Schema.Schema.Type<typeof CreateMessageResult> {}

const CreateMessageRequest_ = Core.CreateMessageRequest_
/**
 * The schema type of {@link CreateMessageRequest} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface CreateMessageRequestSchema extends Schema.Struct<typeof CreateMessageRequest_.fields> {}
/**
 * An input request: sample the client's LLM.
 * @since 0.1.0
 * @category requests
 */
export const CreateMessageRequest: CreateMessageRequestSchema = Core.CreateMessageRequest
/**
 * An input request: sample the client's LLM.
 * @since 0.1.0
 * @category requests
 */
export interface CreateMessageRequest extends Schema.Schema.Type<typeof CreateMessageRequest> {}

const ElicitRequestFormParams_ = Core.ElicitRequestFormParams_
/**
 * The schema type of {@link ElicitRequestFormParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ElicitRequestFormParamsSchema extends Schema.Struct<typeof ElicitRequestFormParams_.fields> {}
/**
 * Params of a form-mode elicitation.
 * @since 0.1.0
 * @category models
 */
export const ElicitRequestFormParams: ElicitRequestFormParamsSchema = Core.ElicitRequestFormParams
/**
 * Params of a form-mode elicitation.
 * @since 0.1.0
 * @category models
 */
export interface ElicitRequestFormParams extends Schema.Schema.Type<typeof ElicitRequestFormParams> {}

/**
 * Params of a URL-mode elicitation (no `elicitationId` in this revision).
 * @since 0.1.0
 * @category models
 */
export const ElicitRequestURLParams = Core.ElicitRequestURLParams
/**
 * Params of a URL-mode elicitation.
 * @since 0.1.0
 * @category models
 */
export interface ElicitRequestURLParams extends Schema.Schema.Type<typeof ElicitRequestURLParams> {}

/**
 * Params of an `elicitation/create` input request.
 * @since 0.1.0
 * @category requests
 */
export const ElicitRequestParams = Core.ElicitRequestParams
/**
 * Params of an `elicitation/create` input request.
 * @since 0.1.0
 * @category requests
 */
export type ElicitRequestParams = typeof ElicitRequestParams.Type

const ElicitRequest_ = Core.ElicitRequest_
/**
 * The schema type of {@link ElicitRequest} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ElicitRequestSchema extends Schema.Struct<typeof ElicitRequest_.fields> {}
/**
 * An input request: ask the user, through the client.
 * @since 0.1.0
 * @category requests
 */
export const ElicitRequest: ElicitRequestSchema = Core.ElicitRequest
/**
 * An input request: ask the user, through the client.
 * @since 0.1.0
 * @category requests
 */
export interface ElicitRequest extends Schema.Schema.Type<typeof ElicitRequest> {}

const ElicitResult_ = Core.ElicitResult_
/**
 * The schema type of {@link ElicitResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ElicitResultSchema extends Schema.Struct<typeof ElicitResult_.fields> {}
/**
 * The client's answer to an elicitation (numbers may be fractional, as in `McpSchema.ElicitResult`).
 * @since 0.1.0
 * @category results
 */
export const ElicitResult: ElicitResultSchema = Core.ElicitResult
/**
 * The client's answer to an elicitation.
 * @since 0.1.0
 * @category results
 */
export interface ElicitResult extends Schema.Schema.Type<typeof ElicitResult> {}

/**
 * Params of a `roots/list` input request.
 * @since 0.1.0
 * @category requests
 */
export const ListRootsRequestParams = Core.ListRootsRequestParams
/**
 * Params of a `roots/list` input request.
 * @since 0.1.0
 * @category requests
 */
export interface ListRootsRequestParams extends Schema.Schema.Type<typeof ListRootsRequestParams> {}

const ListRootsRequest_ = Core.ListRootsRequest_
/**
 * The schema type of {@link ListRootsRequest} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ListRootsRequestSchema extends Schema.Struct<typeof ListRootsRequest_.fields> {}
/**
 * An input request: list the client's roots.
 * @since 0.1.0
 * @category requests
 */
export const ListRootsRequest: ListRootsRequestSchema = Core.ListRootsRequest
/**
 * An input request: list the client's roots.
 * @since 0.1.0
 * @category requests
 */
export interface ListRootsRequest extends Schema.Schema.Type<typeof ListRootsRequest> {}

/**
 * The client's answer to a `roots/list` input request.
 * @since 0.1.0
 * @category results
 */
export const ListRootsResult = Core.ListRootsResult
/**
 * The client's answer to a `roots/list` input request.
 * @since 0.1.0
 * @category results
 */
export interface ListRootsResult extends Schema.Schema.Type<typeof ListRootsResult> {}

// -----------------------------------------------------------------------------
// Multi-round-trip requests
// -----------------------------------------------------------------------------

/**
 * A request the server needs the client to fulfil before it can finish (sampling, roots, elicitation).
 * @since 0.1.0
 * @category requests
 */
export const InputRequest = Core.InputRequest
/**
 * A request the server needs the client to fulfil.
 * @since 0.1.0
 * @category requests
 */
export type InputRequest = typeof InputRequest.Type

/**
 * Input requests keyed by server-assigned names.
 * @since 0.1.0
 * @category method tables
 */
export const InputRequests = Schema.Record(Schema.String, InputRequest)
/**
 * Input requests keyed by server-assigned names.
 * @since 0.1.0
 * @category method tables
 */
export type InputRequests = typeof InputRequests.Type

/**
 * The client's result for one input request.
 * @since 0.1.0
 * @category models
 */
export const InputResponse = Schema.Union([CreateMessageResult, ListRootsResult, ElicitResult])
/**
 * The client's result for one input request.
 * @since 0.1.0
 * @category models
 */
export type InputResponse = typeof InputResponse.Type

/**
 * Input responses keyed by the names of the {@link InputRequests} they answer.
 * @since 0.1.0
 * @category models
 */
export const InputResponses = Schema.Record(Schema.String, InputResponse)
/**
 * Input responses keyed by the names of the input requests they answer.
 * @since 0.1.0
 * @category models
 */
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
/**
 * The schema type of {@link InputResponseRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface InputResponseRequestParamsSchema extends Schema.Struct<typeof InputResponseRequestParams_.fields> {}
/**
 * Params of a request that may answer a previous `InputRequiredResult`.
 * @since 0.1.0
 * @category requests
 */
export const InputResponseRequestParams: InputResponseRequestParamsSchema = InputResponseRequestParams_
/**
 * Params of a request that may answer a previous `InputRequiredResult`.
 * @since 0.1.0
 * @category requests
 */
export interface InputResponseRequestParams extends Schema.Schema.Type<typeof InputResponseRequestParams> {}

const InputRequiredResultStruct_ = Schema.Struct({
  _meta: optional(ResultMetaObject),
  resultType: Schema.Literal(RESULT_TYPE_INPUT_REQUIRED),
  inputRequests: optional(InputRequests),
  requestState: optional(Schema.String)
})
/**
 * The fields of an {@link InputRequiredResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface InputRequiredResultStructSchema extends Schema.Struct<typeof InputRequiredResultStruct_.fields> {}
const InputRequiredResultStruct: InputRequiredResultStructSchema = InputRequiredResultStruct_
/**
 * The schema type of {@link InputRequiredResult}.
 * @since 0.1.0
 * @category schemas
 */
export interface InputRequiredResultSchema extends InputRequiredResultStructSchema {}

/**
 * The server needs input before it can finish: the client fulfils `inputRequests` and retries the
 * request (new id) with `inputResponses` and the exact `requestState`. At least one of the two is
 * present (the JSON Schema does not say so; the spec text does).
 * @since 0.1.0
 * @category results
 */
export const InputRequiredResult: InputRequiredResultSchema = InputRequiredResultStruct.check(
  Schema.makeFilter((r) =>
    r.inputRequests !== undefined || r.requestState !== undefined ||
    "An InputRequiredResult needs inputRequests or requestState"
  )
)
/**
 * The server needs input before it can finish.
 * @since 0.1.0
 * @category results
 */
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
/**
 * The schema type of {@link DiscoverResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface DiscoverResultSchema extends Schema.Struct<typeof DiscoverResult_.fields> {}
/**
 * The server's answer to `server/discover`.
 * @since 0.1.0
 * @category results
 */
export const DiscoverResult: DiscoverResultSchema = DiscoverResult_
/**
 * The server's answer to `server/discover`.
 * @since 0.1.0
 * @category results
 */
export interface DiscoverResult extends Schema.Schema.Type<typeof DiscoverResult> {}

/**
 * Common params of requests about a resource.
 * @since 0.1.0
 * @category requests
 */
export const ResourceRequestParams = Schema.Struct({ _meta: RequestMetaObject, uri: Schema.String })
/**
 * Common params of requests about a resource.
 * @since 0.1.0
 * @category requests
 */
export interface ResourceRequestParams extends Schema.Schema.Type<typeof ResourceRequestParams> {}

const ReadResourceRequestParams_ = Schema.Struct({ ...inputResponseFields, uri: Schema.String })
/**
 * The schema type of {@link ReadResourceRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ReadResourceRequestParamsSchema extends Schema.Struct<typeof ReadResourceRequestParams_.fields> {}
/**
 * Params of `resources/read`.
 * @since 0.1.0
 * @category requests
 */
export const ReadResourceRequestParams: ReadResourceRequestParamsSchema = ReadResourceRequestParams_
/**
 * Params of `resources/read`.
 * @since 0.1.0
 * @category requests
 */
export interface ReadResourceRequestParams extends Schema.Schema.Type<typeof ReadResourceRequestParams> {}

/**
 * The server's answer to `resources/list`.
 * @since 0.1.0
 * @category results
 */
export const ListResourcesResult = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  resources: Schema.Array(McpSchema.Resource)
})
/**
 * The server's answer to `resources/list`.
 * @since 0.1.0
 * @category results
 */
export interface ListResourcesResult extends Schema.Schema.Type<typeof ListResourcesResult> {}

/**
 * The server's answer to `resources/templates/list`.
 * @since 0.1.0
 * @category results
 */
export const ListResourceTemplatesResult = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  resourceTemplates: Schema.Array(McpSchema.ResourceTemplate)
})
/**
 * The server's answer to `resources/templates/list`.
 * @since 0.1.0
 * @category results
 */
export interface ListResourceTemplatesResult extends Schema.Schema.Type<typeof ListResourceTemplatesResult> {}

const ReadResourceResult_ = Schema.Struct({
  ...completeFields,
  ...cacheFields,
  contents: Schema.Array(Schema.Union([McpSchema.TextResourceContents, McpSchema.BlobResourceContents]))
})
/**
 * The schema type of {@link ReadResourceResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ReadResourceResultSchema extends Schema.Struct<typeof ReadResourceResult_.fields> {}
/**
 * The server's answer to `resources/read`.
 * @since 0.1.0
 * @category results
 */
export const ReadResourceResult: ReadResourceResultSchema = ReadResourceResult_
/**
 * The server's answer to `resources/read`.
 * @since 0.1.0
 * @category results
 */
export interface ReadResourceResult extends Schema.Schema.Type<typeof ReadResourceResult> {}

/**
 * Params of `notifications/resources/updated`.
 * @since 0.1.0
 * @category notifications
 */
export const ResourceUpdatedNotificationParams = Schema.Struct({
  _meta: optional(NotificationMetaObject),
  uri: Schema.String
})
/**
 * Params of `notifications/resources/updated`.
 * @since 0.1.0
 * @category notifications
 */
export interface ResourceUpdatedNotificationParams extends Schema.Schema.Type<typeof ResourceUpdatedNotificationParams> {}

/**
 * The server's answer to `prompts/list`.
 * @since 0.1.0
 * @category results
 */
export const ListPromptsResult = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  prompts: Schema.Array(McpSchema.Prompt)
})
/**
 * The server's answer to `prompts/list`.
 * @since 0.1.0
 * @category results
 */
export interface ListPromptsResult extends Schema.Schema.Type<typeof ListPromptsResult> {}

const GetPromptRequestParams_ = Schema.Struct({
  ...inputResponseFields,
  name: Schema.String,
  arguments: optional(StringRecord)
})
/**
 * The schema type of {@link GetPromptRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface GetPromptRequestParamsSchema extends Schema.Struct<typeof GetPromptRequestParams_.fields> {}
/**
 * Params of `prompts/get`.
 * @since 0.1.0
 * @category requests
 */
export const GetPromptRequestParams: GetPromptRequestParamsSchema = GetPromptRequestParams_
/**
 * Params of `prompts/get`.
 * @since 0.1.0
 * @category requests
 */
export interface GetPromptRequestParams extends Schema.Schema.Type<typeof GetPromptRequestParams> {}

const GetPromptResult_ = Schema.Struct({
  ...completeFields,
  description: optional(Schema.String),
  messages: Schema.Array(McpSchema.PromptMessage)
})
/**
 * The schema type of {@link GetPromptResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface GetPromptResultSchema extends Schema.Struct<typeof GetPromptResult_.fields> {}
/**
 * The server's answer to `prompts/get`.
 * @since 0.1.0
 * @category results
 */
export const GetPromptResult: GetPromptResultSchema = GetPromptResult_
/**
 * The server's answer to `prompts/get`.
 * @since 0.1.0
 * @category results
 */
export interface GetPromptResult extends Schema.Schema.Type<typeof GetPromptResult> {}

const ListToolsResult_ = Schema.Struct({
  ...PaginatedResult.fields,
  ...cacheFields,
  tools: Schema.Array(Tool)
})
/**
 * The schema type of {@link ListToolsResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface ListToolsResultSchema extends Schema.Struct<typeof ListToolsResult_.fields> {}
/**
 * The server's answer to `tools/list`.
 * @since 0.1.0
 * @category results
 */
export const ListToolsResult: ListToolsResultSchema = ListToolsResult_
/**
 * The server's answer to `tools/list`.
 * @since 0.1.0
 * @category results
 */
export interface ListToolsResult extends Schema.Schema.Type<typeof ListToolsResult> {}

const CallToolRequestParams_ = Schema.Struct({
  ...inputResponseFields,
  name: Schema.String,
  arguments: optional(JsonObject)
})
/**
 * The schema type of {@link CallToolRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface CallToolRequestParamsSchema extends Schema.Struct<typeof CallToolRequestParams_.fields> {}
/**
 * Params of `tools/call`.
 * @since 0.1.0
 * @category requests
 */
export const CallToolRequestParams: CallToolRequestParamsSchema = CallToolRequestParams_
/**
 * Params of `tools/call`.
 * @since 0.1.0
 * @category requests
 */
export interface CallToolRequestParams extends Schema.Schema.Type<typeof CallToolRequestParams> {}

const CallToolResult_ = Schema.Struct({
  ...completeFields,
  content: Schema.Array(McpSchema.ContentBlock),
  structuredContent: optional(JSONValue),
  isError: optional(Schema.Boolean)
})
/**
 * The schema type of {@link CallToolResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface CallToolResultSchema extends Schema.Struct<typeof CallToolResult_.fields> {}
/**
 * The server's answer to `tools/call` (`structuredContent` is any JSON value).
 * @since 0.1.0
 * @category results
 */
export const CallToolResult: CallToolResultSchema = CallToolResult_
/**
 * The server's answer to `tools/call`.
 * @since 0.1.0
 * @category results
 */
export interface CallToolResult extends Schema.Schema.Type<typeof CallToolResult> {}

const CompleteRequestParams_ = Schema.Struct({ ...McpSchema.CompleteRequestParams.fields, _meta: RequestMetaObject })
/**
 * The schema type of {@link CompleteRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface CompleteRequestParamsSchema extends Schema.Struct<typeof CompleteRequestParams_.fields> {}
/**
 * Params of `completion/complete`.
 * @since 0.1.0
 * @category requests
 */
export const CompleteRequestParams: CompleteRequestParamsSchema = CompleteRequestParams_
/**
 * Params of `completion/complete`.
 * @since 0.1.0
 * @category requests
 */
export interface CompleteRequestParams extends Schema.Schema.Type<typeof CompleteRequestParams> {}

/**
 * The server's answer to `completion/complete` (at most 100 values).
 * @since 0.1.0
 * @category results
 */
export const CompleteResult = Schema.Struct({
  ...completeFields,
  completion: Schema.Struct({
    values: Schema.Array(Schema.String).check(Schema.isMaxLength(100)),
    total: optional(Schema.Int),
    hasMore: optional(Schema.Boolean)
  })
})
/**
 * The server's answer to `completion/complete`.
 * @since 0.1.0
 * @category results
 */
export interface CompleteResult extends Schema.Schema.Type<typeof CompleteResult> {}

// -----------------------------------------------------------------------------
// Subscriptions & notification params
// -----------------------------------------------------------------------------

/**
 * The notifications a client opts in to on a `subscriptions/listen` stream.
 * @since 0.1.0
 * @category models
 */
export const SubscriptionFilter = Core.SubscriptionFilter
/**
 * The notifications a client opts in to on a `subscriptions/listen` stream.
 * @since 0.1.0
 * @category models
 */
export interface SubscriptionFilter extends Schema.Schema.Type<typeof SubscriptionFilter> {}

const SubscriptionsListenRequestParams_ = Core.SubscriptionsListenRequestParams_
/**
 * The schema type of {@link SubscriptionsListenRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category schemas
 */
export interface SubscriptionsListenRequestParamsSchema extends Schema.Struct<typeof SubscriptionsListenRequestParams_.fields> {}
/**
 * Params of `subscriptions/listen`.
 * @since 0.1.0
 * @category requests
 */
export const SubscriptionsListenRequestParams: SubscriptionsListenRequestParamsSchema = SubscriptionsListenRequestParams_
/**
 * Params of `subscriptions/listen`.
 * @since 0.1.0
 * @category requests
 */
export interface SubscriptionsListenRequestParams extends Schema.Schema.Type<typeof SubscriptionsListenRequestParams> {}

/**
 * The result that ends a listen stream gracefully (e.g. on shutdown).
 * @since 0.1.0
 * @category results
 */
export const SubscriptionsListenResult = Schema.Struct({
  _meta: SubscriptionsListenResultMetaObject,
  resultType: Schema.Literal(RESULT_TYPE_COMPLETE)
})
/**
 * The result that ends a listen stream gracefully.
 * @since 0.1.0
 * @category results
 */
export interface SubscriptionsListenResult extends Schema.Schema.Type<typeof SubscriptionsListenResult> {}

/**
 * Params of `notifications/subscriptions/acknowledged`: the subset of the filter the server honours.
 * @since 0.1.0
 * @category notifications
 */
export const SubscriptionsAcknowledgedNotificationParams = Schema.Struct({
  _meta: optional(NotificationMetaObject),
  notifications: SubscriptionFilter
})
/**
 * Params of `notifications/subscriptions/acknowledged`.
 * @since 0.1.0
 * @category notifications
 */
export interface SubscriptionsAcknowledgedNotificationParams
  extends Schema.Schema.Type<typeof SubscriptionsAcknowledgedNotificationParams>
{}

/**
 * Params of `notifications/cancelled` (`requestId` is required in this revision).
 * @since 0.1.0
 * @category notifications
 */
export const CancelledNotificationParams = Schema.Struct({
  _meta: optional(NotificationMetaObject),
  requestId: RequestId,
  reason: optional(Schema.String)
})
/**
 * Params of `notifications/cancelled`.
 * @since 0.1.0
 * @category notifications
 */
export interface CancelledNotificationParams extends Schema.Schema.Type<typeof CancelledNotificationParams> {}

/**
 * Params of `notifications/progress`.
 * @since 0.1.0
 * @category notifications
 */
export const ProgressNotificationParams = Schema.Struct({
  ...McpSchema.ProgressNotificationParams.fields,
  _meta: optional(NotificationMetaObject)
})
/**
 * Params of `notifications/progress`.
 * @since 0.1.0
 * @category notifications
 */
export interface ProgressNotificationParams extends Schema.Schema.Type<typeof ProgressNotificationParams> {}

/**
 * Params of `notifications/message`.
 * @since 0.1.0
 * @category notifications
 */
export const LoggingMessageNotificationParams = Schema.Struct({
  ...McpSchema.LoggingMessageNotificationParams.fields,
  _meta: optional(NotificationMetaObject)
})
/**
 * Params of `notifications/message`.
 * @since 0.1.0
 * @category notifications
 */
export interface LoggingMessageNotificationParams extends Schema.Schema.Type<typeof LoggingMessageNotificationParams> {}

// -----------------------------------------------------------------------------
// Requests & notifications (with their JSON-RPC envelope)
// -----------------------------------------------------------------------------

const jsonRpcRequest = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema.Literal(method), params })

const jsonRpcNotification = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params })

const jsonRpcNotificationOptionalParams = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params: optional(params) })

/**
 * A paginated request (any method; `params` with the envelope is required).
 * @since 0.1.0
 * @category requests
 */
export const PaginatedRequest = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema.String,
  params: PaginatedRequestParams
})
/**
 * A paginated request.
 * @since 0.1.0
 * @category requests
 */
export interface PaginatedRequest extends Schema.Schema.Type<typeof PaginatedRequest> {}

/**
 * Asks the server for its versions, capabilities and instructions (servers must implement it).
 * @since 0.1.0
 * @category requests
 */
export const DiscoverRequest = jsonRpcRequest("server/discover", RequestParams)
/**
 * Asks the server for its versions, capabilities and instructions.
 * @since 0.1.0
 * @category requests
 */
export interface DiscoverRequest extends Schema.Schema.Type<typeof DiscoverRequest> {}

/**
 * Lists the server's resources.
 * @since 0.1.0
 * @category requests
 */
export const ListResourcesRequest = jsonRpcRequest("resources/list", PaginatedRequestParams)
/**
 * Lists the server's resources.
 * @since 0.1.0
 * @category requests
 */
export interface ListResourcesRequest extends Schema.Schema.Type<typeof ListResourcesRequest> {}

/**
 * Lists the server's resource templates.
 * @since 0.1.0
 * @category requests
 */
export const ListResourceTemplatesRequest = jsonRpcRequest("resources/templates/list", PaginatedRequestParams)
/**
 * Lists the server's resource templates.
 * @since 0.1.0
 * @category requests
 */
export interface ListResourceTemplatesRequest extends Schema.Schema.Type<typeof ListResourceTemplatesRequest> {}

/**
 * Reads a resource.
 * @since 0.1.0
 * @category requests
 */
export const ReadResourceRequest = jsonRpcRequest("resources/read", ReadResourceRequestParams)
/**
 * Reads a resource.
 * @since 0.1.0
 * @category requests
 */
export interface ReadResourceRequest extends Schema.Schema.Type<typeof ReadResourceRequest> {}

/**
 * Opens a long-lived notification stream (replaces the GET stream and `resources/subscribe`).
 * @since 0.1.0
 * @category requests
 */
export const SubscriptionsListenRequest = jsonRpcRequest("subscriptions/listen", SubscriptionsListenRequestParams)
/**
 * Opens a long-lived notification stream.
 * @since 0.1.0
 * @category requests
 */
export interface SubscriptionsListenRequest extends Schema.Schema.Type<typeof SubscriptionsListenRequest> {}

/**
 * Lists the server's prompts.
 * @since 0.1.0
 * @category requests
 */
export const ListPromptsRequest = jsonRpcRequest("prompts/list", PaginatedRequestParams)
/**
 * Lists the server's prompts.
 * @since 0.1.0
 * @category requests
 */
export interface ListPromptsRequest extends Schema.Schema.Type<typeof ListPromptsRequest> {}

/**
 * Gets a prompt.
 * @since 0.1.0
 * @category requests
 */
export const GetPromptRequest = jsonRpcRequest("prompts/get", GetPromptRequestParams)
/**
 * Gets a prompt.
 * @since 0.1.0
 * @category requests
 */
export interface GetPromptRequest extends Schema.Schema.Type<typeof GetPromptRequest> {}

/**
 * Lists the server's tools.
 * @since 0.1.0
 * @category requests
 */
export const ListToolsRequest = jsonRpcRequest("tools/list", PaginatedRequestParams)
/**
 * Lists the server's tools.
 * @since 0.1.0
 * @category requests
 */
export interface ListToolsRequest extends Schema.Schema.Type<typeof ListToolsRequest> {}

/**
 * Calls a tool.
 * @since 0.1.0
 * @category requests
 */
export const CallToolRequest = jsonRpcRequest("tools/call", CallToolRequestParams)
/**
 * Calls a tool.
 * @since 0.1.0
 * @category requests
 */
export interface CallToolRequest extends Schema.Schema.Type<typeof CallToolRequest> {}

/**
 * Asks for completion options.
 * @since 0.1.0
 * @category requests
 */
export const CompleteRequest = jsonRpcRequest("completion/complete", CompleteRequestParams)
/**
 * Asks for completion options.
 * @since 0.1.0
 * @category requests
 */
export interface CompleteRequest extends Schema.Schema.Type<typeof CompleteRequest> {}

/**
 * Cancels a request (client → server; on stdio the server also sends it to end a listen stream).
 * @since 0.1.0
 * @category notifications
 */
export const CancelledNotification = jsonRpcNotification("notifications/cancelled", CancelledNotificationParams)
/**
 * Cancels a request.
 * @since 0.1.0
 * @category notifications
 */
export interface CancelledNotification extends Schema.Schema.Type<typeof CancelledNotification> {}

/**
 * Progress of a long-running request.
 * @since 0.1.0
 * @category notifications
 */
export const ProgressNotification = jsonRpcNotification("notifications/progress", ProgressNotificationParams)
/**
 * Progress of a long-running request.
 * @since 0.1.0
 * @category notifications
 */
export interface ProgressNotification extends Schema.Schema.Type<typeof ProgressNotification> {}

/**
 * The resource list changed.
 * @since 0.1.0
 * @category notifications
 */
export const ResourceListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/resources/list_changed",
  NotificationParams
)
/**
 * The resource list changed.
 * @since 0.1.0
 * @category notifications
 */
export interface ResourceListChangedNotification extends Schema.Schema.Type<typeof ResourceListChangedNotification> {}

/**
 * A subscribed resource changed.
 * @since 0.1.0
 * @category notifications
 */
export const ResourceUpdatedNotification = jsonRpcNotification(
  "notifications/resources/updated",
  ResourceUpdatedNotificationParams
)
/**
 * A subscribed resource changed.
 * @since 0.1.0
 * @category notifications
 */
export interface ResourceUpdatedNotification extends Schema.Schema.Type<typeof ResourceUpdatedNotification> {}

/**
 * The prompt list changed.
 * @since 0.1.0
 * @category notifications
 */
export const PromptListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/prompts/list_changed",
  NotificationParams
)
/**
 * The prompt list changed.
 * @since 0.1.0
 * @category notifications
 */
export interface PromptListChangedNotification extends Schema.Schema.Type<typeof PromptListChangedNotification> {}

/**
 * The tool list changed.
 * @since 0.1.0
 * @category notifications
 */
export const ToolListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/tools/list_changed",
  NotificationParams
)
/**
 * The tool list changed.
 * @since 0.1.0
 * @category notifications
 */
export interface ToolListChangedNotification extends Schema.Schema.Type<typeof ToolListChangedNotification> {}

/**
 * The first frame of a listen stream: which notification types the server will send on it.
 * @since 0.1.0
 * @category notifications
 */
export const SubscriptionsAcknowledgedNotification = jsonRpcNotification(
  "notifications/subscriptions/acknowledged",
  SubscriptionsAcknowledgedNotificationParams
)
/**
 * The first frame of a listen stream.
 * @since 0.1.0
 * @category notifications
 */
export interface SubscriptionsAcknowledgedNotification
  extends Schema.Schema.Type<typeof SubscriptionsAcknowledgedNotification>
{}

/**
 * A log message (only at or above the request's `_meta` log level).
 * @since 0.1.0
 * @category notifications
 */
export const LoggingMessageNotification = jsonRpcNotification("notifications/message", LoggingMessageNotificationParams)
/**
 * A log message.
 * @since 0.1.0
 * @category notifications
 */
export interface LoggingMessageNotification extends Schema.Schema.Type<typeof LoggingMessageNotification> {}

// -----------------------------------------------------------------------------
// Message unions & JSON-RPC responses
// -----------------------------------------------------------------------------

/**
 * Any request a client sends to a server.
 * @since 0.1.0
 * @category requests
 */
export const ClientRequest = Schema.Union([
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
])
/**
 * Any request a client sends to a server.
 * @since 0.1.0
 * @category requests
 */
export type ClientRequest = typeof ClientRequest.Type

/**
 * Any notification a client sends to a server: only `notifications/cancelled`.
 * @since 0.1.0
 * @category notifications
 */
export const ClientNotification = CancelledNotification
/**
 * Any notification a client sends to a server.
 * @since 0.1.0
 * @category notifications
 */
export type ClientNotification = CancelledNotification

/**
 * Any result a client sends to a server (none are sent in this revision; kept for the spec).
 * @since 0.1.0
 * @category results
 */
export const ClientResult = Result
/**
 * Any result a client sends to a server.
 * @since 0.1.0
 * @category results
 */
export type ClientResult = Result

/**
 * Any notification a server sends to a client.
 * @since 0.1.0
 * @category notifications
 */
export const ServerNotification = Schema.Union([
  CancelledNotification,
  ProgressNotification,
  ResourceListChangedNotification,
  SubscriptionsAcknowledgedNotification,
  ResourceUpdatedNotification,
  PromptListChangedNotification,
  ToolListChangedNotification,
  LoggingMessageNotification
])
/**
 * Any notification a server sends to a client.
 * @since 0.1.0
 * @category notifications
 */
export type ServerNotification = typeof ServerNotification.Type

/**
 * Any result a server sends; `Result` first keeps every key (decode by method for precision).
 * @since 0.1.0
 * @category results
 */
export const ServerResult = Schema.Union([
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
])
/**
 * Any result a server sends.
 * @since 0.1.0
 * @category results
 */
export type ServerResult = typeof ServerResult.Type

/**
 * A successful JSON-RPC response (its result has a `resultType`).
 * @since 0.1.0
 * @category models
 */
export const JSONRPCResultResponse = Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, result: Result })
/**
 * A successful JSON-RPC response.
 * @since 0.1.0
 * @category models
 */
export interface JSONRPCResultResponse extends Schema.Schema.Type<typeof JSONRPCResultResponse> {}

/**
 * A JSON-RPC response: a result or an error.
 * @since 0.1.0
 * @category models
 */
export const JSONRPCResponse = Schema.Union([JSONRPCResultResponse, McpSchema.JSONRPCErrorResponse])
/**
 * A JSON-RPC response.
 * @since 0.1.0
 * @category models
 */
export type JSONRPCResponse = typeof JSONRPCResponse.Type

/**
 * Any JSON-RPC message.
 * @since 0.1.0
 * @category models
 */
export const JSONRPCMessage = Schema.Union([
  McpSchema.JSONRPCRequest,
  McpSchema.JSONRPCNotification,
  JSONRPCResultResponse,
  McpSchema.JSONRPCErrorResponse
])
/**
 * Any JSON-RPC message.
 * @since 0.1.0
 * @category models
 */
export type JSONRPCMessage = typeof JSONRPCMessage.Type

/**
 * What `tools/call` answers: an {@link InputRequiredResult} or a {@link CallToolResult}.
 * @since 0.1.0
 * @category models
 */
export const CallToolOutcome = Schema.Union([InputRequiredResult, CallToolResult])
/**
 * What `tools/call` answers.
 * @since 0.1.0
 * @category models
 */
export type CallToolOutcome = typeof CallToolOutcome.Type

/**
 * What `prompts/get` answers: an {@link InputRequiredResult} or a {@link GetPromptResult}.
 * @since 0.1.0
 * @category models
 */
export const GetPromptOutcome = Schema.Union([InputRequiredResult, GetPromptResult])
/**
 * What `prompts/get` answers.
 * @since 0.1.0
 * @category models
 */
export type GetPromptOutcome = typeof GetPromptOutcome.Type

/**
 * What `resources/read` answers: an {@link InputRequiredResult} or a {@link ReadResourceResult}.
 * @since 0.1.0
 * @category models
 */
export const ReadResourceOutcome = Schema.Union([InputRequiredResult, ReadResourceResult])
/**
 * What `resources/read` answers.
 * @since 0.1.0
 * @category models
 */
export type ReadResourceOutcome = typeof ReadResourceOutcome.Type

const jsonRpcResult = <R extends Schema.Top>(result: R) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, result })

/**
 * A successful response to `server/discover`.
 * @since 0.1.0
 * @category models
 */
export const DiscoverResultResponse = jsonRpcResult(DiscoverResult)
/**
 * A successful response to `server/discover`.
 * @since 0.1.0
 * @category models
 */
export interface DiscoverResultResponse extends Schema.Schema.Type<typeof DiscoverResultResponse> {}
/**
 * A successful response to `resources/list`.
 * @since 0.1.0
 * @category models
 */
export const ListResourcesResultResponse = jsonRpcResult(ListResourcesResult)
/**
 * A successful response to `resources/list`.
 * @since 0.1.0
 * @category models
 */
export interface ListResourcesResultResponse extends Schema.Schema.Type<typeof ListResourcesResultResponse> {}
/**
 * A successful response to `resources/templates/list`.
 * @since 0.1.0
 * @category models
 */
export const ListResourceTemplatesResultResponse = jsonRpcResult(ListResourceTemplatesResult)
/**
 * A successful response to `resources/templates/list`.
 * @since 0.1.0
 * @category models
 */
export interface ListResourceTemplatesResultResponse
  extends Schema.Schema.Type<typeof ListResourceTemplatesResultResponse>
{}
/**
 * A successful response to `resources/read`.
 * @since 0.1.0
 * @category models
 */
export const ReadResourceResultResponse = jsonRpcResult(ReadResourceOutcome)
/**
 * A successful response to `resources/read`.
 * @since 0.1.0
 * @category models
 */
export interface ReadResourceResultResponse extends Schema.Schema.Type<typeof ReadResourceResultResponse> {}
/**
 * The response that ends a listen stream gracefully.
 * @since 0.1.0
 * @category models
 */
export const SubscriptionsListenResultResponse = jsonRpcResult(SubscriptionsListenResult)
/**
 * The response that ends a listen stream gracefully.
 * @since 0.1.0
 * @category models
 */
export interface SubscriptionsListenResultResponse extends Schema.Schema.Type<typeof SubscriptionsListenResultResponse> {}
/**
 * A successful response to `prompts/list`.
 * @since 0.1.0
 * @category models
 */
export const ListPromptsResultResponse = jsonRpcResult(ListPromptsResult)
/**
 * A successful response to `prompts/list`.
 * @since 0.1.0
 * @category models
 */
export interface ListPromptsResultResponse extends Schema.Schema.Type<typeof ListPromptsResultResponse> {}
/**
 * A successful response to `prompts/get`.
 * @since 0.1.0
 * @category models
 */
export const GetPromptResultResponse = jsonRpcResult(GetPromptOutcome)
/**
 * A successful response to `prompts/get`.
 * @since 0.1.0
 * @category models
 */
export interface GetPromptResultResponse extends Schema.Schema.Type<typeof GetPromptResultResponse> {}
/**
 * A successful response to `tools/list`.
 * @since 0.1.0
 * @category models
 */
export const ListToolsResultResponse = jsonRpcResult(ListToolsResult)
/**
 * A successful response to `tools/list`.
 * @since 0.1.0
 * @category models
 */
export interface ListToolsResultResponse extends Schema.Schema.Type<typeof ListToolsResultResponse> {}
/**
 * A successful response to `tools/call`.
 * @since 0.1.0
 * @category models
 */
export const CallToolResultResponse = jsonRpcResult(CallToolOutcome)
/**
 * A successful response to `tools/call`.
 * @since 0.1.0
 * @category models
 */
export interface CallToolResultResponse extends Schema.Schema.Type<typeof CallToolResultResponse> {}
/**
 * A successful response to `completion/complete`.
 * @since 0.1.0
 * @category models
 */
export const CompleteResultResponse = jsonRpcResult(CompleteResult)
/**
 * A successful response to `completion/complete`.
 * @since 0.1.0
 * @category models
 */
export interface CompleteResultResponse extends Schema.Schema.Type<typeof CompleteResultResponse> {}

// -----------------------------------------------------------------------------
// Errors
// -----------------------------------------------------------------------------

const errorObject = <C extends number, D extends Schema.Top>(code: C, data: D) =>
  Schema.Struct({ code: Schema.Literal(code), message: Schema.String, data })

const errorResponse = <E extends Schema.Top>(error: E) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: optional(RequestId), error })

const anyData = optional(Schema.Unknown)

/**
 * JSON-RPC −32700: invalid JSON.
 * @since 0.1.0
 * @category models
 */
export const ParseError = errorObject(-32700, anyData)
/**
 * JSON-RPC −32700: invalid JSON.
 * @since 0.1.0
 * @category models
 */
export interface ParseError extends Schema.Schema.Type<typeof ParseError> {}
/**
 * JSON-RPC −32600: not a valid request object.
 * @since 0.1.0
 * @category models
 */
export const InvalidRequestError = errorObject(-32600, anyData)
/**
 * JSON-RPC −32600: not a valid request object.
 * @since 0.1.0
 * @category models
 */
export interface InvalidRequestError extends Schema.Schema.Type<typeof InvalidRequestError> {}
/**
 * JSON-RPC −32601: unknown or removed method (HTTP 404 on the 2026 path).
 * @since 0.1.0
 * @category models
 */
export const MethodNotFoundError = errorObject(-32601, anyData)
/**
 * JSON-RPC −32601: unknown or removed method.
 * @since 0.1.0
 * @category models
 */
export interface MethodNotFoundError extends Schema.Schema.Type<typeof MethodNotFoundError> {}
/**
 * JSON-RPC −32602: invalid params (also a bad envelope, a bad `requestState`, a missing resource).
 * @since 0.1.0
 * @category models
 */
export const InvalidParamsError = errorObject(-32602, anyData)
/**
 * JSON-RPC −32602: invalid params.
 * @since 0.1.0
 * @category models
 */
export interface InvalidParamsError extends Schema.Schema.Type<typeof InvalidParamsError> {}
/**
 * JSON-RPC −32603: internal error.
 * @since 0.1.0
 * @category models
 */
export const InternalError = errorObject(-32603, anyData)
/**
 * JSON-RPC −32603: internal error.
 * @since 0.1.0
 * @category models
 */
export interface InternalError extends Schema.Schema.Type<typeof InternalError> {}

/**
 * The `error` of a {@link HeaderMismatchError}.
 * @since 0.1.0
 * @category models
 */
export const HeaderMismatchErrorObject = errorObject(HEADER_MISMATCH, anyData)
/**
 * The `error` of a {@link HeaderMismatchError}.
 * @since 0.1.0
 * @category models
 */
export interface HeaderMismatchErrorObject extends Schema.Schema.Type<typeof HeaderMismatchErrorObject> {}
/**
 * −32020: headers missing, malformed, or not matching the body (HTTP 400).
 * @since 0.1.0
 * @category models
 */
export const HeaderMismatchError = errorResponse(HeaderMismatchErrorObject)
/**
 * −32020: headers missing, malformed, or not matching the body.
 * @since 0.1.0
 * @category models
 */
export interface HeaderMismatchError extends Schema.Schema.Type<typeof HeaderMismatchError> {}

/**
 * The `error` of a {@link MissingRequiredClientCapabilityError}.
 * @since 0.1.0
 * @category models
 */
export const MissingRequiredClientCapabilityErrorObject = errorObject(
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  Schema.StructWithRest(Schema.Struct({ requiredCapabilities: ClientCapabilities }), [JsonObject])
)
/**
 * The `error` of a {@link MissingRequiredClientCapabilityError}.
 * @since 0.1.0
 * @category models
 */
export interface MissingRequiredClientCapabilityErrorObject
  extends Schema.Schema.Type<typeof MissingRequiredClientCapabilityErrorObject>
{}
/**
 * −32021: the request needs client capabilities it did not declare (`data.requiredCapabilities`).
 * @since 0.1.0
 * @category models
 */
export const MissingRequiredClientCapabilityError = errorResponse(MissingRequiredClientCapabilityErrorObject)
/**
 * −32021: the request needs client capabilities it did not declare.
 * @since 0.1.0
 * @category models
 */
export interface MissingRequiredClientCapabilityError
  extends Schema.Schema.Type<typeof MissingRequiredClientCapabilityError>
{}

/**
 * The `error` of an {@link UnsupportedProtocolVersionError}.
 * @since 0.1.0
 * @category models
 */
export const UnsupportedProtocolVersionErrorObject = errorObject(
  UNSUPPORTED_PROTOCOL_VERSION,
  Schema.StructWithRest(Schema.Struct({ supported: Schema.Array(Schema.String), requested: Schema.String }), [JsonObject])
)
/**
 * The `error` of an {@link UnsupportedProtocolVersionError}.
 * @since 0.1.0
 * @category models
 */
export interface UnsupportedProtocolVersionErrorObject
  extends Schema.Schema.Type<typeof UnsupportedProtocolVersionErrorObject>
{}
/**
 * −32022: the requested version is not supported; `data.supported` lists what is (HTTP 400).
 * @since 0.1.0
 * @category models
 */
export const UnsupportedProtocolVersionError = errorResponse(UnsupportedProtocolVersionErrorObject)
/**
 * −32022: the requested version is not supported.
 * @since 0.1.0
 * @category models
 */
export interface UnsupportedProtocolVersionError extends Schema.Schema.Type<typeof UnsupportedProtocolVersionError> {}

// -----------------------------------------------------------------------------
// Method tables
// -----------------------------------------------------------------------------

/**
 * Requests a client sends to a server: method -> `{ params, result }`, `result` being what the
 * wire carries (for {@link INPUT_REQUIRED_METHODS}, the union with {@link InputRequiredResult}).
 * @since 0.1.0
 * @category method tables
 * @example
 * ```ts
 * import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
 * import * as Schema from "effect/Schema"
 * const outcome = Schema.decodeUnknownSync(McpSchema2026.ClientRequests["tools/call"].result)(
 *   { resultType: "complete", content: [] }
 * )
 * ```
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

/**
 * The only methods that may answer an {@link InputRequiredResult} (and accept `inputResponses`).
 * @since 0.1.0
 * @category constants
 */
export const INPUT_REQUIRED_METHODS = Core.INPUT_REQUIRED_METHODS satisfies ReadonlyArray<ClientRequestMethod>

/**
 * The requests a server may put in `inputRequests`: method -> `{ params, result }` (the result is
 * what the client puts in `inputResponses`). They replace 2025's server-to-client requests.
 * @since 0.1.0
 * @category method tables
 */
export const InputRequestMethods = Core.InputRequestMethods satisfies McpSchema.RequestMethodTable

/**
 * Notifications a client sends to a server.
 * @since 0.1.0
 * @category method tables
 */
export const ClientNotifications = {
  "notifications/cancelled": { params: CancelledNotificationParams }
} as const satisfies McpSchema.NotificationMethodTable

const OptionalNotificationParams = Schema.UndefinedOr(NotificationParams)

/**
 * Notifications a server sends to a client.
 * @since 0.1.0
 * @category method tables
 */
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

/**
 * 2025-11-25 client requests that do not exist in this revision (answer −32601, HTTP 404).
 * @since 0.1.0
 * @category constants
 */
export const REMOVED_CLIENT_REQUEST_METHODS = Core.REMOVED_CLIENT_REQUEST_METHODS satisfies ReadonlyArray<McpSchema.ClientRequestMethod>

/**
 * 2025-11-25 notifications (either direction) that do not exist in this revision.
 * @since 0.1.0
 * @category constants
 */
export const REMOVED_NOTIFICATION_METHODS = [
  "notifications/initialized",
  "notifications/roots/list_changed",
  "notifications/tasks/status",
  "notifications/elicitation/complete"
] as const satisfies ReadonlyArray<McpSchema.ClientNotificationMethod | McpSchema.ServerNotificationMethod>

/**
 * A request method a client sends to a server.
 * @since 0.1.0
 * @category models
 */
export type ClientRequestMethod = keyof typeof ClientRequests
/**
 * The decoded params of client request `M`.
 * @since 0.1.0
 * @category requests
 */
export type ClientRequestParams<M extends ClientRequestMethod> = Schema.Schema.Type<typeof ClientRequests[M]["params"]>
/**
 * The decoded result of client request `M` (including `InputRequiredResult` where it may answer).
 * @since 0.1.0
 * @category results
 */
export type ClientRequestResult<M extends ClientRequestMethod> = Schema.Schema.Type<typeof ClientRequests[M]["result"]>
/**
 * A method a server may ask for in `inputRequests`.
 * @since 0.1.0
 * @category models
 */
export type InputRequestMethod = keyof typeof InputRequestMethods
/**
 * A notification method a client sends to a server.
 * @since 0.1.0
 * @category models
 */
export type ClientNotificationMethod = keyof typeof ClientNotifications
/**
 * A notification method a server sends to a client.
 * @since 0.1.0
 * @category models
 */
export type ServerNotificationMethod = keyof typeof ServerNotifications

const has = (table: object, method: string) => Object.prototype.hasOwnProperty.call(table, method)

/**
 * Whether `method` is a request a client may send in this revision.
 * @since 0.1.0
 * @category utils
 */
export const isClientRequestMethod = (method: string): method is ClientRequestMethod => has(ClientRequests, method)
/**
 * Whether `method` may be asked for in `inputRequests`.
 * @since 0.1.0
 * @category utils
 */
export const isInputRequestMethod = (method: string): method is InputRequestMethod => has(InputRequestMethods, method)
/**
 * Whether `method` is a notification a client may send in this revision.
 * @since 0.1.0
 * @category utils
 */
export const isClientNotificationMethod = (method: string): method is ClientNotificationMethod =>
  has(ClientNotifications, method)
/**
 * Whether `method` is a notification a server may send in this revision.
 * @since 0.1.0
 * @category utils
 */
export const isServerNotificationMethod = (method: string): method is ServerNotificationMethod =>
  has(ServerNotifications, method)
/**
 * Whether `method` may answer an {@link InputRequiredResult}.
 * @since 0.1.0
 * @category utils
 */
export const isInputRequiredMethod = (method: string): method is typeof INPUT_REQUIRED_METHODS[number] =>
  (INPUT_REQUIRED_METHODS as ReadonlyArray<string>).includes(method)

/**
 * The `resultType` of a result as a client must read it: a missing one (a server of an earlier
 * revision) means `"complete"`.
 * @since 0.1.0
 * @category results
 * @example
 * ```ts
 * import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
 * const result: { readonly resultType?: unknown } = JSON.parse(`{"content":[]}`)
 * McpSchema2026.resultTypeOf(result) // "complete"
 * ```
 */
export const resultTypeOf = (result: { readonly resultType?: unknown }): string =>
  typeof result.resultType === "string" ? result.resultType : RESULT_TYPE_COMPLETE
