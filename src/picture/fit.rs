//! What a fit shows: the box (world) the camera is fitted to, for the whole scene with the
//! axis ring around the explained pair, or for the pair's headline; and the view a scene
//! opens on. The window and `render` fit through these, so a picture shows what the window
//! opens on.

use super::camera::Camera;
use super::draw::{AXIS_MARGIN, AXIS_STEP, RING_GAP, axes_bounds};
use super::mark::Rect;
use crate::geometry::{DVec2, Placed};
use crate::query::PairReport;
use crate::scene::Scene;

/// Which part of the scene a fit shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Every shape, and the axis ring around the explained pair.
    Scene,
    /// The explained pair: both shapes whole, their contacts and MTV or closest points, and
    /// the axis ring around them (G in the window).
    Pair,
    /// The pair only if it is not shown now ([`pair_shown`]); else the view stays (a pair
    /// chosen from a list is brought into view without losing the user's zoom).
    Reveal,
    /// The explained pair's headline: the smaller shape, the MTV or the closest points
    /// (Shift+G in the window: a small MTV seen up close).
    Headline,
}

/// The explained pair: its list positions (A, B) and its report.
pub type Explained<'a> = ((usize, usize), &'a PairReport);

type Bounds = (DVec2, DVec2);

fn union(x: Bounds, y: Bounds) -> Bounds {
    (x.0.min(y.0), x.1.max(y.1))
}

/// The box (world) that `fit` shows; `None` for a scene without shapes. The axis ring stands
/// a fixed number of points outside the pair, so its room is measured at `scale`, the zoom
/// of the view before the fit.
pub fn fit_bounds(
    fit: Fit,
    scene: &Scene,
    pair: Option<Explained>,
    scale: f64,
) -> Option<(DVec2, DVec2)> {
    let shapes = &scene.shapes;
    match (fit, pair) {
        (Fit::Pair | Fit::Reveal, Some(((a, b), report))) => {
            let (pa, pb) = (&shapes[a].placed, &shapes[b].placed);
            let mut bounds = union(pa.aabb(), pb.aabb());
            if let Some(c) = &report.contact {
                for p in &c.points {
                    let tip = p.point + c.normal * c.depth;
                    bounds = union(bounds, (p.point.min(tip), p.point.max(tip)));
                }
            }
            Some(union(bounds, ring_bounds((pa, pb), report, scale)))
        }
        (Fit::Headline, Some(((a, b), report))) => {
            // The smaller shape, and what the pair is about: contacts and the MTV's ghost,
            // or the closest points.
            let small = smaller(&shapes[a].placed, &shapes[b].placed);
            let mut bounds = small.aabb();
            if let Some(c) = &report.contact {
                for p in &c.points {
                    bounds = union(bounds, (p.point, p.point));
                    let tip = p.point + c.normal * c.depth;
                    bounds = union(bounds, (tip, tip));
                }
            }
            if let Some(c) = report.proximity.closest {
                bounds = union(bounds, (c.point_a.min(c.point_b), c.point_a.max(c.point_b)));
            }
            // Up close the axis ring stands inside the view, around the contact: the margin
            // is the labels' ([`HEADLINE_MARGIN`], in points).
            Some(bounds)
        }
        _ => {
            let all = shapes.iter().map(|s| s.placed.aabb()).reduce(union)?;
            // The axis ring around the pair, too.
            let Some(((a, b), report)) = pair else {
                return Some(all);
            };
            let (pa, pb) = (&shapes[a].placed, &shapes[b].placed);
            Some(union(all, ring_bounds((pa, pb), report, scale)))
        }
    }
}

/// The box of the axis ring around the pair and every axis line on it, at `scale`.
fn ring_bounds((pa, pb): (&Placed, &Placed), report: &PairReport, scale: f64) -> Bounds {
    let centre = (pa.centre() + pb.centre()) * 0.5;
    let reach = |p: &Placed| p.centre().distance(centre) + p.shape.bounding_radius();
    let ring = reach(pa).max(reach(pb)) + RING_GAP as f64 / scale;
    axes_bounds(centre, ring, scale, report)
}

/// Whether both shapes of the explained pair are wholly inside `rect` seen by `camera`.
pub fn pair_in_view(camera: Camera, rect: Rect, scene: &Scene, pair: Option<Explained>) -> bool {
    let Some(((a, b), _)) = pair else {
        return true;
    };
    [a, b].into_iter().all(|k| {
        let (lo, hi) = scene.shapes[k].placed.aabb();
        rect.contains(camera.to_screen(rect, lo)) && rect.contains(camera.to_screen(rect, hi))
    })
}

/// The room (points) around the headline's box for its labels (the MTV's, the distance's).
const HEADLINE_MARGIN: f64 = 40.0;

/// Whether `camera` shows the explained pair in `rect`: both shapes whole, or (as G shows a
/// small shape on a much larger one) the smaller shape whole and some of the other.
pub fn pair_shown(camera: Camera, rect: Rect, scene: &Scene, pair: Option<Explained>) -> bool {
    let Some(((a, b), _)) = pair else {
        return true;
    };
    if pair_in_view(camera, rect, scene, pair) {
        return true;
    }
    let (pa, pb) = (&scene.shapes[a].placed, &scene.shapes[b].placed);
    let small = smaller(pa, pb);
    let large = if std::ptr::eq(small, pa) { pb } else { pa };
    let on_screen = |p: DVec2| camera.to_screen(rect, p);
    let (lo, hi) = small.aabb();
    let (llo, lhi) = large.aabb();
    let (p, q) = (on_screen(llo), on_screen(lhi));
    let large_box = Rect::from_min_max(p.min(q), p.max(q));
    rect.contains(on_screen(lo)) && rect.contains(on_screen(hi)) && large_box.intersects(rect)
}

/// Below this share of the view's shorter side, the smaller shape of a fitted pair is too
/// small to read (a 32-pixel player against a level-wide floor): when the other shape is near
/// it, the fit then shows the smaller shape large, with what the pair is about, the part of
/// the other shape around it and the axis ring around the smaller shape.
pub const SMALL_SHARE: f64 = 0.04;

/// `camera` fitted to show `fit` in `rect` (`Reveal`: unchanged when the pair is in view). A pair of
/// near shapes whose smaller one would come out too small ([`SMALL_SHARE`]) is fitted on that
/// shape.
pub fn fitted(
    fit: Fit,
    mut camera: Camera,
    rect: Rect,
    scene: &Scene,
    pair: Option<Explained>,
) -> Camera {
    if fit == Fit::Reveal && pair_shown(camera, rect, scene, pair) {
        return camera;
    }
    // The ring's margin is in points: fit until the zoom settles (a few rounds), so that a
    // fit is the same whichever zoom it starts from.
    for _ in 0..30 {
        let before = camera.scale;
        match fit_bounds(fit, scene, pair, camera.scale) {
            Some(bounds) if fit == Fit::Headline => {
                camera.fit_with_margin(rect, bounds, HEADLINE_MARGIN);
            }
            Some(bounds) => camera.fit(rect, bounds),
            None => {
                camera = Camera {
                    y_down: camera.y_down,
                    ..Camera::default()
                }
            }
        }
        if (camera.scale - before).abs() <= 1e-9 * before {
            break;
        }
    }
    // A view smaller than the ring's margins (points) has no zoom at which they fit: each round
    // zooms out further, and so does each fit after it. There the shapes and the ring's lines
    // are fitted as if the margins took no room (their labels may stand past the edge).
    if fit != Fit::Headline
        && let Some(bounds) = fit_bounds(fit, scene, pair, f64::INFINITY)
    {
        let mut bare = camera;
        bare.fit(rect, bounds);
        if camera.scale < 0.5 * bare.scale {
            camera = bare;
        }
    }
    if let (Fit::Pair | Fit::Reveal, Some(((a, b), report))) = (fit, pair) {
        let (pa, pb) = (&scene.shapes[a].placed, &scene.shapes[b].placed);
        let small = smaller(pa, pb);
        let shorter = f64::from(rect.width().min(rect.height()));
        let size = 2.0 * small.shape.bounding_radius();
        // Near: touching, or closer than the smaller shape is wide (two small shapes far
        // apart are both shown, however small).
        let near = report.proximity.distance <= size;
        if near && size * camera.scale < SMALL_SHARE * shorter {
            camera.fit_with_margin(rect, focus_bounds(small, report), FOCUS_MARGIN);
        }
    }
    camera
}

/// Of two shapes, the one whose bounding circle is smaller (the first on a tie).
fn smaller<'p>(a: &'p Placed, b: &'p Placed) -> &'p Placed {
    if a.shape.bounding_radius() <= b.shape.bounding_radius() {
        a
    } else {
        b
    }
}

/// The room (points) around [`focus_bounds`] for the axis ring the view draws around the
/// smaller shape when the whole pair does not fit (`draw::axis_ring`: the ring's gap outside
/// the shape's bounding circle, its lines reaching 1.2 times out, one step further out and a
/// margin past their shadows).
const FOCUS_MARGIN: f64 = 1.2 * RING_GAP as f64 + (2.0 * AXIS_STEP + AXIS_MARGIN) as f64;

/// The box (world) of `small`'s bounding circle, 1.2 times out (where its axis lines reach),
/// and the pair's contacts, MTV and closest points.
fn focus_bounds(small: &Placed, report: &PairReport) -> Bounds {
    let out = 1.2 * small.shape.bounding_radius();
    let centre = small.centre();
    let mut bounds = (centre - DVec2::splat(out), centre + DVec2::splat(out));
    if let Some(c) = &report.contact {
        for p in &c.points {
            let tip = p.point + c.normal * c.depth;
            bounds = union(bounds, (p.point.min(tip), p.point.max(tip)));
        }
    }
    if let Some(c) = report.proximity.closest {
        bounds = union(bounds, (c.point_a.min(c.point_b), c.point_a.max(c.point_b)));
    }
    bounds
}

/// The view a scene opens on: the whole scene with the axis ring around the explained pair.
/// A headline (the MTV or the distance) too small to see there is drawn enlarged and labelled
/// so; [`Fit::Headline`] (Shift+G in the window) zooms onto it.
pub fn opening_view(camera: Camera, rect: Rect, scene: &Scene, pair: Option<Explained>) -> Camera {
    fitted(Fit::Scene, camera, rect, scene, pair)
}
