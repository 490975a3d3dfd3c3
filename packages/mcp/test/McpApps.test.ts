/**
 * MCP Apps (`io.modelcontextprotocol/ui`) both sides, both eras, client and server on memory
 * pairs: what the server publishes (the app resource's MIME type and `_meta.ui` on its listing
 * and its content item; a linked tool's `_meta.ui` and legacy `_meta["ui/resourceUri"]`), the
 * per-client variants (the app tool to a host that declared the extension, the text fallback to
 * the others, an app-only tool hidden from them; on 2026 by each request's envelope), what a
 * handler reads (`clientRendersApps`), and the host side: `readApp`, `modelTools`, and
 * `connectBridge` driving a bridge's handlers (results, the server's error codes, list changes).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as McpApps from "@effect-mcp/mcp/McpApps"
import * as McpAppsHost from "@effect-mcp/mcp/McpAppsHost"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as Transport from "@effect-mcp/mcp/Transport"
import { buildServer, connect, serve, settle } from "./utils/wire.js"

const HTML = `<!doctype html><html><body><div id="app"></div></body></html>`

const View = McpApps.resource({
  uri: "ui://sales/chart.html",
  name: "sales chart",
  description: "A chart of sales",
  html: HTML,
  csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] },
  permissions: { clipboardWrite: {} },
  domain: "sales.example-sandbox.com",
  prefersBorder: false
})

const UI_META = {
  csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] },
  permissions: { clipboardWrite: {} },
  domain: "sales.example-sandbox.com",
  prefersBorder: false
}

const Sales = Schema.Struct({ total: Schema.Number })

const Chart = McpApps.tool(
  McpServer.tool({ name: "sales_chart", description: "Sales, drawn", success: Sales, handler: () => Effect.succeed({ total: 8 }) }),
  {
    resource: View,
    fallback: McpServer.tool({ name: "ignored", description: "Sales, as text", handler: () => Effect.succeed("total: 8") })
  }
)

/** Only the app calls it: hidden from hosts without apps. */
const Refresh = McpApps.tool(
  McpServer.tool({ name: "refresh", handler: () => Effect.succeed("refreshed") }),
  { resource: "ui://sales/chart.html", visibility: ["app"] }
)

/** No fallback: every client lists it, `_meta.ui` and all. */
const Plain = McpApps.tool(
  McpServer.tool({
    name: "who",
    handler: () => Effect.map(McpApps.clientRendersApps, (apps) => apps ? "a host with apps" : "a text host")
  }),
  { resource: View }
)

/** Only the model calls it: the host refuses it to the app. */
const ModelOnly = McpApps.tool(
  McpServer.tool({ name: "model_only", handler: () => Effect.succeed("model") }),
  { resource: View, visibility: ["model"] }
)

const ERAS = ["2025", "2026-07-28"] as const

const setup = (era: (typeof ERAS)[number], apps: boolean) =>
  Effect.gen(function*() {
    const server = yield* buildServer(McpServer.register(View, Chart, Refresh, Plain, ModelOnly))
    const { client } = yield* connect(server, {
      client: { era, ...(apps ? { capabilities: McpAppsHost.capabilities } : {}) }
    })
    return { server, client }
  })

const textOf = (result: McpClient.CallToolResult) => {
  const first = result.content[0]
  return first !== undefined && first.type === "text" ? first.text : undefined
}

describe("McpApps server", () => {
  for (const era of ERAS) {
    it.effect(`${era}: the app resource, its MIME type and _meta.ui on the listing and the content item`, () =>
      Effect.gen(function*() {
        const { client } = yield* setup(era, true)
        const [listed] = yield* client.listResourcesAll()
        assert.deepStrictEqual(listed, {
          uri: "ui://sales/chart.html",
          name: "sales chart",
          description: "A chart of sales",
          mimeType: "text/html;profile=mcp-app",
          _meta: { ui: UI_META }
        })
        const read = yield* client.readResource("ui://sales/chart.html")
        assert.deepStrictEqual(read.contents, [{
          uri: "ui://sales/chart.html",
          mimeType: "text/html;profile=mcp-app",
          text: HTML,
          _meta: { ui: UI_META }
        }])
        const app = yield* McpAppsHost.readApp("ui://sales/chart.html").pipe(Effect.provideService(McpClient.McpClient, client))
        assert.deepStrictEqual(app, { uri: "ui://sales/chart.html", html: HTML, meta: UI_META })
      }).pipe(Effect.scoped))

    it.effect(`${era}: a host with apps lists the app tools (_meta.ui and the legacy key) and calls the app variant`, () =>
      Effect.gen(function*() {
        const { client } = yield* setup(era, true)
        const tools = yield* client.listToolsAll()
        assert.deepStrictEqual(tools.map((t) => t.name), ["sales_chart", "refresh", "who", "model_only"])
        const chart = tools[0]!
        assert.strictEqual(chart.description, "Sales, drawn")
        assert.deepStrictEqual(chart._meta, {
          ui: { resourceUri: "ui://sales/chart.html" },
          "ui/resourceUri": "ui://sales/chart.html"
        })
        assert.isDefined(chart.outputSchema)
        assert.deepStrictEqual(tools[1]!._meta, {
          ui: { resourceUri: "ui://sales/chart.html", visibility: ["app"] },
          "ui/resourceUri": "ui://sales/chart.html"
        })
        assert.deepStrictEqual(tools.map(McpAppsHost.resourceUri), Array(4).fill("ui://sales/chart.html"))
        assert.deepStrictEqual(McpAppsHost.modelTools(tools).map((t) => t.name), ["sales_chart", "who", "model_only"])
        const called = yield* client.callTool("sales_chart")
        assert.deepStrictEqual(called.structuredContent, { total: 8 })
        assert.strictEqual(textOf(yield* client.callTool("refresh")), "refreshed")
        assert.strictEqual(textOf(yield* client.callTool("who")), "a host with apps")
      }).pipe(Effect.scoped))

    it.effect(`${era}: a host without apps lists the text fallback, no app-only tool, and calls the fallback`, () =>
      Effect.gen(function*() {
        const { client } = yield* setup(era, false)
        const tools = yield* client.listToolsAll()
        assert.deepStrictEqual(tools.map((t) => t.name), ["sales_chart", "who", "model_only"])
        // the fallback's definition, under the app tool's name
        assert.deepStrictEqual(tools[0], { name: "sales_chart", description: "Sales, as text", inputSchema: { type: "object", properties: {} } })
        // no fallback: the app tool as it is
        assert.strictEqual(McpAppsHost.resourceUri(tools[1]!), "ui://sales/chart.html")
        const called = yield* client.callTool("sales_chart")
        assert.strictEqual(textOf(called), "total: 8")
        assert.isUndefined(called.structuredContent)
        assert.strictEqual(textOf(yield* client.callTool("who")), "a text host")
        const refused = yield* Effect.flip(client.callTool("refresh"))
        assert.strictEqual(refused._tag === "McpError" ? refused.code : undefined, -32602)
      }).pipe(Effect.scoped))
  }

  it.effect("2025: the server reads the extension from initialize (the 2025 capabilities keep `extensions`)", () =>
    Effect.gen(function*() {
      const { server } = yield* setup("2025", true)
      const [session] = yield* server.sessions
      assert.deepStrictEqual(session!.clientCapabilities(), McpAppsHost.capabilities)
      assert.isTrue(McpApps.rendersApps(session!.clientCapabilities()))
      assert.deepStrictEqual(McpApps.uiCapability(session!.clientCapabilities()), { mimeTypes: ["text/html;profile=mcp-app"] })
    }).pipe(Effect.scoped))

  it.effect("2026-07-28: a tools/list that differs by client is private, whatever the server's hint", () =>
    Effect.gen(function*() {
      const hints = { "tools/list": { ttlMs: 60_000, cacheScope: "public" as const } }
      const plain = yield* buildServer(McpServer.register(McpServer.tool({ name: "t", handler: () => Effect.succeed("") })), { cacheHints: hints })
      const varied = yield* buildServer(McpServer.register(View, Chart), { cacheHints: hints })
      const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }
      for (const [server, scope] of [[plain, "public"], [varied, "private"]] as const) {
        // the raw answer: the client keeps the hint to itself
        const pair = yield* serve(server)
        const answer = yield* Transport.incoming(pair.client).pipe(Stream.take(1), Stream.runHead, Effect.forkScoped)
        yield* pair.client.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta } })
        const listed = Option.getOrThrow(yield* Fiber.join(answer)) as { readonly result: object }
        assert.deepInclude(listed.result, { ttlMs: 60_000, cacheScope: scope })
      }
    }).pipe(Effect.scoped))

  it("rendersApps wants the app MIME type in the extension's mimeTypes", () => {
    assert.isFalse(McpApps.rendersApps(undefined))
    assert.isFalse(McpApps.rendersApps({ extensions: { [McpApps.EXTENSION_ID]: {} } }))
    assert.isFalse(McpApps.rendersApps({ extensions: { [McpApps.EXTENSION_ID]: { mimeTypes: ["text/html"] } } }))
    assert.isTrue(McpApps.rendersApps(McpAppsHost.capabilities))
  })
})

/** A bridge as `connectBridge` sees it, recording the list changes it is told to send. */
const fakeBridge = () => {
  const sent: Array<string> = []
  const bridge: McpAppsHost.AppBridgeLike = {
    sendToolListChanged: () => Promise.resolve(void sent.push("tools")),
    sendResourceListChanged: () => Promise.resolve(void sent.push("resources")),
    sendPromptListChanged: () => Promise.resolve(void sent.push("prompts")),
    sendToolInput: (params) => Promise.resolve(void sent.push(`input ${JSON.stringify(params.arguments)}`)),
    sendToolResult: (params) => Promise.resolve(void sent.push(`result ${JSON.stringify(params.structuredContent ?? params.content)}`)),
    sendToolCancelled: (params) => Promise.resolve(void sent.push(`cancelled ${params.reason}`))
  }
  return { bridge, sent }
}

describe("McpAppsHost.connectBridge", () => {
  for (const era of ERAS) {
    it.effect(`${era}: the app's tools/call, resources/list and resources/read reach the server; its errors keep their code`, () =>
      Effect.gen(function*() {
        const { client } = yield* setup(era, true)
        const { bridge } = fakeBridge()
        yield* McpAppsHost.connectBridge(bridge).pipe(Effect.provideService(McpClient.McpClient, client))
        assert.deepStrictEqual(McpAppsHost.hostCapabilities(client), { serverTools: { listChanged: true }, serverResources: { listChanged: true } })
        const called = yield* Effect.promise(() => bridge.oncalltool!({ name: "sales_chart", arguments: {} }, {}))
        assert.deepStrictEqual((called as McpClient.CallToolResult).structuredContent, { total: 8 })
        const listed = yield* Effect.promise(() => bridge.onlistresources!({}, {}))
        assert.deepStrictEqual((listed as { resources: ReadonlyArray<{ uri: string }> }).resources.map((r) => r.uri), ["ui://sales/chart.html"])
        const read = yield* Effect.promise(() => bridge.onreadresource!({ uri: "ui://sales/chart.html" }, {}))
        assert.strictEqual((read as { contents: ReadonlyArray<{ text: string }> }).contents[0]!.text, HTML)
        const appOnly = yield* Effect.promise(() => bridge.oncalltool!({ name: "refresh" }, {}))
        assert.strictEqual(textOf(appOnly as McpClient.CallToolResult), "refreshed")
        // the spec's rule for hosts: a tool whose visibility leaves the app out is refused to it, as is one not listed
        const refusal = (name: string) =>
          Effect.promise(() => bridge.oncalltool!({ name }, {}).then(() => undefined, (e: unknown) => e))
        assert.deepStrictEqual(yield* refusal("model_only"), { code: -32602, message: "Tool model_only is not callable from the app" })
        assert.deepStrictEqual(yield* refusal("nope"), { code: -32602, message: "Tool nope is not callable from the app" })
        // a server's error reaches the app as the server sent it
        const invalid = yield* Effect.promise(() => bridge.onreadresource!({ uri: "ui://none" }, {}).then(() => undefined, (e: unknown) => e))
        // (2026-07-28 answers an unknown resource -32602, 2025 -32002)
        assert.deepInclude(invalid as object, { code: era === "2025" ? -32002 : -32602 })
      }).pipe(Effect.scoped))
  }

  for (const era of ERAS) {
    it.effect(`${era}: callTool sends the app the input and the result; a failed call sends tool-cancelled`, () =>
      Effect.gen(function*() {
        const { client } = yield* setup(era, true)
        const { bridge, sent } = fakeBridge()
        const provide = Effect.provideService(McpClient.McpClient, client)
        const result = yield* McpAppsHost.callTool(bridge, "sales_chart", { region: "eu" }).pipe(provide)
        assert.deepStrictEqual(result.structuredContent, { total: 8 })
        assert.deepStrictEqual(sent, [`input {"region":"eu"}`, `result {"total":8}`])
        sent.length = 0
        yield* Effect.flip(McpAppsHost.callTool(bridge, "nope").pipe(provide))
        assert.deepStrictEqual(sent, ["input {}", "cancelled the call failed"])
      }).pipe(Effect.scoped))
  }

  it.live("2025: a tool added on the server reaches the app as tools/list_changed, and the app may call it", () =>
    Effect.gen(function*() {
      const { client, server } = yield* setup("2025", true)
      const { bridge, sent } = fakeBridge()
      yield* McpAppsHost.connectBridge(bridge).pipe(Effect.provideService(McpClient.McpClient, client))
      yield* settle
      const call = (name: string) =>
        Effect.promise(() => bridge.oncalltool!({ name }, {}).then((r) => textOf(r as McpClient.CallToolResult), (e: { message: string }) => e.message))
      assert.strictEqual(yield* call("late"), "Tool late is not callable from the app")
      yield* server.add([McpServer.tool({ name: "late", handler: () => Effect.succeed("late") })], yield* Effect.context<never>())
      for (let i = 0; i < 100 && !sent.includes("tools"); i++) yield* Effect.sleep("10 millis")
      assert.include(sent, "tools")
      // the host listed the tools again: the new one (visible to the app by default) is callable
      assert.strictEqual(yield* call("late"), "late")
    }).pipe(Effect.scoped))
})
