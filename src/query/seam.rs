//! The geometry of a ghost collision on separate shapes (docs/format.md, "Seams"): a contact
//! whose normal is the outward normal of a face of one shape (a polygon's edge, a capsule's or
//! segment's side) that another shape covers where they touch. Such a face is inside the union
//! of the two shapes, not on the surface the level meant, and a body that meets it is pushed
//! back along the floor. Captures (`capture::events`) and `simulate` ask the same question.

use super::distance_to_point;
use crate::geometry::{DVec2, Placed, Shape};

/// A contact's normal names a face when within this angle of the face's outward normal
/// (radians).
pub const FACE_ANGLE: f64 = 1e-3;

/// A face of `t` met by a contact: the face's outward normal `n` (from `t` toward the body)
/// and the point `q` just outside it (`2 e` along `n` from the face's point nearest `touch`,
/// `2 e` in from its ends) that a covering shape holds. `None` when `normal` (from `t` toward
/// the body) names none of `t`'s faces.
pub fn face_met(t: &Placed, normal: DVec2, touch: DVec2, e: f64) -> Option<(DVec2, DVec2)> {
    let n = normal.try_normalize()?;
    let (a, b, out) = faces(t)
        .into_iter()
        .find(|(_, _, out)| out.angle_to(n).abs() <= FACE_ANGLE)?;
    let p = nearest_on_face(a, b, touch, 2.0 * e);
    Some((out, p + 2.0 * e * out))
}

/// Whether `u` covers the point `q`: it holds it inside (a segment or chain has no inside).
pub fn covers(u: &Placed, q: DVec2) -> bool {
    if u.shape.kind().is_static_only() {
        return false;
    }
    let (lo, hi) = u.aabb();
    q.x >= lo.x && q.x <= hi.x && q.y >= lo.y && q.y <= hi.y && distance_to_point(u, q) == 0.0
}

/// The flat faces of a shape at its pose: (start, end, outward unit normal). A polygon's
/// edges; a capsule's and a segment's two sides. A circle has none.
pub fn faces(placed: &Placed) -> Vec<(DVec2, DVec2, DVec2)> {
    let pose = placed.pose;
    let sides = |a: DVec2, b: DVec2, r: f64| {
        let (a, b) = (pose.apply(a), pose.apply(b));
        let Some(d) = (b - a).try_normalize() else {
            return Vec::new();
        };
        let n = d.perp();
        vec![(a + n * r, b + n * r, n), (b - n * r, a - n * r, -n)]
    };
    match &placed.shape {
        Shape::Polygon(p) => {
            let points: Vec<DVec2> = p.points().iter().map(|q| pose.apply(*q)).collect();
            let centre = pose.apply(p.centroid());
            let k = points.len();
            (0..k)
                .filter_map(|i| {
                    let (a, b) = (points[i], points[(i + 1) % k]);
                    let mut n = (b - a).perp().try_normalize()?;
                    if n.dot(a - centre) < 0.0 {
                        n = -n;
                    }
                    Some((a, b, n))
                })
                .collect()
        }
        Shape::Capsule(c) => sides(c.a(), c.b(), c.radius()),
        Shape::Segment(s) => sides(s.a(), s.b(), 0.0),
        Shape::Circle(_) | Shape::Chain(_) => Vec::new(),
    }
}

/// The point of face `a`-`b`, less `end` at each end (its midpoint when shorter than twice
/// that), nearest to `p`.
pub fn nearest_on_face(a: DVec2, b: DVec2, p: DVec2, end: f64) -> DVec2 {
    let length = (b - a).length();
    if length <= 2.0 * end {
        return a.lerp(b, 0.5);
    }
    let d = (b - a) / length;
    let s = (p - a).dot(d).clamp(end, length - end);
    a + d * s
}
