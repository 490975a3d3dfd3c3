/**
 * `emcp` as a process: `node --import tsx --conditions=effect-mcp-source src/cli.ts ...`
 * against the conformance fixture server (stdio and, in this process, HTTP)
 * and `fixtures/cli-server.ts`; plus the pure parsing helpers.
 */
import * as McpCli from "@effect-mcp/node/McpCli"
import { assert, describe, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Fixture from "../../conformance/src/Fixture.js"
import { startServer } from "./httpUtil.js"

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url))
const cliPath = fileURLToPath(new URL("../src/cli.ts", import.meta.url))
const tsNode = `'${process.execPath}' --import tsx --conditions=effect-mcp-source`
/** The conformance fixture over stdio, as a `--stdio` string. */
const CONFORMANCE = `${tsNode} '${fileURLToPath(new URL("../../conformance/src/server.ts", import.meta.url))}' --stdio`
/** The CLI test server over stdio. */
const CLI_SERVER = `${tsNode} '${fileURLToPath(new URL("./fixtures/cli-server.ts", import.meta.url))}'`

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

// every run is two Node processes compiling TypeScript: a few at a time
let running = 0
const waiting: Array<() => void> = []
const MAX_RUNNING = 3
const acquire = () =>
  running < MAX_RUNNING ? (running++, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))
const release = () => {
  const next = waiting.shift()
  if (next !== undefined) next()
  else running--
}

/** Runs the CLI with stdin closed (not a terminal) and collects what it wrote. */
const emcp = async (...args: ReadonlyArray<string>): Promise<Run> => {
  await acquire()
  try {
    return await new Promise<Run>((resolve, reject) => {
      const start = Date.now()
      const child = spawn(process.execPath, ["--import", "tsx", "--conditions=effect-mcp-source", cliPath, ...args], {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1" }
      })
      let stdout = ""
      let stderr = ""
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000)
      child.on("error", reject)
      child.on("close", (code) => {
        clearTimeout(timer)
        resolve({ code, stdout, stderr, ms: Date.now() - start })
      })
    })
  } finally {
    release()
  }
}

const lines = (text: string) => text.split("\n").filter((l) => l !== "")

/** Exit code 1 and exactly one line on stderr, which matches `pattern`. */
const assertOneLineFailure = (run: Run, pattern: RegExp) => {
  assert.strictEqual(run.code, 1, `exit code; stderr: ${run.stderr}`)
  const errorLines = lines(run.stderr)
  assert.strictEqual(errorLines.length, 1, `one line on stderr, got: ${run.stderr}`)
  assert.match(errorLines[0]!, /^emcp: /)
  assert.match(errorLines[0]!, pattern)
}

const assertOk = (run: Run) => assert.strictEqual(run.code, 0, `exit code; stderr: ${run.stderr}`)

// generous: every test waits for its turn among the runs of the file (each run is two processes)
const SLOW = { timeout: 300_000 }

// ============================================================================
// parsing helpers
// ============================================================================

describe("McpCli helpers", () => {
  it("splitCommand splits like a shell for simple quoting", () => {
    assert.deepStrictEqual(McpCli.splitCommand("node server.js --port 3"), Either.right(["node", "server.js", "--port", "3"]))
    assert.deepStrictEqual(
      McpCli.splitCommand(`node  'a b' "c \\"d\\"" e\\ f ''`),
      Either.right(["node", "a b", "c \"d\"", "e f", ""])
    )
    assert.deepStrictEqual(McpCli.splitCommand(`x 'it''s'`), Either.right(["x", "its"]))
    assert.deepStrictEqual(McpCli.splitCommand(`node -e "process.exit(3)"`), Either.right(["node", "-e", "process.exit(3)"]))
    assert.isTrue(Either.isLeft(McpCli.splitCommand(`node 'open`)))
    assert.isTrue(Either.isLeft(McpCli.splitCommand(`node "open`)))
  })

  it("parseDuration reads ms, s, m, h and bare seconds", () => {
    const ms = (text: string) => Either.map(McpCli.parseDuration(text), Duration.toMillis)
    assert.deepStrictEqual(ms("500ms"), Either.right(500))
    assert.deepStrictEqual(ms("30s"), Either.right(30_000))
    assert.deepStrictEqual(ms("1.5m"), Either.right(90_000))
    assert.deepStrictEqual(ms("2h"), Either.right(7_200_000))
    assert.deepStrictEqual(ms("10"), Either.right(10_000))
    assert.deepStrictEqual(ms("3 seconds"), Either.right(3000))
    assert.isTrue(Either.isLeft(ms("3x")))
    assert.isTrue(Either.isLeft(ms("0s")))
    assert.isTrue(Either.isLeft(ms("soon")))
  })

  it("parseArgValue types values by schema, else reads JSON when it can", () => {
    assert.deepStrictEqual(McpCli.parseArgValue("42", { type: "string" }), Either.right("42"))
    assert.deepStrictEqual(McpCli.parseArgValue("42", { type: "integer" }), Either.right(42))
    assert.deepStrictEqual(McpCli.parseArgValue("1.5", { type: "number" }), Either.right(1.5))
    assert.isTrue(Either.isLeft(McpCli.parseArgValue("1.5", { type: "integer" })))
    assert.isTrue(Either.isLeft(McpCli.parseArgValue("x", { type: "number" })))
    assert.deepStrictEqual(McpCli.parseArgValue("true", { type: "boolean" }), Either.right(true))
    assert.isTrue(Either.isLeft(McpCli.parseArgValue("yes", { type: "boolean" })))
    assert.deepStrictEqual(McpCli.parseArgValue("[1,2]", { type: "array" }), Either.right([1, 2]))
    assert.deepStrictEqual(McpCli.parseArgValue("7", { type: ["string", "integer"] }), Either.right(7))
    assert.deepStrictEqual(McpCli.parseArgValue("x", { type: ["string", "integer"] }), Either.right("x"))
    // no schema
    assert.deepStrictEqual(McpCli.parseArgValue("3"), Either.right(3))
    assert.deepStrictEqual(McpCli.parseArgValue("false"), Either.right(false))
    assert.deepStrictEqual(McpCli.parseArgValue("null"), Either.right(null))
    assert.deepStrictEqual(McpCli.parseArgValue(`{"a":1}`), Either.right({ a: 1 }))
    assert.deepStrictEqual(McpCli.parseArgValue("hello"), Either.right("hello"))
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
    assert.isTrue(Either.isRight(n))
    const { args, globals } = Either.getOrThrow(n)
    assert.deepStrictEqual(args, ["tools", "call", "echo", "{}", "--", "--json"])
    assert.deepStrictEqual(globals.stdio, Option.some("node s.js"))
    assert.deepStrictEqual(globals.env, ["A=1", "B=2"])
    assert.deepStrictEqual(globals.timeout, Option.some("500ms"))
    assert.deepStrictEqual(globals.logLevel, Option.some("debug"))
    assert.isTrue(globals.json)
    assert.isTrue(globals.quiet)
    assert.isFalse(globals.verbose)
    assert.isTrue(Either.isLeft(McpCli.normalizeArgs(["ping", "--stdio"])))
    assert.isTrue(Either.isLeft(McpCli.normalizeArgs(["--url", "a", "--url", "b", "ping"])))
    assert.isTrue(Either.isLeft(McpCli.normalizeArgs(["--json=1", "ping"])))
  })

  it("parses --elicit and --sampling-response", () => {
    assert.deepStrictEqual(McpCli.parseElicit(`accept:{"a":1}`), Either.right({ action: "accept", content: { a: 1 } }))
    assert.deepStrictEqual(McpCli.parseElicit("accept"), Either.right({ action: "accept", content: {} }))
    assert.deepStrictEqual(McpCli.parseElicit("decline"), Either.right({ action: "decline" }))
    assert.deepStrictEqual(McpCli.parseElicit("cancel"), Either.right({ action: "cancel" }))
    assert.isTrue(Either.isLeft(McpCli.parseElicit("accept:[1]")))
    assert.isTrue(Either.isLeft(McpCli.parseElicit("maybe")))
    assert.deepStrictEqual(
      McpCli.parseSamplingResponse("hi there"),
      Either.right({ role: "assistant", content: { type: "text", text: "hi there" }, model: "emcp", stopReason: "endTurn" })
    )
    const full = McpCli.parseSamplingResponse(`{"content":{"type":"text","text":"x"},"model":"m1"}`)
    assert.deepStrictEqual(full, Either.right({ role: "assistant", content: { type: "text", text: "x" }, model: "m1" }))
    assert.isTrue(Either.isLeft(McpCli.parseSamplingResponse(`{"content":42}`)))
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
// the CLI over stdio
// ============================================================================

describe.concurrent("emcp over stdio", () => {
  it("--help lists the commands and exits 0", SLOW, async () => {
    const run = await emcp("--help")
    assertOk(run)
    for (const word of ["--stdio", "--url", "--json", "--timeout", "tools call", "resources read", "prompts get", "complete", "ping", "call"]) {
      assert.include(run.stdout, word)
    }
  })

  it("tools list: a table, or exactly the JSON result", SLOW, async () => {
    const human = await emcp("--stdio", CONFORMANCE, "tools", "list")
    assertOk(human)
    const rows = lines(human.stdout)
    assert.match(rows[0]!, /^NAME\s+ARGUMENTS\s+DESCRIPTION$/)
    assert.isTrue(rows.some((r) => /^echo\s+text: string\s+Echoes the text back/.test(r)))
    assert.isTrue(rows.some((r) => /^slow\s+ms: integer\s+/.test(r)))

    // global options after the command
    const json = await emcp("tools", "list", "--json", "--stdio", CONFORMANCE)
    assertOk(json)
    const parsed = JSON.parse(json.stdout) as { tools: ReadonlyArray<{ name: string }> }
    assert.strictEqual(json.stdout, `${JSON.stringify(parsed)}\n`)
    assert.deepInclude(parsed.tools.map((t) => t.name), "test_sampling")
    assert.strictEqual(json.stderr, "")
  })

  it("tools call: text printed, or exactly the JSON result", SLOW, async () => {
    const human = await emcp("--stdio", CONFORMANCE, "tools", "call", "echo", `{"text":"hi"}`)
    assertOk(human)
    assert.strictEqual(human.stdout, "hi\n")
    const json = await emcp("--stdio", CONFORMANCE, "tools", "call", "echo", `{"text":"hi"}`, "--json")
    assertOk(json)
    assert.strictEqual(json.stdout, `{"content":[{"type":"text","text":"hi"}]}\n`)
  })

  it("tools call --arg key=value: values typed by the input schema", SLOW, async () => {
    const blob = await emcp("--stdio", CONFORMANCE, "tools", "call", "blob", "--arg", "bytes=5")
    assertOk(blob)
    assert.strictEqual(blob.stdout, "xxxxx\n")
    const typed = await emcp(
      "--stdio",
      CLI_SERVER,
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
    const bad = await emcp("--stdio", CLI_SERVER, "tools", "call", "types", "--arg", "count=many")
    assert.strictEqual(bad.code, 2)
    assert.match(bad.stderr, /^emcp: --arg count: 'many' is not a number\n$/)
  })

  it("tools call: images and embedded resources are summarised", SLOW, async () => {
    const run = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_multiple_content_types")
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
  })

  it("tools call: isError exits 1 with one line on stderr", SLOW, async () => {
    const human = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_error_handling")
    assertOneLineFailure(human, /tool test_error_handling failed: This tool intentionally returns an error for testing/)
    assert.strictEqual(human.stdout, "")
    const json = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_error_handling", "--json")
    assertOneLineFailure(json, /intentionally returns an error/)
    assert.strictEqual(JSON.parse(json.stdout).isError, true)
  })

  it("progress on stderr, log messages at --log-level", SLOW, async () => {
    const progress = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_tool_with_progress")
    assertOk(progress)
    assert.deepStrictEqual(lines(progress.stderr), [
      "progress 0/100 (0%) Completed step 0 of 100",
      "progress 50/100 (50%) Completed step 50 of 100",
      "progress 100/100 (100%) Completed step 100 of 100"
    ])
    const logs = await emcp("--stdio", CLI_SERVER, "tools", "call", "log_all", "--log-level", "warning")
    assertOk(logs)
    assert.strictEqual(logs.stdout, "logged\n")
    assert.deepStrictEqual(lines(logs.stderr), [
      "[warning] cli-server: a warning message",
      "[error] cli-server: a error message"
    ])
    const quiet = await emcp("--stdio", CLI_SERVER, "-q", "tools", "call", "log_all", "--log-level", "debug")
    assertOk(quiet)
    assert.strictEqual(quiet.stderr, "")
  })

  it("resources list, templates and read", SLOW, async () => {
    const list = await emcp("--stdio", CONFORMANCE, "resources", "list")
    assertOk(list)
    assert.match(lines(list.stdout)[0]!, /^URI\s+NAME\s+MIME TYPE\s+DESCRIPTION$/)
    assert.isTrue(lines(list.stdout).some((l) => /^test:\/\/static-text\s+static-text\s+text\/plain/.test(l)))
    const templates = await emcp("--stdio", CONFORMANCE, "resources", "templates", "--json")
    assertOk(templates)
    assert.strictEqual(JSON.parse(templates.stdout).resourceTemplates[0].uriTemplate, "test://template/{id}/data")
    const text = await emcp("--stdio", CONFORMANCE, "resources", "read", "test://static-text")
    assertOk(text)
    assert.strictEqual(text.stdout, "This is the content of the static text resource.\n")
    const blob = await emcp("--stdio", CONFORMANCE, "resources", "read", "test://static-binary")
    assertOk(blob)
    assert.strictEqual(blob.stdout, "[blob test://static-binary image/png, 70 bytes]\n")
    const json = await emcp("--stdio", CONFORMANCE, "--json", "resources", "read", "test://static-text")
    assertOk(json)
    assert.strictEqual(
      json.stdout,
      `{"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]}\n`
    )
    const missing = await emcp("--stdio", CONFORMANCE, "resources", "read", "test://missing")
    assertOneLineFailure(missing, /server error -32002: Resource not found/)
  })

  it("prompts list and get", SLOW, async () => {
    const list = await emcp("--stdio", CONFORMANCE, "prompts", "list")
    assertOk(list)
    assert.isTrue(lines(list.stdout).some((l) => /^test_prompt_with_arguments\s+arg1, arg2\s+A prompt with required/.test(l)))
    const get = await emcp("--stdio", CONFORMANCE, "prompts", "get", "test_prompt_with_arguments", "--arg", "arg1=a", "--arg", "arg2=b")
    assertOk(get)
    assert.strictEqual(get.stdout, "[user]\nPrompt with arguments: arg1='a', arg2='b'\n")
    const json = await emcp("--stdio", CONFORMANCE, "prompts", "get", "test_prompt_with_arguments", `{"arg1":"x","arg2":"y"}`, "--json")
    assertOk(json)
    assert.strictEqual(
      json.stdout,
      `{"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='x', arg2='y'"}}]}\n`
    )
  })

  it("complete, ping and info", SLOW, async () => {
    const complete = await emcp("--stdio", CONFORMANCE, "complete", "--prompt", "test_prompt_with_arguments", "arg1", "pa")
    assertOk(complete)
    assert.strictEqual(complete.stdout, "paris\npark\nparty\n")
    const ping = await emcp("--stdio", CONFORMANCE, "ping")
    assertOk(ping)
    assert.match(ping.stdout, /^pong \(\d+ ms\)\n$/)
    const pingJson = await emcp("--stdio", CONFORMANCE, "ping", "--json")
    assertOk(pingJson)
    assert.strictEqual(pingJson.stdout, "{}\n")
    const info = await emcp("--stdio", CONFORMANCE, "info", "--json")
    assertOk(info)
    const parsed = JSON.parse(info.stdout)
    assert.strictEqual(parsed.serverInfo.name, "mcp-conformance-test-server")
    assert.strictEqual(parsed.protocolVersion, "2025-11-25")
  })

  it("call METHOD [PARAMS_JSON]: any request, its JSON result", SLOW, async () => {
    const run = await emcp("--stdio", CONFORMANCE, "call", "tools/call", `{"name":"echo","arguments":{"text":"raw"}}`, "--json")
    assertOk(run)
    assert.strictEqual(run.stdout, `{"content":[{"type":"text","text":"raw"}]}\n`)
    const human = await emcp("--stdio", CONFORMANCE, "call", "resources/templates/list")
    assertOk(human)
    assert.strictEqual(JSON.parse(human.stdout).resourceTemplates[0].name, "template")
    assert.include(human.stdout, "\n  ") // pretty-printed
    const unknown = await emcp("--stdio", CONFORMANCE, "call", "no/such/method")
    assertOneLineFailure(unknown, /server error -32601: Method not found: no\/such\/method/)
  })

  it("sampling: answered by --sampling-response, refused without a terminal", SLOW, async () => {
    const json = await emcp(
      "--stdio",
      CONFORMANCE,
      "tools",
      "call",
      "test_sampling",
      `{"prompt":"hi"}`,
      "--sampling-response",
      `{"content":{"type":"text","text":"hello from the shell"},"model":"test"}`
    )
    assertOk(json)
    assert.strictEqual(json.stdout, "LLM response: hello from the shell\n")
    const text = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_sampling", "--arg", "prompt=hi", "--sampling-response", "plain")
    assertOk(text)
    assert.strictEqual(text.stdout, "LLM response: plain\n")
    const refused = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_sampling", `{"prompt":"hi"}`)
    assertOneLineFailure(refused, /no --sampling-response given and stdin is not a terminal/)
  })

  it("elicitation: --elicit accept:JSON, decline; declined without a terminal", SLOW, async () => {
    const accept = await emcp(
      "--stdio",
      CONFORMANCE,
      "tools",
      "call",
      "test_elicitation",
      `{"message":"who?"}`,
      "--elicit",
      `accept:{"username":"bob","email":"bob@example.org"}`
    )
    assertOk(accept)
    assert.strictEqual(accept.stdout, `User response: action=accept, content={"username":"bob","email":"bob@example.org"}\n`)
    const decline = await emcp("--stdio", CONFORMANCE, "--elicit", "decline", "tools", "call", "test_elicitation", `{"message":"who?"}`)
    assertOk(decline)
    assert.strictEqual(decline.stdout, "User response: action=decline, content={}\n")
    const defaults = await emcp("--stdio", CONFORMANCE, "--elicit", "accept", "tools", "call", "test_elicitation_sep1034_defaults")
    assertOk(defaults)
    assert.include(defaults.stdout, `"name":"John Doe","age":30`)
    const none = await emcp("--stdio", CONFORMANCE, "tools", "call", "test_elicitation", `{"message":"who?"}`)
    assertOk(none)
    assert.strictEqual(none.stdout, "User response: action=decline, content={}\n")
  })

  it("roots from --root, environment and working directory of the server", SLOW, async () => {
    const roots = await emcp("--stdio", CLI_SERVER, "--root", "/tmp", "--root", "file:///srv/data", "tools", "call", "roots")
    assertOk(roots)
    assert.deepStrictEqual(JSON.parse(roots.stdout), [{ uri: "file:///tmp", name: "tmp" }, { uri: "file:///srv/data" }])
    // the server still resolves tsx from there
    const cwd = fileURLToPath(new URL("./fixtures", import.meta.url)).replace(/\/$/, "")
    const env = await emcp("--stdio", CLI_SERVER, "--env", "EMCP_TEST=yes", "--cwd", cwd, "tools", "call", "env", "--arg", "name=EMCP_TEST")
    assertOk(env)
    assert.deepStrictEqual(JSON.parse(env.stdout), { value: "yes", cwd })
  })

  it("--timeout: the whole command, non-zero and quick", SLOW, async () => {
    const short = await emcp("--stdio", CONFORMANCE, "tools", "call", "slow", `{"ms":5000}`, "--timeout", "300ms")
    assertOneLineFailure(short, /^emcp: timed out after 300ms$/)
    // long enough to be in the call (progress shown), far shorter than the tool
    const long = await emcp("--stdio", CONFORMANCE, "tools", "call", "slow", `{"ms":60000}`, "--timeout", "12s")
    assert.strictEqual(long.code, 1)
    const errLines = lines(long.stderr)
    assert.match(errLines[0]!, /^progress \d+\/60000/)
    assert.strictEqual(errLines[errLines.length - 1], "emcp: timed out after 12s")
    assert.isBelow(long.ms, 30_000)
  })

  it("a server that exits: non-zero, one line naming the exit code", SLOW, async () => {
    const gone = await emcp("--stdio", "node -e process.exit(3)", "ping")
    assertOneLineFailure(gone, /exited with code 3/)
    const crash = await emcp("--stdio", CLI_SERVER, "tools", "call", "crash")
    assertOneLineFailure(crash, /exited with code 5.*crashing on request/)
    const missing = await emcp("--stdio", "no-such-command-for-emcp", "ping")
    assertOneLineFailure(missing, /could not start no-such-command-for-emcp/)
  })

  it("--verbose copies the server's stderr", SLOW, async () => {
    const run = await emcp("--stdio", CLI_SERVER, "--verbose", "ping")
    assertOk(run)
    assert.include(run.stderr, "cli-server: ready")
  })

  it("usage errors exit 2 with one line", SLOW, async () => {
    const none = await emcp("ping")
    assert.strictEqual(none.code, 2)
    assert.match(none.stderr, /^emcp: no server given: use --stdio/)
    const both = await emcp("--stdio", "x", "--url", "http://127.0.0.1:1/mcp", "ping")
    assert.strictEqual(both.code, 2)
    assert.strictEqual(both.stderr, "emcp: --stdio and --url are exclusive\n")
    const level = await emcp("--stdio", "x", "--log-level", "loud", "ping")
    assert.strictEqual(level.code, 2)
    assert.match(level.stderr, /^emcp: invalid --log-level 'loud'/)
    // the parser's own errors, in the same shape
    const unknown = await emcp("--stdio", "x", "tools", "list", "--bogus")
    assert.strictEqual(unknown.code, 2)
    assert.strictEqual(unknown.stderr, "emcp: Received unknown argument: '--bogus'\n")
    const missing = await emcp("--stdio", "x", "tools", "call")
    assert.strictEqual(missing.code, 2)
    assert.strictEqual(missing.stderr, "emcp: Missing argument <NAME>\n")
    const json = await emcp("--stdio", "x", "tools", "call", "echo", "{oops")
    assert.strictEqual(json.code, 2)
    assert.match(json.stderr, /^emcp: the arguments JSON is not valid JSON/)
  })
})

// ============================================================================
// the CLI over HTTP, against a server in this process
// ============================================================================

const HttpFeatures = Layer.mergeAll(Fixture.Tools, Fixture.Resources, Fixture.Prompts)

describe("emcp over streamable HTTP", () => {
  it.scopedLive("tools, sampling, elicitation, isError, headers", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(HttpFeatures)
      const run = (...args: ReadonlyArray<string>) => Effect.promise(() => emcp("--url", url, ...args))
      const [list, echo, sampling, elicit, isError, read] = yield* Effect.all([
        run("tools", "list", "--json"),
        run("tools", "call", "echo", `{"text":"over http"}`, "--header", "X-Trace: 1"),
        run("tools", "call", "test_sampling", `{"prompt":"p"}`, "--sampling-response", "yes", "--json"),
        run("tools", "call", "test_elicitation", `{"message":"m"}`, "--elicit", `accept:{"username":"u","email":"e@x.org"}`),
        run("tools", "call", "test_error_handling"),
        run("resources", "read", "test://static-text")
      ], { concurrency: "unbounded" })
      assertOk(list)
      assert.deepInclude(JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name), "echo")
      assertOk(echo)
      assert.strictEqual(echo.stdout, "over http\n")
      assertOk(sampling)
      assert.strictEqual(sampling.stdout, `{"content":[{"type":"text","text":"LLM response: yes"}]}\n`)
      assertOk(elicit)
      assert.strictEqual(elicit.stdout, `User response: action=accept, content={"username":"u","email":"e@x.org"}\n`)
      assertOneLineFailure(isError, /tool test_error_handling failed/)
      assertOk(read)
      assert.strictEqual(read.stdout, "This is the content of the static text resource.\n")
    }), 120_000)

  it.scopedLive("progress and timeout over HTTP", () =>
    Effect.gen(function*() {
      const { url } = yield* startServer(HttpFeatures)
      const progress = yield* Effect.promise(() => emcp("--url", url, "tools", "call", "test_tool_with_progress"))
      assertOk(progress)
      assert.strictEqual(lines(progress.stderr).length, 3)
      const timeout = yield* Effect.promise(() =>
        emcp("--url", url, "tools", "call", "slow", `{"ms":30000}`, "--timeout", "1500ms", "-q")
      )
      assertOneLineFailure(timeout, /^emcp: timed out after 1500ms$/)
      assert.isBelow(timeout.ms, 15_000)
    }), 120_000)

  it.scopedLive("falls back to a legacy HTTP+SSE server (2024-11-05)", () =>
    Effect.gen(function*() {
      const { port } = yield* startServer(HttpFeatures, { legacySse: true })
      const url = `http://127.0.0.1:${port}/sse`
      const [echo, sampling] = yield* Effect.all([
        Effect.promise(() => emcp("--url", url, "tools", "call", "echo", `{"text":"old transport"}`)),
        Effect.promise(() =>
          emcp("--url", url, "tools", "call", "test_sampling", `{"prompt":"p"}`, "--sampling-response", "still works")
        )
      ], { concurrency: "unbounded" })
      assertOk(echo)
      assert.strictEqual(echo.stdout, "old transport\n")
      assertOk(sampling)
      assert.strictEqual(sampling.stdout, "LLM response: still works\n")
    }), 120_000)

  it.live("an unreachable URL: non-zero, one line", () =>
    Effect.gen(function*() {
      const refused = yield* Effect.promise(() => emcp("--url", "http://127.0.0.1:1/mcp", "ping"))
      assertOneLineFailure(refused, /127\.0\.0\.1:1/)
    }), 60_000)
})
