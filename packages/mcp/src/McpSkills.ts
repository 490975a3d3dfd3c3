/**
 * The skills extension (SEP-2640, `io.modelcontextprotocol/skills`), server
 * side: a server publishes Agent Skills (a directory of files, minimally a
 * `SKILL.md` with YAML front matter) as resources under `skill://`, answers
 * `skills/list` and `skills/get` with each skill's entry (its verbatim front
 * matter and the `{uri, digest, size}` of every file), and
 * `resources/directory/read` for the directories of a skill.
 *
 * The wire shapes and `SkillError` live here too; the client side is
 * `McpSkillsClient`.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpSkills from "@effect-mcp/mcp/McpSkills"
 * import * as Layer from "effect/Layer"
 *
 * const GitWorkflow = McpSkills.skill({
 *   path: "git-workflow",
 *   files: {
 *     "SKILL.md": "---\nname: git-workflow\ndescription: Our branching and commit rules\n---\n\nSee references/RULES.md.\n",
 *     "references/RULES.md": "Rebase, never merge.\n"
 *   }
 * })
 *
 * const ServerLive = McpSkills.layer([GitWorkflow]).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "skills-demo", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 */
import type { PlatformError } from "effect/PlatformError"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Manifest from "./internal/skills/manifest.js"
import * as Server from "./internal/skills/server.js"
import * as McpSchema from "./McpSchema.js"
import type { McpServer } from "./McpServer.js"

/**
 * The extension's identifier, the key under `capabilities.extensions`.
 * @since 0.1.0
 * @category constants
 */
export const EXTENSION_ID = "io.modelcontextprotocol/skills" as const

/**
 * The media type of a directory resource (`resources/directory/read`).
 * @since 0.1.0
 * @category constants
 */
export const DIRECTORY_MIME_TYPE = "inode/directory" as const

/**
 * One file of a skill as its entry lists it: URI, SHA-256 digest of its raw
 * bytes (`sha256:` and 64 lowercase hex digits) and its size in bytes.
 * @since 0.1.0
 * @category schemas
 */
export const SkillResource = Schema.Struct({
  uri: Schema.String,
  digest: Schema.String.check(Schema.isPattern(Manifest.DIGEST_PATTERN)),
  size: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
})
/**
 * One file of a skill as its entry lists it.
 * @since 0.1.0
 * @category schemas
 */
export interface SkillResource extends Schema.Schema.Type<typeof SkillResource> {}

/**
 * A skill's front matter as JSON: `name` and `description` always, every
 * other field the author wrote passed through.
 * @since 0.1.0
 * @category schemas
 */
export const Frontmatter = Schema.StructWithRest(
  Schema.Struct({ name: Schema.String, description: Schema.String }),
  [Schema.Record(Schema.String, Schema.Unknown)]
)
/**
 * A skill's front matter as JSON.
 * @since 0.1.0
 * @category schemas
 */
export type Frontmatter = Schema.Schema.Type<typeof Frontmatter>

/**
 * A skill's entry (`skills/list`, `skills/get`): the URI of its `SKILL.md`,
 * its front matter verbatim, and every file with its digest and size, or
 * `"dynamic"` for a skill whose content cannot be digested ahead of time.
 * @since 0.1.0
 * @category schemas
 */
export const SkillEntry = Schema.Struct({
  uri: Schema.String,
  frontmatter: Frontmatter,
  resources: Schema.Union([Schema.Array(SkillResource), Schema.Literal("dynamic")])
})
/**
 * A skill's entry.
 * @since 0.1.0
 * @category schemas
 */
export interface SkillEntry extends Schema.Schema.Type<typeof SkillEntry> {}

/**
 * Params of `skills/list`.
 * @since 0.1.0
 * @category schemas
 */
export const ListSkillsParams = Schema.Struct({
  _meta: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  cursor: Schema.optional(Schema.String)
})

/**
 * The result of `skills/list`: one page of entries (an entry is never split
 * across pages).
 * @since 0.1.0
 * @category schemas
 */
export const ListSkillsResult = Schema.Struct({
  skills: Schema.Array(SkillEntry),
  nextCursor: Schema.optional(Schema.String)
})

/**
 * Params of `skills/get` (the URI of a `SKILL.md`).
 * @since 0.1.0
 * @category schemas
 */
export const GetSkillParams = Schema.Struct({
  _meta: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  uri: Schema.String
})

/**
 * The result of `skills/get`: the entry of one skill, with no cursor.
 * @since 0.1.0
 * @category schemas
 */
export const GetSkillResult = Schema.Struct({ skill: SkillEntry })

/**
 * Params of `resources/directory/read`.
 * @since 0.1.0
 * @category schemas
 */
export const DirectoryReadParams = Schema.Struct({
  _meta: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  uri: Schema.String,
  cursor: Schema.optional(Schema.String)
})

/**
 * The result of `resources/directory/read`: the direct children of a
 * directory, subdirectories with `mimeType: "inode/directory"`.
 * @since 0.1.0
 * @category schemas
 */
export const DirectoryReadResult = Schema.Struct({
  resources: Schema.Array(McpSchema.Resource),
  nextCursor: Schema.optional(Schema.String)
})

/**
 * Why a skill could not be published or loaded:
 * - `InvalidSkill`: a skill definition breaks SEP-2640 (no `SKILL.md`, no front
 *   matter, a name that is not the final path segment or breaks the naming rules);
 * - `NotSupported`: the server does not declare the extension;
 * - `Dynamic`: the entry publishes no digests and the loader was not told to accept that;
 * - `DigestMismatch`, `SizeMismatch`, `FrontmatterMismatch`: what the server
 *   sent is not what its entry promised (the content is not used);
 * - `UnlistedFile`: a file the entry does not list (or outside the skill);
 * - `Unreadable`: `resources/read` answered no content for the file.
 * @since 0.1.0
 * @category errors
 */
export class SkillError extends Schema.TaggedError<SkillError>("@effect-mcp/mcp/SkillError")("SkillError", {
  reason: Schema.Literals([
    "InvalidSkill",
    "NotSupported",
    "Dynamic",
    "DigestMismatch",
    "SizeMismatch",
    "FrontmatterMismatch",
    "UnlistedFile",
    "Unreadable"
  ]),
  uri: Schema.String,
  message: Schema.String
}) {}

/**
 * A skill to publish: its skill path (`git-workflow`, or nested
 * `acme/billing/refunds`, whose final segment is the skill's name) and its
 * files by path relative to the skill's root, `SKILL.md` among them. Text
 * files are strings (served as text, digested as UTF-8), others bytes.
 * @since 0.1.0
 * @category models
 */
export interface SkillDefinition {
  readonly path: string
  readonly files: { readonly [path: string]: string | Uint8Array }
  /** The URI scheme (default `skill`). */
  readonly scheme?: string | undefined
  /** Media types by file path, over the ones guessed from extensions. */
  readonly mimeTypes?: { readonly [path: string]: string } | undefined
}

/**
 * A skill to publish, as a value (checked when `layer` builds).
 *
 * @example
 * ```ts
 * import * as McpSkills from "@effect-mcp/mcp/McpSkills"
 *
 * const Refunds = McpSkills.skill({
 *   path: "acme/billing/refunds", // skill://acme/billing/refunds/SKILL.md
 *   files: { "SKILL.md": "---\nname: refunds\ndescription: Process refunds per policy\n---\n" }
 * })
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const skill = (definition: SkillDefinition): SkillDefinition => definition

/**
 * Reads a skill from a directory (every file under it, recursively); the
 * skill path defaults to the directory's name.
 *
 * @example
 * ```ts
 * import * as McpSkills from "@effect-mcp/mcp/McpSkills"
 * import * as Effect from "effect/Effect"
 *
 * const skills = Effect.all([McpSkills.fromDirectory("./skills/pdf-processing")])
 * // provide a FileSystem and a Path (NodeContext.layer), then McpSkills.layer(yield* skills)
 * ```
 * @since 0.1.0
 * @category constructors
 */
export const fromDirectory = (
  directory: string,
  options?: { readonly path?: string | undefined; readonly scheme?: string | undefined }
): Effect.Effect<SkillDefinition, PlatformError, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const names = yield* fs.readDirectory(directory, { recursive: true })
    const files: Record<string, string | Uint8Array> = {}
    for (const name of names.slice().sort()) {
      const full = path.join(directory, name)
      const info = yield* fs.stat(full)
      if (info.type !== "File") continue
      const relative = name.split(path.sep).join("/")
      const bytes = yield* fs.readFile(full)
      files[relative] = isText(relative) ? new TextDecoder().decode(bytes) : bytes
    }
    return { path: options?.path ?? path.basename(path.resolve(directory)), files, scheme: options?.scheme }
  })

const isText = (file: string): boolean => Manifest.mimeTypeOf(file, "").startsWith("text/") || /\.(json|ya?ml|xml)$/i.test(file)

/**
 * How the skills are served.
 * @since 0.1.0
 * @category models
 */
export interface LayerOptions {
  /** Entries per `skills/list` page and children per directory page (default 100). */
  readonly pageSize?: number | undefined
  /** Serve `resources/directory/read` and declare `directoryRead` (default true). */
  readonly directoryRead?: boolean | undefined
  /** The 2026 caching hints on `skills/list`, `skills/get` and directory reads (default 0 ms, `private`). */
  readonly ttlMs?: number | undefined
  readonly cacheScope?: "private" | "public" | undefined
}

/**
 * Publishes skills for the life of the Layer: each file as a resource (the
 * `SKILL.md` named and described from its front matter, `text/markdown`), the
 * extension declared under `capabilities.extensions`, and `skills/list`,
 * `skills/get` and `resources/directory/read` answered. Fails with
 * `SkillError{reason:"InvalidSkill"}` when a definition breaks SEP-2640.
 *
 * @example
 * ```ts
 * import * as McpServer from "@effect-mcp/mcp/McpServer"
 * import * as McpSkills from "@effect-mcp/mcp/McpSkills"
 * import * as Layer from "effect/Layer"
 *
 * const Pdf = McpSkills.skill({
 *   path: "pdf-processing",
 *   files: {
 *     "SKILL.md": "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n",
 *     "references/FORMS.md": "# Forms\n"
 *   }
 * })
 * const ServerLive = McpSkills.layer([Pdf], { pageSize: 50 }).pipe(
 *   Layer.provideMerge(McpServer.layer({ name: "pdf", version: "1.0.0" }))
 * )
 * ```
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  skills: ReadonlyArray<SkillDefinition>,
  options?: LayerOptions
): Layer.Layer<never, SkillError, McpServer> =>
  Server.layer(skills, options ?? {}, {
    invalid: (uri, message) => new SkillError({ reason: "InvalidSkill", uri, message }),
    ListSkillsParams,
    GetSkillParams,
    DirectoryReadParams
  })
