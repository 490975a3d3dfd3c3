/**
 * The errors of the SDK, one class per concern. What a peer answered and what
 * we answer are different types, so that an error received from the peer can
 * never go out as our own answer by accident.
 *
 * - `McpError`: a JSON-RPC error the peer answered to one of our requests
 *   (`code`, `message`, `data`, and the `method` it answered). Received only:
 *   a server handler that lets one escape (a client declining sampling) does
 *   not forward it; the server answers with an error of its own.
 * - `ErrorResponse`: the JSON-RPC error a handler fails with to choose the
 *   error sent to the peer (`ErrorResponse.invalidParams(...)`, or any code).
 * - `ResourceNotFound`: what a resource handler fails with when the resource
 *   does not exist; the server answers `-32002` with `data.uri`.
 * - `ProtocolError`: an outgoing request or notification that could not
 *   complete locally (timeout, connection closed, capability missing, …).
 * - `TransportError`: a transport failed to read or write.
 *
 * `-32603` ("Internal error") never carries internals: a defect, or a failure
 * the server cannot present (a peer's error escaping a resource or prompt
 * handler, a typed failure of one), is logged on the server and answered
 * `{ code: -32603, message: "Internal error" }`.
 *
 * @example
 * ```ts
 * import { ErrorResponse, ResourceNotFound } from "@effect-mcp/mcp/McpError"
 * import * as Effect from "effect/Effect"
 *
 * // a prompt or resource handler choosing the error the client receives
 * const badCursor = Effect.fail(ErrorResponse.invalidParams("cursor is not valid"))
 * // a resource (template) handler saying the resource does not exist: -32002
 * const missing = Effect.fail(new ResourceNotFound({ uri: "users://99" }))
 * ```
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { ErrorCode, type ErrorObject } from "./JsonRpc.js"

/** `-32002`: the resource does not exist (MCP's code for `resources/read`). */
const RESOURCE_NOT_FOUND = -32002

const withData = (code: number, message: string, data: unknown) =>
  data === undefined ? { code, message } : { code, message, data }

/**
 * Effect 4 names an error class after its identifier (`@effect-mcp/mcp/McpError`); Effect 3 named it
 * after its tag, which is what `String(error)`, logs and `Cause.pretty` showed: kept.
 */
const nameAfterTag = (errorClass: { readonly prototype: object }, tag: string): void => {
  Object.defineProperty(errorClass.prototype, "name", { value: tag, writable: true, configurable: true })
}

/**
 * A JSON-RPC error the peer answered to one of our requests. `method` names
 * the request it answered, when the engine knows it.
 *
 * Received, never sent: to answer a request with an error, fail with
 * `ErrorResponse`. A server handler that lets an `McpError` escape (it did not
 * catch the client's answer to a reverse call) gets a server error of its
 * own: a tool error result naming the failed call for `tools/call`, `-32603`
 * for other methods.
 *
 * A `-32042` (URL elicitation required): `McpClient.urlElicitations(error)`
 * reads its URLs, `McpClient.retryUrlElicitations` sends the request again
 * once they are done.
 *
 * @example
 * ```ts
 * import type { McpError } from "@effect-mcp/mcp/McpError"
 *
 * const describe = (error: McpError) => `${error.method ?? "request"} failed: ${error.code} ${error.message}`
 * ```
 * @since 0.1.0
 * @category errors
 */
export class McpError extends Schema.TaggedError<McpError>("@effect-mcp/mcp/McpError")("McpError", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optionalKey(Schema.Unknown),
  method: Schema.optionalKey(Schema.String)
}) {
  /** The error the peer answered to `method` (when known). */
  static fromObject(error: ErrorObject, method?: string): McpError {
    const fields = withData(error.code, error.message, error.data)
    return new McpError(method === undefined ? fields : { ...fields, method })
  }
  /** The JSON-RPC error object, as it came (without `method`). */
  toObject(): ErrorObject {
    return withData(this.code, this.message, this.data)
  }
}

/**
 * The JSON-RPC error a handler fails with to choose what the peer receives:
 * its `code`, `message` and `data` go out as they are.
 *
 * @example
 * ```ts
 * import { ErrorResponse } from "@effect-mcp/mcp/McpError"
 * import * as Effect from "effect/Effect"
 *
 * const refused = Effect.fail(new ErrorResponse({ code: -32001, message: "refused", data: { why: "policy" } }))
 * const invalid = Effect.fail(ErrorResponse.invalidParams("cursor is not valid"))
 * ```
 * @since 0.1.0
 * @category errors
 */
export class ErrorResponse extends Schema.TaggedError<ErrorResponse>("@effect-mcp/mcp/ErrorResponse")("ErrorResponse", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optionalKey(Schema.Unknown)
}) {
  static fromObject(error: ErrorObject): ErrorResponse {
    return new ErrorResponse(withData(error.code, error.message, error.data))
  }
  static parseError(message = "Parse error"): ErrorResponse {
    return new ErrorResponse({ code: ErrorCode.ParseError, message })
  }
  static invalidRequest(message = "Invalid Request"): ErrorResponse {
    return new ErrorResponse({ code: ErrorCode.InvalidRequest, message })
  }
  /** The method name is cut to 100 characters: a peer's 1 MB name does not come back as 1 MB. */
  static methodNotFound(method: string): ErrorResponse {
    const shown = method.length > 100 ? `${method.slice(0, 100)}…` : method
    return new ErrorResponse({ code: ErrorCode.MethodNotFound, message: `Method not found: ${shown}` })
  }
  static invalidParams(message: string, data?: unknown): ErrorResponse {
    return new ErrorResponse(withData(ErrorCode.InvalidParams, message, data))
  }
  /** `-32603` with no details: log what happened instead. */
  static internal(): ErrorResponse {
    return new ErrorResponse({ code: ErrorCode.InternalError, message: "Internal error" })
  }
  /** `-32002` with `data.uri`. */
  static resourceNotFound(uri: string): ErrorResponse {
    return new ErrorResponse({ code: RESOURCE_NOT_FOUND, message: `Resource not found: ${uri}`, data: { uri } })
  }
  toObject(): ErrorObject {
    return withData(this.code, this.message, this.data)
  }
}

/**
 * What a resource or resource-template handler fails with when the resource
 * does not exist. The server answers `resources/read` with `-32002`
 * ("Resource not found") and `data.uri`: `uri` when given, else the URI read.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import { ResourceNotFound } from "@effect-mcp/mcp/McpError"
 * import * as Effect from "effect/Effect"
 *
 * const users = new Map([["1", "Ada"]])
 * const User = McpServer.resourceTemplate({
 *   uriTemplate: "users://{id}",
 *   name: "user",
 *   read: ({ id }) => {
 *     const name = users.get(id)
 *     return name === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(name)
 *   }
 * })
 * ```
 * @since 0.1.0
 * @category errors
 */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>("@effect-mcp/mcp/ResourceNotFound")(
  "ResourceNotFound",
  { uri: Schema.optionalKey(Schema.String) }
) {
  override get message(): string {
    return this.uri === undefined ? "Resource not found" : `Resource not found: ${this.uri}`
  }
}

/**
 * Why an outgoing request or notification failed on our side (no answer came).
 *
 * @example
 * ```ts
 * import type { ProtocolError } from "@effect-mcp/mcp/McpError"
 *
 * const retryable = (error: ProtocolError) => error.reason === "Timeout" || error.reason === "ConnectionClosed"
 * ```
 * @since 0.1.0
 * @category errors
 */
export class ProtocolError extends Schema.TaggedError<ProtocolError>("@effect-mcp/mcp/ProtocolError")("ProtocolError", {
  reason: Schema.Literals([
    "Timeout",
    "ConnectionClosed",
    "CapabilityMissing",
    "InvalidResult",
    "NotInitialized",
    "RequestEnded",
    "LimitExceeded",
    "Transport",
    "InputRequest"
  ]),
  method: Schema.String,
  message: Schema.String,
  cause: Schema.optionalKey(Schema.Defect())
}) {}

/**
 * A transport could not read or write, or a server transport could not listen;
 * the message names the cause (the code, the URL or address, the HTTP
 * status, …). `reason` sorts it:
 *
 * - `Connect`: the peer could not be reached (refused, DNS, TLS, unreachable);
 * - `Timeout`: an exchange took longer than its bound;
 * - `HttpStatus`: the server answered a non-2xx status without a JSON-RPC error (`status`);
 * - `Read` / `Write`: a connection broke while reading or writing;
 * - `Closed`: the transport, or the peer's session, is gone;
 * - `SessionLost`: the server no longer knows the session (HTTP 404) and the
 *   message was not processed; `McpClient` re-initializes and sends it again;
 * - `SessionIdUnreadable`: the server requires the `Mcp-Session-Id` it issued,
 *   but its answer to initialize carried none the client could read (in a
 *   browser: the server's CORS does not expose the header);
 * - `Protocol`: the peer broke the transport's rules;
 * - `Listen`: a server transport could not listen (e.g. `EADDRINUSE`).
 *
 * `code` is the system or TLS error code when there is one (`ECONNREFUSED`,
 * `ENOTFOUND`, `ERR_SSL_WRONG_VERSION_NUMBER`, …).
 *
 * @example
 * ```ts
 * import type { TransportError } from "@effect-mcp/mcp/McpError"
 *
 * const refused = (error: TransportError) => error.reason === "Connect" && error.code === "ECONNREFUSED"
 * const portInUse = (error: TransportError) => error.reason === "Listen" && error.message.includes("EADDRINUSE")
 * ```
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>("@effect-mcp/mcp/TransportError")("TransportError", {
  reason: Schema.Literals([
    "Closed",
    "Read",
    "Write",
    "Protocol",
    "Listen",
    "Connect",
    "Timeout",
    "HttpStatus",
    "SessionLost",
    "SessionIdUnreadable"
  ]),
  message: Schema.String,
  cause: Schema.optionalKey(Schema.Defect()),
  code: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Number)
}) {}

nameAfterTag(McpError, "McpError")
nameAfterTag(ErrorResponse, "ErrorResponse")
nameAfterTag(ResourceNotFound, "ResourceNotFound")
nameAfterTag(ProtocolError, "ProtocolError")
nameAfterTag(TransportError, "TransportError")
