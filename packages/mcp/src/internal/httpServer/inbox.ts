/**
 * What a session's POSTs (and, with a fleet, the other instances) hand its
 * engine: the frames are queued as they are received, then handed over by the
 * fiber that received them (`drain`), one fiber at a time and in order, as a
 * read loop would have read them (the session's transport's `run` attaches the engine's
 * `Receiver` and gives no reading effect). No fiber waits for the next POST: a parked
 * read loop (with its mailbox and stack) was a sixth of an idle session's heap.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as JsonRpc from "../../JsonRpc.js"
import type { Receiver } from "../../Transport.js"

export class Inbox {
  private queue: Array<JsonRpc.Frame> = []
  private target: Receiver | undefined = undefined
  /** A fiber hands the queue over now: others only queue (it takes theirs too). */
  private draining = false
  private ended = false

  /** The transport's `run`: the engine attaches its receiver (once). */
  attach(target: Receiver): void {
    this.target = target
  }

  /** Queues a frame; `drain` hands it over. */
  offer(frame: JsonRpc.Frame): void {
    if (!this.ended) this.queue.push(frame)
  }

  /**
   * Hands what was queued to the engine, in this fiber, unless another fiber does already (then
   * it takes this too). Uninterruptible: a POST whose client hangs up must not drop what it
   * received halfway (its requests are in the session's routes already).
   */
  drain(): Effect.Effect<void> {
    if (this.draining || this.target === undefined || this.queue.length === 0) return Effect.void
    this.draining = true
    // a handover that dies must not leave the inbox drained by nobody (every later POST would queue);
    // nothing interrupts it in between, so a plain match is enough (`onError` would mask once more)
    return Effect.uninterruptible(Effect.catchCause(this.loop(this.target), (cause) => {
      this.draining = false
      return Effect.failCause(cause)
    }))
  }

  /**
   * `drain` done at once where it can be (frames whose handling leaves nothing to run: a
   * notification the server only notes, a request answered as it was made): undefined when it
   * was, else what is left, as `drain` runs it.
   */
  drainNow(): Effect.Effect<void> | undefined {
    const target = this.target
    if (this.draining || target === undefined || this.queue.length === 0) return undefined
    this.draining = true
    const frames = this.queue
    this.queue = []
    let rest: Effect.Effect<void> | undefined
    try {
      rest = target.frames(frames)
    } catch (defect) {
      // as `drain`'s handover dies
      this.draining = false
      return Effect.die(defect)
    }
    if (rest === undefined && this.queue.length === 0 && !this.ended) {
      this.draining = false
      return undefined
    }
    const after = Effect.suspend(() => this.step(target))
    return Effect.uninterruptible(Effect.catchCause(rest === undefined ? after : Effect.andThen(rest, after), (cause) => {
      this.draining = false
      return Effect.failCause(cause)
    }))
  }

  private loop(target: Receiver): Effect.Effect<void> {
    return Effect.suspend(() => this.step(target))
  }

  /** Hands over what is queued now, then again what came meanwhile (without suspending once more). */
  private step(target: Receiver): Effect.Effect<void> {
    for (;;) {
      const frames = this.queue
      if (frames.length === 0) {
        this.draining = false
        return this.ended ? target.end(Option.none()) : Effect.void
      }
      this.queue = []
      const rest = target.frames(frames)
      if (rest !== undefined) return Effect.flatMap(rest, () => this.step(target))
    }
  }

  /** The peer is gone: the engine closes (after what is queued, if a fiber hands it over now). */
  end(): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (this.ended) return Effect.void
      this.ended = true
      const target = this.target
      if (target === undefined || this.draining) return Effect.void
      this.queue = []
      return target.end(Option.none())
    })
  }
}
