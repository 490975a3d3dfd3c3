# Self cost by function with JIT code named: a callgrind.out of a node run with --perf-basic-prof
# (its /tmp/perf-PID.map names the 0x... frames callgrind cannot), and which callers pay for a builtin.
#   python3 cgjit.py callgrind.out.PID.1 /tmp/perf-PID.map calls [top] [callee-regex]
# With a callee regex, prints the inclusive cost of calls into matching functions by (named) caller.
import bisect, re, sys
path, mapPath, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
top = int(sys.argv[4]) if len(sys.argv) > 4 else 50
callee = re.compile(sys.argv[5]) if len(sys.argv) > 5 else None
starts, ends, syms = [], [], []
rows = []
for line in open(mapPath, errors="replace"):
    parts = line.rstrip("\n").split(" ", 2)
    if len(parts) < 3: continue
    rows.append((int(parts[0], 16), int(parts[1], 16), parts[2]))
rows.sort()
for s, n, name in rows:
    starts.append(s); ends.append(s + n); syms.append(name)
def resolve(name):
    if name is None: return "?"
    m = re.match(r"0x([0-9a-fA-F]+)", name)
    if not m: return name
    a = int(m.group(1), 16)
    i = bisect.bisect_right(starts, a) - 1
    if i >= 0 and a < ends[i]: return "JS " + syms[i]
    return name
names = {}
selfc = {}
by = {}
fn = None; cfn = None; after = False
total = 0
for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3) is not None: names[m.group(2)] = m.group(3)
        if m.group(1) == "fn": fn = resolve(names.get(m.group(2), m.group(2)))
        else: cfn = resolve(names.get(m.group(2), m.group(2)))
        continue
    if line.startswith(("cfi=", "cfl=", "cob=")): continue
    if line.startswith("calls="): after = True; continue
    if line and (line[0].isdigit() or line[0] in "+-*"):
        parts = line.split()
        if len(parts) >= 2:
            c = int(parts[1])
            if after:
                after = False
                if callee is not None and cfn and callee.search(cfn) and not callee.search(fn or ""):
                    by[fn] = by.get(fn, 0) + c
            else:
                selfc[fn] = selfc.get(fn, 0) + c
                total += c
print(f"total self {total/calls/1e3:.1f} kIr per call")
if callee is None:
    for k, v in sorted(selfc.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{v/calls/1e3:8.2f}  {v/total*100:5.1f}%  {k[:160]}")
else:
    t = sum(by.values())
    print(f"{t/calls/1e3:.1f} kIr per call into /{sys.argv[5]}/ by caller")
    for k, v in sorted(by.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{v/calls/1e3:8.2f}  {k[:160]}")
