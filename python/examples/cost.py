"""What a capture costs a pymunk game: 1,000 bodies (boxes, circles, capsules and rounded
boxes) falling into a bin and settling, stepped 300 times at 1/60 s, once with `space.step`
alone and once through `PymunkCapture` (to a plain file, and to a .gz file), the same scene
each time. Prints the median time of a step and of the capture's own work per step (the
capture's step minus the bare step, measured on the same steps).

    python examples/cost.py [BODIES] [STEPS]
"""

import os
import random
import statistics
import sys
import tempfile
import time

import pymunk

from collidoscope_capture.pymunk import PymunkCapture


def scene(bodies: int, seed: int = 5) -> pymunk.Space:
    rng = random.Random(seed)
    space = pymunk.Space()
    space.gravity = (0, -900)
    side = 40 * int(bodies ** 0.5) + 200
    sb = space.static_body
    walls = [
        pymunk.Segment(sb, (0, 0), (side, 0), 2),
        pymunk.Segment(sb, (0, 0), (0, side * 4), 2),
        pymunk.Segment(sb, (side, 0), (side, side * 4), 2),
    ]
    space.add(*walls)
    columns = int(side / 40) - 2
    for i in range(bodies):
        body = pymunk.Body()
        body.position = (60 + (i % columns) * 40 + rng.uniform(-5, 5), 40 + (i // columns) * 40)
        body.angle = rng.uniform(-1, 1)
        kind = i % 4
        if kind == 0:
            shape = pymunk.Poly.create_box(body, (30, 30))
        elif kind == 1:
            shape = pymunk.Circle(body, 15)
        elif kind == 2:
            shape = pymunk.Segment(body, (-10, 0), (10, 0), 8)
        else:
            shape = pymunk.Poly.create_box(body, (26, 26), radius=2)
        shape.density = 1
        shape.friction = 0.6
        space.add(body, shape)
    return space


def measure(bodies: int, steps: int, out=None):
    space = scene(bodies)
    cap = PymunkCapture(space, out) if out is not None else None
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        if cap is None:
            space.step(1 / 60)
        else:
            cap.step(1 / 60)
        times.append(time.perf_counter() - start)
    if cap is not None:
        cap.close()
    return times


def main() -> None:
    bodies = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    folder = tempfile.mkdtemp()
    bare = measure(bodies, steps)
    plain = measure(bodies, steps, os.path.join(folder, "cost.capture.jsonl"))
    packed = measure(bodies, steps, os.path.join(folder, "cost.capture.jsonl.gz"))
    step = statistics.median(bare)
    print("pymunk %s, %d bodies, %d steps (median per step):" % (pymunk.version, bodies, steps))
    print("  space.step            %.2f ms" % (step * 1000))
    for name, times in (("captured, plain", plain), ("captured, .gz", packed)):
        own = statistics.median(t - b for t, b in zip(times, bare))
        print("  %-21s %.2f ms: the capture's own work %.2f ms, %.2fx the step" % (name, statistics.median(times) * 1000, own * 1000, own / step))
    for name in ("cost.capture.jsonl", "cost.capture.jsonl.gz"):
        path = os.path.join(folder, name)
        print("  %s: %.1f MB" % (name, os.path.getsize(path) / 1e6))
        os.remove(path)
    os.rmdir(folder)


if __name__ == "__main__":
    main()
