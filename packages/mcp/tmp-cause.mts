import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Cause from "effect/Cause"
const e1 = await Effect.runPromiseExit(Effect.all([Effect.fail("boom").pipe(Effect.delay(5)), Effect.never], { concurrency: "unbounded" }))
console.log(Exit.isFailure(e1) && e1.cause._tag, Exit.isInterrupted(e1))
const e2 = await Effect.runPromiseExit(Effect.fail("boom").pipe(Effect.ensuring(Effect.die("x"))))
console.log(Exit.isFailure(e2) && e2.cause._tag, Exit.isInterrupted(e2))
const e3 = await Effect.runPromiseExit(Effect.raceAll([Effect.fail("boom").pipe(Effect.delay(5)), Effect.never]))
console.log(Exit.isFailure(e3) && e3.cause._tag, Exit.isInterrupted(e3))
const e4 = await Effect.runPromiseExit(Effect.fail("boom").pipe(Effect.timeout(1000)))
console.log(Exit.isFailure(e4) && e4.cause._tag, Exit.isInterrupted(e4))
