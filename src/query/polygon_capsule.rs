//! A polygon (plain or rounded) and a capsule (or a segment) asked without building either
//! world view: `distance` is the general query's closest points and margins for this one pair
//! of kinds, number for number (as [`super::polygon_circle`] does for a circle). The same
//! closest-feature search (the capsule's segment against each polygon edge that faces it, in
//! the view's order, the first nearest kept, stopping at the first that touches), the same
//! features named, the same margins from the same origin (A's position).

use super::capsule_circle::{Core, from_closest};
use super::closest::{Proximity, SegmentClosest, closest_points_segment_segment};
use super::polygon_circle::{PolygonCore, inside_core};
use crate::geometry::{ConvexPolygon as Polygon, DVec2, Feature, Pose};

/// The distance of `polygon` at `pose` and the core with local ends `ends` and `radius` at
/// `pose_k` (a capsule, or a segment of radius 0) as [`super::distance`] finds it, number for
/// number; `polygon_is_a` says which of the pair the polygon is. `Err` where the general query
/// must decide (a polygon past the inline corners, a core whose ends coincide, cores within
/// rounding of touching).
pub(crate) fn distance_polygon_capsule(
    polygon: &Polygon,
    pose: Pose,
    (ends, radius, pose_k): ((DVec2, DVec2), f64, Pose),
    polygon_is_a: bool,
) -> Result<Proximity, ()> {
    if !PolygonCore::fits(polygon) {
        return Err(());
    }
    let origin = if polygon_is_a {
        pose.position
    } else {
        pose_k.position
    };
    let poly = PolygonCore::of(polygon, pose, origin);
    let core = Core::of(ends, pose_k, origin)?;
    let (q0, q1) = core.ends;
    // The polygon's edges with an end of the segment on or in front of their line (the others
    // hold no closest point), each against the segment, A's segment first; the first nearest
    // kept, the search over at the first that touches.
    let mut best: Option<(SegmentClosest, usize)> = None;
    for k in 0..poly.n {
        let edge = (k, poly.normal(k));
        if poly.in_front(edge, q0) < 0.0 && poly.in_front(edge, q1) < 0.0 {
            continue;
        }
        let (p0, p1) = poly.edge(k);
        let c = if polygon_is_a {
            closest_points_segment_segment(p0, p1, q0, q1)
        } else {
            closest_points_segment_segment(q0, q1, p0, p1)
        };
        if best.is_none_or(|(old, _)| c.distance_squared < old.distance_squared) {
            best = Some((c, k));
            if c.distance_squared == 0.0 {
                break;
            }
        }
    }
    // No edge faces the segment, or its first end lies inside the polygon's core apart from
    // a touch: a point of one core inside the other.
    let inside = match best {
        None => true,
        Some((c, _)) => c.distance_squared > 0.0 && poly.contains(q0),
    };
    if inside {
        let reach = core.length + (core.centre.abs() + poly.centre.abs()).max_element();
        return inside_core(radius + poly.radius, reach);
    }
    let (c, k) = best.ok_or(())?;
    let (on_polygon, t_polygon, on_core, t_core) = if polygon_is_a {
        (c.point_a, c.t_a, c.point_b, c.t_b)
    } else {
        (c.point_b, c.t_b, c.point_a, c.t_a)
    };
    let on_segment = if t_core <= 0.0 {
        Feature::Vertex(0)
    } else if t_core >= 1.0 {
        Feature::Vertex(1)
    } else {
        Feature::Edge(0)
    };
    let polygon_side = (
        on_polygon,
        poly.feature_at(k, t_polygon),
        poly.radius,
        poly.centre,
    );
    let core_side = (on_core, on_segment, radius, core.centre);
    let distance = c.distance_squared.sqrt();
    match polygon_is_a {
        true => from_closest(polygon_side, core_side, distance, origin),
        false => from_closest(core_side, polygon_side, distance, origin),
    }
}

#[cfg(test)]
mod tests {
    //! The polygon-capsule distance against the general query, to the bit.
    use super::super::capsule_capsule::tests::rod;
    use super::super::fast_path::tests::polygon;
    use super::super::report::{distance_convex, distance_walk};
    use crate::geometry::{DVec2, Placed, Pose};
    use crate::scene::generate::Random;

    /// The polygon-capsule distance gives the general query's answer bit for bit: on 200,000
    /// random pairs (polygons plain and rounded in either winding, capsules from nearly
    /// circles to long rods and some segments, apart, touching within rounding, overlapping,
    /// one inside the other; either one A; four scales) and on set cases (a rod along a face,
    /// across a corner, inside, end on a face).
    #[test]
    fn the_polygon_capsule_distance_gives_the_general_answer_exactly() {
        let mut r = Random::new(73);
        let (mut apart, mut touching) = (0, 0);
        let mut check = |a: &Placed, b: &Placed| {
            let (new, old) = (distance_convex(a, b), distance_walk(a, b));
            assert_eq!(new, old, "{a:?} {b:?}");
            if new.closest.is_some() {
                apart += 1;
            } else {
                touching += 1;
            }
        };
        for k in 0..200_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let poly = polygon(&mut r, size);
            let pose = Pose::new(
                DVec2::new(r.between(-50.0, 50.0), r.between(-50.0, 50.0)) * size,
                r.between(-4.0, 4.0),
            );
            let reach = poly.bounding_radius() + 3.0 * size;
            let centre = pose.apply(poly.centroid())
                + DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 1.0) * reach;
            let (shape, at) = rod(&mut r, size, centre, k);
            let (p, c) = (Placed::new(poly, pose), Placed::new(shape, at));
            if k % 3 == 0 {
                check(&c, &p);
            } else {
                check(&p, &c);
            }
        }
        let square = crate::geometry::ConvexPolygon::rectangle(DVec2::splat(1.0)).unwrap();
        let rounded = square.clone().with_radius(0.25).unwrap();
        let bar = crate::geometry::Capsule::new(DVec2::new(-0.5, 0.0), DVec2::new(0.5, 0.0), 0.25)
            .unwrap();
        for poly in [&square, &rounded] {
            let pose = Pose::new(DVec2::new(3.0, -2.0), 0.5);
            for (local, angle) in [
                (DVec2::ZERO, 0.0),
                (DVec2::new(0.0, 1.5), 0.0),
                (DVec2::new(0.0, 1.2), 0.0),
                (DVec2::new(1.5, 1.5), std::f64::consts::FRAC_PI_4),
                (DVec2::new(2.0, 0.0), 0.0),
                (DVec2::new(1.6, 0.0), 0.0),
                (DVec2::new(0.2, 0.1), 1.0),
            ] {
                let p = Placed::new(poly.clone(), pose);
                let c = Placed::new(bar, Pose::new(pose.apply(local), 0.5 + angle));
                check(&p, &c);
                check(&c, &p);
            }
        }
        assert!(
            apart > 50_000 && touching > 50_000,
            "{apart} apart, {touching} touching"
        );
    }
}
