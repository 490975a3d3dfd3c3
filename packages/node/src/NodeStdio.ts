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
import { fromFeed, Transport, type TransportShape } from "@effect-mcp/mcp/Transport"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Mailbox from "effect/Mailbox"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { Console as NodeConsole } from "node:console"
import type { Readable, Writable } from "node:stream"
import { StringDecoder } from "node:string_decoder"
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
 * included): every logger of Effect (`Logger.defaultLogger`, the pretty
 * logger `NodeRuntime.runMain` installs, `Logger.json`, ...) and
 * `Console.log` write through it, so do most libraries. It is not restored
 * when the server ends: the client reads stdout until the process exits, and
 * what is logged last (`runMain` reporting the failure that ended the
 * program) would reach it.
 */
const consoleToStderr: Effect.Effect<void> = Effect.sync(() => {
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
 * console-based Effect logger, `NodeRuntime.runMain`'s pretty one included,
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
    if (stdout === process.stdout) yield* consoleToStderr
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
      sendNow: (message) => writer.sendNow(message)
    } satisfies TransportShape
  })

/**
 * Provides the server `Transport` over the process's stdin and stdout. Since
 * stdout belongs to the protocol, the global `console` writes to stderr once
 * the layer is built (see `makeServer`): Effect's loggers (the default
 * one, `NodeRuntime.runMain`'s pretty one, `Logger.json`, ...), `Console.log`
 * and a plain `console.log` all end up on stderr, whichever runtime entry
 * runs the program (`NodeRuntime.runMain`, `Effect.runPromise`,
 * `Layer.launch`). Only a logger that writes to `process.stdout` itself would
 * corrupt the stream.
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
  Layer.scoped(Transport, makeServer(options))

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
  readonly closeTimeout?: Duration.DurationInput | undefined
  /** On close, how long the process group may take to exit after SIGTERM, before SIGKILL (default 2 s). */
  readonly killTimeout?: Duration.DurationInput | undefined
  /** The level stderr lines are logged at (default "Debug"; "None" disables). */
  readonly stderrLogLevel?: LogLevel.Literal | undefined
  /** How many last stderr lines an exit message quotes (default 10). */
  readonly stderrTailLines?: number | undefined
  /**
   * The level at which a line the server wrote to stdout that is not JSON is
   * logged (default "Warning"; "None" disables). Such a line is never part of
   * the protocol (it is dropped, not answered); see `StdioChildShape.unparsedStdout`.
   */
  readonly unparsedStdoutLogLevel?: LogLevel.Literal | undefined
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

const DEFAULT_CLOSE_TIMEOUT = Duration.seconds(2)
const DEFAULT_KILL_TIMEOUT = Duration.seconds(2)
/** After SIGKILL: the kernel is quick, but never wait forever. */
const SIGKILL_WAIT = Duration.seconds(2)
/** After the child exited, how long its stdout may take to deliver what it wrote before it. */
const EXIT_DRAIN_GRACE = Duration.millis(500)
const STDERR_REPLAY = 100
const STDERR_MAX_LINE = 64 * 1024
/** How much of a non-JSON stdout line is logged and published. */
const UNPARSED_MAX_CHARS = 500

const truncate = (line: string, max: number): string =>
  line.length > max ? `${line.slice(0, max)}… (${line.length} characters)` : line

/**
 * Lines of text from the child, logged (at `level`) and published by a fiber
 * of their own, so that the callback producing them never waits: a subscriber
 * first gets up to the last `STDERR_REPLAY` lines, and sees the end when the
 * producer ends or the scope closes.
 */
const makeLines = (log: (line: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const lines = yield* Mailbox.make<string>()
    const pubsub = yield* PubSub.sliding<string | undefined>({ capacity: 1024, replay: STDERR_REPLAY })
    // runs after the fiber below is interrupted: subscribers always see the end
    yield* Effect.addFinalizer(() => PubSub.publish(pubsub, undefined))
    yield* lines.takeAll.pipe(
      Effect.flatMap(([batch, done]) =>
        Effect.forEach(batch, (line) => Effect.zipRight(log(line), PubSub.publish(pubsub, line)), { discard: true }).pipe(
          Effect.zipRight(done ? PubSub.publish(pubsub, undefined) : Effect.void),
          Effect.as(done)
        )
      ),
      Effect.repeat({ until: (done) => done }),
      Effect.forkScoped
    )
    const stream = Stream.fromPubSub(pubsub).pipe(
      Stream.takeWhile((line) => line !== undefined),
      Stream.map((line) => line as string)
    )
    return { offer: (line: string) => void lines.unsafeOffer(line), end: () => void lines.unsafeDone(Exit.void), stream }
  })

const logAt = (level: LogLevel.LogLevel, line: string): Effect.Effect<void> =>
  level._tag === "None" ? Effect.void : Effect.logWithLevel(level, line)

const describeCommand = (command: string, args: ReadonlyArray<string>): string => {
  const text = [command, ...args].join(" ")
  return text.length > 200 ? `${text.slice(0, 197)}...` : text
}

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
    const args = options.args ?? []
    const label = describeCommand(options.command, args)
    const closeMs = Duration.toMillis(options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT)
    const killMs = Duration.toMillis(options.killTimeout ?? DEFAULT_KILL_TIMEOUT)
    const tailSize = Math.max(0, options.stderrTailLines ?? 10)
    const logLevel = LogLevel.fromLiteral(options.stderrLogLevel ?? "Debug")
    const unparsedLevel = LogLevel.fromLiteral(options.unparsedStdoutLogLevel ?? "Warning")

    // lines go through a mailbox to a fiber that logs and publishes them; the
    // fibers are started before the child so that they outlive the shutdown finalizer
    const stderrLines = yield* makeLines((line) => logAt(logLevel, line)).pipe(
      Effect.annotateLogs({ "mcp.stdio.stream": "stderr", "mcp.stdio.command": label })
    )
    const tail: Array<string> = []
    // a stray print on the server's stdout: silently dropped, it would leave a client
    // waiting for an answer that never comes with nothing said about why
    const unparsed = yield* makeLines((line) =>
      logAt(unparsedLevel, `the MCP server wrote a line to stdout that is not JSON (ignored): ${line}`)
    ).pipe(Effect.annotateLogs({ "mcp.stdio.stream": "stdout", "mcp.stdio.command": label }))

    const exited = yield* Deferred.make<ChildExit>()
    const allClosed = yield* Deferred.make<void>()
    let exitInfo: ChildExit | undefined
    let closing = false

    const exitMessage = (pid: number | undefined): string => {
      const what = exitInfo === undefined
        ? "closed its stdout"
        : exitInfo.signal !== null
        ? `was killed by signal ${exitInfo.signal}`
        : `exited with code ${exitInfo.code}`
      const stderr = tail.length > 0 ? `; last stderr lines:\n${tail.join("\n")}` : "; no stderr output"
      return `the MCP server process (${label}, pid ${pid}) ${what}${stderr}`
    }

    // ------------------------------------------------------------------------
    // shutdown
    // ------------------------------------------------------------------------

    let onParentExit: (() => void) | undefined
    const signalGroup = (child: ChildProcessWithoutNullStreams, pid: number, signal: NodeJS.Signals) => {
      try {
        if (process.platform === "win32") child.kill(signal)
        else process.kill(-pid, signal)
      } catch {
        // already gone
      }
    }
    const groupAlive = (pid: number): boolean => {
      if (process.platform === "win32") return exitInfo === undefined
      try {
        process.kill(-pid, 0)
        return true
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === "EPERM"
      }
    }
    // finalizers are uninterruptible: the wait itself must be, or the timeout could not stop it
    const awaitExit = (ms: number) =>
      Effect.interruptible(Deferred.await(exited)).pipe(Effect.timeoutOption(Duration.millis(ms)))
    /** Waits until the leader exited and the group is empty, for at most `ms`. */
    const awaitGroup = (pid: number, ms: number) =>
      Effect.flatMap(Clock.currentTimeMillis, (start) => {
        const deadline = start + ms
        const poll: Effect.Effect<boolean> = Effect.suspend(() =>
          exitInfo !== undefined && !groupAlive(pid)
            ? Effect.succeed(true)
            : Effect.flatMap(Clock.currentTimeMillis, (now) =>
              now >= deadline ? Effect.succeed(false) : Effect.zipRight(Effect.sleep(Duration.millis(20)), poll))
        )
        return Effect.zipRight(awaitExit(ms), poll)
      })

    /** End stdin, wait; SIGTERM the group, wait; SIGKILL it. Every wait is bounded. */
    const shutdown = (child: ChildProcessWithoutNullStreams) => {
      const pid = child.pid!
      return Effect.gen(function*() {
        closing = true
        if (exitInfo === undefined) {
          child.stdin.end()
          const gone = yield* awaitExit(closeMs)
          if (Option.isNone(gone)) yield* Effect.logDebug("the server did not exit after its stdin closed; SIGTERM")
        }
        if (groupAlive(pid)) {
          signalGroup(child, pid, "SIGTERM")
          const gone = yield* awaitGroup(pid, killMs)
          if (!gone) {
            yield* Effect.logDebug("the server did not exit after SIGTERM; SIGKILL")
            signalGroup(child, pid, "SIGKILL")
            const killed = yield* awaitExit(Duration.toMillis(SIGKILL_WAIT))
            if (Option.isNone(killed)) yield* Effect.logWarning("the server process did not exit after SIGKILL")
          }
        }
        if (onParentExit !== undefined) process.off("exit", onParentExit)
        child.stdin.destroy()
        child.stdout.destroy()
        child.stderr.destroy()
      }).pipe(Effect.annotateLogs({ "mcp.stdio.command": label, "mcp.stdio.pid": pid }))
    }

    const spawnChild = Effect.async<ChildProcessWithoutNullStreams, TransportError>((resume) => {
      let child: ChildProcessWithoutNullStreams
      try {
        child = spawn(options.command, args, {
          cwd: options.cwd,
          env: options.inheritEnv === false ? { ...options.env } : { ...process.env, ...options.env },
          stdio: ["pipe", "pipe", "pipe"],
          detached: process.platform !== "win32",
          windowsHide: true
        })
      } catch (cause) {
        return resume(Effect.fail(
          new TransportError({
            reason: "Closed",
            message: `could not start ${label}: ${cause instanceof Error ? cause.message : String(cause)}`,
            cause
          })
        ))
      }
      // every stream gets an error listener: an unhandled EPIPE would crash this process
      const ignore = () => {}
      child.stdin.on("error", ignore)
      child.stdout.on("error", ignore)
      child.stderr.on("error", ignore)
      child.on("exit", (code, signal) => {
        exitInfo = { code, signal }
        Deferred.unsafeDone(exited, Exit.succeed(exitInfo))
      })
      child.on("close", () => Deferred.unsafeDone(allClosed, Exit.void))

      const decoder = new StringDecoder("utf8")
      let partial = ""
      const line = (text: string) => {
        if (text.endsWith("\r")) text = text.slice(0, -1)
        if (tailSize > 0) {
          tail.push(text)
          if (tail.length > tailSize) tail.shift()
        }
        stderrLines.offer(text)
      }
      child.stderr.on("data", (chunk: Buffer) => {
        const text = partial + decoder.write(chunk)
        const parts = text.split("\n")
        partial = parts.pop() ?? ""
        for (const p of parts) line(p)
        while (partial.length > STDERR_MAX_LINE) {
          line(partial.slice(0, STDERR_MAX_LINE))
          partial = partial.slice(STDERR_MAX_LINE)
        }
      })
      let stderrEnded = false
      const endStderr = () => {
        if (stderrEnded) return
        stderrEnded = true
        const rest = partial + decoder.end()
        partial = ""
        if (rest.length > 0) line(rest)
        stderrLines.end()
      }
      child.stderr.on("end", endStderr)
      child.stderr.on("close", endStderr)

      child.once("spawn", () => {
        // a best effort if this process exits without closing the scope
        const pid = child.pid!
        onParentExit = () => signalGroup(child, pid, "SIGTERM")
        process.once("exit", onParentExit)
        resume(Effect.succeed(child))
      })
      child.once("error", (cause) => {
        if (child.pid === undefined) {
          resume(Effect.fail(
            new TransportError({ reason: "Closed", message: `could not start ${label}: ${cause.message}`, cause })
          ))
        }
      })
    })

    const child = yield* Effect.acquireRelease(spawnChild, shutdown)
    const pid = child.pid!
    const exitError = () => new TransportError({ reason: "Closed", message: exitMessage(pid) })

    // after the child's finalizer is registered: released before it
    const writer = yield* NdJson.makeWriter(child.stdin, {
      closed: () =>
        closing
          ? new TransportError({ reason: "Closed", message: "the stdio transport was closed" })
          : exitInfo !== undefined
          ? exitError()
          : undefined
    })

    // ------------------------------------------------------------------------
    // incoming
    // ------------------------------------------------------------------------

    /** stdout ended: unless we are closing, the child is gone (or going); say how. */
    const afterStdoutEnd = Effect.suspend(() =>
      closing
        ? Effect.void
        : Deferred.await(allClosed).pipe(
          Effect.timeoutOption(EXIT_DRAIN_GRACE),
          Effect.zipRight(Effect.suspend(() => (closing ? Effect.void : Effect.fail(exitError()))))
        )
    )
    /** The child exited but its stdout stays open (a grandchild holds it): fail after a grace. */
    const exitWithoutEnd = Deferred.await(exited).pipe(
      Effect.zipRight(Effect.sleep(EXIT_DRAIN_GRACE)),
      Effect.zipRight(Effect.suspend(() => (closing ? Effect.never : Effect.fail(exitError()))))
    )

    // watched once, beside the stream: `Stream.interruptWhen` would race a fiber on every read
    yield* exitWithoutEnd.pipe(
      Effect.catchAll((error) => Effect.sync(() => child.stdout.destroy(error))),
      Effect.forkScoped
    )
    const reader = yield* NdJson.makeReader(child.stdout, {
      maxMessageBytes: options.maxMessageBytes,
      onUnparsedLine: (line) => unparsed.offer(truncate(line, UNPARSED_MAX_CHARS))
    })
    // the end of stdout is the end only once the child's exit says how it went
    const ended = <A>(read: Effect.Effect<A, Option.Option<TransportError>>) =>
      Effect.catchAll(
        read,
        Option.match({
          onNone: () => Effect.zipRight(Effect.mapError(afterStdoutEnd, Option.some), Effect.fail(Option.none())),
          onSome: (error) => Effect.fail(Option.some(error))
        })
      )
    // the engine is fed from stdout's 'data' events: a response settles its call in the event's
    // callback, with no reader fiber woken per read
    const { run } = fromFeed((target) => reader.feed({ frames: target.frames, end: (how) => target.end(ended(how)) }))

    return {
      transport: { run, send: (message) => writer.send(message), sendNow: (message) => writer.sendNow(message) },
      pid,
      stderr: stderrLines.stream,
      stderrTail: Effect.sync(() => tail.slice()),
      unparsedStdout: unparsed.stream,
      exit: Deferred.await(exited),
      writeRaw: writer.writeRaw
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
  Layer.scopedContext(
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
export class StdioChild extends Context.Tag("@effect-mcp/node/NodeStdio/StdioChild")<StdioChild, StdioChildShape>() {
  static readonly make = makeClient
  static readonly layer = layerClient
}
