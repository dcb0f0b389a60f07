#!/usr/bin/env bash
# Static analysis: cppcheck's warning, performance and portability checks
# over the C of the plugin and the core (gst/, cuda/ host code), both with
# and without GStreamer's CUDA library, and over the tests, benchmarks and
# examples.  Exits 1 on any finding.  Installs cppcheck when it is
# missing (Debian 12, as root).
# Usage: tests/lint.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cppcheck >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "cppcheck is missing; run as root to install it" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends cppcheck >/dev/null
fi

# The headers as the build finds them (GStreamer's and GLib's through
# pkg-config), and the machine's architecture, which gstconfig.h asks for.
inc=(-I cuda -I gst -I tests/check)
for d in $(pkg-config --cflags-only-I gstreamer-video-1.0 gstreamer-app-1.0 \
    gstreamer-check-1.0 2>/dev/null) -I/usr/local/cuda/include; do
  [ -d "${d#-I}" ] && inc+=("$d")
done
case $(uname -m) in
  x86_64) arch=-D__x86_64__ ;;
  aarch64) arch=-D__aarch64__ ;;
  *) arch= ;;
esac
check() {
  # shellcheck disable=SC2086
  cppcheck -q --error-exitcode=1 --std=c11 \
    --enable=warning,performance,portability --inline-suppr \
    --suppress=missingIncludeSystem $arch -D__GNUC__=12 "${inc[@]}" "$@"
}
cuda="-DHAVE_GST_CUDA=1 -DGST_USE_UNSTABLE_API"
status=0
# shellcheck disable=SC2086
check $cuda cuda/*.c gst/*.c || status=1
check -UHAVE_GST_CUDA cuda/*.c gst/*.c || status=1
# shellcheck disable=SC2086
check $cuda -DCE_TEST_HOOKS=1 tests/*/*.c examples/*.c || status=1
[ $status = 0 ] && echo "lint: cppcheck found nothing"
exit $status
