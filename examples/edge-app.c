/* gst-cudaedge: a small application around the cudaedge element
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
 *
 * Usage: edge-app [--backend=auto|cuda|cpu] [VIDEO-FILE]
 *
 * Detects the edges of VIDEO-FILE (or of a generated test clip), writes
 * them to edges.avi (Motion JPEG) and a PNG preview (edges-preview.png,
 * refreshed once a second), lowers the threshold after one second, prints
 * any cudaedge-check message and, at the end, the element's statistics.
 * The exit status is 1 on an error or when a checked frame mismatched.
 */

#include <stdlib.h>

#include <gst/gst.h>

#define OUTPUT_VIDEO "edges.avi"
#define OUTPUT_PREVIEW "edges-preview.png"
#define LATER_THRESHOLD 64.0

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline;
  GstElement *edge;
  int status;
} App;

static void
print_stats (App * app)
{
  GstStructure *stats = NULL;
  guint64 frames = 0, checked = 0, mismatches = 0;
  gdouble up = 0, kern = 0, down = 0;
  gchar *str;

  g_object_get (app->edge, "stats", &stats, NULL);
  if (!stats)
    return;
  str = gst_structure_to_string (stats);
  g_print ("stats: %s\n", str);
  g_free (str);

  gst_structure_get (stats, "frames", G_TYPE_UINT64, &frames,
      "frames-checked", G_TYPE_UINT64, &checked,
      "mismatches", G_TYPE_UINT64, &mismatches,
      "upload-us", G_TYPE_DOUBLE, &up, "kernel-us", G_TYPE_DOUBLE, &kern,
      "download-us", G_TYPE_DOUBLE, &down, NULL);
  g_print ("backend: %s (%s)\n", gst_structure_get_string (stats, "backend"),
      gst_structure_get_string (stats, "device"));
  g_print ("frames processed: %" G_GUINT64_FORMAT ", checked: %"
      G_GUINT64_FORMAT ", mismatches: %" G_GUINT64_FORMAT "\n", frames,
      checked, mismatches);
  g_print ("mean per frame: upload %.1f us, kernel %.1f us, download %.1f "
      "us\n", up, kern, down);
  if (mismatches > 0)
    app->status = 1;
  gst_structure_free (stats);
}

static gboolean
on_bus_message (G_GNUC_UNUSED GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);
      guint64 frame = 0, mismatches = 0;
      gint x = 0, y = 0, expected = 0, got = 0;

      if (gst_structure_has_name (s, "cudaedge-check")) {
        gst_structure_get (s, "frame", G_TYPE_UINT64, &frame,
            "mismatches", G_TYPE_UINT64, &mismatches, "x", G_TYPE_INT, &x,
            "y", G_TYPE_INT, &y, "expected", G_TYPE_INT, &expected,
            "got", G_TYPE_INT, &got, NULL);
        g_print ("check: frame %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT
            " bytes differ, first at (%d, %d): expected %d, got %d\n", frame,
            mismatches, x, y, expected, got);
      }
      break;
    }
    case GST_MESSAGE_WARNING:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("warning from %s: %s\n", GST_OBJECT_NAME (msg->src),
          err->message);
      g_clear_error (&err);
      g_free (dbg);
      break;
    }
    case GST_MESSAGE_ERROR:{
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      app->status = 1;
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_print ("end of stream\n");
      print_stats (app);
      g_print ("wrote %s and %s\n", OUTPUT_VIDEO, OUTPUT_PREVIEW);
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* Properties marked mutable in PLAYING take effect at the next frame. */
static gboolean
lower_threshold (gpointer user_data)
{
  App *app = user_data;

  g_print ("threshold -> %.0f\n", LATER_THRESHOLD);
  g_object_set (app->edge, "threshold", LATER_THRESHOLD, NULL);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  App app = { NULL, };
  GError *err = NULL;
  GstBus *bus;
  gchar *source, *desc;
  gchar *backend = NULL;
  GOptionEntry entries[] = {
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
        "cudaedge backend: auto (default), cuda or cpu", "NAME"},
    {NULL}
  };
  GOptionContext *octx;

  octx = g_option_context_new ("[VIDEO-FILE] - edge maps of a video");
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &err) || argc > 2) {
    g_printerr ("%s\n", err ? err->message : "too many arguments");
    g_printerr ("usage: %s [--backend=auto|cuda|cpu] [VIDEO-FILE]\n",
        argv[0]);
    g_clear_error (&err);
    g_option_context_free (octx);
    return 2;
  }
  g_option_context_free (octx);

  if (argc == 2) {
    /* The file name is set as a property below, not spelled into the
     * description, so that any byte in it survives. */
    source = g_strdup ("filesrc name=file ! decodebin");
  } else {
    source = g_strdup ("videotestsrc num-buffers=90 pattern=ball "
        "! video/x-raw,width=640,height=480,framerate=30/1");
  }

  /* check=true compares with the CPU reference on the GPU (a no-op on the
   * CPU backend).  The PNG branch keeps one frame a second, each
   * overwriting the last, so the preview is a late frame of the clip (a
   * pngenc snapshot=true branch would end the whole stream at its EOS). */
  desc = g_strdup_printf ("%s ! videoconvert ! cudaedge name=edge check=true "
      "! tee name=t "
      "t. ! queue ! videoconvert ! jpegenc ! avimux ! filesink location="
      OUTPUT_VIDEO " "
      "t. ! queue ! videorate drop-only=true max-rate=1 ! videoconvert "
      "! pngenc ! multifilesink location=" OUTPUT_PREVIEW, source);
  g_free (source);

  app.pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!app.pipeline) {
    g_printerr ("could not build the pipeline: %s\n", err->message);
    g_clear_error (&err);
    return 1;
  }
  if (err) {
    /* A recoverable parse problem (for example a missing optional element). */
    g_printerr ("warning: %s\n", err->message);
    g_clear_error (&err);
  }

  if (argc == 2) {
    GstElement *file = gst_bin_get_by_name (GST_BIN (app.pipeline), "file");

    g_object_set (file, "location", argv[1], NULL);
    gst_object_unref (file);
  }
  app.edge = gst_bin_get_by_name (GST_BIN (app.pipeline), "edge");
  if (backend)
    gst_util_set_object_arg (G_OBJECT (app.edge), "backend", backend);
  g_free (backend);
  app.loop = g_main_loop_new (NULL, FALSE);

  bus = gst_element_get_bus (app.pipeline);
  gst_bus_add_watch (bus, on_bus_message, &app);
  g_timeout_add (1000, lower_threshold, &app);

  if (gst_element_set_state (app.pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);

    /* The bus watch never ran: say why here. */
    if (msg) {
      GError *err = NULL;
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("error from %s: %s\n%s\n", GST_OBJECT_NAME (msg->src),
          err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
    }
    g_printerr ("could not start the pipeline\n");
    app.status = 1;
  } else {
    g_main_loop_run (app.loop);
  }

  gst_element_set_state (app.pipeline, GST_STATE_NULL);
  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (app.edge);
  gst_object_unref (app.pipeline);
  g_main_loop_unref (app.loop);
  return app.status;
}
