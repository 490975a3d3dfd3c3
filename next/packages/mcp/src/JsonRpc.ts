/**
 * JSON-RPC 2.0 as MCP uses it: the message shapes, error codes and a decoder
 * that turns any parsed JSON value into a typed message or a precise error.
 *
 * Messages are kept in their wire shape (plain objects) so that encoding is a
 * single `JSON.stringify` and decoding classifies the envelope once; the params
 * of a request are validated later, against the schema of its method only.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * const frame = JsonRpc.parse('{"jsonrpc":"2.0","id":0,"method":"ping"}')
 * if (JsonRpc.isRequest(frame)) console.log(frame.id) // 0, a number, as sent
 * ```
 * @since 0.1.0
 */
import * as JsonDepth from "./internal/jsonDepth.js"

/**
 * A request id: a string or a number (`0` and `""` included), echoed back with the same type.
 * @since 0.1.0
 * @category models
 */
export type RequestId = string | number

/**
 * Params of a request or notification: MCP always uses a JSON object.
 * @since 0.1.0
 * @category models
 */
export type Params = { readonly [key: string]: unknown }

/**
 * A request: a `method` with an `id` the answer echoes.
 * @since 0.1.0
 * @category models
 */
export interface Request {
  readonly jsonrpc: "2.0"
  readonly id: RequestId
  readonly method: string
  readonly params?: Params
}

/**
 * A notification: a `method` with no `id`, never answered.
 * @since 0.1.0
 * @category models
 */
export interface Notification {
  readonly jsonrpc: "2.0"
  readonly method: string
  readonly params?: Params
}

/**
 * The answer to a request: its `id` and an object `result`.
 * @since 0.1.0
 * @category models
 */
export interface SuccessResponse {
  readonly jsonrpc: "2.0"
  readonly id: RequestId
  readonly result: { readonly [key: string]: unknown }
}

/**
 * The `error` member of an error response.
 * @since 0.1.0
 * @category models
 */
export interface ErrorObject {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

/**
 * The error answer to a request: its `id` and an `error` object.
 * @since 0.1.0
 * @category models
 */
export interface ErrorResponse {
  readonly jsonrpc: "2.0"
  /** `null` only when the id of the offending message could not be read. */
  readonly id: RequestId | null
  readonly error: ErrorObject
}

/**
 * A success or an error response.
 * @since 0.1.0
 * @category models
 */
export type Response = SuccessResponse | ErrorResponse

/**
 * Any single JSON-RPC message.
 * @since 0.1.0
 * @category models
 */
export type Message = Request | Notification | Response

/**
 * Something that arrived but is not a valid message. The engine answers it
 * with `error` (and `id`, `null` where it could not be read) when `respond`.
 * @since 0.1.0
 * @category models
 */
export interface Invalid {
  readonly _tag: "Invalid"
  readonly id: RequestId | null
  readonly error: ErrorObject
  /** False for broken responses: JSON-RPC never answers a response. */
  readonly respond: boolean
}

/**
 * One decoded unit from a transport: a message, an invalid one, or a batch.
 * @since 0.1.0
 * @category models
 */
export type Frame = Message | Invalid | ReadonlyArray<Message | Invalid>

/**
 * What a transport writes: one message or a batch of responses.
 * @since 0.1.0
 * @category models
 */
export type Outgoing = Message | ReadonlyArray<Message>

/**
 * Standard JSON-RPC error codes.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * const failure = JsonRpc.failure(1, { code: JsonRpc.ErrorCode.MethodNotFound, message: "Method not found: nope" })
 * ```
 * @since 0.1.0
 * @category constants
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603
} as const

// ----------------------------------------------------------------------------
// constructors
// ----------------------------------------------------------------------------

/**
 * A request; `params` is left out when undefined, as on the wire.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * JsonRpc.request(1, "tools/call", { name: "echo", arguments: { text: "hi" } })
 * // { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ... } }
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const request = (id: RequestId, method: string, params?: Params): Request =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }

/**
 * A notification; `params` is left out when undefined.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * JsonRpc.notification("notifications/initialized")
 * // { jsonrpc: "2.0", method: "notifications/initialized" }
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const notification = (method: string, params?: Params): Notification =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }

/**
 * The success response to request `id`.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * JsonRpc.success(1, { tools: [] }) // { jsonrpc: "2.0", id: 1, result: { tools: [] } }
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const success = (id: RequestId, result: { readonly [key: string]: unknown }): SuccessResponse => ({
  jsonrpc: "2.0",
  id,
  result
})

/**
 * The error response to request `id` (`null` when the id could not be read).
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * JsonRpc.failure(1, { code: JsonRpc.ErrorCode.InvalidParams, message: "name is required" })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const failure = (id: RequestId | null, error: ErrorObject): ErrorResponse => ({ jsonrpc: "2.0", id, error })

/**
 * Something that is not a valid message, with the error to answer it with;
 * `respond: false` for a broken response (JSON-RPC never answers a response).
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * const frame = JsonRpc.invalid(null, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: empty batch")
 * JsonRpc.isInvalid(frame) // true
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const invalid = (id: RequestId | null, code: number, message: string, respond = true): Invalid => ({
  _tag: "Invalid",
  id,
  error: { code, message },
  respond
})

// ----------------------------------------------------------------------------
// guards
// ----------------------------------------------------------------------------

/**
 * Whether a frame is a batch (an array of messages).
 * @since 0.1.0
 * @category guards
 */
export const isBatch = (frame: Frame): frame is ReadonlyArray<Message | Invalid> => Array.isArray(frame)

/**
 * Whether a frame is something that arrived but is not a valid message.
 * @since 0.1.0
 * @category guards
 */
export const isInvalid = (frame: Frame | Message | Invalid): frame is Invalid =>
  !Array.isArray(frame) && (frame as Invalid)._tag === "Invalid"

/**
 * Whether a frame is a request (a `method` and an `id`).
 * @since 0.1.0
 * @category guards
 */
export const isRequest = (frame: Frame | Message | Invalid): frame is Request =>
  !Array.isArray(frame) && "method" in frame && "id" in frame

/**
 * Whether a frame is a notification (a `method` and no `id`).
 * @since 0.1.0
 * @category guards
 */
export const isNotification = (frame: Frame | Message | Invalid): frame is Notification =>
  !Array.isArray(frame) && "method" in frame && !("id" in frame)

/**
 * Whether a frame is a response (a `result` or an `error`, no `method`).
 * @since 0.1.0
 * @category guards
 */
export const isResponse = (frame: Frame | Message | Invalid): frame is Response =>
  !Array.isArray(frame) && !("method" in frame) && ("result" in frame || "error" in frame)

/**
 * Whether a message is an error response.
 * @since 0.1.0
 * @category guards
 */
export const isErrorResponse = (message: Message): message is ErrorResponse => "error" in message

// ----------------------------------------------------------------------------
// decoding
// ----------------------------------------------------------------------------

const isId = (u: unknown): u is RequestId =>
  typeof u === "string" || (typeof u === "number" && Number.isFinite(u))

const readId = (o: Record<string, unknown>): RequestId | null => (isId(o.id) ? o.id : null)

const isObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Classifies one parsed JSON value as a message, or says precisely why it is not one.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * JsonRpc.decodeMessage({ jsonrpc: "2.0", id: 7, method: "ping" }) // the request, as it came
 * JsonRpc.decodeMessage({ jsonrpc: "1.0", id: 7, method: "ping" }) // Invalid: -32600, id 7
 * ```
 * @since 0.1.0
 * @category decoding
 */
export const decodeMessage = (u: unknown): Message | Invalid => {
  if (!isObject(u)) return invalid(null, ErrorCode.InvalidRequest, "Invalid Request: a message must be a JSON object")
  if (u.jsonrpc !== "2.0") {
    return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"", !("result" in u || "error" in u) || "method" in u)
  }
  if ("method" in u) {
    if (typeof u.method !== "string") {
      return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: method must be a string")
    }
    if ("params" in u && u.params !== undefined && !isObject(u.params)) {
      return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: params must be an object")
    }
    if ("id" in u) {
      if (!isId(u.id)) return invalid(null, ErrorCode.InvalidRequest, "Invalid Request: id must be a string or a number")
      return u as unknown as Request
    }
    return u as unknown as Notification
  }
  if ("result" in u) {
    if (!isId(u.id)) return invalid(null, ErrorCode.InvalidRequest, "Invalid response: id must be a string or a number", false)
    if (!isObject(u.result)) return invalid(u.id, ErrorCode.InvalidRequest, "Invalid response: result must be an object", false)
    return u as unknown as SuccessResponse
  }
  if ("error" in u) {
    const error = u.error
    if (!(u.id === null || isId(u.id)) || !isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid error response", false)
    }
    return u as unknown as ErrorResponse
  }
  return invalid(readId(u), ErrorCode.InvalidRequest, "Invalid Request: neither a request, a notification nor a response")
}

/**
 * Decodes a parsed JSON value: a message, an invalid message, or a batch (a non-empty array).
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * const frame = JsonRpc.decode([{ jsonrpc: "2.0", method: "notifications/initialized" }])
 * JsonRpc.isBatch(frame) // true
 * ```
 * @since 0.1.0
 * @category decoding
 */
export const decode = (u: unknown): Frame => {
  if (Array.isArray(u)) {
    if (u.length === 0) return invalid(null, ErrorCode.InvalidRequest, "Invalid Request: empty batch")
    return u.map(decodeMessage)
  }
  return decodeMessage(u)
}

/**
 * Default deepest nesting of arrays and objects accepted in a message (see
 * {@link parseJson}).
 *
 * @since 0.1.0
 * @category parsing
 */
export const DEFAULT_MAX_DEPTH = JsonDepth.DEFAULT_MAX_DEPTH

/**
 * Options of {@link parseJson} and {@link parse}.
 * @since 0.1.0
 * @category models
 */
export interface ParseOptions {
  /** Deepest nesting of arrays and objects accepted (default {@link DEFAULT_MAX_DEPTH}). */
  readonly maxDepth?: number | undefined
}

/**
 * Parses JSON text, refusing nesting deeper than `maxDepth` in linear time
 * before `JSON.parse` runs: the parsed value, or the `-32700` `Invalid` (id
 * `null`) to answer with. Every transport's decoding goes through here.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * const deep = "[".repeat(100_000) + "]".repeat(100_000)
 * const parsed = JsonRpc.parseJson(deep) // an Invalid, -32700, in about a millisecond
 * ```
 * @since 0.1.0
 * @category parsing
 */
export const parseJson = (text: string, options?: ParseOptions): { readonly json: unknown } | Invalid => {
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH
  if (JsonDepth.exceeds(text, maxDepth)) {
    return invalid(null, ErrorCode.ParseError, `Parse error: JSON nested deeper than ${maxDepth} levels`)
  }
  try {
    return { json: JSON.parse(text) as unknown }
  } catch {
    return invalid(null, ErrorCode.ParseError, "Parse error: invalid JSON")
  }
}

/**
 * Parses JSON text and decodes it; text that is not JSON, or nested deeper
 * than `maxDepth`, becomes a -32700 `Invalid` with id `null`.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * const frame = JsonRpc.parse("{not json")
 * if (JsonRpc.isInvalid(frame)) console.log(frame.error.code) // -32700
 * ```
 * @since 0.1.0
 * @category decoding
 */
export const parse = (text: string, options?: ParseOptions): Frame => {
  const parsed = parseJson(text, options)
  return "json" in parsed ? decode(parsed.json) : parsed
}

/**
 * Encodes a message or batch as JSON text.
 *
 * @example
 * ```ts
 * import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
 *
 * JsonRpc.encode(JsonRpc.notification("notifications/initialized"))
 * // '{"jsonrpc":"2.0","method":"notifications/initialized"}'
 * ```
 * @since 0.1.0
 * @category encoding
 */
export const encode = (message: Outgoing): string => JSON.stringify(message)
