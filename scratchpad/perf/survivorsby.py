# A heapsurvivors.mjs profile split by whose code allocated what survived: under a frame of the bench's
# bundle (by file, innermost bundle frame), under npm code only, or node's own (module loader: source
# text decoding, module records). `python3 survivorsby.py file.heapprofile [chunk-XXXX.js]`: with a file,
# that file's share by function instead.
import collections, json, sys
profile = json.load(open(sys.argv[1])); target = sys.argv[2] if len(sys.argv) > 2 else None
by = collections.Counter()
def walk(node, ours, npm):
    frame = node["callFrame"]; url = frame["url"]
    if "bundle" in url and "node_modules" not in url:
        ours = (frame["functionName"] or "(top)", frame["lineNumber"] + 1) if target and url.endswith(target) else (None if target else url.split("/")[-1])
    if "node_modules" in url: npm = True
    size = node.get("selfSize", 0)
    if size:
        if target: 
            if ours: by[ours] += size
        else: by[ours or ("npm" if npm else "node (loader, encoding)")] += size
    for child in node.get("children", []): walk(child, ours, npm)
walk(profile["head"], None, False)
for key, size in by.most_common(25): print(f"{size / 1048576:7.2f} MiB  {key}")
