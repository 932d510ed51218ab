//! The fast path: intersecting or not, and if so the depth, normal and contact points, with
//! no report built.
//!
//! It walks the same candidate axes as [`super::explain`], measured by the same code, but
//! stops at the first axis with a gap (the early out of Box2D v3's `b2CollidePolygons`) and
//! allocates nothing. So it agrees with `explain` exactly: same verdict, same depth, same
//! normal.

use super::contact::{Contact, manifold};
use super::sat::{AxisTest, visit_candidates};
use crate::geometry::{Placed, Rounded};
use std::ops::ControlFlow;

/// The contact of `a` and `b` when their interiors overlap, else `None` (touching shapes do not
/// intersect). `normal` points from A toward B; moving B by `depth * normal` separates them.
pub fn collide(a: &Placed, b: &Placed) -> Option<Contact> {
    let origin = a.pose.position;
    let (ra, rb) = (Rounded::new(a, origin), Rounded::new(b, origin));
    let mut least: Option<AxisTest> = None;
    let flow = visit_candidates(&ra, &rb, |test| {
        if test.separating {
            return ControlFlow::Break(());
        }
        if least.is_none_or(|l| test.overlap < l.overlap) {
            least = Some(test);
        }
        ControlFlow::Continue(())
    });
    if flow.is_break() {
        return None;
    }
    let least = least?;
    let mut points = manifold(&ra, &rb, least.normal, least.overlap);
    for p in &mut points {
        p.point += origin;
    }
    Some(Contact {
        depth: least.overlap,
        normal: least.normal,
        points,
    })
}
