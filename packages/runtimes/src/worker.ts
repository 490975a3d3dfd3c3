/**
 * The fetch handler of `server.ts` as a Cloudflare Worker (workerd; miniflare in the tests): the
 * handler made at module scope, 2025 sessions off there by default (`sessions`).
 *
 * @since 0.1.0
 */
import { handler } from "./server.js"

const mcp = handler()

export default { fetch: (request: Request): Promise<Response> => mcp.fetch(request) }
