/* gst-cudaedge: GstHarness tests of the cudaedge element
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 *
 * Every output is compared with the core's CPU reference (ce_ref_edge_frame)
 * by memcmp.  The element runs on the backend named by the environment
 * variable CUDAEDGE_TEST_BACKEND ("cpu" by default; the GPU machine runs
 * "cuda").  With "cuda" and no usable device the binary exits 77 (SKIP).
 *
 * On CUDA with a known frame rate the element keeps one frame in flight:
 * an output leaves only after the next input, a DRAIN query or EOS.  The
 * tests ce_test_drain before they pull, so they hold on both backends; the caps
 * carry framerate=30/1 unless a test says otherwise.
 */

#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"
#include "ce-check-util.h"

#define CORRUPT_ENV "CUDAEDGE_TEST_CORRUPT_FRAME"
#define CUDA_FAIL_ENV "CUDAEDGE_TEST_CUDA_FAIL_FRAME"

typedef struct
{
  const gchar *name;
  ce_format ce;
} TestFormat;

/* The test's own mapping, independent of the element's. */
static const TestFormat all_formats[] = {
  {"GRAY8", CE_FORMAT_GRAY8}, {"I420", CE_FORMAT_I420},
  {"YV12", CE_FORMAT_YV12}, {"NV12", CE_FORMAT_NV12},
  {"NV21", CE_FORMAT_NV21}, {"Y42B", CE_FORMAT_Y42B},
  {"Y444", CE_FORMAT_Y444}, {"YUY2", CE_FORMAT_YUY2},
  {"UYVY", CE_FORMAT_UYVY}, {"RGB", CE_FORMAT_RGB},
  {"BGR", CE_FORMAT_BGR}, {"RGBA", CE_FORMAT_RGBA},
  {"BGRA", CE_FORMAT_BGRA}, {"ARGB", CE_FORMAT_ARGB},
  {"ABGR", CE_FORMAT_ABGR}, {"RGBx", CE_FORMAT_RGBx},
  {"BGRx", CE_FORMAT_BGRx}, {"xRGB", CE_FORMAT_xRGB},
  {"xBGR", CE_FORMAT_xBGR},
};

static const TestFormat *
find_format (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    if (g_str_equal (all_formats[i].name, name))
      return &all_formats[i];
  g_assert_not_reached ();
  return NULL;
}

/* ---- the element ---- */

/* On @backend, or on CUDAEDGE_TEST_BACKEND's when NULL. */
static GstElement *
new_edge (const gchar * backend)
{
  return ce_test_new_element ("cudaedge", backend);
}

/* ---- frames ---- */

static void
default_params (ce_edge_params * p)
{
  ce_edge_params_init (p);
}

/* The reference output for @buf (plane 0 located through GstVideoMeta if
 * present, else @info), tightly packed W x H. */
static guint8 *
reference_output (GstBuffer * buf, GstVideoInfo * info, const gchar * format,
    const ce_edge_params * params)
{
  GstVideoFrame frame;
  ce_frame src;
  guint8 *out;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  ce_status status;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_READ));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  src.width = w;
  src.height = h;
  src.format = find_format (format)->ce;
  out = g_malloc (MAX (w * h, 1));
  status = ce_ref_edge_frame (&src, params, out, w);
  fail_unless_equals_int (status, CE_STATUS_OK);
  gst_video_frame_unmap (&frame);
  return out;
}

/* Pushes one random frame through a running fixture and compares. */
static void
push_and_compare (CeTestFixture * f, const gchar * format, gint width,
    gint height, guint32 seed, const ce_edge_params * params)
{
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint8 *expected;

  in = ce_test_random_frame (format, width, height, seed, &info);
  expected = reference_output (in, &info, format, params);
  out = ce_test_push_and_pull (f->h, in);
  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, "GRAY8", expected, width, height);
  gst_buffer_unref (out);
  g_free (expected);
}

static void
check_format_size (const gchar * format, gint width, gint height)
{
  CeTestFixture f;
  ce_edge_params params;

  default_params (&params);
  ce_test_fixture_start (&f, new_edge (NULL), format, width, height);
  push_and_compare (&f, format, width, height, 1234 + width, &params);
  ce_test_fixture_stop (&f);
}

/* ---- output equals the reference ---- */

GST_START_TEST (test_every_format_matches_reference_1x1)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 1, 1);
}

GST_END_TEST;

GST_START_TEST (test_every_format_matches_reference_611x480_padded_stride)
{
  guint i;

  /* 611 is odd: GRAY8 rows get the default stride 612, YUV chroma odd. */
  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 611, 480);
}

GST_END_TEST;

GST_START_TEST (test_every_format_matches_reference_641x481_odd_size)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 641, 481);
}

GST_END_TEST;

GST_START_TEST (test_some_formats_match_reference_1920x1080)
{
  static const gchar *formats[] = { "GRAY8", "I420", "NV12", "YUY2",
    "RGB", "BGRx"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    check_format_size (formats[i], 1920, 1080);
}

GST_END_TEST;

GST_START_TEST (test_thin_frames_match_reference)
{
  check_format_size ("GRAY8", 320, 1);
  check_format_size ("GRAY8", 1, 240);
  check_format_size ("RGBA", 2, 3);
  check_format_size ("I420", 3, 2);
}

GST_END_TEST;

/* A buffer whose planes sit at custom offsets with padded strides,
 * described only by its GstVideoMeta. */
static void
check_custom_layout (const gchar * format, gint width, gint height)
{
  CeTestFixture f;
  GstVideoInfo info, padded;
  GstBuffer *in, *out;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  gsize pos = 160;              /* leading junk before plane 0 */
  guint p, n_planes;
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (99);
  gsize i;
  guint8 *expected;
  ce_edge_params params;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  n_planes = GST_VIDEO_INFO_N_PLANES (&info);
  for (p = 0; p < n_planes; p++) {
    /* Rows of plane p in the default, tightly packed layout. */
    gsize end = p + 1 < n_planes ? GST_VIDEO_INFO_PLANE_OFFSET (&info, p + 1)
        : GST_VIDEO_INFO_SIZE (&info);
    gint rows = (end - GST_VIDEO_INFO_PLANE_OFFSET (&info, p)) /
        GST_VIDEO_INFO_PLANE_STRIDE (&info, p);

    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p) + 37;
    offset[p] = pos;
    pos += (gsize) stride[p] * rows + 11;
  }

  in = gst_buffer_new_allocate (NULL, pos, NULL);
  gst_buffer_map (in, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (in, &map);
  g_rand_free (rand);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&info), width, height, n_planes, offset, stride);

  padded = info;
  default_params (&params);
  expected = reference_output (in, &padded, format, &params);

  ce_test_fixture_start (&f, new_edge (NULL), format, width, height);
  out = ce_test_push_and_pull (f.h, in);
  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, "GRAY8", expected, width, height);
  gst_buffer_unref (out);
  g_free (expected);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_custom_strides_and_offsets_from_video_meta)
{
  check_custom_layout ("GRAY8", 101, 37);
  check_custom_layout ("I420", 101, 37);
  check_custom_layout ("NV12", 64, 48);
  check_custom_layout ("RGBx", 101, 37);
  check_custom_layout ("RGB", 33, 20);
  check_custom_layout ("YUY2", 50, 31);
}

GST_END_TEST;

/* ---- properties ---- */

static void
check_params (const gchar * prop, const gchar * value,
    const ce_edge_params * params)
{
  CeTestFixture f;
  GstElement *e = new_edge (NULL);
  ce_edge_params defaults;
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint8 *expected, *expected_default;
  const gint w = 97, h = 61;

  gst_util_set_object_arg (G_OBJECT (e), prop, value);
  ce_test_fixture_start (&f, e, "GRAY8", w, h);

  /* Smooth-ish content so that every option changes the result. */
  in = ce_test_random_frame ("GRAY8", w, h, 7, &info);
  expected = reference_output (in, &info, "GRAY8", params);
  default_params (&defaults);
  expected_default = reference_output (in, &info, "GRAY8", &defaults);
  fail_if (memcmp (expected, expected_default, w * h) == 0,
      "%s=%s does not change the reference on this frame", prop, value);

  out = ce_test_push_and_pull (f.h, in);
  ce_test_assert_output_equals (out, "GRAY8", expected, w, h);
  gst_buffer_unref (out);
  g_free (expected);
  g_free (expected_default);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_threshold_property)
{
  ce_edge_params p;

  default_params (&p);
  p.threshold = 40.5;
  check_params ("threshold", "40.5", &p);
  p.threshold = 700;
  check_params ("threshold", "700", &p);
}

GST_END_TEST;

GST_START_TEST (test_blur_property)
{
  ce_edge_params p;

  default_params (&p);
  p.blur = 0;
  check_params ("blur", "false", &p);
}

GST_END_TEST;

GST_START_TEST (test_border_mode_property)
{
  ce_edge_params p;

  default_params (&p);
  p.border = CE_BORDER_ZERO;
  check_params ("border-mode", "zero", &p);
  p.border = CE_BORDER_REFLECT;
  check_params ("border-mode", "reflect", &p);
}

GST_END_TEST;

GST_START_TEST (test_norm_property)
{
  ce_edge_params p;

  default_params (&p);
  p.norm = CE_NORM_L1;
  check_params ("norm", "l1", &p);
}

GST_END_TEST;

GST_START_TEST (test_output_property)
{
  ce_edge_params p;

  default_params (&p);
  p.output = CE_OUTPUT_MAGNITUDE;
  check_params ("output", "magnitude", &p);
}

GST_END_TEST;

GST_START_TEST (test_property_change_while_playing_applies_at_next_frame)
{
  CeTestFixture f;
  ce_edge_params p;
  const gint w = 80, h = 60;

  ce_test_fixture_start (&f, new_edge (NULL), "RGBx", w, h);
  fail_unless_equals_int (GST_STATE (f.element), GST_STATE_PLAYING);

  default_params (&p);
  push_and_compare (&f, "RGBx", w, h, 5, &p);

  g_object_set (f.element, "threshold", 16.0, "norm", 1 /* l1 */ ,
      "border-mode", 2 /* reflect */ , NULL);
  p.threshold = 16.0;
  p.norm = CE_NORM_L1;
  p.border = CE_BORDER_REFLECT;
  push_and_compare (&f, "RGBx", w, h, 5, &p);

  g_object_set (f.element, "blur", FALSE, "output", 1 /* magnitude */ , NULL);
  p.blur = 0;
  p.output = CE_OUTPUT_MAGNITUDE;
  push_and_compare (&f, "RGBx", w, h, 6, &p);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- buffers, events, negotiation ---- */

/* N buffers in, N out after EOS, in order, with their metadata and the
 * reference's pixels; @rate "30/1" keeps a frame in flight on CUDA, "0/1"
 * runs synchronously. */
static void
check_n_buffers_in_n_out (const gchar * rate)
{
  CeTestFixture f;
  const guint n = 12;
  guint i;
  GstVideoInfo info;
  guint8 *expected[12];
  ce_edge_params p;

  default_params (&p);
  ce_test_fixture_start_with_rate (&f, new_edge (NULL), "I420", 32, 24, rate);
  for (i = 0; i < n; i++) {
    GstBuffer *in = ce_test_random_frame ("I420", 32, 24, i, &info);
    expected[i] = reference_output (in, &info, "I420", &p);
    GST_BUFFER_PTS (in) = i * 33 * GST_MSECOND + 7;
    GST_BUFFER_DTS (in) = i * 33 * GST_MSECOND;
    GST_BUFFER_DURATION (in) = 33 * GST_MSECOND;
    GST_BUFFER_OFFSET (in) = 100 + i;
    GST_BUFFER_OFFSET_END (in) = 101 + i;
    GST_BUFFER_FLAG_SET (in, i == 0 ? GST_BUFFER_FLAG_DISCONT :
        GST_BUFFER_FLAG_DELTA_UNIT);
    if (i % 3 == 0)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_MARKER);
    fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  }
  /* At most the last frame is still in flight; EOS brings it out. */
  fail_unless (gst_harness_buffers_received (f.h) >= n - 1);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (f.h), n);

  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (f.h);
    GstBufferFlags want = (i == 0 ? GST_BUFFER_FLAG_DISCONT :
        GST_BUFFER_FLAG_DELTA_UNIT) | (i % 3 == 0 ? GST_BUFFER_FLAG_MARKER : 0);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        i * 33 * GST_MSECOND + 7);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (out), i * 33 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), 33 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), 100 + i);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (out), 101 + i);
    fail_unless_equals_int (GST_BUFFER_FLAGS (out) & (GST_BUFFER_FLAG_DISCONT
            | GST_BUFFER_FLAG_DELTA_UNIT | GST_BUFFER_FLAG_MARKER), want);
    fail_unless_equals_uint64 (gst_buffer_get_size (out), 32 * 24);
    ce_test_assert_output_equals (out, "GRAY8", expected[i], 32, 24);
    gst_buffer_unref (out);
    g_free (expected[i]);
  }
  fail_unless (gst_harness_try_pull (f.h) == NULL);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), n);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_n_buffers_in_n_out_with_metadata)
{
  check_n_buffers_in_n_out ("30/1");
}

GST_END_TEST;

GST_START_TEST (test_n_buffers_in_n_out_without_framerate)
{
  check_n_buffers_in_n_out ("0/1");
}

GST_END_TEST;

GST_START_TEST (test_latency_is_one_frame_when_pipelined)
{
  CeTestFixture f;

  /* 25/1: one frame is 40 ms, on CUDA only. */
  ce_test_fixture_start_with_rate (&f, new_edge (NULL), "GRAY8", 64, 48,
      "25/1");
  fail_unless_equals_uint64 (gst_harness_query_latency (f.h),
      ce_test_runs_on_cuda (f.element) ? 40 * GST_MSECOND : 0);
  ce_test_fixture_stop (&f);

  /* Without a frame rate nothing is held back. */
  ce_test_fixture_start_with_rate (&f, new_edge (NULL), "GRAY8", 64, 48, "0/1");
  fail_unless_equals_uint64 (gst_harness_query_latency (f.h), 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_flush_mid_stream_then_more_buffers)
{
  CeTestFixture f;
  GstVideoInfo info;
  GstSegment segment;
  GstBuffer *out;
  guint8 *expected[3];
  ce_edge_params p;
  guint i, before = 0;

  default_params (&p);
  ce_test_fixture_start (&f, new_edge (NULL), "RGBx", 40, 30);
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (f.h,
            ce_test_random_frame ("RGBx", 40, 30, 10 + i, &info)),
        GST_FLOW_OK);
  while ((out = gst_harness_try_pull (f.h)) != NULL) {
    before++;
    gst_buffer_unref (out);
  }
  fail_unless (before >= 2, "only %u outputs before the flush", before);

  /* A frame still in flight is dropped, not pushed after the flush. */
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_segment (&segment)));

  for (i = 0; i < 3; i++) {
    GstBuffer *in = ce_test_random_frame ("RGBx", 40, 30, 20 + i, &info);

    expected[i] = reference_output (in, &info, "RGBx", &p);
    fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  for (i = 0; i < 3; i++) {
    out = gst_harness_pull (f.h);
    fail_unless (out != NULL);
    ce_test_assert_output_equals (out, "GRAY8", expected[i], 40, 30);
    gst_buffer_unref (out);
    g_free (expected[i]);
  }
  fail_unless (gst_harness_try_pull (f.h) == NULL);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_eos_passes)
{
  CeTestFixture f;
  GstEvent *ev;
  gboolean seen = FALSE;
  ce_edge_params p;

  default_params (&p);
  ce_test_fixture_start (&f, new_edge (NULL), "GRAY8", 16, 16);
  push_and_compare (&f, "GRAY8", 16, 16, 3, &p);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  while ((ev = gst_harness_try_pull_event (f.h))) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      seen = TRUE;
    gst_event_unref (ev);
  }
  fail_unless (seen);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_output_caps_are_gray8_same_size_rate_par)
{
  CeTestFixture f;
  GstCaps *caps, *want;
  GstVideoInfo info;

  ce_test_fixture_start (&f, new_edge (NULL), "NV12", 64, 36);
  gst_harness_set_src_caps_str (f.h, "video/x-raw,format=NV12,width=64,"
      "height=36,framerate=25/2,pixel-aspect-ratio=4/3");
  gst_buffer_unref (ce_test_push_and_pull (f.h,
          ce_test_random_frame ("NV12", 64, 36, 1, &info)));
  caps = gst_pad_get_current_caps (f.h->sinkpad);
  want = gst_caps_from_string ("video/x-raw,format=GRAY8,width=64,height=36,"
      "framerate=25/2,pixel-aspect-ratio=4/3");
  fail_unless (gst_caps_is_subset (caps, want), "got %" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_caps_unref (want);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_to_another_size_and_format)
{
  CeTestFixture f;
  ce_edge_params p;
  GstCaps *caps;
  gchar *str;
  gint w = 0;

  default_params (&p);
  ce_test_fixture_start (&f, new_edge (NULL), "I420", 64, 48);
  push_and_compare (&f, "I420", 64, 48, 1, &p);

  str = ce_test_caps_string ("BGR", 33, 17);
  gst_harness_set_src_caps_str (f.h, str);
  g_free (str);
  push_and_compare (&f, "BGR", 33, 17, 2, &p);
  caps = gst_pad_get_current_caps (f.h->sinkpad);
  gst_structure_get_int (gst_caps_get_structure (caps, 0), "width", &w);
  fail_unless_equals_int (w, 33);
  gst_caps_unref (caps);

  str = ce_test_caps_string ("UYVY", 130, 90);
  gst_harness_set_src_caps_str (f.h, str);
  g_free (str);
  push_and_compare (&f, "UYVY", 130, 90, 3, &p);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_too_small_buffer_is_an_error)
{
  CeTestFixture f;
  GstMessage *msg;
  GError *err = NULL;

  ce_test_fixture_start (&f, new_edge (NULL), "RGB", 64, 48);
  fail_unless_equals_int (gst_harness_push (f.h,
          gst_buffer_new_allocate (NULL, 64 * 48, NULL)), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_FORMAT), "got %s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_video_meta_outside_buffer_is_an_error)
{
  CeTestFixture f;
  GstBuffer *in;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 100, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, };
  GstMessage *msg;

  ce_test_fixture_start (&f, new_edge (NULL), "GRAY8", 64, 48);
  in = gst_buffer_new_allocate (NULL, 64 * 48, NULL);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 64, 48, 1, offset, stride);
  fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* Plane 0 fits, but the meta puts the chroma planes past the end. */
GST_START_TEST (test_video_meta_chroma_outside_buffer_is_an_error)
{
  CeTestFixture f;
  GstBuffer *in;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 64 * 48 * 4, 64 * 48 * 5, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, 32, 32, };
  GstMessage *msg;

  ce_test_fixture_start (&f, new_edge (NULL), "I420", 64, 48);
  in = gst_buffer_new_allocate (NULL, 64 * 48 * 3 / 2, NULL);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 64, 48, 3, offset, stride);
  fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- backends ---- */

GST_START_TEST (test_backend_cuda_errors_without_gpu_or_works_with_one)
{
  GstElement *e = new_edge ("cuda");

  if (!ce_test_have_cuda_device ()) {
    GstBus *bus = gst_bus_new ();
    GstMessage *msg;
    GError *err = NULL;

    gst_element_set_bus (e, bus);
    fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
        GST_STATE_CHANGE_FAILURE);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "no error message for backend=cuda");
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_NOT_FOUND));
    fail_unless (strstr (err->message, "CUDA") != NULL, "%s", err->message);
    g_error_free (err);
    gst_message_unref (msg);
    gst_element_set_state (e, GST_STATE_NULL);
    gst_element_set_bus (e, NULL);
    gst_object_unref (bus);
    gst_object_unref (e);
  } else {
    CeTestFixture f;
    ce_edge_params p;
    GstStructure *s;

    default_params (&p);
    ce_test_fixture_start (&f, e, "NV12", 641, 481);
    push_and_compare (&f, "NV12", 641, 481, 8, &p);
    s = ce_test_get_stats (f.element);
    fail_unless_equals_string (gst_structure_get_string (s, "backend"),
        "cuda");
    gst_structure_free (s);
    ce_test_fixture_stop (&f);
  }
}

GST_END_TEST;

GST_START_TEST (test_backend_auto_picks_cuda_or_falls_back_to_cpu)
{
  CeTestFixture f;
  ce_edge_params p;
  GstStructure *s;

  default_params (&p);
  ce_test_fixture_start (&f, new_edge ("auto"), "GRAY8", 40, 30);
  push_and_compare (&f, "GRAY8", 40, 30, 4, &p);
  s = ce_test_get_stats (f.element);
  fail_unless_equals_string (gst_structure_get_string (s, "backend"),
      ce_test_have_cuda_device ()? "cuda" : "cpu");
  gst_structure_free (s);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_backend_is_ready_only)
{
  CeTestFixture f;
  gint backend = -1;

  ce_test_fixture_start (&f, new_edge ("cpu"), "GRAY8", 8, 8);
  /* Ignored while PLAYING (with a log warning). */
  gst_util_set_object_arg (G_OBJECT (f.element), "backend", "cuda");
  g_object_get (f.element, "backend", &backend, NULL);
  fail_unless_equals_int (backend, 2 /* cpu */ );
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- check ---- */

GST_START_TEST (test_check_mismatch_posts_message_and_warning)
{
  CeTestFixture f;
  GstElement *e = new_edge (NULL);
  GstFlowReturn ret;
  GstMessage *msg;
  const GstStructure *s;
  guint64 frame = 0, mismatches = 0;
  gint x = -1, y = -1, expected = -1, got = -1;
  GstVideoInfo info;
  GstBuffer *frame1;
  guint8 *ref;
  ce_edge_params p;

  g_setenv (CORRUPT_ENV, "1", TRUE);
  g_object_set (e, "check", TRUE, NULL);
  ce_test_fixture_start (&f, e, "RGBA", 48, 32);
  g_unsetenv (CORRUPT_ENV);     /* read at start */

  ce_test_push_frames (&f, "RGBA", 48, 32, 3, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 3);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no cudaedge-check message");
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cudaedge-check"));
  fail_unless (gst_structure_get (s, "frame", G_TYPE_UINT64, &frame,
          "mismatches", G_TYPE_UINT64, &mismatches, "x", G_TYPE_INT, &x,
          "y", G_TYPE_INT, &y, "expected", G_TYPE_INT, &expected,
          "got", G_TYPE_INT, &got, NULL));
  fail_unless_equals_uint64 (frame, 1);
  fail_unless_equals_uint64 (mismatches, 1);
  fail_unless_equals_int (x, 0);
  fail_unless_equals_int (y, 0);

  frame1 = ce_test_random_frame ("RGBA", 48, 32, 41, &info);
  default_params (&p);
  ref = reference_output (frame1, &info, "RGBA", &p);
  fail_unless_equals_int (expected, ref[0]);
  fail_unless_equals_int (got, ref[0] ^ 0xff);
  g_free (ref);
  gst_buffer_unref (frame1);
  gst_message_unref (msg);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning");
  gst_message_unref (msg);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_if (msg != NULL, "check-fail=warn posted an error");

  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames-checked"),
      3);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "mismatches"), 1);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_check_fail_error_posts_error)
{
  CeTestFixture f;
  GstElement *e = new_edge (NULL);
  GstFlowReturn ret;
  GstMessage *msg;

  g_setenv (CORRUPT_ENV, "2", TRUE);
  gst_util_set_object_arg (G_OBJECT (e), "check-fail", "error");
  g_object_set (e, "check", TRUE, NULL);
  ce_test_fixture_start (&f, e, "GRAY8", 20, 20);
  g_unsetenv (CORRUPT_ENV);

  ce_test_push_frames (&f, "GRAY8", 20, 20, 4, &ret);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 2);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  fail_unless (gst_message_has_name (msg, "cudaedge-check"));
  gst_message_unref (msg);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error");
  gst_message_unref (msg);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_check_interval_counts_checked_frames)
{
  CeTestFixture f;
  GstElement *e = new_edge (NULL);
  GstFlowReturn ret;
  gboolean cpu = g_str_equal (ce_test_backend (), "cpu")
      || (g_str_equal (ce_test_backend (), "auto")
      && !ce_test_have_cuda_device ());

  /* On the CPU nothing independent is compared, so nothing counts as
   * checked; the GPU checks frames 0, 3, 6. */
  g_object_set (e, "check", TRUE, "check-interval", 3, NULL);
  ce_test_fixture_start (&f, e, "GRAY8", 24, 24);
  ce_test_push_frames (&f, "GRAY8", 24, 24, 7, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 7);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames-checked"),
      cpu ? 0 : 3);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "mismatches"), 0);
  fail_if (gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT |
          GST_MESSAGE_WARNING | GST_MESSAGE_ERROR) != NULL,
      "unexpected check message");
  ce_test_fixture_stop (&f);

  /* With the test hook set (to a frame never reached), the CPU compares
   * against a second reference too. */
  g_setenv (CORRUPT_ENV, "1000", TRUE);
  e = new_edge (NULL);
  g_object_set (e, "check", TRUE, "check-interval", 3, NULL);
  ce_test_fixture_start (&f, e, "GRAY8", 24, 24);
  g_unsetenv (CORRUPT_ENV);
  ce_test_push_frames (&f, "GRAY8", 24, 24, 7, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames-checked"),
      3);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "mismatches"), 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- GPU failure mid-stream (CUDA only) ---- */

/* Frame 3 of 8 fails on the GPU (the core's test hook), at @rate. */
static void
check_cuda_failure_at_frame_3 (const gchar * backend, const gchar * rate)
{
  CeTestFixture f;
  GstElement *e = new_edge (backend);
  GstVideoInfo info;
  GstMessage *msg;
  GstFlowReturn ret = GST_FLOW_OK;
  GstStructure *s;
  guint8 *expected[8];
  ce_edge_params p;
  guint i;

  default_params (&p);
  g_setenv (CUDA_FAIL_ENV, "3", TRUE);
  ce_test_fixture_start_with_rate (&f, e, "NV12", 96, 64, rate);
  g_unsetenv (CUDA_FAIL_ENV);   /* read at start */
  fail_unless (ce_test_runs_on_cuda (f.element));

  for (i = 0; i < 8 && ret == GST_FLOW_OK; i++) {
    GstBuffer *in = ce_test_random_frame ("NV12", 96, 64, 60 + i, &info);

    expected[i] = reference_output (in, &info, "NV12", &p);
    GST_BUFFER_PTS (in) = i * GST_SECOND / 25;
    ret = gst_harness_push (f.h, in);
  }

  if (g_str_equal (backend, "cuda")) {
    /* No fallback: the stream fails at frame 3. */
    fail_unless_equals_int (ret, GST_FLOW_ERROR);
    msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "backend=cuda posted no error");
    gst_message_unref (msg);
    fail_unless (gst_harness_buffers_received (f.h) <= 3);
    while (i-- > 0)
      g_free (expected[i]);
    ce_test_fixture_stop (&f);
    return;
  }

  /* backend=auto: a warning, then the CPU; every frame out, in order. */
  fail_unless_equals_int (ret, GST_FLOW_OK);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 8);
  for (i = 0; i < 8; i++) {
    GstBuffer *out = gst_harness_pull (f.h);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 25);
    ce_test_assert_output_equals (out, "GRAY8", expected[i], 96, 64);
    gst_buffer_unref (out);
    g_free (expected[i]);
  }
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for the fallback");
  gst_message_unref (msg);
  fail_if (gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR) != NULL);

  s = ce_test_get_stats (f.element);
  fail_unless_equals_string (gst_structure_get_string (s, "backend"), "cpu");
  gst_structure_free (s);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 8);
  /* No frame in flight any more. */
  fail_unless_equals_uint64 (gst_harness_query_latency (f.h), 0);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_cuda_failure_falls_back_to_cpu_without_losing_frames)
{
  if (ce_test_skip_without_cuda ())
    return;
  check_cuda_failure_at_frame_3 ("auto", "25/1");
  check_cuda_failure_at_frame_3 ("auto", "0/1");
}

GST_END_TEST;

GST_START_TEST (test_cuda_failure_with_backend_cuda_is_an_error)
{
  if (ce_test_skip_without_cuda ())
    return;
  check_cuda_failure_at_frame_3 ("cuda", "25/1");
  check_cuda_failure_at_frame_3 ("cuda", "0/1");
}

GST_END_TEST;

/* ---- stats and introspection ---- */

GST_START_TEST (test_stats_fields_present_and_counting)
{
  CeTestFixture f;
  GstStructure *s;
  GstFlowReturn ret;
  const gchar *backend, *device;
  gdouble up = -1, kern = -1, down = -1;
  guint64 frames = 0;

  ce_test_fixture_start (&f, new_edge (NULL), "YUY2", 64, 64);
  ce_test_push_frames (&f, "YUY2", 64, 64, 5, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);

  s = ce_test_get_stats (f.element);
  fail_unless (gst_structure_get (s, "frames", G_TYPE_UINT64, &frames,
          "upload-us", G_TYPE_DOUBLE, &up, "kernel-us", G_TYPE_DOUBLE, &kern,
          "download-us", G_TYPE_DOUBLE, &down, NULL));
  fail_unless (gst_structure_has_field_typed (s, "frames-checked",
          G_TYPE_UINT64));
  fail_unless (gst_structure_has_field_typed (s, "mismatches",
          G_TYPE_UINT64));
  fail_unless_equals_uint64 (frames, 5);
  fail_unless (up >= 0 && kern >= 0 && down >= 0);
  backend = gst_structure_get_string (s, "backend");
  device = gst_structure_get_string (s, "device");
  fail_unless (backend != NULL && device != NULL);
  if (g_str_equal (backend, "cpu")) {
    fail_unless_equals_string (device, "cpu");
    fail_if (g_str_equal (ce_test_backend (), "cuda"));
  } else {
    fail_unless_equals_string (backend, "cuda");
    fail_unless (*device != '\0');
  }
  gst_structure_free (s);

  ce_test_push_frames (&f, "YUY2", 64, 64, 2, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 7);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

static GParamSpec *
find_prop (GObject * obj, const gchar * name)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (obj),
      name);

  fail_unless (pspec != NULL, "no property %s", name);
  fail_unless (pspec->flags & G_PARAM_READABLE);
  return pspec;
}

static void
assert_enum (GObject * obj, const gchar * name, const gchar * def,
    const gchar * const *nicks, GParamFlags mutable)
{
  GParamSpec *pspec = find_prop (obj, name);
  GParamSpecEnum *e = G_PARAM_SPEC_ENUM (pspec);
  guint i;

  fail_unless (pspec->flags & mutable);
  fail_unless_equals_string (g_enum_get_value (e->enum_class,
          e->default_value)->value_nick, def);
  for (i = 0; nicks[i]; i++)
    fail_unless (g_enum_get_value_by_nick (e->enum_class, nicks[i]) != NULL,
        "%s lacks %s", name, nicks[i]);
  fail_unless_equals_int (e->enum_class->n_values, i);
}

GST_START_TEST (test_property_introspection)
{
  GstElement *e = gst_element_factory_make ("cudaedge", NULL);
  GObject *o = G_OBJECT (e);
  GParamSpec *pspec;
  static const gchar *const borders[] = { "replicate", "zero", "reflect",
    NULL
  };
  static const gchar *const norms[] = { "l2", "l1", NULL };
  static const gchar *const outputs[] = { "edges", "magnitude", NULL };
  static const gchar *const backends[] = { "auto", "cuda", "cpu", NULL };
  static const gchar *const fails[] = { "warn", "error", NULL };

  pspec = find_prop (o, "threshold");
  fail_unless (G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->minimum, 0.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->maximum, 2048.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->default_value,
      128.0);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  pspec = find_prop (o, "blur");
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == TRUE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  pspec = find_prop (o, "check");
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  pspec = find_prop (o, "check-interval");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->default_value, 1);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  pspec = find_prop (o, "cuda-device-id");
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, -1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->default_value, -1);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY);

  assert_enum (o, "border-mode", "replicate", borders,
      GST_PARAM_MUTABLE_PLAYING);
  assert_enum (o, "norm", "l2", norms, GST_PARAM_MUTABLE_PLAYING);
  assert_enum (o, "output", "edges", outputs, GST_PARAM_MUTABLE_PLAYING);
  assert_enum (o, "check-fail", "warn", fails, GST_PARAM_MUTABLE_PLAYING);
  assert_enum (o, "backend", "auto", backends, GST_PARAM_MUTABLE_READY);

  pspec = find_prop (o, "stats");
  fail_unless (G_PARAM_SPEC_VALUE_TYPE (pspec) == GST_TYPE_STRUCTURE);
  fail_if (pspec->flags & G_PARAM_WRITABLE);

  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
cudaedge_suite (void)
{
  Suite *s = suite_create ("cudaedge");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_every_format_matches_reference_1x1);
  tcase_add_test (tc, test_every_format_matches_reference_611x480_padded_stride);
  tcase_add_test (tc, test_every_format_matches_reference_641x481_odd_size);
  tcase_add_test (tc, test_some_formats_match_reference_1920x1080);
  tcase_add_test (tc, test_thin_frames_match_reference);
  tcase_add_test (tc, test_custom_strides_and_offsets_from_video_meta);
  tcase_add_test (tc, test_threshold_property);
  tcase_add_test (tc, test_blur_property);
  tcase_add_test (tc, test_border_mode_property);
  tcase_add_test (tc, test_norm_property);
  tcase_add_test (tc, test_output_property);
  tcase_add_test (tc, test_property_change_while_playing_applies_at_next_frame);
  tcase_add_test (tc, test_n_buffers_in_n_out_with_metadata);
  tcase_add_test (tc, test_n_buffers_in_n_out_without_framerate);
  tcase_add_test (tc, test_latency_is_one_frame_when_pipelined);
  tcase_add_test (tc, test_flush_mid_stream_then_more_buffers);
  tcase_add_test (tc, test_eos_passes);
  tcase_add_test (tc, test_output_caps_are_gray8_same_size_rate_par);
  tcase_add_test (tc, test_renegotiation_to_another_size_and_format);
  tcase_add_test (tc, test_too_small_buffer_is_an_error);
  tcase_add_test (tc, test_video_meta_outside_buffer_is_an_error);
  tcase_add_test (tc, test_video_meta_chroma_outside_buffer_is_an_error);
  tcase_add_test (tc, test_backend_cuda_errors_without_gpu_or_works_with_one);
  tcase_add_test (tc, test_backend_auto_picks_cuda_or_falls_back_to_cpu);
  tcase_add_test (tc, test_backend_is_ready_only);
  tcase_add_test (tc, test_check_mismatch_posts_message_and_warning);
  tcase_add_test (tc, test_check_fail_error_posts_error);
  tcase_add_test (tc, test_check_interval_counts_checked_frames);
  tcase_add_test (tc, test_cuda_failure_falls_back_to_cpu_without_losing_frames);
  tcase_add_test (tc, test_cuda_failure_with_backend_cuda_is_an_error);
  tcase_add_test (tc, test_stats_fields_present_and_counting);
  tcase_add_test (tc, test_property_introspection);
  return s;
}

int
main (int argc, char **argv)
{
  return ce_test_main (argc, argv, "cudaedge", cudaedge_suite, __FILE__);
}
