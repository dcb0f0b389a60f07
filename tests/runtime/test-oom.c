/* gst-cudaedge: a real out-of-memory on the GPU (GstHarness)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The element starts on CUDA; then this program takes nearly all of the
 * device's memory, so the element cannot allocate its frame buffers.
 * Under backend=auto it falls back to the CPU with a warning and loses no
 * frame (each output equal to the CPU reference, with its input's
 * timestamps, offsets and flags, and nothing more after them); under
 * backend=cuda it stops with a clear error.  Needs a GPU: SKIP (exit 77)
 * without one.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <cuda_runtime_api.h>

#include "cudaedge-core.h"
#include "../check/ce-check-util.h"

#define W 3840
#define H 2160
#define N 6

static GSList *hogs;

/* Takes device memory until less than @leave bytes are free, or until
 * nothing more can be had. */
static void
take_device_memory (size_t leave)
{
  size_t free_b = 0, total = 0, chunk = (size_t) 1 << 30;
  void *p;

  while (cudaMemGetInfo (&free_b, &total) == cudaSuccess && free_b > leave) {
    if (chunk > free_b - leave)
      chunk = free_b - leave;
    if (chunk < ((size_t) 64 << 10))
      break;
    if (cudaMalloc (&p, chunk) == cudaSuccess)
      hogs = g_slist_prepend (hogs, p);
    else
      chunk /= 2;
  }
  (void) cudaGetLastError ();
  cudaMemGetInfo (&free_b, &total);
  g_print ("device memory left free: %zu MiB of %zu MiB\n", free_b >> 20,
      total >> 20);
}

static void
free_device_memory (gpointer p)
{
  cudaFree (p);
}

static void
give_back_device_memory (void)
{
  g_slist_free_full (hogs, free_device_memory);
  hogs = NULL;
}

static GstBuffer *
frame (guint i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) W * H, NULL);
  GstMapInfo map;
  gsize k;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (k = 0; k < map.size; k++)
    map.data[k] = (guint8) ((k * 2654435761u + i * 97) >> 13);
  gst_buffer_unmap (buf, &map);
  return buf;
}

static GstHarness *
start_on_cuda (const gchar * backend, GstBus ** bus)
{
  /* The backend is read at start, which GstHarness does at once: it is
   * set before the harness exists.  h->element is cudaedge itself. */
  GstElement *e = gst_element_factory_make ("cudaedge", NULL);
  GstStructure *stats;
  GstHarness *h;

  fail_unless (e != NULL, "cudaedge not found; is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=3840,"
      "height=2160,framerate=0/1");
  g_object_get (h->element, "stats", &stats, NULL);
  fail_unless_equals_string (gst_structure_get_string (stats, "backend"),
      "cuda");
  gst_structure_free (stats);
  return h;
}

GST_START_TEST (test_auto_falls_back_without_losing_a_frame)
{
  GstBus *bus;
  GstHarness *h = start_on_cuda ("auto", &bus);
  ce_edge_params params;
  guint8 *want = g_malloc ((gsize) W * H);
  GstStructure *stats;
  GstMessage *msg;
  guint i;

  ce_edge_params_init (&params);
  take_device_memory (0);
  for (i = 0; i < N; i++) {
    GstBuffer *in = frame (i), *out;
    GstMapInfo a, b;
    CeTestMeta meta;

    ce_test_meta_for_frame (&meta, i);
    ce_test_set_meta (in, &meta);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (in)),
        GST_FLOW_OK);
    /* No frame rate: each output leaves with its push, alone. */
    out = gst_harness_pull (h);
    ce_test_assert_meta (out, &meta, "auto", i);
    fail_unless (gst_harness_try_pull (h) == NULL, "two outputs for input "
        "%u", i);
    gst_buffer_map (in, &a, GST_MAP_READ);
    gst_buffer_map (out, &b, GST_MAP_READ);
    fail_unless_equals_int (ce_ref_edge (a.data, W, W, H, &params, want, W),
        CE_STATUS_OK);
    fail_unless (memcmp (want, b.data, (gsize) W * H) == 0,
        "frame %u differs from the CPU reference", i);
    gst_buffer_unmap (out, &b);
    gst_buffer_unmap (in, &a);
    gst_buffer_unref (out);
    gst_buffer_unref (in);
  }
  give_back_device_memory ();
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  fail_unless (gst_harness_try_pull (h) == NULL, "an output after EOS");
  fail_unless_equals_int (gst_harness_buffers_received (h), N);

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning about the fall-back");
  gst_message_unref (msg);
  g_object_get (h->element, "stats", &stats, NULL);
  fail_unless_equals_string (gst_structure_get_string (stats, "backend"),
      "cpu");
  g_print ("auto: %s\n", gst_structure_to_string (stats));
  gst_structure_free (stats);
  g_free (want);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_cuda_stops_with_a_clear_error)
{
  GstBus *bus;
  GstHarness *h = start_on_cuda ("cuda", &bus);
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  take_device_memory (0);
  fail_unless_equals_int (gst_harness_push (h, frame (0)), GST_FLOW_ERROR);
  give_back_device_memory ();
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, &dbg);
  g_print ("cuda: error: %s (%s)\n", err->message, dbg);
  g_clear_error (&err);
  g_free (dbg);
  gst_message_unref (msg);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
oom_suite (void)
{
  Suite *s = suite_create ("oom");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_auto_falls_back_without_losing_a_frame);
  tcase_add_test (tc, test_cuda_stops_with_a_clear_error);
  return s;
}

int
main (int argc, char **argv)
{
  SRunner *sr;
  int count = 0, failed;

  gst_check_init (&argc, &argv);
  if (ce_cuda_device_count (&count) != CE_STATUS_OK || count < 1) {
    g_print ("SKIP: no CUDA device (%s): the out-of-memory cases NOT run\n",
        ce_last_error ());
    return 77;
  }
  sr = srunner_create (oom_suite ());
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
