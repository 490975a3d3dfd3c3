/**
 * The `WWW-Authenticate` header of a 401/403 from an MCP server: the Bearer
 * (or DPoP, RFC 9449 §7.1) challenge's `resource_metadata`, `scope` and
 * `error` (RFC 6750, RFC 9728).
 * A header that cannot be parsed yields no parameters: discovery then falls
 * back to the well-known locations.
 */

export interface BearerChallenge {
  readonly error: string | undefined
  readonly scope: string | undefined
  readonly resourceMetadata: string | undefined
}

const none: BearerChallenge = { error: undefined, scope: undefined, resourceMetadata: undefined }

// auth-param = token BWS "=" BWS ( token / quoted-string )
const param = /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+.^_`|~0-9A-Za-z/-]+))\s*(,|$)/y

/** The parameters of the header's challenge of `scheme` (Bearer by default; other schemes ignored). */
export const parse = (header: string | undefined, scheme: "Bearer" | "DPoP" = "Bearer"): BearerChallenge => {
  if (header === undefined) return none
  const start = new RegExp(`(?:^|,)\\s*${scheme}(?:\\s+|$)`, "i").exec(header)
  if (start === null) return none
  const params = new Map<string, string>()
  param.lastIndex = start.index + start[0].length
  for (;;) {
    const at = param.lastIndex
    const match = param.exec(header)
    if (match === null) {
      // the next challenge's scheme (`, Basic realm=…`), or the end, or garbage: stop here
      param.lastIndex = at
      break
    }
    const name = match[1]!.toLowerCase()
    if (!params.has(name)) params.set(name, match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3]!)
    if (match[4] === "") break
  }
  return { error: params.get("error"), scope: params.get("scope"), resourceMetadata: params.get("resource_metadata") }
}

/** Whether the header carries a challenge of `scheme` (with or without parameters). */
export const has = (header: string | undefined, scheme: "Bearer" | "DPoP"): boolean =>
  header !== undefined && new RegExp(`(?:^|,)\\s*${scheme}(?:\\s|,|$)`, "i").test(header)

/** A challenge's parameters, and whether the header carries a DPoP challenge. */
export interface AnyChallenge extends BearerChallenge {
  readonly dpop: boolean
}

/** The Bearer challenge's parameters, else the DPoP challenge's, and whether a DPoP challenge is there. */
export const parseAny = (header: string | undefined): AnyChallenge => {
  const bearer = parse(header)
  const dpop = parse(header, "DPoP")
  return {
    error: bearer.error ?? dpop.error,
    scope: bearer.scope ?? dpop.scope,
    resourceMetadata: bearer.resourceMetadata ?? dpop.resourceMetadata,
    dpop: has(header, "DPoP")
  }
}
