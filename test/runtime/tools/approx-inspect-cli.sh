#!/usr/bin/env bash
# approx-inspect-cli.sh - approx-inspect's command line without a GPU (ctest).
#
#   approx-inspect-cli.sh APPROX_INSPECT DATA_DIR WORK_DIR CASE
#
# Each CASE runs approx-inspect and checks its exit status and output, as
# approx-tune-cli.sh does:
#   fails RC REGEX CMD...   exits RC, stdout empty, stderr exactly one line
#                           matching the extended REGEX, and nothing written
#                           in WORK_DIR/CASE but the files the case made.
# The driver is forced absent (APPROX_CUDA_DRIVER_PATH names no file), so the
# cases behave the same on a GPU machine. The fixture databases of
# data/precision/ are foreign to every machine; --check reaches checkMachine
# only with a GPU, so here it stops at "no GPU" (exit 77) after the file was
# read and validated.
set -u
T=$1 D=$2 W=$3 CASE=$4
W="$W/$CASE"
rm -rf "$W" && mkdir -p "$W" || exit 2
export APPROX_CUDA_DRIVER_PATH=/nonexistent/libcuda.so.1
H100="$D/precision/h100-pcie5-xeon16.json"

# fails RC REGEX CMD...: cli-checks.sh.
source "$(dirname "${BASH_SOURCE[0]}")/cli-checks.sh"

case $CASE in
# --- usage (exit 1) -----------------------------------------------------------
help)
  "$T" --help >"$W/.out" 2>"$W/.err" || { echo "FAIL: --help exited $?"; exit 1; }
  for want in '--max-seconds S' '--check FILE' '--pairs LIST' 'Exit status'; do
    grep -q -- "$want" "$W/.out" || { echo "FAIL: --help lacks '$want'"; exit 1; }
  done
  [ -s "$W/.err" ] && { echo "FAIL: --help wrote to stderr"; exit 1; }
  echo "ok" ;;
no-output)
  fails 1 '^approx-inspect: no output: give -o FILE \(or --check FILE\) \(see approx-inspect --help\)$' "$T" ;;
unknown-option)
  fails 1 "^approx-inspect: The following argument was not expected: --frobnicate \(see approx-inspect --help\)$" \
    "$T" -o "$W/db.json" --frobnicate ;;
stray-argument)
  fails 1 "unexpected argument 'db.json' \(the database is named with -o FILE\)" "$T" db.json ;;
missing-value)
  fails 1 "^approx-inspect: --pairs: 1 required TEXT missing \(see approx-inspect --help\)$" "$T" -o "$W/db.json" --pairs ;;
pair-bad-type)
  fails 1 "^approx-inspect: --pairs: pair 'f64:f8': 'f8' is not a precision \(f64, f32, f16, bf16\)" \
    "$T" -o "$W/db.json" --pairs f64:f32,f64:f8 ;;
pair-integer-type)
  fails 1 "--pairs: pair 'i32:f32': 'i32' is not a precision" "$T" -o "$W/db.json" --pairs i32:f32 ;;
pair-same-type)
  fails 1 "--pairs: pair 'f16:f16' converts a type to itself" "$T" -o "$W/db.json" --pairs f16:f16 ;;
pair-syntax)
  fails 1 "--pairs: pair 'f64-f32' is not FROM:TO" "$T" -o "$W/db.json" --pairs f64-f32 ;;
pair-trailing-comma)
  fails 1 "--pairs: pair list 'f64:f32,' ends with ','" "$T" -o "$W/db.json" --pairs f64:f32, ;;
max-bytes-small)
  fails 1 "--max-bytes: '32K' is out of range \[64 KiB, 4 GiB\]" "$T" -o "$W/db.json" --max-bytes 32K ;;
max-bytes-large)
  fails 1 "--max-bytes: '5G' is out of range \[64 KiB, 4 GiB\]" "$T" -o "$W/db.json" --max-bytes 5G ;;
max-bytes-huge)
  fails 1 "--max-bytes: '99999999999999G' is out of range" "$T" -o "$W/db.json" --max-bytes 99999999999999G ;;
max-bytes-past-uint64)
  fails 1 "--max-bytes: '123456789012345678901234' is out of range" "$T" -o "$W/db.json" --max-bytes 123456789012345678901234 ;;
max-bytes-syntax)
  fails 1 "--max-bytes: '1e6' is not a size \(decimal bytes, or with a suffix K, M or G\)" \
    "$T" -o "$W/db.json" --max-bytes 1e6 ;;
max-bytes-negative)
  fails 1 "--max-bytes: '-1M' is not a size" "$T" -o "$W/db.json" --max-bytes -1M ;;
threads-zero)
  fails 1 '--threads: 0 is out of range \[1, 256\]' "$T" -o "$W/db.json" --threads 1,0 ;;
threads-many)
  fails 1 '--threads: 257 is out of range \[1, 256\]' "$T" -o "$W/db.json" --threads 257 ;;
threads-empty-entry)
  fails 1 "--threads: '1,,2' has an empty entry" "$T" -o "$W/db.json" --threads 1,,2 ;;
threads-word)
  fails 1 "--threads: 'all' is not a decimal integer" "$T" -o "$W/db.json" --threads all ;;
chunks-not-power)
  fails 1 "--chunks: '3M' is not a power of two" "$T" -o "$W/db.json" --chunks 1M,3M ;;
chunks-range)
  fails 1 "--chunks: '512M' is out of range \[64 KiB, 256 MiB\]" "$T" -o "$W/db.json" --chunks 512M ;;
device-range)
  fails 1 '--device: 99999999999 is out of range \[0, 2147483647\]' "$T" -o "$W/db.json" --device 99999999999 ;;
max-seconds-nan)
  fails 1 "--max-seconds: 'nan' is not a finite number" "$T" -o "$W/db.json" --max-seconds nan ;;
max-seconds-range)
  fails 1 '--max-seconds: 0.5 is out of range \[1, 86400\]' "$T" -o "$W/db.json" --max-seconds 0.5 ;;
pcie-syntax)
  fails 1 "--pcie: '5x16' is not GEN:WIDTH" "$T" -o "$W/db.json" --pcie 5x16 ;;
pcie-gen)
  fails 1 '--pcie generation: 8 is out of range \[1, 7\]' "$T" -o "$W/db.json" --pcie 8:16 ;;
pcie-width)
  fails 1 '--pcie: width 12 is not a PCIe link width' "$T" -o "$W/db.json" --pcie 5:12 ;;
check-and-output)
  fails 1 '--check and -o exclude each other' "$T" -o "$W/db.json" --check "$H100" ;;
check-with-measuring-option)
  fails 1 '--check takes no measuring option' "$T" --check "$H100" --quick ;;
same-card-alone)
  fails 1 '--same-card goes with --check' "$T" -o "$W/db.json" --same-card ;;
# --- the output path (exit 2, before the driver is looked at) ----------------
output-no-directory)
  fails 2 "^approx-inspect: error: output directory '$W/none': No such file or directory$" \
    "$T" -o "$W/none/db.json" ;;
output-directory-is-file)
  touch "$W/file"
  fails 2 "output directory '$W/file' is not a directory" "$T" -o "$W/file/db.json" ;;
output-is-directory)
  mkdir "$W/dir"
  fails 2 "output '$W/dir' is a directory; refusing to replace it" "$T" -o "$W/dir" ;;
output-trailing-slash)
  fails 2 "output '$W/db/' names a directory, not a file" "$T" -o "$W/db/" ;;
output-dev-null)
  fails 2 "output '/dev/null' is a character device; refusing to replace it" "$T" -o /dev/null ;;
output-fifo)
  mkfifo "$W/fifo" || exit 2
  fails 2 "output '$W/fifo' is a FIFO; refusing to replace it" "$T" -o "$W/fifo" ;;
output-symlink)
  touch "$W/target" && ln -s target "$W/link" || exit 2
  fails 2 "output '$W/link' is a symbolic link; refusing to replace it" "$T" -o "$W/link" ;;
output-read-only-directory)
  if [ "$(id -u)" -eq 0 ]; then
    echo "ok: skipped (root writes to read-only directories)"
    exit 0
  fi
  mkdir "$W/ro" && chmod 555 "$W/ro" || exit 2
  fails 2 "output directory '$W/ro' is not writable: Permission denied" "$T" -o "$W/ro/db.json"
  chmod 755 "$W/ro" ;;
# --- no driver: exit 77, one line, nothing written ----------------------------
no-gpu)
  fails 77 '^approx-inspect: error: no CUDA GPU to measure: cannot load the CUDA driver \(/nonexistent/libcuda.so.1\)' \
    "$T" -o "$W/db.json" --quick ;;
no-gpu-existing-output)
  # An existing database is left as it was.
  cp "$H100" "$W/db.json"
  fails 77 'no CUDA GPU to measure' "$T" -o "$W/db.json"
  cmp -s "$H100" "$W/db.json" || { echo "FAIL: db.json changed"; exit 1; } ;;
# --- --check ----------------------------------------------------------------
check-fixture-no-gpu)
  # A valid (foreign) database: read and validated, then no GPU to compare.
  fails 77 'no CUDA GPU to measure: cannot load the CUDA driver' "$T" --check "$H100" ;;
check-other-fixture-no-gpu)
  fails 77 'no CUDA GPU to measure' "$T" --check "$D/precision/a100-pcie4-epyc64.json" --same-card ;;
check-missing)
  fails 2 "^approx-inspect: error: cannot open precision database '$W/none.json': No such file or directory$" \
    "$T" --check "$W/none.json" ;;
check-directory)
  fails 2 "precision database '$W' is a directory, not a regular file" "$T" --check "$W" ;;
check-not-json)
  printf 'not json\n' >"$W/bad.json"
  fails 2 "^approx-inspect: error: '$W/bad.json': precision db: <root>: not valid JSON" \
    "$T" --check "$W/bad.json" ;;
check-wrong-format)
  sed -e 's/"approx-precision-db"/"approx-manifest"/' "$H100" >"$W/bad.json"
  fails 2 "precision db: format: 'approx-manifest' is not 'approx-precision-db'" \
    "$T" --check "$W/bad.json" ;;
check-bad-pcie)
  sed -e 's/"pcie_gen": 5/"pcie_gen": 0/' "$H100" >"$W/bad.json"
  fails 2 'precision db: machine.gpu.pcie_gen: 0 is out of range \[1, 7\]' "$T" --check "$W/bad.json" ;;
check-unsorted-sizes)
  python3 - "$H100" "$W/bad.json" <<'EOF' || exit 2
import json, sys
d = json.load(open(sys.argv[1]))
d["transfer"][0]["points"][1]["bytes"] = d["transfer"][0]["points"][0]["bytes"]
json.dump(d, open(sys.argv[2], "w"))
EOF
  fails 2 'precision db: transfer\[0\]\.points\[1\]\.bytes: 65536 is not larger than the previous size 65536' \
    "$T" --check "$W/bad.json" ;;
check-escapes)
  # Control bytes from the file never reach the terminal raw.
  printf '{"format": "x\\u001b[2J"}' >"$W/bad.json"
  fails 2 "format: 'x\\\\x1b\[2J' is not 'approx-precision-db'" "$T" --check "$W/bad.json"
  if LC_ALL=C grep -q "$(printf '\033')" "$W/.err"; then
    echo "FAIL: a raw escape byte reached stderr"
    exit 1
  fi ;;
*)
  echo "unknown case $CASE"
  exit 2 ;;
esac
