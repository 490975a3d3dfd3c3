import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Schema from "effect/Schema"
import * as http from "node:http"
import { headers, INIT, initialize, startServer } from "./httpUtil.js"

/**
 * The fibers started under `supervised` that are still alive (Effect 3's `Supervisor.track`, which
 * Effect 4 does not have): its runtime-metrics hook sees every fiber that starts and ends with the
 * region's context, children and fibers run with a captured context (the node listener's) alike.
 */
const trackFibers = Effect.sync(() => {
  let alive = 0
  const metrics: Metric.FiberRuntimeMetricsService = {
    recordFiberStart: () => {
      alive++
    },
    recordFiberEnd: () => {
      alive--
    }
  }
  return {
    alive: Effect.sync(() => alive),
    supervised: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provideService(effect, Metric.FiberRuntimeMetrics, metrics)
  }
})

const Ask = McpServer.tool({
  name: "ask",
  description: "samples the client's model, then asks the user",
  parameters: Schema.Struct({ q: Schema.String }),
  handler: ({ q }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      yield* ctx.progress(1, { total: 2 })
      const answer = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: q } }], maxTokens: 5 })
      const confirmed = yield* ctx.elicit({
        message: "ok?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } }
      })
      yield* ctx.progress(2, { total: 2 })
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
      return `${content?.type === "text" ? content.text : ""} / ${confirmed.action}`
    })
})

const connect = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "official", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } })
      client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: "assistant",
        model: "m",
        content: { type: "text", text: "sampled" }
      }))
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { ok: true } }))
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

describe("the official SDK client against our streamable HTTP server", () => {
  for (const mode of [{ name: "SSE", options: {} }, { name: "JSON", options: { jsonResponse: true } }, { name: "event store", options: { eventStore: true } }]) {
    it.live(`lists, calls with progress, and answers reverse calls by POST (${mode.name})`, () =>
      Effect.gen(function*() {
        const { url } = yield* startServer(McpServer.register(Ask), mode.options)
        const client = yield* connect(url)
        const tools = yield* Effect.promise(() => client.listTools())
        assert.deepStrictEqual(tools.tools.map((t) => t.name), ["ask"])
        const progress: Array<number> = []
        const result = yield* Effect.promise(() =>
          client.callTool({ name: "ask", arguments: { q: "hi" } }, undefined, { onprogress: (p) => progress.push(p.progress) })
        )
        assert.deepStrictEqual(result.content, [{ type: "text", text: "sampled / accept" }])
        assert.deepStrictEqual(progress, [1, 2])
      }))
  }
})

describe("session lifecycle", () => {
  it.live("1,000 sessions opened and deleted leave no fiber behind", () =>
    Effect.gen(function*() {
      const supervisor = yield* trackFibers
      yield* Effect.scoped(Effect.gen(function*() {
        const { mcp, url } = yield* startServer(McpServer.register(Ask))
        const ids = yield* Effect.forEach(Array.from({ length: 1000 }), () =>
          Effect.promise(async () => {
            const response = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(INIT) })
            await response.text()
            return response.headers.get("mcp-session-id")!
          }), { concurrency: 50 })
        assert.strictEqual(new Set(ids).size, 1000)
        assert.strictEqual(yield* mcp.sessionCount, 1000)
        yield* Effect.forEach(ids, (id) =>
          Effect.promise(async () => {
            const response = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": id } })
            assert.strictEqual(response.status, 200)
          }), { concurrency: 50 })
        assert.strictEqual(yield* mcp.sessionCount, 0)
        yield* Effect.sleep(50)
        // only the server's own fibers remain while it runs: the listener and the idle sweeper
        const alive = (yield* supervisor.alive)
        assert.isBelow(alive, 10, `fibers alive with no session: ${alive}`)
      })).pipe(supervisor.supervised)
      yield* Effect.sleep(50)
      assert.strictEqual((yield* supervisor.alive), 0)
    }), 60_000)

  // an idle session keeps no fiber: its engine is handed its frames by the POST that received them
  // (no read loop) and the node listener writes a standing stream as its events are offered (no
  // writer fiber). `packages/bench/test/budgets.test.ts` pins the same number with an op counter.
  it.live("an idle session with its standing stream open keeps no fiber; the stream is written and released", () =>
    Effect.gen(function*() {
      const supervisor = yield* trackFibers
      yield* Effect.scoped(Effect.gen(function*() {
        const { mcp, url } = yield* startServer(McpServer.register(Ask), { keepAlive: "100 millis" })
        yield* Effect.sleep(50)
        const before = (yield* supervisor.alive)
        const n = 40
        const ids = yield* Effect.forEach(Array.from({ length: n }), () => initialize(url), { concurrency: 10 })
        const streams = yield* Effect.forEach(ids, (id) =>
          Effect.callback<{ readonly request: http.ClientRequest; readonly received: () => string }>((resume) => {
            let text = ""
            const request = http.request(url, {
              method: "GET",
              headers: { accept: "text/event-stream", "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" }
            }, (response) => {
              assert.strictEqual(response.statusCode, 200)
              response.setEncoding("utf8")
              response.on("data", (chunk: string) => (text += chunk))
              resume(Effect.succeed({ request, received: () => text }))
            })
            request.on("error", () => {})
            request.end()
          }))
        yield* Effect.sleep(300)
        // the last requests' fibers may still be ending on a loaded machine: wait for them, bounded
        for (let i = 0; i < 100 && (yield* supervisor.alive) > before; i++) yield* Effect.sleep(20)
        const open = (yield* supervisor.alive) - before
        assert.strictEqual(open, 0, `fibers for ${n} idle sessions with their standing stream open: ${open}`)
        for (const stream of streams) assert.include(stream.received(), ": keep-alive")
        // the client goes away: each writer ends and releases its stream, the sessions stay
        for (const stream of streams) stream.request.destroy()
        yield* Effect.sleep(200)
        for (let i = 0; i < 100 && (yield* supervisor.alive) > before; i++) yield* Effect.sleep(20)
        const after = (yield* supervisor.alive) - before
        assert.strictEqual(after, 0, `fibers once the standing streams closed: ${after}`)
        assert.strictEqual(yield* mcp.sessionCount, n)
      })).pipe(supervisor.supervised)
    }), 60_000)
})
