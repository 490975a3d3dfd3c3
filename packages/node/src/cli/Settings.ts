/**
 * The global options of `emcp`, checked: where the server is, how to print,
 * how long to wait, and what to answer the server's requests with.
 *
 * @since 0.1.0
 */
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as os from "node:os"
import * as path from "node:path"
import type { GlobalConfig } from "./Args.js"
import { CliError } from "./CliError.js"
import {
  type ElicitAnswer,
  LOG_LEVELS,
  parseDuration,
  parseElicit,
  parseRoot,
  parseSamplingResponse,
  splitCommand,
  splitPair
} from "./Values.js"

/** How to reach the server. */
export type Connection =
  | {
    readonly _tag: "Stdio"
    readonly command: string
    readonly args: ReadonlyArray<string>
    readonly env: Readonly<Record<string, string>>
    readonly cwd: string | undefined
  }
  | {
    readonly _tag: "Http"
    readonly url: string
    readonly headers: Readonly<Record<string, string>>
    /** How to sign in on a 401; none when the request carries its own Authorization. */
    readonly signIn: SignIn | undefined
  }

/** OAuth sign-in of an `--url` connection. */
export interface SignIn {
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
  readonly scope: string | undefined
  /** `false` with --no-login: a stored (or refreshed) token only. */
  readonly login: boolean
  /** The token store: tokens.json under the config directory. */
  readonly tokenFile: string
}

/** `$EMCP_CONFIG_DIR`, else `$XDG_CONFIG_HOME/emcp`, else `~/.config/emcp`. */
export const configDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.EMCP_CONFIG_DIR !== undefined && env.EMCP_CONFIG_DIR !== ""
    ? env.EMCP_CONFIG_DIR
    : path.join(
      env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : path.join(os.homedir(), ".config"),
      "emcp"
    )

/** The global options, checked. */
export interface Settings {
  readonly connection: Connection
  readonly json: boolean
  readonly timeout: Duration.Duration | undefined
  readonly logLevel: McpSchema.LoggingLevel | undefined
  readonly quiet: boolean
  readonly verbose: boolean
  readonly samplingResponse: McpSchema.CreateMessageResult | undefined
  readonly elicit: ElicitAnswer | undefined
  readonly roots: ReadonlyArray<McpSchema.Root>
  /** The client's era (`--protocol`): auto, 2025 or pinned 2026-07-28. */
  readonly era: "auto" | "2025" | "2026-07-28"
}

/** A parse result as an effect failing with a usage error. */
export const orUsage = <A>(e: Result.Result<A, string>): Effect.Effect<A, CliError> =>
  Result.match(e, { onFailure: (m) => Effect.fail(CliError.usage(m)), onSuccess: Effect.succeed })

const stdioConnection = (g: GlobalConfig, line: string): Effect.Effect<Connection, CliError> =>
  Effect.gen(function*() {
    if (g.header.length > 0 || g.token !== undefined) return yield* CliError.usage("--header and --token apply to --url only")
    if (g.clientId !== undefined || g.clientSecret !== undefined || g.scope !== undefined || g.noLogin) {
      return yield* CliError.usage("--client-id, --client-secret, --scope and --no-login apply to --url only")
    }
    const words = yield* orUsage(Result.mapError(splitCommand(line), (m) => `--stdio: ${m}`))
    if (words.length === 0) return yield* CliError.usage("--stdio needs a command")
    const env: Record<string, string> = {}
    for (const e of g.env) {
      const [k, v] = yield* orUsage(splitPair(e, "=", "--env"))
      env[k] = v
    }
    return { _tag: "Stdio", command: words[0]!, args: words.slice(1), env, cwd: g.cwd }
  })

const httpConnection = (g: GlobalConfig, text: string): Effect.Effect<Connection, CliError> =>
  Effect.gen(function*() {
    if (g.env.length > 0 || g.cwd !== undefined) return yield* CliError.usage("--env and --cwd apply to --stdio only")
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return yield* CliError.usage(`invalid --url '${text}'`)
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return yield* CliError.usage(`--url must be http:// or https:// (got ${url.protocol})`)
    }
    const headers: Record<string, string> = {}
    for (const h of g.header) {
      const [k, v] = yield* orUsage(splitPair(h, ":", "header"))
      headers[k] = v
    }
    if (g.token !== undefined) {
      if (g.token.trim() === "" || /[\s]/.test(g.token.trim())) return yield* CliError.usage("--token must be one word (the bearer token itself)")
      if (Object.keys(headers).some((k) => k.toLowerCase() === "authorization")) {
        return yield* CliError.usage("--token and --header 'Authorization: …' conflict: give one")
      }
      headers.authorization = `Bearer ${g.token.trim()}`
    }
    return { _tag: "Http", url: url.href, headers, signIn: yield* signIn(g, headers) }
  })

const signIn = (g: GlobalConfig, headers: Readonly<Record<string, string>>): Effect.Effect<SignIn | undefined, CliError> =>
  Effect.gen(function*() {
    const own = Object.keys(headers).some((k) => k.toLowerCase() === "authorization")
    const flags = g.clientId !== undefined || g.clientSecret !== undefined || g.scope !== undefined
    if (own) {
      if (flags) return yield* CliError.usage("--client-id, --client-secret and --scope conflict with --token or an Authorization header")
      return undefined
    }
    if (g.clientSecret !== undefined && g.clientId === undefined) return yield* CliError.usage("--client-secret needs --client-id")
    return {
      clientId: g.clientId,
      clientSecret: g.clientSecret,
      scope: g.scope,
      login: !g.noLogin,
      tokenFile: path.join(configDir(), "tokens.json")
    }
  })

const eraOf = (text: string | undefined): Effect.Effect<Settings["era"], CliError> =>
  text === undefined || text === "auto"
    ? Effect.succeed("auto")
    : text === "2026-07-28"
    ? Effect.succeed("2026-07-28")
    : text === "2025-11-25"
    ? Effect.succeed("2025")
    : Effect.fail(CliError.usage(`invalid --protocol '${text}' (expected 2025-11-25, 2026-07-28 or auto)`))

const logLevel = (text: string): Effect.Effect<McpSchema.LoggingLevel, CliError> => {
  const level = text.toLowerCase()
  return (LOG_LEVELS as ReadonlyArray<string>).includes(level)
    ? Effect.succeed(level as McpSchema.LoggingLevel)
    : Effect.fail(CliError.usage(`invalid --log-level '${text}' (expected one of ${LOG_LEVELS.join(", ")})`))
}

/** Checks the global options. */
export const toSettings = (g: GlobalConfig): Effect.Effect<Settings, CliError> =>
  Effect.gen(function*() {
    if (g.stdio !== undefined && g.url !== undefined) return yield* CliError.usage("--stdio and --url are exclusive")
    const connection = g.stdio !== undefined
      ? yield* stdioConnection(g, g.stdio)
      : g.url !== undefined
      ? yield* httpConnection(g, g.url)
      : yield* CliError.usage("no server given: use --stdio \"<command and args>\" or --url <url> (see emcp --help)")
    return {
      connection,
      json: g.json,
      timeout: g.timeout !== undefined ? yield* orUsage(parseDuration(g.timeout)) : undefined,
      logLevel: g.logLevel !== undefined ? yield* logLevel(g.logLevel) : undefined,
      quiet: g.quiet,
      verbose: g.verbose,
      samplingResponse: g.samplingResponse !== undefined
        ? yield* orUsage(parseSamplingResponse(g.samplingResponse))
        : undefined,
      elicit: g.elicit !== undefined ? yield* orUsage(parseElicit(g.elicit)) : undefined,
      roots: g.root.map(parseRoot),
      era: yield* eraOf(g.protocol)
    }
  })
