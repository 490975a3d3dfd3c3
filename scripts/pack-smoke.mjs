// `pnpm test:pack`: the packages used the way users will use them. Runs
// `pnpm install-into` (scripts/install-into.mjs, the README's way to install from a clone) on a new
// project under the OS temp directory: it packs @effect-mcp/mcp, node and redis (each `prepack`
// builds; redis's dist/ is removed first, so the pack must build it) and installs the tarballs with
// npm (with the peer versions the README's install line names). Checks that the prepack check
// refuses a package whose dist/ is missing, then type-checks the README's app examples
// (packages/node/examples/app) there with plain `moduleResolution: NodeNext`
// and no custom condition, runs the app's test (server.test.ts: `McpTest`, with the vitest and
// @effect/vitest the README's dev-tools line names), then runs the programs: the client spawns the stdio server,
// the client talks to the HTTP server, and SIGTERM in the middle of a streamed
// tool call ends the HTTP server cleanly (every SSE event whole, exit code 130: on Effect 4
// `NodeRuntime.runMain` exits 130 for an interruption from outside, as examples/app/http.ts says).
// Also checks that an `effect` outside our peer range (Effect 3) is refused at install.
// The packages are on Effect 4, which needs Node >= 22.19: the script refuses to run on an
// older Node (.ci/run puts Node 22 from the npm registry first on PATH where the machine's is older).
//
// A script run by .ci/run, not a vitest test: it needs the build and the npm
// registry and takes 40 to 60 s on two busy cores, so it stays out of `pnpm test`.
import { execFileSync, spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
{
  // the packages' `engines`: Effect 4 needs Node >= 22.19 (and the app runs on process.execPath)
  const [major, minor] = process.versions.node.split(".").map(Number)
  if (major < 22 || (major === 22 && minor < 19)) {
    console.error(`test:pack: Node ${process.versions.node}: Effect 4 needs Node >= 22.19 (see .ci/run)`)
    process.exit(1)
  }
}
const started = performance.now()
const step = (what) => console.log(`[pack ${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`)
const fail = (message) => {
  console.error(`test:pack: ${message}`)
  process.exit(1)
}
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
const check = (condition, message) => condition || fail(message)

const packageJson = (name) => JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"))
// the install line of the README: our packages and the peers at the versions we support
const peers = { ...packageJson("mcp").peerDependencies, ...packageJson("node").peerDependencies }
const readme = readFileSync(join(root, "README.md"), "utf8")
const installLine = `npm install @effect-mcp/mcp @effect-mcp/node ${
  Object.entries(peers).sort(([a], [b]) => a.localeCompare(b)).map(([name, range]) => `${name}@${range}`).join(" ")
}`
check(readme.includes(installLine), `README.md must show the install line \`${installLine}\``)

// an empty package cannot be packed: the prepack check refuses a package.json whose files are missing
step("prepack refuses a package without its dist/")
{
  const bare = mkdtempSync(join(tmpdir(), "effect-mcp-bare-"))
  copyFileSync(join(root, "packages", "mcp", "package.json"), join(bare, "package.json"))
  let refused = ""
  try {
    run(process.execPath, [join(root, "scripts", "prepack.mjs"), "--check-only", bare], root)
  } catch (error) {
    refused = String(error.stderr)
  }
  rmSync(bare, { recursive: true, force: true })
  check(/prepack: @effect-mcp\/mcp: \d+ file\(s\) the package points at are missing/.test(refused), `the prepack check let a package without dist/ through: ${refused}`)
}
// and `pnpm pack` builds: redis's dist/ goes, `install-into` packs it again (its prepack rebuilds it)
rmSync(join(root, "packages", "redis", "dist"), { recursive: true, force: true })

const work = mkdtempSync(join(tmpdir(), "effect-mcp-pack-"))
const children = []
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL")
  // node_modules of a few thousand files: removed in the background rather than held up for
  spawn("rm", ["-rf", work], { detached: true, stdio: "ignore" }).unref()
})

const app = join(work, "app")
mkdirSync(join(app, "src"), { recursive: true })
writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }, null, 2))
const npm = (args, cwd = app) => run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], cwd)

// the README's way from a clone: `pnpm install-into <dir>` packs (building) and npm-installs the tarballs and the peers
step(`pnpm install-into <a new project> --redis: pack and npm install the tarballs and ${Object.keys(peers).join(", ")}`)
try {
  run("pnpm", ["install-into", app, "--redis"], root)
} catch (error) {
  fail(`pnpm install-into failed:\n${error.stdout}${error.stderr}`)
}
const vendor = join(app, "vendor", "effect-mcp")
const tarballs = ["mcp", "node"].map((name) => join(vendor, readdirSync(vendor).find((file) => file.startsWith(`effect-mcp-${name}-`))))
const dependencies = JSON.parse(readFileSync(join(app, "package.json"), "utf8")).dependencies ?? {}
for (const name of ["@effect-mcp/mcp", "@effect-mcp/node", "@effect-mcp/redis"]) {
  check(String(dependencies[name]).startsWith("file:vendor/effect-mcp/"), `install-into left ${name}: ${dependencies[name]} in package.json`)
}
for (const [name, range] of Object.entries(peers)) check(dependencies[name] === range, `install-into left ${name}: ${dependencies[name]} (expected ${range})`)
{
  const listed = run("tar", ["tzf", join(vendor, readdirSync(vendor).find((file) => file.startsWith("effect-mcp-redis-")))], root)
  check(listed.includes("package/dist/index.js"), `the redis tarball packed with no dist/ there has no dist/index.js:\n${listed}`)
}

check(/^~?\^?4\./.test(peers.effect), `the effect peer range ${peers.effect} is not an Effect 4 range`)
// Effect 3 beside our packages: npm refuses it by our peer ranges. @effect-mcp/mcp with effect 3 alone
// (the error must name our effect range), then both packages with effect 3 and its platform-node (0.x)
const refuse = join(work, "refuse")
mkdirSync(refuse)
writeFileSync(join(refuse, "package.json"), JSON.stringify({ name: "refuse", private: true, type: "module" }, null, 2))
const escape = (range) => range.replace(/[.^~]/g, (c) => `\\${c}`)
for (const [what, installs, names] of [
  ["@effect-mcp/mcp with effect 3", [tarballs[0], "effect@3"], [`effect@"${peers.effect}"`]],
  [
    "both packages with effect 3 and @effect/platform-node 0.x",
    [...tarballs, "effect@3", "@effect/platform-node@0.x"],
    [`effect@"${peers.effect}"`, `@effect/platform-node@"${peers["@effect/platform-node"]}"`]
  ]
]) {
  step(`npm install ${what}: must be refused`)
  let output
  try {
    npm(["install", "--dry-run", ...installs], refuse)
  } catch (error) {
    output = `${error.stdout ?? ""}${error.stderr ?? ""}`
  }
  check(output !== undefined, `installing ${what} succeeded; the peer ranges must refuse it`)
  check(
    /ERESOLVE/.test(output) && names.some((name) => new RegExp(`peer ${escape(name)}`).test(output)),
    `installing ${what}: expected ERESOLVE naming our peer range (${names.join(" or ")}), got:\n${output}`
  )
}

const installed = Object.keys(peers).map((name) => {
  const { version } = JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8"))
  check(version.startsWith("4."), `npm installed ${name}@${version}, not Effect 4`)
  return `${name}@${version}`
})
const size = Number(run("du", ["-sm", "node_modules"], app).split("\t")[0])
step(`node_modules: ${size} MB (${installed.join(", ")}, node ${process.versions.node})`)
// the dev tools the README's "Five minutes" names, at the workspace's own versions
const devTools = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies
npm(["install", "--save-dev", ...["typescript", "@types/node", "vitest", "@effect/vitest"].map((name) => `${name}@${devTools[name]}`)])

step("type-check the app examples with moduleResolution NodeNext, no custom condition")
const examples = join(root, "packages", "node", "examples", "app")
for (const file of readdirSync(examples)) copyFileSync(join(examples, file), join(app, "src", file))
writeFileSync(
  join(app, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: ["node"],
      strict: true,
      exactOptionalPropertyTypes: true,
      // as most apps do; resolution of our .d.ts and every type the examples use is still checked
      // (checking all of effect's .d.ts too takes 35 s more and is effect's business)
      skipLibCheck: true,
      rootDir: "src",
      outDir: "dist"
    },
    include: ["src"]
  }, null, 2)
)
try {
  run(join(app, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], app)
} catch (error) {
  fail(`tsc in the installed app failed:\n${error.stdout}${error.stderr}`)
}

step("the app's test (server.test.ts: McpTest in both eras, on the TestClock) with vitest, against the packed packages")
try {
  const out = run(join(app, "node_modules", ".bin", "vitest"), ["run", "src/server.test.ts"], app)
  check(/Tests\s+3 passed/.test(out.replace(/\x1b\[[0-9;]*m/g, "")), `vitest in the installed app: not 3 tests passed:\n${out}`)
} catch (error) {
  fail(`vitest in the installed app failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`)
}

const collect = (child) => {
  let out = ""
  child.stdout.on("data", (chunk) => (out += chunk))
  child.stderr.on("data", (chunk) => (out += chunk))
  return () => out
}
const exited = (child) => new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)))
const within = (promise, ms, what) =>
  Promise.race([
    promise,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref())
  ])
const node = (args) => {
  const child = spawn(process.execPath, args, { cwd: join(app, "dist"), stdio: ["ignore", "pipe", "pipe"] })
  children.push(child)
  return child
}
const expectClient = async (args, what) => {
  const client = node(["client.js", ...args])
  const output = collect(client)
  const code = await within(exited(client), 20_000, what)
  check(code === 0, `${what}: exit ${code}\n${output()}`)
  for (const line of ["connected to my-server 1.0.0", "add: {\"sum\":5}", "progress 2/3: 1 to go", "countdown: liftoff"]) {
    check(output().includes(line), `${what}: no "${line}" in\n${output()}`)
  }
}

try {
  step("stdio: the client spawns the server")
  await expectClient([], "stdio client")

  step("HTTP: the server on a free port, the client over streamable HTTP")
  const server = node(["http.js", "0"])
  const serverOutput = collect(server)
  const serverExit = exited(server)
  const url = await within(
    new Promise((resolve) =>
      server.stdout.on("data", () => {
        const found = /listening on (http:\/\/\S+)/.exec(serverOutput())
        if (found) resolve(found[1])
      })
    ),
    20_000,
    "HTTP server start"
  )
  await expectClient([url], "HTTP client")

  step("HTTP: SIGTERM in the middle of a streamed tool call")
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
  const init = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "smoke", version: "1" } }
    })
  })
  await init.text()
  const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-11-25" }
  await (await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text()
  const call = await fetch(url, {
    method: "POST",
    headers: session,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "countdown", arguments: { from: 100 }, _meta: { progressToken: "t" } }
    })
  })
  const reader = call.body.getReader()
  const decoder = new TextDecoder()
  let body = ""
  while (!body.includes("\"progress\":2")) {
    const { done, value } = await within(reader.read(), 10_000, "progress events")
    check(!done, `the call's stream ended before any progress:\n${body}`)
    body += decoder.decode(value, { stream: true })
  }
  step("SIGTERM")
  server.kill("SIGTERM")
  for (;;) {
    const { done, value } = await within(reader.read(), 10_000, "the stream's end after SIGTERM")
    if (done) break
    body += decoder.decode(value, { stream: true })
  }
  step("the stream ended")
  const code = await within(serverExit, 10_000, "server exit after SIGTERM")
  // Effect 4's `Runtime.defaultTeardown`: 130 for an interruption from outside (Effect 3's runMain exited 0)
  check(code === 130, `the HTTP server exited with ${code} after SIGTERM (expected 130):\n${serverOutput()}`)
  check(body.endsWith("\n\n"), `the stream ended inside an event:\n${body.slice(-300)}`)
  for (const event of body.split("\n\n").filter((event) => event.length > 0)) {
    const data = event.split("\n").find((line) => line.startsWith("data: "))
    // the priming event of a resumable stream has an id and empty data
    if (data !== undefined && data.length > "data: ".length) JSON.parse(data.slice("data: ".length))
  }
  step(`HTTP server: stream ended at an event boundary, exit 130`)

  step("@effect-mcp/redis (installed by install-into --redis): load every module")
  const loaded = run(process.execPath, [
    "--input-type=module",
    "-e",
    "const m = await import('@effect-mcp/redis'); console.log(Object.keys(m).sort().join(','))"
  ], app).trim()
  check(loaded === "RedisClient,RedisEventStore,RedisFleet,RedisFleetBus,RedisSessionRecords,RedisSessionStore,RedisTaskStore", `@effect-mcp/redis exports ${loaded}`)
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
}
step("ok")
process.exit(0)
