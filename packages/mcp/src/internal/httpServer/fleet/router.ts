/**
 * The fleet's messages, both ways. Out: of a POST's messages, the answer to
 * a reverse call goes to the instance whose id prefixes it,
 * `notifications/cancelled` to all (the request may run on any of them); the
 * server's announcements go to all. In: each `FleetMessage` to what it is
 * for here (a session's engine, its standing stream, its replica's state, a
 * resumed stream), dropped when this instance holds nothing it is for.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as JsonRpc from "../../../JsonRpc.js"
import type { Announcement } from "../../../McpServer.js"
import type { FleetMessage, SessionStoreError, SessionStoreShape } from "../../../SessionStore.js"
import type { Config } from "../config.js"
import type { Session, Sessions } from "../sessions.js"
import type { Streams } from "../sseStream.js"
import type { Proxies } from "./proxies.js"
import { apply, type Records } from "./records.js"

type Messages = ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>
type ForSession = Extract<FleetMessage, { readonly _tag: "Incoming" | "Standing" | "State" | "Ended" | "Attach" }>

export interface Router {
  /** The messages of a POST this instance handles itself; the others are sent where they are awaited. */
  readonly incoming: (session: Session, messages: Messages) => Effect.Effect<Messages, SessionStoreError>
}

/**
 * Whether `incoming` has anything to do with a POST's messages (a response, which may be awaited
 * elsewhere; `notifications/cancelled`, for all; `notifications/initialized`, a state change);
 * the usual POST, requests only, is handled here as it came.
 */
export const routed = (messages: Messages): boolean => {
  for (const m of messages) {
    if (JsonRpc.isResponse(m)) return true
    if (JsonRpc.isNotification(m) && (m.method === "notifications/cancelled" || m.method === "notifications/initialized")) return true
  }
  return false
}

/** The instance a reverse call's id names (`<instance>:<n>`). */
const waiterOf = (id: JsonRpc.RequestId | null): string | undefined => {
  if (typeof id !== "string") return undefined
  const at = id.lastIndexOf(":")
  return at <= 0 ? undefined : id.slice(0, at)
}

interface Ctx {
  readonly store: SessionStoreShape
  readonly sessions: Sessions
  readonly streams: Streams
  readonly records: Records
  readonly proxies: Proxies
  /** Delivers an announcement to what this instance holds. */
  readonly deliver: (announcement: Announcement) => Effect.Effect<void>
  /** The digest of each list's latest change told here. */
  readonly lastDigest: Map<string, string>
}

/**
 * The router of one instance: the server's announcements go to every instance (this one
 * included), each delivering to what it holds (the standing and listen streams of its sessions);
 * this instance's messages are received for the life of the scope.
 */
export const make = (
  config: Config,
  store: SessionStoreShape,
  parts: { readonly sessions: Sessions; readonly streams: Streams; readonly records: Records; readonly proxies: Proxies }
): Effect.Effect<Router, never, Scope.Scope> =>
  Effect.gen(function*() {
    const deliver: (announcement: Announcement) => Effect.Effect<void> = yield* config.server.relay((announcement) =>
      store.publish(undefined, announcement).pipe(
        Effect.catch((e) =>
          Effect.andThen(
            Effect.logWarning(`an announcement reaches this instance's sessions only: ${e.message}`),
            deliver(announcement)
          )
        )
      )
    )
    const ctx: Ctx = { ...parts, store, deliver, lastDigest: new Map() }
    yield* store.subscribe((message) => received(ctx, message))
    return { incoming: (session, messages) => incoming(ctx, session, messages) }
  })

const incoming = ({ records, store }: Ctx, session: Session, messages: Messages): Effect.Effect<Messages, SessionStoreError> =>
  Effect.gen(function*() {
    const here: Array<JsonRpc.Message | JsonRpc.Invalid> = []
    for (const m of messages) {
      if (JsonRpc.isResponse(m)) {
        const waiter = waiterOf(m.id)
        if (waiter !== undefined && waiter !== store.instanceId) {
          yield* store.publish(waiter, { _tag: "Incoming", sessionId: session.id, message: m })
          continue
        }
      } else if (JsonRpc.isNotification(m)) {
        if (m.method === "notifications/cancelled") {
          // the request may run on any instance: all of them hear it (this one included)
          yield* store.publish(undefined, { _tag: "Incoming", sessionId: session.id, message: m })
          continue
        }
        if (m.method === "notifications/initialized" && session.state !== undefined) {
          session.state.write({ ...session.state.read(), initialized: true })
          yield* records.save(session)
        }
      }
      here.push(m)
    }
    return here
  })

/** What another instance (or this one) sent. */
const received = (ctx: Ctx, message: FleetMessage): Effect.Effect<void> =>
  Effect.suspend(() => {
    switch (message._tag) {
      case "ResourceUpdated":
        return ctx.deliver(message)
      case "ListChanged": {
        // the same change made on several instances (a feature added on each) is told once
        if (ctx.lastDigest.get(message.kind) === message.digest) return Effect.void
        ctx.lastDigest.set(message.kind, message.digest)
        return ctx.deliver(message)
      }
      case "StreamEvent":
        return ctx.proxies.event(message)
      default: {
        const session = ctx.sessions.registry.byId.get(message.sessionId)
        return session === undefined || session.closed ? Effect.void : toSession(ctx, session, message)
      }
    }
  })

/** A message for a session held here. */
const toSession = (ctx: Ctx, session: Session, message: ForSession): Effect.Effect<void> => {
  switch (message._tag) {
    case "Incoming":
      session.inbox.offer(message.message)
      return session.inbox.drain()
    case "Standing": {
      const standing = session.standing
      return standing?.sink === undefined ? Effect.void : ctx.streams.deliver(session, standing, message.message)
    }
    case "State":
      apply(session, message.record)
      return Effect.void
    case "Ended":
      return ctx.sessions.close(session, true)
    case "Attach":
      return ctx.proxies.attached(session, message.streamId, message.instance)
  }
}
