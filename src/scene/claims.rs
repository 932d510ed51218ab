//! What a file says about pairs besides its shapes (format version 2): `claims`, the contacts
//! another engine reported (to be diagnosed), and `expect`, the results a fixture pins down.

use super::ShapeId;
use crate::query::{ChainRule, PairSummary, TwoSided};

/// What some other engine reported for a pair of the set's shapes: the claim of
/// [`crate::judge::Claim`], its shapes named by [`ShapeId`].
pub type Claim = crate::judge::claim::Claim<ShapeId>;

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
