// node spacesdiff.mjs /tmp/spaces-PID-a.json /tmp/spaces-PID-b.json N: per-session change of each heap space (used,
// committed, physical) and of RSS by mapping kind, between two dumps of spaces.mjs
import fs from "node:fs"
const [a, b, n] = [JSON.parse(fs.readFileSync(process.argv[2])), JSON.parse(fs.readFileSync(process.argv[3])), Number(process.argv[4] ?? 1)]
const k = (x) => (x / n / 1024).toFixed(1)
console.log(`rss ${k(b.memory.rss - a.memory.rss)} heapUsed ${k(b.memory.heapUsed - a.memory.heapUsed)} heapTotal ${k(b.memory.heapTotal - a.memory.heapTotal)} external ${k(b.memory.external - a.memory.external)} KiB/session`)
for (const s of a.spaces) {
  const t = b.spaces.find((x) => x.space_name === s.space_name)
  if (t.physical_space_size === s.physical_space_size && t.space_used_size === s.space_used_size) continue
  console.log(`  ${s.space_name}: used ${k(t.space_used_size - s.space_used_size)} committed ${k(t.space_size - s.space_size)} physical ${k(t.physical_space_size - s.physical_space_size)} (physical ${(s.physical_space_size / 1048576).toFixed(1)} -> ${(t.physical_space_size / 1048576).toFixed(1)} MiB)`)
}
for (const m of new Set([...Object.keys(a.smaps), ...Object.keys(b.smaps)])) {
  const d = (b.smaps[m] ?? 0) - (a.smaps[m] ?? 0)
  if (Math.abs(d) >= 65536) console.log(`  rss ${m}: ${k(d)}`)
}
