#!/usr/bin/env python3
"""Direct WebRTC offerer for transport tests, with no Janus in between.

aiortc offers a tone, a moving square and a data channel on 127.0.0.1 only. It prints its offer
as one JSON line `{"type": "offer", "sdp": ...}` on stdout, reads the answer as one JSON line on
stdin, then prints `CONNECTED` once ICE+DTLS are up, `DATA <text>` for every data channel
message it receives, and sends `ping <n>` text messages every --data-interval-ms. It stops on
SIGTERM, stdin EOF or --duration.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from labnet import pin_ice_to_lab, rtc_configuration  # noqa: E402

pin_ice_to_lab("127.0.0.1")

from aiortc import RTCPeerConnection, RTCSessionDescription  # noqa: E402

from media import SquareTrack, ToneTrack  # noqa: E402


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tone", type=float, default=440.0)
    parser.add_argument("--no-video", action="store_true")
    parser.add_argument("--data-interval-ms", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0)
    args = parser.parse_args()

    pc = RTCPeerConnection(rtc_configuration())
    pc.addTransceiver(ToneTrack(hz=args.tone), direction="sendonly")
    if not args.no_video:
        pc.addTransceiver(SquareTrack(), direction="sendonly")
    channel = pc.createDataChannel("test")
    connected = asyncio.Event()
    stop = asyncio.Event()

    def on_message(message) -> None:
        if isinstance(message, str):
            say("DATA " + message)
        else:
            say("BINARY " + message.hex())

    channel.on("message", on_message)

    @pc.on("datachannel")
    def on_datachannel(remote_channel) -> None:
        say("CHANNEL " + remote_channel.label)
        remote_channel.on("message", on_message)

    @pc.on("connectionstatechange")
    async def on_state() -> None:
        if pc.connectionState == "connected":
            connected.set()
            say("CONNECTED")
        elif pc.connectionState in ("failed", "closed"):
            say("STATE " + pc.connectionState)
            stop.set()

    await pc.setLocalDescription(await pc.createOffer())
    say(json.dumps({"type": "offer", "sdp": pc.localDescription.sdp}))

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    line = await loop.run_in_executor(None, sys.stdin.readline)
    if not line:
        return 1
    answer = json.loads(line)
    await pc.setRemoteDescription(RTCSessionDescription(sdp=answer["sdp"], type="answer"))

    async def pinger() -> None:
        await connected.wait()
        n = 0
        while not stop.is_set():
            if channel.readyState == "open":
                channel.send(f"ping {n}")
                n += 1
            await asyncio.sleep(args.data_interval_ms / 1000)

    async def stdin_closed() -> None:
        await loop.run_in_executor(None, sys.stdin.read)
        stop.set()

    tasks = [asyncio.create_task(pinger()), asyncio.create_task(stdin_closed())]
    try:
        await asyncio.wait_for(stop.wait(), timeout=args.duration)
    except asyncio.TimeoutError:
        pass
    for task in tasks:
        task.cancel()
    await pc.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
