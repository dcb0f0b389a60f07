/* bench-gst: what the GStreamer benchmark programs share (bench-gst.h).
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <unistd.h>

#include <gst/app/gstappsrc.h>

#include "bench-gst.h"
#include "bench-util.h"

void
bench_bus_report (GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL;
  gboolean error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

  if (error)
    gst_message_parse_error (msg, &err, &dbg);
  else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
    gst_message_parse_warning (msg, &err, &dbg);
  else
    return;
  fflush (stdout);
  fprintf (stderr, "%s: %s: from %s: %s\n  debug: %s\n", bench_program (),
      error ? "error" : "warning", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
      err->message, dbg ? dbg : "(none)");
  if (error) {
    fflush (stderr);
    _exit (1);
  }
  g_error_free (err);
  g_free (dbg);
}

void
bench_push (GstElement * appsrc, GstBuffer * buf, guint64 i)
{
  GstFlowReturn ret;

  GST_BUFFER_PTS (buf) = i * (GST_SECOND / 1000);
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 1000;
  ret = gst_app_src_push_buffer (GST_APP_SRC (appsrc), buf);
  if (ret != GST_FLOW_OK)
    bench_die ("pushing frame %" G_GUINT64_FORMAT ": %s", i,
        gst_flow_get_name (ret));
}
