// A preload for an HTTP server (`node --import ./wirecount.mjs server.js`, or through NODE_OPTIONS for a
// whole bench run: client processes create no server, so it does nothing there): counts on the wire what
// the server answers, by method and status, the sessions it handed out (mcp-session-id on a 200 to an
// initialize POST), the GETs it holds open (200 sent, not ended), DELETEs, and the sockets it has open.
// Prints one line to stderr at most 150 ms after the counts change.
import http from "node:http"

const counts = new Map()
const sessions = new Set()
let heldGets = 0
let maxHeldGets = 0
let sockets = 0
let maxSockets = 0
let dirty = false
let timer
const bump = (key) => {
  counts.set(key, (counts.get(key) ?? 0) + 1)
  touch()
}
// at most 150 ms after a change (a busy server may never pause for 150 ms before it is stopped)
const touch = () => {
  dirty = true
  if (timer !== undefined) return
  timer = setTimeout(() => {
    timer = undefined
    report()
  }, 150)
  timer.unref()
}
const report = () => {
  if (!dirty) return
  dirty = false
  const byKey = [...counts].sort().map(([k, v]) => `${k}=${v}`).join(" ")
  process.stderr.write(
    `[wirecount ${process.pid}] sessions=${sessions.size} heldGETs=${heldGets} (max ${maxHeldGets}) sockets=${sockets} (max ${maxSockets}) ${byKey}\n`
  )
}

const emit = http.Server.prototype.emit
http.Server.prototype.emit = function(event, ...args) {
  if (event === "connection") {
    const socket = args[0]
    sockets++
    maxSockets = Math.max(maxSockets, sockets)
    touch()
    socket.once("close", () => {
      sockets--
      touch()
    })
  } else if (event === "request") {
    const [req, res] = args
    const method = req.method
    // WIRECOUNT_NOBODY=1: POSTs not read (a server that reads its body as a web stream, e.g. the official SDK's, breaks)
    let chunks = method === "POST" && process.env.WIRECOUNT_NOBODY !== "1" ? [] : undefined
    if (chunks) req.on("data", (d) => chunks.length < 4 && chunks.push(d))
    const writeHead = res.writeHead
    res.writeHead = function(status, ...rest) {
      res.__status = status
      const headers = typeof rest[0] === "string" ? rest[1] : rest[0]
      if (headers && !Array.isArray(headers)) {
        for (const k of Object.keys(headers)) if (k.toLowerCase() === "mcp-session-id") res.__sid = headers[k]
      } else if (Array.isArray(headers)) {
        for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === "mcp-session-id") res.__sid = headers[i + 1]
      }
      return writeHead.call(this, status, ...rest)
    }
    let held = false
    const onHead = () => {
      const status = res.__status ?? res.statusCode
      let what = method
      if (chunks) {
        const body = Buffer.concat(chunks).toString("utf8")
        const m = /"method"\s*:\s*"([^"]+)"/.exec(body)
        what = `POST:${m ? m[1] : "response"}`
        if (m?.[1] === "initialize" && status === 200) {
          const sid = res.__sid ?? res.getHeader("mcp-session-id")
          if (sid) sessions.add(String(sid))
        }
      }
      bump(`${what}:${status}`)
      if (method === "GET" && status === 200) {
        held = true
        heldGets++
        maxHeldGets = Math.max(maxHeldGets, heldGets)
      }
    }
    // headers leave with the first write or with end: hook both
    let seen = false
    const once = () => {
      if (!seen) {
        seen = true
        onHead()
      }
    }
    const write = res.write
    res.write = function(...a) {
      once()
      return write.apply(this, a)
    }
    const end = res.end
    res.end = function(...a) {
      once()
      return end.apply(this, a)
    }
    const flush = res.flushHeaders
    res.flushHeaders = function(...a) {
      once()
      return flush.apply(this, a)
    }
    res.once("close", () => {
      if (held) {
        heldGets--
        touch()
      }
    })
  }
  return emit.call(this, event, ...args)
}
