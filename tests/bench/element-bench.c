/* element-bench: frame rate of the cudaedge / cudaupscale element against
 * the frame rate that the host<->device link allows.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run from the source root after building into build/:
 *
 *   GST_PLUGIN_PATH=build/gst build/tests/bench/element-bench
 *
 * (GST_PLUGIN_PATH points GStreamer at the built plugin; the program reads
 * it like any GStreamer application.)  Without a GPU, the GStreamer side
 * can be checked with:
 *
 *   GST_PLUGIN_PATH=build/gst build/tests/bench/element-bench \
 *       --backend cpu --size 320x240 --frames 200
 *
 * For each frame size:
 *  1. Link ceiling (CUDA runtime; skipped with --backend cpu): pinned host
 *     buffers of the input bytes that cross (plane 0: the luma of a planar
 *     YUV frame, the whole frame otherwise) and of the output frame; H2D
 *     of the input bytes on one stream and D2H of the output bytes on
 *     another, issued back to back and overlapped, timed with events; the
 *     median over many repetitions of (overlapped time / frames) is the
 *     frame period the link allows.  Plain H2D and D2H GB/s are printed too.  Then the same
 *     cycling through as many host buffers as the pools do (printed and
 *     in the CSV, not the table's ceiling).
 *  2. Element rate: appsrc name=src ! <element> backend=<b> ! fakesink
 *     sync=false, with a known frame rate (1000/1) so that the element
 *     keeps a frame in flight.  The input buffers come from the pool the
 *     element proposes in its ALLOCATION query (pinned memory on the CUDA
 *     backend); when it proposes none they are plain (pageable) buffers.
 *     The source column says "pinned" only for memory of the element's
 *     pinned allocator (on the CPU backend cudaedge proposes a
 *     system-memory video pool: "pageable").  K buffers are filled
 *     once; each push is a shallow gst_buffer_copy () (shared memory, own
 *     timestamps).  A pad probe on fakesink times the steady state: from
 *     the output of the last warm-up frame to the output of the last one.
 *  3. Baseline: the same buffers through appsrc ! identity ! fakesink, to
 *     show the GStreamer per-buffer overhead.
 *  4. --pipelines N: N such pipelines at once, one thread each; with
 *     --devices D as well, each count N >= D again with pipeline k on
 *     cuda-device-id k % D, against the D devices' links measured at the
 *     same time (one thread each) and against the same N on one device.
 *
 * Exit: 0 done, 77 "SKIP: no CUDA device" (--backend cuda without a GPU),
 * 1 on any error, 2 on bad options.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include "bench-gst.h"
#include "bench-util.h"

#define MAX_SIZES 32
#define MAX_PIPELINE_COUNTS 16
#define N_POOL_BUFFERS 8
#define DEFAULT_FRAMES_1080P 2000
#define DEFAULT_WARMUP 50
#define DEFAULT_RUNS 3
#define LINK_BATCH 10           /* frames per timed link repetition */
#define LINK_REPS 31
#define NEGOTIATE_TIMEOUT_US (10 * G_USEC_PER_SEC)
#define EOS_TIMEOUT (600 * GST_SECOND)
/* GType name of the element's pinned allocator (gst/gstcecontext.h) */
#define PINNED_ALLOCATOR_TYPE "GstCePinnedAllocator"

/* ------------------------------------------------------------------ */
/* Errors */

#define CK(x) do { cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) bench_die ("%s:%d: %s failed: %s (%s)", __FILE__, \
        __LINE__, #x, cudaGetErrorString (e_), cudaGetErrorName (e_)); \
  } while (0)

/* ------------------------------------------------------------------ */
/* Options */

static struct
{
  size2 sizes[MAX_SIZES];
  int n_sizes;
  int frames;                   /* 0: scaled from DEFAULT_FRAMES_1080P */
  int warmup;
  int runs;
  int device;
  int devices;                  /* > 1: also spread the counts over GPUs */
  const char *element;
  const char *format;
  const char *backend;
  int pipelines[MAX_PIPELINE_COUNTS];   /* each N > 1: N pipelines at once */
  int n_pipelines;
  const char *csv;
} opt = {.warmup = DEFAULT_WARMUP,.runs = DEFAULT_RUNS,.device = 0,
  .devices = 1,
  .element = "cudaedge",.format = "GRAY8",.backend = "cuda"
};

static void
usage (FILE * f)
{
  fprintf (f,
      "Usage: element-bench [OPTIONS]\n"
      "  --size WxH          frame size (repeatable; default 1920x1080 and\n"
      "                      3840x2160)\n"
      "  --frames N          timed frames per run (default %d at 1080p,\n"
      "                      scaled down by pixel count for larger frames)\n"
      "  --warmup N          frames pushed before timing starts (default %d)\n"
      "  --runs N            runs per pipeline; the median is shown "
      "(default %d)\n"
      "  --element NAME      cudaedge (default) or cudaupscale\n"
      "  --pipelines N[,N...]\n"
      "                      also run N pipelines at once in this process,\n"
      "                      each from its own pool, and print their sum;\n"
      "                      a list (or the option repeated) runs each count\n"
      "                      (1: the single pipeline of the table)\n"
      "  --format FMT        input video format (default GRAY8)\n"
      "  --backend B         cuda (default), cpu or auto\n"
      "  --device N          CUDA device (default 0): the element's\n"
      "                      cuda-device-id and the link measured\n"
      "  --devices D         also run each --pipelines count N >= D spread\n"
      "                      over CUDA devices 0 ... D-1 (pipeline k on\n"
      "                      cuda-device-id k %% D), against the D links\n"
      "                      measured at once and the same N on one GPU\n"
      "  --csv FILE          also append one line per measured row to FILE\n"
      "                      (the header first when FILE is new or empty;\n"
      "                      columns in tools/perf-plots.py)\n"
      "Run: GST_PLUGIN_PATH=build/gst build/tests/bench/element-bench\n"
      "Exit: 0 done, 77 no CUDA device (SKIP), 1 error.\n",
      DEFAULT_FRAMES_1080P, DEFAULT_WARMUP, DEFAULT_RUNS);
}

static void
parse_args (int argc, char **argv)
{
  int i;
  const char *v;

  for (i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--help") || !strcmp (argv[i], "-h")) {
      usage (stdout);
      exit (0);
    } else if ((v = bench_opt_value (argc, argv, &i, "--size"))) {
      if (opt.n_sizes >= MAX_SIZES) {
        bench_bad_option ("at most %d --size", MAX_SIZES);
      }
      opt.sizes[opt.n_sizes++] = bench_parse_size (v, 16384);
    } else if ((v = bench_opt_value (argc, argv, &i, "--frames"))) {
      opt.frames = bench_parse_int (v, 1, 10000000, "--frames");
    } else if ((v = bench_opt_value (argc, argv, &i, "--warmup"))) {
      opt.warmup = bench_parse_int (v, 0, 1000000, "--warmup");
    } else if ((v = bench_opt_value (argc, argv, &i, "--runs"))) {
      opt.runs = bench_parse_int (v, 1, 1000, "--runs");
    } else if ((v = bench_opt_value (argc, argv, &i, "--pipelines"))) {
      gchar **items = g_strsplit (v, ",", -1);
      int k;

      for (k = 0; items[k]; k++) {
        if (opt.n_pipelines >= MAX_PIPELINE_COUNTS)
          bench_bad_option ("at most %d pipeline counts", MAX_PIPELINE_COUNTS);
        opt.pipelines[opt.n_pipelines++] =
            bench_parse_int (g_strstrip (items[k]), 1, 64, "--pipelines");
      }
      g_strfreev (items);
    } else if ((v = bench_opt_value (argc, argv, &i, "--csv"))) {
      opt.csv = v;
    } else if ((v = bench_opt_value (argc, argv, &i, "--devices"))) {
      opt.devices = bench_parse_int (v, 1, 64, "--devices");
    } else if ((v = bench_opt_value (argc, argv, &i, "--device"))) {
      opt.device = bench_parse_int (v, 0, 1024, "--device");
    } else if ((v = bench_opt_value (argc, argv, &i, "--element"))) {
      if (strcmp (v, "cudaedge") && strcmp (v, "cudaupscale"))
        bench_bad_option ("--element is cudaedge or cudaupscale, not '%s'",
            v);
      opt.element = v;
    } else if ((v = bench_opt_value (argc, argv, &i, "--format"))) {
      opt.format = v;
    } else if ((v = bench_opt_value (argc, argv, &i, "--backend"))) {
      if (strcmp (v, "cuda") && strcmp (v, "cpu") && strcmp (v, "auto"))
        bench_bad_option ("--backend is cuda, cpu or auto, not '%s'", v);
      opt.backend = v;
    } else {
      fprintf (stderr, "element-bench: unknown option '%s'\n", argv[i]);
      usage (stderr);
      exit (2);
    }
  }
  if (opt.n_sizes == 0) {
    opt.sizes[0] = (size2) {1920, 1080};
    opt.sizes[1] = (size2) {3840, 2160};
    opt.n_sizes = 2;
  }
}

static int
frames_for (size2 s)
{
  double px = (double) s.w * s.h;
  double f;
  if (opt.frames > 0)
    return opt.frames;
  /* Fewer frames for bigger ones: on an H200's link about 0.1 s a run
   * at 1080p and 4K (2,000 frames at about 21,000 a second; 500 at
   * 5,800), 60-90 ms at the other sizes.  --frames makes runs longer. */
  f = DEFAULT_FRAMES_1080P * (1920.0 * 1080.0) / px;
  if (f > DEFAULT_FRAMES_1080P)
    f = DEFAULT_FRAMES_1080P;
  if (f < 100)
    f = 100;
  return (int) f;
}

/* ------------------------------------------------------------------ */
/* Threads that must start a timed part together (several links, several
 * pipelines): each waits until all have arrived, so that one whose set-up
 * took longer (a device's first context, its pools) does not run alone. */
typedef struct
{
  GMutex lock;
  GCond cond;
  int n, arrived;
  guint64 round;
} barrier;

static void
barrier_init (barrier * b, int n)
{
  g_mutex_init (&b->lock);
  g_cond_init (&b->cond);
  b->n = n;
  b->arrived = 0;
  b->round = 0;
}

static void
barrier_clear (barrier * b)
{
  g_cond_clear (&b->cond);
  g_mutex_clear (&b->lock);
}

/* Returns when all n threads have called it (reusable); NULL: at once. */
static void
barrier_wait (barrier * b)
{
  guint64 round;

  if (!b)
    return;
  g_mutex_lock (&b->lock);
  round = b->round;
  if (++b->arrived == b->n) {
    b->arrived = 0;
    b->round++;
    g_cond_broadcast (&b->cond);
  } else {
    while (round == b->round)
      g_cond_wait (&b->cond, &b->lock);
  }
  g_mutex_unlock (&b->lock);
}

/* ------------------------------------------------------------------ */
/* 1. Link ceiling */

typedef struct
{
  gboolean ok;
  double h2d_gbs, d2h_gbs;
  double period_us;             /* overlapped, per frame */
  double period_q1_us, period_q3_us;    /* its quartiles */
} link_ceiling;

/* Median time per frame in us; @q1 and @q3 (may be NULL) its quartiles.
 * Frame f is copied from and to host buffer f % @nbufs (@h_in and @h_out
 * hold @nbufs frames each). */
static double
time_reps (cudaStream_t s1, cudaStream_t s2, cudaEvent_t ev0,
    cudaEvent_t ev1, cudaEvent_t ev_join, void *d_in, const void *h_in,
    size_t in_bytes, void *h_out, const void *d_out, size_t out_bytes,
    int nbufs, double *q1, double *q3)
{
  double med;
  double t[LINK_REPS];
  int r, f;
  float ms;

  for (r = -2; r < LINK_REPS; r++) {    /* two warm-up repetitions */
    CK (cudaEventRecord (ev0, s1));
    CK (cudaStreamWaitEvent (s2, ev0, 0));
    for (f = 0; f < LINK_BATCH; f++) {
      size_t b = (size_t) (f % nbufs);

      if (in_bytes)
        CK (cudaMemcpyAsync (d_in, (const char *) h_in + b * in_bytes,
                in_bytes, cudaMemcpyHostToDevice, s1));
      if (out_bytes)
        CK (cudaMemcpyAsync ((char *) h_out + b * out_bytes, d_out,
                out_bytes, cudaMemcpyDeviceToHost, s2));
    }
    CK (cudaEventRecord (ev_join, s2));
    CK (cudaStreamWaitEvent (s1, ev_join, 0));
    CK (cudaEventRecord (ev1, s1));
    CK (cudaEventSynchronize (ev1));
    CK (cudaEventElapsedTime (&ms, ev0, ev1));
    if (r >= 0)
      t[r] = ms * 1e3 / LINK_BATCH;     /* us per frame */
  }
  med = bench_median (t, LINK_REPS, NULL);  /* sorts */
  if (q1)
    *q1 = bench_percentile (t, LINK_REPS, 0.25);
  if (q3)
    *q3 = bench_percentile (t, LINK_REPS, 0.75);
  return med;
}

/* @start (may be NULL) is waited on before each timed part; @nbufs host
 * buffers of each direction are cycled (1: the same two, which may stay
 * in the host's caches; more: host memory traffic as a pool's). */
static link_ceiling
measure_link (size_t in_bytes, size_t out_bytes, barrier * start, int nbufs)
{
  link_ceiling lc = { 0 };
  void *h_in, *h_out, *d_in, *d_out;
  cudaStream_t s1, s2;
  cudaEvent_t ev0, ev1, ev_join;
  double h2d_us, d2h_us;

  CK (cudaHostAlloc (&h_in, nbufs * in_bytes, cudaHostAllocDefault));
  CK (cudaHostAlloc (&h_out, nbufs * out_bytes, cudaHostAllocDefault));
  CK (cudaMalloc (&d_in, in_bytes));
  CK (cudaMalloc (&d_out, out_bytes));
  memset (h_in, 0x5a, nbufs * in_bytes);
  memset (h_out, 0, nbufs * out_bytes);
  CK (cudaMemset (d_out, 0xa5, out_bytes));
  CK (cudaStreamCreateWithFlags (&s1, cudaStreamNonBlocking));
  CK (cudaStreamCreateWithFlags (&s2, cudaStreamNonBlocking));
  CK (cudaEventCreate (&ev0));
  CK (cudaEventCreate (&ev1));
  CK (cudaEventCreate (&ev_join));
  CK (cudaDeviceSynchronize ());

  barrier_wait (start);
  h2d_us = time_reps (s1, s2, ev0, ev1, ev_join, d_in, h_in, in_bytes,
      h_out, d_out, 0, nbufs, NULL, NULL);
  barrier_wait (start);
  d2h_us = time_reps (s1, s2, ev0, ev1, ev_join, d_in, h_in, 0,
      h_out, d_out, out_bytes, nbufs, NULL, NULL);
  barrier_wait (start);
  lc.period_us = time_reps (s1, s2, ev0, ev1, ev_join, d_in, h_in, in_bytes,
      h_out, d_out, out_bytes, nbufs, &lc.period_q1_us, &lc.period_q3_us);
  lc.h2d_gbs = h2d_us > 0 ? in_bytes / (h2d_us * 1e3) : 0;
  lc.d2h_gbs = d2h_us > 0 ? out_bytes / (d2h_us * 1e3) : 0;
  lc.ok = lc.period_us > 0;

  CK (cudaEventDestroy (ev_join));
  CK (cudaEventDestroy (ev1));
  CK (cudaEventDestroy (ev0));
  CK (cudaStreamDestroy (s2));
  CK (cudaStreamDestroy (s1));
  CK (cudaFree (d_out));
  CK (cudaFree (d_in));
  CK (cudaFreeHost (h_out));
  CK (cudaFreeHost (h_in));
  return lc;
}

/* The links of CUDA devices 0 ... n-1 measured at the same time, one
 * thread each, so that what they share (the host's memory, its PCIe
 * root) counts: the ceiling of pipelines spread over those devices. */
typedef struct
{
  int device;
  size_t in_bytes, out_bytes;
  int nbufs;
  barrier *start;
  link_ceiling lc;
} link_job;

static gpointer
link_thread (gpointer data)
{
  link_job *j = data;

  CK (cudaSetDevice (j->device));
  j->lc = measure_link (j->in_bytes, j->out_bytes, j->start, j->nbufs);
  return NULL;
}

/* Returns the sum of the devices' frame rates; prints each.  @nbufs as
 * in measure_link. */
static double
measure_links_at_once (size_t in_bytes, size_t out_bytes, int n, int nbufs)
{
  link_job *jobs = g_new0 (link_job, n);
  GThread **threads = g_new (GThread *, n);
  barrier start;
  double sum = 0;
  int d;

  barrier_init (&start, n);
  for (d = 0; d < n; d++) {
    jobs[d].start = &start;
    jobs[d].nbufs = nbufs;
    jobs[d].device = d;
    jobs[d].in_bytes = in_bytes;
    jobs[d].out_bytes = out_bytes;
    threads[d] = g_thread_new ("link", link_thread, &jobs[d]);
  }
  for (d = 0; d < n; d++) {
    g_thread_join (threads[d]);
    printf ("  link of device %d (%d measured at once, %d buffer(s) "
        "cycled): %.1f us/frame -> %.0f fps\n", d, n, nbufs,
        jobs[d].lc.period_us, 1e6 / jobs[d].lc.period_us);
    sum += 1e6 / jobs[d].lc.period_us;
  }
  barrier_clear (&start);
  g_free (threads);
  g_free (jobs);
  return sum;
}

/* ------------------------------------------------------------------ */
/* 2./3. Pipelines */

/* The input buffers of one frame size, shared by all runs. */
typedef struct
{
  GstCaps *caps;
  GstVideoInfo info;
  GstBuffer *prime;             /* pageable; negotiates before the query */
  GstBuffer *bufs[N_POOL_BUFFERS];
  int n_bufs;
  GstBufferPool *pool;          /* NULL: pageable buffers */
  char source[160];
} input_set;

/* Written by the streaming thread, read after EOS (the bus orders it). */
typedef struct
{
  guint64 count;
  guint64 start_mark, end_mark;
  gint64 t0, t1;
} probe_data;

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  probe_data *pd = user_data;
  gint64 now = g_get_monotonic_time ();
  (void) pad;
  (void) info;
  pd->count++;
  if (pd->count == pd->start_mark)
    pd->t0 = now;
  if (pd->count == pd->end_mark)
    pd->t1 = now;
  return GST_PAD_PROBE_OK;
}

/* Errors can come from a streaming thread while the main thread is blocked
 * in gst_app_src_push_buffer (block=true): report and leave from here
 * (bench_bus_report ()). */
static GstBusSyncReply
bus_sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  (void) bus;
  (void) user_data;
  bench_bus_report (msg);
  return GST_BUS_PASS;
}

static void
fill_buffer (GstBuffer * buf, guint32 seed)
{
  GstMapInfo map;
  gsize i;
  guint32 x = seed * 2654435761u + 1;

  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    bench_die ("cannot map an input buffer for writing");
  for (i = 0; i < map.size; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    map.data[i] = (guint8) (x >> 24);
  }
  gst_buffer_unmap (buf, &map);
}

static void
make_pageable_buffers (input_set * in, const char *why)
{
  int i;
  for (i = 0; i < N_POOL_BUFFERS; i++) {
    in->bufs[i] = gst_buffer_new_allocate (NULL, in->info.size, NULL);
    if (!in->bufs[i])
      bench_die ("gst_buffer_new_allocate (%zu) failed", in->info.size);
    fill_buffer (in->bufs[i], i + 1);
  }
  in->n_bufs = N_POOL_BUFFERS;
  in->pool = NULL;
  g_snprintf (in->source, sizeof in->source, "pageable (%s)", why);
}

/* Waits until @el's sink pad is negotiated (the prime buffer's CAPS event
 * went through), then asks it for a pool and fills K buffers from it. */
static void
get_buffers_from_element (input_set * in, GstElement * el)
{
  GstPad *sinkpad;
  GstQuery *q;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint size = 0, min = 0, max = 0;
  gint64 deadline;
  GstMemory *mem;
  const char *alloc_name;
  int i;

  sinkpad = gst_element_get_static_pad (el, "sink");
  if (!sinkpad)
    bench_die ("%s has no sink pad", GST_OBJECT_NAME (el));
  deadline = g_get_monotonic_time () + NEGOTIATE_TIMEOUT_US;
  while (!gst_pad_has_current_caps (sinkpad)) {
    if (g_get_monotonic_time () > deadline)
      bench_die ("%s did not negotiate within %d s", GST_OBJECT_NAME (el),
          (int) (NEGOTIATE_TIMEOUT_US / G_USEC_PER_SEC));
    g_usleep (1000);
  }

  q = gst_query_new_allocation (in->caps, TRUE);
  if (!gst_pad_query (sinkpad, q)) {
    gst_query_unref (q);
    gst_object_unref (sinkpad);
    make_pageable_buffers (in, "ALLOCATION query not answered");
    return;
  }
  gst_object_unref (sinkpad);
  if (gst_query_get_n_allocation_pools (q) > 0)
    gst_query_parse_nth_allocation_pool (q, 0, &pool, &size, &min, &max);
  gst_query_unref (q);
  if (!pool) {
    make_pageable_buffers (in, "no pool proposed by the element");
    return;
  }

  if (size < in->info.size)
    size = in->info.size;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, in->caps, size, 0, 0);
  if (!gst_buffer_pool_set_config (pool, config)) {
    /* The pool may have adjusted the parameters: accept them if valid. */
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, in->caps, size, 0,
            0)) {
      gst_structure_free (config);
      bench_die ("the element's pool rejected caps %" GST_PTR_FORMAT
          " size %u", in->caps, size);
    }
    if (!gst_buffer_pool_set_config (pool, config))
      bench_die ("the element's pool rejected its own adjusted configuration");
  }
  if (!gst_buffer_pool_set_active (pool, TRUE))
    bench_die ("cannot activate the element's pool");

  for (i = 0; i < N_POOL_BUFFERS; i++) {
    GstFlowReturn ret = gst_buffer_pool_acquire_buffer (pool, &in->bufs[i],
        NULL);
    if (ret != GST_FLOW_OK || !in->bufs[i])
      bench_die ("acquiring buffer %d from the element's pool: %s", i,
          gst_flow_get_name (ret));
    if (gst_buffer_get_size (in->bufs[i]) < in->info.size)
      bench_die ("pool buffer of %zu bytes, the frame needs %zu",
          gst_buffer_get_size (in->bufs[i]), in->info.size);
    fill_buffer (in->bufs[i], i + 1);
  }
  in->n_bufs = N_POOL_BUFFERS;
  in->pool = pool;
  /* Pinned only when the memory comes from the element's pinned
   * allocator: on the CPU backend GstVideoFilter proposes a system-memory
   * GstVideoBufferPool, which is pageable. */
  mem = gst_buffer_peek_memory (in->bufs[0], 0);
  alloc_name = mem && mem->allocator ?
      G_OBJECT_TYPE_NAME (mem->allocator) : "?";
  g_snprintf (in->source, sizeof in->source,
      "%s pool from the element (%s, allocator %s)",
      !strcmp (alloc_name, PINNED_ALLOCATOR_TYPE) ? "pinned" : "pageable",
      G_OBJECT_TYPE_NAME (pool), alloc_name);
}

static void
free_inputs (input_set * in)
{
  int i;
  for (i = 0; i < in->n_bufs; i++)
    gst_buffer_unref (in->bufs[i]);     /* back to the pool, if any */
  in->n_bufs = 0;
  if (in->pool) {
    if (!gst_buffer_pool_set_active (in->pool, FALSE))
      bench_die ("cannot deactivate the element's pool");
    gst_object_unref (in->pool);
    in->pool = NULL;
  }
  gst_buffer_unref (in->prime);
  gst_caps_unref (in->caps);
}

/* One run of @desc (elements named src, el, sink).  Returns the frames per
 * second of the timed part; fills @stats (if not NULL) from el's "stats".
 * @start (may be NULL) is waited on after the warm-up frames are pushed. */
static double
run_pipeline_timed (const char *desc, input_set * in, int frames,
    gboolean query_pool, GstStructure ** stats, gint64 * t0, gint64 * t1,
    barrier * start)
{
  GError *err = NULL;
  GstElement *pipeline, *appsrc, *el, *sink;
  GstPad *sinkpad;
  GstBus *bus;
  GstMessage *msg;
  probe_data pd = { 0 };
  guint64 i, total;
  double fps;

  pipeline = gst_parse_launch (desc, &err);
  if (err || !pipeline)
    bench_die ("gst_parse_launch (\"%s\"): %s", desc,
        err ? err->message : "no pipeline");
  appsrc = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  el = gst_bin_get_by_name (GST_BIN (pipeline), "el");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (!appsrc || !el || !sink)
    bench_die ("pipeline \"%s\" lacks src, el or sink", desc);

  g_object_set (appsrc, "caps", in->caps, "format", GST_FORMAT_TIME,
      "is-live", FALSE, "block", TRUE,
      "max-bytes", (guint64) (2 * in->info.size), NULL);

  total = 1 + (guint64) opt.warmup + frames;    /* prime + warm-up + timed */
  pd.start_mark = 1 + opt.warmup;
  pd.end_mark = total;
  sinkpad = gst_element_get_static_pad (sink, "sink");
  if (!sinkpad)
    bench_die ("fakesink has no sink pad");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &pd,
      NULL);
  gst_object_unref (sinkpad);

  bus = gst_element_get_bus (pipeline);
  gst_bus_set_sync_handler (bus, bus_sync_handler, NULL, NULL);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    bench_die ("pipeline \"%s\" failed to go to PLAYING", desc);

  /* Frame 0: a pageable buffer, so that the element negotiates and can
   * answer the ALLOCATION query. */
  bench_push (appsrc, gst_buffer_copy (in->prime), 0);
  if (query_pool && in->n_bufs == 0)
    get_buffers_from_element (in, el);
  else if (in->n_bufs == 0)
    make_pageable_buffers (in, "no element pool queried");

  for (i = 1; i < total; i++) {
    if (i == pd.start_mark)
      barrier_wait (start);
    bench_push (appsrc, gst_buffer_copy (in->bufs[i % in->n_bufs]), i);
  }
  if (gst_app_src_end_of_stream (GST_APP_SRC (appsrc)) != GST_FLOW_OK)
    bench_die ("gst_app_src_end_of_stream failed");

  msg = gst_bus_timed_pop_filtered (bus, EOS_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg)
    bench_die ("no EOS within %d s (fakesink saw %" G_GUINT64_FORMAT " of %"
        G_GUINT64_FORMAT " buffers)", (int) (EOS_TIMEOUT / GST_SECOND),
        pd.count, total);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    bus_sync_handler (bus, msg, NULL);  /* prints and exits */
  gst_message_unref (msg);

  if (pd.count != total || pd.t1 <= pd.t0)
    bench_die ("fakesink saw %" G_GUINT64_FORMAT " buffers, expected %"
        G_GUINT64_FORMAT, pd.count, total);
  fps = frames / ((pd.t1 - pd.t0) * 1e-6);
  if (t0)
    *t0 = pd.t0;
  if (t1)
    *t1 = pd.t1;

  if (stats) {
    *stats = NULL;
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (el), "stats"))
      g_object_get (el, "stats", stats, NULL);
  }

  if (gst_element_set_state (pipeline, GST_STATE_NULL) ==
      GST_STATE_CHANGE_FAILURE)
    bench_die ("pipeline \"%s\" failed to go to NULL", desc);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (el);
  gst_object_unref (appsrc);
  gst_object_unref (pipeline);
  return fps;
}

static double
run_pipeline (const char *desc, input_set * in, int frames,
    gboolean query_pool, GstStructure ** stats)
{
  return run_pipeline_timed (desc, in, frames, query_pool, stats, NULL, NULL,
      NULL);
}

/* N pipelines at once: each thread runs one, from its own inputs. */
typedef struct
{
  gchar *desc;
  input_set in;
  barrier *start;               /* the timed parts start together */
  int frames;
  double fps;
  gint64 t0, t1;                /* its timed window, monotonic us */
} concurrent_run;

static gpointer
concurrent_thread (gpointer data)
{
  concurrent_run *c = data;

  c->fps = run_pipeline_timed (c->desc, &c->in, c->frames, TRUE, NULL,
      &c->t0, &c->t1, c->start);
  return NULL;
}

/* The element's pipeline; @device >= 0 sets its cuda-device-id. */
static gchar *
element_desc (int device)
{
  gchar *dev = device >= 0 ? g_strdup_printf (" cuda-device-id=%d", device)
      : g_strdup ("");
  gchar *desc = g_strdup_printf ("appsrc name=src ! %s name=el backend=%s%s "
      "! fakesink name=sink sync=false", opt.element, opt.backend, dev);

  g_free (dev);
  return desc;
}

/* N pipelines run at the same time, each starting its timed frames when
 * all have pushed their warm-up frames: all their timed frames over the
 * span from the first timed window's start to the last one's end (a
 * pipeline that finishes early does not inflate the figure).  Pipeline
 * k runs on cuda-device-id k % @devices, or on @device when @devices is
 * 0. */
static double
run_concurrent (int device, int devices, const input_set * model,
    int frames, int n)
{
  concurrent_run *c = g_new0 (concurrent_run, n);
  GThread **threads = g_new (GThread *, n);
  gint64 start = G_MAXINT64, end = 0;
  barrier together;
  int k;

  barrier_init (&together, n);
  for (k = 0; k < n; k++) {
    c[k].start = &together;
    c[k].desc = element_desc (devices > 0 ? k % devices : device);
    c[k].frames = frames;
    c[k].in.caps = gst_caps_ref (model->caps);
    c[k].in.info = model->info;
    c[k].in.prime = gst_buffer_copy_deep (model->prime);
    threads[k] = g_thread_new ("pipeline", concurrent_thread, &c[k]);
  }
  for (k = 0; k < n; k++) {
    g_thread_join (threads[k]);
    if (devices > 0)
      printf ("    pipeline %d of %d (device %d): %.1f fps\n", k + 1, n,
          k % devices, c[k].fps);
    else
      printf ("    pipeline %d of %d: %.1f fps\n", k + 1, n, c[k].fps);
    g_free (c[k].desc);
    start = MIN (start, c[k].t0);
    end = MAX (end, c[k].t1);
    free_inputs (&c[k].in);
  }
  barrier_clear (&together);
  g_free (threads);
  g_free (c);
  return end > start ? (double) n * frames / ((end - start) * 1e-6) : 0;
}

/* ------------------------------------------------------------------ */

typedef struct
{
  size2 size;
  int frames;
  char source[160];
  link_ceiling link;
  link_ceiling link_cycled;     /* with N_POOL_BUFFERS buffers cycled */
  double fps, fps_min, fps_max;
  double id_fps;
  char backend[32];
  GstStructure *stats;
} row;

static const char *
stats_string (const GstStructure * s, const char *field)
{
  const char *v = s ? gst_structure_get_string (s, field) : NULL;
  return v ? v : "?";
}

static double
stats_double (const GstStructure * s, const char *field)
{
  double v;
  if (s && gst_structure_get_double (s, field, &v))
    return v;
  return -1;
}

int
main (int argc, char **argv)
{
  row rows[MAX_SIZES];
  gboolean have_gpu = FALSE;
  GstElementFactory *factory;
  GstVideoFormat vfmt;
  gchar *variant;
  int n, r;

  bench_init ("element-bench");
  parse_args (argc, argv);
  gst_init (NULL, NULL);

  /* The CUDA device: needed for --backend cuda, used for the ceiling with
   * auto when present. */
  if (strcmp (opt.backend, "cpu") != 0) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount (&count);
    if (e != cudaSuccess || count <= 0) {
      if (!strcmp (opt.backend, "cuda")) {
        printf ("SKIP: no CUDA device (%s)\n", e != cudaSuccess ?
            cudaGetErrorString (e) : "none found");
        return 77;
      }
      cudaGetLastError ();      /* clear */
    } else {
      if (opt.device >= count)
        bench_die ("--device %d, but only %d CUDA device(s)", opt.device,
            count);
      if (opt.devices > count)
        bench_die ("--devices %d, but only %d CUDA device(s)", opt.devices,
            count);
      CK (cudaSetDevice (opt.device));
      have_gpu = TRUE;
    }
  }

  factory = gst_element_factory_find (opt.element);
  if (!factory)
    bench_die ("element '%s' not found; point GST_PLUGIN_PATH at the "
        "build's gst/ directory (GST_PLUGIN_PATH=build/gst)", opt.element);
  gst_object_unref (factory);
  factory = gst_element_factory_find ("identity");
  if (!factory)
    bench_die ("element 'identity' not found (GStreamer core elements "
        "missing)");
  gst_object_unref (factory);
  factory = gst_element_factory_find ("appsrc");
  if (!factory)
    bench_die ("element 'appsrc' not found (gst-plugins-base 'app' missing)");
  gst_object_unref (factory);

  vfmt = gst_video_format_from_string (opt.format);
  if (vfmt == GST_VIDEO_FORMAT_UNKNOWN)
    bench_die ("unknown --format '%s'", opt.format);

  if (have_gpu) {
    struct cudaDeviceProp prop;
    CK (cudaGetDeviceProperties (&prop, opt.device));
    printf ("element-bench: device %d: %s\n", opt.device, prop.name);
  }
  variant = g_strdup_printf ("%s backend=%s", opt.element, opt.backend);
  if (opt.csv)
    bench_csv_open (opt.csv);
  printf ("element-bench: %s backend=%s format=%s, %d run(s) per pipeline, "
      "%d warm-up frames, %d buffers cycled\n", opt.element, opt.backend,
      opt.format, opt.runs, opt.warmup, N_POOL_BUFFERS);

  for (n = 0; n < opt.n_sizes; n++) {
    row *rw = &rows[n];
    input_set in;
    GstVideoInfo out_info;
    gchar *el_desc, *id_desc;
    double *fps = g_new (double, opt.runs);
    double *id_fps = g_new (double, opt.runs);
    double conc_fps[MAX_PIPELINE_COUNTS] = { 0 };
    double spread_fps[MAX_PIPELINE_COUNTS] = { 0 };
    double links_fps = 0, links_cycled_fps = 0;
    size_t in_bytes;
    int ow, oh, k;

    memset (rw, 0, sizeof *rw);
    memset (&in, 0, sizeof in);
    rw->size = opt.sizes[n];
    rw->frames = frames_for (rw->size);

    gst_video_info_init (&in.info);
    if (!gst_video_info_set_format (&in.info, vfmt, rw->size.w, rw->size.h))
      bench_die ("cannot describe %s %dx%d", opt.format, rw->size.w,
          rw->size.h);
    GST_VIDEO_INFO_FPS_N (&in.info) = 1000;
    GST_VIDEO_INFO_FPS_D (&in.info) = 1;
    in.caps = gst_video_info_to_caps (&in.info);
    if (!in.caps)
      bench_die ("cannot make caps for %s %dx%d", opt.format, rw->size.w,
          rw->size.h);
    in.prime = gst_buffer_new_allocate (NULL, in.info.size, NULL);
    if (!in.prime)
      bench_die ("gst_buffer_new_allocate (%zu) failed", in.info.size);
    fill_buffer (in.prime, 0);

    /* Output: cudaedge gives GRAY8 of the same size; cudaupscale the same
     * format at twice the width and height. */
    ow = rw->size.w;
    oh = rw->size.h;
    gst_video_info_init (&out_info);
    if (!strcmp (opt.element, "cudaupscale")) {
      ow *= 2;
      oh *= 2;
      if (!gst_video_info_set_format (&out_info, vfmt, ow, oh))
        bench_die ("cannot describe %s %dx%d", opt.format, ow, oh);
    } else if (!gst_video_info_set_format (&out_info,
            GST_VIDEO_FORMAT_GRAY8, ow, oh)) {
      bench_die ("cannot describe GRAY8 %dx%d", ow, oh);
    }

    /* What crosses the link: the elements upload plane 0 only, which of a
     * planar YUV frame is its luma, and of any other format the frame. */
    in_bytes = GST_VIDEO_INFO_N_PLANES (&in.info) > 1 ?
        (size_t) rw->size.w * GST_VIDEO_INFO_COMP_PSTRIDE (&in.info, 0) *
        rw->size.h : in.info.size;

    if (have_gpu) {
      rw->link = measure_link (in_bytes, out_info.size, NULL, 1);
      printf ("link %dx%d: H2D %.2f GB/s (%zu B), D2H %.2f GB/s (%zu B), "
          "overlapped %.1f us/frame -> %.0f fps\n", rw->size.w, rw->size.h,
          rw->link.h2d_gbs, in_bytes, rw->link.d2h_gbs,
          (size_t) out_info.size,
          rw->link.period_us, 1e6 / rw->link.period_us);
      /* The same with as many host buffers as the pools cycle, whose
       * copies go to the host's memory rather than its caches. */
      rw->link_cycled = measure_link (in_bytes, out_info.size, NULL,
          N_POOL_BUFFERS);
      printf ("link %dx%d, %d buffers cycled: overlapped %.1f us/frame -> "
          "%.0f fps\n", rw->size.w, rw->size.h, N_POOL_BUFFERS,
          rw->link_cycled.period_us, 1e6 / rw->link_cycled.period_us);
    }

    el_desc = element_desc (have_gpu ? opt.device : -1);
    id_desc = g_strdup ("appsrc name=src ! identity name=el ! "
        "fakesink name=sink sync=false");

    for (r = 0; r < opt.runs; r++) {
      GstStructure *st = NULL;
      fps[r] = run_pipeline (el_desc, &in, rw->frames, TRUE, &st);
      if (rw->stats)
        gst_structure_free (rw->stats);
      rw->stats = st;
      printf ("  %dx%d %s run %d: %.1f fps\n", rw->size.w, rw->size.h,
          opt.element, r + 1, fps[r]);
    }
    for (r = 0; r < opt.runs; r++) {
      id_fps[r] = run_pipeline (id_desc, &in, rw->frames, FALSE, NULL);
      printf ("  %dx%d identity run %d: %.1f fps\n", rw->size.w, rw->size.h,
          r + 1, id_fps[r]);
    }
    for (k = 0; k < opt.n_pipelines; k++) {
      int np = opt.pipelines[k];
      double sum;

      if (np < 2)
        continue;               /* one pipeline: the runs above */
      sum = run_concurrent (have_gpu ? opt.device : -1, 0, &in, rw->frames,
          np);
      printf ("  %dx%d %d pipelines at once: %.1f fps together (all "
          "timed frames over the whole span)", rw->size.w,
          rw->size.h, np, sum);
      if (rw->link.ok)
        printf (" = %.1f %% of the link", 100.0 * sum * rw->link.period_us
            / 1e6);
      printf ("\n");
      conc_fps[k] = sum;
    }
    if (have_gpu && opt.devices > 1) {
      links_fps = measure_links_at_once (in_bytes, out_info.size,
          opt.devices, 1);
      links_cycled_fps = measure_links_at_once (in_bytes, out_info.size,
          opt.devices, N_POOL_BUFFERS);
    }
    for (k = 0; have_gpu && opt.devices > 1 && k < opt.n_pipelines; k++) {
      int np = opt.pipelines[k];

      if (np < opt.devices)
        continue;               /* a device would have none */
      spread_fps[k] = run_concurrent (-1, opt.devices, &in, rw->frames, np);
      printf ("  %dx%d %d pipelines over %d devices: %.1f fps together = "
          "%.1f %% of the %d links at once (%.0f fps), %.1f %% of them "
          "with %d buffers cycled (%.0f fps)", rw->size.w, rw->size.h, np,
          opt.devices, spread_fps[k], 100.0 * spread_fps[k] / links_fps,
          opt.devices, links_fps, 100.0 * spread_fps[k] / links_cycled_fps,
          N_POOL_BUFFERS, links_cycled_fps);
      if (conc_fps[k] > 0)
        printf (" = %.2fx %d pipelines on device %d", spread_fps[k] /
            conc_fps[k], np, opt.device);
      printf ("\n");
    }
    rw->fps = bench_median (fps, opt.runs, NULL);   /* sorts */
    rw->fps_min = fps[0];
    rw->fps_max = fps[opt.runs - 1];
    rw->id_fps = bench_median (id_fps, opt.runs, NULL);

    /* --csv: the link ceiling, the element (one pipeline, then each count
     * at once: one span each, so q1 = q3 = median) and identity; bytes:
     * the input and the output frame, what crosses the link. */
    if (bench_csv_enabled ()) {
      double bytes = (double) in_bytes + (double) out_info.size;
      double link_fps = rw->link.ok ? 1e6 / rw->link.period_us : 0;

      if (rw->link.ok)
        bench_csv_row ("link ceiling", rw->size.w, rw->size.h, opt.format, 1,
            "fps", link_fps, 1e6 / rw->link.period_q3_us,
            1e6 / rw->link.period_q1_us, bytes, NULL, 0);
      if (rw->link_cycled.ok) {
        gchar *c8 = g_strdup_printf ("link, %d buffers cycled",
            N_POOL_BUFFERS);

        bench_csv_row (c8, rw->size.w, rw->size.h, opt.format, 1, "fps",
            1e6 / rw->link_cycled.period_us,
            1e6 / rw->link_cycled.period_q3_us,
            1e6 / rw->link_cycled.period_q1_us, bytes, NULL, 0);
        g_free (c8);
      }
      bench_csv_row (variant, rw->size.w, rw->size.h, opt.format, 1, "fps",
          rw->fps, bench_percentile (fps, opt.runs, 0.25),
          bench_percentile (fps, opt.runs, 0.75), bytes, "link", link_fps);
      for (k = 0; k < opt.n_pipelines; k++)
        if (conc_fps[k] > 0)
          bench_csv_row (variant, rw->size.w, rw->size.h, opt.format,
              opt.pipelines[k], "fps", conc_fps[k], conc_fps[k],
              conc_fps[k], bytes, "link", link_fps);
      if (links_fps > 0) {
        gchar *v = g_strdup_printf ("%s, %d devices", variant, opt.devices);
        gchar *c = g_strdup_printf ("%d links", opt.devices);

        gchar *c8 = g_strdup_printf ("%d links, %d buffers cycled",
            opt.devices, N_POOL_BUFFERS);

        bench_csv_row (c, rw->size.w, rw->size.h, opt.format, opt.devices,
            "fps", links_fps, links_fps, links_fps, bytes, NULL, 0);
        bench_csv_row (c8, rw->size.w, rw->size.h, opt.format, opt.devices,
            "fps", links_cycled_fps, links_cycled_fps, links_cycled_fps,
            bytes, NULL, 0);
        g_free (c8);
        for (k = 0; k < opt.n_pipelines; k++)
          if (spread_fps[k] > 0)
            bench_csv_row (v, rw->size.w, rw->size.h, opt.format,
                opt.pipelines[k], "fps", spread_fps[k], spread_fps[k],
                spread_fps[k], bytes, c, links_fps);
        g_free (c);
        g_free (v);
      }
      bench_csv_row ("identity", rw->size.w, rw->size.h, opt.format, 1, "fps",
          rw->id_fps, bench_percentile (id_fps, opt.runs, 0.25),
          bench_percentile (id_fps, opt.runs, 0.75), 0, NULL, 0);
    }
    g_strlcpy (rw->source, in.source, sizeof rw->source);
    g_strlcpy (rw->backend, stats_string (rw->stats, "backend"),
        sizeof rw->backend);

    g_free (el_desc);
    g_free (id_desc);
    g_free (fps);
    g_free (id_fps);
    free_inputs (&in);
  }

  /* Table */
  printf ("\n%-10s %-11s %-7s %-8s %7s %10s %9s %10s %10s %7s %8s %10s\n",
      "size", "element", "backend", "source", "frames", "fps", "spread%",
      "period_us", "link_fps", "%link", ">=90%", "ident_fps");
  for (n = 0; n < opt.n_sizes; n++) {
    row *rw = &rows[n];
    char sz[32], link_fps[32], pct[32];
    const char *ok = "n/a";
    g_snprintf (sz, sizeof sz, "%dx%d", rw->size.w, rw->size.h);
    if (rw->link.ok) {
      double lf = 1e6 / rw->link.period_us;
      g_snprintf (link_fps, sizeof link_fps, "%.1f", lf);
      g_snprintf (pct, sizeof pct, "%.1f", 100.0 * rw->fps / lf);
      /* The target: 90 % of what the link allows. */
      ok = rw->fps >= 0.9 * lf ? "yes" : "NO";
    } else {
      g_strlcpy (link_fps, "n/a", sizeof link_fps);
      g_strlcpy (pct, "n/a", sizeof pct);
    }
    printf ("%-10s %-11s %-7s %-8s %7d %10.1f %9.1f %10.1f %10s %7s %8s "
        "%10.1f\n", sz, opt.element, rw->backend,
        g_str_has_prefix (rw->source, "pinned") ? "pinned" : "pageable",
        rw->frames, rw->fps,
        rw->fps > 0 ? 100.0 * (rw->fps_max - rw->fps_min) / rw->fps : 0.0,
        1e6 / rw->fps, link_fps, pct, ok, rw->id_fps);
  }
  printf ("(fps: median of %d run(s), steady state after %d warm-up frames; "
      "spread%%: (max-min)/median; link_fps: H2D and D2H overlapped, "
      "pinned)\n\n", opt.runs, opt.warmup);

  for (n = 0; n < opt.n_sizes; n++) {
    row *rw = &rows[n];
    printf ("%dx%d source: %s\n", rw->size.w, rw->size.h, rw->source);
    if (rw->stats) {
      gchar *s = gst_structure_to_string (rw->stats);
      printf ("%dx%d stats (last run): backend=%s device=%s "
          "upload=%.1f us kernel=%.1f us download=%.1f us (mean)\n  %s\n",
          rw->size.w, rw->size.h, stats_string (rw->stats, "backend"),
          stats_string (rw->stats, "device"),
          stats_double (rw->stats, "upload-us"),
          stats_double (rw->stats, "kernel-us"),
          stats_double (rw->stats, "download-us"), s);
      g_free (s);
      gst_structure_free (rw->stats);
    } else {
      printf ("%dx%d stats: not available\n", rw->size.w, rw->size.h);
    }
  }

  bench_csv_close ();
  g_free (variant);
  gst_deinit ();
  return 0;
}
