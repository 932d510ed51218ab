//! Every pair of circles, capsules (or segments) and polygons, measured as time of impact
//! measures a translating pair at each step, without the world views: a circle's centre, a
//! capsule's ends and a polygon's corners and normals placed as the views place them (held
//! inline), and their closest points by the views' own search over the same numbers. The
//! same answers, without building two views a step (a fifth of the work for a capsule and a
//! circle, a tenth for a polygon and a capsule).

use super::capsule_capsule::{capsules_intersect, two_point as capsule_ends};
use super::capsule_circle::{Core, ends_feature};
use super::closest::{
    CoreClosest, CoreView, PolygonHint, Proximity, closest_point_on_segment,
    closest_points_segment_segment, closest_polygon_cores, proximity_from,
};
use super::fast_path::collide_at;
use super::polygon_capsule::PolygonView;
use super::polygon_circle::{PolygonCore, polygon_feature};
use crate::geometry::{ConvexPolygon, DVec2, Feature, Pose, Shape, right_perp};

/// A circle's centre or a capsule's or a segment's ends, from `origin`, placed as the view
/// places them, and the radius; `None` for other kinds, and for ends within rounding of
/// each other (the view is a point there).
enum TwoPoint {
    Point(DVec2, f64),
    Ends((DVec2, DVec2), f64),
}

impl TwoPoint {
    #[inline(always)]
    fn of(shape: &Shape, pose: Pose, origin: DVec2) -> Option<Self> {
        match shape {
            Shape::Circle(c) => Some(Self::Point(pose.position - origin, c.radius())),
            Shape::Capsule(c) => Core::of((c.a(), c.b()), pose, origin)
                .ok()
                .map(|core| Self::Ends(core.ends, c.radius())),
            Shape::Segment(s) => Core::of((s.a(), s.b()), pose, origin)
                .ok()
                .map(|core| Self::Ends(core.ends, 0.0)),
            _ => None,
        }
    }
}

/// The point of the segment `ends` nearest `p`, its parameter and squared distance, as the
/// view's search over its one segment keeps them (a distance that is not a number is never
/// kept: then `p` itself, infinitely far).
#[inline(always)]
fn point_to_ends(p: DVec2, (e0, e1): (DVec2, DVec2)) -> (DVec2, f64, f64) {
    let (q, t) = closest_point_on_segment(p, e0, e1);
    let d2 = q.distance_squared(p);
    if d2 < f64::INFINITY {
        (q, t, d2)
    } else {
        (p, 0.0, f64::INFINITY)
    }
}

/// The proximity of two shapes taken as apart, as [`super::closest::proximity_of_apart_near`]
/// finds it on their views from `origin`, starting from the edges in `hint` (and keeping
/// there the edges it ends on), number for number: the same expressions (the centre's
/// nearest point of the segment or of the polygon's edges that face it, the two segments'
/// closest points, or the search proved by slabs where a polygon meets a polygon or a
/// segment). `None` for two circles (their time of impact has a closed form), for a capsule
/// whose ends are within rounding of each other (its view is a point) and for a polygon of
/// more corners than are held inline: the views measure those.
#[inline(always)]
pub(super) fn viewless_proximity(
    (shape_a, pose_a): (&Shape, Pose),
    (shape_b, pose_b): (&Shape, Pose),
    origin: DVec2,
    hint: &mut Option<PolygonHint>,
) -> Option<Proximity> {
    match (shape_a, shape_b) {
        (Shape::Polygon(p), Shape::Circle(c)) => {
            return polygon_circle_apart(p, pose_a, (pose_b.position, c.radius()), origin, true);
        }
        (Shape::Circle(c), Shape::Polygon(p)) => {
            return polygon_circle_apart(p, pose_b, (pose_a.position, c.radius()), origin, false);
        }
        // Each polygon checked apart and its view built where it is kept (a view returned in
        // an `Option` is copied out of it).
        (Shape::Polygon(p), Shape::Polygon(q)) => {
            if !(PolygonCore::fits(p) && PolygonCore::fits(q)) {
                return None;
            }
            let a = PolygonView::of(p, pose_a, origin);
            let b = PolygonView::of(q, pose_b, origin);
            return Some(edges_apart(&a, &b, (p.radius(), q.radius()), origin, hint));
        }
        (Shape::Polygon(p), _) => {
            let (b, radius) = SegmentView::of(shape_b, pose_b, origin)?;
            if !PolygonCore::fits(p) {
                return None;
            }
            let a = PolygonView::of(p, pose_a, origin);
            return Some(edges_apart(&a, &b, (p.radius(), radius), origin, hint));
        }
        (_, Shape::Polygon(q)) => {
            let (a, radius) = SegmentView::of(shape_a, pose_a, origin)?;
            if !PolygonCore::fits(q) {
                return None;
            }
            let b = PolygonView::of(q, pose_b, origin);
            return Some(edges_apart(&a, &b, (radius, q.radius()), origin, hint));
        }
        _ => {}
    }
    let a = TwoPoint::of(shape_a, pose_a, origin)?;
    let b = TwoPoint::of(shape_b, pose_b, origin)?;
    let (found, radii) = match (a, b) {
        (TwoPoint::Point(p, ra), TwoPoint::Ends((e0, e1), rb)) => {
            let (q, t, d2) = point_to_ends(p, (e0, e1));
            let closest = CoreClosest {
                point_a: p,
                point_b: q,
                distance: d2.sqrt(),
                feature_a: Feature::Vertex(0),
                feature_b: ends_feature(t),
            };
            (closest, (ra, rb))
        }
        (TwoPoint::Ends((e0, e1), ra), TwoPoint::Point(p, rb)) => {
            let (q, t, d2) = point_to_ends(p, (e0, e1));
            let closest = CoreClosest {
                point_a: q,
                point_b: p,
                distance: d2.sqrt(),
                feature_a: ends_feature(t),
                feature_b: Feature::Vertex(0),
            };
            (closest, (ra, rb))
        }
        (TwoPoint::Ends((a0, a1), ra), TwoPoint::Ends((b0, b1), rb)) => {
            let c = closest_points_segment_segment(a0, a1, b0, b1);
            let closest = CoreClosest {
                point_a: c.point_a,
                point_b: c.point_b,
                distance: c.distance_squared.sqrt(),
                feature_a: ends_feature(c.t_a),
                feature_b: ends_feature(c.t_b),
            };
            (closest, (ra, rb))
        }
        (TwoPoint::Point(..), TwoPoint::Point(..)) => return None,
    };
    Some(proximity_from(Some(found), radii, origin))
}

/// The proximity of two cores of which one is a polygon and the other a polygon or a
/// segment, as the views' search proved by slabs finds it from `hint` (the edges closest at
/// the last step; kept for the next), moved out by `radii`.
#[inline(always)]
fn edges_apart<A: CoreView, B: CoreView>(
    a: &A,
    b: &B,
    radii: (f64, f64),
    origin: DVec2,
    hint: &mut Option<PolygonHint>,
) -> Proximity {
    let found = closest_polygon_cores(a, b, *hint).map(|(c, pair)| {
        *hint = Some(pair);
        c
    });
    proximity_from(found, radii, origin)
}

/// A capsule's or a segment's core as its view holds it: its ends, the normals of its two
/// sides (the right-hand normal of its direction, over its length, and the opposite), its
/// centre.
struct SegmentView {
    ends: [DVec2; 2],
    normals: [DVec2; 2],
    centre: DVec2,
}

impl SegmentView {
    /// The view of the capsule or segment `shape` at `pose` from `origin`, its normals as
    /// `Rounded::at` makes a 2-point core's, and its radius; `None` for other kinds and for
    /// ends within rounding of each other (the view is a point there).
    #[inline(always)]
    fn of(shape: &Shape, pose: Pose, origin: DVec2) -> Option<(Self, f64)> {
        let (ends, radius) = capsule_ends(shape)?;
        let core = Core::of(ends, pose, origin).ok()?;
        let (a, b) = core.ends;
        let n = right_perp(b - a) * (1.0 / core.length);
        let view = Self {
            ends: [a, b],
            normals: [n, -n],
            centre: core.centre,
        };
        Some((view, radius))
    }
}

impl CoreView for SegmentView {
    #[inline(always)]
    fn corners(&self) -> &[DVec2] {
        &self.ends
    }
    #[inline(always)]
    fn is_polygon(&self) -> bool {
        false
    }
    #[inline(always)]
    fn segment_count(&self) -> usize {
        1
    }
    #[inline(always)]
    fn segment(&self, k: usize) -> (DVec2, DVec2) {
        (self.ends[k], self.ends[1 - k])
    }
    #[inline(always)]
    fn normal(&self, k: usize) -> DVec2 {
        self.normals[k]
    }
    #[inline(always)]
    fn centre(&self) -> DVec2 {
        self.centre
    }
    #[inline(always)]
    fn feature_at(&self, k: usize, t: f64) -> Feature {
        if t <= 0.0 {
            Feature::Vertex(k)
        } else if t >= 1.0 {
            Feature::Vertex(1 - k)
        } else {
            Feature::Edge(0)
        }
    }
    #[inline(always)]
    fn core_contains(&self, _: DVec2) -> bool {
        false
    }
}

/// [`viewless_proximity`] of `polygon` at `pose` and the circle of `radius` at `centre`
/// (`polygon_is_a`: the polygon is A): its view's test that the centre lies inside the core
/// and its search over the edges the centre is on or in front of, in one pass over the core
/// held inline (the edges' normals turned as the view turns them).
#[inline(always)]
fn polygon_circle_apart(
    polygon: &ConvexPolygon,
    pose: Pose,
    (centre, radius): (DVec2, f64),
    origin: DVec2,
    polygon_is_a: bool,
) -> Option<Proximity> {
    if !PolygonCore::fits(polygon) {
        return None;
    }
    let core = PolygonCore::of(polygon, pose, origin);
    let c = centre - origin;
    let nearest = core.nearest_facing(c);
    let radii = if polygon_is_a {
        (core.radius, radius)
    } else {
        (radius, core.radius)
    };
    let Some((k, q, t, d2)) = nearest else {
        return Some(proximity_from(None, radii, origin));
    };
    let (on_polygon, on_circle) = (polygon_feature(polygon, k, t), Feature::Vertex(0));
    let found = if polygon_is_a {
        CoreClosest {
            point_a: q,
            point_b: c,
            distance: d2.sqrt(),
            feature_a: on_polygon,
            feature_b: on_circle,
        }
    } else {
        CoreClosest {
            point_a: c,
            point_b: q,
            distance: d2.sqrt(),
            feature_a: on_circle,
            feature_b: on_polygon,
        }
    };
    Some(proximity_from(Some(found), radii, origin))
}

/// Whether `a` and `b` intersect, as [`collide_at`] decides it: for two capsules (or
/// segments) by the walk's verdict without its contact ([`capsules_intersect`]), what a time
/// of impact asks at its steps; for the rest, `collide_at` itself.
#[inline(always)]
pub(super) fn viewless_intersect(a: (&Shape, Pose), b: (&Shape, Pose)) -> bool {
    let walk = match (a.0, b.0) {
        (Shape::Capsule(_) | Shape::Segment(_), Shape::Capsule(_) | Shape::Segment(_)) => {
            match (capsule_ends(a.0), capsule_ends(b.0)) {
                (Some((ends_a, radius_a)), Some((ends_b, radius_b))) => {
                    capsules_intersect((ends_a, radius_a, a.1), (ends_b, radius_b, b.1))
                }
                _ => Err(()),
            }
        }
        _ => Err(()),
    };
    walk.unwrap_or_else(|()| collide_at(a, b).is_some())
}

#[cfg(test)]
mod tests {
    //! The cores measured without views against the views, to the bit.
    use super::super::fast_path::tests::polygon;
    use super::viewless_proximity;
    use crate::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Pose, Rounded, Segment, Shape};
    use crate::query::closest::proximity_of_apart_near;
    use crate::scene::generate::Random;

    /// For 400,000 random pairs of circles, capsules, segments and polygons (four scales,
    /// capsules whose ends are within rounding of each other, polygons plain and rounded in
    /// either winding and of 11 corners, B from inside A to three times their reach away, the
    /// origin away from A's position as a time of impact's is), the proximity measured
    /// without views is the views', to the bit, and again with B moved a little, each
    /// starting from the edges its first search kept (as a time of impact's next step does);
    /// two circles, the point-like capsules and the 11-gons are left to the views.
    #[test]
    fn cores_measured_without_views_are_the_views_exactly() {
        let mut r = Random::new(67_85);
        let mut measured = 0;
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let mut shape = |kind: usize| -> Shape {
                let tilt = DVec2::from_angle(r.between(0.0, 6.3));
                let half = r.between(0.0, 2.0) * size;
                let radius = r.between(0.01, 1.0) * size;
                match kind % 6 {
                    0 | 4 => Circle::new(radius).unwrap().into(),
                    5 if kind % 12 == 5 => ConvexPolygon::regular(11, size).unwrap().into(),
                    5 => polygon(&mut r, size).into(),
                    1 => Capsule::new(-tilt * half, tilt * half, radius)
                        .unwrap()
                        .into(),
                    2 if half > 0.0 => Segment::new(-tilt * half, tilt * half * 0.3)
                        .unwrap()
                        .into(),
                    _ => {
                        let at = tilt * (half + size);
                        Capsule::new(at, at + DVec2::new(at.x * 1e-17, 0.0), radius)
                            .unwrap()
                            .into()
                    }
                }
            };
            let (sa, sb) = (shape(k / 4), shape(k / 24));
            let origin = DVec2::new(r.between(-50.0, 50.0), r.between(-50.0, 50.0)) * size;
            let pose_a = Pose::new(
                origin + DVec2::new(r.between(-1.0, 1.0), r.between(-1.0, 1.0)) * size,
                r.between(-4.0, 4.0),
            );
            let reach = sa.bounding_radius() + sb.bounding_radius();
            let at = pose_a.position
                + DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 3.0) * reach;
            let pose_b = Pose::new(at, r.between(-4.0, 4.0));
            let nudge = DVec2::from_angle(r.between(0.0, 6.3)) * r.between(0.0, 0.1) * size;
            let (mut hint_views, mut hint) = (None, None);
            for pose_b in [pose_b, Pose::new(pose_b.position + nudge, pose_b.angle())] {
                let views = proximity_of_apart_near(
                    &Rounded::at(&sa, pose_a, origin),
                    &Rounded::at(&sb, pose_b, origin),
                    origin,
                    &mut hint_views,
                );
                let Some(p) = viewless_proximity((&sa, pose_a), (&sb, pose_b), origin, &mut hint)
                else {
                    break;
                };
                measured += 1;
                assert_eq!(
                    format!("{p:?} {hint:?}"),
                    format!("{views:?} {hint_views:?}"),
                    "{sa:?} at {pose_a:?}, {sb:?} at {pose_b:?}"
                );
            }
        }
        assert!(measured > 300_000, "{measured}");
    }

    /// Two capsules (or segments) intersect as `collide` says, on 400,000 random pairs (four
    /// scales, capsules from nearly a circle to a long rod, some segments, half about
    /// touching).
    #[test]
    fn two_capsules_intersect_as_collide_says() {
        use super::super::capsule_capsule::tests::rod_pair;
        use super::super::fast_path::collide_at;
        use super::viewless_intersect;
        let mut r = Random::new(67_86);
        let mut yes = 0;
        for k in 0..400_000 {
            let ((sa, pa), (sb, pb)) = rod_pair(&mut r, k);
            let verdict = viewless_intersect((&sa, pa), (&sb, pb));
            assert_eq!(
                verdict,
                collide_at((&sa, pa), (&sb, pb)).is_some(),
                "{sa:?} at {pa:?}, {sb:?} at {pb:?}"
            );
            yes += usize::from(verdict);
        }
        assert!((100_000..300_000).contains(&yes), "{yes}");
    }
}
