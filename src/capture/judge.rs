//! A capture's claims judged: each against the exact result at its frame's poses, at the
//! capture's precision, with the known mistakes that reproduce it, and `previous-poses`, the
//! correct test at the poses of the frame before (a contact the engine did not recompute).

use super::{CaptureReader, Frame, FrameClaim, Keyframe, display_name};
use crate::Reported;
use crate::diagnose::Differences;
use crate::geometry::Placed;
use crate::query::{Mistake, PairRecord};
use crate::scene::Precision;
use crate::{Agreement, Exact, check_contact_at};
use serde::{Serialize, Serializer};
use std::sync::Arc;

/// What reproduces a claim that disagrees: a known mistake of the collision test, or the
/// engine reporting a contact it computed at the poses of the frame before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A mistake of the test itself (see [`Mistake`]).
    Mistake(Mistake),
    /// The correct test on the pair's poses in the frame before: a stale contact (computed
    /// before the step moved the bodies and written with the poses after it, or kept while the
    /// bodies slept).
    PreviousPoses,
}

impl Cause {
    /// Every cause, in the order `matches` lists them.
    pub const ALL: [Cause; 6] = [
        Cause::Mistake(Mistake::NormalReversed),
        Cause::Mistake(Mistake::NaiveSmallestOverlap),
        Cause::Mistake(Mistake::EdgeNormalsOnly),
        Cause::Mistake(Mistake::ShallowIgnored),
        Cause::Mistake(Mistake::InternalEdge),
        Cause::PreviousPoses,
    ];

    /// The name files and commands use: a mistake's, or `previous-poses`.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Mistake(m) => m.name(),
            Cause::PreviousPoses => "previous-poses",
        }
    }

    /// What the engine did, in one line.
    pub fn explanation(self) -> &'static str {
        match self {
            Cause::Mistake(m) => m.explanation(),
            Cause::PreviousPoses => {
                "The contact is the correct one for the poses of the frame before: the engine \
                 reported a contact it did not recompute after the bodies moved (contact \
                 recycling, or a pair kept while its bodies slept)."
            }
        }
    }

    /// How to fix it, in one line.
    pub fn fix(self) -> &'static str {
        match self {
            Cause::Mistake(m) => m.fix(),
            Cause::PreviousPoses => {
                "Read the poses before the step and the contacts after it (Box2D's b2World_Step \
                 and Rapier's PhysicsPipeline::step compute contacts before moving the bodies), \
                 and turn contact recycling off while capturing."
            }
        }
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One claim of a capture, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimJudgement {
    /// Shape A's id.
    pub a: u64,
    /// Shape B's id.
    pub b: u64,
    /// The chain's piece the claim is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<usize>,
    /// Whether the claim agrees with the exact result at the capture's precision.
    pub agrees: bool,
    /// Every cause that reproduces it, in [`Cause::ALL`]'s order; empty when it agrees.
    pub matches: Vec<Cause>,
    /// At f32: tau for this pair.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// At f32: |m - m*| + |g - g*|.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<f64>,
    /// The exact result, as `query --json` prints it (`a` and `b` the ids).
    pub exact: PairRecord,
    /// How far the claim is from the exact result, field by field.
    #[serde(skip)]
    pub differences: Differences,
    /// What was claimed.
    #[serde(skip)]
    pub claimed: Reported,
    /// A's and B's names in the capture, if they have one.
    #[serde(skip)]
    pub names: (Option<Arc<str>>, Option<Arc<str>>),
}

impl ClaimJudgement {
    /// A's and B's names to show (`id 5` for a shape with none).
    pub fn display_names(&self) -> (String, String) {
        (
            display_name(self.a, self.names.0.as_deref()),
            display_name(self.b, self.names.1.as_deref()),
        )
    }

    /// The claim in words, when it disagrees: the pair (names with ids), claimed, exact, by
    /// how much, the causes that reproduce it and their fixes.
    pub fn lines(&self) -> Vec<String> {
        let a = super::labelled_name(self.a, self.names.0.as_deref());
        let b = super::labelled_name(self.b, self.names.1.as_deref());
        crate::text::capture_claim(self, &self.claimed, (&a, &b))
    }
}

/// A frame's claims, judged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameJudgement {
    /// The engine's step number.
    pub frame: u64,
    /// Simulated seconds.
    pub time: f64,
    /// Its claims, in the frame's order.
    pub claims: Vec<ClaimJudgement>,
    /// The events this frame completed (the step from the frame before to it, and the frame
    /// before's own), when events were asked for.
    #[serde(skip)]
    pub events: Vec<super::events::CaptureEvent>,
    /// What the engine gave that the capture holds as malformed (a NaN pose, a zero normal):
    /// each judged "malformed", never agreeing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub malformed: Vec<super::Malformed>,
}

/// Judge `claim` about `now` (A, B at the frame's poses) at `precision`; `before` gives the
/// pair at the frame before, when both shapes were there, for `previous-poses` (asked only when
/// the claim disagrees).
pub fn judge_claim(
    claim: &FrameClaim,
    names: (Option<Arc<str>>, Option<Arc<str>>),
    now: (&Placed, &Placed),
    before: impl FnOnce() -> Option<(Placed, Placed)>,
    precision: Precision,
) -> ClaimJudgement {
    let check = check_contact_at(now.0, now.1, &claim.reported, precision);
    let mut matches: Vec<Cause> = check.matches.iter().copied().map(Cause::Mistake).collect();
    if !check.agrees
        && let Some((a, b)) = before()
    {
        // The correct test at the frame before, compared as a mistake is, with this frame's tau.
        let rule = Agreement::for_pair(precision, now.0, now.1);
        let stale = Exact::of(&a, &b, claim.reported.piece).outcome;
        let reported = &claim.reported;
        if stale.is_some_and(|o| {
            rule.says_the_same(&rule.mistaken(o), reported) && rule.keeps_promise(&o, reported)
        }) {
            matches.push(Cause::PreviousPoses);
        }
    }
    let piece = check.piece;
    ClaimJudgement {
        a: claim.a,
        b: claim.b,
        piece: piece.map(|p| p.0),
        agrees: check.agrees,
        matches,
        tolerance: check.tolerance,
        error: check.error,
        exact: PairRecord {
            piece: piece.map(|p| p.0),
            rule: piece.map(|p| p.1),
            two_sided: piece.map(|p| p.2),
            ..PairRecord::pair(claim.a, claim.b, check.exact)
        },
        differences: check.differences,
        claimed: claim.reported.clone(),
        names,
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
pub(super) fn judge_at(
    state: &Keyframe,
    claim: &FrameClaim,
    precision: Precision,
) -> Option<ClaimJudgement> {
    let (a, b) = (state.shape(claim.a)?, state.shape(claim.b)?);
    Some(judge_claim(
        claim,
        (a.name.clone(), b.name.clone()),
        (&a.placed, &b.placed),
        || state.previous(claim.a).zip(state.previous(claim.b)),
        precision,
    ))
}
