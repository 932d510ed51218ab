//! The colours of the window, the same in the scene, the table and the plot.

use crate::query::AxisRole;
use crate::scene::ShapeId;
use eframe::egui::Color32;

/// Shape A of the explained pair.
pub const A: Color32 = Color32::from_rgb(70, 140, 240);
/// Shape B of the explained pair.
pub const B: Color32 = Color32::from_rgb(240, 150, 60);
/// Shapes outside the pair.
pub const OTHER: Color32 = Color32::from_rgb(150, 150, 160);
/// An axis with a gap: it separates.
pub const SEPARATING: Color32 = Color32::from_rgb(80, 200, 120);
/// An axis whose shadows overlap.
pub const OVERLAPPING: Color32 = Color32::from_rgb(130, 130, 140);
/// The axis that decided (early out, or the MTV's).
pub const DECIDING: Color32 = Color32::from_rgb(250, 210, 60);
/// The MTV arrow, contacts and the intersection region.
pub const MTV: Color32 = Color32::from_rgb(235, 70, 70);
/// The naive rule's MTV.
pub const NAIVE: Color32 = Color32::from_rgb(190, 100, 230);
/// Closest points and the distance between them.
pub const CLOSEST: Color32 = Color32::from_rgb(60, 210, 220);
/// An edit that would make a shape invalid.
pub const INVALID: Color32 = Color32::from_rgb(255, 60, 60);
/// Pairs outside the explained one that intersect.
pub const OTHER_HIT: Color32 = Color32::from_rgb(220, 90, 90);

/// The background of the current row of a table (step mode, hover).
pub const CURRENT_ROW: Color32 = Color32::from_rgb(60, 60, 90);

/// The colour of an axis by what it did; `overlapping` for an axis that only overlaps (the
/// table uses its text colour, the scene a grey).
pub fn axis_colour(role: AxisRole, overlapping: Color32) -> Color32 {
    match role {
        AxisRole::Deciding => DECIDING,
        AxisRole::Separating => SEPARATING,
        AxisRole::Overlapping => overlapping,
    }
}

/// `c` with alpha `a` (0-255), premultiplied.
pub fn faded(c: Color32, a: u8) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), a)
}

/// The colour of shape `id` given the explained pair.
pub fn shape_colour(id: ShapeId, pair: Option<(ShapeId, ShapeId)>) -> Color32 {
    match pair {
        Some((a, _)) if a == id => A,
        Some((_, b)) if b == id => B,
        _ => OTHER,
    }
}
