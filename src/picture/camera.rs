//! World (f64, y up, or down for a y-down capture) to screen (f32 points, y down): the one place where core numbers become
//! drawing numbers.

use crate::geometry::DVec2;
use glam::Vec2;

/// What part of the world the scene view shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The world point at the centre of the view.
    pub centre: DVec2,
    /// Screen points per world unit.
    pub scale: f64,
    /// The world's y grows down the screen (a capture from a y-down game), not up.
    pub y_down: bool,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            centre: DVec2::ZERO,
            scale: 40.0,
            y_down: false,
        }
    }
}

/// The smallest and largest zoom (points per unit), so that no edit or file can make the
/// transform degenerate.
const MIN_SCALE: f64 = 1e-6;
const MAX_SCALE: f64 = 1e6;
/// How far from the view's centre (screen points) a point may be drawn.
const SCREEN_LIMIT: DVec2 = DVec2::splat(1e7);

impl Camera {
    /// Screen points down per world unit of y, over `scale`: -1 for y up, 1 for y down.
    pub fn y_screen(&self) -> f64 {
        if self.y_down { 1.0 } else { -1.0 }
    }

    /// A world point on the screen.
    pub fn to_screen(&self, rect: Rect, p: DVec2) -> Vec2 {
        // Far off screen is as good as infinitely far, and painting must never see an
        // infinity (a shape at 1e300 would overflow f32): clamp before converting.
        let d = ((p - self.centre) * self.scale).clamp(-SCREEN_LIMIT, SCREEN_LIMIT);
        let c = rect.centre();
        Vec2::new(c.x + d.x as f32, c.y + (d.y * self.y_screen()) as f32)
    }

    /// A screen position in the world.
    pub fn to_world(&self, rect: Rect, q: Vec2) -> DVec2 {
        let c = rect.centre();
        let down = (q.y - c.y) as f64;
        self.centre + DVec2::new((q.x - c.x) as f64, down * self.y_screen()) / self.scale
    }

    /// A screen drag as a world displacement.
    pub fn delta_to_world(&self, delta: Vec2) -> DVec2 {
        DVec2::new(delta.x as f64, delta.y as f64 * self.y_screen()) / self.scale
    }

    /// Zoom by `factor` keeping the world point under `anchor` where it is.
    pub fn zoom_at(&mut self, rect: Rect, anchor: Vec2, factor: f64) {
        let before = self.to_world(rect, anchor);
        self.scale = (self.scale * factor).clamp(MIN_SCALE, MAX_SCALE);
        let after = self.to_world(rect, anchor);
        self.centre += before - after;
    }

    /// Show the box `(min, max)` with `margin` points more around it on every side (room for
    /// marks drawn a fixed number of points out, such as the axis ring), within the margin
    /// [`Camera::fit`] leaves; as [`Camera::fit`] when the margin leaves no room.
    pub fn fit_with_margin(&mut self, rect: Rect, (min, max): (DVec2, DVec2), margin: f64) {
        if !(min.is_finite() && max.is_finite()) {
            return;
        }
        let size = (max - min).max(DVec2::splat(1e-3));
        let across = |points: f32, world: f64| (0.85 * f64::from(points) - 2.0 * margin) / world;
        let scale = across(rect.width(), size.x).min(across(rect.height(), size.y));
        if scale > 0.0 {
            self.centre = (min + max) * 0.5;
            self.scale = scale.clamp(MIN_SCALE, MAX_SCALE);
        } else {
            self.fit(rect, (min, max));
        }
    }

    /// Show the box `(min, max)` with a margin.
    pub fn fit(&mut self, rect: Rect, (min, max): (DVec2, DVec2)) {
        if !(min.is_finite() && max.is_finite()) {
            return;
        }
        self.centre = (min + max) * 0.5;
        let size = (max - min).max(DVec2::splat(1e-3));
        let sx = rect.width() as f64 / size.x;
        let sy = rect.height() as f64 / size.y;
        self.scale = (0.85 * sx.min(sy)).clamp(MIN_SCALE, MAX_SCALE);
    }
}

/// An axis-aligned screen rectangle; `min` is the top-left corner (y down). Edges count as
/// inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// The top-left corner.
    pub min: Vec2,
    /// The bottom-right corner.
    pub max: Vec2,
}

impl Rect {
    /// The rectangle that contains nothing (and that nothing intersects).
    pub const NOTHING: Rect = Rect {
        min: Vec2::splat(f32::INFINITY),
        max: Vec2::splat(f32::NEG_INFINITY),
    };

    /// From its corners.
    pub const fn from_min_max(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// From its top-left corner and size.
    pub fn from_min_size(min: Vec2, size: Vec2) -> Self {
        Self::from_min_max(min, min + size)
    }

    /// The rectangle with opposite corners `a` and `b`, in any order.
    pub fn from_two_points(a: Vec2, b: Vec2) -> Self {
        Self::from_min_max(a.min(b), a.max(b))
    }

    /// The rectangle of `size` centred on `centre`.
    pub fn from_centre_size(centre: Vec2, size: Vec2) -> Self {
        Self::from_min_max(centre - size * 0.5, centre + size * 0.5)
    }

    /// Its centre.
    pub fn centre(&self) -> Vec2 {
        (self.min + self.max) / 2.0
    }

    /// Its size.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Its width.
    pub fn width(&self) -> f32 {
        self.max.x - self.min.x
    }

    /// Its height.
    pub fn height(&self) -> f32 {
        self.max.y - self.min.y
    }

    /// Whether `p` is inside or on an edge.
    pub fn contains(&self, p: Vec2) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }

    /// Whether the two share a point (touching counts).
    pub fn intersects(&self, other: Rect) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Grown by `amount` on every side.
    pub fn expand(self, amount: f32) -> Self {
        Self::from_min_max(
            self.min - Vec2::splat(amount),
            self.max + Vec2::splat(amount),
        )
    }

    /// Shrunk by `amount` on every side.
    pub fn shrink(self, amount: f32) -> Self {
        self.expand(-amount)
    }

    /// The bottom-left corner.
    pub fn left_bottom(&self) -> Vec2 {
        Vec2::new(self.min.x, self.max.y)
    }

    /// The top-right corner.
    pub fn right_top(&self) -> Vec2 {
        Vec2::new(self.max.x, self.min.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A y-down camera mirrors the view about its centre line and takes screen points back
    /// to the same world points; drags move the world the same way.
    #[test]
    fn a_y_down_camera_mirrors_y_and_round_trips() {
        let rect = Rect::from_min_size(Vec2::ZERO, Vec2::new(640.0, 480.0));
        let up = Camera {
            centre: DVec2::new(3.0, 2.0),
            scale: 10.0,
            y_down: false,
        };
        let down = Camera { y_down: true, ..up };
        let p = DVec2::new(5.0, 7.0);
        let (a, b) = (up.to_screen(rect, p), down.to_screen(rect, p));
        assert_eq!(a.x, b.x);
        assert_eq!(a.y - 240.0, 240.0 - b.y, "mirrored about the centre line");
        assert!(b.y > 240.0, "larger y lower on the screen");
        assert_eq!(down.to_world(rect, b), p);
        assert_eq!(
            down.delta_to_world(Vec2::new(10.0, 20.0)),
            DVec2::new(1.0, 2.0)
        );
        assert_eq!(
            up.delta_to_world(Vec2::new(10.0, 20.0)),
            DVec2::new(1.0, -2.0)
        );
    }
}
