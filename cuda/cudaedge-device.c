/* gst-cudaedge compute core: frames that are already in device memory
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cudaedge-device.h"
#include "cudaedge-kernels.h"
#include "cudaedge-private.h"
#include "cudaedge-testing.h"

/* Returns CE_STATUS_CUDA_ERROR, with a message, when @call fails. */
/* The runtime's last error is cleared, so that the next launch does not
 * report it as its own. */
#define CUDA_CHECK(call) \
  do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      ce_set_error ("%s failed at %s:%d: %s (%s)", #call, __FILE__, \
          __LINE__, cudaGetErrorString (err_), cudaGetErrorName (err_)); \
      (void) cudaGetLastError (); \
      return CE_STATUS_CUDA_ERROR; \
    } \
  } while (0)

/* A pitched device image, kept between frames of the same size. */
typedef struct
{
  uint8_t *ptr;
  size_t pitch;
  size_t row_bytes;
  int rows;
} ce_dev_image;

typedef struct
{
  cudaStream_t stream;
  cudaEvent_t start, kernels_done, done;
  ce_launch_cache *launches;       /* the slot's kernel launches */
  ce_dev_image luma;               /* luma of formats with more than 1 B/px */
  ce_dev_image out;                /* output when the caller gives none */
  int queued;                   /* work queued since the last wait */
  int downloads;                /* a download is queued */
  int timing;                   /* time the next frame (the default) */
  int timed;                    /* the frame queued now is timed */
  int timed_end;                /* ... and its kernels_done is recorded */
  /* The end of the frame, signalled in memory (ce_launch_signal); count
   * NULL: never. */
  unsigned *count;              /* device word */
  unsigned *d_flag;             /* h_flag's device address */
  unsigned *h_flag;             /* mapped pinned host word */
  unsigned seq;                 /* value of the last signalling launch */
  int signalled;                /* the frame queued now signals its end */
  unsigned long signalled_waits;        /* waits the signal answered */
} ce_dev_slot;

struct ce_cuda_dev
{
  ce_dev_slot slots[CE_CUDA_SLOTS];
  unsigned *h_flags, *d_counts;
  /* The largest frames, in pixels in, that signal their end. */
  int64_t signal_pixels, upscale_signal_pixels;
};

/* The slots' end signals: without them (no memory for them) every wait
 * synchronises its stream. */
static void
dev_signals_init (ce_cuda_dev * dev)
{
  const size_t bytes = CE_CUDA_SLOTS * sizeof (unsigned);
  unsigned *d_flags = NULL;
  cudaError_t err;
  int i;

  err = cudaHostAlloc ((void **) &dev->h_flags, bytes, cudaHostAllocMapped);
  if (err == cudaSuccess)
    err = cudaHostGetDevicePointer ((void **) &d_flags, dev->h_flags, 0);
  if (err == cudaSuccess)
    err = cudaMalloc ((void **) &dev->d_counts, bytes);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (dev->d_counts, 0, bytes, dev->slots[0].stream);
  if (err == cudaSuccess)
    err = cudaStreamSynchronize (dev->slots[0].stream);
  if (err != cudaSuccess) {
    (void) cudaGetLastError ();
    return;
  }
  memset (dev->h_flags, 0, bytes);
  for (i = 0; i < CE_CUDA_SLOTS; i++) {
    dev->slots[i].count = dev->d_counts + i;
    dev->slots[i].d_flag = d_flags + i;
    dev->slots[i].h_flag = dev->h_flags + i;
  }
  dev->signal_pixels = CE_CUDA_DEV_SIGNAL_PIXELS;
  dev->upscale_signal_pixels = CE_CUDA_DEV_UPSCALE_SIGNAL_PIXELS;
}

static ce_status
dev_image_ensure (ce_dev_image * img, size_t row_bytes, int rows)
{
  if (img->ptr && img->row_bytes >= row_bytes && img->rows >= rows)
    return CE_STATUS_OK;
  if (img->ptr)
    cudaFree (img->ptr);
  memset (img, 0, sizeof (*img));
  CUDA_CHECK (cudaMallocPitch ((void **) &img->ptr, &img->pitch, row_bytes,
          (size_t) rows));
  img->row_bytes = row_bytes;
  img->rows = rows;
  return CE_STATUS_OK;
}

ce_status
ce_cuda_dev_new (ce_cuda_dev ** out)
{
  ce_cuda_dev *dev;
  ce_status status;
  int i;

  if ((status = ce_check_pointer (out, "dev")) != CE_STATUS_OK)
    return status;
  *out = NULL;
  dev = calloc (1, sizeof (*dev));
  if (!dev) {
    ce_set_error ("out of memory");
    return CE_STATUS_OUT_OF_MEMORY;
  }
  for (i = 0; i < CE_CUDA_SLOTS; i++) {
    ce_dev_slot *sl = &dev->slots[i];
    cudaError_t err;

    sl->timing = 1;
    err = cudaStreamCreateWithFlags (&sl->stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
      err = cudaEventCreate (&sl->start);
    if (err == cudaSuccess)
      err = cudaEventCreate (&sl->kernels_done);
    if (err == cudaSuccess)
      err = cudaEventCreate (&sl->done);
    if (err == cudaSuccess
        && (status = ce_launch_cache_new (&sl->launches)) != CE_STATUS_OK) {
      ce_cuda_dev_free (dev);
      return status;
    }
    if (err != cudaSuccess) {
      ce_set_error ("creating the streams and events of slot %d: %s", i,
          cudaGetErrorString (err));
      ce_cuda_dev_free (dev);
      return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver
          ? CE_STATUS_NO_DEVICE : CE_STATUS_CUDA_ERROR;
    }
  }
  dev_signals_init (dev);
  *out = dev;
  return CE_STATUS_OK;
}

void
ce_cuda_dev_free (ce_cuda_dev * dev)
{
  int i;

  if (!dev)
    return;
  for (i = 0; i < CE_CUDA_SLOTS; i++) {
    ce_dev_slot *sl = &dev->slots[i];

    if (sl->stream)
      cudaStreamSynchronize (sl->stream);
    ce_launch_cache_free (sl->launches);
    if (sl->luma.ptr)
      cudaFree (sl->luma.ptr);
    if (sl->out.ptr)
      cudaFree (sl->out.ptr);
    if (sl->start)
      cudaEventDestroy (sl->start);
    if (sl->kernels_done)
      cudaEventDestroy (sl->kernels_done);
    if (sl->done)
      cudaEventDestroy (sl->done);
    if (sl->stream)
      cudaStreamDestroy (sl->stream);
  }
  if (dev->h_flags)
    cudaFreeHost (dev->h_flags);
  if (dev->d_counts)
    cudaFree (dev->d_counts);
  free (dev);
}

static ce_status
dev_get_slot (ce_cuda_dev * dev, int slot, ce_dev_slot ** out)
{
  if (!dev) {
    ce_set_error ("dev is NULL");
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (slot < 0 || slot >= CE_CUDA_SLOTS) {
    ce_set_error ("slot %d is not in 0 ... %d", slot, CE_CUDA_SLOTS - 1);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  *out = &dev->slots[slot];
  return CE_STATUS_OK;
}

void
ce_cuda_dev_set_end_signals (ce_cuda_dev * dev, int64_t edge_pixels,
    int64_t upscale_pixels)
{
  if (dev) {
    dev->signal_pixels = edge_pixels;
    dev->upscale_signal_pixels = upscale_pixels;
  }
}

void
ce_cuda_dev_set_timing (ce_cuda_dev * dev, int slot, int timing)
{
  if (dev && slot >= 0 && slot < CE_CUDA_SLOTS)
    dev->slots[slot].timing = timing != 0;
}

/* The first submission since the last wait starts a frame, and marks the
 * start when the frame is timed. */
static ce_status
dev_begin (ce_dev_slot * sl)
{
  sl->signalled = 0;            /* until a launch signals this frame's end */
  if (!sl->queued) {
    sl->timed = sl->timing;
    sl->timed_end = 0;
    if (sl->timed)
      CUDA_CHECK (cudaEventRecord (sl->start, sl->stream));
    sl->queued = 1;
    sl->downloads = 0;
  }
  return CE_STATUS_OK;
}

/* The signal of a launch that ends a frame of @pixels pixels in, if the
 * frame is to signal its end (at most @max_pixels): not a timed frame,
 * which is waited for with its events. */
static void
dev_signal_prepare (ce_dev_slot * sl, int64_t pixels, int64_t max_pixels,
    ce_launch_signal * signal)
{
  if (!sl->count || sl->timed || pixels > max_pixels)
    return;
  if (++sl->seq == 0)
    sl->seq = 1;                /* the flag starts at 0 */
  signal->count = sl->count;
  signal->flag = sl->d_flag;
  signal->value = sl->seq;
}

/* After the launch that ends the frame's kernels (with @signal, armed or
 * not): whether it signals the frame's end, and in a timed frame the end
 * of its kernels, where a download's time starts. */
static ce_status
dev_kernels_queued (ce_dev_slot * sl, const ce_launch_signal * signal)
{
  sl->signalled = signal->armed;
  sl->downloads = 0;
  if (sl->timed) {
    CUDA_CHECK (cudaEventRecord (sl->kernels_done, sl->stream));
    sl->timed_end = 1;
  }
  return CE_STATUS_OK;
}

static ce_status
dev_edge_submit (ce_cuda_dev * dev, int slot, const ce_frame * src,
    const ce_edge_params * params, uint8_t * d_dst, size_t d_pitch,
    uint8_t * h_dst, size_t h_stride, uint8_t * d_fill, size_t fill_bytes,
    int fill_value)
{
  ce_launch_signal signal = { NULL, NULL, 0, 0 };
  ce_luma_layout layout;
  ce_edge_consts consts;
  const uint8_t *d_luma;
  size_t luma_pitch;
  ce_dev_slot *sl;
  ce_status status;
  int w, h;

  if ((status = dev_get_slot (dev, slot, &sl)) != CE_STATUS_OK ||
      (status = ce_frame_validate (src)) != CE_STATUS_OK ||
      (status = ce_edge_consts_init (&consts, params)) != CE_STATUS_OK)
    return status;
  w = src->width;
  h = src->height;
  if (!d_dst && !h_dst) {
    ce_set_error ("no output: d_dst and h_dst are both NULL");
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((d_dst && (status = ce_check_plane (d_pitch, w, h, "d_pitch")))
      || (h_dst && (status = ce_check_plane (h_stride, w, h, "h_stride"))))
    return status;
  ce_luma_layout_get (src->format, &layout);

  if ((status = dev_begin (sl)) != CE_STATUS_OK)
    return status;

  d_luma = src->data;
  luma_pitch = src->stride;
  if (layout.bytes_per_pixel != 1) {
    if ((status = dev_image_ensure (&sl->luma, w, h)) != CE_STATUS_OK ||
        (status = ce_launch_luma (src->data, src->stride, src->format, w, h,
                0, h, sl->luma.ptr, sl->luma.pitch, sl->stream))
        != CE_STATUS_OK)
      return status;
    d_luma = sl->luma.ptr;
    luma_pitch = sl->luma.pitch;
  }
  if (!d_dst) {
    if ((status = dev_image_ensure (&sl->out, w, h)) != CE_STATUS_OK)
      return status;
    d_dst = sl->out.ptr;
    d_pitch = sl->out.pitch;
  }
  /* A frame downloaded here ends with its download, after the kernel. */
  if (!h_dst)
    dev_signal_prepare (sl, (int64_t) w * h, dev->signal_pixels, &signal);
  status = ce_launch_edge_fused_fill (d_luma, luma_pitch, w, h, 0, h,
      &consts, d_dst, d_pitch, d_fill, fill_bytes, fill_value, sl->launches,
      signal.count ? &signal : NULL, sl->stream);
  if (status != CE_STATUS_OK)
    return status;
  if ((status = dev_kernels_queued (sl, &signal)) != CE_STATUS_OK)
    return status;
  if (h_dst) {
    CUDA_CHECK (cudaMemcpy2DAsync (h_dst, h_stride, d_dst, d_pitch, w, h,
            cudaMemcpyDeviceToHost, sl->stream));
    sl->downloads = 1;
    if (sl->timed)
      CUDA_CHECK (cudaEventRecord (sl->done, sl->stream));
  }
  return CE_STATUS_OK;
}

ce_status
ce_cuda_dev_edge_submit (ce_cuda_dev * dev, int slot, const ce_frame * src,
    const ce_edge_params * params, uint8_t * d_dst, size_t d_pitch,
    uint8_t * h_dst, size_t h_stride)
{
  return dev_edge_submit (dev, slot, src, params, d_dst, d_pitch, h_dst,
      h_stride, NULL, 0, 0);
}

ce_status
ce_cuda_dev_edge_fill_submit (ce_cuda_dev * dev, int slot,
    const ce_frame * src, const ce_edge_params * params, uint8_t * d_dst,
    size_t d_pitch, uint8_t * d_fill, size_t fill_bytes, int fill_value)
{
  ce_status status;

  if (fill_bytes > 0
      && (status = ce_check_pointer (d_fill, "d_fill")) != CE_STATUS_OK)
    return status;
  if ((status = ce_check_pointer (d_dst, "d_dst")) != CE_STATUS_OK)
    return status;
  return dev_edge_submit (dev, slot, src, params, d_dst, d_pitch, NULL, 0,
      d_fill, fill_bytes, fill_value);
}

ce_status
ce_cuda_dev_upscale2x_submit (ce_cuda_dev * dev, int slot,
    const uint8_t * d_src, size_t src_pitch, int width, int height,
    int bytes_per_pixel, uint8_t * d_dst, size_t dst_pitch)
{
  ce_launch_signal signal = { NULL, NULL, 0, 0 };
  ce_dev_slot *sl;
  ce_status status;

  /* Checked before the frame begins, so that a refused frame leaves the
   * slot as it was.  (A frame whose launch fails after it began has no
   * end event, and its wait gives no time: timed_end.) */
  if ((status = dev_get_slot (dev, slot, &sl)) != CE_STATUS_OK ||
      (status = ce_upscale2x_check_frame (d_src, src_pitch, width, height,
              bytes_per_pixel, d_dst, dst_pitch)) != CE_STATUS_OK ||
      (status = dev_begin (sl)) != CE_STATUS_OK)
    return status;
  dev_signal_prepare (sl, (int64_t) width * height,
      dev->upscale_signal_pixels, &signal);
  status = ce_launch_upscale2x_via (d_src, src_pitch, width, height,
      bytes_per_pixel, 0, 2 * height, d_dst, dst_pitch, sl->launches,
      signal.count ? &signal : NULL, sl->stream);
  if (status != CE_STATUS_OK)
    return status;
  return dev_kernels_queued (sl, &signal);
}

int
ce_cuda_dev_end_seen (const ce_cuda_dev * dev, int slot)
{
  const ce_dev_slot *sl;

  if (!dev || slot < 0 || slot >= CE_CUDA_SLOTS)
    return 0;
  sl = &dev->slots[slot];
  return sl->queued && sl->signalled && !sl->timed
      && __atomic_load_n (sl->h_flag, __ATOMIC_ACQUIRE) == sl->seq;
}

unsigned long
ce_cuda_dev_signalled_waits (const ce_cuda_dev * dev)
{
  unsigned long n = 0;
  int i;

  for (i = 0; dev && i < CE_CUDA_SLOTS; i++)
    n += dev->slots[i].signalled_waits;
  return n;
}

unsigned long
ce_cuda_dev_graph_launches (const ce_cuda_dev * dev)
{
  unsigned long n = 0;
  int i;

  for (i = 0; dev && i < CE_CUDA_SLOTS; i++)
    n += ce_launch_cache_graph_launches (dev->slots[i].launches);
  return n;
}

ce_status
ce_cuda_dev_wait (ce_cuda_dev * dev, int slot, ce_timing * timing)
{
  float k_ms = 0.0f, d_ms = 0.0f;
  ce_dev_slot *sl;
  ce_status status;

  if (timing)
    memset (timing, 0, sizeof (*timing));
  if ((status = dev_get_slot (dev, slot, &sl)) != CE_STATUS_OK)
    return status;
  if (!sl->queued)
    return CE_STATUS_OK;
  sl->queued = 0;
  /* A frame whose last launch has signalled its end is done, with the
   * work queued before it on the stream: no CUDA call.  A frame that is
   * timed waits for its events. */
  if (sl->signalled && !sl->timed
      && __atomic_load_n (sl->h_flag, __ATOMIC_ACQUIRE) == sl->seq) {
    sl->signalled_waits++;
    return CE_STATUS_OK;
  }
  /* The slot's stream holds this frame's work only.  The times come from
   * events recorded as the work was queued, so waiting later (a frame in
   * flight) does not count as the frame's time. */
  CUDA_CHECK (cudaStreamSynchronize (sl->stream));
  /* A frame whose submission failed has no end event: no time.  A time
   * that cannot be had is left 0, its error cleared. */
  if (timing && sl->timed && sl->timed_end) {
    if (cudaEventElapsedTime (&k_ms, sl->start, sl->kernels_done)
        == cudaSuccess)
      timing->kernel_us = 1000.0 * k_ms;
    else
      (void) cudaGetLastError ();
    if (sl->downloads) {
      if (cudaEventElapsedTime (&d_ms, sl->kernels_done, sl->done)
          == cudaSuccess)
        timing->download_us = 1000.0 * d_ms;
      else
        (void) cudaGetLastError ();
    }
  }
  return CE_STATUS_OK;
}
