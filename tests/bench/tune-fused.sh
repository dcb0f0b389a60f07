#!/usr/bin/env bash
# Builds the benchmark with other shapes of the fused kernel (rows per warp,
# resident blocks per SM) and prints their fused rows side by side.
# Usage: tests/bench/tune-fused.sh [TH:MINBLOCKS ...]   (default 8:6 8:1 16:1 4:8)
set -uo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
variants=${*:-8:6 8:1 16:1 4:8}
for v in $variants; do
  th=${v%%:*}; mb=${v##*:}
  b=/tmp/cudaedge-tune-$th-$mb
  meson setup "$b" "$SRC" -Dcuda=enabled -Dtests=enabled -Dexamples=disabled \
    -Dcuda_args="-DFUSED_TH=$th -DFUSED_MIN_BLOCKS=$mb" >/dev/null 2>&1 &&
    ninja -C "$b" tests/bench/cudaedge-bench >/dev/null 2>&1 || { echo "$v: build failed"; continue; }
  echo "== FUSED_TH=$th FUSED_MIN_BLOCKS=$mb"
  "$b/tests/bench/cudaedge-bench" --size 4096x4096 --size 1920x1080 --runs 30 2>&1 |
    grep -E '^== |d2d copy \(ceiling\)|fused'
done
