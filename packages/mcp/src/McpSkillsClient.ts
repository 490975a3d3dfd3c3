/**
 * The skills extension (SEP-2640), client side: list a server's skills (the
 * entries carry everything a host's registry needs, so listing reads no
 * file), and load one only when asked. Loading reads the `SKILL.md` and
 * verifies it against the entry: byte size, SHA-256 digest, then its front
 * matter field by field; any mismatch is a `SkillError` and the content is
 * not used. A loaded skill reads its supporting files the same way, and only
 * files its entry lists.
 *
 * @example
 * ```ts
 * import * as McpClient from "@effect-mcp/mcp/McpClient"
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const entries = yield* McpSkillsClient.listAll()
 *   const pdf = entries.find((e) => e.frontmatter.name === "pdf-processing")
 *   if (pdf === undefined) return
 *   const skill = yield* McpSkillsClient.load(pdf) // verified, or a SkillError
 *   const forms = yield* skill.read("references/FORMS.md")
 *   console.log(skill.text, forms.text)
 * })
 * // Effect.provide(program, McpClient.layer(...))
 * ```
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Base64 from "effect/encoding/Base64"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Manifest from "./internal/skills/manifest.js"
import { type ClientError, McpClient, type McpClientShape } from "./McpClient.js"
import { ProtocolError } from "./McpError.js"
import type * as McpSchema from "./McpSchema.js"
import { DirectoryReadResult, EXTENSION_ID, GetSkillResult, ListSkillsResult, type SkillEntry, SkillError } from "./McpSkills.js"

/**
 * What the server declared for the extension (`{}` or `{ directoryRead: true }`), if it did.
 *
 * @example
 * ```ts
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 * import * as Effect from "effect/Effect"
 *
 * const hasSkills = Effect.map(McpSkillsClient.declared, (d) => d !== undefined)
 * ```
 * @since 0.1.0
 * @category capabilities
 */
export const declared: Effect.Effect<{ readonly directoryRead?: boolean } | undefined, never, McpClient> = Effect.map(
  McpClient,
  declaredBy
)

function declaredBy(client: McpClientShape): { readonly directoryRead?: boolean } | undefined {
  const extensions = client.serverCapabilities.extensions
  const value = extensions?.[EXTENSION_ID]
  return typeof value === "object" && value !== null ? value as { readonly directoryRead?: boolean } : undefined
}

const notSupported = (uri: string) =>
  new SkillError({ reason: "NotSupported", uri, message: `The server does not declare the ${EXTENSION_ID} extension` })

const decode = <A, I>(schema: Schema.Codec<A, I>, method: string) => (u: unknown): Effect.Effect<A, ProtocolError> =>
  Result.match(Schema.decodeUnknownResult(schema)(u), {
    onFailure: (e) => Effect.fail(new ProtocolError({ reason: "InvalidResult", method, message: `Invalid ${method} result: ${e.message}` })),
    onSuccess: Effect.succeed
  })

const call = <A, I>(
  method: string,
  params: Record<string, unknown>,
  schema: Schema.Codec<A, I>
): Effect.Effect<A, ClientError | SkillError, McpClient> =>
  Effect.flatMap(McpClient, (client): Effect.Effect<A, ClientError | SkillError> =>
    declaredBy(client) === undefined
      ? Effect.fail(notSupported(typeof params.uri === "string" ? params.uri : ""))
      : Effect.flatMap(client.request(method, params), decode(schema, method)))

/**
 * Every skill entry the server lists (`skills/list`, every page); reads no file.
 *
 * @example
 * ```ts
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 * import * as Stream from "effect/Stream"
 *
 * const names = McpSkillsClient.list.pipe(Stream.map((entry) => entry.frontmatter.name), Stream.runCollect)
 * ```
 * @since 0.1.0
 * @category listing
 */
export const list: Stream.Stream<SkillEntry, ClientError | SkillError, McpClient> = Stream.paginate(
  undefined as string | undefined,
  (cursor) =>
    Effect.map(
      call("skills/list", cursor === undefined ? {} : { cursor }, ListSkillsResult),
      (page) => [page.skills, Option.fromNullishOr<string | undefined>(page.nextCursor)] as const
    )
)

/**
 * Every skill entry, at most `maxPages` pages (default 100).
 *
 * @example
 * ```ts
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 *
 * const entries = McpSkillsClient.listAll({ maxPages: 10 })
 * ```
 * @since 0.1.0
 * @category listing
 */
export const listAll = (
  options?: { readonly maxPages?: number }
): Effect.Effect<ReadonlyArray<SkillEntry>, ClientError | SkillError, McpClient> =>
  Stream.runCollect(list.pipe(Stream.take((options?.maxPages ?? 100) * 1000)))

/**
 * One skill's entry by the URI of its `SKILL.md` (`skills/get`), listed or not.
 *
 * @example
 * ```ts
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 *
 * const entry = McpSkillsClient.get("skill://git-workflow/SKILL.md")
 * ```
 * @since 0.1.0
 * @category listing
 */
export const get = (uri: string): Effect.Effect<SkillEntry, ClientError | SkillError, McpClient> =>
  Effect.map(call("skills/get", { uri }, GetSkillResult), (r) => r.skill)

/**
 * The direct children of a directory resource (`resources/directory/read`,
 * every page), when the server declares `directoryRead`.
 *
 * @example
 * ```ts
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 * import * as Stream from "effect/Stream"
 *
 * const templates = Stream.runCollect(McpSkillsClient.readDirectory("skill://pdf-processing/templates"))
 * ```
 * @since 0.1.0
 * @category listing
 */
export const readDirectory = (uri: string): Stream.Stream<McpSchema.Resource, ClientError | SkillError, McpClient> =>
  Stream.unwrap(Effect.map(McpClient, (client) =>
    declaredBy(client)?.directoryRead !== true
      ? Stream.fail(new SkillError({ reason: "NotSupported", uri, message: "The server does not declare directoryRead" }))
      : Stream.paginate(
        undefined as string | undefined,
        (cursor) =>
          Effect.map(
            call("resources/directory/read", cursor === undefined ? { uri } : { uri, cursor }, DirectoryReadResult),
            (page) => [page.resources, Option.fromNullishOr<string | undefined>(page.nextCursor)] as const
          )
      )))

/**
 * A file of a loaded skill, verified against its entry.
 * @since 0.1.0
 * @category models
 */
export interface SkillFile {
  readonly uri: string
  readonly mimeType: string | undefined
  readonly bytes: Uint8Array
  /** The content as text, when the server sent text. */
  readonly text: string | undefined
}

/**
 * A skill that was loaded: its entry, its verified `SKILL.md`, and a reader
 * for its supporting files.
 * @since 0.1.0
 * @category models
 */
export interface LoadedSkill {
  readonly entry: SkillEntry
  readonly name: string
  /** The skill's root directory: `skill://pdf-processing` for `skill://pdf-processing/SKILL.md`. */
  readonly root: string
  readonly frontmatter: Record<string, unknown>
  /** The whole `SKILL.md`, front matter included. */
  readonly text: string
  /**
   * Reads a file of the skill (a path relative to its root, or a full URI),
   * verified against the entry; a file the entry does not list is `UnlistedFile`.
   */
  readonly read: (reference: string) => Effect.Effect<SkillFile, ClientError | SkillError>
}

/**
 * How `load` treats an entry without digests.
 * @since 0.1.0
 * @category models
 */
export interface LoadOptions {
  /** Load a `"dynamic"` entry (no digests, so only the front matter is checked); default false. */
  readonly allowDynamic?: boolean | undefined
}

const decoder = new TextDecoder("utf-8", { fatal: false })

/** `resources/read` of one file, as bytes. */
const fetchFile = (client: McpClientShape, uri: string): Effect.Effect<SkillFile, ClientError | SkillError> =>
  Effect.flatMap(client.readResource(uri), (result): Effect.Effect<SkillFile, SkillError> => {
    const content = result.contents.find((c) => c.uri === uri) ?? result.contents[0]
    if (content !== undefined && "text" in content && typeof content.text === "string") {
      return Effect.succeed({ uri, mimeType: content.mimeType, bytes: Manifest.bytesOf(content.text), text: content.text })
    }
    if (content !== undefined && "blob" in content && typeof content.blob === "string") {
      const bytes = Base64.decode(content.blob)
      if (Result.isSuccess(bytes)) return Effect.succeed({ uri, mimeType: content.mimeType, bytes: bytes.success, text: undefined })
    }
    return Effect.fail(new SkillError({ reason: "Unreadable", uri, message: `resources/read of ${uri} returned no text or blob content` }))
  })

/** A file checked against its listed size, then digest. */
const verified = (
  client: McpClientShape,
  entry: SkillEntry,
  uri: string
): Effect.Effect<SkillFile, ClientError | SkillError> =>
  Effect.gen(function*() {
    if (entry.resources === "dynamic") return yield* fetchFile(client, uri)
    const listed = entry.resources.find((r) => r.uri === uri)
    if (listed === undefined) {
      return yield* Effect.fail(new SkillError({ reason: "UnlistedFile", uri, message: `${uri} is not a file of ${entry.uri}` }))
    }
    const file = yield* fetchFile(client, uri)
    if (file.bytes.length !== listed.size) {
      return yield* Effect.fail(
        new SkillError({ reason: "SizeMismatch", uri, message: `${uri} is ${file.bytes.length} bytes; its entry says ${listed.size}` })
      )
    }
    const digest = yield* Manifest.digest(file.bytes)
    if (digest !== listed.digest) {
      return yield* Effect.fail(
        new SkillError({ reason: "DigestMismatch", uri, message: `${uri} has digest ${digest}; its entry says ${listed.digest}` })
      )
    }
    return file
  })

/**
 * Loads a skill: reads its `SKILL.md` now (never before), verifies size,
 * digest and front matter against the entry, and returns it with a reader
 * for its other files. Any mismatch fails with a `SkillError` and nothing of
 * the content is returned.
 *
 * @example
 * ```ts
 * import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
 * import * as Effect from "effect/Effect"
 *
 * const loadByUri = (uri: string) => Effect.flatMap(McpSkillsClient.get(uri), (entry) => McpSkillsClient.load(entry))
 * ```
 * @since 0.1.0
 * @category loading
 */
export const load = (
  entry: SkillEntry,
  options?: LoadOptions
): Effect.Effect<LoadedSkill, ClientError | SkillError, McpClient> =>
  Effect.gen(function*() {
    const client = yield* McpClient
    const root = Manifest.skillRoot(entry.uri)
    const name = Manifest.nameInUri(entry.uri)
    if (root === undefined || name === undefined || name !== entry.frontmatter.name) {
      return yield* Effect.fail(
        new SkillError({ reason: "InvalidSkill", uri: entry.uri, message: `${entry.uri} does not end in /<name>/SKILL.md for its name "${entry.frontmatter.name}"` })
      )
    }
    if (entry.resources === "dynamic" && options?.allowDynamic !== true) {
      return yield* Effect.fail(
        new SkillError({ reason: "Dynamic", uri: entry.uri, message: `${entry.uri} publishes no digests; load it with allowDynamic` })
      )
    }
    const file = yield* verified(client, entry, entry.uri)
    const text = file.text ?? decoder.decode(file.bytes)
    const parsed = Manifest.parseFrontmatter(text)
    if (Result.isFailure(parsed)) {
      return yield* Effect.fail(new SkillError({ reason: "FrontmatterMismatch", uri: entry.uri, message: parsed.failure }))
    }
    const differences = Manifest.frontmatterDifferences(parsed.success, entry.frontmatter)
    if (differences.length > 0) {
      return yield* Effect.fail(
        new SkillError({
          reason: "FrontmatterMismatch",
          uri: entry.uri,
          message: `the front matter of ${entry.uri} differs from its entry in ${differences.join(", ")}`
        })
      )
    }
    const read = (reference: string): Effect.Effect<SkillFile, ClientError | SkillError> => {
      const uri = Manifest.resolveInSkill(root, reference)
      return uri === undefined || (uri !== entry.uri && !uri.startsWith(`${root}/`))
        ? Effect.fail(new SkillError({ reason: "UnlistedFile", uri: uri ?? reference, message: `${reference} is outside the skill ${root}` }))
        : verified(client, entry, uri)
    }
    return { entry, name, root, frontmatter: parsed.success, text, read }
  })
