/**
 * What the 2026-07-28 server scenarios of the conformance suite
 * (`@modelcontextprotocol/conformance@0.2.0-alpha.12`) call beyond the 2025
 * fixture (`Fixture.ts`): `server-stateless` (`test_missing_capability`,
 * `test_streaming_elicitation`, `test_logging_tool`, `test_trigger_tool_change`,
 * `test_trigger_prompt_change`) and `http-custom-header-server-validation`
 * (`test_x_mcp_header`, a tool whose string argument is mirrored in an
 * `Mcp-Param-Region` header). The same server serves both eras: on 2025
 * these tools work as any other.
 *
 * @since 0.1.0
 */
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const NO_ARGS = { type: "object", properties: {} } as McpSchema.Tool["inputSchema"]

const text = (t: string) => ({ type: "text" as const, text: t })

/** Needs sampling: a client that does not declare it gets -32021 on 2026. */
const TestMissingCapability = McpServer.tool({
  name: "test_missing_capability",
  description: "Asks the client's model; a 2026 client that declares no sampling capability gets -32021",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const result = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
        maxTokens: 20
      })
      const content = Array.isArray(result.content) ? result.content[0] : result.content
      return text(`LLM response: ${content?.type === "text" ? content.text : ""}`)
    })
})

/** Asks the user while its response streams: on 2026 that is an input request, never a server request. */
const TestStreamingElicitation = McpServer.tool({
  name: "test_streaming_elicitation",
  description: "Reports progress, then asks the user for their name",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(0, { total: 1, message: "asking" })
      const answer = yield* ctx.elicit({
        message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] }
      })
      return text(`User response: ${answer.action} ${JSON.stringify(answer.content ?? {})}`)
    })
})

/** Logs at info: a 2026 request without a log level in its `_meta` gets no log messages. */
const TestLoggingTool = McpServer.tool({
  name: "test_logging_tool",
  description: "Logs three messages at info",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.log("info", "Logging tool started")
      yield* ctx.log("info", "Logging tool working")
      yield* ctx.log("info", "Logging tool done")
      return text("Logging tool executed")
    })
})

const DynamicTool = McpServer.tool({
  name: "test_dynamic_tool",
  description: "Registered for a moment by test_trigger_tool_change",
  inputSchema: NO_ARGS,
  handler: () => Effect.succeed(text("dynamic"))
})

const DynamicPrompt = McpServer.prompt({
  name: "test_dynamic_prompt",
  description: "Registered for a moment by test_trigger_prompt_change",
  content: () => Effect.succeed("dynamic")
})

/** Adds a feature and removes it again: two list changes, delivered to listen streams and 2025 sessions. */
const triggerChange = (feature: McpServer.Feature<never>) =>
  Effect.gen(function*() {
    const server = yield* McpServer.McpServer
    yield* Effect.scoped(server.add([feature as McpServer.Feature<unknown>], yield* Effect.context<never>()))
    return text("list changed")
  })

const TestTriggerToolChange = McpServer.tool({
  name: "test_trigger_tool_change",
  description: "Changes the tool list (notifications/tools/list_changed)",
  inputSchema: NO_ARGS,
  handler: () => triggerChange(DynamicTool)
})

const TestTriggerPromptChange = McpServer.tool({
  name: "test_trigger_prompt_change",
  description: "Changes the prompt list (notifications/prompts/list_changed)",
  inputSchema: NO_ARGS,
  handler: () => triggerChange(DynamicPrompt)
})

/** `region` is mirrored in `Mcp-Param-Region` over HTTP (SEP-2243). */
const TestXMcpHeader = McpServer.tool({
  name: "test_x_mcp_header",
  description: "Echoes its region; the region travels in the Mcp-Param-Region header too",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", description: "A region, mirrored in Mcp-Param-Region", "x-mcp-header": "Region" },
      note: { type: "string", description: "Not mirrored" }
    },
    required: ["region"]
  } as McpSchema.Tool["inputSchema"],
  parameters: Schema.Struct({ region: Schema.String, note: Schema.optional(Schema.String) }),
  handler: ({ region }) => Effect.succeed(text(`region: ${region}`))
})

/**
 * The features the 2026-07-28 scenarios add to the fixture.
 * @since 0.1.0
 * @category features
 */
export const Features2026 = McpServer.register(
  TestMissingCapability,
  TestStreamingElicitation,
  TestLoggingTool,
  TestTriggerToolChange,
  TestTriggerPromptChange,
  TestXMcpHeader
)
