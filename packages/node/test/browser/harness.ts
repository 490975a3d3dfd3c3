/**
 * What the browser suites share (`pnpm test:browser`): Debian's Chromium (or `CHROMIUM_PATH`),
 * pages bundled with esbuild, a page's origin served by `node:http` on 127.0.0.1, and a visit that
 * waits for the page's report (it calls `window.mcpReport(json)` once).
 */
import * as Effect from "effect/Effect"
import * as esbuild from "esbuild"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { type Browser, chromium } from "playwright-core"

/** The Chromium the suites drive. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** `entries` (name → file) bundled for the browser: each output's text by its path (`/name.js`, chunks). */
export const bundle = (entries: Readonly<Record<string, string>>, splitting: boolean) =>
  Effect.promise(() =>
    esbuild.build({
      entryPoints: entries,
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

/** A page's origin: `scripts` by path, and the HTML `page(pathname)` gives (404 where it gives none). */
export const pageServer = (
  scripts: ReadonlyMap<string, string>,
  page: (pathname: string) => { readonly html: string; readonly headers?: http.OutgoingHttpHeaders } | undefined
) =>
  http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://page")
    const script = scripts.get(url.pathname)
    if (script !== undefined) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" })
      return res.end(script)
    }
    const html = page(url.pathname)
    if (html === undefined) return res.writeHead(404).end()
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...html.headers })
    res.end(html.html)
  })

/** `server` listening on 127.0.0.1:0 for the scope: its port. */
export const listen = (server: http.Server) =>
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

/** A headless Chromium for the scope. */
export const launch = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: CHROMIUM, headless: true })),
  (browser) => Effect.promise(() => browser.close())
)

/** Opens `pageUrl` in a new page and waits for its report (at most 20 s), with what the page logged. */
export const visit = <Report>(browser: Browser, pageUrl: string) =>
  Effect.acquireUseRelease(
    Effect.promise(() => browser.newPage()),
    (page) =>
      Effect.promise(async () => {
        const logs: Array<string> = []
        page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`))
        page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`))
        const report = new Promise<Report>((resolve) => {
          void page.exposeFunction("mcpReport", (json: string) => resolve(JSON.parse(json) as Report))
        })
        await page.goto(pageUrl)
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`no report from ${pageUrl} in 20 s; page said:\n${logs.join("\n")}`)), 20_000)
        )
        return { report: await Promise.race([report, timeout]), logs }
      }),
    (page) => Effect.promise(() => page.close())
  )
