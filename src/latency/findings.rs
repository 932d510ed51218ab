//! What the engine found: collisions (at a bucket time, or swept: first contact between two
//! buckets), the retractions a late packet made, and from the two, which collisions were
//! taken back and which stand.

use serde::Serialize;
use std::collections::HashMap;

/// A collision found: at a bucket time, or (swept) first contact between two bucket times.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Collision {
    /// The player with the smaller index.
    pub a: usize,
    /// The other player.
    pub b: usize,
    /// The bucket time, or the swept contact's first contact time (ms).
    pub time: f64,
    /// Swept contacts: the two bucket times around it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub between: Option<[f64; 2]>,
    /// When the packet that revealed it was received (ms).
    pub detected_at: f64,
    /// Which packet (its index in arrival order) revealed it.
    #[serde(skip)]
    pub packet: usize,
}

/// A collision reported earlier that a late packet took back.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Retraction {
    /// As in the collision.
    pub a: usize,
    /// As in the collision.
    pub b: usize,
    /// As in the collision.
    pub time: f64,
    /// As in the collision (swept contacts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub between: Option<[f64; 2]>,
    /// When the packet that changed the track was received (ms).
    pub retracted_at: f64,
    /// Which packet (its index in arrival order) changed it.
    #[serde(skip)]
    pub packet: usize,
}

/// A collision without when it was found: what a one-pass check reports.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The player with the smaller index.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// Bucket time or first contact time (ms).
    pub time: f64,
    /// Swept: the bucket times around it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub between: Option<[f64; 2]>,
}

impl Finding {
    /// The order of findings: time, then pair, then (bucket before swept) the interval.
    pub fn order(&self, other: &Finding) -> std::cmp::Ordering {
        let between = |f: &Finding| f.between.map(|[x, y]| (x.to_bits(), y.to_bits()));
        self.time
            .total_cmp(&other.time)
            .then(self.a.cmp(&other.a))
            .then(self.b.cmp(&other.b))
            .then(between(self).cmp(&between(other)))
    }
}

/// For each collision, in the order found, whether a later packet took it back. A pair at a
/// time can be found again only after it was taken back, so its first n collisions are the
/// ones its n retractions took back.
pub fn taken_back(collisions: &[Collision], retracted: &[Retraction]) -> Vec<bool> {
    let key = |a: usize, b: usize, time: f64, between: Option<[f64; 2]>| {
        (
            a,
            b,
            time.to_bits(),
            between.map(|[x, y]| (x.to_bits(), y.to_bits())),
        )
    };
    let mut left: HashMap<_, usize> = HashMap::new();
    for r in retracted {
        *left.entry(key(r.a, r.b, r.time, r.between)).or_default() += 1;
    }
    collisions
        .iter()
        .map(|c| {
            left.get_mut(&key(c.a, c.b, c.time, c.between))
                .is_some_and(|n| {
                    let back = *n > 0;
                    *n = n.saturating_sub(1);
                    back
                })
        })
        .collect()
}

/// Collisions minus retractions (as multisets), sorted.
pub fn standing(collisions: &[Collision], retracted: &[Retraction]) -> Vec<Finding> {
    let mut out: Vec<Finding> = collisions
        .iter()
        .zip(taken_back(collisions, retracted))
        .filter(|(_, back)| !back)
        .map(|(c, _)| Finding {
            a: c.a,
            b: c.b,
            time: c.time,
            between: c.between,
        })
        .collect();
    out.sort_by(Finding::order);
    out
}
