//! The data of the chain rule: what one piece admits ([`Admissible`]), one piece's result
//! against a shape ([`PieceResult`]), and what a report tells of a pair with a chain
//! ([`ChainReport`]). The rule itself is in `chain.rs`.

use super::record::PairSummary;
pub use super::types::{ChainRule, TwoSided};
use crate::geometry::{DVec2, Piece, cross};
use serde::Serialize;

/// A corner bending left by at least this much (the cross product of the unit directions,
/// about 0.57 degrees) is convex; less is flat or concave (Box2D's `convexTol`).
pub const CONVEX_TOLERANCE: f64 = 0.01;

/// Directions closer than this (radians) are one direction.
pub const SAME_DIRECTION: f64 = 1e-9;

/// What a piece admits: its face normal, widened over a convex end to the neighbour's (world,
/// from the piece toward the other shape).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Admissible {
    /// The piece's front normal `n1`.
    pub face: DVec2,
    /// The previous piece's normal `n0` when the tail corner is convex.
    pub tail: Option<DVec2>,
    /// The next piece's normal `n2` when the head corner is convex.
    pub head: Option<DVec2>,
}

impl Admissible {
    /// What the piece `world` (in world coordinates) admits.
    pub fn of(world: &Piece) -> Self {
        let e0 = (world.p1 - world.g0).normalize();
        let e1 = (world.p2 - world.p1).normalize();
        let e2 = (world.g3 - world.p2).normalize();
        let normal_of = |e: DVec2| DVec2::new(e.y, -e.x);
        Admissible {
            face: normal_of(e1),
            tail: (cross(e0, e1) >= CONVEX_TOLERANCE).then_some(normal_of(e0)),
            head: (cross(e1, e2) >= CONVEX_TOLERANCE).then_some(normal_of(e2)),
        }
    }

    /// Whether `centre` is strictly behind the piece `world` and behind each convex
    /// neighbour: the rule's `behind`.
    pub fn behind(&self, world: &Piece, centre: DVec2) -> bool {
        let behind_tail = self.tail.is_none_or(|n0| n0.dot(centre - world.p1) < 0.0);
        let behind_head = self.head.is_none_or(|n2| n2.dot(centre - world.p2) < 0.0);
        self.face.dot(centre - world.p1) < 0.0 && behind_tail && behind_head
    }

    /// The rule's word for a contact along the unit `u` (from the piece toward the shape):
    /// `admit` inside the range, else `skip` past a convex end and `snap` past a flat or
    /// concave one (past the head when `u` points along the piece, `e1`, else the tail).
    pub fn word_for(&self, u: DVec2) -> ChainRule {
        if self.contains(u) {
            return ChainRule::Admit;
        }
        // e1 is the face normal turned a quarter left.
        let e1 = DVec2::new(-self.face.y, self.face.x);
        let end = if u.dot(e1) > 0.0 {
            self.head
        } else {
            self.tail
        };
        if end.is_some() {
            ChainRule::Skip
        } else {
            ChainRule::Snap
        }
    }

    /// Whether the unit direction `u` lies in the admissible range (to [`SAME_DIRECTION`]).
    pub fn contains(&self, u: DVec2) -> bool {
        let turn = signed_angle(self.face, u);
        let below = self.tail.map_or(0.0, |n0| signed_angle(self.face, n0));
        let above = self.head.map_or(0.0, |n2| signed_angle(self.face, n2));
        turn >= below - SAME_DIRECTION && turn <= above + SAME_DIRECTION
    }
}

/// One piece's result against another shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceResult {
    /// The piece's number (the index of its first point).
    pub piece: usize,
    /// Which part of the rule decided.
    pub rule: ChainRule,
    /// The result as `query` reports a pair: intersecting, depth, normal (A toward B),
    /// distance, closest points, contacts.
    pub summary: PairSummary,
    /// The piece alone as a two-sided segment.
    pub two_sided: TwoSided,
    /// The piece's ends (world).
    pub ends: [DVec2; 2],
    /// The ghost points before and after it (world).
    pub ghosts: [DVec2; 2],
    /// The directions the piece admits.
    pub admissible: Admissible,
    /// The least admissible push and its direction (from the piece toward the shape), when
    /// the rule measured it (skip, admit, snap).
    pub least: Option<(DVec2, f64)>,
    /// Whether the chain is shape A of the pair (normals point from A toward B).
    pub chain_is_a: bool,
}

impl PieceResult {
    /// Whether the result is a contact (admit or snap).
    pub fn intersecting(&self) -> bool {
        self.summary.intersecting
    }
}

/// The signed angle that turns unit `from` onto unit `to` (counter-clockwise positive).
pub(super) fn signed_angle(from: DVec2, to: DVec2) -> f64 {
    cross(from, to).atan2(from.dot(to))
}

/// What the window and `explain` show of a pair with a chain: every piece's result, and which
/// piece the report's axes, contact and closest points are about.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainReport {
    /// Every piece's result, in piece order (empty for two chains).
    pub pieces: Vec<PieceResult>,
    /// The piece the report explains (an index into `pieces`): the deepest contact, else the
    /// first piece the shape passes behind or leaves to a neighbour, else the nearest.
    pub deciding: Option<usize>,
}
