"""ptydrive.py - drive tdbg's full-screen interface through a pseudo-terminal
and time it, for tests/bench/bench.py.

A real terminal is not needed: tdbg runs on the slave side of a pty of a
fixed size with TERM=xterm-256color; we read everything it writes, with a
timestamp per read.  Times:

  first paint   from fork() to the read that completes MARKER, a text the
                status bar shows once the first full screen is drawn (escape
                sequences are stripped before searching);
  keypress      from writing the key to the last byte of the answer, where
                the answer ends when the terminal stays quiet for QUIET
                seconds (the quiet time itself is not counted).

Peak RSS comes from wait4() when the session ends.  Not a terminal
emulator: it only looks for text in the byte stream.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time

ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78DMEc])")


def strip(data):
    return ANSI.sub(b"", data).replace(b"\r", b"").replace(b"\x0f", b"").replace(b"\x0e", b"")


class Session:
    def __init__(self, argv, cols=120, rows=40, env=None):
        self.cols, self.rows = cols, rows
        self.out = bytearray()
        self.t_start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                e = dict(os.environ)
                e.update(env or {})
                e["TERM"] = "xterm-256color"
                e.pop("COLUMNS", None)
                e.pop("LINES", None)
                os.execve(argv[0], argv, e)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.status = None
        self.rusage = None

    def _read(self, timeout):
        """One read with a timeout; returns (bytes, time) or (b"", None)."""
        r, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not r:
            return b"", None
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return None, time.perf_counter()
        t = time.perf_counter()
        self.out += data
        return data, t

    def wait_text(self, marker, timeout=30.0):
        """Seconds from start until marker is in the (stripped) output, or None."""
        deadline = time.perf_counter() + timeout
        seen = bytearray()
        m = marker.encode()
        while time.perf_counter() < deadline:
            data, t = self._read(deadline - time.perf_counter())
            if data is None:
                return None
            if not data:
                continue
            seen += data
            if m in strip(bytes(seen)):
                return t - self.t_start
        return None

    def drain(self, quiet=0.05, limit=30.0, first_wait=None):
        """Reads until quiet for `quiet` seconds (waiting up to first_wait for
        the first byte); returns the time of the last byte, or None."""
        last = None
        deadline = time.perf_counter() + limit
        wait = quiet if first_wait is None else first_wait
        while time.perf_counter() < deadline:
            data, t = self._read(min(wait, max(0.0, deadline - time.perf_counter())))
            wait = quiet
            if data is None:
                return last
            if not data:
                return last
            last = t
        return last

    def key(self, keys, quiet=0.03, limit=5.0):
        """Sends keys; returns seconds to the last byte of the answer (None: no
        answer within limit).  The answer may take up to limit to start."""
        t0 = time.perf_counter()
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)
        last = self.drain(quiet, limit, first_wait=limit)
        return None if last is None else last - t0

    def key_until(self, keys, text, quiet=0.03, limit=30.0):
        """Sends keys, waits until text shows in the answer, then until the
        terminal is quiet; returns seconds to the last byte (None: text never
        came within limit)."""
        t0 = time.perf_counter()
        at = len(self.out)
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)
        want = text.encode()
        deadline = t0 + limit
        last = None
        while want not in strip(bytes(self.out[at:])):
            if time.perf_counter() >= deadline:
                return None
            data, t = self._read(deadline - time.perf_counter())
            if data is None:
                return None
            if data:
                last = t
        more = self.drain(quiet, limit)
        return (more or last) - t0

    def screen_text(self):
        return strip(bytes(self.out)).decode("utf-8", "replace")

    def close(self, quit_keys="q", timeout=5.0):
        """Quits (quit_keys, then SIGTERM, SIGKILL); returns (status, rusage)."""
        try:
            os.write(self.fd, quit_keys.encode())
        except OSError:
            pass
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            self.drain(0.05, 0.2)
            pid, status, ru = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.status, self.rusage = status, ru
                break
        else:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.kill(self.pid, sig)
                except ProcessLookupError:
                    break
                time.sleep(0.2)
                pid, status, ru = os.wait4(self.pid, os.WNOHANG)
                if pid:
                    self.status, self.rusage = status, ru
                    break
        os.close(self.fd)
        return self.status, self.rusage
