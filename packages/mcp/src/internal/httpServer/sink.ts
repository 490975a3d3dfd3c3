/**
 * One live HTTP SSE response, as the streams write to it: a bounded buffer of
 * events between their senders and the response. Its reader is either a
 * fiber that takes what was buffered (`takeAll`, the `Stream` body any HTTP
 * server can run), or a writer the node listener attaches (`attach`), to
 * which every event is written as it is offered, in the sender's fiber.
 *
 * Why not a `Queue` (v3: `Mailbox`) and a fiber: a standing GET is open for the life of its
 * session, and a fiber parked on a queue for it (with the queue, its
 * stack and the `Stream` around it) was ~11 KiB of an idle session's heap.
 * The writer is a node callback (the listener's `write`, `'drain'`): the
 * measured reason this fast path does not go through a fiber.
 *
 * What a bounded `Queue` of the same capacity does, this does: `offer` waits while
 * the buffer is full (with a writer: while the response's own buffer is full
 * and `capacity` events, or `capacityBytes` of text, wait besides) and says `false` once the sink ended or
 * its reader left; `end` lets the reader have what is buffered, then ends it;
 * `shutdown` (the reader left) drops what is buffered.
 */
import * as Effect from "effect/Effect"

/** An event as written; `seq` is its store sequence (0 without a store), for de-duplication on resume. */
export interface Event {
  readonly seq: number
  readonly text: string
}

/** What the node listener writes a response with. */
export interface Writer {
  /** Writes text to the response; false when its buffer is full (`drained` is called once it is not). */
  readonly write: (text: string) => boolean
  /** Everything was written: the response ends. */
  readonly end: () => void
}

type Taker = (events: ReadonlyArray<Event>, done: boolean) => void

export class Sink {
  readonly capacity: number
  /** Text the queue may hold before senders wait (one event more is taken into an empty queue). */
  readonly capacityBytes: number
  /** Events not handed to the reader yet. */
  private queue: Array<Event> = []
  /** The length of their text. */
  private queued = 0
  /** `end` was called: no more offers; the reader ends after the queue. */
  private ended = false
  /** The reader left (or ended): offers say false. */
  private closed = false
  private writer: Writer | undefined = undefined
  /** The writer said its buffer is full. */
  private blocked = false
  private taker: Taker | undefined = undefined
  /** Senders waiting for room, made on first use. */
  private waiting: Array<() => void> | undefined = undefined

  constructor(capacity: number, capacityBytes = Infinity) {
    this.capacity = capacity
    this.capacityBytes = capacityBytes
  }

  /** Full: a sender waits. */
  private get full(): boolean {
    return this.queue.length >= this.capacity || (this.queue.length > 0 && this.queued >= this.capacityBytes)
  }

  /** Whether the reader was told the end (it read the sink to its end). */
  finished = false
  /** Events of the store at or before this sequence were replayed already: they are not written again. */
  after = 0

  /** Offers an event, waiting while the sink is full; false once it ended or its reader left. */
  offer(event: Event): Effect.Effect<boolean> {
    const offered = this.tryOffer(event)
    if (offered !== undefined) return Effect.succeed(offered)
    return Effect.callback<boolean>((resume) => {
      const retry = () => resume(this.offer(event))
      ;(this.waiting ??= []).push(retry)
      return Effect.sync(() => {
        const i = this.waiting?.indexOf(retry) ?? -1
        if (i >= 0) this.waiting!.splice(i, 1)
      })
    })
  }

  /** Offers an event without waiting: dropped when the sink is full (a keep-alive). */
  unsafeOffer(event: Event): boolean {
    return this.tryOffer(event) === true
  }

  /** Offered, refused (false), or undefined: full, to wait. */
  private tryOffer(event: Event): boolean | undefined {
    if (this.ended || this.closed) return false
    if (event.seq !== 0 && event.seq <= this.after) return true
    if (this.writer !== undefined && !this.blocked && this.queue.length === 0) {
      this.blocked = !this.writer.write(event.text)
      return true
    }
    if (this.full) return undefined
    this.queue.push(event)
    this.queued += event.text.length
    this.flush()
    return true
  }

  /** No more events: the reader gets what is buffered, then the end. */
  end(): Effect.Effect<void> {
    return Effect.sync(() => this.unsafeEnd())
  }

  unsafeEnd(): void {
    if (this.ended || this.closed) return
    this.ended = true
    this.flush()
    this.wake()
  }

  /** The reader left: what is buffered is dropped, senders waiting go on (told false). */
  shutdown(): Effect.Effect<void> {
    return Effect.sync(() => this.unsafeShutdown())
  }

  unsafeShutdown(): void {
    if (this.closed) return
    this.closed = true
    this.ended = true
    this.queue = []
    this.queued = 0
    this.writer = undefined
    const taker = this.taker
    this.taker = undefined
    if (taker !== undefined) taker([], true)
    this.wake()
  }

  /** A fiber's read: what was buffered (waiting while nothing is), and whether the sink ended. */
  takeAll(): Effect.Effect<readonly [ReadonlyArray<Event>, boolean]> {
    return Effect.callback((resume) => {
      if (this.queue.length > 0 || this.ended) return resume(Effect.succeed(this.take()))
      this.taker = (events, done) => resume(Effect.succeed([events, done] as const))
      return Effect.sync(() => {
        this.taker = undefined
      })
    })
  }

  private take(): readonly [ReadonlyArray<Event>, boolean] {
    const events = this.queue
    this.queue = []
    this.queued = 0
    const done = this.ended
    if (done) this.finished = true
    this.wake()
    return [events, done]
  }

  /**
   * The node listener's writer reads the sink from now on: `head`, then what is buffered, at
   * once; the rest as it is offered.
   */
  attach(writer: Writer, head: string): void {
    if (this.closed) return writer.end()
    this.writer = writer
    if (head !== "") this.blocked = !writer.write(head)
    this.flush()
  }

  /** The writer's buffer has room again. */
  drained(): void {
    this.blocked = false
    this.flush()
  }

  /** Hands what is buffered to the reader, as far as it takes it. */
  private flush(): void {
    const writer = this.writer
    if (writer !== undefined) {
      if (!this.blocked && this.queue.length > 0) {
        const events = this.queue
        this.queue = []
        this.queued = 0
        let text = ""
        for (const e of events) text += e.text
        this.blocked = !writer.write(text)
        this.wake()
      }
      if (this.ended && this.queue.length === 0 && !this.finished) {
        this.finished = true
        this.writer = undefined
        writer.end()
      }
      return
    }
    const taker = this.taker
    if (taker !== undefined && (this.queue.length > 0 || this.ended)) {
      this.taker = undefined
      const [events, done] = this.take()
      taker(events, done)
    }
  }

  /** Senders waiting for room try again. */
  private wake(): void {
    const waiting = this.waiting
    if (waiting === undefined || waiting.length === 0) return
    if (!this.ended && this.full) return
    this.waiting = undefined
    for (const retry of waiting) retry()
  }
}
