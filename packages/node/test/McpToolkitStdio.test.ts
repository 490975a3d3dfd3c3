/**
 * `McpToolkit.fromClient` over stdio, with a real child process: our stdio server
 * (`fixtures/cli-server.ts`, bundled) spawned by `NodeStdio.layerClient`, its tools an effect/ai
 * toolkit for a scripted `LanguageModel` driven by `Chat`. The model calls the child's `env` tool
 * (prefixed `cli_`); the child answers with a variable set in its environment only; the model sees
 * that answer on its next turn. In both eras.
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpToolkit from "@effect-mcp/mcp/McpToolkit"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as Chat from "effect/ai/Chat"
import * as LanguageModel from "effect/ai/LanguageModel"
import type * as Prompt from "effect/ai/Prompt"
import type * as Response from "effect/ai/Response"
import * as Tool from "effect/ai/Tool"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"
import { bundled } from "../../../vitest.bundled.js"

const repo = fileURLToPath(new URL("../../../", import.meta.url))

/** A LanguageModel answering turn i with `turns[i]` (text "done" past the script); `seen` gets each call's options. */
const scriptedModel = (turns: ReadonlyArray<Array<Response.PartEncoded>>, seen: Array<LanguageModel.ProviderOptions>) =>
  Layer.effect(
    LanguageModel.LanguageModel,
    LanguageModel.make({
      generateText: (options) =>
        Effect.sync(() => {
          seen.push(options)
          return turns[seen.length - 1] ?? [{ type: "text", text: "done" }]
        }),
      streamText: () => Stream.die("not scripted")
    })
  )

/** A client of a spawned cli-server whose environment has `AGENT_NOTE`, for the life of the scope. */
const spawnClient = (era: "2025" | "2026") =>
  Layer.build(
    McpClient.layer({ name: "agent", version: "1.0.0", era: era === "2025" ? "2025" : "2026-07-28" }).pipe(
      Layer.provide(NodeStdio.layerClient({
        command: process.execPath,
        args: [bundled("cli-server")],
        cwd: repo,
        env: { AGENT_NOTE: "set in the child only" }
      }))
    )
  ).pipe(Effect.map((context) => Context.get(context, McpClient.McpClient)))

describe("McpToolkit.fromClient over stdio: an agent uses a child process's tools", () => {
  for (const era of ["2025", "2026"] as const) {
    it.live(`${era}: the child's tools offered, a call made by the model, the child's answer seen by the model`, () =>
      Effect.gen(function*() {
        const client = yield* spawnClient(era)
        assert.strictEqual(client.era, era)
        const kit = yield* McpToolkit.fromClient(client, { prefix: "cli_" })
        const seen: Array<LanguageModel.ProviderOptions> = []
        const model = scriptedModel([[{ type: "tool-call", id: "c1", name: "cli_env", params: { name: "AGENT_NOTE" } }]], seen)
        const chat = yield* Chat.empty
        const first = yield* chat.generateText({ prompt: "What is AGENT_NOTE?", toolkit: kit.toolkit }).pipe(
          Effect.provide(model)
        )
        // offered: the child's tools, prefixed, `env` with the child's inputSchema as listed
        const offered = new Map(seen[0]!.tools.map((tool) => [tool.name, tool]))
        assert.includeMembers([...offered.keys()], ["cli_env", "cli_types", "cli_crash"])
        const listed = (yield* client.listToolsAll()).find((tool) => tool.name === "env")!
        assert.deepStrictEqual(Tool.getJsonSchema(offered.get("cli_env")!), listed.inputSchema as unknown)
        assert.strictEqual(first.toolResults[0]!.isFailure, false)

        // the next turn: the model sees the child's answer (a value only the child's environment has)
        yield* chat.generateText({ prompt: "And?", toolkit: kit.toolkit }).pipe(Effect.provide(model))
        const result = seen[1]!.prompt.content
          .flatMap((message) => message.role === "tool" ? message.content : [])
          .find((part): part is Prompt.ToolResultPart => part.type === "tool-result" && part.id === "c1")!
        assert.strictEqual(result.name, "cli_env")
        assert.strictEqual(result.isFailure, false)
        const text = result.modelOutput!.map((part) => part.type === "text" ? part.text : "").join("")
        assert.deepStrictEqual(JSON.parse(text), { value: "set in the child only", cwd: repo.replace(/\/$/, "") })
      }).pipe(Effect.scoped))
  }
})
