/**
 * Whether spans are worth building: not under Effect's built-in tracer, which
 * records spans nobody reads. A span costs as much as the rest of a round
 * trip, so spans are made only when someone (e.g. `@effect/opentelemetry`)
 * collects them.
 */
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as FiberRefs from "effect/FiberRefs"
import * as Tracer from "effect/Tracer"

/** Effect's built-in tracer. */
const nativeTracer = Effect.runSync(Effect.tracer)

/** Whether `fiber` runs under a tracer that collects spans. */
export const tracing = (fiber: Fiber.Fiber<unknown, unknown>): boolean => fiber.currentTracer !== nativeTracer

/** Whether a fiber started with these refs runs under a tracer that collects spans (`tracing` before the fork). */
export const tracingIn = (refs: FiberRefs.FiberRefs): boolean =>
  Context.get(FiberRefs.getOrDefault(refs, DefaultServices.currentServices), Tracer.Tracer) !== nativeTracer
