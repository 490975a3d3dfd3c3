/**
 * What the bench reports: the metrics read from each run's reports, their medians over rounds,
 * and the tables (markdown and text) that set each pairing against the floor, the official SDK
 * and the baseline.
 * @internal
 */
import type { Phase, PhaseReport, Report, TransportKind } from "./client.js"
import { median, MiB } from "./common.js"
import { SIZES, TRACING_PAIRING, baseIdOf, basePairings, officialOf, pairingsOf, subjectOf, type UnitName } from "./config.js"

// ============================================================================
// metrics
// ============================================================================

export interface Run {
  readonly transport: TransportKind
  readonly pairing: string
  readonly unit: UnitName
  readonly round: number
  readonly seconds: number
  readonly report: Report
}

export type Reports = Partial<Record<UnitName, Report>>

export interface Metric {
  readonly label: string
  readonly unit: string
  readonly digits: number
  /** How ours/ours is set against the others: a ratio, or a difference for memory. */
  readonly compare: "ratio" | "delta"
  readonly httpOnly?: boolean
  readonly value: (reports: Reports) => number | string
}

export const phaseOf = (reports: Reports, unit: UnitName, kind: Phase["kind"]): PhaseReport | string => {
  const report = reports[unit]
  if (report === undefined) return "n/a"
  if (!report.ok) return `fails: ${report.error}`
  const phase = report.phases.find((p) => p.kind === kind)
  if (phase === undefined) {
    const failed = report.phases.find((p) => p.error !== undefined)
    return failed !== undefined ? `fails: ${failed.error}` : "n/a"
  }
  return phase.error !== undefined ? `fails: ${phase.error}` : phase
}

export const fromPhase = (unit: UnitName, kind: Phase["kind"], f: (p: PhaseReport) => number) => (reports: Reports) => {
  const phase = phaseOf(reports, unit, kind)
  return typeof phase === "string" ? phase : f(phase)
}

export const perSecond = (p: PhaseReport) => (p.calls / p.wallMs) * 1000

/** Server memory growth over both halves of the leak unit, or over the second only. */
export const leakGrowth = (field: "rss" | "heapUsed", over: "all" | "second") => (reports: Reports): number | string => {
  const report = reports.leak
  if (report === undefined) return "n/a"
  if (!report.ok) return `fails: ${report.error}`
  const halves = report.phases.filter((p) => p.kind === "leak")
  const failed = report.phases.find((p) => p.error !== undefined)
  if (failed !== undefined) return `fails: ${failed.error}`
  if (halves.length !== 2) return "n/a"
  const from = over === "all" ? halves[0]! : halves[1]!
  return (halves[1]!.serverAfter[field] - from.serverBefore[field]) / MiB
}
/** The server's RSS at the end of the leak unit (after its idle and GC). */
export const leakAfter = (reports: Reports): number | string => {
  const report = reports.leak
  if (report === undefined) return "n/a"
  if (!report.ok) return `fails: ${report.error}`
  const failed = report.phases.find((p) => p.error !== undefined)
  if (failed !== undefined) return `fails: ${failed.error}`
  const last = report.phases.filter((p) => p.kind === "leak").at(-1)
  return last === undefined ? "n/a" : last.serverAfter.rss / MiB
}
export const KiB = 1024
/** The best-case rows' name: our echo handler an `Effect.succeed` (the headline rows' runs code). */
const BEST = "`Effect.succeed` handler (best case)"

export const METRICS: ReadonlyArray<Metric> = [
  { label: `sequential echo: throughput`, unit: "calls/s", digits: 0, compare: "ratio", value: fromPhase("calls", "seq", perSecond) },
  { label: "sequential echo: p50 latency", unit: "ms", digits: 3, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.p50Ms!) },
  { label: "sequential echo: p99 latency", unit: "ms", digits: 3, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.p99Ms!) },
  { label: "sequential echo: client CPU per call", unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.clientCpuUs / p.calls) },
  { label: "sequential echo: server CPU per call", unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "seq", (p) => p.serverCpuUs / p.calls) },
  // the best case (issue 37): our handler an `Effect.succeed`, answered as it is made (the rows above run `Effect.sync`)
  { label: `sequential echo, ${BEST}: throughput`, unit: "calls/s", digits: 0, compare: "ratio", value: fromPhase("calls", "best", perSecond) },
  { label: `sequential echo, ${BEST}: p50 latency`, unit: "ms", digits: 3, compare: "ratio", value: fromPhase("calls", "best", (p) => p.p50Ms!) },
  { label: `sequential echo, ${BEST}: client CPU per call`, unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "best", (p) => p.clientCpuUs / p.calls) },
  { label: `sequential echo, ${BEST}: server CPU per call`, unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "best", (p) => p.serverCpuUs / p.calls) },
  { label: `${SIZES.inflight} in flight: throughput`, unit: "calls/s", digits: 0, compare: "ratio", value: fromPhase("calls", "conc", perSecond) },
  { label: `${SIZES.inflight} in flight: client CPU per call`, unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "conc", (p) => p.clientCpuUs / p.calls) },
  { label: `${SIZES.inflight} in flight: server CPU per call`, unit: "µs", digits: 0, compare: "ratio", value: fromPhase("calls", "conc", (p) => p.serverCpuUs / p.calls) },
  { label: `1 MiB blob: ms per call (${SIZES.blob1} calls)`, unit: "ms", digits: 1, compare: "ratio", value: fromPhase("blob1", "blob", (p) => p.wallMs / p.calls) },
  { label: "1 MiB blob: client peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob1", "blob", (p) => p.clientMaxRss / MiB) },
  { label: "1 MiB blob: server peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob1", "blob", (p) => p.serverMaxRss / MiB) },
  { label: `16 MiB blob: ms per call (${SIZES.blob16} calls)`, unit: "ms", digits: 1, compare: "ratio", value: fromPhase("blob16", "blob", (p) => p.wallMs / p.calls) },
  { label: "16 MiB blob: client peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => p.clientMaxRss / MiB) },
  { label: "16 MiB blob: server peak RSS", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => p.serverMaxRss / MiB) },
  { label: "16 MiB blob: client peak RSS − RSS before", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => (p.clientMaxRss - p.clientRssBefore) / MiB) },
  { label: "16 MiB blob: server peak RSS − RSS before", unit: "MiB", digits: 1, compare: "delta", value: fromPhase("blob16", "blob", (p) => (p.serverMaxRss - p.serverBefore.rss) / MiB) },
  { label: `server RSS growth over ${SIZES.leak} calls (after 1 s idle + GC)`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("rss", "all") },
  { label: `… RSS growth over the last ${SIZES.leak / 2} of them`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("rss", "second") },
  { label: `server RSS after ${SIZES.leak} calls (after 1 s idle + GC)`, unit: "MiB", digits: 1, compare: "delta", value: leakAfter },
  { label: `server heap growth over ${SIZES.leak} calls (after 1 s idle + GC)`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("heapUsed", "all") },
  { label: `… heap growth over the last ${SIZES.leak / 2} of them`, unit: "MiB", digits: 2, compare: "delta", value: leakGrowth("heapUsed", "second") },
  { label: `${SIZES.sessions} sessions opened at once: time`, unit: "ms", digits: 0, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => p.wallMs) },
  { label: "idle session: server RSS per session (after GC)", unit: "KiB", digits: 1, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => (p.serverAfter.rss - p.serverBefore.rss) / SIZES.sessions / KiB) },
  { label: "idle session: server heap per session (after GC)", unit: "KiB", digits: 1, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => (p.serverAfter.heapUsed - p.serverBefore.heapUsed) / SIZES.sessions / KiB) },
  { label: `${SIZES.sessions} sessions: one call on each at once`, unit: "ms", digits: 0, compare: "ratio", httpOnly: true, value: fromPhase("sessions", "sessions", (p) => p.callAllMs!) }
]

/** The median over rounds, or the first failure when every round failed. */
export const aggregate = (values: ReadonlyArray<number | string>): number | string => {
  const numbers = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v))
  if (numbers.length > 0) return median(numbers)
  return values.find((v) => typeof v === "string") ?? "n/a"
}

export const fmt = (value: number | string, digits: number): string => {
  if (typeof value === "string") return value.startsWith("fails") ? "fails" : value
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export const compare = (metric: Metric, ours: number | string, other: number | string): string => {
  if (typeof ours !== "number" || typeof other !== "number") return "–"
  if (metric.compare === "delta") {
    const d = ours - other
    return `${d >= 0 ? "+" : ""}${d.toFixed(metric.digits)} ${metric.unit}`
  }
  return other === 0 ? "–" : `${(ours / other).toFixed(2)}×`
}

export type Table = Record<string, Record<string, number | string>>

export const tableFor = (runs: ReadonlyArray<Run>, transport: TransportKind): Table => {
  const table: Table = {}
  for (const pairing of pairingsOf(transport)) {
    const rounds = new Map<number, Reports>()
    for (const run of runs) {
      if (run.transport !== transport || run.pairing !== pairing.id) continue
      const reports = rounds.get(run.round) ?? {}
      reports[run.unit] = run.report
      rounds.set(run.round, reports)
    }
    const column: Record<string, number | string> = {}
    for (const metric of METRICS) {
      if (metric.httpOnly === true && transport === "stdio") continue
      column[metric.label] = rounds.size === 0 ? "n/a" : aggregate(Array.from(rounds.values(), metric.value))
    }
    table[pairing.id] = column
  }
  return table
}

export const headerOf = (transport: TransportKind): Array<string> => [
  ...(transport === "store"
    ? ["metric", ...pairingsOf(transport).map((p) => p.id), "official→ours ÷ floor"]
    : ["metric", ...pairingsOf(transport).map((p) => p.id), "ours ÷ floor", transport === "2026" ? "ours ÷ v2" : "ours ÷ official"]),
  ...(basePairings(transport).length > 0 ? [`${subjectOf(transport)} ÷ base`] : []),
  ...(tracedIn(transport) ? ["ours+otel ÷ ours"] : [])
]

/** Whether a transport's table has the tracing pairing (`TRACING_PAIRING`). */
const tracedIn = (transport: TransportKind): boolean => pairingsOf(transport).some((p) => p.id === TRACING_PAIRING.id)

/** A metric is shown when some pairing has a value for it (a workload left out shows no rows). */
export const rowsOf = (table: Table, transport: TransportKind): Array<Array<string>> =>
  METRICS.filter((m) => !(m.httpOnly === true && transport === "stdio")).flatMap((metric) => {
    const cell = (id: string) => table[id]?.[metric.label] ?? "n/a"
    const pairings = pairingsOf(transport)
    if (pairings.every((p) => cell(p.id) === "n/a")) return []
    const subject = subjectOf(transport)
    return [[
      `${metric.label} (${metric.unit})`,
      ...pairings.map((p) => fmt(cell(p.id), metric.digits)),
      compare(metric, cell(subject), cell("floor")),
      ...(transport === "store" ? [] : [compare(metric, cell(subject), cell(officialOf(transport)))]),
      ...(basePairings(transport).length > 0 ? [compare(metric, cell(subject), cell(baseIdOf(transport)))] : []),
      ...(tracedIn(transport) ? [compare(metric, cell(TRACING_PAIRING.id), cell("ours/ours"))] : [])
    ]]
  })

export const markdownTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  return [line(header), line(header.map((_, i) => (i === 0 ? "---" : "---:"))), ...rows.map(line)].join("\n")
}

export const textTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  return all.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")).join("\n")
}
