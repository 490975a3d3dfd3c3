#!/bin/bash
# A copy of a bench bundle directory that loads effect with `effect/FastCheck` stubbed out (`export {}`):
# what effect/Schema's static fast-check import costs a running server (compare with blobpeak(stdio).mjs).
#   scratchpad/perf/fcstub.sh packages/bench/bundle packages/bench/bundle-fc
# effect and @effect/platform (with its dependencies) are copied into OUT/node_modules, which node finds
# before packages/bench/node_modules; nothing else changes (check with imports.mjs: no fast-check modules).
set -e
SRC=$1; OUT=$2
BENCH=$(dirname "$0")/../../packages/bench
rm -rf "$OUT"; cp -r "$SRC" "$OUT"; mkdir -p "$OUT/node_modules/@effect"
cp -rL "$BENCH/node_modules/effect" "$OUT/node_modules/effect"
echo 'export {}' > "$OUT/node_modules/effect/dist/esm/FastCheck.js"
cp -rL "$BENCH/node_modules/@effect/platform" "$OUT/node_modules/@effect/platform"
DEPS=$(readlink -f "$BENCH/node_modules/@effect/platform")/../..
for d in find-my-way-ts msgpackr multipasta; do cp -rL "$DEPS/$d" "$OUT/node_modules/"; done
echo "$OUT/serverOurs.js"
