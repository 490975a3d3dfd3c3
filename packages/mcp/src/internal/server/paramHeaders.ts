/**
 * `Mcp-Param-*` headers (2026-07-28 streamable HTTP): a tool's input schema
 * may annotate a primitive property, reachable through `properties` only,
 * with `"x-mcp-header": "Name"`; a call over HTTP then carries the argument
 * again as `Mcp-Param-Name` (base64-wrapped, `=?base64?…?=`, when it is not
 * plain ASCII). The server checks that every annotated argument the body
 * carries has its header and that both agree (−32020, HTTP 400); a header
 * for an argument the body does not carry is ignored.
 * @internal
 */
import { ErrorResponse } from "../../McpError.js"
import * as McpSchema2026 from "../schema2026/core.js"

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * A header value as the client meant it: `=?base64?…?=` is decoded (canonical base64 of UTF-8;
 * `undefined` when it is not), anything else is literal.
 */
export const decodeHeaderValue = (value: string): string | undefined => {
  if (!(value.startsWith("=?base64?") && value.endsWith("?=") && value.length >= 11)) return value
  const encoded = value.slice(9, -2)
  if (!BASE64.test(encoded)) return undefined
  try {
    return utf8.decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))
  } catch {
    return undefined
  }
}

interface Declaration {
  readonly path: ReadonlyArray<string>
  readonly header: string
  readonly type: string | undefined
}

const cache = new WeakMap<object, ReadonlyArray<Declaration>>()

/** The `x-mcp-header` annotations of an input schema, through `properties` only. */
export const declarations = (schema: object): ReadonlyArray<Declaration> => {
  const known = cache.get(schema)
  if (known !== undefined) return known
  const found: Array<Declaration> = []
  const visit = (node: unknown, path: ReadonlyArray<string>) => {
    if (typeof node !== "object" || node === null) return
    const n = node as { readonly [key: string]: unknown }
    const header = n["x-mcp-header"]
    if (typeof header === "string" && path.length > 0) {
      found.push({ path, header, type: typeof n.type === "string" ? n.type : undefined })
    }
    const properties = n.properties
    if (typeof properties === "object" && properties !== null) {
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key])
    }
  }
  visit(schema, [])
  cache.set(schema, found)
  return found
}

const valueAt = (root: unknown, path: ReadonlyArray<string>): unknown => {
  let node = root
  for (const key of path) {
    if (typeof node !== "object" || node === null) return undefined
    node = (node as { readonly [key: string]: unknown })[key]
  }
  return node
}

const asText = (value: unknown): string | undefined =>
  typeof value === "string"
    ? value
    : typeof value === "boolean"
    ? String(value)
    : typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : undefined

const mismatch = (header: string, detail: string) =>
  new ErrorResponse({
    code: McpSchema2026.HEADER_MISMATCH,
    message: `Bad Request: the request headers and body disagree: ${detail}`,
    data: { mismatch: { header } }
  })

/** The −32020 for the first annotated argument whose header is missing or disagrees; undefined when all agree. */
export const check = (
  schema: object,
  args: unknown,
  headers: { readonly [name: string]: string }
): ErrorResponse | undefined => {
  for (const d of declarations(schema)) {
    const body = asText(valueAt(args, d.path))
    if (body === undefined) continue
    const name = `Mcp-Param-${d.header}`
    const raw = headers[name.toLowerCase()]
    if (raw === undefined) return mismatch(name, `the body carries ${d.path.join(".")} but the ${name} header is missing`)
    const decoded = decodeHeaderValue(raw.replace(/^[ \t]+|[ \t]+$/g, ""))
    if (decoded === undefined) return mismatch(name, `the ${name} header is not valid base64 of UTF-8`)
    const numeric = (d.type === "integer" || d.type === "number") && /^-?\d+(\.\d+)?$/.test(decoded)
    const agrees = numeric ? Number(decoded) === Number(body) : decoded === body
    if (!agrees) return mismatch(name, `the ${name} header does not match ${d.path.join(".")} in the body`)
  }
  return undefined
}
