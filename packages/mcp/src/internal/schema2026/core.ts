/**
 * The part of the 2026-07-28 schemas the server engine reads (the envelope, `subscriptions/listen`'s
 * params, input requests and their answers) and its constants, defined here and re-exported by
 * `McpSchema2026`: a server loads this module, not all of `McpSchema2026`'s ~140 schemas, until a
 * client asks for them (loading them all cost a server ~1.1 MiB of heap and 2–3 MiB of peak RSS:
 * 7c1a07c:scratchpad/perf/abstub.mjs). Same values: `McpSchema2026.X === Schema2026Core.X`.
 *
 */
import * as Schema from "effect/Schema"
import type * as McpSchema2026 from "../../McpSchema2026.js"
import { Implementation, JsonObject, LoggingLevel, ProgressToken } from "../../McpSchema.js"
import * as McpSchema from "../../McpSchema.js"
import * as EnvelopeClaim from "../envelopeClaim.js"


export const PROTOCOL_VERSION = "2026-07-28" as const
export const SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION] as const
export const PROTOCOL_VERSION_META_KEY: typeof EnvelopeClaim.PROTOCOL_VERSION_META_KEY = EnvelopeClaim.PROTOCOL_VERSION_META_KEY
export const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities" as const
export const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo" as const
export const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel" as const
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo" as const
export const SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId" as const
export const RESULT_TYPE_COMPLETE = "complete" as const
export const RESULT_TYPE_INPUT_REQUIRED = "input_required" as const
export const HEADER_MISMATCH = -32020 as const
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021 as const
export const UNSUPPORTED_PROTOCOL_VERSION = -32022 as const

export const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)

export const JSONValue = Schema.Unknown.check(
  Schema.makeFilter((u) => u !== undefined || "Expected a JSON value, actual undefined")
)

export const MetaObject = McpSchema.Meta

export const CapabilityMap = Schema.Record(Schema.String, JsonObject)

export const ClientCapabilities_ = Schema.Struct({
  experimental: optional(CapabilityMap),
  /** Extensions the client supports, by extension identifier. */
  extensions: optional(CapabilityMap),
  /** Present if the client can answer `roots/list` input requests. */
  roots: optional(JsonObject),
  sampling: optional(Schema.Struct({ context: optional(JsonObject), tools: optional(JsonObject) })),
  elicitation: optional(Schema.Struct({ form: optional(JsonObject), url: optional(JsonObject) }))
})

export const ClientCapabilities = ClientCapabilities_

export const RequestMetaObject_ = Schema.StructWithRest(
  Schema.Struct({
    progressToken: optional(ProgressToken),
    [PROTOCOL_VERSION_META_KEY]: Schema.String,
    [CLIENT_CAPABILITIES_META_KEY]: ClientCapabilities,
    [CLIENT_INFO_META_KEY]: optional(Implementation),
    [LOG_LEVEL_META_KEY]: optional(LoggingLevel)
  }),
  [JsonObject]
)

export const RequestMetaObject = RequestMetaObject_

export const CacheScope = Schema.Literals(["private", "public"])

export const ToolInputSchema = Schema.StructWithRest(
  Schema.Struct({ $schema: optional(Schema.String), type: Schema.Literal("object") }),
  [JsonObject]
)

export const ToolOutputSchema = Schema.StructWithRest(Schema.Struct({ $schema: optional(Schema.String) }), [JsonObject])

export const Tool_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(McpSchema.Icon)),
  description: optional(Schema.String),
  inputSchema: ToolInputSchema,
  outputSchema: optional(ToolOutputSchema),
  annotations: optional(McpSchema.ToolAnnotations),
  _meta: optional(MetaObject)
})

export const Tool = Tool_

export const ToolResultContent_ = Schema.Struct({
  ...McpSchema.ToolResultContent.fields,
  structuredContent: optional(JSONValue)
})

export const ToolResultContent = ToolResultContent_

export const SamplingMessageContentBlock = Schema.Union([
  McpSchema.TextContent,
  McpSchema.ImageContent,
  McpSchema.AudioContent,
  McpSchema.ToolUseContent,
  ToolResultContent
])

export const SamplingContent = Schema.Union([...SamplingMessageContentBlock.members, Schema.Array(SamplingMessageContentBlock)])

export const SamplingMessage_ = Schema.Struct({ role: McpSchema.Role, content: SamplingContent, _meta: optional(MetaObject) })

export const SamplingMessage = SamplingMessage_

export const CreateMessageRequestParams_ = Schema.Struct({
  messages: Schema.Array(SamplingMessage),
  modelPreferences: optional(McpSchema.ModelPreferences),
  systemPrompt: optional(Schema.String),
  includeContext: optional(Schema.Literals(["allServers", "none", "thisServer"])),
  temperature: optional(Schema.Number),
  maxTokens: Schema.Int,
  stopSequences: optional(Schema.Array(Schema.String)),
  metadata: optional(JsonObject),
  tools: optional(Schema.Array(Tool)),
  toolChoice: optional(McpSchema.ToolChoice)
})

export const CreateMessageRequestParams = CreateMessageRequestParams_

export const CreateMessageResult_ = Schema.Struct({
  ...SamplingMessage.fields,
  model: Schema.String,
  stopReason: optional(Schema.String)
})

export const CreateMessageResult = CreateMessageResult_

export const CreateMessageRequest_ = Schema.Struct({
  method: Schema.Literal("sampling/createMessage"),
  params: CreateMessageRequestParams
})

export const CreateMessageRequest = CreateMessageRequest_

export const ElicitRequestFormParams_ = Schema.Struct({
  mode: optional(Schema.Literal("form")),
  message: Schema.String,
  requestedSchema: McpSchema.ElicitRequestedSchema
})

export const ElicitRequestFormParams = ElicitRequestFormParams_

export const ElicitRequestURLParams = Schema.Struct({
  mode: Schema.Literal("url"),
  message: Schema.String,
  url: Schema.String
})

export const ElicitRequestParams = Schema.Union([ElicitRequestFormParams, ElicitRequestURLParams])

export const ElicitRequest_ = Schema.Struct({ method: Schema.Literal("elicitation/create"), params: ElicitRequestParams })

export const ElicitRequest = ElicitRequest_

export const ElicitResult_ = Schema.Struct({
  action: Schema.Literals(["accept", "cancel", "decline"]),
  content: optional(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String)])))
})

export const ElicitResult = ElicitResult_

export const ListRootsRequestParams = Schema.Struct({ _meta: optional(MetaObject) })

export const ListRootsRequest_ = Schema.Struct({
  method: Schema.Literal("roots/list"),
  params: optional(ListRootsRequestParams)
})

export const ListRootsRequest = ListRootsRequest_

export const ListRootsResult = Schema.Struct({ roots: Schema.Array(McpSchema.Root) })

export const InputRequest = Schema.Union([CreateMessageRequest, ListRootsRequest, ElicitRequest])

export const SubscriptionFilter = Schema.Struct({
  toolsListChanged: optional(Schema.Boolean),
  promptsListChanged: optional(Schema.Boolean),
  resourcesListChanged: optional(Schema.Boolean),
  /** `notifications/resources/updated` for these URIs (replaces `resources/subscribe`). */
  resourceSubscriptions: optional(Schema.Array(Schema.String))
})

export const SubscriptionsListenRequestParams_ = Schema.Struct({ _meta: RequestMetaObject, notifications: SubscriptionFilter })

export const SubscriptionsListenRequestParams = SubscriptionsListenRequestParams_

export const INPUT_REQUIRED_METHODS = ["tools/call", "prompts/get", "resources/read"] as const

export const InputRequestMethods = {
  "sampling/createMessage": { params: CreateMessageRequestParams, result: CreateMessageResult },
  "roots/list": { params: Schema.UndefinedOr(ListRootsRequestParams), result: ListRootsResult },
  "elicitation/create": { params: ElicitRequestParams, result: ElicitResult }
} as const satisfies McpSchema.RequestMethodTable

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
] as const

/** The methods of `McpSchema2026.ClientRequests` (a test holds the two equal). */

export const CLIENT_REQUEST_METHODS = [
  "server/discover",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "subscriptions/listen",
  "prompts/list",
  "prompts/get",
  "tools/list",
  "tools/call",
  "completion/complete"
] as const

const clientRequestMethods: ReadonlySet<string> = new Set(CLIENT_REQUEST_METHODS)

/** `McpSchema2026.isClientRequestMethod` without the method tables. */

export const isClientRequestMethod = (method: string): method is typeof CLIENT_REQUEST_METHODS[number] =>
  clientRequestMethods.has(method)

// the types the engine names, from the public module (type-only: erased, nothing more is loaded)
export type ClientCapabilities = McpSchema2026.ClientCapabilities
export type CacheScope = McpSchema2026.CacheScope
export type SubscriptionFilter = McpSchema2026.SubscriptionFilter
export type InputRequest = McpSchema2026.InputRequest
export type InputRequiredResult = McpSchema2026.InputRequiredResult
