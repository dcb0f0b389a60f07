#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds and runs every test.
# Usage: tests/run.sh [BUILD_DIR] [meson test arguments...]
# Without a GPU the GPU suites report SKIP; the CPU suites always run.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS="meson ninja-build pkgconf gcc g++ libglib2.0-dev libgstreamer1.0-dev
      libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good"
# "install ok installed" only: a removed package can leave its config behind.
missing=$(for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"
done)
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing packages: $missing (run as root to install them)" >&2
    exit 1
  fi
  echo "installing:" $missing
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# The CUDA toolkit is optional: with nvcc on PATH (or in /usr/local/cuda)
# the CUDA path is built too.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"

BUILD=${1:-build-tests}
shift || true
if [ -d "$BUILD" ]; then
  meson setup --reconfigure "$BUILD" >/dev/null
else
  meson setup "$BUILD" >/dev/null
fi
meson compile -C "$BUILD"
status=0
meson test -C "$BUILD" --print-errorlogs "$@" || status=$?

# Say loudly which tests were skipped and why (no GPU, usually).
python3 - "$BUILD/meson-logs/testlog.json" <<'PY' || true
import json, sys
skipped = [t for t in map(json.loads, open(sys.argv[1])) if t.get("result") == "SKIP"]
if skipped:
    print("*" * 72)
    for t in skipped:
        why = [l for l in (t.get("stdout") or "").splitlines() if "SKIP" in l]
        print("SKIPPED %s: %s" % (t["name"], why[0] if why else "exit status 77"))
    print("*" * 72)
PY
exit $status
