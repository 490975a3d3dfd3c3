/**
 * Where a streamable HTTP server keeps the SSE events it sent, so that a
 * client that lost a stream can reconnect with `Last-Event-ID` and get what it
 * missed, once. This is the seam a shared store (Redis, …) plugs into; any
 * implementation keeps this contract:
 *
 * - **Keys.** Events belong to a stream (`streamId`, unique in the server)
 *   of a session (`sessionId`). A stream id starts with its session id.
 * - **Ids.** `append` assigns an event id `<streamId>_<seq>`; `seq` is an
 *   integer that increases across *all* the streams of a session, so an id is
 *   never used twice within a session, whatever was dropped before (the
 *   counter lives as long as the session). The stream an id belongs to is read
 *   from the id itself (`parseEventId`). Sequence 0 is the priming event every
 *   stream opens with; it is never stored.
 * - **Ordering.** `replayAfter` returns the events of the id's stream with a
 *   greater sequence, in sequence order, the stand-ins of evicted events in
 *   their place.
 * - **What is dropped when.** A stream whose responses were all written to a
 *   connection is marked `delivered`; its events are dropped once the
 *   resumption grace period has passed since then (the next `delivered` of the
 *   same stream, after a replay, starts it again). `dropSession` drops a
 *   session's events at once, and its sequence counter. Budgets drop more,
 *   below.
 * - **Budgets.** A session holds at most `maxEventsPerSession` events and
 *   `maxBytesPerSession` bytes; all sessions together at most `maxEvents` and
 *   `maxBytes`. Bytes are counted as the length of the event's text. To stay
 *   within a budget the store drops, in order: delivered streams (oldest
 *   delivery first); then undelivered events, oldest first, of the session
 *   over its own budget — or, for the total, of the appending session when it
 *   holds at least its fair share of the total (the total divided among the
 *   sessions holding events), else of the session holding the most. So one
 *   session's traffic never evicts another session's undelivered events while
 *   that session holds less than its share. An event that is the response to
 *   a request (`answers`, its JSON-RPC id) leaves a stand-in when evicted: a
 *   JSON-RPC error response with that id (`lostAnswer`), under the event's
 *   id, so that a resumption says which answers were lost instead of ending
 *   without them. Stand-ins count in bytes only, and are evicted last. A
 *   response larger than a budget is stored as its stand-in at once.
 * - **Concurrency.** The server calls `append` for one stream from one fiber
 *   at a time, in the order the events are written; calls for different
 *   streams and sessions may interleave freely. Each operation is atomic.
 * - **Failure.** The operations have no error channel: a store that cannot
 *   be reached (over the network) dies. The server writes an event whose
 *   `append` died without an id, and the rest of that POST's stream too
 *   (the requests in flight still get their answers; the stream can no
 *   longer be resumed). 2026-07-28 requests use no store (their streams are never
 *   resumed).
 *
 * A server is given its store explicitly: the `eventStore` option of
 * `StreamableHttpServer` (and `NodeStreamableHttp`) takes `true`, the
 * `MemoryOptions` of an in-memory store, or a store; or
 * `StreamableHttpServer.layerWithEventStore` requires this module's tag, in
 * its type. No server looks for a store it was not given.
 *
 * @example
 * ```ts
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Layer from "effect/Layer"
 *
 * // bounded in-memory store: 1000 events / 16 MiB per session, 10 s of grace after delivery
 * const Endpoint = StreamableHttpServer.layer({ eventStore: { gracePeriod: "10 seconds" } })
 * // or, the store as a Layer of its own (a shared one, say), required in the endpoint's type
 * const Shared = StreamableHttpServer.layerWithEventStore().pipe(
 *   Layer.provide(EventStore.layerMemory({ gracePeriod: "10 seconds" }))
 * )
 * ```
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import * as EventIds from "./internal/eventIds.js"
import * as InternalMemory from "./internal/memoryEventStore.js"
import * as JsonRpc from "./JsonRpc.js"

/**
 * A stored event: its id and its SSE `data` (one JSON-RPC message as text).
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredEvent {
  readonly id: string
  readonly data: string
}

/**
 * An event of a stream written whole (`EventStoreShape.appendDelivered`):
 * its data, and the request it answers (as `append`'s `answers`).
 *
 * @since 0.1.0
 * @category models
 */
export interface WholeEvent {
  readonly data: string
  readonly answers?: JsonRpc.RequestId | undefined
}

/**
 * The events of a stream after a given id.
 *
 * @since 0.1.0
 * @category models
 */
export interface Replay {
  readonly streamId: string
  readonly events: ReadonlyArray<StoredEvent>
  /** False when events after the id were dropped with no stand-in left in their place. */
  readonly complete: boolean
}

/**
 * What an event store does; see the module documentation for the contract.
 *
 * @since 0.1.0
 * @category models
 */
export interface EventStoreShape {
  /**
   * Stores the next event of a stream and returns its id. `answers`: the
   * event is the response to this request; if it is evicted to stay within a
   * budget, `lostAnswer(answers)` takes its place (under the same id).
   */
  readonly append: (
    sessionId: string,
    streamId: string,
    data: string,
    answers?: JsonRpc.RequestId | undefined
  ) => Effect.Effect<string>
  /** The stream's responses were all written to a connection: drop it after the grace period. */
  readonly delivered: (sessionId: string, streamId: string) => Effect.Effect<void>
  /**
   * Optional, for a store that answers later (over the network): records a
   * stream that was written whole to its connection and read (its priming
   * event, then these events without ids), off the caller's path, as
   * `append` of each event and then `delivered` would. A resumption from the
   * priming id within the grace period replays them, with their ids. Without
   * it, the server appends each event (and writes its id) before answering.
   */
  readonly appendDelivered?:
    | ((sessionId: string, streamId: string, events: ReadonlyArray<WholeEvent>) => Effect.Effect<void>)
    | undefined
  /** The events of the id's stream after that id, oldest first; none when the store holds nothing of that stream. */
  readonly replayAfter: (sessionId: string, lastEventId: string) => Effect.Effect<Option.Option<Replay>>
  /** Forgets everything of a session (it ended). */
  readonly dropSession: (sessionId: string) => Effect.Effect<void>
}

/**
 * An event store as a service: what `StreamableHttpServer.layerWithEventStore`
 * requires. Nothing reads it unless its type says so.
 *
 * @since 0.1.0
 * @category tags
 */
export class EventStore extends Context.Service<EventStore, EventStoreShape>()("@effect-mcp/mcp/EventStore") {}

/**
 * The id of the priming event that opens a stream.
 *
 * @since 0.1.0
 * @category ids
 */
export const primingId: (streamId: string) => string = EventIds.primingId

/**
 * The stand-in of an evicted response: a JSON-RPC error response with the
 * request's id, saying that the answer was lost.
 *
 * @since 0.1.0
 * @category ids
 */
export const lostAnswer: (id: JsonRpc.RequestId) => string = EventIds.lostAnswer

/**
 * Splits an event id into its stream and sequence.
 *
 * @since 0.1.0
 * @category ids
 */
export const parseEventId: (
  eventId: string
) => Option.Option<{ readonly streamId: string; readonly seq: number }> = EventIds.parseEventId

/**
 * Budgets and grace period of the in-memory store.
 *
 * @since 0.1.0
 * @category models
 */
export interface MemoryOptions {
  /** Events held per session (default 1000). */
  readonly maxEventsPerSession?: number | undefined
  /** Bytes held per session (default 16 MiB). */
  readonly maxBytesPerSession?: number | undefined
  /** Events held in all (default 100 000). */
  readonly maxEvents?: number | undefined
  /** Bytes held in all (default 128 MiB). */
  readonly maxBytes?: number | undefined
  /** How long a delivered stream stays resumable (default 10 seconds). */
  readonly gracePeriod?: Duration.Input | undefined
}


/**
 * What the in-memory store holds now.
 *
 * @since 0.1.0
 * @category models
 */
export interface Usage {
  /** Events held (stand-ins are not counted here, only in bytes). */
  readonly events: number
  readonly bytes: number
  /** Streams held, delivered or not. */
  readonly streams: number
  /** Sessions with a sequence counter (every session appended to and not dropped). */
  readonly sessions: number
}

/**
 * The in-memory store: an `EventStoreShape` that also tells what it holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface MemoryEventStore extends EventStoreShape {
  readonly usage: Effect.Effect<Usage>
}

/**
 * A bounded in-memory store; its sweeper (dropping delivered streams after
 * the grace period) runs in the scope.
 *
 * @example
 * ```ts
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const store = yield* EventStore.makeMemory()
 *   const first = yield* store.append("session-1", "s1", '{"jsonrpc":"2.0","method":"a"}')
 *   yield* store.append("session-1", "s1", '{"jsonrpc":"2.0","method":"b"}')
 *   return yield* store.replayAfter("session-1", first) // the "b" event
 * }))
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (options?: MemoryOptions): Effect.Effect<MemoryEventStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const clock = yield* Clock.Clock
    const store = InternalMemory.make(options, () => clock.currentTimeMillisUnsafe())
    const graceMs = Duration.toMillis(options?.gracePeriod ?? Duration.seconds(10))
    yield* Effect.forkScoped(
      Effect.forever(Effect.andThen(Effect.sleep(Duration.millis(Math.max(10, graceMs / 2))), Effect.sync(store.sweep)))
    )
    return store.shape
  })

/**
 * The bounded in-memory store as a Layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options?: MemoryOptions): Layer.Layer<EventStore> =>
  Layer.effect(EventStore, makeMemory(options))
