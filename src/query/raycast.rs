//! Ray casts: where the segment from `from` to `to` first meets a solid shape, as Box2D's
//! `b2RayCastInput` / `b2CastOutput` say it (a fraction along the segment, the point, the
//! outward normal there).
//!
//! Each kind is solved exactly, relative to `from` (so far from the origin the numbers keep
//! their precision): a circle by the stable root of its quadratic; a capsule as the earliest
//! of its two side faces and its two end circles; a polygon by clipping the segment against
//! its edges' half-planes (Cyrus-Beck, as Box2D's `b2RayCastPolygon`), a rounded polygon as the
//! earliest of its edges moved out by the radius and its corners' circles; a segment shape, from
//! either side, by crossing two lines; a chain only on its pieces' front sides, the first hit
//! of any piece. A ray that starts inside a shape, or on its boundary, hits it at fraction 0
//! with no normal.
//!
//! A whole scene's casts (every hit, or the first) walk the broad phase's cells along the
//! segment: [`crate::broad::ray_cast_scene`] and [`crate::broad::ray_cast_scene_first`].

use crate::geometry::{ConvexPolygon, DVec2, Placed, Shape, cross, right_perp};
use serde::Serialize;

/// Where a segment first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RayHit {
    /// Along the segment, in [0, 1]: `point = from + fraction * (to - from)`.
    pub fraction: f64,
    /// The point, world coordinates.
    pub point: DVec2,
    /// The outward unit surface normal there; `None` when the segment starts inside the shape
    /// or on its boundary.
    pub normal: Option<DVec2>,
    /// The chain's piece that was hit (`None` for every other kind).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<usize>,
}

/// The first contact of the segment `from -> to` with the solid `shape`, if any.
pub fn ray_cast(shape: &Placed, from: DVec2, to: DVec2) -> Option<RayHit> {
    let d = to - from;
    let pose = shape.pose;
    let offset = pose.position - from;
    let mut piece = None;
    let (fraction, normal) = match &shape.shape {
        Shape::Circle(c) => circle(offset, c.radius(), d)?,
        Shape::Capsule(c) => {
            let rotation = pose.rotation();
            let (p, q) = (
                rotation.rotate(c.a()) + offset,
                rotation.rotate(c.b()) + offset,
            );
            // Ends that coincide (to rounding) make a circle, as in the other queries.
            let length = (q - p).length();
            if length <= f64::EPSILON * (p.abs().max_element() + 1.0) {
                circle(p, c.radius(), d)?
            } else {
                capsule((p, q, length), c.radius(), d)?
            }
        }
        Shape::Polygon(p) => placed_polygon(p, pose.rotation(), offset, d)?,
        Shape::Segment(s) => {
            let place = |p: DVec2| pose.rotation().rotate(p) + offset;
            line(place(s.a()), place(s.b()), d, false)?
        }
        Shape::Chain(c) => {
            let place = |p: DVec2| pose.rotation().rotate(p) + offset;
            let mut best: Option<(usize, (f64, Option<DVec2>))> = None;
            for k in c.piece_numbers() {
                let (p1, p2) = (
                    place(c.points()[k]),
                    place(c.points()[(k + 1) % c.points().len()]),
                );
                if let Some(hit) = line(p1, p2, d, true)
                    && best.is_none_or(|(_, b)| hit.0 < b.0)
                {
                    best = Some((k, hit));
                }
            }
            let (k, hit) = best?;
            piece = Some(k);
            hit
        }
    };
    Some(RayHit {
        fraction,
        point: from + d * fraction,
        // + 0 turns a -0 component into 0.
        normal: normal.map(|n| n + DVec2::ZERO),
        piece,
    })
}

/// A disc of `radius` at `c` (relative to the segment's start), the segment going `d`.
fn circle(c: DVec2, radius: f64, d: DVec2) -> Option<(f64, Option<DVec2>)> {
    let s = -c; // the start, relative to the centre
    let k = s.dot(s) - radius * radius;
    if k <= 0.0 {
        return Some((0.0, None));
    }
    let (a, b) = (d.dot(d), s.dot(d));
    if a == 0.0 || b >= 0.0 {
        return None;
    }
    let disc = b * b - a * k;
    if disc < 0.0 {
        return None;
    }
    // The nearer root, in the form that does not cancel: k / (-b + sqrt(disc)).
    let t = k / (-b + disc.sqrt());
    if t > 1.0 {
        return None;
    }
    // At the hit the point is `radius` from the centre: no square root needed.
    Some((t, Some((s + d * t) / radius)))
}

/// Keep `hit` in `best` when it comes first (the earliest of a shape's faces and discs).
fn earlier(best: &mut Option<(f64, Option<DVec2>)>, hit: Option<(f64, Option<DVec2>)>) {
    if let Some(h) = hit
        && best.is_none_or(|b| h.0 < b.0)
    {
        *best = Some(h);
    }
}

/// A capsule: the segment `p -> q` (`length` long) grown by `radius` (relative to the
/// segment's start).
fn capsule(
    (p, q, length): (DVec2, DVec2, f64),
    radius: f64,
    d: DVec2,
) -> Option<(f64, Option<DVec2>)> {
    let axis = q - p;
    let u = axis / length;
    // Inside (or on) the capsule at the start?
    let along = (-p).dot(u).clamp(0.0, length);
    if (p + u * along).length_squared() <= radius * radius {
        return Some((0.0, None));
    }
    // The side faces first: the lines at distance `radius` from the core, within its length.
    // A ray that crosses one inward there enters the capsule there (it was outside that face's
    // slab before, so outside the capsule): no disc of an end can be met earlier, and neither
    // is tried (as Box2D's `b2RayCastCapsule` tries the sides before the ends).
    let n = DVec2::new(u.y, -u.x);
    for side in [n, -n] {
        let den = side.dot(d);
        if den >= 0.0 {
            continue;
        }
        // side . (x - p) = radius at x = d t (the start is the origin).
        let t = (radius + side.dot(p)) / den;
        if !(0.0..=1.0).contains(&t) {
            continue;
        }
        let s = (d * t - p).dot(u);
        if (0.0..=length).contains(&s) {
            return Some((t, Some(side)));
        }
    }
    let mut best: Option<(f64, Option<DVec2>)> = None;
    earlier(&mut best, circle(p, radius, d));
    earlier(&mut best, circle(q, radius, d));
    best
}

/// The segment shape `p -> q` (relative to the ray's start), hit from either side, or with
/// `front_only` only from its front (a chain's piece; a ray starting strictly behind its line
/// passes through). The normal is the segment's, facing the ray's start; a ray parallel to it
/// never hits (as Box2D's `b2RayCastSegment`); one starting on it hits at 0 with no normal.
fn line(p: DVec2, q: DVec2, d: DVec2, front_only: bool) -> Option<(f64, Option<DVec2>)> {
    let e = q - p;
    // Where the start (the origin) lies: left of, on, or right of (the front of) the line.
    let side = cross(e, -p);
    if side == 0.0 && (-p).dot(e) >= 0.0 && (-p).dot(e) <= e.dot(e) {
        return Some((0.0, None));
    }
    if front_only && side > 0.0 {
        return None;
    }
    let den = cross(d, e);
    if den == 0.0 {
        return None;
    }
    let t = cross(p, e) / den;
    let s = cross(p, d) / den;
    if !(0.0..=1.0).contains(&t) || !(0.0..=1.0).contains(&s) {
        return None;
    }
    let n = right_perp(e).normalize();
    Some((t, Some(if side > 0.0 { -n } else { n })))
}

/// A polygon turned by `rotation` with its origin at `offset` (relative to the segment's
/// start), in the polygon's own frame, as Box2D's `b2RayCastPolygon`: the ray is turned there
/// (two rotations) instead of every corner and normal turned to the world.
#[inline(never)]
fn placed_polygon(
    p: &ConvexPolygon,
    rotation: DVec2,
    offset: DVec2,
    d: DVec2,
) -> Option<(f64, Option<DVec2>)> {
    let inverse = DVec2::new(rotation.x, -rotation.y);
    let start = inverse.rotate(-offset);
    let d = inverse.rotate(d);
    let (fraction, normal) = if p.is_rounded() {
        rounded_polygon(p.points(), p.normals(), p.radius(), start, d)?
    } else {
        polygon(p.points(), p.normals(), start, d)?
    };
    Some((fraction, normal.map(|n| rotation.rotate(n))))
}

/// A convex core (`points` counter-clockwise, outward `normals`) grown by `radius`, the
/// segment starting at `start` and going `d`: the earliest of the core's edges moved out by
/// the radius (where the hit lies beside its edge) and the discs at its corners, as a capsule's
/// sides and ends. A start within `radius` of the core is inside.
#[inline(never)]
fn rounded_polygon(
    points: &[DVec2],
    normals: &[DVec2],
    radius: f64,
    start: DVec2,
    d: DVec2,
) -> Option<(f64, Option<DVec2>)> {
    let n = points.len();
    let inside_core = points
        .iter()
        .zip(normals)
        .all(|(q, m)| m.dot(start - *q) <= 0.0);
    let core_distance = (0..n)
        .map(|i| {
            let (p, q) = (points[i], points[(i + 1) % n]);
            start.distance(super::closest::closest_point_on_segment(start, p, q).0)
        })
        .fold(f64::INFINITY, f64::min);
    if inside_core || core_distance <= radius {
        return Some((0.0, None));
    }
    let mut best: Option<(f64, Option<DVec2>)> = None;
    let mut keep = |hit| earlier(&mut best, hit);
    for q in points {
        keep(circle(*q - start, radius, d));
    }
    for i in 0..n {
        let (p, q, m) = (points[i], points[(i + 1) % n], normals[i]);
        let den = m.dot(d);
        if den >= 0.0 {
            continue;
        }
        // m . (start + d t - p) = radius: the edge moved out by the radius.
        let t = (radius - m.dot(start - p)) / den;
        if !(0.0..=1.0).contains(&t) {
            continue;
        }
        let e = q - p;
        let s = (start + d * t - p).dot(e);
        if (0.0..=e.dot(e)).contains(&s) {
            keep(Some((t, Some(m))));
        }
    }
    best
}

/// A convex polygon given by its counter-clockwise `points` and outward `normals`, the
/// segment starting at `start` and going `d` (all in one frame): Cyrus-Beck clipping. As
/// Box2D's `b2RayCastPolygon`, an edge's fraction `num / den` is compared with the bounds as
/// `num < bound * den` (the sign of `den` known), and divided out only when it moves one.
fn polygon(
    points: &[DVec2],
    normals: &[DVec2],
    start: DVec2,
    d: DVec2,
) -> Option<(f64, Option<DVec2>)> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut entering = None;
    // By index over slices of one length: the pair of iterators checked both ends each edge.
    let normals = &normals[..points.len()];
    #[allow(clippy::needless_range_loop)]
    for i in 0..points.len() {
        let (q, n) = (points[i], normals[i]);
        // The start is inside this edge's half-plane when n . (start - q) <= 0.
        let num = n.dot(q - start);
        let den = n.dot(d);
        if den < 0.0 {
            // Entering: num / den > lo.
            if num < lo * den {
                lo = num / den;
                entering = Some(n);
            }
        } else if den > 0.0 {
            // Leaving: num / den < hi.
            if num < hi * den {
                hi = num / den;
            }
        } else if den == 0.0 && num < 0.0 {
            // Parallel to the edge and outside it.
            return None;
        }
        if lo > hi {
            return None;
        }
    }
    Some((lo, entering))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::generate::Random;

    /// A cast's answer `new` is `old`'s: both miss, or both hit with fractions and normals
    /// within 1e-9 (counted in `hits`, and in `same` when a normal and fraction are equal to
    /// the bit); `case` names the input when they differ.
    fn agree(
        new: Option<(f64, Option<DVec2>)>,
        old: Option<(f64, Option<DVec2>)>,
        (hits, same): (&mut usize, &mut usize),
        case: impl Fn() -> String,
    ) {
        match (new, old) {
            (None, None) => {}
            (Some((t, n)), Some((t0, n0))) => {
                *hits += 1;
                assert!((t - t0).abs() <= 1e-9, "{t} {t0}: {}", case());
                match (n, n0) {
                    (None, None) => {}
                    (Some(n), Some(n0)) => {
                        *same += usize::from(n == n0 && t == t0);
                        assert!((n - n0).length() <= 1e-9, "{n:?} {n0:?}: {}", case());
                    }
                    other => panic!("{other:?}: {}", case()),
                }
            }
            other => panic!("{other:?}: {}", case()),
        }
    }

    /// The capsule as it was cast before its sides were tried first: both ends' discs, then
    /// the sides, the earliest kept.
    fn capsule_every_part(
        p: DVec2,
        q: DVec2,
        radius: f64,
        d: DVec2,
    ) -> Option<(f64, Option<DVec2>)> {
        let axis = q - p;
        let length = axis.length();
        let u = axis / length;
        let along = (-p).dot(u).clamp(0.0, length);
        if (p + u * along).length_squared() <= radius * radius {
            return Some((0.0, None));
        }
        let mut best: Option<(f64, Option<DVec2>)> = None;
        let mut keep = |hit| earlier(&mut best, hit);
        keep(circle(p, radius, d));
        keep(circle(q, radius, d));
        let n = DVec2::new(u.y, -u.x);
        for side in [n, -n] {
            let den = side.dot(d);
            if den >= 0.0 {
                continue;
            }
            let t = (radius + side.dot(p)) / den;
            if !(0.0..=1.0).contains(&t) {
                continue;
            }
            let s = (d * t - p).dot(u);
            if (0.0..=length).contains(&s) {
                keep(Some((t, Some(side))));
            }
        }
        best
    }

    /// The polygon as it was cast before the fractions were compared as products: every
    /// edge's fraction divided out and compared.
    fn polygon_divided(
        points: &[DVec2],
        normals: &[DVec2],
        start: DVec2,
        d: DVec2,
    ) -> Option<(f64, Option<DVec2>)> {
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        let mut entering = None;
        for (q, n) in points.iter().zip(normals) {
            let num = n.dot(*q - start);
            let den = n.dot(d);
            if den == 0.0 {
                if num < 0.0 {
                    return None;
                }
                continue;
            }
            let t = num / den;
            if den < 0.0 {
                if t > lo {
                    lo = t;
                    entering = Some(*n);
                }
            } else if t < hi {
                hi = t;
            }
            if lo > hi {
                return None;
            }
        }
        Some((lo, entering))
    }

    /// Comparing the fractions as products gives what dividing them out gave, to 1e-9 (the
    /// same hits and misses, the fraction and normal within 1e-9; nearly always to the bit),
    /// on 400,000 random rays at polygons of 3 to 8 corners at four scales: from anywhere
    /// around, aimed at the polygon, grazing its corners, and along its edges.
    #[test]
    fn a_polygon_cast_by_products_answers_as_by_fractions() {
        let mut r = Random::new(72);
        let (mut hits, mut same) = (0, 0);
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let corners = 3 + (k / 4) % 6;
            // Regular, or corners at random angles on a stretched circle (convex either way).
            let radius = r.between(0.1, 2.0) * size;
            let polygon_shape = if k % 8 < 4 {
                ConvexPolygon::regular(corners, radius).expect("a regular polygon")
            } else {
                let mut angles: Vec<f64> = (0..corners)
                    .map(|_| r.between(0.0, std::f64::consts::TAU))
                    .collect();
                angles.sort_by(f64::total_cmp);
                let stretch = r.between(0.3, 3.0);
                let corners_at = angles
                    .iter()
                    .map(|a| DVec2::new(a.cos() * stretch, a.sin()) * radius)
                    .collect();
                match ConvexPolygon::new(corners_at) {
                    Ok(p) => p,
                    Err(_) => continue,
                }
            };
            let corners = polygon_shape.points().len();
            let (points, normals) = (polygon_shape.points(), polygon_shape.normals());
            let start = DVec2::new(r.between(-6.0, 6.0), r.between(-6.0, 6.0)) * size;
            let corner = points[k % corners];
            let edge = points[(k + 1) % corners] - corner;
            let target = match (k / 24) % 4 {
                0 => corner * r.between(0.99, 1.01),
                1 => corner + edge * r.between(0.0, 1.0),
                2 => DVec2::new(r.between(-1.0, 1.0), r.between(-1.0, 1.0)) * size,
                _ => DVec2::new(r.between(-6.0, 6.0), r.between(-6.0, 6.0)) * size,
            };
            // Some rays run along an edge's line, from a point on it.
            let (start, d) = if k % 97 == 0 {
                (
                    corner - edge * r.between(0.5, 2.0),
                    edge * r.between(1.0, 4.0),
                )
            } else {
                (start, (target - start) * r.between(0.5, 2.0))
            };
            agree(
                polygon(points, normals, start, d),
                polygon_divided(points, normals, start, d),
                (&mut hits, &mut same),
                || format!("{points:?} {start:?} {d:?}"),
            );
        }
        assert!(
            hits > 100_000 && same > 100_000,
            "{hits} hits, {same} the same to the bit"
        );
    }

    /// Trying the sides first gives what trying every part gives, to 1e-9 (the same hits and
    /// misses; the fraction and normal within 1e-9), on 400,000 random rays at four scales:
    /// from anywhere around, aimed near the capsule, grazing its sides and ends, and through
    /// where a side meets an end.
    #[test]
    fn a_capsule_cast_side_first_answers_as_every_part_does() {
        let mut r = Random::new(71);
        let (mut hits, mut same) = (0, 0);
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let half = r.between(0.01, 2.0) * size;
            let radius = r.between(0.05, 1.0) * size;
            let angle = r.between(0.0, std::f64::consts::TAU);
            let centre = DVec2::new(r.between(-3.0, 3.0), r.between(-3.0, 3.0)) * size;
            let u = DVec2::from_angle(angle);
            let (p, q) = (centre - u * half, centre + u * half);
            // A target on or near the capsule: an end's rim, a side, the junction, or anywhere.
            let target = match k % 4 {
                0 => p + DVec2::from_angle(r.between(0.0, 6.3)) * radius,
                1 => centre + u * r.between(-half, half) + u.perp() * radius,
                2 => q + u.perp() * radius * r.between(0.99, 1.01),
                _ => DVec2::new(r.between(-6.0, 6.0), r.between(-6.0, 6.0)) * size,
            };
            let d = (target - DVec2::ZERO) * r.between(0.5, 2.0);
            agree(
                capsule((p, q, (q - p).length()), radius, d),
                capsule_every_part(p, q, radius, d),
                (&mut hits, &mut same),
                || format!("{p:?} {q:?} {radius} {d:?}"),
            );
        }
        assert!(
            hits > 100_000 && same > 50_000,
            "{hits} hits, {same} the same to the bit"
        );
    }
}
