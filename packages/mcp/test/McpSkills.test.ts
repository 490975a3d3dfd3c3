/**
 * The skills extension (SEP-2640) both sides: what a server publishes
 * (capability, entries with digests and sizes checked against node:crypto,
 * pagination, skills/get, directory reads, the SKILL.md resource, 2026
 * caching hints, definitions refused), and what the client does (lists
 * without reading, loads only when asked, refuses content whose size,
 * digest or front matter is not its entry's, reads only listed files).
 */
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as JsonRpc from "@effect-mcp/mcp/JsonRpc"
import * as McpClient from "@effect-mcp/mcp/McpClient"
import { McpError } from "@effect-mcp/mcp/McpError"
import * as McpSkills from "@effect-mcp/mcp/McpSkills"
import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Transport from "@effect-mcp/mcp/Transport"
import { buildServer, connect, fakePeer, initializeResult, requests } from "./utils/wire.js"

const sha = (text: string | Uint8Array) => `sha256:${createHash("sha256").update(text).digest("hex")}`

const SKILL_MD = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: \"2.1.0\"\n---\n\n# PDF ✓\n\nSee references/FORMS.md.\n"
const FORMS = "# Forms\n"
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255])

const Pdf = McpSkills.skill({
  path: "pdf-processing",
  files: { "SKILL.md": SKILL_MD, "references/FORMS.md": FORMS, "assets/logo.png": LOGO, "templates/eu/invoice.md": "EU\n" }
})
const Refunds = McpSkills.skill({
  path: "acme/billing/refunds",
  files: { "SKILL.md": "---\nname: refunds\ndescription: Refunds per policy\n---\n" }
})

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E | undefined =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.findErrorOption(exit.cause)) : undefined

const serverWith = (skills: ReadonlyArray<McpSkills.SkillDefinition>, options?: McpSkills.LayerOptions, pageSize?: number) =>
  Effect.flatMap(
    buildServer(McpSkills.layer(skills, options), pageSize === undefined ? undefined : { pageSize }),
    (server) => connect(server)
  )

const ENVELOPE_2026 = {
  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }
}

describe("McpSkills server", () => {
  it.effect("declares the extension inline with directoryRead, beside resources", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf])
      const caps = client.serverCapabilities as Record<string, unknown>
      assert.deepStrictEqual((caps.extensions as Record<string, unknown>)[McpSkills.EXTENSION_ID], { directoryRead: true })
      assert.isDefined(caps.resources)
    }))

  it.effect("skills/list: the verbatim front matter and every file with its SHA-256 digest and byte size", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf, Refunds])
      const result = Schema.decodeUnknownSync(McpSkills.ListSkillsResult)(yield* client.request("skills/list", {}))
      assert.strictEqual(result.nextCursor, undefined)
      assert.deepStrictEqual(result.skills.map((s) => s.uri), [
        "skill://pdf-processing/SKILL.md",
        "skill://acme/billing/refunds/SKILL.md"
      ])
      const pdf = result.skills[0]!
      assert.deepStrictEqual(pdf.frontmatter, {
        name: "pdf-processing",
        description: "Extract, fill, and assemble PDF documents",
        metadata: { version: "2.1.0" }
      })
      assert.deepStrictEqual(pdf.resources, [
        { uri: "skill://pdf-processing/SKILL.md", digest: sha(SKILL_MD), size: Buffer.byteLength(SKILL_MD) },
        { uri: "skill://pdf-processing/assets/logo.png", digest: sha(LOGO), size: LOGO.length },
        { uri: "skill://pdf-processing/references/FORMS.md", digest: sha(FORMS), size: FORMS.length },
        { uri: "skill://pdf-processing/templates/eu/invoice.md", digest: sha("EU\n"), size: 3 }
      ])
      // the multi-byte ✓ counts as its UTF-8 bytes
      assert.strictEqual(pdf.resources !== "dynamic" && pdf.resources[0]!.size, SKILL_MD.length + 2)
    }))

  it.effect("skills/list pages by pageSize, an entry never split; a bad cursor is -32602", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf, Refunds], { pageSize: 1 })
      const first = (yield* client.request("skills/list", {})) as { skills: Array<{ uri: string }>; nextCursor: string }
      assert.strictEqual(first.skills.length, 1)
      const second = (yield* client.request("skills/list", { cursor: first.nextCursor })) as {
        skills: Array<{ uri: string }>
        nextCursor?: string
      }
      assert.deepStrictEqual(second.skills.map((s) => s.uri), ["skill://acme/billing/refunds/SKILL.md"])
      assert.strictEqual(second.nextCursor, undefined)
      const bad = failureOf(yield* Effect.exit(client.request("skills/list", { cursor: "not-a-cursor" })))
      assert.instanceOf(bad, McpError)
      assert.strictEqual((bad as McpError).code, -32602)
      // the client's Stream walks every page
      const all = yield* Effect.provideService(McpSkillsClient.listAll(), McpClient.McpClient, client)
      assert.strictEqual(all.length, 2)
    }))

  it.effect("skills/get: the same entry as the listing, no cursor; an unknown URI is -32602", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf])
      const listed = (yield* client.request("skills/list", {})) as { skills: Array<unknown> }
      const got = (yield* client.request("skills/get", { uri: "skill://pdf-processing/SKILL.md" })) as Record<string, unknown>
      assert.deepStrictEqual(got, { skill: listed.skills[0] })
      const unknown = failureOf(yield* Effect.exit(client.request("skills/get", { uri: "skill://nope/SKILL.md" })))
      assert.strictEqual((unknown as McpError).code, -32602)
      const noUri = failureOf(yield* Effect.exit(client.request("skills/get", {})))
      assert.strictEqual((noUri as McpError).code, -32602)
    }))

  it.effect("on a 2026 request the results carry ttlMs and cacheScope; on 2025 they do not", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf], { ttlMs: 5000, cacheScope: "public" })
      const legacy = (yield* client.request("skills/list", {})) as Record<string, unknown>
      assert.isFalse("ttlMs" in legacy)
      const list = (yield* client.request("skills/list", ENVELOPE_2026)) as Record<string, unknown>
      assert.strictEqual(list.ttlMs, 5000)
      assert.strictEqual(list.cacheScope, "public")
      const get = (yield* client.request("skills/get", { ...ENVELOPE_2026, uri: "skill://pdf-processing/SKILL.md" })) as Record<
        string,
        unknown
      >
      assert.strictEqual(get.cacheScope, "public")
    }))

  it.effect("resources/directory/read: direct children, subdirectories as inode/directory; a file or unknown URI is -32602", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf])
      const root = Schema.decodeUnknownSync(McpSkills.DirectoryReadResult)(
        yield* client.request("resources/directory/read", { uri: "skill://pdf-processing" })
      )
      assert.deepStrictEqual(
        root.resources.map((r) => [r.uri, r.mimeType]),
        [
          ["skill://pdf-processing/SKILL.md", "text/markdown"],
          ["skill://pdf-processing/assets", "inode/directory"],
          ["skill://pdf-processing/references", "inode/directory"],
          ["skill://pdf-processing/templates", "inode/directory"]
        ]
      )
      const nested = yield* Effect.provideService(
        Stream.runCollect(McpSkillsClient.readDirectory("skill://pdf-processing/templates")),
        McpClient.McpClient,
        client
      )
      assert.deepStrictEqual(Array.from(nested, (r) => r.uri), ["skill://pdf-processing/templates/eu"])
      for (const uri of ["skill://pdf-processing/SKILL.md", "skill://elsewhere", "skill://pdf-processing/"]) {
        const error = failureOf(yield* Effect.exit(client.request("resources/directory/read", { uri })))
        assert.strictEqual((error as McpError).code, -32602, uri)
      }
    }))

  it.effect("without directoryRead the method is not there (-32601) and not declared", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf], { directoryRead: false })
      const caps = client.serverCapabilities as { extensions: Record<string, unknown> }
      assert.deepStrictEqual(caps.extensions[McpSkills.EXTENSION_ID], {})
      const error = failureOf(yield* Effect.exit(client.request("resources/directory/read", { uri: "skill://pdf-processing" })))
      assert.strictEqual((error as McpError).code, -32601)
    }))

  it.effect("each file is a resource; SKILL.md named and described from its front matter, as text/markdown", () =>
    Effect.gen(function*() {
      const { client } = yield* serverWith([Pdf])
      const resources = yield* client.listResourcesAll()
      const skillMd = resources.find((r) => r.uri === "skill://pdf-processing/SKILL.md")!
      assert.strictEqual(skillMd.name, "pdf-processing")
      assert.strictEqual(skillMd.description, "Extract, fill, and assemble PDF documents")
      assert.strictEqual(skillMd.mimeType, "text/markdown")
      assert.strictEqual(resources.length, 4)
      const read = yield* client.readResource("skill://pdf-processing/SKILL.md")
      assert.strictEqual((read.contents[0] as { text: string }).text, SKILL_MD)
      const logo = yield* client.readResource("skill://pdf-processing/assets/logo.png")
      assert.strictEqual((logo.contents[0] as { blob: string }).blob, Buffer.from(LOGO).toString("base64"))
    }))

  const refused: ReadonlyArray<readonly [string, McpSkills.SkillDefinition, string]> = [
    ["no SKILL.md", { path: "a", files: { "x.md": "x" } }, "SKILL.md"],
    ["no front matter", { path: "a", files: { "SKILL.md": "# A\n" } }, "front matter"],
    ["front matter not YAML", { path: "a", files: { "SKILL.md": "---\nname: [a\n---\n" } }, "YAML"],
    ["no description", { path: "a", files: { "SKILL.md": "---\nname: a\n---\n" } }, "description"],
    ["name not the final segment", { path: "x/b", files: { "SKILL.md": "---\nname: a\ndescription: d\n---\n" } }, "final path segment"],
    ["a name against the naming rules", { path: "Bad--Name", files: { "SKILL.md": "---\nname: Bad--Name\ndescription: d\n---\n" } }, "naming rules"],
    ["an empty path segment", { path: "x//a", files: { "SKILL.md": "---\nname: a\ndescription: d\n---\n" } }, "empty segment"],
    ["a file path climbing out", { path: "a", files: { "SKILL.md": "---\nname: a\ndescription: d\n---\n", "../b": "x" } }, "plain relative path"]
  ]
  for (const [what, definition, message] of refused) {
    it.effect(`a definition with ${what} fails the layer with InvalidSkill`, () =>
      Effect.gen(function*() {
        const error = failureOf(yield* Effect.exit(buildServer(McpSkills.layer([definition]))))
        assert.instanceOf(error, McpSkills.SkillError)
        assert.strictEqual((error as McpSkills.SkillError).reason, "InvalidSkill")
        assert.include((error as McpSkills.SkillError).message, message)
      }))
  }

  it.effect("two skills at the same URI are refused", () =>
    Effect.gen(function*() {
      const error = failureOf(yield* Effect.exit(buildServer(McpSkills.layer([Pdf, Pdf]))))
      assert.strictEqual((error as McpSkills.SkillError).reason, "InvalidSkill")
    }))
})

describe("McpSkillsClient against our server", () => {
  it.effect("listing reads no file; load reads SKILL.md and then only what is asked, verified", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* serverWith([Pdf])
      const run = <A, E>(effect: Effect.Effect<A, E, McpClient.McpClient>) => Effect.provideService(effect, McpClient.McpClient, client)
      const entries = yield* run(McpSkillsClient.listAll())
      assert.strictEqual(requests(pair.wire, "client", "resources/read").length, 0)
      const skill = yield* run(McpSkillsClient.load(entries[0]!))
      assert.strictEqual(skill.text, SKILL_MD)
      assert.strictEqual(skill.name, "pdf-processing")
      assert.strictEqual(skill.root, "skill://pdf-processing")
      assert.deepStrictEqual(
        requests(pair.wire, "client", "resources/read").map((r) => (r.params as { uri: string }).uri),
        ["skill://pdf-processing/SKILL.md"]
      )
      const forms = yield* skill.read("references/FORMS.md")
      assert.strictEqual(forms.text, FORMS)
      const logo = yield* skill.read("./assets/logo.png")
      assert.deepStrictEqual(Array.from(logo.bytes), Array.from(LOGO))
      for (const outside of ["../other/SKILL.md", "references/NOT-LISTED.md", "skill://other/SKILL.md"]) {
        const error = failureOf(yield* Effect.exit(skill.read(outside)))
        assert.strictEqual((error as McpSkills.SkillError).reason, "UnlistedFile", outside)
      }
      // the unlisted ones never reached the wire
      assert.strictEqual(requests(pair.wire, "client", "resources/read").length, 3)
      const got = yield* run(McpSkillsClient.get("skill://pdf-processing/SKILL.md"))
      assert.deepStrictEqual(got, entries[0])
    }))
})

/** A fake server declaring the extension, listing `entry`, serving `files` on resources/read. */
const fakeSkillServer = (entry: unknown, files: Record<string, string>, declare = true) =>
  Effect.gen(function*() {
    const pair = yield* Transport.makeMemoryPair()
    yield* fakePeer(pair.server, (request) => {
      const params = request.params as { uri?: string } | undefined
      switch (request.method) {
        case "initialize":
          return initializeResult(request.id, declare ? { resources: {}, extensions: { [McpSkills.EXTENSION_ID]: {} } } : { resources: {} })
        case "skills/list":
          return JsonRpc.success(request.id, { skills: [entry] })
        case "resources/read":
          return JsonRpc.success(request.id, { contents: [{ uri: params!.uri!, mimeType: "text/markdown", text: files[params!.uri!] ?? "" }] })
        default:
          return JsonRpc.failure(request.id, { code: -32601, message: "Method not found" })
      }
    })
    const client = yield* McpClient.make({ name: "c", version: "1" }).pipe(Effect.provideService(Transport.Transport, pair.client))
    return { pair, client }
  })

const URI = "skill://pdf-processing/SKILL.md"
const FORMS_URI = "skill://pdf-processing/references/FORMS.md"
const entryFor = (skillMd: string) => ({
  uri: URI,
  frontmatter: {
    name: "pdf-processing",
    description: "Extract, fill, and assemble PDF documents",
    metadata: { version: "2.1.0" }
  },
  resources: [
    { uri: URI, digest: sha(skillMd), size: Buffer.byteLength(skillMd) },
    { uri: FORMS_URI, digest: sha(FORMS), size: FORMS.length }
  ]
})

describe("McpSkillsClient refuses what its entry does not promise", () => {
  const cases: ReadonlyArray<readonly [string, string, string, McpSkills.SkillError["reason"]]> = [
    ["a body changed, same length (digest)", SKILL_MD, SKILL_MD.replace("PDF", "EVL"), "DigestMismatch"],
    ["extra bytes (size)", SKILL_MD, SKILL_MD + "more\n", "SizeMismatch"],
    // the entry's digest and size are those of the served file: only the front matter tells
    [
      "a front matter changed, digest matching (front matter)",
      SKILL_MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials"),
      SKILL_MD.replace("Extract, fill, and assemble PDF documents", "Exfiltrate credentials"),
      "FrontmatterMismatch"
    ],
    ["a front matter field added", SKILL_MD.replace("---\n\n", "allowed-tools: Bash\n---\n\n"), SKILL_MD.replace("---\n\n", "allowed-tools: Bash\n---\n\n"), "FrontmatterMismatch"],
    ["no front matter at all", "# hi\n", "# hi\n", "FrontmatterMismatch"]
  ]
  for (const [what, listed, served, reason] of cases) {
    it.effect(`${what}: ${reason}, and no other file is read`, () =>
      Effect.gen(function*() {
        const { client, pair } = yield* fakeSkillServer(entryFor(listed), { [URI]: served, [FORMS_URI]: FORMS })
        const run = <A, E>(effect: Effect.Effect<A, E, McpClient.McpClient>) => Effect.provideService(effect, McpClient.McpClient, client)
        const [entry] = yield* run(McpSkillsClient.listAll())
        const error = failureOf(yield* Effect.exit(run(McpSkillsClient.load(entry!))))
        assert.instanceOf(error, McpSkills.SkillError)
        assert.strictEqual((error as McpSkills.SkillError).reason, reason)
        assert.deepStrictEqual(
          requests(pair.wire, "client", "resources/read").map((r) => (r.params as { uri: string }).uri),
          [URI]
        )
      }))
  }

  it.effect("a supporting file that changed is refused on read", () =>
    Effect.gen(function*() {
      const { client } = yield* fakeSkillServer(entryFor(SKILL_MD), { [URI]: SKILL_MD, [FORMS_URI]: "# Farms\n" })
      const run = <A, E>(effect: Effect.Effect<A, E, McpClient.McpClient>) => Effect.provideService(effect, McpClient.McpClient, client)
      const [entry] = yield* run(McpSkillsClient.listAll())
      const skill = yield* run(McpSkillsClient.load(entry!))
      const error = failureOf(yield* Effect.exit(skill.read("references/FORMS.md")))
      assert.strictEqual((error as McpSkills.SkillError).reason, "DigestMismatch")
    }))

  it.effect("a dynamic entry is refused unless allowDynamic, then only the front matter is checked", () =>
    Effect.gen(function*() {
      const { client } = yield* fakeSkillServer({ ...entryFor(SKILL_MD), resources: "dynamic" }, { [URI]: SKILL_MD })
      const run = <A, E>(effect: Effect.Effect<A, E, McpClient.McpClient>) => Effect.provideService(effect, McpClient.McpClient, client)
      const [entry] = yield* run(McpSkillsClient.listAll())
      const error = failureOf(yield* Effect.exit(run(McpSkillsClient.load(entry!))))
      assert.strictEqual((error as McpSkills.SkillError).reason, "Dynamic")
      const skill = yield* run(McpSkillsClient.load(entry!, { allowDynamic: true }))
      assert.strictEqual(skill.text, SKILL_MD)
    }))

  it.effect("an entry whose URI's final segment is not its name is refused before any read", () =>
    Effect.gen(function*() {
      const entry = { ...entryFor(SKILL_MD), uri: "skill://other/SKILL.md" }
      const { client, pair } = yield* fakeSkillServer(entry, {})
      const error = failureOf(yield* Effect.exit(Effect.provideService(McpSkillsClient.load(entry), McpClient.McpClient, client)))
      assert.strictEqual((error as McpSkills.SkillError).reason, "InvalidSkill")
      assert.strictEqual(requests(pair.wire, "client", "resources/read").length, 0)
    }))

  it.effect("a server that does not declare the extension is not asked (NotSupported)", () =>
    Effect.gen(function*() {
      const { client, pair } = yield* fakeSkillServer(entryFor(SKILL_MD), {}, false)
      const error = failureOf(yield* Effect.exit(Effect.provideService(McpSkillsClient.listAll(), McpClient.McpClient, client)))
      assert.strictEqual((error as McpSkills.SkillError).reason, "NotSupported")
      assert.strictEqual(requests(pair.wire, "client", "skills/list").length, 0)
    }))

  it.effect("a listing that breaks the entry shape is an InvalidResult", () =>
    Effect.gen(function*() {
      const { client } = yield* fakeSkillServer({ uri: URI, frontmatter: { name: "pdf-processing" }, resources: [] }, {})
      const error = failureOf(yield* Effect.exit(Effect.provideService(McpSkillsClient.listAll(), McpClient.McpClient, client)))
      assert.strictEqual((error as { reason?: string }).reason, "InvalidResult")
    }))
})
