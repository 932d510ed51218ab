//! The fast path: intersecting or not, and if so the depth, normal and contact points, with
//! no report built.
//!
//! It walks the same candidate axes as [`super::sat_report`], measured by the same code, but
//! stops at the first axis with a gap (the early out of Box2D v3's `b2CollidePolygons`) and
//! allocates nothing. So it agrees with `sat_report` exactly: same verdict, same depth, same
//! normal. Every pair of convex kinds takes the same walk without building world views: two
//! circles here, a polygon with a circle ([`super::polygon_circle`]), a capsule with a circle
//! ([`super::capsule_circle`]), and two capsules or segments, a polygon with either, and two
//! polygons over cores held inline ([`super::inline_walk`]); a polygon of more than eight
//! corners takes the general walk on world views.

use super::candidates::{
    Candidate, circles_axis, face_axis_count, face_candidate, rounded_candidate,
};
use super::capsule_capsule::{collide_capsules, two_point};
use super::capsule_circle::collide_capsule_circle;
use super::closest::CLEAR_MARGIN;
use super::contact::{Contact, contact_below, manifold};
use super::polygon_capsule::collide_polygon_capsule;
use super::polygon_circle::collide_polygon_circle;
use super::polygon_polygon::collide_polygons;
use super::types::Side;
use crate::geometry::{DVec2, Placed, Pose, Rounded, Shape};

/// Whether the circles that hold each shape are apart by a clear margin. No trigonometry and
/// no world view: most polygon pairs of a scene end here.
/// Worth asking only where the exact test is costly: with a polygon.
pub(super) fn bounding_circles_clearly_apart(
    (sa, pa): (&Shape, Pose),
    (sb, pb): (&Shape, Pose),
) -> bool {
    let polygon = |s: &Shape| matches!(s, Shape::Polygon(_));
    if !polygon(sa) && !polygon(sb) {
        return false;
    }
    let reach = sa.bounding_radius() + sb.bounding_radius();
    let gap2 = pa
        .apply(sa.local_centre())
        .distance_squared(pb.apply(sb.local_centre()));
    gap2 > reach * reach * (1.0 + CLEAR_MARGIN)
}

/// The contact of two convex shapes (no chain: [`super::collide`] takes those by the chain
/// rule) when their interiors overlap, else `None` (touching shapes do not intersect).
/// `normal` points from A toward B; moving B by `depth * normal` separates them.
pub(crate) fn collide_convex(a: &Placed, b: &Placed) -> Option<Contact> {
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        return collide_circles(a.pose.position, ca.radius(), b.pose.position, cb.radius());
    }
    collide_past_circles((&a.shape, &a.pose), (&b.shape, &b.pose))
}

/// [`collide_convex`] of two shapes each at a pose, without a [`Placed`] of either: what time
/// of impact asks at its steps, where only the poses change.
pub(crate) fn collide_at(a: (&Shape, Pose), b: (&Shape, Pose)) -> Option<Contact> {
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (a.0, b.0) {
        return collide_circles(a.1.position, ca.radius(), b.1.position, cb.radius());
    }
    collide_past_circles((a.0, &a.1), (b.0, &b.1))
}

/// [`collide_convex`] of a pair that is not two circles: each pair of kinds by its path without
/// world views, each the general walk number for number. Kept apart from the two circles,
/// which are cheaper than the registers this one saves on entry.
#[inline(never)]
fn collide_past_circles(
    (shape_a, pose_a): (&Shape, &Pose),
    (shape_b, pose_b): (&Shape, &Pose),
) -> Option<Contact> {
    let (a, b) = ((shape_a, *pose_a), (shape_b, *pose_b));
    let (pose_a, pose_b) = (*pose_a, *pose_b);
    let fast = match (shape_a, shape_b) {
        // A polygon and a circle: their own walk leaves at the first face with a gap, sooner
        // than the bounding circles are measured (which find only what it finds).
        (Shape::Polygon(p), Shape::Circle(c)) => {
            collide_polygon_circle(p, pose_a, pose_b.position, c.radius(), true)
        }
        (Shape::Circle(c), Shape::Polygon(p)) => {
            collide_polygon_circle(p, pose_b, pose_a.position, c.radius(), false)
        }
        (Shape::Capsule(k), Shape::Circle(c)) => {
            collide_capsule_circle(k, pose_a, pose_b.position, c.radius(), true)
        }
        (Shape::Circle(c), Shape::Capsule(k)) => {
            collide_capsule_circle(k, pose_b, pose_a.position, c.radius(), false)
        }
        _ if bounding_circles_clearly_apart(a, b) => return None,
        (Shape::Polygon(p), Shape::Polygon(q)) => collide_polygons((p, pose_a), (q, pose_b)),
        (sa, sb) => match ((sa, two_point(sa)), (sb, two_point(sb))) {
            ((_, Some((ends_a, ra))), (_, Some((ends_b, rb)))) => {
                collide_capsules((ends_a, ra, pose_a), (ends_b, rb, pose_b))
            }
            ((Shape::Polygon(p), _), (_, Some((ends, r)))) => {
                collide_polygon_capsule(p, pose_a, (ends, r, pose_b), true)
            }
            ((_, Some((ends, r))), (Shape::Polygon(p), _)) => {
                collide_polygon_capsule(p, pose_b, (ends, r, pose_a), false)
            }
            _ => Err(()),
        },
    };
    fast.unwrap_or_else(|()| collide_walk(a, b))
}

/// [`collide_at`] always by the general walk on world views (the bounding circles and two
/// circles aside, as before the paths without views): what the tests hold every path to.
#[cfg(test)]
pub(crate) fn collide_by_walk(a: (&Shape, Pose), b: (&Shape, Pose)) -> Option<Contact> {
    if bounding_circles_clearly_apart(a, b) {
        return None;
    }
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (a.0, b.0) {
        return collide_circles(a.1.position, ca.radius(), b.1.position, cb.radius());
    }
    collide_walk(a, b)
}

/// The general walk: both shapes' world views from A's position, every candidate axis, the
/// manifold.
#[inline]
pub(crate) fn collide_walk(a: (&Shape, Pose), b: (&Shape, Pose)) -> Option<Contact> {
    let origin = a.1.position;
    // One at a time: views are large, and a pair built as a tuple is copied once more.
    let ra = Rounded::at(a.0, a.1, origin);
    let rb = Rounded::at(b.0, b.1, origin);
    let least = least_overlap_candidate(&ra, &rb)?;
    let test = least.measure((ra.centre, rb.centre));
    let mut points = manifold(&ra, &rb, test.normal, test.overlap, test.source);
    for p in &mut points {
        p.point += origin;
    }
    Some(Contact {
        depth: test.overlap,
        normal: test.normal,
        points,
    })
}

/// Whether `a` and `b`, seen as `ra` and `rb` (from one origin), intersect: [`collide`]'s
/// verdict without its contact.
pub(crate) fn views_intersect(a: &Placed, b: &Placed, ra: &Rounded, rb: &Rounded) -> bool {
    !bounding_circles_clearly_apart((&a.shape, a.pose), (&b.shape, b.pose))
        && least_overlap_candidate(ra, rb).is_some()
}

/// The candidate axis of least overlap (the first on a tie, as in the report), or `None` as
/// soon as one shows a gap. Only overlaps are compared; the direction is decided for the one
/// kept.
///
/// Face axes are taken in report order but measured on the views' outward normals, with each
/// polygon's known shadow on its own normal: an overlap does not change when its axis is
/// flipped (a clockwise polygon's given normal) or the two shadows are swapped (negating and
/// swapping are exact), so every overlap here is bit for bit the report's, and the first least
/// one is the report's MTV axis.
fn least_overlap_candidate(a: &Rounded, b: &Rounded) -> Option<Candidate> {
    // The least face axis as (overlap, place in the report): plain numbers, chosen without
    // branches, which random geometry would mispredict.
    let (mut least, mut least_place) = (f64::INFINITY, usize::MAX);
    let mut first_place = 0;
    for (own, other) in [(a, b), (b, a)] {
        let count = face_axis_count(own);
        for k in 0..count {
            let i = own.internal_edge(k);
            let overlap = own.own_extent(i).overlap(&other.project(own.normal(i)));
            if overlap <= 0.0 {
                return None;
            }
            let better = overlap < least;
            least = if better { overlap } else { least };
            least_place = if better { first_place + k } else { least_place };
        }
        first_place += count;
    }
    if let Some(rounded) = rounded_candidate(a, b) {
        let overlap = rounded.overlap();
        if overlap <= 0.0 {
            return None;
        }
        if overlap < least {
            return Some(rounded);
        }
    }
    let count_a = face_axis_count(a);
    match least_place {
        usize::MAX => None,
        k if k < count_a => Some(face_candidate(Side::A, a, b, k)),
        k => Some(face_candidate(Side::B, b, a, k - count_a)),
    }
}

/// Two circles, without building world views: the same axis, measurement and contact point as
/// the general walk computes for two 1-point cores (relative to A's centre, as there).
pub(crate) fn collide_circles(
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

#[cfg(test)]
pub(super) mod tests {
    //! The polygon-circle path ([`super::super::polygon_circle`]) against the general walk.
    use super::{collide_by_walk, collide_convex};
    use crate::Shape;
    use crate::geometry::{Circle, ConvexPolygon as Polygon, DVec2, Pose};
    use crate::scene::generate::Random;

    /// Whether `shape` at its pose and the circle of `radius` at `centre` (the shape A when
    /// `shape_is_a`) collide, after asserting that `collide` answers as the general walk does,
    /// to the bit.
    fn same_as_walk(
        (shape, pose): (&Shape, Pose),
        centre: DVec2,
        radius: f64,
        shape_is_a: bool,
    ) -> bool {
        let c = Shape::from(Circle::new(radius).unwrap());
        let at = Pose::new(centre, 0.0);
        let (a, b) = if shape_is_a {
            ((shape, pose), (&c, at))
        } else {
            ((&c, at), (shape, pose))
        };
        let new = collide_convex(
            &crate::Placed::new(a.0.clone(), a.1),
            &crate::Placed::new(b.0.clone(), b.1),
        );
        let old = collide_by_walk(a, b);
        assert_eq!(
            new, old,
            "{shape:?} at {pose:?}, circle {radius} at {centre:?}, A the shape {shape_is_a}"
        );
        new.is_some()
    }

    /// Random pair `k` of a capsule and a circle: a capsule from nearly a circle to a long rod
    /// at one of four scales, at a pose, and a circle from a hundredth of it to ten times it,
    /// its centre near the capsule (even pairs anywhere up to touching, odd ones about
    /// touching): `(capsule, pose, centre, radius)`.
    fn capsule_and_circle(
        r: &mut Random,
        k: usize,
    ) -> (crate::geometry::Capsule, Pose, DVec2, f64) {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let half = r.between(0.0, 2.0) * size;
        let tilt = DVec2::from_angle(r.between(-0.3, 0.3));
        let capsule = crate::geometry::Capsule::new(
            -tilt * half + DVec2::new(0.0, r.between(-0.2, 0.2) * size),
            tilt * half,
            r.between(0.05, 1.0) * size,
        )
        .unwrap();
        let pose = Pose::new(spot(r, size), r.between(-4.0, 4.0));
        let radius = if k % 5 == 4 {
            10f64.powf(r.between(-2.0, 1.0)) * size
        } else {
            r.between(0.05, 1.5) * size
        };
        let reach = Shape::from(capsule).bounding_radius() + radius;
        let d = if k.is_multiple_of(2) {
            r.between(0.0, 1.0)
        } else {
            r.between(0.8, 1.3)
        } * reach;
        let middle = pose.apply((capsule.a() + capsule.b()) * 0.5);
        let centre = middle + DVec2::from_angle(r.between(0.0, 6.3)) * d;
        (capsule, pose, centre, radius)
    }

    /// Whether `a` and `b` collide, after asserting that `collide` answers as the general walk
    /// does, to the bit.
    pub(in crate::query) fn placed_as_walk(a: &crate::Placed, b: &crate::Placed) -> bool {
        let new = collide_convex(a, b);
        let old = collide_by_walk((&a.shape, a.pose), (&b.shape, b.pose));
        assert_eq!(new, old, "{a:?} and {b:?}");
        new.is_some()
    }

    /// Whether `a` and `b` are apart, after asserting that `distance` answers as the general
    /// query does, to the bit.
    pub(in crate::query) fn distance_as_general(a: &crate::Placed, b: &crate::Placed) -> bool {
        use super::super::report::{distance_convex, distance_walk};
        let (new, old) = (distance_convex(a, b), distance_walk(a, b));
        assert_eq!(new, old, "{a:?} {b:?}");
        new.closest.is_some()
    }

    /// A random spot in the box 100 wide around the origin, at the scale `size`.
    pub(in crate::query) fn spot(r: &mut Random, size: f64) -> DVec2 {
        DVec2::new(r.between(-50.0, 50.0), r.between(-50.0, 50.0)) * size
    }

    /// A convex polygon of 3 to 8 corners on a circle of radius about `size` (either winding),
    /// or a box, maybe rounded.
    pub(in crate::query) fn polygon(r: &mut Random, size: f64) -> Polygon {
        let shape = if r.unit() < 0.3 {
            Polygon::rectangle(DVec2::new(r.between(0.2, 2.0), r.between(0.2, 2.0)) * size)
        } else {
            let n = 3 + (r.unit() * 6.0) as usize;
            let mut angles: Vec<f64> = (0..n)
                .map(|_| r.between(0.0, std::f64::consts::TAU))
                .collect();
            angles.sort_by(f64::total_cmp);
            let mut points: Vec<DVec2> = angles
                .iter()
                .map(|a| DVec2::from_angle(*a) * size)
                .collect();
            if r.unit() < 0.5 {
                points.reverse();
            }
            Polygon::new(points).or_else(|_| Polygon::regular(n, size))
        }
        .unwrap();
        if r.unit() < 0.4 {
            shape.with_radius(r.between(0.01, 0.3) * size).unwrap()
        } else {
            shape
        }
    }

    /// The polygon-circle path gives the general walk's contact bit for bit: on 400,000
    /// random pairs (half near touching, polygons plain and rounded in either winding, circles
    /// from a hundredth of the polygon to ten times it, either one A) and on set cases where
    /// overlaps tie (a circle at a box's centre, on a face's middle, at a corner, touching).
    #[test]
    fn the_polygon_circle_path_gives_the_general_walks_contact_exactly() {
        let mut r = Random::new(67);
        let mut hits = 0;
        let mut check =
            |poly: &Polygon, pose: Pose, centre: DVec2, radius: f64, polygon_is_a: bool| {
                let p = Shape::from(poly.clone());
                hits += usize::from(same_as_walk((&p, pose), centre, radius, polygon_is_a));
            };
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let poly = polygon(&mut r, size);
            let pose = Pose::new(spot(&mut r, size), r.between(-4.0, 4.0));
            let radius = if k % 5 == 4 {
                10f64.powf(r.between(-2.0, 1.0)) * size
            } else {
                r.between(0.05, 1.5) * size
            };
            let reach = poly.bounding_radius() + radius;
            let d = if k % 2 == 0 {
                r.between(0.0, 1.0)
            } else {
                r.between(0.8, 1.3)
            } * reach;
            let centre = pose.apply(poly.centroid()) + DVec2::from_angle(r.between(0.0, 6.3)) * d;
            check(&poly, pose, centre, radius, k % 3 != 0);
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
        for poly in [&square, &rounded, &clockwise] {
            for angle in [0.0, 0.5, std::f64::consts::FRAC_PI_2, 1.0e-17] {
                let pose = Pose::new(DVec2::new(3.0, -2.0), angle);
                for local in [
                    DVec2::ZERO,
                    DVec2::new(1.0, 0.0),
                    DVec2::new(1.0, 1.0),
                    DVec2::new(1.5, 0.0),
                    DVec2::new(1.5, 1.5),
                    DVec2::new(0.5, 0.5),
                    DVec2::new(1.2, 0.3),
                    DVec2::new(2.0 + poly.radius(), 0.0),
                ] {
                    for radius in [0.5, 1.0, 0.2] {
                        for a in [true, false] {
                            check(poly, pose, pose.apply(local), radius, a);
                        }
                    }
                }
            }
        }
        assert!(hits > 160_000, "{hits}");
    }

    /// The capsule-circle path gives the general walk's contact bit for bit: on 400,000
    /// random pairs (half near touching, capsules from nearly circles to long rods, circles
    /// from a hundredth of the capsule to ten times it, either one A, at four scales) and on
    /// set cases where axes tie or meet (the centre on the segment, at its middle, at an end,
    /// on its line past an end, touching, a capsule whose ends coincide).
    #[test]
    fn the_capsule_circle_path_gives_the_general_walks_contact_exactly() {
        use crate::geometry::Capsule;
        let mut r = Random::new(68);
        let mut hits = 0;
        let mut check = |capsule: &Capsule, pose: Pose, centre: DVec2, radius: f64, a_is: bool| {
            let k = Shape::from(*capsule);
            hits += usize::from(same_as_walk((&k, pose), centre, radius, a_is));
        };
        for k in 0..400_000 {
            let (capsule, pose, centre, radius) = capsule_and_circle(&mut r, k);
            check(&capsule, pose, centre, radius, k % 3 != 0);
        }
        let rod = Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).unwrap();
        let point = Capsule::new(DVec2::new(0.3, 0.2), DVec2::new(0.3, 0.2), 0.5).unwrap();
        for capsule in [&rod, &point] {
            for angle in [0.0, 0.5, std::f64::consts::FRAC_PI_2, 1.0e-17] {
                let pose = Pose::new(DVec2::new(3.0, -2.0), angle);
                for local in [
                    DVec2::ZERO,
                    DVec2::new(1.0, 0.0),
                    DVec2::new(-1.0, 0.0),
                    DVec2::new(1.5, 0.0),
                    DVec2::new(0.0, 1.0),
                    DVec2::new(1.0, 1.0),
                    DVec2::new(1.5, 1.5),
                    DVec2::new(0.5, 0.5),
                    DVec2::new(2.0, 0.0),
                    DVec2::new(0.0, 0.75),
                ] {
                    for radius in [0.5, 1.0, 0.25] {
                        for a in [true, false] {
                            check(capsule, pose, pose.apply(local), radius, a);
                        }
                    }
                }
            }
        }
        assert!(hits > 160_000, "{hits}");
    }

    /// The capsule-circle and circle-circle distances give the general query's answer bit for
    /// bit, on the same kinds of random pairs (apart, touching within rounding, overlapping;
    /// either one A; every fifth pair two circles).
    #[test]
    fn the_capsule_circle_distance_gives_the_general_answer_exactly() {
        let mut r = Random::new(69);
        let (mut apart, mut touching) = (0, 0);
        for k in 0..400_000 {
            let (capsule, pose, centre, radius) = capsule_and_circle(&mut r, k);
            // Every fifth pair two circles: the capsule's first end's disc and the circle.
            let k_shape = if k % 5 == 0 {
                let end = pose.apply(capsule.a());
                crate::Placed::new(Circle::new(capsule.radius()).unwrap(), Pose::at(end))
            } else {
                crate::Placed::new(Shape::from(capsule), pose)
            };
            let c_shape = crate::Placed::new(Circle::new(radius).unwrap(), Pose::at(centre));
            let (a, b) = if k % 3 != 0 {
                (&k_shape, &c_shape)
            } else {
                (&c_shape, &k_shape)
            };
            if distance_as_general(a, b) {
                apart += 1;
            } else {
                touching += 1;
            }
        }
        assert!(
            apart > 100_000 && touching > 100_000,
            "{apart} apart, {touching} touching"
        );
    }

    /// The polygon-circle distance gives the general query's answer bit for bit, on random
    /// pairs (polygons plain and rounded in either winding, circles apart, touching within
    /// rounding, overlapping, centred inside the core; either one A) and on set cases (the
    /// centre on a face's line, at a corner, on a corner's bisector, inside, a circle of
    /// almost no radius inside).
    #[test]
    fn the_polygon_circle_distance_gives_the_general_answer_exactly() {
        let mut r = Random::new(72);
        let (mut apart, mut touching) = (0, 0);
        let mut check = |poly: &Polygon, pose: Pose, centre: DVec2, radius: f64, a_is: bool| {
            let p = crate::Placed::new(poly.clone(), pose);
            let c = crate::Placed::new(Circle::new(radius).unwrap(), Pose::at(centre));
            let (a, b) = if a_is { (&p, &c) } else { (&c, &p) };
            if distance_as_general(a, b) {
                apart += 1;
            } else {
                touching += 1;
            }
        };
        for k in 0..200_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let poly = polygon(&mut r, size);
            let pose = Pose::new(spot(&mut r, size), r.between(-4.0, 4.0));
            let radius = r.between(0.05, 1.5) * size;
            let reach = poly.bounding_radius() + radius;
            let d = r.between(0.0, 1.3) * reach;
            let centre = pose.apply(poly.centroid()) + DVec2::from_angle(r.between(0.0, 6.3)) * d;
            check(&poly, pose, centre, radius, k % 3 != 0);
        }
        let square = Polygon::rectangle(DVec2::splat(1.0)).unwrap();
        let rounded = square.clone().with_radius(0.25).unwrap();
        for poly in [&square, &rounded] {
            let pose = Pose::new(DVec2::new(3.0, -2.0), 0.5);
            for local in [
                DVec2::ZERO,
                DVec2::new(0.5, 0.5),
                DVec2::new(2.0, 0.0),
                DVec2::new(2.0, 1.0),
                DVec2::new(2.0, 2.0),
                DVec2::new(1.0, 3.0),
                DVec2::new(1.5 + poly.radius(), 0.0),
            ] {
                for radius in [0.5, 1.0, 0.25, 1e-12] {
                    for a in [true, false] {
                        check(poly, pose, pose.apply(local), radius, a);
                    }
                }
            }
        }
        assert!(
            apart > 50_000 && touching > 50_000,
            "{apart} apart, {touching} touching"
        );
    }

    /// What time of impact asks at its steps (`collide_at`, each pair of kinds by its path
    /// without views) is the general walk's answer bit for bit, for every pair of convex kinds
    /// mixed (circles, capsules, segments, polygons plain and rounded), either one A, half
    /// near touching: so moving it onto the paths changed no time of impact, normal or point.
    #[test]
    fn what_time_of_impact_asks_is_the_general_walks_answer_exactly() {
        use super::super::capsule_capsule::tests::rod;
        use super::collide_at;
        let mut r = Random::new(76);
        let mut hits = 0;
        let shape = |r: &mut Random, size: f64, near: DVec2, k: usize| -> (Shape, Pose) {
            match k % 3 {
                0 => (
                    Shape::from(Circle::new(r.between(0.05, 1.5) * size).unwrap()),
                    Pose::at(near),
                ),
                1 => rod(r, size, near, k),
                _ => (
                    Shape::from(polygon(r, size)),
                    Pose::new(near, r.between(-4.0, 4.0)),
                ),
            }
        };
        for k in 0..300_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let at = spot(&mut r, size);
            let a = shape(&mut r, size, at, k / 4);
            let reach = a.0.bounding_radius() + 2.0 * size;
            let d = if k.is_multiple_of(2) {
                r.between(0.0, 0.8)
            } else {
                r.between(0.6, 1.1)
            } * reach;
            let near = at + DVec2::from_angle(r.between(0.0, 6.3)) * d;
            let b = shape(&mut r, size, near, k / 12);
            let (a, b) = ((&a.0, a.1), (&b.0, b.1));
            let new = collide_at(a, b);
            assert_eq!(new, collide_by_walk(a, b), "{a:?} and {b:?}");
            hits += usize::from(new.is_some());
        }
        assert!((60_000..240_000).contains(&hits), "{hits}");
    }
}
