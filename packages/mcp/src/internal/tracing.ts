/**
 * Whether spans are worth building: not under Effect's built-in tracer, which
 * records spans nobody reads. A span costs as much as the rest of a round
 * trip, so spans are made only when someone (e.g. `@effect/opentelemetry`)
 * collects them. Effect 4 declares the comparison: `Tracer.nativeTracer` is
 * the default of the `Tracer` reference, there to be compared against.
 */
import * as Context from "effect/Context"
import type * as Fiber from "effect/Fiber"
import * as Tracer from "effect/Tracer"

/** Whether `fiber` runs under a tracer that collects spans. */
export const tracing = (fiber: Fiber.Fiber<unknown, unknown>): boolean =>
  fiber.getRef(Tracer.Tracer) !== Tracer.nativeTracer

/** Whether a fiber started with this context runs under a tracer that collects spans (`tracing` before the fork). */
export const tracingIn = (context: Context.Context<never>): boolean =>
  Context.get(context, Tracer.Tracer) !== Tracer.nativeTracer
