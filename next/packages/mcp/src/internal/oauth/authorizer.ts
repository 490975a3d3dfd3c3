/**
 * The MCP rules of signing in, on `oauth4webapi`, wired into what a server's
 * exchanges need (`ClientAuth`): which resource and issuer (`state.ts`,
 * `discovery.ts`; again when a token is refused: the server may have moved to
 * another authorization server), which client identity (`identity.ts`:
 * pre-registered, metadata document URL, dynamic registration; kept per
 * issuer), which scopes (`scopes.ts`), which grant (`tokens.ts`,
 * `authorization.ts`, `grants.ts`: authorization code, client credentials,
 * JWT bearer, enterprise-managed), whether tokens are DPoP-bound (`dpop.ts`),
 * and when to refresh, re-authorize or step up (`tokens.ts`, `refusal.ts`).
 */
import * as Effect from "effect/Effect"
import type { Options } from "../../McpOAuth.js"
import type { OAuthError } from "./error.js"
import * as Refusal from "./refusal.js"
import type { AuthorizationRedirectShape, TokenStoreShape } from "./services.js"
import * as State from "./state.js"
import * as Tokens from "./tokens.js"

/** The credentials of one exchange: the access token and the headers that present it. */
export type Presented = Tokens.Presented

/** What a server's exchanges need: credentials per exchange, and what to do when they are refused. */
export interface ClientAuth {
  /** The credentials for a request (`method`, `url`) to the server at `server`, if any yet. */
  readonly present: (server: URL, method: string, url: URL) => Effect.Effect<Presented | undefined>
  /**
   * An exchange that used `used` got `status` (with `WWW-Authenticate` `header` and `DPoP-Nonce`
   * `nonce`); resolves to whether to send it again (with new credentials).
   */
  readonly challenged: (
    server: URL,
    used: string | undefined,
    status: number,
    header: string | undefined,
    nonce?: string | undefined
  ) => Effect.Effect<boolean, OAuthError>
  /** An exchange was accepted (with a new `DPoP-Nonce`, perhaps): the step-up count starts again. */
  readonly accepted: (server: URL, nonce?: string | undefined) => void
}

export const make = (
  options: Options,
  redirect: AuthorizationRedirectShape,
  store: TokenStoreShape
): Effect.Effect<ClientAuth> =>
  Effect.map(State.make(options, redirect, store), (client) => ({
    present: (server, method, url) => Tokens.present(client, server, method, url),
    challenged: (server, used, status, header, nonce) => Refusal.challenged(client, server, { used, status, header, nonce }),
    accepted: (server, nonce) => Refusal.accepted(client, server, nonce)
  }))
