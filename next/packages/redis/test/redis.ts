/**
 * Tests that need a real Redis: `REDIS_URL` (default redis://127.0.0.1:6379).
 * None reachable: they are skipped with a notice on stderr, unless
 * `MCP_REQUIRE_REDIS=1` (CI), which makes them fail instead. Each test uses
 * a key prefix of its own (so files run in parallel) and deletes its keys.
 */
import * as net from "node:net"
import { describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Redis } from "ioredis"

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

/** Whether something answers PING at `url` within a second. */
export const ping = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = net.connect({ host: hostname, port: Number(port || 6379) })
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.on("error", () => done(false))
    socket.on("connect", () => socket.write("PING\r\n"))
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")))
  })

const reachable = await ping(REDIS_URL)
const required = process.env.MCP_REQUIRE_REDIS === "1"

/** `describe` for tests that need Redis: skipped with a notice when none answers, failed when it is required. */
export const describeRedis = (name: string, body: () => void) => {
  if (reachable) return describe(name, body)
  if (required) {
    return describe(name, () => {
      it("needs Redis", () => {
        throw new Error(`MCP_REQUIRE_REDIS=1 but no Redis answers at ${REDIS_URL}`)
      })
    })
  }
  process.stderr.write(`\n[redis] SKIPPED "${name}": no Redis answers at ${REDIS_URL} (set REDIS_URL, or MCP_REQUIRE_REDIS=1 to fail)\n`)
  return describe.skip(name, body)
}

/** A key prefix of the test's own; its keys are deleted when the scope closes. */
export const testPrefix = Effect.acquireRelease(
  Effect.sync(() => `mcp-test-${crypto.randomUUID().slice(0, 8)}`),
  (prefix) =>
    Effect.promise(async () => {
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
      try {
        await redis.connect()
        let cursor = "0"
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000)
          cursor = next
          if (keys.length > 0) await redis.del(...keys)
        } while (cursor !== "0")
      } catch {
        // nothing to clean when Redis is gone
      } finally {
        redis.disconnect()
      }
    })
)

/** The keys under a prefix (for assertions). */
export const keysUnder = (prefix: string) =>
  Effect.promise(async () => {
    const redis = new Redis(REDIS_URL)
    try {
      return await redis.keys(`${prefix}:*`)
    } finally {
      redis.disconnect()
    }
  })
