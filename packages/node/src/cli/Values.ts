/**
 * Reading the values of `emcp`'s options and arguments: the `--stdio`
 * command line, durations, typed `--arg` values, `--elicit`,
 * `--sampling-response` and `--root`. Pure functions returning `Result`.
 *
 * @since 0.1.0
 */
import * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as Duration from "effect/Duration"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { basename, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { oneLine } from "./CliError.js"

/**
 * Splits a command line the way a POSIX shell would for simple quoting:
 * whitespace separates words, `'...'` is literal, `"..."` honours `\"`, `\\`,
 * `\$` and `` \` ``, and a backslash outside quotes escapes the next
 * character. No expansion of any kind.
 */
export const splitCommand = (line: string): Result.Result<Array<string>, string> => {
  const words: Array<string> = []
  let word = ""
  let inWord = false
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end === -1) return Result.fail("unterminated single quote")
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
      if (!closed) return Result.fail("unterminated double quote")
      inWord = true
    } else if (c === "\\") {
      if (i + 1 >= line.length) return Result.fail("trailing backslash")
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
  return Result.succeed(words)
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
export const parseDuration = (text: string): Result.Result<Duration.Duration, string> => {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(text)
  if (match === null) return Result.fail(`invalid duration '${text}' (expected e.g. 30s, 500ms, 2m)`)
  const unit = match[2]!.toLowerCase()
  const factor = unit === "" ? 1000 : DURATION_UNITS[unit]
  if (factor === undefined) return Result.fail(`invalid duration unit in '${text}' (use ms, s, m or h)`)
  const ms = Number(match[1]) * factor
  if (!(ms > 0)) return Result.fail(`the duration '${text}' must be positive`)
  return Result.succeed(Duration.millis(ms))
}

/** Formats a duration as the user would write it. */
export const formatDuration = (d: Duration.Duration): string => {
  const ms = Duration.toMillis(d)
  if (ms % 60_000 === 0) return `${ms / 60_000}m`
  if (ms % 1000 === 0) return `${ms / 1000}s`
  return `${ms}ms`
}

/** JSON Schema type names of a property (`type` may be a string or an array). */
export const schemaTypes = (schema: unknown): ReadonlyArray<string> => {
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
export const parseArgValue = (raw: string, propertySchema?: unknown): Result.Result<unknown, string> => {
  const types = schemaTypes(propertySchema)
  const tryJson = (): Result.Result<unknown, string> => {
    try {
      return Result.succeed(JSON.parse(raw))
    } catch {
      return Result.fail(`'${raw}' is not valid JSON`)
    }
  }
  if (types.length > 0) {
    if (types.includes("string") && types.length === 1) return Result.succeed(raw)
    if (types.includes("integer") || types.includes("number")) {
      const n = Number(raw)
      if (raw.trim() !== "" && Number.isFinite(n)) {
        if (types.includes("integer") && !types.includes("number") && !Number.isInteger(n)) {
          return Result.fail(`'${raw}' is not an integer`)
        }
        return Result.succeed(n)
      }
      if (!types.includes("string") && !types.includes("boolean") && !types.includes("null")) {
        return Result.fail(`'${raw}' is not a number`)
      }
    }
    if (types.includes("boolean")) {
      if (raw === "true") return Result.succeed(true)
      if (raw === "false") return Result.succeed(false)
      if (types.length === 1) return Result.fail(`'${raw}' is not a boolean (true or false)`)
    }
    if (types.includes("null") && raw === "null") return Result.succeed(null)
    if (types.includes("object") || types.includes("array")) {
      const parsed = tryJson()
      if (Result.isSuccess(parsed) || !types.includes("string")) return parsed
    }
    if (types.includes("string")) return Result.succeed(raw)
    return tryJson()
  }
  try {
    const parsed: unknown = JSON.parse(raw)
    return Result.succeed(parsed)
  } catch {
    return Result.succeed(raw)
  }
}

/** Splits `key=value` (the first `=`); a missing `=` is an error. */
export const splitPair = (text: string, separator: string, what: string): Result.Result<readonly [string, string], string> => {
  const at = text.indexOf(separator)
  if (at <= 0) return Result.fail(`invalid ${what} '${text}' (expected ${what === "header" ? "Name: value" : "key=value"})`)
  return Result.succeed([text.slice(0, at).trim(), separator === ":" ? text.slice(at + 1).trim() : text.slice(at + 1)])
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

/** What `--elicit` answers. */
export type ElicitAnswer =
  | { readonly action: "accept"; readonly content: { readonly [key: string]: unknown } }
  | { readonly action: "decline" }
  | { readonly action: "cancel" }

/** Parses `accept:JSON`, `accept`, `decline` or `cancel`. */
export const parseElicit = (text: string): Result.Result<ElicitAnswer, string> => {
  const t = text.trim()
  if (t === "decline" || t === "cancel") return Result.succeed({ action: t })
  if (t === "accept") return Result.succeed({ action: "accept", content: {} })
  if (t.startsWith("accept:")) {
    try {
      const content: unknown = JSON.parse(t.slice("accept:".length))
      if (typeof content !== "object" || content === null || Array.isArray(content)) {
        return Result.fail("--elicit accept:JSON needs a JSON object")
      }
      return Result.succeed({ action: "accept", content: content as Record<string, unknown> })
    } catch (e) {
      return Result.fail(`--elicit accept:JSON is not valid JSON: ${(e as Error).message}`)
    }
  }
  return Result.fail(`invalid --elicit '${text}' (expected accept:JSON, accept, decline or cancel)`)
}

const decodeCreateMessageResult = Schema.decodeUnknownResult(McpSchema.CreateMessageResult)

/**
 * Parses `--sampling-response`: a `CreateMessageResult` as a JSON object
 * (`role` defaults to `assistant`, `model` to `emcp`), a JSON string (its
 * value), or any other text as it is (`42`, `[1]`, `true`, `hello`),
 * answered as one text content.
 */
export const parseSamplingResponse = (text: string): Result.Result<McpSchema.CreateMessageResult, string> => {
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {
    // plain text
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const answer = typeof parsed === "string" ? parsed : text
    return Result.succeed({ role: "assistant", content: { type: "text", text: answer }, model: "emcp", stopReason: "endTurn" })
  }
  const candidate = { role: "assistant", model: "emcp", ...parsed }
  return Result.mapError(
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

/** Parses a JSON object argument; the message names `what`. */
export const parseJsonObject = (text: string, what: string): Result.Result<Record<string, unknown>, string> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return Result.fail(`${what} is not valid JSON: ${(e as Error).message}`)
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Result.fail(`${what} must be a JSON object`)
  }
  return Result.succeed(value as Record<string, unknown>)
}
