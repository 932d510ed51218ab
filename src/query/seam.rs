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
/// edges (a rounded polygon's moved out by its radius); a capsule's and a segment's two sides.
/// A circle has none.
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
                    // A rounded polygon's flat faces are its core's edges moved out by the
                    // radius, as a capsule's sides are.
                    let r = p.radius();
                    Some((a + n * r, b + n * r, n))
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

/// A seam at a corner (docs/format.md, "A seam at a corner"): a contact whose point's nearest
/// point on `t`'s boundary is a corner `v` of `t` (within `tau`), on a surface that runs
/// straight through `v` because another shape has a face there in line with one of `t`'s, while
/// the contact's normal leans away from that surface. A ball rolling over the seam between two
/// flat tiles meets the shared corner, and is pushed along the corner's normal, up and back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CornerSeam {
    /// The corner of `t` (world).
    pub corner: DVec2,
    /// The outward normal of the straight surface through it (the face of the covering shape,
    /// in line with a face of `t` that ends at the corner).
    pub surface_normal: DVec2,
}

/// The corner of `t` a contact at `touch` with normal `n` (from `t` toward the body) is at,
/// with the outward normals of `t`'s faces that end there: the corner that is the nearest
/// point of `t`'s boundary to `touch` (within `tau`), or, for a contact point taken halfway
/// between two overlapping surfaces (inside `t`), the corner on the line through `touch` along
/// `n` (within `tau`) whose faces' normals hold `n` between them. Plain polygons and segments
/// have corners; a circle, a capsule's rounded end or a rounded polygon's rounded corner has
/// none (a rounded crate meeting a plain tile's corner is the tile's corner).
pub fn corner_met(t: &Placed, touch: DVec2, n: DVec2, tau: f64) -> Option<(DVec2, Vec<DVec2>)> {
    let cornered = match &t.shape {
        Shape::Polygon(p) => !p.is_rounded(),
        Shape::Segment(_) => true,
        _ => false,
    };
    if !cornered {
        return None;
    }
    let faces = faces(t);
    let ending_at = |v: DVec2| -> Vec<DVec2> {
        faces
            .iter()
            .filter(|(a, b, _)| a.distance(v) <= tau || b.distance(v) <= tau)
            .map(|&(_, _, m)| m)
            .collect()
    };
    let nearest = faces
        .iter()
        .map(|&(a, b, _)| super::closest_point_on_segment(touch, a, b).0)
        .min_by(|p, q| p.distance(touch).total_cmp(&q.distance(touch)))?;
    let corners = || faces.iter().flat_map(|&(a, b, _)| [a, b]);
    if let Some(v) = corners().find(|v| v.distance(nearest) <= tau) {
        return Some((v, ending_at(v)));
    }
    // Between the normals of the faces meeting at `v`: `n` turns no further from either than
    // they are from each other.
    let within_cone = |normals: &[DVec2]| match normals {
        [m1, m2] => {
            let spread = m1.angle_to(*m2).abs() + FACE_ANGLE;
            m1.angle_to(n).abs() <= spread && m2.angle_to(n).abs() <= spread
        }
        _ => false,
    };
    corners()
        .filter(|v| (touch - *v).perp_dot(n).abs() <= tau)
        .map(|v| (v, ending_at(v)))
        .filter(|(_, normals)| within_cone(normals))
        .min_by(|x, y| x.0.distance(touch).total_cmp(&y.0.distance(touch)))
}

/// The outward normal of a face of `u` through `corner` (the corner within `tau` of the face)
/// that lies in line with one of `normals` (within [`FACE_ANGLE`]) while the contact's `n`
/// leans more than that from it: the flat surface a corner seam's contact should have met. Of
/// two such faces (a segment's two sides), the one facing `body` (the body's position).
pub fn surface_through(
    u: &Placed,
    corner: DVec2,
    normals: &[DVec2],
    n: DVec2,
    tau: f64,
    body: DVec2,
) -> Option<DVec2> {
    faces(u)
        .into_iter()
        .filter(|&(a, b, m)| {
            let on_line = (corner - a).dot(m).abs() <= tau;
            let on_face = super::closest_point_on_segment(corner, a, b)
                .0
                .distance(corner)
                <= tau;
            let in_line = normals.iter().any(|t| t.angle_to(m).abs() <= FACE_ANGLE);
            on_line && on_face && in_line && n.angle_to(m).abs() > FACE_ANGLE
        })
        .map(|(_, _, m)| m)
        .max_by(|x, y| x.dot(body - corner).total_cmp(&y.dot(body - corner)))
}

/// The seam a contact of a body with `t` meets, if any: the rule of docs/format.md ("Seams",
/// "A seam at a corner"), written once for captures and `simulate`. `n` is the contact's unit
/// normal from `t` toward the body, `touch` its point, `body` the body's position. When `n`
/// names a face of `t`, the first of `others` that covers that face where they touch (the
/// point [`face_met`] finds, each at its own tolerance); else, at the corner of `t` the
/// contact meets ([`corner_met`], at `t_tolerance`), the first of `others` with a face that
/// carries a face of `t` on straight through it while `n` leans from it
/// ([`surface_through`]). `others` are the other static or kinematic shapes, each with its
/// key and tolerance, in the order the caller names them by (rank order in `simulate`, ids in
/// a capture).
pub fn seam_met<'a, K>(
    t: &Placed,
    t_tolerance: f64,
    touch: DVec2,
    n: DVec2,
    body: DVec2,
    others: impl IntoIterator<Item = (K, &'a Placed, f64)>,
) -> Option<(K, Option<CornerSeam>)> {
    // The face, found once; each U only moves the point just outside it by its own tolerance.
    if let Some((a, b, out)) = faces(t)
        .into_iter()
        .find(|(_, _, out)| out.angle_to(n).abs() <= FACE_ANGLE)
    {
        return others.into_iter().find_map(|(k, u, e)| {
            let q = nearest_on_face(a, b, touch, 2.0 * e) + 2.0 * e * out;
            covers(u, q).then_some((k, None))
        });
    }
    let (corner, normals) = corner_met(t, touch, n, t_tolerance)?;
    others.into_iter().find_map(|(k, u, e)| {
        surface_through(u, corner, &normals, n, e, body).map(|surface_normal| {
            (
                k,
                Some(CornerSeam {
                    corner,
                    surface_normal,
                }),
            )
        })
    })
}
