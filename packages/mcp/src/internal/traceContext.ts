/**
 * Trace context in `params._meta` (SEP-414), the one rule both sides read: a
 * sender writes the W3C `traceparent` of its span (and `tracestate` /
 * `baggage` it carries on from its own remote parent) into the `_meta` of
 * every request it sends; a receiver reads them back as the remote parent of
 * its span, falling back to the HTTP `traceparent` header of the POST that
 * carried the request. Effect's span ids are W3C's (32 and 16 hex digits):
 * no `@opentelemetry/*` code is needed to format or parse them.
 *
 * A request whose `_meta` already names a `traceparent` (the caller's own)
 * keeps it: what the caller put in `_meta` goes out untouched.
 */
import * as Context from "effect/Context"
import * as Tracer from "effect/Tracer"
import type * as JsonRpc from "../JsonRpc.js"

/** The `_meta` keys SEP-414 reserves, as W3C names them. */
export const TRACEPARENT = "traceparent"
export const TRACESTATE = "tracestate"
export const BAGGAGE = "baggage"

/** What a remote parent carried besides its ids, kept in the annotations of its `ExternalSpan`. */
export interface CarriedShape {
  readonly tracestate: string | undefined
  readonly baggage: string | undefined
}
export class Carried extends Context.Service<Carried, CarriedShape>()("@effect-mcp/mcp/TraceContext/Carried") {}

const TRACEPARENT_RE = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/
const ZERO_TRACE = "00000000000000000000000000000000"
const ZERO_SPAN = "0000000000000000"
const HEX_32 = /^[0-9a-f]{32}$/
const HEX_16 = /^[0-9a-f]{16}$/

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The `traceparent` of a span, or undefined when its ids are not W3C's (a custom tracer's). */
export const traceparentOf = (span: Tracer.AnySpan): string | undefined =>
  HEX_32.test(span.traceId) && HEX_16.test(span.spanId) && span.traceId !== ZERO_TRACE && span.spanId !== ZERO_SPAN
    ? `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
    : undefined

/** The remote parent a `traceparent` names (with what else came with it), or undefined when it is not one. */
export const parse = (
  traceparent: unknown,
  tracestate?: unknown,
  baggage?: unknown
): Tracer.ExternalSpan | undefined => {
  if (typeof traceparent !== "string") return undefined
  const match = TRACEPARENT_RE.exec(traceparent.trim())
  if (match === null) return undefined
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string]
  // version ff is invalid; version 00 has exactly four fields
  if (version === "ff" || (version === "00" && traceparent.trim().length !== 55)) return undefined
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined
  const state = typeof tracestate === "string" && tracestate.length > 0 ? tracestate : undefined
  const bag = typeof baggage === "string" && baggage.length > 0 ? baggage : undefined
  return Tracer.externalSpan({
    traceId,
    spanId,
    sampled: (parseInt(flags, 16) & 1) === 1,
    ...(state === undefined && bag === undefined
      ? {}
      : { annotations: Context.make(Carried, { tracestate: state, baggage: bag }) })
  })
}

/** What the nearest remote parent up the chain of `span` carried (its `tracestate`, its `baggage`). */
const carriedBy = (span: Tracer.AnySpan): CarriedShape | undefined => {
  let current: Tracer.AnySpan | undefined = span
  for (let depth = 0; current !== undefined && depth < 64; depth++) {
    if (current._tag === "ExternalSpan") return Context.getOrUndefined(current.annotations, Carried)
    current = current.parent._tag === "Some" ? current.parent.value : undefined
  }
  return undefined
}

/**
 * `params` with the trace context of `span` in its `_meta` (a copy; `params` is not written to).
 * Keys the caller set in `_meta` win: a `traceparent` of its own is kept, with its `tracestate`.
 */
export const inject = (params: JsonRpc.Params | undefined, span: Tracer.AnySpan): JsonRpc.Params | undefined => {
  const meta = isObject(params?._meta) ? params._meta : undefined
  if (meta !== undefined && typeof meta[TRACEPARENT] === "string") return params
  const traceparent = traceparentOf(span)
  if (traceparent === undefined) return params
  const carried = carriedBy(span)
  const added: Record<string, unknown> = { [TRACEPARENT]: traceparent }
  if (carried?.tracestate !== undefined) added[TRACESTATE] = carried.tracestate
  if (carried?.baggage !== undefined && meta?.[BAGGAGE] === undefined) added[BAGGAGE] = carried.baggage
  return { ...params, _meta: meta === undefined ? added : { ...meta, ...added } }
}

/** What the HTTP POST that carried a request says of it: its trace headers, the connection's remote end. */
interface Carried_ {
  readonly headers: { readonly [name: string]: string } | undefined
  readonly client: { readonly address: string; readonly port: number | undefined } | undefined
}

/**
 * Trace context of requests that came in an HTTP POST with a `traceparent` header (the fallback
 * for a request whose `_meta` has none), and the client's address and port under a tracer.
 * Weakly keyed by the request frame, noted by the HTTP server only when there is something to note.
 */
const fromHttp = new WeakMap<object, Carried_>()

/**
 * Notes the trace headers of the POST that carried `messages` (when it had a `traceparent`),
 * and `remote`, the connection's end (given only under a tracer that collects spans).
 */
export const noteHeaders = (
  messages: ReadonlyArray<unknown>,
  headers: { readonly [name: string]: string | undefined },
  remote?: { readonly remoteAddress?: string | undefined; readonly remotePort?: number | undefined } | undefined
): void => {
  const address = remote?.remoteAddress
  if (headers[TRACEPARENT] === undefined && address === undefined) return
  let kept: Record<string, string> | undefined
  if (headers[TRACEPARENT] !== undefined) {
    kept = {}
    for (const name of [TRACEPARENT, TRACESTATE, BAGGAGE]) {
      const value = headers[name]
      if (value !== undefined) kept[name] = value
    }
  }
  const carried: Carried_ = {
    headers: kept,
    client: address === undefined ? undefined : { address, port: remote?.remotePort }
  }
  for (const m of messages) if (isObject(m) && "method" in m && "id" in m) fromHttp.set(m, carried)
}

/** The address and port of the client that sent `request` over HTTP, when the server noted them. */
export const clientOf = (request: JsonRpc.Request): Carried_["client"] => fromHttp.get(request)?.client

/** The remote parent named in the `_meta` of `params`, if any. */
export const extractMeta = (params: JsonRpc.Params | undefined): Tracer.ExternalSpan | undefined => {
  const meta = params?._meta
  return isObject(meta) && meta[TRACEPARENT] !== undefined ? parse(meta[TRACEPARENT], meta[TRACESTATE], meta[BAGGAGE]) : undefined
}

/** The remote parent of a request: from its `_meta`, else from the HTTP headers that carried it. */
export const extract = (request: JsonRpc.Request): Tracer.ExternalSpan | undefined => {
  const own = extractMeta(request.params)
  if (own !== undefined) return own
  const headers = fromHttp.get(request)?.headers
  return headers === undefined ? undefined : parse(headers[TRACEPARENT], headers[TRACESTATE], headers[BAGGAGE])
}
