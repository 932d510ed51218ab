//! Convex polygons: validation (with the point named) and the canonical counter-clockwise form.

use super::circle::check_point;
use super::{Interval, ShapeError, cross, right_perp};
use glam::DVec2;
use smallvec::SmallVec;

/// The order in which a polygon's points were given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winding {
    /// Counter-clockwise (positive signed area, y up).
    CounterClockwise,
    /// Clockwise (negative signed area). Common in files; kept so a save writes it back.
    Clockwise,
}

/// A convex polygon in local coordinates.
///
/// Internally the points are counter-clockwise, so that `normals()[i]`, the unit normal of the
/// edge from `points()[i]` to `points()[i + 1]`, points outward. Indices in messages and reports
/// go through [`ConvexPolygon::file_vertex`] / [`ConvexPolygon::file_edge`] to match the order
/// the points were given in.
#[derive(Clone, Debug)]
// In this order (`repr(C)`): what every query reads first (the radius, the centre) beside the
// corners, the corners before the normals and extents some queries never read, so that a
// query on shapes that come from memory touches as few cache lines as it can (measured: the
// ray at a circle 25 to 17 ns in the versus table, distance of a polygon and a circle 1.0x
// Box2D to 0.7x, when a `Shape` kept its kind in the winding's spare values; it has its own
// byte now, first).
#[repr(C)]
pub struct ConvexPolygon {
    /// Every point within `radius` of the points' polygon (its core) belongs to the shape: a
    /// rounded polygon, as Box2D's `b2MakeRoundedBox` and Rapier's `RoundConvexPolygon`. 0 for
    /// a plain polygon.
    radius: f64,
    centroid: DVec2,
    bounding_radius: f64,
    winding: Winding,
    // Inline up to 8 corners (Box2D's `B2_MAX_POLYGON_VERTICES`): a query reads the polygon
    // where the shape itself lies, instead of chasing three allocations (measured: a third of
    // a polygon distance query went to those cache misses).
    points: SmallVec<[DVec2; 8]>,
    normals: SmallVec<[DVec2; 8]>,
    /// `extents[i]`: the polygon projected onto `normals[i]` (local frame). A polygon's shadow
    /// on its own edge normals does not depend on where it is placed, so the queries read it
    /// here instead of projecting every corner again.
    extents: SmallVec<[Interval; 8]>,
}

/// Relative tolerances of validation, scaled by the polygon's extent. They only decide what is
/// degenerate (a repeated point, a straight angle); nothing smaller than rounding noise.
const REPEAT_TOLERANCE: f64 = 1e-12;
const AREA_TOLERANCE: f64 = 1e-12;
/// The sine of the smallest turn that counts as a turn rather than a straight continuation.
const TURN_TOLERANCE: f64 = 1e-9;

/// Equal as every field is (`ConvexPolygon::new` is the only maker, and the normals, the
/// extents, the centroid and the bounding radius are made from the points alone), reading only
/// what they are made from: a frame of a crowd compares every shape with the one it drew last.
impl PartialEq for ConvexPolygon {
    fn eq(&self, other: &Self) -> bool {
        self.radius == other.radius && self.winding == other.winding && self.points == other.points
    }
}

impl ConvexPolygon {
    /// A convex polygon from points in either winding, checked: at least 3 finite points, none
    /// repeated, non-zero area, no crossing edges, every corner turning the same way (a point
    /// on a straight edge is allowed).
    pub fn new(points: Vec<DVec2>) -> Result<Self, ShapeError> {
        // Huge or tiny coordinates are checked and measured in a frame scaled by a power of
        // two, which is exact: products like the shoelace terms would overflow (or vanish)
        // at 1e154, and the results must not depend on where the polygon's size sits in the
        // exponent range. Ordinary coordinates are not scaled at all.
        let scale = exact_scale(&points);
        let mut scaled: Vec<DVec2> = points.iter().map(|p| *p * scale).collect();
        validate(&scaled)?;
        let (mut points, winding) = (points, Winding::CounterClockwise);
        let winding = if signed_area2(&scaled) < 0.0 {
            points.reverse();
            scaled.reverse();
            Winding::Clockwise
        } else {
            winding
        };
        let n = points.len();
        let points: SmallVec<[DVec2; 8]> = points.into_iter().collect();
        let normals: SmallVec<[DVec2; 8]> = (0..n)
            .map(|i| right_perp(scaled[(i + 1) % n] - scaled[i]).normalize())
            .collect();
        let extents = extents_on_normals(&points, &normals);
        let centroid_scaled = centroid(&scaled);
        let bounding_radius = scaled
            .iter()
            .fold(0.0_f64, |r, p| r.max(p.distance(centroid_scaled)))
            / scale;
        Ok(Self {
            points,
            normals,
            extents,
            centroid: centroid_scaled / scale,
            bounding_radius,
            winding,
            radius: 0.0,
        })
    }

    /// This polygon grown by `radius` (finite, >= 0): every point within `radius` of it. 0
    /// makes it a plain polygon again.
    pub fn with_radius(mut self, radius: f64) -> Result<Self, ShapeError> {
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite {
                field: "radius".into(),
                found: radius.to_string(),
            });
        }
        if radius < 0.0 {
            return Err(ShapeError::RadiusNegative { found: radius });
        }
        // -0.0 is stored as 0: a plain polygon, bit for bit.
        self.radius = radius + 0.0;
        Ok(self)
    }

    /// The radius the core is grown by (0 for a plain polygon).
    #[inline]
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Whether the polygon is rounded (radius > 0).
    #[inline]
    pub fn is_rounded(&self) -> bool {
        self.radius > 0.0
    }

    /// A polygon through `points` (either winding) with this polygon's radius: what an edit of
    /// the points keeps.
    pub fn reshaped(&self, points: Vec<DVec2>) -> Result<Self, ShapeError> {
        Self::new(points)?.with_radius(self.radius)
    }

    /// A regular polygon with `sides` corners on a circle of `radius`, first corner on +x,
    /// counter-clockwise.
    pub fn regular(sides: usize, radius: f64) -> Result<Self, ShapeError> {
        let points = (0..sides)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / sides as f64;
                DVec2::new(t.cos(), t.sin()) * radius
            })
            .collect();
        Self::new(points)
    }

    /// An axis-aligned box `2 * half_extents` wide centred on the origin, counter-clockwise.
    pub fn rectangle(half_extents: DVec2) -> Result<Self, ShapeError> {
        let h = half_extents;
        Self::new(vec![
            DVec2::new(-h.x, -h.y),
            DVec2::new(h.x, -h.y),
            DVec2::new(h.x, h.y),
            DVec2::new(-h.x, h.y),
        ])
    }

    /// The half extents when the polygon is a rectangle centred on its origin with sides
    /// along the axes (what [`Self::rectangle`] makes, and an engine's box is captured as):
    /// how an engine's adapter rebuilds it as the engine's own box.
    pub fn centred_half_extents(&self) -> Option<DVec2> {
        let half = self.points.first()?.abs();
        let corners = [
            DVec2::new(-half.x, -half.y),
            DVec2::new(half.x, -half.y),
            DVec2::new(half.x, half.y),
            DVec2::new(-half.x, half.y),
        ];
        (self.points.len() == 4 && corners.iter().all(|c| self.points.contains(c))).then_some(half)
    }

    /// The points, counter-clockwise.
    pub fn points(&self) -> &[DVec2] {
        &self.points
    }

    /// `normals()[i]` is the outward unit normal of the edge `points()[i] -> points()[i + 1]`.
    pub fn normals(&self) -> &[DVec2] {
        &self.normals
    }

    /// `extents()[i]` is the polygon's projection onto `normals()[i]`, in the local frame.
    pub fn extents(&self) -> &[Interval] {
        &self.extents
    }

    /// The area centroid.
    pub fn centroid(&self) -> DVec2 {
        self.centroid
    }

    /// The largest distance from the centroid to a corner, plus the radius: the (rounded)
    /// polygon lies in the circle of this radius around its centroid.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius + self.radius
    }

    /// The winding the points were given in.
    pub fn winding(&self) -> Winding {
        self.winding
    }

    /// The points in the order they were given (what a save writes back).
    pub fn points_as_given(&self) -> Vec<DVec2> {
        let mut points = self.points.to_vec();
        if self.winding == Winding::Clockwise {
            points.reverse();
        }
        points
    }

    /// The given-order index of internal vertex `i`.
    pub fn file_vertex(&self, i: usize) -> usize {
        match self.winding {
            Winding::CounterClockwise => i,
            Winding::Clockwise => self.points.len() - 1 - i,
        }
    }

    /// The given-order index of internal edge `i`. Given-order edge `k` joins given points `k`
    /// and `k + 1`; reversing the order maps internal edge `i` to given edge `n - 2 - i`.
    pub fn file_edge(&self, i: usize) -> usize {
        let n = self.points.len();
        match self.winding {
            Winding::CounterClockwise => i,
            Winding::Clockwise => (2 * n - 2 - i) % n,
        }
    }

    /// The area (always positive), the rounded rim included: the core's area, a strip of
    /// `radius` along every edge and a whole disc in the corners.
    pub fn area(&self) -> f64 {
        let perimeter: f64 = (0..self.points.len())
            .map(|i| self.points[i].distance(self.points[(i + 1) % self.points.len()]))
            .sum();
        0.5 * signed_area2(&self.points)
            + perimeter * self.radius
            + std::f64::consts::PI * self.radius * self.radius
    }
}

/// A power of two that brings the largest coordinate of `points` near 1 when it is beyond
/// 1e±100; 1 otherwise (and for points that are not finite, which validation refuses).
fn exact_scale(points: &[DVec2]) -> f64 {
    let largest = points
        .iter()
        .fold(0.0_f64, |m, p| m.max(p.abs().max_element()));
    if largest == 0.0 || !largest.is_finite() || (1e-100..=1e100).contains(&largest) {
        return 1.0;
    }
    let exponent = largest.log2().floor() as i32 + 1;
    // Two steps, so neither factor leaves the normal range.
    let half = 2f64.powi(-exponent / 2);
    half * 2f64.powi(-exponent - (-exponent / 2))
}

/// The projection of `points` onto `u`.
fn project(points: &[DVec2], u: DVec2) -> Interval {
    points
        .iter()
        .fold(Interval::new(f64::INFINITY, f64::NEG_INFINITY), |i, p| {
            let d = p.dot(u);
            Interval::new(i.min.min(d), i.max.max(d))
        })
}

/// The polygon's shadow on each of its edge normals: every corner projected on every normal
/// up to [`EXHAUSTIVE_CHECK_POINTS`] corners; past that, rotating calipers (the farthest
/// corner behind edge i moves forward as i does, so one walk around finds them all, and the
/// nearest is the edge's own corner or a neighbour on the same line), the same numbers in time
/// that grows with the corners.
fn extents_on_normals(points: &[DVec2], normals: &[DVec2]) -> SmallVec<[Interval; 8]> {
    if points.len() <= EXHAUSTIVE_CHECK_POINTS {
        normals.iter().map(|u| project(points, *u)).collect()
    } else {
        extents_by_calipers(points, normals)
    }
}

/// See [`extents_on_normals`]: `points` counter-clockwise and convex, `normals[i]` the outward
/// normal of the edge from `points[i]`.
fn extents_by_calipers(points: &[DVec2], normals: &[DVec2]) -> SmallVec<[Interval; 8]> {
    let n = points.len();
    let at = |k: usize, u: DVec2| points[k % n].dot(u);
    // Climbs from `k` to where the projection on `u` stops falling (`sign` -1) or rising
    // (`sign` 1), going forward, then backward; at most once around.
    let climb = |mut k: usize, u: DVec2, sign: f64| {
        for step in [1, n - 1] {
            let mut moved = 0;
            while moved < n && sign * (at(k + step, u) - at(k, u)) > 0.0 {
                k = (k + step) % n;
                moved += 1;
            }
        }
        k
    };
    // The first farthest corner is looked for among all of them: a climb that begins on the
    // edge's own line can stop there, where corners on one straight edge project a unit in
    // the last place apart in either order.
    let mut far = (0..n)
        .min_by(|&j, &k| at(j, normals[0]).total_cmp(&at(k, normals[0])))
        .unwrap_or(0);
    normals
        .iter()
        .enumerate()
        .map(|(i, u)| {
            far = climb(far, *u, -1.0);
            let near = climb(i, *u, 1.0);
            Interval::new(at(far, *u), at(near, *u))
        })
        .collect()
}

/// Twice the signed area (shoelace formula): positive for counter-clockwise points.
fn signed_area2(points: &[DVec2]) -> f64 {
    let n = points.len();
    // Relative to the first point, which keeps the products small for far-away polygons.
    let o = points[0];
    (1..n.saturating_sub(1))
        .map(|i| cross(points[i] - o, points[i + 1] - o))
        .sum()
}

fn centroid(points: &[DVec2]) -> DVec2 {
    let o = points[0];
    let mut weighted = DVec2::ZERO;
    let mut area2 = 0.0;
    for i in 1..points.len() - 1 {
        let (p, q) = (points[i] - o, points[i + 1] - o);
        let a = cross(p, q);
        weighted += (p + q) * a;
        area2 += a;
    }
    o + weighted / (3.0 * area2)
}

/// Past this many points a polygon is checked in time that grows with the points, not their
/// square: the search for the first two crossing edges (every edge against every other) is
/// left out, and a polygon that is not convex is named by its first corner that turns the
/// wrong way, or by how many times its outline goes around. At 1,024 points that search is
/// half a million edge pairs (a few milliseconds); at 100,000 it took half a minute. Every
/// polygon up to this size gets exactly the message it always did.
pub const EXHAUSTIVE_CHECK_POINTS: usize = 1024;

/// Every rule of a convex polygon, in the order a person would fix them; indices are the
/// given order.
fn validate(points: &[DVec2]) -> Result<(), ShapeError> {
    if points.len() <= EXHAUSTIVE_CHECK_POINTS {
        validate_exhaustively(points)
    } else {
        validate_in_linear_time(points)
    }
}

/// The rules checked as a person reads them: every pair of edges looked at for a crossing
/// (quadratic in the points).
fn validate_exhaustively(points: &[DVec2]) -> Result<(), ShapeError> {
    let extent = check_points(points)?;
    check_repeats(points, extent)?;
    if collinear(points, extent) {
        return Err(ShapeError::ZeroArea);
    }
    check_crossings(points)?;
    check_turns(points)
}

/// The same rules in time that grows with the points: repeats found through a grid of cells
/// as wide as the repeat tolerance, and crossings ruled out by the outline's turning. An
/// outline whose every corner turns the same way (or goes straight on) and that turns once
/// around in all is a convex polygon, so it has no crossing edges; one that fails is not
/// convex, and is named by the first corner that turns the wrong way or, when every corner
/// turns the same way, by how many times it goes around. Gives what
/// [`validate_exhaustively`] gives for every convex polygon; for one that is not convex it can
/// name a corner where the exhaustive check names two crossing edges.
fn validate_in_linear_time(points: &[DVec2]) -> Result<(), ShapeError> {
    let extent = check_points(points)?;
    check_repeats_in_cells(points, extent)?;
    if collinear(points, extent) {
        return Err(ShapeError::ZeroArea);
    }
    check_turns(points)?;
    match turns_around(points) {
        1 => Ok(()),
        turns => Err(ShapeError::GoesAround { turns }),
    }
}

/// At least three points, each finite; the larger side of their bounding box.
fn check_points(points: &[DVec2]) -> Result<f64, ShapeError> {
    if points.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            found: points.len(),
        });
    }
    for (i, p) in points.iter().enumerate() {
        check_point(&format!("point {i}"), *p)?;
    }
    Ok(extent(points))
}

/// How many whole turns the outline makes (its corners' turning angles summed): 1 for a
/// convex polygon, more for a star drawn without lifting the pen.
fn turns_around(points: &[DVec2]) -> u64 {
    let n = points.len();
    let total: f64 = (0..n)
        .map(|i| {
            let incoming = points[i] - points[(i + n - 1) % n];
            let outgoing = points[(i + 1) % n] - points[i];
            cross(incoming, outgoing).atan2(incoming.dot(outgoing))
        })
        .sum();
    (total.abs() / std::f64::consts::TAU).round() as u64
}

/// The larger side of the bounding box.
fn extent(points: &[DVec2]) -> f64 {
    let (lo, hi) = points.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    (hi - lo).max_element()
}

/// Whether every point lies on one line (within rounding of the extent). Signed area is no
/// test for this: a symmetric bow-tie has zero signed area and is self-intersecting instead.
fn collinear(points: &[DVec2], extent: f64) -> bool {
    let o = points[0];
    let far = points
        .iter()
        .copied()
        .max_by(|p, q| p.distance_squared(o).total_cmp(&q.distance_squared(o)))
        .unwrap_or(o);
    let line = far - o;
    let tolerance = AREA_TOLERANCE * extent * line.length();
    points
        .iter()
        .all(|p| cross(line, *p - o).abs() <= tolerance)
}

fn check_repeats(points: &[DVec2], extent: f64) -> Result<(), ShapeError> {
    let tolerance = REPEAT_TOLERANCE * extent;
    for (j, q) in points.iter().enumerate() {
        if let Some(i) = points[..j].iter().position(|p| p.distance(*q) <= tolerance) {
            return Err(ShapeError::RepeatedPoint {
                first: i,
                second: j,
            });
        }
    }
    Ok(())
}

/// [`check_repeats`] through a grid of cells as wide as the tolerance: two points within the
/// tolerance lie in the same or neighbouring cells, and the cells hold the earlier points,
/// none of which repeat each other, so each cell holds only a few. Names the same pair: the
/// first point that repeats an earlier one, and the earliest it repeats.
fn check_repeats_in_cells(points: &[DVec2], extent: f64) -> Result<(), ShapeError> {
    let tolerance = REPEAT_TOLERANCE * extent;
    if tolerance == 0.0 {
        // Every point is the same (validation scales tiny polygons up first).
        return Err(ShapeError::RepeatedPoint {
            first: 0,
            second: 1,
        });
    }
    let lo = points
        .iter()
        .fold(DVec2::splat(f64::INFINITY), |lo, p| lo.min(*p));
    // Within the bounding box, so at most 1e12 cells a side: the index fits an i64.
    let cell = |p: DVec2| {
        let c = ((p - lo) / tolerance).floor();
        (c.x as i64, c.y as i64)
    };
    let mut cells: std::collections::HashMap<(i64, i64), SmallVec<[usize; 2]>> =
        std::collections::HashMap::with_capacity(points.len());
    for (j, q) in points.iter().enumerate() {
        let (cx, cy) = cell(*q);
        let mut first: Option<usize> = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for &i in cells.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                    if points[i].distance(*q) <= tolerance && first.is_none_or(|f| i < f) {
                        first = Some(i);
                    }
                }
            }
        }
        if let Some(first) = first {
            return Err(ShapeError::RepeatedPoint { first, second: j });
        }
        cells.entry((cx, cy)).or_default().push(j);
    }
    Ok(())
}

/// No two edges that do not share a corner may touch (a bow-tie, a pentagram).
fn check_crossings(points: &[DVec2]) -> Result<(), ShapeError> {
    match first_crossing(points) {
        Some((edge_a, edge_b)) => Err(ShapeError::SelfIntersecting { edge_a, edge_b }),
        None => Ok(()),
    }
}

/// The first two edges of the outline through `points` that touch without sharing a corner
/// (edge k runs from point k to the next).
pub(super) fn first_crossing(points: &[DVec2]) -> Option<(usize, usize)> {
    let n = points.len();
    for i in 0..n {
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue; // they share point 0
            }
            let (a0, a1) = (points[i], points[(i + 1) % n]);
            let (b0, b1) = (points[j], points[(j + 1) % n]);
            if segments_touch(a0, a1, b0, b1) {
                return Some((i, j));
            }
        }
    }
    None
}

/// Whether two closed segments share a point (orientation tests, collinear cases included).
fn segments_touch(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> bool {
    let d1 = cross(a1 - a0, b0 - a0);
    let d2 = cross(a1 - a0, b1 - a0);
    let d3 = cross(b1 - b0, a0 - b0);
    let d4 = cross(b1 - b0, a1 - b0);
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return true;
    }
    let on = |p: DVec2, q0: DVec2, q1: DVec2, d: f64| {
        d == 0.0 && p.cmpge(q0.min(q1)).all() && p.cmple(q0.max(q1)).all()
    };
    on(b0, a0, a1, d1) || on(b1, a0, a1, d2) || on(a0, b0, b1, d3) || on(a1, b0, b1, d4)
}

/// Every corner turns the way the whole outline does, or goes straight on.
fn check_turns(points: &[DVec2]) -> Result<(), ShapeError> {
    let n = points.len();
    let orientation = signed_area2(points).signum();
    for i in 0..n {
        let incoming = points[i] - points[(i + n - 1) % n];
        let outgoing = points[(i + 1) % n] - points[i];
        let sine = cross(incoming, outgoing) / (incoming.length() * outgoing.length());
        if sine.abs() <= TURN_TOLERANCE {
            if incoming.dot(outgoing) < 0.0 {
                return Err(ShapeError::FoldsBack { point: i });
            }
        } else if sine * orientation < 0.0 {
            return Err(ShapeError::NotConvex { point: i });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The checks in linear time against the exhaustive ones, and the calipers against every
    //! corner projected, on random polygons of every kind a file can hold.
    use super::*;

    /// xorshift64*: a fixed sequence, so a failure repeats.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// A convex polygon: corners at sorted random angles on an ellipse, some with points added
    /// on their edges, placed and sized at random, in either winding.
    fn convex(rng: &mut Rng, corners: usize) -> Vec<DVec2> {
        let mut angles: Vec<f64> = (0..corners)
            .map(|_| rng.unit() * std::f64::consts::TAU)
            .collect();
        angles.sort_by(f64::total_cmp);
        let (rx, ry) = (0.2 + rng.unit() * 3.0, 0.2 + rng.unit() * 3.0);
        let scale = 10f64.powi(rng.below(9) as i32 - 4);
        let offset =
            DVec2::new(rng.unit() - 0.5, rng.unit() - 0.5) * 10f64.powi(rng.below(7) as i32);
        let mut points = Vec::new();
        for (k, t) in angles.iter().enumerate() {
            let p = DVec2::new(t.cos() * rx, t.sin() * ry);
            points.push(p);
            if rng.below(8) == 0 {
                let next = angles[(k + 1) % corners];
                let q = DVec2::new(next.cos() * rx, next.sin() * ry);
                points.push(p.lerp(q, 0.5)); // a point on the straight edge
            }
        }
        let mut points: Vec<DVec2> = points.into_iter().map(|p| p * scale + offset).collect();
        if rng.below(2) == 0 {
            points.reverse();
        }
        points
    }

    /// A polygon that is often not valid: a convex one damaged in one of the ways files are.
    fn damaged(rng: &mut Rng, corners: usize) -> Vec<DVec2> {
        let mut points = convex(rng, corners);
        let n = points.len();
        let (i, j) = (rng.below(n), rng.below(n));
        match rng.below(7) {
            0 => points.swap(i, j),
            1 => points[i] = points[j],
            2 => points[i] = points[j] + DVec2::splat(points[j].length() * 1e-14),
            3 => points[i] = points[i].lerp(points.iter().sum::<DVec2>() / n as f64, rng.unit()),
            4 => {
                let (a, b) = (i.min(j), i.max(j));
                points[a..b].reverse();
            }
            5 => {
                // A star: every k-th corner of a regular polygon, around k times.
                let k = 2 + rng.below(3);
                let m = 2 * k + 1 + 2 * rng.below(20);
                points = (0..m)
                    .map(|c| {
                        let t = std::f64::consts::TAU * (c * k % m) as f64 / m as f64;
                        DVec2::new(t.cos(), t.sin())
                    })
                    .collect();
            }
            _ => points = (0..n).map(|_| DVec2::new(rng.unit(), rng.unit())).collect(),
        }
        points
    }

    #[test]
    fn the_check_in_linear_time_agrees_with_the_exhaustive_one() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut valid, mut named_alike, mut named_otherwise) = (0, 0, 0);
        for case in 0..20_000 {
            let corners = 3 + rng.below(if case % 10 == 0 { 300 } else { 30 });
            let points = if case % 2 == 0 {
                convex(&mut rng, corners)
            } else {
                damaged(&mut rng, corners)
            };
            let scaled: Vec<DVec2> = points.iter().map(|p| *p * exact_scale(&points)).collect();
            let exhaustive = validate_exhaustively(&scaled);
            let linear = validate_in_linear_time(&scaled);
            match (&exhaustive, &linear) {
                (Ok(()), Ok(())) => valid += 1,
                (a, b) if a == b => named_alike += 1,
                (
                    Err(ShapeError::SelfIntersecting { .. }),
                    Err(
                        ShapeError::NotConvex { .. }
                        | ShapeError::FoldsBack { .. }
                        | ShapeError::GoesAround { .. },
                    ),
                ) => named_otherwise += 1,
                _ => {
                    panic!("case {case}: exhaustive {exhaustive:?}, linear {linear:?}: {points:?}")
                }
            }
        }
        // Each kind of answer happens often enough to mean something.
        assert!(
            valid > 9_000 && named_alike > 3_000 && named_otherwise > 1_000,
            "valid {valid}, named alike {named_alike}, crossing named otherwise {named_otherwise}"
        );
        println!(
            "valid {valid}, named alike {named_alike}, a crossing named otherwise {named_otherwise}"
        );
    }

    #[test]
    fn calipers_give_every_shadow_the_corners_give() {
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        let mut worst = 0.0_f64;
        for case in 0..3_000 {
            let corners = 3 + rng.below(if case % 10 == 0 { 2_000 } else { 40 });
            let Ok(polygon) = ConvexPolygon::new(convex(&mut rng, corners)) else {
                continue;
            };
            let (points, normals) = (polygon.points(), polygon.normals());
            let by_calipers = extents_by_calipers(points, normals);
            // A dot product is rounded relative to the coordinates' size, not the polygon's:
            // corners on one straight edge can project a unit in the last place apart in
            // either order.
            let size = points
                .iter()
                .fold(0.0_f64, |m, p| m.max(p.abs().max_element()));
            for (k, u) in normals.iter().enumerate() {
                let every = project(points, *u);
                let gap = (every.min - by_calipers[k].min)
                    .abs()
                    .max((every.max - by_calipers[k].max).abs());
                worst = worst.max(gap / size);
            }
        }
        assert!(
            worst <= 1e-15,
            "worst difference {worst:e} of the coordinates' size"
        );
        println!("calipers against every corner: worst {worst:e} of the coordinates' size");
    }

    #[test]
    fn a_polygon_of_a_hundred_thousand_points_is_checked() {
        let n = 100_000;
        let ring = |n: usize| -> Vec<DVec2> {
            (0..n)
                .map(|i| {
                    let t = std::f64::consts::TAU * i as f64 / n as f64;
                    DVec2::new(t.cos(), t.sin()) * 10.0
                })
                .collect()
        };
        let polygon = ConvexPolygon::new(ring(n)).unwrap();
        assert_eq!(polygon.points().len(), n);
        let mut dented = ring(n);
        dented[70_000] *= 0.5;
        assert_eq!(
            ConvexPolygon::new(dented),
            Err(ShapeError::NotConvex { point: 70_000 })
        );
        let star: Vec<DVec2> = (0..n + 1)
            .map(|c| {
                let t = std::f64::consts::TAU * (c * 2 % (n + 1)) as f64 / (n + 1) as f64;
                DVec2::new(t.cos(), t.sin())
            })
            .collect();
        assert_eq!(
            ConvexPolygon::new(star),
            Err(ShapeError::GoesAround { turns: 2 })
        );
        let mut repeated = ring(n);
        repeated[99_999] = repeated[12_345];
        assert_eq!(
            ConvexPolygon::new(repeated),
            Err(ShapeError::RepeatedPoint {
                first: 12_345,
                second: 99_999
            })
        );
    }

    /// Two polygons are equal exactly when every field is, though only the radius, the
    /// winding and the points are compared: pairs made from the same points (equal), in the
    /// other winding, moved by an ulp, or grown (not equal).
    #[test]
    fn polygons_are_equal_exactly_when_every_field_is() {
        let all_fields = |a: &ConvexPolygon, b: &ConvexPolygon| {
            a.radius == b.radius
                && a.centroid == b.centroid
                && a.bounding_radius == b.bounding_radius
                && a.winding == b.winding
                && a.points == b.points
                && a.normals == b.normals
                && a.extents == b.extents
        };
        let mut rng = Rng(0x005e_ed0f_e9a1);
        let (mut equal, mut unequal) = (0, 0);
        for _ in 0..20_000 {
            let corners = 3 + rng.below(6);
            let points = convex(&mut rng, corners);
            let Ok(a) = ConvexPolygon::new(points.clone()) else {
                continue;
            };
            let mut others = vec![ConvexPolygon::new(points.clone()).unwrap()];
            others.extend(ConvexPolygon::new(points.iter().rev().copied().collect()));
            let mut nudged = points.clone();
            let k = rng.below(nudged.len());
            nudged[k].x = f64::from_bits(nudged[k].x.to_bits() + 1);
            others.extend(ConvexPolygon::new(nudged));
            others.extend(a.clone().with_radius(0.25));
            let corners = 3 + rng.below(6);
            others.extend(ConvexPolygon::new(convex(&mut rng, corners)));
            for b in &others {
                assert_eq!(a == *b, all_fields(&a, b), "{a:?} against {b:?}");
                if a == *b {
                    equal += 1;
                } else {
                    unequal += 1;
                }
            }
        }
        assert!(
            equal > 10_000 && unequal > 10_000,
            "{equal} equal, {unequal} not"
        );
    }
}
