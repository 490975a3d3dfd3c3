/**
 * `Content-Type` and `Accept` read as RFC 9110 defines them, not by substring:
 * `text/plain;x=application/json` is text, `application/jsonp` is not JSON.
 */

export interface MediaType {
  /** Lower case. */
  readonly type: string
  /** Lower case. */
  readonly subtype: string
  /** Parameter names in lower case; values as sent, unquoted. */
  readonly parameters: ReadonlyMap<string, string>
}

// RFC 9110 token characters
const TOKEN = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const s = String.fromCharCode(c)
  if (/[A-Za-z0-9]/.test(s) || "!#$%&'*+-.^_`|~".includes(s)) TOKEN[c] = 1
}
const isTokenChar = (c: number): boolean => c < 128 && TOKEN[c] === 1

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09

/** A cursor over one header value. */
class Reader {
  i = 0
  constructor(readonly text: string) {}
  get done() {
    return this.i >= this.text.length
  }
  peek() {
    return this.text.charCodeAt(this.i)
  }
  skipSpace() {
    while (!this.done && isSpace(this.peek())) this.i++
  }
  token(): string {
    const start = this.i
    while (!this.done && isTokenChar(this.peek())) this.i++
    return this.text.slice(start, this.i)
  }
  /** A token or a quoted string (unquoted); undefined when neither, or a quote is not closed. */
  value(): string | undefined {
    if (this.peek() !== 0x22) {
      const token = this.token()
      return token === "" ? undefined : token
    }
    let out = ""
    this.i++
    while (!this.done) {
      const c = this.peek()
      if (c === 0x22) {
        this.i++
        return out
      }
      if (c === 0x5c) this.i++
      if (this.done) return undefined
      out += this.text[this.i]
      this.i++
    }
    return undefined
  }
}

/** One `type/subtype *(; name=value)` at the reader, up to a `,` or the end; undefined when malformed. */
const readOne = (r: Reader): MediaType | undefined => {
  r.skipSpace()
  const type = r.token()
  if (type === "" || r.peek() !== 0x2f) return undefined
  r.i++
  const subtype = r.token()
  if (subtype === "") return undefined
  const parameters = new Map<string, string>()
  for (;;) {
    r.skipSpace()
    if (r.done || r.peek() === 0x2c) break
    if (r.peek() !== 0x3b) return undefined
    r.i++
    r.skipSpace()
    // `;` with nothing after it is tolerated, as RFC 9110 allows empty list elements here
    if (r.done || r.peek() === 0x2c || r.peek() === 0x3b) continue
    const name = r.token()
    if (name === "" || r.peek() !== 0x3d) return undefined
    r.i++
    const value = r.value()
    if (value === undefined) return undefined
    const key = name.toLowerCase()
    if (!parameters.has(key)) parameters.set(key, value)
  }
  return { type: type.toLowerCase(), subtype: subtype.toLowerCase(), parameters }
}

/** Parses a `Content-Type` value; undefined when it is not exactly one well-formed media type. */
export const parse = (value: string): MediaType | undefined => {
  const r = new Reader(value)
  const media = readOne(r)
  return media !== undefined && r.done ? media : undefined
}

/**
 * Whether a `Content-Type` says JSON: `application/json`, any case, with no
 * charset other than UTF-8 (JSON text is UTF-8, RFC 8259).
 */
export const isJson = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  if (contentType === "application/json") return true
  const media = parse(contentType)
  if (media === undefined || media.type !== "application" || media.subtype !== "json") return false
  const charset = media.parameters.get("charset")?.toLowerCase()
  return charset === undefined || charset === "utf-8" || charset === "utf8"
}

/** The q-value of a media range: 1 when absent; NaN when malformed. */
const qOf = (media: MediaType): number => {
  const q = media.parameters.get("q")
  if (q === undefined) return 1
  if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(q)) return Number.NaN
  return Number(q)
}

/**
 * Whether an `Accept` value accepts `type/subtype`: the most specific range
 * that matches it (`type/subtype`, then `type/*`, then `*\/*`) decides, and
 * accepts when its q-value is above 0. Malformed ranges are ignored; an
 * absent or empty header accepts nothing.
 */
export const accepts = (accept: string | undefined, mediaType: string): boolean => {
  if (accept === undefined) return false
  if (accept.length > 256) return decide(accept, mediaType)
  // a client sends the same Accept on every request: the last few answers are kept, by media type
  // then by the value as sent (no key made per request: the value's hash is computed once, for both lookups)
  let cache = acceptCaches.get(mediaType)
  if (cache === undefined) {
    if (acceptCaches.size >= 16) acceptCaches.clear()
    acceptCaches.set(mediaType, cache = new Map())
  }
  const known = cache.get(accept)
  if (known !== undefined) return known
  const answer = decide(accept, mediaType)
  if (cache.size >= 64) cache.clear()
  cache.set(accept, answer)
  return answer
}

const acceptCaches = new Map<string, Map<string, boolean>>()

const decide = (accept: string, mediaType: string): boolean => {
  const slash = mediaType.indexOf("/")
  const type = mediaType.slice(0, slash).toLowerCase()
  const subtype = mediaType.slice(slash + 1).toLowerCase()
  const r = new Reader(accept)
  let best = -1
  let bestQ = 0
  while (!r.done) {
    const range = readOne(r)
    if (range === undefined) {
      // skip the malformed element: to the next comma outside quotes
      skipElement(r)
    } else {
      const specificity = range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === "*"
        ? 1
        : range.type === "*" && range.subtype === "*"
        ? 0
        : -1
      const q = qOf(range)
      if (specificity > best && !Number.isNaN(q)) {
        best = specificity
        bestQ = q
      }
    }
    r.skipSpace()
    if (!r.done && r.peek() === 0x2c) r.i++
  }
  return best >= 0 && bestQ > 0
}

const skipElement = (r: Reader): void => {
  let quoted = false
  while (!r.done) {
    const c = r.peek()
    if (quoted) {
      if (c === 0x5c) r.i++
      else if (c === 0x22) quoted = false
    } else if (c === 0x22) quoted = true
    else if (c === 0x2c) return
    r.i++
  }
}
