// node --expose-gc --import ./spaces.mjs server.js: every second call of `gc()` (the bench's stats tool
// collects twice, then reads memoryUsage) writes V8's heap spaces and the RSS by mapping kind to
// /tmp/spaces-<pid>-<k>.json; `spacesdiff.mjs a b n` prints what changed per session. SIGUSR2 too.
import v8 from "node:v8"
import fs from "node:fs"
let k = 0
const smaps = () => {
  const out = {}
  let cur
  for (const l of fs.readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(l)
    if (m) {
      const size = (parseInt(m[2], 16) - parseInt(m[1], 16)) / 1024
      cur = m[3] || (size === 256 ? "anon 256K (V8 page)" : size >= 60000 ? "anon 64M (malloc arena)" : "anon other")
      continue
    }
    const r = /^Rss:\s+(\d+) kB/.exec(l)
    if (r && cur) out[cur] = (out[cur] ?? 0) + Number(r[1]) * 1024
  }
  return out
}
const dump = () => fs.writeFileSync(`/tmp/spaces-${process.pid}-${k++}.json`, JSON.stringify({ memory: process.memoryUsage(), spaces: v8.getHeapSpaceStatistics(), smaps: smaps() }))
process.on("SIGUSR2", dump)
const gc = globalThis.gc
if (typeof gc === "function") {
  let calls = 0
  globalThis.gc = (...args) => { const r = gc(...args); if (++calls % 2 === 0) dump(); return r }
}
