// `node --import snapmid.mjs server.js`: on SIGUSR2, writes a heap snapshot from inside the server's work
// rather than between macrotasks (where `--heapsnapshot-signal` takes it, when a batch of requests is over):
// at the SNAPMID_AT-th `JSON.parse` after the signal (default 32: half-way through a batch of 64 requests),
// to SNAPMID_OUT (default ./mid-<pid>-<k>.heapsnapshot). What a scavenge during the batch finds alive.
import * as v8 from "node:v8"
const at = Number(process.env.SNAPMID_AT ?? 32)
const out = process.env.SNAPMID_OUT ?? "."
// SNAPMID_FN=stringify: at the k-th `JSON.stringify` instead (an answer written: later in a batch's work)
const fn = process.env.SNAPMID_FN ?? "parse"
const original = JSON[fn]
let countdown = -1
let k = 0
JSON[fn] = function (value, arg, space) {
  if (countdown > 0 && --countdown === 0) {
    countdown = -1
    v8.writeHeapSnapshot(`${out}/mid-${process.pid}-${++k}.heapsnapshot`)
  }
  return original(value, arg, space)
}
process.on("SIGUSR2", () => {
  countdown = at
})
// SIGUSR1... is the inspector's: SIGWINCH writes one at once, between macrotasks (the idle reference)
process.on("SIGWINCH", () => v8.writeHeapSnapshot(`${out}/idle-${process.pid}-${++k}.heapsnapshot`))
