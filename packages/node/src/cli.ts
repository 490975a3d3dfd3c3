#!/usr/bin/env node
/**
 * The `emcp` executable: runs `McpCli` on the command line with the Node
 * context, and exits with its exit code once stdout is flushed.
 *
 *   emcp --stdio "node server.js" tools list
 *   emcp --url http://127.0.0.1:3000/mcp tools call echo '{"text":"hi"}' --json
 *
 * @since 0.1.0
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as McpCli from "./McpCli.js"

McpCli.run(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    teardown: (exit, onExit) => {
      const code = Exit.isSuccess(exit) ? (exit.value as number) : 130
      // exit explicitly (a leftover handle must not keep the process alive), after stdout drained
      process.stdout.write("", () => {
        onExit(code)
        process.exit(code)
      })
    }
  })
)
