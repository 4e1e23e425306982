#!/bin/sh
# mpi-agree.sh MPIEXEC MPI_BIN BIN DIR: approx-hrcs-mpi over 3 processes
# writes the same .wc as approx-hrcs in one (cyclic share of the units, merge
# by argument on rank 0); --resume with another process count is refused.
mpiexec=$1; mpibin=$2; bin=$3; dir=$4
rm -rf "$dir"; mkdir -p "$dir"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
status=0
for spec in "log 1,0x1.04p0 24 25 0x1p-9" "exp 0x1.5p0,0x1.5000001p0 53 54 0x1p-18" \
            "cos 1.5,0x1.98p0 24 25 0x1p-10"; do
  set -- $spec
  "$bin" --function $1 --domain $2 --arg-precision $3 --precision $4 --epsilon $5 \
    -o "$dir/$1-one" --quiet > /dev/null || status=1
  "$mpiexec" -n 3 "$mpibin" --function $1 --domain $2 --arg-precision $3 --precision $4 \
    --epsilon $5 -o "$dir/$1-mpi" --quiet > "$dir/$1-mpi.txt" 2>&1 || status=1
  if cmp -s "$dir/$1-one/$1.wc" "$dir/$1-mpi/$1.wc"; then
    echo "$1 [$2): $(grep -vc '^#' "$dir/$1-one/$1.wc") cases, 1 process == 3 MPI processes"
  else
    echo "$1 [$2): 1 process != 3 MPI processes"; cat "$dir/$1-mpi.txt"; status=1
  fi
done
# Resuming DIR with 2 processes where 3 made it: refused, one line.
out=$("$mpiexec" -n 2 "$mpibin" --function log --domain 1,0x1.04p0 --arg-precision 24 \
  --precision 25 --epsilon 0x1p-9 -o "$dir/log-mpi" --quiet --resume 2>&1)
rc=$?
case "$out" in
  *"cannot resume: the checkpoint was made with other parameters"*) [ $rc -ne 0 ] && echo "resume with 2 of 3 processes refused: ok" || status=1 ;;
  *) echo "resume with another process count not refused: $out"; status=1 ;;
esac
exit $status
