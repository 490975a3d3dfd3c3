/**
 * How the server answers a feature handler's failure (see `McpError.ts` for
 * the error model):
 *
 * - an `ErrorResponse` is the JSON-RPC error sent, as it is; so is the one an
 *   escalated failure carries (`escalate`: a 2026 reverse call the client lacks
 *   the capability for is answered -32021 whoever catches what);
 * - a tool's other failures are tool error results (`isError: true`) whose
 *   text says what failed: a typed error's message, or its `_tag` and fields
 *   when it has no message of its own, the reverse call a peer's `McpError`
 *   answered;
 * - a resource's `ResourceNotFound` is `-32002` with `data.uri`;
 * - any other failure of a resource, template or prompt is logged here and
 *   answered `-32603` "Internal error", without its details: the server cannot
 *   tell a message meant for the client from internals (a query, a path).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import { ErrorResponse, McpError, ResourceNotFound } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import * as McpTool from "../../McpTool.js"

const isObject = (u: unknown): u is { readonly [key: string]: unknown } => typeof u === "object" && u !== null

/**
 * Whether an error's `message` is its own (a field, or a getter its class
 * wrote) rather than the one `Schema.TaggedError` derives from the fields for
 * a class without a `message` field (`{ "id": "99" }`). That derived getter
 * sits on the class `Schema.TaggedError` makes, the one carrying `_tag` as an
 * own static.
 */
const hasOwnMessage = (error: object): boolean => {
  for (let proto: object | null = error; proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (!Object.prototype.hasOwnProperty.call(proto, "message")) continue
    if (proto === error) return true
    const ctor = (proto as { readonly constructor?: unknown }).constructor
    return !(typeof ctor === "function" && Object.prototype.hasOwnProperty.call(ctor, "_tag"))
  }
  return false
}

/** `Tag: {"field":"value"}`, or `Tag` alone when the error has no fields. */
const tagAndFields = (tag: string, error: { readonly [key: string]: unknown }): string => {
  const fields: { [key: string]: unknown } = {}
  for (const key of Object.keys(error)) if (key !== "_tag") fields[key] = error[key]
  if (Object.keys(fields).length === 0) return tag
  try {
    return `${tag}: ${JSON.stringify(fields)}`
  } catch {
    // a bigint or a cycle in the fields: the tag still says what failed
    return tag
  }
}

/** What a failed call of the tool says in its error result. */
export const describe = (error: unknown): string => {
  if (typeof error === "string") return error
  if (error instanceof McpError) {
    const call = error.method ?? "A request to the client"
    return `${call} failed: the client answered with error ${error.code}: ${error.message}`
  }
  if (!isObject(error)) return String(error)
  const tag = typeof error._tag === "string" ? error._tag : undefined
  const message = typeof error.message === "string" && error.message !== "" ? error.message : undefined
  if (message !== undefined && (tag === undefined || hasOwnMessage(error))) return message
  if (tag !== undefined) return tagAndFields(tag, error)
  return message ?? String(error)
}

const ESCALATED = Symbol.for("@effect-mcp/mcp/failure/escalated")

/**
 * Marks a failure as one the server answers with `response`, whatever feature
 * it escapes from (a tool would otherwise make it a tool error result). The
 * mark is not enumerable: the error's fields and message stay what they were.
 */
export const escalate = <E extends object>(error: E, response: ErrorResponse): E => {
  Object.defineProperty(error, ESCALATED, { value: response, enumerable: false })
  return error
}

/** The response an escalated failure is answered with, if it is one. */
export const escalated = (error: unknown): ErrorResponse | undefined =>
  error instanceof ErrorResponse
    ? error
    : isObject(error) && (error as { readonly [ESCALATED]?: unknown })[ESCALATED] instanceof ErrorResponse
    ? (error as unknown as { readonly [ESCALATED]: ErrorResponse })[ESCALATED]
    : undefined

const toolError = (text: string): McpSchema.CallToolResult => ({ content: [{ type: "text", text }], isError: true })

/** A tool's failure: an `ErrorResponse` is sent as the JSON-RPC error, anything else is a tool error result. */
export const ofTool = (error: unknown): Effect.Effect<McpSchema.CallToolResult, ErrorResponse> => {
  const response = escalated(error)
  return response !== undefined ? Effect.fail(response) : Effect.succeed(toolError(describe(error)))
}

/**
 * A tool's declared failure as its tool error: `ofTool`'s text, with the
 * failure's encoded value in `_meta` (the one place that key is written; no
 * value: `ofTool` alone). `McpServer.toolHandler` and `McpToolkit.register` send it.
 */
export const ofDeclared = (error: unknown, encoded: unknown): Effect.Effect<McpSchema.CallToolResult, ErrorResponse> =>
  encoded === undefined
    ? ofTool(error)
    : Effect.map(ofTool(error), (result) => ({ ...result, _meta: { [McpTool.FAILURE_META_KEY]: encoded } }))

/**
 * A resource's, template's or prompt's failure as the JSON-RPC error sent.
 * `uri` is the URI read (resources), used when `ResourceNotFound` names none.
 */
export const ofFeature = (method: string, name: string, uri?: string) => (error: unknown): Effect.Effect<never, ErrorResponse> => {
  const response = escalated(error)
  if (response !== undefined) return Effect.fail(response)
  if (error instanceof ResourceNotFound && uri !== undefined) {
    return Effect.fail(ErrorResponse.resourceNotFound(error.uri ?? uri))
  }
  return Effect.andThen(
    Effect.logError(`${method} ${name} failed; answered -32603 without details`, Cause.fail(error)).pipe(
      Effect.annotateLogs({ method, feature: name, ...(uri !== undefined ? { uri } : {}) })
    ),
    Effect.fail(ErrorResponse.internal())
  )
}
