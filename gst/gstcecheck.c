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


#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstcecheck.h"

void
gst_ce_stats_init (GstCeStats * stats)
{
  memset (stats, 0, sizeof (*stats));
  g_mutex_init (&stats->lock);
  stats->backend = g_strdup ("none");
  stats->device = g_strdup ("none");
  stats->timed_from = G_MAXUINT64;
}

void
gst_ce_stats_clear (GstCeStats * stats)
{
  g_free (stats->backend);
  g_free (stats->device);
  g_mutex_clear (&stats->lock);
}

static void
gst_ce_stats_set_backend_locked (GstCeStats * stats, const gchar * backend,
    const gchar * device)
{
  g_free (stats->backend);
  g_free (stats->device);
  stats->backend = g_strdup (backend);
  stats->device = g_strdup (device);
}

void
gst_ce_stats_reset (GstCeStats * stats, const gchar * backend,
    const gchar * device)
{
  g_mutex_lock (&stats->lock);
  stats->frames = stats->frames_checked = stats->mismatches = 0;
  stats->gpu_frames = stats->cpu_frames = 0;
  stats->upload_us_sum = stats->kernel_us_sum = stats->download_us_sum = 0;
  stats->cpu_us_sum = 0;
  stats->timed_frames = 0;
  stats->timed_from = g_atomic_int_get (&stats->read) ? 0 : G_MAXUINT64;
  gst_ce_stats_set_backend_locked (stats, backend, device);
  g_mutex_unlock (&stats->lock);
}

void
gst_ce_stats_set_backend (GstCeStats * stats, const gchar * backend,
    const gchar * device)
{
  g_mutex_lock (&stats->lock);
  gst_ce_stats_set_backend_locked (stats, backend, device);
  g_mutex_unlock (&stats->lock);
}

gboolean
gst_ce_stats_time_frame (GstCeStats * stats, guint64 frame)
{
  if (stats->timed_from == G_MAXUINT64 && g_atomic_int_get (&stats->read))
    stats->timed_from = frame;
  return gst_ce_stats_frame_timed (stats, frame);
}

gboolean
gst_ce_stats_frame_timed (GstCeStats * stats, guint64 frame)
{
  return frame >= stats->timed_from
      || frame % GST_CE_STATS_SAMPLE == GST_CE_STATS_SAMPLE - 1;
}

void
gst_ce_stats_add_untimed_frame (GstCeStats * stats, gboolean checked,
    guint64 mismatches)
{
  g_mutex_lock (&stats->lock);
  stats->frames++;
  if (checked)
    stats->frames_checked++;
  stats->mismatches += mismatches;
  stats->gpu_frames++;
  g_mutex_unlock (&stats->lock);
}

void
gst_ce_stats_add_frame (GstCeStats * stats, gboolean checked,
    guint64 mismatches, const ce_timing * gpu, gdouble cpu_us)
{
  g_mutex_lock (&stats->lock);
  stats->frames++;
  if (checked)
    stats->frames_checked++;
  stats->mismatches += mismatches;
  if (gpu) {
    stats->gpu_frames++;
    stats->timed_frames++;
    stats->upload_us_sum += gpu->upload_us;
    stats->kernel_us_sum += gpu->kernel_us;
    stats->download_us_sum += gpu->download_us;
  } else {
    stats->cpu_frames++;
    stats->cpu_us_sum += cpu_us;
  }
  g_mutex_unlock (&stats->lock);
}

GstStructure *
gst_ce_stats_to_structure (GstCeStats * stats, const gchar * name)
{
  GstStructure *s;
  gdouble n_gpu, n_cpu;

  /* From the next frame submitted on, every frame is timed. */
  g_atomic_int_set (&stats->read, 1);
  g_mutex_lock (&stats->lock);
  n_gpu = stats->timed_frames ? (gdouble) stats->timed_frames : 1.0;
  n_cpu = stats->cpu_frames ? (gdouble) stats->cpu_frames : 1.0;
  s = gst_structure_new (name,
      "frames", G_TYPE_UINT64, stats->frames,
      "frames-checked", G_TYPE_UINT64, stats->frames_checked,
      "mismatches", G_TYPE_UINT64, stats->mismatches,
      "timed-frames", G_TYPE_UINT64, stats->timed_frames,
      "backend", G_TYPE_STRING, stats->backend,
      "device", G_TYPE_STRING, stats->device,
      "upload-us", G_TYPE_DOUBLE, stats->upload_us_sum / n_gpu,
      "kernel-us", G_TYPE_DOUBLE, stats->kernel_us_sum / n_gpu,
      "download-us", G_TYPE_DOUBLE, stats->download_us_sum / n_gpu,
      "cpu-us", G_TYPE_DOUBLE, stats->cpu_us_sum / n_cpu, NULL);
  g_mutex_unlock (&stats->lock);
  return s;
}

guint8 *
gst_ce_check_buffer_get (GstCeCheckBuffer * buf, gsize size)
{
  if (size != buf->size) {
    g_free (buf->data);
    buf->data = g_try_malloc (size);
    buf->size = buf->data ? size : 0;
  }
  return buf->data;
}

void
gst_ce_check_buffer_clear (GstCeCheckBuffer * buf)
{
  g_clear_pointer (&buf->data, g_free);
  buf->size = 0;
}

GstMessage *
gst_ce_check_message_new (GstObject * src, const gchar * name,
    guint64 frame, const ce_diff * diff)
{
  GstStructure *s;

  s = gst_structure_new (name,
      "frame", G_TYPE_UINT64, frame,
      "mismatches", G_TYPE_UINT64, (guint64) diff->count,
      "x", G_TYPE_INT, diff->x,
      "y", G_TYPE_INT, diff->y,
      "expected", G_TYPE_INT, diff->expected,
      "got", G_TYPE_INT, diff->got, NULL);
  return gst_message_new_element (src, s);
}
