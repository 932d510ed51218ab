//! The drawing edge: the picture's marks, points and colours as egui's. The window paints
//! what [`crate::picture::draw`] builds through this one file.

use crate::picture::{Colour, Mark, Rect, Stroke, Vec2};
use eframe::egui::{self, Color32, Pos2, Shape};

impl From<Colour> for Color32 {
    fn from(c: Colour) -> Self {
        Color32::from_rgba_unmultiplied(c.r, c.g, c.b, c.a)
    }
}

impl From<Color32> for Colour {
    fn from(c: Color32) -> Self {
        let [r, g, b, a] = c.to_srgba_unmultiplied();
        Colour::rgba(r, g, b, a)
    }
}

/// A picture point as egui's.
pub fn pos(p: Vec2) -> Pos2 {
    Pos2::new(p.x, p.y)
}

/// An egui position as a picture point.
pub fn point(p: Pos2) -> Vec2 {
    Vec2::new(p.x, p.y)
}

/// An egui displacement as a picture one.
pub fn vector(v: egui::Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// An egui rectangle as a picture one.
pub fn rect(r: egui::Rect) -> Rect {
    Rect::from_min_max(point(r.min), point(r.max))
}

/// A picture rectangle as egui's.
pub fn egui_rect(r: Rect) -> egui::Rect {
    egui::Rect::from_min_max(pos(r.min), pos(r.max))
}

fn stroke(s: Stroke) -> egui::Stroke {
    egui::Stroke::new(s.width, s.colour)
}

fn positions(points: Vec<Vec2>) -> Vec<Pos2> {
    points.into_iter().map(pos).collect()
}

/// `mark` as an egui shape.
pub fn shape(mark: Mark) -> Shape {
    match mark {
        Mark::Polygon {
            points,
            fill,
            stroke: s,
        } => Shape::convex_polygon(positions(points), fill, stroke(s)),
        Mark::Shape {
            fill, stroke: s, ..
        } => Shape::convex_polygon(positions(mark.shape_outline()), fill, stroke(s)),
        Mark::Segment { points, stroke: s } => {
            Shape::line_segment([pos(points[0]), pos(points[1])], stroke(s))
        }
        Mark::Line {
            points,
            closed: true,
            stroke: s,
        } => Shape::closed_line(positions(points), stroke(s)),
        Mark::Line {
            points,
            closed: false,
            stroke: s,
        } => Shape::line(positions(points), stroke(s)),
        Mark::Dashed {
            points,
            stroke: s,
            dash,
            gap,
        } => Shape::Vec(Shape::dashed_line(&positions(points), stroke(s), dash, gap)),
        Mark::Circle {
            centre,
            radius,
            fill,
            stroke: s,
        } => Shape::Circle(egui::epaint::CircleShape {
            center: pos(centre),
            radius,
            fill: fill.into(),
            stroke: stroke(s),
        }),
        Mark::Rect {
            rect: r,
            corner,
            fill,
            stroke: s,
        } => Shape::Rect(egui::epaint::RectShape::new(
            egui_rect(r),
            corner,
            fill,
            stroke(s),
            egui::StrokeKind::Middle,
        )),
    }
}
