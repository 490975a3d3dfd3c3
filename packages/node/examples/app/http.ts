/**
 * The server on streamable HTTP: `node http.js [port]`, at
 * http://127.0.0.1:3000/mcp. On SIGINT/SIGTERM, `NodeRuntime.runMain`
 * interrupts the program: the server stops accepting connections, every
 * session ends (its open SSE streams are closed at a message boundary), and
 * the process exits 130 (`runMain`'s code for an interruption from outside).
 */
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as HttpServer from "effect/http/HttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NetAddress from "effect/net/NetAddress"
import { ServerLive } from "./server.js"

const HttpLive = NodeStreamableHttp.layer({ port: Number(process.argv[2] ?? 3000), eventStore: true }).pipe(
  Layer.provide(ServerLive)
)

const main = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = NetAddress.isInetAddress(server.address) ? NetAddress.formatInet(server.address) : "?"
  yield* Effect.logInfo(`listening on http://${address}/mcp`)
  return yield* Effect.never
})

main.pipe(Effect.provide(HttpLive), NodeRuntime.runMain)
