/* gst-cudaedge compute core: plain C API, no GStreamer or GLib types.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Everything here works in every build.  The CPU reference functions are
 * the definition of the numbers (docs/numerics.md, "Edge detection" and
 * "Bilinear 2x upscale"); the CUDA
 * context functions return CE_STATUS_NOT_BUILT in a build without CUDA and
 * CE_STATUS_NO_DEVICE on a machine without a usable GPU.
 */
#ifndef CUDAEDGE_CORE_H
#define CUDAEDGE_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CE_STATUS_OK = 0,
  CE_STATUS_INVALID_ARGUMENT,   /* ce_last_error() names the argument */
  CE_STATUS_OUT_OF_MEMORY,
  CE_STATUS_NO_DEVICE,          /* no driver, no GPU, or no such index */
  CE_STATUS_CUDA_ERROR,         /* a CUDA call failed; see ce_last_error() */
  CE_STATUS_NOT_BUILT           /* this build has no CUDA support */
} ce_status;

/* A fixed sentence for the status code. */
const char *ce_status_string (ce_status status);

/* The detailed message of the last failure on the calling thread, for
 * example "width must be at least 1 (got 0)".  Never NULL. */
const char *ce_last_error (void);

/* Makes @message the calling thread's last error: for callers that run
 * the core on worker threads and report a worker's failure on their own
 * thread.  NULL stands for "no error"; @message may be the string
 * ce_last_error () returned. */
void ce_set_last_error (const char *message);

typedef enum
{
  CE_BORDER_REPLICATE = 0,      /* nearest edge pixel */
  CE_BORDER_ZERO,               /* reads outside the frame give 0 */
  CE_BORDER_REFLECT             /* mirror without repeating the edge */
} ce_border_mode;

typedef enum
{
  CE_NORM_L2 = 0,
  CE_NORM_L1
} ce_norm;

typedef enum
{
  CE_OUTPUT_EDGES = 0,          /* 0 / 255 */
  CE_OUTPUT_MAGNITUDE           /* min (255, round-half-up (m)) */
} ce_output;

typedef struct
{
  double threshold;             /* gray levels, 0 ... 2048 */
  int blur;                     /* nonzero: 5x5 Gaussian before the Sobel */
  ce_border_mode border;
  ce_norm norm;
  ce_output output;
} ce_edge_params;

#define CE_THRESHOLD_MAX 2048.0

/* The defaults, named once for the core and the element's properties. */
#define CE_EDGE_DEFAULT_THRESHOLD 128.0
#define CE_EDGE_DEFAULT_BLUR 1
#define CE_EDGE_DEFAULT_BORDER CE_BORDER_REPLICATE
#define CE_EDGE_DEFAULT_NORM CE_NORM_L2
#define CE_EDGE_DEFAULT_OUTPUT CE_OUTPUT_EDGES

/* Fills @params with the CE_EDGE_DEFAULT_* values. */
void ce_edge_params_init (ce_edge_params * params);

ce_status ce_edge_params_validate (const ce_edge_params * params);

/* The integer form of the parameters, derived once on the host.
 * l2: edge where gx*gx + gy*gy > limit, limit = floor ((S t)^2);
 * l1: edge where |gx| + |gy| > limit, limit = floor (S t). */
typedef struct
{
  int64_t limit;
  int scale;                    /* S: 256 with blur, 1 without */
  int blur;
  ce_border_mode border;
  ce_norm norm;
  ce_output output;
} ce_edge_consts;

ce_status ce_edge_consts_init (ce_edge_consts * consts,
    const ce_edge_params * params);

/* Input pixel layouts.  Only plane 0 is ever read: it holds the luma (or
 * the packed pixels) in every one of these formats. */
typedef enum
{
  CE_FORMAT_GRAY8 = 0,
  CE_FORMAT_I420,
  CE_FORMAT_YV12,
  CE_FORMAT_NV12,
  CE_FORMAT_NV21,
  CE_FORMAT_Y42B,
  CE_FORMAT_Y444,
  CE_FORMAT_YUY2,
  CE_FORMAT_UYVY,
  CE_FORMAT_RGB,
  CE_FORMAT_BGR,
  CE_FORMAT_RGBA,
  CE_FORMAT_BGRA,
  CE_FORMAT_ARGB,
  CE_FORMAT_ABGR,
  CE_FORMAT_RGBx,
  CE_FORMAT_BGRx,
  CE_FORMAT_xRGB,
  CE_FORMAT_xBGR,
  CE_FORMAT_COUNT
} ce_format;

/* Where luma comes from in plane 0 of a format: bytes per pixel, and either
 * the offset of Y (is_rgb == 0) or of R, G and B (is_rgb == 1). */
typedef struct
{
  int bytes_per_pixel;
  int is_rgb;
  int y_offset;
  int r_offset, g_offset, b_offset;
} ce_luma_layout;

ce_status ce_luma_layout_get (ce_format format, ce_luma_layout * layout);
const char *ce_format_name (ce_format format);

/* Plane 0 of a host or device frame. */
typedef struct
{
  const uint8_t *data;
  size_t stride;                /* bytes from one row to the next */
  int width, height;
  ce_format format;
} ce_frame;

/* Checks a frame description: non-NULL data, sizes >= 1, stride >= row. */
ce_status ce_frame_validate (const ce_frame * frame);

/* ---- CPU reference (single-threaded, the definition of the numbers) ---- */

/* Strides are in bytes.  Rows of 16- and 32-bit values (B, gradients)
 * start, like their buffers, on multiples of the value's size; no plane
 * may span more than PTRDIFF_MAX bytes. */

/* 8-bit luma of plane 0.  RGB family: (77 R + 150 G + 29 B + 128) >> 8. */
ce_status ce_ref_luma (const ce_frame * src, uint8_t * dst, size_t dst_stride);

/* B = sum w_i w_j Y, w = [1 4 6 4 1], exact (0 ... 65280), border applied
 * to Y.  dst_stride is in bytes. */
ce_status ce_ref_blur (const uint8_t * y, size_t y_stride, int width,
    int height, ce_border_mode border, uint16_t * dst, size_t dst_stride);

/* 3x3 Sobel of B (border applied to B); writes (gx, gy) pairs.
 * dst_stride is in bytes. */
ce_status ce_ref_sobel (const uint16_t * b, size_t b_stride, int width,
    int height, ce_border_mode border, int32_t * dst, size_t dst_stride);

/* The largest gradient component ce_ref_threshold takes, in magnitude:
 * far beyond any Sobel of B (at most 4 x 65280), and small enough that
 * every sum and square in the definition is exact in 64 bits. */
#define CE_REF_GRAD_MAX (1 << 24)

/* Threshold or magnitude of (gx, gy) pairs, as consts says.  A component
 * beyond +-CE_REF_GRAD_MAX is refused with CE_STATUS_INVALID_ARGUMENT,
 * and then nothing is written. */
ce_status ce_ref_threshold (const int32_t * grad, size_t grad_stride,
    int width, int height, const ce_edge_consts * consts, uint8_t * dst,
    size_t dst_stride);

/* The whole chain on 8-bit luma. */
ce_status ce_ref_edge (const uint8_t * y, size_t y_stride, int width,
    int height, const ce_edge_params * params, uint8_t * dst,
    size_t dst_stride);

/* Luma extraction and the whole chain on a frame of any format. */
ce_status ce_ref_edge_frame (const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride);

/* The largest width or height of any image a call takes (2^28, spelled
 * out so that caps strings can carry it): every coordinate the border
 * rule folds, and twice any index of a row, stay in an int.  Larger
 * sizes are refused with CE_STATUS_INVALID_ARGUMENT.  The upscale's
 * output, twice its input, is the one image allowed past it. */
#define CE_MAX_SIZE 268435456

/* The largest input width or height the upscale takes: its output
 * (twice as large) must still fit an int. */
#define CE_UPSCALE_MAX_SIZE (1 << 28)

/* Bilinear 2x upscale: bytes_per_pixel 1 (GRAY8) or 4 (any 4-byte packed
 * RGB-family layout; all four bytes filtered alike).  dst is 2W x 2H. */
ce_status ce_ref_upscale2x (const uint8_t * src, size_t src_stride,
    int width, int height, int bytes_per_pixel, uint8_t * dst,
    size_t dst_stride);

/* Compares two 8-bit images; returns the number of differing bytes and the
 * first difference in row-major order (x in bytes).  0 means identical;
 * an empty or negative size, or a NULL image, compares nothing (0). */
typedef struct
{
  uint64_t count;
  int x, y;
  int expected, got;
} ce_diff;

uint64_t ce_compare_u8 (const uint8_t * expected, size_t expected_stride,
    const uint8_t * got, size_t got_stride, int row_bytes, int height,
    ce_diff * diff);

/* The same for images of bytes_per_pixel-byte pixels: counts the pixels
 * with any differing byte; diff x is the first such pixel's column, and
 * expected / got are the values of its first differing byte. */
uint64_t ce_compare_pixels (const uint8_t * expected, size_t expected_stride,
    const uint8_t * got, size_t got_stride, int width, int height,
    int bytes_per_pixel, ce_diff * diff);

/* ---- Fast CPU path (same bytes as the reference) ---- */

/* Output rows [row0, row1) of the edge chain on a frame of any format,
 * exactly as ce_ref_edge_frame() computes them (the same bytes), but fast:
 * a separable blur over a small ring of rows, and border logic only on the
 * few rows and columns that need it.  dst points at row 0 of the whole
 * W x H output image: row r is written at dst + r * dst_stride, and only
 * rows [row0, row1) (bytes [0, W) of each) are written.  The input rows
 * the filters need beyond the band are read from src, with the border rule
 * applied against the full height.  0 <= row0 < row1 <= height.
 * Thread-safe (its scratch, about 30 bytes per column, is allocated per
 * call); to use several threads, split a frame into row bands. */
ce_status ce_cpu_edge_rows (const ce_frame * src,
    const ce_edge_params * params, int row0, int row1, uint8_t * dst,
    size_t dst_stride);

/* Output rows [row0, row1) of the 2W x 2H bilinear upscale, exactly the
 * bytes of ce_ref_upscale2x(), but fast: each source row is upscaled
 * horizontally once into a small cache, and each output row is one blend
 * of two such rows.  dst points at row 0 of the whole output image: row r
 * is written at dst + r * dst_stride, and only rows [row0, row1) (bytes
 * [0, 2 W bytes_per_pixel) of each) are written.  bytes_per_pixel 1 or 4;
 * 0 <= row0 < row1 <= 2 * height.  Thread-safe (its scratch, 4 bytes per
 * output byte of a row, is allocated per call); to use several threads,
 * split the output rows into bands. */
ce_status ce_cpu_upscale2x_rows (const uint8_t * src, size_t src_stride,
    int width, int height, int bytes_per_pixel, int row0, int row1,
    uint8_t * dst, size_t dst_stride);

/* ---- CUDA context (frames from host memory to host memory) ---- */

typedef struct ce_cuda_ctx ce_cuda_ctx;

/* Times of one frame, from CUDA events, in microseconds: for each stage
 * (upload, kernels, download) the sum of its bands' durations, so with
 * bands overlapping the three can add up to more than the frame took.
 * Measured only for frames submitted with timing on
 * (ce_cuda_ctx_set_timing); all three are 0 for the others, and for a
 * timed frame whose events cannot be read. */
typedef struct
{
  double upload_us;
  double kernel_us;
  double download_us;
} ce_timing;

/* Number of usable CUDA devices; CE_STATUS_NO_DEVICE (count 0) when there
 * is no driver or no GPU. */
ce_status ce_cuda_device_count (int *count);

/* The device a context opened with @device_id works on: -1 gives the
 * first usable device (one that runs this build's kernels); an index
 * must exist and be usable.  ce_last_error () says why not. */
ce_status ce_cuda_device_pick (int device_id, int *picked);

/* Streams a context may have: a frame's bands use at most 32 for their
 * kernels, besides the one for uploads. */
#define CE_CUDA_MAX_STREAMS 64

/* device_id -1 picks the first usable device.  2 <= n_streams <=
 * CE_CUDA_MAX_STREAMS. */
ce_status ce_cuda_ctx_new (int device_id, int n_streams, ce_cuda_ctx ** ctx);

/* The same in the CUDA context current on the calling thread (one the
 * caller made, such as GStreamer's GstCudaContext pushed), instead of the
 * device's primary context; CE_STATUS_NO_DEVICE on a thread with none
 * (where the driver gives the runtime its context calls; without them
 * that cannot be told, and the runtime's current device is taken).
 * Every later call on @ctx works in that context (making it current for
 * the call where another is, and giving the caller's back), so it must
 * outlive @ctx.  A context made by ce_cuda_ctx_new works in the device's
 * primary context, which a cudaDeviceReset destroys: free it before. */
ce_status ce_cuda_ctx_new_current (int n_streams, ce_cuda_ctx ** ctx);
void ce_cuda_ctx_free (ce_cuda_ctx * ctx);
int ce_cuda_ctx_device_id (const ce_cuda_ctx * ctx);
const char *ce_cuda_ctx_device_name (const ce_cuda_ctx * ctx);

/* Page-locked host memory on the context's device, for buffer pools.
 * The context remembers the blocks it allocated until they are freed
 * here, so frames in them (at any offset) are known to be pinned without
 * asking the driver; memory from anywhere else is asked about per frame.
 * Free such blocks with ce_cuda_host_free () only.  Both may be called
 * from any thread, concurrently with frames on the context. */
ce_status ce_cuda_host_alloc (ce_cuda_ctx * ctx, size_t size, void **ptr);
ce_status ce_cuda_host_free (ce_cuda_ctx * ctx, void *ptr);

/* Runs the edge chain on a host frame into a host GRAY8 image.  Host memory
 * that is not page-locked is first copied into the context's pinned
 * staging.  The frame is split into horizontal bands spread over the
 * context's streams so that uploads, kernels and downloads overlap.
 * Returns when dst holds the result.  timing may be NULL. */
ce_status ce_cuda_edge_frame (ce_cuda_ctx * ctx, const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride,
    ce_timing * timing);

/* Bilinear 2x upscale of a host image into a host image, the same way. */
ce_status ce_cuda_upscale2x_frame (ce_cuda_ctx * ctx, const uint8_t * src,
    size_t src_stride, int width, int height, int bytes_per_pixel,
    uint8_t * dst, size_t dst_stride, ce_timing * timing);

/* Number of horizontal bands the frames submitted from now on are split
 * into: 0 (the default) chooses by frame size, 1 turns banding off (a
 * caller that keeps frames in flight has them overlap already). */
void ce_cuda_ctx_set_bands (ce_cuda_ctx * ctx, int bands);

/* Whether frames submitted from now on are timed (ce_timing): nonzero
 * records CUDA events around each band's upload, kernels and download;
 * 0 (the default) records only what the frame needs to be waited for,
 * and ce_cuda_frame_wait () reports zero times.  A frame keeps the
 * setting it was submitted with.  Call it between submissions, from the
 * thread that submits. */
void ce_cuda_ctx_set_timing (ce_cuda_ctx * ctx, int on);

/* ---- Frames in flight ----
 *
 * A context has CE_CUDA_SLOTS slots.  A submitted frame occupies its slot,
 * with device buffers of its own, until ce_cuda_frame_wait() on that slot
 * returns; so while one frame is filtered and downloaded the next one is
 * already uploading, and the link is busy in both directions.  src and dst
 * must stay valid and untouched until the wait returns.  Page-locked src
 * and dst are used directly; other memory goes through the slot's pinned
 * staging (src copied at submission, dst at the wait).  Errors of the GPU
 * work itself are returned by the wait, which always frees the slot.
 * ce_cuda_edge_frame() is a submission to slot 0 followed by its wait. */
#ifndef CE_CUDA_SLOTS
#define CE_CUDA_SLOTS 3
#endif

ce_status ce_cuda_edge_frame_submit (ce_cuda_ctx * ctx, int slot,
    const ce_frame * src, const ce_edge_params * params, uint8_t * dst,
    size_t dst_stride);
ce_status ce_cuda_upscale2x_frame_submit (ce_cuda_ctx * ctx, int slot,
    const uint8_t * src, size_t src_stride, int width, int height,
    int bytes_per_pixel, uint8_t * dst, size_t dst_stride);
ce_status ce_cuda_frame_wait (ce_cuda_ctx * ctx, int slot,
    ce_timing * timing);

#ifdef __cplusplus
}
#endif

#endif /* CUDAEDGE_CORE_H */
