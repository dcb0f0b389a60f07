/* gst-cudaedge: the strips of the fused edge kernel, checked on the host.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Which lane of which warp takes which output pixels, and whether it reads
 * through the border rule or not, is decided by the fused kernels' task
 * functions; ce_fused_layout_errors() runs them on the host over a
 * launch's whole grid.  Here that is done for many frame widths and
 * heights, bands of rows, blur on and off, aligned and unaligned data and
 * GPUs of several sizes: every output pixel must be taken exactly once,
 * and no interior strip may read outside the frame.  No GPU is needed, so
 * these cases run everywhere the CUDA path is built; the GPU families
 * then check the bytes themselves on the sizes they cover.
 */
#include <stdio.h>

#include "cudaedge-core.h"
#include "cudaedge-testing.h"
#include "ce-core-test.h"

/* Resident warps of a GPU with 1 multiprocessor, of an H200 (132
 * multiprocessors of 16 warps each: 4 blocks of 4 warps), of the same
 * GPU holding 28 warps a multiprocessor, and of one so large that every
 * frame takes the short kernel.  The interior of 4096x4096 takes two
 * waves with the second, one with the third. */
static const int residents[] = { 28, 2112, 3696, 1 << 22 };

#define N_RESIDENTS ((int) (sizeof residents / sizeof residents[0]))

static int tensor_cores;        /* the layout checked: interior on tensor
                                 * cores or not (blur on only) */

static gboolean
check (int w, int h, int r0, int r1, int blur, int aligned, int resident)
{
  char what[256];
  int errors;

  if (r0 >= r1)
    return TRUE;
  errors = ce_fused_layout_errors (w, h, r0, r1, blur, aligned, resident,
      tensor_cores, what, sizeof what);
  if (errors < 0) {
    g_test_skip ("the core is built without CUDA");
    return FALSE;
  }
  if (errors > 0) {
    ce_test_fail ("%d faults; the first: %s (%d warps resident, tensor "
        "cores %s)", errors, what, resident, tensor_cores ? "on" : "off");
    return FALSE;
  }
  return TRUE;
}

/* The whole frame, its thirds, and all but its first and last rows. */
static gboolean
check_bands (int w, int h, int blur, int aligned, int resident)
{
  return check (w, h, 0, h, blur, aligned, resident)
      && check (w, h, 0, h / 3, blur, aligned, resident)
      && check (w, h, h / 3, 2 * h / 3, blur, aligned, resident)
      && check (w, h, 2 * h / 3, h, blur, aligned, resident)
      && check (w, h, 1, h - 1, blur, aligned, resident);
}

static gboolean
check_all (int w, int h)
{
  for (int r = 0; r < N_RESIDENTS; r++)
    for (int blur = 0; blur < 2; blur++)
      for (int aligned = 0; aligned < 2; aligned++)
        if (!check_bands (w, h, blur, aligned, residents[r]))
          return FALSE;
  return TRUE;
}

static void
test_small_frames (void)
{
  for (int w = 1; w <= 24; w++)
    for (int h = 1; h <= 24; h++)
      if (!check_all (w, h))
        return;
}

/* Widths around one and two warp columns (128 pixels) and the 12 a frame
 * needs for interior lanes, heights around one strip and one block of
 * strips. */
static void
test_widths_around_warp_columns (void)
{
  static const int ws[] = { 11, 12, 13, 31, 127, 128, 129, 131, 132, 133,
    135, 136, 137, 255, 256, 259, 263, 641
  };
  static const int hs[] = { 1, 7, 8, 9, 13, 14, 15, 33, 64, 65, 481 };

  for (size_t i = 0; i < G_N_ELEMENTS (ws); i++)
    for (size_t j = 0; j < G_N_ELEMENTS (hs); j++)
      if (!check_all (ws[i], hs[j]))
        return;
}

/* Video sizes, odd ones and tall narrow ones, aligned, on an H200, on a
 * GPU of more resident warps and on a one-multiprocessor GPU (whose
 * strips are tallest). */
static void
test_large_frames (void)
{
  static const int sizes[][2] = {
    {640, 480}, {641, 481}, {613, 611}, {1280, 720}, {1920, 1080},
    {2565, 1443}, {3840, 2160}, {3843, 2163}, {16, 100000}, {13, 50000},
  };

  for (size_t i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int r = 0; r < 3; r++)
      for (int blur = 0; blur < 2; blur++)
        if (!check_bands (sizes[i][0], sizes[i][1], blur, 1, residents[r]))
          return;
  /* the largest, whole frames only */
  for (int r = 1; r < 3; r++)
    for (int blur = 0; blur < 2; blur++)
      if (!check (4096, 4096, 0, 4096, blur, 1, residents[r])
          || !check (7680, 4320, 0, 4320, blur, 1, residents[r]))
        return;
}

/* Widths around tensor-core tiles (16 columns from column 4, the last
 * one cut at the frame's side lanes), heights around their strips. */
static void
test_widths_around_tiles (void)
{
  for (int w = 12; w <= 60; w++)
    for (int h = 150; h <= 420; h += 15)
      for (int r = 0; r < N_RESIDENTS; r++)
        if (!check_bands (w, h, 1, 1, residents[r]))
          return;
}

/* Each family again with the interior on tensor cores. */
#define ON_TENSOR_CORES(f) \
  static void f ## _tc (void) { tensor_cores = 1; f (); tensor_cores = 0; }
ON_TENSOR_CORES (test_small_frames)
ON_TENSOR_CORES (test_widths_around_warp_columns)
ON_TENSOR_CORES (test_large_frames)
ON_TENSOR_CORES (test_widths_around_tiles)

void
ce_test_register_fused_layout (void)
{
  ce_test_add ("/cuda/fused-layout/small-frames", test_small_frames);
  ce_test_add ("/cuda/fused-layout/widths-around-warp-columns",
      test_widths_around_warp_columns);
  ce_test_add ("/cuda/fused-layout/large-frames", test_large_frames);
  ce_test_add ("/cuda/fused-layout/tensor-cores/small-frames",
      test_small_frames_tc);
  ce_test_add ("/cuda/fused-layout/tensor-cores/widths-around-warp-columns",
      test_widths_around_warp_columns_tc);
  ce_test_add ("/cuda/fused-layout/tensor-cores/large-frames",
      test_large_frames_tc);
  ce_test_add ("/cuda/fused-layout/tensor-cores/widths-around-tiles",
      test_widths_around_tiles_tc);
}
