//! What the scene view draws, as a list built from the core's reports: no geometry is
//! computed here beyond placing it on the screen. A pure function of its input, so the frame
//! benchmark and tests can build it without a window.

use super::camera::Camera;
use super::palette::{self, faded};
use crate::geometry::{DVec2, Placed, Rounded, left_perp};
use crate::query::PairReport;
use crate::scene::Scene;
use eframe::egui::{Color32, Pos2, Rect, Shape, Stroke, Vec2, pos2};

/// Text to paint (text needs fonts, which only a painter has).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where (screen).
    pub at: Pos2,
    /// What.
    pub text: String,
    /// Colour.
    pub colour: Color32,
}

/// Everything one frame of the scene view paints.
#[derive(Default)]
pub struct DrawList {
    /// Shapes in painting order.
    pub shapes: Vec<Shape>,
    /// Labels, painted over the shapes.
    pub labels: Vec<Label>,
    /// Where each axis is drawn (screen segment), for hovering it in the view.
    pub axis_segments: Vec<(usize, [Pos2; 2])>,
}

/// An edit that was refused, shown in red with its reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected {
    /// The shape being edited.
    pub index: usize,
    /// The outline the edit would have given (world).
    pub outline: Vec<DVec2>,
    /// Why it was refused.
    pub reason: String,
}

/// What to draw.
pub struct DrawInput<'a> {
    /// The shapes.
    pub scene: &'a Scene,
    /// The explained pair and its report.
    pub pair: Option<((usize, usize), &'a PairReport)>,
    /// Other pairs that intersect.
    pub other_hits: &'a [(usize, usize)],
    /// The selected shape.
    pub selected: Option<usize>,
    /// The axis to bring forward (hovered, or the current step).
    pub focus_axis: Option<usize>,
    /// Whether to draw the candidate axes.
    pub show_axes: bool,
    /// Whether to draw the naive MTV beside the correct one.
    pub show_naive: bool,
    /// A refused edit.
    pub rejected: Option<&'a Rejected>,
    /// Points of a polygon being added by clicking.
    pub new_polygon: &'a [DVec2],
    /// Grab handles of the selected shape (world).
    pub handles: &'a [DVec2],
    /// The view.
    pub camera: Camera,
    /// The screen area.
    pub rect: Rect,
}

/// Build the draw list of one frame.
pub fn build(input: &DrawInput) -> DrawList {
    let mut list = DrawList::default();
    grid(input, &mut list);
    let pair = input
        .pair
        .map(|(p, _)| p)
        .unwrap_or((usize::MAX, usize::MAX));
    let hits: Vec<usize> = input.other_hits.iter().flat_map(|&(i, j)| [i, j]).collect();
    for (i, shape) in input.scene.shapes.iter().enumerate() {
        let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline();
        let colour = palette::shape_colour(i, pair);
        let width = if input.selected == Some(i) { 3.0 } else { 1.5 };
        let stroke_colour = if hits.contains(&i) {
            palette::OTHER_HIT
        } else {
            colour
        };
        list.shapes.push(polygon(
            input,
            &outline,
            faded(colour, 50),
            Stroke::new(width, stroke_colour),
        ));
        list.labels.push(Label {
            at: input.camera.to_screen(input.rect, shape.placed.centre()),
            text: shape.display_name(i),
            colour: Color32::WHITE,
        });
    }
    if let Some((pair, report)) = input.pair {
        pair_report(input, pair, report, &mut list);
    }
    for h in input.handles {
        let at = input.camera.to_screen(input.rect, *h);
        list.shapes
            .push(Shape::circle_filled(at, 5.0, Color32::WHITE));
        list.shapes.push(Shape::circle_stroke(
            at,
            5.0,
            Stroke::new(1.5, Color32::BLACK),
        ));
    }
    if let Some(r) = input.rejected {
        let outline: Vec<Pos2> = screen_points(input, &r.outline);
        list.shapes.push(Shape::closed_line(
            outline,
            Stroke::new(2.5, palette::INVALID),
        ));
        // Below the shape, clear of the MTV labels.
        let placed = &input.scene.shapes[r.index].placed;
        let below = placed.centre() - DVec2::Y * placed.shape.bounding_radius();
        let at = input.camera.to_screen(input.rect, below);
        list.labels.push(Label {
            at: at + Vec2::new(0.0, 16.0),
            text: r.reason.clone(),
            colour: palette::INVALID,
        });
    }
    if !input.new_polygon.is_empty() {
        let points = screen_points(input, input.new_polygon);
        list.shapes.push(Shape::line(
            points.clone(),
            Stroke::new(2.0, Color32::WHITE),
        ));
        for p in points {
            list.shapes
                .push(Shape::circle_filled(p, 4.0, Color32::WHITE));
        }
    }
    list
}

fn screen_points(input: &DrawInput, points: &[DVec2]) -> Vec<Pos2> {
    points
        .iter()
        .map(|p| input.camera.to_screen(input.rect, *p))
        .collect()
}

fn polygon(input: &DrawInput, outline: &[DVec2], fill: Color32, stroke: Stroke) -> Shape {
    Shape::convex_polygon(screen_points(input, outline), fill, stroke)
}

/// World grid lines every 1, 2 or 5 times a power of ten, at least 40 points apart, with units.
fn grid(input: &DrawInput, list: &mut DrawList) {
    let (rect, camera) = (input.rect, input.camera);
    let raw = 40.0 / camera.scale;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    let lo = camera.to_world(rect, rect.left_bottom());
    let hi = camera.to_world(rect, rect.right_top());
    let colour = Color32::from_gray(45);
    let axis_colour = Color32::from_gray(80);
    // Counted in f64: far from the origin a line index does not fit an integer. At most 400
    // lines; none when the view itself is not finite.
    let lines = |from: f64, to: f64| {
        let first = (from / step).floor();
        let span = (to / step).ceil() - first;
        let count = if span.is_finite() {
            span.clamp(0.0, 400.0) as usize
        } else {
            0
        };
        (0..=count).map(move |k| (first + k as f64) * step)
    };
    for x in lines(lo.x, hi.x) {
        let sx = camera.to_screen(rect, DVec2::new(x, 0.0)).x;
        let c = if x == 0.0 { axis_colour } else { colour };
        list.shapes.push(Shape::line_segment(
            [pos2(sx, rect.top()), pos2(sx, rect.bottom())],
            Stroke::new(1.0, c),
        ));
        list.labels.push(Label {
            at: pos2(sx + 12.0, rect.bottom() - 8.0),
            text: crate::text::number(x),
            colour: Color32::from_gray(110),
        });
    }
    for y in lines(lo.y, hi.y) {
        let sy = camera.to_screen(rect, DVec2::new(0.0, y)).y;
        let c = if y == 0.0 { axis_colour } else { colour };
        list.shapes.push(Shape::line_segment(
            [pos2(rect.left(), sy), pos2(rect.right(), sy)],
            Stroke::new(1.0, c),
        ));
        list.labels.push(Label {
            at: pos2(rect.left() + 16.0, sy - 7.0),
            text: crate::text::number(y),
            colour: Color32::from_gray(110),
        });
    }
}

fn pair_report(input: &DrawInput, pair: (usize, usize), report: &PairReport, list: &mut DrawList) {
    let (cam, rect) = (input.camera, input.rect);
    let shapes = &input.scene.shapes;
    let (a, b) = (&shapes[pair.0].placed, &shapes[pair.1].placed);
    if report.region.outline.len() >= 3 {
        list.shapes.push(polygon(
            input,
            &report.region.outline,
            faded(palette::MTV, 90),
            Stroke::NONE,
        ));
    }
    if input.show_axes {
        axes(input, (a, b), report, list);
    }
    if let Some(contact) = &report.contact {
        let ghost = |translation: DVec2, colour: Color32, list: &mut DrawList, label: &str| {
            let moved: Vec<DVec2> = Rounded::new(b, DVec2::ZERO)
                .outline()
                .iter()
                .map(|p| *p + translation)
                .collect();
            list.shapes.push(Shape::closed_line(
                screen_points(input, &moved),
                Stroke::new(1.5, faded(colour, 170)),
            ));
            let from = contact
                .points
                .first()
                .map(|p| p.point)
                .unwrap_or(b.centre());
            arrow(input, from, translation, colour, list);
            list.labels.push(Label {
                at: cam.to_screen(rect, from + translation) + Vec2::new(0.0, -14.0),
                text: label.into(),
                colour,
            });
        };
        if input.show_naive
            && let Some(naive) = &report.naive
        {
            ghost(naive.translation(), palette::NAIVE, list, "naive MTV");
        }
        ghost(
            contact.normal * contact.depth,
            palette::MTV,
            list,
            &format!("MTV {}", crate::text::number(contact.depth)),
        );
        for p in &contact.points {
            list.shapes.push(Shape::circle_filled(
                cam.to_screen(rect, p.point),
                4.5,
                palette::MTV,
            ));
        }
    } else if let Some(c) = report.proximity.closest {
        let (p, q) = (
            cam.to_screen(rect, c.point_a),
            cam.to_screen(rect, c.point_b),
        );
        list.shapes.extend(Shape::dashed_line(
            &[p, q],
            Stroke::new(1.5, palette::CLOSEST),
            6.0,
            4.0,
        ));
        list.shapes
            .push(Shape::circle_filled(p, 4.0, palette::CLOSEST));
        list.shapes
            .push(Shape::circle_filled(q, 4.0, palette::CLOSEST));
        list.labels.push(Label {
            at: p.lerp(q, 0.5) + Vec2::new(0.0, -14.0),
            text: format!(
                "distance {}",
                crate::text::number(report.proximity.distance)
            ),
            colour: palette::CLOSEST,
        });
    }
}

/// A world vector as an arrow from `from`, at least a few points long on screen.
fn arrow(input: &DrawInput, from: DVec2, vector: DVec2, colour: Color32, list: &mut DrawList) {
    let start = input.camera.to_screen(input.rect, from);
    let mut end = input.camera.to_screen(input.rect, from + vector);
    if start.distance(end) < 12.0 {
        let dir = Vec2::new(vector.x as f32, -vector.y as f32).normalized();
        end = start + dir * 12.0;
    }
    let dir = (end - start).normalized();
    let side = Vec2::new(-dir.y, dir.x) * 5.0;
    let stroke = Stroke::new(2.5, colour);
    list.shapes.push(Shape::line_segment([start, end], stroke));
    list.shapes.push(Shape::convex_polygon(
        vec![end, end - dir * 10.0 + side, end - dir * 10.0 - side],
        colour,
        Stroke::NONE,
    ));
}

/// Every candidate axis as a line around the pair, with both shadows drawn on it as bars and
/// the overlap (red) or gap (green) between them.
fn axes(input: &DrawInput, (a, b): (&Placed, &Placed), report: &PairReport, list: &mut DrawList) {
    let (cam, rect) = (input.camera, input.rect);
    let centre = (a.centre() + b.centre()) * 0.5;
    // The ring of axis lines sits just outside the circles that hold the two shapes.
    let reach = |p: &Placed| p.centre().distance(centre) + p.shape.bounding_radius();
    // Kept inside the view, so a large shape cannot push its axes off screen.
    let in_view = 0.42 * rect.width().min(rect.height()) as f64 / cam.scale;
    let ring = (reach(a).max(reach(b)) + 28.0 / cam.scale).min(in_view);
    let half_view = (rect.width().max(rect.height()) as f64) / cam.scale;
    let deciding = report.sat.deciding_axis();
    for (k, t) in report.sat.axes.iter().enumerate() {
        let u = t.axis;
        let perp = left_perp(u);
        let base = centre + perp * ring - u * centre.dot(u);
        let at = |s: f64| base + u * s;
        let focused = input.focus_axis == Some(k);
        let colour = if k == deciding {
            palette::DECIDING
        } else if t.separating {
            palette::SEPARATING
        } else {
            palette::OVERLAPPING
        };
        let alpha = if focused || input.focus_axis.is_none() {
            255
        } else {
            110
        };
        let s0 = centre.dot(u);
        let line = [
            cam.to_screen(rect, at(s0 - half_view)),
            cam.to_screen(rect, at(s0 + half_view)),
        ];
        list.shapes.push(Shape::line_segment(
            line,
            Stroke::new(if focused { 2.0 } else { 1.0 }, faded(colour, alpha / 2)),
        ));
        let screen_perp = Vec2::new(perp.x as f32, -perp.y as f32);
        let bar = |lo: f64, hi: f64, shift: f32, c: Color32, width: f32, list: &mut DrawList| {
            let p = cam.to_screen(rect, at(lo)) + screen_perp * shift;
            let q = cam.to_screen(rect, at(hi)) + screen_perp * shift;
            list.shapes
                .push(Shape::line_segment([p, q], Stroke::new(width, c)));
        };
        let span = (t.a.min.min(t.b.min), t.a.max.max(t.b.max));
        list.axis_segments.push((
            k,
            [
                cam.to_screen(rect, at(span.0)),
                cam.to_screen(rect, at(span.1)),
            ],
        ));
        let w = if focused { 6.0 } else { 4.0 };
        bar(t.a.min, t.a.max, 4.0, faded(palette::A, alpha), w, list);
        bar(t.b.min, t.b.max, -4.0, faded(palette::B, alpha), w, list);
        let (lo, hi) = (t.a.min.max(t.b.min), t.a.max.min(t.b.max));
        if lo < hi {
            bar(lo, hi, 0.0, faded(palette::MTV, alpha), w - 1.0, list);
        } else {
            bar(
                hi,
                lo,
                0.0,
                faded(palette::SEPARATING, alpha),
                w - 1.0,
                list,
            );
        }
        if focused || k == deciding {
            let mid = cam.to_screen(rect, at((lo + hi) * 0.5)) + screen_perp * 16.0;
            let text = if t.overlap > 0.0 {
                format!("#{} overlap {}", k + 1, crate::text::number(t.overlap))
            } else {
                format!("#{} gap {}", k + 1, crate::text::number(-t.overlap))
            };
            list.labels.push(Label {
                at: mid,
                text,
                colour,
            });
        }
    }
}
