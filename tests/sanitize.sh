#!/usr/bin/env bash
# Sanitizer job (CPU only; no GPU needed):
#  1. AddressSanitizer + UndefinedBehaviorSanitizer build of the core, the
#     plugin and the tests, running the CPU suites (core, element, upscale;
#     no gpu), the element suites on the emulated CUDA device among them
#     when nvcc is there; any report ends its test with a failure;
#  2. the element suites again in a plain build under GStreamer's leaks
#     tracer; an object still alive at exit fails the test.
# Usage: tests/sanitize.sh [BUILD_DIR]
#   BUILD_DIR  the sanitizer build (default build-sanitize); the plain build
#              for the leaks tracer goes to BUILD_DIR-leaks.
# As root it installs what is missing (debian/control's Build-Depends).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! unmet=$(dpkg-checkbuilddeps debian/control 2>&1); then
  if [ "$(id -u)" != 0 ]; then
    echo "${unmet:-dpkg-checkbuilddeps (dpkg-dev) is missing}" >&2
    echo "run as root to install them (apt-get build-dep ./)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq \
    --no-install-recommends ./ >/dev/null
fi
# gcc's sanitizer runtimes (libasan, libubsan) come with gcc; the leaks
# tracer with GStreamer's core plugins (libgstreamer1.0-0).
tracers=$(pkg-config --variable=pluginsdir gstreamer-1.0)/libgstcoretracers.so
if ! echo 'int main (void) { return 0; }' |
    gcc -x c -fsanitize=address,undefined -o /dev/null - 2>/dev/null ||
    [ ! -f "$tracers" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing: libasan8, libubsan1 or $tracers" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends libasan8 libubsan1 libgstreamer1.0-0 >/dev/null
fi

# With the CUDA toolkit the builds take the CUDA path, so that the element
# suites run on the emulated device too (README, "Testing on a GPU").
if [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
fi

BUILD=${1:-build-sanitize}
LEAKS_BUILD=$BUILD-leaks
setup () {
  local dir=$1
  shift
  if [ -d "$dir" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    meson setup "$dir" "$@" >/dev/null
  fi
  meson compile -C "$dir" >/dev/null
}

# No registry scanner: the plugin is loaded into the (sanitized) test
# program itself.
export GST_REGISTRY_FORK=no
status=0

echo "== AddressSanitizer + UndefinedBehaviorSanitizer: $BUILD"
# b_lundef=false: the plugin is a module whose sanitizer symbols come from
# the program that loads it.
setup "$BUILD" -Dcuda=auto -Dtest-hooks=true \
  -Db_sanitize=address,undefined -Db_lundef=false
# Every report is fatal.  detect_leaks=0: LeakSanitizer would report the
# one-time allocations GLib and GStreamer keep until exit (type system,
# registry, debug categories), which are not ours; leaks of GStreamer
# objects are found by the leaks tracer below.
asan=detect_leaks=0:halt_on_error=1:abort_on_error=1
asan=$asan:detect_stack_use_after_return=1:strict_string_checks=1
asan=$asan:check_initialization_order=1
ASAN_OPTIONS=$asan UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C "$BUILD" --print-errorlogs --num-processes 2 \
    --suite core --suite element --suite upscale --no-suite gpu || status=1
# A report that a test survived would still be a finding.
if grep -E "ERROR: AddressSanitizer|runtime error:" \
    "$BUILD/meson-logs/testlog.txt"; then
  echo "sanitizer reports above" >&2
  status=1
fi

echo "== leaks tracer: $LEAKS_BUILD"
setup "$LEAKS_BUILD" -Dcuda=auto -Dtest-hooks=true
# The tests see only the build's plugin (GST_PLUGIN_SYSTEM_PATH_1_0 is
# empty): GST_PLUGIN_PATH_1_0, which GStreamer reads before the
# GST_PLUGIN_PATH the tests set, adds the folder of the tracer plugin
# alone.  At exit the tracer logs every object still alive
# ("object-alive") and warns "Leaks detected", which gst-check fails on.
tracer_dir=$(mktemp -d)
trap 'rm -rf "$tracer_dir"' EXIT
ln -s "$tracers" "$tracer_dir/"
GST_PLUGIN_PATH_1_0="$(realpath "$LEAKS_BUILD")/gst:$tracer_dir" \
GST_TRACERS=leaks GST_DEBUG=GST_TRACER:7 \
  meson test -C "$LEAKS_BUILD" --print-errorlogs --num-processes 2 \
    --suite element --suite upscale --no-suite gpu || status=1
if grep -E "object-alive,|Leaks detected" \
    "$LEAKS_BUILD/meson-logs/testlog.txt" | grep -v "gst_tracer_record"; then
  echo "leaked objects above" >&2
  status=1
fi

[ $status = 0 ] && echo "sanitizer job: no report, no leak"
exit $status
