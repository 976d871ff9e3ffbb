#!/usr/bin/env python3
"""Benchmark anchor: publishes media files into a Janus VideoRoom with aiortc's MediaPlayer.

Run with <repo>/.venv/bin/python. The counterpart of `agentd play --audio A --video V`:
aiortc.contrib.media.MediaPlayer reads each file and by default decodes it, so aiortc
re-encodes the frames (Opus, VP8) before sending. With --no-decode MediaPlayer hands the
stored packets on as they are (aiortc's own pass-through). No data channel is opened (agentd
play opens none either). The Janus side (join, publish, READY, teardown) is publisher.py's.
Prints `READY {"id": ..., "room": ...}` once connected; runs until SIGTERM/SIGINT or --duration.

--loop does not use MediaPlayer(loop=True): in aiortc 1.14 its pacing breaks after the first
pass (after the seek to 0 both the decode thread's read-ahead check and the track's clock see
pts from 0 again, so it decodes as fast as it can, queues without bound and sends video faster
than real time; aiortc issue #869). A ReplayTrack opens a fresh MediaPlayer for each pass
instead and carries the timestamps on, so every pass is paced like the first.

--play-on-stdin (a test's cue): the audio track sends paced silence until a line arrives on
stdin, then the file (decoded: not with --no-decode); `PLAYING` is printed when the file starts and
`PLAYED` when it ends (without --loop).
"""

from __future__ import annotations

import argparse
import asyncio
import fractions
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import av  # noqa: E402
from aiortc import RTCPeerConnection  # noqa: E402
from aiortc.contrib.media import MediaPlayer  # noqa: E402
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack  # noqa: E402

import publisher  # noqa: E402  (pins aioice to the lab address on import)
from janus_client import run_main  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    publisher.add_room_arguments(p)
    p.add_argument("--audio", help="audio file MediaPlayer can open (e.g. Ogg/Opus)")
    p.add_argument("--video", help="video file MediaPlayer can open (e.g. VP8 IVF)")
    p.add_argument("--loop", action="store_true", help="play the files again from the start at their end")
    p.add_argument("--play-on-stdin", action="store_true",
                   help="send silence on the audio track until a line arrives on stdin, then the file")
    p.add_argument("--no-decode", action="store_true",
                   help="send the stored packets without decoding and re-encoding (MediaPlayer decode=False)")
    publisher.add_session_arguments(p)
    args = p.parse_args(argv)
    if not args.audio and not args.video:
        p.error("give --audio, --video or both")
    if args.play_on_stdin and (args.no_decode or not args.audio):
        p.error("--play-on-stdin needs --audio, decoded (not --no-decode)")
    for path in (args.audio, args.video):
        if path and not Path(path).is_file():
            p.error(f"no such file: {path}")
    args.no_audio = args.audio is None
    args.no_video = args.video is None
    return args


class ReplayTrack(MediaStreamTrack):
    """One kind of one file through MediaPlayer, pass after pass when `loop` is set, with pts
    continuing across passes (one frame step after the previous pass's last frame)."""

    def __init__(self, path: str, kind: str, decode: bool, loop: bool, cue: asyncio.Event | None = None):
        super().__init__()
        self.cue = cue if kind == "audio" and decode else None
        self._silence_began = 0.0
        self.kind = kind
        self.path = path
        self.decode = decode
        self.loop = loop
        self.passes = 0
        self._inner: MediaStreamTrack | None = None
        self._offset = 0
        self._last_pts: int | None = None
        self._step = 0
        self._open()

    def _open(self) -> None:
        player = MediaPlayer(self.path, decode=self.decode)
        track = player.audio if self.kind == "audio" else player.video
        if track is None:
            raise RuntimeError(f"{self.path} has no {self.kind} stream")
        self._inner = track
        self.passes += 1

    async def _silent_frame(self):
        """The next 20 ms of silence, paced, in the format MediaPlayer decodes audio to (s16
        stereo at 48 kHz: the encoder's resampler takes one format only)."""
        if self._last_pts is None:
            self._silence_began = time.monotonic()
        pts = 0 if self._last_pts is None else self._last_pts + 960
        wait = self._silence_began + pts / 48000 - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        frame = av.AudioFrame(format="s16", layout="stereo", samples=960)
        for plane in frame.planes:
            plane.update(bytes(plane.buffer_size))
        frame.sample_rate = 48000
        frame.time_base = fractions.Fraction(1, 48000)
        frame.pts = pts
        self._last_pts = pts
        self._step = 960
        return frame

    async def recv(self):
        if self.cue is not None:
            if not self.cue.is_set():
                return await self._silent_frame()
            self.cue = None
            if self._last_pts is not None:
                self._offset = self._last_pts + self._step
                self._last_pts = None
            print("PLAYING", flush=True)
        while True:
            if self.readyState != "live":
                raise MediaStreamError
            if self._inner is None:
                self._open()
            try:
                frame = await self._inner.recv()
            except MediaStreamError:
                self._inner.stop()
                self._inner = None
                if not self.loop:
                    print("PLAYED", flush=True)
                    self.stop()
                    raise
                if self._last_pts is not None:
                    self._offset = self._last_pts + self._step
                    self._last_pts = None
                continue
            if frame.pts is not None:
                pts = frame.pts + self._offset
                if self._last_pts is not None:
                    self._step = pts - self._last_pts
                self._last_pts = pts
                frame.pts = pts
            return frame

    def stop(self) -> None:
        super().stop()
        if self._inner is not None:
            self._inner.stop()
            self._inner = None


def add_file_media(pc: RTCPeerConnection, args: argparse.Namespace) -> Callable[[], None]:
    """One ReplayTrack per file, added to pc. Returns what stops them."""
    cue: asyncio.Event | None = None
    if args.play_on_stdin:
        cue = asyncio.Event()
        loop = asyncio.get_running_loop()

        def cued() -> None:
            loop.remove_reader(sys.stdin.fileno())
            cue.set()

        loop.add_reader(sys.stdin.fileno(), cued)
    tracks = []
    for path, kind in ((args.audio, "audio"), (args.video, "video")):
        if path is not None:
            track = ReplayTrack(path, kind, decode=not args.no_decode, loop=args.loop, cue=cue)
            pc.addTrack(track)
            tracks.append(track)

    def stop_players() -> None:
        for track in tracks:
            track.stop()

    return stop_players


async def run(args: argparse.Namespace) -> int:
    return await publisher.run(args, add_media=add_file_media)


def main() -> int:
    return run_main("player", parse_args, run)


if __name__ == "__main__":
    sys.exit(main())
