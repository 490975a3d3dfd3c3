#!/bin/sh
# Bytes allocated per call of a cgclient build (ours|official|floor), by function: two sampled heap profiles
# (heapsample.mjs) of runs with 5,000 warm-up calls and N1 / N2 counted, diffed by heapsamplediff.mjs.
#   sh heapclient.sh out-main/cgclient.js ours [N1] [N2] [top]
set -e
here=$(cd "$(dirname "$0")" && pwd)
client=$1; impl=$2; n1=${3:-2000}; n2=${4:-12000}; top=${5:-25}
dir=$(mktemp -d /tmp/heapclient-XXXX)
for n in $n1 $n2; do
  printf 'go\ngo\n' | HEAPSAMPLE_OUT=$dir/h$n node --import "$here/../../packages/bench/scripts/heapsample.mjs" "$here/$client" "$impl" 5000 $n 1 -- node "$here/../../packages/bench/bundle/serverFloor.js" --stdio > /dev/null
done
node "$here/heapsamplediff.mjs" $dir/h$n1-*.heapprofile $dir/h$n2-*.heapprofile $((n2 - n1)) $top
