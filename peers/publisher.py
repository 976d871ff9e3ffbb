#!/usr/bin/env python3
"""Test publisher: joins a Janus VideoRoom and publishes a tone, a moving square and data.

Run with <repo>/.venv/bin/python. Prints `READY {"id": ..., "room": ...}` on stdout once the
publish is configured and ICE+DTLS are connected; runs until SIGTERM/SIGINT or --duration,
then unpublishes, leaves and destroys the session. Errors go to stderr with a non-zero exit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from labnet import pin_ice_to_lab, rtc_configuration  # noqa: E402

pin_ice_to_lab()

from aiortc import RTCPeerConnection, RTCSessionDescription  # noqa: E402

from janus_client import run_main, JanusClient, JanusError, log, make_token  # noqa: E402
from media import MediaStart, SquareTrack, ToneTrack  # noqa: E402

ALREADY_EXISTS = 427


def add_room_arguments(p: argparse.ArgumentParser) -> None:
    """Where and as whom to publish: shared with player.py."""
    p.add_argument("--ws", required=True, help="Janus WebSocket URL, e.g. ws://10.77.0.2:8188/")
    p.add_argument("--room", required=True, help="room id (string ids)")
    p.add_argument("--display", required=True, help="display name")
    p.add_argument("--create", action="store_true", help="create the room first (ignores 'already exists')")
    p.add_argument("--max-publishers", type=int, default=16, help="publisher limit of a room made by --create")
    p.add_argument("--token", help="Janus core token sent on every request")
    p.add_argument("--token-secret", help="compute a videoroom token from this token_auth_secret")
    p.add_argument("--pin", help="room pin (used for create and join)")


def add_session_arguments(p: argparse.ArgumentParser) -> None:
    """How long to publish and how to report: shared with player.py."""
    p.add_argument("--duration", type=float, default=0.0, help="seconds to publish (0: until signalled)")
    p.add_argument("--connect-timeout", type=float, default=20.0)
    p.add_argument("--verbose", action="store_true", help="log Janus messages to stderr")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_room_arguments(p)
    p.add_argument("--tone", type=float, default=440.0, help="sine frequency in Hz (default 440)")
    p.add_argument("--video", default="640x480", help="WxH (default 640x480)")
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--data-interval-ms", type=int, default=200, help="data channel message period (0: none)")
    p.add_argument("--sync-pulse-ms", type=int, default=0,
                   help="A/V sync pulse period: a 1 kHz beep (silence otherwise) and a white frame at each "
                        "multiple of it in media time, both tracks on one clock (0: off, the tone and square)")
    p.add_argument("--background", default="48,128,128", metavar="Y,U,V",
                   help="the video's background colour (default 48,128,128: dark grey), e.g. for telling tiles apart")
    p.add_argument("--tone-pattern", default="", metavar="ON_MS,OFF_MS",
                   help="sound the tone ON_MS, then silence OFF_MS, repeating from the first audio frame "
                        "(default: always on); the recording report's speech detection is checked against it")
    p.add_argument("--tone-schedule", default="", metavar="A-B,C-D/PERIOD@EPOCH",
                   help="the tone sounds in the intervals A-B, C-D (ms) of each PERIOD ms counted on the wall clock from "
                        "EPOCH (Unix seconds), silence before the epoch and elsewhere: publishers given one epoch take turns")
    p.add_argument("--no-audio", action="store_true")
    p.add_argument("--no-video", action="store_true")
    p.add_argument("--video-codec", choices=["vp8", "vp9", "h264"], help="offer only this video codec (default: aiortc's order, VP8 first)")
    p.add_argument("--republish-after", type=float, default=0.0, metavar="S",
                   help="after S seconds of READY, unpublish and publish again (a new PeerConnection) with "
                        "--republish-codec: a publisher switching codec mid-call; prints REPUBLISHED")
    p.add_argument("--republish-on-stdin", action="store_true",
                   help="republish as --republish-after does, but when a line arrives on stdin (a test that "
                        "waits until the first codec is recorded)")
    p.add_argument("--republish-codec", choices=["vp8", "vp9", "h264", "none"], default="h264",
                   help="the codec of the republish; none: only unpublish, stay in the room, print UNPUBLISHED")
    p.add_argument("--resize-after", type=float, default=0.0, metavar="S",
                   help="after S seconds of sending, send pictures of --resize-to instead; prints RESIZED")
    p.add_argument("--resize-to", default="176x144", metavar="WxH", help="the size --resize-after switches to")
    p.add_argument("--join-on-stdin", action="store_true",
                   help="connect and attach, print WAITING, and join only when a line arrives on stdin "
                        "(a test's late joiner, with Python's start-up already behind it)")
    add_session_arguments(p)
    args = p.parse_args(argv)
    try:
        w, h = (int(v) for v in args.video.lower().split("x"))
    except ValueError:
        p.error(f"--video must be WxH, got {args.video!r}")
    args.width, args.height = w, h
    try:
        args.resize_width, args.resize_height = (int(v) for v in args.resize_to.lower().split("x"))
    except ValueError:
        p.error(f"--resize-to must be WxH, got {args.resize_to!r}")
    if args.fps <= 0:
        p.error("--fps must be positive")
    try:
        args.background_yuv = tuple(int(v) for v in args.background.split(","))
    except ValueError:
        p.error(f"--background must be Y,U,V, got {args.background!r}")
    if len(args.background_yuv) != 3 or not all(0 <= v <= 255 for v in args.background_yuv):
        p.error(f"--background must be three numbers 0-255, got {args.background!r}")
    if args.sync_pulse_ms < 0:
        p.error("--sync-pulse-ms must not be negative")
    args.gate = (0, 0)
    if args.tone_pattern:
        try:
            on_ms, off_ms = (int(v) for v in args.tone_pattern.split(","))
        except ValueError:
            p.error(f"--tone-pattern must be ON_MS,OFF_MS, got {args.tone_pattern!r}")
        if on_ms <= 0 or off_ms <= 0:
            p.error("--tone-pattern times must be positive")
        args.gate = (on_ms, off_ms)
    args.schedule = None
    if args.tone_schedule:
        try:
            spans, rest = args.tone_schedule.split("/")
            period, epoch = rest.split("@")
            intervals = [tuple(int(v) for v in span.split("-")) for span in spans.split(",")]
            args.schedule = (intervals, int(period), float(epoch))
        except ValueError:
            p.error(f"--tone-schedule must be A-B,C-D/PERIOD@EPOCH, got {args.tone_schedule!r}")
        if args.schedule[1] <= 0 or any(len(i) != 2 or not 0 <= i[0] < i[1] <= args.schedule[1] for i in intervals):
            p.error("--tone-schedule intervals must be within the period")
    return args


async def wait_connected(pc: RTCPeerConnection, timeout: float) -> None:
    done = asyncio.get_running_loop().create_future()

    @pc.on("connectionstatechange")
    def _on_state() -> None:
        if pc.connectionState == "connected" and not done.done():
            done.set_result(None)
        elif pc.connectionState == "failed" and not done.done():
            done.set_exception(RuntimeError("ICE/DTLS connection failed"))

    _on_state()
    try:
        await asyncio.wait_for(done, timeout)
    except asyncio.TimeoutError:
        raise TimeoutError(f"not connected within {timeout}s (state {pc.connectionState})") from None


def add_synthetic_media(pc: RTCPeerConnection, args: argparse.Namespace) -> Callable[[], None]:
    """The tone, the moving square and a data channel sending a JSON line every
    --data-interval-ms. Returns what stops the data sender."""
    start = MediaStart() if args.sync_pulse_ms > 0 else None
    if not args.no_audio:
        pc.addTrack(ToneTrack(args.tone, start=start, pulse_ms=args.sync_pulse_ms, gate_ms=getattr(args, "gate", (0, 0)),
                              schedule=getattr(args, "schedule", None)))
    resize_task: asyncio.Task | None = None
    if not args.no_video:
        square = SquareTrack(args.width, args.height, args.fps, start=start, pulse_ms=args.sync_pulse_ms,
                             background=getattr(args, "background_yuv", (48, 128, 128)))
        pc.addTrack(square)
        if getattr(args, "resize_after", 0) > 0:
            async def resize() -> None:
                await asyncio.sleep(args.resize_after)
                square.resize(args.resize_width, args.resize_height)
                print("RESIZED " + json.dumps({"width": args.resize_width, "height": args.resize_height}), flush=True)
            resize_task = asyncio.ensure_future(resize())
    channel = pc.createDataChannel("data")
    sender_task: asyncio.Task | None = None

    async def send_data() -> None:
        seq = 0
        interval = args.data_interval_ms / 1000
        while channel.readyState == "open":
            channel.send(json.dumps({"seq": seq, "from": args.display}))
            seq += 1
            await asyncio.sleep(interval)

    @channel.on("open")
    def _on_open() -> None:
        nonlocal sender_task
        if args.data_interval_ms > 0 and sender_task is None:
            sender_task = asyncio.ensure_future(send_data())

    def stop_sender() -> None:
        for task in (sender_task, resize_task):
            if task is not None:
                task.cancel()

    return stop_sender


def prefer_video_codec(pc: RTCPeerConnection, codec: str | None) -> None:
    """Offers only `codec` (and its RTX) on the video transceiver."""
    if not codec:
        return
    from aiortc.rtcrtpsender import RTCRtpSender
    wanted = [c for c in RTCRtpSender.getCapabilities("video").codecs
              if c.mimeType.lower() == f"video/{codec}" or c.mimeType.lower() == "video/rtx"]
    for transceiver in pc.getTransceivers():
        if transceiver.kind == "video":
            transceiver.setCodecPreferences(wanted)


async def publish(handle, pc: RTCPeerConnection, args: argparse.Namespace, codec: str | None) -> None:
    """Offers what `pc` holds to Janus (configure) and applies the answer."""
    prefer_video_codec(pc, codec)
    await pc.setLocalDescription(await pc.createOffer())  # aiortc gathers fully here
    offer = {"type": pc.localDescription.type, "sdp": pc.localDescription.sdp}
    body = {"request": "configure", "audio": not args.no_audio, "video": not args.no_video}
    if codec:
        body["videocodec"] = codec
    data, jsep = await handle.message(body, jsep=offer)
    if data.get("configured") != "ok" or not jsep:
        raise RuntimeError(f"unexpected configure reply: {data}")
    await pc.setRemoteDescription(RTCSessionDescription(sdp=jsep["sdp"], type=jsep["type"]))
    await handle.trickle_completed()


async def run(args: argparse.Namespace,
              add_media: Callable[[RTCPeerConnection, argparse.Namespace], Callable[[], None]] = add_synthetic_media
              ) -> int:
    """Publishes what add_media adds to the PeerConnection (args.no_audio / args.no_video say
    which kinds it adds) until signalled, --duration or a Janus hangup. add_media returns a
    cleanup called on the way out. The codec and republish options are publisher.py's own: other
    scripts (player.py) run without them."""
    video_codec = getattr(args, "video_codec", None)
    republish_on_stdin = getattr(args, "republish_on_stdin", False)
    republish_after = getattr(args, "republish_after", 0.0)
    republish_codec = getattr(args, "republish_codec", "h264")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    token = args.token or (make_token(args.token_secret) if args.token_secret else None)
    client = JanusClient(args.ws, token=token, verbose=args.verbose)
    pc = RTCPeerConnection(rtc_configuration())
    handle = None
    joined = published = republishing = False
    failure: str | None = None
    cleanup: Callable[[], None] | None = None
    try:
        await client.connect()
        await client.create_session()
        handle = await client.attach()

        if args.create:
            body = {"request": "create", "room": args.room, "publishers": args.max_publishers,
                    "audiocodec": "opus", "videocodec": "vp8,vp9,h264"}
            if args.pin:
                body["pin"] = args.pin
            try:
                await handle.message(body)
            except JanusError as exc:
                if exc.code != ALREADY_EXISTS:
                    raise

        if getattr(args, "join_on_stdin", False):
            # A reader on the loop, not a thread: a SIGTERM while waiting must still exit at once.
            go = asyncio.Event()
            loop.add_reader(sys.stdin.fileno(), go.set)
            print("WAITING", flush=True)
            waiting = [asyncio.ensure_future(go.wait()), asyncio.ensure_future(stop.wait())]
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            loop.remove_reader(sys.stdin.fileno())
            for task in waiting:
                task.cancel()
            if stop.is_set():
                return 0

        join = {"request": "join", "ptype": "publisher", "room": args.room, "display": args.display}
        if args.pin:
            join["pin"] = args.pin
        data, _ = await handle.message(join)
        if data.get("videoroom") != "joined":
            raise RuntimeError(f"unexpected join reply: {data}")
        joined = True
        my_id = data["id"]

        cleanup = add_media(pc, args)
        await publish(handle, pc, args, video_codec)
        published = True
        await wait_connected(pc, args.connect_timeout)

        print("READY " + json.dumps({"id": my_id, "room": args.room}), flush=True)

        async def watch_janus() -> None:
            nonlocal failure
            while True:
                ev = await handle.events.get()
                kind = ev.get("janus")
                if kind == "hangup" and republishing:
                    continue  # the unpublished PeerConnection's end
                if kind == "hangup":
                    failure = f"Janus hung up: {ev.get('reason')}"
                    stop.set()
                elif kind == "detached":
                    failure = "Janus detached the handle"
                    stop.set()
                elif args.verbose:
                    log("event:", json.dumps(ev)[:300])

        async def republish() -> None:
            nonlocal failure
            try:
                await republish_once()
            except Exception as exc:
                failure = f"republishing failed: {exc}"
                stop.set()

        async def republish_once() -> None:
            nonlocal pc, cleanup, published, republishing
            if republish_on_stdin:
                go = asyncio.Event()
                loop.add_reader(sys.stdin.fileno(), go.set)
                try:
                    await go.wait()
                finally:
                    loop.remove_reader(sys.stdin.fileno())
            else:
                await asyncio.sleep(republish_after)
            republishing = True
            if cleanup is not None:
                cleanup()
                cleanup = None
            await handle.message({"request": "unpublish"})
            published = False
            await pc.close()
            if republish_codec == "none":
                print("UNPUBLISHED", flush=True)
                return
            pc = RTCPeerConnection(rtc_configuration())
            cleanup = add_media(pc, args)
            await publish(handle, pc, args, republish_codec)
            published = True
            await wait_connected(pc, args.connect_timeout)
            republishing = False
            print("REPUBLISHED " + json.dumps({"codec": republish_codec}), flush=True)

        watchers = [asyncio.create_task(watch_janus()), asyncio.create_task(client.closed.wait())]
        republisher = (asyncio.create_task(republish())
                       if republish_after > 0 or republish_on_stdin else None)
        waits = [asyncio.create_task(stop.wait())] + watchers
        if args.duration > 0:
            waits.append(asyncio.create_task(asyncio.sleep(args.duration)))
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if republisher is not None:
            republisher.cancel()
        for t in waits:
            t.cancel()
        if client.closed.is_set():
            failure = failure or "Janus WebSocket closed"
        if pc.connectionState == "failed":
            failure = failure or "connection failed"
    finally:
        if cleanup is not None:
            cleanup()
        if handle is not None and not client.closed.is_set():
            for body in ([{"request": "unpublish"}] if published else []) + ([{"request": "leave"}] if joined else []):
                try:
                    await handle.message(body, timeout=5)
                except Exception as exc:
                    log(f"publisher: {body['request']} failed: {exc}")
            try:
                await handle.detach()
            except Exception:
                pass
        await pc.close()
        await client.close()
    if failure:
        log(f"publisher: error: {failure}")
        return 1
    return 0


def main() -> int:
    return run_main("publisher", parse_args, run)


if __name__ == "__main__":
    sys.exit(main())
