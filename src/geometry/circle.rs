use super::ShapeError;
use serde::Serialize;

/// A disc of `radius` around its local origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Circle {
    radius: f64,
}

impl Circle {
    /// A circle, checked: the radius must be finite and > 0.
    pub fn new(radius: f64) -> Result<Self, ShapeError> {
        check_radius(radius)?;
        Ok(Self { radius })
    }

    /// The radius (finite, > 0).
    #[inline]
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Change the radius; an invalid one is refused and the circle stays as it was.
    pub fn set_radius(&mut self, radius: f64) -> Result<(), ShapeError> {
        check_radius(radius)?;
        self.radius = radius;
        Ok(())
    }
}

/// A radius must be a finite number > 0.
pub(crate) fn check_radius(radius: f64) -> Result<(), ShapeError> {
    if !radius.is_finite() {
        return Err(ShapeError::NonFinite {
            field: "radius".into(),
            found: radius.to_string(),
        });
    }
    if radius <= 0.0 {
        return Err(ShapeError::RadiusNotPositive { found: radius });
    }
    Ok(())
}

/// A point must have two finite coordinates.
pub(crate) fn check_point(field: &str, p: glam::DVec2) -> Result<(), ShapeError> {
    if p.is_finite() {
        Ok(())
    } else {
        Err(ShapeError::NonFinite {
            field: field.into(),
            found: format!("[{}, {}]", p.x, p.y),
        })
    }
}
