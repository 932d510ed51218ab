//! The colours of the window, the same in the scene, the table, the plot and a rendered
//! picture.

use super::mark::{Colour, Mark, Stroke};
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
/// The solver's impulses at a capture's contact points.
pub const IMPULSE: Colour = Colour::rgb(130, 230, 110);

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

/// The window's dark look, or a light one for paper and projectors (white background, the
/// same hues darkened to read on it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Light shapes on a dark background: the window's.
    #[default]
    Dark,
    /// Dark shapes on white.
    Light,
}

/// Each colour of the dark look with its light counterpart (same hue, darker, so it reads on
/// white; greys turned around).
const LIGHT: [(Colour, Colour); 19] = [
    (A, Colour::rgb(25, 95, 215)),
    (B, Colour::rgb(215, 105, 10)),
    (OTHER, Colour::rgb(105, 105, 115)),
    (SEPARATING, Colour::rgb(20, 145, 65)),
    (OVERLAPPING, Colour::rgb(110, 110, 120)),
    (DECIDING, Colour::rgb(185, 135, 0)),
    (MTV, Colour::rgb(205, 35, 35)),
    (NAIVE, Colour::rgb(145, 50, 195)),
    (CLAIMED, Colour::rgb(210, 50, 150)),
    (CLOSEST, Colour::rgb(0, 140, 160)),
    (RAY, Colour::rgb(40, 40, 50)),
    (INVALID, Colour::rgb(220, 20, 20)),
    (OTHER_HIT, Colour::rgb(200, 60, 60)),
    (IMPULSE, Colour::rgb(40, 150, 30)),
    (CURRENT_ROW, Colour::rgb(215, 225, 250)),
    (BACKGROUND, Colour::gray(255)),
    (GRID, Colour::gray(232)),
    (GRID_AXIS, Colour::gray(185)),
    (GRID_TEXT, Colour::gray(120)),
];

impl Theme {
    /// `mark` as this theme draws it, its lines `widths` times as thick (a projector's look:
    /// the light theme's colours, lines that read from the back of a room). Where it is and
    /// its dashes stay as they were.
    pub fn restyle(self, mark: Mark, widths: f32) -> Mark {
        let theme = self;
        let colour = |c: Colour| theme.colour(c);
        let line = |s: Stroke| Stroke {
            width: s.width * widths,
            colour: theme.colour(s.colour),
        };
        match mark {
            Mark::Polygon {
                points,
                fill,
                stroke,
            } => Mark::Polygon {
                points,
                fill: colour(fill),
                stroke: line(stroke),
            },
            Mark::Segment { points, stroke } => Mark::Segment {
                points,
                stroke: line(stroke),
            },
            Mark::Line {
                points,
                closed,
                stroke,
            } => Mark::Line {
                points,
                closed,
                stroke: line(stroke),
            },
            Mark::Dashed {
                points,
                stroke,
                dash,
                gap,
            } => Mark::Dashed {
                points,
                stroke: line(stroke),
                dash,
                gap,
            },
            Mark::Circle {
                centre,
                radius,
                fill,
                stroke,
            } => Mark::Circle {
                centre,
                radius,
                fill: colour(fill),
                stroke: line(stroke),
            },
            Mark::Shape {
                shape,
                pose,
                per_turn,
                camera,
                rect,
                fill,
                stroke,
            } => Mark::Shape {
                shape,
                pose,
                per_turn,
                camera,
                rect,
                fill: colour(fill),
                stroke: line(stroke),
            },
            Mark::Rect {
                rect,
                corner,
                fill,
                stroke,
            } => Mark::Rect {
                rect,
                corner,
                fill: colour(fill),
                stroke: line(stroke),
            },
        }
    }

    /// `c` as this look draws it (its opacity kept). Colours outside the palette: white and
    /// near-white become near-black in the light look, the rest are kept.
    pub fn colour(self, c: Colour) -> Colour {
        if self == Theme::Dark {
            return c;
        }
        let same_rgb = |p: &Colour| (p.r, p.g, p.b) == (c.r, c.g, c.b);
        let light = match LIGHT.iter().find(|(dark, _)| same_rgb(dark)) {
            Some((_, light)) => *light,
            None if c.r.min(c.g).min(c.b) >= 200 => Colour::rgb(30, 30, 35),
            None => c,
        };
        Colour::rgba(light.r, light.g, light.b, c.a)
    }

    /// `dark` or `light`, as `render --theme` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Dark => "dark",
            Theme::Light => "light",
        }
    }

    /// The look called `name`.
    pub fn from_name(name: &str) -> Option<Theme> {
        [Theme::Dark, Theme::Light]
            .into_iter()
            .find(|t| t.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_light_look_keeps_opacity_and_leaves_the_dark_one_alone() {
        assert_eq!(Theme::Dark.colour(A), A);
        assert_eq!(Theme::Light.colour(BACKGROUND), Colour::gray(255));
        assert_eq!(Theme::Light.colour(faded(MTV, 90)).a, 90);
        assert_eq!(Theme::Light.colour(Colour::WHITE), Colour::rgb(30, 30, 35));
        // Every palette colour has its own light counterpart.
        let mut dark: Vec<_> = LIGHT.iter().map(|(d, _)| (d.r, d.g, d.b)).collect();
        dark.sort_unstable();
        dark.dedup();
        assert_eq!(dark.len(), LIGHT.len());
    }
}
