/**
 * What typed clients see of a tool whose parameters use `Schema.Int`,
 * `Schema.NonEmptyString`, optional fields, literals, a nested struct and an
 * array: the official SDK client lists the exact, self-contained JSON Schema
 * over streamable HTTP, and the official Inspector CLI (0.15.0, the last that
 * runs on Node 20) types `--tool-arg n=3` from it and gets a number through.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import * as path from "node:path"
import { startServer } from "./httpUtil.js"

// Effect 3's Int, NonEmptyString and between(…) carried these titles and descriptions, and published
// them; Effect 4's carry none: given here, the published schema is the one Effect 3 published
const Int = Schema.Int.annotate({ title: "int", description: "an integer" })
const NonEmpty = Schema.NonEmptyString.annotate({ title: "nonEmptyString", description: "a non empty string" })

const Steps = Schema.Struct({
  n: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 })).annotate({ title: "between(1, 1000)", description: "How many steps" }),
  name: NonEmpty,
  note: Schema.optional(Schema.String),
  mode: Schema.optional(Schema.Literals(["fast", "slow"])),
  point: Schema.Struct({ x: Int, y: Int }),
  tags: Schema.optional(Schema.Array(NonEmpty))
})

/** Echoes its decoded arguments as `structuredContent`: what arrives is what was typed. */
const TypedEcho = McpServer.tool({
  name: "typed_echo",
  description: "Echoes its typed arguments",
  parameters: Steps,
  success: Steps,
  handler: (args) => Effect.succeed(args)
})

const IntJson = { type: "integer", description: "an integer", title: "int" }
const NonEmptyString = { type: "string", description: "a non empty string", title: "nonEmptyString", minLength: 1 }
const STEPS_JSON_SCHEMA = {
  type: "object" as const,
  required: ["n", "name", "point"],
  properties: {
    n: { type: "integer", description: "How many steps", title: "between(1, 1000)", minimum: 1, maximum: 1000 },
    name: NonEmptyString,
    note: { type: "string" },
    mode: { type: "string", enum: ["fast", "slow"] },
    point: { type: "object", required: ["x", "y"], properties: { x: IntJson, y: IntJson }, additionalProperties: false },
    tags: { type: "array", items: NonEmptyString }
  },
  additionalProperties: false
}

const officialClient = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

const inspectorCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build",
  "cli.js"
)

/** Runs a command to its end; interrupting the effect kills it. */
const run = (file: string, args: ReadonlyArray<string>) =>
  Effect.callback<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = execFile(file, args, { timeout: 25_000 }, (error, stdout, stderr) =>
      resume(Effect.succeed({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr })))
    return Effect.sync(() => child.kill())
  })

describe("published schemas, as typed clients see them", () => {
  it.live("the official SDK client lists the exact self-contained JSON Schema and calls with typed arguments", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(McpServer.register(TypedEcho))
      const client = yield* officialClient(url)
      const { tools } = yield* Effect.promise(() => client.listTools())
      assert.deepStrictEqual(tools, [{
        name: "typed_echo",
        description: "Echoes its typed arguments",
        inputSchema: STEPS_JSON_SCHEMA,
        outputSchema: STEPS_JSON_SCHEMA
      }])
      const args = { n: 3, name: "ada", mode: "fast", point: { x: 1, y: 2 }, tags: ["a"] }
      // the client checks structuredContent against the outputSchema it listed
      const result = yield* Effect.promise(() => client.callTool({ name: "typed_echo", arguments: args }))
      assert.deepStrictEqual(result.structuredContent, args)
      assert.notStrictEqual(result.isError, true)
    }))

  it.live("the official Inspector CLI types --tool-arg n=3 from the schema: the tool gets the number 3", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(McpServer.register(TypedEcho))
      const out = yield* run(process.execPath, [
        inspectorCli,
        "--cli",
        url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "typed_echo",
        "--tool-arg",
        "n=3",
        "name=ada",
        `point={"x":1,"y":2}`
      ])
      assert.strictEqual(out.code, 0, out.stderr)
      const result = JSON.parse(out.stdout) as { readonly structuredContent?: unknown; readonly isError?: boolean }
      assert.notStrictEqual(result.isError, true, out.stdout)
      assert.deepStrictEqual(result.structuredContent, { n: 3, name: "ada", point: { x: 1, y: 2 } })
    }))
})
