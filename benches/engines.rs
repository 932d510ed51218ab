//! collidoscope beside Box2D v3.2 (its C library through `boxdd-sys`, f32, -O2 with its SIMD
//! path) and parry2d-f64 0.31, in one run on the same pre-generated pairs: collide, distance
//! (closest points), time of impact (translation; rotation) and ray casts, per pair of kinds.
//! Every coordinate is rounded to f32 first, so the three see the same geometry; each
//! engine's data lives in its own array (interleaving them in one struct changed timings by
//! 2x). Prints a table of ns per pair and the ratios to Box2D (and, for translation, to the
//! faster of Box2D and parry).
//!
//! Goals (issue "Speed"): collide, distance and rays <= 1.0x Box2D; time of impact in
//! translation <= 1.0x the faster engine; in rotation <= 2.0x Box2D.

#[path = "../tests/common/mod.rs"]
mod common;

use collidoscope::geometry::{DVec2, Placed, ShapeKind};
use collidoscope::query::{Velocity, collide, distance, ray_cast, time_of_impact};
use common::box2d::{
    B2Shape, box2d_distance, box2d_manifold, box2d_ray, box2d_toi, has_box2d, rounded_to_f32,
    to_box2d,
};
use common::reference::{ReferenceShape, reference_cast, to_reference};
use criterion::{BenchmarkId, Criterion, Throughput};
use parry2d_f64::math::Vector;
use parry2d_f64::query::{self, NonlinearRigidMotion, Ray};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use std::hint::black_box;

const PAIRS: usize = 10_000;
/// Time of impact: over [0, 1] s.
const HORIZON: f64 = 1.0;

/// One kind of pair's data, each engine's in its own arrays.
struct Pairs {
    ours: Vec<(Placed, Placed)>,
    box2d: Vec<(B2Shape, B2Shape)>,
    parry: Vec<(ReferenceShape, ReferenceShape)>,
    /// B's velocity relative to A (A at rest), and both angular velocities, for time of
    /// impact; the pairs start apart.
    motion: Vec<(DVec2, f64, f64)>,
}

/// `count` pairs of kinds (a, b) rounded to f32; `apart`: only pairs that do not intersect
/// (for time of impact), else only pairs whose boxes overlap (what a broad phase hands on).
fn pairs(a: ShapeKind, b: ShapeKind, apart: bool) -> Pairs {
    let mut runner = TestRunner::deterministic();
    let strategy = (
        common::arb_placed_of(a),
        common::arb_placed_of(b),
        -3.0..3.0f64,
        -3.0..3.0f64,
        0.5..2.0f64,
    );
    let mut ours = Vec::with_capacity(PAIRS);
    let mut motion = Vec::with_capacity(PAIRS);
    while ours.len() < PAIRS {
        let (x, y, wa, wb, speed) = strategy.new_tree(&mut runner).unwrap().current();
        let (Some(mut x), Some(y)) = (rounded_to_f32(&x), rounded_to_f32(&y)) else {
            continue;
        };
        if !(has_box2d(&x) && has_box2d(&y)) {
            continue;
        }
        if apart {
            // A few units apart, B heading at A's position (the pair meets about half the
            // time within the horizon).
            x.pose.position = (x.pose.position + DVec2::new(-6.0, 0.0))
                .as_vec2()
                .as_dvec2();
            if collide(&x, &y).is_some() {
                continue;
            }
            let towards = (x.pose.position - y.pose.position) * speed;
            let v = towards.as_vec2().as_dvec2();
            motion.push((v, wa as f32 as f64, wb as f32 as f64));
            ours.push((x, y));
        } else {
            let ((x_min, x_max), (y_min, y_max)) = (x.aabb(), y.aabb());
            if x_min.cmple(y_max).all() && y_min.cmple(x_max).all() {
                ours.push((x, y));
            }
        }
    }
    let box2d = ours
        .iter()
        .map(|(x, y)| (to_box2d(x), to_box2d(y)))
        .collect();
    let parry = ours
        .iter()
        .map(|(x, y)| (to_reference(x), to_reference(y)))
        .collect();
    Pairs {
        ours,
        box2d,
        parry,
        motion,
    }
}

fn label(a: ShapeKind, b: ShapeKind) -> String {
    format!("{a}-{b}")
}

fn nonlinear(s: &ReferenceShape, v: DVec2, w: f64) -> NonlinearRigidMotion {
    NonlinearRigidMotion::new(s.pose, Vector::ZERO, Vector::new(v.x, v.y), w)
}

fn bench_pairs(c: &mut Criterion) {
    for (a, b) in common::KIND_PAIRS {
        let near = pairs(a, b, false);
        let mut group = c.benchmark_group(format!("engines/{}", label(a, b)));
        group.throughput(Throughput::Elements(PAIRS as u64));
        group.sample_size(10);
        group.warm_up_time(std::time::Duration::from_millis(500));
        group.measurement_time(std::time::Duration::from_secs(2));
        let id = BenchmarkId::new;
        group.bench_function(id("collide", "collidoscope"), |bench| {
            bench.iter(|| {
                for (x, y) in &near.ours {
                    black_box(collide(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(id("collide", "box2d"), |bench| {
            bench.iter(|| {
                for (x, y) in &near.box2d {
                    black_box(box2d_manifold(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(id("collide", "parry"), |bench| {
            bench.iter(|| {
                for (x, y) in &near.parry {
                    black_box(query::contact(&x.pose, &*x.shape.0, &y.pose, &*y.shape.0, 0.0).ok());
                }
            })
        });
        group.bench_function(id("distance", "collidoscope"), |bench| {
            bench.iter(|| {
                for (x, y) in &near.ours {
                    black_box(distance(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(id("distance", "box2d"), |bench| {
            bench.iter(|| {
                for (x, y) in &near.box2d {
                    black_box(box2d_distance(black_box(x), black_box(y)));
                }
            })
        });
        group.bench_function(id("distance", "parry"), |bench| {
            bench.iter(|| {
                for (x, y) in &near.parry {
                    black_box(
                        query::closest_points(&x.pose, &*x.shape.0, &y.pose, &*y.shape.0, f64::MAX)
                            .ok(),
                    );
                }
            })
        });
        let far = pairs(a, b, true);
        for rotating in [false, true] {
            let name = if rotating {
                "toi rotation"
            } else {
                "toi translation"
            };
            let spin = |w: f64| if rotating { w } else { 0.0 };
            group.bench_function(id(name, "collidoscope"), |bench| {
                bench.iter(|| {
                    for ((x, y), (v, wa, wb)) in far.ours.iter().zip(&far.motion) {
                        let va = Velocity {
                            linear: DVec2::ZERO,
                            angular: spin(*wa),
                        };
                        let vb = Velocity {
                            linear: *v,
                            angular: spin(*wb),
                        };
                        black_box(time_of_impact(x, va, y, vb, HORIZON).toi);
                    }
                })
            });
            group.bench_function(id(name, "box2d"), |bench| {
                bench.iter(|| {
                    for ((x, y), (v, wa, wb)) in far.box2d.iter().zip(&far.motion) {
                        black_box(box2d_toi(
                            x,
                            (DVec2::ZERO, spin(*wa)),
                            y,
                            (*v, spin(*wb)),
                            HORIZON,
                        ));
                    }
                })
            });
            group.bench_function(id(name, "parry"), |bench| {
                bench.iter(|| {
                    for ((x, y), (v, wa, wb)) in far.parry.iter().zip(&far.motion) {
                        if rotating {
                            black_box(
                                query::cast_shapes_nonlinear(
                                    &nonlinear(x, DVec2::ZERO, *wa),
                                    &*x.shape.0,
                                    &nonlinear(y, *v, *wb),
                                    &*y.shape.0,
                                    0.0,
                                    HORIZON,
                                    true,
                                )
                                .ok(),
                            );
                        } else {
                            black_box(reference_cast(x, DVec2::ZERO, y, *v, HORIZON));
                        }
                    }
                })
            });
        }
        group.finish();
    }
}

/// Rays against each kind: from a point a few units out towards a point near the shape.
fn bench_rays(c: &mut Criterion) {
    for kind in [ShapeKind::Circle, ShapeKind::Capsule, ShapeKind::Polygon] {
        let mut runner = TestRunner::deterministic();
        let strategy = (
            common::arb_placed_of(kind),
            0.0..std::f64::consts::TAU,
            -1.5..1.5f64,
            -1.5..1.5f64,
        );
        let mut ours = Vec::with_capacity(PAIRS);
        while ours.len() < PAIRS {
            let (shape, angle, dx, dy) = strategy.new_tree(&mut runner).unwrap().current();
            let Some(shape) = rounded_to_f32(&shape).filter(has_box2d) else {
                continue;
            };
            let from = (shape.pose.position + DVec2::from_angle(angle) * 8.0)
                .as_vec2()
                .as_dvec2();
            let to = (shape.pose.position + DVec2::new(dx, dy)
                - (from - shape.pose.position) * 0.5)
                .as_vec2()
                .as_dvec2();
            ours.push((shape, from, to));
        }
        let box2d: Vec<_> = ours
            .iter()
            .map(|(s, from, to)| (to_box2d(s), *from, *to))
            .collect();
        let parry: Vec<_> = ours
            .iter()
            .map(|(s, from, to)| {
                let d = *to - *from;
                (
                    to_reference(s),
                    Ray::new(Vector::new(from.x, from.y), Vector::new(d.x, d.y)),
                )
            })
            .collect();
        let mut group = c.benchmark_group(format!("engines/ray-{kind}"));
        group.throughput(Throughput::Elements(PAIRS as u64));
        group.sample_size(10);
        group.warm_up_time(std::time::Duration::from_millis(500));
        group.measurement_time(std::time::Duration::from_secs(2));
        group.bench_function(BenchmarkId::new("ray", "collidoscope"), |bench| {
            bench.iter(|| {
                for (s, from, to) in &ours {
                    black_box(ray_cast(black_box(s), *from, *to));
                }
            })
        });
        group.bench_function(BenchmarkId::new("ray", "box2d"), |bench| {
            bench.iter(|| {
                for (s, from, to) in &box2d {
                    black_box(box2d_ray(black_box(s), *from, *to));
                }
            })
        });
        group.bench_function(BenchmarkId::new("ray", "parry"), |bench| {
            bench.iter(|| {
                for (s, ray) in &parry {
                    black_box(s.shape.0.cast_ray_and_get_normal(&s.pose, ray, 1.0, true));
                }
            })
        });
        group.finish();
    }
}

/// criterion's mean estimate for one benchmark, in ns per pair, if it ran.
fn per_pair(group: &str, function: &str, engine: &str) -> Option<f64> {
    common::criterion_mean_ns(group, &format!("{function}/{engine}")).map(|ns| ns / PAIRS as f64)
}

fn print_table() {
    println!();
    println!("| query | Box2D ns | parry ns | collidoscope ns | / Box2D | / faster |");
    println!("|---|---:|---:|---:|---:|---:|");
    let groups: Vec<String> = common::KIND_PAIRS
        .iter()
        .map(|(a, b)| label(*a, *b))
        .chain(["ray-circle", "ray-capsule", "ray-polygon"].map(String::from))
        .collect();
    for function in [
        "collide",
        "distance",
        "toi translation",
        "toi rotation",
        "ray",
    ] {
        for g in &groups {
            let group = format!("engines/{g}");
            let (Some(b2), Some(parry), Some(ours)) = (
                per_pair(&group, function, "box2d"),
                per_pair(&group, function, "parry"),
                per_pair(&group, function, "collidoscope"),
            ) else {
                continue;
            };
            println!(
                "| {function} {g} | {b2:.0} | {parry:.0} | {ours:.0} | {:.2}x | {:.2}x |",
                ours / b2,
                ours / b2.min(parry)
            );
        }
    }
}

fn main() {
    let mut criterion = Criterion::default().without_plots().configure_from_args();
    bench_pairs(&mut criterion);
    bench_rays(&mut criterion);
    criterion.final_summary();
    print_table();
}
