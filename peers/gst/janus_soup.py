"""A Janus WebSocket API client (Janus 1.x) over libsoup 3, for the GStreamer peers.

The aiortc peers' client (peers/janus_client.py) is asyncio over the `websockets` package,
which system python3 (where python3-gst-1.0 lives) does not have in the version it needs;
libsoup is already there (gir1.2-soup-3.0) and runs on the same GLib main loop as the
pipeline. The protocol is the same: a request carries a fresh "transaction"; Janus answers
with an "ack" and/or a final "success", "event" or "error" for it. Messages without a pending
transaction (webrtcup, media, hangup, trickle, unsolicited plugin events) go to the handle's
``on_event`` callback, on the loop thread. A keepalive goes out every 15 s (the session
times out after session_timeout, 60 s by default).

The socket lives on the MainLoopThread; ``request`` and the calls built on it block the
calling thread (never the loop thread) until the reply or a timeout.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import threading
from pathlib import Path
from typing import Callable

import gi

gi.require_version("Soup", "3.0")
from gi.repository import Gio, GLib, Soup  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from janus_protocol import VIDEOROOM, JanusError, log, plugin_reply  # noqa: E402
from mainloop import MainLoopThread, Outcome  # noqa: E402

# Janus's SDPs are a few kB; a bound keeps a broken server from filling memory.
MAX_MESSAGE_BYTES = 1 << 20


class JanusHandle:
    """A plugin handle. ``on_event`` (loop thread) gets messages not answering a request."""

    def __init__(self, client: "JanusClient", handle_id: int):
        self.client = client
        self.id = handle_id
        self.on_event: Callable[[dict], None] = lambda event: None

    def message(self, body: dict, jsep: dict | None = None, timeout: float = 15.0) -> tuple[dict, dict | None]:
        """Sends a plugin message; returns (plugin data, jsep or None). Plugin errors raise."""
        msg: dict = {"janus": "message", "body": body}
        if jsep is not None:
            msg["jsep"] = jsep
        return plugin_reply(self.client.request(msg, handle_id=self.id, timeout=timeout))

    def trickle_completed(self) -> None:
        self.client.request({"janus": "trickle", "candidate": {"completed": True}},
                            handle_id=self.id, ack_is_final=True)

    def detach(self) -> None:
        self.client.request({"janus": "detach"}, handle_id=self.id, timeout=5)


class JanusClient:
    def __init__(self, url: str, loop: MainLoopThread, token: str | None = None, verbose: bool = False):
        self.url = url
        self.loop = loop
        self.token = token
        self.verbose = verbose
        self.session_id: int | None = None
        self.handles: dict[int, JanusHandle] = {}
        self.closed = threading.Event()
        self._session: Soup.Session | None = None
        self._ws: Soup.WebsocketConnection | None = None
        self._pending: dict[str, tuple[Outcome, bool]] = {}
        self._pending_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._prefix = os.urandom(4).hex()
        self._keepalive: int | None = None

    # -- connection (loop thread) --------------------------------------------------------------

    def connect(self, timeout: float = 10.0) -> None:
        connected = Outcome()

        def on_connected(session: Soup.Session, result, _data) -> None:
            try:
                ws = session.websocket_connect_finish(result)
            except GLib.Error as exc:
                connected.fail(ConnectionError(f"cannot open {self.url}: {exc.message}"))
                return
            ws.set_max_incoming_payload_size(MAX_MESSAGE_BYTES)
            ws.set_keepalive_interval(0)
            ws.connect("message", self._on_message)
            ws.connect("closed", self._on_closed)
            self._ws = ws
            connected.succeed()

        cancellable = Gio.Cancellable()

        def start() -> None:
            # No Session timeout: it would also close the idle WebSocket later on.
            self._session = Soup.Session()
            message = Soup.Message.new("GET", self.url)
            if message is None:
                connected.fail(ValueError(f"not a URL: {self.url!r}"))
                return
            self._session.websocket_connect_async(message, None, ["janus-protocol"], GLib.PRIORITY_DEFAULT,
                                                  cancellable, on_connected, None)

        self.loop.post(start)
        try:
            connected.wait(timeout, f"WebSocket connection to {self.url}")
        except TimeoutError:
            cancellable.cancel()
            raise

    def _on_message(self, _ws, kind, payload: GLib.Bytes) -> None:
        raw = payload.get_data() or b""
        try:
            msg = json.loads(raw)
        except ValueError:
            log(f"janus: bad JSON from server: {raw[:200]!r}")
            return
        if self.verbose:
            log("janus <", json.dumps(msg)[:500])
        self._dispatch(msg)

    def _on_closed(self, _ws) -> None:
        if self.verbose:
            log("janus: connection closed")
        self.closed.set()
        with self._pending_lock:
            pending, self._pending = self._pending, {}
        for outcome, _ in pending.values():
            outcome.fail(ConnectionError("Janus WebSocket closed"))

    def _dispatch(self, msg: dict) -> None:
        kind = msg.get("janus")
        tx = msg.get("transaction")
        with self._pending_lock:
            entry = self._pending.get(tx) if tx is not None else None
            if entry is not None and (kind != "ack" or entry[1]):
                del self._pending[tx]
        if entry is not None:
            outcome, ack_is_final = entry
            if kind == "ack" and not ack_is_final:
                return  # the real answer follows as an event
            if kind == "error":
                err = msg.get("error", {})
                outcome.fail(JanusError(err.get("code"), err.get("reason", "")))
            else:
                outcome.succeed(msg)
            return
        handle = self.handles.get(msg.get("sender"))
        if handle is not None:
            handle.on_event(msg)
        elif self.verbose:
            log("janus: session event:", json.dumps(msg)[:300])

    def _send(self, msg: dict, outcome: Outcome, ack_is_final: bool) -> str:
        """Registers the transaction and sends msg from the loop thread; returns the transaction."""
        tx = f"{self._prefix}-{next(self._ids)}"
        msg = dict(msg, transaction=tx)
        if self.session_id is not None and msg.get("janus") != "create":
            msg["session_id"] = self.session_id
        if self.token:
            msg["token"] = self.token
        with self._pending_lock:
            self._pending[tx] = (outcome, ack_is_final)
        text = json.dumps(msg)
        if self.verbose:
            log("janus >", text[:500])

        def send() -> None:
            if self._ws is None or self.closed.is_set():
                outcome.fail(ConnectionError("not connected to Janus"))
                return
            self._ws.send_text(text)

        self.loop.post(send)
        return tx

    # -- requests (any thread but the loop's) --------------------------------------------------

    def request(self, msg: dict, handle_id: int | None = None, ack_is_final: bool = False,
                timeout: float = 15.0) -> dict:
        """Sends a request with a fresh transaction and waits for its final reply."""
        if self.loop.on_loop:
            raise RuntimeError("JanusClient.request blocks: call it off the GLib loop thread")
        if self._ws is None or self.closed.is_set():
            raise ConnectionError("not connected to Janus")
        if handle_id is not None:
            msg = dict(msg, handle_id=handle_id)
        outcome = Outcome()
        tx = self._send(msg, outcome, ack_is_final)
        try:
            return outcome.wait(timeout, f"reply from Janus to {msg.get('janus')}")
        finally:
            with self._pending_lock:
                self._pending.pop(tx, None)

    def create_session(self, keepalive_s: int = 15) -> int:
        reply = self.request({"janus": "create"})
        self.session_id = reply["data"]["id"]

        def keepalive() -> None:
            if not self.closed.is_set():
                self._send({"janus": "keepalive"}, Outcome(), ack_is_final=True)

        self._keepalive = self.loop.every(keepalive_s, keepalive)
        return self.session_id

    def attach(self, plugin: str = VIDEOROOM) -> JanusHandle:
        reply = self.request({"janus": "attach", "plugin": plugin})
        handle = JanusHandle(self, reply["data"]["id"])
        self.handles[handle.id] = handle
        return handle

    def close(self) -> None:
        """Destroys the session (best effort) and closes the socket. Safe to call twice."""
        if self._keepalive is not None:
            self.loop.cancel(self._keepalive)
            self._keepalive = None
        if self.session_id is not None and self._ws is not None and not self.closed.is_set():
            try:
                self.request({"janus": "destroy"}, timeout=5)
            except Exception as exc:  # noqa: BLE001 - best effort on the way out
                log(f"janus: destroy failed: {exc}")
        self.session_id = None
        if self._ws is not None and not self.closed.is_set():
            ws = self._ws
            self.loop.post(lambda: ws.close(Soup.WebsocketCloseCode.NORMAL, None))
            self.closed.wait(3)
