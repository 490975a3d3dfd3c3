/**
 * The 2026-07-28 envelope claim, the one home of its rule for every reader
 * (`ProtocolEra`, which the HTTP edge and the client use, and the engine's
 * `protocol/incoming`, which must not load the 2026 schemas to answer a
 * 2025 `ping`): a request claims the envelope when its `params._meta` has
 * the protocol-version key, whatever its value (a claim with a malformed
 * value is a bad envelope on the 2026 path, never a 2025 request). Imports
 * nothing.
 */

export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion" as const

const metaOf = (params: unknown): object | undefined => {
  if (typeof params !== "object" || params === null) return undefined
  const meta = (params as { readonly _meta?: unknown })._meta
  return typeof meta === "object" && meta !== null ? meta : undefined
}

/** Whether `params._meta` claims the envelope (has the protocol-version key). */
export const hasEnvelopeClaim = (params: unknown): boolean => {
  const meta = metaOf(params)
  return meta !== undefined && PROTOCOL_VERSION_META_KEY in meta
}

/** The protocol version the envelope names, if it names one (a string). */
export const envelopeVersion = (params: unknown): string | undefined => {
  const version = (metaOf(params) as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY]
  return typeof version === "string" ? version : undefined
}
