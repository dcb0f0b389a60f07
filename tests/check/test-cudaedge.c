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
 * What only cudaedge does: its input formats, its options (threshold,
 * blur, border-mode, norm, output) and frame layouts.  What it shares with
 * cudaupscale (backends, check, stats, events, validation, n-threads) is
 * in test-elements.c, which runs over both.
 *
 * Every output is compared with the core's CPU reference (ce_ref_edge_frame)
 * by memcmp.  The element runs on the backend named by the environment
 * variable CUDAEDGE_TEST_BACKEND ("cpu" by default; the GPU machine runs
 * "cuda").  With "cuda" and no usable device the binary exits 77 (SKIP).
 *
 * On CUDA with a known frame rate the element keeps one frame in flight:
 * an output leaves only after the next input, a DRAIN query or EOS.  The
 * tests ce_test_drain before they pull, so they hold on both backends; the caps
 * carry framerate=30/1 unless a test says otherwise.  One case pushes a
 * whole stream before it pulls anything, changing settings and caps on
 * the way, so that on CUDA the changes meet frames in flight.
 */

#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"
#include "ce-check-util.h"

/* Every format the sink takes (README). */
static const gchar *const all_formats[] = {
  "GRAY8", "I420", "YV12", "NV12", "NV21", "Y42B", "Y444", "YUY2", "UYVY",
  "RGB", "BGR", "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB",
  "xBGR",
};

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
reference_output (GstBuffer * buf, GstVideoInfo * info,
    const ce_edge_params * params)
{
  return ce_test_edge_reference (buf, info, params);
}

/* Pushes one random frame through a running fixture and compares. */
static void
push_and_compare (CeTestFixture * f, const gchar * format, gint width,
    gint height, guint32 seed, const ce_edge_params * params)
{
  ce_test_push_and_compare (f->h, format, width, height, seed,
      ce_test_edge_reference, params, "GRAY8", 1);
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

CE_TEST (test_every_format_matches_reference_1x1)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i], 1, 1);
}

GST_END_TEST;

CE_TEST (test_every_format_matches_reference_611x480_padded_stride)
{
  guint i;

  /* 611 is odd: GRAY8 rows get the default stride 612, YUV chroma odd. */
  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i], 611, 480);
}

GST_END_TEST;

CE_TEST (test_every_format_matches_reference_641x481_odd_size)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++)
    check_format_size (all_formats[i], 641, 481);
}

GST_END_TEST;

CE_TEST (test_some_formats_match_reference_1920x1080)
{
  static const gchar *formats[] = { "GRAY8", "I420", "NV12", "YUY2",
    "RGB", "BGRx"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    check_format_size (formats[i], 1920, 1080);
}

GST_END_TEST;

CE_TEST (test_thin_frames_match_reference)
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
  GstVideoInfo info;
  GstBuffer *in;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  gsize pos = 160;              /* leading junk before plane 0 */
  guint p, n_planes;

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

  in = ce_test_random_buffer (pos, 99);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&info), width, height, n_planes, offset, stride);
  ce_test_run_one_frame (new_edge (NULL), in, format, width, height,
      ce_test_edge_reference, NULL, "GRAY8", 1);
}

CE_TEST (test_custom_strides_and_offsets_from_video_meta)
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
  expected = reference_output (in, &info, params);
  default_params (&defaults);
  expected_default = reference_output (in, &info, &defaults);
  fail_if (memcmp (expected, expected_default, w * h) == 0,
      "%s=%s does not change the reference on this frame", prop, value);

  out = ce_test_push_and_pull (f.h, in);
  ce_test_assert_output_equals (out, "GRAY8", expected, w, h);
  gst_buffer_unref (out);
  g_free (expected);
  g_free (expected_default);
  ce_test_fixture_stop (&f);
}

CE_TEST (test_threshold_property)
{
  ce_edge_params p;

  default_params (&p);
  p.threshold = 40.5;
  check_params ("threshold", "40.5", &p);
  p.threshold = 700;
  check_params ("threshold", "700", &p);
}

GST_END_TEST;

CE_TEST (test_blur_property)
{
  ce_edge_params p;

  default_params (&p);
  p.blur = 0;
  check_params ("blur", "false", &p);
}

GST_END_TEST;

CE_TEST (test_border_mode_property)
{
  ce_edge_params p;

  default_params (&p);
  p.border = CE_BORDER_ZERO;
  check_params ("border-mode", "zero", &p);
  p.border = CE_BORDER_REFLECT;
  check_params ("border-mode", "reflect", &p);
}

GST_END_TEST;

CE_TEST (test_norm_property)
{
  ce_edge_params p;

  default_params (&p);
  p.norm = CE_NORM_L1;
  check_params ("norm", "l1", &p);
}

GST_END_TEST;

CE_TEST (test_output_property)
{
  ce_edge_params p;

  default_params (&p);
  p.output = CE_OUTPUT_MAGNITUDE;
  check_params ("output", "magnitude", &p);
}

GST_END_TEST;

CE_TEST (test_property_change_while_playing_applies_at_next_frame)
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

/* ---- settings and caps changing with frames in flight ---- */

/* Sets @prop to @value on @e (as gst-launch would) and in @p, the
 * reference's copy of the settings. */
static void
set_edge_setting (GstElement * e, ce_edge_params * p, const gchar * prop,
    const gchar * value)
{
  gst_util_set_object_arg (G_OBJECT (e), prop, value);
  if (g_str_equal (prop, "threshold")) {
    p->threshold = g_ascii_strtod (value, NULL);
  } else if (g_str_equal (prop, "blur")) {
    p->blur = g_str_equal (value, "true");
  } else if (g_str_equal (prop, "border-mode")) {
    p->border = g_str_equal (value, "zero") ? CE_BORDER_ZERO :
        g_str_equal (value, "reflect") ? CE_BORDER_REFLECT :
        CE_BORDER_REPLICATE;
  } else if (g_str_equal (prop, "norm")) {
    p->norm = g_str_equal (value, "l1") ? CE_NORM_L1 : CE_NORM_L2;
  } else if (g_str_equal (prop, "output")) {
    p->output = g_str_equal (value, "magnitude") ? CE_OUTPUT_MAGNITUDE :
        CE_OUTPUT_EDGES;
  } else {
    fail ("no such setting: %s", prop);
  }
}

/* A setting changed before every frame but the first, and the caps (size
 * and format) changed three times, all while the frames pushed before are
 * still in flight (on CUDA: nothing is pulled until EOS).  Every output
 * equals, byte for byte, the reference of its input with the settings in
 * force when that input was pushed, and keeps its input's metadata.  Sizes
 * are odd, and some inputs have padded rows described by their video
 * meta. */
CE_TEST (test_settings_and_caps_change_with_frames_in_flight)
{
  static const struct
  {
    const gchar *format;        /* new caps from this frame; NULL: none */
    gint width, height;
    const gchar *prop, *value;  /* set before this frame; NULL: none */
    gint padding;               /* added to each row of the input */
  } steps[] = {
    {"I420", 613, 611, NULL, NULL, 0},
    {NULL, 0, 0, "threshold", "40.5", 13},
    {NULL, 0, 0, "norm", "l1", 0},
    {NULL, 0, 0, "border-mode", "reflect", 37},
    {"BGRx", 641, 481, "blur", "false", 0},
    {NULL, 0, 0, "output", "magnitude", 13},
    {NULL, 0, 0, "border-mode", "zero", 0},
    {NULL, 0, 0, "norm", "l2", 4},
    {"GRAY8", 33, 17, "output", "edges", 5},
    {NULL, 0, 0, "blur", "true", 0},
    {NULL, 0, 0, "threshold", "0", 3},
    {"NV12", 613, 611, "threshold", "20", 0},
    {NULL, 0, 0, "border-mode", "replicate", 0},
    {NULL, 0, 0, "threshold", "2048", 37},
    {NULL, 0, 0, "threshold", "8", 0},
    {NULL, 0, 0, "norm", "l1", 0},
  };
  const gchar *format = steps[0].format;
  gint w = steps[0].width, h = steps[0].height;
  CeTestFixture f;
  CeTestQueue *q;
  ce_edge_params p;
  guint i, before;

  default_params (&p);
  ce_test_fixture_start (&f, new_edge (NULL), format, w, h);
  q = ce_test_queue_new (f.h);
  for (i = 0; i < G_N_ELEMENTS (steps); i++) {
    GstVideoInfo info;
    GstBuffer *in;

    if (i > 0 && steps[i].format) {
      gchar *caps;

      format = steps[i].format;
      w = steps[i].width;
      h = steps[i].height;
      caps = ce_test_caps_string (format, w, h);
      gst_harness_set_src_caps_str (f.h, caps);
      g_free (caps);
    }
    in = steps[i].padding > 0 ? ce_test_random_frame_padded (format, w, h,
        steps[i].padding, 700 + i, &info) : ce_test_random_frame (format, w,
        h, 700 + i, &info);
    if (steps[i].prop) {
      ce_edge_params old = p;
      guint8 *before_change = reference_output (in, &info, &old);
      guint8 *after_change;

      set_edge_setting (f.element, &p, steps[i].prop, steps[i].value);
      /* The change shows on this frame, or the test could not see it
       * applied a frame late. */
      after_change = reference_output (in, &info, &p);
      fail_if (memcmp (before_change, after_change, (gsize) w * h) == 0,
          "frame %u: %s=%s does not change the reference", i, steps[i].prop,
          steps[i].value);
      g_free (before_change);
      g_free (after_change);
    }
    ce_test_queue_push (q, in, &info, ce_test_edge_reference, &p, "GRAY8",
        1);
  }
  before = ce_test_queue_finish (q);
  GST_INFO ("%u of %u outputs out before EOS", before,
      (guint) G_N_ELEMENTS (steps));
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- output caps ---- */

/* The edge map is GRAY8: the input's colorimetry and chroma siting
 * describe its colours, and do not go on to the output's caps. */
CE_TEST (test_output_caps_leave_colorimetry_and_chroma_site)
{
  CeTestFixture f;
  GstVideoInfo info;
  GstCaps *caps;
  GstStructure *st;
  gchar *str;

  ce_test_fixture_start (&f, new_edge (NULL), "I420", 64, 36);
  gst_harness_set_src_caps_str (f.h, "video/x-raw,format=I420,width=64,"
      "height=36,framerate=30/1,colorimetry=bt709,chroma-site=mpeg2");
  gst_buffer_unref (ce_test_push_and_pull (f.h,
          ce_test_random_frame ("I420", 64, 36, 2, &info)));
  caps = gst_pad_get_current_caps (f.h->sinkpad);
  fail_unless (caps != NULL);
  st = gst_caps_get_structure (caps, 0);
  str = gst_caps_to_string (caps);
  fail_unless_equals_string (gst_structure_get_string (st, "format"),
      "GRAY8");
  fail_if (gst_structure_has_field (st, "colorimetry"), "%s", str);
  fail_if (gst_structure_has_field (st, "chroma-site"), "%s", str);
  g_free (str);
  gst_caps_unref (caps);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- GAP ---- */

/* A GAP input holds neutral data, here a uniform frame of 16: without
 * edges where the border rule repeats the frame's own pixels, so the
 * output keeps the flag; with zero borders its border has edges, and the
 * output loses it.  Either way the output is the reference's. */
CE_TEST (test_gap_flag_kept_where_the_output_is_neutral)
{
  static const struct
  {
    const gchar *border;
    ce_border_mode mode;
    gboolean gap;
  } cases[] = {
    {"replicate", CE_BORDER_REPLICATE, TRUE},
    {"reflect", CE_BORDER_REFLECT, TRUE},
    {"zero", CE_BORDER_ZERO, FALSE},
  };
  static const gchar *const outputs[] = { "edges", "magnitude" };
  const gint w = 37, h = 23;
  guint c, o;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (o = 0; o < G_N_ELEMENTS (outputs); o++) {
      CeTestFixture f;
      ce_edge_params p;
      GstVideoInfo info;
      GstBuffer *in, *out;
      guint8 *expected;
      gsize i, edges = 0;

      default_params (&p);
      p.border = cases[c].mode;
      p.output = o ? CE_OUTPUT_MAGNITUDE : CE_OUTPUT_EDGES;
      p.threshold = 0.0;
      ce_test_fixture_start (&f, new_edge (NULL), "GRAY8", w, h);
      gst_util_set_object_arg (G_OBJECT (f.element), "border-mode",
          cases[c].border);
      gst_util_set_object_arg (G_OBJECT (f.element), "output", outputs[o]);
      g_object_set (f.element, "threshold", 0.0, NULL);
      gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, w, h);
      in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      gst_buffer_memset (in, 0, 16, GST_VIDEO_INFO_SIZE (&info));
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_GAP);
      expected = reference_output (in, &info, &p);
      for (i = 0; i < (gsize) w * h; i++)
        edges += expected[i] != 0;
      /* the reference agrees that only zero borders make edges */
      fail_unless_equals_int (edges == 0, cases[c].gap);

      out = ce_test_push_and_pull (f.h, in);
      fail_unless (out != NULL);
      if (GST_BUFFER_FLAG_IS_SET (out, GST_BUFFER_FLAG_GAP) != cases[c].gap)
        fail ("border-mode=%s output=%s: GAP flag %s on the output",
            cases[c].border, outputs[o], cases[c].gap ? "lost" : "kept");
      ce_test_assert_output_equals (out, "GRAY8", expected, w, h);
      gst_buffer_unref (out);
      g_free (expected);
      ce_test_fixture_stop (&f);
    }
  }
}

GST_END_TEST;

/* ---- input validation (planar formats) ---- */

/* Plane 0 fits, but the meta puts the chroma planes past the end. */
CE_TEST (test_video_meta_chroma_outside_buffer_is_an_error)
{
  CeTestFixture f;
  GstBuffer *in;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, 64 * 48 * 4, 64 * 48 * 5, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, 32, 32, };

  ce_test_fixture_start (&f, new_edge (NULL), "I420", 64, 48);
  in = gst_buffer_new_allocate (NULL, 64 * 48 * 3 / 2, NULL);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_I420, 64, 48, 3, offset, stride);
  ce_test_assert_push_rejected (&f, in);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- introspection ---- */

/* cudaedge's own properties; test-elements.c has the shared ones. */
CE_TEST (test_edge_properties_introspection)
{
  GstElement *e = ce_test_make_element ("cudaedge");
  GObject *o = G_OBJECT (e);
  GParamSpec *pspec;
  static const gchar *const borders[] = { "replicate", "zero", "reflect",
    NULL
  };
  static const gchar *const norms[] = { "l2", "l1", NULL };
  static const gchar *const outputs[] = { "edges", "magnitude", NULL };

  pspec = ce_test_find_property (o, "threshold");
  fail_unless (G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->minimum, 0.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->maximum, 2048.0);
  fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->default_value,
      128.0);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  pspec = ce_test_find_property (o, "blur");
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == TRUE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  ce_test_assert_enum_property (o, "border-mode", "replicate", borders,
      GST_PARAM_MUTABLE_PLAYING);
  ce_test_assert_enum_property (o, "norm", "l2", norms,
      GST_PARAM_MUTABLE_PLAYING);
  ce_test_assert_enum_property (o, "output", "edges", outputs,
      GST_PARAM_MUTABLE_PLAYING);

  gst_object_unref (e);
}

GST_END_TEST;

/* The pad templates say which sizes the element takes, 1 ... 2^28 a
 * side (the core's limit), and a larger input is not negotiated. */
CE_TEST (test_pad_templates_give_the_sizes)
{
  static const gchar *const pads[] = { "sink", "src" };
  GstElement *e = gst_object_ref_sink (new_edge ("cpu"));
  GstHarness *h;
  GstCaps *caps;
  guint p;

  for (p = 0; p < G_N_ELEMENTS (pads); p++) {
    GstPad *pad = gst_element_get_static_pad (e, pads[p]);
    guint i;

    caps = gst_pad_get_pad_template_caps (pad);
    fail_if (gst_caps_is_empty (caps));
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      const GstStructure *st = gst_caps_get_structure (caps, i);
      const gchar *dims[] = { "width", "height" };
      guint d;

      for (d = 0; d < 2; d++) {
        const GValue *v = gst_structure_get_value (st, dims[d]);

        fail_unless (v && GST_VALUE_HOLDS_INT_RANGE (v));
        fail_unless_equals_int (gst_value_get_int_range_min (v), 1);
        fail_unless_equals_int (gst_value_get_int_range_max (v), 1 << 28);
      }
    }
    gst_caps_unref (caps);
    gst_object_unref (pad);
  }
  gst_object_unref (e);

  h = gst_harness_new_with_element (new_edge ("cpu"), "sink", "src");
  gst_object_unref (h->element);        /* the harness holds it */
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,"
      "width=268435457,height=1,framerate=30/1");
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new ()),
      GST_FLOW_NOT_NEGOTIATED);
  gst_harness_teardown (h);
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  return ce_test_main (argc, argv, "cudaedge", NULL, __FILE__);
}
