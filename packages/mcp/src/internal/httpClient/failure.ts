/**
 * What went wrong with an HTTP exchange, in words a user can act on: the
 * `TransportError`s of the HTTP client transports. `effect/http` reports
 * every network failure as `Transport error (POST <url>)` (an `HttpClientError`
 * whose `reason` is a `TransportError`, its `cause` the reason's); the system
 * error (ECONNREFUSED, ENOTFOUND, a TLS alert, …) is a few `cause`s down.
 */
import type * as HttpClientError from "effect/http/HttpClientError"
import type * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"

/** The first `code` on the cause chain (undici and fetch wrap the system error once or twice). */
const systemError = (error: unknown): { readonly code: string | undefined; readonly message: string | undefined } => {
  let current = error
  let innermost: string | undefined
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof message === "string") innermost = message
    if (typeof code === "string") return { code, message: typeof message === "string" ? message : undefined }
    current = cause
  }
  return { code: undefined, message: innermost }
}

const isTls = (code: string) =>
  code.startsWith("ERR_SSL") || code.startsWith("ERR_TLS") || code.startsWith("CERT_") || code === "EPROTO" ||
  code.includes("SELF_SIGNED") || code.startsWith("UNABLE_TO_") || code === "HOSTNAME_MISMATCH"

const firstLine = (text: string | undefined) => (text ?? "").split("\n")[0]!.trim()

/**
 * The `TransportError` of an exchange that got no HTTP answer. `reason` is
 * what the exchange was doing (`Write` for a POST, `Read` for a GET) when the
 * failure is not about reaching the server at all.
 */
export const unreachable = (
  error: HttpClientError.HttpClientError | Error,
  what: string,
  url: URL,
  reason: "Read" | "Write"
): TransportError => {
  const signIn = (error as { cause?: { _tag?: unknown; message?: unknown } }).cause
  if (signIn?._tag === "OAuthError") {
    // the exchange was refused and signing in failed: say why
    return new TransportError({ reason: "HttpStatus", status: 401, message: `Signing in to ${url.href} failed: ${String(signIn.message)}`, cause: signIn })
  }
  const { code, message } = systemError((error as { cause?: unknown }).cause ?? error)
  const make = (reason: TransportError["reason"], text: string) =>
    new TransportError(code === undefined ? { reason, message: text, cause: error } : { reason, message: text, cause: error, code })
  switch (code) {
    case "ECONNREFUSED":
      return make("Connect", `Connection refused (ECONNREFUSED): nothing is listening at ${url.href}`)
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
    case "EAI_FAIL":
      return make("Connect", `DNS lookup failed for ${url.hostname} (${code}), the host of ${url.href}`)
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EHOSTDOWN":
      return make("Connect", `No route to ${url.host} (${code}) for ${url.href}`)
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return make("Timeout", `Connecting to ${url.host} timed out (${code}) for ${url.href}`)
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return make("Timeout", `The server at ${url.href} did not answer in time (${code})`)
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return make(reason, `The server at ${url.href} closed the connection (${code})`)
  }
  if (code !== undefined && isTls(code)) {
    const detail = firstLine(message).replace(/^.*SSL routines:[^:]*:/, "").replace(/:\.\.\/deps.*$/, "")
    return make("Connect", `TLS handshake with ${url.host} failed (${code}${detail === "" ? "" : `: ${detail}`}) for ${url.href}`)
  }
  const detail = firstLine(message) || error.message
  return make(reason, `${what} ${url.href} failed${code === undefined ? "" : ` (${code})`}: ${detail}`)
}

/** An exchange that took longer than its bound. */
export const timedOut = (what: string, url: URL, millis: number): TransportError =>
  new TransportError({ reason: "Timeout", message: `${what} ${url.href} got no answer within ${millis} ms` })

/**
 * A non-2xx answer: the server's JSON-RPC error when its body is one (an
 * answer of the peer), else a `TransportError` with the status.
 */
export const refused = (
  status: number,
  body: string,
  what: string,
  url: URL
): { readonly _tag: "Peer"; readonly error: JsonRpc.ErrorObject } | { readonly _tag: "Transport"; readonly error: TransportError } => {
  try {
    const parsed = JSON.parse(body) as { readonly error?: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown } }
    const error = parsed?.error
    if (typeof error?.code === "number" && typeof error.message === "string") {
      return {
        _tag: "Peer",
        error: error.data === undefined
          ? { code: error.code, message: error.message }
          : { code: error.code, message: error.message, data: error.data }
      }
    }
  } catch {
    // not JSON: described below
  }
  return { _tag: "Transport", error: statusError(status, body, what, url) }
}

/** A non-2xx answer as a `TransportError` naming the status (and the start of the body). */
export const statusError = (status: number, body: string, what: string, url: URL): TransportError => {
  const text = body.trim()
  return new TransportError({
    reason: "HttpStatus",
    status,
    message: `${what} ${url.href} answered HTTP ${status}${text === "" ? "" : `: ${text.slice(0, 200)}`}`
  })
}

/**
 * A 400 to an exchange sent without a session id in an initialized session that got none: the
 * server asks for the `Mcp-Session-Id` it issued, which the client could not read in the answer to
 * initialize (a browser reads a cross-origin answer's header only when the server lists it in
 * `Access-Control-Expose-Headers`). Undefined for any other answer.
 */
export const sessionIdUnreadable = (
  status: number,
  body: string,
  what: string,
  url: URL,
  session: { readonly id: string | undefined; readonly initialized: boolean }
): TransportError | undefined => {
  if (status !== 400 || session.id !== undefined || !session.initialized || !/mcp-session-id/i.test(body)) return undefined
  return new TransportError({
    reason: "SessionIdUnreadable",
    status,
    message: `${what} ${url.href} was refused for want of the Mcp-Session-Id the server issued on initialize, but its ` +
      `answer to initialize carried no Mcp-Session-Id this client could read: a browser reads a cross-origin ` +
      `answer's header only when the server lists it in Access-Control-Expose-Headers (expose Mcp-Session-Id: ` +
      `the cors option of @effect-mcp's HTTP servers does)`
  })
}
