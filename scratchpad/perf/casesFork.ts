// cgmicro.mjs cases (stdioserver, 2026-12-01): what forking a request's fiber costs, from a runtime like the
// engine's (the default runtime's refs plus a few of a server's), against the same effect run without a fiber.
//   node bundle.mjs && valgrind --tool=callgrind --callgrind-out-file=/tmp/cgf.%p node --single-threaded cgmicro.mjs ./out/casesFork.js 20000
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Runtime from "effect/Runtime"
import * as Context from "effect/Context"

class A extends Context.Tag("A")<A, number>() {}
class B extends Context.Tag("B")<B, number>() {}
const rt = Effect.runSync(Effect.runtime<never>().pipe(
  Effect.locally(FiberRef.currentMinimumLogLevel, FiberRef.currentMinimumLogLevel.initial),
  Effect.provideService(A, 1),
  Effect.provideService(B, 2)
))
const loopRuntime = Runtime.make({ context: rt.context, fiberRefs: rt.fiberRefs, runtimeFlags: Runtime.defaultRuntime.runtimeFlags })
const fork = Runtime.runFork(loopRuntime)
const body = Effect.map(Effect.succeed(1), (n) => n + 1)
const handlers = new Map<number, unknown>()
let i = 0
export const cases = {
  forkVoid: () => { fork(Effect.void) },
  forkBody: () => {
    const id = i++
    const fiber = fork(body)
    handlers.set(id, fiber)
    fiber.addObserver(() => { if (handlers.get(id) === fiber) handlers.delete(id) })
  },
  syncBody: () => { Effect.runSync(body) }
}
