//! The known mistakes (see [`Mistake`]) as tests the core runs: each gives a [`SatReport`] with
//! the same structure as the correct test's (its axes, overlaps, verdict and MTV), so a mistake
//! can be shown beside the correct test, matched against a contact another engine reported
//! (`collidoscope diagnose`) or used to resolve a simulation.

use super::candidates::{face_axis_count, face_candidate};
use super::naive::naive_report;
use super::report::distance;
use super::sat::{Decision, finish, sat_report};
use super::types::{Mistake, SatReport, Side, Verdict};
use crate::geometry::{DVec2, Placed, Rounded};
use serde::Serialize;

/// Below this depth the `shallow-ignored` test calls a pair apart.
pub const SHALLOW_THRESHOLD: f64 = 1e-4;

/// The report of `a` and `b` as the code with `mistake` computes it.
pub fn mistaken_report(mistake: Mistake, a: &Placed, b: &Placed) -> SatReport {
    let mut report = match mistake {
        Mistake::NormalReversed => {
            let mut report = sat_report(a, b);
            if let Some(mtv) = &mut report.mtv {
                mtv.normal = -mtv.normal;
            }
            report
        }
        Mistake::NaiveSmallestOverlap => naive_report(a, b),
        Mistake::EdgeNormalsOnly => edge_normals_only(a, b),
        Mistake::ShallowIgnored => {
            let mut report = sat_report(a, b);
            if let Some(mtv) = report.mtv
                && mtv.depth < SHALLOW_THRESHOLD
            {
                report.verdict = Verdict::Shallow {
                    axis: mtv.axis,
                    depth: mtv.depth,
                    threshold: SHALLOW_THRESHOLD,
                };
                report.mtv = None;
            }
            report
        }
    };
    report.mistake = Some(mistake);
    report
}

/// The correct test's candidate axes without the one from a corner or segment end toward a
/// rounded shape. Two circles (or zero-length capsules) keep their centre line: without it
/// they would have no axis at all.
fn edge_normals_only(a: &Placed, b: &Placed) -> SatReport {
    let origin = a.pose.position;
    let (ra, rb) = (Rounded::new(a, origin), Rounded::new(b, origin));
    if ra.is_point() && rb.is_point() {
        return sat_report(a, b);
    }
    let centres = (ra.centre, rb.centre);
    let mut axes = Vec::with_capacity(ra.face_count() + rb.face_count());
    for (side, own, other) in [(Side::A, &ra, &rb), (Side::B, &rb, &ra)] {
        for k in 0..face_axis_count(own) {
            axes.push(face_candidate(side, own, other, k).measure(centres));
        }
    }
    let decision = Decision {
        threshold: 0.0,
        mistake: Some(Mistake::EdgeNormalsOnly),
    };
    finish(axes, origin, (ra.kind, rb.kind), decision)
}

/// What a test answers about a pair, in the terms of a claim: the verdict, and the depth and
/// normal when intersecting; `distance` when the test knows one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// Whether the test calls the pair intersecting.
    pub intersecting: bool,
    /// The depth it reports (0 when apart).
    pub depth: f64,
    /// The normal it reports, meant from A toward B (`None` when apart).
    pub normal: Option<DVec2>,
    /// The distance it reports when apart: `None` when that code computes none (the naive
    /// rule); 0 for a penetration it ignored.
    pub distance: Option<f64>,
}

/// What the code with `mistake` reports about `a` and `b`.
pub fn mistaken_outcome(mistake: Mistake, a: &Placed, b: &Placed) -> Outcome {
    let report = mistaken_report(mistake, a, b);
    if let Some(mtv) = report.mtv {
        return Outcome {
            intersecting: true,
            depth: mtv.depth,
            normal: Some(mtv.normal),
            distance: Some(0.0),
        };
    }
    let distance = match mistake {
        Mistake::NaiveSmallestOverlap => None,
        // Apart for these tests is apart for the correct one, except a shallow penetration
        // ignored: its distance is 0.
        _ => Some(distance(a, b).distance),
    };
    Outcome {
        intersecting: false,
        depth: 0.0,
        normal: None,
        distance,
    }
}
