/**
 * The readings `Transport`'s constructors give the engine (`TransportShape.run`): a loop over a
 * pull effect, and a callback source (a Node stream's `'data'` events) fed to the receiver with
 * back-pressure. Both hand each read to `Receiver.frames` and run what it leaves before the next.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as JsonRpc from "../JsonRpc.js"
import type { TransportError } from "../McpError.js"
import type { Feed, Receiver } from "../Transport.js"

/**
 * Reads what arrived since the last read (waiting while nothing did); fails with `None` once the
 * peer closed.
 */
export type Pull = Effect.Effect<ReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>>

const endOf = Option.match({
  onNone: () => Effect.void,
  onSome: (error: TransportError) => Effect.fail(error)
})

/** Hands every read of `pull` to `receiver` (what a read leaves runs before the next read) until the peer closes. */
export const pulled = (pull: Pull, receiver: Receiver): Effect.Effect<void, TransportError> => {
  const loop: Effect.Effect<never, Option.Option<TransportError>> = Effect.flatMap(
    pull,
    (frames) => Effect.andThen(receiver.frames(frames) ?? Effect.void, loop)
  )
  return Effect.catch(loop, endOf)
}

/** Frames queued behind the reading fiber before the source is asked to stop reading. */
const FEED_BACKLOG = 256

/**
 * A callback source read into `receiver`: what a read can do at once (a response settling its
 * call) is done in the source's callback, with no fiber woken; this fiber sleeps until a read
 * leaves work to run (a request, a notification, a reply) or the input ends, and runs that, then
 * the frames that came meanwhile, in order. Past `FEED_BACKLOG` queued frames the source is told
 * to stop reading (`FeedTarget.frames` returns false) until the queue is drained (`FeedControl.resume`).
 */
export const fed = (feed: Feed, receiver: Receiver): Effect.Effect<void, TransportError> =>
  Effect.suspend(() => {
    /** Frames that came while the fiber had work: handled after it, in order. */
    let queue: Array<JsonRpc.Frame> = []
    /** What the fiber runs next. */
    let work: Effect.Effect<void> | undefined
    /** The fiber has work or a queue: frames wait behind it. */
    let busy = false
    /** The source was told to stop reading. */
    let paused = false
    let ending: Effect.Effect<never, Option.Option<TransportError>> | undefined
    let wake: ((effect: Effect.Effect<void>) => void) | undefined
    const signal = () => {
      const resume = wake
      if (resume === undefined) return
      wake = undefined
      resume(Effect.void)
    }
    /** The fiber is gone (ended or interrupted): nothing handles frames any more; the source stops reading. */
    let stopped = false
    const control = feed({
      frames: (frames) => {
        if (stopped) return false
        if (ending !== undefined) return true
        if (busy) {
          for (const frame of frames) queue.push(frame)
          if (queue.length < FEED_BACKLOG) return true
          paused = true
          return false
        }
        const rest = receiver.frames(frames)
        if (rest === undefined) return true
        busy = true
        work = rest
        signal()
        return true
      },
      end: (how) => {
        if (ending !== undefined) return
        ending = how
        signal()
      }
    })
    // no canceler: an interrupted wait's later callback is ignored, as every async callback after its first call is
    const park = Effect.callback<void>((resume) => {
      wake = resume
    })
    const step: Effect.Effect<void, TransportError> = Effect.suspend(() => {
      if (work !== undefined) {
        const next = work
        work = undefined
        return Effect.andThen(next, step)
      }
      if (queue.length > 0) {
        const frames = queue
        queue = []
        work = receiver.frames(frames)
        return step
      }
      busy = false
      if (paused) {
        paused = false
        control.resume()
      }
      if (ending !== undefined) return Effect.catch(ending, endOf)
      return Effect.andThen(park, step)
    })
    return Effect.ensuring(step, Effect.sync(() => {
      stopped = true
    }))
  })
