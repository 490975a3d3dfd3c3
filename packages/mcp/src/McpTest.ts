/**
 * Testing a server: a client of a server Layer over an in-memory transport,
 * in one line. `McpTest.client(ServerLive, { era })` builds the server,
 * serves one session on a memory pair (every message encoded to JSON and
 * parsed again, as on a real wire) and connects an `McpClient` to it, in
 * either era, with the handlers a server calls back (`sampling`,
 * `elicitation`, `roots`) as options. Everything lives in the scope: closing
 * it closes the client, ends the session (interrupting the handlers still
 * running) and releases the server Layer.
 *
 * Nothing here waits on the wall clock: under `@effect/vitest`'s `it.effect`
 * (a `TestClock`) a call is answered without `TestClock.adjust`, and a
 * handler's `Effect.sleep` or a call's `timeout` moves only when the test
 * adjusts the clock.
 *
 * @example
 * ```ts
 * import { assert, it } from "@effect/vitest"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTest from "@effect-mcp/mcp/McpTest"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const Ping = McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })
 * const ServerLive = McpServer.register(Ping).pipe(Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" })))
 *
 * it.effect("ping answers pong", () =>
 *   Effect.gen(function*() {
 *     const client = yield* McpTest.client(ServerLive, { era: "2026" })
 *     const result = yield* client.callTool("ping")
 *     assert.deepStrictEqual(result.content, [{ type: "text", text: "pong" }])
 *   }))
 * ```
 * @since 0.1.0
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as McpClient from "./McpClient.js"
import * as McpServer from "./McpServer.js"
import type * as ProtocolEra from "./ProtocolEra.js"
import * as Transport from "./Transport.js"

/**
 * The options of a test client: `McpClient.ClientOptions` (the handlers of
 * server→client requests among them, `capabilities`, timeouts, `logLevel`),
 * with `name` and `version` optional (`"mcp-test"`, `"0.0.0"`), the era named
 * as `ProtocolEra.Era`, and `onWire` to see every message that crosses.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends Omit<McpClient.ClientOptions, "name" | "version" | "era"> {
  /** The client's name in its `clientInfo` (default `"mcp-test"`). */
  readonly name?: string | undefined
  /** The client's version in its `clientInfo` (default `"0.0.0"`). */
  readonly version?: string | undefined
  /**
   * The era the client speaks: `"2025"` (a session opened by `initialize` at 2025-11-25), `"2026"`
   * (stateless 2026-07-28), or `"auto"` (the default, what `McpClient` does by default: 2026 when
   * the server serves it, else 2025).
   */
  readonly era?: "auto" | ProtocolEra.Era | undefined
  /** Called for every message that crosses, as JSON text (`from` says which side sent it). */
  readonly onWire?: ((record: Transport.WireRecord) => void) | undefined
}

/**
 * What the handlers of a test client's options need (see `McpClient.HandlerRequirements`).
 *
 * @since 0.1.0
 * @category models
 */
export type HandlerRequirements<O extends Options> = McpClient.HandlerRequirements<
  Omit<O, "name" | "version" | "era"> & { readonly name: string; readonly version: string }
>

const clientEra = (era: Options["era"]): McpClient.ClientOptions["era"] =>
  era === "2026" ? "2026-07-28" : era ?? "auto"

/**
 * A client connected to `server` over an in-memory transport, for the life
 * of the scope: the server Layer is built, one session of it served on a
 * memory pair, and the client initialized (2025) or its server discovered
 * (2026). Closing the scope closes the client, ends the session (its running
 * handlers are interrupted) and releases the server Layer.
 *
 * @example
 * ```ts
 * import { assert, it } from "@effect/vitest"
 * import { HandlerContext } from "@effect-mcp/mcp/HandlerContext"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTest from "@effect-mcp/mcp/McpTest"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const Ask = McpServer.tool({
 *   name: "ask",
 *   handler: () =>
 *     Effect.flatMap(HandlerContext, (ctx) =>
 *       ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 })).pipe(
 *         Effect.map((answer) => answer.model)
 *       )
 * })
 * const ServerLive = McpServer.register(Ask).pipe(Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" })))
 *
 * for (const era of ["2025", "2026"] as const) {
 *   it.effect(`ask samples the client's model (${era})`, () =>
 *     Effect.gen(function*() {
 *       const client = yield* McpTest.client(ServerLive, {
 *         era,
 *         sampling: () => Effect.succeed({ role: "assistant", content: { type: "text", text: "hello" }, model: "fake" })
 *       })
 *       const result = yield* client.callTool("ask")
 *       assert.deepStrictEqual(result.content, [{ type: "text", text: "fake" }])
 *     }))
 * }
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const client: {
  <E, R>(server: Layer.Layer<McpServer.McpServer, E, R>): Effect.Effect<
    McpClient.McpClientShape,
    E | McpClient.ClientError,
    R | Scope.Scope
  >
  <E, R, O extends Options>(server: Layer.Layer<McpServer.McpServer, E, R>, options: O): Effect.Effect<
    McpClient.McpClientShape,
    E | McpClient.ClientError,
    R | HandlerRequirements<O> | Scope.Scope
  >
} = (server: Layer.Layer<McpServer.McpServer, unknown, unknown>, options?: Options) =>
  Effect.gen(function*() {
    const { era, name, onWire, version, ...clientOptions } = options ?? {}
    const definition = Context.get(yield* Layer.build(server), McpServer.McpServer)
    const pair = yield* Transport.makeMemoryPair({ record: false, onWire })
    // the session lives in the scope: closing it ends the session and interrupts its handlers
    yield* definition.connect(pair.server)
    return yield* McpClient.make({
      ...clientOptions,
      name: name ?? "mcp-test",
      version: version ?? "0.0.0",
      era: clientEra(era)
    }).pipe(Effect.provideService(Transport.Transport, pair.client))
  })

/**
 * `client` as a Layer providing `McpClient`, for tests written the Layer
 * way (`it.layer`, `Effect.provide`): the server and its session live as
 * long as the Layer.
 *
 * @example
 * ```ts
 * import { assert, it } from "@effect/vitest"
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpTest from "@effect-mcp/mcp/McpTest"
 * import * as Effect from "effect/Effect"
 * import * as Layer from "effect/Layer"
 *
 * const Ping = McpServer.tool({ name: "ping", handler: () => Effect.succeed("pong") })
 * const ServerLive = McpServer.register(Ping).pipe(Layer.provideMerge(McpServer.layer({ name: "demo", version: "1.0.0" })))
 *
 * it.layer(McpTest.layer(ServerLive, { era: "2025" }))("ping", (it) => {
 *   it.effect("is listed", () =>
 *     Effect.gen(function*() {
 *       const client = yield* McpClient.McpClient
 *       assert.deepStrictEqual((yield* client.listToolsAll()).map((tool) => tool.name), ["ping"])
 *     }))
 * })
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer: {
  <E, R>(server: Layer.Layer<McpServer.McpServer, E, R>): Layer.Layer<
    McpClient.McpClient,
    E | McpClient.ClientError,
    Exclude<R, Scope.Scope>
  >
  <E, R, O extends Options>(server: Layer.Layer<McpServer.McpServer, E, R>, options: O): Layer.Layer<
    McpClient.McpClient,
    E | McpClient.ClientError,
    Exclude<R | HandlerRequirements<O>, Scope.Scope>
  >
} = (server: Layer.Layer<McpServer.McpServer, unknown, unknown>, options?: Options) =>
  Layer.effect(McpClient.McpClient, options === undefined ? client(server) : client(server, options))
