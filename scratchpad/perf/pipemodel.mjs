// A discrete-event model of a stdio pair at K in flight (no machine needed, so no load): two single-threaded
// processes joined by two pipes. A process that is idle with lines in its input pipe reads them all (cost R),
// handles them one by one (server: S per request; client: C per answer, which sends the next request), queues each
// output line, writes once LINES lines are queued (cost W per write; the lines reach the peer then) and writes the
// rest when the read's work is done. Prints calls/s and each process's busy share.
//   node pipemodel.mjs [C=47] [S=52] [W=3] [R=5] [CONC=64]     (µs; LINES is swept: 1 2 4 8 16 32 64 ∞)
const [C = 47, S = 52, W = 3, R = 5, CONC = 64] = process.argv.slice(2).map(Number)
const run = (lines, calls = 200_000) => {
  // each side: the time it is free again, the lines waiting in its input pipe (arrival times), busy time
  const side = (cost) => ({ cost, free: 0, input: [], busy: 0 })
  const client = side(C)
  const server = side(S)
  client.peer = server
  server.peer = client
  client.input = Array(CONC).fill(0) // the first CONC "answers" start the workers
  let done = -CONC
  let now = 0
  const step = (p) => {
    // read what has arrived by the time it is free (or wait for the first line)
    const start = Math.max(p.free, p.input[0])
    const batch = p.input.filter((t) => t <= start)
    p.input = p.input.slice(batch.length)
    let t = start + R
    let queued = 0
    const write = () => {
      t += W
      for (let i = 0; i < queued; i++) p.peer.input.push(t)
      queued = 0
    }
    for (let i = 0; i < batch.length; i++) {
      t += p.cost
      queued++
      if (p === client) done++
      if (queued >= lines) write()
    }
    if (queued > 0) write()
    p.peer.input.sort((a, b) => a - b)
    p.busy += t - start
    p.free = t
    now = Math.max(now, t)
  }
  let warm = 0
  let warmBusy
  while (done < calls) {
    // the side whose next read starts first goes next
    const next = [client, server].filter((p) => p.input.length > 0)
      .sort((a, b) => Math.max(a.free, a.input[0]) - Math.max(b.free, b.input[0]))[0]
    step(next)
    if (warmBusy === undefined && done >= calls / 10) {
      warm = now
      warmBusy = [client.busy, server.busy, done]
    }
  }
  const span = now - warm
  return {
    callsPerS: Math.round((done - warmBusy[2]) / span * 1e6),
    client: ((client.busy - warmBusy[0]) / span).toFixed(2),
    server: ((server.busy - warmBusy[1]) / span).toFixed(2)
  }
}
console.log(`C=${C} S=${S} W=${W} R=${R} µs, ${CONC} in flight`)
for (const lines of [1, 2, 4, 8, 16, 32, 64, Infinity]) {
  const r = run(lines)
  console.log(`lines per write ≤ ${String(lines).padStart(8)}: ${r.callsPerS} calls/s, client busy ${r.client}, server busy ${r.server}`)
}
