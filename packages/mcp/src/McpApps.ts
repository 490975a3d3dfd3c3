/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, `@modelcontextprotocol/ext-apps`),
 * server side: an app is an HTML page a server publishes as a `ui://` resource
 * (`text/html;profile=mcp-app`), linked from a tool's `_meta.ui.resourceUri`; a host that
 * renders apps shows it in a sandboxed iframe when the tool is called, and bridges it to the
 * server over `postMessage` (the host side is `McpAppsHost`).
 *
 * `McpApps.resource` publishes the page with its `_meta.ui` (CSP, permissions, domain, border),
 * `McpApps.tool` links a tool to it (`_meta.ui` and the legacy `_meta["ui/resourceUri"]`) and,
 * with a `fallback`, serves a text tool of the same name to clients that did not declare the
 * extension, per client: in 2025 by what the session's `initialize` declared, on 2026-07-28 by
 * each request's `_meta` envelope.
 *
 * @example
 * ```ts
 * import * as McpApps from "@effect-mcp/mcp/McpApps"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const View = McpApps.resource({
 *   uri: "ui://weather/view.html",
 *   name: "weather view",
 *   html: `<!doctype html><html><body><div id="forecast"></div></body></html>`,
 *   csp: { connectDomains: ["https://api.weather.example"] },
 *   prefersBorder: true
 * })
 *
 * const Forecast = McpApps.tool(
 *   McpServer.tool({
 *     name: "forecast",
 *     parameters: Schema.Struct({ city: Schema.String }),
 *     handler: ({ city }) => Effect.succeed(`Sunny in ${city}`)
 *   }),
 *   { resource: View }
 * )
 *
 * export const FeaturesLive = McpServer.register(View, Forecast)
 * ```
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Apps from "./internal/apps.js"
import * as McpFeature from "./McpFeature.js"
import type * as McpSchema from "./McpSchema.js"
import { ServerSession } from "./ServerSession.js"

// ============================================================================
// constants
// ============================================================================

/**
 * `EXTENSION_ID`: the extension's identifier, the key of its capability in
 * `capabilities.extensions` (`"io.modelcontextprotocol/ui"`). `RESOURCE_MIME_TYPE`: the MIME
 * type of an app's HTML resource (`"text/html;profile=mcp-app"`). `RESOURCE_URI_META_KEY`: the
 * legacy `_meta` key of a tool's resource URI (`"ui/resourceUri"`), still read by older hosts;
 * `McpApps.tool` writes it next to `_meta.ui.resourceUri`.
 * @since 0.1.0
 * @category constants
 */
export { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "./internal/apps.js"

// ============================================================================
// metadata, as the ext-apps spec types it
// ============================================================================

/**
 * The origins an app needs (`_meta.ui.csp`); the host builds the iframe's Content Security
 * Policy from them. Each omitted list allows nothing (a `frame-src 'none'`, `base-uri 'self'`).
 * @since 0.1.0
 * @category models
 */
export interface ResourceCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  readonly connectDomains?: ReadonlyArray<string> | undefined
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`; `https://*.example.com` allowed. */
  readonly resourceDomains?: ReadonlyArray<string> | undefined
  /** `frame-src`: nested iframes. */
  readonly frameDomains?: ReadonlyArray<string> | undefined
  /** `base-uri`. */
  readonly baseUriDomains?: ReadonlyArray<string> | undefined
}

/**
 * The browser permissions an app asks for (`_meta.ui.permissions`), which a host may grant
 * through the iframe's `allow` attribute.
 * @since 0.1.0
 * @category models
 */
export interface ResourcePermissions {
  readonly camera?: {} | undefined
  readonly microphone?: {} | undefined
  readonly geolocation?: {} | undefined
  readonly clipboardWrite?: {} | undefined
}

/**
 * An app resource's `_meta.ui`: on its `resources/list` entry, and on the content item of
 * `resources/read` (which hosts read first).
 * @since 0.1.0
 * @category models
 */
export interface ResourceMeta {
  readonly csp?: ResourceCsp | undefined
  readonly permissions?: ResourcePermissions | undefined
  /** A dedicated sandbox origin, in the format the host documents (e.g. `{hash}.claudemcpcontent.com`). */
  readonly domain?: string | undefined
  /** Whether the host should draw a border and background (omitted: the host decides). */
  readonly prefersBorder?: boolean | undefined
}

/**
 * Who may call a tool: the model, the app (from its iframe, through the host), or both (the default).
 * @since 0.1.0
 * @category models
 */
export type ToolVisibility = "model" | "app"

/**
 * A tool's `_meta.ui`.
 * @since 0.1.0
 * @category models
 */
export interface ToolMeta {
  /** The `ui://` resource shown when the tool is called. */
  readonly resourceUri?: string | undefined
  /** Default `["model", "app"]`; a host leaves an app-only tool out of the model's tools. */
  readonly visibility?: ReadonlyArray<ToolVisibility> | undefined
}

/**
 * What a client declares under `capabilities.extensions["io.modelcontextprotocol/ui"]`.
 * @since 0.1.0
 * @category models
 */
export interface ClientCapability {
  /** The app MIME types it renders; `"text/html;profile=mcp-app"` for MCP Apps. */
  readonly mimeTypes?: ReadonlyArray<string> | undefined
}

// ============================================================================
// what the client declared
// ============================================================================

/**
 * The client's MCP Apps capability, if it declared one.
 *
 * @example
 * ```ts
 * import * as McpApps from "@effect-mcp/mcp/McpApps"
 *
 * McpApps.uiCapability({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } })
 * // { mimeTypes: ["text/html;profile=mcp-app"] }
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const uiCapability: (capabilities: McpSchema.ClientCapabilities | undefined) => ClientCapability | undefined =
  Apps.uiCapability

/**
 * Whether a client renders MCP Apps: it declared the extension with the app MIME type (the
 * ext-apps rule: `getUiCapability(caps)?.mimeTypes?.includes(RESOURCE_MIME_TYPE)`).
 *
 * @example
 * ```ts
 * import * as McpApps from "@effect-mcp/mcp/McpApps"
 *
 * McpApps.rendersApps({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } }) // true
 * McpApps.rendersApps({ sampling: {} }) // false
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const rendersApps: (capabilities: McpSchema.ClientCapabilities | undefined) => boolean = Apps.rendersApps

/**
 * In a handler: whether the client being served renders MCP Apps (see `rendersApps`), read from
 * its session (2025) or the request's `_meta` envelope (2026-07-28).
 *
 * @example
 * ```ts
 * import * as McpApps from "@effect-mcp/mcp/McpApps"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 *
 * const Report = McpServer.tool({
 *   name: "report",
 *   handler: () =>
 *     Effect.map(McpApps.clientRendersApps, (apps) => apps ? "opened in the view" : "| day | sales |\n| mon | 3 |")
 * })
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const clientRendersApps: Effect.Effect<boolean, never, ServerSession> = Effect.map(
  ServerSession,
  (session) => rendersApps(session.clientCapabilities())
)

// ============================================================================
// the app's resource
// ============================================================================

/**
 * The options of `McpApps.resource`: the resource's listing, its page, and its `_meta.ui`.
 * @since 0.1.0
 * @category models
 */
export interface ResourceOptions<E, R> extends ResourceMeta {
  readonly uri: `ui://${string}`
  readonly name: string
  readonly title?: string | undefined
  readonly description?: string | undefined
  readonly icons?: ReadonlyArray<McpSchema.Icon> | undefined
  readonly annotations?: McpSchema.Annotations | undefined
  /** Other `_meta` of the listing and the content item, next to `ui`. */
  readonly _meta?: { readonly [key: string]: unknown } | undefined
  /** The page: self-contained HTML (scripts and styles inline; other origins only as `csp` allows). */
  readonly html: string | Effect.Effect<string, E, R>
  /** Scopes a read needs (see `McpAuth`). */
  readonly scopes?: ReadonlyArray<string> | undefined
  /** The 2026-07-28 caching hint of its reads. */
  readonly cacheHint?: McpFeature.CacheHint | undefined
}

/** `_meta.ui` of a resource, without the keys not given (none: undefined). */
const resourceMetaOf = (options: ResourceMeta): ResourceMeta | undefined => {
  const ui: { -readonly [K in keyof ResourceMeta]: ResourceMeta[K] } = {}
  if (options.csp !== undefined) ui.csp = options.csp
  if (options.permissions !== undefined) ui.permissions = options.permissions
  if (options.domain !== undefined) ui.domain = options.domain
  if (options.prefersBorder !== undefined) ui.prefersBorder = options.prefersBorder
  return Object.keys(ui).length === 0 ? undefined : ui
}

/**
 * An app's HTML page as a resource: `mimeType` `text/html;profile=mcp-app`, and its `_meta.ui`
 * (`csp`, `permissions`, `domain`, `prefersBorder`) on both the `resources/list` entry and the
 * `resources/read` content item.
 *
 * @example
 * ```ts
 * import * as McpApps from "@effect-mcp/mcp/McpApps"
 * import * as Effect from "effect/Effect"
 *
 * const Map = McpApps.resource({
 *   uri: "ui://maps/view.html",
 *   name: "map",
 *   html: Effect.succeed(`<!doctype html><html><body><canvas></canvas></body></html>`),
 *   csp: { resourceDomains: ["https://tiles.example.com"] },
 *   permissions: { geolocation: {} }
 * })
 * ```
 * @since 0.1.0
 * @category resources
 */
export const resource = <E = never, R = never>(
  options: ResourceOptions<E, R>
): McpFeature.Resource<Exclude<R, McpFeature.HandlerServices>> => {
  const ui = resourceMetaOf(options)
  const meta = ui === undefined ? options._meta : { ...options._meta, ui }
  const html = typeof options.html === "string" ? Effect.succeed(options.html) : options.html
  const content = Effect.map(html, (text): McpSchema.TextResourceContents => ({
    uri: options.uri,
    mimeType: Apps.RESOURCE_MIME_TYPE,
    text,
    ...(meta !== undefined ? { _meta: meta } : {})
  }))
  return McpFeature.resource({
    uri: options.uri,
    name: options.name,
    mimeType: Apps.RESOURCE_MIME_TYPE,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    ...(options.icons !== undefined ? { icons: options.icons } : {}),
    ...(options.annotations !== undefined ? { annotations: options.annotations } : {}),
    ...(meta !== undefined ? { _meta: meta } : {}),
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    ...(options.cacheHint !== undefined ? { cacheHint: options.cacheHint } : {}),
    content
  })
}

// ============================================================================
// the app's tool
// ============================================================================

/**
 * The options of `McpApps.tool`.
 * @since 0.1.0
 * @category models
 */
export interface ToolOptions<R> {
  /** The app shown when the tool is called: its resource, or its `ui://` URI. */
  // only the resource's URI is read, whatever its handler needs
  readonly resource: McpFeature.Resource<unknown> | `ui://${string}`
  /** Who may call the tool (default: the model and the app). */
  readonly visibility?: ReadonlyArray<ToolVisibility> | undefined
  /**
   * The tool served, under the same name, to clients that do not render apps (see
   * `rendersApps`): its definition is what they list, its handler answers their calls. Without
   * one, they are shown the app's tool as it is (hosts ignore `_meta.ui`), except a tool only
   * the app may call (`visibility: ["app"]`), left out for them. The tool's `scopes`, caching hint
   * and `taskStart` are the app tool's, for both.
   */
  readonly fallback?: McpFeature.Tool<R> | undefined
}

/**
 * Links a tool to an app: its definition gets `_meta.ui` (`resourceUri`, `visibility`) and the
 * legacy `_meta["ui/resourceUri"]`. With a `fallback`, the two are variants of one tool chosen
 * per client: hosts that declared the extension list and call the app's, the others the
 * fallback (on 2026-07-28, by the capabilities each request declares).
 *
 * @example
 * ```ts
 * import * as McpApps from "@effect-mcp/mcp/McpApps"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as Effect from "effect/Effect"
 * import * as Schema from "effect/Schema"
 *
 * const Sales = Schema.Struct({ days: Schema.Array(Schema.Struct({ day: Schema.String, sales: Schema.Number })) })
 * const data = { days: [{ day: "mon", sales: 3 }, { day: "tue", sales: 5 }] }
 *
 * const Chart = McpApps.tool(
 *   // for hosts that render apps: the data, drawn by the app
 *   McpServer.tool({ name: "sales_chart", success: Sales, handler: () => Effect.succeed(data) }),
 *   {
 *     resource: "ui://sales/chart.html",
 *     // for the others: a text answer
 *     fallback: McpServer.tool({
 *       name: "sales_chart",
 *       description: "Sales per day, as a table",
 *       handler: () => Effect.succeed(data.days.map((d) => `${d.day}: ${d.sales}`).join("\n"))
 *     })
 *   }
 * )
 * ```
 * @since 0.1.0
 * @category tools
 */
export const tool = <R1, R2 = never>(app: McpFeature.Tool<R1>, options: ToolOptions<R2>): McpFeature.Tool<R1 | R2> => {
  const resourceUri = typeof options.resource === "string" ? options.resource : options.resource.definition.uri
  const ui: ToolMeta = options.visibility === undefined ? { resourceUri } : { resourceUri, visibility: options.visibility }
  const definition: McpSchema.Tool = {
    ...app.definition,
    _meta: { ...app.definition._meta, ui, [Apps.RESOURCE_URI_META_KEY]: resourceUri }
  }
  const appOnly = options.visibility !== undefined && !options.visibility.includes("model")
  const fallback = options.fallback
  const fallbackDefinition: McpSchema.Tool | undefined = fallback === undefined
    ? (appOnly ? undefined : definition)
    : { ...fallback.definition, name: app.name }
  const call: McpFeature.Tool<R1 | R2>["call"] = fallback === undefined ? app.call : (args) =>
    Effect.flatMap(
      ServerSession,
      (session): ReturnType<McpFeature.Tool<R1 | R2>["call"]> =>
        rendersApps(session.clientCapabilities()) ? app.call(args) : fallback.call(args)
    )
  return {
    ...app,
    definition,
    definitionFor: (client) => rendersApps(client) ? definition : fallbackDefinition,
    call
  }
}
