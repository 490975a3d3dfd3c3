/**
 * The page of the browser test (`browserClient.test.ts`), bundled with esbuild for the browser
 * and loaded by headless Chromium from its own origin: our client (`McpClient` over
 * `FetchStreamableHttpClient`, `fetch` directly) against the MCP server named by `?server=`, in the
 * era named by `?era=`, answering sampling and elicitation here in the page. A `server` that is a
 * 2024-11-05 HTTP+SSE endpoint makes the transport fall back to `LegacySseClient` (loaded then,
 * with `effect/http`'s client, from the page's origin).
 * What it saw goes to the test through `mcpReport` (a Playwright binding, so that nothing the
 * test reads needs the page to evaluate code: the strict-CSP page allows only `'self'` scripts).
 */
import * as FetchStreamableHttpClient from "@effect-mcp/mcp/FetchStreamableHttpClient"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** What the page reports. */
export interface PageReport {
  /** Whether `new Function` ran: "blocked" under the strict CSP. */
  readonly evalProbe: "allowed" | "blocked"
  /** `securitypolicyviolation` events (directive and blocked URI) seen while the scenario ran, the probe's first. */
  readonly violations: ReadonlyArray<string>
  readonly era?: string
  readonly progress?: ReadonlyArray<number>
  readonly steps?: string
  readonly sampled?: string
  readonly elicited?: string
  /** The valid structured result, as it came. */
  readonly shapedOk?: unknown
  /** How the call with wrong structuredContent failed (`reason: message`), or "accepted". */
  readonly shapedBad?: string
  readonly error?: string
}

interface PageGlobals {
  readonly location: { readonly search: string }
  readonly addEventListener: (type: string, listener: (event: { readonly violatedDirective: string; readonly blockedURI: string }) => void) => void
  readonly mcpReport: (json: string) => Promise<void>
}
const page = globalThis as unknown as PageGlobals

const violations: Array<string> = []
page.addEventListener("securitypolicyviolation", (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`))

const probeEval = (): "allowed" | "blocked" => {
  try {
    return new Function("return 1")() === 1 ? "allowed" : "blocked"
  } catch {
    return "blocked"
  }
}

const textOf = (result: McpClient.CallToolResult) => {
  const first = result.content[0]
  return first !== undefined && first.type === "text" ? first.text : ""
}

const scenario = (url: string, era: "2025" | "2026-07-28") => {
  const progress: Array<number> = []
  const ClientLive = McpClient.layer({
    name: "browser-page",
    version: "1.0.0",
    era,
    sampling: (params) =>
      Effect.succeed({
        role: "assistant" as const,
        model: "page-model",
        content: { type: "text" as const, text: `page answers ${JSON.stringify(params.messages[0]?.content)}` }
      }),
    elicitation: {
      form: (params) => Effect.succeed({ action: "accept" as const, content: { name: `page (${params.message})` } })
    }
  }).pipe(
    Layer.provide(FetchStreamableHttpClient.layer({ url }))
  )
  return Effect.gen(function*() {
    const client = yield* McpClient.McpClient
    yield* client.listToolsAll()
    const steps = yield* client.callTool("steps", { n: 3 }, {
      onProgress: (p) => Effect.sync(() => progress.push(p.progress))
    })
    const sampled = yield* client.callTool("ask", { q: "what is 2 + 2?" })
    const elicited = yield* client.callTool("confirm")
    const shapedOk = yield* client.callTool("shaped_ok")
    const shapedBad = yield* client.callTool("shaped_bad").pipe(
      Effect.as("accepted"),
      Effect.catch((e) => Effect.succeed(e._tag === "ProtocolError" ? `${e.reason}: ${e.message}` : `${e._tag}: ${e.message}`))
    )
    return {
      era: client.era,
      progress,
      steps: textOf(steps),
      sampled: textOf(sampled),
      elicited: textOf(elicited),
      shapedOk: shapedOk.structuredContent,
      shapedBad
    }
    // the client's scope closes here: a 2025 session is DELETEd before the report goes out
  }).pipe(Effect.provide(ClientLive), Effect.scoped)
}

const main = async () => {
  const evalProbe = probeEval()
  const params = new URLSearchParams(page.location.search)
  const url = params.get("server") ?? ""
  const era = params.get("era") === "2026-07-28" ? "2026-07-28" : "2025"
  let report: PageReport
  try {
    const result = await Effect.runPromise(scenario(url, era))
    // let the event loop deliver any violation report of the scenario before reading them
    await new Promise((resolve) => setTimeout(resolve, 50))
    report = { evalProbe, violations: [...violations], ...result }
  } catch (error) {
    report = { evalProbe, violations: [...violations], error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
  await page.mcpReport(JSON.stringify(report))
}

void main()
