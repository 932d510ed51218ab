//! Time of impact for every kind: two solid shapes (or segments) as `toi.rs` finds it; with a
//! chain, piece by piece.
//!
//! Time of impact with a chain, piece by piece (docs/format.md, "toi --json"): a shape that
//! starts behind a piece passes through it; otherwise the piece is met as a segment, and the
//! touching direction is named by the chain rule's words.

use super::chain::{chain_piece, piece_placed};
use super::dispatch::collide;
use super::piece::{Admissible, ChainRule};
use super::toi::{Toi, ToiState, Velocity, solid_time_of_impact};
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
                solid_time_of_impact(&segment, va, b, vb, horizon)
            } else {
                solid_time_of_impact(a, va, &segment, vb, horizon)
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

/// When `a` (moving by `va`) and `b` (moving by `vb`) first touch in `[0, horizon]`, as Box2D's
/// `b2TimeOfImpact` answers it (see `toi.rs`). With a chain: overlapped when the chain rule
/// finds a contact at t = 0, else the first touch of a piece on a direction the rule admits
/// (a touch past a seam or a convex corner is not where the chain stops the shape), else
/// separated; the search's steps are that piece's. Two chains never touch.
pub fn time_of_impact(a: &Placed, va: Velocity, b: &Placed, vb: Velocity, horizon: f64) -> Toi {
    if a.shape.as_chain().is_none() && b.shape.as_chain().is_none() {
        return solid_time_of_impact(a, va, b, vb, horizon);
    }
    if a.shape.as_chain().is_some() && b.shape.as_chain().is_some() {
        return Toi::separated();
    }
    if collide(a, b).is_some() {
        return Toi {
            state: ToiState::Overlapped,
            toi: Some(0.0),
            ..Toi::separated()
        };
    }
    chain_time_of_impact(a, va, b, vb, horizon)
        .into_iter()
        .filter(|p| p.toi.state == ToiState::Hit && p.rule == Some(ChainRule::Admit))
        .map(|p| p.toi)
        .min_by(|x, y| {
            x.toi
                .unwrap_or(f64::INFINITY)
                .total_cmp(&y.toi.unwrap_or(f64::INFINITY))
        })
        .unwrap_or_else(Toi::separated)
}
