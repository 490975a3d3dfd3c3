/**
 * The session a streamable HTTP client holds: the `Mcp-Session-Id` the server
 * gave, the protocol version the initialize result fixed (sent back as
 * `MCP-Protocol-Version`), and the generation that a re-initialization bumps
 * so that stale event ids and 404s are recognised. One small state object,
 * written only through the functions here; read on every exchange, so plain
 * fields rather than `Ref`s (no effect on the per-call path).
 * @internal
 */
import * as JsonRpc from "../JsonRpc.js"

export interface HttpSession {
  /** `Mcp-Session-Id`, once the server gave one. */
  readonly id: string | undefined
  /** The negotiated protocol version, once the initialize result passed through. */
  readonly protocolVersion: string | undefined
  /** Whether a session was ever established (a later 4xx on initialize is no legacy server). */
  readonly initialized: boolean
  /** Bumped by every re-initialization: cursors and 404s of an older one are stale. */
  readonly generation: number
  /** The engine's initialize request, replayed when the session is lost. */
  readonly initializeRequest: JsonRpc.Request | undefined
}

interface State {
  id: string | undefined
  protocolVersion: string | undefined
  initialized: boolean
  generation: number
  initializeRequest: JsonRpc.Request | undefined
  /** Ids of initialize requests whose result has not passed yet. */
  readonly initializeIds: Set<JsonRpc.RequestId>
}

export const make = (): HttpSession => {
  const state: State = {
    id: undefined,
    protocolVersion: undefined,
    initialized: false,
    generation: 0,
    initializeRequest: undefined,
    initializeIds: new Set()
  }
  return state
}

const state = (session: HttpSession): State => session as State

/** The headers of an exchange in the session (`sid` overrides the current id, for a new session's first notification). */
export const headers = (
  session: HttpSession,
  user: Readonly<Record<string, string>>,
  sid: string | undefined = session.id
): Record<string, string> => {
  const out: Record<string, string> = { ...user }
  if (sid !== undefined) out["mcp-session-id"] = sid
  if (session.protocolVersion !== undefined) out["mcp-protocol-version"] = session.protocolVersion
  return out
}

/** The engine sends `initialize`: keep it for replay, and watch for its result. */
export const initializing = (session: HttpSession, request: JsonRpc.Request): void => {
  state(session).initializeRequest = request
  state(session).initializeIds.add(request.id)
}

/** The session id of an initialize answer. */
export const adopt = (session: HttpSession, sid: string | undefined): void => {
  if (sid !== undefined && sid !== "") state(session).id = sid
}

/** A response passes through: the initialize result fixes the protocol version. */
export const observe = (session: HttpSession, response: JsonRpc.Response): void => {
  const s = state(session)
  if (response.id === null || s.initializeIds.size === 0 || !s.initializeIds.delete(response.id)) return
  if ("result" in response) {
    const version = response.result.protocolVersion
    if (typeof version === "string") s.protocolVersion = version
    s.initialized = true
  }
}

/** A re-initialization established session `sid`. */
export const renew = (session: HttpSession, sid: string | undefined): void => {
  state(session).id = sid
  state(session).generation++
}

/** The session is gone (no DELETE for it). */
export const forget = (session: HttpSession): void => {
  state(session).id = undefined
}
