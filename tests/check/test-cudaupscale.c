/* gst-cudaedge: GstHarness tests of the cudaupscale element
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
 * Small frames are compared with answers worked out by hand from
 * docs/numerics.md; everything else with the core's CPU reference
 * (ce_ref_upscale2x) by memcmp.  The element runs on the backend named by
 * the environment variable CUDAEDGE_TEST_BACKEND ("cpu" by default; the GPU
 * machine runs "cuda").  With "cuda" and no usable device the binary exits
 * 77 (SKIP).
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

#define CORRUPT_ENV "CUDAUPSCALE_TEST_CORRUPT_FRAME"
#define CUDA_FAIL_ENV "CUDAUPSCALE_TEST_CUDA_FAIL_FRAME"

typedef struct
{
  const gchar *name;
  gint bpp;
} TestFormat;

static const TestFormat all_formats[] = {
  {"GRAY8", 1}, {"RGBA", 4}, {"BGRA", 4}, {"ARGB", 4}, {"ABGR", 4},
  {"RGBx", 4}, {"BGRx", 4}, {"xRGB", 4}, {"xBGR", 4},
};

static gint
format_bpp (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    if (g_str_equal (all_formats[i].name, name))
      return all_formats[i].bpp;
  g_assert_not_reached ();
  return 0;
}

/* ---- the element ---- */

/* On @backend, or on CUDAEDGE_TEST_BACKEND's when NULL. */
static GstElement *
new_upscale (const gchar * backend)
{
  return ce_test_new_element ("cudaupscale", backend);
}

/* ---- frames ---- */

/* A frame from packed bytes (W * bpp per row), in the default layout. */
static GstBuffer *
frame_from_bytes (const gchar * format, gint width, gint height,
    const guint8 * bytes)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  gint bpp = format_bpp (format), y;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (buf, 0, 0xAA, GST_VIDEO_INFO_SIZE (&info));
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (y = 0; y < height; y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
        bytes + (gsize) y * width * bpp, (gsize) width * bpp);
  gst_video_frame_unmap (&frame);
  return buf;
}

/* The reference output for @buf (plane 0 located through GstVideoMeta if
 * present, else @info), tightly packed: 2W * bpp bytes by 2H rows. */
static guint8 *
reference_output (GstBuffer * buf, GstVideoInfo * info)
{
  GstVideoFrame frame;
  guint8 *out;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint bpp = GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY8 ? 1 : 4;
  ce_status status;

  fail_unless (gst_video_frame_map (&frame, info, buf, GST_MAP_READ));
  out = g_malloc ((gsize) 4 * w * h * bpp);
  status = ce_ref_upscale2x (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), w, h, bpp, out,
      (gsize) 2 * w * bpp);
  fail_unless_equals_int (status, CE_STATUS_OK);
  gst_video_frame_unmap (&frame);
  return out;
}

static void
push_and_compare (CeTestFixture * f, const gchar * format, gint width,
    gint height, guint32 seed)
{
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint8 *expected;

  in = ce_test_random_frame (format, width, height, seed, &info);
  expected = reference_output (in, &info);
  out = ce_test_push_and_pull (f->h, in);
  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, format, expected, 2 * width, 2 * height);
  gst_buffer_unref (out);
  g_free (expected);
}

static void
check_format_size (const gchar * format, gint width, gint height)
{
  CeTestFixture f;

  ce_test_fixture_start (&f, new_upscale (NULL), format, width, height);
  push_and_compare (&f, format, width, height, 4321 + width + height);
  ce_test_fixture_stop (&f);
}

/* Pushes a frame of packed @in bytes and compares with @expected. */
static void
check_known_answer (const gchar * format, gint width, gint height,
    const guint8 * in, const guint8 * expected)
{
  CeTestFixture f;
  GstBuffer *out;

  ce_test_fixture_start (&f, new_upscale (NULL), format, width, height);
  out = ce_test_push_and_pull (f.h, frame_from_bytes (format, width,
          height, in));
  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, format, expected, 2 * width, 2 * height);
  gst_buffer_unref (out);
  ce_test_fixture_stop (&f);
}

/* ---- known answers (docs/numerics.md section 2, worked by hand) ----
 *
 * Along an axis of n input pixels, output index i samples x = i/2 - 1/4
 * clamped to [0, n - 1].  For n = 1 every sample is pixel 0.  For n = 2
 * the samples are 0, 0.25, 0.75, 1; for n = 3 they are 0, 0.25, 0.75,
 * 1.25, 1.75, 2.  Each output is (sum p_k w_k + 128) >> 8 with weights
 * (1 - fx)(1 - fy) 256, fx (1 - fy) 256, (1 - fx) fy 256, fx fy 256. */

GST_START_TEST (test_known_answer_1x1_all_outputs_equal_the_input)
{
  static const guint8 gray_in[] = { 77 };
  static const guint8 gray_out[] = { 77, 77, 77, 77 };
  static const guint8 rgba_in[] = { 1, 128, 254, 255 };
  static const guint8 rgba_out[] = {
    1, 128, 254, 255, 1, 128, 254, 255,
    1, 128, 254, 255, 1, 128, 254, 255,
  };

  check_known_answer ("GRAY8", 1, 1, gray_in, gray_out);
  check_known_answer ("RGBA", 1, 1, rgba_in, rgba_out);
  check_known_answer ("xBGR", 1, 1, rgba_in, rgba_out);
}

GST_END_TEST;

GST_START_TEST (test_known_answer_2x2)
{
  /* a b / c d = 10 50 / 90 250.  Corners are the inputs; for example
   * (1, 0): fx = 1/4, fy = 0: (192 a + 64 b + 128) >> 8 = 20;
   * (1, 1): fx = fy = 1/4: (144 a + 48 b + 48 c + 16 d + 128) >> 8 = 48;
   * (2, 1): fx = 3/4, fy = 1/4: (48 a + 144 b + 16 c + 48 d + 128) >> 8 = 83;
   * (1, 2): fx = 1/4, fy = 3/4: (48 a + 16 b + 144 c + 48 d + 128) >> 8 = 103;
   * (2, 2): fx = fy = 3/4: (16 a + 48 b + 48 c + 144 d + 128) >> 8 = 168;
   * (0, 1): (192 a + 64 c + 128) >> 8 = 30; (3, 1): (192 b + 64 d) -> 100. */
  static const guint8 in[] = { 10, 50, 90, 250 };
  static const guint8 out[] = {
    10, 20, 40, 50,
    30, 48, 83, 100,
    70, 103, 168, 200,
    90, 130, 210, 250,
  };

  check_known_answer ("GRAY8", 2, 2, in, out);
}

GST_END_TEST;

GST_START_TEST (test_known_answer_2x2_every_channel_filtered_alike)
{
  /* Channel 0 as in the GRAY8 case; channel 1 a diagonal 255 0 / 0 255;
   * channel 2 small values where rounding shows; channel 3 (alpha or
   * padding) filtered like the others. */
  static const guint8 in[] = {
    10, 255, 1, 200, 50, 0, 2, 201,
    90, 0, 3, 17, 250, 255, 4, 99,
  };
  static const guint8 c0[16] = { 10, 20, 40, 50, 30, 48, 83, 100,
    70, 103, 168, 200, 90, 130, 210, 250
  };
  static const guint8 c1[16] = { 255, 191, 64, 0, 191, 159, 96, 64,
    64, 96, 159, 191, 0, 64, 191, 255
  };
  static const guint8 c2[16] = { 1, 1, 2, 2, 2, 2, 2, 3,
    3, 3, 3, 4, 3, 3, 4, 4
  };
  static const guint8 c3[16] = { 200, 200, 201, 201, 154, 160, 170, 176,
    63, 78, 109, 125, 17, 38, 79, 99
  };
  guint8 out[64];
  guint i, f;

  for (i = 0; i < 16; i++) {
    out[4 * i + 0] = c0[i];
    out[4 * i + 1] = c1[i];
    out[4 * i + 2] = c2[i];
    out[4 * i + 3] = c3[i];
  }
  for (f = 1; f < G_N_ELEMENTS (all_formats); f++)
    check_known_answer (all_formats[f].name, 2, 2, in, out);
}

GST_END_TEST;

GST_START_TEST (test_known_answer_3x2)
{
  /* 0 100 255 / 40 7 200.  Row 0 (fy = 0): (1, 0) = (192*0 + 64*100 +
   * 128) >> 8 = 25; (3, 0): x = 1.25: (192*100 + 64*255 + 128) >> 8 = 139;
   * (4, 0): x = 1.75: (64*100 + 192*255 + 128) >> 8 = 216.
   * (1, 1): (144*0 + 48*100 + 48*40 + 16*7 + 128) >> 8 = 27;
   * (3, 1): (144*100 + 48*255 + 48*7 + 16*200 + 128) >> 8 = 118. */
  static const guint8 in[] = { 0, 100, 255, 40, 7, 200 };
  static const guint8 out[] = {
    0, 25, 75, 139, 216, 255,
    10, 27, 60, 118, 200, 241,
    30, 30, 30, 76, 168, 214,
    40, 32, 15, 55, 152, 200,
  };

  check_known_answer ("GRAY8", 3, 2, in, out);
}

GST_END_TEST;

/* ---- output equals the reference ---- */

GST_START_TEST (test_every_format_matches_reference_small_odd_sizes)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++) {
    check_format_size (all_formats[i].name, 1, 1);
    check_format_size (all_formats[i].name, 3, 2);
    check_format_size (all_formats[i].name, 1, 7);
    check_format_size (all_formats[i].name, 9, 1);
  }
}

GST_END_TEST;

GST_START_TEST (test_every_format_matches_reference_641x481)
{
  guint i;

  /* GRAY8 641 wide: input rows padded to 644, output 1282 to 1284. */
  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 641, 481);
}

GST_END_TEST;

GST_START_TEST (test_every_format_matches_reference_613x611)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 613, 611);
}

GST_END_TEST;

GST_START_TEST (test_some_formats_match_reference_1920x1080)
{
  check_format_size ("GRAY8", 1920, 1080);
  check_format_size ("RGBA", 1920, 1080);
}

GST_END_TEST;

/* Plane 0 at an offset with a padded stride, described only by the
 * buffer's GstVideoMeta. */
static void
check_custom_layout (const gchar * format, gint width, gint height,
    gint extra_stride)
{
  CeTestFixture f;
  GstVideoInfo info;
  GstBuffer *in, *out;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 160, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (99 + width);
  gsize i, size;
  guint8 *expected;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  stride[0] = width * format_bpp (format) + extra_stride;
  size = offset[0] + (gsize) stride[0] * height + 11;

  in = gst_buffer_new_allocate (NULL, size, NULL);
  gst_buffer_map (in, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (in, &map);
  g_rand_free (rand);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&info), width, height, 1, offset, stride);

  expected = reference_output (in, &info);

  ce_test_fixture_start (&f, new_upscale (NULL), format, width, height);
  out = ce_test_push_and_pull (f.h, in);
  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, format, expected, 2 * width, 2 * height);
  gst_buffer_unref (out);
  g_free (expected);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_odd_width_with_padded_stride_from_video_meta)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_custom_layout (all_formats[i].name, 101, 37, 37);
  check_custom_layout ("GRAY8", 1, 1, 1);
  check_custom_layout ("RGBA", 3, 2, 5);
  check_custom_layout ("BGRx", 641, 481, 128);
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

  ce_test_fixture_start_with_rate (&f, new_upscale (NULL), "BGRA", 32, 24,
      rate);
  for (i = 0; i < n; i++) {
    GstBuffer *in = ce_test_random_frame ("BGRA", 32, 24, i, &info);
    expected[i] = reference_output (in, &info);
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
    fail_unless (gst_buffer_get_size (out) >= 64 * 48 * 4);
    ce_test_assert_output_equals (out, "BGRA", expected[i], 64, 48);
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
  ce_test_fixture_start_with_rate (&f, new_upscale (NULL), "GRAY8", 64, 48,
      "25/1");
  fail_unless_equals_uint64 (gst_harness_query_latency (f.h),
      ce_test_runs_on_cuda (f.element) ? 40 * GST_MSECOND : 0);
  ce_test_fixture_stop (&f);

  /* Without a frame rate nothing is held back. */
  ce_test_fixture_start_with_rate (&f, new_upscale (NULL), "GRAY8", 64, 48,
      "0/1");
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
  guint i, before = 0;

  ce_test_fixture_start (&f, new_upscale (NULL), "RGBx", 40, 30);
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

    expected[i] = reference_output (in, &info);
    fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  for (i = 0; i < 3; i++) {
    out = gst_harness_pull (f.h);
    fail_unless (out != NULL);
    ce_test_assert_output_equals (out, "RGBx", expected[i], 80, 60);
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

  ce_test_fixture_start (&f, new_upscale (NULL), "GRAY8", 16, 16);
  push_and_compare (&f, "GRAY8", 16, 16, 3);
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

static void
assert_caps_equal (GstCaps * caps, GstCaps * want)
{
  gchar *got = gst_caps_to_string (caps), *exp = gst_caps_to_string (want);

  fail_unless (gst_caps_is_equal (caps, want), "got %s, expected %s", got,
      exp);
  g_free (got);
  g_free (exp);
}

static void
assert_caps_subset (GstCaps * caps, GstCaps * want)
{
  gchar *got = gst_caps_to_string (caps), *exp = gst_caps_to_string (want);

  fail_unless (gst_caps_is_subset (caps, want), "got %s, expected %s", got,
      exp);
  g_free (got);
  g_free (exp);
}

static void
assert_caps_empty (GstCaps * caps)
{
  gchar *got = gst_caps_to_string (caps);

  fail_unless (gst_caps_is_empty (caps), "got %s, expected EMPTY", got);
  g_free (got);
}

GST_START_TEST (test_output_caps_double_size_same_format_rate_par)
{
  CeTestFixture f;
  GstCaps *caps, *want;
  GstVideoInfo info;

  ce_test_fixture_start (&f, new_upscale (NULL), "ARGB", 64, 36);
  gst_harness_set_src_caps_str (f.h, "video/x-raw,format=ARGB,width=64,"
      "height=36,framerate=25/2,pixel-aspect-ratio=4/3");
  gst_buffer_unref (ce_test_push_and_pull (f.h,
          ce_test_random_frame ("ARGB", 64, 36, 1, &info)));
  caps = gst_pad_get_current_caps (f.h->sinkpad);
  want = gst_caps_from_string ("video/x-raw,format=ARGB,width=128,height=72,"
      "framerate=25/2,pixel-aspect-ratio=4/3");
  assert_caps_subset (caps, want);
  gst_caps_unref (caps);
  gst_caps_unref (want);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* What the element accepts upstream when downstream takes only
 * @downstream. */
static GstCaps *
upstream_caps_for (const gchar * downstream)
{
  GstHarness *h = gst_harness_new_with_element (new_upscale ("cpu"), "sink",
      "src");
  GstCaps *caps;

  gst_object_unref (h->element);        /* the harness holds it */
  gst_harness_set_sink_caps_str (h, downstream);
  caps = gst_pad_peer_query_caps (h->srcpad, NULL);
  gst_harness_teardown (h);
  return caps;
}

GST_START_TEST (test_downstream_size_gives_half_size_upstream)
{
  GstCaps *caps, *want;

  caps = upstream_caps_for ("video/x-raw,format=RGBx,width=640,height=480,"
      "framerate=30/1,pixel-aspect-ratio=1/1");
  want = gst_caps_from_string ("video/x-raw,format=RGBx,width=320,"
      "height=240,framerate=30/1,pixel-aspect-ratio=1/1");
  assert_caps_equal (caps, want);
  gst_caps_unref (caps);
  gst_caps_unref (want);

  /* A range halves to the sizes whose double it holds. */
  caps = upstream_caps_for ("video/x-raw,format=GRAY8,width=[ 3, 11 ],"
      "height={ 5, 6, 8 }");
  want = gst_caps_from_string ("video/x-raw,format=GRAY8,width=[ 2, 5 ],"
      "height={ 3, 4 },framerate=[ 0/1, 2147483647/1 ]");
  assert_caps_equal (caps, want);
  gst_caps_unref (caps);
  gst_caps_unref (want);
}

GST_END_TEST;

GST_START_TEST (test_odd_downstream_size_has_no_upstream_caps)
{
  GstCaps *caps;

  caps = upstream_caps_for ("video/x-raw,format=RGBA,width=641,height=480");
  assert_caps_empty (caps);
  gst_caps_unref (caps);
  caps = upstream_caps_for ("video/x-raw,format=RGBA,width=640,height=481");
  assert_caps_empty (caps);
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_odd_downstream_size_fails_not_negotiated)
{
  CeTestFixture f;
  GstVideoInfo info;
  GstElement *e = new_upscale (NULL);

  f.element = e;
  f.bus = gst_bus_new ();
  gst_element_set_bus (e, f.bus);
  f.h = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_sink_caps_str (f.h,
      "video/x-raw,format=RGBA,width=641,height=480");
  gst_harness_set_src_caps_str (f.h,
      "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (f.h,
          ce_test_random_frame ("RGBA", 320, 240, 1, &info)),
      GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* What videotestsrc ! cudaupscale ! video/x-raw,width=640,height=480 does,
 * with the harness as source (the tests load no other plugin): ask
 * downstream what it takes, fixate, stream. */
GST_START_TEST (test_downstream_constrained_size_negotiates_upstream_size)
{
  CeTestFixture f;
  GstCaps *caps, *current;
  GstStructure *s;
  gint w = 0, h = 0;
  const gchar *format;
  gchar *str;

  f.element = new_upscale (NULL);
  f.bus = gst_bus_new ();
  gst_element_set_bus (f.element, f.bus);
  f.h = gst_harness_new_with_element (f.element, "sink", "src");
  gst_harness_set_sink_caps_str (f.h, "video/x-raw,width=640,height=480");

  caps = gst_caps_fixate (gst_pad_peer_query_caps (f.h->srcpad, NULL));
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, 320);
  fail_unless_equals_int (h, 240);
  format = gst_structure_get_string (s, "format");
  str = ce_test_caps_string (format, w, h);
  gst_harness_set_src_caps_str (f.h, str);
  push_and_compare (&f, format, w, h, 9);

  current = gst_pad_get_current_caps (f.h->sinkpad);
  s = gst_caps_get_structure (current, 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, 640);
  fail_unless_equals_int (h, 480);
  gst_caps_unref (current);
  gst_caps_unref (caps);
  g_free (str);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_to_another_size_and_format)
{
  CeTestFixture f;
  gchar *str;

  ce_test_fixture_start (&f, new_upscale (NULL), "GRAY8", 64, 48);
  push_and_compare (&f, "GRAY8", 64, 48, 1);

  str = ce_test_caps_string ("xRGB", 33, 17);
  gst_harness_set_src_caps_str (f.h, str);
  g_free (str);
  push_and_compare (&f, "xRGB", 33, 17, 2);

  str = ce_test_caps_string ("GRAY8", 5, 3);
  gst_harness_set_src_caps_str (f.h, str);
  g_free (str);
  push_and_compare (&f, "GRAY8", 5, 3, 3);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_too_small_buffer_is_an_error)
{
  CeTestFixture f;
  GstMessage *msg;
  GError *err = NULL;

  ce_test_fixture_start (&f, new_upscale (NULL), "RGBA", 64, 48);
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

/* ---- with cudaedge ---- */

static void
check_upscale_then_edge (const gchar * format, gint w, gint h)
{
  gchar *desc = g_strdup_printf ("cudaupscale backend=%s ! cudaedge "
      "backend=%s", ce_test_backend (), ce_test_backend ());
  GstHarness *h2 = gst_harness_new_parse (desc);
  gchar *caps = ce_test_caps_string (format, w, h);
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint8 *up, *expected;
  ce_edge_params params;
  ce_frame frame;
  ce_format ce = g_str_equal (format, "GRAY8") ? CE_FORMAT_GRAY8 :
      CE_FORMAT_RGBA;

  fail_unless (h2 != NULL);
  gst_harness_set_src_caps_str (h2, caps);
  in = ce_test_random_frame (format, w, h, 77, &info);
  up = reference_output (in, &info);
  expected = g_malloc ((gsize) 4 * w * h);
  ce_edge_params_init (&params);
  frame.data = up;
  frame.stride = (gsize) 2 * w * format_bpp (format);
  frame.width = 2 * w;
  frame.height = 2 * h;
  frame.format = ce;
  fail_unless_equals_int (ce_ref_edge_frame (&frame, &params, expected,
          2 * w), CE_STATUS_OK);
  if (ce == CE_FORMAT_GRAY8) {
    /* The chain the issue names, on the luma itself. */
    guint8 *edge = g_malloc ((gsize) 4 * w * h);
    fail_unless_equals_int (ce_ref_edge (up, 2 * w, 2 * w, 2 * h, &params,
            edge, 2 * w), CE_STATUS_OK);
    fail_unless (memcmp (edge, expected, (gsize) 4 * w * h) == 0);
    g_free (edge);
  }

  out = ce_test_push_and_pull (h2, in);
  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, "GRAY8", expected, 2 * w, 2 * h);
  gst_buffer_unref (out);
  g_free (up);
  g_free (expected);
  g_free (caps);
  g_free (desc);
  gst_harness_teardown (h2);
}

GST_START_TEST (test_upscale_then_edge_in_one_pipeline)
{
  check_upscale_then_edge ("GRAY8", 37, 23);
  check_upscale_then_edge ("RGBA", 41, 30);
}

GST_END_TEST;

/* ---- backends ---- */

GST_START_TEST (test_backend_cuda_errors_without_gpu_or_works_with_one)
{
  GstElement *e = new_upscale ("cuda");

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
    GstStructure *s;

    ce_test_fixture_start (&f, e, "RGBA", 641, 481);
    push_and_compare (&f, "RGBA", 641, 481, 8);
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
  GstStructure *s;

  ce_test_fixture_start (&f, new_upscale ("auto"), "GRAY8", 40, 30);
  push_and_compare (&f, "GRAY8", 40, 30, 4);
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

  ce_test_fixture_start (&f, new_upscale ("cpu"), "GRAY8", 8, 8);
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
  GstElement *e = new_upscale (NULL);
  GstFlowReturn ret;
  GstMessage *msg;
  const GstStructure *s;
  guint64 frame = 0, mismatches = 0;
  gint x = -1, y = -1, expected = -1, got = -1;
  GstVideoInfo info;
  GstBuffer *frame1;
  guint8 *ref;

  g_setenv (CORRUPT_ENV, "1", TRUE);
  g_object_set (e, "check", TRUE, NULL);
  ce_test_fixture_start (&f, e, "RGBA", 48, 32);
  g_unsetenv (CORRUPT_ENV);     /* read at start */

  ce_test_push_frames (&f, "RGBA", 48, 32, 3, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 3);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no cudaupscale-check message");
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, "cudaupscale-check"));
  fail_unless (gst_structure_get (s, "frame", G_TYPE_UINT64, &frame,
          "mismatches", G_TYPE_UINT64, &mismatches, "x", G_TYPE_INT, &x,
          "y", G_TYPE_INT, &y, "expected", G_TYPE_INT, &expected,
          "got", G_TYPE_INT, &got, NULL));
  fail_unless_equals_uint64 (frame, 1);
  fail_unless_equals_uint64 (mismatches, 1);
  fail_unless_equals_int (x, 0);
  fail_unless_equals_int (y, 0);

  frame1 = ce_test_random_frame ("RGBA", 48, 32, 41, &info);
  ref = reference_output (frame1, &info);
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
  GstElement *e = new_upscale (NULL);
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
  fail_unless (gst_message_has_name (msg, "cudaupscale-check"));
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
  GstElement *e = new_upscale (NULL);
  GstFlowReturn ret;
  gboolean cpu = g_str_equal (ce_test_backend (), "cpu")
      || (g_str_equal (ce_test_backend (), "auto")
      && !ce_test_have_cuda_device ());

  g_object_set (e, "check", TRUE, "check-interval", 3, NULL);
  ce_test_fixture_start (&f, e, "xBGR", 24, 24);
  ce_test_push_frames (&f, "xBGR", 24, 24, 7, &ret);
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
  e = new_upscale (NULL);
  g_object_set (e, "check", TRUE, "check-interval", 3, NULL);
  ce_test_fixture_start (&f, e, "xBGR", 24, 24);
  g_unsetenv (CORRUPT_ENV);
  ce_test_push_frames (&f, "xBGR", 24, 24, 7, &ret);
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
  GstElement *e = new_upscale (backend);
  GstVideoInfo info;
  GstMessage *msg;
  GstFlowReturn ret = GST_FLOW_OK;
  GstStructure *s;
  guint8 *expected[8];
  guint i;

  g_setenv (CUDA_FAIL_ENV, "3", TRUE);
  ce_test_fixture_start_with_rate (&f, e, "RGBA", 96, 64, rate);
  g_unsetenv (CUDA_FAIL_ENV);   /* read at start */
  fail_unless (ce_test_runs_on_cuda (f.element));

  for (i = 0; i < 8 && ret == GST_FLOW_OK; i++) {
    GstBuffer *in = ce_test_random_frame ("RGBA", 96, 64, 60 + i, &info);

    expected[i] = reference_output (in, &info);
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
    ce_test_assert_output_equals (out, "RGBA", expected[i], 192, 128);
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

  ce_test_fixture_start (&f, new_upscale (NULL), "RGBx", 64, 64);
  ce_test_push_frames (&f, "RGBx", 64, 64, 5, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);

  s = ce_test_get_stats (f.element);
  fail_unless (gst_structure_has_name (s, "cudaupscale-stats"));
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

  ce_test_push_frames (&f, "RGBx", 64, 64, 2, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 7);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_property_introspection)
{
  GstElement *e = gst_element_factory_make ("cudaupscale", NULL);
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GParamSpec *pspec;

  pspec = g_object_class_find_property (klass, "check");
  fail_unless (pspec && G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  pspec = g_object_class_find_property (klass, "check-interval");
  fail_unless (pspec && G_PARAM_SPEC_UINT (pspec)->minimum == 1);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  pspec = g_object_class_find_property (klass, "check-fail");
  fail_unless (pspec && pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  pspec = g_object_class_find_property (klass, "backend");
  fail_unless (pspec && pspec->flags & GST_PARAM_MUTABLE_READY);
  pspec = g_object_class_find_property (klass, "cuda-device-id");
  fail_unless (pspec && G_PARAM_SPEC_INT (pspec)->default_value == -1);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY);
  pspec = g_object_class_find_property (klass, "stats");
  fail_unless (pspec && G_PARAM_SPEC_VALUE_TYPE (pspec) == GST_TYPE_STRUCTURE);
  fail_if (pspec->flags & G_PARAM_WRITABLE);
  gst_object_unref (e);
}

GST_END_TEST;

static Suite *
cudaupscale_suite (void)
{
  Suite *s = suite_create ("cudaupscale");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_known_answer_1x1_all_outputs_equal_the_input);
  tcase_add_test (tc, test_known_answer_2x2);
  tcase_add_test (tc, test_known_answer_2x2_every_channel_filtered_alike);
  tcase_add_test (tc, test_known_answer_3x2);
  tcase_add_test (tc, test_every_format_matches_reference_small_odd_sizes);
  tcase_add_test (tc, test_every_format_matches_reference_641x481);
  tcase_add_test (tc, test_every_format_matches_reference_613x611);
  tcase_add_test (tc, test_some_formats_match_reference_1920x1080);
  tcase_add_test (tc, test_odd_width_with_padded_stride_from_video_meta);
  tcase_add_test (tc, test_n_buffers_in_n_out_with_metadata);
  tcase_add_test (tc, test_n_buffers_in_n_out_without_framerate);
  tcase_add_test (tc, test_latency_is_one_frame_when_pipelined);
  tcase_add_test (tc, test_flush_mid_stream_then_more_buffers);
  tcase_add_test (tc, test_eos_passes);
  tcase_add_test (tc, test_output_caps_double_size_same_format_rate_par);
  tcase_add_test (tc, test_downstream_size_gives_half_size_upstream);
  tcase_add_test (tc, test_odd_downstream_size_has_no_upstream_caps);
  tcase_add_test (tc, test_odd_downstream_size_fails_not_negotiated);
  tcase_add_test (tc, test_downstream_constrained_size_negotiates_upstream_size);
  tcase_add_test (tc, test_renegotiation_to_another_size_and_format);
  tcase_add_test (tc, test_too_small_buffer_is_an_error);
  tcase_add_test (tc, test_upscale_then_edge_in_one_pipeline);
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
  return ce_test_main (argc, argv, "cudaupscale", cudaupscale_suite, __FILE__);
}
