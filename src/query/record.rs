//! The records a pair's answer is told in: what `query` reports of it ([`PairSummary`]) and
//! the line `query --json` prints ([`PairRecord`]), with a chain's piece when there is one.

use super::contact::{Contact, ContactPoint};
use super::types::{ChainRule, TwoSided};
use crate::geometry::DVec2;
use serde::Serialize;

/// What `query` reports of a pair (A first, B second).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairSummary {
    /// Whether the interiors overlap (depth > 0); touching is not intersecting.
    pub intersecting: bool,
    /// The penetration depth (the MTV's length); 0 when not intersecting.
    pub depth: f64,
    /// Unit vector from A toward B: moving B by `depth * normal` separates them. `None` when
    /// not intersecting.
    pub normal: Option<DVec2>,
    /// The shortest distance between the shapes; 0 when intersecting or touching.
    pub distance: f64,
    /// `[point on A, point on B]` realising `distance` when not intersecting.
    pub closest: Option<[DVec2; 2]>,
    /// The contact points (one or two) when intersecting; empty otherwise.
    pub contacts: Vec<DVec2>,
}

impl PairSummary {
    /// The record of an intersecting pair with `contact`.
    pub(crate) fn of_contact(contact: &Contact) -> Self {
        // + 0 turns a -0 component into 0, so JSON never prints -0.0.
        PairSummary {
            intersecting: true,
            depth: contact.depth,
            normal: Some(contact.normal + DVec2::ZERO),
            distance: 0.0,
            closest: None,
            contacts: contact
                .points
                .iter()
                .map(|p| p.point + DVec2::ZERO)
                .collect(),
        }
    }

    /// The contact an intersecting record tells (every point at the record's depth), or
    /// `None` when it is not intersecting.
    pub(crate) fn contact(&self) -> Option<Contact> {
        Some(Contact {
            depth: self.depth,
            normal: self.normal.filter(|_| self.intersecting)?,
            points: self
                .contacts
                .iter()
                .map(|&point| ContactPoint {
                    point,
                    depth: self.depth,
                })
                .collect(),
        })
    }
}

/// A pair's record as `query --json` prints it (and fixtures pin it): the shapes' indices,
/// then the summary's fields; for a chain's piece, also the piece, its rule and its
/// two-sided result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairRecord {
    /// Shape A: its index in a shape set, its id in a capture (ids reach 2^53, beyond a
    /// 32-bit target's `usize`).
    pub a: u64,
    /// Shape B, as `a`.
    pub b: u64,
    /// The chain's piece this entry is about (pairs with a chain only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<usize>,
    /// The chain rule's word for the piece.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<ChainRule>,
    /// What `query` reports of the pair (of the piece, by the chain rule).
    #[serde(flatten)]
    pub summary: PairSummary,
    /// The piece alone as a two-sided segment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub two_sided: Option<TwoSided>,
}

impl PairRecord {
    /// A and B as indices into the shape set the record was made from (a record of a shape
    /// set holds indices, which always fit).
    pub fn indices(&self) -> (usize, usize) {
        let index = |i: u64| usize::try_from(i).expect("a shape set's record holds indices");
        (index(self.a), index(self.b))
    }

    /// The record of an ordinary pair.
    pub fn pair(a: u64, b: u64, summary: PairSummary) -> Self {
        Self {
            a,
            b,
            piece: None,
            rule: None,
            summary,
            two_sided: None,
        }
    }
}
