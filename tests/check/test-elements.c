/* gst-cudaedge: GstHarness tests of what both elements do alike
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
 * cudaedge and cudaupscale share their base class, GstCeBaseFilter: the
 * backend choice and fall-back, frames in flight, events, input
 * validation, check, statistics and the properties behind them.  Every
 * case here runs once per element (one TCase each, named for the
 * factory), from the table `elements` below: what the element outputs
 * (the core's CPU reference, its format and size) and the formats the
 * cases feed it.  What only one element does is tested in
 * test-cudaedge.c and test-cudaupscale.c.
 *
 * The elements run on the backend named by CUDAEDGE_TEST_BACKEND ("cpu"
 * by default; the GPU machine runs "cuda").  With "cuda" and no usable
 * device the program exits 77 (SKIP).  On CUDA with a known frame rate an
 * element keeps CE_TEST_FRAMES_HELD frames in flight: an output leaves only
 * after that many more inputs, a DRAIN query or EOS; the cases drain before they pull, and the
 * caps carry framerate=30/1 unless a case says otherwise.  The cases of
 * streams (N in, N out; caps changes with frames in flight) push every
 * frame before they pull, and pull after EOS.
 *
 * Cases that corrupt or fail chosen frames need the plugin's test hooks
 * (environment variables it reads only when built with -Dtest-hooks=true);
 * without CE_TEST_HOOKS they are left out, and the program says so.
 */

#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "ce-check-util.h"
#include "cudaedge-testing.h"

typedef struct
{
  const gchar *format;
  gint width, height;
} Stream;

/* One element under test. */
typedef struct
{
  const gchar *factory;
  const gchar *check_message;   /* name of the check's element message */
  const gchar *stats_name;      /* name of the stats structure */
  const gchar *corrupt_env;     /* test hooks, read at start */
  const gchar *cuda_fail_env;

  /* The output: @scale times the input's width and height, in
   * @output_format (NULL: the input's), as @reference computes it. */
  gint scale;
  const gchar *output_format;
  CeTestReference reference;
  /* Output buffers are exactly the default layout's size (else at least
   * that: pinned pools may round up). */
  gboolean exact_output_size;

  /* The inputs the cases use, where the element's formats allow a
   * choice: a multi-plane or packed format that the element takes. */
  const gchar *format;          /* default: CUDA, threads */
  const gchar *caps_format;     /* output caps */
  const gchar *stream_format;   /* N in, N out */
  const gchar *packed_format;   /* a buffer too small */
  const gchar *stats_format;
  const gchar *interval_format; /* check-interval */
  Stream renegotiation[3];
  Stream in_flight[4];          /* caps changes with frames in flight */
} Element;

static const Element elements[] = {
  {
        .factory = "cudaedge",
        .check_message = "cudaedge-check",
        .stats_name = "cudaedge-stats",
        .corrupt_env = "CUDAEDGE_TEST_CORRUPT_FRAME",
        .cuda_fail_env = "CUDAEDGE_TEST_CUDA_FAIL_FRAME",
        .scale = 1,
        .output_format = "GRAY8",
        .reference = ce_test_edge_reference,
        .exact_output_size = TRUE,
        .format = "NV12",
        .caps_format = "NV12",
        .stream_format = "I420",
        .packed_format = "RGB",
        .stats_format = "YUY2",
        .interval_format = "GRAY8",
        .renegotiation = {{"I420", 64, 48}, {"BGR", 33, 17}, {"UYVY", 130,
                90}},
        .in_flight = {{"NV12", 613, 611}, {"BGR", 33, 17}, {"Y444", 641,
                481}, {"YUY2", 613, 611}},
      },
  {
        .factory = "cudaupscale",
        .check_message = "cudaupscale-check",
        .stats_name = "cudaupscale-stats",
        .corrupt_env = "CUDAUPSCALE_TEST_CORRUPT_FRAME",
        .cuda_fail_env = "CUDAUPSCALE_TEST_CUDA_FAIL_FRAME",
        .scale = 2,
        .output_format = NULL,
        .reference = ce_test_upscale_reference,
        .exact_output_size = FALSE,
        .format = "RGBA",
        .caps_format = "ARGB",
        .stream_format = "BGRA",
        .packed_format = "RGBA",
        .stats_format = "RGBx",
        .interval_format = "xBGR",
        .renegotiation = {{"GRAY8", 64, 48}, {"xRGB", 33, 17}, {"GRAY8", 5,
                3}},
        .in_flight = {{"RGBA", 613, 611}, {"GRAY8", 33, 17}, {"xBGR", 641,
                481}, {"GRAY8", 613, 611}},
      },
};

/* ---- helpers over the table ---- */

#define ELEMENT (&elements[__i__])

/* On @backend, or on CUDAEDGE_TEST_BACKEND's when NULL. */
static GstElement *
new_element (const Element * el, const gchar * backend)
{
  return ce_test_new_element (el->factory, backend);
}

static const gchar *
output_format (const Element * el, const gchar * input)
{
  return el->output_format ? el->output_format : input;
}

static guint8 *
expected_output (const Element * el, GstBuffer * in, GstVideoInfo * info)
{
  return el->reference (in, info, NULL);
}

static void
push_and_compare (const Element * el, CeTestFixture * f, const gchar * format,
    gint width, gint height, guint32 seed)
{
  ce_test_push_and_compare (f->h, format, width, height, seed, el->reference,
      NULL, el->output_format, el->scale);
}

static void
assert_output (const Element * el, GstBuffer * out, const gchar * format,
    const guint8 * expected, gint width, gint height)
{
  ce_test_assert_output_equals (out, output_format (el, format), expected,
      el->scale * width, el->scale * height);
}

/* The element's error on @bus, of @domain and @code. */
static void
assert_error_posted (GstBus * bus, GQuark domain, gint code)
{
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;

  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, domain, code), "got %s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
}

/* Whether the element runs on the CPU: nothing independent of the output
 * is there to check against then. */
static gboolean
runs_on_cpu (void)
{
  return g_str_equal (ce_test_backend (), "cpu")
      || (g_str_equal (ce_test_backend (), "auto")
      && !ce_test_have_cuda_device ());
}

/* The check's counters in the element's stats. */
static void
assert_check_counts (GstElement * e, guint64 checked, guint64 mismatches)
{
  fail_unless_equals_uint64 (ce_test_stats_u64 (e, "frames-checked"),
      checked);
  fail_unless_equals_uint64 (ce_test_stats_u64 (e, "mismatches"),
      mismatches);
}

/* ce_test_skip_without_cuda () naming the element as well as the case. */
static gboolean
skip_without_cuda (const Element * el, const gchar * test)
{
  gchar *name = g_strdup_printf ("%s: %s", el->factory, test);
  gboolean skip = ce_test_skip_case_without_cuda (name);

  g_free (name);
  return skip;
}

/* A case that fails after setting a hook leaves no hook for the next. */
static void
clear_test_hooks (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    g_unsetenv (elements[i].corrupt_env);
    g_unsetenv (elements[i].cuda_fail_env);
  }
}

/* ---- buffers and events ---- */

/* N buffers in, N out after EOS, in order, with their metadata and the
 * reference's pixels; @rate "30/1" keeps a frame in flight on CUDA, "0/1"
 * runs synchronously.  Frame 7's DISCONT comes while frames are in
 * flight: it must mark its own output only.  Frame 4 is a GAP, kept. */
#define IS_DISCONT_FRAME(i) ((i) == 0 || (i) == 7)
static void
check_n_buffers_in_n_out (const Element * el, const gchar * rate)
{
  CeTestFixture f;
  const guint n = 12;
  const gchar *format = el->stream_format;
  guint i;
  GstVideoInfo info, out_info;
  guint8 *expected[12];

  gst_video_info_set_format (&out_info,
      gst_video_format_from_string (output_format (el, format)),
      el->scale * 32, el->scale * 24);
  ce_test_fixture_start_with_rate (&f, new_element (el, NULL), format, 32, 24,
      rate);
  for (i = 0; i < n; i++) {
    GstBuffer *in = ce_test_random_frame (format, 32, 24, i, &info);
    expected[i] = expected_output (el, in, &info);
    GST_BUFFER_PTS (in) = i * 33 * GST_MSECOND + 7;
    GST_BUFFER_DTS (in) = i * 33 * GST_MSECOND;
    GST_BUFFER_DURATION (in) = 33 * GST_MSECOND;
    GST_BUFFER_OFFSET (in) = 100 + i;
    GST_BUFFER_OFFSET_END (in) = 101 + i;
    GST_BUFFER_FLAG_SET (in, IS_DISCONT_FRAME (i) ? GST_BUFFER_FLAG_DISCONT :
        GST_BUFFER_FLAG_DELTA_UNIT);
    if (i % 3 == 0)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_MARKER);
    if (i == 4)
      GST_BUFFER_FLAG_SET (in, GST_BUFFER_FLAG_GAP);
    fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  }
  /* At most the last frames are still in flight; EOS brings them out.
   * On CUDA with a frame rate exactly the last ones are: the DISCONT of
   * frame 7 empties the frames in flight once, not for good. */
  if (ce_test_runs_on_cuda (f.element) && !g_str_equal (rate, "0/1")) {
    fail_unless_equals_int (gst_harness_buffers_received (f.h),
        n - CE_TEST_FRAMES_HELD);
  } else {
    fail_unless (gst_harness_buffers_received (f.h) >= n
        - CE_TEST_FRAMES_HELD);
  }
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (f.h), n);

  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_pull (f.h);
    GstBufferFlags want = (IS_DISCONT_FRAME (i) ? GST_BUFFER_FLAG_DISCONT :
        GST_BUFFER_FLAG_DELTA_UNIT) | (i % 3 == 0 ? GST_BUFFER_FLAG_MARKER : 0)
        | (i == 4 ? GST_BUFFER_FLAG_GAP : 0);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out),
        i * 33 * GST_MSECOND + 7);
    fail_unless_equals_uint64 (GST_BUFFER_DTS (out), i * 33 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), 33 * GST_MSECOND);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), 100 + i);
    fail_unless_equals_uint64 (GST_BUFFER_OFFSET_END (out), 101 + i);
    fail_unless_equals_int (GST_BUFFER_FLAGS (out) & (GST_BUFFER_FLAG_DISCONT
            | GST_BUFFER_FLAG_DELTA_UNIT | GST_BUFFER_FLAG_MARKER
            | GST_BUFFER_FLAG_GAP), want);
    if (el->exact_output_size) {
      fail_unless_equals_uint64 (gst_buffer_get_size (out),
          GST_VIDEO_INFO_SIZE (&out_info));
    } else {
      fail_unless (gst_buffer_get_size (out) >= GST_VIDEO_INFO_SIZE
          (&out_info));
    }
    assert_output (el, out, format, expected[i], 32, 24);
    gst_buffer_unref (out);
    g_free (expected[i]);
  }
  fail_unless (gst_harness_try_pull (f.h) == NULL);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), n);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_n_buffers_in_n_out_with_metadata)
{
  check_n_buffers_in_n_out (ELEMENT, "30/1");
}

GST_END_TEST;

/* Metadata that depends on the picture's geometry follows it: a region
 * of interest is kept as it is by cudaedge (same picture size) and
 * scaled by cudaupscale; a timecode (no tags) is kept by both; the input's
 * own video meta is not carried over. */
GST_START_TEST (test_geometry_metadata_follows_the_picture)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstVideoInfo info;
  GstBuffer *in, *out;
  GstVideoRegionOfInterestMeta *roi;
  GstVideoTimeCodeMeta *tc;
  GstVideoMeta *vmeta;
  gint k = el->scale;

  ce_test_fixture_start (&f, new_element (el, NULL), el->stream_format, 32,
      24);
  in = ce_test_random_frame (el->stream_format, 32, 24, 3, &info);
  if (!gst_buffer_get_video_meta (in))
    gst_buffer_add_video_meta (in, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_INFO_FORMAT (&info), 32, 24);
  gst_buffer_add_video_region_of_interest_meta (in, "face", 4, 6, 10, 8);
  gst_buffer_add_video_time_code_meta_full (in, 30, 1, NULL,
      GST_VIDEO_TIME_CODE_FLAGS_NONE, 1, 2, 3, 4, 0);
  fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  out = gst_harness_pull (f.h);
  fail_unless (out != NULL);

  roi = gst_buffer_get_video_region_of_interest_meta_id (out, 0);
  fail_unless (roi != NULL, "%s dropped the region of interest",
      el->factory);
  fail_unless_equals_string (g_quark_to_string (roi->roi_type), "face");
  fail_unless_equals_int (roi->x, 4 * k);
  fail_unless_equals_int (roi->y, 6 * k);
  fail_unless_equals_int (roi->w, 10 * k);
  fail_unless_equals_int (roi->h, 8 * k);
  tc = gst_buffer_get_video_time_code_meta (out);
  fail_unless (tc != NULL, "%s dropped the timecode", el->factory);
  fail_unless_equals_int (tc->tc.hours, 1);
  fail_unless_equals_int (tc->tc.frames, 4);
  vmeta = gst_buffer_get_video_meta (out);
  if (vmeta) {
    fail_unless_equals_int (vmeta->width, 32 * k);
    fail_unless_equals_int (vmeta->height, 24 * k);
    fail_unless_equals_string (gst_video_format_to_string (vmeta->format),
        output_format (el, el->stream_format));
  }
  gst_buffer_unref (out);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_n_buffers_in_n_out_without_framerate)
{
  check_n_buffers_in_n_out (ELEMENT, "0/1");
}

GST_END_TEST;

GST_START_TEST (test_latency_is_the_frames_held_when_pipelined)
{
  const Element *el = ELEMENT;
  CeTestFixture f;

  /* 25/1: a frame is 40 ms; the frames held, on CUDA only. */
  ce_test_fixture_start_with_rate (&f, new_element (el, NULL), "GRAY8", 64,
      48, "25/1");
  fail_unless_equals_uint64 (gst_harness_query_latency (f.h),
      ce_test_runs_on_cuda (f.element) ?
      CE_TEST_FRAMES_HELD * 40 * GST_MSECOND : 0);
  ce_test_fixture_stop (&f);

  /* Without a frame rate nothing is held back. */
  ce_test_fixture_start_with_rate (&f, new_element (el, NULL), "GRAY8", 64,
      48, "0/1");
  fail_unless_equals_uint64 (gst_harness_query_latency (f.h), 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_flush_mid_stream_then_more_buffers)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstVideoInfo info;
  GstSegment segment;
  GstBuffer *out;
  guint8 *expected[3];
  guint i, before = 0;

  ce_test_fixture_start (&f, new_element (el, NULL), "RGBx", 40, 30);
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (f.h,
            ce_test_random_frame ("RGBx", 40, 30, 10 + i, &info)),
        GST_FLOW_OK);
  while ((out = gst_harness_try_pull (f.h)) != NULL) {
    before++;
    gst_buffer_unref (out);
  }
  fail_unless (before >= 3 - CE_TEST_FRAMES_HELD,
      "only %u outputs before the flush", before);

  /* Frames still in flight are dropped, not pushed after the flush. */
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (f.h, gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&segment, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_segment (&segment)));

  for (i = 0; i < 3; i++) {
    GstBuffer *in = ce_test_random_frame ("RGBx", 40, 30, 20 + i, &info);

    expected[i] = expected_output (el, in, &info);
    fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  for (i = 0; i < 3; i++) {
    out = gst_harness_pull (f.h);
    fail_unless (out != NULL);
    assert_output (el, out, "RGBx", expected[i], 40, 30);
    gst_buffer_unref (out);
    g_free (expected[i]);
  }
  fail_unless (gst_harness_try_pull (f.h) == NULL);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_eos_passes)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstEvent *ev;
  gboolean seen = FALSE;

  ce_test_fixture_start (&f, new_element (el, NULL), "GRAY8", 16, 16);
  push_and_compare (el, &f, "GRAY8", 16, 16, 3);
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

/* Frames still in flight at EOS that cannot be pushed (downstream
 * unlinked) are an error on the bus, not a silent loss; with nothing in
 * flight (the CPU) EOS passes quietly. */
GST_START_TEST (test_eos_with_frames_held_and_no_peer_is_an_error)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstVideoInfo info;
  GstBuffer *buf;
  GstPad *src;
  GstMessage *msg;
  guint i, out = 0;

  ce_test_fixture_start (&f, new_element (el, NULL), "GRAY8", 16, 16);
  for (i = 0; i < CE_TEST_FRAMES_HELD + 1; i++)
    fail_unless_equals_int (gst_harness_push (f.h,
            ce_test_random_frame ("GRAY8", 16, 16, 30 + i, &info)),
        GST_FLOW_OK);
  while ((buf = gst_harness_try_pull (f.h)) != NULL) {
    gst_buffer_unref (buf);
    out++;
  }
  src = gst_element_get_static_pad (f.element, "src");
  fail_unless (gst_pad_unlink (src, f.h->sinkpad));
  gst_object_unref (src);
  gst_harness_push_event (f.h, gst_event_new_eos ());

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  if (out == CE_TEST_FRAMES_HELD + 1) {
    fail_unless (msg == NULL, "an error with nothing in flight");
  } else {
    GError *err = NULL;
    gchar *debug = NULL;

    fail_unless (msg != NULL, "%u frames lost at EOS without an error",
        CE_TEST_FRAMES_HELD + 1 - out);
    gst_message_parse_error (msg, &err, &debug);
    fail_unless (g_error_matches (err, GST_STREAM_ERROR,
            GST_STREAM_ERROR_FAILED), "error: %s", err->message);
    fail_unless (debug && strstr (debug, "not-linked"), "debug: %s", debug);
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
  }
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- negotiation ---- */

/* cudaedge: GRAY8 of the same size; cudaupscale: the same format at twice
 * the size.  Frame rate and pixel aspect ratio pass through. */
/* Input caps that leave out the pixel aspect ratio and the interlace
 * mode mean 1/1 and progressive; downstream listing other values first
 * does not change that (cudaupscale refused such input as interlaced). */
GST_START_TEST (test_missing_fields_fixate_to_their_defaults)
{
  /* Input caps unfixed (no frame rate: GstBaseTransform asks downstream
   * and fixates) and fixed (whose output is fixed at once, so the
   * defaults must be said in it for downstream to accept it). */
  static const gchar *const rates[] = { "", ",framerate=30/1" };
  const Element *el = ELEMENT;
  guint r;

  for (r = 0; r < G_N_ELEMENTS (rates); r++) {
    CeTestFixture f;
    GstVideoInfo info;
    GstCaps *caps;
    GstStructure *s;
    GstBuffer *out;
    gint n = 0, d = 0;
    gchar *src;

    f.element = new_element (el, "cpu");
    f.bus = gst_bus_new ();
    gst_element_set_bus (f.element, f.bus);
    f.h = gst_harness_new_with_element (f.element, "sink", "src");
    gst_harness_set_sink_caps_str (f.h, "video/x-raw,"
        "interlace-mode={ interleaved, progressive },"
        "pixel-aspect-ratio=[ 1/10, 10/1 ],"
        "multiview-mode={ row-interleaved, mono }");
    src = g_strdup_printf ("video/x-raw,format=%s,width=8,height=8%s",
        el->format, rates[r]);
    gst_harness_set_src_caps_str (f.h, src);
    out = gst_harness_push_and_pull (f.h,
        ce_test_random_frame (el->format, 8, 8, 3, &info));
    fail_unless (out != NULL, "%s: no output", src);
    gst_buffer_unref (out);
    caps = gst_pad_get_current_caps (f.h->sinkpad);
    fail_unless (caps != NULL);
    s = gst_caps_get_structure (caps, 0);
    fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n,
            &d));
    fail_unless (n == 1 && d == 1, "pixel-aspect-ratio %d/%d", n, d);
    fail_unless_equals_string (gst_structure_get_string (s,
            "interlace-mode"), "progressive");
    fail_unless_equals_string (gst_structure_get_string (s,
            "multiview-mode"), "mono");
    gst_caps_unref (caps);
    g_free (src);
    ce_test_fixture_stop (&f);
  }
}

GST_END_TEST;

/* A @width x @height frame of @el's format pushed into a new @el on
 * @backend with input caps @src (which must describe such frames) is not
 * negotiated, and nothing comes out. */
static void
assert_push_not_negotiated (const Element * el, const gchar * backend,
    const gchar * src, gint width, gint height)
{
  CeTestFixture f;
  GstVideoInfo info;

  f.element = new_element (el, backend);
  f.bus = gst_bus_new ();
  gst_element_set_bus (f.element, f.bus);
  f.h = gst_harness_new_with_element (f.element, "sink", "src");
  gst_harness_set_src_caps_str (f.h, src);
  fail_unless_equals_int (gst_harness_push (f.h,
          ce_test_random_frame (el->format, width, height, 1, &info)),
      GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 0);
  ce_test_fixture_stop (&f);
}

/* Multiview frames whose views lie in separate memories (of which only
 * the first would be worked on) are not negotiated. */
GST_START_TEST (test_separate_views_are_not_negotiated)
{
  const Element *el = ELEMENT;
  gchar *src = g_strdup_printf ("video/x-raw,format=%s,width=8,height=8,"
      "framerate=25/1,multiview-mode=separated,views=2", el->format);

  assert_push_not_negotiated (el, "cpu", src, 8, 8);
  g_free (src);
}

GST_END_TEST;

/* CUDA-memory input where the element cannot take it - the CPU backend,
 * no GPU, the emulated device of the tests (no GstCudaContext there) - is
 * not negotiated: a flow return, not an abort in GStreamer's CUDA library,
 * whose calls abort when it is not loaded.  With a GPU, the CUDA-memory
 * suite tests what the element does with such input. */
GST_START_TEST (test_cuda_memory_refused_where_unusable)
{
  const Element *el = ELEMENT;
  const gchar *backends[] = { "cpu", "auto", "cuda" };
  gboolean gpu = ce_test_have_cuda_device () && !ce_cuda_fake_device ();
  guint b;

  for (b = 0; b < G_N_ELEMENTS (backends); b++) {
    gchar *src;

    if (b > 0 && gpu)
      break;
    if (g_str_equal (backends[b], "cuda") && !ce_test_have_cuda_device ())
      break;
    src = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=%s,"
        "width=32,height=16,framerate=30/1", el->format);
    assert_push_not_negotiated (el, backends[b], src, 32, 16);
    g_free (src);
  }
}

GST_END_TEST;

static gboolean
refuse_event (G_GNUC_UNUSED GstPad * pad, G_GNUC_UNUSED GstObject * parent,
    GstEvent * event)
{
  gst_event_unref (event);
  return FALSE;
}

/* A QOS event gets upstream's answer, with frames in flight (CUDA, a
 * frame rate) as without. */
GST_START_TEST (test_qos_event_returns_upstream_answer)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstVideoInfo info;
  guint i;

  ce_test_fixture_start_with_rate (&f, new_element (el, NULL), el->format,
      32, 24, "30/1");
  for (i = 0; i < 2; i++) {
    GstBuffer *in = ce_test_random_frame (el->format, 32, 24, i, &info);

    GST_BUFFER_PTS (in) = i * 33 * GST_MSECOND;
    fail_unless_equals_int (gst_harness_push (f.h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_upstream_event (f.h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 0.9, 0, 0)));
  gst_pad_set_event_function (f.h->srcpad, refuse_event);
  fail_if (gst_harness_push_upstream_event (f.h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 0.9, 0, 0)));
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_output_caps_keep_rate_and_par)
{
  const Element *el = ELEMENT;
  const gchar *format = el->caps_format;
  CeTestFixture f;
  GstCaps *caps, *want;
  GstVideoInfo info;
  gchar *str;

  ce_test_fixture_start (&f, new_element (el, NULL), format, 64, 36);
  str = g_strdup_printf ("video/x-raw,format=%s,width=64,height=36,"
      "framerate=25/2,pixel-aspect-ratio=4/3", format);
  gst_harness_set_src_caps_str (f.h, str);
  g_free (str);
  gst_buffer_unref (ce_test_push_and_pull (f.h,
          ce_test_random_frame (format, 64, 36, 1, &info)));
  caps = gst_pad_get_current_caps (f.h->sinkpad);
  str = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/2,pixel-aspect-ratio=4/3", output_format (el,
          format), el->scale * 64, el->scale * 36);
  want = gst_caps_from_string (str);
  fail_unless (gst_caps_is_subset (caps, want), "got %" GST_PTR_FORMAT
      ", expected %s", caps, str);
  g_free (str);
  gst_caps_unref (caps);
  gst_caps_unref (want);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation_to_another_size_and_format)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  const Stream *s = el->renegotiation;
  guint i;

  ce_test_fixture_start (&f, new_element (el, NULL), s[0].format, s[0].width,
      s[0].height);
  for (i = 0; i < G_N_ELEMENTS (el->renegotiation); i++) {
    GstCaps *caps;
    gint w = 0, h = 0;

    if (i > 0) {
      gchar *str = ce_test_caps_string (s[i].format, s[i].width, s[i].height);

      gst_harness_set_src_caps_str (f.h, str);
      g_free (str);
    }
    push_and_compare (el, &f, s[i].format, s[i].width, s[i].height, 1 + i);
    caps = gst_pad_get_current_caps (f.h->sinkpad);
    gst_structure_get_int (gst_caps_get_structure (caps, 0), "width", &w);
    gst_structure_get_int (gst_caps_get_structure (caps, 0), "height", &h);
    fail_unless_equals_int (w, el->scale * s[i].width);
    fail_unless_equals_int (h, el->scale * s[i].height);
    gst_caps_unref (caps);
  }
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* The caps (size and format) change three times while the frames pushed
 * before are still in flight (on CUDA: nothing is pulled until EOS):
 * every output equals, byte for byte, the reference of its input at its
 * own size and format, and keeps its input's metadata.  Sizes are odd,
 * and every other input has padded rows described by its video meta. */
GST_START_TEST (test_caps_change_with_frames_in_flight)
{
  const Element *el = ELEMENT;
  const Stream *s = el->in_flight;
  const guint per_stream = 3;
  CeTestFixture f;
  CeTestQueue *q;
  guint i, k, n = 0;

  ce_test_fixture_start (&f, new_element (el, NULL), s[0].format, s[0].width,
      s[0].height);
  q = ce_test_queue_new (f.h);
  for (i = 0; i < G_N_ELEMENTS (el->in_flight); i++) {
    if (i > 0) {
      gchar *caps = ce_test_caps_string (s[i].format, s[i].width,
          s[i].height);

      gst_harness_set_src_caps_str (f.h, caps);
      g_free (caps);
    }
    for (k = 0; k < per_stream; k++, n++) {
      GstVideoInfo info;
      GstBuffer *in = n % 2 ? ce_test_random_frame_padded (s[i].format,
          s[i].width, s[i].height, 11 + 2 * i, 500 + n, &info) :
          ce_test_random_frame (s[i].format, s[i].width, s[i].height,
          500 + n, &info);

      ce_test_queue_push (q, in, &info, el->reference, NULL,
          el->output_format, el->scale);
    }
  }
  ce_test_queue_finish (q);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), n);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- input validation ---- */

/* An allocator that never gives memory, proposed downstream. */
typedef struct
{
  GstAllocator parent;
} CeFailingAllocator;
typedef struct
{
  GstAllocatorClass parent_class;
} CeFailingAllocatorClass;

G_DEFINE_TYPE (CeFailingAllocator, ce_failing_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
ce_failing_allocator_alloc (G_GNUC_UNUSED GstAllocator * allocator,
    G_GNUC_UNUSED gsize size, G_GNUC_UNUSED GstAllocationParams * params)
{
  return NULL;
}

static void
ce_failing_allocator_free (G_GNUC_UNUSED GstAllocator * allocator,
    G_GNUC_UNUSED GstMemory * memory)
{
  g_assert_not_reached ();
}

static void
ce_failing_allocator_class_init (CeFailingAllocatorClass * klass)
{
  GST_ALLOCATOR_CLASS (klass)->alloc = ce_failing_allocator_alloc;
  GST_ALLOCATOR_CLASS (klass)->free = ce_failing_allocator_free;
}

static void
ce_failing_allocator_init (CeFailingAllocator * self)
{
  GST_ALLOCATOR (self)->mem_type = "CeFailingMemory";
}

/* On the CPU backend the output pool takes downstream's allocator: when
 * it gives nothing, the push fails with an error on the bus that says
 * so, not only a flow return. */
GST_START_TEST (test_output_allocation_failure_is_an_error)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;

  ce_test_fixture_start (&f, new_element (el, "cpu"), el->format, 32, 24);
  /* The caps are set, allocation decided: downstream asks again. */
  gst_harness_set_propose_allocator (f.h,
      g_object_new (ce_failing_allocator_get_type (), NULL), NULL);
  fail_unless (gst_harness_push_upstream_event (f.h,
          gst_event_new_reconfigure ()));
  fail_unless_equals_int (gst_harness_push (f.h,
          ce_test_random_frame (el->format, 32, 24, 1, &info)),
      GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s", err->message);
  fail_unless (strstr (err->message, "output buffer") != NULL, "%s",
      err->message);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* Downstream's pool size with room past the frame, set on its answer to
 * the ALLOCATION query; *user_data gets the size asked. */
static GstPadProbeReturn
ask_for_room_past_the_frame (G_GNUC_UNUSED GstPad * pad,
    GstPadProbeInfo * info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  guint *asked = user_data;
  GstVideoInfo vinfo;
  GstCaps *caps;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&vinfo, caps))
    return GST_PAD_PROBE_OK;
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  *asked = GST_VIDEO_INFO_SIZE (&vinfo) + 4096;
  gst_query_add_allocation_pool (query, NULL, *asked, 0, 0);
  return GST_PAD_PROBE_OK;
}

/* A pool size downstream asks for, larger than the frame, is what each
 * output buffer gets (on every backend: the CUDA one's pinned pool too),
 * the frame in its first bytes. */
GST_START_TEST (test_downstream_pool_size_is_honoured)
{
  const Element *el = ELEMENT;
  GstElement *e = new_element (el, NULL);
  GstPad *src = gst_element_get_static_pad (e, "src");
  CeTestFixture f;
  GstVideoInfo info;
  GstBuffer *in, *out;
  guint8 *expected;
  guint asked = 0;

  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM
      | GST_PAD_PROBE_TYPE_PULL, ask_for_room_past_the_frame, &asked, NULL);
  gst_object_unref (src);
  ce_test_fixture_start (&f, e, el->format, 61, 47);
  in = ce_test_random_frame (el->format, 61, 47, 5, &info);
  expected = expected_output (el, in, &info);
  out = ce_test_push_and_pull (f.h, in);
  fail_unless (asked > 0, "no ALLOCATION query answered");
  fail_unless (gst_buffer_get_size (out) >= asked,
      "output of %" G_GSIZE_FORMAT " bytes where downstream asked for %u",
      gst_buffer_get_size (out), asked);
  assert_output (el, out, el->format, expected, 61, 47);
  g_free (expected);
  gst_buffer_unref (out);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_too_small_buffer_is_an_error)
{
  const Element *el = ELEMENT;
  CeTestFixture f;

  ce_test_fixture_start (&f, new_element (el, NULL), el->packed_format, 64,
      48);
  fail_unless_equals_int (gst_harness_push (f.h,
          gst_buffer_new_allocate (NULL, 64 * 48, NULL)), GST_FLOW_ERROR);
  assert_error_posted (f.bus, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_video_meta_outside_buffer_is_an_error)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstBuffer *in;
  gsize offset[GST_VIDEO_MAX_PLANES] = { 100, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 64, };

  ce_test_fixture_start (&f, new_element (el, NULL), "GRAY8", 64, 48);
  in = gst_buffer_new_allocate (NULL, 64 * 48, NULL);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_FORMAT_GRAY8, 64, 48, 1, offset, stride);
  ce_test_assert_push_rejected (&f, in);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- backends ---- */

GST_START_TEST (test_backend_cuda_errors_without_gpu_or_works_with_one)
{
  const Element *el = ELEMENT;
  GstElement *e = new_element (el, "cuda");

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

    ce_test_fixture_start (&f, e, el->format, 641, 481);
    push_and_compare (el, &f, el->format, 641, 481, 8);
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
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstStructure *s;

  ce_test_fixture_start (&f, new_element (el, "auto"), "GRAY8", 40, 30);
  push_and_compare (el, &f, "GRAY8", 40, 30, 4);
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

  ce_test_fixture_start (&f, new_element (ELEMENT, "cpu"), "GRAY8", 8, 8);
  /* Ignored while PLAYING (with a log warning). */
  gst_util_set_object_arg (G_OBJECT (f.element), "backend", "cuda");
  g_object_get (f.element, "backend", &backend, NULL);
  fail_unless_equals_int (backend, 2 /* cpu */ );
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_cuda_device_id_is_ready_only)
{
  CeTestFixture f;
  GstElement *e = new_element (ELEMENT, "cpu");
  gint id = -2;

  g_object_set (e, "cuda-device-id", 3, NULL);
  g_object_get (e, "cuda-device-id", &id, NULL);
  fail_unless_equals_int (id, 3);
  g_object_set (e, "cuda-device-id", -1, NULL);

  ce_test_fixture_start (&f, e, "GRAY8", 8, 8);
  g_object_set (f.element, "cuda-device-id", 3, NULL);
  g_object_get (f.element, "cuda-device-id", &id, NULL);
  fail_unless_equals_int (id, -1);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* backend=auto and a device that no machine has: a warning on the bus
 * that names it, then every frame on the CPU. */
GST_START_TEST (test_missing_device_with_auto_warns_and_runs_on_cpu)
{
  CeTestFixture f;
  GstElement *e = new_element (ELEMENT, "auto");
  GstMessage *msg;
  GstStructure *s;
  GError *err = NULL;
  GstVideoInfo info;
  gint i;

  g_object_set (e, "cuda-device-id", 32767, NULL);
  ce_test_fixture_start (&f, e, "GRAY8", 8, 8);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning for the missing device");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "CUDA device 32767") != NULL,
      "warning: %s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);

  for (i = 0; i < 3; i++)
    fail_unless_equals_int (gst_harness_push (f.h,
            ce_test_random_frame ("GRAY8", 8, 8, i, &info)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 3);
  s = ce_test_get_stats (f.element);
  fail_unless_equals_string (gst_structure_get_string (s, "backend"), "cpu");
  gst_structure_free (s);
  fail_if (gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR) != NULL);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

static GstBusSyncReply
set_n_threads_on_warning (G_GNUC_UNUSED GstBus * bus, GstMessage * msg,
    gpointer data)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    g_object_set (data, "n-threads", 3, NULL);
    g_object_set_data (G_OBJECT (data), "warned", GINT_TO_POINTER (1));
  }
  gst_message_unref (msg);      /* dropped: the handler's to free */
  return GST_BUS_DROP;
}

/* A start-only property set while the element starts (from READY to
 * PAUSED, after start read it: here from the warning start posts) is
 * refused, not accepted and never applied; after a start that failed it
 * is taken again. */
GST_START_TEST (test_ready_only_property_refused_while_starting)
{
  GstElement *e = new_element (ELEMENT, "auto");
  GstBus *bus = gst_bus_new ();
  guint n = 1;

  g_object_set (e, "cuda-device-id", 32767, NULL);
  gst_element_set_bus (e, bus);
  gst_bus_set_sync_handler (bus, set_n_threads_on_warning, e, NULL);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (g_object_get_data (G_OBJECT (e), "warned") != NULL,
      "no warning from start");
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 0);
  gst_element_set_state (e, GST_STATE_NULL);
  g_object_set (e, "n-threads", 3, NULL);
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 3);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);

  /* A start that fails (a device that no machine has, backend=cuda)
   * leaves the element in READY, where they can be changed again. */
  e = new_element (ELEMENT, "cuda");
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  g_object_set (e, "cuda-device-id", 32767, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  g_object_set (e, "n-threads", 2, NULL);
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 2);
  fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE, "backend=cpu after the failed start");
  gst_element_set_state (e, GST_STATE_NULL);
  gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- n-threads ---- */

GST_START_TEST (test_n_threads_property_is_uint_0_to_maxint_default_0)
{
  GstElement *e = ce_test_make_element (ELEMENT->factory);
  GParamSpec *pspec = ce_test_find_property (G_OBJECT (e), "n-threads");
  guint n = 1;

  fail_unless (G_IS_PARAM_SPEC_UINT (pspec));
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->minimum, 0);
  fail_unless_equals_uint64 (G_PARAM_SPEC_UINT (pspec)->maximum, G_MAXINT);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->default_value, 0);
  fail_unless (pspec->flags & G_PARAM_WRITABLE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY);
  fail_if (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 0);
  g_object_set (e, "n-threads", (guint) G_MAXINT, NULL);
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_uint64 (n, G_MAXINT);
  gst_object_unref (e);
}

GST_END_TEST;

/* Whether a line of @level containing @needle was logged. */
typedef struct
{
  GstDebugLevel level;
  gchar *needle;
  gboolean seen;
} LogWatch;

static void
watch_log (G_GNUC_UNUSED GstDebugCategory * category,
    GstDebugLevel level, G_GNUC_UNUSED const gchar * file,
    G_GNUC_UNUSED const gchar * function, G_GNUC_UNUSED gint line,
    G_GNUC_UNUSED GObject * object, GstDebugMessage * message,
    gpointer user_data)
{
  LogWatch *watch = user_data;
  const gchar *text = gst_debug_message_get (message);

  if (level == watch->level && text && strstr (text, watch->needle))
    watch->seen = TRUE;
}

static void
log_watch_start (LogWatch * watch, const gchar * category,
    GstDebugLevel level, gchar * needle)
{
  watch->level = level;
  watch->needle = needle;
  watch->seen = FALSE;
  gst_debug_set_threshold_for_name (category, level);
  gst_debug_add_log_function (watch_log, watch, NULL);
}

static gboolean
log_watch_stop (LogWatch * watch, const gchar * category)
{
  gst_debug_remove_log_function_by_data (watch);
  gst_debug_unset_threshold_for_name (category);
  g_free (watch->needle);
  return watch->seen;
}

GST_START_TEST (test_n_threads_is_ignored_with_a_warning_above_ready)
{
  CeTestFixture f;
  GstElement *e = new_element (ELEMENT, "cpu");
  LogWatch watch;
  guint n = 0;

  /* Taken in NULL and READY... */
  g_object_set (e, "n-threads", 3, NULL);
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 3);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (e, "n-threads", 2, NULL);
  g_object_get (e, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 2);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);

  /* ... ignored while PLAYING, with a warning in the log. */
  ce_test_fixture_start (&f, e, "GRAY8", 8, 8);
  log_watch_start (&watch, "cebasefilter", GST_LEVEL_WARNING,
      g_strdup ("'n-threads'"));
  g_object_set (f.element, "n-threads", 5, NULL);
  fail_unless (log_watch_stop (&watch, "cebasefilter"),
      "no warning for n-threads set while PLAYING");
  g_object_get (f.element, "n-threads", &n, NULL);
  fail_unless_equals_int (n, 2);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_n_threads_1_2_and_0_give_identical_output)
{
  const Element *el = ELEMENT;
  static const guint n_threads[] = { 1, 2, 0 };
  GstVideoInfo info;
  GstBuffer *in = ce_test_random_frame (el->format, 641, 481, 641, &info);
  guint8 *expected = expected_output (el, in, &info);
  guint i;

  /* On the CPU backend whatever the run's backend: frames are cut into
   * bands of rows, one per thread, and the seams must not show.  Each
   * output equals the one reference, so all are identical (the padding
   * of their rows aside). */
  for (i = 0; i < G_N_ELEMENTS (n_threads); i++) {
    CeTestFixture f;
    GstElement *e = new_element (el, "cpu");
    GstBuffer *out;
    LogWatch watch;

    /* The element says at start how many threads it got: 0 is one per
     * core. */
    g_object_set (e, "n-threads", n_threads[i], NULL);
    log_watch_start (&watch, el->factory, GST_LEVEL_INFO,
        g_strdup_printf ("on %u threads", n_threads[i] ? n_threads[i] :
            g_get_num_processors ()));
    ce_test_fixture_start (&f, e, el->format, 641, 481);
    fail_unless (log_watch_stop (&watch, el->factory),
        "n-threads=%u: not on the threads asked for", n_threads[i]);
    out = ce_test_push_and_pull (f.h, gst_buffer_ref (in));
    assert_output (el, out, el->format, expected, 641, 481);
    gst_buffer_unref (out);
    ce_test_fixture_stop (&f);
  }
  gst_buffer_unref (in);
  g_free (expected);
}

GST_END_TEST;

/* ---- check ---- */

GST_START_TEST (test_check_interval_counts_checked_frames)
{
  const Element *el = ELEMENT;
  const gchar *format = el->interval_format;
  CeTestFixture f;
  GstElement *e = new_element (el, NULL);
  GstFlowReturn ret;

  /* On the CPU nothing independent is compared, so nothing counts as
   * checked; the GPU checks frames 0, 3, 6. */
  g_object_set (e, "check", TRUE, "check-interval", 3, NULL);
  ce_test_fixture_start (&f, e, format, 24, 24);
  ce_test_push_frames (&f, format, 24, 24, 7, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 7);
  assert_check_counts (f.element, runs_on_cpu ()? 0 : 3, 0);
  fail_if (gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT |
          GST_MESSAGE_WARNING | GST_MESSAGE_ERROR) != NULL,
      "unexpected check message");
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

#ifdef CE_TEST_HOOKS

/* Starts @e with the test hook @env set to @frame: the plugin reads it at
 * start, so it is unset again at once. */
static void
start_with_hook (CeTestFixture * f, GstElement * e, const gchar * env,
    const gchar * frame, const gchar * format, gint width, gint height,
    const gchar * rate)
{
  g_setenv (env, frame, TRUE);
  ce_test_fixture_start_with_rate (f, e, format, width, height, rate);
  g_unsetenv (env);
}

/* With the corrupt-frame hook set (to a frame never reached), the CPU
 * compares against a second reference too, every check-interval frames. */
GST_START_TEST (test_check_interval_with_the_hook_checks_on_the_cpu_too)
{
  const Element *el = ELEMENT;
  const gchar *format = el->interval_format;
  CeTestFixture f;
  GstElement *e = new_element (el, NULL);
  GstFlowReturn ret;

  g_object_set (e, "check", TRUE, "check-interval", 3, NULL);
  start_with_hook (&f, e, el->corrupt_env, "1000", format, 24, 24, "30/1");
  ce_test_push_frames (&f, format, 24, 24, 7, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 7);
  assert_check_counts (f.element, 3, 0);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_check_mismatch_posts_message_and_warning)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstElement *e = new_element (el, NULL);
  GstFlowReturn ret;
  GstMessage *msg;
  const GstStructure *s;
  guint64 frame = 0, mismatches = 0;
  gint x = -1, y = -1, expected = -1, got = -1;
  GstVideoInfo info;
  GstBuffer *frame1;
  guint8 *ref;

  g_object_set (e, "check", TRUE, NULL);
  start_with_hook (&f, e, el->corrupt_env, "1", "RGBA", 48, 32, "30/1");

  ce_test_push_frames (&f, "RGBA", 48, 32, 3, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 3);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL, "no %s message", el->check_message);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_has_name (s, el->check_message));
  fail_unless (gst_structure_get (s, "frame", G_TYPE_UINT64, &frame,
          "mismatches", G_TYPE_UINT64, &mismatches, "x", G_TYPE_INT, &x,
          "y", G_TYPE_INT, &y, "expected", G_TYPE_INT, &expected,
          "got", G_TYPE_INT, &got, NULL));
  /* The hook flips the last byte of pixel (W - 1, 0) and the first of
   * pixel (0, H - 1): two pixels, the first one reported, its alpha. */
  fail_unless_equals_uint64 (frame, 1);
  fail_unless_equals_uint64 (mismatches, 2);
  fail_unless_equals_int (x, el->scale * 48 - 1);
  fail_unless_equals_int (y, 0);

  /* Frame 1 is the second of ce_test_push_frames: seed 41. */
  frame1 = ce_test_random_frame ("RGBA", 48, 32, 41, &info);
  ref = expected_output (el, frame1, &info);
  {
    const GstVideoFormatInfo *fi = gst_video_format_get_info
        (gst_video_format_from_string (output_format (el, "RGBA")));
    const gint at = GST_VIDEO_FORMAT_INFO_PSTRIDE (fi, 0) * el->scale * 48 - 1;

    fail_unless_equals_int (expected, ref[at]);
    fail_unless_equals_int (got, ref[at] ^ 0xff);
  }
  g_free (ref);
  gst_buffer_unref (frame1);
  gst_message_unref (msg);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning");
  gst_message_unref (msg);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_if (msg != NULL, "check-fail=warn posted an error");

  assert_check_counts (f.element, 3, 2);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* A restart numbers frames from 0 again: the hook's frame 0 is corrupted,
 * and reported, in each run. */
GST_START_TEST (test_a_restart_numbers_frames_from_zero)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstElement *e = new_element (el, NULL);
  GstFlowReturn ret;
  gint run;

  g_object_set (e, "check", TRUE, NULL);
  g_setenv (el->corrupt_env, "0", TRUE);
  ce_test_fixture_start_with_rate (&f, e, "RGBA", 24, 24, "30/1");
  for (run = 0; run < 2; run++) {
    GstMessage *msg;
    guint64 frame = G_MAXUINT64;

    if (run == 1) {
      gchar *caps = ce_test_caps_string_with_rate ("RGBA", 24, 24, "30/1");
      GstSegment segment;

      fail_unless_equals_int (gst_element_set_state (f.element,
              GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
      fail_unless (gst_element_set_state (f.element, GST_STATE_PLAYING)
          != GST_STATE_CHANGE_FAILURE);
      gst_harness_push_event (f.h, gst_event_new_stream_start ("restart"));
      gst_harness_set_src_caps_str (f.h, caps);
      gst_segment_init (&segment, GST_FORMAT_TIME);
      gst_harness_push_event (f.h, gst_event_new_segment (&segment));
      g_free (caps);
    }
    ce_test_push_frames (&f, "RGBA", 24, 24, 2, &ret);
    fail_unless_equals_int (ret, GST_FLOW_OK);
    ce_test_drain (f.h);
    msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT);
    fail_unless (msg != NULL, "run %d: no %s message", run,
        el->check_message);
    fail_unless (gst_structure_get_uint64 (gst_message_get_structure (msg),
            "frame", &frame));
    fail_unless_equals_uint64 (frame, 0);
    gst_message_unref (msg);
  }
  g_unsetenv (el->corrupt_env);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

GST_START_TEST (test_check_fail_error_posts_error)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstElement *e = new_element (el, NULL);
  GstFlowReturn ret;
  GstMessage *msg;

  gst_util_set_object_arg (G_OBJECT (e), "check-fail", "error");
  g_object_set (e, "check", TRUE, NULL);
  start_with_hook (&f, e, el->corrupt_env, "2", "GRAY8", 20, 20, "30/1");

  /* Frame 2 is finished, and fails, once the frames held behind it are
   * in. */
  ce_test_push_frames (&f, "GRAY8", 20, 20, 3 + CE_TEST_FRAMES_HELD, &ret);
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 2);

  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ELEMENT);
  fail_unless (msg != NULL);
  fail_unless (gst_message_has_name (msg, el->check_message));
  gst_message_unref (msg);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error");
  gst_message_unref (msg);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* On CUDA the failing frame may still be in flight when an event comes:
 * the drain before the event meets the error, posts it, and the next
 * input is refused with it, as the failing push itself would be.  (On
 * the CPU the failing push returns the error.) */
GST_START_TEST (test_check_error_met_while_draining_stops_the_stream)
{
  const Element *el = ELEMENT;
  CeTestFixture f;
  GstElement *e = new_element (el, NULL);
  GstFlowReturn ret;
  GstMessage *msg;
  GstVideoInfo info;

  gst_util_set_object_arg (G_OBJECT (e), "check-fail", "error");
  g_object_set (e, "check", TRUE, NULL);
  start_with_hook (&f, e, el->corrupt_env, "2", "GRAY8", 20, 20, "30/1");
  ce_test_push_frames (&f, "GRAY8", 20, 20, 3, &ret);
  if (ret == GST_FLOW_OK) {
    fail_unless (ce_test_runs_on_cuda (f.element));
    fail_unless (gst_harness_push_event (f.h,
            gst_event_new_tag (gst_tag_list_new_empty ())));
    fail_unless_equals_int (gst_harness_buffers_received (f.h), 2);
    ret = gst_harness_push (f.h, ce_test_random_frame ("GRAY8", 20, 20, 9,
            &info));
  }
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 2);
  msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error");
  gst_message_unref (msg);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* ---- GPU failure mid-stream (CUDA only) ---- */

/* Frame 3 of 8 fails on the GPU (the core's test hook), at @rate, on
 * frames of @width x @height. */
static void
check_cuda_failure_at_frame_3 (const Element * el, const gchar * backend,
    const gchar * rate, gint width, gint height)
{
  CeTestFixture f;
  GstElement *e = new_element (el, backend);
  GstVideoInfo info;
  GstMessage *msg;
  GstFlowReturn ret = GST_FLOW_OK;
  GstStructure *s;
  CeTestMeta meta[8];
  guint8 *expected[8];
  gchar *what = g_strdup_printf ("%s backend=%s %s %dx%d at %s", el->factory,
      backend, el->format, width, height, rate);
  guint i, n_in, n_out;

  start_with_hook (&f, e, el->cuda_fail_env, "3", el->format, width, height,
      rate);
  fail_unless (ce_test_runs_on_cuda (f.element));

  for (i = 0; i < 8 && ret == GST_FLOW_OK; i++) {
    GstBuffer *in = ce_test_random_frame (el->format, width, height, 60 + i,
        &info);

    expected[i] = expected_output (el, in, &info);
    ce_test_meta_for_frame (&meta[i], i);
    ce_test_set_meta (in, &meta[i]);
    ret = gst_harness_push (f.h, in);
  }
  n_in = i;

  if (g_str_equal (backend, "cuda")) {
    /* No fallback: the stream fails at frame 3; the frames before it that
     * came out are whole. */
    fail_unless_equals_int (ret, GST_FLOW_ERROR);
    msg = gst_bus_pop_filtered (f.bus, GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "backend=cuda posted no error");
    gst_message_unref (msg);
    n_out = gst_harness_buffers_received (f.h);
    fail_unless (n_out <= 3, "%s: %u outputs", what, n_out);
    for (i = 0; i < n_out; i++) {
      GstBuffer *out = gst_harness_pull (f.h);

      ce_test_assert_meta (out, &meta[i], what, i);
      assert_output (el, out, el->format, expected[i], width, height);
      gst_buffer_unref (out);
    }
    fail_unless (gst_harness_try_pull (f.h) == NULL);
    for (i = 0; i < n_in; i++)
      g_free (expected[i]);
    g_free (what);
    ce_test_fixture_stop (&f);
    return;
  }

  /* backend=auto: a warning, then the CPU; every frame out, in order,
   * with its metadata, and nothing more. */
  fail_unless_equals_int (ret, GST_FLOW_OK);
  fail_unless (gst_harness_push_event (f.h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (f.h), 8);
  for (i = 0; i < 8; i++) {
    GstBuffer *out = gst_harness_pull (f.h);

    ce_test_assert_meta (out, &meta[i], what, i);
    assert_output (el, out, el->format, expected[i], width, height);
    gst_buffer_unref (out);
    g_free (expected[i]);
  }
  fail_unless (gst_harness_try_pull (f.h) == NULL, "%s: more than 8 outputs",
      what);
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
  g_free (what);
  ce_test_fixture_stop (&f);
}

GST_START_TEST (test_cuda_failure_falls_back_to_cpu_without_losing_frames)
{
  if (skip_without_cuda (ELEMENT, G_STRFUNC))
    return;
  check_cuda_failure_at_frame_3 (ELEMENT, "auto", "25/1", 96, 64);
  check_cuda_failure_at_frame_3 (ELEMENT, "auto", "0/1", 96, 64);
  check_cuda_failure_at_frame_3 (ELEMENT, "auto", "25/1", 613, 611);
  check_cuda_failure_at_frame_3 (ELEMENT, "auto", "0/1", 33, 17);
}

GST_END_TEST;

GST_START_TEST (test_cuda_failure_with_backend_cuda_is_an_error)
{
  if (skip_without_cuda (ELEMENT, G_STRFUNC))
    return;
  check_cuda_failure_at_frame_3 (ELEMENT, "cuda", "25/1", 96, 64);
  check_cuda_failure_at_frame_3 (ELEMENT, "cuda", "0/1", 96, 64);
  check_cuda_failure_at_frame_3 (ELEMENT, "cuda", "25/1", 613, 611);
}

GST_END_TEST;

#endif /* CE_TEST_HOOKS */

/* ---- stats and introspection ---- */

GST_START_TEST (test_stats_fields_present_and_counting)
{
  const Element *el = ELEMENT;
  const gchar *format = el->stats_format;
  CeTestFixture f;
  GstStructure *s;
  GstFlowReturn ret;
  const gchar *backend, *device;
  gdouble up = -1, kern = -1, down = -1;
  guint64 frames = 0;

  ce_test_fixture_start (&f, new_element (el, NULL), format, 64, 64);
  ce_test_push_frames (&f, format, 64, 64, 5, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);

  s = ce_test_get_stats (f.element);
  fail_unless (gst_structure_has_name (s, el->stats_name));
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
    gdouble cpu = -1;

    fail_unless_equals_string (device, "cpu");
    fail_if (g_str_equal (ce_test_backend (), "cuda"));
    /* every frame ran on the CPU, and took some time */
    fail_unless (gst_structure_get_double (s, "cpu-us", &cpu));
    fail_unless (cpu > 0, "cpu-us %g after 5 CPU frames", cpu);
  } else {
    fail_unless_equals_string (backend, "cuda");
    fail_unless (*device != '\0');
  }
  gst_structure_free (s);

  ce_test_push_frames (&f, format, 64, 64, 2, &ret);
  fail_unless_equals_int (ret, GST_FLOW_OK);
  ce_test_drain (f.h);
  fail_unless_equals_uint64 (ce_test_stats_u64 (f.element, "frames"), 7);
  ce_test_fixture_stop (&f);
}

GST_END_TEST;

/* The properties of the base class; n-threads has a case of its own. */
GST_START_TEST (test_property_introspection)
{
  GstElement *e = ce_test_make_element (ELEMENT->factory);
  GObject *o = G_OBJECT (e);
  GParamSpec *pspec;
  static const gchar *const backends[] = { "auto", "cuda", "cpu", NULL };
  static const gchar *const fails[] = { "warn", "error", NULL };

  pspec = ce_test_find_property (o, "check");
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  pspec = ce_test_find_property (o, "check-interval");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (pspec)->default_value, 1);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  pspec = ce_test_find_property (o, "cuda-device-id");
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, -1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->default_value, -1);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY);

  ce_test_assert_enum_property (o, "check-fail", "warn", fails,
      GST_PARAM_MUTABLE_PLAYING);
  ce_test_assert_enum_property (o, "backend", "auto", backends,
      GST_PARAM_MUTABLE_READY);

  pspec = ce_test_find_property (o, "stats");
  fail_unless (G_PARAM_SPEC_VALUE_TYPE (pspec) == GST_TYPE_STRUCTURE);
  fail_if (pspec->flags & G_PARAM_WRITABLE);

  gst_object_unref (e);
}

GST_END_TEST;

/* The plugin reports the package it was configured with (meson options
 * package-name and package-origin), its version and licence. */
GST_START_TEST (test_plugin_reports_its_package)
{
  GstElement *e = ce_test_make_element (ELEMENT->factory);
  GstPlugin *plugin = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE
      (gst_element_get_factory (e)));

  fail_unless (plugin != NULL);
  fail_unless_equals_string (gst_plugin_get_name (plugin), "cudaedge");
  /* The options as given, from the environment (tests/check/meson.build):
   * what the build escaped into the plugin must read back the same. */
  fail_unless (g_getenv ("CE_EXPECT_PACKAGE_NAME") != NULL);
  fail_unless (g_getenv ("CE_EXPECT_PACKAGE_ORIGIN") != NULL);
  fail_unless_equals_string (gst_plugin_get_package (plugin),
      g_getenv ("CE_EXPECT_PACKAGE_NAME"));
  fail_unless_equals_string (gst_plugin_get_origin (plugin),
      g_getenv ("CE_EXPECT_PACKAGE_ORIGIN"));
  fail_unless_equals_string (gst_plugin_get_version (plugin),
      CE_EXPECT_VERSION);
  fail_unless_equals_string (gst_plugin_get_license (plugin), "LGPL");
  fail_unless_equals_string (gst_plugin_get_source (plugin), "gst-cudaedge");
  gst_object_unref (plugin);
  gst_object_unref (e);
}

GST_END_TEST;

/* ---- the suite ---- */

/* The cases that set a test hook, named once: registered with test hooks,
 * listed as left out without. */
#define HOOK_CASES(X) \
  X (test_check_interval_with_the_hook_checks_on_the_cpu_too) \
  X (test_check_mismatch_posts_message_and_warning) \
  X (test_a_restart_numbers_frames_from_zero) \
  X (test_check_fail_error_posts_error) \
  X (test_check_error_met_while_draining_stops_the_stream) \
  X (test_cuda_failure_falls_back_to_cpu_without_losing_frames) \
  X (test_cuda_failure_with_backend_cuda_is_an_error)

static Suite *
elements_suite (void)
{
  Suite *s = suite_create ("elements");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    TCase *tc = tcase_create (elements[i].factory);

#define ADD(test) tcase_add_loop_test (tc, test, i, i + 1)
#define ADD_CASE(test) ADD (test);
    suite_add_tcase (s, tc);
    tcase_add_checked_fixture (tc, NULL, clear_test_hooks);
    ADD (test_n_buffers_in_n_out_with_metadata);
    ADD (test_n_buffers_in_n_out_without_framerate);
    ADD (test_geometry_metadata_follows_the_picture);
    ADD (test_latency_is_the_frames_held_when_pipelined);
    ADD (test_flush_mid_stream_then_more_buffers);
    ADD (test_eos_passes);
    ADD (test_eos_with_frames_held_and_no_peer_is_an_error);
    ADD (test_output_caps_keep_rate_and_par);
    ADD (test_missing_fields_fixate_to_their_defaults);
    ADD (test_separate_views_are_not_negotiated);
    ADD (test_cuda_memory_refused_where_unusable);
    ADD (test_qos_event_returns_upstream_answer);
    ADD (test_renegotiation_to_another_size_and_format);
    ADD (test_caps_change_with_frames_in_flight);
    ADD (test_too_small_buffer_is_an_error);
    ADD (test_output_allocation_failure_is_an_error);
    ADD (test_downstream_pool_size_is_honoured);
    ADD (test_video_meta_outside_buffer_is_an_error);
    ADD (test_backend_cuda_errors_without_gpu_or_works_with_one);
    ADD (test_backend_auto_picks_cuda_or_falls_back_to_cpu);
    ADD (test_backend_is_ready_only);
    ADD (test_cuda_device_id_is_ready_only);
    ADD (test_missing_device_with_auto_warns_and_runs_on_cpu);
    ADD (test_ready_only_property_refused_while_starting);
    ADD (test_n_threads_property_is_uint_0_to_maxint_default_0);
    ADD (test_n_threads_is_ignored_with_a_warning_above_ready);
    ADD (test_n_threads_1_2_and_0_give_identical_output);
    ADD (test_check_interval_counts_checked_frames);
#ifdef CE_TEST_HOOKS
    HOOK_CASES (ADD_CASE)
#endif
    ADD (test_stats_fields_present_and_counting);
    ADD (test_property_introspection);
    ADD (test_plugin_reports_its_package);
#undef ADD_CASE
#undef ADD
  }
  return s;
}

int
main (int argc, char **argv)
{
#ifndef CE_TEST_HOOKS
#define NAME(test) "\n  " #test
  g_print ("NOTE: built without -Dtest-hooks=true: these cases need the "
      "plugin's test hooks and are LEFT OUT, for each element:"
      HOOK_CASES (NAME) "\nconfigure with -Dtest-hooks=true to run them\n");
#undef NAME
#endif
  return ce_test_main (argc, argv, "elements", elements_suite, __FILE__);
}
