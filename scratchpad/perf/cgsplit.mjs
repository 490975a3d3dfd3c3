// Splits a callgrind dump of a node process (cgserver.mjs with CG_OUT=dir) by what the instructions were
// spent on: the collector, JIT compilation, and the rest (builtins, JIT code, V8's runtime, libc, node).
// The collector and the compiler are what make two runs of the same server differ by ±30% (a major GC
// or a round of optimisation falls in the counted window or not); the rest is the program's own work,
// steady within a few per cent. Per call: node cgsplit.mjs dir/callgrind.out.<pid>.1 calls
import { execFileSync } from "node:child_process"

const [file, calls] = process.argv.slice(2)
const text = execFileSync("callgrind_annotate", ["--inclusive=no", "--threshold=100", file], {
  encoding: "utf8",
  maxBuffer: 256 * 1024 * 1024
})
const COMPILE = /compiler::|maglev|Maglev|turboshaft|Parser|Compiler|Scanner|AstNode|BytecodeGenerator|interpreter::Bytecode|CompileLazy|Zone::|Deoptimiz|Typer|RegisterAlloc|InstructionSelector|Assembler|CodeGenerator|SharedFunctionInfo::|Scope::|Deserial/
const GC = /Scaveng|MarkCompact|Heap::|Sweep|Marking|Evacuat|GCTracer|MemoryAllocator|SemiSpace|NewSpace|PagedSpace|RememberedSet|SlotSet|MinorMC|IterateObjectCache|RootScavenge|VisitRoot|Visitor|MemoryChunk|LargeObject|GlobalHandles|heap::base|cppgc|WeakObjects/
let total = 0
const by = new Map()
for (const line of text.split("\n")) {
  const m = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(line)
  if (m === null) continue
  const ir = Number(m[1].replaceAll(",", ""))
  const name = m[2]
  if (name.includes("PROGRAM TOTALS")) {
    total = ir
    continue
  }
  // the frames below the event loop carry the whole run (JIT frames are unnamed): not a cost of their own
  if (total > 0 && ir >= 0.99 * total) continue
  const kind = COMPILE.test(name)
    ? "compile"
    : GC.test(name) || /Heap/.test(name)
    ? "gc"
    : name.includes("Builtins_")
    ? "builtins"
    : /^\?\?\?:0x[0-9a-f]+/.test(name) && name.includes("[???]")
    ? "jit code"
    : /libc\.so|ld-linux|libstdc/.test(name)
    ? "libc"
    : name.includes("v8::")
    ? "v8 runtime"
    : "node, other"
  by.set(kind, (by.get(kind) ?? 0) + ir)
}
const per = (ir) => (ir / Number(calls) / 1e3).toFixed(1)
const work = total - (by.get("gc") ?? 0) - (by.get("compile") ?? 0)
console.log(`${per(total)} kIr per call; without the collector and the compiler: ${per(work)}`)
for (const [kind, ir] of [...by].sort((a, b) => b[1] - a[1])) console.log(`  ${kind.padEnd(12)} ${per(ir).padStart(8)}`)
