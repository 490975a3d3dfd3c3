// Peak RSS of a stdio server at start, after W echo calls and after N `blob` calls of B bytes, from its
// `stats` tool (the stdio twin of blobpeak.mjs).   node blobpeakstdio.mjs [W] [N] [B] -- node [flags] server.js --stdio
import { spawn } from "node:child_process"
import * as readline from "node:readline"
const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
const [W = "50", N = "5", B = String(1 << 20)] = argv.slice(0, sep)
const cmd = argv.slice(sep + 1)
const child = spawn(cmd[0], cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"] })
const waiting = new Map()
readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
  const msg = JSON.parse(line)
  if (msg.id !== undefined && waiting.has(msg.id)) { waiting.get(msg.id)(msg); waiting.delete(msg.id) }
})
let id = 0
const request = (method, params) => new Promise((resolve) => { const i = id++; waiting.set(i, resolve); child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: i, method, params }) + "\n") })
await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "p", version: "1" } })
child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
const call = (name, args) => request("tools/call", { name, arguments: args })
const stats = async () => JSON.parse((await call("stats", { gc: true })).result.content[0].text)
const s0 = await stats()
for (let i = 0; i < Number(W); i++) await call("echo", { text: "hello" })
const s1 = await stats()
for (let i = 0; i < Number(N); i++) await call("blob", { bytes: Number(B) })
const s2 = await stats()
const mib = (x) => (x / 1048576).toFixed(1)
console.log(`peak RSS: at start ${mib(s0.maxRss)}, after ${W} echo ${mib(s1.maxRss)}, after ${N} blobs ${mib(s2.maxRss)} MiB (rss after GC ${mib(s2.rss)}, heap ${mib(s2.heapUsed)})`)
child.kill(); process.exit(0)
