/**
 * What the fixture client does in the skills scenarios (SEP-2640, the
 * `sep-2640-client-*` client scenarios), as a host would: on connection it
 * lists the skills (and reads no file); asked for a skill, it loads it
 * (reading and verifying its `SKILL.md`) and then reads the supporting files
 * the skill lists. A skill that fails verification is refused: nothing of it
 * is used and no other file of it is read.
 * @since 0.1.0
 */
import type * as McpClient from "@effect-mcp/mcp/McpClient"
import type { SkillError } from "@effect-mcp/mcp/McpSkills"
import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

/** Lists the skills, as a host does on connection. */
const connectHost = Effect.tap(
  McpSkillsClient.listAll(),
  (entries) => Console.error(`skills: ${entries.map((e) => e.frontmatter.name).join(", ")}`)
)

/** Lists, then loads `name` and reads each of its listed files; a refused skill is reported, not used. */
const useSkill = (name: string) =>
  Effect.gen(function*() {
    const entries = yield* connectHost
    const entry = entries.find((e) => e.frontmatter.name === name)
    if (entry === undefined) return yield* Effect.die(new Error(`the server lists no skill ${name}`))
    const skill = yield* McpSkillsClient.load(entry)
    for (const file of entry.resources === "dynamic" ? [] : entry.resources) {
      if (file.uri !== entry.uri) yield* skill.read(file.uri)
    }
    yield* Console.error(`skills: loaded ${skill.name} and its ${entry.resources.length} files`)
  }).pipe(
    Effect.catchTag("SkillError", (e: SkillError) => Console.error(`skills: refused ${name} (${e.reason}): ${e.message}`))
  )

/**
 * The skills scenarios by name.
 * @since 0.1.0
 */
export const skillsScenarios: Record<string, Effect.Effect<void, McpClient.ClientError | SkillError, McpClient.McpClient>> = {
  "sep-2640-client-no-prefetch": Effect.asVoid(connectHost),
  "sep-2640-client-verify-digest": useSkill("pdf-processing"),
  "sep-2640-client-verify-size": useSkill("pdf-processing"),
  "sep-2640-client-verify-frontmatter": useSkill("pdf-processing")
}
