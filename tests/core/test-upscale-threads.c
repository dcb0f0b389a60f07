/* gst-cudaedge: the upscale kernel's threads, checked on the host.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each thread of the 2x upscale kernel makes 4 output columns of 2
 * output rows from a clamped 4 x 3 neighbourhood, with fixed weights
 * that stand for ce_upscale_axis () (cuda/cudaedge-kernels.cu says why
 * they are the same at the edges), its block rows looping over the row
 * pairs when the grid is capped.  ce_upscale2x_host () runs that very
 * code on the host over every thread of a launch's grid, so its indexing
 * and arithmetic are checked here against the reference without a GPU:
 * every width and height up to 37 x 11 and a few wider frames, both pixel
 * sizes, whole frames and bands of rows, destinations that take whole
 * group stores and destinations that do not (both checked to be so), and
 * grids of the H200's size, of a few blocks (several passes) and of one
 * block (narrower than a row of blocks).  Bytes outside the rows asked
 * for, and the row padding, must keep their poison.  The GPU families
 * check the kernel itself.
 */
#include <string.h>

#include "cudaedge-core.h"
#include "cudaedge-testing.h"
#include "ce-core-test.h"

#define POISON 0xA5

/* Grids of an H200 (132 multiprocessors, 8 blocks each), of 3 blocks
 * (block rows loop over the row pairs) and of 1 (narrower than one row
 * of blocks of a wide frame). */
static const int grids[] = { 1056, 3, 1 };

/* Rows [r0, r1) of a W x H upscale, into a destination that allows
 * whole-group stores (aligned) or not: 16-byte aligned base and pitch,
 * or, off them, by 4 bytes for RGBA (the kernel's least) and by 1 for
 * GRAY8. */
static gboolean
check (const guint8 * src, gsize ss, int w, int h, int bpp,
    const guint8 * want, gsize ws, int r0, int r1, gboolean aligned,
    int max_blocks)
{
  const gsize row = (gsize) 2 * w * bpp;
  const gsize skew = aligned ? 0 : bpp == 4 ? 4 : 1;
  const gsize pitch = ((row + 15) & ~(gsize) 15) + 16 + skew;
  guint8 *buf = g_malloc (pitch * 2 * h + 32), *dst;
  char what[160];
  gboolean ok;
  int whole = -1;

  dst = buf + ((16 - ((guintptr) buf & 15)) & 15) + skew;
  memset (buf, POISON, pitch * 2 * h + 32);
  if (ce_upscale2x_host (src, ss, w, h, bpp, r0, r1, dst, pitch, max_blocks,
          &whole) != 0) {
    g_free (buf);
    g_test_skip ("the core is built without CUDA");
    return FALSE;
  }
  g_snprintf (what, sizeof what, "%dx%d, %d B/px, rows %d-%d, %s, %d "
      "blocks", w, h, bpp, r0, r1, aligned ? "whole stores" : "unaligned",
      max_blocks);
  if (whole != (aligned ? 1 : 0))
    ce_test_fail ("%s: whole stores %d", what, whole);
  ok = whole == (aligned ? 1 : 0)
      && ce_assert_rows_equal (what, want + (gsize) r0 * ws, ws,
      dst + (gsize) r0 * pitch, pitch, row, 0, r1 - r0, POISON)
      && ce_assert_poisoned (what, dst, pitch, row, pitch, 0, 2 * h, POISON)
      && ce_assert_poisoned (what, dst, pitch, 0, row, 0, r0, POISON)
      && ce_assert_poisoned (what, dst, pitch, 0, row, r1, 2 * h, POISON);
  g_free (buf);
  return ok;
}

static gboolean
check_frame (int w, int h, int bpp)
{
  const gsize ss = (gsize) w * bpp + 3 * bpp, ws = (gsize) 2 * w * bpp;
  guint8 *src = g_malloc (ss * h), *want = g_malloc (ws * 2 * h);
  gboolean ok = TRUE;
  gsize i, g;
  int a;

  for (i = 0; i < ss * h; i++)
    src[i] = (guint8) ce_test_rand ();
  ce_assert_status (ce_ref_upscale2x (src, ss, w, h, bpp, want, ws),
      CE_STATUS_OK);
  for (g = 0; g < G_N_ELEMENTS (grids) && ok; g++)
    for (a = 0; a < 2 && ok; a++) {
      const gboolean aligned = a == 0;
      const int n = 2 * h, m = grids[g];

      ok = check (src, ss, w, h, bpp, want, ws, 0, n, aligned, m)
          && check (src, ss, w, h, bpp, want, ws, 0, MAX (n / 3, 1), aligned,
          m)
          && (n / 3 >= 2 * n / 3 || check (src, ss, w, h, bpp, want, ws,
                  n / 3, 2 * n / 3, aligned, m))
          && (n < 3 || check (src, ss, w, h, bpp, want, ws, 1, n - 1,
                  aligned, m))
          && check (src, ss, w, h, bpp, want, ws, n - 1, n, aligned, m);
    }
  g_free (src);
  g_free (want);
  return ok;
}

static void
test_small_frames (void)
{
  int w, h, bpp;

  ce_test_seed (4242);
  for (bpp = 1; bpp <= 4; bpp += 3)
    for (h = 1; h <= 11; h++)
      for (w = 1; w <= 37; w++)
        if (!check_frame (w, h, bpp))
          return;
}

static void
test_wider_frames (void)
{
  /* Frames wider than a row of blocks (64 columns of source), and one
   * tall enough that H200-sized grids loop too. */
  static const int sizes[][2] = { {641, 5}, {613, 3}, {1023, 2}, {64, 48},
  {127, 9}, {65, 300}
  };
  gsize k;
  int bpp;

  ce_test_seed (4343);
  for (k = 0; k < G_N_ELEMENTS (sizes); k++)
    for (bpp = 1; bpp <= 4; bpp += 3)
      if (!check_frame (sizes[k][0], sizes[k][1], bpp))
        return;
}

static void
test_rejects_bad_arguments (void)
{
  guint32 words[64] = { 0 };
  guint8 *src = (guint8 *) words, *dst = (guint8 *) (words + 16);

  if (ce_upscale2x_host (src, 4, 2, 2, 1, 0, 4, dst, 16, 8, NULL) != 0) {
    g_test_skip ("the core is built without CUDA");
    return;
  }
  /* pixel size, rows, pointers, pitches, grid */
  g_assert_cmpint (ce_upscale2x_host (src, 4, 2, 2, 3, 0, 4, dst, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 4, 2, 2, 1, 0, 5, dst, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 4, 2, 2, 1, 2, 2, dst, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (NULL, 4, 2, 2, 1, 0, 4, dst, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 1, 2, 2, 1, 0, 4, dst, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 8, 2, 2, 4, 0, 4, dst, 8, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 10, 2, 2, 4, 0, 4, dst, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 8, 2, 2, 4, 0, 4, dst + 2, 16, 8,
          NULL), ==, -1);
  g_assert_cmpint (ce_upscale2x_host (src, 4, 2, 2, 1, 0, 4, dst, 16, 0,
          NULL), ==, -1);
}

void
ce_test_register_upscale_threads (void)
{
  ce_test_add ("/cuda/upscale-threads/small-frames", test_small_frames);
  ce_test_add ("/cuda/upscale-threads/wider-frames", test_wider_frames);
  ce_test_add ("/cuda/upscale-threads/rejects-bad-arguments",
      test_rejects_bad_arguments);
}
