/**
 * Who may talk to an HTTP endpoint: the `Host` and `Origin` allow-lists of DNS-rebinding protection,
 * and the one list of origins that CORS (`cors.ts`) answers too. Resolved once from the options
 * (`guardOf`), checked on every request (`checkOrigin`).
 *
 * An `Origin` is allowed when it is
 * 1. listed: an entry is an origin (`https://app.example.com`, compared as the URL standard writes
 *    it: lower case, the default port dropped, so `https://App.example.com:443` is the same), a
 *    wildcard subdomain (`https://*.example.com`: any name under it, not the bare domain), or `*`;
 * 2. the request's own (its host and port are the `Host` header: a page of this server);
 * 3. a loopback origin (`localhost`, `127.0.0.1`, `[::1]`, any port or scheme) while the `Host` is a
 *    loopback name too: a page on this machine talking to a server on this machine, as before any
 *    list was given; a listed origin never takes that away.
 * `Origin: null` (a sandboxed frame, a file) is allowed only by `*` or a `null` entry.
 */
import type * as Headers from "effect/http/Headers"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { jsonRpcError } from "./validate.js"

/** `Host`/`Origin` allow-lists; `false` turns the check off. Default: loopback names, any port. */
export type DnsRebindingProtection =
  | false
  | {
    /** `Host` values (`example.com`, `example.com:8443`), or `"*"`: any host (the `Origin` check stays). */
    readonly allowedHosts?: ReadonlyArray<string> | "*" | undefined
    readonly allowedOrigins?: ReadonlyArray<string> | undefined
  }
  | undefined

/** What a request's `Host` and `Origin` are checked against; undefined: nothing is checked. */
export interface Guard {
  /** `loopback`: loopback names, any port; `any`: not checked. */
  readonly hosts: ReadonlySet<string> | "loopback" | "any"
  readonly origins: Origins
}

/** An allow-list of origins, parsed. */
export interface Origins {
  readonly any: boolean
  readonly exact: ReadonlySet<string>
  /** Wildcard subdomains: the scheme, and the host's suffix (`.example.com`, with `:port` if given). */
  readonly wildcards: ReadonlyArray<{ readonly scheme: string; readonly suffix: string }>
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

/** An origin as the URL standard serializes it (`https://example.com`), or the text itself when it is none. */
const normalized = (origin: string): string => {
  if (origin === "null") return origin
  try {
    const url = new URL(origin)
    return url.host === "" ? origin : `${url.protocol}//${url.host}`
  } catch {
    return origin
  }
}

/** Parses an allow-list of origins (the `cors` and `dnsRebindingProtection` ones, joined). */
export const originsOf = (entries: ReadonlyArray<string>): Origins => {
  const exact = new Set<string>()
  const wildcards: Array<{ scheme: string; suffix: string }> = []
  let any = false
  for (const entry of entries) {
    const wildcard = /^([a-z][a-z0-9+.-]*):\/\/\*\.(.+)$/i.exec(entry)
    if (entry === "*") any = true
    else if (wildcard !== null) wildcards.push({ scheme: `${wildcard[1]!.toLowerCase()}:`, suffix: `.${normalizedHost(wildcard[1]!, wildcard[2]!)}` })
    else exact.add(normalized(entry))
  }
  return { any, exact, wildcards }
}

/** The host part of `scheme://host` as the URL standard writes it (lower case, no default port). */
const normalizedHost = (scheme: string, host: string): string => {
  try {
    return new URL(`${scheme}://x.${host}`).host.slice(2)
  } catch {
    return host.toLowerCase()
  }
}

/**
 * The guard of an endpoint's options: `protection` (`false`: no `Host` check) and the origins
 * `cors` allows (one list with `protection.allowedOrigins`). Undefined only when neither asks for
 * a check (`protection: false`, no `cors`).
 */
export const guardOf = (protection: DnsRebindingProtection, corsOrigins?: ReadonlyArray<string>): Guard | undefined => {
  if (protection === false && corsOrigins === undefined) return undefined
  const allowedHosts = protection === false ? "*" : protection?.allowedHosts
  return {
    hosts: allowedHosts === "*" ? "any" : allowedHosts === undefined ? "loopback" : new Set(allowedHosts),
    origins: originsOf([...(protection === false ? [] : protection?.allowedOrigins ?? []), ...(corsOrigins ?? [])])
  }
}

/** A client sends the same `Host` on every request: the last few answers are kept (parsing a URL costs a microsecond). */
const hostnames = new Map<string, string | undefined>()

export const hostnameOf = (host: string): string | undefined => {
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

const isLoopbackHost = (host: string | undefined): boolean =>
  host !== undefined && LOOPBACK_HOSTS.has(hostnameOf(host) ?? "")

/** Whether `origin` is allowed for a request to `host` (the rules of this module's comment). */
export const originAllowed = (origins: Origins, origin: string, host: string | undefined): boolean => {
  if (origins.any) return true
  const name = normalized(origin)
  if (origins.exact.has(name)) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  for (const { scheme, suffix } of origins.wildcards) {
    if (url.protocol === scheme && url.host.endsWith(suffix) && url.host.length > suffix.length) return true
  }
  if (host !== undefined && url.host === host.toLowerCase()) return true
  return LOOPBACK_HOSTS.has(url.hostname) && isLoopbackHost(host)
}

const forbidden = (message: string): HttpServerResponse.HttpServerResponse => jsonRpcError(403, -32000, message)

/** A 403 when `Host` or `Origin` is outside the allow-lists; undefined when the request may go on. */
export const checkOrigin = (
  guard: Guard | undefined,
  headers: Headers.Headers
): HttpServerResponse.HttpServerResponse | undefined => {
  if (guard === undefined) return undefined
  const host = headers["host"]
  const { hosts } = guard
  if (hosts !== "any") {
    if (host === undefined) return forbidden("Missing Host header")
    const allowed = hosts === "loopback" ? isLoopbackHost(host) : hosts.has(host) || hosts.has(hostnameOf(host) ?? "")
    if (!allowed) return forbidden(`Invalid Host: ${host}`)
  }
  const origin = headers["origin"]
  if (origin === undefined || originAllowed(guard.origins, origin, host)) return undefined
  return forbidden(`Invalid Origin: ${origin}`)
}
