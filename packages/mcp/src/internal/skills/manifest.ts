/**
 * The parts of SEP-2640 both sides share: front matter parsing, digests,
 * URIs of a skill's files, and building a skill's entry (its manifest) from
 * its files.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { parse as parseYaml } from "yaml"

/** The Agent Skills naming rule: 1-64 of a-z 0-9 -, no leading, trailing or doubled hyphen. */
export const NAME_PATTERN = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** The YAML front matter of a SKILL.md as a JSON object, or why there is none. */
export const parseFrontmatter = (text: string): Result.Result<Record<string, unknown>, string> => {
  const match = FRONTMATTER.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  if (match === null) return Result.fail("SKILL.md does not begin with a --- delimited YAML front matter block")
  let value: unknown
  try {
    // JSON-compatible output: dates stay strings, so the object is what a JSON entry can carry
    value = parseYaml(match[1]!, { schema: "core", maxAliasCount: 100 })
  } catch (e) {
    return Result.fail(`the front matter is not valid YAML: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return Result.fail("the front matter is not a YAML mapping")
  }
  return Result.succeed(value as Record<string, unknown>)
}

/** Deep equality of JSON values (key order ignored), as the front matter comparison needs. */
export const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bs = b as ReadonlyArray<unknown>
    return a.length === bs.length && a.every((x, i) => jsonEqual(x, bs[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** The fields of two front matters that differ, by name. */
export const frontmatterDifferences = (
  file: Record<string, unknown>,
  entry: Record<string, unknown>
): ReadonlyArray<string> =>
  Array.from(new Set([...Object.keys(file), ...Object.keys(entry)])).filter((k) => !jsonEqual(file[k], entry[k]))

const encoder = new TextEncoder()

/** The UTF-8 bytes of a text file, or the bytes themselves. */
export const bytesOf = (content: string | Uint8Array): Uint8Array =>
  typeof content === "string" ? encoder.encode(content) : content

const hex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

/** `sha256:{64 lowercase hex}` of the bytes (WebCrypto: Node, Deno, Bun and browsers). */
export const digest = (bytes: Uint8Array): Effect.Effect<string> =>
  Effect.promise(() => crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)).pipe(
    Effect.map((buffer) => `sha256:${hex(buffer)}`)
  )

/** `skill://pdf-processing/SKILL.md` → `skill://pdf-processing` (the skill's root directory). */
export const skillRoot = (skillMdUri: string): string | undefined =>
  skillMdUri.endsWith("/SKILL.md") ? skillMdUri.slice(0, -"/SKILL.md".length) : undefined

/** The skill name a SKILL.md URI carries (its final skill-path segment). */
export const nameInUri = (skillMdUri: string): string | undefined => {
  const root = skillRoot(skillMdUri)
  const at = root?.indexOf("://") ?? -1
  if (root === undefined || at < 0) return undefined
  const segments = root.slice(at + 3).split("/").filter((s) => s.length > 0)
  return segments.length === 0 ? undefined : segments[segments.length - 1]
}

/**
 * A reference inside a skill, resolved against its root: `references/A.md` and
 * `./references/A.md` both become `<root>/references/A.md`; a full URI stays
 * as it is; `..` may not climb above the root (undefined).
 */
export const resolveInSkill = (root: string, reference: string): string | undefined => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference
  const out: Array<string> = []
  for (const segment of reference.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (out.length === 0) return undefined
      out.pop()
    } else out.push(segment)
  }
  return out.length === 0 ? undefined : `${root}/${out.join("/")}`
}

const MIME_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  sh: "text/x-shellscript",
  js: "text/javascript",
  ts: "text/typescript",
  html: "text/html",
  csv: "text/csv",
  xml: "application/xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  pdf: "application/pdf"
}

/** A file's media type from its extension; text/plain or application/octet-stream otherwise. */
export const mimeTypeOf = (path: string, content: string | Uint8Array): string => {
  const dot = path.lastIndexOf(".")
  const known = dot < 0 ? undefined : MIME_TYPES[path.slice(dot + 1).toLowerCase()]
  return known ?? (typeof content === "string" ? "text/plain" : "application/octet-stream")
}
