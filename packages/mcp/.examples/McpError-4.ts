import * as McpServer from "@effect-mcp/mcp/McpServer"
import { ResourceNotFound } from "@effect-mcp/mcp/McpError"
import * as Effect from "effect/Effect"

const users = new Map([["1", "Ada"]])
const User = McpServer.resourceTemplate({
  uriTemplate: "users://{id}",
  name: "user",
  read: ({ id }) => {
    const name = users.get(id)
    return name === undefined ? Effect.fail(new ResourceNotFound()) : Effect.succeed(name)
  }
})
export {}
