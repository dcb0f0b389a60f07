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
gboolean ce_test_skip_without_cuda (void);

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
void ce_test_assert_output_equals (GstBuffer * out, const gchar * format,
    const guint8 * expected, gint width, gint height);

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

G_END_DECLS

#endif /* __CE_CHECK_UTIL_H__ */
