/**
 * A real OpenTelemetry pipeline for the tests: `@effect/opentelemetry`'s tracer over an
 * `@opentelemetry/sdk-trace-base` provider with an in-memory exporter (optionally appending each
 * finished span to a file as a JSON line, for a child process), and `@opentelemetry/sdk-metrics`
 * read on demand. Spans are kept as plain records, the same in a child and in the test.
 */
import * as OtelMetrics from "@effect/opentelemetry/OtelMetrics"
import * as OtelTracer from "@effect/opentelemetry/OtelTracer"
import * as Resource from "@effect/opentelemetry/Resource"
import { resourceFromAttributes } from "@opentelemetry/resources"
import { type CollectionResult, MetricReader } from "@opentelemetry/sdk-metrics"
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"

/** A finished span as the tests read it. */
export interface SpanRecord {
  readonly name: string
  /** `SpanKind`: 0 internal, 1 server, 2 client. */
  readonly kind: number
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly attributes: Readonly<Record<string, unknown>>
  /** `SpanStatusCode`: 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message?: string | undefined }
  readonly events: ReadonlyArray<{ readonly name: string; readonly attributes: Readonly<Record<string, unknown>> }>
  readonly service: string
}

export const SERVER_KIND = 1
export const CLIENT_KIND = 2
export const ERROR_STATUS = 2

export const recordOf = (span: ReadableSpan): SpanRecord => ({
  name: span.name,
  kind: span.kind,
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId,
  attributes: { ...span.attributes },
  status: { code: span.status.code, message: span.status.message },
  events: span.events.map((e) => ({ name: e.name, attributes: { ...e.attributes } })),
  service: String(span.resource.attributes["service.name"] ?? "")
})

/** The in-memory exporter, also appending each span to `file` (a child's spans, read by the test). */
class Exporter extends InMemorySpanExporter {
  constructor(readonly file: string | undefined) {
    super()
  }
  override export(spans: Array<ReadableSpan>, done: Parameters<InMemorySpanExporter["export"]>[1]): void {
    if (this.file !== undefined) fs.appendFileSync(this.file, spans.map((s) => `${JSON.stringify(recordOf(s))}\n`).join(""))
    super.export(spans, done)
  }
}

/** Collects on demand: `collect()` reads the Effect metrics through `@effect/opentelemetry`'s producer. */
class Reader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve()
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  read(): Promise<CollectionResult> {
    return this.collect()
  }
}

export interface Pipeline {
  readonly layer: Layer.Layer<never>
  readonly spans: () => ReadonlyArray<SpanRecord>
  readonly reset: () => void
  readonly metrics: () => Promise<CollectionResult>
}

/** A tracer (and metrics) for a process named `service`; its spans also go to `file` when given. */
export const make = (service: string, file?: string): Pipeline => {
  const exporter = new Exporter(file)
  const reader = new Reader()
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new SimpleSpanProcessor(exporter)]
  })
  const tracing = OtelTracer.layer.pipe(Layer.provide(Layer.succeed(OtelTracer.OtelTracerProvider, provider)))
  const metrics = OtelMetrics.layer(() => reader)
  const layer = Layer.mergeAll(tracing, metrics).pipe(Layer.provide(Resource.layer({ serviceName: service })))
  return {
    layer: layer as Layer.Layer<never>,
    spans: () => exporter.getFinishedSpans().map(recordOf),
    reset: () => exporter.reset(),
    metrics: () => reader.read()
  }
}

/** The spans a child appended to `file`. */
export const readSpans = (file: string): ReadonlyArray<SpanRecord> =>
  fs.existsSync(file)
    ? fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as SpanRecord)
    : []
