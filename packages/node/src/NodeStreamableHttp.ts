/**
 * Serves an `McpServer` over streamable HTTP on Node's `http` module, in one
 * Layer. DNS-rebinding protection is on by default when bound to a loopback
 * address, off otherwise unless configured.
 *
 * @example
 * ```ts
 * import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
 * import * as Layer from "effect/Layer"
 *
 * const HttpLive = NodeStreamableHttp.layer({ port: 3000, path: "/mcp", eventStore: true })
 * // Layer.launch(HttpLive.pipe(Layer.provide(ServerLive)))
 * ```
 * @since 0.1.0
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import type { ServeError } from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as EventStore from "@effect-mcp/mcp/EventStore"
import * as LegacySseServer from "@effect-mcp/mcp/LegacySseServer"
import type { McpServer } from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer, type Server } from "node:http"

export interface Options extends StreamableHttpServer.Options {
  /** Port to listen on; 0 picks a free one (read it from `HttpServer.HttpServer`'s address). */
  readonly port: number
  /** Address to bind (default 127.0.0.1). */
  readonly host?: string | undefined
  /** Path of the MCP endpoint (default `/mcp`); other paths get 404. */
  readonly path?: string | undefined
  /** Keep SSE events in a bounded in-memory `EventStore` for resumability (default false). */
  readonly eventStore?: boolean | EventStore.MemoryOptions | undefined
  /**
   * Also serve the deprecated 2024-11-05 HTTP+SSE transport, side by side
   * (default off; `true` means GET `/sse` and POST `/messages`).
   */
  readonly legacySse?: boolean | { readonly ssePath?: string | undefined; readonly messagesPath?: string | undefined } | undefined
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"])

/** Routes requests by path to MCP endpoint apps; other paths get 404. */
export const mount = (routes: Readonly<Record<string, HttpApp.Default>>): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const query = request.url.indexOf("?")
    const app = routes[query === -1 ? request.url : request.url.slice(0, query)]
    return app ?? Effect.succeed(HttpServerResponse.empty({ status: 404 }))
  })

/**
 * The HTTP server, listening, with the MCP endpoint mounted; provides
 * `StreamableHttpServer` (sessions) and `HttpServer` (the bound address).
 */
export const layer = (
  options: Options
): Layer.Layer<StreamableHttpServer.StreamableHttpServer | HttpServer.HttpServer, ServeError, McpServer> => {
  const host = options.host ?? "127.0.0.1"
  const protection = options.dnsRebindingProtection ?? (LOOPBACK.has(host) ? undefined : false)
  const endpoint = StreamableHttpServer.layer({ ...options, dnsRebindingProtection: protection })
  const store = options.eventStore === undefined || options.eventStore === false
    ? Layer.empty
    : EventStore.layerMemory(options.eventStore === true ? undefined : options.eventStore)
  const legacy = options.legacySse === undefined || options.legacySse === false
    ? undefined
    : {
      ssePath: (options.legacySse === true ? undefined : options.legacySse.ssePath) ?? "/sse",
      messagesPath: (options.legacySse === true ? undefined : options.legacySse.messagesPath) ?? "/messages"
    }
  const serve = Layer.unwrapScoped(
    Effect.gen(function*() {
      const mcp = yield* StreamableHttpServer.StreamableHttpServer
      const routes: Record<string, HttpApp.Default> = { [options.path ?? "/mcp"]: mcp.app }
      if (legacy !== undefined) {
        const old = yield* LegacySseServer.make({ ...options, dnsRebindingProtection: protection, messagesPath: legacy.messagesPath })
        routes[legacy.ssePath] = old.sse
        routes[legacy.messagesPath] = old.messages
      }
      return HttpServer.serve(mount(routes)).pipe(
        // the engine makes its own span per MCP request; one per HTTP request on top costs without telling more
        HttpMiddleware.withTracerDisabledWhen(() => true)
      )
    })
  )
  let server: Server | undefined
  // sessions end first (their streams with them); a peer that never reads must not hold the
  // process: after a grace period every connection still open is cut
  const forceClose = Layer.scopedDiscard(Effect.addFinalizer(() =>
    Effect.sync(() => {
      server?.closeIdleConnections()
      setTimeout(() => server?.closeAllConnections(), 2000).unref()
    })
  ))
  return serve.pipe(
    Layer.provideMerge(Layer.provide(endpoint, store)),
    Layer.provideMerge(forceClose),
    Layer.provideMerge(NodeHttpServer.layerServer(() => (server = createServer()), { port: options.port, host }))
  )
}
