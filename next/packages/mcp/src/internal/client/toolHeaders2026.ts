/**
 * Which tools' calls carry `Mcp-Param-*` headers on the 2026-07-28 path,
 * learnt from `tools/list` (the rules are `headers2026`'s). Tools whose
 * `x-mcp-header` annotations break the rules are dropped from the list
 * (logged with the reason); the annotations of the others are kept by name,
 * and a `tools/call` of one of them carries its headers as the request's
 * `Route.headers`. A call of a tool not listed yet that the server refuses
 * with −32020 (its headers) lists the tools and is made once more.
 */
import * as Effect from "effect/Effect"
import type * as JsonRpc from "../../JsonRpc.js"
import { McpError } from "../../McpError.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import * as Headers2026 from "../headers2026.js"
import type { ClientError, Send } from "./envelope2026.js"

type Declared = Map<string, ReadonlyArray<Headers2026.HeaderParam>>

export interface ToolHeaders {
  /** `options` with the `Mcp-Param-*` headers of a `tools/call` of a tool listed with `x-mcp-header` parameters. */
  readonly route: (
    method: string,
    params: JsonRpc.Params | undefined,
    options: Protocol.RequestOptions | undefined
  ) => Protocol.RequestOptions | undefined
  /** `tools/list`, its tools with invalid annotations dropped, the annotations of the others recorded. */
  readonly listTools: (
    params: JsonRpc.Params | undefined,
    options: Protocol.RequestOptions | undefined
  ) => Effect.Effect<Protocol.Result, ClientError>
  /** `call` (of the tool `params.name`), made once more after listing the tools when it was refused for headers not known yet. */
  readonly callTool: (
    params: JsonRpc.Params | undefined,
    call: () => Effect.Effect<Protocol.Result, ClientError>
  ) => Effect.Effect<Protocol.Result, ClientError>
}

const routeOf = (declared: Declared): ToolHeaders["route"] => (method, params, options) => {
  if (method !== "tools/call" || typeof params?.name !== "string") return options
  const headers = declared.get(params.name)
  if (headers === undefined || headers.length === 0) return options
  const values = Headers2026.paramHeaders(headers, params.arguments as { readonly [key: string]: unknown } | undefined)
  return { ...options, route: { ...options?.route, headers: { ...options?.route?.headers, ...values } } }
}

/** The tools of a `tools/list` result whose annotations follow the rules (recorded in `declared`), and why the others do not. */
const scanTools = (declared: Declared, tools: ReadonlyArray<{ readonly name?: unknown; readonly inputSchema?: unknown }>) => {
  const kept: Array<unknown> = []
  const dropped: Array<string> = []
  for (const tool of tools) {
    const scan = Headers2026.scanToolHeaders(tool?.inputSchema)
    const name = typeof tool?.name === "string" ? tool.name : undefined
    if (scan._tag === "Invalid") {
      dropped.push(`${name ?? "(unnamed)"}: ${scan.reason}`)
      continue
    }
    if (name !== undefined) declared.set(name, scan.params)
    kept.push(tool)
  }
  return { kept, dropped }
}

/** A `tools/list` result as the client gives it: the tools `scanTools` dropped are gone (and logged). */
const learn = (declared: Declared, result: Protocol.Result): Effect.Effect<Protocol.Result> => {
  if (!Array.isArray(result.tools)) return Effect.succeed(result)
  const { dropped, kept } = scanTools(declared, result.tools)
  if (dropped.length === 0) return Effect.succeed(result)
  return Effect.as(
    Effect.logWarning(`tools/list: dropped ${dropped.length} tool(s) with invalid x-mcp-header annotations`).pipe(
      Effect.annotateLogs("dropped", dropped)
    ),
    { ...result, tools: kept }
  )
}

/** `send` is the envelope's (a `tools/list` has no headers of its own). */
export const make = (send: Send): ToolHeaders => {
  /** `x-mcp-header` parameters of the tools listed so far, by name. */
  const declared: Declared = new Map()
  const listTools: ToolHeaders["listTools"] = (params, options) =>
    Effect.flatMap(send("tools/list", params, options), (result) => learn(declared, result))
  /** Every page of `tools/list`, for the annotations it records. */
  const learnAll = (cursor?: string): Effect.Effect<void, ClientError> =>
    Effect.flatMap(listTools(cursor === undefined ? undefined : { cursor }, undefined), (result) =>
      typeof result.nextCursor === "string" && result.nextCursor !== cursor ? learnAll(result.nextCursor) : Effect.void)
  const callTool: ToolHeaders["callTool"] = (params, call) => {
    const name = params?.name
    return Effect.catchIf(
      call(),
      (e): e is McpError =>
        e instanceof McpError && e.code === McpSchema2026.HEADER_MISMATCH && typeof name === "string" && !declared.has(name),
      (e) => Effect.flatMap(learnAll(), () => declared.has(name as string) ? call() : Effect.fail(e))
    )
  }
  return { route: routeOf(declared), listTools, callTool }
}
