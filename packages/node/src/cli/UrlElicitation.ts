/**
 * A request the server refuses with `-32042` (URL elicitation required,
 * `data.elicitations`): each URL and its message on stderr, then the wait for
 * the server's `notifications/elicitation/complete` of every one, then the
 * request again (at most {@link MAX_ROUNDS} times). `--elicit decline` or
 * `--elicit cancel` refuses instead: the error is the command's failure.
 *
 * @since 0.1.0
 */
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError } from "@effect-mcp/mcp/McpError"
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { Output } from "./Output.js"
import type { Settings } from "./Settings.js"

/** Most times a request is sent again after its URL elicitations completed. */
export const MAX_ROUNDS = 3

const decodeRequired = Schema.decodeUnknownOption(McpSchema.URLElicitationRequiredErrorObject)

/** The URL-mode elicitations of a `-32042` error, if it is one. */
export const urlElicitations = (error: unknown): Option.Option<ReadonlyArray<McpSchema.ElicitRequestURLParams>> =>
  error instanceof McpError && error.code === McpSchema.URL_ELICITATION_REQUIRED
    ? Option.map(decodeRequired(error.toObject()), (e) => e.data.elicitations)
    : Option.none()

/** Runs `request`; on `-32042`, shows the URLs, waits for their completion, and runs it again. */
export const withUrlElicitations = <A, E, R>(
  client: McpClient.McpClientShape,
  settings: Settings,
  request: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | Output> =>
  Effect.gen(function*() {
    const out = yield* Output
    // the completions are collected from the start: one may come before the error that asks for it
    const completed = new Set<string>()
    const arrived = yield* Queue.unbounded<string>()
    yield* client.notifications.pipe(
      Stream.runForEach((n) => {
        const id = n.params?.elicitationId
        if (n.method !== "notifications/elicitation/complete" || typeof id !== "string") return Effect.void
        completed.add(id)
        return Queue.offer(arrived, id)
      }),
      Effect.forkScoped
    )
    yield* Effect.yieldNow
    const refuse = settings.elicit !== undefined && settings.elicit.action !== "accept"
    const attempt = (round: number): Effect.Effect<A, E, R> =>
      Effect.catchIf(
        request,
        (e) => round < MAX_ROUNDS && !refuse && Option.isSome(urlElicitations(e)),
        (e) =>
          Effect.gen(function*() {
            const elicitations = Option.getOrThrow(urlElicitations(e))
            for (const el of elicitations) {
              out.line(`emcp: the server asks you to open this URL${el.message !== "" ? ` (${el.message})` : ""}:\n  ${el.url}`)
            }
            const waiting = elicitations.map((el) => el.elicitationId).filter((id) => !completed.has(id))
            if (waiting.length > 0) out.line(`emcp: waiting for the server to see it done (Ctrl-C to stop)`)
            while (!waiting.every((id) => completed.has(id))) yield* Queue.take(arrived)
            return yield* attempt(round + 1)
          })
      )
    return yield* attempt(0)
  }).pipe(Effect.scoped)
