//! The candidate axes of a pair: the kernel that both [`super::sat_report`] (every axis,
//! measured) and [`super::collide`] (the overlap of each, the one kept measured) walk, so the
//! two agree to the last bit.
//!
//! In report order: A's face axes, B's face axes, then the rounded-shape axis (see the module
//! comment of [`super::sat`] for why this set contains the true penetration direction).

use super::closest::closest_cores;
use super::types::{AxisSource, AxisTest, Side};
use crate::geometry::{DVec2, Feature, Interval, Rounded, project_point};

/// A candidate axis with both shadows, before the direction of the push is chosen. Every
/// axis of a report is a `Candidate` measured by [`Candidate::measure`]; `collide` needs only
/// [`Candidate::overlap`] of most of them, computed by the same arithmetic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate {
    pub source: AxisSource,
    pub axis: DVec2,
    pub a: Interval,
    pub b: Interval,
}

impl Candidate {
    /// `min(a.max - b.min, b.max - a.min)`: the shorter push of B out of A along the line.
    #[inline(always)]
    pub fn overlap(&self) -> f64 {
        self.a.overlap(&self.b)
    }

    /// The full measurement: the overlap and the direction B leaves A by it. The centres break
    /// a tie between the two directions.
    #[inline]
    pub fn measure(self, (centre_a, centre_b): (DVec2, DVec2)) -> AxisTest {
        let forward = self.a.push_forward(&self.b);
        let backward = self.a.push_backward(&self.b);
        // +1 when B leaves A faster along +axis, -1 along -axis; written as arithmetic rather
        // than branches, which random geometry would mispredict half the time.
        let mut sign =
            f64::from(u8::from(forward < backward)) - f64::from(u8::from(backward < forward));
        if sign == 0.0 {
            sign = if (centre_b - centre_a).dot(self.axis) >= 0.0 {
                1.0
            } else {
                -1.0
            };
        }
        let overlap = self.overlap();
        AxisTest {
            source: self.source,
            axis: self.axis,
            a: self.a,
            b: self.b,
            overlap,
            normal: self.axis * sign,
            separating: overlap <= 0.0,
        }
    }
}

/// The one axis of two circles, B's centre given relative to A's: the axis, projections and
/// measurement the general walk gives two 1-point cores, without building their views.
pub(crate) fn circles_axis(radius_a: f64, centre_b: DVec2, radius_b: f64) -> AxisTest {
    let a = DVec2::ZERO;
    let (source, axis) = centre_to_centre(a, centre_b);
    let candidate = Candidate {
        source,
        axis,
        a: project_point(a, radius_a, axis),
        b: project_point(centre_b, radius_b, axis),
    };
    candidate.measure((a, centre_b))
}

/// How many face axes `shape` adds: none for a point, the segment normal for a segment (one
/// line for both sides), every edge normal for a polygon.
#[inline(always)]
pub(crate) fn face_axis_count(shape: &Rounded) -> usize {
    match shape.corner_count() {
        1 => 0,
        2 => 1,
        n => n,
    }
}

/// Face axis `k` of `own`, which is shape `side` of the pair, `other` the other shape.
#[inline(always)]
pub(crate) fn face_candidate(side: Side, own: &Rounded, other: &Rounded, k: usize) -> Candidate {
    let (source, axis, own_interval) = if own.corner_count() == 2 {
        let axis = own.normal(0);
        (
            AxisSource::SegmentNormal { of: side },
            axis,
            own.project(axis),
        )
    } else {
        // A polygon's own shadow on its own normal is known; only the other shape is projected.
        let (axis, own_interval) = own.given_edge_axis(k);
        (
            AxisSource::EdgeNormal { of: side, edge: k },
            axis,
            own_interval,
        )
    };
    let other_interval = other.project(axis);
    let (a, b) = match side {
        Side::A => (own_interval, other_interval),
        Side::B => (other_interval, own_interval),
    };
    Candidate { source, axis, a, b }
}

/// The rounded-shape axis of the pair, if it has one (see [`rounded_axis`]).
pub(crate) fn rounded_candidate(a: &Rounded, b: &Rounded) -> Option<Candidate> {
    let (source, axis) = rounded_axis(a, b)?;
    Some(Candidate {
        source,
        axis,
        a: a.project(axis),
        b: b.project(axis),
    })
}

/// Two axes closer than this (in `1 - |cos|`) are one line; the later one adds nothing.
const PARALLEL: f64 = 1e-12;

/// The extra axis of a pair with a rounded shape (see the module comment), unless it is
/// parallel to an edge normal already tried.
fn rounded_axis(a: &Rounded, b: &Rounded) -> Option<(AxisSource, DVec2)> {
    let (source, axis) = match (a.corner_count(), b.corner_count()) {
        (1, 1) => return Some(centre_to_centre(a.point(0), b.point(0))),
        (1, n) if n >= 3 => {
            let (vertex, v) = nearest_corner(b, a.point(0));
            let source = AxisSource::VertexToCentre {
                polygon: Side::B,
                vertex,
            };
            (source, (a.point(0) - v).try_normalize()?)
        }
        (n, 1) if n >= 3 => {
            let (vertex, v) = nearest_corner(a, b.point(0));
            let source = AxisSource::VertexToCentre {
                polygon: Side::A,
                vertex,
            };
            (source, (b.point(0) - v).try_normalize()?)
        }
        // Two plain polygons: their edge normals are all the Minkowski difference has. With a
        // radius (rounded polygons), the cores' closest corners add a line, as for capsules.
        (n, m) if n >= 3 && m >= 3 && a.radius == 0.0 && b.radius == 0.0 => return None,
        _ => {
            let c = closest_cores(a, b)?;
            // A closest point inside an edge makes that edge's normal the axis, and every edge
            // normal is already a candidate: only two closest corners give a new line.
            let corner = |f: Feature| matches!(f, Feature::Vertex(_));
            if c.distance == 0.0 || !corner(c.feature_a) || !corner(c.feature_b) {
                return None;
            }
            let source = AxisSource::ClosestFeatures {
                a: c.feature_a,
                b: c.feature_b,
            };
            (source, (c.point_b - c.point_a) / c.distance)
        }
    };
    let repeats = |n: DVec2| 1.0 - n.dot(axis).abs() <= PARALLEL;
    if a.normals.iter().copied().any(repeats) || b.normals.iter().copied().any(repeats) {
        return None;
    }
    Some((source, axis))
}

/// The one axis of two circles: from A's centre toward B's, or +x when they coincide.
#[inline]
pub(crate) fn centre_to_centre(a: DVec2, b: DVec2) -> (AxisSource, DVec2) {
    let d = b - a;
    if d == DVec2::ZERO {
        (AxisSource::AnyAxis, DVec2::X)
    } else {
        (AxisSource::CentreToCentre, d.normalize())
    }
}

/// The corner of `polygon` nearest to `p`: `(given-order index, corner)`.
fn nearest_corner(polygon: &Rounded, p: DVec2) -> (usize, DVec2) {
    let mut best = (0, polygon.point(0));
    let mut best_d2 = best.1.distance_squared(p);
    for (i, q) in polygon.points.iter().copied().enumerate().skip(1) {
        let d2 = q.distance_squared(p);
        if d2 < best_d2 {
            (best, best_d2) = ((i, q), d2);
        }
    }
    (polygon.file_vertex(best.0), best.1)
}
