//! collidoscope beside Box2D v3.2 and parry2d-f64 inside the repository: the very pair sets,
//! queries and calls of the outside comparison (`benches/versus`, whose library is compiled in
//! here), run by criterion as one of the crate's benchmarks.
//!
//! The numbers a user would believe are the outside ones: `benches/versus` links the bare
//! library as a game does (its own crate, thin LTO, one codegen unit) and takes the median of
//! interleaved rounds of thread CPU time. This bench builds with the repository's bench profile
//! (no LTO, many codegen units) and every feature, and criterion reports a mean of wall time;
//! it is here to profile a kind quickly (`cargo bench --bench engines -- collide/poly-c`).
//! Before issue 45, this file drew its own pairs (boxes overlapping, with no control of how
//! many intersect; `benches/narrow.rs`'s like sets intersect 68-84%), so its ratios were not
//! the outside ones, whose pairs intersect exactly half: collide circle-circle read 1.00x here
//! and 1.1-1.3x outside. The sets are now the same, and the table printed at the end is
//! in the same shape as the outside one.

#[allow(dead_code)]
#[path = "versus/src/lib.rs"]
mod versus;

use criterion::{BenchmarkId, Criterion, Throughput};
use versus::{
    Engine, KIND_PAIRS, Query, RAY_KINDS, far_pairs, near_pairs, pair_name, rays, run_pairs,
    run_rays,
};

const PAIRS: usize = 10_000;

fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Collidoscope => "collidoscope",
        Engine::Box2d => "box2d",
        Engine::Parry => "parry",
    }
}

fn configure(
    c: &mut Criterion,
    name: String,
) -> criterion::BenchmarkGroup<'_, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(PAIRS as u64));
    group.sample_size(10);
    group.warm_up_time(std::time::Duration::from_millis(500));
    group.measurement_time(std::time::Duration::from_secs(2));
    group
}

fn bench(c: &mut Criterion) {
    for query in Query::ALL {
        if query == Query::Ray {
            for (i, kind) in RAY_KINDS.iter().enumerate() {
                let set = rays(*kind, PAIRS, 201 + i as u64);
                let mut group = configure(c, format!("ray/{kind}"));
                for engine in Engine::ALL {
                    group.bench_function(BenchmarkId::from_parameter(engine_name(engine)), |b| {
                        b.iter(|| run_rays(engine, &set))
                    });
                }
                group.finish();
            }
            continue;
        }
        for (i, kinds) in KIND_PAIRS.iter().enumerate() {
            let set = if query.moving() {
                far_pairs(*kinds, PAIRS, 101 + i as u64)
            } else {
                near_pairs(*kinds, PAIRS, 1 + i as u64)
            };
            let mut group = configure(
                c,
                format!("{}/{}", query.name(), pair_name(kinds.0, kinds.1)),
            );
            let engines: &[Engine] = if query == Query::PairReport {
                &[Engine::Collidoscope]
            } else {
                &Engine::ALL
            };
            for &engine in engines {
                group.bench_function(BenchmarkId::from_parameter(engine_name(engine)), |b| {
                    b.iter(|| run_pairs(query, engine, &set))
                });
            }
            group.finish();
        }
    }
}

/// criterion's mean estimate for one benchmark, in ns per pair, if it ran.
fn per_pair(group: &str, engine: &str) -> Option<f64> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    let estimates = target
        .join("criterion")
        .join(group.replace('/', "_"))
        .join(engine)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(estimates).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["mean"]["point_estimate"]
        .as_f64()
        .map(|ns| ns / PAIRS as f64)
}

fn print_table() {
    println!("\n| query | kind | collidoscope ns | Box2D ns | parry ns | / Box2D | / parry |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let mut groups = Vec::new();
    for query in Query::ALL {
        if query == Query::Ray {
            groups.extend(RAY_KINDS.iter().map(|k| format!("ray/{k}")));
        } else {
            groups.extend(
                KIND_PAIRS
                    .iter()
                    .map(|(a, b)| format!("{}/{}", query.name(), pair_name(*a, *b))),
            );
        }
    }
    for g in groups {
        let Some(ours) = per_pair(&g, "collidoscope") else {
            continue;
        };
        let cell = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
        let ratio = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.2}", ours / x));
        let (b2, parry) = (per_pair(&g, "box2d"), per_pair(&g, "parry"));
        let (query, kind) = g.split_once('/').unwrap();
        println!(
            "| {query} | {kind} | {ours:.1} | {} | {} | {} | {} |",
            cell(b2),
            cell(parry),
            ratio(b2),
            ratio(parry)
        );
    }
}

fn main() {
    let mut criterion = Criterion::default().without_plots().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    print_table();
}
