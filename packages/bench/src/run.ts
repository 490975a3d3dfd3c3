/**
 * `pnpm bench`: our SDK against `@modelcontextprotocol/sdk` and a hand-written
 * floor, over stdio, streamable HTTP with SSE answers and streamable HTTP with
 * JSON answers, in one run, interleaved (A B C D F, A B C D F, …), medians of
 * `BENCH_ROUNDS` rounds (default 3). Every server and every client is its own
 * process, so that each side's CPU and memory are its own.
 *
 * Environment:
 * - `BENCH_QUICK=1`: small counts, one round; results go to `bundle/results.md` only.
 * - `BENCH_ROUNDS=n`: rounds per workload.
 * - `BENCH_LEAK_ROUNDS=n`: rounds of the RSS-growth workload (default 1).
 * - `BENCH_CPU_PROF=1`: instead of the bench, profile ours/ours (client and
 *   server, `node --cpu-prof`) on the calls workloads of each transport into
 *   `profiles/`.
 * - `BENCH_ONLY=stdio,sse,json,store,2026`: transports to run (`store`: SSE answers with the
 *   server's event store on, driven by the official client; `2026`: the 2026-07-28 stateless
 *   path against the official v2 SDK; each its own README section).
 * - `BENCH_ONLY=redis`: the Redis backend (`@effect-mcp/redis`) next to in-memory (`src/redis.ts`;
 *   its own README section; part of a run without `BENCH_ONLY` too, skipped without a Redis).
 * - `BENCH_UNITS=calls,leak,…`: workloads to run (default all).
 * - `BENCH_PAIRINGS=official→ours,floor`: pairings to run (default all; to iterate, not for results).
 * - `BENCH_RENDER=bundle/results.json`: no run; rebuild the tables (and the
 *   README section, unless the saved run was quick) from a saved run.
 * - `BENCH_BASELINE=<commit>`: also the programs of that commit (bundled from a
 *   detached `git worktree` under `bundle/`, with this checkout's npm packages and the commit's
 *   own workspace packages, `src/baseline.ts`): an
 *   `ours@base` pairing (its client and server) on stdio, SSE and JSON, and
 *   `official→ours@base` with the event store on (when its server has one), with a
 *   `÷ base` column, so that one run shows before and after.
 *
 * A complete run also writes the main transports' tables to `results/latest.json` and draws
 * `results/headline.svg` from them (`src/chart.ts`; shown in the README); a partial run writes
 * both into `bundle/`. `pnpm bench:chart` redraws the chart from `results/latest.json`.
 *
 * @since 0.1.0
 */
import { type ChildProcess, fork, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Impl, Phase, PhaseReport, Report, Spec, TransportKind } from "./client.js"
import { type Results, renderHeadline } from "./chart.js"
import { assertOwnSources, linkNodeModules } from "./baseline.js"
import { median, MiB } from "./common.js"
import type { WireCounts } from "./wireCheck.js"

// ============================================================================
// configuration
// ============================================================================

const QUICK = process.env.BENCH_QUICK === "1"
const PROFILE = process.env.BENCH_CPU_PROF === "1"
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK || PROFILE ? 1 : 3))
const SIZES = QUICK
  ? { warmup: 300, seq: 200, conc: 640, inflight: 64, leak: 1000, blob1: 1, blob16: 1, sessions: 50, capMs: 1000 }
  : { warmup: 10000, seq: 4000, conc: 6400, inflight: 64, leak: 12000, blob1: 5, blob16: 2, sessions: 500, capMs: 3000 }
/** RSS growth is a property, not a ratio: one round unless asked. */
const LEAK_ROUNDS = Number(process.env.BENCH_LEAK_ROUNDS ?? 1)
const LEAK_INFLIGHT = 64
/** The raised message limit for 16 MiB results (the JSON text is a little more than 16 MiB). */
const RAISED_LIMIT = 64 * MiB

const bundleDir = path.dirname(fileURLToPath(import.meta.url))
const packageDir = path.dirname(bundleDir)
const profileDir = path.join(packageDir, "profiles")

interface Pairing {
  readonly id: string
  readonly client: Impl
  readonly server: Impl
  /** `BENCH_BASELINE`: the bundle directory the client's and server's programs come from (default ours). */
  readonly clientDir?: string | undefined
  readonly serverDir?: string | undefined
}

const PAIRINGS: ReadonlyArray<Pairing> = [
  { id: "ours/ours", client: "ours", server: "ours" },
  { id: "official/official", client: "official", server: "official" },
  { id: "official→ours", client: "official", server: "ours" },
  { id: "ours→official", client: "ours", server: "official" },
  { id: "floor", client: "floor", server: "floor" }
]

/** The 2026-07-28 configuration: ours and the official v2 SDK (`@modelcontextprotocol/client`, `server`). */
const PAIRINGS_2026: ReadonlyArray<Pairing> = [
  { id: "ours/ours", client: "ours", server: "ours" },
  { id: "v2/v2", client: "v2", server: "v2" },
  { id: "v2→ours", client: "v2", server: "ours" },
  { id: "ours→v2", client: "ours", server: "v2" },
  { id: "floor", client: "floor", server: "floor" }
]
/** The official pairing a transport's ours/ours is set against. */
const officialOf = (transport: TransportKind): string => (transport === "2026" ? "v2/v2" : "official/official")

const ALL_TRANSPORTS: ReadonlyArray<TransportKind> = ["stdio", "sse", "json", "store", "2026"]
/** The transports of the main Results section; `store` has its own. */
const MAIN_TRANSPORTS: ReadonlyArray<TransportKind> = ["stdio", "sse", "json"]
const TRANSPORTS = process.env.BENCH_ONLY === undefined
  ? ALL_TRANSPORTS
  : ALL_TRANSPORTS.filter((t) => process.env.BENCH_ONLY!.split(",").includes(t))

const TRANSPORT_TITLE: Record<TransportKind, string> = {
  stdio: "stdio",
  sse: "streamable HTTP, SSE answers",
  json: "streamable HTTP, JSON answers",
  store: "streamable HTTP, SSE answers, event store on",
  "2026": "streamable HTTP, 2026-07-28 stateless"
}

/**
 * With the event store on, the official client drives our server (as the conformance suite and
 * most hosts do), against the floor; ours/ours is there for reference.
 */
const STORE_PAIRINGS: ReadonlyArray<string> = ["official→ours", "ours/ours", "floor"]
const ONLY_PAIRINGS = process.env.BENCH_PAIRINGS?.split(",")
const pairingsOf = (transport: TransportKind): ReadonlyArray<Pairing> =>
  [
    ...(transport === "store"
      ? STORE_PAIRINGS.map((id) => PAIRINGS.find((p) => p.id === id)!)
      : transport === "2026"
      ? PAIRINGS_2026
      : PAIRINGS),
    ...basePairings(transport)
  ].filter((p) => ONLY_PAIRINGS === undefined || ONLY_PAIRINGS.includes(p.id))
/** The pairing set against the floor (and the official pairing) in a transport's table. */
const subjectOf = (transport: TransportKind): string => (transport === "store" ? "official→ours" : "ours/ours")
/** The workloads of the event-store transport: CPU per call and RSS growth. */
const STORE_UNITS: ReadonlyArray<string> = ["calls", "leak"]
/** The workloads of the 2026-07-28 configuration: calls and RSS growth (no sessions on that path). */
const UNITS_2026: ReadonlyArray<string> = ["calls", "leak"]
/**
 * The official client makes fewer calls per second than ours: its warm-up gets more time, so that
 * our server is measured at its steady state (its JIT settles after ~3,000 calls) on a busy machine too.
 */
const phasesOf = (transport: TransportKind, unit: Unit): ReadonlyArray<Phase> =>
  transport === "store" && unit.name === "calls"
    ? unit.phases.map((p) => (p.kind === "warmup" ? { ...p, maxMs: 10 * SIZES.capMs } : p))
    : unit.phases
const ONLY_UNITS = process.env.BENCH_UNITS?.split(",")

type UnitName = "calls" | "leak" | "blob1" | "blob16" | "sessions"

interface Unit {
  readonly name: UnitName
  readonly phases: ReadonlyArray<Phase>
  readonly maxMessageBytes?: number | undefined
  readonly httpOnly?: boolean | undefined
  /** Rounds of this unit (default `ROUNDS`). */
  readonly rounds?: number | undefined
}

const UNITS: ReadonlyArray<Unit> = [
  {
    name: "calls",
    phases: [
      { kind: "warmup", n: SIZES.warmup, maxMs: 2 * SIZES.capMs },
      { kind: "seq", n: SIZES.seq, maxMs: SIZES.capMs },
      { kind: "conc", n: SIZES.conc, inflight: SIZES.inflight, maxMs: SIZES.capMs }
    ]
  },
  {
    name: "leak",
    // two halves: a leak keeps growing in the second, a high-water mark reached in the first does not
    phases: [
      { kind: "warmup", n: 1000 },
      { kind: "leak", n: SIZES.leak / 2, inflight: LEAK_INFLIGHT },
      { kind: "leak", n: SIZES.leak / 2, inflight: LEAK_INFLIGHT }
    ],
    rounds: LEAK_ROUNDS
  },
  { name: "blob1", phases: [{ kind: "warmup", n: 50 }, { kind: "blob", n: SIZES.blob1, bytes: MiB }] },
  {
    name: "blob16",
    phases: [{ kind: "warmup", n: 50 }, { kind: "blob", n: SIZES.blob16, bytes: 16 * MiB }],
    maxMessageBytes: RAISED_LIMIT
  },
  { name: "sessions", phases: [{ kind: "warmup", n: 50 }, { kind: "sessions", n: SIZES.sessions }], httpOnly: true }
]

// ============================================================================
// baseline (BENCH_BASELINE)
// ============================================================================

const BASELINE = process.env.BENCH_BASELINE
/** Set by `bundleBaseline`: where the baseline's programs are, and whether its server has an event store. */
let baseline: { readonly dir: string; readonly store: boolean; readonly commit?: string } | undefined

/** The baseline's pairings: the subject of each table (ours/ours, or official→ours with the store), at that commit. */
const basePairings = (transport: TransportKind): ReadonlyArray<Pairing> =>
  baseline === undefined || transport === "2026"
    ? []
    : transport === "store"
    ? baseline.store ? [{ id: "official→ours@base", client: "official", server: "ours", serverDir: baseline.dir }] : []
    : [{ id: "ours@base", client: "ours", server: "ours", clientDir: baseline.dir, serverDir: baseline.dir }]

const baseIdOf = (transport: TransportKind): string => (transport === "store" ? "official→ours@base" : "ours@base")

/**
 * Bundles the bench programs of commit `sha` (`scripts/bundle.mjs` of that commit) in a
 * detached worktree under `bundle/`, whose node_modules are links to this checkout's.
 */
const bundleBaseline = async (sha: string) => {
  const { execFileSync } = await import("node:child_process")
  const root = path.resolve(packageDir, "../..")
  const git = (...args: Array<string>) => execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim()
  const commit = git("rev-parse", "--verify", `${sha}^{commit}`)
  const tree = path.join(bundleDir, `base-${commit.slice(0, 12)}`)
  if (!fs.existsSync(path.join(tree, ".git"))) {
    git("worktree", "prune")
    git("worktree", "add", "--detach", "--force", tree, commit)
  }
  linkNodeModules(root, tree)
  process.stdout.write(`bundling the baseline ${commit.slice(0, 12)} in ${tree}\n`)
  const dir = path.join(tree, "packages/bench/bundle")
  // no chunk of an earlier bundling left for the check below to read
  fs.rmSync(dir, { recursive: true, force: true })
  execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: path.join(tree, "packages/bench"), stdio: "inherit" })
  assertOwnSources(root, tree, dir)
  // servers before the event-store configuration ignore the flag: no store pairing for them
  const store = fs.readFileSync(path.join(dir, "serverOurs.js"), "utf8").includes("event-store")
  baseline = { dir, store, commit }
}

// ============================================================================
// processes
// ============================================================================

const SCRIPTS: Record<Impl, string> = {
  ours: path.join(bundleDir, "serverOurs.js"),
  official: path.join(bundleDir, "serverOfficial.js"),
  floor: path.join(bundleDir, "serverFloor.js"),
  v2: path.join(bundleDir, "serverV2.js")
}

/** A pairing's program for one side: ours, or the baseline's. */
const scriptOf = (pairing: Pairing): string =>
  pairing.serverDir === undefined ? SCRIPTS[pairing.server] : path.join(pairing.serverDir, path.basename(SCRIPTS[pairing.server]))

const profileFlags = (name: string): Array<string> =>
  PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : []

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
  })

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000)
  await exited(child)
  clearTimeout(timer)
}

/** Starts an HTTP server and waits for its `LISTENING <port>` line. */
const startHttpServer = (
  impl: Impl,
  transport: TransportKind,
  flags: ReadonlyArray<string>,
  script = SCRIPTS[impl],
  env: NodeJS.ProcessEnv = process.env
) =>
  new Promise<{ readonly url: string; readonly child: ChildProcess }>((resolve, reject) => {
    const mode = transport === "json" ? ["--json"] : transport === "store" ? ["--event-store"] : transport === "2026" ? ["--2026"] : []
    const child = spawn(process.execPath, [...flags, script, "--http", ...mode], {
      stdio: ["ignore", "pipe", "inherit"],
      env
    })
    let text = ""
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8")
      const match = /LISTENING (\d+)\n/.exec(text)
      if (match !== null) {
        child.stdout!.off("data", onData)
        child.stdout!.resume()
        resolve({ url: `http://127.0.0.1:${match[1]}/mcp`, child })
      }
    }
    child.stdout!.on("data", onData)
    child.once("exit", (code) => reject(new Error(`${impl} HTTP server exited with ${code} before listening`)))
  })

const CLIENT_TIMEOUT_MS = 10 * 60 * 1000

const runClient = (spec: Spec, flags: ReadonlyArray<string>, dir = bundleDir) =>
  new Promise<Report>((resolve) => {
    const child = fork(path.join(dir, "client.js"), [JSON.stringify(spec)], {
      execArgv: [...flags],
      stdio: ["ignore", "inherit", "inherit", "ipc"]
    })
    let report: Report | undefined
    const timer = setTimeout(() => {
      report = { ok: false, error: "timed out", phases: [] }
      child.kill("SIGKILL")
    }, CLIENT_TIMEOUT_MS)
    child.on("message", (message) => {
      report = message as Report
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve(report ?? { ok: false, error: `client exited with ${code} without a report`, phases: [] })
    })
  })

/** One client process against one server process. */
const runOnce = async (
  transport: TransportKind,
  pairing: Pairing,
  phases: ReadonlyArray<Phase>,
  maxMessageBytes: number | undefined,
  profileName?: string
): Promise<Report> => {
  const serverFlags = ["--expose-gc", ...(profileName === undefined ? [] : profileFlags(`${profileName}-server`))]
  const clientFlags = ["--expose-gc", ...(profileName === undefined ? [] : profileFlags(`${profileName}-client`))]
  const base = { impl: pairing.client, transport, phases, maxMessageBytes }
  if (transport === "stdio") {
    return runClient(
      { ...base, server: { command: process.execPath, args: [...serverFlags, scriptOf(pairing), "--stdio"] } },
      clientFlags,
      pairing.clientDir
    )
  }
  // a sessions phase is checked on the server's wire: every session handed out and its standing GET held
  const sessions = phases.find((p): p is Extract<Phase, { readonly kind: "sessions" }> => p.kind === "sessions")?.n
  const wire = sessions === undefined
    ? undefined
    : { file: path.join(os.tmpdir(), `bench-wire-${process.pid}-${Date.now()}.json`), sessions }
  const server = await startHttpServer(
    pairing.server,
    transport,
    wire === undefined ? serverFlags : [...serverFlags, "--import", path.join(bundleDir, "wireCheck.js")],
    scriptOf(pairing),
    wire === undefined
      ? process.env
      : { ...process.env, BENCH_WIRE_FILE: wire.file, BENCH_WIRE_EXPECT: String(wire.sessions + 1) }
  )
  let report: Report
  try {
    report = await runClient({ ...base, url: server.url }, clientFlags, pairing.clientDir)
  } finally {
    await stop(server.child)
  }
  // a failed phase has its own error to tell
  if (wire === undefined || !report.ok || report.phases.some((p) => p.error !== undefined)) return report
  const failure = wireFailure(wire.file, wire.sessions, pairing.client === "ours")
  return failure === undefined ? report : { ok: false, error: failure, phases: report.phases }
}

/**
 * Whether the server's wire (`src/wireCheck.ts`) shows the sessions phase's `n` sessions
 * opened, with the warm-up's (n + 1 `initialize` answers with a session id) and, for our
 * client, n + 1 standing GETs held at once. (The official client opens its GET after
 * `connect` resolved, and its sessions close while a busy server is still answering them:
 * not checked. The floor opens none.) A failure's message, or undefined.
 */
const wireFailure = (file: string, n: number, standing: boolean): string | undefined => {
  if (!fs.existsSync(file)) return "sessions: the server's wire counts are missing (BENCH_WIRE_FILE never written)"
  const counts = JSON.parse(fs.readFileSync(file, "utf8")) as WireCounts
  fs.rmSync(file, { force: true })
  if (counts.sessions < n + 1) {
    return `sessions: the server handed out ${counts.sessions} sessions for ${n + 1} (a stateless client, or initialize failing)`
  }
  if (standing && counts.maxHeldGets < n + 1) {
    return `sessions: the server held at most ${counts.maxHeldGets} standing GETs at once for ${n + 1} sessions`
  }
  return undefined
}

// ============================================================================
// metrics
// ============================================================================

interface Run {
  readonly transport: TransportKind
  readonly pairing: string
  readonly unit: UnitName
  readonly round: number
  readonly seconds: number
  readonly report: Report
}

type Reports = Partial<Record<UnitName, Report>>

interface Metric {
  readonly label: string
  readonly unit: string
  readonly digits: number
  /** How ours/ours is set against the others: a ratio, or a difference for memory. */
  readonly compare: "ratio" | "delta"
  readonly httpOnly?: boolean
  readonly value: (reports: Reports) => number | string
}

const phaseOf = (reports: Reports, unit: UnitName, kind: Phase["kind"]): PhaseReport | string => {
  const report = reports[unit]
  if (report === undefined) return "n/a"
  if (!report.ok) return `fails: ${report.error}`
  const phase = report.phases.find((p) => p.kind === kind)
  if (phase === undefined) {
    const failed = report.phases.find((p) => p.error !== undefined)
    return failed !== undefined ? `fails: ${failed.error}` : "n/a"
  }
  return phase.error !== undefined ? `fails: ${phase.error}` : phase
}

const fromPhase = (unit: UnitName, kind: Phase["kind"], f: (p: PhaseReport) => number) => (reports: Reports) => {
  const phase = phaseOf(reports, unit, kind)
  return typeof phase === "string" ? phase : f(phase)
}

const perSecond = (p: PhaseReport) => (p.calls / p.wallMs) * 1000

/** Server memory growth over both halves of the leak unit, or over the second only. */
const leakGrowth = (field: "rss" | "heapUsed", over: "all" | "second") => (reports: Reports): number | string => {
  const report = reports.leak
  if (report === undefined) return "n/a"
  if (!report.ok) return `fails: ${report.error}`
  const halves = report.phases.filter((p) => p.kind === "leak")
  const failed = report.phases.find((p) => p.error !== undefined)
  if (failed !== undefined) return `fails: ${failed.error}`
  if (halves.length !== 2) return "n/a"
  const from = over === "all" ? halves[0]! : halves[1]!
  return (halves[1]!.serverAfter[field] - from.serverBefore[field]) / MiB
}
const KiB = 1024

const METRICS: ReadonlyArray<Metric> = [
  { label: `sequential echo: throughput`, unit: "calls/s", digits: 0, compare: "ratio", value: fromPhase("calls", "seq", perSecond) },
  { label: "sequential echo: p50 latency", unit: "ms", digits: 3, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.p50Ms!) },
  { label: "sequential echo: p99 latency", unit: "ms", digits: 3, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.p99Ms!) },
  { label: "sequential echo: client CPU per call", unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.clientCpuUs / p.calls) },
  { label: "sequential echo: server CPU per call", unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.serverCpuUs / p.calls) },
  { label: `${SIZES.inflight} in flight: throughput`, unit: "calls/s", digits: 0, compare: "ratio", value: fromPhase("calls", "conc", perSecond) },
  { label: `${SIZES.inflight} in flight: client CPU per call`, unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "conc", (p) => p.clientCpuUs / p.calls) },
  { label: `${SIZES.inflight} in flight: server CPU per call`, unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "conc", (p) => p.serverCpuUs / p.calls) },
  { label: `1 MiB blob: ms per call (${SIZES.blob1} calls)`, unit: "ms", digits: 1, compare: "ratio", value: fromPhase("blob1", "blob", (p) => p.wallMs / p.calls) },
  { label: "1 MiB blob: client peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob1", "blob", (p) => p.clientMaxRss / MiB) },
  { label: "1 MiB blob: server peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob1", "blob", (p) => p.serverMaxRss / MiB) },
  { label: `16 MiB blob: ms per call (${SIZES.blob16} calls)`, unit: "ms", digits: 1, compare: "ratio", value: fromPhase("blob16", "blob", (p) => p.wallMs / p.calls) },
  { label: "16 MiB blob: client peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => p.clientMaxRss / MiB) },
  { label: "16 MiB blob: server peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => p.serverMaxRss / MiB) },
  { label: "16 MiB blob: client peak RSS − RSS before", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => (p.clientMaxRss - p.clientRssBefore) / MiB) },
  { label: "16 MiB blob: server peak RSS − RSS before", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => (p.serverMaxRss - p.serverBefore.rss) / MiB) },
  { label: `server RSS growth over ${SIZES.leak} calls (after 1 s idle + GC)`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("rss", "all") },
  { label: `… RSS growth over the last ${SIZES.leak / 2} of them`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("rss", "second") },
  { label: `server heap growth over ${SIZES.leak} calls (after 1 s idle + GC)`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("heapUsed", "all") },
  { label: `… heap growth over the last ${SIZES.leak / 2} of them`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("heapUsed", "second") },
  { label: `${SIZES.sessions} sessions opened at once: time`, unit: "ms", digits: 0, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => p.wallMs) },
  { label: "idle session: server RSS per session (after GC)", unit: "KiB", digits: 1, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => (p.serverAfter.rss - p.serverBefore.rss) / SIZES.sessions / KiB) },
  { label: "idle session: server heap per session (after GC)", unit: "KiB", digits: 1, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => (p.serverAfter.heapUsed - p.serverBefore.heapUsed) / SIZES.sessions / KiB) },
  { label: `${SIZES.sessions} sessions: one call on each at once`, unit: "ms", digits: 0, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => p.callAllMs!) }
]

/** The median over rounds, or the first failure when every round failed. */
const aggregate = (values: ReadonlyArray<number | string>): number | string => {
  const numbers = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v))
  if (numbers.length > 0) return median(numbers)
  return values.find((v) => typeof v === "string") ?? "n/a"
}

const fmt = (value: number | string, digits: number): string => {
  if (typeof value === "string") return value.startsWith("fails") ? "fails" : value
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

const compare = (metric: Metric, ours: number | string, other: number | string): string => {
  if (typeof ours !== "number" || typeof other !== "number") return "–"
  if (metric.compare === "delta") {
    const d = ours - other
    return `${d >= 0 ? "+" : ""}${d.toFixed(metric.digits)} ${metric.unit}`
  }
  return other === 0 ? "–" : `${(ours / other).toFixed(2)}×`
}

type Table = Record<string, Record<string, number | string>>

const tableFor = (runs: ReadonlyArray<Run>, transport: TransportKind): Table => {
  const table: Table = {}
  for (const pairing of pairingsOf(transport)) {
    const rounds = new Map<number, Reports>()
    for (const run of runs) {
      if (run.transport !== transport || run.pairing !== pairing.id) continue
      const reports = rounds.get(run.round) ?? {}
      reports[run.unit] = run.report
      rounds.set(run.round, reports)
    }
    const column: Record<string, number | string> = {}
    for (const metric of METRICS) {
      if (metric.httpOnly === true && transport === "stdio") continue
      column[metric.label] = rounds.size === 0 ? "n/a" : aggregate(Array.from(rounds.values(), metric.value))
    }
    table[pairing.id] = column
  }
  return table
}

const headerOf = (transport: TransportKind): Array<string> => [
  ...(transport === "store"
    ? ["metric", ...pairingsOf(transport).map((p) => p.id), "official→ours ÷ floor"]
    : ["metric", ...pairingsOf(transport).map((p) => p.id), "ours ÷ floor", transport === "2026" ? "ours ÷ v2" : "ours ÷ official"]),
  ...(basePairings(transport).length > 0 ? [`${subjectOf(transport)} ÷ base`] : [])
]

/** A metric is shown when some pairing has a value for it (a workload left out shows no rows). */
const rowsOf = (table: Table, transport: TransportKind): Array<Array<string>> =>
  METRICS.filter((m) => !(m.httpOnly === true && transport === "stdio")).flatMap((metric) => {
    const cell = (id: string) => table[id]?.[metric.label] ?? "n/a"
    const pairings = pairingsOf(transport)
    if (pairings.every((p) => cell(p.id) === "n/a")) return []
    const subject = subjectOf(transport)
    return [[
      `${metric.label} (${metric.unit})`,
      ...pairings.map((p) => fmt(cell(p.id), metric.digits)),
      compare(metric, cell(subject), cell("floor")),
      ...(transport === "store" ? [] : [compare(metric, cell(subject), cell(officialOf(transport)))]),
      ...(basePairings(transport).length > 0 ? [compare(metric, cell(subject), cell(baseIdOf(transport)))] : [])
    ]]
  })

const markdownTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n")
}

const textTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")).join("\n")
}

// ============================================================================
// targets
// ============================================================================

interface Target {
  readonly text: string
  readonly met: boolean | undefined
}

const targetsFor = (tables: Partial<Record<TransportKind, Table>>): Array<Target> => {
  const out: Array<Target> = []
  const num = (t: Table, id: string, label: string) => {
    const v = t[id]?.[label]
    return typeof v === "number" ? v : undefined
  }
  const check = (text: string, value: number | undefined, limit: number, dir: "min" | "max", digits = 2) => {
    out.push({
      text: `${text}: ${value === undefined ? "n/a" : value.toFixed(digits)} (target ${dir === "min" ? "≥" : "≤"} ${limit})`,
      met: value === undefined ? undefined : dir === "min" ? value >= limit : value <= limit
    })
  }
  const ratio = (t: Table, label: string) => {
    const a = num(t, "ours/ours", label)
    const b = num(t, "floor", label)
    return a === undefined || b === undefined ? undefined : a / b
  }
  const label = (prefix: string) =>
    (METRICS.find((m) => m.label === prefix) ?? METRICS.find((m) => m.label.startsWith(prefix)))!.label
  for (const transport of TRANSPORTS) {
    const t = tables[transport]
    if (t === undefined) continue
    const http = transport !== "stdio"
    const name = TRANSPORT_TITLE[transport]
    if (transport === "store") {
      // the official client drives our server: its server CPU against the floor server's
      const subject = (metric: string) => {
        const a = num(t, "official→ours", metric)
        const b = num(t, "floor", metric)
        return a === undefined || b === undefined ? undefined : a / b
      }
      check(`${name}: official→ours sequential server CPU/call vs floor`, subject(label("sequential echo: server CPU")), 3, "max")
      check(`${name}: official→ours 64 in flight server CPU/call vs floor`, subject(label(`${SIZES.inflight} in flight: server CPU`)), 3, "max")
      check(`${name}: official→ours server RSS growth over ${SIZES.leak} calls (MiB)`, num(t, "official→ours", label("server RSS growth")), 10, "max")
      check(`${name}: ours/ours server RSS growth over ${SIZES.leak} calls (MiB)`, num(t, "ours/ours", label("server RSS growth")), 10, "max")
      continue
    }
    if (transport === "2026") {
      out.push(...targets2026(t))
      continue
    }
    const [seqMin, concMin, cpuMax] = http ? [0.4, 0.3, 3] : [0.6, 0.5, 2.5]
    const seq = label("sequential echo: throughput")
    const seqClient = label("sequential echo: client CPU")
    const seqServer = label("sequential echo: server CPU")
    const conc = label(`${SIZES.inflight} in flight: throughput`)
    const concClient = label(`${SIZES.inflight} in flight: client CPU`)
    const concServer = label(`${SIZES.inflight} in flight: server CPU`)
    const blob16 = label("16 MiB blob: ms per call")
    const blob16Client = label("16 MiB blob: client peak RSS")
    const blob16Server = label("16 MiB blob: server peak RSS")
    const leak = label("server RSS growth")
    check(`${name}: sequential calls/s vs floor`, ratio(t, seq), seqMin, "min")
    check(`${name}: 64 in flight calls/s vs floor`, ratio(t, conc), concMin, "min")
    check(`${name}: sequential server CPU/call vs floor`, ratio(t, seqServer), cpuMax, "max")
    check(`${name}: sequential client CPU/call vs floor`, ratio(t, seqClient), cpuMax, "max")
    check(`${name}: 64 in flight server CPU/call vs floor`, ratio(t, concServer), cpuMax, "max")
    check(`${name}: 64 in flight client CPU/call vs floor`, ratio(t, concClient), cpuMax, "max")
    check(`${name}: 16 MiB ms/call vs floor`, ratio(t, blob16), 2, "max")
    for (const [side, metric] of [["client", blob16Client], ["server", blob16Server]] as const) {
      const a = num(t, "ours/ours", metric)
      const b = num(t, "floor", metric)
      check(`${name}: 16 MiB ${side} peak RSS above floor's (MiB)`, a === undefined || b === undefined ? undefined : a - b, 32, "max", 1)
    }
    // the same, without the baseline each program has before any call (loaded code, runtime)
    for (const side of ["client", "server"] as const) {
      const metric = label(`16 MiB blob: ${side} peak RSS − RSS before`)
      const a = num(t, "ours/ours", metric)
      const b = num(t, "floor", metric)
      check(
        `${name}: 16 MiB ${side} (peak − RSS before) above floor's (MiB)`,
        a === undefined || b === undefined ? undefined : a - b,
        32,
        "max",
        1
      )
    }
    check(`${name}: server RSS growth over ${SIZES.leak} calls (MiB)`, num(t, "ours/ours", leak), 10, "max")
    if (http) {
      const perSession = METRICS.find((m) => m.label.startsWith("idle session: server RSS"))!.label
      check(`${name}: server RSS per idle session (KiB)`, num(t, "ours/ours", perSession), 40, "max", 1)
    }
  }
  return out
}

/**
 * The 2026-07-28 targets (issues 16, 17, 21): at least 2× the v2 SDK's calls/s, our server's CPU
 * per call within 2.5× the floor's, our client's at most half the v2 client's; ours/ours against
 * v2/v2, and the same with the other side's peer held fixed (v2→ours, ours→v2).
 */
const targets2026 = (t: Table): Array<Target> => {
  const name = TRANSPORT_TITLE["2026"]
  const out: Array<Target> = []
  const num = (id: string, label: string) => {
    const v = t[id]?.[label]
    return typeof v === "number" ? v : undefined
  }
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b)
  const check = (text: string, value: number | undefined, limit: number, dir: "min" | "max") =>
    out.push({
      text: `${text}: ${value === undefined ? "n/a" : value.toFixed(2)} (target ${dir === "min" ? "≥" : "≤"} ${limit})`,
      met: value === undefined ? undefined : dir === "min" ? value >= limit : value <= limit
    })
  const label = (prefix: string) => METRICS.find((m) => m.label.startsWith(prefix))!.label
  for (const [mode, prefix] of [["sequential", "sequential echo"], [`${SIZES.inflight} in flight`, `${SIZES.inflight} in flight`]] as const) {
    const calls = label(`${prefix}: throughput`)
    const server = label(`${prefix}: server CPU`)
    const client = label(`${prefix}: client CPU`)
    check(`${name}: ${mode} calls/s, ours/ours vs v2/v2`, ratio(num("ours/ours", calls), num("v2/v2", calls)), 2, "min")
    check(`${name}: ${mode} calls/s, v2→ours vs v2/v2 (our server, same client)`, ratio(num("v2→ours", calls), num("v2/v2", calls)), 2, "min")
    check(`${name}: ${mode} server CPU/call, ours/ours vs floor`, ratio(num("ours/ours", server), num("floor", server)), 2.5, "max")
    check(`${name}: ${mode} client CPU/call, ours/ours vs v2/v2`, ratio(num("ours/ours", client), num("v2/v2", client)), 0.5, "max")
    check(`${name}: ${mode} client CPU/call, ours→v2 vs v2/v2 (our client, same server)`, ratio(num("ours→v2", client), num("v2/v2", client)), 0.5, "max")
  }
  const leak = label("server RSS growth")
  check(`${name}: ours/ours server RSS growth over ${SIZES.leak} calls (MiB)`, num("ours/ours", leak), 10, "max")
  return out
}

// ============================================================================
// machine and output
// ============================================================================

const machine = () => {
  let cpu = os.cpus()[0]?.model ?? "unknown"
  try {
    const line = fs.readFileSync("/proc/cpuinfo", "utf8").split("\n").find((l) => l.startsWith("model name"))
    if (line !== undefined) cpu = line.split(":")[1]!.trim()
  } catch {
    // not Linux
  }
  const version = (name: string) =>
    (JSON.parse(fs.readFileSync(path.join(packageDir, `node_modules/${name}/package.json`), "utf8")) as { version: string })
      .version
  const sdk = { version: version("@modelcontextprotocol/sdk") }
  return {
    node: process.version,
    nproc: os.availableParallelism(),
    cpu,
    memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    sdk: sdk.version,
    v2: `@modelcontextprotocol/server ${version("@modelcontextprotocol/server")}, client ${
      version("@modelcontextprotocol/client")
    }, node ${version("@modelcontextprotocol/node")}`
  }
}

const describeRun = (m: ReturnType<typeof machine>, seconds: number) =>
  [
    `- machine: ${m.cpu}, nproc ${m.nproc}, ${m.memory} RAM; node ${m.node}; @modelcontextprotocol/sdk ${m.sdk}`,
    `- date: ${m.date}; ${ROUNDS} round(s), medians; whole run ${Math.round(seconds)} s${QUICK ? " (BENCH_QUICK: smoke run, not results)" : ""}`,
    ...(baseline?.commit === undefined ? [] : [`- baseline (\`@base\` pairings, \`÷ base\`): commit ${baseline.commit.slice(0, 12)}, bundled in the same run`]),
    `- counts: ${SIZES.warmup} warm-up calls (half sequential, half 64 in flight; at most ${(2 * SIZES.capMs) / 1000} s), ` +
    `${SIZES.seq} sequential and ${SIZES.conc} at ${SIZES.inflight} in flight (each at most ${SIZES.capMs / 1000} s), ` +
    `${SIZES.leak} for RSS growth (${LEAK_INFLIGHT} in flight, ${LEAK_ROUNDS} round), ${SIZES.blob1}× 1 MiB, ${SIZES.blob16}× 16 MiB, ${SIZES.sessions} sessions`
  ].join("\n")

interface Saved {
  readonly machine: ReturnType<typeof machine>
  readonly seconds: number
  readonly runs: ReadonlyArray<Run>
  readonly limits: ReadonlyArray<readonly [string, string, string]>
  readonly baseline?: { readonly dir: string; readonly store: boolean; readonly commit?: string } | undefined
}

/** The Redis configuration (`src/redis.ts`): asked for by `BENCH_ONLY=redis`, or by no `BENCH_ONLY`. */
const RUN_REDIS = process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY.split(",").includes("redis")

/** Runs the Redis configuration; its README section after a full run, `bundle/results-redis.md` after a quick one. */
const redisSection = async () => {
  const { runRedisBench } = await import("./redis.js")
  const started = Date.now()
  const section = await runRedisBench(bundleDir, {
    warmup: QUICK ? 200 : 5000,
    calls: QUICK ? 200 : 3000,
    rounds: ROUNDS
  })
  const m = machine()
  const seconds = Math.round((Date.now() - started) / 1000)
  const text = [
    `- machine: ${m.cpu}, nproc ${m.nproc}, ${m.memory} RAM; node ${m.node}`,
    `- date: ${m.date}; this configuration ${seconds} s${QUICK ? " (BENCH_QUICK: smoke run, not results)" : ""}`,
    section
  ].join("\n")
  process.stdout.write(`\n== Redis backend ==\n${text}\n`)
  fs.writeFileSync(path.join(bundleDir, "results-redis.md"), text)
  if (QUICK) return process.stdout.write(`\nwrote ${path.join(bundleDir, "results-redis.md")}\n`)
  const readme = path.join(packageDir, "README.md")
  const current = fs.readFileSync(readme, "utf8")
  const start = "<!-- results-redis:start -->"
  const end = "<!-- results-redis:end -->"
  const i = current.indexOf(start)
  const j = current.indexOf(end)
  fs.writeFileSync(
    readme,
    i === -1 || j === -1
      ? `${current}\n## Results: the Redis backend\n\n${start}\n${text}\n${end}\n`
      : `${current.slice(0, i + start.length)}\n${text}\n${current.slice(j)}`
  )
  process.stdout.write(`\nwrote ${readme}\n`)
}

const main = async () => {
  if (process.env.BENCH_ONLY !== undefined && TRANSPORTS.length === 0 && RUN_REDIS && process.env.BENCH_RENDER === undefined) {
    return redisSection()
  }
  if (process.env.BENCH_RENDER !== undefined) {
    const saved = JSON.parse(fs.readFileSync(process.env.BENCH_RENDER, "utf8")) as Saved
    baseline = saved.baseline
    return render(saved.runs, saved.limits, saved.seconds, saved.machine)
  }
  const started = Date.now()
  const runs: Array<Run> = []
  if (BASELINE !== undefined && BASELINE !== "") await bundleBaseline(BASELINE)

  if (PROFILE) {
    fs.mkdirSync(profileDir, { recursive: true })
    for (const transport of TRANSPORTS) {
      const unit = UNITS[0]!
      // with the event store on, the official client drives our server
      const pairing = pairingsOf(transport)[0]!
      process.stdout.write(`profiling ${pairing.id} over ${transport}…\n`)
      const name = `${pairing.client}-${pairing.server}-${transport}`
      const report = await runOnce(transport, pairing, phasesOf(transport, unit), unit.maxMessageBytes, name)
      if (!report.ok) process.stdout.write(`  failed: ${report.error}\n`)
    }
    process.stdout.write(`profiles in ${profileDir}\n`)
    return
  }

  for (const transport of TRANSPORTS) {
    for (const unit of UNITS) {
      if (unit.httpOnly === true && transport === "stdio") continue
      if (transport === "store" && !STORE_UNITS.includes(unit.name)) continue
      if (transport === "2026" && !UNITS_2026.includes(unit.name)) continue
      if (ONLY_UNITS !== undefined && !ONLY_UNITS.includes(unit.name)) continue
      for (let round = 1; round <= (unit.rounds ?? ROUNDS); round++) {
        for (const pairing of pairingsOf(transport)) {
          const t0 = Date.now()
          const report = await runOnce(transport, pairing, phasesOf(transport, unit), unit.maxMessageBytes).catch((error): Report => ({
            ok: false,
            error: error instanceof Error ? error.message : String(error),
            phases: []
          }))
          const seconds = (Date.now() - t0) / 1000
          runs.push({ transport, pairing: pairing.id, unit: unit.name, round, seconds, report })
          const failure = !report.ok ? report.error : report.phases.find((p) => p.error !== undefined)?.error
          process.stdout.write(
            `[${transport} ${unit.name} r${round}] ${pairing.id.padEnd(18)} ${seconds.toFixed(1).padStart(5)} s` +
              `${failure !== undefined ? `  FAILED: ${failure}` : ""}\n`
          )
        }
      }
    }
  }

  // 16 MiB with each client's default message limit, once (not in a quick run)
  const limits: Array<readonly [string, string, string]> = []
  const limitTransports = ONLY_UNITS === undefined ? TRANSPORTS.filter((t) => t !== "store" && t !== "2026") : []
  for (const transport of QUICK ? [] : limitTransports) {
    for (const pairing of PAIRINGS) {
      if (pairing.client === "floor") continue
      const report = await runOnce(transport, pairing, [{ kind: "blob", n: 1, bytes: 16 * MiB }], undefined)
      const phase = report.phases[0]
      const outcome = !report.ok
        ? `fails: ${report.error}`
        : phase?.error !== undefined
        ? `fails: ${phase.error}`
        : `works (${Math.round(phase!.wallMs)} ms)`
      limits.push([TRANSPORT_TITLE[transport], pairing.id, outcome.replace(/\s+/g, " ").slice(0, 160)])
      process.stdout.write(`[${transport} 16 MiB default limits] ${pairing.id.padEnd(18)} ${outcome.slice(0, 120)}\n`)
    }
  }

  const seconds = (Date.now() - started) / 1000
  const m = machine()
  fs.writeFileSync(
    path.join(bundleDir, "results.json"),
    JSON.stringify({ machine: m, seconds, sizes: SIZES, rounds: ROUNDS, runs, limits, baseline }, null, 1)
  )
  render(runs, limits, seconds, m)
  if (RUN_REDIS && ONLY_UNITS === undefined && ONLY_PAIRINGS === undefined) await redisSection()
}

const resultsDir = path.join(packageDir, "results")

/**
 * The main transports' tables as JSON and the headline chart drawn from them: into `results/`
 * (committed, shown in the README) after a complete run, into `bundle/` after a partial one.
 */
const writeHeadline = (
  tables: Partial<Record<TransportKind, Table>>,
  seconds: number,
  m: ReturnType<typeof machine>,
  dir: string
) => {
  const results: Results = {
    machine: m,
    seconds: Math.round(seconds),
    rounds: ROUNDS,
    tables: Object.fromEntries(
      [...MAIN_TRANSPORTS, "2026" as const].flatMap((t) => (tables[t] === undefined ? [] : [[t, tables[t]]]))
    )
  }
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "latest.json"), JSON.stringify(results, null, 1) + "\n")
  fs.writeFileSync(path.join(dir, "headline.svg"), renderHeadline(results))
  process.stdout.write(`\nwrote ${path.join(dir, "latest.json")} and headline.svg\n`)
}

const render = (
  runs: ReadonlyArray<Run>,
  limits: ReadonlyArray<readonly [string, string, string]>,
  seconds: number,
  m: ReturnType<typeof machine>
) => {
  const tables: Partial<Record<TransportKind, Table>> = {}
  const text: Array<string> = []
  const markdown: Partial<Record<TransportKind, string>> = {}
  for (const transport of TRANSPORTS) {
    const table = tableFor(runs, transport)
    tables[transport] = table
    const rows = rowsOf(table, transport)
    const header = headerOf(transport)
    text.push(`\n== ${TRANSPORT_TITLE[transport]} ==\n${textTable(header, rows)}`)
    markdown[transport] = `### ${TRANSPORT_TITLE[transport]}\n\n${markdownTable(header, rows)}\n`
  }
  const failures = runs.flatMap((r) => {
    const error = !r.report.ok ? r.report.error : r.report.phases.find((p) => p.error !== undefined)?.error
    return error === undefined ? [] : [`${r.transport} ${r.unit} r${r.round} ${r.pairing}: ${error.replace(/\s+/g, " ").slice(0, 200)}`]
  })
  const targets = targetsFor(tables)
  const targetLine = (t: Target) => `- ${t.met === undefined ? "n/a" : t.met ? "met" : "MISSED"}: ${t.text}`
  const storeTitle = TRANSPORT_TITLE.store
  const title2026 = TRANSPORT_TITLE["2026"]
  const mainTargets = targets.filter((t) => !t.text.startsWith(storeTitle) && !t.text.startsWith(title2026)).map(targetLine)
  const storeTargets = targets.filter((t) => t.text.startsWith(storeTitle)).map(targetLine)
  const targets2026Lines = targets.filter((t) => t.text.startsWith(title2026)).map(targetLine)
  const failureLines = (of: (f: string) => boolean) => {
    const lines = failures.filter(of)
    return lines.length > 0 ? [`### Failed runs\n\n${lines.map((f) => `- ${f}`).join("\n")}\n`] : []
  }

  const limitRows = limits.map((l) => `| ${l.join(" | ")} |`)
  const main = [
    describeRun(m, seconds),
    "",
    ...MAIN_TRANSPORTS.flatMap((t) => markdown[t] ?? []),
    "### 16 MiB with each client's default message limit\n\n" +
    "The table above raises the client's limit to 64 MiB (official stdio `maxBufferSize`, our HTTP client's `maxEventSize`).\n\n" +
    "| transport | pairing | 16 MiB result |\n| --- | --- | --- |\n" + limitRows.join("\n") + "\n",
    `### Targets (ours/ours)\n\n${mainTargets.join("\n")}\n`,
    ...failureLines((f) => !f.startsWith("store ") && !f.startsWith("2026 "))
  ].join("\n")
  const store = [
    describeRun(m, seconds),
    "",
    markdown.store ?? "",
    `### Targets (official→ours, event store on)\n\n${storeTargets.join("\n")}\n`,
    ...failureLines((f) => f.startsWith("store "))
  ].join("\n")
  const era2026 = [
    describeRun(m, seconds),
    `- official v2 SDK: ${m.v2}`,
    "",
    markdown["2026"] ?? "",
    `### Targets (2026-07-28)\n\n${targets2026Lines.join("\n")}\n`,
    ...failureLines((f) => f.startsWith("2026 "))
  ].join("\n")

  process.stdout.write(`\n${describeRun(m, seconds)}\n${text.join("\n")}\n\n16 MiB with default limits:\n`)
  for (const l of limits) process.stdout.write(`  ${l[0]} / ${l[1]}: ${l[2]}\n`)
  process.stdout.write(`\ntargets:\n${targets.map(targetLine).join("\n")}\n`)
  if (failures.length > 0) process.stdout.write(`\nfailed runs:\n${failures.join("\n")}\n`)

  const ranMain = MAIN_TRANSPORTS.some((t) => TRANSPORTS.includes(t))
  const ranStore = TRANSPORTS.includes("store")
  const ran2026 = TRANSPORTS.includes("2026")
  fs.writeFileSync(
    path.join(bundleDir, "results.md"),
    [ranMain ? main : "", ranStore ? store : "", ran2026 ? era2026 : ""].join("\n")
  )
  // the README's sections are rewritten by complete runs only: all three main transports and
  // every workload for the main one; the event-store workloads for its own
  const complete = ONLY_PAIRINGS === undefined &&
    (ONLY_UNITS === undefined || (ranStore && !ranMain && STORE_UNITS.every((u) => ONLY_UNITS.includes(u))) ||
      (ran2026 && !ranMain && UNITS_2026.every((u) => ONLY_UNITS.includes(u))))
  const completeMain = !QUICK && complete && MAIN_TRANSPORTS.every((t) => TRANSPORTS.includes(t))
  if (ranMain || ran2026) writeHeadline(tables, seconds, m, completeMain ? resultsDir : bundleDir)
  if (QUICK || !complete) {
    process.stdout.write(`\nwrote ${path.join(bundleDir, "results.md")}\n`)
    return
  }
  const readme = path.join(packageDir, "README.md")
  let current = fs.existsSync(readme) ? fs.readFileSync(readme, "utf8") : "# @effect-mcp/bench\n"
  const replaceSection = (name: string, title: string, section: string) => {
    const start = `<!-- ${name}:start -->`
    const end = `<!-- ${name}:end -->`
    const i = current.indexOf(start)
    const j = current.indexOf(end)
    current = i === -1 || j === -1
      ? `${current}\n## ${title}\n\n${start}\n${section}\n${end}\n`
      : `${current.slice(0, i + start.length)}\n${section}\n${current.slice(j)}`
  }
  if (MAIN_TRANSPORTS.every((t) => TRANSPORTS.includes(t))) replaceSection("results", "Results", main)
  if (ranStore) replaceSection("results-store", "Results: event store on, official client driving", store)
  if (ran2026) replaceSection("results-2026", "Results: 2026-07-28 stateless, against the official v2 SDK", era2026)
  fs.writeFileSync(readme, current)
  process.stdout.write(`\nwrote ${readme}\n`)
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
