"""Capture what a Python physics engine collided, frame by frame, for collidoscope to judge:
every contact against the exact one, seams, tunnels, stale contacts (docs/format.md,
"Captures"). The engine adapters: :mod:`collidoscope_capture.pymunk` (pymunk 6 and 7)."""

from .writer import FORMAT, VERSION, CaptureError, CaptureWriter, num

__version__ = "0.1.0"

__all__ = ["FORMAT", "VERSION", "CaptureError", "CaptureWriter", "num", "__version__"]
