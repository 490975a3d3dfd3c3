/**
 * Where the streamable HTTP client's exchanges put the frames they read: handed to the engine's
 * `Receiver` (the transport's `run` attaches it and gives no reading effect) by whoever read
 * them, in order, as a read loop would have read them, so that no fiber per session waits for the
 * next frame. What a frame leaves to run (a server request's
 * fork, a notification) runs in a fiber started then, which also takes the frames that arrive
 * meanwhile; a response settles its call where it was read.
 */
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as JsonRpc from "../../JsonRpc.js"
import type { TransportError } from "../../McpError.js"
import type { Receiver } from "../../Transport.js"

export class Frames {
  private queue: Array<JsonRpc.Frame> = []
  private target: Receiver | undefined = undefined
  /** A fiber hands frames over now: the others only queue (it takes theirs too). */
  private running = false
  /** How the input ended, once it did (told to the engine after the frames queued before). */
  private ended: Option.Option<TransportError> | undefined = undefined
  private endTold = false

  constructor(private readonly runFork: (effect: Effect.Effect<void>) => Fiber.Fiber<void>) {}

  /** The transport's `run`: the engine attaches its receiver (once). */
  attach(target: Receiver): undefined {
    this.target = target
    this.kick()
    return undefined
  }

  /** Hands a frame over (now, unless a fiber is handing frames over already). */
  offer(frame: JsonRpc.Frame): void {
    if (this.ended !== undefined) return
    this.queue.push(frame)
    this.kick()
  }

  /** The input ended (`None`) or failed: the engine is told after what is queued, in this fiber if none does it. */
  end(error: Option.Option<TransportError>): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (this.ended !== undefined) return Effect.void
      this.ended = error
      const target = this.target
      if (target === undefined || this.running) return Effect.void
      this.running = true
      return this.guarded(this.loop(target))
    })
  }

  private kick(): void {
    const target = this.target
    if (this.running || target === undefined) return
    const rest = this.now(target)
    if (rest === undefined) return
    this.running = true
    this.runFork(this.guarded(Effect.andThen(rest, this.loop(target))))
  }

  /** A handover that dies must not leave the frames handed over by nobody. */
  private guarded(effect: Effect.Effect<void>): Effect.Effect<void> {
    return Effect.onError(effect, () =>
      Effect.sync(() => {
        this.running = false
      }))
  }

  /** Hands the queue over synchronously until a frame leaves something to run. */
  private now(target: Receiver): Effect.Effect<void> | undefined {
    while (this.queue.length > 0) {
      const frames = this.queue
      this.queue = []
      const rest = target.frames(frames)
      if (rest !== undefined) return rest
    }
    if (this.ended !== undefined && !this.endTold) {
      this.endTold = true
      return target.end(this.ended)
    }
    return undefined
  }

  private loop(target: Receiver): Effect.Effect<void> {
    return Effect.suspend(() => {
      const rest = this.now(target)
      if (rest === undefined) {
        this.running = false
        return Effect.void
      }
      return Effect.andThen(rest, this.loop(target))
    })
  }
}
