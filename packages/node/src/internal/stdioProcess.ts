/**
 * A stdio server's process: spawned detached, in its own process group (a
 * best-effort SIGTERM of the group if this process exits first), its exit
 * watched, and shut down in bounded steps when the scope closes: its stdin
 * ended, SIGTERM to the group, SIGKILL.
 */
import { TransportError } from "@effect-mcp/mcp/McpError"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import type { ChildExit, ClientOptions } from "../NodeStdio.js"

const DEFAULT_CLOSE_TIMEOUT = Duration.seconds(2)
const DEFAULT_KILL_TIMEOUT = Duration.seconds(2)
/** After SIGKILL: the kernel is quick, but never wait forever. */
const SIGKILL_WAIT = Duration.seconds(2)

/** What the process's listeners and the shutdown set. */
export interface Status {
  /** Done when the process exited. */
  readonly exited: Deferred.Deferred<ChildExit>
  /** Done when its stdio streams are all closed. */
  readonly allClosed: Deferred.Deferred<void>
  /** How it exited, once it did. */
  exit: ChildExit | undefined
  /** The scope is closing it: its end from then on is no failure. */
  closing: boolean
  /** The SIGTERM run when this process exits first (removed on shutdown). */
  onParentExit: (() => void) | undefined
}

/** A running server process. */
export interface Child {
  readonly process: ChildProcessWithoutNullStreams
  /** Also its process group id. */
  readonly pid: number
  /** The command line, shortened, for messages and logs. */
  readonly label: string
  readonly status: Status
}

/** The command line for messages and logs, at most 200 characters. */
export const describeCommand = (command: string, args: ReadonlyArray<string>): string => {
  const text = [command, ...args].join(" ")
  return text.length > 200 ? `${text.slice(0, 197)}...` : text
}

const signalGroup = (child: ChildProcessWithoutNullStreams, pid: number, signal: NodeJS.Signals) => {
  try {
    if (process.platform === "win32") child.kill(signal)
    else process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

const groupAlive = (status: Status, pid: number): boolean => {
  if (process.platform === "win32") return status.exit === undefined
  try {
    process.kill(-pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

// finalizers are uninterruptible: the wait itself must be, or the timeout could not stop it
const awaitExit = (status: Status, ms: number) =>
  Effect.interruptible(Deferred.await(status.exited)).pipe(Effect.timeoutOption(Duration.millis(ms)))

/** Waits until the leader exited and the group is empty, for at most `ms`. */
const awaitGroup = (status: Status, pid: number, ms: number) =>
  Effect.flatMap(Clock.currentTimeMillis, (start) => {
    const deadline = start + ms
    const poll: Effect.Effect<boolean> = Effect.suspend(() =>
      status.exit !== undefined && !groupAlive(status, pid)
        ? Effect.succeed(true)
        : Effect.flatMap(Clock.currentTimeMillis, (now) =>
          now >= deadline ? Effect.succeed(false) : Effect.andThen(Effect.sleep(Duration.millis(20)), poll))
    )
    return Effect.andThen(awaitExit(status, ms), poll)
  })

/** End stdin, wait; SIGTERM the group, wait; SIGKILL it. Every wait is bounded. */
const shutdown = (child: ChildProcessWithoutNullStreams, status: Status, options: ClientOptions, label: string) => {
  const pid = child.pid!
  const closeMs = Duration.toMillis(options.closeTimeout ?? DEFAULT_CLOSE_TIMEOUT)
  const killMs = Duration.toMillis(options.killTimeout ?? DEFAULT_KILL_TIMEOUT)
  return Effect.gen(function*() {
    status.closing = true
    if (status.exit === undefined) {
      child.stdin.end()
      const gone = yield* awaitExit(status, closeMs)
      if (Option.isNone(gone)) yield* Effect.logDebug("the server did not exit after its stdin closed; SIGTERM")
    }
    if (groupAlive(status, pid)) {
      signalGroup(child, pid, "SIGTERM")
      const gone = yield* awaitGroup(status, pid, killMs)
      if (!gone) {
        yield* Effect.logDebug("the server did not exit after SIGTERM; SIGKILL")
        signalGroup(child, pid, "SIGKILL")
        const killed = yield* awaitExit(status, Duration.toMillis(SIGKILL_WAIT))
        if (Option.isNone(killed)) yield* Effect.logWarning("the server process did not exit after SIGKILL")
      }
    }
    if (status.onParentExit !== undefined) process.off("exit", status.onParentExit)
    child.stdin.destroy()
    child.stdout.destroy()
    child.stderr.destroy()
  }).pipe(Effect.annotateLogs({ "mcp.stdio.command": label, "mcp.stdio.pid": pid }))
}

const startFailure = (label: string, cause: unknown) =>
  new TransportError({
    reason: "Closed",
    message: `could not start ${label}: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  })

/**
 * Spawns the process, its exit and close recorded in `status`; `attach` is given it at once
 * (before any of its output can be missed). Resolves once it started.
 */
const start = (
  options: ClientOptions,
  label: string,
  status: Status,
  attach: (child: ChildProcessWithoutNullStreams) => void
) =>
  Effect.callback<ChildProcessWithoutNullStreams, TransportError>((resume) => {
    let child: ChildProcessWithoutNullStreams
    try {
      child = spawn(options.command, options.args ?? [], {
        cwd: options.cwd,
        env: options.inheritEnv === false ? { ...options.env } : { ...process.env, ...options.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: process.platform !== "win32",
        windowsHide: true
      })
    } catch (cause) {
      return resume(Effect.fail(startFailure(label, cause)))
    }
    // every stream gets an error listener: an unhandled EPIPE would crash this process
    const ignore = () => {}
    child.stdin.on("error", ignore)
    child.stdout.on("error", ignore)
    child.stderr.on("error", ignore)
    child.on("exit", (code, signal) => {
      status.exit = { code, signal }
      Deferred.doneUnsafe(status.exited, Exit.succeed(status.exit))
    })
    child.on("close", () => Deferred.doneUnsafe(status.allClosed, Exit.void))
    attach(child)
    child.once("spawn", () => {
      // a best effort if this process exits without closing the scope
      const pid = child.pid!
      status.onParentExit = () => signalGroup(child, pid, "SIGTERM")
      process.once("exit", status.onParentExit)
      resume(Effect.succeed(child))
    })
    // every error, not the first: a failed kill (`kill` reports it as an event, on Windows more
    // than once) must not reach the process as an unhandled 'error'
    child.on("error", (cause) => {
      if (child.pid === undefined) resume(Effect.fail(startFailure(label, cause)))
    })
  })

/** The server's process, shut down when the scope closes. Fails with a `TransportError` when it cannot start. */
export const make = (
  options: ClientOptions,
  label: string,
  attach: (child: ChildProcessWithoutNullStreams) => void
): Effect.Effect<Child, TransportError, Scope.Scope> =>
  Effect.gen(function*() {
    const status: Status = {
      exited: yield* Deferred.make<ChildExit>(),
      allClosed: yield* Deferred.make<void>(),
      exit: undefined,
      closing: false,
      onParentExit: undefined
    }
    const child = yield* Effect.acquireRelease(start(options, label, status, attach), (child) =>
      shutdown(child, status, options, label))
    return { process: child, pid: child.pid!, label, status }
  })

/** Why the process is gone, with its last stderr lines. */
export const exitError = (child: Child, tail: ReadonlyArray<string>): TransportError => {
  const exit = child.status.exit
  const what = exit === undefined
    ? "closed its stdout"
    : exit.signal !== null
    ? `was killed by signal ${exit.signal}`
    : `exited with code ${exit.code}`
  const stderr = tail.length > 0 ? `; last stderr lines:\n${tail.join("\n")}` : "; no stderr output"
  return new TransportError({
    reason: "Closed",
    message: `the MCP server process (${child.label}, pid ${child.pid}) ${what}${stderr}`
  })
}
