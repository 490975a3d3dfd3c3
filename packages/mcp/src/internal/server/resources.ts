/**
 * Resources and resource templates: reading them into a `ReadResourceResult`,
 * and `resources/list`, `resources/templates/list`, `resources/read` and the
 * subscriptions.
 */
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import * as Option from "effect/Option"
import { ErrorResponse } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import type { CacheHint, Completer, Resource, ResourceContent, ResourceTemplate } from "../../McpFeature.js"
import * as UriTemplate from "../../UriTemplate.js"
import * as Failure from "./failure.js"
import type { ListPage } from "./pagination.js"
import { type FeatureRegistry, findTemplate } from "./registry.js"
import { capped, type Handlers, runFeature, withFeature } from "./request.js"
import type { RequestEnv } from "./request.js"

/** On the 2026 path, a read carries its resource's own caching hint, if it has one. */
const withHint = <A extends object>(
  env: RequestEnv,
  hint: CacheHint | undefined,
  read: Effect.Effect<A, ErrorResponse>
): Effect.Effect<A, ErrorResponse> =>
  env.envelope === undefined || hint === undefined ? read : Effect.map(read, (result) => ({ ...result, ...hint }))

const toReadResult = (uri: string, mimeType: string | undefined, content: ResourceContent): McpSchema.ReadResourceResult => {
  const mime = mimeType === undefined ? {} : { mimeType }
  if (typeof content === "string") return { contents: [{ uri, ...mime, text: content }] }
  if (content instanceof Uint8Array) return { contents: [{ uri, ...mime, blob: Base64.encode(content) }] }
  if (Array.isArray(content)) return { contents: content as Array<McpSchema.TextResourceContents> }
  if ("contents" in (content as object)) return content as McpSchema.ReadResourceResult
  return { contents: [content as McpSchema.TextResourceContents] }
}

interface Scoped {
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly cacheHint?: CacheHint | undefined
}

/** A static resource (see `McpServer.resource`). */
export const resource = (
  options: McpSchema.Resource & Scoped & { readonly content: Effect.Effect<ResourceContent, unknown, unknown> }
): Resource<unknown> => {
  const { cacheHint, content, scopes, ...definition } = options
  return {
    _tag: "Resource",
    definition,
    ...(scopes !== undefined ? { scopes } : {}),
    ...(cacheHint !== undefined ? { cacheHint } : {}),
    read: (uri) =>
      content.pipe(
        Effect.map((c) => toReadResult(uri, options.mimeType, c)),
        Effect.catch(Failure.ofFeature("resources/read", options.name, uri))
      )
  }
}

/** A resource template (see `McpServer.resourceTemplate`). */
export const resourceTemplate = (
  options: McpSchema.ResourceTemplate & Scoped & {
    readonly read: (variables: Record<string, string>, uri: string) => Effect.Effect<ResourceContent, unknown, unknown>
    readonly list?: Effect.Effect<ReadonlyArray<McpSchema.Resource>, never, unknown> | undefined
    readonly complete?: { readonly [variable: string]: Completer<unknown> } | undefined
  }
): ResourceTemplate<unknown> => {
  const { cacheHint, complete, list, read, scopes, ...definition } = options
  return {
    _tag: "ResourceTemplate",
    definition,
    ...(scopes !== undefined ? { scopes } : {}),
    ...(cacheHint !== undefined ? { cacheHint } : {}),
    template: UriTemplate.parse(options.uriTemplate),
    read: (uri, variables) =>
      read(variables, uri).pipe(
        Effect.map((c) => toReadResult(uri, options.mimeType, c)),
        Effect.catch(Failure.ofFeature("resources/read", options.name, uri))
      ),
    list,
    complete: complete ?? {}
  }
}

export const handlers = (registry: FeatureRegistry, listPage: ListPage): Handlers => ({
  "resources/list": (params: McpSchema.PaginatedRequestParams | undefined, env) =>
    Effect.flatMap(registry.get, (r) =>
      Effect.flatMap(
        Effect.forEach(
          Array.from(r.templates.values()).filter((e) => e.feature.list !== undefined),
          (e) => withFeature(e, e.feature.list!, env)
        ),
        (listed) =>
          capped(
            env,
            [...r.resources.values(), ...r.templates.values()],
            listPage("resources", [...Array.from(r.resources.values(), (e) => e.feature.definition), ...listed.flat()], params?.cursor)
          )
      )),
  "resources/templates/list": (params: McpSchema.PaginatedRequestParams | undefined, env) =>
    Effect.flatMap(registry.get, (r) => {
      const entries = Array.from(r.templates.values())
      return capped(env, entries, listPage("resourceTemplates", entries.map((e) => e.feature.definition), params?.cursor))
    }),
  "resources/read": (params: McpSchema.ReadResourceRequestParams, env) =>
    Effect.flatMap(registry.get, (r) => {
      const entry = r.resources.get(params.uri)
      if (entry !== undefined) return withHint(env, entry.feature.cacheHint, runFeature(entry, entry.feature.read(params.uri), env))
      const template = findTemplate(r, params.uri)
      if (Option.isSome(template)) {
        const [e, vars] = template.value
        return withHint(env, e.feature.cacheHint, runFeature(e, e.feature.read(params.uri, vars), env))
      }
      return Effect.fail(ErrorResponse.resourceNotFound(params.uri))
    }),
  "resources/subscribe": (params: McpSchema.SubscribeRequestParams, { session }) =>
    Effect.sync(() => {
      session.subscriptions.add(params.uri)
      return {}
    }),
  "resources/unsubscribe": (params: McpSchema.UnsubscribeRequestParams, { session }) =>
    Effect.sync(() => {
      session.subscriptions.delete(params.uri)
      return {}
    })
})
