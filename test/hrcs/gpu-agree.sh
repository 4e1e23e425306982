#!/bin/sh
# gpu-agree.sh BIN DIR: the GPU backend against the CPU backend on a few
# segments (same cases), and the binary32 brute force on one binade. Exits
# 77 (ctest: skipped) with the reason when no GPU can be used.
bin=$1; dir=$2
rm -rf "$dir"; mkdir -p "$dir"
if ! "$bin" --function exp --domain 1,0x1.0001p0 --arg-precision 24 --backend gpu \
     -o "$dir/probe" --quiet > "$dir/probe.txt" 2>&1; then
  echo "skipped: the GPU backend cannot run here: $(tail -1 "$dir/probe.txt")"; exit 77
fi
cases() { grep -v '^#' "$1" | cut -d' ' -f1 | sort; }
status=0
for spec in "exp 0x1.5p0,0x1.5000001p0 53 54 0x1p-18" "log 0x1.3p7,0x1.3000001p7 53 54 0x1p-18" \
            "sin 1.5,0x1.9p0 24 25 0x1p-10" "cos 0x1.8p-3,0x1.9p-3 24 25 0x1p-10" \
            "exp2 -0x1.0000000008p4,-16 64 64 0x1p-20"; do
  set -- $spec
  for b in cpu gpu; do
    "$bin" --function $1 --domain $2 --arg-precision $3 --precision $4 --epsilon $5 \
      --backend $b -o "$dir/$1-$b" --quiet > /dev/null || status=1
  done
  if [ "$(cases "$dir/$1-cpu/$1.wc")" = "$(cases "$dir/$1-gpu/$1.wc")" ]; then
    echo "$1 [$2): $(cases "$dir/$1-gpu/$1.wc" | wc -l) cases, CPU == GPU"
  else
    echo "$1 [$2): CPU != GPU"; status=1
  fi
done
"$bin" --function log --domain 1,2 --arg-precision 24 --precision 25 --epsilon 0x1p-12 \
  --backend gpu --check-gpu -o "$dir/brute" --quiet | grep check || status=1
exit $status
