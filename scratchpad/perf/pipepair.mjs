// A stdio client+server pair at K in flight, with pipecount.mjs in both processes: lines per write and per read
// on each side (counts, load-independent) and the window's wall calls/s and CPU per call (load-dependent: compare
// builds run interleaved, never across runs).
//   node pipepair.mjs ours|official|floor SERVER.js [N] [CONC] [REPEAT]     (CLIENT=out-x/cgclient.js: another build)
// The client is out/cgclient.js (CPU=1); the server runs `node --import pipecount.mjs SERVER.js --stdio`.
import { spawn } from "node:child_process"
import * as fs from "node:fs"

const [impl, server, nArg, concArg] = process.argv.slice(2)
const n = Number(nArg ?? 20000)
const conc = Number(concArg ?? 64)
const here = new URL(".", import.meta.url).pathname
const out = `/tmp/pipepair-${process.pid}.txt`
fs.rmSync(out, { force: true })
const child = spawn("node", ["--import", `${here}pipecount.mjs`, process.env.CLIENT ?? `${here}out/cgclient.js`, impl, "2000", String(n), String(conc), "--",
  "env", "PIPECOUNT_LABEL=server", "node", "--import", `${here}pipecount.mjs`, server, "--stdio"], {
  env: { ...process.env, CPU: "1", PIPECOUNT_LABEL: "client", PIPECOUNT_OUT: out },
  stdio: ["pipe", "pipe", "pipe"]
})
let t0 = 0
let err = ""
child.stdin.on("error", () => {}) // the client exits after DONE
process.stdout.on("error", () => {}) // piped into head
child.stderr.on("data", (d) => { err += d })
child.stdout.setEncoding("utf8")
child.stdout.on("data", (d) => {
  for (const word of d.split("\n")) {
    if (word === "READY") { t0 = performance.now(); child.stdin.write("\n") }
    if (word === "DONE") {
      const ms = performance.now() - t0
      console.log(`${impl} ${server.split("/").pop()}: ${Math.round(n / ms * 1000)} calls/s (wall, load-dependent)`)
      child.stdin.write("\n")
    }
  }
})
child.on("exit", () => {
  process.stdout.write(err.split("\n").filter((l) => l.includes("µs")).join("\n") + "\n")
  process.stdout.write(fs.readFileSync(out, "utf8"))
  fs.rmSync(out, { force: true })
})
