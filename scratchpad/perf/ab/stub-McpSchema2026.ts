// A stand-in for packages/mcp/src/McpSchema2026.ts with its constants and no schemas (what a 2025 server touches
// at load), for abstub.mjs: prices what loading the 2026 schemas costs a server that never serves 2026.
export const PROTOCOL_VERSION = "2026-07-28" as const

export const SUPPORTED_PROTOCOL_VERSIONS = [PROTOCOL_VERSION] as const

export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion" as const
export const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities" as const
export const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo" as const
export const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel" as const
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo" as const
export const SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId" as const

export const RESULT_TYPE_COMPLETE = "complete" as const
export const RESULT_TYPE_INPUT_REQUIRED = "input_required" as const

export const HEADER_MISMATCH = -32020 as const
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021 as const
export const UNSUPPORTED_PROTOCOL_VERSION = -32022 as const

// -----------------------------------------------------------------------------
export const INPUT_REQUIRED_METHODS = ["tools/call", "prompts/get", "resources/read"] as const
export const REMOVED_CLIENT_REQUEST_METHODS = [
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "tasks/get",
  "tasks/result",
  "tasks/cancel",
  "tasks/list"
] as const
import * as Schema from "effect/Schema"
const U = Schema.Unknown
export const RequestMetaObject = U, SubscriptionsListenRequestParams = U, InputRequest = U, DiscoverResult = U, ClientCapabilities = U, InputRequiredResult = U, CacheScope = U
export const InputRequestMethods = {}
export const ClientRequests = {}
export const isClientRequestMethod = (_: string) => true
export const isInputRequiredMethod = (_: string) => true
export const resultTypeOf = (r: { resultType?: unknown }) => typeof r.resultType === "string" ? r.resultType : "complete"
