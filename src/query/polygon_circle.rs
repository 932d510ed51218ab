//! A polygon (plain or rounded) and a circle, collided without building either world view:
//! the separating-axis walk of [`super::fast_path`] for this one pair of kinds, number for
//! number. The same candidate axes in the same order (the polygon's face normals in the order
//! the file gave its corners, then the line from the nearest corner to the centre), each
//! measured by the same expressions from the same origin (A's position), the first least
//! overlap kept, the direction by the smaller push (the centres on a tie), and the same contact
//! point. So it agrees with the report bit for bit (tests/properties.rs), and only skips the
//! work of the general walk: copying the polygon's corners and normals into a view, the
//! generic dispatch on kinds, the manifold's search for faces a circle does not have. Their
//! `distance` is the general query's closest points and margins, number for number, the same
//! way.

use super::capsule_circle::from_closest;
use super::closest::{CLEAR_MARGIN, Proximity, closest_point_on_segment};
use super::contact::{Contact, ContactPoint, ContactPoints};
use crate::geometry::{ConvexPolygon as Polygon, DVec2, Feature, Pose, Winding};

/// A shadow on an axis: (min, max).
type Shadow = (f64, f64);

/// Two axes closer than this (in `1 - |cos|`) are one line (as the walk's `PARALLEL`).
const PARALLEL: f64 = 1e-12;

/// The polygon's corners and normals in the walk's frame (relative to A's position), held
/// inline for the polygons of up to 8 corners a scene mostly has.
pub(super) const INLINE: usize = 8;

/// The contact of `polygon` at `pose` and the circle of `radius` at `centre`, or `None` when
/// they do not intersect; `polygon_is_a` says which of the pair (A or B) the polygon is: the
/// normal points from A toward B. A polygon of more than [`INLINE`] corners gives `Err`: the
/// caller takes the general walk.
pub(crate) fn collide_polygon_circle(
    polygon: &Polygon,
    pose: Pose,
    centre: DVec2,
    radius: f64,
    polygon_is_a: bool,
) -> Result<Option<Contact>, ()> {
    let n = polygon.points().len();
    if n > INLINE {
        return Err(());
    }
    // The walk's frame: everything relative to A's position.
    let origin = if polygon_is_a { pose.position } else { centre };
    let rotation = pose.rotation();
    let offset = pose.position - origin;
    let c = centre - origin;
    let rp = polygon.radius();
    // Each of length `n` (as the polygon keeps them), said so once.
    let (local_points, local_normals, extents) = (
        polygon.points(),
        &polygon.normals()[..n],
        &polygon.extents()[..n],
    );
    // Each normal turned when its face is measured (a pair apart leaves at its first gap,
    // before most are needed); every face is measured before the corner line reads them all.
    let mut normals = [DVec2::ZERO; INLINE];
    let reversed = polygon.winding() == Winding::Clockwise;
    // The polygon's shadow on its own normal `i` (turned: `u`), radius included (the walk's
    // `own_extent`).
    let own = |i: usize, u: DVec2| {
        let shift = offset.dot(u);
        let e = extents[i];
        (e.min + shift - rp, e.max + shift + rp)
    };
    let circle_on = |u: DVec2| {
        let d = c.dot(u);
        (d - radius, d + radius)
    };
    let overlap = |(a0, a1): (f64, f64), (b0, b1): (f64, f64)| {
        let (forward, backward) = (a1 - b0, b1 - a0);
        if forward < backward {
            forward
        } else {
            backward
        }
    };
    // The least face overlap, the first in the file's order (its internal edge kept); at a
    // gap, apart.
    let (mut least, mut least_i) = (f64::INFINITY, usize::MAX);
    // Internal edge `i`'s face, written out where it is measured.
    macro_rules! face {
        ($i:expr) => {{
            let i = $i;
            let u = rotation.rotate(local_normals[i]);
            normals[i] = u;
            let o = overlap(own(i, u), circle_on(u));
            if o <= 0.0 {
                return Ok(None);
            }
            let better = o < least;
            least = if better { o } else { least };
            least_i = if better { i } else { least_i };
        }};
    }
    // In the file's order, by one loop for each winding (so the edges' indices need no
    // mapping, and no check against the lists' lengths): where the file's corners run
    // clockwise, its face `k` is internal edge `n - 2 - k`, but the last stays last.
    if reversed {
        for i in (0..n - 1).rev() {
            face!(i);
        }
        face!(n - 1);
    } else {
        for i in 0..n {
            face!(i);
        }
    }
    // The corner line: from the nearest corner (the first on a tie) to the centre, unless it is
    // a face normal's line.
    let mut points = [DVec2::ZERO; INLINE];
    for i in 0..n {
        points[i] = rotation.rotate(local_points[i]) + offset;
    }
    // Kept by index, chosen without a branch (which corner is nearest follows no pattern).
    let (mut nearest_i, mut nearest_d2) = (0, points[0].distance_squared(c));
    // By index: the iterator adapters cost a tenth of the query here.
    #[allow(clippy::needless_range_loop)]
    for i in 1..n {
        let d2 = points[i].distance_squared(c);
        let better = d2 < nearest_d2;
        nearest_i = if better { i } else { nearest_i };
        nearest_d2 = if better { d2 } else { nearest_d2 };
    }
    let nearest = points[nearest_i];
    // The axis and both intervals (A's first) of the candidate kept.
    let mut kept: Option<(DVec2, Shadow, Shadow)> = None;
    if let Some(axis) = (c - nearest).try_normalize() {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &points[..n] {
            let d = p.dot(axis);
            lo = if d < lo { d } else { lo };
            hi = if d > hi { d } else { hi };
        }
        let poly = (lo - rp, hi + rp);
        let circle = circle_on(axis);
        let (a, b) = if polygon_is_a {
            (poly, circle)
        } else {
            (circle, poly)
        };
        let o = overlap(a, b);
        // A line that repeats a face normal's is no candidate: asked only where the
        // candidate would decide (most are not the least).
        let repeats = |u: &DVec2| 1.0 - u.dot(axis).abs() <= PARALLEL;
        if (o <= 0.0 || o < least) && !normals[..n].iter().any(repeats) {
            if o <= 0.0 {
                return Ok(None);
            }
            kept = Some((axis, a, b));
        }
    }
    let (axis, a, b) = kept.unwrap_or_else(|| {
        // The face, as the walk's face candidate states it: its normal as the file's winding
        // gives it, and the polygon's shadow on it.
        let i = least_i;
        let (lo, hi) = own(i, normals[i]);
        let (axis, poly) = if reversed {
            (-normals[i], (-hi, -lo))
        } else {
            (normals[i], (lo, hi))
        };
        let circle = circle_on(axis);
        if polygon_is_a {
            (axis, poly, circle)
        } else {
            (axis, circle, poly)
        }
    });
    // The walk's measure: the smaller push, the centres on a tie.
    let (forward, backward) = (a.1 - b.0, b.1 - a.0);
    let mut sign =
        f64::from(u8::from(forward < backward)) - f64::from(u8::from(backward < forward));
    if sign == 0.0 {
        let polygon_centre = rotation.rotate(polygon.centroid()) + offset;
        let (centre_a, centre_b) = if polygon_is_a {
            (polygon_centre, c)
        } else {
            (c, polygon_centre)
        };
        sign = if (centre_b - centre_a).dot(axis) >= 0.0 {
            1.0
        } else {
            -1.0
        };
    }
    let depth = overlap(a, b);
    let normal = axis * sign;
    // One point, halfway between the surfaces, from the circle's deepest point (the walk's
    // `single_point`), placed back from A's position.
    let point = if polygon_is_a {
        (c - normal * radius + normal * (0.5 * depth)) + origin
    } else {
        (DVec2::ZERO + normal * radius - normal * (0.5 * depth)) + origin
    };
    Ok(Some(Contact {
        depth,
        normal,
        points: ContactPoints::from_slice(&[ContactPoint { point, depth }]),
    }))
}

/// A polygon's core as the general queries' view of it holds it, from `origin` (A's
/// position): its corners counter-clockwise (the first again after the last), its outward
/// normals (turned when asked: most queries need few), its centre and radius, for the
/// polygons of up to [`INLINE`] corners.
pub(super) struct PolygonCore<'a> {
    points: [DVec2; INLINE + 1],
    local_normals: &'a [DVec2],
    rotation: DVec2,
    /// How many corners.
    pub n: usize,
    /// The centroid, placed.
    pub centre: DVec2,
    /// The radius grown around the core.
    pub radius: f64,
}

impl<'a> PolygonCore<'a> {
    /// Whether `polygon` has few enough corners to be held inline.
    #[inline(always)]
    pub(super) fn fits(polygon: &Polygon) -> bool {
        polygon.points().len() <= INLINE
    }

    /// The core of `polygon` at `pose` from `origin`, placed as `Rounded::at` places it; a
    /// polygon that [`PolygonCore::fits`] (checked apart, so that the core is built where it
    /// is kept instead of copied out of a `Result`).
    #[inline(always)]
    pub(super) fn of(polygon: &'a Polygon, pose: Pose, origin: DVec2) -> Self {
        let n = polygon.points().len();
        let rotation = pose.rotation();
        let offset = pose.position - origin;
        let local_points = polygon.points();
        // Written into the core where it lies: an array built apart is copied in whole.
        let mut core = Self {
            points: [DVec2::ZERO; INLINE + 1],
            local_normals: polygon.normals(),
            rotation,
            n,
            centre: rotation.rotate(polygon.centroid()) + offset,
            radius: polygon.radius(),
        };
        // By index: the iterator pair costs 40 instructions more a query here.
        #[allow(clippy::needless_range_loop)]
        for i in 0..n {
            core.points[i] = rotation.rotate(local_points[i]) + offset;
        }
        core.points[n] = core.points[0];
        core
    }

    /// The outward normal of edge `k`, turned as the view turns it.
    #[inline(always)]
    pub(super) fn normal(&self, k: usize) -> DVec2 {
        self.rotation.rotate(self.local_normals[k])
    }

    /// Edge `k` (counter-clockwise): its ends.
    #[inline(always)]
    pub(super) fn edge(&self, k: usize) -> (DVec2, DVec2) {
        (self.points[k], self.points[k + 1])
    }

    /// How far `p` lies in front of the line of edge `k`, whose normal is `normal` (negative
    /// behind it).
    #[inline(always)]
    pub(super) fn in_front(&self, (k, normal): (usize, DVec2), p: DVec2) -> f64 {
        normal.dot(p - self.points[k])
    }

    /// The core's nearest point to `c` as the view's search finds it, in one pass: over the
    /// edges `c` is on or in front of (an edge with `c` behind its line holds no closest
    /// point), the first nearest kept, as (edge, point, where along the edge, squared
    /// distance); `None` when `c` is on or behind every edge's line (inside the core). The
    /// distance of a polygon and a circle, and their time of impact's measure, both ask it.
    #[inline(always)]
    pub(super) fn nearest_facing(&self, c: DVec2) -> Option<(usize, DVec2, f64, f64)> {
        let mut inside = true;
        let mut best = (0, c, 0.0, f64::INFINITY);
        for k in 0..self.n {
            let front = self.in_front((k, self.normal(k)), c);
            inside &= front <= 0.0;
            if front < 0.0 {
                continue;
            }
            let (p0, p1) = self.edge(k);
            let (q, t) = closest_point_on_segment(c, p0, p1);
            let d2 = q.distance_squared(c);
            if d2 < best.3 {
                best = (k, q, t, d2);
            }
        }
        (!inside).then_some(best)
    }
}

/// The feature at `t` along internal edge `k` (0 at its start) of `polygon`'s core, as the
/// view names it: corners and edges in the order the file gave them.
pub(super) fn polygon_feature(polygon: &Polygon, k: usize, t: f64) -> Feature {
    if t <= 0.0 {
        Feature::Vertex(polygon.file_vertex(k))
    } else if t >= 1.0 {
        Feature::Vertex(polygon.file_vertex((k + 1) % polygon.points().len()))
    } else {
        Feature::Edge(polygon.file_edge(k))
    }
}

/// The general distance query's answer when a point of one core lies inside the other's (a
/// polygon's): every axis the walk tries overlaps by at least the two radii less rounding
/// (that point's shadow lies within both shapes' shadows on each, grown by its radius), so the
/// walk finds them intersecting unless the radii are within rounding (`scale` the coordinates'
/// size) of nothing; `Err` there.
pub(super) fn inside_core(radii: f64, scale: f64) -> Result<Proximity, ()> {
    if radii > CLEAR_MARGIN * (radii + scale) {
        Ok(Proximity {
            distance: 0.0,
            closest: None,
        })
    } else {
        Err(())
    }
}

/// The distance of `polygon` at `pose` and the circle of `radius` at `centre` as
/// [`super::distance`] finds it (from A's position, the core's closest point to the centre
/// over the edges that face it, the radii taken off A's first), number for number; `Err`
/// where the general query must decide (more than [`INLINE`] corners, or cores within
/// rounding of touching, where it asks the separating-axis walk).
pub(crate) fn distance_polygon_circle(
    polygon: &Polygon,
    pose: Pose,
    centre: DVec2,
    radius: f64,
    polygon_is_a: bool,
) -> Result<Proximity, ()> {
    if !PolygonCore::fits(polygon) {
        return Err(());
    }
    let origin = if polygon_is_a { pose.position } else { centre };
    let core = PolygonCore::of(polygon, pose, origin);
    let c = centre - origin;
    let Some((best_k, best_q, best_t, best_d2)) = core.nearest_facing(c) else {
        let scale = (c.abs() + core.centre.abs()).max_element();
        return inside_core(radius + core.radius, scale);
    };
    let distance = best_d2.sqrt();
    let on_polygon = polygon_feature(polygon, best_k, best_t);
    let polygon_side = (best_q, on_polygon, core.radius, core.centre);
    let circle = (c, Feature::Vertex(0), radius, c);
    match polygon_is_a {
        true => from_closest(polygon_side, circle, distance, origin),
        false => from_closest(circle, polygon_side, distance, origin),
    }
}
