// node --allow-natives-syntax --import ./yg.mjs server.js: defines globalThis.__yg(label, object), which counts how many
// of the objects given under each label V8 made outside its young generation (%InYoungGeneration), printed on stderr
// every 20,000 checks. Patch a copy of a bundle to call it right where an object is made (e.g. after
// `const incoming = ...` in the engine's chunk): a label near n/n old is an allocation site V8 pretenured (only
// optimized code pretenures; a class instance made with `new` has no allocation site).
const counts = {}
let n = 0
globalThis.__yg = (label, o) => {
  if (o === null || (typeof o !== "object" && typeof o !== "function")) return
  const c = (counts[label] ??= [0, 0])
  c[0]++
  if (!%InYoungGeneration(o)) c[1]++
  if (++n % 20000 === 0) {
    process.stderr.write(`yg ${n}: ${Object.entries(counts).map(([k, [t, old]]) => `${k} ${old}/${t}`).join(", ")}\n`)
    for (const k in counts) counts[k] = [0, 0]
  }
}
