/**
 * The floor: the same wire shapes moved by hand-written Node code, one
 * `JSON.parse` and one `JSON.stringify` per message and nothing else.
 *
 * - stdio: newline-delimited JSON over stdin/stdout;
 * - HTTP: `node:http` with keep-alive; a POST is answered with JSON, or with a
 *   single-event `text/event-stream` body in SSE mode; `initialize` issues an
 *   `mcp-session-id` kept in a Map, notifications get 202;
 * - HTTP with `--2026` (2026-07-28, stateless): no session; a request (its
 *   `_meta` envelope and headers unread) is answered with JSON, its result
 *   stamped `resultType: "complete"` and the server's info in `_meta`, as that
 *   revision's results are.
 *
 * @since 0.1.0
 */
import { randomUUID } from "node:crypto"
import { blobText, ECHO_SUCCEED_TOOL, ECHO_TOOL, listeningLine, META_SERVER_INFO, parseServeMode, selfStats } from "./common.js"

interface Message {
  readonly id?: string | number
  readonly method?: string
  readonly params?: { readonly name?: string; readonly arguments?: Record<string, unknown> }
}

const text = (t: string) => ({ content: [{ type: "text", text: t }] })

const SERVER_INFO = { name: "bench-floor", version: "1.0.0" }

/** The result of a request; undefined for a notification. `era2026`: stamped as a 2026-07-28 result. */
const answer = (message: Message, era2026 = false): string | undefined => {
  if (message.id === undefined) return undefined
  let result: unknown
  switch (message.method) {
    case "initialize":
      result = {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: SERVER_INFO
      }
      break
    case "tools/call": {
      const args = message.params?.arguments ?? {}
      switch (message.params?.name) {
        case ECHO_TOOL:
        case ECHO_SUCCEED_TOOL:
          result = text(String(args.text))
          break
        case "blob":
          result = text(blobText(Number(args.bytes)))
          break
        case "stats":
          result = text(JSON.stringify(selfStats(args.gc === true)))
          break
        default:
          result = { content: [], isError: true }
      }
      break
    }
    case "server/discover":
      result = { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } }
      break
    default:
      result = {}
  }
  if (era2026) result = { ...(result as object), resultType: "complete", _meta: { [META_SERVER_INFO]: SERVER_INFO } }
  return JSON.stringify({ jsonrpc: "2.0", id: message.id, result })
}

const mode = parseServeMode(process.argv.slice(2))

if (mode._tag === "stdio") {
  let parts: Array<Buffer> = []
  process.stdin.on("data", (chunk: Buffer) => {
    let start = 0
    let nl = chunk.indexOf(10, start)
    while (nl !== -1) {
      const line = parts.length === 0
        ? chunk.toString("utf8", start, nl)
        : Buffer.concat([...parts, chunk.subarray(start, nl)]).toString("utf8")
      parts = []
      const out = answer(JSON.parse(line) as Message)
      if (out !== undefined) process.stdout.write(out + "\n")
      start = nl + 1
      nl = chunk.indexOf(10, start)
    }
    if (start < chunk.length) parts.push(chunk.subarray(start))
  })
  process.stdin.on("end", () => process.exit(0))
} else {
  const http = await import("node:http")
  const sessions = new Map<string, { readonly id: string; readonly created: number }>()
  const server = http.createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.method === "GET") {
        // no standing stream: a client that asks for one is told it is not offered
        res.writeHead(405, { allow: "POST, DELETE" })
        res.end()
        return
      }
      if (req.method === "DELETE") {
        sessions.delete(String(req.headers["mcp-session-id"]))
        res.writeHead(200)
        res.end()
        return
      }
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Message
      if (mode.era2026) {
        const out = answer(message, true)
        if (out === undefined) res.writeHead(202).end()
        else res.writeHead(200, { "content-type": "application/json" }).end(out)
        return
      }
      const headers: Record<string, string> = {}
      if (message.method === "initialize") {
        const id = randomUUID()
        sessions.set(id, { id, created: Date.now() })
        headers["mcp-session-id"] = id
      } else if (!sessions.has(String(req.headers["mcp-session-id"]))) {
        res.writeHead(404)
        res.end()
        return
      }
      const out = answer(message)
      if (out === undefined) {
        res.writeHead(202)
        res.end()
      } else if (mode.json) {
        res.writeHead(200, { ...headers, "content-type": "application/json" })
        res.end(out)
      } else {
        res.writeHead(200, { ...headers, "content-type": "text/event-stream" })
        res.end(`event: message\ndata: ${out}\n\n`)
      }
    })
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    process.stdout.write(listeningLine(typeof address === "object" && address !== null ? address.port : 0))
  })
  process.once("SIGTERM", () => process.exit(0))
}
