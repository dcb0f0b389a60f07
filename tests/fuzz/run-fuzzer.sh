#!/usr/bin/env bash
# Builds the libFuzzer target of the compute core with clang (AddressSanitizer
# and UndefinedBehaviorSanitizer, every report fatal) and runs it.
# Usage: tests/fuzz/run-fuzzer.sh [SECONDS] [libFuzzer arguments...]
#   SECONDS   how long to fuzz (default 60); 0 builds only.
# Environment: FUZZ_DIR (default /tmp/cudaedge-fuzz) holds the binary, the
# working corpus (seeded from tests/fuzz/corpus/) and any crash-* files;
# FUZZ_JOBS (default 1) runs that many fuzzing processes.
# Needs clang and libFuzzer (Debian: clang-14, libclang-rt-14-dev); as root
# it installs them when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_TO_RUN=${1:-60}
shift || true
FUZZ_DIR=${FUZZ_DIR:-/tmp/cudaedge-fuzz}
FUZZ_JOBS=${FUZZ_JOBS:-1}
CLANG=${CLANG:-clang}

need=()
command -v "$CLANG" >/dev/null || need+=(clang)
if ! echo 'int LLVMFuzzerTestOneInput(const char*d,long n){return 0;}' |
    "$CLANG" -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
  need+=(libclang-rt-14-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing: ${need[*]} (run as root to install them)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
  command -v "$CLANG" >/dev/null || CLANG=clang-14
fi

mkdir -p "$FUZZ_DIR/corpus"
"$CLANG" -g -O1 -D_GNU_SOURCE -std=c11 \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -Icuda -o "$FUZZ_DIR/fuzz-core" tests/fuzz/fuzz-core.c \
  cuda/cudaedge-core.c cuda/cudaedge-ref.c cuda/cudaedge-cpu.c \
  cuda/cudaedge-cpu-upscale.c cuda/cudaedge-nocuda.c -lm -lpthread
echo "built $FUZZ_DIR/fuzz-core"
[ "$SECONDS_TO_RUN" -gt 0 ] || exit 0

# The working corpus grows in FUZZ_DIR; the committed seeds are read only.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
cd "$FUZZ_DIR"
jobs=()
if [ "$FUZZ_JOBS" -gt 1 ]; then
  jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
fi
status=0
./fuzz-core -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=30 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$FUZZ_DIR/" \
  "${jobs[@]}" "$@" corpus "$OLDPWD/tests/fuzz/corpus" || status=$?
ls "$FUZZ_DIR"/crash-* "$FUZZ_DIR"/timeout-* "$FUZZ_DIR"/oom-* 2>/dev/null &&
  echo "findings above: minimise with ./fuzz-core -minimize_crash=1 FILE"
exit $status
