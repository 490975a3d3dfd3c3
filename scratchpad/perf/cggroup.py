# Self instructions per call grouped by where they go (Effect's run loop, megamorphic ICs, Map builtins, JSON,
# the collector, Node streams, our code, ...), from cgjit.py's naming: python3 cggroup.py callgrind.out.PID.1 /tmp/perf-PID.map calls
import re, subprocess, sys
here = __file__.rsplit("/", 1)[0]
out = subprocess.run(["python3", f"{here}/cgjit.py", sys.argv[1], sys.argv[2], sys.argv[3], "1000000"], capture_output=True, text=True).stdout.splitlines()[1:]
groups = {}
for l in out:
    m = re.match(r"\s*([\d.]+)\s+[\d.]+%\s+(.*)", l)
    if not m: continue
    v = float(m.group(1)); k = m.group(2)
    if k.startswith("JS "):
        if "effect/dist" in k: g = "js: effect " + re.search(r"effect/dist/esm/(?:internal/)?(\w+)", k).group(1)
        elif "node:" in k: g = "js: node " + re.search(r"node:(?:internal/)?(\S+?):", k).group(1)
        elif "@modelcontextprotocol" in k or "zod" in k: g = "js: official sdk / zod"
        else: g = "js: ours (bundle)"
    elif any(w in k for w in ("Scaveng", "ObjectCache", "Heap", "Mark", "Sweep", "RootScavenge", "Evacuat", "GCTracer")): g = "gc"
    elif "compiler::" in k or "maglev" in k.lower() or "Zone" in k: g = "jit compiler"
    elif "Json" in k: g = "json parse/stringify"
    elif k.startswith("Builtins_") and ("Map" in k or "HashMap" in k or "HashSet" in k): g = "builtins: Map/Set"
    elif "Megamorphic" in k: g = "builtins: megamorphic IC"
    elif k.startswith("Builtins_"): g = "builtins: other"
    elif "OrderedHash" in k: g = "builtins: Map/Set"
    else: g = "c++/libc: other (objects, strings, node, libuv)"
    groups[g] = groups.get(g, 0) + v
top = sorted(groups.items(), key=lambda x: -x[1])
print(f"total {sum(groups.values()):.1f} kIr per call")
for g, v in top[:24]: print(f"{v:7.1f}  {g}")
