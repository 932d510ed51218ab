//! Shapes, poses and their validation: the plain value types every query reads.
//!
//! Conventions, stated once:
//! - Coordinates are f64 (`glam::DVec2`), y up, angles in radians counter-clockwise.
//! - A shape is defined in its local frame and placed by a [`Pose`]:
//!   `world = rotate(angle) * local + position`.
//! - Polygons are convex and stored counter-clockwise internally; the winding a file used is
//!   remembered so that it can be written back unchanged. Indices shown to people (edge `i`,
//!   vertex `j`) are always in the order the points were given.
//! - Rounded shapes are one idea (as in Box2D): a circle is a 1-point core with a radius, a
//!   capsule a 2-point core with a radius, a polygon an n-point core with radius 0. See
//!   [`Rounded`]. A segment is a capsule of radius 0. A chain is not convex: queries take it
//!   piece by piece, each piece a one-sided segment (see [`Chain`] and `query::chain`).

mod capsule;
mod chain;
mod circle;
mod decompose;
mod error;
mod inline;
mod interval;
mod polygon;
mod pose;
mod rounded;
mod segment;
mod shape;

pub use capsule::Capsule;
pub use chain::{Chain, Piece};
pub use circle::Circle;
pub use decompose::{MOST_POINTS_SPLIT, convex_pieces};
pub use error::ShapeError;
pub use inline::Corners;
pub(crate) use inline::inline_list;
pub use interval::Interval;
pub use polygon::{ConvexPolygon, EXHAUSTIVE_CHECK_POINTS, Winding};
pub use pose::Pose;
pub use rounded::{ARC_SEGMENTS_PER_TURN, Feature, Rounded, project_point};
pub use segment::Segment;
pub use shape::{Placed, Shape, ShapeKind};

/// The vector type of the whole core.
pub use glam::DVec2;

/// The counter-clockwise perpendicular of `v` (`v` turned by +90 degrees).
#[inline]
pub fn left_perp(v: DVec2) -> DVec2 {
    DVec2::new(-v.y, v.x)
}

/// The clockwise perpendicular of `v` (`v` turned by -90 degrees). For an edge of a
/// counter-clockwise polygon this is the outward normal direction.
#[inline]
pub fn right_perp(v: DVec2) -> DVec2 {
    DVec2::new(v.y, -v.x)
}

/// The z component of the 3D cross product of `a` and `b`: positive when `b` turns
/// counter-clockwise from `a`.
#[inline]
pub fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}
