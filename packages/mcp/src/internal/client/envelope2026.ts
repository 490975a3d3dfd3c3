/**
 * The `_meta` envelope of a client's 2026-07-28 requests and the −32022
 * retry. Every request carries, in `params._meta`, the protocol version, the
 * client's capabilities (with what the request opts into in its own `_meta`),
 * its info, and the log level once `setLogLevel` chose one; a request of the
 * tasks extension (`tasks/*`) declares that extension. A request refused with
 * −32022 (`UnsupportedProtocolVersion`) whose `data.supported` names a 2026
 * version this client speaks is sent once more at that version, which the
 * client keeps from then on.
 */
import * as Effect from "effect/Effect"
import type * as JsonRpc from "../../JsonRpc.js"
import { McpError, type ProtocolError } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import * as ClientEra from "./era.js"
import { TASK_METHODS, TASKS_CAPABILITY } from "./taskInputs2026.js"

export type ClientError = McpError | ProtocolError

/** One request of the 2026 path: method, params, options, its result. */
export type Send = (
  method: string,
  params: JsonRpc.Params | undefined,
  options: Protocol.RequestOptions | undefined
) => Effect.Effect<Protocol.Result, ClientError>

export interface Options {
  readonly protocol: Protocol.Protocol
  readonly version: string
  readonly capabilities: McpSchema.ClientCapabilities
  readonly clientInfo: McpSchema.Implementation
}

export interface Envelope {
  /** The protocol version requests carry. */
  readonly version: () => string
  /** Sets the version requests carry. */
  readonly useVersion: (version: string) => void
  /** The log level the server should use for the notifications of later requests. */
  readonly setLogLevel: (level: McpSchema.LoggingLevel) => void
  /** One request on the wire with the envelope, sent once more at the version a −32022 offers. */
  readonly send: Send
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The capabilities as the 2026 envelope declares them: `roots` has no `listChanged` there. */
export const capabilities2026 = (capabilities: McpSchema.ClientCapabilities): McpSchema2026.ClientCapabilities => {
  const { roots, ...rest } = capabilities as McpSchema.ClientCapabilities & { readonly roots?: unknown }
  return (roots === undefined ? rest : { ...rest, roots: {} }) as McpSchema2026.ClientCapabilities
}

/** The client's capabilities, with what a request opts into on its own (an extension in its `_meta`). */
const capabilitiesOf = (
  capabilities: McpSchema2026.ClientCapabilities,
  meta: Record<string, unknown>
): McpSchema2026.ClientCapabilities => {
  const own = meta[McpSchema2026.CLIENT_CAPABILITIES_META_KEY]
  if (!isObject(own)) return capabilities
  const ours = capabilities.extensions
  const extensions = isObject(own.extensions) ? { ...ours, ...own.extensions } : ours
  return { ...capabilities, ...own, ...(extensions !== undefined ? { extensions } : {}) } as McpSchema2026.ClientCapabilities
}

/** What the envelope says, as it stands: the version and the log level change. */
interface Keys {
  version: string
  logLevel: McpSchema.LoggingLevel | undefined
  readonly capabilities: McpSchema2026.ClientCapabilities
  readonly clientInfo: McpSchema.Implementation
}

/** `meta` (a request's own `_meta`, or nothing) with the envelope's keys. */
const metaOver = (keys: Keys, meta: Record<string, unknown>): Record<string, unknown> => ({
  ...meta,
  [McpSchema2026.PROTOCOL_VERSION_META_KEY]: keys.version,
  [McpSchema2026.CLIENT_CAPABILITIES_META_KEY]: capabilitiesOf(keys.capabilities, meta),
  [McpSchema2026.CLIENT_INFO_META_KEY]: keys.clientInfo,
  ...(keys.logLevel === undefined ? {} : { [McpSchema2026.LOG_LEVEL_META_KEY]: keys.logLevel })
})

/** A request's own `_meta`; a client asking about a task speaks the tasks extension. */
const ownMeta = (params: JsonRpc.Params | undefined, method: string): Record<string, unknown> => {
  const given = isObject(params?._meta) ? params._meta : {}
  return TASK_METHODS.has(method) ? { ...given, [McpSchema2026.CLIENT_CAPABILITIES_META_KEY]: TASKS_CAPABILITY } : given
}

/**
 * The envelope of a request whose params have no `_meta` of their own (most): one object for
 * every such request until the version or the log level changes (nothing writes to a request's
 * `_meta`: the engine's `progressToken` goes into a copy).
 */
const plainMetaOf = (keys: Keys): () => Record<string, unknown> => {
  let plain: { readonly version: string; readonly logLevel: string | undefined; readonly meta: Record<string, unknown> } | undefined
  return () => {
    if (plain === undefined || plain.version !== keys.version || plain.logLevel !== keys.logLevel) {
      plain = { version: keys.version, logLevel: keys.logLevel, meta: metaOver(keys, {}) }
    }
    return plain.meta
  }
}

/** `once` again at the version a −32022 offers (kept in `keys` from then on), when it offers one this client speaks. */
const atOfferedVersion = (keys: Keys, once: Effect.Effect<Protocol.Result, ClientError>) =>
  Effect.catchIf(once, (e): e is McpError => e instanceof McpError && ClientEra.offeredVersion(e) !== undefined, (e) =>
    Effect.suspend(() => {
      const offered = ClientEra.offeredVersion(e)!
      const asked = keys.version
      keys.version = offered
      return Effect.tap(
        once,
        () => asked === offered ? Effect.void : Effect.logDebug(`the server asked for protocol version ${offered}`)
      )
    }))

export const make = (options: Options): Envelope => {
  const { protocol } = options
  const keys: Keys = {
    version: options.version,
    logLevel: undefined,
    capabilities: capabilities2026(options.capabilities),
    clientInfo: options.clientInfo
  }
  const plainMeta = plainMetaOf(keys)
  const envelope = (params: JsonRpc.Params | undefined, method: string): JsonRpc.Params =>
    params?._meta === undefined && !TASK_METHODS.has(method)
      ? params === undefined ? { _meta: plainMeta() } : { ...params, _meta: plainMeta() }
      : { ...params, _meta: metaOver(keys, ownMeta(params, method)) }
  return {
    version: () => keys.version,
    useVersion: (version) => {
      keys.version = version
    },
    setLogLevel: (level) => {
      keys.logLevel = level
    },
    send: (method, params, requestOptions) =>
      atOfferedVersion(keys, Effect.suspend(() => protocol.request(method, envelope(params, method), requestOptions)))
  }
}
