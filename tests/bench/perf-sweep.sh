#!/usr/bin/env bash
# The three benchmark programs over a range of frame sizes, on a GPU
# machine, into CSV files for tools/perf-plots.py.
#
# Usage: [BUILD=build] tests/bench/perf-sweep.sh OUTDIR
#
# BUILD is the meson build folder (default build, relative to the current
# folder or to the top of the tree), configured with -Dtests=enabled and
# the CUDA path.  Writes, replacing those of an earlier sweep:
#   OUTDIR/kernel.csv   cudaedge-bench, every size below
#   OUTDIR/element.csv  element-bench, cudaedge GRAY8 (backend=cuda), every
#                       size; then 1, 2, 4 and 8 pipelines at once at 1080p;
#                       with two GPUs or more, the same counts at 1080p and
#                       4K on one GPU and spread over all of them
#   OUTDIR/cudamem.csv  cudamem-bench (GStreamer CUDA memory), every size
#   OUTDIR/upscale.csv  cudaupscale: element-bench RGBA in system memory at
#                       1080p and 4K, cudamem-bench --element cudaupscale
#                       up to 4K (its output is four times the input)
#   OUTDIR/*.txt        the printed tables, which also go to stdout
# A program that was not built (cudamem-bench needs gstreamer-cuda-1.0) or
# finds no GPU (exit 77) is skipped with a message.  Then:
#   tools/perf-plots.py OUTDIR OUTDIR/plots
# About two to three minutes on an H200, most of it the single-thread CPU
# reference rows of cudaedge-bench at the large sizes; every program runs
# under a time limit so that a hang cannot hold the machine.
# Exit: 0 when every program that ran succeeded, 1 otherwise, 2 usage.
set -uo pipefail

SIZES="640x480 1280x720 1920x1080 2560x1440 3840x2160 4096x4096 7680x4320"
UPSCALE_SIZES="640x480 1280x720 1920x1080 2560x1440 3840x2160"
UPSCALE_SYSTEM_SIZES="1920x1080 3840x2160"
PIPELINES_SIZE=1920x1080
PIPELINES=1,2,4,8
KERNEL_RUNS=30          # cudaedge-bench timed runs per row (default 50)
ELEMENT_RUNS=3          # element-bench runs per pipeline
CUDAMEM_RUNS=3          # cudamem-bench runs per pipeline

usage() { sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; }
case ${1:-} in -h|--help) usage; exit 0 ;; esac
if [ $# -ne 1 ]; then usage >&2; exit 2; fi

SRC=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1" || exit 2
OUT=$(cd "$1" && pwd)
BUILD=${BUILD:-build}
if [ -d "$BUILD" ]; then
  BUILD=$(cd "$BUILD" && pwd)
elif [ -d "$SRC/$BUILD" ]; then
  BUILD=$(cd "$SRC/$BUILD" && pwd)
else
  echo "perf-sweep: no build folder '$BUILD' (set BUILD=...)" >&2
  exit 2
fi
BENCH=$BUILD/tests/bench
export GST_PLUGIN_PATH=$BUILD/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}

size_args=()
for s in $SIZES; do size_args+=(--size "$s"); done

failed=0
t_start=$SECONDS

# step NAME LOG LIMIT_S PROGRAM ARGS...: runs PROGRAM (a file under
# tests/bench of the build) with its output on stdout and in OUT/LOG.
step() {
  local name=$1 log=$2 limit=$3 prog=$4 rc t0=$SECONDS
  shift 4
  echo
  echo "=== $name: $prog $*"
  if [ ! -x "$BENCH/$prog" ]; then
    echo "=== $name: SKIPPED: $BENCH/$prog was not built"
    return 0
  fi
  timeout --signal=INT --kill-after=10 "$limit" "$BENCH/$prog" "$@" 2>&1 |
    tee -a "$OUT/$log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0) echo "=== $name: done in $((SECONDS - t0)) s" ;;
    77) echo "=== $name: SKIPPED: no usable CUDA device" ;;
    124|137) echo "=== $name: FAILED: stopped after ${limit} s"; failed=1 ;;
    *) echo "=== $name: FAILED: exit status $rc"; failed=1 ;;
  esac
  return 0
}

rm -f "$OUT/kernel.csv" "$OUT/element.csv" "$OUT/cudamem.csv" \
  "$OUT/upscale.csv" "$OUT/kernel.txt" "$OUT/element.txt" \
  "$OUT/cudamem.txt" "$OUT/upscale.txt"
echo "perf-sweep: build $BUILD, output $OUT"
echo "perf-sweep: sizes $SIZES"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total \
    --format=csv,noheader | sed 's/^/perf-sweep: GPU /'

# Kernels, the host-to-host paths and the CPU rows at every size.
step "cudaedge-bench" kernel.txt 240 cudaedge-bench "${size_args[@]}" \
  --runs "$KERNEL_RUNS" --csv "$OUT/kernel.csv"

# The element on system memory (its pinned pool) at every size, then
# several pipelines at once at one size.
step "element-bench" element.txt 150 element-bench "${size_args[@]}" \
  --element cudaedge --format GRAY8 --backend cuda --runs "$ELEMENT_RUNS" \
  --csv "$OUT/element.csv"
step "element-bench pipelines" element.txt 120 element-bench \
  --size "$PIPELINES_SIZE" --element cudaedge --format GRAY8 --backend cuda \
  --runs "$ELEMENT_RUNS" --pipelines "$PIPELINES" --csv "$OUT/element.csv"

# With more than one GPU: the same counts at 1080p and 4K spread over all
# of them (pipeline k on cuda-device-id k % D), against their links
# measured at once and the same count on device 0.
n_gpus=0
command -v nvidia-smi >/dev/null &&
  n_gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "$n_gpus" -gt 1 ]; then
  step "element-bench devices" element.txt 240 element-bench \
    --size "$PIPELINES_SIZE" --size 3840x2160 --element cudaedge \
    --format GRAY8 --backend cuda --runs "$ELEMENT_RUNS" \
    --pipelines "$PIPELINES" --devices "$n_gpus" --csv "$OUT/element.csv"
else
  echo
  echo "=== element-bench devices: SKIPPED: $n_gpus GPU(s) listed by nvidia-smi"
fi

# The element on GStreamer CUDA memory; the system-memory rates of the
# element-bench run above fill its x_system column.
system_fps=
if [ -s "$OUT/element.csv" ]; then
  system_fps=$(awk -F, '$1 == "element-bench" &&
      $2 == "cudaedge backend=cuda" && $6 == 1 && !seen[$3 "x" $4]++ {
        printf "%s%sx%s=%s", n++ ? "," : "", $3, $4, $8 }' \
    "$OUT/element.csv")
fi
step "cudamem-bench" cudamem.txt 150 cudamem-bench "${size_args[@]}" \
  --runs "$CUDAMEM_RUNS" ${system_fps:+--system-fps "$system_fps"} \
  --csv "$OUT/cudamem.csv"

# cudaupscale: on system memory (its link) and on CUDA memory (its
# kernel alone).
up_sys_args=()
for s in $UPSCALE_SYSTEM_SIZES; do up_sys_args+=(--size "$s"); done
up_args=()
for s in $UPSCALE_SIZES; do up_args+=(--size "$s"); done
step "element-bench cudaupscale" upscale.txt 150 element-bench \
  "${up_sys_args[@]}" --element cudaupscale --format RGBA --backend cuda \
  --runs "$ELEMENT_RUNS" --csv "$OUT/upscale.csv"
step "cudamem-bench cudaupscale" upscale.txt 150 cudamem-bench \
  --element cudaupscale "${up_args[@]}" --runs "$CUDAMEM_RUNS" \
  --csv "$OUT/upscale.csv"

echo
echo "perf-sweep: $((SECONDS - t_start)) s in all; CSV files:"
for f in kernel element cudamem upscale; do
  if [ -s "$OUT/$f.csv" ]; then
    echo "  $OUT/$f.csv ($(($(wc -l <"$OUT/$f.csv") - 1)) rows)"
  else
    echo "  $OUT/$f.csv: none"
  fi
done
echo "plots: tools/perf-plots.py $OUT $OUT/plots"
exit "$failed"
