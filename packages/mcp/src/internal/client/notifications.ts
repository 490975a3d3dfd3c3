/**
 * The server's notifications as the client's streams get them: a `PubSub`
 * made when the first subscriber comes (most sessions never subscribe: a
 * `PubSub` and its shutdown finalizer were ~30 Effect operations of each
 * session's open and close). A notification published before then has no
 * subscriber, and is dropped as an unbounded `PubSub` with none drops it.
 */
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"

export interface Notifications {
  /** Hands a notification to the subscribers, if any. */
  readonly publish: (notification: JsonRpc.Notification) => Effect.Effect<void>
  /** A subscription for the life of the scope. */
  readonly subscribe: Effect.Effect<PubSub.Subscription<JsonRpc.Notification>, never, Scope.Scope>
  /** Every notification from the time it is run (as `Stream.fromPubSub`). */
  readonly stream: Stream.Stream<JsonRpc.Notification>
}

/** Notifications for the life of `scope` (the `PubSub` is shut down when it closes). */
export const make = (scope: Scope.Scope): Notifications => {
  let hub: PubSub.PubSub<JsonRpc.Notification> | undefined
  const get = Effect.suspend(() =>
    hub !== undefined ? Effect.succeed(hub) : Effect.flatMap(PubSub.unbounded<JsonRpc.Notification>(), (made) => {
      // another fiber made one meanwhile
      if (hub !== undefined) return Effect.as(PubSub.shutdown(made), hub)
      hub = made
      return Effect.as(Scope.addFinalizer(scope, PubSub.shutdown(made)), made)
    })
  )
  const subscribe = Effect.flatMap(get, PubSub.subscribe)
  return {
    publish: (notification) => hub === undefined ? Effect.void : Effect.asVoid(PubSub.publish(hub, notification)),
    subscribe,
    // the subscription lives as long as the stream runs
    stream: Stream.unwrap(Effect.map(subscribe, Stream.fromSubscription))
  }
}
