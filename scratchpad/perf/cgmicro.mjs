// Instructions per call of small functions, counted by callgrind from inside: each case runs N times to warm up,
// then N times between `callgrind_control -z` and `-d <case>` (the spawn of callgrind_control is counted too: compare
// cases, not absolutes). valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p node --single-threaded cgmicro.mjs ./cases.mjs N
// cases.mjs exports `cases`, an object of functions (bundle it with esbuild from TypeScript).
import { execFileSync } from "node:child_process"
const mod = await import(process.argv[2])
const N = Number(process.argv[3] ?? 20000)
for (const [label, f] of Object.entries(mod.cases)) {
  for (let i = 0; i < N; i++) f()
  execFileSync("callgrind_control", ["-z", String(process.pid)], { stdio: "ignore" })
  for (let i = 0; i < N; i++) f()
  execFileSync("callgrind_control", ["-d", label, String(process.pid)], { stdio: "ignore" })
}
