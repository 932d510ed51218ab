//! A file's claim judged: which pair it is about (as the file numbers it), what was claimed,
//! and the [`ContactCheck`] against the exact result, with `previous-poses` for a capture. One
//! record for `diagnose` on a shape set and on a capture, for the window's claim panels and for
//! a game's tests; [`ContactCheck`] is the same verdict with no pair and no claim.

use super::agreement::differences_from;
use crate::query::{Mistake, PairRecord};
use crate::reported_sentence;
use crate::text::{broken_promise, f32_error, summary_sentence};
use crate::{ContactCheck, Reported};
use serde::ser::SerializeMap;
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

/// A's and B's names in their file, if they have one.
pub type Names = (Option<Arc<str>>, Option<Arc<str>>);

/// A file's claim about a pair, judged. Serialized as `diagnose --json` prints a claim: `a`,
/// `b`, `piece` (a chain's), `agrees`, `matches`, at f32 `tolerance` and `error`, `exact` (the
/// pair as `query --json` prints it, with the file's `a` and `b`) and `differences`.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Shape A as its file numbers it: its index in a shape set, its id in a capture (ids reach
    /// 2^53, beyond a 32-bit target's `usize`).
    pub a: u64,
    /// Shape B, as `a`.
    pub b: u64,
    /// A's and B's names, if they have one.
    pub names: Names,
    /// What was claimed.
    pub claimed: Reported,
    /// The claim against the exact result.
    pub check: ContactCheck,
    /// In a capture, for a claim that disagrees: the correct test at the pair's poses in the
    /// frame before reproduces it (a stale contact, `previous-poses`).
    pub previous_poses: bool,
}

impl Judgement {
    /// Whether the claim agrees with the exact result.
    pub fn agrees(&self) -> bool {
        self.check.agrees
    }

    /// Every cause that reproduces the claim, in [`Cause::ALL`]'s order: the mistakes, then
    /// `previous-poses`. Empty when it agrees.
    pub fn causes(&self) -> impl Iterator<Item = Cause> + '_ {
        let mistakes = self.check.matches.iter().copied().map(Cause::Mistake);
        mistakes.chain(self.previous_poses.then_some(Cause::PreviousPoses))
    }

    /// The exact result as `query --json` prints it, `a` and `b` as the file numbers them.
    pub fn exact(&self) -> PairRecord {
        let piece = self.check.piece;
        PairRecord {
            piece: piece.map(|p| p.0),
            rule: piece.map(|p| p.1),
            two_sided: piece.map(|p| p.2),
            ..PairRecord::pair(self.a, self.b, self.check.exact.clone())
        }
    }

    /// The chain's piece the claim is about.
    pub fn piece(&self) -> Option<usize> {
        self.check.piece.map(|p| p.0)
    }

    /// A's and B's names to show (`id 5` for a shape with none).
    pub fn display_names(&self) -> (String, String) {
        use crate::capture::display_name;
        (
            display_name(self.a, self.names.0.as_deref()),
            display_name(self.b, self.names.1.as_deref()),
        )
    }

    /// The claim in words, when it disagrees: the pair (names with ids), claimed, exact, by
    /// how much, the causes that reproduce it and their fixes.
    pub fn lines(&self) -> Vec<String> {
        use crate::capture::labelled_name;
        let a = labelled_name(self.a, self.names.0.as_deref());
        let b = labelled_name(self.b, self.names.1.as_deref());
        crate::judgement(self, (&a, &b))
    }
}

impl Serialize for Judgement {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let check = &self.check;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("a", &self.a)?;
        map.serialize_entry("b", &self.b)?;
        if let Some(piece) = self.piece() {
            map.serialize_entry("piece", &piece)?;
        }
        map.serialize_entry("agrees", &check.agrees)?;
        map.serialize_entry("matches", &self.causes().collect::<Vec<_>>())?;
        if let Some(tolerance) = check.tolerance {
            map.serialize_entry("tolerance", &tolerance)?;
        }
        if let Some(error) = check.error {
            map.serialize_entry("error", &error)?;
        }
        map.serialize_entry("exact", &self.exact())?;
        map.serialize_entry("differences", &check.differences)?;
        map.end()
    }
}

/// A claim judged, in words: the pair, what was claimed, the exact result and by how much
/// they differ; when it disagrees, the causes that reproduce it and their fixes (`names` are
/// A's and B's).
pub fn judgement(j: &crate::Judgement, names: (&str, &str)) -> Vec<String> {
    let c = &j.check;
    let piece = match c.piece {
        Some((k, rule, _)) => format!(", piece {k} ({})", rule.name()),
        None => String::new(),
    };
    let mut by = match c.tolerance.zip(c.error) {
        Some((tau, error)) => f32_error(error, tau),
        None => differences_from(&c.differences, &c.exact),
    };
    // At f32 a speculative claim that promised more room than there is (beyond tau) is said
    // after the error; at f64 the differences say it.
    if let Some((over, tau)) = c.differences.separation.zip(c.tolerance)
        && over > tau
    {
        let distance = c.exact.distance;
        by = format!("{by}; {}", broken_promise(distance + over, distance));
    }
    let mut lines = vec![
        format!("{} / {}{piece}", names.0, names.1),
        format!("claimed: {}", reported_sentence(&j.claimed)),
        format!("exact:   {}", summary_sentence(&c.exact)),
        format!("{}: {by}", if c.agrees { "agrees" } else { "differs" }),
    ];
    if c.agrees {
        return lines;
    }
    let unexplained = j.causes().next().is_none();
    if unexplained && c.differences.separation.is_some_and(|x| x > 0.0) {
        lines.push(
            "the speculative contact's promise: no geometric mistake, the engine's separation is larger than the gap (a stale or recycled contact, or its speculative distance computed at other poses)".into(),
        );
    } else if unexplained {
        lines.push("no known mistake reproduces it".into());
    }
    for cause in j.causes() {
        lines.push(format!("reproduced by {cause}: {}", cause.explanation()));
        lines.push(format!("  fix: {}", cause.fix()));
    }
    lines
}
