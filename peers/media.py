"""Synthetic media tracks for the test publisher: a sine tone and a moving square.

Both are paced by the wall clock from their first frame and stamp frames with pts in their
media clock (48 kHz for audio, 90 kHz for video), so an encoder sees a steady real-time source.

For A/V sync tests both tracks can share one ``MediaStart``: media time t then means the same
wall instant (start + t) in both, and a frame is released at exactly that instant. With a sync
pulse period P, media time k*P is marked in both tracks: the tone track plays a 1 kHz beep
starting on that sample (silence otherwise) and the square track shows one full white frame.
Since aiortc maps pts to RTP linearly and stamps its sender reports at send time, a receiver
that aligns the tracks by RTCP SR sees the beep and the white frame at the same instant.
"""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction

import av
import numpy as np
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack


class MediaStart:
    """The wall-clock instant (time.monotonic) that is media time 0 for every track sharing it.

    Set by whichever track produces its first frame first; a track starting later begins at the
    media time that has elapsed since then, so its pts stay on the shared clock.
    """

    def __init__(self) -> None:
        self.start: float | None = None

    def claim(self) -> tuple[float, float]:
        """(start, seconds elapsed since start), fixing start now if nobody has yet."""
        now = time.monotonic()
        if self.start is None:
            self.start = now
        return self.start, now - self.start


class ToneTrack(MediaStreamTrack):
    """s16 sine at `hz` on both stereo channels, 48 kHz, 20 ms frames (960 samples), pts in samples.

    Stereo because aiortc's Opus encoder resamples to stereo, and an upmix from mono would
    lower the level by 3 dB.
    """

    kind = "audio"

    BEEP_HZ = 1000.0
    BEEP_MS = 50

    def __init__(self, hz: float = 440.0, rate: int = 48000, ptime: float = 0.02, amplitude: float = 0.3,
                 start: MediaStart | None = None, pulse_ms: int = 0, gate_ms: tuple[int, int] = (0, 0),
                 schedule: tuple[list[tuple[int, int]], int, float] | None = None):
        super().__init__()
        # (on intervals in ms within the period, period ms, epoch in Unix seconds): the tone
        # sounds where the wall-clock time since the epoch, modulo the period, is in an interval;
        # silence before the epoch. Publishers given one epoch take turns on one clock.
        self.schedule = schedule
        self._wall_start: float | None = None
        self.hz = hz
        self.rate = rate
        self.samples = int(rate * ptime)
        self.amplitude = amplitude
        self.sent = 0  # media time in samples of the next frame
        self.frames = 0
        self._start: float | None = None
        self._shared = start
        self.pulse_samples = rate * pulse_ms // 1000
        self.beep_samples = rate * self.BEEP_MS // 1000
        # (on, off) in samples: the tone sounds for `on`, then silence for `off`, repeating.
        self.gate = (rate * gate_ms[0] // 1000, rate * gate_ms[1] // 1000)

    async def recv(self) -> av.AudioFrame:
        if self.readyState != "live":
            raise MediaStreamError
        if self._start is None:
            if self._shared is None:
                self._start = time.monotonic()
            else:
                # Join the shared clock on the next frame boundary.
                self._start, elapsed = self._shared.claim()
                self.sent = int(np.ceil(elapsed * self.rate / self.samples)) * self.samples
        wait = self._start + self.sent / self.rate - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        n = np.arange(self.sent, self.sent + self.samples, dtype=np.int64)
        if self.pulse_samples > 0:
            # Beep: BEEP_HZ from phase 0 at each multiple of the pulse period, silence otherwise.
            offset = np.mod(n, self.pulse_samples)
            phase = np.mod(offset * self.BEEP_HZ, self.rate) / self.rate
            beep = np.where(offset < self.beep_samples, np.sin(2 * np.pi * phase), 0.0)
            pcm = (self.amplitude * 32767 * beep).astype(np.int16)
        else:
            # Phase reduced per cycle so long runs keep full float precision.
            phase = np.mod(n.astype(np.float64) * self.hz, self.rate) / self.rate
            wave = np.sin(2 * np.pi * phase)
            if self.gate[0] > 0:
                wave = np.where(np.mod(n, self.gate[0] + self.gate[1]) < self.gate[0], wave, 0.0)
            if self.schedule is not None:
                if self._wall_start is None:
                    self._wall_start = time.time() - (time.monotonic() - self._start)
                intervals, period, epoch = self.schedule
                since_ms = (self._wall_start + n / self.rate - epoch) * 1000.0
                at = np.mod(since_ms, period)
                on = np.zeros(len(n), dtype=bool)
                for begin, end in intervals:
                    on |= (at >= begin) & (at < end)
                wave = np.where(on & (since_ms >= 0), wave, 0.0)
            pcm = (self.amplitude * 32767 * wave).astype(np.int16)
        frame = av.AudioFrame.from_ndarray(np.repeat(pcm, 2).reshape(1, -1), format="s16", layout="stereo")
        frame.sample_rate = self.rate
        frame.pts = self.sent
        frame.time_base = Fraction(1, self.rate)
        self.sent += self.samples
        self.frames += 1
        return frame


class SquareTrack(MediaStreamTrack):
    """yuv420p frames: a flat background (dark grey unless `background` gives Y, U, V) with a
    bright square that moves across it.

    With a pulse period, a frame whose pts is a multiple of it is full white instead.
    """

    kind = "video"
    CLOCK = 90000

    def __init__(self, width: int = 640, height: int = 480, fps: float = 30.0,
                 start: MediaStart | None = None, pulse_ms: int = 0,
                 background: tuple[int, int, int] = (48, 128, 128)):
        super().__init__()
        self.background = background
        self.fps = fps
        self.frames = 0
        self._start: float | None = None
        self._shared = start
        self.pulse_ticks = self.CLOCK * pulse_ms // 1000
        self.resize(width, height)

    def resize(self, width: int, height: int) -> None:
        """Sends pictures of this size from the next frame on (the encoder restarts: a keyframe)."""
        if width % 2 or height % 2 or width < 16 or height < 16:
            raise ValueError("video size must be even and at least 16x16")
        self.width, self.height = width, height
        self._white = np.empty((height * 3 // 2, width), dtype=np.uint8)
        self._white[:height] = 235
        self._white[height:] = 128
        self._base = np.empty((height * 3 // 2, width), dtype=np.uint8)
        y, u, v = self.background
        self._base[:height] = y
        self._base[height:height + height // 4] = u
        self._base[height + height // 4:] = v
        self._size = max(8, (min(width, height) // 6) & ~1)

    async def recv(self) -> av.VideoFrame:
        if self.readyState != "live":
            raise MediaStreamError
        if self._start is None:
            if self._shared is None:
                self._start = time.monotonic()
            else:
                self._start, elapsed = self._shared.claim()
                self.frames = int(np.ceil(elapsed * self.fps))
        wait = self._start + self.frames / self.fps - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        pts = int(round(self.frames * self.CLOCK / self.fps))
        if self.pulse_ticks > 0 and pts % self.pulse_ticks == 0:
            frame = av.VideoFrame.from_ndarray(self._white, format="yuv420p")
            frame.pts = pts
            frame.time_base = Fraction(1, self.CLOCK)
            self.frames += 1
            return frame
        img = self._base.copy()
        s, w, h = self._size, self.width, self.height
        span_x, span_y = w - s, h - s
        x = (self.frames * 4) % (2 * span_x)
        y = (self.frames * 3) % (2 * span_y)
        x = x if x < span_x else 2 * span_x - x
        y = y if y < span_y else 2 * span_y - y
        x, y = x & ~1, y & ~1
        img[y:y + s, x:x + s] = 235
        # Colour the square (U plane then V plane rows follow the Y plane).
        u0, v0 = h, h + h // 4
        ux, uy, us = x // 2, y // 2, s // 2
        uv_w = w // 2
        u = img[u0:v0].reshape(h // 2, uv_w)
        v = img[v0:].reshape(h // 2, uv_w)
        u[uy:uy + us, ux:ux + us] = 90
        v[uy:uy + us, ux:ux + us] = 200
        frame = av.VideoFrame.from_ndarray(img, format="yuv420p")
        frame.pts = pts
        frame.time_base = Fraction(1, self.CLOCK)
        self.frames += 1
        return frame
