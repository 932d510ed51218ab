//! Where the grid's time goes at 100,000 boxes: building it, and walking its cells for pairs.

use collidoscope::broad::{Aabb, Grid};
use collidoscope::geometry::DVec2;
use std::time::Instant;

fn main() {
    let n = 100_000;
    let mut state = 0x5eedu64 + n as u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let side = (n as f64 * 4.17 / 3.5).sqrt();
    let boxes: Vec<Aabb> = (0..n)
        .map(|_| {
            let at = DVec2::new(next() * side, next() * side);
            Aabb::new(at, at + DVec2::new(0.5 + next(), 0.5 + next()))
        })
        .collect();
    for _ in 0..5 {
        let t0 = Instant::now();
        let grid = Grid::build(&boxes, None);
        let t1 = Instant::now();
        let pairs = grid.candidate_pairs().len();
        let t2 = Instant::now();
        println!(
            "build {:.1} ms, pairs {:.1} ms ({pairs} pairs, cell {:.3})",
            (t1 - t0).as_secs_f64() * 1e3,
            (t2 - t1).as_secs_f64() * 1e3,
            grid.cell_size()
        );
    }
}
