/**
 * `pnpm demo`: our client spawns the demo server as a child process and talks
 * to it over stdio. The client initializes, calls a tool that reports
 * progress and asks the client's model for an answer (sampling), and every
 * message that crosses the pipe is printed.
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { Haiku } from "./demo-tools.js"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Transport from "@effect-mcp/mcp/Transport"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fileURLToPath } from "node:url"

const describe = (m: Record<string, unknown>): string => {
  const id = "id" in m ? ` #${String(m.id)}` : ""
  if ("method" in m) return `${"id" in m ? "request" : "notify "}${id} ${String(m.method)} ${JSON.stringify(m.params ?? {})}`
  if ("error" in m) return `error  ${id} ${JSON.stringify(m.error)}`
  return `result ${id} ${JSON.stringify(m.result)}`
}

/** The child's transport, with every message printed as it crosses. */
const Wire = Layer.effect(
  Transport.Transport,
  Effect.map(Transport.Transport, (inner) =>
    Transport.tap(inner, {
      incoming: (frame) => Console.log(`server → client  ${describe(frame as unknown as Record<string, unknown>)}`),
      outgoing: (message) => Console.log(`client → server  ${describe(message as unknown as Record<string, unknown>)}`)
    }))
).pipe(
  Layer.provide(
    NodeStdio.layerClient({
      command: process.execPath,
      args: ["--import", "tsx", "--conditions=effect-mcp-source", fileURLToPath(new URL("./demo-server.ts", import.meta.url))]
    })
  )
)

// the client's "model": a real host would call an LLM here
const sampling = (params: McpSchema.CreateMessageRequestParams) =>
  Effect.succeed({
    role: "assistant" as const,
    model: "pretend-model",
    content: {
      type: "text" as const,
      text: `Effects compose well\nfibers wait without blocking\n${params.maxTokens} tokens to spare`
    }
  })

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  yield* Console.log(`\nconnected to ${client.serverInfo.name} ${client.serverInfo.version} over stdio, protocol ${client.protocolVersion}\n`)
  const tools = yield* client.listToolsAll()
  yield* Console.log(`\ntools: ${tools.map((t) => t.name).join(", ")}\n`)
  // typed by the shared declaration: the arguments checked, the result decoded
  const { haiku, topic } = yield* client.callTool(Haiku, { topic: "fibers" }, {
    onProgress: (p) => Console.log(`  progress ${p.progress}/${p.total ?? "?"} ${p.message ?? ""}`)
  })
  yield* Console.log(`\na haiku about ${topic}:\n${haiku}`)
})

program.pipe(
  Effect.provide(McpClient.layer({ name: "demo-client", version: "0.1.0", sampling }).pipe(Layer.provide(Wire))),
  NodeRuntime.runMain
)
