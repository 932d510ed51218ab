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
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon {
    // Inline up to 8 corners (Box2D's `B2_MAX_POLYGON_VERTICES`): a query reads the polygon
    // where the shape itself lies, instead of chasing three allocations (measured: a third of
    // a polygon distance query went to those cache misses).
    points: SmallVec<[DVec2; 8]>,
    normals: SmallVec<[DVec2; 8]>,
    /// `extents[i]`: the polygon projected onto `normals[i]` (local frame). A polygon's shadow
    /// on its own edge normals does not depend on where it is placed, so the queries read it
    /// here instead of projecting every corner again.
    extents: SmallVec<[Interval; 8]>,
    centroid: DVec2,
    bounding_radius: f64,
    winding: Winding,
}

/// Relative tolerances of validation, scaled by the polygon's extent. They only decide what is
/// degenerate (a repeated point, a straight angle); nothing smaller than rounding noise.
const REPEAT_TOLERANCE: f64 = 1e-12;
const AREA_TOLERANCE: f64 = 1e-12;
/// The sine of the smallest turn that counts as a turn rather than a straight continuation.
const TURN_TOLERANCE: f64 = 1e-9;

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
        let extents = normals.iter().map(|u| project(&points, *u)).collect();
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
        })
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

    /// The largest distance from the centroid to a corner: the polygon lies in the circle of
    /// this radius around its centroid.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
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

    /// The area (always positive).
    pub fn area(&self) -> f64 {
        0.5 * signed_area2(&self.points)
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

/// Every rule of a convex polygon, in the order a person would fix them; indices are the
/// given order.
fn validate(points: &[DVec2]) -> Result<(), ShapeError> {
    if points.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            found: points.len(),
        });
    }
    for (i, p) in points.iter().enumerate() {
        check_point(&format!("point {i}"), *p)?;
    }
    let extent = extent(points);
    check_repeats(points, extent)?;
    if collinear(points, extent) {
        return Err(ShapeError::ZeroArea);
    }
    check_crossings(points)?;
    check_turns(points)
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
