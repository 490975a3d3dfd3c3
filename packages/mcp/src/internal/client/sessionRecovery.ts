/**
 * Re-initialization, the client engine's side of a lost session: when the
 * transport says the server forgot the session (a call failed with a
 * `TransportError` of reason `SessionLost`, or a loss signalled outside any
 * call), initialize again with our own request ids, check that the protocol
 * version is unchanged, send `notifications/initialized`, and send the failed
 * call again once (a 404 means the server did not process it). Calls that saw
 * the same loss wait on one re-initialization: the lock serialises them, and
 * the transport's `isLost` tells whether a new session exists already.
 * Nothing of this runs on a call that succeeds.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import * as Semaphore from "effect/Semaphore"
import * as Stream from "effect/Stream"
import type { McpError } from "../../McpError.js"
import { ProtocolError, TransportError } from "../../McpError.js"
import type { Protocol } from "../../Protocol.js"
import type { SessionLoss } from "../../Transport.js"

type ClientError = McpError | ProtocolError

/** The `TransportError` of a call that failed because the server forgot the session. */
const sessionLost = (error: ClientError): TransportError | undefined =>
  error._tag === "ProtocolError" && error.reason === "Transport" && error.cause instanceof TransportError &&
    error.cause.reason === "SessionLost"
    ? error.cause
    : undefined

export interface Recovery {
  /** Runs `call`; when the session was lost under it, re-initializes and runs it once more. */
  readonly recover: <A, E extends ClientError>(method: string, call: Effect.Effect<A, E>) => Effect.Effect<A, E | ProtocolError>
}

const identity: Recovery = { recover: (_method, call) => call }

/**
 * `SessionLoss` as the SDK's streamable HTTP client makes it: the same losses as a callback too,
 * called where the transport notices one (a loss noticed before the callback was given is told at
 * once), so that the engine needs no fiber waiting on `losses` for the life of the session. The
 * public type leaves it out; a transport of one's own gives `losses` only.
 */
export interface ListenedLoss extends SessionLoss {
  readonly listen: (onLoss: () => void) => void
}

/** A loss's `listen`: undefined when the transport is not the SDK's streamable HTTP client. */
const listenOf = (loss: SessionLoss): ListenedLoss["listen"] | undefined => (loss as Partial<ListenedLoss>).listen

/**
 * Runs `onLoss` for each loss told through `listen`, in a fiber started when one is told (none
 * waits for the life of the session): one at a time, and once more for losses told meanwhile.
 */
const listenOnDemand = (
  listen: (onLoss: () => void) => void,
  onLoss: Effect.Effect<void>
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.withFiber((fiber) => {
    const context = fiber.context as Context.Context<Scope.Scope>
    const scope = Context.get(context, Scope.Scope)
    const run = Effect.runForkWith(context)
    let running: Fiber.Fiber<void> | undefined
    let again = false
    let closed = false
    const drain: Effect.Effect<void> = Effect.suspend(() => {
      if (!again || closed) {
        running = undefined
        return Effect.void
      }
      again = false
      return Effect.andThen(onLoss, drain)
    })
    listen(() => {
      again = true
      if (running === undefined && !closed) running = run(drain)
    })
    // `Scope.addFinalizer`: `Effect.addFinalizer` would keep a copy of the caller's context
    return Scope.addFinalizer(
      scope,
      Effect.suspend(() => {
        closed = true
        return running === undefined ? Effect.void : Fiber.interrupt(running)
      })
    )
  })

/**
 * `initialize` sends the engine's initialize request and resolves to the
 * protocol version the server chose; `version` is the one negotiated first.
 */
export const make = (options: {
  readonly protocol: Protocol
  readonly loss: SessionLoss | undefined
  readonly initialize: Effect.Effect<string, ClientError>
  readonly version: string
  readonly negotiated: ((version: string) => void) | undefined
}): Effect.Effect<Recovery, never, Scope.Scope> =>
  Effect.suspend(() => {
    const { loss, protocol, version } = options
    if (loss === undefined) return Effect.succeed(identity)
    const lock = Semaphore.makeUnsafe(1)
    const failed = (method: string, detail: string, cause?: unknown) =>
      new ProtocolError({
        reason: "NotInitialized",
        method,
        message: `The server forgot the session (HTTP 404) and re-initialization failed: ${detail}`,
        ...(cause === undefined ? {} : { cause })
      })

    const reinitialize = (method: string): Effect.Effect<void, ProtocolError> =>
      lock.withPermits(1)(Effect.suspend(() => {
        // another call re-initialized already
        if (!loss.isLost()) return Effect.void
        return Effect.gen(function*() {
          const chosen = yield* Effect.mapError(options.initialize, (e) => failed(method, e.message, e))
          if (chosen !== version) {
            const detail = `the server now speaks protocol version ${chosen}, not ${version}`
            yield* protocol.close(`re-initialization failed: ${detail}`)
            return yield* failed(method, detail)
          }
          options.negotiated?.(version)
          yield* Effect.mapError(protocol.notify("notifications/initialized"), (e) => failed(method, e.message, e))
          yield* Effect.logDebug("re-initialized after the server forgot the session")
        })
      }))

    // losses no call saw (the standing stream's 404, a new legacy connection)
    const onLoss = reinitialize("initialize").pipe(
      Effect.catch((e) => Effect.logDebug("re-initialization failed", e.message))
    )
    const listen = listenOf(loss)
    const listening = listen !== undefined
      ? listenOnDemand(listen, onLoss)
      : Effect.forkScoped(Stream.runForEach(loss.losses, () => onLoss))

    const recover = <A, E extends ClientError>(method: string, call: Effect.Effect<A, E>): Effect.Effect<A, E | ProtocolError> =>
      Effect.catchIf(call, (e) => sessionLost(e) !== undefined, () =>
        Effect.andThen(
          reinitialize(method),
          Effect.catchIf(call, (e) => sessionLost(e) !== undefined, (e) => {
            const cause = sessionLost(e)!
            return Effect.fail(
              new ProtocolError({
                reason: "Transport",
                method,
                message: `${cause.message}, even after re-initialization`,
                cause
              })
            )
          })
        ))
    return Effect.as(listening, { recover })
  })
