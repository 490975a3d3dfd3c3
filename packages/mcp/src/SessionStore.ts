/**
 * Where the streamable HTTP server keeps what a session holds that another
 * instance of the same logical server needs, and how instances reach each
 * other: the seam a fleet of processes behind a load balancer plugs into
 * (`@effect-mcp/redis` implements it on Redis; `makeMemoryFleet` in one
 * process). Without a store nothing of this runs: sessions live in the
 * process that created them.
 *
 * With a store, every instance may serve every session. A request for a
 * session the instance does not hold makes it a local replica: a session
 * engine started from the stored `SessionRecord`. A store has two halves,
 * which may live in different backends (`fromParts` joins them):
 * `SessionRecords` (records and streams) and `FleetBus` (liveness and
 * messages). The contract:
 *
 * - **Records.** `reserve` admits a new session if fewer than `maxSessions`
 *   are live in the whole fleet; `load` reads a record and restarts its time
 *   to live (the idle timeout), in one round trip; `save` writes it after a
 *   change (`initialize`, `notifications/initialized`, `logging/setLevel`,
 *   `resources/subscribe`/`unsubscribe`); `touch` keeps busy sessions alive
 *   (an open stream, a request running); `remove` ends a session everywhere.
 *   A record whose time to live passed is gone: its session is unknown (404).
 * - **Streams.** A POST answered with a stream records the requests it
 *   carries (`saveStream`), so that another instance resuming it after its
 *   instance died can answer them with an error instead of hanging.
 * - **Liveness.** Each instance refreshes a heartbeat of its own while it
 *   runs; `alive` reads another's.
 * - **Messages.** `publish` sends a `FleetMessage` to one instance, or to all
 *   of them (`to` undefined, the sender included); `subscribe` receives those
 *   sent to this instance or to all, in order per sender. A message to an
 *   instance that is not running reaches no one; a handler's defect is the
 *   receiver's (the sender's `publish` succeeds, later messages arrive). A
 *   shared store sends them in one encoding (`encodeFleetMessage`,
 *   `decodeFleetMessage`); see `FleetMessageSchema` for large messages.
 *
 * `StoreContract.sessionStore` checks a store against these rules.
 *
 * Every operation fails with `SessionStoreError` when the store cannot be
 * reached; the server then answers the request 503 with a JSON-RPC error.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
 * import * as Effect from "effect/Effect"
 *
 * // two endpoints in one process sharing their sessions (tests, or the shape of a fleet)
 * const pair = Effect.gen(function*() {
 *   const fleet = yield* SessionStore.makeMemoryFleet()
 *   const a = yield* StreamableHttpServer.make({ sessionStore: fleet.instance("a"), eventStore: fleet.events })
 *   const b = yield* StreamableHttpServer.make({ sessionStore: fleet.instance("b"), eventStore: fleet.events })
 *   return [a, b] as const
 * })
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as EventStore from "./EventStore.js"
import * as InternalMemory from "./internal/memoryFleet.js"
import type * as JsonRpc from "./JsonRpc.js"
import * as McpSchema from "./McpSchema.js"

/**
 * What another instance needs to serve a session.
 *
 * @since 0.1.0
 * @category models
 */
export interface SessionRecord {
  /** The negotiated protocol version. */
  readonly protocolVersion: string | undefined
  readonly clientInfo: McpSchema.Implementation | undefined
  readonly clientCapabilities: McpSchema.ClientCapabilities | undefined
  /** Set by `logging/setLevel`. */
  readonly logLevel: McpSchema.LoggingLevel | undefined
  /** The URIs of `resources/subscribe`. */
  readonly subscriptions: ReadonlyArray<string>
  /** `notifications/initialized` arrived. */
  readonly initialized: boolean
  /**
   * With `McpAuth`: the principal the session is bound to (as its latest
   * request authenticated it), a JSON value.
   */
  readonly principal: unknown
}

/**
 * The session state the server's engine holds, as the transport reads and
 * restores it (`Transport.sessionState`): a record without the principal.
 *
 * @since 0.1.0
 * @category models
 */
export type SessionState = Omit<SessionRecord, "principal">

/**
 * Read and write access to one session's state in its engine.
 *
 * @since 0.1.0
 * @category models
 */
export interface SessionStateAccess {
  readonly read: () => SessionState
  /** Replaces the state (a fresher copy from the store); a restored version counts as negotiated. */
  readonly write: (state: SessionState) => void
}

/**
 * What instances send each other.
 *
 * - `Incoming`: a client message for the instance that waits for it (the
 *   answer to one of its reverse calls) or for all (`notifications/cancelled`).
 * - `Standing`: a message for the session's standing GET, wherever it is held.
 * - `Attach`: `instance` resumes the stream `streamId` owned by the receiver:
 *   send it the stream's events from now on.
 * - `StreamEvent`: an event of an attached stream (its stored id), or its end.
 * - `State`: a session's record changed.
 * - `Ended`: a session ended (DELETE).
 * - `ResourceUpdated`: `notifications/resources/updated` for every session subscribed to `uri`
 *   (and every `subscriptions/listen` stream asking for it).
 * - `ListChanged`: `notifications/<kind>/list_changed` for every session and listen stream;
 *   `digest` names the list after the change (instances making the same change send the
 *   same digest, and it is told once).
 *
 * @since 0.1.0
 * @category models
 */
export type FleetMessage =
  | { readonly _tag: "Incoming"; readonly sessionId: string; readonly message: JsonRpc.Message }
  | { readonly _tag: "Standing"; readonly sessionId: string; readonly message: JsonRpc.Message }
  | { readonly _tag: "Attach"; readonly sessionId: string; readonly streamId: string; readonly instance: string }
  | {
    readonly _tag: "StreamEvent"
    readonly sessionId: string
    readonly streamId: string
    readonly id: string | undefined
    readonly data: string | undefined
    readonly end: boolean
  }
  | { readonly _tag: "State"; readonly sessionId: string; readonly record: SessionRecord }
  | { readonly _tag: "Ended"; readonly sessionId: string }
  | { readonly _tag: "ResourceUpdated"; readonly uri: string }
  | { readonly _tag: "ListChanged"; readonly kind: "tools" | "resources" | "prompts"; readonly digest: string }

const isObject = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null && !Array.isArray(u)

/** A JSON value the fleet carries as it is: checked for its shape only (it was validated where it entered). */
const Json = <A>(name: string, is: (u: { readonly [key: string]: unknown }) => boolean) =>
  Schema.declare((u: unknown): u is A => isObject(u) && is(u), { identifier: name })

/** Absent on the wire (JSON drops `undefined`), `undefined` in the type (a key always present). */
const maybe = <S extends Schema.Top>(schema: S) =>
  Schema.UndefinedOr(schema).pipe(Schema.withDecodingDefault(Effect.succeed(undefined)))

const JsonRpcMessage = Json<JsonRpc.Message>("JsonRpc.Message", (u) => u.jsonrpc === "2.0")

const SessionRecord_ = Schema.Struct({
  protocolVersion: maybe(Schema.String),
  clientInfo: maybe(Json<McpSchema.Implementation>("Implementation", (u) => typeof u.name === "string")),
  clientCapabilities: maybe(Json<McpSchema.ClientCapabilities>("ClientCapabilities", () => true)),
  logLevel: maybe(McpSchema.LoggingLevel),
  subscriptions: Schema.Array(Schema.String),
  initialized: Schema.Boolean,
  // absent when undefined (JSON drops it): v3 read a missing key as `undefined`, v4 refuses a missing
  // required key, so the default says it
  principal: Schema.Unknown.pipe(Schema.withDecodingDefault(Effect.succeed(undefined)))
})

/**
 * `SessionRecord` as JSON: what a store writes and reads back.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SessionRecordSchema: Schema.Codec<SessionRecord, typeof SessionRecord_.Encoded> = SessionRecord_

const FleetMessage_ = Schema.Union([
  Schema.TaggedStruct("Incoming", { sessionId: Schema.String, message: JsonRpcMessage }),
  Schema.TaggedStruct("Standing", { sessionId: Schema.String, message: JsonRpcMessage }),
  Schema.TaggedStruct("Attach", { sessionId: Schema.String, streamId: Schema.String, instance: Schema.String }),
  Schema.TaggedStruct("StreamEvent", {
    sessionId: Schema.String,
    streamId: Schema.String,
    id: maybe(Schema.String),
    data: maybe(Schema.String),
    end: Schema.Boolean
  }),
  Schema.TaggedStruct("State", { sessionId: Schema.String, record: SessionRecord_ }),
  Schema.TaggedStruct("Ended", { sessionId: Schema.String }),
  Schema.TaggedStruct("ResourceUpdated", { uri: Schema.String }),
  Schema.TaggedStruct("ListChanged", { kind: Schema.Literals(["tools", "resources", "prompts"]), digest: Schema.String })
])

/**
 * `FleetMessage` as JSON, the one encoding of the fleet's messages: a
 * backend sends `encodeFleetMessage`'s text and hands `decodeFleetMessage`'s
 * result to its handlers.
 *
 * **Size.** A message carries whole JSON-RPC messages and SSE events (a
 * tool's result, say), so its text has no bound but the server's. A bus
 * with a small limit (PostgreSQL `NOTIFY`: under 8000 bytes) sends a large
 * one by reference: it writes the text under a key of its own with a short
 * time to live (longer than delivery takes), sends the key, and the receiver
 * reads the text back before decoding; the contract's bus rules send a
 * message of 1 MiB.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FleetMessageSchema: Schema.Codec<FleetMessage, typeof FleetMessage_.Encoded> = FleetMessage_

const FleetMessageJson = Schema.fromJsonString(FleetMessageSchema)

/**
 * A fleet message as it arrives over a shared store: encoded, then decoded.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 *
 * const received = SessionStore.roundTrip({ _tag: "Ended", sessionId: "s1" })
 * ```
 */
export const roundTrip = (message: FleetMessage): FleetMessage => Schema.decodeSync(FleetMessageJson)(encodeFleetMessage(message))

/**
 * A fleet message as the text a backend sends.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 *
 * const text = SessionStore.encodeFleetMessage({ _tag: "ResourceUpdated", uri: "file:///notes.txt" })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const encodeFleetMessage: (message: FleetMessage) => string = Schema.encodeSync(FleetMessageJson)

/**
 * A fleet message from the text a backend received; fails with a
 * `SchemaError` when it is none.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 *
 * const message = SessionStore.decodeFleetMessage(`{"_tag":"Ended","sessionId":"s1"}`)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const decodeFleetMessage: (text: string) => Effect.Effect<FleetMessage, Schema.SchemaError> = Schema.decodeEffect(
  FleetMessageJson
)

/**
 * The store could not be reached (or answered an error).
 *
 * @since 0.1.0
 * @category errors
 */
export class SessionStoreError extends Schema.TaggedError<SessionStoreError>()("SessionStoreError", {
  reason: Schema.Literal("Unavailable"),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/**
 * The records half of a session store: sessions, their time to live, and
 * the requests of streamed POSTs, shared by the whole fleet.
 *
 * @since 0.1.0
 * @category models
 */
export interface SessionRecords {
  /** Admits a new session (false: `maxSessions` are live in the fleet); its record is written by `save`. */
  readonly reserve: (sessionId: string, ttlMs: number, maxSessions: number) => Effect.Effect<boolean, SessionStoreError>
  /** The session's record, its time to live restarted; none when it is unknown or expired. */
  readonly load: (sessionId: string, ttlMs: number) => Effect.Effect<Option.Option<SessionRecord>, SessionStoreError>
  readonly save: (sessionId: string, record: SessionRecord, ttlMs: number) => Effect.Effect<void, SessionStoreError>
  /** Restarts the time to live of sessions in use here. */
  readonly touch: (sessionIds: ReadonlyArray<string>, ttlMs: number) => Effect.Effect<void, SessionStoreError>
  readonly remove: (sessionId: string) => Effect.Effect<void, SessionStoreError>
  /** The live sessions of the fleet. */
  readonly count: Effect.Effect<number, SessionStoreError>
  /** Records the requests a streamed POST carries. */
  readonly saveStream: (
    streamId: string,
    requests: ReadonlyArray<JsonRpc.RequestId>,
    ttlMs: number
  ) => Effect.Effect<void, SessionStoreError>
  readonly loadStream: (streamId: string) => Effect.Effect<Option.Option<ReadonlyArray<JsonRpc.RequestId>>, SessionStoreError>
}

/**
 * The fleet bus half of a session store: this instance's identity, the
 * instances' liveness, and the messages between them.
 *
 * @since 0.1.0
 * @category models
 */
export interface FleetBus {
  /** This instance's id, unique in the fleet. */
  readonly instanceId: string
  /** Whether an instance's heartbeat is current. */
  readonly alive: (instanceId: string) => Effect.Effect<boolean, SessionStoreError>
  /** Sends to one instance, or to all (the sender included) when `to` is undefined. */
  readonly publish: (to: string | undefined, message: FleetMessage) => Effect.Effect<void, SessionStoreError>
  /** Receives this instance's messages for the life of the scope. */
  readonly subscribe: (handler: (message: FleetMessage) => Effect.Effect<void>) => Effect.Effect<void, never, Scope.Scope>
}

/**
 * A session store of one instance: records and a fleet bus (which may live
 * in different backends, joined by `fromParts`); see the module
 * documentation for the contract.
 *
 * @since 0.1.0
 * @category models
 */
export interface SessionStoreShape extends SessionRecords, FleetBus {}

/**
 * A session store from its two halves, say records in PostgreSQL and the
 * bus on its `LISTEN`/`NOTIFY`, or on another broker.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as Effect from "effect/Effect"
 *
 * // the records of one memory fleet with the bus of another
 * const mixed = Effect.gen(function*() {
 *   const records = (yield* SessionStore.makeMemoryFleet()).instance("a")
 *   const bus = (yield* SessionStore.makeMemoryFleet()).instance("a")
 *   return SessionStore.fromParts(records, bus)
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const fromParts = (records: SessionRecords, bus: FleetBus): SessionStoreShape => ({
  reserve: records.reserve,
  load: records.load,
  save: records.save,
  touch: records.touch,
  remove: records.remove,
  count: records.count,
  saveStream: records.saveStream,
  loadStream: records.loadStream,
  instanceId: bus.instanceId,
  alive: bus.alive,
  publish: bus.publish,
  subscribe: bus.subscribe
})

/**
 * A session store as a service: the HTTP server uses the one in context
 * when its `sessionStore` option is not given.
 *
 * @since 0.1.0
 * @category tags
 */
export class SessionStore extends Context.Service<SessionStore, SessionStoreShape>()("@effect-mcp/mcp/SessionStore") {}

/**
 * Sends `notifications/resources/updated` to every session of the fleet
 * subscribed to `uri`, wherever its standing GET is held, and to every
 * `subscriptions/listen` stream asking for it: what
 * `McpServer.notifyResourceUpdated` does on an instance of a fleet.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as Effect from "effect/Effect"
 *
 * const changed = Effect.flatMap(SessionStore.SessionStore, (store) => SessionStore.resourceUpdated(store, "file:///notes.txt"))
 * ```
 * @since 0.1.0
 * @category notifications
 */
export const resourceUpdated = (store: SessionStoreShape, uri: string): Effect.Effect<void, SessionStoreError> =>
  store.publish(undefined, { _tag: "ResourceUpdated", uri })

/**
 * A fleet in one process: the stores of its instances, and one event store they share.
 *
 * @since 0.1.0
 * @category models
 */
export interface MemoryFleet {
  readonly instance: (instanceId: string) => SessionStoreShape
  readonly events: EventStore.EventStoreShape
  /** Marks an instance dead (its heartbeat stops) or alive again. */
  readonly setAlive: (instanceId: string, alive: boolean) => void
}

/**
 * A fleet of instances in one process, over in-memory records (with their
 * time to live on the Clock) and in-memory messages: what the contract is
 * tested with, and a model of a shared store.
 *
 * @example
 * ```ts
 * import * as SessionStore from "@effect-mcp/mcp/SessionStore"
 * import * as Effect from "effect/Effect"
 *
 * const stores = Effect.map(SessionStore.makeMemoryFleet(), (fleet) => [fleet.instance("a"), fleet.instance("b")])
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const makeMemoryFleet = (options?: EventStore.MemoryOptions): Effect.Effect<MemoryFleet, never, Scope.Scope> =>
  InternalMemory.make(options, roundTrip)
