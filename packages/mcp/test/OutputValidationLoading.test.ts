/**
 * The client's output-schema check loads its validator (`internal/jsonSchemaValidator.ts`) by a
 * dynamic `import()` when the first output schema is listed (`internal/client/outputValidation.ts`):
 * until `ready` has run, a result of that tool is refused (never taken unchecked), and after it the
 * schema is applied; tools listed once the module is loaded are compiled at once. A file of its own,
 * so that the module is not loaded yet when it starts (vitest isolates each file's modules).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import * as OutputValidation from "../src/internal/client/outputValidation.js"

const tool = (name: string): McpSchema.Tool => ({
  name,
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }
})
const result = (structuredContent: { readonly [key: string]: unknown }): McpSchema.CallToolResult => ({
  content: [],
  structuredContent
})
const failure = (r: Result.Result<McpClient.CallToolResult, { readonly message: string }>) =>
  Result.isFailure(r) ? r.failure.message : undefined

describe("output validation: the validator loaded on first need", () => {
  it.effect("refused while loading, checked once ready, at once for tools listed after", () =>
    Effect.gen(function*() {
      const outputs = OutputValidation.make()
      outputs.remember([tool("a")])
      assert.include(failure(outputs.checkEither("a", result({ n: 1 }))), "still loading")
      yield* outputs.ready
      assert.isUndefined(failure(outputs.checkEither("a", result({ n: 1 }))))
      assert.include(failure(outputs.checkEither("a", result({ n: "1" }))), "does not match its output schema")
      // loaded now: another client's tools are compiled as they are remembered, ready has nothing to wait for
      const other = OutputValidation.make()
      other.remember([tool("b")])
      assert.include(failure(other.checkEither("b", result({}))), "#")
      assert.isUndefined(failure(other.checkEither("b", result({ n: 2 }))))
      // a tool listed again without an output schema is no longer checked
      other.remember([{ name: "b", inputSchema: { type: "object" } }])
      assert.isUndefined(failure(other.checkEither("b", result({}))))
    }))
})
