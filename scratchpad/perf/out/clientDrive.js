// ../../packages/mcp/src/McpClient.ts
import Ajv2020 from "ajv/dist/2020.js";
import * as Chunk from "effect/Chunk";
import * as Context2 from "effect/Context";
import * as Effect3 from "effect/Effect";
import * as Either2 from "effect/Either";
import * as Exit2 from "effect/Exit";
import * as Layer2 from "effect/Layer";
import * as Mailbox2 from "effect/Mailbox";
import * as Option2 from "effect/Option";
import * as ParseResult2 from "effect/ParseResult";
import * as PubSub from "effect/PubSub";
import * as Stream3 from "effect/Stream";
import * as SubscriptionRef from "effect/SubscriptionRef";

// ../../packages/mcp/src/internal/validate.ts
import * as Either from "effect/Either";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
var validator = (schema) => {
  const is2 = Schema.is(schema);
  const decode3 = ParseResult.decodeUnknownEither(schema, { errors: "all" });
  return (u) => is2(u) ? Either.right(u) : decode3(u);
};

// ../../packages/mcp/src/Lifecycle.ts
var SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
var LATEST_VERSION = "2025-11-25";
var isSupported = (version) => typeof version === "string" && SUPPORTED_VERSIONS.includes(version);
var allowsBatches = (version) => version === "2025-03-26" || version === "2024-11-05";
var has = (capabilities, path) => {
  let current = capabilities;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !(key in current)) return false;
    current = current[key];
  }
  return current !== void 0 && current !== null && current !== false;
};
var serverCapabilityFor = (method) => {
  switch (method) {
    case "tools/list":
    case "tools/call":
      return ["tools"];
    case "resources/list":
    case "resources/templates/list":
    case "resources/read":
      return ["resources"];
    case "resources/subscribe":
    case "resources/unsubscribe":
      return ["resources", "subscribe"];
    case "prompts/list":
    case "prompts/get":
      return ["prompts"];
    case "logging/setLevel":
      return ["logging"];
    case "completion/complete":
      return ["completions"];
    case "tasks/get":
    case "tasks/result":
    case "tasks/list":
    case "tasks/cancel":
      return ["tasks"];
    default:
      return void 0;
  }
};
var serverSupports = (capabilities, method) => {
  const path = serverCapabilityFor(method);
  return path === void 0 || has(capabilities, path);
};

// ../../packages/mcp/src/McpError.ts
import * as Schema2 from "effect/Schema";

// ../../packages/mcp/src/JsonRpc.ts
var ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603
};
var request = (id, method, params) => params === void 0 ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
var notification = (method, params) => params === void 0 ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
var success = (id, result) => ({
  jsonrpc: "2.0",
  id,
  result
});
var failure = (id, error) => ({ jsonrpc: "2.0", id, error });
var invalid = (id, code, message, respond = true) => ({
  _tag: "Invalid",
  id,
  error: { code, message },
  respond
});
var isBatch = (frame) => Array.isArray(frame);
var isInvalid = (frame) => !Array.isArray(frame) && frame._tag === "Invalid";
var isRequest = (frame) => !Array.isArray(frame) && "method" in frame && "id" in frame;
var isId = (u) => typeof u === "string" || typeof u === "number" && Number.isFinite(u);
var readId = (o) => isId(o.id) ? o.id : null;
var isObject = (u) => typeof u === "object" && u !== null && !Array.isArray(u);
var decodeMessage = (u) => {
  if (!isObject(u)) return invalid(null, ErrorCode.InvalidRequest, "Invalid Request: a message must be a JSON object");
  if (u.jsonrpc !== "2.0") {
    return invalid(readId(u), ErrorCode.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"', !("result" in u || "error" in u) || "method" in u);
  }
  if ("method" in u) {
    if (typeof u.method !== "string") {
      return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: method must be a string");
    }
    if ("params" in u && u.params !== void 0 && !isObject(u.params)) {
      return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: params must be an object");
    }
    if ("id" in u) {
      if (!isId(u.id)) return invalid(null, ErrorCode.InvalidRequest, "Invalid Request: id must be a string or a number");
      return u;
    }
    return u;
  }
  if ("result" in u) {
    if (!isId(u.id)) return invalid(null, ErrorCode.InvalidRequest, "Invalid response: id must be a string or a number", false);
    if (!isObject(u.result)) return invalid(u.id, ErrorCode.InvalidRequest, "Invalid response: result must be an object", false);
    return u;
  }
  if ("error" in u) {
    const error = u.error;
    if (!(u.id === null || isId(u.id)) || !isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid error response", false);
    }
    return u;
  }
  return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: neither a request, a notification nor a response");
};
var decode = (u) => {
  if (Array.isArray(u)) {
    if (u.length === 0) return invalid(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch");
    return u.map(decodeMessage);
  }
  return decodeMessage(u);
};
var parse = (text) => {
  let u;
  try {
    u = JSON.parse(text);
  } catch {
    return invalid(null, ErrorCode.ParseError, "Parse error: invalid JSON");
  }
  return decode(u);
};
var encode = (message) => JSON.stringify(message);

// ../../packages/mcp/src/McpError.ts
var McpError = class _McpError extends Schema2.TaggedError("@effect-mcp/mcp/McpError")("McpError", {
  code: Schema2.Number,
  message: Schema2.String,
  data: Schema2.optionalWith(Schema2.Unknown, { exact: true })
}) {
  static fromObject(error) {
    return new _McpError(error.data === void 0 ? { code: error.code, message: error.message } : error);
  }
  static parseError(message = "Parse error") {
    return new _McpError({ code: ErrorCode.ParseError, message });
  }
  static invalidRequest(message = "Invalid Request") {
    return new _McpError({ code: ErrorCode.InvalidRequest, message });
  }
  static methodNotFound(method) {
    return new _McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` });
  }
  static invalidParams(message, data) {
    return new _McpError(data === void 0 ? { code: ErrorCode.InvalidParams, message } : { code: ErrorCode.InvalidParams, message, data });
  }
  static internal(message = "Internal error") {
    return new _McpError({ code: ErrorCode.InternalError, message });
  }
  toObject() {
    return this.data === void 0 ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
};
var ProtocolError = class extends Schema2.TaggedError("@effect-mcp/mcp/ProtocolError")("ProtocolError", {
  reason: Schema2.Literal(
    "Timeout",
    "ConnectionClosed",
    "CapabilityMissing",
    "InvalidResult",
    "NotInitialized",
    "RequestEnded",
    "LimitExceeded",
    "Transport"
  ),
  method: Schema2.String,
  message: Schema2.String,
  cause: Schema2.optionalWith(Schema2.Defect, { exact: true })
}) {
};
var TransportError = class extends Schema2.TaggedError("@effect-mcp/mcp/TransportError")("TransportError", {
  reason: Schema2.Literal("Closed", "Read", "Write", "Protocol"),
  message: Schema2.String,
  cause: Schema2.optionalWith(Schema2.Defect, { exact: true })
}) {
};

// ../../packages/mcp/src/McpSchema.ts
import * as Schema3 from "effect/Schema";
var JSONRPC_VERSION = "2.0";
var URL_ELICITATION_REQUIRED = -32042;
var optional = (schema) => Schema3.optionalWith(schema, { exact: true });
var JsonObject = Schema3.Record({ key: Schema3.String, value: Schema3.Unknown });
var Meta = JsonObject;
var JsonRpcVersion = Schema3.Literal(JSONRPC_VERSION);
var JsonValue = Schema3.Unknown.pipe(
  Schema3.filter((u) => u !== void 0, { message: () => "Expected a JSON value, actual undefined" })
);
var UnitInterval = Schema3.Number.pipe(Schema3.between(0, 1));
var ProgressToken = Schema3.Union(Schema3.String, Schema3.Int);
var Cursor = Schema3.String;
var RequestId = Schema3.Union(Schema3.String, Schema3.Int);
var RequestMeta_ = Schema3.Struct({ progressToken: optional(ProgressToken) }, JsonObject);
var RequestMeta = RequestMeta_;
var RequestParams = Schema3.Struct({ _meta: optional(RequestMeta) });
var TaskMetadata = Schema3.Struct({
  /** Requested duration in milliseconds to retain the task from creation. */
  ttl: optional(Schema3.Int)
});
var TaskAugmentedRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** If specified, the caller requests task-augmented execution (the response is a `CreateTaskResult`). */
  task: optional(TaskMetadata)
});
var Request = Schema3.Struct({ method: Schema3.String, params: optional(JsonObject) });
var NotificationParams = Schema3.Struct({ _meta: optional(Meta) });
var Notification = Schema3.Struct({ method: Schema3.String, params: optional(JsonObject) });
var Result_ = Schema3.Struct({ _meta: optional(Meta) }, JsonObject);
var Result = Result_;
var EmptyResult = Result;
var ErrorObject = Schema3.Struct({
  /** The error type that occurred. */
  code: Schema3.Int,
  /** A short description of the error. */
  message: Schema3.String,
  /** Additional information about the error, defined by the sender. */
  data: optional(Schema3.Unknown)
});
var PaginatedRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** An opaque token representing the current pagination position. */
  cursor: optional(Cursor)
});
var PaginatedResult = Schema3.Struct({
  _meta: optional(Meta),
  /** An opaque token representing the pagination position after the last returned result. */
  nextCursor: optional(Cursor)
});
var Role = Schema3.Literal("assistant", "user");
var Annotations_ = Schema3.Struct({
  /** Who the intended audience of this object or data is. */
  audience: optional(Schema3.Array(Role)),
  /** How important this data is for operating the server, from 0 (least) to 1 (most). */
  priority: optional(UnitInterval),
  /** The moment the resource was last modified, as an ISO 8601 formatted string. */
  lastModified: optional(Schema3.String)
});
var Annotations = Annotations_;
var Icon_ = Schema3.Struct({
  /** A standard URI (HTTP/HTTPS URL or `data:` URI) pointing to an icon resource. */
  src: Schema3.String,
  /** Optional MIME type override if the source MIME type is missing or generic. */
  mimeType: optional(Schema3.String),
  /** Sizes at which the icon can be used (`"48x48"`, `"any"`, ...). */
  sizes: optional(Schema3.Array(Schema3.String)),
  /** The theme (background) this icon is designed for. */
  theme: optional(Schema3.Literal("dark", "light"))
});
var Icon = Icon_;
var Icons = Schema3.Struct({
  /** Optional set of sized icons that the client can display in a user interface. */
  icons: optional(Schema3.Array(Icon))
});
var BaseMetadata = Schema3.Struct({
  /** Intended for programmatic or logical use; display fallback when `title` is absent. */
  name: Schema3.String,
  /** Intended for UI and end-user contexts. */
  title: optional(Schema3.String)
});
var Implementation_ = Schema3.Struct({
  name: Schema3.String,
  title: optional(Schema3.String),
  version: Schema3.String,
  /** An optional human-readable description of what this implementation does. */
  description: optional(Schema3.String),
  /** An optional URL of the website for this implementation. */
  websiteUrl: optional(Schema3.String),
  icons: optional(Schema3.Array(Icon))
});
var Implementation = Implementation_;
var TextContent_ = Schema3.Struct({
  type: Schema3.Literal("text"),
  /** The text content of the message. */
  text: Schema3.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var TextContent = TextContent_;
var ImageContent_ = Schema3.Struct({
  type: Schema3.Literal("image"),
  /** The base64-encoded image data. */
  data: Schema3.String,
  /** The MIME type of the image. */
  mimeType: Schema3.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var ImageContent = ImageContent_;
var AudioContent_ = Schema3.Struct({
  type: Schema3.Literal("audio"),
  /** The base64-encoded audio data. */
  data: Schema3.String,
  /** The MIME type of the audio. */
  mimeType: Schema3.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var AudioContent = AudioContent_;
var ResourceContents = Schema3.Struct({
  /** The URI of this resource. */
  uri: Schema3.String,
  /** The MIME type of this resource, if known. */
  mimeType: optional(Schema3.String),
  _meta: optional(Meta)
});
var TextResourceContents_ = Schema3.Struct({
  ...ResourceContents.fields,
  /** The text of the item (only if it can actually be represented as text). */
  text: Schema3.String
});
var TextResourceContents = TextResourceContents_;
var BlobResourceContents_ = Schema3.Struct({
  ...ResourceContents.fields,
  /** A base64-encoded string representing the binary data of the item. */
  blob: Schema3.String
});
var BlobResourceContents = BlobResourceContents_;
var TextOrBlobResourceContents = Schema3.Union(TextResourceContents, BlobResourceContents);
var Resource_ = Schema3.Struct({
  name: Schema3.String,
  title: optional(Schema3.String),
  icons: optional(Schema3.Array(Icon)),
  /** The URI of this resource. */
  uri: Schema3.String,
  /** A description of what this resource represents. */
  description: optional(Schema3.String),
  /** The MIME type of this resource, if known. */
  mimeType: optional(Schema3.String),
  annotations: optional(Annotations),
  /** The size of the raw resource content in bytes, if known. */
  size: optional(Schema3.Int),
  _meta: optional(Meta)
});
var Resource = Resource_;
var ResourceLink_ = Schema3.Struct({
  type: Schema3.Literal("resource_link"),
  ...Resource.fields
});
var ResourceLink = ResourceLink_;
var EmbeddedResource_ = Schema3.Struct({
  type: Schema3.Literal("resource"),
  resource: TextOrBlobResourceContents,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var EmbeddedResource = EmbeddedResource_;
var ContentBlock_ = Schema3.Union(TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource);
var ContentBlock = ContentBlock_;
var ToolUseContent_ = Schema3.Struct({
  type: Schema3.Literal("tool_use"),
  /** A unique identifier for this tool use, matched by `ToolResultContent.toolUseId`. */
  id: Schema3.String,
  /** The name of the tool to call. */
  name: Schema3.String,
  /** The arguments to pass to the tool, conforming to the tool's input schema. */
  input: JsonObject,
  _meta: optional(Meta)
});
var ToolUseContent = ToolUseContent_;
var ToolResultContent_ = Schema3.Struct({
  type: Schema3.Literal("tool_result"),
  /** The ID of the tool use this result corresponds to. */
  toolUseId: Schema3.String,
  /** The unstructured result content of the tool use. */
  content: Schema3.Array(ContentBlock),
  /** An optional structured result object. */
  structuredContent: optional(JsonObject),
  /** Whether the tool use resulted in an error. */
  isError: optional(Schema3.Boolean),
  _meta: optional(Meta)
});
var ToolResultContent = ToolResultContent_;
var SamplingMessageContentBlock_ = Schema3.Union(
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent
);
var SamplingMessageContentBlock = SamplingMessageContentBlock_;
var ResourceRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** The URI of the resource. */
  uri: Schema3.String
});
var ReadResourceRequestParams = ResourceRequestParams;
var SubscribeRequestParams = ResourceRequestParams;
var UnsubscribeRequestParams = ResourceRequestParams;
var ListResourcesResult = Schema3.Struct({
  ...PaginatedResult.fields,
  resources: Schema3.Array(Resource)
});
var ResourceTemplate_ = Schema3.Struct({
  name: Schema3.String,
  title: optional(Schema3.String),
  icons: optional(Schema3.Array(Icon)),
  /** A URI template (RFC 6570) that can be used to construct resource URIs. */
  uriTemplate: Schema3.String,
  /** A description of what this template is for. */
  description: optional(Schema3.String),
  /** The MIME type for all resources that match this template, if uniform. */
  mimeType: optional(Schema3.String),
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var ResourceTemplate = ResourceTemplate_;
var ListResourceTemplatesResult = Schema3.Struct({
  ...PaginatedResult.fields,
  resourceTemplates: Schema3.Array(ResourceTemplate)
});
var ReadResourceResult_ = Schema3.Struct({
  _meta: optional(Meta),
  contents: Schema3.Array(TextOrBlobResourceContents)
});
var ReadResourceResult = ReadResourceResult_;
var ResourceUpdatedNotificationParams = Schema3.Struct({
  _meta: optional(Meta),
  /** The URI of the resource that has been updated (possibly a sub-resource of the subscribed one). */
  uri: Schema3.String
});
var PromptArgument = Schema3.Struct({
  name: Schema3.String,
  title: optional(Schema3.String),
  /** A human-readable description of the argument. */
  description: optional(Schema3.String),
  /** Whether this argument must be provided. */
  required: optional(Schema3.Boolean)
});
var Prompt_ = Schema3.Struct({
  name: Schema3.String,
  title: optional(Schema3.String),
  icons: optional(Schema3.Array(Icon)),
  /** An optional description of what this prompt provides. */
  description: optional(Schema3.String),
  /** A list of arguments to use for templating the prompt. */
  arguments: optional(Schema3.Array(PromptArgument)),
  _meta: optional(Meta)
});
var Prompt = Prompt_;
var ListPromptsResult = Schema3.Struct({
  ...PaginatedResult.fields,
  prompts: Schema3.Array(Prompt)
});
var GetPromptRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** The name of the prompt or prompt template. */
  name: Schema3.String,
  /** Arguments to use for templating the prompt. */
  arguments: optional(Schema3.Record({ key: Schema3.String, value: Schema3.String }))
});
var PromptMessage = Schema3.Struct({
  role: Role,
  content: ContentBlock
});
var GetPromptResult = Schema3.Struct({
  _meta: optional(Meta),
  /** An optional description for the prompt. */
  description: optional(Schema3.String),
  messages: Schema3.Array(PromptMessage)
});
var ToolAnnotations = Schema3.Struct({
  /** A human-readable title for the tool. */
  title: optional(Schema3.String),
  /** If true, the tool does not modify its environment (default: false). */
  readOnlyHint: optional(Schema3.Boolean),
  /** If true, the tool may perform destructive updates (default: true). */
  destructiveHint: optional(Schema3.Boolean),
  /** If true, repeated calls with the same arguments have no additional effect (default: false). */
  idempotentHint: optional(Schema3.Boolean),
  /** If true, the tool may interact with an "open world" of external entities (default: true). */
  openWorldHint: optional(Schema3.Boolean)
});
var ToolExecution = Schema3.Struct({
  /** Whether the tool supports task-augmented execution (default: `"forbidden"`). */
  taskSupport: optional(Schema3.Literal("forbidden", "optional", "required"))
});
var ToolJsonSchema_ = Schema3.Struct({
  $schema: optional(Schema3.String),
  type: Schema3.Literal("object"),
  properties: optional(Schema3.Record({ key: Schema3.String, value: JsonObject })),
  required: optional(Schema3.Array(Schema3.String))
}, JsonObject);
var ToolJsonSchema = ToolJsonSchema_;
var Tool_ = Schema3.Struct({
  name: Schema3.String,
  title: optional(Schema3.String),
  icons: optional(Schema3.Array(Icon)),
  /** A human-readable description of the tool. */
  description: optional(Schema3.String),
  /** A JSON Schema object defining the expected parameters for the tool. */
  inputSchema: ToolJsonSchema,
  /** Execution-related properties for this tool. */
  execution: optional(ToolExecution),
  /** An optional JSON Schema object defining the structure of `CallToolResult.structuredContent`. */
  outputSchema: optional(ToolJsonSchema),
  /** Optional additional tool information. */
  annotations: optional(ToolAnnotations),
  _meta: optional(Meta)
});
var Tool = Tool_;
var ListToolsResult = Schema3.Struct({
  ...PaginatedResult.fields,
  tools: Schema3.Array(Tool)
});
var CallToolRequestParams_ = Schema3.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The name of the tool. */
  name: Schema3.String,
  /** Arguments to use for the tool call. */
  arguments: optional(JsonObject)
});
var CallToolRequestParams = CallToolRequestParams_;
var CallToolResult_ = Schema3.Struct({
  _meta: optional(Meta),
  /** The unstructured result of the tool call. */
  content: Schema3.Array(ContentBlock),
  /** An optional JSON object that represents the structured result of the tool call. */
  structuredContent: optional(JsonObject),
  /** Whether the tool call ended in an error (default: false). */
  isError: optional(Schema3.Boolean)
});
var CallToolResult = CallToolResult_;
var TaskStatus = Schema3.Literal("cancelled", "completed", "failed", "input_required", "working");
var Task_ = Schema3.Struct({
  /** The task identifier. */
  taskId: Schema3.String,
  /** Current task state. */
  status: TaskStatus,
  /** Optional human-readable message describing the current task state. */
  statusMessage: optional(Schema3.String),
  /** ISO 8601 timestamp when the task was created. */
  createdAt: Schema3.String,
  /** ISO 8601 timestamp when the task was last updated. */
  lastUpdatedAt: Schema3.String,
  /** Actual retention duration from creation in milliseconds, `null` for unlimited. */
  ttl: Schema3.NullOr(Schema3.Int),
  /** Suggested polling interval in milliseconds. */
  pollInterval: optional(Schema3.Int)
});
var Task = Task_;
var RelatedTaskMetadata = Schema3.Struct({
  /** The task identifier this message is associated with. */
  taskId: Schema3.String
});
var CreateTaskResult = Schema3.Struct({
  _meta: optional(Meta),
  task: Task
});
var TaskIdRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** The task identifier. */
  taskId: Schema3.String
});
var GetTaskRequestParams = TaskIdRequestParams;
var GetTaskPayloadRequestParams = TaskIdRequestParams;
var CancelTaskRequestParams = TaskIdRequestParams;
var GetTaskResult_ = Schema3.Struct({ _meta: optional(Meta), ...Task.fields });
var GetTaskResult = GetTaskResult_;
var GetTaskPayloadResult = Result;
var CancelTaskResult = GetTaskResult;
var ListTasksResult = Schema3.Struct({
  ...PaginatedResult.fields,
  tasks: Schema3.Array(Task)
});
var TaskStatusNotificationParams = Schema3.Struct({ _meta: optional(Meta), ...Task.fields });
var LoggingLevel = Schema3.Literal(
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency"
);
var SetLevelRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** The minimum level of logging the client wants to receive. */
  level: LoggingLevel
});
var LoggingMessageNotificationParams = Schema3.Struct({
  _meta: optional(Meta),
  /** The severity of this log message. */
  level: LoggingLevel,
  /** An optional name of the logger issuing this message. */
  logger: optional(Schema3.String),
  /** The data to be logged (any JSON serializable value). Required, but may be `null`. */
  data: JsonValue
});
var ModelHint = Schema3.Struct({
  /** A hint for a model name (treated as a substring). */
  name: optional(Schema3.String)
});
var ModelPreferences = Schema3.Struct({
  /** Optional hints to use for model selection, evaluated in order. */
  hints: optional(Schema3.Array(ModelHint)),
  /** How much to prioritize cost (0..1). */
  costPriority: optional(UnitInterval),
  /** How much to prioritize sampling speed (0..1). */
  speedPriority: optional(UnitInterval),
  /** How much to prioritize intelligence and capabilities (0..1). */
  intelligencePriority: optional(UnitInterval)
});
var ToolChoice = Schema3.Struct({
  /** `"auto"` (default): model decides; `"required"`: must use a tool; `"none"`: must not use tools. */
  mode: optional(Schema3.Literal("auto", "none", "required"))
});
var SamplingContent = Schema3.Union(
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent,
  Schema3.Array(SamplingMessageContentBlock)
);
var SamplingMessage_ = Schema3.Struct({
  role: Role,
  content: SamplingContent,
  _meta: optional(Meta)
});
var SamplingMessage = SamplingMessage_;
var CreateMessageRequestParams_ = Schema3.Struct({
  ...TaskAugmentedRequestParams.fields,
  messages: Schema3.Array(SamplingMessage),
  /** The server's preferences for which model to select. */
  modelPreferences: optional(ModelPreferences),
  /** An optional system prompt the server wants to use for sampling. */
  systemPrompt: optional(Schema3.String),
  /** A request to include context from MCP servers (`"thisServer"`/`"allServers"` are soft-deprecated). */
  includeContext: optional(Schema3.Literal("allServers", "none", "thisServer")),
  temperature: optional(Schema3.Number),
  /** The requested maximum number of tokens to sample. */
  maxTokens: Schema3.Int,
  stopSequences: optional(Schema3.Array(Schema3.String)),
  /** Optional provider-specific metadata to pass through to the LLM provider. */
  metadata: optional(JsonObject),
  /** Tools that the model may use during generation (requires `ClientCapabilities.sampling.tools`). */
  tools: optional(Schema3.Array(Tool)),
  /** Controls how the model uses tools (requires `ClientCapabilities.sampling.tools`). */
  toolChoice: optional(ToolChoice)
});
var CreateMessageRequestParams = CreateMessageRequestParams_;
var CreateMessageResult_ = Schema3.Struct({
  ...SamplingMessage.fields,
  /** The name of the model that generated the message. */
  model: Schema3.String,
  /** Why sampling stopped: `"endTurn"`, `"stopSequence"`, `"maxTokens"`, `"toolUse"` or provider-specific. */
  stopReason: optional(Schema3.String)
});
var CreateMessageResult = CreateMessageResult_;
var PromptReference = Schema3.Struct({
  type: Schema3.Literal("ref/prompt"),
  name: Schema3.String,
  title: optional(Schema3.String)
});
var ResourceTemplateReference = Schema3.Struct({
  type: Schema3.Literal("ref/resource"),
  /** The URI or URI template of the resource. */
  uri: Schema3.String
});
var CompleteRequestParams = Schema3.Struct({
  _meta: optional(RequestMeta),
  ref: Schema3.Union(PromptReference, ResourceTemplateReference),
  /** The argument's information. */
  argument: Schema3.Struct({
    /** The name of the argument. */
    name: Schema3.String,
    /** The value of the argument to use for completion matching. */
    value: Schema3.String
  }),
  /** Additional, optional context for completions. */
  context: optional(Schema3.Struct({
    /** Previously-resolved variables in a URI template or prompt. */
    arguments: optional(Schema3.Record({ key: Schema3.String, value: Schema3.String }))
  }))
});
var CompleteResult = Schema3.Struct({
  _meta: optional(Meta),
  completion: Schema3.Struct({
    /** An array of completion values (must not exceed 100 items). */
    values: Schema3.Array(Schema3.String),
    /** The total number of completion options available. */
    total: optional(Schema3.Int),
    /** Whether there are additional completion options beyond those provided. */
    hasMore: optional(Schema3.Boolean)
  })
});
var Root = Schema3.Struct({
  /** The URI identifying the root (must start with `file://` for now). */
  uri: Schema3.String,
  /** An optional human-readable name for the root. */
  name: optional(Schema3.String),
  _meta: optional(Meta)
});
var ListRootsResult = Schema3.Struct({
  _meta: optional(Meta),
  roots: Schema3.Array(Root)
});
var StringSchema = Schema3.Struct({
  type: Schema3.Literal("string"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  minLength: optional(Schema3.Int),
  maxLength: optional(Schema3.Int),
  format: optional(Schema3.Literal("date", "date-time", "email", "uri")),
  default: optional(Schema3.String)
});
var NumberSchema = Schema3.Struct({
  type: Schema3.Literal("integer", "number"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  minimum: optional(Schema3.Number),
  maximum: optional(Schema3.Number),
  default: optional(Schema3.Number)
});
var BooleanSchema = Schema3.Struct({
  type: Schema3.Literal("boolean"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  default: optional(Schema3.Boolean)
});
var TitledEnumOption = Schema3.Struct({
  /** The enum value. */
  const: Schema3.String,
  /** Display label for this option. */
  title: Schema3.String
});
var UntitledSingleSelectEnumSchema = Schema3.Struct({
  type: Schema3.Literal("string"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  /** Array of enum values to choose from. */
  enum: Schema3.Array(Schema3.String),
  default: optional(Schema3.String)
});
var TitledSingleSelectEnumSchema = Schema3.Struct({
  type: Schema3.Literal("string"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  /** Array of enum options with values and display labels. */
  oneOf: Schema3.Array(TitledEnumOption),
  default: optional(Schema3.String)
});
var SingleSelectEnumSchema = Schema3.Union(UntitledSingleSelectEnumSchema, TitledSingleSelectEnumSchema);
var UntitledMultiSelectEnumSchema = Schema3.Struct({
  type: Schema3.Literal("array"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  /** Minimum number of items to select. */
  minItems: optional(Schema3.Int),
  /** Maximum number of items to select. */
  maxItems: optional(Schema3.Int),
  /** Schema for the array items. */
  items: Schema3.Struct({
    type: Schema3.Literal("string"),
    /** Array of enum values to choose from. */
    enum: Schema3.Array(Schema3.String)
  }),
  default: optional(Schema3.Array(Schema3.String))
});
var TitledMultiSelectEnumSchema = Schema3.Struct({
  type: Schema3.Literal("array"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  /** Minimum number of items to select. */
  minItems: optional(Schema3.Int),
  /** Maximum number of items to select. */
  maxItems: optional(Schema3.Int),
  /** Schema for array items with enum options and display labels. */
  items: Schema3.Struct({
    /** Array of enum options with values and display labels. */
    anyOf: Schema3.Array(TitledEnumOption)
  }),
  default: optional(Schema3.Array(Schema3.String))
});
var MultiSelectEnumSchema = Schema3.Union(UntitledMultiSelectEnumSchema, TitledMultiSelectEnumSchema);
var LegacyTitledEnumSchema = Schema3.Struct({
  type: Schema3.Literal("string"),
  title: optional(Schema3.String),
  description: optional(Schema3.String),
  enum: Schema3.Array(Schema3.String),
  /** (Legacy) Display names for enum values. */
  enumNames: optional(Schema3.Array(Schema3.String)),
  default: optional(Schema3.String)
});
var EnumSchema = Schema3.Union(
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema
);
var PrimitiveSchemaDefinition_ = Schema3.Union(
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema,
  StringSchema,
  NumberSchema,
  BooleanSchema
);
var PrimitiveSchemaDefinition = PrimitiveSchemaDefinition_;
var ElicitRequestedSchema = Schema3.Struct({
  $schema: optional(Schema3.String),
  type: Schema3.Literal("object"),
  properties: Schema3.Record({ key: Schema3.String, value: PrimitiveSchemaDefinition }),
  required: optional(Schema3.Array(Schema3.String))
});
var ElicitRequestFormParams_ = Schema3.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The elicitation mode (`"form"` when absent). */
  mode: optional(Schema3.Literal("form")),
  /** The message to present to the user describing what information is being requested. */
  message: Schema3.String,
  /** A restricted subset of JSON Schema: only top-level properties, without nesting. */
  requestedSchema: ElicitRequestedSchema
});
var ElicitRequestFormParams = ElicitRequestFormParams_;
var ElicitRequestURLParams_ = Schema3.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The elicitation mode. */
  mode: Schema3.Literal("url"),
  /** The message to present to the user explaining why the interaction is needed. */
  message: Schema3.String,
  /** The ID of the elicitation, unique within the server; opaque to the client. */
  elicitationId: Schema3.String,
  /** The URL that the user should navigate to. */
  url: Schema3.String
});
var ElicitRequestURLParams = ElicitRequestURLParams_;
var ElicitRequestParams_ = Schema3.Union(ElicitRequestURLParams, ElicitRequestFormParams);
var ElicitRequestParams = ElicitRequestParams_;
var ElicitResult_ = Schema3.Struct({
  _meta: optional(Meta),
  /** `"accept"`: submitted; `"decline"`: explicitly declined; `"cancel"`: dismissed. */
  action: Schema3.Literal("accept", "cancel", "decline"),
  /** The submitted form data, only present when action is `"accept"` and mode was `"form"`. */
  content: optional(Schema3.Record({
    key: Schema3.String,
    value: Schema3.Union(Schema3.String, Schema3.Number, Schema3.Boolean, Schema3.Array(Schema3.String))
  }))
});
var ElicitResult = ElicitResult_;
var ElicitationCompleteNotificationParams = Schema3.Struct({
  _meta: optional(Meta),
  /** The ID of the elicitation that completed. */
  elicitationId: Schema3.String
});
var ClientCapabilities_ = Schema3.Struct({
  /** Experimental, non-standard capabilities that the client supports. */
  experimental: optional(Schema3.Record({ key: Schema3.String, value: JsonObject })),
  /** Present if the client supports listing roots. */
  roots: optional(Schema3.Struct({
    /** Whether the client supports notifications for changes to the roots list. */
    listChanged: optional(Schema3.Boolean)
  })),
  /** Present if the client supports sampling from an LLM. */
  sampling: optional(Schema3.Struct({
    /** Whether the client supports context inclusion via `includeContext`. */
    context: optional(JsonObject),
    /** Whether the client supports tool use via `tools` and `toolChoice`. */
    tools: optional(JsonObject)
  })),
  /** Present if the client supports elicitation from the server (`{}` means form mode only). */
  elicitation: optional(Schema3.Struct({
    form: optional(JsonObject),
    url: optional(JsonObject)
  })),
  /** Present if the client supports task-augmented requests. */
  tasks: optional(Schema3.Struct({
    /** Whether this client supports `tasks/list`. */
    list: optional(JsonObject),
    /** Whether this client supports `tasks/cancel`. */
    cancel: optional(JsonObject),
    /** Which request types can be augmented with tasks. */
    requests: optional(Schema3.Struct({
      sampling: optional(Schema3.Struct({
        /** Whether the client supports task-augmented `sampling/createMessage`. */
        createMessage: optional(JsonObject)
      })),
      elicitation: optional(Schema3.Struct({
        /** Whether the client supports task-augmented `elicitation/create`. */
        create: optional(JsonObject)
      }))
    }))
  }))
});
var ClientCapabilities = ClientCapabilities_;
var ServerCapabilities_ = Schema3.Struct({
  /** Experimental, non-standard capabilities that the server supports. */
  experimental: optional(Schema3.Record({ key: Schema3.String, value: JsonObject })),
  /** Present if the server supports sending log messages to the client. */
  logging: optional(JsonObject),
  /** Present if the server supports argument autocompletion suggestions. */
  completions: optional(JsonObject),
  /** Present if the server offers any prompt templates. */
  prompts: optional(Schema3.Struct({
    /** Whether this server supports notifications for changes to the prompt list. */
    listChanged: optional(Schema3.Boolean)
  })),
  /** Present if the server offers any resources to read. */
  resources: optional(Schema3.Struct({
    /** Whether this server supports subscribing to resource updates. */
    subscribe: optional(Schema3.Boolean),
    /** Whether this server supports notifications for changes to the resource list. */
    listChanged: optional(Schema3.Boolean)
  })),
  /** Present if the server offers any tools to call. */
  tools: optional(Schema3.Struct({
    /** Whether this server supports notifications for changes to the tool list. */
    listChanged: optional(Schema3.Boolean)
  })),
  /** Present if the server supports task-augmented requests. */
  tasks: optional(Schema3.Struct({
    /** Whether this server supports `tasks/list`. */
    list: optional(JsonObject),
    /** Whether this server supports `tasks/cancel`. */
    cancel: optional(JsonObject),
    /** Which request types can be augmented with tasks. */
    requests: optional(Schema3.Struct({
      tools: optional(Schema3.Struct({
        /** Whether the server supports task-augmented `tools/call`. */
        call: optional(JsonObject)
      }))
    }))
  }))
});
var ServerCapabilities = ServerCapabilities_;
var InitializeRequestParams_ = Schema3.Struct({
  _meta: optional(RequestMeta),
  /** The latest protocol version the client supports. */
  protocolVersion: Schema3.String,
  capabilities: ClientCapabilities,
  clientInfo: Implementation
});
var InitializeRequestParams = InitializeRequestParams_;
var InitializeResult_ = Schema3.Struct({
  _meta: optional(Meta),
  /** The protocol version the server wants to use (the client MUST disconnect if unsupported). */
  protocolVersion: Schema3.String,
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
  /** Instructions describing how to use the server and its features. */
  instructions: optional(Schema3.String)
});
var InitializeResult = InitializeResult_;
var CancelledNotificationParams = Schema3.Struct({
  _meta: optional(Meta),
  /** The ID of the request to cancel (required for non-task requests; not for tasks). */
  requestId: optional(RequestId),
  /** An optional reason for the cancellation. */
  reason: optional(Schema3.String)
});
var ProgressNotificationParams = Schema3.Struct({
  _meta: optional(Meta),
  /** The progress token given in the initial request. */
  progressToken: ProgressToken,
  /** The progress thus far (should increase every time progress is made). */
  progress: Schema3.Number,
  /** Total number of items to process (or total progress required), if known. */
  total: optional(Schema3.Number),
  /** An optional message describing the current progress. */
  message: optional(Schema3.String)
});
var jsonRpcRequest = (method, params) => Schema3.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema3.Literal(method), params });
var jsonRpcRequestOptionalParams = (method, params) => Schema3.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema3.Literal(method), params: optional(params) });
var jsonRpcNotification = (method, params) => Schema3.Struct({ jsonrpc: JsonRpcVersion, method: Schema3.Literal(method), params });
var jsonRpcNotificationOptionalParams = (method, params) => Schema3.Struct({ jsonrpc: JsonRpcVersion, method: Schema3.Literal(method), params: optional(params) });
var PaginatedRequest = Schema3.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema3.String,
  params: optional(PaginatedRequestParams)
});
var InitializeRequest = jsonRpcRequest("initialize", InitializeRequestParams);
var PingRequest = jsonRpcRequestOptionalParams("ping", RequestParams);
var ListResourcesRequest = jsonRpcRequestOptionalParams("resources/list", PaginatedRequestParams);
var ListResourceTemplatesRequest = jsonRpcRequestOptionalParams(
  "resources/templates/list",
  PaginatedRequestParams
);
var ReadResourceRequest = jsonRpcRequest("resources/read", ReadResourceRequestParams);
var SubscribeRequest = jsonRpcRequest("resources/subscribe", SubscribeRequestParams);
var UnsubscribeRequest = jsonRpcRequest("resources/unsubscribe", UnsubscribeRequestParams);
var ListPromptsRequest = jsonRpcRequestOptionalParams("prompts/list", PaginatedRequestParams);
var GetPromptRequest = jsonRpcRequest("prompts/get", GetPromptRequestParams);
var ListToolsRequest = jsonRpcRequestOptionalParams("tools/list", PaginatedRequestParams);
var CallToolRequest = jsonRpcRequest("tools/call", CallToolRequestParams);
var GetTaskRequest = jsonRpcRequest("tasks/get", GetTaskRequestParams);
var GetTaskPayloadRequest = jsonRpcRequest("tasks/result", GetTaskPayloadRequestParams);
var CancelTaskRequest = jsonRpcRequest("tasks/cancel", CancelTaskRequestParams);
var ListTasksRequest = jsonRpcRequestOptionalParams("tasks/list", PaginatedRequestParams);
var SetLevelRequest = jsonRpcRequest("logging/setLevel", SetLevelRequestParams);
var CompleteRequest = jsonRpcRequest("completion/complete", CompleteRequestParams);
var CreateMessageRequest = jsonRpcRequest("sampling/createMessage", CreateMessageRequestParams);
var ListRootsRequest = jsonRpcRequestOptionalParams("roots/list", RequestParams);
var ElicitRequest = jsonRpcRequest("elicitation/create", ElicitRequestParams);
var CancelledNotification = jsonRpcNotification("notifications/cancelled", CancelledNotificationParams);
var InitializedNotification = jsonRpcNotificationOptionalParams(
  "notifications/initialized",
  NotificationParams
);
var ProgressNotification = jsonRpcNotification("notifications/progress", ProgressNotificationParams);
var ResourceListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/resources/list_changed",
  NotificationParams
);
var ResourceUpdatedNotification = jsonRpcNotification(
  "notifications/resources/updated",
  ResourceUpdatedNotificationParams
);
var PromptListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/prompts/list_changed",
  NotificationParams
);
var ToolListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/tools/list_changed",
  NotificationParams
);
var TaskStatusNotification = jsonRpcNotification("notifications/tasks/status", TaskStatusNotificationParams);
var LoggingMessageNotification = jsonRpcNotification(
  "notifications/message",
  LoggingMessageNotificationParams
);
var ElicitationCompleteNotification = jsonRpcNotification(
  "notifications/elicitation/complete",
  ElicitationCompleteNotificationParams
);
var RootsListChangedNotification = jsonRpcNotificationOptionalParams(
  "notifications/roots/list_changed",
  NotificationParams
);
var ClientRequest = Schema3.Union(
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
);
var ClientNotification = Schema3.Union(
  CancelledNotification,
  InitializedNotification,
  ProgressNotification,
  TaskStatusNotification,
  RootsListChangedNotification
);
var ClientResult = Schema3.Union(
  Result,
  GetTaskResult,
  GetTaskPayloadResult,
  CancelTaskResult,
  ListTasksResult,
  CreateMessageResult,
  ListRootsResult,
  ElicitResult
);
var ServerRequest = Schema3.Union(
  PingRequest,
  GetTaskRequest,
  GetTaskPayloadRequest,
  CancelTaskRequest,
  ListTasksRequest,
  CreateMessageRequest,
  ListRootsRequest,
  ElicitRequest
);
var ServerNotification = Schema3.Union(
  CancelledNotification,
  ProgressNotification,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  PromptListChangedNotification,
  ToolListChangedNotification,
  TaskStatusNotification,
  LoggingMessageNotification,
  ElicitationCompleteNotification
);
var ServerResult = Schema3.Union(
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
);
var JSONRPCRequest = Schema3.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema3.String,
  params: optional(JsonObject)
});
var JSONRPCNotification = Schema3.Struct({
  jsonrpc: JsonRpcVersion,
  method: Schema3.String,
  params: optional(JsonObject)
});
var JSONRPCResultResponse = Schema3.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  result: Result
});
var JSONRPCErrorResponse = Schema3.Struct({
  jsonrpc: JsonRpcVersion,
  id: optional(RequestId),
  error: ErrorObject
});
var JSONRPCResponse = Schema3.Union(JSONRPCResultResponse, JSONRPCErrorResponse);
var JSONRPCMessage = Schema3.Union(JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse, JSONRPCErrorResponse);
var URLElicitationRequiredErrorObject = Schema3.Struct({
  code: Schema3.Literal(URL_ELICITATION_REQUIRED),
  message: Schema3.String,
  data: Schema3.Struct({
    /** The URL-mode elicitations the client must complete before retrying. */
    elicitations: Schema3.Array(ElicitRequestURLParams)
  }, JsonObject)
});
var URLElicitationRequiredError = Schema3.Struct({
  jsonrpc: JsonRpcVersion,
  id: optional(RequestId),
  error: URLElicitationRequiredErrorObject
});
var OptionalRequestParams = Schema3.UndefinedOr(RequestParams);
var OptionalPaginatedRequestParams = Schema3.UndefinedOr(PaginatedRequestParams);
var OptionalNotificationParams = Schema3.UndefinedOr(NotificationParams);
var ClientRequests = {
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
};
var ServerRequests = {
  "ping": { params: OptionalRequestParams, result: EmptyResult },
  "sampling/createMessage": { params: CreateMessageRequestParams, result: CreateMessageResult },
  "elicitation/create": { params: ElicitRequestParams, result: ElicitResult },
  "roots/list": { params: OptionalRequestParams, result: ListRootsResult },
  "tasks/get": { params: GetTaskRequestParams, result: GetTaskResult },
  "tasks/result": { params: GetTaskPayloadRequestParams, result: GetTaskPayloadResult },
  "tasks/cancel": { params: CancelTaskRequestParams, result: CancelTaskResult },
  "tasks/list": { params: OptionalPaginatedRequestParams, result: ListTasksResult }
};

// ../../packages/mcp/src/Protocol.ts
import * as Cause from "effect/Cause";
import * as Deferred from "effect/Deferred";
import * as Duration from "effect/Duration";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import * as HashMap from "effect/HashMap";
import * as Option from "effect/Option";
import * as Ref from "effect/Ref";
import * as Runtime from "effect/Runtime";
import * as Scope from "effect/Scope";
import * as Stream from "effect/Stream";
var DEFAULT_TIMEOUT = Duration.seconds(60);
var DEFAULT_MAX_TIMEOUT = Duration.minutes(10);
var MAX_TIMER_MS = 2147483647;
var isParams = (u) => typeof u === "object" && u !== null;
var nativeTracer = Effect.runSync(Effect.tracer);
var tracing = (fiber) => fiber.currentTracer !== nativeTracer;
var make5 = (transport, options) => Effect.gen(function* () {
  const pendingRef = yield* Ref.make(HashMap.empty());
  const handlers = /* @__PURE__ */ new Map();
  const closedSignal = yield* Deferred.make();
  let closedReason;
  let nextId = 0;
  const defaultTimeout = Duration.toMillis(options.requestTimeout ?? DEFAULT_TIMEOUT);
  const defaultMaxTimeout = Duration.toMillis(options.maxRequestTimeout ?? DEFAULT_MAX_TIMEOUT);
  const side = options.side;
  const spanKind = side === "server" ? "server" : "client";
  const sessionAttribute = options.sessionId === void 0 ? {} : { "mcp.session.id": options.sessionId };
  const connectionClosed = (method) => new ProtocolError({ reason: "ConnectionClosed", method, message: `Connection closed: ${closedReason ?? "closed"}` });
  const send = (message, route) => transport.send(message, route);
  const notify = (method, params, route) => Effect.suspend(
    () => closedReason !== void 0 ? Effect.fail(connectionClosed(method)) : send(notification(method, params), route).pipe(
      Effect.mapError((cause) => new ProtocolError({ reason: "Transport", method, message: cause.message, cause }))
    )
  );
  const sendCancelled = (id, reason, route) => send(notification("notifications/cancelled", { requestId: id, reason }), route).pipe(Effect.ignore);
  const removePending = (id) => Ref.update(pendingRef, (map8) => HashMap.remove(map8, id));
  const requestUntraced = (method, params, requestOptions) => Effect.uninterruptibleMask(
    (restore) => Effect.suspend(() => {
      if (closedReason !== void 0) return Effect.fail(connectionClosed(method));
      const id = nextId++;
      const deferred = Deferred.unsafeMake(FiberId.none);
      const timeoutMs = Duration.toMillis(requestOptions?.timeout ?? defaultTimeout);
      const maxMs = Duration.toMillis(requestOptions?.maxTimeout ?? defaultMaxTimeout);
      const resetOnProgress = requestOptions?.resetTimeoutOnProgress !== false;
      const onProgress2 = requestOptions?.onProgress;
      const route = requestOptions?.route;
      let last = Date.now();
      const started = last;
      let timer;
      const fire = () => {
        const now = Date.now();
        const idleLeft = last + timeoutMs - now;
        const hardLeft = started + maxMs - now;
        if (idleLeft <= 0 || hardLeft <= 0) {
          timer = void 0;
          const ms = idleLeft <= 0 ? timeoutMs : maxMs;
          Deferred.unsafeDone(
            deferred,
            Exit.fail(
              new ProtocolError({ reason: "Timeout", method, message: `Request ${method} timed out after ${ms} ms` })
            )
          );
          return;
        }
        timer = setTimeout(fire, Math.min(idleLeft, hardLeft, MAX_TIMER_MS));
        timer.unref?.();
      };
      const entry = {
        method,
        deferred,
        onProgress: onProgress2,
        touch: resetOnProgress ? () => {
          last = Date.now();
        } : () => {
        }
      };
      let sendParams = params;
      if (onProgress2 !== void 0) {
        const meta = isParams(params?._meta) ? params._meta : {};
        sendParams = { ...params, _meta: { ...meta, progressToken: id } };
      }
      const stopTimer = () => {
        if (timer !== void 0) clearTimeout(timer);
      };
      const awaited = Effect.matchCauseEffect(restore(Deferred.await(deferred)), {
        onSuccess: (result) => {
          stopTimer();
          return Effect.as(removePending(id), result);
        },
        onFailure: (cause) => {
          stopTimer();
          const cancel = method !== "initialize" && closedReason === void 0 && (Cause.isInterrupted(cause) || Option.exists(Cause.failureOption(cause), (e) => e._tag === "ProtocolError" && e.reason === "Timeout"));
          const cleanup = cancel ? Effect.zipRight(
            removePending(id),
            sendCancelled(id, Cause.isInterrupted(cause) ? "Request was cancelled" : "Request timed out", route)
          ) : removePending(id);
          return Effect.zipRight(cleanup, Effect.failCause(cause));
        }
      });
      return Effect.flatMap(Ref.update(pendingRef, (map8) => HashMap.set(map8, id, entry)), () => Effect.matchCauseEffect(send(request(id, method, sendParams), route), {
        onFailure: (cause) => Effect.zipRight(
          removePending(id),
          Option.match(Cause.failureOption(cause), {
            onNone: () => Effect.failCause(cause),
            onSome: (error) => Effect.fail(new ProtocolError({ reason: "Transport", method, message: error.message, cause: error }))
          })
        ),
        onSuccess: () => {
          if (Number.isFinite(timeoutMs) || Number.isFinite(maxMs)) {
            timer = setTimeout(fire, Math.min(timeoutMs, maxMs, MAX_TIMER_MS));
            timer.unref?.();
          }
          return awaited;
        }
      }));
    })
  );
  const request2 = (method, params, requestOptions) => Effect.withFiberRuntime(
    (fiber) => tracing(fiber) ? Effect.withSpan(requestUntraced(method, params, requestOptions), method, {
      kind: "client",
      attributes: { "mcp.method": method, "mcp.side": side, ...sessionAttribute },
      captureStackTrace: false
    }) : requestUntraced(method, params, requestOptions)
  );
  const onResponse = (response) => Effect.flatMap(Ref.get(pendingRef), (map8) => {
    const entry = HashMap.get(map8, response.id);
    if (Option.isNone(entry)) {
      return Effect.logDebug("response for an unknown request id").pipe(
        Effect.annotateLogs({ id: String(response.id), side })
      );
    }
    Deferred.unsafeDone(
      entry.value.deferred,
      "error" in response ? Exit.fail(McpError.fromObject(response.error)) : Exit.succeed(response.result)
    );
    return Effect.void;
  });
  const onProgress = (params) => Effect.flatMap(Ref.get(pendingRef), (map8) => {
    const token = params?.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return Effect.void;
    const entry = HashMap.get(map8, token);
    if (Option.isNone(entry) || entry.value.onProgress === void 0) return Effect.void;
    entry.value.touch();
    return entry.value.onProgress(params);
  });
  const onCancelled = (params) => Effect.sync(() => {
    const id = params?.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    handlers.get(id)?.unsafeInterruptAsFork(FiberId.none);
  });
  const replyDirect = (id) => (response) => response === void 0 ? Effect.void : send(response, { relatedRequestId: id }).pipe(
    Effect.catchAll(
      (error) => Effect.logDebug("could not send a response", error).pipe(Effect.annotateLogs({ side }))
    )
  );
  const diedResponse = (id, cause) => Effect.logError("request handler died", cause).pipe(
    Effect.annotateLogs({ side, id: String(id) }),
    Effect.as(failure(id, { code: ErrorCode.InternalError, message: "Internal error" }))
  );
  let loopRuntime;
  const onRequest = (req, reply) => {
    if (req.method === "ping") return reply(success(req.id, {}));
    const id = req.id;
    if (handlers.has(id)) {
      return reply(
        failure(id, {
          code: ErrorCode.InvalidRequest,
          message: "Invalid Request: a request with this id is already in progress"
        })
      );
    }
    let active = true;
    let scope;
    const incoming = {
      request: req,
      scope: Effect.suspend(
        () => (
          // asked for after the handler ended: what would run in it is interrupted, as it would have been
          !active ? Effect.interrupt : scope !== void 0 ? Effect.succeed(scope) : Effect.map(Scope.make(), (made) => scope = made)
        )
      ),
      isActive: () => active
    };
    const handled = Effect.withFiberRuntime(
      (fiber) => tracing(fiber) ? Effect.withSpan(options.onRequest(incoming), req.method, {
        kind: spanKind,
        attributes: { "mcp.method": req.method, "mcp.request.id": id, "mcp.side": side, ...sessionAttribute },
        captureStackTrace: false
      }) : options.onRequest(incoming)
    );
    const finish = (exit2) => {
      active = false;
      const answer = Exit.isSuccess(exit2) ? reply(success(id, exit2.value)) : Cause.isInterruptedOnly(exit2.cause) ? reply(void 0) : Option.match(Cause.failureOption(exit2.cause), {
        onSome: (error) => reply(failure(id, error.toObject())),
        onNone: () => Effect.flatMap(diedResponse(id, exit2.cause), reply)
      });
      return scope === void 0 ? answer : Effect.zipRight(Scope.close(scope, exit2), answer);
    };
    const handler = Effect.uninterruptibleMask(
      (restore) => Effect.matchCauseEffect(restore(handled), {
        onSuccess: (result) => finish(Exit.succeed(result)),
        onFailure: (cause) => finish(Exit.failCause(cause))
      })
    );
    return Effect.sync(() => {
      const fiber = Runtime.runFork(loopRuntime)(handler);
      handlers.set(id, fiber);
      fiber.addObserver(() => {
        if (handlers.get(id) === fiber) handlers.delete(id);
      });
    });
  };
  const onNotification = (n2) => {
    switch (n2.method) {
      case "notifications/cancelled":
        return onCancelled(n2.params);
      case "notifications/progress":
        return onProgress(n2.params);
      default:
        return options.onNotification(n2);
    }
  };
  const onMessage = (message, reply, replyInvalid) => {
    if (isInvalid(message)) {
      return message.respond ? replyInvalid(failure(message.id, message.error)) : Effect.logDebug("dropped an invalid response", message.error.message);
    }
    if ("method" in message) {
      return "id" in message ? onRequest(message, reply(message.id)) : onNotification(message);
    }
    return onResponse(message);
  };
  const replyInvalidDirect = (response) => response === void 0 ? Effect.void : send(response).pipe(Effect.ignore);
  const onBatch = (batch) => {
    if (options.batches?.() !== true) {
      return replyInvalidDirect(
        failure(null, {
          code: ErrorCode.InvalidRequest,
          message: "Invalid Request: JSON-RPC batches are not supported by the negotiated protocol version"
        })
      );
    }
    let expected = 0;
    for (const m of batch) {
      if (isInvalid(m) ? m.respond : isRequest(m)) expected++;
    }
    const answers = [];
    const collect = (response) => Effect.suspend(() => {
      if (response !== void 0) answers.push(response);
      return --expected === 0 && answers.length > 0 ? send(answers).pipe(Effect.ignore) : Effect.void;
    });
    return Effect.forEach(batch, (m) => onMessage(m, () => collect, collect), { discard: true });
  };
  const onFrame = (frame) => isBatch(frame) ? onBatch(frame) : onMessage(frame, replyDirect, replyInvalidDirect);
  const close2 = (reason) => Effect.suspend(() => {
    if (closedReason !== void 0) return Effect.void;
    closedReason = reason;
    return Ref.getAndSet(pendingRef, HashMap.empty()).pipe(
      Effect.flatMap(
        (map8) => Effect.sync(() => {
          for (const [, entry] of map8) {
            Deferred.unsafeDone(entry.deferred, Exit.fail(connectionClosed(entry.method)));
          }
        })
      ),
      Effect.zipRight(Effect.suspend(() => Fiber.interruptAll(Array.from(handlers.values())))),
      Effect.zipRight(Deferred.succeed(closedSignal, void 0))
    );
  });
  yield* Effect.addFinalizer(
    () => Effect.zipRight(
      close2("the protocol engine was closed"),
      Effect.suspend(() => Fiber.interruptAll(Array.from(handlers.values())))
    )
  );
  yield* Effect.runtime().pipe(
    Effect.flatMap((runtime2) => {
      loopRuntime = Runtime.make({
        context: runtime2.context,
        fiberRefs: runtime2.fiberRefs,
        runtimeFlags: Runtime.defaultRuntime.runtimeFlags
      });
      return transport.incoming.pipe(
        Stream.runForEachChunk((chunk) => Effect.forEach(chunk, onFrame, { discard: true }))
      );
    }),
    Effect.matchCauseEffect({
      onSuccess: () => close2("the peer closed the connection"),
      onFailure: (cause) => Cause.isInterruptedOnly(cause) ? Effect.void : close2(
        Option.match(Cause.failureOption(cause), {
          onNone: () => "the transport failed",
          onSome: (error) => error.message
        })
      ).pipe(Effect.zipRight(Effect.logDebug("transport failed", cause)))
    }),
    Effect.forkScoped,
    Effect.interruptible
  );
  return {
    request: request2,
    notify,
    closed: Deferred.await(closedSignal),
    close: close2,
    pending: Effect.map(Ref.get(pendingRef), HashMap.size),
    running: Effect.sync(() => handlers.size)
  };
});
var keepAlive = (protocol, options) => {
  const interval = Duration.decode(options.interval);
  const maxMissed = options.maxMissed ?? 3;
  const loop = (missed) => Effect.sleep(interval).pipe(
    Effect.zipRight(protocol.request("ping", void 0, { timeout: interval, maxTimeout: interval })),
    Effect.as(0),
    Effect.catchAll(
      (error) => Effect.succeed(
        error._tag === "ProtocolError" && error.reason === "Timeout" ? missed + 1 : error._tag === "ProtocolError" && error.reason === "ConnectionClosed" ? -1 : 0
      )
    ),
    Effect.flatMap(
      (missedNow) => missedNow < 0 ? Effect.void : missedNow >= maxMissed ? protocol.close(`the peer did not answer ${missedNow} keep-alive pings`) : loop(missedNow)
    )
  );
  return Effect.asVoid(Effect.forkScoped(loop(0)));
};

// ../../packages/mcp/src/Transport.ts
import * as Context from "effect/Context";
import * as Effect2 from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Mailbox from "effect/Mailbox";
import "effect/Stream";
var Transport = class extends Context.Tag("@effect-mcp/mcp/Transport")() {
};

// ../../packages/mcp/src/McpClient.ts
var Sampling = class extends Context2.Tag("@effect-mcp/mcp/McpClient/Sampling")() {
};
var Elicitation = class extends Context2.Tag("@effect-mcp/mcp/McpClient/Elicitation")() {
};
var Roots = class extends Context2.Tag("@effect-mcp/mcp/McpClient/Roots")() {
};
var McpClient = class extends Context2.Tag("@effect-mcp/mcp/McpClient")() {
};
var formatIssue = (issue) => ParseResult2.ArrayFormatter.formatIssueSync(issue).map((e) => e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message).join("; ");
var decoderFor = (schema, method) => {
  const decode3 = validator(schema);
  return (u) => {
    const result = decode3(u);
    return Either2.isRight(result) ? Effect3.succeed(result.right) : Effect3.fail(
      new ProtocolError({
        reason: "InvalidResult",
        method,
        message: `Invalid ${method} result: ${formatIssue(result.left)}`
      })
    );
  };
};
var serverRequestDecoders = new Map(
  Object.entries(ServerRequests).map(([method, entry]) => [
    method,
    validator(entry.params)
  ])
);
var applyElicitationDefaults = (requestedSchema, result) => {
  if (result.action !== "accept") return result;
  const content = { ...result.content };
  for (const [key, property] of Object.entries(requestedSchema.properties ?? {})) {
    const def = property.default;
    if (content[key] === void 0 && def !== void 0) content[key] = def;
  }
  return { ...result, content };
};
var make9 = (options) => Effect3.gen(function* () {
  const transport = yield* Transport;
  const sampling = yield* Effect3.serviceOption(Sampling);
  const elicitation = yield* Effect3.serviceOption(Elicitation);
  const roots = yield* Effect3.serviceOption(Roots);
  const notifications = yield* PubSub.unbounded();
  yield* Effect3.addFinalizer(() => PubSub.shutdown(notifications));
  let version;
  const capabilities = { ...options.capabilities };
  if (Option2.isSome(sampling)) capabilities.sampling = sampling.value.tools === true ? { tools: {} } : {};
  if (Option2.isSome(elicitation)) {
    capabilities.elicitation = {
      ...elicitation.value.form !== void 0 ? { form: {} } : {},
      ...elicitation.value.url !== void 0 ? { url: {} } : {}
    };
  }
  if (Option2.isSome(roots)) capabilities.roots = { listChanged: true };
  const onRequest = (incoming) => {
    const { method, params } = incoming.request;
    const decode3 = serverRequestDecoders.get(method);
    if (decode3 === void 0) return Effect3.fail(McpError.methodNotFound(method));
    const decoded = decode3(params);
    if (Either2.isLeft(decoded)) {
      return Effect3.fail(
        McpError.invalidParams(`Invalid params for ${method}: ${formatIssue(decoded.left)}`)
      );
    }
    switch (method) {
      case "sampling/createMessage":
        return Option2.match(sampling, {
          onNone: () => Effect3.fail(McpError.methodNotFound(method)),
          onSome: (s) => s.createMessage(decoded.right)
        });
      case "elicitation/create": {
        const p = decoded.right;
        if (Option2.isNone(elicitation)) return Effect3.fail(McpError.methodNotFound(method));
        if (p.mode === "url") {
          const url = elicitation.value.url;
          return url === void 0 ? Effect3.fail(McpError.invalidParams("This client does not support URL-mode elicitation")) : url(p);
        }
        const form = elicitation.value.form;
        const formParams = p;
        return form === void 0 ? Effect3.fail(McpError.invalidParams("This client does not support form-mode elicitation")) : Effect3.map(form(formParams), (r) => applyElicitationDefaults(formParams.requestedSchema, r));
      }
      case "roots/list":
        return Option2.match(roots, {
          onNone: () => Effect3.fail(McpError.methodNotFound(method)),
          onSome: (r) => Effect3.map(SubscriptionRef.get(r.roots), (list2) => ({ roots: list2 }))
        });
      default:
        return Effect3.fail(McpError.methodNotFound(method));
    }
  };
  const protocol = yield* make5(transport, {
    side: "client",
    onRequest,
    onNotification: (n2) => PubSub.publish(notifications, n2),
    batches: () => allowsBatches(version),
    requestTimeout: options.requestTimeout,
    maxRequestTimeout: options.maxRequestTimeout,
    sessionId: transport.info?.sessionId
  });
  const clientInfo = {
    name: options.name,
    version: options.version,
    ...options.title !== void 0 ? { title: options.title } : {},
    ...options.description !== void 0 ? { description: options.description } : {},
    ...options.websiteUrl !== void 0 ? { websiteUrl: options.websiteUrl } : {},
    ...options.icons !== void 0 ? { icons: options.icons } : {}
  };
  const requested = options.protocolVersion ?? LATEST_VERSION;
  const init = yield* protocol.request("initialize", {
    protocolVersion: requested,
    capabilities,
    clientInfo
  }).pipe(Effect3.flatMap(decoderFor(InitializeResult, "initialize")));
  if (!isSupported(init.protocolVersion)) {
    yield* protocol.close(`the server answered with unsupported protocol version ${init.protocolVersion}`);
    return yield* new ProtocolError({
      reason: "NotInitialized",
      method: "initialize",
      message: `The server chose protocol version ${init.protocolVersion}, which this client does not support`
    });
  }
  version = init.protocolVersion;
  yield* protocol.notify("notifications/initialized");
  if (options.keepAlive !== void 0) yield* keepAlive(protocol, options.keepAlive);
  if (Option2.isSome(roots)) {
    let last = yield* SubscriptionRef.get(roots.value.roots);
    yield* roots.value.roots.changes.pipe(
      Stream3.filter((current) => {
        const changed = current !== last;
        last = current;
        return changed;
      }),
      Stream3.runForEach(() => protocol.notify("notifications/roots/list_changed").pipe(Effect3.ignore)),
      Effect3.forkScoped
    );
  }
  const serverCapabilities = init.capabilities;
  const request2 = (method, params, callOptions) => serverSupports(serverCapabilities, method) ? protocol.request(method, params, callOptions) : Effect3.fail(
    new ProtocolError({
      reason: "CapabilityMissing",
      method,
      message: `The server did not declare the capability for ${method}`
    })
  );
  const typed = (method) => {
    const decode3 = decoderFor(
      ClientRequests[method].result,
      method
    );
    return (params, callOptions) => Effect3.flatMap(request2(method, params, callOptions), decode3);
  };
  const pages = (method, key) => {
    const call = typed(method);
    return Stream3.paginateEffect(void 0, (cursor) => Effect3.map(call(cursor === void 0 ? void 0 : { cursor }), (result) => {
      const items = result[key] ?? [];
      const next = result.nextCursor;
      return [Chunk.fromIterable(items), next === void 0 ? Option2.none() : Option2.some(next)];
    }));
  };
  const list = (method, key) => {
    const paged = pages(method, key);
    return {
      stream: Stream3.flattenChunks(paged),
      all: (o) => {
        const maxPages = o?.maxPages ?? 1e3;
        return paged.pipe(
          Stream3.take(maxPages + 1),
          Stream3.runCollect,
          Effect3.flatMap(
            (chunks) => chunks.length > maxPages ? Effect3.fail(
              new ProtocolError({
                reason: "LimitExceeded",
                method,
                message: `${method} returned more than ${maxPages} pages`
              })
            ) : Effect3.succeed(Chunk.toReadonlyArray(Chunk.flatten(chunks)))
          )
        );
      }
    };
  };
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  const outputValidators = /* @__PURE__ */ new Map();
  const rememberTools = (tools2) => {
    for (const t of tools2) {
      if (t.outputSchema === void 0) {
        outputValidators.delete(t.name);
        continue;
      }
      try {
        const { $id: _id, ...schema } = t.outputSchema;
        const validate = ajv.compile(schema);
        outputValidators.set(t.name, (u) => validate(u));
      } catch {
        outputValidators.delete(t.name);
      }
    }
  };
  const tools = list("tools/list", "tools");
  const listTools = tools.stream.pipe(Stream3.tap((t) => Effect3.sync(() => rememberTools([t]))));
  const resources = list("resources/list", "resources");
  const templates = list("resources/templates/list", "resourceTemplates");
  const prompts = list("prompts/list", "prompts");
  const callToolRaw = typed("tools/call");
  const callTool = (name, args, callOptions) => Effect3.flatMap(
    callToolRaw(args === void 0 ? { name } : { name, arguments: args }, callOptions),
    (result) => {
      const validate = options.validateStructuredContent === false ? void 0 : outputValidators.get(name);
      if (validate === void 0 || result.isError === true) return Effect3.succeed(result);
      if (result.structuredContent === void 0) {
        return Effect3.fail(
          new ProtocolError({
            reason: "InvalidResult",
            method: "tools/call",
            message: `Tool ${name} has an output schema but returned no structuredContent`
          })
        );
      }
      return validate(result.structuredContent) ? Effect3.succeed(result) : Effect3.fail(
        new ProtocolError({
          reason: "InvalidResult",
          method: "tools/call",
          message: `Tool ${name} returned structuredContent that does not match its output schema`
        })
      );
    }
  );
  const callToolStream = (name, args, callOptions) => Stream3.unwrapScoped(Effect3.gen(function* () {
    const mailbox = yield* Mailbox2.make();
    yield* callTool(name, args, {
      ...callOptions,
      onProgress: (progress) => Effect3.asVoid(mailbox.offer({ _tag: "Progress", progress }))
    }).pipe(
      Effect3.flatMap((result) => mailbox.offer({ _tag: "Result", result })),
      Effect3.exit,
      Effect3.flatMap((exit2) => mailbox.done(Exit2.asVoid(exit2))),
      Effect3.forkScoped
    );
    return Mailbox2.toStream(mailbox);
  }));
  const notificationStream = (method) => Stream3.fromPubSub(notifications).pipe(Stream3.filter((n2) => n2.method === method));
  const subscribeCall = typed("resources/subscribe");
  const unsubscribeCall = typed("resources/unsubscribe");
  return {
    serverInfo: init.serverInfo,
    serverCapabilities,
    protocolVersion: init.protocolVersion,
    instructions: init.instructions,
    request: request2,
    notify: (method, params) => protocol.notify(method, params),
    ping: Effect3.asVoid(protocol.request("ping")),
    listTools,
    listToolsAll: (o) => Effect3.tap(tools.all(o), (all) => Effect3.sync(() => rememberTools(all))),
    callTool,
    callToolStream,
    listResources: resources.stream,
    listResourcesAll: resources.all,
    listResourceTemplates: templates.stream,
    listResourceTemplatesAll: templates.all,
    readResource: (uri, o) => typed("resources/read")({ uri }, o),
    subscribe: (uri) => Effect3.gen(function* () {
      const subscription = yield* PubSub.subscribe(notifications);
      yield* Effect3.acquireRelease(
        subscribeCall({ uri }),
        () => unsubscribeCall({ uri }).pipe(Effect3.ignore)
      );
      return Stream3.fromQueue(subscription).pipe(
        Stream3.filter((n2) => n2.method === "notifications/resources/updated" && n2.params?.uri === uri),
        Stream3.map((n2) => n2.params)
      );
    }),
    listPrompts: prompts.stream,
    listPromptsAll: prompts.all,
    getPrompt: (name, args, o) => typed("prompts/get")(args === void 0 ? { name } : { name, arguments: args }, o),
    complete: (params) => typed("completion/complete")(params),
    setLogLevel: (level) => Effect3.asVoid(typed("logging/setLevel")({ level })),
    notifications: Stream3.fromPubSub(notifications),
    toolListChanged: Stream3.map(notificationStream("notifications/tools/list_changed"), () => void 0),
    resourceListChanged: Stream3.map(notificationStream("notifications/resources/list_changed"), () => void 0),
    promptListChanged: Stream3.map(notificationStream("notifications/prompts/list_changed"), () => void 0),
    logMessages: notificationStream("notifications/message").pipe(
      Stream3.map((n2) => n2.params)
    ),
    closed: protocol.closed
  };
});
var layer = (options) => Layer2.scoped(McpClient, make9(options));

// ../../packages/node/src/NodeStdio.ts
import * as Context3 from "effect/Context";
import * as Deferred2 from "effect/Deferred";
import * as Duration2 from "effect/Duration";
import * as Effect5 from "effect/Effect";
import * as Exit3 from "effect/Exit";
import * as Layer3 from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import * as Mailbox3 from "effect/Mailbox";
import * as Option4 from "effect/Option";
import * as PubSub2 from "effect/PubSub";
import * as Stream5 from "effect/Stream";
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";

// ../../packages/node/src/NdJson.ts
import * as Chunk2 from "effect/Chunk";
import * as Effect4 from "effect/Effect";
import * as Option3 from "effect/Option";
import * as Stream4 from "effect/Stream";
var DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
var NL = 10;
var CR = 13;
var tooLarge = (max) => invalid(
  null,
  ErrorCode.ParseError,
  `Parse error: message exceeds the maximum size of ${max} bytes`
);
var isBlank = (text) => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
};
var toBuffer = (chunk) => Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
var makeDecoder = (options) => {
  const max = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  let parts = [];
  let partsLength = 0;
  let discarding = false;
  let first = true;
  const emitLine = (buf, start, end2, out) => {
    if (end2 > start && buf[end2 - 1] === CR) end2--;
    const isFirst = first;
    first = false;
    if (end2 - start > max) {
      out.push(tooLarge(max));
      return;
    }
    if (end2 === start) return;
    let text = buf.toString("utf8", start, end2);
    if (isFirst && text.charCodeAt(0) === 65279) text = text.slice(1);
    const c = text.charCodeAt(0);
    if (c !== 123 && c !== 91 && isBlank(text)) return;
    out.push(parse(text));
  };
  const push = (chunk) => {
    const buf = toBuffer(chunk);
    const out = [];
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(NL, start);
      if (nl === -1) {
        if (discarding) break;
        const rest = buf.length - start;
        if (partsLength + rest > max + 1) {
          out.push(tooLarge(max));
          first = false;
          discarding = true;
          parts = [];
          partsLength = 0;
        } else {
          parts.push(start === 0 ? buf : buf.subarray(start));
          partsLength += rest;
        }
        break;
      }
      if (discarding) {
        discarding = false;
      } else if (parts.length === 0) {
        emitLine(buf, start, nl, out);
      } else if (partsLength + nl - start > max + 1) {
        parts = [];
        partsLength = 0;
        first = false;
        out.push(tooLarge(max));
      } else {
        const length = partsLength + nl - start;
        parts.push(buf.subarray(start, nl));
        const line = Buffer.concat(parts, length);
        parts = [];
        partsLength = 0;
        emitLine(line, 0, length, out);
      }
      start = nl + 1;
    }
    return out;
  };
  const end = () => {
    const out = [];
    if (!discarding && parts.length > 0) {
      const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, partsLength);
      emitLine(line, 0, line.length, out);
    }
    parts = [];
    partsLength = 0;
    discarding = false;
    return out;
  };
  return { push, end };
};
var fromReadable = (readable, options) => Stream4.unwrapScoped(
  Effect4.acquireRelease(
    Effect4.sync(() => {
      const latch = Effect4.unsafeMakeLatch(false);
      const state = {
        latch,
        ended: readable.readableEnded,
        error: readable.errored ?? void 0,
        finished: false,
        onReadable: () => latch.unsafeOpen(),
        onEnd: () => {
          state.ended = true;
          latch.unsafeOpen();
        },
        onError: (error) => {
          state.error = error;
          latch.unsafeOpen();
        },
        onClose: () => {
          if (!state.ended && state.error === void 0) state.ended = true;
          latch.unsafeOpen();
        }
      };
      readable.on("readable", state.onReadable);
      readable.on("end", state.onEnd);
      readable.on("error", state.onError);
      readable.on("close", state.onClose);
      if (readable.destroyed && !state.ended && state.error === void 0) state.ended = true;
      return state;
    }),
    (state) => Effect4.sync(() => {
      readable.off("readable", state.onReadable);
      readable.off("end", state.onEnd);
      readable.off("error", state.onError);
      readable.off("close", state.onClose);
      if (options?.destroyOnDone === true && !readable.destroyed) readable.destroy();
    })
  ).pipe(
    Effect4.map((state) => {
      const decoder = makeDecoder(options);
      const pull = Effect4.suspend(
        function loop() {
          if (state.finished) return Effect4.fail(Option3.none());
          if (state.error === void 0) {
            let frames;
            for (; ; ) {
              const buf = readable.read();
              if (buf === null) break;
              const decoded = decoder.push(typeof buf === "string" ? Buffer.from(buf, "utf8") : buf);
              if (decoded.length > 0) {
                if (frames === void 0) frames = decoded;
                else for (const f of decoded) frames.push(f);
              }
            }
            if (frames !== void 0) return Effect4.succeed(Chunk2.unsafeFromArray(frames));
          }
          if (state.error !== void 0) {
            state.finished = true;
            const cause = state.error;
            return Effect4.fail(
              Option3.some(
                // a stream destroyed with a TransportError (the owner knows why) keeps it
                cause instanceof TransportError ? cause : new TransportError({
                  reason: "Read",
                  message: `could not read: ${cause instanceof Error ? cause.message : String(cause)}`,
                  cause
                })
              )
            );
          }
          if (state.ended || readable.readableEnded) {
            state.finished = true;
            const last = decoder.end();
            return last.length > 0 ? Effect4.succeed(Chunk2.unsafeFromArray(last)) : Effect4.fail(Option3.none());
          }
          state.latch.unsafeClose();
          return Effect4.flatMap(state.latch.await, loop);
        }
      );
      return Stream4.repeatEffectChunkOption(pull);
    })
  )
);
var makeWriter = (writable, options) => Effect4.acquireRelease(Effect4.sync(() => unsafeMakeWriter(writable, options)), ([, release]) => Effect4.sync(release)).pipe(
  Effect4.map(([writer]) => writer)
);
var unsafeMakeWriter = (writable, options) => {
  let texts = [];
  let waiters = [];
  let scheduled = false;
  let blocked = false;
  let failure2;
  const writeError = (cause) => new TransportError({
    reason: "Write",
    message: `could not write: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  });
  const currentFailure = () => {
    if (failure2 !== void 0) return failure2;
    const closed = options?.closed?.();
    if (closed !== void 0) return closed;
    if (writable.destroyed || writable.writableEnded || writable.errored) {
      return writable.errored ? writeError(writable.errored) : new TransportError({ reason: "Closed", message: "the output stream is closed" });
    }
    return void 0;
  };
  const fail7 = (error) => {
    if (failure2 === void 0) failure2 = error;
    const ws = waiters;
    texts = [];
    waiters = [];
    for (const w of ws) w(Effect4.fail(error));
  };
  const onError = (error) => fail7(writeError(error));
  const onClose = () => {
    if (waiters.length > 0 || blocked) fail7(new TransportError({ reason: "Closed", message: "the output stream closed" }));
  };
  writable.on("error", onError);
  writable.on("close", onClose);
  const onDrain = () => {
    blocked = false;
    flush();
  };
  const flush = () => {
    scheduled = false;
    if (blocked || texts.length === 0) return;
    const error = currentFailure();
    if (error !== void 0) return fail7(error);
    const data = texts.length === 1 ? texts[0] : texts.join("");
    const ws = waiters;
    texts = [];
    waiters = [];
    let ok;
    try {
      ok = writable.write(data, (err) => {
        if (err) fail7(writeError(err));
      });
    } catch (err) {
      const e = writeError(err);
      for (const w of ws) w(Effect4.fail(e));
      fail7(e);
      return;
    }
    if (!ok && failure2 === void 0) {
      waiters = ws.length === 0 ? waiters : ws.concat(waiters);
      blocked = true;
      writable.once("drain", onDrain);
      return;
    }
    for (const w of ws) w(Effect4.void);
  };
  const enqueue = (text) => Effect4.suspend(() => {
    const error = currentFailure();
    if (error !== void 0) return Effect4.fail(error);
    texts.push(text);
    if (!scheduled && !blocked) {
      scheduled = true;
      process.nextTick(flush);
    }
    return blocked ? Effect4.async((resume) => void waiters.push(resume)) : Effect4.void;
  });
  const release = () => {
    writable.off("error", onError);
    writable.off("close", onClose);
    writable.off("drain", onDrain);
  };
  const writer = {
    send: (message) => Effect4.suspend(() => enqueue(encode(message) + "\n")),
    writeRaw: enqueue,
    fail: fail7
  };
  return [writer, release];
};

// ../../packages/node/src/NodeStdio.ts
var DEFAULT_CLOSE_TIMEOUT = Duration2.seconds(2);
var DEFAULT_KILL_TIMEOUT = Duration2.seconds(2);
var SIGKILL_WAIT = Duration2.seconds(2);
var EXIT_DRAIN_GRACE = Duration2.millis(500);
var STDERR_REPLAY = 100;
var STDERR_MAX_LINE = 64 * 1024;
var describeCommand = (command, args) => {
  const text = [command, ...args].join(" ");
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};
var makeClient = (options) => Effect5.gen(function* () {
  const args = options.args ?? [];
  const label = describeCommand(options.command, args);
  const closeMs = Duration2.toMillis(options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT);
  const killMs = Duration2.toMillis(options.killTimeout ?? DEFAULT_KILL_TIMEOUT);
  const tailSize = Math.max(0, options.stderrTailLines ?? 10);
  const logLevel = LogLevel.fromLiteral(options.stderrLogLevel ?? "Debug");
  const stderrLines = yield* Mailbox3.make();
  const stderrPubSub = yield* PubSub2.sliding({ capacity: 1024, replay: STDERR_REPLAY });
  const tail = [];
  yield* Effect5.addFinalizer(() => PubSub2.publish(stderrPubSub, void 0));
  yield* stderrLines.takeAll.pipe(
    Effect5.flatMap(
      ([lines, done]) => Effect5.forEach(lines, (line) => (logLevel._tag === "None" ? Effect5.void : Effect5.logWithLevel(logLevel, line)).pipe(
        Effect5.zipRight(PubSub2.publish(stderrPubSub, line))
      ), { discard: true }).pipe(
        Effect5.zipRight(done ? PubSub2.publish(stderrPubSub, void 0) : Effect5.void),
        Effect5.as(done)
      )
    ),
    Effect5.repeat({ until: (done) => done }),
    Effect5.annotateLogs({ "mcp.stdio.stream": "stderr", "mcp.stdio.command": label }),
    Effect5.forkScoped
  );
  const exited = yield* Deferred2.make();
  const allClosed = yield* Deferred2.make();
  let exitInfo;
  let closing = false;
  const exitMessage = (pid2) => {
    const what = exitInfo === void 0 ? "closed its stdout" : exitInfo.signal !== null ? `was killed by signal ${exitInfo.signal}` : `exited with code ${exitInfo.code}`;
    const stderr2 = tail.length > 0 ? `; last stderr lines:
${tail.join("\n")}` : "; no stderr output";
    return `the MCP server process (${label}, pid ${pid2}) ${what}${stderr2}`;
  };
  let onParentExit;
  const signalGroup = (child2, pid2, signal) => {
    try {
      if (process.platform === "win32") child2.kill(signal);
      else process.kill(-pid2, signal);
    } catch {
    }
  };
  const groupAlive = (pid2) => {
    if (process.platform === "win32") return exitInfo === void 0;
    try {
      process.kill(-pid2, 0);
      return true;
    } catch (e) {
      return e.code === "EPERM";
    }
  };
  const awaitExit = (ms) => Effect5.interruptible(Deferred2.await(exited)).pipe(Effect5.timeoutOption(Duration2.millis(ms)));
  const awaitGroup = (pid2, ms) => Effect5.suspend(() => {
    const deadline = Date.now() + ms;
    return awaitExit(ms).pipe(
      Effect5.zipRight(
        Effect5.suspend(function poll() {
          if (exitInfo !== void 0 && !groupAlive(pid2)) return Effect5.succeed(true);
          if (Date.now() >= deadline) return Effect5.succeed(false);
          return Effect5.flatMap(Effect5.sleep(Duration2.millis(20)), poll);
        })
      )
    );
  });
  const shutdown2 = (child2) => {
    const pid2 = child2.pid;
    return Effect5.gen(function* () {
      closing = true;
      if (exitInfo === void 0) {
        child2.stdin.end();
        const gone = yield* awaitExit(closeMs);
        if (Option4.isNone(gone)) yield* Effect5.logDebug("the server did not exit after its stdin closed; SIGTERM");
      }
      if (groupAlive(pid2)) {
        signalGroup(child2, pid2, "SIGTERM");
        const gone = yield* awaitGroup(pid2, killMs);
        if (!gone) {
          yield* Effect5.logDebug("the server did not exit after SIGTERM; SIGKILL");
          signalGroup(child2, pid2, "SIGKILL");
          const killed = yield* awaitExit(Duration2.toMillis(SIGKILL_WAIT));
          if (Option4.isNone(killed)) yield* Effect5.logWarning("the server process did not exit after SIGKILL");
        }
      }
      if (onParentExit !== void 0) process.off("exit", onParentExit);
      child2.stdin.destroy();
      child2.stdout.destroy();
      child2.stderr.destroy();
    }).pipe(Effect5.annotateLogs({ "mcp.stdio.command": label, "mcp.stdio.pid": pid2 }));
  };
  const spawnChild = Effect5.async((resume) => {
    let child2;
    try {
      child2 = spawn(options.command, args, {
        cwd: options.cwd,
        env: options.inheritEnv === false ? { ...options.env } : { ...process.env, ...options.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true
      });
    } catch (cause) {
      return resume(Effect5.fail(
        new TransportError({
          reason: "Closed",
          message: `could not start ${label}: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause
        })
      ));
    }
    const ignore3 = () => {
    };
    child2.stdin.on("error", ignore3);
    child2.stdout.on("error", ignore3);
    child2.stderr.on("error", ignore3);
    child2.on("exit", (code, signal) => {
      exitInfo = { code, signal };
      Deferred2.unsafeDone(exited, Exit3.succeed(exitInfo));
    });
    child2.on("close", () => Deferred2.unsafeDone(allClosed, Exit3.void));
    const decoder = new StringDecoder("utf8");
    let partial = "";
    const line = (text) => {
      if (text.endsWith("\r")) text = text.slice(0, -1);
      if (tailSize > 0) {
        tail.push(text);
        if (tail.length > tailSize) tail.shift();
      }
      stderrLines.unsafeOffer(text);
    };
    child2.stderr.on("data", (chunk) => {
      const text = partial + decoder.write(chunk);
      const parts = text.split("\n");
      partial = parts.pop() ?? "";
      for (const p of parts) line(p);
      while (partial.length > STDERR_MAX_LINE) {
        line(partial.slice(0, STDERR_MAX_LINE));
        partial = partial.slice(STDERR_MAX_LINE);
      }
    });
    let stderrEnded = false;
    const endStderr = () => {
      if (stderrEnded) return;
      stderrEnded = true;
      const rest = partial + decoder.end();
      partial = "";
      if (rest.length > 0) line(rest);
      stderrLines.unsafeDone(Exit3.void);
    };
    child2.stderr.on("end", endStderr);
    child2.stderr.on("close", endStderr);
    child2.once("spawn", () => {
      const pid2 = child2.pid;
      onParentExit = () => signalGroup(child2, pid2, "SIGTERM");
      process.once("exit", onParentExit);
      resume(Effect5.succeed(child2));
    });
    child2.once("error", (cause) => {
      if (child2.pid === void 0) {
        resume(Effect5.fail(
          new TransportError({ reason: "Closed", message: `could not start ${label}: ${cause.message}`, cause })
        ));
      }
    });
  });
  const child = yield* Effect5.acquireRelease(spawnChild, shutdown2);
  const pid = child.pid;
  const exitError = () => new TransportError({ reason: "Closed", message: exitMessage(pid) });
  const writer = yield* makeWriter(child.stdin, {
    closed: () => closing ? new TransportError({ reason: "Closed", message: "the stdio transport was closed" }) : exitInfo !== void 0 ? exitError() : void 0
  });
  const afterStdoutEnd = Effect5.suspend(
    () => closing ? Effect5.void : Deferred2.await(allClosed).pipe(
      Effect5.timeoutOption(EXIT_DRAIN_GRACE),
      Effect5.zipRight(Effect5.suspend(() => closing ? Effect5.void : Effect5.fail(exitError())))
    )
  );
  const exitWithoutEnd = Deferred2.await(exited).pipe(
    Effect5.zipRight(Effect5.sleep(EXIT_DRAIN_GRACE)),
    Effect5.zipRight(Effect5.suspend(() => closing ? Effect5.never : Effect5.fail(exitError())))
  );
  yield* exitWithoutEnd.pipe(
    Effect5.catchAll((error) => Effect5.sync(() => child.stdout.destroy(error))),
    Effect5.forkScoped
  );
  const incoming = fromReadable(child.stdout, { maxMessageBytes: options.maxMessageBytes }).pipe(
    Stream5.concat(Stream5.drain(Stream5.fromEffect(afterStdoutEnd)))
  );
  const stderr = Stream5.fromPubSub(stderrPubSub).pipe(
    Stream5.takeWhile((line) => line !== void 0),
    Stream5.map((line) => line)
  );
  return {
    transport: { incoming, send: (message) => writer.send(message) },
    pid,
    stderr,
    stderrTail: Effect5.sync(() => tail.slice()),
    exit: Deferred2.await(exited),
    writeRaw: writer.writeRaw
  };
});
var layerClient = (options) => Layer3.scopedContext(
  Effect5.map(makeClient(options), (child) => Context3.make(StdioChild, child).pipe(Context3.add(Transport, child.transport)))
);
var StdioChild = class extends Context3.Tag("@effect-mcp/node/NodeStdio/StdioChild")() {
  static make = makeClient;
  static layer = layerClient;
};

// clientDrive.ts
import * as Effect6 from "effect/Effect";
import * as Layer4 from "effect/Layer";
var argv = process.argv.slice(2);
var n = Number(argv[0]);
var cmd = argv.slice(argv.indexOf("--") + 1);
var conc = Number(process.env.CONC ?? 1);
var warm = Number(process.env.WARM ?? 5e3);
var program = Effect6.gen(function* () {
  const client = yield* McpClient;
  const echo = client.callTool("echo", { text: "hello, model context protocol" });
  const run = (count) => conc === 1 ? Effect6.repeatN(echo, count - 1) : Effect6.forEach(Array.from({ length: count }), () => echo, { concurrency: conc, discard: true });
  yield* run(warm);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  yield* run(n);
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  console.log(`${(n / (t1 - t0) * 1e3).toFixed(0)} calls/s, client ${((c1.user + c1.system) / n).toFixed(1)} \xB5s/call`);
}).pipe(
  Effect6.provide(
    layer({ name: "drive", version: "1" }).pipe(
      Layer4.provide(layerClient({ command: cmd[0], args: cmd.slice(1) }))
    )
  )
);
Effect6.runPromise(program).then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
