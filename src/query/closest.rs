//! Closest points: on a segment, between two segments, between two shapes.
//!
//! Follows Ericson, *Real-Time Collision Detection*, 5.1.2 (closest point on a segment: clamp
//! the projection parameter to [0, 1]) and 5.1.9 (closest points of two segments), specialised
//! to 2D: two segments that do not cross are closest at an endpoint of one of them, so the
//! answer is exact with four point-segment tests and one crossing test.
//!
//! Between two rounded shapes (core + radius, see `geometry::Rounded`) the closest points are
//! those of the cores, moved toward each other by each radius.

use crate::geometry::{DVec2, Feature, Placed, Rounded, cross};
use serde::Serialize;

/// How far apart, relatively, shapes must be for a shortcut to call them apart (the bounding
/// circles of `collide`, the cores of `distance`). Far above rounding error, so `sat_report`
/// always finds the same pair separated.
pub(crate) const CLEAR_MARGIN: f64 = 1e-9;

/// A core as the closest-point searches read it: a shape's world view ([`Rounded`]) or a
/// polygon's core held inline (`PolygonView`, for the pairs asked without world views). Both
/// state the same numbers, so a search over either gives the same answer to the bit.
pub(crate) trait CoreView {
    /// The core's corners: a polygon's counter-clockwise, a segment's two ends, a point.
    fn corners(&self) -> &[DVec2];
    /// Whether the core is a polygon (has an inside).
    fn is_polygon(&self) -> bool;
    /// How many boundary segments it has (see [`Rounded::segment_count`]).
    fn segment_count(&self) -> usize;
    /// Boundary segment `k`.
    fn segment(&self, k: usize) -> (DVec2, DVec2);
    /// The outward normal of a polygon's edge `k`; a segment's sides' normals (0 and 1).
    fn normal(&self, k: usize) -> DVec2;
    /// The shape's centre.
    fn centre(&self) -> DVec2;
    /// The feature of segment `k` at `t`, in the file's order.
    fn feature_at(&self, k: usize, t: f64) -> Feature;
    /// Whether `p` lies inside or on a polygon's core (never for a point or a segment).
    fn core_contains(&self, p: DVec2) -> bool;
}

impl CoreView for Rounded<'_> {
    #[inline(always)]
    fn corners(&self) -> &[DVec2] {
        &self.points
    }
    #[inline(always)]
    fn is_polygon(&self) -> bool {
        Rounded::is_polygon(self)
    }
    #[inline(always)]
    fn segment_count(&self) -> usize {
        Rounded::segment_count(self)
    }
    #[inline(always)]
    fn segment(&self, k: usize) -> (DVec2, DVec2) {
        Rounded::segment(self, k)
    }
    #[inline(always)]
    fn normal(&self, k: usize) -> DVec2 {
        Rounded::normal(self, k)
    }
    #[inline(always)]
    fn centre(&self) -> DVec2 {
        self.centre
    }
    #[inline(always)]
    fn feature_at(&self, k: usize, t: f64) -> Feature {
        Rounded::feature_at(self, k, t)
    }
    #[inline(always)]
    fn core_contains(&self, p: DVec2) -> bool {
        Rounded::core_contains(self, p)
    }
}

/// The point of segment `a`-`b` closest to `p`, and its parameter `t` in [0, 1]
/// (`a + t * (b - a)`). A zero-length segment answers `a`, `t = 0`.
pub fn closest_point_on_segment(p: DVec2, a: DVec2, b: DVec2) -> (DVec2, f64) {
    let ab = b - a;
    let len2 = ab.length_squared();
    // The clamp decided before dividing: an end is answered exactly, and with no division.
    let along = (p - a).dot(ab);
    if along <= 0.0 || len2 == 0.0 {
        return (a, 0.0);
    }
    if along >= len2 {
        return (b, 1.0);
    }
    let t = along / len2;
    (a + ab * t, t)
}

/// The closest points of two segments, with their parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentClosest {
    /// On the first segment.
    pub point_a: DVec2,
    /// Parameter of `point_a` on the first segment, in [0, 1].
    pub t_a: f64,
    /// On the second segment.
    pub point_b: DVec2,
    /// Parameter of `point_b` on the second segment, in [0, 1].
    pub t_b: f64,
    /// `|point_b - point_a|^2`.
    pub distance_squared: f64,
}

/// The closest points of segments `a0`-`a1` and `b0`-`b1` (either may have zero length).
/// Crossing segments meet at their crossing point (distance 0).
pub fn closest_points_segment_segment(
    a0: DVec2,
    a1: DVec2,
    b0: DVec2,
    b1: DVec2,
) -> SegmentClosest {
    let (da, db) = (a1 - a0, b1 - b0);
    // Which side of each segment's line the other's ends lie on.
    let (s0, s1) = (cross(da, b0 - a0), cross(da, b1 - a0));
    let (s2, s3) = (cross(db, a0 - b0), cross(db, a1 - b0));
    if s0 * s1 < 0.0 && s2 * s3 < 0.0 {
        let t_a = s2 / (s2 - s3);
        let t_b = s0 / (s0 - s1);
        let p = a0 + da * t_a;
        return SegmentClosest {
            point_a: p,
            t_a,
            point_b: p,
            t_b,
            distance_squared: 0.0,
        };
    }
    let from_a = |p: DVec2, t_a: f64| {
        let (q, t_b) = closest_point_on_segment(p, b0, b1);
        SegmentClosest {
            point_a: p,
            t_a,
            point_b: q,
            t_b,
            distance_squared: p.distance_squared(q),
        }
    };
    let from_b = |q: DVec2, t_b: f64| {
        let (p, t_a) = closest_point_on_segment(q, a0, a1);
        SegmentClosest {
            point_a: p,
            t_a,
            point_b: q,
            t_b,
            distance_squared: p.distance_squared(q),
        }
    };
    [from_a(a1, 1.0), from_b(b0, 0.0), from_b(b1, 1.0)]
        .into_iter()
        .fold(from_a(a0, 0.0), |best, c| {
            if c.distance_squared < best.distance_squared {
                c
            } else {
                best
            }
        })
}

/// The closest points of two cores that do not overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoreClosest {
    /// On A's core.
    pub point_a: DVec2,
    /// On B's core.
    pub point_b: DVec2,
    /// `|point_b - point_a|`; 0 when the cores touch or their boundaries cross.
    pub distance: f64,
    /// Which feature of A's core `point_a` lies on.
    pub feature_a: Feature,
    /// Which feature of B's core `point_b` lies on.
    pub feature_b: Feature,
}

impl CoreClosest {
    /// The closest points `c` of segment `k` of `a` and segment `l` of `b`.
    fn on<A: CoreView, B: CoreView>(
        a: &A,
        b: &B,
        c: SegmentClosest,
        (k, l): (usize, usize),
    ) -> Self {
        Self {
            point_a: c.point_a,
            point_b: c.point_b,
            distance: c.distance_squared.sqrt(),
            feature_a: a.feature_at(k, c.t_a),
            feature_b: b.feature_at(l, c.t_b),
        }
    }
}

/// The closest points of the cores of `a` and `b` (radii ignored), or `None` when one core
/// holds a point of the other inside (their distance is 0 and no pair of points stands out).
///
/// Exact: disjoint convex cores are closest between a corner of one and an edge of the other,
/// so every pair of boundary segments is tried (O(n m); the cores that reach this are small).
pub fn closest_cores(a: &Rounded, b: &Rounded) -> Option<CoreClosest> {
    if a.is_point() {
        let p = a.point(0);
        return (!b.core_contains(p)).then(|| point_to_core(p, b, false));
    }
    if b.is_point() {
        let p = b.point(0);
        return (!a.core_contains(p)).then(|| point_to_core(p, a, true));
    }
    closest_cores_with_pair(a, b).map(|(c, _)| c)
}

/// Whether some point of `other`'s core lies on or in front of the line of edge `k` of the
/// polygon `core`. A polygon's edge with all of the other
/// core strictly behind its line holds no closest point: the closest points `p` of A and `q`
/// of B are `d = q - p` apart with `d` in the normal cone at `p`, so every edge through `p`
/// with outward normal `n` has `n . d >= 0`, which puts `q` on or in front of its line.
#[inline]
fn faces_other<C: CoreView, O: CoreView>(core: &C, k: usize, other: &O) -> bool {
    let (v, n) = (core.corners()[k], core.normal(k));
    other.corners().iter().any(|p| n.dot(*p - v) >= 0.0)
}

/// [`closest_cores`] for two cores of segments, with the pair of segments the points lie on.
/// Only edges facing the other core are tried (see [`faces_other`]): the others are strictly
/// farther, so the answer is the one trying every pair gives.
pub(crate) fn closest_cores_with_pair<A: CoreView, B: CoreView>(
    a: &A,
    b: &B,
) -> Option<(CoreClosest, (usize, usize))> {
    let (c, k, l) = if a.is_polygon() || b.is_polygon() {
        closest_segments::<true, A, B>(a, b)?
    } else {
        closest_segments::<false, A, B>(a, b)?
    };
    if c.distance_squared > 0.0
        && (a.core_contains(b.corners()[0]) || b.core_contains(a.corners()[0]))
    {
        return None;
    }
    Some((CoreClosest::on(a, b, c, (k, l)), (k, l)))
}

/// The closest pair of boundary segments of `a` and `b`, the first on a tie, or the first
/// pair that touches; with `FACING`, a polygon's edges that do not face the other core are
/// skipped.
#[inline(always)]
fn closest_segments<const FACING: bool, A: CoreView, B: CoreView>(
    a: &A,
    b: &B,
) -> Option<(SegmentClosest, usize, usize)> {
    let mut best: Option<(SegmentClosest, usize, usize)> = None;
    // B's facing edges, found once (up to 64 in the mask; any further ones are tried).
    let mut b_faces = u64::MAX;
    if FACING && b.is_polygon() {
        for l in 0..b.segment_count().min(64) {
            if !faces_other(b, l, a) {
                b_faces &= !(1 << l);
            }
        }
    }
    let a_polygon = FACING && a.is_polygon();
    'outer: for k in 0..a.segment_count() {
        if a_polygon && !faces_other(a, k, b) {
            continue;
        }
        let (a0, a1) = a.segment(k);
        for l in 0..b.segment_count() {
            if FACING && l < 64 && b_faces & (1 << l) == 0 {
                continue;
            }
            let (b0, b1) = b.segment(l);
            let c = closest_points_segment_segment(a0, a1, b0, b1);
            if best.is_none_or(|(old, _, _)| c.distance_squared < old.distance_squared) {
                best = Some((c, k, l));
                if c.distance_squared == 0.0 {
                    break 'outer;
                }
            }
        }
    }
    best
}

/// Where [`closest_polygon_cores`] starts: the pair of edges closest last time and the
/// direction that proved it (from A toward B), in a search that moves the shapes a little at
/// each step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonHint {
    /// Edge of A.
    pub edge_a: usize,
    /// Edge of B.
    pub edge_b: usize,
    /// A direction from A toward B whose slab proved the last answer.
    pub direction: DVec2,
}

/// [`closest_cores`] for two polygon cores, trying one pair of edges first: the pair in
/// `hint`, else the edges facing each other across the centres. Any direction `u` proves a
/// lower bound on the distance: A lies within `u . x <= max over A`, B within
/// `u . x >= min over B`, so they are at least the gap between those lines apart. When that
/// bound, for the direction between the pair's closest points, for the hint's direction
/// (well measured even where the points nearly touch) or for the normal of an edge one of the
/// points lies inside (good to rounding at any distance), reaches the pair's distance to within
/// a few ulps of the coordinates, the pair is the answer to rounding, as good as trying every
/// pair; else a few moves toward the corner breaking the bound, then every pair, as
/// [`closest_cores`] does. Returns the answer and the hint for next time.
///
/// One of the two may be a segment (a capsule's core), its one segment numbered 0: then only a
/// slab that proves them apart is taken, and a pair that touches is left to the search over
/// every pair, so the answer is always the one [`closest_cores`] gives, to rounding.
pub(crate) fn closest_polygon_cores<A: CoreView, B: CoreView>(
    a: &A,
    b: &B,
    hint: Option<PolygonHint>,
) -> Option<(CoreClosest, PolygonHint)> {
    debug_assert!(proves_closest_edges(a, b));
    let polygons = a.is_polygon() && b.is_polygon();
    let (n, m) = (a.segment_count(), b.segment_count());
    let towards = b.centre() - a.centre();
    let (mut k, mut l) = match hint.filter(|h| h.edge_a < n && h.edge_b < m) {
        Some(h) => (h.edge_a, h.edge_b),
        None => (facing(a, towards), facing(b, -towards)),
    };
    // A few ulps of the coordinates: how far a slab's bound may fall short of the pair's
    // distance by rounding alone. Worked out only where a bound falls short (many that prove
    // a pair reach its distance), and by plain comparisons, which pass over a NaN as
    // `f64::max` does; once.
    let mut kept_slack = None;
    let mut slack = || {
        *kept_slack.get_or_insert_with(|| {
            let mut scale = 0.0f64;
            for p in a.corners().iter().chain(b.corners()) {
                let (x, y) = (p.x.abs(), p.y.abs());
                scale = if x > scale { x } else { scale };
                scale = if y > scale { y } else { scale };
            }
            16.0 * f64::EPSILON * scale
        })
    };
    for _ in 0..6 {
        let (a0, a1) = a.segment(k);
        let (b0, b1) = b.segment(l);
        let c = closest_points_segment_segment(a0, a1, b0, b1);
        let found = |c: SegmentClosest, direction: DVec2| {
            let closest = CoreClosest::on(a, b, c, (k, l));
            let hint = PolygonHint {
                edge_a: k,
                edge_b: l,
                direction,
            };
            (closest, hint)
        };
        if c.distance_squared == 0.0 {
            if !polygons {
                break;
            }
            // Touching (or crossing) here: distance 0, as every search ends on the first
            // such pair it meets.
            let direction = hint.map_or(towards, |h| h.direction);
            return Some(found(c, direction));
        }
        let distance = c.distance_squared.sqrt();
        let d = c.point_b - c.point_a;
        // Where a point lies inside an edge, that edge's normal: the direction between
        // points nearly touching is measured to about `1e-16 / distance` only, and a turn
        // since the hint was made leaves its direction off by the turn; the normal is good
        // to rounding whatever the distance.
        let edge_normal = if c.t_a > 0.0 && c.t_a < 1.0 {
            Some(outward(a, k, d))
        } else if c.t_b > 0.0 && c.t_b < 1.0 {
            Some(-outward(b, l, -d))
        } else {
            None
        };
        // The normal first (it proves most pairs near touching, where the others fail); a
        // move, when none proves the pair, is made from the corners breaking the slab between
        // the points (the normal's, where there is no such slab).
        let mut worst = None;
        let between = std::iter::once((d, true));
        let others = hint.map(|h| (h.direction, false));
        for (u, moves) in edge_normal
            .map(|u| (u, false))
            .into_iter()
            .chain(between)
            .chain(others)
        {
            let length = u.length();
            if length == 0.0 {
                continue;
            }
            let (ia, far_a) = extreme(a, u, 1.0);
            let (ib, far_b) = extreme(b, u, -1.0);
            // The slab between A's furthest corner along u and B's nearest.
            let bound = (-far_b - far_a) / length;
            if (bound >= distance || bound >= distance - slack()) && (polygons || bound > 0.0) {
                return Some(found(c, u / length));
            }
            if moves || worst.is_none() {
                worst = Some((ia, ib, u));
            }
        }
        let Some((ia, ib, u)) = worst else { break };
        // Of the two edges at each offending corner, the one facing the other shape more.
        let (next_k, next_l) = (toward(a, ia, u), toward(b, ib, -u));
        if (next_k, next_l) == (k, l) {
            break;
        }
        (k, l) = (next_k, next_l);
    }
    let (closest, (k, l)) = closest_cores_with_pair(a, b)?;
    let d = closest.point_b - closest.point_a;
    let direction = d
        .try_normalize()
        .unwrap_or_else(|| hint.map_or(towards, |h| h.direction));
    Some((
        closest,
        PolygonHint {
            edge_a: k,
            edge_b: l,
            direction,
        },
    ))
}

/// Whether [`closest_polygon_cores`] takes `a` and `b`: a polygon and a polygon or a segment.
#[inline(always)]
pub(crate) fn proves_closest_edges<A: CoreView, B: CoreView>(a: &A, b: &B) -> bool {
    let polygon_or_segment = |polygon: bool, corners: usize| polygon || corners == 2;
    (a.is_polygon() && polygon_or_segment(b.is_polygon(), b.corners().len()))
        || (b.is_polygon() && polygon_or_segment(a.is_polygon(), a.corners().len()))
}

/// The outward normal of segment `k` of `core`: a polygon's edge normal, or the normal of a
/// segment's side toward `towards` (its view holds both sides' normals).
#[inline(always)]
fn outward<C: CoreView>(core: &C, k: usize, towards: DVec2) -> DVec2 {
    if core.is_polygon() {
        return core.normal(k);
    }
    let n = core.normal(0);
    if n.dot(towards) < 0.0 {
        core.normal(1)
    } else {
        n
    }
}

/// The edge of `core` whose normal points furthest along `d` (the last on a tie); a
/// segment's one segment.
#[inline(always)]
fn facing<C: CoreView>(core: &C, d: DVec2) -> usize {
    if !core.is_polygon() {
        return 0;
    }
    (0..core.segment_count())
        .max_by(|&i, &j| core.normal(i).dot(d).total_cmp(&core.normal(j).dot(d)))
        .unwrap_or(0)
}

/// The corner of `core` furthest along `u` (`sign` 1) or against it (`sign` -1), and how far
/// (the last on a tie).
#[inline(always)]
fn extreme<C: CoreView>(core: &C, u: DVec2, sign: f64) -> (usize, f64) {
    let corners = core.corners();
    // By hand: the iterator's `max_by` cost a fifth of the proved search.
    let mut best = (0, sign * u.dot(corners[0]));
    for (i, p) in corners.iter().enumerate().skip(1) {
        let x = sign * u.dot(*p);
        if x >= best.1 {
            best = (i, x);
        }
    }
    best
}

/// Of the two edges of `core` at `corner`, the one whose normal points further along `along`.
#[inline(always)]
fn toward<C: CoreView>(core: &C, corner: usize, along: DVec2) -> usize {
    if !core.is_polygon() {
        return 0;
    }
    let count = core.segment_count();
    let before = (corner + count - 1) % count;
    if core.normal(before).dot(along) > core.normal(corner).dot(along) {
        before
    } else {
        corner
    }
}

/// The closest points of a point `p` outside `core` and the boundary of `core`: one clamped
/// projection per boundary segment that faces `p`. `core_first` says which is shape A.
#[inline]
fn point_to_core(p: DVec2, core: &Rounded, core_first: bool) -> CoreClosest {
    let mut best = (0, p, 0.0, f64::INFINITY);
    let polygon = core.is_polygon();
    for k in 0..core.segment_count() {
        // A polygon's edge with `p` strictly behind its line holds no closest point (see
        // [`faces_other`]); `p` lies outside the polygon, so some edge faces it.
        if polygon && core.normals[k].dot(p - core.points[k]) < 0.0 {
            continue;
        }
        let (s0, s1) = core.segment(k);
        let (q, t) = closest_point_on_segment(p, s0, s1);
        let d2 = q.distance_squared(p);
        if d2 < best.3 {
            best = (k, q, t, d2);
        }
    }
    let (k, q, t, d2) = best;
    let (on_core, on_point) = (core.feature_at(k, t), Feature::Vertex(0));
    let (point_a, point_b, feature_a, feature_b) = if core_first {
        (q, p, on_core, on_point)
    } else {
        (p, q, on_point, on_core)
    };
    CoreClosest {
        point_a,
        point_b,
        distance: d2.sqrt(),
        feature_a,
        feature_b,
    }
}

/// How far the world point `p` lies outside `shape` (0 inside or on it).
pub fn distance_to_point(shape: &Placed, p: DVec2) -> f64 {
    (distance_to_core(shape, p) - shape.shape.radius()).max(0.0)
}

/// How far the world point `p` lies from `shape`'s core: a circle's centre, a capsule's
/// segment, a polygon (0 inside or on it). For a rounded shape, the radius that would put
/// `p` on its boundary.
pub fn distance_to_core(shape: &Placed, p: DVec2) -> f64 {
    if let Some(chain) = shape.shape.as_chain() {
        // A chain's points are its core: the nearest of its pieces and ghost edges.
        let points: Vec<DVec2> = chain
            .points()
            .iter()
            .map(|q| shape.pose.apply(*q))
            .collect();
        let links = points.len() - usize::from(!chain.is_loop());
        return (0..links)
            .map(|i| {
                let (s0, s1) = (points[i], points[(i + 1) % points.len()]);
                p.distance(closest_point_on_segment(p, s0, s1).0)
            })
            .fold(f64::INFINITY, f64::min);
    }
    let view = Rounded::new(shape, p);
    if view.core_contains(DVec2::ZERO) {
        return 0.0;
    }
    (0..view.segment_count())
        .map(|k| {
            let (s0, s1) = view.segment(k);
            closest_point_on_segment(DVec2::ZERO, s0, s1).0.length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The closest points of two shapes that do not overlap (world coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ClosestPoints {
    /// On A's boundary.
    pub point_a: DVec2,
    /// On B's boundary.
    pub point_b: DVec2,
    /// The feature of A's core that `point_a` comes from.
    pub feature_a: Feature,
    /// The feature of B's core that `point_b` comes from.
    pub feature_b: Feature,
}

/// How far apart two shapes are.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proximity {
    /// The shortest distance between the shapes; 0 when they touch or intersect.
    pub distance: f64,
    /// The points realising `distance`; `None` when the shapes intersect. Touching shapes
    /// have both points at the touching place.
    pub closest: Option<ClosestPoints>,
}

/// Distance and closest points of two shapes known not to intersect.
pub(crate) fn proximity_of_apart(a: &Rounded, b: &Rounded, origin: DVec2) -> Proximity {
    proximity_from(closest_cores(a, b), (a.radius, b.radius), origin)
}

/// [`proximity_of_apart`], starting from `hint` for two polygons (see
/// [`closest_polygon_cores`]) and leaving there the hint for next time. Where several pairs
/// of points are closest (parallel edges), it may give another of them than
/// [`proximity_of_apart`] does: the same distance.
pub(crate) fn proximity_of_apart_near(
    a: &Rounded,
    b: &Rounded,
    origin: DVec2,
    hint: &mut Option<PolygonHint>,
) -> Proximity {
    let found = if proves_closest_edges(a, b) {
        closest_polygon_cores(a, b, *hint).map(|(c, pair)| {
            *hint = Some(pair);
            c
        })
    } else {
        closest_cores(a, b)
    };
    proximity_from(found, (a.radius, b.radius), origin)
}

/// The proximity of two shapes whose cores are closest at `found` (`None`: they overlap).
pub(crate) fn proximity_from(
    found: Option<CoreClosest>,
    (radius_a, radius_b): (f64, f64),
    origin: DVec2,
) -> Proximity {
    let Some(c) = found else {
        // Only rounding noise can bring this here: cores that overlap do intersect.
        return Proximity {
            distance: 0.0,
            closest: None,
        };
    };
    let axis = if c.distance > 0.0 {
        (c.point_b - c.point_a) / c.distance
    } else {
        DVec2::ZERO
    };
    Proximity {
        distance: (c.distance - radius_a - radius_b).max(0.0),
        closest: Some(ClosestPoints {
            point_a: c.point_a + axis * radius_a + origin,
            point_b: c.point_b - axis * radius_b + origin,
            feature_a: c.feature_a,
            feature_b: c.feature_b,
        }),
    }
}
