/**
 * The sessions of an HTTP server, as both the streamable and the legacy
 * HTTP+SSE servers keep them: random ids, lookup by id for the principal
 * that owns the session, a maximum count, the idle sweep (on the Clock, so a
 * TestClock drives it; the SSE keep-alive tickers are `sseStream`'s and
 * `LegacySseServer`'s), and the closing of
 * every session when the server's scope ends. What a session holds, and how
 * it is opened and closed, is each server's own.
 */
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { PrincipalInfo } from "../auth/principal.js"
import type { McpAuthShape } from "../auth/service.js"
import { jsonRpcError } from "./validate.js"

/** What the registry reads of a session. */
export interface Entry {
  readonly id: string
  /** The Clock's milliseconds at the session's latest activity. */
  lastActivity: number
  /** With `McpAuth`: who created the session (its owner), as of their latest request. */
  principal: PrincipalInfo | undefined
}

export interface Registry<S extends Entry> {
  /** Every session not closed yet, addressable or not (a per-request POST's session is not). */
  readonly open: Set<S>
  /** The sessions a request may name, by id. */
  readonly byId: Map<string, S>
  /** The Clock's time, in milliseconds. */
  readonly now: () => number
  readonly add: (session: S, addressable: boolean) => void
  readonly remove: (session: S) => void
  /** One more session would be over the maximum. */
  readonly full: () => boolean
  /** The session `id` names, if the principal owns it; else the 404 (another's session is not theirs to know of). */
  readonly find: (id: string, principal: PrincipalInfo | undefined) => S | HttpServerResponse.HttpServerResponse
}

export interface Options<S extends Entry> {
  readonly maxSessions: number
  /** A session idle this long (and `isIdle`) is closed by the sweep; infinite: no sweep. */
  readonly idleMs: number
  readonly auth: McpAuthShape | undefined
  /** Whether nothing of the session is in use, beyond its `lastActivity` (default: always). */
  readonly isIdle?: ((session: S) => boolean) | undefined
  /** Closes a session: the sweep's and the scope's end. It removes the session from the registry. */
  readonly close: (session: S) => Effect.Effect<void>
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"))

/**
 * Random bytes for 256 ids, drawn at once: one `getRandomValues` call costs about as much for
 * 4 KiB as for 16 bytes (~4% of a fresh server's CPU opening 500 sessions went to it). Each
 * id's bytes are used once.
 */
const pool = new Uint8Array(16 * 256)
let drawn = pool.length

/** 128 random bits, hex. */
export const randomSessionId = (): string => {
  if (drawn === pool.length) {
    crypto.getRandomValues(pool)
    drawn = 0
  }
  let id = ""
  for (let i = drawn; i < drawn + 16; i++) id += HEX[pool[i]!]
  drawn += 16
  return id
}

export const isSession = <S extends Entry>(u: S | HttpServerResponse.HttpServerResponse): u is S => "lastActivity" in u

/** Runs `tick` every `interval` on the Clock, for the life of the scope. */
export const every = (interval: Duration.Input, tick: Effect.Effect<void>): Effect.Effect<void, never, Scope.Scope> =>
  Effect.asVoid(Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(interval), tick))))

/** The registry; the idle sweep runs, and every session is closed when the scope ends. */
export const make = <S extends Entry>(options: Options<S>): Effect.Effect<Registry<S>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const clock = yield* Clock.Clock
    const now = () => clock.currentTimeMillisUnsafe()
    const open = new Set<S>()
    const byId = new Map<string, S>()
    const { auth, idleMs, isIdle } = options
    const registry: Registry<S> = {
      open,
      byId,
      now,
      add: (session, addressable) => {
        open.add(session)
        if (addressable) byId.set(session.id, session)
      },
      remove: (session) => {
        open.delete(session)
        if (byId.get(session.id) === session) byId.delete(session.id)
      },
      full: () => byId.size >= options.maxSessions,
      find: (id, principal) => {
        const session = byId.get(id)
        if (session === undefined || (auth !== undefined && !auth.sameOwner(session.principal, principal))) {
          return jsonRpcError(404, -32001, "Session not found")
        }
        return session
      }
    }
    if (Number.isFinite(idleMs)) {
      yield* every(
        Duration.millis(Math.max(10, Math.min(idleMs / 2, 60_000))),
        Effect.suspend(() => {
          const at = now()
          const idle = Array.from(open).filter((s) => at - s.lastActivity >= idleMs && (isIdle === undefined || isIdle(s)))
          return Effect.forEach(idle, options.close, { discard: true })
        })
      )
    }
    yield* Effect.addFinalizer(() => Effect.forEach(Array.from(open), options.close, { discard: true }))
    return registry
  })
