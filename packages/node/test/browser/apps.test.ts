/**
 * MCP Apps in a real browser (`pnpm test:browser`): headless Chromium loads a host page
 * (`apps/host.ts`, bundled with esbuild) from one origin, and the host talks to our MCP server
 * (`NodeStreamableHttp`) on another. The server publishes an app (`McpApps.resource`: a `ui://`
 * page holding the ext-apps `App` of `apps/app.ts`, bundled and inlined) and links a tool to it
 * (`McpApps.tool`, with a text fallback) and an app-only tool. The host renders the app in a
 * sandboxed iframe, gives it the tool's input and result, and the app calls `refresh` through
 * the host and reports in a `ui/message`: on our `McpClient` with `McpAppsHost.connectBridge`
 * and on the official `Client` with its own `AppBridge(client)` forwarding, each in both eras.
 *
 * `CHROMIUM_PATH` names another Chromium (default `/usr/bin/chromium`).
 */
import { assert, describe, it } from "@effect/vitest"
import * as McpApps from "@effect-mcp/mcp/McpApps"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Effect from "effect/Effect"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { AppReport } from "./apps/app.js"
import type { HostReport } from "./apps/host.js"
import { bundle, CHROMIUM, launch, listen, pageServer, visit } from "./harness.js"

const here = path.dirname(fileURLToPath(import.meta.url))
const appsBundle = (entry: string, splitting: boolean) => bundle({ [entry]: path.join(here, "apps", `${entry}.ts`) }, splitting)

// ----------------------------------------------------------------------------
// the MCP server and its app
// ----------------------------------------------------------------------------

const CSP = { connectDomains: ["https://api.example.com"] }

const features = (html: string) => {
  const View = McpApps.resource({ uri: "ui://sales/chart.html", name: "sales chart", html, csp: CSP, prefersBorder: true })
  const Chart = McpApps.tool(
    McpServer.tool({
      name: "sales_chart",
      parameters: Schema.Struct({ region: Schema.String }),
      success: Schema.Struct({ region: Schema.String, total: Schema.Number }),
      handler: ({ region }) => Effect.succeed({ region, total: 8 })
    }),
    {
      resource: View,
      fallback: McpServer.tool({ name: "sales_chart", handler: () => Effect.succeed("total: 8") })
    }
  )
  const Refresh = McpApps.tool(
    McpServer.tool({
      name: "refresh",
      parameters: Schema.Struct({ n: Schema.Int }),
      handler: ({ n }) => Effect.succeed(`refreshed ${n} times`)
    }),
    { resource: View, visibility: ["app"] }
  )
  return McpServer.register(View, Chart, Refresh)
}

const startServer = (origin: string, html: string) =>
  Effect.gen(function*() {
    const layer = NodeStreamableHttp.layer({ port: 0, cors: { allowedOrigins: [origin] } }).pipe(
      Layer.provideMerge(features(html)),
      Layer.provideMerge(McpServer.layer({ name: "apps-test", version: "1.0.0" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    return "port" in server.address ? server.address.port : 0
  })

// ----------------------------------------------------------------------------
// the host page's origin, the browser
// ----------------------------------------------------------------------------

const HOST_PAGE = `<!doctype html><html><head><script type="module" src="/host.js"></script></head><body></body></html>`

describe("MCP Apps in headless Chromium: our server's app, rendered by a host on our client and by the official one", () => {
  it.live("the app gets the tool's input and result, calls a tool through the host, and its message reaches the host", () =>
    Effect.gen(function*() {
      if (!fs.existsSync(CHROMIUM)) {
        return assert.fail(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`)
      }
      const appScript = (yield* appsBundle("app", false)).get("/app.js")!
      // inlined in a <script>: the bundle must not end it early
      assert.notInclude(appScript, "</script", "the app's bundle closes its script element")
      const html = `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="chart"></div>` +
        `<script type="module">${appScript}</script></body></html>`
      const scripts = yield* appsBundle("host", true)
      const pagePort = yield* listen(pageServer(scripts, (pathname) => pathname === "/" ? { html: HOST_PAGE } : undefined))
      const origin = `http://127.0.0.1:${pagePort}`
      const port = yield* startServer(origin, html)
      const serverUrl = `http://127.0.0.1:${port}/mcp`
      const browser = yield* launch

      const hosts = [["ours", "2025"], ["ours", "2026-07-28"], ["official", "2025"], ["official", "2026-07-28"]] as const
      for (const [host, era] of hosts) {
        const label = `${host} host, ${era}`
        const pageUrl = `${origin}/?server=${encodeURIComponent(serverUrl)}&host=${host}&era=${era}`
        const { logs, report } = yield* visit<HostReport>(browser, pageUrl)
        assert.isUndefined(report.error, `${label}: ${report.error}\n${logs.join("\n")}`)
        // the host declared the extension: it was served the app tool, both _meta keys
        assert.deepStrictEqual(report.toolMeta, {
          ui: { resourceUri: "ui://sales/chart.html" },
          "ui/resourceUri": "ui://sales/chart.html"
        }, label)
        assert.deepStrictEqual(report.appMeta, { csp: CSP, prefersBorder: true }, label)
        // our host leaves the app-only tool out of the model's tools
        assert.deepStrictEqual(report.tools, host === "ours" ? ["sales_chart"] : ["sales_chart", "refresh"], label)
        // our client names the era; the official one the version it negotiated
        assert.strictEqual(report.era, host === "ours" ? (era === "2025" ? "2025" : "2026") : (era === "2025" ? "2025-11-25" : era), label)
        const message = report.message as AppReport
        assert.deepStrictEqual(message, {
          input: { region: "eu" },
          result: { region: "eu", total: 8 },
          refreshed: "refreshed 2 times",
          hostName: "effect-host"
        }, `${label}\n${logs.join("\n")}`)
      }
    }).pipe(Effect.scoped), 90_000)
})
