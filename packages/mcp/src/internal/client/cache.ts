/**
 * The 2026 client's cache of list results and `resources/read` (Effect's
 * `Cache`): a result is kept for its `ttlMs` (0 or none: not kept; a failure
 * is never kept), keyed by method and params (without `_meta`). A
 * `notifications/*\/list_changed` drops that list's entries, a
 * `notifications/resources/updated` the reads of its URI. `cacheScope` is not
 * distinguished: one client is one authorization context, so `private` and
 * `public` results are both its own. Calls with progress or a `_meta` of their own bypass it.
 */
import * as Cache from "effect/Cache"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as JsonRpc from "../../JsonRpc.js"
import type { McpError, ProtocolError } from "../../McpError.js"
import type * as Protocol from "../../Protocol.js"
import type * as ClientNotifications from "./notifications.js"

type ClientError = McpError | ProtocolError
type Request = (
  method: string,
  params: JsonRpc.Params | undefined,
  options?: Protocol.RequestOptions | undefined
) => Effect.Effect<Protocol.Result, ClientError>

const CACHEABLE: ReadonlySet<string> = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read"
])

const INVALIDATES: { readonly [notification: string]: string } = {
  "notifications/tools/list_changed": "tools/list",
  "notifications/prompts/list_changed": "prompts/list",
  "notifications/resources/list_changed": "resources/list"
}

const keyOf = (method: string, params: JsonRpc.Params | undefined): string => {
  const { _meta: _, ...rest } = params ?? {}
  return JSON.stringify([method, rest])
}

const ttlOf = (exit: Exit.Exit<Protocol.Result, ClientError>): Duration.Duration => {
  if (Exit.isFailure(exit)) return Duration.zero
  const ttl = exit.value.ttlMs
  return typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0 ? Duration.millis(ttl) : Duration.zero
}

/** `request` with the cache in front of the cacheable methods; invalidated by the server's notifications for the life of the scope. */
export const make = (options: {
  /** The request as the wire answered it (with its `ttlMs`). */
  readonly raw: Request
  /** The request as the calls get it. */
  readonly request: Request
  /** What the calls get of a raw result. */
  readonly settle: (result: Protocol.Result) => Protocol.Result
  readonly notifications: ClientNotifications.Notifications
}): Effect.Effect<Request, never, Scope.Scope> =>
  Effect.gen(function*() {
    const cache = yield* Cache.makeWith((key: string) => {
      const [method, params] = JSON.parse(key) as [string, JsonRpc.Params]
      return options.raw(method, params)
    }, { capacity: 1000, timeToLive: ttlOf })
    const dropWhere = (keep: (method: string, params: JsonRpc.Params) => boolean) =>
      Effect.flatMap(Cache.keys(cache), (keys) =>
        Effect.forEach(keys, (key) => {
          const [method, params] = JSON.parse(key) as [string, JsonRpc.Params]
          return keep(method, params) ? Effect.void : Cache.invalidate(cache, key)
        }, { discard: true }))
    const subscription = yield* options.notifications.subscribe
    yield* Stream.fromSubscription(subscription).pipe(
      Stream.runForEach((n) => {
        const list = INVALIDATES[n.method]
        if (list !== undefined) {
          return dropWhere((method) => method !== list && !(list === "resources/list" && method === "resources/templates/list"))
        }
        if (n.method === "notifications/resources/updated") {
          return dropWhere((method, params) => !(method === "resources/read" && params.uri === n.params?.uri))
        }
        return Effect.void
      }),
      Effect.forkScoped
    )
    return (method, params, requestOptions) =>
      // a call with a `_meta` of its own goes out as it is (the cache's key leaves `_meta` out)
      CACHEABLE.has(method) && requestOptions?.onProgress === undefined && params?._meta === undefined
        ? Effect.suspend(() => {
          const key = keyOf(method, params)
          // a result not to be kept is dropped at once (concurrent identical calls still share it)
          return Cache.get(cache, key).pipe(
            Effect.tap((result) => Duration.isZero(ttlOf(Exit.succeed(result))) ? Cache.invalidate(cache, key) : Effect.void),
            Effect.tapError(() => Cache.invalidate(cache, key)),
            Effect.map(options.settle)
          )
        })
        : options.request(method, params, requestOptions)
  })
