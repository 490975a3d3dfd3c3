var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// ../../work/main/packages/mcp/src/McpSchema.ts
var McpSchema_exports = {};
__export(McpSchema_exports, {
  Annotations: () => Annotations,
  AudioContent: () => AudioContent,
  BaseMetadata: () => BaseMetadata,
  BlobResourceContents: () => BlobResourceContents,
  BooleanSchema: () => BooleanSchema,
  CallToolRequest: () => CallToolRequest,
  CallToolRequestParams: () => CallToolRequestParams,
  CallToolResult: () => CallToolResult,
  CancelTaskRequest: () => CancelTaskRequest,
  CancelTaskRequestParams: () => CancelTaskRequestParams,
  CancelTaskResult: () => CancelTaskResult,
  CancelledNotification: () => CancelledNotification,
  CancelledNotificationParams: () => CancelledNotificationParams,
  ClientCapabilities: () => ClientCapabilities,
  ClientNotification: () => ClientNotification,
  ClientNotifications: () => ClientNotifications,
  ClientRequest: () => ClientRequest,
  ClientRequests: () => ClientRequests,
  ClientResult: () => ClientResult,
  ClientTaskAugmentableRequests: () => ClientTaskAugmentableRequests,
  CompleteRequest: () => CompleteRequest,
  CompleteRequestParams: () => CompleteRequestParams,
  CompleteResult: () => CompleteResult,
  ContentBlock: () => ContentBlock,
  CreateMessageRequest: () => CreateMessageRequest,
  CreateMessageRequestParams: () => CreateMessageRequestParams,
  CreateMessageResult: () => CreateMessageResult,
  CreateTaskResult: () => CreateTaskResult,
  Cursor: () => Cursor,
  ElicitRequest: () => ElicitRequest,
  ElicitRequestFormParams: () => ElicitRequestFormParams,
  ElicitRequestParams: () => ElicitRequestParams,
  ElicitRequestURLParams: () => ElicitRequestURLParams,
  ElicitRequestedSchema: () => ElicitRequestedSchema,
  ElicitResult: () => ElicitResult,
  ElicitationCompleteNotification: () => ElicitationCompleteNotification,
  ElicitationCompleteNotificationParams: () => ElicitationCompleteNotificationParams,
  EmbeddedResource: () => EmbeddedResource,
  EmptyResult: () => EmptyResult,
  EnumSchema: () => EnumSchema,
  Error: () => ErrorObject,
  GetPromptRequest: () => GetPromptRequest,
  GetPromptRequestParams: () => GetPromptRequestParams,
  GetPromptResult: () => GetPromptResult,
  GetTaskPayloadRequest: () => GetTaskPayloadRequest,
  GetTaskPayloadRequestParams: () => GetTaskPayloadRequestParams,
  GetTaskPayloadResult: () => GetTaskPayloadResult,
  GetTaskRequest: () => GetTaskRequest,
  GetTaskRequestParams: () => GetTaskRequestParams,
  GetTaskResult: () => GetTaskResult,
  Icon: () => Icon,
  Icons: () => Icons,
  ImageContent: () => ImageContent,
  Implementation: () => Implementation,
  InitializeRequest: () => InitializeRequest,
  InitializeRequestParams: () => InitializeRequestParams,
  InitializeResult: () => InitializeResult,
  InitializedNotification: () => InitializedNotification,
  JSONRPCErrorResponse: () => JSONRPCErrorResponse,
  JSONRPCMessage: () => JSONRPCMessage,
  JSONRPCNotification: () => JSONRPCNotification,
  JSONRPCRequest: () => JSONRPCRequest,
  JSONRPCResponse: () => JSONRPCResponse,
  JSONRPCResultResponse: () => JSONRPCResultResponse,
  JSONRPC_VERSION: () => JSONRPC_VERSION,
  JsonObject: () => JsonObject,
  LATEST_PROTOCOL_VERSION: () => LATEST_PROTOCOL_VERSION,
  LegacyTitledEnumSchema: () => LegacyTitledEnumSchema,
  ListPromptsRequest: () => ListPromptsRequest,
  ListPromptsResult: () => ListPromptsResult,
  ListResourceTemplatesRequest: () => ListResourceTemplatesRequest,
  ListResourceTemplatesResult: () => ListResourceTemplatesResult,
  ListResourcesRequest: () => ListResourcesRequest,
  ListResourcesResult: () => ListResourcesResult,
  ListRootsRequest: () => ListRootsRequest,
  ListRootsResult: () => ListRootsResult,
  ListTasksRequest: () => ListTasksRequest,
  ListTasksResult: () => ListTasksResult,
  ListToolsRequest: () => ListToolsRequest,
  ListToolsResult: () => ListToolsResult,
  LoggingLevel: () => LoggingLevel,
  LoggingMessageNotification: () => LoggingMessageNotification,
  LoggingMessageNotificationParams: () => LoggingMessageNotificationParams,
  Meta: () => Meta,
  ModelHint: () => ModelHint,
  ModelPreferences: () => ModelPreferences,
  MultiSelectEnumSchema: () => MultiSelectEnumSchema,
  Notification: () => Notification,
  NotificationParams: () => NotificationParams,
  NumberSchema: () => NumberSchema,
  PaginatedRequest: () => PaginatedRequest,
  PaginatedRequestParams: () => PaginatedRequestParams,
  PaginatedResult: () => PaginatedResult,
  PingRequest: () => PingRequest,
  PrimitiveSchemaDefinition: () => PrimitiveSchemaDefinition,
  ProgressNotification: () => ProgressNotification,
  ProgressNotificationParams: () => ProgressNotificationParams,
  ProgressToken: () => ProgressToken,
  Prompt: () => Prompt,
  PromptArgument: () => PromptArgument,
  PromptListChangedNotification: () => PromptListChangedNotification,
  PromptMessage: () => PromptMessage,
  PromptReference: () => PromptReference,
  RELATED_TASK_META_KEY: () => RELATED_TASK_META_KEY,
  RESOURCE_NOT_FOUND: () => RESOURCE_NOT_FOUND,
  ReadResourceRequest: () => ReadResourceRequest,
  ReadResourceRequestParams: () => ReadResourceRequestParams,
  ReadResourceResult: () => ReadResourceResult,
  RelatedTaskMetadata: () => RelatedTaskMetadata,
  Request: () => Request,
  RequestId: () => RequestId,
  RequestMeta: () => RequestMeta,
  RequestParams: () => RequestParams,
  Resource: () => Resource,
  ResourceContents: () => ResourceContents,
  ResourceLink: () => ResourceLink,
  ResourceListChangedNotification: () => ResourceListChangedNotification,
  ResourceRequestParams: () => ResourceRequestParams,
  ResourceTemplate: () => ResourceTemplate,
  ResourceTemplateReference: () => ResourceTemplateReference,
  ResourceUpdatedNotification: () => ResourceUpdatedNotification,
  ResourceUpdatedNotificationParams: () => ResourceUpdatedNotificationParams,
  Result: () => Result,
  Role: () => Role,
  Root: () => Root,
  RootsListChangedNotification: () => RootsListChangedNotification,
  SUPPORTED_PROTOCOL_VERSIONS: () => SUPPORTED_PROTOCOL_VERSIONS,
  SamplingMessage: () => SamplingMessage,
  SamplingMessageContentBlock: () => SamplingMessageContentBlock,
  ServerCapabilities: () => ServerCapabilities,
  ServerNotification: () => ServerNotification,
  ServerNotifications: () => ServerNotifications,
  ServerRequest: () => ServerRequest,
  ServerRequests: () => ServerRequests,
  ServerResult: () => ServerResult,
  ServerTaskAugmentableRequests: () => ServerTaskAugmentableRequests,
  SetLevelRequest: () => SetLevelRequest,
  SetLevelRequestParams: () => SetLevelRequestParams,
  SingleSelectEnumSchema: () => SingleSelectEnumSchema,
  StringSchema: () => StringSchema,
  SubscribeRequest: () => SubscribeRequest,
  SubscribeRequestParams: () => SubscribeRequestParams,
  Task: () => Task,
  TaskAugmentedRequestParams: () => TaskAugmentedRequestParams,
  TaskIdRequestParams: () => TaskIdRequestParams,
  TaskMetadata: () => TaskMetadata,
  TaskStatus: () => TaskStatus,
  TaskStatusNotification: () => TaskStatusNotification,
  TaskStatusNotificationParams: () => TaskStatusNotificationParams,
  TextContent: () => TextContent,
  TextResourceContents: () => TextResourceContents,
  TitledMultiSelectEnumSchema: () => TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema: () => TitledSingleSelectEnumSchema,
  Tool: () => Tool,
  ToolAnnotations: () => ToolAnnotations,
  ToolChoice: () => ToolChoice,
  ToolExecution: () => ToolExecution,
  ToolJsonSchema: () => ToolJsonSchema,
  ToolListChangedNotification: () => ToolListChangedNotification,
  ToolResultContent: () => ToolResultContent,
  ToolUseContent: () => ToolUseContent,
  URLElicitationRequiredError: () => URLElicitationRequiredError,
  URLElicitationRequiredErrorObject: () => URLElicitationRequiredErrorObject,
  URL_ELICITATION_REQUIRED: () => URL_ELICITATION_REQUIRED,
  UnsubscribeRequest: () => UnsubscribeRequest,
  UnsubscribeRequestParams: () => UnsubscribeRequestParams,
  UntitledMultiSelectEnumSchema: () => UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema: () => UntitledSingleSelectEnumSchema,
  isClientNotificationMethod: () => isClientNotificationMethod,
  isClientRequestMethod: () => isClientRequestMethod,
  isServerNotificationMethod: () => isServerNotificationMethod,
  isServerRequestMethod: () => isServerRequestMethod,
  isSupportedProtocolVersion: () => isSupportedProtocolVersion
});
import * as Schema from "effect/Schema";
var LATEST_PROTOCOL_VERSION = "2025-11-25";
var SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
var isSupportedProtocolVersion = (version) => SUPPORTED_PROTOCOL_VERSIONS.includes(version);
var JSONRPC_VERSION = "2.0";
var URL_ELICITATION_REQUIRED = -32042;
var RESOURCE_NOT_FOUND = -32002;
var RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";
var optional = (schema) => Schema.optionalWith(schema, { exact: true });
var JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown });
var Meta = JsonObject;
var JsonRpcVersion = Schema.Literal(JSONRPC_VERSION);
var JsonValue = Schema.Unknown.pipe(
  Schema.filter((u) => u !== void 0, { message: () => "Expected a JSON value, actual undefined" })
);
var UnitInterval = Schema.Number.pipe(Schema.between(0, 1));
var ProgressToken = Schema.Union(Schema.String, Schema.Int);
var Cursor = Schema.String;
var RequestId = Schema.Union(Schema.String, Schema.Int);
var RequestMeta_ = Schema.Struct({ progressToken: optional(ProgressToken) }, JsonObject);
var RequestMeta = RequestMeta_;
var RequestParams = Schema.Struct({ _meta: optional(RequestMeta) });
var TaskMetadata = Schema.Struct({
  /** Requested duration in milliseconds to retain the task from creation. */
  ttl: optional(Schema.Int)
});
var TaskAugmentedRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** If specified, the caller requests task-augmented execution (the response is a `CreateTaskResult`). */
  task: optional(TaskMetadata)
});
var Request = Schema.Struct({ method: Schema.String, params: optional(JsonObject) });
var NotificationParams = Schema.Struct({ _meta: optional(Meta) });
var Notification = Schema.Struct({ method: Schema.String, params: optional(JsonObject) });
var Result_ = Schema.Struct({ _meta: optional(Meta) }, JsonObject);
var Result = Result_;
var EmptyResult = Result;
var ErrorObject = Schema.Struct({
  /** The error type that occurred. */
  code: Schema.Int,
  /** A short description of the error. */
  message: Schema.String,
  /** Additional information about the error, defined by the sender. */
  data: optional(Schema.Unknown)
});
var PaginatedRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** An opaque token representing the current pagination position. */
  cursor: optional(Cursor)
});
var PaginatedResult = Schema.Struct({
  _meta: optional(Meta),
  /** An opaque token representing the pagination position after the last returned result. */
  nextCursor: optional(Cursor)
});
var Role = Schema.Literal("assistant", "user");
var Annotations_ = Schema.Struct({
  /** Who the intended audience of this object or data is. */
  audience: optional(Schema.Array(Role)),
  /** How important this data is for operating the server, from 0 (least) to 1 (most). */
  priority: optional(UnitInterval),
  /** The moment the resource was last modified, as an ISO 8601 formatted string. */
  lastModified: optional(Schema.String)
});
var Annotations = Annotations_;
var Icon_ = Schema.Struct({
  /** A standard URI (HTTP/HTTPS URL or `data:` URI) pointing to an icon resource. */
  src: Schema.String,
  /** Optional MIME type override if the source MIME type is missing or generic. */
  mimeType: optional(Schema.String),
  /** Sizes at which the icon can be used (`"48x48"`, `"any"`, ...). */
  sizes: optional(Schema.Array(Schema.String)),
  /** The theme (background) this icon is designed for. */
  theme: optional(Schema.Literal("dark", "light"))
});
var Icon = Icon_;
var Icons = Schema.Struct({
  /** Optional set of sized icons that the client can display in a user interface. */
  icons: optional(Schema.Array(Icon))
});
var BaseMetadata = Schema.Struct({
  /** Intended for programmatic or logical use; display fallback when `title` is absent. */
  name: Schema.String,
  /** Intended for UI and end-user contexts. */
  title: optional(Schema.String)
});
var Implementation_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  version: Schema.String,
  /** An optional human-readable description of what this implementation does. */
  description: optional(Schema.String),
  /** An optional URL of the website for this implementation. */
  websiteUrl: optional(Schema.String),
  icons: optional(Schema.Array(Icon))
});
var Implementation = Implementation_;
var TextContent_ = Schema.Struct({
  type: Schema.Literal("text"),
  /** The text content of the message. */
  text: Schema.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var TextContent = TextContent_;
var ImageContent_ = Schema.Struct({
  type: Schema.Literal("image"),
  /** The base64-encoded image data. */
  data: Schema.String,
  /** The MIME type of the image. */
  mimeType: Schema.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var ImageContent = ImageContent_;
var AudioContent_ = Schema.Struct({
  type: Schema.Literal("audio"),
  /** The base64-encoded audio data. */
  data: Schema.String,
  /** The MIME type of the audio. */
  mimeType: Schema.String,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var AudioContent = AudioContent_;
var ResourceContents = Schema.Struct({
  /** The URI of this resource. */
  uri: Schema.String,
  /** The MIME type of this resource, if known. */
  mimeType: optional(Schema.String),
  _meta: optional(Meta)
});
var TextResourceContents_ = Schema.Struct({
  ...ResourceContents.fields,
  /** The text of the item (only if it can actually be represented as text). */
  text: Schema.String
});
var TextResourceContents = TextResourceContents_;
var BlobResourceContents_ = Schema.Struct({
  ...ResourceContents.fields,
  /** A base64-encoded string representing the binary data of the item. */
  blob: Schema.String
});
var BlobResourceContents = BlobResourceContents_;
var TextOrBlobResourceContents = Schema.Union(TextResourceContents, BlobResourceContents);
var Resource_ = Schema.Struct({
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
});
var Resource = Resource_;
var ResourceLink_ = Schema.Struct({
  type: Schema.Literal("resource_link"),
  ...Resource.fields
});
var ResourceLink = ResourceLink_;
var EmbeddedResource_ = Schema.Struct({
  type: Schema.Literal("resource"),
  resource: TextOrBlobResourceContents,
  annotations: optional(Annotations),
  _meta: optional(Meta)
});
var EmbeddedResource = EmbeddedResource_;
var ContentBlock_ = Schema.Union(TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource);
var ContentBlock = ContentBlock_;
var ToolUseContent_ = Schema.Struct({
  type: Schema.Literal("tool_use"),
  /** A unique identifier for this tool use, matched by `ToolResultContent.toolUseId`. */
  id: Schema.String,
  /** The name of the tool to call. */
  name: Schema.String,
  /** The arguments to pass to the tool, conforming to the tool's input schema. */
  input: JsonObject,
  _meta: optional(Meta)
});
var ToolUseContent = ToolUseContent_;
var ToolResultContent_ = Schema.Struct({
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
});
var ToolResultContent = ToolResultContent_;
var SamplingMessageContentBlock_ = Schema.Union(
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent
);
var SamplingMessageContentBlock = SamplingMessageContentBlock_;
var ResourceRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The URI of the resource. */
  uri: Schema.String
});
var ReadResourceRequestParams = ResourceRequestParams;
var SubscribeRequestParams = ResourceRequestParams;
var UnsubscribeRequestParams = ResourceRequestParams;
var ListResourcesResult = Schema.Struct({
  ...PaginatedResult.fields,
  resources: Schema.Array(Resource)
});
var ResourceTemplate_ = Schema.Struct({
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
});
var ResourceTemplate = ResourceTemplate_;
var ListResourceTemplatesResult = Schema.Struct({
  ...PaginatedResult.fields,
  resourceTemplates: Schema.Array(ResourceTemplate)
});
var ReadResourceResult_ = Schema.Struct({
  _meta: optional(Meta),
  contents: Schema.Array(TextOrBlobResourceContents)
});
var ReadResourceResult = ReadResourceResult_;
var ResourceUpdatedNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The URI of the resource that has been updated (possibly a sub-resource of the subscribed one). */
  uri: Schema.String
});
var PromptArgument = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  /** A human-readable description of the argument. */
  description: optional(Schema.String),
  /** Whether this argument must be provided. */
  required: optional(Schema.Boolean)
});
var Prompt_ = Schema.Struct({
  name: Schema.String,
  title: optional(Schema.String),
  icons: optional(Schema.Array(Icon)),
  /** An optional description of what this prompt provides. */
  description: optional(Schema.String),
  /** A list of arguments to use for templating the prompt. */
  arguments: optional(Schema.Array(PromptArgument)),
  _meta: optional(Meta)
});
var Prompt = Prompt_;
var ListPromptsResult = Schema.Struct({
  ...PaginatedResult.fields,
  prompts: Schema.Array(Prompt)
});
var GetPromptRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The name of the prompt or prompt template. */
  name: Schema.String,
  /** Arguments to use for templating the prompt. */
  arguments: optional(Schema.Record({ key: Schema.String, value: Schema.String }))
});
var PromptMessage = Schema.Struct({
  role: Role,
  content: ContentBlock
});
var GetPromptResult = Schema.Struct({
  _meta: optional(Meta),
  /** An optional description for the prompt. */
  description: optional(Schema.String),
  messages: Schema.Array(PromptMessage)
});
var ToolAnnotations = Schema.Struct({
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
});
var ToolExecution = Schema.Struct({
  /** Whether the tool supports task-augmented execution (default: `"forbidden"`). */
  taskSupport: optional(Schema.Literal("forbidden", "optional", "required"))
});
var ToolJsonSchema_ = Schema.Struct({
  $schema: optional(Schema.String),
  type: Schema.Literal("object"),
  properties: optional(Schema.Record({ key: Schema.String, value: JsonObject })),
  required: optional(Schema.Array(Schema.String))
}, JsonObject);
var ToolJsonSchema = ToolJsonSchema_;
var Tool_ = Schema.Struct({
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
});
var Tool = Tool_;
var ListToolsResult = Schema.Struct({
  ...PaginatedResult.fields,
  tools: Schema.Array(Tool)
});
var CallToolRequestParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The name of the tool. */
  name: Schema.String,
  /** Arguments to use for the tool call. */
  arguments: optional(JsonObject)
});
var CallToolRequestParams = CallToolRequestParams_;
var CallToolResult_ = Schema.Struct({
  _meta: optional(Meta),
  /** The unstructured result of the tool call. */
  content: Schema.Array(ContentBlock),
  /** An optional JSON object that represents the structured result of the tool call. */
  structuredContent: optional(JsonObject),
  /** Whether the tool call ended in an error (default: false). */
  isError: optional(Schema.Boolean)
});
var CallToolResult = CallToolResult_;
var TaskStatus = Schema.Literal("cancelled", "completed", "failed", "input_required", "working");
var Task_ = Schema.Struct({
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
});
var Task = Task_;
var RelatedTaskMetadata = Schema.Struct({
  /** The task identifier this message is associated with. */
  taskId: Schema.String
});
var CreateTaskResult = Schema.Struct({
  _meta: optional(Meta),
  task: Task
});
var TaskIdRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The task identifier. */
  taskId: Schema.String
});
var GetTaskRequestParams = TaskIdRequestParams;
var GetTaskPayloadRequestParams = TaskIdRequestParams;
var CancelTaskRequestParams = TaskIdRequestParams;
var GetTaskResult_ = Schema.Struct({ _meta: optional(Meta), ...Task.fields });
var GetTaskResult = GetTaskResult_;
var GetTaskPayloadResult = Result;
var CancelTaskResult = GetTaskResult;
var ListTasksResult = Schema.Struct({
  ...PaginatedResult.fields,
  tasks: Schema.Array(Task)
});
var TaskStatusNotificationParams = Schema.Struct({ _meta: optional(Meta), ...Task.fields });
var LoggingLevel = Schema.Literal(
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency"
);
var SetLevelRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The minimum level of logging the client wants to receive. */
  level: LoggingLevel
});
var LoggingMessageNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The severity of this log message. */
  level: LoggingLevel,
  /** An optional name of the logger issuing this message. */
  logger: optional(Schema.String),
  /** The data to be logged (any JSON serializable value). Required, but may be `null`. */
  data: JsonValue
});
var ModelHint = Schema.Struct({
  /** A hint for a model name (treated as a substring). */
  name: optional(Schema.String)
});
var ModelPreferences = Schema.Struct({
  /** Optional hints to use for model selection, evaluated in order. */
  hints: optional(Schema.Array(ModelHint)),
  /** How much to prioritize cost (0..1). */
  costPriority: optional(UnitInterval),
  /** How much to prioritize sampling speed (0..1). */
  speedPriority: optional(UnitInterval),
  /** How much to prioritize intelligence and capabilities (0..1). */
  intelligencePriority: optional(UnitInterval)
});
var ToolChoice = Schema.Struct({
  /** `"auto"` (default): model decides; `"required"`: must use a tool; `"none"`: must not use tools. */
  mode: optional(Schema.Literal("auto", "none", "required"))
});
var SamplingContent = Schema.Union(
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent,
  Schema.Array(SamplingMessageContentBlock)
);
var SamplingMessage_ = Schema.Struct({
  role: Role,
  content: SamplingContent,
  _meta: optional(Meta)
});
var SamplingMessage = SamplingMessage_;
var CreateMessageRequestParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  messages: Schema.Array(SamplingMessage),
  /** The server's preferences for which model to select. */
  modelPreferences: optional(ModelPreferences),
  /** An optional system prompt the server wants to use for sampling. */
  systemPrompt: optional(Schema.String),
  /** A request to include context from MCP servers (`"thisServer"`/`"allServers"` are soft-deprecated). */
  includeContext: optional(Schema.Literal("allServers", "none", "thisServer")),
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
});
var CreateMessageRequestParams = CreateMessageRequestParams_;
var CreateMessageResult_ = Schema.Struct({
  ...SamplingMessage.fields,
  /** The name of the model that generated the message. */
  model: Schema.String,
  /** Why sampling stopped: `"endTurn"`, `"stopSequence"`, `"maxTokens"`, `"toolUse"` or provider-specific. */
  stopReason: optional(Schema.String)
});
var CreateMessageResult = CreateMessageResult_;
var PromptReference = Schema.Struct({
  type: Schema.Literal("ref/prompt"),
  name: Schema.String,
  title: optional(Schema.String)
});
var ResourceTemplateReference = Schema.Struct({
  type: Schema.Literal("ref/resource"),
  /** The URI or URI template of the resource. */
  uri: Schema.String
});
var CompleteRequestParams = Schema.Struct({
  _meta: optional(RequestMeta),
  ref: Schema.Union(PromptReference, ResourceTemplateReference),
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
    arguments: optional(Schema.Record({ key: Schema.String, value: Schema.String }))
  }))
});
var CompleteResult = Schema.Struct({
  _meta: optional(Meta),
  completion: Schema.Struct({
    /** An array of completion values (must not exceed 100 items). */
    values: Schema.Array(Schema.String),
    /** The total number of completion options available. */
    total: optional(Schema.Int),
    /** Whether there are additional completion options beyond those provided. */
    hasMore: optional(Schema.Boolean)
  })
});
var Root = Schema.Struct({
  /** The URI identifying the root (must start with `file://` for now). */
  uri: Schema.String,
  /** An optional human-readable name for the root. */
  name: optional(Schema.String),
  _meta: optional(Meta)
});
var ListRootsResult = Schema.Struct({
  _meta: optional(Meta),
  roots: Schema.Array(Root)
});
var StringSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  minLength: optional(Schema.Int),
  maxLength: optional(Schema.Int),
  format: optional(Schema.Literal("date", "date-time", "email", "uri")),
  default: optional(Schema.String)
});
var NumberSchema = Schema.Struct({
  type: Schema.Literal("integer", "number"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  minimum: optional(Schema.Number),
  maximum: optional(Schema.Number),
  default: optional(Schema.Number)
});
var BooleanSchema = Schema.Struct({
  type: Schema.Literal("boolean"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  default: optional(Schema.Boolean)
});
var TitledEnumOption = Schema.Struct({
  /** The enum value. */
  const: Schema.String,
  /** Display label for this option. */
  title: Schema.String
});
var UntitledSingleSelectEnumSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  /** Array of enum values to choose from. */
  enum: Schema.Array(Schema.String),
  default: optional(Schema.String)
});
var TitledSingleSelectEnumSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  /** Array of enum options with values and display labels. */
  oneOf: Schema.Array(TitledEnumOption),
  default: optional(Schema.String)
});
var SingleSelectEnumSchema = Schema.Union(UntitledSingleSelectEnumSchema, TitledSingleSelectEnumSchema);
var UntitledMultiSelectEnumSchema = Schema.Struct({
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
});
var TitledMultiSelectEnumSchema = Schema.Struct({
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
});
var MultiSelectEnumSchema = Schema.Union(UntitledMultiSelectEnumSchema, TitledMultiSelectEnumSchema);
var LegacyTitledEnumSchema = Schema.Struct({
  type: Schema.Literal("string"),
  title: optional(Schema.String),
  description: optional(Schema.String),
  enum: Schema.Array(Schema.String),
  /** (Legacy) Display names for enum values. */
  enumNames: optional(Schema.Array(Schema.String)),
  default: optional(Schema.String)
});
var EnumSchema = Schema.Union(
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema
);
var PrimitiveSchemaDefinition_ = Schema.Union(
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
var ElicitRequestedSchema = Schema.Struct({
  $schema: optional(Schema.String),
  type: Schema.Literal("object"),
  properties: Schema.Record({ key: Schema.String, value: PrimitiveSchemaDefinition }),
  required: optional(Schema.Array(Schema.String))
});
var ElicitRequestFormParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The elicitation mode (`"form"` when absent). */
  mode: optional(Schema.Literal("form")),
  /** The message to present to the user describing what information is being requested. */
  message: Schema.String,
  /** A restricted subset of JSON Schema: only top-level properties, without nesting. */
  requestedSchema: ElicitRequestedSchema
});
var ElicitRequestFormParams = ElicitRequestFormParams_;
var ElicitRequestURLParams_ = Schema.Struct({
  ...TaskAugmentedRequestParams.fields,
  /** The elicitation mode. */
  mode: Schema.Literal("url"),
  /** The message to present to the user explaining why the interaction is needed. */
  message: Schema.String,
  /** The ID of the elicitation, unique within the server; opaque to the client. */
  elicitationId: Schema.String,
  /** The URL that the user should navigate to. */
  url: Schema.String
});
var ElicitRequestURLParams = ElicitRequestURLParams_;
var ElicitRequestParams_ = Schema.Union(ElicitRequestURLParams, ElicitRequestFormParams);
var ElicitRequestParams = ElicitRequestParams_;
var ElicitResult_ = Schema.Struct({
  _meta: optional(Meta),
  /** `"accept"`: submitted; `"decline"`: explicitly declined; `"cancel"`: dismissed. */
  action: Schema.Literal("accept", "cancel", "decline"),
  /** The submitted form data, only present when action is `"accept"` and mode was `"form"`. */
  content: optional(Schema.Record({
    key: Schema.String,
    value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String))
  }))
});
var ElicitResult = ElicitResult_;
var ElicitationCompleteNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The ID of the elicitation that completed. */
  elicitationId: Schema.String
});
var ClientCapabilities_ = Schema.Struct({
  /** Experimental, non-standard capabilities that the client supports. */
  experimental: optional(Schema.Record({ key: Schema.String, value: JsonObject })),
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
});
var ClientCapabilities = ClientCapabilities_;
var ServerCapabilities_ = Schema.Struct({
  /** Experimental, non-standard capabilities that the server supports. */
  experimental: optional(Schema.Record({ key: Schema.String, value: JsonObject })),
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
});
var ServerCapabilities = ServerCapabilities_;
var InitializeRequestParams_ = Schema.Struct({
  _meta: optional(RequestMeta),
  /** The latest protocol version the client supports. */
  protocolVersion: Schema.String,
  capabilities: ClientCapabilities,
  clientInfo: Implementation
});
var InitializeRequestParams = InitializeRequestParams_;
var InitializeResult_ = Schema.Struct({
  _meta: optional(Meta),
  /** The protocol version the server wants to use (the client MUST disconnect if unsupported). */
  protocolVersion: Schema.String,
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
  /** Instructions describing how to use the server and its features. */
  instructions: optional(Schema.String)
});
var InitializeResult = InitializeResult_;
var CancelledNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The ID of the request to cancel (required for non-task requests; not for tasks). */
  requestId: optional(RequestId),
  /** An optional reason for the cancellation. */
  reason: optional(Schema.String)
});
var ProgressNotificationParams = Schema.Struct({
  _meta: optional(Meta),
  /** The progress token given in the initial request. */
  progressToken: ProgressToken,
  /** The progress thus far (should increase every time progress is made). */
  progress: Schema.Number,
  /** Total number of items to process (or total progress required), if known. */
  total: optional(Schema.Number),
  /** An optional message describing the current progress. */
  message: optional(Schema.String)
});
var jsonRpcRequest = (method, params) => Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema.Literal(method), params });
var jsonRpcRequestOptionalParams = (method, params) => Schema.Struct({ jsonrpc: JsonRpcVersion, id: RequestId, method: Schema.Literal(method), params: optional(params) });
var jsonRpcNotification = (method, params) => Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params });
var jsonRpcNotificationOptionalParams = (method, params) => Schema.Struct({ jsonrpc: JsonRpcVersion, method: Schema.Literal(method), params: optional(params) });
var PaginatedRequest = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema.String,
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
var ClientRequest = Schema.Union(
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
var ClientNotification = Schema.Union(
  CancelledNotification,
  InitializedNotification,
  ProgressNotification,
  TaskStatusNotification,
  RootsListChangedNotification
);
var ClientResult = Schema.Union(
  Result,
  GetTaskResult,
  GetTaskPayloadResult,
  CancelTaskResult,
  ListTasksResult,
  CreateMessageResult,
  ListRootsResult,
  ElicitResult
);
var ServerRequest = Schema.Union(
  PingRequest,
  GetTaskRequest,
  GetTaskPayloadRequest,
  CancelTaskRequest,
  ListTasksRequest,
  CreateMessageRequest,
  ListRootsRequest,
  ElicitRequest
);
var ServerNotification = Schema.Union(
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
var ServerResult = Schema.Union(
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
var JSONRPCRequest = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  method: Schema.String,
  params: optional(JsonObject)
});
var JSONRPCNotification = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  method: Schema.String,
  params: optional(JsonObject)
});
var JSONRPCResultResponse = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: RequestId,
  result: Result
});
var JSONRPCErrorResponse = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: optional(RequestId),
  error: ErrorObject
});
var JSONRPCResponse = Schema.Union(JSONRPCResultResponse, JSONRPCErrorResponse);
var JSONRPCMessage = Schema.Union(JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse, JSONRPCErrorResponse);
var URLElicitationRequiredErrorObject = Schema.Struct({
  code: Schema.Literal(URL_ELICITATION_REQUIRED),
  message: Schema.String,
  data: Schema.Struct({
    /** The URL-mode elicitations the client must complete before retrying. */
    elicitations: Schema.Array(ElicitRequestURLParams)
  }, JsonObject)
});
var URLElicitationRequiredError = Schema.Struct({
  jsonrpc: JsonRpcVersion,
  id: optional(RequestId),
  error: URLElicitationRequiredErrorObject
});
var OptionalRequestParams = Schema.UndefinedOr(RequestParams);
var OptionalPaginatedRequestParams = Schema.UndefinedOr(PaginatedRequestParams);
var OptionalNotificationParams = Schema.UndefinedOr(NotificationParams);
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
var ClientNotifications = {
  "notifications/initialized": { params: OptionalNotificationParams },
  "notifications/cancelled": { params: CancelledNotificationParams },
  "notifications/progress": { params: ProgressNotificationParams },
  "notifications/roots/list_changed": { params: OptionalNotificationParams },
  "notifications/tasks/status": { params: TaskStatusNotificationParams }
};
var ServerNotifications = {
  "notifications/cancelled": { params: CancelledNotificationParams },
  "notifications/progress": { params: ProgressNotificationParams },
  "notifications/message": { params: LoggingMessageNotificationParams },
  "notifications/resources/updated": { params: ResourceUpdatedNotificationParams },
  "notifications/resources/list_changed": { params: OptionalNotificationParams },
  "notifications/tools/list_changed": { params: OptionalNotificationParams },
  "notifications/prompts/list_changed": { params: OptionalNotificationParams },
  "notifications/elicitation/complete": { params: ElicitationCompleteNotificationParams },
  "notifications/tasks/status": { params: TaskStatusNotificationParams }
};
var ClientTaskAugmentableRequests = ["tools/call"];
var ServerTaskAugmentableRequests = [
  "sampling/createMessage",
  "elicitation/create"
];
var isClientRequestMethod = (method) => Object.prototype.hasOwnProperty.call(ClientRequests, method);
var isServerRequestMethod = (method) => Object.prototype.hasOwnProperty.call(ServerRequests, method);
var isClientNotificationMethod = (method) => Object.prototype.hasOwnProperty.call(ClientNotifications, method);
var isServerNotificationMethod = (method) => Object.prototype.hasOwnProperty.call(ServerNotifications, method);

// b.ts
console.log(typeof McpSchema_exports);
