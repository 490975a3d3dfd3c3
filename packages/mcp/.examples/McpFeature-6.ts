import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Effect from "effect/Effect"
import { ResourceNotFound } from "@effect-mcp/mcp/McpError"

const users = new Map([["1", { name: "Ada" }], ["2", { name: "Grace" }]])

const User = McpServer.resourceTemplate({
  uriTemplate: "users://{id}/profile",
  name: "user-profile",
  mimeType: "application/json",
  // the variables matched from the URI read; an unknown id is -32002 with data.uri
  read: ({ id }) => {
    const user = users.get(id)
    return user === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(JSON.stringify(user))
  },
  // the concrete resources, listed by resources/list
  list: Effect.succeed(Array.from(users.keys(), (id) => ({ uri: `users://${id}/profile`, name: `user ${id}` }))),
  // completion/complete for the `id` variable
  complete: { id: (value) => Effect.succeed(Array.from(users.keys()).filter((id) => id.startsWith(value))) }
})
export {}
