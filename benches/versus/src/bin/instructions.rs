//! The speed guard: instructions, not time. Each query on each pair kind runs over a fixed set
//! of 1,000 pairs under callgrind (`valgrind --tool=callgrind`), which counts only what
//! `versus_measured` executes: the same count on every run of the same binary, so a 5% rise is
//! a real one, not a busy machine. The counts are compared with the baseline committed beside
//! this crate (`instructions.baseline`).
//!
//! ```text
//! cargo run --release --bin instructions -- --check             # CI: fails past +5%
//! cargo run --release --bin instructions -- --update "why"       # a deliberate change
//! cargo run --release --bin instructions -- --one collide cc     # one case, natively
//! ```
//!
//! `--check` exits 1 naming every query and kind more than 5% above the baseline, 2 when it
//! cannot measure (no valgrind, a case missing from the baseline). A deliberate change of
//! speed updates the baseline in the same commit, with its reason (`--update` writes it at the
//! top of the file).

use collidoscope::geometry::ShapeKind;
use collidoscope_versus::{
    Engine, KIND_PAIRS, Pairs, Query, RAY_KINDS, Rays, far_pairs, near_pairs, pair_name, rays,
    run_pairs, run_rays,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Pairs per case: enough to cover every branch many times, few enough for callgrind.
const PAIRS: usize = 1_000;
/// How much more than the baseline fails.
const ALLOWED: f64 = 0.05;

/// One case: a query and the set it runs on.
#[derive(Clone, Copy)]
enum Case {
    Pairs(Query, usize),
    Rays(usize),
}

impl Case {
    fn all() -> Vec<Case> {
        let mut cases = Vec::new();
        for query in Query::ALL {
            if query == Query::Ray {
                cases.extend((0..RAY_KINDS.len()).map(Case::Rays));
            } else {
                cases.extend((0..KIND_PAIRS.len()).map(|i| Case::Pairs(query, i)));
            }
        }
        cases
    }

    fn query(self) -> Query {
        match self {
            Case::Pairs(q, _) => q,
            Case::Rays(_) => Query::Ray,
        }
    }

    fn kind(self) -> String {
        match self {
            Case::Pairs(_, i) => pair_name(KIND_PAIRS[i].0, KIND_PAIRS[i].1),
            Case::Rays(i) => match RAY_KINDS[i] {
                ShapeKind::Circle => "circle".into(),
                ShapeKind::Capsule => "capsule".into(),
                _ => "polygon".into(),
            },
        }
    }

    /// `query kind`, the baseline's key.
    fn key(self) -> String {
        format!("{} {}", self.query().name(), self.kind())
    }

    fn parse(query: &str, kind: &str) -> Option<Case> {
        Case::all()
            .into_iter()
            .find(|c| c.query().name() == query && c.kind() == kind)
    }
}

/// What is measured: the set made outside, the queries run inside.
pub enum Set {
    Pairs(Query, Pairs),
    Rays(Rays),
}

/// The only function callgrind counts (`--toggle-collect=versus_measured`).
#[unsafe(no_mangle)]
#[inline(never)]
pub fn versus_measured(set: &Set) -> usize {
    match set {
        Set::Pairs(query, pairs) => run_pairs(*query, Engine::Collidoscope, pairs),
        Set::Rays(rays) => run_rays(Engine::Collidoscope, rays),
    }
}

fn make(case: Case) -> Set {
    match case {
        Case::Pairs(query, i) if query.moving() => {
            Set::Pairs(query, far_pairs(KIND_PAIRS[i], PAIRS, 101 + i as u64))
        }
        Case::Pairs(query, i) => Set::Pairs(query, near_pairs(KIND_PAIRS[i], PAIRS, 1 + i as u64)),
        Case::Rays(i) => Set::Rays(rays(RAY_KINDS[i], PAIRS, 201 + i as u64)),
    }
}

fn baseline_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("instructions.baseline")
}

fn rustc_version() -> String {
    Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "unknown rustc".into(), |s| s.trim().to_string())
}

/// The instructions `versus_measured` executes for `case`, counted by callgrind running this
/// very binary with `--one`.
fn count(case: Case, scratch: &Path) -> Result<u64, String> {
    let me = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let out = scratch.join(format!("{}.callgrind", case.key().replace(' ', "-")));
    let run = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=versus_measured",
        ])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&me)
        .args(["--one", case.query().name(), &case.kind()])
        .output()
        .map_err(|e| {
            format!("valgrind could not be run ({e}); install it (apt-get install valgrind)")
        })?;
    if !run.status.success() {
        return Err(format!(
            "{}: valgrind failed: {}",
            case.key(),
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|n| n.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| format!("{}: no instruction total in {}", case.key(), out.display()))
}

/// Every case's count, two at a time (CI has two cores).
fn count_all() -> Result<BTreeMap<String, u64>, String> {
    let scratch =
        std::env::temp_dir().join(format!("collidoscope-instructions-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let cases = Case::all();
    let results: Vec<Result<(String, u64), String>> = std::thread::scope(|s| {
        let chunks: Vec<Vec<Case>> = vec![
            cases.iter().copied().step_by(2).collect(),
            cases.iter().copied().skip(1).step_by(2).collect(),
        ];
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let scratch = &scratch;
                s.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|c| count(c, scratch).map(|n| (c.key(), n)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a counting thread"))
            .collect()
    });
    let _ = std::fs::remove_dir_all(&scratch);
    results.into_iter().collect()
}

/// The baseline: `query kind instructions` lines; `#` lines are comments.
fn read_baseline(path: &Path) -> Result<BTreeMap<String, u64>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut counts = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = match fields.as_slice() {
            [query, kind, count] => count
                .parse::<u64>()
                .ok()
                .map(|c| (format!("{query} {kind}"), c)),
            _ => None,
        };
        let (key, c) = parsed.ok_or_else(|| {
            format!(
                "{}, line {}: expected `query kind instructions`, found `{line}`",
                path.display(),
                n + 1
            )
        })?;
        counts.insert(key, c);
    }
    Ok(counts)
}

fn write_baseline(path: &Path, counts: &BTreeMap<String, u64>, reason: &str) -> Result<(), String> {
    let mut text = String::new();
    text.push_str(
        "# Instructions collidoscope executes per query and pair kind over 1,000 fixed pairs,\n",
    );
    text.push_str(
        "# counted by callgrind (benches/versus/src/bin/instructions.rs). CI fails past +5%.\n",
    );
    text.push_str("# A deliberate change updates this file in the same commit, with its reason:\n");
    text.push_str("#   cargo run --release --bin instructions -- --update \"why\"\n");
    text.push_str(&format!("# compiler: {}\n", rustc_version()));
    text.push_str(&format!("# reason: {reason}\n"));
    for case in Case::all() {
        if let Some(c) = counts.get(&case.key()) {
            text.push_str(&format!("{} {c}\n", case.key()));
        }
    }
    let tmp = path.with_extension("baseline.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["--one", query, kind] => match Case::parse(query, kind) {
            Some(case) => {
                let set = make(case);
                let hits = versus_measured(std::hint::black_box(&set));
                println!("{}: {hits} of {PAIRS} hit", case.key());
                ExitCode::SUCCESS
            }
            None => {
                let keys: Vec<String> = Case::all().iter().map(|c| c.key()).collect();
                eprintln!("no case `{query} {kind}`; the cases: {}", keys.join(", "));
                ExitCode::from(2)
            }
        },
        ["--check"] | [] => check(),
        ["--update", reason] => {
            let counts = match count_all() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            };
            match write_baseline(&baseline_path(), &counts, reason) {
                Ok(()) => {
                    for (k, c) in &counts {
                        println!("{k} {c}");
                    }
                    println!("wrote {}", baseline_path().display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::from(2)
                }
            }
        }
        _ => {
            eprintln!("usage: instructions [--check | --update REASON | --one QUERY KIND]");
            ExitCode::from(2)
        }
    }
}

fn check() -> ExitCode {
    let path = baseline_path();
    let baseline = match read_baseline(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let counts = match count_all() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let (mut over, mut missing) = (Vec::new(), Vec::new());
    println!("| query kind | baseline | now | change |");
    println!("|---|---:|---:|---:|");
    for case in Case::all() {
        let key = case.key();
        let now = counts[&key];
        let Some(&was) = baseline.get(&key) else {
            missing.push(key);
            continue;
        };
        let change = now as f64 / was as f64 - 1.0;
        println!("| {key} | {was} | {now} | {:+.2}% |", change * 100.0);
        if change > ALLOWED {
            over.push(format!(
                "{}: {now} instructions, {:+.1}% over the baseline's {was} (per pair {:.0} against {:.0})",
                key,
                change * 100.0,
                now as f64 / PAIRS as f64,
                was as f64 / PAIRS as f64
            ));
        }
    }
    if !missing.is_empty() {
        eprintln!(
            "{}: no baseline for {}; run `cargo run --release --bin instructions -- --update \"why\"`",
            path.display(),
            missing.join(", ")
        );
        return ExitCode::from(2);
    }
    if over.is_empty() {
        println!(
            "instructions: every query and kind within 5% of {}",
            path.display()
        );
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "instructions: more than 5% above the baseline ({}, {}):",
        path.display(),
        rustc_version()
    );
    for line in &over {
        eprintln!("  {line}");
    }
    eprintln!(
        "If the slowdown is deliberate, update the baseline in the same commit with the reason: \
         cargo run --release --bin instructions -- --update \"why\""
    );
    ExitCode::from(1)
}
