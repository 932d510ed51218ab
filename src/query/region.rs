//! The intersection region of two shapes, as a polygon to draw.
//!
//! Two convex polygons intersect in a convex polygon: clip one by each edge of the other
//! (Sutherland–Hodgman, Ericson 8.3.4), exact up to rounding. A rounded shape is first drawn as
//! its outline polygon (`Rounded::outline`), whose chords lie inside the true arc by at most
//! `tolerance`.

use crate::geometry::{DVec2, Placed, Rounded, cross};
use serde::Serialize;

/// The common part of two shapes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Region {
    /// Corners, counter-clockwise, world coordinates; empty when the shapes do not overlap.
    pub outline: Vec<DVec2>,
    /// How far `outline` may lie inside the true region (0 for two polygons).
    pub tolerance: f64,
}

/// The intersection region of `a` and `b`.
pub fn intersection_region(a: &Placed, b: &Placed) -> Region {
    let origin = a.pose.position;
    region_of(&Rounded::new(a, origin), &Rounded::new(b, origin), origin)
}

pub(crate) fn region_of(a: &Rounded, b: &Rounded, origin: DVec2) -> Region {
    let clipper = b.outline();
    let mut outline = a.outline();
    let n = clipper.len();
    for i in 0..n {
        if outline.is_empty() {
            break;
        }
        let (c0, c1) = (clipper[i], clipper[(i + 1) % n]);
        if c0 == c1 {
            continue;
        }
        outline = clip_by_half_plane(&outline, c0, c1);
    }
    if outline.len() < 3 {
        outline.clear();
    }
    for p in &mut outline {
        *p += origin;
    }
    Region {
        outline,
        tolerance: a.outline_tolerance().max(b.outline_tolerance()),
    }
}

/// The part of convex `polygon` on the left of the directed line `c0 -> c1` (inside, for a
/// counter-clockwise clipper).
fn clip_by_half_plane(polygon: &[DVec2], c0: DVec2, c1: DVec2) -> Vec<DVec2> {
    let edge = c1 - c0;
    let side = |p: DVec2| cross(edge, p - c0);
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (i, &p) in polygon.iter().enumerate() {
        let q = polygon[(i + 1) % polygon.len()];
        let (sp, sq) = (side(p), side(q));
        if sp >= 0.0 {
            out.push(p);
        }
        if (sp >= 0.0) != (sq >= 0.0) {
            out.push(p + (q - p) * (sp / (sp - sq)));
        }
    }
    out
}
