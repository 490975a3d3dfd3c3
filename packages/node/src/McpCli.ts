/**
 * `emcp`: talk to any MCP server from the shell.
 *
 *   emcp (--stdio "<command>" | --url <url>) [global options] <command> [arguments]
 *
 * Commands: `info`, `tools list`, `tools call NAME [JSON] [--arg k=v ...]`,
 * `resources list`, `resources templates`, `resources read URI`,
 * `prompts list`, `prompts get NAME [JSON] [--arg k=v ...]`,
 * `complete (--prompt NAME | --resource URI) ARGUMENT [VALUE]`, `ping`, and
 * `call METHOD [PARAMS_JSON]` for any request.
 *
 * Global options (connection, `--json`, `--timeout`, `--log-level`, the
 * answers to server requests, ...) may appear anywhere on the command line,
 * before or after the command: `normalizeArgs` moves them in front of it
 * before `@effect/cli` parses the line. Human output by default; `--json`
 * prints exactly the JSON result on stdout. Every failure exits non-zero with
 * one line on stderr (exit code 2 for a usage error, 1 for anything else).
 *
 * @example
 * ```ts
 * import * as McpCli from "@effect-mcp/node/McpCli"
 * import * as NodeContext from "@effect/platform-node/NodeContext"
 * import * as Effect from "effect/Effect"
 *
 * const exitCode = McpCli.run(["node", "emcp", "--stdio", "node server.js", "tools", "list"]).pipe(
 *   Effect.provide(NodeContext.layer)
 * )
 * ```
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import type * as CliApp from "@effect/cli/CliApp"
import * as CliConfig from "@effect/cli/CliConfig"
import * as CliCommand from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Prompt from "@effect/cli/Prompt"
import * as ValidationError from "@effect/cli/ValidationError"
import type * as PlatformError from "@effect/platform/Error"
import * as Terminal from "@effect/platform/Terminal"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError, type TransportError } from "@effect-mcp/mcp/McpError"
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import type * as Protocol from "@effect-mcp/mcp/Protocol"
import type { Transport } from "@effect-mcp/mcp/Transport"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { basename, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import * as NodeStdio from "./NodeStdio.js"

/** The version `emcp` reports (`--version`, `clientInfo`). */
export const VERSION = "0.1.0"

// ============================================================================
// errors
// ============================================================================

/** A failure of the command, reported as one line on stderr with its exit code. */
export class CliError extends Data.TaggedError("CliError")<{
  readonly message: string
  readonly exitCode: number
}> {
  static usage(message: string): CliError {
    return new CliError({ message, exitCode: 2 })
  }
  static failure(message: string): CliError {
    return new CliError({ message, exitCode: 1 })
  }
}

/** Any text as one line: lines joined with ` | `, bounded in length. */
export const oneLine = (text: string, max = 600): string => {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join(" | ")
  return line.length > max ? `${line.slice(0, max - 3)}...` : line
}

const describeClientError = (error: McpClient.ClientError | TransportError): string => {
  switch (error._tag) {
    case "McpError": {
      const data = error.data === undefined ? "" : ` (data: ${JSON.stringify(error.data)})`
      return `server error ${error.code}: ${error.message}${data}`
    }
    case "ProtocolError":
      return error.message
    case "TransportError":
      return error.message
  }
}

// ============================================================================
// parsing helpers (pure, exported for tests)
// ============================================================================

/**
 * Splits a command line the way a POSIX shell would for simple quoting:
 * whitespace separates words, `'...'` is literal, `"..."` honours `\"`, `\\`,
 * `\$` and `` \` ``, and a backslash outside quotes escapes the next
 * character. No expansion of any kind.
 */
export const splitCommand = (line: string): Either.Either<Array<string>, string> => {
  const words: Array<string> = []
  let word = ""
  let inWord = false
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end === -1) return Either.left("unterminated single quote")
      word += line.slice(i + 1, end)
      inWord = true
      i = end + 1
    } else if (c === "\"") {
      i++
      let closed = false
      while (i < line.length) {
        const d = line[i]!
        if (d === "\"") {
          closed = true
          i++
          break
        }
        if (d === "\\" && i + 1 < line.length && "\"\\$`".includes(line[i + 1]!)) {
          word += line[i + 1]
          i += 2
        } else {
          word += d
          i++
        }
      }
      if (!closed) return Either.left("unterminated double quote")
      inWord = true
    } else if (c === "\\") {
      if (i + 1 >= line.length) return Either.left("trailing backslash")
      word += line[i + 1]
      inWord = true
      i += 2
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word)
      word = ""
      inWord = false
      i++
    } else {
      word += c
      inWord = true
      i++
    }
  }
  if (inWord) words.push(word)
  return Either.right(words)
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  millis: 1,
  milliseconds: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000
}

/** Parses `500ms`, `30s`, `1.5m`, `2h` or a bare number of seconds. */
export const parseDuration = (text: string): Either.Either<Duration.Duration, string> => {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(text)
  if (match === null) return Either.left(`invalid duration '${text}' (expected e.g. 30s, 500ms, 2m)`)
  const unit = match[2]!.toLowerCase()
  const factor = unit === "" ? 1000 : DURATION_UNITS[unit]
  if (factor === undefined) return Either.left(`invalid duration unit in '${text}' (use ms, s, m or h)`)
  const ms = Number(match[1]) * factor
  if (!(ms > 0)) return Either.left(`the duration '${text}' must be positive`)
  return Either.right(Duration.millis(ms))
}

/** Formats a duration as the user would write it. */
const formatDuration = (d: Duration.Duration): string => {
  const ms = Duration.toMillis(d)
  if (ms % 60_000 === 0) return `${ms / 60_000}m`
  if (ms % 1000 === 0) return `${ms / 1000}s`
  return `${ms}ms`
}

/** JSON Schema type names of a property (`type` may be a string or an array). */
const schemaTypes = (schema: unknown): ReadonlyArray<string> => {
  if (typeof schema !== "object" || schema === null) return []
  const t = (schema as { readonly type?: unknown }).type
  if (typeof t === "string") return [t]
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string")
  return []
}

/**
 * Types the value of `--arg key=value`. With the property's JSON Schema: a
 * string stays a string, numbers and booleans are parsed, objects and arrays
 * are read as JSON. Without one, the value is read as JSON when it is valid
 * JSON and is not a plain word (so `42`, `true`, `null`, `[1]` are typed and
 * `hello` stays a string).
 */
export const parseArgValue = (raw: string, propertySchema?: unknown): Either.Either<unknown, string> => {
  const types = schemaTypes(propertySchema)
  const tryJson = (): Either.Either<unknown, string> => {
    try {
      return Either.right(JSON.parse(raw))
    } catch {
      return Either.left(`'${raw}' is not valid JSON`)
    }
  }
  if (types.length > 0) {
    if (types.includes("string") && types.length === 1) return Either.right(raw)
    if (types.includes("integer") || types.includes("number")) {
      const n = Number(raw)
      if (raw.trim() !== "" && Number.isFinite(n)) {
        if (types.includes("integer") && !types.includes("number") && !Number.isInteger(n)) {
          return Either.left(`'${raw}' is not an integer`)
        }
        return Either.right(n)
      }
      if (!types.includes("string") && !types.includes("boolean") && !types.includes("null")) {
        return Either.left(`'${raw}' is not a number`)
      }
    }
    if (types.includes("boolean")) {
      if (raw === "true") return Either.right(true)
      if (raw === "false") return Either.right(false)
      if (types.length === 1) return Either.left(`'${raw}' is not a boolean (true or false)`)
    }
    if (types.includes("null") && raw === "null") return Either.right(null)
    if (types.includes("object") || types.includes("array")) {
      const parsed = tryJson()
      if (Either.isRight(parsed) || !types.includes("string")) return parsed
    }
    if (types.includes("string")) return Either.right(raw)
    return tryJson()
  }
  try {
    const parsed: unknown = JSON.parse(raw)
    return Either.right(parsed)
  } catch {
    return Either.right(raw)
  }
}

/** Splits `key=value` (the first `=`); a missing `=` is an error. */
const splitPair = (text: string, separator: string, what: string): Either.Either<readonly [string, string], string> => {
  const at = text.indexOf(separator)
  if (at <= 0) return Either.left(`invalid ${what} '${text}' (expected ${what === "header" ? "Name: value" : "key=value"})`)
  return Either.right([text.slice(0, at).trim(), separator === ":" ? text.slice(at + 1).trim() : text.slice(at + 1)])
}

/** The MCP log levels, least severe first. */
export const LOG_LEVELS: ReadonlyArray<McpSchema.LoggingLevel> = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency"
]

/** The global options as given on the command line, not yet checked. */
export interface GlobalConfig {
  readonly stdio: Option.Option<string>
  readonly url: Option.Option<string>
  readonly env: ReadonlyArray<string>
  readonly cwd: Option.Option<string>
  readonly header: ReadonlyArray<string>
  readonly json: boolean
  readonly timeout: Option.Option<string>
  readonly logLevel: Option.Option<string>
  readonly samplingResponse: Option.Option<string>
  readonly elicit: Option.Option<string>
  readonly root: ReadonlyArray<string>
  readonly quiet: boolean
  readonly verbose: boolean
}

type Single = "stdio" | "url" | "cwd" | "timeout" | "logLevel" | "samplingResponse" | "elicit"
type Repeated = "env" | "header" | "root"
type Flag = "json" | "quiet" | "verbose"

/** The global options: they may appear anywhere on the command line (before a `--`). */
const GLOBAL_OPTIONS: ReadonlyMap<
  string,
  | { readonly _tag: "Single"; readonly key: Single }
  | { readonly _tag: "Repeated"; readonly key: Repeated }
  | { readonly _tag: "Flag"; readonly key: Flag }
> = new Map([
  ["--stdio", { _tag: "Single", key: "stdio" }],
  ["--url", { _tag: "Single", key: "url" }],
  ["--env", { _tag: "Repeated", key: "env" }],
  ["--cwd", { _tag: "Single", key: "cwd" }],
  ["--header", { _tag: "Repeated", key: "header" }],
  ["--timeout", { _tag: "Single", key: "timeout" }],
  ["--log-level", { _tag: "Single", key: "logLevel" }],
  ["--sampling-response", { _tag: "Single", key: "samplingResponse" }],
  ["--elicit", { _tag: "Single", key: "elicit" }],
  ["--root", { _tag: "Repeated", key: "root" }],
  ["--json", { _tag: "Flag", key: "json" }],
  ["--quiet", { _tag: "Flag", key: "quiet" }],
  ["-q", { _tag: "Flag", key: "quiet" }],
  ["--verbose", { _tag: "Flag", key: "verbose" }]
] as const)

/** The command line split by `normalizeArgs`. */
export interface NormalizedArgs {
  /** The global options. */
  readonly globals: GlobalConfig
  /** The rest: the command, its arguments and options, for `@effect/cli`. */
  readonly args: ReadonlyArray<string>
}

/**
 * Takes the global options out of the command line, wherever they are (up to
 * a `--`), so that `emcp tools call echo '{}' --json --stdio "..."` means
 * `emcp --stdio "..." --json tools call echo '{}'`. `--name value` and
 * `--name=value` are both accepted; a value may start with `-`.
 *
 * The root command declares the same options for its help only:
 * `@effect/cli` keeps an option on the command that declares it (so a global
 * option after a subcommand's arguments would be lost), its repeated options
 * refuse the `=` form, and it reserves `--log-level` for Effect's own logger.
 */
export const normalizeArgs = (args: ReadonlyArray<string>): Either.Either<NormalizedArgs, string> => {
  const single: Partial<Record<Single, string>> = {}
  const repeated: Record<Repeated, Array<string>> = { env: [], header: [], root: [] }
  const flags: Record<Flag, boolean> = { json: false, quiet: false, verbose: false }
  const rest: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--") {
      rest.push(...args.slice(i))
      break
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const name = eq === -1 ? arg : arg.slice(0, eq)
    const spec = GLOBAL_OPTIONS.get(name)
    if (spec === undefined) {
      rest.push(arg)
      continue
    }
    if (spec._tag === "Flag") {
      if (eq !== -1) return Either.left(`${name} takes no value`)
      flags[spec.key] = true
      continue
    }
    let value: string
    if (eq !== -1) value = arg.slice(eq + 1)
    else if (i + 1 < args.length) value = args[++i]!
    else return Either.left(`${name} needs a value`)
    if (spec._tag === "Repeated") {
      repeated[spec.key].push(value)
    } else {
      if (single[spec.key] !== undefined) return Either.left(`${name} given more than once`)
      single[spec.key] = value
    }
  }
  const opt = (key: Single) => Option.fromNullable(single[key])
  return Either.right({
    globals: {
      stdio: opt("stdio"),
      url: opt("url"),
      env: repeated.env,
      cwd: opt("cwd"),
      header: repeated.header,
      json: flags.json,
      timeout: opt("timeout"),
      logLevel: opt("logLevel"),
      samplingResponse: opt("samplingResponse"),
      elicit: opt("elicit"),
      root: repeated.root,
      quiet: flags.quiet,
      verbose: flags.verbose
    },
    args: rest
  })
}

/** What `--elicit` answers. */
export type ElicitAnswer =
  | { readonly action: "accept"; readonly content: { readonly [key: string]: unknown } }
  | { readonly action: "decline" }
  | { readonly action: "cancel" }

/** Parses `accept:JSON`, `accept`, `decline` or `cancel`. */
export const parseElicit = (text: string): Either.Either<ElicitAnswer, string> => {
  const t = text.trim()
  if (t === "decline" || t === "cancel") return Either.right({ action: t })
  if (t === "accept") return Either.right({ action: "accept", content: {} })
  if (t.startsWith("accept:")) {
    try {
      const content: unknown = JSON.parse(t.slice("accept:".length))
      if (typeof content !== "object" || content === null || Array.isArray(content)) {
        return Either.left("--elicit accept:JSON needs a JSON object")
      }
      return Either.right({ action: "accept", content: content as Record<string, unknown> })
    } catch (e) {
      return Either.left(`--elicit accept:JSON is not valid JSON: ${(e as Error).message}`)
    }
  }
  return Either.left(`invalid --elicit '${text}' (expected accept:JSON, accept, decline or cancel)`)
}

const decodeCreateMessageResult = Schema.decodeUnknownEither(McpSchema.CreateMessageResult)

/**
 * Parses `--sampling-response`: a `CreateMessageResult` as JSON (`role`
 * defaults to `assistant`, `model` to `emcp`), a JSON string, or plain text
 * (answered as one text content).
 */
export const parseSamplingResponse = (text: string): Either.Either<McpSchema.CreateMessageResult, string> => {
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // plain text
  }
  if (typeof parsed === "string") {
    return Either.right({ role: "assistant", content: { type: "text", text: parsed }, model: "emcp", stopReason: "endTurn" })
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return Either.left("--sampling-response must be a CreateMessageResult JSON object or text")
  }
  const candidate = { role: "assistant", model: "emcp", ...parsed }
  return Either.mapLeft(
    decodeCreateMessageResult(candidate),
    (e) => `--sampling-response is not a valid CreateMessageResult: ${oneLine(String(e.message), 300)}`
  )
}

/** A root from a path or a URI. */
export const parseRoot = (text: string): McpSchema.Root => {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { uri: text }
  const path = resolve(text)
  return { uri: pathToFileURL(path).href, name: basename(path) }
}

// ============================================================================
// settings
// ============================================================================

type Connection =
  | {
    readonly _tag: "Stdio"
    readonly command: string
    readonly args: ReadonlyArray<string>
    readonly env: Readonly<Record<string, string>>
    readonly cwd: string | undefined
  }
  | { readonly _tag: "Http"; readonly url: string; readonly headers: Readonly<Record<string, string>> }

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
}

const orUsage = <A>(e: Either.Either<A, string>): Effect.Effect<A, CliError> =>
  Either.match(e, { onLeft: (m) => Effect.fail(CliError.usage(m)), onRight: Effect.succeed })

/** Checks the global options. */
export const toSettings = (g: GlobalConfig): Effect.Effect<Settings, CliError> =>
  Effect.gen(function*() {
    let connection: Connection
    if (Option.isSome(g.stdio) && Option.isSome(g.url)) {
      return yield* CliError.usage("--stdio and --url are exclusive")
    }
    if (Option.isSome(g.stdio)) {
      if (g.header.length > 0) return yield* CliError.usage("--header applies to --url only")
      const words = yield* orUsage(Either.mapLeft(splitCommand(g.stdio.value), (m) => `--stdio: ${m}`))
      if (words.length === 0) return yield* CliError.usage("--stdio needs a command")
      const env: Record<string, string> = {}
      for (const e of g.env) {
        const [k, v] = yield* orUsage(splitPair(e, "=", "--env"))
        env[k] = v
      }
      connection = {
        _tag: "Stdio",
        command: words[0]!,
        args: words.slice(1),
        env,
        cwd: Option.getOrUndefined(g.cwd)
      }
    } else if (Option.isSome(g.url)) {
      if (g.env.length > 0 || Option.isSome(g.cwd)) return yield* CliError.usage("--env and --cwd apply to --stdio only")
      let url: URL
      try {
        url = new URL(g.url.value)
      } catch {
        return yield* CliError.usage(`invalid --url '${g.url.value}'`)
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        return yield* CliError.usage(`--url must be http:// or https:// (got ${url.protocol})`)
      }
      const headers: Record<string, string> = {}
      for (const h of g.header) {
        const [k, v] = yield* orUsage(splitPair(h, ":", "header"))
        headers[k] = v
      }
      connection = { _tag: "Http", url: url.href, headers }
    } else {
      return yield* CliError.usage("no server given: use --stdio \"<command and args>\" or --url <url> (see emcp --help)")
    }
    const timeout = Option.isSome(g.timeout) ? yield* orUsage(parseDuration(g.timeout.value)) : undefined
    const samplingResponse = Option.isSome(g.samplingResponse)
      ? yield* orUsage(parseSamplingResponse(g.samplingResponse.value))
      : undefined
    const elicit = Option.isSome(g.elicit) ? yield* orUsage(parseElicit(g.elicit.value)) : undefined
    let logLevel: McpSchema.LoggingLevel | undefined
    if (Option.isSome(g.logLevel)) {
      const level = g.logLevel.value.toLowerCase()
      if (!(LOG_LEVELS as ReadonlyArray<string>).includes(level)) {
        return yield* CliError.usage(`invalid --log-level '${g.logLevel.value}' (expected one of ${LOG_LEVELS.join(", ")})`)
      }
      logLevel = level as McpSchema.LoggingLevel
    }
    return {
      connection,
      json: g.json,
      timeout,
      logLevel,
      quiet: g.quiet,
      verbose: g.verbose,
      samplingResponse,
      elicit,
      roots: g.root.map(parseRoot)
    }
  })

// ============================================================================
// terminal output
// ============================================================================

const writeTo = (stream: NodeJS.WriteStream, text: string): Effect.Effect<void> =>
  text === ""
    ? Effect.void
    : Effect.async<void>((resume) => {
      stream.write(text, () => resume(Effect.void))
    })

/** The line of progress and the log lines share stderr. */
class Stderr {
  private barShown = false
  private paused = false
  constructor(readonly tty: boolean) {}
  /** Writes lines to stderr, clearing the progress bar first. */
  line(text: string): void {
    this.clearBar()
    process.stderr.write(text.endsWith("\n") ? text : `${text}\n`)
  }
  clearBar(): void {
    if (this.barShown) {
      process.stderr.write("\r\x1b[2K")
      this.barShown = false
    }
  }
  progress(p: Protocol.ProgressParams): void {
    if (this.paused) return
    const total = typeof p.total === "number" && p.total > 0 ? p.total : undefined
    const message = typeof p.message === "string" && p.message !== "" ? ` ${p.message}` : ""
    if (!this.tty) {
      const pct = total === undefined ? "" : ` (${Math.floor((p.progress / total) * 100)}%)`
      this.line(`progress ${p.progress}${total === undefined ? "" : `/${total}`}${pct}${message}`)
      return
    }
    const width = 24
    let bar: string
    if (total === undefined) {
      bar = `${p.progress}`
    } else {
      const ratio = Math.max(0, Math.min(1, p.progress / total))
      const filled = Math.round(ratio * width)
      bar = `[${"█".repeat(filled)}${"░".repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${p.progress}/${total}`
    }
    const columns = process.stderr.columns || 80
    const text = `${bar}${message}`
    process.stderr.write(`\r\x1b[2K${text.slice(0, Math.max(10, columns - 1))}`)
    this.barShown = true
  }
  pause<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.acquireUseRelease(
      Effect.sync(() => {
        this.clearBar()
        this.paused = true
      }),
      () => effect,
      () => Effect.sync(() => (this.paused = false))
    )
  }
}

/** The one stderr of the process. */
const stderr = new Stderr(process.stderr.isTTY === true)

/** Writes to stdout (the progress bar cleared first), waiting until it is flushed. */
const stdout = (text: string) =>
  Effect.suspend(() => {
    stderr.clearBar()
    return writeTo(process.stdout, text.endsWith("\n") ? text : `${text}\n`)
  })

const base64Bytes = (data: string): number => {
  const clean = data.replace(/\s/g, "")
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding)
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** One content block for a human: text as is, binary summarised. */
export const renderContent = (block: unknown): string => {
  const c = block as { readonly type?: unknown; readonly [key: string]: unknown }
  switch (c.type) {
    case "text":
      return String(c.text)
    case "image":
    case "audio":
      return `[${c.type} ${String(c.mimeType)}, ${plural(base64Bytes(String(c.data ?? "")), "byte")}]`
    case "resource_link": {
      const extra = [c.name !== undefined ? `"${String(c.name)}"` : "", c.mimeType !== undefined ? String(c.mimeType) : ""]
        .filter((s) => s !== "")
        .join(" ")
      return `[resource link ${String(c.uri)}${extra === "" ? "" : ` ${extra}`}]`
    }
    case "resource": {
      const r = (c.resource ?? {}) as { readonly [key: string]: unknown }
      const mime = r.mimeType !== undefined ? ` ${String(r.mimeType)}` : ""
      if (typeof r.text === "string") return `[resource ${String(r.uri)}${mime}]\n${r.text}`
      return `[resource ${String(r.uri)}${mime}, ${plural(base64Bytes(String(r.blob ?? "")), "byte")}]`
    }
    default:
      return JSON.stringify(block)
  }
}

/** Resource contents for a human: text as is, blobs summarised; several get a header each. */
export const renderResourceContents = (contents: ReadonlyArray<unknown>): string => {
  const parts = contents.map((item) => {
    const r = item as { readonly [key: string]: unknown }
    const mime = r.mimeType !== undefined ? ` ${String(r.mimeType)}` : ""
    if (typeof r.text === "string") {
      return contents.length === 1 ? r.text : `[${String(r.uri)}${mime}]\n${r.text}`
    }
    return `[blob ${String(r.uri)}${mime}, ${plural(base64Bytes(String(r.blob ?? "")), "byte")}]`
  })
  return parts.join("\n")
}

/** A plain text table; the last column is cut to the terminal's width when stdout is one. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)))
  const columns = process.stdout.isTTY ? process.stdout.columns ?? 0 : 0
  return all
    .map((row) => {
      const line = row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd()
      return columns > 10 && line.length > columns ? `${line.slice(0, columns - 1)}…` : line
    })
    .join("\n")
}

const firstLine = (text: string | undefined): string => (text ?? "").split("\n")[0]!.trim()

/** `text: string, bytes?: integer` from a tool's input schema. */
export const toolArguments = (schema: McpSchema.Tool["inputSchema"]): string => {
  const props = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  return Object.entries(props)
    .map(([name, p]) => {
      const types = schemaTypes(p)
      return `${name}${required.has(name) ? "" : "?"}${types.length > 0 ? `: ${types.join("|")}` : ""}`
    })
    .join(", ")
}

// ============================================================================
// server requests: sampling, elicitation, roots
// ============================================================================

const interactive = () => process.stdin.isTTY === true && process.stderr.isTTY === true

/** The terminal with prompts drawn on stderr, so that stdout keeps only the result. */
const stderrTerminal = Effect.map(Terminal.Terminal, (t) =>
  Terminal.Terminal.of({
    ...t,
    columns: Effect.sync(() => process.stderr.columns || 80),
    rows: Effect.sync(() => process.stderr.rows || 24),
    display: (text: string): Effect.Effect<void, PlatformError.PlatformError> => writeTo(process.stderr, text)
  }))

type PromptEnv = Prompt.Prompt.Environment

const runPrompt = <A>(prompt: Prompt.Prompt<A>): Effect.Effect<A, Terminal.QuitException, PromptEnv> =>
  Effect.flatMap(stderrTerminal, (terminal) => Effect.provideService(Prompt.run(prompt), Terminal.Terminal, terminal))

const describeSamplingContent = (content: unknown): string =>
  (Array.isArray(content) ? content : [content]).map((c) => renderContent(c)).join("\n")

const samplingInteractive = (
  params: McpSchema.CreateMessageRequestParams,
  err: Stderr
): Effect.Effect<McpSchema.CreateMessageResult, McpError, PromptEnv> =>
  Effect.gen(function*() {
    const lines = ["", "── the server asks for an LLM completion (sampling/createMessage) ──"]
    if (params.systemPrompt !== undefined) lines.push(`system: ${params.systemPrompt}`)
    for (const m of params.messages) lines.push(`[${m.role}] ${describeSamplingContent(m.content)}`)
    lines.push(`(maxTokens ${params.maxTokens})`)
    err.line(lines.join("\n"))
    const action = yield* runPrompt(Prompt.select({
      message: "Answer?",
      choices: [
        { title: "reply", value: "reply" as const },
        { title: "reject", value: "reject" as const }
      ]
    }))
    if (action === "reject") return yield* new McpError({ code: -1, message: "The user rejected the sampling request" })
    const text = yield* runPrompt(Prompt.text({ message: "Reply" }))
    return { role: "assistant" as const, content: { type: "text" as const, text }, model: "emcp-user", stopReason: "endTurn" }
  }).pipe(
    Effect.catchTag("QuitException", () => Effect.fail(new McpError({ code: -1, message: "The user cancelled the sampling request" })))
  )

/** Prompts for one field of an elicitation form; `undefined` leaves it out. */
const promptField = (
  name: string,
  schema: McpSchema.PrimitiveSchemaDefinition,
  required: boolean
): Effect.Effect<unknown, Terminal.QuitException, PromptEnv> => {
  const s = schema as { readonly [key: string]: unknown }
  const label = `${typeof s.title === "string" ? s.title : name}${typeof s.description === "string" ? ` (${s.description})` : ""}${required ? "" : " [optional]"}`
  const skip = { title: "(leave empty)", value: undefined as string | undefined }
  if (s.type === "array") {
    const items = (s.items ?? {}) as { readonly enum?: ReadonlyArray<string>; readonly anyOf?: ReadonlyArray<{ const: string; title: string }> }
    const choices = items.anyOf !== undefined
      ? items.anyOf.map((o) => ({ title: o.title, value: o.const }))
      : (items.enum ?? []).map((v) => ({ title: v, value: v }))
    const defaults = new Set(Array.isArray(s.default) ? (s.default as ReadonlyArray<string>) : [])
    return runPrompt(Prompt.multiSelect({
      message: label,
      choices: choices.map((c) => ({ ...c, selected: defaults.has(c.value) })),
      ...(typeof s.minItems === "number" ? { min: s.minItems } : {}),
      ...(typeof s.maxItems === "number" ? { max: s.maxItems } : {})
    }))
  }
  if (s.type === "string" && (Array.isArray(s.enum) || Array.isArray(s.oneOf))) {
    const choices: Array<{ title: string; value: string | undefined }> = Array.isArray(s.oneOf)
      ? (s.oneOf as ReadonlyArray<{ const: string; title: string }>).map((o) => ({ title: o.title, value: o.const }))
      : (s.enum as ReadonlyArray<string>).map((v, i) => ({
        title: Array.isArray(s.enumNames) && typeof s.enumNames[i] === "string" ? `${s.enumNames[i]} (${v})` : v,
        value: v
      }))
    if (typeof s.default === "string") {
      const at = choices.findIndex((c) => c.value === s.default)
      if (at > 0) choices.unshift(...choices.splice(at, 1))
    }
    if (!required) choices.push(skip)
    return runPrompt(Prompt.select({ message: label, choices }))
  }
  if (s.type === "boolean") {
    return runPrompt(Prompt.confirm({ message: label, initial: s.default === true }))
  }
  const numeric = s.type === "number" || s.type === "integer"
  return Effect.map(
    runPrompt(Prompt.text({
      message: label,
      ...(s.default !== undefined ? { default: String(s.default) } : {}),
      validate: (value) => {
        if (value === "") return required && s.default === undefined ? Effect.fail("required") : Effect.succeed(value)
        if (numeric) {
          const n = Number(value)
          if (!Number.isFinite(n)) return Effect.fail("not a number")
          if (s.type === "integer" && !Number.isInteger(n)) return Effect.fail("not an integer")
        }
        return Effect.succeed(value)
      }
    })),
    (value) => (value === "" ? undefined : numeric ? Number(value) : value)
  )
}

const elicitFormInteractive = (
  params: McpSchema.ElicitRequestFormParams,
  err: Stderr
): Effect.Effect<McpSchema.ElicitResult, never, PromptEnv> =>
  Effect.gen(function*() {
    err.line(`\n── the server asks for input (elicitation/create) ──\n${params.message}`)
    const action = yield* runPrompt(Prompt.select({
      message: "Respond?",
      choices: [
        { title: "accept (fill in the form)", value: "accept" as const },
        { title: "decline", value: "decline" as const },
        { title: "cancel", value: "cancel" as const }
      ]
    }))
    if (action !== "accept") return { action }
    const required = new Set(params.requestedSchema.required ?? [])
    const content: Record<string, unknown> = {}
    for (const [name, schema] of Object.entries(params.requestedSchema.properties)) {
      const value = yield* promptField(name, schema, required.has(name))
      if (value !== undefined) content[name] = value
    }
    return { action: "accept" as const, content: content as NonNullable<McpSchema.ElicitResult["content"]> }
  }).pipe(Effect.catchTag("QuitException", () => Effect.succeed({ action: "cancel" as const })))

const elicitUrlInteractive = (
  params: McpSchema.ElicitRequestURLParams,
  err: Stderr
): Effect.Effect<McpSchema.ElicitResult, never, PromptEnv> =>
  Effect.gen(function*() {
    err.line(`\n── the server asks you to open a URL (elicitation/create) ──\n${params.message}\n${params.url}`)
    const ok = yield* runPrompt(Prompt.confirm({ message: "Did you complete it?", initial: true }))
    return { action: ok ? "accept" as const : "decline" as const }
  }).pipe(Effect.catchTag("QuitException", () => Effect.succeed({ action: "cancel" as const })))

/** The handler layers for the settings: sampling, elicitation, roots. */
const handlerLayers = (
  settings: Settings,
  err: Stderr
): Effect.Effect<Layer.Layer<McpClient.Sampling | McpClient.Elicitation>, never, PromptEnv> =>
  Effect.gen(function*() {
    const context = yield* Effect.context<PromptEnv>()
    const prompts = yield* Effect.makeSemaphore(1)
    const ask = <A, E>(effect: Effect.Effect<A, E, PromptEnv>) =>
      effect.pipe((e) => err.pause(e), prompts.withPermits(1), Effect.provide(context))

    const sampling = McpClient.layerSampling((params) => {
      if (settings.samplingResponse !== undefined) return Effect.succeed(settings.samplingResponse)
      if (interactive()) return ask(samplingInteractive(params, err))
      return Effect.fail(
        new McpError({
          code: -1,
          message: "emcp cannot answer sampling/createMessage: no --sampling-response given and stdin is not a terminal"
        })
      )
    })

    const fromFlag = (answer: ElicitAnswer): McpSchema.ElicitResult =>
      answer.action === "accept"
        ? { action: "accept", content: answer.content as NonNullable<McpSchema.ElicitResult["content"]> }
        : { action: answer.action }
    const elicitation = McpClient.layerElicitation({
      form: (params) =>
        settings.elicit !== undefined
          ? Effect.succeed(fromFlag(settings.elicit))
          : interactive()
          ? ask(elicitFormInteractive(params, err))
          : Effect.succeed({ action: "decline" as const }),
      url: (params) =>
        settings.elicit !== undefined
          ? Effect.succeed(settings.elicit.action === "accept" ? { action: "accept" as const } : fromFlag(settings.elicit))
          : interactive()
          ? ask(elicitUrlInteractive(params, err))
          : Effect.succeed({ action: "decline" as const })
    })
    // provides Roots only when roots were given (the client declares what it finds)
    const roots: Layer.Layer<never> = settings.roots.length > 0 ? McpClient.layerRoots(settings.roots) : Layer.empty
    return Layer.mergeAll(sampling, elicitation, roots)
  })

// ============================================================================
// the connection
// ============================================================================

const transportLayer = (settings: Settings): Layer.Layer<Transport, TransportError> => {
  const c = settings.connection
  if (c._tag === "Stdio") {
    return NodeStdio.layerClient({
      command: c.command,
      args: c.args,
      env: c.env,
      cwd: c.cwd,
      stderrLogLevel: "None",
      closeTimeout: Duration.seconds(1),
      killTimeout: Duration.seconds(1)
    })
  }
  // loaded only for --url: the HTTP client stack costs half a second of startup
  return Layer.unwrapEffect(
    Effect.promise(() => import("./NodeStreamableHttpClient.js")).pipe(
      Effect.map((NodeStreamableHttpClient) =>
        NodeStreamableHttpClient.layer({
          url: c.url,
          headers: c.headers,
          maxRetries: 2,
          requestTimeout: Duration.seconds(10)
        })
      )
    )
  )
}

/** What a command runs with: the connected client and the settings. */
interface Session {
  readonly client: McpClient.McpClientShape
  readonly settings: Settings
  /** Call options: progress on stderr (unless `--quiet`). */
  readonly callOptions: McpClient.CallOptions
}

const levelRank = (level: McpSchema.LoggingLevel) => LOG_LEVELS.indexOf(level)

const formatLog = (m: McpSchema.LoggingMessageNotificationParams): string => {
  const data = typeof m.data === "string" ? m.data : JSON.stringify(m.data)
  return `[${m.level}]${m.logger !== undefined ? ` ${m.logger}:` : ""} ${data}`
}

/** Connects, runs `body`, closes. */
const withSession = <A>(
  settings: Settings,
  body: (session: Session) => Effect.Effect<A, CliError | McpClient.ClientError>
): Effect.Effect<A, CliError, PromptEnv> =>
  Effect.gen(function*() {
    const err = stderr
    const handlers = yield* handlerLayers(settings, err)
    const extraTimeout = settings.timeout === undefined ? undefined : Duration.sum(settings.timeout, Duration.seconds(1))
    const connect: Effect.Effect<A, CliError | McpClient.ClientError | TransportError, Scope.Scope> = Effect.gen(function*() {
      const context = yield* Layer.build(transportLayer(settings))
      const child = Context.getOption(context, NodeStdio.StdioChild)
      if (settings.verbose && Option.isSome(child)) {
        yield* child.value.stderr.pipe(Stream.runForEach((line) => Effect.sync(() => err.line(line))), Effect.forkScoped)
      }
      const client = yield* McpClient.make({
        name: "emcp",
        version: VERSION,
        ...(extraTimeout !== undefined ? { requestTimeout: extraTimeout, maxRequestTimeout: extraTimeout } : {})
      }).pipe(Effect.provide(Layer.merge(Layer.succeedContext(context), handlers)))

      // log messages at or above the chosen level
      if (!settings.quiet) {
        const threshold = levelRank(settings.logLevel ?? "info")
        yield* client.logMessages.pipe(
          Stream.runForEach((m) => Effect.sync(() => levelRank(m.level) >= threshold && err.line(formatLog(m)))),
          Effect.forkScoped
        )
        yield* Effect.yieldNow() // subscribed before the first request
      }
      if (settings.logLevel !== undefined && client.serverCapabilities.logging !== undefined) {
        yield* client.setLogLevel(settings.logLevel)
      }
      const callOptions: McpClient.CallOptions = settings.quiet
        ? {}
        : { onProgress: (p) => Effect.sync(() => err.progress(p)) }
      return yield* body({ client, settings, callOptions }).pipe(
        // the log notifications that came before the answer are queued: let them reach stderr
        Effect.ensuring(settings.quiet ? Effect.void : Effect.repeatN(Effect.yieldNow(), 20)),
        Effect.ensuring(Effect.sync(() => err.clearBar()))
      )
    })
    const timed = settings.timeout === undefined
      ? connect
      : Effect.timeoutFail(connect, {
        duration: settings.timeout,
        onTimeout: () => CliError.failure(`timed out after ${formatDuration(settings.timeout!)}`)
      })
    return yield* Effect.scoped(timed).pipe(
      Effect.catchIf(
        (e): e is McpClient.ClientError | TransportError => e._tag !== "CliError",
        (e) => Effect.fail(CliError.failure(describeClientError(e)))
      )
    )
  })

// ============================================================================
// commands
// ============================================================================

/** The global options, as taken out of the command line by `normalizeArgs`. */
class Globals extends Context.Tag("@effect-mcp/node/McpCli/Globals")<Globals, GlobalConfig>() {}

/**
 * The global options, declared on the root command for its help: the values
 * themselves are taken out of the command line by `normalizeArgs` first.
 */
const globalOptions = {
  stdio: Options.text("stdio").pipe(
    Options.withPseudoName("COMMAND"),
    Options.withDescription(
      "Spawn the server and talk over stdio: the command and its arguments in one string, split like a shell would (quotes, backslashes; no expansion)"
    ),
    Options.optional
  ),
  url: Options.text("url").pipe(
    Options.withPseudoName("URL"),
    Options.withDescription("Connect to a streamable HTTP server (falls back to the legacy HTTP+SSE transport)"),
    Options.optional
  ),
  env: Options.text("env").pipe(
    Options.withPseudoName("KEY=VALUE"),
    Options.withDescription("KEY=VALUE: an environment variable of the --stdio server (repeatable)"),
    Options.repeated
  ),
  cwd: Options.text("cwd").pipe(
    Options.withPseudoName("DIR"),
    Options.withDescription("The working directory of the --stdio server"),
    Options.optional
  ),
  header: Options.text("header").pipe(
    Options.withPseudoName("NAME:VALUE"),
    Options.withDescription("'Name: value': an HTTP header sent with every --url request (repeatable)"),
    Options.repeated
  ),
  json: Options.boolean("json").pipe(Options.withDescription("Print exactly the JSON result on stdout")),
  timeout: Options.text("timeout").pipe(
    Options.withPseudoName("DURATION"),
    Options.withDescription("Fail when the whole command takes longer, e.g. 30s, 500ms, 2m"),
    Options.optional
  ),
  logLevel: Options.choice("log-level", LOG_LEVELS).pipe(
    Options.withDescription(
      "Ask the server to log at this level (logging/setLevel) and print its log messages from this level on stderr (default: info and above, no request)"
    ),
    Options.optional
  ),
  samplingResponse: Options.text("sampling-response").pipe(
    Options.withPseudoName("JSON|TEXT"),
    Options.withDescription(
      "Answer sampling/createMessage with this CreateMessageResult JSON (role, model default) or plain text; without it a terminal prompts, otherwise sampling fails"
    ),
    Options.optional
  ),
  elicit: Options.text("elicit").pipe(
    Options.withPseudoName("ANSWER"),
    Options.withDescription(
      "Answer elicitation/create: accept:JSON | accept | decline | cancel; without it a terminal prompts, otherwise it declines"
    ),
    Options.optional
  ),
  root: Options.text("root").pipe(
    Options.withPseudoName("PATH|URI"),
    Options.withDescription("Offer a root (roots/list): a path or a file:// URI (repeatable)"),
    Options.repeated
  ),
  quiet: Options.boolean("quiet").pipe(
    Options.withAlias("q"),
    Options.withDescription("No progress and no server log messages on stderr")
  ),
  verbose: Options.boolean("verbose").pipe(Options.withDescription("Copy the --stdio server's stderr to stderr"))
}

const rootCommand = CliCommand.make(
  "emcp",
  globalOptions,
  () => Effect.fail(CliError.usage("missing command (see emcp --help)"))
).pipe(
  CliCommand.withDescription(
    "Talk to an MCP server from the shell. Global options (connection, --json, --timeout, ...) may come before or after the command; put '--' before arguments that start with '--'. -h/--help after a command shows its help; --version, --completions SHELL."
  )
)

/** Runs a command body with the session of the global options. */
const execute = <A>(
  body: (session: Session) => Effect.Effect<A, CliError | McpClient.ClientError>
): Effect.Effect<A, CliError, PromptEnv | Globals> =>
  Effect.gen(function*() {
    const settings = yield* toSettings(yield* Globals)
    return yield* withSession(settings, body)
  })

const printJson = (value: unknown) => stdout(JSON.stringify(value))

/** Parses a positional JSON object argument. */
const parseJsonObject = (text: string, what: string): Effect.Effect<Record<string, unknown>, CliError> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return Effect.fail(CliError.usage(`${what} is not valid JSON: ${(e as Error).message}`))
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Effect.fail(CliError.usage(`${what} must be a JSON object`))
  }
  return Effect.succeed(value as Record<string, unknown>)
}

const argOption = Options.text("arg").pipe(
  Options.withPseudoName("KEY=VALUE"),
  Options.withAlias("a"),
  Options.withDescription("key=value: one argument (repeatable); values are typed by the tool's input schema"),
  Options.repeated
)

// ---------------------------------------------------------------- info, ping, call

const infoCommand = CliCommand.make("info", {}, () =>
  execute(({ client, settings }) =>
    Effect.gen(function*() {
      const info = {
        protocolVersion: client.protocolVersion,
        serverInfo: client.serverInfo,
        capabilities: client.serverCapabilities,
        ...(client.instructions !== undefined ? { instructions: client.instructions } : {})
      }
      if (settings.json) return yield* printJson(info)
      const s = client.serverInfo
      const lines = [
        `server:   ${s.name} ${s.version}${s.title !== undefined ? ` (${s.title})` : ""}`,
        `protocol: ${client.protocolVersion}`,
        `features: ${Object.keys(client.serverCapabilities).join(", ") || "(none)"}`
      ]
      if (client.instructions !== undefined) lines.push("", client.instructions)
      yield* stdout(lines.join("\n"))
    }))).pipe(CliCommand.withDescription("Show the server's identity, protocol version and capabilities"))

const pingCommand = CliCommand.make("ping", {}, () =>
  execute(({ client, settings }) =>
    Effect.gen(function*() {
      const start = Date.now()
      const result = yield* client.request("ping")
      if (settings.json) return yield* printJson(result)
      yield* stdout(`pong (${Date.now() - start} ms)`)
    }))).pipe(CliCommand.withDescription("Ping the server"))

const rawCallCommand = CliCommand.make(
  "call",
  {
    method: Args.text({ name: "METHOD" }).pipe(Args.withDescription("The JSON-RPC method, e.g. tools/list")),
    params: Args.text({ name: "PARAMS_JSON" }).pipe(Args.withDescription("The params object, as JSON"), Args.optional)
  },
  ({ method, params }) =>
    Effect.gen(function*() {
      const p = Option.isSome(params) ? yield* parseJsonObject(params.value, "PARAMS_JSON") : undefined
      return yield* execute(({ callOptions, client, settings }) =>
        Effect.gen(function*() {
          const result = yield* client.request(method, p, callOptions)
          yield* stdout(settings.json ? JSON.stringify(result) : JSON.stringify(result, null, 2))
        })
      )
    })
).pipe(CliCommand.withDescription("Send any request and print its JSON result"))

// ---------------------------------------------------------------- tools

const toolsList = CliCommand.make("list", {}, () =>
  execute(({ client, settings }) =>
    Effect.gen(function*() {
      const tools = yield* client.listToolsAll()
      if (settings.json) return yield* printJson({ tools })
      if (tools.length === 0) return yield* stdout("(no tools)")
      yield* stdout(table(
        ["NAME", "ARGUMENTS", "DESCRIPTION"],
        tools.map((t) => [t.name, toolArguments(t.inputSchema), firstLine(t.description ?? t.title)])
      ))
    }))).pipe(CliCommand.withDescription("List the tools"))

/** `key=value` options as pairs. */
const parsePairs = (pairs: ReadonlyArray<string>, option: string) =>
  Effect.forEach(pairs, (pair) => orUsage(splitPair(pair, "=", option)))

/** The arguments of `tools call`: the JSON object, then `--arg` pairs typed by the input schema. */
const toolCallArguments = (
  client: McpClient.McpClientShape,
  name: string,
  base: Record<string, unknown> | undefined,
  pairs: ReadonlyArray<readonly [string, string]>
): Effect.Effect<Record<string, unknown> | undefined, CliError> =>
  Effect.gen(function*() {
    if (pairs.length === 0) return base
    // the input schema types the values; a server that cannot list is no reason to fail
    const tools = yield* client.listToolsAll().pipe(Effect.orElseSucceed(() => [] as ReadonlyArray<McpSchema.Tool>))
    const properties = tools.find((t) => t.name === name)?.inputSchema.properties ?? {}
    const args: Record<string, unknown> = { ...base }
    for (const [key, raw] of pairs) {
      args[key] = yield* orUsage(Either.mapLeft(parseArgValue(raw, properties[key]), (m) => `--arg ${key}: ${m}`))
    }
    return args
  })

const toolsCall = CliCommand.make(
  "call",
  {
    name: Args.text({ name: "NAME" }).pipe(Args.withDescription("The tool")),
    json: Args.text({ name: "ARGUMENTS_JSON" }).pipe(Args.withDescription("The arguments, as a JSON object"), Args.optional),
    arg: argOption
  },
  ({ arg, json, name }) =>
    Effect.gen(function*() {
      const base = Option.isSome(json) ? yield* parseJsonObject(json.value, "the arguments JSON") : undefined
      const pairs = yield* parsePairs(arg, "--arg")
      return yield* execute(({ callOptions, client, settings }) =>
        Effect.gen(function*() {
          const args = yield* toolCallArguments(client, name, base, pairs)
          const result = yield* client.callTool(name, args, callOptions)
          if (settings.json) {
            yield* printJson(result)
          } else if (result.isError !== true) {
            const text = result.content.length > 0
              ? result.content.map(renderContent).join("\n")
              : result.structuredContent !== undefined
              ? JSON.stringify(result.structuredContent, null, 2)
              : ""
            if (text !== "") yield* stdout(text)
          }
          if (result.isError === true) {
            const text = result.content.map(renderContent).join("\n")
            return yield* CliError.failure(`tool ${name} failed: ${text === "" ? "(no message)" : text}`)
          }
        })
      )
    })
).pipe(CliCommand.withDescription("Call a tool: NAME [ARGUMENTS_JSON] [--arg key=value ...]"))

const toolsCommand = CliCommand.make("tools").pipe(
  CliCommand.withDescription("List and call tools"),
  CliCommand.withSubcommands([toolsList, toolsCall])
)

// ---------------------------------------------------------------- resources

const resourcesList = CliCommand.make("list", {}, () =>
  execute(({ client, settings }) =>
    Effect.gen(function*() {
      const resources = yield* client.listResourcesAll()
      if (settings.json) return yield* printJson({ resources })
      if (resources.length === 0) return yield* stdout("(no resources)")
      yield* stdout(table(
        ["URI", "NAME", "MIME TYPE", "DESCRIPTION"],
        resources.map((r) => [r.uri, r.name, r.mimeType ?? "", firstLine(r.description ?? r.title)])
      ))
    }))).pipe(CliCommand.withDescription("List the resources"))

const resourcesTemplates = CliCommand.make("templates", {}, () =>
  execute(({ client, settings }) =>
    Effect.gen(function*() {
      const resourceTemplates = yield* client.listResourceTemplatesAll()
      if (settings.json) return yield* printJson({ resourceTemplates })
      if (resourceTemplates.length === 0) return yield* stdout("(no resource templates)")
      yield* stdout(table(
        ["URI TEMPLATE", "NAME", "MIME TYPE", "DESCRIPTION"],
        resourceTemplates.map((r) => [r.uriTemplate, r.name, r.mimeType ?? "", firstLine(r.description ?? r.title)])
      ))
    }))).pipe(CliCommand.withDescription("List the resource templates"))

const resourcesRead = CliCommand.make(
  "read",
  { uri: Args.text({ name: "URI" }).pipe(Args.withDescription("The resource")) },
  ({ uri }) =>
    execute(({ callOptions, client, settings }) =>
      Effect.gen(function*() {
        const result = yield* client.readResource(uri, callOptions)
        if (settings.json) return yield* printJson(result)
        yield* stdout(result.contents.length === 0 ? "(no contents)" : renderResourceContents(result.contents))
      }))
).pipe(CliCommand.withDescription("Read a resource: text is printed, blobs are summarised"))

const resourcesCommand = CliCommand.make("resources").pipe(
  CliCommand.withDescription("List and read resources"),
  CliCommand.withSubcommands([resourcesList, resourcesTemplates, resourcesRead])
)

// ---------------------------------------------------------------- prompts

const promptsList = CliCommand.make("list", {}, () =>
  execute(({ client, settings }) =>
    Effect.gen(function*() {
      const prompts = yield* client.listPromptsAll()
      if (settings.json) return yield* printJson({ prompts })
      if (prompts.length === 0) return yield* stdout("(no prompts)")
      yield* stdout(table(
        ["NAME", "ARGUMENTS", "DESCRIPTION"],
        prompts.map((p) => [
          p.name,
          (p.arguments ?? []).map((a) => `${a.name}${a.required === true ? "" : "?"}`).join(", "),
          firstLine(p.description ?? p.title)
        ])
      ))
    }))).pipe(CliCommand.withDescription("List the prompts"))

const promptsGet = CliCommand.make(
  "get",
  {
    name: Args.text({ name: "NAME" }).pipe(Args.withDescription("The prompt")),
    json: Args.text({ name: "ARGUMENTS_JSON" }).pipe(
      Args.withDescription("The arguments, as a JSON object of strings"),
      Args.optional
    ),
    arg: Options.text("arg").pipe(
      Options.withPseudoName("KEY=VALUE"),
      Options.withAlias("a"),
      Options.withDescription("key=value: one argument (repeatable)"),
      Options.repeated
    )
  },
  ({ arg, json, name }) =>
    Effect.gen(function*() {
      const base = Option.isSome(json) ? yield* parseJsonObject(json.value, "the arguments JSON") : {}
      const args: Record<string, string> = {}
      for (const [k, v] of Object.entries(base)) args[k] = typeof v === "string" ? v : JSON.stringify(v)
      for (const [k, v] of yield* parsePairs(arg, "--arg")) args[k] = v
      const given = Option.isSome(json) || arg.length > 0
      return yield* execute(({ callOptions, client, settings }) =>
        Effect.gen(function*() {
          const result = yield* client.getPrompt(name, given ? args : undefined, callOptions)
          if (settings.json) return yield* printJson(result)
          const parts: Array<string> = []
          if (result.description !== undefined) parts.push(`# ${result.description}`)
          for (const m of result.messages) parts.push(`[${m.role}]\n${renderContent(m.content)}`)
          yield* stdout(parts.length === 0 ? "(no messages)" : parts.join("\n\n"))
        })
      )
    })
).pipe(CliCommand.withDescription("Get a prompt: NAME [ARGUMENTS_JSON] [--arg key=value ...]"))

const promptsCommand = CliCommand.make("prompts").pipe(
  CliCommand.withDescription("List and get prompts"),
  CliCommand.withSubcommands([promptsList, promptsGet])
)

// ---------------------------------------------------------------- complete

const completeCommand = CliCommand.make(
  "complete",
  {
    prompt: Options.text("prompt").pipe(
      Options.withPseudoName("NAME"),
      Options.withDescription("Complete an argument of this prompt"),
      Options.optional
    ),
    resource: Options.text("resource").pipe(
      Options.withPseudoName("URI_TEMPLATE"),
      Options.withDescription("Complete a variable of this resource template (its URI template)"),
      Options.optional
    ),
    context: Options.text("context").pipe(
      Options.withPseudoName("KEY=VALUE"),
      Options.withDescription("key=value: an already chosen argument (repeatable)"),
      Options.repeated
    ),
    argument: Args.text({ name: "ARGUMENT" }).pipe(Args.withDescription("The argument (or template variable) to complete")),
    value: Args.text({ name: "VALUE" }).pipe(Args.withDescription("What is typed so far (default empty)"), Args.optional)
  },
  ({ argument, context, prompt, resource, value }) =>
    Effect.gen(function*() {
      if (Option.isSome(prompt) === Option.isSome(resource)) {
        return yield* CliError.usage("complete needs exactly one of --prompt NAME or --resource URI_TEMPLATE")
      }
      const ref = Option.isSome(prompt)
        ? { type: "ref/prompt" as const, name: prompt.value }
        : { type: "ref/resource" as const, uri: Option.getOrElse(resource, () => "") }
      const pairs = yield* parsePairs(context, "--context")
      const params: McpSchema.CompleteRequestParams = {
        ref,
        argument: { name: argument, value: Option.getOrElse(value, () => "") },
        ...(pairs.length > 0 ? { context: { arguments: Object.fromEntries(pairs) } } : {})
      }
      return yield* execute(({ client, settings }) =>
        Effect.gen(function*() {
          const result = yield* client.complete(params)
          if (settings.json) return yield* printJson(result)
          const { hasMore, total, values } = result.completion
          const lines = values.length === 0 ? ["(no completions)"] : [...values]
          if (hasMore === true || (total !== undefined && total > values.length)) {
            lines.push(`(${total !== undefined ? `${total} in all` : "more available"})`)
          }
          yield* stdout(lines.join("\n"))
        })
      )
    })
).pipe(
  CliCommand.withDescription(
    "Complete an argument: (--prompt NAME | --resource URI_TEMPLATE) ARGUMENT [VALUE] [--context key=value ...]"
  )
)

/** The `emcp` command tree. */
export const command = rootCommand.pipe(
  CliCommand.withSubcommands([
    infoCommand,
    toolsCommand,
    resourcesCommand,
    promptsCommand,
    completeCommand,
    pingCommand,
    rawCallCommand
  ])
)

// ============================================================================
// running
// ============================================================================

const cli = CliCommand.run(command, { name: "emcp", version: VERSION })

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g

/** The console with `error` writing one `emcp:` line (help and version still go to stdout). */
const withUsageConsole = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.console, (console) =>
    Effect.withConsole(effect, {
      ...console,
      error: (...args: ReadonlyArray<unknown>) =>
        Effect.sync(() => {
          const text = oneLine(args.map(String).join(" ").replace(ANSI, ""))
          if (text !== "") process.stderr.write(`emcp: ${text}\n`)
        })
    }))

/**
 * Runs `emcp` on a full `process.argv` (runtime and script first) and returns
 * the exit code; never fails. Failures are reported as one line on stderr.
 */
export const run = (
  argv: ReadonlyArray<string>
): Effect.Effect<number, never, CliApp.CliApp.Environment> => {
  const [runtime = "node", script = "emcp", ...rest] = argv
  const normalized = normalizeArgs(rest)
  if (Either.isLeft(normalized)) {
    return Effect.as(Effect.sync(() => process.stderr.write(`emcp: ${normalized.left}\n`)), 2)
  }
  return cli([runtime, script, ...normalized.right.args]).pipe(
    Effect.provideService(Globals, normalized.right.globals),
    // @effect/cli reports a usage error through Console.error: as one line, like every other failure
    withUsageConsole,
    // the built-in options include Effect's own --log-level, which would only confuse
    Effect.provide(CliConfig.layer({ showBuiltIns: false })),
    Effect.as(0),
    Effect.catchAll((e) => {
      if (ValidationError.isValidationError(e)) return Effect.succeed(2) // @effect/cli printed it
      return Effect.as(Effect.sync(() => process.stderr.write(`emcp: ${oneLine(e.message)}\n`)), e.exitCode)
    }),
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.succeed(130)
        : Effect.as(
          Effect.sync(() => process.stderr.write(`emcp: unexpected failure: ${oneLine(Cause.pretty(cause), 300)}\n`)),
          1
        )
    )
  )
}
