/**
 * The fetch handler of `server.ts` under Bun: `Bun.serve`, its idle timeout left at Bun's 10 s
 * default (the keep-alive, 8 s, holds quiet streams). Prints `listening on <url>` once bound.
 *
 * @since 0.1.0
 */
import { handler } from "./server.js"

declare const Bun: {
  readonly env: Record<string, string | undefined>
  serve(options: {
    readonly port: number
    readonly hostname: string
    readonly fetch: (request: Request) => Promise<Response>
  }): { readonly port: number }
}

const mcp = handler()
const server = Bun.serve({ port: Number(Bun.env.PORT ?? 0), hostname: "127.0.0.1", fetch: mcp.fetch })
console.log(`listening on http://127.0.0.1:${server.port}/mcp`)
