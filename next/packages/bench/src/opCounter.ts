/**
 * Counting Effect operations and fibers: the deterministic measure of the engine's work.
 *
 * A `Supervisor` is told of every fiber started under it and, when the fiber has the
 * `OpSupervision` runtime flag, of every operation the fiber runs (each a closure and a
 * continuation in Effect's run loop: ~300 instructions all in on this machine). Unlike CPU time
 * or callgrind counts these numbers do not depend on machine load, so the budget tests
 * (`test/budgets.test.ts`) can pin them.
 *
 * Some of the engine's fibers are forked from a runtime made with
 * `Runtime.defaultRuntime.runtimeFlags` (`Protocol`, `StreamableHttpClient`,
 * `internal/httpClient/fibers`): they keep the supervisor (it is a FiberRef) but not the flag, so
 * the default runtime gets the flag too while counting (a measurement hack, for a
 * process or test file that does nothing else: `opSupervisionEverywhere`).
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import type * as Fiber from "effect/Fiber"
import type * as Scope from "effect/Scope"
import * as Runtime from "effect/Runtime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import * as RuntimeFlagsPatch from "effect/RuntimeFlagsPatch"
import * as Supervisor from "effect/Supervisor"

/** What ran inside one window. */
export interface Counts {
  readonly ops: number
  readonly fibers: number
}

/** A supervisor that counts operations and started fibers inside windows, and the fibers alive. */
export class OpCounter extends Supervisor.AbstractSupervisor<void> {
  ops = 0
  started = 0
  counting = false
  /** The fibers started under this supervisor that have not ended. */
  readonly live = new Set<Fiber.Fiber<unknown, unknown>>()
  get value() {
    return Effect.void
  }
  override onStart<A, E, R>(
    _context: unknown,
    _effect: Effect.Effect<A, E, R>,
    _parent: unknown,
    fiber: Fiber.Fiber<A, E>
  ) {
    this.live.add(fiber as Fiber.Fiber<unknown, unknown>)
    if (this.counting) this.started++
  }
  override onEnd<A, E>(_value: Exit.Exit<A, E>, fiber: Fiber.Fiber<A, E>) {
    this.live.delete(fiber as Fiber.Fiber<unknown, unknown>)
  }
  override onEffect() {
    if (this.counting) this.ops++
  }
  /** Counts from now on (`stop` reads what was counted since). */
  start(): void {
    this.ops = 0
    this.started = 0
    this.counting = true
  }
  stop(): Counts {
    this.counting = false
    return { ops: this.ops, fibers: this.started }
  }
  /** The operations and fibers of `effect` and of whatever ran meanwhile under this supervisor. */
  window<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<readonly [A, Counts], E, R> {
    return Effect.suspend(() => {
      this.start()
      return Effect.map(effect, (a) => [a, this.stop()] as const)
    })
  }
}

/**
 * Turns `OpSupervision` on in the default runtime for the life of the scope (see the module's
 * note): fibers forked from a runtime made with its flags are counted too.
 */
export const opSupervisionEverywhere: Effect.Effect<void, never, Scope.Scope> = Effect.acquireRelease(
  Effect.sync(() => {
    const flags = Runtime.defaultRuntime.runtimeFlags
    setDefaultFlags(RuntimeFlags.enable(flags, RuntimeFlags.OpSupervision))
    return flags
  }),
  (flags) => Effect.sync(() => setDefaultFlags(flags))
).pipe(Effect.asVoid)

const setDefaultFlags = (flags: RuntimeFlags.RuntimeFlags) => {
  ;(Runtime.defaultRuntime as { runtimeFlags: RuntimeFlags.RuntimeFlags }).runtimeFlags = flags
}

/**
 * `effect` with every fiber it starts (and every runtime it captures) supervised by `counter` and
 * op-supervised.
 */
export const supervise = <A, E, R>(counter: OpCounter, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.supervised(counter),
    Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))
  )
