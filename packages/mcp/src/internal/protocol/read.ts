/**
 * The engine's read loop: each read of the transport is taken apart into
 * frames, batches into messages, and each message goes to the outgoing side
 * (a response, progress), the incoming side (a request, a cancellation) or
 * the notification handler.
 */
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as JsonRpc from "../../JsonRpc.js"
import type { TransportError } from "../../McpError.js"
import type { ProtocolOptions } from "../../Protocol.js"
import type { Feed, TransportShape } from "../../Transport.js"
import * as Answered from "../answered.js"
import { feedOf, pullOf, type PushTarget, pushOf } from "../pull.js"
import type { Engine } from "./engine.js"
import type { Incoming, Reply } from "./incoming.js"
import type { Outgoing } from "./outgoing.js"

/** Runs `f` on every read of `pull` until it fails. */
const readEach = <A, E>(
  pull: Effect.Effect<A, E>,
  f: (a: A) => Effect.Effect<void>
): Effect.Effect<never, E> => {
  const loop: Effect.Effect<never, E> = Effect.flatMap(pull, (a) => Effect.zipRight(f(a), loop))
  return loop
}

/** Frames queued behind the engine's fiber before the transport is asked to stop reading. */
const FEED_BACKLOG = 256

/**
 * The reader of a transport that feeds the engine (`Transport.fromPull` with a `feed`): what a
 * frame can do at once (a response settling its call) is done in the transport's callback, with
 * no fiber woken; this fiber sleeps until a frame leaves work to run (a request, a notification,
 * a reply) or the input ends, and runs that, then the frames that came meanwhile, in order.
 * Ends (fails) as a pull loop would: `None` is the peer closing.
 */
const fed = (
  feed: Feed,
  handle: (frames: ReadonlyArray<JsonRpc.Frame>, from: number) => Effect.Effect<void> | undefined
): Effect.Effect<void, TransportError> =>
  Effect.suspend(() => {
    /** Frames that came while the fiber had work: handled after it, in order. */
    let queue: Array<JsonRpc.Frame> = []
    /** What the fiber runs next. */
    let work: Effect.Effect<void> | undefined
    /** The fiber has work or a queue: frames wait behind it. */
    let busy = false
    /** The transport was told to stop reading. */
    let paused = false
    let ending: Effect.Effect<never, Option.Option<TransportError>> | undefined
    let wake: ((effect: Effect.Effect<void>) => void) | undefined
    const signal = () => {
      const resume = wake
      if (resume === undefined) return
      wake = undefined
      resume(Effect.void)
    }
    /** The fiber is gone (ended or interrupted): no engine handles frames any more; the transport stops reading. */
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
        const rest = handle(frames, 0)
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
    const park = Effect.async<void>((resume) => {
      wake = resume
    })
    const step: Effect.Effect<void, TransportError> = Effect.suspend(() => {
      if (work !== undefined) {
        const next = work
        work = undefined
        return Effect.zipRight(next, step)
      }
      if (queue.length > 0) {
        const frames = queue
        queue = []
        work = handle(frames, 0)
        return step
      }
      busy = false
      if (paused) {
        paused = false
        control.resume()
      }
      if (ending !== undefined) {
        return Effect.catchAll(
          ending,
          Option.match({ onNone: () => Effect.void, onSome: (error: TransportError) => Effect.fail(error) })
        )
      }
      return Effect.zipRight(park, step)
    })
    return Effect.ensuring(step, Effect.sync(() => {
      stopped = true
    }))
  })

/**
 * What the read loop does with each message, as methods: an engine keeps one of these for its
 * life (an idle HTTP session too), and closures made per engine were a part of each one's heap.
 * It is also the target a pushing transport hands its frames to.
 */
class Reader implements PushTarget {
  constructor(
    readonly engine: Engine,
    readonly transport: TransportShape,
    readonly outgoing: Outgoing,
    readonly incoming: Incoming,
    readonly options: Pick<ProtocolOptions, "onNotification" | "batches">,
    readonly close: (reason: string) => Effect.Effect<void>
  ) {}

  /** A request answered by nobody (cancelled): the transport may forget where its answer would have gone. */
  unanswered(id: JsonRpc.RequestId): Effect.Effect<void> {
    return this.transport.requestEnded === undefined ? Effect.void : this.transport.requestEnded(id)
  }

  readonly replyDirect = (id: JsonRpc.RequestId): Reply => (response) =>
    response === undefined
      ? this.unanswered(id)
      : this.engine.send(response, { relatedRequestId: id }).pipe(
        Effect.catchAll((error) =>
          Effect.logDebug("could not send a response", error).pipe(Effect.annotateLogs({ side: this.engine.side }))
        )
      )

  readonly replyInvalidDirect: Reply = (response) =>
    response === undefined ? Effect.void : this.engine.send(response).pipe(Effect.ignore)

  onNotification(n: JsonRpc.Notification): Effect.Effect<void> | undefined {
    switch (n.method) {
      case "notifications/cancelled":
        return this.incoming.onCancelled(n.params)
      case "notifications/progress":
        return this.outgoing.onProgress(n.params)
      default: {
        // a handler that only noted it (its effect already done): nothing left to run
        const handled = this.options.onNotification(n)
        return Answered.isSuccess(handled) ? undefined : handled
      }
    }
  }

  /**
   * Handles one message as far as can be done at once (a request forked, a
   * response settled, a cancellation sent to its fiber); what is left to run
   * (a notification's handler, a reply, a progress callback) is returned.
   */
  onMessage(
    message: JsonRpc.Message | JsonRpc.Invalid,
    reply: (id: JsonRpc.RequestId) => Reply,
    replyInvalid: Reply,
    direct: boolean
  ): Effect.Effect<void> | undefined {
    if (JsonRpc.isInvalid(message)) {
      return message.respond
        ? replyInvalid(JsonRpc.failure(message.id, message.error))
        : Effect.logDebug("dropped an invalid response", message.error.message)
    }
    if ("method" in message) {
      return "id" in message ? this.incoming.onRequest(message, reply(message.id), direct) : this.onNotification(message)
    }
    return this.outgoing.onResponse(message)
  }

  onBatch(batch: ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>): Effect.Effect<void> {
    if (this.options.batches?.() !== true) {
      return this.replyInvalidDirect(
        JsonRpc.failure(null, {
          code: JsonRpc.ErrorCode.InvalidRequest,
          message: "Invalid Request: JSON-RPC batches are not supported by the negotiated protocol version"
        })
      )
    }
    let expected = 0
    for (const m of batch) {
      if (JsonRpc.isInvalid(m) ? m.respond : JsonRpc.isRequest(m)) expected++
    }
    const answers: Array<JsonRpc.Response> = []
    const collect: Reply = (response) =>
      Effect.suspend(() => {
        if (response !== undefined) answers.push(response)
        return --expected === 0 && answers.length > 0 ? this.engine.send(answers).pipe(Effect.ignore) : Effect.void
      })
    const collectFor = (id: JsonRpc.RequestId): Reply => (response) =>
      response === undefined ? Effect.zipRight(this.unanswered(id), collect(response)) : collect(response)
    return Effect.forEach(batch, (m) => Effect.suspend(() => this.onMessage(m, collectFor, collect, false) ?? Effect.void), {
      discard: true
    })
  }

  onFrame(frame: JsonRpc.Frame): Effect.Effect<void> | undefined {
    return JsonRpc.isBatch(frame) ? this.onBatch(frame) : this.onMessage(frame, this.replyDirect, this.replyInvalidDirect, true)
  }

  /**
   * The frames of one read, in order: the synchronous part of each at once,
   * and whatever a frame leaves to run is run before the next frame is
   * looked at. Called when the read is handled (a continuation), never ahead.
   */
  onFramesNow(frames: ReadonlyArray<JsonRpc.Frame>, from: number): Effect.Effect<void> | undefined {
    for (let i = from; i < frames.length; i++) {
      const rest = this.onFrame(frames[i]!)
      if (rest !== undefined) {
        return i + 1 < frames.length ? Effect.zipRight(rest, Effect.suspend(() => this.onFrames(frames, i + 1))) : rest
      }
    }
    return undefined
  }

  onFrames(frames: ReadonlyArray<JsonRpc.Frame>, from: number): Effect.Effect<void> {
    return this.onFramesNow(frames, from) ?? Effect.void
  }

  /** `PushTarget`: a read handed over by the transport. */
  frames(frames: ReadonlyArray<JsonRpc.Frame>): Effect.Effect<void> {
    return this.onFrames(frames, 0)
  }

  /** `PushTarget`: a read handed over, done at once where it can be. */
  framesNow(frames: ReadonlyArray<JsonRpc.Frame>): Effect.Effect<void> | undefined {
    return this.onFramesNow(frames, 0)
  }

  /** `PushTarget`: the peer closed, or the transport failed. */
  end(error: Option.Option<TransportError>): Effect.Effect<void> {
    return error._tag === "None"
      ? this.close("the peer closed the connection")
      : this.close(error.value.message).pipe(Effect.zipRight(Effect.logDebug("transport failed", Cause.fail(error.value))))
  }
}

/**
 * Reads `transport` until it ends (or fails, or the fiber is interrupted),
 * handing every message on; the connection is then closed with the reason.
 * A transport that hands its frames over itself (`pushable`) is attached
 * instead: nothing to run, undefined.
 */
export const readLoop = (
  engine: Engine,
  transport: TransportShape,
  outgoing: Outgoing,
  incoming: Incoming,
  options: Pick<ProtocolOptions, "onNotification" | "batches">,
  close: (reason: string) => Effect.Effect<void>
): Effect.Effect<void> | undefined => {
  const reader = new Reader(engine, transport, outgoing, incoming, options, close)
  const push = pushOf(transport.incoming)
  if (push !== undefined) {
    push(reader)
    return undefined
  }
  const pull = pullOf(transport.incoming)
  const feed = feedOf(transport.incoming)
  const read: Effect.Effect<void, TransportError> = feed !== undefined
    ? fed(feed, (frames, from) => reader.onFramesNow(frames, from))
    : pull === undefined
    ? Stream.runForEachChunk(transport.incoming, (chunk) => reader.onFrames(Chunk.toReadonlyArray(chunk), 0))
    : Effect.catchAll(
      readEach(pull, (frames) => reader.onFrames(frames, 0)),
      Option.match({ onNone: () => Effect.void, onSome: (error: TransportError) => Effect.fail(error) })
    )
  return read.pipe(
    Effect.matchCauseEffect({
      onSuccess: () => close("the peer closed the connection"),
      onFailure: (cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.void
          : close(
            Option.match(Cause.failureOption(cause), {
              onNone: () => "the transport failed",
              onSome: (error: TransportError) => error.message
            })
          ).pipe(Effect.zipRight(Effect.logDebug("transport failed", cause)))
    })
  )
}
