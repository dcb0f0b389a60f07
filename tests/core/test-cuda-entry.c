/* gst-cudaedge: the CUDA entry points' argument checks and failures, on
 * every build.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The same cases run on a build without CUDA (cuda/cudaedge-nocuda.c:
 * CE_STATUS_NOT_BUILT), on a CUDA build on a machine without a GPU
 * (CE_STATUS_NO_DEVICE) and with one: bad arguments are refused alike,
 * a failed call leaves what it would have returned as it was (or sets
 * the documented "nothing"), and freeing nothing succeeds.  No case needs
 * a device, and none makes a context.
 */
#include <limits.h>
#include <string.h>

#include "cudaedge-core.h"
#include "ce-core-test.h"

/* Without a usable device: the build says which. */
static gboolean
is_no_device (ce_status s)
{
  return s == CE_STATUS_NO_DEVICE || s == CE_STATUS_NOT_BUILT;
}

static void
test_device_count (void)
{
  int count = 42;
  ce_status s;

  ce_assert_invalid (ce_cuda_device_count (NULL), "count");
  s = ce_cuda_device_count (&count);
  if (s == CE_STATUS_OK)
    g_assert_cmpint (count, >=, 1);
  else if (is_no_device (s))
    g_assert_cmpint (count, ==, 0);
  else
    ce_test_fail ("ce_cuda_device_count returned %s: %s",
        ce_status_string (s), ce_last_error ());
}

static void
test_device_pick (void)
{
  int picked = 42;
  ce_status s;

  ce_assert_invalid (ce_cuda_device_pick (-1, NULL), "picked");
  ce_assert_invalid (ce_cuda_device_pick (-2, &picked), "device id");
  g_assert_cmpint (picked, ==, 42);

  s = ce_cuda_device_pick (-1, &picked);
  if (s == CE_STATUS_OK) {
    g_assert_cmpint (picked, >=, 0);
  } else {
    g_assert_true (is_no_device (s));
    g_assert_cmpint (picked, ==, 42);
  }

  /* an index no machine has */
  picked = 42;
  s = ce_cuda_device_pick (1 << 20, &picked);
  g_assert_true (is_no_device (s));
  g_assert_cmpint (picked, ==, 42);
}

static void
test_context_arguments (void)
{
  ce_cuda_ctx *ctx = (ce_cuda_ctx *) & ctx;     /* not NULL */

  ce_assert_invalid (ce_cuda_ctx_new (-1, 2, NULL), "ctx");
  ce_assert_invalid (ce_cuda_ctx_new (-1, 1, &ctx), "n_streams");
  g_assert_null (ctx);
  ctx = (ce_cuda_ctx *) & ctx;
  ce_assert_invalid (ce_cuda_ctx_new (-1, CE_CUDA_MAX_STREAMS + 1, &ctx),
      "n_streams");
  g_assert_null (ctx);
  ctx = (ce_cuda_ctx *) & ctx;
  ce_assert_invalid (ce_cuda_ctx_new (-2, 2, &ctx), "device id");
  g_assert_null (ctx);

  ctx = (ce_cuda_ctx *) & ctx;
  ce_assert_invalid (ce_cuda_ctx_new_current (2, NULL), "ctx");
  ce_assert_invalid (ce_cuda_ctx_new_current (1, &ctx), "n_streams");
  g_assert_null (ctx);
  ctx = (ce_cuda_ctx *) & ctx;
  ce_assert_invalid (ce_cuda_ctx_new_current (INT_MAX, &ctx), "n_streams");
  g_assert_null (ctx);

  /* an index no machine has: no context, and ctx says so */
  ctx = (ce_cuda_ctx *) & ctx;
  g_assert_true (is_no_device (ce_cuda_ctx_new (1 << 20, 2, &ctx)));
  g_assert_null (ctx);

  /* what a missing context gives */
  ce_cuda_ctx_free (NULL);
  g_assert_cmpint (ce_cuda_ctx_device_id (NULL), ==, -1);
  g_assert_cmpstr (ce_cuda_ctx_device_name (NULL), ==, "");
}

static void
test_pinned_memory_arguments (void)
{
  void *block = &block;
  int any;

  ce_assert_invalid (ce_cuda_host_alloc (NULL, 16, &block), "ctx");
  g_assert_true (block == &block);
  /* freeing nothing, or without a context, succeeds and touches nothing */
  ce_assert_status (ce_cuda_host_free (NULL, NULL), CE_STATUS_OK);
  ce_assert_status (ce_cuda_host_free (NULL, &any), CE_STATUS_OK);
}

/* The frame calls without a context: refused, whatever else they get. */
static void
test_frame_calls_without_a_context (void)
{
  uint8_t pixels[16 * 16] = { 0 }, out[32 * 32];
  ce_edge_params params;
  ce_frame frame;

  ce_edge_params_init (&params);
  memset (&frame, 0, sizeof frame);
  frame.format = CE_FORMAT_GRAY8;
  frame.width = 16;
  frame.height = 16;
  frame.data = pixels;
  frame.stride = 16;

  ce_assert_invalid (ce_cuda_edge_frame (NULL, &frame, &params, out, 32,
          NULL), "ctx");
  ce_assert_invalid (ce_cuda_edge_frame_submit (NULL, 0, &frame, &params,
          out, 32), "ctx");
  ce_assert_invalid (ce_cuda_upscale2x_frame (NULL, pixels, 16, 16, 16, 1,
          out, 32, NULL), "ctx");
  ce_assert_invalid (ce_cuda_upscale2x_frame_submit (NULL, 0, pixels, 16,
          16, 16, 1, out, 32), "ctx");
  ce_assert_invalid (ce_cuda_frame_wait (NULL, 0, NULL), "ctx");
}

void
ce_test_register_cuda_entry (void)
{
  ce_test_add ("/cuda-entry/device-count", test_device_count);
  ce_test_add ("/cuda-entry/device-pick", test_device_pick);
  ce_test_add ("/cuda-entry/context-arguments", test_context_arguments);
  ce_test_add ("/cuda-entry/pinned-memory-arguments",
      test_pinned_memory_arguments);
  ce_test_add ("/cuda-entry/frame-calls-without-a-context",
      test_frame_calls_without_a_context);
}
