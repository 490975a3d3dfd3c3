/**
 * A TCP proxy in front of Redis that can hold what its clients send: the
 * round trips a request waits for are counted as the number of times its
 * held commands must be let through before it is answered (commands sent
 * together, pipelined, go through at once).
 */
import * as net from "node:net"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type * as Scope from "effect/Scope"

export interface Latch {
  readonly url: string
  /** From now on, what clients send waits for `release`. */
  readonly hold: () => void
  /** Lets everything through from now on. */
  readonly open: () => void
  /** Bytes held now. */
  readonly pending: () => number
  /** Sends what is held. */
  readonly release: () => void
}

export const latchProxy = (redisUrl: string): Effect.Effect<Latch, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: net.Server; readonly latch: Latch; readonly sockets: Set<net.Socket> }>((resume) => {
      const { hostname, port } = new URL(redisUrl)
      const held: Array<readonly [net.Socket, Buffer]> = []
      const sockets = new Set<net.Socket>()
      let holding = false
      const release = () => {
        for (const [upstream, data] of held.splice(0)) upstream.write(data)
      }
      const server = net.createServer((client) => {
        const upstream = net.connect({ host: hostname, port: Number(port || 6379) })
        sockets.add(client)
        sockets.add(upstream)
        client.on("data", (data: Buffer) => (holding ? held.push([upstream, data]) : upstream.write(data)))
        upstream.on("data", (data: Buffer) => client.write(data))
        const close = () => {
          client.destroy()
          upstream.destroy()
        }
        client.on("close", close)
        upstream.on("close", close)
        client.on("error", close)
        upstream.on("error", close)
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address() as net.AddressInfo
        resume(Effect.succeed({
          server,
          sockets,
          latch: {
            url: `redis://127.0.0.1:${address.port}`,
            hold: () => void (holding = true),
            open: () => {
              holding = false
              release()
            },
            pending: () => held.reduce((n, [, data]) => n + data.length, 0),
            release
          }
        }))
      })
    }),
    ({ server, sockets }) =>
      Effect.callback<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ latch }) => latch))

/**
 * The round trips `effect` waits for: its commands are held, and let through
 * a batch at a time (what was sent within a few milliseconds of the first),
 * until it completes.
 */
export const roundTrips = <A, E, R>(latch: Latch, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    latch.hold()
    const fiber = yield* Effect.forkChild(effect)
    let rounds = 0
    for (;;) {
      while (latch.pending() === 0 && fiber.pollUnsafe() === undefined) yield* Effect.sleep("1 millis")
      if (fiber.pollUnsafe() !== undefined) break
      // what is sent together (a pipeline, a script's arguments) goes as one round
      yield* Effect.sleep("5 millis")
      rounds++
      latch.release()
    }
    latch.open()
    yield* Fiber.await(fiber)
    return rounds
  })
