/**
 * Where the streamable HTTP client's answers go: the frames behind
 * `incoming`, and which exchange waits for which request id (a response may
 * arrive on its POST's stream, a resumed GET or the standing GET). Reads JSON
 * and SSE bodies into it, fails the calls whose exchange failed, and fails
 * `incoming` itself when the transport is beyond repair.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"
import { exchangeFailed } from "../../Transport.js"
import { type BackendResponse, header } from "./backend.js"
import * as HttpFibers from "./fibers.js"
import type { Frames } from "./frames.js"
import { unreachable } from "./failure.js"
import * as HttpSession from "./session.js"
import type { Cursor } from "./reconnect.js"
import * as Sse from "./sse.js"

/** Who is waiting on an exchange: the ids of the requests it answers. */
export interface Sink {
  readonly awaiting: Set<JsonRpc.RequestId>
}

export interface Inbox {
  /** Set once the scope closes: no new exchange starts. */
  readonly closing: boolean
  /** The failure of the whole transport, once it failed. */
  readonly failure: TransportError | undefined
  /** The exchange waiting for each request id. */
  readonly sinks: Map<JsonRpc.RequestId, Sink>
  readonly frames: Frames
  readonly session: HttpSession.HttpSession
  readonly url: URL
  /** The exchanges running beside their callers. */
  readonly fibers: HttpFibers.HttpFibers
  readonly parserOptions: { readonly maxEventSize: number } | undefined
  /** A body of known length up to this is read whole. */
  readonly wholeBodyLimit: number
}

export const make = (options: Omit<Inbox, "closing" | "failure" | "sinks">): Inbox => ({
  ...options,
  closing: false,
  failure: undefined,
  sinks: new Map()
})

export const close = (inbox: Inbox): void => {
  ;(inbox as { closing: boolean }).closing = true
}

/** Hands a frame to `incoming`, noting which awaited responses it carries. */
export const deliver = (inbox: Inbox, frame: JsonRpc.Frame, sink: Sink): void => {
  const { sinks } = inbox
  const items = JsonRpc.isBatch(frame) ? frame : [frame]
  const out: Array<JsonRpc.Message | JsonRpc.Invalid> = []
  for (let item of items) {
    if (JsonRpc.isInvalid(item)) {
      const id = item.id
      if (!item.respond && id !== null && (sink.awaiting.has(id) || sinks.has(id))) {
        // a broken response to a request of ours: fail that call now rather than at its timeout
        sink.awaiting.delete(id)
        sinks.get(id)?.awaiting.delete(id)
        out.push(JsonRpc.failure(id, item.error))
      } else {
        out.push(item)
      }
      continue
    }
    if (JsonRpc.isResponse(item)) {
      if (item.id === null && sink.awaiting.size === 1) {
        // an error about "the" request of this exchange
        item = { ...item, id: sink.awaiting.values().next().value! } as JsonRpc.ErrorResponse
      }
      if (item.id !== null) {
        sink.awaiting.delete(item.id)
        sinks.get(item.id)?.awaiting.delete(item.id)
      }
    }
    out.push(item)
  }
  if (out.length === 0) return
  if (!JsonRpc.isBatch(frame)) {
    inbox.frames.offer(out[0]!)
  } else if (out.every((m) => !JsonRpc.isInvalid(m) && JsonRpc.isResponse(m))) {
    // responses need no batch answer: hand them over one by one
    for (const m of out) inbox.frames.offer(m)
  } else {
    inbox.frames.offer(out)
  }
}

/**
 * Fails the requests still awaited on `sink`: with the peer's JSON-RPC error
 * (an `McpError` for the caller), or with a `TransportError` when the
 * exchange failed before the peer answered.
 */
export const failAwaiting = (sink: Sink, error: JsonRpc.ErrorObject | TransportError, inbox: Inbox) =>
  Effect.sync(() => {
    for (const id of sink.awaiting) {
      inbox.frames.offer(error instanceof TransportError ? exchangeFailed(id, error) : JsonRpc.failure(id, error))
    }
    sink.awaiting.clear()
  })

/** Fails `incoming`, so that the engine fails every pending call, and aborts every exchange. */
export const failTransport = (inbox: Inbox, error: TransportError) =>
  Effect.suspend(() => {
    if (inbox.closing || inbox.failure !== undefined) return Effect.void
    ;(inbox as { failure: TransportError | undefined }).failure = error
    return inbox.frames.end(Option.some(error)).pipe(
      // forked: the fiber failing the transport may be one of those interrupted
      Effect.andThen(Effect.forkDetach(HttpFibers.interruptAll(inbox.fibers))),
      Effect.asVoid
    )
  })

/** Reads an `application/json` answer (one message or a batch). */
export const readJson = (inbox: Inbox, response: BackendResponse, sink: Sink) =>
  Effect.flatMap(Effect.result(response.text), (text) => {
    if (Result.isFailure(text)) {
      return failAwaiting(
        sink,
        new TransportError({ reason: "Read", message: `Could not read the answer: ${text.failure.message}`, cause: text.failure }),
        inbox
      )
    }
    if (text.success.trim() !== "") deliver(inbox, JsonRpc.parse(text.success), sink)
    return sink.awaiting.size === 0 ? Effect.void : failAwaiting(
      sink,
      new TransportError({ reason: "Protocol", message: "The server's JSON answer did not contain the response" }),
      inbox
    )
  })

/** An SSE stream broke (rather than ended): kept on the cursor, to say why if it cannot be resumed. */
const broke = (inbox: Inbox, cursor: Cursor, error: Error) =>
  Effect.suspend(() => {
    cursor.broke = error instanceof Sse.SseError
      ? new TransportError({ reason: "Protocol", message: error.message })
      : unreachable(error, "The SSE stream of", inbox.url, "Read")
    return Effect.logDebug("SSE stream broke", cursor.broke.message)
  })

/**
 * Reads an SSE body into `incoming`, keeping the stream's last event id and
 * `retry:` in `cursor`. With `untilAnswered`, stops (and so releases the
 * stream) once every awaited response arrived. Resolves to whether that
 * happened; a broken stream is just a stream that ended.
 */
export const readSse = (
  inbox: Inbox,
  response: BackendResponse,
  cursor: Cursor,
  sink: Sink,
  untilAnswered: boolean
): Effect.Effect<boolean> =>
  Effect.suspend(() => {
    const answered = () => untilAnswered && sink.awaiting.size === 0
    const parser = Sse.makeParser((event) => {
      if (event._tag === "Retry") {
        cursor.retryMs = Duration.toMillis(event.duration)
        return
      }
      if (event.id !== undefined) cursor.lastEventId = event.id
      // priming events (an id and empty data) and other event types carry no message
      if (event.event !== "message" || event.data.trim() === "") return
      cursor.delivered = true
      deliver(inbox, JsonRpc.parse(event.data), sink)
    }, inbox.parserOptions)
    // a body of known, bounded length (an answer that was complete before it was sent) is
    // read at once: a fraction of the cost of streaming it chunk by chunk
    const length = Number(header(response, "content-length"))
    if (Number.isFinite(length) && length <= inbox.wholeBodyLimit) {
      return Effect.result(response.text).pipe(
        Effect.flatMap((text) => {
          if (Result.isFailure(text)) return broke(inbox, cursor, text.failure)
          const error = parser.feed(text.success)
          return error === undefined ? Effect.void : broke(inbox, cursor, error)
        }),
        Effect.map(answered)
      )
    }
    const decoder = new TextDecoder()
    let invalid: Sse.SseError | undefined
    return response.read((bytes) => {
      invalid = parser.feed(decoder.decode(bytes, { stream: true }))
      return invalid === undefined && !answered()
    }).pipe(
      Effect.matchEffect({
        onFailure: (error) => broke(inbox, cursor, error),
        onSuccess: () => invalid === undefined ? Effect.void : broke(inbox, cursor, invalid)
      }),
      Effect.map(answered)
    )
  })
