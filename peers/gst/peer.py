"""What the GStreamer peers share: a webrtcbin kept on the lab network, offer/answer through
GstPromise with timeouts, the connection wait, and the Janus session around it.

ICE stays on the lab: webrtcbin's ICE agent (GstWebRTCNice, holding a libnice NiceAgent) is
given the lab host address (LAB_HOST_IP, 10.77.0.1 on agentd-lab0) as its only local address,
so libnice gathers host candidates there and nowhere else; UPnP (libnice is built with
gupnp-igd, which would send SSDP multicast) and ICE-TCP are off, and no STUN or TURN server
is set. Remote candidates outside the lab's /24 are dropped from Janus's SDP and trickles,
so no connectivity check is ever sent off the lab. webrtcbin 1.22 is also given the answer's
(or offer's) candidates explicitly with add-ice-candidate: Janus puts them in the SDP and
may not trickle them.

Run with /usr/bin/python3 (python3-gst-1.0, gir1.2-gst-plugins-bad-1.0, gir1.2-nice-0.1,
gir1.2-soup-3.0), not the aiortc venv.
"""

from __future__ import annotations

import argparse
import ctypes
import ipaddress
import json
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstSdp", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("Nice", "0.1")
from gi.repository import Gst, GstSdp, GstWebRTC, Nice  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from janus_protocol import log, make_token  # noqa: E402
from janus_soup import JanusClient, JanusHandle  # noqa: E402
from labenv import lab_host_ip  # noqa: E402
from mainloop import MainLoopThread, Outcome  # noqa: E402

Gst.init(None)

PROMISE_TIMEOUT_S = 10.0
GATHER_TIMEOUT_S = 10.0


def add_janus_arguments(p: argparse.ArgumentParser) -> None:
    """Flags every GStreamer peer takes, as the aiortc peers spell them."""
    p.add_argument("--ws", required=True, help="Janus WebSocket URL, e.g. ws://10.77.0.2:8188/")
    p.add_argument("--room", required=True, help="room id (string ids)")
    p.add_argument("--token", help="Janus core token sent on every request")
    p.add_argument("--token-secret", help="compute a videoroom token from this token_auth_secret")
    p.add_argument("--pin", help="room pin")
    p.add_argument("--duration", type=float, default=0.0, help="seconds to run after READY (0: until signalled)")
    p.add_argument("--connect-timeout", type=float, default=20.0)
    p.add_argument("--sdp-out", metavar="DIR", help="write the offer and the answer here (offer.sdp, answer.sdp)")
    p.add_argument("--verbose", action="store_true", help="log Janus messages to stderr")


def token_of(args: argparse.Namespace) -> str | None:
    return args.token or (make_token(args.token_secret) if args.token_secret else None)


# -- ICE on the lab only ------------------------------------------------------------------------

_gobject = ctypes.CDLL("libgobject-2.0.so.0")
_gobject.g_object_ref.argtypes = [ctypes.c_void_p]
_gobject.g_object_ref.restype = ctypes.c_void_p
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_pointer.restype = ctypes.c_void_p


def _ice_agent(webrtc: Gst.Element) -> GstWebRTC.WebRTCICE:
    """webrtcbin's "ice-agent", safe to hold.

    webrtcbin 1.22 keeps its GstWebRTCNice (a GstObject, born floating) without sinking it;
    PyGObject then takes that floating reference as its own wrapper's, and when the wrapper
    goes the object is freed under webrtcbin (GLib-GObject-CRITICALs at exit, or worse). One
    reference added back here, while only the wrapper and webrtcbin share a count of 1, makes
    the counts right again."""
    ice = webrtc.get_property("ice-agent")
    if ice.ref_count == 1:
        _gobject.g_object_ref(_capsule_pointer(ice.__gpointer__, None))
    return ice


def pin_ice_to_lab(webrtc: Gst.Element, host_ip: str) -> None:
    """Makes webrtcbin's libnice agent gather on host_ip only, over UDP, without UPnP."""
    ice = _ice_agent(webrtc)
    ice.set_property("ice-tcp", False)
    agent = ice.get_property("agent")
    agent.set_property("upnp", False)
    agent.set_property("ice-tcp", False)
    address = Nice.Address()
    if not address.set_from_string(host_ip):
        raise ValueError(f"not an IP address: {host_ip!r}")
    # libnice: once a local address is added, gathering uses those and skips enumerating
    # interfaces (nice_agent_add_local_address).
    if not agent.add_local_address(address):
        raise RuntimeError(f"libnice refused local address {host_ip}")


def lab_network(host_ip: str) -> ipaddress.IPv4Network:
    """The lab veth's /24 (10.77.0.0/24): the only place a remote candidate may be."""
    return ipaddress.ip_network(f"{host_ip}/24", strict=False)


def candidate_address(candidate: str) -> str | None:
    """The connection address of an ICE candidate line (RFC 8839 section 5.1:
    candidate:<foundation> <component> <transport> <priority> <address> <port> typ ...)."""
    fields = candidate.removeprefix("a=").split()
    return fields[4] if len(fields) >= 8 and fields[0].startswith("candidate:") else None


def on_lab(candidate: str, network: ipaddress.IPv4Network) -> bool:
    address = candidate_address(candidate)
    try:
        return address is not None and ipaddress.ip_address(address) in network
    except ValueError:
        return False  # an mDNS name or garbage: not an address on the lab


def lab_only_sdp(sdp: str, network: ipaddress.IPv4Network) -> tuple[str, list[tuple[int, str]], int]:
    """sdp without candidates off the lab; the kept candidates as (m-line index, "candidate:...")
    for add-ice-candidate; and how many were dropped."""
    lines: list[str] = []
    kept: list[tuple[int, str]] = []
    dropped = 0
    mline = -1
    for line in sdp.splitlines():
        if line.startswith("m="):
            mline += 1
        if line.startswith("a=candidate:"):
            if not on_lab(line, network):
                dropped += 1
                continue
            kept.append((max(mline, 0), line[2:]))
        lines.append(line)
    return "\r\n".join(lines) + "\r\n", kept, dropped


# -- webrtcbin -----------------------------------------------------------------------------------

def emit_with_promise(element: Gst.Element, action: str, *args, reply_field: str | None = None):
    """Emits a webrtcbin action taking a GstPromise last and waits (bounded) for its reply;
    returns the reply's `reply_field` (create-offer: "offer", create-answer: "answer").
    Gst.Promise.wait has no timeout, so the reply comes through a change callback."""
    replied = Outcome()
    promise = Gst.Promise.new_with_change_func(lambda p: replied.succeed(p.get_reply()))
    element.emit(action, *args, promise)
    reply = replied.wait(PROMISE_TIMEOUT_S, f"reply to {action}")
    if reply is not None and reply.has_field("error"):
        raise RuntimeError(f"{action} failed: {reply.get_value('error')}")
    if reply_field is None:
        return None
    if reply is None or not reply.has_field(reply_field):
        raise RuntimeError(f"{action} replied without {reply_field!r}: {reply}")
    # The value is the promise's, not ours (PyGObject does not copy a boxed value it reads out
    # of a GstStructure): without a copy it is freed with the promise, and the next use of the
    # offer (set-local-description copies it) read freed memory and crashed about one run in three.
    return reply.get_value(reply_field).copy()


def description(kind: GstWebRTC.WebRTCSDPType, sdp: str) -> GstWebRTC.WebRTCSessionDescription:
    result, message = GstSdp.SDPMessage.new_from_text(sdp)
    if result != GstSdp.SDPResult.OK:
        raise ValueError(f"SDP does not parse ({result})")
    return GstWebRTC.WebRTCSessionDescription.new(kind, message)


class WebRTCPeer:
    """A pipeline with a webrtcbin named "webrtc", its bus watched on the GLib loop. ``failed``
    is set (with ``failure``) on a pipeline error or a failed connection."""

    def __init__(self, pipeline: Gst.Pipeline, host_ip: str):
        self.pipeline = pipeline
        self.webrtc = pipeline.get_by_name("webrtc")
        if self.webrtc is None:
            raise ValueError("the pipeline has no webrtcbin named 'webrtc'")
        self.network = lab_network(host_ip)
        self.webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
        pin_ice_to_lab(self.webrtc, host_ip)
        self.failure: str | None = None
        self.failed = threading.Event()
        self.connected = threading.Event()
        self.gathered = threading.Event()
        self.warnings: list[str] = []
        self.webrtc.connect("notify::connection-state", self._on_connection_state)
        self.webrtc.connect("notify::ice-gathering-state", self._on_gathering_state)
        self.bus = pipeline.get_bus()
        self.bus.add_signal_watch()
        self.bus.connect("message::error", self._on_error)
        self.bus.connect("message::warning", self._on_warning)

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason
        self.failed.set()

    def _on_error(self, _bus, message: Gst.Message) -> None:
        error, debug = message.parse_error()
        self.fail(f"{message.src.get_name()}: {error.message} ({debug})")

    def _on_warning(self, _bus, message: Gst.Message) -> None:
        warning, _ = message.parse_warning()
        if len(self.warnings) < 100:
            self.warnings.append(f"{message.src.get_name()}: {warning.message}")

    def _on_connection_state(self, webrtc, _spec) -> None:
        state = webrtc.get_property("connection-state")
        if state == GstWebRTC.WebRTCPeerConnectionState.CONNECTED:
            self.connected.set()
        elif state == GstWebRTC.WebRTCPeerConnectionState.FAILED:
            self.fail("ICE/DTLS connection failed")

    def _on_gathering_state(self, webrtc, _spec) -> None:
        if webrtc.get_property("ice-gathering-state") == GstWebRTC.WebRTCICEGatheringState.COMPLETE:
            self.gathered.set()

    def start(self) -> None:
        if self.pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            raise RuntimeError("the pipeline would not start")

    def local_description_when_gathered(self) -> str:
        """The local SDP once gathering is complete: webrtcbin folds gathered candidates into
        it, so Janus gets the whole offer or answer at once (and then end-of-candidates)."""
        if not wait_for(self.gathered, GATHER_TIMEOUT_S, self.failed):
            raise TimeoutError(f"ICE gathering not complete within {GATHER_TIMEOUT_S}s")
        sdp = self.webrtc.get_property("local-description").sdp.as_text()
        if "a=candidate:" not in sdp:
            raise RuntimeError("no local candidate on the lab address (is the lab up?)")
        return sdp

    def set_remote(self, kind: GstWebRTC.WebRTCSDPType, sdp: str) -> None:
        """Sets Janus's SDP without candidates off the lab, then adds its candidates."""
        filtered, candidates, dropped = lab_only_sdp(sdp, self.network)
        if dropped:
            log(f"peer: dropped {dropped} remote candidate(s) outside {self.network}")
        emit_with_promise(self.webrtc, "set-remote-description", description(kind, filtered))
        for mline, candidate in candidates:
            self.webrtc.emit("add-ice-candidate", mline, candidate)

    def add_trickled(self, candidate: dict) -> None:
        """A candidate Janus trickled ({"candidate", "sdpMLineIndex"}), if it is on the lab."""
        line = candidate.get("candidate")
        if isinstance(line, str) and on_lab(line, self.network):
            self.webrtc.emit("add-ice-candidate", int(candidate.get("sdpMLineIndex") or 0),
                             line.removeprefix("a="))

    def wait_connected(self, timeout: float, stop: threading.Event) -> None:
        if not wait_for(self.connected, timeout, self.failed, stop):
            if self.failure:
                raise RuntimeError(self.failure)
            if stop.is_set():
                raise InterruptedError("signalled before connected")
            state = self.webrtc.get_property("connection-state").value_nick
            raise TimeoutError(f"not connected within {timeout}s (state {state})")

    def stop(self) -> None:
        self.pipeline.set_state(Gst.State.NULL)
        self.bus.remove_signal_watch()


def wait_for(event: threading.Event, timeout: float, *abort: threading.Event) -> bool:
    """True once event is set within timeout; False at the timeout or when an abort event is set."""
    deadline = time.monotonic() + timeout
    while not event.is_set():
        left = deadline - time.monotonic()
        if left <= 0 or any(a.is_set() for a in abort):
            return False
        event.wait(min(left, 0.1))
    return True


# -- one run: Janus session, handle, the peer, exit codes ------------------------------------------

class Session:
    """A Janus session with one videoroom handle on a GLib loop thread, stopped by SIGTERM,
    SIGINT, a hangup or a closed socket. ``failure`` says why a run must exit non-zero."""

    def __init__(self, args: argparse.Namespace, name: str):
        self.name = name
        self.args = args
        self.stop = threading.Event()
        self.failure: str | None = None
        self.loop = MainLoopThread()
        self.loop.on_termination_signals(self.stop.set)
        self.loop.start()
        self.client = JanusClient(args.ws, self.loop, token=token_of(args), verbose=args.verbose)
        self.handle: JanusHandle | None = None
        self.peer: WebRTCPeer | None = None
        self.host_ip = lab_host_ip()
        self.closing = False

    def open(self) -> JanusHandle:
        self.client.connect()
        self.client.create_session()
        self.handle = self.client.attach()
        self.handle.on_event = self._on_event
        return self.handle

    def _on_event(self, event: dict) -> None:
        kind = event.get("janus")
        if self.closing:
            return  # our own unpublish, leave and detach echo back as events
        if kind == "hangup":
            self.end(f"Janus hung up: {event.get('reason')}")
        elif kind == "detached":
            self.end("Janus detached the handle")
        elif kind == "trickle" and self.peer is not None:
            self.peer.add_trickled(event.get("candidate") or {})
        elif self.args.verbose:
            log("event:", json.dumps(event)[:300])

    def end(self, failure: str | None = None) -> None:
        if failure and self.failure is None:
            self.failure = failure
        self.stop.set()

    def keep_sdp(self, offer: str, answer: str) -> None:
        if self.args.sdp_out:
            out = Path(self.args.sdp_out)
            out.mkdir(parents=True, exist_ok=True)
            (out / "offer.sdp").write_text(offer)
            (out / "answer.sdp").write_text(answer)

    def ready(self, fields: dict) -> None:
        print("READY " + json.dumps(fields), flush=True)

    def run_until_done(self) -> float:
        """Waits for --duration, a signal, a hangup, a closed socket or a pipeline failure;
        returns the seconds waited."""
        started = time.monotonic()
        limit = self.args.duration if self.args.duration > 0 else float("inf")
        while not self.stop.is_set():
            if self.client.closed.is_set():
                self.end("Janus WebSocket closed")
            elif self.peer is not None and self.peer.failed.is_set():
                self.end(self.peer.failure)
            elif time.monotonic() - started >= limit:
                break
            self.stop.wait(0.1)
        return time.monotonic() - started

    def close(self, goodbye: list[dict]) -> None:
        """Sends goodbye (unpublish, leave) if still connected, detaches, destroys the session,
        stops the pipeline and the loop."""
        self.closing = True
        if self.handle is not None and not self.client.closed.is_set():
            for body in goodbye:
                try:
                    self.handle.message(body, timeout=5)
                except Exception as exc:  # noqa: BLE001 - best effort on the way out
                    log(f"{self.name}: {body['request']} failed: {exc}")
            try:
                self.handle.detach()
            except Exception:  # noqa: BLE001
                pass
        if self.peer is not None:
            self.peer.stop()
        self.client.close()
        self.loop.stop()


def run_main(name: str, parse_args: Callable[[], argparse.Namespace],
             run: Callable[[argparse.Namespace], int]) -> int:
    """Entry point shared by the GStreamer peers: failures become one stderr line and exit 1."""
    args = parse_args()
    try:
        return run(args)
    except InterruptedError:
        return 0  # SIGTERM/SIGINT while setting up: a clean stop
    except Exception as exc:  # noqa: BLE001 - a peer reports any failure as one line
        log(f"{name}: error: {exc}")
        return 1
