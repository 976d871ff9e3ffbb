#!/usr/bin/python3
"""Headless Chromium (real libwebrtc) as a Janus VideoRoom test peer.

  driver.py publish   --ws URL --room ROOM --display NAME [--tone HZ] [--video-codec vp8|vp9]
                      [--data-interval-ms N] [--duration SEC] [--create] [--stats]
  driver.py subscribe --ws URL --room ROOM (--feed-display NAME | --feed-id ID) [--duration SEC]

Chromium runs only inside the lab network namespace (`ip netns exec agentd-lab ...`), because even
with every background-networking flag it still tries to reach Google hosts; inside a namespace
without an outward route those attempts fail locally. The test page is served by a small
http.server on 127.0.0.1 inside the same namespace, and the browser is driven over
--remote-debugging-pipe (CDP on fds 3/4, NUL-separated JSON), so no debugging port is opened.

Output on stdout (one line each, flushed):
  READY {"id": ..., "room": ...}     publisher: once Janus reports webrtcup for the publisher PC
  READY {"feed": ..., "room": ...}   subscriber: once Janus reports webrtcup for the subscriber PC
  STATS {...}                        subscriber (and publisher with --stats): every second
Errors go to stderr with a non-zero exit. SIGTERM/SIGINT or --duration end the run: the page
unpublishes/leaves and destroys its Janus session, then Chromium and the page server are stopped
(TERM to their process groups, KILL after a grace period) and the temp directory is removed.

Standard library only: runs with /usr/bin/python3 or the repo's .venv.
"""

from __future__ import annotations

import argparse
import ctypes
import fcntl
import ipaddress
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
NETNS = "agentd-lab"
CHROMIUM = "/usr/lib/chromium/chromium"
JANUS_JS = Path("/usr/share/javascript/janus-gateway/janus.js")
ADAPTER_JS = Path("/usr/share/javascript/webrtc-adapter/adapter.js")
DEFAULT_WS = "ws://10.77.0.2:8188/"
PAGE_FILES = ["publisher.html", "publisher.js", "subscriber.html", "subscriber.js", "common.js"]

# The flags LAB.md requires, plus what a headless fake-media peer needs.
CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-pings",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--remote-debugging-pipe",
    # Keep timers and the encoder running at full rate in a page nobody looks at.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--autoplay-policy=no-user-gesture-required",
    # A subscriber never calls getUserMedia, so Chromium would hide its host candidates behind
    # mDNS names. Janus (full ICE) still connects via a peer-reflexive candidate, but real
    # addresses in the SDP keep ICE logs and any other answerer straightforward.
    "--disable-features=WebRtcHideLocalIpsWithMdns,MediaRouter,OptimizationHints,Translate",
    "--disable-dev-shm-usage",
    "--mute-audio",
    "--no-default-browser-check",
    "--password-store=basic",
    "--use-mock-keychain",
]

_t0 = time.monotonic()


def log(*parts: object) -> None:
    print(f"[chromium {time.monotonic() - _t0:7.3f}]", *parts, file=sys.stderr, flush=True)


class DriverError(Exception):
    pass


# ---- fake media ---------------------------------------------------------------------------------

def make_media(workdir: Path, args: argparse.Namespace) -> tuple[Path, Path]:
    """Writes the fake camera (y4m, loops in Chromium) and fake microphone (WAV tone) files."""
    width, height = parse_size(args.video)
    y4m = workdir / "camera.y4m"
    wav = workdir / "tone.wav"
    # testsrc has a running frame counter and moving colour bars, so frames differ from each other.
    cmd_video = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                 "-i", f"testsrc=size={width}x{height}:rate={args.fps:g}",
                 "-t", f"{args.video_seconds:g}", "-pix_fmt", "yuv420p", str(y4m)]
    # aevalsrc, not ffmpeg's `sine` source: that one is fixed at 1/8 full scale (-18 dBFS peak).
    # A whole number of seconds of a sine loops with at most a tiny phase step per loop.
    cmd_audio = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                 "-i", f"aevalsrc={args.tone_gain:g}*sin(2*PI*{args.tone:g}*t):s=48000:d={args.audio_seconds:g}",
                 "-ac", "1", "-c:a", "pcm_s16le", str(wav)]
    procs = [subprocess.Popen(c, stdin=subprocess.DEVNULL) for c in (cmd_video, cmd_audio)]
    for p, c in zip(procs, (cmd_video, cmd_audio)):
        if p.wait(timeout=60) != 0:
            raise DriverError(f"ffmpeg failed: {' '.join(c)}")
    return y4m, wav


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError as exc:
        raise DriverError(f"bad --video '{text}', expected WxH") from exc
    if not (16 <= w <= 4096 and 16 <= h <= 4096) or w % 2 or h % 2:
        raise DriverError(f"bad --video '{text}': even sizes 16..4096")
    return w, h


# ---- processes ----------------------------------------------------------------------------------

def netns_cmd(cmd: list[str]) -> list[str]:
    return ["ip", "netns", "exec", NETNS] + cmd


def stop_group(proc: subprocess.Popen | None, name: str, grace: float = 3.0) -> None:
    """TERM then KILL the process group this driver created for proc (start_new_session=True)."""
    if proc is None:
        return
    pgid = proc.pid  # session leader: its pgid is its pid, and only our children are in it
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 2.0)):
        if proc.poll() is not None and not group_alive(pgid):
            return  # nothing left; do not signal a group id that might get reused
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if proc.poll() is not None and not group_alive(pgid):
                return
            time.sleep(0.05)
        if sig == signal.SIGTERM:
            log(f"{name}: pids {group_members(pgid)} still running {wait:g}s after SIGTERM, sending SIGKILL")
    try:
        proc.wait(timeout=1)
    except subprocess.TimeoutExpired:
        log(f"{name} (pid {proc.pid}) did not exit")


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes in process group pgid. Zombies do not count: Chromium's
    zygotes outlive the browser as zombies until whoever inherits them reaps them, and
    killpg(pgid, 0) would keep reporting them."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 2 and fields[0] != "Z" and fields[2] == str(pgid):
            out.append(int(entry))
    return out


def group_alive(pgid: int) -> bool:
    return bool(group_members(pgid))


def die_with_parent() -> None:
    """In the child before exec: SIGKILL it when the driver dies, even by SIGKILL, so a crashed
    or killed test never leaves a browser behind. Survives `ip netns exec`'s exec (not setuid)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_page_server(www: Path) -> tuple[subprocess.Popen, int]:
    """http.server on 127.0.0.1 (port chosen by the kernel) inside the lab namespace."""
    code = (
        "import functools, http.server, sys\n"
        "class Quiet(http.server.SimpleHTTPRequestHandler):\n"
        "    def log_message(self, *a): pass\n"
        "    def end_headers(self):\n"
        "        self.send_header('Cache-Control', 'no-store')\n"
        "        super().end_headers()\n"
        "h = functools.partial(Quiet, directory=sys.argv[1])\n"
        "s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), h)\n"
        "print(s.server_address[1], flush=True)\n"
        "s.serve_forever()\n"
    )
    proc = subprocess.Popen(netns_cmd([sys.executable, "-c", code, str(www)]), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, start_new_session=True, preexec_fn=die_with_parent)
    assert proc.stdout is not None
    line = proc.stdout.readline().decode().strip()
    if not line.isdigit():
        stop_group(proc, "page server")
        raise DriverError(f"page server did not start (got {line!r})")
    return proc, int(line)


def resolver_rules(ws_host: str) -> str:
    """No name resolves (LAB.md), but the rule also swallows IP literals: without the EXCLUDEs
    even http://127.0.0.1 fails with ERR_NAME_NOT_RESOLVED. So the page server and Janus are
    excluded; both are IP literals inside the namespace."""
    hosts = ["127.0.0.1"] + ([ws_host] if ws_host and ws_host != "127.0.0.1" else [])
    return "--host-resolver-rules=MAP * ~NOTFOUND" + "".join(f", EXCLUDE {h}" for h in hosts)


def high_fd(fd: int) -> int:
    """Moves fd to >= 10 so the dup2 onto 3/4 in the child cannot clobber its sibling."""
    new = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return new


class Chromium:
    """One Chromium process in the lab namespace, spoken to over CDP on fds 3 (in) and 4 (out)."""

    def __init__(self, workdir: Path, extra_flags: list[str], ws_host: str, verbose: bool):
        cmd_r, cmd_w = os.pipe()      # we write commands, Chromium reads fd 3
        resp_r, resp_w = os.pipe()    # Chromium writes fd 4, we read
        cmd_r, cmd_w, resp_r, resp_w = (high_fd(fd) for fd in (cmd_r, cmd_w, resp_r, resp_w))

        def child_fds() -> None:
            os.dup2(cmd_r, 3)
            os.dup2(resp_w, 4)
            die_with_parent()

        flags = CHROMIUM_FLAGS + [resolver_rules(ws_host), f"--user-data-dir={workdir / 'profile'}"] \
            + extra_flags + ["about:blank"]
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="disabled:", HOME=str(workdir))
        self.stderr_path = workdir / "chromium.log"
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(netns_cmd([CHROMIUM] + flags), stdin=subprocess.DEVNULL,
                                     stdout=self._stderr, stderr=self._stderr, env=env,
                                     pass_fds=(3, 4), preexec_fn=child_fds, start_new_session=True)
        os.close(cmd_r)
        os.close(resp_w)
        self._out = cmd_w
        self._in = resp_r
        self._buf = b""
        self._next_id = 0
        self._replies: dict[int, dict] = {}
        self._events: list[dict] = []
        self._lock = threading.Lock()
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._in, selectors.EVENT_READ)
        self.verbose = verbose
        self.closed = False

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        with self._lock:
            self._next_id += 1
            msg_id = self._next_id
        msg: dict = {"id": msg_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        data = json.dumps(msg).encode() + b"\0"
        view = memoryview(data)
        while view:
            n = os.write(self._out, view)
            view = view[n:]
        return msg_id

    def call(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict:
        msg_id = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while msg_id not in self._replies:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DriverError(f"CDP {method} timed out after {timeout:g}s")
            self.pump(left)
        reply = self._replies.pop(msg_id)
        if "error" in reply:
            raise DriverError(f"CDP {method} failed: {reply['error']}")
        return reply.get("result", {})

    def pump(self, timeout: float) -> None:
        """Reads what Chromium sent within timeout; replies are stored, events queued."""
        if self.closed:
            raise DriverError("Chromium closed the CDP pipe" + self.tail_log())
        if not self._sel.select(max(0.0, timeout)):
            return
        chunk = os.read(self._in, 1 << 16)
        if not chunk:
            self.closed = True
            raise DriverError("Chromium closed the CDP pipe" + self.tail_log())
        self._buf += chunk
        while b"\0" in self._buf:
            raw, self._buf = self._buf.split(b"\0", 1)
            msg = json.loads(raw)
            if "id" in msg:
                self._replies[msg["id"]] = msg
            else:
                self._events.append(msg)

    def events(self) -> list[dict]:
        out, self._events = self._events, []
        return out

    def tail_log(self) -> str:
        try:
            lines = self.stderr_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        lines = [ln for ln in lines if "dbus" not in ln.lower()]
        return ("; chromium log: " + " | ".join(lines[-5:])) if lines else ""

    def close(self) -> None:
        if self.proc.poll() is None and not self.closed:
            try:
                self.send("Browser.close")
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self.verbose:
            log(f"browser exited: {self.proc.poll()}")
        stop_group(self.proc, "chromium")
        if self.verbose:
            log("browser process group gone")
        for fd in (self._out, self._in):
            try:
                os.close(fd)
            except OSError:
                pass
        self._sel.close()
        self._stderr.close()


# ---- the run ------------------------------------------------------------------------------------

class Stop(Exception):
    pass


def run(args: argparse.Namespace) -> int:
    stop = {"signal": None}

    def on_signal(signum: int, _frame: object) -> None:
        stop["signal"] = signum

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if not Path(f"/run/netns/{NETNS}").exists():
        raise DriverError(f"network namespace {NETNS} missing: run scripts/lab up")

    workdir = Path(tempfile.mkdtemp(prefix="agentd-chromium-"))
    server = None
    browser = None
    session = None
    failure = None
    try:
        www = workdir / "www"
        www.mkdir()
        for name in PAGE_FILES:
            os.symlink(HERE / name, www / name)
        os.symlink(JANUS_JS, www / "janus.js")
        os.symlink(ADAPTER_JS, www / "adapter.js")

        extra: list[str] = []
        if args.mode == "publish":
            y4m, wav = make_media(workdir, args)
            extra += [f"--use-file-for-fake-video-capture={y4m}", f"--use-file-for-fake-audio-capture={wav}"]
            log(f"media ready: {y4m.name} {args.video}@{args.fps:g} {args.video_seconds:g}s, "
                f"{wav.name} {args.tone:g} Hz")

        server, port = start_page_server(www)
        ws_host = urllib.parse.urlsplit(args.ws).hostname or ""
        if not is_ip_literal(ws_host):
            raise DriverError(f"--ws must use an IP address (no name resolves in Chromium): {args.ws}")
        browser, session = launch_and_attach(workdir, extra, ws_host, args.verbose)
        browser.call("Runtime.enable", session=session)
        browser.call("Runtime.addBinding", {"name": "agentdReport"}, session=session)
        url = f"http://127.0.0.1:{port}/{'publisher' if args.mode == 'publish' else 'subscriber'}.html?" \
              + urllib.parse.urlencode(page_query(args))
        browser.call("Page.enable", session=session)
        nav = browser.call("Page.navigate", {"url": url}, session=session)
        if nav.get("errorText"):
            raise DriverError(f"loading the page failed: {nav['errorText']}")
        log(f"page {url}")

        ready_at = None
        ready_deadline = time.monotonic() + args.connect_timeout
        end_at = None
        while True:
            if stop["signal"] is not None:
                log(f"signal {stop['signal']}: leaving")
                break
            now = time.monotonic()
            if ready_at is None and now > ready_deadline:
                raise DriverError(f"not READY within {args.connect_timeout:g}s")
            if end_at is not None and now >= end_at:
                break
            browser.pump(0.2)
            for ev in browser.events():
                kind, payload = page_event(ev, session, args.verbose)
                if kind == "ready":
                    ready_at = time.monotonic()
                    log(f"READY after {ready_at - _t0:.2f}s")
                    print("READY " + json.dumps(payload), flush=True)
                    if args.duration > 0:
                        end_at = ready_at + args.duration
                elif kind == "stats":
                    print("STATS " + json.dumps(payload), flush=True)
                elif kind == "error":
                    raise DriverError(f"page: {payload.get('message')}")
                elif kind == "crash":
                    raise DriverError("page crashed" + browser.tail_log())
        leave(browser, session)
    except DriverError as exc:
        failure = str(exc)
        if session is not None and browser is not None and not browser.closed and browser.proc.poll() is None:
            try:
                leave(browser, session)
            except Exception:
                pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if browser is not None:
            browser.close()
        stop_group(server, "page server")
        if args.verbose:
            log("page server gone")
        if args.keep_workdir:
            log(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    if failure:
        log(f"error: {failure}")
        return 1
    return 0


def is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def launch_and_attach(workdir: Path, extra: list[str], ws_host: str, verbose: bool) -> tuple["Chromium", str]:
    """Starts Chromium and attaches to its page. A Chromium that never answers its first CDP
    call (seen once in a CI run under full load: 30 s of silence on the pipe) is killed and
    started once more, in a fresh profile; a second silence is the error."""
    for attempt in (1, 2):
        run_dir = workdir if attempt == 1 else workdir / "retry"
        run_dir.mkdir(exist_ok=True)
        browser = Chromium(run_dir, extra, ws_host, verbose)
        try:
            return browser, attach_page(browser)
        except DriverError as exc:
            if attempt == 2 or "timed out" not in str(exc):
                browser.close()
                raise
            log(f"Chromium did not answer ({exc}); starting it again")
            browser.close()
    raise DriverError("unreachable")


def attach_page(browser: Chromium) -> str:
    """Attaches (flattened session) to the page Chromium opened for about:blank."""
    deadline = time.monotonic() + 20
    while True:
        targets = browser.call("Target.getTargets")["targetInfos"]
        pages = [t for t in targets if t.get("type") == "page"]
        if pages:
            target_id = pages[0]["targetId"]
            break
        if time.monotonic() > deadline:
            target_id = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            break
        browser.pump(0.1)
    return browser.call("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]


def page_query(args: argparse.Namespace) -> dict:
    q = {"ws": args.ws, "room": args.room, "debug": "1" if args.verbose else "0"}
    if args.pin:
        q["pin"] = args.pin
    if args.token:
        q["token"] = args.token
    if args.mode == "publish":
        q.update(display=args.display, create="1" if args.create else "0",
                 videocodec=args.video_codec or "", data_ms=str(args.data_interval_ms),
                 stats="1" if args.stats else "0", width=args.video.split("x")[0],
                 height=args.video.split("x")[1], fps=f"{args.fps:g}",
                 audio="0" if args.no_audio else "1", video="0" if args.no_video else "1")
    else:
        if args.feed_id:
            q["feed_id"] = args.feed_id
        else:
            q["feed_display"] = args.feed_display
        q["find_timeout"] = f"{args.find_timeout:g}"
        q["display"] = args.display
    return q


def page_event(ev: dict, session: str, verbose: bool) -> tuple[str | None, dict]:
    if ev.get("sessionId") not in (None, session):
        return None, {}
    method = ev.get("method")
    params = ev.get("params", {})
    if method == "Runtime.bindingCalled" and params.get("name") == "agentdReport":
        try:
            msg = json.loads(params.get("payload", ""))
        except json.JSONDecodeError:
            return None, {}
        if not isinstance(msg, dict):
            return None, {}
        return msg.get("type"), msg.get("data") or {}
    if method == "Runtime.consoleAPICalled" and verbose:
        text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
        log(f"console.{params.get('type')}: {text[:500]}")
    elif method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails", {})
        desc = details.get("exception", {}).get("description") or details.get("text")
        log(f"page exception: {desc}")
    elif method in ("Inspector.targetCrashed",):
        return "crash", {}
    elif method == "Target.detachedFromTarget" and params.get("sessionId") == session:
        return "crash", {}
    return None, {}


def leave(browser: Chromium, session: str) -> None:
    """Runs the page's agentdStop(): unpublish/leave, hang up, destroy the Janus session."""
    try:
        browser.call("Runtime.evaluate", {"expression": "window.agentdStop ? window.agentdStop() : null",
                                          "awaitPromise": True, "timeout": 8000}, session=session, timeout=10)
        log("page stopped (left the room if joined)")
    except DriverError as exc:
        log(f"leave failed: {exc}")


# ---- CLI ----------------------------------------------------------------------------------------

def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--ws", default=os.environ.get("JANUS_WS", DEFAULT_WS),
                        help=f"Janus WebSocket URL as seen inside the namespace (default {DEFAULT_WS})")
        sp.add_argument("--room", required=True, help="room id (string ids)")
        sp.add_argument("--pin", help="room pin")
        sp.add_argument("--token", help="Janus core token sent on every request")
        sp.add_argument("--duration", type=float, default=0.0, help="seconds after READY (0: until signalled)")
        sp.add_argument("--connect-timeout", type=float, default=30.0, help="seconds until READY")
        sp.add_argument("--keep-workdir", action="store_true", help="keep the temp dir (chromium.log)")
        sp.add_argument("--verbose", action="store_true", help="page console to stderr")

    pub = sub.add_parser("publish", help="publish fake camera + microphone (+ data)")
    common(pub)
    pub.add_argument("--display", required=True)
    pub.add_argument("--create", action="store_true", help="create the room first (ignores 'already exists')")
    pub.add_argument("--tone", type=float, default=440.0, help="sine frequency in Hz (default 440)")
    pub.add_argument("--tone-gain", type=float, default=0.5, help="sine amplitude 0..1 (default 0.5)")
    pub.add_argument("--video-codec", choices=["vp8", "vp9", "h264"], help="force this codec (default: room's first)")
    pub.add_argument("--video", default="640x480", help="WxH (default 640x480)")
    pub.add_argument("--fps", type=float, default=30.0)
    pub.add_argument("--video-seconds", type=float, default=4.0, help="length of the looped y4m")
    pub.add_argument("--audio-seconds", type=float, default=10.0, help="length of the looped WAV")
    pub.add_argument("--data-interval-ms", type=int, default=0, help="data channel message period (0: no channel)")
    pub.add_argument("--no-audio", action="store_true")
    pub.add_argument("--no-video", action="store_true")
    pub.add_argument("--stats", action="store_true", help="print outbound STATS every second")

    sb = sub.add_parser("subscribe", help="subscribe to one feed and print inbound STATS every second")
    common(sb)
    feed = sb.add_mutually_exclusive_group(required=True)
    feed.add_argument("--feed-display", help="subscribe to the publisher with this display name")
    feed.add_argument("--feed-id", help="subscribe to this publisher id")
    sb.add_argument("--find-timeout", type=float, default=15.0, help="seconds to wait for the feed")
    sb.add_argument("--display", default="chromium-subscriber")
    args = p.parse_args(argv)
    if args.mode == "publish":
        parse_size(args.video)
        if not 20 <= args.tone <= 20000:
            p.error("--tone must be 20..20000 Hz")
        if not 0 < args.tone_gain <= 1:
            p.error("--tone-gain must be in (0, 1]")
        if args.no_audio and args.no_video:
            p.error("nothing to publish")
    return args


def main() -> int:
    try:
        args = parse_args()
    except DriverError as exc:
        print(f"driver.py: error: {exc}", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("driver.py: error: must run as root (ip netns exec)", file=sys.stderr)
        return 2
    try:
        return run(args)
    except DriverError as exc:
        log(f"error: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
