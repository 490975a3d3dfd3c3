/**
 * A bench client, run as its own process so that its CPU is its own: connects
 * with one implementation (ours, official, floor) over one transport, runs the
 * phases it is given, and sends a report to the parent over IPC. The server's
 * side is read through its `stats` tool before and after each phase.
 *
 *   node bundle/client.js '<Spec as JSON>'
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as EffectAiMcpClient from "effect/ai/McpClient"
import * as EffectAiMcpProtocol from "effect/ai/McpProtocol"
import type * as EffectAiMcpSchema from "effect/ai/McpSchema"
import * as ChildProcess from "effect/process/ChildProcess"
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from "@modelcontextprotocol/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { spawn } from "node:child_process"
import * as http from "node:http"
import { performance } from "node:perf_hooks"
import {
  cpuBetween,
  ECHO_SUCCEED_TOOL,
  ECHO_TEXT,
  ECHO_TOOL,
  META_CAPABILITIES,
  META_CLIENT_INFO,
  META_VERSION,
  type ProcessStats,
  quantile,
  selfStats,
  V2026
} from "./common.js"

// ============================================================================
// the spec and the report
// ============================================================================

/**
 * `v2`: the official v2 SDK (`@modelcontextprotocol/client`, `@modelcontextprotocol/server`).
 * `effect-ai`: Effect 4's own `effect/ai/McpClient` / `McpServer` (stdio only).
 */
export type Impl = "ours" | "official" | "floor" | "v2" | "effect-ai"
/**
 * `store`: streamable HTTP with SSE answers, the server keeping events for resumption.
 * `2026`: streamable HTTP on the 2026-07-28 revision, stateless (every client pinned to it).
 */
export type TransportKind = "stdio" | "sse" | "json" | "store" | "2026"

/** `maxMs`: stop issuing calls after this long (the report counts the calls made). */
export type Phase =
  | { readonly kind: "warmup"; readonly n: number; readonly maxMs?: number | undefined; readonly tool?: string | undefined }
  | { readonly kind: "seq"; readonly n: number; readonly maxMs?: number | undefined }
  /** Sequential calls of the best-case echo (`ECHO_SUCCEED_TOOL`): the `seq` phase's measures. */
  | { readonly kind: "best"; readonly n: number; readonly maxMs?: number | undefined }
  | { readonly kind: "conc"; readonly n: number; readonly inflight: number; readonly maxMs?: number | undefined }
  | { readonly kind: "blob"; readonly n: number; readonly bytes: number }
  | { readonly kind: "leak"; readonly n: number; readonly inflight: number }
  | { readonly kind: "sessions"; readonly n: number }

export interface Spec {
  readonly impl: Impl
  readonly transport: TransportKind
  /** stdio: the server to spawn. */
  readonly server?: { readonly command: string; readonly args: ReadonlyArray<string> } | undefined
  /** HTTP: the endpoint. */
  readonly url?: string | undefined
  /** Raise the client's message limit to this (official stdio buffer, our SSE event size); default: the client's default. */
  readonly maxMessageBytes?: number | undefined
  readonly phases: ReadonlyArray<Phase>
  /** Ours: tracing on (`src/otel.ts`), every call made under the tracer. */
  readonly tracing?: boolean | undefined
}

export interface PhaseReport {
  readonly kind: Phase["kind"]
  readonly error?: string | undefined
  readonly calls: number
  readonly wallMs: number
  readonly clientCpuUs: number
  readonly serverCpuUs: number
  /** The part of each side's CPU that ran on its main thread. */
  readonly clientMainUs: number
  readonly serverMainUs: number
  readonly p50Ms?: number | undefined
  readonly p99Ms?: number | undefined
  /** Peak RSS of each process's life, read at the end of the phase. */
  readonly clientMaxRss: number
  readonly serverMaxRss: number
  /** The client's RSS (after GC) before the phase; the server's is in `serverBefore`. */
  readonly clientRssBefore: number
  /** After forced GC, before and after the phase. */
  readonly serverBefore: ProcessStats
  readonly serverAfter: ProcessStats
  /** sessions: time until every session answered one call at once. */
  readonly callAllMs?: number | undefined
}

export interface Report {
  readonly ok: boolean
  readonly error?: string | undefined
  readonly phases: ReadonlyArray<PhaseReport>
}

// ============================================================================
// drivers
// ============================================================================

interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
}

/** One connected session. */
interface Driver {
  readonly call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>
  /**
   * Up to `n` sequential echo calls (of `tool`, default `ECHO_TOOL`), until `deadline` (a
   * `performance.now()`); the latency of each in ms.
   */
  readonly seq: (n: number, deadline?: number, tool?: string) => Promise<Float64Array>
  /** Up to `n` echo calls with `inflight` outstanding, until `deadline`; resolves to the number of calls. */
  readonly conc: (n: number, inflight: number, deadline?: number, tool?: string) => Promise<number>
  readonly close: () => Promise<void>
}

/** Opens sessions of one kind. */
interface Connector {
  readonly connect: () => Promise<Driver>
  readonly dispose: () => Promise<void>
}

const ECHO_ARGS = { text: ECHO_TEXT }

const promiseSeq = (call: Driver["call"]) => async (n: number, deadline = Infinity, tool = ECHO_TOOL): Promise<Float64Array> => {
  const latencies = new Float64Array(n)
  let i = 0
  for (; i < n; i++) {
    const start = performance.now()
    if (start > deadline) break
    await call(tool, ECHO_ARGS)
    latencies[i] = performance.now() - start
  }
  return latencies.subarray(0, i)
}

const promiseConc = (call: Driver["call"]) => async (n: number, inflight: number, deadline = Infinity, tool = ECHO_TOOL): Promise<number> => {
  let issued = 0
  const worker = async () => {
    while (issued < n && performance.now() <= deadline) {
      issued++
      await call(tool, ECHO_ARGS)
    }
  }
  await Promise.all(Array.from({ length: Math.min(inflight, n) }, worker))
  return issued
}

// ---------------------------------------------------------------- ours

const oursConnector = (spec: Spec): Connector => {
  let shared: Context.Context<HttpClient.HttpClient> | undefined
  const sharedScope = Effect.runSync(Scope.make())
  const httpContext = async () => {
    shared ??= await Effect.runPromise(Layer.buildWithScope(NodeStreamableHttpClient.layerHttpClient, sharedScope))
    return shared
  }
  // the 2025-era configurations pin the 2025 path (the default, auto, would speak 2026 to our server)
  const options = { name: "bench-ours", version: "1.0.0", era: spec.transport === "2026" ? "2026-07-28" as const : "2025" as const }
  // tracing on: the tracer and the metrics built once, every call run under them (loaded only then)
  let traced: Context.Context<never> | undefined
  const around = async (): Promise<<A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>> => {
    if (spec.tracing !== true) return (effect) => effect
    if (traced === undefined) {
      const Otel = await import("./otel.js")
      traced = await Effect.runPromise(Layer.buildWithScope(Otel.layer("bench-client"), sharedScope))
    }
    const context = traced
    return (effect) => Effect.provide(effect, context)
  }
  return {
    connect: async () => {
      const wrap = await around()
      const scope = Effect.runSync(Scope.make())
      let client: McpClient.McpClientShape
      if (spec.transport === "stdio") {
        const layer = McpClient.layer(options).pipe(
          Layer.provide(NodeStdio.layerClient({
            command: spec.server!.command,
            args: spec.server!.args,
            maxMessageBytes: spec.maxMessageBytes
          }))
        )
        client = Context.get(await Effect.runPromise(Layer.buildWithScope(layer, scope)), McpClient.McpClient)
      } else {
        // a session per scope, as an Effect program opening many sessions does: `McpClient.make` over
        // the transport (a Layer graph per session would add ~940 Effect operations of Layer
        // building to each: 7c1a07c:scratchpad/perf/clientSessions.ts, DIRECT=0 vs 1)
        const transport = StreamableHttpClient.make({
          url: spec.url!,
          ...(spec.maxMessageBytes !== undefined ? { maxEventSize: spec.maxMessageBytes } : {})
        })
        client = await Effect.runPromise(McpClient.make(options).pipe(
          Effect.provideServiceEffect(Transport.Transport, transport),
          Effect.provide(await httpContext()),
          Scope.provide(scope)
        ))
      }
      const echoes = new Map<string, ReturnType<typeof client.callTool>>()
      const echoOf = (tool: string) => {
        let echo = echoes.get(tool)
        if (echo === undefined) echoes.set(tool, echo = client.callTool(tool, ECHO_ARGS))
        return echo
      }
      return {
        call: (name, args) => Effect.runPromise(wrap(client.callTool(name, args))) as Promise<ToolResult>,
        ...effectLoops(echoOf, wrap),
        close: () => Effect.runPromise(Scope.close(scope, Exit.void))
      }
    },
    dispose: () => Effect.runPromise(Scope.close(sharedScope, Exit.void))
  }
}

// ---------------------------------------------------------------- loops of an Effect client

/**
 * The sequential and concurrent phases of a client whose call is an Effect (ours, effect/ai's): the
 * same Effect per tool run in a loop; `inflight` workers each calling in a loop, as `promiseConc` does
 * for the official client (`Effect.forEach` with a concurrency would fork a fiber per call: driver
 * cost, not the SDK's).
 */
const effectLoops = (
  echoOf: (tool: string) => Effect.Effect<unknown, unknown>,
  /** What each loop runs in (ours with tracing on: the tracer's context). */
  around: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E> = (effect) => effect
): Pick<Driver, "seq" | "conc"> => ({
  seq: (n, deadline = Infinity, tool = ECHO_TOOL) =>
    Effect.runPromise(around(Effect.gen(function*() {
      const echo = echoOf(tool)
      const latencies = new Float64Array(n)
      let i = 0
      for (; i < n; i++) {
        const start = performance.now()
        if (start > deadline) break
        yield* echo
        latencies[i] = performance.now() - start
      }
      return latencies.subarray(0, i)
    }))),
  conc: (n, inflight, deadline = Infinity, tool = ECHO_TOOL) => {
    const echo = echoOf(tool)
    let issued = 0
    const worker = Effect.whileLoop({
      while: () => issued < n && performance.now() <= deadline,
      body: () => {
        issued++
        return echo
      },
      step: () => {}
    })
    return Effect.runPromise(
      around(Effect.forEach(Array.from({ length: Math.min(inflight, n) }), () => worker, { concurrency: "unbounded", discard: true }))
    ).then(() => issued)
  }
})

// ---------------------------------------------------------------- effect/ai

/**
 * Effect 4's own client (`effect/ai/McpClient.layerStdio`, 2025-11-25), driven as ours is: one
 * Effect per tool, run in a loop (its `callTool` takes a listed tool, so the tools are listed once).
 */
const effectAiConnector = (spec: Spec): Connector => ({
  connect: async () => {
    if (spec.transport !== "stdio") throw new Error("the effect/ai bench client runs on stdio only")
    const scope = Effect.runSync(Scope.make())
    const layer = EffectAiMcpClient.layerStdio({
      name: "bench-effect-ai",
      version: "1.0.0",
      protocol: EffectAiMcpProtocol.v2025_11_25,
      command: ChildProcess.make(spec.server!.command, [...spec.server!.args], { stderr: "inherit" }),
      ...(spec.maxMessageBytes !== undefined ? { maxMessageBytes: spec.maxMessageBytes } : {})
    }).pipe(Layer.provide(NodeServices.layer))
    const client = Context.get(await Effect.runPromise(Layer.buildWithScope(layer, scope)), EffectAiMcpClient.McpClient)
    const tools = new Map<string, EffectAiMcpSchema.Tool>()
    for (const tool of await Effect.runPromise(client.listTools())) tools.set(tool.name, tool)
    const calls = new Map<string, Effect.Effect<ToolResult, unknown>>()
    const callOf = (name: string, args: Record<string, unknown>): Effect.Effect<ToolResult, unknown> => {
      const tool = tools.get(name)
      if (tool === undefined) return Effect.die(new Error(`effect/ai server lists no tool ${name}`))
      return client.callTool({ tool, arguments: args }, { timeout: "120 seconds" }) as Effect.Effect<ToolResult, unknown>
    }
    const echoOf = (tool: string) => {
      let echo = calls.get(tool)
      if (echo === undefined) calls.set(tool, echo = callOf(tool, ECHO_ARGS))
      return echo
    }
    return {
      call: (name, args) => Effect.runPromise(callOf(name, args)),
      ...effectLoops(echoOf),
      close: () => Effect.runPromise(Scope.close(scope, Exit.void))
    }
  },
  dispose: async () => {}
})

// ---------------------------------------------------------------- official

const officialConnector = (spec: Spec): Connector => ({
  connect: async () => {
    const client = new Client({ name: "bench-official", version: "1.0.0" })
    const transport = spec.transport === "stdio"
      ? new StdioClientTransport({
        command: spec.server!.command,
        args: [...spec.server!.args],
        stderr: "inherit",
        ...(spec.maxMessageBytes !== undefined ? { maxBufferSize: spec.maxMessageBytes } : {})
      })
      : new StreamableHTTPClientTransport(new URL(spec.url!))
    await client.connect(transport)
    const call: Driver["call"] = (name, args) =>
      client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<ToolResult>
    return {
      call,
      seq: promiseSeq(call),
      conc: promiseConc(call),
      close: async () => {
        if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {})
        await client.close()
      }
    }
  },
  dispose: async () => {}
})

// ---------------------------------------------------------------- official v2

/** The official v2 client pinned to 2026-07-28 (no `initialize`: each request carries its envelope). */
const v2Connector = (spec: Spec): Connector => ({
  connect: async () => {
    if (spec.transport !== "2026") throw new Error("the v2 bench client runs on the 2026 configuration only")
    const client = new ClientV2({ name: "bench-v2", version: "1.0.0" }, { versionNegotiation: { mode: { pin: V2026 } } })
    const transport = new StreamableHTTPClientTransportV2(new URL(spec.url!))
    await client.connect(transport)
    const call: Driver["call"] = (name, args) =>
      client.callTool({ name, arguments: args }, { timeout: 120_000 }) as Promise<ToolResult>
    return { call, seq: promiseSeq(call), conc: promiseConc(call), close: () => client.close() }
  },
  dispose: async () => {}
})

// ---------------------------------------------------------------- floor

interface RpcResponse {
  readonly id: number
  readonly result?: ToolResult
  readonly error?: { readonly message: string }
}

const INITIALIZE = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "bench-floor", version: "1.0.0" }
}

const floorStdio = (spec: Spec): Connector => ({
  connect: async () => {
    const child = spawn(spec.server!.command, [...spec.server!.args], { stdio: ["pipe", "pipe", "inherit"] })
    const pending = new Map<number, (response: RpcResponse) => void>()
    let nextId = 0
    let parts: Array<Buffer> = []
    child.stdout.on("data", (chunk: Buffer) => {
      let start = 0
      let nl = chunk.indexOf(10, start)
      while (nl !== -1) {
        const line = parts.length === 0
          ? chunk.toString("utf8", start, nl)
          : Buffer.concat([...parts, chunk.subarray(start, nl)]).toString("utf8")
        parts = []
        const response = JSON.parse(line) as RpcResponse
        const resolve = pending.get(response.id)
        pending.delete(response.id)
        resolve?.(response)
        start = nl + 1
        nl = chunk.indexOf(10, start)
      }
      if (start < chunk.length) parts.push(chunk.subarray(start))
    })
    const request = (method: string, params: unknown) =>
      new Promise<RpcResponse>((resolve) => {
        const id = nextId++
        pending.set(id, resolve)
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n")
      })
    await request("initialize", INITIALIZE)
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
    const call: Driver["call"] = async (name, args) => {
      const response = await request("tools/call", { name, arguments: args })
      if (response.result === undefined) throw new Error(response.error?.message ?? "no result")
      return response.result
    }
    return {
      call,
      seq: promiseSeq(call),
      conc: promiseConc(call),
      close: () =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve())
          child.stdin.end()
        })
    }
  },
  dispose: async () => {}
})

/** The envelope a 2026-07-28 request carries in `params._meta`. */
const ENVELOPE = {
  [META_VERSION]: V2026,
  [META_CAPABILITIES]: {},
  [META_CLIENT_INFO]: { name: "bench-floor", version: "1.0.0" }
}

/**
 * The 2026-07-28 floor: a `tools/call` POST with the envelope in its body and the headers the
 * revision asks for (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`), one `JSON.stringify` to send
 * and one `JSON.parse` of the JSON answer; no session, no `initialize`.
 */
const floor2026 = (spec: Spec): Connector => {
  const agent = new http.Agent({ keepAlive: true })
  const url = new URL(spec.url!)
  let nextId = 0
  const call: Driver["call"] = (name, args) =>
    new Promise<ToolResult>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: nextId++,
        method: "tools/call",
        params: { name, arguments: args, _meta: ENVELOPE }
      })
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": V2026,
        "mcp-method": "tools/call",
        "mcp-name": name
      }
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers },
        (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (chunk: Buffer) => chunks.push(chunk))
          res.on("end", () => {
            const text = chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")
            const response = JSON.parse(text) as RpcResponse
            if (response.result === undefined) reject(new Error(response.error?.message ?? "no result"))
            else resolve(response.result)
          })
          res.on("error", reject)
        }
      )
      req.on("error", reject)
      req.end(body)
    })
  return {
    connect: async () => ({ call, seq: promiseSeq(call), conc: promiseConc(call), close: async () => {} }),
    dispose: async () => agent.destroy()
  }
}

const floorHttp = (spec: Spec): Connector => {
  const agent = new http.Agent({ keepAlive: true })
  const url = new URL(spec.url!)
  const sse = spec.transport !== "json"
  const post = (body: string, sessionId: string | undefined) =>
    new Promise<{ readonly status: number; readonly sessionId: string | undefined; readonly text: string }>(
      (resolve, reject) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        }
        if (sessionId !== undefined) headers["mcp-session-id"] = sessionId
        const req = http.request(
          { host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers },
          (res) => {
            const chunks: Array<Buffer> = []
            res.on("data", (chunk: Buffer) => chunks.push(chunk))
            res.on("end", () => {
              const sid = res.headers["mcp-session-id"]
              resolve({
                status: res.statusCode ?? 0,
                sessionId: typeof sid === "string" ? sid : undefined,
                text: chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")
              })
            })
            res.on("error", reject)
          }
        )
        req.on("error", reject)
        req.end(body)
      }
    )
  const parse = (text: string): RpcResponse => {
    if (!sse) return JSON.parse(text) as RpcResponse
    const start = text.indexOf("data: ") + 6
    const end = text.indexOf("\n", start)
    return JSON.parse(text.slice(start, end === -1 ? undefined : end)) as RpcResponse
  }
  return {
    connect: async () => {
      let nextId = 0
      const init = await post(JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: INITIALIZE }), undefined)
      const sessionId = init.sessionId
      await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), sessionId)
      const call: Driver["call"] = async (name, args) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } })
        const response = parse((await post(body, sessionId)).text)
        if (response.result === undefined) throw new Error(response.error?.message ?? "no result")
        return response.result
      }
      return {
        call,
        seq: promiseSeq(call),
        conc: promiseConc(call),
        close: () =>
          new Promise<void>((resolve) => {
            const req = http.request(
              { host: url.hostname, port: url.port, path: url.pathname, method: "DELETE", agent, headers: { "mcp-session-id": sessionId ?? "" } },
              (res) => {
                res.resume()
                res.on("end", () => resolve())
              }
            )
            req.on("error", () => resolve())
            req.end()
          })
      }
    },
    dispose: async () => agent.destroy()
  }
}

const connectorFor = (spec: Spec): Connector => {
  switch (spec.impl) {
    case "ours":
      return oursConnector(spec)
    case "official":
      return officialConnector(spec)
    case "v2":
      return v2Connector(spec)
    case "effect-ai":
      return effectAiConnector(spec)
    case "floor":
      return spec.transport === "stdio" ? floorStdio(spec) : spec.transport === "2026" ? floor2026(spec) : floorHttp(spec)
  }
}

// ============================================================================
// phases
// ============================================================================

const textOf = (result: ToolResult): string => result.content[0]?.text ?? ""

const serverStats = async (driver: Driver, gc: boolean): Promise<ProcessStats> =>
  JSON.parse(textOf(await driver.call("stats", { gc }))) as ProcessStats

const clientMaxRss = () => process.resourceUsage().maxRSS * 1024

/** How long the RSS-growth phase lets the server idle before each reading: V8 and malloc give pages back lazily. */
const SETTLE_MS = 1000
/**
 * How long after its GC an RSS-growth reading is taken: V8 unmaps the pages a GC freed on a background thread, and a
 * reading at once counted 0–2.4 MiB of them at random (mostly after a loaded half: 7c1a07c:scratchpad/perf/leakstdio.mjs READ2).
 */
const UNMAP_MS = 300
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The server's stats after idling, a GC and the unmapping that follows it. */
const settledStats = async (driver: Driver): Promise<ProcessStats> => {
  await sleep(SETTLE_MS)
  await serverStats(driver, true)
  await sleep(UNMAP_MS)
  return serverStats(driver, false)
}

const runPhase = async (connector: Connector, driver: Driver, phase: Phase): Promise<PhaseReport> => {
  // a GC before every phase on both sides, so that a phase does not pay for the last one's garbage
  const serverBefore = phase.kind === "leak" ? await settledStats(driver) : await serverStats(driver, true)
  const clientBefore = selfStats(true)
  const start = performance.now()
  let calls = 0
  let p50: number | undefined
  let p99: number | undefined
  let callAllMs: number | undefined
  let sessionsStats: ProcessStats | undefined
  switch (phase.kind) {
    case "warmup": {
      // both paths get hot: one call at a time, and many in flight; and so do the moves between them, twice
      // over. The end of the first 64-in-flight loop deoptimizes an Effect runtime's hot functions (a fiber
      // ending, a loop exiting: paths the steady loop never took), which then re-optimize during the next
      // phase: the sequential window after one such move ran ~1,000 calls of it at twice the CPU
      // (7c1a07c:scratchpad/perf/threadstdio.mjs --tool jit; the second move deoptimizes nothing)
      const quarter = Math.floor(phase.n / 4)
      const slice = (phase.maxMs ?? Infinity) / 4
      calls = 0
      for (let k = 0; k < 2; k++) {
        calls += (await driver.seq(quarter, start + slice * (2 * k + 1), phase.tool)).length
        calls += await driver.conc(k === 0 ? quarter : phase.n - 3 * quarter, 64, start + slice * (2 * k + 2), phase.tool)
      }
      break
    }
    case "leak":
      calls = await driver.conc(phase.n, phase.inflight)
      break
    case "seq":
    case "best": {
      const latencies = await driver.seq(phase.n, start + (phase.maxMs ?? Infinity), phase.kind === "best" ? ECHO_SUCCEED_TOOL : ECHO_TOOL)
      p50 = quantile(latencies, 0.5)
      p99 = quantile(latencies, 0.99)
      calls = latencies.length
      break
    }
    case "conc":
      calls = await driver.conc(phase.n, phase.inflight, start + (phase.maxMs ?? Infinity))
      break
    case "blob":
      for (let i = 0; i < phase.n; i++) {
        const text = textOf(await driver.call("blob", { bytes: phase.bytes }))
        if (text.length !== phase.bytes) throw new Error(`blob: got ${text.length} bytes, expected ${phase.bytes}`)
      }
      calls = phase.n
      break
    case "sessions": {
      const snapshot = process.env.BENCH_SNAPSHOT
      if (snapshot !== undefined) await driver.call("stats", { gc: true, snapshot: `${snapshot}-before.heapsnapshot` })
      const drivers = await Promise.all(Array.from({ length: phase.n }, () => connector.connect()))
      const opened = performance.now()
      sessionsStats = await serverStats(driver, true)
      if (snapshot !== undefined) await driver.call("stats", { gc: true, snapshot: `${snapshot}-after.heapsnapshot` })
      const callStart = performance.now()
      const results = await Promise.all(drivers.map((d) => d.call(ECHO_TOOL, ECHO_ARGS)))
      callAllMs = performance.now() - callStart
      if (results.some((r) => textOf(r) !== ECHO_TEXT)) throw new Error("sessions: a wrong echo")
      calls = phase.n
      const wallMs = opened - start
      const clientAfter = selfStats(false)
      await Promise.all(drivers.map((d) => d.close()))
      return {
        kind: phase.kind,
        calls,
        wallMs,
        callAllMs,
        clientCpuUs: cpuBetween(clientBefore, clientAfter),
        serverCpuUs: cpuBetween(serverBefore, sessionsStats),
        clientMainUs: clientAfter.mainThread - clientBefore.mainThread,
        serverMainUs: sessionsStats.mainThread - serverBefore.mainThread,
        clientMaxRss: clientMaxRss(),
        serverMaxRss: sessionsStats.maxRss,
        clientRssBefore: clientBefore.rss,
        serverBefore,
        serverAfter: sessionsStats
      }
    }
  }
  const wallMs = performance.now() - start
  const clientAfter = selfStats(false)
  const serverAfter = phase.kind === "leak" ? await settledStats(driver) : await serverStats(driver, false)
  return {
    kind: phase.kind,
    calls,
    wallMs,
    p50Ms: p50,
    p99Ms: p99,
    clientCpuUs: cpuBetween(clientBefore, clientAfter),
    serverCpuUs: cpuBetween(serverBefore, serverAfter),
    clientMainUs: clientAfter.mainThread - clientBefore.mainThread,
    serverMainUs: serverAfter.mainThread - serverBefore.mainThread,
    clientMaxRss: clientMaxRss(),
    serverMaxRss: serverAfter.maxRss,
    clientRssBefore: clientBefore.rss,
    serverBefore,
    serverAfter
  }
}

const main = async (): Promise<Report> => {
  const spec = JSON.parse(process.argv[2]!) as Spec
  const connector = connectorFor(spec)
  const driver = await connector.connect()
  const first = textOf(await driver.call(ECHO_TOOL, ECHO_ARGS))
  if (first !== ECHO_TEXT) throw new Error(`echo answered ${JSON.stringify(first)}`)
  const phases: Array<PhaseReport> = []
  for (const phase of spec.phases) {
    try {
      phases.push(await runPhase(connector, driver, phase))
    } catch (error) {
      phases.push({ kind: phase.kind, error: error instanceof Error ? error.message : String(error) } as PhaseReport)
      break
    }
  }
  await Promise.race([
    driver.close().then(() => connector.dispose()),
    new Promise((resolve) => setTimeout(resolve, 5000).unref())
  ])
  return { ok: true, phases }
}

// the official client adds an abort listener per request and removes it late: Node warns once per
// listener past 1,500. Count them instead of printing thousands of lines; the count goes to stderr.
let listenerWarnings = 0
process.removeAllListeners("warning")
process.on("warning", (warning) => {
  if (warning.name === "MaxListenersExceededWarning") listenerWarnings++
  else process.stderr.write(`${warning.name}: ${warning.message}\n`)
})
process.once("exit", () => {
  if (listenerWarnings > 0) {
    const spec = JSON.parse(process.argv[2] ?? "{}") as Partial<Spec>
    process.stderr.write(`[${spec.impl} client, ${spec.transport}] ${listenerWarnings} MaxListenersExceededWarning(s) (AbortSignal listeners)\n`)
  }
})

const send = (report: Report) =>
  new Promise<void>((resolve) => {
    if (process.send === undefined) {
      process.stdout.write(JSON.stringify(report) + "\n")
      resolve()
    } else {
      process.send(report, () => resolve())
    }
  })

main().then(
  (report) => send(report).then(() => process.exit(0)),
  (error) =>
    send({ ok: false, error: error instanceof Error ? error.message : String(error), phases: [] }).then(() =>
      process.exit(1)
    )
)
