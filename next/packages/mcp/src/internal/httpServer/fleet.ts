/**
 * The streamable HTTP server as one instance of a fleet sharing a
 * `SessionStore`: a request for a session this instance does not hold makes
 * it a replica (an engine started from the stored record); every request
 * refreshes the record (one round trip) and its time to live; state changes
 * are saved and told to the other replicas (`fleet/records.ts`). What crosses
 * instances goes through the store's messages (`fleet/router.ts`): the answer
 * to a reverse call to the instance whose id prefixes it;
 * `notifications/cancelled` to all; messages for the standing stream to
 * whichever instance holds it (`fleet/handover.ts`, given to the streams when
 * they are made); a stream resumed elsewhere is forwarded there by its owner,
 * or, if its owner died, its requests are answered with an error
 * (`fleet/proxies.ts`).
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { SessionStoreShape } from "../../SessionStore.js"
import type { Config } from "./config.js"
import * as Proxies from "./fleet/proxies.js"
import * as Records from "./fleet/records.js"
import * as Router from "./fleet/router.js"
import type { Sessions } from "./sessions.js"
import type { Streams } from "./sseStream.js"

export interface Fleet extends Records.Records, Router.Router {
  readonly store: SessionStoreShape
  /** A resumption of a stream another instance owns; undefined when it is this instance's. */
  readonly resume: Proxies.Proxies["resume"]
}

/** This instance's part in the fleet; its tickers and its subscription run for the life of the scope. */
export const make = (
  config: Config,
  store: SessionStoreShape,
  sessions: Sessions,
  streams: Streams
): Effect.Effect<Fleet, never, Scope.Scope> =>
  Effect.gen(function*() {
    const records = yield* Records.make(config, store, sessions)
    const proxies = yield* Proxies.make(config, store, streams)
    const router = yield* Router.make(config, store, { sessions, streams, records, proxies })
    return { ...records, ...router, store, resume: proxies.resume }
  })
