//! The fast path: intersecting or not, and if so the depth, normal and contact points, with
//! no report built.
//!
//! It walks the same candidate axes as [`super::explain`], measured by the same code, but
//! stops at the first axis with a gap (the early out of Box2D v3's `b2CollidePolygons`) and
//! allocates nothing. So it agrees with `explain` exactly: same verdict, same depth, same
//! normal.

use super::contact::{Contact, contact_below, manifold};
use super::sat::{AxisSource, circles_axis, visit_candidates};
use crate::geometry::{DVec2, Placed, Rounded, Shape};
use std::ops::ControlFlow;

/// How far apart, relatively, the bounding circles must be for the shortcut. Far above
/// rounding error, so `explain` always finds the same pair separated.
const CLEAR_MARGIN: f64 = 1e-9;

/// Whether the circles that hold each shape are apart by a clear margin. No trigonometry and
/// no world view: most polygon pairs of a scene end here.
fn bounding_circles_clearly_apart(a: &Placed, b: &Placed) -> bool {
    let reach = a.shape.bounding_radius() + b.shape.bounding_radius();
    let gap2 = a.centre().distance_squared(b.centre());
    gap2 > reach * reach * (1.0 + CLEAR_MARGIN)
}

/// The contact of `a` and `b` when their interiors overlap, else `None` (touching shapes do not
/// intersect). `normal` points from A toward B; moving B by `depth * normal` separates them.
pub fn collide(a: &Placed, b: &Placed) -> Option<Contact> {
    // Worth it only where the exact test is costly: with a polygon.
    let polygon = |p: &Placed| matches!(p.shape, Shape::Polygon(_));
    if (polygon(a) || polygon(b)) && bounding_circles_clearly_apart(a, b) {
        return None;
    }
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        return collide_circles(a.pose.position, ca.radius, b.pose.position, cb.radius);
    }
    let origin = a.pose.position;
    let (ra, rb) = (Rounded::new(a, origin), Rounded::new(b, origin));
    // Only what the contact needs of the least-overlap axis, so that the rest of each
    // measurement is never stored.
    let mut least: Option<(f64, DVec2, AxisSource)> = None;
    let flow = visit_candidates(&ra, &rb, |test| {
        if test.separating {
            return ControlFlow::Break(());
        }
        if least.is_none_or(|(overlap, ..)| test.overlap < overlap) {
            least = Some((test.overlap, test.normal, test.source));
        }
        ControlFlow::Continue(())
    });
    if flow.is_break() {
        return None;
    }
    let (depth, normal, source) = least?;
    let mut points = manifold(&ra, &rb, normal, depth, source);
    for p in &mut points {
        p.point += origin;
    }
    Some(Contact {
        depth,
        normal,
        points,
    })
}

/// Two circles, without building world views: the same axis, measurement and contact point as
/// the general walk computes for two 1-point cores (relative to A's centre, as there).
fn collide_circles(
    centre_a: DVec2,
    radius_a: f64,
    centre_b: DVec2,
    radius_b: f64,
) -> Option<Contact> {
    let b = centre_b - centre_a;
    let test = circles_axis(radius_a, b, radius_b);
    if test.separating {
        return None;
    }
    let mut points = contact_below(b, radius_b, test.normal, test.overlap);
    points[0].point += centre_a;
    Some(Contact {
        depth: test.overlap,
        normal: test.normal,
        points,
    })
}
