// node --import ./conncount.mjs server.js: TCP connections an HTTP server accepts (total, most open at once),
// requests by method and per connection, printed on stderr 300 ms after the last change
// (CONNCOUNT_TIMES=1: also when, relative to the first request, each kind of request arrived: p0/p50/p100 ms).
import http from "node:http"
import { performance } from "node:perf_hooks"
let total = 0, open = 0, maxOpen = 0, requests = 0
const byMethod = new Map()
const times = new Map()
let t0 = -1
let timer
const report = () => {
  clearTimeout(timer)
  timer = setTimeout(() => {
    const q = (a, p) => a.length === 0 ? "-" : a[Math.min(a.length - 1, Math.floor(p * a.length))].toFixed(0)
    const t = process.env.CONNCOUNT_TIMES === "1"
      ? " " + [...times].map(([k, a]) => `${k}@${q(a, 0)}/${q(a, 0.5)}/${q(a, 1)}ms`).join(" ")
      : ""
    process.stderr.write(`[conncount ${process.pid}] connections=${total} (max open ${maxOpen}, open ${open}) requests=${requests} (${(requests / Math.max(1, total)).toFixed(2)}/conn) ${[...byMethod].map(([k, v]) => `${k}=${v}`).join(" ")}${t}\n`)
  }, 300)
  timer.unref()
}
const emit = http.Server.prototype.emit
http.Server.prototype.emit = function (event, ...args) {
  if (event === "connection") {
    total++; open++; maxOpen = Math.max(maxOpen, open)
    args[0].once("close", () => { open--; report() })
    report()
  } else if (event === "request") {
    requests++
    const req = args[0]
    const k = req.method === "POST" ? `POST${req.headers["mcp-session-id"] === undefined ? "-init" : ""}` : req.method
    byMethod.set(k, (byMethod.get(k) ?? 0) + 1)
    const now = performance.now()
    if (t0 < 0) t0 = now
    if (!times.has(k)) times.set(k, [])
    times.get(k).push(now - t0)
    report()
  }
  return emit.call(this, event, ...args)
}
