/**
 * What an HTTP server checks of a request before any session sees it, shared
 * by the streamable and the legacy HTTP+SSE servers (DNS-rebinding, `Host`/`Origin`, is
 * `origins.ts`): media types, the protocol-version header, and the body,
 * read under a size limit and parsed under a nesting limit. Refusals are
 * JSON-RPC error responses.
 */
import * as Headers from "effect/http/Headers"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as JsonRpc from "../../JsonRpc.js"
import * as Answered from "../answered.js"
import * as Lifecycle from "../../Lifecycle.js"
import * as MediaType from "../mediaType.js"

export const jsonRpcError = (
  status: number,
  code: number,
  message: string,
  id: JsonRpc.RequestId | null = null,
  headers?: Record<string, string>,
  data?: unknown
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(JsonRpc.failure(id, data === undefined ? { code, message } : { code, message, data }), {
    status,
    ...(headers !== undefined ? { headers: Headers.fromInput(headers) } : {})
  })

const decoder = new TextDecoder()

/**
 * What an endpoint reads of an HTTP request. `HttpServerRequest` is one; a
 * listener that skips `effect/http` for speed builds its own.
 */
export interface EndpointRequest {
  readonly method: string
  /** Header names in lower case. */
  readonly headers: Headers.Headers
  /**
   * The body, read when asked for. A reader that knows the size limit may stop
   * as soon as it is crossed, with at least one byte over it: the endpoint
   * answers 413 whenever the body is longer than the limit. A listener that
   * read it first gives it `Answered` (`StreamableHttpServer.answered`): it is
   * then parsed with no fiber.
   */
  readonly arrayBuffer: Effect.Effect<ArrayBuffer | Uint8Array, unknown>
  /**
   * Whether the rest of a body the endpoint refuses (413) is read and dropped behind its back,
   * so that the refusal keeps the connection: a platform request (`fromServerRequest`, whose
   * drain then ends with the body, or cuts it after `DRAIN_GRACE`). Otherwise the 413 says
   * `connection: close` and the listener closes the connection once it is out.
   */
  readonly drainsRefusedBody?: boolean | undefined
  /**
   * The remote end of the connection the request came on, where the platform tells it (node's
   * socket): the `client.address` and `client.port` of the spans of its requests, read only
   * under a tracer that collects spans.
   */
  readonly remote?: RemoteEnd | undefined
}

/** The remote end of a connection, as node's `net.Socket` names it. */
export interface RemoteEnd {
  readonly remoteAddress?: string | undefined
  readonly remotePort?: number | undefined
}

/**
 * The socket of a platform request that has one: `@effect/platform-node`'s request keeps node's
 * `IncomingMessage` as its `source` (not part of `effect/http`'s interface, hence the shape test).
 */
const socketOf = (request: HttpServerRequest.HttpServerRequest): RemoteEnd | undefined => {
  const source = (request as { readonly source?: { readonly socket?: unknown } }).source
  const socket = typeof source === "object" && source !== null ? source.socket : undefined
  return typeof socket === "object" && socket !== null ? socket as RemoteEnd : undefined
}

/**
 * The 413. The connection closes after it, since the rest of the body is not read, unless the
 * request's body is drained behind it (`drainsRefusedBody`): closing then would make node cut
 * the socket under a client still sending, which reads a reset instead of the 413.
 */
export const payloadTooLarge = (maxBytes: number, request?: EndpointRequest): HttpServerResponse.HttpServerResponse =>
  jsonRpcError(
    413,
    -32000,
    `Payload Too Large: the limit is ${maxBytes} bytes`,
    null,
    request?.drainsRefusedBody === true ? undefined : { connection: "close" }
  )

/**
 * Reads and parses a JSON body under a size limit and a nesting limit: the
 * parsed value, or the 413/400 response to answer with. Nothing is parsed
 * before the size is known to be within the limit.
 */
export const readJsonBody = (
  request: EndpointRequest,
  maxBytes: number,
  maxDepth: number
): Effect.Effect<{ readonly json: unknown } | HttpServerResponse.HttpServerResponse> =>
  Effect.suspend(() => {
    const ready = readJsonBodyNow(request, maxBytes, maxDepth)
    if (ready !== undefined) return Effect.succeed(ready)
    return Effect.match(request.arrayBuffer, {
      onFailure: () => jsonRpcError(400, JsonRpc.ErrorCode.ParseError, "Parse error: could not read the body"),
      onSuccess: (body) => parseBody(request, body, maxBytes, maxDepth)
    })
  })

/**
 * `readJsonBody` without an effect when that is possible: the body was already read (the node
 * listener reads it first), or its declared length is over the limit; undefined otherwise.
 */
export const readJsonBodyNow = (
  request: EndpointRequest,
  maxBytes: number,
  maxDepth: number
): { readonly json: unknown } | HttpServerResponse.HttpServerResponse | undefined => {
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared) && declared > maxBytes) return payloadTooLarge(maxBytes, request)
  const body = request.arrayBuffer
  if (!Answered.is(body)) return undefined
  return Exit.isSuccess(body)
    ? parseBody(request, body.value, maxBytes, maxDepth)
    : jsonRpcError(400, JsonRpc.ErrorCode.ParseError, "Parse error: could not read the body")
}

const parseBody = (
  request: EndpointRequest,
  body: ArrayBuffer | Uint8Array,
  maxBytes: number,
  maxDepth: number
): { readonly json: unknown } | HttpServerResponse.HttpServerResponse => {
  if (body.byteLength > maxBytes) return payloadTooLarge(maxBytes, request)
  const parsed = JsonRpc.parseJson(decoder.decode(body), { maxDepth })
  return "json" in parsed ? parsed : jsonRpcError(400, parsed.error.code, parsed.error.message)
}

export const isParsed = (
  u: { readonly json: unknown } | HttpServerResponse.HttpServerResponse
): u is { readonly json: unknown } => "json" in u

const concat = (chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array => {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

/**
 * A platform request as the endpoint reads it, its body read in linear time
 * (chunks gathered, copied once; the platform's `arrayBuffer` copies the whole
 * body again for every chunk) and given as soon as it is `maxBytes + 1` long.
 * The rest is read and dropped by a fiber in `scope` until the body ends, for
 * at most `DRAIN_GRACE` (stopping the platform's stream at once would destroy
 * the socket before the 413 goes out), and the 413 keeps the connection: one
 * that closed it would have node cut the socket under a client still sending.
 */
export const fromServerRequest = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number,
  scope: Scope.Scope
): EndpointRequest => ({
  method: request.method,
  headers: withHost(request),
  drainsRefusedBody: true,
  remote: socketOf(request),
  arrayBuffer: Effect.flatMap(Deferred.make<Uint8Array, unknown>(), (result) => {
    const chunks: Array<Uint8Array> = []
    let size = 0
    let full = false
    const consume = Stream.runForEachArray(request.stream, (chunk) =>
      Effect.sync(() => {
        if (full) return
        for (const bytes of chunk) {
          const room = maxBytes + 1 - size
          chunks.push(bytes.byteLength > room ? bytes.subarray(0, room) : bytes)
          size += Math.min(bytes.byteLength, room)
          if (size > maxBytes) {
            full = true
            Deferred.doneUnsafe(result, Exit.succeed(concat(chunks, size)))
            chunks.length = 0
            return
          }
        }
      })).pipe(
        Effect.exit,
        Effect.flatMap((exit) =>
          full ? Effect.void : Deferred.done(result, Exit.map(exit, () => concat(chunks, size)))
        )
      )
    const grace = Effect.andThen(Deferred.await(result), Effect.sleep(DRAIN_GRACE))
    // interruptible: the platform may run its handlers without interruption, and forks inherit that
    const reader = Effect.interruptible(Effect.raceFirst(consume, Effect.ignore(grace)))
    return Effect.andThen(Effect.forkIn(reader, scope), Deferred.await(result))
  })
})

/**
 * The request's headers, with a `Host` taken from its URL when it has none: a web `Request` made
 * in the program (undici's, a test's) carries no `Host` header, its URL says where it goes.
 */
const withHost = (request: HttpServerRequest.HttpServerRequest): Headers.Headers => {
  const headers = request.headers
  if (headers["host"] !== undefined || !/^https?:\/\//i.test(request.originalUrl)) return headers
  try {
    return Headers.set(headers, "host", new URL(request.originalUrl).host)
  } catch {
    return headers
  }
}

/** How long the rest of a body over the limit is read and dropped, after the limit is crossed. */
const DRAIN_GRACE = Duration.seconds(5)

/**
 * A platform request whose declared length is over the limit is answered 413 from its head
 * (`readJsonBodyNow`), its body never asked for: this reads and drops that body, in a fiber in
 * `scope`, for at most `DRAIN_GRACE`, so that a client still sending reads the 413 instead of a
 * reset. Undefined for any other request (nothing runs on the common path).
 */
export const discardDeclaredTooLong = (
  request: HttpServerRequest.HttpServerRequest,
  maxBytes: number,
  scope: Scope.Scope
): Effect.Effect<void> | undefined => {
  const declared = Number(request.headers["content-length"])
  if (!(Number.isFinite(declared) && declared > maxBytes)) return undefined
  const drain = Effect.raceFirst(Effect.ignore(Stream.runDrain(request.stream)), Effect.sleep(DRAIN_GRACE))
  // interruptible: the platform may run its handlers without interruption, and forks inherit that
  return Effect.asVoid(Effect.forkIn(Effect.interruptible(drain), scope))
}

/** A 400 for an `MCP-Protocol-Version` header naming a version this server does not speak. */
export const checkVersion = (headers: Headers.Headers): HttpServerResponse.HttpServerResponse | undefined => {
  const version = headers["mcp-protocol-version"]
  if (version === undefined || Lifecycle.isSupported(version)) return undefined
  return jsonRpcError(
    400,
    JsonRpc.ErrorCode.InvalidRequest,
    `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${Lifecycle.SUPPORTED_VERSIONS.join(", ")})`
  )
}

export const accepts = (headers: Headers.Headers, type: string): boolean => MediaType.accepts(headers["accept"], type)

/** The 415 or 406 for a streamable POST whose `Content-Type` or `Accept` is not what it must be. */
export const checkPostHeaders = (
  headers: Headers.Headers,
  jsonMode: boolean
): HttpServerResponse.HttpServerResponse | undefined => {
  if (!MediaType.isJson(headers["content-type"])) {
    return jsonRpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json")
  }
  if (!accepts(headers, "application/json") || (!jsonMode && !accepts(headers, "text/event-stream"))) {
    return jsonRpcError(406, -32000, "Not Acceptable: Accept must include application/json and text/event-stream")
  }
  return undefined
}

/** The messages of a streamable POST's body, or the 400 that refuses it (an empty batch; one invalid message). */
export const postMessages = (
  parsed: unknown
):
  | { readonly messages: ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>; readonly isBatch: boolean }
  | HttpServerResponse.HttpServerResponse =>
{
  const isBatch = Array.isArray(parsed)
  if (isBatch && (parsed as Array<unknown>).length === 0) {
    return jsonRpcError(400, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: empty batch")
  }
  const messages = (isBatch ? (parsed as Array<unknown>) : [parsed]).map(JsonRpc.decodeMessage)
  if (!isBatch && JsonRpc.isInvalid(messages[0]!)) {
    const invalid = messages[0] as JsonRpc.Invalid
    return jsonRpcError(400, invalid.error.code, invalid.error.message, invalid.id)
  }
  return { messages, isBatch }
}

/** The 405 of a server with a session per request for anything but POST. */
export const postOnly = (): HttpServerResponse.HttpServerResponse =>
  jsonRpcError(405, -32000, "Method Not Allowed: a session per request", null, { allow: "POST" })
