/* gst-cudaedge: hostile input buffers through GstHarness
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Buffers a buggy or malicious upstream can send with caps that are fine:
 * plane 0 spread over several memory blocks, plane offsets near 2^64,
 * negative, zero, odd and too small strides, a video meta that disagrees
 * with the caps, empty buffers and buffers one byte short of the frame.
 * An input that holds no frame must be refused (the push returns an
 * error, an ERROR message is on the bus, nothing comes out); one that
 * holds a frame, however oddly laid out, must be processed, and the
 * output must equal the core's CPU reference on the same pixels laid out
 * contiguously.  A crash, a read outside a mapping (run under valgrind or
 * ASan to see those), an output never computed, a push that succeeds with
 * nothing coming out, or a frame refused are failures.
 *
 * Memory blocks hold exactly their bytes (g_memdup2), so reading past one
 * is a heap overrun that valgrind and ASan name.  Every case runs over
 * cudaedge (GRAY8, I420 and RGB inputs) and cudaupscale (GRAY8 and RGBA),
 * on the backend named by CUDAEDGE_TEST_BACKEND (cpu by default); cuda
 * without a device exits 77.  The outcome of each case that holds a
 * frame is printed on stdout.
 */

#include <string.h>

#include "ce-check-util.h"
#include "cudaedge-core.h"

/* ---- the elements and their reference ---- */

typedef struct
{
  const gchar *factory;
  const gchar *format;
  GstVideoFormat gst_format;
  ce_format ce;                 /* cudaedge */
  gint bpp;                     /* bytes per pixel of plane 0 */
} Target;

static const Target targets[] = {
  {"cudaedge", "GRAY8", GST_VIDEO_FORMAT_GRAY8, CE_FORMAT_GRAY8, 1},
  {"cudaedge", "RGB", GST_VIDEO_FORMAT_RGB, CE_FORMAT_RGB, 3},
  {"cudaedge", "I420", GST_VIDEO_FORMAT_I420, CE_FORMAT_I420, 1},
  {"cudaupscale", "GRAY8", GST_VIDEO_FORMAT_GRAY8, 0, 1},
  {"cudaupscale", "RGBA", GST_VIDEO_FORMAT_RGBA, 0, 4},
};

/* CUDAEDGE_TEST_ELEMENT=cudaupscale (say) runs one element's targets only,
 * for instance under valgrind, which stops at a target's first failure. */
static gboolean
wanted (const Target * t)
{
  const gchar *only = g_getenv ("CUDAEDGE_TEST_ELEMENT");

  return only == NULL || *only == '\0' || g_str_equal (only, t->factory);
}

/* The first wanted target from @i on; the end when none. */
static guint
next_target (guint i)
{
  while (i < G_N_ELEMENTS (targets) && !wanted (&targets[i]))
    i++;
  return i;
}

static gboolean
is_upscale (const Target * t)
{
  return g_str_equal (t->factory, "cudaupscale");
}

/* The reference output of plane 0 rows of @stride bytes at @plane,
 * tightly packed. */
static guint8 *
reference (const Target * t, const guint8 * plane, gsize stride, gint w,
    gint h)
{
  guint8 *out;

  if (is_upscale (t)) {
    gsize out_row = (gsize) 2 * w * t->bpp;

    out = g_malloc (out_row * 2 * h);
    fail_unless_equals_int (ce_ref_upscale2x (plane, stride, w, h, t->bpp,
            out, out_row), CE_STATUS_OK);
  } else {
    ce_edge_params params;
    ce_frame src = { plane, stride, w, h, t->ce };

    ce_edge_params_init (&params);
    out = g_malloc ((gsize) w * h);
    fail_unless_equals_int (ce_ref_edge_frame (&src, &params, out, w),
        CE_STATUS_OK);
  }
  return out;
}

static const gchar *
out_format (const Target * t)
{
  return is_upscale (t) ? t->format : "GRAY8";
}

static void
start (CeTestFixture * f, const Target * t, gint w, gint h)
{
  ce_test_fixture_start (f, ce_test_new_element (t->factory, NULL),
      t->format, w, h);
}

/* ---- buffers ---- */

static guint8 *
random_bytes (gsize n, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  guint8 *p = g_malloc (MAX (n, 1));
  gsize i;

  for (i = 0; i < n; i++)
    p[i] = g_rand_int (rand) & 0xff;
  g_rand_free (rand);
  return p;
}

/* A block holding exactly @size bytes of @data. */
static GstMemory *
exact_block (const guint8 * data, gsize size)
{
  guint8 *copy = g_memdup2 (data, size);

  return gst_memory_new_wrapped (0, copy, size, 0, size, copy, g_free);
}

/* A buffer of @size bytes from the default allocator, holding a copy of
 * @bytes. */
static GstBuffer *
allocated_copy (const guint8 * bytes, gsize size)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memcpy (map.data, bytes, map.size);
  gst_buffer_unmap (buf, &map);
  return buf;
}

/* @bytes split into blocks at the @n_cuts offsets of @cuts (increasing). */
static GstBuffer *
blocks_buffer (const guint8 * bytes, gsize size, const gsize * cuts,
    guint n_cuts)
{
  GstBuffer *buf = gst_buffer_new ();
  gsize from = 0;
  guint i;

  for (i = 0; i <= n_cuts; i++) {
    gsize to = i < n_cuts ? cuts[i] : size;

    gst_buffer_append_memory (buf, exact_block (bytes + from, to - from));
    from = to;
  }
  return buf;
}

/* A video meta of @t's format with plane 0 at @offset, rows of @stride;
 * the other planes (I420) of the default layout after plane 0's rows. */
static void
add_meta (GstBuffer * buf, const Target * t, gint w, gint h, gsize offset,
    gint stride)
{
  GstVideoInfo info;
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
  guint p;

  gst_video_info_set_format (&info, t->gst_format, w, h);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    offsets[p] = GST_VIDEO_INFO_PLANE_OFFSET (&info, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
  }
  offsets[0] = offset;
  strides[0] = stride;
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      t->gst_format, w, h, GST_VIDEO_INFO_N_PLANES (&info), offsets, strides);
}

/* ---- outcomes ---- */

/* With @expected, the element outputs exactly it (and posts no error);
 * with @expected NULL, it refuses @in (an error posted, nothing out). */
static void
push_expect_outcome (CeTestFixture * f, const Target * t,
    GstBuffer * in, const guint8 * expected, gint w, gint h)
{
  GstFlowReturn ret = gst_harness_push (f->h, in);
  gint scale = is_upscale (t) ? 2 : 1;
  GstMessage *msg;

  if (ret == GST_FLOW_OK) {
    GstBuffer *out;

    ce_test_drain (f->h);
    fail_unless (expected != NULL, "%s accepted a %s %dx%d buffer that holds "
        "no frame (%u buffers out)", t->factory, t->format, w, h,
        gst_harness_buffers_received (f->h));
    fail_unless_equals_int (gst_harness_buffers_received (f->h), 1);
    out = gst_harness_pull (f->h);
    ce_test_assert_output_equals (out, out_format (t), expected, scale * w,
        scale * h);
    gst_buffer_unref (out);
    msg = gst_bus_pop_filtered (f->bus, GST_MESSAGE_ERROR);
    fail_unless (msg == NULL, "%s posted an error and pushed an output",
        t->factory);
    g_print ("%s %s %dx%d: processed, output equals the reference\n",
        t->factory, t->format, w, h);
    return;
  }

  fail_unless (expected == NULL, "%s refused a %s %dx%d buffer that holds "
      "a frame (%s)", t->factory, t->format, w, h, gst_flow_get_name (ret));
  fail_unless_equals_int (ret, GST_FLOW_ERROR);
  msg = gst_bus_pop_filtered (f->bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "%s refused a %s %dx%d buffer without an error "
      "message", t->factory, t->format, w, h);
  gst_message_unref (msg);
  ce_test_drain (f->h);
  fail_unless_equals_int (gst_harness_buffers_received (f->h), 0);
}

static void
push_expect_error (CeTestFixture * f, const Target * t, GstBuffer * in,
    gint w, gint h)
{
  push_expect_outcome (f, t, in, NULL, w, h);
}

/* @in pushed into a new @t element with @w x @h caps has the outcome
 * @expected (see push_expect_outcome ()). */
static void
check_outcome (const Target * t, GstBuffer * in, const guint8 * expected,
    gint w, gint h)
{
  CeTestFixture f;

  start (&f, t, w, h);
  push_expect_outcome (&f, t, in, expected, w, h);
  ce_test_fixture_stop (&f);
}

/* @in pushed into a new @t element with @w x @h caps is refused. */
static void
check_error (const Target * t, GstBuffer * in, gint w, gint h)
{
  check_outcome (t, in, NULL, w, h);
}

/* ---- plane 0 over several memory blocks ---- */

/* Plane 0 (at @offset, rows of @stride) of a @w x @h frame, in blocks cut
 * at @cuts (offsets in the whole buffer), and @tail bytes nobody reads
 * after the frame. */
static void
check_blocks (const Target * t, gint w, gint h, gsize offset, gint stride,
    const gsize * cuts, guint n_cuts, gsize tail)
{
  GstVideoInfo info;
  gsize size;
  guint8 *bytes, *expected;
  GstBuffer *in;

  /* The rest of the buffer (chroma of I420) follows plane 0's rows. */
  gst_video_info_set_format (&info, t->gst_format, w, h);
  size = offset + (gsize) stride * h + GST_VIDEO_INFO_SIZE (&info)
      - GST_VIDEO_INFO_PLANE_STRIDE (&info, 0) * (gsize) h + tail;
  bytes = random_bytes (size, w * 7 + h);
  expected = reference (t, bytes + offset, stride, w, h);
  in = blocks_buffer (bytes, size, cuts, n_cuts);
  add_meta (in, t, w, h, offset, stride);
  /* The plane's layout must describe what the chroma offsets assume. */
  if (GST_VIDEO_INFO_N_PLANES (&info) > 1) {
    GstVideoMeta *meta = gst_buffer_get_video_meta (in);
    guint p;

    for (p = 1; p < meta->n_planes; p++)
      meta->offset[p] += offset + (gsize) stride * h
          - GST_VIDEO_INFO_PLANE_STRIDE (&info, 0) * (gsize) h;
  }

  check_outcome (t, in, expected, w, h);
  g_free (expected);
  g_free (bytes);
}

/* The case of the defect: offset 0, stride W, the first block ends in the
 * middle of a row, the rest of plane 0 is in the second block. */
CE_TEST (test_plane_over_two_memory_blocks_split_mid_row)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 61, h = 37, stride = w * t->bpp;
    gsize cut = (gsize) stride * 12 + 29;

    check_blocks (t, w, h, 0, stride, &cut, 1, 0);
  }
}

GST_END_TEST;

CE_TEST (test_plane_over_two_memory_blocks_split_between_rows)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 40, h = 30, stride = w * t->bpp + 8;
    gsize cut = (gsize) stride * 15;

    check_blocks (t, w, h, 0, stride, &cut, 1, 0);
  }
}

GST_END_TEST;

/* A one-byte first block, then one block per few rows. */
CE_TEST (test_plane_over_many_small_memory_blocks)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 17, h = 19, stride = w * t->bpp;
    gsize cuts[] = { 1, (gsize) stride * 3 + 5, (gsize) stride * 7,
      (gsize) stride * 11 + 1, (gsize) stride * 18 + stride - 1,
    };

    check_blocks (t, w, h, 0, stride, cuts, G_N_ELEMENTS (cuts), 0);
  }
}

GST_END_TEST;

/* Plane 0 starts in the second block and runs into the third. */
CE_TEST (test_plane_offset_in_a_later_memory_block)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 33, h = 21, stride = w * t->bpp + 3;
    gsize offset = 100, cuts[] = { 64, offset + (gsize) stride * 10 + 7 };

    check_blocks (t, w, h, offset, stride, cuts, G_N_ELEMENTS (cuts), 0);
  }
}

GST_END_TEST;

/* Plane 0 whole in the first block, a second block that holds nothing the
 * element reads: the ordinary case, which must keep working. */
CE_TEST (test_plane_in_first_of_two_memory_blocks)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 24, h = 16, stride = w * t->bpp;
    gsize cut = (gsize) stride * h;

    if (g_str_equal (t->format, "I420"))
      continue;                 /* its chroma planes follow, tested above */
    check_blocks (t, w, h, 0, stride, &cut, 1, 64);
  }
}

GST_END_TEST;

/* ---- offsets whose end wraps around 2^64 ---- */

static void
check_offset (gsize offset, gint stride_extra)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 64, h = 48, stride = w * t->bpp + stride_extra;
    GstVideoInfo info;
    GstBuffer *in;

    gst_video_info_set_format (&info, t->gst_format, w, h);
    in = ce_test_random_buffer (GST_VIDEO_INFO_SIZE (&info) + 4096, 5);
    add_meta (in, t, w, h, offset, stride);
    check_error (t, in, w, h);
  }
}

/* The case of the defect: offset + stride (height - 1) + row wraps to a
 * number smaller than the buffer. */
CE_TEST (test_plane_offset_near_2_64_wraps_is_an_error)
{
  check_offset (G_MAXSIZE - 100, 0);
}

GST_END_TEST;

/* offset + row alone wraps exactly to 0 (the frame of one row). */
CE_TEST (test_plane_offset_wrapping_to_zero_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 8, h = 1, row = w * t->bpp;
    GstBuffer *in;

    if (g_str_equal (t->format, "I420"))
      continue;                 /* needs an even height */
    in = ce_test_random_buffer (4096, 6);
    add_meta (in, t, w, h, G_MAXSIZE - row + 1, row);
    check_error (t, in, w, h);
  }
}

GST_END_TEST;

CE_TEST (test_plane_offset_of_2_63_is_an_error)
{
  check_offset ((gsize) 1 << 63, 0);
}

GST_END_TEST;

CE_TEST (test_plane_offset_just_past_the_buffer_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 20, h = 10, row = w * t->bpp;
    gsize size = (gsize) row * h;
    GstBuffer *in = ce_test_random_buffer (size * 2, 7);

    /* Plane 0 ends one byte past the buffer. */
    add_meta (in, t, w, h, size + 1, row);
    check_error (t, in, w, h);
  }
}

GST_END_TEST;

/* ---- strides ---- */

static void
check_bad_stride (gint (*stride_of) (gint row))
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 32, h = 16, row = w * t->bpp;
    GstVideoInfo info;
    GstBuffer *in;

    gst_video_info_set_format (&info, t->gst_format, w, h);
    /* Large enough for any reading of the rows, backwards included. */
    in = ce_test_random_buffer (GST_VIDEO_INFO_SIZE (&info) * 3, 8);
    add_meta (in, t, w, h, GST_VIDEO_INFO_SIZE (&info), stride_of (row));
    check_error (t, in, w, h);
  }
}

static gint
negative_stride (gint row)
{
  return -row;
}

static gint
zero_stride (G_GNUC_UNUSED gint row)
{
  return 0;
}

static gint
stride_one_short (gint row)
{
  return row - 1;
}

static gint
stride_min_int (G_GNUC_UNUSED gint row)
{
  return G_MININT;
}

/* Rows going up from the end of the buffer: not a layout the elements
 * take (GStreamer's own video meta has no negative strides either). */
CE_TEST (test_negative_stride_is_an_error)
{
  check_bad_stride (negative_stride);
  check_bad_stride (stride_min_int);
}

GST_END_TEST;

CE_TEST (test_zero_stride_is_an_error)
{
  check_bad_stride (zero_stride);
}

GST_END_TEST;

CE_TEST (test_stride_shorter_than_a_row_is_an_error)
{
  check_bad_stride (stride_one_short);
}

GST_END_TEST;

/* Odd strides, rows not aligned to anything: legal, and processed. */
CE_TEST (test_odd_strides_match_reference)
{
  const gint extras[] = { 1, 3, 7, 129 };
  guint i, k;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    for (k = 0; k < G_N_ELEMENTS (extras); k++) {
      const Target *t = &targets[i];
      gint w = 37, h = 13, stride = w * t->bpp + extras[k];
      gsize cut = 0;

      /* One block; an offset that is odd as well. */
      check_blocks (t, w, h, 5, stride, &cut, 0, 0);
    }
  }
}

GST_END_TEST;

/* A stride so large that the frame cannot be in any buffer. */
CE_TEST (test_stride_of_g_maxint_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 16, h = 8;
    GstVideoInfo info;
    GstBuffer *in;

    gst_video_info_set_format (&info, t->gst_format, w, h);
    in = ce_test_random_buffer (GST_VIDEO_INFO_SIZE (&info), 9);
    add_meta (in, t, w, h, 0, G_MAXINT);
    check_error (t, in, w, h);
  }
}

GST_END_TEST;

/* ---- the meta disagrees with the caps ---- */

static void
check_meta_mismatch (GstVideoFormat meta_format, gint meta_w, gint meta_h)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 32, h = 24;
    GstVideoInfo info, meta_info;
    GstVideoFormat f_meta = meta_format ? meta_format : t->gst_format;
    GstBuffer *in;
    gsize size;

    gst_video_info_set_format (&info, t->gst_format, w, h);
    gst_video_info_set_format (&meta_info, f_meta, meta_w, meta_h);
    /* Large enough for either layout: only the disagreement is wrong. */
    size = MAX (GST_VIDEO_INFO_SIZE (&info), GST_VIDEO_INFO_SIZE (&meta_info));
    in = ce_test_random_buffer (size, 10);
    gst_buffer_add_video_meta (in, GST_VIDEO_FRAME_FLAG_NONE, f_meta, meta_w,
        meta_h);
    check_error (t, in, w, h);
  }
}

CE_TEST (test_meta_format_other_than_caps_is_an_error)
{
  check_meta_mismatch (GST_VIDEO_FORMAT_BGRA, 32, 24);
  check_meta_mismatch (GST_VIDEO_FORMAT_NV12, 32, 24);
}

GST_END_TEST;

CE_TEST (test_meta_smaller_than_caps_is_an_error)
{
  check_meta_mismatch (0, 16, 24);
  check_meta_mismatch (0, 32, 12);
  check_meta_mismatch (0, 31, 24);
  check_meta_mismatch (0, 64, 23);
}

GST_END_TEST;

/* A meta larger than the caps: the picture is its top-left caps-sized
 * part, the rest padding (as gst_video_frame_map () takes it); processed,
 * and the output is the reference of that part. */
CE_TEST (test_meta_larger_than_caps_is_padding)
{
  static const gint sizes[][2] = { {64, 48}, {33, 24}, {32, 25} };
  guint i, k;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    for (k = 0; k < G_N_ELEMENTS (sizes); k++) {
      const Target *t = &targets[i];
      gint w = 32, h = 24, mw = sizes[k][0], mh = sizes[k][1];
      GstVideoInfo meta_info;
      guint8 *bytes, *expected;
      CeTestFixture f;
      GstBuffer *in;

      gst_video_info_set_format (&meta_info, t->gst_format, mw, mh);
      bytes = random_bytes (GST_VIDEO_INFO_SIZE (&meta_info), mw + 3 * mh);
      expected = reference (t, bytes, GST_VIDEO_INFO_PLANE_STRIDE (&meta_info,
              0), w, h);
      in = gst_buffer_new_memdup (bytes, GST_VIDEO_INFO_SIZE (&meta_info));
      gst_buffer_add_video_meta (in, GST_VIDEO_FRAME_FLAG_NONE,
          t->gst_format, mw, mh);
      start (&f, t, w, h);
      push_expect_outcome (&f, t, in, expected, w, h);
      fail_unless_equals_int (gst_harness_buffers_received (f.h), 1);
      ce_test_fixture_stop (&f);
      g_free (expected);
      g_free (bytes);
    }
  }
}

GST_END_TEST;

/* A buffer the size of @t's @w x @h frame, with a meta of @n_planes at
 * @offsets, rows of @strides: refused. */
static void
check_meta_layout_error (const Target * t, gint w, gint h, guint n_planes,
    gsize offsets[GST_VIDEO_MAX_PLANES], gint strides[GST_VIDEO_MAX_PLANES],
    guint32 seed)
{
  GstVideoInfo info;
  GstBuffer *in;

  gst_video_info_set_format (&info, t->gst_format, w, h);
  in = ce_test_random_buffer (GST_VIDEO_INFO_SIZE (&info), seed);
  gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
      t->gst_format, w, h, n_planes, offsets, strides);
  check_error (t, in, w, h);
}

/* A meta with one plane more or fewer than the caps' format: refused
 * with an error (not a GStreamer critical from mapping it). */
CE_TEST (test_meta_plane_count_other_than_caps_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 32, h = 24, delta;
    GstVideoInfo info;

    gst_video_info_set_format (&info, t->gst_format, w, h);
    for (delta = -1; delta <= 1; delta += 2) {
      guint n = GST_VIDEO_INFO_N_PLANES (&info) + delta;
      gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
      gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
      guint p;

      if (n == 0)
        continue;
      for (p = 0; p < n; p++) {
        offsets[p] = p < GST_VIDEO_INFO_N_PLANES (&info)
            ? GST_VIDEO_INFO_PLANE_OFFSET (&info, p) : 0;
        strides[p] = p < GST_VIDEO_INFO_N_PLANES (&info)
            ? GST_VIDEO_INFO_PLANE_STRIDE (&info, p) : w;
      }
      check_meta_layout_error (t, w, h, n, offsets, strides, 14);
    }
  }
}

GST_END_TEST;

/* I420 whose meta puts a chroma plane (never read) partly past the
 * buffer's end, or gives it a negative or short stride: refused, as the
 * caps' own layout would be in a buffer that small. */
CE_TEST (test_meta_chroma_plane_outside_the_buffer_is_an_error)
{
  static const Target t = { "cudaedge", "I420", GST_VIDEO_FORMAT_I420,
    CE_FORMAT_I420, 1
  };
  gint w = 8, h = 8, k;

  if (!wanted (&t))
    return;
  for (k = 0; k < 4; k++) {
    GstVideoInfo info;
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
    gint strides[GST_VIDEO_MAX_PLANES] = { 0, };
    guint p;

    gst_video_info_set_format (&info, t.gst_format, w, h);
    for (p = 0; p < 3; p++) {
      offsets[p] = GST_VIDEO_INFO_PLANE_OFFSET (&info, p);
      strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
    }
    if (k == 0)                 /* V's 4 rows of 4 from 2 bytes before the end */
      offsets[2] = GST_VIDEO_INFO_SIZE (&info) - 2;
    else if (k == 1)            /* U's last row one byte past the end */
      offsets[1] = GST_VIDEO_INFO_SIZE (&info) - 3 * strides[1] - 3;
    else if (k == 2)
      strides[1] = -4;
    else
      strides[2] = 3;           /* a row of V is 4 bytes */
    check_meta_layout_error (&t, w, h, 3, offsets, strides, 15);
  }
}

GST_END_TEST;

/* YUY2 3 pixels wide: a row is two macropixels, 8 bytes; a meta stride
 * of 6 (3 x 2 bytes) is too short and refused, 8 is processed. */
CE_TEST (test_meta_stride_shorter_than_packed_422_row_is_an_error)
{
  static const Target t = { "cudaedge", "YUY2", GST_VIDEO_FORMAT_YUY2,
    CE_FORMAT_YUY2, 2
  };
  gint w = 3, h = 4, stride;

  if (!wanted (&t))
    return;
  for (stride = 6; stride <= 8; stride += 2) {
    gsize offsets[GST_VIDEO_MAX_PLANES] = { 0, };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride, };
    guint8 *bytes = random_bytes ((gsize) stride * h, 16), *expected = NULL;
    GstBuffer *in;

    if (stride == 8)
      expected = reference (&t, bytes, stride, w, h);
    in = allocated_copy (bytes, (gsize) stride * h);
    gst_buffer_add_video_meta_full (in, GST_VIDEO_FRAME_FLAG_NONE,
        t.gst_format, w, h, 1, offsets, strides);
    check_outcome (&t, in, expected, w, h);
    g_free (expected);
    g_free (bytes);
  }
}

GST_END_TEST;

/* ---- empty and short buffers ---- */

CE_TEST (test_buffer_without_memory_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    check_error (&targets[i], gst_buffer_new (), 16, 8);
  }
}

GST_END_TEST;

CE_TEST (test_zero_size_buffer_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    check_error (&targets[i], gst_buffer_new_allocate (NULL, 0, NULL), 16,
        8);
  }
}

GST_END_TEST;

/* A zero-size buffer whose meta claims the frame. */
CE_TEST (test_zero_size_buffer_with_meta_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    GstBuffer *in = gst_buffer_new_allocate (NULL, 0, NULL);

    add_meta (in, t, 16, 8, 0, 16 * t->bpp);
    check_error (t, in, 16, 8);
  }
}

GST_END_TEST;

/* One byte short of the frame of the caps, without a meta. */
CE_TEST (test_buffer_one_byte_short_is_an_error)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 31, h = 17;
    GstVideoInfo info;

    if (g_str_equal (t->format, "I420"))
      h = 18;
    gst_video_info_set_format (&info, t->gst_format, w, h);
    check_error (t, ce_test_random_buffer (GST_VIDEO_INFO_SIZE (&info) - 1,
            11), w, h);
  }
}

GST_END_TEST;

/* With a meta: plane 0's last row one byte short, in one block and split
 * over two. */
CE_TEST (test_meta_plane_one_byte_short_is_an_error)
{
  guint i, split;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    for (split = 0; split < 2; split++) {
      const Target *t = &targets[i];
      gint w = 30, h = 10, row = w * t->bpp;
      gsize size = (gsize) row * h - 1, cut = size / 2;
      guint8 *bytes = random_bytes (size, 12);
      GstBuffer *in;

      if (g_str_equal (t->format, "I420")) {
        g_free (bytes);
        continue;               /* plane 0 is never last there */
      }
      in = blocks_buffer (bytes, size, &cut, split);
      add_meta (in, t, w, h, 0, row);
      check_error (t, in, w, h);
      g_free (bytes);
    }
  }
}

GST_END_TEST;

/* A refused buffer does not stop the element: the next good frame is
 * processed (the stream may go on after an application handles the
 * error). */
CE_TEST (test_good_frame_after_a_refused_buffer_matches_reference)
{
  guint i;

  for (i = next_target (0); i < G_N_ELEMENTS (targets);
      i = next_target (i + 1)) {
    const Target *t = &targets[i];
    gint w = 24, h = 12, row = w * t->bpp;
    GstVideoInfo info;
    CeTestFixture f;
    GstBuffer *in;
    guint8 *bytes, *expected;

    gst_video_info_set_format (&info, t->gst_format, w, h);
    start (&f, t, w, h);
    push_expect_error (&f, t, gst_buffer_new (), w, h);

    bytes = random_bytes (GST_VIDEO_INFO_SIZE (&info), 13);
    expected = reference (t, bytes, row, w, h);
    in = allocated_copy (bytes, GST_VIDEO_INFO_SIZE (&info));
    push_expect_outcome (&f, t, in, expected, w, h);
    ce_test_fixture_stop (&f);
    g_free (expected);
    g_free (bytes);
  }
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  return ce_test_main (argc, argv, "hostile-buffers", NULL, __FILE__);
}
