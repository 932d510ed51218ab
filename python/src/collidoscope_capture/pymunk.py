"""Captures from pymunk (Chipmunk2D for Python, pymunk 6 and 7): every shape as collidoscope's
shape, posed where Chipmunk computed the step's contacts, and every contact of that step with
the normal impulse the solver applied.

Chipmunk's ``cpSpaceStep`` moves the bodies first (by the velocities they had), then collides
the shapes where they now are, then solves, changing the velocities. So a frame holds the
poses *after* ``space.step`` (where the contacts were computed), the contacts of that step
(``arbiter.contact_point_set``: the normal from shape A toward B, each point's ``distance``,
negative when penetrating), and each body's velocity from *before* the step: the velocity
that moved it to those poses, the one the solver then changed. Read after the step, a crate
stopped dead would never show the speed it lost.

    import pymunk
    from collidoscope_capture.pymunk import PymunkCapture

    cap = PymunkCapture(space, "game.capture.jsonl.gz")   # or a callable taking each line
    cap.step(1 / 60)        # in place of space.step(1 / 60)
    cap.close()

Where pymunk has its batch API (``pymunk.batch``, pymunk 6.6 and later), the bodies and the
contacts are read with it, a whole space in a few calls; else body by body.
"""

from __future__ import annotations

import math
import struct
from array import array
from typing import Any, Dict, List, Optional, Tuple

import pymunk as _pymunk

from ._frames import FrameMaker, frame_parts
from ._process import WriterProcess, wants_process
from .writer import CaptureError, CaptureWriter, _check_shape, _filter_text, _geometry_keys, header_line

try:  # pymunk 6.6 and later
    import pymunk.batch as _batch
except ImportError:  # pragma: no cover - older pymunk
    _batch = None

try:  # Chipmunk's own accessors, as pymunk calls them (its objects are then not made)
    from pymunk._chipmunk_cffi import ffi as _ffi, lib as _raw

    _pa = _ffi.new("cpShape **")
    _pb = _ffi.new("cpShape **")
except ImportError:  # pragma: no cover - a pymunk built otherwise
    _raw = None

#: Every how many steps each shape's geometry, filter, name and body type are read again
#: (they change only when the game changes them; :meth:`PymunkCapture.refresh` reads them at
#: once).
REFRESH_EVERY = 30

# The array type of a pointer-sized integer (what pymunk's batch writes ids as).
_POINTER = next(t for t in ("L", "Q", "I") if array(t).itemsize == struct.calcsize("P"))

_STATIC = _pymunk.Body.STATIC
_KINEMATIC = _pymunk.Body.KINEMATIC


def _name_of(thing: Any) -> Optional[str]:
    """A name the game gave a shape or a body: its ``name``, ``label`` or ``user_data``
    attribute (a non-empty string, or a dict or object with a ``name``)."""
    for attribute in ("name", "label", "user_data", "userdata", "data"):
        value = getattr(thing, attribute, None)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, dict):
            inner = value.get("name") or value.get("label")
            if isinstance(inner, str) and inner:
                return inner
        elif value is not None and attribute != "name":
            inner = getattr(value, "name", None)
            if isinstance(inner, str) and inner:
                return inner
    return None


def _body_kind(body: Any) -> str:
    t = body.body_type
    if t == _STATIC:
        return "static"
    if t == _KINEMATIC:
        return "kinematic"
    return "dynamic"


class _Shape:
    """A shape as the capture keeps it in the game's process: its id, what it is, and the keys
    that changed and wait for the next frame."""

    __slots__ = (
        "id", "shape", "body", "body_key", "kind", "body_kind", "geometry", "geometry_text", "name", "what",
        "sensor", "filter_text", "offset", "fresh",
    )

    def __init__(self, sid: int, shape: Any) -> None:
        self.id = sid
        self.shape = shape
        self.body: Any = None
        self.body_key = 0
        self.kind = ""
        self.body_kind = ""
        self.geometry: Dict[str, Any] = {}
        self.geometry_text = ""
        self.name: Optional[str] = None
        self.what = ""
        self.sensor = False
        self.filter_text = ""
        self.offset: Optional[Tuple[float, float]] = None
        # Keys to write with the next frame (a new shape's all, a changed one's changed).
        self.fresh = ""


class PymunkCapture:
    """Capture ``space`` (a ``pymunk.Space``) to ``out`` (a file path, ``.gz`` compressed; a
    callable given each line; ``tcp://127.0.0.1:PORT`` to a window started with ``collidoscope
    --listen PORT``; or an object with ``write(line)``).

    ``units``: the game's length unit (``"px"``, ``"m"``); ``y_up``: whether +y points up in
    the game's world (pygame: ``False``; arcade: ``True``).

    ``step(dt)`` stands in for ``space.step(dt)`` and writes one frame; ``close()`` ends the
    file (also as a context manager). A shape the capture cannot hold (a segment of radius 0
    on a moving body) raises a ``ValueError`` naming it, before the space is stepped.

    ``background`` (a file or a ``tcp://`` stream): the frames' text is made and written by a
    writer process of its own, so the game's process pays only for reading pymunk; it writes
    every frame it was given, also when the game dies. A number that is not finite is then
    raised (a ``ValueError`` naming the shape or pair) at the next ``step`` or at ``close``.
    """

    def __init__(self, space: Any, out: Any, units: str = "px", y_up: bool = False, background: bool = True) -> None:
        if not isinstance(space, _pymunk.Space):
            raise TypeError(
                "collidoscope-capture/pymunk: the first argument must be a pymunk.Space, found %s" % type(space).__name__
            )
        if not isinstance(units, str) or units == "":
            raise ValueError('collidoscope-capture/pymunk: "units" must be a non-empty string such as "px" or "m"')
        if not isinstance(y_up, bool):
            raise ValueError('collidoscope-capture/pymunk: "y_up" must be True or False')
        self.space = space
        header = {
            "engine": {
                "name": "pymunk",
                "version": str(_pymunk.version),
                "settings": {
                    "chipmunk": str(getattr(_pymunk, "chipmunk_version", "")),
                    "iterations": int(space.iterations),
                    "collision_slop": float(space.collision_slop),
                    "collision_bias": float(space.collision_bias),
                    "collision_persistence": int(space.collision_persistence),
                    "damping": float(space.damping),
                    # Chipmunk reports a contact only where two shapes touch or overlap.
                    "speculative_margin": 0.0,
                    # Every touching pair is collided again each step (the arbiters kept
                    # for collision_persistence steps only carry the impulses over).
                    "contact_recycling": False,
                },
            },
            "precision": "f64",
            "units": units,
            "y_up": y_up,
        }
        # Files and streams are written by a writer process of their own where the platform
        # lets one start (the game then pays only for reading pymunk); a callable or an
        # object, or background=False, in the game's process.
        self._process: Optional[WriterProcess] = None
        self._writer: Optional[CaptureWriter] = None
        if background and wants_process(out):
            self._process = WriterProcess(out, header_line(header))
        else:
            self._writer = CaptureWriter(out, header)
            self._maker = FrameMaker()
        self._shapes: Dict[Any, _Shape] = {}
        self._order: List[_Shape] = []
        self._listed: List[Any] = []
        self._bodies: Dict[Any, int] = {}
        # body key (pymunk's body.id) -> the capture's shapes on it (sensors too)
        self._on_body: Dict[int, List[_Shape]] = {}
        self._multi: List[Any] = []
        self._by_pointer: Dict[Any, _Shape] = {}
        self._next_shape = 1
        self._next_body = 1
        self._buffer = _batch.Buffer() if _batch is not None else None
        self._update: Optional[Tuple[Any, ...]] = None
        self.time = 0.0
        self.steps = 0

    # -- the step ------------------------------------------------------------------------

    def step(self, dt: float) -> None:
        """``space.step(dt)``, then one frame written: the poses after the step, the
        velocities from before it, the contacts of the step."""
        if self._process is not None:
            self._process.check()
        space = self.space
        # What to write of each shape is settled before the step: a shape that cannot be
        # written stops the game here, with the space as it was.
        self._track(refresh=self.steps % REFRESH_EVERY == 0)
        before = self._bodies_now(velocities=True)
        space.step(dt)
        self.time += dt
        self.steps += 1
        poses = self._bodies_now(velocities=False)
        static = space.static_body
        p = static.position
        extra = {static.id: (p.x, p.y, static.angle)}
        arbiters = self._arbiters()
        mixed = self._mixed()
        asleep = self._sleeping()
        update, self._update = self._update, None
        if self._process is not None:
            if update is not None:
                self._process.send(("update",) + update)
            # The numbers go as pymunk left them; the process puts them in order.
            self._process.send(("frame", self.time, extra, asleep, mixed), (before[0], before[1], poses[0], poses[1], arbiters[0], arbiters[1]))
            return
        numbers = (before[0], before[1], poses[0], poses[1], extra, arbiters[0], arbiters[1], asleep, mixed)
        if update is not None:
            self._maker.update(*update)
        shapes, removed, claims = frame_parts(self._maker, *numbers)
        self._writer.write_frame(self.time, shapes, removed, claims)

    def refresh(self) -> None:
        """Read every shape's geometry, filter, name and body type again before the next step
        (the capture reads them every :data:`REFRESH_EVERY` steps on its own)."""
        self._listed = []

    def close(self) -> None:
        """End the capture (a file closed, a stream's end sent): with a writer process, once
        it has written every frame (a frame it could not write is raised here)."""
        if self._process is not None:
            self._process.close()
        else:
            self._writer.close()

    def __enter__(self) -> "PymunkCapture":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- shapes --------------------------------------------------------------------------

    def _track(self, refresh: bool) -> None:
        """Follow the space's shapes: new ones given ids (and checked), removed ones noted, and
        with ``refresh`` (or a change of the list) each one's geometry, filter, name and body
        read again."""
        listed = list(self.space.shapes)
        same = len(listed) == len(self._listed) and all(a is b for a, b in zip(listed, self._listed))
        if same and not refresh:
            return
        self._listed = listed
        alive = set()
        order = []
        shapes = self._shapes
        for shape in listed:
            known = self._shapes.get(shape)
            if known is None:
                known = _Shape(self._next_shape, shape)
                self._next_shape += 1
                try:
                    self._read(known)
                except CaptureError:
                    self._next_shape -= 1
                    raise
                shapes[shape] = known
            elif refresh or known.body is not shape.body:
                self._read(known)
            alive.add(known.id)
            order.append(known)
        for shape, known in list(self._shapes.items()):
            if known.id not in alive:
                del self._shapes[shape]
        self._order = order
        on_body: Dict[int, List[_Shape]] = {}
        for known in order:
            on_body.setdefault(known.body_key, []).append(known)
        self._on_body = on_body
        self._by_pointer = {}
        for known in order:
            pointer = getattr(known.shape, "_shape", None)
            if pointer is not None:
                self._by_pointer[pointer] = known
        # Bodies of several shapes (sensors counted): their pairs are read arbiter by arbiter.
        self._multi = [shapes[0].body for shapes in on_body.values() if len(shapes) > 1]
        cogs = {}
        for known in order:
            if known.body_key not in cogs:
                c = known.body.center_of_gravity
                cogs[known.body_key] = (c.x, c.y)
        infos = [
            (k.id, k.kind, k.body_key, k.body_kind, k.sensor, k.offset, k.what, k.geometry) for k in order
        ]
        fresh = {k.id: k.fresh for k in order if k.fresh}
        for k in order:
            k.fresh = ""
        self._update = (infos, [k.id for k in order], fresh, cogs)

    def _read(self, known: _Shape) -> None:
        """Read a shape: what it is, its geometry, name, filter and body (the keys that changed
        are kept to be written with the next frame)."""
        shape = known.shape
        body = shape.body
        known.sensor = bool(shape.sensor)
        known.body = body
        known.body_key = body.id
        if body not in self._bodies:
            self._bodies[body] = self._next_body
            self._next_body += 1
        name = _name_of(shape)
        if name is None:
            name = _name_of(body)
            if name is not None and len(body.shapes) > 1:
                name = "%s/%d" % (name, known.id)
        known.what = "%s %d%s" % (type(shape).__name__, known.id, " ('%s')" % name if name else "")
        if known.sensor:
            known.name = name
            return
        body_kind = _body_kind(body)
        moving = body_kind != "static"
        known.offset = None
        if isinstance(shape, _pymunk.Circle):
            kind = "circle"
            geometry: Dict[str, Any] = {"radius": shape.radius}
            o = shape.offset
            if o.x != 0 or o.y != 0:
                known.offset = (o.x, o.y)
        elif isinstance(shape, _pymunk.Segment):
            a, b = shape.a, shape.b
            if shape.radius > 0:
                kind = "capsule"
                geometry = {"a": (a.x, a.y), "b": (b.x, b.y), "radius": shape.radius}
            elif moving:
                raise CaptureError(
                    "collidoscope-capture/pymunk: %s: a Segment of radius 0 on a %s body has no area: a capture "
                    "holds a moving segment as a capsule, so give it a radius > 0" % (known.what, body_kind)
                )
            else:
                kind = "segment"
                geometry = {"a": (a.x, a.y), "b": (b.x, b.y)}
        elif isinstance(shape, _pymunk.Poly):
            kind = "polygon"
            geometry = {"points": [(v.x, v.y) for v in shape.get_vertices()], "radius": shape.radius}
        else:
            raise CaptureError(
                "collidoscope-capture/pymunk: %s: a %s is not a shape a capture can hold (Circle, Segment and Poly are)"
                % (known.what, type(shape).__name__)
            )
        if known.kind and kind != known.kind:
            raise CaptureError(
                "collidoscope-capture/pymunk: %s: it was a %s and is now a %s (a capture's shape never changes kind)"
                % (known.what, known.kind, kind)
            )
        f = shape.filter
        group = int(f.group)
        if group >= 2**63:
            raise CaptureError(
                "collidoscope-capture/pymunk: %s: its filter's group %d is past 2^63, the largest a capture holds"
                % (known.what, group)
            )
        # Chipmunk's shared non-zero group never collides: the capture's negative group says
        # the same (as Box2D's negative groupIndex).
        flt = {"category": int(f.categories), "mask": int(f.mask), "group": -group}
        probe = dict(geometry, id=known.id, kind=kind, body=body_kind, position=(0.0, 0.0), angle=0.0, what=known.what, filter=flt)
        _check_shape(probe, False)
        geometry_text = _geometry_keys(dict(geometry, kind=kind))
        filter_text = _filter_text(flt)
        body_id = self._bodies[body]
        fresh = []
        if known.kind == "":
            if name is not None:
                fresh.append(',"name":' + _json_string(name))
            fresh.append(',"kind":"' + kind + '"' + geometry_text)
            fresh.append(',"filter":' + filter_text + ',"body_id":' + str(body_id))
            fresh.append(',"body":"' + body_kind + '"')
        else:
            if name != known.name and name is not None:
                fresh.append(',"name":' + _json_string(name))
            if geometry_text != known.geometry_text:
                fresh.append(geometry_text)
            if filter_text != known.filter_text:
                fresh.append(',"filter":' + filter_text)
            if body is not known.body or known.body_kind != body_kind:
                fresh.append(',"body_id":' + str(body_id) + ',"body":"' + body_kind + '"')
        known.kind = kind
        known.name = name
        known.body_kind = body_kind
        known.geometry = geometry
        known.geometry_text = geometry_text
        known.filter_text = filter_text
        known.fresh += "".join(fresh)

    def _bodies_now(self, velocities: bool) -> Tuple[Any, Any]:
        """Every body's key with its velocity and angular velocity (``velocities``), or its
        position (its origin, that the shapes' points are relative to) and angle: two
        buffers, 3 numbers a body."""
        if self._buffer is not None:
            buf = self._buffer
            buf.clear()
            F = _batch.BodyFields
            fields = F.BODY_ID | (F.VELOCITY | F.ANGULAR_VELOCITY if velocities else F.POSITION | F.ANGLE)
            _batch.get_space_bodies(self.space, fields, buf)
            return _copy(buf.int_buf()), _copy(buf.float_buf())
        ids: List[int] = []
        numbers: List[float] = []
        for body in self.space.bodies:
            ids.append(body.id)
            if velocities:
                v = body.velocity
                numbers.extend((v.x, v.y, body.angular_velocity))
            else:
                p = body.position
                numbers.extend((p.x, p.y, body.angle))
        return array(_POINTER, ids).tobytes(), array("d", numbers).tobytes()

    def _arbiters(self) -> Tuple[Any, Any]:
        """The arbiters of the space as pymunk's batch gives them (bodies, count; impulse,
        normal, points, distances), or none where pymunk has no batch API (then every pair is
        read arbiter by arbiter)."""
        if self._buffer is None:
            return b"", b""
        buf = self._buffer
        buf.clear()
        A = _batch.ArbiterFields
        fields = (
            A.BODY_A_ID | A.BODY_B_ID | A.CONTACT_COUNT | A.TOTAL_IMPULSE | A.NORMAL
            | A.POINT_A_1 | A.POINT_B_1 | A.DISTANCE_1 | A.POINT_A_2 | A.POINT_B_2 | A.DISTANCE_2
        )
        _batch.get_space_arbiters(self.space, fields, buf)
        return _copy(buf.int_buf()), _copy(buf.float_buf())

    def _mixed(self) -> List[Tuple[int, int, float, float, List[Tuple[float, float, float, float]]]]:
        """The pairs the batch cannot tell apart, read arbiter by arbiter (``each_arbiter``):
        those on a body of several shapes (the space's static body with its walls, say), or
        every pair where pymunk has no batch API. Each as (id A, id B, normal, points)."""
        shapes = self._shapes
        on_body = self._on_body
        seen = set()
        out: List[Tuple[int, int, float, float, List[Tuple[float, float, float, float]]]] = []
        every = self._buffer is None

        def take(arbiter: Any) -> None:
            raw = getattr(arbiter, "_arbiter", None) if _raw is not None else None
            if raw is not None:
                # Straight from Chipmunk (no pymunk objects made): the shapes, the points and
                # the impulse as pymunk's own accessors read them.
                _raw.cpArbiterGetShapes(raw, _pa, _pb)
                ka, kb = by_pointer.get(_pa[0]), by_pointer.get(_pb[0])
            else:
                a, b = arbiter.shapes
                ka, kb = shapes.get(a), shapes.get(b)
            if ka is None or kb is None or ka.sensor or kb.sensor:
                return
            if not every and len(on_body.get(ka.body_key, ())) == 1 and len(on_body.get(kb.body_key, ())) == 1:
                return  # the batch has it
            pair = (ka.id, kb.id) if ka.id < kb.id else (kb.id, ka.id)
            if pair in seen:
                return
            seen.add(pair)
            if raw is not None:
                ps = _raw.cpArbiterGetContactPointSet(raw)
                count = ps.count
                if count <= 0:
                    return
                nx, ny = ps.normal.x, ps.normal.y
                t = _raw.cpArbiterTotalImpulse(raw)
                along = abs(t.x * nx + t.y * ny) / count
                points = []
                for i in range(count):
                    p = ps.points[i]
                    pa, pb = p.pointA, p.pointB
                    points.append(((pa.x + pb.x) / 2, (pa.y + pb.y) / 2, p.distance, along))
                out.append((ka.id, kb.id, nx, ny, points))
                return
            points_set = arbiter.contact_point_set
            cps = points_set.points
            if not cps:
                return
            n = points_set.normal
            total = arbiter.total_impulse
            along = abs(total.x * n.x + total.y * n.y) / len(cps)
            points = [((p.point_a.x + p.point_b.x) / 2, (p.point_a.y + p.point_b.y) / 2, p.distance, along) for p in cps]
            out.append((ka.id, kb.id, n.x, n.y, points))

        by_pointer = self._by_pointer
        bodies = self.space.bodies if every else self._multi
        for body in bodies:
            if every and body.body_type == _STATIC:
                continue
            body.each_arbiter(take)
        return out

    def _sleeping(self) -> Optional[set]:
        """The keys of the bodies asleep (static ones among them), or None when the space
        never sleeps."""
        if self.space.sleep_time_threshold == math.inf:
            return None
        return {b.id for b in self.space.bodies if b.body_type == _STATIC or b.is_sleeping} | {self.space.static_body.id}


def _copy(data: Any) -> bytes:
    """A batch buffer's bytes (the buffer is used again by the next read)."""
    return bytes(data)


def _json_string(text: str) -> str:
    import json

    return json.dumps(str(text))
