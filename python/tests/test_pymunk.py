"""pymunk (Chipmunk2D) from the registry, run on scenes of its own, captured, and judged by
collidoscope: the crate Chipmunk stops dead at a seam between tiles, the same crate on one
floor, the ball that passes through a wall (Chipmunk has no continuous collision), a resting
crate's impulses, and piles of every shape Chipmunk has, every claim exact."""

from __future__ import annotations

import json
import math
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pymunk
import pytest

from collidoscope_capture.pymunk import PymunkCapture
from conftest import collidoscope, diagnose, disagreeing, events, first_drop, lines, names

TILE = 32.0
FLOOR_Y = 300.0


def slide(floor: str, out, drop: float = 20.0, speed: float = 100.0, steps: int = 120, background: bool = True):
    """A 32-px crate (no turning) dropped 20 px onto the floor while moving at 100 px/s
    along it, in pixels with y down: over 32-px tiles (separate static bodies), or over one
    floor (a segment, or one long box)."""
    space = pymunk.Space()
    space.gravity = (0, 900)
    if floor == "tiles":
        for i in range(40):
            body = pymunk.Body(body_type=pymunk.Body.STATIC)
            body.position = (i * TILE + TILE / 2, FLOOR_Y + TILE / 2)
            body.name = "tile%d" % (i + 1)
            tile = pymunk.Poly.create_box(body, (TILE, TILE))
            tile.friction = 0
            space.add(body, tile)
    elif floor == "segment":
        ground = pymunk.Segment(space.static_body, (0, FLOOR_Y), (40 * TILE, FLOOR_Y), 0)
        ground.name = "floor"
        ground.friction = 0
        space.add(ground)
    else:
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        body.position = (20 * TILE, FLOOR_Y + TILE / 2)
        body.name = "floor"
        ground = pymunk.Poly.create_box(body, (40 * TILE, TILE))
        ground.friction = 0
        space.add(body, ground)
    crate = pymunk.Body(1, math.inf)
    crate.position = (TILE * 1.5, FLOOR_Y - TILE / 2 - drop)
    crate.name = "crate"
    box = pymunk.Poly.create_box(crate, (TILE, TILE))
    box.friction = 0
    space.add(crate, box)
    crate.velocity = (speed, 0)
    speeds = []
    with PymunkCapture(space, out if callable(out) else str(out), background=background) as cap:
        for _ in range(steps):
            cap.step(1 / 60)
            # After step k: the velocity the solver left, frame k + 1's.
            speeds.append(crate.velocity.x)
    return speeds


def test_a_crate_stopped_dead_on_a_seam_is_named_at_the_step_pymunk_stopped_it(folder):
    out = folder / "tiles.capture.jsonl.gz"
    speeds = slide("tiles", out)
    drop = first_drop(speeds, 1.0)
    assert drop is not None, "pymunk stopped the crate: %s" % [round(v) for v in speeds[:30]]
    assert abs(speeds[drop]) < 1e-6, "stopped dead"
    report = diagnose(out)
    assert report["engine"]["name"] == "pymunk"
    assert disagreeing(report) == [], "every claim agrees at f64"
    caught = [e for e in events(report, "seam") if e.get("caught")]
    assert caught, report["events"][:3]
    # Frame k holds the step's contacts and the velocity from before it: the seam that
    # caught the crate is at the step whose solver took its speed.
    assert caught[0]["frame"] == drop
    named = names(out)
    assert named[caught[0]["shape"]] == "crate"
    assert named[caught[0]["face_of"]].startswith("tile")
    assert named[caught[0]["covered_by"]].startswith("tile")
    assert caught[0]["speed_before"] == pytest.approx(100.0)
    assert caught[0]["speed_after"] == pytest.approx(0.0, abs=1e-6)
    # The impulse that stopped it: m |dv| = 1 x 100, from the solver's own numbers.
    assert caught[0]["impulse"] == pytest.approx(100.0, rel=1e-6)
    # Chipmunk collides every touching pair again each step: nothing is stale.
    assert events(report, "stale") == []


@pytest.mark.parametrize("floor", ["segment", "box"])
def test_the_same_crate_on_one_floor_slides_on_and_every_claim_is_exact(folder, floor):
    out = folder / ("%s.capture.jsonl" % floor)
    speeds = slide(floor, out)
    assert first_drop(speeds, 1.0) is None
    assert min(speeds) == pytest.approx(100.0)
    report = diagnose(out)
    assert disagreeing(report) == []
    assert report["events"] == []
    assert report["claims"] >= 90, report["claims"]


def test_a_fast_ball_through_a_wall_is_tunnelled_at_the_step_it_passed(folder):
    out = folder / "tunnel.capture.jsonl"
    space = pymunk.Space()
    wall_body = pymunk.Body(body_type=pymunk.Body.STATIC)
    wall_body.position = (500, 0)
    wall_body.name = "wall"
    space.add(wall_body, pymunk.Poly.create_box(wall_body, (10, 400)))
    ball = pymunk.Body()
    # 50 px a step from x = 25: after the step to x = 475 (clear of the wall's face at 495),
    # the next puts it at 525, past the wall's far face at 505.
    ball.position = (25, 0)
    ball.name = "ball"
    disc = pymunk.Circle(ball, 10)
    disc.density = 1
    space.add(ball, disc)
    ball.velocity = (3000, 0)
    xs = []
    with PymunkCapture(space, str(out)) as cap:
        for _ in range(20):
            cap.step(1 / 60)
            xs.append(ball.position.x)  # frame k: the poses after step k
    passed = next(k for k in range(len(xs) - 1) if xs[k] < 495 - 10 and xs[k + 1] > 505 + 10)
    report = diagnose(out)
    assert disagreeing(report) == []
    tunnels = events(report, "tunnelled")
    assert len(tunnels) == 1, report["events"]
    assert tunnels[0]["frame"] == passed
    named = names(out)
    assert {named[tunnels[0]["a"]], named[tunnels[0]["b"]]} == {"ball", "wall"}


def test_a_resting_crates_impulses_hold_its_weight_up(folder):
    out = folder / "resting.capture.jsonl"
    space = pymunk.Space()
    space.gravity = (0, 900)
    ground = pymunk.Segment(space.static_body, (-500, FLOOR_Y), (500, FLOOR_Y), 0)
    space.add(ground)
    crate = pymunk.Body(2, pymunk.moment_for_box(2, (40, 40)))
    crate.position = (0, FLOOR_Y - 20)
    space.add(crate, pymunk.Poly.create_box(crate, (40, 40)))
    with PymunkCapture(space, str(out)) as cap:
        for _ in range(120):
            cap.step(1 / 60)
    assert disagreeing(diagnose(out)) == []
    weight = 2 * 900 / 60
    frames = [f for f in lines(out)[1:] if f["frame"] >= 60]
    for f in frames:
        (claim,) = f["claims"]
        assert len(claim["impulses"]) == len(claim["contacts"]) == 2
        assert sum(claim["impulses"]) == pytest.approx(weight, rel=0.02), f
        assert all(j >= 0 for j in claim["impulses"])


def one_way(claim):
    """A claim with its pair turned to the lower id first (the normal turned with it)."""
    c = dict(claim)
    if c["a"] > c["b"]:
        c["a"], c["b"] = c["b"], c["a"]
        if "normal" in c:
            c["normal"] = [-c["normal"][0], -c["normal"][1]]
    return c


def flat(claim):
    """A claim's keys (with its verdict) and its numbers in one flat list."""
    numbers = []
    for key in sorted(claim):
        value = claim[key]
        for v in value if isinstance(value, list) else [value]:
            numbers.extend(v if isinstance(v, list) else [v])
    return (sorted(claim), claim["intersecting"]), [float(x) for x in numbers]


def test_the_batch_read_and_the_body_by_body_read_write_the_same_frames(folder):
    """pymunk's batch API (a whole space in a few calls) and the arbiter-by-arbiter read (for
    pymunk without it, and for pairs on a body of several shapes) give the same frames."""
    written = {}
    for how in ("batch", "bodies"):
        out = folder / ("%s.capture.jsonl" % how)
        pile(out, 4, steps=90, batch=how == "batch")
        written[how] = lines(out)
    assert len(written["batch"]) == len(written["bodies"]) == 91
    claims = 0
    for x, y in zip(written["batch"][1:], written["bodies"][1:]):
        assert x["shapes"] == y["shapes"]
        # Chipmunk's distances read from either shape's side differ in the last bits.
        key = lambda c: (c["a"], c["b"])
        got = sorted(map(one_way, x["claims"]), key=key)
        want = sorted(map(one_way, y["claims"]), key=key)
        assert [key(c) for c in got] == [key(c) for c in want]
        for c, d in zip(got, want):
            (kc, nc), (kd, nd) = flat(c), flat(d)
            assert kc == kd, (c, d)
            assert nc == pytest.approx(nd, rel=1e-12, abs=1e-12), (c, d)
        claims += len(x["claims"])
    assert claims > 2000, claims


def pile(out, seed: int, steps: int = 180, batch: bool = True):
    """Forty bodies of every kind Chipmunk has (circles, circles off their body's centre,
    capsules, convex polygons, rounded boxes, bodies of two shapes) dropped turning into a
    box of segments, one of them with a radius."""
    rng = random.Random(seed)
    space = pymunk.Space()
    space.gravity = (0, -9.81)
    sb = space.static_body
    walls = [
        pymunk.Segment(sb, (-6, 0), (6, 0), 0),
        pymunk.Segment(sb, (-6, 0), (-6, 12), 0.1),
        pymunk.Segment(sb, (6, 0), (6, 12), 0.2),
    ]
    for w in walls:
        w.friction = 0.5
    space.add(*walls)
    kinds = ["circle", "offset", "capsule", "poly", "rounded", "two"]
    for i in range(40):
        kind = kinds[i % len(kinds)]
        body = pymunk.Body()
        body.position = (rng.uniform(-5, 5), rng.uniform(1, 11))
        body.angle = rng.uniform(-3, 3)
        body.velocity = (rng.uniform(-2, 2), rng.uniform(-2, 2))
        body.angular_velocity = rng.uniform(-2, 2)
        if kind == "circle":
            shapes = [pymunk.Circle(body, rng.uniform(0.1, 0.5))]
        elif kind == "offset":
            shapes = [pymunk.Circle(body, 0.3, (0.2, 0.1))]
        elif kind == "capsule":
            shapes = [pymunk.Segment(body, (-0.4, 0), (0.4, 0.1), 0.15)]
        elif kind == "poly":
            shapes = [pymunk.Poly(body, [(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)) for _ in range(6)])]
        elif kind == "rounded":
            shapes = [pymunk.Poly.create_box(body, (0.6, 0.4), radius=0.05)]
        else:
            shapes = [pymunk.Poly.create_box(body, (0.3, 0.3)), pymunk.Circle(body, 0.2, (0.4, 0))]
        for s in shapes:
            s.density = 1
            s.friction = 0.5
        body.name = "%s%d" % (kind, i)
        space.add(body, *shapes)
    with PymunkCapture(space, str(out), units="m", y_up=True) as cap:
        if not batch:
            cap._buffer = None  # as on a pymunk without pymunk.batch
        for _ in range(steps):
            cap.step(1 / 60)
    return space


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_piles_of_every_shape_pymunk_has_agree_with_every_claim(folder, seed):
    out = folder / ("pile%d.capture.jsonl.gz" % seed)
    pile(out, seed)
    report = diagnose(out)
    assert report["claims"] > 5000, report["claims"]
    assert disagreeing(report) == []
    written = lines(out)
    kinds = {}
    for line in written[1:]:
        for s in line.get("shapes", []):
            if "kind" in s:
                kinds[s["id"]] = (s["kind"], s.get("radius", 0) > 0 if s["kind"] == "polygon" else None)
    assert {k for k, _ in kinds.values()} == {"circle", "capsule", "polygon", "segment"}
    assert (("polygon", True)) in kinds.values(), "a rounded box, with its radius"
    # A body of two shapes names them by the body, apart.
    named = names(out)
    assert any(n.startswith("two5/") for n in named.values()), sorted(named.values())[:10]
    # Every frame after the first names only what changed; a claim's impulses are >= 0.
    assert all(j >= 0 for line in written[1:] for c in line["claims"] for j in c.get("impulses", []))


def test_the_header_filters_bodies_and_sensors(folder):
    out = folder / "filters.capture.jsonl"
    space = pymunk.Space()
    space.collision_slop = 0.25
    a = pymunk.Body()
    a.position = (0, 0)
    square = pymunk.Poly.create_box(a, (10, 10))
    square.density = 1
    square.filter = pymunk.ShapeFilter(group=7, categories=0b01, mask=0b10)
    ring = pymunk.Circle(a, 3, (8, 0))
    ring.density = 1
    ring.name = "ring"
    sensor = pymunk.Circle(space.static_body, 50)
    sensor.sensor = True
    space.add(a, square, ring, sensor)
    with PymunkCapture(space, str(out), units="m", y_up=True) as cap:
        cap.step(0.01)
    header, frame = lines(out)
    assert header["engine"]["name"] == "pymunk"
    assert header["engine"]["version"] == pymunk.version
    settings = header["engine"]["settings"]
    assert settings["collision_slop"] == 0.25
    assert settings["contact_recycling"] is False and settings["speculative_margin"] == 0
    assert (header["precision"], header["units"], header["y_up"]) == ("f64", "m", True)
    shapes = {s["id"]: s for s in frame["shapes"]}
    assert len(shapes) == 2, "the sensor is left out"
    first = shapes[1]
    # Chipmunk's shared group never collides: the capture's negative group says the same.
    assert first["filter"] == {"category": 1, "mask": 2, "group": -7}
    assert first["body_id"] == shapes[2]["body_id"], "one body: never paired"
    assert shapes[2]["name"] == "ring"
    assert shapes[2]["kind"] == "circle" and shapes[2]["position"] == [8.0, 0.0]


def test_velocities_are_from_before_the_step_and_of_each_shapes_own_position(folder):
    out = folder / "turning.capture.jsonl"
    space = pymunk.Space()
    space.gravity = (0, -10)
    body = pymunk.Body(1, 1)
    body.position = (1, 2)
    body.velocity = (3, 0)
    body.angular_velocity = 2
    disc = pymunk.Circle(body, 0.5, (1, 0))
    box = pymunk.Poly.create_box(body, (0.5, 0.5))
    space.add(body, disc, box)
    with PymunkCapture(space, str(out)) as cap:
        cap.step(0.1)
        after = (body.velocity.x, body.velocity.y)
        cap.step(0.1)
    _, first, second = lines(out)
    shapes = {s["id"]: s for s in first["shapes"]}
    centre = body.local_to_world((0, 0))
    # Frame 0: the velocity before the step (3, 0); the box at the body's own position (its
    # centre of gravity): no turning part; the disc 1 m out: w x r added.
    assert shapes[2]["velocity"] == [3.0, 0.0] or shapes[2]["velocity"][0] == pytest.approx(3.0)
    assert shapes[2]["angular_velocity"] == 2.0
    disc_at = shapes[1]["position"]
    r = (disc_at[0] - 1 - 3 * 0.1, disc_at[1] - 2)
    assert math.hypot(*r) == pytest.approx(1.0)
    assert shapes[1]["velocity"] == pytest.approx([3 - 2 * r[1], 0 + 2 * r[0]])
    # Frame 1: the velocity the first step left (gravity added), the one that moved it.
    box_now = next(s for s in second["shapes"] if s["id"] == 2)
    assert box_now["velocity"] == pytest.approx(list(after))
    assert centre is not None


def test_a_shape_the_capture_cannot_hold_is_refused_by_name_before_the_step(folder):
    out = folder / "refused.capture.jsonl"
    space = pymunk.Space()
    body = pymunk.Body()
    body.position = (0, 0)
    disc = pymunk.Circle(body, 1)
    disc.density = 1
    space.add(body, disc)
    cap = PymunkCapture(space, str(out))
    cap.step(0.1)
    stick = pymunk.Segment(body, (0, 0), (2, 0), 0)
    stick.name = "stick"
    space.add(stick)
    moved = body.position
    with pytest.raises(ValueError) as refused:
        cap.step(0.1)
    assert "Segment" in str(refused.value) and "'stick'" in str(refused.value)
    assert "radius 0 on a dynamic body" in str(refused.value)
    assert body.position == moved, "the space was not stepped"
    cap.close()
    assert len(lines(out)) == 2, "the frame before is kept"
    assert diagnose(out)["frames"][0]["frame"] == 0


def test_a_removed_shape_is_written_as_removed(folder):
    out = folder / "removed.capture.jsonl"
    space = pymunk.Space()
    bodies = []
    for i in range(3):
        b = pymunk.Body()
        b.position = (i * 10, 0)
        c = pymunk.Circle(b, 1)
        c.density = 1
        space.add(b, c)
        bodies.append((b, c))
    with PymunkCapture(space, str(out)) as cap:
        cap.step(0.1)
        space.remove(*bodies[1])
        cap.step(0.1)
    assert lines(out)[2]["removed"] == [2]
    assert diagnose(out)["claims"] == 0


def lines_or_none(path):
    """The capture's lines so far (none while the last one is being written)."""
    try:
        return lines(path)
    except Exception:
        return []


CRASH = textwrap.dedent(
    """
    import os, signal, sys
    import pymunk
    from collidoscope_capture.pymunk import PymunkCapture
    space = pymunk.Space()
    space.gravity = (0, 900)
    space.add(pymunk.Segment(space.static_body, (-100, 100), (100, 100), 0))
    ball = pymunk.Body()
    ball.position = (0, 0)
    disc = pymunk.Circle(ball, 10)
    disc.density = 1
    space.add(ball, disc)
    cap = PymunkCapture(space, sys.argv[1])
    for _ in range(50):
        cap.step(1 / 60)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("name", ["crash.capture.jsonl", "crash.capture.jsonl.gz"])
def test_a_game_killed_mid_run_keeps_every_frame_written(folder, name):
    out = folder / name
    run = subprocess.run([sys.executable, "-c", CRASH, str(out)], env=dict(os.environ))
    assert run.returncode == -signal.SIGKILL
    # The writer process goes on writing what the game handed it, then ends.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(lines_or_none(out)) < 51:
        time.sleep(0.05)
    report = diagnose(out)
    assert len(report["frames"]) == 50
    assert disagreeing(report) == []


def test_the_games_process_and_the_writer_process_write_the_same_capture(folder):
    """A callable (or background=False) is written in the game's process; a file by the writer
    process: the same lines. (One crate on one floor: Chipmunk orders the pairs of a step by
    where its objects are in memory, so a run of many contacts is not the same twice.)"""
    got = []
    slide("segment", got.append)
    out = folder / "floor.capture.jsonl"
    slide("segment", out)
    assert len(got) == 121
    assert "".join(got) == out.read_text()
    kept = folder / "kept.capture.jsonl"
    slide("segment", kept, background=False)
    assert kept.read_text() == out.read_text()


def test_streamed_to_diagnose_listen_the_same_claims_and_events_as_the_file(folder):
    listening = subprocess.Popen(
        [collidoscope(), "diagnose", "--listen", "0", "--json", "--idle", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    said = b""
    while b"127.0.0.1:" not in said:
        chunk = listening.stderr.read1(4096)
        assert chunk, "diagnose --listen ended: %s" % said.decode()
        said += chunk
    port = int(said.decode().split("127.0.0.1:")[1].split()[0].rstrip(".:,;"))
    slide("tiles", "tcp://127.0.0.1:%d" % port)
    stdout, stderr = listening.communicate(timeout=60)
    assert listening.returncode == 1, "a seam was named: %s" % (said + stderr).decode()
    streamed = [json.loads(line) for line in stdout.decode().splitlines() if line]
    summary = streamed[-1]
    # The listener keeps what it was sent as a file: the same run, read from the file.
    told = (said + stderr).decode()
    kept = told.split("its capture is kept as ")[1].split()[0].rstrip(".,;")
    report = diagnose(kept)
    assert summary["engine"]["name"] == "pymunk"
    assert (summary["claims"], summary["agreeing"]) == (report["claims"], report["agreeing"])
    assert summary["events"] == report["events"]
    assert "pymunk %s connected" % pymunk.version in (said + stderr).decode()


def test_a_tcp_address_anywhere_but_this_machine_is_refused():
    with pytest.raises(ValueError, match="streams to this machine only"):
        PymunkCapture(pymunk.Space(), "tcp://192.168.1.4:9713")


@pytest.mark.parametrize("background", [True, False])
def test_a_number_that_is_not_finite_is_raised_naming_the_shape_and_the_frames_before_kept(folder, background):
    out = folder / "nan.capture.jsonl"
    space = pymunk.Space()
    body = pymunk.Body()
    disc = pymunk.Circle(body, 5)
    disc.density = 1
    disc.name = "ball"
    space.add(body, disc)
    cap = PymunkCapture(space, str(out), background=background)
    cap.step(1 / 60)
    body.velocity = (math.nan, 0)
    with pytest.raises(ValueError) as refused:
        # With the writer process it is raised at the next step (or at close).
        cap.step(1 / 60)
        cap.step(1 / 60)
        cap.close()
    assert "Circle 1 ('ball')" in str(refused.value)
    assert '"position" must be two finite numbers' in str(refused.value)
    cap.close()  # said once: closing again is quiet
    assert len(lines(out)) == 2, "the header and the frame before"
    assert diagnose(out)["frames"][0]["frame"] == 0


def test_a_body_asleep_is_not_claimed_against_what_cannot_wake_it(folder):
    """Chipmunk keeps the arbiters of sleeping bodies without colliding them again: a crate
    asleep on the floor has no claim (as the JavaScript and Rust adapters leave out pairs of
    two shapes not awake), and gets its claims back when it wakes."""
    out = folder / "asleep.capture.jsonl"
    space = pymunk.Space()
    space.gravity = (0, 900)
    space.sleep_time_threshold = 0.3
    ground = pymunk.Segment(space.static_body, (-500, FLOOR_Y), (500, FLOOR_Y), 0)
    space.add(ground)
    crate = pymunk.Body(1, pymunk.moment_for_box(1, (40, 40)))
    crate.position = (0, FLOOR_Y - 20)
    space.add(crate, pymunk.Poly.create_box(crate, (40, 40)))
    asleep_at = None
    with PymunkCapture(space, str(out)) as cap:
        for k in range(120):
            if k == 100:
                crate.activate()
            cap.step(1 / 60)
            if asleep_at is None and crate.is_sleeping:
                asleep_at = k
    assert asleep_at is not None and asleep_at < 100
    frames = lines(out)[1:]
    assert frames[asleep_at - 1]["claims"], "awake: claimed"
    assert all(frames[k]["claims"] == [] for k in range(asleep_at + 1, 100)), "asleep: not claimed"
    assert frames[100]["claims"], "woken: claimed again"
    assert disagreeing(diagnose(out)) == []
