import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"

const template = UriTemplate.parse("users://{id}{.format}")
UriTemplate.expand(template, { id: "42", format: "json" }) // "users://42.json"
UriTemplate.match(template, "users://42.json") // Option.some({ id: "42", format: "json" })
export {}
