/**
 * The skills the fixture server publishes (SEP-2640, the `sep-2640-*`
 * server scenarios): a skill with a supporting file in a subdirectory (so
 * `resources/directory/read` has a subdirectory to show) and one under a
 * nested skill path.
 * @since 0.1.0
 */
import * as McpSkills from "@effect-mcp/mcp/McpSkills"
import * as Layer from "effect/Layer"

/**
 * The `pdf-processing` skill: `SKILL.md` and `references/FORMS.md`.
 * @since 0.1.0
 */
export const PdfProcessing = McpSkills.skill({
  path: "pdf-processing",
  files: {
    "SKILL.md": [
      "---",
      "name: pdf-processing",
      "description: Extract, fill, and assemble PDF documents",
      "license: Apache-2.0",
      "metadata:",
      "  version: \"2.1.0\"",
      "---",
      "",
      "# PDF processing",
      "",
      "To fill a form, follow references/FORMS.md.",
      ""
    ].join("\n"),
    "references/FORMS.md": "# Forms\n\nRead the fields first, then fill them in order.\n"
  }
})

/**
 * A skill under a nested path: `skill://acme/billing/refunds/SKILL.md`.
 * @since 0.1.0
 */
export const Refunds = McpSkills.skill({
  path: "acme/billing/refunds",
  files: {
    "SKILL.md": "---\nname: refunds\ndescription: Process customer refund requests per company policy\n---\n\nCheck the order first.\n",
    "examples/email.md": "Dear customer, your refund is on its way.\n"
  }
})

/**
 * The fixture's skills as a Layer (a definition error is a defect: they are constants).
 * @since 0.1.0
 */
export const SkillsLive = McpSkills.layer([PdfProcessing, Refunds]).pipe(Layer.orDie)
