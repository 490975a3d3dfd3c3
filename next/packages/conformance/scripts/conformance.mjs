#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12) against
// our fixture server (dist/server.js, streamable HTTP) and our fixture client (dist/client.js).
//
// It builds nothing: run `pnpm build` first (the root `pnpm conformance` does).
//
//   node packages/conformance/scripts/conformance.mjs [--requirements 2025-11-25|2026-07-28]
//        [--server-only | --client-only] [--auth] [--extensions]
//        [--scenario <server scenario>] [--client-scenario <client scenario>]
//        [--keep] [--json-response] [--session-per-request] [--bridge]
//
// The suite's requirement sets (node_modules/@modelcontextprotocol/conformance/requirements/<rev>.yaml)
// name what each spec revision requires, scored or "not scored" (extension, added after release, pending).
// For the chosen revision (2025-11-25 by default):
//
// 1. server: starts `node dist/server.js --port <free port>`, runs `conformance server --requirements <rev>`
//    (every scenario of the set, scored or not, sequentially) and reads each scenario's checks.json;
// 2. client: runs each client scenario of the set on its own (`conformance client --scenario <name>
//    --spec-version <rev> --force`, as `--requirements` would, but one at a time: the suite's parallel
//    client runner times out on 2 cores), authorization scenarios (`auth/*`) only with --auth (which adds
//    the two 2025-03-26 fallbacks to a 2025-11-25 run, at their own wire);
// 3. --extensions adds the extension scenarios no set names (the skills extension, sep-2640-*);
// 4. prints a table (scenario, checks passed/failed/warnings/skipped) and a verdict per leg.
//
// Gating: GATING revisions decide the exit code (2025-11-25 today), and so do GATING_LEGS of the others
// (both legs of 2026-07-28, with the tasks extension's scenarios). In a gating run every non-authorization scenario
// the set names must pass with no FAILURE and no WARNING check (SKIPPED and INFO are fine), and the
// client must exit 0 (the set's scored scenarios and those it runs unscored as added after release or
// pending). Authorization scenarios gate when --auth runs them (all of them: scored, extensions and the
// 2025-03-26 fallbacks); other extension scenarios gate when they are in GATING_EXTENSIONS (the skills
// scenarios). `pnpm conformance` runs with --auth --extensions.
// A run that cannot be measured (the fixture does not start, a gating scenario leaves no result)
// fails; a reported scenario that leaves no result (the suite gave up on it) is listed as such.
//
// --bridge serves the fixture through the official SDK's HTTP transport (scripts/sdk-http-bridge.ts)
// instead of ours: a baseline that separates fixture/engine problems from transport problems.
// The suite needs `fs.globSync` (Node >= 22): on Node 20 it runs with the shim in globsync-hook.mjs.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The revisions whose failures fail the run. */
const GATING = new Set(["2025-11-25"])
/** Extension scenarios no requirement set names (run with --extensions). */
const EXTENSIONS = {
  server: ["sep-2640-skills-directory", "sep-2640-skills-enumeration", "sep-2640-skills-manifest"],
  client: [
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter"
  ]
}
/** Extension scenarios that gate a gating revision's run when --extensions runs them (they pass). */
const GATING_EXTENSIONS = new Set([...EXTENSIONS.server, ...EXTENSIONS.client])
/** Authorization scenarios of the 2025-03-26 fallbacks no set names (run with --auth, at their own wire). */
const BACKCOMPAT_AUTH = ["auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback"]
const LISTEN_TIMEOUT_MS = 20_000
const SERVER_SUITE_TIMEOUT_MS = 10 * 60_000
/** The suite's own client timeout is 30 s; this one only catches a wedged runner. */
const CLIENT_SCENARIO_TIMEOUT_MS = 90_000

const here = dirname(fileURLToPath(import.meta.url))
const packageDir = resolve(here, "..")
const serverEntry = join(packageDir, "dist", "server.js")
const clientEntry = join(packageDir, "dist", "client.js")
const bridgeEntry = join(here, "sdk-http-bridge.ts")
const hook = join(here, "globsync-hook.mjs")
const suiteDir = join(packageDir, "node_modules", "@modelcontextprotocol", "conformance")
const suiteEntry = join(suiteDir, "dist", "index.js")

// ---------------------------------------------------------------- arguments
const USAGE = "usage: conformance.mjs [--requirements 2025-11-25|2026-07-28] [--server-only | --client-only] " +
  "[--auth] [--extensions] [--scenario <server scenario>] [--client-scenario <client scenario>] " +
  "[--keep] [--json-response] [--session-per-request] [--bridge]"
const opts = {
  revision: "2025-11-25",
  server: true,
  client: true,
  auth: false,
  extensions: false,
  scenario: undefined,
  clientScenario: undefined,
  keep: false,
  bridge: false,
  serverFlags: []
}
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]
  const value = () => {
    const v = argv[++i]
    if (v === undefined || v.startsWith("--")) usage(`${arg} needs a value`)
    return v
  }
  if (arg === "--requirements") opts.revision = value()
  else if (arg === "--server-only") opts.client = false
  else if (arg === "--client-only") opts.server = false
  else if (arg === "--auth") opts.auth = true
  else if (arg === "--extensions") opts.extensions = true
  else if (arg === "--scenario") [opts.scenario, opts.client] = [value(), false]
  else if (arg === "--client-scenario") [opts.clientScenario, opts.server] = [value(), false]
  else if (arg === "--keep") opts.keep = true
  else if (arg === "--bridge") [opts.bridge, opts.client] = [true, false]
  else if (arg === "--json-response" || arg === "--session-per-request") opts.serverFlags.push(arg)
  else usage(`unknown argument: ${arg}`)
}
function usage(message) {
  console.error(message)
  console.error(USAGE)
  process.exit(2)
}
if (!opts.server && !opts.client) usage("nothing to run")
const gating = GATING.has(opts.revision)

for (
  const [what, file] of [
    ["the conformance suite", suiteEntry],
    ...(opts.server ? [opts.bridge ? ["the SDK bridge", bridgeEntry] : ["the fixture server (run `pnpm build`)", serverEntry]] : []),
    ...(opts.client ? [["the fixture client (run `pnpm build`)", clientEntry]] : [])
  ]
) {
  if (!existsSync(file)) {
    console.error(`missing ${what}: ${file}`)
    process.exit(1)
  }
}

// ---------------------------------------------------------------- the requirement set
/** `{ server, client, notScored: [{ scenario, leg, reason }] }`, read with the suite's own YAML parser. */
const readRequirements = (revision) => {
  const file = join(suiteDir, "requirements", `${revision}.yaml`)
  if (!existsSync(file)) {
    const known = readdirSync(join(suiteDir, "requirements")).map((f) => f.replace(/\.yaml$/, ""))
    usage(`no requirement set for ${revision} (known: ${known.join(", ")})`)
  }
  const YAML = createRequire(realpathSync(suiteEntry))("yaml")
  const doc = YAML.parse(readFileSync(file, "utf8"))
  return { server: doc.server ?? [], client: doc.client ?? [], notScored: doc.not_scored ?? [] }
}
const requirements = readRequirements(opts.revision)
const isAuth = (name) => name.startsWith("auth/")

/** What a scenario is in this run: `scored`, a not-scored reason, or `extension` (--extensions). */
const kindOf = (leg, name) =>
  requirements[leg].includes(name)
    ? "scored"
    : BACKCOMPAT_AUTH.includes(name)
    ? "2025-03-26"
    : requirements.notScored.find((e) => e.leg === leg && e.scenario === name)?.reason ?? "extension"

/** The client scenarios this run drives, in the set's order. */
const clientScenarios = () => {
  if (opts.clientScenario !== undefined) return [opts.clientScenario]
  const named = [
    ...requirements.client,
    ...requirements.notScored.filter((e) => e.leg === "client").map((e) => e.scenario)
  ]
  return [
    ...named.filter((s) => !isAuth(s)),
    ...(opts.auth ? [...named.filter(isAuth), ...(opts.revision === "2025-11-25" ? BACKCOMPAT_AUTH : [])] : []),
    ...(opts.extensions ? EXTENSIONS.client : [])
  ]
}

/** Legs of a revision not gating as a whole that gate: their non-authorization scenarios pass. */
const GATING_LEGS = new Set(["2026-07-28 client", "2026-07-28 server"])
/** Extension scenarios the 2026-07-28 set names (not scored) that gate its server leg: the tasks extension (SEP-2663). */
const GATING_2026_EXTENSIONS = new Set([
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition"
])
/**
 * Scenarios this suite version skips whatever the implementation does (every check SKIPPED): they gate
 * on no failure and no warning. tasks-status-notifications awaits its rewrite onto subscriptions/listen.
 */
const SUITE_SKIPPED = new Set(["tasks-status-notifications"])
/** A scenario gates when its revision does: authorization ones (run with --auth) all, extensions if in GATING_EXTENSIONS. */
const gates = (leg, name) =>
  (gating && (isAuth(name) || kindOf(leg, name) !== "extension" || GATING_EXTENSIONS.has(name))) ||
  (GATING_LEGS.has(`${opts.revision} ${leg}`) &&
    (isAuth(name) || kindOf(leg, name) !== "extension" || (opts.revision === "2026-07-28" && GATING_2026_EXTENSIONS.has(name))))
/** Whether a gating row passes: no failure and no warning (and some success, unless the suite skips it whole). */
const passes = (row) => verdictOf(row) === "pass" || (verdictOf(row) === "skip" && SUITE_SKIPPED.has(row.name))

// ---------------------------------------------------------------- helpers
const freePort = () =>
  new Promise((ok, fail) => {
    const srv = createServer()
    srv.once("error", fail)
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address()
      srv.close(() => ok(port))
    })
  })

const canConnect = (port) =>
  new Promise((ok) => {
    const socket = connect({ host: "127.0.0.1", port })
    socket.once("connect", () => {
      socket.destroy()
      ok(true)
    })
    socket.once("error", () => ok(false))
  })

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

const exited = (child) =>
  new Promise((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) ok({ code: child.exitCode, signal: child.signalCode })
    else child.once("exit", (code, signal) => ok({ code, signal }))
  })

/** Waits for `child` to exit, killing it after `ms`. */
const exitedWithin = async (child, ms, what) => {
  const timer = setTimeout(() => {
    console.error(`[conformance] ${what} did not finish within ${ms / 1000} s; killing it`)
    child.kill("SIGKILL")
  }, ms)
  const result = await exited(child)
  clearTimeout(timer)
  return result
}

const stop = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill("SIGTERM")
  const done = await Promise.race([exited(child), sleep(3_000).then(() => undefined)])
  if (done === undefined) {
    child.kill("SIGKILL")
    await exited(child)
  }
}

const prefixLines = (stream, target, prefix) => {
  let pending = ""
  stream.setEncoding("utf8")
  stream.on("data", (chunk) => {
    pending += chunk
    const lines = pending.split("\n")
    pending = lines.pop()
    for (const line of lines) target.write(`${prefix}${line}\n`)
  })
  stream.on("end", () => pending !== "" && target.write(`${prefix}${pending}\n`))
}

const findChecks = (dir) => {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...findChecks(path))
    else if (entry.name === "checks.json") out.push(path)
  }
  return out
}

/** `[<prefix>]<scenario>-<timestamp>/checks.json` → `<scenario>` */
const scenarioOf = (checksPath, outDir, prefix) => {
  const dir = relative(outDir, dirname(checksPath)).split("\\").join("/")
  const m = /^(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z?$/.exec(dir)
  const name = m ? m[1] : dir
  return name.startsWith(prefix) ? name.slice(prefix.length) : name
}

/** Reads a checks.json: its counts and the lines to print for each FAILURE and WARNING. */
const readChecks = (file, name) => {
  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0, other: 0 }
  const problems = []
  let checks
  try {
    checks = JSON.parse(readFileSync(file, "utf8"))
  } catch (e) {
    return { counts, problems: [`${name}: unreadable checks.json (${e.message})`], broken: true }
  }
  if (!Array.isArray(checks)) return { counts, problems: [`${name}: checks.json is not an array`], broken: true }
  for (const check of checks) {
    const status = check?.status
    if (status in counts) counts[status]++
    else counts.other++
    if (status !== "FAILURE" && status !== "WARNING") continue
    const detail = typeof check.errorMessage === "string" && check.errorMessage !== ""
      ? `\n      ${check.errorMessage.slice(0, 400)}`
      : ""
    problems.push(`${status} ${name} / ${check?.id}: ${check?.description ?? ""}${detail}`)
  }
  return { counts, problems, broken: false }
}

const suiteArgs = (...args) => ["--import", hook, suiteEntry, ...args]

// ---------------------------------------------------------------- server leg
/** Runs the server scenarios; returns one row per scenario. */
const runServerLeg = async (outDir) => {
  const port = await freePort()
  const url = `http://localhost:${port}/mcp`
  console.error(`[conformance] starting ${opts.bridge ? "the SDK bridge" : "the fixture server"} on port ${port}`)
  const server = opts.bridge
    ? spawn(process.execPath, ["--import", "tsx", "--conditions=effect-mcp-source", bridgeEntry], {
      cwd: packageDir,
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"]
    })
    : spawn(process.execPath, [serverEntry, "--port", String(port), ...opts.serverFlags], {
      stdio: ["ignore", "pipe", "pipe"]
    })
  prefixLines(server.stdout, process.stderr, "[server] ")
  prefixLines(server.stderr, process.stderr, "[server] ")
  try {
    const deadline = Date.now() + LISTEN_TIMEOUT_MS
    let listening = false
    while (Date.now() < deadline && server.exitCode === null && server.signalCode === null) {
      if (await canConnect(port)) {
        listening = true
        break
      }
      await sleep(100)
    }
    if (!listening) {
      const why = server.exitCode !== null || server.signalCode !== null
        ? `exited (code ${server.exitCode}, signal ${server.signalCode})`
        : `did not listen within ${LISTEN_TIMEOUT_MS} ms`
      throw new Error(`the fixture server ${why}`)
    }
    const runs = opts.scenario !== undefined
      ? [[opts.scenario]]
      : [[], ...(opts.extensions ? EXTENSIONS.server.map((s) => [s]) : [])]
    for (const [one] of runs) {
      console.error(`[conformance] server ${one ?? `--requirements ${opts.revision}`} against ${url}`)
      const args = one === undefined
        ? ["--requirements", opts.revision]
        : ["--scenario", one, "--spec-version", opts.revision, "--force"]
      const suite = spawn(process.execPath, suiteArgs("server", "--url", url, ...args, "-o", outDir), {
        stdio: ["ignore", "pipe", "pipe"]
      })
      prefixLines(suite.stdout, process.stderr, "[suite] ")
      prefixLines(suite.stderr, process.stderr, "[suite] ")
      await exitedWithin(suite, SERVER_SUITE_TIMEOUT_MS, "the server suite")
    }
  } finally {
    await stop(server)
  }
  const expected = opts.scenario !== undefined
    ? [opts.scenario]
    : [
      ...requirements.server,
      ...requirements.notScored.filter((e) => e.leg === "server").map((e) => e.scenario),
      ...(opts.extensions ? EXTENSIONS.server : [])
    ]
  const found = new Map(findChecks(outDir).map((file) => [scenarioOf(file, outDir, "server-"), file]))
  return expected.map((name) => {
    const file = found.get(name)
    const result = file === undefined
      ? { counts: undefined, problems: [`${name}: no result (the scenario did not run)`], broken: true }
      : readChecks(file, name)
    return { leg: "server", name, kind: kindOf("server", name), gates: gates("server", name), ...result }
  })
}

// ---------------------------------------------------------------- client leg
/** Runs each client scenario on its own; returns one row per scenario. */
const runClientLeg = async (outDir) => {
  const rows = []
  const names = clientScenarios()
  for (const [i, name] of names.entries()) {
    const dir = join(outDir, `client-${i}`)
    mkdirSync(dir)
    const started = Date.now()
    const run = spawn(
      process.execPath,
      suiteArgs(
        "client",
        "--command",
        `${process.execPath} ${clientEntry}`,
        "--scenario",
        name,
        "--spec-version",
        BACKCOMPAT_AUTH.includes(name) ? "2025-03-26" : opts.revision,
        "--force",
        "-o",
        dir
      ),
      { stdio: ["ignore", "pipe", "pipe"] }
    )
    let output = ""
    run.stdout.on("data", (chunk) => (output += chunk))
    run.stderr.on("data", (chunk) => (output += chunk))
    const exit = await exitedWithin(run, CLIENT_SCENARIO_TIMEOUT_MS, `client ${name}`)
    const files = findChecks(dir)
    const result = files.length === 1
      ? readChecks(files[0], name)
      : { counts: undefined, problems: [`${name}: no result (the scenario did not run)`], broken: true }
    if (exit.code !== 0 && !result.broken && result.problems.length === 0) {
      result.problems.push(`${name}: the suite exited with code ${exit.code} (signal ${exit.signal})`)
    }
    const row = { leg: "client", name, kind: kindOf("client", name), gates: gates("client", name), exit, ...result }
    console.error(
      `[conformance] client ${name}: ${verdictOf(row)} (${((Date.now() - started) / 1000).toFixed(1)} s)`
    )
    if (row.gates && !passes(row)) console.error(output)
    rows.push(row)
  }
  return rows
}

// ---------------------------------------------------------------- verdict
/**
 * `pass` (no FAILURE, no WARNING, exit 0), `warn` (warnings only), `skip` (nothing failed, but nothing
 * succeeded either: every check SKIPPED, e.g. an extension the client does not implement) or `fail`.
 */
function verdictOf(row) {
  if (row.broken || row.counts === undefined) return "fail"
  if (row.counts.FAILURE > 0 || (row.exit !== undefined && row.exit.code !== 0)) return "fail"
  if (row.counts.WARNING > 0) return "warn"
  return row.counts.SUCCESS === 0 ? "skip" : "pass"
}

const printTable = (rows) => {
  const header = ["leg", "scenario", "kind", "pass", "fail", "warn", "skip", "verdict"]
  const lines = rows.map((r) => [
    r.leg,
    r.name,
    r.gates ? r.kind : `${r.kind}, report`,
    ...(r.counts === undefined ? ["-", "-", "-", "-"] : [r.counts.SUCCESS, r.counts.FAILURE, r.counts.WARNING, r.counts.SKIPPED]).map(String),
    verdictOf(r).toUpperCase()
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)))
  const fmt = (cells) => cells.map((c, i) => (i >= 3 && i <= 6 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ")
  console.log(fmt(header))
  console.log(widths.map((w) => "-".repeat(w)).join("  "))
  for (const l of lines) console.log(fmt(l))
}

/** `scored 30/30; not scored (added after release, pending) 3/3; ...` for one leg. */
const summaryOf = (rows) => {
  const unscored = (r) => r.kind === "added-after-release" || r.kind === "pending"
  const groups = [
    ["scored", rows.filter((r) => r.kind === "scored" && !isAuth(r.name))],
    ["not scored (added after release, pending)", rows.filter((r) => unscored(r) && !isAuth(r.name))],
    ["extensions", rows.filter((r) => r.kind === "extension" && !isAuth(r.name))],
    ["authorization, scored", rows.filter((r) => r.kind === "scored" && isAuth(r.name))],
    ["authorization, not scored", rows.filter((r) => r.kind !== "scored" && isAuth(r.name))]
  ]
  return groups
    .filter(([, g]) => g.length > 0)
    .map(([label, g]) => `${label} ${g.filter((r) => verdictOf(r) === "pass").length}/${g.length}`)
    .join("; ")
}

const outDir = mkdtempSync(join(tmpdir(), "mcp-conformance-"))
let exitCode = 0
try {
  const rows = []
  if (opts.server) {
    const serverDir = join(outDir, "server")
    mkdirSync(serverDir)
    rows.push(...await runServerLeg(serverDir))
  }
  if (opts.client) rows.push(...await runClientLeg(join(outDir)))

  console.log("")
  console.log(`=== conformance ${opts.revision} (${gating ? "gating" : "reported, not gating"}) ===`)
  printTable(rows)
  console.log("")
  for (const leg of ["server", "client"]) {
    const legRows = rows.filter((r) => r.leg === leg)
    if (legRows.length > 0) console.log(`${leg}: ${summaryOf(legRows)} (pass = no failure, no warning)`)
  }
  const failing = rows.filter((r) => r.gates && !passes(r))
  const problems = failing.flatMap((r) =>
    r.problems.length > 0 ? r.problems : [`${r.name}: ${verdictOf(r)} (no check succeeded)`]
  )
  const unmeasured = rows.filter((r) => !r.gates && r.broken).map((r) => r.name)
  if (unmeasured.length > 0) console.log(`reported, no result (the suite could not run them): ${unmeasured.join(", ")}`)
  if (problems.length > 0) {
    console.log("")
    for (const p of problems) console.log(`  - ${p}`)
  }
  console.log("")
  if (problems.length > 0) {
    exitCode = 1
    console.log("FAILED")
  } else {
    console.log(gating || rows.some((r) => r.gates) ? "PASSED" : `DONE (${opts.revision} is reported, not gating)`)
  }
} catch (error) {
  exitCode = 1
  console.error(`[conformance] ${error instanceof Error ? error.message : String(error)}`)
} finally {
  if ((opts.keep || exitCode !== 0) && readdirSync(outDir).length > 0) console.error(`[conformance] results kept in ${outDir}`)
  else rmSync(outDir, { recursive: true, force: true })
}
process.exit(exitCode)
