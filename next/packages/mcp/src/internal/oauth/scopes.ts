/**
 * Which scopes the client asks for: on a 401 the user's, else the
 * challenge's, else the resource's `scopes_supported`, else none; on a
 * step-up (403 `insufficient_scope`) the scopes held and the challenge's;
 * `offline_access` added to a sign-in only where the authorization server
 * lists it (SEP-2207).
 */
import type * as Oauth from "oauth4webapi"
import type { Options } from "../../McpOAuth.js"
import type { BearerChallenge } from "./challenge.js"
import type * as State from "./state.js"

/** The scopes of both space-separated lists, each once; `undefined` for none. */
export const union = (a: string | undefined, b: string | undefined): string | undefined => {
  const all = new Set([...(a ?? "").split(" "), ...(b ?? "").split(" ")].filter((s) => s !== ""))
  return all.size === 0 ? undefined : Array.from(all).join(" ")
}

/** The scopes to ask for on a 401: the user's, else the challenge's, else the resource's `scopes_supported`, else none. */
export const forChallenge = (options: Options, state: State.Server, challenge: BearerChallenge): string | undefined =>
  options.scope ?? challenge.scope ?? state.scopesSupported?.join(" ")

/** The scopes to ask for on a step-up: those held and those the challenge names. */
export const stepUp = (state: State.Server, challenge: BearerChallenge): string | undefined =>
  union(state.tokens?.scope, challenge.scope)

/** `offline_access` added to a scope asked for, where the authorization server lists it. */
export const withOfflineAccess = (
  options: Options,
  as: Oauth.AuthorizationServer,
  scope: string | undefined
): string | undefined =>
  scope !== undefined && options.offlineAccess !== false && as.scopes_supported?.includes("offline_access") === true
    ? union(scope, "offline_access")
    : scope
