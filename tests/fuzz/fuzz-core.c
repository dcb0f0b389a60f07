/* gst-cudaedge: fuzz target of the compute core's CPU paths
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The first bytes of an input choose the operation (edge chain or 2x
 * upscale), the format or the bytes per pixel, the size (1 ... 257 each
 * way), the row padding, the options and how the output rows are split
 * into bands; the rest are the pixels, repeated as needed.  The oracle is
 * the core's own reference: ce_ref_edge_frame () and ce_ref_upscale2x ()
 * against ce_cpu_edge_rows () and ce_cpu_upscale2x_rows () band by band,
 * compared with memcmp.  Both must also agree on refusing an argument.
 *
 * Every buffer the fast paths see ends exactly at an inaccessible page
 * (or, for some inputs, starts right after one), so a read or write one
 * byte outside it crashes even without a sanitizer.  The source ends at
 * the last byte of its last row, without that row's padding; the output's
 * row padding and the rows outside the current band must stay untouched.
 *
 * Built two ways from this one file:
 *   - with clang -fsanitize=fuzzer (tests/fuzz/run-fuzzer.sh), libFuzzer
 *     provides main () and explores;
 *   - with -DCE_FUZZ_REPLAY, a plain main () runs every file named on the
 *     command line (a directory: every file in it), as meson test does on
 *     tests/fuzz/corpus/.
 * A mismatch prints what differs and aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cudaedge-core.h"

#define HEADER_BYTES 12
#define MAX_SIDE 257
#define POISON 0xA5
#define MAX_BANDS 8

/* The decoded header. */
typedef struct
{
  int upscale;                  /* 0: edge chain, 1: 2x upscale */
  ce_format format;             /* edge chain */
  int bytes_per_pixel;          /* upscale: 1 or 4, sometimes a bad value */
  int width, height;
  size_t src_pad, dst_pad;
  ce_edge_params params;
  int at_start;                 /* buffers start after the guard page */
  uint32_t band_seed;
} fuzz_case;

/* ---- guarded buffers ---- */

/* A buffer of @size bytes with an inaccessible page right after its end
 * (or, with @at_start, right before its start). */
typedef struct
{
  uint8_t *map;
  size_t map_size;
  uint8_t *data;
} guarded;

static size_t
page_size (void)
{
  static size_t page;

  if (page == 0)
    page = (size_t) sysconf (_SC_PAGESIZE);
  return page;
}

static void
die (const char *what)
{
  fprintf (stderr, "fuzz-core: %s: %s\n", what, strerror (errno));
  abort ();
}

static guarded
guarded_alloc (size_t size, int at_start)
{
  size_t page = page_size ();
  size_t span = (size + page - 1) / page * page;
  guarded g;

  /* guard | span | guard */
  g.map_size = span + 2 * page;
  g.map = mmap (NULL, g.map_size, PROT_READ | PROT_WRITE,
      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (g.map == MAP_FAILED)
    die ("mmap");
  if (mprotect (g.map, page, PROT_NONE) != 0
      || mprotect (g.map + page + span, page, PROT_NONE) != 0)
    die ("mprotect");
  g.data = at_start ? g.map + page : g.map + page + span - size;
  return g;
}

static void
guarded_free (guarded * g)
{
  munmap (g->map, g->map_size);
}

/* ---- decoding ---- */

static uint32_t
xorshift32 (uint32_t * s)
{
  uint32_t x = *s ? *s : 0x9E3779B9u;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

static const double special_thresholds[16] = {
  2048.0, 2047.9999999, 0.0, 1.0 / 1024, 0.5, 181.01933598375618,
  1448.1546878700494, 2048.0000001, 2049.0, 4096.0, 1e300, -0.0,
  -1.0 / 32, -2048.0, NAN, INFINITY,
};

static void
decode_header (const uint8_t * d, fuzz_case * c)
{
  unsigned t = d[6] | d[7] << 8;
  unsigned opts = d[8];

  c->upscale = d[0] & 1;
  c->format = (ce_format) ((d[0] >> 1) % CE_FORMAT_COUNT);
  c->width = 1 + (int) ((d[1] | d[2] << 8) % MAX_SIDE);
  c->height = 1 + (int) ((d[3] | d[4] << 8) % MAX_SIDE);
  c->src_pad = d[5] & 0x3f;
  c->dst_pad = (d[5] >> 6) * 3;

  /* Thresholds in 1/32 gray levels over [0, 2047.5]; the top 16 codes are
   * the edges of the range and values outside it (NaN too), which both
   * paths must accept or refuse alike. */
  ce_edge_params_init (&c->params);
  if (t < 0xfff0)
    c->params.threshold = t / 32.0;
  else
    c->params.threshold = special_thresholds[t - 0xfff0];
  c->params.blur = opts & 1;
  c->params.border = (ce_border_mode) ((opts >> 1) & 3);     /* 3 is invalid */
  c->params.norm = (ce_norm) ((opts >> 3) & 1);
  c->params.output = (ce_output) ((opts >> 4) & 1);
  /* 1 and 4 are the two valid sizes; 3 now and then must be refused. */
  c->bytes_per_pixel = (opts & 0x20) ? 4 : 1;
  if ((opts & 0xc0) == 0xc0 && (d[9] & 0x0f) == 0)
    c->bytes_per_pixel = 3;
  c->at_start = (opts >> 6) & 1;
  c->band_seed = d[9] | d[10] << 8 | (uint32_t) d[11] << 16;
}

/* Fills @n bytes with the pixel bytes, repeated; zeros when there are
 * none.  Padding gets pixel bytes too: the paths must ignore it. */
static void
fill_pixels (uint8_t * dst, size_t n, const uint8_t * px, size_t n_px)
{
  size_t i;

  if (n_px == 0) {
    memset (dst, 0, n);
    return;
  }
  for (i = 0; i < n; i++)
    dst[i] = px[i % n_px];
}

/* Sorted band boundaries 0 = b[0] < b[1] < ... < b[n] = rows. */
static int
split_bands (int rows, uint32_t seed, int *b)
{
  int n = 1 + (int) (xorshift32 (&seed) % MAX_BANDS);
  int i, j;

  if (n > rows)
    n = rows;
  b[0] = 0;
  b[n] = rows;
  /* n - 1 distinct cut points in [1, rows - 1], chosen by insertion. */
  for (i = 1; i < n; i++) {
    int v, dup;

    do {
      v = 1 + (int) (xorshift32 (&seed) % (uint32_t) (rows - 1));
      dup = 0;
      for (j = 1; j < i; j++)
        dup |= b[j] == v;
    } while (dup);
    for (j = i; j > 1 && b[j - 1] > v; j--)
      b[j] = b[j - 1];
    b[j] = v;
  }
  return n;
}

/* ---- the oracle ---- */

static void
fail_case (const fuzz_case * c, const char *fmt, const char *a,
    long long b, long long x, long long y)
{
  fprintf (stderr, "fuzz-core: %s %s %dx%d bpp %d pad %zu/%zu threshold %g "
      "blur %d border %d norm %d output %d: ",
      c->upscale ? "upscale" : "edge", ce_format_name (c->format), c->width,
      c->height, c->bytes_per_pixel, c->src_pad, c->dst_pad,
      c->params.threshold, c->params.blur, (int) c->params.border,
      (int) c->params.norm, (int) c->params.output);
  fprintf (stderr, fmt, a, b, x, y);
  fputc ('\n', stderr);
  abort ();
}

/* Rows [from, to) of @dst (@row bytes of each) still hold POISON, and
 * so does the padding of every row. */
static void
check_untouched (const fuzz_case * c, const uint8_t * dst, size_t stride,
    size_t row, int rows, int from, int to)
{
  int y;
  size_t x;

  for (y = 0; y < rows; y++) {
    const uint8_t *p = dst + (size_t) y * stride;
    /* Inside the band only the padding is checked. */
    size_t x0 = (y >= from && y < to) ? row : 0;
    size_t x1 = y + 1 < rows ? stride : row;

    for (x = x0; x < x1; x++)
      if (p[x] != POISON)
        fail_case (c, "%s wrote byte %lld of row %lld outside its band "
            "(%lld ...)", "fast path", (long long) x, (long long) y, from);
  }
}

static void
compare_rows (const fuzz_case * c, const uint8_t * expected,
    const uint8_t * got, size_t stride, size_t row, int rows)
{
  int y;
  size_t x;

  for (y = 0; y < rows; y++) {
    const uint8_t *e = expected + (size_t) y * row;
    const uint8_t *g = got + (size_t) y * stride;

    if (memcmp (e, g, row) == 0)
      continue;
    for (x = 0; e[x] == g[x]; x++);
    fail_case (c, "%s differs at byte %lld of row %lld (reference %lld)",
        "fast path", (long long) x, (long long) y, e[x]);
  }
}

static void
run_edge (const fuzz_case * c, const uint8_t * px, size_t n_px)
{
  ce_luma_layout layout;
  size_t row, src_stride, src_size, dst_stride, dst_size;
  guarded src, dst;
  ce_frame frame;
  uint8_t *expected;
  ce_status ref_status, status;
  int bands[MAX_BANDS + 1], n, i;

  ce_luma_layout_get (c->format, &layout);
  row = (size_t) c->width * layout.bytes_per_pixel;
  src_stride = row + c->src_pad;
  src_size = src_stride * (c->height - 1) + row;
  src = guarded_alloc (src_size, c->at_start);
  fill_pixels (src.data, src_size, px, n_px);

  frame.data = src.data;
  frame.stride = src_stride;
  frame.width = c->width;
  frame.height = c->height;
  frame.format = c->format;

  expected = malloc ((size_t) c->width * c->height);
  if (expected == NULL)
    die ("malloc");
  ref_status = ce_ref_edge_frame (&frame, &c->params, expected, c->width);

  dst_stride = c->width + c->dst_pad;
  dst_size = dst_stride * (c->height - 1) + c->width;
  dst = guarded_alloc (dst_size, c->at_start);
  memset (dst.data, POISON, dst_size);

  n = split_bands (c->height, c->band_seed, bands);
  for (i = 0; i < n; i++) {
    status = ce_cpu_edge_rows (&frame, &c->params, bands[i], bands[i + 1],
        dst.data, dst_stride);
    if (status != ref_status)
      fail_case (c, "%s returned %lld, the reference %lld (band at %lld)",
          "ce_cpu_edge_rows", status, ref_status, bands[i]);
    if (status != CE_STATUS_OK)
      break;
    check_untouched (c, dst.data, dst_stride, c->width, c->height, 0,
        bands[i + 1]);
  }
  if (ref_status == CE_STATUS_OK)
    compare_rows (c, expected, dst.data, dst_stride, c->width, c->height);

  free (expected);
  guarded_free (&dst);
  guarded_free (&src);
}

static void
run_upscale (const fuzz_case * c, const uint8_t * px, size_t n_px)
{
  int bpp = c->bytes_per_pixel;
  size_t row = (size_t) c->width * bpp, src_stride, src_size;
  size_t out_row = 2 * row, dst_stride, dst_size;
  int out_h = 2 * c->height;
  guarded src, dst;
  uint8_t *expected;
  ce_status ref_status, status;
  int bands[MAX_BANDS + 1], n, i;

  src_stride = row + c->src_pad;
  src_size = src_stride * (c->height - 1) + row;
  src = guarded_alloc (src_size, c->at_start);
  fill_pixels (src.data, src_size, px, n_px);

  expected = malloc (out_row * out_h);
  if (expected == NULL)
    die ("malloc");
  ref_status = ce_ref_upscale2x (src.data, src_stride, c->width, c->height,
      bpp, expected, out_row);

  dst_stride = out_row + c->dst_pad;
  dst_size = dst_stride * (out_h - 1) + out_row;
  dst = guarded_alloc (dst_size, c->at_start);
  memset (dst.data, POISON, dst_size);

  n = split_bands (out_h, c->band_seed, bands);
  for (i = 0; i < n; i++) {
    status = ce_cpu_upscale2x_rows (src.data, src_stride, c->width,
        c->height, bpp, bands[i], bands[i + 1], dst.data, dst_stride);
    if (status != ref_status)
      fail_case (c, "%s returned %lld, the reference %lld (band at %lld)",
          "ce_cpu_upscale2x_rows", status, ref_status, bands[i]);
    if (status != CE_STATUS_OK)
      break;
    check_untouched (c, dst.data, dst_stride, out_row, out_h, 0,
        bands[i + 1]);
  }
  if (ref_status == CE_STATUS_OK)
    compare_rows (c, expected, dst.data, dst_stride, out_row, out_h);

  free (expected);
  guarded_free (&dst);
  guarded_free (&src);
}

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  uint8_t header[HEADER_BYTES] = { 0 };
  fuzz_case c;

  /* Short inputs are padded with zeros: every input is a case. */
  memcpy (header, data, size < HEADER_BYTES ? size : HEADER_BYTES);
  decode_header (header, &c);
  data += size < HEADER_BYTES ? size : HEADER_BYTES;
  size -= size < HEADER_BYTES ? size : HEADER_BYTES;

  if (c.upscale)
    run_upscale (&c, data, size);
  else
    run_edge (&c, data, size);
  return 0;
}

/* ---- replay without libFuzzer ---- */

#ifdef CE_FUZZ_REPLAY

static int
replay_file (const char *path)
{
  FILE *f = fopen (path, "rb");
  uint8_t *buf = NULL;
  size_t size = 0, cap = 0, got;

  if (f == NULL) {
    fprintf (stderr, "fuzz-core: cannot open %s: %s\n", path,
        strerror (errno));
    return 0;
  }
  do {
    if (size == cap) {
      cap = cap ? 2 * cap : 4096;
      buf = realloc (buf, cap);
      if (buf == NULL)
        die ("realloc");
    }
    got = fread (buf + size, 1, cap - size, f);
    size += got;
  } while (got > 0);
  fclose (f);

  LLVMFuzzerTestOneInput (buf, size);
  free (buf);
  return 1;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* Every regular file of @dir, in name order so that runs are repeatable. */
static int
replay_dir (const char *dir, int *n_files)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  int ok = 1;

  if (d == NULL)
    return 0;
  while ((e = readdir (d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc (names, cap * sizeof (*names));
      if (names == NULL)
        die ("realloc");
    }
    names[n] = malloc (strlen (dir) + strlen (e->d_name) + 2);
    if (names[n] == NULL)
      die ("malloc");
    sprintf (names[n], "%s/%s", dir, e->d_name);
    n++;
  }
  closedir (d);
  qsort (names, n, sizeof (*names), compare_names);
  for (i = 0; i < n; i++) {
    struct stat st;

    if (stat (names[i], &st) == 0 && S_ISREG (st.st_mode)) {
      ok &= replay_file (names[i]);
      (*n_files)++;
    }
    free (names[i]);
  }
  free (names);
  return ok;
}

int
main (int argc, char **argv)
{
  int i, n_files = 0, ok = 1;

  if (argc < 2) {
    fprintf (stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; i++) {
    struct stat st;

    if (stat (argv[i], &st) != 0) {
      fprintf (stderr, "fuzz-core: %s: %s\n", argv[i], strerror (errno));
      ok = 0;
    } else if (S_ISDIR (st.st_mode)) {
      ok &= replay_dir (argv[i], &n_files);
    } else {
      ok &= replay_file (argv[i]);
      n_files++;
    }
  }
  printf ("fuzz-core: %d inputs replayed, no mismatch\n", n_files);
  if (n_files == 0) {
    fprintf (stderr, "fuzz-core: no input found\n");
    return 1;
  }
  return ok ? 0 : 1;
}

#endif /* CE_FUZZ_REPLAY */
