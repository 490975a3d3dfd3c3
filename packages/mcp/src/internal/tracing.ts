/**
 * Whether spans are worth building: not under Effect's built-in tracer, which
 * records spans nobody reads. A span costs as much as the rest of a round
 * trip, so spans are made only when someone (e.g. `@effect/opentelemetry`)
 * collects them.
 * @internal
 */
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"

/** Effect's built-in tracer. */
const nativeTracer = Effect.runSync(Effect.tracer)

/** Whether `fiber` runs under a tracer that collects spans. */
export const tracing = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean => fiber.currentTracer !== nativeTracer
