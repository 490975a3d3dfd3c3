/**
 * The pure parts of the client's discovery: the `WWW-Authenticate` Bearer
 * challenge (malformed ones included), which resource metadata may serve a
 * server, and where an issuer's metadata may be (tenant paths).
 */
import { assert, describe, it } from "@effect/vitest"
import * as Challenge from "../src/internal/oauth/challenge.js"
import * as Discovery from "../src/internal/oauth/discovery.js"

describe("WWW-Authenticate", () => {
  it("reads the Bearer challenge's parameters, quoted or not, among other schemes", () => {
    assert.deepStrictEqual(
      Challenge.parse(`Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp"`),
      { error: "insufficient_scope", scope: "a b", resourceMetadata: "https://x/.well-known/oauth-protected-resource/mcp" }
    )
    assert.deepStrictEqual(
      Challenge.parse(`Basic realm="x", Bearer error=invalid_token, scope="q\\"uote"`),
      { error: "invalid_token", scope: `q"uote`, resourceMetadata: undefined }
    )
    assert.deepStrictEqual(Challenge.parse(`bearer scope="a"`).scope, "a")
  })

  it("malformed or absent: no parameters (discovery falls back to the well-known locations)", () => {
    const none = { error: undefined, scope: undefined, resourceMetadata: undefined }
    for (const header of [undefined, "", "Basic realm=x", "Bearer", "Bearer =", `Bearer scope="unterminated`, "Bearerscope=a", "xBearer scope=a"]) {
      assert.deepStrictEqual(Challenge.parse(header), none, String(header))
    }
    // what parses before the garbage is kept
    assert.deepStrictEqual(Challenge.parse(`Bearer scope="a", ;;;`).scope, "a")
  })
})

describe("discovery", () => {
  it("resource metadata serves the server's URL or a parent path on the same origin, nothing else", () => {
    const server = new URL("https://api.example.com/v1/mcp")
    for (const ok of ["https://api.example.com/v1/mcp", "https://api.example.com/v1/mcp/", "https://api.example.com/v1", "https://api.example.com/"]) {
      assert.isTrue(Discovery.resourceMatches(ok, server), ok)
    }
    for (const bad of ["https://api.example.com/v1/mc", "https://api.example.com/v1/mcp/x", "http://api.example.com/v1/mcp", "https://evil.example.com/v1/mcp", "https://api.example.com:444/v1/mcp", "https://api.example.com/v1/mcp#f", "not a url"]) {
      assert.isFalse(Discovery.resourceMatches(bad, server), bad)
    }
  })

  it("authorization server metadata: RFC 8414, then OpenID inserted, then appended (tenant paths)", () => {
    assert.deepStrictEqual(Discovery.serverMetadataUrls(new URL("https://as.example.com/tenant1")).map((u) => u.href), [
      "https://as.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://as.example.com/.well-known/openid-configuration/tenant1",
      "https://as.example.com/tenant1/.well-known/openid-configuration"
    ])
    assert.deepStrictEqual(Discovery.serverMetadataUrls(new URL("https://as.example.com")).map((u) => u.href), [
      "https://as.example.com/.well-known/oauth-authorization-server",
      "https://as.example.com/.well-known/openid-configuration"
    ])
  })
})
