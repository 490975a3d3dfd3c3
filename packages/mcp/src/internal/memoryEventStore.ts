/**
 * The bounded in-memory `EventStore` (`EventStore.makeMemory` runs it, with
 * its sweeper, on the Clock): the budgets and eviction order the
 * `EventStore` module documents.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MemoryEventStore, MemoryOptions, StoredEvent } from "../EventStore.js"
import type * as JsonRpc from "../JsonRpc.js"
import { lostAnswer, parseEventId } from "./eventIds.js"
import * as EventStoreSync from "./eventStoreSync.js"

interface Entry {
  readonly seq: number
  data: string
  /** The request it answers: a stand-in replaces it when evicted. Undefined once it is a stand-in (or when it answers none). */
  answers: JsonRpc.RequestId | undefined
}

interface StreamRec {
  readonly id: string
  readonly session: SessionRec
  /** In sequence order: `[0, realStart)` are stand-ins, the rest real events. */
  readonly entries: Array<Entry>
  realStart: number
  /** Events after some sequence were dropped with no stand-in: a replay from before it is incomplete. */
  gapBefore: number
  deliveredAt: number | undefined
}

interface SessionRec {
  readonly id: string
  nextSeq: number
  events: number
  bytes: number
  readonly streams: Map<string, StreamRec>
}


const MiB = 1024 * 1024

/** The store over `now`, and its sweep (dropping the delivered streams whose grace period passed). */
export const make = (options: MemoryOptions | undefined, now: () => number) => {
  const perSessionEvents = options?.maxEventsPerSession ?? 1000
  const perSessionBytes = options?.maxBytesPerSession ?? 16 * MiB
  const totalEvents = options?.maxEvents ?? 100_000
  const totalBytes = options?.maxBytes ?? 128 * MiB
  const graceMs = Duration.toMillis(options?.gracePeriod ?? Duration.seconds(10))
  const sessions = new Map<string, SessionRec>()
  /** Delivered streams, oldest delivery first. */
  const delivered = new Set<StreamRec>()
  let events = 0
  let bytes = 0
  /** Sessions holding at least one event. */
  let holding = 0

  /** Events count real events; stand-ins count in bytes only (they are what is left of an event). */
  const account = (session: SessionRec, dEvents: number, dBytes: number) => {
    const held = session.bytes > 0
    session.events += dEvents
    session.bytes += dBytes
    events += dEvents
    bytes += dBytes
    if (!held && session.bytes > 0) holding++
    else if (held && session.bytes === 0) holding--
  }

  const dropStream = (stream: StreamRec) => {
    let n = 0
    for (const e of stream.entries) n += e.data.length
    account(stream.session, -(stream.entries.length - stream.realStart), -n)
    stream.entries.length = 0
    stream.session.streams.delete(stream.id)
    delivered.delete(stream)
  }

  const forget = (stream: StreamRec) => {
    stream.session.streams.delete(stream.id)
    delivered.delete(stream)
  }

  /** Evicts the session's oldest undelivered event (stand-ins last); false when it holds none. */
  const evictOne = (session: SessionRec): boolean => {
    let oldest: StreamRec | undefined
    for (const stream of session.streams.values()) {
      if (stream.realStart < stream.entries.length) {
        if (oldest === undefined || stream.entries[stream.realStart]!.seq < oldest.entries[oldest.realStart]!.seq) {
          oldest = stream
        }
      }
    }
    if (oldest !== undefined) {
      const entry = oldest.entries[oldest.realStart]!
      if (entry.answers !== undefined) {
        const standIn = lostAnswer(entry.answers)
        account(session, -1, standIn.length - entry.data.length)
        entry.data = standIn
        entry.answers = undefined
        oldest.realStart++
      } else {
        account(session, -1, -entry.data.length)
        oldest.entries.splice(oldest.realStart, 1)
        oldest.gapBefore = Math.max(oldest.gapBefore, entry.seq)
      }
      if (oldest.entries.length === 0) forget(oldest)
      return true
    }
    for (const stream of session.streams.values()) {
      if (stream.realStart > 0) {
        const entry = stream.entries.shift()!
        stream.realStart--
        stream.gapBefore = Math.max(stream.gapBefore, entry.seq)
        account(session, 0, -entry.data.length)
        if (stream.entries.length === 0) forget(stream)
        return true
      }
    }
    return false
  }

  const firstDelivered = (session: SessionRec): StreamRec | undefined => {
    for (const stream of session.streams.values()) if (stream.deliveredAt !== undefined) return stream
    return undefined
  }

  const fitSession = (session: SessionRec) => {
    while (session.events > perSessionEvents || session.bytes > perSessionBytes) {
      const done = firstDelivered(session)
      if (done !== undefined) dropStream(done)
      else if (!evictOne(session)) return
    }
  }

  const largest = (byBytes: boolean): SessionRec | undefined => {
    let most: SessionRec | undefined
    for (const s of sessions.values()) {
      if (most === undefined || (byBytes ? s.bytes > most.bytes : s.events > most.events)) most = s
    }
    return most
  }

  const fitTotal = (appender: SessionRec) => {
    while (events > totalEvents || bytes > totalBytes) {
      const done = delivered.values().next()
      if (!done.done) {
        dropStream(done.value)
        continue
      }
      const byBytes = bytes > totalBytes
      const share = byBytes ? totalBytes / Math.max(1, holding) : totalEvents / Math.max(1, holding)
      const own = byBytes ? appender.bytes : appender.events
      const victim = own >= share ? appender : largest(byBytes)
      if (victim === undefined || !evictOne(victim)) return
    }
  }

  const sessionOf = (sessionId: string): SessionRec => {
    let session = sessions.get(sessionId)
    if (session === undefined) {
      session = { id: sessionId, nextSeq: 1, events: 0, bytes: 0, streams: new Map() }
      sessions.set(sessionId, session)
    }
    return session
  }

  const append = (sessionId: string, streamId: string, data: string, answers?: JsonRpc.RequestId | undefined): string => {
    const session = sessionOf(sessionId)
    let stream = session.streams.get(streamId)
    if (stream === undefined) {
      stream = { id: streamId, session, entries: [], realStart: 0, gapBefore: 0, deliveredAt: undefined }
      session.streams.set(streamId, stream)
    }
    const seq = session.nextSeq++
    // an event larger than a budget is its stand-in from the start
    const tooLarge = data.length > perSessionBytes || data.length > totalBytes
    const text = !tooLarge ? data : answers === undefined ? undefined : lostAnswer(answers)
    if (text === undefined) {
      stream.gapBefore = seq
      if (stream.entries.length === 0) forget(stream)
    } else {
      stream.entries.push({ seq, data: text, answers })
      account(session, 1, text.length)
      fitSession(session)
      fitTotal(session)
    }
    return `${streamId}_${seq}`
  }

  const markDelivered = (sessionId: string, streamId: string): void => {
    const stream = sessions.get(sessionId)?.streams.get(streamId)
    if (stream === undefined) return
    stream.deliveredAt = now()
    // re-inserted: the set stays in delivery order
    delivered.delete(stream)
    delivered.add(stream)
  }

  const shape: MemoryEventStore = {
    usage: Effect.sync(() => {
      let streams = 0
      for (const session of sessions.values()) streams += session.streams.size
      return { events, bytes, streams, sessions: sessions.size }
    }),
    append: (sessionId, streamId, data, answers) => Effect.sync(() => append(sessionId, streamId, data, answers)),
    delivered: (sessionId, streamId) => Effect.sync(() => markDelivered(sessionId, streamId)),
    replayAfter: (sessionId, lastEventId) =>
      Effect.sync(() =>
        Option.flatMap(parseEventId(lastEventId), ({ seq, streamId }) => {
          const stream = sessions.get(sessionId)?.streams.get(streamId)
          if (stream === undefined) return Option.none()
          const events: Array<StoredEvent> = []
          for (const e of stream.entries) if (e.seq > seq) events.push({ id: `${streamId}_${e.seq}`, data: e.data })
          return Option.some({ streamId, events, complete: stream.gapBefore <= seq })
        })
      ),
    dropSession: (sessionId) =>
      Effect.sync(() => {
        const session = sessions.get(sessionId)
        if (session === undefined) return
        for (const stream of Array.from(session.streams.values())) dropStream(stream)
        sessions.delete(sessionId)
      })
  }

  /** Drops the delivered streams whose grace period has passed. */
  const sweep = () => {
    const deadline = now() - graceMs
    for (const stream of delivered) {
      if (stream.deliveredAt! > deadline) break
      dropStream(stream)
    }
  }

  // the streamable HTTP server calls these directly on every SSE answer (see `internal/eventStoreSync`)
  return { shape: EventStoreSync.withSync(shape, { append, delivered: markDelivered }), sweep }
}
