#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance,
// `server` mode, `--suite all`) against our fixture server over streamable HTTP.
//
// It builds nothing: run `pnpm build` first (the root `pnpm conformance` does).
//
//   node packages/conformance/scripts/conformance.mjs [--scenario <name>] [--keep] [--json-response] [--stateless] [--bridge]
//
// --bridge serves the fixture through the official SDK's HTTP transport (scripts/sdk-http-bridge.ts)
// instead of ours: a baseline that separates fixture/engine problems from transport problems.
//
// 1. starts `node packages/conformance/dist/server.js --port <free port>` and waits until it listens;
// 2. runs `conformance server --url http://localhost:<port>/mcp --suite all -o <tmpdir>`
//    (with the Node 20 `globSync` shim, see globsync-hook.mjs);
// 3. reads every checks.json under <tmpdir>, prints each FAILURE and WARNING,
//    and exits 0 only if every expected scenario ran and every check is SUCCESS or INFO;
// 4. runs the client scenarios initialize, tools_call, elicitation-sep1034-client-defaults
//    and sse-retry against our client (dist/client.js), which must pass without warnings.
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, connect } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** How many scenarios `--suite all` runs in 0.1.16. */
const ALL_SCENARIOS = 32
const LISTEN_TIMEOUT_MS = 20_000
const SUITE_TIMEOUT_MS = 15 * 60_000

const here = dirname(fileURLToPath(import.meta.url))
const packageDir = resolve(here, "..")
const serverEntry = join(packageDir, "dist", "server.js")
const hook = join(here, "globsync-hook.mjs")
const suiteEntry = join(packageDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")

// ---------------------------------------------------------------- arguments
const argv = process.argv.slice(2)
let scenario
let keep = false
let bridge = false
const serverFlags = []
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]
  if (arg === "--scenario") scenario = argv[++i]
  else if (arg === "--keep") keep = true
  else if (arg === "--bridge") bridge = true
  else if (arg === "--json-response" || arg === "--stateless") serverFlags.push(arg)
  else {
    console.error(`unknown argument: ${arg}`)
    console.error("usage: conformance.mjs [--scenario <name>] [--keep] [--json-response] [--stateless] [--bridge]")
    process.exit(2)
  }
}

const bridgeEntry = join(here, "sdk-http-bridge.ts")
for (
  const [what, file] of [
    bridge ? ["the SDK bridge", bridgeEntry] : ["the fixture server (run `pnpm build`)", serverEntry],
    ["the conformance suite", suiteEntry]
  ]
) {
  if (!existsSync(file)) {
    console.error(`missing ${what}: ${file}`)
    process.exit(1)
  }
}

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

const stopServer = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill("SIGTERM")
  const done = await Promise.race([exited(child), sleep(3_000).then(() => undefined)])
  if (done === undefined) {
    child.kill("SIGKILL")
    await exited(child)
  }
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

/** `server-<scenario>-<timestamp>` → `<scenario>` */
const scenarioOf = (checksPath, outDir) => {
  const dir = relative(outDir, dirname(checksPath))
  const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z?$/.exec(dir)
  return m ? m[1] : dir
}

// ---------------------------------------------------------------- run
const port = await freePort()
const url = `http://localhost:${port}/mcp`
const outDir = mkdtempSync(join(tmpdir(), "mcp-conformance-"))

console.error(`[conformance] starting ${bridge ? "the SDK bridge" : "the fixture server"} on port ${port}`)
const server = bridge
  ? spawn(process.execPath, ["--import", "tsx", "--conditions=effect-mcp-source", bridgeEntry], {
    cwd: packageDir,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"]
  })
  : spawn(process.execPath, [serverEntry, "--port", String(port), ...serverFlags], {
    stdio: ["ignore", "pipe", "pipe"]
  })
const prefix = (stream, target) => {
  let pending = ""
  stream.setEncoding("utf8")
  stream.on("data", (chunk) => {
    pending += chunk
    const lines = pending.split("\n")
    pending = lines.pop()
    for (const line of lines) target.write(`[server] ${line}\n`)
  })
  stream.on("end", () => pending !== "" && target.write(`[server] ${pending}\n`))
}
prefix(server.stdout, process.stderr)
prefix(server.stderr, process.stderr)

let exitCode = 1
try {
  // wait until it listens (or dies)
  const deadline = Date.now() + LISTEN_TIMEOUT_MS
  let listening = false
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) break
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
  console.error(`[conformance] server listening; running the suite against ${url}`)

  const suiteArgs = [
    "--import",
    hook,
    suiteEntry,
    "server",
    "--url",
    url,
    ...(scenario !== undefined ? ["--scenario", scenario] : ["--suite", "all"]),
    "-o",
    outDir
  ]
  const suite = spawn(process.execPath, suiteArgs, { stdio: ["ignore", "inherit", "inherit"] })
  const timer = setTimeout(() => {
    console.error(`[conformance] the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s; killing it`)
    suite.kill("SIGKILL")
  }, SUITE_TIMEOUT_MS)
  const suiteExit = await exited(suite)
  clearTimeout(timer)

  // ---------------------------------------------------------------- verdict
  const files = findChecks(outDir)
  const expected = scenario !== undefined ? 1 : ALL_SCENARIOS
  const problems = []
  const counts = { SUCCESS: 0, INFO: 0, WARNING: 0, FAILURE: 0, other: 0 }
  const scenarios = new Set()
  for (const file of files) {
    const name = scenarioOf(file, outDir)
    scenarios.add(name)
    let checks
    try {
      checks = JSON.parse(readFileSync(file, "utf8"))
    } catch (e) {
      problems.push(`${name}: unreadable checks.json (${e.message})`)
      continue
    }
    if (!Array.isArray(checks)) {
      problems.push(`${name}: checks.json is not an array`)
      continue
    }
    for (const check of checks) {
      const status = check?.status
      if (status in counts) counts[status]++
      else counts.other++
      if (status === "SUCCESS" || status === "INFO") continue
      const detail = [check.errorMessage, check.details?.message].filter((x) => typeof x === "string" && x !== "")
      problems.push(
        `${status ?? "?"} ${name} / ${check?.id}: ${check?.description ?? ""}${detail.length ? `\n      ${detail.join("\n      ")}` : ""}`
      )
    }
  }

  console.log("")
  console.log("=== conformance verdict ===")
  console.log(
    `scenarios: ${scenarios.size}/${expected}; checks: ${counts.SUCCESS} SUCCESS, ${counts.FAILURE} FAILURE, ` +
      `${counts.WARNING} WARNING, ${counts.INFO} INFO${counts.other ? `, ${counts.other} other` : ""}`
  )
  if (scenarios.size !== expected) {
    problems.push(`expected ${expected} scenario result(s), found ${scenarios.size}`)
  }
  if (suiteExit.code !== 0 && problems.length === 0) {
    problems.push(`the suite exited with code ${suiteExit.code} (signal ${suiteExit.signal})`)
  }
  if (problems.length > 0) {
    console.log("")
    for (const p of problems) console.log(`  - ${p}`)
    console.log("")
    console.log("FAILED")
  } else {
    console.log("PASSED")
    exitCode = 0
  }
} catch (error) {
  console.error(`[conformance] ${error instanceof Error ? error.message : String(error)}`)
} finally {
  await stopServer(server)
  if ((keep || exitCode !== 0) && readdirSync(outDir).length > 0) console.error(`[conformance] results kept in ${outDir}`)
  else rmSync(outDir, { recursive: true, force: true })
}
// ---------------------------------------------------------------- client scenarios
// the suite runs its own test servers and drives our client (dist/client.js); its exit code is
// non-zero on any FAILURE or WARNING, a client timeout or a client exiting non-zero
const CLIENT_SCENARIOS = ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"]
const clientEntry = join(packageDir, "dist", "client.js")
if (scenario === undefined && !bridge) {
  for (const name of CLIENT_SCENARIOS) {
    const run = spawn(
      process.execPath,
      ["--import", hook, suiteEntry, "client", "--command", `${process.execPath} ${clientEntry}`, "--scenario", name],
      { stdio: ["ignore", "pipe", "pipe"] }
    )
    let output = ""
    run.stdout.on("data", (chunk) => (output += chunk))
    run.stderr.on("data", (chunk) => (output += chunk))
    const result = await exited(run)
    const summary = /Passed: .*/.exec(output)?.[0] ?? "no result"
    if (result.code === 0) {
      console.log(`client ${name}: ${summary}: PASSED`)
    } else {
      console.log(`client ${name}: ${summary}: FAILED\n${output}`)
      exitCode = 1
    }
  }
}
process.exit(exitCode)
