/**
 * Who made a request on a protected transport, as the `TokenVerifier` found
 * it. Kept apart from `McpAuth` (and `jose`) so that the engine can carry it
 * to handlers without loading the verifiers.
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
export class Principal extends Context.Service<Principal, PrincipalInfo>()("@effect-mcp/mcp/McpAuth/Principal") {}

/** The fields that say who a principal is (scopes and expiry do not). */
export type Identity = Pick<PrincipalInfo, "issuer" | "subject" | "clientId">

/**
 * The one owner key of a principal: of its sessions, its tasks and its
 * request states. Two tokens of the same owner may differ in scopes and
 * expiry and still share them. JSON of `[issuer, subject, clientId]` with an
 * absent field as `null`: injective (no two distinct triples share a key,
 * whatever spaces or quotes the claims hold, and an absent claim is not an
 * empty one).
 */
export const ownerKey = (p: Identity): string => JSON.stringify([p.issuer ?? null, p.subject ?? null, p.clientId ?? null])

/**
 * Whether a principal names its caller: a non-empty subject or client id.
 * `McpAuth` refuses the others (401), so that no two anonymous tokens share an owner.
 */
export const identifies = (p: Identity): boolean =>
  (p.subject !== undefined && p.subject !== "") || (p.clientId !== undefined && p.clientId !== "")

/** Whether the principal of a request may use a session created by `owner` (both undefined: no auth). */
export const sameOwner = (owner: PrincipalInfo | undefined, current: PrincipalInfo | undefined): boolean =>
  owner === undefined ? current === undefined : current !== undefined && ownerKey(owner) === ownerKey(current)

/** The scopes of `needed` that `principal` lacks. */
export const missingScopes = (principal: PrincipalInfo, needed: ReadonlyArray<string>): ReadonlyArray<string> =>
  needed.filter((scope) => !principal.scopes.includes(scope))
