/**
 * OpenTelemetry's MCP semantic conventions (semantic-conventions-genai,
 * `docs/gen-ai/mcp.md`), the one home both sides read: span names
 * (`{mcp.method.name} {target}`), the attributes of a request or notification, how its end
 * is classified (`error.type`, `rpc.response.status_code`, the status), and
 * the duration metrics. The engine calls this only under a tracer that
 * collects spans (`tracing.ts`): nothing here runs on the untraced path.
 *
 * Kinds: what a side sends is a CLIENT span, what it handles a SERVER span
 * (a server's reverse calls are CLIENT on the server, SERVER on the client).
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import * as Metric from "effect/Metric"
import type * as Tracer from "effect/Tracer"
import type * as JsonRpc from "../JsonRpc.js"
import * as McpTelemetry from "../McpTelemetry.js"
import type { TransportInfo } from "../Transport.js"
import { PROTOCOL_VERSION_META_KEY } from "./envelopeClaim.js"
import * as TraceContext from "./traceContext.js"

/** `TransportInfo.attributes` of an HTTP server's sessions. */
export const HTTP_SERVER_ATTRIBUTES: { readonly [key: string]: string } = {
  "network.transport": "tcp",
  "network.protocol.name": "http"
}

/** `TransportInfo.attributes` of an HTTP client of `url`. */
export const httpClientAttributes = (url: URL): { readonly [key: string]: string | number } => ({
  "network.transport": "tcp",
  "network.protocol.name": "http",
  "server.address": url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
  "server.port": url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80
})

/** What an engine knows of its session, for the attributes of its spans. */
export interface Facts {
  readonly side: "client" | "server"
  readonly info: TransportInfo | undefined
  /** `ProtocolOptions.sessionId`, else the transport's (an HTTP session's id, once known). */
  readonly sessionId?: string | undefined
  /** The negotiated protocol version (2025), when known; a 2026 request carries its own. */
  readonly protocolVersion: () => string | undefined
}

type Attributes = Record<string, unknown>

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The low-cardinality target of a span's name: the tool's or the prompt's name. */
const targetOf = (method: string, params: JsonRpc.Params | undefined): string | undefined =>
  (method === "tools/call" || method === "prompts/get") && typeof params?.name === "string" ? params.name : undefined

/** `{mcp.method.name} {target}`, or the method alone. */
export const spanName = (method: string, params: JsonRpc.Params | undefined): string => {
  const target = targetOf(method, params)
  return target === undefined ? method : `${method} ${target}`
}

const versionOf = (facts: Facts, params: JsonRpc.Params | undefined): string | undefined => {
  const meta = params?._meta
  const carried = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined
  return typeof carried === "string" ? carried : facts.protocolVersion() ?? facts.info?.protocolVersion
}

/** What a request's operation is, for its span and its duration metric (low cardinality). */
const operationAttributes = (facts: Facts, method: string, params: JsonRpc.Params | undefined): Attributes => {
  const attributes: Attributes = { "mcp.method.name": method }
  const name = params?.name
  if (method === "tools/call" && typeof name === "string") {
    attributes["gen_ai.tool.name"] = name
    attributes["gen_ai.operation.name"] = "execute_tool"
  } else if (method === "prompts/get" && typeof name === "string") {
    attributes["gen_ai.prompt.name"] = name
  }
  const version = versionOf(facts, params)
  if (version !== undefined) attributes["mcp.protocol.version"] = version
  const network = facts.info?.attributes
  if (network !== undefined) {
    for (const key in network) {
      // the peer's address is the sender's to record (the conventions give `server.*` to the client)
      if (facts.side === "server" && key.startsWith("server.")) continue
      attributes[key] = network[key]
    }
  }
  return attributes
}

/** The attributes a request's span starts with. */
export const spanAttributes = (
  facts: Facts,
  method: string,
  params: JsonRpc.Params | undefined,
  id: JsonRpc.RequestId | undefined,
  recordContent: boolean
): Attributes => {
  const attributes = operationAttributes(facts, method, params)
  if (id !== undefined) attributes["jsonrpc.request.id"] = String(id)
  const session = facts.sessionId ?? facts.info?.sessionId
  if (session !== undefined) attributes["mcp.session.id"] = session
  const uri = params?.uri
  if (typeof uri === "string" && (method.startsWith("resources/") || method === "notifications/resources/updated")) {
    attributes["mcp.resource.uri"] = uri
  }
  if (recordContent) {
    if (method === "tools/call" && params?.arguments !== undefined) {
      attributes["gen_ai.tool.call.arguments"] = JSON.stringify(params.arguments)
    }
    if (method === "prompts/get" && isObject(params?.arguments)) {
      for (const [key, value] of Object.entries(params.arguments)) {
        attributes[`gen_ai.prompt.variable.${key}`] = typeof value === "string" ? value : JSON.stringify(value)
      }
    }
  }
  return attributes
}

/** How a request ended, as the conventions record it. */
interface Outcome {
  readonly errorType: string | undefined
  readonly statusCode: number | undefined
  readonly message: string | undefined
}

const OK: Outcome = { errorType: undefined, statusCode: undefined, message: undefined }

/** A receiver counts only these codes as its own failure: the rest are the caller's. */
const receiverFails = (code: number): boolean => code === -32603 || (code <= -32000 && code >= -32099)

const snake = (reason: string): string => reason.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()

const toolError = (method: string, result: unknown): boolean =>
  method === "tools/call" && isObject(result) && result.isError === true

/** The outcome of a call as its sender saw it: every JSON-RPC error code is an error. */
const sent = (method: string, exit: Exit.Exit<unknown, unknown>): Outcome => {
  if (Exit.isSuccess(exit)) return toolError(method, exit.value) ? { ...OK, errorType: "tool_error", message: "tool_error" } : OK
  if (Cause.hasInterruptsOnly(exit.cause)) return { ...OK, errorType: "cancelled", message: "cancelled" }
  const error = Cause.findErrorOption(exit.cause)
  if (error._tag === "None") return { ...OK, errorType: "_OTHER", message: "defect" }
  const e = error.value as { readonly _tag?: string; readonly code?: unknown; readonly reason?: unknown; readonly message?: unknown }
  const message = typeof e.message === "string" ? e.message : undefined
  if (e._tag === "McpError" && typeof e.code === "number") return { errorType: String(e.code), statusCode: e.code, message }
  if (e._tag === "ProtocolError" && typeof e.reason === "string") {
    return { errorType: e.reason === "Transport" ? "transport_error" : snake(e.reason), statusCode: undefined, message }
  }
  return { errorType: typeof e._tag === "string" ? e._tag : "_OTHER", statusCode: undefined, message }
}

/** The outcome of a request as its receiver answered it: only its own failures are errors. */
const handled = (method: string, exit: Exit.Exit<unknown, unknown>): Outcome => {
  if (Exit.isSuccess(exit)) return toolError(method, exit.value) ? { ...OK, errorType: "tool_error", message: "tool_error" } : OK
  if (Cause.hasInterruptsOnly(exit.cause)) return { ...OK, errorType: "cancelled", message: "cancelled" }
  const error = Cause.findErrorOption(exit.cause)
  const e = error._tag === "Some" ? error.value as { readonly _tag?: string; readonly code?: unknown; readonly message?: unknown } : undefined
  // anything but an ErrorResponse is answered -32603
  const code = e !== undefined && e._tag === "ErrorResponse" && typeof e.code === "number" ? e.code : -32603
  const message = e !== undefined && typeof e.message === "string" ? e.message : "Internal error"
  return receiverFails(code) ? { errorType: String(code), statusCode: code, message } : { ...OK, statusCode: code }
}

/** The status a span ends with: an error carrying the JSON-RPC message, or none. */
class Failed extends Error {
  constructor(readonly errorType: string, message: string) {
    super(message)
    this.name = errorType
  }
}

const durations = {
  client: McpTelemetry.clientOperationDuration,
  server: McpTelemetry.serverOperationDuration
} as const

/** Attribute sets seen, past which the cache of series starts over (the registry keeps its series). */
const MAX_SERIES = 1024
const series = new Map<string, Metric.Histogram<number>>()

/**
 * `metric` with `attributes` as its own: the series `Metric.withAttributes` names (same id,
 * description and attributes), made once per attribute set. `withAttributes` would add the
 * attributes to the context of every update, and the series' key (sorted, as JSON) be made
 * again each time.
 */
const seriesOf = (metric: Metric.Histogram<number>, attributes: Record<string, string>): Metric.Histogram<number> => {
  let key = metric.id
  for (const name in attributes) key += `\u0000${name}\u0001${attributes[name]}`
  let found = series.get(key)
  if (found === undefined) {
    if (series.size >= MAX_SERIES) series.clear()
    found = Metric.histogram(metric.id, {
      description: metric.description,
      boundaries: McpTelemetry.DURATION_BOUNDARIES,
      // the operation histograms' own attribute (`McpTelemetry`: the unit), then the operation's
      attributes: { unit: "s", ...attributes }
    })
    series.set(key, found)
  }
  return found
}

/** Ends `span` with the attributes and status `outcome` gives, and records the operation's duration. */
const finish = (
  fiber: Fiber.Fiber<unknown, unknown>,
  span: Tracer.Span,
  operation: Attributes,
  outcome: Outcome,
  metric: Metric.Histogram<number>
): void => {
  const metricAttributes: Record<string, string> = {}
  for (const key in operation) metricAttributes[key] = String(operation[key])
  if (outcome.statusCode !== undefined) {
    span.attribute("rpc.response.status_code", String(outcome.statusCode))
    metricAttributes["rpc.response.status_code"] = String(outcome.statusCode)
  }
  if (outcome.errorType !== undefined) {
    span.attribute("error.type", outcome.errorType)
    metricAttributes["error.type"] = outcome.errorType
  }
  const now = fiber.getRef(Clock.Clock).currentTimeNanosUnsafe()
  const started = span.status._tag === "Started" ? span.status.startTime : now
  span.end(
    now,
    outcome.errorType === undefined ? Exit.void : Exit.fail(new Failed(outcome.errorType, outcome.message ?? outcome.errorType))
  )
  seriesOf(metric, metricAttributes).updateUnsafe(Number(now - started) / 1e9, fiber.context)
}

/**
 * A call sent (a CLIENT span): `body` is given the span, to write its trace context into the
 * request and its id once it has one; the span ends when the call does. A notification sent
 * (`notification`: its send the operation, a notification has no answer to wait for) records no
 * content, and its send is not made the span's parent.
 */
export const sending = <A, E>(
  facts: Facts,
  method: string,
  params: JsonRpc.Params | undefined,
  body: (span: Tracer.Span) => Effect.Effect<A, E>,
  notification?: boolean
): Effect.Effect<A, E> =>
  Effect.withFiber((fiber) => {
    const content = !notification && fiber.getRef(McpTelemetry.RecordContent)
    const operation = operationAttributes(facts, method, params)
    return Effect.useSpan(spanName(method, params), {
      kind: "client",
      attributes: spanAttributes(facts, method, params, undefined, content)
    }, (span) =>
      // the exchange that carries the call (an HTTP POST's span) is the call's child
      Effect.onExit(notification ? body(span) : Effect.withParentSpan(body(span), span, { captureStackTrace: false }), (exit) =>
        Effect.withFiber((f) => {
          if (content && Exit.isSuccess(exit) && method === "tools/call") {
            span.attribute("gen_ai.tool.call.result", JSON.stringify(exit.value))
          }
          finish(f, span, operation, sent(method, exit), durations.client)
          return Effect.void
        })))
  })

/**
 * A notification handled (a SERVER span), parented on the trace context in its `_meta`, a root
 * without one; its handling runs in it.
 */
export const handlingNotification = <A, E>(
  facts: Facts,
  notification: JsonRpc.Notification,
  handler: Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.withFiber((fiber) =>
    handled_(
      facts,
      notification.method,
      notification.params,
      undefined,
      TraceContext.extractMeta(notification.params) ?? "root",
      fiber,
      handler,
      () => {}
    )
  )

/**
 * A request handled (a SERVER span), parented on the trace context it carries (`_meta`, or the
 * HTTP header of the POST that brought it), a root without one; the handler runs in it.
 */
export const handling = <A, E>(
  facts: Facts,
  request: JsonRpc.Request,
  fiber: Fiber.Fiber<unknown, unknown>,
  handler: Effect.Effect<A, E>,
  onSpan: (span: Tracer.Span) => void
): Effect.Effect<A, E> => {
  const parent = TraceContext.extract(request)
  return handled_(facts, request.method, request.params, request.id, parent ?? "root", fiber, handler, onSpan, TraceContext.clientOf(request))
}

const NO_VERSION = (): string | undefined => undefined

/**
 * An input request of a 2026-07-28 answer handled by the client's handlers (a SERVER span, the
 * reverse call of that era): a child of the server's round, whose trace context the answer's
 * `_meta` carries (`resultMeta`); else of the input request's own `_meta`; else of the caller's
 * span, which the rounds run in.
 */
export const answeringInput = <A, E>(
  method: string,
  params: unknown,
  resultMeta: unknown,
  handler: Effect.Effect<A, E>
): Effect.Effect<A, E> =>
  Effect.withFiber((fiber) => {
    const facts: Facts = { side: "client", info: undefined, protocolVersion: NO_VERSION }
    const p = isObject(params) ? params as JsonRpc.Params : undefined
    const parent = TraceContext.extractMeta({ _meta: resultMeta }) ?? TraceContext.extractMeta(p) ?? "current"
    return handled_(facts, method, p, undefined, parent, fiber, handler, () => {})
  })

const handled_ = <A, E>(
  facts: Facts,
  method: string,
  params: JsonRpc.Params | undefined,
  id: JsonRpc.RequestId | undefined,
  parent: Tracer.AnySpan | "root" | "current",
  fiber: Fiber.Fiber<unknown, unknown>,
  handler: Effect.Effect<A, E>,
  onSpan: (span: Tracer.Span) => void,
  client?: { readonly address: string; readonly port: number | undefined } | undefined
): Effect.Effect<A, E> => {
  const content = fiber.getRef(McpTelemetry.RecordContent)
  const operation = operationAttributes(facts, method, params)
  const attributes = spanAttributes(facts, method, params, id, content)
  // the HTTP request's remote end (the conventions' `client.*` of a server span)
  if (client !== undefined) {
    attributes["client.address"] = client.address
    if (client.port !== undefined) attributes["client.port"] = client.port
  }
  return Effect.useSpan(spanName(method, params), {
    kind: "server",
    attributes,
    ...(parent === "root" ? { root: true } : parent === "current" ? {} : { parent })
  }, (span) => {
    onSpan(span)
    return Effect.onExit(Effect.withParentSpan(handler, span, { captureStackTrace: false }), (exit) =>
      Effect.withFiber((f) => {
        if (content && Exit.isSuccess(exit) && method === "tools/call") {
          span.attribute("gen_ai.tool.call.result", JSON.stringify(exit.value))
        }
        finish(f, span, operation, handled(method, exit), durations.server)
        return Effect.void
      }))
  })
}

/** An event on the span of a request (progress, cancellation), when it has one that records. */
export const event = (
  span: Tracer.Span | undefined,
  clock: Clock.Clock,
  name: string,
  attributes: Attributes
): void => {
  if (span !== undefined && span.status._tag === "Started") span.event(name, clock.currentTimeNanosUnsafe(), attributes)
}

/** Records the duration of a session that ended, with the attributes the conventions give it. */
export const sessionEnded = (
  facts: Facts,
  context: Context.Context<never>,
  startedMillis: number,
  endedMillis: number,
  errorType: string | undefined
): void => {
  const attributes: Record<string, string> = {}
  const version = facts.protocolVersion() ?? facts.info?.protocolVersion
  if (version !== undefined) attributes["mcp.protocol.version"] = version
  const network = facts.info?.attributes
  if (network !== undefined) {
    for (const key in network) {
      if (key === "network.transport" || key === "network.protocol.name" || (facts.side === "client" && key.startsWith("server."))) {
        attributes[key] = String(network[key])
      }
    }
  }
  if (errorType !== undefined) attributes["error.type"] = errorType
  const metric = facts.side === "client" ? McpTelemetry.clientSessionDuration : McpTelemetry.serverSessionDuration
  Metric.withAttributes(metric, attributes).updateUnsafe((endedMillis - startedMillis) / 1000, context)
}

