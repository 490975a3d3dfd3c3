// How a stdio pair pipelines, counted inside each process (`node --import ./pipecount.mjs …`, client and server):
// per socket write (one `write()` on a net.Socket: stdout of a server, a child's stdin in a client) and per read
// (each chunk a net.Socket pushes: one read(2)), the NDJSON lines it carried; and, at each read, how many lines
// this process had received but not yet answered (lines in − lines out: for a server, the requests in flight in
// it). Printed on stderr at exit, or appended to `PIPECOUNT_OUT` (`PIPECOUNT_LABEL` names the process). Counts, not times: a pair in lockstep
// writes ~64 lines per write at 64 in flight, a pipelined pair fewer, more often.
import * as fs from "node:fs"
import * as net from "node:net"

const label = process.env.PIPECOUNT_LABEL ?? `pid ${process.pid}`
const lines = (chunk) => {
  if (typeof chunk === "string") {
    let n = 0
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) n++
    return n
  }
  if (chunk instanceof Uint8Array) {
    let n = 0
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++
    return n
  }
  return 0
}
const w = { calls: 0, lines: 0, bytes: 0, hist: new Map() }
const r = { calls: 0, lines: 0, bytes: 0, hist: new Map(), backlog: 0 }
const bucket = (n) => (n <= 1 ? n : 2 ** Math.ceil(Math.log2(n)))
const add = (s, n, bytes) => {
  s.calls++
  s.lines += n
  s.bytes += bytes
  const b = bucket(n)
  s.hist.set(b, (s.hist.get(b) ?? 0) + 1)
}
const isPipe = (socket) => socket._handle?.constructor?.name === "Pipe"

const write = net.Socket.prototype.write
net.Socket.prototype.write = function(chunk, ...rest) {
  if (isPipe(this) && this !== process.stderr) {
    const n = lines(chunk)
    if (n > 0) add(w, n, typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length)
  }
  return write.call(this, chunk, ...rest)
}
const push = net.Socket.prototype.push
net.Socket.prototype.push = function(chunk, ...rest) {
  if (chunk != null && isPipe(this)) {
    const n = lines(chunk)
    if (n > 0) {
      r.backlog += r.lines - w.lines
      add(r, n, chunk.length)
    }
  }
  return push.call(this, chunk, ...rest)
}
const hist = (s) => [...s.hist].sort((a, b) => a[0] - b[0]).map(([k, v]) => `≤${k}:${v}`).join(" ")
process.on("exit", () => {
  const f = (x) => x.toFixed(2)
  const out = (text) => (process.env.PIPECOUNT_OUT ? fs.appendFileSync(process.env.PIPECOUNT_OUT, text) : process.stderr.write(text))
  out(
    `[pipecount ${label}] writes ${w.calls} lines ${w.lines} (${f(w.lines / w.calls)} per write, ${f(w.bytes / w.calls)} B) [${hist(w)}]\n` +
      `[pipecount ${label}] reads ${r.calls} lines ${r.lines} (${f(r.lines / r.calls)} per read, ${f(r.bytes / r.calls)} B) [${hist(r)}]; unanswered at a read: ${f(r.backlog / r.calls)}\n`
  )
})
