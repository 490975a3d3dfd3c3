/**
 * The browser client's bundle (`src/bundleEntries/clientOurs.ts`: `McpClient` +
 * `FetchStreamableHttpClient`, esbuild, minified, gzipped; `src/bundleSize.ts`, what
 * `BENCH_ONLY=bundle` reports) is no larger than the official v1 client's, and what a client does not use stays out
 * of its graph. Deterministic: one esbuild version (the lockfile's), one input, the same bytes.
 * A change that grows the client past the official v1 client (issue 33's target) fails here.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { ENTRIES, measure } from "../src/bundleSize.js"

/**
 * The budget is the official v1 client's initial chunk, bundled the same way in the same run
 * (`client-official`: `@modelcontextprotocol/sdk` 1.32.2's `Client` and transport, Ajv included:
 * 89.2 KiB, 91,378 bytes, on 2026-12-08; `@modelcontextprotocol/client` 2.4.0 was 85.9 KiB).
 * Ours (esbuild 0.28.2, effect 4.1.5): 93.4 KiB on 2026-12-04 (99.8 KiB with the validator and the
 * legacy transport loaded up front, 164 KiB with Ajv on Effect 3), 96.9 KiB once the OpenTelemetry
 * conventions (issue 34), the 2026-07-28 result decoders and the unreadable-session-id error
 * joined, 89.1 KiB (91,251 bytes) on 2026-12-08 over `FetchStreamableHttpClient`: `fetch`
 * directly, no `effect/http` anywhere in its graph (a lazy chunk's use of a file the page reaches
 * puts that file in the page's chunks, and `effect/Schema` reaches `effect/http`'s `Headers`), the
 * legacy client and the signing of `auth` in one lazy chunk; 91,858 bytes once tracing's notification
 * spans, typed prompts and the bounded close joined, 90,118 once `McpSchema2026` and `schema2026/core`
 * imported `McpSchema`'s schemas by name (`const { A } = McpSchema` keeps every export of the module).
 */
const official = ENTRIES.find((e) => e.id === "client-official")!

/** Modules a browser client must not carry: the server, Node-only code, OAuth's libraries, Ajv, the CLI. */
const FORBIDDEN: ReadonlyArray<readonly [string, RegExp]> = [
  ["server code", /packages\/mcp\/src\/(internal\/(server|httpServer|tasks|skills|auth)\/|McpServer\.ts|StreamableHttpServer\.ts|LegacySseServer\.ts|McpAuth\.ts)/],
  ["@effect-mcp/node", /packages\/node\//],
  ["Ajv (code generation: fails under a strict CSP)", /node_modules\/ajv\//],
  ["jose", /node_modules\/jose\//],
  ["yaml", /node_modules\/yaml\//],
  ["@effect/platform-node", /@effect\/platform-node/],
  // loaded by a dynamic import() when first needed, so not in the initial chunk
  ["the JSON Schema validator (loaded on the first output schema)", /node_modules\/@cfworker\/json-schema\/|internal\/jsonSchemaValidator\.ts/],
  ["the legacy HTTP+SSE transport (loaded on a fallback)", /packages\/mcp\/src\/(LegacySseClient\.ts|internal\/legacy\/)/],
  ["the signing of exchanges (loaded with auth)", /packages\/mcp\/src\/internal\/oauth\//],
  // the fetch transport sends with fetch itself, its spans and auth too
  ["effect/http", /effect\/dist\/http\//]
]

const client = ENTRIES.find((e) => e.id === "client-ours")!

describe("the browser client's bundle", () => {
  it.effect("is at most the official v1 client's, gzipped, and carries nothing a client does not use", () =>
    Effect.promise(async () => {
      const size = await measure(client)
      const budget = (await measure(official)).initial.gzip
      const breakdown = size.byPackage.map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KiB`).join(", ")
      assert.isAtMost(
        size.initial.gzip,
        budget,
        `client bundle ${size.initial.gzip} bytes gzipped, the official v1 client's ${budget} (raw ${(size.initial.raw / 1024).toFixed(1)} KiB: ${breakdown})`
      )
      for (const [what, pattern] of FORBIDDEN) {
        const found = size.inputs.filter((i) => pattern.test(i.split(path.sep).join("/")))
        assert.deepStrictEqual(found, [], `the client bundle carries ${what}`)
      }
    }), 60_000)

  it("destructures no namespace import in our sources (esbuild then keeps every export of the module)", () => {
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../mcp/src")
    const found: Array<string> = []
    const visit = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) visit(file)
        else if (entry.name.endsWith(".ts")) {
          const text = fs.readFileSync(file, "utf8")
          for (const [, name] of text.matchAll(/^import \* as (\w+) from /gm)) {
            if (new RegExp(`^(?:const|let) \\{[^}]*\\} = ${name}\\s*$`, "m").test(text)) found.push(`${path.relative(src, file)}: ${name}`)
          }
        }
      }
    }
    visit(src)
    assert.deepStrictEqual(found, [])
  })
})
