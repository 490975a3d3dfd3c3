/**
 * Our client in a real browser (`pnpm test:browser`, its own CI step): headless Chromium
 * (Debian's `chromium`, driven by `playwright-core`) loads a page (`page.ts`, bundled here with
 * esbuild) from one origin, a small `node:http` server on 127.0.0.1, and the page talks to our
 * MCP server (`NodeStreamableHttp`) on another origin: both eras, a tool call with progress,
 * sampling and elicitation answered in the page, output-schema validation (a wrong
 * `structuredContent` refused), and, in 2025, the session DELETEd on close (checked on the
 * server: the DELETE answered 2xx and no session is left). The same again under a strict CSP
 * (`script-src 'self'`, no `unsafe-eval`), where the page's `new Function` probe is blocked and
 * nothing else is. Then our client against the server's 2024-11-05 HTTP+SSE endpoint (the
 * fallback, over the legacy endpoints' CORS), and the official client (`officialPage.ts`,
 * `@modelcontextprotocol/client` 2.x) in both eras: a tool call with progress, and close (2025:
 * its DELETE answered 2xx).
 *
 * `CHROMIUM_PATH` names another Chromium (default `/usr/bin/chromium`).
 */
import { assert, describe, it } from "@effect/vitest"
import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as Effect from "effect/Effect"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { bundle, CHROMIUM, launch, listen, pageServer, visit } from "./harness.js"
import type { PageReport } from "./page.js"

const here = path.dirname(fileURLToPath(import.meta.url))

// ----------------------------------------------------------------------------
// the MCP server
// ----------------------------------------------------------------------------

const Steps = McpServer.tool({
  name: "steps",
  parameters: Schema.Struct({ n: Schema.Int }),
  handler: ({ n }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      for (let i = 1; i <= n; i++) yield* ctx.progress(i, { total: n })
      return `stepped ${n}`
    })
})

const Ask = McpServer.tool({
  name: "ask",
  parameters: Schema.Struct({ q: Schema.String }),
  handler: ({ q }) =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const answer = yield* ctx.sample({ messages: [{ role: "user", content: { type: "text", text: q } }], maxTokens: 20 })
      return Array.isArray(answer.content) ? "?" : `${answer.model}: ${(answer.content as McpSchema.TextContent).text}`
    })
})

const Confirm = McpServer.tool({
  name: "confirm",
  handler: () =>
    Effect.gen(function*() {
      const ctx = yield* HandlerContext
      const { name } = yield* ctx.elicit({ message: "who?", schema: Schema.Struct({ name: Schema.String }) })
      return `hello ${name}`
    })
})

const OUTPUT_SCHEMA = {
  type: "object",
  properties: { total: { type: "number" }, items: { type: "array", items: { type: "string" } } },
  required: ["total"]
} as const

/** A tool with an output schema, answering `structuredContent` as given. */
const shaped = (name: string, structuredContent: { readonly [key: string]: unknown }): McpServer.Tool => ({
  _tag: "Tool",
  name,
  definition: { name, inputSchema: { type: "object" }, outputSchema: OUTPUT_SCHEMA },
  call: () => Effect.succeed({ content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent })
})

const features = McpServer.register(
  Steps,
  Ask,
  Confirm,
  shaped("shaped_ok", { total: 2, items: ["a", "b"] }),
  shaped("shaped_bad", { total: "two" })
)

/** Our server on 127.0.0.1:0, its CORS allowing the page's `origin`: its port and its endpoint (to read its sessions). */
const startServer = (origin: string) => Effect.gen(function*() {
  const layer = NodeStreamableHttp.layer({ port: 0, legacySse: true, cors: { allowedOrigins: [origin] } }).pipe(
    Layer.provideMerge(features),
    Layer.provideMerge(McpServer.layer({ name: "browser-test", version: "1.0.0" }))
  )
  const context = yield* Layer.build(layer).pipe(Effect.orDie)
  const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
  const mcp = yield* StreamableHttpServer.StreamableHttpServer.pipe(Effect.provide(context))
  const port = "port" in server.address ? server.address.port : 0
  return { port, mcp }
})

/** A request the recorder passed on, and the status the server gave it. */
interface Seen {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly sessionId: string | undefined
}

/**
 * A transparent recorder in front of the server (the page talks to it as if to the server): every
 * request and answer passed on unchanged, headers included, so the preflights and the CORS headers
 * the browser sees are the server's own (`cors` above); it notes each request's method (a preflight
 * as `OPTIONS <requested method>`), the server's status and the session id sent.
 */
const recorder = (targetPort: number) => {
  const seen: Array<Seen> = []
  const server = http.createServer((req, res) => {
    const method = req.method === "OPTIONS" ? `OPTIONS ${req.headers["access-control-request-method"] ?? ""}` : req.method ?? ""
    const upstream = http.request(
      { host: "127.0.0.1", port: targetPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        seen.push({ method, path: (req.url ?? "").split("?")[0]!, status: answer.statusCode ?? 0, sessionId: req.headers["mcp-session-id"] as string | undefined })
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => res.destroy())
    res.on("close", () => upstream.destroy())
    req.pipe(upstream)
  })
  return { server, seen }
}

// ----------------------------------------------------------------------------
// the page's origin
// ----------------------------------------------------------------------------

const STRICT_CSP = "script-src 'self'"

/** The page of `pathname`: ours (`/`, `/csp` under the strict CSP) or the official client's (`/official`). */
const pageOf = (pathname: string) =>
  pathname === "/" || pathname === "/csp" || pathname === "/official"
    ? {
      html: `<!doctype html><html><head><script type="module" src="${pathname === "/official" ? "/official.js" : "/page.js"}"></script></head><body>mcp</body></html>`,
      headers: pathname === "/csp" ? { "content-security-policy": STRICT_CSP } : {}
    }
    : undefined

/**
 * The pages' scripts by path: `/page.js` and the chunks its dynamic `import()`s load (the validator,
 * the legacy transport), as an app ships them, and `/official.js`.
 */
const bundlePage = bundle({ page: path.join(here, "page.ts"), official: path.join(here, "officialPage.ts") }, true)

describe("our client and the official one in headless Chromium, page and server on two origins", () => {
  it.live("both eras, progress, sampling and elicitation in the page, output validation, DELETE on close; again under a strict CSP; the legacy fallback; the official client", () =>
    Effect.gen(function*() {
      if (!fs.existsSync(CHROMIUM)) {
        return assert.fail(`no Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`)
      }
      const scripts = yield* bundlePage
      // the validator is a chunk of its own, loaded from the page's origin when the first output schema is listed
      assert.isAbove(scripts.size, 1, "the page's bundle has no lazy chunk")
      const page = pageServer(scripts, pageOf)
      const pagePort = yield* listen(page)
      const origin = `http://127.0.0.1:${pagePort}`
      const { mcp, port } = yield* startServer(origin)
      const proxy = recorder(port)
      const proxyPort = yield* listen(proxy.server)
      const serverUrl = `http://127.0.0.1:${proxyPort}/mcp`
      const browser = yield* launch

      for (const csp of [false, true]) {
        for (const era of ["2025", "2026-07-28"] as const) {
          const label = `${era}${csp ? ", strict CSP" : ""}`
          proxy.seen.length = 0
          const pageUrl = `${origin}/${csp ? "csp" : ""}?server=${encodeURIComponent(serverUrl)}&era=${era}`
          const { logs, report } = yield* visit<PageReport>(browser, pageUrl)
          assert.isUndefined(report.error, `${label}: ${report.error}\n${logs.join("\n")}`)
          assert.strictEqual(report.era, era === "2025" ? "2025" : "2026", label)
          assert.deepStrictEqual(report.progress, [1, 2, 3], label)
          assert.strictEqual(report.steps, "stepped 3", label)
          assert.strictEqual(report.sampled, `page-model: page answers {"type":"text","text":"what is 2 + 2?"}`, label)
          assert.strictEqual(report.elicited, "hello page (who?)", label)
          assert.deepStrictEqual(report.shapedOk, { total: 2, items: ["a", "b"] }, label)
          assert.match(report.shapedBad ?? "", /^InvalidResult: Tool shaped_bad returned structuredContent that does not match/, label)
          // the CSP is in force (the probe is blocked), and nothing but the probe was
          assert.strictEqual(report.evalProbe, csp ? "blocked" : "allowed", label)
          assert.deepStrictEqual(report.violations.length, csp ? 1 : 0, `${label}: ${report.violations.join("; ")}`)
          // every preflight passed (the server's CORS: 204)
          const refused = proxy.seen.filter((s) => s.method.startsWith("OPTIONS") && s.status !== 204)
          assert.deepStrictEqual(refused, [], label)
          if (era === "2025") {
            const deletes = proxy.seen.filter((s) => s.method === "DELETE")
            assert.strictEqual(deletes.length, 1, `${label}: ${JSON.stringify(proxy.seen)}`)
            assert.isString(deletes[0]!.sessionId, label)
            assert.include([200, 202, 204], deletes[0]!.status, label)
          } else {
            assert.deepStrictEqual(proxy.seen.filter((s) => s.method === "DELETE"), [], label)
          }
          assert.strictEqual(yield* mcp.sessionCount, 0, `${label}: a session was left open`)
        }
      }

      // our client against the HTTP+SSE endpoint: its POST refused (405), the legacy transport loaded
      // from the page's origin, its stream and messages over the legacy endpoints' CORS
      proxy.seen.length = 0
      const legacyUrl = `http://127.0.0.1:${proxyPort}/sse`
      const legacy = yield* visit<PageReport>(browser, `${origin}/?server=${encodeURIComponent(legacyUrl)}&era=2025`)
      assert.isUndefined(legacy.report.error, `legacy: ${legacy.report.error}\n${legacy.logs.join("\n")}`)
      assert.deepStrictEqual(legacy.report.progress, [1, 2, 3], "legacy")
      assert.strictEqual(legacy.report.sampled, `page-model: page answers {"type":"text","text":"what is 2 + 2?"}`, "legacy")
      assert.strictEqual(legacy.report.elicited, "hello page (who?)", "legacy")
      assert.deepStrictEqual(proxy.seen.filter((s) => s.method.startsWith("OPTIONS") && s.status !== 204), [], "legacy")
      assert.isTrue(proxy.seen.some((s) => s.method === "POST" && s.path === "/sse" && s.status === 405), "legacy: the POST refused")
      assert.isTrue(proxy.seen.some((s) => s.method === "GET" && s.path === "/sse" && s.status === 200), "legacy: the stream")
      assert.isTrue(proxy.seen.some((s) => s.method === "POST" && s.path === "/messages" && s.status === 202), "legacy: a message")

      // the official client, on our server's CORS alone
      for (const era of ["2025", "2026-07-28"] as const) {
        const label = `official, ${era}`
        proxy.seen.length = 0
        const { logs, report } = yield* visit<PageReport>(browser, `${origin}/official?server=${encodeURIComponent(serverUrl)}&era=${era}`)
        assert.isUndefined(report.error, `${label}: ${report.error}\n${logs.join("\n")}`)
        assert.strictEqual(report.era, era === "2025" ? "2025-11-25" : "2026-07-28", label)
        assert.deepStrictEqual(report.progress, [1, 2, 3], label)
        assert.strictEqual(report.steps, "stepped 3", label)
        assert.deepStrictEqual(proxy.seen.filter((s) => s.method.startsWith("OPTIONS") && s.status !== 204), [], label)
        if (era === "2025") {
          assert.isTrue(proxy.seen.some((s) => s.method.startsWith("OPTIONS")), `${label}: no preflight`)
          const deletes = proxy.seen.filter((s) => s.method === "DELETE")
          assert.strictEqual(deletes.length, 1, `${label}: ${JSON.stringify(proxy.seen)}`)
          assert.include([200, 202, 204], deletes[0]!.status, label)
        }
        assert.strictEqual(yield* mcp.sessionCount, 0, `${label}: a session was left open`)
      }
    }).pipe(Effect.scoped), 90_000)
})
