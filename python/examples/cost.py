"""What a capture costs a pymunk game: 1,000 bodies (boxes, circles, capsules and rounded
boxes) falling into a bin and settling, stepped 300 times at 1/60 s, once with `space.step`
alone and then through `PymunkCapture`, the same scene each time:

- to a file with its writer process (the default for a file): the game's thread does the
  step and reads pymunk; the frames' text is made and written on another core;
- to a file in the game's process (background=False): the game's thread does it all.

Each is the median, over the steps, of the CPU time of the game's thread in `step` (its own
work: minus the bare step's, step by step), and for the writer process its CPU time a frame;
once with a step every 1/HZ s (as a game's frames come: the writer keeps up) and once flat out
(the game then waits for the writer when it is behind).

    python examples/cost.py [BODIES] [STEPS] [HZ]
"""

import os
import random
import resource
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


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(bodies: int, steps: int, out=None, background=True, hz=0.0):
    """The game thread's CPU time of each step, the wall time of the run, the writer
    process's CPU time; ``hz`` > 0: a step every 1/hz s, as a game's frames come."""
    space = scene(bodies)
    cap = PymunkCapture(space, out, background=background) if out is not None else None
    before = children_cpu()
    times = []
    start = time.perf_counter()
    for k in range(steps):
        t = time.thread_time()
        if cap is None:
            space.step(1 / 60)
        else:
            cap.step(1 / 60)
        times.append(time.thread_time() - t)
        if hz > 0:
            wait = start + (k + 1) / hz - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
    if cap is not None:
        cap.close()
    return times, time.perf_counter() - start, children_cpu() - before


def main() -> None:
    bodies = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    hz = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
    folder = tempfile.mkdtemp()
    print("pymunk %s, %d bodies, %d steps; medians over the steps of the CPU time of the game's thread" % (pymunk.version, bodies, steps))
    for label, rate in (("a step every 1/%g s, as a game's frames come" % hz, hz), ("flat out", 0.0)):
        bare, _, _ = measure(bodies, steps, hz=rate)
        step = statistics.median(bare)
        print("%s: space.step alone %.2f ms" % (label, step * 1000))
        for name, file, background in (
            ("file, writer process", "a.capture.jsonl", True),
            (".gz, writer process", "b.capture.jsonl.gz", True),
            ("file, in the game's process", "c.capture.jsonl", False),
        ):
            path = os.path.join(folder, file)
            times, wall, child = measure(bodies, steps, path, background, hz=rate)
            own = statistics.median(t - b for t, b in zip(times, bare))
            line = "  %-28s the capture's own work %.2f ms a step, %.2fx the step" % (name, own * 1000, own / step)
            if background:
                line += "; the writer process %.1f ms of another core a frame" % (child / steps * 1000)
            line += "; %.1f ms a step in all (%.1f MB)" % (wall / steps * 1000, os.path.getsize(path) / 1e6)
            print(line)
            os.remove(path)
    os.rmdir(folder)


if __name__ == "__main__":
    main()
