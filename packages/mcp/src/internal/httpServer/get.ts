/**
 * GET on the streamable HTTP endpoint: the session's standing stream, for
 * messages not related to a request (one at a time: a second is 409); or,
 * with `Last-Event-ID` and an event store, the resumption of any stream of
 * the session: what the client missed, then the live stream if it is still
 * going. A finished stream the store no longer holds in full is 410.
 */
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as EventStore from "../../EventStore.js"
import * as Answered from "../answered.js"
import type { PrincipalInfo } from "../auth/principal.js"
import type { Endpoint } from "./config.js"
import { notAllowed } from "./era2026.js"
import { isSession } from "./registry.js"
import type { Session } from "./sessions.js"
import { eventText, streamRecord } from "./sseStream.js"
import { accepts, checkVersion, type EndpointRequest, jsonRpcError, postOnly } from "./validate.js"

export const make = (endpoint: Endpoint) => {
  const { config, fleet, sessions, streams } = endpoint
  const { store } = config

  const get = (
    request: EndpointRequest,
    principal: PrincipalInfo | undefined
  ): Answered.Answer<HttpServerResponse.HttpServerResponse> => {
    const id = request.headers["mcp-session-id"]
    if (fleet === undefined || config.sessionPerRequest || id === undefined) return opened(request, principal, undefined)
    return Effect.flatMap(fleet.find(id, principal), (found) => opened(request, principal, found))
  }

  /**
   * The GET, given the session its header names (looked up in the fleet's store, or here). Done
   * as it is asked for (nothing in it waits but a resumption): the response is `Answered`, which
   * the node listener writes with no fiber.
   */
  const opened = (
    request: EndpointRequest,
    principal: PrincipalInfo | undefined,
    found: Session | HttpServerResponse.HttpServerResponse | undefined
  ): Answered.Answer<HttpServerResponse.HttpServerResponse> => {
    const headers = request.headers
    const refused2026 = notAllowed(config.server.options.eras, request.headers)
    if (refused2026 !== undefined) return Answered.now(refused2026)
    if (config.sessionPerRequest) return Answered.now(postOnly())
    if (!accepts(headers, "text/event-stream")) {
      return Answered.now(jsonRpcError(406, -32000, "Not Acceptable: Accept must include text/event-stream"))
    }
    const versionError = checkVersion(headers)
    if (versionError !== undefined) return Answered.now(versionError)
    const id = headers["mcp-session-id"]
    if (id === undefined) return Answered.now(jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required"))
    const session = found ?? sessions.registry.find(id, principal)
    if (!isSession(session)) return Answered.now(session)
    session.lastActivity = sessions.registry.now()
    const lastEventId = headers["last-event-id"]
    if (lastEventId !== undefined && store !== undefined) return resume(store, session, lastEventId)
    if (session.standing !== undefined && session.standing.sink !== undefined) {
      return Answered.now(jsonRpcError(409, -32000, "Conflict: only one standing SSE stream is allowed per session"))
    }
    const standing = session.standing ?? streams.newStream(session, "standing")
    session.standing = standing
    const backlog = standing.backlog.splice(0, standing.backlog.length)
    return Answered.now(streams.openSseNow(session, standing, backlog))
  }

  /** Resumes the stream `lastEventId` belongs to: its events after that one, then the rest if it is live. */
  const resume = (store: EventStore.EventStoreShape, session: Session, lastEventId: string) =>
    Effect.gen(function*() {
      const parsed = EventStore.parseEventId(lastEventId)
      if (Option.isNone(parsed) || !parsed.value.streamId.startsWith(`${session.id}-`)) {
        return jsonRpcError(404, -32000, "Not Found: unknown Last-Event-ID for this session")
      }
      const streamId = parsed.value.streamId
      const active = session.streams.get(streamId)
      const remote = active === undefined ? fleet?.resume(session, streamId, lastEventId) : undefined
      if (remote !== undefined) return yield* remote
      const replay = yield* store.replayAfter(session.id, lastEventId)
      // a finished stream the store no longer holds in full: say so rather than end it silently
      // (a response the store evicted has a stand-in, a JSON-RPC error with its id, in its place)
      if (active === undefined && (Option.isNone(replay) || !replay.value.complete)) {
        return jsonRpcError(410, -32000, "Gone: the events after this Last-Event-ID are no longer held")
      }
      const events = Option.isSome(replay) ? replay.value.events : []
      const replayed = events.map((e) => ({
        seq: Option.match(EventStore.parseEventId(e.id), { onNone: () => 0, onSome: (p) => p.seq }),
        text: eventText(e.id, e.data)
      }))
      if (active !== undefined) {
        // the store has everything the backlog has, in order
        active.backlog.length = 0
        return yield* streams.openSse(session, active, replayed, Effect.void, true)
      }
      // a finished stream: what it missed, then the end
      const finished = streamRecord(streamId, "post", true)
      return yield* streams.openSse(session, finished, replayed, Effect.void, true)
    })

  return get
}
