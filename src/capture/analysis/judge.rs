//! A capture's claims judged: each against the exact result at its frame's poses, at the
//! capture's precision, with the known mistakes that reproduce it, and `previous-poses`, the
//! correct test at the poses of the frame before (a contact the engine did not recompute).

use crate::capture::{CaptureReader, CapturedShape, Frame, FrameClaim, Keyframe};
use crate::geometry::Placed;
use crate::scene::Precision;
use crate::{Agreement, Exact, Judgement, Names, check_contact_at};
use serde::Serialize;

/// A frame's claims, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameJudgement {
    /// The engine's step number.
    pub frame: u64,
    /// Simulated seconds.
    pub time: f64,
    /// Its claims, in the frame's order.
    pub claims: Vec<Judgement>,
    /// The events this frame completed (the step from the frame before to it, and the frame
    /// before's own), when events were asked for.
    #[serde(skip)]
    pub events: Vec<crate::capture::analysis::event::CaptureEvent>,
    /// What the engine gave that the capture holds as malformed (a NaN pose, a zero normal):
    /// each judged "malformed", never agreeing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub malformed: Vec<crate::capture::Malformed>,
}

/// Judge `claim` about `now` (A, B at the frame's poses) at `precision`; `before` gives the
/// pair at the frame before, when both shapes were there, for `previous-poses` (asked only when
/// the claim disagrees).
pub fn judge_claim(
    claim: &FrameClaim,
    names: Names,
    now: (&Placed, &Placed),
    before: impl FnOnce() -> Option<(Placed, Placed)>,
    precision: Precision,
) -> Judgement {
    let check = check_contact_at(now.0, now.1, &claim.reported, precision);
    // The correct test at the frame before, compared as a mistake is, with this frame's tau.
    let previous_poses = !check.agrees
        && before().is_some_and(|(a, b)| {
            let rule = Agreement::for_pair(precision, now.0, now.1);
            let reported = &claim.reported;
            Exact::of(&a, &b, reported.piece).outcome.is_some_and(|o| {
                rule.says_the_same(&rule.mistaken(o), reported) && rule.keeps_promise(&o, reported)
            })
        });
    Judgement {
        a: claim.a,
        b: claim.b,
        names,
        claimed: claim.reported.clone(),
        check,
        previous_poses,
    }
}

/// Every claim of `frame`, the frame `reader` last read, judged at the capture's precision.
pub fn judge_frame(reader: &CaptureReader, frame: &Frame) -> FrameJudgement {
    let precision = reader.header().precision;
    FrameJudgement {
        frame: frame.frame,
        time: frame.time,
        claims: frame
            .claims
            .iter()
            .filter_map(|claim| judge_at(reader.state(), claim, precision))
            .collect(),
        events: Vec::new(),
        malformed: frame.malformed.clone(),
    }
}

/// One claim of the frame `state` stands after, judged (`None` if it names a shape not there).
pub(in crate::capture) fn judge_at(
    state: &Keyframe,
    claim: &FrameClaim,
    precision: Precision,
) -> Option<Judgement> {
    let (a, b) = (state.shape(claim.a)?, state.shape(claim.b)?);
    Some(judge_found(state, claim, (a, b), precision))
}

/// One claim of the frame `state` stands after, about `shapes` (its A and B, found there),
/// judged.
pub(in crate::capture) fn judge_found(
    state: &Keyframe,
    claim: &FrameClaim,
    (a, b): (&CapturedShape, &CapturedShape),
    precision: Precision,
) -> Judgement {
    judge_claim(
        claim,
        (a.name.clone(), b.name.clone()),
        (&a.placed, &b.placed),
        || state.previous(claim.a).zip(state.previous(claim.b)),
        precision,
    )
}
