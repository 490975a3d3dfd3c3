/**
 * Where a streamable HTTP server keeps the SSE events it sent, so that a
 * client that lost a stream can reconnect with `Last-Event-ID` and get
 * exactly what it missed, once.
 *
 * Event ids are `<streamId>_<sequence>`: unique across the session's streams,
 * and the stream an id belongs to is read from the id itself. Sequence 0 is
 * the priming event every stream starts with; it is never stored.
 *
 * @example
 * ```ts
 * import * as EventStore from "@effect-mcp/mcp/EventStore"
 * import * as Layer from "effect/Layer"
 *
 * // bounded in-memory store: 1000 events per stream, 10 000 streams
 * const StoreLive: Layer.Layer<EventStore.EventStore> = EventStore.layerMemory()
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

/** A stored event: its id and its SSE `data` (one JSON-RPC message as text). */
export interface StoredEvent {
  readonly id: string
  readonly data: string
}

export interface EventStoreShape {
  /** Stores the next event of a stream and returns its id. */
  readonly append: (streamId: string, data: string) => Effect.Effect<string>
  /** The events of the id's stream after that id, oldest first; none when the stream is unknown. */
  readonly replayAfter: (
    lastEventId: string
  ) => Effect.Effect<Option.Option<{ readonly streamId: string; readonly events: ReadonlyArray<StoredEvent> }>>
  /** Forgets a stream (its session ended). */
  readonly drop: (streamId: string) => Effect.Effect<void>
}

/** The event store of a streamable HTTP server. */
export class EventStore extends Context.Tag("@effect-mcp/mcp/EventStore")<EventStore, EventStoreShape>() {}

/** The id of the priming event that opens a stream. */
export const primingId = (streamId: string): string => `${streamId}_0`

/** Splits an event id into its stream and sequence. */
export const parseEventId = (eventId: string): Option.Option<{ readonly streamId: string; readonly seq: number }> => {
  const at = eventId.lastIndexOf("_")
  if (at <= 0) return Option.none()
  const seq = Number(eventId.slice(at + 1))
  return Number.isInteger(seq) && seq >= 0 ? Option.some({ streamId: eventId.slice(0, at), seq }) : Option.none()
}

export interface MemoryOptions {
  /** Events kept per stream; older ones are forgotten (default 1000). */
  readonly maxEventsPerStream?: number | undefined
  /** Streams kept; the least recently written is forgotten first (default 10 000). */
  readonly maxStreams?: number | undefined
}

interface Buffer {
  next: number
  readonly events: Array<{ readonly seq: number; readonly data: string }>
}

/** A bounded in-memory store. */
export const makeMemory = (options?: MemoryOptions): EventStoreShape => {
  const maxEvents = options?.maxEventsPerStream ?? 1000
  const maxStreams = options?.maxStreams ?? 10_000
  // a Map iterates in insertion order: re-inserting on write keeps it least-recently-written first
  const streams = new Map<string, Buffer>()
  return {
    append: (streamId, data) =>
      Effect.sync(() => {
        let buffer = streams.get(streamId)
        if (buffer === undefined) {
          buffer = { next: 1, events: [] }
        } else {
          streams.delete(streamId)
        }
        streams.set(streamId, buffer)
        if (streams.size > maxStreams) {
          const oldest = streams.keys().next().value
          if (oldest !== undefined) streams.delete(oldest)
        }
        const seq = buffer.next++
        buffer.events.push({ seq, data })
        if (buffer.events.length > maxEvents) buffer.events.splice(0, buffer.events.length - maxEvents)
        return `${streamId}_${seq}`
      }),
    replayAfter: (lastEventId) =>
      Effect.sync(() =>
        Option.flatMap(parseEventId(lastEventId), ({ seq, streamId }) => {
          const buffer = streams.get(streamId)
          if (buffer === undefined) return seq === 0 ? Option.some({ streamId, events: [] }) : Option.none()
          return Option.some({
            streamId,
            events: buffer.events.filter((e) => e.seq > seq).map((e) => ({ id: `${streamId}_${e.seq}`, data: e.data }))
          })
        })
      ),
    drop: (streamId) =>
      Effect.sync(() => {
        streams.delete(streamId)
      })
  }
}

/** The bounded in-memory store as a Layer. */
export const layerMemory = (options?: MemoryOptions): Layer.Layer<EventStore> =>
  Layer.sync(EventStore, () => makeMemory(options))
