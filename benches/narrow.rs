//! Narrow phase speed: `collide`, `explain` (the separating-axis report), `pair_report`
//! (everything the window draws and `explain` prints for the pair: report, naive rule,
//! contact, closest points, intersection region) and parry2d-f64's `query::contact` on the
//! same pre-generated pairs, per pair of kinds. Prints a table of ns per pair and the ratios.
//!
//! Targets: `collide` at least 3x faster than parry on capsule and polygon pairs and no slower
//! on circle pairs; `explain` within 3x of `collide`; `pair_report` of two circles within
//! 1 us (issue "Speed").

#[path = "../tests/common/mod.rs"]
mod common;

use collidoscope::geometry::{Placed, ShapeKind};
use collidoscope::query::{collide, pair_report, sat_report};
use common::reference::{ReferenceShape, reference_contact, to_reference};
use criterion::{BenchmarkId, Criterion, Throughput};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::hint::black_box;

const PAIRS: usize = 1_000;

fn label(a: ShapeKind, b: ShapeKind) -> String {
    format!("{a}-{b}")
}

/// The same random pairs every run (a deterministic generator), in both engines' types.
/// Only pairs whose bounding boxes overlap are kept: those are what a broad phase hands to a
/// narrow phase (about half of them intersect).
fn pairs(a: ShapeKind, b: ShapeKind) -> Vec<(Placed, Placed, ReferenceShape, ReferenceShape)> {
    let mut runner = TestRunner::deterministic();
    let strategy = (common::arb_placed_of(a), common::arb_placed_of(b));
    let mut pairs = Vec::with_capacity(PAIRS);
    while pairs.len() < PAIRS {
        let (x, y) = strategy.new_tree(&mut runner).unwrap().current();
        let ((x_min, x_max), (y_min, y_max)) = (x.aabb(), y.aabb());
        if x_min.cmple(y_max).all() && y_min.cmple(x_max).all() {
            let (rx, ry) = (to_reference(&x), to_reference(&y));
            pairs.push((x, y, rx, ry));
        }
    }
    pairs
}

fn bench_narrow(c: &mut Criterion) {
    for (a, b) in common::KIND_PAIRS {
        let pairs = pairs(a, b);
        let hits = pairs
            .iter()
            .filter(|(x, y, ..)| collide(x, y).is_some())
            .count();
        println!("{}: {hits} of {PAIRS} pairs intersect", label(a, b));
        let mut group = c.benchmark_group(format!("narrow/{}", label(a, b)));
        group.throughput(Throughput::Elements(PAIRS as u64));
        group.bench_function(BenchmarkId::from_parameter("collide"), |bench| {
            bench.iter(|| {
                for (x, y, ..) in &pairs {
                    black_box(collide(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(BenchmarkId::from_parameter("explain"), |bench| {
            bench.iter(|| {
                for (x, y, ..) in &pairs {
                    black_box(sat_report(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(BenchmarkId::from_parameter("report"), |bench| {
            bench.iter(|| {
                for (x, y, ..) in &pairs {
                    black_box(pair_report(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(BenchmarkId::from_parameter("parry"), |bench| {
            bench.iter(|| {
                for (.., rx, ry) in &pairs {
                    black_box(reference_contact(black_box(rx), black_box(ry)));
                }
            })
        });
        group.finish();
    }
}

fn print_table() {
    println!();
    println!(
        "| pair | collide ns | explain ns | pair_report ns | parry ns | parry / collide | explain / collide |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (a, b) in common::KIND_PAIRS {
        let group = format!("narrow/{}", label(a, b));
        let per_pair = |f: &str| common::criterion_mean_ns(&group, f).map(|ns| ns / PAIRS as f64);
        let (Some(collide), Some(explain), Some(report), Some(parry)) = (
            per_pair("collide"),
            per_pair("explain"),
            per_pair("report"),
            per_pair("parry"),
        ) else {
            continue;
        };
        println!(
            "| {} | {collide:.0} | {explain:.0} | {report:.0} | {parry:.0} | {:.1}x | {:.2}x |",
            label(a, b),
            parry / collide,
            explain / collide
        );
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_narrow(&mut criterion);
    criterion.final_summary();
    print_table();
}
