/**
 * The engine's read loop: each read of the transport is taken apart into
 * frames, batches into messages, and each message goes to the outgoing side
 * (a response, progress), the incoming side (a request, a cancellation) or
 * the notification handler.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as JsonRpc from "../../JsonRpc.js"
import type { TransportError } from "../../McpError.js"
import type { ProtocolOptions } from "../../Protocol.js"
import type { Receiver, TransportShape } from "../../Transport.js"
import * as Answered from "../answered.js"
import type { Engine } from "./engine.js"
import type { Incoming, Reply } from "./incoming.js"
import type { Outgoing } from "./outgoing.js"
import * as Telemetry from "../telemetry.js"

/**
 * What the read loop does with each message, as methods: an engine keeps one of these for its
 * life (an idle HTTP session too), and closures made per engine were a part of each one's heap.
 * It is the `Receiver` the transport's `run` is given.
 */
class Reader implements Receiver {
  constructor(
    readonly engine: Engine,
    readonly transport: TransportShape,
    readonly outgoing: Outgoing,
    readonly incoming: Incoming,
    readonly options: Pick<ProtocolOptions, "onNotification" | "batches">,
    readonly close: (reason: string) => Effect.Effect<void>,
    /** What the spans of received notifications say of the session, under a tracer that collects spans; none: no spans. */
    readonly facts: Telemetry.Facts | undefined
  ) {}

  /** A request answered by nobody (cancelled): the transport may forget where its answer would have gone. */
  unanswered(id: JsonRpc.RequestId): Effect.Effect<void> {
    return this.transport.requestEnded === undefined ? Effect.void : this.transport.requestEnded(id)
  }

  readonly replyDirect = (id: JsonRpc.RequestId): Reply => (response) =>
    response === undefined
      ? this.unanswered(id)
      : this.engine.send(response, { relatedRequestId: id }).pipe(
        Effect.catch((error) =>
          Effect.logDebug("could not send a response", error).pipe(Effect.annotateLogs({ side: this.engine.side }))
        )
      )

  readonly replyInvalidDirect: Reply = (response) =>
    response === undefined ? Effect.void : this.engine.send(response).pipe(Effect.ignore)

  onNotification(n: JsonRpc.Notification): Effect.Effect<void> | undefined {
    // what can be done at once is, as without a tracer (a read's frames keep their order: a
    // progress notification touches its call before a response in the same read settles it)
    const left = this.handleNotification(n)
    if (this.facts === undefined) return left
    // a SERVER span of its own (the conventions' span of a notification handled), what is left to run inside it
    return Telemetry.handlingNotification(this.facts, n, left ?? Effect.void)
  }

  handleNotification(n: JsonRpc.Notification): Effect.Effect<void> | undefined {
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
      response === undefined ? Effect.andThen(this.unanswered(id), collect(response)) : collect(response)
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
        return i + 1 < frames.length ? Effect.andThen(rest, Effect.suspend(() => this.onFrames(frames, i + 1))) : rest
      }
    }
    return undefined
  }

  onFrames(frames: ReadonlyArray<JsonRpc.Frame>, from: number): Effect.Effect<void> {
    return this.onFramesNow(frames, from) ?? Effect.void
  }

  /** `Receiver`: a read handed over by the transport, done at once where it can be. */
  frames(frames: ReadonlyArray<JsonRpc.Frame>): Effect.Effect<void> | undefined {
    return this.onFramesNow(frames, 0)
  }

  /** `Receiver`: the peer closed, or the transport failed (a transport whose `run` gave no effect). */
  end(error: Option.Option<TransportError>): Effect.Effect<void> {
    return error._tag === "None"
      ? this.close("the peer closed the connection")
      : this.close(error.value.message).pipe(Effect.andThen(Effect.logDebug("transport failed", Cause.fail(error.value))))
  }
}

/**
 * Gives `transport` the engine's receiver (`TransportShape.run`): the reading it returns runs
 * until it ends (or fails, or the fiber is interrupted), and the connection is then closed with
 * the reason. A transport that hands its reads over itself gives none: nothing to run, undefined.
 */
export const readLoop = (
  engine: Engine,
  transport: TransportShape,
  outgoing: Outgoing,
  incoming: Incoming,
  options: Pick<ProtocolOptions, "onNotification" | "batches">,
  close: (reason: string) => Effect.Effect<void>,
  facts?: Telemetry.Facts | undefined
): Effect.Effect<void> | undefined => {
  const read = transport.run(new Reader(engine, transport, outgoing, incoming, options, close, facts))
  return read?.pipe(
    Effect.matchCauseEffect({
      onSuccess: () => close("the peer closed the connection"),
      onFailure: (cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.void
          : close(
            Option.match(Cause.findErrorOption(cause), {
              onNone: () => "the transport failed",
              onSome: (error: TransportError) => error.message
            })
          ).pipe(Effect.andThen(Effect.logDebug("transport failed", cause)))
    })
  )
}
