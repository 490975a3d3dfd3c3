/**
 * Where `emcp` writes: the result on stdout, and on stderr the progress (a
 * bar on a terminal, lines otherwise), the server's log messages and the one
 * line of a failure. The streams are a service so that the CLI runs in the
 * tests' process with its output captured.
 *
 * @since 0.1.0
 */
import type * as Protocol from "@effect-mcp/mcp/Protocol"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

/**
 * The process's streams as `emcp` sees them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Streams {
  /** Writes to stdout; completes when the text is flushed. */
  readonly stdout: (text: string) => Effect.Effect<void>
  /** Writes to stderr. */
  readonly stderr: (text: string) => void
  /** The width of stdout when it is a terminal. */
  readonly stdoutColumns: () => number | undefined
  /** The width of stderr when it is a terminal (progress is then drawn as a bar). */
  readonly stderrColumns: () => number | undefined
  /** Whether the user can be asked (stdin and stderr are terminals). */
  readonly interactive: boolean
}

const writeTo = (stream: NodeJS.WriteStream, text: string): Effect.Effect<void> =>
  text === ""
    ? Effect.void
    : Effect.callback<void>((resume) => {
      stream.write(text, () => resume(Effect.void))
    })

/**
 * The streams of this process.
 *
 * @since 0.1.0
 * @category constructors
 */
export const processStreams = (): Streams => ({
  stdout: (text) => writeTo(process.stdout, text),
  stderr: (text) => void process.stderr.write(text),
  stdoutColumns: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
  stderrColumns: () => (process.stderr.isTTY ? process.stderr.columns || 80 : undefined),
  interactive: process.stdin.isTTY === true && process.stderr.isTTY === true
})

/** The result on stdout; progress and log lines sharing stderr. */
export class Output extends Context.Service<Output, OutputShape>()("@effect-mcp/node/cli/Output") {}

/** See `Output`. */
export class OutputShape {
  private barShown = false
  private paused = false
  constructor(readonly streams: Streams) {}

  /** Writes a line to stdout (the progress bar cleared first), waiting until it is flushed. */
  stdout(text: string): Effect.Effect<void> {
    return Effect.suspend(() => {
      this.clearBar()
      return this.streams.stdout(text.endsWith("\n") ? text : `${text}\n`)
    })
  }
  /** Writes lines to stderr, clearing the progress bar first. */
  line(text: string): void {
    this.clearBar()
    this.streams.stderr(text.endsWith("\n") ? text : `${text}\n`)
  }
  clearBar(): void {
    if (this.barShown) {
      this.streams.stderr("\r\x1b[2K")
      this.barShown = false
    }
  }
  progress(p: Protocol.ProgressParams): void {
    if (this.paused) return
    const total = typeof p.total === "number" && p.total > 0 ? p.total : undefined
    const message = typeof p.message === "string" && p.message !== "" ? ` ${p.message}` : ""
    const columns = this.streams.stderrColumns()
    if (columns === undefined) {
      const pct = total === undefined ? "" : ` (${Math.floor((p.progress / total) * 100)}%)`
      this.line(`progress ${p.progress}${total === undefined ? "" : `/${total}`}${pct}${message}`)
      return
    }
    const width = 24
    let bar: string
    if (total === undefined) {
      bar = `${p.progress}`
    } else {
      const ratio = Math.max(0, Math.min(1, p.progress / total))
      const filled = Math.round(ratio * width)
      bar = `[${"█".repeat(filled)}${"░".repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${p.progress}/${total}`
    }
    this.streams.stderr(`\r\x1b[2K${`${bar}${message}`.slice(0, Math.max(10, columns - 1))}`)
    this.barShown = true
  }
  /** Runs `effect` (a prompt) with the progress bar hidden. */
  pause<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.acquireUseRelease(
      Effect.sync(() => {
        this.clearBar()
        this.paused = true
      }),
      () => effect,
      () => Effect.sync(() => (this.paused = false))
    )
  }
}

/** Prints a line on stdout. */
export const stdout = (text: string): Effect.Effect<void, never, Output> => Effect.flatMap(Output, (o) => o.stdout(text))

/** Prints exactly the JSON value, on one line. */
export const printJson = (value: unknown): Effect.Effect<void, never, Output> => stdout(JSON.stringify(value))
