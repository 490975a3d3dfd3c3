/**
 * The errors of the SDK, one class per concern.
 *
 * - `McpError`: a JSON-RPC error, either received from the peer or raised by a
 *   handler to be sent to it (`code`, `message`, `data`).
 * - `ProtocolError`: an outgoing request or notification that could not
 *   complete locally (timeout, connection closed, capability missing, …).
 * - `TransportError`: a transport failed to read or write.
 *
 * @example
 * ```ts
 * import { McpError } from "@effect-mcp/mcp/McpError"
 * import * as Effect from "effect/Effect"
 *
 * const handler = Effect.fail(McpError.invalidParams("cursor is not valid"))
 * ```
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { ErrorCode, type ErrorObject } from "./JsonRpc.js"

/** A JSON-RPC error: sent by the peer, or to be sent to it. */
export class McpError extends Schema.TaggedError<McpError>("@effect-mcp/mcp/McpError")("McpError", {
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optionalWith(Schema.Unknown, { exact: true })
}) {
  static fromObject(error: ErrorObject): McpError {
    return new McpError(error.data === undefined ? { code: error.code, message: error.message } : error)
  }
  static parseError(message = "Parse error"): McpError {
    return new McpError({ code: ErrorCode.ParseError, message })
  }
  static invalidRequest(message = "Invalid Request"): McpError {
    return new McpError({ code: ErrorCode.InvalidRequest, message })
  }
  static methodNotFound(method: string): McpError {
    return new McpError({ code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` })
  }
  static invalidParams(message: string, data?: unknown): McpError {
    return new McpError(data === undefined ? { code: ErrorCode.InvalidParams, message } : { code: ErrorCode.InvalidParams, message, data })
  }
  static internal(message = "Internal error"): McpError {
    return new McpError({ code: ErrorCode.InternalError, message })
  }
  toObject(): ErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data }
  }
}

/** Why an outgoing request or notification failed on our side. */
export class ProtocolError extends Schema.TaggedError<ProtocolError>("@effect-mcp/mcp/ProtocolError")("ProtocolError", {
  reason: Schema.Literal(
    "Timeout",
    "ConnectionClosed",
    "CapabilityMissing",
    "InvalidResult",
    "NotInitialized",
    "RequestEnded",
    "LimitExceeded",
    "Transport"
  ),
  method: Schema.String,
  message: Schema.String,
  cause: Schema.optionalWith(Schema.Defect, { exact: true })
}) {}

/** A transport could not read or write. */
export class TransportError extends Schema.TaggedError<TransportError>("@effect-mcp/mcp/TransportError")("TransportError", {
  reason: Schema.Literal("Closed", "Read", "Write", "Protocol"),
  message: Schema.String,
  cause: Schema.optionalWith(Schema.Defect, { exact: true })
}) {}
