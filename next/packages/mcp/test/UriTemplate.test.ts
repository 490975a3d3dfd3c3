import { describe, expect, it } from "vitest"
import * as Option from "effect/Option"
import * as UriTemplate from "@effect-mcp/mcp/UriTemplate"

// RFC 6570 §3.2 variable set (associative `keys` omitted: not supported).
const vars = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_list: [],
  undef: undefined
} satisfies Record<string, UriTemplate.Value>

const expandCases: ReadonlyArray<readonly [string, string]> = [
  // §1.2 level 1
  ["{var}", "value"],
  ["{hello}", "Hello%20World%21"],
  // §1.2 level 2
  ["{+var}", "value"],
  ["{+hello}", "Hello%20World!"],
  ["{+path}/here", "/foo/bar/here"],
  ["here?ref={+path}", "here?ref=/foo/bar"],
  ["X{#var}", "X#value"],
  ["X{#hello}", "X#Hello%20World!"],
  // §1.2 level 3
  ["map?{x,y}", "map?1024,768"],
  ["{x,hello,y}", "1024,Hello%20World%21,768"],
  ["{+x,hello,y}", "1024,Hello%20World!,768"],
  ["{+path,x}/here", "/foo/bar,1024/here"],
  ["{#x,hello,y}", "#1024,Hello%20World!,768"],
  ["{#path,x}/here", "#/foo/bar,1024/here"],
  ["X{.var}", "X.value"],
  ["X{.x,y}", "X.1024.768"],
  ["{/var}", "/value"],
  ["{/var,x}/here", "/value/1024/here"],
  ["{;x,y}", ";x=1024;y=768"],
  ["{;x,y,empty}", ";x=1024;y=768;empty"],
  ["{?x,y}", "?x=1024&y=768"],
  ["{?x,y,empty}", "?x=1024&y=768&empty="],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ["{&x,y,empty}", "&x=1024&y=768&empty="],
  // §3.2.2 simple string expansion
  ["{half}", "50%25"],
  ["O{empty}X", "OX"],
  ["O{undef}X", "OX"],
  ["{x,y}", "1024,768"],
  ["?{x,empty}", "?1024,"],
  ["?{x,undef}", "?1024"],
  ["?{undef,y}", "?768"],
  // §3.2.3 reserved expansion
  ["{+half}", "50%25"],
  ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
  ["{+base}index", "http://example.com/home/index"],
  ["O{+empty}X", "OX"],
  ["O{+undef}X", "OX"],
  ["up{+path}{var}/here", "up/foo/barvalue/here"],
  // §3.2.4 fragment expansion
  ["{#var}", "#value"],
  ["{#hello}", "#Hello%20World!"],
  ["{#half}", "#50%25"],
  ["foo{#empty}", "foo#"],
  ["foo{#undef}", "foo"],
  // §3.2.5 label expansion
  ["{.who}", ".fred"],
  ["{.who,who}", ".fred.fred"],
  ["{.half,who}", ".50%25.fred"],
  ["X{.empty}", "X."],
  ["X{.undef}", "X"],
  // §3.2.6 path segment expansion
  ["{/who}", "/fred"],
  ["{/who,who}", "/fred/fred"],
  ["{/half,who}", "/50%25/fred"],
  ["{/who,dub}", "/fred/me%2Ftoo"],
  ["{/var,empty}", "/value/"],
  ["{/var,undef}", "/value"],
  // §3.2.7 path-style parameter expansion
  ["{;who}", ";who=fred"],
  ["{;half}", ";half=50%25"],
  ["{;empty}", ";empty"],
  ["{;v,empty,who}", ";v=6;empty;who=fred"],
  ["{;v,bar,who}", ";v=6;who=fred"],
  ["{;x,y,undef}", ";x=1024;y=768"],
  // §3.2.8 form-style query expansion
  ["{?who}", "?who=fred"],
  ["{?half}", "?half=50%25"],
  ["{?x,y,undef}", "?x=1024&y=768"],
  // §3.2.9 form-style query continuation
  ["{&who}", "&who=fred"],
  ["{&half}", "&half=50%25"],
  // level 4 (prefix / explode with strings and lists)
  ["{var:3}", "val"],
  ["{var:30}", "value"],
  ["{list}", "red,green,blue"],
  ["{list*}", "red,green,blue"],
  ["{+path:6}/here", "/foo/b/here"],
  ["{#path:6}/here", "#/foo/b/here"],
  ["{+list}", "red,green,blue"],
  ["{#list*}", "#red,green,blue"],
  ["X{.var:3}", "X.val"],
  ["X{.list}", "X.red,green,blue"],
  ["X{.list*}", "X.red.green.blue"],
  ["www{.dom*}", "www.example.com"],
  ["{/var:1,var}", "/v/value"],
  ["{/list}", "/red,green,blue"],
  ["{/list*}", "/red/green/blue"],
  ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
  ["{;hello:5}", ";hello=Hello"],
  ["{;list}", ";list=red,green,blue"],
  ["{;list*}", ";list=red;list=green;list=blue"],
  ["{?var:3}", "?var=val"],
  ["{?list}", "?list=red,green,blue"],
  ["{?list*}", "?list=red&list=green&list=blue"],
  ["{&var:3}", "&var=val"],
  ["{&list}", "&list=red,green,blue"],
  ["{&list*}", "&list=red&list=green&list=blue"],
  // empty lists are undefined
  ["X{.empty_list}Y{?empty_list}", "XY"],
  ["{count}", "one,two,three"]
]

describe("UriTemplate.expand (RFC 6570 examples)", () => {
  it.each(expandCases)("%s → %s", (template, expected) => {
    expect(UriTemplate.expand(UriTemplate.parse(template), vars)).toBe(expected)
  })

  it("encodes non-ASCII as UTF-8 and keeps pct-triplets only in reserved expansion", () => {
    const t = UriTemplate.parse("{a}|{+a}")
    expect(UriTemplate.expand(t, { a: "é %41 ✓" })).toBe("%C3%A9%20%2541%20%E2%9C%93%7C%C3%A9%20%41%20%E2%9C%93")
  })

  it("encodes characters that encodeURIComponent leaves alone in simple expansion", () => {
    expect(UriTemplate.expand(UriTemplate.parse("{a}"), { a: "!'()*" })).toBe("%21%27%28%29%2A")
  })

  it("only looks up own properties", () => {
    expect(UriTemplate.expand(UriTemplate.parse("x{constructor}{?toString}"), {})).toBe("x")
  })
})

describe("UriTemplate.parse", () => {
  it("splits literals and expressions and collects unique variable names", () => {
    const t = UriTemplate.parse("users://{userId}/profile{?q,lang}{&q}")
    expect(t.template).toBe("users://{userId}/profile{?q,lang}{&q}")
    expect(t.variableNames).toEqual(["userId", "q", "lang"])
    expect(t.parts).toEqual([
      { _tag: "Literal", value: "users://" },
      { _tag: "Expression", operator: "", variables: [{ name: "userId", explode: false, prefix: undefined }] },
      { _tag: "Literal", value: "/profile" },
      {
        _tag: "Expression",
        operator: "?",
        variables: [
          { name: "q", explode: false, prefix: undefined },
          { name: "lang", explode: false, prefix: undefined }
        ]
      },
      { _tag: "Expression", operator: "&", variables: [{ name: "q", explode: false, prefix: undefined }] }
    ])
  })

  it("parses modifiers and dotted / pct-encoded names", () => {
    const t = UriTemplate.parse("{/list*,var:3,a.b,%41c}")
    expect(t.variableNames).toEqual(["list", "var", "a.b", "%41c"])
    const expr = t.parts[0]
    expect(expr?._tag === "Expression" && expr.variables.map((v) => [v.explode, v.prefix])).toEqual([
      [true, undefined],
      [false, 3],
      [false, undefined],
      [false, undefined]
    ])
  })

  it("accepts templates without expressions", () => {
    const t = UriTemplate.parse("file:///etc/hosts")
    expect(t.variableNames).toEqual([])
    expect(UriTemplate.expand(t, {})).toBe("file:///etc/hosts")
    expect(UriTemplate.match(t, "file:///etc/hosts")).toEqual(Option.some({}))
    expect(Option.isNone(UriTemplate.match(t, "file:///etc/host"))).toBe(true)
  })

  it.each([
    ["file:///{path", 8, "unclosed"],
    ["{", 0, "unclosed"],
    ["a}b", 1, "unexpected '}'"],
    ["{a}}", 3, "unexpected '}'"],
    ["{a{b}}", 2, "unexpected '{'"],
    ["{}", 0, "empty expression"],
    ["x{+}", 1, "empty expression"],
    ["{=x}", 1, "reserved"],
    ["{|x}", 1, "reserved"],
    ["{x,}", 3, "invalid variable"],
    ["{,x}", 1, "reserved"],
    ["{a b}", 1, "invalid variable"],
    ["{a..b}", 1, "invalid variable"],
    ["{a.}", 1, "invalid variable"],
    ["{a-b}", 1, "invalid variable"],
    ["{%4}", 1, "invalid variable"],
    ["{x*:3}", 1, "invalid variable"],
    ["{x:}", 1, "invalid variable"],
    ["{x:0}", 1, "prefix"],
    ["{x:03}", 1, "prefix"],
    ["{x:10000}", 1, "prefix"],
    ["{/a,b:0}", 4, "prefix"]
  ] as const)("rejects %j (position %i)", (template, position, reason) => {
    let error: unknown
    try {
      UriTemplate.parse(template)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(UriTemplate.UriTemplateError)
    expect(error).toBeInstanceOf(Error)
    const e = error as UriTemplate.UriTemplateError
    expect(e.template).toBe(template)
    expect(e.position).toBe(position)
    expect(e.message.toLowerCase()).toContain(reason)
    expect(e.message).toContain(JSON.stringify(template))
  })
})

describe("UriTemplate.isTemplate", () => {
  it.each([
    ["file:///{path}", true],
    ["users://{userId}/profile", true],
    ["search://{?q,lang}", true],
    ["file:///etc/hosts", false],
    ["", false],
    ["a{}b", false],
    ["a{b", false],
    ["a}b{", false]
  ] as const)("%j → %s", (s, expected) => {
    expect(UriTemplate.isTemplate(s)).toBe(expected)
  })
})

describe("UriTemplate.match", () => {
  const matchOf = (template: string, uri: string) => UriTemplate.match(UriTemplate.parse(template), uri)
  const expectMatch = (template: string, uri: string, expected: Record<string, string>) =>
    expect(matchOf(template, uri)).toEqual(Option.some(expected))
  const expectNoMatch = (template: string, uri: string) => expect(Option.isNone(matchOf(template, uri))).toBe(true)

  describe("round-trips match(expand(...)) exactly", () => {
    const cases: ReadonlyArray<
      readonly [template: string, values: Record<string, string | ReadonlyArray<string>>, expected?: Record<string, string>]
    > = [
      ["file:///{path}", { path: "readme.txt" }],
      ["users://{userId}/profile", { userId: "alice" }],
      ["users://{userId}/profile", { userId: "a/b c?d#e" }],
      ["test://template/{id}/data", { id: "42" }],
      ["test://template/{id}/data", { id: "" }],
      ["search://{?q,lang}", { q: "hello world", lang: "en" }],
      ["search://{?q,lang}", { q: "only q & more=stuff" }],
      ["search://{?q,lang}", { lang: "fr" }],
      ["search://{?q,lang}", {}],
      ["search://{?q,lang}", { q: "", lang: "" }],
      ["file:///{+path}", { path: "docs/guide/intro.md" }],
      ["file:///{+dir}/{name}", { dir: "a/b", name: "c.txt" }],
      ["{+base}{?q}", { base: "http://example.com/a/b", q: "x y" }],
      ["{+base}{#frag}", { base: "http://example.com/a?b=c", frag: "sec/1" }],
      ["X{#hello}", { hello: "Hello World!" }],
      ["X{#hello}", { hello: "" }],
      ["X{#hello}", {}],
      ["map?{x,y}", { x: "1024", y: "768" }],
      ["map?{x,y}", { x: "a,b", y: "c,d" }],
      ["{x,hello,y}", { x: "1024", hello: "Hello World!", y: "768" }],
      ["{x,hello,y}", { x: "1024", hello: "" }],
      ["{+x,hello,y}", { x: "1024", hello: "Hello World!", y: "768" }],
      ["{#x,hello,y}", { x: "1024", hello: "Hello World!", y: "768" }],
      ["X{.x,y}", { x: "1024", y: "768" }],
      ["X{.x,y}", { x: "1024" }],
      ["X{.x,y}", {}],
      ["X{.var}", { var: "" }],
      ["{/var,x}/here", { var: "value", x: "1024" }],
      ["{/var,x}/here", { var: "a/b", x: "" }],
      ["{/var,x}/here", { var: "value" }],
      ["{;x,y,empty}", { x: "1024", y: "768", empty: "" }],
      ["{;x,y}", { y: "7;8=9" }],
      ["{?x,y,empty}", { x: "1024", y: "768", empty: "" }],
      ["?fixed=yes{&x}", { x: "1024" }],
      ["?fixed=yes{&x}", {}],
      ["{&x,y,empty}", { x: "1024", y: "768", empty: "" }],
      ["res://{a}/{b}/{c}{?d}", { a: "1", b: "2", c: "3", d: "4" }],
      ["res://{a}/{b}/{c}{?d}", { a: "é", b: "✓ ok", c: "%", d: "日本語" }],
      ["{.who,who}", { who: "fred" }],
      ["/items/{id}{.ext}", { id: "42", ext: "json" }],
      ["/items/{id}{;rev}", { id: "42", rev: "3" }],
      ["{?a}{&b}", { a: "1", b: "2" }],
      ["{;a}{;b}", { b: "2" }],
      ["a.b+c(d)[e]{x}^$|*?\\", { x: "y" }],
      // level-4 extras
      ["{/list*}", { list: ["red", "green", "blue"] }, { list: "red,green,blue" }],
      ["X{.list*}", { list: ["red", "green", "blue"] }, { list: "red,green,blue" }],
      ["{?list*}", { list: ["red", "green", "blue"] }, { list: "red,green,blue" }],
      ["{;list*}", { list: ["red", "green", "blue"] }, { list: "red,green,blue" }],
      ["{?list}", { list: ["red", "green", "blue"] }, { list: "red,green,blue" }],
      ["{list}", { list: ["red", "green", "blue"] }, { list: "red,green,blue" }],
      ["{/list*}", { list: ["a/b", "c d"] }, { list: "a/b,c d" }]
    ]
    it.each(cases.map(([template, values, expected]) => ({ template, values, expected: expected ?? values })))(
      "$template with $values",
      ({ expected, template, values }) => {
        const t = UriTemplate.parse(template)
        const uri = UriTemplate.expand(t, values)
        expect(UriTemplate.match(t, uri)).toEqual(Option.some(expected))
      }
    )
  })

  describe("round-trips expand(match(uri)) for ambiguous templates", () => {
    it.each([
      ["up{+path}{var}/here", "up/foo/barvalue/here"],
      ["?{x,undef}", "?1024"],
      ["?{undef,y}", "?768"],
      ["{name}{.ext}", "file.tar.gz"],
      ["{+a}{+b}", "a/b/c"],
      ["{+path,x}/here", "/foo/bar,1024/here"],
      ["{#path,x}/here", "#/foo/bar,1024/here"],
      ["{;x}{+rest}", ";xyz"]
    ] as const)("%s on %s", (template, uri) => {
      const t = UriTemplate.parse(template)
      const matched = UriTemplate.match(t, uri)
      expect(Option.isSome(matched)).toBe(true)
      expect(UriTemplate.expand(t, Option.getOrThrow(matched))).toBe(uri)
    })
  })

  it("matches the MCP resource template examples", () => {
    expectMatch("file:///{path}", "file:///readme.txt", { path: "readme.txt" })
    expectMatch("users://{userId}/profile", "users://u-123/profile", { userId: "u-123" })
    expectMatch("test://template/{id}/data", "test://template/abc/data", { id: "abc" })
    expectMatch("search://{?q,lang}", "search://?q=effect&lang=en", { q: "effect", lang: "en" })
    expectMatch("file:///{+path}", "file:///a/b/c.txt", { path: "a/b/c.txt" })
  })

  it("accepts query parameters in any subset and any order", () => {
    expectMatch("search://{?q,lang}", "search://?lang=en&q=x", { q: "x", lang: "en" })
    expectMatch("search://{?q,lang}", "search://?lang=en", { lang: "en" })
    expectMatch("search://{?q,lang}", "search://", {})
    expectMatch("search://{?q,lang}", "search://?q", { q: "" })
    expectMatch("search://{?q,lang}", "search://?q=a=b", { q: "a=b" })
    expectMatch("search://{?q,lang}{#f}", "search://?q=1#top", { q: "1", f: "top" })
    expectMatch("search://{?q,lang}", "search://?q=a&q=b", { q: "a,b" })
    expectMatch("{;x,y}", ";y=2;x=1", { x: "1", y: "2" })
    expectMatch("{?a}{&b}", "?b=2&a=1", { a: "1", b: "2" })
  })

  it("percent-decodes values", () => {
    expectMatch("users://{userId}/profile", "users://john%20doe%2Fx/profile", { userId: "john doe/x" })
    expectMatch("users://{userId}/profile", "users://%C3%A9t%C3%A9/profile", { userId: "été" })
    expectMatch("file:///{+path}", "file:///my%20docs/a%2Bb.txt", { path: "my docs/a+b.txt" })
    expectMatch("search://{?q}", "search://?q=a%26b%3Dc+d", { q: "a&b=c+d" })
    expectMatch("{/a,b}", "/x%2Fy/z", { a: "x/y", b: "z" })
    expectMatch("{x}", "a,b", { x: "a,b" })
    expectMatch("{x}", "%2C%2F%3F%23", { x: ",/?#" })
  })

  it("rejects malformed percent-encoding", () => {
    expectNoMatch("users://{userId}/profile", "users://%zz/profile")
    expectNoMatch("users://{userId}/profile", "users://%E9/profile")
    expectNoMatch("search://{?q}", "search://?q=%")
  })

  it("rejects wrong literals", () => {
    expectNoMatch("users://{userId}/profile", "users://alice/settings")
    expectNoMatch("users://{userId}/profile", "user://alice/profile")
    expectNoMatch("users://{userId}/profile", "USERS://alice/profile")
    expectNoMatch("test://template/{id}/data", "test://templates/1/data")
    expectNoMatch("file:///{path}", "http:///x")
  })

  it("requires the whole URI to be consumed", () => {
    expectNoMatch("users://{userId}/profile", "users://alice/profile/extra")
    expectNoMatch("users://{userId}/profile", "users://alice/profile?x=1")
    expectNoMatch("users://{userId}/profile", "xusers://alice/profile")
    expectNoMatch("test://template/{id}/data", "test://template/a/b/data")
    expectNoMatch("{/a,b}", "/x/y/z")
    expectNoMatch("X{.x,y}", "X.1.2.3")
  })

  it("keeps simple expressions within a path segment", () => {
    expectNoMatch("{id}", "a/b")
    expectNoMatch("{id}", "a?b")
    expectNoMatch("{id}", "a#b")
    expectNoMatch("file:///{path}", "file:///a/b.txt")
    expectNoMatch("{x,y}", "1,2,3")
    expectMatch("{+id}", "a/b?c#d", { id: "a/b?c#d" })
    expectMatch("{#id}", "#a/b?c#d", { id: "a/b?c#d" })
  })

  it("rejects unknown or malformed query parameters", () => {
    expectNoMatch("search://{?q,lang}", "search://?q=1&foo=2")
    expectNoMatch("search://{?q,lang}", "search://?qq=1")
    expectNoMatch("search://{?q,lang}", "search://?")
    expectNoMatch("search://{?q,lang}", "search://?q=1&")
    expectNoMatch("search://{?q,lang}", "search://?&q=1")
    expectNoMatch("search://{?q,lang}", "search://q=1")
    expectNoMatch("{;x,y}", ";z=1")
    expectNoMatch("?fixed=yes{&x}", "?fixed=no&x=1")
  })

  it("matches adjacent expressions shortest-first", () => {
    expectMatch("/items/{id}{.ext}", "/items/42.json", { id: "42", ext: "json" })
    expectMatch("{name}{.ext}", "archive.tar.gz", { name: "archive.tar", ext: "gz" })
    expectMatch("/items/{id}{.ext}", "/items/42", { id: "42" })
    expectMatch("/items/{id}{;rev}", "/items/42;rev=3", { id: "42", rev: "3" })
    expectMatch("{+base}{?q}", "http://x/y?q=1", { base: "http://x/y", q: "1" })
    expectMatch("{+base}{?q}", "http://x/y?z=1", { base: "http://x/y?z=1" })
  })

  it("requires repeated variables to agree", () => {
    expectMatch("{a}/{a}", "x/x", { a: "x" })
    expectNoMatch("{a}/{a}", "x/y")
    expectNoMatch("{.who,who}", ".fred.bob")
  })

  it("escapes regex metacharacters in literals", () => {
    expectMatch("a.b{x}", "a.b1", { x: "1" })
    expectNoMatch("a.b{x}", "aXb1")
    expectNoMatch("[a-z]+{x}", "q1")
    expectMatch("[a-z]+{x}", "[a-z]+1", { x: "1" })
    expectNoMatch("(x)*{y}", "xxx1")
    expectMatch("^$\\{y}", "^$\\1", { y: "1" })
    expectMatch("q{?a.b}", "q?a.b=1", { "a.b": "1" })
    expectNoMatch("q{?a.b}", "q?aXb=1")
  })

  it("matches literals given either raw or in their expanded (encoded) form", () => {
    const t = UriTemplate.parse("my docs/{x}")
    expect(UriTemplate.expand(t, { x: "1" })).toBe("my%20docs/1")
    expect(UriTemplate.match(t, "my%20docs/1")).toEqual(Option.some({ x: "1" }))
    expect(UriTemplate.match(t, "my docs/1")).toEqual(Option.some({ x: "1" }))
  })

  it("returns own, prototype-safe keys", () => {
    const result = Option.getOrThrow(matchOf("x/{__proto__}/{constructor}", "x/a/b"))
    expect(Object.keys(result)).toEqual(["__proto__", "constructor"])
    expect(result["__proto__"]).toBe("a")
    expect(result["constructor"]).toBe("b")
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
  })

  it("reuses the compiled matcher across calls", () => {
    const t = UriTemplate.parse("users://{userId}/profile")
    for (let i = 0; i < 100; i++) {
      expect(UriTemplate.match(t, `users://u${i}/profile`)).toEqual(Option.some({ userId: `u${i}` }))
    }
  })
})

describe("match on hostile input", () => {
  it("never matches a URI past MAX_MATCH_LENGTH, so adjacent expressions cannot backtrack forever", () => {
    const t = UriTemplate.parse("x://{a}{b}{c}")
    expect(Option.isNone(UriTemplate.match(t, `x://${"a".repeat(UriTemplate.MAX_MATCH_LENGTH)}/`))).toBe(true)
    expect(Option.isSome(UriTemplate.match(t, "x://abc"))).toBe(true)
  })
})
