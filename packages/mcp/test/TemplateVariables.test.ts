/**
 * A resource template's variables are typed from its text
 * (`UriTemplate.Variables`): `read`'s first argument has exactly the
 * template's names, required where `UriTemplate.match` always reports them,
 * optional where they may be absent, and a wrong name is a type error
 * (`pnpm check` type-checks this file). On the wire the reads are unchanged:
 * the handler gets what `match` gives, absent variables absent.
 */
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as McpSchema from "@effect-mcp/mcp/McpSchema"
import * as McpServer from "@effect-mcp/mcp/McpServer"
import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"
import { buildServer, connect } from "./utils/wire.js"

describe("UriTemplate.Variables", () => {
  it("types every operator: {var} and {+var} always there, the rest optional; modifiers stripped", () => {
    expectTypeOf<UriTemplate.Variables<"notes://{id}/{+path}">>().toEqualTypeOf<{ readonly id: string; readonly path: string }>()
    expectTypeOf<UriTemplate.Variables<"users://{id}{.format}">>().toEqualTypeOf<
      { readonly id: string; readonly format?: string }
    >()
    expectTypeOf<UriTemplate.Variables<"search://all{?q,limit}{&page}">>().toEqualTypeOf<
      { readonly q?: string; readonly limit?: string; readonly page?: string }
    >()
    expectTypeOf<UriTemplate.Variables<"x://{a,b}/r{/seg*}{;v}{#frag}">>().toEqualTypeOf<
      { readonly a: string; readonly b?: string; readonly seg?: string; readonly v?: string; readonly frag?: string }
    >()
    expectTypeOf<UriTemplate.Variables<"x://{name:3}/{name}">>().toEqualTypeOf<{ readonly name: string }>()
    // a variable always there in one expression is always there
    expectTypeOf<UriTemplate.Variables<"x://{id}{?id}">>().toEqualTypeOf<{ readonly id: string }>()
    expectTypeOf<UriTemplate.Variables<"x://static">>().toEqualTypeOf<{}>()
    // a template that is not a literal type: any names
    expectTypeOf<UriTemplate.Variables<string>>().toEqualTypeOf<{ readonly [name: string]: string }>()
  })

  it("matches what UriTemplate.match reports (required ones present, optional ones may be absent)", () => {
    const template = UriTemplate.parse("x://{a,b}/r{/seg}{?q}")
    const matched = UriTemplate.match(template, "x://1/r")
    assert.deepStrictEqual(matched._tag === "Some" ? matched.value : undefined, { a: "1" })
  })
})

describe("McpServer.resourceTemplate", () => {
  const Note = McpServer.resourceTemplate({
    uriTemplate: "notes://{id}/{+path}{?rev}",
    name: "note",
    read: ({ id, path, rev }) => {
      expectTypeOf(id).toEqualTypeOf<string>()
      expectTypeOf(path).toEqualTypeOf<string>()
      expectTypeOf(rev).toEqualTypeOf<string | undefined>()
      return Effect.succeed(JSON.stringify({ id, path, rev: rev ?? null }))
    },
    complete: { id: (value) => Effect.succeed([`${value}1`]) }
  })

  it("a wrong variable name, in read or complete, is a type error", () => {
    const typeChecks = () => [
      McpServer.resourceTemplate({
        uriTemplate: "notes://{id}",
        name: "n",
        // @ts-expect-error `name` is not a variable of the template
        read: ({ name }) => Effect.succeed(String(name))
      }),
      McpServer.resourceTemplate({
        uriTemplate: "notes://{id}{?rev}",
        name: "n",
        read: ({ rev }) => {
          // @ts-expect-error `rev` may be absent
          const s: string = rev
          return Effect.succeed(s)
        }
      }),
      McpServer.resourceTemplate({
        uriTemplate: "notes://{id}",
        name: "n",
        read: ({ id }) => Effect.succeed(id),
        // @ts-expect-error `ident` is not a variable of the template
        complete: { ident: () => Effect.succeed([]) }
      })
    ]
    assert.isFunction(typeChecks)
  })

  it.live("reads are unchanged on the wire: the variables match gave, an absent query variable absent", () =>
    Effect.gen(function*() {
      const server = yield* buildServer(McpServer.register(Note))
      const { client } = yield* connect(server)
      const textOf = (r: McpSchema.ReadResourceResult) => (r.contents[0] as McpSchema.TextResourceContents).text
      assert.strictEqual(textOf(yield* client.readResource("notes://7/a/b.md")), `{"id":"7","path":"a/b.md","rev":null}`)
      assert.strictEqual(textOf(yield* client.readResource("notes://7/a/b.md?rev=3")), `{"id":"7","path":"a/b.md","rev":"3"}`)
      const completed = yield* client.complete({ ref: { type: "ref/resource", uri: "notes://{id}/{+path}{?rev}" }, argument: { name: "id", value: "4" } })
      assert.deepStrictEqual(completed.completion.values, ["41"])
    }))
})
