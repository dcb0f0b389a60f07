/* gst-cudaedge: helpers shared by the GstHarness tests of the elements
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
 * What the element tests all need: the backend choice, the harness
 * fixture, frames, the core's CPU references of both elements, properties
 * and the element's stats.  What only one element does (its known
 * answers, its options, its negotiation) stays in that element's file.
 */

#include <stdlib.h>
#include <string.h>

#include "ce-check-util.h"

#include "cudaedge-core.h"
#include "cudaedge-testing.h"

/* ---- backend ---- */

/* The backend named by CUDAEDGE_TEST_BACKEND; "cpu" when unset, so that a
 * plain run never needs a GPU. */
const gchar *
ce_test_backend (void)
{
  const gchar *b = g_getenv ("CUDAEDGE_TEST_BACKEND");

  return (b && *b) ? b : "cpu";
}

gboolean
ce_test_have_cuda_device (void)
{
  int count = 0;

  return ce_cuda_device_count (&count) == CE_STATUS_OK && count > 0;
}

/* Cases that ce_test_skip_without_cuda () skipped, for ce_test_main ()
 * (counted in this process: the tests run with CK_FORK=no). */
static guint n_skipped;

/* ce_test_skip_without_cuda () for the case @test: says out loud why it
 * does not run, on stdout where meson's log keeps it (a case that returns
 * at once counts as passed for the check framework). */
gboolean
ce_test_skip_case_without_cuda (const gchar * test)
{
  int count = 0;
  ce_status status;

  if (g_str_equal (ce_test_backend (), "cpu")) {
    g_print ("SKIP: %s: needs the CUDA backend (CUDAEDGE_TEST_BACKEND=%s)\n",
        test, ce_test_backend ());
    n_skipped++;
    return TRUE;
  }
  status = ce_cuda_device_count (&count);
  if (status != CE_STATUS_OK || count == 0) {
    g_print ("SKIP: %s: no CUDA device (%s: %s)\n", test,
        ce_status_string (status), ce_last_error ());
    n_skipped++;
    return TRUE;
  }
  return FALSE;
}

/* ---- fixture: element + harness + bus ---- */

/* An element of @factory; a missing plugin fails the test that asks, not
 * the whole program (the tests run with CK_FORK=no). */
GstElement *
ce_test_make_element (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  fail_unless (e != NULL, "%s not found; is GST_PLUGIN_PATH set?", factory);
  return e;
}

/* An element of @factory on @backend, or on ce_test_backend () when NULL. */
GstElement *
ce_test_new_element (const gchar * factory, const gchar * backend)
{
  GstElement *e = ce_test_make_element (factory);

  gst_util_set_object_arg (G_OBJECT (e), "backend",
      backend ? backend : ce_test_backend ());
  return e;
}

gchar *
ce_test_caps_string_with_rate (const gchar * format, gint width, gint height,
    const gchar * rate)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=%s,pixel-aspect-ratio=1/1", format, width, height, rate);
}

/* 30/1 by default: on CUDA a known frame rate keeps a frame in flight, the
 * case the elements are built for. */
gchar *
ce_test_caps_string (const gchar * format, gint width, gint height)
{
  return ce_test_caps_string_with_rate (format, width, height, "30/1");
}

/* Starts @element (properties already set) in a harness with @format at
 * frame rate @rate ("30/1", or "0/1" for none).  The fixture takes the
 * reference to @element. */
void
ce_test_fixture_start_with_rate (CeTestFixture * f, GstElement * element,
    const gchar * format, gint width, gint height, const gchar * rate)
{
  gchar *caps;

  memset (f, 0, sizeof (*f));
  fail_unless (element != NULL, "no element to start");
  f->element = element;
  f->bus = gst_bus_new ();
  gst_element_set_bus (element, f->bus);
  f->h = gst_harness_new_with_element (element, "sink", "src");
  fail_unless (f->h != NULL, "no harness around %s", GST_ELEMENT_NAME
      (element));
  caps = ce_test_caps_string_with_rate (format, width, height, rate);
  gst_harness_set_src_caps_str (f->h, caps);
  g_free (caps);
}

void
ce_test_fixture_start (CeTestFixture * f, GstElement * element,
    const gchar * format, gint width, gint height)
{
  ce_test_fixture_start_with_rate (f, element, format, width, height, "30/1");
}

/* Also for a fixture that a failed start left half made. */
void
ce_test_fixture_stop (CeTestFixture * f)
{
  if (f->h)
    gst_harness_teardown (f->h);
  if (f->element) {
    gst_element_set_bus (f->element, NULL);
    gst_object_unref (f->element);
  }
  if (f->bus)
    gst_object_unref (f->bus);
  memset (f, 0, sizeof (*f));
}

/* ---- pushing and pulling ---- */

/* Asks the element(s) for every frame still held (a DRAIN query, as a
 * decoder upstream would send); they are pushed before it returns. */
void
ce_test_drain (GstHarness * h)
{
  GstQuery *query = gst_query_new_drain ();

  /* The answer comes from the harness's sink; only the draining counts. */
  gst_pad_peer_query (h->srcpad, query);
  gst_query_unref (query);
}

/* An input the element must refuse: the push fails, an error is posted
 * and nothing comes out. */
void
ce_test_assert_push_rejected (CeTestFixture * f, GstBuffer * in)
{
  GstMessage *msg;

  fail_unless_equals_int (gst_harness_push (f->h, in), GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (f->bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error message");
  gst_message_unref (msg);
  fail_unless_equals_int (gst_harness_buffers_received (f->h), 0);
}

/* gst_harness_push_and_pull () for an element that may hold one frame:
 * the push must succeed, and after draining exactly one output is there. */
GstBuffer *
ce_test_push_and_pull (GstHarness * h, GstBuffer * in)
{
  guint before = gst_harness_buffers_received (h);

  fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  ce_test_drain (h);
  fail_unless_equals_int (gst_harness_buffers_received (h), before + 1);
  return gst_harness_pull (h);
}

/* Pushes @n random frames (seeds 40, 41, ...) and stops at the first push
 * that fails; *@last is the last flow return.  Tests that count checked
 * or corrupted frames rely on those seeds. */
void
ce_test_push_frames (CeTestFixture * f, const gchar * format, gint w, gint h,
    guint n, GstFlowReturn * last)
{
  GstVideoInfo info;
  guint i;

  for (i = 0; i < n; i++) {
    *last = gst_harness_push (f->h, ce_test_random_frame (format, w, h, 40 + i,
            &info));
    if (*last != GST_FLOW_OK)
      return;
  }
}

/* ---- frames ---- */

/* @size random bytes. */
GstBuffer *
ce_test_random_buffer (gsize size, guint32 seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = g_rand_int_range (rand, 0, 256);
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  return buf;
}

/* A frame of random bytes in the default layout; @info receives that
 * layout, for computing the reference. */
GstBuffer *
ce_test_random_frame (const gchar * format, gint width, gint height,
    guint32 seed, GstVideoInfo * info)
{
  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  return ce_test_random_buffer (GST_VIDEO_INFO_SIZE (info), seed);
}

/* A frame of random bytes whose planes lie at offsets of their own, each
 * row @padding bytes longer than the default layout's, described by a
 * GstVideoMeta; @info receives that layout, for computing the
 * reference. */
GstBuffer *
ce_test_random_frame_padded (const gchar * format, gint width, gint height,
    gint padding, guint32 seed, GstVideoInfo * info)
{
  GstBuffer *buf;
  gsize pos = 64 + padding;     /* bytes before plane 0 */
  guint p;

  gst_video_info_set_format (info, gst_video_format_from_string (format),
      width, height);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (info->finfo, p, comp);
    GST_VIDEO_INFO_PLANE_STRIDE (info, p) += padding;
    GST_VIDEO_INFO_PLANE_OFFSET (info, p) = pos;
    pos += (gsize) GST_VIDEO_INFO_PLANE_STRIDE (info, p) *
        GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]) + 3;
  }
  GST_VIDEO_INFO_SIZE (info) = pos;

  buf = ce_test_random_buffer (pos, seed);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), width, height,
      GST_VIDEO_INFO_N_PLANES (info), info->offset, info->stride);
  return buf;
}

/* Exact comparison of plane 0 of an output buffer (strides from its video
 * meta or the default layout) with packed rows of @width pixels.  Only
 * packed single-plane formats come out of the elements, so the pixel
 * stride of component 0 is the size of a pixel. */
void
ce_test_assert_output_equals (GstBuffer * out, const gchar * format,
    const guint8 * expected, gint width, gint height)
{
  ce_test_assert_frame_equals (out, format, expected, width, height, NULL);
}

/* ce_test_assert_output_equals (), the failure naming the frame @what
 * (or none when NULL); only the visible bytes of each row count. */
void
ce_test_assert_frame_equals (GstBuffer * out, const gchar * format,
    const guint8 * expected, gint width, gint height, const gchar * what)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  const guint8 *data;
  gint stride, y, bpp;
  gsize row;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  bpp = GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
  row = (gsize) width * bpp;
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  for (y = 0; y < height; y++) {
    const guint8 *got = data + (gsize) y * stride;
    const guint8 *exp = expected + (gsize) y * row;
    if (memcmp (got, exp, row) != 0) {
      gsize x = 0;
      while (got[x] == exp[x])
        x++;
      gst_video_frame_unmap (&frame);
      fail ("%s%s%s %dx%d output differs at byte %" G_GSIZE_FORMAT
          " (pixel %" G_GSIZE_FORMAT ") of row %d: expected %d, got %d",
          what ? what : "", what ? ": " : "", format, width, height, x,
          x / bpp, y, exp[x], got[x]);
    }
  }
  gst_video_frame_unmap (&frame);
}

/* ---- the references ---- */

/* The test's own mapping, independent of the element's. */
static ce_format
edge_format (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
      return CE_FORMAT_GRAY8;
    case GST_VIDEO_FORMAT_I420:
      return CE_FORMAT_I420;
    case GST_VIDEO_FORMAT_YV12:
      return CE_FORMAT_YV12;
    case GST_VIDEO_FORMAT_NV12:
      return CE_FORMAT_NV12;
    case GST_VIDEO_FORMAT_NV21:
      return CE_FORMAT_NV21;
    case GST_VIDEO_FORMAT_Y42B:
      return CE_FORMAT_Y42B;
    case GST_VIDEO_FORMAT_Y444:
      return CE_FORMAT_Y444;
    case GST_VIDEO_FORMAT_YUY2:
      return CE_FORMAT_YUY2;
    case GST_VIDEO_FORMAT_UYVY:
      return CE_FORMAT_UYVY;
    case GST_VIDEO_FORMAT_RGB:
      return CE_FORMAT_RGB;
    case GST_VIDEO_FORMAT_BGR:
      return CE_FORMAT_BGR;
    case GST_VIDEO_FORMAT_RGBA:
      return CE_FORMAT_RGBA;
    case GST_VIDEO_FORMAT_BGRA:
      return CE_FORMAT_BGRA;
    case GST_VIDEO_FORMAT_ARGB:
      return CE_FORMAT_ARGB;
    case GST_VIDEO_FORMAT_ABGR:
      return CE_FORMAT_ABGR;
    case GST_VIDEO_FORMAT_RGBx:
      return CE_FORMAT_RGBx;
    case GST_VIDEO_FORMAT_BGRx:
      return CE_FORMAT_BGRx;
    case GST_VIDEO_FORMAT_xRGB:
      return CE_FORMAT_xRGB;
    case GST_VIDEO_FORMAT_xBGR:
      return CE_FORMAT_xBGR;
    default:
      fail ("cudaedge takes no %s", gst_video_format_to_string (format));
      return CE_FORMAT_COUNT;
  }
}

/* cudaedge: ce_ref_edge_frame () with @params (ce_edge_params; NULL for
 * the element's defaults), W x H GRAY8. */
guint8 *
ce_test_edge_reference (GstBuffer * in, const GstVideoInfo * info,
    gconstpointer params)
{
  GstVideoFrame frame;
  ce_edge_params defaults;
  ce_frame src;
  guint8 *out;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  ce_status status;

  ce_edge_params_init (&defaults);
  fail_unless (gst_video_frame_map (&frame, info, in, GST_MAP_READ));
  src.data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  src.stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  src.width = w;
  src.height = h;
  src.format = edge_format (GST_VIDEO_INFO_FORMAT (info));
  out = g_malloc (MAX (w * h, 1));
  status = ce_ref_edge_frame (&src, params ? params : &defaults, out, w);
  gst_video_frame_unmap (&frame);
  fail_unless_equals_int (status, CE_STATUS_OK);
  return out;
}

/* cudaupscale: ce_ref_upscale2x (), 2W x 2H in the input's format. */
guint8 *
ce_test_upscale_reference (GstBuffer * in, const GstVideoInfo * info,
    G_GNUC_UNUSED gconstpointer unused)
{
  GstVideoFrame frame;
  guint8 *out;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint bpp = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  ce_status status;

  fail_unless (gst_video_frame_map (&frame, info, in, GST_MAP_READ));
  out = g_malloc ((gsize) 4 * w * h * bpp);
  status = ce_ref_upscale2x (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), w, h, bpp, out,
      (gsize) 2 * w * bpp);
  gst_video_frame_unmap (&frame);
  fail_unless_equals_int (status, CE_STATUS_OK);
  return out;
}

/* ---- one frame through, compared ---- */

/* Pushes @in, drains, and compares the one output with @expected. */
void
ce_test_push_and_expect (GstHarness * h, GstBuffer * in,
    const gchar * out_format, const guint8 * expected, gint out_width,
    gint out_height)
{
  GstBuffer *out = ce_test_push_and_pull (h, in);

  fail_unless (out != NULL);
  ce_test_assert_output_equals (out, out_format, expected, out_width,
      out_height);
  gst_buffer_unref (out);
}

/* Pushes one random frame (@seed) through a running harness and compares
 * it with @reference: the output is @scale times the input's size, in
 * @out_format (NULL: the input's). */
void
ce_test_push_and_compare (GstHarness * h, const gchar * format, gint width,
    gint height, guint32 seed, CeTestReference reference, gconstpointer data,
    const gchar * out_format, gint scale)
{
  GstVideoInfo info;
  GstBuffer *in = ce_test_random_frame (format, width, height, seed, &info);
  guint8 *expected = reference (in, &info, data);

  ce_test_push_and_expect (h, in, out_format ? out_format : format, expected,
      scale * width, scale * height);
  g_free (expected);
}

/* Starts @element on @format W x H, pushes @in (whose GstVideoMeta, if
 * any, says where its planes are), compares, stops. */
void
ce_test_run_one_frame (GstElement * element, GstBuffer * in,
    const gchar * format, gint width, gint height, CeTestReference reference,
    gconstpointer data, const gchar * out_format, gint scale)
{
  CeTestFixture f;
  GstVideoInfo info;
  guint8 *expected;

  gst_video_info_set_format (&info, gst_video_format_from_string (format),
      width, height);
  expected = reference (in, &info, data);
  ce_test_fixture_start (&f, element, format, width, height);
  ce_test_push_and_expect (f.h, in, out_format ? out_format : format,
      expected, scale * width, scale * height);
  g_free (expected);
  ce_test_fixture_stop (&f);
}

/* ---- frames in flight ---- */

typedef struct
{
  CeTestMeta meta;
  guint8 *expected;
  const gchar *format;          /* of the output */
  gint width, height;           /* of the output */
  gchar *what;                  /* the input, for messages */
} CeTestQueued;

struct _CeTestQueue
{
  GstHarness *h;
  GArray *frames;               /* of CeTestQueued */
};

static void
queued_clear (gpointer data)
{
  CeTestQueued *fr = data;

  g_free (fr->expected);
  g_free (fr->what);
}

/* A queue of frames for the running harness @h. */
CeTestQueue *
ce_test_queue_new (GstHarness * h)
{
  CeTestQueue *q = g_new0 (CeTestQueue, 1);

  q->h = h;
  q->frames = g_array_new (FALSE, TRUE, sizeof (CeTestQueued));
  g_array_set_clear_func (q->frames, queued_clear);
  return q;
}

/* Pushes @in (laid out as @info says, or as its video meta says), giving
 * it the metadata of its place in the stream, and does not pull.  Its
 * output is computed now by @reference with @data, so with the settings
 * the test has just given the element: @scale times the input's size, in
 * @out_format (NULL: the input's). */
void
ce_test_queue_push (CeTestQueue * q, GstBuffer * in,
    const GstVideoInfo * info, CeTestReference reference, gconstpointer data,
    const gchar * out_format, gint scale)
{
  CeTestQueued fr;
  const gchar *format = gst_video_format_to_string (GST_VIDEO_INFO_FORMAT
      (info));
  guint i = q->frames->len;

  memset (&fr, 0, sizeof (fr));
  ce_test_meta_for_frame (&fr.meta, i);
  ce_test_set_meta (in, &fr.meta);
  fr.expected = reference (in, info, data);
  fr.format = out_format ? out_format : format;
  fr.width = scale * GST_VIDEO_INFO_WIDTH (info);
  fr.height = scale * GST_VIDEO_INFO_HEIGHT (info);
  fr.what = g_strdup_printf ("frame %u (%s %dx%d)", i, format,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  g_array_append_val (q->frames, fr);
  fail_unless_equals_int (gst_harness_push (q->h, in), GST_FLOW_OK);
}

/* Sends EOS, then pulls the outputs: one per frame pushed, in order, each
 * with its input's metadata and exactly the pixels expected of it, and
 * nothing more.  Frees @q; returns how many frames had come out before
 * EOS. */
guint
ce_test_queue_finish (CeTestQueue * q)
{
  guint i, n = q->frames->len, before;

  before = gst_harness_buffers_received (q->h);
  fail_unless (before <= n, "%u outputs for %u inputs", before, n);
  fail_unless (gst_harness_push_event (q->h, gst_event_new_eos ()));
  fail_unless_equals_int (gst_harness_buffers_received (q->h), n);
  for (i = 0; i < n; i++) {
    CeTestQueued *fr = &g_array_index (q->frames, CeTestQueued, i);
    GstBuffer *out = gst_harness_try_pull (q->h);

    ce_test_assert_meta (out, &fr->meta, fr->what, i);
    ce_test_assert_frame_equals (out, fr->format, fr->expected, fr->width,
        fr->height, fr->what);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_try_pull (q->h) == NULL, "more outputs than the "
      "%u inputs", n);
  g_array_unref (q->frames);
  g_free (q);
  return before;
}

/* ---- properties ---- */

GParamSpec *
ce_test_find_property (GObject * obj, const gchar * name)
{
  GParamSpec *pspec;

  fail_unless (obj != NULL);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (obj), name);
  fail_unless (pspec != NULL, "no property %s", name);
  fail_unless (pspec->flags & G_PARAM_READABLE);
  return pspec;
}

/* An enum property with default @def and exactly the values @nicks
 * (NULL-terminated), mutable in @mutable. */
void
ce_test_assert_enum_property (GObject * obj, const gchar * name,
    const gchar * def, const gchar * const *nicks, GParamFlags mutable)
{
  GParamSpec *pspec = ce_test_find_property (obj, name);
  GParamSpecEnum *e;
  guint i;

  fail_unless (G_IS_PARAM_SPEC_ENUM (pspec), "%s is no enum", name);
  e = G_PARAM_SPEC_ENUM (pspec);
  fail_unless (pspec->flags & mutable);
  fail_unless_equals_string (g_enum_get_value (e->enum_class,
          e->default_value)->value_nick, def);
  for (i = 0; nicks[i]; i++)
    fail_unless (g_enum_get_value_by_nick (e->enum_class, nicks[i]) != NULL,
        "%s lacks %s", name, nicks[i]);
  fail_unless_equals_int (e->enum_class->n_values, i);
}

/* ---- stats ---- */

GstStructure *
ce_test_get_stats (GstElement * e)
{
  GstStructure *s = NULL;

  fail_unless (e != NULL);
  g_object_get (e, "stats", &s, NULL);
  fail_unless (s != NULL);
  return s;
}

guint64
ce_test_stats_u64 (GstElement * e, const gchar * field)
{
  GstStructure *s = ce_test_get_stats (e);
  guint64 v = 0;

  fail_unless (gst_structure_get_uint64 (s, field, &v), "no %s", field);
  gst_structure_free (s);
  return v;
}

/* Whether @e runs on CUDA now: with backend=auto that is known only once
 * it has started, and it changes after a fallback. */
gboolean
ce_test_runs_on_cuda (GstElement * e)
{
  GstStructure *s = ce_test_get_stats (e);
  gboolean ret = g_str_equal (gst_structure_get_string (s, "backend"),
      "cuda");

  gst_structure_free (s);
  return ret;
}

/* ---- main ---- */

typedef struct
{
  void (*test) (int);
  const gchar *name;
  gint line;
} CeTestCase;

/* Filled before main () by the constructors of CE_TEST. */
static CeTestCase registered[128];
static guint n_registered;

void
ce_test_register_case (void (*test) (int), const gchar * name, gint line)
{
  g_assert (n_registered < G_N_ELEMENTS (registered));
  registered[n_registered].test = test;
  registered[n_registered].name = name;
  registered[n_registered].line = line;
  n_registered++;
}

static gint
compare_lines (gconstpointer a, gconstpointer b)
{
  return ((const CeTestCase *) a)->line - ((const CeTestCase *) b)->line;
}

/* The cases of CE_TEST, in the order of the file whatever the order of
 * the constructors. */
static Suite *
registered_suite (const gchar * name)
{
  Suite *s = suite_create (name);
  TCase *tc = tcase_create ("general");
  guint i;

  suite_add_tcase (s, tc);
  qsort (registered, n_registered, sizeof (CeTestCase), compare_lines);
  for (i = 0; i < n_registered; i++)
    _tcase_add_test (tc, registered[i].test, registered[i].name, 0, 0, 0, 1);
  return s;
}

/* Runs the suite of @make_suite, or exits 77 (SKIP for meson) when
 * CUDAEDGE_TEST_BACKEND=cuda finds no device.  It says why out loud: a
 * silent SKIP on the GPU machine would hide a broken driver.  @file is the
 * caller's __FILE__, for the XML report (GST_CHECK_XML).  Without
 * @make_suite the suite is the cases of CE_TEST.  Exits 1 when a case
 * failed, 77 when every case was skipped by ce_test_skip_without_cuda (),
 * else 0. */
int
ce_test_main (int argc, char **argv, const gchar * name,
    Suite * (*make_suite) (void), const gchar * file)
{
  SRunner *sr;
  GTimer *timer;
  gchar *xml = NULL;
  gint failed, n_run;

  gst_check_init (&argc, &argv);

  /* The plugin (a build with the test hooks) reads the same variable: both
   * copies of the core then see the emulated device. */
  if (g_getenv ("CUDAEDGE_TEST_FAKE_DEVICE") != NULL) {
    ce_cuda_set_fake_device (1);
    if (ce_cuda_fake_device ())
      g_print ("CUDAEDGE_TEST_FAKE_DEVICE: the CUDA backend runs on a device "
          "emulated on the CPU\n");
  }
  if (g_str_equal (ce_test_backend (), "cuda")
      && !ce_test_have_cuda_device ()) {
    int count = 0;
    ce_status status = ce_cuda_device_count (&count);

    g_print ("SKIP: no CUDA device (%s: %s); the element tests need one "
        "with CUDAEDGE_TEST_BACKEND=cuda\n", ce_status_string (status),
        ce_last_error ());
    return 77;
  }
  g_print ("%s element tests on backend=%s\n", name, ce_test_backend ());

  /* gst_check_run_suite (), keeping the runner for its count of cases. */
  sr = srunner_create (make_suite ? make_suite () : registered_suite (name));
  if (g_getenv ("GST_CHECK_XML")) {
    /* __FILE__ ends in .c: foo.c -> foo.check.xml */
    xml = g_strdup_printf ("%sheck.xml", file);
    srunner_set_xml (sr, xml);
  }
  timer = g_timer_new ();
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  n_run = srunner_ntests_run (sr);
  g_print ("Check suite %s ran in %.3fs (tests failed: %d)\n", name,
      g_timer_elapsed (timer, NULL), failed);
  g_timer_destroy (timer);
  srunner_free (sr);
  g_free (xml);

  if (n_skipped > 0)
    g_print ("************************************************************\n"
        "SKIP: %u of the %d %s cases NOT run (see the SKIP lines above)\n"
        "************************************************************\n",
        n_skipped, n_run, name);
  if (failed > 0)
    return 1;
  /* Every case skipped: nothing was tested, which meson shows as SKIP. */
  return n_run > 0 && n_skipped >= (guint) n_run ? 77 : 0;
}
