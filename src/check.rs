//! The front door for a game's own tests: [`check_contact`] judges what an engine reported for
//! two shapes against the exact result, with no scene and no ids, and names the known mistakes
//! that reproduce it. `collidoscope diagnose` and the window judge a file's claims through it.

use crate::diagnose::{Differences, nearest, reproduces};
use crate::geometry::{DVec2, Placed};
use crate::query::{
    ChainRule, Mistake, Outcome, PairSummary, TwoSided, chain_piece, mistaken_outcome,
    piece_outcome, summarize,
};
use crate::scene::Claim;
use serde::Serialize;

/// What an engine reported for a pair, with no shape ids: A and B are the two shapes it is
/// checked against, in that order (the normal is meant from A toward B). What a user's own
/// test passes to [`check_contact`]; a file's [`Claim`] is one with the pair's ids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reported {
    /// Whether it says the interiors overlap.
    pub intersecting: bool,
    /// The depth it reports (needed when intersecting).
    pub depth: Option<f64>,
    /// The normal it reports, from A toward B (needed when intersecting).
    pub normal: Option<DVec2>,
    /// The contact points it reports, if any.
    pub contacts: Option<Vec<DVec2>>,
    /// The distance it reports when apart, if any.
    pub distance: Option<f64>,
    /// For a pair with a chain: the piece it is about (judged against that piece's result
    /// by the chain rule). `None`: against the pair's deepest piece.
    pub piece: Option<usize>,
}

impl Reported {
    /// "Intersecting by `depth` along `normal`" (from A toward B).
    pub fn intersecting(depth: f64, normal: DVec2) -> Self {
        Self {
            intersecting: true,
            depth: Some(depth),
            normal: Some(normal),
            ..Self::default()
        }
    }

    /// "Apart" (or touching).
    pub fn apart() -> Self {
        Self::default()
    }

    /// The same, with these contact points.
    pub fn with_contacts(mut self, contacts: Vec<DVec2>) -> Self {
        self.contacts = Some(contacts);
        self
    }

    /// The same, about piece `k` of a chain.
    pub fn on_piece(mut self, k: usize) -> Self {
        self.piece = Some(k);
        self
    }

    /// The same, with this distance (when apart).
    pub fn with_distance(mut self, distance: f64) -> Self {
        self.distance = Some(distance);
        self
    }
}

impl From<&Claim> for Reported {
    fn from(claim: &Claim) -> Self {
        Self {
            intersecting: claim.intersecting,
            depth: claim.depth,
            normal: claim.normal,
            contacts: claim.contacts.clone(),
            distance: claim.distance,
            piece: claim.piece,
        }
    }
}

/// An engine's contact judged against the exact result: what [`check_contact`] returns.
/// Its `Display` says it in sentences, for a failing test's message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContactCheck {
    /// Whether the report agrees with the exact result (the verdict, depth and distance to
    /// [`crate::diagnose::LENGTH_TOLERANCE`], the normal's direction to
    /// [`crate::diagnose::DIRECTION_TOLERANCE`]; contacts are
    /// compared in `differences` only).
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
}

impl std::fmt::Display for ContactCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::text::contact_check(self))
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
    let on_piece = reported.piece.and_then(|k| chain_piece(a, b, k));
    let (summary, exact) = match &on_piece {
        Some(p) => (p.summary.clone(), piece_outcome(None, p)),
        None => {
            let summary = summarize(a, b);
            let exact = Outcome {
                intersecting: summary.intersecting,
                depth: summary.depth,
                normal: summary.normal,
                distance: Some(summary.distance),
            };
            (summary, Some(exact))
        }
    };
    let agrees = exact.is_some_and(|e| reproduces(&e, reported));
    let mistaken = |m: Mistake| match &on_piece {
        Some(p) => piece_outcome(Some(m), p),
        None => m.on_whole_shapes().then(|| mistaken_outcome(m, a, b)),
    };
    let matches = if agrees {
        Vec::new()
    } else {
        Mistake::ALL
            .into_iter()
            .filter(|m| mistaken(*m).is_some_and(|o| reproduces(&o, reported)))
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
    };
    ContactCheck {
        agrees,
        exact: summary,
        piece: on_piece.map(|p| (p.piece, p.rule, p.two_sided)),
        matches,
        differences,
    }
}
