import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
import * as Option from "effect/Option"

const t = UriTemplate.parse("users://{id}/posts{/post}")
UriTemplate.match(t, "users://42/posts/7") // Option.some({ id: "42", post: "7" })
Option.isNone(UriTemplate.match(t, "users://42/comments")) // true
export {}
