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
 * What only cudaupscale does: its known answers, its formats and sizes,
 * caps and size negotiation, and the chain into cudaedge.  What it shares
 * with cudaedge (backends, check, stats, events, validation, n-threads)
 * is in test-elements.c, which runs over both.
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
  return ce_test_upscale_reference (buf, info, NULL);
}

static void
push_and_compare (CeTestFixture * f, const gchar * format, gint width,
    gint height, guint32 seed)
{
  ce_test_push_and_compare (f->h, format, width, height, seed,
      ce_test_upscale_reference, NULL, NULL, 2);
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

  ce_test_fixture_start (&f, new_upscale (NULL), format, width, height);
  ce_test_push_and_expect (f.h, frame_from_bytes (format, width, height, in),
      format, expected, 2 * width, 2 * height);
  ce_test_fixture_stop (&f);
}

/* ---- known answers (docs/numerics.md, "Bilinear 2x upscale", worked by hand) ----
 *
 * Along an axis of n input pixels, output index i samples x = i/2 - 1/4
 * clamped to [0, n - 1].  For n = 1 every sample is pixel 0.  For n = 2
 * the samples are 0, 0.25, 0.75, 1; for n = 3 they are 0, 0.25, 0.75,
 * 1.25, 1.75, 2.  Each output is (sum p_k w_k + 128) >> 8 with weights
 * (1 - fx)(1 - fy) 256, fx (1 - fy) 256, (1 - fx) fy 256, fx fy 256. */

CE_TEST (test_known_answer_1x1_all_outputs_equal_the_input)
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

CE_TEST (test_known_answer_2x2)
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

CE_TEST (test_known_answer_2x2_every_channel_filtered_alike)
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

CE_TEST (test_known_answer_3x2)
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

CE_TEST (test_every_format_matches_reference_small_odd_sizes)
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

CE_TEST (test_every_format_matches_reference_641x481)
{
  guint i;

  /* GRAY8 641 wide: input rows padded to 644, output 1282 to 1284. */
  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 641, 481);
}

GST_END_TEST;

CE_TEST (test_every_format_matches_reference_613x611)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i].name, 613, 611);
}

GST_END_TEST;

CE_TEST (test_some_formats_match_reference_1920x1080)
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
  GstBuffer *in;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 160, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };

  stride[0] = width * format_bpp (format) + extra_stride;
  in = ce_test_random_buffer (offset[0] + (gsize) stride[0] * height + 11,
      99 + width);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      gst_video_format_from_string (format), width, height, 1, offset,
      stride);
  ce_test_run_one_frame (new_upscale (NULL), in, format, width, height,
      ce_test_upscale_reference, NULL, NULL, 2);
}

CE_TEST (test_odd_width_with_padded_stride_from_video_meta)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_custom_layout (all_formats[i].name, 101, 37, 37);
  check_custom_layout ("GRAY8", 1, 1, 1);
  check_custom_layout ("RGBA", 3, 2, 5);
  check_custom_layout ("BGRx", 641, 481, 128);
}

GST_END_TEST;

/* ---- caps and size negotiation ---- */

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
assert_caps_empty (GstCaps * caps)
{
  gchar *got = gst_caps_to_string (caps);

  fail_unless (gst_caps_is_empty (caps), "got %s, expected EMPTY", got);
  g_free (got);
}

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

/* What the element accepts upstream when downstream takes only
 * @downstream is @expected. */
static void
assert_upstream_caps (const gchar * downstream, const gchar * expected)
{
  GstCaps *caps = upstream_caps_for (downstream);
  GstCaps *want = gst_caps_from_string (expected);

  assert_caps_equal (caps, want);
  gst_caps_unref (caps);
  gst_caps_unref (want);
}

/* The element accepts nothing upstream when downstream takes only
 * @downstream. */
static void
assert_no_upstream_caps (const gchar * downstream)
{
  GstCaps *caps = upstream_caps_for (downstream);

  assert_caps_empty (caps);
  gst_caps_unref (caps);
}

/* A @width x @height @format frame pushed into a new element on @backend
 * with input caps @src (and output caps @sink, unless NULL) is not
 * negotiated, and nothing comes out. */
static void
assert_push_not_negotiated (const gchar * backend, const gchar * sink,
    const gchar * src, const gchar * format, gint width, gint height)
{
  CeTestFixture f;
  GstVideoInfo info;

  f.element = new_upscale (backend);
  f.bus = gst_bus_new ();
  gst_element_set_bus (f.element, f.bus);
  f.h = gst_harness_new_with_element (f.element, "sink", "src");
  if (sink)
    gst_harness_set_sink_caps_str (f.h, sink);
  gst_harness_set_src_caps_str (f.h, src);
  fail_unless_equals_int (gst_harness_push (f.h,
          ce_test_random_frame (format, width, height, 1, &info)),
      GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 0);
  ce_test_fixture_stop (&f);
}

CE_TEST (test_downstream_size_gives_half_size_upstream)
{
  assert_upstream_caps ("video/x-raw,format=RGBx,width=640,height=480,"
      "framerate=30/1,pixel-aspect-ratio=1/1",
      "video/x-raw,format=RGBx,width=320,height=240,framerate=30/1,"
      "pixel-aspect-ratio=1/1");

  /* A range halves to the sizes whose double it holds. */
  assert_upstream_caps ("video/x-raw,format=GRAY8,width=[ 3, 11 ],"
      "height={ 5, 6, 8 }",
      "video/x-raw,format=GRAY8,width=[ 2, 5 ],height={ 3, 4 },"
      "framerate=[ 0/1, 2147483647/1 ]");
}

GST_END_TEST;

CE_TEST (test_odd_downstream_size_has_no_upstream_caps)
{
  assert_no_upstream_caps ("video/x-raw,format=RGBA,width=641,height=480");
  assert_no_upstream_caps ("video/x-raw,format=RGBA,width=640,height=481");
}

GST_END_TEST;

CE_TEST (test_odd_downstream_size_fails_not_negotiated)
{
  assert_push_not_negotiated (NULL,
      "video/x-raw,format=RGBA,width=641,height=480",
      "video/x-raw,format=RGBA,width=320,height=240,framerate=30/1",
      "RGBA", 320, 240);
}

GST_END_TEST;

/* Interlaced frames have no counterpart (their fields would be blended):
 * caps that may be either keep only progressive, interlaced input is not
 * negotiated. */
CE_TEST (test_interlaced_input_is_not_negotiated)
{
  assert_upstream_caps ("video/x-raw,format=GRAY8,width=8,height=8,"
      "framerate=25/1,interlace-mode={ progressive, interleaved }",
      "video/x-raw,format=GRAY8,width=4,height=4,"
      "framerate=25/1,interlace-mode=progressive");
  assert_no_upstream_caps ("video/x-raw,format=GRAY8,width=8,height=8,"
      "interlace-mode=interleaved");

  assert_push_not_negotiated ("cpu", NULL, "video/x-raw,format=GRAY8,width=4,"
      "height=4,framerate=25/1,interlace-mode=interleaved,"
      "field-order=top-field-first", "GRAY8", 4, 4);
}

GST_END_TEST;

/* Multiview modes whose views alternate by rows, columns or both would be
 * blended like the fields of interlaced frames: not negotiated, nor views
 * in separate memories.  Views side by side or one above the other stay
 * apart. */
CE_TEST (test_interleaved_views_are_not_negotiated)
{
  static const gchar *const refused[] = { "row-interleaved",
    "column-interleaved", "checkerboard", "side-by-side-quincunx",
    "separated"
  };
  GstCaps *caps;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    gchar *str = g_strdup_printf ("video/x-raw,format=GRAY8,width=8,"
        "height=8,multiview-mode=%s", refused[i]);

    assert_no_upstream_caps (str);
    g_free (str);

    str = g_strdup_printf ("video/x-raw,format=GRAY8,width=4,height=4,"
        "framerate=25/1,multiview-mode=%s", refused[i]);
    assert_push_not_negotiated ("cpu", NULL, str, "GRAY8", 4, 4);
    g_free (str);
  }
  caps = upstream_caps_for ("video/x-raw,format=GRAY8,width=8,height=8,"
      "multiview-mode=side-by-side");
  fail_if (gst_caps_is_empty (caps));
  gst_caps_unref (caps);
  /* in a list, the interleaved modes are left out */
  caps = upstream_caps_for ("video/x-raw,format=GRAY8,width=8,height=8,"
      "multiview-mode={ row-interleaved, mono, checkerboard, "
      "side-by-side }");
  fail_if (gst_caps_is_empty (caps));
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GValue *v = gst_structure_get_value (gst_caps_get_structure (caps,
            i), "multiview-mode");

    fail_unless (v != NULL && GST_VALUE_HOLDS_LIST (v));
    fail_unless_equals_int (gst_value_list_get_size (v), 2);
    fail_unless_equals_string (g_value_get_string (gst_value_list_get_value
            (v, 0)), "mono");
    fail_unless_equals_string (g_value_get_string (gst_value_list_get_value
            (v, 1)), "side-by-side");
  }
  gst_caps_unref (caps);
  caps = upstream_caps_for ("video/x-raw,format=GRAY8,width=8,height=8,"
      "multiview-mode={ row-interleaved, mono }");
  fail_if (gst_caps_is_empty (caps));
  for (i = 0; i < gst_caps_get_size (caps); i++)
    fail_unless_equals_string (gst_structure_get_string
        (gst_caps_get_structure (caps, i), "multiview-mode"), "mono");
  gst_caps_unref (caps);
  assert_no_upstream_caps ("video/x-raw,format=GRAY8,width=8,height=8,"
      "multiview-mode={ row-interleaved, checkerboard }");
}

GST_END_TEST;

/* Sizes past the largest input (2^28 a side) have no counterpart. */
CE_TEST (test_sizes_past_the_largest_have_no_counterpart)
{
  GstHarness *h;
  GstCaps *caps;
  GstPad *src;

  assert_no_upstream_caps ("video/x-raw,format=GRAY8,width=536870916,"
      "height=2");
  caps = upstream_caps_for ("video/x-raw,format=GRAY8,width=536870912,"
      "height=2");
  fail_if (gst_caps_is_empty (caps));
  gst_caps_unref (caps);

  h = gst_harness_new_with_element (new_upscale ("cpu"), "sink", "src");
  gst_object_unref (h->element);        /* the harness holds it */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,"
      "width=268435458,height=1");
  src = gst_element_get_static_pad (h->element, "src");
  caps = gst_pad_query_caps (src, NULL);
  assert_caps_empty (caps);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The pad templates say which sizes each side can have: inputs up to
 * 2^28 a side, even outputs up to 2^29. */
CE_TEST (test_pad_templates_give_the_sizes)
{
  static const gchar *const pads[] = { "sink", "src" };
  GstElement *e = gst_object_ref_sink (new_upscale ("cpu"));
  guint p;

  for (p = 0; p < G_N_ELEMENTS (pads); p++) {
    GstPad *pad = gst_element_get_static_pad (e, pads[p]);
    GstCaps *caps = gst_pad_get_pad_template_caps (pad);
    guint i;

    fail_if (gst_caps_is_empty (caps));
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      const GstStructure *st = gst_caps_get_structure (caps, i);
      const gchar *dims[] = { "width", "height" };
      guint d;

      for (d = 0; d < 2; d++) {
        const GValue *v = gst_structure_get_value (st, dims[d]);

        fail_unless (v && GST_VALUE_HOLDS_INT_RANGE (v));
        fail_unless_equals_int (gst_value_get_int_range_min (v), p ? 2 : 1);
        fail_unless_equals_int (gst_value_get_int_range_max (v),
            p ? 1 << 29 : 1 << 28);
        fail_unless_equals_int (gst_value_get_int_range_step (v), p ? 2 : 1);
      }
    }
    gst_caps_unref (caps);
    gst_object_unref (pad);
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* Sends a navigation event (@st) upstream from the harness's sink and
 * returns it as it reached the harness's source. */
static GstEvent *
navigate (GstHarness * h, GstStructure * st)
{
  GstEvent *ev;

  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_navigation (st)));
  while ((ev = gst_harness_pull_upstream_event (h))
      && GST_EVENT_TYPE (ev) != GST_EVENT_NAVIGATION)
    gst_event_unref (ev);
  fail_unless (ev != NULL);
  return ev;
}

/* A pointer position from downstream (output pixels) reaches upstream in
 * input pixels, halved as videoscale halves it; a key press goes on as it
 * came. */
CE_TEST (test_navigation_pointer_positions_are_scaled_upstream)
{
  static const gchar *const nav = "application/x-gst-navigation";
  CeTestFixture f;
  GstEvent *ev;
  const GstStructure *st;
  gdouble x = 0.0, y = 0.0;
  GstVideoInfo info;

  ce_test_fixture_start (&f, new_upscale (NULL), "GRAY8", 320, 240);
  /* negotiated by a first frame */
  gst_buffer_unref (ce_test_push_and_pull (f.h,
          ce_test_random_frame ("GRAY8", 320, 240, 3, &info)));

  ev = navigate (f.h, gst_structure_new (nav, "event", G_TYPE_STRING,
          "mouse-move", "button", G_TYPE_INT, 0, "pointer_x", G_TYPE_DOUBLE,
          101.0, "pointer_y", G_TYPE_DOUBLE, 61.0, NULL));
  st = gst_event_get_structure (ev);
  fail_unless (gst_structure_get_double (st, "pointer_x", &x));
  fail_unless (gst_structure_get_double (st, "pointer_y", &y));
  fail_unless_equals_float (x, 50.5);
  fail_unless_equals_float (y, 30.5);
  gst_event_unref (ev);

  ev = navigate (f.h, gst_structure_new (nav, "event", G_TYPE_STRING,
          "key-press", "key", G_TYPE_STRING, "space", NULL));
  st = gst_event_get_structure (ev);
  fail_unless_equals_string (gst_structure_get_string (st, "key"), "space");
  fail_if (gst_structure_has_field (st, "pointer_x"));
  gst_event_unref (ev);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* Downstream lists the sizes it prefers first: upstream is offered their
 * halves in that order, not the sizes themselves (a passthrough this
 * element never does), so the first is taken. */
CE_TEST (test_downstream_size_preference_is_kept)
{
  GstCaps *caps;
  GstStructure *s;
  gint w = 0;

  caps = upstream_caps_for ("video/x-raw,format=GRAY8,width=640,height=480;"
      "video/x-raw,format=GRAY8,width=1280,height=960");
  fail_if (gst_caps_is_empty (caps));
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless_equals_int (w, 320);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* What videotestsrc ! cudaupscale ! video/x-raw,width=640,height=480 does,
 * with the harness as source (the tests load no other plugin): ask
 * downstream what it takes, fixate, stream. */
CE_TEST (test_downstream_constrained_size_negotiates_upstream_size)
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

/* ---- with cudaedge ---- */

static void
check_upscale_then_edge (const gchar * format, gint w, gint h)
{
  gchar *desc = g_strdup_printf ("cudaupscale backend=%s ! cudaedge "
      "backend=%s", ce_test_backend (), ce_test_backend ());
  GstHarness *h2;
  gchar *caps = ce_test_caps_string (format, w, h);
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint8 *up, *expected;
  ce_edge_params params;
  ce_frame frame;
  ce_format ce = g_str_equal (format, "GRAY8") ? CE_FORMAT_GRAY8 :
      CE_FORMAT_RGBA;

  /* gst_harness_new_parse () aborts the program on a missing element; a
   * missing plugin fails this case only. */
  gst_object_unref (ce_test_make_element ("cudaupscale"));
  gst_object_unref (ce_test_make_element ("cudaedge"));
  h2 = gst_harness_new_parse (desc);
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
    /* On GRAY8 the frame is its own luma: the plain edge chain agrees. */
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

CE_TEST (test_upscale_then_edge_in_one_pipeline)
{
  check_upscale_then_edge ("GRAY8", 37, 23);
  check_upscale_then_edge ("RGBA", 41, 30);
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  return ce_test_main (argc, argv, "cudaupscale", NULL, __FILE__);
}
