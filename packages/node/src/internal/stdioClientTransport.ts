/**
 * The client's transport over a stdio server's stdin and stdout: messages
 * written to its stdin, frames read from its stdout. The end of stdout is the
 * end only once the child's exit says how it went: unless the scope is
 * closing, the incoming side fails with a `TransportError` naming the exit
 * (also when the child exited but a grandchild keeps stdout open).
 */
import { TransportError } from "@effect-mcp/mcp/McpError"
import { fromFeed, type TransportShape } from "@effect-mcp/mcp/Transport"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as NdJson from "../NdJson.js"
import type * as Process from "./stdioProcess.js"

/** After the child exited, how long its stdout may take to deliver what it wrote before it. */
const EXIT_DRAIN_GRACE = Duration.millis(500)

export interface Options {
  readonly maxMessageBytes?: number | undefined
  /** A line of stdout that is not JSON (dropped for the protocol). */
  readonly onUnparsedLine: (line: string) => void
  /** Why the child is gone (its exit, its last stderr lines). */
  readonly exitError: () => TransportError
}

/** The transport, and raw writes to stdin. */
export interface ClientTransport {
  readonly transport: TransportShape
  readonly writeRaw: (text: string) => Effect.Effect<void, TransportError>
}

/** stdout ended: unless we are closing, the child is gone (or going); say how. */
const afterStdoutEnd = (child: Process.Child, options: Options) =>
  Effect.suspend(() =>
    child.status.closing
      ? Effect.void
      : Deferred.await(child.status.allClosed).pipe(
        Effect.timeoutOption(EXIT_DRAIN_GRACE),
        Effect.andThen(Effect.suspend(() => (child.status.closing ? Effect.void : Effect.fail(options.exitError()))))
      )
  )

/** The child exited but its stdout stays open (a grandchild holds it): fail it after a grace. */
const exitWithoutEnd = (child: Process.Child, options: Options) =>
  Deferred.await(child.status.exited).pipe(
    Effect.andThen(Effect.sleep(EXIT_DRAIN_GRACE)),
    Effect.andThen(Effect.suspend(() => (child.status.closing ? Effect.never : Effect.fail(options.exitError())))),
    Effect.catch((error) => Effect.sync(() => child.process.stdout.destroy(error)))
  )

/** Writes fail once the transport is closed or the child exited. */
const writeClosed = (child: Process.Child, options: Options) => (): TransportError | undefined =>
  child.status.closing
    ? new TransportError({ reason: "Closed", message: "the stdio transport was closed" })
    : child.status.exit !== undefined
    ? options.exitError()
    : undefined

/** To be made after the child's finalizer is registered: released before it. */
export const make = (child: Process.Child, options: Options): Effect.Effect<ClientTransport, never, Scope.Scope> =>
  Effect.gen(function*() {
    const writer = yield* NdJson.makeWriter(child.process.stdin, { closed: writeClosed(child, options) })
    // watched once, beside the stream: `Stream.interruptWhen` would race a fiber on every read
    yield* Effect.forkScoped(exitWithoutEnd(child, options))
    const reader = yield* NdJson.makeReader(child.process.stdout, {
      maxMessageBytes: options.maxMessageBytes,
      onUnparsedLine: options.onUnparsedLine
    })
    const stdoutEnd = afterStdoutEnd(child, options)
    // the end of stdout is the end only once the child's exit says how it went
    const ended = <A>(read: Effect.Effect<A, Option.Option<TransportError>>) =>
      Effect.catch(
        read,
        Option.match({
          onNone: () => Effect.andThen(Effect.mapError(stdoutEnd, Option.some), Effect.fail(Option.none())),
          onSome: (error) => Effect.fail(Option.some(error))
        })
      )
    // the engine is fed from stdout's 'data' events: a response settles its call in the event's
    // callback, with no reader fiber woken per read
    const { run } = fromFeed((target) => reader.feed({ frames: target.frames, end: (how) => target.end(ended(how)) }))
    return {
      transport: {
        run,
        send: (message) => writer.send(message),
        sendNow: (message) => writer.sendNow(message),
        // what the spans of the session say of the network (OpenTelemetry's MCP conventions)
        info: { attributes: { "network.transport": "pipe" } }
      },
      writeRaw: writer.writeRaw
    }
  })
