"""The writer process of a pymunk capture (``python -m collidoscope_capture._child OUT``): it
reads the game's frames as raw numbers from its standard input (length-prefixed pickles of
plain tuples, bytes and dicts), makes each frame's text (:mod:`._frames`) and writes it to OUT,
so the game's process pays only for reading pymunk. It writes every frame it was given before
it stops, also when the game dies (its end of the pipe closes). A frame it cannot write ends
it: the message goes to its standard error and the game raises it at its next step.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
import threading
from collections import deque
from typing import Any

from ._frames import FrameMaker, frame_line
from .output import open_output
from .writer import CaptureError

#: How many frames may wait in the writer process before the game waits for it.
QUEUE = 64


def _message(data: bytes) -> Any:
    """A message: its tuple, with its buffers appended (as ``bytes``)."""
    meta, count = struct.unpack_from("<II", data, 0)
    sizes = struct.unpack_from("<%dI" % count, data, 8)
    at = 8 + 4 * count
    message = pickle.loads(data[at:at + meta])
    at += meta
    buffers = []
    for size in sizes:
        buffers.append(data[at:at + size])
        at += size
    return tuple(message) + tuple(buffers)


def _read(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd``, fewer only at its end."""
    parts = []
    while size > 0:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            break
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


def _messages(fd: int, queue: deque, ready: threading.Condition) -> None:
    """Read the messages into ``queue`` (``None`` at the end)."""
    try:
        while True:
            head = _read(fd, 4)
            if len(head) < 4:
                break
            (size,) = struct.unpack("<I", head)
            body = _read(fd, size)
            if len(body) < size:
                break
            with ready:
                while len(queue) >= QUEUE:
                    ready.wait()
                queue.append(_message(body))
                ready.notify_all()
    finally:
        with ready:
            queue.append(None)
            ready.notify_all()


def main(out: str) -> int:
    queue: deque = deque()
    ready = threading.Condition()
    reader = threading.Thread(target=_messages, args=(sys.stdin.fileno(), queue, ready), daemon=True)
    reader.start()
    output = None
    maker = FrameMaker()
    frame = 0
    try:
        while True:
            with ready:
                while not queue:
                    ready.wait()
                message = queue.popleft()
                ready.notify_all()
            if message is None or message[0] == "close":
                break
            kind = message[0]
            if kind == "header":
                output = open_output(out)
                output.write(message[1])
                sys.stdout.write("ready\n")
                sys.stdout.flush()
            elif kind == "update":
                maker.update(*message[1:])
            elif kind == "frame":
                _, time, extra, asleep, mixed, vel_ids, vel, pose_ids, pose, arb_ints, arb = message
                line = frame_line(maker, frame, time, vel_ids, vel, pose_ids, pose, extra, arb_ints, arb, asleep, mixed)
                output.write(line)
                frame += 1
    except (CaptureError, OSError, ValueError) as e:
        sys.stderr.write(str(e) + "\n")
        sys.stderr.flush()
        return 3
    finally:
        if output is not None:
            output.close()
    return 0


if __name__ == "__main__":
    status = main(sys.argv[1])
    sys.stdout.flush()
    sys.stderr.flush()
    # The reader thread may be waiting on the pipe: leave without waiting for it.
    os._exit(status)
