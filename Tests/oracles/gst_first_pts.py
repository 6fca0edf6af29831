#!/usr/bin/python3
"""GStreamer oracle for `disckit serve`: plays URL through `souphttpsrc ! tsdemux` (or
`mpegpsdemux` with --ps) and prints, as JSON, the PTS (ns) of the first buffer on the first video
pad and on the first audio pad, and how many buffers each saw before stopping:
  {"video": N|null, "audio": N|null, "videoCaps": "...", "audioCaps": "..."}
Stops once both pads have delivered a buffer (or at EOS / error). Use /usr/bin/python3 (python3-gst-1.0).
"""
import json
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

Gst.init(None)
url = sys.argv[1]
demuxer = "mpegpsdemux" if "--ps" in sys.argv else "tsdemux"
pipeline = Gst.parse_launch(f"souphttpsrc location={url} ! {demuxer} name=d")
demux = pipeline.get_by_name("d")
first = {"video": None, "audio": None, "videoCaps": None, "audioCaps": None}
loop = GLib.MainLoop()


def done():
    return first["video"] is not None and first["audio"] is not None


def on_pad(_element, pad):
    caps = pad.get_current_caps() or pad.query_caps(None)
    name = caps.get_structure(0).get_name()
    kind = "video" if name.startswith("video/") else "audio" if name.startswith("audio/") else None
    sink = Gst.ElementFactory.make("fakesink")
    sink.set_property("sync", False)
    # Not async: a sink waiting for preroll would block the one streaming thread of the demuxer.
    sink.set_property("async", False)
    pipeline.add(sink)
    sink.sync_state_with_parent()
    pad.link(sink.get_static_pad("sink"))
    if kind is None:
        return

    def probe(_pad, info):
        buf = info.get_buffer()
        if first[kind] is None and buf.pts != Gst.CLOCK_TIME_NONE and first[kind + "Caps"] is None:
            first[kind] = buf.pts
            first[kind + "Caps"] = name
            if done():
                GLib.idle_add(loop.quit)
        return Gst.PadProbeReturn.OK

    # Only the first pad of each kind counts.
    if first[kind + "Caps"] is None:
        pad.add_probe(Gst.PadProbeType.BUFFER, probe)


demux.connect("pad-added", on_pad)
bus = pipeline.get_bus()
bus.add_signal_watch()


def on_message(_bus, message):
    if message.type in (Gst.MessageType.EOS, Gst.MessageType.ERROR):
        if message.type == Gst.MessageType.ERROR:
            first["error"] = str(message.parse_error()[0])
        loop.quit()


bus.connect("message", on_message)
pipeline.set_state(Gst.State.PLAYING)
GLib.timeout_add_seconds(120, loop.quit)
loop.run()
pipeline.set_state(Gst.State.NULL)
print(json.dumps(first))
