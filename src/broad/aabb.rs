//! Axis-aligned bounding boxes: the broad phase's picture of a shape.

use crate::geometry::{DVec2, Placed};
use serde::Serialize;

/// A closed axis-aligned box `[min, max]` (world coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: DVec2,
    /// The corner with the largest coordinates.
    pub max: DVec2,
}

impl Aabb {
    /// The box with corners `min` and `max` (`min <= max` in both coordinates).
    pub fn new(min: DVec2, max: DVec2) -> Self {
        Self { min, max }
    }

    /// The exact bounds of a placed shape: a polygon's placed corners, a capsule's placed
    /// segment or a circle's centre, grown by the radius (for a rounded shape the box of the
    /// core grown by `r` is exactly the box of the shape).
    pub fn of(placed: &Placed) -> Self {
        let (min, max) = placed.aabb();
        Self { min, max }
    }

    /// Whether the boxes share a point (touching counts: a candidate, never a miss).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// The smallest box holding both.
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// `max - min`.
    pub fn size(&self) -> DVec2 {
        self.max - self.min
    }

    /// The middle of the box.
    pub fn centre(&self) -> DVec2 {
        (self.min + self.max) * 0.5
    }

    /// The box grown by `margin` on every side.
    pub fn grown(&self, margin: f64) -> Aabb {
        Aabb::new(
            self.min - DVec2::splat(margin),
            self.max + DVec2::splat(margin),
        )
    }

    /// Whether the segment `from -> to` has a point inside or on the box: the slab test
    /// (Kay and Kajiya), the segment's range of fractions `[0, 1]` cut by each axis' slab.
    pub fn meets_segment(&self, from: DVec2, to: DVec2) -> bool {
        let d = to - from;
        let (mut lower, mut upper) = (0.0f64, 1.0f64);
        for (o, d, min, max) in [
            (from.x, d.x, self.min.x, self.max.x),
            (from.y, d.y, self.min.y, self.max.y),
        ] {
            if d == 0.0 {
                if o < min || o > max {
                    return false;
                }
                continue;
            }
            let (t0, t1) = ((min - o) / d, (max - o) / d);
            let (t0, t1) = if d > 0.0 { (t0, t1) } else { (t1, t0) };
            lower = lower.max(t0);
            upper = upper.min(t1);
            if lower > upper {
                return false;
            }
        }
        true
    }

    /// Whether `p` lies inside or on the box.
    pub fn contains(&self, p: DVec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }
}
