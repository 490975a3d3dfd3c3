/**
 * `client.listen(filter)`: the server's change notifications (list changes,
 * resource updates) as a Stream, the same in both eras.
 *
 * - **2026**: a `subscriptions/listen` request that stays open (no timeout);
 *   the stream yields once the server acknowledged it
 *   (`notifications/subscriptions/acknowledged`), then every notification
 *   tagged with its subscription id (or untagged, from a server that does not
 *   tag) that the filter asks for. When the connection breaks, the request is
 *   sent again (a new id) after a backoff, as the 2025 standing GET is
 *   reopened; any other failure (a JSON-RPC error, the connection closed)
 *   fails the stream, and the server ending the subscription ends it. Closing the stream cancels the
 *   request.
 * - **2025**: the standing stream carries the list changes already; the
 *   resources of the filter are subscribed (`resources/subscribe`) for the
 *   life of the stream, which yields once they are.
 */
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"
import type { ListenFilter } from "../../McpClient.js"
import { McpError, ProtocolError } from "../../McpError.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import type * as ClientNotifications from "./notifications.js"

type ClientError = McpError | ProtocolError

/** Whether `n` is one of the notifications `filter` asks for. */
export const matches = (filter: ListenFilter) => (n: JsonRpc.Notification): boolean => {
  switch (n.method) {
    case "notifications/tools/list_changed":
      return filter.toolsListChanged === true
    case "notifications/prompts/list_changed":
      return filter.promptsListChanged === true
    case "notifications/resources/list_changed":
      return filter.resourcesListChanged === true
    case "notifications/resources/updated":
      return typeof n.params?.uri === "string" && (filter.resources ?? []).includes(n.params.uri)
    default:
      return false
  }
}

const subscriptionOf = (n: JsonRpc.Notification): unknown => {
  const meta = n.params?._meta
  return typeof meta === "object" && meta !== null
    ? (meta as Record<string, unknown>)[McpSchema2026.SUBSCRIPTION_ID_META_KEY]
    : undefined
}

/** Backoff between listen requests after a broken connection: 0.5 s, ×2, at most 30 s. */
const RECONNECT = Schedule.min([Schedule.exponential(Duration.millis(500)), Schedule.spaced(Duration.seconds(30))])

/** The 2026 listen: one `subscriptions/listen`, sent again when the connection breaks. */
export const listen2026 = (options: {
  readonly request: (
    method: string,
    params: JsonRpc.Params | undefined,
    options?: Protocol.RequestOptions | undefined
  ) => Effect.Effect<Protocol.Result, ClientError>
  readonly notifications: ClientNotifications.Notifications
  readonly reconnect?: Schedule.Schedule<unknown, ClientError> | undefined
}) =>
(filter: ListenFilter): Stream.Stream<JsonRpc.Notification, ClientError> =>
  Stream.unwrap(Effect.gen(function*() {
    const subscription = yield* options.notifications.subscribe
    const acks = yield* options.notifications.subscribe
    const acknowledged = yield* Deferred.make<void, ClientError>()
    const done = yield* Deferred.make<void, ClientError>()
    let current: JsonRpc.RequestId | undefined
    const params = {
      notifications: {
        ...(filter.toolsListChanged === true ? { toolsListChanged: true } : {}),
        ...(filter.promptsListChanged === true ? { promptsListChanged: true } : {}),
        ...(filter.resourcesListChanged === true ? { resourcesListChanged: true } : {}),
        ...(filter.resources !== undefined && filter.resources.length > 0
          ? { resourceSubscriptions: filter.resources }
          : {})
      }
    }
    const once = options.request("subscriptions/listen", params, {
      timeout: Duration.infinity,
      maxTimeout: Duration.infinity,
      onId: (id) => {
        current = id
      }
    })
    // a refusal by the server ends it; a broken connection is listened to again
    yield* once.pipe(
      Effect.retry({
        schedule: options.reconnect ?? RECONNECT,
        while: (e) => e instanceof ProtocolError && e.reason === "Transport"
      }),
      Effect.exit,
      Effect.flatMap((exit) => {
        const end = Exit.asVoid(exit)
        return Effect.andThen(Deferred.done(acknowledged, end), Deferred.done(done, end))
      }),
      Effect.forkScoped
    )
    const ours = (n: JsonRpc.Notification) => {
      const id = subscriptionOf(n)
      return id === undefined || id === current
    }
    // the acknowledgement, watched on a queue of its own (subscribed before the request went out)
    yield* Stream.fromSubscription(acks).pipe(
      Stream.filter((n) => n.method === "notifications/subscriptions/acknowledged" && ours(n)),
      Stream.runForEach(() => Deferred.succeed(acknowledged, undefined)),
      Effect.forkScoped
    )
    yield* Deferred.await(acknowledged)
    const wanted = matches(filter)
    return Stream.fromSubscription(subscription).pipe(
      Stream.filter((n) => ours(n) && wanted(n)),
      Stream.interruptWhen(Deferred.await(done))
    )
  }))

/** The 2025 listen: the standing stream's notifications, with the filter's resources subscribed. */
export const listen2025 = (options: {
  readonly notifications: ClientNotifications.Notifications
  readonly subscribe: (uri: string) => Effect.Effect<unknown, ClientError, Scope.Scope>
}) =>
(filter: ListenFilter): Stream.Stream<JsonRpc.Notification, ClientError> =>
  Stream.unwrap(Effect.gen(function*() {
    const subscription = yield* options.notifications.subscribe
    for (const uri of filter.resources ?? []) yield* options.subscribe(uri)
    return Stream.fromSubscription(subscription).pipe(Stream.filter(matches(filter)))
  }))
