//! A whole picture of a scene as the window opens on it, without a window: both layers of a
//! frame in painting order and the labels placed, as `render` writes it.

use super::camera::Camera;
use super::draw::{self, BroadOverlay, BroadShown, DrawInput, Layer, LayerHits, RayShown};
use super::fit::opening_view;
use super::labels::{Label, estimated_size, leader_marks, place_around};
use super::mark::{Mark, Rect, Vec2};
use super::palette::Theme;
use crate::broad::{self, Grid};
use crate::geometry::DVec2;
use crate::motion::Sweep;
use crate::query::{PairReport, pair_report, time_of_impact};
use crate::scene::{Body, Scene, ShapeId};
use crate::text::{self, PairNames};

/// A picture: marks in painting order, then the labels over them.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The area drawn: from (0, 0) to the picture's size, in points (a point is a pixel).
    pub rect: Rect,
    /// The view it was drawn in (world to picture points).
    pub camera: Camera,
    /// What is painted, back to front.
    pub marks: Vec<Mark>,
    /// How many of the first marks are backdrop (the grid, the broad phase's cells), which
    /// labels may stand on.
    pub backdrop: usize,
    /// The labels kept, each with its box (text centred in it), most important first.
    pub labels: Vec<(Label, Rect)>,
    /// Each candidate axis's line as drawn: the axis (its place in the report) and the line's
    /// ends (picture points).
    pub axis_lines: Vec<(usize, [Vec2; 2])>,
    /// Pixels per point: text, lines and dots grow with it.
    pub scale: f32,
    /// The look the colours are written in.
    pub theme: Theme,
    /// The caption's lines (the verdict, or the step's sentence), under the scene.
    pub caption: Vec<String>,
    /// Text set from its left end (a plot's legend): where its baseline's middle starts, what,
    /// in which colour.
    pub left_text: Vec<(Vec2, String, super::mark::Colour)>,
}

impl Picture {
    /// The box (picture points) of what it draws past the backdrop: shapes, the axis ring,
    /// arrows, overlays (labels and the grid left out), cut to the picture. `None` when it
    /// draws nothing there.
    pub fn drawn_bounds(&self) -> Option<(Vec2, Vec2)> {
        let mut bounds: Option<(Vec2, Vec2)> = None;
        let mut take = |q: Vec2| {
            let q = q.clamp(self.rect.min, self.rect.max);
            bounds = Some(bounds.map_or((q, q), |(lo, hi)| (lo.min(q), hi.max(q))));
        };
        for mark in &self.marks[self.backdrop..] {
            match mark {
                Mark::Segment { points, .. } => points.iter().copied().for_each(&mut take),
                Mark::Line { points, .. }
                | Mark::Dashed { points, .. }
                | Mark::Polygon { points, .. } => points.iter().copied().for_each(&mut take),
                Mark::Circle { centre, radius, .. } => {
                    take(*centre - Vec2::splat(*radius));
                    take(*centre + Vec2::splat(*radius));
                }
                Mark::Shape { .. } => mark.shape_outline().into_iter().for_each(&mut take),
                Mark::Rect { rect, .. } => {
                    take(rect.min);
                    take(rect.max);
                }
            }
        }
        bounds
    }
}

/// How a picture is drawn beyond the scene and the pair: what `render`'s options and a
/// lesson's slide ask for. The default is the window's own look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Look<'a> {
    /// Step k of step mode (from 1): axes 1 to k drawn, the k-th in focus; the verdict and
    /// the MTV only at the step after the last axis. `None`: the whole test.
    pub step: Option<usize>,
    /// Every axis labelled with its number and overlap or gap.
    pub label_axes: bool,
    /// The verdict (or, before it, the step's sentence) as a caption under the scene.
    pub caption: bool,
    /// The naive MTV drawn too.
    pub naive: bool,
    /// Dark or light.
    pub theme: Theme,
    /// Pixels per point (text is 13 points, lines 1 to 2.5).
    pub scale: f32,
    /// The broad phase drawn over the scene, as its lab draws it: what of it (the grid's
    /// occupied cells, the candidate pairs, the intersecting ones); `None`: not drawn.
    pub broad: Option<BroadShown>,
    /// The grid's cell size (world units; `None`: chosen from the shapes, as the window
    /// chooses it).
    pub cell_size: Option<f64>,
    /// The explained pair's claim and its motion over [0, 1] drawn, as the pair lab draws
    /// them (the motion lab, showing a run's frame, does not).
    pub claim_and_motion: bool,
    /// The sweeps of a motion run's step, as the motion lab draws them over its frame.
    pub sweeps: &'a [Sweep],
    /// A ray cast against the scene (from, to), as the casts lab draws it: every hit's point,
    /// normal and fraction, the first emphasised.
    pub ray: Option<(DVec2, DVec2)>,
}

impl Default for Look<'_> {
    fn default() -> Self {
        Look {
            step: None,
            label_axes: false,
            caption: false,
            naive: false,
            theme: Theme::Dark,
            scale: 1.0,
            broad: None,
            cell_size: None,
            claim_and_motion: true,
            sweeps: &[],
            ray: None,
        }
    }
}

impl Look<'_> {
    /// The scale that makes text and lines grow with a picture of `size` pixels: 1 up to the
    /// default 960 x 640, then in proportion (a 1920 x 1080 picture draws text 22 px high).
    pub fn scale_for(size: Vec2) -> f32 {
        (size.x / 960.0).min(size.y / 640.0).clamp(1.0, 16.0)
    }
}

/// How many steps step mode has for a report: one per axis, then the verdict.
pub fn step_count(report: &PairReport) -> usize {
    report.sat.axes.len() + 1
}

/// The caption's height per line (points).
pub(super) const CAPTION_LINE: f32 = 17.0;
/// The caption's margin around its lines (points).
pub(super) const CAPTION_MARGIN: f32 = 8.0;

/// The pair the window explains when it opens a scene, and `explain` and `render` when not
/// told which (list positions), none with fewer than two shapes. A scene with a moving body
/// (dynamic, else kinematic) is about that body: the first intersecting pair with one, else
/// the first moving body and the shape nearest it (what it rests on or is about to hit).
/// Otherwise the first intersecting pair, else the first two shapes. `hits` are the
/// intersecting pairs, i < j, in list order.
pub fn default_pair(scene: &Scene, hits: &[(usize, usize)]) -> Option<(usize, usize)> {
    let shapes = &scene.shapes;
    if shapes.len() < 2 {
        return None;
    }
    for body in [Body::Dynamic, Body::Kinematic] {
        let moving = |k: usize| shapes[k].motion.body == body;
        if let Some(&hit) = hits.iter().find(|(a, b)| moving(*a) || moving(*b)) {
            return Some(hit);
        }
        if let Some(k) = (0..shapes.len()).find(|&k| moving(k)) {
            let other = nearest_to(scene, k)?;
            return Some((k.min(other), k.max(other)));
        }
    }
    Some(hits.first().copied().unwrap_or((0, 1)))
}

/// The shape nearest shape `k` (list position): the exact distance among the few whose
/// bounding boxes come nearest.
fn nearest_to(scene: &Scene, k: usize) -> Option<usize> {
    const FEW: usize = 8;
    let shapes = &scene.shapes;
    let (lo, hi) = shapes[k].placed.aabb();
    let box_gap = |j: usize| {
        let (l, h) = shapes[j].placed.aabb();
        (l - hi).max(lo - h).max(DVec2::ZERO).length()
    };
    let mut near: Vec<(f64, usize)> = (0..shapes.len())
        .filter(|&j| j != k)
        .map(|j| (box_gap(j), j))
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    near.truncate(FEW);
    near.into_iter()
        .map(|(_, j)| {
            let d = crate::query::distance(&shapes[k].placed, &shapes[j].placed).distance;
            (d, j)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, j)| j)
}

/// The pair a scene opens on ([`default_pair`], its intersecting pairs found through the
/// grid).
pub fn opening_pair(scene: &Scene) -> Option<(usize, usize)> {
    let grid = Grid::build(&broad::boxes_of(scene), None);
    let hits = broad::intersecting_candidates(scene, &grid).pairs;
    default_pair(scene, &hits)
}

/// `scene` in a view of `size` points, as the window opens on it: the same fit, the pair
/// explained with all its axes (the deciding one brought forward), the MTV and its ghost or
/// the closest points, the contacts and the other intersecting pairs outlined; nothing
/// selected. `pair` (list positions, A then B)
/// is the one to explain, `None` for [`default_pair`].
///
/// # Panics
/// If `pair` is not two different list positions of `scene`.
pub fn picture(scene: &Scene, pair: Option<(usize, usize)>, size: Vec2) -> Picture {
    picture_in_view(scene, pair, size, None)
}

/// [`picture`] seen through `camera` (`None`: the view the window opens on).
///
/// # Panics
/// If `pair` is not two different list positions of `scene`.
pub fn picture_in_view(
    scene: &Scene,
    pair: Option<(usize, usize)>,
    size: Vec2,
    camera: Option<Camera>,
) -> Picture {
    picture_with(scene, pair, size, camera, Look::default())
}

/// [`picture_in_view`] drawn with `look`: `size` is in pixels, the picture is laid out in
/// `size / look.scale` points (`camera`, when given, is in points). A step past the last
/// counts as the last.
///
/// # Panics
/// If `pair` is not two different list positions of `scene`.
pub fn picture_with(
    scene: &Scene,
    pair: Option<(usize, usize)>,
    size: Vec2,
    camera: Option<Camera>,
    look: Look<'_>,
) -> Picture {
    let n = scene.shapes.len();
    if let Some((a, b)) = pair {
        assert!(a < n && b < n && a != b, "pair {a} {b} of {n} shapes");
    }
    let grid = Grid::build(&broad::boxes_of(scene), look.cell_size);
    let hits = broad::intersecting_candidates(scene, &grid).pairs;
    let pair = pair.or_else(|| default_pair(scene, &hits));
    let report = pair.map(|(a, b)| pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed));
    let explained = pair.zip(report.as_ref());
    let full = Rect::from_min_size(Vec2::ZERO, size / look.scale);
    let caption = match explained.filter(|_| look.caption) {
        Some(((a, b), report)) => caption(
            report,
            &PairNames::in_scene(scene, a, b),
            look,
            full.width(),
        ),
        None => Vec::new(),
    };
    let band = if caption.is_empty() {
        0.0
    } else {
        caption.len() as f32 * CAPTION_LINE + 2.0 * CAPTION_MARGIN
    };
    let rect = Rect::from_min_size(Vec2::ZERO, full.size() - Vec2::new(0.0, band));
    let camera = camera.unwrap_or_else(|| opening_view(Camera::default(), rect, scene, explained));
    let mut dynamic: Vec<usize> = pair.map_or(Vec::new(), |(a, b)| vec![a, b]);
    dynamic.sort_unstable();
    let sorted = pair.map(|(a, b)| (a.min(b), a.max(b)));
    let other_hits = hits.iter().copied().filter(|p| Some(*p) != sorted);
    // The grid's entries are list positions; the drawing looks shapes up by id through it,
    // which is the same for a scene numbered as loading numbers it.
    let numbered = scene
        .shapes
        .iter()
        .enumerate()
        .all(|(i, s)| s.id.0 as usize == i);
    let axes = report.as_ref().map_or(0, |r| r.sat.axes.len());
    // Step k tells axes 1 to k; the step after the last axis tells the verdict.
    let step = look.step.map(|k| k.clamp(1, axes + 1));
    let (axes_seen, verdict_shown) = match step {
        Some(k) => (k.min(axes), k > axes),
        None => (axes, true),
    };
    let focus_axis = match step {
        Some(k) if k <= axes => Some(k - 1),
        // A teaching picture labels every axis and shows them all at full strength.
        _ if look.label_axes => None,
        // What the window brings forward when no axis is hovered or stepped to.
        _ => report.as_ref().map(|r| r.sat.deciding_axis()),
    };
    // A file's claim about the pair is drawn beside the exact result, as in the window.
    let claim = explained
        .filter(|_| look.claim_and_motion)
        .and_then(|((a, b), _)| {
            let (a, b) = (scene.shapes[a].id, scene.shapes[b].id);
            scene.claims.iter().find(|c| (c.a, c.b) == (a, b))
        });
    // A moving pair is drawn with its time of impact over [0, 1], as in the window.
    let motion = explained
        .filter(|_| look.claim_and_motion)
        .and_then(|((a, b), _)| {
            let (sa, sb) = (&scene.shapes[a], &scene.shapes[b]);
            (sa.motion.moves() || sb.motion.moves()).then(|| {
                let (va, vb) = (sa.motion.velocity(), sb.motion.velocity());
                (
                    (va, vb),
                    time_of_impact(&sa.placed, va, &sb.placed, vb, 1.0),
                )
            })
        });
    // The broad phase's overlay looks shapes up by id through the grid, as above.
    let hit_ids: Vec<(ShapeId, ShapeId)> = hits
        .iter()
        .map(|&(i, j)| (scene.shapes[i].id, scene.shapes[j].id))
        .collect();
    let broad = look.broad.filter(|_| numbered).map(|shown| BroadOverlay {
        shown,
        grid: &grid,
        hits: &hit_ids,
    });
    let ray_hits = look
        .ray
        .map(|(from, to)| crate::broad::ray_cast_scene(scene, Some(&grid), from, to))
        .unwrap_or_default();
    let ray = look.ray.map(|(from, to)| RayShown {
        from,
        to,
        hits: &ray_hits,
    });
    let shared = draw::SharedShapes::default();
    let build = |layer| {
        let hits = LayerHits::new(layer, n, other_hits.clone(), &dynamic);
        draw::build(&DrawInput {
            text_scale: 1.0,
            scene,
            shared: &shared,
            pair: explained,
            other_hits: &hits.other_hits,
            selected: None,
            focus_axis,
            axes_seen,
            verdict_shown,
            // The broad phase is about the whole scene: no axis ring, as in its lab.
            show_axes: look.broad.is_none(),
            label_axes: look.label_axes,
            show_naive: look.naive,
            claim,
            motion: motion.as_ref().map(|(velocities, toi)| draw::PairMotion {
                velocities: *velocities,
                horizon: 1.0,
                toi,
            }),
            ray,
            ghost: None,
            ghost_apart: &[],
            sweeps: look.sweeps,
            event: None,
            impulses: None,
            latency: None,
            mistake: None,
            rejected: None,
            new_polygon: &[],
            handles: &[],
            broad,
            grid: numbered.then_some(&grid),
            layer,
            dynamic: &dynamic,
            hit_by_dynamic: &hits.hit_by_dynamic,
            camera,
            rect,
        })
    };
    let (still, moving) = (build(Layer::Static), build(Layer::Dynamic));
    // As the window places them: the static layer's labels first, the dynamic layer's around
    // them.
    // Each layer's labels clear of its lines, the dynamic layer's of the static one's too.
    // The static layer's lines near either layer's labels are all that placing them reads.
    let below = still.obstacles_for(rect, &moving.labels, estimated_size);
    let above = moving.obstacles(rect);
    let mut labels = place_around(still.labels, rect, estimated_size, &[], &[&below]);
    let taken: Vec<Rect> = labels.iter().map(|(_, r)| *r).collect();
    labels.extend(place_around(
        moving.labels,
        rect,
        estimated_size,
        &taken,
        &[&below, &above],
    ));
    let backdrop = still.backdrop;
    let mut marks = still.marks;
    marks.extend(moving.marks);
    // A label that had to stand off from what it names is tied to it by a leader line, over
    // the marks and under the labels (as the window paints it).
    marks.extend(leader_marks(labels.iter()));
    let mut axis_lines = still.axis_segments;
    axis_lines.extend(moving.axis_segments);
    Picture {
        rect: full,
        camera,
        marks,
        backdrop,
        labels,
        axis_lines,
        scale: look.scale,
        theme: look.theme,
        caption,
        left_text: Vec::new(),
    }
}

/// How tall (points) the caption under a picture `width` points wide of `scene`'s pair is at
/// `look` (0 without one): what a page reserves under the scene.
pub fn caption_band(
    scene: &Scene,
    pair: Option<(usize, usize)>,
    look: Look<'_>,
    width: f32,
) -> f32 {
    let Some((a, b)) = pair.filter(|_| look.caption) else {
        return 0.0;
    };
    let report = pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed);
    let lines = caption(&report, &PairNames::in_scene(scene, a, b), look, width).len();
    if lines == 0 {
        0.0
    } else {
        lines as f32 * CAPTION_LINE + 2.0 * CAPTION_MARGIN
    }
}

/// The caption of a pair at `look`'s step, wrapped to `width` points: the step's sentence
/// while stepping, else the verdict (and the naive rule's move when it is drawn).
fn caption(report: &PairReport, names: &PairNames, look: Look<'_>, width: f32) -> Vec<String> {
    let sentences = text::step_sentences(report, names, look.step, look.naive);
    let room = (width - 2.0 * CAPTION_MARGIN).max(0.0);
    sentences
        .iter()
        .flat_map(|s| super::labels::wrap(s, room, super::labels::estimated_size))
        .collect()
}
