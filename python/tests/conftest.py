"""What the tests share: the collidoscope binary that judges the captures (COLLIDOSCOPE_BIN,
else the repository's debug or release build), reading a capture back, and the report's
parts the tests look at."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def collidoscope() -> str:
    candidates = [
        os.environ.get("COLLIDOSCOPE_BIN"),
        str(REPOSITORY / "target" / "debug" / "collidoscope"),
        str(REPOSITORY / "target" / "release" / "collidoscope"),
    ]
    for c in candidates:
        if c and os.path.exists(c):
            return c
    raise RuntimeError(
        "no collidoscope binary: build it (cargo build) or set COLLIDOSCOPE_BIN; looked at %s"
        % ", ".join(c for c in candidates if c)
    )


def diagnose(path: Any) -> Dict[str, Any]:
    """``collidoscope diagnose --json FILE``, parsed (its exit status is 1 when it found
    anything)."""
    run = subprocess.run([collidoscope(), "diagnose", "--json", str(path)], capture_output=True)
    if run.returncode not in (0, 1) or not run.stdout:
        raise RuntimeError("diagnose %s failed (%d): %s" % (path, run.returncode, run.stderr.decode()))
    report = json.loads(run.stdout)
    if "error" in report:
        raise RuntimeError("diagnose refused %s: %s" % (path, report["error"]))
    return report


def lines(path: Any) -> List[Dict[str, Any]]:
    """A capture's lines, parsed (gzip or not)."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return [json.loads(line) for line in data.decode().splitlines() if line]


def disagreeing(report: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [dict(c, frame=f["frame"]) for f in report["frames"] for c in f["claims"] if not c["agrees"]]


def events(report: Dict[str, Any], kind: str) -> List[Dict[str, Any]]:
    return [e for e in report["events"] if e["kind"] == kind]


def names(path: Any) -> Dict[int, str]:
    """Each id's name, as the capture gives it."""
    out: Dict[int, str] = {}
    for line in lines(path)[1:]:
        for s in line.get("shapes", []):
            if "name" in s:
                out[s["id"]] = s["name"]
    return out


def first_drop(speeds: Sequence[float], floor: float) -> Optional[int]:
    """The first k at which a speed fell below half of the one before (speeds[k] is after
    step k)."""
    for k in range(1, len(speeds)):
        if speeds[k - 1] > floor and speeds[k] < speeds[k - 1] / 2:
            return k
    return None


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path
