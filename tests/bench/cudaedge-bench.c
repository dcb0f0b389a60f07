/* cudaedge-bench: timings of the compute core against measured ceilings.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A program, not a test.  Exits 77 with "SKIP: no CUDA device" when there
 * is no usable GPU, 1 on any error (every CUDA call is checked) or when a
 * gate timed out (bench-gate.h), 0 after printing the tables.  See
 * usage () for the options and how the GPU rows are timed.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>
#include <glib.h>

#include "bench-gate.h"
#include "bench-util.h"
#include "cudaedge-core.h"
#include "cudaedge-kernels.h"
#include "cudaedge-staged.h"
#include "cudaedge-testing.h"

#ifdef CE_HAVE_NPP
/* npp-peer.c */
int npp_peer_init (int device, cudaStream_t stream);
int npp_peer_gauss (const uint8_t * src, size_t src_pitch, int width,
    int height, uint8_t * dst, size_t dst_pitch);
int npp_peer_sobel_mag (const uint8_t * src, size_t src_pitch, int width,
    int height, int16_t * mag, size_t mag_pitch);
int npp_peer_compare (const int16_t * mag, size_t mag_pitch, int width,
    int height, int threshold, uint8_t * dst, size_t dst_pitch);
#endif

#define WARMUP_RUNS 5
#define DEFAULT_RUNS 50
#define MAX_SIZES 32
#define MIB ((size_t) 1 << 20)

/* ------------------------------------------------------------------ */
/* Errors */

static void
die_cuda (cudaError_t e, const char *expr, const char *file, int line)
{
  bench_die ("%s:%d: %s failed: %s (%s, %d)", file, line, expr,
      cudaGetErrorString (e), cudaGetErrorName (e), (int) e);
}

static void
die_ce (ce_status s, const char *expr, const char *file, int line)
{
  cudaError_t e = cudaPeekAtLastError ();
  bench_die ("%s:%d: %s failed: %s: %s%s%s", file, line, expr,
      ce_status_string (s), ce_last_error (),
      e != cudaSuccess ? "; CUDA last error: " : "",
      e != cudaSuccess ? cudaGetErrorString (e) : "");
}

#define CK(x) do { cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) die_cuda (e_, #x, __FILE__, __LINE__); } while (0)
#define CS(x) do { ce_status s_ = (x); \
    if (s_ != CE_STATUS_OK) die_ce (s_, #x, __FILE__, __LINE__); } while (0)
#define NPPCK(x) do { if ((x) != 0) bench_die ("%s:%d: %s failed " \
        "(see above)", __FILE__, __LINE__, #x); } while (0)

static void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    bench_die ("out of host memory (%zu bytes)", n);
  return p;
}

static double
now_ms (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ------------------------------------------------------------------ */
/* Options */

static struct
{
  size2 sizes[MAX_SIZES];
  int n_sizes;
  int runs;
  int warmup;
  int quick;
  int device;
  int streams;
  const char *pgm_in;
  const char *out_dir;
  const char *csv;
  int cpu_threads;              /* 0: one per core */
} opt = {.runs = 0,.warmup = WARMUP_RUNS,.device = -1,.streams = 4 };

static void
usage (FILE * f)
{
  fprintf (f,
      "Usage: cudaedge-bench [OPTIONS]\n"
      "  --size WxH       frame size (repeatable); default: 4096x4096 as the\n"
      "                   main table, then 320x240 1920x1080 3840x2160 7680x4320\n"
      "  --runs N         timed runs per row (default %d, after %d warm-up)\n"
      "  --quick          10 runs, 2 warm-up, fewer CPU runs, main size only\n"
      "  --pgm-in FILE    binary PGM (P5, maxval <= 255) picture for the\n"
      "                   correctness checks and --out-dir (default: generated)\n"
      "  --out-dir DIR    write input.pgm, blur.pgm (B/256 rounded) and\n"
      "                   edges.pgm (default parameters) of that picture\n"
      "  --device N       CUDA device (default: first usable)\n"
      "  --streams N      streams of the host-to-host context (default 4)\n"
      "  --cpu-threads N  threads of the \"cpu fast, N threads\" row\n"
      "                   (default: one per core)\n"
      "  --csv FILE       also append one line per table row to FILE (the\n"
      "                   header first when FILE is new or empty; columns in\n"
      "                   tools/perf-plots.py)\n"
      "GPU rows: each timed run queued behind a gate (a kernel that holds\n"
      "the stream until the host has queued the row's runs), then timed by\n"
      "an event pair of its own; rows \"b2b\": 20 runs between one pair,\n"
      "per run.  With CUDA_LAUNCH_BLOCKING set there is no gate.\n"
      "Exit: 0 done, 77 no CUDA device (SKIP), 1 error or a gate that timed\n"
      "out (those rows' times may hold the host's queueing).\n",
      DEFAULT_RUNS, WARMUP_RUNS);
}

static void
parse_args (int argc, char **argv)
{
  int i;
  const char *v;
  for (i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--help") || !strcmp (argv[i], "-h")) {
      usage (stdout);
      exit (0);
    } else if (!strcmp (argv[i], "--quick")) {
      opt.quick = 1;
    } else if ((v = bench_opt_value (argc, argv, &i, "--size"))) {
      if (opt.n_sizes >= MAX_SIZES) {
        bench_bad_option ("too many --size");
      }
      opt.sizes[opt.n_sizes++] = bench_parse_size (v, 32768);
    } else if ((v = bench_opt_value (argc, argv, &i, "--runs"))) {
      /* Two at least: the frames-in-flight row times the periods
       * between completions, one fewer than the runs. */
      opt.runs = bench_parse_int (v, 2, 100000, "--runs");
    } else if ((v = bench_opt_value (argc, argv, &i, "--pgm-in"))) {
      opt.pgm_in = v;
    } else if ((v = bench_opt_value (argc, argv, &i, "--out-dir"))) {
      opt.out_dir = v;
    } else if ((v = bench_opt_value (argc, argv, &i, "--device"))) {
      opt.device = bench_parse_int (v, -1, 1024, "--device");
    } else if ((v = bench_opt_value (argc, argv, &i, "--streams"))) {
      opt.streams = bench_parse_int (v, 2, 64, "--streams");
    } else if ((v = bench_opt_value (argc, argv, &i, "--cpu-threads"))) {
      opt.cpu_threads = bench_parse_int (v, 1, 1024, "--cpu-threads");
    } else if ((v = bench_opt_value (argc, argv, &i, "--csv"))) {
      opt.csv = v;
    } else {
      fprintf (stderr, "cudaedge-bench: unknown argument '%s'\n", argv[i]);
      usage (stderr);
      exit (2);
    }
  }
  if (opt.quick) {
    opt.warmup = 2;
    if (!opt.runs)
      opt.runs = 10;
  }
  if (!opt.runs)
    opt.runs = DEFAULT_RUNS;
  if (!opt.n_sizes) {
    static const size2 def[] = { {4096, 4096}, {320, 240}, {1920, 1080},
    {3840, 2160}, {7680, 4320}
    };
    int n = opt.quick ? 1 : (int) (sizeof def / sizeof def[0]);
    for (i = 0; i < n; i++)
      opt.sizes[opt.n_sizes++] = def[i];
  }
}

/* ------------------------------------------------------------------ */
/* Random data, pictures, PGM */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t
rng_next (void)
{
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

static void
fill_random (uint8_t * p, size_t n)
{
  size_t i = 0;
  while (i + 8 <= n) {
    uint64_t r = rng_next ();
    memcpy (p + i, &r, 8);
    i += 8;
  }
  if (i < n) {
    uint64_t r = rng_next ();
    memcpy (p + i, &r, n - i);
  }
}

/* A deterministic test picture: gradient, rings, boxes, mild noise. */
static uint8_t *
make_picture (int w, int h)
{
  uint8_t *p = xmalloc ((size_t) w * h);
  int x, y;
  double cx = w * 0.62, cy = h * 0.45, r0 = (w < h ? w : h) * 0.06;
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      double v = 40.0 + 120.0 * x / w + 50.0 * y / h;
      double d = sqrt ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / r0;
      if (d < 5.0 && ((int) d) % 2 == 0)
        v = 230.0 - 20.0 * d;
      if (x > w / 8 && x < w / 3 && y > h / 6 && y < h / 2)
        v = 25.0;
      if (x > w / 5 && x < w / 4 && y > h / 4 && y < h / 3)
        v = 250.0;
      if (((x / (w / 16 + 1)) + (y / (h / 16 + 1))) % 7 == 0 && y > h * 2 / 3)
        v *= 0.5;
      v += (double) (rng_next () % 9) - 4.0;
      p[(size_t) y * w + x] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
  }
  return p;
}

static int
pgm_skip_ws (FILE * f)
{
  int c;
  for (;;) {
    c = fgetc (f);
    if (c == '#') {
      while (c != '\n' && c != EOF)
        c = fgetc (f);
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      return c;
    }
  }
}

static int
pgm_read_int (FILE * f, int *v)
{
  int c = pgm_skip_ws (f);
  long n = 0;
  if (c < '0' || c > '9')
    return -1;
  while (c >= '0' && c <= '9') {
    n = n * 10 + (c - '0');
    if (n > 1000000)
      return -1;
    c = fgetc (f);
  }
  /* exactly one whitespace character follows the last header field */
  *v = (int) n;
  return 0;
}

static uint8_t *
read_pgm (const char *path, int *w, int *h)
{
  FILE *f = fopen (path, "rb");
  int maxval;
  uint8_t *p;
  if (!f)
    bench_die ("cannot open '%s': %s", path, strerror (errno));
  if (fgetc (f) != 'P' || fgetc (f) != '5')
    bench_die ("'%s' is not a binary PGM (P5)", path);
  if (pgm_read_int (f, w) || pgm_read_int (f, h) || pgm_read_int (f, &maxval))
    bench_die ("'%s': bad PGM header", path);
  if (*w < 1 || *h < 1 || maxval < 1 || maxval > 255)
    bench_die ("'%s': unsupported PGM (%dx%d, maxval %d; need maxval <= 255)",
        path, *w, *h, maxval);
  p = xmalloc ((size_t) * w * *h);
  if (fread (p, 1, (size_t) * w * *h, f) != (size_t) * w * *h)
    bench_die ("'%s': truncated PGM data", path);
  fclose (f);
  return p;
}

static void
write_pgm (const char *dir, const char *name, const uint8_t * p,
    size_t stride, int w, int h)
{
  char path[4096];
  FILE *f;
  int y;
  snprintf (path, sizeof path, "%s/%s", dir, name);
  f = fopen (path, "wb");
  if (!f)
    bench_die ("cannot write '%s': %s", path, strerror (errno));
  fprintf (f, "P5\n%d %d\n255\n", w, h);
  for (y = 0; y < h; y++)
    if (fwrite (p + (size_t) y * stride, 1, (size_t) w, f) != (size_t) w)
      bench_die ("write error on '%s'", path);
  if (fclose (f) != 0)
    bench_die ("write error on '%s': %s", path, strerror (errno));
  printf ("wrote %s\n", path);
}

/* ------------------------------------------------------------------ */
/* Statistics */

typedef struct
{
  double med, p25, p75;
} stats;

static stats
summarize (double *v, int n)
{
  stats s;
  bench_sort (v, n);
  s.med = bench_percentile (v, n, 0.5);
  s.p25 = bench_percentile (v, n, 0.25);
  s.p75 = bench_percentile (v, n, 0.75);
  return s;
}

/* ------------------------------------------------------------------ */
/* Rotating device buffers */

enum
{
  K_RGBA,                       /* input, W x H x 4 */
  K_LUMA,                       /* input, W x H */
  K_B,                          /* blur output / sobel input, uint16 */
  K_SCR,                        /* two-pass scratch, uint16 */
  K_GRAD,                       /* (gx, gy) int32 pairs */
  K_OUT,                        /* 8-bit outputs */
  K_COPY,                       /* copy destinations */
  K_UPG,                        /* 2W x 2H gray */
  K_UPR,                        /* 2W x 2H x 4 */
  K_NPP8,                       /* NPP Gaussian output */
  K_NPP16,                      /* NPP magnitude, int16 */
  K_COUNT
};

static const char *const kind_names[K_COUNT] = {
  "rgba", "luma", "B", "scratch", "grad", "out", "copy", "up-gray",
  "up-rgba", "npp8", "npp16"
};

typedef struct
{
  uint8_t *base;
  size_t pitch, slice;
  int n;
} pool;

static struct
{
  int dev;
  struct cudaDeviceProp prop;
  cudaStream_t s0, s1;
  cudaEvent_t *ev;              /* 2 * runs */
  cudaEvent_t fork, join;
  /* The gate (bench-gate.h): two words of mapped pinned memory (open,
   * timed out), their device address, and how many rows timed out. */
  volatile unsigned *gate;
  unsigned *gate_d;
  int gate_timeouts;
  int gate_off;                 /* CUDA_LAUNCH_BLOCKING: no gate */
  ce_cuda_ctx *ctx, *ctx1;      /* default bands; bands = 1 */
  int have_npp;
  /* per size */
  int w, h;
  size_t npx;
  pool pool[K_COUNT];
  unsigned rot;                 /* global rotation counter */
  uint8_t *h_src, *h_dst;       /* pinned (cudaHostAlloc), npx bytes */
  uint8_t *e_src, *e_dst;       /* pinned (ce_cuda_host_alloc), npx */
  ce_edge_consts c_def, c_mag, c_refl, c_zero, c_l1, c_l1mag, c_noblur;
} g;

static inline uint8_t *
slice (int k, unsigned idx)
{
  return g.pool[k].base + (size_t) (idx % (unsigned) g.pool[k].n) *
      g.pool[k].slice;
}

#define PITCH(k) (g.pool[k].pitch)

static size_t
round_up (size_t v, size_t a)
{
  return (v + a - 1) / a * a;
}

static void
pools_alloc (int w, int h, int with_npp)
{
  size_t row[K_COUNT], rows[K_COUNT], total = 0, free_b = 0, total_b = 0;
  size_t l2 = (size_t) (g.prop.l2CacheSize > 0 ? g.prop.l2CacheSize : 0);
  size_t target = 256 * MIB > 4 * l2 ? 256 * MIB : 4 * l2;
  size_t budget;
  int k;

  row[K_RGBA] = (size_t) w * 4;
  rows[K_RGBA] = h;
  row[K_LUMA] = w;
  rows[K_LUMA] = h;
  row[K_B] = (size_t) w * 2;
  rows[K_B] = h;
  row[K_SCR] = (size_t) w * 2;
  rows[K_SCR] = h;
  row[K_GRAD] = (size_t) w * 8;
  rows[K_GRAD] = h;
  row[K_OUT] = w;
  rows[K_OUT] = h;
  row[K_COPY] = w;
  rows[K_COPY] = h;
  row[K_UPG] = (size_t) w * 2;
  rows[K_UPG] = (size_t) h * 2;
  row[K_UPR] = (size_t) w * 8;
  rows[K_UPR] = (size_t) h * 2;
  row[K_NPP8] = with_npp ? (size_t) w : 0;
  rows[K_NPP8] = h;
  row[K_NPP16] = with_npp ? (size_t) w * 2 : 0;
  rows[K_NPP16] = h;

  for (k = 0; k < K_COUNT; k++) {
    pool *p = &g.pool[k];
    memset (p, 0, sizeof *p);
    if (!row[k])
      continue;
    p->pitch = round_up (row[k], 512);
    p->slice = p->pitch * rows[k];
    /* each kind alone cycles through >= target bytes before reuse */
    p->n = (int) ((target + p->slice - 1) / p->slice);
    if (p->n < 4)
      p->n = 4;
    total += p->slice * (size_t) p->n;
  }
  CK (cudaMemGetInfo (&free_b, &total_b));
  budget = (size_t) (free_b * 0.7);
  if (total > budget) {
    double f = (double) budget / (double) total;
    total = 0;
    for (k = 0; k < K_COUNT; k++) {
      pool *p = &g.pool[k];
      if (!p->slice)
        continue;
      p->n = (int) (p->n * f);
      if (p->n < 2)
        p->n = 2;
      total += p->slice * (size_t) p->n;
    }
    printf ("note: rotation reduced to fit memory (%.0f MiB free)\n",
        free_b / (double) MIB);
    if (total > free_b)
      bench_die ("frame %dx%d needs %.0f MiB of device buffers, only %.0f MiB "
          "free", w, h, total / (double) MIB, free_b / (double) MIB);
  }
  for (k = 0; k < K_COUNT; k++) {
    pool *p = &g.pool[k];
    if (!p->slice)
      continue;
    CK (cudaMalloc ((void **) &p->base, p->slice * (size_t) p->n));
  }
  printf ("rotating buffers: %.0f MiB in all (L2 %.0f MiB); sets per kind:",
      total / (double) MIB, l2 / (double) MIB);
  for (k = 0; k < K_COUNT; k++)
    if (g.pool[k].slice)
      printf (" %s %d", kind_names[k], g.pool[k].n);
  printf ("\n");
}

static void
pools_free (void)
{
  int k;
  for (k = 0; k < K_COUNT; k++) {
    if (g.pool[k].base)
      CK (cudaFree (g.pool[k].base));
    g.pool[k].base = NULL;
  }
}

/* Fills inputs with random data (a different window of one random host
 * buffer per set), poisons outputs, and computes realistic B, gradients
 * and NPP magnitudes from the luma sets. */
static void
pools_init (void)
{
  int w = g.w, h = g.h, i, k;
  size_t extra = 1 << 16;
  size_t hr_size = (size_t) w * 4 * h + extra;
  uint8_t *hr = xmalloc (hr_size);

  fill_random (hr, hr_size);
  for (i = 0; i < g.pool[K_RGBA].n; i++)
    CK (cudaMemcpy2D (slice (K_RGBA, i), PITCH (K_RGBA),
            hr + ((size_t) i * 4 * 1031) % extra, (size_t) w * 4,
            (size_t) w * 4, h, cudaMemcpyHostToDevice));
  for (i = 0; i < g.pool[K_LUMA].n; i++)
    CK (cudaMemcpy2D (slice (K_LUMA, i), PITCH (K_LUMA),
            hr + ((size_t) i * 7919) % extra, (size_t) w, (size_t) w, h,
            cudaMemcpyHostToDevice));
  free (hr);

  for (k = 0; k < K_COUNT; k++) {
    if (k == K_RGBA || k == K_LUMA || !g.pool[k].base)
      continue;
    CK (cudaMemset (g.pool[k].base, 0x5A, g.pool[k].slice * g.pool[k].n));
  }
  /* The memsets and pageable copies above may still be in flight; the
   * launches below go to a non-blocking stream. */
  CK (cudaDeviceSynchronize ());
  for (i = 0; i < g.pool[K_B].n; i++)
    CS (ce_launch_blur (CE_BLUR_SEPARABLE, slice (K_LUMA, i),
            PITCH (K_LUMA), w, h, CE_BORDER_REPLICATE, NULL, 0,
            (uint16_t *) slice (K_B, i), PITCH (K_B), g.s0));
  for (i = 0; i < g.pool[K_GRAD].n; i++)
    CS (ce_launch_sobel ((const uint16_t *) slice (K_B, i), PITCH (K_B), w,
            h, CE_BORDER_REPLICATE, (int32_t *) slice (K_GRAD, i),
            PITCH (K_GRAD), g.s0));
#ifdef CE_HAVE_NPP
  /* NPP failing here disables its rows instead of ending the program */
  if (g.have_npp) {
    int bad = npp_peer_gauss (slice (K_LUMA, 0), PITCH (K_LUMA), w, h,
        slice (K_NPP8, 0), PITCH (K_NPP8)) != 0;
    for (i = 0; !bad && i < g.pool[K_NPP16].n; i++)
      bad = npp_peer_sobel_mag (slice (K_LUMA, i), PITCH (K_LUMA), w, h,
          (int16_t *) slice (K_NPP16, i), PITCH (K_NPP16)) != 0;
    if (!bad)
      bad = npp_peer_compare ((const int16_t *) slice (K_NPP16, 0),
          PITCH (K_NPP16), w, h, 128, slice (K_OUT, 0), PITCH (K_OUT)) != 0;
    if (bad) {
      printf ("WARNING: NPP call failed; NPP rows disabled from here on\n");
      g.have_npp = 0;
    }
  }
#endif
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
}

/* ------------------------------------------------------------------ */
/* Variants */

enum
{
  V_D2D, V_H2D, V_D2H, V_H2D_D2H,
  V_LUMA,
  V_BLUR_DIRECT, V_BLUR_TILED, V_BLUR_SEPARABLE, V_BLUR_TWO_PASS,
  V_SOBEL, V_THRESH, V_SOBEL_THRESH, V_STAGED,
  V_FUSED, V_FUSED_MAG, V_FUSED_REFLECT, V_FUSED_ZERO, V_FUSED_L1,
  V_FUSED_L1_MAG, V_FUSED_NOBLUR, V_FUSED_TC, V_FUSED_MAG_TC,
  V_FUSED_L2_INT, V_FUSED_L2_FLOAT,
  V_UP_GRAY, V_UP_RGBA,
  V_NPP_GAUSS, V_NPP_SOBEL, V_NPP_CMP, V_NPP_CHAIN,
  V_COUNT
};

typedef enum
{
  CEIL_D2D,                     /* % of the d2d copy GB/s */
  CEIL_NONE,
  CEIL_LINK                     /* % of the overlapped H2D+D2H rate */
} ceil_kind;

/* Input format of each row (the --csv format column): GRAY8 unless named. */
static const struct
{
  const char *name;
  double bytes_per_px;          /* per source pixel */
  ceil_kind ceil;
  const char *format;
} vinfo[V_COUNT] = {
  [V_D2D] = {"d2d copy (ceiling)", 2, CEIL_D2D},
  [V_H2D] = {"H2D copy (pinned)", 1, CEIL_NONE},
  [V_D2H] = {"D2H copy (pinned)", 1, CEIL_NONE},
  [V_H2D_D2H] = {"H2D+D2H overlapped (2 streams)", 2, CEIL_NONE},
  [V_LUMA] = {"luma RGBA->Y", 5, CEIL_D2D, "RGBA"},
  [V_BLUR_DIRECT] = {"blur direct", 3, CEIL_D2D},
  [V_BLUR_TILED] = {"blur tiled", 3, CEIL_D2D},
  [V_BLUR_SEPARABLE] = {"blur separable", 3, CEIL_D2D},
  [V_BLUR_TWO_PASS] = {"blur two-pass", 7, CEIL_D2D},
  [V_SOBEL] = {"sobel", 10, CEIL_D2D},
  [V_THRESH] = {"threshold", 9, CEIL_D2D},
  [V_SOBEL_THRESH] = {"sobel+threshold", 3, CEIL_D2D},
  [V_STAGED] = {"staged chain (sep+sob+thr)", 22, CEIL_D2D},
  [V_FUSED] = {"fused edge (default)", 2, CEIL_D2D},
  [V_FUSED_MAG] = {"fused magnitude", 2, CEIL_D2D},
  [V_FUSED_REFLECT] = {"fused reflect border", 2, CEIL_D2D},
  [V_FUSED_ZERO] = {"fused zero border", 2, CEIL_D2D},
  [V_FUSED_L1] = {"fused l1", 2, CEIL_D2D},
  [V_FUSED_L1_MAG] = {"fused l1 magnitude", 2, CEIL_D2D},
  [V_FUSED_NOBLUR] = {"fused blur off", 2, CEIL_D2D},
  /* the same kernels with the interior on tensor cores (off by default) */
  [V_FUSED_TC] = {"fused edge, tensor cores", 2, CEIL_D2D},
  [V_FUSED_MAG_TC] = {"fused magnitude, tensor cores", 2, CEIL_D2D},
  /* the default edges with the strip kernel's l2 form forced (the
   * default picks one by size) */
  [V_FUSED_L2_INT] = {"fused edge, l2 on integers", 2, CEIL_D2D},
  [V_FUSED_L2_FLOAT] = {"fused edge, l2 on floats", 2, CEIL_D2D},
  [V_UP_GRAY] = {"upscale2x GRAY8", 5, CEIL_D2D},
  [V_UP_RGBA] = {"upscale2x RGBA", 20, CEIL_D2D, "RGBA"},
  [V_NPP_GAUSS] = {"npp gauss 5x5 8u", 2, CEIL_D2D},
  [V_NPP_SOBEL] = {"npp sobel mag 8u16s", 3, CEIL_D2D},
  [V_NPP_CMP] = {"npp compareC 16s", 3, CEIL_D2D},
  [V_NPP_CHAIN] = {"npp chain (not exact)", 8, CEIL_D2D},
};

static void
enqueue (int v, unsigned idx)
{
  cudaStream_t s = g.s0;
  int w = g.w, h = g.h;
  size_t n = g.npx;
  const uint8_t *luma = slice (K_LUMA, idx);
  size_t lp = PITCH (K_LUMA);
  uint16_t *b = (uint16_t *) slice (K_B, idx);
  uint16_t *scr = (uint16_t *) slice (K_SCR, idx);
  int32_t *grad = (int32_t *) slice (K_GRAD, idx);
  uint8_t *out = slice (K_OUT, idx);

  switch (v) {
    case V_D2D:
      CK (cudaMemcpyAsync (slice (K_COPY, idx), luma, n,
              cudaMemcpyDeviceToDevice, s));
      break;
    case V_H2D:
      CK (cudaMemcpyAsync (slice (K_COPY, idx), g.h_src, n,
              cudaMemcpyHostToDevice, s));
      break;
    case V_D2H:
      CK (cudaMemcpyAsync (g.h_dst, luma, n, cudaMemcpyDeviceToHost, s));
      break;
    case V_H2D_D2H:
      CK (cudaEventRecord (g.fork, s));
      CK (cudaStreamWaitEvent (g.s1, g.fork, 0));
      CK (cudaMemcpyAsync (slice (K_COPY, idx), g.h_src, n,
              cudaMemcpyHostToDevice, s));
      CK (cudaMemcpyAsync (g.h_dst, luma, n, cudaMemcpyDeviceToHost, g.s1));
      CK (cudaEventRecord (g.join, g.s1));
      CK (cudaStreamWaitEvent (s, g.join, 0));
      break;
    case V_LUMA:
      CS (ce_launch_luma (slice (K_RGBA, idx), PITCH (K_RGBA),
              CE_FORMAT_RGBA, w, h, 0, h, out, PITCH (K_OUT), s));
      break;
    case V_BLUR_DIRECT:
    case V_BLUR_TILED:
    case V_BLUR_SEPARABLE:
    case V_BLUR_TWO_PASS:{
      static const ce_blur_variant bv[] = { CE_BLUR_DIRECT, CE_BLUR_TILED,
        CE_BLUR_SEPARABLE, CE_BLUR_TWO_PASS
      };
      ce_blur_variant var = bv[v - V_BLUR_DIRECT];
      CS (ce_launch_blur (var, luma, lp, w, h, CE_BORDER_REPLICATE,
              var == CE_BLUR_TWO_PASS ? scr : NULL,
              var == CE_BLUR_TWO_PASS ? PITCH (K_SCR) : 0, b, PITCH (K_B),
              s));
      break;
    }
    case V_SOBEL:
      CS (ce_launch_sobel (b, PITCH (K_B), w, h, CE_BORDER_REPLICATE, grad,
              PITCH (K_GRAD), s));
      break;
    case V_THRESH:
      CS (ce_launch_threshold (grad, PITCH (K_GRAD), w, h, &g.c_def, out,
              PITCH (K_OUT), s));
      break;
    case V_SOBEL_THRESH:
      CS (ce_launch_sobel_threshold (b, PITCH (K_B), w, h, &g.c_def, out,
              PITCH (K_OUT), s));
      break;
    case V_STAGED:
      CS (ce_launch_blur (CE_BLUR_SEPARABLE, luma, lp, w, h,
              g.c_def.border, NULL, 0, b, PITCH (K_B), s));
      CS (ce_launch_sobel (b, PITCH (K_B), w, h, g.c_def.border, grad,
              PITCH (K_GRAD), s));
      CS (ce_launch_threshold (grad, PITCH (K_GRAD), w, h, &g.c_def, out,
              PITCH (K_OUT), s));
      break;
    case V_FUSED:
    case V_FUSED_MAG:
    case V_FUSED_REFLECT:
    case V_FUSED_ZERO:
    case V_FUSED_L1:
    case V_FUSED_L1_MAG:
    case V_FUSED_NOBLUR:{
      const ce_edge_consts *c = v == V_FUSED ? &g.c_def :
          v == V_FUSED_MAG ? &g.c_mag :
          v == V_FUSED_REFLECT ? &g.c_refl :
          v == V_FUSED_ZERO ? &g.c_zero :
          v == V_FUSED_L1 ? &g.c_l1 :
          v == V_FUSED_L1_MAG ? &g.c_l1mag : &g.c_noblur;
      CS (ce_launch_edge_fused (luma, lp, w, h, 0, h, c, out, PITCH (K_OUT),
              s));
      break;
    }
    case V_FUSED_TC:
    case V_FUSED_MAG_TC:{
      const int was = ce_fused_set_tensor_cores (1);
      CS (ce_launch_edge_fused (luma, lp, w, h, 0, h, v == V_FUSED_TC ?
              &g.c_def : &g.c_mag, out, PITCH (K_OUT), s));
      ce_fused_set_tensor_cores (was);
      break;
    }
    case V_FUSED_L2_INT:
    case V_FUSED_L2_FLOAT:{
      const int was = ce_fused_set_l2_edges_form (v == V_FUSED_L2_FLOAT);
      CS (ce_launch_edge_fused (luma, lp, w, h, 0, h, &g.c_def, out,
              PITCH (K_OUT), s));
      ce_fused_set_l2_edges_form (was);
      break;
    }
    case V_UP_GRAY:
      CS (ce_launch_upscale2x (luma, lp, w, h, 1, 0, 2 * h,
              slice (K_UPG, idx), PITCH (K_UPG), s));
      break;
    case V_UP_RGBA:
      CS (ce_launch_upscale2x (slice (K_RGBA, idx), PITCH (K_RGBA), w, h, 4,
              0, 2 * h, slice (K_UPR, idx), PITCH (K_UPR), s));
      break;
#ifdef CE_HAVE_NPP
    case V_NPP_GAUSS:
      NPPCK (npp_peer_gauss (luma, lp, w, h, slice (K_NPP8, idx),
              PITCH (K_NPP8)));
      break;
    case V_NPP_SOBEL:
      NPPCK (npp_peer_sobel_mag (slice (K_NPP8, idx), PITCH (K_NPP8), w, h,
              (int16_t *) slice (K_NPP16, idx), PITCH (K_NPP16)));
      break;
    case V_NPP_CMP:
      NPPCK (npp_peer_compare ((const int16_t *) slice (K_NPP16, idx),
              PITCH (K_NPP16), w, h, 128, out, PITCH (K_OUT)));
      break;
    case V_NPP_CHAIN:
      NPPCK (npp_peer_gauss (luma, lp, w, h, slice (K_NPP8, idx),
              PITCH (K_NPP8)));
      NPPCK (npp_peer_sobel_mag (slice (K_NPP8, idx), PITCH (K_NPP8), w, h,
              (int16_t *) slice (K_NPP16, idx), PITCH (K_NPP16)));
      NPPCK (npp_peer_compare ((const int16_t *) slice (K_NPP16, idx),
              PITCH (K_NPP16), w, h, 128, out, PITCH (K_OUT)));
      break;
#endif
    default:
      bench_die ("internal: variant %d not available in this build", v);
  }
}

/* Runs queued behind one gate: each is at most 3 launches and copies and
 * 2 events (the link copy: 2 copies, 4 events and 2 waits), well inside
 * the launch queue. */
#define GATE_RUNS 64

/* The stream is held (up to a second) from gate_close until gate_open:
 * the runs queued between start back to back, whatever the host's time
 * to queue each. */
static void
gate_close (void)
{
  /* Launches that block until done would wait on the gate itself. */
  if (g.gate_off)
    return;
  g.gate[0] = 0;
  g.gate[1] = 0;
  __sync_synchronize ();
  CK (bench_gate_close (g.s0, g.gate_d, 1000000000ull));
}

static void
gate_open (void)
{
  __sync_synchronize ();
  g.gate[0] = 1;
  __sync_synchronize ();
}

/* After the stream has drained: whether the gate held until it was
 * opened.  If it timed out (the host took over a second to queue the
 * runs), the row's times may include the host's queueing; say so. */
static void
gate_check (const char *what)
{
  __sync_synchronize ();
  if (g.gate[1]) {
    g.gate_timeouts++;
    fprintf (stderr, "cudaedge-bench: the gate timed out for %s at %dx%d "
        "(the host took over a second to queue its runs, or the launch "
        "queue filled); its times may include host queueing\n", what, g.w,
        g.h);
  }
}

/* Per-launch timing: one CUDA event pair on stream s0 around each run's
 * launch(es), all queued behind the gate; runs rotate through the buffer
 * sets. */
static stats
time_gpu (int v)
{
  int c, i, runs = opt.runs;
  double *ms = xmalloc (sizeof (double) * runs);
  stats st;

  for (i = 0; i < opt.warmup; i++)
    enqueue (v, g.rot++);
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  /* GATE_RUNS runs behind each gate, so that the launch queue never
   * fills while the gate holds the stream. */
  for (c = 0; c < runs; c += GATE_RUNS) {
    gate_close ();
    for (i = c; i < runs && i < c + GATE_RUNS; i++) {
      CK (cudaEventRecord (g.ev[2 * i], g.s0));
      enqueue (v, g.rot++);
      CK (cudaEventRecord (g.ev[2 * i + 1], g.s0));
    }
    gate_open ();
    CK (cudaStreamSynchronize (g.s0));
    CK (cudaGetLastError ());
    gate_check (vinfo[v].name);
  }
  for (i = 0; i < runs; i++) {
    float f = 0;
    CK (cudaEventElapsedTime (&f, g.ev[2 * i], g.ev[2 * i + 1]));
    ms[i] = f;
  }
  st = summarize (ms, runs);
  free (ms);
  return st;
}

/* Back to back: B_LAUNCHES runs queued between one event pair (behind
 * the gate), so that a run starts as soon as the one before it ends, as
 * a stream of frames does; each sample is the pair's time over
 * B_LAUNCHES, one per batch, B_BATCHES batches (at most opt.runs, the
 * events there are). */
#define B_LAUNCHES 20
#define B_BATCHES 7

static stats
time_gpu_back_to_back (int v)
{
  int i, j, batches = MIN (B_BATCHES, opt.runs);
  double *ms = xmalloc (sizeof (double) * batches);
  stats st;

  for (i = 0; i < opt.warmup; i++)
    enqueue (v, g.rot++);
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  gate_close ();
  for (i = 0; i < batches; i++) {
    CK (cudaEventRecord (g.ev[2 * i], g.s0));
    for (j = 0; j < B_LAUNCHES; j++)
      enqueue (v, g.rot++);
    CK (cudaEventRecord (g.ev[2 * i + 1], g.s0));
  }
  gate_open ();
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  gate_check (vinfo[v].name);
  for (i = 0; i < batches; i++) {
    float f = 0;
    CK (cudaEventElapsedTime (&f, g.ev[2 * i], g.ev[2 * i + 1]));
    ms[i] = f / B_LAUNCHES;
  }
  st = summarize (ms, batches);
  free (ms);
  return st;
}

/* Host-to-host element path, timed with the host clock around each
 * (synchronous) ce_cuda_edge_frame call. */
static stats
time_element (ce_cuda_ctx * ctx, ce_timing * last)
{
  int i, runs = opt.runs;
  double *ms = xmalloc (sizeof (double) * runs);
  ce_frame src = { g.e_src, (size_t) g.w, g.w, g.h, CE_FORMAT_GRAY8 };
  ce_edge_params params;
  stats st;

  ce_edge_params_init (&params);
  for (i = 0; i < opt.warmup; i++)
    CS (ce_cuda_edge_frame (ctx, &src, &params, g.e_dst, (size_t) g.w,
            NULL));
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    CS (ce_cuda_edge_frame (ctx, &src, &params, g.e_dst, (size_t) g.w,
            last));
    ms[i] = now_ms () - t0;
  }
  CK (cudaGetLastError ());
  st = summarize (ms, runs);
  free (ms);
  return st;
}

/* Frames in flight: frame i is submitted before frame i - 1 is waited
 * for, as the element does on the CUDA backend.  Each sample is the time
 * between two consecutive completions (the steady-state frame period). */
static stats
time_element_pipelined (ce_cuda_ctx * ctx)
{
  int i, runs = opt.runs, total = opt.warmup + runs + 1;
  double *ms = xmalloc (sizeof (double) * runs);
  uint8_t *src[2], *dst[2];
  ce_edge_params params;
  double prev = 0.0;
  stats st;

  ce_edge_params_init (&params);
  for (i = 0; i < 2; i++) {
    CS (ce_cuda_host_alloc (ctx, g.npx, (void **) &src[i]));
    CS (ce_cuda_host_alloc (ctx, g.npx, (void **) &dst[i]));
    memcpy (src[i], g.e_src, g.npx);
  }
  for (i = 0; i < total; i++) {
    ce_frame f = { src[i % 2], (size_t) g.w, g.w, g.h, CE_FORMAT_GRAY8 };

    if (i < total - 1)
      CS (ce_cuda_edge_frame_submit (ctx, i % 2, &f, &params, dst[i % 2],
              (size_t) g.w));
    if (i >= 1) {
      double t;

      CS (ce_cuda_frame_wait (ctx, (i - 1) % 2, NULL));
      t = now_ms ();
      if (i - 1 > opt.warmup)
        ms[i - 2 - opt.warmup] = t - prev;
      prev = t;
    }
  }
  CK (cudaGetLastError ());
  for (i = 0; i < 2; i++) {
    CS (ce_cuda_host_free (ctx, src[i]));
    CS (ce_cuda_host_free (ctx, dst[i]));
  }
  st = summarize (ms, runs - 1);
  free (ms);
  return st;
}

static int
cpu_runs (void)
{
  if (g.npx <= 2100000)
    return opt.quick ? 2 : 10;
  return opt.quick ? 1 : 3;
}

static stats
time_cpu_edge (uint8_t * dst)
{
  int i, runs = cpu_runs ();
  double ms[16];
  ce_edge_params params;
  ce_edge_params_init (&params);
  CS (ce_ref_edge (g.e_src, (size_t) g.w, g.w, g.h, &params, dst,
          (size_t) g.w));
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    CS (ce_ref_edge (g.e_src, (size_t) g.w, g.w, g.h, &params, dst,
            (size_t) g.w));
    ms[i] = now_ms () - t0;
  }
  return summarize (ms, runs);
}

/* The fast CPU path on all cores: ce_cpu_edge_rows over row bands, one
 * band per thread, as cudaedge's CPU backend splits a frame: the calling
 * thread takes the last band, a GThreadPool of n - 1 threads the others;
 * no band shorter than CPU_MIN_BAND_ROWS rows. */
#define CPU_MIN_BAND_ROWS 32

typedef struct
{
  GThreadPool *pool;
  int n_threads;
  GMutex lock;
  GCond done;
  int pending;
  ce_status status;
  /* the frame of the current run */
  const ce_frame *src;
  const ce_edge_params *params;
  uint8_t *dst;
  size_t dst_stride;
  int band_rows, n_bands;
} cpu_bands;

static void
cpu_band_run (cpu_bands * cb, int band)
{
  int row0 = band * cb->band_rows;
  int row1 = MIN (cb->src->height, row0 + cb->band_rows);
  ce_status s = ce_cpu_edge_rows (cb->src, cb->params, row0, row1, cb->dst,
      cb->dst_stride);

  if (s != CE_STATUS_OK) {
    g_mutex_lock (&cb->lock);
    if (cb->status == CE_STATUS_OK)
      cb->status = s;
    g_mutex_unlock (&cb->lock);
  }
}

static void
cpu_band_worker (gpointer data, gpointer user_data)
{
  cpu_bands *cb = user_data;

  cpu_band_run (cb, GPOINTER_TO_INT (data) - 1);
  g_mutex_lock (&cb->lock);
  if (--cb->pending == 0)
    g_cond_signal (&cb->done);
  g_mutex_unlock (&cb->lock);
}

static void
cpu_bands_init (cpu_bands * cb, int n_threads)
{
  GError *err = NULL;

  memset (cb, 0, sizeof *cb);
  g_mutex_init (&cb->lock);
  g_cond_init (&cb->done);
  cb->n_threads = n_threads;
  if (n_threads > 1) {
    cb->pool = g_thread_pool_new (cpu_band_worker, cb, n_threads - 1, TRUE,
        &err);
    if (!cb->pool)
      bench_die ("cannot start %d CPU threads: %s", n_threads - 1,
          err ? err->message : "?");
  }
}

static void
cpu_bands_clear (cpu_bands * cb)
{
  if (cb->pool)
    g_thread_pool_free (cb->pool, FALSE, TRUE);
  g_mutex_clear (&cb->lock);
  g_cond_clear (&cb->done);
}

/* The bands a frame of @height rows is split into. */
static int
cpu_bands_for (const cpu_bands * cb, int height)
{
  int n = MIN (cb->n_threads, height / CPU_MIN_BAND_ROWS);
  int rows;

  if (n <= 1 || !cb->pool)
    return 1;
  rows = (height + n - 1) / n;
  return (height + rows - 1) / rows;
}

/* One frame; returns when every band is written. */
static void
cpu_bands_edge (cpu_bands * cb, const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride)
{
  int i, n = cpu_bands_for (cb, src->height);

  cb->src = src;
  cb->params = params;
  cb->dst = dst;
  cb->dst_stride = dst_stride;
  cb->band_rows = (src->height + n - 1) / n;
  cb->n_bands = n;
  cb->status = CE_STATUS_OK;
  cb->pending = n - 1;
  for (i = 0; i < n - 1; i++) {
    GError *err = NULL;

    if (!g_thread_pool_push (cb->pool, GINT_TO_POINTER (i + 1), &err))
      bench_die ("cannot queue a CPU band: %s", err ? err->message : "?");
  }
  cpu_band_run (cb, n - 1);
  g_mutex_lock (&cb->lock);
  while (cb->pending > 0)
    g_cond_wait (&cb->done, &cb->lock);
  g_mutex_unlock (&cb->lock);
  if (cb->status != CE_STATUS_OK)
    bench_die ("ce_cpu_edge_rows failed: %s: %s", ce_status_string (cb->status),
        ce_last_error ());
}

/* ce_cpu_edge_rows on the random frame, default parameters, split over
 * @cb's threads: @runs timed frames after 2 warm-up ones. */
static stats
time_cpu_fast_edge (cpu_bands * cb, int runs, uint8_t * dst)
{
  ce_frame src = { g.e_src, (size_t) g.w, g.w, g.h, CE_FORMAT_GRAY8 };
  double *ms = xmalloc (sizeof (double) * runs);
  ce_edge_params params;
  stats st;
  int i;

  ce_edge_params_init (&params);
  for (i = 0; i < 2; i++)
    cpu_bands_edge (cb, &src, &params, dst, (size_t) g.w);
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    cpu_bands_edge (cb, &src, &params, dst, (size_t) g.w);
    ms[i] = now_ms () - t0;
  }
  st = summarize (ms, runs);
  free (ms);
  return st;
}

static stats
time_cpu_upscale (uint8_t * dst)
{
  int i, runs = cpu_runs ();
  double ms[16];
  CS (ce_ref_upscale2x (g.e_src, (size_t) g.w, g.w, g.h, 1, dst,
          (size_t) g.w * 2));
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    CS (ce_ref_upscale2x (g.e_src, (size_t) g.w, g.w, g.h, 1, dst,
            (size_t) g.w * 2));
    ms[i] = now_ms () - t0;
  }
  return summarize (ms, runs);
}

/* The cudaupscale element's host-to-host path on RGBA: 4 bytes read and
 * 16 written per source pixel, timed with the host clock around each
 * (synchronous) ce_cuda_upscale2x_frame call. */
static stats
time_upscale_element (ce_cuda_ctx * ctx, const uint8_t * h_src,
    uint8_t * h_dst, ce_timing * last)
{
  int i, runs = opt.runs;
  double *ms = xmalloc (sizeof (double) * runs);
  size_t ss = (size_t) g.w * 4, ds = (size_t) g.w * 8;
  stats st;

  for (i = 0; i < opt.warmup; i++)
    CS (ce_cuda_upscale2x_frame (ctx, h_src, ss, g.w, g.h, 4, h_dst, ds,
            NULL));
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    CS (ce_cuda_upscale2x_frame (ctx, h_src, ss, g.w, g.h, 4, h_dst, ds,
            last));
    ms[i] = now_ms () - t0;
  }
  CK (cudaGetLastError ());
  st = summarize (ms, runs);
  free (ms);
  return st;
}

/* The link ceiling of that path: @up bytes H2D on s0 overlapped with
 * @down bytes D2H on s1, all pinned, CUDA events around each pair. */
static stats
time_link_copy (const uint8_t * h_up, uint8_t * d_up, size_t up,
    uint8_t * h_down, const uint8_t * d_down, size_t down)
{
  int i, runs = opt.runs;
  double *ms = xmalloc (sizeof (double) * runs);
  stats st;

  for (i = -opt.warmup; i < runs; i++) {
    if (i >= 0 && i % GATE_RUNS == 0) {
      if (i > 0) {
        gate_open ();
        CK (cudaStreamSynchronize (g.s0));
        gate_check ("the link copy");
      }
      CK (cudaStreamSynchronize (g.s0));
      gate_close ();
    }
    if (i >= 0)
      CK (cudaEventRecord (g.ev[2 * i], g.s0));
    CK (cudaEventRecord (g.fork, g.s0));
    CK (cudaStreamWaitEvent (g.s1, g.fork, 0));
    CK (cudaMemcpyAsync (d_up, h_up, up, cudaMemcpyHostToDevice, g.s0));
    CK (cudaMemcpyAsync (h_down, d_down, down, cudaMemcpyDeviceToHost,
            g.s1));
    CK (cudaEventRecord (g.join, g.s1));
    CK (cudaStreamWaitEvent (g.s0, g.join, 0));
    if (i >= 0)
      CK (cudaEventRecord (g.ev[2 * i + 1], g.s0));
  }
  gate_open ();
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  gate_check ("the link copy");
  for (i = 0; i < runs; i++) {
    float f = 0;
    CK (cudaEventElapsedTime (&f, g.ev[2 * i], g.ev[2 * i + 1]));
    ms[i] = f;
  }
  st = summarize (ms, runs);
  free (ms);
  return st;
}

static stats
time_cpu_upscale_rgba (const uint8_t * src, uint8_t * dst)
{
  int i, runs = cpu_runs ();
  double ms[16];
  CS (ce_ref_upscale2x (src, (size_t) g.w * 4, g.w, g.h, 4, dst,
          (size_t) g.w * 8));
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    CS (ce_ref_upscale2x (src, (size_t) g.w * 4, g.w, g.h, 4, dst,
            (size_t) g.w * 8));
    ms[i] = now_ms () - t0;
  }
  return summarize (ms, runs);
}

/* The fast CPU upscale (cudaupscale's CPU backend) on one thread:
 * ce_cpu_upscale2x_rows over the whole RGBA output, after one warm-up. */
static stats
time_cpu_fast_upscale_rgba (const uint8_t * src, uint8_t * dst)
{
  int i, runs = cpu_runs ();
  double ms[16];
  CS (ce_cpu_upscale2x_rows (src, (size_t) g.w * 4, g.w, g.h, 4, 0, 2 * g.h,
          dst, (size_t) g.w * 8));
  for (i = 0; i < runs; i++) {
    double t0 = now_ms ();
    CS (ce_cpu_upscale2x_rows (src, (size_t) g.w * 4, g.w, g.h, 4, 0,
            2 * g.h, dst, (size_t) g.w * 8));
    ms[i] = now_ms () - t0;
  }
  return summarize (ms, runs);
}

/* ------------------------------------------------------------------ */
/* Table output */

static void
print_table_header (void)
{
  printf ("  %-32s %10s %9s %10s %9s %8s  %s\n", "variant", "median ms",
      "IQR ms", "MB/frame", "GB/s", "% ceil", "ceiling / notes");
  printf ("  %-32s %10s %9s %10s %9s %8s  %s\n",
      "--------------------------------", "---------", "------",
      "--------", "----", "------", "---------------");
}

/* A table row, and its --csv line: @format is the input format,
 * @parallel the CPU threads of the row (1 for every other row). */
static double
print_row_full (const char *name, const char *format, int parallel,
    stats st, double bytes, ceil_kind ck, double ceil_val, const char *note)
{
  double gbps = st.med > 0 ? bytes / (st.med * 1e-3) / 1e9 : 0.0;
  double ceil_fps = 0.0;
  char pct[32] = "-";
  const char *cname = "";
  if (ck == CEIL_D2D && ceil_val > 0) {
    snprintf (pct, sizeof pct, "%.1f%%", 100.0 * gbps / ceil_val);
    cname = "d2d";
    /* the frame rate the copy's GB/s allows for these bytes */
    ceil_fps = bytes > 0 ? ceil_val * 1e9 / bytes : 0.0;
  } else if (ck == CEIL_LINK && ceil_val > 0) {
    /* ceil_val: the overlapped copy's median ms for the same bytes */
    snprintf (pct, sizeof pct, "%.1f%%", 100.0 * ceil_val / st.med);
    cname = "link";
    ceil_fps = 1e3 / ceil_val;
  }
  printf ("  %-32s %10.4f %9.4f %10.2f %9.1f %8s  %s%s%s\n", name, st.med,
      st.p75 - st.p25, bytes / 1e6, gbps, pct, cname,
      (*cname && note && *note) ? "; " : "", note ? note : "");
  bench_csv_row (name, g.w, g.h, format, parallel, "ms", st.med, st.p25, st.p75,
      bytes, cname, ceil_fps);
  return gbps;
}

static double
print_row (const char *name, stats st, double bytes, ceil_kind ck,
    double ceil_val, const char *note)
{
  return print_row_full (name, "GRAY8", 1, st, bytes, ck, ceil_val, note);
}

/* ------------------------------------------------------------------ */
/* Correctness checks and pictures */

static void
report_diff (const char *what, uint64_t count, const ce_diff * d)
{
  if (count == 0)
    printf ("  check %-28s OK (bit-exact with the CPU reference)\n", what);
  else
    printf ("  check %-28s MISMATCH: %llu bytes differ, first at "
        "x=%d y=%d (expected %d, got %d)\n", what,
        (unsigned long long) count, d->x, d->y, d->expected, d->got);
}

static void
picture_checks (const uint8_t * pic, int w, int h)
{
  uint8_t *d_y, *d_out;
  uint16_t *d_b, *d_scr;
  int32_t *d_grad;
  size_t yp, bp, sp, gp, op;
  size_t n = (size_t) w * h;
  uint16_t *ref_b = xmalloc (n * 2), *got_b = xmalloc (n * 2);
  uint8_t *ref_e = xmalloc (n), *got_e = xmalloc (n), *b8 = xmalloc (n);
  ce_edge_params params;
  ce_edge_consts consts;
  ce_diff d;
  uint64_t c;
  int vi;
  size_t i;

  printf ("\nCorrectness on the picture (%dx%d%s):\n", w, h,
      opt.pgm_in ? ", from --pgm-in" : ", generated");
  ce_edge_params_init (&params);
  CS (ce_edge_consts_init (&consts, &params));
  CK (cudaMallocPitch ((void **) &d_y, &yp, (size_t) w, h));
  CK (cudaMallocPitch ((void **) &d_out, &op, (size_t) w, h));
  CK (cudaMallocPitch ((void **) &d_b, &bp, (size_t) w * 2, h));
  CK (cudaMallocPitch ((void **) &d_scr, &sp, (size_t) w * 2, h));
  CK (cudaMallocPitch ((void **) &d_grad, &gp, (size_t) w * 8, h));
  CK (cudaMemcpy2D (d_y, yp, pic, (size_t) w, (size_t) w, h,
          cudaMemcpyHostToDevice));

  CS (ce_ref_blur (pic, (size_t) w, w, h, params.border, ref_b,
          (size_t) w * 2));
  CS (ce_ref_edge (pic, (size_t) w, w, h, &params, ref_e, (size_t) w));

  for (vi = 0; vi < CE_BLUR_VARIANT_COUNT; vi++) {
    char what[64];
    CK (cudaMemset2D (d_b, bp, 0x5A, (size_t) w * 2, h));
    CS (ce_launch_blur ((ce_blur_variant) vi, d_y, yp, w, h, params.border,
            d_scr, sp, d_b, bp, g.s0));
    CK (cudaStreamSynchronize (g.s0));
    CK (cudaGetLastError ());
    CK (cudaMemcpy2D (got_b, (size_t) w * 2, d_b, bp, (size_t) w * 2, h,
            cudaMemcpyDeviceToHost));
    c = ce_compare_u8 ((const uint8_t *) ref_b, (size_t) w * 2,
        (const uint8_t *) got_b, (size_t) w * 2, w * 2, h, &d);
    snprintf (what, sizeof what, "blur %s (bytes of B)",
        ce_blur_variant_name ((ce_blur_variant) vi));
    report_diff (what, c, &d);
  }

  /* staged chain (B from the separable blur is still in d_b? no: the last
   * loop iteration was two-pass; recompute to be explicit) */
  CK (cudaMemset2D (d_out, op, 0x5A, (size_t) w, h));
  CS (ce_launch_blur (CE_BLUR_SEPARABLE, d_y, yp, w, h, params.border, NULL,
          0, d_b, bp, g.s0));
  CS (ce_launch_sobel (d_b, bp, w, h, params.border, d_grad, gp, g.s0));
  CS (ce_launch_threshold (d_grad, gp, w, h, &consts, d_out, op, g.s0));
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  CK (cudaMemcpy2D (got_e, (size_t) w, d_out, op, (size_t) w, h,
          cudaMemcpyDeviceToHost));
  report_diff ("staged chain", ce_compare_u8 (ref_e, (size_t) w, got_e,
          (size_t) w, w, h, &d), &d);

  CK (cudaMemset2D (d_out, op, 0x5A, (size_t) w, h));
  CS (ce_launch_sobel_threshold (d_b, bp, w, h, &consts, d_out, op, g.s0));
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  CK (cudaMemcpy2D (got_e, (size_t) w, d_out, op, (size_t) w, h,
          cudaMemcpyDeviceToHost));
  report_diff ("blur + sobel+threshold", ce_compare_u8 (ref_e, (size_t) w,
          got_e, (size_t) w, w, h, &d), &d);

  CK (cudaMemset2D (d_out, op, 0x5A, (size_t) w, h));
  CS (ce_launch_edge_fused (d_y, yp, w, h, 0, h, &consts, d_out, op, g.s0));
  CK (cudaStreamSynchronize (g.s0));
  CK (cudaGetLastError ());
  CK (cudaMemcpy2D (got_e, (size_t) w, d_out, op, (size_t) w, h,
          cudaMemcpyDeviceToHost));
  report_diff ("fused edge", ce_compare_u8 (ref_e, (size_t) w, got_e,
          (size_t) w, w, h, &d), &d);

  if (opt.out_dir) {
    for (i = 0; i < n; i++) {
      unsigned v = ((unsigned) ref_b[i] + 128u) >> 8;
      b8[i] = (uint8_t) (v > 255 ? 255 : v);
    }
    write_pgm (opt.out_dir, "input.pgm", pic, (size_t) w, w, h);
    write_pgm (opt.out_dir, "blur.pgm", b8, (size_t) w, w, h);
    write_pgm (opt.out_dir, "edges.pgm", got_e, (size_t) w, w, h);
  }

  {
    /* host-to-host path on the picture */
    uint8_t *hin = NULL, *hout = NULL;
    ce_frame src = { NULL, (size_t) w, w, h, CE_FORMAT_GRAY8 };
    CS (ce_cuda_host_alloc (g.ctx, n, (void **) &hin));
    CS (ce_cuda_host_alloc (g.ctx, n, (void **) &hout));
    memcpy (hin, pic, n);
    src.data = hin;
    memset (hout, 0x5A, n);
    CS (ce_cuda_edge_frame (g.ctx, &src, &params, hout, (size_t) w, NULL));
    report_diff ("ce_cuda_edge_frame", ce_compare_u8 (ref_e, (size_t) w,
            hout, (size_t) w, w, h, &d), &d);
    memset (hout, 0x5A, n);
    CS (ce_cuda_edge_frame (g.ctx1, &src, &params, hout, (size_t) w, NULL));
    report_diff ("ce_cuda_edge_frame bands=1", ce_compare_u8 (ref_e,
            (size_t) w, hout, (size_t) w, w, h, &d), &d);
    CS (ce_cuda_host_free (g.ctx, hin));
    CS (ce_cuda_host_free (g.ctx, hout));
  }

#ifdef CE_HAVE_NPP
  if (g.have_npp) {
    uint8_t *d_g8;
    int16_t *d_m;
    size_t g8p, mp;
    uint64_t agree = 0;
    CK (cudaMallocPitch ((void **) &d_g8, &g8p, (size_t) w, h));
    CK (cudaMallocPitch ((void **) &d_m, &mp, (size_t) w * 2, h));
    CK (cudaMemset2D (d_out, op, 0x5A, (size_t) w, h));
    if (npp_peer_gauss (d_y, yp, w, h, d_g8, g8p) != 0 ||
        npp_peer_sobel_mag (d_g8, g8p, w, h, d_m, mp) != 0 ||
        npp_peer_compare (d_m, mp, w, h, 128, d_out, op) != 0) {
      printf ("  WARNING: NPP call failed; NPP rows disabled\n");
      g.have_npp = 0;
    } else {
      CK (cudaStreamSynchronize (g.s0));
      CK (cudaGetLastError ());
      CK (cudaMemcpy2D (got_e, (size_t) w, d_out, op, (size_t) w, h,
              cudaMemcpyDeviceToHost));
      for (i = 0; i < n; i++)
        agree += got_e[i] == ref_e[i];
      printf ("  npp chain agrees with ours on %.3f%% of pixels (8-bit "
          "intermediate: not bit-exact by design)\n", 100.0 * agree / n);
    }
    CK (cudaFree (d_g8));
    CK (cudaFree (d_m));
  }
#endif

  CK (cudaFree (d_y));
  CK (cudaFree (d_out));
  CK (cudaFree (d_b));
  CK (cudaFree (d_scr));
  CK (cudaFree (d_grad));
  free (ref_b);
  free (got_b);
  free (ref_e);
  free (got_e);
  free (b8);
}

/* ------------------------------------------------------------------ */
/* One size */

/* The fast CPU path on one thread and on all of them (--cpu-threads),
 * each compared with @ref, ce_ref_edge's output of the same frame: returns
 * the differing bytes, the first difference in @d and its row in @what. */
static uint64_t
time_cpu_fast_rows (const uint8_t * ref, ce_diff * d, char *what,
    size_t what_size)
{
  int w = g.w, h = g.h, k;
  int n_threads = opt.cpu_threads > 0 ? opt.cpu_threads :
      (int) g_get_num_processors ();
  int runs1 = opt.quick ? 3 : 10;
  uint8_t *out = xmalloc (g.npx);
  char note[160], label[64];
  uint64_t bad = 0;
  ce_diff dd;

  for (k = 0; k < 2; k++) {
    cpu_bands cb;
    stats c;
    uint64_t cnt;
    int threads, runs;

    cpu_bands_init (&cb, k == 0 ? 1 : n_threads);
    threads = cpu_bands_for (&cb, h);
    if (k == 1 && threads <= 1) {
      cpu_bands_clear (&cb);    /* one band: the row above */
      break;
    }
    runs = threads > 1 ? opt.runs : runs1;
    memset (out, 0x5A, g.npx);
    c = time_cpu_fast_edge (&cb, runs, out);
    cpu_bands_clear (&cb);
    if (threads > 1)
      snprintf (label, sizeof label, "cpu fast, %d threads", threads);
    else
      snprintf (label, sizeof label, "cpu fast, 1 thread");
    snprintf (note, sizeof note, "ce_cpu_edge_rows, %d band%s of rows%s, "
        "%d runs, %.1f fps", threads, threads > 1 ? "s" : "",
        threads > 1 ? " (GThreadPool)" : "", runs, 1000.0 / c.med);
    print_row_full (label, "GRAY8", threads, c, 2.0 * g.npx, CEIL_NONE, 0,
        note);
    cnt = ce_compare_u8 (ref, (size_t) w, out, (size_t) w, w, h,
        bad ? &dd : d);
    if (cnt && !bad)
      g_strlcpy (what, label, what_size);
    bad += cnt;
  }
  free (out);
  return bad;
}

typedef struct
{
  int w, h;
  double fused_ms, fused_gbps, d2d_gbps;
} summary_t;

static void
bench_size (int w, int h, summary_t * sum)
{
  stats st[V_COUNT];
  double d2d_gbps, link_ms;
  size_t n = (size_t) w * h;
  int v;
  ce_timing tim_last;
  uint8_t *cpu_out, *cpu_up, *gpu_out;
  ce_edge_params params;
  ce_diff d, fast_diff;
  char note[160], fast_what[64] = "";
  uint64_t fast_bad;

  g.w = w;
  g.h = h;
  g.npx = n;
  g.rot = 0;

  printf ("\n== %dx%d (%.2f Mpx) ==\n", w, h, n / 1e6);
  pools_alloc (w, h, g.have_npp);
  CK (cudaHostAlloc ((void **) &g.h_src, n, cudaHostAllocDefault));
  CK (cudaHostAlloc ((void **) &g.h_dst, n, cudaHostAllocDefault));
  CS (ce_cuda_host_alloc (g.ctx, n, (void **) &g.e_src));
  CS (ce_cuda_host_alloc (g.ctx, n, (void **) &g.e_dst));
  fill_random (g.h_src, n);
  fill_random (g.e_src, n);
  memset (g.h_dst, 0x5A, n);
  memset (g.e_dst, 0x5A, n);
  pools_init ();

  for (v = 0; v < V_COUNT; v++) {
    if (v >= V_NPP_GAUSS && !g.have_npp)
      continue;
    st[v] = time_gpu (v);
  }

  d2d_gbps = 2.0 * n / (st[V_D2D].med * 1e-3) / 1e9;
  link_ms = st[V_H2D_D2H].med;
  printf ("ceilings at this size: d2d copy %.1f GB/s (read+write), H2D %.1f "
      "GB/s, D2H %.1f GB/s, overlapped %.1f GB/s each way\n", d2d_gbps,
      n / (st[V_H2D].med * 1e-3) / 1e9, n / (st[V_D2H].med * 1e-3) / 1e9,
      n / (link_ms * 1e-3) / 1e9);
  printf ("GPU rows: CUDA events around each launch (staged/npp chain: "
      "around the chain), median/IQR of %d runs after %d warm-up\n",
      opt.runs, opt.warmup);
  print_table_header ();
  for (v = 0; v < V_COUNT; v++) {
    if (v >= V_NPP_GAUSS && !g.have_npp)
      continue;
    print_row_full (vinfo[v].name, vinfo[v].format ? vinfo[v].format :
        "GRAY8", 1, st[v], vinfo[v].bytes_per_px * n, vinfo[v].ceil,
        d2d_gbps, v == V_H2D_D2H ? "bytes: N up + N down" :
        v == V_NPP_CHAIN ? "8-bit intermediate" : "");
  }

  /* The copy and the fused variants back to back (time_gpu_back_to_back),
   * against the copy timed the same way. */
  {
    static const int b2b[] = { V_D2D, V_FUSED, V_FUSED_MAG, V_FUSED_REFLECT,
      V_FUSED_ZERO, V_FUSED_L1, V_FUSED_L1_MAG, V_FUSED_NOBLUR, V_NPP_CHAIN
    };
    double b2b_d2d = 0.0;
    int i;

    printf ("GPU rows back to back: %d launches between one event pair, "
        "per launch; median/IQR of %d batches\n", B_LAUNCHES,
        MIN (B_BATCHES, opt.runs));
    for (i = 0; i < (int) G_N_ELEMENTS (b2b); i++) {
      const int bv = b2b[i];
      char label[80];
      stats b;

      if (bv >= V_NPP_GAUSS && !g.have_npp)
        continue;
      b = time_gpu_back_to_back (bv);
      if (bv == V_D2D)
        b2b_d2d = 2.0 * n / (b.med * 1e-3) / 1e9;
      snprintf (label, sizeof label, "b2b %s", vinfo[bv].name);
      print_row_full (label, "GRAY8", 1, b, vinfo[bv].bytes_per_px * n,
          CEIL_D2D, b2b_d2d, bv == V_NPP_CHAIN ? "8-bit intermediate" : "");
    }
  }

  /* host-to-host element path */
  {
    stats e = time_element (g.ctx, &tim_last);
    snprintf (note, sizeof note, "%.1f fps (link allows %.1f); last frame "
        "up %.0f / kernel %.0f / down %.0f us", 1000.0 / e.med,
        1000.0 / link_ms, tim_last.upload_us, tim_last.kernel_us,
        tim_last.download_us);
    print_row ("h2h ce_cuda_edge_frame (bands)", e, 2.0 * n, CEIL_LINK,
        link_ms, note);
    e = time_element (g.ctx1, &tim_last);
    snprintf (note, sizeof note, "%.1f fps; last frame up %.0f / kernel "
        "%.0f / down %.0f us", 1000.0 / e.med, tim_last.upload_us,
        tim_last.kernel_us, tim_last.download_us);
    print_row ("h2h ce_cuda_edge_frame bands=1", e, 2.0 * n, CEIL_LINK,
        link_ms, note);
    e = time_element_pipelined (g.ctx);
    snprintf (note, sizeof note, "%.1f fps; frame n+1 submitted before "
        "frame n is waited for", 1000.0 / e.med);
    print_row ("h2h edge, 2 frames in flight", e, 2.0 * n, CEIL_LINK,
        link_ms, note);
    /* How the band count trades per-band overhead for overlap. */
    for (int bands = 2; bands <= 16; bands *= 2) {
      char label[64];

      ce_cuda_ctx_set_bands (g.ctx1, bands);
      e = time_element (g.ctx1, &tim_last);
      snprintf (label, sizeof label, "h2h ce_cuda_edge_frame bands=%d",
          bands);
      snprintf (note, sizeof note, "%.1f fps", 1000.0 / e.med);
      print_row (label, e, 2.0 * n, CEIL_LINK, link_ms, note);
    }
    ce_cuda_ctx_set_bands (g.ctx1, 1);
  }

  /* CPU reference */
  cpu_out = xmalloc (n);
  cpu_up = xmalloc (n * 4);
  {
    stats c = time_cpu_edge (cpu_out);
    snprintf (note, sizeof note, "single thread, %d runs, %.1f fps",
        cpu_runs (), 1000.0 / c.med);
    print_row ("cpu ce_ref_edge", c, 2.0 * n, CEIL_NONE, 0, note);
    fast_bad = time_cpu_fast_rows (cpu_out, &fast_diff, fast_what,
        sizeof fast_what);
    c = time_cpu_upscale (cpu_up);
    snprintf (note, sizeof note, "single thread, %d runs", cpu_runs ());
    print_row ("cpu ce_ref_upscale2x GRAY8", c, 5.0 * n, CEIL_NONE, 0, note);
  }

  /* host-to-host upscale element path, RGBA: 4N read, 16N written */
  {
    uint8_t *u_src = NULL, *u_dst = NULL, *u_ref, *u_fast, *d_up, *d_down;
    stats e, link, c;
    double up_link_ms;
    uint64_t cnt;

    CS (ce_cuda_host_alloc (g.ctx, 4 * n, (void **) &u_src));
    CS (ce_cuda_host_alloc (g.ctx, 16 * n, (void **) &u_dst));
    CK (cudaMalloc ((void **) &d_up, 4 * n));
    CK (cudaMalloc ((void **) &d_down, 16 * n));
    CK (cudaMemset (d_down, 0x5A, 16 * n));
    fill_random (u_src, 4 * n);
    memset (u_dst, 0x5A, 16 * n);

    link = time_link_copy (u_src, d_up, 4 * n, u_dst, d_down, 16 * n);
    up_link_ms = link.med;
    print_row_full ("H2D 4N + D2H 16N overlapped", "RGBA", 1, link,
        20.0 * n, CEIL_NONE, 0, "link ceiling of the upscale rows");
    e = time_upscale_element (g.ctx, u_src, u_dst, &tim_last);
    snprintf (note, sizeof note, "%.1f fps (link allows %.1f); last frame "
        "up %.0f / kernel %.0f / down %.0f us", 1000.0 / e.med,
        1000.0 / up_link_ms, tim_last.upload_us, tim_last.kernel_us,
        tim_last.download_us);
    print_row_full ("h2h ce_cuda_upscale2x RGBA", "RGBA", 1, e, 20.0 * n,
        CEIL_LINK, up_link_ms, note);
    e = time_upscale_element (g.ctx1, u_src, u_dst, &tim_last);
    snprintf (note, sizeof note, "%.1f fps; last frame up %.0f / kernel "
        "%.0f / down %.0f us", 1000.0 / e.med, tim_last.upload_us,
        tim_last.kernel_us, tim_last.download_us);
    print_row_full ("h2h ce_cuda_upscale2x RGBA b=1", "RGBA", 1, e,
        20.0 * n, CEIL_LINK, up_link_ms, note);

    u_ref = xmalloc (16 * n);
    c = time_cpu_upscale_rgba (u_src, u_ref);
    snprintf (note, sizeof note, "single thread, %d runs, %.1f fps",
        cpu_runs (), 1000.0 / c.med);
    print_row_full ("cpu ce_ref_upscale2x RGBA", "RGBA", 1, c, 20.0 * n,
        CEIL_NONE, 0, note);
    u_fast = xmalloc (16 * n);
    memset (u_fast, 0x5A, 16 * n);
    c = time_cpu_fast_upscale_rgba (u_src, u_fast);
    snprintf (note, sizeof note, "ce_cpu_upscale2x_rows, single thread, "
        "%d runs, %.1f fps", cpu_runs (), 1000.0 / c.med);
    print_row_full ("cpu fast upscale2x RGBA", "RGBA", 1, c, 20.0 * n,
        CEIL_NONE, 0, note);
    cnt = ce_compare_u8 (u_ref, (size_t) w * 8, u_fast, (size_t) w * 8,
        w * 8, 2 * h, &d);
    free (u_fast);
    if (cnt)
      printf ("  WARNING: ce_cpu_upscale2x_rows RGBA differs from "
          "ce_ref_upscale2x: %llu bytes, first at byte x=%d y=%d (expected "
          "%d, got %d)\n", (unsigned long long) cnt, d.x, d.y, d.expected,
          d.got);
    else
      printf ("  check: ce_cpu_upscale2x_rows RGBA == ce_ref_upscale2x on "
          "the random frame\n");

    cnt = ce_compare_u8 (u_ref, (size_t) w * 8, u_dst, (size_t) w * 8, w * 8,
        2 * h, &d);
    if (cnt)
      printf ("  WARNING: ce_cuda_upscale2x_frame RGBA differs from "
          "ce_ref_upscale2x: %llu bytes, first at byte x=%d y=%d (expected "
          "%d, got %d)\n", (unsigned long long) cnt, d.x, d.y, d.expected,
          d.got);
    else
      printf ("  check: ce_cuda_upscale2x_frame RGBA == ce_ref_upscale2x on "
          "the random frame\n");

    free (u_ref);
    CK (cudaFree (d_up));
    CK (cudaFree (d_down));
    CS (ce_cuda_host_free (g.ctx, u_src));
    CS (ce_cuda_host_free (g.ctx, u_dst));
  }

  if (fast_bad)
    printf ("  WARNING: %s differs from ce_ref_edge on the random frame: "
        "%llu bytes, first at x=%d y=%d (expected %d, got %d)\n", fast_what,
        (unsigned long long) fast_bad, fast_diff.x, fast_diff.y,
        fast_diff.expected, fast_diff.got);
  else
    printf ("  check: cpu fast rows (ce_cpu_edge_rows in bands) == "
        "ce_ref_edge on the random frame\n");
  /* the element's output of the random frame vs the CPU reference */
  {
    uint64_t c = ce_compare_u8 (cpu_out, (size_t) w, g.e_dst, (size_t) w, w,
        h, &d);
    if (c)
      printf ("  WARNING: ce_cuda_edge_frame differs from ce_ref_edge on the "
          "random frame: %llu bytes, first at x=%d y=%d (expected %d, got "
          "%d)\n", (unsigned long long) c, d.x, d.y, d.expected, d.got);
    else
      printf ("  check: ce_cuda_edge_frame == ce_ref_edge on the random "
          "frame\n");
  }
  /* the fused kernel on luma set 0 vs the CPU reference */
  {
    uint8_t *h_l = xmalloc (n);
    uint64_t c;
    gpu_out = xmalloc (n);
    ce_edge_params_init (&params);
    CK (cudaMemcpy2D (h_l, (size_t) w, slice (K_LUMA, 0), PITCH (K_LUMA),
            (size_t) w, h, cudaMemcpyDeviceToHost));
    CS (ce_ref_edge (h_l, (size_t) w, w, h, &params, cpu_out, (size_t) w));
    CK (cudaMemset2D (slice (K_OUT, 0), PITCH (K_OUT), 0x5A, (size_t) w, h));
    CS (ce_launch_edge_fused (slice (K_LUMA, 0), PITCH (K_LUMA), w, h, 0, h,
            &g.c_def, slice (K_OUT, 0), PITCH (K_OUT), g.s0));
    CK (cudaStreamSynchronize (g.s0));
    CK (cudaGetLastError ());
    CK (cudaMemcpy2D (gpu_out, (size_t) w, slice (K_OUT, 0), PITCH (K_OUT),
            (size_t) w, h, cudaMemcpyDeviceToHost));
    c = ce_compare_u8 (cpu_out, (size_t) w, gpu_out, (size_t) w, w, h, &d);
    if (c)
      printf ("  WARNING: fused kernel differs from ce_ref_edge on luma set "
          "0: %llu bytes, first at x=%d y=%d (expected %d, got %d)\n",
          (unsigned long long) c, d.x, d.y, d.expected, d.got);
    else
      printf ("  check: fused kernel == ce_ref_edge on luma set 0\n");
    free (h_l);
    free (gpu_out);
  }
  free (cpu_out);
  free (cpu_up);

  sum->w = w;
  sum->h = h;
  sum->fused_ms = st[V_FUSED].med;
  sum->fused_gbps = 2.0 * n / (st[V_FUSED].med * 1e-3) / 1e9;
  sum->d2d_gbps = d2d_gbps;

  CK (cudaFreeHost (g.h_src));
  CK (cudaFreeHost (g.h_dst));
  CS (ce_cuda_host_free (g.ctx, g.e_src));
  CS (ce_cuda_host_free (g.ctx, g.e_dst));
  g.h_src = g.h_dst = g.e_src = g.e_dst = NULL;
  pools_free ();
  fflush (stdout);
}

/* ------------------------------------------------------------------ */

static void
print_device_header (void)
{
  int clk = 0, mclk = 0, bus = 0, drv = 0, rt = 0;
  const struct cudaDeviceProp *p = &g.prop;
  CK (cudaDeviceGetAttribute (&clk, cudaDevAttrClockRate, g.dev));
  CK (cudaDeviceGetAttribute (&mclk, cudaDevAttrMemoryClockRate, g.dev));
  CK (cudaDeviceGetAttribute (&bus, cudaDevAttrGlobalMemoryBusWidth, g.dev));
  CK (cudaDriverGetVersion (&drv));
  CK (cudaRuntimeGetVersion (&rt));
  printf ("cudaedge-bench\n");
  printf ("GPU %d: %s, sm_%d%d, %d SMs, SM clock %.0f MHz, memory clock "
      "%.0f MHz, %d-bit bus, L2 %.1f MiB, %.1f GiB\n", g.dev, p->name,
      p->major, p->minor, p->multiProcessorCount, clk / 1e3, mclk / 1e3,
      bus, p->l2CacheSize / (double) MIB,
      p->totalGlobalMem / (double) (1u << 30));
  printf ("driver %d.%d, runtime %d.%d; NPP peer: %s\n", drv / 1000,
      (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10,
#ifdef CE_HAVE_NPP
      g.have_npp ? "yes" : "built but failed to initialise"
#else
      "not built (no NPP found at configure time)"
#endif
      );
  printf ("Bytes per frame (N = W*H source pixels): d2d copy reads N and "
      "writes N (2N, the fused kernel's traffic);\n"
      "  luma 5N, blur 3N (two-pass 7N), sobel 10N, threshold 9N, "
      "sobel+threshold 3N, staged chain 22N, fused 2N,\n"
      "  upscale2x gray 5N / RGBA 20N, npp gauss 2N, sobel 3N, compare 3N, "
      "chain 8N, host-to-host 2N\n"
      "  (host-to-host upscale RGBA: 4N up + 16N down = 20N, against the "
      "overlapped copy of those bytes).\n"
      "%% ceil: GB/s over the d2d copy GB/s of the same size; for host-to-host "
      "rows, the overlapped H2D+D2H copy time\n"
      "  of the same bytes over the frame time (share of the frame rate the "
      "link allows).\n");
}

int
main (int argc, char **argv)
{
  int count = 0, i, si;
  ce_status cs;
  cudaError_t ce;
  summary_t sums[MAX_SIZES];
  uint8_t *pic;
  int pw, ph;
  ce_edge_params p;

  bench_init ("cudaedge-bench");
  setvbuf (stdout, NULL, _IOLBF, 0);
  parse_args (argc, argv);

  cs = ce_cuda_device_count (&count);
  if (cs == CE_STATUS_NOT_BUILT) {
    printf ("SKIP: no CUDA device (this build has no CUDA support)\n");
    return 77;
  }
  if (cs == CE_STATUS_NO_DEVICE || (cs == CE_STATUS_OK && count < 1)) {
    printf ("SKIP: no CUDA device (%s)\n", ce_last_error ());
    return 77;
  }
  if (cs != CE_STATUS_OK)
    bench_die ("ce_cuda_device_count: %s: %s", ce_status_string (cs),
        ce_last_error ());
  ce = cudaGetDeviceCount (&count);
  if (ce == cudaErrorNoDevice || ce == cudaErrorInsufficientDriver ||
      (ce == cudaSuccess && count < 1)) {
    printf ("SKIP: no CUDA device (%s)\n", cudaGetErrorString (ce));
    return 77;
  }
  CK (ce);
  if (opt.device >= count)
    bench_die ("--device %d: only %d device(s)", opt.device, count);

  cs = ce_cuda_ctx_new (opt.device, opt.streams, &g.ctx);
  if (cs == CE_STATUS_NO_DEVICE) {
    printf ("SKIP: no CUDA device (%s)\n", ce_last_error ());
    return 77;
  }
  CS (cs);
  CS (ce_cuda_ctx_new (ce_cuda_ctx_device_id (g.ctx), opt.streams, &g.ctx1));
  ce_cuda_ctx_set_bands (g.ctx1, 1);
  g.dev = ce_cuda_ctx_device_id (g.ctx);
  CK (cudaSetDevice (g.dev));
  CK (cudaGetDeviceProperties (&g.prop, g.dev));
  CK (cudaStreamCreateWithFlags (&g.s0, cudaStreamNonBlocking));
  CK (cudaStreamCreateWithFlags (&g.s1, cudaStreamNonBlocking));
  CK (cudaEventCreateWithFlags (&g.fork, cudaEventDisableTiming));
  CK (cudaEventCreateWithFlags (&g.join, cudaEventDisableTiming));
  {
    void *gate = NULL, *gate_d = NULL;

    CK (cudaHostAlloc (&gate, 2 * sizeof (unsigned), cudaHostAllocMapped));
    CK (cudaHostGetDevicePointer (&gate_d, gate, 0));
    g.gate = gate;
    g.gate_d = gate_d;
    g.gate[0] = 1;
    g.gate[1] = 0;
    g.gate_off = g_getenv ("CUDA_LAUNCH_BLOCKING") != NULL
        && strcmp (g_getenv ("CUDA_LAUNCH_BLOCKING"), "0") != 0;
  }
  g.ev = xmalloc (sizeof (cudaEvent_t) * 2 * opt.runs);
  for (i = 0; i < 2 * opt.runs; i++)
    CK (cudaEventCreate (&g.ev[i]));
#ifdef CE_HAVE_NPP
  g.have_npp = npp_peer_init (g.dev, g.s0) == 0;
#endif

  ce_edge_params_init (&p);
  CS (ce_edge_consts_init (&g.c_def, &p));
  p.output = CE_OUTPUT_MAGNITUDE;
  CS (ce_edge_consts_init (&g.c_mag, &p));
  ce_edge_params_init (&p);
  p.border = CE_BORDER_REFLECT;
  CS (ce_edge_consts_init (&g.c_refl, &p));
  ce_edge_params_init (&p);
  p.border = CE_BORDER_ZERO;
  CS (ce_edge_consts_init (&g.c_zero, &p));
  ce_edge_params_init (&p);
  p.norm = CE_NORM_L1;
  CS (ce_edge_consts_init (&g.c_l1, &p));
  p.output = CE_OUTPUT_MAGNITUDE;
  CS (ce_edge_consts_init (&g.c_l1mag, &p));
  ce_edge_params_init (&p);
  p.blur = 0;
  CS (ce_edge_consts_init (&g.c_noblur, &p));

  print_device_header ();
  if (opt.csv)
    bench_csv_open (opt.csv);

  /* the picture: correctness checks and --out-dir */
  if (opt.pgm_in) {
    pic = read_pgm (opt.pgm_in, &pw, &ph);
  } else {
    pw = opt.sizes[0].w;
    ph = opt.sizes[0].h;
    pic = make_picture (pw, ph);
  }
  picture_checks (pic, pw, ph);
  free (pic);

  for (si = 0; si < opt.n_sizes; si++)
    bench_size (opt.sizes[si].w, opt.sizes[si].h, &sums[si]);

  printf ("\nSummary (fused edge, default parameters, vs the d2d copy of "
      "the same run and size):\n");
  for (si = 0; si < opt.n_sizes; si++)
    printf ("%dx%d fused edge: %.3f ms, %.0f GB/s = %.1f%% of d2d copy\n",
        sums[si].w, sums[si].h, sums[si].fused_ms, sums[si].fused_gbps,
        100.0 * sums[si].fused_gbps / sums[si].d2d_gbps);

  for (i = 0; i < 2 * opt.runs; i++)
    CK (cudaEventDestroy (g.ev[i]));
  free (g.ev);
  CK (cudaEventDestroy (g.fork));
  CK (cudaEventDestroy (g.join));
  CK (cudaStreamDestroy (g.s0));
  CK (cudaStreamDestroy (g.s1));
  CK (cudaFreeHost ((void *) g.gate));
  ce_cuda_ctx_free (g.ctx1);
  ce_cuda_ctx_free (g.ctx);
  bench_csv_close ();
  if (g.gate_timeouts) {
    fprintf (stderr, "cudaedge-bench: the gate timed out %d time(s); those "
        "rows' times are not the GPU's alone\n", g.gate_timeouts);
    return 1;
  }
  return 0;
}
