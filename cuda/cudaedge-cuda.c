/* gst-cudaedge compute core: the CUDA context, host side.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame goes host -> device -> host in horizontal bands spread over the
 * context's streams: while band b is uploaded, band b-1 is filtered and
 * band b-2 downloaded, so the copy engines and the SMs work at once and
 * the frame costs little more than its transfers.  A band's kernel needs
 * a few rows of the next band (the filter apron), so it waits on that
 * band's upload event, never on a whole-device synchronisation.
 *
 * Frames themselves overlap too: each of the CE_CUDA_SLOTS slots owns the
 * device buffers, staging and events of one frame in flight, so a caller
 * can submit frame n + 1 before waiting for frame n.
 *
 * The host's own work per frame bounds small frames, so the frame path
 * makes few CUDA calls: timing events only when asked for
 * (ce_cuda_ctx_set_timing), one completion event per stream a frame ends
 * on (the wait synchronises on those alone), and pinned memory the
 * context allocated itself is told from its own table, not by asking the
 * driver.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

#include "cudaedge-core.h"
#include "cudaedge-device.h"
#include "cudaedge-kernels.h"
#include "cudaedge-private.h"
#include "cudaedge-testing.h"

#define MAX_BANDS 32
#define MIN_BAND_ROWS 16
/* With bands chosen by size, one band per this many bytes moved. */
#define AUTO_BAND_BYTES (4u << 20)
#define AUTO_MAX_BANDS 8

/* Records where a CUDA call failed and jumps to the function's error
 * label.  The runtime's last error is cleared, so that the next launch
 * does not report it as its own. */
#define CUDA_TRY(call) \
  do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) { \
      ce_set_error ("%s failed at %s:%d: %s (%s)", #call, __FILE__, \
          __LINE__, cudaGetErrorString (err_), cudaGetErrorName (err_)); \
      (void) cudaGetLastError (); \
      status = CE_STATUS_CUDA_ERROR; \
      goto fail; \
    } \
  } while (0)

#define CE_TRY(expr) \
  do { \
    status = (expr); \
    if (status != CE_STATUS_OK) \
      goto fail; \
  } while (0)

typedef struct
{
  void *ptr;
  size_t pitch;                 /* device images only */
  size_t row_bytes;
  int rows;
} ce_buffer;

typedef struct
{
  /* Timed frames only. */
  cudaEvent_t up_start, up_end, k_start, k_end, down_end;
  cudaEvent_t ready;            /* this band's input rows are on the device */
  cudaEvent_t done;             /* untimed frames: the band's stream is done */
} ce_band_events;

/* One frame in flight. */
typedef struct
{
  ce_band_events events[MAX_BANDS];
  int n_events;                 /* created */
  int n_bands;                  /* used by the frame in flight */
  int busy;
  int fail;                     /* injected failure */
  int timed;                    /* the frame in flight records timing events */

  /* The last event of each stream the frame ends on: once they are
   * complete, so is every band (events on a stream complete in order). */
  cudaEvent_t tails[MAX_BANDS];
  int n_tails;

  ce_buffer d_src, d_luma, d_dst;
  ce_buffer h_src_stage, h_dst_stage;

  /* Where the wait copies the result when dst went through staging. */
  uint8_t *user_dst;
  size_t user_dst_stride;
  size_t dst_row_bytes;
  int dst_rows;

  /* The emulated device's frame, made at the wait (ce_cuda_set_fake_device). */
  enum
  { FAKE_NONE, FAKE_EDGE, FAKE_UPSCALE } fake_kind;
  ce_frame fake_src;
  ce_edge_params fake_params;
  int fake_bpp;
  uint8_t *fake_dst;
  size_t fake_dst_stride;
} ce_slot_state;

struct ce_cuda_ctx
{
  int fake;                     /* on the emulated device */
  int device;
  CUcontext cu;                 /* the CUDA context it works in */
  char name[256];
  int n_streams;
  cudaStream_t *streams;
  int bands;                    /* 0: by frame size */
  int timing;                   /* ce_cuda_ctx_set_timing () */
  int fail_countdown;
  ce_slot_state slots[CE_CUDA_SLOTS];

  /* Blocks from ce_cuda_host_alloc (), which pools call from threads of
   * their own: the mutex guards the table. */
  pthread_mutex_t pinned_lock;
  int pinned_lock_ok;           /* initialised */
  ce_pinned_table pinned;
};

/* ---- The emulated device (tests) ----
 *
 * ce_cuda_set_fake_device (cudaedge-testing.h) puts the frame path on a
 * device emulated on the CPU, so that what callers do with frames in
 * flight runs on machines without a GPU: one device, contexts with their
 * slots and pinned-block table, host memory from malloc, and frames whose
 * output is made at the wait by the fast CPU paths (and poisoned from the
 * submission until then, as a GPU's download lands only at the end).
 * Argument checks and injected failures are the real path's own. */
static int fake_device;

int
ce_cuda_set_fake_device (int on)
{
  int old = fake_device;

  fake_device = on != 0;
  return old;
}

int
ce_cuda_fake_device (void)
{
  return fake_device;
}

static ce_status
fake_ctx_new (int n_streams, ce_cuda_ctx ** out)
{
  ce_cuda_ctx *ctx = calloc (1, sizeof (*ctx));

  if (ctx == NULL) {
    ce_set_error ("cannot allocate the CUDA context");
    return CE_STATUS_OUT_OF_MEMORY;
  }
  if (pthread_mutex_init (&ctx->pinned_lock, NULL) != 0) {
    free (ctx);
    ce_set_error ("cannot create the CUDA context's mutex");
    return CE_STATUS_OUT_OF_MEMORY;
  }
  ctx->pinned_lock_ok = 1;
  ctx->fake = 1;
  ctx->n_streams = n_streams;
  snprintf (ctx->name, sizeof (ctx->name), "emulated CUDA device (tests)");
  *out = ctx;
  return CE_STATUS_OK;
}

static void slot_submitted (ce_cuda_ctx * ctx, ce_slot_state * sl);

#define FAKE_POISON 0xa5

static void
fake_submitted (ce_cuda_ctx * ctx, ce_slot_state * sl, uint8_t * dst,
    size_t dst_stride, size_t row_bytes, int rows)
{
  for (int i = 0; i < rows; i++)
    memset (dst + (size_t) i * dst_stride, FAKE_POISON, row_bytes);
  sl->fake_dst = dst;
  sl->fake_dst_stride = dst_stride;
  sl->timed = ctx->timing;
  slot_submitted (ctx, sl);
}

static ce_status
fake_frame_wait (ce_slot_state * sl, ce_timing * timing)
{
  const ce_frame *f = &sl->fake_src;
  ce_status status;

  if (timing)
    memset (timing, 0, sizeof (*timing));
  if (sl->fail) {
    sl->fail = 0;
    ce_set_error ("injected failure (test hook)");
    return CE_STATUS_CUDA_ERROR;
  }
  if (sl->fake_kind == FAKE_EDGE)
    status = ce_cpu_edge_rows (f, &sl->fake_params, 0, f->height,
        sl->fake_dst, sl->fake_dst_stride);
  else
    status = ce_cpu_upscale2x_rows (f->data, f->stride, f->width, f->height,
        sl->fake_bpp, 0, 2 * f->height, sl->fake_dst, sl->fake_dst_stride);
  sl->fake_kind = FAKE_NONE;
  return status;
}

/* Test bookkeeping (cudaedge-private.h), per thread. */
static _Thread_local unsigned long pointer_queries;
static _Thread_local unsigned long events_recorded;

unsigned long
ce_cuda_pointer_queries (void)
{
  return pointer_queries;
}

unsigned long
ce_cuda_events_recorded (void)
{
  return events_recorded;
}

/* cudaEventRecord of the frame path, counted for the tests. */
#define RECORD_TRY(event, stream) \
  do { \
    events_recorded++; \
    CUDA_TRY (cudaEventRecord ((event), (stream))); \
  } while (0)

/* ---- the table of the context's own pinned blocks ---- */

int
ce_pinned_table_add (ce_pinned_table * t, const void *base, size_t size)
{
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 16;
    ce_pinned_block *blocks = realloc (t->blocks, cap * sizeof (*blocks));

    if (blocks == NULL)
      return -1;
    t->blocks = blocks;
    t->cap = cap;
  }
  t->blocks[t->n].base = (uintptr_t) base;
  t->blocks[t->n].size = size;
  t->n++;
  return 0;
}

int
ce_pinned_table_remove (ce_pinned_table * t, const void *base)
{
  uintptr_t b = (uintptr_t) base;
  size_t i;

  for (i = 0; i < t->n; i++) {
    if (t->blocks[i].base == b) {
      t->blocks[i] = t->blocks[--t->n];
      return 1;
    }
  }
  return 0;
}

int
ce_pinned_table_find (const ce_pinned_table * t, const void *ptr,
    size_t extent)
{
  uintptr_t p = (uintptr_t) ptr;
  size_t i;

  if (extent == 0)
    extent = 1;
  for (i = 0; i < t->n; i++) {
    const ce_pinned_block *bl = &t->blocks[i];

    /* p - base <= size - extent, without wrapping around. */
    if (p >= bl->base && extent <= bl->size
        && p - bl->base <= bl->size - extent)
      return 1;
  }
  return 0;
}

void
ce_pinned_table_clear (ce_pinned_table * t)
{
  free (t->blocks);
  memset (t, 0, sizeof (*t));
}

ce_status
ce_cuda_device_count (int *count)
{
  cudaError_t err;
  int n = 0;

  if (count == NULL)
    return ce_check_pointer (count, "count");
  *count = 0;
  if (fake_device) {
    *count = 1;
    return CE_STATUS_OK;
  }
  err = cudaGetDeviceCount (&n);
  if (err == cudaErrorInsufficientDriver) {
    ce_set_error ("no NVIDIA driver is installed, or it is older than this "
        "build's CUDA %d.%d runtime needs", CUDART_VERSION / 1000,
        CUDART_VERSION % 1000 / 10);
    (void) cudaGetLastError ();
    return CE_STATUS_NO_DEVICE;
  }
  if (err != cudaSuccess) {
    ce_set_error ("%s", cudaGetErrorString (err));
    (void) cudaGetLastError ();
    return CE_STATUS_NO_DEVICE;
  }
  if (n == 0) {
    ce_set_error ("no CUDA device found");
    return CE_STATUS_NO_DEVICE;
  }
  *count = n;
  return CE_STATUS_OK;
}

/* ---- the calling thread's current context ----
 *
 * Every entry point that works on a context's device takes a device scope
 * around its CUDA calls: it saves the calling thread's current CUDA
 * context, makes the one it works in current where that is another, and
 * gives the thread its context back before returning, on every path.  A
 * ce_cuda_ctx works in the CUDA context it was made in: the device's
 * primary context (ce_cuda_ctx_new), or the caller's
 * (ce_cuda_ctx_new_current); entry points without one (device checks,
 * ce_cuda_ctx_new) work in the device's primary context.  So an
 * application that embeds the elements and has a context of its own
 * current (one it made, or GStreamer's), on this device or another, keeps
 * it, and a ce_cuda_ctx never works in it by mistake; a thread that had
 * none has none again.  Contexts are compared and switched with the
 * driver's cuCtxGetCurrent and cuCtxSetCurrent (found through the
 * runtime, so that the build needs no libcuda); where the driver does not
 * give them, devices are compared and switched instead (cudaGetDevice,
 * cudaSetDevice). */

typedef struct
{
  int device;                   /* the entry point's */
  int prev;                     /* by devices: the thread's, -1 for none */
  CUcontext saved;              /* by contexts: the thread's */
  int switched;                 /* by contexts: saved goes back */
  int taken;                    /* the scope is open */
} ce_device_scope;

/* Test bookkeeping (cudaedge-testing.h), per thread. */
static _Thread_local int scopes_open;
static _Thread_local unsigned long scopes_taken;

/* The driver's context calls; NULL where the driver does not give them. */
static PFN_cuCtxGetCurrent_v4000 ctx_get_current;
static PFN_cuCtxSetCurrent_v4000 ctx_set_current;
static pthread_once_t ctx_calls_once = PTHREAD_ONCE_INIT;

static void *
driver_call_find (const char *name)
{
  enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
  void *fn = NULL;

  if (cudaGetDriverEntryPointByVersion (name, &fn, 4000, cudaEnableDefault,
          &found) == cudaSuccess && found == cudaDriverEntryPointSuccess)
    return fn;
  (void) cudaGetLastError ();
  return NULL;
}

static void
ctx_calls_find (void)
{
  ctx_get_current = (PFN_cuCtxGetCurrent_v4000)
      driver_call_find ("cuCtxGetCurrent");
  ctx_set_current = (PFN_cuCtxSetCurrent_v4000)
      driver_call_find ("cuCtxSetCurrent");
  if (ctx_get_current == NULL || ctx_set_current == NULL)
    ctx_get_current = NULL, ctx_set_current = NULL;
}

/* Whether contexts can be told apart and switched. */
static int
have_ctx_calls (void)
{
  pthread_once (&ctx_calls_once, ctx_calls_find);
  return ctx_get_current != NULL;
}

/* The calling thread's current context, NULL for none (or where that
 * cannot be told). */
static CUcontext
current_context (void)
{
  CUcontext current = NULL;

  if (!have_ctx_calls () || ctx_get_current (&current) != CUDA_SUCCESS)
    return NULL;
  return current;
}

/* Whether the calling thread has a context current (1 where that cannot
 * be told). */
static int
thread_has_context (void)
{
  CUcontext current = NULL;

  if (!have_ctx_calls ())
    return 1;
  return ctx_get_current (&current) != CUDA_SUCCESS || current != NULL;
}

/* Gives the thread back what it had current before the scope. */
static void
device_scope_restore (ce_device_scope * scope)
{
  if (have_ctx_calls ()) {
    if (scope->switched)
      (void) ctx_set_current (scope->saved);
  } else if (scope->prev >= 0 && scope->prev != scope->device
      && cudaSetDevice (scope->prev) != cudaSuccess) {
    (void) cudaGetLastError ();
  }
}

/* Opens a scope in @target, or in @device's primary context where @target
 * is NULL. */
static ce_status
device_scope_take (ce_device_scope * scope, int device, CUcontext target)
{
  cudaError_t err = cudaSuccess;

  scope->device = device;
  scope->prev = -1;
  scope->saved = NULL;
  scope->switched = 0;
  scope->taken = 0;
  if (have_ctx_calls ()) {
    CUcontext now = NULL;
    CUresult res;

    /* Unread, the thread's own could not be told from none, and going
     * back to "none" would take it off the thread. */
    res = ctx_get_current (&scope->saved);
    if (res != CUDA_SUCCESS) {
      ce_set_error ("cannot read the calling thread's CUDA context "
          "(driver error %d)", (int) res);
      return CE_STATUS_CUDA_ERROR;
    }
    if (target != NULL && target != scope->saved) {
      res = ctx_set_current (target);
      if (res != CUDA_SUCCESS) {
        ce_set_error ("cannot make the context's CUDA context current "
            "(driver error %d)", (int) res);
        return CE_STATUS_CUDA_ERROR;
      }
      scope->switched = 1;
    } else if (target == NULL) {
      /* cudaSetDevice makes the device's primary context current.  The
       * thread's own goes back unless it is known to be that one. */
      err = cudaSetDevice (device);
      scope->switched = err != cudaSuccess
          || ctx_get_current (&now) != CUDA_SUCCESS || now != scope->saved;
    }
  } else {
    if (cudaGetDevice (&scope->prev) != cudaSuccess) {
      (void) cudaGetLastError ();
      scope->prev = -1;
    }
    if (scope->prev != device)
      err = cudaSetDevice (device);
  }
  if (err != cudaSuccess) {
    ce_set_error ("cudaSetDevice (%d) failed: %s", device,
        cudaGetErrorString (err));
    (void) cudaGetLastError ();
    device_scope_restore (scope);
    return CE_STATUS_CUDA_ERROR;
  }
  scope->taken = 1;
  scopes_open++;
  scopes_taken++;
  return CE_STATUS_OK;
}

/* A scope in the context @ctx works in. */
static ce_status
ctx_scope_take (ce_device_scope * scope, const ce_cuda_ctx * ctx)
{
  return device_scope_take (scope, ctx->device, ctx->cu);
}

/* Does nothing for a scope that was not taken. */
static void
device_scope_give_back (ce_device_scope * scope)
{
  if (!scope->taken)
    return;
  device_scope_restore (scope);
  scope->taken = 0;
  scopes_open--;
}

int
ce_cuda_device_switches_pending (void)
{
  return scopes_open;
}

unsigned long
ce_cuda_device_scopes_taken (void)
{
  return scopes_taken;
}

/* A device is usable when a runtime context can be created on it and it
 * runs this build's kernels; when not, ce_last_error () says why. */
static int
device_usable (int device)
{
  ce_device_scope scope;
  cudaError_t err;
  int ok;

  if (device_scope_take (&scope, device, NULL) != CE_STATUS_OK)
    return 0;
  err = cudaFree (NULL);
  ok = err == cudaSuccess;
  if (!ok) {
    ce_set_error ("%s", cudaGetErrorString (err));
    (void) cudaGetLastError ();
  } else {
    ok = ce_kernels_probe () == CE_STATUS_OK;
  }
  device_scope_give_back (&scope);
  return ok;
}

ce_status
ce_cuda_dev_primary_context (int device_id, struct CUctx_st **primary)
{
  ce_device_scope scope;
  ce_status status;
  cudaError_t err;

  if ((status = ce_check_pointer (primary, "primary")) != CE_STATUS_OK)
    return status;
  *primary = NULL;
  if (!have_ctx_calls ()) {
    ce_set_error ("the CUDA driver does not give its context calls");
    return CE_STATUS_NO_DEVICE;
  }
  /* The scope puts back whatever the thread had current, and leaves the
   * rest of its context stack as it was. */
  if ((status = device_scope_take (&scope, device_id, NULL)) != CE_STATUS_OK)
    return status;
  err = cudaFree (NULL);        /* initialises the primary context */
  if (err != cudaSuccess) {
    ce_set_error ("cannot initialise device %d's primary context: %s",
        device_id, cudaGetErrorString (err));
    (void) cudaGetLastError ();
    status = CE_STATUS_NO_DEVICE;
  } else if ((*primary = current_context ()) == NULL) {
    ce_set_error ("device %d's primary context is not current", device_id);
    status = CE_STATUS_NO_DEVICE;
  }
  device_scope_give_back (&scope);
  return status;
}

static ce_status ctx_create_on_device (int device_id, int n_streams,
    ce_cuda_ctx ** out);

ce_status
ce_cuda_device_pick (int device_id, int *picked)
{
  ce_status status;
  int count, i;

  if ((status = ce_check_pointer (picked, "picked")) != CE_STATUS_OK)
    return status;
  if (device_id < -1) {
    ce_set_error ("device id must be -1 or an index (got %d)", device_id);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = ce_cuda_device_count (&count)) != CE_STATUS_OK)
    return status;

  if (fake_device && device_id < count) {
    *picked = 0;
    return CE_STATUS_OK;
  }
  if (device_id == -1) {
    for (i = 0; i < count && !device_usable (i); i++);
    if (i == count) {
      char why[256];

      snprintf (why, sizeof why, "%s", ce_last_error ());
      if (count == 1)
        ce_set_error ("the CUDA device is not usable: %s", why);
      else
        ce_set_error ("none of the %d CUDA devices is usable (the last: %s)",
            count, why);
      return CE_STATUS_NO_DEVICE;
    }
    device_id = i;
  } else if (device_id >= count) {
    ce_set_error ("CUDA device %d does not exist (%d found)", device_id,
        count);
    return CE_STATUS_NO_DEVICE;
  } else if (!device_usable (device_id)) {
    char why[256];

    snprintf (why, sizeof why, "%s", ce_last_error ());
    ce_set_error ("CUDA device %d is not usable: %s", device_id, why);
    return CE_STATUS_NO_DEVICE;
  }
  *picked = device_id;
  return CE_STATUS_OK;
}

ce_status
ce_cuda_ctx_new (int device_id, int n_streams, ce_cuda_ctx ** out)
{
  ce_device_scope scope;
  ce_status status;

  if ((status = ce_check_pointer (out, "ctx")) != CE_STATUS_OK)
    return status;
  *out = NULL;
  if (n_streams < 2 || n_streams > CE_CUDA_MAX_STREAMS) {
    ce_set_error ("n_streams must be 2 ... %d (got %d)", CE_CUDA_MAX_STREAMS,
        n_streams);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = ce_cuda_device_pick (device_id, &device_id)) != CE_STATUS_OK)
    return status;
  if (fake_device)
    return fake_ctx_new (n_streams, out);

  if ((status = device_scope_take (&scope, device_id, NULL)) != CE_STATUS_OK)
    return status;
  status = ctx_create_on_device (device_id, n_streams, out);
  device_scope_give_back (&scope);
  return status;
}

ce_status
ce_cuda_ctx_new_current (int n_streams, ce_cuda_ctx ** out)
{
  ce_status status;
  cudaError_t err;
  int device;

  if ((status = ce_check_pointer (out, "ctx")) != CE_STATUS_OK)
    return status;
  *out = NULL;
  if (n_streams < 2 || n_streams > CE_CUDA_MAX_STREAMS) {
    ce_set_error ("n_streams must be 2 ... %d (got %d)", CE_CUDA_MAX_STREAMS,
        n_streams);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (fake_device) {
    ce_set_error ("the emulated CUDA device has no CUDA contexts");
    return CE_STATUS_NO_DEVICE;
  }
  /* cudaGetDevice answers 0 on a thread with no context current, and
   * the runtime would then make device 0's primary context for it: a
   * context the caller never made, maybe on another GPU than its own. */
  if (!thread_has_context ()) {
    ce_set_error ("no CUDA context is current on the calling thread");
    return CE_STATUS_NO_DEVICE;
  }
  /* Scopes switch to the context by its handle (ctx->cu): one that
   * cannot be read would leave them in the device's primary context. */
  if (have_ctx_calls () && current_context () == NULL) {
    ce_set_error ("cannot read the calling thread's CUDA context");
    return CE_STATUS_NO_DEVICE;
  }
  err = cudaGetDevice (&device);
  if (err != cudaSuccess) {
    ce_set_error ("no current CUDA context: %s", cudaGetErrorString (err));
    (void) cudaGetLastError ();
    return CE_STATUS_NO_DEVICE;
  }
  /* Entry points switch devices only when another device is current, so
   * the caller's context stays the one every call runs in. */
  if ((status = ce_kernels_probe ()) != CE_STATUS_OK)
    return status;
  return ctx_create_on_device (device, n_streams, out);
}

/* The rest of ce_cuda_ctx_new, with @device_id current. */
static ce_status
ctx_create_on_device (int device_id, int n_streams, ce_cuda_ctx ** out)
{
  struct cudaDeviceProp prop;
  ce_cuda_ctx *ctx;
  ce_status status;
  int i, j;

  ctx = calloc (1, sizeof (*ctx));
  if (ctx == NULL) {
    ce_set_error ("cannot allocate the CUDA context");
    return CE_STATUS_OUT_OF_MEMORY;
  }
  ctx->device = device_id;
  ctx->cu = current_context ();
  if (pthread_mutex_init (&ctx->pinned_lock, NULL) != 0) {
    ce_set_error ("cannot create the CUDA context's mutex");
    status = CE_STATUS_OUT_OF_MEMORY;
    goto fail;
  }
  ctx->pinned_lock_ok = 1;
  CUDA_TRY (cudaGetDeviceProperties (&prop, device_id));
  snprintf (ctx->name, sizeof (ctx->name), "%s", prop.name);

  ctx->streams = calloc (n_streams, sizeof (cudaStream_t));
  if (ctx->streams == NULL) {
    ce_set_error ("cannot allocate %d streams", n_streams);
    status = CE_STATUS_OUT_OF_MEMORY;
    goto fail;
  }
  for (i = 0; i < n_streams; i++) {
    CUDA_TRY (cudaStreamCreateWithFlags (&ctx->streams[i],
            cudaStreamNonBlocking));
    ctx->n_streams = i + 1;
  }
  for (j = 0; j < CE_CUDA_SLOTS; j++) {
    ce_slot_state *sl = &ctx->slots[j];

    for (i = 0; i < MAX_BANDS; i++) {
      ce_band_events *e = &sl->events[i];

      /* Counted first: a band whose events are made in part is freed
       * too (ce_cuda_ctx_free skips the ones never made). */
      sl->n_events = i + 1;
      CUDA_TRY (cudaEventCreate (&e->up_start));
      CUDA_TRY (cudaEventCreate (&e->up_end));
      CUDA_TRY (cudaEventCreate (&e->k_start));
      CUDA_TRY (cudaEventCreate (&e->k_end));
      CUDA_TRY (cudaEventCreate (&e->down_end));
      CUDA_TRY (cudaEventCreateWithFlags (&e->ready,
              cudaEventDisableTiming));
      CUDA_TRY (cudaEventCreateWithFlags (&e->done,
              cudaEventDisableTiming));
    }
  }
  *out = ctx;
  return CE_STATUS_OK;

fail:
  ce_cuda_ctx_free (ctx);
  return status;
}

static void
buffer_release (ce_buffer * b, int pinned)
{
  if (b->ptr) {
    if (pinned)
      cudaFreeHost (b->ptr);
    else
      cudaFree (b->ptr);
  }
  memset (b, 0, sizeof (*b));
}

void
ce_cuda_ctx_free (ce_cuda_ctx * ctx)
{
  ce_device_scope scope;
  int i, j;

  if (ctx == NULL)
    return;
  if (ctx->fake) {
    ce_pinned_table_clear (&ctx->pinned);
    pthread_mutex_destroy (&ctx->pinned_lock);
    free (ctx);
    return;
  }
  /* Without the device (it cannot fail once the context exists) the
   * releases below fail harmlessly. */
  (void) ctx_scope_take (&scope, ctx);
  for (i = 0; i < ctx->n_streams; i++) {
    cudaStreamSynchronize (ctx->streams[i]);
    cudaStreamDestroy (ctx->streams[i]);
  }
  for (j = 0; j < CE_CUDA_SLOTS; j++) {
    ce_slot_state *sl = &ctx->slots[j];

    for (i = 0; i < sl->n_events; i++) {
      ce_band_events *e = &sl->events[i];
      cudaEvent_t *ev[] = { &e->up_start, &e->up_end, &e->k_start,
        &e->k_end, &e->down_end, &e->ready, &e->done
      };

      for (size_t k = 0; k < sizeof (ev) / sizeof (ev[0]); k++)
        if (*ev[k] != NULL)
          cudaEventDestroy (*ev[k]);
    }
    buffer_release (&sl->d_src, 0);
    buffer_release (&sl->d_luma, 0);
    buffer_release (&sl->d_dst, 0);
    buffer_release (&sl->h_src_stage, 1);
    buffer_release (&sl->h_dst_stage, 1);
  }
  (void) cudaGetLastError ();
  device_scope_give_back (&scope);
  free (ctx->streams);
  /* Blocks still allocated (none, when every one was freed with
   * ce_cuda_host_free) are merely forgotten. */
  ce_pinned_table_clear (&ctx->pinned);
  if (ctx->pinned_lock_ok)
    pthread_mutex_destroy (&ctx->pinned_lock);
  free (ctx);
}

int
ce_cuda_ctx_device_id (const ce_cuda_ctx * ctx)
{
  return ctx ? ctx->device : -1;
}

const char *
ce_cuda_ctx_device_name (const ce_cuda_ctx * ctx)
{
  return ctx ? ctx->name : "";
}

void
ce_cuda_ctx_set_bands (ce_cuda_ctx * ctx, int bands)
{
  if (ctx == NULL)
    return;
  ctx->bands = bands < 0 ? 0 : bands > MAX_BANDS ? MAX_BANDS : bands;
}

void
ce_cuda_ctx_set_timing (ce_cuda_ctx * ctx, int on)
{
  if (ctx != NULL)
    ctx->timing = on != 0;
}

void
ce_cuda_ctx_inject_failure (ce_cuda_ctx * ctx, int n)
{
  if (ctx != NULL)
    ctx->fail_countdown = n < 0 ? 0 : n;
}

ce_status
ce_cuda_host_alloc (ce_cuda_ctx * ctx, size_t size, void **ptr)
{
  ce_device_scope scope;
  ce_status status;
  int added;

  if ((status = ce_check_pointer (ctx, "ctx")) != CE_STATUS_OK ||
      (status = ce_check_pointer (ptr, "ptr")) != CE_STATUS_OK)
    return status;
  *ptr = NULL;
  if (ctx->fake) {
    if ((*ptr = malloc (size ? size : 1)) == NULL) {
      ce_set_error ("cannot allocate %zu bytes", size);
      return CE_STATUS_OUT_OF_MEMORY;
    }
  } else {
    if ((status = ctx_scope_take (&scope, ctx)) != CE_STATUS_OK)
      return status;
    /* Portable: pinned in every CUDA context, GStreamer's included. */
    CUDA_TRY (cudaHostAlloc (ptr, size ? size : 1, cudaHostAllocPortable));
    device_scope_give_back (&scope);
  }
  /* A block the table cannot take is still pinned memory: the frame path
   * then asks the driver about it, as for memory from elsewhere.  The
   * emulated device frees only blocks of its table (ce_cuda_host_free),
   * so there such a block is given back. */
  pthread_mutex_lock (&ctx->pinned_lock);
  added = ce_pinned_table_add (&ctx->pinned, *ptr, size ? size : 1) == 0;
  pthread_mutex_unlock (&ctx->pinned_lock);
  if (ctx->fake && !added) {
    free (*ptr);
    *ptr = NULL;
    ce_set_error ("cannot record a block of %zu bytes in the table of "
        "pinned blocks", size);
    return CE_STATUS_OUT_OF_MEMORY;
  }
  return CE_STATUS_OK;

fail:
  device_scope_give_back (&scope);
  *ptr = NULL;
  return status;
}

ce_status
ce_cuda_host_free (ce_cuda_ctx * ctx, void *ptr)
{
  ce_device_scope scope;
  ce_status status = CE_STATUS_OK;
  int known;

  if (ctx == NULL || ptr == NULL)
    return CE_STATUS_OK;
  /* Forgotten before it is freed, so that no frame takes memory that a
   * new allocation may reuse for pinned. */
  pthread_mutex_lock (&ctx->pinned_lock);
  known = ce_pinned_table_remove (&ctx->pinned, ptr);
  pthread_mutex_unlock (&ctx->pinned_lock);
  if (ctx->fake) {
    /* As cudaFreeHost refuses memory it did not allocate. */
    if (!known) {
      ce_set_error ("%p is not pinned memory of this context", ptr);
      return CE_STATUS_CUDA_ERROR;
    }
    free (ptr);
    return CE_STATUS_OK;
  }
  if ((status = ctx_scope_take (&scope, ctx)) != CE_STATUS_OK)
    return status;
  CUDA_TRY (cudaFreeHost (ptr));
fail:
  device_scope_give_back (&scope);
  return status;
}

/* Makes a device image (pitched) or a pinned host buffer hold rows of
 * row_bytes, keeping the one it has when that is large enough; contents
 * are not kept. */
static ce_status
buffer_reserve (ce_buffer * b, size_t row_bytes, int rows, int pinned)
{
  ce_status status = CE_STATUS_OK;

  if (b->ptr && b->row_bytes >= row_bytes && b->rows >= rows)
    return CE_STATUS_OK;
  /* Made for this frame's rows only: keeping the widest and the tallest
   * frame seen would hold their product, which may not fit.  (Frames
   * that alternate between wide and tall would make it again each time;
   * sizes change only on renegotiation.) */
  buffer_release (b, pinned);
  if (pinned) {
    CUDA_TRY (cudaHostAlloc (&b->ptr, row_bytes * rows, cudaHostAllocPortable));
    b->pitch = row_bytes;
  } else {
    CUDA_TRY (cudaMallocPitch (&b->ptr, &b->pitch, row_bytes, rows));
  }
  b->row_bytes = row_bytes;
  b->rows = rows;
  return CE_STATUS_OK;

fail:
  b->ptr = NULL;
  return status;
}

int
ce_cuda_ctx_pinned_known (ce_cuda_ctx * ctx, const void *ptr, size_t extent)
{
  int found;

  if (ctx == NULL)
    return 0;
  pthread_mutex_lock (&ctx->pinned_lock);
  found = ce_pinned_table_find (&ctx->pinned, ptr, extent);
  pthread_mutex_unlock (&ctx->pinned_lock);
  return found;
}

/* Whether the @extent bytes at @ptr are page-locked: inside a block of
 * the context's own, or else as the driver says. */
static int
is_pinned (ce_cuda_ctx * ctx, const void *ptr, size_t extent)
{
  struct cudaPointerAttributes attr;

  if (ce_cuda_ctx_pinned_known (ctx, ptr, extent))
    return 1;
  pointer_queries++;
  if (cudaPointerGetAttributes (&attr, ptr) != cudaSuccess) {
    (void) cudaGetLastError ();
    return 0;
  }
  return attr.type == cudaMemoryTypeHost;
}

/* Bytes from the first row's start to the last row's end. */
static size_t
image_extent (size_t stride, size_t row_bytes, int rows)
{
  size_t gaps = rows > 1 ? (size_t) (rows - 1) : 0;

  /* Too large for any block: the driver is asked. */
  if (gaps && stride > (SIZE_MAX - row_bytes) / gaps)
    return SIZE_MAX;
  return stride * gaps + row_bytes;
}

/* Bands for a frame moving @bytes in all: as set, or one per
 * AUTO_BAND_BYTES (small frames are not worth the per-band overhead). */
static int
band_count (const ce_cuda_ctx * ctx, int rows, size_t bytes)
{
  int bands = ctx->bands;
  int most = (rows + MIN_BAND_ROWS - 1) / MIN_BAND_ROWS;

  if (bands == 0) {
    size_t b = bytes / AUTO_BAND_BYTES;
    bands = b < 1 ? 1 : b > AUTO_MAX_BANDS ? AUTO_MAX_BANDS : (int) b;
  }
  return bands < most ? bands : most;
}

/* Everything the edge and upscale submissions share: a job moves src rows
 * up in bands, runs the band's kernels once the rows they read are there,
 * and moves its output rows down. */
typedef struct ce_band_job ce_band_job;
struct ce_band_job
{
  const uint8_t *h_src;         /* pinned (caller's or staging) */
  size_t src_stride;
  size_t src_row_bytes;
  int src_rows;
  const uint8_t *user_src;      /* when staging: where to copy from */
  size_t user_src_stride;

  uint8_t *h_dst;               /* pinned (caller's or staging) */
  size_t dst_stride;
  size_t dst_row_bytes;
  int out_rows_per_src_row;     /* 1 for edges, 2 for the upscale */

  /* Enqueue the kernels that turn src rows [r0, r1) into output: prepare
   * (optional) right after the band's upload, run once the next band's
   * rows are there too. */
  ce_status (*prepare) (ce_slot_state * sl, ce_band_job * job, int r0, int r1,
      cudaStream_t stream);
  ce_status (*run) (ce_slot_state * sl, ce_band_job * job, int r0, int r1,
      cudaStream_t stream);
};

/* Leaves no work in flight, so nothing touches buffers a failed call's
 * caller may free. */
static void
drain_streams (ce_cuda_ctx * ctx)
{
  int i;

  for (i = 0; i < ctx->n_streams; i++)
    cudaStreamSynchronize (ctx->streams[i]);
  (void) cudaGetLastError ();
}

static ce_status
enqueue_bands (ce_cuda_ctx * ctx, ce_slot_state * sl, ce_band_job * job)
{
  ce_status status = CE_STATUS_OK;
  int rows = job->src_rows;
  int n = band_count (ctx, rows, job->src_row_bytes * rows +
      job->dst_row_bytes * rows * job->out_rows_per_src_row);
  int band_rows = (rows + n - 1) / n;
  int kernel_streams = ctx->n_streams - 1;
  int timed = ctx->timing;
  int own_stream;
  int b, i;

  n = (rows + band_rows - 1) / band_rows;
  sl->n_bands = n;
  sl->n_tails = 0;
  sl->timed = timed;

  /* One band has nothing to overlap within the frame: it goes on a stream
   * of its slot's own, upload included, so it needs no event between
   * streams, and the next frame (the other slot, the other stream)
   * still uploads while this one is filtered and downloaded. */
  own_stream = n == 1 && kernel_streams >= CE_CUDA_SLOTS;

  /* Software pipeline.  Stream 0 carries every upload (the copy engine runs
   * them in order anyway) and the cheap per-band preparation; the other
   * streams take turns at filtering and downloading.  Step b uploads band
   * b and filters band b - 1, which waits only for band b's rows (stream 0
   * being in order, that implies every earlier band's), so uploads never
   * queue behind downloads. */
  for (b = 0; b <= n; b++) {
    if (b < n) {
      int r0 = b * band_rows;
      int r1 = r0 + band_rows < rows ? r0 + band_rows : rows;
      cudaStream_t s = ctx->streams[own_stream ? 1 + (sl - ctx->slots) : 0];
      ce_band_events *e = &sl->events[b];

      if (job->user_src) {
        /* Staging copy on the CPU overlaps the previous band's upload. */
        for (i = r0; i < r1; i++)
          memcpy ((uint8_t *) job->h_src + (size_t) i * job->src_stride,
              job->user_src + (size_t) i * job->user_src_stride,
              job->src_row_bytes);
      }
      if (timed)
        RECORD_TRY (e->up_start, s);
      CUDA_TRY (cudaMemcpy2DAsync ((uint8_t *) sl->d_src.ptr +
              (size_t) r0 * sl->d_src.pitch, sl->d_src.pitch,
              job->h_src + (size_t) r0 * job->src_stride, job->src_stride,
              job->src_row_bytes, r1 - r0, cudaMemcpyHostToDevice, s));
      if (timed)
        RECORD_TRY (e->up_end, s);
      if (job->prepare)
        CE_TRY (job->prepare (sl, job, r0, r1, s));
      /* Waited for by band b - 1's kernels, and by the last band's own;
       * band 0's is needed only when it is the last. */
      if (!own_stream && (b >= 1 || n == 1))
        RECORD_TRY (e->ready, s);
    }
    if (b >= 1) {
      int k = b - 1;
      int r0 = k * band_rows;
      int r1 = r0 + band_rows < rows ? r0 + band_rows : rows;
      int o0 = r0 * job->out_rows_per_src_row;
      int o1 = r1 * job->out_rows_per_src_row;
      cudaStream_t s = ctx->streams[own_stream ? 1 + (sl - ctx->slots) :
          1 + k % kernel_streams];
      ce_band_events *e = &sl->events[k];
      /* No later band of this frame goes on this stream. */
      int last_on_stream = own_stream || k + kernel_streams >= n;

      if (!own_stream)
        CUDA_TRY (cudaStreamWaitEvent (s, sl->events[b < n ? b : k].ready,
                0));
      if (timed)
        RECORD_TRY (e->k_start, s);
      CE_TRY (job->run (sl, job, r0, r1, s));
      if (timed)
        RECORD_TRY (e->k_end, s);
      CUDA_TRY (cudaMemcpy2DAsync (job->h_dst + (size_t) o0 * job->dst_stride,
              job->dst_stride, (uint8_t *) sl->d_dst.ptr +
              (size_t) o0 * sl->d_dst.pitch, sl->d_dst.pitch,
              job->dst_row_bytes, o1 - o0, cudaMemcpyDeviceToHost, s));
      /* A band's download is its last operation on its stream. */
      if (timed) {
        RECORD_TRY (e->down_end, s);
        if (last_on_stream)
          sl->tails[sl->n_tails++] = e->down_end;
      } else if (last_on_stream) {
        RECORD_TRY (e->done, s);
        sl->tails[sl->n_tails++] = e->done;
      }
    }
  }
  return CE_STATUS_OK;

fail:
  drain_streams (ctx);
  return status;
}

/* Sets up the pinned side of a job: the caller's memory when it is
 * page-locked, otherwise the slot's staging buffers. */
static ce_status
job_bind_host (ce_cuda_ctx * ctx, ce_slot_state * sl, ce_band_job * job,
    const uint8_t * src, size_t src_stride, uint8_t * dst, size_t dst_stride,
    int dst_rows)
{
  ce_status status;

  job->user_src = NULL;
  job->h_src = src;
  job->src_stride = src_stride;
  if (!is_pinned (ctx, src, image_extent (src_stride, job->src_row_bytes,
              job->src_rows))) {
    CE_TRY (buffer_reserve (&sl->h_src_stage, job->src_row_bytes,
            job->src_rows, 1));
    job->user_src = src;
    job->user_src_stride = src_stride;
    job->h_src = sl->h_src_stage.ptr;
    job->src_stride = job->src_row_bytes;
  }
  job->h_dst = dst;
  job->dst_stride = dst_stride;
  sl->user_dst = NULL;
  if (!is_pinned (ctx, dst, image_extent (dst_stride, job->dst_row_bytes,
              dst_rows))) {
    CE_TRY (buffer_reserve (&sl->h_dst_stage, job->dst_row_bytes, dst_rows,
            1));
    job->h_dst = sl->h_dst_stage.ptr;
    job->dst_stride = job->dst_row_bytes;
    sl->user_dst = dst;
    sl->user_dst_stride = dst_stride;
  }
  sl->dst_row_bytes = job->dst_row_bytes;
  sl->dst_rows = dst_rows;
  return CE_STATUS_OK;

fail:
  return status;
}

static ce_status
claim_slot (ce_cuda_ctx * ctx, int slot, ce_slot_state ** out)
{
  ce_status status;

  if ((status = ce_check_pointer (ctx, "ctx")) != CE_STATUS_OK)
    return status;
  if (slot < 0 || slot >= CE_CUDA_SLOTS) {
    ce_set_error ("slot must be in [0, %d) (got %d)", CE_CUDA_SLOTS, slot);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (ctx->slots[slot].busy) {
    ce_set_error ("slot %d already holds a frame; wait for it first", slot);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  *out = &ctx->slots[slot];
  return CE_STATUS_OK;
}

/* Marks the slot busy after a successful submission and arms an injected
 * failure on it when the countdown says so. */
static void
slot_submitted (ce_cuda_ctx * ctx, ce_slot_state * sl)
{
  sl->busy = 1;
  sl->fail = ctx->fail_countdown > 0 && --ctx->fail_countdown == 0;
}

ce_status
ce_cuda_frame_wait (ce_cuda_ctx * ctx, int slot, ce_timing * timing)
{
  ce_device_scope scope;
  ce_status status = CE_STATUS_OK;
  ce_slot_state *sl;
  int b, i;

  if (timing)
    memset (timing, 0, sizeof (*timing));
  if ((status = ce_check_pointer (ctx, "ctx")) != CE_STATUS_OK)
    return status;
  if (slot < 0 || slot >= CE_CUDA_SLOTS || !ctx->slots[slot].busy) {
    ce_set_error ("slot %d holds no submitted frame", slot);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  sl = &ctx->slots[slot];
  sl->busy = 0;
  if (ctx->fake)
    return fake_frame_wait (sl, timing);
  if ((status = ctx_scope_take (&scope, ctx)) != CE_STATUS_OK)
    goto fail;
  /* The last download of each stream the frame used: those complete, so
   * has every band before them on their streams, and the uploads the
   * kernels waited for. */
  for (i = 0; i < sl->n_tails; i++)
    CUDA_TRY (cudaEventSynchronize (sl->tails[i]));
  if (sl->fail) {
    sl->fail = 0;
    ce_set_error ("injected failure (test hook)");
    device_scope_give_back (&scope);
    return CE_STATUS_CUDA_ERROR;
  }

  /* The frame is done: a timing the events cannot give stays zero (the
   * frame is not lost for it), as on the device path. */
  if (timing && sl->timed) {
    float up = 0, kern = 0, down = 0, ms[3];

    for (b = 0; b < sl->n_bands; b++) {
      ce_band_events *e = &sl->events[b];

      if (cudaEventElapsedTime (&ms[0], e->up_start, e->up_end) != cudaSuccess
          || cudaEventElapsedTime (&ms[1], e->k_start, e->k_end) != cudaSuccess
          || cudaEventElapsedTime (&ms[2], e->k_end,
              e->down_end) != cudaSuccess) {
        (void) cudaGetLastError ();
        up = kern = down = 0;
        break;
      }
      up += ms[0];
      kern += ms[1];
      down += ms[2];
    }
    timing->upload_us = up * 1000.0;
    timing->kernel_us = kern * 1000.0;
    timing->download_us = down * 1000.0;
  }
  if (sl->user_dst) {
    const uint8_t *h = sl->h_dst_stage.ptr;

    for (i = 0; i < sl->dst_rows; i++)
      memcpy (sl->user_dst + (size_t) i * sl->user_dst_stride,
          h + (size_t) i * sl->dst_row_bytes, sl->dst_row_bytes);
  }
  device_scope_give_back (&scope);
  return CE_STATUS_OK;

fail:
  sl->fail = 0;
  drain_streams (ctx);
  device_scope_give_back (&scope);
  return status;
}

typedef struct
{
  ce_band_job job;
  ce_format format;
  int width, height;
  ce_edge_consts consts;
  int needs_luma;
} ce_edge_job;

static ce_status
edge_prepare (ce_slot_state * sl, ce_band_job * job, int r0, int r1,
    cudaStream_t s)
{
  ce_edge_job *ej = (ce_edge_job *) job;

  if (!ej->needs_luma)
    return CE_STATUS_OK;
  return ce_launch_luma (sl->d_src.ptr, sl->d_src.pitch, ej->format,
      ej->width, ej->height, r0, r1, sl->d_luma.ptr, sl->d_luma.pitch, s);
}

static ce_status
edge_run (ce_slot_state * sl, ce_band_job * job, int r0, int r1, cudaStream_t s)
{
  ce_edge_job *ej = (ce_edge_job *) job;
  const ce_buffer *luma = ej->needs_luma ? &sl->d_luma : &sl->d_src;

  return ce_launch_edge_fused (luma->ptr, luma->pitch, ej->width,
      ej->height, r0, r1, &ej->consts, sl->d_dst.ptr, sl->d_dst.pitch, s);
}

ce_status
ce_cuda_edge_frame_submit (ce_cuda_ctx * ctx, int slot, const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride)
{
  ce_device_scope scope;
  ce_luma_layout layout;
  ce_slot_state *sl;
  ce_edge_job ej;
  ce_status status;
  int w, h;

  if ((status = claim_slot (ctx, slot, &sl)) != CE_STATUS_OK ||
      (status = ce_frame_validate (src)) != CE_STATUS_OK ||
      (status = ce_edge_consts_init (&ej.consts, params)) != CE_STATUS_OK ||
      (status = ce_check_pointer (dst, "dst")) != CE_STATUS_OK ||
      (status = ce_check_plane (dst_stride, src->width, src->height,
              "dst stride")) != CE_STATUS_OK)
    return status;
  w = src->width;
  h = src->height;
  ce_luma_layout_get (src->format, &layout);

  memset (&ej.job, 0, sizeof (ej.job));
  ej.format = src->format;
  ej.width = w;
  ej.height = h;
  ej.needs_luma = layout.bytes_per_pixel != 1;
  ej.job.src_row_bytes = (size_t) w * layout.bytes_per_pixel;
  ej.job.src_rows = h;
  ej.job.dst_row_bytes = w;
  ej.job.out_rows_per_src_row = 1;
  ej.job.prepare = edge_prepare;
  ej.job.run = edge_run;

  if (ctx->fake) {
    sl->fake_kind = FAKE_EDGE;
    sl->fake_src = *src;
    sl->fake_params = *params;
    fake_submitted (ctx, sl, dst, dst_stride, w, h);
    return CE_STATUS_OK;
  }
  if ((status = ctx_scope_take (&scope, ctx)) != CE_STATUS_OK)
    return status;
  CE_TRY (buffer_reserve (&sl->d_src, ej.job.src_row_bytes, h, 0));
  if (ej.needs_luma)
    CE_TRY (buffer_reserve (&sl->d_luma, w, h, 0));
  CE_TRY (buffer_reserve (&sl->d_dst, w, h, 0));
  CE_TRY (job_bind_host (ctx, sl, &ej.job, src->data, src->stride, dst,
          dst_stride, h));
  CE_TRY (enqueue_bands (ctx, sl, &ej.job));
  slot_submitted (ctx, sl);
  device_scope_give_back (&scope);
  return CE_STATUS_OK;

fail:
  device_scope_give_back (&scope);
  return status;
}

ce_status
ce_cuda_edge_frame (ce_cuda_ctx * ctx, const ce_frame * src,
    const ce_edge_params * params, uint8_t * dst, size_t dst_stride,
    ce_timing * timing)
{
  ce_status status;

  status = ce_cuda_edge_frame_submit (ctx, 0, src, params, dst, dst_stride);
  if (status != CE_STATUS_OK)
    return status;
  return ce_cuda_frame_wait (ctx, 0, timing);
}

typedef struct
{
  ce_band_job job;
  int width, height, bpp;
} ce_upscale_job;

static ce_status
upscale_run (ce_slot_state * sl, ce_band_job * job, int r0, int r1,
    cudaStream_t s)
{
  ce_upscale_job *uj = (ce_upscale_job *) job;

  return ce_launch_upscale2x (sl->d_src.ptr, sl->d_src.pitch, uj->width,
      uj->height, uj->bpp, 2 * r0, 2 * r1, sl->d_dst.ptr, sl->d_dst.pitch, s);
}

ce_status
ce_cuda_upscale2x_frame_submit (ce_cuda_ctx * ctx, int slot,
    const uint8_t * src, size_t src_stride, int width, int height,
    int bytes_per_pixel, uint8_t * dst, size_t dst_stride)
{
  ce_device_scope scope;
  ce_slot_state *sl;
  ce_upscale_job uj;
  ce_status status;

  if ((status = claim_slot (ctx, slot, &sl)) != CE_STATUS_OK ||
      (status = ce_check_pointer (src, "src")) != CE_STATUS_OK ||
      (status = ce_check_pointer (dst, "dst")) != CE_STATUS_OK ||
      (status = ce_check_size (width, height)) != CE_STATUS_OK)
    return status;
  if (bytes_per_pixel != 1 && bytes_per_pixel != 4) {
    ce_set_error ("bytes_per_pixel must be 1 or 4 (got %d)", bytes_per_pixel);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if (width > CE_UPSCALE_MAX_SIZE || height > CE_UPSCALE_MAX_SIZE) {
    ce_set_error ("%dx%d is too large to upscale", width, height);
    return CE_STATUS_INVALID_ARGUMENT;
  }
  if ((status = ce_check_plane (src_stride, (size_t) width * bytes_per_pixel,
              height, "src stride")) != CE_STATUS_OK ||
      (status = ce_check_plane (dst_stride,
              (size_t) 2 * width * bytes_per_pixel, 2 * height, "dst stride"))
      != CE_STATUS_OK)
    return status;

  memset (&uj, 0, sizeof (uj));
  uj.width = width;
  uj.height = height;
  uj.bpp = bytes_per_pixel;
  uj.job.src_row_bytes = (size_t) width * bytes_per_pixel;
  uj.job.src_rows = height;
  uj.job.dst_row_bytes = (size_t) 2 * width * bytes_per_pixel;
  uj.job.out_rows_per_src_row = 2;
  uj.job.run = upscale_run;

  if (ctx->fake) {
    sl->fake_kind = FAKE_UPSCALE;
    sl->fake_src.data = src;
    sl->fake_src.stride = src_stride;
    sl->fake_src.width = width;
    sl->fake_src.height = height;
    sl->fake_bpp = bytes_per_pixel;
    fake_submitted (ctx, sl, dst, dst_stride,
        (size_t) 2 * width * bytes_per_pixel, 2 * height);
    return CE_STATUS_OK;
  }
  if ((status = ctx_scope_take (&scope, ctx)) != CE_STATUS_OK)
    return status;
  CE_TRY (buffer_reserve (&sl->d_src, uj.job.src_row_bytes, height, 0));
  CE_TRY (buffer_reserve (&sl->d_dst, uj.job.dst_row_bytes, 2 * height, 0));
  CE_TRY (job_bind_host (ctx, sl, &uj.job, src, src_stride, dst, dst_stride,
          2 * height));
  CE_TRY (enqueue_bands (ctx, sl, &uj.job));
  slot_submitted (ctx, sl);
  device_scope_give_back (&scope);
  return CE_STATUS_OK;

fail:
  device_scope_give_back (&scope);
  return status;
}

ce_status
ce_cuda_upscale2x_frame (ce_cuda_ctx * ctx, const uint8_t * src,
    size_t src_stride, int width, int height, int bytes_per_pixel,
    uint8_t * dst, size_t dst_stride, ce_timing * timing)
{
  ce_status status;

  status = ce_cuda_upscale2x_frame_submit (ctx, 0, src, src_stride, width,
      height, bytes_per_pixel, dst, dst_stride);
  if (status != CE_STATUS_OK)
    return status;
  return ce_cuda_frame_wait (ctx, 0, timing);
}
