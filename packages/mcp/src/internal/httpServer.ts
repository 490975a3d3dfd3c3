/**
 * What the streamable and the legacy HTTP+SSE servers share: JSON-RPC error
 * responses, DNS-rebinding checks, session ids, body reading.
 * @internal
 */
import * as Headers from "@effect/platform/Headers"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as JsonRpc from "../JsonRpc.js"

/** `Host`/`Origin` allow-lists; `false` turns the check off. Default: loopback names, any port. */
export type DnsRebindingProtection =
  | false
  | {
    readonly allowedHosts?: ReadonlyArray<string> | undefined
    readonly allowedOrigins?: ReadonlyArray<string> | undefined
  }
  | undefined

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

export const jsonRpcError = (
  status: number,
  code: number,
  message: string,
  id: JsonRpc.RequestId | null = null,
  headers?: Record<string, string>
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(JsonRpc.failure(id, { code, message }), {
    status,
    ...(headers !== undefined ? { headers: Headers.fromInput(headers) } : {})
  })

/** 128 random bits, hex. */
export const randomSessionId = (): string => {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

/** A client sends the same `Host` on every request: the last few answers are kept (parsing a URL costs a microsecond). */
const hostnames = new Map<string, string | undefined>()

const hostnameOf = (host: string): string | undefined => {
  const known = hostnames.get(host)
  if (known !== undefined || hostnames.has(host)) return known
  let hostname: string | undefined
  try {
    hostname = new URL(`http://${host}`).hostname
  } catch {
    hostname = undefined
  }
  if (hostnames.size >= 64) hostnames.clear()
  hostnames.set(host, hostname)
  return hostname
}

/** A 403 when `Host` or `Origin` is outside the allow-lists; undefined when the request may go on. */
export const checkOrigin = (
  protection: DnsRebindingProtection,
  headers: Headers.Headers
): HttpServerResponse.HttpServerResponse | undefined => {
  if (protection === false) return undefined
  const hosts = protection?.allowedHosts
  const origins = protection?.allowedOrigins
  const host = headers["host"]
  if (host === undefined) return jsonRpcError(403, -32000, "Missing Host header")
  const allowedHost = hosts !== undefined
    ? hosts.includes(host) || hosts.includes(hostnameOf(host) ?? "")
    : LOOPBACK_HOSTS.includes(hostnameOf(host) ?? "")
  if (!allowedHost) return jsonRpcError(403, -32000, `Invalid Host: ${host}`)
  const origin = headers["origin"]
  if (origin === undefined) return undefined
  let allowed = false
  if (origins !== undefined) {
    allowed = origins.includes(origin)
  } else {
    try {
      allowed = LOOPBACK_HOSTS.includes(new URL(origin).hostname)
    } catch {
      allowed = false
    }
  }
  return allowed ? undefined : jsonRpcError(403, -32000, `Invalid Origin: ${origin}`)
}

const decoder = new TextDecoder()

/**
 * What an endpoint reads of an HTTP request. `HttpServerRequest` is one; a
 * listener that skips `@effect/platform` for speed builds its own.
 */
export interface EndpointRequest {
  readonly method: string
  /** Header names in lower case. */
  readonly headers: Headers.Headers
  /** The whole body, read when asked for. */
  readonly arrayBuffer: Effect.Effect<ArrayBuffer | Uint8Array, unknown>
}

/**
 * Reads and parses a JSON body under a size limit: the parsed value, or the
 * 413/400 response to answer with.
 */
export const readJsonBody = (
  request: EndpointRequest,
  maxBytes: number
): Effect.Effect<{ readonly json: unknown } | HttpServerResponse.HttpServerResponse> =>
  Effect.suspend(() => {
    const tooLarge = () => jsonRpcError(413, -32000, `Payload Too Large: the limit is ${maxBytes} bytes`)
    const declared = Number(request.headers["content-length"])
    if (Number.isFinite(declared) && declared > maxBytes) return Effect.succeed(tooLarge())
    return Effect.match(request.arrayBuffer, {
      onFailure: () => jsonRpcError(400, JsonRpc.ErrorCode.ParseError, "Parse error: could not read the body"),
      onSuccess: (body) => {
        if (body.byteLength > maxBytes) return tooLarge()
        try {
          return { json: JSON.parse(decoder.decode(body)) as unknown }
        } catch {
          return jsonRpcError(400, JsonRpc.ErrorCode.ParseError, "Parse error: invalid JSON")
        }
      }
    })
  })

export const isParsed = (
  u: { readonly json: unknown } | HttpServerResponse.HttpServerResponse
): u is { readonly json: unknown } => "json" in u
