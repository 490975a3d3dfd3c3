/**
 * POST on the streamable HTTP endpoint: a client's messages, in the session
 * their header names (or a new one for `initialize`, or one of their own when
 * stateless). Notifications and responses only: 202. Requests: their answers,
 * gathered first; JSON mode answers with them, SSE mode with one complete
 * event-stream body when they come within the fast-path window (most calls),
 * or with a stream, headers first, when a handler talks before answering or
 * takes longer. This is the server's hot path: nothing here forks or waits
 * beyond the answer itself.
 */
import * as Headers from "effect/http/Headers"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as EventStore from "../../EventStore.js"
import * as JsonRpc from "../../JsonRpc.js"
import * as Lifecycle from "../../Lifecycle.js"
import * as ProtocolEra from "../../ProtocolEra.js"
import * as Answered from "../answered.js"
import type { PrincipalInfo } from "../auth/principal.js"
import type * as Deadlines from "../deadlines.js"
import * as EventStoreSync from "../eventStoreSync.js"
import type { Config, Endpoint } from "./config.js"
import { changesState, unavailable } from "./fleet/records.js"
import { routed } from "./fleet/router.js"
import * as Edge2026 from "./era2026.js"
import { isSession } from "./registry.js"
import type { Session } from "./sessions.js"
import * as TraceContext from "../traceContext.js"
import { answerOf, Decision, eventText, type SseStream, storeOf, type Streams } from "./sseStream.js"
import {
  checkPostHeaders,
  checkVersion,
  type EndpointRequest,
  isParsed,
  jsonRpcError,
  postMessages,
  readJsonBody,
  readJsonBodyNow
} from "./validate.js"

type Messages = ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>

/** Bodies at least this long are sent encoded (see `wholeBody`). */
const LARGE_BODY = 64 * 1024

const encoder = new TextEncoder()

/** Where `utf8Length` encodes: a body under `LARGE_BODY` code units is at most 3 bytes each. Made on first use. */
let scratch: Uint8Array | undefined

/**
 * The UTF-8 length of a body under `LARGE_BODY`, as node will write it (a lone surrogate is the
 * 3 bytes of U+FFFD): encoded into a scratch buffer, in native code (a regular expression that
 * looked for non-ASCII text first took ~4× more instructions).
 */
const utf8Length = (text: string): number => encoder.encodeInto(text, scratch ??= new Uint8Array(3 * LARGE_BODY)).written

/**
 * A complete body. A small one is kept as text with its length: node writes
 * headers and text in one `write` (an encoded body would be a second buffer,
 * and a copy). A large one is encoded once: node would join it to the headers
 * as a new string and flatten that into a copy of the body on the JS heap (a
 * young large object the size of the body; the encoded bytes live outside it).
 */
const wholeBody = (
  text: string,
  contentType: string,
  headers: Headers.Input | undefined,
  status = 200
) =>
  text.length >= LARGE_BODY
    ? HttpServerResponse.uint8Array(encoder.encode(text), { status, contentType, headers })
    : HttpServerResponse.raw(text, { status, contentType, headers, contentLength: utf8Length(text) })

/** A whole event stream's headers without a session (a session per request, 2026): copied by the response, never written. */
const SSE_HEADERS: Headers.Input = { "cache-control": "no-cache, no-transform" }

const DUPLICATE = {
  code: JsonRpc.ErrorCode.InvalidRequest,
  message: "Invalid Request: a request with this id is already in progress"
}

/**
 * What the POST handler reads: the endpoint, and the SSE fast path's
 * deadlines (one sleeping fiber for every POST waiting, not a timer each).
 */
interface Ctx extends Endpoint {
  readonly fastPath: Deadlines.Deadlines
  /** Whether the server runs under a tracer that collects spans (decided once, `tracingIn`). */
  readonly traced: boolean
}

/** The POST handler. */
export const make = (endpoint: Endpoint, fastPath: Deadlines.Deadlines, traced: boolean) => {
  const ctx: Ctx = { ...endpoint, fastPath, traced }
  return (request: EndpointRequest, principal: PrincipalInfo | undefined) => post(ctx, request, principal)
}

/**
 * The common case, a call in an established session (no `McpAuth`; with a fleet too), runs
 * without a generator: every other case goes through `served`.
 */
const post = (ctx: Ctx, request: EndpointRequest, principal: PrincipalInfo | undefined): Answered.Answer<Response> => {
  const { config } = ctx
  const refused = checkPostHeaders(request.headers, config.jsonMode)
  if (refused !== undefined) return Answered.now(refused)
  const read = readJsonBodyNow(request, config.maxBody, config.maxDepth)
  return read !== undefined
    ? afterRead(ctx, request, principal, read)
    : Effect.flatMap(readJsonBody(request, config.maxBody, config.maxDepth), (read) => afterRead(ctx, request, principal, read))
}

/** The POST, its body parsed (or refused). */
const afterRead = (
  ctx: Ctx,
  request: EndpointRequest,
  principal: PrincipalInfo | undefined,
  read: { readonly json: unknown } | Response
): Answered.Answer<Response> => {
  const { config } = ctx
  if (!isParsed(read)) return Answered.now(read)
  const decoded = postMessages(read.json)
  if (!("messages" in decoded)) return Answered.now(decoded)
  const headers = request.headers
  // the POST's `traceparent`: the remote parent of requests whose `_meta` names none; under a
  // tracer, the connection's remote end (the spans' `client.address`, `client.port`)
  TraceContext.noteHeaders(decoded.messages, headers, ctx.traced ? request.remote : undefined)
  // a response under a 2026 version: that era has no server requests to answer
  const stray = Edge2026.strayResponse(config.server.options.eras, headers, decoded.messages, decoded.isBatch)
  if (stray !== undefined) return Answered.now(stray)
  const id = headers["mcp-session-id"]
  // a 2026 request is served on its path whatever `Mcp-Session-Id` says: that era has no sessions,
  // and its server neither reads nor sets the header
  if (config.auth === undefined && Edge2026.is2026(config.server.options.eras, headers, decoded.messages, decoded.isBatch)) {
    return served2026(ctx, request, principal, decoded)
  }
  if (
    id === undefined || config.auth !== undefined || config.sessionPerRequest ||
    decoded.messages.some(isInitialize)
  ) {
    return served(ctx, request, principal, decoded)
  }
  const versionError = checkVersion(headers)
  if (versionError !== undefined) return Answered.now(versionError)
  if (ctx.fleet !== undefined) {
    // with a fleet the session is looked up in the store (its one round trip), then served alike
    return Effect.flatMap(
      ctx.fleet.find(id, principal),
      (found) => isSession(found) ? established(ctx, found, principal, decoded) : Effect.succeed(found)
    )
  }
  const found = ctx.sessions.registry.find(id, principal)
  return isSession(found) ? established(ctx, found, principal, decoded) : Answered.now(found)
}

/** A POST in a session found: the owner's latest token is what handlers see as `Principal`. */
const established = (
  ctx: Ctx,
  session: Session,
  principal: PrincipalInfo | undefined,
  decoded: { readonly messages: Messages; readonly isBatch: boolean }
) => {
  session.principal = principal
  const answered = answer(ctx, session, decoded.messages, decoded.isBatch)
  // answered already (a 202 for what the engine only noted): nothing failed
  return Answered.isSuccess(answered)
    ? answered
    : answered.pipe(Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable())))
}

const isInitialize = (m: JsonRpc.Message | JsonRpc.Invalid): m is JsonRpc.Request =>
  JsonRpc.isRequest(m) && m.method === "initialize"

/** Every other POST: a new session, a per-request or 2026 one, or one with `McpAuth`. */
const served = (
  ctx: Ctx,
  request: EndpointRequest,
  principal: PrincipalInfo | undefined,
  decoded: { readonly messages: Messages; readonly isBatch: boolean }
) =>
  Effect.gen(function*() {
    const { config, sessions } = ctx
    const { auth, server, sessionPerRequest } = config
    const headers = request.headers
    const { isBatch, messages } = decoded
    const initialize = messages.find(isInitialize)

    // with `McpAuth`: the 403 for scopes the token lacks, answered before anything runs (after
    // the 404 of a session that is not the principal's)
    const denied = auth === undefined || principal === undefined
      ? undefined
      : yield* auth.authorize(principal, messages.filter(JsonRpc.isRequest), server.requiredScopes)

    let session: Session
    if (Edge2026.is2026(server.options.eras, headers, messages, isBatch)) {
      // 2026-07-28 with `McpAuth` (without it, `served2026` has it): the edge's checks, then the 403
      const refusal = Edge2026.refuse(server.options.eras, headers, messages, isBatch, ProtocolEra.ERA_2026_VERSIONS)
      if (refusal !== undefined) return refusal
      if (denied !== undefined) return denied
      return yield* answer2026(ctx, request, principal, decoded)
    } else if (sessionPerRequest) {
      if (denied !== undefined) return denied
      // however this POST ends (its client may hang up at any point, interrupting it), its
      // session ends with it; a streamed answer hands that to the end of its stream
      const own = yield* sessions.open()
      own.principal = principal
      return yield* answer(ctx, own, messages, isBatch).pipe(
        Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : sessions.close(own)),
        Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable()))
      )
    } else if (initialize !== undefined) {
      if (headers["mcp-session-id"] !== undefined) {
        return jsonRpcError(400, JsonRpc.ErrorCode.InvalidRequest, "Bad Request: the session is already initialized")
      }
      if (isBatch) {
        return jsonRpcError(400, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: initialize must not be part of a batch")
      }
      if (denied !== undefined) return denied
      if (ctx.fleet !== undefined) {
        const admitted = yield* ctx.fleet.admit
        if (typeof admitted !== "string") return admitted
        session = yield* sessions.open(admitted)
      } else {
        if (sessions.registry.full()) return jsonRpcError(503, -32000, "Service Unavailable: too many sessions")
        session = yield* sessions.open()
      }
      session.initializeId = initialize.id
    } else {
      const versionError = checkVersion(headers)
      if (versionError !== undefined) return versionError
      const id = headers["mcp-session-id"]
      if (id === undefined) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required")
      const found = ctx.fleet === undefined ? sessions.registry.find(id, principal) : yield* ctx.fleet.find(id, principal)
      if (!isSession(found)) return found
      session = found
    }
    if (denied !== undefined) return denied
    // the owner's latest token: what handlers see as `Principal`
    session.principal = principal
    return yield* answer(ctx, session, messages, isBatch).pipe(
      Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable()))
    )
  })

/**
 * A 2026-07-28 POST without `McpAuth` (the usual one), without a generator: checked at the
 * edge, then served on a pooled connection of its own (`open2026`).
 */
const served2026 = (
  ctx: Ctx,
  request: EndpointRequest,
  principal: PrincipalInfo | undefined,
  decoded: { readonly messages: Messages; readonly isBatch: boolean }
): Effect.Effect<Response> => {
  const refusal = Edge2026.refuse(
    ctx.config.server.options.eras,
    request.headers,
    decoded.messages,
    decoded.isBatch,
    ProtocolEra.ERA_2026_VERSIONS
  )
  return refusal !== undefined ? Effect.succeed(refusal) : answer2026(ctx, request, principal, decoded)
}

/**
 * A 2026 POST, checked: stateless, on a connection that serves it and then waits for the next
 * (or closes when the POST fails or is interrupted).
 */
const answer2026 = (
  ctx: Ctx,
  request: EndpointRequest,
  principal: PrincipalInfo | undefined,
  { isBatch, messages }: { readonly messages: Messages; readonly isBatch: boolean }
): Effect.Effect<Response> => {
  const { sessions } = ctx
  // however the POST ends but answered (its client may hang up at any point, interrupting it),
  // its connection ends with it; one mask and one frame (`onExit` and `catchTag` were 3 operations more)
  const serve = (own: Session) => {
    own.principal = principal
    return Effect.uninterruptibleMask((restore) =>
      Effect.matchCauseEffect(restore(answer(ctx, own, messages, isBatch)), {
        // the failure path only: a store's failure is a 503
        onFailure: (cause) =>
          Effect.andThen(sessions.close(own), Effect.failCause(cause)).pipe(
            Effect.catchTag("SessionStoreError", () => Effect.succeed(unavailable()))
          ),
        onSuccess: Effect.succeed
      })
    )
  }
  const pooled = sessions.pooled2026(request.headers)
  return pooled !== undefined ? serve(pooled) : Effect.flatMap(sessions.open2026(request.headers), serve)
}

type Response = HttpServerResponse.HttpServerResponse

/** Serves the messages of one POST in its session: 202, or their answers as JSON or SSE. */
const answer = (ctx: Ctx, session: Session, received: Messages, isBatch: boolean) =>
  // with a fleet: what other instances wait for goes to them (a 2026 POST's connection waits for nothing)
  ctx.fleet === undefined || session.era2026 || !routed(received)
    ? answerWith(ctx, session, received, isBatch)
    : Effect.flatMap(ctx.fleet.incoming(session, received), (messages) => answerWith(ctx, session, messages, isBatch))

/** The session's answers, without a generator: this runs on every call. */
const answerWith = (ctx: Ctx, session: Session, messages: Messages, isBatch: boolean) => {
  const { config, fastPath, fleet, sessions, streams } = ctx
  // a per-request session, or a 2026 POST's connection, ends with the POST
  const endsWithPost = config.sessionPerRequest || session.era2026
  session.lastActivity = sessions.registry.now()
  if (isBatch && !Lifecycle.allowsBatches(session.version)) {
    const refused = jsonRpcError(
      400,
      JsonRpc.ErrorCode.InvalidRequest,
      "Invalid Request: JSON-RPC batches are not supported by the negotiated protocol version"
    )
    return endsWithPost ? Effect.as(sessions.close(session), refused) : Answered.now(refused)
  }
  const stream = open(streams, session, messages, listed(ctx, session))
  if (stream === undefined) {
    const accepted = HttpServerResponse.empty({ status: 202 })
    // notifications the engine only notes are taken now: the 202 is then answered with no fiber
    const rest = endsWithPost ? session.inbox.drain() : session.inbox.drainNow()
    if (rest === undefined) return Answered.now(accepted)
    return Effect.as(endsWithPost ? Effect.andThen(rest, sessions.close(session)) : rest, accepted)
  }
  const done = endsWithPost ? sessions.close(session) : undefined
  const decided = stream.json!.decided
  const replied = (how: "json" | "sse") => {
    const gathered = stream.json!.responses
    stream.json = undefined
    const reply = how === "json"
      ? whole(ctx, session, stream, gathered, isBatch, done)
      : streamed(ctx, session, stream, gathered, done)
    return fleet !== undefined && !session.era2026 && changesState(messages) ? Effect.andThen(fleet.save(session), reply) : reply
  }
  const taken = () => {
    // most handlers answer while the engine takes the POST (their fiber runs until it waits, or
    // there is none): then there is nothing to wait for, and no fast-path window to watch
    const now = decided.poll()
    if (now !== undefined) return replied(now)
    const timer = config.jsonMode ? undefined : fastPathTimer(ctx, decided)
    return Effect.flatMap(decided.await, (how) => {
      if (timer !== undefined) fastPath.remove(timer)
      return replied(how)
    })
  }
  // the engine takes what `open` queued, at once where it can: a call answered as it was made is
  // then answered whole with no fiber, the POST's response an effect's outcome already
  const rest = session.inbox.drainNow()
  return rest === undefined ? taken() : Effect.flatMap(rest, taken)
}

/** Every answer came within the window: one complete body, JSON or a whole event stream. */
const whole = (
  ctx: Ctx,
  session: Session,
  stream: SseStream,
  gathered: ReadonlyArray<JsonRpc.Message>,
  isBatch: boolean,
  done: Effect.Effect<void> | undefined
): Effect.Effect<Response> => {
  const { config, sessions, streams } = ctx
  session.streams.delete(stream.id)
  // a 2026 connection waits for the next 2026 POST when nothing of this one is left
  const after = session.era2026 && !config.sessionPerRequest ? sessions.release2026(session) : done
  const reply = (response: Response) => after === undefined ? Effect.succeed(response) : Effect.as(after, response)
  if (config.jsonMode || (session.era2026 && gathered.length === 1 && Edge2026.statusOf(gathered[0]!) !== 200)) {
    return reply(wholeJson(config, session, gathered, isBatch))
  }
  const store = storeOf(config, session)
  const headers = config.sessionPerRequest || session.era2026
    ? SSE_HEADERS
    : { "cache-control": "no-cache, no-transform", "mcp-session-id": session.id }
  const body = (text: string) => wholeBody(text, "text/event-stream", headers)
  if (store === undefined) {
    let text = ""
    for (const m of gathered) text += eventText(undefined, JSON.stringify(m))
    return reply(body(text))
  }
  // a complete event stream: stored, handed to the connection whole, so delivered (and
  // resumable for the store's grace period)
  if (store.appendDelivered !== undefined) {
    // a store that answers later stores it off the path: written first, its events after the priming without ids
    let text = streams.priming(stream.id)
    const events: Array<EventStore.WholeEvent> = []
    for (const m of gathered) {
      const data = JSON.stringify(m)
      text += eventText(undefined, data)
      events.push({ data, answers: answerOf(m) })
    }
    return Effect.andThen(store.appendDelivered(session.id, stream.id, events), reply(body(text)))
  }
  const sync = EventStoreSync.syncOf(store)
  if (sync !== undefined) {
    let text = streams.priming(stream.id)
    for (const m of gathered) {
      const data = JSON.stringify(m)
      text += eventText(sync.append(session.id, stream.id, data, answerOf(m)), data)
    }
    sync.delivered(session.id, stream.id)
    return reply(body(text))
  }
  return Effect.gen(function*() {
    let text = streams.priming(stream.id)
    for (const m of gathered) {
      const data = JSON.stringify(m)
      text += eventText(yield* store.append(session.id, stream.id, data, answerOf(m)), data)
    }
    yield* store.delivered(session.id, stream.id)
    return yield* reply(body(text))
  })
}

/**
 * Whether a POST's stream is listed in its session from the start. A 2026 connection's without a
 * store or a fleet is not while its answers gather (nothing looks it up by id: no GET resumes it,
 * and it has no connection to end); `streamed` lists it. Most are answered whole: a map entry
 * added and deleted per call, whose delete shrank the map's table each time, is saved.
 */
const listed = (ctx: Ctx, session: Session): boolean =>
  !session.era2026 || ctx.config.store !== undefined || ctx.fleet !== undefined

/** Streamed: the related messages sent so far, then what was gathered. */
const streamed = (
  ctx: Ctx,
  session: Session,
  stream: SseStream,
  gathered: ReadonlyArray<JsonRpc.Message>,
  done: Effect.Effect<void> | undefined
): Effect.Effect<Response> =>
  Effect.gen(function*() {
    const { fleet, streams } = ctx
    // a 2026 connection's stream is listed from now on (see `listed`)
    if (!session.closed && !session.streams.has(stream.id)) session.streams.set(stream.id, stream)
    // a 2026 stream is never resumed: nothing to record for another instance
    if (fleet !== undefined && !session.era2026) yield* fleet.streamed(session, stream)
    const response = yield* streams.openSse(session, stream, stream.backlog.splice(0, stream.backlog.length), done)
    yield* Effect.forEach(gathered, (m) => streams.deliver(session, stream, m), { discard: true })
    if (stream.pending.size === 0) yield* streams.finish(session, stream)
    else if (stream.closeOnOpen) yield* streams.endConnection(stream)
    return response
  })

/**
 * Hands a POST's messages to its session's engine; the stream its answers gather on, or
 * undefined when nothing will be answered. An id already in flight in the session, or twice
 * in this batch, is refused here, on this POST: routing it would take the first request's
 * route, and its answer with it.
 */
const open = (streams: Streams, session: Session, messages: Messages, listed: boolean): SseStream | undefined => {
  if (messages.length === 1) {
    const only = messages[0]!
    if (JsonRpc.isRequest(only) && !session.byRequest.has(only.id)) return openOne(streams, session, only, listed)
  }
  const requests: Array<JsonRpc.Request> = []
  const duplicates: Array<JsonRpc.Request> = []
  for (const m of messages) {
    if (!JsonRpc.isRequest(m)) continue
    if (session.byRequest.has(m.id) || requests.some((r) => r.id === m.id)) duplicates.push(m)
    else requests.push(m)
  }
  const invalids = messages.filter((m): m is JsonRpc.Invalid => JsonRpc.isInvalid(m) && m.respond)
  if (requests.length === 0 && invalids.length === 0 && duplicates.length === 0) {
    // the session's inbox is unbounded: an offer never waits
    for (const m of messages) session.inbox.offer(m)
    return undefined
  }
  const stream = streams.newStream(session, "post", listed)
  for (const r of requests) {
    session.byRequest.set(r.id, stream)
    stream.pending.add(r.id)
  }
  const decided = new Decision()
  stream.json = { responses: [], decided }
  for (const invalid of invalids) stream.json.responses.push(JsonRpc.failure(invalid.id, invalid.error))
  for (const duplicate of duplicates) stream.json.responses.push(JsonRpc.failure(duplicate.id, DUPLICATE))
  if (requests.length === 0) decided.decide("json")
  for (const m of messages) {
    if (!JsonRpc.isInvalid(m) && !(duplicates.length > 0 && duplicates.includes(m as JsonRpc.Request))) {
      session.inbox.offer(m)
    }
  }
  return stream
}

/** `open` for the usual POST, one request (the same, without the lists). */
const openOne = (streams: Streams, session: Session, request: JsonRpc.Request, listed: boolean): SseStream => {
  const stream = streams.newStream(session, "post", listed)
  session.byRequest.set(request.id, stream)
  stream.pending.add(request.id)
  stream.json = { responses: [], decided: new Decision() }
  session.inbox.offer(request)
  return stream
}

/**
 * SSE mode: the POST is answered whole if every answer comes within the fast-path window,
 * else streamed (so is one whose handler talked first, or closed its stream).
 */
const fastPathTimer = ({ config, fastPath }: Ctx, decided: Decision): Deadlines.Entry => {
  const deadline = fastPath.now() + config.sseFastPathMs
  const timer: Deadlines.Entry = { deadline: () => deadline, expire: () => decided.decide("sse") }
  fastPath.add(timer)
  return timer
}

/** A session's `Mcp-Session-Id`; none without a session (a session per request, 2026). */
const sessionHeader = (config: Config, session: Session): Headers.Input | undefined =>
  config.sessionPerRequest || session.era2026 ? undefined : { "mcp-session-id": session.id }

/** JSON mode: every answer in one JSON body (202 when every request was cancelled: nothing to say). */
const wholeJson = (config: Config, session: Session, gathered: ReadonlyArray<JsonRpc.Message>, isBatch: boolean) =>
  gathered.length === 0
    ? HttpServerResponse.empty({ status: 202, headers: sessionHeader(config, session) })
    : wholeBody(
      JSON.stringify(isBatch ? gathered : gathered[0]),
      "application/json",
      sessionHeader(config, session),
      session.era2026 && !isBatch ? Edge2026.statusOf(gathered[0]!) : 200
    )
