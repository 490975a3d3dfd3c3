#!/usr/bin/env node
/**
 * The conformance fixture server as a program.
 *
 *   node dist/server.js --stdio
 *   node dist/server.js --port 3000 [--json-response] [--session-per-request]
 *     [--idle-timeout <duration>] [--max-sessions <n>]
 *   node dist/server.js --port 3000 --oauth-issuer http://127.0.0.1:4000 [--oauth-scopes "mcp:tools mcp:admin"]
 *   node dist/server.js --port 3000 [--cors https://app.example.com]... [--allowed-hosts mcp.example.com,…]
 *
 * `--stdio` serves one session on stdin/stdout. `--port` serves streamable
 * HTTP at `http://127.0.0.1:<port>/mcp`. Diagnostics go to stderr only
 * (stdout belongs to the protocol on stdio).
 *
 * `--idle-timeout` (`500ms`, `2s`, `5m`, `1h`) closes a session with no
 * request and no open stream for that long; `--max-sessions` answers 503 to
 * one initialize more. Both default to the endpoint's defaults.
 *
 * `--redis <url>` makes the process one instance of a fleet: instances started
 * with the same Redis URL share sessions, events and notifications (see
 * `@effect-mcp/redis`), under `--instance-id <id>` (generated when absent);
 * their keys start with `REDIS_PREFIX` (default `mcp`).
 *
 * `--request-state-keys <k1,k2>` signs the `requestState` of 2026-07-28
 * multi-round-trip requests with these HMAC keys (comma-separated, newest
 * first, 32 bytes or more each), as `MCP_REQUEST_STATE_KEYS` does (the flag
 * wins): instances given the same keys take each other's retries. Without
 * either, each process signs with a random key of its own.
 *
 * `--oauth-issuer` protects the endpoint: only JWT access tokens of that
 * issuer for `http://127.0.0.1:<port>/mcp`, and `mcp:tools` for `tools/call`
 * (see `authLayer` in `Fixture.ts`); the port must then be given, since it is
 * part of the resource URL.
 *
 * `--cors <origin>` (repeatable; an origin, `https://*.example.com` or `*`)
 * lets pages of that origin call the endpoint from a browser: preflights are
 * answered and the session headers exposed (`StreamableHttpServer`'s `cors`);
 * the same origins are the `Origin` allow-list. `--allowed-hosts <h1,h2>`
 * accepts those `Host` names besides the loopback ones (a public name in front
 * of the server: a tunnel, a proxy); `--host <address>` binds another address
 * than 127.0.0.1.
 *
 * @since 0.1.0
 */
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as NodeStdio from "@effect-mcp/node/NodeStdio"
import * as NodeStreamableHttp from "@effect-mcp/node/NodeStreamableHttp"
import * as HttpServer from "effect/http/HttpServer"
import * as Layer from "effect/Layer"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Cause from "effect/Cause"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import { authLayer, FixtureLive } from "./Fixture.js"

export interface HttpOptions {
  readonly port: number
  /** Answer requests with `application/json` instead of SSE. */
  readonly jsonResponse: boolean
  /** No `Mcp-Session-Id`: every request stands alone. */
  readonly sessionPerRequest: boolean
  /** Sessions idle this long are closed (default: the endpoint's). */
  readonly idleTimeout?: Duration.Duration | undefined
  /** Sessions open at once (default: the endpoint's). */
  readonly maxSessions?: number | undefined
  /** Protect `/mcp` with JWT access tokens of this issuer (see `authLayer`). */
  readonly oauthIssuer?: string | undefined
  /** `scopes_supported` of the resource metadata (default `mcp:tools`). */
  readonly oauthScopes?: ReadonlyArray<string> | undefined
  /** Share sessions with the other instances on this Redis (`redis://…`). */
  readonly redis?: string | undefined
  /** This instance's id in the fleet (default: generated). */
  readonly instanceId?: string | undefined
  /** `--cors`: origins whose pages may call the endpoint (CORS and the `Origin` allow-list). */
  readonly cors?: ReadonlyArray<string> | undefined
  /** `--allowed-hosts`: `Host` names accepted besides the loopback ones. */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /** `--host`: the address to bind (default 127.0.0.1). */
  readonly host?: string | undefined
}

/** What both transports take: the multi-round-trip state's keys. */
interface Common {
  /** `--request-state-keys`: comma-separated, newest first (default `MCP_REQUEST_STATE_KEYS`). */
  readonly requestStateKeys?: string | undefined
}

type Options =
  | ({ readonly _tag: "Stdio" } & Common)
  | ({ readonly _tag: "Http" } & HttpOptions & Common)

const USAGE =
  "usage: server.js --stdio | --port <n> [--json-response] [--session-per-request] [--idle-timeout <duration>] [--max-sessions <n>] [--oauth-issuer <url> [--oauth-scopes \"a b\"]] [--redis <url> [--instance-id <id>]] [--request-state-keys <k1,k2>] [--cors <origin>]... [--allowed-hosts <h1,h2>] [--host <address>]"

const UNITS: Record<string, (n: number) => Duration.Duration> = {
  ms: Duration.millis,
  s: Duration.seconds,
  m: Duration.minutes,
  h: Duration.hours
}

/** `500ms`, `2s`, `5m`, `1h`, or Effect's own form (`2 seconds`). */
const parseDuration = (text: string): Duration.Duration | undefined => {
  const short = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim())
  if (short !== null) return UNITS[short[2]!]!(Number(short[1]))
  return Option.getOrUndefined(Duration.fromInput(text as Duration.Input))
}

/** Reads the command line; a string is a usage error. */
const parseArgs = (argv: ReadonlyArray<string>): Options | string => {
  let stdio = false
  let port: number | undefined
  let jsonResponse = false
  let sessionPerRequest = false
  let idleTimeout: Duration.Duration | undefined
  let maxSessions: number | undefined
  let oauthIssuer: string | undefined
  let oauthScopes: ReadonlyArray<string> | undefined
  let redis: string | undefined
  let instanceId: string | undefined
  let requestStateKeys: string | undefined
  const cors: Array<string> = []
  let allowedHosts: ReadonlyArray<string> | undefined
  let host: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    switch (arg) {
      case "--idle-timeout": {
        const value = argv[++i]
        const duration = value === undefined ? undefined : parseDuration(value)
        if (duration === undefined || Duration.toMillis(duration) <= 0) return `invalid --idle-timeout: ${value ?? "(missing)"}`
        idleTimeout = duration
        break
      }
      case "--max-sessions": {
        const value = argv[++i]
        const n = Number(value)
        if (value === undefined || !Number.isInteger(n) || n < 1) return `invalid --max-sessions: ${value ?? "(missing)"}`
        maxSessions = n
        break
      }
      case "--stdio":
        stdio = true
        break
      case "--port": {
        const value = argv[++i]
        const n = Number(value)
        if (value === undefined || !Number.isInteger(n) || n < 0 || n > 65535) return `invalid --port: ${value ?? "(missing)"}`
        port = n
        break
      }
      case "--json-response":
        jsonResponse = true
        break
      case "--session-per-request":
        sessionPerRequest = true
        break
      case "--oauth-issuer": {
        const value = argv[++i]
        if (value === undefined || !URL.canParse(value)) return `invalid --oauth-issuer: ${value ?? "(missing)"}`
        oauthIssuer = value
        break
      }
      case "--oauth-scopes": {
        const value = argv[++i]
        if (value === undefined || value.trim() === "") return "invalid --oauth-scopes: (missing)"
        oauthScopes = value.split(" ").filter((s) => s !== "")
        break
      }
      case "--redis": {
        const value = argv[++i]
        if (value === undefined || !/^rediss?:\/\//.test(value)) return `invalid --redis: ${value ?? "(missing)"}`
        redis = value
        break
      }
      case "--instance-id": {
        const value = argv[++i]
        if (value === undefined || value.trim() === "") return "invalid --instance-id: (missing)"
        instanceId = value
        break
      }
      case "--request-state-keys": {
        const value = argv[++i]
        if (value === undefined || value.trim() === "") return "invalid --request-state-keys: (missing)"
        requestStateKeys = value
        break
      }
      case "--cors": {
        const value = argv[++i]
        if (value === undefined || (value !== "*" && !URL.canParse(value.replace("://*.", "://")))) {
          return `invalid --cors: ${value ?? "(missing)"} (an origin such as https://app.example.com, https://*.example.com or *)`
        }
        cors.push(value)
        break
      }
      case "--allowed-hosts": {
        const value = argv[++i]
        const hosts = (value ?? "").split(",").map((h) => h.trim()).filter((h) => h !== "")
        if (hosts.length === 0) return "invalid --allowed-hosts: (missing)"
        allowedHosts = hosts
        break
      }
      case "--host": {
        const value = argv[++i]
        if (value === undefined || value.trim() === "") return "invalid --host: (missing)"
        host = value
        break
      }
      case "--help":
      case "-h":
        return USAGE
      default:
        if (arg.startsWith("--port=")) {
          const n = Number(arg.slice("--port=".length))
          if (!Number.isInteger(n) || n < 0 || n > 65535) return `invalid ${arg}`
          port = n
          break
        }
        return `unknown argument: ${arg}`
    }
  }
  if (stdio && port !== undefined) return "--stdio and --port are exclusive"
  if (stdio) return { _tag: "Stdio", requestStateKeys }
  if (oauthScopes !== undefined && oauthIssuer === undefined) return "--oauth-scopes needs --oauth-issuer"
  if (oauthIssuer !== undefined && (port === undefined || port === 0)) {
    return "--oauth-issuer needs a fixed --port: the port is part of the resource URL tokens are minted for"
  }
  if (instanceId !== undefined && redis === undefined) return "--instance-id needs --redis"
  if (port !== undefined) {
    return {
      _tag: "Http",
      port,
      jsonResponse,
      sessionPerRequest,
      idleTimeout,
      maxSessions,
      oauthIssuer,
      oauthScopes,
      redis,
      instanceId,
      requestStateKeys,
      ...(cors.length > 0 ? { cors } : {}),
      allowedHosts,
      host
    }
  }
  return USAGE
}

/** Serves the fixture on stdin/stdout until the client closes stdin. */
const serveStdio: Effect.Effect<void> = McpServer.run.pipe(
  Effect.provide(FixtureLive),
  Effect.provide(NodeStdio.layerServer())
)

/**
 * The endpoint; with `--redis`, its sessions and events in Redis (the Redis
 * code is loaded only then).
 */
const endpoint = (options: HttpOptions, http: NodeStreamableHttp.Options) =>
  options.redis === undefined
    ? NodeStreamableHttp.layer(http)
    : Layer.unwrap(Effect.gen(function*() {
      const { RedisClient, RedisEventStore, RedisSessionStore } = yield* Effect.promise(() => import("@effect-mcp/redis"))
      // REDIS_PREFIX keeps apart fleets sharing one Redis (default "mcp")
      const client = yield* RedisClient.make({ url: options.redis, prefix: process.env.REDIS_PREFIX })
      const sessionStore = yield* RedisSessionStore.make(client, { instanceId: options.instanceId })
      yield* Effect.sync(() => process.stderr.write(`instance ${sessionStore.instanceId} on ${options.redis}\n`))
      return NodeStreamableHttp.layer({ ...http, sessionStore, eventStore: yield* RedisEventStore.make(client) })
    }))

/**
 * Serves the fixture over streamable HTTP at http://127.0.0.1:<port>/mcp with
 * the in-memory event store, and prints `listening on …` to stderr once bound.
 */
export const serveHttp = (options: HttpOptions): Effect.Effect<void, Error> =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const port = server.address._tag === "UnixPathAddress" ? options.port : server.address.port
    const host = options.host ?? "127.0.0.1"
    const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host
    yield* Effect.sync(() => process.stderr.write(`listening on http://${shown}:${port}/mcp\n`))
    return yield* Effect.never
  }).pipe(
    Effect.provide(
      endpoint(options, {
        port: options.port,
        eventStore: true,
        retry: 500,
        jsonResponse: options.jsonResponse,
        sessionPerRequest: options.sessionPerRequest,
        sessionIdleTimeout: options.idleTimeout,
        maxSessions: options.maxSessions,
        legacySse: true,
        host: options.host,
        ...(options.cors === undefined ? {} : { cors: { allowedOrigins: options.cors } }),
        ...(options.allowedHosts === undefined
          ? {}
          : { dnsRebindingProtection: { allowedHosts: ["localhost", "127.0.0.1", "[::1]", ...options.allowedHosts] } })
      }).pipe(
        Layer.provide(FixtureLive),
        Layer.provide(
          options.oauthIssuer === undefined
            ? Layer.empty
            : authLayer({
              issuer: options.oauthIssuer,
              resource: `http://127.0.0.1:${options.port}/mcp`,
              scopes: options.oauthScopes
            })
        )
      )
    ),
    Effect.mapError((error) => new Error(`could not serve HTTP: ${String(error)}`))
  )

/** The program for parsed options; `--request-state-keys` read as `MCP_REQUEST_STATE_KEYS` would be. */
const program = (options: Options): Effect.Effect<void, Error> => {
  const serve = options._tag === "Stdio" ? serveStdio : serveHttp(options)
  const keys = options.requestStateKeys
  return keys === undefined ? serve : Effect.provideService(
    serve,
    ConfigProvider.ConfigProvider,
    ConfigProvider.orElse(ConfigProvider.fromEnv({ env: { MCP_REQUEST_STATE_KEYS: keys } }), ConfigProvider.fromEnv())
  )
}

const parsed = parseArgs(process.argv.slice(2))
if (typeof parsed === "string") {
  process.stderr.write(parsed === USAGE ? `${USAGE}\n` : `${parsed}\n${USAGE}\n`)
  process.exit(2)
}

const fiber = Effect.runFork(
  program(parsed).pipe(
    // stdout may carry the protocol: every log goes to stderr
    Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatSimple)]))
  )
)
const stop = () => {
  Effect.runFork(Fiber.interrupt(fiber))
}
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
fiber.addObserver((exit) => {
  process.off("SIGINT", stop)
  process.off("SIGTERM", stop)
  if (Exit.isFailure(exit) && !Cause.hasInterruptsOnly(exit.cause)) {
    process.stderr.write(`conformance server failed: ${Cause.pretty(exit.cause)}\n`)
    process.exitCode = 1
  }
})
