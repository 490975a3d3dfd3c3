/**
 * The fallback of the streamable HTTP client to the 2024-11-05 HTTP+SSE
 * transport: a 400, 404 or 405 to the first initialize POST means a legacy
 * server. The legacy transport is built in the streamable one's scope, its
 * `incoming` is forwarded, and the initialize request is sent again on it.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"
import { TransportError } from "../../McpError.js"
import type { TransportShape } from "../../Transport.js"
import { refused } from "./failure.js"
import * as HttpFibers from "./fibers.js"
import * as HttpInbox from "./inbox.js"
import * as HttpSession from "./session.js"

/** Builds the legacy transport (`LegacySseClient.make` or the user's `legacyFallback`, given the `HttpClient`). */
export type Build = (status: number) => Effect.Effect<TransportShape, TransportError, Scope.Scope>

/**
 * Switches to the legacy transport and sends it `request`; when the fallback
 * fails, so does the request.
 */
export const fallBack = (options: {
  readonly inbox: HttpInbox.Inbox
  readonly url: URL
  readonly scope: Scope.Scope
  readonly build: Build | undefined
  readonly request: JsonRpc.Request
  readonly status: number
  readonly body: string
  readonly sink: HttpInbox.Sink
  /** Called with the legacy transport before anything is sent on it: every later message goes there. */
  readonly adopt: (legacy: TransportShape) => void
}): Effect.Effect<void> =>
  Effect.gen(function*() {
    const { inbox, sink } = options
    const answer = refused(options.status, options.body, "POST", options.url)
    if (options.build === undefined) {
      return yield* HttpInbox.failAwaiting(sink, answer.error, inbox)
    }
    const shape = yield* options.build(options.status).pipe(
      Scope.provide(options.scope),
      Effect.result
    )
    if (Result.isFailure(shape)) {
      const message = `${answer.error.message} (on initialize), and the legacy HTTP+SSE fallback failed: ${shape.failure.message}`
      return yield* HttpInbox.failAwaiting(
        sink,
        new TransportError({ reason: shape.failure.reason, message, cause: shape.failure, status: options.status }),
        inbox
      )
    }
    const legacy = shape.success
    options.adopt(legacy)
    // the legacy transport's session losses reach the engine through this transport's session
    const losses = legacy.sessionLoss?.losses
    if (losses !== undefined) {
      yield* HttpFibers.runBackground(inbox.fibers, Stream.runForEach(losses, () => Effect.sync(() => HttpSession.signalLoss(inbox.session))))
    }
    // the legacy transport's reads go on to this transport's engine, in order
    const reading = legacy.run({
      frames: (frames) => {
        for (const frame of frames) inbox.frames.offer(frame)
        return undefined
      },
      end: (error) => inbox.frames.end(error)
    })
    if (reading !== undefined) {
      yield* HttpFibers.runBackground(
        inbox.fibers,
        reading.pipe(
          Effect.matchCauseEffect({
            onSuccess: () => inbox.frames.end(Option.none()),
            onFailure: (cause) =>
              Cause.hasInterruptsOnly(cause) ? Effect.void : inbox.frames.end(Option.some(
                Option.getOrElse(Cause.findErrorOption(cause), () =>
                  new TransportError({ reason: "Read", message: "The legacy transport failed", cause: Cause.squash(cause) }))
              ))
          })
        )
      )
    }
    yield* legacy.send(options.request).pipe(
      Effect.catch((error) => HttpInbox.failAwaiting(sink, error, inbox))
    )
  })
