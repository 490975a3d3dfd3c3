/**
 * What a server publishes for a schema carries only what its author wrote:
 * the constraints (`minLength`, `minimum`, `type: "integer"`, `enum`) and the
 * author's own `title` / `description`, never a title or description made up
 * from a check (Effect 3 published `"title":"minLength(1)"`, `"title":"int"`,
 * `"title":"between(1, 50)"`, `"title":"unknown"`), checked on the wire:
 * `tools/list`, `prompts/list` and an elicitation's `requestedSchema`. And an
 * elicitation answer that does not match names the field, the type it expected
 * and what came (`confirm: Expected boolean, actual "yes"`), not the field's
 * title in place of its type, in both eras.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import { assertWireValid, buildServer, connect, parsed, requests, responseTo } from "./utils/wire.js"

const textOf = (result: McpClient.CallToolResult) => (result.content[0] as McpSchema.TextContent).text

/** Every `title` / `description` value anywhere in a JSON value. */
const labels = (json: unknown): Array<string> =>
  Array.from(JSON.stringify(json).matchAll(/"(?:title|description)":("(?:[^"\\]|\\.)*")/g), (m) => JSON.parse(m[1]!) as string)

const Search = McpServer.tool({
  name: "search",
  description: "Searches the notes",
  parameters: Schema.Struct({
    query: Schema.String.check(Schema.isMinLength(1)),
    name: Schema.NonEmptyString,
    limit: Schema.Number.check(Schema.isBetween({ minimum: 1, maximum: 50 })),
    page: Schema.Int,
    mode: Schema.Literals(["fast", "exact"]),
    tag: Schema.optional(Schema.String),
    id: Schema.String.pipe(Schema.brand("NoteId")),
    meta: Schema.Unknown,
    depth: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5 })).annotate({ title: "Depth", description: "how deep" })
  }),
  handler: () => Effect.succeed("ok")
})

const Confirm = Schema.Struct({
  confirm: Schema.Boolean.annotate({ title: "Delete it?" }),
  count: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 5 })).annotate({ title: "How many" })
})

const Delete = McpServer.tool({
  name: "delete",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const answer = yield* ctx.elicit({ message: "Sure?", schema: Confirm })
      return JSON.stringify(answer)
    }).pipe(Effect.catchTag("ProtocolError", (e) => Effect.succeed(`${e.reason}: ${e.message}`)))
})

describe("published schemas", () => {
  it.live("tools/list carries the constraints and the author's annotations only", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Search))
      const { client, pair } = yield* connect(server)
      yield* client.listToolsAll()
      const [list] = requests(pair.wire, "client", "tools/list")
      const tools = (responseTo(pair.wire, "server", list.id)?.result as { tools: ReadonlyArray<McpSchema.Tool> }).tools
      assert.deepStrictEqual(tools[0]!.inputSchema, {
        type: "object",
        required: ["query", "name", "limit", "page", "mode", "id", "meta", "depth"],
        properties: {
          query: { type: "string", minLength: 1 },
          name: { type: "string", minLength: 1 },
          limit: { type: "number", minimum: 1, maximum: 50 },
          page: { type: "integer" },
          mode: { type: "string", enum: ["fast", "exact"] },
          tag: { type: "string" },
          id: { type: "string" },
          meta: {},
          depth: { type: "integer", description: "how deep", title: "Depth", minimum: 1, maximum: 5 }
        },
        additionalProperties: false
      })
      assert.deepStrictEqual(labels(tools), ["Searches the notes", "how deep", "Depth"])
      assertWireValid(pair.wire)
    }))

  for (const era of ["2025", "2026-07-28"] as const) {
    it.live(`${era}: an elicitation's requestedSchema keeps the author's titles; a wrong answer names the field and its type`, () =>
      Effect.gen(function*() {
        const server = yield* buildServer(McpServer.register(Delete))
        const answers: Array<McpSchema.ElicitResult> = [
          { action: "accept", content: { confirm: "yes", count: 9 } },
          { action: "accept", content: { confirm: true, count: 2 } }
        ]
        const seen: Array<McpSchema.ElicitRequestFormParams> = []
        const { client, pair } = yield* connect(server, {
          client: {
            era,
            elicitation: { form: (params) => Effect.sync(() => (seen.push(params), answers.shift()!)) }
          }
        })
        assert.strictEqual(
          textOf(yield* client.callTool("delete")),
          `InvalidResult: The accepted form does not match the requested schema: ` +
            `confirm: Expected boolean, actual "yes"; count: Expected a number between 1 and 5, actual 9`
        )
        assert.strictEqual(textOf(yield* client.callTool("delete")), JSON.stringify({ confirm: true, count: 2 }))
        const requested: McpSchema.ElicitRequestedSchema = {
          type: "object",
          properties: {
            confirm: { type: "boolean", title: "Delete it?" },
            count: { type: "integer", minimum: 1, maximum: 5, title: "How many" }
          },
          required: ["confirm", "count"]
        }
        assert.deepStrictEqual(seen.map((p) => p.requestedSchema), [requested, requested])
        if (era === "2025") {
          const [elicit] = requests(pair.wire, "server", "elicitation/create")
          assert.deepStrictEqual((elicit.params as McpSchema.ElicitRequestFormParams).requestedSchema, requested)
          assertWireValid(pair.wire)
        } else {
          // 2026: the question travels in an InputRequiredResult, not a server request
          assert.strictEqual(requests(pair.wire, "server", "elicitation/create").length, 0)
          const asked = parsed(pair.wire).flatMap(({ from, message }) => {
            const inputRequests = from === "server" ? (message as { result?: { inputRequests?: object } }).result?.inputRequests : undefined
            return Object.values(inputRequests ?? {}) as Array<{ params: McpSchema.ElicitRequestFormParams }>
          })
          assert.deepStrictEqual(asked.map((r) => r.params.requestedSchema), [requested, requested])
        }
      }))
  }

  it.live("invalid tool arguments name the field, the type expected and the value, never the field's title", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Search))
      const { client } = yield* connect(server)
      const result = yield* client.callTool("search", {
        query: "",
        name: "n",
        limit: 0,
        page: 1.5,
        mode: "fast",
        id: "1",
        meta: null,
        depth: "deep"
      })
      assert.isTrue(result.isError)
      assert.strictEqual(
        textOf(result),
        `Invalid arguments for tool search: query: Expected a non empty string, actual ""; ` +
          `limit: Expected a number between 1 and 50, actual 0; page: Expected an integer, actual 1.5; ` +
          `depth: Expected number, actual "deep"`
      )
    }))
})
