#!/bin/sh
# Builds gst-cudaedge and runs the edge example on a clip or a picture, or
# on a generated clip without an argument:
#
#   examples/run-edge.sh [FILE]
#
# Writes edges.avi (every frame, PNG, values 0 and 255) and
# edges-preview.png (the last frame) into the current directory.  Builds in
# build/ at the top of the tree (or in $BUILD_DIR), the folder tests/run.sh
# uses too, so the CUDA kernels are compiled once for both.  Missing
# Debian packages (debian/control's Build-Depends) are installed with
# apt-get when run as root.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}

if [ $# -gt 1 ]; then
  echo "usage: $0 [FILE]" >&2
  exit 2
fi
if [ $# -gt 0 ] && [ ! -r "$1" ]; then
  echo "cannot read $1" >&2
  exit 1
fi

# debian/control's Build-Depends is the one list of the packages we need;
# dpkg-checkbuilddeps comes with dpkg-dev, itself one of them.
unmet=
if ! command -v dpkg-checkbuilddeps >/dev/null 2>&1; then
  unmet="dpkg-dev and possibly more"
elif ! out=$(cd "$top" && dpkg-checkbuilddeps debian/control 2>&1); then
  unmet=${out##*: }
fi
if [ -n "$unmet" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing build dependencies (debian/control): $unmet" >&2
    echo "install them (sudo apt-get build-dep $top) or run as root" >&2
    exit 1
  fi
  echo "installing the build dependencies of debian/control: $unmet"
  apt-get update -qq
  (cd "$top" && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq \
    --no-install-recommends ./ >/dev/null)
fi
# The CUDA path is built when nvcc is found; without it, a CPU-only plugin.
if [ -x /usr/local/cuda/bin/nvcc ]; then
  PATH="$PATH:/usr/local/cuda/bin"
  export PATH
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top"
fi
meson compile -C "$build" gstcudaedge edge-app

GST_PLUGIN_PATH="$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}" \
  exec "$build/examples/edge-app" "$@"
