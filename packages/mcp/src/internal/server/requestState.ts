/**
 * The authenticated `requestState` of a 2026-07-28 multi-round-trip request
 * (SEP-2322): what a server needs between rounds travels through the client,
 * signed with HMAC-SHA256 (Web Crypto), so that any instance holding the key
 * can take the retry.
 *
 * Wire shape: `b64url(body) "." b64url(mac)`, where body is the JSON
 * `{ v: 1, exp, b, p }` (`exp` epoch milliseconds, `b` a tag binding the state
 * to its request, `p` the payload) and `mac = HMAC(key, "mcp.requestState.v1." + body)`.
 * The tag is `HMAC(key, "mcp.requestState.bind." + binding)` cut to 16 bytes, so
 * the binding (method, feature, arguments, principal) never appears in clear.
 * Keys are tried newest first; the payload is signed, not encrypted (a client
 * can read it).
 */
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Base64Url from "effect/encoding/Base64Url"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

/** The key set and lifetime of request states (`McpServer.ServerOptions.requestState`). */
export interface Options {
  /** HMAC keys, newest first: states are signed with the first and accepted under any. At least 32 bytes each. */
  readonly keys?: ReadonlyArray<string | Uint8Array> | undefined
  /** How long a state stays valid after it was minted (default 15 minutes). */
  readonly ttl?: Duration.Input | undefined
}

/** Why a state was refused (said in the −32602's message; none of them reveals the payload). */
export type Rejection = "malformed" | "signature" | "expired" | "binding"

export interface Codec {
  /** Seals `payload` for the request described by `binding`. */
  readonly seal: (payload: unknown, binding: string) => Effect.Effect<string>
  /** The payload of a state minted by one of the keys for `binding`, not expired. */
  readonly open: (state: string, binding: string) => Effect.Effect<unknown, Rejection>
  /** Whether the keys are this process's random one (the server may warn: see `InputRequired.make`). */
  readonly ephemeral: boolean
}

/** Web Crypto's key type, without the DOM library. */
type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>

const MIN_KEY_BYTES = 32
const DEFAULT_TTL = Duration.minutes(15)
const MAC_PREFIX = "mcp.requestState.v1."
const BIND_PREFIX = "mcp.requestState.bind."
const utf8 = new TextEncoder()

let processKey: Uint8Array | undefined
/** One random key per process, made on first use. */
const processKeyBytes = (): Uint8Array => {
  if (processKey === undefined) {
    processKey = new Uint8Array(MIN_KEY_BYTES)
    crypto.getRandomValues(processKey)
  }
  return processKey
}

const keyBytes = (key: string | Uint8Array, index: number): Uint8Array => {
  const bytes = typeof key === "string" ? utf8.encode(key) : key
  if (bytes.length < MIN_KEY_BYTES) {
    throw new Error(`requestState.keys[${index}] is ${bytes.length} bytes long; an HMAC-SHA256 key needs at least ${MIN_KEY_BYTES}`)
  }
  return bytes
}

const importKey = (bytes: Uint8Array): Promise<CryptoKey> =>
  crypto.subtle.importKey("raw", bytes as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify"
  ])

const hmac = (key: CryptoKey, data: string) =>
  Effect.map(Effect.promise(() => crypto.subtle.sign("HMAC", key, utf8.encode(data))), (mac) => new Uint8Array(mac))

/** Compares two strings in time that depends only on their length. */
const sameString = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

const bindTag = (key: CryptoKey, binding: string) =>
  Effect.map(hmac(key, BIND_PREFIX + binding), (mac) => Base64Url.encode(mac.subarray(0, 16)))

interface Body {
  readonly v: 1
  readonly exp: number
  readonly b: string
  readonly p: unknown
}

const parseBody = (body: string): Body | undefined => {
  const bytes = Base64Url.decode(body)
  if (Result.isFailure(bytes)) return undefined
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes.success)) as Partial<Body> | null
    return typeof parsed === "object" && parsed !== null && parsed.v === 1 && typeof parsed.exp === "number" &&
        typeof parsed.b === "string" && "p" in parsed
      ? parsed as Body
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The options from config: `MCP_REQUEST_STATE_KEYS` (comma-separated, newest
 * first, each at least 32 bytes of UTF-8) and `MCP_REQUEST_STATE_TTL` (a
 * duration); none without keys. A short key is a config error, which names
 * the key by its place, never its value.
 */
export const config: Config.Config<Options | undefined> = Config.all({
  keys: Config.option(Config.Redacted("MCP_REQUEST_STATE_KEYS")),
  ttl: Config.option(Config.Duration("MCP_REQUEST_STATE_TTL"))
}).pipe(Config.mapEffect(({ keys, ttl }): Effect.Effect<Options | undefined, Config.ConfigError> => {
  if (Option.isNone(keys)) return Effect.succeed(undefined)
  const list = Redacted.value(keys.value).split(",").map((k) => k.trim()).filter((k) => k !== "")
  const short = list.findIndex((k) => utf8.encode(k).length < MIN_KEY_BYTES)
  if (list.length === 0 || short >= 0) {
    const which = list.length === 0 ? "no key" : `key ${short + 1} is ${utf8.encode(list[short]!).length} bytes`
    // the issue carries no input: the message names the key by its place, never its value
    return Effect.fail(
      new Config.ConfigError(
        new Schema.SchemaError(
          new SchemaIssue.Pointer(
            ["MCP_REQUEST_STATE_KEYS"],
            new SchemaIssue.InvalidValue({
              message: `Expected comma-separated HMAC keys of at least ${MIN_KEY_BYTES} bytes each, newest first: ${which}`
            })
          )
        )
      )
    )
  }
  return Effect.succeed(Option.isSome(ttl) ? { keys: list, ttl: ttl.value } : { keys: list })
}))

/** A codec for `options`; a key shorter than 32 bytes is a defect of the server's configuration. */
export const make = (options: Options | undefined): Codec => {
  const configured = options?.keys
  const ephemeral = configured === undefined || configured.length === 0
  const bytes = ephemeral ? [processKeyBytes()] : configured.map(keyBytes)
  const ttl = Duration.toMillis(options?.ttl ?? DEFAULT_TTL)
  let keys: Promise<ReadonlyArray<CryptoKey>> | undefined
  // imported once, on first use (Web Crypto imports are asynchronous)
  const cryptoKeys = Effect.promise(() => keys ??= Promise.all(bytes.map(importKey)))

  const seal = (payload: unknown, binding: string) =>
    Effect.gen(function*() {
      const [key] = yield* cryptoKeys
      const now = yield* Clock.currentTimeMillis
      const body: Body = { v: 1, exp: now + ttl, b: yield* bindTag(key!, binding), p: payload }
      const encoded = Base64Url.encode(JSON.stringify(body))
      const mac = yield* hmac(key!, MAC_PREFIX + encoded)
      return `${encoded}.${Base64Url.encode(mac)}`
    })

  const open = (state: string, binding: string): Effect.Effect<unknown, Rejection> =>
    Effect.gen(function*() {
      const dot = state.indexOf(".")
      if (dot <= 0 || dot !== state.lastIndexOf(".")) return yield* Effect.fail("malformed" as const)
      const encoded = state.slice(0, dot)
      const mac = Base64Url.decode(state.slice(dot + 1))
      if (Result.isFailure(mac) || mac.success.length !== 32) return yield* Effect.fail("signature" as const)
      const data = utf8.encode(MAC_PREFIX + encoded)
      let signer: CryptoKey | undefined
      for (const key of yield* cryptoKeys) {
        const ok = yield* Effect.promise(() =>
          crypto.subtle.verify("HMAC", key, mac.success as Uint8Array<ArrayBuffer>, data)
        )
        if (ok) {
          signer = key
          break
        }
      }
      if (signer === undefined) return yield* Effect.fail("signature" as const)
      const body = parseBody(encoded)
      if (body === undefined) return yield* Effect.fail("malformed" as const)
      if ((yield* Clock.currentTimeMillis) >= body.exp) return yield* Effect.fail("expired" as const)
      if (!sameString(yield* bindTag(signer, binding), body.b)) return yield* Effect.fail("binding" as const)
      return body.p
    })

  return { seal, open, ephemeral }
}

/** JSON with the keys of every object sorted: the same value gives the same text, whatever order a client wrote it in. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v)
