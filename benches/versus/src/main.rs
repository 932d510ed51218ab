//! collidoscope beside Box2D v3.2 and parry2d-f64, measured as a game links them: this crate
//! depends on the bare library (`default-features = false`) by path and builds in release with
//! thin LTO and one codegen unit; Box2D is its C source built by `boxdd-sys` (-O2 with its SSE2
//! path), parry2d-f64 0.31 the crate. One binary, the same pre-generated pairs for all three.
//!
//! Per query and pair kind: 10,000 pairs (half intersecting, boxes overlapping; for time of
//! impact, apart and closing), every number f32-representable. Rounds interleave the engines
//! (each round starts with the next one); each measurement is this thread's CPU time for a few
//! passes over the set; the table gives the median of the rounds, in ns per pair, and the
//! ratios to Box2D (translating time of impact: to the faster of Box2D and parry).
//!
//! ```text
//! cargo run --release                      # the whole table (about two minutes)
//! cargo run --release -- --query collide   # one query
//! cargo run --release -- --pairs 2000 --rounds 5
//! ```

use collidoscope::geometry::ShapeKind;
use collidoscope_versus::{
    Engine, KIND_PAIRS, Pairs, Query, RAY_KINDS, ROUNDED_PAIRS, Rays, far_pairs, near_pairs,
    pair_name, rays, rounded_near_pairs, rounded_rays, run_pairs, run_rays, short, thread_cpu_ns,
};
use std::process::ExitCode;

struct Settings {
    pairs: usize,
    rounds: usize,
    passes: usize,
    queries: Vec<Query>,
}

fn settings() -> Result<Settings, String> {
    let mut s = Settings {
        pairs: 10_000,
        rounds: 9,
        passes: 3,
        queries: Query::ALL.to_vec(),
    };
    let mut args = std::env::args().skip(1);
    let mut only = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--pairs" => s.pairs = number(&value("--pairs")?, "--pairs")?,
            "--rounds" => s.rounds = number(&value("--rounds")?, "--rounds")?,
            "--passes" => s.passes = number(&value("--passes")?, "--passes")?,
            "--query" => {
                let name = value("--query")?;
                only.push(Query::parse(&name).ok_or_else(|| {
                    let names: Vec<_> = Query::ALL.iter().map(|q| q.name()).collect();
                    format!("--query {name}: not one of {}", names.join(", "))
                })?);
            }
            "-h" | "--help" => {
                return Err(
                    "usage: collidoscope-versus [--pairs N] [--rounds R] [--passes P] [--query NAME]..."
                        .into(),
                );
            }
            // cargo bench passes --bench.
            "--bench" => {}
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if !only.is_empty() {
        s.queries = only;
    }
    Ok(s)
}

fn number(text: &str, name: &str) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{name} {text}: not a positive whole number"))
}

/// One line of the table: a query on one set, the samples of each engine.
struct Job {
    query: Query,
    column: String,
    set: Set,
    samples: [Vec<f64>; 3],
    hits: [Option<usize>; 3],
}

enum Set {
    Pairs(usize),
    Rays(usize),
}

fn engines_of(query: Query) -> &'static [Engine] {
    match query {
        Query::PairReport => &[Engine::Collidoscope],
        _ => &Engine::ALL,
    }
}

fn main() -> ExitCode {
    let s = match settings() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("making the pairs ({} per set)...", s.pairs);
    // The plain kinds, then the rounded sets (a rounded polygon against each kind).
    let near: Vec<Pairs> = KIND_PAIRS
        .iter()
        .enumerate()
        .map(|(i, k)| near_pairs(*k, s.pairs, 1 + i as u64))
        .chain(
            ROUNDED_PAIRS
                .iter()
                .enumerate()
                .map(|(i, (_, other))| rounded_near_pairs(*other, s.pairs, 301 + i as u64)),
        )
        .collect();
    let far: Vec<Pairs> = if s.queries.iter().any(|q| q.moving()) {
        KIND_PAIRS
            .iter()
            .enumerate()
            .map(|(i, k)| far_pairs(*k, s.pairs, 101 + i as u64))
            .collect()
    } else {
        Vec::new()
    };
    let ray_sets: Vec<Rays> = RAY_KINDS
        .iter()
        .enumerate()
        .map(|(i, k)| rays(*k, s.pairs, 201 + i as u64))
        .chain(std::iter::once(rounded_rays(s.pairs, 401)))
        .collect();

    let mut jobs = Vec::new();
    for &query in &s.queries {
        match query {
            Query::Ray => {
                for (i, kind) in RAY_KINDS.iter().enumerate() {
                    jobs.push(job(query, kind_name(*kind), Set::Rays(i)));
                }
                jobs.push(job(
                    query,
                    "rounded polygon".into(),
                    Set::Rays(RAY_KINDS.len()),
                ));
            }
            _ => {
                for (i, (a, b)) in KIND_PAIRS.iter().enumerate() {
                    jobs.push(job(query, pair_name(*a, *b), Set::Pairs(i)));
                }
                // Time of impact is measured on the plain kinds only.
                if !query.moving() {
                    for (i, (name, _)) in ROUNDED_PAIRS.iter().enumerate() {
                        jobs.push(job(
                            query,
                            name.to_string(),
                            Set::Pairs(KIND_PAIRS.len() + i),
                        ));
                    }
                }
            }
        }
    }
    for round in 0..s.rounds {
        eprintln!("round {} of {}", round + 1, s.rounds);
        for j in &mut jobs {
            let engines = engines_of(j.query);
            for k in 0..engines.len() {
                let engine = engines[(k + round) % engines.len()];
                let slot = Engine::ALL.iter().position(|e| *e == engine).unwrap();
                let (ns, hits) = measure(j, engine, &near, &far, &ray_sets, s.passes);
                j.samples[slot].push(ns);
                if let Some(before) = j.hits[slot] {
                    assert_eq!(before, hits, "the same answers every round");
                }
                j.hits[slot] = Some(hits);
            }
        }
    }
    print_tables(&jobs, &s);
    ExitCode::SUCCESS
}

fn job(query: Query, column: String, set: Set) -> Job {
    Job {
        query,
        column,
        set,
        samples: Default::default(),
        hits: [None; 3],
    }
}

fn kind_name(kind: ShapeKind) -> String {
    match kind {
        ShapeKind::Circle => "circle".into(),
        ShapeKind::Capsule => "capsule".into(),
        ShapeKind::Polygon => "polygon".into(),
        other => short(other).into(),
    }
}

/// ns per pair of `engine` on the job's set, and its hit count.
fn measure(
    j: &Job,
    engine: Engine,
    near: &[Pairs],
    far: &[Pairs],
    ray_sets: &[Rays],
    passes: usize,
) -> (f64, usize) {
    let start = thread_cpu_ns();
    let mut hits = 0;
    let mut len = 0;
    for _ in 0..passes {
        match j.set {
            Set::Pairs(i) => {
                let pairs = if j.query.moving() { &far[i] } else { &near[i] };
                hits = run_pairs(j.query, engine, pairs);
                len = pairs.len();
            }
            Set::Rays(i) => {
                hits = run_rays(engine, &ray_sets[i]);
                len = ray_sets[i].ours.len();
            }
        }
    }
    let ns = (thread_cpu_ns() - start) as f64 / (passes * len) as f64;
    (ns, hits)
}

fn median(samples: &[f64]) -> f64 {
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn print_tables(jobs: &[Job], s: &Settings) {
    println!(
        "\ncollidoscope / Box2D v3.2 as a game links them ({} pairs per set, median of {} rounds of {} passes, thread CPU time)\n",
        s.pairs, s.rounds, s.passes
    );
    let ratio_queries: Vec<Query> = s
        .queries
        .iter()
        .copied()
        .filter(|q| *q != Query::PairReport)
        .collect();
    if !ratio_queries.is_empty() {
        let pairs: Vec<String> = KIND_PAIRS.iter().map(|(a, b)| pair_name(*a, *b)).collect();
        println!("| query | by pair kind ({}) | goal |", pairs.join(", "));
        println!("|---|---|---|");
        for q in &ratio_queries {
            let cells: Vec<String> = jobs
                .iter()
                .filter(|j| j.query == *q && !j.column.starts_with("r"))
                .map(|j| {
                    let ours = median(&j.samples[0]);
                    let b2 = median(&j.samples[1]);
                    let parry = median(&j.samples[2]);
                    if *q == Query::ToiTranslation {
                        format!("{:.2} ({:.2} parry)", ours / b2, ours / parry)
                    } else {
                        format!("{:.2}", ours / b2)
                    }
                })
                .collect();
            let goal = match q {
                Query::ToiTranslation => "<= 1.0x the faster of Box2D and parry",
                Query::ToiRotation => "<= 2.0x Box2D",
                _ => "<= 1.0x Box2D",
            };
            let label = if *q == Query::Ray {
                let kinds: Vec<String> = RAY_KINDS.iter().map(|k| kind_name(*k)).collect();
                format!("ray ({})", kinds.join(", "))
            } else {
                q.name().to_string()
            };
            println!("| {label} | {} | {goal} |", cells.join(", "));
        }
    }
    let rounded: Vec<String> = jobs
        .iter()
        .filter(|j| j.column.starts_with("r") && j.samples[1].len() == j.samples[0].len())
        .map(|j| {
            format!(
                "{} {}: {:.2}",
                j.query.name(),
                j.column,
                median(&j.samples[0]) / median(&j.samples[1])
            )
        })
        .collect();
    if !rounded.is_empty() {
        println!(
            "\nRounded polygons (version 4) beside Box2D's rounded polygons (b2MakePolygon with a radius): {}",
            rounded.join("; ")
        );
    }
    println!("\nns per pair (median): collidoscope / Box2D / parry\n");
    println!("| query | kind | collidoscope | Box2D | parry | / Box2D | / parry |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for j in jobs {
        let m = |k: usize| {
            if j.samples[k].is_empty() {
                None
            } else {
                Some(median(&j.samples[k]))
            }
        };
        let cell = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
        let ratio = |x: Option<f64>| match (m(0), x) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "-".into(),
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} |",
            j.query.name(),
            j.column,
            cell(m(0)),
            cell(m(1)),
            cell(m(2)),
            ratio(m(1)),
            ratio(m(2))
        );
    }
}
