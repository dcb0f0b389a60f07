#!/usr/bin/python3
# gst-cudaedge: the cudaedge element embedded in a Python application
#
# Copyright (C) 2026 The gst-cudaedge authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: edge-app.py [FILE]
#
# Writes the edges of FILE (a clip or a picture; a generated clip without
# one) as numbered PNG files, edges-00000.png and up, with values exactly 0
# and 255, lowers the threshold at frame 30 and prints the element's
# statistics.  Needs python3-gi and gir1.2-gstreamer-1.0.

import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

SWITCH_FRAME = 30


def main(argv):
    Gst.init(None)
    if Gst.ElementFactory.find("cudaedge") is None:
        sys.stderr.write(
            "the cudaedge element is not available: install the "
            "gstreamer1.0-cudaedge package, or point GST_PLUGIN_PATH at the "
            "folder that holds libgstcudaedge.so (BUILD_DIR/gst in a build "
            "tree)\n")
        return 1

    if len(argv) > 1:
        source = "filesrc name=file ! decodebin"
    else:
        source = ("videotestsrc num-buffers=60 pattern=ball "
                  "! video/x-raw,width=320,height=240,framerate=30/1")
    pipeline = Gst.parse_launch(
        source + " ! videoconvert ! cudaedge name=edge ! pngenc "
        "! multifilesink location=edges-%05d.png")
    if len(argv) > 1:
        pipeline.get_by_name("file").set_property("location", argv[1])
    edge = pipeline.get_by_name("edge")

    # The threshold changes at a frame, not at a time: count the frames
    # going into the element and set it before frame SWITCH_FRAME.
    frames = [0]

    def count(pad, info):
        if frames[0] == SWITCH_FRAME:
            print("frame %d: threshold -> 64" % frames[0])
            edge.set_property("threshold", 64.0)
        frames[0] += 1
        return Gst.PadProbeReturn.OK

    edge.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, count)

    loop = GLib.MainLoop()
    status = [0]

    def on_message(bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            sys.stderr.write("error from %s: %s\n%s\n"
                             % (msg.src.get_name(), err.message, dbg or ""))
            status[0] = 1
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            print(edge.get_property("stats").to_string())
            print("wrote edges-00000.png ... edges-%05d.png" % (frames[0] - 1))
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    try:
        loop.run()
    finally:
        pipeline.set_state(Gst.State.NULL)
        bus.remove_signal_watch()
    return status[0]


if __name__ == "__main__":
    sys.exit(main(sys.argv))
