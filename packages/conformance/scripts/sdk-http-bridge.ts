/**
 * A reference point, not part of the package: serves `FixtureLive` (our
 * McpServer engine and fixtures) over the OFFICIAL SDK's
 * `StreamableHTTPServerTransport`, so that the conformance suite can check the
 * fixture and the engine independently of our own HTTP transport.
 *
 *   node scripts/conformance.mjs --bridge     (from packages/conformance, or via the root path)
 *
 * It mirrors scratchpad/conformance/reference/ref-server.mjs: stateful sessions,
 * an in-memory event store, `retry: 500`, localhost Host validation, and an
 * `mcp-protocol-version: 2025-03-26` → `2025-11-25` rewrite (the SDK only primes
 * and closes SSE streams for ≥ 2025-11-25, FIXTURES.md §3.18).
 * Run with: node --import tsx --conditions=effect-mcp-source scripts/sdk-http-bridge.ts (PORT env).
 *
 * Each SDK transport is our `TransportShape` over a queue (`Transport.fromMailbox`): what the SDK
 * reads is offered to it, its close ends it (`Queue.end`), and the engine reads it through `run`.
 * Type-checked by the root `tsconfig.json` (`pnpm check`).
 */
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import type { TransportError } from "@effect-mcp/mcp/McpError"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Transport from "@effect-mcp/mcp/Transport"
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import type * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Queue from "effect/Queue"
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { FixtureLive } from "../src/Fixture.js"

const runtime = ManagedRuntime.make(FixtureLive)

const events = new Map<string, { readonly streamId: string; readonly message: JSONRPCMessage }>()
const eventStore: EventStore = {
  storeEvent: async (streamId, message) => {
    const id = `${streamId}::${Date.now()}_${randomUUID()}`
    events.set(id, { streamId, message })
    return id
  },
  replayEventsAfter: async (lastEventId, { send }) => {
    const streamId = lastEventId.split("::")[0]!
    const later = [...events.entries()]
      .filter(([id, e]) => e.streamId === streamId && id > lastEventId)
      .sort(([a], [b]) => a.localeCompare(b))
    for (const [id, e] of later) if (Object.keys(e.message).length > 0) await send(id, e.message)
    return streamId
  }
}

/** One SDK transport as our `TransportShape`, served by the fixture until it closes. */
const serve = async (sdk: StreamableHTTPServerTransport) => {
  const queue = Effect.runSync(Queue.unbounded<JsonRpc.Frame, TransportError | Cause.Done>())
  sdk.onmessage = (message) => {
    Queue.offerUnsafe(queue, JsonRpc.decode(JSON.parse(JSON.stringify(message))))
  }
  sdk.onclose = () => {
    Queue.endUnsafe(queue)
  }
  const shape: Transport.TransportShape = {
    ...Transport.fromMailbox(queue),
    send: (message, route) =>
      Effect.promise(() =>
        sdk.send(
          JSON.parse(JsonRpc.encode(message)) as JSONRPCMessage,
          route?.relatedRequestId !== undefined ? { relatedRequestId: route.relatedRequestId } : undefined
        )
      ),
    closeRequestStream: (id) => Effect.sync(() => sdk.closeSSEStream(id))
  }
  await sdk.start()
  runtime.runFork(McpServer.run.pipe(Effect.provideService(Transport.Transport, shape)))
}

// express without its types: just what is used here
type Req = IncomingMessage & { body?: { method?: unknown } }
type Res = ServerResponse & { status: (code: number) => { json: (body: unknown) => void } }

const sessions = new Map<string, StreamableHTTPServerTransport>()
const app = createMcpExpressApp({ host: "127.0.0.1" })
app.use((req: Req, _res: Res, next: () => void) => {
  if (req.headers["mcp-protocol-version"] === "2025-03-26") {
    req.headers["mcp-protocol-version"] = "2025-11-25"
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() === "mcp-protocol-version") req.rawHeaders[i + 1] = "2025-11-25"
    }
  }
  next()
})
app.all("/mcp", async (req: Req, res: Res) => {
  const sid = req.headers["mcp-session-id"]
  let sdk = typeof sid === "string" ? sessions.get(sid) : undefined
  if (sdk === undefined) {
    if (req.method !== "POST" || sid !== undefined || req.body?.method !== "initialize") {
      res.status(sid !== undefined ? 404 : 400).json({ jsonrpc: "2.0", error: { code: -32000, message: "Bad session" }, id: null })
      return
    }
    const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore,
      retryInterval: 500,
      onsessioninitialized: (id) => void sessions.set(id, created)
    })
    sdk = created
    await serve(sdk)
  }
  await sdk.handleRequest(req, res, req.body)
})
const port = Number(process.env.PORT ?? 3999)
app.listen(port, "127.0.0.1", () => process.stderr.write(`sdk-http-bridge listening on http://127.0.0.1:${port}/mcp\n`))
