/** Instances of a fleet as child processes (fixtures/instance.ts), for the tests. */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { REDIS_URL, testPrefix } from "./redis.js"

const root = fileURLToPath(new URL("../../..", import.meta.url))

export interface Instance {
  readonly id: string
  readonly port: number
  readonly child: ChildProcess
  /** kill -9, and wait for the exit. */
  readonly kill: Effect.Effect<void>
  /** SIGTERM (a graceful stop), and wait for the exit. */
  readonly stop: Effect.Effect<void>
  /** What it wrote on stderr. */
  readonly stderr: () => string
}

/** What an instance may be told besides its Redis (fixtures/instance.ts reads them from its environment). */
export interface InstanceOptions {
  /** `maxSessions` (default: the server's). */
  readonly maxSessions?: number
  /** `sessionIdleTimeout` in ms (default 1 minute). */
  readonly idleMs?: number
}

/** Starts one instance; it is killed when the scope closes. */
export const startInstance = (
  url: string,
  prefix: string,
  id: string,
  options: InstanceOptions = {}
): Effect.Effect<Instance, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<Instance>((resume) => {
      const child = spawn(process.execPath, [bundled("fleet-instance"), url, prefix, id], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          ...(options.maxSessions === undefined ? {} : { FLEET_MAX_SESSIONS: String(options.maxSessions) }),
          ...(options.idleMs === undefined ? {} : { FLEET_IDLE_MS: String(options.idleMs) })
        }
      })
      let out = ""
      let err = ""
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      const kill = Effect.promise(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
        return exited
      })
      const stop = Effect.promise(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
        return exited
      })
      child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()))
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const match = /listening (\d+)/.exec(out)
        if (match !== null) resume(Effect.succeed({ id, port: Number(match[1]), child, kill, stop, stderr: () => err }))
      })
      child.once("exit", (code) => {
        if (!/listening/.test(out)) resume(Effect.die(new Error(`instance ${id} exited (${code}) before listening: ${err}`)))
      })
    }),
    (instance) => instance.kill
  )

/** `n` instances, started in parallel. */
export const startFleet = (url: string, prefix: string, n: number, options?: InstanceOptions) =>
  Effect.forEach(Array.from({ length: n }, (_, i) => `i${i}`), (id) => startInstance(url, prefix, id, options), {
    concurrency: "unbounded"
  })

/** A test's fleet: `n` instances on the test Redis under a prefix of its own (dropped at the end), and their URLs. */
export const startTestFleet = (n: number) =>
  Effect.gen(function*() {
    const prefix = yield* testPrefix
    const instances = yield* startFleet(REDIS_URL, prefix, n)
    return { prefix, instances, urls: instances.map((i) => `http://127.0.0.1:${i.port}/mcp`) }
  })
