/**
 * `emcp tools call` of a task tool that asks for input, as a user runs it: the CLI (bundled) as a
 * process, the official "everything" server (`@modelcontextprotocol/server-everything`, on the
 * official SDK's tasks) as its stdio child. Its `simulate-research-query` requires a task
 * (`execution.taskSupport: "required"`); `ambiguous: true` moves the task to `input_required` and
 * queues an `elicitation/create` that the server delivers only on `tasks/result`. Each run takes
 * the tool's four one-second stages.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../../vitest.bundled.js"

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url))
const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js")
const EVERYTHING = `'${process.execPath}' '${everything}' stdio`

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `emcp` as a process, stdin closed (not a terminal: elicitation answered by `--elicit`). */
const emcp = (args: ReadonlyArray<string>): Effect.Effect<Run> =>
  Effect.callback<Run>((resume) => {
    const child = spawn(process.execPath, [bundled("cli"), ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "" }
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** The research call, the clarification answered "snake"; `--timeout` bounds a hang. */
const research = (...extra: ReadonlyArray<string>) =>
  emcp([
    "--stdio",
    EVERYTHING,
    "--timeout",
    "25s",
    "--elicit",
    `accept:{"interpretation":"snake"}`,
    "tools",
    "call",
    "simulate-research-query",
    `{"topic":"python","ambiguous":true}`,
    ...extra
  ])

const statuses = (stderr: string) =>
  stderr.split("\n").map((l) => /^task \S+ (\w+)/.exec(l)?.[1]).filter((s) => s !== undefined)

describe("emcp against the everything server: a task that asks for input", () => {
  it.live("tools call --task: input_required, the elicitation answered through tasks/result, then the result", () =>
    Effect.gen(function*() {
      const run = yield* research("--task")
      assert.strictEqual(run.code, 0, run.stderr)
      assert.include(run.stdout, "**Clarification**: snake")
      const seen = statuses(run.stderr)
      assert.include(seen, "input_required")
      assert.strictEqual(seen.at(-1), "completed")
      // working again after the answer
      assert.include(seen.slice(seen.indexOf("input_required")), "working")
    }), 40_000)

  it.live("tools call without --task: the listed taskSupport \"required\" makes it a task, and the elicitation is answered", () =>
    Effect.gen(function*() {
      const run = yield* research()
      assert.strictEqual(run.code, 0, run.stderr)
      assert.notInclude(run.stderr, "requires task augmentation")
      assert.include(run.stdout, "**Clarification**: snake")
    }), 40_000)
})
