/**
 * Validates `McpSchema` against the official MCP 2025-11-25 JSON Schema, using a real
 * JSON Schema 2020-12 validator (ajv + ajv-formats).
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import Ajv2020Module from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { readFileSync } from "node:fs"

// -----------------------------------------------------------------------------
// Spec & validator
// -----------------------------------------------------------------------------

/** The official schema, kept in the repository as a test fixture (see `fixtures/spec/README.md`). */
const specUrl = new URL("./fixtures/spec/2025-11-25/schema.json", import.meta.url)

interface JsonSchemaNode {
  readonly $ref?: string
  readonly anyOf?: ReadonlyArray<JsonSchemaNode>
  readonly properties?: Readonly<Record<string, JsonSchemaNode & { readonly const?: unknown }>>
  readonly required?: ReadonlyArray<string>
}

const spec = JSON.parse(readFileSync(specUrl, "utf8")) as {
  readonly $schema: string
  readonly $defs: Readonly<Record<string, JsonSchemaNode>>
}
const defNames = Object.keys(spec.$defs)

// ajv's CommonJS modules: `.default` is the export both under NodeNext typing and at runtime.
// Strict mode, except that the spec legitimately uses union types (`type: ["string", "integer"]`).
const ajv = new Ajv2020Module.default({ strict: true, allowUnionTypes: true, allErrors: true })
addFormatsModule.default(ajv)
ajv.addSchema(spec, "mcp")

const validator = (name: string) => {
  const validate = ajv.getSchema(`mcp#/$defs/${name}`)
  if (validate === undefined) throw new globalThis.Error(`no $defs/${name} in the spec`)
  return validate
}

const ajvErrors = (name: string, value: unknown): string | null => {
  const validate = validator(name)
  return validate(value) ? null : ajv.errorsText(validate.errors)
}

const exported = McpSchema as unknown as Record<string, unknown>

const schemaOf = (name: string): Schema.Codec<unknown, unknown> => {
  const schema = exported[name]
  if (!Schema.isSchema(schema)) throw new globalThis.Error(`McpSchema.${name} is not a schema`)
  return schema as Schema.Codec<unknown, unknown>
}

const refName = (node: JsonSchemaNode): string => node.$ref!.replace("#/$defs/", "")

/** Names of the `$defs` members of a union definition (`anyOf` of `$ref`s). */
const unionMembers = (name: string): ReadonlyArray<string> => (spec.$defs[name].anyOf ?? []).map(refName)

// -----------------------------------------------------------------------------
// Sample values (all valid per spec)
// -----------------------------------------------------------------------------

const icon = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48", "96x96"], theme: "dark" }
const dataIcon = { src: "data:image/png;base64,iVBORw0KGgo=" }
const svgIcon = { src: "https://example.com/icon.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "light" }
const annotations = { audience: ["user", "assistant"], priority: 0.8, lastModified: "2025-01-12T15:00:58Z" }

const text = { type: "text", text: "Hello, world", annotations, _meta: { "example.com/trace": "t-1" } }
const plainText = { type: "text", text: "72°F and sunny" }
const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }
const audio = { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav", annotations: { priority: 1 } }
const resourceLink = {
  type: "resource_link",
  uri: "file:///project/README.md",
  name: "README.md",
  title: "Project readme",
  description: "The project's readme",
  mimeType: "text/markdown",
  size: 1024,
  icons: [icon],
  annotations,
  _meta: { "example.com/k": [1, 2] }
}
const textContents = { uri: "file:///project/src/main.rs", mimeType: "text/x-rust", text: "fn main() {}" }
const blobContents = { uri: "file:///project/logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=", _meta: {} }
const embeddedText = { type: "resource", resource: textContents, annotations: { audience: ["assistant"] } }
const embeddedBlob = { type: "resource", resource: blobContents, _meta: { cached: true } }
const toolUse = { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } }
const toolUse2 = { type: "tool_use", id: "toolu_02", name: "get_time", input: {}, _meta: { cache: "ephemeral" } }
const toolResult = {
  type: "tool_result",
  toolUseId: "toolu_01",
  content: [plainText],
  structuredContent: { temperature: 22, conditions: "sunny" },
  isError: false
}
const toolResultError = { type: "tool_result", toolUseId: "toolu_02", content: [], isError: true }

const tool = {
  name: "get_weather",
  title: "Weather",
  description: "Get current weather information for a location",
  inputSchema: {
    type: "object",
    properties: { location: { type: "string", description: "City name or zip code" } },
    required: ["location"]
  },
  outputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { temperature: { type: "number" }, conditions: { type: "string" } },
    required: ["temperature", "conditions"]
  },
  annotations: { title: "Weather lookup", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  execution: { taskSupport: "optional" },
  icons: [icon, svgIcon],
  _meta: { "example.com/version": 2 }
}
const minimalTool = { name: "noop", inputSchema: { type: "object" } }
/** Extra JSON Schema keywords (beyond the listed fields) must survive decoding. */
const toolWithExtraKeywords = {
  name: "search",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string", minLength: 1 }, tags: { type: "array", items: { $ref: "#/$defs/tag" } } },
    additionalProperties: false,
    $defs: { tag: { type: "string" } }
  },
  execution: { taskSupport: "required" }
}

const task = {
  taskId: "786512e2-9e0d-44bd-8f29-789f320fe840",
  status: "working",
  statusMessage: "The operation is now in progress.",
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:40:00Z",
  ttl: 60000,
  pollInterval: 5000
}
const finishedTask = {
  taskId: "task-2",
  status: "completed",
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:50:00Z",
  ttl: null
}

const implementation = {
  name: "example-server",
  title: "Example Server",
  version: "1.0.0",
  description: "An example MCP server",
  websiteUrl: "https://example.com",
  icons: [icon]
}
const minimalImplementation = { name: "example-client", version: "0.1.0" }

const clientCapabilities = {
  experimental: { "example.feature": { enabled: true } },
  roots: { listChanged: true },
  sampling: { context: {}, tools: {} },
  elicitation: { form: {}, url: {} },
  tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } }
}
const serverCapabilities = {
  experimental: { "example.streaming": {} },
  logging: {},
  completions: {},
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  tools: { listChanged: false },
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } }
}

const stringSchema = {
  type: "string",
  title: "Email",
  description: "Your email address",
  minLength: 3,
  maxLength: 254,
  format: "email",
  default: "ada@example.com"
}
const numberSchema = { type: "integer", title: "Age", minimum: 0, maximum: 150, default: 36 }
const floatSchema = { type: "number", description: "Ratio" }
const booleanSchema = { type: "boolean", title: "Subscribe", description: "Subscribe?", default: false }
const untitledSingle = { type: "string", title: "Color", enum: ["red", "green", "blue"], default: "red" }
const titledSingle = {
  type: "string",
  title: "Size",
  description: "Pick a size",
  oneOf: [{ const: "s", title: "Small" }, { const: "l", title: "Large" }],
  default: "s"
}
const untitledMulti = {
  type: "array",
  title: "Tags",
  minItems: 1,
  maxItems: 2,
  items: { type: "string", enum: ["a", "b", "c"] },
  default: ["a"]
}
const titledMulti = {
  type: "array",
  description: "Languages",
  items: { anyOf: [{ const: "ts", title: "TypeScript" }, { const: "rs", title: "Rust" }] },
  default: ["ts"]
}
const legacyEnum = { type: "string", title: "Plan", enum: ["free", "pro"], enumNames: ["Free", "Pro"], default: "free" }

const requestedSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    email: stringSchema,
    age: numberSchema,
    ratio: floatSchema,
    subscribe: booleanSchema,
    color: untitledSingle,
    size: titledSingle,
    tags: untitledMulti,
    languages: titledMulti,
    plan: legacyEnum
  },
  required: ["email"]
}
const elicitFormParams = { mode: "form", message: "Please provide your details", requestedSchema }
const elicitFormParamsNoMode = {
  message: "Your GitHub username?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  task: { ttl: 600000 },
  _meta: { progressToken: "p-9" }
}
const elicitUrlParams = {
  mode: "url",
  message: "Please authorize access to your files",
  elicitationId: "550e8400-e29b-41d4-a716-446655440000",
  url: "https://example.com/oauth/authorize?state=abc"
}

const samplingMessages = [
  { role: "user", content: { type: "text", text: "What is the weather in Paris?" } },
  { role: "assistant", content: [toolUse, toolUse2] },
  { role: "user", content: [toolResult, toolResultError], _meta: { turn: 2 } },
  { role: "user", content: image },
  { role: "user", content: audio }
]
const createMessageParams = {
  messages: samplingMessages,
  modelPreferences: {
    hints: [{ name: "claude-3-sonnet" }, {}],
    costPriority: 0.3,
    speedPriority: 0.8,
    intelligencePriority: 0.5
  },
  systemPrompt: "You are a helpful assistant.",
  includeContext: "thisServer",
  temperature: 0.7,
  maxTokens: 100,
  stopSequences: ["\n\nHuman:"],
  metadata: { provider: { region: "eu" } },
  tools: [tool, minimalTool],
  toolChoice: { mode: "auto" },
  task: { ttl: 30000 },
  _meta: { progressToken: 17 }
}
const minimalCreateMessageParams = {
  messages: [{ role: "user", content: { type: "text", text: "Hi" } }],
  maxTokens: 16
}

const callToolParams = { name: "get_weather", arguments: { location: "New York" }, _meta: { progressToken: "abc123" } }
const callToolParamsTask = { name: "long_job", arguments: {}, task: { ttl: 60000 } }

const callToolResult = {
  content: [text, image, audio, resourceLink, embeddedText, embeddedBlob],
  structuredContent: { temperature: 22.5, conditions: "Partly cloudy" },
  isError: false,
  _meta: { "example.com/latency": 12 }
}
const callToolErrorResult = { content: [{ type: "text", text: "Failed to fetch weather data" }], isError: true }

const completeParams = {
  ref: { type: "ref/prompt", name: "code_review", title: "Code review" },
  argument: { name: "language", value: "py" },
  context: { arguments: { framework: "django" } }
}
const completeParamsResource = {
  ref: { type: "ref/resource", uri: "file:///{path}" },
  argument: { name: "path", value: "src/" },
  _meta: { progressToken: 5 }
}

const prompt = {
  name: "code_review",
  title: "Request Code Review",
  description: "Asks the LLM to analyze code quality and suggest improvements",
  arguments: [{ name: "code", title: "Code", description: "The code to review", required: true }, { name: "style" }],
  icons: [dataIcon],
  _meta: {}
}
const resource = {
  uri: "file:///project/src/main.rs",
  name: "main.rs",
  title: "Rust Software Application Main File",
  description: "Primary application entry point",
  mimeType: "text/x-rust",
  size: 2048,
  annotations,
  icons: [icon]
}
const resourceTemplate = {
  uriTemplate: "file:///{path}",
  name: "project_files",
  title: "Project Files",
  description: "Access files in the project directory",
  mimeType: "application/octet-stream",
  annotations: { audience: ["user"] },
  icons: [svgIcon],
  _meta: { v: 1 }
}
const root = { uri: "file:///home/user/projects/myproject", name: "My Project", _meta: { vcs: "git" } }

const initializeParams = {
  protocolVersion: "2025-11-25",
  capabilities: clientCapabilities,
  clientInfo: implementation,
  _meta: { progressToken: "init" }
}
const initializeResult = {
  protocolVersion: "2025-11-25",
  capabilities: serverCapabilities,
  serverInfo: implementation,
  instructions: "Use the weather tools for forecasts.",
  _meta: {}
}

const req = (id: string | number, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }
const notif = (method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }

/** Explicit samples; union definitions additionally get all samples of their members (see below). */
const explicitSamples: Record<string, ReadonlyArray<unknown>> = {
  Annotations: [annotations, {}, { priority: 0 }, { audience: [] }],
  AudioContent: [audio, { type: "audio", data: "", mimeType: "audio/mpeg", _meta: {} }],
  BaseMetadata: [{ name: "x" }, { name: "x", title: "X" }],
  BlobResourceContents: [blobContents, { uri: "https://example.com/a.bin", blob: "AAAA" }],
  BooleanSchema: [booleanSchema, { type: "boolean" }],
  CallToolRequest: [req(2, "tools/call", callToolParams), req("c-1", "tools/call", callToolParamsTask)],
  CallToolRequestParams: [callToolParams, callToolParamsTask, { name: "noop" }],
  CallToolResult: [callToolResult, callToolErrorResult, { content: [] }],
  CancelTaskRequest: [req(9, "tasks/cancel", { taskId: task.taskId })],
  CancelTaskResult: [{ ...task, status: "cancelled", statusMessage: "Cancelled by user" }, { ...finishedTask, _meta: {} }],
  CancelledNotification: [notif("notifications/cancelled", { requestId: "123", reason: "User requested cancellation" })],
  CancelledNotificationParams: [{ requestId: 3, reason: "timeout" }, {}, { requestId: "r", _meta: { x: 1 } }],
  ClientCapabilities: [clientCapabilities, {}, { elicitation: {} }, { sampling: {} }, { roots: {} }],
  ClientNotification: [],
  ClientRequest: [],
  ClientResult: [],
  CompleteRequest: [req(1, "completion/complete", completeParams), req(2, "completion/complete", completeParamsResource)],
  CompleteRequestParams: [completeParams, completeParamsResource],
  CompleteResult: [{ completion: { values: ["python", "pytorch", "pyside"], total: 10, hasMore: true } }, {
    completion: { values: [] },
    _meta: {}
  }],
  ContentBlock: [],
  CreateMessageRequest: [req(1, "sampling/createMessage", createMessageParams), req(2, "sampling/createMessage", minimalCreateMessageParams)],
  CreateMessageRequestParams: [createMessageParams, minimalCreateMessageParams],
  CreateMessageResult: [
    { role: "assistant", content: { type: "text", text: "The capital of France is Paris." }, model: "claude-3-sonnet-20240307", stopReason: "endTurn" },
    { role: "assistant", content: [toolUse, toolUse2], model: "claude-sonnet", stopReason: "toolUse", _meta: {} },
    { role: "assistant", content: image, model: "m" },
    { role: "assistant", content: [], model: "m", stopReason: "provider_specific" }
  ],
  CreateTaskResult: [{ task }, { task: finishedTask, _meta: { "io.modelcontextprotocol/model-immediate-response": "Working on it" } }],
  Cursor: ["eyJwYWdlIjogM30=", ""],
  ElicitRequest: [req(5, "elicitation/create", elicitFormParams), req(6, "elicitation/create", elicitUrlParams), req(7, "elicitation/create", elicitFormParamsNoMode)],
  ElicitRequestFormParams: [elicitFormParams, elicitFormParamsNoMode],
  ElicitRequestParams: [],
  ElicitRequestURLParams: [elicitUrlParams, { ...elicitUrlParams, task: { ttl: 1000 }, _meta: { progressToken: 1 } }],
  ElicitResult: [
    { action: "accept", content: { email: "ada@example.com", age: 36, subscribe: true, tags: ["a", "b"], color: "red" } },
    { action: "decline" },
    { action: "cancel", _meta: {} },
    { action: "accept" }
  ],
  ElicitationCompleteNotification: [notif("notifications/elicitation/complete", { elicitationId: elicitUrlParams.elicitationId })],
  EmbeddedResource: [embeddedText, embeddedBlob],
  EmptyResult: [{}, { _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } }],
  EnumSchema: [],
  Error: [{ code: -32601, message: "Method not found" }, { code: -32002, message: "Resource not found", data: { uri: "file:///nonexistent.txt" } }, {
    code: -32603,
    message: "Internal error",
    data: null
  }],
  GetPromptRequest: [req(2, "prompts/get", { name: "code_review", arguments: { code: "def hello():\n    print('world')" } })],
  GetPromptRequestParams: [{ name: "code_review", arguments: { code: "x" } }, { name: "simple", _meta: { progressToken: 1 } }],
  GetPromptResult: [{
    description: "Code review prompt",
    messages: [
      { role: "user", content: { type: "text", text: "Please review this Python code" } },
      { role: "assistant", content: embeddedText },
      { role: "user", content: resourceLink },
      { role: "user", content: image }
    ]
  }, { messages: [] }],
  GetTaskPayloadRequest: [req(11, "tasks/result", { taskId: task.taskId })],
  GetTaskPayloadResult: [callToolResult, {}, {
    content: [plainText],
    _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } }
  }],
  GetTaskRequest: [req(10, "tasks/get", { taskId: task.taskId })],
  GetTaskResult: [task, { ...finishedTask, _meta: { v: 1 } }, { ...task, status: "input_required" }, { ...task, status: "failed", statusMessage: "boom" }],
  Icon: [icon, dataIcon, svgIcon],
  Icons: [{ icons: [icon, dataIcon] }, {}],
  ImageContent: [image, { ...image, annotations: { audience: ["user"] }, _meta: {} }],
  Implementation: [implementation, minimalImplementation],
  InitializeRequest: [req(1, "initialize", initializeParams), req(0, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: minimalImplementation
  })],
  InitializeRequestParams: [initializeParams],
  InitializeResult: [initializeResult, { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: minimalImplementation }],
  InitializedNotification: [notif("notifications/initialized"), notif("notifications/initialized", {}), notif("notifications/initialized", { _meta: { a: 1 } })],
  JSONRPCErrorResponse: [
    { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
    { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
    { jsonrpc: "2.0", id: "abc", error: { code: -32602, message: "Unknown tool: invalid_tool_name", data: { tool: "x" } } }
  ],
  JSONRPCMessage: [],
  JSONRPCNotification: [notif("notifications/initialized"), notif("notifications/vendor/custom", { anything: [1, "two"] })],
  JSONRPCRequest: [req(1, "tools/list"), req("r-2", "vendor/custom", { cursor: "c", nested: { a: true } })],
  JSONRPCResponse: [],
  JSONRPCResultResponse: [
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "2.0", id: "x", result: callToolResult },
    { jsonrpc: "2.0", id: 3, result: { _meta: {}, custom: "kept" } }
  ],
  LegacyTitledEnumSchema: [legacyEnum, { type: "string", enum: ["a"] }],
  ListPromptsRequest: [req(1, "prompts/list"), req(2, "prompts/list", { cursor: "optional-cursor-value" })],
  ListPromptsResult: [{ prompts: [prompt, { name: "bare" }], nextCursor: "next-page-cursor" }, { prompts: [] }],
  ListResourceTemplatesRequest: [req(3, "resources/templates/list"), req(4, "resources/templates/list", {})],
  ListResourceTemplatesResult: [{ resourceTemplates: [resourceTemplate, { uriTemplate: "db://{table}", name: "tables" }] }],
  ListResourcesRequest: [req(1, "resources/list", { cursor: "c" }), req(2, "resources/list")],
  ListResourcesResult: [{ resources: [resource, { uri: "https://example.com/a", name: "a" }], nextCursor: "n" }],
  ListRootsRequest: [req(1, "roots/list"), req(2, "roots/list", { _meta: { progressToken: "r" } })],
  ListRootsResult: [{ roots: [root, { uri: "file:///tmp" }] }, { roots: [] }],
  ListTasksRequest: [req(12, "tasks/list"), req(13, "tasks/list", { cursor: "optional-cursor" })],
  ListTasksResult: [{ tasks: [task, finishedTask], nextCursor: "next-page" }, { tasks: [] }],
  ListToolsRequest: [req(1, "tools/list"), req(2, "tools/list", { cursor: "x", _meta: { progressToken: 1 } })],
  ListToolsResult: [{ tools: [tool, minimalTool, toolWithExtraKeywords], nextCursor: "next" }],
  LoggingLevel: ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"],
  LoggingMessageNotification: [notif("notifications/message", { level: "error", logger: "database", data: { error: "Connection failed" } })],
  LoggingMessageNotificationParams: [
    { level: "info", data: "started" },
    { level: "debug", data: null },
    { level: "warning", data: [1, 2, 3], logger: "x", _meta: {} }
  ],
  ModelHint: [{ name: "claude-3-5-sonnet" }, {}],
  ModelPreferences: [createMessageParams.modelPreferences, {}, { costPriority: 0, speedPriority: 1 }],
  MultiSelectEnumSchema: [],
  Notification: [{ method: "notifications/initialized" }, { method: "notifications/progress", params: { progressToken: 1, progress: 2 } }],
  NotificationParams: [{}, { _meta: { a: 1 } }],
  NumberSchema: [numberSchema, floatSchema, { type: "number", minimum: -1.5, maximum: 1.5, default: 0.25 }],
  PaginatedRequest: [req(1, "resources/list", { cursor: "c" }), req(2, "prompts/list")],
  PaginatedRequestParams: [{ cursor: "c" }, {}, { _meta: { progressToken: "p" } }],
  PaginatedResult: [{ nextCursor: "n" }, {}],
  PingRequest: [req("ping-1", "ping"), req(2, "ping", {}), req(3, "ping", { _meta: { progressToken: 1 } })],
  PrimitiveSchemaDefinition: [],
  ProgressNotification: [notif("notifications/progress", { progressToken: "abc123", progress: 50, total: 100, message: "Reticulating splines..." })],
  ProgressNotificationParams: [{ progressToken: 1, progress: 0.5 }, { progressToken: "t", progress: 3, total: 10, message: "m", _meta: {} }],
  ProgressToken: ["abc123", 42],
  Prompt: [prompt, { name: "simple" }],
  PromptArgument: [{ name: "code", description: "The code", required: true, title: "Code" }, { name: "x" }],
  PromptListChangedNotification: [notif("notifications/prompts/list_changed")],
  PromptMessage: [{ role: "user", content: plainText }, { role: "assistant", content: embeddedBlob }, { role: "user", content: audio }],
  PromptReference: [{ type: "ref/prompt", name: "code_review" }, { type: "ref/prompt", name: "x", title: "X" }],
  ReadResourceRequest: [req(2, "resources/read", { uri: "file:///project/src/main.rs" })],
  ReadResourceRequestParams: [{ uri: "file:///x" }, { uri: "https://example.com/r", _meta: { progressToken: 1 } }],
  ReadResourceResult: [{ contents: [textContents, blobContents] }, { contents: [], _meta: {} }],
  RelatedTaskMetadata: [{ taskId: task.taskId }],
  Request: [{ method: "tools/call", params: { name: "x" } }, { method: "ping" }],
  RequestId: [1, "req-1", 0, -5],
  RequestParams: [{}, { _meta: { progressToken: 1, "example.com/x": { y: true } } }],
  Resource: [resource, { uri: "file:///x", name: "x" }],
  ResourceContents: [{ uri: "file:///x", mimeType: "text/plain" }, { uri: "file:///y", _meta: {} }],
  ResourceLink: [resourceLink, { type: "resource_link", uri: "file:///x", name: "x" }],
  ResourceListChangedNotification: [notif("notifications/resources/list_changed"), notif("notifications/resources/list_changed", {})],
  ResourceRequestParams: [{ uri: "file:///x" }],
  ResourceTemplate: [resourceTemplate, { uriTemplate: "file:///{path}", name: "p" }],
  ResourceTemplateReference: [{ type: "ref/resource", uri: "file:///{path}" }, { type: "ref/resource", uri: "https://example.com/fixed" }],
  ResourceUpdatedNotification: [notif("notifications/resources/updated", { uri: "file:///project/src/main.rs" })],
  ResourceUpdatedNotificationParams: [{ uri: "file:///x" }, { uri: "file:///y", _meta: {} }],
  Result: [{}, { _meta: { a: 1 } }, { anything: "goes", nested: { deep: [1] } }],
  Role: ["user", "assistant"],
  Root: [root, { uri: "file:///tmp" }],
  RootsListChangedNotification: [notif("notifications/roots/list_changed")],
  SamplingMessage: samplingMessages,
  SamplingMessageContentBlock: [],
  ServerCapabilities: [serverCapabilities, {}, { logging: {} }],
  ServerNotification: [],
  ServerRequest: [],
  ServerResult: [],
  SetLevelRequest: [req(1, "logging/setLevel", { level: "info" })],
  SetLevelRequestParams: [{ level: "emergency" }, { level: "debug", _meta: { progressToken: 1 } }],
  SingleSelectEnumSchema: [],
  StringSchema: [stringSchema, { type: "string" }, { type: "string", format: "date-time" }, { type: "string", format: "uri" }, { type: "string", format: "date" }],
  SubscribeRequest: [req(4, "resources/subscribe", { uri: "file:///project/src/main.rs" })],
  SubscribeRequestParams: [{ uri: "file:///x" }],
  Task: [task, finishedTask],
  TaskAugmentedRequestParams: [{}, { task: { ttl: 1000 } }, { task: {}, _meta: { progressToken: "p" } }],
  TaskMetadata: [{ ttl: 60000 }, {}],
  TaskStatus: ["cancelled", "completed", "failed", "input_required", "working"],
  TaskStatusNotification: [notif("notifications/tasks/status", { ...task, status: "completed" })],
  TaskStatusNotificationParams: [task, { ...finishedTask, _meta: { a: 1 } }],
  TextContent: [text, plainText],
  TextResourceContents: [textContents, { uri: "file:///x", text: "" }],
  TitledMultiSelectEnumSchema: [titledMulti, { type: "array", items: { anyOf: [] } }],
  TitledSingleSelectEnumSchema: [titledSingle, { type: "string", oneOf: [{ const: "a", title: "A" }] }],
  Tool: [tool, minimalTool, toolWithExtraKeywords],
  ToolAnnotations: [tool.annotations, {}],
  ToolChoice: [{ mode: "auto" }, { mode: "required" }, { mode: "none" }, {}],
  ToolExecution: [{ taskSupport: "forbidden" }, { taskSupport: "optional" }, { taskSupport: "required" }, {}],
  ToolListChangedNotification: [notif("notifications/tools/list_changed")],
  ToolResultContent: [toolResult, toolResultError, {
    type: "tool_result",
    toolUseId: "t",
    content: [resourceLink, embeddedText],
    _meta: { cache: true }
  }],
  ToolUseContent: [toolUse, toolUse2],
  URLElicitationRequiredError: [{
    jsonrpc: "2.0",
    id: 2,
    error: {
      code: -32042,
      message: "This request requires more information.",
      data: { elicitations: [elicitUrlParams], retryAfter: 5 }
    }
  }],
  UnsubscribeRequest: [req(5, "resources/unsubscribe", { uri: "file:///project/src/main.rs" })],
  UnsubscribeRequestParams: [{ uri: "file:///x" }],
  UntitledMultiSelectEnumSchema: [untitledMulti, { type: "array", items: { type: "string", enum: [] } }],
  UntitledSingleSelectEnumSchema: [untitledSingle, { type: "string", enum: ["only"] }]
}

/** All samples of a definition: its own plus, for unions, those of its members (recursively). */
const samplesOf = (name: string): ReadonlyArray<unknown> => [
  ...(explicitSamples[name] ?? []),
  ...unionMembers(name).flatMap(samplesOf)
]

// -----------------------------------------------------------------------------
// Tests
// -----------------------------------------------------------------------------

describe("McpSchema", () => {
  describe("spec file", () => {
    it("has the 145 definitions of 2025-11-25", () => {
      expect(spec.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
      expect(defNames).toHaveLength(145)
    })

    it("exports a schema for every $defs name", () => {
      const missing = defNames.filter((name) => !Schema.isSchema(exported[name]))
      expect(missing).toEqual([])
    })

    it("has samples for every $defs name", () => {
      expect(defNames.filter((name) => samplesOf(name).length === 0)).toEqual([])
      expect(Object.keys(explicitSamples).filter((name) => !(name in spec.$defs))).toEqual([])
    })
  })

  describe("valid samples: decode, round-trip and ajv", () => {
    for (const name of defNames) {
      it(name, () => {
        const schema = schemaOf(name)
        const samples = samplesOf(name)
        expect(samples.length).toBeGreaterThan(0)
        for (const sample of samples) {
          // the spec accepts it
          expect(ajvErrors(name, sample), JSON.stringify(sample)).toBeNull()
          // we accept it
          const decoded = Schema.decodeUnknownResult(schema)(sample)
          if (Result.isFailure(decoded)) {
            throw new globalThis.Error(`${name} rejected ${JSON.stringify(sample)}:\n${decoded.failure.message}`)
          }
          expect(Schema.is(schema)(sample)).toBe(true)
          // Type == Encoded: encoding gives back the wire value, which the spec accepts
          const encoded = Schema.encodeSync(schema)(decoded.success)
          expect(encoded).toStrictEqual(sample)
          expect(ajvErrors(name, JSON.parse(JSON.stringify(encoded)))).toBeNull()
        }
      })
    }
  })

  describe("invalid values: rejected by both ajv and McpSchema", () => {
    const invalid: ReadonlyArray<readonly [name: string, value: unknown, why: string]> = [
      ["Tool", { name: "x" }, "missing inputSchema"],
      ["Tool", { inputSchema: { type: "object" } }, "missing name"],
      ["Tool", { name: "x", inputSchema: { type: "array" } }, "inputSchema.type must be object"],
      ["Tool", { name: "x", inputSchema: { type: "object", properties: { a: "string" } } }, "property schemas are objects"],
      ["Tool", { name: "x", inputSchema: { type: "object", required: "a" } }, "required is an array"],
      ["Tool", { name: 1, inputSchema: { type: "object" } }, "name is a string"],
      ["Tool", { name: "x", inputSchema: { type: "object" }, execution: { taskSupport: "maybe" } }, "bad taskSupport"],
      ["Tool", { name: "x", inputSchema: { type: "object" }, annotations: { readOnlyHint: "yes" } }, "hint is boolean"],
      ["ToolExecution", { taskSupport: "always" }, "bad taskSupport"],
      ["ToolChoice", { mode: "any" }, "bad mode"],
      ["TextContent", { type: "text" }, "missing text"],
      ["TextContent", { type: "txt", text: "x" }, "wrong type const"],
      ["TextContent", { type: "text", text: "x", annotations: { priority: 2 } }, "priority > 1"],
      ["TextContent", { type: "text", text: "x", annotations: { audience: ["system"] } }, "bad role"],
      ["TextContent", { type: "text", text: "x", _meta: [] }, "_meta is an object"],
      ["ImageContent", { type: "image", data: "iVBORw0KGgo=" }, "missing mimeType"],
      ["AudioContent", { type: "audio", mimeType: "audio/wav" }, "missing data"],
      ["ContentBlock", toolUse, "tool_use is not a ContentBlock"],
      ["ContentBlock", { type: "video", data: "x", mimeType: "video/mp4" }, "unknown content type"],
      ["SamplingMessageContentBlock", resourceLink, "resource_link is not sampling content"],
      ["SamplingMessage", { role: "user", content: [embeddedText] }, "embedded resource is not sampling content"],
      ["SamplingMessage", { role: "system", content: plainText }, "bad role"],
      ["ToolUseContent", { type: "tool_use", id: "1", name: "x" }, "missing input"],
      ["ToolUseContent", { type: "tool_use", id: "1", name: "x", input: [] }, "input is an object"],
      ["ToolResultContent", { type: "tool_result", content: [] }, "missing toolUseId"],
      ["ToolResultContent", { type: "tool_result", toolUseId: "1", content: plainText }, "content is an array"],
      ["ResourceLink", { type: "resource", uri: "file:///x", name: "x" }, "wrong type const"],
      ["ResourceLink", { type: "resource_link", uri: "file:///x" }, "missing name"],
      ["Resource", { uri: "file:///x", name: "x", size: 1.5 }, "size is an integer"],
      ["Resource", { name: "x" }, "missing uri"],
      ["EmbeddedResource", { type: "resource", resource: { text: "x" } }, "resource contents need a uri"],
      ["EmbeddedResource", { type: "resource", resource: { uri: "file:///x" } }, "resource contents need text or blob"],
      ["ReadResourceResult", { contents: [{ uri: "file:///x", mimeType: "text/plain" }] }, "contents need text or blob"],
      ["Role", "system", "not a role"],
      ["LoggingLevel", "verbose", "not a level"],
      ["LoggingLevel", "INFO", "levels are lower case"],
      ["TaskStatus", "running", "not a status"],
      ["Task", { taskId: "t", status: "working", createdAt: "a", lastUpdatedAt: "b" }, "ttl is required (nullable)"],
      ["Task", { ...task, ttl: "1000" }, "ttl is an integer"],
      ["Task", { ...task, ttl: 1.5 }, "ttl is an integer"],
      ["Task", { ...task, status: "done" }, "bad status"],
      ["Task", { ...task, pollInterval: 0.5 }, "pollInterval is an integer"],
      ["TaskMetadata", { ttl: "60s" }, "ttl is an integer"],
      ["CreateTaskResult", {}, "missing task"],
      ["GetTaskResult", { ...task, status: "paused" }, "bad status"],
      ["ListTasksResult", { nextCursor: "x" }, "missing tasks"],
      ["Implementation", { name: "x" }, "missing version"],
      ["Implementation", { name: "x", version: 1 }, "version is a string"],
      ["Implementation", { name: "x", version: "1", icons: [{ mimeType: "image/png" }] }, "icon needs src"],
      ["Icon", { src: "https://example.com/i.png", theme: "blue" }, "bad theme"],
      ["Icon", { src: "https://example.com/i.png", sizes: "48x48" }, "sizes is an array"],
      ["Annotations", { priority: -0.1 }, "priority < 0"],
      ["ModelPreferences", { costPriority: 1.5 }, "priority > 1"],
      ["ModelPreferences", { hints: [{ name: 1 }] }, "hint name is a string"],
      ["ClientCapabilities", { roots: { listChanged: "yes" } }, "listChanged is boolean"],
      ["ClientCapabilities", { experimental: { feature: "on" } }, "experimental values are objects"],
      ["ClientCapabilities", { sampling: { tools: true } }, "capability markers are objects"],
      ["ClientCapabilities", { elicitation: { url: 1 } }, "capability markers are objects"],
      ["ClientCapabilities", { tasks: { requests: { sampling: { createMessage: false } } } }, "capability markers are objects"],
      ["ClientCapabilities", [], "capabilities are an object"],
      ["ServerCapabilities", { logging: true }, "logging is an object"],
      ["ServerCapabilities", { resources: { subscribe: 1 } }, "subscribe is boolean"],
      ["ServerCapabilities", { tasks: { requests: { tools: { call: "yes" } } } }, "capability markers are objects"],
      ["InitializeRequestParams", { protocolVersion: "2025-11-25", clientInfo: minimalImplementation }, "missing capabilities"],
      ["InitializeRequestParams", { capabilities: {}, clientInfo: minimalImplementation }, "missing protocolVersion"],
      ["InitializeResult", { protocolVersion: "2025-11-25", capabilities: {} }, "missing serverInfo"],
      ["InitializeRequest", req(1, "initialize"), "params required"],
      ["CallToolRequest", req(1, "tools/call"), "params required"],
      ["CallToolRequest", { jsonrpc: "1.0", id: 1, method: "tools/call", params: { name: "x" } }, "jsonrpc must be 2.0"],
      ["CallToolRequest", { jsonrpc: "2.0", method: "tools/call", params: { name: "x" } }, "id required"],
      ["CallToolRequest", req(1, "tools/list", { name: "x" }), "wrong method const"],
      ["CallToolRequest", req(null as unknown as number, "tools/call", { name: "x" }), "id is not null"],
      ["CallToolRequestParams", { name: "x", arguments: [1] }, "arguments is an object"],
      ["CallToolRequestParams", { name: "x", task: { ttl: "soon" } }, "task.ttl is an integer"],
      ["CallToolRequestParams", { name: "x", _meta: { progressToken: true } }, "progressToken is string or integer"],
      ["CallToolResult", { isError: true }, "missing content"],
      ["CallToolResult", { content: [], structuredContent: "x" }, "structuredContent is an object"],
      ["CallToolResult", { content: [{ type: "text" }] }, "invalid content block"],
      ["RequestId", 1.5, "ids are integers or strings"],
      ["RequestId", true, "ids are integers or strings"],
      ["RequestId", null, "ids are not null"],
      ["ProgressToken", null, "tokens are integers or strings"],
      ["ProgressToken", 0.5, "tokens are integers or strings"],
      ["Cursor", 1, "cursor is a string"],
      ["ProgressNotificationParams", { progressToken: "t", progress: "50%" }, "progress is a number"],
      ["ProgressNotificationParams", { progress: 1 }, "missing progressToken"],
      ["ProgressNotification", notif("notifications/progress"), "params required"],
      ["CancelledNotificationParams", { requestId: 1.5 }, "requestId is a RequestId"],
      ["LoggingMessageNotificationParams", { level: "info" }, "missing data"],
      ["LoggingMessageNotificationParams", { level: "loud", data: 1 }, "bad level"],
      ["SetLevelRequestParams", {}, "missing level"],
      ["SetLevelRequest", req(1, "logging/setLevel", { level: "trace" }), "bad level"],
      ["InitializedNotification", notif("notifications/initialised"), "misspelled method"],
      ["InitializedNotification", { jsonrpc: "2.0", method: "notifications/initialized", params: "x" }, "params is an object"],
      ["ResourceUpdatedNotification", notif("notifications/resources/updated"), "params required"],
      ["ResourceUpdatedNotificationParams", {}, "missing uri"],
      ["TaskStatusNotificationParams", { taskId: "t" }, "task fields required"],
      ["ElicitationCompleteNotification", notif("notifications/elicitation/complete", {}), "missing elicitationId"],
      ["ElicitRequestURLParams", { ...elicitUrlParams, mode: "form" }, "mode must be url"],
      ["ElicitRequestURLParams", { mode: "url", message: "m", elicitationId: "e" }, "missing url"],
      ["ElicitRequestURLParams", { mode: "url", message: "m", url: "https://example.com" }, "missing elicitationId"],
      ["ElicitRequestFormParams", { message: "m" }, "missing requestedSchema"],
      ["ElicitRequestFormParams", { message: "m", mode: "url", requestedSchema: { type: "object", properties: {} } }, "mode must be form"],
      ["ElicitRequestFormParams", { message: "m", requestedSchema: { type: "array", properties: {} } }, "requestedSchema.type is object"],
      ["ElicitRequestFormParams", { message: "m", requestedSchema: { type: "object" } }, "requestedSchema.properties required"],
      [
        "ElicitRequestFormParams",
        { message: "m", requestedSchema: { type: "object", properties: { address: { type: "object" } } } },
        "no nested objects"
      ],
      ["ElicitRequestParams", { message: "m" }, "neither form nor url params"],
      ["ElicitRequest", req(1, "elicitation/create", { mode: "url", message: "m" }), "incomplete url params"],
      ["ElicitResult", { action: "ok" }, "bad action"],
      ["ElicitResult", { content: {} }, "missing action"],
      ["ElicitResult", { action: "accept", content: { address: { city: "Paris" } } }, "content values are primitives"],
      ["ElicitResult", { action: "accept", content: { tags: [1, 2] } }, "array values are strings"],
      ["ElicitResult", { action: "accept", content: { x: null } }, "content values are not null"],
      ["StringSchema", { type: "string", format: "phone" }, "bad format"],
      ["StringSchema", { type: "string", minLength: 1.5 }, "minLength is an integer"],
      ["StringSchema", { title: "x" }, "missing type"],
      ["NumberSchema", { type: "float" }, "bad type"],
      ["NumberSchema", { type: "number", minimum: "0" }, "minimum is a number"],
      ["BooleanSchema", { type: "boolean", default: "false" }, "default is boolean"],
      ["UntitledSingleSelectEnumSchema", { type: "string" }, "missing enum"],
      ["UntitledSingleSelectEnumSchema", { type: "string", enum: [1, 2] }, "enum values are strings"],
      ["TitledSingleSelectEnumSchema", { type: "string", oneOf: [{ const: "a" }] }, "option needs a title"],
      ["UntitledMultiSelectEnumSchema", { type: "array", items: { type: "number", enum: ["a"] } }, "items.type is string"],
      ["UntitledMultiSelectEnumSchema", { type: "string", items: { type: "string", enum: ["a"] } }, "type is array"],
      ["TitledMultiSelectEnumSchema", { type: "array", items: { oneOf: [] } }, "items.anyOf required"],
      ["LegacyTitledEnumSchema", { type: "string", enum: ["a"], enumNames: "A" }, "enumNames is an array"],
      ["EnumSchema", { type: "boolean" }, "not an enum schema"],
      ["PrimitiveSchemaDefinition", { type: "object", properties: {} }, "objects are not primitive"],
      ["PrimitiveSchemaDefinition", { type: "array", items: { type: "string" } }, "arrays need enum items"],
      ["CreateMessageRequestParams", { messages: [] }, "missing maxTokens"],
      ["CreateMessageRequestParams", { messages: [], maxTokens: 1.5 }, "maxTokens is an integer"],
      ["CreateMessageRequestParams", { maxTokens: 10 }, "missing messages"],
      ["CreateMessageRequestParams", { messages: [], maxTokens: 10, includeContext: "everything" }, "bad includeContext"],
      ["CreateMessageRequestParams", { messages: [], maxTokens: 10, tools: [{ name: "x" }] }, "tools need inputSchema"],
      ["CreateMessageRequestParams", { messages: [], maxTokens: 10, toolChoice: { mode: "force" } }, "bad toolChoice"],
      ["CreateMessageRequestParams", { messages: [], maxTokens: 10, metadata: "x" }, "metadata is an object"],
      ["CreateMessageResult", { role: "assistant", content: plainText }, "missing model"],
      ["CreateMessageResult", { role: "assistant", model: "m", content: plainText, stopReason: 1 }, "stopReason is a string"],
      ["CompleteRequestParams", { ref: { type: "ref/tool", name: "x" }, argument: { name: "a", value: "b" } }, "bad ref type"],
      ["CompleteRequestParams", { ref: { type: "ref/prompt", name: "x" }, argument: { name: "a" } }, "argument.value required"],
      ["CompleteRequestParams", { ref: { type: "ref/resource" }, argument: { name: "a", value: "b" } }, "ref/resource needs uri"],
      ["CompleteRequestParams", {
        ref: { type: "ref/prompt", name: "x" },
        argument: { name: "a", value: "b" },
        context: { arguments: { n: 1 } }
      }, "context arguments are strings"],
      ["CompleteResult", { completion: {} }, "completion.values required"],
      ["CompleteResult", { completion: { values: [], total: 2.5 } }, "total is an integer"],
      ["GetPromptRequestParams", { name: "p", arguments: { n: 1 } }, "prompt arguments are strings"],
      ["GetPromptResult", { messages: [{ role: "user", content: toolUse }] }, "prompt content is a ContentBlock"],
      ["PromptMessage", { role: "user" }, "missing content"],
      ["PromptArgument", { name: "a", required: "yes" }, "required is boolean"],
      ["Root", { name: "x" }, "missing uri"],
      ["ListRootsResult", {}, "missing roots"],
      ["ListToolsResult", { tools: [{ name: "x" }] }, "tools need inputSchema"],
      ["ListResourcesResult", { resources: [{ uri: "file:///x" }] }, "resources need a name"],
      ["ListResourceTemplatesResult", { resourceTemplates: [{ name: "x" }] }, "templates need uriTemplate"],
      ["ListPromptsResult", { prompts: [{}] }, "prompts need a name"],
      ["PaginatedRequestParams", { cursor: 3 }, "cursor is a string"],
      ["GetTaskRequest", req(1, "tasks/get", {}), "missing taskId"],
      ["GetTaskPayloadRequest", req(1, "tasks/result"), "params required"],
      ["CancelTaskRequest", req(1, "tasks/cancel", { taskId: 1 }), "taskId is a string"],
      ["ClientRequest", req(1, "tools/unknown"), "unknown method"],
      ["ClientRequest", req(1, "sampling/createMessage", minimalCreateMessageParams), "server-only request"],
      ["ServerRequest", req(1, "tools/call", { name: "x" }), "client-only request"],
      ["ClientNotification", notif("notifications/message", { level: "info", data: 1 }), "server-only notification"],
      ["ServerNotification", notif("notifications/initialized"), "client-only notification"],
      ["ServerNotification", notif("notifications/roots/list_changed"), "client-only notification"],
      ["Result", [], "results are objects"],
      ["EmptyResult", "ok", "results are objects"],
      ["ClientResult", null, "results are objects"],
      ["ServerResult", 1, "results are objects"],
      ["Result", { _meta: "x" }, "_meta is an object"],
      ["Error", { code: -32600 }, "missing message"],
      ["Error", { code: 1.5, message: "m" }, "code is an integer"],
      ["JSONRPCResultResponse", { jsonrpc: "2.0", result: {} }, "missing id"],
      ["JSONRPCResultResponse", { jsonrpc: "2.0", id: 1 }, "missing result"],
      ["JSONRPCErrorResponse", { jsonrpc: "2.0", id: 1, error: { message: "m" } }, "error needs a code"],
      ["JSONRPCRequest", { jsonrpc: "2.0", id: 1 }, "missing method"],
      ["JSONRPCNotification", { jsonrpc: "2.0", method: "x", params: [1] }, "params is an object"],
      ["JSONRPCMessage", { jsonrpc: "2.0" }, "not any message"],
      ["JSONRPCResponse", { jsonrpc: "2.0", id: 1, method: "ping" }, "a request is not a response"],
      ["URLElicitationRequiredError", {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32000, message: "m", data: { elicitations: [] } }
      }, "code must be -32042"],
      ["URLElicitationRequiredError", { jsonrpc: "2.0", id: 1, error: { code: -32042, message: "m" } }, "data required"],
      ["URLElicitationRequiredError", {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32042, message: "m", data: { elicitations: [{ mode: "url" }] } }
      }, "elicitations are URL params"],
      ["Request", { params: {} }, "missing method"],
      ["Notification", { method: "x", params: "y" }, "params is an object"],
      ["RelatedTaskMetadata", {}, "missing taskId"],
      ["BaseMetadata", { title: "x" }, "missing name"],
      ["Icons", { icons: [{}] }, "icon needs src"],
      ["ResourceTemplateReference", { type: "ref/resource", uri: 1 }, "uri is a string"],
      ["PromptReference", { type: "ref/prompt" }, "missing name"],
      ["ModelHint", { name: ["a"] }, "name is a string"],
      ["ToolAnnotations", { title: 1 }, "title is a string"]
    ]

    for (const [name, value, why] of invalid) {
      it(`${name}: ${why}`, () => {
        expect(ajvErrors(name, value), "the spec should reject it").not.toBeNull()
        const schema = schemaOf(name)
        expect(Result.isFailure(Schema.decodeUnknownResult(schema)(value)), "McpSchema should reject it").toBe(true)
        expect(Schema.is(schema)(value)).toBe(false)
      })
    }
  })

  describe("method tables", () => {
    const tables = {
      ClientRequest: McpSchema.ClientRequests,
      ServerRequest: McpSchema.ServerRequests,
      ClientNotification: McpSchema.ClientNotifications,
      ServerNotification: McpSchema.ServerNotifications
    } as const satisfies Record<string, McpSchema.NotificationMethodTable>

    /** `method` const -> request/notification definition name, for a spec union. */
    const methodsOf = (union: string): ReadonlyMap<string, string> =>
      new Map(unionMembers(union).map((member) => {
        const method = spec.$defs[member].properties?.method?.const
        if (typeof method !== "string") throw new globalThis.Error(`${member} has no method const`)
        return [method, member]
      }))

    for (const [union, table] of Object.entries(tables)) {
      describe(union, () => {
        const methods = methodsOf(union)
        const entries = table as McpSchema.NotificationMethodTable

        it("has exactly the methods of the spec union", () => {
          expect(Object.keys(table).sort()).toEqual([...methods.keys()].sort())
        })

        for (const [method, member] of methods) {
          it(`${method} (${member})`, () => {
            const params = entries[method].params
            const paramsDef = spec.$defs[member].properties!.params
            const paramsRequired = spec.$defs[member].required!.includes("params")
            // an absent `params` is accepted exactly when the spec makes it optional
            expect(Result.isSuccess(Schema.decodeUnknownResult(params)(undefined))).toBe(!paramsRequired)
            if (!paramsRequired) {
              expect(params.ast._tag).toBe("Union")
            }
            // a named params definition is used as-is
            if (paramsDef.$ref !== undefined) {
              const named = exported[refName(paramsDef)]
              if (paramsRequired) expect(params).toBe(named)
              else expect((params.ast as AST.Union).types).toContain((named as Schema.Top).ast)
            }
            // the params of every sample message decode with the table's params schema
            for (const sample of samplesOf(member) as ReadonlyArray<{ readonly params?: unknown }>) {
              const decoded = Schema.decodeUnknownSync(params)(sample.params)
              expect(Schema.encodeSync(params)(decoded)).toStrictEqual(sample.params)
            }
            // requests: the result schema is `<Name>Result` when the spec has one, else EmptyResult
            if ("result" in entries[method]) {
              const resultName = member.replace(/Request$/, "Result")
              const expected = resultName in spec.$defs ? exported[resultName] : McpSchema.EmptyResult
              expect((table as McpSchema.RequestMethodTable)[method].result).toBe(expected)
            }
          })
        }
      })
    }

    it("task-augmentable methods accept params.task", () => {
      for (const method of McpSchema.ClientTaskAugmentableRequests) {
        expect(Object.keys(McpSchema.ClientRequests[method].params.fields)).toContain("task")
      }
      expect(Object.keys(McpSchema.ServerRequests["sampling/createMessage"].params.fields)).toContain("task")
      for (const member of McpSchema.ServerRequests["elicitation/create"].params.members) {
        expect(Object.keys(member.fields)).toContain("task")
      }
      expect(McpSchema.ServerTaskAugmentableRequests).toEqual(["sampling/createMessage", "elicitation/create"])
    })

    it("method guards", () => {
      expect(McpSchema.isClientRequestMethod("tools/call")).toBe(true)
      expect(McpSchema.isClientRequestMethod("sampling/createMessage")).toBe(false)
      expect(McpSchema.isClientRequestMethod("toString")).toBe(false)
      expect(McpSchema.isServerRequestMethod("elicitation/create")).toBe(true)
      expect(McpSchema.isClientNotificationMethod("notifications/initialized")).toBe(true)
      expect(McpSchema.isServerNotificationMethod("notifications/initialized")).toBe(false)
      expect(McpSchema.isServerNotificationMethod("notifications/elicitation/complete")).toBe(true)
    })

    it("helper types are precise", () => {
      expectTypeOf<McpSchema.ClientRequestMethod>().toEqualTypeOf<
        | "initialize"
        | "ping"
        | "resources/list"
        | "resources/templates/list"
        | "resources/read"
        | "resources/subscribe"
        | "resources/unsubscribe"
        | "prompts/list"
        | "prompts/get"
        | "tools/list"
        | "tools/call"
        | "tasks/get"
        | "tasks/result"
        | "tasks/cancel"
        | "tasks/list"
        | "logging/setLevel"
        | "completion/complete"
      >()
      expectTypeOf<McpSchema.ClientRequestParams<"tools/call">>().toEqualTypeOf<McpSchema.CallToolRequestParams>()
      expectTypeOf<McpSchema.ClientRequestResult<"tools/call">>().toEqualTypeOf<McpSchema.CallToolResult>()
      expectTypeOf<McpSchema.ClientRequestParams<"tools/list">>().toEqualTypeOf<
        McpSchema.PaginatedRequestParams | undefined
      >()
      expectTypeOf<McpSchema.ClientRequestResult<"initialize">>().toEqualTypeOf<McpSchema.InitializeResult>()
      expectTypeOf<McpSchema.ClientRequestResult<"ping">>().toEqualTypeOf<McpSchema.EmptyResult>()
      expectTypeOf<McpSchema.ServerRequestParams<"elicitation/create">>().toEqualTypeOf<McpSchema.ElicitRequestParams>()
      expectTypeOf<McpSchema.ServerRequestResult<"sampling/createMessage">>().toEqualTypeOf<
        McpSchema.CreateMessageResult
      >()
      expectTypeOf<McpSchema.ServerRequestResult<"tasks/get">>().toEqualTypeOf<McpSchema.GetTaskResult>()
      expectTypeOf<McpSchema.ServerRequestParams<"roots/list">>().toEqualTypeOf<McpSchema.RequestParams | undefined>()
      expectTypeOf<McpSchema.ClientNotificationParams<"notifications/initialized">>().toEqualTypeOf<
        McpSchema.NotificationParams | undefined
      >()
      expectTypeOf<McpSchema.ServerNotificationParams<"notifications/message">>().toEqualTypeOf<
        McpSchema.LoggingMessageNotificationParams
      >()
      expectTypeOf<"notifications/elicitation/complete">().toMatchTypeOf<McpSchema.ServerNotificationMethod>()
      // Type == Encoded
      expectTypeOf<Schema.Codec.Encoded<typeof McpSchema.Tool>>().toEqualTypeOf<McpSchema.Tool>()
      expectTypeOf<Schema.Codec.Encoded<typeof McpSchema.ServerResult>>().toEqualTypeOf<McpSchema.ServerResult>()
      expect(true).toBe(true)
    })
  })

  describe("design rules", () => {
    /**
     * Walks an AST and returns the tags of nodes that would make Type differ from Encoded (Effect 4: a
     * transformation is a node's `encoding`; a refinement is a check on the node itself, which is plain).
     */
    const nonPlainNodes = (ast: AST.AST, seen = new Set<AST.AST>()): ReadonlyArray<string> => {
      if (seen.has(ast)) return []
      seen.add(ast)
      if (ast.encoding !== undefined) return ["Transformation"]
      switch (ast._tag) {
        case "Declaration":
        case "Suspend":
          return [ast._tag]
        case "Union":
          return ast.types.flatMap((type) => nonPlainNodes(type, seen))
        case "Arrays":
          return [...ast.elements, ...ast.rest].flatMap((type) => nonPlainNodes(type, seen))
        case "Objects":
          return [
            ...ast.propertySignatures.map((ps) => ps.type),
            ...ast.indexSignatures.map((is) => is.type)
          ].flatMap((type) => nonPlainNodes(type, seen))
        default:
          return []
      }
    }

    it("every exported schema is plain (no transformations, classes or declarations)", () => {
      const offenders = Object.entries(exported)
        .filter(([, value]) => Schema.isSchema(value))
        .flatMap(([name, value]) => nonPlainNodes((value as Schema.Top).ast).map((tag) => `${name}: ${tag}`))
      expect(offenders).toEqual([])
    })

    it("protocol versions and error codes", () => {
      expect(McpSchema.LATEST_PROTOCOL_VERSION).toBe("2025-11-25")
      expect(McpSchema.SUPPORTED_PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
      expect(McpSchema.SUPPORTED_PROTOCOL_VERSIONS[0]).toBe(McpSchema.LATEST_PROTOCOL_VERSION)
      expect(McpSchema.isSupportedProtocolVersion("2025-06-18")).toBe(true)
      expect(McpSchema.isSupportedProtocolVersion("2023-01-01")).toBe(false)
      expect(McpSchema.URL_ELICITATION_REQUIRED).toBe(-32042)
      expect(McpSchema.RESOURCE_NOT_FOUND).toBe(-32002)
      // the spec pins the URL elicitation code
      const error = spec.$defs.URLElicitationRequiredError.properties!.error as unknown as {
        allOf: ReadonlyArray<{ properties?: { code?: { const?: number } } }>
      }
      expect(error.allOf[1].properties?.code?.const).toBe(McpSchema.URL_ELICITATION_REQUIRED)
    })

    it("open-ended objects keep unknown keys", () => {
      const decode = <A>(schema: Schema.Codec<A>, value: unknown) => Schema.decodeUnknownSync(schema)(value)
      const result = { _meta: { a: 1 }, vendorField: { x: [1] } }
      expect(decode(McpSchema.Result, result)).toStrictEqual(result)
      expect(decode(McpSchema.GetTaskPayloadResult, callToolResult)).toStrictEqual(callToolResult)
      expect(decode(McpSchema.Tool, toolWithExtraKeywords)).toStrictEqual(toolWithExtraKeywords)
      const capabilities = { logging: { level: "debug" }, experimental: { x: { y: 1 } }, tasks: { list: { paged: true } } }
      expect(decode(McpSchema.ServerCapabilities, capabilities)).toStrictEqual(capabilities)
      const params = { name: "x", _meta: { progressToken: 1, "io.modelcontextprotocol/related-task": { taskId: "t" } } }
      expect(decode(McpSchema.CallToolRequestParams, params)).toStrictEqual(params)
      const urlError = explicitSamples.URLElicitationRequiredError[0]
      expect(decode(McpSchema.URLElicitationRequiredError, urlError)).toStrictEqual(urlError)
    })

    it("capabilities keep `extensions` (SEP-2133, not in the 2025-11-25 schema, which accepts it as an unknown key)", () => {
      const client = { roots: {}, extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } }
      const server = { tools: {}, extensions: { "io.example/x": {} } }
      expect(ajvErrors("ClientCapabilities", client)).toBeNull()
      expect(ajvErrors("ServerCapabilities", server)).toBeNull()
      expect(Schema.decodeUnknownSync(McpSchema.ClientCapabilities)(client)).toStrictEqual(client)
      expect(Schema.decodeUnknownSync(McpSchema.ServerCapabilities)(server)).toStrictEqual(server)
      const params = { protocolVersion: "2025-11-25", capabilities: client, clientInfo: { name: "host", version: "1" } }
      expect(Schema.decodeUnknownSync(McpSchema.InitializeRequestParams)(params).capabilities).toStrictEqual(client)
      // an extension's settings are objects, as the other capability markers
      expect(Result.isFailure(Schema.decodeUnknownResult(McpSchema.ClientCapabilities)({ extensions: { x: true } }))).toBe(true)
    })

    it("closed objects drop unknown keys when decoding (but accept them, as the spec does)", () => {
      const value = { type: "text", text: "x", extra: 1 }
      expect(ajvErrors("TextContent", value)).toBeNull()
      expect(Schema.decodeUnknownSync(McpSchema.TextContent)(value)).toStrictEqual({ type: "text", text: "x" })
    })

    it("enum schemas keep their options when decoded through the PrimitiveSchemaDefinition union", () => {
      for (const value of [legacyEnum, untitledSingle, titledSingle, untitledMulti, titledMulti, stringSchema]) {
        expect(Schema.decodeUnknownSync(McpSchema.PrimitiveSchemaDefinition)(value)).toStrictEqual(value)
        expect(Schema.decodeUnknownSync(McpSchema.EnumSchema)(legacyEnum)).toStrictEqual(legacyEnum)
      }
    })

    it("ElicitResult accepts fractional numbers (deliberately more lenient than the JSON schema's integer)", () => {
      const value = { action: "accept", content: { ratio: 0.5 } }
      expect(ajvErrors("ElicitResult", value)).not.toBeNull()
      expect(Schema.decodeUnknownSync(McpSchema.ElicitResult)(value)).toStrictEqual(value)
    })

    it("LoggingMessageNotificationParams.data may be null but not missing", () => {
      expect(Schema.is(McpSchema.LoggingMessageNotificationParams)({ level: "info", data: null })).toBe(true)
      expect(Result.isFailure(Schema.decodeUnknownResult(McpSchema.LoggingMessageNotificationParams)({ level: "info" })))
        .toBe(true)
    })

    it("encoded values are JSON-stable", () => {
      for (const name of defNames) {
        const schema = schemaOf(name)
        for (const sample of samplesOf(name)) {
          const encoded = Schema.encodeSync(schema)(Schema.decodeUnknownSync(schema)(sample))
          expect(JSON.parse(JSON.stringify(encoded))).toStrictEqual(encoded)
        }
      }
    })
  })
})
