/**
 * The engine's fast way to read a transport. Consuming a `Stream` costs a
 * channel executor's work per read, more than the engine's own work per
 * message; so a transport's `incoming` made by `Transport.fromMailbox` or
 * `Transport.fromPull` carries the effect that reads it, and the engine reads
 * that by hand. `Transport.tapIncoming` keeps it. A stream derived any other
 * way has none and is read as the stream it is. Read one way or the other,
 * never both.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Mailbox from "effect/Mailbox"
import type * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../JsonRpc.js"
import type { TransportError } from "../McpError.js"
import type { Feed } from "../Transport.js"

/**
 * Reads what arrived since the last read (waiting while nothing did); fails
 * with `None` once the peer closed.
 */
export type Pull = Effect.Effect<ReadonlyArray<JsonRpc.Frame>, Option.Option<TransportError>>

const PullKey: unique symbol = Symbol.for("@effect-mcp/mcp/Transport/pull")

const FeedKey: unique symbol = Symbol.for("@effect-mcp/mcp/Transport/feed")

/**
 * A stream of the frames `pull` reads, which the engine may read through `pull` itself, or,
 * given `feed`, be fed by it instead (read one way or the other, never both).
 */
export const pullable = (pull: Pull, feed?: Feed): Stream.Stream<JsonRpc.Frame, TransportError> =>
  Object.assign(
    Stream.repeatEffectChunkOption(Effect.map(pull, (frames) => Chunk.unsafeFromArray(frames as Array<JsonRpc.Frame>))),
    feed === undefined ? { [PullKey]: pull } : { [PullKey]: pull, [FeedKey]: feed }
  )

/** The feed of a stream made by `pullable` with one, if it is one. */
export const feedOf = (incoming: Stream.Stream<JsonRpc.Frame, TransportError>): Feed | undefined =>
  (incoming as { readonly [FeedKey]?: Feed })[FeedKey]

/** The pull of a stream made by `pullable`, if it is one. */
export const pullOf = (incoming: Stream.Stream<JsonRpc.Frame, TransportError>): Pull | undefined =>
  (incoming as { readonly [PullKey]?: Pull })[PullKey]

/**
 * The engine's side of a transport that hands its frames over as they arrive instead of being
 * read (the streamable HTTP server's sessions): `frames` handles a read, as a read of `Pull`
 * would be handled, in the fiber that received them; `end` is the peer closing (or the
 * transport failing). No fiber waits for the next read: an idle HTTP session has none.
 */
export interface PushTarget {
  readonly frames: (frames: ReadonlyArray<JsonRpc.Frame>) => Effect.Effect<void>
  /** `frames` done at once where it can be: what is left to run, or undefined when nothing is. */
  readonly framesNow?: ((frames: ReadonlyArray<JsonRpc.Frame>) => Effect.Effect<void> | undefined) | undefined
  readonly end: (error: Option.Option<TransportError>) => Effect.Effect<void>
}

/** Called once by the engine, with where the frames go from then on. */
export type Push = (target: PushTarget) => void

const PushKey: unique symbol = Symbol.for("@effect-mcp/mcp/Transport/push")

/**
 * A stream of the frames `push` hands over, which the engine takes through `push` itself. Read
 * as a stream (by anything else), it attaches a mailbox of its own.
 */
export const pushable = (push: Push): Stream.Stream<JsonRpc.Frame, TransportError> =>
  // the stream is made when read (never, by the engine): until then it is one small object
  Object.assign(
    Stream.suspend(() =>
      Stream.unwrapScoped(Effect.map(Mailbox.make<JsonRpc.Frame, TransportError>(), (mailbox) => {
        push({
          frames: (frames) => Effect.asVoid(mailbox.offerAll(frames)),
          framesNow: (frames) => {
            mailbox.unsafeOfferAll(frames)
            return undefined
          },
          end: (error) => Effect.asVoid(error._tag === "Some" ? mailbox.fail(error.value) : mailbox.end)
        })
        return Mailbox.toStream(mailbox)
      }))
    ),
    { [PushKey]: push }
  )

/** The push of a stream made by `pushable`, if it is one. */
export const pushOf = (incoming: Stream.Stream<JsonRpc.Frame, TransportError>): Push | undefined =>
  (incoming as { readonly [PushKey]?: Push })[PushKey]
