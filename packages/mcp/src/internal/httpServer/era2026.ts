/**
 * The 2026-07-28 edge of the streamable HTTP server: which POSTs are 2026
 * (body first: an envelope claim, or `server/discover`; the
 * `MCP-Protocol-Version` header only cross-checks, and decides for a request
 * with no claim), the checks before the engine sees one (batch, envelope,
 * header/body agreement: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`
 * base64-wrapped or not, then the version; a POSTed response, which that era
 * cannot have, under a 2026 version header even in a session), and the HTTP status of a 2026
 * answer (−32601 is 404; −32020, −32021, −32022 and a bad envelope are 400;
 * everything else a handler answers stays 200). Every refusal carries the
 * request's id.
 */
import type * as Headers from "effect/http/Headers"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Result from "effect/Result"
import * as JsonRpc from "../../JsonRpc.js"
import * as McpSchema2026 from "../schema2026/core.js"
import * as ProtocolEra from "../../ProtocolEra.js"
import * as Headers2026 from "../headers2026.js"
import { readEnvelope, unsupportedVersion } from "../server/era2026.js"
import { jsonRpcError } from "./validate.js"

type Messages = ReadonlyArray<JsonRpc.Message | JsonRpc.Invalid>
type Eras = "both" | "2025" | "2026" | undefined

/** Whether the `MCP-Protocol-Version` header names a 2026 version. */
const headerIs2026 = (headers: Headers.Headers): boolean => {
  const version = headers[Headers2026.PROTOCOL_VERSION]
  return version !== undefined && ProtocolEra.eraOf(version.trim()) === "2026"
}

/**
 * Whether a POST (with or without `Mcp-Session-Id`, which that era ignores) is for the 2026
 * path: a 2026-only server's always; a 2025-only server's never; else a batch with an enveloped element or a 2026 header (refused
 * there), a request whose body says 2026 (`ProtocolEra.requestEra`) or that carries a 2026
 * header and no `initialize`, a notification under a 2026 header or claim.
 */
export const is2026 = (eras: Eras, headers: Headers.Headers, messages: Messages, isBatch: boolean): boolean => {
  if (eras === "2025") return false
  if (eras === "2026") return true
  if (isBatch) {
    return headerIs2026(headers) ||
      messages.some((m) => !JsonRpc.isInvalid(m) && "method" in m && ProtocolEra.hasEnvelopeClaim(m.params))
  }
  const m = messages[0]!
  if (JsonRpc.isInvalid(m) || !("method" in m)) return false
  const era = ProtocolEra.requestEra(m.method, m.params)
  return era === "2026" || (era === undefined && headerIs2026(headers))
}

/**
 * The 405 of a GET or DELETE on the 2026 path (a 2026-only server's, or one without a session
 * that names a 2026 version): that era has no standing stream and no session to end.
 */
export const notAllowed = (eras: Eras, headers: Headers.Headers): HttpServerResponse.HttpServerResponse | undefined =>
  eras === "2026" || (eras !== "2025" && headers["mcp-session-id"] === undefined && headerIs2026(headers))
    ? jsonRpcError(405, -32000, "Method Not Allowed: protocol revision 2026-07-28 serves POST only", null, { allow: "POST" })
    : undefined

const error = (
  status: number,
  id: JsonRpc.RequestId | null,
  code: number,
  message: string,
  data?: unknown
): HttpServerResponse.HttpServerResponse =>
  jsonRpcError(status, code, message, id, undefined, data)

const mismatch = (id: JsonRpc.RequestId, found: Headers2026.Mismatch) =>
  error(400, id, McpSchema2026.HEADER_MISMATCH, Headers2026.mismatchMessage(found), Headers2026.mismatchData(found))

/**
 * The refusal of a POSTed JSON-RPC response in 2026-07-28: that era has no server-to-client
 * requests (a server asks for input in an `InputRequiredResult`, answered by the request's
 * retry), so a response answers nothing. Its id is null: it names no request of the client's.
 */
const noRequestsToAnswer = () =>
  error(
    400,
    null,
    JsonRpc.ErrorCode.InvalidRequest,
    "Invalid Request: a JSON-RPC response was POSTed, but protocol revision 2026-07-28 has no server-to-client " +
      "requests to answer (a server asks for input in an InputRequiredResult, answered by retrying the request " +
      "with inputResponses)"
  )

/**
 * A POSTed JSON-RPC response (not in a batch) on the 2026 path: under a 2026
 * `MCP-Protocol-Version` (with or without `Mcp-Session-Id`: that era has no sessions either), or
 * to a 2026-only server. Refused 400 (−32600) saying why; undefined for everything else.
 */
export const strayResponse = (
  eras: Eras,
  headers: Headers.Headers,
  messages: Messages,
  isBatch: boolean
): HttpServerResponse.HttpServerResponse | undefined => {
  if (eras === "2025" || isBatch) return undefined
  const m = messages[0]
  if (m === undefined || JsonRpc.isInvalid(m) || "method" in m) return undefined
  return eras === "2026" || headerIs2026(headers) ? noRequestsToAnswer() : undefined
}

/**
 * The refusal of a 2026 POST before the engine, or undefined when it may go on: a batch
 * (−32600), a response (−32600, see `strayResponse`), a bad envelope (−32602), headers that disagree with the body or
 * are missing (−32020), a version not served (−32022). A notification is let through (the
 * caller answers 202).
 */
export const refuse = (
  eras: Eras,
  headers: Headers.Headers,
  messages: Messages,
  isBatch: boolean,
  supported: ReadonlyArray<string>
): HttpServerResponse.HttpServerResponse | undefined => {
  if (isBatch) {
    return error(400, null, JsonRpc.ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported by protocol revision 2026-07-28")
  }
  const m = messages[0]!
  if (JsonRpc.isInvalid(m)) return undefined
  if (!("method" in m)) return noRequestsToAnswer()
  if (!JsonRpc.isRequest(m)) return undefined
  const { id, method, params } = m
  if (eras === "2026" && !ProtocolEra.hasEnvelopeClaim(params) && method !== "server/discover" && !headerIs2026(headers)) {
    // a 2026-only server has no 2025 path: say which versions it serves
    const init = method === "initialize" ? (params as { readonly protocolVersion?: unknown } | undefined) : undefined
    const requested = init?.protocolVersion ?? headers[Headers2026.PROTOCOL_VERSION]
    const e = unsupportedVersion(requested, supported)
    return error(400, id, e.code, e.message, e.data)
  }
  // the envelope first (its shape), then the headers against the body, then the version
  const envelope = readEnvelope(params, supported)
  if (Result.isFailure(envelope) && envelope.failure.code === JsonRpc.ErrorCode.InvalidParams) {
    return error(400, id, envelope.failure.code, envelope.failure.message, envelope.failure.data)
  }
  const disagrees = Headers2026.checkVersionAndMethod(headers, ProtocolEra.envelopeVersion(params)!, method)
  if (disagrees !== undefined) return mismatch(id, disagrees)
  if (Result.isFailure(envelope)) return error(400, id, envelope.failure.code, envelope.failure.message, envelope.failure.data)
  const name = Headers2026.checkName(headers, method, params)
  if (name !== undefined) return mismatch(id, name)
  return undefined
}

/**
 * The HTTP status of a 2026 answer: −32601 is 404; −32020, −32021, −32022 and −32600 are 400;
 * everything else (results, errors a handler answered, −32602 of params) is 200.
 */
export const statusOf = (message: JsonRpc.Message): number => {
  if (!("error" in message)) return 200
  const code = (message as JsonRpc.ErrorResponse).error.code
  return code === JsonRpc.ErrorCode.MethodNotFound
    ? 404
    : code === McpSchema2026.HEADER_MISMATCH || code === McpSchema2026.MISSING_REQUIRED_CLIENT_CAPABILITY ||
        code === McpSchema2026.UNSUPPORTED_PROTOCOL_VERSION || code === JsonRpc.ErrorCode.InvalidRequest
    ? 400
    : 200
}
