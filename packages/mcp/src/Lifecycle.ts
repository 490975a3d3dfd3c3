/**
 * The rules of the MCP lifecycle that depend on the protocol revision:
 * version negotiation, which capability a method needs on either side, and
 * which transport-level features a version allows (batches). Every rule that
 * changes between revisions lives here, so a later revision plugs in at one
 * seam.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.negotiate("2025-06-18") // "2025-06-18"
 * Lifecycle.negotiate("1999-01-01") // "2025-11-25", our latest
 * ```
 * @since 0.1.0
 */

/**
 * Protocol revisions we speak, newest first.
 * @since 0.1.0
 * @category versions
 */
export const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const

/**
 * A protocol revision we speak.
 * @since 0.1.0
 * @category versions
 */
export type Version = typeof SUPPORTED_VERSIONS[number]

/**
 * The newest revision we speak, proposed by our client and answered by our
 * server when the client asks for one we do not know.
 * @since 0.1.0
 * @category versions
 */
export const LATEST_VERSION: Version = "2025-11-25"

/**
 * The version a streamable HTTP server assumes when `MCP-Protocol-Version` is absent.
 * @since 0.1.0
 * @category versions
 */
export const DEFAULT_HTTP_VERSION: Version = "2025-03-26"

/**
 * Whether a value is a revision we speak.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.isSupported("2025-06-18") // true
 * Lifecycle.isSupported("2026-01-01") // false
 * ```
 * @since 0.1.0
 * @category versions
 */
export const isSupported = (version: unknown): version is Version =>
  typeof version === "string" && (SUPPORTED_VERSIONS as ReadonlyArray<string>).includes(version)

/**
 * The server's answer to a client's requested version: the same when supported, else our latest.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.negotiate("2024-11-05") // "2024-11-05"
 * Lifecycle.negotiate(undefined) // "2025-11-25"
 * ```
 * @since 0.1.0
 * @category versions
 */
export const negotiate = (requested: unknown): Version => (isSupported(requested) ? requested : LATEST_VERSION)

/**
 * JSON-RPC batches exist up to 2025-03-26 and were removed in 2025-06-18.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.allowsBatches("2025-03-26") // true
 * Lifecycle.allowsBatches("2025-11-25") // false
 * ```
 * @since 0.1.0
 * @category versions
 */
export const allowsBatches = (version: string | undefined): boolean =>
  version === "2025-03-26" || version === "2024-11-05"

/**
 * Elicitation (2025-06-18+) and URL-mode elicitation (2025-11-25+).
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.allowsElicitation("2025-03-26") // false
 * ```
 * @since 0.1.0
 * @category versions
 */
export const allowsElicitation = (version: string | undefined): boolean => version !== undefined && version >= "2025-06-18"

/**
 * Sampling with tools (2025-11-25+): a sampling message's or answer's
 * `content` may be an array of blocks, and `tool_use` / `tool_result`
 * blocks exist. Before, the content is one text, image or audio block.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.allowsSamplingContentArrays("2025-06-18") // false
 * Lifecycle.allowsSamplingContentArrays("2025-11-25") // true
 * ```
 * @since 0.1.0
 * @category versions
 */
export const allowsSamplingContentArrays = (version: string | undefined): boolean =>
  version !== undefined && version >= "2025-11-25"

type Capabilities = { readonly [key: string]: unknown }

const has = (capabilities: Capabilities | undefined, path: ReadonlyArray<string>): boolean => {
  let current: unknown = capabilities
  for (const key of path) {
    if (typeof current !== "object" || current === null || !(key in current)) return false
    current = (current as Record<string, unknown>)[key]
  }
  return current !== undefined && current !== null && current !== false
}

/**
 * The server capability a client→server request needs, as a path into
 * `ServerCapabilities`; undefined for methods every server has.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.serverCapabilityFor("resources/subscribe") // ["resources", "subscribe"]
 * Lifecycle.serverCapabilityFor("ping") // undefined
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const serverCapabilityFor = (method: string): ReadonlyArray<string> | undefined => {
  switch (method) {
    case "tools/list":
    case "tools/call":
      return ["tools"]
    case "resources/list":
    case "resources/templates/list":
    case "resources/read":
      return ["resources"]
    case "resources/subscribe":
    case "resources/unsubscribe":
      return ["resources", "subscribe"]
    case "prompts/list":
    case "prompts/get":
      return ["prompts"]
    case "logging/setLevel":
      return ["logging"]
    case "completion/complete":
      return ["completions"]
    case "tasks/get":
    case "tasks/result":
    case "tasks/list":
    case "tasks/cancel":
      return ["tasks"]
    default:
      return undefined
  }
}

/**
 * The client capability a server→client request needs.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.clientCapabilityFor("elicitation/create", { mode: "url" }) // ["elicitation", "url"]
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const clientCapabilityFor = (method: string, params?: { readonly [key: string]: unknown }): ReadonlyArray<string> | undefined => {
  switch (method) {
    case "sampling/createMessage":
      if (params !== undefined && (params.tools !== undefined || params.toolChoice !== undefined)) return ["sampling", "tools"]
      if (params?.includeContext === "thisServer" || params?.includeContext === "allServers") return ["sampling", "context"]
      return ["sampling"]
    case "elicitation/create":
      return params?.mode === "url" ? ["elicitation", "url"] : ["elicitation"]
    case "roots/list":
      return ["roots"]
    case "tasks/get":
    case "tasks/result":
    case "tasks/list":
    case "tasks/cancel":
      return ["tasks"]
    default:
      return undefined
  }
}

/**
 * Whether the capabilities include a path, e.g. `["resources", "subscribe"]`.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.hasCapability({ resources: { subscribe: true } }, ["resources", "subscribe"]) // true
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const hasCapability = (capabilities: Capabilities | undefined, path: ReadonlyArray<string>): boolean =>
  has(capabilities, path)

/**
 * Form-mode elicitation is declared either as `elicitation: {}` (before
 * 2025-11-25, and still meaning form) or `elicitation: { form: {} }`.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.clientSupports({ elicitation: {} }, "elicitation/create", { mode: "form" }) // true
 * Lifecycle.clientSupports({ elicitation: {} }, "elicitation/create", { mode: "url" }) // false
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const clientSupports = (
  capabilities: Capabilities | undefined,
  method: string,
  params?: { readonly [key: string]: unknown }
): boolean => {
  const path = clientCapabilityFor(method, params)
  if (path === undefined) return true
  if (method === "elicitation/create" && params?.mode !== "url") {
    // form mode: `elicitation: {}` (the pre-2025-11-25 shape, meaning form) or `elicitation.form`
    const e = capabilities?.elicitation
    return typeof e === "object" && e !== null && ("form" in e || Object.keys(e).length === 0)
  }
  return has(capabilities, path)
}

/**
 * Whether a server with these capabilities accepts a client→server request.
 *
 * @example
 * ```ts
 * import * as Lifecycle from "@effect-mcp/mcp/Lifecycle"
 *
 * Lifecycle.serverSupports({ tools: {} }, "tools/call") // true
 * Lifecycle.serverSupports({ tools: {} }, "prompts/get") // false
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const serverSupports = (capabilities: Capabilities | undefined, method: string): boolean => {
  const path = serverCapabilityFor(method)
  return path === undefined || has(capabilities, path)
}
