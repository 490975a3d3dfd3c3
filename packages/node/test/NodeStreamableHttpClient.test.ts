import { assert, describe, it } from "@effect/vitest"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { ProtocolError, TransportError } from "@effect-mcp/mcp/McpError"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"

/** A port nothing listens on: bound, then released. */
const closedPort = Effect.async<number>((resume) => {
  const server = Http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

describe("NodeStreamableHttpClient", () => {
  it.scopedLive("nothing listening: the client fails with a TransportError naming ECONNREFUSED and the URL", () =>
    Effect.gen(function*() {
      const url = `http://127.0.0.1:${yield* closedPort}/mcp`
      const error = yield* Effect.flip(Layer.build(
        McpClient.layer({ era: "2025", name: "test", version: "1.0.0" }).pipe(Layer.provide(NodeStreamableHttpClient.layer({ url })))
      ))
      assert.instanceOf(error, ProtocolError)
      const cause = (error as ProtocolError).cause
      assert.instanceOf(cause, TransportError)
      assert.strictEqual((cause as TransportError).reason, "Connect")
      assert.strictEqual(
        (error as ProtocolError).message,
        `Connection refused (ECONNREFUSED): nothing is listening at ${url}`
      )
    }))
})
