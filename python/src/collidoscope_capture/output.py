"""Where a capture's lines go: a file (``.gz`` compressed), a callable, a TCP stream to a
listening collidoscope (``tcp://127.0.0.1:PORT``), or any object with ``write(line)`` and
maybe ``close()``."""

from __future__ import annotations

import gzip
import os
import socket
from typing import Any, Callable
from urllib.parse import urlsplit


class Output:
    """An output: ``write(line)`` for each line (a ``str`` ending in ``\\n``), ``close()`` at
    the end."""

    def __init__(self, write: Callable[[str], Any], close: Callable[[], Any]) -> None:
        self.write = write
        self.close = close


def open_output(out: Any) -> Output:
    """An output for ``out``:

    - a callable: called with each line;
    - ``tcp://127.0.0.1:PORT``: each line sent to ``collidoscope --listen PORT`` (or
      ``collidoscope diagnose --listen PORT``) over a TCP connection to this machine;
    - any other ``str`` or path: a file, written line by line (a crash keeps every line
      written), gzip-compressed when the name ends in ``.gz`` (each line a gzip member of its
      own: readers take the members one after another as one text);
    - an object with ``write(line)`` (and optionally ``close()``): used as it is.
    """
    if hasattr(out, "write") and callable(out.write):
        closer = getattr(out, "close", None)
        return Output(out.write, closer if callable(closer) else (lambda: None))
    if callable(out):
        return Output(out, lambda: None)
    if isinstance(out, str) and out.startswith("tcp://"):
        return _tcp_output(out)
    if isinstance(out, (str, os.PathLike)):
        return _file_output(os.fspath(out))
    raise TypeError(
        "collidoscope-capture: \"out\" must be a file path, a callable, a tcp://127.0.0.1:PORT address "
        "or an object with write(line), found %s" % type(out).__name__
    )


def _file_output(path: str) -> Output:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except OSError as e:
        raise OSError("collidoscope-capture: cannot write %s: %s" % (path, e.strerror)) from e
    compressed = path.endswith(".gz")
    state = {"fd": fd}

    def write(line: str) -> None:
        data = line.encode("utf-8")
        if compressed:
            data = gzip.compress(data, compresslevel=1, mtime=0)
        view = memoryview(data)
        while view:
            written = os.write(state["fd"], view)
            view = view[written:]

    def close() -> None:
        if state["fd"] is not None:
            os.close(state["fd"])
            state["fd"] = None

    return Output(write, close)


def tcp_address(address: str) -> int:
    """The port of ``tcp://127.0.0.1:PORT`` (a ``ValueError`` for any other address)."""
    parts = urlsplit(address)
    if parts.hostname not in ("127.0.0.1", "localhost"):
        raise ValueError(
            "collidoscope-capture: %s: a capture streams to this machine only (tcp://127.0.0.1:PORT)" % address
        )
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None:
        raise ValueError("collidoscope-capture: %s: name the port (tcp://127.0.0.1:PORT)" % address)
    return port


def _tcp_output(address: str) -> Output:
    port = tcp_address(address)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    except OSError as e:
        raise OSError(
            "collidoscope-capture: cannot stream to %s: is `collidoscope --listen %d` running? (%s)"
            % (address, port, e.strerror or e)
        ) from e
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def write(line: str) -> None:
        sock.sendall(line.encode("utf-8"))

    def close() -> None:
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        sock.close()

    return Output(write, close)
