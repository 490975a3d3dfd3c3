/**
 * MCP Apps (`io.modelcontextprotocol/ui`), host side, for a host built on our `McpClient`:
 * declare the extension (`McpAppsHost.capabilities`), find a tool's app (`resourceUri`), read
 * its page (`readApp`), and wire an ext-apps `AppBridge` (or anything with its handler setters)
 * to the client in one call (`connectBridge`): the app's `tools/call`, resource and prompt
 * requests go to the server through the client, and the server's list changes reach the app.
 * The server side is `McpApps`. Browser code: nothing here needs Node.
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * // the host declares the extension: servers then serve it their apps' tools
 * const ClientLive = McpClient.layer({ name: "host", version: "1.0.0", capabilities: McpAppsHost.capabilities })
 *
 * const firstApp = Effect.gen(function*() {
 *   const client = yield* McpClient.McpClient
 *   const tools = yield* client.listToolsAll()
 *   const tool = tools.find((t) => McpAppsHost.resourceUri(t) !== undefined)
 *   if (tool === undefined) return undefined
 *   return yield* McpAppsHost.readApp(McpAppsHost.resourceUri(tool)!) // { uri, html, meta }: render html in a sandboxed iframe
 * })
 * ```
 * @since 0.1.0
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Apps from "./internal/apps.js"
import type { ResourceMeta, ToolMeta, ToolVisibility } from "./McpApps.js"
import { type CallToolResult, type ClientError, McpClient, type McpClientShape } from "./McpClient.js"
import { McpError } from "./McpError.js"
import type * as McpSchema from "./McpSchema.js"

/**
 * The capabilities a host that renders MCP Apps declares:
 * `{ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } }`
 * (give them to `McpClient.layer`'s `capabilities`, with any others spread in).
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 *
 * const ClientLive = McpClient.layer({
 *   name: "host",
 *   version: "1.0.0",
 *   capabilities: { ...McpAppsHost.capabilities, experimental: { "example/x": {} } }
 * })
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const capabilities: McpSchema.ClientCapabilities = {
  extensions: { [Apps.EXTENSION_ID]: { mimeTypes: [Apps.RESOURCE_MIME_TYPE] } }
}

// ============================================================================
// a tool's app
// ============================================================================

interface WithMeta {
  readonly _meta?: { readonly [key: string]: unknown } | undefined
}

const toolMeta = (tool: WithMeta): ToolMeta | undefined => {
  const ui = tool._meta?.ui
  return typeof ui === "object" && ui !== null ? ui as ToolMeta : undefined
}

/**
 * The `ui://` resource a tool's calls are shown with: its `_meta.ui.resourceUri`, else the
 * legacy `_meta["ui/resourceUri"]`; undefined for a tool without an app.
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 *
 * McpAppsHost.resourceUri({ _meta: { ui: { resourceUri: "ui://weather/view.html" } } }) // "ui://weather/view.html"
 * McpAppsHost.resourceUri({ _meta: { "ui/resourceUri": "ui://old/view.html" } }) // "ui://old/view.html"
 * ```
 * @since 0.1.0
 * @category tools
 */
export const resourceUri = (tool: WithMeta): string | undefined => {
  const uri = toolMeta(tool)?.resourceUri ?? tool._meta?.[Apps.RESOURCE_URI_META_KEY]
  return typeof uri === "string" ? uri : undefined
}

/**
 * Who may call a tool (`_meta.ui.visibility`, default `["model", "app"]`).
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 *
 * McpAppsHost.visibility({ _meta: { ui: { visibility: ["app"] } } }) // ["app"]
 * McpAppsHost.visibility({}) // ["model", "app"]
 * ```
 * @since 0.1.0
 * @category tools
 */
export const visibility = (tool: WithMeta): ReadonlyArray<ToolVisibility> =>
  toolMeta(tool)?.visibility ?? ["model", "app"]

/**
 * The tools a host gives its model: those whose visibility includes `"model"` (a tool only an
 * app may call is left out, as the spec asks of hosts).
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * const forTheModel = Effect.map(Effect.flatMap(McpClient.McpClient, (c) => c.listToolsAll()), McpAppsHost.modelTools)
 * ```
 * @since 0.1.0
 * @category tools
 */
export const modelTools = <T extends WithMeta>(tools: ReadonlyArray<T>): ReadonlyArray<T> =>
  tools.filter((tool) => visibility(tool).includes("model"))

/**
 * An app's page, read from its server.
 * @since 0.1.0
 * @category models
 */
export interface App {
  readonly uri: string
  /** The page, to render in a sandboxed iframe (`srcdoc`, or a sandbox proxy). */
  readonly html: string
  /** Its `_meta.ui` (CSP, permissions, domain, border): the content item's, else the listing's given. */
  readonly meta: ResourceMeta | undefined
}

/**
 * Why a resource is not an app: `NotAnApp` (no `text/html;profile=mcp-app` text content).
 * @since 0.1.0
 * @category errors
 */
export class AppError extends Schema.TaggedError<AppError>("@effect-mcp/mcp/AppError")("AppError", {
  reason: Schema.Literals(["NotAnApp"]),
  uri: Schema.String,
  message: Schema.String
}) {}

const resourceMetaOf = (item: WithMeta | undefined): ResourceMeta | undefined => {
  const ui = item?._meta?.ui
  return typeof ui === "object" && ui !== null ? ui as ResourceMeta : undefined
}

/**
 * Reads an app's page (`resources/read` of its `ui://` URI): its HTML and its `_meta.ui`, the
 * content item's first, else that of `listing` (its `resources/list` entry) when given. A
 * resource without text content of the app MIME type is an `AppError`.
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as Effect from "effect/Effect"
 *
 * const page = Effect.map(McpAppsHost.readApp("ui://weather/view.html"), (app) => ({
 *   srcdoc: app.html,
 *   connectSrc: app.meta?.csp?.connectDomains ?? []
 * }))
 * ```
 * @since 0.1.0
 * @category reading
 */
export const readApp = (
  uri: string,
  listing?: McpSchema.Resource
): Effect.Effect<App, AppError | ClientError, McpClient> =>
  Effect.flatMap(McpClient, (client) =>
    Effect.flatMap(client.readResource(uri), (result) => {
      const item = result.contents.find((c): c is McpSchema.TextResourceContents =>
        "text" in c && c.mimeType === Apps.RESOURCE_MIME_TYPE
      )
      if (item === undefined) {
        return Effect.fail(
          new AppError({ reason: "NotAnApp", uri, message: `${uri} has no ${Apps.RESOURCE_MIME_TYPE} text content` })
        )
      }
      return Effect.succeed({ uri, html: item.text, meta: resourceMetaOf(item) ?? resourceMetaOf(listing) })
    }))

// ============================================================================
// the bridge
// ============================================================================

/**
 * What a host tells an app it can do (`McpUiHostCapabilities`'s server part): proxying the
 * server's tools and resources.
 * @since 0.1.0
 * @category bridge
 */
export interface HostCapabilities {
  readonly serverTools?: { readonly listChanged?: boolean }
  readonly serverResources?: { readonly listChanged?: boolean }
}

/**
 * The host capabilities `connectBridge` serves for `client`: `serverTools` and
 * `serverResources` when the server has tools and resources (their `listChanged` as it
 * declared); spread them into the `AppBridge`'s own (`message`, `openLinks`, …).
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * const hostCapabilities = Effect.map(McpClient.McpClient, (client) => ({
 *   ...McpAppsHost.hostCapabilities(client),
 *   message: { text: {} }
 * }))
 * ```
 * @since 0.1.0
 * @category bridge
 */
export const hostCapabilities = (client: McpClientShape): HostCapabilities => {
  const { resources, tools } = client.serverCapabilities
  return {
    ...(tools !== undefined ? { serverTools: tools.listChanged === true ? { listChanged: true } : {} } : {}),
    ...(resources !== undefined ? { serverResources: resources.listChanged === true ? { listChanged: true } : {} } : {})
  }
}

/** What a bridge handler is given besides its params: the app's request, its abort signal. */
interface BridgeExtra {
  readonly mcpReq?: { readonly signal?: AbortSignal | undefined } | undefined
}

type Params = { readonly [key: string]: unknown } | undefined

/**
 * A handler of the app's requests. Declared as a method's type so its parameters are compared
 * both ways: an `AppBridge`'s handlers, typed with the official SDK's params, fit.
 */
/** A tool result as the bridge sends it to the app (the official SDK's `CallToolResult`, loosely). */
interface ToolResultParams {
  readonly content: ReadonlyArray<unknown>
  readonly structuredContent?: unknown
  readonly isError?: boolean | undefined
  readonly _meta?: Params
}

type BridgeHandler<P> = { handle(params: P, extra: BridgeExtra): Promise<unknown> }["handle"]

/**
 * The part of an ext-apps `AppBridge` (`@modelcontextprotocol/ext-apps/app-bridge`) that this
 * module drives: the setters of the handlers of the app's requests to the server, the senders
 * of list changes, and those of a tool call's input and result. An `AppBridge` is one as it is
 * (the results given its handlers are the server's, as it sent them).
 * @since 0.1.0
 * @category bridge
 */
export interface AppBridgeLike {
  oncalltool?: BridgeHandler<{ readonly name: string; readonly arguments?: Params; readonly _meta?: Params }> | undefined
  onlistresources?: BridgeHandler<Params> | undefined
  onlistresourcetemplates?: BridgeHandler<Params> | undefined
  onreadresource?: BridgeHandler<{ readonly uri: string; readonly _meta?: Params }> | undefined
  onlistprompts?: BridgeHandler<Params> | undefined
  sendToolListChanged(): Promise<void>
  sendResourceListChanged(): Promise<void>
  sendPromptListChanged(): Promise<void>
  sendToolInput(params: { readonly arguments?: { readonly [key: string]: unknown } }): Promise<void>
  sendToolResult(params: ToolResultParams): Promise<void>
  sendToolCancelled(params: { readonly reason?: string }): Promise<void>
}

/** The app called a tool it may not (not listed, or its visibility leaves the app out): -32602, as an unknown tool. */
const notForTheApp = (name: string): McpError =>
  new McpError({ code: -32602, message: `Tool ${name} is not callable from the app`, method: "tools/call" })

/** The rejection a bridge turns into the app's JSON-RPC error: the server's own (`code`, `message`, `data`), else a message. */
const rejection = (error: ClientError): { readonly code: number; readonly message: string; readonly data?: unknown } =>
  error._tag === "McpError" ? error.toObject() : { code: -32603, message: error.message }

/**
 * Wires `bridge` (an ext-apps `AppBridge` made with no client: `new AppBridge(null, hostInfo,
 * hostCapabilities)`) to the `McpClient` in context, for the life of the scope: the app's
 * `tools/call` (through `callTool`, its `_meta` kept; a tool whose visibility leaves the app
 * out, or not listed, is refused -32602, as the spec asks of hosts), `resources/list`,
 * `resources/templates/list`, `resources/read` and `prompts/list` go to the server, for what
 * the server offers (as `AppBridge` does with an official `Client`); an error the server
 * answers reaches the app as it was (code, message, data), and the app's cancellation
 * interrupts the call. The client's list-change notifications are passed on to the app. Call
 * it before `bridge.connect(transport)`; the app's other requests (`ui/message`,
 * `ui/open-link`, …) stay the host's own (`bridge.onmessage = …`).
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as Effect from "effect/Effect"
 *
 * // import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge"
 * declare const bridge: McpAppsHost.AppBridgeLike & { connect(transport: unknown): Promise<void> }
 * declare const transport: unknown // new PostMessageTransport(iframe.contentWindow, iframe.contentWindow)
 *
 * const host = Effect.gen(function*() {
 *   yield* McpAppsHost.connectBridge(bridge)
 *   yield* Effect.promise(() => bridge.connect(transport))
 * })
 * // Effect<void, never, McpClient | Scope>
 * ```
 * @since 0.1.0
 * @category bridge
 */
export const connectBridge = (bridge: AppBridgeLike): Effect.Effect<void, never, McpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const client = yield* McpClient
    const context = yield* Effect.context<never>()
    const run = <A>(effect: Effect.Effect<A, ClientError>, extra: BridgeExtra): Promise<A> =>
      Effect.runPromiseExitWith(context)(effect, { signal: extra.mcpReq?.signal }).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const error = Cause.findErrorOption(exit.cause)
        // the bridge answers the app with what it is thrown: a JSON-RPC error object
        throw Option.isSome(error) ? rejection(error.value) : { code: -32603, message: "The host's call did not complete" }
      })
    const listPage = (method: string) => (params: Params, extra: BridgeExtra) => run(client.request(method, params), extra)
    const { prompts, resources, tools } = client.serverCapabilities
    // the tools the app may call (their visibility includes "app"), listed at the first call, again after a list change
    const [appTools, relist] = yield* Effect.cachedInvalidateWithTTL(
      Effect.map(client.listToolsAll(), (listed) => new Set(listed.filter((t) => visibility(t).includes("app")).map((t) => t.name))),
      (exit) => Exit.isSuccess(exit) ? Duration.infinity : Duration.zero
    )
    if (tools !== undefined) {
      bridge.oncalltool = (params, extra) =>
        run(
          Effect.flatMap(appTools, (callable) =>
            callable.has(params.name)
              ? client.callTool(params.name, params.arguments, params._meta !== undefined ? { _meta: params._meta } : {})
              : Effect.fail(notForTheApp(params.name))),
          extra
        )
    }
    if (resources !== undefined) {
      bridge.onlistresources = listPage("resources/list")
      bridge.onlistresourcetemplates = listPage("resources/templates/list")
      bridge.onreadresource = (params, extra) => run(client.request("resources/read", params), extra)
    }
    if (prompts !== undefined) bridge.onlistprompts = listPage("prompts/list")
    const forward = (changes: Stream.Stream<void>, send: () => Promise<void>) =>
      Effect.forkScoped(Stream.runForEach(changes, () => Effect.ignore(Effect.tryPromise(send))))
    if (tools?.listChanged === true) {
      yield* forward(Stream.tap(client.toolListChanged, () => relist), () => bridge.sendToolListChanged())
    }
    if (resources?.listChanged === true) yield* forward(client.resourceListChanged, () => bridge.sendResourceListChanged())
    if (prompts?.listChanged === true) yield* forward(client.promptListChanged, () => bridge.sendPromptListChanged())
  })

/**
 * Calls a tool for the app shown with it: sends the app the arguments
 * (`ui/notifications/tool-input`), calls the tool through the `McpClient` in context, and sends
 * the app the result (`ui/notifications/tool-result`), which it returns too. A call that fails
 * or is interrupted sends `ui/notifications/tool-cancelled` (the spec's rule for a host) and
 * fails as it did.
 *
 * @example
 * ```ts
 * import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
 * import * as Effect from "effect/Effect"
 *
 * declare const bridge: McpAppsHost.AppBridgeLike // an AppBridge, connected to the app's iframe
 *
 * const shown = McpAppsHost.callTool(bridge, "sales_chart", { region: "eu" })
 * // Effect<McpClient.CallToolResult, ClientError, McpClient>: the app drew it; the model reads it
 * ```
 * @since 0.1.0
 * @category bridge
 */
export const callTool = (
  bridge: AppBridgeLike,
  name: string,
  args: { readonly [key: string]: unknown } = {}
): Effect.Effect<CallToolResult, ClientError, McpClient> =>
  Effect.gen(function*() {
    const client = yield* McpClient
    yield* Effect.promise(() => bridge.sendToolInput({ arguments: args }))
    const result = yield* client.callTool(name, args).pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit)
          ? Effect.void
          : Effect.ignore(Effect.tryPromise(() =>
            bridge.sendToolCancelled({ reason: Exit.hasInterrupts(exit) ? "interrupted" : "the call failed" })
          ))
      )
    )
    yield* Effect.promise(() => bridge.sendToolResult(result))
    return result
  })
