/**
 * A request the server refuses with `-32042` (URL elicitation required,
 * `data.elicitations`): `McpClient.retryUrlElicitations` with each URL and its
 * message on stderr, then the wait for the server's
 * `notifications/elicitation/complete` of every one, then the request again
 * (at most {@link MAX_ROUNDS} times). `--elicit decline` or `--elicit cancel`
 * refuses instead: the error is the command's failure.
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"
import { Output } from "./Output.js"
import type { Settings } from "./Settings.js"

/** Most times a request is sent again after its URL elicitations completed. */
export const MAX_ROUNDS = 3

/** Runs `request`; on `-32042`, shows the URLs, waits for their completion, and runs it again. */
export const withUrlElicitations = <A, E, R>(
  client: McpClient.McpClientShape,
  settings: Settings,
  request: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | Output> =>
  Effect.gen(function*() {
    const out = yield* Output
    if (settings.elicit !== undefined && settings.elicit.action !== "accept") return yield* request
    return yield* McpClient.retryUrlElicitations(client, request, {
      maxRounds: MAX_ROUNDS,
      onUrl: (el) =>
        Effect.sync(() => {
          out.line(`emcp: the server asks you to open this URL${el.message !== "" ? ` (${el.message})` : ""}:\n  ${el.url}`)
          out.line(`emcp: waiting for the server to see it done (Ctrl-C to stop)`)
        })
    })
  })
