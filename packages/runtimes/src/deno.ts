/**
 * The fetch handler of `server.ts` under Deno: `Deno.serve`. Prints `listening on <url>` once bound.
 *
 * @since 0.1.0
 */
import { handler } from "./server.js"

declare const Deno: {
  serve(
    options: { readonly port: number; readonly hostname: string; readonly onListen: (address: { readonly port: number }) => void },
    fetch: (request: Request) => Promise<Response>
  ): unknown
}

const mcp = handler()
Deno.serve({
  port: 0,
  hostname: "127.0.0.1",
  onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/mcp`)
}, mcp.fetch)
