/**
 * `Transport.tap` as a wire log sees every frame both ways on the real transports: stdio (a
 * child process; its requests would otherwise go by `sendNow`, which `tap` turns off) and
 * streamable HTTP (a server on 127.0.0.1 port 0), our client on each, both eras.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Transport from "@effect-mcp/mcp/Transport"
import type * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttpClient from "@effect-mcp/node/NodeStreamableHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { bundled } from "../../../vitest.bundled.js"
import { startServer } from "./httpUtil.js"

interface Seen {
  readonly out: Array<string>
  readonly in: Array<string>
}

const describeFrame = (m: unknown): string => {
  const o = m as { readonly method?: string; readonly id?: unknown }
  return o.method !== undefined ? `${"id" in o ? "request" : "notify"} ${o.method}` : `response ${String(o.id)}`
}

/** The Transport in context, tapped both ways into `seen`. */
const tapped = (seen: Seen) =>
  Layer.effect(
    Transport.Transport,
    Effect.map(Transport.Transport, (inner) =>
      Transport.tap(inner, {
        incoming: (frame: JsonRpc.Frame) => Effect.sync(() => void seen.in.push(describeFrame(frame))),
        outgoing: (message) => Effect.sync(() => void seen.out.push(describeFrame(message)))
      }))
  )

const Echo = McpServer.tool({
  name: "echo",
  parameters: Schema.Struct({ text: Schema.String }),
  handler: ({ text }) => Effect.succeed(text)
})

const exercise = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  yield* client.callTool("echo", { text: "x" })
  return client.era
})

describe("Transport.tap sees every frame", () => {
  for (const era of ["2025", "2026"] as const) {
    it.live(`stdio, ${era}: the client's requests and notifications out, the server's responses in`, () => {
      const seen: Seen = { out: [], in: [] }
      return exercise.pipe(
        Effect.provide(
          McpClient.layer({ era: era === "2026" ? "2026-07-28" : "2025", name: "c", version: "1" }).pipe(
            Layer.provide(tapped(seen)),
            Layer.provide(NodeStdio.layerClient({ command: process.execPath, args: [bundled("otel-server"), "stdio"] }))
          )
        ),
        Effect.map(() => {
          assert.include(seen.out, "request tools/call")
          assert.strictEqual(seen.out.filter((m) => m.startsWith("request")).length, seen.in.filter((m) => m.startsWith("response")).length)
          if (era === "2025") assert.deepStrictEqual(seen.out.slice(0, 2), ["request initialize", "notify notifications/initialized"])
        })
      )
    })

    it.live(`streamable HTTP, ${era}: the same`, () => {
      const seen: Seen = { out: [], in: [] }
      return Effect.gen(function*() {
        const { url } = yield* startServer(McpServer.register(Echo))
        yield* exercise.pipe(
          Effect.provide(
            McpClient.layer({ era: era === "2026" ? "2026-07-28" : "2025", name: "c", version: "1" }).pipe(
              Layer.provide(tapped(seen)),
              Layer.provide(NodeStreamableHttpClient.layer({ url }))
            )
          )
        )
        assert.include(seen.out, "request tools/call")
        assert.strictEqual(seen.out.filter((m) => m.startsWith("request")).length, seen.in.filter((m) => m.startsWith("response")).length)
      }).pipe(Effect.scoped)
    })
  }
})
