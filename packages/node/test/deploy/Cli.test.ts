/**
 * `emcp`: the pure helpers and the command line; the CLI run in this process
 * (`McpCli.main` with captured streams) against one HTTP server started once
 * (the conformance fixture's features and `fixtures/cli-tools.ts`), against
 * stdio servers it spawns for what is about processes (exit codes, a crash,
 * the server's environment and stderr), and as a process itself for help,
 * version and exit codes.
 */
import * as McpCli from "@effect-mcp/node/McpCli"
import { assert, describe, it, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Layer from "effect/Layer"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import { spawn } from "node:child_process"
import { PassThrough } from "node:stream"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"
import * as Fixture from "../../../conformance/src/Fixture.js"
import * as FixtureTasks from "../../../conformance/src/Tasks.js"
import * as Auth from "../../src/cli/commands/Auth.js"
import * as Dialog from "../../src/cli/Dialog.js"
import * as Settings from "../../src/cli/Settings.js"
import * as Interactive from "../../src/cli/Interactive.js"
import * as CliTools from "../fixtures/cli-tools.js"
import { emcp, type Run } from "../cliRun.js"
import { startServer } from "../httpUtil.js"

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url))
/** The conformance fixture over stdio, as a `--stdio` string (bundled from the sources: `vitest.bundles.ts`). */
const CONFORMANCE = `'${process.execPath}' '${bundled("conformance-server")}' --stdio`
/** The CLI test server over stdio (`crash` included). */
const CLI_SERVER = `'${process.execPath}' '${bundled("cli-server")}'`
/** A server that prints a non-JSON banner on stdout, then answers correctly. */
const CHATTY = `node '${fileURLToPath(new URL("../fixtures/chatty-server.mjs", import.meta.url))}'`
/** A server that reads stdin and never answers. */
const SILENT = `node '${fileURLToPath(new URL("../fixtures/silent.mjs", import.meta.url))}'`

/** Runs `emcp` as a process (`src/cli.ts` bundled) with stdin closed and stdout a pipe. */
const emcpProcess = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Effect.Effect<Run> =>
  Effect.callback<Run>((resume) => {
    const child = spawn(process.execPath, [bundled("cli"), ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", ...env }
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const lines = (text: string) => text.split("\n").filter((l) => l !== "")

/** Exit code 1 and exactly one line on stderr, which matches `pattern`. */
const assertOneLineFailure = (run: Run, pattern: RegExp) => {
  assert.strictEqual(run.code, 1, `exit code; stderr: ${run.stderr}`)
  const errorLines = lines(run.stderr)
  assert.strictEqual(errorLines.length, 1, `one line on stderr, got: ${run.stderr}`)
  assert.match(errorLines[0]!, /^emcp: /)
  assert.match(errorLines[0]!, pattern)
}

const assertUsage = (run: Run, pattern: RegExp) => {
  assert.strictEqual(run.code, 2, `exit code; stderr: ${run.stderr}`)
  assert.strictEqual(lines(run.stderr).length, 1, `one line on stderr, got: ${run.stderr}`)
  assert.match(run.stderr, pattern)
  assert.strictEqual(run.stdout, "")
}

const assertOk = (run: Run) => assert.strictEqual(run.code, 0, `exit code; stderr: ${run.stderr}`)

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[/

// spawned servers (bundled, but still a node process each): slow under load
const SPAWNS = 120_000

// ============================================================================
// parsing helpers
// ============================================================================

describe("McpCli helpers", () => {
  it("the token store's directory: EMCP_CONFIG_DIR, else XDG_CONFIG_HOME/emcp, else ~/.config/emcp", () => {
    assert.strictEqual(Settings.configDir({ EMCP_CONFIG_DIR: "/t/e", XDG_CONFIG_HOME: "/x" }), "/t/e")
    assert.strictEqual(Settings.configDir({ EMCP_CONFIG_DIR: "", XDG_CONFIG_HOME: "/x" }), "/x/emcp")
    assert.match(Settings.configDir({}), /[/\\]\.config[/\\]emcp$/)
  })

  it("logout forgets the tokens of the URL and of a resource whose path contains it, no other", () => {
    assert.isTrue(Auth.covers("http://h/mcp", "http://h/mcp"))
    assert.isTrue(Auth.covers("http://h/", "http://h/sse"))
    assert.isTrue(Auth.covers("http://h/api", "http://h/api/mcp"))
    assert.isFalse(Auth.covers("http://h/api", "http://h/apix"))
    assert.isFalse(Auth.covers("http://h/mcp", "http://other/mcp"))
    assert.isFalse(Auth.covers("http://h:1/", "http://h:2/mcp"))
    assert.isFalse(Auth.covers("not a url", "http://h/mcp"))
  })

  it("splitCommand splits like a shell for simple quoting", () => {
    assert.deepStrictEqual(McpCli.splitCommand("node server.js --port 3"), Result.succeed(["node", "server.js", "--port", "3"]))
    assert.deepStrictEqual(
      McpCli.splitCommand(`node  'a b' "c \\"d\\"" e\\ f ''`),
      Result.succeed(["node", "a b", "c \"d\"", "e f", ""])
    )
    assert.deepStrictEqual(McpCli.splitCommand(`x 'it''s'`), Result.succeed(["x", "its"]))
    assert.deepStrictEqual(McpCli.splitCommand(`node -e "process.exit(3)"`), Result.succeed(["node", "-e", "process.exit(3)"]))
    assert.isTrue(Result.isFailure(McpCli.splitCommand(`node 'open`)))
    assert.isTrue(Result.isFailure(McpCli.splitCommand(`node "open`)))
  })

  it("parseDuration reads ms, s, m, h and bare seconds", () => {
    const ms = (text: string) => Result.map(McpCli.parseDuration(text), Duration.toMillis)
    assert.deepStrictEqual(ms("500ms"), Result.succeed(500))
    assert.deepStrictEqual(ms("30s"), Result.succeed(30_000))
    assert.deepStrictEqual(ms("1.5m"), Result.succeed(90_000))
    assert.deepStrictEqual(ms("2h"), Result.succeed(7_200_000))
    assert.deepStrictEqual(ms("10"), Result.succeed(10_000))
    assert.deepStrictEqual(ms("3 seconds"), Result.succeed(3000))
    assert.isTrue(Result.isFailure(ms("3x")))
    assert.isTrue(Result.isFailure(ms("0s")))
    assert.isTrue(Result.isFailure(ms("soon")))
  })

  it("parseArgValue types values by schema, else reads JSON when it can", () => {
    assert.deepStrictEqual(McpCli.parseArgValue("42", { type: "string" }), Result.succeed("42"))
    assert.deepStrictEqual(McpCli.parseArgValue("42", { type: "integer" }), Result.succeed(42))
    assert.deepStrictEqual(McpCli.parseArgValue("1.5", { type: "number" }), Result.succeed(1.5))
    assert.isTrue(Result.isFailure(McpCli.parseArgValue("1.5", { type: "integer" })))
    assert.isTrue(Result.isFailure(McpCli.parseArgValue("x", { type: "number" })))
    assert.deepStrictEqual(McpCli.parseArgValue("true", { type: "boolean" }), Result.succeed(true))
    assert.isTrue(Result.isFailure(McpCli.parseArgValue("yes", { type: "boolean" })))
    assert.deepStrictEqual(McpCli.parseArgValue("[1,2]", { type: "array" }), Result.succeed([1, 2]))
    assert.deepStrictEqual(McpCli.parseArgValue("7", { type: ["string", "integer"] }), Result.succeed(7))
    assert.deepStrictEqual(McpCli.parseArgValue("x", { type: ["string", "integer"] }), Result.succeed("x"))
    // no schema
    assert.deepStrictEqual(McpCli.parseArgValue("3"), Result.succeed(3))
    assert.deepStrictEqual(McpCli.parseArgValue("false"), Result.succeed(false))
    assert.deepStrictEqual(McpCli.parseArgValue("null"), Result.succeed(null))
    assert.deepStrictEqual(McpCli.parseArgValue(`{"a":1}`), Result.succeed({ a: 1 }))
    assert.deepStrictEqual(McpCli.parseArgValue("hello"), Result.succeed("hello"))
  })

  it("normalizeArgs takes global options out from anywhere, up to --", () => {
    const n = McpCli.normalizeArgs([
      "tools",
      "call",
      "echo",
      "{}",
      "--json",
      "--stdio",
      "node s.js",
      "--env=A=1",
      "--env",
      "B=2",
      "--timeout=500ms",
      "--log-level",
      "debug",
      "-q",
      "--",
      "--json"
    ])
    if (typeof n === "string") return assert.fail(n)
    const { args, globals } = n
    assert.deepStrictEqual(args, ["tools", "call", "echo", "{}", "--", "--json"])
    assert.strictEqual(globals.stdio, "node s.js")
    assert.deepStrictEqual(globals.env, ["A=1", "B=2"])
    assert.strictEqual(globals.timeout, "500ms")
    assert.strictEqual(globals.logLevel, "debug")
    assert.strictEqual(globals.url, undefined)
    assert.isTrue(globals.json)
    assert.isTrue(globals.quiet)
    assert.isFalse(globals.verbose)
    assert.strictEqual(McpCli.normalizeArgs(["ping", "--stdio"]), "--stdio needs a value")
    assert.strictEqual(McpCli.normalizeArgs(["--url", "a", "--url", "b", "ping"]), "--url given more than once")
    assert.strictEqual(McpCli.normalizeArgs(["--json=1", "ping"]), "--json takes no value")
  })

  it("parses --elicit and --sampling-response", () => {
    assert.deepStrictEqual(McpCli.parseElicit(`accept:{"a":1}`), Result.succeed({ action: "accept", content: { a: 1 } }))
    assert.deepStrictEqual(McpCli.parseElicit("accept"), Result.succeed({ action: "accept", content: {} }))
    assert.deepStrictEqual(McpCli.parseElicit("decline"), Result.succeed({ action: "decline" }))
    assert.deepStrictEqual(McpCli.parseElicit("cancel"), Result.succeed({ action: "cancel" }))
    assert.isTrue(Result.isFailure(McpCli.parseElicit("accept:[1]")))
    assert.isTrue(Result.isFailure(McpCli.parseElicit("maybe")))
    assert.deepStrictEqual(
      McpCli.parseSamplingResponse("hi there"),
      Result.succeed({ role: "assistant", content: { type: "text", text: "hi there" }, model: "emcp", stopReason: "endTurn" })
    )
    const full = McpCli.parseSamplingResponse(`{"content":{"type":"text","text":"x"},"model":"m1"}`)
    assert.deepStrictEqual(full, Result.succeed({ role: "assistant", content: { type: "text", text: "x" }, model: "m1" }))
    assert.isTrue(Result.isFailure(McpCli.parseSamplingResponse(`{"content":42}`)))
    // any other text is the answer as typed, JSON or not (a number was refused as "not an object")
    for (const text of ["42", "[1, 2]", "true", "null", "{not json"]) {
      assert.deepStrictEqual(
        McpCli.parseSamplingResponse(text),
        Result.succeed({ role: "assistant", content: { type: "text", text }, model: "emcp", stopReason: "endTurn" }),
        text
      )
    }
    assert.deepStrictEqual(
      McpCli.parseSamplingResponse(`"{quoted}"`),
      Result.succeed({ role: "assistant", content: { type: "text", text: "{quoted}" }, model: "emcp", stopReason: "endTurn" })
    )
  })

  it("renders content for humans, summarising binary", () => {
    assert.strictEqual(McpCli.renderContent({ type: "text", text: "hi" }), "hi")
    assert.strictEqual(McpCli.renderContent({ type: "image", data: Fixture.PNG_BASE64, mimeType: "image/png" }), "[image image/png, 70 bytes]")
    assert.strictEqual(
      McpCli.renderContent({ type: "resource", resource: { uri: "a://b", blob: "AAAA" } }),
      "[resource a://b, 3 bytes]"
    )
    assert.strictEqual(McpCli.oneLine("a\n  b\n\nc"), "a | b | c")
  })
})

// ============================================================================
// the command line and the help
// ============================================================================

describe("emcp command line", () => {
  it("parseCommandLine: commands, arguments, options, help and version", () => {
    const call = McpCli.parseCommandLine(["tools", "call", "echo", `{"a":1}`, "-a", "x=1", "--arg=y=2", "--json"])
    assert.strictEqual(call._tag, "Run")
    if (call._tag !== "Run") return
    assert.deepStrictEqual(call.command.path, ["tools", "call"])
    assert.deepStrictEqual(call.args, { NAME: "echo", ARGUMENTS_JSON: `{"a":1}` })
    assert.deepStrictEqual(call.options, { arg: ["x=1", "y=2"] })
    assert.isTrue(call.globals.json)
    // after --, words starting with '-' are arguments
    const dashed = McpCli.parseCommandLine(["complete", "--prompt", "p", "--", "-x", "--y"])
    assert.deepStrictEqual(dashed._tag === "Run" ? dashed.args : undefined, { ARGUMENT: "-x", VALUE: "--y" })

    assert.deepStrictEqual(McpCli.parseCommandLine(["--help"]), { _tag: "Help", path: [] })
    assert.deepStrictEqual(McpCli.parseCommandLine(["tools", "-h"]), { _tag: "Help", path: ["tools"] })
    assert.deepStrictEqual(McpCli.parseCommandLine(["--stdio", "x", "tools", "call", "--help"]), {
      _tag: "Help",
      path: ["tools", "call"]
    })
    assert.deepStrictEqual(McpCli.parseCommandLine(["--version"]), { _tag: "Version" })
  })

  it("parseCommandLine: usage errors name the command and what it needs", () => {
    const error = (...args: ReadonlyArray<string>) => {
      const line = McpCli.parseCommandLine(args)
      return line._tag === "UsageError" ? line.message : `not a usage error: ${line._tag}`
    }
    assert.strictEqual(error(), "missing command (see emcp --help)")
    assert.strictEqual(error("frobnicate"), "unknown command 'frobnicate' (see emcp --help)")
    assert.match(error("tools"), /^emcp tools needs a command: list, call/)
    assert.match(error("tools", "run"), /^unknown command 'run' for emcp tools/)
    assert.match(error("tools", "call"), /^emcp tools call needs NAME \(usage: emcp tools call NAME \[ARGUMENTS_JSON\]/)
    assert.strictEqual(error("tools", "list", "--bogus"), "unknown option --bogus for emcp tools list (see emcp tools list --help)")
    assert.match(error("ping", "extra"), /^unexpected argument 'extra' for emcp ping/)
    assert.strictEqual(error("ping", "--stdio"), "--stdio needs a value")
    assert.strictEqual(error("complete", "--prompt", "a", "--prompt", "b", "x"), "--prompt given more than once")
  })

  it("help is plain text written for people, with examples for every command", () => {
    const root = McpCli.helpFor([])
    assert.notMatch(root, ANSI)
    assert.notInclude(root, "A user-defined piece of text")
    assert.notInclude(root, "This setting is optional")
    for (const word of ["--stdio", "--url", "--env", "--json", "--timeout", "tools call NAME", "resources read URI", "prompts get", "complete", "ping", "call METHOD", "Examples:"]) {
      assert.include(root, word)
    }
    // --env is optional: nothing presents it as required
    assert.include(root.replace(/\s+/g, " "), "--env KEY=VALUE Set an environment variable of the --stdio server. Repeatable.")
    assert.notMatch(root, /^\s*emcp .*\s--env KEY/m)
    for (const path of [["info"], ["tools", "list"], ["tools", "call"], ["resources", "read"], ["prompts", "get"], ["complete"], ["ping"], ["call"]]) {
      const help = McpCli.helpFor(path)
      const name = ["emcp", ...path].join(" ")
      assert.include(help, `Usage:\n  ${name}`)
      assert.include(help, "with --stdio COMMAND or --url URL, and OPTIONS, anywhere on the line")
      assert.match(help, new RegExp(`Examples:\\n  emcp .*${path.join(" ")}`))
      assert.isTrue(help.startsWith(`${name}: `), help)
      assert.notInclude(help, "$ ")
      assert.isTrue(help.split("\n").every((l) => l.length <= 80 || l.startsWith("  emcp ")), help)
    }
    assert.include(McpCli.helpFor(["tools", "call"]), "emcp tools call NAME [ARGUMENTS_JSON] [--arg KEY=VALUE]...")
    assert.include(
      McpCli.helpFor(["tools", "call"]).replace(/\s+/g, " "),
      "ARGUMENTS_JSON The arguments, as a JSON object; --arg adds to it. Optional."
    )
    const group = McpCli.helpFor(["resources"])
    for (const sub of ["list", "templates", "read URI"]) assert.include(group, `\n  emcp resources ${sub}\n`)
  })

  it.effect("help, version and usage errors in process: stdout, stderr, exit code", () =>
    Effect.gen(function*() {
      const help = yield* emcp("tools", "--help")
      assertOk(help)
      assert.strictEqual(help.stdout, `${McpCli.helpFor(["tools"])}\n`)
      assert.strictEqual(help.stderr, "")
      const version = yield* emcp("--version")
      assert.deepStrictEqual(version, { code: 0, stdout: `${McpCli.VERSION}\n`, stderr: "" })
      assertUsage(yield* emcp("tools", "call"), /^emcp: emcp tools call needs NAME/)
      assertUsage(yield* emcp("--stdio", "x", "tools", "list", "--bogus"), /^emcp: unknown option --bogus for emcp tools list/)
      assertUsage(yield* emcp("ping"), /^emcp: no server given: use --stdio/)
      assert.strictEqual((yield* emcp("--stdio", "x", "--url", "http://127.0.0.1:1/mcp", "ping")).stderr, "emcp: --stdio and --url are exclusive\n")
      assertUsage(yield* emcp("--stdio", "x", "--log-level", "loud", "ping"), /^emcp: invalid --log-level 'loud'/)
      assertUsage(yield* emcp("--stdio", "x", "tools", "call", "echo", "{oops"), /^emcp: the arguments JSON is not valid JSON/)
      assertUsage(yield* emcp("--stdio", "x", "complete", "arg"), /^emcp: complete needs exactly one of --prompt NAME or --resource/)
      assertUsage(yield* emcp("--stdio", "x", "--timeout", "soon", "ping"), /^emcp: invalid duration 'soon'/)
      assertUsage(yield* emcp("--url", "ftp://x/mcp", "ping"), /^emcp: --url must be http:\/\/ or https:\/\//)
      assertUsage(yield* emcp("--url", "http://x/mcp", "--env", "A=1", "ping"), /^emcp: --env and --cwd apply to --stdio only/)
      assertUsage(yield* emcp("--stdio", "node 'open", "ping"), /^emcp: --stdio: unterminated single quote/)
    }))
})

// ============================================================================
// emcp as a process
// ============================================================================

describe.concurrent("emcp as a process", () => {
  it.live("--help and --version: plain text on a pipe, exit 0; failures exit 2 or 1 with one line", () =>
    Effect.gen(function*() {
      const [help, commandHelp, version, usage, gone] = yield* Effect.all([
        emcpProcess(["--help"], { FORCE_COLOR: "1" }),
        emcpProcess(["tools", "call", "--help"], { NO_COLOR: "1" }),
        emcpProcess(["--version"]),
        emcpProcess(["ping"]),
        emcpProcess(["--stdio", "node -e process.exit(3)", "ping"])
      ], { concurrency: "unbounded" })
      assertOk(help)
      assert.strictEqual(help.stdout, `${McpCli.helpFor([])}\n`)
      assert.notMatch(help.stdout, ANSI)
      assertOk(commandHelp)
      assert.strictEqual(commandHelp.stdout, `${McpCli.helpFor(["tools", "call"])}\n`)
      assert.deepStrictEqual(version, { code: 0, stdout: `${McpCli.VERSION}\n`, stderr: "" })
      assertUsage(usage, /^emcp: no server given/)
      assertOneLineFailure(gone, /exited with code 3/)
    }), SPAWNS)
})

// ============================================================================
// the CLI over stdio: what is about the server's process
// ============================================================================

describe.concurrent("emcp over stdio", () => {
  it.live("the conformance server: a table, exactly the JSON result, global options after the command", () =>
    Effect.gen(function*() {
      const [human, json] = yield* Effect.all([
        emcp("--stdio", CONFORMANCE, "tools", "list"),
        emcp("tools", "call", "echo", `{"text":"hi"}`, "--json", "--stdio", CONFORMANCE)
      ], { concurrency: "unbounded" })
      assertOk(human)
      const rows = lines(human.stdout)
      assert.match(rows[0]!, /^NAME\s+ARGUMENTS\s+DESCRIPTION$/)
      assert.isTrue(rows.some((r) => /^echo\s+text: string\s+Echoes the text back/.test(r)))
      assert.isTrue(rows.some((r) => /^slow\s+ms: integer\s+/.test(r)))
      assertOk(json)
      assert.strictEqual(json.stdout, `{"content":[{"type":"text","text":"hi"}]}\n`)
      assert.strictEqual(json.stderr, "")
    }), SPAWNS)

  it.live("the server's environment, working directory and stderr; a crash; a server that exits or never starts", () =>
    Effect.gen(function*() {
      // a directory of the repository's, as a working directory for the server
      const cwd = fileURLToPath(new URL("../fixtures", import.meta.url)).replace(/\/$/, "")
      const [env, verbose, crash, gone, missing, silent] = yield* Effect.all([
        emcp("--stdio", CLI_SERVER, "--env", "EMCP_TEST=yes", "--cwd", cwd, "tools", "call", "env", "--arg", "name=EMCP_TEST"),
        emcp("--stdio", CLI_SERVER, "--verbose", "ping"),
        emcp("--stdio", CLI_SERVER, "tools", "call", "crash"),
        emcp("--stdio", "node -e process.exit(3)", "ping"),
        emcp("--stdio", "no-such-command-for-emcp", "ping"),
        emcp("--stdio", SILENT, "ping", "--timeout", "500ms")
      ], { concurrency: "unbounded" })
      assertOk(env)
      assert.deepStrictEqual(JSON.parse(env.stdout), { value: "yes", cwd })
      assertOk(verbose)
      assert.include(verbose.stderr, "cli-server: ready")
      assertOneLineFailure(crash, /exited with code 5.*crashing on request/)
      assertOneLineFailure(gone, /exited with code 3/)
      assertOneLineFailure(missing, /could not start no-such-command-for-emcp/)
      assertOneLineFailure(silent, /^emcp: timed out after 500ms$/)
    }), SPAWNS)

  it.live("a 2026 call that asks the client (a signed requestState) prints no requestState warning, with the server's stderr copied", () =>
    Effect.gen(function*() {
      const run = yield* emcp("--stdio", CLI_SERVER, "--verbose", "--protocol", "2026-07-28", "--root", "/tmp", "tools", "call", "roots")
      assertOk(run)
      assert.deepStrictEqual(JSON.parse(run.stdout), [{ uri: "file:///tmp", name: "tmp" }])
      assert.include(run.stderr, "cli-server: ready")
      assert.strictEqual(run.stderr.split("requestState is signed with a random key").length - 1, 0, run.stderr)
    }), SPAWNS)

  it.live("a server's non-JSON stdout line is a warning on stderr; stdout keeps only the result", () =>
    Effect.gen(function*() {
      const run = yield* emcp("--stdio", CHATTY, "call", "ping", "--json")
      assertOk(run)
      assert.strictEqual(run.stdout, "{}\n")
      assert.match(
        run.stderr,
        /^emcp: warning: the MCP server wrote a line to stdout that is not JSON \(ignored\): Server starting on stdio\.\.\.$/m
      )
    }), SPAWNS)
})

// ============================================================================
// the CLI over HTTP, against one server in this process
// ============================================================================

class TestServer extends Context.Service<TestServer, {
  readonly url: string
  readonly legacyUrl: string
}>()("Cli.test/TestServer") {}

const TestServerLive = Layer.effect(
  TestServer,
  Effect.gen(function*() {
    const features = Layer.mergeAll(Fixture.Tools, Fixture.Resources, Fixture.Prompts, CliTools.Tools, FixtureTasks.TasksLive)
    const { url } = yield* startServer(features)
    const legacy = yield* startServer(features, { legacySse: true })
    return { url, legacyUrl: `http://127.0.0.1:${legacy.port}/sse` }
  })
)

/** `emcp --url <the test server> ...` */
const http = (...args: ReadonlyArray<string>) => Effect.flatMap(TestServer, ({ url }) => emcp("--url", url, ...args))

layer(TestServerLive, { excludeTestServices: true, timeout: 30_000 })("emcp over streamable HTTP", (it) => {
  it.effect("tools list: a table, or exactly the JSON result", () =>
    Effect.gen(function*() {
      const human = yield* http("tools", "list")
      assertOk(human)
      const rows = lines(human.stdout)
      assert.match(rows[0]!, /^NAME\s+ARGUMENTS\s+DESCRIPTION$/)
      assert.isTrue(rows.some((r) => /^echo\s+text: string\s+Echoes the text back/.test(r)))
      assert.isTrue(rows.some((r) => /^types\s+count\?: integer, ratio\?: number, flag\?: boolean/.test(r)))
      const json = yield* http("tools", "list", "--json")
      assertOk(json)
      const parsed = JSON.parse(json.stdout) as { tools: ReadonlyArray<{ name: string }> }
      assert.strictEqual(json.stdout, `${JSON.stringify(parsed)}\n`)
      assert.deepInclude(parsed.tools.map((t) => t.name), "test_sampling")
      assert.strictEqual(json.stderr, "")
    }))

  it.effect("tools call: text printed, or exactly the JSON result; headers sent", () =>
    Effect.gen(function*() {
      const human = yield* http("tools", "call", "echo", `{"text":"hi"}`, "--header", "X-Trace: 1")
      assertOk(human)
      assert.strictEqual(human.stdout, "hi\n")
      const json = yield* http("tools", "call", "echo", `{"text":"hi"}`, "--json")
      assertOk(json)
      assert.strictEqual(json.stdout, `{"content":[{"type":"text","text":"hi"}]}\n`)
      assertUsage(yield* http("tools", "call", "echo", "--header", "no colon"), /^emcp: invalid header 'no colon'/)
    }))

  it.effect("tools call --task: each status on stderr as it changes, then the result, in both eras", () =>
    Effect.gen(function*() {
      for (const protocol of ["2026-07-28", "2025-11-25"]) {
        const run = yield* http("tools", "call", "slow_compute", `{"seconds":0}`, "--task", "--protocol", protocol)
        assertOk(run)
        assert.strictEqual(run.stdout, "computed after 0 s\n")
        const statuses = lines(run.stderr).map((l) => /^task [0-9a-f-]{36} (\w+)/.exec(l)?.[1])
        assert.deepStrictEqual([statuses[0], statuses[statuses.length - 1]], ["working", "completed"], protocol)
      }
      // a tool that does not support tasks: 2025 refuses it (-32601, exit 1); on 2026 the server decides: a plain result
      const refused = yield* http("tools", "call", "echo", `{"text":"hi"}`, "--task", "--protocol", "2025-11-25")
      assert.strictEqual(refused.code, 1)
      assert.include(refused.stderr, "does not support tasks")
      const plain = yield* http("tools", "call", "echo", `{"text":"hi"}`, "--task", "--protocol", "2026-07-28")
      assertOk(plain)
      assert.strictEqual(plain.stdout, "hi\n")
    }))

  it.effect("tools call --arg key=value: values typed by the input schema", () =>
    Effect.gen(function*() {
      const blob = yield* http("tools", "call", "blob", "--arg", "bytes=5")
      assertOk(blob)
      assert.strictEqual(blob.stdout, "xxxxx\n")
      const typed = yield* http(
        "tools",
        "call",
        "types",
        `{"list":[1]}`,
        "--arg",
        "count=3",
        "--arg",
        "ratio=1.5",
        "--arg",
        "flag=true",
        "--arg",
        "label=42",
        "--arg",
        "extra=null",
        "--json"
      )
      assertOk(typed)
      const result = JSON.parse(typed.stdout) as { structuredContent: Record<string, string> }
      assert.deepStrictEqual(result.structuredContent, {
        list: "array",
        count: "number",
        ratio: "number",
        flag: "boolean",
        label: "string",
        extra: "object"
      })
      assertUsage(yield* http("tools", "call", "types", "--arg", "count=many"), /^emcp: --arg count: 'many' is not a number\n$/)
    }))

  it.effect("tools call: images and embedded resources are summarised; isError exits 1 with one line", () =>
    Effect.gen(function*() {
      const run = yield* http("tools", "call", "test_multiple_content_types")
      assertOk(run)
      assert.strictEqual(
        run.stdout,
        [
          "Multiple content types test:",
          "[image image/png, 70 bytes]",
          "[resource test://mixed-content-resource application/json]",
          `{"test":"data","value":123}`,
          ""
        ].join("\n")
      )
      const human = yield* http("tools", "call", "test_error_handling")
      assertOneLineFailure(human, /tool test_error_handling failed: This tool intentionally returns an error for testing/)
      assert.strictEqual(human.stdout, "")
      const json = yield* http("tools", "call", "test_error_handling", "--json")
      assertOneLineFailure(json, /intentionally returns an error/)
      assert.strictEqual(JSON.parse(json.stdout).isError, true)
    }))

  it.effect("progress on stderr, log messages at --log-level (info without it, in either era), none with -q", () =>
    Effect.gen(function*() {
      const progress = yield* http("tools", "call", "test_tool_with_progress")
      assertOk(progress)
      assert.deepStrictEqual(lines(progress.stderr), [
        "progress 0/100 (0%) Completed step 0 of 100",
        "progress 50/100 (50%) Completed step 50 of 100",
        "progress 100/100 (100%) Completed step 100 of 100"
      ])
      const logs = yield* http("tools", "call", "log_all", "--log-level", "warning")
      assertOk(logs)
      assert.strictEqual(logs.stdout, "logged\n")
      assert.deepStrictEqual(lines(logs.stderr), [
        "[warning] cli-server: a warning message",
        "[error] cli-server: a error message"
      ])
      const quiet = yield* http("-q", "tools", "call", "log_all", "--log-level", "debug")
      assertOk(quiet)
      assert.strictEqual(quiet.stderr, "")
      // without --log-level, info and above, in either era (2026 sends nothing unless asked: emcp asks for info)
      for (const protocol of ["2026-07-28", "2025-11-25"]) {
        const plain = yield* http("tools", "call", "log_all", "--protocol", protocol)
        assertOk(plain)
        assert.deepStrictEqual(lines(plain.stderr), [
          "[info] cli-server: a info message",
          "[notice] cli-server: a notice message",
          "[warning] cli-server: a warning message",
          "[error] cli-server: a error message"
        ], protocol)
      }
    }))

  it.effect("resources list, templates and read", () =>
    Effect.gen(function*() {
      const list = yield* http("resources", "list")
      assertOk(list)
      assert.match(lines(list.stdout)[0]!, /^URI\s+NAME\s+MIME TYPE\s+DESCRIPTION$/)
      assert.isTrue(lines(list.stdout).some((l) => /^test:\/\/static-text\s+static-text\s+text\/plain/.test(l)))
      const templates = yield* http("resources", "templates", "--json")
      assertOk(templates)
      assert.strictEqual(JSON.parse(templates.stdout).resourceTemplates[0].uriTemplate, "test://template/{id}/data")
      const text = yield* http("resources", "read", "test://static-text")
      assertOk(text)
      assert.strictEqual(text.stdout, "This is the content of the static text resource.\n")
      const blob = yield* http("resources", "read", "test://static-binary")
      assertOk(blob)
      assert.strictEqual(blob.stdout, "[blob test://static-binary image/png, 70 bytes]\n")
      const json = yield* http("--json", "resources", "read", "test://static-text")
      assertOk(json)
      assert.strictEqual(
        json.stdout,
        `{"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]}\n`
      )
      assertOneLineFailure(yield* http("resources", "read", "test://missing"), /server error -32(?:002|602): Resource not found/)
    }))

  it.effect("prompts list and get", () =>
    Effect.gen(function*() {
      const list = yield* http("prompts", "list")
      assertOk(list)
      assert.isTrue(lines(list.stdout).some((l) => /^test_prompt_with_arguments\s+arg1, arg2\s+A prompt with required/.test(l)))
      const get = yield* http("prompts", "get", "test_prompt_with_arguments", "--arg", "arg1=a", "--arg", "arg2=b")
      assertOk(get)
      assert.strictEqual(get.stdout, "[user]\nPrompt with arguments: arg1='a', arg2='b'\n")
      const json = yield* http("prompts", "get", "test_prompt_with_arguments", `{"arg1":"x","arg2":"y"}`, "--json")
      assertOk(json)
      assert.strictEqual(
        json.stdout,
        `{"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='x', arg2='y'"}}]}\n`
      )
    }))

  it.effect("complete, ping and info", () =>
    Effect.gen(function*() {
      const complete = yield* http("complete", "--prompt", "test_prompt_with_arguments", "arg1", "pa")
      assertOk(complete)
      assert.strictEqual(complete.stdout, "paris\npark\nparty\n")
      const ping = yield* http("ping")
      assertOk(ping)
      assert.match(ping.stdout, /^pong \(\d+ ms\)\n$/)
      const pingJson = yield* http("ping", "--json")
      assertOk(pingJson)
      assert.strictEqual(pingJson.stdout, "{}\n")
      const info = yield* http("info", "--json")
      assertOk(info)
      const parsed = JSON.parse(info.stdout)
      assert.strictEqual(parsed.serverInfo.name, "test-http")
      // our server speaks both eras: 2026 unless asked for 2025
      assert.strictEqual(parsed.protocolVersion, "2026-07-28")
      assert.strictEqual(parsed.era, "2026")
      const human = yield* http("info")
      assertOk(human)
      assert.match(human.stdout, /^server: {3}test-http 1\.0\.0\nprotocol: 2026-07-28 \(2026 era, stateless\)\nfeatures: .*tools/)
      const old = yield* http("info", "--protocol", "2025-11-25")
      assertOk(old)
      assert.match(old.stdout, /^server: {3}test-http 1\.0\.0\nprotocol: 2025-11-25 \(2025 era, session\)\nfeatures: .*tools/)
      assertUsage(yield* http("info", "--protocol", "2024-01-01"), /invalid --protocol '2024-01-01' \(expected 2025-11-25, 2026-07-28 or auto\)/)
      assertUsage(yield* http("info", "--protocol"), /--protocol needs a value/)
    }))

  it.effect("call METHOD [PARAMS_JSON]: any request, its JSON result", () =>
    Effect.gen(function*() {
      const run = yield* http("call", "tools/call", `{"name":"echo","arguments":{"text":"raw"}}`, "--json")
      assertOk(run)
      assert.strictEqual(run.stdout, `{"content":[{"type":"text","text":"raw"}]}\n`)
      const human = yield* http("call", "resources/templates/list")
      assertOk(human)
      assert.strictEqual(JSON.parse(human.stdout).resourceTemplates[0].name, "template")
      assert.include(human.stdout, "\n  ") // pretty-printed
      assertOneLineFailure(yield* http("call", "no/such/method"), /server error -32601: Method not found: no\/such\/method/)
    }))

  it.effect("sampling: answered by --sampling-response, refused without a terminal", () =>
    Effect.gen(function*() {
      const json = yield* http(
        "tools",
        "call",
        "test_sampling",
        `{"prompt":"hi"}`,
        "--sampling-response",
        `{"content":{"type":"text","text":"hello from the shell"},"model":"test"}`
      )
      assertOk(json)
      assert.strictEqual(json.stdout, "LLM response: hello from the shell\n")
      const text = yield* http("tools", "call", "test_sampling", "--arg", "prompt=hi", "--sampling-response", "plain")
      assertOk(text)
      assert.strictEqual(text.stdout, "LLM response: plain\n")
      const refused = yield* http("tools", "call", "test_sampling", `{"prompt":"hi"}`)
      assertOneLineFailure(refused, /no --sampling-response given and stdin is not a terminal/)
    }))

  it.effect("elicitation: --elicit accept:JSON, decline; declined without a terminal", () =>
    Effect.gen(function*() {
      const accept = yield* http(
        "tools",
        "call",
        "test_elicitation",
        `{"message":"who?"}`,
        "--elicit",
        `accept:{"username":"bob","email":"bob@example.org"}`
      )
      assertOk(accept)
      assert.strictEqual(accept.stdout, `User response: action=accept, content={"username":"bob","email":"bob@example.org"}\n`)
      const decline = yield* http("--elicit", "decline", "tools", "call", "test_elicitation", `{"message":"who?"}`)
      assertOk(decline)
      assert.strictEqual(decline.stdout, "User response: action=decline, content={}\n")
      const defaults = yield* http("--elicit", "accept", "tools", "call", "test_elicitation_sep1034_defaults")
      assertOk(defaults)
      assert.include(defaults.stdout, `"name":"John Doe","age":30`)
      const none = yield* http("tools", "call", "test_elicitation", `{"message":"who?"}`)
      assertOk(none)
      assert.strictEqual(none.stdout, "User response: action=decline, content={}\n")
    }))

  it.effect("roots from --root", () =>
    Effect.gen(function*() {
      const roots = yield* http("--root", "/tmp", "--root", "file:///srv/data", "tools", "call", "roots")
      assertOk(roots)
      assert.deepStrictEqual(JSON.parse(roots.stdout), [{ uri: "file:///tmp", name: "tmp" }, { uri: "file:///srv/data" }])
    }))

  it.effect("--timeout: the whole command, after the progress so far", () =>
    Effect.gen(function*() {
      const timeout = yield* http("tools", "call", "slow", `{"ms":60000}`, "--timeout", "1500ms")
      assert.strictEqual(timeout.code, 1)
      const errLines = lines(timeout.stderr)
      assert.match(errLines[0]!, /^progress \d+\/60000/)
      assert.strictEqual(errLines[errLines.length - 1], "emcp: timed out after 1500ms")
      const quiet = yield* http("tools", "call", "slow", `{"ms":60000}`, "--timeout", "300ms", "-q")
      assertOneLineFailure(quiet, /^emcp: timed out after 300ms$/)
    }))

  it.effect("falls back to a legacy HTTP+SSE server (2024-11-05)", () =>
    Effect.gen(function*() {
      const { legacyUrl } = yield* TestServer
      const echo = yield* emcp("--url", legacyUrl, "tools", "call", "echo", `{"text":"old transport"}`)
      assertOk(echo)
      assert.strictEqual(echo.stdout, "old transport\n")
      const sampling = yield* emcp(
        "--url",
        legacyUrl,
        "tools",
        "call",
        "test_sampling",
        `{"prompt":"p"}`,
        "--sampling-response",
        "still works"
      )
      assertOk(sampling)
      assert.strictEqual(sampling.stdout, "LLM response: still works\n")
    }))

  it.effect("an unreachable URL: non-zero, one line naming it", () =>
    Effect.gen(function*() {
      const refused = yield* emcp("--url", "http://127.0.0.1:1/mcp", "ping")
      assertOneLineFailure(refused, /127\.0\.0\.1:1/)
    }), 60_000)
})

// ============================================================================
// questions on a terminal (sampling and elicitation without flags)
// ============================================================================

describe("emcp asks on a terminal", () => {
  /** Runs `effect` with a dialog reading `answers` (lines) and returns what it said and its result. */
  const withAnswers = <A, E>(answers: ReadonlyArray<string>, effect: Effect.Effect<A, E, Dialog.Dialog>) =>
    Effect.scoped(Effect.gen(function*() {
      const input = new PassThrough()
      const output = new PassThrough()
      let said = ""
      output.setEncoding("utf8").on("data", (d: string) => (said += d))
      input.end(answers.map((a) => `${a}\n`).join(""))
      const dialog = yield* Dialog.make(input, output)
      const result = yield* Effect.result(Effect.provideService(effect, Dialog.Dialog, dialog))
      return { result, said }
    }))

  const form: McpSchema.ElicitRequestFormParams = {
    message: "Who are you?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        age: { type: "integer" },
        color: { type: "string", enum: ["red", "green"], default: "green" },
        sure: { type: "boolean" },
        nick: { type: "string" }
      },
      required: ["name", "age"]
    }
  }

  it.effect("elicitation: each field asked, typed and checked; declined; cancelled at the end of input", () =>
    Effect.gen(function*() {
      // accept; name: empty is refused; age: not a number, then 42; color: 2nd of [green (default first), red]; sure: y; nick: empty
      const accept = yield* withAnswers(["1", "", "Ada", "x", "42", "2", "y", ""], Interactive.elicitForm(form))
      assert.deepStrictEqual(accept.result, Result.succeed({ action: "accept", content: { name: "Ada", age: 42, color: "red", sure: true } }))
      assert.include(accept.said, "Who are you?")
      assert.include(accept.said, "  required")
      assert.include(accept.said, "  not a number")
      assert.include(accept.said, "   1) green\n   2) red\n   3) (leave empty)")
      const decline = yield* withAnswers(["2"], Interactive.elicitForm(form))
      assert.deepStrictEqual(decline.result, Result.succeed({ action: "decline" }))
      const ended = yield* withAnswers(["1", "Ada"], Interactive.elicitForm(form))
      assert.deepStrictEqual(ended.result, Result.succeed({ action: "cancel" }))
      const bad = yield* withAnswers(["7", "3"], Interactive.elicitForm(form))
      assert.deepStrictEqual(bad.result, Result.succeed({ action: "cancel" }))
      assert.include(bad.said, "answer a number from 1 to 3")
    }))

  it.effect("sampling: the request shown, the reply typed; rejected", () =>
    Effect.gen(function*() {
      const params: McpSchema.CreateMessageRequestParams = {
        messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
        maxTokens: 10
      }
      const reply = yield* withAnswers(["", "hello there"], Interactive.sampling(params))
      assert.deepStrictEqual(
        reply.result,
        Result.succeed({ role: "assistant", content: { type: "text", text: "hello there" }, model: "emcp-user", stopReason: "endTurn" })
      )
      assert.include(reply.said, "[user] Say hi")
      const rejected = yield* withAnswers(["2"], Interactive.sampling(params))
      assert.isTrue(Result.isFailure(rejected.result))
      assert.match(Result.isFailure(rejected.result) ? rejected.result.failure.message : "", /rejected/)
      const picked = yield* withAnswers(["1,3", ""], Dialog.multiSelect("pick", [{ title: "a", value: "a" }, { title: "b", value: "b", selected: true }, { title: "c", value: "c" }], { max: 2 }))
      assert.deepStrictEqual(picked.result, Result.succeed(["a", "c"]))
    }))
})
