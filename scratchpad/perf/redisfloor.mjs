// The floor of one Redis round trip in a Node process: CPU (user, system) per sequential command, for ioredis
// (a GET, the session store's LOAD script by EVALSHA, the same through Effect.tryPromise) and for a hand-written
// RESP client over node:net. What a request of the Redis backend cannot avoid paying on top of the in-memory one.
//   node redisfloor.mjs [N]    (from scratchpad/perf, node_modules linked to packages/bench/node_modules)
import { createRequire } from "node:module"
import * as net from "node:net"
const require = createRequire(new URL("../../packages/bench/package.json", import.meta.url))
const { Redis } = require("ioredis")
const N = Number(process.argv[2] ?? 20000)
const redis = new Redis("redis://127.0.0.1:6379", { enableOfflineQueue: false, maxRetriesPerRequest: 0 })
await new Promise((r) => redis.once("ready", r))
const LOAD = `
local record = redis.call('GET', KEYS[1])
if not record then return false end
local ttl = tonumber(ARGV[2])
if ttl >= 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('ZADD', KEYS[2], 'XX', tonumber(ARGV[1]) + ttl, ARGV[3])
end
return record
`
redis.defineCommand("mcpLoad", { numberOfKeys: 2, lua: LOAD })
const key = `floor-${process.pid}`
await redis.set(`${key}:rec`, JSON.stringify({ protocolVersion: "2025-11-25", clientInfo: { name: "bench", version: "1.0.0" }, clientCapabilities: {}, logLevel: null, subscriptions: [], initialized: true }), "PX", 600000)
const measure = async (name, f) => {
  for (let i = 0; i < 3000; i++) await f()
  const c0 = process.cpuUsage()
  for (let i = 0; i < N; i++) await f()
  const c = process.cpuUsage(c0)
  console.log(`${name.padEnd(40)} ${((c.user + c.system) / N).toFixed(1)} µs/command (user ${(c.user / N).toFixed(1)}, system ${(c.system / N).toFixed(1)})`)
}
await measure("ioredis GET", () => redis.get(`${key}:rec`))
await measure("ioredis EVALSHA LOAD", () => redis.mcpLoad(`${key}:rec`, `${key}:z`, Date.now(), 1800000, "s"))
const { createHash } = await import("node:crypto")
const sha = createHash("sha1").update(LOAD).digest("hex")
await measure("ioredis evalsha (no Script wrapper)", () => redis.evalsha(sha, 2, `${key}:rec`, `${key}:z`, Date.now(), 1800000, "s"))
// hand-written: one write, one read per command
const sock = net.connect(6379, "127.0.0.1")
sock.setNoDelay(true)
await new Promise((r) => sock.once("connect", r))
let waiting
sock.on("data", () => { const w = waiting; waiting = undefined; w() })
const getCmd = `*2\r\n$3\r\nGET\r\n$${key.length + 4}\r\n${key}:rec\r\n`
await measure("raw RESP GET over node:net", () => new Promise((r) => { waiting = r; sock.write(getCmd) }))
sock.destroy()
await redis.del(`${key}:rec`)
redis.disconnect()
