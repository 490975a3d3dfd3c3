/**
 * What the fixture client does in the 2026-07-28 client scenarios, and which
 * era it speaks: `MCP_CONFORMANCE_PROTOCOL_VERSION` (set by the suite) pins
 * the client to that revision's era (`2026-07-28` → the 2026 path, a 2025
 * revision → `initialize`), `auto` when it is unset.
 *
 * The scenarios only need the client's ordinary calls: the envelope, the
 * headers, the −32022 retry and the input rounds are the client's own.
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
import * as Effect from "effect/Effect"

/**
 * The client's era for the suite's protocol version.
 * @since 0.1.0
 */
export const eraOf = (env: Record<string, string | undefined>): McpClient.ClientOptions["era"] => {
  const version = env.MCP_CONFORMANCE_PROTOCOL_VERSION
  if (version === undefined || version === "") return "auto"
  return ProtocolEra.eraOf(version) === "2026" ? "2026-07-28" : "2025"
}

interface ToolCall {
  readonly name: string
  readonly arguments?: { readonly [key: string]: unknown }
}

/** The tool calls the suite names in `MCP_CONFORMANCE_CONTEXT` (http-custom-headers), if any. */
const contextCalls = (env: Record<string, string | undefined>): ReadonlyArray<ToolCall> => {
  try {
    const calls = (JSON.parse(env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { readonly toolCalls?: unknown }).toolCalls
    return Array.isArray(calls) ? calls as ReadonlyArray<ToolCall> : []
  } catch {
    return []
  }
}

/** Arguments that satisfy a tool's required string, integer, number and boolean properties. */
const argumentsFor = (inputSchema: { readonly properties?: unknown; readonly required?: unknown }) => {
  const properties = (inputSchema.properties ?? {}) as Record<string, { readonly type?: unknown }>
  const required = Array.isArray(inputSchema.required) ? inputSchema.required as ReadonlyArray<string> : []
  const args: Record<string, unknown> = {}
  for (const key of required) {
    const type = properties[key]?.type
    args[key] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "value"
  }
  return args
}

const callAll = (calls: ReadonlyArray<ToolCall>) =>
  Effect.flatMap(McpClient.McpClient, (client) =>
    Effect.forEach(calls, (call) => client.callTool(call.name, call.arguments ?? {}), { discard: true }))

/**
 * The 2026 client scenarios, by name.
 * @since 0.1.0
 */
export const scenarios2026 = (
  env: Record<string, string | undefined>
): Record<string, Effect.Effect<void, unknown, McpClient.McpClient>> => ({
  // connecting is the scenario: discover, refused once with -32022, sent again at the version offered
  "request-metadata": Effect.void,
  "sep-2322-client-request-state": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    yield* client.listToolsAll()
    // an unrelated call while another call's rounds are under way carries nothing of them
    yield* Effect.all([client.callTool("test_mrtr_echo_state", {}), client.callTool("test_mrtr_unrelated", {})], {
      concurrency: "unbounded"
    })
    yield* client.callTool("test_mrtr_no_state", {})
    yield* client.callTool("test_mrtr_no_result_type", {})
  }),
  "http-standard-headers": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const tools = yield* client.listToolsAll()
    yield* callAll(tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool.inputSchema) })))
    for (const resource of yield* client.listResourcesAll()) yield* client.readResource(resource.uri)
    for (const prompt of yield* client.listPromptsAll()) yield* client.getPrompt(prompt.name)
  }),
  "http-custom-headers": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    // the tools are listed first: their x-mcp-header annotations name the headers of the calls
    yield* client.listToolsAll()
    yield* callAll(contextCalls(env))
  }),
  // the tools with invalid annotations are not listed, so they are never called
  "http-invalid-tool-headers": Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const tools = yield* client.listToolsAll()
    yield* callAll(tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool.inputSchema) })))
  }),
  // listing is the scenario: a network $ref in a schema is never fetched
  "json-schema-ref-no-deref": Effect.asVoid(Effect.flatMap(McpClient.McpClient, (client) => client.listToolsAll()))
})
