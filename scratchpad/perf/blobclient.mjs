// Peak RSS of a bench client (`bundle*/client.js`) on blob calls over HTTP, against a server started here:
// the bench's blob1/blob16 units as one client process (50 warm-up echo calls, then N blob calls of B bytes).
//   node blobclient.mjs CLIENT_DIR SERVER_DIR [sse|json] [B=16777216] [N=2]
// e.g. from packages/bench: node ../../scratchpad/perf/blobclient.mjs bundle bundle-c68fff3 sse
// Prints the client's peak RSS, its RSS (after GC) before the blob phase and the difference, in MiB.
import { fork, spawn } from "node:child_process"
import * as path from "node:path"
const [clientDir, serverDir, transport = "sse", bytes = String(16 * 1024 * 1024), n = "2"] = process.argv.slice(2)
const server = spawn(process.execPath, ["--expose-gc", path.join(serverDir, "serverOurs.js"), "--http", ...(transport === "json" ? ["--json"] : [])], {
  stdio: ["ignore", "pipe", "inherit"]
})
const url = await new Promise((resolve) => {
  let text = ""
  server.stdout.on("data", (d) => {
    text += d
    const m = /LISTENING (\d+)\n/.exec(text)
    if (m) resolve(`http://127.0.0.1:${m[1]}/mcp`)
  })
})
const spec = {
  impl: "ours",
  transport,
  url,
  maxMessageBytes: 64 * 1024 * 1024,
  phases: [{ kind: "warmup", n: 50 }, { kind: "blob", n: Number(n), bytes: Number(bytes) }]
}
const report = await new Promise((resolve) => {
  const child = fork(path.join(clientDir, "client.js"), [JSON.stringify(spec)], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] })
  child.on("message", resolve)
})
server.kill()
const blob = report.phases?.find((p) => p.kind === "blob")
if (!blob || blob.error) {
  console.log("failed", JSON.stringify(report).slice(0, 500))
  process.exit(1)
}
const MiB = 1024 * 1024
console.log(
  `client ${clientDir} vs server ${serverDir} (${transport}, ${n}x ${bytes} B): peak RSS ${(blob.clientMaxRss / MiB).toFixed(1)} MiB,` +
    ` before ${(blob.clientRssBefore / MiB).toFixed(1)}, peak - before ${((blob.clientMaxRss - blob.clientRssBefore) / MiB).toFixed(1)}`
)
