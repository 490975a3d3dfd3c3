/**
 * One `emcp` command's connection: the transport of the settings (stdio
 * child or HTTP), the client with its handlers, the server's log messages
 * and progress on stderr, `--timeout` over all of it, and every failure as
 * one `CliError`.
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import type { TransportError } from "@effect-mcp/mcp/McpError"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import type { Transport } from "@effect-mcp/mcp/Transport"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { spawn } from "node:child_process"
import * as NodeStdio from "../NodeStdio.js"
import type { GlobalConfig } from "./Args.js"
import { CliError, describeClientError } from "./CliError.js"
import { clientHandlers } from "./Handlers.js"
import { VERSION } from "./Help.js"
import { Output, type OutputShape } from "./Output.js"
import { orUsage, type Settings, type SignIn, toSettings } from "./Settings.js"
import { formatDuration, LOG_LEVELS, splitPair } from "./Values.js"

/** Shows the authorization URL on stderr; on a terminal, also tries to open a browser. */
const openBrowser = (err: OutputShape, url: URL) =>
  Effect.sync(() => {
    err.line(`emcp: sign in: open this URL in a browser:\n  ${url.href}`)
    if (err.streams.stderrColumns() === undefined) return
    const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open"
    try {
      spawn(command, [url.href], { stdio: "ignore", detached: true }).on("error", () => {}).unref()
    } catch {
      // no browser: the URL is on stderr
    }
  })

/** The OAuth sign-in of an `--url` connection: tokens in the file store, the loopback listener started on the first 401. */
const authOf = (signIn: SignIn) =>
  Effect.gen(function*() {
    const err = yield* Output
    const [McpOAuth, NodeOAuth] = yield* Effect.promise(() =>
      Promise.all([import("@effect-mcp/mcp/McpOAuth"), import("../NodeOAuth.js")])
    )
    const redirect = yield* NodeOAuth.makeLoopbackOnDemand({ open: (url) => openBrowser(err, url) })
    return yield* McpOAuth.make({
      clientId: signIn.clientId,
      clientSecret: signIn.clientSecret,
      scope: signIn.scope,
      login: signIn.login,
      clientName: "emcp"
    }).pipe(
      Effect.provideService(McpOAuth.AuthorizationRedirect, redirect),
      Effect.provideService(McpOAuth.TokenStore, NodeOAuth.makeFileStore(signIn.tokenFile))
    )
  })

const transportLayer = (settings: Settings): Layer.Layer<Transport, TransportError, Output> => {
  const c = settings.connection
  if (c._tag === "Stdio") {
    return NodeStdio.layerClient({
      command: c.command,
      args: c.args,
      env: c.env,
      cwd: c.cwd,
      stderrLogLevel: "None",
      closeTimeout: Duration.seconds(1),
      killTimeout: Duration.seconds(1)
    })
  }
  // loaded only for --url: the HTTP client stack costs half a second of startup
  return Layer.unwrap(
    Effect.gen(function*() {
      const NodeStreamableHttpClient = yield* Effect.promise(() => import("../NodeStreamableHttpClient.js"))
      const auth = c.signIn === undefined ? undefined : yield* authOf(c.signIn)
      return NodeStreamableHttpClient.layer({
        url: c.url,
        headers: c.headers,
        maxRetries: 2,
        requestTimeout: Duration.seconds(10),
        ...(auth !== undefined ? { auth } : {})
      })
    })
  )
}

/** What a command runs with: the connected client and the settings. */
export interface Session {
  readonly client: McpClient.McpClientShape
  readonly settings: Settings
  /** Call options: progress on stderr (unless `--quiet`). */
  readonly callOptions: McpClient.CallOptions
}

const levelRank = (level: McpSchema.LoggingLevel) => LOG_LEVELS.indexOf(level)

const formatLog = (m: McpSchema.LoggingMessageNotificationParams): string => {
  const data = typeof m.data === "string" ? m.data : JSON.stringify(m.data)
  return `[${m.level}]${m.logger !== undefined ? ` ${m.logger}:` : ""} ${data}`
}

/** Connects, runs `body`, closes. */
const withSession = <A>(
  settings: Settings,
  body: (session: Session) => Effect.Effect<A, CliError | McpClient.ClientError, Output>,
  era?: "2025" | undefined
): Effect.Effect<A, CliError, Output> =>
  Effect.gen(function*() {
    const err = yield* Output
    const handlers = yield* clientHandlers(settings, err)
    const extraTimeout = settings.timeout === undefined ? undefined : Duration.sum(settings.timeout, Duration.seconds(1))
    const connect: Effect.Effect<A, CliError | McpClient.ClientError | TransportError, Scope.Scope | Output> = Effect.gen(function*() {
      const context = yield* Layer.build(transportLayer(settings))
      const child = Context.getOption(context, NodeStdio.StdioChild)
      if (settings.verbose && Option.isSome(child)) {
        yield* child.value.stderr.pipe(Stream.runForEach((line) => Effect.sync(() => err.line(line))), Effect.forkScoped)
      }
      const client = yield* McpClient.make({
        name: "emcp",
        version: VERSION,
        era: settings.era,
        ...handlers,
        ...(era !== undefined ? { era } : {}),
        ...(extraTimeout !== undefined ? { requestTimeout: extraTimeout, maxRequestTimeout: extraTimeout } : {})
      }).pipe(Effect.provide(context))

      // log messages at or above the chosen level
      if (!settings.quiet) {
        const threshold = levelRank(settings.logLevel ?? "info")
        yield* client.logMessages.pipe(
          Stream.runForEach((m) => Effect.sync(() => levelRank(m.level) >= threshold && err.line(formatLog(m)))),
          Effect.forkScoped
        )
        yield* Effect.yieldNow // subscribed before the first request
      }
      // the level asked for: --log-level; on 2026, where a request without one gets no log
      // messages, `info` (what is printed without --log-level), unless --quiet
      const wanted = settings.logLevel ?? (client.era === "2026" && !settings.quiet ? "info" : undefined)
      if (wanted !== undefined && (client.era === "2026" || client.serverCapabilities.logging !== undefined)) {
        yield* client.setLogLevel(wanted)
      }
      const callOptions: McpClient.CallOptions = settings.quiet
        ? {}
        : { onProgress: (p) => Effect.sync(() => err.progress(p)) }
      return yield* body({ client, settings, callOptions }).pipe(
        // the log notifications that came before the answer are queued: let them reach stderr
        Effect.ensuring(settings.quiet ? Effect.void : Effect.repeat(Effect.yieldNow, { times: 20 })),
        Effect.ensuring(Effect.sync(() => err.clearBar()))
      )
    })
    const timed = settings.timeout === undefined
      ? connect
      : Effect.timeoutOrElse(connect, {
        duration: settings.timeout,
        orElse: () => Effect.fail(CliError.failure(`timed out after ${formatDuration(settings.timeout!)}`))
      })
    return yield* Effect.scoped(timed).pipe(
      Effect.catchIf(
        (e): e is McpClient.ClientError | TransportError => e._tag !== "CliError",
        (e) => Effect.fail(CliError.failure(describeClientError(e)))
      )
    )
  })


/**
 * Runs a command body with the session of the global options: checks them,
 * connects, runs `body`, closes.
 */
export const execute = <A>(
  globals: GlobalConfig,
  body: (session: Session) => Effect.Effect<A, CliError | McpClient.ClientError, Output>,
  /** Pins the era (none of the commands needs it now: tasks speak both eras). */
  era?: "2025" | undefined
): Effect.Effect<A, CliError, Output> => Effect.flatMap(toSettings(globals), (settings) => withSession(settings, body, era))

/** What a command is run with: its arguments and options as parsed, and the global options. */
export interface CommandInput {
  readonly globals: GlobalConfig
  readonly args: Readonly<Record<string, string>>
  readonly options: Readonly<Record<string, ReadonlyArray<string>>>
}

/** A command's implementation. */
export type CommandHandler = (input: CommandInput) => Effect.Effect<void, CliError, Output>

/** `key=value` options as pairs. */
export const parsePairs = (pairs: ReadonlyArray<string> | undefined, option: string) =>
  Effect.forEach(pairs ?? [], (pair) => orUsage(splitPair(pair, "=", option)))
