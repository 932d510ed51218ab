//! Time of impact's search: without views against the search over views, a turning step
//! against the step that seeks every root, and Newton's steps aimed a hair short of touching
//! against steps aimed at touching (apart from `toi.rs`, to keep that file short enough to
//! hold in mind).
use super::super::fast_path::tests::polygon;
use super::{
    ADVANCEMENT_DISTANCE, ClosestPoints, NEWTON_AIM, ToiState, Turning, Velocity,
    proximity_of_apart_near, reach, search, shadows_of,
};
use crate::geometry::{Capsule, Circle, DVec2, Feature, Placed, Pose, Rounded, Segment, Shape};
use crate::query::distance;
use crate::scene::generate::Random;

/// A circle, a capsule, a segment, a capsule whose ends are within rounding of each
/// other (a point to its view), or a polygon (see [`polygon`]), about `size`.
fn two_point_shape(r: &mut Random, kind: usize, size: f64) -> Shape {
    let tilt = DVec2::from_angle(r.between(0.0, 6.3));
    let half = r.between(0.05, 2.0) * size;
    let radius = r.between(0.05, 1.0) * size;
    match kind % 7 {
        0 | 5 => Circle::new(radius).unwrap().into(),
        1 | 2 => Capsule::new(-tilt * half, tilt * half * 0.7, radius)
            .unwrap()
            .into(),
        3 => Segment::new(-tilt * half, tilt * half).unwrap().into(),
        6 => polygon(r, size).into(),
        _ => {
            let at = tilt * half;
            Capsule::new(at, at + DVec2::new(at.x * 1e-17, 0.0), radius)
                .unwrap()
                .into()
        }
    }
}

/// Poses for `sa` and `sb` about `size` apart at random: A within 50 sizes of the origin, B 0.3
/// to 3 times their reach away; with B's heading toward A (within 0.4 rad) and that gap.
fn apart(r: &mut Random, (sa, sb): (&Shape, &Shape), size: f64) -> (Pose, Pose, DVec2, f64) {
    let pose_a = Pose::new(
        DVec2::new(r.between(-50.0, 50.0), r.between(-50.0, 50.0)) * size,
        r.between(-4.0, 4.0),
    );
    let reach = sa.bounding_radius() + sb.bounding_radius();
    let away = DVec2::from_angle(r.between(0.0, 6.3));
    let gap = r.between(0.3, 3.0) * reach;
    let pose_b = Pose::new(pose_a.position + away * gap, r.between(-4.0, 4.0));
    let heading = DVec2::from_angle(r.between(-0.4, 0.4)).rotate(-away);
    (pose_a, pose_b, heading, gap)
}

/// A turning step that skips the fixed direction's root where `L` has closed by the step
/// already found is the step that finds every root, to the bit: 200,000 random pairs of
/// every convex kind at four scales, turning and moving at random, at random times left.
#[test]
fn a_turning_step_skips_only_roots_that_cannot_lengthen_it() {
    let mut r = Random::new(6767);
    let (mut faces, mut stepped) = (0, 0);
    for k in 0..200_000 {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        // Polygons in most pairs: they have faces on both sides.
        let kind = |odd: bool, other: usize| if odd { 6 } else { other };
        let (sa, sb) = (
            two_point_shape(&mut r, kind(k % 3 != 0, k / 4), size),
            two_point_shape(&mut r, kind(k % 2 == 0, k / 28), size),
        );
        let origin = DVec2::new(r.between(-50.0, 50.0), r.between(-50.0, 50.0)) * size;
        let pa = Pose::new(origin, r.between(-4.0, 4.0));
        let away = DVec2::from_angle(r.between(0.0, 6.3));
        let reach_both = sa.bounding_radius() + sb.bounding_radius();
        let pb = Pose::new(
            origin + away * r.between(0.2, 3.0) * reach_both,
            r.between(-4.0, 4.0),
        );
        let mut velocity = || Velocity {
            linear: DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 3.0) * size,
            angular: r.between(-3.0, 3.0),
        };
        let (va, vb) = (velocity(), velocity());
        let (ra, rb) = (Rounded::at(&sa, pa, origin), Rounded::at(&sb, pb, origin));
        let Some(c) = proximity_of_apart_near(&ra, &rb, origin, &mut None).closest else {
            continue;
        };
        let c = ClosestPoints {
            point_a: c.point_a - origin,
            point_b: c.point_b - origin,
            ..c
        };
        let motion = Turning {
            centres: [pa.position - origin, pb.position - origin],
            velocities: [va, vb],
            reach: [reach(&sa), reach(&sb)],
        };
        let target = 0.5 * ADVANCEMENT_DISTANCE * reach_both;
        let limit = r.between(0.001, 1.0);
        let step = motion.safe_step(&ra, &rb, c, target, limit);
        let every = motion.step_by::<true>(&ra, &rb, c, target, limit);
        assert_eq!(
            step.to_bits(),
            every.to_bits(),
            "{sa:?} {pa:?} {va:?}, {sb:?} {pb:?} {vb:?}"
        );
        faces += usize::from(
            matches!(c.feature_a, Feature::Edge(_)) || matches!(c.feature_b, Feature::Edge(_)),
        );
        stepped += usize::from(step > 0.0 && step < limit);
    }
    assert!(
        faces > 50_000 && stepped > 30_000,
        "{faces} at faces, {stepped} steps short of the limit"
    );
}

/// Shadows made through the plain array are those pushed one by one, for every count up
/// to past the array's room.
#[test]
fn shadows_are_those_pushed_one_by_one() {
    let points: Vec<DVec2> = (0..12)
        .map(|i| DVec2::new(i as f64, 1.5 - i as f64))
        .collect();
    let shadow = |p: DVec2| (p.x * 0.25 - p.y, p.y * 3.0);
    for n in 0..=points.len() {
        let pushed: Vec<(f64, f64)> = points[..n].iter().map(|&p| shadow(p)).collect();
        assert_eq!(
            shadows_of(&points[..n], shadow).as_slice(),
            pushed.as_slice()
        );
    }
}

/// The first touch of core points `pa` (of A, moving at `va`) and `pb` (of B, at `vb`)
/// grown by radii summing to `radius`, after `t0` (points given at `t0`), by the plain
/// quadratic: the time and the normal then. A reference apart from the search's own
/// closed form.
fn points_touch(pa: DVec2, pb: DVec2, radius: f64, w: DVec2) -> Option<(f64, DVec2)> {
    let q = pb - pa;
    let (qa, qb, qc) = (w.dot(w), 2.0 * q.dot(w), q.dot(q) - radius * radius);
    let disc = qb * qb - 4.0 * qa * qc;
    (qa > 0.0 && disc >= 0.0).then(|| {
        let s = (-qb - disc.sqrt()) / (2.0 * qa);
        (s, (q + w * s).normalize())
    })
}

/// A translating search aimed a hair short of touching (`NEWTON_AIM`) answers as the
/// search aimed at touching did, to 1e-9 (the state the same; the time, the normal and the
/// point), on 100,000 random pairs of every convex kind at four scales, B heading at A or
/// past it, A moving too in half of them. Except where the one aimed at touching was
/// wrong, and the aimed one is held to the truth there:
/// - landed on distance 0 exactly, it kept the point (and the normal) of the step before:
///   the aimed search's point is where the shapes are closest at its time;
/// - two corners (or centres) closest, its closed form to the contact was refused where
///   rounding put the root a hair inside (and the normal was the last well-measured
///   direction, off by the motion since): the normal is the plain quadratic's, to 1e-9.
///   Two bare corners touching have no one normal, and are not compared.
#[test]
fn a_newton_step_aimed_short_answers_as_one_aimed_at_touching() {
    let mut r = Random::new(4141);
    let (mut hits, mut worst) = (0, 0.0f64);
    let (mut stale, mut corners) = (0, 0);
    let (mut steps_aimed, mut steps_touching) = (0, 0);
    for k in 0..100_000 {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let kind = |odd: bool, other: usize| if odd { 6 } else { other };
        let (sa, sb) = (
            two_point_shape(&mut r, kind(k % 3 != 0, k / 4), size),
            two_point_shape(&mut r, kind(k % 2 == 0, k / 28), size),
        );
        let (pose_a, pose_b, heading, gap) = apart(&mut r, (&sa, &sb), size);
        let va = Velocity::linear(if k % 2 == 0 {
            DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 0.5) * gap
        } else {
            DVec2::ZERO
        });
        let vb = Velocity::linear(heading * r.between(0.5, 2.0) * gap);
        let (a, b) = (Placed::new(sa, pose_a), Placed::new(sb, pose_b));
        let search_aimed = |aim: f64| search::<true>(&a, va, &b, vb, 1.0, aim);
        let (aimed, touching) = (search_aimed(NEWTON_AIM), search_aimed(0.0));
        let case = format!("{a:?} {va:?}, {b:?} {vb:?}: {aimed:?} {touching:?}");
        assert_eq!(aimed.state, touching.state, "{case}");
        steps_aimed += aimed.steps.len();
        steps_touching += touching.steps.len();
        let within = |x: f64, y: f64, what: &str| {
            assert!((x - y).abs() <= 1e-9, "{what}: {x} against {y}: {case}");
            (x - y).abs()
        };
        let (Some(t), Some(t_touching)) = (aimed.toi, touching.toi) else {
            continue;
        };
        worst = worst.max(within(t, t_touching, "time"));
        if aimed.state != ToiState::Hit {
            continue;
        }
        hits += 1;
        let (n, p) = (aimed.normal.unwrap(), aimed.point.unwrap() / size);
        let (at_a, at_b) = (va.advance(a.pose, t), vb.advance(b.pose, t));
        let (pa, pb) = (
            Placed::new(a.shape.clone(), at_a),
            Placed::new(b.shape.clone(), at_b),
        );
        let closest = distance(&pa, &pb).closest.unwrap();
        let landed_on_contact = touching.steps.last().is_some_and(|s| s.distance == 0.0);
        let point = |placed: &Placed, f: Feature| match (&placed.shape, f) {
            (Shape::Polygon(q), Feature::Vertex(i)) => {
                Some((placed.pose.apply(q.points()[i]), q.radius()))
            }
            (Shape::Circle(c), _) => Some((placed.pose.position, c.radius())),
            _ => None,
        };
        let two_points = point(&pa, closest.feature_a).zip(point(&pb, closest.feature_b));
        // Two corners (or centres) that touch now by the plain quadratic: its normal.
        let exact = two_points.and_then(|((ca, ra), (cb, rb))| {
            points_touch(ca, cb, ra + rb, vb.linear - va.linear)
                .filter(|(s, _)| ra + rb > 0.0 && s.abs() <= 1e-9)
        });
        let bare_corners = two_points.is_some_and(|((_, ra), (_, rb))| ra + rb == 0.0);
        let (n0, p0) = (touching.normal.unwrap(), touching.point.unwrap() / size);
        if landed_on_contact {
            stale += 1;
            let midpoint = (closest.point_a + closest.point_b) * 0.5 / size;
            within(p.x, midpoint.x, "point where closest");
            within(p.y, midpoint.y, "point where closest");
        } else if let Some((_, exact)) = exact {
            corners += 1;
            within(n.x, exact.x, "normal of corners");
            within(n.y, exact.y, "normal of corners");
        } else {
            let normal = if bare_corners {
                vec![]
            } else {
                vec![(n.x, n0.x), (n.y, n0.y)]
            };
            for (x, y) in normal.into_iter().chain([(p.x, p0.x), (p.y, p0.y)]) {
                worst = worst.max(within(x, y, "normal or point"));
            }
        }
    }
    assert!(
        hits > 30_000 && stale > 0 && corners > 1_000,
        "{hits} hits, {stale} landed on contact, {corners} at corners"
    );
    eprintln!(
        "{hits} hits ({stale} landed on contact, {corners} at two corners); worst difference \
         elsewhere {worst:e}; steps {steps_aimed} aimed short, {steps_touching} aimed at touching"
    );
}

/// Time of impact of a pair of circles, capsules (or segments) and polygons, measured
/// without views while translating where it can be, is the search over views to the bit:
/// its state, time, point, normal and every step. On 100,000 random pairs: four scales,
/// B heading at A or past it, A moving too in half of them, a third turning (which keeps
/// the views).
#[test]
fn a_search_without_views_is_the_search_over_views_exactly() {
    let mut r = Random::new(8585);
    let mut hits = 0;
    for k in 0..100_000 {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let (sa, sb) = (
            two_point_shape(&mut r, k / 4, size),
            two_point_shape(&mut r, k / 28, size),
        );
        let (pose_a, pose_b, heading, gap) = apart(&mut r, (&sa, &sb), size);
        let turning = |r: &mut Random| {
            if k % 3 == 0 {
                r.between(-3.0, 3.0)
            } else {
                0.0
            }
        };
        let va = Velocity {
            linear: if k % 2 == 0 {
                DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 0.5) * gap
            } else {
                DVec2::ZERO
            },
            angular: turning(&mut r),
        };
        let vb = Velocity {
            linear: heading * r.between(0.5, 2.0) * gap,
            angular: turning(&mut r),
        };
        let (a, b) = (Placed::new(sa, pose_a), Placed::new(sb, pose_b));
        let viewless = search::<true>(&a, va, &b, vb, 1.0, NEWTON_AIM);
        let views = search::<false>(&a, va, &b, vb, 1.0, NEWTON_AIM);
        // Debug's text tells -0.0 from 0.0 and NaN from NaN, as the bits do.
        assert_eq!(
            format!("{viewless:?}"),
            format!("{views:?}"),
            "{a:?} {va:?}, {b:?} {vb:?}"
        );
        hits += usize::from(views.state == ToiState::Hit);
    }
    assert!(hits > 30_000, "{hits} hits");
}
