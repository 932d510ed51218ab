//! The colours of the window, the same in the scene, the table, the plot and a rendered
//! picture.

use super::mark::Colour;
use crate::query::AxisRole;
use crate::scene::ShapeId;

/// Shape A of the explained pair.
pub const A: Colour = Colour::rgb(70, 140, 240);
/// Shape B of the explained pair.
pub const B: Colour = Colour::rgb(240, 150, 60);
/// Shapes outside the pair.
pub const OTHER: Colour = Colour::rgb(150, 150, 160);
/// An axis with a gap: it separates.
pub const SEPARATING: Colour = Colour::rgb(80, 200, 120);
/// An axis whose shadows overlap.
pub const OVERLAPPING: Colour = Colour::rgb(130, 130, 140);
/// The axis that decided (early out, or the MTV's).
pub const DECIDING: Colour = Colour::rgb(250, 210, 60);
/// The MTV arrow, contacts and the intersection region.
pub const MTV: Colour = Colour::rgb(235, 70, 70);
/// The naive rule's MTV.
pub const NAIVE: Colour = Colour::rgb(190, 100, 230);
/// What another engine claimed (normal, depth, contacts).
pub const CLAIMED: Colour = Colour::rgb(250, 120, 200);
/// Closest points and the distance between them.
pub const CLOSEST: Colour = Colour::rgb(60, 210, 220);
/// A cast ray (its hits are drawn in [`CLOSEST`]).
pub const RAY: Colour = Colour::rgb(235, 235, 245);
/// An edit that would make a shape invalid.
pub const INVALID: Colour = Colour::rgb(255, 60, 60);
/// Pairs outside the explained one that intersect.
pub const OTHER_HIT: Colour = Colour::rgb(220, 90, 90);

/// The background of the current row of a table (step mode, hover).
pub const CURRENT_ROW: Colour = Colour::rgb(60, 60, 90);

/// The scene view's background (the window's dark panels).
pub const BACKGROUND: Colour = Colour::gray(27);
/// Grid lines.
pub const GRID: Colour = Colour::gray(45);
/// The grid lines through the origin.
pub const GRID_AXIS: Colour = Colour::gray(80);
/// The grid's numbers.
pub const GRID_TEXT: Colour = Colour::gray(110);

/// The colour of an axis by what it did; `overlapping` for an axis that only overlaps (the
/// table uses its text colour, the scene a grey).
pub fn axis_colour(role: AxisRole, overlapping: Colour) -> Colour {
    match role {
        AxisRole::Deciding => DECIDING,
        AxisRole::Separating => SEPARATING,
        AxisRole::Overlapping => overlapping,
    }
}

/// `c` with opacity `a` (0-255).
pub fn faded(c: Colour, a: u8) -> Colour {
    Colour::rgba(c.r, c.g, c.b, a)
}

/// The colour of shape `id` given the explained pair.
pub fn shape_colour(id: ShapeId, pair: Option<(ShapeId, ShapeId)>) -> Colour {
    match pair {
        Some((a, _)) if a == id => A,
        Some((_, b)) if b == id => B,
        _ => OTHER,
    }
}
