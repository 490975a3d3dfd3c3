/**
 * The official v2 client measured beside ours (`src/bundleSize.ts`): `@modelcontextprotocol/client`'s
 * `Client` over `StreamableHTTPClientTransport`.
 * @internal
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"

export const run = async (): Promise<unknown> => {
  const client = new Client({ name: "page", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/mcp")))
  await client.listTools()
  return client.callTool({ name: "echo", arguments: { text: "hi" } })
}
