#!/usr/bin/python3
"""GStreamer oracle for DiscKit's Segment: reads SegmentRequest JSON lines on stdin and prints, one
line per request, what GStreamer's own GstSegment functions return (SegmentResponse JSON).

Protocol (the same as `disckit segment --batch`):
  in:  {"op": "streamTimeFull", "segment": {"start": ..., "stop": null, ...}, "value": N, ...}
  out: {"sign": 1, "value": N} | {"result": N|null} | {"inside": b, "clipStart": .., "clipStop": ..}
       | {"ok": b, "segment": {...}} (+ "update" for doSeek) | {"error": "..."}
null is GST_CLOCK_TIME_NONE (2^64-1). Outputs of a failed call that GStreamer leaves unset are
printed as null. Use the system python (/usr/bin/python3) that has python3-gst-1.0.
"""
import json
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

NONE = 2**64 - 1


def raw(value):
    return NONE if value is None else int(value)


def opt(value):
    return None if value == NONE else int(value)


def parse_int(text):
    # Swift's JSONEncoder writes the double -0.0 as "-0"; keep its sign (GStreamer's ABS() keeps
    # -0.0 negative, which changes the result of a division by the rate).
    return -0.0 if text == "-0" else int(text)


def make_segment(fields):
    seg = Gst.Segment()
    seg.init(Gst.Format(fields.get("format", 3)))
    seg.flags = Gst.SegmentFlags(fields.get("flags", 0))
    seg.rate = float(fields.get("rate", 1.0))
    seg.applied_rate = float(fields.get("appliedRate", 1.0))
    seg.base = raw(fields.get("base", 0))
    seg.offset = raw(fields.get("offset", 0))
    seg.start = raw(fields.get("start", 0))
    for key in ("stop", "time", "position", "duration"):
        if key in fields:
            setattr(seg, key, raw(fields[key]))
    return seg


def dump_segment(seg):
    return {
        "flags": int(seg.flags),
        "rate": seg.rate,
        "appliedRate": seg.applied_rate,
        "format": int(seg.format),
        "base": int(seg.base),
        "offset": int(seg.offset),
        "start": int(seg.start),
        "stop": opt(seg.stop),
        "time": opt(seg.time),
        "position": opt(seg.position),
        "duration": opt(seg.duration),
    }


SEEK_TYPES = {"none": Gst.SeekType.NONE, "set": Gst.SeekType.SET, "end": Gst.SeekType.END}

PLAIN = {
    "streamTime": "to_stream_time",
    "positionFromStreamTime": "position_from_stream_time",
    "runningTime": "to_running_time",
    "positionFromRunningTime": "position_from_running_time",
}
FULL = {
    "streamTimeFull": "to_stream_time_full",
    "positionFromStreamTimeFull": "position_from_stream_time_full",
    "runningTimeFull": "to_running_time_full",
    "positionFromRunningTimeFull": "position_from_running_time_full",
}


def evaluate(request):
    op = request["op"]
    seg = make_segment(request.get("segment", {}))
    fmt = seg.format
    value = raw(request.get("value"))
    if op in PLAIN:
        return {"result": opt(getattr(seg, PLAIN[op])(fmt, value))}
    if op in FULL:
        sign, out = getattr(seg, FULL[op])(fmt, value)
        return {"sign": int(sign), "value": int(out) if sign != 0 else None}
    if op == "clip":
        inside, clip_start, clip_stop = seg.clip(fmt, value, raw(request.get("stop")))
        if not inside:
            return {"inside": False, "clipStart": None, "clipStop": None}
        return {"inside": True, "clipStart": opt(clip_start), "clipStop": opt(clip_stop)}
    if op == "setRunningTime":
        ok = seg.set_running_time(fmt, value)
        return {"ok": bool(ok), "segment": dump_segment(seg)}
    if op == "offsetRunningTime":
        ok = seg.offset_running_time(fmt, int(request.get("signedValue") or 0))
        return {"ok": bool(ok), "segment": dump_segment(seg)}
    if op == "doSeek":
        ok, update = seg.do_seek(
            float(request.get("rate", 1.0) if request.get("rate") is not None else 1.0),
            fmt,
            Gst.SeekFlags(request.get("seekFlags") or 0),
            SEEK_TYPES[request.get("startType") or "set"],
            value,
            SEEK_TYPES[request.get("stopType") or "none"],
            raw(request.get("stop")),
        )
        out = {"ok": bool(ok), "segment": dump_segment(seg)}
        if ok:
            out["update"] = bool(update)
        return out
    raise ValueError("unknown op " + repr(op))


def main():
    Gst.init(None)
    # Read everything before answering: a caller that writes its whole batch before reading
    # (Tool.run in the tests) would otherwise deadlock on full pipes.
    lines = [line.strip() for line in sys.stdin.read().splitlines()]
    answers = []
    for line in lines:
        if not line:
            continue
        try:
            response = evaluate(json.loads(line, parse_int=parse_int))
        except Exception as error:  # reported per line, the batch goes on
            response = {"error": str(error)}
        answers.append(json.dumps(response, sort_keys=True))
    sys.stdout.write("".join(answer + "\n" for answer in answers))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
