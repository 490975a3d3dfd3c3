/**
 * Tracing on, for the `ours/ours+otel` pairing (`--otel` to our server, `Spec.tracing` to our
 * client): `@effect/opentelemetry`'s tracer over an `@opentelemetry/sdk-trace-base` provider
 * with a `BatchSpanProcessor` (its defaults: 2,048 spans queued, batches of 512 every 5 s) and
 * an exporter that drops what it is given, and the metrics (`OtelMetrics`) read every 5 s by a
 * periodic reader whose exporter drops them too. What a traced process pays for its spans and
 * metrics up to the wire of a collector, without a collector's network cost.
 *
 * @since 0.1.0
 */
import * as OtelMetrics from "@effect/opentelemetry/OtelMetrics"
import * as OtelTracer from "@effect/opentelemetry/OtelTracer"
import * as Resource from "@effect/opentelemetry/Resource"
import { resourceFromAttributes } from "@opentelemetry/resources"
import { AggregationTemporality, type PushMetricExporter, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics"
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base"
import * as Layer from "effect/Layer"

// `ExportResultCode.SUCCESS` (`@opentelemetry/core`)
const SUCCESS = { code: 0 } as const

/** Drops the spans it is given (counted, for a sanity check). */
const spanExporter = (counter: { spans: number }): SpanExporter => ({
  export: (spans, done) => {
    counter.spans += spans.length
    done(SUCCESS)
  },
  shutdown: () => Promise.resolve()
})

const metricExporter: PushMetricExporter = {
  export: (_metrics, done) => done(SUCCESS),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE
}

/** The spans exported so far in this process. */
export const exported = { spans: 0 }

/** Tracing and metrics on, as a process named `service` would have them. */
export const layer = (service: string): Layer.Layer<never> => {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new BatchSpanProcessor(spanExporter(exported))]
  })
  const tracing = OtelTracer.layer.pipe(Layer.provide(Layer.succeed(OtelTracer.OtelTracerProvider, provider)))
  const metrics = OtelMetrics.layer(() => new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 5000 }))
  return Layer.mergeAll(tracing, metrics).pipe(Layer.provide(Resource.layer({ serviceName: service }))) as Layer.Layer<never>
}
