/* gst-cudaedge: the fast CPU edge chain against the CPU reference.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ce_cpu_edge_rows() must give exactly the bytes of ce_ref_edge_frame()
 * (memcmp, no tolerance) for every format, size, stride, option and row
 * band, write nothing outside its band, and refuse bad arguments.  The
 * timing lines it prints are informative only and never asserted.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cudaedge-core.h"
#include "ce-test.h"

/* ---- helpers ---- */

#define POISON 0xA5

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t
rnd (void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t) ((rng_state * 2685821657736338717ull) >> 32);
}

static int
rnd_range (int lo, int hi)      /* [lo, hi] */
{
  return lo + (int) (rnd () % (uint32_t) (hi - lo + 1));
}

typedef enum
{
  PAT_RANDOM = 0,               /* every byte random */
  PAT_STEPS,                    /* blocks of random levels: steps, flats */
  PAT_IMPULSES,                 /* sparse impulses of random height on a level */
  PAT_RAMPS,                    /* gradients of several slopes */
  PAT_COUNT
} pattern;

static const char *const border_names[] = { "replicate", "zero", "reflect" };

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
  int block = rnd_range (1, 9), level = rnd_range (0, 255);
  int sx = rnd_range (1, 40), sy = rnd_range (0, 40);

  ce_luma_layout_get (format, &l);
  stride = (size_t) w * l.bytes_per_pixel + pad;
  t.mem = malloc (stride * h);
  for (size_t i = 0; i < stride * h; i++)
    t.mem[i] = (uint8_t) rnd ();
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
          v = rnd () % 23 == 0 ? (int) (rnd () & 0xff) : level;
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
  t.f.data = t.mem;
  t.f.stride = stride;
  t.f.width = w;
  t.f.height = h;
  t.f.format = format;
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
  return make_params (thresholds[t], blur, (ce_border_mode) border,
      (ce_norm) norm, (ce_output) output);
}

static void
describe (char *buf, size_t n, const ce_frame * f, const ce_edge_params * p,
    const char *what)
{
  snprintf (buf, n, "%s %dx%d stride %zu, threshold %g blur %d %s %s %s: %s",
      ce_format_name (f->format), f->width, f->height, f->stride,
      p->threshold, p->blur, border_names[p->border],
      p->norm == CE_NORM_L1 ? "l1" : "l2",
      p->output == CE_OUTPUT_EDGES ? "edges" : "magnitude", what);
}

/* Band layouts: whole frame in one call, random bands, every row alone. */
typedef enum
{
  BANDS_WHOLE = 0,
  BANDS_RANDOM,
  BANDS_SINGLE_ROWS
} band_mode;

/* Runs ce_cpu_edge_rows over [0, H) in bands into a poisoned image with
 * dst_pad bytes past each row, and compares with the reference: the image
 * by memcmp, the padding still poisoned.  Returns 1 when identical. */
static int
compare_with_reference (const ce_frame * f, const ce_edge_params * p,
    band_mode bands, const uint8_t * ref, size_t ref_stride, size_t dst_pad)
{
  int w = f->width, h = f->height, ok = 1;
  size_t stride = (size_t) w + dst_pad;
  uint8_t *got = malloc (stride * h);
  char desc[256];

  memset (got, POISON, stride * h);
  for (int r0 = 0; r0 < h;) {
    int r1;
    ce_status s;
    if (bands == BANDS_WHOLE)
      r1 = h;
    else if (bands == BANDS_SINGLE_ROWS)
      r1 = r0 + 1;
    else
      r1 = r0 + (rnd () % 4 == 0 ? 1 : rnd_range (1, h / 3 + 2));
    if (r1 > h)
      r1 = h;
    s = ce_cpu_edge_rows (f, p, r0, r1, got, stride);
    if (s != CE_STATUS_OK) {
      describe (desc, sizeof desc, f, p, ce_last_error ());
      report_failure (__FILE__, __LINE__, "rows [%d, %d): status %d: %s",
          r0, r1, (int) s, desc);
      ok = 0;
      break;
    }
    r0 = r1;
  }
  for (int y = 0; ok && y < h; y++) {
    const uint8_t *e = ref + (size_t) y * ref_stride;
    const uint8_t *g = got + (size_t) y * stride;
    if (memcmp (e, g, (size_t) w) != 0) {
      int x = 0;
      while (e[x] == g[x])
        x++;
      describe (desc, sizeof desc, f, p, "differs");
      report_failure (__FILE__, __LINE__, "%s (bands %d) at (%d, %d): "
          "expected %d, got %d", desc, (int) bands, x, y, e[x], g[x]);
      ok = 0;
    }
    for (size_t k = (size_t) w; ok && k < stride; k++) {
      if (g[k] != POISON) {
        describe (desc, sizeof desc, f, p, "wrote past the row");
        report_failure (__FILE__, __LINE__, "%s at (%zu, %d)", desc, k, y);
        ok = 0;
      }
    }
  }
  free (got);
  return ok;
}

/* Reference output, then the fast path in the given band layouts. */
static int
check_frame (const ce_frame * f, const ce_edge_params * p, int band_mask,
    size_t dst_pad)
{
  int w = f->width, h = f->height, ok = 1;
  size_t ref_stride = (size_t) w + 3;
  uint8_t *ref = malloc (ref_stride * h);
  ce_status s = ce_ref_edge_frame (f, p, ref, ref_stride);

  if (s != CE_STATUS_OK) {
    report_failure (__FILE__, __LINE__, "reference failed: %s",
        ce_last_error ());
    free (ref);
    return 0;
  }
  for (int b = 0; b < 3 && ok; b++)
    if (band_mask & (1 << b))
      ok = compare_with_reference (f, p, (band_mode) b, ref, ref_stride,
          dst_pad);
  free (ref);
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
            (size_t) rnd_range (0, 5), (pattern) pat);
        for (int i = 0; i < N_PARAM_COMBOS; i++) {
          ce_edge_params p = combo_params (i);
          if (!check_frame (&t.f, &p, 7, (size_t) rnd_range (0, 3)))
            break;
        }
        free (t.mem);
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
          (size_t) rnd_range (0, 17), (pattern) pat);
      for (int i = 0; i < N_PARAM_COMBOS; i++) {
        ce_edge_params p = combo_params (i);
        int mask = i % 7 == 0 ? 7 : 3;
        if (!check_frame (&t.f, &p, mask, (size_t) rnd_range (0, 9)))
          break;
      }
      free (t.mem);
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
        ce_format fmt = (ce_format) rnd_range (0, CE_FORMAT_COUNT - 1);
        test_frame t = make_frame (fmt, w, h, (size_t) rnd_range (0, 7),
            (pattern) rnd_range (0, PAT_COUNT - 1));
        ce_edge_params p = combo_params (rnd_range (0, N_PARAM_COMBOS - 1));
        check_frame (&t.f, &p, 7, (size_t) rnd_range (0, 4));
        free (t.mem);
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
    free (t.mem);
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
      ce_edge_params p = make_params (j / 4.0, k & 1,
          (ce_border_mode) ((j + k) % 3), (k & 2) ? CE_NORM_L1 : CE_NORM_L2,
          CE_OUTPUT_EDGES);
      if (p.threshold > CE_THRESHOLD_MAX)
        continue;
      if (!check_frame (&t.f, &p, 1, 0))
        goto out;
    }
  }
out:
  free (t.mem);
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
      ce_edge_params p = make_params (a / 4.0, k & 1, CE_BORDER_REPLICATE,
          (k & 2) ? CE_NORM_L1 : CE_NORM_L2, CE_OUTPUT_MAGNITUDE);
      check_frame (&t.f, &p, 1, 0);
      p.output = CE_OUTPUT_EDGES;
      check_frame (&t.f, &p, 1, 0);
    }
    free (t.mem);
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
          ce_edge_params p = make_params (ts[k], n & 1, CE_BORDER_REPLICATE,
              (n & 2) ? CE_NORM_L1 : CE_NORM_L2, CE_OUTPUT_EDGES);
          check_frame (&t.f, &p, 1, 0);
        }
      }
    }
    free (t.mem);
  }
}

/* Random sizes, strides, formats, patterns, thresholds and bands. */
static void
test_random_frames (void)
{
  for (int k = 0; k < 1500; k++) {
    int w = rnd_range (1, 90), h = rnd_range (1, 70);
    ce_format fmt = (ce_format) rnd_range (0, CE_FORMAT_COUNT - 1);
    test_frame t = make_frame (fmt, w, h, (size_t) rnd_range (0, 40),
        (pattern) rnd_range (0, PAT_COUNT - 1));
    ce_edge_params p = combo_params (rnd_range (0, N_PARAM_COMBOS - 1));
    if (k % 2)
      p.threshold = (rnd () % 100000) / 100000.0 * (k % 4 == 1 ? 300 : 2048);
    if (!check_frame (&t.f, &p, 1 << rnd_range (0, 2),
            (size_t) rnd_range (0, 9))) {
      free (t.mem);
      break;
    }
    free (t.mem);
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
    free (t.mem);
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
    ce_edge_params p = make_params (cases[i].threshold, cases[i].blur,
        cases[i].border, cases[i].norm, cases[i].output);
    check_frame (&t.f, &p, i == 0 ? 3 : 2, i * 16);
    free (t.mem);
  }
}

/* One band into a poisoned image: its rows match the reference, every
 * other byte (rows outside the band, padding) keeps the poison. */
static void
test_band_writes_only_its_rows (void)
{
  for (int k = 0; k < 200; k++) {
    int w = rnd_range (1, 40), h = rnd_range (1, 40);
    ce_format fmt = (ce_format) rnd_range (0, CE_FORMAT_COUNT - 1);
    test_frame t = make_frame (fmt, w, h, (size_t) rnd_range (0, 6),
        (pattern) rnd_range (0, PAT_COUNT - 1));
    ce_edge_params p = combo_params (rnd_range (0, N_PARAM_COMBOS - 1));
    size_t stride = (size_t) w + (size_t) rnd_range (0, 5);
    uint8_t *ref = malloc ((size_t) w * h);
    uint8_t *got = malloc (stride * h);
    int r0 = rnd_range (0, h - 1), r1 = rnd_range (r0 + 1, h);

    CHECK_STATUS (ce_ref_edge_frame (&t.f, &p, ref, (size_t) w),
        CE_STATUS_OK);
    memset (got, POISON, stride * h);
    CHECK_STATUS (ce_cpu_edge_rows (&t.f, &p, r0, r1, got, stride),
        CE_STATUS_OK);
    for (int y = 0; y < h; y++) {
      const uint8_t *g = got + (size_t) y * stride;
      for (size_t x = 0; x < stride; x++) {
        int want = (y >= r0 && y < r1 && x < (size_t) w) ?
            ref[(size_t) y * w + x] : POISON;
        if (g[x] != want) {
          report_failure (__FILE__, __LINE__, "%dx%d band [%d, %d): byte "
              "(%zu, %d) is %d, want %d", w, h, r0, r1, x, y, g[x], want);
          y = h;
          break;
        }
      }
    }
    free (ref);
    free (got);
    free (t.mem);
  }
}

typedef struct
{
  const ce_frame *f;
  const ce_edge_params *p;
  int r0, r1;
  uint8_t *dst;
  size_t stride;
  ce_status status;
} band_job;

static void *
run_band (void *data)
{
  band_job *j = data;
  j->status = ce_cpu_edge_rows (j->f, j->p, j->r0, j->r1, j->dst, j->stride);
  return NULL;
}

/* Bands on several threads at once into one image (the intended use). */
static void
test_bands_on_threads (void)
{
  enum { N = 4 };
  test_frame t = make_frame (CE_FORMAT_RGBA, 333, 211, 12, PAT_STEPS);
  ce_edge_params p = make_params (20.0, 1, CE_BORDER_REFLECT, CE_NORM_L2,
      CE_OUTPUT_EDGES);
  uint8_t *ref = malloc (333 * 211), *got = malloc (333 * 211);
  pthread_t th[N];
  band_job jobs[N];

  CHECK_STATUS (ce_ref_edge_frame (&t.f, &p, ref, 333), CE_STATUS_OK);
  memset (got, POISON, 333 * 211);
  for (int i = 0; i < N; i++) {
    jobs[i] = (band_job) {
    &t.f, &p, 211 * i / N, 211 * (i + 1) / N, got, 333, CE_STATUS_OK};
    CHECK (pthread_create (&th[i], NULL, run_band, &jobs[i]) == 0);
  }
  for (int i = 0; i < N; i++) {
    pthread_join (th[i], NULL);
    CHECK_STATUS (jobs[i].status, CE_STATUS_OK);
  }
  CHECK (memcmp (ref, got, 333 * 211) == 0);
  free (ref);
  free (got);
  free (t.mem);
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
  memset (dst, POISON, sizeof dst);
  ce_edge_params_init (&p);

  CHECK_INVALID (ce_cpu_edge_rows (NULL, &p, 0, 5, dst, 6), "frame");
  bad = f;
  bad.data = NULL;
  CHECK_INVALID (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame data");
  bad = f;
  bad.width = 0;
  CHECK_INVALID (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "width");
  bad = f;
  bad.height = -1;
  CHECK_INVALID (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "height");
  bad = f;
  bad.stride = 5;
  CHECK_INVALID (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame stride");
  bad = f;
  bad.format = CE_FORMAT_RGBA;
  CHECK_INVALID (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "frame stride");
  bad = f;
  bad.format = CE_FORMAT_COUNT;
  CHECK_INVALID (ce_cpu_edge_rows (&bad, &p, 0, 5, dst, 6), "format");

  CHECK_INVALID (ce_cpu_edge_rows (&f, NULL, 0, 5, dst, 6), "params");
  bp = p;
  bp.threshold = -0.5;
  CHECK_INVALID (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "threshold");
  bp.threshold = 2048.5;
  CHECK_INVALID (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "threshold");
  bp = p;
  bp.border = (ce_border_mode) 3;
  CHECK_INVALID (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "border");
  bp = p;
  bp.norm = (ce_norm) 2;
  CHECK_INVALID (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "norm");
  bp = p;
  bp.output = (ce_output) - 1;
  CHECK_INVALID (ce_cpu_edge_rows (&f, &bp, 0, 5, dst, 6), "output");

  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, -1, 5, dst, 6), "row0");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 5, 5, dst, 6), "row0");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 2, 2, dst, 6), "row1");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 3, 1, dst, 6), "row1");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 0, 6, dst, 6), "row1");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 0, 5, NULL, 6), "dst");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 0, 5, dst, 5), "dst stride");
  CHECK_INVALID (ce_cpu_edge_rows (&f, &p, 0, 5, dst, 0), "dst stride");

  for (size_t i = 0; i < sizeof dst; i++)
    if (dst[i] != POISON) {
      report_failure (__FILE__, __LINE__, "a refused call wrote dst[%zu]", i);
      break;
    }

  /* The boundaries themselves are accepted. */
  CHECK_STATUS (ce_cpu_edge_rows (&f, &p, 4, 5, dst, 6), CE_STATUS_OK);
  CHECK_STATUS (ce_cpu_edge_rows (&f, &p, 0, 5, dst, 6), CE_STATUS_OK);
}

/* ---- informative timing (never asserted) ---- */

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
print_timing (void)
{
  test_frame t = make_frame (CE_FORMAT_GRAY8, 1920, 1080, 0, PAT_STEPS);
  ce_edge_params p;
  uint8_t *dst = malloc (1920 * 1080);
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
    t0 = now_s ();
    ce_ref_edge_frame (&t.f, &p, dst, 1920);
    t0 = now_s () - t0;
    best_ref = t0 < best_ref ? t0 : best_ref;
  }
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    p.norm = modes[m].norm;
    p.output = modes[m].output;
    for (int blur = 1; blur >= 0; blur--) {
      p.blur = blur;
      best_fast = 1e9;
      for (int i = 0; i < 10; i++) {
        t0 = now_s ();
        ce_cpu_edge_rows (&t.f, &p, 0, 1080, dst, 1920);
        t0 = now_s () - t0;
        best_fast = t0 < best_fast ? t0 : best_fast;
      }
      printf ("timing: 1920x1080 GRAY8 %s, blur %d, one thread: "
          "ce_cpu_edge_rows %.2f ms\n", modes[m].name, blur,
          best_fast * 1e3);
    }
  }
  printf ("timing: 1920x1080 GRAY8 defaults, one thread: ce_ref_edge_frame "
      "%.1f ms\n", best_ref * 1e3);
  free (dst);
  free (t.mem);
}

#define TEST(fn) { #fn, fn }

static const struct
{
  const char *name;
  void (*fn) (void);
} tests[] = {
  TEST (test_rejects_bad_arguments),
  TEST (test_small_frames_every_format_and_option),
  TEST (test_many_small_sizes),
  TEST (test_widths_around_vector_chunks),
  TEST (test_threshold_sweep_on_steps),
  TEST (test_magnitude_on_steps_of_every_height),
  TEST (test_thresholds_next_to_exact_magnitudes),
  TEST (test_31x33_every_format_and_option),
  TEST (test_random_frames),
  TEST (test_band_writes_only_its_rows),
  TEST (test_bands_on_threads),
  TEST (test_641x481),
  TEST (test_1920x1080),
};

/* The timings against the reference, as a case of their own. */
static void
test_timing (void)
{
  print_timing ();
}

void
ce_test_register_cpu_fast (void)
{
  g_test_add_func ("/cpu/cpu-fast/timing", test_timing);
  for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++) {
    gchar *path = g_strdup_printf ("/cpu/cpu-fast/%s", tests[k].name);

    g_test_add_func (path, tests[k].fn);
    g_free (path);
  }
}
