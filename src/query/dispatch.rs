//! The queries that take any pair, a chain's included: each decides whether the pair has a
//! chain and hands it to the chain rule (`chain.rs`, piece by piece) or to the convex test
//! (`fast_path.rs`, `report.rs`). Everything below knows one kind of pair; only this file knows
//! both.

use super::chain::{chain_contact, chain_distance, chain_report};
use super::closest::Proximity;
use super::contact::Contact;
use super::fast_path::collide_convex;
use super::report::{PairReport, distance_convex, pair_report_convex};
use crate::geometry::Placed;

/// Whether either shape is a chain.
fn has_chain(a: &Placed, b: &Placed) -> bool {
    a.shape.as_chain().is_some() || b.shape.as_chain().is_some()
}

/// The contact of `a` and `b` when their interiors overlap, else `None` (touching shapes do not
/// intersect). `normal` points from A toward B; moving B by `depth * normal` separates them. A
/// pair with a chain is taken piece by piece, by the chain rule: the deepest contact.
pub fn collide(a: &Placed, b: &Placed) -> Option<Contact> {
    if has_chain(a, b) {
        chain_contact(a, b)
    } else {
        collide_convex(a, b)
    }
}

/// Every query on `a` and `b`, from one world view; for a pair with a chain, its deciding
/// piece's test with the chain rule's contact.
pub fn pair_report(a: &Placed, b: &Placed) -> PairReport {
    if has_chain(a, b) {
        chain_report(a, b)
    } else {
        pair_report_convex(a, b)
    }
}

/// The distance between `a` and `b` and the closest points when they do not intersect
/// ("intersecting" decided as [`collide`] decides it); for a pair with a chain, the least over
/// its pieces.
pub fn distance(a: &Placed, b: &Placed) -> Proximity {
    if has_chain(a, b) {
        chain_distance(a, b)
    } else {
        distance_convex(a, b)
    }
}
