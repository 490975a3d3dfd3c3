/**
 * What a server announces to many sessions at once (a resource updated, a
 * list changed), and where it goes: straight to the sessions and
 * `subscriptions/listen` streams of this process; or, while a relay is
 * installed (a fleet's: the streamable HTTP server with a `SessionStore`), to
 * the relay, which hands each announcement to the delivery of every instance,
 * this one included. A list change carries a digest of the list after it, so
 * that instances making the same change (a feature added on every instance)
 * can be told apart from one making a change of its own.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { digestOf } from "../digest.js"
import type { ListKind, Registry } from "./registry.js"
import type { Sessions } from "./sessions.js"

/** An announcement to the sessions of a server. */
export type Announcement =
  | { readonly _tag: "ResourceUpdated"; readonly uri: string }
  | { readonly _tag: "ListChanged"; readonly kind: ListKind; readonly digest: string }

export type Send = (announcement: Announcement) => Effect.Effect<void>

export interface Announcer {
  /** A list changed here (the registry's callback). */
  readonly listChanged: (kind: ListKind) => Effect.Effect<void>
  /** `McpServer.notifyResourceUpdated`. */
  readonly resourceUpdated: (uri: string) => Effect.Effect<void>
  /** Sends the announcements to `send` for the life of the scope; returns the local delivery. */
  readonly relay: (send: Send) => Effect.Effect<Send, never, Scope.Scope>
  /** Whether a relay is installed: the server is one instance of a fleet. */
  readonly relayed: () => boolean
}

/** The definitions of a list, by key: the same features give the same digest on every instance. */
const listDigest = (registry: Registry, kind: ListKind): string => {
  const entries: Array<readonly [string, unknown]> = []
  const add = (map: ReadonlyMap<string, { readonly feature: { readonly definition: unknown } }>) => {
    for (const [key, entry] of map) entries.push([key, entry.feature.definition])
  }
  if (kind === "tools") add(registry.tools)
  else if (kind === "prompts") add(registry.prompts)
  else {
    add(registry.resources)
    add(registry.templates)
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return digestOf(JSON.stringify(entries))
}

export const make = (sessions: Sessions, registry: () => Effect.Effect<Registry>): Announcer => {
  // the relays installed, the latest in use: endpoints sharing this server (a fleet of them in
  // one process) would otherwise each deliver what every one of them receives
  const relays: Array<Send> = []
  const deliver: Send = (a) => a._tag === "ResourceUpdated" ? sessions.resourceUpdated(a.uri) : sessions.listChanged(a.kind)
  return {
    listChanged: (kind) =>
      Effect.suspend(() => {
        const send = relays.at(-1)
        return send === undefined
          ? sessions.listChanged(kind)
          : Effect.flatMap(registry(), (r) => send({ _tag: "ListChanged", kind, digest: listDigest(r, kind) }))
      }),
    resourceUpdated: (uri) =>
      Effect.suspend(() => {
        const send = relays.at(-1)
        return send === undefined ? sessions.resourceUpdated(uri) : send({ _tag: "ResourceUpdated", uri })
      }),
    relayed: () => relays.length > 0,
    relay: (send) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          relays.push(send)
          const local: Send = (a) => Effect.suspend(() => relays.at(-1) === send ? deliver(a) : Effect.void)
          return local
        }),
        () =>
          Effect.sync(() => {
            const at = relays.lastIndexOf(send)
            if (at >= 0) relays.splice(at, 1)
          })
      )
  }
}
