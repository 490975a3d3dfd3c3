/**
 * `StreamableHttpServer.directBody`, the fast path a listener takes for the endpoint's SSE bodies
 * (written as their events come), against the slow path (the response's `Stream`, as the
 * platform's own server reads it): the same call streamed by the node listener and by the
 * endpoint as an `HttpApp` gives the same bytes.
 */
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { headers, INIT, rawRequest, startPlatform, startServer } from "./httpUtil.js"

/** Reports progress three times, a pause between, then answers: its answer is a stream. */
const Talks = McpServer.tool({
  name: "talks",
  handler: () =>
    Effect.flatMap(HandlerContext, (ctx) =>
      Effect.forEach([1, 2, 3], (i) => Effect.andThen(ctx.progress(i, { total: 3, message: `step ${i}` }), Effect.sleep("20 millis")))).pipe(
        Effect.as("talked")
      )
})

const features = McpServer.register(Talks)

/** A session opened on `url`, then one streamed `tools/call`: the call's status, content type and body text. */
const streamedCall = (url: string) =>
  Effect.gen(function*() {
    const init = yield* rawRequest(url, { method: "POST", headers: headers(), body: JSON.stringify(INIT) })
    const session = { "mcp-session-id": init.headers["mcp-session-id"] as string, "mcp-protocol-version": "2025-11-25" }
    yield* rawRequest(url, { method: "POST", headers: headers(session), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "talks", arguments: {}, _meta: { progressToken: "p" } } }
    return yield* rawRequest(url, { method: "POST", headers: headers(session), body: JSON.stringify(call) })
  })

describe("StreamableHttpServer.directBody", () => {
  it("is undefined for a body that is not one of the endpoint's", () => {
    assert.isUndefined(StreamableHttpServer.directBody(Stream.make(new Uint8Array([1]))))
  })

  it.live("the node listener (direct body) and the platform's server (the Stream) send the same bytes", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(features)
      const platform = yield* startPlatform(features)
      const direct = yield* streamedCall(url)
      const streamed = yield* streamedCall(platform)
      for (const answer of [direct, streamed]) {
        assert.strictEqual(answer.status, 200)
        assert.include(answer.headers["content-type"], "text/event-stream")
      }
      // the progress came first: both were streamed, not whole bodies
      assert.include(direct.text, "step 3")
      assert.isBelow(direct.text.indexOf("step 1"), direct.text.indexOf("talked"))
      assert.strictEqual(direct.text, streamed.text)
    }), 20_000)
})
