#!/bin/sh
# Builds gst-cudaedge and runs the edge example on a video file, or on a
# generated clip without an argument:
#
#   examples/run-edge.sh [VIDEO-FILE]
#
# Writes edges.avi and edges-preview.png into the current directory.
# Missing Debian packages are installed with apt-get when run as root.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"

packages="meson ninja-build pkgconf libgstreamer1.0-dev
  libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav gcc"

missing=""
if command -v dpkg-query >/dev/null 2>&1; then
  for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
      missing="$missing $p"
    fi
  done
fi
if [ -n "$missing" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "installing:$missing"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
  else
    echo "missing Debian packages:$missing" >&2
    echo "install them (sudo apt-get install$missing) or run as root" >&2
    exit 1
  fi
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top"
fi
meson compile -C "$build"

if [ $# -gt 0 ] && [ ! -r "$1" ]; then
  echo "cannot read $1" >&2
  exit 1
fi

GST_PLUGIN_PATH="$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}" \
  exec "$build/examples/edge-app" "$@"
