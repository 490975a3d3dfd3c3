#!/bin/sh
# Bytes allocated per sequential echo call of a stdio server bundle, by function: two sampled heap profiles
# (heapsample.mjs) of runs driven by drive.mjs (END=1) with 5,000 warm-up calls and N1 / N2 counted, diffed.
#   sh heapserver.sh BUNDLE_DIR [N1] [N2] [top]      (HEAPSAMPLE_INTERVAL=512 for finer numbers)
set -e
here=$(cd "$(dirname "$0")" && pwd)
b=$1; n1=${2:-2000}; n2=${3:-12000}; top=${4:-25}
dir=$(mktemp -d /tmp/heapserver-XXXX)
for n in $n1 $n2; do
  END=1 WARM=5000 node "$here/drive.mjs" $n -- env HEAPSAMPLE_OUT=$dir/h$n node --import "$here/../../packages/bench/scripts/heapsample.mjs" "$b/serverOurs.js" --stdio > /dev/null
  sleep 1
done
node "$here/heapsamplediff.mjs" $dir/h$n1-*.heapprofile $dir/h$n2-*.heapprofile $((n2 - n1)) $top
