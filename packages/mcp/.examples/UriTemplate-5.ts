import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"

const t = UriTemplate.parse("search://{?q,tags*}")
UriTemplate.expand(t, { q: "fibers and scopes", tags: ["effect", "mcp"] })
// "search://?q=fibers%20and%20scopes&tags=effect&tags=mcp"
export {}
