/**
 * A linear-time guard against deeply nested JSON, run before `JSON.parse`:
 * a body of a few MiB of `[[[[…` otherwise costs the parser (and whatever
 * walks the result) seconds of event loop.
 */

/** Default deepest nesting of arrays and objects accepted in a message. */
export const DEFAULT_MAX_DEPTH = 1000

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/**
 * Whether `text` nests arrays and objects deeper than `max`, brackets inside
 * strings not counted. One pass: short strings are stepped through, long ones
 * skipped with `indexOf` (each quote's preceding backslashes counted once).
 * Text that is not JSON gets an answer too; `JSON.parse` judges it afterwards.
 */
export const exceeds = (text: string, max: number): boolean => {
  // nesting needs a bracket per level
  if (text.length <= max) return false
  let depth = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // most strings are short keys and values: by hand; past 32 characters, natively
      let stepped = 0
      for (i++; i < length; i++) {
        const d = text.charCodeAt(i)
        if (d === QUOTE) break
        if (d === BACKSLASH) i++
        else if (++stepped === 32) {
          i = closingQuote(text, i + 1)
          break
        }
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}

/**
 * The index of the quote closing a string, searched from `from`, a position
 * not inside an escape (the text's length when unterminated).
 */
const closingQuote = (text: string, from: number): number => {
  let at = from
  for (;;) {
    const quote = text.indexOf("\"", at)
    if (quote === -1) return text.length
    // escaped when preceded by an odd number of backslashes
    let backslashes = 0
    for (let j = quote - 1; j >= from && text.charCodeAt(j) === BACKSLASH; j--) backslashes++
    if ((backslashes & 1) === 0) return quote
    at = quote + 1
  }
}
