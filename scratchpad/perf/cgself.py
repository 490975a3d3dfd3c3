# Self cost (Ir) by function from a callgrind.out file, which callgrind_annotate fails to split for node
# (JIT frames): python3 cgself.py callgrind.out.PID.1 [calls] [top]
import re, sys
path = sys.argv[1]
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 1
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
names = {}
selfc = {}
fn = None
after_calls = False
total = 0
for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("fn="):
        m = re.match(r"fn=\((\d+)\)(?: (.*))?", line)
        if m.group(2) is not None: names[m.group(1)] = m.group(2)
        fn = names.get(m.group(1), m.group(1))
        continue
    if line.startswith(("cfn=", "cfi=", "cfl=", "cob=")):
        m = re.match(r"c(fn|fi|fl|ob)=\((\d+)\)(?: (.*))?", line)
        if m and m.group(1) == "fn" and m.group(3) is not None: names[m.group(2)] = m.group(3)
        continue
    if line.startswith("calls="):
        after_calls = True
        continue
    if line and (line[0].isdigit() or line[0] in "+-*"):
        parts = line.split()
        if len(parts) >= 2:
            c = int(parts[1])
            if after_calls:
                after_calls = False
            else:
                selfc[fn] = selfc.get(fn, 0) + c
                total += c
        continue
    if line.startswith(("fl=", "fi=", "fe=", "ob=")):
        m = re.match(r"(fl|fi|fe|ob)=\((\d+)\)(?: (.*))?", line)
        continue
def category(k):
    k = k or "?"
    if "compiler::" in k or "maglev::" in k or "Maglev" in k or "TurboFan" in k or "Zone" in k and "v8::internal" in k: return "jit-compiler"
    if any(w in k for w in ("Scavenger", "Scavenge", "MarkCompact", "Heap::", "heap::", "Marking", "Sweeper", "GCTracer", "ConcurrentMarking", "IteratePointers", "MemoryChunk", "PagedSpace", "NewSpace", "SemiSpace", "Evacuat")): return "gc"
    if "_Baseline" in k or "Baseline" in k or "Interpreter" in k or "BytecodeHandler" in k or "Ignition" in k or k.startswith("Builtins_") and ("Handler" in k): return "builtin-baseline/interp"
    if k.startswith("Builtins_"): return "builtin"
    if k.startswith("0x"): return "jit-code"
    if "v8::internal::Runtime_" in k or "Runtime_" in k: return "runtime"
    if "libc" in k or k.startswith("_int_") or k.startswith("__") or k in ("malloc", "free"): return "libc"
    return "other-c++"
cats = {}
for k, v in selfc.items():
    c = category(k)
    cats[c] = cats.get(c, 0) + v
print(f"total self {total/calls/1e3:.1f} kIr per call; by category: " + ", ".join(f"{c} {v/calls/1e3:.1f}" for c, v in sorted(cats.items(), key=lambda kv: -kv[1])))
for k, v in sorted(selfc.items(), key=lambda kv: -kv[1])[:top]:
    print(f"{v/calls/1e3:8.1f}  {v/total*100:5.1f}%  {k[:150]}")
