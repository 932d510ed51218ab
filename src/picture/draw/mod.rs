//! What the scene view draws, as a list of marks built from the core's reports: no geometry
//! is computed here beyond placing it on the screen. A pure function of its input, so the
//! window, `render`, the frame benchmark and tests all build the same list.

use super::camera::Camera;
use super::handles::{Handle, HandleKind};
use super::labels::{Importance, Label};
use super::mark::{Colour, Mark, Rect, Stroke, Vec2};
use super::palette::{self, faded};
use crate::broad::Grid;
use crate::geometry::{DVec2, Placed, Rounded, Shape, left_perp};
use crate::motion::Sweep;
use crate::query::{
    AxisRole, PairReport, RayHit, SatReport, Toi, Velocity, poses_between, swept_outline,
};
use crate::scene::{Body, Claim, Scene, ShapeId};
use crate::text;
use std::cell::RefCell;
use std::sync::Arc;

mod broad;
mod casts;
mod events;
mod impulses;
mod latency;
mod motion;
mod pair;

pub use super::shown::BroadShown;
pub use broad::BroadOverlay;
use broad::{cells, pair_lines};
pub use casts::RayShown;
use casts::ray_cast;
use events::event_marks;
use impulses::impulse_marks;
pub use impulses::{IMPULSES_TIP, ImpulseArrow, ImpulsesShown};
use latency::latency_marks;
pub use latency::{LatencyCollision, LatencyShown};
use motion::sweep_marks;
pub use pair::{ARROW_MIN, AxisRing, axes_bounds, axis_ring};
use pair::{arrow, pair_report};

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
pub(crate) const AXIS_STEP: f32 = 16.0;

/// How far a line reaches past the shadows on it (points).
pub(crate) const AXIS_MARGIN: f32 = 10.0;

/// Everything one layer of a frame of the scene view paints.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    /// Marks in painting order.
    pub marks: Vec<Mark>,
    /// How many of the first marks are backdrop (the grid, the broad phase's cells): labels
    /// may stand on them; the rest are lines labels keep clear of.
    pub backdrop: usize,
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

/// The shapes the marks of earlier lists held, by list position: a list whose shape has not
/// changed since shares it, where it would copy it (a polygon is a few hundred bytes, and a
/// played frame of a crowd draws every shape again). Keep one across the frames of a view; a
/// new one shares nothing yet and costs what a copy does.
#[derive(Debug, Default)]
pub struct SharedShapes(RefCell<Vec<Option<Arc<Shape>>>>);

impl SharedShapes {
    /// The shape at list position `index`, shared with the earlier lists when it equals theirs.
    pub fn get(&self, index: usize, shape: &Shape) -> Arc<Shape> {
        let mut kept = self.0.borrow_mut();
        if kept.len() <= index {
            kept.resize(index + 1, None);
        }
        match &kept[index] {
            Some(same) if **same == *shape => Arc::clone(same),
            _ => {
                let fresh = Arc::new(shape.clone());
                kept[index] = Some(Arc::clone(&fresh));
                fresh
            }
        }
    }

    /// Let go of the shapes past the first `len` (a scene grew smaller).
    pub fn truncate(&self, len: usize) {
        self.0.borrow_mut().truncate(len);
    }
}

/// What to draw.
pub struct DrawInput<'a> {
    /// The shapes.
    pub scene: &'a Scene,
    /// Where the marks find the shapes earlier lists held (see [`SharedShapes`]).
    pub shared: &'a SharedShapes,
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
    /// Whether every axis drawn gets its label (its number and overlap or gap), not only the
    /// deciding one and the one in focus (a picture for teaching).
    pub label_axes: bool,
    /// How large labels are painted, as a share of the window's 13 points (the projector
    /// look's are larger): labels beside their lines stand off by their painted size.
    pub text_scale: f32,
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
    /// The ghost's shapes (list positions) that differ from the scene's (the capture lab
    /// comparing two runs): drawn bold in the colour of what is wrong, static ones too.
    pub ghost_apart: &'a [usize],
    /// Fast bodies' sweeps over the step just shown (the motion lab).
    pub sweeps: &'a [Sweep],
    /// The capture lab's event stepped to: its picture.
    pub event: Option<&'a crate::picture::EventPicture>,
    /// The capture lab's impulses at the frame shown (View > Impulses).
    pub impulses: Option<&'a ImpulsesShown>,
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

impl DrawList {
    /// The lines of its marks past the backdrop, for placing labels clear of them.
    pub fn obstacles(&self, view: Rect) -> super::labels::Obstacles {
        super::labels::Obstacles::of_marks(&self.marks[self.backdrop..], view)
    }

    /// [`DrawList::obstacles`] for placing its own labels and `others` (measured by `size`)
    /// only: the lines near them (a crowd's other lines cost nothing).
    pub fn obstacles_for(
        &self,
        view: Rect,
        others: &[super::Label],
        size: impl Fn(&str) -> Vec2,
    ) -> super::labels::Obstacles {
        let mut labels = self.labels.clone();
        labels.extend_from_slice(others);
        super::labels::Obstacles::of_marks_for(&self.marks[self.backdrop..], view, &labels, size)
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
        list.backdrop = list.marks.len();
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
    if let Some(picture) = input.event {
        event_marks(input, picture, &mut list);
    }
    if let Some(latency) = input.latency {
        latency_marks(input, latency, &mut list);
    }
    if let Some(shown) = input.impulses {
        impulse_marks(input, shown, &mut list);
    }
    if let Some(ghost) = input.ghost {
        for (k, shape) in ghost.shapes.iter().enumerate() {
            let apart = input.ghost_apart.contains(&k);
            if shape.motion.body == Body::Static && !apart {
                continue;
            }
            let outline = Rounded::new(&shape.placed, DVec2::ZERO).outline_with(32);
            let stroke = if apart {
                Stroke::new(3.0, palette::INVALID)
            } else {
                Stroke::new(2.0, faded(palette::NAIVE, 200))
            };
            list.marks.push(input.closed_line(&outline, stroke));
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
            other_side: None,
            names: None,
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
    // A mark a shape at least (a crowd of them grows the list once).
    list.marks.reserve(indices.size_hint().1.unwrap_or(0));
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
        if let Some(chain) = placed.shape.as_chain() {
            chain_marks(
                input,
                chain,
                placed.pose,
                Stroke::new(width, stroke_colour),
                list,
            );
        } else if let crate::geometry::Shape::Segment(s) = &placed.shape {
            // No inside to fill: the line, and a dot at each end.
            let ends = [s.a(), s.b()].map(|p| input.screen(placed.pose.apply(p)));
            list.marks.push(Mark::Segment {
                points: ends,
                stroke: Stroke::new(width + 0.5, stroke_colour),
            });
            for end in ends {
                list.marks.push(dot(end, 3.0, stroke_colour));
            }
            // The explained segment's ends by the names its file gives them (a lesson's words
            // call them so: "the closest point is the end b").
            if in_pair {
                for (end, name) in ends.into_iter().zip(["a", "b"]) {
                    list.labels.push(Label {
                        at: end,
                        text: name.into(),
                        colour: stroke_colour,
                        importance: Importance::Name,
                        fixed: false,
                        other_side: None,
                        names: None,
                    });
                }
            }
        } else {
            // Chords a quarter point off the true outline at most: r (1 - cos(pi / k)) <= 1/4.
            let per_turn = (4.5 * radius.sqrt()).ceil().clamp(8.0, 64.0) as usize;
            list.marks.push(Mark::Shape {
                shape: input.shared.get(i, &placed.shape),
                pose: placed.pose,
                per_turn,
                camera: input.camera,
                rect: input.rect,
                fill: faded(colour, 50),
                stroke: Stroke::new(width, stroke_colour),
            });
            // A rounded polygon's core, dashed inside its rounded outline: the polygon the
            // radius grows (Box2D's debug draw shows a rounded polygon the same way).
            if let crate::geometry::Shape::Polygon(p) = &placed.shape
                && p.is_rounded()
            {
                let mut core: Vec<Vec2> = p
                    .points()
                    .iter()
                    .map(|q| input.screen(placed.pose.apply(*q)))
                    .collect();
                core.extend(core.first().copied());
                list.marks.push(Mark::Dashed {
                    points: core,
                    stroke: Stroke::new(1.0, faded(stroke_colour, 170)),
                    dash: 4.0,
                    gap: 3.0,
                });
            }
        }
        // In a crowd a name is shown only where it about fits its shape, so the crowd is not
        // buried in text (the name is made only when shown).
        let crowded = input.scene.shapes.len() > CROWD;
        let fits = radius >= NAME_MIN_RADIUS
            && (!crowded || radius >= 3.5 * shape.display_name_chars(i) as f32);
        if (fits && names < MAX_NAMES) || in_pair {
            names += 1;
            list.labels.push(Label {
                at: centre,
                text: shape.display_name(i),
                colour: Colour::WHITE,
                importance: if in_pair {
                    Importance::PairName
                } else {
                    Importance::Name
                },
                fixed: false,
                other_side: None,
                names: None,
            });
        }
    }
}

/// How long a chain piece's tick on its solid side is (points).
const TICK: f32 = 7.0;

/// A chain: its pieces as lines with a tick on the solid (front) side and their numbers, the
/// edges to its ghost points dashed, the ghost points as hollow dots.
fn chain_marks(
    input: &DrawInput,
    chain: &crate::geometry::Chain,
    pose: crate::geometry::Pose,
    stroke: Stroke,
    list: &mut DrawList,
) {
    let screen = |p: DVec2| input.screen(pose.apply(p));
    for piece in chain.pieces() {
        let (p1, p2) = (screen(piece.p1), screen(piece.p2));
        list.marks.push(Mark::Segment {
            points: [p1, p2],
            stroke,
        });
        // The front normal on the screen (y down): the world's (y, -x) of the direction.
        let along = (p2 - p1).normalize_or_zero();
        let front = Vec2::new(-along.y, along.x);
        let middle = (p1 + p2) * 0.5;
        list.marks.push(Mark::Segment {
            points: [middle, middle + front * TICK],
            stroke,
        });
        list.labels.push(Label {
            at: middle + front * (TICK + 8.0),
            text: piece.index.to_string(),
            colour: stroke.colour,
            importance: Importance::Name,
            fixed: false,
            other_side: None,
            names: None,
        });
    }
    if !chain.is_loop() {
        let points = chain.points();
        let n = points.len();
        let ghost = Stroke::new(1.0, faded(stroke.colour, 150));
        for (ghost_point, end) in [(points[0], points[1]), (points[n - 1], points[n - 2])] {
            let (g, e) = (screen(ghost_point), screen(end));
            list.marks.push(Mark::Dashed {
                points: vec![e, g],
                stroke: ghost,
                dash: 4.0,
                gap: 4.0,
            });
            list.marks.push(Mark::Circle {
                centre: g,
                radius: 4.0,
                fill: Colour::TRANSPARENT,
                stroke: Stroke::new(1.5, stroke.colour),
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
    // The view's world box, whichever way y grows on the screen.
    let (p, q) = (
        camera.to_world(rect, rect.left_bottom()),
        camera.to_world(rect, rect.right_top()),
    );
    let (lo, hi) = (p.min(q), p.max(q));
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
    let label_box =
        |text: &str| super::labels::estimated_size(text) * input.text_scale + Vec2::new(4.0, 2.0);
    // Numbers along the bottom need the widest of them between lines, and half as much again
    // between neighbours: closer, a short number after a long one reads as one ("0.5 1").
    // Along the left side they need their heights.
    // Each vertical line's number, written once (a frame that draws the grid again wrote
    // each two or three times: a tenth of a small scene's frame went to the repeats).
    let numbered_x: Vec<(f64, String)> = lines(lo.x, hi.x).map(|v| (v, text::number(v))).collect();
    let widest = numbered_x
        .iter()
        .map(|(_, number)| label_box(number).x)
        .fold(0.0f32, f32::max);
    let tallest = label_box("0").y;
    let pixels = (step * camera.scale) as f32;
    let every = |room: f32| {
        [1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
            .into_iter()
            .find(|k| pixels * *k as f32 >= room + 8.0)
            .unwrap_or(100.0)
    };
    let spaced = every(1.5 * widest);
    // A narrow view keeps two numbers at least, closer together.
    let every_x = if pixels * spaced as f32 * 2.0 + widest > rect.width() {
        every(widest)
    } else {
        spaced
    };
    let every_y = every(tallest);
    let labelled =
        |v: f64, every: f64| ((v / step).round() / every).round() * every == (v / step).round();
    let mut grid_label = |centre: Vec2, size: Vec2, (v, number): (f64, String), every: f64| {
        let (label, view) = (Rect::from_centre_size(centre, size), rect.shrink(2.0));
        if labelled(v, every)
            && label.min.x >= view.min.x
            && label.max.x <= view.max.x
            && label.min.y >= view.min.y
            && label.max.y <= view.max.y
        {
            list.labels.push(Label {
                at: centre,
                text: number,
                colour: palette::GRID_TEXT,
                importance: Importance::Grid,
                fixed: true,
                other_side: None,
                names: None,
            });
        }
    };
    for (x, number) in numbered_x {
        let sx = camera.to_screen(rect, DVec2::new(x, 0.0)).x;
        let c = if x == 0.0 { axis_colour } else { colour };
        list.marks.push(segment(
            Vec2::new(sx, rect.min.y),
            Vec2::new(sx, rect.max.y),
            Stroke::new(1.0, c),
        ));
        let size = label_box(&number);
        grid_label(
            Vec2::new(sx + 3.0 + 0.5 * size.x, rect.max.y - 2.0 - 0.5 * size.y),
            size,
            (x, number),
            every_x,
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
        let number = text::number(y);
        let size = label_box(&number);
        grid_label(
            Vec2::new(rect.min.x + 4.0 + 0.5 * size.x, sy - 1.0 - 0.5 * size.y),
            size,
            (y, number),
            every_y,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::SharedShapes;
    use crate::geometry::{Circle, ConvexPolygon, DVec2, Shape};
    use std::sync::Arc;

    /// A shape unchanged since the last list is the one that list held (no copy); a changed
    /// one, or another at the same list position, is a fresh copy, and from then on shared.
    #[test]
    fn an_unchanged_shape_is_shared_and_a_changed_one_copied_afresh() {
        let shared = SharedShapes::default();
        let square: Shape = ConvexPolygon::rectangle(DVec2::splat(1.0)).unwrap().into();
        let first = shared.get(3, &square);
        assert_eq!(*first, square);
        assert!(Arc::ptr_eq(&first, &shared.get(3, &square)));
        let wider: Shape = ConvexPolygon::rectangle(DVec2::new(2.0, 1.0))
            .unwrap()
            .into();
        let second = shared.get(3, &wider);
        assert_eq!(*second, wider);
        assert!(!Arc::ptr_eq(&first, &second));
        assert!(Arc::ptr_eq(&second, &shared.get(3, &wider)));
        // Another position keeps its own; a scene grown smaller lets go past its end.
        let ball: Shape = Circle::new(0.5).unwrap().into();
        let at_zero = shared.get(0, &ball);
        shared.truncate(1);
        assert!(Arc::ptr_eq(&at_zero, &shared.get(0, &ball)));
        assert!(!Arc::ptr_eq(&second, &shared.get(3, &wider)));
    }
}
