import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"

UriTemplate.isTemplate("users://{id}") // true
UriTemplate.isTemplate("docs://readme") // false
export {}
