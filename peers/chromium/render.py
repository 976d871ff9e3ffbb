#!/usr/bin/python3
"""Opens a local HTML file in headless Chromium inside the lab namespace, and reports what it shows.

  render.py --file PAGE.html --screenshot OUT.png [--width 1200] [--height 900]

For the recording report's lab test: the page is served by the driver's page server on 127.0.0.1
inside the namespace (with the flags and the process hygiene of driver.py), loaded, screenshotted
(Page.captureScreenshot), and its DOM read. One line on stdout:

  RENDERED {"rows": N, "names": [...], "text": "...", "images": N, "broken_images": N}

rows counts the timeline's `g.participant-row` elements, names their `text.name` contents. Errors
go to stderr with a non-zero exit.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import driver
from driver import DriverError, log

PROBE = """JSON.stringify({
  rows: document.querySelectorAll('svg.timeline g.participant-row').length,
  names: Array.from(document.querySelectorAll('svg.timeline g.participant-row text.name')).map(t => t.textContent),
  text: document.body ? document.body.innerText : '',
  images: document.images.length,
  broken_images: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).length
})"""


def render(args: argparse.Namespace) -> dict:
    if not Path(f"/run/netns/{driver.NETNS}").exists():
        raise DriverError(f"network namespace {driver.NETNS} missing: run scripts/lab up")
    workdir = Path(tempfile.mkdtemp(prefix="agentd-render-"))
    server = browser = None
    try:
        www = workdir / "www"
        www.mkdir()
        shutil.copyfile(args.file, www / "page.html")
        server, port = driver.start_page_server(www)
        browser, session = driver.launch_and_attach(workdir, [], "127.0.0.1", False)
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        browser.call("Page.enable", session=session)
        nav = browser.call("Page.navigate", {"url": f"http://127.0.0.1:{port}/page.html"}, session=session)
        if nav.get("errorText"):
            raise DriverError(f"loading the page failed: {nav['errorText']}")
        deadline = time.monotonic() + 20
        loaded = False
        while not loaded:
            if time.monotonic() > deadline:
                raise DriverError("the page did not load within 20 s")
            browser.pump(0.2)
            loaded = any(ev.get("method") == "Page.loadEventFired" for ev in browser.events())
        probe = browser.call("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=session)
        result = json.loads(probe["result"]["value"])
        shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
        Path(args.screenshot).write_bytes(base64.b64decode(shot["data"]))
        return result
    finally:
        if browser is not None:
            browser.close()
        driver.stop_group(server, "page server")
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--file", required=True)
    p.add_argument("--screenshot", required=True)
    p.add_argument("--width", type=int, default=1200)
    p.add_argument("--height", type=int, default=900)
    args = p.parse_args()
    if os.geteuid() != 0:
        print("render.py: error: must run as root (ip netns exec)", file=sys.stderr)
        return 2
    try:
        result = render(args)
    except DriverError as exc:
        log(f"error: {exc}")
        return 1
    print("RENDERED " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
