/**
 * The stdio transport of MCP, both sides, for Node.js.
 *
 * - Server: `layerServer()` provides a `Transport` over the process's stdin
 *   and stdout. stdout carries protocol messages only (from then on, the
 *   global `console`, and with it every Effect logger, writes to stderr); the incoming stream ends when stdin
 *   ends, so a server exits when its client goes away.
 * - Client: `layerClient({ command, args })` spawns the server in its own
 *   process group and provides a `Transport` over the child's stdin/stdout,
 *   plus a `StdioChild` service with its pid, its stderr as a Stream of lines
 *   and its exit. Closing the scope ends the child's stdin, then SIGTERMs and
 *   finally SIGKILLs the process group, each after a bounded wait. A child
 *   that exits or crashes fails the incoming stream with a `TransportError`
 *   naming the exit code or signal and the last stderr lines.
 *
 * Framing is newline-delimited JSON (see `NdJson`).
 *
 * @example
 * ```ts
 * import * as NodeStdio from "@effect-mcp/node/NodeStdio"
 * import * as Protocol from "@effect-mcp/mcp/Protocol"
 * import { Transport } from "@effect-mcp/mcp/Transport"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const transport = yield* Transport
 *   const engine = yield* Protocol.make(transport, {
 *     side: "client",
 *     onRequest: () => Effect.succeed({}),
 *     onNotification: () => Effect.void
 *   })
 *   yield* engine.request("ping")
 * }).pipe(Effect.scoped, Effect.provide(NodeStdio.layerClient({ command: "my-mcp-server" })))
 * ```
 * @since 0.1.0
 */
import { TransportError } from "@effect-mcp/mcp/McpError"
import { fromFeed, Transport, type TransportInfo, type TransportShape } from "@effect-mcp/mcp/Transport"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as LogLevel from "effect/LogLevel"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { Console as NodeConsole } from "node:console"
import type { Readable, Writable } from "node:stream"
import * as StdioClientTransport from "./internal/stdioClientTransport.js"
import * as StdioLines from "./internal/stdioLines.js"
import * as StdioProcess from "./internal/stdioProcess.js"
import * as StdoutGuard from "./internal/stdoutGuard.js"
import * as NdJson from "./NdJson.js"


// ----------------------------------------------------------------------------
// server
// ----------------------------------------------------------------------------

/**
 * Options of the server side: the streams (the process's by default) and the
 * longest message accepted.
 * @since 0.1.0
 * @category models
 */
export interface ServerOptions {
  /** Where messages come from (default `process.stdin`). */
  readonly stdin?: Readable | undefined
  /** Where messages go (default `process.stdout`). Nothing else may write to it. */
  readonly stdout?: Writable | undefined
  /** Longest accepted message in bytes (default `NdJson.DEFAULT_MAX_MESSAGE_BYTES`, 32 MiB). */
  readonly maxMessageBytes?: number | undefined
  /** Deepest nesting of arrays and objects in a message (default `JsonRpc.DEFAULT_MAX_DEPTH`); deeper is -32700. */
  readonly maxJsonDepth?: number | undefined
}

/** The methods of `console` that write, each of which is sent to stderr once a server owns stdout. */
/** What the spans of a stdio session say of the network (OpenTelemetry's MCP conventions). */
const STDIO_INFO: TransportInfo = { attributes: { "network.transport": "pipe" } }

const CONSOLE_METHODS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "trace",
  "warn",
  "error",
  "assert",
  "group",
  "groupCollapsed",
  "groupEnd",
  "count",
  "countReset",
  "time",
  "timeLog",
  "timeEnd"
] as const satisfies ReadonlyArray<keyof Console>

let consoleOnStderr = false

/**
 * From the first stdio server on `process.stdout` on, the global `console`
 * writes to stderr (`console.log`, `info`, `debug`, `dir`, `table`, ...
 * included): every logger of Effect (`Logger.defaultLogger`,
 * `Logger.consolePretty()`, `Logger.consoleJson`, ...) and
 * `Console.log` write through it, so do most libraries; and
 * `process.stdout.write` itself goes to stderr, for whoever calls it (only the
 * protocol's writer writes to stdout). It is not restored
 * when the server ends: the client reads stdout until the process exits, and
 * what is logged last (`runMain` reporting the failure that ended the
 * program) would reach it.
 */
const stdoutToStderr: Effect.Effect<void> = Effect.sync(() => {
  // anyone's `process.stdout.write` too (a logger that took `console.log` or the stream before
  // this ran): the protocol's writer keeps stdout's own (`internal/stdoutGuard`)
  StdoutGuard.guard(process.stdout, process.stderr)
  if (consoleOnStderr) return
  consoleOnStderr = true
  const target = console as unknown as Record<string, unknown>
  const toStderr = new NodeConsole({ stdout: process.stderr, stderr: process.stderr }) as unknown as Record<string, unknown>
  for (const name of CONSOLE_METHODS) target[name] = toStderr[name]
})

/**
 * The server side of stdio as a `TransportShape`: frames read from `stdin`
 * (ending when it ends), messages written to `stdout` with backpressure.
 * Closing the scope stops reading so that the process can exit. When
 * `stdout` is the process's, the global `console` writes to stderr from then
 * on, for the rest of the process (so `console.log`, `Console.log` and every
 * console-based Effect logger, the default and `Logger.consolePretty()` included,
 * keep off the protocol stream, up to a failure reported at exit).
 *
 * @example
 * ```ts
 * import * as NodeStdio from "@effect-mcp/node/NodeStdio"
 * import { PassThrough } from "node:stream"
 *
 * const transport = NodeStdio.makeServer({ stdin: new PassThrough(), stdout: new PassThrough() })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeServer = (options?: ServerOptions): Effect.Effect<TransportShape, never, Scope.Scope> =>
  Effect.gen(function*() {
    const stdin = options?.stdin ?? process.stdin
    const stdout = options?.stdout ?? process.stdout
    if (stdout === process.stdout) yield* stdoutToStderr
    const writer = yield* NdJson.makeWriter(stdout)
    // once the transport is released, stop holding the process open on stdin
    // (pausing is not enough: a pipe being read keeps the event loop alive)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        if (!stdin.destroyed) stdin.destroy()
      })
    )
    const reader = yield* NdJson.makeReader(stdin, {
      maxMessageBytes: options?.maxMessageBytes,
      maxJsonDepth: options?.maxJsonDepth
    })
    return {
      // the engine is fed from stdin's 'data' events: a request's fiber is forked in the event's
      // callback, with no reader fiber woken per read
      ...fromFeed(reader.feed),
      send: (message) => writer.send(message),
      sendNow: (message) => writer.sendNow(message),
      info: STDIO_INFO
    } satisfies TransportShape
  })

/**
 * Provides the server `Transport` over the process's stdin and stdout. Since
 * stdout belongs to the protocol, the global `console` writes to stderr once
 * the layer is built (see `makeServer`): Effect's loggers (the default
 * one, `Logger.consolePretty()`, `Logger.consoleJson`, ...), `Console.log`
 * and a plain `console.log` all end up on stderr, whichever runtime entry
 * runs the program (`NodeRuntime.runMain`, `Effect.runPromise`,
 * `Layer.launch`); so does whatever calls `process.stdout.write` itself, or a
 * `console.log` captured before the layer was built. Only a `write` function
 * taken off `process.stdout` before, or writes to file descriptor 1 itself
 * (`fs.writeSync(1, …)`), would corrupt the stream.
 *
 * @example
 * ```ts
 * import * as NodeStdio from "@effect-mcp/node/NodeStdio"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const Echo = McpServer.tool({
 *   name: "echo",
 *   handler: () => Effect.succeed("hello")
 * })
 *
 * // serves until the client closes stdin; SIGINT/SIGTERM interrupt it and close the session
 * McpServer.run.pipe(
 *   Effect.provide(McpServer.register(Echo).pipe(Layer.provideMerge(McpServer.layer({ name: "echo", version: "1.0.0" })))),
 *   Effect.provide(NodeStdio.layerServer()),
 *   NodeRuntime.runMain
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerServer = (options?: ServerOptions): Layer.Layer<Transport> =>
  Layer.effect(Transport, makeServer(options))

// ----------------------------------------------------------------------------
// client
// ----------------------------------------------------------------------------

/**
 * How to spawn the server, and how long closing it may take.
 * @since 0.1.0
 * @category models
 */
export interface ClientOptions {
  /** The executable to run (resolved on `PATH`). */
  readonly command: string
  readonly args?: ReadonlyArray<string> | undefined
  /**
   * Environment variables, added to `process.env` (or replacing it when
   * `inheritEnv` is false). A variable set to `undefined` is removed.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined
  /** Whether the child starts from this process's environment (default true). */
  readonly inheritEnv?: boolean | undefined
  readonly cwd?: string | undefined
  /** Longest accepted message in bytes (default `NdJson.DEFAULT_MAX_MESSAGE_BYTES`, 32 MiB). */
  readonly maxMessageBytes?: number | undefined
  /** On close, how long the child may take to exit after its stdin ended, before SIGTERM (default 2 s). */
  readonly closeTimeout?: Duration.Input | undefined
  /** On close, how long the process group may take to exit after SIGTERM, before SIGKILL (default 2 s). */
  readonly killTimeout?: Duration.Input | undefined
  /** The level stderr lines are logged at (default "Debug"; "None" disables). */
  readonly stderrLogLevel?: LogLevel.LogLevel | undefined
  /** How many last stderr lines an exit message quotes (default 10). */
  readonly stderrTailLines?: number | undefined
  /**
   * The level at which a line the server wrote to stdout that is not JSON is
   * logged (default "Warn"; "None" disables). Such a line is never part of
   * the protocol (it is dropped, not answered); see `StdioChildShape.unparsedStdout`.
   */
  readonly unparsedStdoutLogLevel?: LogLevel.LogLevel | undefined
}

/**
 * How a child process ended: `code` when it exited, `signal` when it was killed.
 * @since 0.1.0
 * @category models
 */
export interface ChildExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/**
 * A spawned server: the transport over its stdin/stdout, its pid, its stderr
 * lines, its non-JSON stdout lines and its exit.
 * @since 0.1.0
 * @category models
 */
export interface StdioChildShape {
  /** The transport over the child's stdin/stdout (also provided as `Transport` by `layerClient`). */
  readonly transport: TransportShape
  /** The pid of the child, which is also its process group id. */
  readonly pid: number
  /**
   * The child's stderr, line by line, ending when stderr closes. A subscriber
   * first receives up to the last 100 lines written before it subscribed.
   */
  readonly stderr: Stream.Stream<string>
  /** The last stderr lines (at most `stderrTailLines`). */
  readonly stderrTail: Effect.Effect<ReadonlyArray<string>>
  /**
   * The lines the server wrote to stdout that are not JSON (a stray
   * `console.log`), truncated to 500 characters, ending when the child is
   * closed; replayed like `stderr`. They are dropped for the protocol.
   */
  readonly unparsedStdout: Stream.Stream<string>
  /** Waits for the child to exit. */
  readonly exit: Effect.Effect<ChildExit>
  /** Writes raw text to the child's stdin, no newline added (diagnostics and tests). */
  readonly writeRaw: (text: string) => Effect.Effect<void, TransportError>
}

/** How much of a non-JSON stdout line is logged and published. */
const UNPARSED_MAX_CHARS = 500

/**
 * Spawns a stdio MCP server and returns the transport over it with its
 * process handle. The child runs detached, in its own process group; closing
 * the scope ends its stdin, waits `closeTimeout`, SIGTERMs the group, waits
 * `killTimeout`, then SIGKILLs it — so the scope never hangs on a child that
 * ignores signals. Fails with a `TransportError` when the command cannot start.
 *
 * @example
 * ```ts
 * import * as NodeStdio from "@effect-mcp/node/NodeStdio"
 * import * as Effect from "effect/Effect"
 * import * as Stream from "effect/Stream"
 *
 * const program = Effect.gen(function*() {
 *   const child = yield* NodeStdio.makeClient({ command: "node", args: ["server.mjs"] })
 *   yield* child.stderr.pipe(Stream.runForEach(Effect.logWarning), Effect.forkScoped)
 *   // child.transport goes to Protocol.make / McpClient
 * }).pipe(Effect.scoped)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeClient = (options: ClientOptions): Effect.Effect<StdioChildShape, TransportError, Scope.Scope> =>
  Effect.gen(function*() {
    const label = StdioProcess.describeCommand(options.command, options.args ?? [])
    const stderrLevel = options.stderrLogLevel ?? "Debug"
    const unparsedLevel = options.unparsedStdoutLogLevel ?? "Warn"
    // lines go through a queue to a fiber that logs and publishes them; the
    // fibers are started before the child so that they outlive the shutdown finalizer
    const stderr = yield* StdioLines.make((line) => StdioLines.logAt(stderrLevel, line)).pipe(
      Effect.annotateLogs({ "mcp.stdio.stream": "stderr", "mcp.stdio.command": label })
    )
    const tail = StdioLines.makeTail(options.stderrTailLines ?? 10)
    // a stray print on the server's stdout: silently dropped, it would leave a client
    // waiting for an answer that never comes with nothing said about why
    const unparsed = yield* StdioLines.make((line) =>
      StdioLines.logAt(unparsedLevel, `the MCP server wrote a line to stdout that is not JSON (ignored): ${line}`)
    ).pipe(Effect.annotateLogs({ "mcp.stdio.stream": "stdout", "mcp.stdio.command": label }))

    const child = yield* StdioProcess.make(options, label, (spawned) =>
      StdioLines.split(spawned.stderr, (line) => {
        tail.push(line)
        stderr.offer(line)
      }, stderr.end))
    const { transport, writeRaw } = yield* StdioClientTransport.make(child, {
      maxMessageBytes: options.maxMessageBytes,
      onUnparsedLine: (line) => unparsed.offer(StdioLines.truncate(line, UNPARSED_MAX_CHARS)),
      exitError: () => StdioProcess.exitError(child, tail.lines)
    })
    return {
      transport,
      pid: child.pid,
      stderr: stderr.stream,
      stderrTail: Effect.sync(() => tail.lines.slice()),
      unparsedStdout: unparsed.stream,
      exit: Deferred.await(child.status.exited),
      writeRaw
    } satisfies StdioChildShape
  })

/**
 * Provides the client `Transport` over a spawned stdio server, and the
 * `StdioChild` service (pid, stderr lines, exit). See `makeClient`.
 *
 * @example
 * ```ts
 * import * as NodeStdio from "@effect-mcp/node/NodeStdio"
 *
 * const ServerLive = NodeStdio.layerClient({
 *   command: "npx",
 *   args: ["-y", "@modelcontextprotocol/server-everything"],
 *   closeTimeout: "1 second"
 * })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layerClient = (options: ClientOptions): Layer.Layer<Transport | StdioChild, TransportError> =>
  Layer.effectContext(
    Effect.map(makeClient(options), (child) => Context.make(StdioChild, child).pipe(Context.add(Transport, child.transport)))
  )

/**
 * A spawned stdio MCP server: its pid, stderr and exit, next to the
 * `Transport` that `layerClient` provides.
 *
 * @example
 * ```ts
 * import * as NodeStdio from "@effect-mcp/node/NodeStdio"
 * import * as Effect from "effect/Effect"
 *
 * const pid = NodeStdio.StdioChild.pipe(Effect.map((child) => child.pid))
 * ```
 * @since 0.1.0
 * @category tags
 */
export class StdioChild extends Context.Service<StdioChild, StdioChildShape>()("@effect-mcp/node/NodeStdio/StdioChild") {
  static readonly make = makeClient
  static readonly layer = layerClient
}
