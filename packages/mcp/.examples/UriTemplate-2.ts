import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"

try {
  UriTemplate.parse("users://{id")
} catch (error) {
  if (error instanceof UriTemplate.UriTemplateError) console.log(error.position, error.reason)
}
export {}
