/**
 * MCP Apps' rules used by both sides (`McpApps` on the server, `McpAppsHost` on the host): the
 * extension's identifier, the MIME type, the `_meta` keys, and whether a client renders apps.
 * Kept apart from the server's module so a host's bundle carries no server code.
 */
import type { ClientCapability } from "../McpApps.js"
import type * as McpSchema from "../McpSchema.js"

export const EXTENSION_ID = "io.modelcontextprotocol/ui"

export const RESOURCE_MIME_TYPE = "text/html;profile=mcp-app"

export const RESOURCE_URI_META_KEY = "ui/resourceUri"

export const uiCapability = (capabilities: McpSchema.ClientCapabilities | undefined): ClientCapability | undefined =>
  capabilities?.extensions?.[EXTENSION_ID] as ClientCapability | undefined

export const rendersApps = (capabilities: McpSchema.ClientCapabilities | undefined): boolean =>
  uiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true
