/**
 * The two eras of the Model Context Protocol and how a message tells which one it belongs to.
 *
 * - **2025** (`2024-11-05` … `2025-11-25`, `McpSchema`): sessions opened by `initialize`,
 *   server-to-client requests, `Mcp-Session-Id`, the GET stream.
 * - **2026** (`2026-07-28`, `McpSchema2026`): stateless; every request carries its envelope in
 *   `params._meta`, reverse calls become `InputRequiredResult` rounds, `subscriptions/listen`.
 *
 * The engine picks the era per request over HTTP and per connection over stdio (from the first
 * message) with {@link requestEra}, and checks versions with {@link eraOf}.
 *
 * @since 0.1.0
 */
import * as McpSchema from "./McpSchema.js"
import * as EnvelopeClaim from "./internal/envelopeClaim.js"
import * as McpSchema2026 from "./internal/schema2026/core.js"

/**
 * An era of the protocol, named for the year of its first revision.
 * @since 0.1.0
 * @category models
 */
export type Era = "2025" | "2026"

/**
 * Revisions of the 2025 era (session-based), newest first.
 * @since 0.1.0
 * @category versions
 */
export const ERA_2025_VERSIONS: typeof McpSchema.SUPPORTED_PROTOCOL_VERSIONS = McpSchema.SUPPORTED_PROTOCOL_VERSIONS

/**
 * Revisions of the 2026 era (stateless), newest first.
 * @since 0.1.0
 * @category versions
 */
export const ERA_2026_VERSIONS: typeof McpSchema2026.SUPPORTED_PROTOCOL_VERSIONS = McpSchema2026.SUPPORTED_PROTOCOL_VERSIONS

/**
 * Every revision this implementation speaks, newest first.
 * @since 0.1.0
 * @category versions
 */
export const ALL_PROTOCOL_VERSIONS = [...ERA_2026_VERSIONS, ...ERA_2025_VERSIONS] as const

/**
 * A revision this implementation speaks, in either era.
 * @since 0.1.0
 * @category models
 */
export type ProtocolVersion = typeof ALL_PROTOCOL_VERSIONS[number]

/**
 * The era of a protocol version, or `undefined` for a version this implementation does not know
 * (on the 2026 path that is a −32022 with `data.supported`; on the 2025 path, `initialize`
 * answers with the latest 2025 version instead).
 * @since 0.1.0
 * @category versions
 * @example
 * ```ts
 * import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
 * ProtocolEra.eraOf("2025-06-18") // "2025"
 * ProtocolEra.eraOf("2026-07-28") // "2026"
 * ProtocolEra.eraOf("2030-01-01") // undefined
 * ```
 */
export const eraOf = (version: string): Era | undefined =>
  (ERA_2026_VERSIONS as ReadonlyArray<string>).includes(version)
    ? "2026"
    : (ERA_2025_VERSIONS as ReadonlyArray<string>).includes(version)
    ? "2025"
    : undefined

/**
 * Whether `version` is a revision this implementation speaks, in either era.
 * @since 0.1.0
 * @category utils
 */
export const isKnownVersion = (version: string): version is ProtocolVersion => eraOf(version) !== undefined

/**
 * The protocol version a 2026 request names in `params._meta`, if it names one (a string).
 * @since 0.1.0
 * @category requests
 */
export const envelopeVersion: (params: unknown) => string | undefined = EnvelopeClaim.envelopeVersion

/**
 * Whether a request's `params._meta` claims the 2026 envelope: it has the protocol-version key,
 * whatever its value (a claim with a malformed value is a bad envelope on the 2026 path, never a
 * 2025 request).
 * @since 0.1.0
 * @category requests
 * @example
 * ```ts
 * import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
 * ProtocolEra.hasEnvelopeClaim({ _meta: { "io.modelcontextprotocol/protocolVersion": 7 } }) // true
 * ProtocolEra.hasEnvelopeClaim({ _meta: { progressToken: 1 } }) // false
 * ```
 */
export const hasEnvelopeClaim: (params: unknown) => boolean = EnvelopeClaim.hasEnvelopeClaim

/**
 * The era a request asks for by itself, or `undefined` when it does not say (then the era of its
 * session or connection applies):
 * - `initialize` → `"2025"` (it opens a session, whatever `protocolVersion` it names);
 * - `server/discover`, or any request whose `params._meta` claims the envelope (names a protocol
 *   version, even an unknown one or a malformed value) → `"2026"` (the 2026 path answers −32022 or
 *   −32602, never the 2025 path). An `initialize` carrying such a claim is a 2026 request too (the
 *   2026 path answers it −32601: the method does not exist there).
 *
 * Over HTTP the `MCP-Protocol-Version` header of a request without a session may decide as well
 * (`eraOf(header) === "2026"`); over stdio the first message decides for the connection.
 * @since 0.1.0
 * @category requests
 * @example
 * ```ts
 * import * as ProtocolEra from "@effect-mcp/mcp/ProtocolEra"
 * ProtocolEra.requestEra("tools/list", {
 *   _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }
 * }) // "2026"
 * ProtocolEra.requestEra("tools/list", {}) // undefined
 * ```
 */
export const requestEra = (method: string, params: unknown): Era | undefined =>
  hasEnvelopeClaim(params)
    ? "2026"
    : method === "initialize"
    ? "2025"
    : method === "server/discover"
    ? "2026"
    : undefined
