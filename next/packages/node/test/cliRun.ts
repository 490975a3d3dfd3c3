/**
 * `emcp` run in this process, as the tests drive it: stdout and stderr captured, stdin not a
 * terminal, no terminal width.
 */
import * as McpCli from "@effect-mcp/node/McpCli"
import * as Effect from "effect/Effect"

/** What one run of `emcp` left: its exit code and what it wrote. */
export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `emcp` with `args`; `onStderr` sees each piece of stderr as it is written. */
export const emcpWith = (onStderr: (text: string) => void, ...args: ReadonlyArray<string>): Effect.Effect<Run> =>
  Effect.suspend(() => {
    let stdout = ""
    let stderr = ""
    const streams: McpCli.Streams = {
      stdout: (text) => Effect.sync(() => void (stdout += text)),
      stderr: (text) => {
        stderr += text
        onStderr(text)
      },
      stdoutColumns: () => undefined,
      stderrColumns: () => undefined,
      interactive: false
    }
    return Effect.map(McpCli.main(args, streams), (code) => ({ code, stdout, stderr }))
  })

/** Runs `emcp` with `args`. */
export const emcp = (...args: ReadonlyArray<string>): Effect.Effect<Run> => emcpWith(() => {}, ...args)
