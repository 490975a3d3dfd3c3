/**
 * The conformance fixture, checked the way the official suite checks it:
 * our `McpClient` over the in-memory transport, answering sampling and
 * elicitation like the suite's client does (FIXTURES.md §3.14/3.15/3.17/3.20),
 * and the official SDK client over stdio against the real program.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import type * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Transport from "@effect-mcp/mcp/Transport"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type ElicitRequest,
  type CreateMessageRequest
} from "@modelcontextprotocol/sdk/types.js"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"
import {
  ELICITATION_SCHEMA,
  FixtureLive,
  JSON_SCHEMA_2020_12_INPUT,
  MAX_BLOB_BYTES,
  PNG_BASE64,
  RECONNECTION_TEXT,
  SEP1034_SCHEMA,
  SEP1330_SCHEMA,
  WAV_BASE64
} from "../src/Fixture.js"

// ----------------------------------------------------------------------------
// what the suite's client answers
// ----------------------------------------------------------------------------

const SAMPLING_REPLY = {
  role: "assistant",
  content: { type: "text", text: "This is a test response from the client" },
  model: "test-model",
  stopReason: "endTurn"
} as const

const ELICITATION_REPLY = { action: "accept", content: { username: "testuser", email: "test@example.com" } } as const
const SEP1034_REPLY = {
  action: "accept",
  content: { name: "Jane Smith", age: 25, score: 88, status: "inactive", verified: false }
} as const
const SEP1330_REPLY = {
  action: "accept",
  content: {
    untitledSingle: "option1",
    titledSingle: "value1",
    legacyEnum: "opt1",
    untitledMulti: ["option1", "option2"],
    titledMulti: ["value1", "value2"]
  }
} as const

/** The suite answers every elicitation with the canned reply of the scenario; we pick it by the form's fields. */
const elicitationReply = (params: { readonly requestedSchema: { readonly properties?: object } }) => {
  const keys = Object.keys(params.requestedSchema.properties ?? {})
  if (keys.includes("username")) return ELICITATION_REPLY
  if (keys.includes("verified")) return SEP1034_REPLY
  if (keys.includes("untitledSingle")) return SEP1330_REPLY
  return { action: "decline" } as const
}

// ----------------------------------------------------------------------------
// harness: our client against the fixture, over the in-memory transport
// ----------------------------------------------------------------------------

interface Timed {
  readonly at: number
  readonly from: "client" | "server"
  // `any`: the assertions read deep into raw wire messages
  readonly message: { readonly [key: string]: any }
}

interface Harness {
  readonly client: McpClient.McpClientShape
  /** Every message that crossed, parsed, with the time it crossed. */
  readonly wire: ReadonlyArray<Timed>
  /** The params of each server→client request, as our client's handlers received them. */
  readonly sampled: ReadonlyArray<McpSchema.CreateMessageRequestParams>
  readonly elicited: ReadonlyArray<McpSchema.ElicitRequestFormParams>
}

const connect: Effect.Effect<Harness, unknown, Scope.Scope> = Effect.gen(function*() {
  const wire: Array<Timed> = []
  const pair = yield* Transport.makeMemoryPair({
    record: false,
    onWire: ({ from, json }) => wire.push({ at: performance.now(), from, message: JSON.parse(json) })
  })
  const server = yield* Layer.build(FixtureLive)
  yield* McpServer.run.pipe(
    Effect.provide(server),
    Effect.provideService(Transport.Transport, pair.server),
    Effect.forkScoped
  )
  const sampled: Array<McpSchema.CreateMessageRequestParams> = []
  const elicited: Array<McpSchema.ElicitRequestFormParams> = []
  const client = yield* McpClient.make({
    era: "2025", name: "conformance-test-client",
    version: "1.0.0",
    sampling: (params) =>
      Effect.sync(() => {
        sampled.push(params)
        return SAMPLING_REPLY
      }),
    elicitation: {
      form: (params) =>
        Effect.sync(() => {
          elicited.push(params)
          return elicitationReply(params)
        })
    }
  }).pipe(Effect.provideService(Transport.Transport, pair.client))
  return { client, wire, sampled, elicited }
})

const fromServer = (h: Harness, method: string) =>
  h.wire.filter((w) => w.from === "server" && w.message.method === method)

const textOf = (result: McpClient.CallToolResult) => {
  assert.strictEqual(result.content.length, 1)
  const block = result.content[0]!
  assert.strictEqual(block.type, "text")
  return (block as McpSchema.TextContent).text
}

const NO_ARGS: unknown = { type: "object", properties: {} }

// ----------------------------------------------------------------------------
// tools
// ----------------------------------------------------------------------------

const EXPECTED_TOOLS = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_tool_with_logging",
  "test_tool_with_progress",
  "test_error_handling",
  "test_reconnection",
  "test_sampling",
  "test_elicitation",
  "test_elicitation_sep1034_defaults",
  "test_elicitation_sep1330_enums",
  "json_schema_2020_12_tool",
  "echo",
  "blob",
  "slow",
  // the 2026-07-28 multi-round-trip scenarios (FixtureMrtr)
  "test_input_required_result_elicitation",
  "test_input_required_result_sampling",
  "test_input_required_result_list_roots",
  "test_input_required_result_request_state",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_multi_round",
  "test_input_required_result_tampered_state",
  "test_input_required_result_capabilities",
  // Fixture2026
  "test_missing_capability",
  "test_streaming_elicitation",
  "test_logging_tool",
  "test_trigger_tool_change",
  "test_trigger_prompt_change",
  "test_x_mcp_header",
  // tasks (Tasks.ts)
  "slow_compute",
  "greet",
  "failing_job",
  "protocol_error_job",
  "confirm_delete",
  "multi_input",
  "test_tool_with_task"
]

describe("Fixture: server", () => {
  it.live("initializes as the conformance test server with every capability", () =>
    Effect.gen(function*() {
      const h = yield* connect
      assert.deepStrictEqual(h.client.serverInfo, { name: "mcp-conformance-test-server", version: "1.0.0" })
      assert.strictEqual(h.client.protocolVersion, "2025-11-25")
      assert.deepStrictEqual(h.client.serverCapabilities as unknown, {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
        extensions: { "io.modelcontextprotocol/skills": { directoryRead: true }, "io.modelcontextprotocol/tasks": {} },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } }
      })
      // ping, logging/setLevel, subscribe and unsubscribe answer exactly {}
      for (const [method, params] of [
        ["ping", undefined],
        ["logging/setLevel", { level: "info" }],
        ["resources/subscribe", { uri: "test://watched-resource" }],
        ["resources/unsubscribe", { uri: "test://watched-resource" }]
      ] as const) {
        const result = yield* h.client.request(method, params)
        assert.deepStrictEqual(result, {}, method)
      }
    }))
})

describe("Fixture: tools", () => {
  it.live("lists every tool on one page, each with a description and an object inputSchema", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const raw = (yield* h.client.request("tools/list")) as { tools: ReadonlyArray<McpSchema.Tool>; nextCursor?: string }
      assert.isUndefined(raw.nextCursor)
      const tools = raw.tools
      assert.deepStrictEqual(tools.map((t) => t.name), EXPECTED_TOOLS)
      for (const tool of tools) {
        assert.isTrue(typeof tool.description === "string" && tool.description.length > 0, tool.name)
        assert.strictEqual(tool.inputSchema.type, "object", tool.name)
        // the official client compiles outputSchema with a draft-07 Ajv: never publish one with $schema
        assert.isFalse(JSON.stringify(tool.outputSchema ?? {}).includes("$schema"), tool.name)
        assert.isUndefined(tool.outputSchema, tool.name)
      }
      const byName = new Map(tools.map((t) => [t.name, t]))
      for (
        const name of [
          "test_simple_text",
          "test_image_content",
          "test_audio_content",
          "test_embedded_resource",
          "test_multiple_content_types",
          "test_tool_with_logging",
          "test_tool_with_progress",
          "test_error_handling",
          "test_reconnection",
          "test_elicitation_sep1034_defaults",
          "test_elicitation_sep1330_enums"
        ]
      ) {
        assert.deepStrictEqual(byName.get(name)!.inputSchema, NO_ARGS, name)
      }
      // the raw 2020-12 schema goes out unchanged
      assert.deepStrictEqual(byName.get("json_schema_2020_12_tool")!.inputSchema, JSON_SCHEMA_2020_12_INPUT)
      assert.strictEqual(byName.get("json_schema_2020_12_tool")!.description, "Tool with JSON Schema 2020-12 features")
      const published = (name: string) => byName.get(name)!.inputSchema
      assert.deepStrictEqual(published("test_sampling"), {
        type: "object",
        properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } },
        required: ["prompt"]
      })
      assert.deepStrictEqual(published("test_elicitation"), {
        type: "object",
        properties: { message: { type: "string", description: "The message to show the user" } },
        required: ["message"]
      })
      assert.deepStrictEqual(published("echo"), {
        type: "object",
        properties: { text: { type: "string", description: "The text to echo" } },
        required: ["text"]
      })
      assert.deepStrictEqual(published("blob"), {
        type: "object",
        properties: {
          bytes: { type: "integer", minimum: 0, maximum: MAX_BLOB_BYTES, description: "How many bytes of text to return" }
        },
        required: ["bytes"]
      })
      assert.deepStrictEqual(published("slow"), {
        type: "object",
        properties: { ms: { type: "integer", minimum: 0, description: "How long to wait, in milliseconds" } },
        required: ["ms"]
      })
    }))

  it.live("test_simple_text: accepts a missing arguments key", () =>
    Effect.gen(function*() {
      const h = yield* connect
      // exactly what the suite sends: no `arguments` at all
      const raw = yield* h.client.request("tools/call", { name: "test_simple_text" })
      assert.deepStrictEqual(raw, { content: [{ type: "text", text: "This is a simple text response for testing." }] })
      const call = h.wire.find((w) => w.from === "client" && w.message.method === "tools/call")!
      assert.isFalse("arguments" in call.message.params)
      // and with empty arguments
      const typed = yield* h.client.callTool("test_simple_text", {})
      assert.strictEqual(textOf(typed), "This is a simple text response for testing.")
    }))

  it.live("content tools: image, audio, embedded resource, mixed content", () =>
    Effect.gen(function*() {
      const h = yield* connect
      assert.deepStrictEqual(yield* h.client.callTool("test_image_content", {}), {
        content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }]
      })
      assert.deepStrictEqual(yield* h.client.callTool("test_audio_content", {}), {
        content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }]
      })
      assert.deepStrictEqual(yield* h.client.callTool("test_embedded_resource", {}), {
        content: [{
          type: "resource",
          resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." }
        }]
      })
      assert.deepStrictEqual(yield* h.client.callTool("test_multiple_content_types", {}), {
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: PNG_BASE64, mimeType: "image/png" },
          {
            type: "resource",
            resource: {
              uri: "test://mixed-content-resource",
              mimeType: "application/json",
              text: "{\"test\":\"data\",\"value\":123}"
            }
          }
        ]
      })
      // valid base64 that decodes to a PNG and a RIFF/WAVE file
      assert.strictEqual(Buffer.from(PNG_BASE64, "base64").subarray(1, 4).toString("latin1"), "PNG")
      assert.strictEqual(Buffer.from(WAV_BASE64, "base64").subarray(8, 12).toString("latin1"), "WAVE")
      assert.strictEqual(Buffer.from(PNG_BASE64, "base64").toString("base64"), PNG_BASE64)
      assert.strictEqual(Buffer.from(WAV_BASE64, "base64").toString("base64"), WAV_BASE64)
    }))

  it.live("test_error_handling: a result with isError, not a JSON-RPC error", () =>
    Effect.gen(function*() {
      const h = yield* connect
      assert.deepStrictEqual(yield* h.client.callTool("test_error_handling", {}), {
        isError: true,
        content: [{ type: "text", text: "This tool intentionally returns an error for testing" }]
      })
    }))

  it.live("test_tool_with_logging: 3 info messages 50 ms apart, before the result", () =>
    Effect.gen(function*() {
      const h = yield* connect
      yield* h.client.setLogLevel("debug")
      const result = yield* h.client.callTool("test_tool_with_logging", {})
      assert.strictEqual(textOf(result), "Tool with logging executed successfully")
      const logs = fromServer(h, "notifications/message")
      assert.deepStrictEqual(logs.map((l) => l.message.params), [
        { level: "info", data: "Tool execution started" },
        { level: "info", data: "Tool processing data" },
        { level: "info", data: "Tool execution completed" }
      ])
      for (let i = 1; i < logs.length; i++) {
        const gap = logs[i]!.at - logs[i - 1]!.at
        assert.isTrue(gap >= 40 && gap < 500, `gap ${gap} ms`)
      }
      const response = h.wire.find((w) => w.from === "server" && "result" in w.message && w.message.result.content)!
      assert.isTrue(logs.every((l) => l.at <= response.at))
    }))

  it.live("test_tool_with_logging: the level filter still lets info through at info", () =>
    Effect.gen(function*() {
      const h = yield* connect
      yield* h.client.setLogLevel("info")
      yield* h.client.callTool("test_tool_with_logging", {})
      assert.strictEqual(fromServer(h, "notifications/message").length, 3)
    }))

  it.live("test_tool_with_progress: 0/50/100 of 100 with the numeric token, which the result echoes", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const seen: Array<Protocol.ProgressParams> = []
      const result = yield* h.client.callTool("test_tool_with_progress", {}, {
        onProgress: (p) => Effect.sync(() => void seen.push(p))
      })
      const call = h.wire.find((w) => w.from === "client" && w.message.params?.name === "test_tool_with_progress")!
      const token = call.message.params._meta.progressToken
      assert.strictEqual(typeof token, "number")
      assert.strictEqual(textOf(result), String(token))
      assert.deepStrictEqual(seen.map((p) => [p.progressToken, p.progress, p.total]), [
        [token, 0, 100],
        [token, 50, 100],
        [token, 100, 100]
      ])
      const progress = fromServer(h, "notifications/progress")
      const response = h.wire.find((w) => w.from === "server" && w.message.id === call.message.id)!
      assert.isTrue(progress.every((p) => p.at <= response.at))
    }))

  it.live("test_tool_with_progress: a string token is echoed as is; no token, no progress", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const raw = (yield* h.client.request("tools/call", {
        name: "test_tool_with_progress",
        arguments: {},
        _meta: { progressToken: "progress-test-1" }
      })) as McpSchema.CallToolResult
      assert.strictEqual(textOf(raw), "progress-test-1")
      const progress = fromServer(h, "notifications/progress")
      assert.deepStrictEqual(progress.map((p) => p.message.params.progressToken), [
        "progress-test-1",
        "progress-test-1",
        "progress-test-1"
      ])
      const plain = yield* h.client.callTool("test_tool_with_progress", {})
      assert.strictEqual(textOf(plain), "undefined")
      assert.strictEqual(fromServer(h, "notifications/progress").length, 3)
    }))

  it.live("test_sampling: asks the client's model and returns its answer", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const result = yield* h.client.callTool("test_sampling", { prompt: "Test prompt for sampling" })
      assert.strictEqual(textOf(result), "LLM response: This is a test response from the client")
      const [request] = fromServer(h, "sampling/createMessage")
      assert.deepStrictEqual(request!.message.params, {
        messages: [{ role: "user", content: { type: "text", text: "Test prompt for sampling" } }],
        maxTokens: 100
      })
      assert.strictEqual(h.sampled.length, 1)
    }))

  it.live("test_elicitation: the username/email form, exactly", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const result = yield* h.client.callTool("test_elicitation", { message: "Please provide your information" })
      assert.strictEqual(
        textOf(result),
        "User response: action=accept, content={\"username\":\"testuser\",\"email\":\"test@example.com\"}"
      )
      const [request] = fromServer(h, "elicitation/create")
      assert.deepStrictEqual(request!.message.params, {
        message: "Please provide your information",
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" }
          },
          required: ["username", "email"]
        }
      })
      assert.deepStrictEqual(request!.message.params.requestedSchema, ELICITATION_SCHEMA)
      assert.deepStrictEqual(h.elicited.map((p) => p.requestedSchema), [ELICITATION_SCHEMA])
    }))

  it.live("test_elicitation_sep1034_defaults: the five defaulted fields, exactly", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const result = yield* h.client.callTool("test_elicitation_sep1034_defaults", {})
      assert.strictEqual(
        textOf(result),
        `Elicitation completed: action=accept, content=${JSON.stringify(SEP1034_REPLY.content)}`
      )
      const [request] = fromServer(h, "elicitation/create")
      assert.deepStrictEqual(request!.message.params, {
        mode: "form",
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true }
          },
          required: []
        }
      })
      assert.deepStrictEqual(h.elicited.map((p) => p.requestedSchema), [SEP1034_SCHEMA])
    }))

  it.live("test_elicitation_sep1330_enums: the five enum variants, exactly", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const result = yield* h.client.callTool("test_elicitation_sep1330_enums", {})
      assert.strictEqual(
        textOf(result),
        `Elicitation completed: action=accept, content=${JSON.stringify(SEP1330_REPLY.content)}`
      )
      const [request] = fromServer(h, "elicitation/create")
      assert.strictEqual(request!.message.params.message, "Please select options from the enum fields")
      assert.deepStrictEqual(request!.message.params.requestedSchema, {
        type: "object",
        properties: {
          untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            description: "Select one option with titles",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" }
            ]
          },
          legacyEnum: {
            type: "string",
            description: "Select one option (legacy)",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"]
          },
          untitledMulti: {
            type: "array",
            description: "Select multiple options",
            minItems: 1,
            maxItems: 3,
            items: { type: "string", enum: ["option1", "option2", "option3"] }
          },
          titledMulti: {
            type: "array",
            description: "Select multiple options with titles",
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" }
              ]
            }
          }
        },
        required: []
      })
      assert.deepStrictEqual(request!.message.params.requestedSchema, SEP1330_SCHEMA)
      // our client decoded every variant without losing a keyword
      assert.deepStrictEqual(h.elicited.map((p) => p.requestedSchema), [SEP1330_SCHEMA])
    }))

  it.live("test_reconnection: sends nothing but its result (closing the stream is a no-op here)", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const started = performance.now()
      const result = yield* h.client.callTool("test_reconnection", {})
      assert.isTrue(performance.now() - started >= 90)
      assert.strictEqual(textOf(result), RECONNECTION_TEXT)
      const call = h.wire.find((w) => w.from === "client" && w.message.params?.name === "test_reconnection")!
      const after = h.wire.filter((w) => w.from === "server" && w.at >= call.at)
      assert.deepStrictEqual(after.map((w) => w.message.id), [call.message.id])
    }))

  it.live("json_schema_2020_12_tool: echoes its arguments", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const args = { name: "n", address: { street: "s", city: "c" }, contactMethod: "email", email: "n@example.com" }
      const result = yield* h.client.callTool("json_schema_2020_12_tool", args)
      assert.strictEqual(textOf(result), `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)
    }))
})

describe("Fixture: benchmark tools", () => {
  it.live("echo returns its text", () =>
    Effect.gen(function*() {
      const h = yield* connect
      for (const text of ["hello", "", "ünïcødé ✓ \n\"quoted\""]) {
        assert.deepStrictEqual(yield* h.client.callTool("echo", { text }), { content: [{ type: "text", text }] })
      }
      const bad = yield* h.client.callTool("echo", {})
      assert.isTrue(bad.isError)
    }))

  it.live("blob returns exactly `bytes` ASCII bytes", () =>
    Effect.gen(function*() {
      const h = yield* connect
      for (const bytes of [0, 1, 1000, 65536, 1_000_000]) {
        const text = textOf(yield* h.client.callTool("blob", { bytes }))
        assert.strictEqual(Buffer.byteLength(text, "utf8"), bytes)
        assert.strictEqual(text.length, bytes)
        assert.isTrue(/^x*$/.test(text))
      }
      assert.isTrue((yield* h.client.callTool("blob", { bytes: -1 })).isError)
      assert.isTrue((yield* h.client.callTool("blob", { bytes: 1.5 })).isError)
    }))

  it.live("slow waits `ms` and reports progress every 100 ms with a token", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const seen: Array<{ readonly at: number; readonly p: Protocol.ProgressParams }> = []
      const started = performance.now()
      const result = yield* h.client.callTool("slow", { ms: 450 }, {
        onProgress: (p) => Effect.sync(() => void seen.push({ at: performance.now(), p }))
      })
      const took = performance.now() - started
      assert.strictEqual(textOf(result), "done")
      assert.isTrue(took >= 440 && took < 1500, `took ${took} ms`)
      assert.deepStrictEqual(seen.map((s) => [s.p.progress, s.p.total]), [[100, 450], [200, 450], [300, 450], [400, 450]])
      const call = h.wire.find((w) => w.from === "client" && w.message.params?.name === "slow")!
      assert.isTrue(seen.every((s) => s.p.progressToken === call.message.params._meta.progressToken))
      for (let i = 0; i < seen.length; i++) {
        const offset = seen[i]!.at - started
        assert.isTrue(offset >= (i + 1) * 100 - 15 && offset < (i + 1) * 100 + 150, `progress ${i} at ${offset} ms`)
      }
    }))

  it.live("slow without a progress token sends no progress", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const started = performance.now()
      assert.strictEqual(textOf(yield* h.client.callTool("slow", { ms: 250 })), "done")
      assert.isTrue(performance.now() - started >= 240)
      assert.strictEqual(fromServer(h, "notifications/progress").length, 0)
      assert.strictEqual(textOf(yield* h.client.callTool("slow", { ms: 0 })), "done")
    }))
})

// ----------------------------------------------------------------------------
// resources, prompts, completion
// ----------------------------------------------------------------------------

describe("Fixture: resources", () => {
  it.live("lists the three direct resources and the template", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const resources = yield* h.client.listResourcesAll()
      assert.deepStrictEqual(
        resources.map((r) => [r.uri, r.name, r.mimeType]),
        [
          ["test://static-text", "static-text", "text/plain"],
          ["test://static-binary", "static-binary", "image/png"],
          ["test://watched-resource", "watched-resource", "text/plain"],
          // the skills' files (Skills.ts)
          ["skill://pdf-processing/SKILL.md", "pdf-processing", "text/markdown"],
          ["skill://pdf-processing/references/FORMS.md", "pdf-processing/references/FORMS.md", "text/markdown"],
          ["skill://acme/billing/refunds/SKILL.md", "refunds", "text/markdown"],
          ["skill://acme/billing/refunds/examples/email.md", "acme/billing/refunds/examples/email.md", "text/markdown"]
        ]
      )
      assert.isTrue(resources.every((r) => typeof r.description === "string" && r.description.length > 0))
      const templates = yield* h.client.listResourceTemplatesAll()
      assert.deepStrictEqual(templates.map((t) => [t.uriTemplate, t.name, t.mimeType]), [
        ["test://template/{id}/data", "template", "application/json"]
      ])
    }))

  it.live("reads text, binary, watched and templated resources", () =>
    Effect.gen(function*() {
      const h = yield* connect
      assert.deepStrictEqual(yield* h.client.readResource("test://static-text"), {
        contents: [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }]
      })
      assert.deepStrictEqual(yield* h.client.readResource("test://static-binary"), {
        contents: [{ uri: "test://static-binary", mimeType: "image/png", blob: PNG_BASE64 }]
      })
      assert.deepStrictEqual(yield* h.client.readResource("test://watched-resource"), {
        contents: [{ uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource content" }]
      })
      assert.deepStrictEqual(yield* h.client.readResource("test://template/123/data"), {
        contents: [{
          uri: "test://template/123/data",
          mimeType: "application/json",
          text: "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"
        }]
      })
    }))
})

describe("Fixture: prompts and completion", () => {
  it.live("lists the five prompts with descriptions and arguments", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const prompts = yield* h.client.listPromptsAll()
      assert.deepStrictEqual(prompts, [
        { name: "test_simple_prompt", title: "Simple Test Prompt", description: "A simple prompt without arguments" },
        {
          name: "test_prompt_with_arguments",
          title: "Prompt With Arguments",
          description: "A prompt with required arguments",
          arguments: [
            { name: "arg1", description: "First test argument", required: true },
            { name: "arg2", description: "Second test argument", required: true }
          ]
        },
        {
          name: "test_prompt_with_embedded_resource",
          title: "Prompt With Embedded Resource",
          description: "A prompt that includes an embedded resource",
          arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }]
        },
        { name: "test_prompt_with_image", title: "Prompt With Image", description: "A prompt that includes image content" },
        {
          name: "test_input_required_result_prompt",
          description: "A prompt that asks the user for its context first (input request user_context)"
        }
      ])
    }))

  it.live("gets each prompt", () =>
    Effect.gen(function*() {
      const h = yield* connect
      // the suite sends no arguments key for prompts without arguments
      assert.deepStrictEqual(yield* h.client.request("prompts/get", { name: "test_simple_prompt" }), {
        messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }]
      })
      assert.deepStrictEqual(
        yield* h.client.getPrompt("test_prompt_with_arguments", { arg1: "testValue1", arg2: "testValue2" }),
        {
          messages: [{
            role: "user",
            content: { type: "text", text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" }
          }]
        }
      )
      assert.deepStrictEqual(
        yield* h.client.getPrompt("test_prompt_with_embedded_resource", { resourceUri: "test://example-resource" }),
        {
          messages: [
            {
              role: "user",
              content: {
                type: "resource",
                resource: { uri: "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." }
              }
            },
            { role: "user", content: { type: "text", text: "Please process the embedded resource above." } }
          ]
        }
      )
      assert.deepStrictEqual(yield* h.client.request("prompts/get", { name: "test_prompt_with_image" }), {
        messages: [
          { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
          { role: "user", content: { type: "text", text: "Please analyze the image above." } }
        ]
      })
    }))

  it.live("completes arg1 of test_prompt_with_arguments", () =>
    Effect.gen(function*() {
      const h = yield* connect
      const result = yield* h.client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "test" }
      })
      assert.deepStrictEqual(result, { completion: { values: ["test", "testValue1", "testing"], total: 3, hasMore: false } })
      const par = yield* h.client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "par" }
      })
      assert.deepStrictEqual(par.completion.values, ["paris", "park", "party"])
      const none = yield* h.client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg2", value: "x" }
      })
      assert.deepStrictEqual(none.completion.values, [])
    }))
})

// ----------------------------------------------------------------------------
// the program over stdio, driven by the official SDK client
// ----------------------------------------------------------------------------

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

describe("Fixture: stdio with the official SDK client", () => {
  it.live("serves the fixture on stdio; the official client validates every result", () =>
    Effect.promise(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [bundled("conformance-server"), "--stdio"],
        cwd: repoRoot,
        stderr: "pipe"
      })
      let stderr = ""
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8")
      })
      const client = new Client(
        { name: "conformance-test-client", version: "1.0.0" },
        { capabilities: { sampling: {}, elicitation: {} } }
      )
      const sampled: Array<CreateMessageRequest["params"]> = []
      const elicited: Array<ElicitRequest["params"]> = []
      client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        sampled.push(request.params)
        return { ...SAMPLING_REPLY, content: { ...SAMPLING_REPLY.content } }
      })
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        elicited.push(request.params)
        const reply = elicitationReply(request.params as { requestedSchema: { properties?: object } })
        return JSON.parse(JSON.stringify(reply))
      })
      try {
        await client.connect(transport)
        assert.deepStrictEqual(client.getServerVersion(), { name: "mcp-conformance-test-server", version: "1.0.0" })

        // tools/list goes through the SDK's zod schema and its Ajv outputSchema compilation
        const { tools } = await client.listTools()
        assert.deepStrictEqual(tools.map((t) => t.name), EXPECTED_TOOLS)
        assert.isTrue(tools.every((t) => typeof t.description === "string" && t.description.length > 0))

        assert.deepStrictEqual(await client.callTool({ name: "echo", arguments: { text: "over stdio" } }), {
          content: [{ type: "text", text: "over stdio" }]
        })
        const blob = await client.callTool({ name: "blob", arguments: { bytes: 100_000 } })
        assert.strictEqual(((blob.content as Array<{ text: string }>)[0]!).text.length, 100_000)
        assert.deepStrictEqual(await client.callTool({ name: "test_simple_text" }), {
          content: [{ type: "text", text: "This is a simple text response for testing." }]
        })
        for (const name of ["test_image_content", "test_audio_content", "test_embedded_resource", "test_multiple_content_types"]) {
          const result = await client.callTool({ name, arguments: {} })
          assert.isTrue((result.content as Array<unknown>).length > 0, name)
        }
        const error = await client.callTool({ name: "test_error_handling", arguments: {} })
        assert.isTrue(error.isError)

        // progress: the SDK replaces the token with the request id
        const progress: Array<number> = []
        const withProgress = await client.callTool(
          { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: "progress-test-1" } },
          undefined,
          { onprogress: (p) => void progress.push(p.progress) }
        )
        // the SDK client handles notifications a microtask late but the response at once, and forgets
        // the progress handler with the response: the last progress, read in the same chunk as the
        // result, may be dropped ("unknown token"). Over SSE each event is read separately.
        assert.deepStrictEqual(progress.slice(0, 2), [0, 50])
        assert.deepStrictEqual(progress, [0, 50, 100].slice(0, progress.length))
        assert.match((withProgress.content as Array<{ text: string }>)[0]!.text, /^\d+$/)

        // logging
        const logs: Array<unknown> = []
        client.setNotificationHandler(
          (await import("@modelcontextprotocol/sdk/types.js")).LoggingMessageNotificationSchema,
          async (n) => void logs.push(n.params.data)
        )
        assert.deepStrictEqual(await client.setLoggingLevel("debug"), {})
        await client.callTool({ name: "test_tool_with_logging", arguments: {} })
        assert.deepStrictEqual(logs, ["Tool execution started", "Tool processing data", "Tool execution completed"])

        // sampling and elicitation: the SDK validates our requests before its handlers run
        assert.deepStrictEqual(await client.callTool({ name: "test_sampling", arguments: { prompt: "Test prompt for sampling" } }), {
          content: [{ type: "text", text: "LLM response: This is a test response from the client" }]
        })
        assert.strictEqual(sampled.length, 1)
        await client.callTool({ name: "test_elicitation", arguments: { message: "Please provide your information" } })
        await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} })
        const enums = await client.callTool({ name: "test_elicitation_sep1330_enums", arguments: {} })
        assert.deepStrictEqual(elicited.map((p) => (p as { requestedSchema: unknown }).requestedSchema), [
          ELICITATION_SCHEMA,
          SEP1034_SCHEMA,
          SEP1330_SCHEMA
        ])
        assert.strictEqual(
          (enums.content as Array<{ text: string }>)[0]!.text,
          `Elicitation completed: action=accept, content=${JSON.stringify(SEP1330_REPLY.content)}`
        )
        const reconnection = await client.callTool({ name: "test_reconnection", arguments: {} })
        assert.strictEqual((reconnection.content as Array<{ text: string }>)[0]!.text, RECONNECTION_TEXT)

        // resources, prompts, completion, ping, subscriptions
        assert.strictEqual((await client.listResources()).resources.length, 7) // 3 + the skills' 4 files
        const binary = await client.readResource({ uri: "test://static-binary" })
        assert.strictEqual((binary.contents[0] as { blob: string }).blob, PNG_BASE64)
        const templated = await client.readResource({ uri: "test://template/123/data" })
        assert.include((templated.contents[0] as { text: string }).text, "123")
        assert.deepStrictEqual(await client.subscribeResource({ uri: "test://watched-resource" }), {})
        assert.deepStrictEqual(await client.unsubscribeResource({ uri: "test://watched-resource" }), {})
        assert.strictEqual((await client.listPrompts()).prompts.length, 5)
        const withArgs = await client.getPrompt({
          name: "test_prompt_with_arguments",
          arguments: { arg1: "testValue1", arg2: "testValue2" }
        })
        assert.include(JSON.stringify(withArgs.messages), "testValue1")
        assert.include(JSON.stringify(withArgs.messages), "testValue2")
        const image = await client.getPrompt({ name: "test_prompt_with_image" })
        assert.strictEqual((image.messages[0]!.content as { type: string }).type, "image")
        const completion = await client.complete({
          ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
          argument: { name: "arg1", value: "test" }
        })
        assert.isArray(completion.completion.values)
        assert.deepStrictEqual(await client.ping(), {})
      } catch (e) {
        throw new Error(`${e instanceof Error ? e.stack : String(e)}\n--- server stderr ---\n${stderr}`)
      } finally {
        await client.close()
      }
      // nothing but protocol on stdout: a stray line would have failed the SDK's parse (onerror) — and stderr is clean
      assert.notInclude(stderr, "failed")
    }))
})
