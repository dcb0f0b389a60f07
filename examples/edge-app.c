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
 * Usage: edge-app [--backend=auto|cuda|cpu] [--switch-frame=N]
 *                 [--nvdec] [FILE]
 *
 * Detects the edges of FILE, a clip or a still picture (or of a generated
 * test clip), and writes them losslessly as PNG frames: every frame to
 * edges.avi (PNG in AVI, values exactly 0 and 255) and the last one to
 * edges-preview.png.  At frame N (30 unless told) the threshold goes down
 * from 128 to 64.  Prints any cudaedge-check message and, at the end, the
 * element's statistics.  The exit status is 1 on an error or when a checked
 * frame mismatched, and 77 when an element the pipeline needs (pngenc,
 * avimux, videotestsrc...) is not installed.
 *
 * With --nvdec, FILE is an H.264 clip in MP4 decoded on the GPU by
 * nvcodec's nvh264dec: the frames stay in GStreamer CUDA memory until
 * cudaedge has made their edges, and only the GRAY8 edges come back.
 */

#include <stdlib.h>

#include <gst/gst.h>

#define OUTPUT_VIDEO "edges.avi"
#define OUTPUT_PREVIEW "edges-preview.png"
#define LATER_THRESHOLD 64.0
#define DEFAULT_SWITCH_FRAME 30
/* The exit status of a pipeline that lacks an element. */
#define EXIT_MISSING_PLUGIN 77

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline;
  GstElement *edge;
  guint64 frames_in;
  guint64 switch_frame;
  int status;
} App;

static void
print_stats (App * app)
{
  GstStructure *stats = NULL;
  guint64 frames = 0, checked = 0, mismatches = 0;
  gdouble up = 0, kern = 0, down = 0, cpu = 0;
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
      "download-us", G_TYPE_DOUBLE, &down, "cpu-us", G_TYPE_DOUBLE, &cpu,
      NULL);
  g_print ("backend: %s (%s)\n", gst_structure_get_string (stats, "backend"),
      gst_structure_get_string (stats, "device"));
  g_print ("frames processed: %" G_GUINT64_FORMAT ", checked: %"
      G_GUINT64_FORMAT ", mismatches: %" G_GUINT64_FORMAT "\n", frames,
      checked, mismatches);
  if (g_strcmp0 (gst_structure_get_string (stats, "backend"), "cuda") == 0)
    g_print ("mean per GPU frame: upload %.1f us, kernel %.1f us, download "
        "%.1f us\n", up, kern, down);
  else
    g_print ("mean per CPU frame: %.1f us\n", cpu);
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
      if (app->frames_in <= app->switch_frame)
        g_print ("(the stream ended before frame %" G_GUINT64_FORMAT
            ": the threshold stayed at 128)\n", app->switch_frame);
      g_print ("wrote %s (%" G_GUINT64_FORMAT " frames, PNG) and %s\n",
          OUTPUT_VIDEO, app->frames_in, OUTPUT_PREVIEW);
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* Counts the frames that enter cudaedge and lowers the threshold just
 * before frame switch_frame (counted from 0) goes in: the property is
 * mutable in PLAYING and applies from the next frame the element takes, so
 * the switch happens at the same frame on every run, whatever the speed. */
static GstPadProbeReturn
count_frames (G_GNUC_UNUSED GstPad * pad, G_GNUC_UNUSED GstPadProbeInfo * info,
    gpointer user_data)
{
  App *app = user_data;

  if (app->frames_in == app->switch_frame) {
    g_print ("frame %" G_GUINT64_FORMAT ": threshold -> %.0f\n",
        app->frames_in, LATER_THRESHOLD);
    g_object_set (app->edge, "threshold", LATER_THRESHOLD, NULL);
  }
  app->frames_in++;
  return GST_PAD_PROBE_OK;
}

/* A still picture decodes to one frame at framerate 0/1, which avimux
 * refuses: such a stream is written as one frame a second. */
static GstPadProbeReturn
fix_still_framerate (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    G_GNUC_UNUSED gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps;
  gint num, den;

  if (GST_EVENT_TYPE (event) != GST_EVENT_CAPS)
    return GST_PAD_PROBE_OK;
  gst_event_parse_caps (event, &caps);
  if (!gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
          "framerate", &num, &den) || num != 0)
    return GST_PAD_PROBE_OK;

  caps = gst_caps_copy (caps);
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 1, 1, NULL);
  gst_event_unref (event);
  GST_PAD_PROBE_INFO_DATA (info) = gst_event_new_caps (caps);
  gst_caps_unref (caps);
  return GST_PAD_PROBE_OK;
}

static void
add_probe (GstElement * pipeline, const gchar * name, const gchar * pad_name,
    GstPadProbeType type, GstPadProbeCallback callback, gpointer user_data)
{
  GstElement *element = gst_bin_get_by_name (GST_BIN (pipeline), name);
  GstPad *pad = gst_element_get_static_pad (element, pad_name);

  gst_pad_add_probe (pad, type, callback, user_data, NULL);
  gst_object_unref (pad);
  gst_object_unref (element);
}

int
main (int argc, char **argv)
{
  App app = { NULL, };
  GError *err = NULL;
  GstBus *bus;
  gchar *source, *desc;
  gchar *backend = NULL;
  gint switch_frame = DEFAULT_SWITCH_FRAME;
  gboolean nvdec = FALSE;
  GstPluginFeature *feature;
  GOptionEntry entries[] = {
    {"backend", 'b', 0, G_OPTION_ARG_STRING, &backend,
        "cudaedge backend: auto (default), cuda or cpu", "NAME"},
    {"switch-frame", 's', 0, G_OPTION_ARG_INT, &switch_frame,
        "frame at which the threshold goes from 128 to 64 (default 30)", "N"},
    {"nvdec", 'n', 0, G_OPTION_ARG_NONE, &nvdec,
        "FILE is an H.264 MP4 clip: decode it on the GPU (nvh264dec) and "
          "keep the frames there for cudaedge", NULL},
    {NULL}
  };
  static const gchar *const backends[] = { "auto", "cuda", "cpu", NULL };
  GOptionContext *octx;

  octx = g_option_context_new ("[FILE] - edge maps of a clip or a picture");
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &err) || argc > 2
      || switch_frame < 0 || (nvdec && argc != 2)
      || (backend && !g_strv_contains (backends, backend))) {
    g_printerr ("%s\n", err ? err->message : argc > 2 ?
        "too many arguments" : switch_frame < 0 ?
        "the switch frame must be 0 or more" : nvdec && argc != 2 ?
        "--nvdec needs a FILE" : "the backend must be auto, cuda or cpu");
    g_printerr ("usage: %s [--backend=auto|cuda|cpu] [--switch-frame=N] "
        "[--nvdec] [FILE]\n", argv[0]);
    g_clear_error (&err);
    g_option_context_free (octx);
    g_free (backend);
    return 2;
  }
  g_option_context_free (octx);
  app.switch_frame = switch_frame;

  /* Without this, a missing plugin only shows up as a parse error far
   * from its cause. */
  feature = gst_registry_find_feature (gst_registry_get (), "cudaedge",
      GST_TYPE_ELEMENT_FACTORY);
  if (!feature) {
    g_printerr ("the cudaedge element is not available: install the "
        "gstreamer1.0-cudaedge package, or point GST_PLUGIN_PATH at the "
        "folder that holds libgstcudaedge.so (BUILD_DIR/gst in a build "
        "tree)\n");
    g_free (backend);
    return 1;
  }
  gst_object_unref (feature);

  if (nvdec) {
    feature = gst_registry_find_feature (gst_registry_get (), "nvh264dec",
        GST_TYPE_ELEMENT_FACTORY);
    if (!feature) {
      g_printerr ("--nvdec needs nvcodec's nvh264dec (gstreamer1.0-plugins-"
          "bad with an NVIDIA driver), which is not available\n");
      g_free (backend);
      return 1;
    }
    gst_object_unref (feature);
    /* Decoded into CUDA memory; cudaedge takes it there and downloads
     * one byte per pixel. */
    source = g_strdup ("filesrc name=file ! qtdemux ! h264parse ! "
        "nvh264dec");
  } else if (argc == 2) {
    /* The file name is set as a property below, not spelled into the
     * description, so that any byte in it survives. */
    source = g_strdup ("filesrc name=file ! decodebin ! videoconvert");
  } else {
    source = g_strdup ("videotestsrc num-buffers=90 pattern=ball "
        "! video/x-raw,width=640,height=480,framerate=30/1 ! videoconvert");
  }

  /* check=true compares with the CPU reference on the GPU (a no-op on the
   * CPU backend).  pngenc takes cudaedge's GRAY8 as it is, so the files
   * hold exactly 0 and 255, and binary pictures compress well.  The
   * preview branch overwrites one file with every frame: it ends as the
   * last frame (a pngenc snapshot=true branch would end the whole stream
   * at its EOS). */
  desc = g_strdup_printf ("%s ! cudaedge name=edge check=true "
      "! video/x-raw,format=GRAY8 ! pngenc ! tee name=t "
      "t. ! queue name=aviq ! avimux ! filesink location=" OUTPUT_VIDEO " "
      "t. ! queue ! multifilesink location=" OUTPUT_PREVIEW, source);
  g_free (source);

  /* Every element of the pipeline is needed: a missing one (a plugin not
   * installed) stops here rather than leaving a pipeline without it. */
  app.pipeline = gst_parse_launch_full (desc, NULL, GST_PARSE_FLAG_FATAL_ERRORS,
      &err);
  g_free (desc);
  if (!app.pipeline) {
    /* A plugin not installed is told apart by its own exit status, which
     * test harnesses (meson, automake) take as a skip. */
    gboolean missing = g_error_matches (err, GST_PARSE_ERROR,
        GST_PARSE_ERROR_NO_SUCH_ELEMENT);

    g_printerr ("could not build the pipeline: %s%s\n", err ? err->message
        : "unknown error", missing ? " (a GStreamer plugin it needs is not "
        "installed)" : "");
    g_clear_error (&err);
    return missing ? EXIT_MISSING_PLUGIN : 1;
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
  add_probe (app.pipeline, "edge", "sink", GST_PAD_PROBE_TYPE_BUFFER,
      count_frames, &app);
  add_probe (app.pipeline, "aviq", "src",
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, fix_still_framerate, NULL);

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
