/**
 * A client: `node client.js` spawns `stdio.js` beside it and talks over
 * stdio; `node client.js http://127.0.0.1:3000/mcp` connects over streamable
 * HTTP instead. Closing the client's scope ends the session (the child's
 * stdin is closed, or a DELETE is sent).
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import type { TransportError } from "@effect-mcp/mcp/McpError"
import type { Transport } from "@effect-mcp/mcp/Transport"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fileURLToPath } from "node:url"

const url = process.argv[2]

const TransportLive: Layer.Layer<Transport, TransportError> = url !== undefined
  ? NodeStreamableHttpClient.layer({ url })
  : NodeStdio.layerClient({
    command: process.execPath,
    args: [fileURLToPath(new URL("./stdio.js", import.meta.url))]
  })

const program = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  yield* Console.log(`connected to ${client.serverInfo.name} ${client.serverInfo.version}`)
  const tools = yield* client.listToolsAll()
  yield* Console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`)
  const added = yield* client.callTool("add", { a: 2, b: 3 })
  yield* Console.log(`add: ${JSON.stringify(added.structuredContent)}`)
  const countdown = yield* client.callTool("countdown", { from: 3 }, {
    onProgress: (p) => Console.log(`progress ${p.progress}/${p.total}: ${p.message}`)
  })
  yield* Console.log(`countdown: ${countdown.content[0]?.type === "text" ? countdown.content[0].text : "?"}`)
})

program.pipe(
  Effect.provide(McpClient.layer({ name: "my-app", version: "1.0.0" })),
  Effect.provide(TransportLive),
  NodeRuntime.runMain
)
