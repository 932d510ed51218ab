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
from typing import Any, Dict, List, Optional, Tuple

import pymunk as _pymunk

from .writer import CaptureError, CaptureWriter, Claims, _check_shape, _filter_text, _geometry_keys, claim_text, num

try:  # pymunk 6.6 and later
    import pymunk.batch as _batch
except ImportError:  # pragma: no cover - older pymunk
    _batch = None

#: Every how many steps each shape's geometry, filter, name and body type are read again
#: (they change only when the game changes them; :meth:`PymunkCapture.refresh` reads them at
#: once).
REFRESH_EVERY = 30

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
    """A shape as the capture keeps it: its id, what it is, and what was last written of its
    pose and motion."""

    __slots__ = (
        "id", "shape", "body", "body_key", "kind", "body_kind", "geometry", "geometry_text", "name", "what",
        "sensor", "filter_text", "offset", "written", "fresh",
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
        # x, y, angle, vx, vy, w as last written (None: nothing written yet).
        self.written: Optional[List[float]] = None
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
    """

    def __init__(self, space: Any, out: Any, units: str = "px", y_up: bool = False) -> None:
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
        self._writer = CaptureWriter(out, header)
        self._shapes: Dict[Any, _Shape] = {}
        self._order: List[_Shape] = []
        self._listed: List[Any] = []
        self._bodies: Dict[Any, int] = {}
        # body key (pymunk's body.id) -> the capture's shapes on it (sensors too)
        self._on_body: Dict[int, List[_Shape]] = {}
        self._cog: Dict[int, Tuple[float, float]] = {}
        self._removed: List[int] = []
        self._next_shape = 1
        self._next_body = 1
        self._buffer = _batch.Buffer() if _batch is not None else None
        self.time = 0.0
        self.steps = 0

    # -- the step ------------------------------------------------------------------------

    def step(self, dt: float) -> None:
        """``space.step(dt)``, then one frame written: the poses after the step, the
        velocities from before it, the contacts of the step."""
        space = self.space
        # What to write of each shape is settled before the step: a shape that cannot be
        # written stops the game here, with the space as it was.
        self._track(refresh=self.steps % REFRESH_EVERY == 0)
        before = self._velocities()
        space.step(dt)
        self.time += dt
        self.steps += 1
        shapes = self._frame_shapes(before)
        claims = self._claims()
        removed, self._removed = self._removed, []
        self._writer.write_frame(self.time, shapes, removed, claims)

    def refresh(self) -> None:
        """Read every shape's geometry, filter, name and body type again before the next step
        (the capture reads them every :data:`REFRESH_EVERY` steps on its own)."""
        self._listed = []

    def close(self) -> None:
        """End the capture (a file closed, a stream's end sent)."""
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
        changed_bodies = set()
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
                self._shapes[shape] = known
                changed_bodies.add(known.body_key)
            elif refresh or known.body is not shape.body:
                before = known.body_key
                self._read(known)
                if known.body_key != before:
                    changed_bodies.update((before, known.body_key))
            alive.add(known.id)
            order.append(known)
        for shape, known in list(self._shapes.items()):
            if known.id not in alive:
                del self._shapes[shape]
                changed_bodies.add(known.body_key)
                if known.written is not None and not known.sensor:
                    self._removed.append(known.id)
        self._removed.sort()
        self._order = order
        on_body: Dict[int, List[_Shape]] = {}
        for known in order:
            on_body.setdefault(known.body_key, []).append(known)
        self._on_body = on_body
        if refresh or changed_bodies:
            self._cog = {}
            for known in order:
                body = known.body
                if known.body_key not in self._cog:
                    c = body.center_of_gravity
                    self._cog[known.body_key] = (c.x, c.y)

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

    def _velocities(self) -> Dict[int, Tuple[float, float, float]]:
        """Each moving body's velocity and angular velocity now (before the step), by body
        key."""
        if self._buffer is not None:
            buf = self._buffer
            buf.clear()
            fields = _batch.BodyFields.BODY_ID | _batch.BodyFields.VELOCITY | _batch.BodyFields.ANGULAR_VELOCITY
            _batch.get_space_bodies(self.space, fields, buf)
            ids = memoryview(buf.int_buf()).cast("P").tolist()
            f = memoryview(buf.float_buf()).cast("d").tolist()
            return {key: (f[3 * i], f[3 * i + 1], f[3 * i + 2]) for i, key in enumerate(ids)}
        out = {}
        for body in self.space.bodies:
            v = body.velocity
            out[body.id] = (v.x, v.y, body.angular_velocity)
        return out

    def _poses(self) -> Dict[int, Tuple[float, float, float]]:
        """Each body's position (its origin, that the shapes' points are relative to) and
        angle now, by body key."""
        if self._buffer is not None:
            buf = self._buffer
            buf.clear()
            fields = _batch.BodyFields.BODY_ID | _batch.BodyFields.POSITION | _batch.BodyFields.ANGLE
            _batch.get_space_bodies(self.space, fields, buf)
            ids = memoryview(buf.int_buf()).cast("P").tolist()
            f = memoryview(buf.float_buf()).cast("d").tolist()
            out = {key: (f[3 * i], f[3 * i + 1], f[3 * i + 2]) for i, key in enumerate(ids)}
        else:
            out = {}
            for body in self.space.bodies:
                p = body.position
                out[body.id] = (p.x, p.y, body.angle)
        static = self.space.static_body
        p = static.position
        out[static.id] = (p.x, p.y, static.angle)
        return out

    def _frame_shapes(self, before: Dict[int, Tuple[float, float, float]]) -> List[str]:
        """Each shape's text for the frame: what changed since it was last written."""
        poses = self._poses()
        cogs = self._cog
        out = []
        isfinite = math.isfinite
        cos, sin = math.cos, math.sin
        for known in self._order:
            if known.sensor:
                continue
            key = known.body_key
            pose = poses.get(key)
            if pose is None:  # a body not in the space: read it itself
                p = known.body.position
                pose = (p.x, p.y, known.body.angle)
            x, y, angle = pose
            c = s = None
            if known.offset is not None:
                c, s = cos(angle), sin(angle)
                ox, oy = known.offset
                x, y = x + c * ox - s * oy, y + s * ox + c * oy
            if known.body_kind == "static":
                vx = vy = w = 0.0
            else:
                vx, vy, w = before.get(key, (0.0, 0.0, 0.0))
                if w != 0:
                    # The velocity of the shape's own position (the body's is its centre of
                    # gravity's): v + w x r.
                    gx, gy = cogs.get(key, (0.0, 0.0))
                    if gx != 0 or gy != 0:
                        if c is None:
                            c, s = cos(angle), sin(angle)
                        cx = pose[0] + c * gx - s * gy
                        cy = pose[1] + s * gx + c * gy
                    else:
                        cx, cy = pose[0], pose[1]
                    vx, vy = vx - w * (y - cy), vy + w * (x - cx)
            last = known.written
            keys = known.fresh
            if last is None:
                if known.body_kind == "static":
                    keys += ',"position":[%r,%r],"angle":%r' % (x, y, angle)
                else:
                    keys += ',"position":[%r,%r],"angle":%r,"velocity":[%r,%r],"angular_velocity":%r' % (
                        x, y, angle, vx, vy, w)
                known.written = [x, y, angle, vx, vy, w]
            elif x != last[0] or y != last[1] or angle != last[2] or vx != last[3] or vy != last[4] or w != last[5]:
                if x != last[0] or y != last[1]:
                    keys += ',"position":[%r,%r]' % (x, y)
                if angle != last[2]:
                    keys += ',"angle":%r' % angle
                if vx != last[3] or vy != last[4]:
                    keys += ',"velocity":[%r,%r]' % (vx, vy)
                if w != last[5]:
                    keys += ',"angular_velocity":%r' % w
                known.written = [x, y, angle, vx, vy, w]
            if keys:
                if not isfinite(x + y + angle + vx + vy + w):
                    _check_shape(dict(known.geometry, id=known.id, kind=known.kind, body=known.body_kind,
                                      position=(x, y), angle=angle, velocity=(vx, vy), angular_velocity=w,
                                      what=known.what), True)
                out.append('{"id":%d%s}' % (known.id, keys))
                known.fresh = ""
        return out

    # -- contacts ------------------------------------------------------------------------

    def _claims(self) -> List[str]:
        """The contacts of the step, as claims: every pair Chipmunk found touching this step,
        once, with the normal impulse at each point (the arbiter's ``total_impulse`` along
        the normal, shared by its points)."""
        on_body = self._on_body
        asleep = self._sleeping()
        if self._buffer is None:
            claims = Claims()
            self._claims_by_body(claims, None, asleep)
            return claims.texts()
        buf = self._buffer
        buf.clear()
        A = _batch.ArbiterFields
        fields = (
            A.BODY_A_ID | A.BODY_B_ID | A.CONTACT_COUNT | A.TOTAL_IMPULSE | A.NORMAL
            | A.POINT_A_1 | A.POINT_B_1 | A.DISTANCE_1 | A.POINT_A_2 | A.POINT_B_2 | A.DISTANCE_2
        )
        _batch.get_space_arbiters(self.space, fields, buf)
        ints = memoryview(buf.int_buf()).cast("P").tolist()
        f = memoryview(buf.float_buf()).cast("d").tolist()
        texts: List[str] = []
        # Every number written, added up: one test that all are finite (else the frame's
        # claims are made again one by one, which names the one that is not).
        total = 0.0
        hypot = math.hypot
        # Pairs on a body of several shapes (the space's static body with its walls, say) are
        # told apart arbiter by arbiter, from their moving body.
        mixed = set()
        for i in range(len(ints) // 3):
            count = ints[3 * i + 2]
            if count == 0:  # kept by Chipmunk from an earlier step, not touching now
                continue
            ka, kb = ints[3 * i], ints[3 * i + 1]
            la, lb = on_body.get(ka), on_body.get(kb)
            if la is None or lb is None:
                continue
            if len(la) != 1 or len(lb) != 1:
                # Read from its moving body (Chipmunk never pairs two static ones).
                mixed.add(kb if la[0].body_kind == "static" else ka)
                continue
            a, b = la[0], lb[0]
            if a.sensor or b.sensor or (asleep is not None and ka in asleep and kb in asleep):
                continue
            # total impulse (2), normal (2), then of each of two points: on A (2), on B (2),
            # distance (1)
            o = 14 * i
            nx, ny = f[o + 2], f[o + 3]
            length = hypot(nx, ny)
            if not length > 0:
                texts.append(_checked_claim(a, b, f, o, count))
                continue
            if length != 1.0:
                nx, ny = nx / length, ny / length
            j = abs(f[o] * nx + f[o + 1] * ny) / count
            x1, y1, d1 = (f[o + 4] + f[o + 6]) / 2, (f[o + 5] + f[o + 7]) / 2, f[o + 8]
            if count == 1:
                total += x1 + y1 + d1 + nx + ny + j
                if d1 < 0:
                    texts.append(_DEEP_1 % (a.id, b.id, -d1, nx, ny, x1, y1, j))
                else:
                    texts.append(_APART_1 % (a.id, b.id, nx, ny, d1, x1, y1, j))
                continue
            x2, y2, d2 = (f[o + 9] + f[o + 11]) / 2, (f[o + 10] + f[o + 12]) / 2, f[o + 13]
            total += x1 + y1 + d1 + x2 + y2 + d2 + nx + ny + j
            if d1 < 0 and d2 < 0:
                texts.append(_DEEP_2 % (a.id, b.id, -min(d1, d2), nx, ny, x1, y1, x2, y2, j, j))
            elif d1 < 0:
                texts.append(_DEEP_1 % (a.id, b.id, -d1, nx, ny, x1, y1, j))
            elif d2 < 0:
                texts.append(_DEEP_1 % (a.id, b.id, -d2, nx, ny, x2, y2, j))
            else:
                texts.append(_APART_2 % (a.id, b.id, nx, ny, min(d1, d2), x1, y1, x2, y2, j, j))
        if not math.isfinite(total):
            return self._claims_checked(asleep)
        if mixed:
            claims = Claims()
            self._claims_by_body(claims, mixed, asleep)
            texts.extend(claims.texts())
        return texts

    def _claims_checked(self, asleep: Optional[set]) -> List[str]:
        """The frame's claims made one by one with every number checked (a number that is not
        finite names its pair; an impulse that is not is left out)."""
        claims = Claims()
        self._claims_by_body(claims, None, asleep)
        return claims.texts()

    def _claims_by_body(self, claims: Claims, bodies: Optional[set], asleep: Optional[set]) -> None:
        """Claims read arbiter by arbiter (pymunk's ``each_arbiter``): of every moving body,
        or (``bodies``, by key) of the moving bodies in a pair with a body of several shapes,
        only those pairs."""
        shapes = self._shapes
        on_body = self._on_body

        def take(arbiter: Any) -> None:
            a, b = arbiter.shapes
            ka, kb = shapes.get(a), shapes.get(b)
            if ka is None or kb is None or ka.sensor or kb.sensor:
                return
            if bodies is not None and len(on_body.get(ka.body_key, ())) == 1 and len(on_body.get(kb.body_key, ())) == 1:
                return  # read from the batch
            if asleep is not None and ka.body_key in asleep and kb.body_key in asleep:
                return
            points_set = arbiter.contact_point_set
            n = points_set.normal
            cps = points_set.points
            if not cps:
                return
            total = arbiter.total_impulse
            along = abs(total.x * n.x + total.y * n.y) / len(cps)
            points = [((p.point_a.x + p.point_b.x) / 2, (p.point_a.y + p.point_b.y) / 2, p.distance, along) for p in cps]
            claims.add(ka.id, kb.id, n.x, n.y, points, None, ka.what, kb.what)

        if bodies is None:
            for body in self.space.bodies:
                if body.body_type != _STATIC:
                    body.each_arbiter(take)
            return
        for key in bodies:
            body = on_body[key][0].body
            if body.body_type != _STATIC:
                body.each_arbiter(take)

    def _sleeping(self) -> Optional[set]:
        """The keys of the bodies asleep (static ones among them), or None when the space
        never sleeps."""
        if self.space.sleep_time_threshold == math.inf:
            return None
        return {b.id for b in self.space.bodies if b.body_type == _STATIC or b.is_sleeping} | {self.space.static_body.id}


# A claim's text, by how many of its points penetrate (repr: the shortest digits that read
# back to the same double).
_DEEP_1 = '{"a":%d,"b":%d,"intersecting":true,"depth":%r,"normal":[%r,%r],"contacts":[[%r,%r]],"impulses":[%r]}'
_DEEP_2 = (
    '{"a":%d,"b":%d,"intersecting":true,"depth":%r,"normal":[%r,%r],"contacts":[[%r,%r],[%r,%r]],'
    '"impulses":[%r,%r]}'
)
_APART_1 = '{"a":%d,"b":%d,"intersecting":false,"normal":[%r,%r],"separation":%r,"contacts":[[%r,%r]],"impulses":[%r]}'
_APART_2 = (
    '{"a":%d,"b":%d,"intersecting":false,"normal":[%r,%r],"separation":%r,"contacts":[[%r,%r],[%r,%r]],'
    '"impulses":[%r,%r]}'
)


def _checked_claim(a: _Shape, b: _Shape, f: List[float], o: int, count: int) -> str:
    """A claim from the batch's numbers at ``o``, made with every number checked."""
    total, along = (f[o], f[o + 1]), None
    nx, ny = f[o + 2], f[o + 3]
    length = math.hypot(nx, ny)
    if length > 0:
        along = abs(total[0] * nx + total[1] * ny) / length / count
    points = [((f[o + 4] + f[o + 6]) / 2, (f[o + 5] + f[o + 7]) / 2, f[o + 8], along)]
    if count > 1:
        points.append(((f[o + 9] + f[o + 11]) / 2, (f[o + 10] + f[o + 12]) / 2, f[o + 13], along))
    return claim_text(a.id, b.id, nx, ny, points, None, a.what, b.what)[0]


def _json_string(text: str) -> str:
    import json

    return json.dumps(str(text))
