/* gst-cudaedge: statistics and the check against the CPU
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */


#ifndef __GST_CE_CHECK_H__
#define __GST_CE_CHECK_H__

#include <gst/gst.h>

#include "cudaedge-core.h"

G_BEGIN_DECLS

/* GPU frames, on system memory and on CUDA memory, are timed (CUDA events,
 * host work on every frame) one in GST_CE_STATS_SAMPLE, and every one once the stats have
 * been read: an application that reads them gets the time of every frame
 * from then on, one that does not keeps the frame path lean. */
#define GST_CE_STATS_SAMPLE 64     /* README's stats row says 64 too */

/* What the stats property reports; any thread may read it.  Its lock is a
 * leaf: nothing else is locked while it is held. */
typedef struct
{
  GMutex lock;
  gchar *backend;               /* "cuda", "cpu" or "none" */
  gchar *device;                /* device name, "cpu" or "none" */
  guint64 frames;
  guint64 frames_checked;
  guint64 mismatches;
  guint64 gpu_frames;           /* frames computed on the GPU */
  guint64 timed_frames;         /* of which timed: the means' divisor */
  gdouble upload_us_sum;
  gdouble kernel_us_sum;
  gdouble download_us_sum;
  guint64 cpu_frames;           /* frames computed on the CPU */
  gdouble cpu_us_sum;

  gint read;                    /* atomic: the stats were read once */
  guint64 timed_from;           /* streaming thread: every frame from this
                                 * one on is timed */
} GstCeStats;

void gst_ce_stats_init (GstCeStats * stats);
void gst_ce_stats_clear (GstCeStats * stats);
/* Zeroes the counters and names the backend in use; with frame numbers
 * starting again from 0. */
void gst_ce_stats_reset (GstCeStats * stats, const gchar * backend,
    const gchar * device);
void gst_ce_stats_set_backend (GstCeStats * stats, const gchar * backend,
    const gchar * device);
/* One frame: @gpu is the GPU's timing, NULL when the CPU computed it in
 * @cpu_us microseconds. */
void gst_ce_stats_add_frame (GstCeStats * stats, gboolean checked,
    guint64 mismatches, const ce_timing * gpu, gdouble cpu_us);
/* One frame computed on the GPU but not timed: counted, not in the means. */
void gst_ce_stats_add_untimed_frame (GstCeStats * stats, gboolean checked,
    guint64 mismatches);
/* Whether frame @frame (0-based since the reset) is to be timed, asked
 * by the streaming thread when it submits the frame (frames in order).
 * gst_ce_stats_frame_timed () gives the same answer afterwards, when the
 * frame completes. */
gboolean gst_ce_stats_time_frame (GstCeStats * stats, guint64 frame);
gboolean gst_ce_stats_frame_timed (GstCeStats * stats, guint64 frame);
/* A new structure named @name: frames, frames-checked, mismatches,
 * timed-frames (guint64), backend, device (strings), upload-us,
 * kernel-us, download-us (mean over the timed GPU frames) and cpu-us
 * (mean over CPU frames), gdouble microseconds.  Turns the timing of
 * every frame on (GST_CE_STATS_SAMPLE). */
GstStructure *gst_ce_stats_to_structure (GstCeStats * stats,
    const gchar * name);

/* The CPU's version of checked frames, tightly packed; kept between
 * frames.  Streaming thread only. */
typedef struct
{
  guint8 *data;
  gsize size;
} GstCeCheckBuffer;

/* @size bytes, or NULL when they cannot be had. */
guint8 *gst_ce_check_buffer_get (GstCeCheckBuffer * buf, gsize size);
void gst_ce_check_buffer_clear (GstCeCheckBuffer * buf);

/* The <element>-check element message: frame, mismatches (guint64), x, y,
 * expected, got (gint). */
GstMessage *gst_ce_check_message_new (GstObject * src, const gchar * name,
    guint64 frame, const ce_diff * diff);

G_END_DECLS

#endif /* __GST_CE_CHECK_H__ */
