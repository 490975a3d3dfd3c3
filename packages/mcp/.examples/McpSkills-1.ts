import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpSkills from "@effect-mcp/mcp/McpSkills"
import * as Layer from "effect/Layer"

const GitWorkflow = McpSkills.skill({
  path: "git-workflow",
  files: {
    "SKILL.md": "---\nname: git-workflow\ndescription: Our branching and commit rules\n---\n\nSee references/RULES.md.\n",
    "references/RULES.md": "Rebase, never merge.\n"
  }
})

const ServerLive = McpSkills.layer([GitWorkflow]).pipe(
  Layer.provideMerge(McpServer.layer({ name: "skills-demo", version: "1.0.0" }))
)
export {}
