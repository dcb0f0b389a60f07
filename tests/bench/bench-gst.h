/* bench-gst: what the GStreamer benchmark programs share.
 *
 * Copyright (C) 2026 The gst-cudaedge authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_GST_H
#define BENCH_GST_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Reports an ERROR or WARNING message of a bus sync handler on stderr,
 * prefixed with the program's name (bench_init ()).  An error ends the
 * process at once (exit status 1): it can come from a streaming thread
 * while the main thread is blocked in a push.  Other messages are left
 * alone. */
void bench_bus_report (GstMessage * msg);

/* Pushes @buf (taking it) into the appsrc @appsrc as frame @i of a 1000/1
 * stream (PTS i ms, duration 1 ms); any flow return but OK ends the
 * process (bench_die ()). */
void bench_push (GstElement * appsrc, GstBuffer * buf, guint64 i);

G_END_DECLS

#endif /* BENCH_GST_H */
