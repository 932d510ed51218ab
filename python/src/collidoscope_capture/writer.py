"""The capture writer: the file conventions of collidoscope's own Rust ``CaptureWriter``
(docs/format.md, "Captures"): a header line, then one line a step holding only the shapes
added or changed since the line before, each line written out as it is made, so a game that
crashes leaves every frame before the crash intact. Engine adapters (``.pymunk``) turn a world
into the plain data this writer takes.
"""

from __future__ import annotations

import json
import math
from typing import Any, Dict, Iterable, List, Sequence, Tuple

from .output import open_output

#: The capture format this package writes.
FORMAT = "collidoscope-capture"
#: The capture format's version.
VERSION = 1

KINDS = ("circle", "capsule", "polygon", "segment", "chain")
BODIES = ("static", "kinematic", "dynamic")

_isfinite = math.isfinite


def num(x: float) -> str:
    """A number as JSON writes it: the shortest digits that read back to the same double
    (``-0.0`` as ``0``)."""
    if x == 0:
        return "0"
    return repr(float(x))


def _point(p: Sequence[float]) -> str:
    return "[" + num(p[0]) + "," + num(p[1]) + "]"


def _shown(value: Any) -> str:
    """A value as a message shows it: NaN and the infinities by name."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


class CaptureError(ValueError):
    """What a capture cannot hold, naming the shape or the pair (a ``ValueError``)."""


def _fail(what: str, message: str) -> None:
    raise CaptureError("collidoscope-capture: " + what + ": " + message)


class CaptureWriter:
    """A capture being written.

    ``header``: ``{"engine": {"name", "version", "settings"?}, "precision": "f64" | "f32",
    "units", "y_up"}``. ``out``: what :func:`open_output` takes (a file path, ``.gz``
    compressed; a callable given each line; ``tcp://127.0.0.1:PORT``; or an object with
    ``write(line)`` and maybe ``close()``).
    """

    def __init__(self, out: Any, header: Dict[str, Any]) -> None:
        _check_header(header)
        self._out = open_output(out)
        self.frame_number = 0
        # id -> what was written of it: [kind, geometry text, geometry_of, name, filter text,
        # body_id, x, y, angle, body, vx, vy, angular]
        self._known: Dict[int, list] = {}
        self._removed: set = set()
        self.closed = False
        self._out.write(header_line(header))

    def frame(self, time: float, shapes: Iterable[Dict[str, Any]], manifolds: Iterable[Dict[str, Any]]) -> None:
        """Write one frame: ``time`` in seconds, every shape as the engine collided it this
        step, and every contact manifold it reported.

        A shape: ``{"id", "name"?, "kind", "radius"?, "a"?, "b"?, "points"?, "loop"?,
        "position": (x, y), "angle", "body": "static" | "kinematic" | "dynamic",
        "velocity"?: (vx, vy), "angular_velocity"?, "awake", "filter"?: {"category", "mask",
        "group"?, "either"?} | None, "body_id"?: int | None, "what", "geometry_of"?}`` where
        ``what`` names it in errors ("shape 3 on body 'crate'") and ``geometry_of`` is an
        object whose identity says the geometry has not changed since the frame before (it is
        then checked once).

        A manifold: ``{"a", "b", "normal": (x, y) (from a toward b), "points": [{"point":
        (x, y), "separation", "impulse"?}] (negative when penetrating; the solver's normal
        impulse at the point over the step, >= 0, where the engine gives it), "piece"?}``.

        Nothing is written when a number is not finite or an id is repeated: the
        :class:`CaptureError` names the shape or the pair, and the file keeps every frame
        before.
        """
        if self.closed:
            raise CaptureError("collidoscope-capture: the capture is closed")
        if not (_isfinite(time) and time >= 0):
            raise CaptureError(
                "collidoscope-capture: frame %d: the time %s must be a finite number >= 0" % (self.frame_number, time)
            )
        shapes = list(shapes)
        present: Dict[int, Dict[str, Any]] = {}
        known = self._known
        for s in shapes:
            sid = s["id"]
            earlier = known.get(sid)
            geometry_known = (
                earlier is not None
                and s.get("geometry_of") is not None
                and s.get("geometry_of") is earlier[2]
                and s["kind"] == earlier[0]
            )
            if not (geometry_known and _quick_pose(s)):
                _check_shape(s, geometry_known)
            what = s.get("what") or "shape %s" % sid
            if sid in present:
                _fail(what, "id %d is given twice in one frame" % sid)
            if earlier is None and sid in self._removed:
                _fail(what, "id %d was removed earlier and cannot come back" % sid)
            if earlier is not None and earlier[0] != s["kind"]:
                _fail(what, "id %d was a %s and is now a %s (an id never changes kind)" % (sid, earlier[0], s["kind"]))
            present[sid] = s
        # The last check: from here on nothing raises, and what the line says is remembered as
        # it is made.
        claims = _choose_claims(manifolds, present, self.frame_number)
        texts = []
        for s in shapes:
            keys = self._shape_keys(s)
            if keys != "":
                texts.append('{"id":' + str(s["id"]) + keys + "}")
        gone: List[int] = []
        if len(known) > len(present):
            gone = sorted(i for i in known if i not in present)
            for i in gone:
                del known[i]
                self._removed.add(i)
        self.write_frame(time, texts, gone, claims)

    def write_frame(self, time: float, shapes: Sequence[str], removed: Sequence[int], claims: Sequence[str]) -> None:
        """Write a frame made elsewhere (an adapter that keeps what it wrote itself): each
        shape's text (``{"id":..,...}``: what changed), the ids removed, each claim's text."""
        if self.closed:
            raise CaptureError("collidoscope-capture: the capture is closed")
        if not (_isfinite(time) and time >= 0):
            raise CaptureError(
                "collidoscope-capture: frame %d: the time %s must be a finite number >= 0" % (self.frame_number, time)
            )
        self._out.write(frame_line(self.frame_number, time, shapes, removed, claims))
        self.frame_number += 1

    def _shape_keys(self, s: Dict[str, Any]) -> str:
        """The keys of ``s`` to write after its id: all the first time, then those that
        changed; what is written is remembered."""
        before = self._known.get(s["id"])
        static = s["body"] == "static"
        velocity = (0.0, 0.0) if static else (s.get("velocity") or (0.0, 0.0))
        angular = 0.0 if static else (s.get("angular_velocity") or 0.0)
        flt = s.get("filter")
        filter_text = None if flt is None else _filter_text(flt)
        body_id = s.get("body_id")
        name = s.get("name")
        x, y = s["position"]
        angle = s["angle"]
        vx, vy = velocity
        if before is None:
            geometry = _geometry_keys(s)
            keys = []
            if name is not None:
                keys.append(',"name":' + json.dumps(str(name)))
            keys.append(',"kind":"' + s["kind"] + '"' + geometry)
            if filter_text is not None:
                keys.append(',"filter":' + filter_text)
            if body_id is not None:
                keys.append(',"body_id":' + str(int(body_id)))
            keys.append(',"position":[' + num(x) + "," + num(y) + '],"angle":' + num(angle) + ',"body":"' + s["body"] + '"')
            if not static:
                keys.append(',"velocity":[' + num(vx) + "," + num(vy) + '],"angular_velocity":' + num(angular))
            self._known[s["id"]] = [
                s["kind"], geometry, s.get("geometry_of"), name, filter_text, body_id,
                x, y, angle, s["body"], vx, vy, angular,
            ]
            return "".join(keys)
        keys = []
        if name != before[3] and name is not None:
            keys.append(',"name":' + json.dumps(str(name)))
        before[3] = name
        geometry_of = s.get("geometry_of")
        if geometry_of is None or geometry_of is not before[2]:
            geometry = _geometry_keys(s)
            if geometry != before[1]:
                keys.append(geometry)
            before[1] = geometry
            before[2] = geometry_of
        if filter_text != before[4]:
            keys.append(',"filter":' + (filter_text if filter_text is not None else "null"))
        before[4] = filter_text
        if body_id != before[5]:
            keys.append(',"body_id":' + (str(int(body_id)) if body_id is not None else "null"))
        before[5] = body_id
        if x != before[6] or y != before[7]:
            keys.append(',"position":[' + num(x) + "," + num(y) + "]")
        if angle != before[8]:
            keys.append(',"angle":' + num(angle))
        if s["body"] != before[9]:
            keys.append(',"body":"' + s["body"] + '"')
        if vx != before[10] or vy != before[11]:
            keys.append(',"velocity":[' + num(vx) + "," + num(vy) + "]")
        if angular != before[12]:
            keys.append(',"angular_velocity":' + num(angular))
        before[6] = x
        before[7] = y
        before[8] = angle
        before[9] = s["body"]
        before[10] = vx
        before[11] = vy
        before[12] = angular
        return "".join(keys)

    def close(self) -> None:
        """End the capture: the output is finished (a file closed; a stream's end sent)."""
        if self.closed:
            return
        self.closed = True
        self._out.close()

    def __enter__(self) -> "CaptureWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def frame_line(frame: int, time: float, shapes: Sequence[str], removed: Sequence[int], claims: Sequence[str]) -> str:
    """A frame's line from its parts' texts."""
    line = '{"frame":' + str(frame) + ',"time":' + num(time) + ',"shapes":[' + ",".join(shapes) + "]"
    if removed:
        line += ',"removed":[' + ",".join(str(i) for i in removed) + "]"
    return line + ',"claims":[' + ",".join(claims) + "]}\n"


def header_line(header: Dict[str, Any]) -> str:
    """The header's line."""
    engine: Dict[str, Any] = {"name": header["engine"]["name"], "version": header["engine"]["version"]}
    settings = header["engine"].get("settings")
    if settings:
        engine["settings"] = settings
    line = {
        "format": FORMAT,
        "version": VERSION,
        "engine": engine,
        "precision": header["precision"],
        "units": header["units"],
        "y_up": header["y_up"],
    }
    return json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n"


def _check_header(h: Any) -> None:
    def fail(message: str) -> None:
        raise CaptureError("collidoscope-capture: the header: " + message)

    if not isinstance(h, dict):
        fail("it must be a dict")
    engine = h.get("engine")
    if not isinstance(engine, dict) or not isinstance(engine.get("name"), str) or engine.get("name") == "":
        fail('"engine.name" must be a non-empty string')
    if not isinstance(engine.get("version"), str):
        fail('"engine.version" must be a string')
    settings = engine.get("settings")
    if settings is not None:
        if not isinstance(settings, dict):
            fail('"engine.settings" must be a dict of strings, numbers and booleans')
        for key, value in settings.items():
            if not isinstance(value, (str, bool, int, float)) or (isinstance(value, float) and not _isfinite(value)):
                fail('"engine.settings.%s" must be a string, a finite number or a boolean, found %r' % (key, value))
    if h.get("precision") not in ("f64", "f32"):
        fail('"precision" must be "f64" or "f32", found %s' % json.dumps(h.get("precision")))
    if not isinstance(h.get("units"), str) or h.get("units") == "":
        fail('"units" must be a non-empty string')
    if not isinstance(h.get("y_up"), bool):
        fail('"y_up" must be True or False')


def _quick_pose(s: Dict[str, Any]) -> bool:
    """Whether a known shape's pose and motion are finite numbers and its body a body type
    (the common case, checked without making a message)."""
    p = s["position"]
    v = s.get("velocity")
    w = s.get("angular_velocity")
    body = s["body"]
    return (
        _isfinite(p[0])
        and _isfinite(p[1])
        and _isfinite(s["angle"])
        and (v is None or (_isfinite(v[0]) and _isfinite(v[1])))
        and (w is None or _isfinite(w))
        and (body == "dynamic" or body == "static" or body == "kinematic")
        and (body == "static" or (s["kind"] != "segment" and s["kind"] != "chain"))
    )


def _check_shape(s: Dict[str, Any], geometry_known: bool) -> None:
    """Refuse, naming the shape, what the reader would refuse or JSON cannot hold (its
    geometry left alone when ``geometry_known``: checked when it was first given)."""
    what = s.get("what") or "shape %s" % s.get("id")
    sid = s.get("id")
    if not isinstance(sid, int) or isinstance(sid, bool) or not (0 <= sid < 2**53):
        _fail(what, "the id %r must be an integer in [0, 2^53)" % (sid,))
    kind = s.get("kind")
    if kind not in KINDS:
        _fail(what, '"kind" %s is not one of circle, capsule, polygon, segment, chain' % json.dumps(kind))
    body = s.get("body")
    if body not in BODIES:
        _fail(what, '"body" %s is not static, kinematic or dynamic' % json.dumps(body))
    if kind in ("segment", "chain") and body != "static":
        _fail(what, "a %s is static geometry: it cannot be on a %s body" % (kind, body))

    def finite_point(p: Any, key: str) -> None:
        if not (
            isinstance(p, (list, tuple))
            and len(p) == 2
            and all(isinstance(c, (int, float)) and not isinstance(c, bool) and _isfinite(c) for c in p)
        ):
            _fail(what, '"%s" must be two finite numbers, found %s' % (key, _shown(p)))

    def finite(x: Any, key: str) -> None:
        if not (isinstance(x, (int, float)) and not isinstance(x, bool) and _isfinite(x)):
            _fail(what, '"%s" must be a finite number, found %s' % (key, _shown(x)))

    finite_point(s.get("position"), "position")
    finite(s.get("angle"), "angle")
    if s.get("velocity") is not None:
        finite_point(s["velocity"], "velocity")
    if s.get("angular_velocity") is not None:
        finite(s["angular_velocity"], "angular_velocity")
    if geometry_known:
        return
    if kind in ("circle", "capsule"):
        finite(s.get("radius"), "radius")
        if not s["radius"] > 0:
            _fail(what, 'a %s\'s "radius" must be > 0, found %s' % (kind, _shown(s["radius"])))
    if kind == "polygon" and s.get("radius") is not None:
        finite(s["radius"], "radius")
        if s["radius"] < 0:
            _fail(what, 'a polygon\'s "radius" must be >= 0, found %s' % _shown(s["radius"]))
    if kind in ("capsule", "segment"):
        finite_point(s.get("a"), "a")
        finite_point(s.get("b"), "b")
    if kind in ("polygon", "chain"):
        points = s.get("points")
        if not isinstance(points, (list, tuple)):
            _fail(what, '"points" must be a list of points')
        for i, p in enumerate(points):
            finite_point(p, "points[%d]" % i)
        if kind == "polygon" and len(points) < 3:
            _fail(what, "a polygon needs 3 points or more, found %d" % len(points))
        if kind == "chain" and len(points) < 2:
            _fail(what, "a chain needs 2 points or more, found %d" % len(points))
    flt = s.get("filter")
    if flt is not None:
        for key in ("category", "mask"):
            v = flt.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or not (0 <= v < 2**64):
                _fail(what, '"filter": "%s" must be an integer in [0, 2^64) (bits), found %r' % (key, v))
        g = flt.get("group", 0)
        if not isinstance(g, int) or isinstance(g, bool) or not (-(2**63) <= g < 2**63):
            _fail(what, '"filter": "group" must be an integer in [-2^63, 2^63), found %r' % (g,))
    body_id = s.get("body_id")
    if body_id is not None and (not isinstance(body_id, int) or isinstance(body_id, bool) or not (0 <= body_id < 2**53)):
        _fail(what, '"body_id" must be an integer in [0, 2^53), found %r' % (body_id,))


def _filter_text(f: Dict[str, Any]) -> str:
    text = '{"category":%d,"mask":%d' % (f["category"], f["mask"])
    if f.get("group", 0):
        text += ',"group":%d' % f["group"]
    if f.get("either"):
        text += ',"either":true'
    return text + "}"


def _geometry_keys(s: Dict[str, Any]) -> str:
    """A shape's geometry keys, as text (compared bit for bit, by the text)."""
    kind = s["kind"]
    if kind == "circle":
        return ',"radius":' + num(s["radius"])
    if kind == "capsule":
        return ',"a":' + _point(s["a"]) + ',"b":' + _point(s["b"]) + ',"radius":' + num(s["radius"])
    if kind == "segment":
        return ',"a":' + _point(s["a"]) + ',"b":' + _point(s["b"])
    if kind == "polygon":
        pts = ',"points":[' + ",".join(_point(p) for p in s["points"]) + "]"
        radius = s.get("radius") or 0
        return pts + ',"radius":' + num(radius) if radius > 0 else pts
    if kind == "chain":
        return ',"points":[' + ",".join(_point(p) for p in s["points"]) + '],"loop":' + ("true" if s.get("loop") else "false")
    return ""


def _choose_claims(manifolds: Iterable[Dict[str, Any]], present: Dict[int, Dict[str, Any]], frame: int) -> List[str]:
    """The claims of a frame, as text: one per pair (the deepest manifold when the engine
    gives a pair more than one), manifolds with no point left out, and pairs of two shapes
    that are not awake left out (the engine did not recompute them this step)."""
    chosen = Claims()
    for m in manifolds:
        ia, ib = m["a"], m["b"]
        a = present.get(ia)
        b = present.get(ib)
        if a is None or b is None:
            missing = ib if a is not None else ia
            raise CaptureError(
                "collidoscope-capture: frame %d: a contact of ids %s and %s names id %s, which is not among this frame's shapes"
                % (frame, ia, ib, missing)
            )
        if not m["points"] or ia == ib:
            continue
        if not a.get("awake", True) and not b.get("awake", True):
            continue
        nx, ny = m["normal"]
        points = [(p["point"][0], p["point"][1], p["separation"], p.get("impulse")) for p in m["points"]]
        chosen.add(ia, ib, nx, ny, points, m.get("piece"), a.get("what"), b.get("what"))
    return chosen.texts()


class Claims:
    """A frame's claims as they are made: one per pair, the deepest manifold kept when a pair
    comes more than once."""

    __slots__ = ("_chosen", "_at")

    def __init__(self) -> None:
        self._chosen: List[Tuple[str, float]] = []
        self._at: Dict[Tuple[int, int], int] = {}

    def add(
        self,
        ia: int,
        ib: int,
        nx: float,
        ny: float,
        points: Sequence[Tuple[float, float, float, Any]],
        piece: Any = None,
        what_a: Any = None,
        what_b: Any = None,
    ) -> None:
        """A manifold of ``ia`` and ``ib``: its normal (from a toward b) and its points,
        each ``(x, y, separation, impulse or None)``."""
        text, deepest = claim_text(ia, ib, nx, ny, points, piece, what_a, what_b)
        key = (ia, ib) if ia < ib else (ib, ia)
        earlier = self._at.get(key)
        if earlier is None:
            self._at[key] = len(self._chosen)
            self._chosen.append((text, deepest))
        elif deepest < self._chosen[earlier][1]:
            self._chosen[earlier] = (text, deepest)

    def texts(self) -> List[str]:
        return [c[0] for c in self._chosen]


def claim_text(
    ia: int,
    ib: int,
    nx: float,
    ny: float,
    points: Sequence[Tuple[float, float, float, Any]],
    piece: Any = None,
    what_a: Any = None,
    what_b: Any = None,
) -> Tuple[str, float]:
    """A manifold's claim and its deepest separation: intersecting when some point's
    separation is < 0 (depth the deepest, contacts the penetrating points); else an apart
    claim with its unit normal, its smallest separation and its points."""
    deepest = min(p[2] for p in points)
    if not _isfinite(nx + ny + sum(p[0] + p[1] + p[2] for p in points)):
        _refuse_claim(ia, ib, nx, ny, points, what_a, what_b)
    length = math.hypot(nx, ny)
    piece_text = "" if piece is None else ',"piece":%d' % piece
    head = '{"a":%d,"b":%d' % (ia, ib)
    if deepest < 0:
        if not length > 0:
            _refuse_claim(ia, ib, nx, ny, points, what_a, what_b)
        kept = [p for p in points if p[2] < 0]
        contacts = ",".join("[" + num(p[0]) + "," + num(p[1]) + "]" for p in kept)
        return (
            head + ',"intersecting":true,"depth":' + num(-deepest) + ',"normal":[' + num(nx / length) + "," + num(ny / length)
            + '],"contacts":[' + contacts + "]" + piece_text + _impulses(kept) + "}",
            deepest,
        )
    if not length > 0:
        return head + ',"intersecting":false' + piece_text + "}", deepest
    contacts = ",".join("[" + num(p[0]) + "," + num(p[1]) + "]" for p in points)
    return (
        head + ',"intersecting":false,"normal":[' + num(nx / length) + "," + num(ny / length) + '],"separation":' + num(deepest)
        + ',"contacts":[' + contacts + "]" + piece_text + _impulses(points) + "}",
        deepest,
    )


def _impulses(points: Sequence[Tuple[float, float, float, Any]]) -> str:
    """The points' impulses as the claim's ``"impulses"`` (one per point: the normal impulse
    the engine's solver applied there over the step), when every point has one that is a
    finite number >= 0; else none (an impulse the engine did not give leaves them all out,
    never the claim)."""
    if not points:
        return ""
    for p in points:
        j = p[3]
        if not (isinstance(j, (int, float)) and _isfinite(j) and j >= 0):
            return ""
    return ',"impulses":[' + ",".join(num(p[3]) for p in points) + "]"


def _refuse_claim(ia: int, ib: int, nx: float, ny: float, points: Sequence[Tuple[float, float, float, Any]], what_a: Any, what_b: Any) -> None:
    """Why a manifold cannot be a claim, naming the pair."""
    what = "the contact of %s and %s" % (what_a or "shape %s" % ia, what_b or "shape %s" % ib)
    if not (_isfinite(nx) and _isfinite(ny)):
        _fail(what, "the normal %s is not finite" % _shown([nx, ny]))
    for i, p in enumerate(points):
        if not (_isfinite(p[0]) and _isfinite(p[1]) and _isfinite(p[2])):
            _fail(what, "point %d has a number that is not finite" % i)
    _fail(what, "an intersecting contact needs a normal")


__all__ = ["FORMAT", "VERSION", "CaptureError", "CaptureWriter", "Claims", "claim_text", "header_line", "num"]
