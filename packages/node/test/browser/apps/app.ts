/**
 * The MCP App of the apps browser test (`apps.test.ts`), bundled with esbuild and inlined into
 * the `ui://` page our server publishes: an ext-apps `App` in the host's sandboxed iframe. It
 * takes the tool input and result the host sends, calls the app-only tool `refresh` through the
 * host (`tools/call` over `postMessage`, which the host passes to the server), and sends the
 * host one `ui/message` saying what it got, as JSON: the test reads it there.
 */
import { App } from "@modelcontextprotocol/ext-apps"

/** What the app tells the host, in its `ui/message`. */
export interface AppReport {
  readonly input?: unknown
  readonly result?: unknown
  readonly refreshed?: string
  readonly hostName?: string
  readonly error?: string
}

const app = new App({ name: "sales-app", version: "1.0.0" }, {})
let input: unknown

const say = (report: AppReport) =>
  app.sendMessage({ role: "user", content: [{ type: "text", text: JSON.stringify(report) }] })

// handlers before connect: the host sends the input and result once the app is initialized
app.ontoolinput = (params) => {
  input = params.arguments
}
app.ontoolresult = (result) => {
  void app.callServerTool({ name: "refresh", arguments: { n: 2 } }).then(
    (called) => {
      const first = called.content[0]
      return say({
        input,
        result: result.structuredContent,
        refreshed: first !== undefined && first.type === "text" ? first.text : "?",
        hostName: app.getHostVersion()?.name ?? "?"
      })
    },
    (error: unknown) => say({ error: error instanceof Error ? error.message : String(error) })
  )
}

void app.connect()
