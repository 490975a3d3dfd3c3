/**
 * SSE event ids of the streamable HTTP server (`<streamId>_<seq>`, sequence 0
 * the priming event) and the stand-in of an answer a store dropped: one home
 * for the in-memory store, the HTTP server and the public `EventStore` names.
 */
import * as Option from "effect/Option"
import * as JsonRpc from "../JsonRpc.js"

/** The id of the priming event that opens a stream. */
export const primingId = (streamId: string): string => `${streamId}_0`

/** The stand-in of an evicted response: a JSON-RPC error response with the request's id. */
export const lostAnswer = (id: JsonRpc.RequestId): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":{"code":${JsonRpc.ErrorCode.InternalError},` +
  `"message":"The response was dropped from the server's event store before it was delivered"}}`

/** Splits an event id into its stream and sequence. */
export const parseEventId = (eventId: string): Option.Option<{ readonly streamId: string; readonly seq: number }> => {
  const at = eventId.lastIndexOf("_")
  if (at <= 0) return Option.none()
  const seq = Number(eventId.slice(at + 1))
  return Number.isInteger(seq) && seq >= 0 ? Option.some({ streamId: eventId.slice(0, at), seq }) : Option.none()
}
