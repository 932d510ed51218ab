//! Two polygons (plain or rounded) collided without building either world view: the
//! separating-axis walk and its manifold over the two cores held inline
//! ([`super::inline_walk`]), as for a polygon and a capsule. Two plain polygons try only their
//! edge normals (the Minkowski difference has no other); with a radius, the line between the
//! cores' closest corners is tried too, found as the general query finds it: each edge of A
//! that faces B against each edge of B that faces A, the first nearest pair kept, the search
//! over at the first that touches.

use super::capsule_capsule::{at_end, closest_ends_axis};
use super::closest::{SegmentClosest, closest_points_segment_segment};
use super::contact::Contact;
use super::inline_walk::collide_inline;
use super::polygon_capsule::PolygonView;
use super::polygon_circle::INLINE;
use crate::geometry::{ConvexPolygon as Polygon, Pose};

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
    let closest = || {
        if !rounded {
            return None;
        }
        let (c, _, _) = closest_edges(&va, &vb)?;
        let inside = va.contains(vb.corners()[0]) || vb.contains(va.corners()[0]);
        if c.distance_squared > 0.0 && inside {
            return None;
        }
        closest_ends_axis(&c, at_end(c.t_a), at_end(c.t_b))
    };
    Ok(collide_inline(&va, &vb, closest, origin))
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
    //! The two-polygon path against the general walk, to the bit.
    use super::super::fast_path::tests::{placed_as_walk, polygon, spot};
    use crate::geometry::{ConvexPolygon as Polygon, DVec2, Placed, Pose};
    use crate::scene::generate::Random;

    /// The two-polygon path gives the general walk's contact bit for bit: on 400,000 random
    /// pairs (plain and rounded, either winding, half near touching, four scales) and on set
    /// cases (boxes face to face, corner to face, corner to corner, stacked, one inside the
    /// other, rounded boxes side by side).
    #[test]
    fn the_two_polygon_path_gives_the_general_walks_contact_exactly() {
        let mut r = Random::new(75);
        let mut hits = 0;
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let pa = polygon(&mut r, size);
            let size_b = size * r.between(0.3, 2.0);
            let pb = polygon(&mut r, size_b);
            let pose_a = Pose::new(spot(&mut r, size), r.between(-4.0, 4.0));
            let reach = pa.bounding_radius() + pb.bounding_radius();
            let d = if k.is_multiple_of(2) {
                r.between(0.0, 0.8)
            } else {
                r.between(0.6, 1.05)
            } * reach;
            let at = pose_a.apply(pa.centroid()) + DVec2::from_angle(r.between(0.0, 6.3)) * d;
            let pose_b = Pose::new(at, r.between(-4.0, 4.0));
            hits += usize::from(placed_as_walk(
                &Placed::new(pa, pose_a),
                &Placed::new(pb, pose_b),
            ));
        }
        let square = Polygon::rectangle(DVec2::splat(1.0)).unwrap();
        let rounded = square.clone().with_radius(0.25).unwrap();
        let clockwise = Polygon::new(vec![
            DVec2::new(-1.0, 1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(-1.0, -1.0),
        ])
        .unwrap();
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
                    (DVec2::new(2.1, 0.5), std::f64::consts::FRAC_PI_4),
                    (DVec2::new(1.0, 2.5), std::f64::consts::FRAC_PI_4),
                    (DVec2::new(0.1, 0.2), 0.3),
                ] {
                    let a = Placed::new(sa.clone(), pose_a);
                    let b = Placed::new(sb.clone(), Pose::new(pose_a.apply(local), angle + turn));
                    placed_as_walk(&a, &b);
                    placed_as_walk(&b, &a);
                }
            }
        }
        // About a third to a half of the random pairs intersect.
        assert!((100_000..300_000).contains(&hits), "{hits}");
    }
}
