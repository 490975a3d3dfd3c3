import * as McpClient from "@effect-mcp/mcp/McpClient"
import * as McpSkillsClient from "@effect-mcp/mcp/McpSkillsClient"
import * as Effect from "effect/Effect"

const program = Effect.gen(function*() {
  const entries = yield* McpSkillsClient.listAll()
  const pdf = entries.find((e) => e.frontmatter.name === "pdf-processing")
  if (pdf === undefined) return
  const skill = yield* McpSkillsClient.load(pdf) // verified, or a SkillError
  const forms = yield* skill.read("references/FORMS.md")
  console.log(skill.text, forms.text)
})
// Effect.provide(program, McpClient.layer(...))
export {}
