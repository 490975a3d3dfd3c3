import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const program = Effect.gen(function*() {
  const child = yield* NodeStdio.makeClient({ command: "node", args: ["server.mjs"] })
  yield* child.stderr.pipe(Stream.runForEach(Effect.logWarning), Effect.forkScoped)
  // child.transport goes to Protocol.make / McpClient
}).pipe(Effect.scoped)
export {}
