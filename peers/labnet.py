"""Keeps aiortc's ICE on the lab network.

aioice gathers host candidates from every interface (aioice.ice.get_host_addresses) and
aiortc adds a public STUN server unless told otherwise. In the lab the peers must only use
the host side of the lab veth (LAB_HOST_IP, 10.77.0.1), so this module replaces aioice's
host-address discovery with that one address and builds configurations without ICE servers.
"""

from __future__ import annotations

import aioice.ice
from aiortc import RTCConfiguration

from labenv import lab_host_ip


def pin_ice_to_lab(host_ip: str | None = None) -> str:
    """Makes aioice gather host candidates on host_ip only (IPv4, no IPv6). Returns the IP."""
    ip = host_ip or lab_host_ip()

    def only_lab(use_ipv4: bool, use_ipv6: bool) -> list[str]:
        return [ip] if use_ipv4 else []

    aioice.ice.get_host_addresses = only_lab
    return ip


def rtc_configuration() -> RTCConfiguration:
    """No STUN/TURN: aiortc would otherwise add a public STUN server."""
    return RTCConfiguration(iceServers=[])
