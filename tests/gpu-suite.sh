#!/usr/bin/env bash
# The whole GPU verification in one go, for a machine with an NVIDIA GPU,
# nvcc, meson and GStreamer's development files: build with CUDA, run the GPU
# test suites, compute-sanitizer (memcheck, racecheck, synccheck) on the core
# tests, the element on a real clip with check=true, and the benchmark.
# Usage: tests/gpu-suite.sh OUT_DIR [CLIP [PICTURE.pgm]]
# Logs, tables and the benchmark's PGM images land in OUT_DIR.
set -uo pipefail
OUT=${1:?usage: tests/gpu-suite.sh OUT_DIR [CLIP]}
CLIP=${2:+$(readlink -f "$2")}
PICTURE=${3:-}
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD_DIR:-/tmp/cudaedge-gpu-build}
mkdir -p "$OUT"
fail=0
step() { echo; echo "=== $*"; }

step build
# A folder set up before keeps its options unless they are given again
# through --reconfigure.
reconf=
[ -f "$B/meson-private/coredata.dat" ] && reconf=--reconfigure
meson setup $reconf "$B" "$SRC" -Dcuda=enabled -Dtests=enabled -Dtest-hooks=true >"$OUT/build.log" 2>&1 &&
  ninja -C "$B" >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"

step "meson test (all suites)"
meson test -C "$B" --print-errorlogs --num-processes 1 2>&1 | tee "$OUT/tests.log" | tail -25
[ "${PIPESTATUS[0]}" = 0 ] || fail=1
cp "$B/meson-logs/testlog.txt" "$OUT/testlog.txt" 2>/dev/null

step compute-sanitizer
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$B/tests/core-tests" -p /gpu/core --quick \
    >"$OUT/sanitizer-$tool.log" 2>&1
  rc=$?
  echo "$tool: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.log" | tail -1), $(grep -c '^ok' "$OUT/sanitizer-$tool.log") cases ok, $(grep -c '^not ok' "$OUT/sanitizer-$tool.log") not ok"
  [ $rc = 0 ] || fail=1
done

if [ -n "$CLIP" ] && command -v gst-launch-1.0 >/dev/null; then
  step "element on $CLIP, backend=cuda check=true"
  (cd "$OUT" && GST_PLUGIN_PATH="$B/gst" "$B/examples/edge-app" --backend=cuda \
    "$CLIP") 2>&1 | tee "$OUT/clip.log" | tail -20
  [ "${PIPESTATUS[0]}" = 0 ] || fail=1
fi

if [ -x "$B/tests/bench/cudaedge-bench" ]; then
  step benchmark
  "$B/tests/bench/cudaedge-bench" --out-dir "$OUT" ${PICTURE:+--pgm-in "$PICTURE"} 2>&1 | tee "$OUT/bench.txt" | tail -60
fi
if [ -x "$B/tests/bench/element-bench" ]; then
  step element-bench
  for el in cudaedge cudaupscale; do
    fmt=GRAY8; [ $el = cudaupscale ] && fmt=RGBA
    GST_PLUGIN_PATH="$B/gst" "$B/tests/bench/element-bench" --element $el \
      --format $fmt 2>&1 | tee -a "$OUT/element-bench.txt" | tail -20
  done
fi
echo
echo "gpu-suite: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
