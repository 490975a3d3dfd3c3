/**
 * The official client's page of the browser test (`browserClient.test.ts`): `@modelcontextprotocol/client`
 * 2.x (`Client` over its `StreamableHTTPClientTransport`, bundled with esbuild), loaded from the page's
 * origin, against our server named by `?server=` on another origin, with nothing but our server's CORS
 * between them: in the era named by `?era=` (2025: initialize, then the session DELETEd by
 * `terminateSession`; 2026-07-28: pinned, no initialize), a tool call with progress, and close.
 * What it saw goes to the test through `mcpReport`, as `page.ts`'s report.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import type { PageReport } from "./page.js"

interface PageGlobals {
  readonly location: { readonly search: string }
  readonly mcpReport: (json: string) => Promise<void>
}
const page = globalThis as unknown as PageGlobals

const main = async () => {
  const params = new URLSearchParams(page.location.search)
  const era = params.get("era") === "2026-07-28" ? "2026-07-28" : "2025"
  let report: PageReport
  try {
    const client = new Client(
      { name: "official-page", version: "2.4.0" },
      // `as never`: the pinned mode's type is not exported under a name
      { versionNegotiation: era === "2025" ? { mode: "legacy" } : { mode: { pin: "2026-07-28" } } as never }
    )
    const transport = new StreamableHTTPClientTransport(new URL(params.get("server") ?? ""))
    await client.connect(transport)
    const negotiated = client.getNegotiatedProtocolVersion() ?? "none"
    const progress: Array<number> = []
    const steps = await client.callTool({ name: "steps", arguments: { n: 3 } }, { onprogress: (p) => void progress.push(p.progress) })
    const first = (steps as { readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }> }).content[0]
    if (era === "2025") await transport.terminateSession()
    await client.close()
    report = {
      evalProbe: "allowed",
      violations: [],
      era: negotiated,
      progress,
      steps: first?.type === "text" ? first.text ?? "" : ""
    }
  } catch (error) {
    report = { evalProbe: "allowed", violations: [], error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
  await page.mcpReport(JSON.stringify(report))
}

void main()
