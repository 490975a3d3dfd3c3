/**
 * The fixture server of the official MCP conformance suite
 * (`@modelcontextprotocol/conformance@0.2.0-alpha.12`, `server` mode): every
 * tool, resource, template and prompt its 2025-11-25 server scenarios call
 * (the 30 that revision requires and the 3 it runs unscored), with the exact
 * names, texts and request shapes they check, plus three tools used by the
 * benchmarks (`echo`, `blob`, `slow`).
 *
 * See `scratchpad/conformance/FIXTURES.md` §4 for the inventory (written for
 * 0.1.16, whose 32 scenarios are these 33 but `server-session-lifecycle`;
 * `json-schema-2020-12` has checked the SEP-2106 keywords since).
 *
 * With `--oauth-issuer` (see `authLayer`), the HTTP server is a protected
 * resource: `/mcp` accepts only JWT access tokens of that issuer whose
 * audience is the server's own URL, and `tools/call` needs `mcp:tools`.
 *
 * @since 0.1.0
 */
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpAuth from "@effect-mcp/mcp/McpAuth"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Effect from "effect/Effect"
import { SkillsLive } from "./Skills.js"
import { TasksLive } from "./Tasks.js"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { MrtrPrompts, MrtrTools } from "./FixtureMrtr.js"
import { Features2026 } from "./Fixture2026.js"

// ============================================================================
// constants
// ============================================================================

/** The server's identity in the initialize result. */
export const serverInfo = { name: "mcp-conformance-test-server", version: "1.0.0" } as const

/** A 1×1 PNG, base64. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

/** A minimal WAV file, base64. */
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="

/** What tools without arguments publish as `inputSchema`. */
const NO_ARGS = { type: "object", properties: {} } as McpSchema.Tool["inputSchema"]

/** A plain published `inputSchema` (required properties only), the way the reference server writes them. */
const objectOf = (properties: { readonly [name: string]: { readonly [key: string]: unknown } }) =>
  ({ type: "object", properties, required: Object.keys(properties) }) as McpSchema.Tool["inputSchema"]

/**
 * The raw JSON Schema 2020-12 input schema of `json_schema_2020_12_tool`, published unchanged: the suite's
 * (0.2.0-alpha.12) checks `$schema`, `$defs`, `additionalProperties` (SEP-1613) and `$anchor`,
 * `allOf`/`anyOf`, `if`/`then`/`else` (SEP-2106).
 */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } }
    }
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" }
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false
} as const

/** The form of `test_elicitation` (§3.15). */
export const ELICITATION_SCHEMA = {
  type: "object",
  properties: {
    username: { type: "string", description: "User's response" },
    email: { type: "string", description: "User's email address" }
  },
  required: ["username", "email"]
} as const

/** The form of `test_elicitation_sep1034_defaults` (§3.17). */
export const SEP1034_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: {
      type: "string",
      description: "User status",
      enum: ["active", "inactive", "pending"],
      default: "active"
    },
    verified: { type: "boolean", description: "Verification status", default: true }
  },
  required: []
} as const

/** The form of `test_elicitation_sep1330_enums` (§3.20). */
export const SEP1330_SCHEMA = {
  type: "object",
  properties: {
    untitledSingle: {
      type: "string",
      description: "Select one option",
      enum: ["option1", "option2", "option3"]
    },
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
} as const

/** The result text of `test_reconnection`. */
export const RECONNECTION_TEXT =
  "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."

/** Suggestions for `test_prompt_with_arguments` / `arg1`, filtered by prefix. */
export const ARG1_COMPLETIONS: ReadonlyArray<string> = ["test", "testValue1", "testing", "paris", "park", "party"]

/** The largest `blob` the benchmark tool produces (64 MiB). */
export const MAX_BLOB_BYTES = 64 * 1024 * 1024

// ============================================================================
// tools
// ============================================================================

const text = (t: string): McpSchema.CallToolResult => ({ content: [{ type: "text", text: t }] })

const elicitationText = (result: McpSchema.ElicitResult) =>
  `action=${result.action}, content=${JSON.stringify(result.content ?? {})}`

const TestSimpleText = McpServer.tool({
  name: "test_simple_text",
  description: "Tests simple text content response",
  inputSchema: NO_ARGS,
  handler: () => Effect.succeed(text("This is a simple text response for testing."))
})

const TestImageContent = McpServer.tool({
  name: "test_image_content",
  description: "Tests image content response",
  inputSchema: NO_ARGS,
  handler: () => Effect.succeed({ content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }] })
})

const TestAudioContent = McpServer.tool({
  name: "test_audio_content",
  description: "Tests audio content response",
  inputSchema: NO_ARGS,
  handler: () => Effect.succeed({ content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }] })
})

const TestEmbeddedResource = McpServer.tool({
  name: "test_embedded_resource",
  description: "Tests embedded resource content response",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.succeed({
      content: [{
        type: "resource",
        resource: {
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content."
        }
      }]
    })
})

const TestMultipleContentTypes = McpServer.tool({
  name: "test_multiple_content_types",
  description: "Tests response with multiple content types (text, image, resource)",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.succeed({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 })
          }
        }
      ]
    })
})

const TestToolWithLogging = McpServer.tool({
  name: "test_tool_with_logging",
  description: "Tests tool that emits log messages during execution",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.log("info", "Tool execution started")
      yield* Effect.sleep("50 millis")
      yield* ctx.log("info", "Tool processing data")
      yield* Effect.sleep("50 millis")
      yield* ctx.log("info", "Tool execution completed")
      return text("Tool with logging executed successfully")
    })
})

const TestToolWithProgress = McpServer.tool({
  name: "test_tool_with_progress",
  description: "Tests tool that reports progress notifications",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(0, { total: 100, message: "Completed step 0 of 100" })
      yield* Effect.sleep("50 millis")
      yield* ctx.progress(50, { total: 100, message: "Completed step 50 of 100" })
      yield* Effect.sleep("50 millis")
      yield* ctx.progress(100, { total: 100, message: "Completed step 100 of 100" })
      return text(String(ctx.progressToken))
    })
})

const TestErrorHandling = McpServer.tool({
  name: "test_error_handling",
  description: "Tests error response handling",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.succeed({
      isError: true,
      content: [{ type: "text", text: "This tool intentionally returns an error for testing" }]
    })
})

const TestReconnection = McpServer.tool({
  name: "test_reconnection",
  description: "Tests SSE stream disconnection and client reconnection (SEP-1699). " +
    "Server will close the stream mid-call and send the result after client reconnects.",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      // close the request's stream without answering; the call goes on and
      // its result reaches the client once it reconnects with Last-Event-ID
      yield* ctx.closeStream
      yield* Effect.sleep("100 millis")
      return text(RECONNECTION_TEXT)
    })
})

const TestSampling = McpServer.tool({
  name: "test_sampling",
  description: "Tests server-initiated sampling (LLM completion request)",
  inputSchema: objectOf({ prompt: { type: "string", description: "The prompt to send to the LLM" } }),
  parameters: Schema.Struct({ prompt: Schema.String }),
  handler: ({ prompt }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const result = yield* ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100
      })
      const contents = Array.isArray(result.content) ? result.content : [result.content]
      const reply = contents
        .flatMap((c) => (c.type === "text" ? [c.text] : []))
        .join("")
      return text(`LLM response: ${reply}`)
    })
})

const TestElicitation = McpServer.tool({
  name: "test_elicitation",
  description: "Tests server-initiated elicitation (user input request)",
  inputSchema: objectOf({ message: { type: "string", description: "The message to show the user" } }),
  parameters: Schema.Struct({ message: Schema.String }),
  handler: ({ message }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const result = yield* ctx.elicit({ message, requestedSchema: ELICITATION_SCHEMA })
      return text(`User response: ${elicitationText(result)}`)
    })
})

const TestElicitationSep1034Defaults = McpServer.tool({
  name: "test_elicitation_sep1034_defaults",
  description: "Tests elicitation with default values per SEP-1034",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const result = yield* ctx.elicit({
        mode: "form",
        message: "Please review and update the form fields with defaults",
        requestedSchema: SEP1034_SCHEMA
      })
      return text(`Elicitation completed: ${elicitationText(result)}`)
    })
})

const TestElicitationSep1330Enums = McpServer.tool({
  name: "test_elicitation_sep1330_enums",
  description: "Tests elicitation with enum schema improvements per SEP-1330",
  inputSchema: NO_ARGS,
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const result = yield* ctx.elicit({
        mode: "form",
        message: "Please select options from the enum fields",
        requestedSchema: SEP1330_SCHEMA as unknown as McpSchema.ElicitRequestFormParams["requestedSchema"]
      })
      return text(`Elicitation completed: ${elicitationText(result)}`)
    })
})

const JsonSchema202012Tool = McpServer.tool({
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features",
  // published unchanged; the arguments reach the handler as they came
  inputSchema: JSON_SCHEMA_2020_12_INPUT as unknown as McpSchema.Tool["inputSchema"],
  parameters: Schema.Record(Schema.String, Schema.Unknown),
  handler: (args) => Effect.succeed(text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`))
})

// ---------------------------------------------------------------- benchmark tools

const Echo = McpServer.tool({
  name: "echo",
  description: "Echoes the text back as one text content",
  inputSchema: objectOf({ text: { type: "string", description: "The text to echo" } }),
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text: t }) => Effect.succeed(text(t))
})

const Blob = McpServer.tool({
  name: "blob",
  description: "Returns one text content of exactly `bytes` ASCII bytes",
  inputSchema: objectOf({
    bytes: { type: "integer", minimum: 0, maximum: MAX_BLOB_BYTES, description: "How many bytes of text to return" }
  }),
  parameters: Schema.Struct({ bytes: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_BLOB_BYTES })) }),
  handler: ({ bytes }) => Effect.succeed(text("x".repeat(bytes)))
})

const Slow = McpServer.tool({
  name: "slow",
  description: "Waits `ms` milliseconds, reporting progress every 100 ms when asked to, then returns `done`",
  inputSchema: objectOf({ ms: { type: "integer", minimum: 0, description: "How long to wait, in milliseconds" } }),
  parameters: Schema.Struct({ ms: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) }),
  handler: ({ ms }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      let elapsed = 0
      while (elapsed + 100 <= ms) {
        yield* Effect.sleep("100 millis")
        elapsed += 100
        if (elapsed < ms) yield* ctx.progress(elapsed, { total: ms })
      }
      if (elapsed < ms) yield* Effect.sleep(ms - elapsed)
      return text("done")
    })
})

/** The tools of the conformance suite plus the benchmark tools. */
export const Tools = McpServer.register(
  TestSimpleText,
  TestImageContent,
  TestAudioContent,
  TestEmbeddedResource,
  TestMultipleContentTypes,
  TestToolWithLogging,
  TestToolWithProgress,
  TestErrorHandling,
  TestReconnection,
  TestSampling,
  TestElicitation,
  TestElicitationSep1034Defaults,
  TestElicitationSep1330Enums,
  JsonSchema202012Tool,
  Echo,
  Blob,
  Slow
)

// ============================================================================
// resources
// ============================================================================

const StaticText = McpServer.resource({
  uri: "test://static-text",
  name: "static-text",
  title: "Static Text Resource",
  description: "A static text resource for testing",
  mimeType: "text/plain",
  content: Effect.succeed("This is the content of the static text resource.")
})

const StaticBinary = McpServer.resource({
  uri: "test://static-binary",
  name: "static-binary",
  title: "Static Binary Resource",
  description: "A static binary resource (image) for testing",
  mimeType: "image/png",
  content: Effect.succeed({ uri: "test://static-binary", mimeType: "image/png", blob: PNG_BASE64 })
})

const WatchedResource = McpServer.resource({
  uri: "test://watched-resource",
  name: "watched-resource",
  title: "Watched Resource",
  description: "A resource that can be subscribed to for updates",
  mimeType: "text/plain",
  content: Effect.succeed("Watched resource content")
})

const Template = McpServer.resourceTemplate({
  uriTemplate: "test://template/{id}/data",
  name: "template",
  title: "Template Resource",
  description: "A resource template with parameter substitution",
  mimeType: "application/json",
  read: ({ id }) => Effect.succeed(JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }))
})

/** The resources and the resource template of the conformance suite. */
export const Resources = McpServer.register(StaticText, StaticBinary, WatchedResource, Template)

// ============================================================================
// prompts
// ============================================================================

const SimplePrompt = McpServer.prompt({
  name: "test_simple_prompt",
  title: "Simple Test Prompt",
  description: "A simple prompt without arguments",
  content: () => Effect.succeed("This is a simple prompt for testing.")
})

const PromptWithArguments = McpServer.prompt({
  name: "test_prompt_with_arguments",
  title: "Prompt With Arguments",
  description: "A prompt with required arguments",
  parameters: Schema.Struct({
    arg1: Schema.String.annotate({ description: "First test argument" }),
    arg2: Schema.String.annotate({ description: "Second test argument" })
  }),
  complete: {
    arg1: (value) => Effect.succeed(ARG1_COMPLETIONS.filter((v) => v.startsWith(value)))
  },
  content: ({ arg1, arg2 }) => Effect.succeed(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)
})

const PromptWithEmbeddedResource = McpServer.prompt({
  name: "test_prompt_with_embedded_resource",
  title: "Prompt With Embedded Resource",
  description: "A prompt that includes an embedded resource",
  parameters: Schema.Struct({
    resourceUri: Schema.String.annotate({ description: "URI of the resource to embed" })
  }),
  content: ({ resourceUri }) =>
    Effect.succeed<ReadonlyArray<McpSchema.PromptMessage>>([
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." }
        }
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } }
    ])
})

const PromptWithImage = McpServer.prompt({
  name: "test_prompt_with_image",
  title: "Prompt With Image",
  description: "A prompt that includes image content",
  content: () =>
    Effect.succeed<ReadonlyArray<McpSchema.PromptMessage>>([
      { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } }
    ])
})

/** The prompts of the conformance suite. */
export const Prompts = McpServer.register(SimplePrompt, PromptWithArguments, PromptWithEmbeddedResource, PromptWithImage)

// ============================================================================
// the server
// ============================================================================

/**
 * The fixture server: `McpServer` with every tool, resource, template and prompt registered
 * (`Fixture2026`'s too); its `requestState` keys from `MCP_REQUEST_STATE_KEYS` when set (a bad
 * key is a defect: the program stops).
 */
export const FixtureLive: Layer.Layer<McpServer.McpServer> = Layer.mergeAll(
  Tools,
  Resources,
  Prompts,
  MrtrTools,
  MrtrPrompts,
  SkillsLive,
  Features2026,
  TasksLive
).pipe(
  Layer.provideMerge(Layer.orDie(McpServer.layerConfig(serverInfo)))
)

// ============================================================================
// authorization (--oauth-issuer)
// ============================================================================

/** The scope `tools/call` requires when the fixture is protected. */
export const TOOLS_SCOPE = "mcp:tools"

/**
 * The fixture as a protected resource (`server.js --port N --oauth-issuer URL
 * [--oauth-scopes "a b"]`):
 *
 * - every request to `/mcp` (and to the legacy `/sse` and `/messages`) needs
 *   `Authorization: Bearer <JWT access token>` signed by a key of `issuer`'s
 *   JWKS (found through its RFC 8414 or OpenID metadata), with `iss` equal to
 *   `issuer`, `aud` containing `resource` (`http://127.0.0.1:N/mcp`, the
 *   server's own URL: a token minted for another resource is refused), and
 *   `exp`/`nbf` valid within 30 s;
 * - without one: 401 `WWW-Authenticate: Bearer resource_metadata=
 *   "http://127.0.0.1:N/.well-known/oauth-protected-resource/mcp",
 *   scope="<scopes>"` (with `error="invalid_token"` for a bad token);
 * - `tools/call` needs the scope `mcp:tools`: without it, 403
 *   `error="insufficient_scope", scope="mcp:tools"`;
 * - the Protected Resource Metadata is served at
 *   `/.well-known/oauth-protected-resource/mcp` and
 *   `/.well-known/oauth-protected-resource`: `resource`,
 *   `authorization_servers: [issuer]`, `scopes_supported` (`scopes`, default
 *   `["mcp:tools"]`), `bearer_methods_supported: ["header"]`;
 * - a session answers only the principal (issuer, subject and client id) that
 *   created it; a token without `sub` is refused (401).
 */
export const authLayer = (options: {
  readonly issuer: string
  readonly resource: string
  readonly scopes?: ReadonlyArray<string> | undefined
}): Layer.Layer<McpAuth.McpAuth> =>
  McpAuth.layer({
    resource: options.resource,
    authorizationServers: [options.issuer],
    scopesSupported: options.scopes ?? [TOOLS_SCOPE],
    methodScopes: { "tools/call": [TOOLS_SCOPE] },
    resourceName: serverInfo.name
  }).pipe(
    Layer.provide(McpAuth.layerJwtVerifier({ issuer: options.issuer })),
    Layer.provide(FetchHttpClient.layer)
  )
