/**
 * Publishing skills: each definition checked and compiled once (entry with
 * digests and sizes, resources, directories), then served as resources plus
 * the extension's methods.
 */
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Layer from "effect/Layer"
import { ErrorResponse } from "../../McpError.js"
import * as McpFeature from "../../McpFeature.js"
import type * as McpSchema from "../../McpSchema.js"
import { type Extension, type ExtensionRequest, McpServer } from "../../McpServer.js"
import type { LayerOptions, SkillDefinition, SkillEntry, SkillError } from "../../McpSkills.js"
import type * as Protocol from "../../Protocol.js"
import type * as Schema from "effect/Schema"
import * as Pagination from "../server/pagination.js"
import * as Manifest from "./manifest.js"

const EXTENSION_ID = "io.modelcontextprotocol/skills"
const DIRECTORY = "inode/directory"

interface CompiledFile {
  readonly uri: string
  readonly path: string
  readonly content: string | Uint8Array
  readonly mimeType: string
  readonly size: number
}

interface Compiled {
  readonly entry: SkillEntry
  readonly root: string
  readonly files: ReadonlyArray<CompiledFile>
}

type Invalid = (uri: string, message: string) => SkillError

/**
 * What the public module gives this one (it imports this module, so not the other way round).
 * `any`: the schemas' encoded side is never used here.
 */
export interface Deps {
  readonly invalid: Invalid
  readonly ListSkillsParams: Schema.Codec<{ readonly cursor?: string | undefined }, any>
  readonly GetSkillParams: Schema.Codec<{ readonly uri: string }, any>
  readonly DirectoryReadParams: Schema.Codec<{ readonly uri: string; readonly cursor?: string | undefined }, any>
}

/** Checks one definition against SEP-2640 and computes its entry. */
const compile = (definition: SkillDefinition, invalid: Invalid): Effect.Effect<Compiled, SkillError> =>
  Effect.gen(function*() {
    const scheme = definition.scheme ?? "skill"
    const segments = definition.path.split("/")
    const root = `${scheme}://${definition.path}`
    const skillMdUri = `${root}/SKILL.md`
    if (segments.some((s) => s.length === 0)) {
      return yield* Effect.fail(invalid(skillMdUri, `the skill path "${definition.path}" has an empty segment`))
    }
    const name = segments[segments.length - 1]!
    if (!Manifest.NAME_PATTERN.test(name)) {
      return yield* Effect.fail(
        invalid(skillMdUri, `the skill name "${name}" breaks the Agent Skills naming rules (1-64 of a-z, 0-9, -)`)
      )
    }
    const skillMd = definition.files["SKILL.md"]
    if (skillMd === undefined) return yield* Effect.fail(invalid(skillMdUri, "a skill must have a SKILL.md at its root"))
    const text = typeof skillMd === "string" ? skillMd : new TextDecoder().decode(skillMd)
    const frontmatter = Manifest.parseFrontmatter(text)
    if (Result.isFailure(frontmatter)) return yield* Effect.fail(invalid(skillMdUri, frontmatter.failure))
    const fm = frontmatter.success
    if (typeof fm.name !== "string" || typeof fm.description !== "string" || fm.description.length === 0) {
      return yield* Effect.fail(invalid(skillMdUri, "the front matter needs a string name and a non-empty description"))
    }
    if (fm.name !== name) {
      return yield* Effect.fail(
        invalid(skillMdUri, `the front matter's name "${fm.name}" is not the final path segment "${name}"`)
      )
    }
    const paths = Object.keys(definition.files).sort((a, b) => (a === "SKILL.md" ? -1 : b === "SKILL.md" ? 1 : a < b ? -1 : 1))
    const files: Array<CompiledFile> = []
    const resources: Array<{ uri: string; digest: string; size: number }> = []
    for (const path of paths) {
      if (path.split("/").some((s) => s === "" || s === "." || s === "..")) {
        return yield* Effect.fail(invalid(skillMdUri, `the file path "${path}" is not a plain relative path`))
      }
      const content = definition.files[path]!
      const bytes = Manifest.bytesOf(content)
      const uri = `${root}/${path}`
      files.push({
        uri,
        path,
        content,
        size: bytes.length,
        mimeType: definition.mimeTypes?.[path] ?? Manifest.mimeTypeOf(path, content)
      })
      resources.push({ uri, digest: yield* Manifest.digest(bytes), size: bytes.length })
    }
    return {
      root,
      files,
      entry: { uri: skillMdUri, frontmatter: fm as SkillEntry["frontmatter"], resources }
    }
  })

/** The resource each file is served as; a SKILL.md is named and described from its front matter. */
const resourceOf = (skill: Compiled, file: CompiledFile) =>
  McpFeature.resource({
    uri: file.uri,
    name: file.path === "SKILL.md" ? skill.entry.frontmatter.name : `${skill.root.slice(skill.root.indexOf("://") + 3)}/${file.path}`,
    description: file.path === "SKILL.md"
      ? skill.entry.frontmatter.description
      : `${file.path}, a file of the skill ${skill.entry.frontmatter.name}`,
    mimeType: file.path === "SKILL.md" ? "text/markdown" : file.mimeType,
    size: file.size,
    content: Effect.succeed(file.content)
  })

const basename = (uri: string): string => uri.slice(uri.lastIndexOf("/") + 1)

/** Every directory of every skill (its root and below) with its direct children. */
const directoriesOf = (skills: ReadonlyArray<Compiled>): ReadonlyMap<string, ReadonlyArray<McpSchema.Resource>> => {
  const children = new Map<string, Map<string, McpSchema.Resource>>()
  const child = (dir: string, resource: McpSchema.Resource) => {
    let map = children.get(dir)
    if (map === undefined) children.set(dir, map = new Map())
    if (!map.has(resource.uri)) map.set(resource.uri, resource)
  }
  for (const skill of skills) {
    children.has(skill.root) || children.set(skill.root, new Map())
    for (const file of skill.files) {
      const segments = file.path.split("/")
      let dir = skill.root
      for (const segment of segments.slice(0, -1)) {
        const sub = `${dir}/${segment}`
        child(dir, { uri: sub, name: segment, mimeType: DIRECTORY })
        children.has(sub) || children.set(sub, new Map())
        dir = sub
      }
      child(dir, { uri: file.uri, name: basename(file.uri), mimeType: file.mimeType, size: file.size })
    }
  }
  return new Map(Array.from(children, ([dir, map]) => [dir, Array.from(map.values())]))
}

/** The 2026 caching hints, on results of a 2026 request. */
const withCaching = (options: LayerOptions, request: ExtensionRequest) => (result: Protocol.Result): Protocol.Result =>
  request.era === "2026"
    ? { ...result, ttlMs: options.ttlMs ?? 0, cacheScope: options.cacheScope ?? "private" }
    : result

const extensionOf = (skills: ReadonlyArray<Compiled>, options: LayerOptions, mcpSkills: Deps): Extension => {
  const listPage = Pagination.make(options.pageSize ?? 100)
  const entries = skills.map((s) => s.entry)
  const byUri = new Map(entries.map((e) => [e.uri, e]))
  const directories = directoriesOf(skills)
  const directoryRead = options.directoryRead ?? true
  return {
    capabilities: { extensions: { [EXTENSION_ID]: directoryRead ? { directoryRead: true } : {} } },
    methods: {
      "skills/list": {
        params: mcpSkills.ListSkillsParams,
        handle: (params: { readonly cursor?: string | undefined }, request) =>
          Effect.map(listPage("skills", entries, params.cursor), withCaching(options, request))
      },
      "skills/get": {
        params: mcpSkills.GetSkillParams,
        handle: ({ uri }: { readonly uri: string }, request) => {
          const entry = byUri.get(uri)
          return entry === undefined
            ? Effect.fail(ErrorResponse.invalidParams(`Not a skill this server serves: ${uri}`, { uri }))
            : Effect.succeed(withCaching(options, request)({ skill: entry }))
        }
      },
      ...(directoryRead
        ? {
          "resources/directory/read": {
            params: mcpSkills.DirectoryReadParams,
            handle: (params: { readonly uri: string; readonly cursor?: string | undefined }, request: ExtensionRequest) => {
              const children = directories.get(params.uri)
              return children === undefined
                ? Effect.fail(ErrorResponse.invalidParams(`Not a directory resource: ${params.uri}`, { uri: params.uri }))
                : Effect.map(listPage("resources", children, params.cursor), withCaching(options, request))
            }
          }
        }
        : {})
    }
  }
}

/** `McpSkills.layer`. */
export const layer = (
  definitions: ReadonlyArray<SkillDefinition>,
  options: LayerOptions,
  deps: Deps
): Layer.Layer<never, SkillError, McpServer> =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const server = yield* McpServer
      const { invalid } = deps
      const skills = yield* Effect.forEach(definitions, (d) => compile(d, invalid))
      const seen = new Set<string>()
      for (const s of skills) {
        if (seen.has(s.entry.uri)) return yield* Effect.fail(invalid(s.entry.uri, "two skills have the same URI"))
        seen.add(s.entry.uri)
      }
      yield* server.add(skills.flatMap((s) => s.files.map((f) => resourceOf(s, f))), yield* Effect.context<never>())
      yield* server.extend(extensionOf(skills, options, deps))
    })
  )
