//! The separating-axis test (SAT), kept as data.
//!
//! Two convex shapes are apart exactly when some axis exists on which their projections (their
//! "shadows") do not overlap. The test, as in Ericson 5.2.1 and the seed article on SAT:
//!
//! ```text
//! for each candidate axis u (A's edge normals, B's edge normals, then the rounded-shape axis):
//!     [a.min, a.max] = A projected on u;  [b.min, b.max] = B projected on u
//!     overlap = min(a.max - b.min, b.max - a.min)       // < 0 is a gap
//!     if overlap <= 0: separated (a SAT loop stops at the first such axis)
//! otherwise: the MTV is the axis of least overlap, pointing the way B leaves A with that move
//! ```
//!
//! **The candidate set contains the true penetration direction.** A shape here is a convex core
//! grown by a radius (`geometry::Rounded`). The least overlap over *all* directions is reached
//! at an edge normal of the Minkowski difference `A - B`. When the cores overlap, those are the
//! edge normals of the two cores (polygon edges, a capsule's segment normal). When the cores
//! are apart, it is the direction between the cores' closest points, so rounded shapes add that
//! axis: from the polygon corner nearest a circle's centre toward the centre (the seed
//! article's extra axis for polygon vs circle), or between the closest points of the two cores
//! (circle vs capsule, capsule vs capsule, capsule vs polygon) when both are corners (a closest
//! point inside an edge makes that edge's normal the direction, already a candidate), or
//! between two circles' centres. So `depth` is the penetration depth itself, not an upper
//! bound.
//!
//! **The MTV is chosen by overlap and direction.** Each axis is a line; of its two directions
//! the one that moves B out of A by the shorter distance is kept (`normal`, pointing from A
//! toward B). Taking the axis's sign "as it comes" (an inward normal of a clockwise polygon)
//! is the seed article's bug: `naive` keeps it to show the difference.

use super::closest::closest_cores;
use crate::geometry::{DVec2, Feature, Interval, Placed, Rounded, Shape, ShapeKind, project_point};
use serde::Serialize;

/// Which shape of the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Side {
    /// The first shape.
    A,
    /// The second shape.
    B,
}

/// Where a candidate axis comes from. Edge and vertex indices are in the order the shape's
/// points were given.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AxisSource {
    /// The normal of edge `edge` (from point `edge` to point `edge + 1`) of polygon `of`.
    EdgeNormal {
        /// The polygon.
        of: Side,
        /// Edge index.
        edge: usize,
    },
    /// The normal of capsule `of`'s core segment.
    SegmentNormal {
        /// The capsule.
        of: Side,
    },
    /// From the corner of `polygon` nearest the circle's centre toward that centre.
    VertexToCentre {
        /// The polygon (the circle is the other shape).
        polygon: Side,
        /// The corner's index.
        vertex: usize,
    },
    /// From the closest point of A's core toward the closest point of B's core.
    ClosestFeatures {
        /// A's feature.
        a: Feature,
        /// B's feature.
        b: Feature,
    },
    /// From A's centre toward B's centre (two circles).
    CentreToCentre,
    /// Two circles with one centre: every direction is as good; +x is used.
    AnyAxis,
}

/// One candidate axis, measured.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AxisTest {
    /// Where the axis comes from.
    pub source: AxisSource,
    /// The unit axis as its source gives it: an edge's right-hand normal in the winding the
    /// points were given in (inward for a clockwise polygon), or pointing from A's feature
    /// toward B's for the other sources.
    pub axis: DVec2,
    /// A's projection onto `axis` (world coordinates).
    pub a: Interval,
    /// B's projection onto `axis`.
    pub b: Interval,
    /// `min(a.max - b.min, b.max - a.min)`: how far B must move along the axis to leave A;
    /// negative is the gap between them.
    pub overlap: f64,
    /// `axis` or `-axis`: the direction in which B leaves A with the move `overlap`
    /// (from A toward B). On a tie, the direction from A's centre toward B's.
    pub normal: DVec2,
    /// Whether the projections are apart or only touch (`overlap <= 0`).
    pub separating: bool,
}

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

/// How the test ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Some axis shows a gap.
    Separated {
        /// The first axis with `overlap <= 0`: where a SAT loop exits early.
        first: usize,
        /// The axis with the widest gap.
        widest: usize,
        /// That gap (> 0).
        gap: f64,
    },
    /// No gap, but the projections only touch on `axis`: boundaries meet, interiors do not.
    Touching {
        /// The first axis whose projections touch.
        axis: usize,
    },
    /// Every axis overlaps.
    Intersecting {
        /// The axis of least overlap (the MTV's).
        axis: usize,
        /// Its overlap: the penetration depth.
        depth: f64,
    },
}

/// The minimum translation vector: moving B by `depth * normal` (or A by `-depth * normal`)
/// separates the shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mtv {
    /// Index of the axis it comes from.
    pub axis: usize,
    /// Unit vector from A toward B.
    pub normal: DVec2,
    /// Penetration depth (> 0).
    pub depth: f64,
}

impl Mtv {
    /// `depth * normal`: the translation of B.
    pub fn translation(&self) -> DVec2 {
        self.normal * self.depth
    }
}

/// The whole separating-axis test of a pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SatReport {
    /// A's kind.
    pub kind_a: ShapeKind,
    /// B's kind.
    pub kind_b: ShapeKind,
    /// Every candidate axis, in the order a SAT loop tries them.
    pub axes: Vec<AxisTest>,
    /// How it ended.
    pub verdict: Verdict,
    /// The MTV when intersecting.
    pub mtv: Option<Mtv>,
}

impl SatReport {
    /// Whether the interiors overlap.
    pub fn intersecting(&self) -> bool {
        self.mtv.is_some()
    }

    /// The axis that decided: the early-out axis when apart or touching, the MTV's axis when
    /// intersecting.
    pub fn deciding_axis(&self) -> usize {
        match self.verdict {
            Verdict::Separated { first, .. } => first,
            Verdict::Touching { axis } | Verdict::Intersecting { axis, .. } => axis,
        }
    }
}

/// The separating-axis test of `a` and `b`, every candidate axis measured.
pub fn explain(a: &Placed, b: &Placed) -> SatReport {
    let origin = a.pose.position;
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        // Two circles have one axis: measured directly, as the general walk would.
        let axis = circles_axis(ca.radius, b.pose.position - origin, cb.radius);
        return finish(vec![axis], origin, (ShapeKind::Circle, ShapeKind::Circle));
    }
    explain_rounded(&Rounded::new(a, origin), &Rounded::new(b, origin), origin)
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

/// [`explain`] on world views made relative to `origin`.
pub(crate) fn explain_rounded(a: &Rounded, b: &Rounded, origin: DVec2) -> SatReport {
    let centres = (a.centre, b.centre);
    let mut axes = Vec::with_capacity(a.face_count() + b.face_count() + 1);
    for (side, own, other) in [(Side::A, a, b), (Side::B, b, a)] {
        for k in 0..face_axis_count(own) {
            axes.push(face_candidate(side, own, other, k).measure(centres));
        }
    }
    if let Some(candidate) = rounded_candidate(a, b) {
        axes.push(candidate.measure(centres));
    }
    finish(axes, origin, (a.kind, b.kind))
}

/// The report of measured axes (relative to `origin`): the verdict, then the shadows back in
/// world coordinates.
fn finish(
    mut axes: Vec<AxisTest>,
    origin: DVec2,
    (kind_a, kind_b): (ShapeKind, ShapeKind),
) -> SatReport {
    let (verdict, mtv) = decide(&axes);
    for test in &mut axes {
        // Back to world coordinates: the projections were taken relative to `origin`.
        let shift = origin.dot(test.axis);
        test.a = Interval::new(test.a.min + shift, test.a.max + shift);
        test.b = Interval::new(test.b.min + shift, test.b.max + shift);
    }
    SatReport {
        kind_a,
        kind_b,
        axes,
        verdict,
        mtv,
    }
}

/// The verdict of measured axes. Ties go to the earlier axis, as in [`least_overlap`].
fn decide(axes: &[AxisTest]) -> (Verdict, Option<Mtv>) {
    let least = least_overlap(axes).expect("every pair has a candidate axis");
    let test = &axes[least];
    if !test.separating {
        let mtv = Mtv {
            axis: least,
            normal: test.normal,
            depth: test.overlap,
        };
        return (
            Verdict::Intersecting {
                axis: least,
                depth: test.overlap,
            },
            Some(mtv),
        );
    }
    let first = axes.iter().position(|t| t.separating).unwrap_or(least);
    if test.overlap < 0.0 {
        let gap = -test.overlap;
        (
            Verdict::Separated {
                first,
                widest: least,
                gap,
            },
            None,
        )
    } else {
        (Verdict::Touching { axis: first }, None)
    }
}

/// The index of the least overlap; the first one on a tie.
fn least_overlap(axes: &[AxisTest]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, t) in axes.iter().enumerate() {
        if best.is_none_or(|(_, overlap)| t.overlap < overlap) {
            best = Some((i, t.overlap));
        }
    }
    best.map(|(i, _)| i)
}

// The candidate axes, in report order: A's face axes, B's face axes, then the rounded-shape
// axis. `explain` measures them all; `collide` takes only the overlap of each, stops at the
// first gap, and measures the one it keeps. Both use the functions below, which is what makes
// them agree to the last bit.

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
        (n, m) if n >= 3 && m >= 3 => return None,
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
    for (i, q) in polygon.points.iter().copied().enumerate().skip(1) {
        if q.distance_squared(p) < best.1.distance_squared(p) {
            best = (i, q);
        }
    }
    (polygon.file_vertex(best.0), best.1)
}
