// The bench's sessions row alone: a server (any bench bundle) and the bench's own client process
// (bundle/client.js: warm-up of 50 echo calls, then N sessions opened at once, the server's stats
// before and after with GC). Prints the server's RSS and heap per session, as the bench's table does.
// node benchsessions.mjs [N] [ROUNDS] [impl] -- node --expose-gc bundle/serverOurs.js --http [--json]
// Run from packages/bench. CLIENT=bundle-x/client.js picks another client build.
import { spawn, fork } from "node:child_process"
const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const [n = "500", rounds = "3", impl = "ours"] = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const transport = cmd.includes("--json") ? "json" : "sse"
const one = async () => {
  const server = spawn(cmd[0], cmd.slice(1), { stdio: ["ignore", "pipe", "inherit"] })
  const port = await new Promise((r) => { let b = ""; server.stdout.on("data", (d) => { b += d; const m = /LISTENING (\d+)/.exec(b); if (m) r(Number(m[1])) }) })
  const spec = { impl, transport, url: `http://127.0.0.1:${port}/mcp`, phases: [{ kind: "warmup", n: 50 }, { kind: "sessions", n: Number(n) }] }
  const report = await new Promise((resolve) => {
    const child = fork(process.env.CLIENT ?? "bundle/client.js", [JSON.stringify(spec)], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] })
    child.on("message", resolve)
  })
  server.kill()
  const p = report.phases.find((x) => x.kind === "sessions")
  if (p === undefined || p.error) throw new Error(JSON.stringify(report))
  return { rss: (p.serverAfter.rss - p.serverBefore.rss) / Number(n) / 1024, heap: (p.serverAfter.heapUsed - p.serverBefore.heapUsed) / Number(n) / 1024 }
}
const rows = []
for (let i = 0; i < Number(rounds); i++) { const r = await one(); rows.push(r); console.log(`round ${i}: rss ${r.rss.toFixed(1)} KiB/session, heap ${r.heap.toFixed(1)} KiB/session`) }
const med = (k) => rows.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(rows.length / 2)]
console.log(`median of ${rows.length}: rss ${med("rss").toFixed(1)} heap ${med("heap").toFixed(1)} KiB/session (${transport})`)
