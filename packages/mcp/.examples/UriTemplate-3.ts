import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"

const t = UriTemplate.parse("files://{+path}{?rev}")
t.variableNames // ["path", "rev"]
export {}
