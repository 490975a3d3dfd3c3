/**
 * HTTP servers for the streamable HTTP client tests: the official SDK's
 * server in its three modes, its legacy HTTP+SSE server, and a helper for
 * hand-written servers. Every server listens on 127.0.0.1, port 0, and records
 * what it received.
 */
import { randomUUID } from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { z } from "zod"

/** One request as the server saw it. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: Http.IncomingHttpHeaders
  /** The parsed body of a POST (undefined for GET/DELETE or non-JSON). */
  readonly body: unknown
  readonly at: number
}

export interface TestServer {
  readonly url: string
  readonly seen: Array<Seen>
}

export type Handler = (req: Http.IncomingMessage, res: Http.ServerResponse, body: unknown) => unknown

export const readBody = (req: Http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** A node:http server for the life of the scope; every request is recorded before `handler` sees it. */
export const serve = (handler: Handler, path = "/mcp"): Effect.Effect<TestServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ server: Http.Server; state: TestServer }>((resume) => {
      const seen: Array<Seen> = []
      const server = Http.createServer((req, res) => {
        void (async () => {
          const text = req.method === "POST" ? await readBody(req) : ""
          let body: unknown
          try {
            body = text === "" ? undefined : JSON.parse(text)
          } catch {
            body = undefined
          }
          seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, at: Date.now() })
          await handler(req, res, body)
        })().catch((error) => {
          if (!res.headersSent) res.writeHead(500).end(String(error))
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, state: { url: `http://127.0.0.1:${port}${path}`, seen } }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))

/** The JSON-RPC messages POSTed to a server, with their headers. */
export const posted = (server: TestServer) =>
  server.seen.filter((s) => s.method === "POST" && s.body !== undefined).map((s) => ({
    message: s.body as { readonly method?: string; readonly id?: unknown; readonly params?: Record<string, unknown> },
    headers: s.headers
  }))

export const postedMethods = (server: TestServer) => posted(server).map((p) => p.message.method ?? "(response)")

// ----------------------------------------------------------------------------
// the official SDK server
// ----------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const buildOfficialServer = () => {
  const server = new McpServer({ name: "official", version: "1.0.0" }, { capabilities: { logging: {} } })
  server.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] })
  )
  server.registerTool(
    "count",
    { description: "Counts to n, reporting progress", inputSchema: { n: z.number() } },
    async ({ n }, extra) => {
      const token = extra._meta?.progressToken
      for (let i = 1; i <= n; i++) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: n }
          })
        }
        await sleep(5)
      }
      return { content: [{ type: "text", text: `counted to ${n}` }] }
    }
  )
  // closes its SSE stream mid-call (SEP-1699 polling) when the server has an event store
  server.registerTool(
    "poll",
    { description: "Reports progress, closes its stream, reports again, answers" },
    async (extra) => {
      const token = extra._meta?.progressToken
      const progress = (n: number) =>
        token === undefined
          ? Promise.resolve()
          : extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: n } })
      await progress(1)
      extra.closeSSEStream?.()
      await sleep(30)
      await progress(2)
      await sleep(30)
      return { content: [{ type: "text", text: "polled" }] }
    }
  )
  return server
}

export type OfficialMode = "stateful" | "stateless" | "json"

const jsonError = (res: Http.ServerResponse, status: number, code: number, message: string) =>
  res.writeHead(status, { "content-type": "application/json" }).end(
    JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null })
  )

/** The official `StreamableHTTPServerTransport` on node:http, in one of three modes. */
export const officialServer = (mode: OfficialMode, options?: { readonly resumable?: boolean }) => {
  const transports = new Map<string, StreamableHTTPServerTransport>()
  const handler: Handler = async (req, res, body) => {
    if (mode === "stateless") {
      if (req.method !== "POST") return jsonError(res, 405, -32000, "Method not allowed.")
      // stateless: no sessionIdGenerator (`sessionIdGenerator: undefined`, spelled so for exactOptionalPropertyTypes)
      const transport = new StreamableHTTPServerTransport({})
      const server = buildOfficialServer()
      res.on("close", () => {
        void transport.close()
        void server.close()
      })
      await server.connect(transport)
      return transport.handleRequest(req, res, body)
    }
    const sid = req.headers["mcp-session-id"]
    if (typeof sid === "string") {
      const transport = transports.get(sid)
      if (transport === undefined) return jsonError(res, 404, -32001, "Session not found")
      return transport.handleRequest(req, res, body)
    }
    if (req.method === "POST" && isInitializeRequest(body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: mode === "json",
        ...(options?.resumable === true ? { eventStore: new InMemoryEventStore(), retryInterval: 50 } : {}),
        onsessioninitialized: (id) => {
          transports.set(id, transport)
        }
      })
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId)
      }
      await buildOfficialServer().connect(transport)
      return transport.handleRequest(req, res, body)
    }
    return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided")
  }
  return Effect.acquireRelease(serve(handler), () =>
    Effect.promise(() => Promise.all([...transports.values()].map((t) => t.close()))))
}

/** The official legacy HTTP+SSE server (2024-11-05): GET /mcp opens the stream, POST /messages?sessionId=… */
export const officialLegacyServer = () => {
  const transports = new Map<string, SSEServerTransport>()
  const handler: Handler = async (req, res, body) => {
    const path = (req.url ?? "").split("?")[0]
    if (req.method === "GET" && path === "/mcp") {
      const transport = new SSEServerTransport("/messages", res)
      transports.set(transport.sessionId, transport)
      res.on("close", () => transports.delete(transport.sessionId))
      await buildOfficialServer().connect(transport)
      return
    }
    if (req.method === "POST" && path === "/messages") {
      const sessionId = new URL(req.url ?? "", "http://x").searchParams.get("sessionId") ?? ""
      const transport = transports.get(sessionId)
      if (transport === undefined) return jsonError(res, 404, -32001, "Session not found")
      return transport.handlePostMessage(req, res, body)
    }
    // the streamable HTTP POST of a new client
    res.writeHead(405, { allow: "GET" }).end()
  }
  return serve(handler)
}

// ----------------------------------------------------------------------------
// helpers for hand-written servers
// ----------------------------------------------------------------------------

export const initializeResult = (protocolVersion = "2025-11-25") => ({
  protocolVersion,
  capabilities: { tools: {} },
  serverInfo: { name: "hand-written", version: "0.0.1" }
})

export const sendJson = (res: Http.ServerResponse, message: unknown, headers: Http.OutgoingHttpHeaders = {}) =>
  res.writeHead(200, { "content-type": "application/json", ...headers }).end(JSON.stringify(message))

export const openSse = (res: Http.ServerResponse, headers: Http.OutgoingHttpHeaders = {}) => {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers })
  res.flushHeaders()
}

export const sseEvent = (res: Http.ServerResponse, event: { id?: string; retry?: number; data: unknown }) => {
  let text = ""
  if (event.id !== undefined) text += `id: ${event.id}\n`
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`
  text += `data: ${event.data === "" ? "" : JSON.stringify(event.data)}\n\n`
  res.write(text)
}

export const accepted = (res: Http.ServerResponse) => res.writeHead(202).end()
