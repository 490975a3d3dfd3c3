import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"

/** What the proxy did: the target of each request, in order. */
export interface RoundRobin {
  readonly url: string
  /** The index of the target each request went to. */
  readonly routed: Array<{ readonly method: string; readonly target: number }>
  /** Takes a target out of the rotation (its requests go to the next one). */
  readonly remove: (target: number) => void
}

/**
 * A round-robin HTTP proxy on 127.0.0.1:0 in front of `ports`: each request
 * goes to the next target, whatever its session (no stickiness); bodies are
 * streamed both ways. A target that refuses the connection is skipped.
 */
export const roundRobin = (ports: ReadonlyArray<number>, path = "/mcp"): Effect.Effect<RoundRobin, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: http.Server; readonly proxy: RoundRobin }>((resume) => {
      const routed: Array<{ readonly method: string; readonly target: number }> = []
      const removed = new Set<number>()
      let next = 0
      const pick = (): number => {
        for (let i = 0; i < ports.length; i++) {
          const target = next++ % ports.length
          if (!removed.has(target)) return target
        }
        return 0
      }
      const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, attempts: number) => {
        const target = pick()
        routed.push({ method: req.method ?? "", target })
        const upstream = http.request(
          { host: "127.0.0.1", port: ports[target], path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
            answer.on("error", () => res.destroy())
          }
        )
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (!res.headersSent && error.code === "ECONNREFUSED" && attempts < ports.length) {
            return forward(req, res, body, attempts + 1)
          }
          // the instance died mid-answer: the client sees its connection end
          res.destroy()
        })
        res.on("close", () => upstream.destroy())
        upstream.end(body)
      }
      const server = http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => forward(req, res, Buffer.concat(chunks), 1))
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          proxy: { url: `http://127.0.0.1:${port}${path}`, routed, remove: (target) => void removed.add(target) }
        }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ proxy }) => proxy))
