//! The smallest-overlap rule with the axis sign as it comes: the MTV many SAT tutorials give
//! first, reproduced exactly as `collidoscope diagnose` names it (`naive-smallest-overlap`).
//!
//! ```text
//! axes, in this order (world frame, points in the file's order):
//!   for each polygon edge i:          unit right-hand perpendicular (y, -x) of p[i+1] - p[i]
//!   for a capsule:                    unit right-hand perpendicular of b - a
//!   polygon vs circle, each vertex j: unit(centre - vertex j)
//!   capsule vs circle, each end:      unit(centre - end)
//!   two circles:                      unit(centre B - centre A)
//! overlap on an axis = the length of the two intervals' common part
//! intersecting when every overlap >= 1e-4; the first least overlap wins;
//! the MTV is that axis as it comes, times that overlap
//! ```
//!
//! For an edge normal "as it comes" is the right-hand normal in the winding the file used:
//! inward for a clockwise polygon. With a clockwise obstacle, a body entering one side is pushed
//! further in. (The correct rule, in `sat`, also asks which way along the axis is shorter; and
//! it tries only the corner nearest the circle, which is all the geometry needs.)

use super::candidates::centre_to_centre;
use super::sat::{Decision, finish};
use super::types::{AxisSource, AxisTest, Mistake, SatReport, Side};
use crate::geometry::{DVec2, Interval, Placed, Shape, right_perp};
use serde::Serialize;

/// Below this least overlap the naive rule calls a pair apart.
pub const NAIVE_THRESHOLD: f64 = 1e-4;

/// What the naive rule would have done.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NaiveMtv {
    /// The axis it picks (index into the naive report's axes).
    pub axis: usize,
    /// Where that axis comes from.
    pub source: AxisSource,
    /// The axis as it came: the direction the naive code moves B.
    pub normal: DVec2,
    /// The intervals' common length on that axis: how far it moves B.
    pub depth: f64,
    /// Whether that move goes against the shorter way out along the same line, pushing B
    /// deeper into A.
    pub pushes_inward: bool,
}

impl NaiveMtv {
    /// `depth * normal`: the naive translation of B.
    pub fn translation(&self) -> DVec2 {
        self.normal * self.depth
    }

    /// The naive MTV of a naive report (see [`naive_report`]), when it calls the pair
    /// intersecting.
    pub fn of(report: &SatReport) -> Option<NaiveMtv> {
        let mtv = report.mtv?;
        let test = &report.axes[mtv.axis];
        let (forward, backward) = (test.a.push_forward(&test.b), test.a.push_backward(&test.b));
        Some(NaiveMtv {
            axis: mtv.axis,
            source: test.source,
            normal: mtv.normal,
            depth: mtv.depth,
            pushes_inward: (forward < backward && mtv.normal.dot(test.axis) < 0.0)
                || (backward < forward && mtv.normal.dot(test.axis) > 0.0),
        })
    }
}

/// A shape as the naive code sees it: its points in the file's order (relative to the
/// query's origin) and its radius.
struct NaiveView {
    points: Vec<DVec2>,
    radius: f64,
    circle: bool,
    polygon: bool,
    /// For a polygon of many points, where its corners are found along an axis without
    /// projecting every one (the rule has as many axes as corners, so projecting every corner
    /// on every axis grows with their square: 55 s for one polygon of 8,000 points in a
    /// capture). `None`: every point is projected, as the rule is written.
    corners: Option<Box<CornerSearch>>,
}

/// Projecting a convex polygon's corners on an axis by searching its edges' directions: the
/// corner farthest along `u` is the one whose two edges' outward normals turn past `u`, found
/// by bisection over the normals' angles, then checked against its neighbours (corners on one
/// straight edge project a unit in the last place apart in either order).
struct CornerSearch {
    /// The point indices counter-clockwise.
    ccw: Vec<usize>,
    /// `angles[k]`: the outward normal of the edge from `ccw[k]`, as an angle from the first
    /// one's, in [0, 2 pi).
    angles: Vec<f64>,
    first: f64,
}

impl CornerSearch {
    /// Past this many corners the search is used.
    const FROM: usize = crate::geometry::EXHAUSTIVE_CHECK_POINTS;

    #[cold]
    #[inline(never)]
    fn new(points: &[DVec2]) -> Box<Self> {
        let n = points.len();
        let area2: f64 = (0..n)
            .map(|i| crate::geometry::cross(points[i], points[(i + 1) % n]))
            .sum();
        let ccw: Vec<usize> = if area2 < 0.0 {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        };
        let angle = |k: usize| {
            let normal = right_perp(points[ccw[(k + 1) % n]] - points[ccw[k]]);
            normal.y.atan2(normal.x)
        };
        let first = angle(0);
        let angles = (0..n)
            .map(|k| (angle(k) - first).rem_euclid(std::f64::consts::TAU))
            .collect();
        Box::new(Self { ccw, angles, first })
    }

    /// The index (into the points) of the corner farthest along `u`.
    fn farthest(&self, points: &[DVec2], u: DVec2) -> usize {
        let n = self.ccw.len();
        let along = (u.y.atan2(u.x) - self.first).rem_euclid(std::f64::consts::TAU);
        // Corner k lies between edges k - 1 and k: farthest along the directions between
        // their normals.
        let k = self.angles.partition_point(|a| *a < along) % n;
        (0..5)
            .map(|d| self.ccw[(k + n + d - 2) % n])
            .max_by(|i, j| points[*i].dot(u).total_cmp(&points[*j].dot(u)))
            .unwrap_or(0)
    }
}

impl NaiveView {
    fn new(placed: &Placed, origin: DVec2) -> Self {
        let pose = placed.pose;
        let (rotation, offset) = (pose.rotation(), pose.position - origin);
        let place = |p: DVec2| rotation.rotate(p) + offset;
        let (points, radius) = match &placed.shape {
            Shape::Circle(c) => (vec![offset], c.radius()),
            Shape::Capsule(c) => (vec![place(c.a()), place(c.b())], c.radius()),
            Shape::Segment(s) => (vec![place(s.a()), place(s.b())], 0.0),
            Shape::Polygon(p) => (
                p.points_as_given().into_iter().map(place).collect(),
                p.radius(),
            ),
            // The naive rule is a test of whole convex shapes; a chain is taken piece by
            // piece elsewhere. Should it be asked, it sees the first piece.
            Shape::Chain(c) => {
                let piece = c.pieces().next().map(|q| q.mapped(place));
                (piece.map_or(vec![offset], |q| vec![q.p1, q.p2]), 0.0)
            }
        };
        let polygon = matches!(placed.shape, Shape::Polygon(_));
        let corners =
            (polygon && points.len() > CornerSearch::FROM).then(|| CornerSearch::new(&points));
        Self {
            points,
            radius,
            circle: matches!(placed.shape, Shape::Circle(_)),
            polygon,
            corners,
        }
    }

    #[inline]
    fn project(&self, u: DVec2) -> Interval {
        match &self.corners {
            None => self.project_every_point(u),
            Some(corners) => self.project_by_search(corners, u),
        }
    }

    #[inline]
    fn project_every_point(&self, u: DVec2) -> Interval {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &self.points {
            let d = p.dot(u);
            lo = lo.min(d);
            hi = hi.max(d);
        }
        Interval::new(lo - self.radius, hi + self.radius)
    }

    /// Kept out of line: only polygons past [`CornerSearch::FROM`] points come here, and the
    /// rule's usual shapes keep their projection inlined (the speed guard counts it).
    #[cold]
    #[inline(never)]
    fn project_by_search(&self, corners: &CornerSearch, u: DVec2) -> Interval {
        let (lo, hi) = (
            self.points[corners.farthest(&self.points, -u)].dot(u),
            self.points[corners.farthest(&self.points, u)].dot(u),
        );
        Interval::new(lo - self.radius, hi + self.radius)
    }

    /// The face axes: every edge's right-hand perpendicular, or a capsule's segment's.
    fn face_axes(&self, side: Side, axes: &mut Vec<(AxisSource, DVec2)>) {
        if self.polygon {
            let n = self.points.len();
            for i in 0..n {
                let edge = self.points[(i + 1) % n] - self.points[i];
                if let Some(u) = right_perp(edge).try_normalize() {
                    axes.push((AxisSource::EdgeNormal { of: side, edge: i }, u));
                }
            }
        } else if !self.circle
            && let Some(u) = right_perp(self.points[1] - self.points[0]).try_normalize()
        {
            axes.push((AxisSource::SegmentNormal { of: side }, u));
        }
    }
}

/// The naive rule's report on `a` and `b`: its axes in its order, each with both intervals
/// and the common length as `overlap` (`normal` is the axis as it comes), and its verdict.
pub fn naive_report(a: &Placed, b: &Placed) -> SatReport {
    let origin = a.pose.position;
    let (va, vb) = (NaiveView::new(a, origin), NaiveView::new(b, origin));
    let mut axes = Vec::new();
    va.face_axes(Side::A, &mut axes);
    vb.face_axes(Side::B, &mut axes);
    for (side, own, circle) in [(Side::A, &va, &vb), (Side::B, &vb, &va)] {
        if !circle.circle || own.circle {
            continue;
        }
        let centre = circle.points[0];
        for (j, p) in own.points.iter().enumerate() {
            let Some(u) = (centre - *p).try_normalize() else {
                continue;
            };
            let source = if own.polygon {
                AxisSource::VertexToCentre {
                    polygon: side,
                    vertex: j,
                }
            } else {
                AxisSource::EndToCentre {
                    capsule: side,
                    end: j,
                }
            };
            axes.push((source, u));
        }
    }
    if axes.is_empty() {
        // Two circles (or shapes the code treats as circles: zero-length capsules).
        let centre = |v: &NaiveView| (v.points[0] + v.points[v.points.len() - 1]) * 0.5;
        axes.push(centre_to_centre(centre(&va), centre(&vb)));
    }
    let tests = axes
        .into_iter()
        .map(|(source, axis)| {
            let (ia, ib) = (va.project(axis), vb.project(axis));
            let overlap = ia.intersection_length(&ib);
            AxisTest {
                source,
                axis,
                a: ia,
                b: ib,
                overlap,
                normal: axis,
                separating: overlap <= 0.0,
            }
        })
        .collect();
    let decision = Decision {
        threshold: NAIVE_THRESHOLD,
        mistake: Some(Mistake::NaiveSmallestOverlap),
    };
    finish(tests, origin, (a.shape.kind(), b.shape.kind()), decision)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corner search against every corner projected, on random convex polygons past the
    /// size it is used from (points on an ellipse, some on straight edges, either winding,
    /// far from the origin), along random axes.
    #[test]
    fn the_corner_search_projects_as_every_corner_does() {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut unit = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut worst = 0.0_f64;
        for _ in 0..60 {
            let corners = CornerSearch::FROM + 1 + (unit() * 3_000.0) as usize;
            let mut angles: Vec<f64> = (0..corners)
                .map(|_| unit() * std::f64::consts::TAU)
                .collect();
            angles.sort_by(f64::total_cmp);
            angles.dedup();
            let (rx, ry) = (0.5 + unit() * 5.0, 0.5 + unit() * 5.0);
            let offset = DVec2::new(unit() - 0.5, unit() - 0.5) * 1e4;
            let mut points = Vec::new();
            for (k, t) in angles.iter().enumerate() {
                let p = DVec2::new(t.cos() * rx, t.sin() * ry) + offset;
                points.push(p);
                if k % 7 == 0 {
                    let next = angles[(k + 1) % angles.len()];
                    let q = DVec2::new(next.cos() * rx, next.sin() * ry) + offset;
                    points.push(p.lerp(q, 0.5));
                }
            }
            if unit() < 0.5 {
                points.reverse();
            }
            let search = CornerSearch::new(&points);
            let size = points
                .iter()
                .fold(0.0_f64, |m, p| m.max(p.abs().max_element()));
            for _ in 0..500 {
                let t = unit() * std::f64::consts::TAU;
                let u = DVec2::new(t.cos(), t.sin());
                let every = points
                    .iter()
                    .map(|p| p.dot(u))
                    .fold(f64::NEG_INFINITY, f64::max);
                let found = points[search.farthest(&points, u)].dot(u);
                worst = worst.max((every - found).abs() / size);
            }
        }
        assert!(worst <= 1e-15, "worst {worst:e} of the coordinates' size");
        println!(
            "the corner search against every corner: worst {worst:e} of the coordinates' size"
        );
    }
}
