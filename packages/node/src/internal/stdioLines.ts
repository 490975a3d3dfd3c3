/**
 * Lines of text from a stdio server's process: its stderr split into lines
 * (the last ones kept for an exit message), and lines (stderr's, non-JSON
 * stdout's) logged and published to subscribers by a fiber of their own.
 */
import type * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as LogLevel from "effect/LogLevel"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Readable } from "node:stream"
import { StringDecoder } from "node:string_decoder"

const REPLAY = 100
/** The longest stderr line: longer ones are cut in pieces of this size. */
const MAX_LINE = 64 * 1024

/** Lines offered from callbacks, published to `stream`. */
export interface Lines {
  /** Never waits: the line is published by the lines' fiber. */
  readonly offer: (line: string) => void
  /** No more lines: `stream` ends once those offered are published. */
  readonly end: () => void
  readonly stream: Stream.Stream<string>
}

/**
 * Lines logged (by `log`) and published by a fiber of their own, so that the
 * callback producing them never waits: a subscriber first gets up to the last
 * 100 lines, and sees the end when the producer ends or the scope closes.
 */
export const make = (log: (line: string) => Effect.Effect<void>): Effect.Effect<Lines, never, Scope.Scope> =>
  Effect.gen(function*() {
    const lines = yield* Queue.unbounded<string, Cause.Done>()
    const pubsub = yield* PubSub.sliding<string | undefined>({ capacity: 1024, replay: REPLAY })
    // runs after the fiber below is interrupted: subscribers always see the end
    yield* Effect.addFinalizer(() => PubSub.publish(pubsub, undefined))
    // the lines offered before the end are taken first; then `takeAll` fails with `Done`
    yield* Queue.takeAll(lines).pipe(
      Effect.flatMap((batch) =>
        Effect.forEach(batch, (line) => Effect.andThen(log(line), PubSub.publish(pubsub, line)), { discard: true })
      ),
      Effect.forever,
      Effect.catch(() => PubSub.publish(pubsub, undefined)),
      Effect.forkScoped
    )
    const stream = Stream.fromPubSub(pubsub).pipe(
      Stream.takeWhile((line) => line !== undefined),
      Stream.map((line) => line as string)
    )
    return { offer: (line: string) => void Queue.offerUnsafe(lines, line), end: () => void Queue.endUnsafe(lines), stream }
  })

/** A line logged at `level` ("None": not logged; "All": at the lowest level, "Trace"). */
export const logAt = (level: LogLevel.LogLevel, line: string): Effect.Effect<void> =>
  level === "None" ? Effect.void : Effect.logWithLevel(level === "All" ? "Trace" : level)(line)

export const truncate = (line: string, max: number): string =>
  line.length > max ? `${line.slice(0, max)}… (${line.length} characters)` : line

/** The last `size` lines (none kept for 0). */
export interface Tail {
  readonly push: (line: string) => void
  readonly lines: ReadonlyArray<string>
}

export const makeTail = (size: number): Tail => {
  const lines: Array<string> = []
  return {
    push: (line) => {
      if (size <= 0) return
      lines.push(line)
      if (lines.length > size) lines.shift()
    },
    lines
  }
}

/**
 * Splits what `readable` (a child's stderr) writes into lines (UTF-8, `\r\n` or `\n`, cut at
 * 64 KiB), each given to `line`; `end` once, when it ends or closes, after the last partial line.
 */
export const split = (readable: Readable, line: (text: string) => void, end: () => void): void => {
  const decoder = new StringDecoder("utf8")
  let partial = ""
  const emit = (text: string) => line(text.endsWith("\r") ? text.slice(0, -1) : text)
  readable.on("data", (chunk: Buffer) => {
    const parts = (partial + decoder.write(chunk)).split("\n")
    partial = parts.pop() ?? ""
    for (const p of parts) emit(p)
    while (partial.length > MAX_LINE) {
      emit(partial.slice(0, MAX_LINE))
      partial = partial.slice(MAX_LINE)
    }
  })
  let ended = false
  const onEnd = () => {
    if (ended) return
    ended = true
    const rest = partial + decoder.end()
    partial = ""
    if (rest.length > 0) emit(rest)
    end()
  }
  readable.on("end", onEnd)
  readable.on("close", onEnd)
}
