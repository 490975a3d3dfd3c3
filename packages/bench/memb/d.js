var __defProp = Object.defineProperty;
var __export = (target, all2) => {
  for (var name in all2)
    __defProp(target, name, { get: all2[name], enumerable: true });
};

// ../../work/main/packages/mcp/src/McpServer.ts
var McpServer_exports = {};
__export(McpServer_exports, {
  McpServer: () => McpServer,
  layer: () => layer,
  make: () => make9,
  notifyResourceUpdated: () => notifyResourceUpdated,
  prompt: () => prompt,
  register: () => register,
  resource: () => resource,
  resourceTemplate: () => resourceTemplate,
  run: () => run,
  tool: () => tool
});
import * as Context4 from "effect/Context";
import * as Effect5 from "effect/Effect";
import * as Either3 from "effect/Either";
import * as JSONSchema from "effect/JSONSchema";
import * as Layer2 from "effect/Layer";
import * as Option3 from "effect/Option";
import * as ParseResult3 from "effect/ParseResult";
import * as Ref2 from "effect/Ref";
import * as Schema4 from "effect/Schema";
import * as Scope2 from "effect/Scope";
import "effect/Duration";
import * as Encoding from "effect/Encoding";
import * as FiberRef from "effect/FiberRef";
import * as Tracer from "effect/Tracer";

// ../../work/main/packages/mcp/src/HandlerContext.ts
import * as Context2 from "effect/Context";
import * as Effect from "effect/Effect";
import * as Either2 from "effect/Either";
import * as Fiber from "effect/Fiber";
import * as ParseResult2 from "effect/ParseResult";

// ../../work/main/packages/mcp/src/internal/validate.ts
import * as Either from "effect/Either";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
var validator = (schema) => {
  const is2 = Schema.is(schema);
  const decode4 = ParseResult.decodeUnknownEither(schema, { errors: "all" });
  return (u) => is2(u) ? Either.right(u) : decode4(u);
};

// ../../work/main/packages/mcp/src/Lifecycle.ts
var SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
var LATEST_VERSION = "2025-11-25";
var DEFAULT_HTTP_VERSION = "2025-03-26";
var isSupported = (version) => typeof version === "string" && SUPPORTED_VERSIONS.includes(version);
var negotiate = (requested) => isSupported(requested) ? requested : LATEST_VERSION;
var allowsBatches = (version) => version === "2025-03-26" || version === "2024-11-05";
var allowsElicitation = (version) => version !== void 0 && version >= "2025-06-18";
var has = (capabilities, path) => {
  let current = capabilities;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !(key in current)) return false;
    current = current[key];
  }
  return current !== void 0 && current !== null && current !== false;
};
var clientCapabilityFor = (method, params) => {
  switch (method) {
    case "sampling/createMessage":
      if (params !== void 0 && (params.tools !== void 0 || params.toolChoice !== void 0)) return ["sampling", "tools"];
      if (params?.includeContext === "thisServer" || params?.includeContext === "allServers") return ["sampling", "context"];
      return ["sampling"];
    case "elicitation/create":
      return params?.mode === "url" ? ["elicitation", "url"] : ["elicitation"];
    case "roots/list":
      return ["roots"];
    case "tasks/get":
    case "tasks/result":
    case "tasks/list":
    case "tasks/cancel":
      return ["tasks"];
    default:
      return void 0;
  }
};
var clientSupports = (capabilities, method, params) => {
  const path = clientCapabilityFor(method, params);
  if (path === void 0) return true;
  if (method === "elicitation/create" && params?.mode !== "url") {
    const e = capabilities?.elicitation;
    return typeof e === "object" && e !== null && ("form" in e || Object.keys(e).length === 0);
  }
  return has(capabilities, path);
};

// ../../work/main/packages/mcp/src/McpError.ts
import * as Schema2 from "effect/Schema";

// ../../work/main/packages/mcp/src/JsonRpc.ts
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

// ../../work/main/packages/mcp/src/McpError.ts
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

// ../../work/main/packages/mcp/src/McpSchema.ts
import * as Schema3 from "effect/Schema";
var JSONRPC_VERSION = "2.0";
var URL_ELICITATION_REQUIRED = -32042;
var RESOURCE_NOT_FOUND = -32002;
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

// ../../work/main/packages/mcp/src/ServerSession.ts
import * as Context from "effect/Context";
var ServerSession = class extends Context.Tag("@effect-mcp/mcp/ServerSession")() {
};
var LEVELS = LoggingLevel.literals;
var levelAllows = (threshold, level) => threshold === void 0 || LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);

// ../../work/main/packages/mcp/src/HandlerContext.ts
var HandlerContext = class extends Context2.Tag("@effect-mcp/mcp/HandlerContext")() {
};
var formatIssue = (issue) => ParseResult2.ArrayFormatter.formatIssueSync(issue).map((e) => e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message).join("; ");
var decodeResult = (schema, method) => {
  const decode4 = validator(schema);
  return (result) => {
    const decoded = decode4(result);
    return Either2.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(
      new ProtocolError({
        reason: "InvalidResult",
        method,
        message: `Invalid ${method} result: ${formatIssue(decoded.left)}`
      })
    );
  };
};
var decodeSample = decodeResult(CreateMessageResult, "sampling/createMessage");
var decodeElicit = decodeResult(ElicitResult, "elicitation/create");
var decodeRoots = decodeResult(ListRootsResult, "roots/list");
var unsafeMake = (options) => build(options, options.incoming.isActive);
var build = (options, isActive) => {
  const { incoming, protocol, session } = options;
  const req = incoming.request;
  const meta = req.params?._meta;
  const token = meta?.progressToken;
  const progressToken = typeof token === "string" || typeof token === "number" ? token : void 0;
  const route = { relatedRequestId: req.id };
  const ended = (method) => new ProtocolError({
    reason: "RequestEnded",
    method,
    message: `The request ${req.method} (id ${String(req.id)}) has ended; use ServerSession for work that outlives it`
  });
  const request2 = (method, params, callOptions) => Effect.suspend(() => {
    if (!isActive()) return Effect.fail(ended(method));
    const capable = clientSupports(session.clientCapabilities(), method, params) && (method !== "elicitation/create" || allowsElicitation(session.protocolVersion()));
    if (!capable) {
      return Effect.fail(
        new ProtocolError({
          reason: "CapabilityMissing",
          method,
          message: `The client did not declare the capability for ${method}`
        })
      );
    }
    return Effect.flatMap(
      Effect.flatMap(incoming.scope, (scope) => Effect.forkIn(protocol.request(method, params, { ...callOptions, route }), scope)),
      (fiber) => Effect.onInterrupt(Fiber.join(fiber), () => Fiber.interrupt(fiber))
    );
  });
  const notify = (method, params) => Effect.suspend(() => isActive() ? protocol.notify(method, params, route) : Effect.fail(ended(method)));
  return {
    requestId: req.id,
    method: req.method,
    meta,
    progressToken,
    session,
    isActive,
    request: request2,
    sample: (params, o) => Effect.flatMap(request2("sampling/createMessage", params, o), decodeSample),
    elicit: (params, o) => Effect.flatMap(request2("elicitation/create", params, o), decodeElicit),
    listRoots: (o) => Effect.flatMap(request2("roots/list", void 0, o), decodeRoots),
    notify,
    closeStream: options.closeStream ?? Effect.void,
    progress: (progress, o) => progressToken === void 0 ? Effect.void : notify("notifications/progress", {
      progressToken,
      progress,
      ...o?.total !== void 0 ? { total: o.total } : {},
      ...o?.message !== void 0 ? { message: o.message } : {}
    }).pipe(Effect.ignore),
    log: (level, data, logger) => levelAllows(session.logLevel(), level) ? notify("notifications/message", logger === void 0 ? { level, data } : { level, data, logger }).pipe(
      Effect.ignore
    ) : Effect.void
  };
};

// ../../work/main/packages/mcp/src/Protocol.ts
import * as Cause from "effect/Cause";
import * as Deferred from "effect/Deferred";
import * as Duration from "effect/Duration";
import * as Effect3 from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber2 from "effect/Fiber";
import * as FiberId from "effect/FiberId";
import * as HashMap from "effect/HashMap";
import * as Option from "effect/Option";
import * as Ref from "effect/Ref";
import * as Runtime from "effect/Runtime";
import * as Scope from "effect/Scope";
import * as Stream from "effect/Stream";

// ../../work/main/packages/mcp/src/internal/tracing.ts
import * as Effect2 from "effect/Effect";
var nativeTracer = Effect2.runSync(Effect2.tracer);
var tracing = (fiber) => fiber.currentTracer !== nativeTracer;

// ../../work/main/packages/mcp/src/Protocol.ts
var DEFAULT_TIMEOUT = Duration.seconds(60);
var DEFAULT_MAX_TIMEOUT = Duration.minutes(10);
var MAX_TIMER_MS = 2147483647;
var isParams = (u) => typeof u === "object" && u !== null;
var make5 = (transport, options) => Effect3.gen(function* () {
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
  const notify = (method, params, route) => Effect3.suspend(
    () => closedReason !== void 0 ? Effect3.fail(connectionClosed(method)) : send(notification(method, params), route).pipe(
      Effect3.mapError((cause) => new ProtocolError({ reason: "Transport", method, message: cause.message, cause }))
    )
  );
  const sendCancelled = (id, reason, route) => send(notification("notifications/cancelled", { requestId: id, reason }), route).pipe(Effect3.ignore);
  const removePending = (id) => Ref.update(pendingRef, (map7) => HashMap.remove(map7, id));
  const requestUntraced = (method, params, requestOptions) => Effect3.uninterruptibleMask(
    (restore) => Effect3.suspend(() => {
      if (closedReason !== void 0) return Effect3.fail(connectionClosed(method));
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
      const awaited = Effect3.matchCauseEffect(restore(Deferred.await(deferred)), {
        onSuccess: (result) => {
          stopTimer();
          return Effect3.as(removePending(id), result);
        },
        onFailure: (cause) => {
          stopTimer();
          const cancel = method !== "initialize" && closedReason === void 0 && (Cause.isInterrupted(cause) || Option.exists(Cause.failureOption(cause), (e) => e._tag === "ProtocolError" && e.reason === "Timeout"));
          const cleanup = cancel ? Effect3.zipRight(
            removePending(id),
            sendCancelled(id, Cause.isInterrupted(cause) ? "Request was cancelled" : "Request timed out", route)
          ) : removePending(id);
          return Effect3.zipRight(cleanup, Effect3.failCause(cause));
        }
      });
      return Effect3.flatMap(Ref.update(pendingRef, (map7) => HashMap.set(map7, id, entry)), () => Effect3.matchCauseEffect(send(request(id, method, sendParams), route), {
        onFailure: (cause) => Effect3.zipRight(
          removePending(id),
          Option.match(Cause.failureOption(cause), {
            onNone: () => Effect3.failCause(cause),
            onSome: (error) => Effect3.fail(new ProtocolError({ reason: "Transport", method, message: error.message, cause: error }))
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
  const request2 = (method, params, requestOptions) => Effect3.withFiberRuntime(
    (fiber) => tracing(fiber) ? Effect3.withSpan(requestUntraced(method, params, requestOptions), method, {
      kind: "client",
      attributes: { "mcp.method": method, "mcp.side": side, ...sessionAttribute },
      captureStackTrace: false
    }) : requestUntraced(method, params, requestOptions)
  );
  const onResponse = (response) => Effect3.flatMap(Ref.get(pendingRef), (map7) => {
    const entry = HashMap.get(map7, response.id);
    if (Option.isNone(entry)) {
      return Effect3.logDebug("response for an unknown request id").pipe(
        Effect3.annotateLogs({ id: String(response.id), side })
      );
    }
    Deferred.unsafeDone(
      entry.value.deferred,
      "error" in response ? Exit.fail(McpError.fromObject(response.error)) : Exit.succeed(response.result)
    );
    return Effect3.void;
  });
  const onProgress = (params) => Effect3.flatMap(Ref.get(pendingRef), (map7) => {
    const token = params?.progressToken;
    if (typeof token !== "string" && typeof token !== "number") return Effect3.void;
    const entry = HashMap.get(map7, token);
    if (Option.isNone(entry) || entry.value.onProgress === void 0) return Effect3.void;
    entry.value.touch();
    return entry.value.onProgress(params);
  });
  const onCancelled = (params) => Effect3.sync(() => {
    const id = params?.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    handlers.get(id)?.unsafeInterruptAsFork(FiberId.none);
  });
  const replyDirect = (id) => (response) => response === void 0 ? Effect3.void : send(response, { relatedRequestId: id }).pipe(
    Effect3.catchAll(
      (error) => Effect3.logDebug("could not send a response", error).pipe(Effect3.annotateLogs({ side }))
    )
  );
  const diedResponse = (id, cause) => Effect3.logError("request handler died", cause).pipe(
    Effect3.annotateLogs({ side, id: String(id) }),
    Effect3.as(failure(id, { code: ErrorCode.InternalError, message: "Internal error" }))
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
      scope: Effect3.suspend(
        () => (
          // asked for after the handler ended: what would run in it is interrupted, as it would have been
          !active ? Effect3.interrupt : scope !== void 0 ? Effect3.succeed(scope) : Effect3.map(Scope.make(), (made) => scope = made)
        )
      ),
      isActive: () => active
    };
    const handled = Effect3.withFiberRuntime(
      (fiber) => tracing(fiber) ? Effect3.withSpan(options.onRequest(incoming), req.method, {
        kind: spanKind,
        attributes: { "mcp.method": req.method, "mcp.request.id": id, "mcp.side": side, ...sessionAttribute },
        captureStackTrace: false
      }) : options.onRequest(incoming)
    );
    const finish = (exit) => {
      active = false;
      const answer = Exit.isSuccess(exit) ? reply(success(id, exit.value)) : Cause.isInterruptedOnly(exit.cause) ? reply(void 0) : Option.match(Cause.failureOption(exit.cause), {
        onSome: (error) => reply(failure(id, error.toObject())),
        onNone: () => Effect3.flatMap(diedResponse(id, exit.cause), reply)
      });
      return scope === void 0 ? answer : Effect3.zipRight(Scope.close(scope, exit), answer);
    };
    const handler = Effect3.uninterruptibleMask(
      (restore) => Effect3.matchCauseEffect(restore(handled), {
        onSuccess: (result) => finish(Exit.succeed(result)),
        onFailure: (cause) => finish(Exit.failCause(cause))
      })
    );
    return Effect3.sync(() => {
      const fiber = Runtime.runFork(loopRuntime)(handler);
      handlers.set(id, fiber);
      fiber.addObserver(() => {
        if (handlers.get(id) === fiber) handlers.delete(id);
      });
    });
  };
  const onNotification = (n) => {
    switch (n.method) {
      case "notifications/cancelled":
        return onCancelled(n.params);
      case "notifications/progress":
        return onProgress(n.params);
      default:
        return options.onNotification(n);
    }
  };
  const onMessage = (message, reply, replyInvalid) => {
    if (isInvalid(message)) {
      return message.respond ? replyInvalid(failure(message.id, message.error)) : Effect3.logDebug("dropped an invalid response", message.error.message);
    }
    if ("method" in message) {
      return "id" in message ? onRequest(message, reply(message.id)) : onNotification(message);
    }
    return onResponse(message);
  };
  const replyInvalidDirect = (response) => response === void 0 ? Effect3.void : send(response).pipe(Effect3.ignore);
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
    const collect = (response) => Effect3.suspend(() => {
      if (response !== void 0) answers.push(response);
      return --expected === 0 && answers.length > 0 ? send(answers).pipe(Effect3.ignore) : Effect3.void;
    });
    return Effect3.forEach(batch, (m) => onMessage(m, () => collect, collect), { discard: true });
  };
  const onFrame = (frame) => isBatch(frame) ? onBatch(frame) : onMessage(frame, replyDirect, replyInvalidDirect);
  const close2 = (reason) => Effect3.suspend(() => {
    if (closedReason !== void 0) return Effect3.void;
    closedReason = reason;
    return Ref.getAndSet(pendingRef, HashMap.empty()).pipe(
      Effect3.flatMap(
        (map7) => Effect3.sync(() => {
          for (const [, entry] of map7) {
            Deferred.unsafeDone(entry.deferred, Exit.fail(connectionClosed(entry.method)));
          }
        })
      ),
      Effect3.zipRight(Effect3.suspend(() => Fiber2.interruptAll(Array.from(handlers.values())))),
      Effect3.zipRight(Deferred.succeed(closedSignal, void 0))
    );
  });
  yield* Effect3.addFinalizer(
    () => Effect3.zipRight(
      close2("the protocol engine was closed"),
      Effect3.suspend(() => Fiber2.interruptAll(Array.from(handlers.values())))
    )
  );
  yield* Effect3.runtime().pipe(
    Effect3.flatMap((runtime2) => {
      loopRuntime = Runtime.make({
        context: runtime2.context,
        fiberRefs: runtime2.fiberRefs,
        runtimeFlags: Runtime.defaultRuntime.runtimeFlags
      });
      return transport.incoming.pipe(
        Stream.runForEachChunk((chunk) => Effect3.forEach(chunk, onFrame, { discard: true }))
      );
    }),
    Effect3.matchCauseEffect({
      onSuccess: () => close2("the peer closed the connection"),
      onFailure: (cause) => Cause.isInterruptedOnly(cause) ? Effect3.void : close2(
        Option.match(Cause.failureOption(cause), {
          onNone: () => "the transport failed",
          onSome: (error) => error.message
        })
      ).pipe(Effect3.zipRight(Effect3.logDebug("transport failed", cause)))
    }),
    Effect3.forkScoped,
    Effect3.interruptible
  );
  return {
    request: request2,
    notify,
    closed: Deferred.await(closedSignal),
    close: close2,
    pending: Effect3.map(Ref.get(pendingRef), HashMap.size),
    running: Effect3.sync(() => handlers.size)
  };
});
var keepAlive = (protocol, options) => {
  const interval = Duration.decode(options.interval);
  const maxMissed = options.maxMissed ?? 3;
  const loop = (missed) => Effect3.sleep(interval).pipe(
    Effect3.zipRight(protocol.request("ping", void 0, { timeout: interval, maxTimeout: interval })),
    Effect3.as(0),
    Effect3.catchAll(
      (error) => Effect3.succeed(
        error._tag === "ProtocolError" && error.reason === "Timeout" ? missed + 1 : error._tag === "ProtocolError" && error.reason === "ConnectionClosed" ? -1 : 0
      )
    ),
    Effect3.flatMap(
      (missedNow) => missedNow < 0 ? Effect3.void : missedNow >= maxMissed ? protocol.close(`the peer did not answer ${missedNow} keep-alive pings`) : loop(missedNow)
    )
  );
  return Effect3.asVoid(Effect3.forkScoped(loop(0)));
};

// ../../work/main/packages/mcp/src/Transport.ts
import * as Context3 from "effect/Context";
import * as Effect4 from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Mailbox from "effect/Mailbox";
import "effect/Stream";
var Transport = class extends Context3.Tag("@effect-mcp/mcp/Transport")() {
};

// ../../work/main/packages/mcp/src/UriTemplate.ts
import * as Option2 from "effect/Option";
var UriTemplateError = class extends Error {
  _tag = "UriTemplateError";
  template;
  position;
  reason;
  constructor(template, position, reason) {
    super(`Invalid URI template ${JSON.stringify(template)} at position ${position}: ${reason}`);
    this.name = "UriTemplateError";
    this.template = template;
    this.position = position;
    this.reason = reason;
  }
};
var OPERATORS = {
  "": { first: "", sep: ",", named: false, ifemp: "", reserved: false },
  "+": { first: "", sep: ",", named: false, ifemp: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, ifemp: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, ifemp: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, ifemp: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, ifemp: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifemp: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifemp: "=", reserved: false }
};
var OPERATOR_CHARS = "+#./;?&";
var RESERVED_OPERATOR_CHARS = "=,!@|";
var VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*)(?:(\*)|:([0-9]+))?$/;
var parse2 = (template) => {
  const parts = [];
  const names = [];
  let literalStart = 0;
  let i = 0;
  const fail8 = (position, reason) => {
    throw new UriTemplateError(template, position, reason);
  };
  const pushLiteral = (end) => {
    if (end > literalStart) parts.push({ _tag: "Literal", value: template.slice(literalStart, end) });
  };
  while (i < template.length) {
    const ch = template[i];
    if (ch === "}") fail8(i, "unexpected '}' outside of an expression");
    if (ch !== "{") {
      i++;
      continue;
    }
    const end = template.indexOf("}", i + 1);
    if (end === -1) fail8(i, "unclosed expression: '{' has no matching '}'");
    const nested = template.indexOf("{", i + 1);
    if (nested !== -1 && nested < end) fail8(nested, "unexpected '{' inside an expression");
    pushLiteral(i);
    const expression = parseExpression(template, i + 1, end, fail8);
    for (const v of expression.variables) if (!names.includes(v.name)) names.push(v.name);
    parts.push(expression);
    i = end + 1;
    literalStart = i;
  }
  pushLiteral(template.length);
  return { template, variableNames: names, parts };
};
var parseExpression = (template, start, end, fail8) => {
  let pos = start;
  let operator = "";
  const c = template.charAt(start);
  if (OPERATOR_CHARS.includes(c)) {
    operator = c;
    pos++;
  } else if (RESERVED_OPERATOR_CHARS.includes(c)) {
    fail8(start, `operator '${c}' is reserved for future extensions`);
  }
  if (pos === end) fail8(start - 1, "empty expression");
  const variables = [];
  for (const raw of template.slice(pos, end).split(",")) {
    const m = VARSPEC.exec(raw);
    if (m === null) fail8(pos, `invalid variable specification ${JSON.stringify(raw)}`);
    const [, name, star, prefix] = m;
    let n = void 0;
    if (prefix !== void 0) {
      n = Number(prefix);
      if (prefix.startsWith("0") || n < 1 || n > 9999) {
        fail8(pos, `invalid prefix modifier in ${JSON.stringify(raw)} (expected :1 to :9999)`);
      }
    }
    variables.push({ name, explode: star !== void 0, prefix: n });
    pos += raw.length + 1;
  }
  return { _tag: "Expression", operator, variables };
};
var textEncoder = new TextEncoder();
var isUnreserved = (c) => c >= 65 && c <= 90 || c >= 97 && c <= 122 || c >= 48 && c <= 57 || c === 45 || c === 46 || c === 95 || c === 126;
var RESERVED_CHARS = ":/?#[]@!$&'()*+,;=";
var isHex = (c) => c !== void 0 && /^[0-9A-Fa-f]$/.test(c);
var pctEncode = (ch) => {
  let out = "";
  for (const b of textEncoder.encode(ch)) out += "%" + b.toString(16).toUpperCase().padStart(2, "0");
  return out;
};
var encode2 = (s, allowReserved) => {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i);
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    if (isUnreserved(cp)) {
      out += ch;
    } else if (allowReserved && RESERVED_CHARS.includes(ch)) {
      out += ch;
    } else if (allowReserved && ch === "%" && isHex(s[i]) && isHex(s[i + 1])) {
      out += s.slice(i - 1, i + 2);
      i += 2;
    } else {
      out += pctEncode(ch);
    }
  }
  return out;
};
var escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
var compile = (t) => {
  let source = "^";
  const captures = [];
  const parts = t.parts;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part._tag === "Literal") {
      const encoded = encode2(part.value, true);
      source += encoded === part.value ? escapeRegExp(part.value) : `(?:${escapeRegExp(encoded)}|${escapeRegExp(part.value)})`;
      continue;
    }
    const op = part.operator;
    switch (op) {
      case ";":
      case "?":
      case "&": {
        const continuation = op === ";" ? ";" : "&";
        const names = part.variables.map((v) => v.name);
        while (i + 1 < parts.length) {
          const next = parts[i + 1];
          if (next._tag !== "Expression" || next.operator !== continuation) break;
          names.push(...next.variables.map((v) => v.name));
          i++;
        }
        const unique = Array.from(new Set(names));
        const alternation = [...unique].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|");
        const sep = OPERATORS[op].sep;
        const pair = op === ";" ? `(?:${alternation})(?:=[^;/?#]*)?` : `(?:${alternation})(?:=[^&#]*|(?=[&#]|$))`;
        source += `((?:${escapeRegExp(op)}${pair}(?:${escapeRegExp(sep)}${pair})*)?)`;
        captures.push({ _tag: "Params", sep, names: unique });
        break;
      }
      case ".":
      case "/": {
        const cls = op === "." ? "[^/?#.]*" : "[^/?#]*";
        const sep = escapeRegExp(op);
        for (const v of part.variables) {
          source += `(?:${sep}(${v.explode ? `${cls}(?:${sep}${cls})*` : cls}))?`;
          captures.push({ _tag: "Value", name: v.name, split: v.explode ? op : void 0 });
        }
        break;
      }
      case "":
      case "+":
      case "#": {
        const reserved = OPERATORS[op].reserved;
        const single = part.variables.length === 1;
        const cls = reserved ? "[\\s\\S]*?" : single ? "[^/?#]*?" : "[^/?#,]*?";
        let body = "";
        part.variables.forEach((v, k) => {
          const value = v.explode && !reserved && !single ? `${cls}(?:,${cls})*` : cls;
          body += k === 0 ? `(${value})` : `(?:,(${value}))?`;
          captures.push({ _tag: "Value", name: v.name, split: void 0 });
        });
        source += op === "#" ? `(?:#${body})?` : body;
        break;
      }
    }
  }
  return { regex: new RegExp(source + "$"), captures };
};
var matchers = /* @__PURE__ */ new WeakMap();
var matcherFor = (t) => {
  let m = matchers.get(t);
  if (m === void 0) {
    m = compile(t);
    matchers.set(t, m);
  }
  return m;
};
var decode3 = (s) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return void 0;
  }
};
var assign = (result, name, value) => {
  if (Object.hasOwn(result, name)) return result[name] === value;
  Object.defineProperty(result, name, { value, enumerable: true, writable: true, configurable: true });
  return true;
};
var MAX_MATCH_LENGTH = 65536;
var match2 = (t, uri) => {
  if (uri.length > MAX_MATCH_LENGTH) return Option2.none();
  const { captures, regex } = matcherFor(t);
  const m = regex.exec(uri);
  if (m === null) return Option2.none();
  const result = {};
  for (let k = 0; k < captures.length; k++) {
    const raw = m[k + 1];
    if (raw === void 0) continue;
    const capture = captures[k];
    if (capture._tag === "Value") {
      let value;
      if (capture.split === void 0) {
        value = decode3(raw);
      } else {
        const items = raw.split(capture.split).map(decode3);
        value = items.some((item) => item === void 0) ? void 0 : items.join(",");
      }
      if (value === void 0 || !assign(result, capture.name, value)) return Option2.none();
      continue;
    }
    if (raw === "") continue;
    const params = /* @__PURE__ */ new Map();
    for (const pair of raw.slice(1).split(capture.sep)) {
      const eq = pair.indexOf("=");
      const key = eq === -1 ? pair : pair.slice(0, eq);
      const value = decode3(eq === -1 ? "" : pair.slice(eq + 1));
      if (value === void 0 || !capture.names.includes(key)) return Option2.none();
      const values = params.get(key);
      if (values === void 0) params.set(key, [value]);
      else values.push(value);
    }
    for (const [key, values] of params) {
      if (!assign(result, key, values.join(","))) return Option2.none();
    }
  }
  return Option2.some(result);
};

// ../../work/main/packages/mcp/src/McpServer.ts
var SERVING_KEYS = [Scope2.Scope.key, Tracer.ParentSpan.key];
var EmptyParameters = Schema4.Struct({});
var failureMessage = (error) => {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message !== "") {
    return error.message;
  }
  if (typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string") return error._tag;
  return String(error);
};
var jsonSchemaOf = (schema) => {
  const { $id: _id, $schema: _schema, ...json } = JSONSchema.make(schema, { target: "jsonSchema2020-12" });
  const ref = json.$ref;
  const defs = json.$defs;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/") || defs === void 0) return json;
  const name = ref.slice("#/$defs/".length);
  const target = defs[name];
  if (target === void 0) return json;
  const { $ref: _ref, $defs: _defs, ...root } = json;
  const { [name]: _inlined, ...others } = defs;
  const stillUsed = JSON.stringify([target, others]).includes(`"${ref}"`);
  const remaining = stillUsed ? defs : others;
  return { ...root, ...target, ...Object.keys(remaining).length > 0 ? { $defs: remaining } : {} };
};
var EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };
var objectSchema = (schema) => {
  const json = jsonSchemaOf(schema);
  return json.type === "object" ? json : EMPTY_OBJECT_SCHEMA;
};
var WRAPPED_OUTPUT_KEY = "result";
var outputSchemaOf = (schema) => {
  const json = jsonSchemaOf(schema);
  if (json.type === "object") return { schema: json, wrapped: false };
  const { $schema, $defs, ...inner } = json;
  return {
    schema: {
      ...$schema !== void 0 ? { $schema } : {},
      ...$defs !== void 0 ? { $defs } : {},
      type: "object",
      properties: { [WRAPPED_OUTPUT_KEY]: inner },
      required: [WRAPPED_OUTPUT_KEY],
      additionalProperties: false
    },
    wrapped: true
  };
};
var formatIssue2 = (issue) => ParseResult3.ArrayFormatter.formatIssueSync(issue).map((e) => e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message).join("; ");
var toolError = (text) => ({ content: [{ type: "text", text }], isError: true });
var toToolResult = (output) => {
  if (typeof output === "string") return { content: [{ type: "text", text: output }] };
  if (Array.isArray(output)) return { content: output };
  if ("content" in output && Array.isArray(output.content)) {
    return output;
  }
  return { content: [output] };
};
function tool(options) {
  const parameters = options.parameters ?? EmptyParameters;
  const decode4 = ParseResult3.decodeUnknownEither(parameters, { errors: "all", onExcessProperty: "ignore" });
  const success2 = options.success;
  const encodeOutput = success2 === void 0 ? void 0 : ParseResult3.encodeEither(success2);
  const published = success2 === void 0 ? void 0 : outputSchemaOf(success2);
  const definition = {
    name: options.name,
    ...options.title !== void 0 ? { title: options.title } : {},
    ...options.description !== void 0 ? { description: options.description } : {},
    inputSchema: options.inputSchema ?? objectSchema(parameters),
    ...published !== void 0 ? { outputSchema: published.schema } : {},
    ...options.annotations !== void 0 ? { annotations: options.annotations } : {},
    ...options.icons !== void 0 ? { icons: options.icons } : {},
    ...options.execution !== void 0 ? { execution: options.execution } : {},
    ...options._meta !== void 0 ? { _meta: options._meta } : {}
  };
  const name = options.name;
  return {
    _tag: "Tool",
    name,
    definition,
    call: (args) => {
      const decoded = decode4(args ?? {});
      if (Either3.isLeft(decoded)) {
        return Effect5.succeed(toolError(`Invalid arguments for tool ${name}: ${formatIssue2(decoded.left)}`));
      }
      return Effect5.matchEffect(options.handler(decoded.right), {
        onSuccess: (output) => {
          if (encodeOutput === void 0) return Effect5.succeed(toToolResult(output));
          const encoded = encodeOutput(output);
          if (Either3.isLeft(encoded)) {
            return Effect5.die(
              new Error(`Tool ${name} returned a value that does not match its output schema: ${formatIssue2(encoded.left)}`)
            );
          }
          const structuredContent = published?.wrapped === true ? { [WRAPPED_OUTPUT_KEY]: encoded.right } : encoded.right;
          return Effect5.succeed({
            content: [{ type: "text", text: JSON.stringify(structuredContent) }],
            structuredContent
          });
        },
        onFailure: (error) => error instanceof McpError ? Effect5.fail(error) : Effect5.succeed(toolError(failureMessage(error)))
      });
    }
  };
}
var toReadResult = (uri, mimeType, content) => {
  const mime = mimeType === void 0 ? {} : { mimeType };
  if (typeof content === "string") return { contents: [{ uri, ...mime, text: content }] };
  if (content instanceof Uint8Array) return { contents: [{ uri, ...mime, blob: Encoding.encodeBase64(content) }] };
  if (Array.isArray(content)) return { contents: content };
  if ("contents" in content) return content;
  return { contents: [content] };
};
var resource = (options) => {
  const { content, ...definition } = options;
  return {
    _tag: "Resource",
    definition,
    read: (uri) => content.pipe(
      Effect5.map((c) => toReadResult(uri, options.mimeType, c)),
      Effect5.catchAll((error) => Effect5.fail(error instanceof McpError ? error : McpError.internal(failureMessage(error))))
    )
  };
};
var resourceTemplate = (options) => {
  const { complete, list, read, ...definition } = options;
  return {
    _tag: "ResourceTemplate",
    definition,
    template: parse2(options.uriTemplate),
    read: (uri, variables) => read(variables, uri).pipe(
      Effect5.map((c) => toReadResult(uri, options.mimeType, c)),
      Effect5.catchAll((error) => Effect5.fail(error instanceof McpError ? error : McpError.internal(failureMessage(error))))
    ),
    list,
    complete: complete ?? {}
  };
};
var promptArguments = (schema) => {
  const json = jsonSchemaOf(schema);
  const properties = json.properties;
  if (json.type !== "object" || properties === void 0) return void 0;
  const defs = json.$defs ?? {};
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  return Object.entries(properties).map(([name, property]) => {
    const ref = property.$ref;
    const resolved = typeof ref === "string" && ref.startsWith("#/$defs/") ? { ...defs[ref.slice("#/$defs/".length)], ...property } : property;
    const title = resolved.title;
    const description = resolved.description;
    return {
      name,
      ...typeof title === "string" ? { title } : {},
      ...typeof description === "string" ? { description } : {},
      required: required.has(name)
    };
  });
};
var prompt = (options) => {
  const { complete, content, parameters, ...rest } = options;
  const params = parameters ?? EmptyParameters;
  const decode4 = ParseResult3.decodeUnknownEither(params, { errors: "all" });
  const args = parameters === void 0 ? void 0 : promptArguments(parameters);
  const definition = { ...rest, ...args !== void 0 && args.length > 0 ? { arguments: args } : {} };
  return {
    _tag: "Prompt",
    definition,
    get: (input) => {
      const decoded = decode4(input ?? {});
      if (Either3.isLeft(decoded)) {
        return Effect5.fail(McpError.invalidParams(`Invalid arguments for prompt ${options.name}: ${formatIssue2(decoded.left)}`));
      }
      return content(decoded.right).pipe(
        Effect5.map((output) => {
          if (typeof output === "string") return { messages: [{ role: "user", content: { type: "text", text: output } }] };
          if (Array.isArray(output)) return { messages: output };
          if ("messages" in output) return output;
          return { messages: [output] };
        }),
        Effect5.catchAll((error) => Effect5.fail(error instanceof McpError ? error : McpError.internal(failureMessage(error))))
      );
    },
    complete: complete ?? {}
  };
};
var McpServer = class extends Context4.Tag("@effect-mcp/mcp/McpServer")() {
};
var sessionCounter = 0;
var make9 = (options) => Effect5.gen(function* () {
  const registry = yield* Ref2.make({
    tools: /* @__PURE__ */ new Map(),
    resources: /* @__PURE__ */ new Map(),
    templates: /* @__PURE__ */ new Map(),
    prompts: /* @__PURE__ */ new Map()
  });
  const sessions = /* @__PURE__ */ new Set();
  const pageSize = options.pageSize ?? 100;
  const serverInfo = {
    name: options.name,
    version: options.version,
    ...options.title !== void 0 ? { title: options.title } : {},
    ...options.description !== void 0 ? { description: options.description } : {},
    ...options.websiteUrl !== void 0 ? { websiteUrl: options.websiteUrl } : {},
    ...options.icons !== void 0 ? { icons: options.icons } : {}
  };
  const capabilities = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {}
  };
  const broadcast = (kind) => Effect5.forEach(
    Array.from(sessions).filter((s) => s.initialized),
    (s) => s.shape.notify(`notifications/${kind}/list_changed`).pipe(Effect5.ignore),
    { discard: true }
  );
  const kindOf = (f) => f._tag === "Tool" ? "tools" : f._tag === "Prompt" ? "prompts" : "resources";
  const keyOf = (f) => {
    switch (f._tag) {
      case "Tool":
        return f.name;
      case "Resource":
        return f.definition.uri;
      case "ResourceTemplate":
        return f.definition.uriTemplate;
      case "Prompt":
        return f.definition.name;
    }
  };
  const update2 = (features, context2) => Ref2.modify(registry, (r) => {
    const next = {
      tools: new Map(r.tools),
      resources: new Map(r.resources),
      templates: new Map(r.templates),
      prompts: new Map(r.prompts)
    };
    const kinds = /* @__PURE__ */ new Set();
    for (const f of features) {
      const key = keyOf(f);
      const map7 = f._tag === "Tool" ? next.tools : f._tag === "Resource" ? next.resources : f._tag === "ResourceTemplate" ? next.templates : next.prompts;
      if (context2 !== void 0) {
        map7.set(key, { feature: f, context: context2 });
        kinds.add(kindOf(f));
      } else if (map7.get(key)?.feature === f) {
        map7.delete(key);
        kinds.add(kindOf(f));
      }
    }
    return [kinds, next];
  }).pipe(Effect5.flatMap((kinds) => Effect5.forEach(kinds, broadcast, { discard: true })));
  const add2 = (features, context2) => Effect5.acquireRelease(update2(features, context2), () => update2(features, void 0));
  const remove2 = (kind, key) => Effect5.flatMap(Ref2.get(registry), (r) => {
    const map7 = kind === "tool" ? r.tools : kind === "resource" ? r.resources : kind === "template" ? r.templates : r.prompts;
    const entry = map7.get(key);
    return entry === void 0 ? Effect5.void : update2([entry.feature], void 0);
  });
  const notifyResourceUpdated2 = (uri) => Effect5.forEach(
    Array.from(sessions).filter((s) => s.subscriptions.has(uri)),
    (s) => s.shape.notify("notifications/resources/updated", { uri }).pipe(Effect5.ignore),
    { discard: true }
  );
  const encodeCursor = (offset) => Encoding.encodeBase64Url(JSON.stringify({ o: offset }));
  const decodeCursor = (cursor) => {
    if (cursor === void 0) return Either3.right(0);
    const text = Encoding.decodeBase64UrlString(cursor);
    if (Either3.isRight(text)) {
      try {
        const parsed = JSON.parse(text.right);
        if (typeof parsed.o === "number" && Number.isInteger(parsed.o) && parsed.o >= 0) return Either3.right(parsed.o);
      } catch {
      }
    }
    return Either3.left(McpError.invalidParams("Invalid cursor"));
  };
  const listPage = (key, items, cursor) => Either3.match(decodeCursor(cursor), {
    onLeft: Effect5.fail,
    onRight: (offset) => {
      const slice = items.slice(offset, offset + pageSize);
      const next = offset + pageSize;
      return Effect5.succeed(next < items.length ? { [key]: slice, nextCursor: encodeCursor(next) } : { [key]: slice });
    }
  });
  const decoders = /* @__PURE__ */ new Map();
  for (const [method, entry] of Object.entries(ClientRequests)) {
    decoders.set(method, validator(entry.params));
  }
  const contextFor = (fiberContext, entry, env) => {
    const map7 = new Map(fiberContext.unsafeMap);
    for (const [key, service] of entry.context.unsafeMap) map7.set(key, service);
    for (const key of SERVING_KEYS) {
      const service = fiberContext.unsafeMap.get(key);
      if (service === void 0) map7.delete(key);
      else map7.set(key, service);
    }
    map7.set(HandlerContext.key, env.handlerContext);
    map7.set(ServerSession.key, env.session.shape);
    return Context4.unsafeMake(map7);
  };
  const runFeature = (entry, effect2, env) => Effect5.withFiberRuntime(
    (fiber) => Effect5.zipRight(
      FiberRef.set(FiberRef.currentContext, contextFor(fiber.currentContext, entry, env)),
      effect2
    )
  );
  const withFeature = (entry, effect2, env) => Effect5.contextWithEffect(
    (fiberContext) => Effect5.provide(effect2, contextFor(fiberContext, entry, env))
  );
  const completion = (values) => ({
    completion: {
      values: values.slice(0, 100),
      total: values.length,
      hasMore: values.length > 100
    }
  });
  const findTemplate = (r, uri) => {
    for (const entry of r.templates.values()) {
      const vars = match2(entry.feature.template, uri);
      if (Option3.isSome(vars)) return Option3.some([entry, vars.value]);
    }
    return Option3.none();
  };
  const handlers = {
    "tools/list": (params) => Effect5.flatMap(Ref2.get(registry), (r) => listPage("tools", Array.from(r.tools.values(), (e) => e.feature.definition), params?.cursor)),
    "tools/call": (params, env) => Effect5.flatMap(Ref2.get(registry), (r) => {
      const entry = r.tools.get(params.name);
      if (entry === void 0) return Effect5.fail(McpError.invalidParams(`Unknown tool: ${params.name}`));
      return runFeature(entry, entry.feature.call(params.arguments ?? {}), env);
    }),
    "resources/list": (params, env) => Effect5.flatMap(Ref2.get(registry), (r) => Effect5.flatMap(
      Effect5.forEach(
        Array.from(r.templates.values()).filter((e) => e.feature.list !== void 0),
        (e) => withFeature(e, e.feature.list, env)
      ),
      (listed) => listPage(
        "resources",
        [...Array.from(r.resources.values(), (e) => e.feature.definition), ...listed.flat()],
        params?.cursor
      )
    )),
    "resources/templates/list": (params) => Effect5.flatMap(Ref2.get(registry), (r) => listPage("resourceTemplates", Array.from(r.templates.values(), (e) => e.feature.definition), params?.cursor)),
    "resources/read": (params, env) => Effect5.flatMap(Ref2.get(registry), (r) => {
      const entry = r.resources.get(params.uri);
      if (entry !== void 0) return runFeature(entry, entry.feature.read(params.uri), env);
      const template = findTemplate(r, params.uri);
      if (Option3.isSome(template)) {
        const [e, vars] = template.value;
        return runFeature(e, e.feature.read(params.uri, vars), env);
      }
      return Effect5.fail(
        new McpError({ code: RESOURCE_NOT_FOUND, message: `Resource not found: ${params.uri}`, data: { uri: params.uri } })
      );
    }),
    "resources/subscribe": (params, { session }) => Effect5.sync(() => {
      session.subscriptions.add(params.uri);
      return {};
    }),
    "resources/unsubscribe": (params, { session }) => Effect5.sync(() => {
      session.subscriptions.delete(params.uri);
      return {};
    }),
    "prompts/list": (params) => Effect5.flatMap(Ref2.get(registry), (r) => listPage("prompts", Array.from(r.prompts.values(), (e) => e.feature.definition), params?.cursor)),
    "prompts/get": (params, env) => Effect5.flatMap(Ref2.get(registry), (r) => {
      const entry = r.prompts.get(params.name);
      if (entry === void 0) return Effect5.fail(McpError.invalidParams(`Unknown prompt: ${params.name}`));
      return runFeature(entry, entry.feature.get(params.arguments ?? {}), env);
    }),
    "completion/complete": (params, env) => Effect5.flatMap(Ref2.get(registry), (r) => {
      const context2 = { arguments: params.context?.arguments ?? {} };
      const ref = params.ref;
      if (ref.type === "ref/prompt") {
        const entry2 = r.prompts.get(ref.name);
        if (entry2 === void 0) return Effect5.fail(McpError.invalidParams(`Unknown prompt: ${ref.name}`));
        const completer2 = entry2.feature.complete[params.argument.name];
        if (completer2 === void 0) return Effect5.succeed(completion([]));
        return runFeature(entry2, Effect5.map(completer2(params.argument.value, context2), completion), env);
      }
      const entry = Array.from(r.templates.values()).find((e) => e.feature.definition.uriTemplate === ref.uri);
      if (entry === void 0) {
        return r.resources.has(ref.uri) ? Effect5.succeed(completion([])) : Effect5.fail(McpError.invalidParams(`Unknown resource template: ${ref.uri}`));
      }
      const completer = entry.feature.complete[params.argument.name];
      if (completer === void 0) return Effect5.succeed(completion([]));
      return runFeature(entry, Effect5.map(completer(params.argument.value, context2), completion), env);
    }),
    "logging/setLevel": (params, { session }) => Effect5.sync(() => {
      level.set(session, params.level);
      return {};
    })
  };
  const level = /* @__PURE__ */ new WeakMap();
  const serve = (transport) => Effect5.scoped(Effect5.gen(function* () {
    const sessionId = transport.info?.sessionId ?? `session-${++sessionCounter}`;
    let version = transport.info?.protocolVersion;
    let clientInfo;
    let clientCapabilities;
    let protocol;
    const shape = {
      sessionId,
      protocolVersion: () => version,
      clientInfo: () => clientInfo,
      clientCapabilities: () => clientCapabilities,
      logLevel: () => level.get(state),
      notify: (method, params) => protocol.notify(method, params),
      log: (lvl, data, logger) => levelAllows(level.get(state), lvl) ? protocol.notify("notifications/message", logger === void 0 ? { level: lvl, data } : { level: lvl, data, logger }).pipe(Effect5.ignore) : Effect5.void
    };
    const state = { shape, subscriptions: /* @__PURE__ */ new Set(), initialized: false };
    const onRequest = (incoming) => {
      const { method, params } = incoming.request;
      if (method === "initialize") {
        const init = params;
        if (init === void 0 || typeof init.protocolVersion !== "string") {
          return Effect5.fail(McpError.invalidParams("initialize needs params.protocolVersion"));
        }
        version = negotiate(init.protocolVersion);
        clientInfo = init.clientInfo;
        clientCapabilities = init.capabilities ?? {};
        const result = {
          protocolVersion: version,
          capabilities,
          serverInfo,
          ...options.instructions !== void 0 ? { instructions: options.instructions } : {}
        };
        return Effect5.succeed(result);
      }
      const decode4 = decoders.get(method);
      const handler = handlers[method];
      if (decode4 === void 0 || handler === void 0) return Effect5.fail(McpError.methodNotFound(method));
      const decoded = decode4(params);
      if (Either3.isLeft(decoded)) {
        return Effect5.fail(McpError.invalidParams(`Invalid params for ${method}: ${formatIssue2(decoded.left)}`));
      }
      const handlerContext = unsafeMake({
        protocol,
        incoming,
        session: shape,
        closeStream: transport.closeRequestStream?.(incoming.request.id)
      });
      return handler(decoded.right, { handlerContext, session: state });
    };
    const onNotification = (n) => Effect5.sync(() => {
      if (n.method === "notifications/initialized") state.initialized = true;
    });
    protocol = yield* make5(transport, {
      side: "server",
      onRequest,
      onNotification,
      batches: () => allowsBatches(version ?? DEFAULT_HTTP_VERSION),
      requestTimeout: options.requestTimeout,
      maxRequestTimeout: options.maxRequestTimeout,
      sessionId
    });
    if (options.keepAlive !== void 0) {
      yield* keepAlive(protocol, options.keepAlive);
    }
    yield* Effect5.acquireRelease(Effect5.sync(() => sessions.add(state)), () => Effect5.sync(() => sessions.delete(state)));
    yield* protocol.closed;
  }));
  return {
    options,
    add: add2,
    remove: remove2,
    notifyResourceUpdated: notifyResourceUpdated2,
    sessions: Effect5.sync(() => Array.from(sessions, (s) => s.shape)),
    serve
  };
});
var layer = (options) => Layer2.effect(McpServer, make9(options));
var register = (...features) => Layer2.scopedDiscard(
  Effect5.gen(function* () {
    const server = yield* McpServer;
    const context2 = yield* Effect5.context();
    yield* server.add(features, context2);
  })
);
var run = Effect5.flatMap(
  Effect5.all([McpServer, Transport]),
  ([server, transport]) => server.serve(transport)
);
var notifyResourceUpdated = (uri) => Effect5.flatMap(McpServer, (server) => server.notifyResourceUpdated(uri));

// ../../work/main/packages/node/src/NodeStdio.ts
var NodeStdio_exports = {};
__export(NodeStdio_exports, {
  StdioChild: () => StdioChild,
  layerClient: () => layerClient,
  layerServer: () => layerServer,
  makeClient: () => makeClient,
  makeServer: () => makeServer
});
import * as Context5 from "effect/Context";
import * as Deferred2 from "effect/Deferred";
import * as Duration3 from "effect/Duration";
import * as Effect7 from "effect/Effect";
import * as Exit2 from "effect/Exit";
import * as Layer3 from "effect/Layer";
import * as Logger from "effect/Logger";
import * as LogLevel from "effect/LogLevel";
import * as Mailbox2 from "effect/Mailbox";
import * as Option5 from "effect/Option";
import * as PubSub from "effect/PubSub";
import * as Stream4 from "effect/Stream";
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";

// ../../work/main/packages/node/src/NdJson.ts
import * as Chunk from "effect/Chunk";
import * as Effect6 from "effect/Effect";
import * as Option4 from "effect/Option";
import * as Stream3 from "effect/Stream";
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
var fromReadable = (readable, options) => Stream3.unwrapScoped(
  Effect6.acquireRelease(
    Effect6.sync(() => {
      const latch = Effect6.unsafeMakeLatch(false);
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
    (state) => Effect6.sync(() => {
      readable.off("readable", state.onReadable);
      readable.off("end", state.onEnd);
      readable.off("error", state.onError);
      readable.off("close", state.onClose);
      if (options?.destroyOnDone === true && !readable.destroyed) readable.destroy();
    })
  ).pipe(
    Effect6.map((state) => {
      const decoder = makeDecoder(options);
      const pull = Effect6.suspend(
        function loop() {
          if (state.finished) return Effect6.fail(Option4.none());
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
            if (frames !== void 0) return Effect6.succeed(Chunk.unsafeFromArray(frames));
          }
          if (state.error !== void 0) {
            state.finished = true;
            const cause = state.error;
            return Effect6.fail(
              Option4.some(
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
            return last.length > 0 ? Effect6.succeed(Chunk.unsafeFromArray(last)) : Effect6.fail(Option4.none());
          }
          state.latch.unsafeClose();
          return Effect6.flatMap(state.latch.await, loop);
        }
      );
      return Stream3.repeatEffectChunkOption(pull);
    })
  )
);
var makeWriter = (writable, options) => Effect6.acquireRelease(Effect6.sync(() => unsafeMakeWriter(writable, options)), ([, release]) => Effect6.sync(release)).pipe(
  Effect6.map(([writer]) => writer)
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
  const fail8 = (error) => {
    if (failure2 === void 0) failure2 = error;
    const ws = waiters;
    texts = [];
    waiters = [];
    for (const w of ws) w(Effect6.fail(error));
  };
  const onError = (error) => fail8(writeError(error));
  const onClose = () => {
    if (waiters.length > 0 || blocked) fail8(new TransportError({ reason: "Closed", message: "the output stream closed" }));
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
    if (error !== void 0) return fail8(error);
    const data = texts.length === 1 ? texts[0] : texts.join("");
    const ws = waiters;
    texts = [];
    waiters = [];
    let ok;
    try {
      ok = writable.write(data, (err) => {
        if (err) fail8(writeError(err));
      });
    } catch (err) {
      const e = writeError(err);
      for (const w of ws) w(Effect6.fail(e));
      fail8(e);
      return;
    }
    if (!ok && failure2 === void 0) {
      waiters = ws.length === 0 ? waiters : ws.concat(waiters);
      blocked = true;
      writable.once("drain", onDrain);
      return;
    }
    for (const w of ws) w(Effect6.void);
  };
  const enqueue = (text) => Effect6.suspend(() => {
    const error = currentFailure();
    if (error !== void 0) return Effect6.fail(error);
    texts.push(text);
    if (!scheduled && !blocked) {
      scheduled = true;
      process.nextTick(flush);
    }
    return blocked ? Effect6.async((resume) => void waiters.push(resume)) : Effect6.void;
  });
  const release = () => {
    writable.off("error", onError);
    writable.off("close", onClose);
    writable.off("drain", onDrain);
  };
  const writer = {
    send: (message) => Effect6.suspend(() => enqueue(encode(message) + "\n")),
    writeRaw: enqueue,
    fail: fail8
  };
  return [writer, release];
};

// ../../work/main/packages/node/src/NodeStdio.ts
var makeServer = (options) => Effect7.gen(function* () {
  const stdin = options?.stdin ?? process.stdin;
  const stdout = options?.stdout ?? process.stdout;
  const writer = yield* makeWriter(stdout);
  yield* Effect7.addFinalizer(
    () => Effect7.sync(() => {
      if (!stdin.destroyed) stdin.destroy();
    })
  );
  return {
    incoming: fromReadable(stdin, { maxMessageBytes: options?.maxMessageBytes }),
    send: (message) => writer.send(message)
  };
});
var layerServer = (options) => Layer3.merge(
  Layer3.scoped(Transport, makeServer(options)),
  Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.stringLogger))
);
var DEFAULT_CLOSE_TIMEOUT = Duration3.seconds(2);
var DEFAULT_KILL_TIMEOUT = Duration3.seconds(2);
var SIGKILL_WAIT = Duration3.seconds(2);
var EXIT_DRAIN_GRACE = Duration3.millis(500);
var STDERR_REPLAY = 100;
var STDERR_MAX_LINE = 64 * 1024;
var describeCommand = (command, args) => {
  const text = [command, ...args].join(" ");
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};
var makeClient = (options) => Effect7.gen(function* () {
  const args = options.args ?? [];
  const label = describeCommand(options.command, args);
  const closeMs = Duration3.toMillis(options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT);
  const killMs = Duration3.toMillis(options.killTimeout ?? DEFAULT_KILL_TIMEOUT);
  const tailSize = Math.max(0, options.stderrTailLines ?? 10);
  const logLevel = LogLevel.fromLiteral(options.stderrLogLevel ?? "Debug");
  const stderrLines = yield* Mailbox2.make();
  const stderrPubSub = yield* PubSub.sliding({ capacity: 1024, replay: STDERR_REPLAY });
  const tail = [];
  yield* Effect7.addFinalizer(() => PubSub.publish(stderrPubSub, void 0));
  yield* stderrLines.takeAll.pipe(
    Effect7.flatMap(
      ([lines, done]) => Effect7.forEach(lines, (line) => (logLevel._tag === "None" ? Effect7.void : Effect7.logWithLevel(logLevel, line)).pipe(
        Effect7.zipRight(PubSub.publish(stderrPubSub, line))
      ), { discard: true }).pipe(
        Effect7.zipRight(done ? PubSub.publish(stderrPubSub, void 0) : Effect7.void),
        Effect7.as(done)
      )
    ),
    Effect7.repeat({ until: (done) => done }),
    Effect7.annotateLogs({ "mcp.stdio.stream": "stderr", "mcp.stdio.command": label }),
    Effect7.forkScoped
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
  const awaitExit = (ms) => Effect7.interruptible(Deferred2.await(exited)).pipe(Effect7.timeoutOption(Duration3.millis(ms)));
  const awaitGroup = (pid2, ms) => Effect7.suspend(() => {
    const deadline = Date.now() + ms;
    return awaitExit(ms).pipe(
      Effect7.zipRight(
        Effect7.suspend(function poll() {
          if (exitInfo !== void 0 && !groupAlive(pid2)) return Effect7.succeed(true);
          if (Date.now() >= deadline) return Effect7.succeed(false);
          return Effect7.flatMap(Effect7.sleep(Duration3.millis(20)), poll);
        })
      )
    );
  });
  const shutdown = (child2) => {
    const pid2 = child2.pid;
    return Effect7.gen(function* () {
      closing = true;
      if (exitInfo === void 0) {
        child2.stdin.end();
        const gone = yield* awaitExit(closeMs);
        if (Option5.isNone(gone)) yield* Effect7.logDebug("the server did not exit after its stdin closed; SIGTERM");
      }
      if (groupAlive(pid2)) {
        signalGroup(child2, pid2, "SIGTERM");
        const gone = yield* awaitGroup(pid2, killMs);
        if (!gone) {
          yield* Effect7.logDebug("the server did not exit after SIGTERM; SIGKILL");
          signalGroup(child2, pid2, "SIGKILL");
          const killed = yield* awaitExit(Duration3.toMillis(SIGKILL_WAIT));
          if (Option5.isNone(killed)) yield* Effect7.logWarning("the server process did not exit after SIGKILL");
        }
      }
      if (onParentExit !== void 0) process.off("exit", onParentExit);
      child2.stdin.destroy();
      child2.stdout.destroy();
      child2.stderr.destroy();
    }).pipe(Effect7.annotateLogs({ "mcp.stdio.command": label, "mcp.stdio.pid": pid2 }));
  };
  const spawnChild = Effect7.async((resume) => {
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
      return resume(Effect7.fail(
        new TransportError({
          reason: "Closed",
          message: `could not start ${label}: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause
        })
      ));
    }
    const ignore4 = () => {
    };
    child2.stdin.on("error", ignore4);
    child2.stdout.on("error", ignore4);
    child2.stderr.on("error", ignore4);
    child2.on("exit", (code, signal) => {
      exitInfo = { code, signal };
      Deferred2.unsafeDone(exited, Exit2.succeed(exitInfo));
    });
    child2.on("close", () => Deferred2.unsafeDone(allClosed, Exit2.void));
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
      stderrLines.unsafeDone(Exit2.void);
    };
    child2.stderr.on("end", endStderr);
    child2.stderr.on("close", endStderr);
    child2.once("spawn", () => {
      const pid2 = child2.pid;
      onParentExit = () => signalGroup(child2, pid2, "SIGTERM");
      process.once("exit", onParentExit);
      resume(Effect7.succeed(child2));
    });
    child2.once("error", (cause) => {
      if (child2.pid === void 0) {
        resume(Effect7.fail(
          new TransportError({ reason: "Closed", message: `could not start ${label}: ${cause.message}`, cause })
        ));
      }
    });
  });
  const child = yield* Effect7.acquireRelease(spawnChild, shutdown);
  const pid = child.pid;
  const exitError = () => new TransportError({ reason: "Closed", message: exitMessage(pid) });
  const writer = yield* makeWriter(child.stdin, {
    closed: () => closing ? new TransportError({ reason: "Closed", message: "the stdio transport was closed" }) : exitInfo !== void 0 ? exitError() : void 0
  });
  const afterStdoutEnd = Effect7.suspend(
    () => closing ? Effect7.void : Deferred2.await(allClosed).pipe(
      Effect7.timeoutOption(EXIT_DRAIN_GRACE),
      Effect7.zipRight(Effect7.suspend(() => closing ? Effect7.void : Effect7.fail(exitError())))
    )
  );
  const exitWithoutEnd = Deferred2.await(exited).pipe(
    Effect7.zipRight(Effect7.sleep(EXIT_DRAIN_GRACE)),
    Effect7.zipRight(Effect7.suspend(() => closing ? Effect7.never : Effect7.fail(exitError())))
  );
  yield* exitWithoutEnd.pipe(
    Effect7.catchAll((error) => Effect7.sync(() => child.stdout.destroy(error))),
    Effect7.forkScoped
  );
  const incoming = fromReadable(child.stdout, { maxMessageBytes: options.maxMessageBytes }).pipe(
    Stream4.concat(Stream4.drain(Stream4.fromEffect(afterStdoutEnd)))
  );
  const stderr = Stream4.fromPubSub(stderrPubSub).pipe(
    Stream4.takeWhile((line) => line !== void 0),
    Stream4.map((line) => line)
  );
  return {
    transport: { incoming, send: (message) => writer.send(message) },
    pid,
    stderr,
    stderrTail: Effect7.sync(() => tail.slice()),
    exit: Deferred2.await(exited),
    writeRaw: writer.writeRaw
  };
});
var layerClient = (options) => Layer3.scopedContext(
  Effect7.map(makeClient(options), (child) => Context5.make(StdioChild, child).pipe(Context5.add(Transport, child.transport)))
);
var StdioChild = class extends Context5.Tag("@effect-mcp/node/NodeStdio/StdioChild")() {
  static make = makeClient;
  static layer = layerClient;
};

// d.ts
console.log(typeof McpServer_exports, typeof NodeStdio_exports);
