/**
 * The HTTP headers of protocol revision 2026-07-28 (SEP-2243), the one home
 * of their rules for both sides: the client's transport and `tools/call`
 * write them, the HTTP server's edge (`httpServer/era2026`) and the engine
 * (`server/era2026`) check them, a server refuses to register a tool whose
 * annotations break them (`server/registry`).
 *
 * - `MCP-Protocol-Version` (the envelope's version), `Mcp-Method`, and
 *   `Mcp-Name`: the body field each method's name mirrors (`NAME_SOURCE`).
 * - `Mcp-Param-{Name}`: one per tool parameter annotated `x-mcp-header`. The
 *   annotation is a non-empty RFC 9110 token, on a property reached from the
 *   root through `properties` only, whose `type` is `string`, `integer` or
 *   `boolean` (the spec: "Parameters with type `number` are not permitted";
 *   the official v2 SDK's client drops such a tool too), names unique ignoring
 *   case. A tool that breaks a rule is dropped from `tools/list` by a client.
 * - Values: a string as it is, a number in decimal (integers in the safe
 *   range), a boolean `true`/`false`; a value that is not a safe plain-ASCII
 *   field value (non-ASCII, control characters, leading or trailing
 *   whitespace, empty, or already looking like the sentinel) travels as
 *   `=?base64?{base64 of its UTF-8}?=`. Integers compare numerically.
 */
import * as JsonRpc from "../JsonRpc.js"
import * as ProtocolEra from "../ProtocolEra.js"

/** The standard headers' names, lower-cased as a server's request headers are. */
export const PROTOCOL_VERSION = "mcp-protocol-version"
export const METHOD = "mcp-method"
export const NAME = "mcp-name"

/** The body field `Mcp-Name` mirrors, per method. */
export const NAME_SOURCE: { readonly [method: string]: "name" | "uri" | "taskId" } = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  // the tasks extension (SEP-2663): routed by the task
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId"
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The value `Mcp-Name` carries for a request, if its method has one and the body names it. */
export const mirroredName = (method: string, params: unknown): string | undefined => {
  const source = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method]! : undefined
  const name = source === undefined || !isObject(params) ? undefined : params[source]
  return typeof name === "string" ? name : undefined
}

// ---------------------------------------------------------------- values

const SENTINEL_PREFIX = "=?base64?"
const SENTINEL_SUFFIX = "?="
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const DECIMAL = /^-?\d+(\.\d+)?$/

const isSentinel = (value: string): boolean => value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)

const toBase64 = (text: string): string => {
  let binary = ""
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const fromBase64 = (payload: string): string | undefined => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

const needsBase64 = (value: string): boolean => {
  if (value === "" || value !== value.trim() || isSentinel(value)) return true
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return true
  }
  return false
}

/** A header value: as it is when it is safe plain ASCII, else the base64 sentinel of its UTF-8. */
export const encodeValue = (value: string): string =>
  needsBase64(value) ? `${SENTINEL_PREFIX}${toBase64(value)}${SENTINEL_SUFFIX}` : value

/**
 * A header value as it was meant: the sentinel decoded (canonical base64 of UTF-8, else
 * undefined), anything else literal.
 */
export const decodeValue = (value: string): string | undefined => {
  if (!isSentinel(value)) return value
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length)
  return BASE64.test(payload) ? fromBase64(payload) : undefined
}

/** RFC 9110 optional whitespace around a field value, removed. */
export const trimOws = (value: string): string => {
  // most values have none: no regular expression for them
  const first = value.charCodeAt(0)
  const last = value.charCodeAt(value.length - 1)
  return first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09 ? value.replace(/^[ \t]+|[ \t]+$/g, "") : value
}

/** An argument as a header's text: strings, booleans, finite numbers (integers in the safe range); else none. */
export const formatValue = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "boolean"
    ? String(value)
    : typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))
    ? String(value)
    : undefined

// ---------------------------------------------------------------- x-mcp-header

/** The JSON Schema types an annotated property may have. */
export const HEADER_TYPES: ReadonlySet<string> = new Set(["string", "integer", "boolean"])

/** One annotated parameter: where it is in `arguments`, its header's name, its type. */
export interface HeaderParam {
  readonly path: ReadonlyArray<string>
  readonly name: string
  readonly type: string
}

export type HeaderScan =
  | { readonly _tag: "Valid"; readonly params: ReadonlyArray<HeaderParam> }
  | { readonly _tag: "Invalid"; readonly reason: string }

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
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

const where = (path: ReadonlyArray<string>) => (path.length === 0 ? "the schema's root" : `property ${path.join(".")}`)

/** Why one annotated node breaks a rule, or undefined. */
const fault = (node: Record<string, unknown>, path: ReadonlyArray<string>, reachable: boolean): string | undefined => {
  const name = node["x-mcp-header"]
  if (!reachable || path.length === 0) {
    return `x-mcp-header at ${where(path)} is not on a property reached through "properties" only`
  }
  if (typeof name !== "string" || name === "") return `x-mcp-header of ${where(path)} is empty or not a string`
  if (!TOKEN.test(name)) return `x-mcp-header "${name}" of ${where(path)} is not an HTTP token`
  const type = node.type
  if (typeof type !== "string" || !HEADER_TYPES.has(type)) {
    return `x-mcp-header "${name}" is on ${where(path)} of type ${JSON.stringify(type ?? null)}, not string, integer or boolean` +
      (type === "number" ? " (a number parameter may not be mirrored: make it an integer, or a string)" : "")
  }
  return undefined
}

const subschemas = (node: Record<string, unknown>): ReadonlyArray<readonly [string, unknown]> => {
  const out: Array<readonly [string, unknown]> = []
  for (const keyword of UNREACHABLE) {
    const sub = node[keyword]
    if (sub === undefined) continue
    const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) && isObject(sub) ? Object.values(sub) : [sub]
    for (const branch of branches) out.push([keyword, branch])
  }
  return out
}

const scanned = new WeakMap<object, HeaderScan>()

/** The `x-mcp-header` annotations of a tool's `inputSchema`, or why the tool is invalid (kept per schema object). */
export const scanToolHeaders = (inputSchema: unknown): HeaderScan => {
  if (!isObject(inputSchema)) return { _tag: "Valid", params: [] }
  const known = scanned.get(inputSchema)
  if (known !== undefined) return known
  const params: Array<HeaderParam> = []
  const seen = new Map<string, string>()
  const visit = (node: unknown, path: ReadonlyArray<string>, reachable: boolean): string | undefined => {
    if (!isObject(node)) return undefined
    if ("x-mcp-header" in node) {
      const broken = fault(node, path, reachable)
      if (broken !== undefined) return broken
      const name = node["x-mcp-header"] as string
      const prior = seen.get(name.toLowerCase())
      if (prior !== undefined) return `x-mcp-header "${name}" repeats "${prior}" (names are compared ignoring case)`
      seen.set(name.toLowerCase(), name)
      params.push({ path, name, type: node.type as string })
    }
    const children: Array<readonly [ReadonlyArray<string>, unknown, boolean]> = []
    if (isObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) children.push([[...path, key], child, reachable])
    }
    for (const [keyword, branch] of subschemas(node)) children.push([[...path, keyword], branch, false])
    for (const [at, child, reached] of children) {
      const broken = visit(child, at, reached)
      if (broken !== undefined) return broken
    }
    return undefined
  }
  const broken = visit(inputSchema, [], true)
  const scan: HeaderScan = broken === undefined ? { _tag: "Valid", params } : { _tag: "Invalid", reason: broken }
  scanned.set(inputSchema, scan)
  return scan
}

const valueAt = (root: unknown, path: ReadonlyArray<string>): unknown => {
  let value = root
  for (const key of path) value = isObject(value) ? value[key] : undefined
  return value
}

/** `Mcp-Param-*` headers of one call: a parameter that is absent, null or not a primitive gets none. */
export const paramHeaders = (params: ReadonlyArray<HeaderParam>, args: unknown): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const param of params) {
    const text = formatValue(valueAt(args, param.path))
    if (text !== undefined) out[`mcp-param-${param.name.toLowerCase()}`] = encodeValue(text)
  }
  return out
}

// ---------------------------------------------------------------- checks

/** A header that disagrees with the body (−32020 `HeaderMismatch`, HTTP 400): which one, and how. */
export interface Mismatch {
  readonly header: string
  readonly detail: string
}

/** The message of a −32020 for `mismatch`. */
export const mismatchMessage = (mismatch: Mismatch): string =>
  `Bad Request: the request headers and body disagree: ${mismatch.detail}`

/** The `data` of a −32020 for `mismatch`: the header that disagrees. */
export const mismatchData = (mismatch: Mismatch): { readonly mismatch: { readonly header: string } } => ({
  mismatch: { header: mismatch.header }
})

type Headers = { readonly [name: string]: string | undefined }

/**
 * The first annotated argument whose `Mcp-Param-*` header is missing, not valid base64 or
 * disagrees with the body; undefined when all agree. A header for an argument the body does
 * not carry (or carries as null) is ignored.
 */
export const checkParamHeaders = (
  params: ReadonlyArray<HeaderParam>,
  args: unknown,
  headers: Headers
): Mismatch | undefined => {
  for (const param of params) {
    const value = valueAt(args, param.path)
    const body = formatValue(value)
    if (body === undefined) continue
    const header = `Mcp-Param-${param.name}`
    const at = param.path.join(".")
    const raw = headers[header.toLowerCase()]
    if (raw === undefined) return { header, detail: `the body carries ${at} but the ${header} header is missing` }
    const decoded = decodeValue(trimOws(raw))
    if (decoded === undefined) return { header, detail: `the ${header} header is not valid base64 of UTF-8` }
    const numeric = param.type === "integer" && typeof value === "number" && DECIMAL.test(decoded)
    if (numeric ? Number(decoded) !== value : decoded !== body) {
      return { header, detail: `the ${header} header does not match ${at} in the body` }
    }
  }
  return undefined
}

/** `MCP-Protocol-Version` and `Mcp-Method` against the envelope's version and the body's method. */
export const checkVersionAndMethod = (headers: Headers, claimed: string, method: string): Mismatch | undefined => {
  const version = headers[PROTOCOL_VERSION]
  if (version === undefined) {
    return { header: "MCP-Protocol-Version", detail: `the envelope names ${claimed} but the MCP-Protocol-Version header is missing` }
  }
  if (trimOws(version) !== claimed) {
    return { header: "MCP-Protocol-Version", detail: `the envelope names ${claimed} but MCP-Protocol-Version is ${version.slice(0, 100)}` }
  }
  const named = headers[METHOD]
  if (named === undefined) return { header: "Mcp-Method", detail: `the body names method ${method} but the Mcp-Method header is missing` }
  if (trimOws(named) !== method) {
    return { header: "Mcp-Method", detail: `the body names method ${method} but Mcp-Method is ${named.slice(0, 100)}` }
  }
  return undefined
}

/** `Mcp-Name` against the body field its method mirrors (none to check for other methods). */
export const checkName = (headers: Headers, method: string, params: unknown): Mismatch | undefined => {
  const named = mirroredName(method, params)
  if (named === undefined) return undefined
  const raw = headers[NAME]
  if (raw === undefined) return { header: "Mcp-Name", detail: `the body names ${named} but the Mcp-Name header is missing` }
  const decoded = decodeValue(trimOws(raw))
  if (decoded === undefined) return { header: "Mcp-Name", detail: "the Mcp-Name header is not valid base64 of UTF-8" }
  return decoded === named
    ? undefined
    : { header: "Mcp-Name", detail: `the body names ${named} but Mcp-Name names ${decoded.slice(0, 100)}` }
}

/**
 * The standard headers of a POSTed message on the 2026 path: `Mcp-Method` on
 * every single request or notification, `Mcp-Name` where the method has one,
 * and `MCP-Protocol-Version` from a request's envelope (it wins over the
 * session's). Undefined for a batch, a response, or a message of the 2025 era
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
  const out: Record<string, string> = { [PROTOCOL_VERSION]: version, [METHOD]: method }
  const name = mirroredName(method, params)
  if (name !== undefined) out[NAME] = encodeValue(name)
  return out
}
