/**
 * The shared cases of the 2026-07-28 header rules (SEP-2243), run through our
 * encoder and decoder (`Headers2026.test.ts`) and, over HTTP, against the
 * official v2 SDK's client and server (`packages/node/test/Headers2026Interop.test.ts`).
 */

/** A header value: the argument, and its header as the spec writes it. */
export interface ValueCase {
  readonly label: string
  readonly value: string | number | boolean
  readonly type: "string" | "integer" | "boolean"
  readonly header: string
}

export const VALUE_CASES: ReadonlyArray<ValueCase> = [
  { label: "plain ASCII", value: "us-west1", type: "string", header: "us-west1" },
  { label: "inner spaces", value: "us west 1", type: "string", header: "us west 1" },
  { label: "non-ASCII", value: "Hello, 世界", type: "string", header: "=?base64?SGVsbG8sIOS4lueVjA==?=" },
  { label: "emoji", value: "hé 🦀", type: "string", header: "=?base64?aMOpIPCfpoA=?=" },
  { label: "edge spaces", value: " padded ", type: "string", header: "=?base64?IHBhZGRlZCA=?=" },
  { label: "newline", value: "line1\nline2", type: "string", header: "=?base64?bGluZTEKbGluZTI=?=" },
  { label: "leading tab", value: "\tindented", type: "string", header: "=?base64?CWluZGVudGVk?=" },
  { label: "empty", value: "", type: "string", header: "=?base64??=" },
  { label: "sentinel-like", value: "=?base64?abc?=", type: "string", header: "=?base64?PT9iYXNlNjQ/YWJjPz0=?=" },
  { label: "integer", value: 42, type: "integer", header: "42" },
  { label: "negative integer", value: -7, type: "integer", header: "-7" },
  { label: "largest safe integer", value: Number.MAX_SAFE_INTEGER, type: "integer", header: "9007199254740991" },
  { label: "true", value: true, type: "boolean", header: "true" },
  { label: "false", value: false, type: "boolean", header: "false" }
]

const prop = (type: string | undefined, header: unknown) => ({ ...(type === undefined ? {} : { type }), "x-mcp-header": header })
const one = (schema: object) => ({ type: "object", properties: { v: schema } })

/** Input schemas whose annotations break a rule: a client drops the tool, a server refuses to register it. */
export const INVALID_SCHEMAS: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["empty", one(prop("string", ""))],
  ["not a string", one(prop("string", 1))],
  ["object", one(prop("object", "V"))],
  ["array", one(prop("array", "V"))],
  ["null", one(prop("null", "V"))],
  ["number", one(prop("number", "N"))],
  ["no type", one(prop(undefined, "V"))],
  ["same name", { type: "object", properties: { a: prop("string", "R"), b: prop("string", "R") } }],
  ["same name, other case", { type: "object", properties: { a: prop("string", "MyField"), b: prop("string", "myfield") } }],
  ["space", one(prop("string", "My Region"))],
  ["colon", one(prop("string", "Region:Primary"))],
  ["non-ASCII", one(prop("string", "Région"))],
  ["control character", one(prop("string", "Region\t1"))],
  ["under items", one({ type: "array", items: prop("string", "V") })],
  ["under anyOf", { type: "object", anyOf: [{ properties: { v: prop("string", "V") } }] }],
  ["under $defs", { type: "object", $defs: { d: prop("string", "V") } }],
  ["on the root", prop("string", "V")]
]
