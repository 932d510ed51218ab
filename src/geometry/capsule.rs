use super::ShapeError;
use super::circle::{check_point, check_radius};
use glam::DVec2;
use serde::Serialize;

/// All points within `radius` of the segment `a`-`b` (local coordinates). `a == b` is allowed
/// and makes a circle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Capsule {
    /// First end of the core segment.
    pub a: DVec2,
    /// Second end of the core segment.
    pub b: DVec2,
    /// Radius, > 0.
    pub radius: f64,
}

impl Capsule {
    /// A capsule, checked: finite ends and a finite radius > 0.
    pub fn new(a: DVec2, b: DVec2, radius: f64) -> Result<Self, ShapeError> {
        check_point("a", a)?;
        check_point("b", b)?;
        check_radius(radius)?;
        Ok(Self { a, b, radius })
    }
}
