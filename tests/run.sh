#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds and runs every test.
# Usage: tests/run.sh [BUILD_DIR] [meson test arguments...] (a BUILD_DIR
# does not start with '-')
# Without a GPU the GPU suites report SKIP; the CPU suites always run.
# BUILD_DIR defaults to build, the folder examples/run-edge.sh uses too, so
# the CUDA kernels are compiled once for both.
set -euo pipefail
cd "$(dirname "$0")/.."

# debian/control's Build-Depends is the one list of the packages we need.
# dpkg-checkbuilddeps comes with dpkg-dev, itself one of them.
unmet=
if ! command -v dpkg-checkbuilddeps >/dev/null; then
  unmet="dpkg-dev and possibly more"
elif ! out=$(dpkg-checkbuilddeps debian/control 2>&1); then
  unmet=${out##*: }
fi
if [ -n "$unmet" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing build dependencies (debian/control): $unmet" >&2
    echo "run as root to install them (apt-get build-dep ./)" >&2
    exit 1
  fi
  echo "installing the build dependencies of debian/control: $unmet"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq \
    --no-install-recommends ./ >/dev/null
fi
# The CUDA toolkit is optional: with nvcc on PATH (or in /usr/local/cuda)
# the CUDA path is built too.
if [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
fi

# A first argument that is an option (tests/run.sh --suite cpu) goes to
# meson test, with the default folder.
if [ $# -gt 0 ] && [ -n "$1" ] && [ "${1#-}" = "$1" ]; then
  BUILD=$1
  shift
else
  BUILD=build
  # an empty first argument names the default folder too
  if [ $# -gt 0 ] && [ -z "$1" ]; then
    shift
  fi
fi
# The test hooks (environment variables that corrupt or fail chosen frames)
# are for test builds only; the package leaves them out.  The tests are
# built whatever the folder was configured with before (so some always
# run), and a folder whose earlier setup failed is set up anew.
if [ -f "$BUILD/meson-private/coredata.dat" ]; then
  meson setup --reconfigure "$BUILD" -Dtests=enabled -Dtest-hooks=true \
    >/dev/null
else
  meson setup "$BUILD" -Dtests=enabled -Dtest-hooks=true >/dev/null
fi
meson compile -C "$BUILD"
status=0
meson test -C "$BUILD" --print-errorlogs "$@" || status=$?

# Say loudly which tests were skipped and why (no GPU, usually).
python3 - "$BUILD/meson-logs/testlog.json" <<'PY' || true
import json, os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit(0)
skipped = [t for t in map(json.loads, open(sys.argv[1])) if t.get("result") == "SKIP"]
if skipped:
    print("*" * 72)
    for t in skipped:
        why = [l for l in (t.get("stdout") or "").splitlines() if "SKIP" in l]
        print("SKIPPED %s: %s" % (t["name"], why[0] if why else "exit status 77"))
    print("*" * 72)
PY
exit $status
