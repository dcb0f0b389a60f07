/* gst-cudaedge: the generic tests GStreamer runs on its own elements
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * - state changes one step at a time, up and down, in the three orders of
 *   gst-plugins-base's generic states test, on an element alone;
 * - GstHarness stress threads for about STRESS_SECONDS each: state changes
 *   (then frames flow), properties set over and over while frames are
 *   pushed (every frame comes out), and a thread pushing frames as fast as
 *   it can (as many out as in);
 * - 1000 frames whose timestamps, offsets and flags all come out intact
 *   and in order, across a change of size and format in the middle.
 * Every case runs over cudaedge and cudaupscale, on the backend named by
 * CUDAEDGE_TEST_BACKEND (cpu by default); cuda without a device exits 77.
 * The figures (cycles, frames in and out) are printed on stdout.
 */

#include <string.h>

#include "ce-check-util.h"

#define STRESS_SECONDS 2
#define N_FRAMES 1000

static const gchar *const factories[] = { "cudaedge", "cudaupscale" };

/* ---- state changes, one element alone ---- */

static void
set_state_and_check (GstElement * e, GstState state)
{
  GstState current = GST_STATE_VOID_PENDING, pending;
  GstStateChangeReturn ret = gst_element_set_state (e, state);

  fail_unless (ret != GST_STATE_CHANGE_FAILURE, "%s: going to %s failed",
      GST_ELEMENT_NAME (e), gst_element_state_get_name (state));
  /* A filter has nothing to preroll: no state change is asynchronous. */
  fail_unless_equals_int (gst_element_get_state (e, &current, &pending,
          GST_CLOCK_TIME_NONE), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (current, state);
}

static void
run_state_sequence (const GstState * seq, guint n)
{
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    GstElement *e = ce_test_new_element (factories[f], NULL);

    for (i = 0; i < n; i++)
      set_state_and_check (e, seq[i]);
    set_state_and_check (e, GST_STATE_NULL);
    gst_object_unref (e);
  }
}

CE_TEST (test_state_changes_up_and_down_seq)
{
  const GstState seq[] = {
    GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
    GST_STATE_READY, GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL,
  };

  run_state_sequence (seq, G_N_ELEMENTS (seq));
}

GST_END_TEST;

/* Each step up is followed by a step back and up again. */
CE_TEST (test_state_changes_up_seq)
{
  const GstState seq[] = {
    GST_STATE_READY, GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL,
  };

  run_state_sequence (seq, G_N_ELEMENTS (seq));
}

GST_END_TEST;

/* Up to PLAYING, then each step down is followed by a step back up. */
CE_TEST (test_state_changes_down_seq)
{
  const GstState seq[] = {
    GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_PAUSED,
    GST_STATE_PLAYING, GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL,
    GST_STATE_READY, GST_STATE_NULL,
  };

  run_state_sequence (seq, G_N_ELEMENTS (seq));
}

GST_END_TEST;

/* ---- stress ---- */

static GstHarness *
start_harness (const gchar * factory, const gchar * format, gint w, gint h,
    const gchar * rate)
{
  GstHarness *hh = gst_harness_new_with_element (ce_test_new_element (factory,
          NULL), "sink", "src");
  gchar *caps = ce_test_caps_string_with_rate (format, w, h, rate);

  /* The harness holds its own reference to the element. */
  gst_object_unref (hh->element);
  gst_harness_set_src_caps_str (hh, caps);
  g_free (caps);
  return hh;
}

static guint
pull_all (GstHarness * hh)
{
  GstBuffer *out;
  guint n = 0;

  while ((out = gst_harness_try_pull (hh)) != NULL) {
    gst_buffer_unref (out);
    n++;
  }
  return n;
}

/* Another thread takes the element down to NULL and back to PLAYING as
 * fast as it can (unlinking and relinking its pads each time, as the
 * harness does); afterwards frames flow, as many out as in.  As in
 * GStreamer's own uses of this helper, nothing is pushed meanwhile: the
 * harness sends the sticky events again after each cycle, and a frame
 * slipped in between would break the stream-start, caps, segment order
 * in GstPad and GstBaseTransform, not in the element. */
CE_TEST (test_stress_state_changes)
{
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    GstHarness *hh = start_harness (factories[f], "GRAY8", 32, 24, "30/1");
    GstBuffer *frame = ce_test_random_buffer (32 * 24, 3);
    GstHarnessThread *t;
    guint cycles, out;
    gchar *caps;

    /* A few frames first, so that there is something to tear down. */
    for (i = 0; i < 5; i++)
      fail_unless_equals_int (gst_harness_push (hh, gst_buffer_ref (frame)),
          GST_FLOW_OK);
    t = gst_harness_stress_statechange_start (hh);
    g_usleep (STRESS_SECONDS * G_USEC_PER_SEC);
    cycles = gst_harness_stress_thread_stop (t);
    fail_unless (cycles > 0);
    /* Frames in flight before the first cycle were dropped by it. */
    pull_all (hh);

    caps = ce_test_caps_string ("GRAY8", 32, 24);
    gst_harness_set_src_caps_str (hh, caps);
    g_free (caps);
    for (i = 0; i < 50; i++)
      fail_unless_equals_int (gst_harness_push (hh, gst_buffer_ref (frame)),
          GST_FLOW_OK);
    ce_test_drain (hh);
    out = pull_all (hh);

    g_print ("%s: %u state change cycles (PLAYING -> NULL -> PLAYING), "
        "then 50 frames in, %u out\n", factories[f], cycles, out);
    fail_unless_equals_int (out, 50);
    gst_buffer_unref (frame);
    gst_harness_teardown (hh);
  }
}

GST_END_TEST;

static GstHarnessThread *
stress_property (GstHarness * hh, const gchar * name, GType type,
    const gchar * value)
{
  GValue v = G_VALUE_INIT;
  GstHarnessThread *t;

  g_value_init (&v, type);
  fail_unless (gst_value_deserialize (&v, value));
  t = gst_harness_stress_property_start_full (hh, name, &v, 0);
  g_value_unset (&v);
  return t;
}

/* Properties set over and over from other threads (two threads fighting
 * over each value) while frames flow: every frame comes out. */
CE_TEST (test_stress_properties_while_pushing)
{
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    GstHarness *hh = start_harness (factories[f], "GRAY8", 32, 24, "30/1");
    GstBuffer *frame = ce_test_random_buffer (32 * 24, 4);
    GstHarnessThread *t[6];
    guint n_t = 0, sets = 0, pushed = 0, out = 0;
    gint64 end;

    t[n_t++] = stress_property (hh, "check", G_TYPE_BOOLEAN, "true");
    t[n_t++] = stress_property (hh, "check", G_TYPE_BOOLEAN, "false");
    t[n_t++] = stress_property (hh, "check-interval", G_TYPE_UINT, "1");
    t[n_t++] = stress_property (hh, "check-interval", G_TYPE_UINT, "7");
    if (g_str_equal (factories[f], "cudaedge")) {
      t[n_t++] = stress_property (hh, "threshold", G_TYPE_DOUBLE, "0");
      t[n_t++] = stress_property (hh, "threshold", G_TYPE_DOUBLE, "2048");
    }

    end = g_get_monotonic_time () + STRESS_SECONDS * G_USEC_PER_SEC;
    while (g_get_monotonic_time () < end) {
      fail_unless_equals_int (gst_harness_push (hh, gst_buffer_copy (frame)),
          GST_FLOW_OK);
      pushed++;
      out += pull_all (hh);
    }
    for (i = 0; i < n_t; i++)
      sets += gst_harness_stress_thread_stop (t[i]);
    ce_test_drain (hh);
    out += pull_all (hh);

    g_print ("%s: %u property sets by %u threads while %u frames were "
        "pushed, %u out\n", factories[f], sets, n_t, pushed, out);
    fail_unless_equals_int (out, pushed);
    /* Every frame was checked or not, and none mismatched. */
    fail_unless_equals_int (ce_test_stats_u64 (hh->element, "mismatches"), 0);
    gst_buffer_unref (frame);
    gst_harness_teardown (hh);
  }
}

GST_END_TEST;

/* A thread pushing frames as fast as it can while this one pulls: as
 * many frames out as in. */
CE_TEST (test_stress_push_buffers)
{
  guint f;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    GstHarness *hh = gst_harness_new_with_element (ce_test_new_element
        (factories[f], NULL), "sink", "src");
    gchar *s = ce_test_caps_string ("GRAY8", 32, 24);
    GstCaps *caps = gst_caps_from_string (s);
    GstBuffer *frame = ce_test_random_buffer (32 * 24, 5);
    GstSegment segment;
    GstHarnessThread *t;
    guint pushed, out = 0;
    gint64 end;

    gst_object_unref (hh->element);
    gst_harness_set_src_caps (hh, gst_caps_ref (caps));
    gst_segment_init (&segment, GST_FORMAT_TIME);
    GST_BUFFER_PTS (frame) = 0;
    GST_BUFFER_DURATION (frame) = GST_SECOND / 30;

    t = gst_harness_stress_push_buffer_start (hh, caps, &segment, frame);
    end = g_get_monotonic_time () + STRESS_SECONDS * G_USEC_PER_SEC;
    while (g_get_monotonic_time () < end) {
      GstBuffer *b = gst_harness_try_pull (hh);

      if (b) {
        gst_buffer_unref (b);
        out++;
      } else {
        g_usleep (100);
      }
    }
    pushed = gst_harness_stress_thread_stop (t);
    ce_test_drain (hh);
    out += pull_all (hh);

    g_print ("%s: %u frames pushed by a stress thread, %u out\n",
        factories[f], pushed, out);
    fail_unless (pushed > 0);
    fail_unless_equals_int (out, pushed);
    gst_caps_unref (caps);
    gst_buffer_unref (frame);
    g_free (s);
    gst_harness_teardown (hh);
  }
}

GST_END_TEST;

/* ---- metadata ---- */

typedef struct
{
  CeTestMeta meta;
  gsize size;                   /* of the output frame its caps give */
  gboolean at_least;            /* the size may be rounded up (cudaupscale's
                                 * pinned pools, on the CUDA backend) */
} FrameMeta;

static void
expect_meta (const gchar * factory, GstBuffer * out, const FrameMeta * m,
    guint i)
{
  ce_test_assert_meta (out, &m->meta, factory, i);
  fail_unless (m->at_least ? gst_buffer_get_size (out) >= m->size
      : gst_buffer_get_size (out) == m->size, "%s frame %u: %" G_GSIZE_FORMAT
      " bytes, expected %s%" G_GSIZE_FORMAT, factory, i,
      gst_buffer_get_size (out), m->at_least ? "at least " : "", m->size);
}

/* 1000 frames at 30/1, size and format changing after frame 500: as many
 * frames out, in order, each with the PTS, DTS, duration, offsets and
 * flags of its input, and the size its caps give (checked on each frame,
 * whether it comes out at once, as on the CPU, or after EOS). */
CE_TEST (test_n_frames_keep_timestamps_offsets_and_flags)
{
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (factories); f++) {
    const gboolean upscale = g_str_equal (factories[f], "cudaupscale");
    GstHarness *hh = start_harness (factories[f], "GRAY8", 32, 24, "30/1");
    FrameMeta *meta = g_new0 (FrameMeta, N_FRAMES);
    const gchar *format = "GRAY8";
    gint w = 32, h = 24;
    guint n_out = 0;
    GstBuffer *out;

    for (i = 0; i < N_FRAMES; i++) {
      GstVideoInfo info, out_info;
      GstBuffer *in;
      FrameMeta *m = &meta[i];

      if (i == N_FRAMES / 2) {
        gchar *caps;

        format = "RGBA";
        w = 40;
        h = 30;
        caps = ce_test_caps_string (format, w, h);
        gst_harness_set_src_caps_str (hh, caps);
        g_free (caps);
      }
      in = ce_test_random_frame (format, w, h, i, &info);
      ce_test_meta_for_frame (&m->meta, i);
      /* DISCONT on the first frame of the new caps as well. */
      if (i == N_FRAMES / 2)
        m->meta.flags |= GST_BUFFER_FLAG_DISCONT;
      ce_test_set_meta (in, &m->meta);
      gst_video_info_set_format (&out_info, gst_video_format_from_string
          (upscale ? format : "GRAY8"), upscale ? 2 * w : w,
          upscale ? 2 * h : h);
      m->size = GST_VIDEO_INFO_SIZE (&out_info);
      m->at_least = upscale && g_str_equal (ce_test_backend (), "cuda");

      fail_unless_equals_int (gst_harness_push (hh, in), GST_FLOW_OK);
      while ((out = gst_harness_try_pull (hh)) != NULL) {
        fail_unless (n_out <= i);
        expect_meta (factories[f], out, &meta[n_out], n_out);
        gst_buffer_unref (out);
        n_out++;
      }
    }
    fail_unless_equals_int (gst_harness_push_event (hh, gst_event_new_eos ()),
        TRUE);
    while ((out = gst_harness_try_pull (hh)) != NULL) {
      expect_meta (factories[f], out, &meta[n_out], n_out);
      gst_buffer_unref (out);
      n_out++;
    }

    g_print ("%s: %u frames in, %u out, metadata intact, %s %dx%d from "
        "frame %u\n", factories[f], N_FRAMES, n_out, format, w, h,
        N_FRAMES / 2);
    fail_unless_equals_int (n_out, N_FRAMES);
    g_free (meta);
    gst_harness_teardown (hh);
  }
}

GST_END_TEST;

int
main (int argc, char **argv)
{
  return ce_test_main (argc, argv, "generic", NULL, __FILE__);
}
