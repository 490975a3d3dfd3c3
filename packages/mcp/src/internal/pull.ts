/**
 * The engine's fast way to read a transport. Consuming a `Stream` costs a
 * channel executor's work per read, more than the engine's own work per
 * message; so a transport's `incoming` made by `Transport.fromMailbox` or
 * `Transport.fromPull` carries the effect that reads it, and the engine reads
 * that by hand. `Transport.tapIncoming` keeps it. A stream derived any other
 * way has none and is read as the stream it is. Read one way or the other,
 * never both.
 * @internal
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../JsonRpc.js"
import type { TransportError } from "../McpError.js"

/**
 * Reads what arrived since the last read (waiting while nothing did); fails
 * with `None` once the peer closed.
 */
export type Pull = Effect.Effect<ReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>>

const PullKey: unique symbol = Symbol.for("@effect-mcp/mcp/Transport/pull")

/** A stream of the frames `pull` reads, which the engine may read through `pull` itself. */
export const pullable = (pull: Pull): Stream.Stream<JsonRpc.Frame, TransportError> =>
  Object.assign(
    Stream.repeatEffectChunkOption(Effect.map(pull, (frames) => Chunk.unsafeFromArray(frames as Array<JsonRpc.Frame>))),
    { [PullKey]: pull }
  )

/** The pull of a stream made by `pullable`, if it is one. */
export const pullOf = (incoming: Stream.Stream<JsonRpc.Frame, TransportError>): Pull | undefined =>
  (incoming as { readonly [PullKey]?: Pull })[PullKey]
