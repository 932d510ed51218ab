"""A crate dropped onto a floor of separate 32-px tiles while sliding at 100 px/s: pymunk
stops it dead on the seam between two tiles. Written to tiles.capture.jsonl.gz (or the path
given); then:

    collidoscope diagnose tiles.capture.jsonl.gz     # the seam, at the step pymunk stopped it
    collidoscope tiles.capture.jsonl.gz              # the capture lab
    collidoscope plot tiles.capture.jsonl.gz -o tiles.png

No pygame needed.
"""

import math
import sys

import pymunk

from collidoscope_capture.pymunk import PymunkCapture

TILE = 32.0
FLOOR_Y = 300.0


def main(out: str) -> None:
    space = pymunk.Space()
    space.gravity = (0, 900)  # pixels, y down, as pygame draws
    for i in range(40):
        tile = pymunk.Body(body_type=pymunk.Body.STATIC)
        tile.position = (i * TILE + TILE / 2, FLOOR_Y + TILE / 2)
        tile.name = "tile%d" % (i + 1)
        box = pymunk.Poly.create_box(tile, (TILE, TILE))
        box.friction = 0
        space.add(tile, box)
    crate = pymunk.Body(1, math.inf)  # a crate that does not turn
    crate.position = (TILE * 1.5, FLOOR_Y - TILE / 2 - 20)
    crate.name = "crate"
    box = pymunk.Poly.create_box(crate, (TILE, TILE))
    box.friction = 0
    space.add(crate, box)
    crate.velocity = (100, 0)
    with PymunkCapture(space, out, units="px", y_up=False) as cap:
        for step in range(120):
            before = crate.velocity.x
            cap.step(1 / 60)
            if before > 1 and crate.velocity.x < before / 2:
                print("step %d: pymunk stopped the crate at x = %.1f px" % (step, crate.position.x))
    print("wrote %s: collidoscope diagnose %s" % (out, out))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tiles.capture.jsonl.gz")
