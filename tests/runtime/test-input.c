/* gst-cudaedge: legal but unusual input buffers (GstHarness, any backend)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * - plane 0 spread over two GstMemory blocks (GStreamer maps a meta's
 *   plane from one block only): the output is the one the same pixels give
 *   in one block;
 * - a plane offset near 2^64, whose end wraps around: a clear error and no
 *   output buffer.
 * Both elements, on the backend named by CUDAEDGE_TEST_BACKEND (cpu by
 * default).
 */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"

static const gchar *
backend (void)
{
  const gchar *b = g_getenv ("CUDAEDGE_TEST_BACKEND");

  return b && *b ? b : "cpu";
}

static GstHarness *
new_harness (const gchar * factory, const gchar * caps)
{
  /* The backend is read at start, which GstHarness does at once: it goes
   * in the description. */
  gchar *desc = g_strdup_printf ("%s backend=%s", factory, backend ());
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  fail_unless (h != NULL && h->element != NULL,
      "%s not found; is GST_PLUGIN_PATH set?", factory);
  gst_harness_set_src_caps_str (h, caps);
  return h;
}

/* @pixels (rows of @stride bytes) as a buffer of two memory blocks split
 * at byte @split, with a video meta saying offset 0 and @stride. */
static GstBuffer *
two_block_buffer (const guint8 * pixels, gsize size, gsize split,
    GstVideoFormat format, gint w, gint h, gint stride)
{
  GstBuffer *buf = gst_buffer_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { stride, };

  /* Exactly sized blocks: reading past the first one is a heap overrun. */
  guint8 *first = g_memdup2 (pixels, split);
  guint8 *second = g_memdup2 (pixels + split, size - split);

  gst_buffer_append_memory (buf, gst_memory_new_wrapped (0, first, split, 0,
          split, first, g_free));
  gst_buffer_append_memory (buf, gst_memory_new_wrapped (0, second,
          size - split, 0, size - split, second, g_free));
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format, w,
      h, 1, offset, strides);
  return buf;
}

static guint8 *
random_pixels (gsize n, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *p = g_malloc (n);
  gsize i;

  for (i = 0; i < n; i++)
    p[i] = g_rand_int (rand) & 0xff;
  g_rand_free (rand);
  return p;
}

static void
assert_output (GstBuffer * out, GstVideoFormat format, gint w, gint h,
    const guint8 * want, gsize row_bytes)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gint y;

  gst_video_info_set_format (&info, format, w, h);
  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  for (y = 0; y < h; y++) {
    const guint8 *got = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    if (memcmp (got, want + y * row_bytes, row_bytes) != 0) {
      gsize x = 0;

      while (got[x] == want[y * row_bytes + x])
        x++;
      fail ("output differs at byte %" G_GSIZE_FORMAT " of row %d: expected "
          "%d, got %d", x, y, want[y * row_bytes + x], got[x]);
    }
  }
  gst_video_frame_unmap (&frame);
}

GST_START_TEST (test_edge_plane_over_two_memory_blocks)
{
  const gint w = 61, h = 37;
  guint8 *pixels = random_pixels ((gsize) w * h, 11);
  guint8 *want = g_malloc ((gsize) w * h);
  ce_edge_params params;
  GstHarness *hh;
  GstBuffer *out;

  ce_edge_params_init (&params);
  fail_unless_equals_int (ce_ref_edge (pixels, w, w, h, &params, want, w),
      CE_STATUS_OK);
  hh = new_harness ("cudaedge",
      "video/x-raw,format=GRAY8,width=61,height=37,framerate=0/1");
  /* The split falls in the middle of row 12. */
  fail_unless_equals_int (gst_harness_push (hh, two_block_buffer (pixels,
              (gsize) w * h, (gsize) w * 12 + 29, GST_VIDEO_FORMAT_GRAY8, w,
              h, w)), GST_FLOW_OK);
  out = gst_harness_pull (hh);
  assert_output (out, GST_VIDEO_FORMAT_GRAY8, w, h, want, w);
  gst_buffer_unref (out);
  gst_harness_teardown (hh);
  g_free (pixels);
  g_free (want);
}

GST_END_TEST;

GST_START_TEST (test_upscale_plane_over_two_memory_blocks)
{
  const gint w = 23, h = 17;
  gsize row = (gsize) w * 4;
  guint8 *pixels = random_pixels (row * h, 12);
  guint8 *want = g_malloc (4 * row * h);
  GstHarness *hh;
  GstBuffer *out;

  fail_unless_equals_int (ce_ref_upscale2x (pixels, row, w, h, 4, want,
          2 * row), CE_STATUS_OK);
  hh = new_harness ("cudaupscale",
      "video/x-raw,format=RGBA,width=23,height=17,framerate=0/1");
  fail_unless_equals_int (gst_harness_push (hh, two_block_buffer (pixels,
              row * h, row * 5 + 6, GST_VIDEO_FORMAT_RGBA, w, h, row)),
      GST_FLOW_OK);
  out = gst_harness_pull (hh);
  assert_output (out, GST_VIDEO_FORMAT_RGBA, 2 * w, 2 * h, want, 2 * row);
  gst_buffer_unref (out);
  gst_harness_teardown (hh);
  g_free (pixels);
  g_free (want);
}

GST_END_TEST;

/* offset + stride * (height - 1) + row wraps around to a small number. */
static void
push_wrapping_offset (const gchar * factory, const gchar * caps,
    GstVideoFormat format, gint w, gint h, gint bpp)
{
  gsize offset[GST_VIDEO_MAX_PLANES] = { G_MAXSIZE - 100, };
  gint stride[GST_VIDEO_MAX_PLANES] = { w * bpp, };
  GstHarness *hh = new_harness (factory, caps);
  GstBuffer *in = gst_buffer_new_allocate (NULL, (gsize) w * h * bpp, NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;

  gst_element_set_bus (hh->element, bus);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE, format, w,
      h, 1, offset, stride);
  fail_unless_equals_int (gst_harness_push (hh, in), GST_FLOW_ERROR);
  fail_unless_equals_int (gst_harness_buffers_received (hh), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s posted no error", factory);
  gst_message_unref (msg);
  gst_element_set_bus (hh->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (hh);
}

GST_START_TEST (test_wrapping_plane_offset_is_an_error)
{
  push_wrapping_offset ("cudaedge",
      "video/x-raw,format=GRAY8,width=64,height=48,framerate=0/1",
      GST_VIDEO_FORMAT_GRAY8, 64, 48, 1);
  push_wrapping_offset ("cudaupscale",
      "video/x-raw,format=RGBA,width=64,height=48,framerate=0/1",
      GST_VIDEO_FORMAT_RGBA, 64, 48, 4);
}

GST_END_TEST;

static Suite *
input_suite (void)
{
  Suite *s = suite_create ("input");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_edge_plane_over_two_memory_blocks);
  tcase_add_test (tc, test_upscale_plane_over_two_memory_blocks);
  tcase_add_test (tc, test_wrapping_plane_offset_is_an_error);
  return s;
}

GST_CHECK_MAIN (input);
