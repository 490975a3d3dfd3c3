/**
 * The `McpAuth` service as the transports see it, apart from the verifiers
 * (and `jose`), so that an unprotected server does not load them.
 */
import type * as Headers from "effect/http/Headers"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as JsonRpc from "../../JsonRpc.js"
import type { PrincipalInfo } from "./principal.js"

/** Protected Resource Metadata (RFC 9728). @since 0.1.0 */
export interface ProtectedResourceMetadata {
  readonly resource: string
  readonly authorization_servers: ReadonlyArray<string>
  readonly scopes_supported?: ReadonlyArray<string>
  readonly bearer_methods_supported: ReadonlyArray<string>
  readonly resource_name?: string
  readonly [key: string]: unknown
}

/** @since 0.1.0 */
export interface McpAuthShape {
  readonly resource: string
  readonly metadata: ProtectedResourceMetadata
  /** Where the metadata is served: the path-aware location of the endpoint, then the root one. */
  readonly metadataPaths: ReadonlyArray<string>
  /** The absolute URL named in `resource_metadata`. */
  readonly metadataUrl: string
  /**
   * GET: the metadata as JSON (mount it at each of `metadataPaths`). An HTTP
   * app (Effect 3's `HttpApp.Default`: a response, for the request in context).
   */
  readonly metadataApp: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
  /** The bearer token of a request, verified: the principal, or the 401/503 to answer with. */
  readonly authenticate: (headers: Headers.Headers) => Effect.Effect<PrincipalInfo | HttpServerResponse.HttpServerResponse>
  /**
   * The 403 to answer with when `principal` lacks scopes the requests need
   * (the method's, and each feature's from `featureScopes`); undefined when
   * they may go on.
   */
  readonly authorize: (
    principal: PrincipalInfo,
    requests: ReadonlyArray<JsonRpc.Request>,
    featureScopes: (request: JsonRpc.Request) => Effect.Effect<ReadonlyArray<string>>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse | undefined>
  /** Whether the principal of a request may use a session its owner created. */
  readonly sameOwner: (owner: PrincipalInfo | undefined, current: PrincipalInfo | undefined) => boolean
}

/** Protects the HTTP transports that find it in their context. */
export class McpAuth extends Context.Service<McpAuth, McpAuthShape>()("@effect-mcp/mcp/McpAuth") {}

/** Whether an authenticate result is a principal (not a response to send). */
export const isPrincipal = (u: PrincipalInfo | HttpServerResponse.HttpServerResponse): u is PrincipalInfo =>
  !HttpServerResponse.isHttpServerResponse(u)

