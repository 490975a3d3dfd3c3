/**
 * The HTTP headers a 2026-07-28 request carries beside its body (SEP-2243):
 * `MCP-Protocol-Version` (the envelope's version), `Mcp-Method`, `Mcp-Name`
 * (`params.name` of `tools/call` and `prompts/get`, `params.uri` of
 * `resources/read`) and one `Mcp-Param-{Name}` per tool parameter annotated
 * `x-mcp-header`. A value that is not a safe plain-ASCII field value (non-ASCII,
 * control characters, leading or trailing whitespace, empty, or already looking
 * like the sentinel) travels as `=?base64?{base64 of its UTF-8}?=`.
 *
 * The `x-mcp-header` rules a tool must keep, or be dropped from `tools/list`:
 * the annotation is a non-empty RFC 9110 token, on a property reached from the
 * root through `properties` only, whose `type` is `string`, `integer` or
 * `boolean`, and names are unique ignoring case.
 * @internal
 */
import * as JsonRpc from "../JsonRpc.js"
import * as ProtocolEra from "../ProtocolEra.js"

/** One annotated parameter: where it is in `arguments`, and its header's name. */
export interface HeaderParam {
  readonly path: ReadonlyArray<string>
  readonly name: string
}

export type HeaderScan =
  | { readonly _tag: "Valid"; readonly params: ReadonlyArray<HeaderParam> }
  | { readonly _tag: "Invalid"; readonly reason: string }

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const HEADER_TYPES = new Set(["string", "integer", "boolean"])
/** Keywords whose subschemas are not reached through `properties` alone: an annotation below one is misplaced. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "patternProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions"
] as const
const NAMED_SUBSCHEMAS = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"])

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const where = (path: ReadonlyArray<string>) => (path.length === 0 ? "the schema's root" : `property ${path.join(".")}`)

/** The `x-mcp-header` annotations of a tool's `inputSchema`, or why the tool is invalid. */
export const scanToolHeaders = (inputSchema: unknown): HeaderScan => {
  const params: Array<HeaderParam> = []
  const seen = new Map<string, string>()
  const visit = (node: unknown, path: ReadonlyArray<string>, reachable: boolean): string | undefined => {
    if (!isObject(node)) return undefined
    if ("x-mcp-header" in node) {
      const name = node["x-mcp-header"]
      if (!reachable || path.length === 0) {
        return `x-mcp-header at ${where(path)} is not on a property reached through "properties" only`
      }
      if (typeof name !== "string" || name === "") return `x-mcp-header of ${where(path)} is empty or not a string`
      if (!TOKEN.test(name)) return `x-mcp-header "${name}" of ${where(path)} is not an HTTP token`
      const type = node.type
      if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
        return `x-mcp-header "${name}" is on ${where(path)} of type ${JSON.stringify(type ?? null)}, not string, integer or boolean`
      }
      const lower = name.toLowerCase()
      const prior = seen.get(lower)
      if (prior !== undefined) return `x-mcp-header "${name}" repeats "${prior}" (names are compared ignoring case)`
      seen.set(lower, name)
      params.push({ path, name })
    }
    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, key], reachable)
        if (fault !== undefined) return fault
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = node[keyword]
      if (sub === undefined) continue
      const branches = Array.isArray(sub)
        ? sub
        : NAMED_SUBSCHEMAS.has(keyword) && isObject(sub)
        ? Object.values(sub)
        : [sub]
      for (const branch of branches) {
        const fault = visit(branch, [...path, keyword], false)
        if (fault !== undefined) return fault
      }
    }
    return undefined
  }
  const fault = visit(inputSchema, [], true)
  return fault === undefined ? { _tag: "Valid", params } : { _tag: "Invalid", reason: fault }
}

const SENTINEL_PREFIX = "=?base64?"
const SENTINEL_SUFFIX = "?="

const toBase64 = (text: string): string => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const fromBase64 = (payload: string): string | undefined => {
  try {
    const binary = atob(payload)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

const needsBase64 = (value: string): boolean => {
  if (value === "" || value !== value.trim()) return true
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) return true
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return true
  }
  return false
}

/** A header value: as it is when it is safe plain ASCII, else the base64 sentinel of its UTF-8. */
export const encodeValue = (value: string): string =>
  needsBase64(value) ? `${SENTINEL_PREFIX}${toBase64(value)}${SENTINEL_SUFFIX}` : value

/** A header value as it was meant (the sentinel decoded), or undefined when the sentinel's payload is not base64. */
export const decodeValue = (value: string): string | undefined => {
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))) return value
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length)
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(payload)) return undefined
  return fromBase64(payload)
}

const primitive = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "boolean"
    ? String(value)
    : typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))
    ? String(value)
    : undefined

/** `Mcp-Param-*` headers of one call: a parameter that is absent, null or not a primitive gets none. */
export const paramHeaders = (
  params: ReadonlyArray<HeaderParam>,
  args: { readonly [key: string]: unknown } | undefined
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const param of params) {
    let value: unknown = args
    for (const key of param.path) value = isObject(value) ? value[key] : undefined
    const text = value === null || value === undefined ? undefined : primitive(value)
    if (text !== undefined) out[`mcp-param-${param.name.toLowerCase()}`] = encodeValue(text)
  }
  return out
}

const NAME_SOURCE: { readonly [method: string]: "name" | "uri" | "taskId" } = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // the tasks extension (SEP-2663): routed by the task
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId"
}

/**
 * The standard headers of a POSTed message on the 2026 path: `Mcp-Method` on
 * every single request or notification, `Mcp-Name` where the method has one,
 * and `MCP-Protocol-Version` from a request's envelope (it wins over the
 * session's). Empty for a batch, a response, or a message of the 2025 era
 * (`sessionVersion` is the version the engine negotiated, if any).
 */
export const standardHeaders = (
  message: JsonRpc.Outgoing,
  sessionVersion: string | undefined
): Record<string, string> | undefined => {
  if (Array.isArray(message)) return undefined
  const single = message as JsonRpc.Message
  if (!JsonRpc.isRequest(single) && !JsonRpc.isNotification(single)) return undefined
  const { method, params } = single as JsonRpc.Request
  const version = ProtocolEra.envelopeVersion(params) ?? sessionVersion
  if (version === undefined || ProtocolEra.eraOf(version) !== "2026") return undefined
  const out: Record<string, string> = { "mcp-protocol-version": version, "mcp-method": method }
  const source = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method]! : undefined
  const name = source === undefined ? undefined : (params as Record<string, unknown> | undefined)?.[source]
  if (typeof name === "string") out["mcp-name"] = encodeValue(name)
  return out
}
