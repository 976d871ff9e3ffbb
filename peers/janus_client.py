"""A small asyncio client for the Janus WebSocket API (Janus 1.x), used by the test peers.

Janus answers a request with one or two messages carrying the request's "transaction":
an "ack" (the request was accepted, the result will follow as an "event") and/or a final
"success", "event" or "error". Plugin messages that the plugin handles synchronously
(create, listparticipants, ...) come back directly as "success" with "plugindata";
asynchronous ones (join, configure, start, ...) come back as "ack" then "event".
Messages without a pending transaction (webrtcup, media, hangup, slowlink, unsolicited
plugin events) are queued per handle.

The session must see a request at least every session_timeout (default 60 s), so a
keepalive task sends one every 15 s.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from typing import Any

from websockets.asyncio.client import connect as ws_connect

from janus_protocol import VIDEOROOM, JanusError, log, make_token, plugin_reply  # noqa: F401 (re-exported)


class JanusHandle:
    """A plugin handle; plugin replies and unsolicited events for it arrive here."""

    def __init__(self, client: "JanusClient", handle_id: int):
        self.client = client
        self.id = handle_id
        self.events: asyncio.Queue[dict] = asyncio.Queue()

    async def message(self, body: dict, jsep: dict | None = None, timeout: float = 15.0) -> tuple[dict, dict | None]:
        """Sends a plugin message; returns (plugin data, jsep or None). Plugin errors raise."""
        msg: dict[str, Any] = {"janus": "message", "body": body}
        if jsep is not None:
            msg["jsep"] = jsep
        return plugin_reply(await self.client.request(msg, handle_id=self.id, timeout=timeout))

    async def trickle_completed(self) -> None:
        await self.client.request({"janus": "trickle", "candidate": {"completed": True}},
                                  handle_id=self.id, ack_is_final=True)

    async def detach(self) -> None:
        await self.client.request({"janus": "detach"}, handle_id=self.id)


class JanusClient:
    def __init__(self, url: str, token: str | None = None, verbose: bool = False):
        self.url = url
        self.token = token
        self.verbose = verbose
        self.session_id: int | None = None
        self.handles: dict[int, JanusHandle] = {}
        self.session_events: asyncio.Queue[dict] = asyncio.Queue()
        self._ws = None
        self._pending: dict[str, tuple[asyncio.Future, bool]] = {}
        self._ids = itertools.count(1)
        self._prefix = os.urandom(4).hex()
        self._reader: asyncio.Task | None = None
        self._keepalive: asyncio.Task | None = None
        self.closed = asyncio.Event()

    # -- connection ----------------------------------------------------------------------------

    async def connect(self, timeout: float = 10.0) -> None:
        self._ws = await asyncio.wait_for(
            ws_connect(self.url, subprotocols=["janus-protocol"], max_size=None, open_timeout=timeout),
            timeout)
        self._reader = asyncio.create_task(self._read_loop())

    async def _read_loop(self) -> None:
        try:
            async for raw in self._ws:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    log(f"janus: bad JSON from server: {raw[:200]!r}")
                    continue
                if self.verbose:
                    log("janus <", json.dumps(msg)[:500])
                self._dispatch(msg)
        except Exception as exc:  # connection dropped
            if self.verbose:
                log(f"janus: connection closed: {exc}")
        finally:
            self.closed.set()
            for fut, _ in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("Janus WebSocket closed"))
            self._pending.clear()

    def _dispatch(self, msg: dict) -> None:
        kind = msg.get("janus")
        tx = msg.get("transaction")
        if tx is not None and tx in self._pending:
            fut, ack_is_final = self._pending[tx]
            if kind == "ack" and not ack_is_final:
                return  # the real answer follows as an event
            del self._pending[tx]
            if fut.done():
                return
            if kind == "error":
                err = msg.get("error", {})
                fut.set_exception(JanusError(err.get("code"), err.get("reason", "")))
            else:
                fut.set_result(msg)
            return
        handle = self.handles.get(msg.get("sender"))
        if handle is not None:
            handle.events.put_nowait(msg)
        else:
            self.session_events.put_nowait(msg)

    async def request(self, msg: dict, handle_id: int | None = None, ack_is_final: bool = False,
                      timeout: float = 15.0) -> dict:
        """Sends a request with a fresh transaction and waits for its final reply."""
        if self._ws is None or self.closed.is_set():
            raise ConnectionError("not connected to Janus")
        tx = f"{self._prefix}-{next(self._ids)}"
        msg = dict(msg, transaction=tx)
        if self.session_id is not None and msg.get("janus") != "create":
            msg["session_id"] = self.session_id
        if handle_id is not None:
            msg["handle_id"] = handle_id
        if self.token:
            msg["token"] = self.token
        fut = asyncio.get_running_loop().create_future()
        self._pending[tx] = (fut, ack_is_final)
        if self.verbose:
            log("janus >", json.dumps(msg)[:500])
        await self._ws.send(json.dumps(msg))
        try:
            return await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"no reply from Janus to {msg.get('janus')} within {timeout}s") from None
        finally:
            self._pending.pop(tx, None)

    # -- session -------------------------------------------------------------------------------

    async def create_session(self, keepalive_s: float = 15.0) -> int:
        reply = await self.request({"janus": "create"})
        self.session_id = reply["data"]["id"]
        self._keepalive = asyncio.create_task(self._keepalive_loop(keepalive_s))
        return self.session_id

    async def _keepalive_loop(self, every: float) -> None:
        while not self.closed.is_set():
            await asyncio.sleep(every)
            try:
                await self.request({"janus": "keepalive"}, ack_is_final=True, timeout=10)
            except Exception as exc:
                log(f"janus: keepalive failed: {exc}")

    async def attach(self, plugin: str = VIDEOROOM) -> JanusHandle:
        reply = await self.request({"janus": "attach", "plugin": plugin})
        handle = JanusHandle(self, reply["data"]["id"])
        self.handles[handle.id] = handle
        return handle

    async def close(self) -> None:
        """Destroys the session (best effort) and closes the socket. Safe to call twice."""
        if self._keepalive is not None:
            self._keepalive.cancel()
            self._keepalive = None
        if self.session_id is not None and self._ws is not None and not self.closed.is_set():
            try:
                await self.request({"janus": "destroy"}, timeout=5)
            except Exception as exc:
                log(f"janus: destroy failed: {exc}")
        self.session_id = None
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except Exception:
                pass
            self._reader = None


def run_main(name: str, parse_args, run) -> int:
    """Entry point shared by the peers: parse, run the coroutine, turn failures into exit codes."""
    args = parse_args()
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a peer reports any failure as one line
        log(f"{name}: error: {exc}")
        return 1
