//! A whole picture of a scene as the window opens on it, without a window: both layers of a
//! frame in painting order and the labels placed, as `render` writes it.

use super::camera::Camera;
use super::draw::{self, DrawInput, Layer, LayerHits};
use super::fit::opening_view;
use super::labels::{Label, estimated_size, place_around};
use super::mark::{Mark, Rect, Vec2};
use crate::broad::{self, Grid};
use crate::query::{pair_report, time_of_impact};
use crate::scene::Scene;

/// A picture: marks in painting order, then the labels over them.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The area drawn: from (0, 0) to the picture's size, in points (a point is a pixel).
    pub rect: Rect,
    /// The view it was drawn in (world to picture points).
    pub camera: Camera,
    /// What is painted, back to front.
    pub marks: Vec<Mark>,
    /// The labels kept, each with its box (text centred in it), most important first.
    pub labels: Vec<(Label, Rect)>,
    /// Each candidate axis's line as drawn: the axis (its place in the report) and the line's
    /// ends (picture points).
    pub axis_lines: Vec<(usize, [Vec2; 2])>,
}

/// The pair the window explains when it opens a scene, and `explain` and `render` when not
/// told which (list positions): the first intersecting pair, else the first two shapes;
/// none with fewer than two shapes. `first_hit` is the first intersecting pair in list order.
pub fn default_pair(
    shape_count: usize,
    first_hit: Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    (shape_count >= 2).then(|| first_hit.unwrap_or((0, 1)))
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
    let n = scene.shapes.len();
    if let Some((a, b)) = pair {
        assert!(a < n && b < n && a != b, "pair {a} {b} of {n} shapes");
    }
    let grid = Grid::build(&broad::boxes_of(scene), None);
    let hits = broad::intersecting_candidates(scene, &grid).pairs;
    let pair = pair.or_else(|| default_pair(n, hits.first().copied()));
    let report = pair.map(|(a, b)| pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed));
    let explained = pair.zip(report.as_ref());
    let rect = Rect::from_min_size(Vec2::ZERO, size);
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
    // A file's claim about the pair is drawn beside the exact result, as in the window.
    let claim = explained.and_then(|((a, b), _)| {
        let (a, b) = (scene.shapes[a].id, scene.shapes[b].id);
        scene.claims.iter().find(|c| (c.a, c.b) == (a, b))
    });
    // A moving pair is drawn with its time of impact over [0, 1], as in the window.
    let motion = explained.and_then(|((a, b), _)| {
        let (sa, sb) = (&scene.shapes[a], &scene.shapes[b]);
        (sa.motion.moves() || sb.motion.moves()).then(|| {
            let (va, vb) = (sa.motion.velocity(), sb.motion.velocity());
            (
                (va, vb),
                time_of_impact(&sa.placed, va, &sb.placed, vb, 1.0),
            )
        })
    });
    let build = |layer| {
        let hits = LayerHits::new(layer, n, other_hits.clone(), &dynamic);
        draw::build(&DrawInput {
            scene,
            pair: explained,
            other_hits: &hits.other_hits,
            selected: None,
            // What the window brings forward when no axis is hovered or stepped to.
            focus_axis: report.as_ref().map(|r| r.sat.deciding_axis()),
            axes_seen: axes,
            verdict_shown: true,
            show_axes: true,
            show_naive: false,
            claim,
            motion: motion.as_ref().map(|(velocities, toi)| draw::PairMotion {
                velocities: *velocities,
                horizon: 1.0,
                toi,
            }),
            ray: None,
            ghost: None,
            sweeps: &[],
            latency: None,
            mistake: None,
            rejected: None,
            new_polygon: &[],
            handles: &[],
            broad: None,
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
    let mut labels = place_around(still.labels, rect, estimated_size, &[]);
    let taken: Vec<Rect> = labels.iter().map(|(_, r)| *r).collect();
    labels.extend(place_around(moving.labels, rect, estimated_size, &taken));
    let mut marks = still.marks;
    marks.extend(moving.marks);
    let mut axis_lines = still.axis_segments;
    axis_lines.extend(moving.axis_segments);
    Picture {
        rect,
        camera,
        marks,
        labels,
        axis_lines,
    }
}
