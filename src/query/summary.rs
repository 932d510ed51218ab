//! The per-pair record of `collidoscope query`: intersecting, depth, normal, distance, closest
//! points, contacts — decided by [`collide`], so it agrees with `explain` (the command) and the
//! window; a pair with a chain gets one record per piece, by the chain rule.

use super::chain::chain_pieces;
use super::closest::proximity_of_apart;
use super::dispatch::collide;
use super::record::{PairRecord, PairSummary};
use crate::geometry::{DVec2, Placed, Rounded};

/// The record of `a` and `b`.
pub fn summarize(a: &Placed, b: &Placed) -> PairSummary {
    if let Some(contact) = collide(a, b) {
        return PairSummary::of_contact(&contact);
    }
    let origin = a.pose.position;
    let proximity = proximity_of_apart(&Rounded::new(a, origin), &Rounded::new(b, origin), origin);
    PairSummary {
        intersecting: false,
        depth: 0.0,
        normal: None,
        distance: proximity.distance,
        // + 0 turns a -0 component into 0, so JSON never prints -0.0.
        closest: proximity
            .closest
            .map(|c| [c.point_a + DVec2::ZERO, c.point_b + DVec2::ZERO]),
        contacts: Vec::new(),
    }
}

/// The records `query --json` prints for shapes `i < j` (`a`, `b`): one for an ordinary pair,
/// one per piece, in piece order, for a pair with a chain, none for two chains.
pub fn pair_records(i: usize, j: usize, a: &Placed, b: &Placed) -> Vec<PairRecord> {
    let chains = (a.shape.as_chain().is_some(), b.shape.as_chain().is_some());
    if chains == (false, false) {
        return vec![PairRecord::pair(i as u64, j as u64, summarize(a, b))];
    }
    chain_pieces(a, b)
        .into_iter()
        .map(|p| PairRecord {
            a: i as u64,
            b: j as u64,
            piece: Some(p.piece),
            rule: Some(p.rule),
            summary: p.summary,
            two_sided: Some(p.two_sided),
        })
        .collect()
}
