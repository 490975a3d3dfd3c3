/**
 * "The maximum session count (`maxSessions`) and the idle timeout (`sessionIdleTimeout`) hold
 * across the fleet" (the README), on Redis, with instances as processes.
 */
import { assert, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { headers, INIT } from "../../../node/test/httpUtil.js"
import { startFleet } from "../fleet.js"
import { describeRedis, REDIS_URL, testPrefix } from "../redis.js"
import { sessionHeaders } from "./processes.js"

const MAX = 2
const IDLE_MS = 1_500

const initialize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(INIT) })
    const text = await response.text()
    return { status: response.status, sid: response.headers.get("mcp-session-id"), text }
  })

const ping = (url: string, sid: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: sessionHeaders(sid),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })
    })
    await response.text()
    return response.status
  })

describeRedis("the fleet's limits on Redis", () => {
  it.live("maxSessions counts the sessions of every instance; an idle session expires on all of them", () =>
    Effect.gen(function*() {
      const prefix = yield* testPrefix
      const instances = yield* startFleet(REDIS_URL, prefix, 2, { maxSessions: MAX, idleMs: IDLE_MS })
      const [a, b] = instances.map((i) => `http://127.0.0.1:${i.port}/mcp`) as [string, string]
      const first = yield* initialize(a)
      const second = yield* initialize(b)
      assert.deepStrictEqual([first.status, second.status], [200, 200])
      // the third, on either instance: over the fleet's maximum
      for (const url of [a, b]) {
        const refused = yield* initialize(url)
        assert.strictEqual(refused.status, 503)
        assert.include(JSON.parse(refused.text).error.message, "too many sessions")
      }
      // the second kept alive by requests on alternate instances, the first left idle
      const until = Date.now() + IDLE_MS + 1_000
      for (let k = 0; Date.now() < until; k++) {
        assert.strictEqual(yield* ping(k % 2 === 0 ? a : b, second.sid!), 200)
        yield* Effect.sleep("300 millis")
      }
      assert.strictEqual(yield* ping(a, first.sid!), 404)
      assert.strictEqual(yield* ping(b, first.sid!), 404)
      assert.strictEqual(yield* ping(b, second.sid!), 200)
      // its place is free again
      assert.strictEqual((yield* initialize(b)).status, 200)
    }), 30_000)
})
