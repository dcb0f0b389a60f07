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
 */

#ifndef __CE_CHECK_UTIL_H__
#define __CE_CHECK_UTIL_H__

#include <gst/gst.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"

/* Frames an element on CUDA holds back with a known frame rate. */
#define CE_TEST_FRAMES_HELD (CE_CUDA_SLOTS - 1)

G_BEGIN_DECLS

/* The prefix is ce_test_, not ce_check_: the core library, linked into
 * the same executables, already exports ce_check_pointer () and friends. */

/* An element under test with its harness and a bus of its own, so that
 * tests can pop the messages it posts. */
typedef struct
{
  GstElement *element;
  GstHarness *h;
  GstBus *bus;
} CeTestFixture;

/* The expected output of a frame, computed with the core's CPU reference
 * from @in (plane 0 located through its GstVideoMeta if present, else
 * @info), tightly packed rows of the output's pixels.  @data is what the
 * reference needs besides the frame (the edge parameters), or NULL. */
typedef guint8 *(*CeTestReference) (GstBuffer * in, const GstVideoInfo * info,
    gconstpointer data);

const gchar *ce_test_backend (void);
gboolean ce_test_have_cuda_device (void);
gboolean ce_test_skip_case_without_cuda (const gchar * test);

/* For the cases that mean something only on CUDA, at their top: TRUE
 * (and the case returns at once) on the CPU backend or without a device,
 * after a "SKIP: <case>: <why>" line on stdout.  Call it once per case:
 * ce_test_main () counts the cases skipped. */
#define ce_test_skip_without_cuda() ce_test_skip_case_without_cuda (G_STRFUNC)

GstElement *ce_test_make_element (const gchar * factory);
GstElement *ce_test_new_element (const gchar * factory, const gchar * backend);

gchar *ce_test_caps_string_with_rate (const gchar * format, gint width,
    gint height, const gchar * rate);
gchar *ce_test_caps_string (const gchar * format, gint width, gint height);

void ce_test_fixture_start_with_rate (CeTestFixture * f, GstElement * element,
    const gchar * format, gint width, gint height, const gchar * rate);
void ce_test_fixture_start (CeTestFixture * f, GstElement * element,
    const gchar * format, gint width, gint height);
void ce_test_fixture_stop (CeTestFixture * f);

void ce_test_drain (GstHarness * h);
void ce_test_assert_push_rejected (CeTestFixture * f, GstBuffer * in);
GstBuffer *ce_test_push_and_pull (GstHarness * h, GstBuffer * in);
void ce_test_push_frames (CeTestFixture * f, const gchar * format, gint w,
    gint h, guint n, GstFlowReturn * last);

GstBuffer *ce_test_random_buffer (gsize size, guint32 seed);
GstBuffer *ce_test_random_frame (const gchar * format, gint width,
    gint height, guint32 seed, GstVideoInfo * info);
GstBuffer *ce_test_random_frame_padded (const gchar * format, gint width,
    gint height, gint padding, guint32 seed, GstVideoInfo * info);
void ce_test_assert_output_equals (GstBuffer * out, const gchar * format,
    const guint8 * expected, gint width, gint height);
void ce_test_assert_frame_equals (GstBuffer * out, const gchar * format,
    const guint8 * expected, gint width, gint height, const gchar * what);

guint8 *ce_test_edge_reference (GstBuffer * in, const GstVideoInfo * info,
    gconstpointer params);
guint8 *ce_test_upscale_reference (GstBuffer * in, const GstVideoInfo * info,
    gconstpointer unused);

void ce_test_push_and_expect (GstHarness * h, GstBuffer * in,
    const gchar * out_format, const guint8 * expected, gint out_width,
    gint out_height);
void ce_test_push_and_compare (GstHarness * h, const gchar * format,
    gint width, gint height, guint32 seed, CeTestReference reference,
    gconstpointer data, const gchar * out_format, gint scale);
void ce_test_run_one_frame (GstElement * element, GstBuffer * in,
    const gchar * format, gint width, gint height, CeTestReference reference,
    gconstpointer data, const gchar * out_format, gint scale);

/* Frames pushed one after another without pulling (so that, on CUDA,
 * they are in flight together), each with the output expected of it,
 * worked out when it was pushed; then EOS and every output compared. */
typedef struct _CeTestQueue CeTestQueue;

CeTestQueue *ce_test_queue_new (GstHarness * h);
void ce_test_queue_push (CeTestQueue * q, GstBuffer * in,
    const GstVideoInfo * info, CeTestReference reference, gconstpointer data,
    const gchar * out_format, gint scale);
guint ce_test_queue_finish (CeTestQueue * q);

GParamSpec *ce_test_find_property (GObject * obj, const gchar * name);
void ce_test_assert_enum_property (GObject * obj, const gchar * name,
    const gchar * def, const gchar * const *nicks, GParamFlags mutable);

GstStructure *ce_test_get_stats (GstElement * e);
guint64 ce_test_stats_u64 (GstElement * e, const gchar * field);
gboolean ce_test_runs_on_cuda (GstElement * e);

void ce_test_register_case (void (*test) (int), const gchar * name,
    gint line);

/* GST_START_TEST that also adds the case to the program's suite (one
 * TCase, in the order of the file), for ce_test_main () without
 * @make_suite: the list of cases is the file itself. */
#define CE_TEST(name) \
  static void name (int); \
  static void __attribute__ ((constructor)) name ## _register (void) \
  { \
    ce_test_register_case (name, #name, __LINE__); \
  } \
  GST_START_TEST (name)

int ce_test_main (int argc, char **argv, const gchar * name,
    Suite * (*make_suite) (void), const gchar * file);

/* ---- metadata ---- */

/* Inline, so that the test programs that do not link ce-check-util.c
 * (tests/runtime, tests/cudamem) share them too. */

/* The flags an output takes from its input and that the elements have
 * no reason to touch (GAP aside: cudaedge drops it where its output is
 * not neutral). */
#define CE_TEST_META_FLAGS (GST_BUFFER_FLAG_DISCONT \
    | GST_BUFFER_FLAG_DELTA_UNIT | GST_BUFFER_FLAG_MARKER \
    | GST_BUFFER_FLAG_DROPPABLE | GST_BUFFER_FLAG_LIVE \
    | GST_BUFFER_FLAG_NON_DROPPABLE | GST_BUFFER_FLAG_SYNC_AFTER \
    | GST_BUFFER_FLAG_CORRUPTED | GST_BUFFER_FLAG_HEADER)

/* What every output carries over from its input. */
typedef struct
{
  GstClockTime pts, dts, duration;
  guint64 offset, offset_end;
  guint flags;
} CeTestMeta;

/* Metadata of input frame @i of a stream: every field differs from one
 * frame to the next, the flags a different mix per frame, DISCONT on
 * frame 0 only (a DISCONT later would push the frames in flight). */
static inline void
ce_test_meta_for_frame (CeTestMeta * m, guint i)
{
  static const guint flags[] = {
    GST_BUFFER_FLAG_DELTA_UNIT,
    GST_BUFFER_FLAG_MARKER,
    GST_BUFFER_FLAG_DROPPABLE | GST_BUFFER_FLAG_DELTA_UNIT,
    GST_BUFFER_FLAG_LIVE,
    GST_BUFFER_FLAG_NON_DROPPABLE | GST_BUFFER_FLAG_SYNC_AFTER,
    GST_BUFFER_FLAG_CORRUPTED,
    GST_BUFFER_FLAG_HEADER | GST_BUFFER_FLAG_MARKER,
    0,
  };

  m->pts = 1000 * GST_SECOND + i * GST_SECOND / 30;
  m->dts = m->pts - GST_MSECOND * (i % 3);
  m->duration = GST_SECOND / 30 + i % 5;
  m->offset = 7 * (guint64) i;
  m->offset_end = 7 * (guint64) i + 1 + i % 4;
  m->flags = flags[i % G_N_ELEMENTS (flags)]
      | (i == 0 ? GST_BUFFER_FLAG_DISCONT : 0);
}

/* Gives @buf (writable) the metadata @m. */
static inline void
ce_test_set_meta (GstBuffer * buf, const CeTestMeta * m)
{
  GST_BUFFER_PTS (buf) = m->pts;
  GST_BUFFER_DTS (buf) = m->dts;
  GST_BUFFER_DURATION (buf) = m->duration;
  GST_BUFFER_OFFSET (buf) = m->offset;
  GST_BUFFER_OFFSET_END (buf) = m->offset_end;
  GST_BUFFER_FLAG_UNSET (buf, CE_TEST_META_FLAGS);
  GST_BUFFER_FLAG_SET (buf, m->flags);
}

/* Output @i (for the messages, with @what) carries @m. */
static inline void
ce_test_assert_meta (GstBuffer * out, const CeTestMeta * m,
    const gchar * what, guint i)
{
  guint flags;

  fail_unless (out != NULL, "%s: output %u missing", what, i);
  flags = (guint) GST_BUFFER_FLAGS (out) & CE_TEST_META_FLAGS;
  fail_unless (GST_BUFFER_PTS (out) == m->pts, "%s: output %u has PTS %"
      GST_TIME_FORMAT ", expected %" GST_TIME_FORMAT, what, i,
      GST_TIME_ARGS (GST_BUFFER_PTS (out)), GST_TIME_ARGS (m->pts));
  fail_unless (GST_BUFFER_DTS (out) == m->dts, "%s: output %u has DTS %"
      GST_TIME_FORMAT ", expected %" GST_TIME_FORMAT, what, i,
      GST_TIME_ARGS (GST_BUFFER_DTS (out)), GST_TIME_ARGS (m->dts));
  fail_unless (GST_BUFFER_DURATION (out) == m->duration, "%s: output %u "
      "has duration %" GST_TIME_FORMAT ", expected %" GST_TIME_FORMAT, what,
      i, GST_TIME_ARGS (GST_BUFFER_DURATION (out)),
      GST_TIME_ARGS (m->duration));
  fail_unless (GST_BUFFER_OFFSET (out) == m->offset, "%s: output %u has "
      "offset %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, what, i,
      GST_BUFFER_OFFSET (out), m->offset);
  fail_unless (GST_BUFFER_OFFSET_END (out) == m->offset_end, "%s: output %u "
      "has offset-end %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
      what, i, GST_BUFFER_OFFSET_END (out), m->offset_end);
  fail_unless (flags == m->flags, "%s: output %u has flags 0x%x, expected "
      "0x%x", what, i, flags, m->flags);
}

G_END_DECLS

#endif /* __CE_CHECK_UTIL_H__ */
