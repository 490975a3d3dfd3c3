/**
 * The session a streamable HTTP client holds: the `Mcp-Session-Id` the server
 * gave, the protocol version the engine negotiated (sent back as
 * `MCP-Protocol-Version`), whether the server forgot it (HTTP 404), and the
 * generation that each new session bumps so that stale event ids are
 * recognised. Re-initialization is the engine's: this only notes the loss,
 * signals it, and adopts the session the engine's next `initialize` opens.
 * One small state object, written only through the functions here; read on
 * every exchange, so plain fields rather than `Ref`s (no effect on the
 * per-call path).
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { TransportError } from "../../McpError.js"

export interface HttpSession {
  /** `Mcp-Session-Id`, once the server gave one. */
  readonly id: string | undefined
  /** The negotiated protocol version, once the engine told it. */
  readonly protocolVersion: string | undefined
  /** Whether a session was ever established (a later 4xx on initialize is no legacy server). */
  readonly initialized: boolean
  /** Whether the server forgot the session and the engine has not initialized a new one yet. */
  readonly lost: boolean
  /** Bumped by every new session: cursors of an older one are stale. */
  readonly generation: number
}

interface State {
  id: string | undefined
  protocolVersion: string | undefined
  initialized: boolean
  lost: boolean
  generation: number
  /** Told of each loss noticed outside any call (`listen`): the engine's. */
  listener: (() => void) | undefined
  /** A loss was signalled before a listener was given (one pending signal is enough). */
  missed: boolean
  /**
   * Completed when a new session is initialized (`notifications/initialized` went out); made when
   * first awaited (after a loss), not per session: a Deferred is a large object
   */
  renewed: Deferred.Deferred<void> | undefined
}

export const unsafeMake = (): HttpSession => {
  const state: State = {
    id: undefined,
    protocolVersion: undefined,
    initialized: false,
    lost: false,
    generation: 0,
    listener: undefined,
    missed: false,
    renewed: undefined
  }
  return state
}

export const make: Effect.Effect<HttpSession> = Effect.sync(unsafeMake)

const state = (session: HttpSession): State => session as State

/** The headers of an exchange in the session. */
export const headers = (
  session: HttpSession,
  user: Readonly<Record<string, string>>
): Record<string, string> => {
  const out: Record<string, string> = { ...user }
  if (session.id !== undefined) out["mcp-session-id"] = session.id
  if (session.protocolVersion !== undefined) out["mcp-protocol-version"] = session.protocolVersion
  return out
}

/**
 * The answer to an initialize POST: its session id is the new session (a new
 * generation when it replaces one); a successful answer ends a loss even
 * without one (a server that keeps no sessions any more).
 */
export const adopt = (session: HttpSession, sid: string | undefined, ok: boolean): void => {
  const s = state(session)
  const given = sid !== undefined && sid !== ""
  if (!given && !(ok && s.lost)) return
  if (s.id !== undefined || s.lost) s.generation++
  if (given) s.id = sid
  s.lost = false
}

/** The engine negotiated `version`: the session is established. */
export const negotiated = (session: HttpSession, version: string): void => {
  state(session).protocolVersion = version
  state(session).initialized = true
}

/** `notifications/initialized` went out: whoever waits for the new session may go on. */
export const initialized = (session: HttpSession): void => {
  const s = state(session)
  if (s.renewed === undefined) return
  Deferred.doneUnsafe(s.renewed, Exit.void)
  s.renewed = undefined
}

/** Completes once the next session is initialized. */
export const renewed = (session: HttpSession): Effect.Effect<void> =>
  Effect.suspend(() => {
    const s = state(session)
    if (s.renewed === undefined) s.renewed = Deferred.makeUnsafe<void>()
    return Deferred.await(s.renewed)
  })

/**
 * The server answered 404 to an exchange that carried session `sent`: unless
 * a newer session replaced it meanwhile, the session is lost (and gets no
 * DELETE). `signal`: tell the engine, which is not waiting on a call.
 */
export const lose = (session: HttpSession, sent: string | undefined, signal: boolean): void => {
  const s = state(session)
  if (sent === undefined || s.id !== sent) return
  s.id = undefined
  s.lost = true
  if (signal) signalLoss(session)
}

/** Tells the engine of a loss: its listener, or the listener it gives later. */
export const signalLoss = (session: HttpSession): void => {
  const s = state(session)
  if (s.listener !== undefined) return s.listener()
  s.missed = true
}

/** The engine's callback for losses (`ListenedLoss.listen`, `client/sessionRecovery`); a loss signalled before is told at once. */
export const listen = (session: HttpSession, onLoss: () => void): void => {
  const s = state(session)
  s.listener = onLoss
  if (s.missed) {
    s.missed = false
    onLoss()
  }
}

/** The session is gone and will not come back (re-initialization disabled): no DELETE for it. */
export const forget = (session: HttpSession): void => {
  state(session).id = undefined
}

/** The failure of a message the server refused for a lost session: not processed, the engine may send it again. */
export const sessionLostError = (): TransportError =>
  new TransportError({ reason: "SessionLost", status: 404, message: "Session not found (HTTP 404)" })

/** A 404 when re-initialization is disabled: the transport is over. */
export const sessionEndedError = (): TransportError =>
  new TransportError({
    reason: "Closed",
    status: 404,
    message: "The server ended the session (HTTP 404) and re-initialization is disabled"
  })
