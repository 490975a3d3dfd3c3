/**
 * The bench's configuration: counts (\`BENCH_QUICK\`), rounds, pairings, transports and workloads
 * (\`BENCH_ONLY\`, \`BENCH_UNITS\`, \`BENCH_PAIRINGS\`), and the baseline's (\`BENCH_BASELINE\`).
 * @internal
 */
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Impl, Phase, TransportKind } from "./client.js"
import { ECHO_SUCCEED_TOOL, MiB } from "./common.js"

// ============================================================================
// configuration
// ============================================================================

export const QUICK = process.env.BENCH_QUICK === "1"
export const PROFILE = process.env.BENCH_CPU_PROF === "1"
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK || PROFILE ? 1 : 3))
export const SIZES = QUICK
  ? { warmup: 300, bestWarmup: 100, seq: 200, conc: 640, inflight: 64, leak: 1000, blob1: 1, blob16: 1, sessions: 50, capMs: 1000 }
  : { warmup: 10000, bestWarmup: 2000, seq: 4000, conc: 6400, inflight: 64, leak: 12000, blob1: 5, blob16: 2, sessions: 500, capMs: 3000 }
/** RSS growth is a property, not a ratio: one round unless asked. */
export const LEAK_ROUNDS = Number(process.env.BENCH_LEAK_ROUNDS ?? 1)
export const LEAK_INFLIGHT = 64
/** The raised message limit for 16 MiB results (the JSON text is a little more than 16 MiB). */
export const RAISED_LIMIT = 64 * MiB

export const bundleDir = path.dirname(fileURLToPath(import.meta.url))
export const packageDir = path.dirname(bundleDir)
export const profileDir = path.join(packageDir, "profiles")

export interface Pairing {
  readonly id: string
  readonly client: Impl
  readonly server: Impl
  /** `BENCH_BASELINE`: the bundle directory the client's and server's programs come from (default ours). */
  readonly clientDir?: string | undefined
  readonly serverDir?: string | undefined
  /** Tracing on in both processes (`src/otel.ts`): a real OpenTelemetry tracer and the metrics. */
  readonly tracing?: boolean | undefined
  /** The workloads this pairing runs (default all). */
  readonly units?: ReadonlyArray<UnitName> | undefined
}

export const PAIRINGS: ReadonlyArray<Pairing> = [
  { id: "ours/ours", client: "ours", server: "ours" },
  { id: "official/official", client: "official", server: "official" },
  { id: "official→ours", client: "official", server: "ours" },
  { id: "ours→official", client: "ours", server: "official" },
  { id: "floor", client: "floor", server: "floor" }
]

/**
 * ours/ours with tracing on (`src/otel.ts`: `@effect/opentelemetry` over a `BatchSpanProcessor`
 * with an exporter that drops the spans, and the metrics), beside ours/ours (tracing off), on
 * stdio and the HTTP transports: the calls workloads only (`ours+otel ÷ ours` column).
 */
export const TRACING_PAIRING: Pairing = { id: "ours/ours+otel", client: "ours", server: "ours", tracing: true, units: ["calls"] }
/** The transports with a tracing row. */
export const TRACING_TRANSPORTS: ReadonlyArray<TransportKind> = ["stdio", "sse", "json"]
const tracingPairings = (transport: TransportKind): ReadonlyArray<Pairing> =>
  TRACING_TRANSPORTS.includes(transport) ? [TRACING_PAIRING] : []

/**
 * Effect 4's own MCP modules (`effect/ai`), on stdio only: our client against its server, its client
 * against ours, and its client against its server. Not set against the floor or the targets: there
 * for the README's "Which to pick".
 */
export const PAIRINGS_EFFECT_AI: ReadonlyArray<Pairing> = [
  { id: "ours→effect-ai", client: "ours", server: "effect-ai" },
  { id: "effect-ai→ours", client: "effect-ai", server: "ours" },
  { id: "effect-ai/effect-ai", client: "effect-ai", server: "effect-ai" }
]

/** The 2026-07-28 configuration: ours and the official v2 SDK (`@modelcontextprotocol/client`, `server`). */
export const PAIRINGS_2026: ReadonlyArray<Pairing> = [
  { id: "ours/ours", client: "ours", server: "ours" },
  { id: "v2/v2", client: "v2", server: "v2" },
  { id: "v2→ours", client: "v2", server: "ours" },
  { id: "ours→v2", client: "ours", server: "v2" },
  { id: "floor", client: "floor", server: "floor" }
]
/** The official pairing a transport's ours/ours is set against. */
export const officialOf = (transport: TransportKind): string => (transport === "2026" ? "v2/v2" : "official/official")

export const ALL_TRANSPORTS: ReadonlyArray<TransportKind> = ["stdio", "sse", "json", "store", "2026"]
/** The transports of the main Results section; `store` has its own. */
export const MAIN_TRANSPORTS: ReadonlyArray<TransportKind> = ["stdio", "sse", "json"]
export const TRANSPORTS = process.env.BENCH_ONLY === undefined
  ? ALL_TRANSPORTS
  : ALL_TRANSPORTS.filter((t) => process.env.BENCH_ONLY!.split(",").includes(t))

export const TRANSPORT_TITLE: Record<TransportKind, string> = {
  stdio: "stdio",
  sse: "streamable HTTP, SSE answers",
  json: "streamable HTTP, JSON answers",
  store: "streamable HTTP, SSE answers, event store on",
  "2026": "streamable HTTP, 2026-07-28 stateless"
}

/**
 * With the event store on, the official client drives our server (as the conformance suite and
 * most hosts do), against the floor; ours/ours is there for reference.
 */
export const STORE_PAIRINGS: ReadonlyArray<string> = ["official→ours", "ours/ours", "floor"]
export const ONLY_PAIRINGS = process.env.BENCH_PAIRINGS?.split(",")
export const pairingsOf = (transport: TransportKind): ReadonlyArray<Pairing> =>
  [
    ...(transport === "store"
      ? STORE_PAIRINGS.map((id) => PAIRINGS.find((p) => p.id === id)!)
      : transport === "2026"
      ? PAIRINGS_2026
      : transport === "stdio"
      ? [...PAIRINGS, ...PAIRINGS_EFFECT_AI]
      : PAIRINGS),
    ...tracingPairings(transport),
    ...basePairings(transport)
  ].filter((p) => ONLY_PAIRINGS === undefined || ONLY_PAIRINGS.includes(p.id))
/** The pairing set against the floor (and the official pairing) in a transport's table. */
export const subjectOf = (transport: TransportKind): string => (transport === "store" ? "official→ours" : "ours/ours")
/** The workloads of the event-store transport: CPU per call and RSS growth. */
export const STORE_UNITS: ReadonlyArray<string> = ["calls", "leak"]
/** The workloads of the 2026-07-28 configuration: calls and RSS growth (no sessions on that path). */
export const UNITS_2026: ReadonlyArray<string> = ["calls", "leak"]
/**
 * The official client makes fewer calls per second than ours: its warm-up gets more time, so that
 * our server is measured at its steady state (its JIT settles after ~3,000 calls) on a busy machine too.
 */
export const phasesOf = (transport: TransportKind, unit: Unit): ReadonlyArray<Phase> =>
  transport === "store" && unit.name === "calls"
    ? unit.phases.map((p) => (p.kind === "warmup" && p.tool === undefined ? { ...p, maxMs: 10 * SIZES.capMs } : p))
    : unit.phases
export const ONLY_UNITS = process.env.BENCH_UNITS?.split(",")

export type UnitName = "calls" | "leak" | "blob1" | "blob16" | "sessions"

export interface Unit {
  readonly name: UnitName
  readonly phases: ReadonlyArray<Phase>
  readonly maxMessageBytes?: number | undefined
  readonly httpOnly?: boolean | undefined
  /** Rounds of this unit (default `ROUNDS`). */
  readonly rounds?: number | undefined
}

export const UNITS: ReadonlyArray<Unit> = [
  {
    name: "calls",
    phases: [
      { kind: "warmup", n: SIZES.warmup, maxMs: 2 * SIZES.capMs },
      { kind: "seq", n: SIZES.seq, maxMs: SIZES.capMs },
      { kind: "conc", n: SIZES.conc, inflight: SIZES.inflight, maxMs: SIZES.capMs },
      // the best case (issue 37): the headline echo's handler runs code; this one is an `Effect.succeed`,
      // answered as it is made. Its path gets its own warm-up, in the same processes
      { kind: "warmup", n: SIZES.bestWarmup, maxMs: SIZES.capMs, tool: ECHO_SUCCEED_TOOL },
      { kind: "best", n: SIZES.seq, maxMs: SIZES.capMs }
    ]
  },
  {
    name: "leak",
    // two halves: a leak keeps growing in the second, a high-water mark reached in the first does not. The warm-up is
    // a half's worth: V8's young generation (2 × 16 MiB once grown) is touched page by page as it is allocated into,
    // and after 1,000 calls a server that allocates less per call has more of it still to touch, which the first
    // reading would count as growth (7c1a07c:scratchpad/perf/leakstdio.mjs)
    phases: [
      { kind: "warmup", n: SIZES.leak / 2 },
      { kind: "leak", n: SIZES.leak / 2, inflight: LEAK_INFLIGHT },
      { kind: "leak", n: SIZES.leak / 2, inflight: LEAK_INFLIGHT }
    ],
    rounds: LEAK_ROUNDS
  },
  { name: "blob1", phases: [{ kind: "warmup", n: 50 }, { kind: "blob", n: SIZES.blob1, bytes: MiB }] },
  {
    name: "blob16",
    phases: [{ kind: "warmup", n: 50 }, { kind: "blob", n: SIZES.blob16, bytes: 16 * MiB }],
    maxMessageBytes: RAISED_LIMIT
  },
  { name: "sessions", phases: [{ kind: "warmup", n: 50 }, { kind: "sessions", n: SIZES.sessions }], httpOnly: true }
]

// ============================================================================
// baseline (BENCH_BASELINE)
// ============================================================================

export const BASELINE = process.env.BENCH_BASELINE
/** Set by `bundleBaseline`: where the baseline's programs are, and whether its server has an event store. */
export interface Baseline {
  readonly dir: string
  readonly store: boolean
  readonly commit?: string
}
export let baseline: Baseline | undefined

/** The baseline's pairings: the subject of each table (ours/ours, or official→ours with the store), at that commit. */
export const basePairings = (transport: TransportKind): ReadonlyArray<Pairing> =>
  baseline === undefined || transport === "2026"
    ? []
    : transport === "store"
    ? baseline.store ? [{ id: "official→ours@base", client: "official", server: "ours", serverDir: baseline.dir }] : []
    : [{ id: "ours@base", client: "ours", server: "ours", clientDir: baseline.dir, serverDir: baseline.dir }]

export const baseIdOf = (transport: TransportKind): string => (transport === "store" ? "official→ours@base" : "ours@base")

/** A saved run's baseline (`BENCH_RENDER`). */
export const setBaseline = (saved: Baseline | undefined) => {
  baseline = saved
}
