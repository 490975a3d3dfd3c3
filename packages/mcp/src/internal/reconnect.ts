/**
 * The reconnection policy the HTTP client transports share: exponential
 * backoff with jitter and a cap, or any Schedule, stepped by hand so that a
 * server's SSE `retry:` can replace a delay.
 * @internal
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as ScheduleDecision from "effect/ScheduleDecision"
import * as ScheduleIntervals from "effect/ScheduleIntervals"

/** Exponential backoff between reconnection attempts. */
export interface ReconnectOptions {
  /** Delay before the first attempt (default 1 s). */
  readonly initialDelay?: Duration.DurationInput | undefined
  /** Cap on any delay (default 30 s). */
  readonly maxDelay?: Duration.DurationInput | undefined
  /** Growth factor between attempts (default 1.5). */
  readonly factor?: number | undefined
  /** Each delay is multiplied by a random factor in `[1 - jitter, 1 + jitter]` (default 0.2); 0 disables it. */
  readonly jitter?: number | undefined
}

export const toSchedule = (
  reconnect: ReconnectOptions | Schedule.Schedule<unknown, number> | undefined
): Schedule.Schedule<unknown, number> => {
  if (Schedule.isSchedule(reconnect)) return reconnect as Schedule.Schedule<unknown, number>
  const o: ReconnectOptions = reconnect ?? {}
  const max = Duration.decode(o.maxDelay ?? Duration.seconds(30))
  const jitter = Math.min(Math.max(o.jitter ?? 0.2, 0), 1)
  const base = Schedule.exponential(o.initialDelay ?? Duration.seconds(1), o.factor ?? 1.5)
  const jittered = jitter > 0 ? Schedule.jitteredWith(base, { min: 1 - jitter, max: 1 + jitter }) : base
  return Schedule.modifyDelay(jittered, (_, delay) => Duration.min(delay, max))
}

/** Steps a schedule by hand: the delay before attempt `n`, or none when the schedule is done. */
export const backoff = (schedule: Schedule.Schedule<unknown, number>) => {
  let state: unknown = schedule.initial
  return (attempt: number): Effect.Effect<Option.Option<number>> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(schedule.step(now, attempt, state), ([next, , decision]) => {
        state = next
        return ScheduleDecision.isDone(decision)
          ? Option.none()
          : Option.some(Math.max(0, ScheduleIntervals.start(decision.intervals) - now))
      }))
}
