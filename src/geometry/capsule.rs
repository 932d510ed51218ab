use super::ShapeError;
use super::circle::{check_point, check_radius};
use glam::DVec2;
use serde::Serialize;

/// All points within `radius` of the segment `a`-`b` (local coordinates). `a == b` is allowed
/// and makes a circle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Capsule {
    a: DVec2,
    b: DVec2,
    radius: f64,
}

impl Capsule {
    /// A capsule, checked: finite ends and a finite radius > 0.
    pub fn new(a: DVec2, b: DVec2, radius: f64) -> Result<Self, ShapeError> {
        check_point("a", a)?;
        check_point("b", b)?;
        check_radius(radius)?;
        Ok(Self { a, b, radius })
    }

    /// First end of the core segment (local).
    #[inline]
    pub fn a(&self) -> DVec2 {
        self.a
    }

    /// Second end of the core segment (local).
    #[inline]
    pub fn b(&self) -> DVec2 {
        self.b
    }

    /// The radius (finite, > 0).
    #[inline]
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// End `which` of the segment: 0 is `a`, 1 is `b`.
    pub fn end(&self, which: usize) -> DVec2 {
        if which == 0 { self.a } else { self.b }
    }

    /// Move end `which` (0 is `a`, 1 is `b`); a non-finite point is refused and the capsule
    /// stays as it was.
    pub fn set_end(&mut self, which: usize, p: DVec2) -> Result<(), ShapeError> {
        check_point(if which == 0 { "a" } else { "b" }, p)?;
        if which == 0 {
            self.a = p;
        } else {
            self.b = p;
        }
        Ok(())
    }

    /// Change the radius; an invalid one is refused and the capsule stays as it was.
    pub fn set_radius(&mut self, radius: f64) -> Result<(), ShapeError> {
        check_radius(radius)?;
        self.radius = radius;
        Ok(())
    }
}
