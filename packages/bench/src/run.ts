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
 * - `BENCH_ONLY=bundle`: bundle sizes only (`src/bundleSize.ts`: our browser client and fetch-handler
 *   server beside the official SDK's, esbuild, minified, gzipped; seconds; its own README section,
 *   also part of a run without `BENCH_ONLY`). `BENCH_BUNDLE_SERVER=<file>` measures another
 *   fetch-handler module as ours.
 * - `BENCH_ONLY=redis`: the Redis backend (`@effect-mcp/redis`) next to in-memory (`src/redis.ts`;
 *   its own README section; part of a run without `BENCH_ONLY` too, skipped without a Redis).
 * - `BENCH_UNITS=calls,leak,…`: workloads to run (default all).
 * - `BENCH_PAIRINGS=official→ours,floor`: pairings to run (default all; to iterate, not for results).
 * - `BENCH_RENDER=bundle/results.json`: no run; rebuild the tables (and the
 *   README section, unless the saved run was quick) from a saved run.
 * - `BENCH_BASELINE=<commit>`: also the programs of that commit (bundled from a
 *   detached `git worktree` under `bundle/`, with the commit's own workspace packages and, when
 *   its `pnpm-lock.yaml` is ours, this checkout's npm packages by links, else its own installed
 *   from its lockfile, e.g. the last Effect 3 commit from the Effect 4 tree; `src/baseline.ts`): an
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
import { bundleBaseline } from "./baseline.js"
import type { Impl, Phase, Report, Spec, TransportKind } from "./client.js"
import { type Results, renderHeadline } from "./chart.js"
import { MiB } from "./common.js"
import type { WireCounts } from "./wireCheck.js"
import {
  BASELINE,
  LEAK_INFLIGHT,
  LEAK_ROUNDS,
  MAIN_TRANSPORTS,
  ONLY_PAIRINGS,
  ONLY_UNITS,
  PAIRINGS,
  PROFILE,
  type Pairing,
  QUICK,
  ROUNDS,
  SIZES,
  STORE_UNITS,
  TRANSPORTS,
  TRANSPORT_TITLE,
  UNITS,
  UNITS_2026,
  baseline,
  setBaseline,
  bundleDir,
  packageDir,
  pairingsOf,
  phasesOf,
  profileDir
} from "./config.js"
import { type Run, type Table, headerOf, markdownTable, rowsOf, tableFor, textTable } from "./metrics.js"
import { type Target, targetsFor } from "./targets.js"

// ============================================================================
// processes
// ============================================================================

const SCRIPTS: Record<Impl, string> = {
  ours: path.join(bundleDir, "serverOurs.js"),
  official: path.join(bundleDir, "serverOfficial.js"),
  floor: path.join(bundleDir, "serverFloor.js"),
  v2: path.join(bundleDir, "serverV2.js"),
  "effect-ai": path.join(bundleDir, "serverEffectAi.js")
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
  args: ReadonlyArray<string> = [],
  env: NodeJS.ProcessEnv = process.env
) =>
  new Promise<{ readonly url: string; readonly child: ChildProcess }>((resolve, reject) => {
    const mode = transport === "json" ? ["--json"] : transport === "store" ? ["--event-store"] : transport === "2026" ? ["--2026"] : []
    const child = spawn(process.execPath, [...flags, script, "--http", ...mode, ...args], {
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
  const base = { impl: pairing.client, transport, phases, maxMessageBytes, ...(pairing.tracing === true ? { tracing: true } : {}) }
  // tracing on in the server too (`src/otel.ts`)
  const otel = pairing.tracing === true ? ["--otel"] : []
  if (transport === "stdio") {
    return runClient(
      { ...base, server: { command: process.execPath, args: [...serverFlags, scriptOf(pairing), "--stdio", ...otel] } },
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
    otel,
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
    `- counts: ${SIZES.warmup} warm-up calls (sequential, 64 in flight, sequential, 64 in flight: a quarter each; at most ${(2 * SIZES.capMs) / 1000} s), ` +
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

/** The bundle sizes (`src/bundleSize.ts`): asked for by `BENCH_ONLY=bundle`, or by no `BENCH_ONLY`. */
const RUN_BUNDLE = process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY.split(",").includes("bundle")

/** Measures the bundles; their README section unless quick (`bundle/results-bundle.md` always). */
const bundleSection = async () => {
  const { measureAll, renderBundles } = await import("./bundleSize.js")
  const started = Date.now()
  const sizes = await measureAll()
  const m = machine()
  const text = [
    `- date: ${m.date}; node ${m.node}; esbuild ${
      (JSON.parse(fs.readFileSync(path.join(packageDir, "node_modules/esbuild/package.json"), "utf8")) as { version: string }).version
    }; @modelcontextprotocol/sdk ${m.sdk}; ${m.v2}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    "",
    renderBundles(sizes)
  ].join("\n")
  process.stdout.write(`\n== bundle sizes ==\n${text}\n`)
  fs.writeFileSync(path.join(bundleDir, "results-bundle.md"), text + "\n")
  if (QUICK) return process.stdout.write(`\nwrote ${path.join(bundleDir, "results-bundle.md")}\n`)
  const readme = path.join(packageDir, "README.md")
  const current = fs.readFileSync(readme, "utf8")
  const start = "<!-- results-bundle:start -->"
  const end = "<!-- results-bundle:end -->"
  const i = current.indexOf(start)
  const j = current.indexOf(end)
  fs.writeFileSync(
    readme,
    i === -1 || j === -1
      ? `${current}\n## Results: bundle sizes\n\n${start}\n${text}\n${end}\n`
      : `${current.slice(0, i + start.length)}\n${text}\n${current.slice(j)}`
  )
  process.stdout.write(`\nwrote ${readme}\n`)
}

const main = async () => {
  if (process.env.BENCH_ONLY !== undefined && TRANSPORTS.length === 0 && process.env.BENCH_RENDER === undefined) {
    if (RUN_BUNDLE) await bundleSection()
    if (RUN_REDIS) await redisSection()
    return
  }
  if (process.env.BENCH_RENDER !== undefined) {
    const saved = JSON.parse(fs.readFileSync(process.env.BENCH_RENDER, "utf8")) as Saved
    setBaseline(saved.baseline)
    return render(saved.runs, saved.limits, saved.seconds, saved.machine)
  }
  const started = Date.now()
  const runs: Array<Run> = []
  // the workspace this bench is in (`next/` while the port lives there, later the repository's root)
  if (BASELINE !== undefined && BASELINE !== "") setBaseline(bundleBaseline(path.resolve(packageDir, "../.."), bundleDir, BASELINE))

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
          if (pairing.units !== undefined && !pairing.units.includes(unit.name)) continue
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
  if (RUN_BUNDLE && ONLY_UNITS === undefined && ONLY_PAIRINGS === undefined) await bundleSection()
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
    (ONLY_UNITS === undefined || (ranStore && !ranMain && STORE_UNITS.every((u) => ONLY_UNITS?.includes(u) === true)) ||
      (ran2026 && !ranMain && UNITS_2026.every((u) => ONLY_UNITS?.includes(u) === true)))
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
