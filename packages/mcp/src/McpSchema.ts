/**
 * Model Context Protocol, spec revision 2025-11-25, as `effect/Schema` schemas.
 *
 * Every definition of the official JSON Schema (`schema/2025-11-25/schema.json`, 145 `$defs`)
 * is exported under its spec name, both as a schema value and as a type of the same name.
 *
 * Design:
 * - Type == Encoded for every schema: the decoded value is the plain JSON object that goes on the
 *   wire (no classes, no transformations), so values can be `JSON.stringify`-ed as-is.
 * - Optional fields are `Schema.optionalKey(...)` (`{ a?: X }`, no `undefined`).
 * - Decoding strips unknown keys of ordinary objects (Effect's default `onExcessProperty: "ignore"`);
 *   objects that are open-ended JSON by definition (`_meta`, `Result`, tool `inputSchema`, capability
 *   markers, `experimental`, ...) carry an index signature so unknown keys survive decoding.
 * - Method tables (`ClientRequests`, `ServerRequests`, `ClientNotifications`, `ServerNotifications`)
 *   map every method to its params schema (and result schema for requests).
 *
 * @example
 * ```ts
 * import * as McpSchema from "@effect-mcp/mcp/McpSchema"
 * import * as Schema from "effect/Schema"
 *
 * // a value is the plain JSON object that goes on the wire
 * const result: McpSchema.CallToolResult = { content: [{ type: "text", text: "hi" }] }
 * const decoded = Schema.decodeUnknownSync(McpSchema.CallToolResult)(JSON.parse(JSON.stringify(result)))
 *
 * // the method tables give the params and result schema of every method
 * const { params } = McpSchema.ClientRequests["tools/call"]
 * const call = Schema.decodeUnknownSync(params)({ name: "echo", arguments: { text: "hi" } })
 * ```
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

// -----------------------------------------------------------------------------
// Protocol versions & error codes
// -----------------------------------------------------------------------------

/**
 * The protocol revision implemented by this module.
 * @since 0.1.0
 * @category constants
 */
export const LATEST_PROTOCOL_VERSION = "2025-11-25" as const

/**
 * Protocol revisions this implementation can negotiate, newest first.
 * @since 0.1.0
 * @category constants
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const

/**
 * A protocol revision this implementation can negotiate.
 * @since 0.1.0
 * @category constants
 */
export type ProtocolVersion = typeof SUPPORTED_PROTOCOL_VERSIONS[number]

/**
 * Whether `version` is one of {@link SUPPORTED_PROTOCOL_VERSIONS}.
 * @since 0.1.0
 * @category guards
 */
export const isSupportedProtocolVersion = (version: string): version is ProtocolVersion =>
  (SUPPORTED_PROTOCOL_VERSIONS as ReadonlyArray<string>).includes(version)

/**
 * The JSON-RPC version string carried by every MCP message.
 * @since 0.1.0
 * @category constants
 */
export const JSONRPC_VERSION = "2.0" as const

/**
 * MCP error code: the server requires the client to complete one or more URL-mode elicitations first.
 * @since 0.1.0
 * @category constants
 */
export const URL_ELICITATION_REQUIRED = -32042 as const

/**
 * MCP error code: the requested resource does not exist (`resources/read`, `resources/subscribe`).
 * @since 0.1.0
 * @category constants
 */
export const RESOURCE_NOT_FOUND = -32002 as const

/**
 * `_meta` key under which {@link RelatedTaskMetadata} associates a message with a task.
 * @since 0.1.0
 * @category constants
 */
export const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task" as const

// -----------------------------------------------------------------------------
// Helpers
// -----------------------------------------------------------------------------

/** An exact optional property: `{ a?: X }` (never `undefined`, per `exactOptionalPropertyTypes`). */
const optional = <S extends Schema.Top>(schema: S) => Schema.optionalKey(schema)

/**
 * An arbitrary JSON object (`{ [key: string]: unknown }`); arrays and primitives are rejected.
 * @since 0.1.0
 * @category common
 */
export const JsonObject = Schema.Record(Schema.String, Schema.Unknown)
/** An arbitrary JSON object. */
export type JsonObject = typeof JsonObject.Type

/**
 * The `_meta` field found on most MCP objects: an open JSON object reserved for protocol metadata.
 * @since 0.1.0
 * @category common
 */
export const Meta = JsonObject
/** The `_meta` field found on most MCP objects. */
export type Meta = typeof Meta.Type

/** The `"2.0"` literal of every JSON-RPC message. */
const JsonRpcVersion = Schema.Literal(JSONRPC_VERSION)

/**
 * Any JSON value, for required members typed `unknown` (e.g. `LoggingMessageNotificationParams.data`):
 * rejects `undefined`, so that a missing member fails decoding (a plain `Schema.Unknown` would accept it).
 */
const JsonValue = Schema.Unknown.check(
  Schema.makeFilter((u) => u !== undefined || "Expected a JSON value, actual undefined")
)

/** A number in `[0, 1]` (spec `minimum: 0, maximum: 1`). */
const UnitInterval = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))

// -----------------------------------------------------------------------------
// Common types
// -----------------------------------------------------------------------------

/**
 * A progress token, used to associate progress notifications with the original request.
 * @since 0.1.0
 * @category common
 */
export const ProgressToken = Schema.Union([Schema.String, Schema.Int])
/** A progress token, used to associate progress notifications with the original request. */
export type ProgressToken = typeof ProgressToken.Type

/**
 * An opaque token used to represent a cursor for pagination.
 * @since 0.1.0
 * @category common
 */
export const Cursor = Schema.String
/** An opaque token used to represent a cursor for pagination. */
export type Cursor = typeof Cursor.Type

/**
 * A uniquely identifying ID for a request in JSON-RPC.
 * @since 0.1.0
 * @category common
 */
export const RequestId = Schema.Union([Schema.String, Schema.Int])
/** A uniquely identifying ID for a request in JSON-RPC. */
export type RequestId = typeof RequestId.Type

const RequestMeta_ = Schema.StructWithRest(Schema.Struct({ progressToken: optional(ProgressToken) }), [JsonObject])
/**
 * The schema type of {@link RequestMeta} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category common
 */
export interface RequestMetaSchema extends Schema.StructWithRest<typeof RequestMeta_.schema, typeof RequestMeta_.records> {}
/**
 * The `_meta` of request params: an open object that may carry a `progressToken`.
 * @since 0.1.0
 * @category common
 */
export const RequestMeta: RequestMetaSchema = RequestMeta_
/** The `_meta` of request params: an open object that may carry a `progressToken`. */
export interface RequestMeta extends Schema.Schema.Type<typeof RequestMeta> {}

/**
 * Common params for any request.
 * @since 0.1.0
 * @category common
 */
export const RequestParams = Schema.Struct({ _meta: optional(RequestMeta) })
/** Common params for any request. */
export interface RequestParams extends Schema.Schema.Type<typeof RequestParams> {}

/**
 * Metadata for augmenting a request with task execution (the `task` field of request params).
 * @since 0.1.0
 * @category common
 */
export const TaskMetadata = Schema.Struct({
  /** Requested duration in milliseconds to retain the task from creation. */
  ttl: optional(Schema.Int)
})
/** Metadata for augmenting a request with task execution (the `task` field of request params). */
export interface TaskMetadata extends Schema.Schema.Type<typeof TaskMetadata> {}

/**
 * Common params for any task-augmented request.
 * @since 0.1.0
 * @category common
 */
export const TaskAugmentedRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** If specified, the caller requests task-augmented execution (the response is a `CreateTaskResult`). */
  task: optional(TaskMetadata)
})
/** Common params for any task-augmented request. */
export interface TaskAugmentedRequestParams extends Schema.Schema.Type<typeof TaskAugmentedRequestParams> {}

/**
 * An MCP request (method + optional open params), without the JSON-RPC envelope.
 * @since 0.1.0
 * @category common
 */
export const Request = Schema.Struct({ method: Schema.String, params: optional(JsonObject) })
/** An MCP request (method + optional open params), without the JSON-RPC envelope. */
export interface Request extends Schema.Schema.Type<typeof Request> {}

/**
 * Common params for any notification.
 * @since 0.1.0
 * @category common
 */
export const NotificationParams = Schema.Struct({ _meta: optional(Meta) })
/** Common params for any notification. */
export interface NotificationParams extends Schema.Schema.Type<typeof NotificationParams> {}

/**
 * An MCP notification (method + optional open params), without the JSON-RPC envelope.
 * @since 0.1.0
 * @category common
 */
export const Notification = Schema.Struct({ method: Schema.String, params: optional(JsonObject) })
/** An MCP notification (method + optional open params), without the JSON-RPC envelope. */
export interface Notification extends Schema.Schema.Type<typeof Notification> {}

const Result_ = Schema.StructWithRest(Schema.Struct({ _meta: optional(Meta) }), [JsonObject])
/**
 * The schema type of {@link Result} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category common
 */
export interface ResultSchema extends Schema.StructWithRest<typeof Result_.schema, typeof Result_.records> {}
/**
 * A result of any request: an open object with optional `_meta` (unknown keys are preserved).
 * @since 0.1.0
 * @category common
 */
export const Result: ResultSchema = Result_
/** A result of any request: an open object with optional `_meta`. */
export interface Result extends Schema.Schema.Type<typeof Result> {}

/**
 * A response that indicates success but carries no data.
 * @since 0.1.0
 * @category common
 */
export const EmptyResult = Result
/** A response that indicates success but carries no data. */
export type EmptyResult = Result

/** A JSON-RPC error object (`code`, `message`, optional `data`). Exported as `Error`. */
const ErrorObject = Schema.Struct({
  /** The error type that occurred. */
  code: Schema.Int,
  /** A short description of the error. */
  message: Schema.String,
  /** Additional information about the error, defined by the sender. */
  data: optional(Schema.Unknown)
})
/** A JSON-RPC error object (`code`, `message`, optional `data`). Exported as `Error`. */
interface ErrorObject extends Schema.Schema.Type<typeof ErrorObject> {}
/**
 * `Error`: the JSON-RPC error object (`code`, `message`, optional `data`), under
 * its spec name.
 * @since 0.1.0
 * @category common
 */
export {
  /** A JSON-RPC error object (`code`, `message`, optional `data`). */
  ErrorObject as Error
}

/**
 * Common parameters for paginated requests.
 * @since 0.1.0
 * @category common
 */
export const PaginatedRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** An opaque token representing the current pagination position. */
  cursor: optional(Cursor)
})
/** Common parameters for paginated requests. */
export interface PaginatedRequestParams extends Schema.Schema.Type<typeof PaginatedRequestParams> {}

/**
 * Common fields of paginated results.
 * @since 0.1.0
 * @category common
 */
export const PaginatedResult = Schema.Struct({
  _meta: optional(Meta),
  /** An opaque token representing the pagination position after the last returned result. */
  nextCursor: optional(Cursor)
})
/** Common fields of paginated results. */
export interface PaginatedResult extends Schema.Schema.Type<typeof PaginatedResult> {}

/**
 * The sender or recipient of messages and data in a conversation.
 * @since 0.1.0
 * @category common
 */
export const Role = Schema.Literals(["assistant", "user"])
/** The sender or recipient of messages and data in a conversation. */
export type Role = typeof Role.Type

const Annotations_ = Schema.Struct({
  /** Who the intended audience of this object or data is. */
  audience: optional(Schema.Array(Role)),
  /** How important this data is for operating the server, from 0 (least) to 1 (most). */
  priority: optional(UnitInterval),
  /** The moment the resource was last modified, as an ISO 8601 formatted string. */
  lastModified: optional(Schema.String)
})
/**
 * The schema type of {@link Annotations} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category common
 */
export interface AnnotationsSchema extends Schema.Struct<typeof Annotations_.fields> {}
/**
 * Optional annotations for the client, informing how objects are used or displayed.
 * @since 0.1.0
 * @category common
 */
export const Annotations: AnnotationsSchema = Annotations_
/** Optional annotations for the client, informing how objects are used or displayed. */
export interface Annotations extends Schema.Schema.Type<typeof Annotations> {}

const Icon_ = Schema.Struct({
  /** A standard URI (HTTP/HTTPS URL or `data:` URI) pointing to an icon resource. */
  src: Schema.String,
  /** Optional MIME type override if the source MIME type is missing or generic. */
  mimeType: optional(Schema.String),
  /** Sizes at which the icon can be used (`"48x48"`, `"any"`, ...). */
  sizes: optional(Schema.Array(Schema.String)),
  /** The theme (background) this icon is designed for. */
  theme: optional(Schema.Literals(["dark", "light"]))
})
/**
 * The schema type of {@link Icon} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category common
 */
export interface IconSchema extends Schema.Struct<typeof Icon_.fields> {}
/**
 * An optionally-sized icon that can be displayed in a user interface.
 * @since 0.1.0
 * @category common
 */
export const Icon: IconSchema = Icon_
/** An optionally-sized icon that can be displayed in a user interface. */
export interface Icon extends Schema.Schema.Type<typeof Icon> {}

/**
 * Base interface to add an `icons` property.
 * @since 0.1.0
 * @category common
 */
export const Icons = Schema.Struct({
  /** Optional set of sized icons that the client can display in a user interface. */
  icons: optional(Schema.Array(Icon))
})
/** Base interface to add an `icons` property. */
export interface Icons extends Schema.Schema.Type<typeof Icons> {}

/**
 * Base interface for metadata with `name` (identifier) and `title` (display name).
 * @since 0.1.0
 * @category common
 */
export const BaseMetadata = Schema.Struct({
  /** Intended for programmatic or logical use; display fallback when `title` is absent. */
  name: Schema.String,
  /** Intended for UI and end-user contexts. */
  title: optional(Schema.String)
})
/** Base interface for metadata with `name` (identifier) and `title` (display name). */
export interface BaseMetadata extends Schema.Schema.Type<typeof BaseMetadata> {}

const Implementation_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  version: Schema.String,
  /** An optional human-readable description of what this implementation does. */
  description: optional(Schema.String),
  /** An optional URL of the website for this implementation. */
  websiteUrl: optional(Schema.String),
  icons: optional(Schema.Array(Icon))
})
/**
 * The schema type of {@link Implementation} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category common
 */
export interface ImplementationSchema extends Schema.Struct<typeof Implementation_.fields> {}
/**
 * Describes an MCP implementation (client or server).
 * @since 0.1.0
 * @category common
 */
export const Implementation: ImplementationSchema = Implementation_
/** Describes an MCP implementation (client or server). */
export interface Implementation extends Schema.Schema.Type<typeof Implementation> {}

// -----------------------------------------------------------------------------
// Content
// -----------------------------------------------------------------------------

const TextContent_ = Schema.Struct({
  type: Schema.Literal("text"),
  /** The text content of the message. */
  text: Schema.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link TextContent} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface TextContentSchema extends Schema.Struct<typeof TextContent_.fields> {}
/**
 * Text provided to or from an LLM.
 * @since 0.1.0
 * @category content
 */
export const TextContent: TextContentSchema = TextContent_
/** Text provided to or from an LLM. */
export interface TextContent extends Schema.Schema.Type<typeof TextContent> {}

const ImageContent_ = Schema.Struct({
  type: Schema.Literal("image"),
  /** The base64-encoded image data. */
  data: Schema.String,
  /** The MIME type of the image. */
  mimeType: Schema.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link ImageContent} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface ImageContentSchema extends Schema.Struct<typeof ImageContent_.fields> {}
/**
 * An image provided to or from an LLM.
 * @since 0.1.0
 * @category content
 */
export const ImageContent: ImageContentSchema = ImageContent_
/** An image provided to or from an LLM. */
export interface ImageContent extends Schema.Schema.Type<typeof ImageContent> {}

const AudioContent_ = Schema.Struct({
  type: Schema.Literal("audio"),
  /** The base64-encoded audio data. */
  data: Schema.String,
  /** The MIME type of the audio. */
  mimeType: Schema.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link AudioContent} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface AudioContentSchema extends Schema.Struct<typeof AudioContent_.fields> {}
/**
 * Audio provided to or from an LLM.
 * @since 0.1.0
 * @category content
 */
export const AudioContent: AudioContentSchema = AudioContent_
/** Audio provided to or from an LLM. */
export interface AudioContent extends Schema.Schema.Type<typeof AudioContent> {}

/**
 * The contents of a specific resource or sub-resource.
 * @since 0.1.0
 * @category content
 */
export const ResourceContents = Schema.Struct({
  /** The URI of this resource. */
  uri: Schema.String,
  /** The MIME type of this resource, if known. */
  mimeType: optional(Schema.String),
  _meta: optional(Meta)
})
/** The contents of a specific resource or sub-resource. */
export interface ResourceContents extends Schema.Schema.Type<typeof ResourceContents> {}

const TextResourceContents_ = Schema.Struct({
  ...ResourceContents.fields,
  /** The text of the item (only if it can actually be represented as text). */
  text: Schema.String
})
/**
 * The schema type of {@link TextResourceContents} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface TextResourceContentsSchema extends Schema.Struct<typeof TextResourceContents_.fields> {}
/**
 * Text contents of a resource.
 * @since 0.1.0
 * @category content
 */
export const TextResourceContents: TextResourceContentsSchema = TextResourceContents_
/** Text contents of a resource. */
export interface TextResourceContents extends Schema.Schema.Type<typeof TextResourceContents> {}

const BlobResourceContents_ = Schema.Struct({
  ...ResourceContents.fields,
  /** A base64-encoded string representing the binary data of the item. */
  blob: Schema.String
})
/**
 * The schema type of {@link BlobResourceContents} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface BlobResourceContentsSchema extends Schema.Struct<typeof BlobResourceContents_.fields> {}
/**
 * Binary (base64) contents of a resource.
 * @since 0.1.0
 * @category content
 */
export const BlobResourceContents: BlobResourceContentsSchema = BlobResourceContents_
/** Binary (base64) contents of a resource. */
export interface BlobResourceContents extends Schema.Schema.Type<typeof BlobResourceContents> {}

/** Text or blob resource contents (the `resource` of an `EmbeddedResource`, items of `ReadResourceResult.contents`). */
const TextOrBlobResourceContents = Schema.Union([TextResourceContents, BlobResourceContents])

const Resource_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(Icon)),
  /** The URI of this resource. */
  uri: Schema.String,
  /** A description of what this resource represents. */
  description: optional(Schema.String),
  /** The MIME type of this resource, if known. */
  mimeType: optional(Schema.String),
  annotations: optional(Annotations),
  /** The size of the raw resource content in bytes, if known. */
  size: optional(Schema.Int),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link Resource} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface ResourceSchema extends Schema.Struct<typeof Resource_.fields> {}
/**
 * A known resource that the server is capable of reading.
 * @since 0.1.0
 * @category content
 */
export const Resource: ResourceSchema = Resource_
/** A known resource that the server is capable of reading. */
export interface Resource extends Schema.Schema.Type<typeof Resource> {}

const ResourceLink_ = Schema.Struct({
  type: Schema.Literal("resource_link"),
  ...Resource.fields
})
/**
 * The schema type of {@link ResourceLink} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface ResourceLinkSchema extends Schema.Struct<typeof ResourceLink_.fields> {}
/**
 * A resource the server is capable of reading, included in a prompt or tool call result.
 * @since 0.1.0
 * @category content
 */
export const ResourceLink: ResourceLinkSchema = ResourceLink_
/** A resource the server is capable of reading, included in a prompt or tool call result. */
export interface ResourceLink extends Schema.Schema.Type<typeof ResourceLink> {}

const EmbeddedResource_ = Schema.Struct({
  type: Schema.Literal("resource"),
  resource: TextOrBlobResourceContents,
  annotations: optional(Annotations),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link EmbeddedResource} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface EmbeddedResourceSchema extends Schema.Struct<typeof EmbeddedResource_.fields> {}
/**
 * The contents of a resource, embedded into a prompt or tool call result.
 * @since 0.1.0
 * @category content
 */
export const EmbeddedResource: EmbeddedResourceSchema = EmbeddedResource_
/** The contents of a resource, embedded into a prompt or tool call result. */
export interface EmbeddedResource extends Schema.Schema.Type<typeof EmbeddedResource> {}

const ContentBlock_ = Schema.Union([TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource])
/**
 * The schema type of {@link ContentBlock} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface ContentBlockSchema extends Schema.Union<typeof ContentBlock_.members> {}
/**
 * Content of prompts and tool results: text, image, audio, resource link or embedded resource.
 * @since 0.1.0
 * @category content
 */
export const ContentBlock: ContentBlockSchema = ContentBlock_
/** Content of prompts and tool results: text, image, audio, resource link or embedded resource. */
export type ContentBlock = typeof ContentBlock.Type

const ToolUseContent_ = Schema.Struct({
  type: Schema.Literal("tool_use"),
  /** A unique identifier for this tool use, matched by `ToolResultContent.toolUseId`. */
  id: Schema.String,
  /** The name of the tool to call. */
  name: Schema.String,
  /** The arguments to pass to the tool, conforming to the tool's input schema. */
  input: JsonObject,
  _meta: optional(Meta)
})
/**
 * The schema type of {@link ToolUseContent} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface ToolUseContentSchema extends Schema.Struct<typeof ToolUseContent_.fields> {}
/**
 * A request from the assistant to call a tool (sampling with tools).
 * @since 0.1.0
 * @category content
 */
export const ToolUseContent: ToolUseContentSchema = ToolUseContent_
/** A request from the assistant to call a tool (sampling with tools). */
export interface ToolUseContent extends Schema.Schema.Type<typeof ToolUseContent> {}

const ToolResultContent_ = Schema.Struct({
  type: Schema.Literal("tool_result"),
  /** The ID of the tool use this result corresponds to. */
  toolUseId: Schema.String,
  /** The unstructured result content of the tool use. */
  content: Schema.Array(ContentBlock),
  /** An optional structured result object. */
  structuredContent: optional(JsonObject),
  /** Whether the tool use resulted in an error. */
  isError: optional(Schema.Boolean),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link ToolResultContent} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface ToolResultContentSchema extends Schema.Struct<typeof ToolResultContent_.fields> {}
/**
 * The result of a tool use, provided by the user back to the assistant.
 * @since 0.1.0
 * @category content
 */
export const ToolResultContent: ToolResultContentSchema = ToolResultContent_
/** The result of a tool use, provided by the user back to the assistant. */
export interface ToolResultContent extends Schema.Schema.Type<typeof ToolResultContent> {}

const SamplingMessageContentBlock_ = Schema.Union([
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent
])
/**
 * The schema type of {@link SamplingMessageContentBlock} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category content
 */
export interface SamplingMessageContentBlockSchema extends Schema.Union<typeof SamplingMessageContentBlock_.members> {}
/**
 * Content of sampling messages: text, image, audio, tool use or tool result.
 * @since 0.1.0
 * @category content
 */
export const SamplingMessageContentBlock: SamplingMessageContentBlockSchema = SamplingMessageContentBlock_
/** Content of sampling messages: text, image, audio, tool use or tool result. */
export type SamplingMessageContentBlock = typeof SamplingMessageContentBlock.Type

// -----------------------------------------------------------------------------
// Resources
// -----------------------------------------------------------------------------

/**
 * Common parameters when working with resources.
 * @since 0.1.0
 * @category resources
 */
export const ResourceRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The URI of the resource. */
  uri: Schema.String
})
/** Common parameters when working with resources. */
export interface ResourceRequestParams extends Schema.Schema.Type<typeof ResourceRequestParams> {}

/**
 * Parameters for a `resources/read` request.
 * @since 0.1.0
 * @category resources
 */
export const ReadResourceRequestParams = ResourceRequestParams
/** Parameters for a `resources/read` request. */
export interface ReadResourceRequestParams extends ResourceRequestParams {}

/**
 * Parameters for a `resources/subscribe` request.
 * @since 0.1.0
 * @category resources
 */
export const SubscribeRequestParams = ResourceRequestParams
/** Parameters for a `resources/subscribe` request. */
export interface SubscribeRequestParams extends ResourceRequestParams {}

/**
 * Parameters for a `resources/unsubscribe` request.
 * @since 0.1.0
 * @category resources
 */
export const UnsubscribeRequestParams = ResourceRequestParams
/** Parameters for a `resources/unsubscribe` request. */
export interface UnsubscribeRequestParams extends ResourceRequestParams {}

/**
 * The server's response to a `resources/list` request.
 * @since 0.1.0
 * @category resources
 */
export const ListResourcesResult = Schema.Struct({
  ...PaginatedResult.fields,
  resources: Schema.Array(Resource)
})
/** The server's response to a `resources/list` request. */
export interface ListResourcesResult extends Schema.Schema.Type<typeof ListResourcesResult> {}

const ResourceTemplate_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(Icon)),
  /** A URI template (RFC 6570) that can be used to construct resource URIs. */
  uriTemplate: Schema.String,
  /** A description of what this template is for. */
  description: optional(Schema.String),
  /** The MIME type for all resources that match this template, if uniform. */
  mimeType: optional(Schema.String),
  annotations: optional(Annotations),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link ResourceTemplate} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category resources
 */
export interface ResourceTemplateSchema extends Schema.Struct<typeof ResourceTemplate_.fields> {}
/**
 * A template description for resources available on the server.
 * @since 0.1.0
 * @category resources
 */
export const ResourceTemplate: ResourceTemplateSchema = ResourceTemplate_
/** A template description for resources available on the server. */
export interface ResourceTemplate extends Schema.Schema.Type<typeof ResourceTemplate> {}

/**
 * The server's response to a `resources/templates/list` request.
 * @since 0.1.0
 * @category resources
 */
export const ListResourceTemplatesResult = Schema.Struct({
  ...PaginatedResult.fields,
  resourceTemplates: Schema.Array(ResourceTemplate)
})
/** The server's response to a `resources/templates/list` request. */
export interface ListResourceTemplatesResult extends Schema.Schema.Type<typeof ListResourceTemplatesResult> {}

const ReadResourceResult_ = Schema.Struct({
  _meta: optional(Meta),
  contents: Schema.Array(TextOrBlobResourceContents)
})
/**
 * The schema type of {@link ReadResourceResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category resources
 */
export interface ReadResourceResultSchema extends Schema.Struct<typeof ReadResourceResult_.fields> {}
/**
 * The server's response to a `resources/read` request.
 * @since 0.1.0
 * @category resources
 */
export const ReadResourceResult: ReadResourceResultSchema = ReadResourceResult_
/** The server's response to a `resources/read` request. */
export interface ReadResourceResult extends Schema.Schema.Type<typeof ReadResourceResult> {}

/**
 * Parameters for a `notifications/resources/updated` notification.
 * @since 0.1.0
 * @category resources
 */
export const ResourceUpdatedNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The URI of the resource that has been updated (possibly a sub-resource of the subscribed one). */
  uri: Schema.String
})
/** Parameters for a `notifications/resources/updated` notification. */
export interface ResourceUpdatedNotificationParams
  extends Schema.Schema.Type<typeof ResourceUpdatedNotificationParams>
{}

// -----------------------------------------------------------------------------
// Prompts
// -----------------------------------------------------------------------------

/**
 * Describes an argument that a prompt can accept.
 * @since 0.1.0
 * @category prompts
 */
export const PromptArgument = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  /** A human-readable description of the argument. */
  description: optional(Schema.String),
  /** Whether this argument must be provided. */
  required: optional(Schema.Boolean)
})
/** Describes an argument that a prompt can accept. */
export interface PromptArgument extends Schema.Schema.Type<typeof PromptArgument> {}

const Prompt_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(Icon)),
  /** An optional description of what this prompt provides. */
  description: optional(Schema.String),
  /** A list of arguments to use for templating the prompt. */
  arguments: optional(Schema.Array(PromptArgument)),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link Prompt} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category prompts
 */
export interface PromptSchema extends Schema.Struct<typeof Prompt_.fields> {}
/**
 * A prompt or prompt template that the server offers.
 * @since 0.1.0
 * @category prompts
 */
export const Prompt: PromptSchema = Prompt_
/** A prompt or prompt template that the server offers. */
export interface Prompt extends Schema.Schema.Type<typeof Prompt> {}

/**
 * The server's response to a `prompts/list` request.
 * @since 0.1.0
 * @category prompts
 */
export const ListPromptsResult = Schema.Struct({
  ...PaginatedResult.fields,
  prompts: Schema.Array(Prompt)
})
/** The server's response to a `prompts/list` request. */
export interface ListPromptsResult extends Schema.Schema.Type<typeof ListPromptsResult> {}

/**
 * Parameters for a `prompts/get` request.
 * @since 0.1.0
 * @category prompts
 */
export const GetPromptRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The name of the prompt or prompt template. */
  name: Schema.String,
  /** Arguments to use for templating the prompt. */
  arguments: optional(Schema.Record(Schema.String, Schema.String))
})
/** Parameters for a `prompts/get` request. */
export interface GetPromptRequestParams extends Schema.Schema.Type<typeof GetPromptRequestParams> {}

/**
 * Describes a message returned as part of a prompt.
 * @since 0.1.0
 * @category prompts
 */
export const PromptMessage = Schema.Struct({
  role: Role,
  content: ContentBlock
})
/** Describes a message returned as part of a prompt. */
export interface PromptMessage extends Schema.Schema.Type<typeof PromptMessage> {}

/**
 * The server's response to a `prompts/get` request.
 * @since 0.1.0
 * @category prompts
 */
export const GetPromptResult = Schema.Struct({
  _meta: optional(Meta),
  /** An optional description for the prompt. */
  description: optional(Schema.String),
  messages: Schema.Array(PromptMessage)
})
/** The server's response to a `prompts/get` request. */
export interface GetPromptResult extends Schema.Schema.Type<typeof GetPromptResult> {}

// -----------------------------------------------------------------------------
// Tools
// -----------------------------------------------------------------------------

/**
 * Additional properties describing a Tool to clients (all are hints, never guarantees).
 * @since 0.1.0
 * @category tools
 */
export const ToolAnnotations = Schema.Struct({
  /** A human-readable title for the tool. */
  title: optional(Schema.String),
  /** If true, the tool does not modify its environment (default: false). */
  readOnlyHint: optional(Schema.Boolean),
  /** If true, the tool may perform destructive updates (default: true). */
  destructiveHint: optional(Schema.Boolean),
  /** If true, repeated calls with the same arguments have no additional effect (default: false). */
  idempotentHint: optional(Schema.Boolean),
  /** If true, the tool may interact with an "open world" of external entities (default: true). */
  openWorldHint: optional(Schema.Boolean)
})
/** Additional properties describing a Tool to clients (all are hints, never guarantees). */
export interface ToolAnnotations extends Schema.Schema.Type<typeof ToolAnnotations> {}

/**
 * Execution-related properties for a tool.
 * @since 0.1.0
 * @category tools
 */
export const ToolExecution = Schema.Struct({
  /** Whether the tool supports task-augmented execution (default: `"forbidden"`). */
  taskSupport: optional(Schema.Literals(["forbidden", "optional", "required"]))
})
/** Execution-related properties for a tool. */
export interface ToolExecution extends Schema.Schema.Type<typeof ToolExecution> {}

const ToolJsonSchema_ = Schema.StructWithRest(Schema.Struct({
  $schema: optional(Schema.String),
  type: Schema.Literal("object"),
  properties: optional(Schema.Record(Schema.String, JsonObject)),
  required: optional(Schema.Array(Schema.String))
}), [JsonObject])
/**
 * The schema type of {@link ToolJsonSchema} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category tools
 */
export interface ToolJsonSchemaSchema
  extends Schema.StructWithRest<typeof ToolJsonSchema_.schema, typeof ToolJsonSchema_.records>
{}
/**
 * A JSON Schema object with `type: "object"` at the root (tool input/output schemas); other keywords survive decoding.
 * @since 0.1.0
 * @category tools
 */
export const ToolJsonSchema: ToolJsonSchemaSchema = ToolJsonSchema_
/** A JSON Schema object with `type: "object"` at the root (tool input/output schemas). */
export interface ToolJsonSchema extends Schema.Schema.Type<typeof ToolJsonSchema> {}

const Tool_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(Icon)),
  /** A human-readable description of the tool. */
  description: optional(Schema.String),
  /** A JSON Schema object defining the expected parameters for the tool. */
  inputSchema: ToolJsonSchema,
  /** Execution-related properties for this tool. */
  execution: optional(ToolExecution),
  /** An optional JSON Schema object defining the structure of `CallToolResult.structuredContent`. */
  outputSchema: optional(ToolJsonSchema),
  /** Optional additional tool information. */
  annotations: optional(ToolAnnotations),
  _meta: optional(Meta)
})
/**
 * The schema type of {@link Tool} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category tools
 */
export interface ToolSchema extends Schema.Struct<typeof Tool_.fields> {}
/**
 * Definition for a tool the client can call.
 * @since 0.1.0
 * @category tools
 */
export const Tool: ToolSchema = Tool_
/** Definition for a tool the client can call. */
export interface Tool extends Schema.Schema.Type<typeof Tool> {}

/**
 * The server's response to a `tools/list` request.
 * @since 0.1.0
 * @category tools
 */
export const ListToolsResult = Schema.Struct({
  ...PaginatedResult.fields,
  tools: Schema.Array(Tool)
})
/** The server's response to a `tools/list` request. */
export interface ListToolsResult extends Schema.Schema.Type<typeof ListToolsResult> {}

const CallToolRequestParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The name of the tool. */
  name: Schema.String,
  /** Arguments to use for the tool call. */
  arguments: optional(JsonObject)
})
/**
 * The schema type of {@link CallToolRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category tools
 */
export interface CallToolRequestParamsSchema extends Schema.Struct<typeof CallToolRequestParams_.fields> {}
/**
 * Parameters for a `tools/call` request.
 * @since 0.1.0
 * @category tools
 */
export const CallToolRequestParams: CallToolRequestParamsSchema = CallToolRequestParams_
/** Parameters for a `tools/call` request. */
export interface CallToolRequestParams extends Schema.Schema.Type<typeof CallToolRequestParams> {}

const CallToolResult_ = Schema.Struct({
  _meta: optional(Meta),
  /** The unstructured result of the tool call. */
  content: Schema.Array(ContentBlock),
  /** An optional JSON object that represents the structured result of the tool call. */
  structuredContent: optional(JsonObject),
  /** Whether the tool call ended in an error (default: false). */
  isError: optional(Schema.Boolean)
})
/**
 * The schema type of {@link CallToolResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category tools
 */
export interface CallToolResultSchema extends Schema.Struct<typeof CallToolResult_.fields> {}
/**
 * The server's response to a tool call.
 * @since 0.1.0
 * @category tools
 */
export const CallToolResult: CallToolResultSchema = CallToolResult_
/** The server's response to a tool call. */
export interface CallToolResult extends Schema.Schema.Type<typeof CallToolResult> {}

// -----------------------------------------------------------------------------
// Tasks
// -----------------------------------------------------------------------------

/**
 * The status of a task.
 * @since 0.1.0
 * @category tasks
 */
export const TaskStatus = Schema.Literals(["cancelled", "completed", "failed", "input_required", "working"])
/** The status of a task. */
export type TaskStatus = typeof TaskStatus.Type

const Task_ = Schema.Struct({
  /** The task identifier. */
  taskId: Schema.String,
  /** Current task state. */
  status: TaskStatus,
  /** Optional human-readable message describing the current task state. */
  statusMessage: optional(Schema.String),
  /** ISO 8601 timestamp when the task was created. */
  createdAt: Schema.String,
  /** ISO 8601 timestamp when the task was last updated. */
  lastUpdatedAt: Schema.String,
  /** Actual retention duration from creation in milliseconds, `null` for unlimited. */
  ttl: Schema.NullOr(Schema.Int),
  /** Suggested polling interval in milliseconds. */
  pollInterval: optional(Schema.Int)
})
/**
 * The schema type of {@link Task} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category tasks
 */
export interface TaskSchema extends Schema.Struct<typeof Task_.fields> {}
/**
 * Data associated with a task.
 * @since 0.1.0
 * @category tasks
 */
export const Task: TaskSchema = Task_
/** Data associated with a task. */
export interface Task extends Schema.Schema.Type<typeof Task> {}

/**
 * Metadata associating a message with a task (under `_meta["io.modelcontextprotocol/related-task"]`).
 * @since 0.1.0
 * @category tasks
 */
export const RelatedTaskMetadata = Schema.Struct({
  /** The task identifier this message is associated with. */
  taskId: Schema.String
})
/** Metadata associating a message with a task (under `_meta["io.modelcontextprotocol/related-task"]`). */
export interface RelatedTaskMetadata extends Schema.Schema.Type<typeof RelatedTaskMetadata> {}

/**
 * A response to a task-augmented request.
 * @since 0.1.0
 * @category tasks
 */
export const CreateTaskResult = Schema.Struct({
  _meta: optional(Meta),
  task: Task
})
/** A response to a task-augmented request. */
export interface CreateTaskResult extends Schema.Schema.Type<typeof CreateTaskResult> {}

/**
 * Params of `tasks/get`, `tasks/result` and `tasks/cancel`. The spec lists only `taskId`; `_meta`
 * (as in every request) is also accepted, which the spec's open objects allow.
 * @since 0.1.0
 * @category tasks
 */
export const TaskIdRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The task identifier. */
  taskId: Schema.String
})
/** Params of `tasks/get`, `tasks/result` and `tasks/cancel`. */
export interface TaskIdRequestParams extends Schema.Schema.Type<typeof TaskIdRequestParams> {}

/**
 * Parameters for a `tasks/get` request.
 * @since 0.1.0
 * @category tasks
 */
export const GetTaskRequestParams = TaskIdRequestParams
/** Parameters for a `tasks/get` request. */
export interface GetTaskRequestParams extends TaskIdRequestParams {}

/**
 * Parameters for a `tasks/result` request.
 * @since 0.1.0
 * @category tasks
 */
export const GetTaskPayloadRequestParams = TaskIdRequestParams
/** Parameters for a `tasks/result` request. */
export interface GetTaskPayloadRequestParams extends TaskIdRequestParams {}

/**
 * Parameters for a `tasks/cancel` request.
 * @since 0.1.0
 * @category tasks
 */
export const CancelTaskRequestParams = TaskIdRequestParams
/** Parameters for a `tasks/cancel` request. */
export interface CancelTaskRequestParams extends TaskIdRequestParams {}

const GetTaskResult_ = Schema.Struct({ _meta: optional(Meta), ...Task.fields })
/**
 * The schema type of {@link GetTaskResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category tasks
 */
export interface GetTaskResultSchema extends Schema.Struct<typeof GetTaskResult_.fields> {}
/**
 * The response to a `tasks/get` request (`Result & Task`).
 * @since 0.1.0
 * @category tasks
 */
export const GetTaskResult: GetTaskResultSchema = GetTaskResult_
/** The response to a `tasks/get` request (`Result & Task`). */
export interface GetTaskResult extends Schema.Schema.Type<typeof GetTaskResult> {}

/**
 * The response to a `tasks/result` request: the result type of the original request (open object).
 * @since 0.1.0
 * @category tasks
 */
export const GetTaskPayloadResult = Result
/** The response to a `tasks/result` request: the result type of the original request (open object). */
export interface GetTaskPayloadResult extends Result {}

/**
 * The response to a `tasks/cancel` request (`Result & Task`).
 * @since 0.1.0
 * @category tasks
 */
export const CancelTaskResult = GetTaskResult
/** The response to a `tasks/cancel` request (`Result & Task`). */
export interface CancelTaskResult extends GetTaskResult {}

/**
 * The response to a `tasks/list` request.
 * @since 0.1.0
 * @category tasks
 */
export const ListTasksResult = Schema.Struct({
  ...PaginatedResult.fields,
  tasks: Schema.Array(Task)
})
/** The response to a `tasks/list` request. */
export interface ListTasksResult extends Schema.Schema.Type<typeof ListTasksResult> {}

/**
 * Parameters for a `notifications/tasks/status` notification (`NotificationParams & Task`).
 * @since 0.1.0
 * @category tasks
 */
export const TaskStatusNotificationParams = Schema.Struct({ _meta: optional(Meta), ...Task.fields })
/** Parameters for a `notifications/tasks/status` notification (`NotificationParams & Task`). */
export interface TaskStatusNotificationParams extends Schema.Schema.Type<typeof TaskStatusNotificationParams> {}

// -----------------------------------------------------------------------------
// Logging
// -----------------------------------------------------------------------------

/**
 * The severity of a log message (RFC 5424 syslog severities).
 * @since 0.1.0
 * @category logging
 */
export const LoggingLevel = Schema.Literals([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency"
])
/** The severity of a log message (RFC 5424 syslog severities). */
export type LoggingLevel = typeof LoggingLevel.Type

/**
 * Parameters for a `logging/setLevel` request.
 * @since 0.1.0
 * @category logging
 */
export const SetLevelRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The minimum level of logging the client wants to receive. */
  level: LoggingLevel
})
/** Parameters for a `logging/setLevel` request. */
export interface SetLevelRequestParams extends Schema.Schema.Type<typeof SetLevelRequestParams> {}

/**
 * Parameters for a `notifications/message` notification.
 * @since 0.1.0
 * @category logging
 */
export const LoggingMessageNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The severity of this log message. */
  level: LoggingLevel,
  /** An optional name of the logger issuing this message. */
  logger: optional(Schema.String),
  /** The data to be logged (any JSON serializable value). Required, but may be `null`. */
  data: JsonValue
})
/** Parameters for a `notifications/message` notification. */
export interface LoggingMessageNotificationParams extends Schema.Schema.Type<typeof LoggingMessageNotificationParams> {}

// -----------------------------------------------------------------------------
// Sampling
// -----------------------------------------------------------------------------

/**
 * Hints to use for model selection.
 * @since 0.1.0
 * @category sampling
 */
export const ModelHint = Schema.Struct({
  /** A hint for a model name (treated as a substring). */
  name: optional(Schema.String)
})
/** Hints to use for model selection. */
export interface ModelHint extends Schema.Schema.Type<typeof ModelHint> {}

/**
 * The server's preferences for model selection, requested of the client during sampling.
 * @since 0.1.0
 * @category sampling
 */
export const ModelPreferences = Schema.Struct({
  /** Optional hints to use for model selection, evaluated in order. */
  hints: optional(Schema.Array(ModelHint)),
  /** How much to prioritize cost (0..1). */
  costPriority: optional(UnitInterval),
  /** How much to prioritize sampling speed (0..1). */
  speedPriority: optional(UnitInterval),
  /** How much to prioritize intelligence and capabilities (0..1). */
  intelligencePriority: optional(UnitInterval)
})
/** The server's preferences for model selection, requested of the client during sampling. */
export interface ModelPreferences extends Schema.Schema.Type<typeof ModelPreferences> {}

/**
 * Controls tool selection behavior for sampling requests.
 * @since 0.1.0
 * @category sampling
 */
export const ToolChoice = Schema.Struct({
  /** `"auto"` (default): model decides; `"required"`: must use a tool; `"none"`: must not use tools. */
  mode: optional(Schema.Literals(["auto", "none", "required"]))
})
/** Controls tool selection behavior for sampling requests. */
export interface ToolChoice extends Schema.Schema.Type<typeof ToolChoice> {}

/** The content of a sampling message: a single block or an array of blocks. */
const SamplingContent = Schema.Union([
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent,
  Schema.Array(SamplingMessageContentBlock)
])

const SamplingMessage_ = Schema.Struct({
  role: Role,
  content: SamplingContent,
  _meta: optional(Meta)
})
/**
 * The schema type of {@link SamplingMessage} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category sampling
 */
export interface SamplingMessageSchema extends Schema.Struct<typeof SamplingMessage_.fields> {}
/**
 * Describes a message issued to or received from an LLM API.
 * @since 0.1.0
 * @category sampling
 */
export const SamplingMessage: SamplingMessageSchema = SamplingMessage_
/** Describes a message issued to or received from an LLM API. */
export interface SamplingMessage extends Schema.Schema.Type<typeof SamplingMessage> {}

const CreateMessageRequestParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  messages: Schema.Array(SamplingMessage),
  /** The server's preferences for which model to select. */
  modelPreferences: optional(ModelPreferences),
  /** An optional system prompt the server wants to use for sampling. */
  systemPrompt: optional(Schema.String),
  /** A request to include context from MCP servers (`"thisServer"`/`"allServers"` are soft-deprecated). */
  includeContext: optional(Schema.Literals(["allServers", "none", "thisServer"])),
  temperature: optional(Schema.Number),
  /** The requested maximum number of tokens to sample. */
  maxTokens: Schema.Int,
  stopSequences: optional(Schema.Array(Schema.String)),
  /** Optional provider-specific metadata to pass through to the LLM provider. */
  metadata: optional(JsonObject),
  /** Tools that the model may use during generation (requires `ClientCapabilities.sampling.tools`). */
  tools: optional(Schema.Array(Tool)),
  /** Controls how the model uses tools (requires `ClientCapabilities.sampling.tools`). */
  toolChoice: optional(ToolChoice)
})
/**
 * The schema type of {@link CreateMessageRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category sampling
 */
export interface CreateMessageRequestParamsSchema extends Schema.Struct<typeof CreateMessageRequestParams_.fields> {}
/**
 * Parameters for a `sampling/createMessage` request.
 * @since 0.1.0
 * @category sampling
 */
export const CreateMessageRequestParams: CreateMessageRequestParamsSchema = CreateMessageRequestParams_
/** Parameters for a `sampling/createMessage` request. */
export interface CreateMessageRequestParams extends Schema.Schema.Type<typeof CreateMessageRequestParams> {}

const CreateMessageResult_ = Schema.Struct({
  ...SamplingMessage.fields,
  /** The name of the model that generated the message. */
  model: Schema.String,
  /** Why sampling stopped: `"endTurn"`, `"stopSequence"`, `"maxTokens"`, `"toolUse"` or provider-specific. */
  stopReason: optional(Schema.String)
})
/**
 * The schema type of {@link CreateMessageResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category sampling
 */
export interface CreateMessageResultSchema extends Schema.Struct<typeof CreateMessageResult_.fields> {}
/**
 * The client's response to a `sampling/createMessage` request.
 * @since 0.1.0
 * @category sampling
 */
export const CreateMessageResult: CreateMessageResultSchema = CreateMessageResult_
/** The client's response to a `sampling/createMessage` request. */
export interface CreateMessageResult extends Schema.Schema.Type<typeof CreateMessageResult> {}

// -----------------------------------------------------------------------------
// Autocomplete
// -----------------------------------------------------------------------------

/**
 * Identifies a prompt.
 * @since 0.1.0
 * @category completion
 */
export const PromptReference = Schema.Struct({
  type: Schema.Literal("ref/prompt"),
  name: Schema.String,
  title: optional(Schema.String)
})
/** Identifies a prompt. */
export interface PromptReference extends Schema.Schema.Type<typeof PromptReference> {}

/**
 * A reference to a resource or resource template definition.
 * @since 0.1.0
 * @category completion
 */
export const ResourceTemplateReference = Schema.Struct({
  type: Schema.Literal("ref/resource"),
  /** The URI or URI template of the resource. */
  uri: Schema.String
})
/** A reference to a resource or resource template definition. */
export interface ResourceTemplateReference extends Schema.Schema.Type<typeof ResourceTemplateReference> {}

/**
 * Parameters for a `completion/complete` request.
 * @since 0.1.0
 * @category completion
 */
export const CompleteRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  ref: Schema.Union([PromptReference, ResourceTemplateReference]),
  /** The argument's information. */
  argument: Schema.Struct({
    /** The name of the argument. */
    name: Schema.String,
    /** The value of the argument to use for completion matching. */
    value: Schema.String
  }),
  /** Additional, optional context for completions. */
  context: optional(Schema.Struct({
    /** Previously-resolved variables in a URI template or prompt. */
    arguments: optional(Schema.Record(Schema.String, Schema.String))
  }))
})
/** Parameters for a `completion/complete` request. */
export interface CompleteRequestParams extends Schema.Schema.Type<typeof CompleteRequestParams> {}

/**
 * The server's response to a `completion/complete` request.
 * @since 0.1.0
 * @category completion
 */
export const CompleteResult = Schema.Struct({
  _meta: optional(Meta),
  completion: Schema.Struct({
    /** An array of completion values (must not exceed 100 items). */
    values: Schema.Array(Schema.String),
    /** The total number of completion options available. */
    total: optional(Schema.Int),
    /** Whether there are additional completion options beyond those provided. */
    hasMore: optional(Schema.Boolean)
  })
})
/** The server's response to a `completion/complete` request. */
export interface CompleteResult extends Schema.Schema.Type<typeof CompleteResult> {}

// -----------------------------------------------------------------------------
// Roots
// -----------------------------------------------------------------------------

/**
 * Represents a root directory or file that the server can operate on.
 * @since 0.1.0
 * @category roots
 */
export const Root = Schema.Struct({
  /** The URI identifying the root (must start with `file://` for now). */
  uri: Schema.String,
  /** An optional human-readable name for the root. */
  name: optional(Schema.String),
  _meta: optional(Meta)
})
/** Represents a root directory or file that the server can operate on. */
export interface Root extends Schema.Schema.Type<typeof Root> {}

/**
 * The client's response to a `roots/list` request.
 * @since 0.1.0
 * @category roots
 */
export const ListRootsResult = Schema.Struct({
  _meta: optional(Meta),
  roots: Schema.Array(Root)
})
/** The client's response to a `roots/list` request. */
export interface ListRootsResult extends Schema.Schema.Type<typeof ListRootsResult> {}

// -----------------------------------------------------------------------------
// Elicitation
// -----------------------------------------------------------------------------

/**
 * A string field of an elicitation form.
 * @since 0.1.0
 * @category elicitation
 */
export const StringSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  minLength: optional(Schema.Int),
  maxLength: optional(Schema.Int),
  format: optional(Schema.Literals(["date", "date-time", "email", "uri"])),
  default: optional(Schema.String)
})
/** A string field of an elicitation form. */
export interface StringSchema extends Schema.Schema.Type<typeof StringSchema> {}

/**
 * A number or integer field of an elicitation form.
 * @since 0.1.0
 * @category elicitation
 */
export const NumberSchema = Schema.Struct({
  type: Schema.Literals(["integer", "number"]),
  title: optional(Schema.String),
  description: optional(Schema.String),
  minimum: optional(Schema.Number),
  maximum: optional(Schema.Number),
  default: optional(Schema.Number)
})
/** A number or integer field of an elicitation form. */
export interface NumberSchema extends Schema.Schema.Type<typeof NumberSchema> {}

/**
 * A boolean field of an elicitation form.
 * @since 0.1.0
 * @category elicitation
 */
export const BooleanSchema = Schema.Struct({
  type: Schema.Literal("boolean"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  default: optional(Schema.Boolean)
})
/** A boolean field of an elicitation form. */
export interface BooleanSchema extends Schema.Schema.Type<typeof BooleanSchema> {}

/** An enum option with a display title (`{ const, title }`). */
const TitledEnumOption = Schema.Struct({
  /** The enum value. */
  const: Schema.String,
  /** Display label for this option. */
  title: Schema.String
})

/**
 * Schema for single-selection enumeration without display titles for options.
 * @since 0.1.0
 * @category elicitation
 */
export const UntitledSingleSelectEnumSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  /** Array of enum values to choose from. */
  enum: Schema.Array(Schema.String),
  default: optional(Schema.String)
})
/** Schema for single-selection enumeration without display titles for options. */
export interface UntitledSingleSelectEnumSchema extends Schema.Schema.Type<typeof UntitledSingleSelectEnumSchema> {}

/**
 * Schema for single-selection enumeration with display titles for each option.
 * @since 0.1.0
 * @category elicitation
 */
export const TitledSingleSelectEnumSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  /** Array of enum options with values and display labels. */
  oneOf: Schema.Array(TitledEnumOption),
  default: optional(Schema.String)
})
/** Schema for single-selection enumeration with display titles for each option. */
export interface TitledSingleSelectEnumSchema extends Schema.Schema.Type<typeof TitledSingleSelectEnumSchema> {}

/**
 * Single-selection enumeration, with or without display titles.
 * @since 0.1.0
 * @category elicitation
 */
export const SingleSelectEnumSchema = Schema.Union([UntitledSingleSelectEnumSchema, TitledSingleSelectEnumSchema])
/** Single-selection enumeration, with or without display titles. */
export type SingleSelectEnumSchema = typeof SingleSelectEnumSchema.Type

/**
 * Schema for multiple-selection enumeration without display titles for options.
 * @since 0.1.0
 * @category elicitation
 */
export const UntitledMultiSelectEnumSchema = Schema.Struct({
  type: Schema.Literal("array"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  /** Minimum number of items to select. */
  minItems: optional(Schema.Int),
  /** Maximum number of items to select. */
  maxItems: optional(Schema.Int),
  /** Schema for the array items. */
  items: Schema.Struct({
    type: Schema.Literal("string"),
    /** Array of enum values to choose from. */
    enum: Schema.Array(Schema.String)
  }),
  default: optional(Schema.Array(Schema.String))
})
/** Schema for multiple-selection enumeration without display titles for options. */
export interface UntitledMultiSelectEnumSchema extends Schema.Schema.Type<typeof UntitledMultiSelectEnumSchema> {}

/**
 * Schema for multiple-selection enumeration with display titles for each option.
 * @since 0.1.0
 * @category elicitation
 */
export const TitledMultiSelectEnumSchema = Schema.Struct({
  type: Schema.Literal("array"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  /** Minimum number of items to select. */
  minItems: optional(Schema.Int),
  /** Maximum number of items to select. */
  maxItems: optional(Schema.Int),
  /** Schema for array items with enum options and display labels. */
  items: Schema.Struct({
    /** Array of enum options with values and display labels. */
    anyOf: Schema.Array(TitledEnumOption)
  }),
  default: optional(Schema.Array(Schema.String))
})
/** Schema for multiple-selection enumeration with display titles for each option. */
export interface TitledMultiSelectEnumSchema extends Schema.Schema.Type<typeof TitledMultiSelectEnumSchema> {}

/**
 * Multiple-selection enumeration, with or without display titles.
 * @since 0.1.0
 * @category elicitation
 */
export const MultiSelectEnumSchema = Schema.Union([UntitledMultiSelectEnumSchema, TitledMultiSelectEnumSchema])
/** Multiple-selection enumeration, with or without display titles. */
export type MultiSelectEnumSchema = typeof MultiSelectEnumSchema.Type

/**
 * Deprecated: use `TitledSingleSelectEnumSchema`. Single-select enum with legacy `enumNames` display names.
 * @since 0.1.0
 * @category elicitation
 */
export const LegacyTitledEnumSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  enum: Schema.Array(Schema.String),
  /** (Legacy) Display names for enum values. */
  enumNames: optional(Schema.Array(Schema.String)),
  default: optional(Schema.String)
})
/** Deprecated: use `TitledSingleSelectEnumSchema`. Single-select enum with legacy `enumNames` display names. */
export interface LegacyTitledEnumSchema extends Schema.Schema.Type<typeof LegacyTitledEnumSchema> {}

/**
 * Any enum schema of an elicitation form.
 *
 * Member order differs from the spec's `anyOf` on purpose: decoding takes the first matching member
 * and strips unknown keys, so `LegacyTitledEnumSchema` (a superset of the untitled single-select
 * schema) must be tried first or its `enumNames` would be dropped. The type is the same union.
 * @since 0.1.0
 * @category elicitation
 */
export const EnumSchema = Schema.Union([
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema
])
/** Any enum schema of an elicitation form. */
export type EnumSchema = typeof EnumSchema.Type

const PrimitiveSchemaDefinition_ = Schema.Union([
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema,
  StringSchema,
  NumberSchema,
  BooleanSchema
])
/**
 * The schema type of {@link PrimitiveSchemaDefinition} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category elicitation
 */
export interface PrimitiveSchemaDefinitionSchema extends Schema.Union<typeof PrimitiveSchemaDefinition_.members> {}
/**
 * Restricted schema definitions that only allow primitive types without nested objects or arrays.
 *
 * Enum schemas come before `StringSchema` (their `type` is also `"string"`) so that decoding keeps
 * `enum`/`oneOf`; see {@link EnumSchema} for the ordering rationale.
 * @since 0.1.0
 * @category elicitation
 */
export const PrimitiveSchemaDefinition: PrimitiveSchemaDefinitionSchema = PrimitiveSchemaDefinition_
/** Restricted schema definitions that only allow primitive types without nested objects or arrays. */
export type PrimitiveSchemaDefinition = typeof PrimitiveSchemaDefinition.Type

/**
 * The restricted JSON Schema of an elicitation form: flat `properties` of primitive schemas.
 * @since 0.1.0
 * @category elicitation
 */
export const ElicitRequestedSchema = Schema.Struct({
  $schema: optional(Schema.String),
  type: Schema.Literal("object"),
  properties: Schema.Record(Schema.String, PrimitiveSchemaDefinition),
  required: optional(Schema.Array(Schema.String))
})
/** The restricted JSON Schema of an elicitation form. */
export interface ElicitRequestedSchema extends Schema.Schema.Type<typeof ElicitRequestedSchema> {}

const ElicitRequestFormParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The elicitation mode (`"form"` when absent). */
  mode: optional(Schema.Literal("form")),
  /** The message to present to the user describing what information is being requested. */
  message: Schema.String,
  /** A restricted subset of JSON Schema: only top-level properties, without nesting. */
  requestedSchema: ElicitRequestedSchema
})
/**
 * The schema type of {@link ElicitRequestFormParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category elicitation
 */
export interface ElicitRequestFormParamsSchema extends Schema.Struct<typeof ElicitRequestFormParams_.fields> {}
/**
 * The parameters for a request to elicit non-sensitive information from the user via a form.
 * @since 0.1.0
 * @category elicitation
 */
export const ElicitRequestFormParams: ElicitRequestFormParamsSchema = ElicitRequestFormParams_
/** The parameters for a request to elicit non-sensitive information from the user via a form. */
export interface ElicitRequestFormParams extends Schema.Schema.Type<typeof ElicitRequestFormParams> {}

const ElicitRequestURLParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The elicitation mode. */
  mode: Schema.Literal("url"),
  /** The message to present to the user explaining why the interaction is needed. */
  message: Schema.String,
  /** The ID of the elicitation, unique within the server; opaque to the client. */
  elicitationId: Schema.String,
  /** The URL that the user should navigate to. */
  url: Schema.String
})
/**
 * The schema type of {@link ElicitRequestURLParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category elicitation
 */
export interface ElicitRequestURLParamsSchema extends Schema.Struct<typeof ElicitRequestURLParams_.fields> {}
/**
 * The parameters for a request to elicit information from the user via a URL (out-of-band).
 * @since 0.1.0
 * @category elicitation
 */
export const ElicitRequestURLParams: ElicitRequestURLParamsSchema = ElicitRequestURLParams_
/** The parameters for a request to elicit information from the user via a URL (out-of-band). */
export interface ElicitRequestURLParams extends Schema.Schema.Type<typeof ElicitRequestURLParams> {}

const ElicitRequestParams_ = Schema.Union([ElicitRequestURLParams, ElicitRequestFormParams])
/**
 * The schema type of {@link ElicitRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category elicitation
 */
export interface ElicitRequestParamsSchema extends Schema.Union<typeof ElicitRequestParams_.members> {}
/**
 * The parameters for an `elicitation/create` request: URL mode or form mode.
 * @since 0.1.0
 * @category elicitation
 */
export const ElicitRequestParams: ElicitRequestParamsSchema = ElicitRequestParams_
/** The parameters for an `elicitation/create` request: URL mode or form mode. */
export type ElicitRequestParams = typeof ElicitRequestParams.Type

const ElicitResult_ = Schema.Struct({
  _meta: optional(Meta),
  /** `"accept"`: submitted; `"decline"`: explicitly declined; `"cancel"`: dismissed. */
  action: Schema.Literals(["accept", "cancel", "decline"]),
  /** The submitted form data, only present when action is `"accept"` and mode was `"form"`. */
  content: optional(
    Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String)]))
  )
})
/**
 * The schema type of {@link ElicitResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category elicitation
 */
export interface ElicitResultSchema extends Schema.Struct<typeof ElicitResult_.fields> {}
/**
 * The client's response to an elicitation request.
 *
 * `content` values accept any number: the JSON schema says `integer` but the TypeScript spec (and
 * `NumberSchema` with `type: "number"`) allow fractional numbers, so decoding is deliberately lenient.
 * @since 0.1.0
 * @category elicitation
 */
export const ElicitResult: ElicitResultSchema = ElicitResult_
/** The client's response to an elicitation request. */
export interface ElicitResult extends Schema.Schema.Type<typeof ElicitResult> {}

/**
 * Parameters for a `notifications/elicitation/complete` notification.
 * @since 0.1.0
 * @category elicitation
 */
export const ElicitationCompleteNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The ID of the elicitation that completed. */
  elicitationId: Schema.String
})
/** Parameters for a `notifications/elicitation/complete` notification. */
export interface ElicitationCompleteNotificationParams
  extends Schema.Schema.Type<typeof ElicitationCompleteNotificationParams>
{}

// -----------------------------------------------------------------------------
// Initialization & capabilities
// -----------------------------------------------------------------------------

const ClientCapabilities_ = Schema.Struct({
  /** Experimental, non-standard capabilities that the client supports. */
  experimental: optional(Schema.Record(Schema.String, JsonObject)),
  /**
   * Extensions the client supports, by extension identifier (SEP-2133; e.g. MCP Apps'
   * `io.modelcontextprotocol/ui`). Not in the 2025-11-25 schema, whose capabilities are open
   * objects: declared by 2025 clients of the extensions (the official SDKs) and kept here.
   */
  extensions: optional(Schema.Record(Schema.String, JsonObject)),
  /** Present if the client supports listing roots. */
  roots: optional(Schema.Struct({
    /** Whether the client supports notifications for changes to the roots list. */
    listChanged: optional(Schema.Boolean)
  })),
  /** Present if the client supports sampling from an LLM. */
  sampling: optional(Schema.Struct({
    /** Whether the client supports context inclusion via `includeContext`. */
    context: optional(JsonObject),
    /** Whether the client supports tool use via `tools` and `toolChoice`. */
    tools: optional(JsonObject)
  })),
  /** Present if the client supports elicitation from the server (`{}` means form mode only). */
  elicitation: optional(Schema.Struct({
    form: optional(JsonObject),
    url: optional(JsonObject)
  })),
  /** Present if the client supports task-augmented requests. */
  tasks: optional(Schema.Struct({
    /** Whether this client supports `tasks/list`. */
    list: optional(JsonObject),
    /** Whether this client supports `tasks/cancel`. */
    cancel: optional(JsonObject),
    /** Which request types can be augmented with tasks. */
    requests: optional(Schema.Struct({
      sampling: optional(Schema.Struct({
        /** Whether the client supports task-augmented `sampling/createMessage`. */
        createMessage: optional(JsonObject)
      })),
      elicitation: optional(Schema.Struct({
        /** Whether the client supports task-augmented `elicitation/create`. */
        create: optional(JsonObject)
      }))
    }))
  }))
})
/**
 * The schema type of {@link ClientCapabilities} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category initialization
 */
export interface ClientCapabilitiesSchema extends Schema.Struct<typeof ClientCapabilities_.fields> {}
/**
 * Capabilities a client may support.
 * @since 0.1.0
 * @category initialization
 */
export const ClientCapabilities: ClientCapabilitiesSchema = ClientCapabilities_
/** Capabilities a client may support. */
export interface ClientCapabilities extends Schema.Schema.Type<typeof ClientCapabilities> {}

const ServerCapabilities_ = Schema.Struct({
  /** Experimental, non-standard capabilities that the server supports. */
  experimental: optional(Schema.Record(Schema.String, JsonObject)),
  /** Extensions the server supports, by extension identifier (SEP-2133; see `ClientCapabilities.extensions`). */
  extensions: optional(Schema.Record(Schema.String, JsonObject)),
  /** Present if the server supports sending log messages to the client. */
  logging: optional(JsonObject),
  /** Present if the server supports argument autocompletion suggestions. */
  completions: optional(JsonObject),
  /** Present if the server offers any prompt templates. */
  prompts: optional(Schema.Struct({
    /** Whether this server supports notifications for changes to the prompt list. */
    listChanged: optional(Schema.Boolean)
  })),
  /** Present if the server offers any resources to read. */
  resources: optional(Schema.Struct({
    /** Whether this server supports subscribing to resource updates. */
    subscribe: optional(Schema.Boolean),
    /** Whether this server supports notifications for changes to the resource list. */
    listChanged: optional(Schema.Boolean)
  })),
  /** Present if the server offers any tools to call. */
  tools: optional(Schema.Struct({
    /** Whether this server supports notifications for changes to the tool list. */
    listChanged: optional(Schema.Boolean)
  })),
  /** Present if the server supports task-augmented requests. */
  tasks: optional(Schema.Struct({
    /** Whether this server supports `tasks/list`. */
    list: optional(JsonObject),
    /** Whether this server supports `tasks/cancel`. */
    cancel: optional(JsonObject),
    /** Which request types can be augmented with tasks. */
    requests: optional(Schema.Struct({
      tools: optional(Schema.Struct({
        /** Whether the server supports task-augmented `tools/call`. */
        call: optional(JsonObject)
      }))
    }))
  }))
})
/**
 * The schema type of {@link ServerCapabilities} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category initialization
 */
export interface ServerCapabilitiesSchema extends Schema.Struct<typeof ServerCapabilities_.fields> {}
/**
 * Capabilities that a server may support.
 * @since 0.1.0
 * @category initialization
 */
export const ServerCapabilities: ServerCapabilitiesSchema = ServerCapabilities_
/** Capabilities that a server may support. */
export interface ServerCapabilities extends Schema.Schema.Type<typeof ServerCapabilities> {}

const InitializeRequestParams_ = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The latest protocol version the client supports. */
  protocolVersion: Schema.String,
  capabilities: ClientCapabilities,
  clientInfo: Implementation
})
/**
 * The schema type of {@link InitializeRequestParams} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category initialization
 */
export interface InitializeRequestParamsSchema extends Schema.Struct<typeof InitializeRequestParams_.fields> {}
/**
 * Parameters for an `initialize` request.
 * @since 0.1.0
 * @category initialization
 */
export const InitializeRequestParams: InitializeRequestParamsSchema = InitializeRequestParams_
/** Parameters for an `initialize` request. */
export interface InitializeRequestParams extends Schema.Schema.Type<typeof InitializeRequestParams> {}

const InitializeResult_ = Schema.Struct({
  _meta: optional(Meta),
  /** The protocol version the server wants to use (the client MUST disconnect if unsupported). */
  protocolVersion: Schema.String,
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
  /** Instructions describing how to use the server and its features. */
  instructions: optional(Schema.String)
})
/**
 * The schema type of {@link InitializeResult} (a named interface keeps declaration output small).
 * @since 0.1.0
 * @category initialization
 */
export interface InitializeResultSchema extends Schema.Struct<typeof InitializeResult_.fields> {}
/**
 * The server's response to an `initialize` request.
 * @since 0.1.0
 * @category initialization
 */
export const InitializeResult: InitializeResultSchema = InitializeResult_
/** The server's response to an `initialize` request. */
export interface InitializeResult extends Schema.Schema.Type<typeof InitializeResult> {}

// -----------------------------------------------------------------------------
// Notifications params
// -----------------------------------------------------------------------------

/**
 * Parameters for a `notifications/cancelled` notification.
 * @since 0.1.0
 * @category notifications
 */
export const CancelledNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The ID of the request to cancel (required for non-task requests; not for tasks). */
  requestId: optional(RequestId),
  /** An optional reason for the cancellation. */
  reason: optional(Schema.String)
})
/** Parameters for a `notifications/cancelled` notification. */
export interface CancelledNotificationParams extends Schema.Schema.Type<typeof CancelledNotificationParams> {}

/**
 * Parameters for a `notifications/progress` notification.
 * @since 0.1.0
 * @category notifications
 */
export const ProgressNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The progress token given in the initial request. */
  progressToken: ProgressToken,
  /** The progress thus far (should increase every time progress is made). */
  progress: Schema.Number,
  /** Total number of items to process (or total progress required), if known. */
  total: optional(Schema.Number),
  /** An optional message describing the current progress. */
  message: optional(Schema.String)
})
/** Parameters for a `notifications/progress` notification. */
export interface ProgressNotificationParams extends Schema.Schema.Type<typeof ProgressNotificationParams> {}

// -----------------------------------------------------------------------------
// Requests & notifications (with their JSON-RPC envelope, as in the spec)
// -----------------------------------------------------------------------------

const jsonRpcRequest = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema.Literal(method), params })

const jsonRpcRequestOptionalParams = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema.Literal(method), params: optional(params) })

const jsonRpcNotification = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params })

const jsonRpcNotificationOptionalParams = <M extends string, P extends Schema.Top>(method: M, params: P) =>
  Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params: optional(params) })

/**
 * A paginated JSON-RPC request (any method, optional `PaginatedRequestParams`).
 * @since 0.1.0
 * @category messages
 */
export const PaginatedRequest = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema.String,
  params: optional(PaginatedRequestParams)
})
/** A paginated JSON-RPC request (any method, optional `PaginatedRequestParams`). */
export interface PaginatedRequest extends Schema.Schema.Type<typeof PaginatedRequest> {}

/**
 * Sent from the client when it first connects, asking the server to begin initialization.
 * @since 0.1.0
 * @category messages
 */
export const InitializeRequest = jsonRpcRequest("initialize", InitializeRequestParams)
/** Sent from the client when it first connects, asking the server to begin initialization. */
export interface InitializeRequest extends Schema.Schema.Type<typeof InitializeRequest> {}

/**
 * A ping, issued by either side to check that the other party is still alive.
 * @since 0.1.0
 * @category messages
 */
export const PingRequest = jsonRpcRequestOptionalParams("ping", RequestParams)
/** A ping, issued by either side to check that the other party is still alive. */
export interface PingRequest extends Schema.Schema.Type<typeof PingRequest> {}

/**
 * Sent from the client to request a list of resources the server has.
 * @since 0.1.0
 * @category messages
 */
export const ListResourcesRequest = jsonRpcRequestOptionalParams("resources/list", PaginatedRequestParams)
/** Sent from the client to request a list of resources the server has. */
export interface ListResourcesRequest extends Schema.Schema.Type<typeof ListResourcesRequest> {}

/**
 * Sent from the client to request a list of resource templates the server has.
 * @since 0.1.0
 * @category messages
 */
export const ListResourceTemplatesRequest = jsonRpcRequestOptionalParams(
  "resources/templates/list",
  PaginatedRequestParams
)
/** Sent from the client to request a list of resource templates the server has. */
export interface ListResourceTemplatesRequest extends Schema.Schema.Type<typeof ListResourceTemplatesRequest> {}

/**
 * Sent from the client to the server, to read a specific resource URI.
 * @since 0.1.0
 * @category messages
 */
export const ReadResourceRequest = jsonRpcRequest("resources/read", ReadResourceRequestParams)
/** Sent from the client to the server, to read a specific resource URI. */
export interface ReadResourceRequest extends Schema.Schema.Type<typeof ReadResourceRequest> {}

/**
 * Sent from the client to request `notifications/resources/updated` whenever a resource changes.
 * @since 0.1.0
 * @category messages
 */
export const SubscribeRequest = jsonRpcRequest("resources/subscribe", SubscribeRequestParams)
/** Sent from the client to request `notifications/resources/updated` whenever a resource changes. */
export interface SubscribeRequest extends Schema.Schema.Type<typeof SubscribeRequest> {}

/**
 * Sent from the client to cancel a previous `resources/subscribe`.
 * @since 0.1.0
 * @category messages
 */
export const UnsubscribeRequest = jsonRpcRequest("resources/unsubscribe", UnsubscribeRequestParams)
/** Sent from the client to cancel a previous `resources/subscribe`. */
export interface UnsubscribeRequest extends Schema.Schema.Type<typeof UnsubscribeRequest> {}

/**
 * Sent from the client to request a list of prompts and prompt templates the server has.
 * @since 0.1.0
 * @category messages
 */
export const ListPromptsRequest = jsonRpcRequestOptionalParams("prompts/list", PaginatedRequestParams)
/** Sent from the client to request a list of prompts and prompt templates the server has. */
export interface ListPromptsRequest extends Schema.Schema.Type<typeof ListPromptsRequest> {}

/**
 * Used by the client to get a prompt provided by the server.
 * @since 0.1.0
 * @category messages
 */
export const GetPromptRequest = jsonRpcRequest("prompts/get", GetPromptRequestParams)
/** Used by the client to get a prompt provided by the server. */
export interface GetPromptRequest extends Schema.Schema.Type<typeof GetPromptRequest> {}

/**
 * Sent from the client to request a list of tools the server has.
 * @since 0.1.0
 * @category messages
 */
export const ListToolsRequest = jsonRpcRequestOptionalParams("tools/list", PaginatedRequestParams)
/** Sent from the client to request a list of tools the server has. */
export interface ListToolsRequest extends Schema.Schema.Type<typeof ListToolsRequest> {}

/**
 * Used by the client to invoke a tool provided by the server.
 * @since 0.1.0
 * @category messages
 */
export const CallToolRequest = jsonRpcRequest("tools/call", CallToolRequestParams)
/** Used by the client to invoke a tool provided by the server. */
export interface CallToolRequest extends Schema.Schema.Type<typeof CallToolRequest> {}

/**
 * A request to retrieve the state of a task.
 * @since 0.1.0
 * @category messages
 */
export const GetTaskRequest = jsonRpcRequest("tasks/get", GetTaskRequestParams)
/** A request to retrieve the state of a task. */
export interface GetTaskRequest extends Schema.Schema.Type<typeof GetTaskRequest> {}

/**
 * A request to retrieve the result of a completed task.
 * @since 0.1.0
 * @category messages
 */
export const GetTaskPayloadRequest = jsonRpcRequest("tasks/result", GetTaskPayloadRequestParams)
/** A request to retrieve the result of a completed task. */
export interface GetTaskPayloadRequest extends Schema.Schema.Type<typeof GetTaskPayloadRequest> {}

/**
 * A request to cancel a task.
 * @since 0.1.0
 * @category messages
 */
export const CancelTaskRequest = jsonRpcRequest("tasks/cancel", CancelTaskRequestParams)
/** A request to cancel a task. */
export interface CancelTaskRequest extends Schema.Schema.Type<typeof CancelTaskRequest> {}

/**
 * A request to retrieve a list of tasks.
 * @since 0.1.0
 * @category messages
 */
export const ListTasksRequest = jsonRpcRequestOptionalParams("tasks/list", PaginatedRequestParams)
/** A request to retrieve a list of tasks. */
export interface ListTasksRequest extends Schema.Schema.Type<typeof ListTasksRequest> {}

/**
 * A request from the client to the server, to enable or adjust logging.
 * @since 0.1.0
 * @category messages
 */
export const SetLevelRequest = jsonRpcRequest("logging/setLevel", SetLevelRequestParams)
/** A request from the client to the server, to enable or adjust logging. */
export interface SetLevelRequest extends Schema.Schema.Type<typeof SetLevelRequest> {}

/**
 * A request from the client to the server, to ask for completion options.
 * @since 0.1.0
 * @category messages
 */
export const CompleteRequest = jsonRpcRequest("completion/complete", CompleteRequestParams)
/** A request from the client to the server, to ask for completion options. */
export interface CompleteRequest extends Schema.Schema.Type<typeof CompleteRequest> {}

/**
 * A request from the server to sample an LLM via the client.
 * @since 0.1.0
 * @category messages
 */
export const CreateMessageRequest = jsonRpcRequest("sampling/createMessage", CreateMessageRequestParams)
/** A request from the server to sample an LLM via the client. */
export interface CreateMessageRequest extends Schema.Schema.Type<typeof CreateMessageRequest> {}

/**
 * Sent from the server to request the list of root URIs from the client.
 * @since 0.1.0
 * @category messages
 */
export const ListRootsRequest = jsonRpcRequestOptionalParams("roots/list", RequestParams)
/** Sent from the server to request the list of root URIs from the client. */
export interface ListRootsRequest extends Schema.Schema.Type<typeof ListRootsRequest> {}

/**
 * A request from the server to elicit additional information from the user via the client.
 * @since 0.1.0
 * @category messages
 */
export const ElicitRequest = jsonRpcRequest("elicitation/create", ElicitRequestParams)
/** A request from the server to elicit additional information from the user via the client. */
export interface ElicitRequest extends Schema.Schema.Type<typeof ElicitRequest> {}

/**
 * Sent by either side to cancel a previously-issued request.
 * @since 0.1.0
 * @category messages
 */
export const CancelledNotification = jsonRpcNotification("notifications/cancelled", CancelledNotificationParams)
/** Sent by either side to cancel a previously-issued request. */
export interface CancelledNotification extends Schema.Schema.Type<typeof CancelledNotification> {}

/**
 * Sent from the client to the server after initialization has finished.
 * @since 0.1.0
 * @category messages
 */
export const InitializedNotification = jsonRpcNotificationOptionalParams(
  "notifications/initialized",
  NotificationParams
)
/** Sent from the client to the server after initialization has finished. */
export interface InitializedNotification extends Schema.Schema.Type<typeof InitializedNotification> {}

/**
 * An out-of-band progress update for a long-running request.
 * @since 0.1.0
 * @category messages
 */
export const ProgressNotification = jsonRpcNotification("notifications/progress", ProgressNotificationParams)
/** An out-of-band progress update for a long-running request. */
export interface ProgressNotification extends Schema.Schema.Type<typeof ProgressNotification> {}

/**
 * Informs the client that the list of resources the server offers has changed.
 * @since 0.1.0
 * @category messages
 */
export const ResourceListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/resources/list_changed",
  NotificationParams
)
/** Informs the client that the list of resources the server offers has changed. */
export interface ResourceListChangedNotification extends Schema.Schema.Type<typeof ResourceListChangedNotification> {}

/**
 * Informs the client that a subscribed resource has changed and may need to be read again.
 * @since 0.1.0
 * @category messages
 */
export const ResourceUpdatedNotification = jsonRpcNotification(
  "notifications/resources/updated",
  ResourceUpdatedNotificationParams
)
/** Informs the client that a subscribed resource has changed and may need to be read again. */
export interface ResourceUpdatedNotification extends Schema.Schema.Type<typeof ResourceUpdatedNotification> {}

/**
 * Informs the client that the list of prompts the server offers has changed.
 * @since 0.1.0
 * @category messages
 */
export const PromptListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/prompts/list_changed",
  NotificationParams
)
/** Informs the client that the list of prompts the server offers has changed. */
export interface PromptListChangedNotification extends Schema.Schema.Type<typeof PromptListChangedNotification> {}

/**
 * Informs the client that the list of tools the server offers has changed.
 * @since 0.1.0
 * @category messages
 */
export const ToolListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/tools/list_changed",
  NotificationParams
)
/** Informs the client that the list of tools the server offers has changed. */
export interface ToolListChangedNotification extends Schema.Schema.Type<typeof ToolListChangedNotification> {}

/**
 * Informs the requestor that a task's status has changed.
 * @since 0.1.0
 * @category messages
 */
export const TaskStatusNotification = jsonRpcNotification("notifications/tasks/status", TaskStatusNotificationParams)
/** Informs the requestor that a task's status has changed. */
export interface TaskStatusNotification extends Schema.Schema.Type<typeof TaskStatusNotification> {}

/**
 * A log message passed from server to client.
 * @since 0.1.0
 * @category messages
 */
export const LoggingMessageNotification = jsonRpcNotification(
  "notifications/message",
  LoggingMessageNotificationParams
)
/** A log message passed from server to client. */
export interface LoggingMessageNotification extends Schema.Schema.Type<typeof LoggingMessageNotification> {}

/**
 * Informs the client that an out-of-band (URL-mode) elicitation has completed.
 * @since 0.1.0
 * @category messages
 */
export const ElicitationCompleteNotification = jsonRpcNotification(
  "notifications/elicitation/complete",
  ElicitationCompleteNotificationParams
)
/** Informs the client that an out-of-band (URL-mode) elicitation has completed. */
export interface ElicitationCompleteNotification extends Schema.Schema.Type<typeof ElicitationCompleteNotification> {}

/**
 * Informs the server that the client's list of roots has changed.
 * @since 0.1.0
 * @category messages
 */
export const RootsListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/roots/list_changed",
  NotificationParams
)
/** Informs the server that the client's list of roots has changed. */
export interface RootsListChangedNotification extends Schema.Schema.Type<typeof RootsListChangedNotification> {}

// -----------------------------------------------------------------------------
// Message unions per direction
// -----------------------------------------------------------------------------

/**
 * Any request a client sends to a server.
 * @since 0.1.0
 * @category messages
 */
export const ClientRequest = Schema.Union([
  InitializeRequest,
  PingRequest,
  ListResourcesRequest,
  ListResourceTemplatesRequest,
  ReadResourceRequest,
  SubscribeRequest,
  UnsubscribeRequest,
  ListPromptsRequest,
  GetPromptRequest,
  ListToolsRequest,
  CallToolRequest,
  GetTaskRequest,
  GetTaskPayloadRequest,
  CancelTaskRequest,
  ListTasksRequest,
  SetLevelRequest,
  CompleteRequest
])
/** Any request a client sends to a server. */
export type ClientRequest = typeof ClientRequest.Type

/**
 * Any notification a client sends to a server.
 * @since 0.1.0
 * @category messages
 */
export const ClientNotification = Schema.Union([
  CancelledNotification,
  InitializedNotification,
  ProgressNotification,
  TaskStatusNotification,
  RootsListChangedNotification
])
/** Any notification a client sends to a server. */
export type ClientNotification = typeof ClientNotification.Type

/**
 * Any result a client sends to a server. `Result` (first, as in the spec) accepts every object and
 * keeps all keys, so decoding with this union never loses data; decode by method for precision.
 * @since 0.1.0
 * @category messages
 */
export const ClientResult = Schema.Union([
  Result,
  GetTaskResult,
  GetTaskPayloadResult,
  CancelTaskResult,
  ListTasksResult,
  CreateMessageResult,
  ListRootsResult,
  ElicitResult
])
/** Any result a client sends to a server. */
export type ClientResult = typeof ClientResult.Type

/**
 * Any request a server sends to a client.
 * @since 0.1.0
 * @category messages
 */
export const ServerRequest = Schema.Union([
  PingRequest,
  GetTaskRequest,
  GetTaskPayloadRequest,
  CancelTaskRequest,
  ListTasksRequest,
  CreateMessageRequest,
  ListRootsRequest,
  ElicitRequest
])
/** Any request a server sends to a client. */
export type ServerRequest = typeof ServerRequest.Type

/**
 * Any notification a server sends to a client.
 * @since 0.1.0
 * @category messages
 */
export const ServerNotification = Schema.Union([
  CancelledNotification,
  ProgressNotification,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  PromptListChangedNotification,
  ToolListChangedNotification,
  TaskStatusNotification,
  LoggingMessageNotification,
  ElicitationCompleteNotification
])
/** Any notification a server sends to a client. */
export type ServerNotification = typeof ServerNotification.Type

/**
 * Any result a server sends to a client. `Result` (first, as in the spec) accepts every object and
 * keeps all keys, so decoding with this union never loses data; decode by method for precision.
 * @since 0.1.0
 * @category messages
 */
export const ServerResult = Schema.Union([
  Result,
  InitializeResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  ListPromptsResult,
  GetPromptResult,
  ListToolsResult,
  CallToolResult,
  GetTaskResult,
  GetTaskPayloadResult,
  CancelTaskResult,
  ListTasksResult,
  CompleteResult
])
/** Any result a server sends to a client. */
export type ServerResult = typeof ServerResult.Type

// -----------------------------------------------------------------------------
// JSON-RPC envelope (the wire codec lives in JsonRpc.ts; these mirror the spec for validation)
// -----------------------------------------------------------------------------

/**
 * A JSON-RPC request that expects a response.
 * @since 0.1.0
 * @category json-rpc
 */
export const JSONRPCRequest = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema.String,
  params: optional(JsonObject)
})
/** A JSON-RPC request that expects a response. */
export interface JSONRPCRequest extends Schema.Schema.Type<typeof JSONRPCRequest> {}

/**
 * A JSON-RPC notification which does not expect a response.
 * @since 0.1.0
 * @category json-rpc
 */
export const JSONRPCNotification = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  method: Schema.String,
  params: optional(JsonObject)
})
/** A JSON-RPC notification which does not expect a response. */
export interface JSONRPCNotification extends Schema.Schema.Type<typeof JSONRPCNotification> {}

/**
 * A successful (non-error) JSON-RPC response to a request.
 * @since 0.1.0
 * @category json-rpc
 */
export const JSONRPCResultResponse = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  result: Result
})
/** A successful (non-error) JSON-RPC response to a request. */
export interface JSONRPCResultResponse extends Schema.Schema.Type<typeof JSONRPCResultResponse> {}

/**
 * A JSON-RPC response indicating that an error occurred (`id` may be absent, e.g. for parse errors).
 * @since 0.1.0
 * @category json-rpc
 */
export const JSONRPCErrorResponse = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: optional(RequestId),
  error: ErrorObject
})
/** A JSON-RPC response indicating that an error occurred. */
export interface JSONRPCErrorResponse extends Schema.Schema.Type<typeof JSONRPCErrorResponse> {}

/**
 * A JSON-RPC response to a request: either a result or an error.
 * @since 0.1.0
 * @category json-rpc
 */
export const JSONRPCResponse = Schema.Union([JSONRPCResultResponse, JSONRPCErrorResponse])
/** A JSON-RPC response to a request: either a result or an error. */
export type JSONRPCResponse = typeof JSONRPCResponse.Type

/**
 * Any valid JSON-RPC message that can be decoded off the wire or encoded to be sent.
 * @since 0.1.0
 * @category json-rpc
 */
export const JSONRPCMessage = Schema.Union([
  JSONRPCRequest,
  JSONRPCNotification,
  JSONRPCResultResponse,
  JSONRPCErrorResponse
])
/** Any valid JSON-RPC message that can be decoded off the wire or encoded to be sent. */
export type JSONRPCMessage = typeof JSONRPCMessage.Type

/**
 * The `error` member of a {@link URLElicitationRequiredError} (`code` -32042, `data.elicitations`).
 * @since 0.1.0
 * @category json-rpc
 */
export const URLElicitationRequiredErrorObject = Schema.Struct({
  code: Schema.Literal(URL_ELICITATION_REQUIRED),
  message: Schema.String,
  data: Schema.StructWithRest(
    Schema.Struct({
      /** The URL-mode elicitations the client must complete before retrying. */
      elicitations: Schema.Array(ElicitRequestURLParams)
    }),
    [JsonObject]
  )
})
/** The `error` member of a {@link URLElicitationRequiredError}. */
export interface URLElicitationRequiredErrorObject extends Schema.Schema.Type<typeof URLElicitationRequiredErrorObject> {}

/**
 * An error response: the server requires the client to complete URL-mode elicitation(s) first.
 * @since 0.1.0
 * @category json-rpc
 */
export const URLElicitationRequiredError = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: optional(RequestId),
  error: URLElicitationRequiredErrorObject
})
/** An error response: the server requires the client to complete URL-mode elicitation(s) first. */
export interface URLElicitationRequiredError extends Schema.Schema.Type<typeof URLElicitationRequiredError> {}

// -----------------------------------------------------------------------------
// Method tables
// -----------------------------------------------------------------------------

/**
 * The shape of a request method table: method -> params and result schemas
 * (any plain codec: no decoding or encoding services).
 * @since 0.1.0
 * @category method tables
 */
export interface RequestMethodTable {
  readonly [method: string]: {
    readonly params: Schema.Codec<unknown, unknown>
    readonly result: Schema.Codec<unknown, unknown>
  }
}

/**
 * The shape of a notification method table: method -> params schema.
 * @since 0.1.0
 * @category method tables
 */
export interface NotificationMethodTable {
  readonly [method: string]: {
    readonly params: Schema.Codec<unknown, unknown>
  }
}

// Where the spec makes `params` optional, the params schema is `Schema.UndefinedOr(...)` so that an
// absent `params` member (decoded as `undefined`) is accepted.

/** Params of requests whose `params` may be absent: `RequestParams | undefined`. */
const OptionalRequestParams = Schema.UndefinedOr(RequestParams)
/** Params of paginated requests, whose `params` may be absent: `PaginatedRequestParams | undefined`. */
const OptionalPaginatedRequestParams = Schema.UndefinedOr(PaginatedRequestParams)
/** Params of notifications whose `params` may be absent: `NotificationParams | undefined`. */
const OptionalNotificationParams = Schema.UndefinedOr(NotificationParams)

/**
 * Requests a client sends to a server: method -> `{ params, result }` schemas.
 *
 * Task augmentation: when `params.task` is set on a method listed in
 * {@link ClientTaskAugmentableRequests}, the response is a {@link CreateTaskResult} instead of `result`.
 * @since 0.1.0
 * @category method tables
 */
export const ClientRequests = {
  "initialize": { params: InitializeRequestParams, result: InitializeResult },
  "ping": { params: OptionalRequestParams, result: EmptyResult },
  "resources/list": { params: OptionalPaginatedRequestParams, result: ListResourcesResult },
  "resources/templates/list": { params: OptionalPaginatedRequestParams, result: ListResourceTemplatesResult },
  "resources/read": { params: ReadResourceRequestParams, result: ReadResourceResult },
  "resources/subscribe": { params: SubscribeRequestParams, result: EmptyResult },
  "resources/unsubscribe": { params: UnsubscribeRequestParams, result: EmptyResult },
  "prompts/list": { params: OptionalPaginatedRequestParams, result: ListPromptsResult },
  "prompts/get": { params: GetPromptRequestParams, result: GetPromptResult },
  "tools/list": { params: OptionalPaginatedRequestParams, result: ListToolsResult },
  "tools/call": { params: CallToolRequestParams, result: CallToolResult },
  "tasks/get": { params: GetTaskRequestParams, result: GetTaskResult },
  "tasks/result": { params: GetTaskPayloadRequestParams, result: GetTaskPayloadResult },
  "tasks/cancel": { params: CancelTaskRequestParams, result: CancelTaskResult },
  "tasks/list": { params: OptionalPaginatedRequestParams, result: ListTasksResult },
  "logging/setLevel": { params: SetLevelRequestParams, result: EmptyResult },
  "completion/complete": { params: CompleteRequestParams, result: CompleteResult }
} as const satisfies RequestMethodTable

/**
 * Requests a server sends to a client: method -> `{ params, result }` schemas.
 *
 * Task augmentation: when `params.task` is set on a method listed in
 * {@link ServerTaskAugmentableRequests}, the response is a {@link CreateTaskResult} instead of `result`.
 * @since 0.1.0
 * @category method tables
 */
export const ServerRequests = {
  "ping": { params: OptionalRequestParams, result: EmptyResult },
  "sampling/createMessage": { params: CreateMessageRequestParams, result: CreateMessageResult },
  "elicitation/create": { params: ElicitRequestParams, result: ElicitResult },
  "roots/list": { params: OptionalRequestParams, result: ListRootsResult },
  "tasks/get": { params: GetTaskRequestParams, result: GetTaskResult },
  "tasks/result": { params: GetTaskPayloadRequestParams, result: GetTaskPayloadResult },
  "tasks/cancel": { params: CancelTaskRequestParams, result: CancelTaskResult },
  "tasks/list": { params: OptionalPaginatedRequestParams, result: ListTasksResult }
} as const satisfies RequestMethodTable

/**
 * Notifications a client sends to a server: method -> `{ params }` schema.
 * @since 0.1.0
 * @category method tables
 */
export const ClientNotifications = {
  "notifications/initialized": { params: OptionalNotificationParams },
  "notifications/cancelled": { params: CancelledNotificationParams },
  "notifications/progress": { params: ProgressNotificationParams },
  "notifications/roots/list_changed": { params: OptionalNotificationParams },
  "notifications/tasks/status": { params: TaskStatusNotificationParams }
} as const satisfies NotificationMethodTable

/**
 * Notifications a server sends to a client: method -> `{ params }` schema.
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
  "notifications/elicitation/complete": { params: ElicitationCompleteNotificationParams },
  "notifications/tasks/status": { params: TaskStatusNotificationParams }
} as const satisfies NotificationMethodTable

/**
 * Client -> server request methods that accept `params.task` (respond with `CreateTaskResult` when set).
 * @since 0.1.0
 * @category method tables
 */
export const ClientTaskAugmentableRequests = ["tools/call"] as const satisfies ReadonlyArray<ClientRequestMethod>

/**
 * Server -> client request methods that accept `params.task` (respond with `CreateTaskResult` when set).
 * @since 0.1.0
 * @category method tables
 */
export const ServerTaskAugmentableRequests = [
  "sampling/createMessage",
  "elicitation/create"
] as const satisfies ReadonlyArray<ServerRequestMethod>

/**
 * A request method a client sends to a server.
 * @since 0.1.0
 * @category method tables
 */
export type ClientRequestMethod = keyof typeof ClientRequests
/**
 * The decoded params of client request `M` (includes `undefined` where params are optional).
 * @since 0.1.0
 * @category method tables
 */
export type ClientRequestParams<M extends ClientRequestMethod> = Schema.Schema.Type<typeof ClientRequests[M]["params"]>
/**
 * The decoded result of client request `M`.
 * @since 0.1.0
 * @category method tables
 */
export type ClientRequestResult<M extends ClientRequestMethod> = Schema.Schema.Type<typeof ClientRequests[M]["result"]>

/**
 * A request method a server sends to a client.
 * @since 0.1.0
 * @category method tables
 */
export type ServerRequestMethod = keyof typeof ServerRequests
/**
 * The decoded params of server request `M` (includes `undefined` where params are optional).
 * @since 0.1.0
 * @category method tables
 */
export type ServerRequestParams<M extends ServerRequestMethod> = Schema.Schema.Type<typeof ServerRequests[M]["params"]>
/**
 * The decoded result of server request `M`.
 * @since 0.1.0
 * @category method tables
 */
export type ServerRequestResult<M extends ServerRequestMethod> = Schema.Schema.Type<typeof ServerRequests[M]["result"]>

/**
 * A notification method a client sends to a server.
 * @since 0.1.0
 * @category method tables
 */
export type ClientNotificationMethod = keyof typeof ClientNotifications
/**
 * The decoded params of client notification `M` (includes `undefined` where params are optional).
 * @since 0.1.0
 * @category method tables
 */
export type ClientNotificationParams<M extends ClientNotificationMethod> = Schema.Schema.Type<
  typeof ClientNotifications[M]["params"]
>

/**
 * A notification method a server sends to a client.
 * @since 0.1.0
 * @category method tables
 */
export type ServerNotificationMethod = keyof typeof ServerNotifications
/**
 * The decoded params of server notification `M` (includes `undefined` where params are optional).
 * @since 0.1.0
 * @category method tables
 */
export type ServerNotificationParams<M extends ServerNotificationMethod> = Schema.Schema.Type<
  typeof ServerNotifications[M]["params"]
>

/**
 * Whether `method` is a request a client may send to a server.
 * @since 0.1.0
 * @category method tables
 */
export const isClientRequestMethod = (method: string): method is ClientRequestMethod =>
  Object.prototype.hasOwnProperty.call(ClientRequests, method)
/**
 * Whether `method` is a request a server may send to a client.
 * @since 0.1.0
 * @category method tables
 */
export const isServerRequestMethod = (method: string): method is ServerRequestMethod =>
  Object.prototype.hasOwnProperty.call(ServerRequests, method)
/**
 * Whether `method` is a notification a client may send to a server.
 * @since 0.1.0
 * @category method tables
 */
export const isClientNotificationMethod = (method: string): method is ClientNotificationMethod =>
  Object.prototype.hasOwnProperty.call(ClientNotifications, method)
/**
 * Whether `method` is a notification a server may send to a client.
 * @since 0.1.0
 * @category method tables
 */
export const isServerNotificationMethod = (method: string): method is ServerNotificationMethod =>
  Object.prototype.hasOwnProperty.call(ServerNotifications, method)
