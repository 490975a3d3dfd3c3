/**
 * The host page of the apps browser test (`apps.test.ts`), bundled with esbuild and loaded by
 * headless Chromium from its own origin. `?host=ours`: a host on our `McpClient` (in the era
 * `?era=` names) declaring the UI extension (`McpAppsHost.capabilities`), which finds the tool's
 * app (`McpAppsHost.resourceUri`), reads its page (`McpAppsHost.readApp`), renders it in a
 * sandboxed iframe (`srcdoc`, `allow-scripts` only: an opaque origin) and bridges it with an
 * ext-apps `AppBridge` wired to the client by `McpAppsHost.connectBridge`. `?host=official`: the
 * same with the official `Client` (2026-07-28 pinned when `?era=` names it) and
 * `new AppBridge(client, …)`, which forwards on its own.
 * Both call the tool, give the app its input and result, and report the app's `ui/message`
 * through `mcpReport` (a Playwright binding).
 */
import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as StreamableHttpClient from "@effect-mcp/mcp/StreamableHttpClient"
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as Layer from "effect/Layer"

/** What the host page reports. */
export interface HostReport {
  readonly host: "ours" | "official"
  /** The tools the host listed, and the app tool's `_meta`. */
  readonly tools?: ReadonlyArray<string>
  readonly toolMeta?: unknown
  /** The page's `_meta.ui` (CSP and the rest) as the host read it. */
  readonly appMeta?: unknown
  /** The app's `ui/message`, its text parsed. */
  readonly message?: unknown
  readonly era?: string
  readonly error?: string
}

interface PageGlobals {
  readonly location: { readonly search: string }
  readonly document: {
    readonly body: { append(node: unknown): void }
    createElement(tag: "iframe"): {
      setAttribute(name: string, value: string): void
      srcdoc: string
      readonly contentWindow: ConstructorParameters<typeof PostMessageTransport>[0] | null
    }
  }
  readonly mcpReport: (json: string) => Promise<void>
}
const page = globalThis as unknown as PageGlobals

const HOST_INFO = { name: "effect-host", version: "1.0.0" }
const ARGS = { region: "eu" }

/** The app's page in a sandboxed iframe (scripts only, no same origin), and a transport to it. */
const frame = (html: string) => {
  const iframe = page.document.createElement("iframe")
  iframe.setAttribute("sandbox", "allow-scripts")
  iframe.srcdoc = html
  page.document.body.append(iframe)
  const target = iframe.contentWindow!
  return new PostMessageTransport(target, target)
}

/** The app's `ui/message`, as the test reads it: its first text block, parsed. */
const messageOf = (params: { readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }> }) => {
  const first = params.content[0]
  return first?.type === "text" && first.text !== undefined ? JSON.parse(first.text) as unknown : params
}

const ours = (url: string, era: "2025" | "2026-07-28") => {
  const ClientLive = McpClient.layer({ name: "effect-host", version: "1.0.0", era, capabilities: McpAppsHost.capabilities }).pipe(
    Layer.provide(StreamableHttpClient.layer({ url })),
    Layer.provide(FetchHttpClient.layer)
  )
  return Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    const tools = yield* client.listToolsAll()
    const tool = tools.find((t) => t.name === "sales_chart")!
    const app = yield* McpAppsHost.readApp(McpAppsHost.resourceUri(tool)!)
    const message = yield* Deferred.make<unknown>()
    const initialized = yield* Deferred.make<void>()
    const bridge = new AppBridge(null, HOST_INFO, { ...McpAppsHost.hostCapabilities(client), message: { text: {} } })
    bridge.onmessage = (params) => Promise.resolve(Deferred.doneUnsafe(message, Effect.succeed(messageOf(params)))).then(() => ({}))
    bridge.oninitialized = () => Deferred.doneUnsafe(initialized, Effect.void)
    yield* McpAppsHost.connectBridge(bridge)
    const transport = frame(app.html)
    yield* Effect.promise(() => bridge.connect(transport))
    yield* Deferred.await(initialized)
    yield* McpAppsHost.callTool(bridge, "sales_chart", ARGS)
    return {
      host: "ours" as const,
      era: client.era,
      tools: McpAppsHost.modelTools(tools).map((t) => t.name),
      toolMeta: tool._meta,
      appMeta: app.meta,
      message: yield* Deferred.await(message)
    }
  }).pipe(Effect.provide(ClientLive), Effect.scoped)
}

const official = async (url: string, era: "2025" | "2026-07-28"): Promise<HostReport> => {
  const client = new Client(HOST_INFO, {
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
    ...(era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {})
  })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  try {
    const { tools } = await client.listTools()
    const tool = tools.find((t) => t.name === "sales_chart")!
    const uri = McpAppsHost.resourceUri(tool)!
    const read = await client.readResource({ uri })
    const content = read.contents[0]!
    const html = "text" in content ? content.text : ""
    let resolveMessage: (value: unknown) => void = () => {}
    const message = new Promise<unknown>((resolve) => (resolveMessage = resolve))
    let resolveInitialized: () => void = () => {}
    const initialized = new Promise<void>((resolve) => (resolveInitialized = resolve))
    const bridge = new AppBridge(client, HOST_INFO, { serverTools: {}, serverResources: {}, message: { text: {} } })
    bridge.onmessage = async (params) => {
      resolveMessage(messageOf(params))
      return {}
    }
    bridge.oninitialized = () => resolveInitialized()
    await bridge.connect(frame(html))
    await initialized
    await bridge.sendToolInput({ arguments: ARGS })
    const result = await client.callTool({ name: "sales_chart", arguments: ARGS })
    await bridge.sendToolResult(result)
    return {
      host: "official",
      era: client.getNegotiatedProtocolVersion() ?? "?",
      tools: tools.map((t) => t.name),
      toolMeta: tool._meta,
      appMeta: content._meta?.ui,
      message: await message
    }
  } finally {
    await client.close()
  }
}

const main = async () => {
  const params = new URLSearchParams(page.location.search)
  const url = params.get("server") ?? ""
  const host = params.get("host") === "official" ? "official" : "ours"
  const era = params.get("era") === "2026-07-28" ? "2026-07-28" : "2025"
  let report: HostReport
  try {
    report = host === "ours" ? await Effect.runPromise(ours(url, era)) : await official(url, era)
  } catch (error) {
    report = { host, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
  await page.mcpReport(JSON.stringify(report))
}

void main()
