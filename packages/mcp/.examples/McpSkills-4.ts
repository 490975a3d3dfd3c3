import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as McpSkills from "@effect-mcp/mcp/McpSkills"
import * as Layer from "effect/Layer"

const Pdf = McpSkills.skill({
  path: "pdf-processing",
  files: {
    "SKILL.md": "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n",
    "references/FORMS.md": "# Forms\n"
  }
})
const ServerLive = McpSkills.layer([Pdf], { pageSize: 50 }).pipe(
  Layer.provideMerge(McpServer.layer({ name: "pdf", version: "1.0.0" }))
)
export {}
