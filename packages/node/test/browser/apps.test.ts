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
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium } from "playwright-core"
import type { AppReport } from "./apps/app.js"
import type { HostReport } from "./apps/host.js"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const here = path.dirname(fileURLToPath(import.meta.url))

const bundle = (entry: string, splitting: boolean) =>
  Effect.promise(() =>
    esbuild.build({
      entryPoints: { [entry]: path.join(here, "apps", `${entry}.ts`) },
      outdir: "/out",
      bundle: true,
      splitting,
      format: "esm",
      platform: "browser",
      target: "es2022",
      conditions: ["effect-mcp-source"],
      write: false,
      logLevel: "silent"
    })
  ).pipe(Effect.map((result) => new Map(result.outputFiles.map((f) => [f.path.slice("/out".length), f.text] as const))))

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

const pageServer = (scripts: ReadonlyMap<string, string>) =>
  http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://page")
    const script = scripts.get(url.pathname)
    if (script !== undefined) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" })
      return res.end(script)
    }
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      return res.end(`<!doctype html><html><head><script type="module" src="/host.js"></script></head><body></body></html>`)
    }
    res.writeHead(404).end()
  })

const listen = (server: http.Server) =>
  Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
    }),
    () =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const launch = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: CHROMIUM, headless: true })),
  (browser) => Effect.promise(() => browser.close())
)

/** Opens `pageUrl` and waits for the host's report (bounded). */
const visit = (browser: Browser, pageUrl: string) =>
  Effect.acquireUseRelease(
    Effect.promise(() => browser.newPage()),
    (page) =>
      Effect.promise(async () => {
        const logs: Array<string> = []
        page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`))
        page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`))
        const report = new Promise<HostReport>((resolve) => {
          void page.exposeFunction("mcpReport", (json: string) => resolve(JSON.parse(json) as HostReport))
        })
        await page.goto(pageUrl)
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no report from ${pageUrl} in 20 s; page said:\n${logs.join("\n")}`)), 20_000)
        )
        return { report: await Promise.race([report, timeout]), logs }
      }),
    (page) => Effect.promise(() => page.close())
  )

describe("MCP Apps in headless Chromium: our server's app, rendered by a host on our client and by the official one", () => {
  it.live("the app gets the tool's input and result, calls a tool through the host, and its message reaches the host", () =>
    Effect.gen(function*() {
      if (!fs.existsSync(CHROMIUM)) {
        return assert.fail(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`)
      }
      const appScript = (yield* bundle("app", false)).get("/app.js")!
      // inlined in a <script>: the bundle must not end it early
      assert.notInclude(appScript, "</script", "the app's bundle closes its script element")
      const html = `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="chart"></div>` +
        `<script type="module">${appScript}</script></body></html>`
      const scripts = yield* bundle("host", true)
      const pagePort = yield* listen(pageServer(scripts))
      const origin = `http://127.0.0.1:${pagePort}`
      const port = yield* startServer(origin, html)
      const serverUrl = `http://127.0.0.1:${port}/mcp`
      const browser = yield* launch

      const hosts = [["ours", "2025"], ["ours", "2026-07-28"], ["official", "2025"], ["official", "2026-07-28"]] as const
      for (const [host, era] of hosts) {
        const label = `${host} host, ${era}`
        const pageUrl = `${origin}/?server=${encodeURIComponent(serverUrl)}&host=${host}&era=${era}`
        const { logs, report } = yield* visit(browser, pageUrl)
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
