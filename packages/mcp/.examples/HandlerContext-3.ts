import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import * as Effect from "effect/Effect"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Schema from "effect/Schema"

const Contact = Schema.Struct({ email: Schema.String, newsletter: Schema.optional(Schema.Boolean) })

const Subscribe = McpServer.tool({
  name: "subscribe",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const { email, newsletter } = yield* ctx.elicit({ message: "How do we reach you?", schema: Contact })
      return `subscribed ${email}${newsletter === true ? " with the newsletter" : ""}`
    }).pipe(
      // the user declined or cancelled the form
      Effect.catchTag("ElicitationDeclined", () => Effect.succeed("not subscribed"))
    )
})
export {}
