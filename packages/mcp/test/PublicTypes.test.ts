/**
 * What the public declarations carry: no speed hook of the SDK's own (they are on internal
 * interfaces that extend the public ones), and nothing `stripInternal` would cut by mistake.
 * The type assertions fail `pnpm check` (which type-checks the tests) when a hook is public again.
 */
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import * as Headers from "effect/http/Headers"
import type * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpServerModule from "@effect-mcp/mcp/McpServer"
import type * as Protocol from "@effect-mcp/mcp/Protocol"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import type * as Transport from "@effect-mcp/mcp/Transport"
import { ElicitationDeclined, HandlerContext, type ReverseCallError } from "@effect-mcp/mcp/HandlerContext"
import type { ErrorResponse, McpError, ProtocolError } from "@effect-mcp/mcp/McpError"
import * as McpTool from "@effect-mcp/mcp/McpTool"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Exit from "effect/Exit"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Answered from "../src/internal/answered.js"

/** Whether `K` is a key of `T`. */
type Has<T, K extends PropertyKey> = K extends keyof T ? true : false

describe("public types", () => {
  it("carry no speed hook", () => {
    expectTypeOf<Has<Protocol.RequestOptions, "checkResult">>().toEqualTypeOf<false>()
    expectTypeOf<Has<Protocol.Protocol, "runningNow">>().toEqualTypeOf<false>()
    expectTypeOf<Has<McpServer.ServerConnection, "runningNow">>().toEqualTypeOf<false>()
    expectTypeOf<Has<Transport.SessionLoss, "listen">>().toEqualTypeOf<false>()
    // `provide(effect, context)`: no `base`
    expectTypeOf<Parameters<Protocol.IncomingRequest["provide"]>["length"]>().toEqualTypeOf<2>()
  })

  it("no module's first comment says @internal (with stripInternal it would strip the module's first statement)", () => {
    const root = path.resolve(import.meta.dirname, "../..")
    const offenders: Array<string> = []
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (file.endsWith(".ts")) {
          // everything before the first statement is the first statement's leading comments
          const text = fs.readFileSync(file, "utf8")
          const head = text.slice(0, text.search(/^(import|export|const|let|type|interface|class|declare|function)\b/m))
          if (head.includes("@internal")) offenders.push(path.relative(root, file))
        }
      }
    }
    for (const pkg of ["mcp", "node", "redis"]) walk(path.join(root, pkg, "src"))
    assert.deepStrictEqual(offenders, [])
  })
})

class Rejected extends Schema.TaggedError<Rejected>()("Rejected", { message: Schema.String }) {}
class Unrelated extends Schema.TaggedError<Unrelated>()("Unrelated", { message: Schema.String }) {}

const Declared = McpTool.make({ name: "declared", success: Schema.String, failure: Rejected })
const Undeclared = McpTool.make({ name: "undeclared", success: Schema.String })

describe("a declared tool failure", () => {
  it("keeps the reverse calls' errors in the handler's error channel, and nothing else besides", () => {
    expectTypeOf<McpServer.ToolHandlerError<typeof Declared>>().toEqualTypeOf<
      Rejected | ErrorResponse | McpError | ProtocolError | ElicitationDeclined
    >()
    expectTypeOf<ReverseCallError>().toEqualTypeOf<McpError | ProtocolError | ElicitationDeclined>()
    // without a failure: anything
    expectTypeOf<McpServer.ToolHandlerError<typeof Undeclared>>().toEqualTypeOf<unknown>()
    // a handler that lets ctx.sample, ctx.elicit and ctx.listRoots fail through, beside its own failure
    McpServerModule.toolHandler(Declared, () =>
      Effect.gen(function*() {
        const ctx = yield* HandlerContext
        const answer = yield* ctx.sample({ messages: [], maxTokens: 1 })
        const { ok } = yield* ctx.elicit({ message: "ok?", schema: Schema.Struct({ ok: Schema.Boolean }) })
        const { roots } = yield* ctx.listRoots()
        if (!ok) return yield* Effect.fail(new Rejected({ message: "not ok" }))
        return `${answer.model} ${roots.length}`
      }))
    // @ts-expect-error an error of the handler's own that the declaration does not name
    McpServerModule.toolHandler(Declared, () => Effect.fail(new Unrelated({ message: "x" })))
  })
})

describe("Answered", () => {
  it("is an effect that is its outcome already: now, Exit.fail (on Effect 4 Effect.fail too); not an effect to run", () => {
    const answered = Answered.now(1)
    assert.isTrue(Exit.isExit(answered) && Exit.isSuccess(answered) && answered.value === 1)
    assert.strictEqual(Effect.runSync(answered), 1)
    assert.isTrue(Answered.is(answered) && Answered.isSuccess(answered))
    assert.isTrue(Answered.is(Effect.succeed("a user's handler")))
    assert.isTrue(Answered.is(Exit.fail("no")))
    assert.isFalse(Answered.isSuccess(Exit.fail("no")))
    // Effect 4: `Effect.fail` is an `Exit` as `Effect.succeed` is
    assert.isTrue(Answered.is(Effect.fail("no")) && !Answered.isSuccess(Effect.fail("no")))
    assert.isFalse(Answered.is(Effect.sync(() => 1)))
    assert.isFalse(Answered.is(Effect.map(Answered.now(1), (n) => n + 1)))
    assert.isTrue(Answered.isSuccess(Answered.done))
  })

  it.effect("respond answers as it is asked what needs nothing to run (a refusal, a GET without a session)", () =>
    Effect.gen(function*() {
      const server = yield* McpServerModule.make({ name: "answered", version: "1.0.0" })
      const endpoint = yield* StreamableHttpServer.make({ dnsRebindingProtection: false }).pipe(
        Effect.provideService(McpServerModule.McpServer, server)
      )
      const ask = (method: string, headers: Record<string, string>) =>
        endpoint.respond({ method, headers: Headers.fromInput(headers), arrayBuffer: StreamableHttpServer.answered(new Uint8Array(0)) })
      const put = ask("PUT", {})
      assert.isTrue(StreamableHttpServer.isAnswered(put))
      if (StreamableHttpServer.isAnswered(put)) assert.strictEqual(put.value.status, 405)
      const get = ask("GET", { accept: "text/event-stream" })
      assert.isTrue(StreamableHttpServer.isAnswered(get))
      if (StreamableHttpServer.isAnswered(get)) assert.strictEqual(get.value.status, 400)
      // a body in hand that cannot be parsed: refused with no fiber either
      const post = ask("POST", { "content-type": "application/json", accept: "application/json, text/event-stream" })
      assert.isTrue(StreamableHttpServer.isAnswered(post))
      if (StreamableHttpServer.isAnswered(post)) assert.strictEqual(post.value.status, 400)
    }))
})
