#!/usr/bin/env node
/**
 * The `emcp` executable. `--help`, `--version` and a command line that does
 * not parse are answered from the command table alone; a command loads the
 * protocol stack (Effect, the client, the transports) and runs `McpCli` with
 * the Node runtime, then exits with its exit code once stdout is flushed.
 *
 *   emcp --stdio "node server.js" tools list
 *   emcp --url http://127.0.0.1:3000/mcp tools call echo '{"text":"hi"}' --json
 *
 * @since 0.1.0
 */
import { parseCommandLine } from "./cli/Args.js"
import { helpFor, VERSION } from "./cli/Help.js"

const line = parseCommandLine(process.argv.slice(2))
if (line._tag === "Help") {
  process.stdout.write(`${helpFor(line.path)}\n`)
} else if (line._tag === "Version") {
  process.stdout.write(`${VERSION}\n`)
} else if (line._tag === "UsageError") {
  process.stderr.write(`emcp: ${line.message}\n`)
  process.exitCode = 2
} else {
  const [McpCli, NodeRuntime] = await Promise.all([import("./McpCli.js"), import("@effect/platform-node/NodeRuntime")])
  McpCli.run(process.argv).pipe(
    NodeRuntime.runMain({
      disableErrorReporting: true,
      teardown: (exit, onExit) => {
        // the teardown is generic in the value; ours is the exit code
        const code = exit._tag === "Success" ? (exit.value as number) : 130
        // exit explicitly (a leftover handle must not keep the process alive), after stdout drained
        process.stdout.write("", () => {
          onExit(code)
          process.exit(code)
        })
      }
    })
  )
}
