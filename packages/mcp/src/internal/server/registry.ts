/**
 * The server's features: tools, resources, templates and prompts by key, each
 * with the services it was registered with. A change tells the sessions which
 * lists changed (`notifications/<kind>/list_changed`).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Scope from "effect/Scope"
import * as Tracer from "effect/Tracer"
import type * as JsonRpc from "../../JsonRpc.js"
import type { Feature, Prompt, Resource, ResourceTemplate, Tool } from "../../McpFeature.js"
import * as UriTemplate from "../../UriTemplate.js"
import { scanToolHeaders } from "../headers2026.js"

/** A registered feature and the services its handlers run with. */
export interface Registered<F> {
  readonly feature: F
  readonly context: Context.Context<never>
}

export interface Registry {
  readonly tools: ReadonlyMap<string, Registered<Tool<unknown>>>
  readonly resources: ReadonlyMap<string, Registered<Resource<unknown>>>
  readonly templates: ReadonlyMap<string, Registered<ResourceTemplate<unknown>>>
  readonly prompts: ReadonlyMap<string, Registered<Prompt<unknown>>>
}

/** The lists a change can touch, as named by `notifications/<kind>/list_changed`. */
export type ListKind = "tools" | "resources" | "prompts"

export type FeatureKind = "tool" | "resource" | "template" | "prompt"

export interface FeatureRegistry {
  /** The features now. */
  readonly get: Effect.Effect<Registry>
  /** The features now, without an effect (`tools/call` reads it on every call). */
  readonly current: () => Registry
  /** Adds features; they are removed when the scope closes. */
  readonly add: (
    features: ReadonlyArray<Feature<unknown>>,
    context: Context.Context<never>
  ) => Effect.Effect<void, never, Scope.Scope>
  /** Removes a tool, a resource (by URI), a template (by URI template) or a prompt. */
  readonly remove: (kind: FeatureKind, key: string) => Effect.Effect<void>
}

/**
 * The services a feature's handlers get from the Layer that registered it:
 * all but its `Scope` and span, which a request takes from the fiber serving
 * it (the session's scope, the request's span).
 */
const serviceContext = (context: Context.Context<never>): Context.Context<never> =>
  Context.omit(Scope.Scope, Tracer.ParentSpan)(context)

const kindOf = (f: Feature<unknown>): ListKind =>
  f._tag === "Tool" ? "tools" : f._tag === "Prompt" ? "prompts" : "resources"

const keyOf = (f: Feature<unknown>): string => {
  switch (f._tag) {
    case "Tool":
      return f.name
    case "Resource":
      return f.definition.uri
    case "ResourceTemplate":
      return f.definition.uriTemplate
    case "Prompt":
      return f.definition.name
  }
}

const mapOf = (r: Registry, kind: FeatureKind): ReadonlyMap<string, Registered<Feature<unknown>>> =>
  kind === "tool" ? r.tools : kind === "resource" ? r.resources : kind === "template" ? r.templates : r.prompts

const kindOfFeature = (f: Feature<unknown>): FeatureKind =>
  f._tag === "Tool" ? "tool" : f._tag === "Resource" ? "resource" : f._tag === "ResourceTemplate" ? "template" : "prompt"

/**
 * The next registry: `features` added (with the services their handlers run
 * with) or removed (`services` undefined), and the lists that changed. A
 * removal only removes the feature itself: when a later registration replaced
 * it under the same key, that one stays.
 */
const apply = (
  r: Registry,
  features: ReadonlyArray<Feature<unknown>>,
  services: Context.Context<never> | undefined
): readonly [ReadonlySet<ListKind>, Registry] => {
  const next = {
    tools: new Map(r.tools),
    resources: new Map(r.resources),
    templates: new Map(r.templates),
    prompts: new Map(r.prompts)
  }
  const kinds = new Set<ListKind>()
  for (const f of features) {
    const key = keyOf(f)
    const map = mapOf(next, kindOfFeature(f)) as Map<string, Registered<Feature<unknown>>>
    if (services !== undefined) {
      map.set(key, { feature: f, context: services })
      kinds.add(kindOf(f))
    } else if (map.get(key)?.feature === f) {
      map.delete(key)
      kinds.add(kindOf(f))
    }
  }
  return [kinds, next]
}

/**
 * The defect of a tool whose `x-mcp-header` annotations break the 2026-07-28 rules
 * (`headers2026`): a client drops such a tool from `tools/list`, so a server does not register it.
 */
const refused = (features: ReadonlyArray<Feature<unknown>>): Effect.Effect<void> => {
  for (const f of features) {
    if (f._tag !== "Tool") continue
    const scan = scanToolHeaders(f.definition.inputSchema)
    if (scan._tag === "Invalid") {
      return Effect.die(new Error(
        `Tool ${f.name} cannot be registered: ${scan.reason}; clients drop a tool with an invalid x-mcp-header ` +
          "annotation from tools/list (MCP 2026-07-28, SEP-2243)"
      ))
    }
  }
  return Effect.void
}

/** An empty registry; `onListChanged` is told of each list a change touched. */
export const make = (onListChanged: (kind: ListKind) => Effect.Effect<void>): Effect.Effect<FeatureRegistry> =>
  Effect.suspend(() => {
    let current: Registry = { tools: new Map(), resources: new Map(), templates: new Map(), prompts: new Map() }
    return Effect.map(Ref.make<Registry>(current), (registry) => {
      const update = (features: ReadonlyArray<Feature<unknown>>, context: Context.Context<never> | undefined) => {
        const services = context === undefined ? undefined : serviceContext(context)
        return Ref.modify(registry, (r) => {
          const [kinds, next] = apply(r, features, services)
          current = next
          return [kinds, next] as const
        }).pipe(
          Effect.flatMap((kinds) => Effect.forEach(kinds, onListChanged, { discard: true }))
        )
      }
      return {
        get: Ref.get(registry),
        current: () => current,
        add: (features, context) =>
          Effect.andThen(refused(features), Effect.acquireRelease(update(features, context), () => update(features, undefined))),
        remove: (kind, key) =>
          Effect.flatMap(Ref.get(registry), (r) => {
            const entry = mapOf(r, kind).get(key)
            return entry === undefined ? Effect.void : update([entry.feature], undefined)
          })
      }
    })
  })

/** The first template matching `uri`, with the variables it matched. */
export const findTemplate = (
  r: Registry,
  uri: string
): Option.Option<readonly [Registered<ResourceTemplate<unknown>>, Record<string, string>]> => {
  for (const entry of r.templates.values()) {
    const vars = UriTemplate.match(entry.feature.template, uri)
    if (Option.isSome(vars)) return Option.some([entry, vars.value] as const)
  }
  return Option.none()
}

/**
 * The scopes declared by the feature a request addresses (`tools/call` of a
 * tool, `resources/read` of a resource or template, `prompts/get` of a
 * prompt); none for other requests.
 */
export const scopesIn = (r: Registry, request: JsonRpc.Request): ReadonlyArray<string> => {
  const params = request.params as { readonly name?: unknown; readonly uri?: unknown } | undefined
  switch (request.method) {
    case "tools/call":
      return typeof params?.name === "string" ? r.tools.get(params.name)?.feature.scopes ?? [] : []
    case "prompts/get":
      return typeof params?.name === "string" ? r.prompts.get(params.name)?.feature.scopes ?? [] : []
    case "resources/read": {
      if (typeof params?.uri !== "string") return []
      const entry = r.resources.get(params.uri)
      if (entry !== undefined) return entry.feature.scopes ?? []
      return Option.match(findTemplate(r, params.uri), { onNone: () => [], onSome: ([e]) => e.feature.scopes ?? [] })
    }
    default:
      return []
  }
}
