//! The intersection region of two shapes, as a polygon to draw.
//!
//! Two convex polygons intersect in a convex polygon: clip one by each edge of the other
//! (Sutherland–Hodgman, Ericson 8.3.4), exact up to rounding. A rounded shape is first drawn as
//! its outline polygon (`Rounded::outline`), whose chords lie inside the true arc by at most
//! `tolerance`.
//!
//! Two discs need no clipping: their common part is a lens of two arcs (or the smaller disc),
//! drawn straight from where the circles cross, with chords as fine as an outline's.

use crate::geometry::{ARC_SEGMENTS_PER_TURN, DVec2, Placed, Rounded, cross};
use serde::Serialize;
use std::f64::consts::TAU;

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
    let mut outline = if a.is_point() && b.is_point() {
        lens(a, b)
    } else {
        clipped(a, b)
    };
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

/// `a`'s outline clipped by each edge of `b`'s, one buffer reused for every edge.
fn clipped(a: &Rounded, b: &Rounded) -> Vec<DVec2> {
    let clipper = b.outline();
    let mut outline = a.outline();
    let mut spare = Vec::with_capacity(outline.len() + clipper.len());
    let n = clipper.len();
    for i in 0..n {
        if outline.is_empty() {
            break;
        }
        let (c0, c1) = (clipper[i], clipper[(i + 1) % n]);
        if c0 == c1 {
            continue;
        }
        clip_by_half_plane(&outline, c0, c1, &mut spare);
        std::mem::swap(&mut outline, &mut spare);
    }
    outline
}

/// The common part of two discs (1-point cores), counter-clockwise: the smaller disc's
/// outline when it lies inside the other, else the arc of A inside
/// B and the arc of B inside A, each with [`ARC_SEGMENTS_PER_TURN`] chords per turn (at least
/// one), every corner on both true circles' boundary of the lens. Empty when they are apart.
fn lens(a: &Rounded, b: &Rounded) -> Vec<DVec2> {
    let (ca, ra, cb, rb) = (a.point(0), a.radius, b.point(0), b.radius);
    let between = cb - ca;
    let d = between.length();
    if d >= ra + rb {
        return Vec::new();
    }
    if d <= (ra - rb).abs() {
        return if ra <= rb { a.outline() } else { b.outline() };
    }
    let u = between / d;
    // Where the circles cross: `x` along u from A's centre, `h` either side of the line.
    let x = (d * d + ra * ra - rb * rb) / (2.0 * d);
    let h = (ra * ra - x * x).max(0.0).sqrt();
    let across = u.perp();
    let (low, high) = (ca + u * x - across * h, ca + u * x + across * h);
    let half_a = (x / ra).clamp(-1.0, 1.0).acos();
    let half_b = ((d - x) / rb).clamp(-1.0, 1.0).acos();
    let mut outline = Vec::with_capacity(ARC_SEGMENTS_PER_TURN + 4);
    arc(&mut outline, ca, ra, u, half_a, low);
    arc(&mut outline, cb, rb, -u, half_b, high);
    outline
}

/// The arc of the circle about `c` of radius `r` from `half` radians clockwise of direction
/// `mid` to `half` counter-clockwise of it, pushed without its last corner (the next arc's
/// first); `start` is its first corner, computed where the circles cross.
fn arc(outline: &mut Vec<DVec2>, c: DVec2, r: f64, mid: DVec2, half: f64, start: DVec2) {
    let step = TAU / ARC_SEGMENTS_PER_TURN as f64;
    let chords = ((2.0 * half / step).ceil() as usize).max(1);
    outline.push(start);
    // One turn per chord, applied by complex multiplication: a few ulps of drift over at most
    // `ARC_SEGMENTS_PER_TURN` chords, where a sine and cosine per corner cost most of a report.
    let turn = DVec2::from_angle(2.0 * half / chords as f64);
    let mut direction = DVec2::from_angle(-half).rotate(mid);
    for _ in 1..chords {
        direction = turn.rotate(direction);
        outline.push(c + direction * r);
    }
}

/// The part of convex `polygon` on the left of the directed line `c0 -> c1` (inside, for a
/// counter-clockwise clipper).
/// Written into `out`, which is cleared first.
fn clip_by_half_plane(polygon: &[DVec2], c0: DVec2, c1: DVec2, out: &mut Vec<DVec2>) {
    let edge = c1 - c0;
    let side = |p: DVec2| cross(edge, p - c0);
    out.clear();
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
}
