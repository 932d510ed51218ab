"""A pymunk capture's frames made from the raw numbers pymunk's batch API gives (the bodies'
poses and velocities, the arbiters' normals, points, distances and impulses), in the game's
process or in a writer process of its own (:mod:`._child`): the shapes' changed keys, the
claims, the line. Plain data in, text out; nothing here touches pymunk.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .writer import CaptureError, Claims, _check_shape, claim_text, frame_line as _line

# A claim's text, by how many of its points penetrate (%r: the shortest digits that read back
# to the same double).
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

#: Numbers of an arbiter in the batch: total impulse (2), normal (2), then of each of two
#: points: on A (2), on B (2), distance (1).
ARBITER_FLOATS = 14
#: Its integers: body A's key, body B's key, the contact count.
ARBITER_INTS = 3


class ShapeInfo:
    """What the frames need to know of a shape (sent when it changes)."""

    __slots__ = ("id", "kind", "body_key", "body_kind", "sensor", "offset", "what", "geometry", "written")

    def __init__(
        self,
        sid: int,
        kind: str,
        body_key: int,
        body_kind: str,
        sensor: bool,
        offset: Optional[Tuple[float, float]],
        what: str,
        geometry: Dict[str, Any],
    ) -> None:
        self.id = sid
        self.kind = kind
        self.body_key = body_key
        self.body_kind = body_kind
        self.sensor = sensor
        self.offset = offset
        self.what = what
        self.geometry = geometry
        # x, y, angle, vx, vy, w as last written (None: nothing written yet).
        self.written: Optional[List[float]] = None


class FrameMaker:
    """Makes a frame's shapes and claims as text; keeps what was written of each shape."""

    def __init__(self) -> None:
        self.shapes: Dict[int, ShapeInfo] = {}
        self.order: List[ShapeInfo] = []
        self.on_body: Dict[int, List[ShapeInfo]] = {}
        self.cogs: Dict[int, Tuple[float, float]] = {}
        # Keys waiting to be written with the next frame, by shape id (a new shape's all, a
        # changed one's changed).
        self.fresh: Dict[int, str] = {}
        # Ids written and since gone from the space, for the next frame's "removed".
        self.removed: List[int] = []

    def update(self, infos: Sequence[Tuple[Any, ...]], order: Optional[Sequence[int]], fresh: Dict[int, str],
               cogs: Optional[Dict[int, Tuple[float, float]]]) -> None:
        """Shapes new or changed (``infos``: :class:`ShapeInfo`'s arguments), the ids of every
        shape in the space in order (``None``: unchanged), keys to write, centres of gravity."""
        for args in infos:
            info = ShapeInfo(*args)
            old = self.shapes.get(info.id)
            if old is not None:
                info.written = old.written
            self.shapes[info.id] = info
        if order is not None:
            self.order = [self.shapes[i] for i in order]
            alive = set(order)
            for sid in [s for s in self.shapes if s not in alive]:
                if self.shapes[sid].written is not None:
                    self.removed.append(sid)
                del self.shapes[sid]
                self.fresh.pop(sid, None)
            self.removed.sort()
            on_body: Dict[int, List[ShapeInfo]] = {}
            for info in self.order:
                on_body.setdefault(info.body_key, []).append(info)
            self.on_body = on_body
        elif infos:
            self.order = [self.shapes[s.id] for s in self.order]
            on_body = {}
            for info in self.order:
                on_body.setdefault(info.body_key, []).append(info)
            self.on_body = on_body
        for sid, keys in fresh.items():
            self.fresh[sid] = self.fresh.get(sid, "") + keys
        if cogs is not None:
            self.cogs = cogs

    def take_removed(self) -> List[int]:
        """The ids to write as removed with this frame."""
        removed, self.removed = self.removed, []
        return removed

    def shape_texts(
        self,
        before: Dict[int, Tuple[float, float, float]],
        poses: Dict[int, Tuple[float, float, float]],
    ) -> List[str]:
        """Each shape's text for the frame: what changed since it was last written.
        ``before``: each body's velocity and angular velocity before the step; ``poses``: its
        origin and angle after it, by body key."""
        cogs = self.cogs
        fresh = self.fresh
        out = []
        pending = []
        isfinite = math.isfinite
        cos, sin = math.cos, math.sin
        for info in self.order:
            if info.sensor:
                continue
            key = info.body_key
            pose = poses.get(key)
            if pose is None:
                continue
            x, y, angle = pose
            c = s = None
            if info.offset is not None:
                c, s = cos(angle), sin(angle)
                ox, oy = info.offset
                x, y = x + c * ox - s * oy, y + s * ox + c * oy
            if info.body_kind == "static":
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
            last = info.written
            keys = fresh.get(info.id, "") if fresh else ""
            now = [x, y, angle, vx, vy, w]
            if last is None:
                if info.body_kind == "static":
                    keys += ',"position":[%r,%r],"angle":%r' % (x, y, angle)
                else:
                    keys += ',"position":[%r,%r],"angle":%r,"velocity":[%r,%r],"angular_velocity":%r' % (
                        x, y, angle, vx, vy, w)
                pending.append((info, now))
            elif now != last:
                if x != last[0] or y != last[1]:
                    keys += ',"position":[%r,%r]' % (x, y)
                if angle != last[2]:
                    keys += ',"angle":%r' % angle
                if vx != last[3] or vy != last[4]:
                    keys += ',"velocity":[%r,%r]' % (vx, vy)
                if w != last[5]:
                    keys += ',"angular_velocity":%r' % w
                pending.append((info, now))
            if keys:
                if not isfinite(x + y + angle + vx + vy + w):
                    _check_shape(dict(info.geometry, id=info.id, kind=info.kind, body=info.body_kind,
                                      position=(x, y), angle=angle, velocity=(vx, vy), angular_velocity=w,
                                      what=info.what), True)
                out.append('{"id":%d%s}' % (info.id, keys))
        # Nothing raised: what the line says is what was written.
        for info, now in pending:
            info.written = now
        fresh.clear()
        return out

    def claims(
        self,
        ints: List[int],
        f: List[float],
        asleep: Optional[set],
        mixed: Sequence[Tuple[int, int, float, float, List[Tuple[float, float, float, float]]]],
    ) -> List[str]:
        """The claims of the step: the batch's arbiters (``ints``, ``f``) of two bodies of
        one shape each, and ``mixed``, the pairs on a body of several shapes read arbiter by
        arbiter (ids, normal, points)."""
        on_body = self.on_body
        texts: List[str] = []
        # Every number written, added up: one test that all are finite (else the claims are
        # made again one by one, which names the one that is not).
        total = 0.0
        hypot = math.hypot
        for i in range(len(ints) // ARBITER_INTS):
            count = ints[ARBITER_INTS * i + 2]
            if count == 0:  # kept by Chipmunk from an earlier step, not touching now
                continue
            ka, kb = ints[ARBITER_INTS * i], ints[ARBITER_INTS * i + 1]
            la, lb = on_body.get(ka), on_body.get(kb)
            if la is None or lb is None or len(la) != 1 or len(lb) != 1:
                continue
            a, b = la[0], lb[0]
            if a.sensor or b.sensor or (asleep is not None and ka in asleep and kb in asleep):
                continue
            o = ARBITER_FLOATS * i
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
            return self._checked(ints, f, asleep, mixed)
        if mixed:
            texts.extend(self._mixed(mixed, asleep).texts())
        return texts

    def _mixed(self, mixed: Sequence[Any], asleep: Optional[set], claims: Optional[Claims] = None) -> Claims:
        """The pairs read arbiter by arbiter, as claims (two shapes asleep left out)."""
        claims = claims if claims is not None else Claims()
        for ida, idb, nx, ny, points in mixed:
            a, b = self.shapes.get(ida), self.shapes.get(idb)
            if a is None or b is None:
                continue
            if asleep is not None and a.body_key in asleep and b.body_key in asleep:
                continue
            claims.add(ida, idb, nx, ny, points, None, a.what, b.what)
        return claims

    def _checked(self, ints: List[int], f: List[float], asleep: Optional[set], mixed: Sequence[Any]) -> List[str]:
        """The claims made one by one with every number checked: a number that is not finite
        names its pair; an impulse that is not is left out."""
        claims = Claims()
        for i in range(len(ints) // ARBITER_INTS):
            count = ints[ARBITER_INTS * i + 2]
            ka, kb = ints[ARBITER_INTS * i], ints[ARBITER_INTS * i + 1]
            la, lb = self.on_body.get(ka), self.on_body.get(kb)
            if count == 0 or la is None or lb is None or len(la) != 1 or len(lb) != 1:
                continue
            a, b = la[0], lb[0]
            if a.sensor or b.sensor or (asleep is not None and ka in asleep and kb in asleep):
                continue
            o = ARBITER_FLOATS * i
            claims.add(a.id, b.id, f[o + 2], f[o + 3], _points(f, o, count), None, a.what, b.what)
        return self._mixed(mixed, asleep, claims).texts()


def _points(f: List[float], o: int, count: int) -> List[Tuple[float, float, float, Any]]:
    """An arbiter's points from the batch's numbers at ``o``: midpoint, distance, and the
    total impulse along the normal shared by the points (``None`` when not finite)."""
    nx, ny = f[o + 2], f[o + 3]
    length = math.hypot(nx, ny)
    along: Any = None
    if length > 0:
        along = abs(f[o] * nx + f[o + 1] * ny) / length / count
        if not math.isfinite(along):
            along = None
    points = [((f[o + 4] + f[o + 6]) / 2, (f[o + 5] + f[o + 7]) / 2, f[o + 8], along)]
    if count > 1:
        points.append(((f[o + 9] + f[o + 11]) / 2, (f[o + 10] + f[o + 12]) / 2, f[o + 13], along))
    return points


def _checked_claim(a: ShapeInfo, b: ShapeInfo, f: List[float], o: int, count: int) -> str:
    """A claim from the batch's numbers at ``o``, made with every number checked."""
    return claim_text(a.id, b.id, f[o + 2], f[o + 3], _points(f, o, count), None, a.what, b.what)[0]


def _floats(data: Any) -> List[float]:
    return memoryview(data).cast("d").tolist() if not isinstance(data, list) else data


def _ints(data: Any) -> List[int]:
    return memoryview(data).cast("P").tolist() if not isinstance(data, list) else data


def frame_parts(
    maker: FrameMaker,
    vel_ids: Any,
    vel: Any,
    pose_ids: Any,
    pose: Any,
    extra_poses: Dict[int, Tuple[float, float, float]],
    arb_ints: Any,
    arb: Any,
    asleep: Optional[set],
    mixed: Sequence[Any],
) -> Tuple[List[str], List[int], List[str]]:
    """A frame's shapes' texts, the ids removed and its claims' texts, from pymunk's batch
    numbers (bytes or lists): the bodies' ids with their velocity and angular velocity before
    the step (3 numbers each), their ids with their position and angle after it (3 each), the
    poses of bodies the batch leaves out (the space's static body), the arbiters."""
    vi, vf = _ints(vel_ids), _floats(vel)
    before = {key: (vf[3 * i], vf[3 * i + 1], vf[3 * i + 2]) for i, key in enumerate(vi)}
    pi, pf = _ints(pose_ids), _floats(pose)
    poses = {key: (pf[3 * i], pf[3 * i + 1], pf[3 * i + 2]) for i, key in enumerate(pi)}
    poses.update(extra_poses)
    claims = maker.claims(_ints(arb_ints), _floats(arb), asleep, mixed)
    shapes = maker.shape_texts(before, poses)
    return shapes, maker.take_removed(), claims


def frame_line(maker: FrameMaker, frame: int, time: float, *numbers: Any) -> str:
    """A frame's whole line (see :func:`frame_parts` for ``numbers``)."""
    if not (math.isfinite(time) and time >= 0):
        raise CaptureError("collidoscope-capture: frame %d: the time %s must be a finite number >= 0" % (frame, time))
    shapes, removed, claims = frame_parts(maker, *numbers)
    return _line(frame, time, shapes, removed, claims)
