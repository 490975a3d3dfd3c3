/**
 * Preload (`node --import ./scripts/heapsample.mjs …`): samples allocations,
 * including objects that were already collected, and writes
 * `<HEAPSAMPLE_OUT or ./heap>-<pid>.heapprofile` when the process exits. Open it in
 * Chrome DevTools or summarize it with `scripts/topheap.mjs`.
 */
import * as fs from "node:fs"
import { Session } from "node:inspector"

const session = new Session()
session.connect()
session.post("HeapProfiler.enable")
session.post("HeapProfiler.startSampling", {
  samplingInterval: Number(process.env.HEAPSAMPLE_INTERVAL ?? 4096),
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true
})
process.on("exit", () => {
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) return
    fs.writeFileSync(`${process.env.HEAPSAMPLE_OUT ?? "heap"}-${process.pid}.heapprofile`, JSON.stringify(result.profile))
  })
})
