/**
 * What every bench process shares: the self-report a server gives through its
 * `stats` tool, the text a `blob` call returns, and small numeric helpers.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"

/** A process's own view of itself: CPU in µs, memory in bytes. */
export interface ProcessStats {
  readonly user: number
  readonly system: number
  readonly rss: number
  readonly heapUsed: number
  readonly external: number
  /** Peak RSS of the process's whole life (getrusage). */
  readonly maxRss: number
  /**
   * CPU µs of the main thread alone (Linux `schedstat`; NaN elsewhere). The
   * rest of `user + system` ran on V8's helper threads: parallel scavenges,
   * concurrent marking, optimizing compilation.
   */
  readonly mainThread: number
}


const mainThreadCpu = (): number => {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000
  } catch {
    return Number.NaN
  }
}

declare const gc: undefined | (() => void)

/** Reads this process's CPU and memory; with `collect`, after two full GCs (needs `--expose-gc`). */
export const selfStats = (collect: boolean): ProcessStats => {
  if (collect && typeof gc === "function") {
    gc()
    gc()
  }
  const cpu = process.cpuUsage()
  const memory = process.memoryUsage()
  return {
    user: cpu.user,
    system: cpu.system,
    rss: memory.rss,
    heapUsed: memory.heapUsed,
    external: memory.external,
    maxRss: process.resourceUsage().maxRSS * 1024,
    mainThread: mainThreadCpu()
  }
}

/** CPU µs used between two reports. */
export const cpuBetween = (before: ProcessStats, after: ProcessStats): number =>
  after.user - before.user + after.system - before.system

/** The text of a `blob` result: exactly `bytes` ASCII bytes. */
export const blobText = (bytes: number): string => "x".repeat(bytes)

/** The argument of every `echo` call (a short chat-like string). */
export const ECHO_TEXT = "hello, model context protocol"

/**
 * The headline echo tool. Our server's handler runs code (`Effect.sync(() => text)`), as a real
 * handler does: its answer is not ready as the handler is made, so the engine runs it in a fiber
 * (issue 37: an `Effect.succeed` handler skips that, and flattered the headline rows).
 */
export const ECHO_TOOL = "echo"
/**
 * The best-case echo: our server's handler is `Effect.succeed(text)`, an `Exit`, answered as it
 * is made with no fiber. The other servers answer it as they answer `echo`.
 */
export const ECHO_SUCCEED_TOOL = "echo-succeed"

export const MiB = 1024 * 1024

/** The 2026-07-28 revision, and the `_meta` keys of its envelope (requests) and of its results. */
export const V2026 = "2026-07-28"
export const META_VERSION = "io.modelcontextprotocol/protocolVersion"
export const META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"

/** The q-quantile (0..1) of a sample, nearest rank. */
export const quantile = (values: ArrayLike<number>, q: number): number => {
  if (values.length === 0) return Number.NaN
  const sorted = Array.from(values).sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank]!
}

export const median = (values: ReadonlyArray<number>): number => {
  const finite = values.filter((v) => Number.isFinite(v))
  if (finite.length === 0) return Number.NaN
  return quantile(finite, 0.5)
}

/**
 * Server command-line: `--stdio`, or `--http [--json] [--event-store] [--2026]` (prints `LISTENING <port>` on
 * stdout). `--event-store`: keep SSE events for resumption (servers without one ignore it).
 * `--2026`: the 2026-07-28 stateless configuration (the floor answers without sessions; ours and
 * v2 serve both eras anyway).
 */
export type ServeMode =
  | { readonly _tag: "stdio" }
  | { readonly _tag: "http"; readonly json: boolean; readonly eventStore: boolean; readonly era2026: boolean }

export const parseServeMode = (argv: ReadonlyArray<string>): ServeMode => {
  if (argv.includes("--stdio")) return { _tag: "stdio" }
  if (argv.includes("--http")) {
    return { _tag: "http", json: argv.includes("--json"), eventStore: argv.includes("--event-store"), era2026: argv.includes("--2026") }
  }
  process.stderr.write("usage: --stdio | --http [--json] [--event-store] [--2026]\n")
  process.exit(2)
}

/** The line an HTTP server prints on stdout once it listens. */
export const listeningLine = (port: number) => `LISTENING ${port}\n`
