#!/usr/bin/env bash
# lock-wait.sh DIR COMMAND...: holds DIR's lock (flock, as OutputFiles does)
# for 3 s and runs COMMAND meanwhile; prints "waited" when COMMAND finished
# only after the lock was released (it committed under the lock), else
# "did not wait" and the time it took.
set -u
dir=$1; shift
flock "$dir" sleep 3 &
holder=$!
sleep 0.5
start=$(date +%s%N)
"$@" || { echo "command failed"; wait $holder; exit 1; }
end=$(date +%s%N)
wait $holder
ms=$(( (end - start) / 1000000 ))
if [ $ms -ge 2300 ]; then echo waited; else echo "did not wait: $ms ms"; fi
