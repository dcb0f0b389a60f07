/* cudamem-bench: cudaedge on GStreamer CUDA memory against the fused
 * kernel alone, measured in the same run
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Run from the source root after building into build/:
 *   GST_PLUGIN_PATH=build/gst build/tests/bench/cudamem-bench \
 *       [--size WxH]... [--frames N] [--runs N] [--system-fps F1080,F2160]
 *
 * For each size:
 *  1. Kernel ceiling: the luma-plane edge chain alone (ce_cuda_dev), device
 *     NV12 Y plane in, device GRAY8 out, in the GstCudaContext, frames
 *     queued back to back on two slots; frames per second.  For GRAY8 out
 *     in system memory, also the D2H copy of W x H bytes alone (pinned).
 *  2. The element: appsrc (NV12 in CUDA memory, framerate 1000/1, so one
 *     frame stays in flight) ! cudaedge backend=cuda ! capsfilter ! fakesink
 *     sync=false, with GRAY8 in system memory or NV12 in CUDA memory out.
 *     K pre-filled device frames of a GstCudaBufferPool are cycled (shallow
 *     copies, fresh timestamps): no upload per frame.  The pipeline gets the
 *     same GstCudaContext through gst_element_set_context.  A pad probe on
 *     fakesink times the steady state after a warm-up.
 * Prints a table: fps (median of the runs), spread ((max - min) / median),
 * the ceiling and the share of it, and with --system-fps the ratio to the
 * element's rate on system memory (element-bench).
 * Exit: 0 done, 77 "SKIP: no CUDA device", 1 on any error, 2 on bad options.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>

#include "cudaedge-core.h"
#include "cudaedge-device.h"

#define MAX_SIZES 8
#define K_BUFFERS 8
#define WARMUP 50

static struct
{
  int w[MAX_SIZES], h[MAX_SIZES], n_sizes;
  int frames, runs;
  double system_fps[2];         /* 1080p, 2160p; 0: not given */
} opt = { {0}, {0}, 0, 0, 3, {0, 0} };

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median_spread (double *v, int n, double *spread)
{
  double med;

  qsort (v, n, sizeof *v, cmp_double);
  med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  *spread = med > 0 ? 100.0 * (v[n - 1] - v[0]) / med : 0;
  return med;
}

/* ---- ceilings ---- */

static double
kernel_fps (GstCudaContext * ctx, int w, int h, int frames)
{
  ce_cuda_dev *dev = NULL;
  ce_edge_params params;
  uint8_t *d_src = NULL, *d_dst = NULL;
  size_t src_pitch, dst_pitch;
  cudaEvent_t t0, t1;
  float ms = 0;
  ce_frame f;
  int i;

  ce_edge_params_init (&params);
  if (!gst_cuda_context_push (ctx))
    return 0;
  if (ce_cuda_dev_new (&dev) != CE_STATUS_OK
      || cudaMallocPitch ((void **) &d_src, &src_pitch, w, h) != cudaSuccess
      || cudaMallocPitch ((void **) &d_dst, &dst_pitch, w, h) != cudaSuccess) {
    fprintf (stderr, "kernel ceiling: %s\n", ce_last_error ());
    gst_cuda_context_pop (NULL);
    return 0;
  }
  cudaMemset2D (d_src, src_pitch, 0x5a, w, h);
  f.data = d_src;
  f.stride = src_pitch;
  f.width = w;
  f.height = h;
  f.format = CE_FORMAT_NV12;
  cudaEventCreate (&t0);
  cudaEventCreate (&t1);
  for (i = 0; i < WARMUP; i++) {
    ce_cuda_dev_edge_submit (dev, i % 2, &f, &params, d_dst, dst_pitch,
        NULL, 0);
    ce_cuda_dev_wait (dev, i % 2, NULL);
  }
  cudaDeviceSynchronize ();
  cudaEventRecord (t0, NULL);
  /* Two slots alternating, each waited for one frame later: the device
   * always has the next frame queued. */
  for (i = 0; i < frames; i++) {
    ce_cuda_dev_edge_submit (dev, i % 2, &f, &params, d_dst, dst_pitch,
        NULL, 0);
    if (i > 0)
      ce_cuda_dev_wait (dev, (i - 1) % 2, NULL);
  }
  ce_cuda_dev_wait (dev, (frames - 1) % 2, NULL);
  cudaDeviceSynchronize ();
  cudaEventRecord (t1, NULL);
  cudaEventSynchronize (t1);
  cudaEventElapsedTime (&ms, t0, t1);
  cudaEventDestroy (t0);
  cudaEventDestroy (t1);
  ce_cuda_dev_free (dev);
  cudaFree (d_src);
  cudaFree (d_dst);
  gst_cuda_context_pop (NULL);
  return ms > 0 ? frames / (ms / 1000.0) : 0;
}

/* The D2H copy of one GRAY8 frame into pinned memory, alone. */
static double
download_fps (GstCudaContext * ctx, int w, int h, int frames)
{
  void *d = NULL, *hbuf = NULL;
  cudaEvent_t t0, t1;
  float ms = 0;
  int i;

  if (!gst_cuda_context_push (ctx))
    return 0;
  cudaMalloc (&d, (size_t) w * h);
  cudaHostAlloc (&hbuf, (size_t) w * h, cudaHostAllocPortable);
  cudaEventCreate (&t0);
  cudaEventCreate (&t1);
  cudaMemcpy (hbuf, d, (size_t) w * h, cudaMemcpyDeviceToHost);
  cudaEventRecord (t0, NULL);
  for (i = 0; i < frames; i++)
    cudaMemcpyAsync (hbuf, d, (size_t) w * h, cudaMemcpyDeviceToHost, NULL);
  cudaEventRecord (t1, NULL);
  cudaEventSynchronize (t1);
  cudaEventElapsedTime (&ms, t0, t1);
  cudaEventDestroy (t0);
  cudaEventDestroy (t1);
  cudaFreeHost (hbuf);
  cudaFree (d);
  gst_cuda_context_pop (NULL);
  return ms > 0 ? frames / (ms / 1000.0) : 0;
}

/* ---- the element ---- */

typedef struct
{
  gint64 t_first, t_last;
  guint count, warmup;
  gboolean cuda_out_seen, system_out_seen;
} Probe;

static GstPadProbeReturn
on_output (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Probe *p = data;
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);

  if (gst_is_cuda_memory (mem))
    p->cuda_out_seen = TRUE;
  else
    p->system_out_seen = TRUE;
  p->count++;
  if (p->count == p->warmup)
    p->t_first = g_get_monotonic_time ();
  p->t_last = g_get_monotonic_time ();
  return GST_PAD_PROBE_OK;
}

static gboolean
fill_pool (GstCudaContext * ctx, GstCaps * caps, GstBuffer ** bufs)
{
  GstBufferPool *pool = gst_cuda_buffer_pool_new (ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoInfo info;
  int i;

  gst_video_info_from_caps (&info, caps);
  gst_buffer_pool_config_set_params (config, caps, info.size, K_BUFFERS,
      K_BUFFERS);
  if (!gst_buffer_pool_set_config (pool, config)
      || !gst_buffer_pool_set_active (pool, TRUE))
    return FALSE;
  for (i = 0; i < K_BUFFERS; i++) {
    GstVideoFrame frame;
    GstMapInfo map;
    guint p;

    if (gst_buffer_pool_acquire_buffer (pool, &bufs[i], NULL) != GST_FLOW_OK)
      return FALSE;
    /* Written in host memory once, then uploaded once. */
    if (!gst_video_frame_map (&frame, &info, bufs[i], GST_MAP_WRITE))
      return FALSE;
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++)
      memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, p), (i * 37 + p * 91) & 0xff,
          (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p) *
          GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p));
    gst_video_frame_unmap (&frame);
    if (!gst_buffer_map (bufs[i], &map, GST_MAP_READ | GST_MAP_CUDA))
      return FALSE;
    gst_buffer_unmap (bufs[i], &map);
  }
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);      /* the buffers keep their memory */
  return TRUE;
}

static double
element_fps (GstCudaContext * ctx, int w, int h, gboolean cuda_out,
    int frames, gboolean * memory_ok)
{
  gchar *desc;
  GstElement *pipeline, *src, *sink;
  GstBuffer *bufs[K_BUFFERS] = { NULL };
  GstCaps *caps;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  Probe probe = { 0, 0, 0, WARMUP, FALSE, FALSE };
  double fps = 0;
  int i;

  caps = gst_caps_from_string ("video/x-raw(memory:CUDAMemory),format=NV12");
  gst_caps_set_simple (caps, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h,
      "framerate", GST_TYPE_FRACTION, 1000, 1, NULL);
  desc = g_strdup_printf ("appsrc name=src format=time max-buffers=4 "
      "block=true ! cudaedge backend=cuda ! %s ! fakesink name=sink "
      "sync=false", cuda_out ?
      "video/x-raw(memory:CUDAMemory),format=NV12" :
      "video/x-raw,format=GRAY8");
  pipeline = gst_parse_launch (desc, NULL);
  g_free (desc);
  if (!pipeline || !fill_pool (ctx, caps, bufs)) {
    fprintf (stderr, "cannot build the pipeline or the input frames\n");
    return 0;
  }
  gst_element_set_context (pipeline, gst_context_new_cuda_context (ctx));
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "caps", caps, NULL);
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_output, &probe, NULL);
  gst_object_unref (pad);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  for (i = 0; i < frames + WARMUP; i++) {
    GstBuffer *b = gst_buffer_copy (bufs[i % K_BUFFERS]);

    GST_BUFFER_PTS (b) = (GstClockTime) i * GST_MSECOND;
    GST_BUFFER_DURATION (b) = GST_MSECOND;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    if (msg)
      gst_message_parse_error (msg, &err, NULL);
    fprintf (stderr, "pipeline failed: %s\n", err ? err->message :
        "timeout");
    g_clear_error (&err);
  } else if (probe.count > probe.warmup && probe.t_last > probe.t_first) {
    fps = (probe.count - probe.warmup) * 1e6 /
        (double) (probe.t_last - probe.t_first);
  }
  *memory_ok = cuda_out ? probe.cuda_out_seen && !probe.system_out_seen :
      probe.system_out_seen && !probe.cuda_out_seen;
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  for (i = 0; i < K_BUFFERS; i++)
    gst_clear_buffer (&bufs[i]);
  gst_caps_unref (caps);
  return fps;
}

static int
parse_args (int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--size") && i + 1 < argc
        && opt.n_sizes < MAX_SIZES) {
      if (sscanf (argv[++i], "%dx%d", &opt.w[opt.n_sizes],
              &opt.h[opt.n_sizes]) != 2 || opt.w[opt.n_sizes] < 2
          || opt.h[opt.n_sizes] < 2)
        return 0;
      opt.n_sizes++;
    } else if (!strcmp (argv[i], "--frames") && i + 1 < argc) {
      opt.frames = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--runs") && i + 1 < argc) {
      opt.runs = atoi (argv[++i]);
    } else if (!strcmp (argv[i], "--system-fps") && i + 1 < argc) {
      if (sscanf (argv[++i], "%lf,%lf", &opt.system_fps[0],
              &opt.system_fps[1]) != 2)
        return 0;
    } else {
      return 0;
    }
  }
  if (opt.runs < 1 || opt.runs > 50)
    return 0;
  if (opt.n_sizes == 0) {
    opt.w[0] = 1920;
    opt.h[0] = 1080;
    opt.w[1] = 3840;
    opt.h[1] = 2160;
    opt.n_sizes = 2;
  }
  return 1;
}

int
main (int argc, char **argv)
{
  GstCudaContext *ctx;
  int count = 0, s, m, r;

  gst_init (&argc, &argv);
  if (!parse_args (argc, argv)) {
    fprintf (stderr, "usage: %s [--size WxH]... [--frames N] [--runs N] "
        "[--system-fps F1080,F2160]\n", argv[0]);
    return 2;
  }
  if (ce_cuda_device_count (&count) != CE_STATUS_OK || count < 1
      || !gst_cuda_load_library ()
      || (ctx = gst_cuda_context_new (0)) == NULL) {
    printf ("SKIP: no CUDA device (%s)\n", ce_last_error ());
    return 77;
  }

  printf ("%-10s %-22s %9s %8s %12s %7s %9s\n", "size", "output", "fps",
      "spread%", "kernel_fps", "%kern", "x_system");
  for (s = 0; s < opt.n_sizes; s++) {
    int w = opt.w[s], h = opt.h[s];
    int frames = opt.frames ? opt.frames : (w * h > 4000000 ? 2000 : 5000);
    double kfps = kernel_fps (ctx, w, h, frames);
    double dfps = download_fps (ctx, w, h, frames);
    double sys = (h <= 1080 ? opt.system_fps[0] : opt.system_fps[1]);

    for (m = 0; m < 2; m++) {
      double v[50], spread, fps;
      gboolean memory_ok = TRUE, ok = FALSE;

      for (r = 0; r < opt.runs; r++) {
        v[r] = element_fps (ctx, w, h, m == 1, frames, &ok);
        memory_ok = memory_ok && ok;
      }
      fps = median_spread (v, opt.runs, &spread);
      printf ("%4dx%-5d %-22s %9.0f %8.1f %12.0f %6.1f%% %9s%s\n", w, h,
          m ? "NV12 in CUDA memory" : "GRAY8 in system memory", fps, spread,
          kfps, kfps > 0 ? 100.0 * fps / kfps : 0.0,
          sys > 0 ? g_strdup_printf ("%.2fx", fps / sys) : "-",
          memory_ok ? "" : "  (output memory not as asked!)");
    }
    printf ("%4dx%-5d D2H of the GRAY8 frame alone (pinned): %.0f fps\n", w,
        h, dfps);
  }
  printf ("(fps: median of %d runs after %d warm-up frames, input: %d "
      "pre-filled NV12 frames in CUDA memory; kernel_fps: the luma-plane "
      "edge chain alone, same context)\n", opt.runs, WARMUP, K_BUFFERS);
  gst_object_unref (ctx);
  return 0;
}
