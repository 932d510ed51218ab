//! The references the grid is tested and measured against: every pair (brute force) and
//! sort-and-sweep on x (Baraff's sweep-and-prune, one axis).

use super::Aabb;

/// Every pair `(i, j)`, `i < j`, whose boxes overlap: n²/2 tests.
pub fn brute_force_pairs(boxes: &[Aabb]) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            if a.overlaps(b) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    pairs
}

/// The same pairs by sort-and-sweep: boxes sorted by `min.x`, each tested only against the
/// boxes whose x ranges it overlaps. Returned with `i < j`, sorted.
pub fn sweep_and_prune_pairs(boxes: &[Aabb]) -> Vec<(u32, u32)> {
    let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
    order.sort_unstable_by(|&i, &j| boxes[i as usize].min.x.total_cmp(&boxes[j as usize].min.x));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let a = &boxes[i as usize];
        for &j in &order[k + 1..] {
            let b = &boxes[j as usize];
            if b.min.x > a.max.x {
                break;
            }
            if a.overlaps(b) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}
