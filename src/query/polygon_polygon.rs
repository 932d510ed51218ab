//! Two polygons (plain or rounded) collided without building either world view: the
//! separating-axis walk and its manifold over the two cores held inline
//! ([`super::inline_walk`]), as for a polygon and a capsule. Two plain polygons try only their
//! edge normals (the Minkowski difference has no other); with a radius, the line between the
//! cores' closest corners is tried too, found as the general query finds it: each edge of A
//! that faces B against each edge of B that faces A, the first nearest pair kept, the search
//! over at the first that touches.

use super::capsule_capsule::{at_end, closest_ends_axis};
use super::closest::{
    Proximity, SegmentClosest, closest_points_segment_segment, closest_polygon_cores,
    proximity_from,
};
use super::contact::Contact;
use super::inline_walk::{collide_inline, intersect_inline};
use super::polygon_capsule::PolygonView;
use super::polygon_circle::INLINE;
use crate::geometry::{ConvexPolygon as Polygon, DVec2, Pose};

/// The contact of polygon `a` at `pose_a` and polygon `b` at `pose_b`, or `None` when they do
/// not intersect (the normal points from A toward B); `Err` for a polygon past the inline
/// corners, which the general walk takes.
pub(crate) fn collide_polygons(
    (a, pose_a): (&Polygon, Pose),
    (b, pose_b): (&Polygon, Pose),
) -> Result<Option<Contact>, ()> {
    if a.points().len() > INLINE || b.points().len() > INLINE {
        return Err(());
    }
    let origin = pose_a.position;
    let va = PolygonView::of(a, pose_a, origin);
    let vb = PolygonView::of(b, pose_b, origin);
    let rounded = a.radius() != 0.0 || b.radius() != 0.0;
    Ok(collide_inline(
        &va,
        &vb,
        || closest_axis(&va, &vb, rounded),
        origin,
    ))
}

/// The line between the cores' closest corners, as the walk's rounded axis finds it, for a
/// pair with a radius: none when a corner of one core lies inside the other, or the closest
/// points are not both corners.
#[inline(always)]
fn closest_axis(va: &PolygonView, vb: &PolygonView, rounded: bool) -> Option<DVec2> {
    if !rounded {
        return None;
    }
    let (c, _, _) = closest_edges(va, vb)?;
    let inside = va.contains(vb.corners()[0]) || vb.contains(va.corners()[0]);
    if c.distance_squared > 0.0 && inside {
        return None;
    }
    closest_ends_axis(&c, at_end(c.t_a), at_end(c.t_b))
}

/// The distance of polygon `a` at `pose_a` and polygon `b` at `pose_b` as the general query
/// finds it, number for number: touching when the walk finds them intersecting (`near`: their
/// bounding circles are not clearly apart; else it is not asked), else the cores' closest
/// points by the slab-proved search from the edges facing across the centres, moved out by
/// the radii. `Err` for a polygon past the inline corners.
pub(crate) fn distance_polygons(
    (a, pose_a): (&Polygon, Pose),
    (b, pose_b): (&Polygon, Pose),
    near: bool,
) -> Result<Proximity, ()> {
    if a.points().len() > INLINE || b.points().len() > INLINE {
        return Err(());
    }
    let origin = pose_a.position;
    let va = PolygonView::of(a, pose_a, origin);
    let vb = PolygonView::of(b, pose_b, origin);
    let rounded = a.radius() != 0.0 || b.radius() != 0.0;
    if near && intersect_inline(&va, &vb, || closest_axis(&va, &vb, rounded)) {
        return Ok(Proximity {
            distance: 0.0,
            closest: None,
        });
    }
    let found = closest_polygon_cores(&va, &vb, None).map(|(c, _)| c);
    Ok(proximity_from(found, (a.radius(), b.radius()), origin))
}

/// The closest pair of edges of `a` and `b` that face each other, the first on a tie, or the
/// first pair that touches: the points and both edges.
#[inline(always)]
fn closest_edges(a: &PolygonView, b: &PolygonView) -> Option<(SegmentClosest, usize, usize)> {
    let (n, m) = (a.corners().len(), b.corners().len());
    let mut b_faces = [false; INLINE];
    for (l, faces) in b_faces.iter_mut().enumerate().take(m) {
        *faces = b.faces(l, a.corners());
    }
    let mut best: Option<(SegmentClosest, usize, usize)> = None;
    for k in 0..n {
        if !a.faces(k, b.corners()) {
            continue;
        }
        let (a0, a1) = a.edge(k);
        for (l, _) in b_faces.iter().enumerate().take(m).filter(|(_, f)| **f) {
            let (b0, b1) = b.edge(l);
            let c = closest_points_segment_segment(a0, a1, b0, b1);
            if best.is_none_or(|(old, _, _)| c.distance_squared < old.distance_squared) {
                best = Some((c, k, l));
                if c.distance_squared == 0.0 {
                    return best;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    //! The two-polygon paths against the general walk and the general distance, to the bit.
    use super::super::fast_path::tests::{distance_as_general, placed_as_walk, polygon, spot};
    use crate::geometry::{ConvexPolygon as Polygon, DVec2, Placed, Pose};
    use crate::scene::generate::Random;

    /// Random pair `k`: plain and rounded polygons, either winding, four scales, B's centroid
    /// `spread` times the bounding radii from A's at most (half of them near touching).
    fn random_pair(r: &mut Random, k: usize, spread: f64) -> (Placed, Placed) {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let pa = polygon(r, size);
        let size_b = size * r.between(0.3, 2.0);
        let pb = polygon(r, size_b);
        let pose_a = Pose::new(spot(r, size), r.between(-4.0, 4.0));
        let reach = pa.bounding_radius() + pb.bounding_radius();
        let d = if k.is_multiple_of(2) {
            r.between(0.0, 0.8)
        } else {
            r.between(0.6, spread)
        } * reach;
        let at = pose_a.apply(pa.centroid()) + DVec2::from_angle(r.between(0.0, 6.3)) * d;
        let pose_b = Pose::new(at, r.between(-4.0, 4.0));
        (Placed::new(pa, pose_a), Placed::new(pb, pose_b))
    }

    /// Set pairs, each both ways round: boxes face to face, corner to face, corner to corner,
    /// stacked, one inside the other, touching exactly, rounded boxes side by side.
    fn set_pairs() -> Vec<(Placed, Placed)> {
        let square = Polygon::rectangle(DVec2::splat(1.0)).unwrap();
        let rounded = square.clone().with_radius(0.25).unwrap();
        let clockwise = Polygon::new(vec![
            DVec2::new(-1.0, 1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(-1.0, -1.0),
        ])
        .unwrap();
        let mut pairs = Vec::new();
        for (sa, sb) in [
            (&square, &square),
            (&square, &rounded),
            (&rounded, &rounded),
            (&clockwise, &square),
            (&rounded, &clockwise),
        ] {
            for angle in [0.0, 0.5, 1.0e-17] {
                let pose_a = Pose::new(DVec2::new(3.0, -2.0), angle);
                for (local, turn) in [
                    (DVec2::ZERO, 0.0),
                    (DVec2::new(0.0, 1.9), 0.0),
                    (DVec2::new(0.0, 2.0), 0.0),
                    (DVec2::new(2.4, 0.0), 0.0),
                    (DVec2::new(1.9, 1.9), 0.0),
                    (DVec2::new(2.2, 2.2), 0.0),
                    (DVec2::new(3.0, 0.5), 0.0),
                    (DVec2::new(2.1, 0.5), std::f64::consts::FRAC_PI_4),
                    (DVec2::new(1.0, 2.5), std::f64::consts::FRAC_PI_4),
                    (DVec2::new(2.0, 3.0), std::f64::consts::FRAC_PI_4),
                    (DVec2::new(0.1, 0.2), 0.3),
                ] {
                    let a = Placed::new(sa.clone(), pose_a);
                    let b = Placed::new(sb.clone(), Pose::new(pose_a.apply(local), angle + turn));
                    pairs.push((b.clone(), a.clone()));
                    pairs.push((a, b));
                }
            }
        }
        pairs
    }

    /// `check` (which asserts) on 400,000 random pairs seeded `seed` (see [`random_pair`])
    /// and on the set pairs: how many random ones it says yes to.
    fn over_pairs(seed: u64, spread: f64, check: fn(&Placed, &Placed) -> bool) -> usize {
        let mut r = Random::new(seed);
        let yes = (0..400_000)
            .filter(|&k| {
                let (a, b) = random_pair(&mut r, k, spread);
                check(&a, &b)
            })
            .count();
        for (a, b) in set_pairs() {
            check(&a, &b);
        }
        yes
    }

    /// The two-polygon path gives the general walk's contact bit for bit: on 400,000 random
    /// pairs (plain and rounded, either winding, half near touching, four scales) and on the
    /// set pairs.
    #[test]
    fn the_two_polygon_path_gives_the_general_walks_contact_exactly() {
        let hits = over_pairs(75, 1.05, placed_as_walk);
        // About a third to a half of the random pairs intersect.
        assert!((100_000..300_000).contains(&hits), "{hits}");
    }

    /// The two-polygon distance gives the general query's answer bit for bit (distance,
    /// closest points, features): on 400,000 random pairs (plain and rounded, either winding,
    /// four scales, half of them near touching and some far apart) and on the set pairs.
    #[test]
    fn the_two_polygon_distance_gives_the_general_answer_exactly() {
        let apart = over_pairs(84, 1.5, distance_as_general);
        assert!((100_000..300_000).contains(&apart), "{apart} apart");
    }
}
