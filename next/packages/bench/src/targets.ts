/**
 * The targets the issues set, checked on a run's tables: met, missed, or not measured.
 * @internal
 */
import type { TransportKind } from "./client.js"
import { SIZES, TRANSPORTS, TRANSPORT_TITLE } from "./config.js"
import { METRICS, type Table } from "./metrics.js"

// ============================================================================
// targets
// ============================================================================

export interface Target {
  readonly text: string
  readonly met: boolean | undefined
}

export const targetsFor = (tables: Partial<Record<TransportKind, Table>>): Array<Target> => {
  const out: Array<Target> = []
  const num = (t: Table, id: string, label: string) => {
    const v = t[id]?.[label]
    return typeof v === "number" ? v : undefined
  }
  const check = (text: string, value: number | undefined, limit: number, dir: "min" | "max", digits = 2) => {
    out.push({
      text: `${text}: ${value === undefined ? "n/a" : value.toFixed(digits)} (target ${dir === "min" ? "≥" : "≤"} ${limit})`,
      met: value === undefined ? undefined : dir === "min" ? value >= limit : value <= limit
    })
  }
  const ratio = (t: Table, label: string) => {
    const a = num(t, "ours/ours", label)
    const b = num(t, "floor", label)
    return a === undefined || b === undefined ? undefined : a / b
  }
  const label = (prefix: string) =>
    (METRICS.find((m) => m.label === prefix) ?? METRICS.find((m) => m.label.startsWith(prefix)))!.label
  for (const transport of TRANSPORTS) {
    const t = tables[transport]
    if (t === undefined) continue
    const http = transport !== "stdio"
    const name = TRANSPORT_TITLE[transport]
    if (transport === "store") {
      // the official client drives our server: its server CPU against the floor server's
      const subject = (metric: string) => {
        const a = num(t, "official→ours", metric)
        const b = num(t, "floor", metric)
        return a === undefined || b === undefined ? undefined : a / b
      }
      check(`${name}: official→ours sequential server CPU/call vs floor`, subject(label("sequential echo: server CPU")), 3, "max")
      check(`${name}: official→ours 64 in flight server CPU/call vs floor`, subject(label(`${SIZES.inflight} in flight: server CPU`)), 3, "max")
      check(`${name}: official→ours server RSS growth over ${SIZES.leak} calls (MiB)`, num(t, "official→ours", label("server RSS growth")), 10, "max")
      check(`${name}: ours/ours server RSS growth over ${SIZES.leak} calls (MiB)`, num(t, "ours/ours", label("server RSS growth")), 10, "max")
      continue
    }
    if (transport === "2026") {
      out.push(...targets2026(t))
      continue
    }
    const [seqMin, concMin, cpuMax] = http ? [0.4, 0.3, 3] : [0.6, 0.5, 2.5]
    const seq = label("sequential echo: throughput")
    const seqClient = label("sequential echo: client CPU")
    const seqServer = label("sequential echo: server CPU")
    const conc = label(`${SIZES.inflight} in flight: throughput`)
    const concClient = label(`${SIZES.inflight} in flight: client CPU`)
    const concServer = label(`${SIZES.inflight} in flight: server CPU`)
    const blob16 = label("16 MiB blob: ms per call")
    const blob16Client = label("16 MiB blob: client peak RSS")
    const blob16Server = label("16 MiB blob: server peak RSS")
    const leak = label("server RSS growth")
    check(`${name}: sequential calls/s vs floor`, ratio(t, seq), seqMin, "min")
    check(`${name}: 64 in flight calls/s vs floor`, ratio(t, conc), concMin, "min")
    check(`${name}: sequential server CPU/call vs floor`, ratio(t, seqServer), cpuMax, "max")
    check(`${name}: sequential client CPU/call vs floor`, ratio(t, seqClient), cpuMax, "max")
    check(`${name}: 64 in flight server CPU/call vs floor`, ratio(t, concServer), cpuMax, "max")
    check(`${name}: 64 in flight client CPU/call vs floor`, ratio(t, concClient), cpuMax, "max")
    check(`${name}: 16 MiB ms/call vs floor`, ratio(t, blob16), 2, "max")
    for (const [side, metric] of [["client", blob16Client], ["server", blob16Server]] as const) {
      const a = num(t, "ours/ours", metric)
      const b = num(t, "floor", metric)
      check(`${name}: 16 MiB ${side} peak RSS above floor's (MiB)`, a === undefined || b === undefined ? undefined : a - b, 32, "max", 1)
    }
    // the same, without the baseline each program has before any call (loaded code, runtime)
    for (const side of ["client", "server"] as const) {
      const metric = label(`16 MiB blob: ${side} peak RSS − RSS before`)
      const a = num(t, "ours/ours", metric)
      const b = num(t, "floor", metric)
      check(
        `${name}: 16 MiB ${side} (peak − RSS before) above floor's (MiB)`,
        a === undefined || b === undefined ? undefined : a - b,
        32,
        "max",
        1
      )
    }
    check(`${name}: server RSS growth over ${SIZES.leak} calls (MiB)`, num(t, "ours/ours", leak), 10, "max")
    if (http) {
      const perSession = METRICS.find((m) => m.label.startsWith("idle session: server RSS"))!.label
      check(`${name}: server RSS per idle session (KiB)`, num(t, "ours/ours", perSession), 40, "max", 1)
    }
  }
  return out
}

/**
 * The 2026-07-28 targets (issues 16, 17, 21): at least 2× the v2 SDK's calls/s, our server's CPU
 * per call within 2.5× the floor's, our client's at most half the v2 client's; ours/ours against
 * v2/v2, and the same with the other side's peer held fixed (v2→ours, ours→v2).
 */
export const targets2026 = (t: Table): Array<Target> => {
  const name = TRANSPORT_TITLE["2026"]
  const out: Array<Target> = []
  const num = (id: string, label: string) => {
    const v = t[id]?.[label]
    return typeof v === "number" ? v : undefined
  }
  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a / b)
  const check = (text: string, value: number | undefined, limit: number, dir: "min" | "max") =>
    out.push({
      text: `${text}: ${value === undefined ? "n/a" : value.toFixed(2)} (target ${dir === "min" ? "≥" : "≤"} ${limit})`,
      met: value === undefined ? undefined : dir === "min" ? value >= limit : value <= limit
    })
  const label = (prefix: string) => METRICS.find((m) => m.label.startsWith(prefix))!.label
  for (const [mode, prefix] of [["sequential", "sequential echo"], [`${SIZES.inflight} in flight`, `${SIZES.inflight} in flight`]] as const) {
    const calls = label(`${prefix}: throughput`)
    const server = label(`${prefix}: server CPU`)
    const client = label(`${prefix}: client CPU`)
    check(`${name}: ${mode} calls/s, ours/ours vs v2/v2`, ratio(num("ours/ours", calls), num("v2/v2", calls)), 2, "min")
    check(`${name}: ${mode} calls/s, v2→ours vs v2/v2 (our server, same client)`, ratio(num("v2→ours", calls), num("v2/v2", calls)), 2, "min")
    check(`${name}: ${mode} server CPU/call, ours/ours vs floor`, ratio(num("ours/ours", server), num("floor", server)), 2.5, "max")
    check(`${name}: ${mode} client CPU/call, ours/ours vs v2/v2`, ratio(num("ours/ours", client), num("v2/v2", client)), 0.5, "max")
    check(`${name}: ${mode} client CPU/call, ours→v2 vs v2/v2 (our client, same server)`, ratio(num("ours→v2", client), num("v2/v2", client)), 0.5, "max")
  }
  const leak = label("server RSS growth")
  check(`${name}: ours/ours server RSS growth over ${SIZES.leak} calls (MiB)`, num("ours/ours", leak), 10, "max")
  return out
}
