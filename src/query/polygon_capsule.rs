//! A polygon (plain or rounded) and a capsule (or a segment) asked without building either
//! world view. `collide` is the separating-axis walk and its manifold over the two cores held
//! inline ([`super::inline_walk`]); `distance` is the general query's closest points and
//! margins for this one pair of kinds, number for number (as [`super::polygon_circle`] does
//! for a circle). Both find the cores' closest points as the general query does: the capsule's
//! segment against each polygon edge that faces it, in the view's order, the first nearest
//! kept, stopping at the first that touches.

use super::capsule_capsule::{TwoPoint, at_end, closest_ends_axis};
use super::capsule_circle::{Core, from_closest};
use super::closest::{CoreView, Proximity, SegmentClosest, closest_points_segment_segment};
use super::contact::{Contact, FACE_ALIGNMENT};
use super::inline_walk::{InlineCore, PARALLEL, collide_inline};
use super::polygon_circle::{INLINE, inside_core, polygon_feature};
use crate::geometry::{ConvexPolygon as Polygon, DVec2, Feature, Interval, Pose, Winding};

/// A polygon's core as the general walk's view holds it, from `origin` (A's position): its
/// corners counter-clockwise (the first again after the last) and outward normals, its
/// shadows on its own normals (local), for the polygons of up to [`INLINE`] corners.
pub(super) struct PolygonView<'a> {
    points: [DVec2; INLINE + 1],
    normals: [DVec2; INLINE],
    extents: &'a [Interval],
    offset: DVec2,
    n: usize,
    centre: DVec2,
    radius: f64,
    reversed: bool,
}

impl<'a> PolygonView<'a> {
    /// The view of `polygon` (at most [`INLINE`] corners) at `pose` from `origin`, placed as
    /// `Rounded::at` places it, built where it is kept.
    #[inline(always)]
    pub(super) fn of(polygon: &'a Polygon, pose: Pose, origin: DVec2) -> Self {
        let n = polygon.points().len();
        let rotation = pose.rotation();
        let offset = pose.position - origin;
        let (local_points, local_normals) = (polygon.points(), polygon.normals());
        let mut view = Self {
            points: [DVec2::ZERO; INLINE + 1],
            normals: [DVec2::ZERO; INLINE],
            extents: polygon.extents(),
            offset,
            n,
            centre: rotation.rotate(polygon.centroid()) + offset,
            radius: polygon.radius(),
            reversed: polygon.winding() == Winding::Clockwise,
        };
        for i in 0..n {
            view.points[i] = rotation.rotate(local_points[i]) + offset;
            view.normals[i] = rotation.rotate(local_normals[i]);
        }
        view.points[n] = view.points[0];
        view
    }

    /// The internal (counter-clockwise) index of edge `k` in the file's order.
    #[inline(always)]
    fn internal(&self, k: usize) -> usize {
        let n = self.n;
        if !self.reversed {
            k
        } else if k == n - 1 {
            n - 1
        } else {
            n - 2 - k
        }
    }

    /// The shadow on its own normal `i`, radius included, from the stored extents.
    #[inline(always)]
    fn own_extent(&self, i: usize) -> Interval {
        let u = self.normals[i];
        let shift = self.offset.dot(u);
        let e = self.extents[i];
        Interval::new(e.min + shift - self.radius, e.max + shift + self.radius)
    }

    /// Its corners, counter-clockwise.
    #[inline(always)]
    pub(super) fn corners(&self) -> &[DVec2] {
        &self.points[..self.n]
    }

    /// Whether some point of `other` lies on or in front of edge `k`'s line (the view's
    /// `faces_other`: an edge with all of the other core behind it holds no closest point).
    #[inline(always)]
    pub(super) fn faces(&self, k: usize, other: &[DVec2]) -> bool {
        other.iter().any(|p| self.in_front(k, *p) >= 0.0)
    }

    /// Whether `p` lies inside or on the core (the view's `core_contains`).
    #[inline(always)]
    pub(super) fn contains(&self, p: DVec2) -> bool {
        (0..self.n).all(|k| self.in_front(k, p) <= 0.0)
    }

    /// Edge `k`, counter-clockwise.
    #[inline(always)]
    pub(super) fn edge(&self, k: usize) -> (DVec2, DVec2) {
        (self.points[k], self.points[k + 1])
    }

    /// How far `p` lies in front of edge `k`'s line (negative behind it).
    #[inline(always)]
    pub(super) fn in_front(&self, k: usize, p: DVec2) -> f64 {
        self.normals[k].dot(p - self.points[k])
    }
}

impl CoreView for PolygonView<'_> {
    #[inline(always)]
    fn corners(&self) -> &[DVec2] {
        PolygonView::corners(self)
    }
    #[inline(always)]
    fn is_polygon(&self) -> bool {
        true
    }
    #[inline(always)]
    fn segment_count(&self) -> usize {
        self.n
    }
    #[inline(always)]
    fn segment(&self, k: usize) -> (DVec2, DVec2) {
        self.edge(k)
    }
    #[inline(always)]
    fn normal(&self, k: usize) -> DVec2 {
        self.normals[k]
    }
    #[inline(always)]
    fn centre(&self) -> DVec2 {
        self.centre
    }
    /// As the view names it: corners and edges in the file's order.
    #[inline(always)]
    fn feature_at(&self, k: usize, t: f64) -> Feature {
        let n = self.n;
        // A clockwise polygon's internal order is the file's reversed: corner i is n - 1 - i,
        // and edge i is its own inverse's image (see `internal`).
        let vertex = |i: usize| if self.reversed { n - 1 - i } else { i };
        if t <= 0.0 {
            Feature::Vertex(vertex(k))
        } else if t >= 1.0 {
            Feature::Vertex(vertex((k + 1) % n))
        } else {
            Feature::Edge(self.internal(k))
        }
    }
    #[inline(always)]
    fn core_contains(&self, p: DVec2) -> bool {
        self.contains(p)
    }
}

impl InlineCore for PolygonView<'_> {
    #[inline(always)]
    fn axis_count(&self) -> usize {
        self.n
    }

    #[inline(always)]
    fn own_axis(&self, k: usize) -> (DVec2, Interval) {
        let i = self.internal(k);
        (self.normals[i], self.own_extent(i))
    }

    #[inline(always)]
    fn given_axis(&self, k: usize) -> (DVec2, Interval) {
        if self.reversed {
            let i = self.internal(k);
            let e = self.own_extent(i);
            (-self.normals[i], Interval::new(-e.max, -e.min))
        } else {
            (self.normals[k], self.own_extent(k))
        }
    }

    #[inline(always)]
    fn project(&self, u: DVec2) -> Interval {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &self.points[..self.n] {
            let d = p.dot(u);
            lo = if d < lo { d } else { lo };
            hi = if d > hi { d } else { hi };
        }
        Interval::new(lo - self.radius, hi + self.radius)
    }

    #[inline(always)]
    fn repeats(&self, axis: DVec2) -> bool {
        self.normals[..self.n]
            .iter()
            .any(|u| 1.0 - u.dot(axis).abs() <= PARALLEL)
    }

    #[inline(always)]
    fn named_face(&self, k: usize, direction: DVec2) -> Option<usize> {
        let i = self.internal(k);
        (self.normals[i].dot(direction) >= 1.0 - FACE_ALIGNMENT).then_some(i)
    }

    #[inline(always)]
    fn best_face(&self, direction: DVec2) -> (usize, f64) {
        let mut best = (0, f64::NEG_INFINITY);
        for (i, u) in self.normals[..self.n].iter().enumerate() {
            let align = u.dot(direction);
            if align > best.1 {
                best = (i, align);
            }
        }
        best
    }

    #[inline(always)]
    fn most_opposed_face(&self, n: DVec2) -> usize {
        let mut best = (0, f64::INFINITY);
        for (i, u) in self.normals[..self.n].iter().enumerate() {
            let d = u.dot(n);
            if d < best.1 {
                best = (i, d);
            }
        }
        best.0
    }

    #[inline(always)]
    fn face(&self, i: usize) -> ((DVec2, DVec2), DVec2) {
        ((self.points[i], self.points[i + 1]), self.normals[i])
    }

    #[inline(always)]
    fn support(&self, d: DVec2) -> DVec2 {
        let mut best = self.points[0];
        let mut best_dot = best.dot(d);
        for p in &self.points[1..self.n] {
            let dot = p.dot(d);
            if dot > best_dot {
                (best, best_dot) = (*p, dot);
            }
        }
        best
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

/// The contact of `polygon` at `pose` and the core with local ends `ends` and `radius` at
/// `pose_k` (a capsule, or a segment of radius 0), or `None` when they do not intersect;
/// `polygon_is_a` says which of the pair the polygon is (the normal points from A toward B).
/// `Err` where the general walk must answer (a polygon past the inline corners, a core whose
/// ends coincide).
pub(crate) fn collide_polygon_capsule(
    polygon: &Polygon,
    pose: Pose,
    (ends, radius, pose_k): ((DVec2, DVec2), f64, Pose),
    polygon_is_a: bool,
) -> Result<Option<Contact>, ()> {
    if polygon.points().len() > INLINE {
        return Err(());
    }
    let origin = if polygon_is_a {
        pose.position
    } else {
        pose_k.position
    };
    let core = TwoPoint::of(ends, radius, pose_k, origin)?;
    let poly = PolygonView::of(polygon, pose, origin);
    // The closest points' line, as the walk's rounded axis finds it: none when the segment's
    // first end lies inside the polygon's core, or the closest points are not both corners.
    let (q0, q1) = core.ends;
    let closest = || {
        let (c, _) = nearest(&poly, (q0, q1), polygon_is_a)?;
        closest_ends_axis(&c, at_end(c.t_a), at_end(c.t_b))
    };
    Ok(if polygon_is_a {
        collide_inline(&poly, &core, closest, origin)
    } else {
        collide_inline(&core, &poly, closest, origin)
    })
}

/// The closest points of the segment `(q0, q1)` and the polygon's core as the general query
/// finds them: the segment against each edge with an end of it on or in front of the edge's
/// line (the others hold no closest point), in the view's order, the segment's points second
/// when `polygon_is_a`; the first nearest pair and its edge, the search over at the first that
/// touches. `None` when a point of the segment lies inside the core apart from a touch (no
/// edge faces it, or its first end is inside).
#[inline(always)]
fn nearest(
    poly: &PolygonView,
    (q0, q1): (DVec2, DVec2),
    polygon_is_a: bool,
) -> Option<(SegmentClosest, usize)> {
    let mut best: Option<(SegmentClosest, usize)> = None;
    for k in 0..poly.n {
        if !poly.faces(k, &[q0, q1]) {
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
    best.filter(|(c, _)| c.distance_squared == 0.0 || !poly.contains(q0))
}

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
    if polygon.points().len() > INLINE {
        return Err(());
    }
    let origin = if polygon_is_a {
        pose.position
    } else {
        pose_k.position
    };
    let poly = PolygonView::of(polygon, pose, origin);
    let core = Core::of(ends, pose_k, origin)?;
    let Some((c, k)) = nearest(&poly, core.ends, polygon_is_a) else {
        // A point of one core inside the other.
        let reach = core.length + (core.centre.abs() + poly.centre.abs()).max_element();
        return inside_core(radius + poly.radius, reach);
    };
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
        polygon_feature(polygon, k, t_polygon),
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
    use super::super::fast_path::tests::{distance_as_general, placed_as_walk, polygon, spot};
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

    /// The polygon-capsule path gives the general walk's contact bit for bit: on 400,000
    /// random pairs (polygons plain and rounded in either winding, capsules from nearly
    /// circles to long rods and some segments, half near touching, either one A, four
    /// scales) and on set cases (a rod flat on a face, across a corner, inside, end on a
    /// face, parallel to a face and past its end).
    #[test]
    fn the_polygon_capsule_path_gives_the_general_walks_contact_exactly() {
        let mut r = Random::new(74);
        let mut hits = 0;
        for k in 0..400_000 {
            let size = [1.0, 0.01, 100.0, 1e4][k % 4];
            let poly = polygon(&mut r, size);
            let pose = Pose::new(spot(&mut r, size), r.between(-4.0, 4.0));
            let reach = poly.bounding_radius() + 3.0 * size;
            let d = if k.is_multiple_of(2) {
                r.between(0.0, 0.7)
            } else {
                r.between(0.5, 1.0)
            } * reach;
            let centre = pose.apply(poly.centroid()) + DVec2::from_angle(r.between(0.0, 6.3)) * d;
            let (shape, at) = rod(&mut r, size, centre, k);
            let (p, c) = (Placed::new(poly, pose), Placed::new(shape, at));
            let hit = if k % 3 == 0 {
                placed_as_walk(&c, &p)
            } else {
                placed_as_walk(&p, &c)
            };
            hits += usize::from(hit);
        }
        let square = crate::geometry::ConvexPolygon::rectangle(DVec2::splat(1.0)).unwrap();
        let rounded = square.clone().with_radius(0.25).unwrap();
        let clockwise = crate::geometry::ConvexPolygon::new(vec![
            DVec2::new(-1.0, 1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(-1.0, -1.0),
        ])
        .unwrap();
        let bar = crate::geometry::Capsule::new(DVec2::new(-0.5, 0.0), DVec2::new(0.5, 0.0), 0.25)
            .unwrap();
        for poly in [&square, &rounded, &clockwise] {
            for angle in [0.0, 0.5, 1.0e-17] {
                let pose = Pose::new(DVec2::new(3.0, -2.0), angle);
                for (local, turn) in [
                    (DVec2::ZERO, 0.0),
                    (DVec2::new(0.0, 1.2), 0.0),
                    (DVec2::new(0.0, 1.25), 0.0),
                    (DVec2::new(1.2, 1.2), std::f64::consts::FRAC_PI_4),
                    (DVec2::new(1.6, 0.0), 0.0),
                    (DVec2::new(1.2, 0.0), std::f64::consts::FRAC_PI_2),
                    (DVec2::new(1.4, 1.1), 0.0),
                    (DVec2::new(0.2, 0.1), 1.0),
                ] {
                    let p = Placed::new(poly.clone(), pose);
                    let c = Placed::new(bar, Pose::new(pose.apply(local), angle + turn));
                    placed_as_walk(&p, &c);
                    placed_as_walk(&c, &p);
                }
            }
        }
        // About a third of the random pairs intersect.
        assert!((100_000..300_000).contains(&hits), "{hits}");
    }
}
