import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as SubscriptionRef from "effect/SubscriptionRef"

const program = Effect.gen(function*() {
  const roots = yield* SubscriptionRef.make<ReadonlyArray<McpSchema.Root>>([
    { uri: "file:///home/me/project", name: "project" }
  ])
  const ClientLive = McpClient.layer({ name: "my-host", version: "1.0.0", roots })
  // later: the server gets notifications/roots/list_changed
  yield* SubscriptionRef.update(roots, (all) => [...all, { uri: "file:///home/me/notes", name: "notes" }])
})
export {}
