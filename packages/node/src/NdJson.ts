/**
 * Newline-delimited JSON framing for the stdio transport: one JSON-RPC
 * message per line, UTF-8, as MCP's stdio transport specifies.
 *
 * - Input is framed incrementally and in linear time: chunks are kept as a
 *   list and concatenated once, when the newline ending their line arrives;
 *   UTF-8 is decoded on complete lines only, so a character split across reads
 *   decodes correctly. A UTF-8 BOM at the start of the stream, `\r\n` line ends
 *   and blank lines are tolerated.
 * - A line longer than `maxMessageBytes` is discarded up to its newline and
 *   reported as a `-32700` `Invalid` with id `null` (the engine answers it);
 *   framing goes on with the next line. So is a line nested deeper than
 *   `maxJsonDepth`, refused in linear time before it is parsed.
 * - All frames decoded from one read are emitted as one Stream chunk.
 * - Output: `JsonRpc.encode(message) + "\n"`; messages sent in the same tick
 *   are joined into one `write`, up to `maxLinesPerWrite` lines each (a
 *   full batch is written at once), and `write()` returning false is
 *   honoured (later writes wait for `'drain'`).
 *
 * @example
 * ```ts
 * import * as NdJson from "@effect-mcp/node/NdJson"
 *
 * const decoder = NdJson.makeDecoder({ maxMessageBytes: 1024 * 1024 })
 * decoder.push(Buffer.from('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc"')) // [notification a]
 * decoder.push(Buffer.from(':"2.0","id":1,"method":"b"}\n'))             // [request 1]
 * ```
 * @since 0.1.0
 */
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import { TransportError } from "@effect-mcp/mcp/McpError"
import type { Feed, FeedTarget } from "@effect-mcp/mcp/Transport"
import type * as Arr from "effect/Array"
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { Readable, Writable } from "node:stream"
import * as StdoutGuard from "./internal/stdoutGuard.js"

/**
 * Default longest accepted line: 32 MiB. Large enough for big tool results
 * (base64 images, resource blobs), small enough that a runaway peer cannot
 * exhaust memory; raise it per transport with `maxMessageBytes`.
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024

/**
 * Options of the line decoder.
 * @since 0.1.0
 * @category models
 */
export interface DecoderOptions {
  /** Longest accepted line in bytes, line end excluded (default {@link DEFAULT_MAX_MESSAGE_BYTES}). */
  readonly maxMessageBytes?: number | undefined
  /**
   * Receives each line that does not parse as JSON, which is then dropped
   * instead of becoming a `-32700` frame: a client reading a server's stdout
   * reports a stray print rather than answering it (see `NodeStdio`).
   */
  readonly onUnparsedLine?: ((line: string) => void) | undefined
  /**
   * Deepest nesting of arrays and objects in a line (default
   * `JsonRpc.DEFAULT_MAX_DEPTH`); a deeper line is a `-32700` `Invalid`,
   * found in time linear in its length, before it is parsed.
   */
  readonly maxJsonDepth?: number | undefined
}

/**
 * An incremental line decoder. Not thread-safe; one per input stream.
 * @since 0.1.0
 * @category models
 */
export interface Decoder {
  /** Feeds one read; returns the frames of the lines it completed (possibly none). */
  readonly push: (chunk: Uint8Array) => Array<JsonRpc.Frame>
  /** Ends the input: a final line without a newline is decoded too. */
  readonly end: () => Array<JsonRpc.Frame>
}

const NL = 0x0a
const CR = 0x0d

const tooLarge = (max: number): JsonRpc.Invalid =>
  JsonRpc.invalid(
    null,
    JsonRpc.ErrorCode.ParseError,
    `Parse error: message exceeds the maximum size of ${max} bytes`
  )

/** Whether a decoded line holds only spaces and tabs (a `\r` is stripped before). */
const isBlank = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false
  }
  return true
}

const toBuffer = (chunk: Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)

/**
 * Makes an incremental newline-delimited JSON decoder. Each complete line goes
 * through `JsonRpc.parse`, so non-JSON lines become `-32700` and JSON that is
 * not JSON-RPC `-32600` `Invalid` frames.
 *
 * @example
 * ```ts
 * import * as NdJson from "@effect-mcp/node/NdJson"
 *
 * const decoder = NdJson.makeDecoder()
 * const frames = decoder.push(Buffer.from("\uFEFF{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\n\r\n"))
 * // frames.length === 1: BOM, CRLF and the blank line are tolerated
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeDecoder = (options?: DecoderOptions): Decoder => {
  const max = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const onUnparsed = options?.onUnparsedLine
  const parseOptions = { maxDepth: options?.maxJsonDepth }
  /** Pieces of the current, unterminated line. */
  let parts: Array<Buffer> = []
  let partsLength = 0
  /** Dropping the rest of a line that was too long. */
  let discarding = false
  /** The next complete line is the first of the stream (may carry a BOM). */
  let first = true

  const emitLine = (buf: Buffer, start: number, end: number, out: Array<JsonRpc.Frame>): void => {
    if (end > start && buf[end - 1] === CR) end--
    const isFirst = first
    first = false
    if (end - start > max) {
      out.push(tooLarge(max))
      return
    }
    if (end === start) return
    let text = buf.toString("utf8", start, end)
    if (isFirst && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    const c = text.charCodeAt(0)
    // fast path: a message starts with `{` or `[`
    if (c !== 0x7b && c !== 0x5b && isBlank(text)) return
    const frame = JsonRpc.parse(text, parseOptions)
    if (onUnparsed !== undefined && JsonRpc.isInvalid(frame) && frame.error.code === JsonRpc.ErrorCode.ParseError) {
      onUnparsed(text)
    } else {
      out.push(frame)
    }
  }

  const push = (chunk: Uint8Array): Array<JsonRpc.Frame> => {
    const buf = toBuffer(chunk)
    const out: Array<JsonRpc.Frame> = []
    let start = 0
    while (start < buf.length) {
      const nl = buf.indexOf(NL, start)
      if (nl === -1) {
        if (discarding) break
        const rest = buf.length - start
        // +1: the line may still end with a `\r` that does not count
        if (partsLength + rest > max + 1) {
          out.push(tooLarge(max))
          first = false
          discarding = true
          parts = []
          partsLength = 0
        } else {
          parts.push(start === 0 ? buf : buf.subarray(start))
          partsLength += rest
        }
        break
      }
      if (discarding) {
        discarding = false
      } else if (parts.length === 0) {
        emitLine(buf, start, nl, out)
      } else if (partsLength + nl - start > max + 1) {
        // too long even without a final `\r`: no need to join it to say so
        parts = []
        partsLength = 0
        first = false
        out.push(tooLarge(max))
      } else {
        const length = partsLength + nl - start
        parts.push(buf.subarray(start, nl))
        const line = Buffer.concat(parts, length)
        parts = []
        partsLength = 0
        emitLine(line, 0, length, out)
      }
      start = nl + 1
    }
    return out
  }

  const end = (): Array<JsonRpc.Frame> => {
    const out: Array<JsonRpc.Frame> = []
    if (!discarding && parts.length > 0) {
      const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, partsLength)
      emitLine(line, 0, line.length, out)
    }
    parts = []
    partsLength = 0
    discarding = false
    return out
  }

  return { push, end }
}

// ----------------------------------------------------------------------------
// reading
// ----------------------------------------------------------------------------

/**
 * Options of `fromReadable` and `makeReader`.
 * @since 0.1.0
 * @category models
 */
export interface ReadOptions extends DecoderOptions {
  /** Destroy the readable when the stream is done or interrupted (default false). */
  readonly destroyOnDone?: boolean | undefined
}

/**
 * Decodes a Node readable into frames. Pull-based: bytes are read only as the
 * consumer asks, so a slow engine backpressures the peer through the pipe.
 * Every read becomes one Stream chunk; the stream ends with the readable and
 * fails with a `TransportError` ("Read") when it errors.
 *
 * @example
 * ```ts
 * import * as NdJson from "@effect-mcp/node/NdJson"
 * import * as Stream from "effect/Stream"
 *
 * const frames = NdJson.fromReadable(process.stdin).pipe(Stream.runCollect)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const fromReadable = (
  readable: Readable,
  options?: ReadOptions
): Stream.Stream<JsonRpc.Frame, TransportError> =>
  Stream.unwrap(
    Effect.map(makeReader(readable, options), (reader) =>
      Stream.fromPull(Effect.succeed(
        // a pull never gives an empty read; its end (`None`) is the stream's end (`Cause.Done`)
        Effect.catch(reader.pull as Effect.Effect<Arr.NonEmptyReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>>, (error): Effect.Effect<never, TransportError | Cause.Done> =>
          Option.isNone(error) ? Cause.done() : Effect.fail(error.value))
      ))
    )
  )

/**
 * A Node readable decoded into frames, read by hand: by `pull` (`Transport.fromPull`) or by
 * `feed` (`Transport.fromFeed`), one or the other.
 * @since 0.1.0
 * @category models
 */
export interface Reader {
  /**
   * The frames of the next read (never none: it waits while nothing came);
   * fails with `None` at the end of the readable, with a `TransportError`
   * ("Read") when it errors.
   */
  readonly pull: Effect.Effect<ReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>>
  /**
   * The other way to read (for `Transport.fromFeed`): from then on the
   * readable flows (`'data'` events) and each read's frames go to the
   * target as they come, the readable paused while the target is behind.
   * `pull` is not used after it.
   * @since 0.1.0
   */
  readonly feed: Feed
}

const readError = (cause: unknown): TransportError =>
  // a stream destroyed with a TransportError (the owner knows why) keeps it
  cause instanceof TransportError ? cause : new TransportError({
    reason: "Read",
    message: `could not read: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  })

/**
 * `fromReadable` without the `Stream`: for `Transport.fromFeed` (or
 * `Transport.fromPull`), which the engine reads for less than a stream costs. The readable's listeners are
 * removed when the scope closes.
 *
 * @example
 * ```ts
 * import * as NdJson from "@effect-mcp/node/NdJson"
 * import * as Effect from "effect/Effect"
 * import { PassThrough } from "node:stream"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const input = new PassThrough()
 *   const reader = yield* NdJson.makeReader(input)
 *   input.end('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
 *   return yield* reader.pull // [the notification]
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeReader = (readable: Readable, options?: ReadOptions): Effect.Effect<Reader, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const state = {
        /** The waiting pull's callback; taken by the first event that comes. */
        resume: undefined as ((effect: Effect.Effect<void>) => void) | undefined,
        ended: readable.readableEnded,
        error: (readable.errored ?? undefined) as unknown,
        finished: false,
        /** Where the frames go once the engine is fed (`feed`) instead of pulling. */
        target: undefined as FeedTarget | undefined,
        onData: undefined as ((chunk: Buffer | string) => void) | undefined,
        wake: () => {
          if (state.target !== undefined) return state.fedEnd(state.target)
          const resume = state.resume
          if (resume === undefined) return
          state.resume = undefined
          resume(Effect.void)
        },
        /** Tells a fed target how the input ended, once it did. */
        fedEnd: (target: FeedTarget) => {
          if (state.finished || (state.error === undefined && !state.ended)) return
          state.finished = true
          if (state.error !== undefined) return target.end(Effect.fail(Option.some(readError(state.error))))
          const last = state.decoder.end()
          if (last.length > 0) target.frames(last)
          target.end(Effect.fail(Option.none()))
        },
        decoder: makeDecoder(options),
        onReadable: () => state.wake(),
        onEnd: () => {
          state.ended = true
          state.wake()
        },
        onError: (error: unknown) => {
          state.error = error
          state.wake()
        },
        onClose: () => {
          // a readable destroyed without 'end' (e.g. destroy()) never ends otherwise
          if (!state.ended && state.error === undefined) state.ended = true
          state.wake()
        }
      }
      readable.on("readable", state.onReadable)
      readable.on("end", state.onEnd)
      readable.on("error", state.onError)
      readable.on("close", state.onClose)
      if (readable.destroyed && !state.ended && state.error === undefined) state.ended = true
      return state
    }),
    (state) =>
      Effect.sync(() => {
        readable.off("readable", state.onReadable)
        readable.off("end", state.onEnd)
        readable.off("error", state.onError)
        readable.off("close", state.onClose)
        if (state.onData !== undefined) readable.off("data", state.onData)
        if (options?.destroyOnDone === true && !readable.destroyed) readable.destroy()
      })
  ).pipe(
    Effect.map((state): Reader => {
      const decoder = state.decoder
      // the wait for the next event: a plain `Effect.callback`, no canceler. The pull runs once per
      // message on both sides of a connection, and a latch's wait (`asyncInterrupt`) is 6 Effect
      // operations and a canceler per wait where this is 2; an interrupted wait's callback,
      // called later, is ignored, as every async callback after its first call is. One pull at a
      // time (the reader has one consumer): a second waiter would take the first one's place
      const wait = Effect.callback<void>((resume) => {
        state.resume = resume
      })
      const loop = (): Effect.Effect<ReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>> => {
        if (state.finished) return Effect.fail(Option.none())
        if (state.error === undefined) {
          let frames: Array<JsonRpc.Frame> | undefined
          for (;;) {
            const buf = readable.read() as Buffer | string | null
            if (buf === null) break
            const decoded = decoder.push(typeof buf === "string" ? Buffer.from(buf, "utf8") : buf)
            if (decoded.length > 0) {
              if (frames === undefined) frames = decoded
              else for (const f of decoded) frames.push(f)
            }
          }
          if (frames !== undefined) return Effect.succeed(frames)
        }
        if (state.error !== undefined) {
          state.finished = true
          return Effect.fail(Option.some(readError(state.error)))
        }
        if (state.ended || readable.readableEnded) {
          state.finished = true
          const last = decoder.end()
          return last.length > 0 ? Effect.succeed(last) : Effect.fail(Option.none())
        }
        return waitThenLoop
      }
      const waitThenLoop = Effect.flatMap(wait, loop)
      const pull = Effect.suspend(loop)
      // flowing mode: a read is handed over in the stream's own 'data' callback, without the
      // 'readable' event's round (nextTick, read(), maybeReadMore) nor a fiber woken per read
      const feed: Feed = (target) => {
        let paused = false
        const onData = (chunk: Buffer | string) => {
          const frames = decoder.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk)
          if (frames.length > 0 && !target.frames(frames) && !paused) {
            paused = true
            readable.pause()
          }
        }
        state.target = target
        state.onData = onData
        readable.off("readable", state.onReadable)
        readable.on("data", onData)
        readable.resume()
        state.fedEnd(target)
        return {
          resume: () => {
            if (!paused) return
            paused = false
            readable.resume()
          }
        }
      }
      return { pull, feed }
    })
  )

// ----------------------------------------------------------------------------
// writing
// ----------------------------------------------------------------------------

/**
 * Writes messages as lines, batching the sends of one tick (up to `maxLinesPerWrite`) into one `write`.
 * @since 0.1.0
 * @category models
 */
export interface Writer {
  /** Writes one message (or batch) as a line; completes at once, or when the stream has room again. */
  readonly send: (message: JsonRpc.Outgoing) => Effect.Effect<void, TransportError>
  /**
   * `send` done at once (`TransportShape.sendNow`): undefined when the line was queued for this
   * tick's write, else the effect to wait for (room in the stream, or the failure).
   * @since 0.1.0
   */
  readonly sendNow: (message: JsonRpc.Outgoing) => Effect.Effect<void, TransportError> | undefined
  /** Writes raw text as is (no newline is added); for diagnostics and tests. */
  readonly writeRaw: (text: string) => Effect.Effect<void, TransportError>
  /** Fails every later write with `error` (and any write still waiting). */
  readonly fail: (error: TransportError) => void
}

/**
 * Options of `makeWriter`.
 * @since 0.1.0
 * @category models
 */
export interface WriterOptions {
  /**
   * Consulted before each write: a value fails the write with it, e.g. "the
   * process exited". Default: none.
   */
  readonly closed?: (() => TransportError | undefined) | undefined
  /**
   * Most lines joined into one `write` (default {@link DEFAULT_MAX_LINES_PER_WRITE}): once a tick
   * has queued this many, they are written at once instead of at the end of the tick.
   * @since 0.1.0
   */
  readonly maxLinesPerWrite?: number | undefined
  /**
   * How long a response waits after a `notifications/progress` queued in the same turn (default
   * {@link DEFAULT_PROGRESS_GAP}): the progress is written at once, the response that long after, so that
   * the two reach the peer in separate reads. The official v1 client handles the notifications of a read
   * after its responses, and drops a call's progress handler with the call's response: a progress read
   * together with its call's result never reaches `onprogress`. Responses after no progress are not held.
   * @since 0.1.0
   */
  readonly progressGap?: Duration.Input | undefined
}

/**
 * Default {@link WriterOptions.progressGap}: 3 ms. A turn of the event loop (`setImmediate`) was not
 * enough (the reader of a pipe woke after both writes and read them in one chunk), nor, on two loaded
 * cores, was 1 ms (2 of 40 calls read together); 3 ms kept all 40 apart.
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_PROGRESS_GAP: Duration.Duration = Duration.millis(3)

/**
 * Default most lines per `write`: 8. Joining the sends of a whole tick made both sides of a
 * stdio pair work in lockstep at 64 calls in flight (64 requests in one write, all 64 answers
 * in one write after the last was computed, each process idle while the other worked); writing
 * every 8 lines lets the peer start on the first answers while the rest are computed, for one
 * `write` per 8 messages instead of one per message.
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_LINES_PER_WRITE = 8

type Resume = (effect: Effect.Effect<void, TransportError>) => void

/**
 * Makes a line writer over a Node writable. Writes of one tick are joined
 * and written with a single `write` call (flushed on `process.nextTick`, so
 * never later than the end of the current tick), or at once when
 * `maxLinesPerWrite` of them are waiting; when `write()` returns false
 * later writes wait for `'drain'`. A write on a destroyed or failed writable
 * fails with a `TransportError` ("Write"); it never throws.
 *
 * @example
 * ```ts
 * import * as NdJson from "@effect-mcp/node/NdJson"
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const writer = yield* NdJson.makeWriter(process.stdout)
 *   yield* writer.send(JsonRpc.notification("notifications/initialized"))
 * }).pipe(Effect.scoped)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeWriter = (writable: Writable, options?: WriterOptions): Effect.Effect<Writer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const gap = Duration.fromInputUnsafe(options?.progressGap ?? DEFAULT_PROGRESS_GAP)
    // the held response's timer, on this fiber's services (its Clock), in a set the scope interrupts;
    // rare: only after a progress
    const fork = yield* FiberSet.makeRuntime<never, void, never>()
    const later = (run: () => void) => void fork(Effect.sleep(gap).pipe(Effect.andThen(Effect.sync(run))))
    const [writer] = yield* Effect.acquireRelease(
      Effect.sync(() => unsafeMakeWriter(writable, later, options)),
      ([, release]) => Effect.sync(release)
    )
    return writer
  })

const unsafeMakeWriter = (
  writable: Writable,
  later: (run: () => void) => void,
  options?: WriterOptions
): readonly [Writer, () => void] => {
  // this tick's lines, concatenated as they come: one line and many take the same steps in flush (an array,
  // joined only when it held more than one, had a path a sequential client never took: its first use, when
  // calls began to overlap, deoptimized flush, which re-optimized only much later)
  let text = ""
  /** Lines in `text`. */
  let lines = 0
  let waiters: Array<Resume> = []
  let scheduled = false
  /**
   * A `notifications/progress` was queued in this turn of the event loop (or before the last response held
   * back): a response after it is written a turn later.
   */
  let progress = false
  /** `text` waits for the `progressGap` (a response kept apart from the progress before it). */
  let held = false
  /** A progress was queued behind the held response. */
  let progressWhileHeld = false
  let blocked = false
  let failure: TransportError | undefined
  const maxLines = Math.max(1, options?.maxLinesPerWrite ?? DEFAULT_MAX_LINES_PER_WRITE)
  // the stream's own write, also once stdout is guarded (`NodeStdio`: others' writes go to stderr)
  const write = StdoutGuard.protocolWrite(writable)

  const writeError = (cause: unknown) =>
    new TransportError({
      reason: "Write",
      message: `could not write: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause
    })

  const currentFailure = (): TransportError | undefined => {
    if (failure !== undefined) return failure
    const closed = options?.closed?.()
    if (closed !== undefined) return closed
    if (writable.destroyed || writable.writableEnded || writable.errored) {
      return writable.errored
        ? writeError(writable.errored)
        : new TransportError({ reason: "Closed", message: "the output stream is closed" })
    }
    return undefined
  }

  const fail = (error: TransportError) => {
    if (failure === undefined) failure = error
    const ws = waiters
    text = ""
    lines = 0
    progress = false
    waiters = []
    for (const w of ws) w(Effect.fail(error))
  }

  const onError = (error: unknown) => fail(writeError(error))
  const onClose = () => {
    if (waiters.length > 0 || blocked) fail(new TransportError({ reason: "Closed", message: "the output stream closed" }))
  }
  // a failed pipe (EPIPE) emits 'error': without a listener it would crash the process
  writable.on("error", onError)
  writable.on("close", onClose)

  /** Every write's callback (one function, not a closure per write). */
  const onWritten = (err: Error | null | undefined) => {
    if (err) fail(writeError(err))
  }

  const onDrain = () => {
    blocked = false
    flush()
  }

  const flush = () => {
    if (blocked) return
    if (text.length === 0) {
      // a 'drain' after a write that filled the stream again: its senders were kept waiting for this room
      if (waiters.length > 0) {
        const ws = waiters
        waiters = []
        for (const w of ws) w(Effect.void)
      }
      return
    }
    const error = currentFailure()
    if (error !== undefined) return fail(error)
    const data = text
    const ws = waiters
    text = ""
    lines = 0
    waiters = []
    let ok: boolean
    try {
      // a write that fails later fails the writer: the next send, and the reader, see it
      ok = write(data, onWritten)
    } catch (err) {
      const e = writeError(err)
      for (const w of ws) w(Effect.fail(e))
      fail(e)
      return
    }
    if (!ok && failure === undefined) {
      // full: the senders that were waiting for room keep waiting, until 'drain'
      waiters = ws.length === 0 ? waiters : ws.concat(waiters)
      blocked = true
      writable.once("drain", onDrain)
      return
    }
    for (const w of ws) w(Effect.void)
  }

  // a batch written before the tick's end leaves the tick's flush scheduled, for the rest
  const onTick = () => {
    scheduled = false
    if (!held) flush()
  }
  const onHeld = () => {
    held = false
    progress = progressWhileHeld
    progressWhileHeld = false
    flush()
  }

  /**
   * Queues a line for this tick's write. A send completes at once while the
   * stream has room; when it is full, it waits for 'drain' (backpressure).
   */
  const enqueueNow = (message: JsonRpc.Outgoing | string): Effect.Effect<void, TransportError> | undefined => {
    const error = currentFailure()
    if (error !== undefined) return Effect.fail(error)
    if (typeof message !== "string" && !Array.isArray(message)) {
      if (progress && !held && JsonRpc.isResponse(message)) {
        // the official v1 client handles the notifications of one read after its responses, and drops a
        // call's progress handler with its response: the progress goes now, the response a turn later,
        // so that the two reach the peer in separate reads
        flush()
        held = true
        later(onHeld)
      } else if ("method" in message && message.method === "notifications/progress") {
        // (a response queued behind it while held goes in the same write: two calls ending in one turn)
        if (held) progressWhileHeld = true
        else progress = true
      }
    }
    text += typeof message === "string" ? message : JsonRpc.encode(message) + "\n"
    // a full batch goes at once: the peer starts on it while this side works on the rest
    if (++lines >= maxLines && !blocked && !held) flush()
    else if (!scheduled && !blocked) {
      scheduled = true
      process.nextTick(onTick)
    }
    return blocked ? Effect.callback<void, TransportError>((resume) => void waiters.push(resume)) : undefined
  }
  const enqueue = (message: JsonRpc.Outgoing | string): Effect.Effect<void, TransportError> =>
    Effect.suspend(() => enqueueNow(message) ?? Effect.void)

  const release = () => {
    writable.off("error", onError)
    writable.off("close", onClose)
    writable.off("drain", onDrain)
  }

  const writer: Writer = {
    send: (message) => enqueue(message),
    sendNow: enqueueNow,
    writeRaw: enqueue,
    fail
  }
  return [writer, release]
}
