import * as http from "node:http"
import * as net from "node:net"
import * as Schedule from "effect/Schedule"
import * as HttpServer from "effect/http/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as StreamableHttpServer from "@effect-mcp/mcp/StreamableHttpServer"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type * as TestClock from "effect/testing/TestClock"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"

/**
 * `effect` on the live clock, whether the TestClock runs or not (Effect 3's `TestServices.provideLive`;
 * Effect 4's `TestClock.withLive` needs the TestClock, which `it.live` does not provide).
 */
export const withLive = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Clock.clockWith((clock) => ("withLive" in clock ? (clock as TestClock.TestClock).withLive(effect) : effect))

/** Starts an HTTP MCP server on 127.0.0.1:0 for the features given; returns its URL and sessions handle. */
export const startServer = (
  features: Layer.Layer<never, never, McpServer.McpServer>,
  options: Omit<NodeStreamableHttp.Options, "port"> = {}
): Effect.Effect<
  { readonly url: string; readonly port: number; readonly mcp: StreamableHttpServer.StreamableHttpServerShape },
  never,
  Scope.Scope
> =>
  Effect.gen(function*() {
    const layer = NodeStreamableHttp.layer({ port: 0, ...options }).pipe(
      Layer.provideMerge(features),
      Layer.provideMerge(McpServer.layer({ name: "test-http", version: "1.0.0" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    const mcp = yield* StreamableHttpServer.StreamableHttpServer.pipe(Effect.provide(context))
    const port = "port" in server.address ? server.address.port : 0
    return { url: `http://127.0.0.1:${port}${options.path ?? "/mcp"}`, port, mcp }
  })

/** The endpoint as an `HttpApp` on @effect/platform's own node server (its SSE bodies read as streams); its URL. */
export const startPlatform = (
  features: Layer.Layer<never, never, McpServer.McpServer>,
  options: StreamableHttpServer.Options = {}
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.gen(function*() {
    const layer = Layer.unwrap(
      Effect.map(StreamableHttpServer.StreamableHttpServer, (mcp) => HttpServer.serve(mcp.app))
    ).pipe(
      Layer.provideMerge(StreamableHttpServer.layer(options)),
      Layer.provideMerge(features),
      Layer.provideMerge(McpServer.layer({ name: "test-http", version: "1.0.0" })),
      Layer.provideMerge(NodeHttpServer.layer(() => http.createServer(), { port: 0, host: "127.0.0.1" }))
    )
    const context = yield* Layer.build(layer).pipe(Effect.orDie)
    const server = yield* HttpServer.HttpServer.pipe(Effect.provide(context))
    return `http://127.0.0.1:${"port" in server.address ? server.address.port : 0}/`
  })

export const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}

export const headers = (extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...extra
})

/** Parses an SSE body into events. */
export const parseSse = (text: string) =>
  text.split("\n\n").filter((block) => block.trim() !== "").map((block) => {
    const event: { id?: string; data?: string; retry?: number; comment?: boolean } = {}
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) event.comment = true
      else if (line.startsWith("id: ")) event.id = line.slice(4)
      else if (line.startsWith("data: ")) event.data = (event.data ?? "") + line.slice(6)
      else if (line.startsWith("data:")) event.data = (event.data ?? "") + line.slice(5)
      else if (line.startsWith("retry: ")) event.retry = Number(line.slice(7))
    }
    return event
  })

export const messagesOf = (text: string) =>
  parseSse(text).filter((e) => e.data !== undefined && e.data.trim() !== "").map((e) => JSON.parse(e.data!))

/** Initializes a session by raw POST; returns the session id. */
export const initialize = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(INIT) })
    await response.text()
    const sid = response.headers.get("mcp-session-id")!
    await (await fetch(url, {
      method: "POST",
      headers: headers({ "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
    })).text()
    return sid
  })

/**
 * Reads an SSE body in the background, appending each `data:` line's JSON to `into` (until the body
 * ends). The caller states what the messages are, and checks what it reads.
 */
export const readSseData = <M>(response: Response, into: Array<M>): void => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      let at: number
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 1)
        if (line.startsWith("data: ") && line.length > 6) into.push(JSON.parse(line.slice(6)) as M)
      }
    }
  })().catch(() => {})
}

/** A request through node:http, which (unlike fetch) lets a test set `Host`. */
export const rawRequest = (
  url: string,
  options: {
    readonly method: string
    readonly headers: Record<string, string>
    /** Several pieces go out as chunks, with chunked transfer encoding (no Content-Length). */
    readonly body?: string | ReadonlyArray<string>
  }
) =>
  Effect.callback<{ readonly status: number; readonly text: string; readonly headers: http.IncomingHttpHeaders }>((resume) => {
    const request = http.request(url, { method: options.method, headers: options.headers }, (response) => {
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk))
      response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, text, headers: response.headers })))
    })
    request.on("error", (error) => resume(Effect.die(error)))
    if (typeof options.body === "string" || options.body === undefined) return void request.end(options.body)
    for (const chunk of options.body) request.write(chunk)
    request.end()
  })

/** A POST whose body goes out in `chunks`, with chunked transfer encoding (no Content-Length). */
export const chunkedRequest = (url: string, headers: Record<string, string>, chunks: ReadonlyArray<string>) =>
  rawRequest(url, { method: "POST", headers, body: chunks })

/** A port that was free a moment ago (a server listened on it and closed). */
export const freePort: Effect.Effect<number> = Effect.callback<number>((resume) => {
  const server = http.createServer()
  server.listen(0, "127.0.0.1", () => {
    const port = (server.address() as net.AddressInfo).port
    server.close(() => resume(Effect.succeed(port)))
  })
})

/** One TCP connection attempt to 127.0.0.1:`port`; the socket is destroyed if the attempt is interrupted. */
const connectOnce = (port: number) =>
  Effect.callback<net.Socket, Error>((resume) => {
    const socket = net.connect(port, "127.0.0.1")
    socket.once("connect", () => resume(Effect.succeed(socket)))
    socket.once("error", (error) => {
      socket.destroy()
      resume(Effect.fail(error))
    })
    return Effect.sync(() => socket.destroy())
  })

/** A TCP connection as soon as the port accepts one: tried every millisecond, for at most 10 s (on the Clock). */
export const connectSoon = (port: number): Effect.Effect<net.Socket, Error> =>
  connectOnce(port).pipe(
    Effect.retry(Schedule.spaced("1 millis")),
    Effect.timeoutOrElse({ duration: "10 seconds", orElse: () => Effect.fail(new Error("never accepted a connection")) })
  )

/** Reads a socket paused so far to its close: how many bytes it was sent. */
export const bytesRead = (socket: net.Socket): Effect.Effect<number> =>
  Effect.callback<number>((resume) => {
    let bytes = 0
    const done = () => resume(Effect.succeed(bytes))
    socket.on("data", (chunk: Buffer) => (bytes += chunk.length))
    socket.on("error", () => {})
    socket.on("close", done)
    if (socket.destroyed) return done()
    socket.resume()
  })
