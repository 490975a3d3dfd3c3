import { describe, expect, it } from "@effect/vitest"
import type { PhaseReport, Report } from "../src/client.js"
import { pairingsOf, TRACING_PAIRING } from "../src/config.js"
import { headerOf, type Run, rowsOf, tableFor } from "../src/metrics.js"

/** A calls report whose sequential phase took `cpuUs` of each side's CPU per call. */
const callsReport = (cpuUs: number): Report => ({
  ok: true,
  phases: [{ kind: "seq", calls: 100, wallMs: 50, clientCpuUs: cpuUs * 100, serverCpuUs: cpuUs * 100 } as PhaseReport]
})

const run = (pairing: string, cpuUs: number): Run => ({
  transport: "stdio",
  pairing,
  unit: "calls",
  round: 1,
  seconds: 1,
  report: callsReport(cpuUs)
})

describe("ours/ours+otel (tracing on)", () => {
  it("runs beside ours/ours on stdio, SSE and JSON, the calls workloads only, tracing on in both processes", () => {
    for (const transport of ["stdio", "sse", "json"] as const) {
      expect(pairingsOf(transport).map((p) => p.id)).toContain("ours/ours+otel")
    }
    for (const transport of ["store", "2026"] as const) {
      expect(pairingsOf(transport).map((p) => p.id)).not.toContain("ours/ours+otel")
    }
    expect(TRACING_PAIRING).toMatchObject({ client: "ours", server: "ours", tracing: true, units: ["calls"] })
  })

  it("is set against ours/ours in an ours+otel ÷ ours column", () => {
    const header = headerOf("stdio")
    expect(header.at(-1)).toBe("ours+otel ÷ ours")
    const rows = rowsOf(tableFor([run("ours/ours", 10), run("ours/ours+otel", 25)], "stdio"), "stdio")
    const cpu = rows.find((r) => r[0] === "sequential echo: client CPU per call (µs)")!
    expect(cpu.length).toBe(header.length)
    expect(cpu[header.indexOf("ours/ours")]).toBe("10")
    expect(cpu[header.indexOf("ours/ours+otel")]).toBe("25")
    expect(cpu.at(-1)).toBe("2.50×")
  })
})
