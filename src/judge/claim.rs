//! The claim: what an engine reported about a pair (touching or apart, depth, normal, contacts,
//! distance; for a speculative contact its normal and separation), for shape sets and captures
//! alike: one [`Claim`] type, a pair's ids with what was [`Reported`] (a shape set's claims are
//! `Claim<ShapeId>`, `scene::Claim`; a capture frame's `Claim<u64>`, `capture::FrameClaim`).

use crate::geometry::DVec2;

/// A claim about a pair: shape A's and shape B's ids (the normal is meant from A toward B) and
/// what the engine reported. A shape set's claims name shapes by `ShapeId` (`scene::Claim`), a
/// capture's by the engine's ids (`capture::FrameClaim`).
#[derive(Clone, Debug, PartialEq)]
pub struct Claim<Id = u64> {
    /// Shape A.
    pub a: Id,
    /// Shape B.
    pub b: Id,
    /// What was reported.
    pub reported: Reported,
}

impl<Id> Claim<Id> {
    /// A claim of "intersecting by `depth` along `normal`".
    pub fn intersecting(a: Id, b: Id, depth: f64, normal: DVec2) -> Self {
        Self {
            a,
            b,
            reported: Reported::intersecting(depth, normal),
        }
    }

    /// A claim of "apart", with the distance when one was reported.
    pub fn apart(a: Id, b: Id, distance: Option<f64>) -> Self {
        Self {
            a,
            b,
            reported: Reported {
                distance,
                ..Reported::default()
            },
        }
    }

    /// The same claim about piece `piece` of the pair's chain.
    pub fn on_piece(mut self, piece: usize) -> Self {
        self.reported.piece = Some(piece);
        self
    }
}

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
    /// An apart claim's speculative contact: its smallest point separation along `normal`
    /// (>= 0), the gap the solver lets the pair close before it pushes. Judged as that promise:
    /// the exact distance must be at least this (within the rule's tolerance).
    pub separation: Option<f64>,
    /// The normal impulse the engine's solver applied at each contact point over the step
    /// (one per point of `contacts`, each >= 0): Box2D's `totalNormalImpulse`, Rapier's solver
    /// contact impulse. Never judged: shown, plotted, and said in a
    /// seam's words.
    pub impulses: Option<Vec<f64>>,
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

    /// "Apart, a speculative contact": `separation` along `normal` (from A toward B).
    pub fn speculative(separation: f64, normal: DVec2) -> Self {
        Self {
            normal: Some(normal),
            separation: Some(separation),
            ..Self::default()
        }
    }
}
