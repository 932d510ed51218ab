//! All intersecting box pairs of random scenes (3 to 4 overlaps per box) at 1k, 10k and 100k
//! boxes: the uniform grid (build + pairs) against brute force, sort-and-sweep and
//! parry2d-f64's `Bvh` (build + self traversal), on the same boxes.

use collidoscope::broad::reference::{brute_force_pairs, sweep_and_prune_pairs};
use collidoscope::broad::{Aabb, Grid};
use collidoscope::geometry::DVec2;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use parry2d_f64::bounding_volume::Aabb as ParryAabb;
use parry2d_f64::math::Vector;
use parry2d_f64::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use std::hint::black_box;

/// `n` boxes, sides 0.5 to 1.5, in a square sized so that each overlaps 3 to 4 others.
pub fn boxes(n: usize, seed: u64) -> Vec<Aabb> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    // Two boxes of sides a and b overlap when their corners are within a + b on both axes:
    // E[(a + b)^2] = 4 + 2 Var(side) = 4.17 for sides uniform in [0.5, 1.5].
    let side = (n as f64 * 4.17 / 3.5).sqrt();
    (0..n)
        .map(|_| {
            let at = DVec2::new(next() * side, next() * side);
            let size = DVec2::new(0.5 + next(), 0.5 + next());
            Aabb::new(at, at + size)
        })
        .collect()
}

fn parry_pairs(leaves: &[ParryAabb]) -> usize {
    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, leaves);
    let mut count = 0;
    bvh.traverse_bvtt_single_tree::<false>(&mut BvhWorkspace::default(), &mut |_, _| count += 1);
    count
}

fn bench_broad(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad");
    group.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        let scene = boxes(n, 0x5eed + n as u64);
        let leaves: Vec<ParryAabb> = scene
            .iter()
            .map(|b| ParryAabb::new(Vector::new(b.min.x, b.min.y), Vector::new(b.max.x, b.max.y)))
            .collect();
        let pairs = Grid::build(&scene, None).candidate_pairs().len();
        assert_eq!(
            pairs,
            parry_pairs(&leaves),
            "grid and parry disagree at {n}"
        );
        eprintln!(
            "{n} boxes: {pairs} overlapping pairs, {:.2} per box",
            2.0 * pairs as f64 / n as f64
        );
        group.bench_with_input(BenchmarkId::new("grid", n), &n, |b, _| {
            b.iter(|| Grid::build(black_box(&scene), None).candidate_pairs().len())
        });
        group.bench_with_input(BenchmarkId::new("parry_bvh", n), &n, |b, _| {
            b.iter(|| parry_pairs(black_box(&leaves)))
        });
        group.bench_with_input(BenchmarkId::new("sweep", n), &n, |b, _| {
            b.iter(|| sweep_and_prune_pairs(black_box(&scene)).len())
        });
        if n <= 10_000 {
            group.bench_with_input(BenchmarkId::new("brute", n), &n, |b, _| {
                b.iter(|| brute_force_pairs(black_box(&scene)).len())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_broad);
criterion_main!(benches);
