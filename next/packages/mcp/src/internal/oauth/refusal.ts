/**
 * What the client does when the MCP server refuses an exchange, one answer at
 * a time: a 401 asking for a DPoP nonce is sent again with it (RFC 9449 §9);
 * a 401 gets a token (one another exchange already got, a stored one of a
 * server that moved, a refreshed one, else a new one with the challenge's
 * scopes); a 403 `insufficient_scope` steps up, at most `maxStepUps` times
 * until an exchange is accepted; any other 403 stays refused.
 */
import * as Effect from "effect/Effect"
import * as Challenge from "./challenge.js"
import { OAuthError } from "./error.js"
import * as Scopes from "./scopes.js"
import * as State from "./state.js"
import * as Tokens from "./tokens.js"

/** An exchange's refusal: the token it used, its status, its `WWW-Authenticate` and `DPoP-Nonce`. */
export interface Refused {
  readonly used: string | undefined
  readonly status: number
  readonly header: string | undefined
  readonly nonce: string | undefined
}

/** A 401: a token another exchange got, a stored one, a refreshed one, else a new one. */
const unauthorized = (client: State.Client, server: URL, used: string | undefined, challenge: Challenge.AnyChallenge) =>
  Effect.gen(function*() {
    const known = client.servers.get(server.href)
    const current = known?.tokens?.access_token
    // another exchange already got a new token, or one was stored
    if (current !== undefined && current !== used) return true
    const state = known === undefined
      ? yield* State.discover(client, server, challenge)
      : used === undefined
      ? known
      : yield* State.rediscover(client, known, server, challenge)
    if (state !== known && state.tokens !== undefined && state.tokens.access_token !== used) return true
    if (state.tokens !== undefined && (yield* Tokens.refresh(client, state))) return true
    yield* Tokens.obtain(client, state, Scopes.forChallenge(client.options, state, challenge))
    return true
  })

/** A 403 `insufficient_scope`: a new token with the scopes held and the challenge's, unless the limit is reached. */
const stepUp = (client: State.Client, server: URL, challenge: Challenge.AnyChallenge) =>
  Effect.gen(function*() {
    const state = client.servers.get(server.href) ?? (yield* State.discover(client, server, challenge))
    if (state.stepUps >= client.maxStepUps) {
      return yield* new OAuthError({
        reason: "StepUpLimit",
        message: `${state.resource} still refuses the token for lack of scope (${
          challenge.scope ?? "unnamed"
        }) after ${client.maxStepUps} step-ups`
      })
    }
    state.stepUps++
    yield* Tokens.obtain(client, state, Scopes.stepUp(state, challenge))
    return true
  })

/** Whether to send the refused exchange again (with new credentials). */
export const challenged = (client: State.Client, server: URL, refused: Refused): Effect.Effect<boolean, OAuthError> =>
  client.lock.withPermits(1)(Effect.suspend(() => {
    const { nonce, status } = refused
    const challenge = Challenge.parseAny(refused.header)
    const key = client.dpop.current
    // the server wants its nonce in the proof; same token, a new proof
    if (status === 401 && challenge.error === "use_dpop_nonce" && nonce !== undefined && key !== undefined) {
      key.nonce(server, nonce)
      return Effect.succeed(true)
    }
    if (status === 403 && challenge.error !== "insufficient_scope") return Effect.succeed(false)
    return status === 401 ? unauthorized(client, server, refused.used, challenge) : stepUp(client, server, challenge)
  }))

/** An exchange was accepted (with a new `DPoP-Nonce`, perhaps): the step-up count starts again. */
export const accepted = (client: State.Client, server: URL, nonce: string | undefined): void => {
  const state = client.servers.get(server.href)
  if (state !== undefined) state.stepUps = 0
  if (nonce !== undefined && client.dpop.current !== undefined) client.dpop.current.nonce(server, nonce)
}
