/* cudamem-bench: cudaedge or cudaupscale on GStreamer CUDA memory against
 * its kernel alone and the download link, measured in the same run
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run from the source root after building into build/:
 *
 *   GST_PLUGIN_PATH=build/gst build/tests/bench/cudamem-bench \
 *       [--element cudaedge|cudaupscale] [--size WxH]... \
 *       [--system-fps 1080p=13143,4k=4167]
 *
 * (--system-fps takes the element's rate on system memory, the fps column
 * of element-bench, so that the table shows what CUDA memory gains.)
 *
 * --element picks the element under test: cudaedge (the default) or
 * cudaupscale.  What follows describes cudaedge; the differences for
 * cudaupscale come after the list.
 *
 * Everything runs in one GstCudaContext that the program creates and
 * hands to the pipelines with gst_element_set_context (), the way an
 * application shares a decoder's context.  For each frame size:
 *  1. Input: K NV12 frames of a GstCudaBufferPool of that context, random
 *     luma, written once through a host mapping and uploaded once (a
 *     GST_MAP_CUDA mapping) before anything is timed.
 *  2. Kernel ceiling: the fused edge kernel alone, ce_cuda_dev_edge_submit
 *     on the Y planes of those frames into device GRAY8 images, with the
 *     context pushed; several frames queued per wait, the slots taken
 *     in turn, so the GPU always has work; frames per second of the
 *     whole loop (median of a few repetitions).  The frames do not
 *     signal their end in memory (ce_cuda_dev_set_end_signals): the
 *     kernel as it is.
 *  3. Link ceiling for GRAY8 out in system memory: the D2H copy of W x H
 *     bytes into pinned memory alone (cudaMemcpyAsync, events).
 *  4. Pipeline ceiling: appsrc ! capsfilter ! fakesink with the same
 *     frames and pushes but no cudaedge, timed as below: what the source,
 *     the sink and GStreamer's buffer passing cost a frame.
 *  5. The element: appsrc (NV12 in CUDA memory, framerate 1000/1, so the
 *     element keeps one frame in flight) ! cudaedge backend=cuda !
 *     capsfilter ! fakesink sync=false, with GRAY8 in system memory or NV12
 *     in CUDA memory out.  Each push is a shallow copy of one of the K
 *     frames with fresh timestamps: no upload per frame.  By default
 *     appsrc has no limit, so its streaming thread never waits for the
 *     pushing thread, and the pusher keeps appsrc's queue between
 *     QUEUE_LOW and QUEUE_HIGH frames by looking at its level and
 *     sleeping, not by blocking.  It must not push the whole run at once:
 *     each shallow copy is a parent of its frame's memories, and
 *     GStreamer finds a parent to remove by a linear search, so with
 *     thousands of copies of each of the K frames alive every buffer freed
 *     cost microseconds of the streaming thread (PERFORMANCE.md).
 *     --queue N lets appsrc hold only N frames, the pusher blocking, as an
 *     application that produces frames as they are needed would.  A pad probe on
 *     fakesink times the steady state, from the output of the last warm-up
 *     frame to the last output, and checks that every output is in the
 *     memory asked for (CUDA memory of the benchmark's context, or system
 *     memory).
 * With --element cudaupscale: the K input frames are RGBA W x H, every
 * byte random (alpha and row padding too); the kernel ceiling is the
 * bilinear 2x upscale alone, ce_cuda_dev_upscale2x_submit (4 bytes per
 * pixel) into device images of 2W x 2H RGBA, in the same loop; there is
 * no D2H link ceiling (step 3) and no output in system memory; the
 * pipeline ceiling takes the RGBA input caps; and the element runs as
 * appsrc ! cudaupscale backend=cuda ! capsfilter (RGBA in CUDA memory,
 * 2W x 2H) ! fakesink, the one output mode RGBA/CUDAMemory.  It writes
 * four output pixels per input pixel, so by default it runs a quarter
 * of the frames cudaedge's scaling by size gives (before the common
 * cap: small frames get the same count).
 * Two checks that the element really works in the context it was given:
 * after every run, a CONTEXT query on the element must return that
 * context; and, before the sizes, a frame of a second GstCudaContext must
 * be refused with a stream error (both elements share this code, in
 * their base class).  A GstCudaContext that an element announces
 * (HAVE_CONTEXT) besides the given one is reported once, as a note: it
 * is not used for the frames, but costs device memory.
 *
 * Exit: 0 done, 77 "SKIP: no CUDA device", 1 on any error, 2 on bad
 * options.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>

#include "bench-gst.h"
#include "bench-util.h"
#include "cudaedge-core.h"
#include "cudaedge-device.h"

#define MAX_SIZES 16
#define MAX_SYSTEM_FPS 16
#define K_BUFFERS 8
/* Without --queue, the pusher keeps appsrc's queue between these levels
 * (frames) without blocking it: see run_element (). */
#define QUEUE_LOW 128
#define QUEUE_HIGH 256
#define QUEUE_POLL_US 50
#define DEFAULT_FRAMES_1080P 10000
#define MIN_FRAMES 500
#define DEFAULT_WARMUP 100
#define DEFAULT_RUNS 3
#define KERNEL_REPS 5
#define KERNEL_WARMUP_FRAMES 100
#define KERNEL_BATCH 8          /* frames queued on a slot per wait */
#define LINK_BATCH 10           /* copies per timed link repetition */
#define LINK_REPS 31
#define CHECK_TIMEOUT (10 * GST_SECOND)
#define EOS_TIMEOUT (600 * GST_SECOND)

#define CAPS_GRAY8_SYSTEM "video/x-raw,format=GRAY8"
#define CAPS_NV12_CUDA "video/x-raw(memory:CUDAMemory),format=NV12"
#define CAPS_RGBA_CUDA "video/x-raw(memory:CUDAMemory),format=RGBA"

/* ------------------------------------------------------------------ */
/* Errors */

#define CK(x) do { cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) bench_die ("%s:%d: %s failed: %s (%s)", __FILE__, \
        __LINE__, #x, cudaGetErrorString (e_), cudaGetErrorName (e_)); \
  } while (0)

#define CE_CK(x) do { ce_status s_ = (x); \
    if (s_ != CE_STATUS_OK) bench_die ("%s:%d: %s failed: %s: %s", __FILE__, \
        __LINE__, #x, ce_status_string (s_), ce_last_error ()); \
  } while (0)

/* ------------------------------------------------------------------ */
/* Options */

typedef struct
{
  size2 size;                   /* {0, 0}: the position-th --size */
  int position;
  double fps;
} system_rate;

/* The elements' output modes; each element runs some of them. */
typedef enum
{
  MODE_GRAY8_SYSTEM,
  MODE_NV12_CUDA,
  MODE_RGBA_CUDA,
  N_MODES
} out_mode;

static const char *const mode_name[N_MODES] = {
  "GRAY8/system", "NV12/CUDAMemory", "RGBA/CUDAMemory"
};

/* Whether the outputs of a mode are in CUDA memory (of the benchmark's
 * context) rather than system memory. */
static const gboolean mode_cuda[N_MODES] = { FALSE, TRUE, TRUE };

/* An element under test (--element). */
typedef struct
{
  const char *name;             /* its factory name */
  gboolean upscale;             /* cudaupscale: RGBA in, 2W x 2H RGBA out */
  GstVideoFormat format;        /* of the input frames */
  const char *in_caps;          /* the input's caps, without the size */
  const char *kernel_name;      /* its kernel ceiling (CSV variant) */
  double kernel_bytes;          /* bytes the kernel moves per input pixel */
  int work;                     /* work per frame over cudaedge's */
  gboolean d2h;                 /* measure the D2H of a GRAY8 output */
  int n_modes;
  out_mode modes[N_MODES];      /* the output modes run, in this order */
} bench_element;

static const bench_element elements[] = {
  /* Y plane read, GRAY8 written. */
  {"cudaedge", FALSE, GST_VIDEO_FORMAT_NV12, CAPS_NV12_CUDA, "kernel alone",
      2, 1, TRUE, 2, {MODE_GRAY8_SYSTEM, MODE_NV12_CUDA}},
  /* RGBA read (4 bytes), four RGBA pixels written (16 bytes); four output
   * pixels per input pixel: about four times cudaedge's work. */
  {"cudaupscale", TRUE, GST_VIDEO_FORMAT_RGBA, CAPS_RGBA_CUDA,
      "upscale kernel alone", 20, 4, FALSE, 1, {MODE_RGBA_CUDA}},
};

static struct
{
  size2 sizes[MAX_SIZES];
  int n_sizes;
  int frames;                   /* 0: scaled from DEFAULT_FRAMES_1080P */
  int warmup;
  int runs;
  int device;
  int queue;                    /* frames appsrc holds; 0: all of a run */
  system_rate system[MAX_SYSTEM_FPS];
  int n_system;
  const char *csv;
  const bench_element *el;      /* the element under test */
} opt = {.warmup = DEFAULT_WARMUP,.runs = DEFAULT_RUNS,.device = 0,
  .el = &elements[0]
};

static void
usage (FILE * f)
{
  fprintf (f,
      "Usage: cudamem-bench [OPTIONS]\n"
      "  --element NAME      the element under test: cudaedge (default; NV12\n"
      "                      in, GRAY8/system and NV12/CUDAMemory out) or\n"
      "                      cudaupscale (RGBA in, RGBA/CUDAMemory of twice\n"
      "                      the width and height out; no D2H ceiling)\n"
      "  --size WxH          input frame size (repeatable; default 1920x1080\n"
      "                      and 3840x2160)\n"
      "  --frames N          timed frames per run (default %d at 1080p,\n"
      "                      scaled down by pixel count for larger frames;\n"
      "                      a quarter of that, within the same cap, for\n"
      "                      cudaupscale)\n"
      "  --warmup N          frames before timing starts (default %d)\n"
      "  --runs N            runs per pipeline; median and spread are shown\n"
      "                      (default %d)\n"
      "  --device N          CUDA device (default 0)\n"
      "  --queue N           frames appsrc may hold, the pushing thread\n"
      "                      blocking when it holds N (default 0: no\n"
      "                      limit; the pusher keeps 128-256 frames\n"
      "                      queued, sleeping, never blocking appsrc)\n"
      "  --system-fps LIST   the element's rate on system memory, from\n"
      "                      element-bench, for the x_system column:\n"
      "                      SIZE=FPS,... with SIZE 720p, 1080p, 4k (2160p),\n"
      "                      8k (4320p) or WxH; e.g. 1080p=13143,4k=4167;\n"
      "                      a bare FPS goes with the size in its position\n"
      "  --csv FILE          also append one line per measured row to FILE\n"
      "                      (the header first when FILE is new or empty;\n"
      "                      columns in tools/perf-plots.py)\n"
      "Run: GST_PLUGIN_PATH=build/gst build/tests/bench/cudamem-bench\n"
      "Exit: 0 done, 77 no CUDA device (SKIP), 1 error, 2 bad options.\n",
      DEFAULT_FRAMES_1080P, DEFAULT_WARMUP, DEFAULT_RUNS);
}

/* SIZE=FPS,SIZE=FPS,... or FPS,FPS,... in the order of the sizes. */
static void
parse_system_fps (const char *list)
{
  static const struct
  {
    const char *name;
    size2 size;
  } names[] = {
    {"720p", {1280, 720}},
    {"1080p", {1920, 1080}},
    {"2160p", {3840, 2160}},
    {"4k", {3840, 2160}},
    {"4320p", {7680, 4320}},
    {"8k", {7680, 4320}},
  };
  gchar **items = g_strsplit (list, ",", -1);
  int i;

  for (i = 0; items[i]; i++) {
    char *eq = strchr (items[i], '='), *value = items[i], *end;
    system_rate *sr;
    gsize k;
    gboolean named = FALSE;

    if (opt.n_system >= MAX_SYSTEM_FPS)
      bench_bad_option ("--system-fps: at most %d entries", MAX_SYSTEM_FPS);
    sr = &opt.system[opt.n_system];
    sr->position = i;
    if (eq) {
      *eq = '\0';
      value = eq + 1;
      for (k = 0; k < G_N_ELEMENTS (names); k++) {
        if (!g_ascii_strcasecmp (items[i], names[k].name)) {
          sr->size = names[k].size;
          named = TRUE;
        }
      }
      if (!named && !bench_try_parse_size (items[i], 16384, &sr->size))
        bench_bad_option ("--system-fps: unknown size '%s' (720p, 1080p, 4k, "
            "2160p, 8k, 4320p or WxH)", items[i]);
    }
    errno = 0;
    sr->fps = strtod (value, &end);
    if (errno || end == value || *end || !(sr->fps > 0))
      bench_bad_option ("--system-fps: bad frame rate '%s'", value);
    opt.n_system++;
  }
  g_strfreev (items);
}

static void
parse_args (int argc, char **argv)
{
  const char *v;
  int i;

  for (i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--help") || !strcmp (argv[i], "-h")) {
      usage (stdout);
      exit (0);
    } else if ((v = bench_opt_value (argc, argv, &i, "--size"))) {
      if (opt.n_sizes >= MAX_SIZES)
        bench_bad_option ("at most %d --size", MAX_SIZES);
      opt.sizes[opt.n_sizes++] = bench_parse_size (v, 16384);
    } else if ((v = bench_opt_value (argc, argv, &i, "--frames"))) {
      opt.frames = bench_parse_int (v, 1, 10000000, "--frames");
    } else if ((v = bench_opt_value (argc, argv, &i, "--warmup"))) {
      opt.warmup = bench_parse_int (v, 1, 1000000, "--warmup");
    } else if ((v = bench_opt_value (argc, argv, &i, "--runs"))) {
      opt.runs = bench_parse_int (v, 1, 1000, "--runs");
    } else if ((v = bench_opt_value (argc, argv, &i, "--device"))) {
      opt.device = bench_parse_int (v, 0, 1024, "--device");
    } else if ((v = bench_opt_value (argc, argv, &i, "--queue"))) {
      opt.queue = bench_parse_int (v, 0, 1000000, "--queue");
    } else if ((v = bench_opt_value (argc, argv, &i, "--system-fps"))) {
      parse_system_fps (v);
    } else if ((v = bench_opt_value (argc, argv, &i, "--csv"))) {
      opt.csv = v;
    } else if ((v = bench_opt_value (argc, argv, &i, "--element"))) {
      gsize k;

      opt.el = NULL;
      for (k = 0; k < G_N_ELEMENTS (elements); k++)
        if (!strcmp (v, elements[k].name))
          opt.el = &elements[k];
      if (!opt.el)
        bench_bad_option ("unknown --element '%s' (cudaedge or "
            "cudaupscale)", v);
    } else {
      fprintf (stderr, "cudamem-bench: unknown option '%s'\n", argv[i]);
      usage (stderr);
      exit (2);
    }
  }
  if (opt.n_sizes == 0) {
    opt.sizes[0] = (size2) {1920, 1080};
    opt.sizes[1] = (size2) {3840, 2160};
    opt.n_sizes = 2;
  }
  for (i = 0; i < opt.n_system; i++) {
    system_rate *sr = &opt.system[i];

    if (sr->size.w)
      continue;
    if (sr->position >= opt.n_sizes)
      bench_bad_option ("--system-fps: rate %d (%g) has no frame size: %d "
          "size(s)", sr->position + 1, sr->fps, opt.n_sizes);
    sr->size = opt.sizes[sr->position];
  }
}

static int
frames_for (size2 s)
{
  double f;

  if (opt.frames > 0)
    return opt.frames;
  /* On an H200, 50-100 ms a run up to 1440p (10,000 frames at
   * 100,000-200,000 a second), less from 4K up; an element
   * with more work per frame (cudaupscale: four output pixels per input
   * pixel) runs proportionally fewer frames of the same input size.  The
   * cap is the same for both: below it, the host's work per frame, not
   * the pixels, sets the rate. */
  f = DEFAULT_FRAMES_1080P * (1920.0 * 1080.0) / ((double) s.w * s.h)
      / opt.el->work;
  if (f > DEFAULT_FRAMES_1080P)
    f = DEFAULT_FRAMES_1080P;
  if (f < MIN_FRAMES)
    f = MIN_FRAMES;
  return (int) f;
}

static double
system_fps_for (size2 s)
{
  int i;

  for (i = 0; i < opt.n_system; i++)
    if (opt.system[i].size.w == s.w && opt.system[i].size.h == s.h)
      return opt.system[i].fps;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Input frames in CUDA memory */

typedef struct
{
  GstVideoInfo info;            /* NV12 or RGBA, framerate 1000/1 */
  GstCaps *caps;                /* the same in memory:CUDAMemory */
  GstBufferPool *pool;
  GstBuffer *bufs[K_BUFFERS];
  int n_bufs;
} input_set;

static gboolean
is_cuda_memory_of (GstMemory * mem, GstCudaContext * ctx)
{
  return mem && gst_is_cuda_memory (mem)
      && ((GstCudaMemory *) mem)->context == ctx;
}

/* Plane 0 random (NV12: the luma; RGBA: every byte), NV12's chroma 128:
 * written once in host memory, then uploaded once by a CUDA mapping, so
 * that no frame is uploaded while timing. */
static void
fill_frame (GstBuffer * buf, const GstVideoInfo * info, guint32 seed)
{
  GstVideoFrame frame;
  GstMapInfo map;
  guint32 x = seed * 2654435761u + 1;
  guint8 *row;
  gint stride, y, i;

  if (!gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE))
    bench_die ("cannot map an input frame in host memory for writing");
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (&frame); y++) {
    row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) + (gsize) y *
        stride;
    for (i = 0; i < stride; i++) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      row[i] = (guint8) (x >> 24);
    }
  }
  if (GST_VIDEO_FRAME_N_PLANES (&frame) > 1)
    memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, 1), 128,
        (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 1) *
        GST_VIDEO_FRAME_COMP_HEIGHT (&frame, 1));
  gst_video_frame_unmap (&frame);

  if (!gst_buffer_map (buf, &map, GST_MAP_READ | GST_MAP_CUDA))
    bench_die ("cannot map an input frame in CUDA memory (upload failed)");
  gst_buffer_unmap (buf, &map);
}

/* @n frames of @format (the element's input, NV12 or RGBA). */
static void
make_inputs (input_set * in, GstCudaContext * ctx, GstVideoFormat format,
    size2 s, int n)
{
  const char *fmt = gst_video_format_to_string (format);
  GstStructure *config;
  guint size;
  int i;

  memset (in, 0, sizeof *in);
  gst_video_info_init (&in->info);
  if (!gst_video_info_set_format (&in->info, format, s.w, s.h))
    bench_die ("cannot describe %s %dx%d", fmt, s.w, s.h);
  GST_VIDEO_INFO_FPS_N (&in->info) = 1000;
  GST_VIDEO_INFO_FPS_D (&in->info) = 1;
  in->caps = gst_video_info_to_caps (&in->info);
  if (!in->caps)
    bench_die ("cannot make caps for %s %dx%d", fmt, s.w, s.h);
  gst_caps_set_features (in->caps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));

  in->pool = gst_cuda_buffer_pool_new (ctx);
  size = (guint) in->info.size;
  config = gst_buffer_pool_get_config (in->pool);
  gst_buffer_pool_config_set_params (config, in->caps, size, n, n);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (in->pool, config)) {
    /* The pool may have adjusted the parameters: accept them if valid. */
    config = gst_buffer_pool_get_config (in->pool);
    gst_buffer_pool_config_get_params (config, NULL, &size, NULL, NULL);
    if (!gst_buffer_pool_config_validate_params (config, in->caps, size, n,
            n)) {
      gst_structure_free (config);
      bench_die ("GstCudaBufferPool rejected %s %dx%d in CUDA memory", fmt, s.w,
          s.h);
    }
    if (!gst_buffer_pool_set_config (in->pool, config))
      bench_die ("GstCudaBufferPool rejected its own adjusted configuration");
  }
  if (!gst_buffer_pool_set_active (in->pool, TRUE))
    bench_die ("cannot activate the GstCudaBufferPool (%dx%d)", s.w, s.h);

  for (i = 0; i < n; i++) {
    GstFlowReturn ret = gst_buffer_pool_acquire_buffer (in->pool,
        &in->bufs[i], NULL);

    if (ret != GST_FLOW_OK || !in->bufs[i])
      bench_die ("acquiring input frame %d from the GstCudaBufferPool: %s", i,
          gst_flow_get_name (ret));
    in->n_bufs = i + 1;
    if (!is_cuda_memory_of (gst_buffer_peek_memory (in->bufs[i], 0), ctx))
      bench_die ("the GstCudaBufferPool gave memory that is not CUDA memory of "
          "its context");
    fill_frame (in->bufs[i], &in->info, i + 1);
  }
}

static void
free_inputs (input_set * in)
{
  int i;

  for (i = 0; i < in->n_bufs; i++)
    gst_buffer_unref (in->bufs[i]);     /* back to the pool */
  in->n_bufs = 0;
  if (in->pool) {
    if (!gst_buffer_pool_set_active (in->pool, FALSE))
      bench_die ("cannot deactivate the GstCudaBufferPool");
    gst_object_unref (in->pool);
  }
  gst_caps_unref (in->caps);
}

/* ------------------------------------------------------------------ */
/* Ceilings, in the benchmark's GstCudaContext */

typedef struct
{
  double fps, spread;
  double q1, q3;                /* quartiles of fps */
} kernel_ceiling;

typedef struct
{
  double us;                    /* per frame */
  double q1_us, q3_us;          /* its quartiles */
  double gbs;
} link_ceiling;

static void
push_context (GstCudaContext * ctx)
{
  if (!gst_cuda_context_push (ctx))
    bench_die ("gst_cuda_context_push failed");
}

static void
pop_context (void)
{
  if (!gst_cuda_context_pop (NULL))
    bench_die ("gst_cuda_context_pop failed");
}

/* @n frames back to back: KERNEL_BATCH frames queued on one slot, then on
 * the other; a slot is waited for only before it is reused, so the other
 * slot's batch keeps the GPU busy meanwhile.  The fused edge kernel, or
 * with @upscale the 2x upscale of 4-byte pixels (@params unused). */
static void
run_kernel_frames (ce_cuda_dev * dev, const ce_frame * src, int n_src,
    const ce_edge_params * params, gboolean upscale, uint8_t ** d_out,
    const size_t * pitch, int n)
{
  int i = 0, b, slot = 0;

  while (i < n) {
    CE_CK (ce_cuda_dev_wait (dev, slot, NULL));
    for (b = 0; b < KERNEL_BATCH && i < n; b++, i++) {
      const ce_frame *f = &src[i % n_src];

      if (upscale)
        CE_CK (ce_cuda_dev_upscale2x_submit (dev, slot, f->data, f->stride,
                f->width, f->height, 4, d_out[slot], pitch[slot]));
      else
        CE_CK (ce_cuda_dev_edge_submit (dev, slot, f, params, d_out[slot],
                pitch[slot], NULL, 0));
    }
    slot = (slot + 1) % CE_CUDA_SLOTS;
  }
  for (slot = 0; slot < CE_CUDA_SLOTS; slot++)
    CE_CK (ce_cuda_dev_wait (dev, slot, NULL));
}

/* The element's kernel alone on the input frames: the fused edge kernel
 * on their Y planes (device NV12 in, device GRAY8 out), default parameters
 * like the element's; or for cudaupscale the 2x upscale (device RGBA
 * W x H in, device RGBA 2W x 2H out). */
static kernel_ceiling
measure_kernel (GstCudaContext * ctx, input_set * in, int frames)
{
  gboolean upscale = opt.el->upscale;
  GstVideoFrame vf[K_BUFFERS];
  ce_frame src[K_BUFFERS];
  uint8_t *d_out[CE_CUDA_SLOTS];
  size_t pitch[CE_CUDA_SLOTS];
  ce_edge_params params;
  ce_cuda_dev *dev = NULL;
  kernel_ceiling kc;
  double fps[KERNEL_REPS];
  gint64 t0, t1;
  int i, r;

  for (i = 0; i < in->n_bufs; i++) {
    if (!gst_video_frame_map (&vf[i], &in->info, in->bufs[i],
            GST_MAP_READ | GST_MAP_CUDA))
      bench_die ("cannot map input frame %d in CUDA memory", i);
    src[i].data = GST_VIDEO_FRAME_PLANE_DATA (&vf[i], 0);
    src[i].stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf[i], 0);
    src[i].width = GST_VIDEO_FRAME_WIDTH (&vf[i]);
    src[i].height = GST_VIDEO_FRAME_HEIGHT (&vf[i]);
    src[i].format = upscale ? CE_FORMAT_RGBA : CE_FORMAT_NV12;
  }
  ce_edge_params_init (&params);

  push_context (ctx);
  CE_CK (ce_cuda_dev_new (&dev));
  /* The kernel as it is: without the end signal the element's frames
   * carry (cudaedge-device.h), which these waits would not use. */
  ce_cuda_dev_set_end_signals (dev, 0, 0);
  /* GRAY8 W x H, or RGBA 2W x 2H. */
  for (i = 0; i < CE_CUDA_SLOTS; i++)
    CK (cudaMallocPitch ((void **) &d_out[i], &pitch[i],
            (size_t) src[0].width * (upscale ? 2 * 4 : 1),
            (size_t) src[0].height * (upscale ? 2 : 1)));
  run_kernel_frames (dev, src, in->n_bufs, &params, upscale, d_out, pitch,
      KERNEL_WARMUP_FRAMES);
  for (r = 0; r < KERNEL_REPS; r++) {
    t0 = g_get_monotonic_time ();
    run_kernel_frames (dev, src, in->n_bufs, &params, upscale, d_out, pitch,
        frames);
    t1 = g_get_monotonic_time ();
    fps[r] = t1 > t0 ? frames / ((t1 - t0) * 1e-6) : 0;
  }
  ce_cuda_dev_free (dev);
  for (i = 0; i < CE_CUDA_SLOTS; i++)
    CK (cudaFree (d_out[i]));
  pop_context ();

  for (i = 0; i < in->n_bufs; i++)
    gst_video_frame_unmap (&vf[i]);
  kc.fps = bench_median (fps, KERNEL_REPS, &kc.spread);    /* sorts */
  kc.q1 = bench_percentile (fps, KERNEL_REPS, 0.25);
  kc.q3 = bench_percentile (fps, KERNEL_REPS, 0.75);
  return kc;
}

/* The D2H copy of one GRAY8 frame (@bytes) into pinned host memory, alone:
 * what the GRAY8-in-system-memory output cannot beat. */
static link_ceiling
measure_d2h (GstCudaContext * ctx, size_t bytes)
{
  link_ceiling lc;
  double t[LINK_REPS];
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
  void *h_buf, *d_buf;
  float ms;
  int r, f;

  push_context (ctx);
  CK (cudaHostAlloc (&h_buf, bytes, cudaHostAllocDefault));
  CK (cudaMalloc (&d_buf, bytes));
  CK (cudaMemset (d_buf, 0xa5, bytes));
  CK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CK (cudaEventCreate (&ev0));
  CK (cudaEventCreate (&ev1));
  CK (cudaDeviceSynchronize ());
  for (r = -2; r < LINK_REPS; r++) {    /* two warm-up repetitions */
    CK (cudaEventRecord (ev0, stream));
    for (f = 0; f < LINK_BATCH; f++)
      CK (cudaMemcpyAsync (h_buf, d_buf, bytes, cudaMemcpyDeviceToHost,
              stream));
    CK (cudaEventRecord (ev1, stream));
    CK (cudaEventSynchronize (ev1));
    CK (cudaEventElapsedTime (&ms, ev0, ev1));
    if (r >= 0)
      t[r] = ms * 1e3 / LINK_BATCH;
  }
  CK (cudaEventDestroy (ev1));
  CK (cudaEventDestroy (ev0));
  CK (cudaStreamDestroy (stream));
  CK (cudaFree (d_buf));
  CK (cudaFreeHost (h_buf));
  pop_context ();

  lc.us = bench_median (t, LINK_REPS, NULL);  /* sorts */
  lc.q1_us = bench_percentile (t, LINK_REPS, 0.25);
  lc.q3_us = bench_percentile (t, LINK_REPS, 0.75);
  lc.gbs = lc.us > 0 ? bytes / (lc.us * 1e3) : 0;
  return lc;
}

/* ------------------------------------------------------------------ */
/* The element */

/* The caps after the element for @mode, given the input @info: the
 * cudaupscale output's size fixed at twice the input's. */
static gchar *
mode_caps (out_mode mode, const GstVideoInfo * info)
{
  switch (mode) {
    case MODE_GRAY8_SYSTEM:
      return g_strdup (CAPS_GRAY8_SYSTEM);
    case MODE_NV12_CUDA:
      return g_strdup (CAPS_NV12_CUDA);
    case MODE_RGBA_CUDA:
    default:
      return g_strdup_printf (CAPS_RGBA_CUDA ",width=%d,height=%d",
          2 * GST_VIDEO_INFO_WIDTH (info), 2 * GST_VIDEO_INFO_HEIGHT (info));
  }
}

/* Written by the streaming thread, read after EOS (the bus orders it). */
typedef struct
{
  GstCudaContext *ctx;
  gboolean cuda;                /* outputs in CUDA memory of ctx, else system */
  guint64 count;
  guint64 start_mark, end_mark;
  gint64 t0, t1;
  guint64 wrong_memory;
  gchar *wrong_what;            /* the first wrong output's memory type */
} probe_data;

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  probe_data *pd = user_data;
  gint64 now = g_get_monotonic_time ();
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);
  gboolean ok = pd->cuda ? is_cuda_memory_of (mem, pd->ctx)
      : mem && !gst_is_cuda_memory (mem);

  (void) pad;
  if (!ok && pd->wrong_memory++ == 0)
    pd->wrong_what = g_strdup (!mem ? "no memory" :
        gst_is_cuda_memory (mem) ? "CUDA memory of another context" :
        mem->allocator ? mem->allocator->mem_type : "?");
  pd->count++;
  if (pd->count == pd->start_mark)
    pd->t0 = now;
  if (pd->count == pd->end_mark)
    pd->t1 = now;
  return GST_PAD_PROBE_OK;
}

typedef struct
{
  GstElement *pipeline, *appsrc, *el, *sink;
  GstBus *bus;
  GstCudaContext *ctx;          /* the context given to the pipeline */
  gboolean expect_error;
  gint other_contexts;          /* GstCudaContexts announced besides ctx */
} bench_pipeline;

/* A GstCudaContext that an element of @p announces (HAVE_CONTEXT) other
 * than the one the pipeline was given: one the element made itself. */
static void
note_have_context (bench_pipeline * p, GstMessage * msg)
{
  GstCudaContext *announced = NULL;
  GstContext *context = NULL;

  gst_message_parse_have_context (msg, &context);
  if (context && gst_context_has_context_type (context, GST_CUDA_CONTEXT_TYPE)
      && gst_structure_get (gst_context_get_structure (context),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &announced, NULL)) {
    if (announced != p->ctx)
      g_atomic_int_inc (&p->other_contexts);
    gst_object_unref (announced);
  }
  if (context)
    gst_context_unref (context);
}

/* Errors can come from a streaming thread while the main thread is blocked
 * in gst_app_src_push_buffer (block=true): report and leave from here
 * (bench_bus_report ()), unless the caller waits for the error itself. */
static GstBusSyncReply
bus_sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  bench_pipeline *p = user_data;

  (void) bus;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    if (p)
      note_have_context (p, msg);
  } else if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR || !p
      || !p->expect_error) {
    bench_bus_report (msg);
  }
  return GST_BUS_PASS;
}

/* appsrc ! ELEMENT backend=cuda ! <caps of @mode> ! fakesink, ELEMENT
 * the one under test, given @ctx before it leaves NULL; with @mode -1
 * without the element (the caps are then the input's). */
static void
pipeline_new (bench_pipeline * p, GstCudaContext * ctx, input_set * in,
    int mode)
{
  gboolean with_element = mode >= 0;
  GError *err = NULL;
  GstContext *context;
  gchar *desc, *caps;

  memset (p, 0, sizeof *p);
  p->ctx = ctx;
  if (with_element) {
    caps = mode_caps ((out_mode) mode, &in->info);
    desc = g_strdup_printf ("appsrc name=src ! %s name=el backend=cuda "
        "! %s ! fakesink name=sink sync=false", opt.el->name, caps);
    g_free (caps);
  } else {
    desc = g_strdup_printf ("appsrc name=src ! %s ! fakesink "
        "name=sink sync=false", opt.el->in_caps);
  }
  p->pipeline = gst_parse_launch (desc, &err);
  if (err || !p->pipeline)
    bench_die ("gst_parse_launch (\"%s\"): %s", desc,
        err ? err->message : "no pipeline");
  g_free (desc);
  p->appsrc = gst_bin_get_by_name (GST_BIN (p->pipeline), "src");
  p->el = with_element ? gst_bin_get_by_name (GST_BIN (p->pipeline), "el")
      : NULL;
  p->sink = gst_bin_get_by_name (GST_BIN (p->pipeline), "sink");
  if (!p->appsrc || (with_element && !p->el) || !p->sink)
    bench_die ("the pipeline lacks src, el or sink");

  /* The element's context comes from the application, as a decoder's
   * would come from its neighbour. */
  context = gst_context_new_cuda_context (ctx);
  if (!context)
    bench_die ("gst_context_new_cuda_context failed");
  gst_element_set_context (p->pipeline, context);
  gst_context_unref (context);

  /* max-bytes 0: no limit, so nothing blocks (the pusher paces itself). */
  g_object_set (p->appsrc, "caps", in->caps, "format", GST_FORMAT_TIME,
      "is-live", FALSE, "block", opt.queue > 0,
      "max-bytes", (guint64) opt.queue * gst_buffer_get_size (in->bufs[0]),
      NULL);
  p->bus = gst_element_get_bus (p->pipeline);
  gst_bus_set_sync_handler (p->bus, bus_sync_handler, p, NULL);
}

static void
pipeline_free (bench_pipeline * p)
{
  if (gst_element_set_state (p->pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_FAILURE)
    bench_die ("the pipeline failed to go to NULL");
  gst_bus_set_sync_handler (p->bus, NULL, NULL, NULL);
  gst_object_unref (p->bus);
  gst_object_unref (p->sink);
  if (p->el)
    gst_object_unref (p->el);
  gst_object_unref (p->appsrc);
  gst_object_unref (p->pipeline);
}

/* The element answers CONTEXT queries with the GstCudaContext it works
 * in: it must be the one the pipeline was given. */
static void
check_element_context (GstElement * el, GstCudaContext * ctx)
{
  GstCudaContext *used = NULL;
  GstContext *context = NULL;
  GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstPad *pad = gst_element_get_static_pad (el, "src");

  if (!pad || !gst_pad_query (pad, q))
    bench_die ("%s did not answer a CONTEXT query for %s: it holds no "
        "GStreamer CUDA context", opt.el->name, GST_CUDA_CONTEXT_TYPE);
  gst_object_unref (pad);
  gst_query_parse_context (q, &context);
  if (!context || !gst_structure_get (gst_context_get_structure (context),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &used, NULL))
    bench_die ("%s's answer to a CONTEXT query holds no GstCudaContext",
        opt.el->name);
  if (used != ctx)
    bench_die ("%s works in another GstCudaContext (%s) than the one "
        "given to the pipeline (%s)", opt.el->name, GST_OBJECT_NAME (used),
        GST_OBJECT_NAME (ctx));
  gst_object_unref (used);
  gst_query_unref (q);
}

static gboolean noted_other_context;

/* One run; returns the frames per second of the timed part and, in
 * @stats (may be NULL), the element's "stats" afterwards.  Mode -1: the
 * pipeline without the element, its frames passed on as they are. */
static double
run_element (GstCudaContext * ctx, input_set * in, int mode,
    int frames, GstStructure ** stats)
{
  gboolean with_element = mode >= 0;

  bench_pipeline p;
  probe_data pd = { 0 };
  GstMessage *msg;
  GstPad *sinkpad;
  guint64 i, total;

  pipeline_new (&p, ctx, in, mode);
  total = (guint64) opt.warmup + frames;
  pd.ctx = ctx;
  pd.cuda = mode >= 0 ? mode_cuda[mode] : TRUE;        /* the input's */
  pd.start_mark = opt.warmup;
  pd.end_mark = total;
  sinkpad = gst_element_get_static_pad (p.sink, "sink");
  if (!sinkpad)
    bench_die ("fakesink has no sink pad");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &pd,
      NULL);
  gst_object_unref (sinkpad);

  if (gst_element_set_state (p.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    bench_die ("the %s pipeline failed to go to PLAYING", with_element ?
        mode_name[mode] : "element-less");
  for (i = 0; i < total; i++) {
    /* Refill from QUEUE_LOW to QUEUE_HIGH: the queue never runs dry
     * while the pusher sleeps, and holds few copies of each frame.  A
     * pipeline that stops taking frames without an error ends the run
     * as a missing EOS would. */
    if (opt.queue == 0 && gst_app_src_get_current_level_buffers (GST_APP_SRC
            (p.appsrc)) >= QUEUE_HIGH) {
      gint64 until = g_get_monotonic_time () + EOS_TIMEOUT / GST_USECOND;

      while (gst_app_src_get_current_level_buffers (GST_APP_SRC (p.appsrc))
          > QUEUE_LOW) {
        if (g_get_monotonic_time () > until)
          bench_die ("appsrc took no frame within %d s (fakesink saw %"
              G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " buffers)",
              (int) (EOS_TIMEOUT / GST_SECOND), pd.count, total);
        g_usleep (QUEUE_POLL_US);
      }
    }
    bench_push (p.appsrc, gst_buffer_copy (in->bufs[i % in->n_bufs]), i);
  }
  if (gst_app_src_end_of_stream (GST_APP_SRC (p.appsrc)) != GST_FLOW_OK)
    bench_die ("gst_app_src_end_of_stream failed");

  msg = gst_bus_timed_pop_filtered (p.bus, EOS_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg)
    bench_die ("no EOS within %d s (fakesink saw %" G_GUINT64_FORMAT " of %"
        G_GUINT64_FORMAT " buffers)", (int) (EOS_TIMEOUT / GST_SECOND),
        pd.count, total);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    bus_sync_handler (p.bus, msg, NULL);        /* prints and exits */
  gst_message_unref (msg);

  if (pd.count != total || pd.t1 <= pd.t0)
    bench_die ("fakesink saw %" G_GUINT64_FORMAT " buffers, expected %"
        G_GUINT64_FORMAT, pd.count, total);
  if (pd.wrong_memory)
    bench_die ("%s: %" G_GUINT64_FORMAT " output buffer(s) in the wrong memory "
        "(the first: %s)", with_element ? mode_name[mode] : "element-less",
        pd.wrong_memory, pd.wrong_what);
  if (with_element)
    check_element_context (p.el, ctx);
  if (g_atomic_int_get (&p.other_contexts) > 0 && !noted_other_context) {
    /* Not an error: the frames in CUDA memory were worked on in the given
     * context (checked above); the other one costs device memory. */
    printf ("note: the pipeline announced %d GstCudaContext(s) besides the "
        "one it was given (an element made its own with "
        "gst_cuda_ensure_element_context)\n",
        g_atomic_int_get (&p.other_contexts));
    noted_other_context = TRUE;
  }

  if (stats && with_element)
    g_object_get (p.el, "stats", stats, NULL);
  pipeline_free (&p);
  return frames / ((pd.t1 - pd.t0) * 1e-6);
}

/* A frame in CUDA memory of a second context must be refused: otherwise
 * the element would not be working in the context it was given.  The
 * element under test, in its first output mode (cudaedge: GRAY8/system;
 * cudaupscale: RGBA/CUDAMemory); both refuse it in their common base
 * class. */
static void
check_foreign_context (GstCudaContext * ctx)
{
  GstCudaContext *other;
  bench_pipeline p;
  input_set in;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  other = gst_cuda_context_new (opt.device);
  if (!other)
    bench_die ("cannot create a second GstCudaContext on device %d",
        opt.device);
  make_inputs (&in, other, opt.el->format, (size2) {320, 240}, 1);
  pipeline_new (&p, ctx, &in, (int) opt.el->modes[0]);
  p.expect_error = TRUE;
  if (gst_element_set_state (p.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    bench_die ("the context-check pipeline failed to go to PLAYING");
  bench_push (p.appsrc, gst_buffer_copy (in.bufs[0]), 0);
  gst_app_src_end_of_stream (GST_APP_SRC (p.appsrc));

  msg = gst_bus_timed_pop_filtered (p.bus, CHECK_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg)
    bench_die ("context check: neither an error nor EOS within %d s",
        (int) (CHECK_TIMEOUT / GST_SECOND));
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    bench_die ("context check: %s accepted a frame in CUDA memory of "
        "another GstCudaContext than the pipeline's", opt.el->name);
  gst_message_parse_error (msg, &err, &dbg);
  if (GST_MESSAGE_SRC (msg) != GST_OBJECT (p.el)
      || !g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT))
    bench_die ("context check: expected a stream format error from %s, "
        "got from %s: %s (%s)", opt.el->name,
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
        dbg ? dbg : "no details");
  printf ("context check: %s refuses a frame of another CUDA "
      "context (\"%s\")\n", opt.el->name, err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);

  pipeline_free (&p);
  free_inputs (&in);
  gst_object_unref (other);
}

/* ------------------------------------------------------------------ */

typedef struct
{
  double fps, spread;
  double q1, q3;                /* quartiles of the runs' fps */
  GstStructure *stats;          /* of the last run */
} mode_result;

typedef struct
{
  size2 size;
  int frames;
  kernel_ceiling kernel;
  link_ceiling d2h;
  mode_result pipe;             /* the pipeline without the element */
  mode_result mode[N_MODES];
} row;

static double
stats_double (const GstStructure * s, const char *field)
{
  double v;

  if (s && gst_structure_get_double (s, field, &v))
    return v;
  return -1;
}

static void
require_element (const char *name, const char *hint)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (!f)
    bench_die ("element '%s' not found (%s)", name, hint);
  gst_object_unref (f);
}

/* The frame rate that bounds mode @m: the kernel alone, or for GRAY8 in
 * system memory, which needs the kernel and the download of every frame,
 * the slower of the kernel and the D2H copy alone.  (The pipeline without
 * the element is shown beside them, not taken as a bound: the element's
 * own per-frame work comes on top of it, not beside it.) */
static double
mode_ceiling (const row * rw, int m, gboolean * d2h_bound)
{
  double d2h_fps = rw->d2h.us > 0 ? 1e6 / rw->d2h.us : 0;

  *d2h_bound = m == MODE_GRAY8_SYSTEM && d2h_fps > 0
      && d2h_fps < rw->kernel.fps;
  return *d2h_bound ? d2h_fps : rw->kernel.fps;
}

/* --csv rows of one size: the ceilings, then the element per output mode
 * against the ceiling that bounds it.  bytes: cudaedge, the Y plane read
 * plus the output written (GRAY8: W x H, downloaded; NV12: the whole
 * frame); cudaupscale, the RGBA frame read plus the 2W x 2H RGBA output
 * written.  The kernel's row is "kernel alone" for cudaedge, "upscale
 * kernel alone" for cudaupscale; format: the input's. */
static void
csv_size (const row * rw, const input_set * in)
{
  const char *format = gst_video_format_to_string (opt.el->format);
  double npx = (double) rw->size.w * rw->size.h;
  int k;

  if (!bench_csv_enabled ())
    return;
  bench_csv_row (opt.el->kernel_name, rw->size.w, rw->size.h, format, 1, "fps",
      rw->kernel.fps, rw->kernel.q1, rw->kernel.q3,
      opt.el->kernel_bytes * npx, NULL, 0);
  bench_csv_row ("pipeline alone", rw->size.w, rw->size.h, format, 1, "fps",
      rw->pipe.fps, rw->pipe.q1, rw->pipe.q3, 0, NULL, 0);
  if (rw->d2h.us > 0)
    bench_csv_row ("d2h alone", rw->size.w, rw->size.h, "GRAY8", 1, "fps",
        1e6 / rw->d2h.us, 1e6 / rw->d2h.q3_us, 1e6 / rw->d2h.q1_us, npx,
        NULL, 0);
  for (k = 0; k < opt.el->n_modes; k++) {
    int m = opt.el->modes[k];
    const mode_result *mr = &rw->mode[m];
    gboolean d2h_bound;
    double ceiling = mode_ceiling (rw, m, &d2h_bound);
    gchar *variant = g_strdup_printf ("%s %s", opt.el->name, mode_name[m]);
    double bytes;

    if (m == MODE_RGBA_CUDA)
      bytes = (double) GST_VIDEO_INFO_SIZE (&in->info) + 16 * npx;
    else
      bytes = npx + (m == MODE_NV12_CUDA ?
          (double) GST_VIDEO_INFO_SIZE (&in->info) : npx);
    bench_csv_row (variant, rw->size.w, rw->size.h, format, 1, "fps", mr->fps,
        mr->q1, mr->q3, bytes, d2h_bound ? "d2h" : "kernel", ceiling);
    g_free (variant);
  }
}

static void
print_table (const row * rows, int n_rows)
{
  int n, k;

  printf ("\n%-10s %-16s %7s %10s %8s %10s %7s %-6s %10s %10s %10s %9s\n",
      "size", "mode", "frames", "fps", "spread%", "ceil_fps", "%ceil",
      "bound", "kernel_fps", "d2h_fps", "pipe_fps", "x_system");
  for (n = 0; n < n_rows; n++) {
    const row *rw = &rows[n];
    double d2h_fps = rw->d2h.us > 0 ? 1e6 / rw->d2h.us : 0;
    double sys = system_fps_for (rw->size);
    char sz[32], ratio[32];

    g_snprintf (sz, sizeof sz, "%dx%d", rw->size.w, rw->size.h);
    for (k = 0; k < opt.el->n_modes; k++) {
      int m = opt.el->modes[k];
      const mode_result *mr = &rw->mode[m];
      gboolean d2h_bound;
      double ceiling = mode_ceiling (rw, m, &d2h_bound);
      char d2h[32];

      if (sys > 0)
        g_snprintf (ratio, sizeof ratio, "%.2fx", mr->fps / sys);
      else
        g_strlcpy (ratio, "-", sizeof ratio);
      if (m == MODE_GRAY8_SYSTEM)
        g_snprintf (d2h, sizeof d2h, "%.1f", d2h_fps);
      else
        g_strlcpy (d2h, "-", sizeof d2h);
      printf ("%-10s %-16s %7d %10.1f %8.1f %10.1f %7.1f %-6s %10.1f %10s "
          "%10.1f %9s\n", sz, mode_name[m], rw->frames, mr->fps, mr->spread,
          ceiling, ceiling > 0 ? 100.0 * mr->fps / ceiling : 0.0,
          d2h_bound ? "d2h" : "kernel", rw->kernel.fps, d2h, rw->pipe.fps,
          ratio);
    }
  }
  if (!opt.el->upscale)
    printf ("(fps: median of %d run(s), steady state after %d warm-up "
        "frames, %d NV12 frames cycled; spread%%: (max-min)/median; "
        "kernel_fps: the fused kernel alone on the same frames, same "
        "context, %d frames queued per wait on %d slots; d2h_fps: the "
        "pinned download of W x H bytes alone; ceil_fps: kernel_fps, or for "
        "GRAY8/system the lower of kernel_fps and d2h_fps; NV12/CUDAMemory "
        "also fills the chroma; pipe_fps: the same appsrc ! fakesink without "
        "cudaedge (median); appsrc %s; x_system: fps / --system-fps)\n\n",
        opt.runs, opt.warmup, K_BUFFERS, KERNEL_BATCH, CE_CUDA_SLOTS,
        opt.queue > 0 ? "holds a few frames, the pusher blocking" :
        "holds " G_STRINGIFY (QUEUE_LOW) "-" G_STRINGIFY (QUEUE_HIGH)
        " frames, the pusher sleeping, not blocking");
  else
    printf ("(size: the input's, the output is twice as wide and high; "
        "fps: median of %d run(s), steady state after %d warm-up frames, "
        "%d RGBA frames cycled; spread%%: (max-min)/median; kernel_fps: the "
        "2x upscale kernel alone on the same frames, same context, %d frames "
        "queued per wait on %d slots; d2h_fps: not measured (no output in "
        "system memory); ceil_fps: kernel_fps; pipe_fps: the same appsrc ! "
        "fakesink without cudaupscale (median); appsrc %s; x_system: fps / "
        "--system-fps)\n\n", opt.runs, opt.warmup, K_BUFFERS, KERNEL_BATCH,
        CE_CUDA_SLOTS, opt.queue > 0 ?
        "holds a few frames, the pusher blocking" :
        "holds " G_STRINGIFY (QUEUE_LOW) "-" G_STRINGIFY (QUEUE_HIGH)
        " frames, the pusher sleeping, not blocking");

  for (n = 0; n < n_rows; n++) {
    const row *rw = &rows[n];

    for (k = 0; k < opt.el->n_modes; k++) {
      int m = opt.el->modes[k];
      const GstStructure *st = rw->mode[m].stats;

      printf ("%dx%d %s stats (last run): backend=%s kernel=%.1f us "
          "download=%.1f us (mean per frame)\n", rw->size.w, rw->size.h,
          mode_name[m], st && gst_structure_get_string (st, "backend") ?
          gst_structure_get_string (st, "backend") : "?",
          stats_double (st, "kernel-us"), stats_double (st, "download-us"));
    }
  }
}

int
main (int argc, char **argv)
{
  row rows[MAX_SIZES];
  GstCudaContext *ctx = NULL;
  gboolean loaded;
  struct cudaDeviceProp prop;
  int n, k, m, r;

  bench_init ("cudamem-bench");
  parse_args (argc, argv);
  gst_init (NULL, NULL);

  loaded = gst_cuda_load_library ();
  if (loaded)
    ctx = gst_cuda_context_new (opt.device);
  if (!ctx) {
    printf ("SKIP: no CUDA device (GStreamer could not create a CUDA "
        "context on device %d: %s)\n", opt.device, loaded ?
        "no such GPU, or the driver refused" :
        "the CUDA driver library could not be loaded");
    return 77;
  }
  gst_cuda_memory_init_once ();

  require_element (opt.el->name, "point GST_PLUGIN_PATH at the build's "
      "gst/ directory: GST_PLUGIN_PATH=build/gst");
  require_element ("appsrc", "gst-plugins-base 'app' missing");
  require_element ("fakesink", "GStreamer core elements missing");
  require_element ("capsfilter", "GStreamer core elements missing");

  push_context (ctx);
  CK (cudaGetDeviceProperties (&prop, opt.device));
  pop_context ();
  if (opt.csv)
    bench_csv_open (opt.csv);
  printf ("cudamem-bench: device %d: %s; %s backend=cuda on %s in "
      "CUDA memory, %d run(s) per pipeline, %d warm-up frames, %d frames "
      "cycled\n", opt.device, prop.name, opt.el->name,
      gst_video_format_to_string (opt.el->format), opt.runs, opt.warmup,
      K_BUFFERS);

  check_foreign_context (ctx);

  for (n = 0; n < opt.n_sizes; n++) {
    row *rw = &rows[n];
    double *fps = g_new (double, opt.runs);
    input_set in;

    memset (rw, 0, sizeof *rw);
    rw->size = opt.sizes[n];
    rw->frames = frames_for (rw->size);
    make_inputs (&in, ctx, opt.el->format, rw->size, K_BUFFERS);

    rw->kernel = measure_kernel (ctx, &in, rw->frames);
    if (opt.el->d2h)   /* else left at 0: not measured */
      rw->d2h = measure_d2h (ctx, (size_t) rw->size.w * rw->size.h);
    for (r = 0; r < opt.runs; r++)
      fps[r] = run_element (ctx, &in, -1, rw->frames, NULL);
    rw->pipe.fps = bench_median (fps, opt.runs, &rw->pipe.spread);
    rw->pipe.q1 = bench_percentile (fps, opt.runs, 0.25);
    rw->pipe.q3 = bench_percentile (fps, opt.runs, 0.75);
    if (opt.el->d2h)
      printf ("%dx%d ceilings: kernel alone %.1f fps (%.1f us/frame, spread "
          "%.1f%%); D2H of %d bytes %.1f us -> %.1f fps (%.2f GB/s); the "
          "pipeline without cudaedge %.1f fps (%.2f us/frame, spread "
          "%.1f%%)\n", rw->size.w, rw->size.h, rw->kernel.fps,
          1e6 / rw->kernel.fps, rw->kernel.spread, rw->size.w * rw->size.h,
          rw->d2h.us, 1e6 / rw->d2h.us, rw->d2h.gbs, rw->pipe.fps,
          1e6 / rw->pipe.fps, rw->pipe.spread);
    else
      printf ("%dx%d ceilings: %s %.1f fps (%.1f us/frame, spread %.1f%%); "
          "the pipeline without %s %.1f fps (%.2f us/frame, spread "
          "%.1f%%)\n", rw->size.w, rw->size.h, opt.el->kernel_name,
          rw->kernel.fps, 1e6 / rw->kernel.fps, rw->kernel.spread,
          opt.el->name, rw->pipe.fps, 1e6 / rw->pipe.fps, rw->pipe.spread);

    for (k = 0; k < opt.el->n_modes; k++) {
      mode_result *mr;

      m = opt.el->modes[k];
      mr = &rw->mode[m];

      for (r = 0; r < opt.runs; r++) {
        GstStructure *st = NULL;

        fps[r] = run_element (ctx, &in, m, rw->frames, &st);
        if (mr->stats)
          gst_structure_free (mr->stats);
        mr->stats = st;
        printf ("  %dx%d %s run %d: %.1f fps\n", rw->size.w, rw->size.h,
            mode_name[m], r + 1, fps[r]);
      }
      mr->fps = bench_median (fps, opt.runs, &mr->spread);    /* sorts */
      mr->q1 = bench_percentile (fps, opt.runs, 0.25);
      mr->q3 = bench_percentile (fps, opt.runs, 0.75);
    }
    csv_size (rw, &in);
    g_free (fps);
    free_inputs (&in);
  }

  print_table (rows, opt.n_sizes);
  for (n = 0; n < opt.n_sizes; n++)
    for (m = 0; m < N_MODES; m++)
      if (rows[n].mode[m].stats)
        gst_structure_free (rows[n].mode[m].stats);
  gst_object_unref (ctx);
  bench_csv_close ();
  gst_deinit ();
  return 0;
}
