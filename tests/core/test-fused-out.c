/* gst-cudaedge: the fused kernels' float output code, checked on the host.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The float forms of the fused kernels turn four gradients into four
 * output bytes with estimates (the edges: lim - n in two multiply-adds,
 * its sign bits as the bytes; the l2 magnitude: a square root by
 * sqrt.approx) and settle exactly the rows an estimate leaves open.
 * ce_fused_out_host () runs that very code on the host, so these cases
 * compare it with ce_edge_value (), the definition, without a GPU: at
 * gradients next to every kind of limit and rounding boundary, where the
 * estimates are closest to being wrong, and at random ones.  The host's
 * root stands for sqrt.approx, the correctly rounded one moved by up to
 * 7 ulps either way (the GPU's measured at most 1 ulp off).
 */
#include <math.h>

#include "cudaedge-core.h"
#include "cudaedge-numerics.h"
#include "cudaedge-testing.h"
#include "ce-core-test.h"

/* Thresholds at the ends and in between; random ones are added. */
static const double fixed_thresholds[] = {
  0.0, 0.5, 1.0, 2.0, 3.25, 100.0, 128.0, 255.75, 1000.0, 2047.3, 2048.0
};

#define N_RANDOM_THRESHOLDS 24
#define N_NEAR 2000             /* quadruples next to boundaries a threshold */
#define N_RANDOM 500            /* random quadruples a threshold */

static const int root_ulps[] = { 0, 1, -1, 7, -7 };

/* The largest |gx| or |gy| the kernel makes: 4 B, B below 256 S. */
static int
g_max (int scale)
{
  return 4 * 255 * scale;
}

static int
random_sign (int v)
{
  return ce_test_rand () & 1 ? -v : v;
}

static int64_t
isqrt (int64_t v)
{
  return v <= 0 ? 0 : ce_isqrt64 (v);
}

/* One pixel's gradient next to the boundary the output has at level b:
 * the limit (edges) or where byte k begins (magnitude; k given for the
 * l2 magnitude with the blur, 0 otherwise). */
static void
near_pixel (const ce_edge_consts * c, int64_t b, int k, int32_t * gx,
    int32_t * gy)
{
  const int gm = g_max (c->scale);
  int64_t x, y;

  if (c->norm == CE_NORM_L1) {
    /* |gx| + |gy| = b + d */
    const int64_t s = b + ce_test_rand_range (-3, 3);
    x = ce_test_rand_range (0, (int) CLAMP (s, 0, gm));
    y = s - x;
  } else if (k > 0 && ce_test_rand () & 1) {
    /* n = r^2 - 2r + 1 + gy^2 with r = (k - 1/2) S an integer and gy^2
     * about 2r - 1: n within a few hundred of r^2, so u within about
     * 1e-5 of k, on either side */
    const int64_t r = (2 * k - 1) * (int64_t) c->scale / 2;
    x = r - 1;
    y = isqrt (2 * r - 1) + ce_test_rand_range (-1, 2);
  } else {
    /* gx^2 + gy^2 around b */
    x = ce_test_rand_range (0, (int) MIN ((int64_t) gm, isqrt (b)));
    y = isqrt (b - x * x) + ce_test_rand_range (-2, 2);
  }
  if (y < 0)
    y = 0;
  if (y > gm)
    y = gm;
  if (x > gm)
    x = gm;
  *gx = random_sign ((int) x);
  *gy = random_sign ((int) y);
}

/* The level next to which near_pixel () puts a pixel: the limit for the
 * edges; for the magnitude, where byte k begins: u = s / S + 1/2 = k
 * (l1, s = (k - 1/2) S) or sqrt (n) / S + 1/2 = k (l2, n = ((2k - 1)
 * S / 2)^2), for k drawn from 1 ... 256. */
static int64_t
near_level (const ce_edge_consts * c, int *k_out)
{
  const int64_t k = ce_test_rand_range (1, 256);
  const int64_t s2 = (2 * k - 1) * c->scale;    /* 2 (k - 1/2) S */

  *k_out = 0;
  if (c->output == CE_OUTPUT_EDGES)
    return c->limit;
  if (c->norm == CE_NORM_L1)
    return s2 / 2;
  if (c->scale > 1)
    *k_out = (int) k;
  return s2 * s2 / 4;
}

/* Rows the estimates left open, of those checked (the fast path must
 * stay the common one: settling every row would give the same bytes). */
static int n_open, n_checked;

/* Four pixels through the host's copy of the kernel's code, against
 * ce_edge_value (); FALSE (and a failed case) at the first difference. */
static gboolean
check_quad (const ce_edge_consts * c, const int32_t gx[4],
    const int32_t gy[4], int ulps, const char *what, double threshold)
{
  uint32_t got;
  int open;

  n_checked++;
  if (ce_fused_out_host (c, gx, gy, ulps, &got, &open) != 0) {
    ce_test_fail ("ce_fused_out_host refused gradients (%d, %d) ...",
        gx[0], gy[0]);
    return FALSE;
  }
  n_open += open != 0;
  for (int m = 0; m < 4; m++) {
    const unsigned want = ce_edge_value (gx[m], gy[m], c->limit, c->scale,
        c->norm, c->output);
    const unsigned byte = got >> (8 * m) & 0xffu;
    if (byte != want) {
      ce_test_fail ("%s, threshold %.4f (limit %" G_GINT64_FORMAT
          ", scale %d), root moved by %d ulps: gradient (%d, %d) gave %u, "
          "want %u", what, threshold, c->limit, c->scale, ulps, gx[m],
          gy[m], byte, want);
      return FALSE;
    }
  }
  return TRUE;
}

static void
check_output (ce_norm norm, ce_output output)
{
  static const char *const names[2][2] = {
    {"l2 edges", "l2 magnitude"}, {"l1 edges", "l1 magnitude"}
  };
  const char *what = names[norm == CE_NORM_L1][output == CE_OUTPUT_MAGNITUDE];
  const int n_ulps = norm == CE_NORM_L2 && output == CE_OUTPUT_MAGNITUDE
      ? (int) G_N_ELEMENTS (root_ulps) : 1;
  const int n_fixed = (int) G_N_ELEMENTS (fixed_thresholds);
  int random_open = 0, random_checked = 0;

  for (int blur = 0; blur < 2; blur++) {
    for (int t = 0; t < n_fixed + N_RANDOM_THRESHOLDS; t++) {
      ce_edge_params p;
      ce_edge_consts c;
      const double threshold = t < n_fixed ? fixed_thresholds[t]
          : CE_THRESHOLD_MAX * (ce_test_rand () / 4294967296.0);

      ce_edge_params_init (&p);
      p.blur = blur;
      p.norm = norm;
      p.output = output;
      p.threshold = threshold;
      ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);

      for (int i = 0; i < N_NEAR + N_RANDOM; i++) {
        int32_t gx[4], gy[4];
        const int gm = g_max (c.scale);

        for (int m = 0; m < 4; m++) {
          if (i < N_NEAR) {
            int k;
            const int64_t level = near_level (&c, &k);
            near_pixel (&c, level, k, &gx[m], &gy[m]);
          } else {
            gx[m] = ce_test_rand_range (-gm, gm);
            gy[m] = ce_test_rand_range (-gm, gm);
          }
        }
        if (i == N_NEAR)
          n_open = n_checked = 0;       /* the random ones counted apart */
        for (int u = 0; u < n_ulps; u++)
          if (!check_quad (&c, gx, gy, root_ulps[u], what, threshold))
            return;
        if (i == N_NEAR + N_RANDOM - 1)
          random_open += n_open, random_checked += n_checked;
      }
    }
  }
  /* The l1 outputs are exact floats: never open.  The l2 ones leave a
   * few random rows open (1 pixel in about 2000 for the magnitude). */
  g_test_message ("%s: %d of %d random rows open", what, random_open,
      random_checked);
  if (norm == CE_NORM_L1)
    g_assert_cmpint (random_open, ==, 0);
  else
    g_assert_cmpint (random_open, <=, random_checked / 100);
}

static void
test_l2_edges (void)
{
  check_output (CE_NORM_L2, CE_OUTPUT_EDGES);
}

static void
test_l1_edges (void)
{
  check_output (CE_NORM_L1, CE_OUTPUT_EDGES);
}

static void
test_l2_magnitude (void)
{
  check_output (CE_NORM_L2, CE_OUTPUT_MAGNITUDE);
}

static void
test_l1_magnitude (void)
{
  check_output (CE_NORM_L1, CE_OUTPUT_MAGNITUDE);
}

/* The edges at limits made from the gradients themselves: n or |gx| +
 * |gy| of the first pixel, minus 1, itself and plus 1 (every integer
 * limit up to (2048 S)^2 or 2048 S is one a threshold makes), so that
 * pixels sit on the limit whatever it is, an exact float or not. */
static void
check_edges_at_their_own_limit (ce_norm norm)
{
  const char *what = norm == CE_NORM_L2 ? "l2 edges, own limit"
      : "l1 edges, own limit";

  for (int blur = 0; blur < 2; blur++) {
    ce_edge_params p;
    ce_edge_consts c;
    const int gm = blur ? g_max (CE_BLUR_SCALE) : g_max (1);

    ce_edge_params_init (&p);
    p.blur = blur;
    p.norm = norm;
    ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
    for (int i = 0; i < 20000; i++) {
      int32_t gx[4], gy[4];
      const int64_t x = ce_test_rand_range (0, gm),
          y = ce_test_rand_range (0, gm);
      const int64_t n = norm == CE_NORM_L2 ? x * x + y * y : x + y;

      c.limit = n + ce_test_rand_range (-1, 1);
      if (c.limit < 0)
        c.limit = 0;
      gx[0] = random_sign ((int) x);
      gy[0] = random_sign ((int) y);
      for (int m = 1; m < 4; m++)
        near_pixel (&c, c.limit, 0, &gx[m], &gy[m]);
      if (!check_quad (&c, gx, gy, 0, what, -1.0))
        return;
    }
  }
}

static void
test_l2_edges_at_their_own_limit (void)
{
  check_edges_at_their_own_limit (CE_NORM_L2);
}

static void
test_l1_edges_at_their_own_limit (void)
{
  check_edges_at_their_own_limit (CE_NORM_L1);
}

/* Without the blur every gradient pair there is: 0 ... 1020 each (the
 * magnitude is even in both), the root moved by up to 7 ulps. */
static void
test_l2_magnitude_every_pair_without_blur (void)
{
  ce_edge_params p;
  ce_edge_consts c;
  const int gm = g_max (1);

  ce_edge_params_init (&p);
  p.blur = 0;
  p.output = CE_OUTPUT_MAGNITUDE;
  ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
  n_open = n_checked = 0;
  for (int u = 0; u < (int) G_N_ELEMENTS (root_ulps); u++)
    for (int x = 0; x <= gm; x++)
      for (int y = 0; y <= gm; y += 4) {
        const int32_t gx[4] = { x, x, x, x };
        const int32_t gy[4] = { y, MIN (y + 1, gm), MIN (y + 2, gm),
          MIN (y + 3, gm)
        };
        if (!check_quad (&c, gx, gy, root_ulps[u], "l2 magnitude, every pair",
                p.threshold))
          return;
      }
  /* No integer n has sqrt (n) within 2^-12 of a half-integer below 256
   * (the nearest are about 1 / (8 k) away), so no row is open. */
  g_assert_cmpint (n_open, ==, 0);
}

/* The host's prmt as the sign bytes use it: byte m is 0xff exactly where
 * word m's sign bit is set, whatever the words' other bits. */
static void
test_sign_bytes_from_every_sign_pattern (void)
{
  ce_edge_params p;
  ce_edge_consts c;

  ce_edge_params_init (&p);
  p.norm = CE_NORM_L1;
  p.blur = 0;
  p.threshold = 10.0;           /* limit 10: an edge where |gx| + |gy| > 10 */
  ce_assert_status (ce_edge_consts_init (&c, &p), CE_STATUS_OK);
  for (int pattern = 0; pattern < 16; pattern++) {
    int32_t gx[4], gy[4];
    for (int m = 0; m < 4; m++) {
      const int edge = pattern >> m & 1;
      gx[m] = random_sign (edge ? ce_test_rand_range (6, 1020) : 5);
      gy[m] = random_sign (edge ? ce_test_rand_range (5, 1020) : 5);
    }
    if (!check_quad (&c, gx, gy, 0, "l1 edges, sign patterns", p.threshold))
      return;
  }
}

/* The interior's rolling Sobel window (gx from each row's column
 * differences, gy from the columns of two rows' differences) against the
 * Sobel's definition on B: strips of random B, of B at its ends (0 and
 * the largest, 255 S, where |gx| and |gy| reach 4 of it), and of steps. */
#define WINDOW_ROWS 37

static int32_t
b_at (const int32_t * b, int r, int q)
{
  return b[6 * r + q];
}

static void
test_sobel_window_matches_the_definition (void)
{
  const int32_t bmax = 255 * CE_BLUR_SCALE;
  int32_t b[6 * WINDOW_ROWS], gx[4 * (WINDOW_ROWS - 2)],
      gy[4 * (WINDOW_ROWS - 2)];

  for (int kind = 0; kind < 4; kind++)
    for (int rep = 0; rep < 50; rep++) {
      for (int r = 0; r < WINDOW_ROWS; r++)
        for (int q = 0; q < 6; q++) {
          int32_t v;
          switch (kind) {
            case 0:            /* random */
              v = ce_test_rand_range (0, bmax);
              break;
            case 1:            /* only the ends */
              v = ce_test_rand () & 1 ? bmax : 0;
              break;
            case 2:            /* a step across the columns */
              v = q >= 3 ? bmax : 0;
              if (rep & 1)
                v = bmax - v;
              break;
            default:           /* a step across the rows */
              v = r >= WINDOW_ROWS / 2 ? bmax : 0;
              if (rep & 1)
                v = bmax - v;
              break;
          }
          b[6 * r + q] = v;
        }
      for (int i = 0; i < 4 * (WINDOW_ROWS - 2); i++)
        gx[i] = gy[i] = INT32_MIN;      /* none of them a gradient */
      g_assert_cmpint (ce_fused_sobel_window_host (b, WINDOW_ROWS, gx, gy),
          ==, 0);
      for (int j = 0; j < WINDOW_ROWS - 2; j++)
        for (int m = 0; m < 4; m++) {
          const int32_t want_x =
              (b_at (b, j, m + 2) + 2 * b_at (b, j + 1, m + 2) +
              b_at (b, j + 2, m + 2)) - (b_at (b, j, m) +
              2 * b_at (b, j + 1, m) + b_at (b, j + 2, m));
          const int32_t want_y =
              (b_at (b, j + 2, m) + 2 * b_at (b, j + 2, m + 1) +
              b_at (b, j + 2, m + 2)) - (b_at (b, j, m) +
              2 * b_at (b, j, m + 1) + b_at (b, j, m + 2));
          if (gx[4 * j + m] != want_x || gy[4 * j + m] != want_y) {
            ce_test_fail ("strip kind %d: row %d column %d gives (%d, %d), "
                "the definition (%d, %d)", kind, j, m, gx[4 * j + m],
                gy[4 * j + m], want_x, want_y);
            return;
          }
        }
    }
  /* bad arguments are refused */
  g_assert_cmpint (ce_fused_sobel_window_host (b, 2, gx, gy), ==, -1);
  b[7] = bmax + 1;
  g_assert_cmpint (ce_fused_sobel_window_host (b, WINDOW_ROWS, gx, gy),
      ==, -1);
  b[7] = -1;
  g_assert_cmpint (ce_fused_sobel_window_host (b, WINDOW_ROWS, gx, gy),
      ==, -1);
  g_assert_cmpint (ce_fused_sobel_window_host (NULL, WINDOW_ROWS, gx, gy),
      ==, -1);
  b[7] = 0;
  g_assert_cmpint (ce_fused_sobel_window_host (b, WINDOW_ROWS, NULL, gy),
      ==, -1);
  g_assert_cmpint (ce_fused_sobel_window_host (b, WINDOW_ROWS, gx, NULL),
      ==, -1);
}

void
ce_test_register_fused_out (void)
{
  ce_test_add ("/cuda/fused-out/l2-edges", test_l2_edges);
  ce_test_add ("/cuda/fused-out/l1-edges", test_l1_edges);
  ce_test_add ("/cuda/fused-out/l2-magnitude", test_l2_magnitude);
  ce_test_add ("/cuda/fused-out/l1-magnitude", test_l1_magnitude);
  ce_test_add ("/cuda/fused-out/l2-edges-at-their-own-limit",
      test_l2_edges_at_their_own_limit);
  ce_test_add ("/cuda/fused-out/l1-edges-at-their-own-limit",
      test_l1_edges_at_their_own_limit);
  ce_test_add ("/cuda/fused-out/l2-magnitude-every-pair-without-blur",
      test_l2_magnitude_every_pair_without_blur);
  ce_test_add ("/cuda/fused-out/sign-bytes-from-every-sign-pattern",
      test_sign_bytes_from_every_sign_pattern);
  ce_test_add ("/cuda/fused-out/sobel-window-matches-the-definition",
      test_sobel_window_matches_the_definition);
}
