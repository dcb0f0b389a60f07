/* gst-cudaedge: the fast CPU edge chain against the CPU reference.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ce_cpu_edge_rows() must give exactly the bytes of ce_ref_edge_frame()
 * (memcmp, no tolerance) for every format, size, stride, option and row
 * band, write nothing outside its band, and refuse bad arguments.  The
 * timings it reports (/cpu/fast/timing) are informative only and never
 * asserted.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudaedge-core.h"
#include "ce-core-test.h"

/* ---- helpers ---- */

typedef enum
{
  PAT_RANDOM = 0,               /* every byte random */
  PAT_STEPS,                    /* blocks of random levels: steps, flats */
  PAT_IMPULSES,                 /* sparse impulses of random height on a level */
  PAT_RAMPS,                    /* gradients of several slopes */
  PAT_COUNT
} pattern;

typedef struct
{
  ce_frame f;
  uint8_t *mem;
} test_frame;

/* A frame with stride = row bytes + pad.  Structured patterns give every
 * byte of a pixel the same value, so RGB luma equals it as well
 * ((77 + 150 + 29) v + 128) >> 8 = v. */
static test_frame
make_frame (ce_format format, int w, int h, size_t pad, pattern pat)
{
  test_frame t;
  ce_luma_layout l;
  size_t stride;
  int block = ce_test_rand_range (1, 9), level = ce_test_rand_range (0, 255);
  int sx = ce_test_rand_range (1, 40), sy = ce_test_rand_range (0, 40);

  ce_luma_layout_get (format, &l);
  stride = (size_t) w * l.bytes_per_pixel + pad;
  t.mem = g_malloc (stride * h);
  ce_test_fill_random (t.mem, stride * h);
  for (int y = 0; y < h; y++) {
    uint8_t *row = t.mem + (size_t) y * stride;
    for (int x = 0; x < w; x++) {
      int v = 0;
      switch (pat) {
        case PAT_RANDOM:
          continue;
        case PAT_STEPS:{
          /* a level per block, hashed from its coordinates */
          uint32_t hsh = (uint32_t) (x / block) * 2654435761u ^
              (uint32_t) (y / (block + 1)) * 40503u ^ (uint32_t) level;
          hsh ^= hsh >> 13;
          hsh *= 0x5bd1e995u;
          hsh ^= hsh >> 15;
          v = (hsh & 1) ? 255 : (hsh >> 1) & 0xff;
          if ((hsh >> 9) % 3 == 0)
            v = (hsh >> 11) & 1 ? 0 : 255;
          break;
        }
        case PAT_IMPULSES:
          v = ce_test_rand () % 23 == 0 ? (int) (ce_test_rand () & 0xff) :
              level;
          break;
        case PAT_RAMPS:
          v = (x * sx + y * sy) & 0x1ff;
          v = v > 255 ? 511 - v : v;
          break;
        default:
          break;
      }
      for (int c = 0; c < l.bytes_per_pixel; c++)
        row[(size_t) x * l.bytes_per_pixel + c] = (uint8_t) v;
    }
  }
  t.f = ce_test_frame (t.mem, stride, w, h, format);
  return t;
}

static const double thresholds[] = { 0.0, 0.5, 37.3, 128.0, 2048.0 };
#define N_THRESHOLDS 5
#define N_PARAM_COMBOS (2 * 3 * 2 * 2 * N_THRESHOLDS)

/* The i-th of every option combination. */
static ce_edge_params
combo_params (int i)
{
  int t = i % N_THRESHOLDS;
  i /= N_THRESHOLDS;
  int blur = i % 2;
  i /= 2;
  int border = i % 3;
  i /= 3;
  int norm = i % 2;
  i /= 2;
  int output = i % 2;
  return ce_test_params (thresholds[t], blur, (ce_border_mode) border,
      (ce_norm) norm, (ce_output) output);
}

static void
describe (char *buf, size_t n, const ce_frame * f, const ce_edge_params * p,
    const char *what)
{
  snprintf (buf, n, "%s %dx%d stride %zu, threshold %g blur %d %s %s %s%s%s",
      ce_format_name (f->format), f->width, f->height, f->stride,
      p->threshold, p->blur, ce_test_border_name (p->border),
      ce_test_norm_name (p->norm), ce_test_output_name (p->output),
      what[0] ? ": " : "", what);
}

/* Runs ce_cpu_edge_rows over [0, H) in bands into a poisoned image with
 * dst_pad bytes past each row, and compares with the reference: the image
 * by memcmp, the padding still poisoned.  Returns TRUE when identical. */
static gboolean
compare_with_reference (const ce_frame * f, const ce_edge_params * p,
    ce_test_bands bands, const uint8_t * ref, size_t ref_stride,
    size_t dst_pad)
{
  int w = f->width, h = f->height;
  gboolean ok = TRUE;
  size_t stride = (size_t) w + dst_pad;
  uint8_t *got = g_malloc (stride * h);
  char desc[256], what[300];

  memset (got, CE_TEST_POISON, stride * h);
  for (int r0 = 0; r0 < h;) {
    int r1 = ce_test_band_end (bands, r0, h);
    ce_status s = ce_cpu_edge_rows (f, p, r0, r1, got, stride);
    if (s != CE_STATUS_OK) {
      describe (desc, sizeof desc, f, p, ce_last_error ());
      ce_test_fail ("rows [%d, %d): %s: %s", r0, r1, ce_status_string (s),
          desc);
      ok = FALSE;
      break;
    }
    r0 = r1;
  }
  if (ok) {
    describe (desc, sizeof desc, f, p, "");
    snprintf (what, sizeof what, "%s (bands %d, dst pad %zu)", desc,
        (int) bands, dst_pad);
    ok = ce_assert_rows_equal (what, ref, ref_stride, got, stride,
        (size_t) w, 0, h, CE_TEST_POISON)
        && ce_assert_poisoned (what, got, stride, (size_t) w, stride, 0, h,
        CE_TEST_POISON);
  }
  g_free (got);
  return ok;
}

/* Reference output, then the fast path in the given band layouts (bit b
 * of band_mask: ce_test_bands b). */
static gboolean
check_frame (const ce_frame * f, const ce_edge_params * p, int band_mask,
    size_t dst_pad)
{
  int w = f->width, h = f->height;
  gboolean ok = TRUE;
  size_t ref_stride = (size_t) w + 3;
  uint8_t *ref = g_malloc (ref_stride * h);
  ce_status s = ce_ref_edge_frame (f, p, ref, ref_stride);

  if (s != CE_STATUS_OK) {
    ce_test_fail ("reference failed: %s", ce_last_error ());
    g_free (ref);
    return FALSE;
  }
  for (int b = 0; b < CE_TEST_BANDS_COUNT && ok; b++)
    if (band_mask & (1 << b))
      ok = compare_with_reference (f, p, (ce_test_bands) b, ref, ref_stride,
          dst_pad);
  g_free (ref);
  return ok;
}

/* ---- tests ---- */

/* Small frames (reflect folds more than once on 1, 2 and 3 pixels): every
 * format, every option combination, every pattern, every band layout. */
static void
test_small_frames_every_format_and_option (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 3}, {5, 4}, {2, 5}, {4, 2}, {3, 1},
    {1, 3}
  };
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int fmt = 0; fmt < CE_FORMAT_COUNT; fmt++) {
      for (int pat = 0; pat < PAT_COUNT; pat++) {
        test_frame t = make_frame ((ce_format) fmt, sizes[s][0], sizes[s][1],
            (size_t) ce_test_rand_range (0, 5), (pattern) pat);
        for (int i = 0; i < N_PARAM_COMBOS; i++) {
          ce_edge_params p = combo_params (i);
          if (!check_frame (&t.f, &p, 7, (size_t) ce_test_rand_range (0, 3)))
            break;
        }
        g_free (t.mem);
      }
    }
  }
}

/* 31x33: every format and option, random bands and whole frames. */
static void
test_31x33_every_format_and_option (void)
{
  for (int fmt = 0; fmt < CE_FORMAT_COUNT; fmt++) {
    for (int pat = 0; pat < PAT_COUNT; pat++) {
      test_frame t = make_frame ((ce_format) fmt, 31, 33,
          (size_t) ce_test_rand_range (0, 17), (pattern) pat);
      for (int i = 0; i < N_PARAM_COMBOS; i++) {
        ce_edge_params p = combo_params (i);
        int mask = i % 7 == 0 ? 7 : 3;
        if (!check_frame (&t.f, &p, mask, (size_t) ce_test_rand_range (0, 9)))
          break;
      }
      g_free (t.mem);
    }
  }
}

/* Narrow and short frames of many sizes (the border columns and rows are
 * most of the frame), a random format and option set each. */
static void
test_many_small_sizes (void)
{
  for (int w = 1; w <= 12; w++) {
    for (int h = 1; h <= 12; h++) {
      for (int k = 0; k < 6; k++) {
        ce_format fmt =
            (ce_format) ce_test_rand_range (0, CE_FORMAT_COUNT - 1);
        test_frame t = make_frame (fmt, w, h,
            (size_t) ce_test_rand_range (0, 7),
            (pattern) ce_test_rand_range (0, PAT_COUNT - 1));
        ce_edge_params p =
            combo_params (ce_test_rand_range (0, N_PARAM_COMBOS - 1));
        check_frame (&t.f, &p, 7, (size_t) ce_test_rand_range (0, 4));
        g_free (t.mem);
      }
    }
  }
}

/* Widths around the chunk sizes of vector loops (tails of every length). */
static void
test_widths_around_vector_chunks (void)
{
  for (int w = 13; w <= 70; w++) {
    ce_format fmt = (ce_format) (w % CE_FORMAT_COUNT);
    test_frame t = make_frame (fmt, w, 6, (size_t) (w % 5),
        (pattern) (w % PAT_COUNT));
    for (int i = w % 4; i < N_PARAM_COMBOS; i += 4) {
      ce_edge_params p = combo_params (i);
      check_frame (&t.f, &p, 3, 1);
    }
    g_free (t.mem);
  }
}

/* Thresholds swept in quarter gray levels over step images, so that many
 * gradients land exactly on the limit (strictly greater, floors). */
static void
test_threshold_sweep_on_steps (void)
{
  test_frame t = make_frame (CE_FORMAT_GRAY8, 23, 9, 0, PAT_STEPS);
  for (int j = 0; j <= 4 * 1100; j += (j < 1200 ? 1 : 7)) {
    for (int k = 0; k < 4; k++) {
      ce_edge_params p = ce_test_params (j / 4.0, k & 1,
          (ce_border_mode) ((j + k) % 3), (k & 2) ? CE_NORM_L1 : CE_NORM_L2,
          CE_OUTPUT_EDGES);
      if (p.threshold > CE_THRESHOLD_MAX)
        continue;
      if (!check_frame (&t.f, &p, 1, 0))
        goto out;
    }
  }
out:
  g_free (t.mem);
}

/* Vertical steps of every height: the magnitude hits every k exactly on
 * its rounding boundary, with blur (S = 256) and without. */
static void
test_magnitude_on_steps_of_every_height (void)
{
  for (int a = 0; a < 256; a += 1) {
    test_frame t = make_frame (CE_FORMAT_GRAY8, 9, 5, 0, PAT_RANDOM);
    uint8_t *m = (uint8_t *) t.mem;
    for (int y = 0; y < 5; y++)
      for (int x = 0; x < 9; x++)
        m[y * 9 + x] = (uint8_t) (x < 4 ? 0 : a);
    for (int k = 0; k < 4; k++) {
      ce_edge_params p = ce_test_params (a / 4.0, k & 1, CE_BORDER_REPLICATE,
          (k & 2) ? CE_NORM_L1 : CE_NORM_L2, CE_OUTPUT_MAGNITUDE);
      check_frame (&t.f, &p, 1, 0);
      p.output = CE_OUTPUT_EDGES;
      check_frame (&t.f, &p, 1, 0);
    }
    g_free (t.mem);
  }
}

/* Thresholds exactly at the magnitudes of a vertical step and one double
 * ulp either side: gx^2 + gy^2 lands on K and on K + 1, where K is far
 * above 2^24 (a single-precision shortcut would round it away).  With blur
 * a step of height a gives gx = 64 a {5, 10, 10, 5} next to the step
 * (magnitudes 1.25 a and 2.5 a); without blur gx = 4 a. */
static void
test_thresholds_next_to_exact_magnitudes (void)
{
  static const int heights[] = { 1, 2, 3, 77, 128, 201, 254, 255 };
  for (size_t i = 0; i < sizeof heights / sizeof heights[0]; i++) {
    int a = heights[i];
    test_frame t = make_frame (CE_FORMAT_GRAY8, 12, 6, 0, PAT_RANDOM);
    const double mags[] = { 1.25 * a, 2.5 * a, 4.0 * a };
    for (int y = 0; y < 6; y++)
      for (int x = 0; x < 12; x++)
        t.mem[y * 12 + x] = (uint8_t) (x < 6 ? 255 - a : 255);
    for (int m = 0; m < 3; m++) {
      const double ts[] = { nextafter (mags[m], 0.0), mags[m],
        nextafter (mags[m], 1e9)
      };
      for (int k = 0; k < 3; k++) {
        for (int n = 0; n < 4; n++) {
          ce_edge_params p = ce_test_params (ts[k], n & 1, CE_BORDER_REPLICATE,
              (n & 2) ? CE_NORM_L1 : CE_NORM_L2, CE_OUTPUT_EDGES);
          check_frame (&t.f, &p, 1, 0);
        }
      }
    }
    g_free (t.mem);
  }
}

/* Random sizes, strides, formats, patterns, thresholds and bands. */
static void
test_random_frames (void)
{
  for (int k = 0; k < 1500; k++) {
    int w = ce_test_rand_range (1, 90), h = ce_test_rand_range (1, 70);
    ce_format fmt = (ce_format) ce_test_rand_range (0, CE_FORMAT_COUNT - 1);
    test_frame t = make_frame (fmt, w, h, (size_t) ce_test_rand_range (0, 40),
        (pattern) ce_test_rand_range (0, PAT_COUNT - 1));
    ce_edge_params p =
        combo_params (ce_test_rand_range (0, N_PARAM_COMBOS - 1));
    if (k % 2)
      p.threshold = (ce_test_rand () % 100000) / 100000.0 *
          (k % 4 == 1 ? 300 : 2048);
    if (!check_frame (&t.f, &p, 1 << ce_test_rand_range (0, 2),
            (size_t) ce_test_rand_range (0, 9))) {
      g_free (t.mem);
      break;
    }
    g_free (t.mem);
  }
}

/* 641x481: every format once, options varied, padded strides. */
static void
test_641x481 (void)
{
  for (int fmt = 0; fmt < CE_FORMAT_COUNT; fmt++) {
    test_frame t = make_frame ((ce_format) fmt, 641, 481,
        (size_t) (fmt * 7 % 13), (pattern) (fmt % PAT_COUNT));
    ce_edge_params p = combo_params ((fmt * 37 + 11) % N_PARAM_COMBOS);
    check_frame (&t.f, &p, fmt % 3 == 0 ? 3 : 2, (size_t) (fmt % 3) * 5);
    g_free (t.mem);
  }
}

/* 1920x1080: a few formats and option sets. */
static void
test_1920x1080 (void)
{
  static const struct
  {
    ce_format format;
    pattern pat;
    double threshold;
    int blur;
    ce_border_mode border;
    ce_norm norm;
    ce_output output;
  } cases[] = {
    {CE_FORMAT_GRAY8, PAT_RANDOM, 128.0, 1, CE_BORDER_REPLICATE, CE_NORM_L2,
        CE_OUTPUT_EDGES},
    {CE_FORMAT_NV12, PAT_STEPS, 37.3, 1, CE_BORDER_REFLECT, CE_NORM_L2,
        CE_OUTPUT_MAGNITUDE},
    {CE_FORMAT_YUY2, PAT_IMPULSES, 0.5, 0, CE_BORDER_ZERO, CE_NORM_L1,
        CE_OUTPUT_EDGES},
    {CE_FORMAT_BGRx, PAT_RAMPS, 2048.0, 1, CE_BORDER_ZERO, CE_NORM_L1,
        CE_OUTPUT_MAGNITUDE},
    {CE_FORMAT_RGB, PAT_STEPS, 0.0, 0, CE_BORDER_REFLECT, CE_NORM_L2,
        CE_OUTPUT_EDGES},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    test_frame t = make_frame (cases[i].format, 1920, 1080, i * 32,
        cases[i].pat);
    ce_edge_params p = ce_test_params (cases[i].threshold, cases[i].blur,
        cases[i].border, cases[i].norm, cases[i].output);
    check_frame (&t.f, &p, i == 0 ? 3 : 2, i * 16);
    g_free (t.mem);
  }
}

/* One band into a poisoned image: its rows match the reference, every
 * other byte (rows outside the band, padding) keeps the poison. */
static void
test_band_writes_only_its_rows (void)
{
  for (int k = 0; k < 200; k++) {
    int w = ce_test_rand_range (1, 40), h = ce_test_rand_range (1, 40);
    ce_format fmt = (ce_format) ce_test_rand_range (0, CE_FORMAT_COUNT - 1);
    test_frame t = make_frame (fmt, w, h, (size_t) ce_test_rand_range (0, 6),
        (pattern) ce_test_rand_range (0, PAT_COUNT - 1));
    ce_edge_params p =
        combo_params (ce_test_rand_range (0, N_PARAM_COMBOS - 1));
    size_t stride = (size_t) w + (size_t) ce_test_rand_range (0, 5);
    uint8_t *ref = g_malloc ((size_t) w * h);
    uint8_t *got = g_malloc (stride * h);
    int r0 = ce_test_rand_range (0, h - 1);
    int r1 = ce_test_rand_range (r0 + 1, h);
    char what[96];

    snprintf (what, sizeof what, "%s %dx%d band [%d, %d)",
        ce_format_name (fmt), w, h, r0, r1);
    ce_assert_status (ce_ref_edge_frame (&t.f, &p, ref, (size_t) w),
        CE_STATUS_OK);
    memset (got, CE_TEST_POISON, stride * h);
    ce_assert_status (ce_cpu_edge_rows (&t.f, &p, r0, r1, got, stride),
        CE_STATUS_OK);
    ce_assert_rows_equal (what, ref, (size_t) w, got, stride, (size_t) w, r0,
        r1, CE_TEST_POISON);
    ce_assert_poisoned (what, got, stride, (size_t) w, stride, r0, r1,
        CE_TEST_POISON);
    ce_assert_poisoned (what, got, stride, 0, stride, 0, r0, CE_TEST_POISON);
    ce_assert_poisoned (what, got, stride, 0, stride, r1, h, CE_TEST_POISON);
    g_free (ref);
    g_free (got);
    g_free (t.mem);
  }
}

typedef struct
{
  const ce_frame *f;
  const ce_edge_params *p;
  uint8_t *dst;
  size_t stride;
} band_job;

static ce_status
run_band (gpointer data, int r0, int r1)
{
  band_job *j = data;
  return ce_cpu_edge_rows (j->f, j->p, r0, r1, j->dst, j->stride);
}

/* Bands on several threads at once into one image (the intended use). */
static void
test_bands_on_threads (void)
{
  enum { N = 4, W = 333, H = 211 };
  test_frame t = make_frame (CE_FORMAT_RGBA, W, H, 12, PAT_STEPS);
  ce_edge_params p = ce_test_params (20.0, 1, CE_BORDER_REFLECT, CE_NORM_L2,
      CE_OUTPUT_EDGES);
  uint8_t *ref = g_malloc (W * H), *got = g_malloc (W * H);
  band_job job = { &t.f, &p, got, W };
  ce_status statuses[N];

  ce_assert_status (ce_ref_edge_frame (&t.f, &p, ref, W), CE_STATUS_OK);
  memset (got, CE_TEST_POISON, W * H);
  ce_test_bands_on_threads (N, H, run_band, &job, statuses);
  for (int i = 0; i < N; i++)
    ce_assert_status (statuses[i], CE_STATUS_OK);
  ce_assert_rows_equal ("RGBA 333x211 in 4 bands on 4 threads", ref, W, got,
      W, W, 0, H, CE_TEST_POISON);
  g_free (ref);
  g_free (got);
  g_free (t.mem);
}

/* Bad arguments: CE_STATUS_INVALID_ARGUMENT naming the argument, and
 * nothing written. */
static void
test_rejects_bad_arguments (void)
{
  uint8_t src[6 * 5 * 4];
  uint8_t dst[6 * 5];
  ce_frame f = { src, 6, 6, 5, CE_FORMAT_GRAY8 };
  ce_frame bad;
  ce_edge_params p, bp;

  memset (src, 7, sizeof src);
  memset (dst, CE_TEST_POISON, sizeof dst);
  ce_edge_params_init (&p);

  ce_assert_invalid (ce_cpu_edge_rows (NULL, &p, 0, 5, dst, 6), "frame");
  bad = f;
  bad.data = NULL;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame data");
  bad = f;
  bad.width = 0;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "width");
  bad = f;
  bad.height = -1;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "height");
  bad = f;
  bad.stride = 5;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame stride");
  bad = f;
  bad.format = CE_FORMAT_RGBA;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame stride");
  bad = f;
  bad.format = CE_FORMAT_COUNT;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "format");

  ce_assert_invalid (ce_cpu_edge_rows (&f, NULL, 0, 5, dst, 6), "params");
  bp = p;
  bp.threshold = -0.5;
  ce_assert_invalid (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "threshold");
  bp.threshold = 2048.5;
  ce_assert_invalid (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "threshold");
  bp = p;
  bp.border = (ce_border_mode) 3;
  ce_assert_invalid (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "border");
  bp = p;
  bp.norm = (ce_norm) 2;
  ce_assert_invalid (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "norm");
  bp = p;
  bp.output = (ce_output) - 1;
  ce_assert_invalid (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "output");

  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, -1, 5, dst, 6), "row0");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 5, 5, dst, 6), "row0");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 2, 2, dst, 6), "row1");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 3, 1, dst, 6), "row1");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 6, dst, 6), "row1");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 5, NULL, 6), "dst");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 5, dst, 5), "dst stride");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 5, dst, 0), "dst stride");
  /* Strides whose rows no memory holds: a negative one cast to size_t,
   * and one whose 5 rows overflow the address space. */
  bad = f;
  bad.stride = (size_t) -6;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame stride");
  bad.stride = SIZE_MAX / 4 + 1;
  ce_assert_invalid (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame stride");
  ce_assert_invalid (ce_frame_validate (&bad), "frame stride");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 5, dst, (size_t) -6),
      "dst stride");
  ce_assert_invalid (ce_cpu_edge_rows (&f, &p, 0, 5, dst, SIZE_MAX / 4 + 1),
      "dst stride");

  ce_assert_poisoned ("dst of the refused calls", dst, sizeof dst, 0,
      sizeof dst, 0, 1, CE_TEST_POISON);

  /* The boundaries themselves are accepted. */
  ce_assert_status (ce_cpu_edge_rows (&f, &p, 4, 5, dst, 6), CE_STATUS_OK);
  ce_assert_status (ce_cpu_edge_rows (&f, &p, 0, 5, dst, 6), CE_STATUS_OK);
}

/* ---- informative timing (never asserted) ---- */

static void
test_timing (void)
{
  test_frame t = make_frame (CE_FORMAT_GRAY8, 1920, 1080, 0, PAT_STEPS);
  ce_edge_params p;
  uint8_t *dst = g_malloc (1920 * 1080);
  double best_fast = 1e9, best_ref = 1e9, t0;
  static const struct
  {
    const char *name;
    ce_norm norm;
    ce_output output;
  } modes[] = {
    {"l2 edges (default)", CE_NORM_L2, CE_OUTPUT_EDGES},
    {"l2 magnitude", CE_NORM_L2, CE_OUTPUT_MAGNITUDE},
    {"l1 edges", CE_NORM_L1, CE_OUTPUT_EDGES},
  };

  ce_edge_params_init (&p);
  for (int i = 0; i < 2; i++) {
    t0 = ce_test_now ();
    ce_ref_edge_frame (&t.f, &p, dst, 1920);
    t0 = ce_test_now () - t0;
    best_ref = t0 < best_ref ? t0 : best_ref;
  }
  for (size_t m = 0; m < G_N_ELEMENTS (modes); m++) {
    p.norm = modes[m].norm;
    p.output = modes[m].output;
    for (int blur = 1; blur >= 0; blur--) {
      p.blur = blur;
      best_fast = 1e9;
      for (int i = 0; i < 10; i++) {
        t0 = ce_test_now ();
        ce_cpu_edge_rows (&t.f, &p, 0, 1080, dst, 1920);
        t0 = ce_test_now () - t0;
        best_fast = t0 < best_fast ? t0 : best_fast;
      }
      g_test_message ("timing: 1920x1080 GRAY8 %s, blur %d, one thread: "
          "ce_cpu_edge_rows %.2f ms", modes[m].name, blur, best_fast * 1e3);
    }
  }
  g_test_message ("timing: 1920x1080 GRAY8 defaults, one thread: "
      "ce_ref_edge_frame %.1f ms", best_ref * 1e3);
  g_free (dst);
  g_free (t.mem);
}

/* ---- cases ---- */

void
ce_test_register_cpu_fast (void)
{
  ce_test_add ("/cpu/fast/timing", test_timing);
  ce_test_add ("/cpu/fast/rejects-bad-arguments", test_rejects_bad_arguments);
  ce_test_add ("/cpu/fast/small-frames-every-format-and-option",
      test_small_frames_every_format_and_option);
  ce_test_add ("/cpu/fast/many-small-sizes", test_many_small_sizes);
  ce_test_add ("/cpu/fast/widths-around-vector-chunks",
      test_widths_around_vector_chunks);
  ce_test_add ("/cpu/fast/threshold-sweep-on-steps",
      test_threshold_sweep_on_steps);
  ce_test_add ("/cpu/fast/magnitude-on-steps-of-every-height",
      test_magnitude_on_steps_of_every_height);
  ce_test_add ("/cpu/fast/thresholds-next-to-exact-magnitudes",
      test_thresholds_next_to_exact_magnitudes);
  ce_test_add ("/cpu/fast/31x33-every-format-and-option",
      test_31x33_every_format_and_option);
  ce_test_add ("/cpu/fast/random-frames", test_random_frames);
  ce_test_add ("/cpu/fast/band-writes-only-its-rows",
      test_band_writes_only_its_rows);
  ce_test_add ("/cpu/fast/bands-on-threads", test_bands_on_threads);
  ce_test_add ("/cpu/fast/641x481", test_641x481);
  ce_test_add ("/cpu/fast/1920x1080", test_1920x1080);
}
