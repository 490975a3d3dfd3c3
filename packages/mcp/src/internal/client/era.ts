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
 *   versions. When no answer came within `probeTimeout`, `initialize` is sent
 *   as well and the first answer that decides wins (`negotiateAuto`). A
 *   server that cannot be reached, answers 5xx, 401 or 403, or closes the
 *   connection fails the connection instead: those say nothing of its era.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import { McpError, ProtocolError, TransportError } from "../../McpError.js"
import type * as McpSchema from "../../McpSchema.js"
import * as McpSchema2026 from "../../McpSchema2026.js"
import type * as Protocol from "../../Protocol.js"
import * as ProtocolEra from "../../ProtocolEra.js"
import type { Session2026 } from "./era2026.js"

type ClientError = McpError | ProtocolError

/** The version a −32022 answer offers that this client speaks, if any. */
export const offeredVersion = (error: McpError): string | undefined => {
  if (error.code !== McpSchema2026.UNSUPPORTED_PROTOCOL_VERSION) return undefined
  const supported = (error.data as { readonly supported?: unknown } | undefined)?.supported
  if (!Array.isArray(supported)) return undefined
  return (ProtocolEra.ERA_2026_VERSIONS as ReadonlyArray<string>).find((v) => supported.includes(v))
}

/**
 * The era option of a client: `"auto"` (probe, then fall back), `"2025"`
 * (`initialize` only) or a pinned 2026 version.
 */
export type EraOption = "auto" | "2025" | typeof McpSchema2026.PROTOCOL_VERSION

export type Outcome =
  /** A 2025 server: `initialize` (its result when it was sent during the probe). */
  | { readonly _tag: "2025"; readonly init?: McpSchema.InitializeResult | undefined }
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

/** What a settled probe says: `undefined` for "a 2025 server" (auto falls back). */
const classify = (
  pinned: boolean,
  session: Session2026,
  exit: Exit.Exit<Protocol.Result, ClientError>
): Effect.Effect<Outcome | undefined, ClientError> => {
  if (Exit.isSuccess(exit)) {
    const result = exit.value
    if (!isDiscoverResult(result)) {
      return pinned
        ? Effect.fail(
          new ProtocolError({
            reason: "InvalidResult",
            method: "server/discover",
            message: "Invalid server/discover result: supportedVersions is not an array"
          })
        )
        : Effect.succeed(undefined)
    }
    if (result.supportedVersions.includes(session.version())) return Effect.succeed({ _tag: "2026", discover: result })
    return pinned
      ? Effect.fail(
        new ProtocolError({
          reason: "NotInitialized",
          method: "server/discover",
          message: `The server supports ${result.supportedVersions.join(", ") || "no version"}, not ${session.version()}`
        })
      )
      : Effect.succeed(undefined)
  }
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isNone(failure)) return Effect.failCause(exit.cause as Cause.Cause<never>)
  const error = failure.value
  if (isFatal(error)) return Effect.fail(error)
  if (pinned) {
    // a pinned client speaks 2026 whatever discover said; only an unsupported version ends it here
    return error instanceof McpError && error.code === McpSchema2026.UNSUPPORTED_PROTOCOL_VERSION
      ? Effect.fail(error)
      : Effect.succeed({ _tag: "2026", discover: undefined })
  }
  return error instanceof McpError && ERA_2026_CODES.has(error.code)
    ? Effect.succeed({ _tag: "2026", discover: undefined })
    : Effect.succeed(undefined)
}

/** A pinned 2026 client: `server/discover` for the server's info, with the engine's request timeout. */
export const negotiatePinned = (session: Session2026): Effect.Effect<Outcome, ClientError> =>
  Effect.flatMap(
    Effect.exit(session.request("server/discover", undefined)),
    (exit) => Effect.map(classify(true, session, exit), (outcome) => outcome ?? { _tag: "2026", discover: undefined })
  )

/**
 * `auto`: the probe first. When it is not answered within `probeTimeout`
 * (a server still starting, or one that ignores a request before
 * `initialize`), `initialize` is sent too, and the first answer that decides
 * wins: the probe's (2026, or a 2025 server's error, then initialize's
 * answer is awaited) or initialize's (2025: the probe is cancelled). A server
 * that fixes a connection's era by its first message (stdio) is spoken to in
 * that era, however slowly it started.
 */
export const negotiateAuto = (options: {
  readonly session: Session2026
  readonly initialize: Effect.Effect<McpSchema.InitializeResult, ClientError>
  readonly probeTimeout?: Duration.Input | undefined
}): Effect.Effect<Outcome, ClientError> =>
  Effect.gen(function*() {
    const { session } = options
    const probe = yield* Effect.forkChild(session.request("server/discover", undefined))
    const early = yield* Effect.raceFirst(
      Effect.map(Fiber.await(probe), Option.some),
      Effect.as(Effect.sleep(options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT), Option.none())
    )
    if (Option.isSome(early)) return (yield* classify(false, session, early.value)) ?? fallback
    const init = yield* Effect.forkChild(options.initialize)
    const first = yield* Effect.race(
      Effect.map(Fiber.await(probe), (exit) => ({ _tag: "probe" as const, exit })),
      Effect.map(Fiber.await(init), (exit) => ({ _tag: "init" as const, exit }))
    )
    if (first._tag === "init" && Exit.isSuccess(first.exit)) {
      yield* Fiber.interrupt(probe)
      return { _tag: "2025", init: first.exit.value } as const
    }
    // a server that refuses initialize with -32022 offering a 2026 version is of 2026
    const refused = first._tag === "init" && Exit.isFailure(first.exit) ? Cause.findErrorOption(first.exit.cause) : Option.none()
    const offered = Option.isSome(refused) && refused.value instanceof McpError ? offeredVersion(refused.value) : undefined
    if (offered !== undefined) {
      yield* Fiber.interrupt(probe)
      session.useVersion(offered)
      return yield* negotiatePinned(session)
    }
    // the probe answered first, or initialize failed: the probe decides
    const outcome = yield* classify(false, session, yield* Fiber.await(probe))
    if (outcome !== undefined) {
      yield* Fiber.interrupt(init)
      return outcome
    }
    return { _tag: "2025", init: yield* Fiber.join(init) } as const
  })

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
