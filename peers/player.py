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
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

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
    p.add_argument("--no-decode", action="store_true",
                   help="send the stored packets without decoding and re-encoding (MediaPlayer decode=False)")
    publisher.add_session_arguments(p)
    args = p.parse_args(argv)
    if not args.audio and not args.video:
        p.error("give --audio, --video or both")
    for path in (args.audio, args.video):
        if path and not Path(path).is_file():
            p.error(f"no such file: {path}")
    args.no_audio = args.audio is None
    args.no_video = args.video is None
    return args


class ReplayTrack(MediaStreamTrack):
    """One kind of one file through MediaPlayer, pass after pass when `loop` is set, with pts
    continuing across passes (one frame step after the previous pass's last frame)."""

    def __init__(self, path: str, kind: str, decode: bool, loop: bool):
        super().__init__()
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

    async def recv(self):
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
    tracks = []
    for path, kind in ((args.audio, "audio"), (args.video, "video")):
        if path is not None:
            track = ReplayTrack(path, kind, decode=not args.no_decode, loop=args.loop)
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
