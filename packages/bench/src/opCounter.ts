/**
 * Counting Effect operations and fibers: the deterministic measure of the engine's work.
 *
 * Effect 4's fiber run loop asks the fiber's `Scheduler` (a `Context.Reference`,
 * `effect/Scheduler`) `shouldYield(fiber)` once per step of the loop, before it evaluates that
 * step's primitive (a `flatMap`, a `sync`, an `Exit` handed to a continuation, ...: each a
 * closure and a continuation, as in Effect 3). `OpCounter` is a `Scheduler` that wraps the one
 * it replaces (the default `MixedScheduler` unless told otherwise), delegates every decision to
 * it and counts those calls: one per run-loop step of every fiber whose context carries it. It
 * sees every such fiber too: a fiber it has not seen before has just started (it is added to
 * `live`, and removed by a `fiber.addObserver` callback when it ends). Unlike CPU time or
 * callgrind counts these numbers do not depend on machine load, so the budget tests
 * (`test/budgets.test.ts`) can pin them.
 *
 * What this counts against Effect 3's counter (a `Supervisor` with the `OpSupervision` runtime
 * flag: `onEffect` once per run-loop step, `onStart` per fork): the same thing, one per run-loop
 * step, on a different run loop. Measured on 2026-12-04 with both counters over the same programs
 * (effect 3.22.4 and 4.1.5; each count includes `window`'s own steps, 3 on Effect 3 and 2 on 4):
 *
 * | program                              | Effect 3 | Effect 4 |
 * | ------------------------------------ | -------: | -------: |
 * | `Effect.sync`                        |        3 |        2 |
 * | `Effect.gen`, 10 × `yield* sync`     |       15 |       14 |
 * | `Effect.gen`, 10 × `yield* succeed`  |        5 |        4 |
 * | 10 × `flatMap` to a `sync`           |       23 |       22 |
 * | 10 × `map` on a `sync`               |       23 |       12 |
 * | `suspend`                            |        4 |        3 |
 * | `callback` resumed at once           |        5 |        3 |
 * | fork a `sync` + join (1 fiber both)  |       26 |        7 |
 *
 * So a step of `gen` or `flatMap` counts the same on both; Effect 4 takes one step where Effect 3
 * took two for a `map` (its continuation runs on the `Exit`), and far fewer to fork and join a
 * fiber. A budget that went down on Effect 4 went down partly because the run loop does less,
 * not only because our code does. Two steps are not counted: the first step of a fiber resumed
 * after the scheduler made it yield (the loop does not ask again for the step it paused on: it
 * was counted before the yield), and the steps of a fiber run with
 * `Scheduler.PreventSchedulerYield` (nothing in this SDK sets it). Fibers are counted when they
 * first run rather than when forked (Effect 4 starts a forked child later, when its parent
 * yields; a child interrupted before it ran still runs one step, its interruption, and is
 * counted).
 *
 * Installation is by context: `supervise(counter, effect)` provides the counter as the
 * `Scheduler` of `effect`. The engine's own fibers (`Protocol`'s read loop and handlers, the HTTP
 * client's, the deadline sleepers) are forked with a context captured from the fiber that made
 * them (`Effect.context`, `Effect.runForkWith`) or with its `Scheduler` copied, so they are
 * counted when they were made under `supervise`. A fiber run from an empty context
 * (`Effect.runFork`) is not: Effect 3's `opSupervisionEverywhere` hack (turning the flag on in
 * the default runtime) has no counterpart and no need; it is kept as a no-op for its callers.
 * (Checked on 2026-12-04 with a probe on the default scheduler during every window of
 * `test/budgets.test.ts`: the only steps it ran were those of the client test's in-process
 * server, which that test builds outside the counter on purpose.)
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import * as Scheduler from "effect/Scheduler"
import type * as Scope from "effect/Scope"

/** What ran inside one window. */
export interface Counts {
  readonly ops: number
  readonly fibers: number
}

/** A scheduler that counts operations and started fibers inside windows, and the fibers alive. */
export class OpCounter implements Scheduler.Scheduler {
  ops = 0
  started = 0
  counting = false
  /** The fibers seen running under this scheduler that have not ended. */
  readonly live = new Set<Fiber.Fiber<unknown, unknown>>()
  private readonly seen = new WeakSet<Fiber.Fiber<unknown, unknown>>()
  /**
   * @param inner the scheduler every decision is delegated to (default: a new `MixedScheduler`,
   * what the `Scheduler` reference's default value is)
   */
  constructor(readonly inner: Scheduler.Scheduler = new Scheduler.MixedScheduler()) {}
  get executionMode(): "sync" | "async" {
    return this.inner.executionMode
  }
  /** Called by the run loop once per step of a fiber whose scheduler this is. */
  shouldYield(fiber: Fiber.Fiber<unknown, unknown>): boolean {
    if (this.counting) this.ops++
    if (!this.seen.has(fiber)) {
      this.seen.add(fiber)
      this.live.add(fiber)
      if (this.counting) this.started++
      fiber.addObserver(() => this.live.delete(fiber))
    }
    return this.inner.shouldYield(fiber)
  }
  makeDispatcher(): Scheduler.SchedulerDispatcher {
    return this.inner.makeDispatcher()
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
  /** The operations and fibers of `effect` and of whatever ran meanwhile under this scheduler. */
  window<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<readonly [A, Counts], E, R> {
    return Effect.suspend(() => {
      this.start()
      return Effect.map(effect, (a) => [a, this.stop()] as const)
    })
  }
}

/**
 * Effect 3 turned `OpSupervision` on in the default runtime here, for the fibers forked from a
 * runtime made with its flags. Effect 4 has no runtime flags, and the engine's fibers inherit the
 * counter with their context (see the module's note): nothing to do.
 */
export const opSupervisionEverywhere: Effect.Effect<void, never, Scope.Scope> = Effect.void

/**
 * `effect` with `counter` as its `Scheduler`: every fiber it runs, forks, or starts with a context
 * captured inside it is counted.
 */
export const supervise = <A, E, R>(counter: OpCounter, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Scheduler.Scheduler, counter)
