"""The writer process a capture hands its frames to (:mod:`._child`): started with the
game's own Python (``python -m collidoscope_capture._child OUT``), fed length-prefixed pickles
through its standard input, so the game's process pays only for reading the engine. It writes
every frame it was given before it stops, also when the game dies; a frame it could not write
ends it, and the game raises its message at the next step or at ``close``."""

from __future__ import annotations

import atexit
import os
import pickle
import struct
import subprocess
import sys
import weakref
from typing import Any, List, Optional, Sequence

from .output import tcp_address
from .writer import CaptureError


def _write_all(fd: int, parts: List[Any]) -> None:
    """Write every part, in order, with as few calls as the system allows."""
    views = [memoryview(p).cast("B") for p in parts if len(p)]
    writev = getattr(os, "writev", None)
    while views:
        if writev is not None:
            written = writev(fd, views[:512])
        else:  # pragma: no cover - Windows
            written = os.write(fd, views[0])
        while written and views:
            size = views[0].nbytes
            if written >= size:
                written -= size
                views.pop(0)
            else:
                views[0] = views[0][written:]
                written = 0


def wants_process(out: Any) -> bool:
    """Whether ``out`` is written by a writer process: a file path or a ``tcp://`` stream
    (a callable or an object stays in the game's process)."""
    if hasattr(out, "write") or callable(out):
        return False
    return isinstance(out, (str, os.PathLike)) and bool(sys.executable)


class WriterProcess:
    """A writer process for ``out``, given its header line."""

    def __init__(self, out: Any, header: str) -> None:
        path = os.fspath(out)
        if path.startswith("tcp://"):
            tcp_address(path)
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = package + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "collidoscope_capture._child", path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            # Unbuffered: what the game handed over is in the pipe, even if the game dies.
            bufsize=0,
        )
        self._pipe = self._proc.stdin
        self._fd = self._pipe.fileno()
        self._closed = False
        self._reported = False
        self._said = ""
        self.send(("header", header))
        # The process says "ready" once its output is open: a file that cannot be made or a
        # window not listening is raised here, in the game, before its first step.
        ready = self._proc.stdout.readline()
        if ready.strip() != b"ready":
            self._proc.wait()
            raise OSError(self._message())
        # At the interpreter's exit, a capture not closed still hands over every frame.
        ref = weakref.ref(self)
        atexit.register(lambda: ref() is not None and ref()._finish())

    def send(self, message: Any, buffers: Sequence[Any] = ()) -> None:
        """Hand a message to the process (waiting when it is far behind): a plain tuple, and
        large buffers sent as they are, after it (the process finds them, as ``bytes``, at the
        end of the tuple)."""
        body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        views = [memoryview(b).cast("B") for b in buffers]
        head = struct.pack("<II", len(body), len(views)) + b"".join(struct.pack("<I", v.nbytes) for v in views)
        total = len(head) + len(body) + sum(v.nbytes for v in views)
        parts = [struct.pack("<I", total), head, body] + views
        try:
            _write_all(self._fd, parts)
        except (BrokenPipeError, OSError):
            self.check()
            raise CaptureError("collidoscope-capture: the writer process stopped")

    def check(self) -> None:
        """Raise what stopped the writer process, if it stopped (once)."""
        if not self._reported and self._proc.poll() is not None and self._proc.returncode != 0:
            self._reported = True
            raise CaptureError(self._message())

    def _message(self) -> str:
        if not self._said and self._proc.stderr:
            self._said = self._proc.stderr.read().decode("utf-8", "replace").strip()
        return self._said or "collidoscope-capture: the writer process stopped (status %d)" % self._proc.returncode

    def _finish(self) -> Optional[str]:
        """Send the end and wait until every frame is written; the message of a failure."""
        if self._closed:
            return None
        self._closed = True
        try:
            self.send(("close",))
        except CaptureError:
            pass
        try:
            self._pipe.close()
        except OSError:
            pass
        self._proc.wait()
        if self._proc.returncode != 0 and not self._reported:
            self._reported = True
            return self._message()
        return None

    def close(self) -> None:
        """End the capture once every frame is written (a frame that could not be is raised)."""
        problem = self._finish()
        if problem is not None:
            raise CaptureError(problem)
