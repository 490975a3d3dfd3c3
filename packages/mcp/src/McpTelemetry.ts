/**
 * OpenTelemetry's MCP semantic conventions, as the SDK records them: a span
 * per request and per notification on both sides (`{mcp.method.name} {target}`,
 * CLIENT where it is sent, SERVER where it is handled), trace context carried
 * in `params._meta` (SEP-414), and the four duration histograms. All of it is
 * recorded only under a tracer that collects spans (`@effect/opentelemetry`'s
 * `NodeSdk.layer`, or any `Tracer` other than Effect's built-in one): with
 * none installed the SDK makes no span, no attribute and no metric update.
 *
 * This module holds what a user may set (`RecordContent`, the opt-in
 * attributes that can hold user data) and the metrics, for reading them.
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"

/**
 * Whether spans record what can hold user data: `gen_ai.tool.call.arguments`,
 * `gen_ai.tool.call.result` and `gen_ai.prompt.variable.<name>` (opt-in in the
 * conventions). Off by default.
 *
 * @since 0.1.0
 * @category references
 * @example
 * ```ts
 * import * as McpTelemetry from "@effect-mcp/mcp/McpTelemetry"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.void.pipe(Effect.provideService(McpTelemetry.RecordContent, true))
 * ```
 */
export const RecordContent: Context.Reference<boolean> = Context.Reference<boolean>(
  "@effect-mcp/mcp/McpTelemetry/RecordContent",
  { defaultValue: () => false }
)

/**
 * `RecordContent` on, as a Layer (provide it where the client or server is built).
 *
 * @since 0.1.0
 * @category layers
 * @example
 * ```ts
 * import * as McpTelemetry from "@effect-mcp/mcp/McpTelemetry"
 *
 * const layer = McpTelemetry.layerRecordContent
 * ```
 */
export const layerRecordContent: Layer.Layer<never> = Layer.succeed(RecordContent, true)

/**
 * The bucket boundaries the conventions advise for the duration histograms, in seconds.
 *
 * @since 0.1.0
 * @category metrics
 */
export const DURATION_BOUNDARIES: ReadonlyArray<number> = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]

const SESSION_BOUNDARIES: ReadonlyArray<number> = [...DURATION_BOUNDARIES, 600, 1800, 3600, 14400, 86400]

// `@effect/opentelemetry` reads a metric's unit off its `unit` attribute
const seconds = { unit: "s" } as const

/**
 * `mcp.client.operation.duration` (s): a request as its sender sees it, from sent to answered.
 *
 * @since 0.1.0
 * @category metrics
 */
export const clientOperationDuration: Metric.Histogram<number> = Metric.histogram("mcp.client.operation.duration", {
  description: "The duration of the MCP request as observed on the sender from the time it was sent until the response is received.",
  boundaries: DURATION_BOUNDARIES,
  attributes: seconds
})

/**
 * `mcp.server.operation.duration` (s): a request as its receiver sees it, from received to answered.
 *
 * @since 0.1.0
 * @category metrics
 */
export const serverOperationDuration: Metric.Histogram<number> = Metric.histogram("mcp.server.operation.duration", {
  description: "MCP request duration as observed on the receiver from the time it was received until the result is sent.",
  boundaries: DURATION_BOUNDARIES,
  attributes: seconds
})

/**
 * `mcp.client.session.duration` (s): a client's connection, from made to closed.
 *
 * @since 0.1.0
 * @category metrics
 */
export const clientSessionDuration: Metric.Histogram<number> = Metric.histogram("mcp.client.session.duration", {
  description: "The duration of the MCP session as observed on the MCP client.",
  boundaries: SESSION_BOUNDARIES,
  attributes: seconds
})

/**
 * `mcp.server.session.duration` (s): a server's session, from its first message to its end.
 *
 * @since 0.1.0
 * @category metrics
 */
export const serverSessionDuration: Metric.Histogram<number> = Metric.histogram("mcp.server.session.duration", {
  description: "The duration of the MCP session as observed on the MCP server.",
  boundaries: SESSION_BOUNDARIES,
  attributes: seconds
})

/**
 * The `_meta` keys that carry trace context (SEP-414): each side writes them
 * into every request and notification it sends (the server into its reverse
 * calls, and on 2026-07-28 into the `_meta` of an `InputRequiredResult`)
 * unless the caller set `traceparent` itself; the receiver parents its span there.
 *
 * @since 0.1.0
 * @category constants
 */
export const TRACE_META_KEYS: ReadonlyArray<string> = ["traceparent", "tracestate", "baggage"]
