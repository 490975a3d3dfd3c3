// Preload (`node --import heapsurvivors.mjs …`): the heap sampler of packages/bench/scripts/heapsample.mjs
// with the objects the young generation's collector frees left out (includeObjectsCollectedByMinorGC:
// false), so that what remains is what survived a scavenge (promoted: the scavenger's copying work and
// the old space's growth) plus what is alive at the end. Writes <HEAPSAMPLE_OUT or ./survivors>-<pid>.heapprofile
// at exit; `heapsamplediff.mjs` of two runs differing in calls gives bytes surviving per call, by allocation site.
import * as fs from "node:fs"
import { Session } from "node:inspector"

const session = new Session()
session.connect()
session.post("HeapProfiler.enable")
session.post("HeapProfiler.startSampling", {
  samplingInterval: Number(process.env.HEAPSAMPLE_INTERVAL ?? 1024),
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: false
})
process.on("exit", () => {
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) return
    fs.writeFileSync(`${process.env.HEAPSAMPLE_OUT ?? "survivors"}-${process.pid}.heapprofile`, JSON.stringify(result.profile))
  })
})
