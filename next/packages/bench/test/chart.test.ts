import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { bars, renderHeadline, type Results } from "../src/chart.js"

const load = (url: URL): Results => JSON.parse(fs.readFileSync(url, "utf8")) as Results
const fixture = load(new URL("./fixtures/results.json", import.meta.url))

interface Element {
  readonly name: string
  readonly attrs: Record<string, string>
  readonly children: Array<Element>
  text: string
}

/** A small XML well-formedness check (what an SVG renderer or GitHub needs): throws on the first fault. */
const parseXml = (xml: string): Element => {
  const stack: Array<Element> = []
  let root: Element | undefined
  const checkText = (text: string) => {
    if (/<|&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(text)) throw new Error(`bad character data: ${text}`)
  }
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y
  let i = 0
  while (i < xml.length) {
    const lt = xml.indexOf("<", i)
    const text = xml.slice(i, lt === -1 ? xml.length : lt)
    checkText(text)
    if (text.trim() !== "") {
      if (stack.length === 0) throw new Error(`text outside the root: ${text}`)
      stack[stack.length - 1]!.text += text
    }
    if (lt === -1) break
    tag.lastIndex = lt
    const m = tag.exec(xml)
    if (m === null) throw new Error(`malformed tag at ${lt}: ${xml.slice(lt, lt + 60)}`)
    const [, close, name, attrText, selfClose] = m as unknown as [string, string, string, string, string]
    if (close === "/") {
      const open = stack.pop()
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`)
    } else {
      const attrs: Record<string, string> = {}
      for (const [, key, value] of attrText.matchAll(/([\w:-]+)="([^"]*)"/g)) {
        if (key! in attrs) throw new Error(`duplicate attribute ${key} on <${name}>`)
        checkText(value!)
        attrs[key!] = value!
      }
      const element: Element = { name, attrs, children: [], text: "" }
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element)
      else if (root === undefined) root = element
      else throw new Error("a second root element")
      if (selfClose !== "/") stack.push(element)
    }
    i = tag.lastIndex
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`)
  if (root === undefined) throw new Error("no root element")
  return root
}

const all = (e: Element): Array<Element> => [e, ...e.children.flatMap(all)]
const texts = (root: Element) => all(root).filter((e) => e.name === "text").map((e) => e.text.trim())
const unescape = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&amp;/g, "&")

describe("chart", () => {
  it("the XML check rejects what is not well-formed", () => {
    expect(() => parseXml("<svg><text>a</svg>")).toThrow()
    expect(() => parseXml("<svg><text>a < b</text></svg>")).toThrow()
    expect(() => parseXml("<svg><text>a & b</text></svg>")).toThrow()
    expect(() => parseXml(`<svg x="1" x="2"/>`)).toThrow()
    expect(() => parseXml(`<svg x=1/>`)).toThrow()
    expect(parseXml(`<svg a="1"><text>a &amp; b</text></svg>`).children[0]!.text).toBe("a &amp; b")
  })

  it("ratios are ours/ours over each baseline, per transport, mode and measure", () => {
    const b = bars(fixture)
    expect(b).toHaveLength(2 * 3 * 2 * 3)
    const find = (baseline: string, transport: string, mode: string, measure: string) =>
      b.find((x) => x.baseline === baseline && x.transport === transport && x.mode === mode && x.measure === measure)!.ratio
    expect(find("official/official", "stdio", "sequential", "calls/s")).toBe(2)
    expect(find("official/official", "stdio", "64 in flight", "server CPU per call")).toBe(0.25)
    expect(find("floor", "HTTP, SSE", "sequential", "client CPU per call")).toBe(3)
    expect(find("floor", "HTTP, JSON", "64 in flight", "calls/s")).toBe(0.25)
    // a failed measurement has no ratio
    expect(find("floor", "HTTP, JSON", "64 in flight", "client CPU per call")).toBeUndefined()
  })

  it("a run with the 2026-07-28 table gets its row, set against v2/v2 (not the v1 pairing)", () => {
    const row = (calls: number) => ({
      "sequential echo: throughput": calls,
      "sequential echo: server CPU per call": 100 / calls,
      "sequential echo: client CPU per call": 100 / calls
    })
    const with2026: Results = {
      ...fixture,
      machine: { ...fixture.machine, v2: "@modelcontextprotocol/server 2.4.0" },
      tables: { ...fixture.tables, "2026": { "ours/ours": row(4000), "v2/v2": row(1000), "official/official": row(8000), floor: row(8000) } }
    }
    const b = bars(with2026)
    expect(b).toHaveLength(2 * 4 * 2 * 3)
    const find = (baseline: string, mode: string, measure: string) =>
      b.find((x) => x.baseline === baseline && x.transport === "HTTP, 2026 (v2)" && x.mode === mode && x.measure === measure)!.ratio
    expect(find("official/official", "sequential", "calls/s")).toBe(4)
    expect(find("official/official", "sequential", "server CPU per call")).toBe(0.25)
    expect(find("floor", "sequential", "calls/s")).toBe(0.5)
    expect(find("floor", "64 in flight", "calls/s")).toBeUndefined()
    const labels = texts(parseXml(renderHeadline(with2026)))
    expect(labels).toContain("HTTP, 2026 (v2)")
    expect(labels.some((t) => t.includes("official v2 SDK (@modelcontextprotocol/server 2.4.0)"))).toBe(true)
    // a results file without it draws the three transports only
    expect(texts(parseXml(renderHeadline(fixture)))).not.toContain("HTTP, 2026 (v2)")
  })

  it("renders a well-formed SVG with an explicit background, a bar per ratio and readable labels", () => {
    const svg = renderHeadline(fixture)
    const root = parseXml(svg)
    expect(root.name).toBe("svg")
    expect(root.attrs.xmlns).toBe("http://www.w3.org/2000/svg")
    const background = root.children.find((e) => e.name === "rect")!
    expect(background.attrs.fill).toBe("#ffffff")
    expect(background.attrs.width).toBe(root.attrs.width)

    const barRects = all(root).filter((e) => e.name === "rect" && e.attrs.class === "bar")
    expect(barRects).toHaveLength(35)
    const labels = texts(root)
    expect(labels.filter((t) => t === "n/a")).toHaveLength(1)
    for (const label of ["stdio", "HTTP, SSE", "HTTP, JSON", "sequential", "64 in flight", "ours ÷ official SDK", "ours ÷ hand-written floor", "1×"]) {
      expect(labels).toContain(label)
    }
    for (const value of ["2.00×", "0.25×", "3.00×", "0.50×"]) expect(labels).toContain(value)
    expect(labels.some((t) => t.startsWith("calls/s") && t.includes("higher is better"))).toBe(true)
    expect(labels.some((t) => t.startsWith("server CPU per call") && t.includes("lower is better"))).toBe(true)
    // text from the results is escaped
    expect(labels.some((t) => unescape(t).includes("Test <CPU> & co"))).toBe(true)
  })

  it("each bar runs from its panel's 1× line, right when above 1×, left when below", () => {
    const root = parseXml(renderHeadline(fixture))
    const ones = all(root)
      .filter((e) => e.name === "line" && e.attrs["stroke-width"] === "1.5")
      .map((e) => Number(e.attrs.x1))
    expect(ones).toHaveLength(2)
    const barRects = all(root).filter((e) => e.name === "rect" && e.attrs.class === "bar")
    const ratios = bars(fixture).flatMap((b) => (b.ratio === undefined ? [] : [b.ratio]))
    barRects.forEach((rect, i) => {
      const x = Number(rect.attrs.x)
      const end = x + Number(rect.attrs.width)
      const one = ones[i < barRects.length / 2 ? 0 : 1]!
      const ratio = ratios[i]!
      if (ratio > 1) expect(x).toBeCloseTo(one, 0)
      else expect(end).toBeCloseTo(one, 0)
      expect(Math.abs(end - x)).toBeGreaterThan(ratio === 1 ? 0 : 10)
    })
  })

  it("the committed chart is the one drawn from the committed results", () => {
    const results = load(new URL("../results/latest.json", import.meta.url))
    const committed = fs.readFileSync(new URL("../results/headline.svg", import.meta.url), "utf8")
    parseXml(committed)
    expect(committed).toBe(renderHeadline(results))
  })
})
