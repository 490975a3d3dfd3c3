import * as McpSkills from "@effect-mcp/mcp/McpSkills"

const Refunds = McpSkills.skill({
  path: "acme/billing/refunds", // skill://acme/billing/refunds/SKILL.md
  files: { "SKILL.md": "---\nname: refunds\ndescription: Process refunds per policy\n---\n" }
})
export {}
