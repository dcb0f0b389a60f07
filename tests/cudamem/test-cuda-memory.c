/* gst-cudaedge: the elements on GStreamer CUDA memory (GstHarness)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames reach the elements in CUDA memory through cudaupload (GStreamer's
 * nvcodec plugin) and leave in system memory or, through cudadownload, in
 * CUDA memory; every output is compared byte for byte with the core's CPU
 * reference on the same frame, carries its input's timestamps, offsets
 * and flags, and no output comes after the last expected one.  GstCudaBufferPool pitches are padded (a
 * multiple of the texture alignment), so odd widths test padded pitches.
 *
 * Needs a GPU and nvcodec's cudaupload / cudadownload: without them the
 * GPU cases report SKIP loudly (exit 77 when no case could run); the
 * negotiation cases for backend=cpu run everywhere.
 */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>

#include "cudaedge-core.h"
#include "../check/ce-check-util.h"

#define CUDA_MEMORY "memory:CUDAMemory"

static const struct
{
  const gchar *name;
  ce_format ce;
} formats[] = {
  {"NV12", CE_FORMAT_NV12}, {"I420", CE_FORMAT_I420},
  {"YV12", CE_FORMAT_YV12}, {"NV21", CE_FORMAT_NV21},
  {"Y444", CE_FORMAT_Y444}, {"Y42B", CE_FORMAT_Y42B},
  {"RGBA", CE_FORMAT_RGBA}, {"BGRA", CE_FORMAT_BGRA},
  {"RGBx", CE_FORMAT_RGBx}, {"BGRx", CE_FORMAT_BGRx},
  {"ARGB", CE_FORMAT_ARGB}, {"ABGR", CE_FORMAT_ABGR},
  {"RGB", CE_FORMAT_RGB}, {"BGR", CE_FORMAT_BGR},
};

static const gint sizes[][2] = { {2, 2}, {641, 481}, {613, 611}, {1920, 1080} };

/* Why the GPU cases cannot run, or NULL when they can. */
static const gchar *
gpu_missing (void)
{
  static gchar *why = NULL;
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    int count = 0;
    GstElementFactory *up = gst_element_factory_find ("cudaupload");
    GstElementFactory *down = gst_element_factory_find ("cudadownload");

    if (ce_cuda_device_count (&count) != CE_STATUS_OK || count == 0)
      why = g_strdup_printf ("no CUDA device (%s)", ce_last_error ());
    else if (!up || !down)
      why = g_strdup ("GStreamer's cudaupload / cudadownload (nvcodec) "
          "are not installed");
    gst_clear_object (&up);
    gst_clear_object (&down);
    g_once_init_leave (&once, 1);
  }
  return why;
}

static guint n_skipped = 0;

#define SKIP_WITHOUT_GPU() G_STMT_START { \
  if (gpu_missing ()) { \
    g_print ("SKIP %s: %s\n", __FUNCTION__, gpu_missing ()); \
    n_skipped++; \
    return; \
  } \
} G_STMT_END

static GstBuffer *
random_frame (const GstVideoInfo * info, guint32 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;
  gsize i;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  return buf;
}

/* The CPU reference of @in's edges, tightly packed. */
static guint8 *
reference_edges (GstBuffer * in, const GstVideoInfo * info, ce_format format)
{
  guint8 *ref = g_malloc (info->width * info->height);
  ce_edge_params params;
  GstVideoFrame frame;
  ce_frame src;

  ce_edge_params_init (&params);
  fail_unless (gst_video_frame_map (&frame, info, in, GST_MAP_READ));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  src.width = info->width;
  src.height = info->height;
  src.format = format;
  fail_unless_equals_int (ce_ref_edge_frame (&src, &params, ref,
          info->width), CE_STATUS_OK);
  gst_video_frame_unmap (&frame);
  return ref;
}

/* Plane @plane of @out equals @expected (tightly packed rows of
 * @row_bytes), or every byte is @value when @expected is NULL. */
static void
assert_plane (GstBuffer * out, const GstVideoInfo * info, guint plane,
    const guint8 * expected, gint row_bytes, gint rows, gint value,
    const gchar * what)
{
  GstVideoFrame frame;
  gint y, x;

  fail_unless (gst_video_frame_map (&frame, info, out, GST_MAP_READ));
  for (y = 0; y < rows; y++) {
    const guint8 *got = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        plane) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, plane);

    for (x = 0; x < row_bytes; x++) {
      gint want = expected ? expected[(gsize) y * row_bytes + x] : value;

      if (got[x] != want)
        fail ("%s: plane %u differs at x=%d y=%d: expected %d, got %d", what,
            plane, x, y, want, got[x]);
    }
  }
  gst_video_frame_unmap (&frame);
}

static gchar *
caps_string (const gchar * features, const gchar * format, gint w, gint h,
    const gchar * rate)
{
  return g_strdup_printf ("video/x-raw%s%s%s,format=%s,width=%d,height=%d,"
      "framerate=%s", features ? "(" : "", features ? features : "",
      features ? ")" : "", format, w, h, rate);
}

/* Pushes @n random frames through @h (whose input caps are set) and
 * returns the outputs, after EOS so that frames in flight come out: one
 * per input, in order, each with its input's metadata, and no more. */
static GPtrArray *
push_frames (GstHarness * h, const GstVideoInfo * info, guint n,
    GPtrArray * inputs)
{
  GPtrArray *outs = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  CeTestMeta *meta = g_new0 (CeTestMeta, n);
  gchar *what = g_strdup_printf ("%s %dx%d",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  guint i;

  for (i = 0; i < n; i++) {
    GstBuffer *in = random_frame (info, 1000 + i);

    ce_test_meta_for_frame (&meta[i], i);
    ce_test_set_meta (in, &meta[i]);
    g_ptr_array_add (inputs, gst_buffer_ref (in));
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_try_pull (h);

    fail_unless (out != NULL, "%s: output %u of %u missing", what, i, n);
    ce_test_assert_meta (out, &meta[i], what, i);
    g_ptr_array_add (outs, out);
  }
  fail_unless (gst_harness_try_pull (h) == NULL, "%s: more than %u outputs",
      what, n);
  g_free (what);
  g_free (meta);
  return outs;
}

/* cudaupload ! cudaedge [! @out_caps ! cudadownload]: every output's Y (or
 * GRAY8) is the reference's; chroma is 128. */
static void
run_edge (const gchar * format, ce_format ce, gint w, gint h,
    const gchar * out_format, const gchar * rate, guint n)
{
  gchar *desc, *in_caps, *out_caps;
  GstVideoInfo info, out_info;
  GPtrArray *ins = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  GPtrArray *outs;
  GstHarness *hh;
  guint i, p;

  if (out_format) {
    out_caps = caps_string (CUDA_MEMORY,
        out_format, w, h, rate);
    desc = g_strdup_printf ("cudaupload ! cudaedge backend=cuda check=true "
        "! %s ! cudadownload", out_caps);
    g_free (out_caps);
  } else {
    desc = g_strdup ("cudaupload ! cudaedge backend=cuda check=true");
  }
  hh = gst_harness_new_parse (desc);
  in_caps = caps_string (NULL, format, w, h, rate);
  gst_harness_set_src_caps_str (hh, in_caps);
  fail_unless (gst_video_info_from_caps (&info, gst_caps_from_string
          (in_caps)));
  gst_video_info_set_format (&out_info, gst_video_format_from_string
      (out_format ? out_format : "GRAY8"), w, h);

  outs = push_frames (hh, &info, n, ins);
  for (i = 0; i < n; i++) {
    guint8 *ref = reference_edges (g_ptr_array_index (ins, i), &info, ce);
    gchar *what = g_strdup_printf ("%s %dx%d -> %s frame %u", format, w, h,
        out_format ? out_format : "GRAY8", i);

    assert_plane (g_ptr_array_index (outs, i), &out_info, 0, ref, w, h, 0,
        what);
    for (p = 1; p < GST_VIDEO_INFO_N_PLANES (&out_info); p++)
      assert_plane (g_ptr_array_index (outs, i), &out_info, p, NULL,
          GST_VIDEO_INFO_COMP_WIDTH (&out_info, p) *
          GST_VIDEO_INFO_COMP_PSTRIDE (&out_info, p),
          GST_VIDEO_INFO_COMP_HEIGHT (&out_info, p), 128, what);
    g_free (what);
    g_free (ref);
  }
  g_ptr_array_unref (outs);
  g_ptr_array_unref (ins);
  g_free (in_caps);
  g_free (desc);
  gst_harness_teardown (hh);
}

GST_START_TEST (test_every_cuda_format_to_gray8_matches_reference)
{
  guint f, s;

  SKIP_WITHOUT_GPU ();
  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      run_edge (formats[f].name, formats[f].ce, sizes[s][0], sizes[s][1],
          NULL, "0/1", 2);
}

GST_END_TEST;

GST_START_TEST (test_frames_in_flight_on_cuda_memory_match_reference)
{
  SKIP_WITHOUT_GPU ();
  /* A known frame rate: frames stay in flight. */
  run_edge ("NV12", CE_FORMAT_NV12, 641, 481, NULL, "30/1", 7);
  run_edge ("RGBA", CE_FORMAT_RGBA, 613, 611, "NV12", "30/1", 7);
}

GST_END_TEST;

/* GPU frames on CUDA memory are timed as on system memory: one in 64
 * until the stats are first read, every one from then on. */
GST_START_TEST (test_stats_timing_sampled_on_cuda_memory)
{
  /* 0/1: one frame at a time; 30/1: frames in flight */
  static const gchar *rates[] = { "0/1", "30/1" };
  guint r;

  SKIP_WITHOUT_GPU ();
  for (r = 0; r < G_N_ELEMENTS (rates); r++) {
    GstVideoInfo info;
    GPtrArray *ins, *outs;
    GstHarness *hh;
    GstElement *edge;
    GstStructure *s;
    gchar *caps;
    guint64 frames = 0, timed = 0;
    gdouble kernel_us = 0;

    hh = gst_harness_new_parse ("cudaupload ! cudaedge name=e backend=cuda "
        "! video/x-raw(" CUDA_MEMORY "),format=NV12 ! cudadownload");
    caps = caps_string (NULL, "NV12", 64, 48, rates[r]);
    gst_harness_set_src_caps_str (hh, caps);
    g_free (caps);
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
    edge = gst_bin_get_by_name (GST_BIN (hh->element), "e");
    fail_unless (edge != NULL);

    ins = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
    outs = push_frames (hh, &info, 130, ins);
    g_object_get (edge, "stats", &s, NULL);
    fail_unless (gst_structure_get (s, "frames", G_TYPE_UINT64, &frames,
            "timed-frames", G_TYPE_UINT64, &timed, "kernel-us",
            G_TYPE_DOUBLE, &kernel_us, NULL));
    fail_unless_equals_uint64 (frames, 130);
    fail_unless_equals_uint64 (timed, 2);     /* frames 63 and 127 */
    fail_unless (kernel_us > 0.0, "%s: kernel-us %f", rates[r], kernel_us);
    gst_structure_free (s);
    g_ptr_array_unref (outs);
    g_ptr_array_unref (ins);
    gst_object_unref (edge);
    gst_harness_teardown (hh);
  }
}

GST_END_TEST;

GST_START_TEST (test_cuda_memory_output_nv12_and_i420)
{
  guint s;

  SKIP_WITHOUT_GPU ();
  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    run_edge ("NV12", CE_FORMAT_NV12, sizes[s][0], sizes[s][1], "NV12",
        "0/1", 2);
    run_edge ("BGRx", CE_FORMAT_BGRx, sizes[s][0], sizes[s][1], "NV12",
        "0/1", 2);
  }
  /* I420 in CUDA memory at even sizes only: at 641x481 the V plane that
   * cudadownload (GstCuda 1.22) hands on differs from the one its video
   * meta describes, which is where the element writes 128. */
  run_edge ("I420", CE_FORMAT_I420, 2, 2, "I420", "0/1", 2);
  run_edge ("I420", CE_FORMAT_I420, 640, 480, "I420", "0/1", 2);
  run_edge ("BGRx", CE_FORMAT_BGRx, 1920, 1080, "I420", "0/1", 2);
}

GST_END_TEST;

GST_START_TEST (test_upscale_in_cuda_memory_matches_reference)
{
  static const gchar *names[] = { "RGBA", "BGRx", "ARGB" };
  static const gint dims[][2] = { {1, 1}, {641, 481}, {613, 611} };
  guint f, s;

  SKIP_WITHOUT_GPU ();
  for (f = 0; f < G_N_ELEMENTS (names); f++) {
    for (s = 0; s < G_N_ELEMENTS (dims); s++) {
      gint w = dims[s][0], h = dims[s][1];
      GPtrArray *ins = g_ptr_array_new_with_free_func ((GDestroyNotify)
          gst_buffer_unref);
      gchar *in_caps = caps_string (NULL, names[f], w, h, "30/1");
      GstHarness *hh = gst_harness_new_parse ("cudaupload ! "
          "cudaupscale backend=cuda check=true ! cudadownload");
      GstVideoInfo info, out_info;
      GPtrArray *outs;
      guint i;

      gst_harness_set_src_caps_str (hh, in_caps);
      gst_video_info_set_format (&info, gst_video_format_from_string
          (names[f]), w, h);
      gst_video_info_set_format (&out_info, GST_VIDEO_INFO_FORMAT (&info),
          2 * w, 2 * h);
      outs = push_frames (hh, &info, 3, ins);
      for (i = 0; i < outs->len; i++) {
        guint8 *ref = g_malloc ((gsize) 16 * w * h);
        GstVideoFrame frame;
        gchar *what = g_strdup_printf ("upscale %s %dx%d frame %u",
            names[f], w, h, i);

        fail_unless (gst_video_frame_map (&frame, &info,
                g_ptr_array_index (ins, i), GST_MAP_READ));
        fail_unless_equals_int (ce_ref_upscale2x
            (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
                GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), w, h, 4, ref,
                (gsize) 8 * w), CE_STATUS_OK);
        gst_video_frame_unmap (&frame);
        assert_plane (g_ptr_array_index (outs, i), &out_info, 0, ref, 8 * w,
            2 * h, 0, what);
        g_free (ref);
        g_free (what);
      }
      g_ptr_array_unref (outs);
      g_ptr_array_unref (ins);
      g_free (in_caps);
      gst_harness_teardown (hh);
    }
  }
}

GST_END_TEST;

/* The GstCudaContext an element answers a CONTEXT query with. */
static GstObject *
element_cuda_context (GstElement * element)
{
  GstQuery *query = gst_query_new_context ("gst.cuda.context");
  GstObject *ctx = NULL;
  GstContext *context = NULL;
  GstPad *pad = gst_element_get_static_pad (element, "src");

  if (gst_pad_query (pad, query)) {
    gst_query_parse_context (query, &context);
    if (context) {
      const GstStructure *s = gst_context_get_structure (context);
      GstCudaContext *cuda_ctx = NULL;

      if (gst_structure_get (s, GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT,
              &cuda_ctx, NULL))
        ctx = GST_OBJECT (cuda_ctx);
    }
  }
  gst_object_unref (pad);
  gst_query_unref (query);
  return ctx;
}

static GstPadProbeReturn
remember_memory_context (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  GstCudaContext **ctx = user_data;
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);

  if (gst_is_cuda_memory (mem) && *ctx == NULL)
    *ctx = gst_object_ref (((GstCudaMemory *) mem)->context);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_one_cuda_context_for_the_pipeline)
{
  GstHarness *hh;
  GstElement *edge;
  GstCudaContext *memory_ctx = NULL;
  GstObject *edge_ctx;
  GstVideoInfo info;
  GPtrArray *ins, *outs;
  GstPad *sink;

  SKIP_WITHOUT_GPU ();
  hh = gst_harness_new_parse ("cudaupload ! cudaedge name=edge "
      "backend=cuda");
  edge = gst_bin_get_by_name (GST_BIN (hh->element), "edge");
  sink = gst_element_get_static_pad (edge, "sink");
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER,
      remember_memory_context, &memory_ctx, NULL);
  gst_harness_set_src_caps_str (hh,
      "video/x-raw,format=NV12,width=64,height=48,framerate=0/1");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, 64, 48);
  ins = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_buffer_unref);
  outs = push_frames (hh, &info, 1, ins);

  /* The memory cudaupload made, and the context cudaedge works in and
   * hands to its neighbours, are one. */
  edge_ctx = element_cuda_context (edge);
  fail_unless (memory_ctx != NULL, "cudaedge got no CUDA memory");
  fail_unless (edge_ctx != NULL, "cudaedge has no CUDA context");
  fail_unless (GST_OBJECT (memory_ctx) == edge_ctx,
      "two CUDA contexts in one pipeline");

  gst_object_unref (memory_ctx);
  gst_object_unref (edge_ctx);
  gst_object_unref (sink);
  gst_object_unref (edge);
  g_ptr_array_unref (outs);
  g_ptr_array_unref (ins);
  gst_harness_teardown (hh);
}

GST_END_TEST;

/* A context the application sets on the element itself (not through a
 * bin, whose NEED_CONTEXT answer would give it again) is worked in after
 * a restart too, not replaced by one of the element's own. */
GST_START_TEST (test_application_context_kept_across_restarts)
{
  GstElement *edge;
  GstCudaContext *app;
  GstContext *context;
  GstObject *got;
  int round;

  SKIP_WITHOUT_GPU ();
  app = gst_cuda_context_new (0);
  fail_unless (app != NULL);
  edge = gst_element_factory_make ("cudaedge", NULL);
  gst_util_set_object_arg (G_OBJECT (edge), "backend", "cuda");
  context = gst_context_new_cuda_context (app);
  gst_element_set_context (edge, context);
  gst_context_unref (context);

  for (round = 0; round < 2; round++) {
    fail_unless (gst_element_set_state (edge, GST_STATE_PAUSED)
        != GST_STATE_CHANGE_FAILURE);
    got = element_cuda_context (edge);
    fail_unless (got == GST_OBJECT (app), "round %d: cudaedge works in %"
        GST_PTR_FORMAT ", not the application's %" GST_PTR_FORMAT, round,
        got, app);
    gst_clear_object (&got);
    fail_unless (gst_element_set_state (edge, GST_STATE_NULL)
        == GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref (edge);
  gst_object_unref (app);
}

GST_END_TEST;

/* An NV12 frame of @w x @h in CUDA memory of @ctx, random from @seed,
 * with a video meta of its memory's own layout; @meta_h (not @h where the
 * frame should lie about its size) is the meta's height. */
static GstBuffer *
cuda_frame (GstCudaContext * ctx, gint w, gint h, gint meta_h, guint32 seed)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  GstVideoInfo info;
  GstCudaMemory *cmem;
  GstAllocator *alloc;
  GstMemory *mem;
  GstBuffer *buf;
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize i;
  guint p;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, w, h);
  gst_cuda_memory_init_once ();  /* registers GStreamer's CUDA allocator */
  alloc = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  fail_unless (alloc != NULL);
  mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (alloc), ctx, &info);
  gst_object_unref (alloc);
  fail_unless (mem != NULL);
  cmem = (GstCudaMemory *) mem;
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int (rand) & 0xff;
  gst_memory_unmap (mem, &map);
  g_rand_free (rand);
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&cmem->info); p++) {
    offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (&cmem->info, p);
    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&cmem->info, p);
  }
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_NV12, w, meta_h, 2, offset, stride);
  return buf;
}

/* cudaedge alone in a harness, in @ctx, NV12 in CUDA memory in and GRAY8
 * out; its bus in *bus. */
static GstHarness *
cuda_edge_harness (GstCudaContext * ctx, gint w, gint h, GstBus ** bus)
{
  GstElement *edge = gst_element_factory_make ("cudaedge", NULL);
  GstContext *context = gst_context_new_cuda_context (ctx);
  GstHarness *hh;
  gchar *caps;

  gst_util_set_object_arg (G_OBJECT (edge), "backend", "cuda");
  gst_element_set_context (edge, context);
  gst_context_unref (context);
  *bus = gst_bus_new ();
  gst_element_set_bus (edge, *bus);
  hh = gst_harness_new_with_element (edge, "sink", "src");
  gst_object_unref (edge);
  caps = caps_string (CUDA_MEMORY, "NV12", w, h, "0/1");
  gst_harness_set_src_caps_str (hh, caps);
  g_free (caps);
  caps = caps_string (NULL, "GRAY8", w, h, "0/1");
  gst_harness_set_sink_caps_str (hh, caps);
  g_free (caps);
  return hh;
}

/* A frame in CUDA memory whose planes (from its meta, of the caps' size)
 * do not fit in its memory is refused with a format error before any GPU
 * work, as in system memory: not read past the allocation. */
GST_START_TEST (test_cuda_input_outside_its_memory_is_an_error)
{
  GstCudaContext *ctx;
  GstHarness *hh;
  GstMessage *msg;
  GError *err = NULL;
  GstBus *bus;

  SKIP_WITHOUT_GPU ();
  ctx = gst_cuda_context_new (0);
  fail_unless (ctx != NULL);
  hh = cuda_edge_harness (ctx, 64, 1024, &bus);
  /* 16 rows of memory, a meta of 1024 */
  fail_unless_equals_int (gst_harness_push (hh, cuda_frame (ctx, 64, 16,
              1024, 7)), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), "%s", err->message);
  GST_INFO ("refused: %s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_harness_buffers_received (hh), 0);
  gst_harness_teardown (hh);
  gst_object_unref (bus);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* Memory of another GstCudaContext around the same CUDA context (as two
 * pipelines each wrapping a device's primary context have) is taken as
 * the element's own: exact edges, no error. */
GST_START_TEST (test_cuda_memory_of_another_wrapper_is_taken)
{
  const gint w = 61, h = 47;
  GstCudaContext *ctx, *wrapper;
  GstVideoInfo info;
  GstHarness *hh;
  GstBuffer *in, *out;
  GstBus *bus;
  CUdevice dev;
  CeTestMeta meta;
  guint8 *ref;
  guint device_id = 0;

  SKIP_WITHOUT_GPU ();
  ctx = gst_cuda_context_new (0);
  fail_unless (ctx != NULL);
  g_object_get (ctx, "cuda-device-id", &device_id, NULL);
  fail_unless_equals_int (CuDeviceGet (&dev, device_id), CUDA_SUCCESS);
  wrapper = gst_cuda_context_new_wrapped (gst_cuda_context_get_handle (ctx),
      dev);
  fail_unless (wrapper != NULL && wrapper != ctx);

  hh = cuda_edge_harness (wrapper, w, h, &bus);
  in = cuda_frame (ctx, w, h, h, 11);
  ce_test_meta_for_frame (&meta, 0);
  ce_test_set_meta (in, &meta);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, w, h);
  ref = reference_edges (in, &info, CE_FORMAT_NV12);
  fail_unless_equals_int (gst_harness_push (hh, in), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (hh, gst_event_new_eos ()));
  out = gst_harness_try_pull (hh);
  fail_unless (out != NULL, "no output");
  ce_test_assert_meta (out, &meta, "NV12 of another wrapper", 0);
  fail_unless (gst_harness_try_pull (hh) == NULL, "two outputs for one "
      "input");
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
  assert_plane (out, &info, 0, ref, w, h, 0, "NV12 of another wrapper");
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR) == NULL);
  gst_buffer_unref (out);
  g_free (ref);
  gst_harness_teardown (hh);
  gst_object_unref (bus);
  gst_object_unref (wrapper);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* A context set on the element for device 0, then cuda-device-id set to
 * a device that does not exist: backend=cuda refuses to start, rather
 * than working on device 0. */
GST_START_TEST (test_context_of_another_device_than_asked_is_dropped)
{
  GstElement *edge;
  GstCudaContext *ctx;
  GstContext *context;
  gint count = 0;

  SKIP_WITHOUT_GPU ();
  fail_unless_equals_int (ce_cuda_device_count (&count), CE_STATUS_OK);
  ctx = gst_cuda_context_new (0);
  fail_unless (ctx != NULL);
  edge = gst_element_factory_make ("cudaedge", NULL);
  gst_util_set_object_arg (G_OBJECT (edge), "backend", "cuda");
  context = gst_context_new_cuda_context (ctx);
  gst_element_set_context (edge, context);
  gst_context_unref (context);
  g_object_set (edge, "cuda-device-id", count, NULL);

  fail_unless_equals_int (gst_element_set_state (edge, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (edge, GST_STATE_NULL);
  gst_object_unref (edge);
  gst_object_unref (ctx);
}

GST_END_TEST;

/* Caps the element's @pad gives for @peer_caps on its other pad. */
static GstCaps *
query_caps (GstElement * e, const gchar * pad_name, const gchar * peer_caps)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *filter = gst_caps_from_string (peer_caps);
  GstBaseTransform *trans = GST_BASE_TRANSFORM (e);
  GstCaps *ret;

  ret = GST_BASE_TRANSFORM_GET_CLASS (trans)->transform_caps (trans,
      GST_PAD_DIRECTION (pad) == GST_PAD_SINK ? GST_PAD_SRC : GST_PAD_SINK,
      filter, NULL);
  gst_caps_unref (filter);
  gst_object_unref (pad);
  return ret;
}

GST_START_TEST (test_negotiation_both_ways_on_cuda)
{
  GstElement *e;
  GstCaps *caps;
  gchar *s;

  SKIP_WITHOUT_GPU ();
  e = gst_element_factory_make ("cudaedge", NULL);
  g_object_set (e, "backend", 1 /* cuda */ , NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_SUCCESS);

  /* CUDA input: GRAY8 in system memory first, NV12 / I420 in CUDA. */
  caps = query_caps (e, "src", "video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=64,height=48");
  s = gst_caps_to_string (caps);
  fail_unless (gst_caps_get_size (caps) == 2, "%s", s);
  fail_if (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          CUDA_MEMORY), "%s", s);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 1),
          CUDA_MEMORY), "%s", s);
  g_free (s);
  gst_caps_unref (caps);

  /* System GRAY8 output: upstream is offered CUDA memory first. */
  caps = query_caps (e, "sink", "video/x-raw,format=GRAY8,width=64,"
      "height=48");
  s = gst_caps_to_string (caps);
  fail_unless (gst_caps_features_contains (gst_caps_get_features (caps, 0),
          CUDA_MEMORY), "%s", s);
  g_free (s);
  gst_caps_unref (caps);

  /* CUDA output needs CUDA input. */
  caps = query_caps (e, "sink", "video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=64,height=48");
  s = gst_caps_to_string (caps);
  fail_unless (gst_caps_get_size (caps) == 1 && gst_caps_features_contains
      (gst_caps_get_features (caps, 0),
          CUDA_MEMORY), "%s", s);
  g_free (s);
  gst_caps_unref (caps);

  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* Runs everywhere: the CPU backend never negotiates CUDA memory. */
GST_START_TEST (test_backend_cpu_never_offers_cuda_memory)
{
  const gchar *names[] = { "cudaedge", "cudaupscale" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    GstElement *e = gst_element_factory_make (names[i], NULL);
    GstCaps *caps;

    fail_unless (e != NULL, "%s not found; is GST_PLUGIN_PATH set?",
        names[i]);
    g_object_set (e, "backend", 2 /* cpu */ , NULL);
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_SUCCESS);
    caps = query_caps (e, "src", "video/x-raw(memory:CUDAMemory),"
        "format=RGBA,width=64,height=48");
    fail_unless (gst_caps_is_empty (caps), "%s offers %" GST_PTR_FORMAT,
        names[i], caps);
    gst_caps_unref (caps);
    caps = query_caps (e, "sink", "video/x-raw,format=RGBA,width=128,"
        "height=96");
    fail_unless (!gst_caps_is_empty (caps));
    fail_if (gst_caps_features_contains (gst_caps_get_features (caps, 0),
            CUDA_MEMORY));
    gst_caps_unref (caps);
    gst_element_set_state (e, GST_STATE_NULL);
    gst_object_unref (e);
  }
}

GST_END_TEST;

static Suite *
cuda_memory_suite (void)
{
  Suite *s = suite_create ("cuda-memory");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_backend_cpu_never_offers_cuda_memory);
  tcase_add_test (tc, test_negotiation_both_ways_on_cuda);
  tcase_add_test (tc, test_one_cuda_context_for_the_pipeline);
  tcase_add_test (tc, test_application_context_kept_across_restarts);
  tcase_add_test (tc, test_cuda_input_outside_its_memory_is_an_error);
  tcase_add_test (tc, test_cuda_memory_of_another_wrapper_is_taken);
  tcase_add_test (tc, test_context_of_another_device_than_asked_is_dropped);
  tcase_add_test (tc, test_every_cuda_format_to_gray8_matches_reference);
  tcase_add_test (tc, test_cuda_memory_output_nv12_and_i420);
  tcase_add_test (tc, test_frames_in_flight_on_cuda_memory_match_reference);
  tcase_add_test (tc, test_stats_timing_sampled_on_cuda_memory);
  tcase_add_test (tc, test_upscale_in_cuda_memory_matches_reference);
  return s;
}

int
main (int argc, char **argv)
{
  Suite *s;
  SRunner *sr;
  int failed;

  gst_check_init (&argc, &argv);
  s = cuda_memory_suite ();
  sr = srunner_create (s);
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);

  if (gpu_missing ()) {
    g_print ("************************************************************\n"
        "SKIP: %u GPU cases of the CUDA-memory suite NOT run: %s\n"
        "************************************************************\n",
        n_skipped, gpu_missing ());
  }
  if (failed)
    return 1;
  return gpu_missing ()? 77 : 0;
}
