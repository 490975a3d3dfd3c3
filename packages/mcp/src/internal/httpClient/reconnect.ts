/**
 * The reconnection policy the HTTP client transports share (streamable HTTP's
 * resumed and standing streams, the legacy SSE stream): exponential backoff
 * with jitter and a cap, or any Schedule, stepped by hand so that a server's
 * SSE `retry:` can replace a delay; and the loop that reconnects a lost stream
 * under that policy. All waiting is `Effect.sleep`, so `TestClock` drives it.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Pull from "effect/Pull"
import * as Random from "effect/Random"
import * as Schedule from "effect/Schedule"
import type { TransportError } from "../../McpError.js"

/** Exponential backoff between reconnection attempts. */
export interface ReconnectOptions {
  /** Delay before the first attempt (default 1 s). */
  readonly initialDelay?: Duration.Input | undefined
  /** Cap on any delay (default 30 s). */
  readonly maxDelay?: Duration.Input | undefined
  /** Growth factor between attempts (default 1.5). */
  readonly factor?: number | undefined
  /** Each delay is multiplied by a random factor in `[1 - jitter, 1 + jitter]` (default 0.2); 0 disables it. */
  readonly jitter?: number | undefined
}

/** Each delay times a random factor in `[min, max]` (as Effect 3's `Schedule.jitteredWith`, which Effect 4 lacks). */
const jitteredWith = <Output, Input>(
  self: Schedule.Schedule<Output, Input>,
  options: { readonly min: number; readonly max: number }
): Schedule.Schedule<Output, Input> =>
  Schedule.modifyDelay(self, ({ duration }) =>
    Effect.map(Random.next, (random) => {
      const millis = Duration.toMillis(duration)
      return Duration.millis(millis * options.min * (1 - random) + millis * options.max * random)
    }))

const fromOptions = (o: ReconnectOptions): Schedule.Schedule<unknown, number> => {
  const max = Duration.fromInputUnsafe(o.maxDelay ?? Duration.seconds(30))
  const jitter = Math.min(Math.max(o.jitter ?? 0.2, 0), 1)
  const base = Schedule.exponential(o.initialDelay ?? Duration.seconds(1), o.factor ?? 1.5)
  const jittered = jitter > 0 ? jitteredWith(base, { min: 1 - jitter, max: 1 + jitter }) : base
  return Schedule.modifyDelay(jittered, ({ duration }) => Effect.succeed(Duration.min(duration, max)))
}

/** The default schedule, made once (a schedule holds no state). */
let defaultSchedule: Schedule.Schedule<unknown, number> | undefined

export const toSchedule = (
  reconnect: ReconnectOptions | Schedule.Schedule<unknown, number> | undefined
): Schedule.Schedule<unknown, number> => {
  if (Schedule.isSchedule(reconnect)) return reconnect as Schedule.Schedule<unknown, number>
  if (reconnect === undefined) return defaultSchedule ??= fromOptions({})
  return fromOptions(reconnect)
}

type Step = (now: number, input: number) => Pull.Pull<[unknown, Duration.Duration], never, unknown>

/**
 * Steps a schedule by hand: the delay before attempt `n`, or none when the schedule is done.
 * (Effect 4: the step function is made on the first attempt, `Schedule.toStep`; a step that
 * ends with `Cause.Done` is a schedule that is done.)
 */
export const backoff = (schedule: Schedule.Schedule<unknown, number>) => {
  let step: Step | undefined
  const stepper: Effect.Effect<Step> = Effect.suspend(() =>
    step === undefined
      ? Effect.map(Schedule.toStep(schedule), (made) => (step = made))
      : Effect.succeed(step)
  )
  return (attempt: number): Effect.Effect<Option.Option<number>> =>
    Effect.flatMap(stepper, (next) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        next(now, attempt).pipe(
          Effect.map(([, delay]): Option.Option<number> => Option.some(Math.max(0, Duration.toMillis(delay)))),
          Pull.catchDone(() => Effect.succeed(Option.none<number>()))
        )))
}

/** How many reconnections in a row, spaced how. */
export interface Policy {
  readonly schedule: Schedule.Schedule<unknown, number>
  readonly maxRetries: number
}

/** How one connection of a stream ended. */
export type Ended<A> =
  /** Nothing more to wait for on this stream. */
  | { readonly _tag: "Stop"; readonly value: A }
  /**
   * Lost: reconnect. `healthy` (it delivered a message or stayed open long
   * enough) resets the attempt count; `error` says why, when it broke.
   */
  | { readonly _tag: "Lost"; readonly healthy: boolean; readonly error?: TransportError | undefined }

export const stop = <A>(value: A): Ended<A> => ({ _tag: "Stop", value })

/** Where one SSE stream stands: what to resume from and how long to wait. */
export interface Cursor {
  lastEventId: string | undefined
  /** The server's last `retry:`, in ms: it replaces the policy's delay. */
  retryMs: number | undefined
  /** Whether the current connection delivered a message (resets the attempt count). */
  delivered: boolean
  /** Whether a connection was ever opened on this stream. */
  opened: boolean
  /** How the last connection broke, when it did not just end. */
  broke: TransportError | undefined
}

export const newCursor = (): Cursor => ({
  lastEventId: undefined,
  retryMs: undefined,
  delivered: false,
  opened: false,
  broke: undefined
})

/**
 * A stream was lost: waits (the server's `retry:`, else the policy's next
 * delay) and reconnects, until a connection ends with `Stop`. After
 * `maxRetries` unhealthy connections in a row, or when the schedule is
 * spent, gives `exhausted(attempts, lastError)`.
 */
export const reconnecting = <A>(
  policy: Policy,
  retryMs: () => number | undefined,
  connect: Effect.Effect<Ended<A>>,
  exhausted: (attempts: number, last: TransportError | undefined) => Effect.Effect<A>,
  last?: TransportError | undefined
): Effect.Effect<A> => {
  const loop = (next: ReturnType<typeof backoff>, attempt: number, last: TransportError | undefined): Effect.Effect<A> => {
    if (attempt > policy.maxRetries) return exhausted(attempt - 1, last)
    const hint = retryMs()
    return Effect.flatMap(hint !== undefined ? Effect.succeed(Option.some(hint)) : next(attempt), (delay) =>
      Option.isNone(delay)
        ? exhausted(attempt - 1, last)
        : Effect.andThen(
          Effect.sleep(delay.value),
          Effect.flatMap(connect, (ended) =>
            ended._tag === "Stop"
              ? Effect.succeed(ended.value)
              : ended.healthy
              ? loop(backoff(policy.schedule), 1, ended.error)
              : loop(next, attempt + 1, ended.error ?? last))
        ))
  }
  return Effect.suspend(() => loop(backoff(policy.schedule), 1, last))
}

/** Why a stream is gone for good, naming the last failure: "the server went away" when it could not be reached. */
export const exhaustedMessage = (what: string, attempts: number, last: TransportError | undefined): string => {
  const tries = `${attempts} reconnection attempt${attempts === 1 ? "" : "s"}`
  if (last?.reason === "Connect") {
    return `The server went away: ${last.message}; ${what.charAt(0).toLowerCase()}${what.slice(1)} could not be reopened after ${tries}`
  }
  if (last !== undefined) return `${what} was lost and could not be reopened after ${tries}: ${last.message}`
  return `${what} could not be resumed after ${tries}`
}
