/**
 * A preload for the HTTP servers of the sessions workload (`node --import
 * bundle/wireCheck.js server.js`), whichever program and commit they are: what
 * the server answered on the wire, so that `run.ts` can tell that the sessions
 * phase measured open sessions (a client speaking the stateless 2026-07-28
 * revision, one whose standing GETs are refused, or sessions the server closed
 * would measure nearly nothing per "session"). Counts the sessions the server
 * handed out (a 200 with `mcp-session-id` to a POST that had none: an
 * `initialize`) and the most standing GETs it held at once (a GET of a session
 * answered 200 and not closed). Writes them as JSON to `BENCH_WIRE_FILE` at most
 * 100 ms after they change, and at once when one reaches `BENCH_WIRE_EXPECT`.
 *
 * Patches `ServerResponse.prototype.writeHead` (every server here answers through
 * it) with no closure per request, so that the phase's memory per session is not
 * the check's.
 *
 * @since 0.1.0
 */
import * as fs from "node:fs"
import * as http from "node:http"

/**
 * What the preload writes.
 *
 * @since 0.1.0
 * @category model
 */
export interface WireCounts {
  /** 200 answers with an `mcp-session-id` to POSTs without one. */
  readonly sessions: number
  /** Standing GETs answered 200 and open at the same time, at most. */
  readonly maxHeldGets: number
}

const file = process.env.BENCH_WIRE_FILE
if (file !== undefined && file !== "") {
  let sessions = 0
  let held = 0
  let maxHeldGets = 0
  const expected = Number(process.env.BENCH_WIRE_EXPECT ?? Infinity)
  let timer: ReturnType<typeof setTimeout> | undefined
  const write = () => {
    const counts: WireCounts = { sessions, maxHeldGets }
    // whole or not at all, were the server stopped in the middle
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(counts))
    fs.renameSync(`${file}.tmp`, file)
  }
  // at once when a count reaches BENCH_WIRE_EXPECT, else at most 100 ms after any change (not
  // after 100 ms without one: a busy server may have none until it is stopped)
  const changed = () => {
    if (sessions === expected || maxHeldGets === expected) return write()
    if (timer !== undefined) return
    timer = setTimeout(() => {
      timer = undefined
      write()
    }, 100)
    timer.unref()
  }
  const sessionHeader = (headers: unknown): boolean => {
    if (Array.isArray(headers)) {
      for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === "mcp-session-id") return true
      return false
    }
    if (typeof headers === "object" && headers !== null) {
      for (const key of Object.keys(headers)) if (key.toLowerCase() === "mcp-session-id") return true
    }
    return false
  }
  function closed(this: http.ServerResponse) {
    held--
    changed()
  }
  const writeHead = http.ServerResponse.prototype.writeHead as (...args: Array<unknown>) => http.ServerResponse
  http.ServerResponse.prototype.writeHead = function(this: http.ServerResponse, ...args: Array<unknown>) {
    const status = args[0]
    const request = this.req
    if (status === 200 && request !== undefined && request.headers["mcp-session-id"] === undefined) {
      if (request.method === "POST" && (sessionHeader(typeof args[1] === "string" ? args[2] : args[1]) || this.hasHeader("mcp-session-id"))) {
        sessions++
        changed()
      }
    } else if (status === 200 && request?.method === "GET") {
      held++
      maxHeldGets = Math.max(maxHeldGets, held)
      this.once("close", closed)
      changed()
    }
    return writeHead.apply(this, args)
  } as typeof http.ServerResponse.prototype.writeHead
}
