/**
 * The headline chart of a bench run: ours/ours against official/official and
 * against the hand-written floor, per transport and mode (the 2026-07-28
 * configuration against the official v2 SDK, v2/v2), as a hand-written
 * SVG (no dependency). `pnpm bench` writes it next to the results it was
 * drawn from (`results/latest.json`); `pnpm bench:chart` redraws it from that
 * file.
 *
 * @since 0.1.0
 */

/** A table of one transport: pairing id → metric label → median (or "n/a", "fails: …"). */
export type Table = Record<string, Record<string, number | string>>

/** What `pnpm bench` saves of a complete run (`results/latest.json`). */
export interface Results {
  readonly machine: {
    readonly cpu: string
    readonly nproc: number
    readonly memory: string
    readonly node: string
    readonly date: string
    readonly sdk: string
    readonly v2?: string | undefined
  }
  readonly seconds: number
  readonly rounds: number
  /** Where the numbers come from when they are not a run's own (e.g. transcribed from tables). */
  readonly note?: string | undefined
  readonly tables: Partial<Record<"stdio" | "sse" | "json" | "2026", Table>>
}

const ALL_TRANSPORTS = [["stdio", "stdio"], ["sse", "HTTP, SSE"], ["json", "HTTP, JSON"], ["2026", "HTTP, 2026 (v2)"]] as const
type Transport = typeof ALL_TRANSPORTS[number]
/** The transports a run has a table for (a results file from before the 2026 configuration has three). */
const transportsOf = (results: Results): ReadonlyArray<Transport> =>
  ALL_TRANSPORTS.filter(([t]) => results.tables[t] !== undefined)
const MODES = [["sequential echo", "sequential"], ["64 in flight", "64 in flight"]] as const

interface Measure {
  readonly metric: string
  readonly name: string
  readonly better: "higher" | "lower"
  readonly color: string
}

const MEASURES: ReadonlyArray<Measure> = [
  { metric: "throughput", name: "calls/s", better: "higher", color: "#2f6fdb" },
  { metric: "server CPU per call", name: "server CPU per call", better: "lower", color: "#e07b10" },
  { metric: "client CPU per call", name: "client CPU per call", better: "lower", color: "#8a4fd0" }
]

const BASELINES = [["official/official", "ours ÷ official SDK"], ["floor", "ours ÷ hand-written floor"]] as const
/** The pairing a baseline names in one transport's table: the 2026 configuration's official SDK is v2. */
const pairingOf = (baseline: string, transport: string): string =>
  baseline === "official/official" && transport === "2026" ? "v2/v2" : baseline

/** One bar: ours/ours ÷ a baseline, or undefined when either side has no number. */
export interface Bar {
  readonly transport: string
  readonly mode: string
  readonly measure: string
  readonly baseline: string
  readonly ratio: number | undefined
}

/** The ratios the chart draws, in drawing order (panel, then transport and mode, then measure). */
export const bars = (results: Results): Array<Bar> =>
  BASELINES.flatMap(([baseline]) =>
    transportsOf(results).flatMap(([transport, title]) =>
      MODES.flatMap(([prefix, mode]) =>
        MEASURES.map((measure): Bar => {
          const table = results.tables[transport]
          const label = `${prefix}: ${measure.metric}`
          const ours = table?.["ours/ours"]?.[label]
          const other = table?.[pairingOf(baseline, transport)]?.[label]
          const ratio = typeof ours === "number" && typeof other === "number" && ours > 0 && other > 0
            ? ours / other
            : undefined
          return { transport: title, mode, measure: measure.name, baseline, ratio }
        })
      )
    )
  )

const escape = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const num = (n: number): string => (Math.round(n * 10) / 10).toString()

const text = (x: number, y: number, content: string, attrs = ""): string =>
  `<text x="${num(x)}" y="${num(y)}"${attrs === "" ? "" : ` ${attrs}`}>${escape(content)}</text>`

const ratioText = (r: number): string => `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`

// layout (px)
const WIDTH = 980
const LABEL_W = 150
const PANEL_GAP = 16
/** Room on each side of a panel's axis for the value labels of bars that reach its ends. */
const PANEL_PAD = 44
const PANEL_W = (WIDTH - LABEL_W - 20 - PANEL_GAP) / 2 - 2 * PANEL_PAD
const TOP = 112
const BAR_H = 13
const BAR_GAP = 2
const GROUP_GAP = 14
const GROUP_H = MEASURES.length * (BAR_H + BAR_GAP) - BAR_GAP
const TRANSPORT_GAP = 10
const AXIS_H = 34

/** Powers of two around the ratios (and 1×), at least ¼× … 4×. */
const domainOf = (ratios: ReadonlyArray<number>): readonly [number, number] => {
  const logs = ratios.map(Math.log2)
  const lo = Math.min(-2, Math.floor(Math.min(0, ...logs)))
  const hi = Math.max(2, Math.ceil(Math.max(0, ...logs)))
  return [lo, hi]
}

const tickLabel = (exp: number): string => (exp >= 0 ? `${2 ** exp}×` : `1/${2 ** -exp}×`)

/**
 * The headline chart as an SVG document: two panels (ours ÷ official SDK, ours
 * ÷ floor), a log₂ axis each with a reference line at 1×, one bar per measure
 * from 1× to the ratio, labelled with its value.
 *
 * @since 0.1.0
 * @category rendering
 * @example
 * import * as fs from "node:fs"
 * import { renderHeadline } from "./chart.js"
 *
 * const results = JSON.parse(fs.readFileSync("results/latest.json", "utf8"))
 * fs.writeFileSync("results/headline.svg", renderHeadline(results))
 */
export const renderHeadline = (results: Results): string => {
  const all = bars(results)
  const TRANSPORTS = transportsOf(results)
  const groups = TRANSPORTS.length * MODES.length
  const plotH = groups * (GROUP_H + GROUP_GAP) - GROUP_GAP + (TRANSPORTS.length - 1) * TRANSPORT_GAP
  const height = TOP + plotH + AXIS_H + 44
  const out: Array<string> = []
  const m = results.machine
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ` +
      `font-family="-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12" fill="#1f2328">`,
    `<title>effect-mcp bench: ours ÷ official SDK and ours ÷ floor, ${escape(m.date)}</title>`,
    `<rect width="${WIDTH}" height="${height}" rx="8" fill="#ffffff" stroke="#d0d7de"/>`,
    text(20, 30, "effect-mcp against the official SDK and a hand-written floor", `font-size="17" font-weight="600"`),
    text(
      20,
      50,
      `ours/ours ÷ baseline, ${results.rounds === 1 ? "one round" : `medians of ${results.rounds} rounds`}; @modelcontextprotocol/sdk ${m.sdk}, node ${m.node}, ` +
        `${m.cpu} (nproc ${m.nproc}), ${m.date}`,
      `fill="#57606a"`
    )
  )
  // legend
  let lx = 20
  for (const measure of MEASURES) {
    out.push(`<rect x="${lx}" y="64" width="12" height="12" rx="2" fill="${measure.color}"/>`)
    const label = `${measure.name} (${measure.better} is better)`
    out.push(text(lx + 17, 74.5, label))
    lx += 17 + label.length * 6.4 + 22
  }

  const rowY: Array<number> = []
  let y = TOP
  for (let t = 0; t < TRANSPORTS.length; t++) {
    for (let mode = 0; mode < MODES.length; mode++) {
      rowY.push(y)
      y += GROUP_H + GROUP_GAP
    }
    y += TRANSPORT_GAP
  }
  // group labels and separators between transports
  TRANSPORTS.forEach(([, title], t) =>
    MODES.forEach(([, mode], i) => {
      const gy = rowY[t * MODES.length + i]!
      out.push(text(20, gy + GROUP_H / 2 - 1, title, `font-weight="600"`))
      out.push(text(20, gy + GROUP_H / 2 + 13, mode, `fill="#57606a"`))
      if (t > 0 && i === 0) {
        const sy = gy - (GROUP_GAP + TRANSPORT_GAP) / 2
        out.push(`<line x1="20" y1="${num(sy)}" x2="${WIDTH - 20}" y2="${num(sy)}" stroke="#d8dee4"/>`)
      }
    })
  )

  BASELINES.forEach(([baseline, title], p) => {
    const x0 = LABEL_W + PANEL_PAD + p * (PANEL_W + 2 * PANEL_PAD + PANEL_GAP)
    const panel = all.filter((b) => b.baseline === baseline)
    const [lo, hi] = domainOf(panel.flatMap((b) => (b.ratio === undefined ? [] : [b.ratio])))
    const xOf = (r: number) => x0 + ((Math.log2(r) - lo) / (hi - lo)) * PANEL_W
    out.push(text(x0 + PANEL_W / 2, TOP - 14, title, `font-size="14" font-weight="600" text-anchor="middle"`))
    const bottom = TOP + plotH
    // at most ~6 labelled powers of two, 1× always among them
    const step = Math.ceil((hi - lo) / 6)
    for (let e = Math.ceil(lo / step) * step; e <= hi; e += step) {
      const x = xOf(2 ** e)
      const one = e === 0
      out.push(
        `<line x1="${num(x)}" y1="${TOP - 6}" x2="${num(x)}" y2="${num(bottom + 4)}" stroke="${one ? "#1f2328" : "#d8dee4"}"` +
          `${one ? ` stroke-width="1.5"` : ` stroke-dasharray="3 3"`}/>`
      )
      out.push(text(x, bottom + 18, tickLabel(e), `text-anchor="middle" fill="${one ? "#1f2328" : "#57606a"}"`))
    }
    panel.forEach((bar, i) => {
      const group = Math.floor(i / MEASURES.length)
      const measure = MEASURES[i % MEASURES.length]!
      const by = rowY[group]! + (i % MEASURES.length) * (BAR_H + BAR_GAP)
      const one = xOf(1)
      if (bar.ratio === undefined) {
        out.push(text(one + 4, by + BAR_H - 2.5, "n/a", `fill="#57606a" font-size="11"`))
        return
      }
      const clamped = Math.min(2 ** hi, Math.max(2 ** lo, bar.ratio))
      const x = xOf(clamped)
      const left = Math.min(one, x)
      const w = Math.max(1.5, Math.abs(x - one))
      out.push(
        `<rect class="bar" x="${num(left)}" y="${num(by)}" width="${num(w)}" height="${BAR_H}" rx="2" fill="${measure.color}">` +
          `<title>${escape(`${bar.transport}, ${bar.mode}: ${bar.measure}, ours ÷ ${bar.transport.includes("2026") ? pairingOf(baseline, "2026") : baseline} = ${ratioText(bar.ratio)}`)}</title></rect>`
      )
      const right = x >= one
      out.push(
        text(right ? left + w + 4 : left - 4, by + BAR_H - 2.5, ratioText(bar.ratio), `font-size="11"${right ? "" : ` text-anchor="end"`}`)
      )
    })
    out.push(text(x0 + PANEL_W / 2, bottom + AXIS_H, "log scale; 1× = same as the baseline", `text-anchor="middle" fill="#57606a" font-size="11"`))
  })
  const v2 = results.tables["2026"] !== undefined && m.v2 !== undefined ? `; 2026 row against the official v2 SDK (${m.v2})` : ""
  const foot = results.note ?? `whole run ${Math.round(results.seconds)} s; tables and method: packages/bench/README.md${v2}`
  out.push(text(20, height - 14, foot, `fill="#57606a" font-size="11"`))
  out.push(`</svg>`)
  return out.join("\n") + "\n"
}
