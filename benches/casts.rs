//! Casts against parry2d-f64 on the same pre-generated cases, printed as tables of ns per case
//! and the ratio:
//! - ray casts: `ray_cast` against `cast_ray_and_get_normal` (solid), 1,000 segments per kind
//!   (from -6..6 to -6..6 around shapes near the origin: about a fifth hit);
//! - time of impact of translating pairs: `time_of_impact` against `cast_shapes`, 1,000 cases
//!   per pair of kinds (B 3.5 to 6 away, heading toward A within 0.5 rad).
//!
//! Goal: at least as fast as parry on every kind and kind pair.

#[path = "../tests/common/mod.rs"]
mod common;

use collidoscope::geometry::{DVec2, Placed, Pose, ShapeKind};
use collidoscope::query::{ToiState, Velocity, collide, ray_cast, time_of_impact};
use common::reference::{ReferenceShape, reference_cast, to_reference};
use criterion::{BenchmarkId, Criterion, Throughput};
use parry2d_f64::math::Vector;
use parry2d_f64::query::Ray;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::hint::black_box;

const CASES: usize = 1_000;

struct Case {
    a: Placed,
    b: Placed,
    va: Velocity,
    vb: Velocity,
    ra: ReferenceShape,
    rb: ReferenceShape,
}

fn cases(a: ShapeKind, b: ShapeKind) -> Vec<Case> {
    let mut runner = TestRunner::deterministic();
    let strategy = (
        common::arb_placed_of(a),
        common::arb_placed_of(b),
        0.0..std::f64::consts::TAU,
        3.5..6.0f64,
        -0.5..0.5f64,
        1.0..8.0f64,
    );
    let mut cases = Vec::with_capacity(CASES);
    while cases.len() < CASES {
        let (x, mut y, heading, far, aim, speed) =
            strategy.new_tree(&mut runner).unwrap().current();
        let offset = DVec2::from_angle(heading) * far;
        y.pose = Pose::new(x.pose.position + offset, y.pose.angle());
        if collide(&x, &y).is_some() {
            continue;
        }
        let towards = -offset.normalize().rotate(DVec2::from_angle(aim));
        let (ra, rb) = (to_reference(&x), to_reference(&y));
        cases.push(Case {
            a: x,
            b: y,
            va: Velocity::default(),
            vb: Velocity::linear(towards * speed),
            ra,
            rb,
        });
    }
    cases
}

fn parry_cast(case: &Case) -> Option<f64> {
    reference_cast(&case.ra, case.va.linear, &case.rb, case.vb.linear, 1.0)
}

/// ns per case of `run` over `cases` cases, as criterion measured it.
fn time(bench: &mut criterion::Bencher, cases: usize, mut run: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    let mut runs = 0u32;
    bench.iter(|| {
        runs += 1;
        run();
    });
    start.elapsed().as_nanos() as f64 / (runs.max(1) as f64 * cases as f64)
}

fn rays(criterion: &mut Criterion) {
    let mut rows = Vec::new();
    for kind in ShapeKind::SOLID {
        let mut runner = TestRunner::deterministic();
        let strategy = (
            common::arb_placed_of(kind),
            -6.0..6.0f64,
            -6.0..6.0f64,
            -6.0..6.0f64,
            -6.0..6.0f64,
        );
        let cases: Vec<_> = (0..CASES)
            .map(|_| {
                let (shape, x0, y0, x1, y1) = strategy.new_tree(&mut runner).unwrap().current();
                let (from, to) = (DVec2::new(x0, y0), DVec2::new(x1, y1));
                let r = to_reference(&shape);
                let ray = Ray::new(Vector::new(x0, y0), Vector::new(x1 - x0, y1 - y0));
                (shape, from, to, r, ray)
            })
            .collect();
        let hits = cases
            .iter()
            .filter(|(s, from, to, ..)| ray_cast(s, *from, *to).is_some())
            .count();
        let mut group = criterion.benchmark_group(format!("ray/{kind}"));
        group.throughput(Throughput::Elements(CASES as u64));
        let mut ns = [0.0; 2];
        group.bench_function(BenchmarkId::from_parameter("collidoscope"), |bench| {
            ns[0] = time(bench, CASES, || {
                for (s, from, to, ..) in &cases {
                    black_box(ray_cast(black_box(s), *from, *to));
                }
            });
        });
        group.bench_function(BenchmarkId::from_parameter("parry"), |bench| {
            ns[1] = time(bench, CASES, || {
                for (.., r, ray) in &cases {
                    black_box(r.shape.0.cast_ray_and_get_normal(
                        &r.pose,
                        black_box(ray),
                        1.0,
                        true,
                    ));
                }
            });
        });
        group.finish();
        rows.push((kind.to_string(), hits, ns));
    }
    println!();
    println!("| kind | hits | collidoscope ns | parry ns | parry / collidoscope |");
    println!("|---|---:|---:|---:|---:|");
    for (label, hits, [ours, parry]) in rows {
        println!(
            "| {label} | {hits} | {ours:.0} | {parry:.0} | {:.1}x |",
            parry / ours
        );
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    rays(&mut criterion);
    let mut rows = Vec::new();
    for (a, b) in common::KIND_PAIRS {
        let cases = cases(a, b);
        let hits = cases
            .iter()
            .filter(|c| time_of_impact(&c.a, c.va, &c.b, c.vb, 1.0).state == ToiState::Hit)
            .count();
        let label = format!("{a}-{b}");
        let mut group = criterion.benchmark_group(format!("toi/{label}"));
        group.throughput(Throughput::Elements(CASES as u64));
        let mut ns = [0.0; 2];
        group.bench_function(BenchmarkId::from_parameter("collidoscope"), |bench| {
            let start = std::time::Instant::now();
            let mut runs = 0u32;
            bench.iter(|| {
                runs += 1;
                for c in &cases {
                    black_box(time_of_impact(
                        black_box(&c.a),
                        c.va,
                        black_box(&c.b),
                        c.vb,
                        1.0,
                    ));
                }
            });
            ns[0] = start.elapsed().as_nanos() as f64 / (runs.max(1) as f64 * CASES as f64);
        });
        group.bench_function(BenchmarkId::from_parameter("parry"), |bench| {
            let start = std::time::Instant::now();
            let mut runs = 0u32;
            bench.iter(|| {
                runs += 1;
                for c in &cases {
                    black_box(parry_cast(black_box(c)));
                }
            });
            ns[1] = start.elapsed().as_nanos() as f64 / (runs.max(1) as f64 * CASES as f64);
        });
        group.finish();
        rows.push((label, hits, ns));
    }
    criterion.final_summary();
    println!();
    println!("| pair | hits | collidoscope ns | parry ns | parry / collidoscope |");
    println!("|---|---:|---:|---:|---:|");
    for (label, hits, [ours, parry]) in rows {
        println!(
            "| {label} | {hits} | {ours:.0} | {parry:.0} | {:.1}x |",
            parry / ours
        );
    }
}
