/**
 * Protocol extensions registered on a server (`McpServer.extend`): the
 * methods they add past the core method table, and what they add to the
 * server's capabilities. A method of an extension is dispatched like a core
 * one (params checked by its schema, then its handler), after the core table.
 */
import * as Effect from "effect/Effect"
import type * as Result from "effect/Result"
import type * as SchemaIssue from "effect/SchemaIssue"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type { ErrorResponse } from "../../McpError.js"
import type { Extension, ExtensionRequest, ListenHook, ToolCallHook } from "../../McpServer.js"
import type * as Protocol from "../../Protocol.js"
import type { Era } from "../../ProtocolEra.js"
import { validator } from "../validate.js"

/** One extension method, its params decoder made once. */
export interface Method {
  readonly decode: (u: unknown) => Result.Result<unknown, SchemaIssue.Issue>
  readonly handle: (params: unknown, request: ExtensionRequest) => Effect.Effect<Protocol.Result, ErrorResponse>
}

export interface Extensions {
  /** Registers an extension for the life of the scope. */
  readonly add: (extension: Extension) => Effect.Effect<void, never, Scope.Scope>
  /** The method of an extension in `era`, if one registered it. */
  readonly method: (name: string, era: Era) => Method | undefined
  /** The tool-call hooks, in registration order. */
  readonly toolCallHooks: () => ReadonlyArray<ToolCallHook>
  /** The `subscriptions/listen` hooks, in registration order. */
  readonly listenHooks: () => ReadonlyArray<ListenHook>
  /** The server's capabilities with every extension's merged in (objects merged two levels deep). */
  readonly capabilities: <C extends object>(base: C) => C
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const merge = (into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...into }
  for (const [key, value] of Object.entries(from)) {
    const current = out[key]
    out[key] = isObject(current) && isObject(value) ? { ...current, ...value } : value
  }
  return out
}

export const make = (): Extensions => {
  const registered: Array<Extension> = []
  const methods: { readonly [E in Era]: Map<string, Method> } = { "2025": new Map(), "2026": new Map() }
  // read on every tools/call and listen: kept as arrays, made again only when an extension comes or goes
  let toolCallHooks: ReadonlyArray<ToolCallHook> = []
  let listenHooks: ReadonlyArray<ListenHook> = []
  const rebuild = () => {
    methods["2025"].clear()
    methods["2026"].clear()
    toolCallHooks = registered.flatMap((e) => (e.toolCall === undefined ? [] : [e.toolCall]))
    listenHooks = registered.flatMap((e) => (e.listen === undefined ? [] : [e.listen]))
    for (const extension of registered) {
      for (const era of ["2025", "2026"] as const) {
        for (const table of [extension.methods, extension.methodsByEra?.[era]]) {
          for (const [name, m] of Object.entries(table ?? {})) {
            methods[era].set(name, {
              decode: validator(m.params as Schema.Codec<unknown, unknown>),
              handle: m.handle as Method["handle"]
            })
          }
        }
      }
    }
  }
  return {
    add: (extension) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          registered.push(extension)
          rebuild()
        }),
        () =>
          Effect.sync(() => {
            const i = registered.indexOf(extension)
            if (i >= 0) registered.splice(i, 1)
            rebuild()
          })
      ),
    method: (name, era) => methods[era].get(name),
    toolCallHooks: () => toolCallHooks,
    listenHooks: () => listenHooks,
    capabilities: <C extends object>(base: C): C =>
      registered.reduce(
        (caps, e) => (e.capabilities === undefined ? caps : merge(caps, e.capabilities as Record<string, unknown>)),
        base as Record<string, unknown>
      ) as C
  }
}
