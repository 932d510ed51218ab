//! Two capsules (a segment is a capsule of radius 0 here, as in every query) collided without
//! building either world view: the separating-axis walk of [`super::fast_path`] and the
//! manifold of [`super::contact`] for this one pair of kinds, number for number (as
//! [`super::capsule_circle`] does for a capsule and a circle). The same candidate axes in the
//! same order (A's segment normal, B's, then the line between the cores' closest points when
//! both are ends and it is neither normal's line), each measured by the same expressions from
//! the same origin (A's position), the first least overlap kept, the direction by the smaller
//! push (the centres on a tie); then the same reference face (the one the axis names, else the
//! best aligned, A's on a near tie), the same clip ([`super::contact::clip_edge`]) or the same
//! single point (the walk over cores held inline, [`super::inline_walk`]). So it agrees with
//! the walk bit for bit (tested below on random pairs and set cases), and only skips the work
//! of the general walk: two views of up to eight corners, the generic dispatch on kinds, the
//! closest-feature search over every pair of edges.

use super::capsule_circle::{Core, ends_feature, from_closest};
use super::closest::{Proximity, SegmentClosest, closest_points_segment_segment};
use super::contact::{Contact, FACE_ALIGNMENT};
use super::inline_walk::{InlineCore, PARALLEL, collide_inline, intersect_inline};
use crate::geometry::{DVec2, Interval, Pose, Shape, right_perp};

/// One of the pair as its view holds it: the core's ends (`points[0]`, `points[1]`), the
/// outward normal of face 0 (`ends.0 -> ends.1`; face 1 runs back with the opposite normal),
/// the radius, the centre.
pub(super) struct TwoPoint {
    pub ends: (DVec2, DVec2),
    normal: DVec2,
    radius: f64,
    centre: DVec2,
}

impl TwoPoint {
    /// The core with local ends `ends` and `radius` at `pose`, from `origin`; `Err` where the
    /// view is a point (the walk decides there).
    #[inline(always)]
    pub(super) fn of(
        ends: (DVec2, DVec2),
        radius: f64,
        pose: Pose,
        origin: DVec2,
    ) -> Result<Self, ()> {
        let Core {
            centre,
            ends: (p0, p1),
            length,
        } = Core::of(ends, pose, origin)?;
        Ok(Self {
            ends: (p0, p1),
            // What the view's `normalize` computes, reusing the length.
            normal: right_perp(p1 - p0) * (1.0 / length),
            radius,
            centre,
        })
    }
}

impl InlineCore for TwoPoint {
    #[inline(always)]
    fn axis_count(&self) -> usize {
        1
    }

    #[inline(always)]
    fn own_axis(&self, _: usize) -> (DVec2, Interval) {
        (self.normal, self.project(self.normal))
    }

    #[inline(always)]
    fn given_axis(&self, k: usize) -> (DVec2, Interval) {
        self.own_axis(k)
    }

    #[inline(always)]
    fn project(&self, u: DVec2) -> Interval {
        let (d0, d1) = (self.ends.0.dot(u), self.ends.1.dot(u));
        let lo = if d1 < d0 { d1 } else { d0 };
        let hi = if d1 > d0 { d1 } else { d0 };
        Interval::new(lo - self.radius, hi + self.radius)
    }

    #[inline(always)]
    fn repeats(&self, axis: DVec2) -> bool {
        // Face 1's normal is face 0's negated: the same line.
        1.0 - self.normal.dot(axis).abs() <= PARALLEL
    }

    #[inline(always)]
    fn named_face(&self, _: usize, direction: DVec2) -> Option<usize> {
        (0..2).find(|&i| self.face(i).1.dot(direction) >= 1.0 - FACE_ALIGNMENT)
    }

    /// Face 0 unless face 1 is strictly closer.
    #[inline(always)]
    fn best_face(&self, direction: DVec2) -> (usize, f64) {
        let (align0, align1) = (self.normal.dot(direction), (-self.normal).dot(direction));
        if align1 > align0 {
            (1, align1)
        } else {
            (0, align0)
        }
    }

    #[inline(always)]
    fn most_opposed_face(&self, n: DVec2) -> usize {
        let (d0, d1) = (self.normal.dot(n), (-self.normal).dot(n));
        usize::from(d1 < d0)
    }

    /// Face 0 runs `ends.0 -> ends.1`, face 1 back, with the opposite normal.
    #[inline(always)]
    fn face(&self, i: usize) -> ((DVec2, DVec2), DVec2) {
        let (p0, p1) = self.ends;
        if i == 0 {
            ((p0, p1), self.normal)
        } else {
            ((p1, p0), -self.normal)
        }
    }

    #[inline(always)]
    fn support(&self, d: DVec2) -> DVec2 {
        let (p0, p1) = self.ends;
        if p1.dot(d) > p0.dot(d) { p1 } else { p0 }
    }

    #[inline(always)]
    fn radius(&self) -> f64 {
        self.radius
    }

    #[inline(always)]
    fn centre(&self) -> DVec2 {
        self.centre
    }
}

/// The line from A's closest point to B's, when the closest points `c` of two segments are
/// both ends of theirs (inside a segment the line is that segment's normal, a face axis
/// already); `None` when they touch.
#[inline(always)]
pub(super) fn closest_ends_axis(
    c: &SegmentClosest,
    a_corner: bool,
    b_corner: bool,
) -> Option<DVec2> {
    let distance = c.distance_squared.sqrt();
    (distance != 0.0 && a_corner && b_corner).then(|| (c.point_b - c.point_a) / distance)
}

/// Whether `t` along a segment is one of its ends (the view names a corner there).
#[inline(always)]
pub(super) fn at_end(t: f64) -> bool {
    t <= 0.0 || t >= 1.0
}

/// The contact of the core `a` (local ends, radius) at `pose_a` and the core `b` at `pose_b`,
/// or `None` when they do not intersect; the normal points from A toward B. A core whose ends
/// are closer than rounding noise (the walk sees a circle there) gives `Err`: the caller takes
/// the general walk.
pub(crate) fn collide_capsules(
    (ends_a, radius_a, pose_a): ((DVec2, DVec2), f64, Pose),
    (ends_b, radius_b, pose_b): ((DVec2, DVec2), f64, Pose),
) -> Result<Option<Contact>, ()> {
    let origin = pose_a.position;
    let a = TwoPoint::of(ends_a, radius_a, pose_a, origin)?;
    let b = TwoPoint::of(ends_b, radius_b, pose_b, origin)?;
    Ok(collide_inline(&a, &b, || closest_axis(&a, &b), origin))
}

/// The walk's last candidate for two cores: the line between their closest points, when both
/// are ends.
#[inline(always)]
fn closest_axis(a: &TwoPoint, b: &TwoPoint) -> Option<DVec2> {
    let c = closest_points_segment_segment(a.ends.0, a.ends.1, b.ends.0, b.ends.1);
    closest_ends_axis(&c, at_end(c.t_a), at_end(c.t_b))
}

/// Whether the two cores intersect, as [`collide_capsules`] decides it: the walk's verdict
/// (every axis it tries overlaps) without the contact. `Err` where that gives `Err`.
pub(crate) fn capsules_intersect(
    (ends_a, radius_a, pose_a): ((DVec2, DVec2), f64, Pose),
    (ends_b, radius_b, pose_b): ((DVec2, DVec2), f64, Pose),
) -> Result<bool, ()> {
    let origin = pose_a.position;
    let a = TwoPoint::of(ends_a, radius_a, pose_a, origin)?;
    let b = TwoPoint::of(ends_b, radius_b, pose_b, origin)?;
    Ok(intersect_inline(&a, &b, || closest_axis(&a, &b)))
}

/// A capsule's or a segment's local ends and radius (0 for a segment): what the two-capsule
/// paths take.
#[inline(always)]
pub(crate) fn two_point(shape: &Shape) -> Option<((DVec2, DVec2), f64)> {
    match shape {
        Shape::Capsule(k) => Some(((k.a(), k.b()), k.radius())),
        Shape::Segment(s) => Some(((s.a(), s.b()), 0.0)),
        _ => None,
    }
}

/// The distance of the core `a` (local ends, radius) at `pose_a` and the core `b` at `pose_b`
/// as [`super::distance`] finds it (from A's position, the segments' closest points, the radii
/// taken off A's first), number for number; `Err` where the general query must decide (a core
/// whose ends coincide, or cores within rounding of touching, where it asks the
/// separating-axis walk).
pub(crate) fn distance_capsules(
    (ends_a, radius_a, pose_a): ((DVec2, DVec2), f64, Pose),
    (ends_b, radius_b, pose_b): ((DVec2, DVec2), f64, Pose),
) -> Result<Proximity, ()> {
    let origin = pose_a.position;
    let a = Core::of(ends_a, pose_a, origin)?;
    let b = Core::of(ends_b, pose_b, origin)?;
    let c = closest_points_segment_segment(a.ends.0, a.ends.1, b.ends.0, b.ends.1);
    let distance = c.distance_squared.sqrt();
    from_closest(
        (c.point_a, ends_feature(c.t_a), radius_a, a.centre),
        (c.point_b, ends_feature(c.t_b), radius_b, b.centre),
        distance,
        origin,
    )
}

#[cfg(test)]
pub(super) mod tests {
    //! The two-capsule path against the general walk, to the bit.
    use super::super::fast_path::tests::{distance_as_general, placed_as_walk, spot};
    use crate::geometry::{Capsule, DVec2, Placed, Pose, Segment, Shape};
    use crate::scene::generate::Random;

    /// Whether `a` and `b` collide, after asserting that `collide` answers as the general walk
    /// does, to the bit.
    fn same_as_walk(a: (&Shape, Pose), b: (&Shape, Pose)) -> bool {
        placed_as_walk(
            &Placed::new(a.0.clone(), a.1),
            &Placed::new(b.0.clone(), b.1),
        )
    }

    /// A capsule from nearly a circle to a long rod about `size` (a segment in every seventh
    /// pair), at a pose near `near`.
    pub(in crate::query) fn rod(r: &mut Random, size: f64, near: DVec2, k: usize) -> (Shape, Pose) {
        let half = r.between(0.0, 2.0) * size;
        let tilt = DVec2::from_angle(r.between(-0.3, 0.3));
        let (a, b) = (
            -tilt * half + DVec2::new(0.0, r.between(-0.2, 0.2) * size),
            tilt * half,
        );
        let shape = if k % 7 == 3 && a != b {
            Shape::from(Segment::new(a, b).unwrap())
        } else {
            Shape::from(Capsule::new(a, b, r.between(0.05, 1.0) * size).unwrap())
        };
        let pose = Pose::new(near, r.between(-4.0, 4.0));
        (shape, pose)
    }

    /// Random pair `k` of capsules (or segments, see [`rod`]) at one of four scales, B's
    /// centre from well inside A's reach (even pairs) to about touching (odd ones).
    pub(in crate::query) fn rod_pair(r: &mut Random, k: usize) -> ((Shape, Pose), (Shape, Pose)) {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let at = spot(r, size);
        let a = rod(r, size, at, k);
        let reach = a.0.bounding_radius() + 3.0 * size;
        let d = if k.is_multiple_of(2) {
            r.between(0.0, 0.7)
        } else {
            r.between(0.5, 1.0)
        } * reach;
        let near = at + DVec2::from_angle(r.between(0.0, 6.3)) * d;
        let b = rod(r, size, near, k + 1);
        (a, b)
    }

    /// The two-capsule path gives the general walk's contact bit for bit: on 400,000 random
    /// pairs (half near touching, capsules from nearly circles to long rods, some segments,
    /// at four scales) and on set cases where axes tie or meet (parallel rods side by side,
    /// end to end, stacked end over end, crossing, touching, one on the other's line, ends that
    /// coincide).
    #[test]
    fn the_two_capsule_path_gives_the_general_walks_contact_exactly() {
        let mut r = Random::new(70);
        let mut hits = 0;
        for k in 0..400_000 {
            let (a, b) = rod_pair(&mut r, k);
            hits += usize::from(same_as_walk((&a.0, a.1), (&b.0, b.1)));
        }
        let rod =
            Shape::from(Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).unwrap());
        let point =
            Shape::from(Capsule::new(DVec2::new(0.3, 0.2), DVec2::new(0.3, 0.2), 0.5).unwrap());
        let bare = Shape::from(Segment::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)).unwrap());
        for (sa, sb) in [
            (&rod, &rod),
            (&rod, &point),
            (&point, &rod),
            (&rod, &bare),
            (&bare, &bare),
            (&bare, &rod),
        ] {
            for angle_a in [0.0, 0.5, 1.0e-17] {
                let pose_a = Pose::new(DVec2::new(3.0, -2.0), angle_a);
                for angle_b in [
                    0.0,
                    std::f64::consts::FRAC_PI_2,
                    std::f64::consts::PI,
                    0.5,
                    -0.5,
                ] {
                    for local in [
                        DVec2::ZERO,
                        DVec2::new(1.0, 0.0),
                        DVec2::new(2.0, 0.0),
                        DVec2::new(3.0, 0.0),
                        DVec2::new(0.0, 1.0),
                        DVec2::new(0.0, 0.5),
                        DVec2::new(1.0, 1.0),
                        DVec2::new(2.0, 1.0),
                        DVec2::new(2.5, 0.5),
                        DVec2::new(0.5, 0.25),
                        DVec2::new(2.0, 0.8),
                        DVec2::new(2.0001, 0.8),
                    ] {
                        let pose_b = Pose::new(pose_a.apply(local), angle_a + angle_b);
                        same_as_walk((sa, pose_a), (sb, pose_b));
                    }
                }
            }
        }
        // About a third of the random pairs intersect.
        assert!((100_000..300_000).contains(&hits), "{hits}");
    }

    /// The two-capsule distance gives the general query's answer bit for bit, on the same
    /// kinds of random pairs (apart, touching within rounding, overlapping; some segments).
    #[test]
    fn the_two_capsule_distance_gives_the_general_answer_exactly() {
        let mut r = Random::new(71);
        let (mut apart, mut touching) = (0, 0);
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let at = spot(&mut r, size);
            let a = rod(&mut r, size, at, k);
            let reach = a.0.bounding_radius() + 3.0 * size;
            let near = at + DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 1.0) * reach;
            let b = rod(&mut r, size, near, k + 1);
            let (a, b) = (Placed::new(a.0, a.1), Placed::new(b.0, b.1));
            if distance_as_general(&a, &b) {
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
}
