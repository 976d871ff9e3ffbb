"""What both Janus clients of the test peers share: the asyncio one (janus_client.py, aiortc
peers) and the GLib/libsoup one (gst/janus_soup.py, GStreamer peers). Standard library only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import sys
import time
from typing import Any

VIDEOROOM = "janus.plugin.videoroom"
# VideoRoom error codes the peers tell apart (janus_videoroom.c, JANUS_VIDEOROOM_ERROR_*).
NO_SUCH_ROOM = 426
ROOM_EXISTS = 427


class JanusError(Exception):
    """An error reply from Janus (core "error" or a plugin "error_code")."""

    def __init__(self, code: int | None, reason: str):
        super().__init__(f"janus error {code}: {reason}")
        self.code = code
        self.reason = reason


def make_token(secret: str, plugins: tuple[str, ...] = (VIDEOROOM,), valid_s: int = 3600) -> str:
    """Signed Janus token: "<expiry>,janus,<plugins>:" + base64(HMAC-SHA1(secret, that data))."""
    data = f"{int(time.time()) + valid_s},janus,{','.join(plugins)}"
    sig = base64.b64encode(hmac.new(secret.encode(), data.encode(), hashlib.sha1).digest()).decode()
    return f"{data}:{sig}"


def plugin_reply(reply: dict) -> tuple[dict, dict | None]:
    """(plugin data, jsep or None) of a plugin message's final reply; a plugin error raises."""
    data = reply.get("plugindata", {}).get("data", {})
    if "error_code" in data or "error" in data:
        raise JanusError(data.get("error_code"), str(data.get("error", data)))
    return data, reply.get("jsep")


def log(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)
