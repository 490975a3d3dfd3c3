/**
 * The engine's read loop: each read of the transport is taken apart into
 * frames, batches into messages, and each message goes to the outgoing side
 * (a response, progress), the incoming side (a request, a cancellation) or
 * the notification handler.
 * @internal
 */
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as JsonRpc from "../../JsonRpc.js"
import type { TransportError } from "../../McpError.js"
import type { ProtocolOptions } from "../../Protocol.js"
import type { TransportShape } from "../../Transport.js"
import { pullOf, pushOf } from "../pull.js"
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
  const send = engine.send

  /** A request answered by nobody (cancelled): the transport may forget where its answer would have gone. */
  const unanswered = (id: JsonRpc.RequestId): Effect.Effect<void> =>
    transport.requestEnded === undefined ? Effect.void : transport.requestEnded(id)

  const replyDirect = (id: JsonRpc.RequestId): Reply => (response) =>
    response === undefined
      ? unanswered(id)
      : send(response, { relatedRequestId: id }).pipe(
        Effect.catchAll((error) =>
          Effect.logDebug("could not send a response", error).pipe(Effect.annotateLogs({ side: engine.side }))
        )
      )

  const replyInvalidDirect: Reply = (response) => (response === undefined ? Effect.void : send(response).pipe(Effect.ignore))

  const onNotification = (n: JsonRpc.Notification): Effect.Effect<void> | undefined => {
    switch (n.method) {
      case "notifications/cancelled":
        return incoming.onCancelled(n.params)
      case "notifications/progress":
        return outgoing.onProgress(n.params)
      default:
        return options.onNotification(n)
    }
  }

  /**
   * Handles one message as far as can be done at once (a request forked, a
   * response settled, a cancellation sent to its fiber); what is left to run
   * (a notification's handler, a reply, a progress callback) is returned.
   */
  const onMessage = (
    message: JsonRpc.Message | JsonRpc.Invalid,
    reply: (id: JsonRpc.RequestId) => Reply,
    replyInvalid: Reply
  ): Effect.Effect<void> | undefined => {
    if (JsonRpc.isInvalid(message)) {
      return message.respond
        ? replyInvalid(JsonRpc.failure(message.id, message.error))
        : Effect.logDebug("dropped an invalid response", message.error.message)
    }
    if ("method" in message) {
      return "id" in message ? incoming.onRequest(message, reply(message.id)) : onNotification(message)
    }
    return outgoing.onResponse(message)
  }

  const onBatch = (batch: ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>): Effect.Effect<void> => {
    if (options.batches?.() !== true) {
      return replyInvalidDirect(
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
        return --expected === 0 && answers.length > 0 ? send(answers).pipe(Effect.ignore) : Effect.void
      })
    const collectFor = (id: JsonRpc.RequestId): Reply => (response) =>
      response === undefined ? Effect.zipRight(unanswered(id), collect(response)) : collect(response)
    return Effect.forEach(batch, (m) => Effect.suspend(() => onMessage(m, collectFor, collect) ?? Effect.void), {
      discard: true
    })
  }

  const onFrame = (frame: JsonRpc.Frame): Effect.Effect<void> | undefined =>
    JsonRpc.isBatch(frame) ? onBatch(frame) : onMessage(frame, replyDirect, replyInvalidDirect)

  /**
   * The frames of one read, in order: the synchronous part of each at once,
   * and whatever a frame leaves to run is run before the next frame is
   * looked at. Called when the read is handled (a continuation), never ahead.
   */
  const onFrames = (frames: ReadonlyArray<JsonRpc.Frame>, from: number): Effect.Effect<void> => {
    for (let i = from; i < frames.length; i++) {
      const rest = onFrame(frames[i]!)
      if (rest !== undefined) {
        return i + 1 < frames.length ? Effect.zipRight(rest, Effect.suspend(() => onFrames(frames, i + 1))) : rest
      }
    }
    return Effect.void
  }

  const push = pushOf(transport.incoming)
  if (push !== undefined) {
    push({
      frames: (frames) => onFrames(frames, 0),
      end: Option.match({
        onNone: () => close("the peer closed the connection"),
        onSome: (error: TransportError) =>
          close(error.message).pipe(Effect.zipRight(Effect.logDebug("transport failed", Cause.fail(error))))
      })
    })
    return undefined
  }
  const pull = pullOf(transport.incoming)
  const read: Effect.Effect<void, TransportError> = pull === undefined
    ? Stream.runForEachChunk(transport.incoming, (chunk) => onFrames(Chunk.toReadonlyArray(chunk), 0))
    : Effect.catchAll(
      readEach(pull, (frames) => onFrames(frames, 0)),
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
