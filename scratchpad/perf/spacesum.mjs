// node spacesum.mjs PID...: one line per spaces.mjs dump of each process (/tmp/spaces-PID-k.json): RSS, V8 spaces'
// physical size (new, old, code, large objects) and RSS by mapping kind, MiB
import fs from "node:fs"
const M = (x) => (x / 1048576).toFixed(1)
for (const pid of process.argv.slice(2)) {
  for (let k = 0; fs.existsSync(`/tmp/spaces-${pid}-${k}.json`); k++) {
    const d = JSON.parse(fs.readFileSync(`/tmp/spaces-${pid}-${k}.json`))
    const sp = (n, f = "physical_space_size") => M(d.spaces.find((s) => s.space_name === n)?.[f] ?? 0)
    const sm = (n) => M(d.smaps[n] ?? 0)
    console.log(`${pid}-${k} rss ${M(d.memory.rss)} new ${sp("new_space")}/${sp("new_space", "space_size")} old ${sp("old_space")} code ${sp("code_space")} lo ${sp("large_object_space")} | v8pages ${sm("anon 256K (V8 page)")} anon ${sm("anon other")} arena ${sm("anon 64M (malloc arena)")} heap ${sm("[heap]")} node ${sm("/usr/bin/node")}`)
  }
}
