#!/usr/bin/env bash
# cudamem-bench.sh: cudaedge right after NVIDIA's H.264 decoder, on the GPU
#
# Copyright (C) 2026 The gst-cudaedge authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: GST_PLUGIN_PATH=BUILD/gst tests/bench/cudamem-bench.sh CLIP OUT_DIR [FRAMES]
#
#   CLIP     an MP4/MOV file with H.264 video (filesrc ! qtdemux ! h264parse)
#   OUT_DIR  created if missing; receives gpu.gray, cpu.gray and the logs
#   FRAMES   the clip's frame count; by default the frames the decode
#            check counts
#   RUNS     (environment) timed runs per pipeline, default 3
#
# 1. Decode check: the decoder's frames (NV12 in CUDA memory) go through a
#    tee to cudaedge backend=cuda on the GPU and, after cudadownload, to
#    cudaedge backend=cpu; both GRAY8 outputs are written to files and
#    compared byte for byte (the W bytes of each row: GStreamer pads GRAY8
#    rows to 4 bytes, and nothing writes the padding).  The GPU branch
#    must have negotiated CUDA memory on its input (checked in the caps
#    gst-launch-1.0 -v prints).
# 2. Timing: nvh264dec ! fakesink (which downloads NV12: fakesink accepts
#    any caps, so nvh264dec picks system memory) and nvh264dec into CUDA
#    memory alone, against nvh264dec ! cudaedge ! fakesink (GRAY8 in
#    system memory, cudaedge's preferred output) and cudaedge with NV12
#    in CUDA memory out, RUNS runs each: medians of the whole process's
#    wall time and of the PLAYING-to-EOS time that gst-launch-1.0 prints
#    ("Execution ended after"), which leaves out start-up (registry, CUDA
#    contexts, the first frame's preroll).
#
# Exit: 0 done and byte-equal, 1 a pipeline failed or the outputs differ,
# 2 bad usage or something missing.
set -euo pipefail

prog=${0##*/}
runs=${RUNS:-3}

usage() {
  sed -n '7,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

missing() {
  echo "$prog: missing: $*" >&2
  exit 2
}

[[ $# -eq 2 || $# -eq 3 ]] || usage
clip=$1
out=$2
frames_arg=${3:-}

[[ -f $clip && -r $clip ]] || missing "the clip '$clip' (no such readable file)"
if [[ -n $frames_arg && ! $frames_arg =~ ^[1-9][0-9]*$ ]]; then
  echo "$prog: FRAMES must be a positive integer, not '$frames_arg'" >&2
  exit 2
fi
if [[ ! $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "$prog: RUNS must be a positive integer, not '$runs'" >&2
  exit 2
fi
if [[ -z ${GST_PLUGIN_PATH:-} ]]; then
  missing "GST_PLUGIN_PATH: set it to the build's gst/ folder (the one" \
    "holding libgstcudaedge.so), e.g. GST_PLUGIN_PATH=/tmp/b/gst"
fi

# Tools, then elements, all reported at once.
lacking=()
for tool in gst-launch-1.0 gst-inspect-1.0 cmp od awk sed sort date; do
  command -v "$tool" >/dev/null 2>&1 || lacking+=("the command $tool")
done
if ((${#lacking[@]})); then
  for m in "${lacking[@]}"; do echo "$prog: missing: $m" >&2; done
  exit 2
fi
declare -A hint=(
  [filesrc]="GStreamer core"
  [fakesink]="GStreamer core"
  [filesink]="GStreamer core"
  [tee]="GStreamer core"
  [queue]="GStreamer core"
  [capsfilter]="GStreamer core"
  [qtdemux]="gst-plugins-good (gstreamer1.0-plugins-good)"
  [h264parse]="gst-plugins-bad videoparsers (gstreamer1.0-plugins-bad)"
  [nvh264dec]="gst-plugins-bad nvcodec (gstreamer1.0-plugins-bad), which
registers it only where libcuda and libnvcuvid load and a GPU answers: see
gst-inspect-1.0 nvcodec"
  [cudadownload]="gst-plugins-bad nvcodec, as for nvh264dec"
  [cudaedge]="this project's plugin: GST_PLUGIN_PATH=$GST_PLUGIN_PATH holds
no loadable libgstcudaedge.so"
)
# Not --exists: it also wants the plugin's version to be GStreamer's.
for el in filesrc qtdemux h264parse nvh264dec cudadownload cudaedge tee \
    queue capsfilter fakesink filesink; do
  gst-inspect-1.0 "$el" >/dev/null 2>&1 ||
    lacking+=("element $el (${hint[$el]//$'\n'/ })")
done
if ((${#lacking[@]})); then
  for m in "${lacking[@]}"; do echo "$prog: missing: $m" >&2; done
  exit 2
fi
# Captured first: with pipefail, grep -q leaving early can fail the pipe.
inspect=$(gst-inspect-1.0 cudaedge)
if [[ $inspect != *"memory:CUDAMemory"* ]]; then
  missing "CUDA memory in cudaedge: the plugin in $GST_PLUGIN_PATH was" \
    "built without gstreamer-cuda-1.0 (meson option gst-cuda, CUDA path)"
fi

mkdir -p "$out"
echo "$prog: cudaedge from $(awk '/^ *Filename/ { print $2 }' <<<"$inspect")"
echo "$prog: clip $clip, $runs run(s) per pipeline, logs in $out"

src=(filesrc location="$clip" ! qtdemux ! h264parse ! nvh264dec name=dec)

# ---- 1. Decode check ----

gpu_file=$out/gpu.gray
cpu_file=$out/cpu.gray
rm -f "$gpu_file" "$cpu_file"
if ! gst-launch-1.0 -v "${src[@]}" ! tee name=t \
    t. ! queue ! cudaedge name=gpuedge backend=cuda ! \
    video/x-raw,format=GRAY8 ! filesink name=gpusink location="$gpu_file" \
    t. ! queue ! cudadownload ! cudaedge name=cpuedge backend=cpu ! \
    video/x-raw,format=GRAY8 ! filesink location="$cpu_file" \
    >"$out/check.log" 2>&1; then
  echo "$prog: the decode-check pipeline failed; the end of $out/check.log:" >&2
  tail -n 20 "$out/check.log" >&2
  exit 1
fi

caps_of() {  # caps_of PAD_PATTERN: the first caps gst-launch -v printed for it
  grep -m1 -F "$1: caps = " "$out/check.log" | sed 's/.*: caps = //' || true
}
gray_caps=$(caps_of ':gpusink.GstPad:sink')
gpu_in_caps=$(caps_of ':gpuedge.GstPad:sink')
width=$(sed -nE 's/.*width=\(int\)([0-9]+).*/\1/p' <<<"$gray_caps")
height=$(sed -nE 's/.*height=\(int\)([0-9]+).*/\1/p' <<<"$gray_caps")
if [[ -z $width || -z $height ]]; then
  echo "$prog: no GRAY8 caps of the GPU branch in $out/check.log" >&2
  exit 1
fi
status=0
if [[ $gpu_in_caps != *"memory:CUDAMemory"* ]]; then
  echo "decode check: FAIL: the GPU branch's cudaedge did not take CUDA" \
    "memory (its input caps: ${gpu_in_caps:-none printed})"
  status=1
fi

# GRAY8 rows are padded to 4 bytes in GStreamer's default layout.
stride=$(((width + 3) / 4 * 4))
frame_bytes=$((stride * height))
gpu_size=$(stat -c %s "$gpu_file")
cpu_size=$(stat -c %s "$cpu_file")
counted=$((gpu_size / frame_bytes))
if ((gpu_size % frame_bytes)); then
  echo "decode check: FAIL: $gpu_file holds $gpu_size bytes, not a" \
    "whole number of ${width}x${height} GRAY8 frames ($frame_bytes bytes)"
  status=1
fi
if ((counted == 0)); then
  echo "$prog: FAIL: no frame decoded" >&2
  exit 1
fi

# compare_frames: sets ndiff (differing pixels) and, when some differ,
# first_frame first_x first_y first_gpu first_cpu.  Only the W bytes of
# each row count: nothing writes the padding, so it may hold anything.
compare_frames() {
  local first
  ndiff=0
  if ((stride == width)) && cmp -s "$gpu_file" "$cpu_file"; then
    return
  fi
  if ((stride == width)); then
    # cmp's "differ: byte N, line M" (1-based); only the common length.
    first=$(cmp "$gpu_file" "$cpu_file" 2>&1 |
      sed -nE 's/.*differ: (char|byte) ([0-9]+).*/\2/p' || true)
    [[ -n $first ]] || return 0
    ndiff=$( (cmp -l "$gpu_file" "$cpu_file" 2>/dev/null || true) | wc -l)
    first=$((first - 1))
    first_frame=$((first / frame_bytes))
    first_y=$(((first % frame_bytes) / stride))
    first_x=$(((first % frame_bytes) % stride))
    first_gpu=$(od -An -tu1 -j "$first" -N1 "$gpu_file" | tr -d ' ')
    first_cpu=$(od -An -tu1 -j "$first" -N1 "$cpu_file" | tr -d ' ')
    return
  fi
  command -v python3 >/dev/null 2>&1 ||
    missing "python3, to compare ${width}-pixel rows padded to $stride bytes"
  read -r ndiff first_frame first_x first_y first_gpu first_cpu < <(
    python3 - "$gpu_file" "$cpu_file" "$width" "$stride" "$height" <<'PY'
import sys
gpu, cpu = sys.argv[1], sys.argv[2]
w, stride, h = (int(v) for v in sys.argv[3:6])
n, first, frame = 0, None, 0
with open(gpu, "rb") as fg, open(cpu, "rb") as fc:
    while True:
        a, b = fg.read(stride * h), fc.read(stride * h)
        if len(a) < stride * h or len(b) < stride * h:
            break
        for y in range(h):
            ra, rb = a[y * stride:y * stride + w], b[y * stride:y * stride + w]
            if ra != rb:
                for x in range(w):
                    if ra[x] != rb[x]:
                        n += 1
                        if first is None:
                            first = (frame, x, y, ra[x], rb[x])
        frame += 1
print(n, *(first or (0, 0, 0, 0, 0)))
PY
  )
}

if ((gpu_size != cpu_size)); then
  status=1
  echo "decode check: FAIL: sizes differ: GPU $gpu_size bytes" \
    "($((gpu_size / frame_bytes)) frames), CPU $cpu_size bytes" \
    "($((cpu_size / frame_bytes)) frames); comparing the common frames"
fi
compare_frames
if ((ndiff == 0 && gpu_size == cpu_size)); then
  echo "decode check: $counted frames of ${width}x${height} compared:" \
    "byte-equal (cudaedge on CUDA memory = cudadownload ! cudaedge backend=cpu)"
elif ((ndiff == 0)); then
  echo "decode check: the common frames are byte-equal"
else
  status=1
  echo "decode check: FAIL: $counted frames of ${width}x${height}" \
    "compared, $ndiff pixels differ; the first: frame $first_frame," \
    "x $first_x, y $first_y: GPU $first_gpu, CPU $first_cpu"
fi

frames=${frames_arg:-$counted}
if [[ -n $frames_arg && $frames_arg -ne $counted ]]; then
  echo "$prog: note: FRAMES=$frames_arg, the decode check counted $counted"
fi

# ---- 2. Timing ----

median() {  # median of the numbers on stdin
  sort -g | awk '{ v[NR] = $1 }
    END { if (NR % 2) print v[(NR + 1) / 2];
          else printf "%.9f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# time_pipeline NAME ELEMENTS...: sets wall_s and play_s (medians).
time_pipeline() {
  local name=$1 r t0 t1 log walls=() plays=() play
  shift
  for ((r = 1; r <= runs; r++)); do
    log=$out/time-$name-$r.log
    t0=$(date +%s%N)
    if ! gst-launch-1.0 "$@" >"$log" 2>&1; then
      echo "$prog: pipeline $name failed; the end of $log:" >&2
      tail -n 20 "$log" >&2
      exit 1
    fi
    t1=$(date +%s%N)
    # "Execution ended after H:MM:SS.NNNNNNNNN"
    play=$(sed -nE 's/.*Execution ended after ([0-9:.]+).*/\1/p' "$log" |
      awk -F: '{ printf "%.9f\n", $1 * 3600 + $2 * 60 + $3 }')
    if [[ -z $play ]]; then
      echo "$prog: no \"Execution ended after\" in $log" >&2
      exit 1
    fi
    walls+=("$(awk -v a="$t0" -v b="$t1" \
      'BEGIN { printf "%.9f\n", (b - a) / 1e9 }')")
    plays+=("$play")
  done
  wall_s=$(printf '%s\n' "${walls[@]}" | median)
  play_s=$(printf '%s\n' "${plays[@]}" | median)
}

sink=(fakesink sync=false)
cuda_nv12='video/x-raw(memory:CUDAMemory),format=NV12'
time_pipeline decode "${src[@]}" ! "${sink[@]}"
dec_wall=$wall_s dec_play=$play_s
time_pipeline decode-cuda "${src[@]}" ! "$cuda_nv12" ! "${sink[@]}"
decc_wall=$wall_s decc_play=$play_s
time_pipeline edge-gray8 "${src[@]}" ! cudaedge backend=cuda ! "${sink[@]}"
gray_wall=$wall_s gray_play=$play_s
time_pipeline edge-nv12 "${src[@]}" ! cudaedge backend=cuda ! \
  "$cuda_nv12" ! "${sink[@]}"
nv12_wall=$wall_s nv12_play=$play_s

echo
echo "timing: $frames frames of ${width}x${height}, median of $runs run(s)"
awk -v f="$frames" \
  -v dw="$dec_wall" -v dp="$dec_play" \
  -v cw="$decc_wall" -v cp="$decc_play" \
  -v gw="$gray_wall" -v gp="$gray_play" \
  -v nw="$nv12_wall" -v np="$nv12_play" 'BEGIN {
  printf "%-52s %8s %10s %9s %7s %7s %8s\n", "pipeline", "wall_s",
      "playing_s", "fps", "x_wall", "x_play", "x_gpudec"
  row("nvh264dec ! fakesink", dw, dp)
  row("nvh264dec ! CUDAMemory ! fakesink", cw, cp)
  row("nvh264dec ! cudaedge ! fakesink (GRAY8, system)", gw, gp)
  row("nvh264dec ! cudaedge ! NV12 CUDAMemory ! fakesink", nw, np)
  printf "(wall_s: the whole gst-launch-1.0 process; playing_s: PLAYING to " \
      "EOS as gst-launch-1.0 reports it; fps: frames / playing_s; x_wall, " \
      "x_play: over nvh264dec ! fakesink, where nvh264dec downloads NV12 " \
      "to system memory since fakesink accepts any caps; x_gpudec: " \
      "playing_s over decoding into CUDA memory alone)\n"
}
function row(name, w, p) {
  printf "%-52s %8.3f %10.3f %9.1f %6.2fx %6.2fx %7.2fx\n", name, w, p,
      (p > 0 ? f / p : 0), (dw > 0 ? w / dw : 0), (dp > 0 ? p / dp : 0),
      (cp > 0 ? p / cp : 0)
}'

exit "$status"
