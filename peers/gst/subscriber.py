#!/usr/bin/python3
"""GStreamer test subscriber: webrtcbin receiving one VideoRoom publisher and decoding it.

Run with /usr/bin/python3 (python3-gst-1.0). Flow as the aiortc subscriber (peers/subscriber.py):
find the feed (--feed-id, or --feed-display through listparticipants, waiting up to
--find-timeout for it and its room), join as a Janus 1.x multistream subscriber with
streams [{feed}], answer Janus's offer and start. Decodes what arrives (VP8 with vp8dec,
H.264 with openh264dec, Opus with opusdec) and writes into --out:
  audio.wav     the decoded audio (s16, 48 kHz, channels as decoded)
  summary.json  decoded video frames, their size, codecs, audio samples; written at exit
With --video-out FILE the received video is also re-muxed, as received (no re-encoding),
into FILE (WebM for VP8, Matroska for H.264).
Prints READY once ICE+DTLS are connected. Runs until SIGTERM/SIGINT or --duration.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peer import Session, WebRTCPeer, add_janus_arguments, emit_with_promise, run_main  # noqa: E402

from gi.repository import Gst, GstWebRTC  # noqa: E402

from janus_protocol import NO_SUCH_ROOM, JanusError, log  # noqa: E402

# Depayloaders wait for a keyframe and ask for one (PLI) after a loss; decoders never give up
# on errors (each is counted from the bus warnings instead).
DECODERS = {
    "VP8": "rtpvp8depay wait-for-keyframe=true request-keyframe=true name=depay ! tee name=received"
           " ! queue ! vp8dec max-errors=-1 name=decoder",
    # Through avc and back: openh264dec (OpenH264 2.3) decodes nothing of x264enc's two-slice
    # frames as rtph264depay writes them in byte-stream (with SPS/PPS before each IDR), but all
    # of them once h264parse has re-framed them.
    "H264": "rtph264depay wait-for-keyframe=true request-keyframe=true name=depay ! video/x-h264,stream-format=avc"
            " ! h264parse ! video/x-h264,stream-format=byte-stream,alignment=au ! tee name=received"
            " ! queue ! openh264dec max-errors=-1 name=decoder",
}
MUXERS = {"VP8": "webmmux", "H264": "matroskamux"}
AUDIO = ("rtpopusdepay ! opusdec plc=true ! audioconvert ! audioresample"
         " ! audio/x-raw,format=S16LE,rate=48000,layout=interleaved ! appsink name=pcm emit-signals=true sync=false")
EOS_TIMEOUT_S = 5.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_janus_arguments(p)
    feed = p.add_mutually_exclusive_group(required=True)
    feed.add_argument("--feed-display", help="subscribe to the publisher with this display name")
    feed.add_argument("--feed-id", help="subscribe to this publisher id")
    p.add_argument("--out", required=True, help="output directory (created)")
    p.add_argument("--video-out", metavar="FILE", help="also re-mux the received video into FILE")
    p.add_argument("--find-timeout", type=float, default=15.0,
                   help="seconds to wait for the feed (and its room) to appear")
    return p.parse_args(argv)


class AudioSink:
    """Writes what the appsink pulls (S16LE, interleaved) to a WAV file, on the streaming thread."""

    def __init__(self, path: Path):
        self.path = path
        self.wav: wave.Wave_write | None = None
        self.frames = 0
        self.samples = 0
        self.rate = 0
        self.channels = 0
        self.lock = threading.Lock()

    def on_sample(self, appsink) -> Gst.FlowReturn:
        sample = appsink.emit("pull-sample")
        if sample is None:
            return Gst.FlowReturn.EOS
        structure = sample.get_caps().get_structure(0)
        rate, channels = structure.get_int("rate")[1], structure.get_int("channels")[1]
        buffer = sample.get_buffer()
        ok, info = buffer.map(Gst.MapFlags.READ)
        if not ok:
            return Gst.FlowReturn.OK
        try:
            with self.lock:
                if self.wav is None and channels > 0:
                    self.rate, self.channels = rate, channels
                    self.wav = wave.open(str(self.path), "wb")
                    self.wav.setnchannels(channels)
                    self.wav.setsampwidth(2)
                    self.wav.setframerate(rate)
                if self.wav is None or (rate, channels) != (self.rate, self.channels):
                    return Gst.FlowReturn.OK  # format changed mid-stream: keep the file consistent
                self.wav.writeframes(bytes(info.data))
                self.frames += 1
                self.samples += info.size // (2 * channels)
        finally:
            buffer.unmap(info)
        return Gst.FlowReturn.OK

    def close(self) -> None:
        with self.lock:
            if self.wav is not None:
                self.wav.close()
                self.wav = None


class VideoCounts:
    """Frames out of the depayloader (received) and out of the decoder (decoded), and the
    decoded size, from pad probes on the streaming threads."""

    def __init__(self) -> None:
        self.codec: str | None = None
        self.received = 0
        self.decoded = 0
        self.width = self.height = 0
        self.first_decoded_s: float | None = None

    def watch(self, codec: str, depay: Gst.Element, decoder: Gst.Element, t0: float) -> None:
        self.codec = codec

        def on_received(_pad, _info) -> Gst.PadProbeReturn:
            self.received += 1
            return Gst.PadProbeReturn.OK

        def on_decoded(pad, _info) -> Gst.PadProbeReturn:
            self.decoded += 1
            if self.first_decoded_s is None:
                self.first_decoded_s = time.monotonic() - t0
                caps = pad.get_current_caps()
                if caps is not None:
                    structure = caps.get_structure(0)
                    self.width, self.height = structure.get_int("width")[1], structure.get_int("height")[1]
            return Gst.PadProbeReturn.OK

        depay.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_received)
        decoder.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_decoded)


class Receiver:
    """Builds a decoding branch for each stream webrtcbin exposes (pad-added)."""

    def __init__(self, peer: WebRTCPeer, out: Path, video_out: str | None):
        self.peer = peer
        self.audio = AudioSink(out / "audio.wav")
        self.video = VideoCounts()
        self.audio_codec: str | None = None
        self.video_out = video_out
        self.mux_branch: Gst.Bin | None = None
        self.t0 = time.monotonic()
        peer.webrtc.connect("pad-added", self._on_pad)

    def _on_pad(self, _webrtc, pad: Gst.Pad) -> None:
        if pad.get_direction() != Gst.PadDirection.SRC:
            return
        caps = pad.get_current_caps() or pad.query_caps(None)
        structure = caps.get_structure(0)
        media, encoding = structure.get_string("media"), (structure.get_string("encoding-name") or "").upper()
        if media == "audio" and encoding == "OPUS" and self.audio_codec is None:
            description = AUDIO
        elif media == "video" and encoding in DECODERS and self.video.codec is None:
            description = DECODERS[encoding] + " ! videoconvert ! fakesink sync=false async=false"
            if self.video_out:
                parse = " ! h264parse ! video/x-h264,stream-format=avc" if encoding == "H264" else ""
                description += (f" received. ! queue name=muxqueue{parse} ! {MUXERS[encoding]}"
                                f" ! filesink name=file location={self.video_out} async=false")
        else:
            description = "fakesink sync=false async=false"
            log(f"subscriber: ignoring a {media} stream in {encoding or '?'}")
        branch = Gst.parse_bin_from_description(description, True)
        self.peer.pipeline.add(branch)
        branch.sync_state_with_parent()
        if pad.link(branch.get_static_pad("sink")) != Gst.PadLinkReturn.OK:
            self.peer.fail(f"cannot link the {media} stream ({encoding}) to its decoder")
            return
        if description == AUDIO:
            self.audio_codec = "opus"
            branch.get_by_name("pcm").connect("new-sample", self.audio.on_sample)
        elif media == "video" and encoding in DECODERS:
            self.video.watch(encoding.lower(), branch.get_by_name("depay"), branch.get_by_name("decoder"), self.t0)
            if self.video_out:
                self.mux_branch = branch

    def finish(self) -> None:
        """Ends the re-muxed file: an EOS into its branch alone (webrtcbin's own sinks never see
        one, so the pipeline would never post EOS), waiting (bounded) until it reaches the
        file, by when the muxer has written its index and duration."""
        if self.mux_branch is None:
            return
        written = threading.Event()

        def on_event(_pad, info) -> Gst.PadProbeReturn:
            if info.get_event().type == Gst.EventType.EOS:
                written.set()
            return Gst.PadProbeReturn.OK

        self.mux_branch.get_by_name("file").get_static_pad("sink").add_probe(
            Gst.PadProbeType.EVENT_DOWNSTREAM, on_event)
        self.mux_branch.get_by_name("muxqueue").get_static_pad("sink").send_event(Gst.Event.new_eos())
        if not written.wait(EOS_TIMEOUT_S):
            log(f"subscriber: no EOS within {EOS_TIMEOUT_S}s; {self.video_out} may lack its index")


def find_feed(session: Session, args: argparse.Namespace) -> str:
    if args.feed_id:
        return args.feed_id
    deadline = time.monotonic() + args.find_timeout
    while True:
        try:
            data, _ = session.handle.message({"request": "listparticipants", "room": args.room})
        except JanusError as exc:
            # No such room: the publisher we wait for may be the one creating it.
            if exc.code != NO_SUCH_ROOM:
                raise
            data = {}
        for participant in data.get("participants", []):
            if participant.get("display") == args.feed_display and participant.get("publisher"):
                return participant["id"]
        if time.monotonic() >= deadline:
            raise TimeoutError(f"no publisher named {args.feed_display!r} in room {args.room!r} "
                               f"after {args.find_timeout}s")
        if session.stop.wait(0.2):
            raise InterruptedError("signalled while looking for the feed")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    session = Session(args, "subscriber")
    receiver: Receiver | None = None
    feed_id = None
    joined = False
    recorded = 0.0
    try:
        handle = session.open()
        feed_id = find_feed(session, args)
        join = {"request": "join", "ptype": "subscriber", "room": args.room, "streams": [{"feed": feed_id}]}
        if args.pin:
            join["pin"] = args.pin
        data, jsep = handle.message(join)
        if data.get("videoroom") != "attached" or not jsep:
            raise RuntimeError(f"unexpected subscriber join reply: {data}")
        joined = True

        pipeline = Gst.Pipeline.new("subscriber")
        pipeline.add(Gst.ElementFactory.make("webrtcbin", "webrtc"))
        peer = session.peer = WebRTCPeer(pipeline, session.host_ip)
        peer.webrtc.connect("on-new-transceiver", lambda _w, t: t.set_property("do-nack", True))
        receiver = Receiver(peer, out, args.video_out)
        peer.start()
        peer.set_remote(GstWebRTC.WebRTCSDPType.OFFER, jsep["sdp"])
        answer = emit_with_promise(peer.webrtc, "create-answer", None, reply_field="answer")
        emit_with_promise(peer.webrtc, "set-local-description", answer)
        answer = peer.local_description_when_gathered()
        session.keep_sdp(jsep["sdp"], answer)
        data, _ = handle.message({"request": "start"}, jsep={"type": "answer", "sdp": answer})
        if data.get("started") != "ok":
            raise RuntimeError(f"unexpected start reply: {data}")
        handle.trickle_completed()
        peer.wait_connected(args.connect_timeout, session.stop)
        session.ready({"feed": feed_id, "room": args.room})
        recorded = session.run_until_done()
        receiver.finish()
    finally:
        session.close([{"request": "leave"}] if joined else [])
        summary = {"feed": feed_id, "room": args.room, "recorded_s": round(recorded, 3)}
        if receiver is not None:
            receiver.audio.close()
            video = receiver.video
            summary.update({
                "audio_codec": receiver.audio_codec,
                "audio_frames": receiver.audio.frames,
                "audio_samples": receiver.audio.samples,
                "audio_rate": receiver.audio.rate,
                "audio_channels": receiver.audio.channels,
                "video_codec": video.codec,
                "video_frames_received": video.received,
                "video_frames": video.decoded,
                "video_width": video.width,
                "video_height": video.height,
                "first_video_frame_s": round(video.first_decoded_s, 3) if video.first_decoded_s is not None else None,
                "pipeline_warnings": len(receiver.peer.warnings),
                "warnings": receiver.peer.warnings[:10],
            })
        summary["failure"] = session.failure
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if session.failure:
        log(f"subscriber: error: {session.failure}")
        return 1
    return 0


def main() -> int:
    return run_main("subscriber", parse_args, run)


if __name__ == "__main__":
    sys.exit(main())
