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

    /// Whether `p` lies inside or on the box.
    pub fn contains(&self, p: DVec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }
}
