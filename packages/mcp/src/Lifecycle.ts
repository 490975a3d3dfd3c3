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

/** Protocol revisions we speak, newest first. */
export const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const

export type Version = typeof SUPPORTED_VERSIONS[number]

export const LATEST_VERSION: Version = "2025-11-25"

/** The version a streamable HTTP server assumes when `MCP-Protocol-Version` is absent. */
export const DEFAULT_HTTP_VERSION: Version = "2025-03-26"

export const isSupported = (version: unknown): version is Version =>
  typeof version === "string" && (SUPPORTED_VERSIONS as ReadonlyArray<string>).includes(version)

/** The server's answer to a client's requested version: the same when supported, else our latest. */
export const negotiate = (requested: unknown): Version => (isSupported(requested) ? requested : LATEST_VERSION)

/** JSON-RPC batches exist up to 2025-03-26 and were removed in 2025-06-18. */
export const allowsBatches = (version: string | undefined): boolean =>
  version === "2025-03-26" || version === "2024-11-05"

/** Elicitation (2025-06-18+) and URL-mode elicitation (2025-11-25+). */
export const allowsElicitation = (version: string | undefined): boolean => version !== undefined && version >= "2025-06-18"

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

/** The client capability a server→client request needs. */
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

/** Whether the capabilities include a path, e.g. `["resources", "subscribe"]`. */
export const hasCapability = (capabilities: Capabilities | undefined, path: ReadonlyArray<string>): boolean =>
  has(capabilities, path)

/**
 * Form-mode elicitation is declared either as `elicitation: {}` (before
 * 2025-11-25, and still meaning form) or `elicitation: { form: {} }`.
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

export const serverSupports = (capabilities: Capabilities | undefined, method: string): boolean => {
  const path = serverCapabilityFor(method)
  return path === undefined || has(capabilities, path)
}
