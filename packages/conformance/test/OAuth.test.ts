/**
 * The fixture server program with `--oauth-issuer`: a real authorization
 * server (`oidc-provider`) mints the tokens; the program is checked over HTTP.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as net from "node:net"
import { bundled } from "../../../vitest.bundled.js"
import { startAuthServer } from "../../node/test/authServer.js"


const freePort = Effect.callback<number>((resume) => {
  const probe = net.createServer()
  probe.listen(0, "127.0.0.1", () => {
    const port = (probe.address() as net.AddressInfo).port
    probe.close(() => resume(Effect.succeed(port)))
  })
})

/** Runs the program until the scope closes; resolves once it listens. */
const runServer = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.callback<ChildProcess, Error>((resume) => {
      const child = spawn(process.execPath, [bundled("conformance-server"), ...args], {
        stdio: ["ignore", "ignore", "pipe"]
      })
      let stderr = ""
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString()
        if (stderr.includes("listening on")) resume(Effect.succeed(child))
      })
      child.once("exit", (code) => resume(Effect.fail(new Error(`exited ${code}: ${stderr}`))))
    }),
    (child) => Effect.sync(() => child.kill("SIGTERM"))
  )

describe("server.js --oauth-issuer", () => {
  it.live("only the issuer's tokens for its own URL; mcp:tools for tools/call; the resource metadata", () =>
    Effect.gen(function*() {
      const as = yield* startAuthServer
      const port = yield* freePort
      const url = `http://127.0.0.1:${port}/mcp`
      yield* runServer(["--port", String(port), "--oauth-issuer", as.issuer, "--oauth-scopes", "mcp:tools mcp:admin"])
      const metadata = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`).then((r) => r.json())
      )
      assert.deepStrictEqual(metadata, {
        resource: url,
        authorization_servers: [as.issuer],
        scopes_supported: ["mcp:tools", "mcp:admin"],
        bearer_methods_supported: ["header"],
        resource_name: "mcp-conformance-test-server"
      })
      const anonymous = yield* Effect.promise(() => fetch(url, { method: "POST" }))
      assert.strictEqual(anonymous.status, 401)
      assert.strictEqual(
        anonymous.headers.get("www-authenticate"),
        `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools mcp:admin"`
      )
      const connect = (token: string) =>
        Effect.acquireRelease(
          Effect.promise(async () => {
            const client = new Client({ name: "official", version: "1.0.0" })
            await client.connect(
              new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
            )
            return client
          }),
          (client) => Effect.promise(() => client.close())
        )
      const reason = (e: Error & { code?: number }) => `${e.code} ${e.message}`
      // another resource's token is refused
      const foreign = yield* as.token("alice", "http://127.0.0.1:1/mcp")
      const refused = yield* Effect.promise(() =>
        new Client({ name: "c", version: "1" }).connect(
          new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${foreign}` } } })
        ).then(() => "connected", reason)
      )
      assert.match(refused, /^401 /)
      // listing needs no scope; calling needs mcp:tools
      const withoutTools = yield* connect(yield* as.token("alice", url, "mcp:admin"))
      const tools = yield* Effect.promise(() => withoutTools.listTools())
      assert.isTrue(tools.tools.some((t) => t.name === "test_simple_text"))
      const denied = yield* Effect.promise(() =>
        withoutTools.callTool({ name: "test_simple_text", arguments: {} }).then(() => "called", reason)
      )
      assert.match(denied, /^403 .*insufficient_scope/)
      const withTools = yield* connect(yield* as.token("alice", url, "mcp:tools"))
      const result = yield* Effect.promise(() => withTools.callTool({ name: "test_simple_text", arguments: {} }))
      assert.strictEqual((result.content as Array<{ type: string }>)[0]!.type, "text")
    }))

  it.live("refuses --oauth-issuer without a fixed port", () =>
    Effect.gen(function*() {
      const failed = yield* Effect.flip(runServer(["--port", "0", "--oauth-issuer", "http://127.0.0.1:9"]).pipe(Effect.scoped))
      assert.match(failed.message, /--oauth-issuer needs a fixed --port/)
    }))
})
