//! The separating-axis test (SAT), kept as data.
//!
//! Two convex shapes are apart exactly when some axis exists on which their projections (their
//! "shadows") do not overlap. The test, as in Ericson 5.2.1 and dyn4j's SAT article:
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
//! axis: from the polygon corner nearest a circle's centre toward the centre (the
//! extra axis SAT tutorials add for polygon vs circle), or between the closest points of the
//! two cores (circle vs capsule, capsule vs capsule, capsule vs polygon, a rounded polygon vs
//! a polygon) when both are corners (a closest point inside an edge makes that edge's normal
//! the direction, already a candidate), or between two circles' centres. So `depth` is the penetration depth itself, not an upper
//! bound.
//!
//! **The MTV is chosen by overlap and direction.** Each axis is a line; of its two directions
//! the one that moves B out of A by the shorter distance is kept (`normal`, pointing from A
//! toward B). Taking the axis's sign "as it comes" (an inward normal of a clockwise polygon)
//! is a common tutorial bug: `naive` keeps it to show the difference.
use super::candidates::{circles_axis, face_axis_count, face_candidate, rounded_candidate};
use super::types::{AxisTest, Mistake, Mtv, SatReport, Side, Verdict};
use crate::geometry::{DVec2, Interval, Placed, Rounded, Shape, ShapeKind};

/// The separating-axis test of `a` and `b`, every candidate axis measured.
pub fn sat_report(a: &Placed, b: &Placed) -> SatReport {
    let origin = a.pose.position;
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        // Two circles have one axis: measured directly, as the general walk would.
        let axis = circles_axis(ca.radius(), b.pose.position - origin, cb.radius());
        return finish(
            vec![axis],
            origin,
            (ShapeKind::Circle, ShapeKind::Circle),
            EXACT,
        );
    }
    sat_report_rounded(&Rounded::new(a, origin), &Rounded::new(b, origin), origin)
}

/// [`sat_report`] on world views made relative to `origin`.
pub(crate) fn sat_report_rounded(a: &Rounded, b: &Rounded, origin: DVec2) -> SatReport {
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
    finish(axes, origin, (a.kind, b.kind), EXACT)
}

/// How a test decides from its measured axes: the correct test calls any positive least
/// overlap intersecting; a mistaken one may have a threshold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decision {
    /// A least overlap below this (and > 0) is called apart ([`Verdict::Shallow`]).
    pub threshold: f64,
    /// Which test this is (`None`: the correct one).
    pub mistake: Option<Mistake>,
}

/// The correct test's decision.
pub(crate) const EXACT: Decision = Decision {
    threshold: 0.0,
    mistake: None,
};

/// The report of measured axes (relative to `origin`): the verdict, then the shadows back in
/// world coordinates.
pub(crate) fn finish(
    mut axes: Vec<AxisTest>,
    origin: DVec2,
    (kind_a, kind_b): (ShapeKind, ShapeKind),
    decision: Decision,
) -> SatReport {
    let (verdict, mtv) = decide(&axes, decision.threshold);
    let mut largest = 0.0_f64;
    for test in &mut axes {
        // Back to world coordinates: the projections were taken relative to `origin`.
        let shift = origin.dot(test.axis);
        test.a = Interval::new(test.a.min + shift, test.a.max + shift);
        test.b = Interval::new(test.b.min + shift, test.b.max + shift);
        for end in [test.a.min, test.a.max, test.b.min, test.b.max] {
            largest = largest.max(end.abs());
        }
    }
    SatReport {
        rounding: super::types::ROUNDING * (1.0 + largest),
        kind_a,
        kind_b,
        axes,
        verdict,
        mtv,
        mistake: decision.mistake,
    }
}

/// The verdict of measured axes. Ties go to the earlier axis, as in [`least_overlap`].
fn decide(axes: &[AxisTest], threshold: f64) -> (Verdict, Option<Mtv>) {
    let least = least_overlap(axes).expect("every pair has a candidate axis");
    let test = &axes[least];
    if !test.separating && test.overlap < threshold {
        let shallow = Verdict::Shallow {
            axis: least,
            depth: test.overlap,
            threshold,
        };
        return (shallow, None);
    }
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
