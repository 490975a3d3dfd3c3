/**
 * `subscriptions/listen` (2026-07-28): the stream that replaces the GET
 * stream and `resources/(un)subscribe`. Its first frame is
 * `notifications/subscriptions/acknowledged` naming the filter the server
 * honors; then the list changes and resource updates the filter asks for,
 * fed by the same changes the 2025 sessions are told of, each tagged with
 * `_meta["io.modelcontextprotocol/subscriptionId"]` (the listen request's
 * id) and sent related to the listen request (on HTTP, on its SSE stream).
 * It lasts until the client ends it (cancels, or closes the stream) or the
 * server closes.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type * as JsonRpc from "../../JsonRpc.js"
import { ErrorResponse } from "../../McpError.js"
import * as McpSchema2026 from "../schema2026/core.js"
import type { ExtensionRequest, ListenHook } from "../../McpServer.js"
import type * as Protocol from "../../Protocol.js"
import { formatIssue, validator } from "../validate.js"
import type { ListKind } from "./registry.js"
import type { Sessions } from "./sessions.js"

const decodeParams = validator(McpSchema2026.SubscriptionsListenRequestParams)

const FILTER_OF: { readonly [kind in ListKind]: "toolsListChanged" | "promptsListChanged" | "resourcesListChanged" } = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged"
}

/** The part of the filter this server honors: every list change, and updates of the URIs named. */
const honored = (filter: McpSchema2026.SubscriptionFilter): McpSchema2026.SubscriptionFilter => ({
  ...(filter.toolsListChanged === true ? { toolsListChanged: true } : {}),
  ...(filter.promptsListChanged === true ? { promptsListChanged: true } : {}),
  ...(filter.resourcesListChanged === true ? { resourcesListChanged: true } : {}),
  ...(filter.resourceSubscriptions !== undefined && filter.resourceSubscriptions.length > 0
    ? { resourceSubscriptions: filter.resourceSubscriptions }
    : {})
})

/** Serves one `subscriptions/listen` request: acknowledges it, then delivers until interrupted. */
export const listen = (
  sessions: Sessions,
  protocol: Protocol.Protocol,
  id: JsonRpc.RequestId,
  params: unknown,
  hooks: ReadonlyArray<ListenHook> = [],
  request?: ExtensionRequest
): Effect.Effect<never, ErrorResponse> => {
  const decoded = decodeParams(params)
  if (Result.isFailure(decoded)) {
    return Effect.fail(ErrorResponse.invalidParams(`Invalid params for subscriptions/listen: ${formatIssue(decoded.failure)}`))
  }
  const filter = honored(decoded.success.notifications)
  const uris = new Set(filter.resourceSubscriptions ?? [])
  const route = { relatedRequestId: id }
  const tag = { [McpSchema2026.SUBSCRIPTION_ID_META_KEY]: id }
  const send = (method: string, params: JsonRpc.Params) =>
    protocol.notify(method, { ...params, _meta: tag }, route).pipe(Effect.ignore)
  const raw = (params as { readonly notifications?: { readonly [key: string]: unknown } }).notifications ?? {}
  return Effect.scoped(
    Effect.gen(function*() {
      // the extensions' parts (their sends wait for the acknowledgement)
      const acked = yield* Deferred.make<void>()
      const later = (method: string, p: JsonRpc.Params) => Effect.andThen(Deferred.await(acked), send(method, p))
      let honoredAll: { readonly [key: string]: unknown } = filter
      for (const hook of hooks) {
        if (request === undefined) break
        const own = yield* hook(raw, request, later)
        if (own !== undefined) honoredAll = { ...honoredAll, ...own }
      }
      // acknowledged before anything is delivered: registered only once it is sent
      yield* send("notifications/subscriptions/acknowledged", { notifications: honoredAll })
      yield* Deferred.succeed(acked, undefined)
      yield* sessions.listen({
        listChanged: (kind) => filter[FILTER_OF[kind]] === true ? send(`notifications/${kind}/list_changed`, {}) : Effect.void,
        resourceUpdated: (uri) => uris.has(uri) ? send("notifications/resources/updated", { uri }) : Effect.void
      })
      return yield* Effect.never
    })
  )
}
