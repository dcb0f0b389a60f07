#!/usr/bin/env bash
# The whole GPU verification in one go, for a machine with an NVIDIA GPU,
# nvcc, meson and GStreamer's development files: build with CUDA, run the GPU
# test suites (a GPU suite that skips fails the run), compute-sanitizer
# (memcheck, racecheck, synccheck) on the core tests, the element on a real
# clip with check=true, and the benchmark.
# Usage: tests/gpu-suite.sh OUT_DIR [CLIP [PICTURE.pgm]]
# Logs, tables and the benchmark's PGM images land in OUT_DIR.  BUILD_DIR
# names the build folder (default /tmp/cudaedge-gpu-build); BENCH=0 leaves
# the benchmarks out.
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
# On a GPU machine a GPU suite that skips has not verified anything: a
# whole test skipped (no device, a missing GStreamer element) fails the
# run; cases skipped inside a test are listed.
python3 - "$B/meson-logs/testlog.json" <<'PY' || fail=1
import json, re, sys
bad = 0
for t in map(json.loads, open(sys.argv[1])):
    suites = t["name"].split(" / ")[0].split(":")[-1].split("+")
    if "gpu" not in suites:
        continue
    out = t.get("stdout") or ""
    # TAP's "# SKIP" and the check programs' "SKIP: <case>: <why>" or
    # "SKIP <case>: <why>", not the summaries ("... cases NOT run").
    skips = [l.strip() for l in out.splitlines()
             if ("# SKIP" in l or re.match(r"SKIP:? \S+:", l))
             and "cases NOT run" not in l]
    if t.get("result") == "SKIP":
        print("GPU TEST SKIPPED: %s: %s" % (t["name"], skips[0] if skips else "exit status 77"))
        bad = 1
    elif skips:
        print("%s: %d cases skipped, first: %s" % (t["name"], len(skips), skips[0]))
sys.exit(bad)
PY

step compute-sanitizer
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$B/tests/core-tests" -p /gpu/core --quick \
    >"$OUT/sanitizer-$tool.log" 2>&1
  rc=$?
  echo "$tool: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$tool.log" | tail -1), $(grep -c '^ok' "$OUT/sanitizer-$tool.log") cases ok, $(grep -c '^not ok' "$OUT/sanitizer-$tool.log") not ok"
  [ $rc = 0 ] || fail=1
done
# The frame path (graphs, contexts, frames in flight, tall frames) under
# memcheck; one case makes CUDA calls fail on purpose, so API errors are
# not reported.
compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 1 \
  "$B/tests/core-tests" -p /gpu/runtime >"$OUT/sanitizer-memcheck-runtime.log" 2>&1
rc=$?
echo "memcheck /gpu/runtime: rc=$rc $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer-memcheck-runtime.log" | tail -1), $(grep -c '^ok' "$OUT/sanitizer-memcheck-runtime.log") cases ok, $(grep -c '^not ok' "$OUT/sanitizer-memcheck-runtime.log") not ok"
[ $rc = 0 ] || fail=1

if [ -n "$CLIP" ] && command -v gst-launch-1.0 >/dev/null; then
  step "element on $CLIP, backend=cuda check=true"
  (cd "$OUT" && GST_PLUGIN_PATH="$B/gst" "$B/examples/edge-app" --backend=cuda \
    "$CLIP") 2>&1 | tee "$OUT/clip.log" | tail -20
  [ "${PIPESTATUS[0]}" = 0 ] || fail=1
fi

if [ "${BENCH:-1}" != 0 ] && [ -x "$B/tests/bench/cudaedge-bench" ]; then
  step benchmark
  "$B/tests/bench/cudaedge-bench" --out-dir "$OUT" ${PICTURE:+--pgm-in "$PICTURE"} 2>&1 | tee "$OUT/bench.txt" | tail -60
fi
if [ "${BENCH:-1}" != 0 ] && [ -x "$B/tests/bench/element-bench" ]; then
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
