/**
 * Validates `McpSchema2026` against the official MCP 2026-07-28 JSON Schema with a real JSON Schema
 * 2020-12 validator (ajv + ajv-formats), the way `McpSchema.test.ts` validates the 2025 schemas,
 * and checks which definitions are shared with `McpSchema` and the era helpers of `ProtocolEra`.
 */
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpSchema2026 from "@effect-mcp/mcp/McpSchema2026"
import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
import Ajv2020Module from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { readFileSync } from "node:fs"
import * as Schema2026Core from "../src/internal/schema2026/core.js"

// -----------------------------------------------------------------------------
// Spec & validator
// -----------------------------------------------------------------------------

interface JsonSchemaNode {
  readonly $ref?: string
  readonly anyOf?: ReadonlyArray<JsonSchemaNode>
  readonly properties?: Readonly<Record<string, JsonSchemaNode & { readonly const?: unknown }>>
  readonly required?: ReadonlyArray<string>
}
interface Spec {
  readonly $schema: string
  readonly $defs: Readonly<Record<string, JsonSchemaNode>>
}

const readSpec = (version: string): Spec =>
  JSON.parse(readFileSync(new URL(`./fixtures/spec/${version}/schema.json`, import.meta.url), "utf8")) as Spec
const spec = readSpec("2026-07-28")
const spec2025 = readSpec("2025-11-25")
const defNames = Object.keys(spec.$defs)

const ajv = new Ajv2020Module.default({ strict: true, allowUnionTypes: true, allErrors: true })
addFormatsModule.default(ajv)
ajv.addSchema(spec, "mcp")

const ajvErrors = (name: string, value: unknown): string | null => {
  const validate = ajv.getSchema(`mcp#/$defs/${name}`)
  if (validate === undefined) throw new globalThis.Error(`no $defs/${name} in the spec`)
  return validate(value) ? null : ajv.errorsText(validate.errors)
}

const exported = McpSchema2026 as unknown as Record<string, unknown>
const exported2025 = McpSchema as unknown as Record<string, unknown>

const schemaOf = (name: string): Schema.Codec<unknown, unknown> => {
  const schema = exported[name]
  if (!Schema.isSchema(schema)) throw new globalThis.Error(`McpSchema2026.${name} is not a schema`)
  return schema as Schema.Codec<unknown, unknown>
}

const refName = (node: JsonSchemaNode): string => node.$ref!.replace("#/$defs/", "")

/** Names of the `$defs` members of a union definition (the `$ref`s of its `anyOf`). */
const unionMembers = (name: string): ReadonlyArray<string> =>
  (spec.$defs[name].anyOf ?? []).filter((node) => node.$ref !== undefined).map(refName)

// -----------------------------------------------------------------------------
// Sample values (all valid per spec)
// -----------------------------------------------------------------------------

const V = "2026-07-28"
const implementation = { name: "example-client", title: "Example", version: "1.0.0", websiteUrl: "https://example.com" }
const serverInfo = { name: "example-server", version: "2.0.0" }
const clientCapabilities = {
  experimental: { "com.example/x": { on: true } },
  extensions: { "io.modelcontextprotocol/skills": {} },
  roots: {},
  sampling: { context: {}, tools: {} },
  elicitation: { form: {}, url: {} }
}
const serverCapabilities = {
  experimental: { "com.example/y": {} },
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html"] } },
  logging: {},
  completions: {},
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  tools: { listChanged: false }
}
/** The smallest valid envelope. */
const meta = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} }
const fullMeta = {
  progressToken: "p-1",
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
  "io.modelcontextprotocol/clientInfo": implementation,
  "io.modelcontextprotocol/logLevel": "warning",
  "com.example/trace": { id: "t-1" }
}
const resultMeta = { "io.modelcontextprotocol/serverInfo": serverInfo }
const cache = { ttlMs: 60000, cacheScope: "public" }
const noCache = { ttlMs: 0, cacheScope: "private" }
const complete = { resultType: "complete" }

const icon = { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" }
const annotations = { audience: ["user"], priority: 0.5, lastModified: "2026-07-28T00:00:00Z" }
const text = { type: "text", text: "Hello", annotations, _meta: { "com.example/k": 1 } }
const plainText = { type: "text", text: "sunny" }
const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }
const audio = { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" }
const textContents = { uri: "file:///a.txt", mimeType: "text/plain", text: "a" }
const blobContents = { uri: "file:///a.png", blob: "iVBORw0KGgo=", _meta: {} }
const resource = { uri: "file:///a.txt", name: "a.txt", title: "A", size: 1, icons: [icon], annotations }
const resourceLink = { type: "resource_link", ...resource }
const embedded = { type: "resource", resource: textContents }
const resourceTemplate = { uriTemplate: "file:///{path}", name: "files", mimeType: "text/plain" }
const prompt = { name: "review", title: "Review", arguments: [{ name: "code", required: true }], icons: [icon] }
const root = { uri: "file:///home/user/project", name: "project" }
const toolUse = { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }
const toolResult = { type: "tool_result", toolUseId: "toolu_1", content: [plainText], structuredContent: { t: 22 } }
const toolResultArray = { type: "tool_result", toolUseId: "toolu_2", content: [], structuredContent: [1, "two"], isError: true }

const tool = {
  name: "get_weather",
  title: "Weather",
  description: "Weather for a city",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { city: { type: "string", "x-mcp-header": "City" }, strict: true },
    required: ["city"],
    unevaluatedProperties: false
  },
  outputSchema: { type: "array", items: { type: "number" } },
  annotations: { readOnlyHint: true },
  icons: [icon],
  _meta: { "com.example/v": 2 }
}
const minimalTool = { name: "noop", inputSchema: { type: "object" } }

const stringSchema = { type: "string", title: "Email", format: "email", minLength: 3 }
const numberSchema = { type: "number", minimum: 0, maximum: 1.5, default: 0.5 }
const booleanSchema = { type: "boolean", default: true }
const untitledSingle = { type: "string", enum: ["a", "b"], default: "a" }
const titledSingle = { type: "string", oneOf: [{ const: "s", title: "Small" }] }
const untitledMulti = { type: "array", items: { type: "string", enum: ["x", "y"] }, maxItems: 2 }
const titledMulti = { type: "array", items: { anyOf: [{ const: "ts", title: "TypeScript" }] } }
const legacyEnum = { type: "string", enum: ["free", "pro"], enumNames: ["Free", "Pro"] }
const requestedSchema = {
  type: "object",
  properties: { email: stringSchema, ratio: numberSchema, ok: booleanSchema, size: titledSingle, tags: untitledMulti },
  required: ["email"]
}

const createMessageParams = {
  messages: [
    { role: "user", content: plainText },
    { role: "assistant", content: [toolUse] },
    { role: "user", content: [toolResult, toolResultArray], _meta: { turn: 2 } }
  ],
  modelPreferences: { hints: [{ name: "claude" }], intelligencePriority: 0.9 },
  systemPrompt: "Be brief.",
  includeContext: "none",
  temperature: 0.2,
  maxTokens: 100,
  stopSequences: ["\n"],
  metadata: { provider: "x" },
  tools: [tool, minimalTool],
  toolChoice: { mode: "auto" }
}
const minimalCreateMessageParams = { messages: [{ role: "user", content: image }], maxTokens: 8 }
const createMessageResult = { role: "assistant", content: plainText, model: "claude", stopReason: "endTurn" }
const elicitForm = { mode: "form", message: "Your details?", requestedSchema }
const elicitFormNoMode = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }
const elicitUrl = { mode: "url", message: "Please sign in", url: "https://example.com/login?state=1" }
const elicitAccept = { action: "accept", content: { email: "ada@example.com", ratio: 2, ok: true, tags: ["x"] } }
const listRootsResult = { roots: [root, { uri: "file:///tmp" }] }

const inputRequests = {
  confirm: { method: "elicitation/create", params: elicitForm },
  login: { method: "elicitation/create", params: elicitUrl },
  draft: { method: "sampling/createMessage", params: minimalCreateMessageParams },
  roots: { method: "roots/list" },
  roots2: { method: "roots/list", params: { _meta: { "com.example/a": 1 } } }
}
const inputResponses = {
  confirm: elicitAccept,
  login: { action: "cancel" },
  draft: createMessageResult,
  roots: listRootsResult
}
const inputRequired = { resultType: "input_required", inputRequests, requestState: "eyJzdGVwIjoxfQ.sig", _meta: resultMeta }
const inputRequiredStateOnly = { resultType: "input_required", requestState: "still-waiting" }
const inputRequiredAsksOnly = { resultType: "input_required", inputRequests: { r: { method: "roots/list" } } }

const callToolParams = { _meta: fullMeta, name: "get_weather", arguments: { city: "Paris" } }
const callToolRetry = { _meta: meta, name: "get_weather", arguments: {}, inputResponses, requestState: "eyJzdGVwIjoxfQ.sig" }
const callToolResult = {
  ...complete,
  content: [text, image, audio, resourceLink, embedded],
  structuredContent: { temperature: 22 },
  isError: false,
  _meta: resultMeta
}
const callToolResultArray = { ...complete, content: [], structuredContent: ["any", "json"] }
const getPromptParams = { _meta: meta, name: "review", arguments: { code: "x" } }
const getPromptResult = {
  ...complete,
  description: "Review",
  messages: [{ role: "user", content: plainText }, { role: "assistant", content: embedded }]
}
const readParams = { _meta: meta, uri: "file:///a.txt" }
const readResult = { ...complete, ...cache, contents: [textContents, blobContents], _meta: resultMeta }
const completeParams = { _meta: meta, ref: { type: "ref/prompt", name: "review" }, argument: { name: "code", value: "de" } }
const completeResult = { ...complete, completion: { values: ["def", "del"], total: 2, hasMore: false } }
const filter = { toolsListChanged: true, promptsListChanged: false, resourcesListChanged: true, resourceSubscriptions: ["file:///a.txt"] }
const listenParams = { _meta: meta, notifications: filter }
const listenResult = { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 7, ...resultMeta } }
const discoverResult = {
  ...complete,
  ...cache,
  supportedVersions: [V, "2025-11-25"],
  capabilities: serverCapabilities,
  instructions: "Weather tools.",
  _meta: resultMeta
}
const subscribed = { "io.modelcontextprotocol/subscriptionId": "listen-1" }

const req = (id: string | number, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }
const notif = (method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }
const res = (id: string | number, result: unknown) => ({ jsonrpc: "2.0", id, result })
const err = (id: string | number | undefined, error: unknown) =>
  id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error }

/** Explicit samples; union definitions additionally get all samples of their members. */
const explicitSamples: Record<string, ReadonlyArray<unknown>> = {
  Annotations: [annotations, {}],
  AudioContent: [audio],
  BaseMetadata: [{ name: "x", title: "X" }],
  BlobResourceContents: [blobContents],
  BooleanSchema: [booleanSchema],
  CacheableResult: [{ ...complete, ...cache }, { ...complete, ...noCache, _meta: resultMeta }],
  CallToolRequest: [req(1, "tools/call", callToolParams), req("r", "tools/call", callToolRetry)],
  CallToolRequestParams: [callToolParams, callToolRetry, { _meta: meta, name: "noop" }],
  CallToolResult: [callToolResult, callToolResultArray, { ...complete, content: [plainText], isError: true }],
  CallToolResultResponse: [res(1, callToolResult), res(2, inputRequired), res(3, inputRequiredStateOnly)],
  CancelledNotification: [notif("notifications/cancelled", { requestId: 3, reason: "user" })],
  CancelledNotificationParams: [{ requestId: "r-1" }, { requestId: 2, _meta: subscribed }],
  ClientCapabilities: [clientCapabilities, {}, { elicitation: {} }],
  ClientNotification: [notif("notifications/cancelled", { requestId: 1 })],
  ClientRequest: [],
  ClientResult: [complete],
  CompleteRequest: [req(4, "completion/complete", completeParams)],
  CompleteRequestParams: [completeParams, {
    _meta: fullMeta,
    ref: { type: "ref/resource", uri: "file:///{path}" },
    argument: { name: "path", value: "sr" },
    context: { arguments: { root: "/" } }
  }],
  CompleteResult: [completeResult, { ...complete, completion: { values: [] } }],
  CompleteResultResponse: [res(4, completeResult)],
  ContentBlock: [],
  CreateMessageRequest: [{ method: "sampling/createMessage", params: createMessageParams }],
  CreateMessageRequestParams: [createMessageParams, minimalCreateMessageParams],
  CreateMessageResult: [createMessageResult, { role: "assistant", content: [toolUse], model: "m", _meta: {} }],
  Cursor: ["c"],
  DiscoverRequest: [req(0, "server/discover", { _meta: meta }), req("d", "server/discover", { _meta: fullMeta })],
  DiscoverResult: [discoverResult, { ...complete, ...noCache, supportedVersions: [V], capabilities: {} }],
  DiscoverResultResponse: [res(0, discoverResult)],
  ElicitRequest: [{ method: "elicitation/create", params: elicitForm }, { method: "elicitation/create", params: elicitUrl }],
  ElicitRequestFormParams: [elicitForm, elicitFormNoMode],
  ElicitRequestParams: [],
  ElicitRequestURLParams: [elicitUrl],
  ElicitResult: [elicitAccept, { action: "decline" }, { action: "cancel" }],
  EmbeddedResource: [embedded],
  EmptyResult: [complete, { resultType: "complete", _meta: resultMeta }],
  EnumSchema: [],
  Error: [{ code: -32602, message: "Resource not found", data: { uri: "file:///nope" } }],
  GetPromptRequest: [req(5, "prompts/get", getPromptParams)],
  GetPromptRequestParams: [getPromptParams, { _meta: meta, name: "p", inputResponses: {}, requestState: "s" }],
  GetPromptResult: [getPromptResult, { ...complete, messages: [] }],
  GetPromptResultResponse: [res(5, getPromptResult), res(6, inputRequiredAsksOnly)],
  HeaderMismatchError: [
    err(1, { code: -32020, message: "Mcp-Method does not match the body" }),
    err(undefined, { code: -32020, message: "Missing MCP-Protocol-Version", data: { header: "MCP-Protocol-Version" } })
  ],
  Icon: [icon],
  Icons: [{ icons: [icon] }],
  ImageContent: [image],
  Implementation: [implementation, serverInfo],
  InputRequest: [],
  InputRequests: [inputRequests, {}],
  InputRequiredResult: [inputRequired, inputRequiredStateOnly, inputRequiredAsksOnly],
  InputResponse: [],
  InputResponseRequestParams: [{ _meta: meta }, { _meta: meta, inputResponses, requestState: "x" }],
  InputResponses: [inputResponses, {}],
  InternalError: [{ code: -32603, message: "Internal error" }],
  InvalidParamsError: [{ code: -32602, message: "Invalid requestState", data: { reason: "expired" } }],
  InvalidRequestError: [{ code: -32600, message: "Invalid request" }],
  JSONArray: [[], [1, "a", true, { b: [2] }]],
  JSONObject: [{}, { a: [1, { b: "c" }], d: true }],
  JSONRPCErrorResponse: [err(1, { code: -32601, message: "Method not found" })],
  JSONRPCMessage: [],
  JSONRPCNotification: [notif("notifications/tools/list_changed")],
  JSONRPCRequest: [req(1, "tools/list", { _meta: meta })],
  JSONRPCResponse: [],
  JSONRPCResultResponse: [res(1, complete), res("x", callToolResult)],
  JSONValue: ["s", 1, true, [1], { a: "b" }],
  LegacyTitledEnumSchema: [legacyEnum],
  ListPromptsRequest: [req(6, "prompts/list", { _meta: meta }), req(7, "prompts/list", { _meta: meta, cursor: "c" })],
  ListPromptsResult: [{ ...complete, ...cache, prompts: [prompt, { name: "bare" }], nextCursor: "n" }],
  ListPromptsResultResponse: [res(6, { ...complete, ...noCache, prompts: [] })],
  ListResourceTemplatesRequest: [req(8, "resources/templates/list", { _meta: meta })],
  ListResourceTemplatesResult: [{ ...complete, ...cache, resourceTemplates: [resourceTemplate] }],
  ListResourceTemplatesResultResponse: [res(8, { ...complete, ...cache, resourceTemplates: [] })],
  ListResourcesRequest: [req(9, "resources/list", { _meta: fullMeta, cursor: "c" })],
  ListResourcesResult: [{ ...complete, ...cache, resources: [resource], _meta: resultMeta }],
  ListResourcesResultResponse: [res(9, { ...complete, ...noCache, resources: [] })],
  ListRootsRequest: [{ method: "roots/list" }, { method: "roots/list", params: {} }],
  ListRootsResult: [listRootsResult, { roots: [] }],
  ListToolsRequest: [req(10, "tools/list", { _meta: meta })],
  ListToolsResult: [{ ...complete, ...cache, tools: [tool, minimalTool], nextCursor: "2" }],
  ListToolsResultResponse: [res(10, { ...complete, ...cache, tools: [minimalTool] })],
  LoggingLevel: ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"],
  LoggingMessageNotification: [notif("notifications/message", { level: "info", data: { step: 1 } })],
  LoggingMessageNotificationParams: [{ level: "error", logger: "db", data: null, _meta: {} }],
  MetaObject: [{}, { "com.example/a": 1 }],
  MethodNotFoundError: [{ code: -32601, message: "Method not found: ping" }],
  MissingRequiredClientCapabilityError: [err(2, {
    code: -32021,
    message: "This tool needs elicitation",
    data: { requiredCapabilities: { elicitation: { form: {} } } }
  })],
  ModelHint: [{ name: "claude" }],
  ModelPreferences: [{ costPriority: 0.1 }],
  MultiSelectEnumSchema: [],
  Notification: [{ method: "notifications/progress", params: { progressToken: 1, progress: 1 } }],
  NotificationMetaObject: [{}, subscribed, { "io.modelcontextprotocol/subscriptionId": 3, other: [1] }],
  NotificationParams: [{}, { _meta: subscribed }],
  NumberSchema: [numberSchema, { type: "integer" }],
  PaginatedRequest: [req(11, "vendor/list", { _meta: meta, cursor: "c" })],
  PaginatedRequestParams: [{ _meta: meta }, { _meta: fullMeta, cursor: "c" }],
  PaginatedResult: [complete, { ...complete, nextCursor: "n" }],
  ParseError: [{ code: -32700, message: "Parse error" }],
  PrimitiveSchemaDefinition: [],
  ProgressNotification: [notif("notifications/progress", { progressToken: "p-1", progress: 1, total: 2, message: "half" })],
  ProgressNotificationParams: [{ progressToken: 1, progress: 0.5 }],
  ProgressToken: ["p", 1],
  Prompt: [prompt],
  PromptArgument: [{ name: "a" }],
  PromptListChangedNotification: [notif("notifications/prompts/list_changed", { _meta: subscribed })],
  PromptMessage: [{ role: "user", content: audio }],
  PromptReference: [{ type: "ref/prompt", name: "review" }],
  ReadResourceRequest: [req(12, "resources/read", readParams)],
  ReadResourceRequestParams: [readParams, { ...readParams, inputResponses: { consent: { action: "accept" } }, requestState: "s" }],
  ReadResourceResult: [readResult, { ...complete, ...noCache, contents: [] }],
  ReadResourceResultResponse: [res(12, readResult), res(13, inputRequired)],
  Request: [{ method: "tools/list", params: { _meta: meta } }],
  RequestId: [1, "a"],
  RequestMetaObject: [meta, fullMeta],
  RequestParams: [{ _meta: meta }],
  Resource: [resource],
  ResourceContents: [{ uri: "file:///x" }],
  ResourceLink: [resourceLink],
  ResourceListChangedNotification: [notif("notifications/resources/list_changed"), notif("notifications/resources/list_changed", {})],
  ResourceRequestParams: [readParams],
  ResourceTemplate: [resourceTemplate],
  ResourceTemplateReference: [{ type: "ref/resource", uri: "file:///{path}" }],
  ResourceUpdatedNotification: [notif("notifications/resources/updated", { uri: "file:///a.txt", _meta: subscribed })],
  ResourceUpdatedNotificationParams: [{ uri: "file:///a.txt" }],
  Result: [complete, { resultType: "input_required", requestState: "s" }, { resultType: "complete", vendor: { kept: true } }],
  ResultMetaObject: [{}, resultMeta],
  ResultType: ["complete", "input_required"],
  Role: ["user", "assistant"],
  Root: [root],
  SamplingMessage: createMessageParams.messages,
  SamplingMessageContentBlock: [],
  ServerCapabilities: [serverCapabilities, {}],
  ServerNotification: [],
  ServerResult: [],
  SingleSelectEnumSchema: [],
  StringSchema: [stringSchema],
  SubscriptionFilter: [filter, {}],
  SubscriptionsAcknowledgedNotification: [
    notif("notifications/subscriptions/acknowledged", { notifications: { toolsListChanged: true }, _meta: subscribed })
  ],
  SubscriptionsAcknowledgedNotificationParams: [{ notifications: {} }],
  SubscriptionsListenRequest: [req("listen-1", "subscriptions/listen", listenParams)],
  SubscriptionsListenRequestParams: [listenParams, { _meta: meta, notifications: {} }],
  SubscriptionsListenResult: [listenResult, { resultType: "complete", _meta: subscribed }],
  SubscriptionsListenResultMetaObject: [subscribed],
  SubscriptionsListenResultResponse: [res(7, listenResult)],
  TextContent: [text, plainText],
  TextResourceContents: [textContents],
  TitledMultiSelectEnumSchema: [titledMulti],
  TitledSingleSelectEnumSchema: [titledSingle],
  Tool: [tool, minimalTool],
  ToolAnnotations: [{ destructiveHint: false }],
  ToolChoice: [{ mode: "none" }],
  ToolListChangedNotification: [notif("notifications/tools/list_changed", { _meta: subscribed })],
  ToolResultContent: [toolResult, toolResultArray],
  ToolUseContent: [toolUse],
  UnsupportedProtocolVersionError: [err(3, {
    code: -32022,
    message: "Unsupported protocol version",
    data: { supported: [V], requested: "2027-01-01" }
  })],
  UntitledMultiSelectEnumSchema: [untitledMulti],
  UntitledSingleSelectEnumSchema: [untitledSingle]
}

const samplesOf = (name: string): ReadonlyArray<unknown> => [
  ...(explicitSamples[name] ?? []),
  ...unionMembers(name).flatMap(samplesOf)
]

/** A spec definition with descriptions dropped and the open-object spellings made one. */
const normalized = (node: unknown): string => {
  const open = new Set([
    `{"$ref":"#/$defs/MetaObject"}`,
    `{"$ref":"#/$defs/JSONObject"}`,
    `{"additionalProperties":{},"type":"object"}`,
    `{"additionalProperties":true,"properties":{},"type":"object"}`
  ])
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk)
    if (typeof value !== "object" || value === null) return value
    const entries = Object.entries(value).filter(([key, v]) => !(key === "description" && typeof v === "string"))
    const out = Object.fromEntries(entries.map(([key, v]) => [key, walk(v)]))
    return open.has(JSON.stringify(out)) ? { type: "object" } : out
  }
  return JSON.stringify(walk(node))
}

// -----------------------------------------------------------------------------
// Tests
// -----------------------------------------------------------------------------

describe("McpSchema2026", () => {
  describe("spec file", () => {
    it("has the 155 definitions of 2026-07-28", () => {
      expect(spec.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
      expect(defNames).toHaveLength(155)
    })

    it("exports a schema for every $defs name", () => {
      expect(defNames.filter((name) => !Schema.isSchema(exported[name]))).toEqual([])
    })

    it("has samples for every $defs name", () => {
      expect(defNames.filter((name) => samplesOf(name).length === 0)).toEqual([])
      expect(Object.keys(explicitSamples).filter((name) => !(name in spec.$defs))).toEqual([])
    })

    it("shares exactly the definitions whose spec did not change (and nothing that depends on a changed one)", () => {
      const shared = defNames.filter((name) => exported[name] === exported2025[name])
      for (const name of shared) {
        expect(normalized(spec.$defs[name]), `${name} changed in 2026`).toBe(normalized(spec2025.$defs[name]))
      }
      // every definition that is unchanged, and only refers to unchanged definitions, is shared
      const refs = (name: string): ReadonlyArray<string> =>
        [...JSON.stringify(spec.$defs[name]).matchAll(/"#\/\$defs\/(\w+)"/g)].map((m) => m[1])
      const unchanged = (name: string, seen = new Set<string>()): boolean => {
        if (seen.has(name)) return true
        seen.add(name)
        if (name === "MetaObject" || name === "JSONObject") return true
        return name in spec2025.$defs && normalized(spec.$defs[name]) === normalized(spec2025.$defs[name]) &&
          refs(name).every((ref) => unchanged(ref, seen))
      }
      const shareable = defNames.filter((name) => name !== "MetaObject" && name !== "JSONObject" && unchanged(name))
      expect(shared.filter((name) => name !== "MetaObject" && name !== "JSONObject").sort()).toEqual(shareable.sort())
      expect(shared.length).toBeGreaterThan(40)
    })
  })

  describe("valid samples: decode, round-trip and ajv", () => {
    for (const name of defNames) {
      it(name, () => {
        const schema = schemaOf(name)
        for (const sample of samplesOf(name)) {
          expect(ajvErrors(name, sample), JSON.stringify(sample)).toBeNull()
          const decoded = Schema.decodeUnknownResult(schema)(sample)
          if (Result.isFailure(decoded)) {
            throw new globalThis.Error(`${name} rejected ${JSON.stringify(sample)}:\n${String(decoded.failure)}`)
          }
          expect(Schema.is(schema)(sample)).toBe(true)
          const encoded = Schema.encodeSync(schema)(decoded.success)
          expect(encoded).toStrictEqual(sample)
          expect(ajvErrors(name, JSON.parse(JSON.stringify(encoded)))).toBeNull()
        }
      })
    }
  })

  describe("invalid values: rejected by both ajv and McpSchema2026", () => {
    const { "io.modelcontextprotocol/clientCapabilities": _caps, ...noCapabilities } = meta
    const { "io.modelcontextprotocol/protocolVersion": _version, ...noVersion } = meta
    const invalid: ReadonlyArray<readonly [name: string, value: unknown, why: string]> = [
      ["RequestMetaObject", noCapabilities, "clientCapabilities required"],
      ["RequestMetaObject", noVersion, "protocolVersion required"],
      ["RequestMetaObject", { ...meta, "io.modelcontextprotocol/protocolVersion": 2026 }, "version is a string"],
      ["RequestMetaObject", { ...meta, "io.modelcontextprotocol/logLevel": "verbose" }, "bad log level"],
      ["RequestMetaObject", { ...meta, "io.modelcontextprotocol/clientInfo": { name: "x" } }, "clientInfo needs a version"],
      ["RequestMetaObject", { ...meta, "io.modelcontextprotocol/clientCapabilities": { roots: true } }, "capabilities are objects"],
      ["RequestParams", {}, "the envelope is required"],
      ["CallToolRequestParams", { name: "x" }, "the envelope is required on tools/call"],
      ["CallToolRequestParams", { _meta: meta, name: "x", requestState: 1 }, "requestState is a string"],
      ["CallToolRequestParams", { _meta: meta, name: "x", inputResponses: { a: { action: "ok" } } }, "bad input response"],
      ["CallToolRequestParams", { _meta: meta, name: "x", inputResponses: { a: "yes" } }, "input responses are results"],
      ["PaginatedRequestParams", { cursor: "c" }, "the envelope is required on list requests"],
      ["ListToolsRequest", req(1, "tools/list"), "params required (they carry the envelope)"],
      ["DiscoverRequest", req(1, "server/discover"), "params required"],
      ["ResourceRequestParams", { _meta: meta }, "uri required"],
      ["CompleteRequestParams", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "b" } }, "envelope"],
      ["Result", {}, "resultType required"],
      ["EmptyResult", { _meta: {} }, "resultType required"],
      ["Result", { resultType: 1 }, "resultType is a string"],
      ["ResultMetaObject", { "io.modelcontextprotocol/serverInfo": { name: "s" } }, "serverInfo needs a version"],
      ["CallToolResult", { content: [] }, "resultType required"],
      ["CallToolResult", { ...complete }, "content required"],
      ["ListToolsResult", { ...complete, tools: [] }, "caching hints required"],
      ["ListToolsResult", { ...complete, ttlMs: 1, tools: [] }, "cacheScope required"],
      ["ListResourcesResult", { ...complete, ...cache, ttlMs: -1, resources: [] }, "ttlMs is not negative"],
      ["ListPromptsResult", { ...complete, ...cache, ttlMs: 1.5, prompts: [] }, "ttlMs is an integer"],
      ["ListResourceTemplatesResult", { ...complete, ...cache, cacheScope: "shared", resourceTemplates: [] }, "bad scope"],
      ["ReadResourceResult", { ...complete, contents: [] }, "caching hints required"],
      ["DiscoverResult", { ...complete, ...cache, capabilities: {} }, "supportedVersions required"],
      ["DiscoverResult", { ...complete, ...cache, supportedVersions: [V] }, "capabilities required"],
      ["DiscoverResult", { ...complete, supportedVersions: [V], capabilities: {} }, "caching hints required"],
      ["CompleteResult", { ...complete, completion: { values: Array.from({ length: 101 }, (_, i) => `${i}`) } }, "max 100"],
      ["InputRequiredResult", { inputRequests: {} }, "resultType required"],
      ["InputRequiredResult", { ...inputRequiredAsksOnly, requestState: 7 }, "requestState is a string"],
      ["InputRequests", { a: { method: "tools/call", params: { name: "x" } } }, "only sampling, elicitation and roots"],
      ["InputRequests", { a: { method: "ping" } }, "ping is gone"],
      ["InputRequest", { method: "elicitation/create", params: { mode: "url", message: "m" } }, "url required"],
      ["InputRequest", { method: "sampling/createMessage", params: { messages: [] } }, "maxTokens required"],
      ["InputResponse", { anything: 1 }, "not a sampling, roots or elicitation result"],
      ["ElicitRequestURLParams", { mode: "url", url: "https://example.com" }, "message required"],
      ["ElicitRequestFormParams", { message: "m", requestedSchema: { type: "object" } }, "properties required"],
      ["ElicitResult", { action: "ok" }, "bad action"],
      ["ListRootsResult", {}, "roots required"],
      ["CreateMessageResult", { role: "assistant", content: plainText }, "model required"],
      ["CreateMessageRequest", { params: minimalCreateMessageParams }, "method required"],
      ["Tool", { name: "x", inputSchema: { type: "array" } }, "input schema is an object schema"],
      ["Tool", { name: "x", inputSchema: {} }, "input schema has type"],
      ["Tool", { name: "x", inputSchema: { type: "object" }, outputSchema: true }, "output schema is an object"],
      ["Tool", { inputSchema: { type: "object" } }, "name required"],
      ["ToolResultContent", { type: "tool_result", content: [] }, "toolUseId required"],
      ["SubscriptionFilter", { toolsListChanged: "yes" }, "flags are booleans"],
      ["SubscriptionFilter", { resourceSubscriptions: "file:///a" }, "URIs are an array"],
      ["SubscriptionsListenRequestParams", { _meta: meta }, "notifications required"],
      ["SubscriptionsListenResult", complete, "_meta with subscriptionId required"],
      ["SubscriptionsListenResultMetaObject", {}, "subscriptionId required"],
      ["SubscriptionsAcknowledgedNotificationParams", {}, "notifications required"],
      ["NotificationMetaObject", { "io.modelcontextprotocol/subscriptionId": 1.5 }, "subscriptionId is a RequestId"],
      ["CancelledNotificationParams", {}, "requestId required"],
      ["ClientNotification", notif("notifications/initialized"), "initialized is gone"],
      ["ClientNotification", notif("notifications/progress", { progressToken: 1, progress: 1 }), "clients send only cancelled"],
      ["ClientRequest", req(1, "initialize", { protocolVersion: V, capabilities: {}, clientInfo: serverInfo }), "gone"],
      ["ClientRequest", req(1, "ping", { _meta: meta }), "ping is gone"],
      ["ClientRequest", req(1, "logging/setLevel", { _meta: meta, level: "info" }), "setLevel is gone"],
      ["ClientRequest", req(1, "resources/subscribe", { _meta: meta, uri: "file:///a" }), "subscribe is gone"],
      ["ServerNotification", notif("notifications/elicitation/complete", { elicitationId: "e" }), "gone"],
      ["ServerNotification", notif("notifications/roots/list_changed"), "client-only and gone"],
      ["ClientCapabilities", { extensions: { x: true } }, "extension settings are objects"],
      ["ServerCapabilities", { extensions: [] }, "extensions is an object"],
      ["ServerCapabilities", { tools: { listChanged: "yes" } }, "listChanged is boolean"],
      ["HeaderMismatchError", err(1, { code: -32600, message: "m" }), "code must be -32020"],
      ["MissingRequiredClientCapabilityError", err(1, { code: -32021, message: "m" }), "data required"],
      ["MissingRequiredClientCapabilityError", err(1, { code: -32021, message: "m", data: {} }), "requiredCapabilities"],
      ["UnsupportedProtocolVersionError", err(1, { code: -32022, message: "m", data: { supported: [V] } }), "requested"],
      ["UnsupportedProtocolVersionError", err(1, { code: -32022, message: "m", data: { requested: "x" } }), "supported"],
      ["UnsupportedProtocolVersionError", err(1, { code: -32022, message: "m" }), "data required"],
      ["ParseError", { code: -32600, message: "m" }, "code must be -32700"],
      ["MethodNotFoundError", { code: -32601 }, "message required"],
      ["InvalidParamsError", { code: -32603, message: "m" }, "code must be -32602"],
      ["JSONRPCResultResponse", res(1, {}), "results carry resultType"],
      ["CallToolResultResponse", res(1, { content: [] }), "result needs resultType"],
      ["JSONObject", [], "not an object"],
      ["JSONArray", {}, "not an array"]
    ]

    for (const [name, value, why] of invalid) {
      it(`${name}: ${why}`, () => {
        expect(ajvErrors(name, value), "the spec should reject it").not.toBeNull()
        const schema = schemaOf(name)
        expect(Result.isFailure(Schema.decodeUnknownResult(schema)(value)), "McpSchema2026 should reject it").toBe(true)
        expect(Schema.is(schema)(value)).toBe(false)
      })
    }
  })

  describe("method tables", () => {
    /** `method` const -> definition name, for a spec union (or a single message definition). */
    const methodsOf = (union: string): ReadonlyMap<string, string> => {
      const members = unionMembers(union).length > 0 ? unionMembers(union) : [union]
      return new Map(members.map((member) => {
        const method = spec.$defs[member].properties?.method?.const
        if (typeof method !== "string") throw new globalThis.Error(`${member} has no method const`)
        return [method, member]
      }))
    }

    const tables = {
      ClientRequest: McpSchema2026.ClientRequests,
      InputRequest: McpSchema2026.InputRequestMethods,
      ClientNotification: McpSchema2026.ClientNotifications,
      ServerNotification: McpSchema2026.ServerNotifications
    } as const satisfies Record<string, McpSchema.NotificationMethodTable>

    /** The schemas a spec node stands for: a `$ref`, or the `$ref`s of an `anyOf`. */
    const schemasOf = (node: JsonSchemaNode): ReadonlyArray<unknown> =>
      node.anyOf !== undefined ? node.anyOf.map((n) => exported[refName(n)]) : [exported[refName(node)]]

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
            expect(Result.isSuccess(Schema.decodeUnknownResult(params)(undefined))).toBe(!paramsRequired)
            if (paramsDef.$ref !== undefined && paramsRequired) expect(params).toBe(exported[refName(paramsDef)])
            for (const sample of samplesOf(member) as ReadonlyArray<{ readonly params?: unknown }>) {
              const decoded = Schema.decodeUnknownSync(params)(sample.params)
              expect(Schema.encodeSync(params)(decoded)).toStrictEqual(sample.params)
            }
            if (!("result" in entries[method])) return
            const result = (table as McpSchema.RequestMethodTable)[method].result
            if (union === "InputRequest") {
              // the answer to an input request is the matching InputResponse member
              const resultName = member.replace(/Request$/, "Result")
              expect(unionMembers("InputResponse")).toContain(resultName)
              expect(result).toBe(exported[resultName])
              return
            }
            // client requests: the wire result is that of the spec's `<Name>ResultResponse`
            const expected = schemasOf(spec.$defs[member.replace(/Request$/, "ResultResponse")].properties!.result)
            if (expected.length === 1) expect(result).toBe(expected[0])
            else expect((result.ast as AST.Union).types).toEqual(expected.map((s) => (s as Schema.Schema<unknown>).ast))
          })
        }
      })
    }

    it("INPUT_REQUIRED_METHODS are the methods whose responses may be an InputRequiredResult", () => {
      const expected = [...methodsOf("ClientRequest")]
        .filter(([, member]) =>
          JSON.stringify(spec.$defs[member.replace(/Request$/, "ResultResponse")]).includes("InputRequiredResult")
        )
        .map(([method]) => method)
      expect([...McpSchema2026.INPUT_REQUIRED_METHODS].sort()).toEqual(expected.sort())
      for (const method of McpSchema2026.INPUT_REQUIRED_METHODS) {
        const fields = Object.keys(McpSchema2026.ClientRequests[method].params.fields)
        expect(fields).toEqual(expect.arrayContaining(["inputResponses", "requestState"]))
      }
    })

    it("removed methods are the 2025 methods missing from the 2026 unions", () => {
      const methods2025 = (union: string) =>
        (spec2025.$defs[union].anyOf ?? []).map((n) => spec2025.$defs[refName(n)].properties!.method!.const as string)
      const now = new Set([
        ...methodsOf("ClientRequest").keys(),
        ...methodsOf("ClientNotification").keys(),
        ...methodsOf("ServerNotification").keys()
      ])
      expect([...McpSchema2026.REMOVED_CLIENT_REQUEST_METHODS].sort()).toEqual(
        methods2025("ClientRequest").filter((m) => !now.has(m)).sort()
      )
      expect([...McpSchema2026.REMOVED_NOTIFICATION_METHODS].sort()).toEqual(
        [...new Set([...methods2025("ClientNotification"), ...methods2025("ServerNotification")])]
          .filter((m) => !now.has(m)).sort()
      )
      expect(McpSchema2026.isClientRequestMethod("ping")).toBe(false)
      expect(McpSchema2026.isClientRequestMethod("server/discover")).toBe(true)
      expect(McpSchema2026.isClientRequestMethod("toString")).toBe(false)
      expect(McpSchema2026.isInputRequestMethod("roots/list")).toBe(true)
      expect(McpSchema2026.isClientNotificationMethod("notifications/progress")).toBe(false)
      expect(McpSchema2026.isServerNotificationMethod("notifications/subscriptions/acknowledged")).toBe(true)
      expect(McpSchema2026.isInputRequiredMethod("tools/call")).toBe(true)
      expect(McpSchema2026.isInputRequiredMethod("tools/list")).toBe(false)
    })

    it("helper types are precise", () => {
      expectTypeOf<McpSchema2026.ClientRequestResult<"tools/call">>().toEqualTypeOf<
        McpSchema2026.InputRequiredResult | McpSchema2026.CallToolResult
      >()
      expectTypeOf<McpSchema2026.ClientRequestResult<"tools/list">>().toEqualTypeOf<McpSchema2026.ListToolsResult>()
      expectTypeOf<McpSchema2026.ClientRequestParams<"tools/list">>().toEqualTypeOf<
        McpSchema2026.PaginatedRequestParams
      >()
      expectTypeOf<McpSchema2026.RequestMetaObject["io.modelcontextprotocol/protocolVersion"]>().toEqualTypeOf<string>()
      // Type == Encoded
      expectTypeOf<Schema.Codec.Encoded<typeof McpSchema2026.Tool>>().toEqualTypeOf<McpSchema2026.Tool>()
      expectTypeOf<Schema.Codec.Encoded<typeof McpSchema2026.RequestMetaObject>>().toEqualTypeOf<
        McpSchema2026.RequestMetaObject
      >()
      expect(true).toBe(true)
    })
  })

  describe("design rules", () => {
    const nonPlainNodes = (ast: AST.AST, seen = new Set<AST.AST>()): ReadonlyArray<string> => {
      if (seen.has(ast)) return []
      seen.add(ast)
      // on Effect 4 a transformation is an `encoding` on the node, and a filter is a `check` (no node of its own)
      if (ast.encoding !== undefined) return ["Transformation"]
      switch (ast._tag) {
        case "Declaration":
        case "Suspend":
          return [ast._tag]
        case "Union":
          return ast.types.flatMap((type) => nonPlainNodes(type, seen))
        case "Arrays":
          return [...ast.elements, ...ast.rest].flatMap((t) => nonPlainNodes(t, seen))
        case "Objects":
          return [...ast.propertySignatures.map((ps) => ps.type), ...ast.indexSignatures.map((is) => is.type)]
            .flatMap((type) => nonPlainNodes(type, seen))
        default:
          return []
      }
    }

    it("every exported schema is plain (no transformations, classes or declarations)", () => {
      const offenders = Object.entries(exported)
        .filter(([, value]) => Schema.isSchema(value))
        .flatMap(([name, value]) => nonPlainNodes((value as Schema.Schema<unknown>).ast).map((tag) => `${name}: ${tag}`))
      expect(offenders).toEqual([])
    })

    it("versions, _meta keys and error codes match the spec", () => {
      expect(McpSchema2026.PROTOCOL_VERSION).toBe("2026-07-28")
      const requestMeta = Object.keys(spec.$defs.RequestMetaObject.properties!)
      expect(requestMeta).toEqual(expect.arrayContaining([
        McpSchema2026.PROTOCOL_VERSION_META_KEY,
        McpSchema2026.CLIENT_CAPABILITIES_META_KEY,
        McpSchema2026.CLIENT_INFO_META_KEY,
        McpSchema2026.LOG_LEVEL_META_KEY
      ]))
      expect(spec.$defs.RequestMetaObject.required).toEqual([
        McpSchema2026.CLIENT_CAPABILITIES_META_KEY,
        McpSchema2026.PROTOCOL_VERSION_META_KEY
      ])
      expect(Object.keys(spec.$defs.ResultMetaObject.properties!)).toEqual([McpSchema2026.SERVER_INFO_META_KEY])
      expect(Object.keys(spec.$defs.NotificationMetaObject.properties!)).toEqual([McpSchema2026.SUBSCRIPTION_ID_META_KEY])
      const code = (name: string) =>
        (spec.$defs[name].properties!.error as unknown as {
          allOf: ReadonlyArray<{ properties?: { code?: { const?: number } } }>
        }).allOf[1].properties?.code?.const
      expect(code("HeaderMismatchError")).toBe(McpSchema2026.HEADER_MISMATCH)
      expect(code("MissingRequiredClientCapabilityError")).toBe(McpSchema2026.MISSING_REQUIRED_CLIENT_CAPABILITY)
      expect(code("UnsupportedProtocolVersionError")).toBe(McpSchema2026.UNSUPPORTED_PROTOCOL_VERSION)
    })

    it("resultType discriminates: complete results want \"complete\", InputRequiredResult wants \"input_required\" (stricter than the JSON Schema)", () => {
      const confused = { resultType: "input_required", content: [] }
      expect(ajvErrors("CallToolResult", confused)).toBeNull()
      expect(Schema.is(McpSchema2026.CallToolResult)(confused)).toBe(false)
      expect(ajvErrors("InputRequiredResult", { resultType: "complete", requestState: "s" })).toBeNull()
      expect(Schema.is(McpSchema2026.InputRequiredResult)({ resultType: "complete", requestState: "s" })).toBe(false)
      // an empty InputRequiredResult gives the client nothing to do: the spec text forbids it
      expect(ajvErrors("InputRequiredResult", { resultType: "input_required" })).toBeNull()
      expect(Schema.is(McpSchema2026.InputRequiredResult)({ resultType: "input_required" })).toBe(false)
      // so the union answers of tools/call decode to exactly one side, keeping every field
      const decode = Schema.decodeUnknownSync(McpSchema2026.CallToolOutcome)
      expect(decode(callToolResult)).toStrictEqual(callToolResult)
      expect(decode(inputRequired)).toStrictEqual(inputRequired)
    })

    it("resultTypeOf reads a missing resultType as complete", () => {
      expect(McpSchema2026.resultTypeOf({})).toBe("complete")
      expect(McpSchema2026.resultTypeOf(inputRequired)).toBe("input_required")
      expect(McpSchema2026.resultTypeOf({ resultType: 3 })).toBe("complete")
    })

    it("JSONValue also admits null and fractional numbers (the generated JSON Schema drops them)", () => {
      for (const value of [null, 1.5, { a: null }]) {
        expect(ajvErrors("JSONValue", value)).not.toBeNull()
        expect(Schema.is(McpSchema2026.JSONValue)(value)).toBe(true)
      }
      expect(Schema.is(McpSchema2026.JSONValue)(undefined)).toBe(false)
    })

    it("open objects keep unknown keys; the envelope keeps vendor keys", () => {
      const decode = <A>(schema: Schema.Codec<A>, value: unknown) => Schema.decodeUnknownSync(schema)(value)
      expect(decode(McpSchema2026.RequestMetaObject, fullMeta)).toStrictEqual(fullMeta)
      expect(decode(McpSchema2026.Tool, tool)).toStrictEqual(tool)
      const error = explicitSamples.UnsupportedProtocolVersionError[0] as { error: { data: object } }
      const withExtra = { ...error, error: { ...error.error, data: { ...error.error.data, hint: "retry" } } }
      expect(decode(McpSchema2026.UnsupportedProtocolVersionError, withExtra)).toStrictEqual(withExtra)
    })

    it("one engine, both eras: 2025-typed handlers accept 2026 params and their results lift to 2026 results", () => {
      type Complete<A> = A & { readonly resultType: "complete" }
      // what handlers get: 2026 params (envelope, inputResponses, requestState) fit the 2025 params types
      expectTypeOf<McpSchema2026.CallToolRequestParams>().toMatchTypeOf<McpSchema.CallToolRequestParams>()
      expectTypeOf<McpSchema2026.GetPromptRequestParams>().toMatchTypeOf<McpSchema.GetPromptRequestParams>()
      expectTypeOf<McpSchema2026.ReadResourceRequestParams>().toMatchTypeOf<McpSchema.ReadResourceRequestParams>()
      expectTypeOf<McpSchema2026.CompleteRequestParams>().toMatchTypeOf<McpSchema.CompleteRequestParams>()
      // what handlers return: a 2025 result plus resultType is a 2026 result
      expectTypeOf<Complete<McpSchema.CallToolResult>>().toMatchTypeOf<McpSchema2026.CallToolResult>()
      expectTypeOf<Complete<McpSchema.GetPromptResult>>().toMatchTypeOf<McpSchema2026.GetPromptResult>()
      expectTypeOf<Complete<McpSchema.CompleteResult>>().toMatchTypeOf<McpSchema2026.CompleteResult>()
      expectTypeOf<McpSchema.Tool>().toMatchTypeOf<McpSchema2026.Tool>()
      // reverse calls: a 2025 form elicitation is a 2026 input request, and the answers fit ctx's 2025 types
      // (encoding it with the 2026 schema drops `task` and `_meta`)
      expectTypeOf<McpSchema.ElicitRequestFormParams>().toMatchTypeOf<McpSchema2026.ElicitRequestFormParams>()
      expectTypeOf<McpSchema.CreateMessageRequestParams>().toMatchTypeOf<McpSchema2026.CreateMessageRequestParams>()
      expectTypeOf<McpSchema2026.ElicitResult>().toMatchTypeOf<McpSchema.ElicitResult>()
      expectTypeOf<McpSchema2026.ListRootsResult>().toMatchTypeOf<McpSchema.ListRootsResult>()
      // the one gap: 2026 sampling tool results may carry non-object structuredContent
      expectTypeOf<McpSchema2026.CreateMessageResult>().not.toMatchTypeOf<McpSchema.CreateMessageResult>()
      expect(true).toBe(true)
    })

    it("a 2025 session's results are not 2026 results (and vice versa for removed fields)", () => {
      expect(Schema.is(McpSchema2026.CallToolResult)({ content: [] })).toBe(false)
      expect(Schema.is(McpSchema.CallToolResult)({ ...complete, content: [] })).toBe(true)
      // the 2025 schemas are untouched: a task-augmented call is still a 2025 CallToolRequestParams
      expect(Schema.is(McpSchema.CallToolRequestParams)({ name: "x", task: { ttl: 1 } })).toBe(true)
      expect(Schema.decodeUnknownSync(McpSchema2026.CallToolRequestParams)({ _meta: meta, name: "x", task: { ttl: 1 } }))
        .toStrictEqual({ _meta: meta, name: "x" })
      // a 2025 reverse call encoded as a 2026 input request loses the fields the era dropped
      const encode = Schema.encodeSync(McpSchema2026.ElicitRequestFormParams)
      expect(encode({ ...elicitForm, task: { ttl: 1 }, _meta: { progressToken: 1 } } as McpSchema2026.ElicitRequestFormParams))
        .toStrictEqual(elicitForm)
    })
  })
})

describe("ProtocolEra", () => {
  it("tells the era of every known version, and of no other", () => {
    for (const version of McpSchema.SUPPORTED_PROTOCOL_VERSIONS) expect(ProtocolEra.eraOf(version)).toBe("2025")
    expect(ProtocolEra.eraOf("2026-07-28")).toBe("2026")
    for (const version of ["2027-01-01", "", "2025-11-25 ", "DRAFT-2026-v1"]) {
      expect(ProtocolEra.eraOf(version)).toBeUndefined()
      expect(ProtocolEra.isKnownVersion(version)).toBe(false)
    }
    expect(ProtocolEra.ALL_PROTOCOL_VERSIONS).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
    expect(ProtocolEra.ERA_2025_VERSIONS[0]).toBe(McpSchema.LATEST_PROTOCOL_VERSION)
  })

  it("chooses the era of a request from its method and envelope", () => {
    expect(ProtocolEra.requestEra("initialize", { protocolVersion: "2026-07-28" })).toBe("2025")
    expect(ProtocolEra.requestEra("server/discover", undefined)).toBe("2026")
    expect(ProtocolEra.requestEra("tools/call", { _meta: meta, name: "x" })).toBe("2026")
    // an unknown version in the envelope is still the 2026 path (which answers -32022)
    expect(ProtocolEra.requestEra("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" } }))
      .toBe("2026")
    for (const params of [undefined, null, {}, { _meta: null }, { _meta: { progressToken: 1 } }, [], "x"]) {
      expect(ProtocolEra.requestEra("tools/list", params)).toBeUndefined()
    }
    // a malformed claim is still a claim: the 2026 path answers it -32602, never the 2025 path
    expect(ProtocolEra.requestEra("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": 2026 } }))
      .toBe("2026")
    expect(ProtocolEra.hasEnvelopeClaim({ _meta: { "io.modelcontextprotocol/protocolVersion": 2026 } })).toBe(true)
    // an initialize with an envelope is a 2026 request (where the method does not exist)
    expect(ProtocolEra.requestEra("initialize", { _meta: meta, protocolVersion: "2025-11-25" })).toBe("2026")
    expect(ProtocolEra.envelopeVersion({ _meta: fullMeta })).toBe(V)
  })
})

describe("the engine's part of the 2026 schemas (internal/schema2026/core)", () => {
  it("is McpSchema2026's own values, and knows the same client request methods", () => {
    // the server engine loads only this module: what it validates must be what McpSchema2026 exports
    for (const name of ["RequestMetaObject", "SubscriptionsListenRequestParams", "InputRequest", "InputRequestMethods", "ClientCapabilities", "CacheScope", "Tool", "SamplingMessage"] as const) {
      expect(McpSchema2026[name]).toBe(Schema2026Core[name])
    }
    expect(McpSchema2026.INPUT_REQUIRED_METHODS).toBe(Schema2026Core.INPUT_REQUIRED_METHODS)
    expect(McpSchema2026.REMOVED_CLIENT_REQUEST_METHODS).toBe(Schema2026Core.REMOVED_CLIENT_REQUEST_METHODS)
    expect([...Schema2026Core.CLIENT_REQUEST_METHODS].sort()).toEqual(Object.keys(McpSchema2026.ClientRequests).sort())
    for (const method of ["server/discover", "tools/call", "ping", "initialize", "toString", "__proto__"]) {
      expect(Schema2026Core.isClientRequestMethod(method)).toBe(McpSchema2026.isClientRequestMethod(method))
    }
  })
})
