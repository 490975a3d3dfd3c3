/**
 * What every runtime's handler is put through, by our client and the official v2 client
 * (`@modelcontextprotocol/client`), in each era, and the official v1 SDK (`@modelcontextprotocol/sdk`, 2025): initialize (2025) or none (2026-07-28), a tool
 * call with progress, an elicitation and a sampling round trip through one handler, and, for a
 * 2025 session, the DELETE on close (its status read on the wire). A target is a URL and the
 * `fetch` that reaches it: the runtime's listener over the network, or the handler itself.
 */
import { assert } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface Target {
  readonly url: string
  readonly fetch: Fetch
}

/** A target's fetch, recording `METHOD status` of every exchange. */
export const recording = (fetch: Fetch) => {
  const log: Array<string> = []
  const recorded: Fetch = async (input, init) => {
    const method = init?.method ?? (input instanceof Request ? input.method : "GET")
    const response = await fetch(input, init)
    log.push(`${method} ${response.status}`)
    return response
  }
  return { log, fetch: recorded }
}

/** The target served by a handler in this process (no listener): `fetch` hands it the `Request`. */
export const inProcess = (handler: { readonly fetch: (request: Request) => Promise<Response> }): Target => ({
  url: "http://localhost/mcp",
  fetch: (input, init) => handler.fetch(new Request(input, init))
})

export type Era = "2025" | "2026-07-28"

/** What each run checks; `reverseCalls: false`: the server refuses them (2025 without sessions), and says why. */
export interface Expect {
  readonly reverseCalls: boolean
  /** Whether a 2025 client gets a session (then its close DELETEs it). */
  readonly sessions: boolean
}

const textOf = (result: { readonly content: ReadonlyArray<unknown> }) => (result.content[0] as { text: string }).text

/** Our client over the target's fetch (`FetchHttpClient`), in `era`. */
export const ours = (target: Target, era: Era, expect: Expect) =>
  Effect.gen(function*() {
    const wire = recording(target.fetch)
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      McpClient.layer({
        era,
        name: "ours",
        version: "1.0.0",
        sampling: () =>
          Effect.succeed({ role: "assistant" as const, content: { type: "text" as const, text: "Paris" }, model: "test-model" }),
        elicitation: { form: () => Effect.succeed({ action: "accept" as const, content: { name: "Ada" } }) }
      }).pipe(
        Layer.provide(StreamableHttpClient.layer({ url: target.url })),
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(Layer.succeed(FetchHttpClient.Fetch, wire.fetch as typeof globalThis.fetch))
      ),
      scope
    )
    const client = Context.get(context, McpClient.McpClient)
    assert.strictEqual(client.era, era === "2025" ? "2025" : "2026")
    assert.strictEqual(textOf(yield* client.callTool("echo", { text: "hé" })), "hé")
    const progress: Array<number> = []
    const steps = yield* client.callTool("steps", { n: 3 }, { onProgress: (p) => Effect.sync(() => void progress.push(p.progress)) })
    assert.strictEqual(textOf(steps), "did 3")
    assert.deepStrictEqual(progress, [1, 2, 3])
    const asked = yield* client.callTool("ask", {})
    if (expect.reverseCalls || era !== "2025") {
      assert.strictEqual(textOf(asked), "Ada: Paris")
    } else {
      // a tool's failure is its error result; the reason is the real one
      assert.isTrue(asked.isError)
      assert.include(textOf(asked), "never initialized")
    }
    yield* Scope.close(scope, Exit.void)
    if (era === "2025" && expect.sessions) assert.include(wire.log, "DELETE 200")
    else assert.notInclude(wire.log.map((l) => l.split(" ")[0]), "DELETE")
    return wire.log
  })

/** The official v2 client over the target's fetch: `legacy` (initialize, 2025-11-25) or pinned to 2026-07-28. */
export const official = async (target: Target, era: Era, expect: Expect): Promise<ReadonlyArray<string>> => {
  const wire = recording(target.fetch)
  const client = new Client(
    { name: "official-v2", version: "2.4.0" },
    {
      capabilities: { elicitation: {}, sampling: {} },
      versionNegotiation: era === "2025" ? { mode: "legacy" } : { mode: { pin: "2026-07-28" } } as never
    }
  )
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }))
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
    stopReason: "endTurn"
  }))
  const transport = new StreamableHTTPClientTransport(new URL(target.url), { fetch: wire.fetch })
  await client.connect(transport)
  try {
    assert.strictEqual(client.getNegotiatedProtocolVersion(), era === "2025" ? "2025-11-25" : "2026-07-28")
    assert.strictEqual(textOf(await client.callTool({ name: "echo", arguments: { text: "hé" } }) as never), "hé")
    const progress: Array<number> = []
    const steps = await client.callTool({ name: "steps", arguments: { n: 3 } }, { onprogress: (p) => void progress.push(p.progress) })
    assert.strictEqual(textOf(steps as never), "did 3")
    assert.deepStrictEqual(progress, [1, 2, 3])
    const asked = await client.callTool({ name: "ask", arguments: {} }) as { isError?: boolean; content: Array<unknown> }
    if (expect.reverseCalls || era !== "2025") {
      assert.strictEqual(textOf(asked), "Ada: Paris")
    } else {
      assert.isTrue(asked.isError)
      assert.include(textOf(asked), "never initialized")
    }
    if (era === "2025" && expect.sessions) {
      await transport.terminateSession()
      assert.include(wire.log, "DELETE 200")
    }
  } finally {
    await client.close()
  }
  return wire.log
}

/** The official v1 SDK client (`@modelcontextprotocol/sdk`, 2025-11-25 only) over the target's fetch. */
export const officialV1 = async (target: Target, expect: Expect): Promise<ReadonlyArray<string>> => {
  const wire = recording(target.fetch)
  const client = new ClientV1({ name: "official-v1", version: "1.32.2" }, { capabilities: { elicitation: {}, sampling: {} } })
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }))
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
    stopReason: "endTurn"
  }))
  const transport = new TransportV1(new URL(target.url), { fetch: wire.fetch })
  await client.connect(transport)
  try {
    assert.strictEqual(textOf(await client.callTool({ name: "echo", arguments: { text: "hé" } }) as never), "hé")
    const progress: Array<number> = []
    const steps = await client.callTool({ name: "steps", arguments: { n: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) })
    assert.strictEqual(textOf(steps as never), "did 3")
    assert.deepStrictEqual(progress, [1, 2, 3])
    const asked = await client.callTool({ name: "ask", arguments: {} }) as { isError?: boolean; content: Array<unknown> }
    if (expect.reverseCalls) {
      assert.strictEqual(textOf(asked), "Ada: Paris")
    } else {
      assert.isTrue(asked.isError)
      assert.include(textOf(asked), "never initialized")
    }
    if (expect.sessions) {
      await transport.terminateSession()
      assert.include(wire.log, "DELETE 200")
    }
  } finally {
    await client.close()
  }
  return wire.log
}

/** Reads an SSE response until `until` is in its text or `ms` passed; then cancels it. */
export const readUntil = async (response: Response, until: string, ms: number): Promise<string> => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), ms)
  try {
    while (!text.includes(until)) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // cancelled
  } finally {
    clearTimeout(timer)
    await reader.cancel().catch(() => {})
  }
  return text
}

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } }
} as const

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" }

/** Initializes a 2025 session by hand: its id (and the `notifications/initialized` sent). */
export const initialize = async (target: Target, headers: Record<string, string> = {}): Promise<string> => {
  const response = await target.fetch(target.url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(INIT) })
  assert.strictEqual(response.status, 200)
  await response.text()
  const sid = response.headers.get("mcp-session-id")
  assert.isString(sid)
  const sent = await target.fetch(target.url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers, "mcp-session-id": sid!, "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  })
  assert.strictEqual(sent.status, 202)
  return sid!
}

/**
 * The standing GET of a 2025 session held for `holdMs` (longer than the runtime's idle cut),
 * then a session message sent (`announce`): it must come on that same GET, keep-alive comments
 * before it. Our client would reconnect a dropped GET unseen, so this reads the wire itself.
 */
export const standingGetHeld = async (target: Target, holdMs: number): Promise<void> => {
  const sid = await initialize(target)
  const session = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }
  const get = await target.fetch(target.url, { headers: { accept: "text/event-stream", ...session } })
  assert.strictEqual(get.status, 200)
  const reading = readUntil(get, "announced", holdMs + 10_000)
  await new Promise((resolve) => setTimeout(resolve, holdMs))
  const call = await target.fetch(target.url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...session },
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "announce", arguments: {} } })
  })
  assert.strictEqual(call.status, 200)
  await call.text()
  const text = await reading
  assert.include(text, ": keep-alive", "no keep-alive comment on the quiet GET")
  assert.include(text, "announced", `the standing GET did not last ${holdMs} ms`)
  const del = await target.fetch(target.url, { method: "DELETE", headers: session })
  assert.strictEqual(del.status, 200)
}
