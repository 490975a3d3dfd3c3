/**
 * What the deployment tests of the fleet share: a redis-server of the test's own on a free port
 * (paused with SIGSTOP, killed with SIGKILL), raw MCP requests over `fetch`, and SSE reading with
 * the time each event arrived.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as net from "node:net"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { Redis } from "ioredis"

export const freePort = Effect.callback<number>((resume) => {
  const server = net.createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as net.AddressInfo
    server.close(() => resume(Effect.succeed(port)))
  })
})

export interface OwnRedis {
  readonly url: string
  /** SIGSTOP: the connections stay open, nothing is answered. */
  readonly pause: Effect.Effect<void>
  /** SIGCONT. */
  readonly resume: Effect.Effect<void>
  /** SIGKILL, and wait for the exit: connections are refused from now on. */
  readonly kill: Effect.Effect<void>
  /** A new redis-server on the same port, empty (after `kill`). */
  readonly restart: Effect.Effect<void>
}

/** One redis-server process on `port`, nothing persisted, once it accepts connections. */
const redisProcess = (port: number) =>
  Effect.callback<ChildProcess>((resume) => {
    const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes("Ready to accept connections")) {
        child.stdout!.off("data", onData)
        child.stdout!.resume()
        resume(Effect.succeed(child))
      }
    }
    child.stdout!.on("data", onData)
  })

const killed = (child: ChildProcess) =>
  Effect.promise(() => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
    child.kill("SIGCONT")
    child.kill("SIGKILL")
    return exited
  })

/** A redis-server on a free port, nothing persisted; killed with the scope (continued first if paused). */
export const ownRedis: Effect.Effect<OwnRedis, never, Scope.Scope> = Effect.gen(function*() {
  const port = yield* freePort
  let child = yield* redisProcess(port)
  yield* Effect.addFinalizer(() => Effect.suspend(() => killed(child)))
  return {
    url: `redis://127.0.0.1:${port}`,
    pause: Effect.sync(() => void child.kill("SIGSTOP")),
    resume: Effect.sync(() => void child.kill("SIGCONT")),
    kill: Effect.suspend(() => killed(child)),
    restart: Effect.suspend(() => Effect.map(redisProcess(port), (next) => void (child = next)))
  }
})

/** Every key under a prefix, by SCAN (sorted). */
export const scanKeys = (url: string, prefix: string) =>
  Effect.promise(async () => {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 })
    try {
      const keys: Array<string> = []
      let cursor = "0"
      do {
        const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000)
        cursor = next
        keys.push(...batch)
      } while (cursor !== "0")
      return keys.sort()
    } finally {
      redis.disconnect()
    }
  })

/** Each key under a prefix with its time to live in ms (-1: none), by SCAN and PTTL. */
export const keyTtls = (url: string, prefix: string) =>
  Effect.flatMap(scanKeys(url, prefix), (keys) =>
    Effect.promise(async () => {
      const redis = new Redis(url, { maxRetriesPerRequest: 1 })
      try {
        const out: Array<readonly [string, number]> = []
        for (const key of keys) out.push([key, await redis.pttl(key)])
        return out
      } finally {
        redis.disconnect()
      }
    }))

export interface SseEvent {
  readonly id?: string | undefined
  readonly data?: string | undefined
  /** A comment line (`: resumed`). */
  readonly comment?: string | undefined
  /** `Date.now()` when it was read. */
  readonly at: number
}

/**
 * Reads an SSE body into `into` as it comes; resolves when the body ends (or fails), whatever
 * happens. The caller bounds the wait.
 */
export const readSse = async (response: Response, into: Array<SseEvent>): Promise<void> => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      let at: number
      while ((at = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, at)
        buffer = buffer.slice(at + 2)
        const event: { id?: string; data?: string; comment?: string; at: number } = { at: Date.now() }
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) event.id = line.slice(4)
          else if (line.startsWith("data: ")) event.data = line.slice(6)
          else if (line.startsWith(":")) event.comment = line.slice(1).trim()
        }
        into.push(event)
      }
    }
  } catch {
    // the connection broke: what was read is in `into`
  }
}

/** A JSON-RPC message as read off the wire, loosely. */
export interface Wire {
  readonly id?: string | number
  readonly method?: string
  readonly params?: { readonly progress?: number; readonly message?: string }
  readonly result?: { readonly content?: ReadonlyArray<{ readonly text?: string }> }
  readonly error?: { readonly code: number; readonly message: string }
}

/** The JSON-RPC messages among events. */
export const messagesOf = (events: ReadonlyArray<SseEvent>): Array<Wire> =>
  events.filter((e) => e.data !== undefined && e.data !== "").map((e) => JSON.parse(e.data!) as Wire)

export const V2025 = "2025-11-25"
export const V2026 = "2026-07-28"

export const sessionHeaders = (sid: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-session-id": sid,
  "mcp-protocol-version": V2025
})

/** A 2026-07-28 request's body and headers. */
export const request2026 = (id: number, method: string, params: Record<string, unknown>) => {
  const name = params.name as string | undefined
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V2026,
      "mcp-method": method,
      ...(name !== undefined ? { "mcp-name": name } : {})
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: {
        ...params,
        _meta: {
          ...(params._meta as object | undefined),
          "io.modelcontextprotocol/protocolVersion": V2026,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }
        }
      }
    })
  }
}
