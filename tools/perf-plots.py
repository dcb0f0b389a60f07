#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Plots of the benchmark CSV files that tests/bench/perf-sweep.sh writes.

Usage: tools/perf-plots.py CSVDIR OUTDIR

Reads every *.csv file in CSVDIR (the program that wrote a row is in its
bench column, so the file names do not matter) and writes SVG files into
OUTDIR:

  element-fps.svg    the element's frame rate against the frame size
                     (megapixels, log-log): system memory (element-bench)
                     and GStreamer CUDA memory (cudamem-bench), beside the
                     link ceiling and the kernel ceilings
  kernel-gbps.svg    the fused kernel's GB/s against the frame size, every
                     fused variant, beside the device-to-device copy
  pipelines-fps.svg  frames per second of N pipelines at once, all
                     together, against N, with the link ceiling
  upscale-fps.svg    cudaupscale's frame rate against the input frame
                     size: system memory beside its link, CUDA memory
                     beside the upscale kernel alone

A plot whose rows are missing is skipped with a message.  Rows measured
more than once (files appended by several runs) are combined by their
median.  Exit: 0 when at least one plot was written, 1 when none could be,
2 on bad arguments.

CSV schema
----------
cudaedge-bench, element-bench and cudamem-bench all take --csv FILE.  Each
appends one line per measured row to FILE, after this header line, which
it writes when FILE is new or empty (a file that starts with another
header is refused):

  bench,variant,width,height,format,parallel,unit,median,q1,q3,iqr,bytes,
  gbps,fps,ceiling,ceiling_value,share

(one line in the files).  Numbers use '.' as the decimal point; an empty
field means "not applicable"; fields with a comma are double-quoted (RFC
4180).

  bench          the program: cudaedge-bench, element-bench, cudamem-bench
  variant        the row: the name in the program's table (cudaedge-bench),
                 or one of the names below
  width, height  the frame size, in source pixels
  format         the input format of the row (GRAY8, RGBA, NV12, ...)
  parallel       CPU threads (cudaedge-bench's "cpu fast, N threads"), or
                 pipelines running at once (element-bench --pipelines);
                 1 for every other row
  unit           what median, q1 and q3 are: "ms" (time per frame,
                 cudaedge-bench) or "fps" (frames per second, the others)
  median         the median over the runs, in unit
  q1, q3         first and third quartiles over the runs, in unit (equal
                 to median for a row measured once, such as N pipelines)
  iqr            q3 - q1
  bytes          bytes moved per frame by the row's accounting (cudaedge-
                 bench: its MB/frame column; element-bench: the input and
                 the output frame, what crosses the link; cudamem-bench:
                 the Y plane read and the output written); empty for
                 element-bench's identity row
  gbps           bytes * fps / 1e9
  fps            frames per second (1000 / median for unit ms)
  ceiling        what the row is compared with: "d2d" (the device-to-
                 device copy of 2 bytes a pixel, same size and run: the
                 fused kernels' bytes; for rows that move other bytes the
                 share is their GB/s over that copy's, which a copy of
                 more bytes would exceed at small frames), "link"
                 (H2D and D2H overlapped, the same bytes), "kernel" (the
                 fused kernel alone), "d2h" (the D2H copy alone); empty:
                 none (a ceiling row itself, the CPU rows, identity)
  ceiling_value  the frame rate that ceiling allows for this row, in fps
                 (d2d: the copy's GB/s over bytes)
  share          fps / ceiling_value (a fraction: 0.8 is 80 %)

Variant names the plots use:
  cudaedge-bench  "d2d copy (ceiling)", "fused ..." (every fused variant:
                  "fused edge (default)", "fused magnitude", "fused reflect
                  border", "fused zero border", "fused l1", "fused l1
                  magnitude", "fused blur off", "fused edge, tensor
                  cores", "fused magnitude, tensor cores", "fused edge,
                  l2 on integers", "fused edge, l2 on floats"), "H2D+D2H
                  overlapped (2 streams)", "cpu fast, N threads"; the rows
                  "b2b ..." (launches back to back) are not plotted
  element-bench   "link ceiling" (fps the overlapped H2D + D2H of the input
                  and output frame allow), "ELEMENT backend=BACKEND" (the
                  element, parallel 1 or N pipelines), "identity", "link,
                  K buffers cycled" (the link through as many host
                  buffers as the pools cycle; not plotted); with
                  --devices D also "D links" and "D links, K buffers
                  cycled" (parallel D, measured at once), and "ELEMENT
                  backend=BACKEND, D devices" (parallel N), drawn in the
                  pipelines plot against "D links"
  cudamem-bench   "kernel alone", "pipeline alone", "d2h alone",
                  "cudaedge GRAY8/system",
                  "cudaedge NV12/CUDAMemory"
The element plot draws cudaedge's rows only; a sweep's cudaupscale rows
(element-bench "cudaupscale backend=cuda" and its RGBA "link ceiling",
cudamem-bench "upscale kernel alone" and "cudaupscale RGBA/CUDAMemory")
have a plot of their own.
"""

import csv
import glob
import re
import math
import os
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ("bench,variant,width,height,format,parallel,unit,median,q1,q3,"
           "iqr,bytes,gbps,fps,ceiling,ceiling_value,share").split(",")


def warn(msg):
    print("perf-plots: " + msg, file=sys.stderr)


def number(text):
    """A finite float, or None for an empty or malformed field."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


class Row:
    __slots__ = ("bench", "variant", "w", "h", "format", "parallel", "unit",
                 "median", "fps", "gbps", "bytes", "ceiling",
                 "ceiling_value", "run")

    @property
    def mpx(self):
        return self.w * self.h / 1e6

    @property
    def size(self):
        return (self.w, self.h)


def parse_row(d):
    """A Row from a csv.DictReader dict, or None when it is unusable."""
    r = Row()
    r.bench = (d.get("bench") or "").strip()
    r.variant = (d.get("variant") or "").strip()
    w, h = number(d.get("width")), number(d.get("height"))
    if not r.bench or not r.variant or not w or not h or w <= 0 or h <= 0:
        return None
    r.w, r.h = int(w), int(h)
    r.format = (d.get("format") or "").strip()
    p = number(d.get("parallel"))
    r.parallel = int(p) if p and p >= 1 else 1
    r.unit = (d.get("unit") or "").strip()
    r.median = number(d.get("median"))
    r.bytes = number(d.get("bytes"))
    r.fps = number(d.get("fps"))
    if r.fps is None and r.median:
        if r.unit == "ms" and r.median > 0:
            r.fps = 1e3 / r.median
        elif r.unit == "fps":
            r.fps = r.median
    r.gbps = number(d.get("gbps"))
    if r.gbps is None and r.bytes and r.fps:
        r.gbps = r.bytes * r.fps / 1e9
    r.ceiling = (d.get("ceiling") or "").strip()
    r.ceiling_value = number(d.get("ceiling_value"))
    r.run = 0
    return r


def read_rows(csv_dir):
    rows = []
    files = sorted(glob.glob(os.path.join(csv_dir, "*.csv")))
    if not files:
        warn("no *.csv files in %s" % csv_dir)
    for path in files:
        try:
            with open(path, newline="", encoding="utf-8") as f:
                reader = csv.DictReader(f)
                missing = [c for c in ("bench", "variant", "width", "height")
                           if c not in (reader.fieldnames or [])]
                if missing:
                    warn("%s: not a benchmark CSV (no %s column)"
                         % (path, ", ".join(missing)))
                    continue
                other = [c for c in COLUMNS
                         if c not in (reader.fieldnames or [])]
                if other:
                    warn("%s: columns missing: %s" % (path, ", ".join(other)))
                n_bad = n = 0
                # element-bench starts each size of each invocation with
                # its "link ceiling" row: the rows of one size up to the
                # next such row are one run (perf-sweep.sh appends several
                # invocations with the same labels to element.csv).
                run = defaultdict(int)
                for d in reader:
                    r = parse_row(d)
                    if r is None:
                        n_bad += 1
                    else:
                        if r.bench == "element-bench":
                            key = (path, r.size)
                            if r.variant == "link ceiling":
                                run[key] += 1
                            r.run = (path, run[key])
                        rows.append(r)
                        n += 1
                if n_bad:
                    warn("%s: %d malformed row(s) skipped" % (path, n_bad))
                print("perf-plots: %s: %d row(s)" % (path, n))
        except (OSError, UnicodeDecodeError, csv.Error) as e:
            warn("%s: cannot read: %s" % (path, e))
    return rows


def series(rows, value):
    """{size: median of value(row)} over rows whose value is known,
    as a sorted list of (w, h, value)."""
    by_size = defaultdict(list)
    for r in rows:
        v = value(r)
        if v is not None and v > 0:
            by_size[r.size].append(v)
    return sorted(((w, h, statistics.median(vs))
                   for (w, h), vs in by_size.items()),
                  key=lambda t: (t[0] * t[1], t[0]))


def size_ticks(ax, sizes):
    """Ticks at the measured sizes of a megapixel axis."""
    sizes = sorted(set(sizes), key=lambda s: (s[0] * s[1], s[0]))
    ticks, labels = [], []
    for w, h in sizes:
        mpx = w * h / 1e6
        if ticks and abs(math.log(mpx / ticks[-1])) < 0.05:
            continue            # the same megapixels: one tick
        ticks.append(mpx)
        labels.append("%dx%d\n%.2g MP" % (w, h, mpx))
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, fontsize=7)


def plot_line(ax, pts, label, **kw):
    if not pts:
        return False
    ax.plot([w * h / 1e6 for w, h, _ in pts], [v for _, _, v in pts],
            label=label, **kw)
    return True


def save(fig, path):
    fig.tight_layout()
    # No date in the file: the same data give the same SVG.
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    print("perf-plots: wrote %s" % path)


def by(rows, bench, pred=lambda r: True):
    return [r for r in rows if r.bench == bench and pred(r)]


def fps_of(r):
    return r.fps


def gbps_of(r):
    return r.gbps


def plot_element_fps(rows, path):
    """(a) The element's fps against the frame size, with its ceilings."""
    fig, ax = plt.subplots(figsize=(9, 6))
    sizes, n = [], 0
    # one pipeline, from the first run of each size (the sweep's; the
    # pipelines step's runs come after it)
    el = by(rows, "element-bench",
            lambda r: r.parallel == 1 and r.run and r.run[1] == 1)
    cm = by(rows, "cudamem-bench")
    kb = by(rows, "cudaedge-bench")

    # measured: system memory (cudaedge's rows: a sweep also measures
    # cudaupscale, whose frames move other bytes)
    groups = defaultdict(list)
    for r in el:
        if r.variant.startswith("cudaedge"):
            groups[(r.variant, r.format)].append(r)
    formats = set(fmt for _, fmt in groups)
    for (variant, fmt), rs in sorted(groups.items()):
        pts = series(rs, fps_of)
        if plot_line(ax, pts, "system memory: %s, %s in (element-bench)"
                     % (variant, fmt), marker="o", linewidth=2):
            n += 1
            sizes += [(w, h) for w, h, _ in pts]
    # measured: CUDA memory
    groups = defaultdict(list)
    for r in cm:
        if r.variant.startswith("cudaedge"):
            groups[(r.variant, r.format)].append(r)
    for (variant, fmt), rs in sorted(groups.items()):
        mode = variant.split(" ", 1)[1] if " " in variant else variant
        pts = series(rs, fps_of)
        if plot_line(ax, pts, "CUDA memory: cudaedge, %s in, %s out "
                     "(cudamem-bench)" % (fmt, mode), marker="s",
                     linewidth=2):
            n += 1
            sizes += [(w, h) for w, h, _ in pts]
    if n == 0:
        plt.close(fig)
        warn("%s: skipped: no element rows (element-bench or cudamem-bench "
             "with --csv)" % path)
        return False

    # ceilings: the link (element-bench; else cudaedge-bench's copies)
    link = defaultdict(list)
    for r in el:
        if r.variant == "link ceiling" and r.format in formats:
            bpp = round(r.bytes / (r.w * r.h), 2) if r.bytes else None
            link[(r.format, bpp)].append(r)
    for (fmt, bpp), rs in sorted(link.items(), key=lambda kv: str(kv[0])):
        plot_line(ax, series(rs, fps_of), "link ceiling: H2D + D2H "
                  "overlapped, %s in%s (element-bench)"
                  % (fmt, ", %g B/px" % bpp if bpp else ""),
                  linestyle="--", color="black", marker="x")
    if not link:
        plot_line(ax, series([r for r in kb if r.variant.startswith(
            "H2D+D2H overlapped")], fps_of), "link ceiling: H2D + D2H "
            "overlapped, GRAY8 (cudaedge-bench)", linestyle="--",
            color="black", marker="x")
    # ceilings: the kernel
    plot_line(ax, series([r for r in cm if r.variant == "kernel alone"],
                         fps_of),
              "kernel ceiling: fused kernel alone on NV12 in CUDA memory "
              "(cudamem-bench)", linestyle="--", color="tab:red", marker="+")
    plot_line(ax, series([r for r in cm if r.variant == "d2h alone"],
                         fps_of),
              "D2H of the GRAY8 output alone (cudamem-bench)",
              linestyle=":", color="tab:purple", marker="+")
    plot_line(ax, series([r for r in kb if r.variant ==
                          "fused edge (default)"], fps_of),
              "kernel ceiling: fused kernel, one launch per frame "
              "(cudaedge-bench)", linestyle="-.", color="tab:gray",
              marker="+")

    ax.set_xscale("log")
    ax.set_yscale("log")
    size_ticks(ax, sizes)
    ax.set_xlabel("frame size (megapixels)")
    ax.set_ylabel("frames per second")
    ax.set_title("cudaedge element: frame rate against frame size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    save(fig, path)
    return True


def plot_kernel_gbps(rows, path):
    """(b) GB/s of every fused variant against the frame size, beside the
    d2d copy."""
    kb = by(rows, "cudaedge-bench")
    groups = defaultdict(list)
    for r in kb:
        if r.variant.startswith("fused"):
            groups[r.variant].append(r)
    if not groups:
        warn("%s: skipped: no fused kernel rows (cudaedge-bench --csv)"
             % path)
        return False
    fig, ax = plt.subplots(figsize=(9, 6))
    sizes = []
    # the default variant first, the others in the program's order
    order = sorted(groups, key=lambda v: (v != "fused edge (default)",
                                          kb.index(groups[v][0])))
    for variant in order:
        pts = series(groups[variant], gbps_of)
        plot_line(ax, pts, variant, marker="o",
                  linewidth=2.5 if variant == "fused edge (default)" else 1.2)
        sizes += [(w, h) for w, h, _ in pts]
    pts = series([r for r in kb if r.variant == "d2d copy (ceiling)"],
                 gbps_of)
    if plot_line(ax, pts, "d2d copy of the same bytes (ceiling)",
                 linestyle="--", color="black", marker="x", linewidth=2):
        sizes += [(w, h) for w, h, _ in pts]
    ax.set_xscale("log")
    ax.set_yscale("log")
    size_ticks(ax, sizes)
    ax.set_xlabel("frame size (megapixels)")
    ax.set_ylabel("GB/s (2 bytes per pixel: luma read, output written)")
    ax.set_title("fused kernel against the device-to-device copy")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    save(fig, path)
    return True


def plot_upscale_fps(rows, path):
    """(d) cudaupscale's fps against the input frame size: on system memory
    beside its link, on CUDA memory beside its kernel alone."""
    # one pipeline, from the first run of each size (the sweep's; the
    # pipelines step's runs come after it)
    el = by(rows, "element-bench",
            lambda r: r.parallel == 1 and r.run and r.run[1] == 1)
    cm = by(rows, "cudamem-bench")
    lines = (
        ([r for r in el if r.variant.startswith("cudaupscale")],
         "system memory: cudaupscale, RGBA in (element-bench)",
         dict(marker="o", linewidth=2)),
        ([r for r in cm if r.variant.startswith("cudaupscale")],
         "CUDA memory: cudaupscale, RGBA in and out (cudamem-bench)",
         dict(marker="s", linewidth=2)),
        ([r for r in el if r.variant == "link ceiling" and r.format == "RGBA"],
         "link ceiling: H2D + D2H overlapped, RGBA in, 4x out "
         "(element-bench)", dict(linestyle="--", color="black")),
        ([r for r in cm if r.variant == "upscale kernel alone"],
         "kernel ceiling: the upscale kernel alone on RGBA in CUDA memory "
         "(cudamem-bench)", dict(linestyle=":", color="tab:red",
                                 linewidth=2)),
    )
    if not lines[0][0] and not lines[1][0]:
        warn("%s: skipped: no cudaupscale rows (perf-sweep.sh's upscale.csv)"
             % path)
        return False
    fig, ax = plt.subplots(figsize=(9, 6))
    sizes = []
    for rs, label, kw in lines:
        pts = series(rs, fps_of)
        if plot_line(ax, pts, label, **kw):
            sizes += [(w, h) for w, h, _ in pts]
    ax.set_xscale("log")
    ax.set_yscale("log")
    size_ticks(ax, sizes)
    ax.set_xlabel("input frame size (megapixels; the output has four times "
                  "as many)")
    ax.set_ylabel("frames per second")
    ax.set_title("cudaupscale element: frame rate against frame size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    save(fig, path)
    return True


def plot_pipelines(rows, path):
    """(c) Frames per second of N pipelines together against N, with the
    link ceiling of the same size."""
    el = by(rows, "element-bench")
    groups = defaultdict(list)
    for r in el:
        if r.variant != "identity" and "link" not in r.variant and r.fps:
            groups[(r.variant, r.format, r.size, r.run)].append(r)
    groups = {k: rs for k, rs in groups.items()
              if len({r.parallel for r in rs}) > 1}
    if not groups:
        warn("%s: skipped: no element rows with several pipeline counts "
             "(element-bench --pipelines 1,2,4,8 --csv)" % path)
        return False
    fig, ax = plt.subplots(figsize=(8, 5.5))
    counts = set()
    top = 0.0
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, ((variant, fmt, (w, h), run), rs) in enumerate(
            sorted(groups.items(), key=lambda kv: kv[0][:3])):
        color = cycle[i % len(cycle)]
        per_n = defaultdict(list)
        for r in rs:
            per_n[r.parallel].append(r.fps)
        ns = sorted(per_n)
        counts.update(ns)
        fps = [statistics.median(per_n[k]) for k in ns]
        top = max(top, max(fps))
        bytes_ = statistics.median([r.bytes or 0 for r in rs])
        # spread over D devices (--devices): the D links measured at once
        m = re.search(r", (\d+) devices$", variant)
        link_name = "%s links" % m.group(1) if m else "link ceiling"
        # the link measured in the same run as these pipelines
        link = [r.fps for r in el if r.variant == link_name
                and r.format == fmt and r.size == (w, h) and r.fps
                and r.run == run
                and (not r.bytes or not bytes_ or r.bytes == bytes_)]
        link_fps = statistics.median(link) if link else None
        ax.plot(ns, fps, marker="o", color=color, linewidth=2,
                label="%s, %s %dx%d: all pipelines together%s"
                % (variant, fmt, w, h, " (% of the link)" if link else ""))
        if link_fps:
            top = max(top, link_fps)
            ax.axhline(link_fps, color=color, linestyle="--",
                       label="%s, %dx%d" % (
                           "%s at once" % link_name if m else
                           "link ceiling", w, h))
            for k, v in zip(ns, fps):
                ax.annotate("%.0f %%" % (100.0 * v / link_fps), (k, v),
                            textcoords="offset points", xytext=(0, -14),
                            ha="center", fontsize=7, color=color)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(counts))
    ax.set_xticklabels([str(k) for k in sorted(counts)])
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax.set_ylim(0, top * 1.12 if top > 0 else None)
    ax.set_xlabel("pipelines at once (one process)")
    ax.set_ylabel("frames per second, all pipelines together")
    ax.set_title("cudaedge element: several pipelines at once")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    save(fig, path)
    return True


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.split("\nCSV schema")[0].strip(),
              file=sys.stdout if len(argv) == 2 else sys.stderr)
        return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2
    csv_dir, out_dir = argv[1], argv[2]
    if not os.path.isdir(csv_dir):
        warn("%s is not a folder" % csv_dir)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    matplotlib.rcParams["svg.hashsalt"] = "perf-plots"
    rows = read_rows(csv_dir)
    written = 0
    for plot, name in ((plot_element_fps, "element-fps.svg"),
                       (plot_kernel_gbps, "kernel-gbps.svg"),
                       (plot_pipelines, "pipelines-fps.svg"),
                       (plot_upscale_fps, "upscale-fps.svg")):
        try:
            written += plot(rows, os.path.join(out_dir, name))
        except Exception as e:  # one bad plot must not stop the others
            warn("%s: failed: %s: %s" % (name, type(e).__name__, e))
    print("perf-plots: %d plot(s) in %s" % (written, out_dir))
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
