/**
 * CORS for the streamable HTTP endpoint: preflights answered (`OPTIONS` → 204, or 403 naming what
 * is not allowed), and every answer to an allowed origin, errors and SSE streams included, marked
 * readable by it (`Access-Control-Allow-Origin`, `Access-Control-Expose-Headers`). Which origins
 * are allowed is `origins.ts`'s one list (the `Origin` check runs before this): a refused origin
 * gets its 403 with no CORS header.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Headers from "effect/http/Headers"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Answered from "../answered.js"
import { jsonRpcError } from "./validate.js"

/** The `cors` option of the HTTP servers. */
export interface CorsOptions {
  /**
   * Origins whose pages may call the endpoint (`https://app.example.com`, `https://*.example.com`,
   * or `*`); the same list is the `Origin` allow-list of DNS-rebinding protection.
   */
  readonly allowedOrigins: ReadonlyArray<string>
  /**
   * Request headers allowed besides the ones MCP clients send (`content-type`, `accept`,
   * `authorization`, `dpop`, `mcp-session-id`, `mcp-protocol-version`, `mcp-method`, `mcp-name`,
   * `mcp-param-*`, `last-event-id`, `traceparent`, `tracestate`, `baggage`, `b3`, `x-b3-*`):
   * names, or prefixes ending in `*`; `"*"` allows any.
   */
  readonly allowedHeaders?: ReadonlyArray<string> | undefined
  /** Response headers exposed besides `Mcp-Session-Id`, `MCP-Protocol-Version`, `WWW-Authenticate`. */
  readonly exposedHeaders?: ReadonlyArray<string> | undefined
  /** Send `Access-Control-Allow-Credentials: true` (cookies, TLS client certificates); default false. */
  readonly credentials?: boolean | undefined
  /** How long a browser may cache a preflight's answer (default 1 hour). */
  readonly maxAge?: Duration.Input | undefined
}

/** The request headers MCP clients send (ours, the official SDKs', their tracing): allowed by every preflight. */
export const CLIENT_HEADERS: ReadonlyArray<string> = [
  "content-type",
  "accept",
  "authorization",
  "dpop",
  "mcp-session-id",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-param-*",
  "last-event-id",
  "traceparent",
  "tracestate",
  "baggage",
  "b3",
  "x-b3-*"
]

/** The response headers a page must read: the session, the version, an auth challenge. */
export const EXPOSED_HEADERS: ReadonlyArray<string> = ["Mcp-Session-Id", "MCP-Protocol-Version", "WWW-Authenticate"]

const METHODS = ["GET", "POST", "DELETE"]

/** CORS resolved: what a preflight allows, what every answer to an allowed origin carries. */
export interface Cors {
  readonly allowsHeader: (name: string) => boolean
  readonly exposed: string
  readonly credentials: boolean
  readonly maxAgeSeconds: number
}

export const make = (options: CorsOptions): Cors => {
  const names = new Set<string>()
  const prefixes: Array<string> = []
  let any = false
  for (const entry of [...CLIENT_HEADERS, ...(options.allowedHeaders ?? [])]) {
    const name = entry.trim().toLowerCase()
    if (name === "*") any = true
    else if (name.endsWith("*")) prefixes.push(name.slice(0, -1))
    else names.add(name)
  }
  return {
    allowsHeader: (name) => any || names.has(name) || prefixes.some((prefix) => name.startsWith(prefix)),
    exposed: [...EXPOSED_HEADERS, ...(options.exposedHeaders ?? [])].join(", "),
    credentials: options.credentials === true,
    maxAgeSeconds: Math.floor(Duration.toSeconds(Duration.fromInputUnsafe(options.maxAge ?? Duration.hours(1))))
  }
}

/** Whether a request is a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`). */
export const isPreflight = (method: string, headers: Headers.Headers): boolean =>
  method === "OPTIONS" && headers["access-control-request-method"] !== undefined

/**
 * The answer to a preflight from an allowed `origin`: 204 allowing the methods and reflecting the
 * requested headers (a preflight's list is literal, so `mcp-param-*` is matched here, name by
 * name); 403 naming a method or header that is not allowed, with no CORS header.
 */
export const preflight = (cors: Cors, origin: string, headers: Headers.Headers): HttpServerResponse.HttpServerResponse => {
  const method = headers["access-control-request-method"]!.trim().toUpperCase()
  if (!METHODS.includes(method)) {
    return jsonRpcError(403, -32000, `CORS preflight refused: method ${method} is not allowed (allowed: ${METHODS.join(", ")})`)
  }
  const requested = (headers["access-control-request-headers"] ?? "").split(",").map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "")
  const refused = requested.filter((name) => !cors.allowsHeader(name))
  if (refused.length > 0) {
    return jsonRpcError(
      403,
      -32000,
      `CORS preflight refused: request header${refused.length === 1 ? "" : "s"} ${refused.join(", ")} not allowed (add ${
        refused.length === 1 ? "it" : "them"
      } to cors.allowedHeaders)`
    )
  }
  const out: Record<string, string> = {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": METHODS.join(", "),
    "access-control-max-age": String(cors.maxAgeSeconds),
    vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
  }
  if (requested.length > 0) out["access-control-allow-headers"] = requested.join(", ")
  if (cors.credentials) out["access-control-allow-credentials"] = "true"
  return HttpServerResponse.empty({ status: 204, headers: Headers.fromInput(out) })
}

/** An answer to an allowed `origin`, readable by its page: the same response (its body untouched) with the CORS headers. */
export const allow = (
  cors: Cors,
  origin: string,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  const vary = response.headers["vary"]
  const out: Record<string, string> = {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": cors.exposed,
    vary: vary === undefined ? "Origin" : `${vary}, Origin`
  }
  if (cors.credentials) out["access-control-allow-credentials"] = "true"
  return HttpServerResponse.setHeaders(response, out)
}

/** `allow` over an answer that may be `Answered`: answered still when it was (no fiber for the fast paths). */
export const allowing = (
  cors: Cors,
  origin: string,
  answer: Effect.Effect<HttpServerResponse.HttpServerResponse>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Answered.isSuccess(answer)
    ? Answered.now(allow(cors, origin, answer.value))
    : Effect.map(answer, (response) => allow(cors, origin, response))
