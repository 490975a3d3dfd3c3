/**
 * `emcp`: talk to any MCP server from the shell.
 *
 *   emcp (--stdio "<command>" | --url <url>) [options] <command> [arguments]
 *
 * Commands: `info`, `tools list`, `tools call NAME [JSON] [--arg k=v ...]`,
 * `resources list`, `resources templates`, `resources read URI`,
 * `resources subscribe URI` and `watch` (change notifications until Ctrl-C),
 * `prompts list`, `prompts get NAME [JSON] [--arg k=v ...]`,
 * `complete (--prompt NAME | --resource URI) ARGUMENT [VALUE]`, `ping`, and
 * `call METHOD [PARAMS_JSON]` for any request, and `login` / `logout` for
 * a `--url` server that requires OAuth (any command signs in on a 401
 * unless `--no-login`; tokens are kept in `tokens.json`, mode 0600, under
 * `$EMCP_CONFIG_DIR`, else `$XDG_CONFIG_HOME/emcp`, else `~/.config/emcp`). `emcp --help` and
 * `emcp COMMAND --help` describe them with examples.
 *
 * The pieces live in `cli/`: `Args` (the command table and its parser, no
 * Effect), `Help`, `Values` (option values), `Settings`, `Session` (the
 * connection), `Output` and `Render`, `Handlers` and `Interactive` (answers
 * to the server's requests), and one module per command group in
 * `cli/commands/`. Human output by default; `--json` prints exactly the JSON
 * result on stdout. Every failure exits non-zero with one line on stderr
 * (exit code 2 for a usage error, 1 for anything else).
 *
 * @example
 * ```ts
 * import * as McpCli from "@effect-mcp/node/McpCli"
 * import * as Effect from "effect/Effect"
 *
 * const exitCode: Effect.Effect<number> = McpCli.run(["node", "emcp", "--stdio", "node server.js", "tools", "list"])
 * ```
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as References from "effect/References"
import { type CommandSpec, parseCommandLine } from "./cli/Args.js"
import { CliError, oneLine } from "./cli/CliError.js"
import * as Auth from "./cli/commands/Auth.js"
import * as Complete from "./cli/commands/Complete.js"
import * as Prompts from "./cli/commands/Prompts.js"
import * as Resources from "./cli/commands/Resources.js"
import * as Server from "./cli/commands/Server.js"
import * as Tools from "./cli/commands/Tools.js"
import * as Watch from "./cli/commands/Watch.js"
import { helpFor, VERSION } from "./cli/Help.js"
import { Output, OutputShape, processStreams, type Streams } from "./cli/Output.js"
import type { CommandHandler } from "./cli/Session.js"

export {
  /**
   * @since 0.1.0
   * @category parsing
   */
  type GlobalConfig,
  /**
   * @since 0.1.0
   * @category parsing
   */
  normalizeArgs,
  /**
   * @since 0.1.0
   * @category parsing
   */
  parseCommandLine
} from "./cli/Args.js"
export {
  /**
   * @since 0.1.0
   * @category errors
   */
  CliError,
  /**
   * @since 0.1.0
   * @category rendering
   */
  oneLine
} from "./cli/CliError.js"
export {
  /**
   * @since 0.1.0
   * @category help
   */
  helpFor,
  /**
   * @since 0.1.0
   * @category constants
   */
  VERSION
} from "./cli/Help.js"
export {
  /**
   * @since 0.1.0
   * @category io
   */
  processStreams,
  /**
   * @since 0.1.0
   * @category io
   */
  type Streams
} from "./cli/Output.js"
export {
  /**
   * @since 0.1.0
   * @category rendering
   */
  renderContent,
  /**
   * @since 0.1.0
   * @category rendering
   */
  renderResourceContents,
  /**
   * @since 0.1.0
   * @category rendering
   */
  table,
  /**
   * @since 0.1.0
   * @category rendering
   */
  toolArguments
} from "./cli/Render.js"
export {
  /**
   * @since 0.1.0
   * @category settings
   */
  type Settings,
  /**
   * @since 0.1.0
   * @category settings
   */
  toSettings
} from "./cli/Settings.js"
export {
  /**
   * @since 0.1.0
   * @category parsing
   */
  type ElicitAnswer,
  /**
   * @since 0.1.0
   * @category parsing
   */
  LOG_LEVELS,
  /**
   * @since 0.1.0
   * @category parsing
   */
  parseArgValue,
  /**
   * @since 0.1.0
   * @category parsing
   */
  parseDuration,
  /**
   * @since 0.1.0
   * @category parsing
   */
  parseElicit,
  /**
   * @since 0.1.0
   * @category parsing
   */
  parseRoot,
  /**
   * @since 0.1.0
   * @category parsing
   */
  parseSamplingResponse,
  /**
   * @since 0.1.0
   * @category parsing
   */
  splitCommand
} from "./cli/Values.js"

/** Every command's implementation, by its words. */
const HANDLERS: Readonly<Record<string, CommandHandler>> = {
  "info": Server.info,
  "ping": Server.ping,
  "call": Server.call,
  "tools list": Tools.list,
  "tools call": Tools.call,
  "resources list": Resources.list,
  "resources templates": Resources.templates,
  "resources read": Resources.read,
  "resources subscribe": Watch.subscribe,
  "watch": Watch.watch,
  "prompts list": Prompts.list,
  "prompts get": Prompts.get,
  "complete": Complete.complete,
  "login": Auth.login,
  "logout": Auth.logout
}

const handlerOf = (command: CommandSpec): CommandHandler => HANDLERS[command.path.join(" ")]!

/**
 * Runs `emcp` on its arguments (without the runtime and script) with the
 * given streams and returns the exit code; never fails. Failures are
 * reported as one line on stderr: exit code 2 for a usage error, 1 for any
 * other failure, 130 when interrupted.
 *
 * @example
 * ```ts
 * import * as McpCli from "@effect-mcp/node/McpCli"
 * import * as Effect from "effect/Effect"
 *
 * const program = McpCli.main(["--url", "http://127.0.0.1:3000/mcp", "ping"], McpCli.processStreams())
 * ```
 * @since 0.1.0
 * @category running
 */
export const main = (args: ReadonlyArray<string>, streams: Streams): Effect.Effect<number> =>
  Effect.suspend(() => {
    const line = parseCommandLine(args)
    switch (line._tag) {
      case "Help":
        return Effect.as(streams.stdout(`${helpFor(line.path)}\n`), 0)
      case "Version":
        return Effect.as(streams.stdout(`${VERSION}\n`), 0)
      case "UsageError":
        return Effect.sync(() => {
          streams.stderr(`emcp: ${oneLine(line.message)}\n`)
          return 2
        })
      case "Run": {
        const output = new OutputShape(streams)
        return handlerOf(line.command)(line).pipe(
          Effect.provideService(Output, output),
          Effect.provideService(References.MinimumLogLevel, "Warn"),
          // the default logger replaced (the others, a tracer's, stay)
          Effect.updateService(Logger.CurrentLoggers, (loggers) => {
            const replaced = stderrLogger(output)
            return new Set(Array.from(loggers, (logger) => (logger === Logger.defaultLogger ? replaced : logger)))
          }),
          Effect.as(0),
          Effect.catch((e: CliError) =>
            Effect.sync(() => {
              streams.stderr(`emcp: ${oneLine(e.message)}\n`)
              return e.exitCode
            })
          ),
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.succeed(130)
              : Effect.sync(() => {
                streams.stderr(`emcp: unexpected failure: ${oneLine(Cause.pretty(cause), 300)}\n`)
                return 1
              })
          )
        )
      }
    }
  })

/**
 * Library warnings (a stdio server printing non-JSON lines on stdout, say) go
 * to stderr as `emcp: warning: …`, never to stdout, where they would corrupt
 * `--json` output.
 */
const stderrLogger = (output: OutputShape) =>
  Logger.make(({ logLevel, message }) => {
    const text = (Array.isArray(message) ? message : [message])
      .map((part) => (typeof part === "string" ? part : String(part)))
      .join(" ")
    output.line(`emcp: ${logLevel === "Warn" ? "warning" : logLevel.toLowerCase()}: ${oneLine(text, 500)}`)
  })

/**
 * Runs `emcp` on a full `process.argv` (runtime and script first) with this
 * process's stdout and stderr, and returns the exit code; never fails.
 *
 * @since 0.1.0
 * @category running
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<number> => main(argv.slice(2), processStreams())
