# Inclusive cost of calls into functions matching a pattern, by caller: python3 cgcallers.py file calls pattern
import re, sys
path, calls, pat = sys.argv[1], int(sys.argv[2]), re.compile(sys.argv[3])
names = {}
fn = None; cfn = None; pending = False
by = {}
for line in open(path, errors="replace"):
    line = line.rstrip("\n")
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3) is not None: names[m.group(2)] = m.group(3)
        if m.group(1) == "fn": fn = names.get(m.group(2))
        else: cfn = names.get(m.group(2))
        continue
    if line.startswith("calls="): pending = True; continue
    if pending:
        pending = False
        parts = line.split()
        if cfn and pat.search(cfn) and not (fn and pat.search(fn)):
            k = (fn or "?")[:90] + "  ->  " + cfn[:70]
            by[k] = by.get(k, 0) + int(parts[1])
tot = sum(by.values())
print(f"{tot/calls/1e3:.1f} kIr per call into /{sys.argv[3]}/")
for k, v in sorted(by.items(), key=lambda kv: -kv[1])[:25]: print(f"{v/calls/1e3:8.1f}  {k}")
