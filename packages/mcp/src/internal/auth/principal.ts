/**
 * Who made a request on a protected transport, as the `TokenVerifier` found
 * it. Kept apart from `McpAuth` (and `jose`) so that the engine can carry it
 * to handlers without loading the verifiers.
 * @internal
 */
import * as Context from "effect/Context"

/** What a verified access token says about its bearer. The token itself is never kept. */
export interface PrincipalInfo {
  /** `sub`: the user (or, for client credentials, the client). */
  readonly subject: string | undefined
  /** `client_id`, when the token names it. */
  readonly clientId: string | undefined
  /** `iss`, when known. */
  readonly issuer: string | undefined
  /** Granted scopes. */
  readonly scopes: ReadonlyArray<string>
  /** `aud`: the resources the token was minted for. */
  readonly audience: ReadonlyArray<string>
  /** `exp`, in epoch milliseconds, when known. */
  readonly expiresAt: number | undefined
  /** Every claim (JWT payload or introspection response). */
  readonly claims: { readonly [key: string]: unknown }
}

/**
 * The authenticated principal of the request being handled: in a handler's
 * context when the transport is protected by `McpAuth` (use
 * `Effect.serviceOption(Principal)` in handlers that may also run unprotected).
 */
export class Principal extends Context.Tag("@effect-mcp/mcp/McpAuth/Principal")<Principal, PrincipalInfo>() {}

/**
 * Who owns a session: the issuer and the subject (or client). Two tokens of
 * the same owner may differ in scopes and expiry and still share a session.
 */
export const ownerOf = (p: PrincipalInfo): string => JSON.stringify([p.issuer ?? "", p.subject ?? "", p.clientId ?? ""])

/** Whether the principal of a request may use a session created by `owner` (both undefined: no auth). */
export const sameOwner = (owner: PrincipalInfo | undefined, current: PrincipalInfo | undefined): boolean =>
  owner === undefined ? current === undefined : current !== undefined && ownerOf(owner) === ownerOf(current)

/** The scopes of `needed` that `principal` lacks. */
export const missingScopes = (principal: PrincipalInfo, needed: ReadonlyArray<string>): ReadonlyArray<string> =>
  needed.filter((scope) => !principal.scopes.includes(scope))
