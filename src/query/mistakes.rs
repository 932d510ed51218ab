//! The known mistakes (see [`Mistake`]) as tests the core runs: each gives a [`SatReport`] with
//! the same structure as the correct test's (its axes, overlaps, verdict and MTV), so a mistake
//! can be shown beside the correct test, matched against a contact another engine reported
//! (`collidoscope diagnose`) or used to resolve a simulation.

use super::candidates::{face_axis_count, face_candidate};
use super::chain::{chain_piece, piece_segment};
use super::dispatch::distance;
use super::naive::naive_report;
use super::piece::PieceResult;
use super::sat::{Decision, finish, sat_report};
use super::types::{Mistake, Mtv, SatReport, Side, Verdict};
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
        // Two whole shapes are already collided two-sided: the mistake changes nothing there
        // (it is about a chain's pieces: [`piece_outcome`]).
        Mistake::InternalEdge => sat_report(a, b),
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

/// What a chain's piece reports, in the terms of a claim: by the chain rule (`mistake` `None`),
/// or as the code with `mistake` computes it. `None` for the two mistakes of a whole-shape SAT
/// test (`naive-smallest-overlap`, `edge-normals-only`), which do not apply to a piece.
///
/// - `normal-reversed`: the chain rule's result with its normal turned round;
/// - `shallow-ignored`: the chain rule's result, apart (distance 0) when shallower than 1e-4;
/// - `internal-edge`: the piece alone as a two-sided segment.
pub fn piece_outcome(mistake: Option<Mistake>, piece: &PieceResult) -> Option<Outcome> {
    let rule = Outcome {
        intersecting: piece.summary.intersecting,
        depth: piece.summary.depth,
        normal: piece.summary.normal,
        distance: Some(piece.summary.distance),
    };
    let apart = |distance: f64| Outcome {
        intersecting: false,
        depth: 0.0,
        normal: None,
        distance: Some(distance),
    };
    match mistake {
        None => Some(rule),
        Some(m) if !m.on_pieces() => None,
        Some(Mistake::NormalReversed) => Some(Outcome {
            normal: rule.normal.map(|n| -n),
            ..rule
        }),
        Some(Mistake::ShallowIgnored) if rule.intersecting && rule.depth < SHALLOW_THRESHOLD => {
            Some(apart(0.0))
        }
        Some(Mistake::InternalEdge) => {
            let two = piece.two_sided;
            Some(match two.normal {
                Some(normal) if two.intersecting => Outcome {
                    intersecting: true,
                    depth: two.depth,
                    normal: Some(normal),
                    distance: Some(0.0),
                },
                // Apart as a segment: the rule's `apart`, with the same distance.
                _ => apart(piece.summary.distance),
            })
        }
        Some(_) => Some(rule),
    }
}

/// The report the window shows for `mistake` on piece `piece` of the pair `a`, `b` (one a
/// chain): the piece's two-sided test (its axes, as a segment), which is `internal-edge`'s own
/// test; for `normal-reversed` and `shallow-ignored` with the chain rule's contact, mistaken,
/// as its verdict and MTV (on the axis the segment's test decided by). `None` when the
/// mistake does not apply to pieces, `piece` is no piece, or the rule reports no contact for
/// those two to change.
pub fn mistaken_piece_report(
    mistake: Mistake,
    a: &Placed,
    b: &Placed,
    piece: usize,
) -> Option<SatReport> {
    let result = chain_piece(a, b, piece)?;
    let outcome = piece_outcome(Some(mistake), &result)?;
    let segment = piece_segment(a.shape.as_chain().map_or(b, |_| a), piece)?;
    let mut report = if a.shape.as_chain().is_some() {
        sat_report(&segment, b)
    } else {
        sat_report(a, &segment)
    };
    report.mistake = Some(mistake);
    if mistake == Mistake::InternalEdge {
        return Some(report);
    }
    // The other two change the chain rule's contact; with none there is nothing to show.
    if !result.summary.intersecting {
        return None;
    }
    // The rule's depth and normal stand on the axis the segment's own test decided by.
    let axis = report.mtv.map_or(0, |m| m.axis);
    match outcome.normal.filter(|_| outcome.intersecting) {
        Some(normal) => {
            report.verdict = Verdict::Intersecting {
                axis,
                depth: outcome.depth,
            };
            report.mtv = Some(Mtv {
                axis,
                normal,
                depth: outcome.depth,
            });
        }
        None => {
            report.verdict = Verdict::Shallow {
                axis,
                depth: result.summary.depth,
                threshold: SHALLOW_THRESHOLD,
            };
            report.mtv = None;
        }
    }
    Some(report)
}
