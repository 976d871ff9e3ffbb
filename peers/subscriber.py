#!/usr/bin/env python3
"""Test subscriber: records one VideoRoom publisher's audio, video and data.

Run with <repo>/.venv/bin/python. Joins as a Janus 1.x multistream subscriber to the feed
(found by --feed-id or by display name via listparticipants), answers Janus's offer, opens
its own data channel "JanusDataChannel" (Janus relays data to a subscriber only after that),
and writes into --out:
  audio.wav     received audio as decoded (s16, 48 kHz, channels as decoded)
  video.webm    received video re-encoded with VP8 (libvpx), timestamps from RTP
  data.jsonl    one line per data message: {"t": seconds since start, "label": ..., "data": ...}
  summary.json  frame/sample/message counts, written at exit
With --media-recorder FILE, audio and video go instead to aiortc's own MediaRecorder (FILE, e.g.
recording.mkv), as an aiortc user records; its frame counts come from probing FILE afterwards.
--sdp-out DIR keeps Janus's offer and our answer (offer.sdp, answer.sdp) for comparison.
Prints READY once ICE+DTLS are connected. Runs until SIGTERM/SIGINT or --duration.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import signal
import sys
import time
import wave
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from labnet import pin_ice_to_lab, rtc_configuration  # noqa: E402

pin_ice_to_lab()

import av  # noqa: E402
from aiortc import RTCPeerConnection, RTCSessionDescription  # noqa: E402
from aiortc.contrib.media import MediaRecorder  # noqa: E402
from aiortc.mediastreams import MediaStreamError  # noqa: E402

from janus_client import run_main, JanusClient, JanusError, log, make_token  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ws", required=True)
    p.add_argument("--room", required=True)
    feed = p.add_mutually_exclusive_group(required=True)
    feed.add_argument("--feed-display", help="subscribe to the publisher with this display name")
    feed.add_argument("--feed-id", help="subscribe to this publisher id")
    p.add_argument("--out", required=True, help="output directory (created)")
    p.add_argument("--duration", type=float, default=0.0, help="seconds to record after READY (0: until signalled)")
    p.add_argument("--token", help="Janus core token sent on every request")
    p.add_argument("--token-secret", help="compute a videoroom token from this token_auth_secret")
    p.add_argument("--pin", help="room pin")
    p.add_argument("--find-timeout", type=float, default=15.0, help="seconds to wait for the feed (and its room) to appear")
    p.add_argument("--connect-timeout", type=float, default=20.0)
    p.add_argument("--media-recorder", metavar="FILE", help="record with aiortc's MediaRecorder into FILE instead")
    p.add_argument("--sdp-out", metavar="DIR", help="write Janus's offer and our answer here")
    p.add_argument("--verbose", action="store_true")
    return p.parse_args(argv)


class AudioSink:
    """Writes decoded audio frames to a WAV file as they arrive."""

    def __init__(self, path: Path):
        self.path = path
        self.wav: wave.Wave_write | None = None
        self.frames = 0
        self.samples = 0
        self.rate = 0
        self.channels = 0

    def write(self, frame: av.AudioFrame) -> None:
        if frame.format.name != "s16" or frame.format.is_planar:
            frame = av.AudioResampler(format="s16", layout=frame.layout.name, rate=frame.sample_rate).resample(frame)[0]
        if self.wav is None:
            self.rate = frame.sample_rate
            self.channels = len(frame.layout.channels)
            self.wav = wave.open(str(self.path), "wb")
            self.wav.setnchannels(self.channels)
            self.wav.setsampwidth(2)
            self.wav.setframerate(self.rate)
        if len(frame.layout.channels) != self.channels or frame.sample_rate != self.rate:
            return  # format changed mid-stream: keep the file consistent
        self.wav.writeframes(bytes(frame.planes[0])[: frame.samples * self.channels * 2])
        self.frames += 1
        self.samples += frame.samples

    def close(self) -> None:
        if self.wav is not None:
            self.wav.close()
            self.wav = None


class VideoSink:
    """Re-encodes decoded video frames to VP8 in WebM, pts from the RTP clock (90 kHz)."""

    def __init__(self, path: Path):
        self.path = path
        self.container = None
        self.stream = None
        self.frames = 0     # frames received
        self.written = 0    # frames encoded
        self.width = self.height = 0
        self._pts0: int | None = None
        self._last = -1

    def write(self, frame: av.VideoFrame) -> None:
        self.frames += 1
        if self.container is None:
            self.width, self.height = frame.width, frame.height
            self.container = av.open(str(self.path), mode="w", format="webm")
            self.stream = self.container.add_stream("libvpx", rate=30, options={
                "deadline": "realtime", "cpu-used": "8", "b": "1500k"})
            self.stream.width, self.stream.height = self.width, self.height
            self.stream.pix_fmt = "yuv420p"
            self.stream.codec_context.time_base = Fraction(1, 1000)
        if frame.pts is None or frame.time_base is None:
            return
        if self._pts0 is None:
            self._pts0 = frame.pts
        ms = int((frame.pts - self._pts0) * frame.time_base * 1000)
        if ms <= self._last:
            return  # keep timestamps strictly increasing
        self._last = ms
        if frame.width != self.width or frame.height != self.height or frame.format.name != "yuv420p":
            frame = frame.reformat(width=self.width, height=self.height, format="yuv420p")
        out = frame
        out.pts = ms
        out.time_base = Fraction(1, 1000)
        for packet in self.stream.encode(out):
            self.container.mux(packet)
        self.written += 1

    def close(self) -> None:
        if self.container is not None:
            for packet in self.stream.encode(None):
                self.container.mux(packet)
            self.container.close()
            self.container = None


async def find_feed(handle, args) -> str:
    if args.feed_id:
        return args.feed_id
    deadline = time.monotonic() + args.find_timeout
    while True:
        body = {"request": "listparticipants", "room": args.room}
        try:
            data, _ = await handle.message(body)
        except JanusError as exc:
            # 426 no such room: the publisher we wait for may be the one creating it.
            if exc.code != 426:
                raise
            data = {}
        for p in data.get("participants", []):
            if p.get("display") == args.feed_display and p.get("publisher"):
                return p["id"]
        if time.monotonic() >= deadline:
            raise TimeoutError(f"no publisher named {args.feed_display!r} in room {args.room!r} "
                               f"after {args.find_timeout}s")
        await asyncio.sleep(0.2)


async def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    token = args.token or (make_token(args.token_secret) if args.token_secret else None)
    client = JanusClient(args.ws, token=token, verbose=args.verbose)
    pc = RTCPeerConnection(rtc_configuration())
    audio = AudioSink(out / "audio.wav")
    video = VideoSink(out / "video.webm")
    data_file = open(out / "data.jsonl", "w")
    data_count = 0
    t0 = time.monotonic()
    started_at = None
    ended_at = None
    feed_id = None
    handle = None
    failure: str | None = None
    consumers: list[asyncio.Task] = []

    # VP8 re-encoding takes milliseconds per frame: it runs on its own thread (one, to keep
    # frame order) so the event loop keeps serving RTP, RTCP and SCTP on time.
    video_thread = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="webm")

    async def consume(track) -> None:
        sink = audio if track.kind == "audio" else video
        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            try:
                if sink is video:
                    await loop.run_in_executor(video_thread, video.write, frame)
                else:
                    audio.write(frame)
            except Exception as exc:  # never let a bad frame kill the recorder
                log(f"subscriber: {track.kind} frame dropped: {exc}")

    recorder = MediaRecorder(args.media_recorder) if args.media_recorder else None

    @pc.on("track")
    def _on_track(track) -> None:
        if recorder is not None:
            recorder.addTrack(track)
        else:
            consumers.append(asyncio.ensure_future(consume(track)))

    def on_message(label: str, message) -> None:
        nonlocal data_count
        data_count += 1
        payload = message if isinstance(message, str) else message.hex()
        data_file.write(json.dumps({"t": round(time.monotonic() - t0, 4), "label": label,
                                    "binary": not isinstance(message, str), "data": payload}) + "\n")
        data_file.flush()

    def watch_channel(ch) -> None:
        ch.on("message", lambda m: on_message(ch.label, m))

    @pc.on("datachannel")
    def _on_datachannel(ch) -> None:
        watch_channel(ch)

    try:
        await client.connect()
        await client.create_session()
        handle = await client.attach()
        feed_id = await find_feed(handle, args)

        join = {"request": "join", "ptype": "subscriber", "room": args.room, "streams": [{"feed": feed_id}]}
        if args.pin:
            join["pin"] = args.pin
        data, jsep = await handle.message(join)
        if data.get("videoroom") != "attached" or not jsep:
            raise RuntimeError(f"unexpected subscriber join reply: {data}")
        await pc.setRemoteDescription(RTCSessionDescription(sdp=jsep["sdp"], type=jsep["type"]))
        if "m=application" in jsep["sdp"]:
            watch_channel(pc.createDataChannel("JanusDataChannel"))
        await pc.setLocalDescription(await pc.createAnswer())
        answer = {"type": pc.localDescription.type, "sdp": pc.localDescription.sdp}
        if args.sdp_out:
            Path(args.sdp_out).mkdir(parents=True, exist_ok=True)
            (Path(args.sdp_out) / "offer.sdp").write_text(jsep["sdp"])
            (Path(args.sdp_out) / "answer.sdp").write_text(answer["sdp"])
        if recorder is not None:
            await recorder.start()
        data, _ = await handle.message({"request": "start"}, jsep=answer)
        if data.get("started") != "ok":
            raise RuntimeError(f"unexpected start reply: {data}")
        await handle.trickle_completed()

        connected = loop.create_future()

        @pc.on("connectionstatechange")
        def _on_state() -> None:
            if connected.done():
                return
            if pc.connectionState == "connected":
                connected.set_result(None)
            elif pc.connectionState == "failed":
                connected.set_exception(RuntimeError("ICE/DTLS connection failed"))

        _on_state()
        try:
            await asyncio.wait_for(connected, args.connect_timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"not connected within {args.connect_timeout}s") from None
        started_at = time.monotonic()
        print("READY " + json.dumps({"feed": feed_id, "room": args.room}), flush=True)

        async def watch_janus() -> None:
            while True:
                ev = await handle.events.get()
                if args.verbose:
                    log("event:", json.dumps(ev)[:300])

        waits = [asyncio.create_task(stop.wait()), asyncio.create_task(watch_janus()),
                 asyncio.create_task(client.closed.wait())]
        if args.duration > 0:
            waits.append(asyncio.create_task(asyncio.sleep(args.duration)))
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        ended_at = time.monotonic()
        for t in waits:
            t.cancel()
        if client.closed.is_set():
            failure = "Janus WebSocket closed"
    finally:
        if handle is not None and not client.closed.is_set():
            try:
                await handle.message({"request": "leave"}, timeout=5)
            except Exception:
                pass
            try:
                await handle.detach()
            except Exception:
                pass
        if recorder is not None:
            await recorder.stop()
        await pc.close()
        for t in consumers:
            t.cancel()
        await asyncio.gather(*consumers, return_exceptions=True)
        video_thread.shutdown(wait=True)
        await client.close()
        audio.close()
        video.close()
        data_file.close()
        summary = {
            "feed": feed_id,
            "room": args.room,
            "recorded_s": round((ended_at or time.monotonic()) - started_at, 3) if started_at else 0.0,
            "audio_frames": audio.frames,
            "audio_samples": audio.samples,
            "audio_rate": audio.rate,
            "audio_channels": audio.channels,
            "video_frames": video.frames,
            "video_frames_written": video.written,
            "video_width": video.width,
            "video_height": video.height,
            "data_messages": data_count,
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if failure:
        log(f"subscriber: error: {failure}")
        return 1
    return 0


def main() -> int:
    return run_main("subscriber", parse_args, run)


if __name__ == "__main__":
    sys.exit(main())
