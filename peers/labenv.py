"""Where the lab is, read from <repo>/.lab/lab.env; shared by the aiortc and GStreamer peers.

Imports nothing beyond the standard library, so the GStreamer peers (system python3, which
has no aiortc) can use it as well as the aiortc ones (<repo>/.venv).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_HOST_IP = "10.77.0.1"


# The lab is machine-wide: a worktree without its own .lab/ reads the shared state (as
# Tests/TestSupport/LabEnvironment.swift does).
LAB_ENV_FILES = (REPO / ".lab" / "lab.env", Path("/run/agentd-lab/lab.env"))


def lab_env() -> dict[str, str]:
    """The lab's lab.env as a dict (empty when the lab is down)."""
    env: dict[str, str] = {}
    path = next((candidate for candidate in LAB_ENV_FILES if candidate.is_file()), None)
    if path is not None:
        for line in path.read_text().splitlines():
            key, sep, value = line.partition("=")
            if sep:
                env[key.strip()] = value.strip()
    return env


def lab_host_ip() -> str:
    """The host side of the lab veth (LAB_HOST_IP), the only address the peers' ICE may use."""
    return os.environ.get("LAB_HOST_IP") or lab_env().get("LAB_HOST_IP") or DEFAULT_HOST_IP
