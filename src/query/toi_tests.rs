//! Time of impact's search: without views for circles and capsules against the search over
//! views, and a turning step against the step that seeks every root (apart from `toi.rs`, to
//! keep that file short enough to hold in mind).
use super::super::fast_path::tests::polygon;
use super::{
    ADVANCEMENT_DISTANCE, ClosestPoints, ToiState, Turning, Velocity, proximity_of_apart_near,
    reach, search, shadows_of,
};
use crate::geometry::{Capsule, Circle, DVec2, Feature, Placed, Pose, Rounded, Segment, Shape};
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

/// Time of impact of a pair of circles, capsules (or segments) and polygons, measured
/// without views while translating where it can be, is the search over views to the bit:
/// its state, time, point, normal and every step. On 100,000 random pairs: four scales,
/// B heading at A or past it, A moving too in half of them, a third turning (which keeps
/// the views).
#[test]
fn two_point_pairs_search_as_over_views_exactly() {
    let mut r = Random::new(8585);
    let mut hits = 0;
    for k in 0..100_000 {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let (sa, sb) = (
            two_point_shape(&mut r, k / 4, size),
            two_point_shape(&mut r, k / 28, size),
        );
        let pose_a = Pose::new(
            DVec2::new(r.between(-50.0, 50.0), r.between(-50.0, 50.0)) * size,
            r.between(-4.0, 4.0),
        );
        let reach = sa.bounding_radius() + sb.bounding_radius();
        let away = DVec2::from_angle(r.between(0.0, 6.3));
        let gap = r.between(0.3, 3.0) * reach;
        let pose_b = Pose::new(pose_a.position + away * gap, r.between(-4.0, 4.0));
        let heading = DVec2::from_angle(r.between(-0.4, 0.4)).rotate(-away);
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
        let viewless = search::<true>(&a, va, &b, vb, 1.0);
        let views = search::<false>(&a, va, &b, vb, 1.0);
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
