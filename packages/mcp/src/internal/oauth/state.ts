/**
 * What one client's authorization holds: its options and services, and per
 * MCP server what discovery found there (the resource, its authorization
 * server, whether it asks for DPoP) with the tokens and the step-ups so far.
 * A refused token means discovery again: a server that now names another
 * authorization server (SEP-2352) gets a new state there.
 */
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import type { Grant, Options } from "../../McpOAuth.js"
import type { AnyChallenge } from "./challenge.js"
import * as Discovery from "./discovery.js"
import * as Dpop from "./dpop.js"
import type { OAuthError } from "./error.js"
import * as Http from "./fetch.js"
import type { AuthorizationRedirectShape, StoredTokens, TokenStoreShape } from "./services.js"

/** What the client knows of one MCP server. */
export interface Server extends Dpop.Binding {
  readonly resource: string
  readonly scopesSupported: ReadonlyArray<string> | undefined
  tokens: StoredTokens | undefined
  stepUps: number
}

/** One client's authorization: its options and services, its servers, its DPoP key, its lock. */
export interface Client {
  readonly options: Options
  readonly grant: Grant
  readonly maxStepUps: number
  readonly redirect: AuthorizationRedirectShape
  readonly store: TokenStoreShape
  readonly http: Http.Http
  /** By the server's URL (`href`). */
  readonly servers: Map<string, Server>
  /** Held by a challenge's answer and by a refresh: one sign-in at a time. */
  readonly lock: Semaphore.Semaphore
  readonly dpop: Dpop.Keyring
}

export const make = (
  options: Options,
  redirect: AuthorizationRedirectShape,
  store: TokenStoreShape
): Effect.Effect<Client> =>
  Effect.map(Semaphore.make(1), (lock) => ({
    options,
    grant: options.grant ?? "authorization_code",
    maxStepUps: options.maxStepUps ?? 3,
    redirect,
    store,
    http: Http.make(options),
    servers: new Map(),
    lock,
    dpop: { current: undefined }
  }))

/** The state of the server at `server` from its metadata (and its stored tokens), kept for it. */
export const discover = (client: Client, server: URL, challenge: AnyChallenge): Effect.Effect<Server, OAuthError> =>
  Effect.gen(function*() {
    const prm = yield* Discovery.resourceMetadata(client.http, server, challenge)
    const issuer = Discovery.issuerOf(prm, server)
    const as = yield* Discovery.serverMetadata(client.http, issuer, prm === undefined)
    const resource = prm?.resource ?? Discovery.canonical(server)
    const state: Server = {
      resource,
      issuer,
      as,
      scopesSupported: prm?.scopes_supported,
      dpopAsked: challenge.dpop || prm?.dpop_bound_access_tokens_required === true,
      tokens: Dpop.usable(yield* client.store.tokens(issuer, resource), client.dpop),
      stepUps: 0
    }
    client.servers.set(server.href, state)
    return state
  })

/**
 * A refused token: the resource metadata again. A server that now names another authorization
 * server gets a new state there: its own client identity (registered again) and tokens; the old
 * issuer's credentials are not presented to the new one.
 */
export const rediscover = (
  client: Client,
  known: Server,
  server: URL,
  challenge: AnyChallenge
): Effect.Effect<Server, OAuthError> =>
  Effect.gen(function*() {
    const issuer = Discovery.issuerOf(yield* Discovery.resourceMetadata(client.http, server, challenge), server)
    if (issuer === known.issuer) return known
    yield* Effect.logDebug(`${server.href} now names the authorization server ${issuer} (was ${known.issuer})`)
    return yield* discover(client, server, challenge)
  })
