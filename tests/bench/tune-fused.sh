#!/usr/bin/env bash
# Builds the benchmark with other shapes of the fused kernel and prints
# their fused rows side by side.  A shape is
# TARGET:MINBLOCKS:PREFETCH[:INT[:UNROLL[:IPX]]]: the height interior strips are
# aimed at (FUSED_TH_TARGET), the resident blocks per SM the register
# budget is set for (FUSED_MIN_BLOCKS), the rows loaded ahead
# (FUSED_PREFETCH, a divisor of UNROLL), whether the l2 edges take the
# integer form of the Sobel below 6 Mpx (CE_SOBEL_INT_L2_EDGES, 1 unless
# given; 0 puts them on floats at every size) and
# the rows the interior loop is unrolled over (FUSED_UNROLL, 5 or 15; 5
# unless given) and the columns of an interior lane (FUSED_IPX, 4 or 8;
# 8 unless given); see cuda/cudaedge-kernels.cu.
# Usage: tests/bench/tune-fused.sh [SHAPE ...]
#        (default 24:4:5 24:5:5 24:4:5:0 24:4:3:1:15 24:6:5:1:5:4)
set -uo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
variants=${*:-24:4:5 24:5:5 24:4:5:0 24:4:3:1:15 24:6:5:1:5:4}
for v in $variants; do
  IFS=: read -r target mb pf int unroll ipx <<< "$v"
  int=${int:-1}
  unroll=${unroll:-5}
  ipx=${ipx:-8}
  b=/tmp/cudaedge-tune-$target-$mb-$pf-$int-$unroll-$ipx
  meson setup "$b" "$SRC" -Dcuda=enabled -Dtests=enabled -Dexamples=disabled \
    -Dcuda_args="-DFUSED_TH_TARGET=$target -DFUSED_MIN_BLOCKS=$mb -DFUSED_PREFETCH=$pf -DCE_SOBEL_INT_L2_EDGES=$int -DFUSED_UNROLL=$unroll -DFUSED_IPX=$ipx" >/dev/null 2>&1 &&
    ninja -C "$b" tests/bench/cudaedge-bench >/dev/null 2>&1 || { echo "$v: build failed"; continue; }
  echo "== FUSED_TH_TARGET=$target FUSED_MIN_BLOCKS=$mb FUSED_PREFETCH=$pf CE_SOBEL_INT_L2_EDGES=$int FUSED_UNROLL=$unroll FUSED_IPX=$ipx"
  "$b/tests/bench/cudaedge-bench" --size 7680x4320 --size 3840x2160 --size 1920x1080 --runs 30 2>&1 |
    grep -E '^== |d2d copy \(ceiling\)|fused'
done
