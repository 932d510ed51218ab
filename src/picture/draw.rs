//! What the scene view draws, as a list of marks built from the core's reports: no geometry
//! is computed here beyond placing it on the screen. A pure function of its input, so the
//! window, `render`, the frame benchmark and tests all build the same list.

use super::camera::Camera;
use super::handles::{Handle, HandleKind};
use super::labels::{Importance, Label};
use super::mark::{Colour, Mark, Rect, Stroke, Vec2};
use super::palette::{self, faded};
use crate::broad::Grid;
use crate::geometry::{DVec2, Placed, Rounded, left_perp};
use crate::motion::Sweep;
use crate::query::{
    AxisRole, PairReport, RayHit, SatReport, Toi, Velocity, poses_between, swept_outline,
};
use crate::scene::{Body, Claim, Scene, ShapeId};
use crate::text;

/// A shape whose bounding circle is smaller than this on screen (points) is drawn without its
/// name.
const NAME_MIN_RADIUS: f32 = 10.0;
/// A shape whose bounding circle is smaller than this on screen (points) is drawn as a dot.
const DOT_RADIUS: f32 = 4.0;
/// More shapes than this are a crowd (see `shapes`).
const CROWD: usize = 100;
/// At most this many shape names are offered to the label placer.
const MAX_NAMES: usize = 400;
/// How far outside the pair the axis ring stands (points).
pub const RING_GAP: f32 = 28.0;
/// How far a parallel axis line steps outward (points).
const AXIS_STEP: f32 = 16.0;
/// How far a line reaches past the shadows on it (points).
const AXIS_MARGIN: f32 = 10.0;

/// Everything one layer of a frame of the scene view paints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    /// Marks in painting order.
    pub marks: Vec<Mark>,
    /// Labels, painted over the marks once placed (see `labels::place_around`).
    pub labels: Vec<Label>,
    /// Where each axis is drawn (screen segment), for hovering it in the view.
    pub axis_segments: Vec<(usize, [Vec2; 2])>,
}

/// An edit that was refused, shown in red with its reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected {
    /// Where the shape being edited is in the list.
    pub index: usize,
    /// The outline the edit would have given (world).
    pub outline: Vec<DVec2>,
    /// Why it was refused.
    pub reason: String,
}

/// What the broad-phase overlay shows (the broad-phase lab's switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadShown {
    /// The grid's cells, with their occupancy as a heat map.
    pub cells: bool,
    /// A thin line between the centres of every candidate pair on screen.
    pub candidates: bool,
    /// The intersecting pairs, coloured.
    pub hits: bool,
}

/// The grid behind the intersecting pairs, and what of it to draw.
pub struct BroadOverlay<'a> {
    /// What to show.
    pub shown: BroadShown,
    /// The grid (entries are shape ids).
    pub grid: &'a Grid,
    /// Every intersecting pair.
    pub hits: &'a [(ShapeId, ShapeId)],
}

/// At most this many candidate lines are drawn (the count is in the panel).
const MAX_CANDIDATE_LINES: usize = 20_000;

/// What to draw.
pub struct DrawInput<'a> {
    /// The shapes.
    pub scene: &'a Scene,
    /// The explained pair (list positions) and its report.
    pub pair: Option<((usize, usize), &'a PairReport)>,
    /// Shapes (list positions) in some other intersecting pair.
    pub other_hits: &'a [bool],
    /// The selected shape (list position).
    pub selected: Option<usize>,
    /// The axis to bring forward (hovered, or the current step).
    pub focus_axis: Option<usize>,
    /// How many axes have been told (step mode draws only those).
    pub axes_seen: usize,
    /// Whether the verdict, the deciding axis and the MTV may be shown (not while stepping).
    pub verdict_shown: bool,
    /// Whether to draw the candidate axes.
    pub show_axes: bool,
    /// Whether to draw the naive MTV beside the correct one.
    pub show_naive: bool,
    /// What another engine claimed for the pair, drawn beside the exact result.
    pub claim: Option<&'a Claim>,
    /// The pair's motion over t in [0, horizon] and its time of impact: both shapes drawn at
    /// the time of impact and at the horizon, their velocities as arrows, the hit.
    pub motion: Option<PairMotion<'a>>,
    /// A ray cast against the scene (the casts lab): the segment, every hit with its point,
    /// normal and fraction, the first emphasised.
    pub ray: Option<RayShown<'a>>,
    /// The same scene run with a second resolver (the motion lab): its moving shapes are
    /// drawn as purple outlines over the first.
    pub ghost: Option<&'a Scene>,
    /// Fast bodies' sweeps over the step just shown (the motion lab).
    pub sweeps: &'a [Sweep],
    /// The latency lab's bucket: which poses were interpolated, the true poses, the
    /// collisions standing there.
    pub latency: Option<LatencyShown<'a>>,
    /// A mistaken test's report on the pair: its MTV is drawn as a ghost of B.
    pub mistake: Option<&'a SatReport>,
    /// A refused edit.
    pub rejected: Option<&'a Rejected>,
    /// Points of a polygon being added by clicking.
    pub new_polygon: &'a [DVec2],
    /// Grab handles of the selected shape (world).
    pub handles: &'a [Handle],
    /// The broad-phase overlay, in the broad-phase lab.
    pub broad: Option<BroadOverlay<'a>>,
    /// The grid of the shapes (entries are shape ids), to find what is near a line.
    pub grid: Option<&'a Grid>,
    /// Which part of the frame to build.
    pub layer: Layer,
    /// Shapes (list positions) drawn in the dynamic layer: the selected one and the pair's.
    pub dynamic: &'a [usize],
    /// Static shapes (list positions) that intersect a dynamic one: outlined in red by the
    /// dynamic layer (their own layer only knows hits among static shapes).
    pub hit_by_dynamic: &'a [usize],
    /// The view.
    pub camera: Camera,
    /// The screen area.
    pub rect: Rect,
}

/// The explained pair moving: each shape's velocity, the span, and the time of impact.
#[derive(Clone, Copy)]
pub struct PairMotion<'a> {
    /// A's and B's velocities.
    pub velocities: (Velocity, Velocity),
    /// The end of the span.
    pub horizon: f64,
    /// The time of impact over it.
    pub toi: &'a Toi,
}

/// A segment cast against the scene and what it hit.
#[derive(Clone, Copy)]
pub struct RayShown<'a> {
    /// Where the segment starts.
    pub from: DVec2,
    /// Where it ends.
    pub to: DVec2,
    /// Its hits: (list position, hit), sorted by fraction (the first is the first hit).
    pub hits: &'a [(usize, RayHit)],
}

/// What the latency lab shows over the players' poses at one bucket time.
#[derive(Clone, Copy)]
pub struct LatencyShown<'a> {
    /// Per shape (list position): its pose there was interpolated between two packets (drawn
    /// dashed), not received.
    pub interpolated: &'a [bool],
    /// The players' true poses then, when the log came from a recording (thin outlines).
    pub truth: Option<&'a Scene>,
    /// The collisions standing there.
    pub collisions: &'a [LatencyCollision],
}

/// One collision the latency lab shows.
#[derive(Clone, Debug)]
pub struct LatencyCollision {
    /// At the bucket: the pair (list positions), joined by a red line.
    pub pair: Option<(usize, usize)>,
    /// Swept, between buckets: both players at their first contact, drawn in red.
    pub at_contact: Option<[Placed; 2]>,
    /// What to say.
    pub text: String,
}

/// How long a hit's normal arrow is on screen (points).
const NORMAL_ARROW: f64 = 30.0;

/// A frame is two layers: the static one (grid, shapes that are not selected or explained)
/// is kept while only dynamic shapes change, as during a drag; the dynamic one (the selected
/// and explained shapes, the report, handles, overlays) is built every time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The grid and the static shapes.
    Static,
    /// Everything else.
    Dynamic,
}

/// The intersecting pairs one layer marks. Each layer marks the hits it can know: the static
/// one those between static shapes (they do not change while only dynamic shapes move), the
/// dynamic one the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerHits {
    /// Per shape (list position): in an intersecting pair other than the explained one.
    pub other_hits: Vec<bool>,
    /// Static shapes (list positions) that intersect a dynamic one.
    pub hit_by_dynamic: Vec<usize>,
}

impl LayerHits {
    /// What `layer` marks of `other_hits` (list positions, the explained pair left out) in a
    /// scene of `shape_count` shapes whose `dynamic` ones (list positions) are drawn in the
    /// dynamic layer.
    pub fn new(
        layer: Layer,
        shape_count: usize,
        other_hits: impl IntoIterator<Item = (usize, usize)>,
        dynamic: &[usize],
    ) -> Self {
        let mut hits = LayerHits {
            other_hits: vec![false; shape_count],
            hit_by_dynamic: Vec::new(),
        };
        for (i, j) in other_hits {
            let (di, dj) = (dynamic.contains(&i), dynamic.contains(&j));
            let marked = match layer {
                Layer::Static => !di && !dj,
                Layer::Dynamic => di || dj,
            };
            if !marked {
                continue;
            }
            hits.other_hits[i] = true;
            hits.other_hits[j] = true;
            if layer == Layer::Dynamic {
                let outside = [i, j].into_iter().filter(|k| !dynamic.contains(k));
                hits.hit_by_dynamic.extend(outside);
            }
        }
        hits
    }
}

impl DrawInput<'_> {
    fn screen(&self, p: DVec2) -> Vec2 {
        self.camera.to_screen(self.rect, p)
    }

    fn screen_points(&self, points: &[DVec2]) -> Vec<Vec2> {
        points.iter().map(|p| self.screen(*p)).collect()
    }

    fn polygon(&self, outline: &[DVec2], fill: Colour, stroke: Stroke) -> Mark {
        Mark::Polygon {
            points: self.screen_points(outline),
            fill,
            stroke,
        }
    }

    fn closed_line(&self, outline: &[DVec2], stroke: Stroke) -> Mark {
        Mark::Line {
            points: self.screen_points(outline),
            closed: true,
            stroke,
        }
    }
}

/// A filled dot.
fn dot(centre: Vec2, radius: f32, fill: Colour) -> Mark {
    Mark::Circle {
        centre,
        radius,
        fill,
        stroke: Stroke::NONE,
    }
}

/// A straight line from `a` to `b`.
fn segment(a: Vec2, b: Vec2, stroke: Stroke) -> Mark {
    Mark::Segment {
        points: [a, b],
        stroke,
    }
}

/// Build the draw list of one frame.
pub fn build(input: &DrawInput) -> DrawList {
    let mut list = DrawList::default();
    if input.layer == Layer::Static {
        grid(input, &mut list);
        if let Some(overlay) = &input.broad {
            cells(input, overlay, &mut list);
        }
        shapes(input, &mut list);
        return list;
    }
    for &i in input.hit_by_dynamic {
        let outline = Rounded::new(&input.scene.shapes[i].placed, DVec2::ZERO).outline_with(24);
        list.marks
            .push(input.closed_line(&outline, Stroke::new(1.5, palette::OTHER_HIT)));
    }
    shapes(input, &mut list);
    if let Some(overlay) = &input.broad {
        pair_lines(input, overlay, &mut list);
    }
    if let Some((pair, report)) = input.pair {
        pair_report(input, pair, report, &mut list);
    }
    if let Some(ray) = input.ray {
        ray_cast(input, ray, &mut list);
    }
    for sweep in input.sweeps {
        sweep_marks(input, sweep, &mut list);
    }
    if let Some(latency) = input.latency {
        latency_marks(input, latency, &mut list);
    }
    if let Some(ghost) = input.ghost {
        for shape in ghost
            .shapes
            .iter()
            .filter(|s| s.motion.body != Body::Static)
        {
            let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline_with(32);
            list.marks
                .push(input.closed_line(&outline, Stroke::new(2.0, faded(palette::NAIVE, 200))));
        }
    }
    handles(input, &mut list);
    if let Some(r) = input.rejected {
        list.marks
            .push(input.closed_line(&r.outline, Stroke::new(2.5, palette::INVALID)));
        let placed = &input.scene.shapes[r.index].placed;
        let below = placed.centre() - DVec2::Y * placed.shape.bounding_radius();
        list.labels.push(Label {
            at: input.screen(below) + Vec2::new(0.0, 16.0),
            text: r.reason.clone(),
            colour: palette::INVALID,
            importance: Importance::Headline,
            fixed: false,
        });
    }
    if !input.new_polygon.is_empty() {
        let points = input.screen_points(input.new_polygon);
        list.marks.push(Mark::Line {
            points: points.clone(),
            closed: false,
            stroke: Stroke::new(2.0, Colour::WHITE),
        });
        for p in points {
            list.marks.push(dot(p, 4.0, Colour::WHITE));
        }
    }
    list
}

/// The grid's occupied cells in view, shaded by how many shapes each holds, with their
/// outlines when they are large enough on screen.
fn cells(input: &DrawInput, overlay: &BroadOverlay, list: &mut DrawList) {
    if !overlay.shown.cells {
        return;
    }
    let size = overlay.grid.cell_size();
    let screen_size = (size * input.camera.scale) as f32;
    if screen_size < 2.0 {
        return;
    }
    let outline = screen_size >= 8.0;
    for ((x, y), count) in overlay.grid.occupancy() {
        let lo = DVec2::new(x as f64, y as f64) * size;
        let r = Rect::from_two_points(input.screen(lo), input.screen(lo + DVec2::splat(size)));
        if !r.intersects(input.rect) {
            continue;
        }
        let heat = (30 + 28 * count.min(8)) as u8;
        list.marks.push(Mark::Rect {
            rect: r,
            corner: 0.0,
            fill: faded(palette::DECIDING, heat / 3),
            stroke: Stroke::NONE,
        });
        if outline {
            // Inside the cell: half the line's width in from its edges.
            list.marks.push(Mark::Rect {
                rect: r.shrink(0.5),
                corner: 0.0,
                fill: Colour::TRANSPARENT,
                stroke: Stroke::new(1.0, faded(palette::DECIDING, 60)),
            });
        }
    }
}

/// Candidate pairs as thin lines between the shapes' centres, intersecting ones in red.
fn pair_lines(input: &DrawInput, overlay: &BroadOverlay, list: &mut DrawList) {
    let scene = input.scene;
    let centre = |id: u32| {
        scene
            .get(ShapeId(id))
            .map(|s| input.screen(s.placed.centre()))
    };
    let view = input.rect;
    let line = |p: Vec2, q: Vec2, stroke: Stroke, list: &mut DrawList| {
        if view.contains(p) || view.contains(q) {
            list.marks.push(segment(p, q, stroke));
        }
    };
    if overlay.shown.candidates {
        let mut drawn = 0;
        overlay.grid.for_each_candidate(|i, j| {
            if drawn < MAX_CANDIDATE_LINES
                && let (Some(p), Some(q)) = (centre(i), centre(j))
            {
                line(p, q, Stroke::new(1.0, faded(palette::CLOSEST, 150)), list);
                drawn += 1;
            }
        });
    }
    if overlay.shown.hits {
        for (a, b) in overlay.hits {
            if let (Some(p), Some(q)) = (centre(a.0), centre(b.0)) {
                line(p, q, Stroke::new(2.5, palette::OTHER_HIT), list);
            }
        }
    }
}

/// Every shape that can be seen: filled outline, its name when it is large enough.
fn shapes(input: &DrawInput, list: &mut DrawList) {
    let pair = input.pair.map(|((a, b), _)| (a, b));
    let view = input.rect.expand(4.0);
    let mut names = 0;
    // The dynamic layer draws its few shapes; the static one every other.
    let indices: Box<dyn Iterator<Item = usize>> = match input.layer {
        Layer::Dynamic => Box::new(input.dynamic.iter().copied()),
        Layer::Static => {
            Box::new((0..input.scene.shapes.len()).filter(|i| !input.dynamic.contains(i)))
        }
    };
    for i in indices {
        let shape = &input.scene.shapes[i];
        let placed = &shape.placed;
        let centre = input.screen(placed.centre());
        let radius = (placed.shape.bounding_radius() * input.camera.scale) as f32;
        if !view.intersects(Rect::from_centre_size(centre, Vec2::splat(2.0 * radius))) {
            continue;
        }
        let in_pair = pair.is_some_and(|(a, b)| i == a || i == b);
        let colour = match pair {
            Some((a, _)) if a == i => palette::A,
            Some((_, b)) if b == i => palette::B,
            _ => palette::OTHER,
        };
        let width = if input.selected == Some(i) { 3.0 } else { 1.5 };
        let stroke_colour = if input.other_hits.get(i).copied().unwrap_or(false) {
            palette::OTHER_HIT
        } else {
            colour
        };
        if radius < DOT_RADIUS && !in_pair && input.selected != Some(i) {
            // Too small to show its outline: a dot, without building one.
            list.marks.push(dot(centre, radius.max(1.0), stroke_colour));
            continue;
        }
        // Chords a quarter point off the true outline at most: r (1 - cos(pi / k)) <= 1/4.
        let per_turn = (4.5 * radius.sqrt()).ceil().clamp(8.0, 64.0) as usize;
        let outline = Rounded::new(placed, DVec2::ZERO).outline_with(per_turn);
        list.marks.push(input.polygon(
            &outline,
            faded(colour, 50),
            Stroke::new(width, stroke_colour),
        ));
        let name = shape.display_name(i);
        // In a crowd a name is shown only where it about fits its shape, so the crowd is not
        // buried in text.
        let crowded = input.scene.shapes.len() > CROWD;
        let fits =
            radius >= NAME_MIN_RADIUS && (!crowded || radius >= 3.5 * name.chars().count() as f32);
        if (fits && names < MAX_NAMES) || in_pair {
            names += 1;
            list.labels.push(Label {
                at: centre,
                text: name,
                colour: Colour::WHITE,
                importance: if in_pair {
                    Importance::PairName
                } else {
                    Importance::Name
                },
                fixed: false,
            });
        }
    }
}

/// The selected shape's handles, each kind with its own look, kept on screen.
fn handles(input: &DrawInput, list: &mut DrawList) {
    for h in input.handles {
        let at = handle_on_screen(input.camera, input.rect, h);
        let outline = Stroke::new(1.5, Colour::BLACK);
        let ring = |radius| Mark::Circle {
            centre: at,
            radius,
            fill: Colour::TRANSPARENT,
            stroke: outline,
        };
        match h.kind {
            HandleKind::Rotate => {
                list.marks.push(dot(at, 6.0, palette::DECIDING));
                list.marks.push(ring(6.0));
                list.marks.push(ring(2.5));
            }
            HandleKind::Corner(_) => {
                let rect = Rect::from_centre_size(at, Vec2::splat(9.0));
                list.marks.push(Mark::Rect {
                    rect,
                    corner: 1.0,
                    fill: Colour::WHITE,
                    stroke: Stroke::NONE,
                });
                list.marks.push(Mark::Rect {
                    rect,
                    corner: 1.0,
                    fill: Colour::TRANSPARENT,
                    stroke: outline,
                });
            }
            HandleKind::Radius => {
                let d = 6.5;
                let diamond = vec![
                    at + Vec2::new(0.0, -d),
                    at + Vec2::new(d, 0.0),
                    at + Vec2::new(0.0, d),
                    at + Vec2::new(-d, 0.0),
                ];
                list.marks.push(Mark::Polygon {
                    points: diamond,
                    fill: palette::CLOSEST,
                    stroke: outline,
                });
            }
            HandleKind::Velocity => {
                // An arrow from the selected shape's centre, its head the handle; at rest,
                // the head alone.
                let selected = input.selected.map(|i| &input.scene.shapes[i]);
                let centre = selected.map_or(at, |s| input.screen(s.placed.centre()));
                let dir = (at - centre).normalize_or_zero();
                let dir = if dir == Vec2::ZERO {
                    Vec2::new(0.0, 1.0)
                } else {
                    dir
                };
                if selected.is_some_and(|s| s.motion.velocity != DVec2::ZERO) {
                    list.marks.push(Mark::Dashed {
                        points: vec![centre, at],
                        stroke: Stroke::new(1.5, faded(Colour::WHITE, 170)),
                        dash: 5.0,
                        gap: 3.0,
                    });
                }
                let side = Vec2::new(-dir.y, dir.x) * 6.5;
                list.marks.push(Mark::Polygon {
                    points: vec![at + dir * 6.0, at - dir * 7.0 + side, at - dir * 7.0 - side],
                    fill: Colour::WHITE,
                    stroke: outline,
                });
            }
        }
    }
}

/// Where a handle is drawn: its place, pulled inside the view if it is outside.
pub fn handle_on_screen(camera: Camera, rect: Rect, handle: &Handle) -> Vec2 {
    let p = camera.to_screen(rect, handle.at);
    let inner = rect.shrink(10.0);
    if inner.width() <= 0.0 || inner.height() <= 0.0 {
        return p;
    }
    if let Some(tail) = handle.tail {
        // An arrow's head is pulled back along the arrow, so the arrow keeps its direction.
        let from = camera.to_screen(rect, tail);
        if inner.contains(from) && !inner.contains(p) {
            let d = p - from;
            let mut s = 1.0f32;
            for (o, dv, lo, hi) in [
                (from.x, d.x, inner.min.x, inner.max.x),
                (from.y, d.y, inner.min.y, inner.max.y),
            ] {
                if dv > 0.0 {
                    s = s.min((hi - o) / dv);
                } else if dv < 0.0 {
                    s = s.min((lo - o) / dv);
                }
            }
            return from + d * s.max(0.0);
        }
    }
    p.clamp(inner.min, inner.max)
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
    let (colour, axis_colour) = (palette::GRID, palette::GRID_AXIS);
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
    // A number beside its line: left-aligned just right of a vertical line, just above a
    // horizontal one. Only where the whole label fits in the view beside its own line (a label
    // pushed in from an off-screen line would stand next to the wrong one), and only on every
    // k-th line when the numbers are wider than the lines are apart.
    let label_box = |text: &str| super::labels::estimated_size(text) + Vec2::new(4.0, 2.0);
    let widest = [lo.x, hi.x, lo.y, hi.y]
        .iter()
        .map(|v| label_box(&text::number((v / step).round() * step)).x)
        .fold(0.0f32, f32::max);
    let pixels = (step * camera.scale) as f32;
    let every = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
        .into_iter()
        .find(|k| pixels * *k as f32 >= widest + 8.0)
        .unwrap_or(100.0);
    let labelled = |v: f64| ((v / step).round() / every).round() * every == (v / step).round();
    let mut grid_label = |centre: Vec2, size: Vec2, v: f64| {
        let (label, view) = (Rect::from_centre_size(centre, size), rect.shrink(2.0));
        if labelled(v)
            && label.min.x >= view.min.x
            && label.max.x <= view.max.x
            && label.min.y >= view.min.y
            && label.max.y <= view.max.y
        {
            list.labels.push(Label {
                at: centre,
                text: text::number(v),
                colour: palette::GRID_TEXT,
                importance: Importance::Grid,
                fixed: true,
            });
        }
    };
    for x in lines(lo.x, hi.x) {
        let sx = camera.to_screen(rect, DVec2::new(x, 0.0)).x;
        let c = if x == 0.0 { axis_colour } else { colour };
        list.marks.push(segment(
            Vec2::new(sx, rect.min.y),
            Vec2::new(sx, rect.max.y),
            Stroke::new(1.0, c),
        ));
        let size = label_box(&text::number(x));
        grid_label(
            Vec2::new(sx + 3.0 + 0.5 * size.x, rect.max.y - 2.0 - 0.5 * size.y),
            size,
            x,
        );
    }
    for y in lines(lo.y, hi.y) {
        let sy = camera.to_screen(rect, DVec2::new(0.0, y)).y;
        let c = if y == 0.0 { axis_colour } else { colour };
        list.marks.push(segment(
            Vec2::new(rect.min.x, sy),
            Vec2::new(rect.max.x, sy),
            Stroke::new(1.0, c),
        ));
        let size = label_box(&text::number(y));
        grid_label(
            Vec2::new(rect.min.x + 4.0 + 0.5 * size.x, sy - 1.0 - 0.5 * size.y),
            size,
            y,
        );
    }
}

fn pair_report(input: &DrawInput, pair: (usize, usize), report: &PairReport, list: &mut DrawList) {
    let shapes = &input.scene.shapes;
    let (a, b) = (&shapes[pair.0].placed, &shapes[pair.1].placed);
    if input.verdict_shown && report.region.outline.len() >= 3 {
        list.marks.push(input.polygon(
            &report.region.outline,
            faded(palette::MTV, 90),
            Stroke::NONE,
        ));
    }
    if input.show_axes {
        axes(input, pair, (a, b), report, list);
    }
    if !input.verdict_shown {
        return;
    }
    if let Some(mistake) = input.mistake
        && let (Some(mtv), Some(name)) = (mistake.mtv, mistake.mistake)
    {
        let from = report
            .contact
            .as_ref()
            .and_then(|c| c.points.first())
            .map_or(b.centre(), |p| p.point);
        ghost(
            input,
            b,
            from,
            mtv.translation(),
            palette::NAIVE,
            format!("{name} MTV {}", text::number(mtv.depth)),
            list,
        );
    }
    if let Some(claim) = input.claim {
        claimed(input, b, report, claim, list);
    }
    if let Some(motion) = input.motion {
        moving(input, (a, b), motion, list);
    }
    if let Some(contact) = &report.contact {
        let from = contact.points.first().map_or(b.centre(), |p| p.point);
        if input.show_naive
            && let Some(naive) = &report.naive
        {
            ghost(
                input,
                b,
                from,
                naive.translation(),
                palette::NAIVE,
                "naive MTV".into(),
                list,
            );
        }
        ghost(
            input,
            b,
            from,
            contact.normal * contact.depth,
            palette::MTV,
            format!("MTV {}", text::number(contact.depth)),
            list,
        );
        for p in &contact.points {
            list.marks
                .push(dot(input.screen(p.point), 4.5, palette::MTV));
        }
    } else if let Some(c) = report.proximity.closest {
        let (p, q) = (input.screen(c.point_a), input.screen(c.point_b));
        list.marks.push(Mark::Dashed {
            points: vec![p, q],
            stroke: Stroke::new(1.5, palette::CLOSEST),
            dash: 6.0,
            gap: 4.0,
        });
        list.marks.push(dot(p, 4.0, palette::CLOSEST));
        list.marks.push(dot(q, 4.0, palette::CLOSEST));
        list.labels.push(Label {
            at: p.lerp(q, 0.5) + Vec2::new(0.0, -14.0),
            text: format!("distance {}", text::number(report.proximity.distance)),
            colour: palette::CLOSEST,
            importance: Importance::Headline,
            fixed: false,
        });
    }
}

/// Both shapes at the horizon (faint) and at the time of impact (dashed), their velocities as
/// arrows from their centres over the span, and the hit point and normal.
fn moving(input: &DrawInput, (a, b): (&Placed, &Placed), motion: PairMotion, list: &mut DrawList) {
    let (va, vb) = motion.velocities;
    for (shape, velocity, colour) in [(a, va, palette::A), (b, vb, palette::B)] {
        if velocity == Velocity::default() {
            continue;
        }
        let at = |t: f64| {
            let placed = Placed::new(shape.shape.clone(), velocity.advance(shape.pose, t));
            Rounded::new(&placed, DVec2::ZERO).outline_with(32)
        };
        // What it covers on the way: the swept hull of a translation, else in-between poses.
        match swept_outline(shape, velocity, motion.horizon, 32) {
            Some(hull) => list.marks.push(input.polygon(
                &hull,
                faded(colour, 18),
                Stroke::new(1.0, faded(colour, 60)),
            )),
            None => {
                for placed in poses_between(shape, velocity, motion.horizon, 7) {
                    let outline = Rounded::new(&placed, DVec2::ZERO).outline_with(32);
                    list.marks
                        .push(input.closed_line(&outline, Stroke::new(1.0, faded(colour, 45))));
                }
            }
        }
        list.marks
            .push(input.closed_line(&at(motion.horizon), Stroke::new(1.0, faded(colour, 90))));
        if let Some(t) = motion.toi.toi.filter(|t| *t > 0.0) {
            let points = input.screen_points(&at(t));
            let mut closed = points.clone();
            closed.extend(points.first().copied());
            list.marks.push(Mark::Dashed {
                points: closed,
                stroke: Stroke::new(1.5, colour),
                dash: 5.0,
                gap: 3.0,
            });
        }
        arrow(
            input,
            shape.centre(),
            velocity.linear * motion.horizon,
            faded(colour, 200),
            list,
        );
    }
    if let (Some(t), Some(point), Some(normal)) =
        (motion.toi.toi, motion.toi.point, motion.toi.normal)
    {
        list.marks
            .push(dot(input.screen(point), 4.5, palette::CLOSEST));
        let end = arrow(
            input,
            point,
            normal * (NORMAL_ARROW / input.camera.scale),
            palette::CLOSEST,
            list,
        )
        .tip;
        list.labels.push(Label {
            at: end + Vec2::new(0.0, -14.0),
            text: format!("time of impact {}", text::number(t)),
            colour: palette::CLOSEST,
            importance: Importance::Headline,
            fixed: false,
        });
    }
}

/// The latency lab's bucket: the true poses as thin outlines, interpolated poses dashed over
/// their shapes, and each standing collision as a red line between the two with its sentence.
fn latency_marks(input: &DrawInput, shown: LatencyShown, list: &mut DrawList) {
    if let Some(truth) = shown.truth {
        for shape in &truth.shapes {
            let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline_with(32);
            list.marks
                .push(input.closed_line(&outline, Stroke::new(1.0, faded(Colour::WHITE, 110))));
        }
    }
    for (i, shape) in input.scene.shapes.iter().enumerate() {
        if !shown.interpolated.get(i).copied().unwrap_or(false) {
            continue;
        }
        let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline_with(32);
        let mut points = input.screen_points(&outline);
        points.extend(points.first().copied());
        list.marks.push(Mark::Dashed {
            points,
            stroke: Stroke::new(2.0, palette::OTHER),
            dash: 6.0,
            gap: 4.0,
        });
    }
    for (k, c) in shown.collisions.iter().enumerate() {
        let (pa, pb) = match (&c.at_contact, c.pair) {
            (Some(both), _) => {
                for placed in both {
                    let outline = Rounded::new(placed, DVec2::ZERO).outline_with(32);
                    let mut points = input.screen_points(&outline);
                    points.extend(points.first().copied());
                    list.marks.push(Mark::Dashed {
                        points,
                        stroke: Stroke::new(2.0, palette::MTV),
                        dash: 4.0,
                        gap: 3.0,
                    });
                }
                (
                    input.screen(both[0].centre()),
                    input.screen(both[1].centre()),
                )
            }
            (None, Some((a, b))) => {
                let (Some(sa), Some(sb)) = (input.scene.shapes.get(a), input.scene.shapes.get(b))
                else {
                    continue;
                };
                (
                    input.screen(sa.placed.centre()),
                    input.screen(sb.placed.centre()),
                )
            }
            (None, None) => continue,
        };
        let text = &c.text;
        list.marks
            .push(segment(pa, pb, Stroke::new(3.0, palette::MTV)));
        list.marks.push(dot(pa, 4.0, palette::MTV));
        list.marks.push(dot(pb, 4.0, palette::MTV));
        list.labels.push(Label {
            // Stacked, so collisions at one place do not cover each other's words.
            at: (pa + pb) * 0.5 + Vec2::new(0.0, -18.0 - 16.0 * k as f32),
            text: text.clone(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
        });
    }
}

/// A sweep: the region covered, faint; the body before, dashed; a tunnelled one in red with
/// the shape it crossed outlined and its bound in words.
fn sweep_marks(input: &DrawInput, sweep: &Sweep, list: &mut DrawList) {
    let colour = if sweep.tunnelled.is_some() || sweep.pushed_through.is_some() {
        palette::MTV
    } else {
        palette::OTHER
    };
    list.marks.push(input.polygon(
        &sweep.covered,
        faded(colour, 30),
        Stroke::new(1.0, faded(colour, 90)),
    ));
    let mut before = input.screen_points(&sweep.before);
    before.extend(before.first().copied());
    list.marks.push(Mark::Dashed {
        points: before,
        stroke: Stroke::new(1.5, faded(colour, 200)),
        dash: 5.0,
        gap: 3.0,
    });
    if let Some((wall, dt, safe)) = sweep.tunnelled {
        let outline = Rounded::new(&input.scene.shapes[wall].placed, DVec2::ZERO).outline_with(32);
        list.marks
            .push(input.closed_line(&outline, Stroke::new(3.0, palette::MTV)));
        list.labels.push(Label {
            at: input.screen(sweep.at) + Vec2::new(0.0, -22.0),
            text: format!(
                "tunnelled: step {} s, largest safe step {} s",
                text::number(dt),
                text::number(safe)
            ),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
        });
    }
    if let Some((other, from, to)) = sweep.pushed_through {
        let outline = Rounded::new(&input.scene.shapes[other].placed, DVec2::ZERO).outline_with(32);
        list.marks
            .push(input.closed_line(&outline, Stroke::new(3.0, palette::MTV)));
        list.marks.push(Mark::Dashed {
            points: vec![input.screen(from), input.screen(to)],
            stroke: Stroke::new(2.0, palette::MTV),
            dash: 6.0,
            gap: 4.0,
        });
        list.marks.push(dot(input.screen(from), 3.5, palette::MTV));
        list.marks.push(dot(input.screen(to), 4.5, palette::MTV));
        list.labels.push(Label {
            at: input.screen(to) + Vec2::new(0.0, 22.0),
            text: "pushed through: resolved out of the far side".into(),
            colour: palette::MTV,
            importance: Importance::Headline,
            fixed: false,
        });
    }
}

/// The cast segment (solid up to its first hit, dashed beyond), and every hit: a dot at its
/// point, its normal as an arrow, its fraction; the first hit large and labelled, the rest
/// faint. A segment that starts inside a shape hits it at 0 with no normal: a ring at the
/// start.
fn ray_cast(input: &DrawInput, ray: RayShown, list: &mut DrawList) {
    let (from, to) = (input.screen(ray.from), input.screen(ray.to));
    let first = ray.hits.first().map(|(_, h)| h);
    let stop = first.map_or(to, |h| input.screen(h.point));
    list.marks
        .push(segment(from, stop, Stroke::new(2.0, palette::RAY)));
    if stop != to {
        list.marks.push(Mark::Dashed {
            points: vec![stop, to],
            stroke: Stroke::new(1.5, faded(palette::RAY, 140)),
            dash: 6.0,
            gap: 4.0,
        });
    }
    list.marks.push(dot(from, 5.0, palette::RAY));
    let dir = (to - from).normalize_or_zero();
    let side = Vec2::new(-dir.y, dir.x) * 5.0;
    list.marks.push(Mark::Polygon {
        points: vec![to, to - dir * 11.0 + side, to - dir * 11.0 - side],
        fill: palette::RAY,
        stroke: Stroke::NONE,
    });
    for (k, (_, hit)) in ray.hits.iter().enumerate().rev() {
        let (colour, radius) = if k == 0 {
            (palette::CLOSEST, 5.5)
        } else {
            (faded(palette::CLOSEST, 150), 3.5)
        };
        let at = input.screen(hit.point);
        let label_at = match hit.normal {
            Some(normal) => {
                let length = NORMAL_ARROW / input.camera.scale;
                let end = arrow(input, hit.point, normal * length, colour, list).tip;
                end + (end - at).normalize_or_zero() * 12.0
            }
            None => {
                list.marks.push(Mark::Circle {
                    centre: at,
                    radius: 9.0,
                    fill: Colour::TRANSPARENT,
                    stroke: Stroke::new(2.0, colour),
                });
                at + Vec2::new(0.0, -18.0)
            }
        };
        list.marks.push(dot(at, radius, colour));
        let text = match (k, hit.normal) {
            (0, Some(_)) => format!("first hit {}", text::number(hit.fraction)),
            (0, None) => "starts inside: 0".to_string(),
            _ => text::short_number(hit.fraction),
        };
        list.labels.push(Label {
            at: label_at,
            text,
            colour,
            importance: if k == 0 {
                Importance::Headline
            } else {
                Importance::Axis
            },
            fixed: false,
        });
    }
}

/// What another engine claimed: its normal as an arrow of its depth (from its first contact,
/// else where the exact one starts), its contacts as rings, or "claimed apart".
fn claimed(input: &DrawInput, b: &Placed, report: &PairReport, claim: &Claim, list: &mut DrawList) {
    let exact_from = report
        .contact
        .as_ref()
        .and_then(|c| c.points.first())
        .map_or(b.centre(), |p| p.point);
    let contacts = claim.contacts.as_deref().unwrap_or_default();
    for p in contacts {
        list.marks.push(Mark::Circle {
            centre: input.screen(*p),
            radius: 7.0,
            fill: Colour::TRANSPARENT,
            stroke: Stroke::new(2.0, palette::CLAIMED),
        });
    }
    let (text, at) = match (claim.intersecting, claim.normal, claim.depth) {
        (true, Some(normal), Some(depth)) => {
            let from = contacts.first().copied().unwrap_or(exact_from);
            let drawn = arrow(input, from, normal * depth, palette::CLAIMED, list);
            (
                drawn.label(format!("claimed {}", text::number(depth))),
                drawn.tip + Vec2::new(0.0, 14.0),
            )
        }
        _ => (
            "claimed apart".to_string(),
            input.screen(b.centre()) + Vec2::new(0.0, 18.0),
        ),
    };
    list.labels.push(Label {
        at,
        text,
        colour: palette::CLAIMED,
        importance: Importance::Headline,
        fixed: false,
    });
}

/// B's outline moved by `translation`, and the arrow of the move from `from`.
fn ghost(
    input: &DrawInput,
    b: &Placed,
    from: DVec2,
    translation: DVec2,
    colour: Colour,
    label: String,
    list: &mut DrawList,
) {
    let moved: Vec<DVec2> = Rounded::new(b, DVec2::ZERO)
        .outline()
        .iter()
        .map(|p| *p + translation)
        .collect();
    list.marks
        .push(input.closed_line(&moved, Stroke::new(1.5, faded(colour, 170))));
    let drawn = arrow(input, from, translation, colour, list);
    list.labels.push(Label {
        at: drawn.tip + Vec2::new(0.0, -14.0),
        text: drawn.label(label),
        colour,
        importance: Importance::Headline,
        fixed: false,
    });
}

/// Below this length on screen an arrow is drawn this long, dashed, and its label says so
/// (at game scale a small MTV or depth would be under a pixel).
pub const ARROW_MIN: f32 = 20.0;

/// An arrow as drawn: where its tip is, and whether it was drawn longer than it is.
#[derive(Clone, Copy, Debug, PartialEq)]
struct DrawnArrow {
    tip: Vec2,
    enlarged: bool,
}

impl DrawnArrow {
    /// `text`, marked when the arrow is drawn enlarged (the number in it is the true one).
    fn label(&self, text: String) -> String {
        if self.enlarged {
            format!("{text} (arrow enlarged)")
        } else {
            text
        }
    }
}

/// A world vector as an arrow from `from`. One shorter than [`ARROW_MIN`] points on screen is
/// drawn that long with a dashed shaft, marked enlarged.
fn arrow(
    input: &DrawInput,
    from: DVec2,
    vector: DVec2,
    colour: Colour,
    list: &mut DrawList,
) -> DrawnArrow {
    let start = input.screen(from);
    let mut end = input.screen(from + vector);
    let enlarged = start.distance(end) < ARROW_MIN;
    if enlarged {
        let dir = Vec2::new(vector.x as f32, -vector.y as f32).normalize_or_zero();
        end = start + dir * ARROW_MIN;
    }
    let dir = (end - start).normalize_or_zero();
    let side = Vec2::new(-dir.y, dir.x) * 5.0;
    if enlarged {
        list.marks.push(Mark::Dashed {
            points: vec![start, end - dir * 8.0],
            stroke: Stroke::new(2.5, colour),
            dash: 3.0,
            gap: 2.5,
        });
    } else {
        list.marks
            .push(segment(start, end, Stroke::new(2.5, colour)));
    }
    list.marks.push(Mark::Polygon {
        points: vec![end, end - dir * 10.0 + side, end - dir * 10.0 - side],
        fill: colour,
        stroke: Stroke::NONE,
    });
    DrawnArrow { tip: end, enlarged }
}

/// Where the axis lines stand (world).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisRing {
    /// The ring's centre.
    pub centre: DVec2,
    /// Its radius: every line is tangent to the ring.
    pub radius: f64,
    /// When the pair does not fit inside the ring (zoomed in), how far along its axis a line
    /// reaches either side of its overlap or gap; `None`: the whole shadows.
    pub reach: Option<f64>,
}

/// Where the axis ring stands. Just outside the circles that hold the two shapes, when that
/// fits the view; zoomed in, just outside the smaller shape; closer still, inside the view
/// around what the pair is about (the contact or the closest points). In the last two cases
/// each line is cut to a stretch around its overlap or gap.
pub fn axis_ring(
    camera: Camera,
    rect: Rect,
    (a, b): (&Placed, &Placed),
    report: &PairReport,
) -> AxisRing {
    let gap = RING_GAP as f64 / camera.scale;
    let room = 0.45 * rect.width().min(rect.height()) as f64 / camera.scale;
    let in_view = |p: DVec2| rect.contains(camera.to_screen(rect, p));
    // The whole ring on screen, not only its centre.
    let ring_in_view = |c: DVec2, r: f64| {
        let r = DVec2::splat(r);
        in_view(c - r) && in_view(c + r)
    };
    let centre = (a.centre() + b.centre()) * 0.5;
    let reach = |p: &Placed| p.centre().distance(centre) + p.shape.bounding_radius();
    let ring = reach(a).max(reach(b)) + gap;
    if ring_in_view(centre, ring) {
        return AxisRing {
            centre,
            radius: ring,
            reach: None,
        };
    }
    let small = if a.shape.bounding_radius() <= b.shape.bounding_radius() {
        a
    } else {
        b
    };
    let ring = small.shape.bounding_radius() + gap;
    if ring <= room && ring_in_view(small.centre(), ring) {
        return AxisRing {
            centre: small.centre(),
            radius: ring,
            reach: Some(1.2 * ring),
        };
    }
    let action = report
        .contact
        .as_ref()
        .and_then(|c| c.points.first().map(|p| p.point))
        .or(report
            .proximity
            .closest
            .map(|c| (c.point_a + c.point_b) * 0.5))
        .unwrap_or(centre);
    let focus = if in_view(action) {
        action
    } else {
        camera.centre
    };
    AxisRing {
        centre: focus,
        radius: 0.9 * room,
        reach: Some(0.9 * room),
    }
}

/// The box (world) that holds every axis line on a ring of `radius` around `centre`, on
/// either side and one step out (what a fit must show to keep them all in view).
pub fn axes_bounds(centre: DVec2, radius: f64, scale: f64, report: &PairReport) -> (DVec2, DVec2) {
    let out = radius + 2.0 * AXIS_STEP as f64 / scale;
    let margin = AXIS_MARGIN as f64 / scale;
    let mut bounds = (centre - DVec2::splat(radius), centre + DVec2::splat(radius));
    for t in &report.sat.axes {
        let (u, perp) = (t.axis, left_perp(t.axis));
        for side in [-1.0, 1.0] {
            for s in [t.a.min.min(t.b.min) - margin, t.a.max.max(t.b.max) + margin] {
                let p = centre + perp * side * out + u * (s - centre.dot(u));
                bounds = (bounds.0.min(p), bounds.1.max(p));
            }
        }
    }
    bounds
}

/// Every candidate axis told so far, as a short line on the ring around the pair with both
/// shadows drawn on it as bars and the overlap (red) or gap (green) between them. Each line
/// takes the side of the ring where it crosses no other shape, where there is one.
fn axes(
    input: &DrawInput,
    pair: (usize, usize),
    (a, b): (&Placed, &Placed),
    report: &PairReport,
    list: &mut DrawList,
) {
    let (cam, rect) = (input.camera, input.rect);
    let AxisRing {
        centre,
        radius: ring,
        reach,
    } = axis_ring(cam, rect, (a, b), report);
    let margin = AXIS_MARGIN as f64 / cam.scale;
    // The other shapes a line could cross: found through the grid, near the line only.
    let (id_a, id_b) = (input.scene.shapes[pair.0].id, input.scene.shapes[pair.1].id);
    let others = |p: DVec2, q: DVec2| -> Vec<Rect> {
        let near = crate::broad::Aabb::new(p.min(q), p.max(q));
        let outside_pair = |s: &&crate::scene::SceneShape| s.id != id_a && s.id != id_b;
        let boxes: Vec<crate::broad::Aabb> = match input.grid {
            Some(grid) => grid
                .query(&near)
                .into_iter()
                .filter_map(|id| input.scene.get(ShapeId(id)))
                .filter(outside_pair)
                .map(|s| crate::broad::Aabb::of(&s.placed))
                .collect(),
            None => input
                .scene
                .shapes
                .iter()
                .filter(outside_pair)
                .map(|s| crate::broad::Aabb::of(&s.placed))
                .filter(|b| b.overlaps(&near))
                .collect(),
        };
        boxes
            .into_iter()
            .map(|b| Rect::from_two_points(cam.to_screen(rect, b.min), cam.to_screen(rect, b.max)))
            .collect()
    };
    // Lines already drawn: (unit direction, offset from the centre along its normal).
    let mut taken: Vec<(DVec2, f64)> = Vec::new();
    let step = AXIS_STEP as f64 / cam.scale;
    for (k, t) in report.sat.axes.iter().enumerate().take(input.axes_seen) {
        let u = t.axis;
        let perp = left_perp(u);
        let whole = (t.a.min.min(t.b.min) - margin, t.a.max.max(t.b.max) + margin);
        let span = match reach {
            Some(r) => {
                let middle = t.a.between(&t.b).middle();
                (whole.0.max(middle - r), whole.1.min(middle + r))
            }
            None => whole,
        };
        // The point of the line at axis value `s`, on side `side` of the ring, `extra` out.
        let at = |side: f64, extra: f64, s: f64| {
            centre + perp * side * (ring + extra) + u * (s - centre.dot(u))
        };
        let crosses = |side: f64, extra: f64| {
            let (wp, wq) = (at(side, extra, span.0), at(side, extra, span.1));
            let (p, q) = (cam.to_screen(rect, wp), cam.to_screen(rect, wq));
            others(wp, wq).iter().any(|r| segment_hits_rect(p, q, *r))
        };
        // Zoomed in, the ring is smaller than the pair: a line may cross A or B themselves,
        // which is worse than crossing another shape (it hides what it explains).
        let crosses_pair = |side: f64, extra: f64| {
            let (wp, wq) = (at(side, extra, span.0), at(side, extra, span.1));
            reach.is_some()
                && (crate::query::ray_cast(a, wp, wq).is_some()
                    || crate::query::ray_cast(b, wp, wq).is_some())
        };
        // Parallel axes (opposite edges of a box) would fall on one line: the later one
        // steps outward.
        let on_top = |side: f64, extra: f64| {
            let offset = side * (ring + extra);
            taken.iter().any(|(v, o)| {
                let d = v.dot(u);
                d.abs() > 0.999 && (o * d.signum() - offset).abs() < 0.5 * step
            })
        };
        let choices = (0..6).flat_map(|n| [(1.0, n as f64 * step), (-1.0, n as f64 * step)]);
        // Zoomed in, a line may have to step well out to clear a large shape of the pair: as
        // far as the view goes (a line off screen shows nothing).
        let on_screen = |side: f64, extra: f64| {
            let middle = at(side, extra, 0.5 * (span.0 + span.1));
            rect.contains(cam.to_screen(rect, middle))
        };
        let far = (6..48)
            .flat_map(|n| [(1.0, n as f64 * step), (-1.0, n as f64 * step)])
            .filter(|(s, e)| reach.is_some() && on_screen(*s, *e));
        let (side, extra) = choices
            .clone()
            .find(|(s, e)| !on_top(*s, *e) && !crosses_pair(*s, *e) && !crosses(*s, *e))
            .or_else(|| {
                choices
                    .clone()
                    .chain(far)
                    .find(|(s, e)| !on_top(*s, *e) && !crosses_pair(*s, *e))
            })
            .or_else(|| choices.clone().find(|(s, e)| !on_top(*s, *e)))
            .unwrap_or((1.0, 0.0));
        taken.push((u, side * (ring + extra)));
        let at = |s: f64| at(side, extra, s);
        let focused = input.focus_axis == Some(k);
        let role = match report.sat.role(k) {
            AxisRole::Deciding if !input.verdict_shown => {
                if t.separating {
                    AxisRole::Separating
                } else {
                    AxisRole::Overlapping
                }
            }
            role => role,
        };
        let colour = palette::axis_colour(role, palette::OVERLAPPING);
        // The axis in focus stands out; with many axes the others fade further.
        let alpha = if focused || input.focus_axis.is_none() {
            255
        } else if input.axes_seen > 8 {
            70
        } else {
            110
        };
        let line = [
            cam.to_screen(rect, at(span.0)),
            cam.to_screen(rect, at(span.1)),
        ];
        list.marks.push(segment(
            line[0],
            line[1],
            Stroke::new(if focused { 2.0 } else { 1.0 }, faded(colour, alpha / 2)),
        ));
        list.axis_segments.push((k, line));
        // Outward from the pair, on screen (y down).
        let out = perp * side;
        let screen_out = Vec2::new(out.x as f32, -out.y as f32);
        let bar = |i: crate::geometry::Interval,
                   shift: f32,
                   c: Colour,
                   width: f32,
                   list: &mut DrawList| {
            // Cut to the drawn stretch of the line.
            let (lo, hi) = (i.min.max(span.0), i.max.min(span.1));
            if lo > hi {
                return;
            }
            let p = cam.to_screen(rect, at(lo)) + screen_out * shift;
            let q = cam.to_screen(rect, at(hi)) + screen_out * shift;
            list.marks.push(segment(p, q, Stroke::new(width, c)));
        };
        let w = if focused { 6.0 } else { 4.0 };
        bar(t.a, -4.0, faded(palette::A, alpha), w, list);
        bar(t.b, 4.0, faded(palette::B, alpha), w, list);
        let between = t.a.between(&t.b);
        let shade = if t.overlap > 0.0 {
            palette::MTV
        } else {
            palette::SEPARATING
        };
        bar(between, 0.0, faded(shade, alpha), w - 1.0, list);
        if focused || role == AxisRole::Deciding {
            // Outward from the bars by half the label's own extent in that direction, so
            // the text stands beside the bars, not on them.
            let text = format!("#{} {}", k + 1, text::overlap_or_gap(t.overlap));
            let size = super::labels::estimated_size(&text);
            let half = 0.5 * (size.x * screen_out.x.abs() + size.y * screen_out.y.abs());
            let mid = cam.to_screen(rect, at(between.middle())) + screen_out * (12.0 + half);
            list.labels.push(Label {
                at: mid,
                text,
                colour,
                importance: Importance::Axis,
                fixed: false,
            });
        }
    }
}

/// Whether the segment `p`-`q` passes through `r` (screen).
fn segment_hits_rect(p: Vec2, q: Vec2, r: Rect) -> bool {
    // Clip the segment's parameter range to the rectangle's slabs (Liang-Barsky).
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let d = q - p;
    for (start, delta, lo, hi) in [(p.x, d.x, r.min.x, r.max.x), (p.y, d.y, r.min.y, r.max.y)] {
        if delta.abs() < 1e-6 {
            if start < lo || start > hi {
                return false;
            }
            continue;
        }
        let (mut a, mut b) = ((lo - start) / delta, (hi - start) / delta);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        t0 = t0.max(a);
        t1 = t1.min(b);
        if t0 > t1 {
            return false;
        }
    }
    true
}
