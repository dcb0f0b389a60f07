/* gst-cudaedge: the element runtime with frames in flight (GstHarness)
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames stay in flight only on the CUDA backend with a known frame rate,
 * so these cases need a GPU and report SKIP loudly without one:
 *  - a bounded downstream pool (max 2) does not block the element, which
 *    adds the frame it keeps in flight to the pool's minimum and maximum;
 *  - after a CUDA failure under backend=auto, the element asks for new
 *    pools on both sides, buffers allocated afterwards are not pinned, and
 *    no frame is lost: every output is there once, with its input's
 *    metadata and the CPU reference's pixels (test builds only: it needs
 *    the failure hook);
 *  - a late frame dropped by QoS puts DISCONT on the next output, not on
 *    the previous one, and the QoS message counts every output.
 */

#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cudaedge-core.h"
#include "cudaedge-testing.h"
#include "../check/ce-check-util.h"

#define W 64
#define H 48
#define CAPS "video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1"
#define FRAME (GST_SECOND / 30)

static guint n_skipped = 0;

static gboolean
no_gpu (const gchar * test)
{
  int count = 0;

  if (ce_cuda_device_count (&count) == CE_STATUS_OK && count > 0)
    return FALSE;
  g_print ("SKIP %s: no CUDA device (%s)\n", test, ce_last_error ());
  n_skipped++;
  return TRUE;
}

static GstBuffer *
frame (guint i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);

  gst_buffer_memset (buf, 0, (guint8) (i * 37), W * H);
  GST_BUFFER_PTS (buf) = i * FRAME;
  GST_BUFFER_DURATION (buf) = FRAME;
  return buf;
}

static GstPadQueryFunction harness_query;
static gint allocation_queries;
static gboolean bounded_pool_query (GstPad * pad, GstObject * parent,
    GstQuery * query);

/* With @bounded, downstream offers a pool of at most 2 buffers.  The
 * ALLOCATION query comes with the caps (@caps), so it is answered
 * first. */
static GstHarness *
new_harness_full (const gchar * backend, gboolean bounded, const gchar * caps)
{
  /* The backend is read at start, which GstHarness does at once: it is
   * set before the harness exists.  h->element is cudaedge itself. */
  GstElement *e = gst_element_factory_make ("cudaedge", NULL);
  GstHarness *h;

  fail_unless (e != NULL, "cudaedge not found; is GST_PLUGIN_PATH set?");
  gst_util_set_object_arg (G_OBJECT (e), "backend", backend);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  if (bounded) {
    harness_query = GST_PAD_QUERYFUNC (h->sinkpad);
    gst_pad_set_query_function (h->sinkpad, bounded_pool_query);
  }
  gst_harness_set_src_caps_str (h, caps);
  return h;
}

static GstHarness *
new_harness (const gchar * backend)
{
  return new_harness_full (backend, FALSE, CAPS);
}

/* ---- bounded downstream pool ---- */

/* Downstream answers ALLOCATION with a pool of at most 2 buffers. */
static gboolean
bounded_pool_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION) {
    GstCaps *caps;
    GstVideoInfo info;

    gst_query_parse_allocation (query, &caps, NULL);
    g_atomic_int_inc (&allocation_queries);
    if (caps && gst_video_info_from_caps (&info, caps)) {
      gst_query_add_allocation_pool (query, NULL, info.size, 0, 2);
      return TRUE;
    }
  }
  return harness_query (pad, parent, query);
}

typedef struct
{
  GstHarness *h;
  guint n;
  GstFlowReturn ret;
  gboolean done;
  GMutex lock;
  GCond cond;
} Pusher;

/* Pushes n frames, keeping the last output (as a sink that shows it). */
static gpointer
push_keeping_last (gpointer data)
{
  Pusher *p = data;
  GstBuffer *last = NULL;
  guint i;

  for (i = 0; i < p->n && p->ret == GST_FLOW_OK; i++) {
    GstBuffer *out;

    p->ret = gst_harness_push (p->h, frame (i));
    while ((out = gst_harness_try_pull (p->h)) != NULL) {
      gst_clear_buffer (&last);
      last = out;
    }
  }
  gst_clear_buffer (&last);
  g_mutex_lock (&p->lock);
  p->done = TRUE;
  g_cond_signal (&p->cond);
  g_mutex_unlock (&p->lock);
  return NULL;
}

GST_START_TEST (test_bounded_downstream_pool_does_not_block)
{
  Pusher p = { 0 };
  gint64 deadline = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;
  GThread *thread;

  if (no_gpu (__FUNCTION__))
    return;
  p.n = 20;
  p.ret = GST_FLOW_OK;
  p.h = new_harness_full ("cuda", TRUE, CAPS);
  g_mutex_init (&p.lock);
  g_cond_init (&p.cond);

  thread = g_thread_new ("pusher", push_keeping_last, &p);
  g_mutex_lock (&p.lock);
  while (!p.done && g_cond_wait_until (&p.cond, &p.lock, deadline));
  g_mutex_unlock (&p.lock);
  /* Blocked in prepare_output_buffer: the pool is too small. */
  fail_unless (p.done, "the element blocked with a downstream pool of 2");
  g_thread_join (thread);
  fail_unless_equals_int (p.ret, GST_FLOW_OK);

  /* The frame kept in flight is added to downstream's 0 - 2. */
  {
    GstBufferPool *pool =
        gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (p.h->
            element));
    GstStructure *config;
    guint min, max;

    fail_unless (g_atomic_int_get (&allocation_queries) > 0,
        "downstream was never asked for its pool");
    fail_unless (pool != NULL);
    config = gst_buffer_pool_get_config (pool);
    fail_unless (gst_buffer_pool_config_get_params (config, NULL, NULL, &min,
            &max));
    g_print ("output pool of %u - %u buffers\n", min, max);
    fail_unless (max >= 3, "output pool of %u - %u buffers", min, max);
    gst_structure_free (config);
    gst_object_unref (pool);
  }

  g_mutex_clear (&p.lock);
  g_cond_clear (&p.cond);
  gst_harness_teardown (p.h);
}

GST_END_TEST;

/* ---- pinned pools after a fall-back ---- */

#ifdef CE_TEST_HOOKS
static gboolean
is_pinned (GstBuffer * buf)
{
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);

  return mem->allocator && g_str_equal (mem->allocator->mem_type,
      "CudaEdgePinnedMemory");
}

/* A GRAY8 frame of random bytes, @w x @h in the default layout (rows
 * padded to 4 bytes), and that layout in @info. */
static GstBuffer *
random_gray8 (gint w, gint h, guint32 seed, GstVideoInfo * info)
{
  GstBuffer *buf;
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);
  gsize k;

  gst_video_info_set_format (info, GST_VIDEO_FORMAT_GRAY8, w, h);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (k = 0; k < map.size; k++)
    map.data[k] = g_rand_int (rand) & 0xff;
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
  return buf;
}

/* The CPU reference of @in's edges with the default settings, tightly
 * packed rows. */
static guint8 *
reference_edges (GstBuffer * in, const GstVideoInfo * info)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  guint8 *ref = g_malloc ((gsize) w * h);
  ce_edge_params params;
  GstVideoFrame frame;

  ce_edge_params_init (&params);
  fail_unless (gst_video_frame_map (&frame, info, in, GST_MAP_READ));
  fail_unless_equals_int (ce_ref_edge (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), w, h, &params, ref, w),
      CE_STATUS_OK);
  gst_video_frame_unmap (&frame);
  return ref;
}

/* The visible bytes of each row of GRAY8 output @i are @ref's. */
static void
assert_edges (GstBuffer * out, const GstVideoInfo * info, const guint8 * ref,
    guint i)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info), y;
  GstVideoFrame frame;

  fail_unless (gst_video_frame_map (&frame, info, out, GST_MAP_READ));
  for (y = 0; y < h; y++) {
    const guint8 *got = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    if (memcmp (got, ref + (gsize) y * w, w) != 0) {
      gst_video_frame_unmap (&frame);
      fail ("%dx%d output %u differs from the CPU reference in row %d", w, h,
          i, y);
    }
  }
  gst_video_frame_unmap (&frame);
}

/* Frame 3 of 12 fails on the GPU, at @width x @height. */
static void
check_fallback_asks_for_system_memory_pools (gint width, gint height)
{
  GstHarness *h;
  GstEvent *ev;
  GstVideoInfo info;
  CeTestMeta meta[12];
  guint8 *ref[12];
  gboolean reconfigure = FALSE;
  gchar *caps = g_strdup_printf ("video/x-raw,format=GRAY8,width=%d,"
      "height=%d,framerate=30/1", width, height);
  gchar *what = g_strdup_printf ("GRAY8 %dx%d", width, height);
  guint i, n = 12, pinned_after = 0;

  g_setenv ("CUDAEDGE_TEST_CUDA_FAIL_FRAME", "3", TRUE);
  h = new_harness_full ("auto", FALSE, caps);
  gst_harness_play (h);
  g_unsetenv ("CUDAEDGE_TEST_CUDA_FAIL_FRAME");

  for (i = 0; i < n; i++) {
    GstBuffer *in = random_gray8 (width, height, 80 + i, &info);

    ref[i] = reference_edges (in, &info);
    ce_test_meta_for_frame (&meta[i], i);
    ce_test_set_meta (in, &meta[i]);
    fail_unless_equals_int (gst_harness_push (h, in), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  /* N in, N out, in order, whole, and nothing more; outputs made after
   * the fall-back (frame 3 plus the one in flight with it) come from
   * system memory. */
  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_try_pull (h);

    ce_test_assert_meta (out, &meta[i], what, i);
    assert_edges (out, &info, ref[i], i);
    if (i >= 6 && is_pinned (out))
      pinned_after++;
    gst_buffer_unref (out);
    g_free (ref[i]);
  }
  fail_unless (gst_harness_try_pull (h) == NULL, "%s: more than %u outputs",
      what, n);
  fail_unless_equals_int (pinned_after, 0);

  while ((ev = gst_harness_try_pull_upstream_event (h)) != NULL) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_RECONFIGURE)
      reconfigure = TRUE;
    gst_event_unref (ev);
  }
  fail_unless (reconfigure, "no RECONFIGURE upstream after the fall-back");
  g_free (what);
  g_free (caps);
  gst_harness_teardown (h);
}

GST_START_TEST (test_fallback_asks_for_system_memory_pools)
{
  if (no_gpu (__FUNCTION__))
    return;
  check_fallback_asks_for_system_memory_pools (W, H);
  check_fallback_asks_for_system_memory_pools (613, 611);
  check_fallback_asks_for_system_memory_pools (33, 17);
}

GST_END_TEST;
#endif

/* ---- QoS ---- */

GST_START_TEST (test_qos_drop_marks_the_next_output_discont)
{
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  guint i, n = 10, got = 0;
  guint64 processed = 0, dropped = 0;
  GstFormat format;

  if (no_gpu (__FUNCTION__))
    return;
  h = new_harness ("cuda");
  bus = gst_bus_new ();
  gst_element_set_bus (h->element, bus);

  /* Frames 0-3 pass; a slow sink then says everything up to frame 6 is
   * late: 4, 5 and 6 are dropped; 7-9 pass. */
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (gst_harness_push (h, frame (i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_upstream_event (h,
          gst_event_new_qos (GST_QOS_TYPE_UNDERFLOW, 2.0, 3 * FRAME,
              3 * FRAME)));
  for (; i < n; i++)
    fail_unless_equals_int (gst_harness_push (h, frame (i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  for (i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_try_pull (h);
    guint index;

    if (!out)
      break;
    index = GST_BUFFER_PTS (out) / FRAME;
    got++;
    fail_if (index >= 4 && index <= 6, "late frame %u was not dropped",
        index);
    if (index == 7)
      fail_unless (GST_BUFFER_IS_DISCONT (out), "no DISCONT after the gap");
    else if (index > 0)
      fail_if (GST_BUFFER_IS_DISCONT (out), "DISCONT on frame %u", index);
    gst_buffer_unref (out);
  }
  fail_unless_equals_int (got, n - 3);

  /* The last QoS message counts the outputs before it. */
  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_QOS)) != NULL) {
    gst_message_parse_qos_stats (msg, &format, &processed, &dropped);
    gst_message_unref (msg);
  }
  fail_unless_equals_uint64 (dropped, 3);
  /* Frames 0-3 were in before the drops, all but the frames held out. */
  fail_unless (processed >= 4 - (CE_CUDA_SLOTS - 1),
      "processed %" G_GUINT64_FORMAT, processed);

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static Suite *
runtime_suite (void)
{
  Suite *s = suite_create ("runtime");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bounded_downstream_pool_does_not_block);
#ifdef CE_TEST_HOOKS
  tcase_add_test (tc, test_fallback_asks_for_system_memory_pools);
#endif
  tcase_add_test (tc, test_qos_drop_marks_the_next_output_discont);
  return s;
}

int
main (int argc, char **argv)
{
  SRunner *sr;
  int failed;

  gst_check_init (&argc, &argv);
  /* As in ce_test_main (): the plugin sees the same emulated device. */
  if (g_getenv ("CUDAEDGE_TEST_FAKE_DEVICE") != NULL) {
    ce_cuda_set_fake_device (1);
    if (ce_cuda_fake_device ())
      g_print ("CUDAEDGE_TEST_FAKE_DEVICE: the CUDA backend runs on a device "
          "emulated on the CPU\n");
  }
  sr = srunner_create (runtime_suite ());
  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
#ifndef CE_TEST_HOOKS
  g_print ("NOTE: the fall-back case needs a build with -Dtest-hooks=true\n");
#endif
  if (n_skipped)
    g_print ("********************************************************\n"
        "SKIP: %u runtime cases NOT run: they need a GPU\n"
        "********************************************************\n",
        n_skipped);
  if (failed)
    return 1;
  return n_skipped ? 77 : 0;
}
