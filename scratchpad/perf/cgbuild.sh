#!/usr/bin/env bash
# Bundles the bench servers of commit $1 into packages/bench/bundle-$1 of this worktree, for cgserver.mjs
# (bisecting by instruction counts). Uses a detached worktree at $BISECT (default /work/wt/perf-bisect) whose
# node_modules are this worktree's (symlinked/copied once). The SSE fast-path window is made settable
# (BENCH_SSE_FAST_PATH_MS) in old servers too: under valgrind a call takes longer than its 20 ms default.
set -euo pipefail
sha=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
bisect=${BISECT:-/work/wt/perf-bisect}
[ -d "$bisect" ] || git -C "$here" worktree add --detach "$bisect" "$sha"
cd "$bisect"
git checkout -q --force --detach "$sha"
if [ ! -L node_modules ]; then
  rm -rf node_modules packages/*/node_modules
  ln -s "$here/node_modules" node_modules
  for p in bench mcp node; do cp -a "$here/packages/$p/node_modules" "packages/$p/"; done
fi
sed -i 's|NodeStreamableHttp.layer({ port: 0,|NodeStreamableHttp.layer({ port: 0, ...(process.env.BENCH_SSE_FAST_PATH_MS ? { sseFastPath: Number(process.env.BENCH_SSE_FAST_PATH_MS) } : {}),|' packages/bench/src/serverOurs.ts
grep -q BENCH_SSE_FAST_PATH_MS packages/bench/src/serverOurs.ts
(cd packages/bench && node scripts/bundle.mjs)
git checkout -q -- packages/bench/src/serverOurs.ts
rm -rf "$here/packages/bench/bundle-$sha"
cp -r packages/bench/bundle "$here/packages/bench/bundle-$sha"
echo "$here/packages/bench/bundle-$sha"
