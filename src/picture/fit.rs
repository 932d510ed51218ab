//! What a fit shows: the box (world) the camera is fitted to, for the whole scene with the
//! axis ring around the explained pair, or for the pair's headline; and the view a scene
//! opens on. The window and `render` fit through these, so a picture shows what the window
//! opens on.

use super::camera::Camera;
use super::draw::{RING_GAP, axes_bounds};
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
    /// The pair only if some of it is outside the view now; else the view stays (a pair
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
            let (pa, pb) = (&shapes[a].placed, &shapes[b].placed);
            let small = if pa.shape.bounding_radius() < pb.shape.bounding_radius() {
                pa
            } else {
                pb
            };
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
            // Room around it for the axis ring.
            let (centre, half) = ((bounds.0 + bounds.1) * 0.5, (bounds.1 - bounds.0) * 0.5);
            Some((centre - half * 1.6, centre + half * 1.6))
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

/// `camera` fitted to show `fit` in `rect` (`Reveal`: unchanged when the pair is in view).
/// Twice: the axis ring's margin is in points, so it depends on the zoom of the fit.
pub fn fitted(
    fit: Fit,
    mut camera: Camera,
    rect: Rect,
    scene: &Scene,
    pair: Option<Explained>,
) -> Camera {
    if fit == Fit::Reveal && pair_in_view(camera, rect, scene, pair) {
        return camera;
    }
    for _ in 0..2 {
        match fit_bounds(fit, scene, pair, camera.scale) {
            Some(bounds) => camera.fit(rect, bounds),
            None => {
                camera = Camera {
                    y_down: camera.y_down,
                    ..Camera::default()
                }
            }
        }
    }
    camera
}

/// The view a scene opens on: the whole scene with the axis ring around the explained pair.
/// A headline (the MTV or the distance) too small to see there is drawn enlarged and labelled
/// so; [`Fit::Headline`] (Shift+G in the window) zooms onto it.
pub fn opening_view(camera: Camera, rect: Rect, scene: &Scene, pair: Option<Explained>) -> Camera {
    fitted(Fit::Scene, camera, rect, scene, pair)
}
