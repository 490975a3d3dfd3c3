/**
 * The Redis configuration of `pnpm bench` (`BENCH_ONLY=redis`): what the Redis backend
 * (`@effect-mcp/redis`) costs next to one in-memory process. Sequential `tools/call`s of our
 * client (2025-11-25 sessions) through a round-robin proxy in front of 1 or 3 instances, each its
 * own process (`serverRedis.ts`), JSON answers and SSE answers with the event store (in memory, or
 * on Redis). Per call: calls/s, the instances' CPU (all of them), Redis's own CPU (`INFO cpu`; a
 * Redis shared with other work makes it noisy) and the Redis commands the instances sent.
 * Skipped, with a line saying so, when no Redis answers at `REDIS_URL`.
 *
 * @since 0.1.0
 */
import { type ChildProcess, fork } from "node:child_process"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Redis } from "ioredis"

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

interface Config {
  readonly name: string
  readonly backend: "memory" | "redis"
  readonly instances: number
  readonly json: boolean
}

const CONFIGS: ReadonlyArray<Config> = [
  { name: "in-memory, 1 instance, JSON", backend: "memory", instances: 1, json: true },
  { name: "Redis, 1 instance, JSON", backend: "redis", instances: 1, json: true },
  { name: "Redis, 3 instances, JSON", backend: "redis", instances: 3, json: true },
  { name: "in-memory, 3 instances (a session each), JSON", backend: "memory", instances: 3, json: true },
  { name: "in-memory, 1 instance, SSE + event store", backend: "memory", instances: 1, json: false },
  { name: "Redis, 1 instance, SSE + event store", backend: "redis", instances: 1, json: false },
  { name: "Redis, 3 instances, SSE + event store", backend: "redis", instances: 3, json: false },
  { name: "in-memory, 3 instances (a session each), SSE + event store", backend: "memory", instances: 3, json: false }
]

interface Instance {
  readonly child: ChildProcess
  readonly port: number
  readonly stats: () => Promise<{ readonly cpuUs: number; readonly commands: number }>
}

const start = (dir: string, config: Config, prefix: string, id: string): Promise<Instance> =>
  new Promise((resolve, reject) => {
    const args = config.backend === "redis" ? ["redis", REDIS_URL, prefix, id] : ["memory"]
    const child = fork(path.join(dir, "serverRedis.js"), [...args, ...(config.json ? ["--json"] : [])], {
      stdio: ["ignore", "pipe", "inherit", "ipc"]
    })
    let out = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const match = /LISTENING (\d+)/.exec(out)
      if (match !== null) {
        resolve({
          child,
          port: Number(match[1]),
          stats: () =>
            new Promise((answered) => {
              child.once("message", (m) => answered(m as { cpuUs: number; commands: number }))
              child.send("stats")
            })
        })
      }
    })
    child.once("exit", (code) => reject(new Error(`bench instance ${id} exited (${code})`)))
  })

/** A round-robin proxy: each request to the next instance, no stickiness. */
const proxy = (ports: ReadonlyArray<number>): Promise<{ readonly url: string; readonly close: () => void }> =>
  new Promise((resolve) => {
    let next = 0
    const agent = new http.Agent({ keepAlive: true })
    const server = http.createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const upstream = http.request(
          { host: "127.0.0.1", port: ports[next++ % ports.length], path: req.url, method: req.method, headers: req.headers, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          }
        )
        upstream.on("error", () => res.destroy())
        res.on("close", () => upstream.destroy())
        upstream.end(Buffer.concat(chunks))
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
        close: () => {
          server.closeAllConnections()
          server.close()
          agent.destroy()
        }
      }))
  })

const withRedis = async <A>(f: (redis: Redis) => Promise<A>): Promise<A> => {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    return await f(redis)
  } finally {
    redis.disconnect()
  }
}

const redisCpuSeconds = () =>
  withRedis(async (redis) => {
    const info = await redis.info("cpu")
    const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0)
    return field("used_cpu_user") + field("used_cpu_sys")
  })

const dropKeys = (prefix: string) =>
  withRedis(async (redis) => {
    let cursor = "0"
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000)
      cursor = next
      if (keys.length > 0) await redis.del(...keys)
    } while (cursor !== "0")
  })

export interface Row {
  readonly config: string
  readonly callsPerSecond: number
  readonly serverCpuUs: number
  readonly redisCpuUs: number | undefined
  readonly commands: number | undefined
}

/**
 * Sequential calls of our client through the proxy: warm-up (`warmup` per instance), then `calls`
 * measured. In memory, instances share nothing: 3 instances are 3 sessions, one on each (each
 * through a proxy of its own), called in turn, so the calls are spread over processes as the Redis
 * fleet's are (the cost of spreading, without the backend's).
 */
const runConfig = async (dir: string, config: Config, warmup: number, calls: number): Promise<Row> => {
  const prefix = `mcp-bench-${Math.random().toString(16).slice(2, 10)}`
  const instances = await Promise.all(Array.from({ length: config.instances }, (_, i) => start(dir, config, prefix, `b${i}`)))
  const fronts = await Promise.all(
    config.backend === "redis" ? [proxy(instances.map((i) => i.port))] : instances.map((i) => proxy([i.port]))
  )
  try {
    return await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const clients: Array<McpClient.McpClientShape> = []
      for (const front of fronts) {
        const context = yield* Layer.build(
          McpClient.layer({ name: "bench", version: "1.0.0", era: "2025" }).pipe(
            Layer.provide(NodeStreamableHttpClient.layer({ url: front.url }))
          )
        )
        clients.push(yield* McpClient.McpClient.pipe(Effect.provide(context)))
      }
      const client = (i: number) => clients[i % clients.length]!
      // round-robin spreads the warm-up: every instance gets `warmup` calls, so each is measured at
      // its steady state (as one instance is), not while its JIT still compiles
      for (let i = 0; i < warmup * config.instances; i++) yield* client(i).callTool("echo", { text: "warm" })
      const before = yield* Effect.promise(() => Promise.all(instances.map((i) => i.stats())))
      const redis0 = config.backend === "redis" ? yield* Effect.promise(redisCpuSeconds) : 0
      const t0 = performance.now()
      for (let i = 0; i < calls; i++) yield* client(i).callTool("echo", { text: `${i}` })
      const ms = performance.now() - t0
      const redis1 = config.backend === "redis" ? yield* Effect.promise(redisCpuSeconds) : 0
      const after = yield* Effect.promise(() => Promise.all(instances.map((i) => i.stats())))
      const sum = (f: (s: { cpuUs: number; commands: number }) => number) =>
        after.reduce((n, s, i) => n + f(s) - f(before[i]!), 0)
      return {
        config: config.name,
        callsPerSecond: Math.round(calls / (ms / 1000)),
        serverCpuUs: Math.round(sum((s) => s.cpuUs) / calls),
        redisCpuUs: config.backend === "redis" ? Math.round(((redis1 - redis0) * 1e6) / calls) : undefined,
        commands: config.backend === "redis" ? Number((sum((s) => s.commands) / calls).toFixed(2)) : undefined
      }
    })))
  } finally {
    for (const front of fronts) front.close()
    for (const i of instances) i.child.kill("SIGKILL")
    if (config.backend === "redis") await dropKeys(prefix).catch(() => {})
  }
}

const reachable = () => withRedis((redis) => redis.ping()).then(() => true, () => false)

/**
 * Runs every configuration in turn (`rounds` times each, medians) and returns the section's
 * markdown: the table, each Redis row's server CPU next to the in-memory row of its mode.
 */
export const runRedisBench = async (
  dir: string,
  options: { readonly warmup: number; readonly calls: number; readonly rounds: number }
): Promise<string> => {
  if (!(await reachable())) {
    const line = `skipped: no Redis answers at ${REDIS_URL} (set REDIS_URL)`
    process.stdout.write(`[redis] ${line}\n`)
    return `${line}\n`
  }
  const rounds: Array<Array<Row>> = []
  for (let round = 1; round <= options.rounds; round++) {
    const rows: Array<Row> = []
    for (const config of CONFIGS) {
      const t0 = Date.now()
      const row = await runConfig(dir, config, options.warmup, options.calls)
      rows.push(row)
      process.stdout.write(
        `[redis r${round}] ${config.name.padEnd(40)} ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)} s  ` +
          `${row.callsPerSecond} calls/s, ${row.serverCpuUs} µs server CPU/call, ${row.commands ?? "-"} commands/call\n`
      )
    }
    rounds.push(rows)
  }
  const med = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!
  const rows: Array<Row> = CONFIGS.map((config, c) => {
    const of = rounds.map((r) => r[c]!)
    return {
      config: config.name,
      callsPerSecond: med(of.map((r) => r.callsPerSecond)),
      serverCpuUs: med(of.map((r) => r.serverCpuUs)),
      redisCpuUs: of[0]!.redisCpuUs === undefined ? undefined : med(of.map((r) => r.redisCpuUs!)),
      commands: of[0]!.commands === undefined ? undefined : med(of.map((r) => r.commands!))
    }
  })
  // each Redis row against the in-memory row of its mode and process count
  const baseOf = (config: Config) =>
    rows[CONFIGS.findIndex((c) => c.backend === "memory" && c.json === config.json && c.instances === config.instances)]!
  const oneOf = (config: Config) => rows[CONFIGS.findIndex((c) => c.backend === "memory" && c.json === config.json && c.instances === 1)]!
  const ratioOf = (i: number) => rows[i]!.serverCpuUs / baseOf(CONFIGS[i]!).serverCpuUs
  const lines = [
    "| configuration | calls/s | server CPU µs/call (all instances) | × in-memory, as many instances | × in-memory, 1 instance | Redis CPU µs/call | Redis commands/call |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((row, i) => {
      const config = CONFIGS[i]!
      const ratio = config.backend === "memory" ? "–" : ratioOf(i).toFixed(2)
      const one = (row.serverCpuUs / oneOf(config).serverCpuUs).toFixed(2)
      return `| ${row.config} | ${row.callsPerSecond} | ${row.serverCpuUs} | ${ratio} | ${one} | ${row.redisCpuUs ?? "–"} | ${row.commands ?? "–"} |`
    })
  ]
  const worst = Math.max(...rows.map((_, i) => (CONFIGS[i]!.backend === "memory" ? 0 : ratioOf(i))))
  const target = `- ${worst <= 2 ? "met" : "MISSED"}: the Redis backend's server CPU per call is at most 2× the in-memory servers' on as many processes (worst ${worst.toFixed(2)}×)`
  return [
    `- ${options.calls} sequential calls after ${options.warmup} warm-up calls per instance, ${options.rounds} round(s), medians; our client, 2025-11-25 sessions, through a round-robin proxy`,
    "",
    lines.join("\n"),
    "",
    "### Targets (Redis backend)",
    "",
    target,
    ""
  ].join("\n")
}
