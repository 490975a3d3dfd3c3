// Who allocates through a function: bytes by caller chain (3 frames) for nodes whose function matches.
//   node heapparents.mjs file.heapprofile name [calls]
import * as fs from "node:fs"
const [file, name, calls = "1"] = process.argv.slice(2)
const norm = (url) => url.replace(/.*node_modules\//, "").replace(/.*\/bundle[^/]*\//, "").replace(/.*\/out[^/]*\//, "")
const by = new Map()
const walk = (n, stack) => {
  const k = `${n.callFrame.functionName || "(anon)"} ${norm(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
  const here = [...stack, k]
  if ((n.callFrame.functionName || "(anon)") === name && n.selfSize > 0) {
    const key = here.slice(-4, -1).reverse().join(" <- ")
    by.set(key, (by.get(key) ?? 0) + n.selfSize)
  }
  for (const c of n.children) walk(c, here)
}
walk(JSON.parse(fs.readFileSync(file, "utf8")).head, [])
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${(v / Number(calls)).toFixed(0).padStart(8)}  ${k}`)
