"""GLib's default main context on a thread of its own, for the GStreamer peers.

libsoup (the Janus WebSocket), the pipeline's bus watch and the SIGTERM/SIGINT handlers all
run on it, so the peer's main thread can drive the Janus message flow step by step and
block on each reply with a timeout. Soup objects are touched only on this thread: other
threads hand work over with ``post`` (g_idle_add is thread-safe).
"""

from __future__ import annotations

import signal
import threading
from typing import Any, Callable

import gi

gi.require_version("GLib", "2.0")
from gi.repository import GLib  # noqa: E402


class Outcome:
    """One result handed from the loop thread to a waiting thread: a value or an exception."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None

    def succeed(self, value: Any = None) -> None:
        if not self._done.is_set():
            self._value = value
            self._done.set()

    def fail(self, error: BaseException) -> None:
        if not self._done.is_set():
            self._error = error
            self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float, what: str) -> Any:
        if not self._done.wait(timeout):
            raise TimeoutError(f"no {what} within {timeout}s")
        if self._error is not None:
            raise self._error
        return self._value


class MainLoopThread:
    def __init__(self) -> None:
        self._loop = GLib.MainLoop()
        self._thread = threading.Thread(target=self._loop.run, name="glib-main", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def on_loop(self) -> bool:
        return threading.current_thread() is self._thread

    def post(self, work: Callable[[], None]) -> None:
        """Runs work once on the loop thread, soon."""
        def once() -> bool:
            work()
            return False
        GLib.idle_add(once)

    def every(self, seconds: int, work: Callable[[], None]) -> int:
        """Runs work on the loop thread every `seconds` until ``cancel`` with the returned id."""
        def repeat() -> bool:
            work()
            return True
        return GLib.timeout_add_seconds(seconds, repeat)

    @staticmethod
    def cancel(source_id: int) -> None:
        GLib.source_remove(source_id)

    def on_termination_signals(self, handler: Callable[[], None]) -> None:
        """Calls handler on the loop thread at SIGTERM or SIGINT; call it on the main thread,
        before ``start``. GLib's handlers wake the loop
        through a pipe, so the signal is seen whichever thread the kernel delivers it to (a
        Python handler would run only when the main thread next runs bytecode)."""
        def on_signal(*_) -> bool:
            handler()
            return True  # keep the handler: a second signal is a no-op, not a default kill

        for sig in (signal.SIGTERM, signal.SIGINT):
            GLib.unix_signal_add(GLib.PRIORITY_HIGH, sig, on_signal)
        # A parent may hand its blocked signals down: a child of the Swift test runner starts
        # with SIGTERM and SIGINT blocked in its mask (the spawning thread's), and then never
        # sees them, so every stop became a SIGKILL 5 s later, without unpublish or leave.
        # Unblocked here, on the calling (main) thread, and inherited by threads made after.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    def stop(self, timeout: float = 5.0) -> None:
        self._loop.quit()
        if self._thread.is_alive() and not self.on_loop:
            self._thread.join(timeout)
