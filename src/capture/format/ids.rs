//! Maps keyed by shape ids, hashed fast: a capture looks shapes up by id several times per
//! shape per frame, where std's SipHash was a tenth of reading and judging. The hash multiplies
//! the id, mixed with a key drawn once per process (so a file cannot choose ids that collide),
//! and folds the high bits down.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// A map from ids (or pairs of ids) to `V`.
pub(crate) type IdMap<K, V> = HashMap<K, V, Ids>;
/// A set of ids (or pairs of ids).
pub(crate) type IdSet<K> = HashSet<K, Ids>;

/// Builds [`IdHasher`]s with the process's key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ids {
    key: u64,
}

impl Default for Ids {
    fn default() -> Self {
        static KEY: OnceLock<u64> = OnceLock::new();
        let key =
            *KEY.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u64));
        Self { key }
    }
}

impl BuildHasher for Ids {
    type Hasher = IdHasher;
    fn build_hasher(&self) -> IdHasher {
        IdHasher(self.key)
    }
}

/// Hashes a few integers: each mixed in by a multiply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IdHasher(u64);

impl IdHasher {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }

    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ids that share their low bits (multiples of 2^20) still spread over the table.
    #[test]
    fn ids_alike_in_their_low_bits_hash_apart() {
        let ids = Ids::default();
        let buckets: HashSet<u64> = (0..1024u64).map(|k| ids.hash_one(k << 20) & 1023).collect();
        assert!(buckets.len() > 600, "{}", buckets.len());
        let pairs: HashSet<u64> = (0..1024u64)
            .map(|k| ids.hash_one((k, k + 1)) & 1023)
            .collect();
        assert!(pairs.len() > 600, "{}", pairs.len());
    }
}
