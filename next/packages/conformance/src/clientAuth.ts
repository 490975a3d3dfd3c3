/**
 * The authorization side of the conformance client fixture: for an `auth/*`
 * scenario, the `auth` of the transport (`McpOAuth` with the headless
 * redirect, driven by `MCP_CONFORMANCE_CONTEXT`) and what the client does
 * once connected.
 *
 * @since 0.1.0
 */
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpOAuth from "@effect-mcp/mcp/McpOAuth"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The client ID metadata document URL the suite accepts as `client_id` (auth/basic-cimd). */
const CIMD_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
const REDIRECT_URI = "http://localhost:3000/callback"

/**
 * What the suite passes in `MCP_CONFORMANCE_CONTEXT` (only the fields read here).
 *
 * @since 0.1.0
 * @category models
 */
export interface Context {
  readonly name?: string
  readonly client_id?: string
  readonly client_secret?: string
  readonly issuer?: string
  readonly private_key_pem?: string
  readonly signing_algorithm?: string
  readonly idp_client_id?: string
  readonly idp_id_token?: string
  readonly idp_issuer?: string
  readonly idp_token_endpoint?: string
  readonly valid_jwt?: string
}

/**
 * The scenario's context, or an empty one.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as ClientAuth from "@effect-mcp/conformance/clientAuth"
 *
 * const context = ClientAuth.context(process.env)
 * ```
 */
export const context = (env: Record<string, string | undefined>): Context => {
  const raw = env.MCP_CONFORMANCE_CONTEXT
  if (raw === undefined || raw === "") return {}
  const parsed: unknown = JSON.parse(raw)
  return typeof parsed === "object" && parsed !== null ? parsed as Context : {}
}

/**
 * Whether a scenario is an authorization one.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isAuthScenario = (scenario: string): boolean => scenario.startsWith("auth/")

/**
 * How tokens are obtained in a scenario: the extensions' grants from the
 * context (client credentials with a secret or a private key JWT, workload
 * identity's JWT bearer, enterprise-managed authorization's token exchange),
 * else a user signing in (authorization code).
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as ClientAuth from "@effect-mcp/conformance/clientAuth"
 *
 * const grant = ClientAuth.grant("auth/wif-jwt-bearer", { valid_jwt: "eyJ..." })
 * ```
 */
export const grant = (scenario: string, ctx: Context): McpOAuth.Grant => {
  if (scenario.startsWith("auth/client-credentials-")) return "client_credentials"
  if (ctx.valid_jwt !== undefined) return { type: "jwt-bearer", assertion: ctx.valid_jwt }
  if (ctx.idp_id_token !== undefined && ctx.idp_token_endpoint !== undefined && ctx.idp_client_id !== undefined) {
    return {
      type: "enterprise",
      identityProvider: { tokenEndpoint: ctx.idp_token_endpoint, issuer: ctx.idp_issuer, clientId: ctx.idp_client_id },
      idToken: ctx.idp_id_token
    }
  }
  return "authorization_code"
}

/**
 * The sign-in options for a scenario: the pre-registered credentials of the
 * context (a secret or a private key), else a client ID metadata document
 * where the server supports one, else dynamic registration.
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as ClientAuth from "@effect-mcp/conformance/clientAuth"
 *
 * const options = ClientAuth.options("auth/pre-registration", { client_id: "id", client_secret: "s" })
 * ```
 */
export const options = (scenario: string, ctx: Context): McpOAuth.Options => ({
  clientName: "effect-mcp-conformance-client",
  clientMetadataUrl: CIMD_CLIENT_METADATA_URL,
  grant: grant(scenario, ctx),
  ...(ctx.client_id === undefined ? {} : { clientId: ctx.client_id }),
  ...(ctx.client_secret === undefined ? {} : { clientSecret: ctx.client_secret }),
  ...(ctx.private_key_pem === undefined
    ? {}
    : { clientPrivateKey: { key: ctx.private_key_pem, alg: ctx.signing_algorithm ?? "ES256" } })
})

/**
 * The `auth` of the transport for a scenario (undefined for one that is not
 * about authorization).
 *
 * @since 0.1.0
 * @category constructors
 * @example
 * ```ts
 * import * as ClientAuth from "@effect-mcp/conformance/clientAuth"
 *
 * const auth = ClientAuth.auth("auth/metadata-default", {})
 * ```
 */
export const auth = (scenario: string, ctx: Context): Effect.Effect<McpOAuth.ClientAuth | undefined> =>
  isAuthScenario(scenario)
    ? McpOAuth.make(options(scenario, ctx)).pipe(
      Effect.provide(Layer.merge(McpOAuth.layerMemoryStore, McpOAuth.layerHeadless({ redirectUri: REDIRECT_URI })))
    )
    : Effect.succeed(undefined)

/**
 * What the client does in an authorization scenario once connected: list the
 * tools, call the first one.
 *
 * @since 0.1.0
 * @category scenarios
 */
export const program: Effect.Effect<void, McpClient.ClientError, McpClient.McpClient> = Effect.gen(function*() {
  const client = yield* McpClient.McpClient
  const tools = yield* client.listToolsAll()
  const tool = tools.find((t) => t.name === "test-tool") ?? tools[0]
  if (tool !== undefined) yield* client.callTool(tool.name, {})
})
