#!/usr/bin/env bash
# fixunroll.sh - simulate the fix of approx-unroll-versioned's skip of loops that
# already carry a loop_annotation (clang's mustProgress, lifted by
# approx-raise-kernel-cfg since 2979183): drop the bare mustProgress
# annotations from the raised MLIR and rerun approx-to-ptx (slot=hw).
S=/tmp/sass-study
for a in ${APPS:-lav bkp cut knn cop gus nbo}; do
  python3 $S/tools/strip_ann.py $S/raised/$a.raised.mlir $S/fixunroll/$a.raised.mlir
  /work/main/build/bin/approx-opt $S/fixunroll/$a.raised.mlir --approx-to-ptx="slot=hw output-dir=$S/fixunroll ${EXTRA:-}" -o /dev/null || echo "$a failed"
done
