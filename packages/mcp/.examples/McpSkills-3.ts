import * as McpSkills from "@effect-mcp/mcp/McpSkills"
import * as Effect from "effect/Effect"

const skills = Effect.all([McpSkills.fromDirectory("./skills/pdf-processing")])
// provide a FileSystem and a Path (NodeContext.layer), then McpSkills.layer(yield* skills)
export {}
