/**
 * Which era a client speaks with its server, decided once when it connects
 * and kept for the life of the client:
 *
 * - `"2025"`: `initialize`, as a 2025-11-25 client always did (no probe);
 * - `"2026-07-28"` (pinned): the 2026 path; `server/discover` tells the
 *   server's info and capabilities, and a server that does not answer it is
 *   still spoken to on the 2026 path (unknown capabilities: nothing is
 *   refused locally); only a transport failure fails the connection;
 * - `"auto"`: `server/discover` with the 2026 envelope first. The client
 *   stays on 2026 when the answer is a discover result naming a 2026 version
 *   it speaks, or a 2026 error (−32022 offering a 2026 version is retried at
 *   it; −32020, −32021), and falls back to `initialize` otherwise: any other
 *   JSON-RPC error (a 2025 server's −32601, or its 400 for a request without
 *   a session), a 4xx without a JSON-RPC body, a −32022 offering only 2025
 *   versions, or no answer within `probeTimeout` (a server that ignores a
 *   request before `initialize`). A server that cannot be reached, answers
 *   5xx, 401 or 403, or closes the connection fails the connection instead:
 *   those say nothing about its era.
 * @internal
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { McpError, ProtocolError, TransportError } from "../McpError.js"
import type * as McpSchema from "../McpSchema.js"
import * as McpSchema2026 from "../McpSchema2026.js"
import * as ProtocolEra from "../ProtocolEra.js"
import type { Session2026 } from "./client2026.js"

type ClientError = McpError | ProtocolError

/**
 * The era option of a client: `"auto"` (probe, then fall back), `"2025"`
 * (`initialize` only) or a pinned 2026 version.
 */
export type EraOption = "auto" | "2025" | typeof McpSchema2026.PROTOCOL_VERSION

export type Outcome =
  | { readonly _tag: "2025" }
  | { readonly _tag: "2026"; readonly discover: McpSchema2026.DiscoverResult | undefined }

export const DEFAULT_PROBE_TIMEOUT = Duration.seconds(3)

const fallback: Outcome = { _tag: "2025" }

/** The 2026 error codes a 2025 server never answers: their presence says the server is of 2026. */
const ERA_2026_CODES: ReadonlySet<number> = new Set([
  McpSchema2026.HEADER_MISMATCH,
  McpSchema2026.MISSING_REQUIRED_CLIENT_CAPABILITY
])

/** A failure that says nothing about the server's era: the connection fails with it. */
const isFatal = (error: ClientError): boolean => {
  if (error._tag !== "ProtocolError") return false
  if (error.reason === "ConnectionClosed") return true
  if (error.reason !== "Transport") return false
  const cause = error.cause
  if (!(cause instanceof TransportError)) return true
  if (cause.reason === "HttpStatus") {
    const status = cause.status ?? 0
    return status >= 500 || status === 401 || status === 403
  }
  return cause.reason === "Connect" || cause.reason === "Closed" || cause.reason === "Timeout"
}

const isDiscoverResult = (u: unknown): u is McpSchema2026.DiscoverResult =>
  typeof u === "object" && u !== null && Array.isArray((u as { readonly supportedVersions?: unknown }).supportedVersions)

/** Decides the era over `session` (which sends `server/discover` with the envelope and retries a −32022). */
export const negotiate = (options: {
  readonly era: Exclude<EraOption, "2025">
  readonly session: Session2026
  readonly probeTimeout?: Duration.DurationInput | undefined
}): Effect.Effect<Outcome, ClientError> => {
  const pinned = options.era !== "auto"
  const timeout = options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT
  // pinned: no short bound; auto: silence before initialize is a 2025 answer
  const probe = options.session.request("server/discover", undefined, pinned ? undefined : { timeout })
  return Effect.matchEffect(probe, {
    onSuccess: (result): Effect.Effect<Outcome, ClientError> => {
      if (!isDiscoverResult(result)) {
        return pinned
          ? Effect.fail(
            new ProtocolError({
              reason: "InvalidResult",
              method: "server/discover",
              message: "Invalid server/discover result: supportedVersions is not an array"
            })
          )
          : Effect.succeed(fallback)
      }
      const speaks = result.supportedVersions.includes(options.session.version())
      if (speaks) return Effect.succeed({ _tag: "2026", discover: result })
      return pinned
        ? Effect.fail(
          new ProtocolError({
            reason: "NotInitialized",
            method: "server/discover",
            message: `The server supports ${result.supportedVersions.join(", ") || "no version"}, not ${options.session.version()}`
          })
        )
        : Effect.succeed(fallback)
    },
    onFailure: (error): Effect.Effect<Outcome, ClientError> => {
      if (isFatal(error)) return Effect.fail(error)
      if (pinned) {
        // a pinned client speaks 2026 whatever discover said; only an unsupported version ends it here
        return error instanceof McpError && error.code === McpSchema2026.UNSUPPORTED_PROTOCOL_VERSION
          ? Effect.fail(error)
          : Effect.succeed({ _tag: "2026", discover: undefined })
      }
      if (error instanceof McpError && ERA_2026_CODES.has(error.code)) {
        return Effect.succeed({ _tag: "2026", discover: undefined })
      }
      return Effect.succeed(fallback)
    }
  })
}

/** The server's info as a 2026 server tells it (the result's `_meta`, or a `serverInfo` field some servers add). */
export const serverInfoOf = (discover: McpSchema2026.DiscoverResult | undefined): McpSchema.Implementation => {
  const meta = discover?._meta?.[McpSchema2026.SERVER_INFO_META_KEY]
  const field = (discover as { readonly serverInfo?: unknown } | undefined)?.serverInfo
  const info = meta ?? field
  return typeof info === "object" && info !== null && typeof (info as { name?: unknown }).name === "string"
    ? info as McpSchema.Implementation
    : { name: "unknown", version: "unknown" }
}

/** Whether `version` is a 2026 version this client can pin. */
export const isPinnable = (version: string): boolean => ProtocolEra.eraOf(version) === "2026"
