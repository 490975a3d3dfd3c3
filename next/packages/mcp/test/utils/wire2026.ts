/**
 * Validates what a server sends on the 2026-07-28 path against the official 2026-07-28 JSON
 * Schema (a fixture of the repository): each result against the result definition of the method
 * it answers (`InputRequiredResult` when its `resultType` says so), each error against
 * `JSONRPCErrorResponse`, each notification against its definition.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import type { ValidateFunction } from "ajv/dist/2020.js"

type Json = { readonly [key: string]: unknown }

const schema = JSON.parse(
  readFileSync(fileURLToPath(new URL("../fixtures/spec/2026-07-28/schema.json", import.meta.url)), "utf8")
) as { readonly $defs: { readonly [name: string]: Json } }

const ajv = new Ajv2020.default({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema(schema as object, "mcp2026")

const validators = new Map<string, ValidateFunction>()
const validatorFor = (def: string): ValidateFunction => {
  let v = validators.get(def)
  if (v === undefined) {
    if (schema.$defs[def] === undefined) throw new Error(`no definition ${def} in the 2026 schema`)
    v = ajv.getSchema(`mcp2026#/$defs/${def}`)!
    validators.set(def, v)
  }
  return v
}

const methodsOf = (union: string): ReadonlyMap<string, string> => {
  const map = new Map<string, string>()
  for (const member of (schema.$defs[union]?.anyOf ?? []) as ReadonlyArray<{ readonly $ref: string }>) {
    const name = member.$ref.replace("#/$defs/", "")
    const method = ((schema.$defs[name]?.properties as Json | undefined)?.method as Json | undefined)?.const
    if (typeof method === "string") map.set(method, name)
  }
  return map
}

const requestDefs = methodsOf("ClientRequest")
const notificationDefs = methodsOf("ServerNotification")

/** The result definition of a 2026 method (`ListToolsRequest` → `ListToolsResult`). */
const resultDefOf = (method: string): string => {
  const request = requestDefs.get(method)
  if (request === undefined) throw new Error(`${method} is not a 2026 client request`)
  return request.replace(/Request$/, "Result")
}

const check = (def: string, value: unknown): Array<string> => {
  const v = validatorFor(def)
  return v(value) ? [] : [`not a valid ${def}: ${ajv.errorsText(v.errors)}\n  ${JSON.stringify(value)}`]
}

/** The problems of one message a server sent, answering a request for `method` (when it is a response). */
export const problems2026 = (message: unknown, method?: string): Array<string> => {
  const m = message as Json
  if (typeof m.method === "string") {
    if ("id" in m) return [`a 2026 server sent a request: ${JSON.stringify(m)}`]
    const def = notificationDefs.get(m.method)
    return def === undefined ? [`${m.method} is not a 2026 server notification`] : check(def, m)
  }
  if ("error" in m) return check("JSONRPCErrorResponse", m)
  if ("result" in m) {
    const result = m.result as Json
    const out = check("JSONRPCResultResponse", m)
    if (method === undefined) return out
    const def = result.resultType === "input_required" ? "InputRequiredResult" : resultDefOf(method)
    return [...out, ...check(def, result)]
  }
  return [`neither a response nor a notification: ${JSON.stringify(m)}`]
}

/** Throws when a message a server sent on the 2026 path is not valid 2026-07-28. */
export const assertValid2026 = (message: unknown, method?: string): void => {
  const found = problems2026(message, method)
  if (found.length > 0) throw new Error(`invalid 2026-07-28 message:\n${found.join("\n")}`)
}
