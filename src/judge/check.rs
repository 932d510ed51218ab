//! The front door for a game's own tests: [`check_contact`] judges what an engine reported for
//! two shapes against the exact result, with no scene and no ids, and names the known mistakes
//! that reproduce it. `collidoscope diagnose` and the window judge a file's claims through it.

use super::agreement::{Agreement, Differences, nearest};
use super::agreement::{contacts_off_from, differences_from};
use super::claim::Reported;
use crate::geometry::Placed;
use crate::query::{
    ChainRule, Mistake, Outcome, PairSummary, PieceResult, TwoSided, chain_piece, mistaken_outcome,
    piece_outcome, summarize,
};
use crate::scene::{Claim, Precision};
use crate::text::{number, point, summary_sentence};
use serde::Serialize;

/// An engine's contact judged against the exact result: what [`check_contact`] returns.
/// Its `Display` says it in sentences, for a failing test's message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContactCheck {
    /// Whether the report agrees with the exact result (at f64: the verdict, depth and
    /// distance to [`crate::diagnose::LENGTH_TOLERANCE`], the normal's direction to
    /// [`crate::diagnose::DIRECTION_TOLERANCE`]; at f32: the minimum translation vectors and
    /// gaps within `tolerance`; contacts are compared in `differences` only).
    pub agrees: bool,
    /// The exact result.
    pub exact: PairSummary,
    /// For a report on a chain's piece: the piece, the chain rule's word and the piece alone
    /// as a two-sided segment (`exact` is that piece's result).
    pub piece: Option<(usize, ChainRule, TwoSided)>,
    /// Every known mistake that reproduces the report, in [`Mistake::ALL`]'s order; empty
    /// when it agrees.
    pub matches: Vec<Mistake>,
    /// How far the report is from the exact result, field by field.
    pub differences: Differences,
    /// Judged at f32: tau, how far apart the report and the exact result may be (see
    /// [`Agreement`]).
    pub tolerance: Option<f64>,
    /// Judged at f32: how far apart they are, |m - m*| + |g - g*|.
    pub error: Option<f64>,
}

impl std::fmt::Display for ContactCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::contact_check(self))
    }
}

/// The exact result of `a` and `b` as a report is judged against: the pair's, or for a report
/// on a chain's piece that piece's by the chain rule (`None`: no such piece).
pub(crate) struct Exact {
    pub summary: PairSummary,
    pub outcome: Option<Outcome>,
    pub piece: Option<PieceResult>,
}

impl Exact {
    pub(crate) fn of(a: &Placed, b: &Placed, piece: Option<usize>) -> Self {
        match piece.and_then(|k| chain_piece(a, b, k)) {
            Some(p) => Self {
                summary: p.summary.clone(),
                outcome: piece_outcome(None, &p),
                piece: Some(p),
            },
            None => {
                let summary = summarize(a, b);
                let outcome = Outcome {
                    intersecting: summary.intersecting,
                    depth: summary.depth,
                    normal: summary.normal,
                    distance: Some(summary.distance),
                };
                Self {
                    summary,
                    outcome: Some(outcome),
                    piece: None,
                }
            }
        }
    }
}

/// Judge what an engine reported for `a` and `b` (A first: its normal from A toward B)
/// against the exact result, and name the known mistakes that reproduce it. The call a game's
/// own test makes:
///
/// ```
/// use collidoscope::{Reported, check_contact};
/// use collidoscope::geometry::{Circle, DVec2, Placed, Pose};
///
/// let a = Placed::new(Circle::new(1.0).unwrap(), Pose::IDENTITY);
/// let b = Placed::new(Circle::new(1.0).unwrap(), Pose::at(DVec2::new(1.5, 0.0)));
/// // The engine pushed B the wrong way: the normal points from B toward A.
/// let check = check_contact(&a, &b, &Reported::intersecting(0.5, DVec2::new(-1.0, 0.0)));
/// assert!(!check.agrees);
/// assert!(check.to_string().contains("normal by 180 degrees"));
/// assert!(check.to_string().contains("normal-reversed"));
/// assert!(check_contact(&a, &b, &Reported::intersecting(0.5, DVec2::X)).agrees);
/// ```
pub fn check_contact(a: &Placed, b: &Placed, reported: &Reported) -> ContactCheck {
    check_contact_at(a, b, reported, Precision::F64)
}

/// [`check_contact`] for an engine that computes at `precision`: at f32 a report agrees when it
/// is within [`Agreement::F32`]'s tau of the exact result.
///
/// ```
/// use collidoscope::{Reported, check_contact_at};
/// use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose};
/// use collidoscope::scene::Precision;
///
/// // A box resting on a floor at pixel scale, as an f32 engine reports it.
/// let floor = Placed::new(ConvexPolygon::rectangle(DVec2::new(500.0, 10.0)).unwrap(), Pose::at(DVec2::new(500.0, 0.0)));
/// let crate_ = Placed::new(ConvexPolygon::rectangle(DVec2::splat(16.0)).unwrap(), Pose::at(DVec2::new(480.0, 25.99998)));
/// let f32_report = Reported::intersecting(0.0000305, DVec2::Y);
/// assert!(!collidoscope::check_contact(&floor, &crate_, &f32_report).agrees);
/// assert!(check_contact_at(&floor, &crate_, &f32_report, Precision::F32).agrees);
/// ```
pub fn check_contact_at(
    a: &Placed,
    b: &Placed,
    reported: &Reported,
    precision: Precision,
) -> ContactCheck {
    let rule = Agreement::for_pair(precision, a, b);
    let Exact {
        summary,
        outcome,
        piece: on_piece,
    } = Exact::of(a, b, reported.piece);
    let same = outcome.is_some_and(|e| rule.says_the_same(&e, reported));
    let agrees = same && outcome.is_some_and(|e| rule.keeps_promise(&e, reported));
    let mistaken = |m: Mistake| match &on_piece {
        Some(p) => piece_outcome(Some(m), p),
        None => m.on_whole_shapes().then(|| mistaken_outcome(m, a, b)),
    };
    // A speculative claim that says what the exact result says but promised more room than
    // there is is no geometric mistake: none is named for it.
    let matches = if same {
        Vec::new()
    } else {
        Mistake::ALL
            .into_iter()
            .filter(|m| mistaken(*m).is_some_and(|o| rule.agrees(&rule.mistaken(o), reported)))
            .collect()
    };
    let differences = Differences {
        same_verdict: reported.intersecting == summary.intersecting,
        depth: reported
            .depth
            .filter(|_| reported.intersecting || summary.intersecting)
            .map(|d| d - summary.depth),
        normal_angle: reported
            .normal
            .zip(summary.normal)
            .map(|(c, e)| c.angle_to(e).abs()),
        distance: reported.distance.map(|d| d - summary.distance),
        contacts: reported
            .contacts
            .as_ref()
            .filter(|_| !summary.contacts.is_empty())
            .map(|points| {
                points
                    .iter()
                    .map(|p| nearest(*p, &summary.contacts))
                    .collect()
            }),
        separation: reported
            .separation
            .filter(|_| !reported.intersecting && !summary.intersecting)
            .map(|s| s - summary.distance),
    };
    ContactCheck {
        agrees,
        error: outcome.and_then(|e| rule.error(&e, reported)),
        tolerance: rule.tolerance(),
        exact: summary,
        piece: on_piece.map(|p| (p.piece, p.rule, p.two_sided)),
        matches,
        differences,
    }
}

/// A claim in words.
pub fn claim_sentence(claim: &Claim) -> String {
    reported_sentence(&claim.reported)
}

/// A [`ContactCheck`] in sentences: whether it agrees, what differs, the exact result and
/// the mistakes that reproduce the report.
pub fn contact_check(c: &ContactCheck) -> String {
    let e = &c.exact;
    let exact = summary_sentence(e);
    let at_f32 = c
        .tolerance
        .zip(c.error)
        .map(|(tau, error)| format!(" at f32, {}", crate::text::f32_error(error, tau)))
        .unwrap_or_default();
    let mut text = if c.agrees {
        match contacts_off_from(&c.differences, e) {
            Some(worst) => format!(
                "agrees with the exact result ({exact}){at_f32}; the contacts are off by up to {}",
                number(worst)
            ),
            None => format!("agrees with the exact result ({exact}){at_f32}"),
        }
    } else {
        format!(
            "differs from the exact result ({exact}){at_f32}: {}",
            differences_from(&c.differences, e)
        )
    };
    for m in &c.matches {
        text.push_str(&format!("\nreproduced by {m}: {}", m.explanation()));
    }
    if !c.agrees && c.matches.is_empty() {
        text.push_str("\nno known mistake reproduces it");
    }
    text
}

/// How far the farthest claimed contact is from the nearest exact one, when that is beyond
/// the length tolerance of [`crate::diagnose`] (contacts do not enter `agrees`, as
/// `collidoscope diagnose` defines it, but a person checking a manifold wants to know).
pub fn contacts_off(d: &ContactCheck) -> Option<f64> {
    contacts_off_from(&d.differences, &d.exact)
}

/// What differs beyond the tolerances of [`crate::diagnose`], in words: `the verdict;
/// normal by 180 degrees`.
pub fn differences(d: &ContactCheck) -> String {
    differences_from(&d.differences, &d.exact)
}

/// What an engine reported, in a few words: `intersecting, depth 0.2, normal (0, 1)`,
/// `apart`, `apart, distance 0.3` or, for a speculative contact, `apart, speculative: 0.02
/// along normal (-1, 0)`.
pub fn reported_sentence(r: &crate::Reported) -> String {
    if r.intersecting {
        return format!(
            "intersecting, depth {}, normal {}",
            r.depth.map(number).unwrap_or_default(),
            r.normal.map(point).unwrap_or_default()
        );
    }
    let mut words = match r.distance {
        Some(d) => format!("apart, distance {}", number(d)),
        None => "apart".into(),
    };
    if let (Some(s), Some(n)) = (r.separation, r.normal) {
        words.push_str(&format!(
            ", speculative: {} along normal {}",
            number(s),
            point(n)
        ));
    }
    words
}
