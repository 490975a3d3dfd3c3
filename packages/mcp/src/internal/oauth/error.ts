/**
 * The error of the client's authorization: what went wrong, named.
 */
import * as Schema from "effect/Schema"

/**
 * The client could not obtain a token: `reason` says at which step, `message`
 * what was wrong (never a token).
 *
 * @since 0.1.0
 * @category errors
 */
export class OAuthError extends Schema.TaggedError<OAuthError>("@effect-mcp/mcp/OAuthError")("OAuthError", {
  reason: Schema.Literals([
    /** Protected resource metadata: missing, malformed, or for another resource. */
    "ResourceMetadata",
    /** Authorization server metadata: missing, malformed, or for another issuer. */
    "ServerMetadata",
    /** No client identity: nothing pre-registered, no metadata document, no registration endpoint; or registration failed. */
    "Registration",
    /** The authorization step: refused, wrong `state` or `iss`, or no redirect came back. */
    "Authorization",
    /** The token endpoint refused or answered garbage. */
    "Token",
    /** The server kept asking for more scopes (step-up limit reached). */
    "StepUpLimit",
    /** Signing in is not allowed (no interactive step). */
    "LoginRequired",
    /** An exchange with the authorization server took too long. */
    "Timeout"
  ]),
  message: Schema.String,
  cause: Schema.optionalKey(Schema.Defect())
}) {}
