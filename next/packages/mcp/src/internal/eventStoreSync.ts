/**
 * The in-memory event store's calls without an effect each: the streamable
 * HTTP server appends a whole answer's events and marks them delivered on
 * every call, and those are plain map updates. A store that has them (only
 * `EventStore.makeMemory`'s) is used through them; any other store through
 * its `EventStoreShape`.
 */
import type * as JsonRpc from "../JsonRpc.js"

export interface SyncStore {
  readonly append: (sessionId: string, streamId: string, data: string, answers?: JsonRpc.RequestId | undefined) => string
  readonly delivered: (sessionId: string, streamId: string) => void
}

const SyncKey: unique symbol = Symbol.for("@effect-mcp/mcp/EventStore/sync")

/** Attaches the synchronous calls to a store object. */
export const withSync = <S extends object>(store: S, sync: SyncStore): S => Object.assign(store, { [SyncKey]: sync })

/** The store's synchronous calls, if it has them. */
export const syncOf = (store: object): SyncStore | undefined => (store as { readonly [SyncKey]?: SyncStore })[SyncKey]
