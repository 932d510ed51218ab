use super::ShapeError;
use super::circle::check_point;
use glam::DVec2;
use serde::Serialize;

/// The segment `a`-`b` (local coordinates), `a != b`: no thickness and no side. Every query
/// takes it as a capsule of radius 0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Segment {
    a: DVec2,
    b: DVec2,
}

impl Segment {
    /// A segment, checked: finite, distinct ends.
    pub fn new(a: DVec2, b: DVec2) -> Result<Self, ShapeError> {
        check_point("a", a)?;
        check_point("b", b)?;
        if a == b {
            return Err(ShapeError::SameEnds { point: a });
        }
        Ok(Self { a, b })
    }

    /// First end (local).
    #[inline]
    pub fn a(&self) -> DVec2 {
        self.a
    }

    /// Second end (local).
    #[inline]
    pub fn b(&self) -> DVec2 {
        self.b
    }

    /// End `which`: 0 is `a`, 1 is `b`.
    pub fn end(&self, which: usize) -> DVec2 {
        if which == 0 { self.a } else { self.b }
    }

    /// Move end `which` (0 is `a`, 1 is `b`); a non-finite point, or one on the other end, is
    /// refused and the segment stays as it was.
    pub fn set_end(&mut self, which: usize, p: DVec2) -> Result<(), ShapeError> {
        let moved = if which == 0 {
            Self::new(p, self.b)?
        } else {
            Self::new(self.a, p)?
        };
        *self = moved;
        Ok(())
    }
}
