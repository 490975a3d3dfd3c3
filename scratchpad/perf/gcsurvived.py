# Sums what survived each scavenge (promoted + new_space_survived) in a `node --trace-gc-nvp` log, with a
# running total: V8 doubles the semi-space (1 -> 2 -> 4 -> 8 -> 16 MiB) each time the bytes survived since
# the last growth exceed its capacity.   python3 gcsurvived.py log [--quiet]
import re, sys
total = 0; n = 0
for line in open(sys.argv[1]):
    m = re.search(r"(\d+) ms: .*gc=(\w+) .*promoted=(\d+) new_space_survived=(\d+)", line)
    if not m or m.group(2) != "s": continue
    p, s = int(m.group(3)), int(m.group(4))
    total += p + s; n += 1
    if "--quiet" not in sys.argv:
        print(f"{m.group(1)} ms  promoted {p / 1048576:.2f}  survived {s / 1048576:.2f}  total {total / 1048576:.1f} MiB")
print(f"{n} scavenges, {total / 1048576:.1f} MiB survived in all")
