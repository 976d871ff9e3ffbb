#!/usr/bin/python3
"""GStreamer test publisher: webrtcbin publishing a 440 Hz tone (Opus) and a test pattern
(VP8, or H.264 from x264enc or openh264enc) into a Janus VideoRoom.

Run with /usr/bin/python3 (python3-gst-1.0). Flow as the aiortc publisher (peers/publisher.py):
create a session, attach janus.plugin.videoroom, optionally create the room, join as
publisher, then configure with our offer and set Janus's answer. Prints
`READY {"id": ..., "room": ...}` on stdout once ICE+DTLS are connected; runs until
SIGTERM/SIGINT or --duration, then unpublishes, leaves and destroys the session. With --out,
writes summary.json there at exit (frames and audio buffers encoded, codec, size). Errors go
to stderr with exit 1.

H.264 goes out as constrained baseline in packetization-mode 1 (FU-A, STAP-A for SPS/PPS),
which is what browsers and Janus expect; SPS and PPS precede every IDR frame.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peer import Session, WebRTCPeer, add_janus_arguments, emit_with_promise, run_main, wait_for  # noqa: E402

from gi.repository import Gst, GstWebRTC  # noqa: E402

from janus_protocol import ROOM_EXISTS, JanusError  # noqa: E402

VIDEO_PT = {"vp8": 96, "h264": 102}
AUDIO_PT = 111

# Encoders tuned for a live call: no lookahead, a keyframe at least every 2 s (also sent at
# once on a PLI: webrtcbin forwards the request upstream as a force-key-unit event).
VIDEO_ENCODERS = {
    "vp8": "vp8enc deadline=1 cpu-used=8 keyframe-max-dist=60 target-bitrate={bitrate} error-resilient=partitions"
           " ! rtpvp8pay pt={pt} picture-id-mode=15-bit mtu=1200",
    "x264enc": "x264enc tune=zerolatency speed-preset=ultrafast key-int-max=60 bitrate={kbps}"
               " ! video/x-h264,profile=constrained-baseline,stream-format=byte-stream"
               " ! h264parse ! rtph264pay pt={pt} config-interval=-1 aggregate-mode=zero-latency mtu=1200",
    "openh264enc": "openh264enc complexity=low usage-type=camera rate-control=bitrate gop-size=60 bitrate={bitrate}"
                   " ! video/x-h264,profile=constrained-baseline,stream-format=byte-stream"
                   " ! h264parse ! rtph264pay pt={pt} config-interval=-1 aggregate-mode=zero-latency mtu=1200",
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_janus_arguments(p)
    p.add_argument("--display", required=True, help="display name")
    p.add_argument("--create", action="store_true", help="create the room first (ignores 'already exists')")
    p.add_argument("--max-publishers", type=int, default=16, help="publisher limit of a room made by --create")
    p.add_argument("--room-videocodec", default="vp8,vp9,h264", help="videocodec of a room made by --create")
    p.add_argument("--video-codec", choices=("vp8", "h264"), default="vp8")
    p.add_argument("--h264-encoder", choices=("x264enc", "openh264enc"), default="x264enc")
    p.add_argument("--tone", type=float, default=440.0, help="sine frequency in Hz (default 440)")
    p.add_argument("--video", default="640x480", help="WxH (default 640x480)")
    p.add_argument("--fps", type=int, default=30)
    p.add_argument("--video-bitrate", type=int, default=800_000, help="bits per second")
    p.add_argument("--no-audio", action="store_true")
    p.add_argument("--no-video", action="store_true")
    p.add_argument("--out", help="directory for summary.json (created)")
    args = p.parse_args(argv)
    try:
        args.width, args.height = (int(v) for v in args.video.lower().split("x"))
    except ValueError:
        p.error(f"--video must be WxH, got {args.video!r}")
    if args.width <= 0 or args.height <= 0 or args.fps <= 0:
        p.error("--video and --fps must be positive")
    if args.no_audio and args.no_video:
        p.error("nothing to publish")
    return args


def encoder_name(args: argparse.Namespace) -> str:
    return "vp8" if args.video_codec == "vp8" else args.h264_encoder


def pipeline_description(args: argparse.Namespace) -> str:
    parts = ["webrtcbin name=webrtc"]
    if not args.no_video:
        encoder = VIDEO_ENCODERS[encoder_name(args)].format(
            bitrate=args.video_bitrate, kbps=args.video_bitrate // 1000, pt=VIDEO_PT[args.video_codec])
        encoding = "VP8" if args.video_codec == "vp8" else "H264"
        parts.append(
            f"videotestsrc is-live=true pattern=ball ! video/x-raw,width={args.width},height={args.height},"
            f"framerate={args.fps}/1 ! videoconvert ! video/x-raw,format=I420 ! queue max-size-buffers=2 leaky=downstream"
            f" ! {encoder.replace(' ! ', ' name=venc ! ', 1)}"
            f" ! application/x-rtp,media=video,encoding-name={encoding},clock-rate=90000,payload={VIDEO_PT[args.video_codec]}"
            " ! webrtc.")
    if not args.no_audio:
        # Stereo, as aiortc's tone: an upmix of mono at the receiver would lower it by 3 dB.
        parts.append(
            f"audiotestsrc is-live=true wave=sine freq={args.tone} volume=0.5 ! audioconvert ! audioresample"
            " ! audio/x-raw,rate=48000,channels=2 ! opusenc bitrate=64000 frame-size=20 name=aenc"
            f" ! rtpopuspay pt={AUDIO_PT} mtu=1200 ! application/x-rtp,media=audio,encoding-name=OPUS,clock-rate=48000,payload={AUDIO_PT} ! webrtc.")
    return " ".join(parts)


class Counter:
    """Buffers leaving an element's src pad (a pad probe on the streaming thread)."""

    def __init__(self, element: Gst.Element | None):
        self.count = 0
        if element is not None:
            element.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, self._probe)

    def _probe(self, _pad, _info) -> Gst.PadProbeReturn:
        self.count += 1
        return Gst.PadProbeReturn.OK


def prepare_transceivers(webrtc: Gst.Element) -> None:
    """Send-only, with NACK answered from webrtcbin's retransmission store (do-nack)."""
    index = 0
    while (transceiver := webrtc.emit("get-transceiver", index)) is not None:
        transceiver.set_property("direction", GstWebRTC.WebRTCRTPTransceiverDirection.SENDONLY)
        transceiver.set_property("do-nack", True)
        index += 1


def run(args: argparse.Namespace) -> int:
    session = Session(args, "publisher")
    joined = published = False
    video = audio = Counter(None)
    elapsed = 0.0
    try:
        handle = session.open()
        if args.create:
            body = {"request": "create", "room": args.room, "publishers": args.max_publishers,
                    "audiocodec": "opus", "videocodec": args.room_videocodec}
            if args.pin:
                body["pin"] = args.pin
            try:
                handle.message(body)
            except JanusError as exc:
                if exc.code != ROOM_EXISTS:
                    raise

        join = {"request": "join", "ptype": "publisher", "room": args.room, "display": args.display}
        if args.pin:
            join["pin"] = args.pin
        data, _ = handle.message(join)
        if data.get("videoroom") != "joined":
            raise RuntimeError(f"unexpected join reply: {data}")
        joined = True
        my_id = data["id"]

        pipeline = Gst.parse_launch(pipeline_description(args))
        peer = session.peer = WebRTCPeer(pipeline, session.host_ip)
        video, audio = Counter(pipeline.get_by_name("venc")), Counter(pipeline.get_by_name("aenc"))
        negotiation_needed = threading.Event()
        peer.webrtc.connect("on-negotiation-needed", lambda _w: negotiation_needed.set())
        prepare_transceivers(peer.webrtc)
        peer.start()
        # webrtcbin asks for negotiation once caps have reached every sink pad.
        if not wait_for(negotiation_needed, 10, peer.failed, session.stop):
            if session.stop.is_set():
                raise InterruptedError("signalled before negotiation")
            raise RuntimeError(peer.failure or "no negotiation-needed within 10 s")
        offer = emit_with_promise(peer.webrtc, "create-offer", None, reply_field="offer")
        emit_with_promise(peer.webrtc, "set-local-description", offer)
        sdp = peer.local_description_when_gathered()

        data, jsep = handle.message({"request": "configure", "audio": not args.no_audio, "video": not args.no_video},
                                    jsep={"type": "offer", "sdp": sdp})
        if data.get("configured") != "ok" or not jsep:
            raise RuntimeError(f"unexpected configure reply: {data}")
        published = True
        session.keep_sdp(sdp, jsep["sdp"])
        peer.set_remote(GstWebRTC.WebRTCSDPType.ANSWER, jsep["sdp"])
        handle.trickle_completed()
        peer.wait_connected(args.connect_timeout, session.stop)
        session.ready({"id": my_id, "room": args.room})
        elapsed = session.run_until_done()
    finally:
        goodbye = ([{"request": "unpublish"}] if published else []) + ([{"request": "leave"}] if joined else [])
        session.close(goodbye)
        if args.out:
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            summary = {
                "room": args.room,
                "display": args.display,
                "published_s": round(elapsed, 3),
                "video_codec": None if args.no_video else args.video_codec,
                "video_encoder": None if args.no_video else encoder_name(args),
                "video_width": 0 if args.no_video else args.width,
                "video_height": 0 if args.no_video else args.height,
                "video_frames": video.count,
                "audio_codec": None if args.no_audio else "opus",
                "audio_frames": audio.count,
                "failure": session.failure,
            }
            (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if session.failure:
        print(f"publisher: error: {session.failure}", file=sys.stderr, flush=True)
        return 1
    return 0


def main() -> int:
    return run_main("publisher", parse_args, run)


if __name__ == "__main__":
    sys.exit(main())
