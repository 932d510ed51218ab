//! What a file says about pairs besides its shapes (format version 2): `claims`, the contacts
//! another engine reported (to be diagnosed), and `expect`, the results a fixture pins down.

use super::ShapeId;
use crate::geometry::DVec2;
use crate::query::{ChainRule, PairSummary, TwoSided};

/// What some other engine reported for a pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Shape A.
    pub a: ShapeId,
    /// Shape B.
    pub b: ShapeId,
    /// Whether it says the interiors overlap.
    pub intersecting: bool,
    /// The depth it reports (required when intersecting, > 0).
    pub depth: Option<f64>,
    /// The normal it reports, meant from A toward B (required when intersecting).
    pub normal: Option<DVec2>,
    /// The contact points it reports, if any were given.
    pub contacts: Option<Vec<DVec2>>,
    /// The distance it reports when apart, if given.
    pub distance: Option<f64>,
    /// The chain's piece the claim is about (version 3; required on a pair with a chain).
    pub piece: Option<usize>,
    /// An apart claim's speculative separation along `normal` (see [`crate::Reported`]).
    pub separation: Option<f64>,
}

impl Claim {
    /// A claim of "intersecting by `depth` along `normal`".
    pub fn intersecting(a: ShapeId, b: ShapeId, depth: f64, normal: DVec2) -> Self {
        Self {
            a,
            b,
            intersecting: true,
            depth: Some(depth),
            normal: Some(normal),
            contacts: None,
            distance: None,
            piece: None,
            separation: None,
        }
    }

    /// A claim of "apart".
    pub fn apart(a: ShapeId, b: ShapeId, distance: Option<f64>) -> Self {
        Self {
            a,
            b,
            intersecting: false,
            depth: None,
            normal: None,
            contacts: None,
            distance,
            piece: None,
            separation: None,
        }
    }

    /// The same claim about piece `piece` of the pair's chain.
    pub fn on_piece(self, piece: usize) -> Self {
        Self {
            piece: Some(piece),
            ..self
        }
    }
}

/// One pinned result of a fixture: the pair and everything `query --json` prints of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    /// Shape A.
    pub a: ShapeId,
    /// Shape B.
    pub b: ShapeId,
    /// The result.
    pub result: PairSummary,
    /// For a pair with a chain: the piece, the rule's word and the two-sided result.
    pub piece: Option<ExpectedPiece>,
}

/// What a fixture pins of a chain's piece beside the pair's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectedPiece {
    /// The piece's number.
    pub piece: usize,
    /// The chain rule's word for it.
    pub rule: ChainRule,
    /// The piece alone as a two-sided segment.
    pub two_sided: TwoSided,
}

/// The default `tolerance` of a fixture (absolute + relative: |x - y| <= tol * (1 + |y|)).
pub const DEFAULT_TOLERANCE: f64 = 1e-9;
