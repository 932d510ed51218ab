//! Time of impact with a chain, piece by piece (docs/format.md, "toi --json"): a shape that
//! starts behind a piece passes through it; otherwise the piece is met as a segment, and the
//! touching direction is named by the chain rule's words.

use super::chain::{Admissible, ChainRule, chain_piece, piece_placed};
use super::toi::{Toi, ToiState, Velocity, time_of_impact};
use crate::geometry::{Placed, Shape};
use serde::Serialize;

/// One piece's time of impact against a moving shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceToi {
    /// The piece's number.
    pub piece: usize,
    /// `behind` when the shape starts behind the piece; the piece's rule at t = 0 when
    /// overlapped; the rule's word for the touching direction when hit; `None` when they
    /// stay apart.
    pub rule: Option<ChainRule>,
    /// The piece taken as a segment (separated, with no steps, when the shape starts behind).
    pub toi: Toi,
}

/// Every piece's time of impact for the pair `a`, `b` (one of them a chain; normals from A
/// toward B). Empty when neither is a chain, or both are.
pub fn chain_time_of_impact(
    a: &Placed,
    va: Velocity,
    b: &Placed,
    vb: Velocity,
    horizon: f64,
) -> Vec<PieceToi> {
    let (chain, chain_placed, other, chain_is_a) = match (&a.shape, &b.shape) {
        (Shape::Chain(_), Shape::Chain(_)) => return Vec::new(),
        (Shape::Chain(c), _) => (c, a, b, true),
        (_, Shape::Chain(c)) => (c, b, a, false),
        _ => return Vec::new(),
    };
    let pose = chain_placed.pose;
    chain
        .pieces()
        .filter_map(|piece| {
            let world = piece.mapped(|p| pose.apply(p));
            let admissible = Admissible::of(&world);
            if admissible.behind(&world, other.centre()) {
                return Some(PieceToi {
                    piece: piece.index,
                    rule: Some(ChainRule::Behind),
                    toi: Toi::separated(),
                });
            }
            let segment = piece_placed(&piece, pose)?;
            let toi = if chain_is_a {
                time_of_impact(&segment, va, b, vb, horizon)
            } else {
                time_of_impact(a, va, &segment, vb, horizon)
            };
            let rule = match toi.state {
                ToiState::Overlapped => Some(chain_piece(a, b, piece.index)?.rule),
                ToiState::Hit => toi.normal.map(|n| {
                    // From the piece toward the shape.
                    admissible.word_for(if chain_is_a { n } else { -n })
                }),
                ToiState::Separated => None,
            };
            Some(PieceToi {
                piece: piece.index,
                rule,
                toi,
            })
        })
        .collect()
}
