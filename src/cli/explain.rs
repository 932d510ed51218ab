//! `collidoscope explain FILE [--pair I J] [--json] [--naive]`: the separating-axis test of one
//! pair, told step by step.

use crate::picture::default_pair;
use crate::query::{PairReport, pair_report};
use crate::scene::{self, Scene};
use crate::text::{
    self, PairNames, axis_source, chain_lines, interval, naive_sentence, number, point,
    verdict_sentence,
};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

#[derive(Serialize)]
struct ExplainJson<'a> {
    file: &'a str,
    a: usize,
    b: usize,
    report: &'a PairReport,
}

/// The pair to explain: the one asked for, else the one the window opens on.
fn choose_pair(scene: &Scene, asked: Option<(usize, usize)>) -> Result<(usize, usize), String> {
    let n = scene.shapes.len();
    if n < 2 {
        return Err(format!("explain needs two shapes; the file has {n}"));
    }
    match asked {
        Some(pair) => super::check_pair(pair, n),
        None => {
            let hits = crate::broad::intersecting_pairs(scene, None);
            Ok(default_pair(scene, &hits).expect("two shapes or more"))
        }
    }
}

/// Explain one pair; 1 when the file is refused, 2 when the pair is not in it.
pub fn run(
    path: &Path,
    pair: Option<(usize, usize)>,
    json: bool,
    naive: bool,
    out: &mut impl Write,
) -> u8 {
    let scene = match scene::load(path) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let (i, j) = match choose_pair(&scene, pair) {
        Ok(pair) => pair,
        Err(message) => {
            eprintln!("{}: {message}", path.display());
            return 2;
        }
    };
    let (a, b) = (&scene.shapes[i], &scene.shapes[j]);
    let report = pair_report(&a.placed, &b.placed);
    if json {
        let file = path.to_string_lossy();
        let line = ExplainJson {
            file: &file,
            a: i,
            b: j,
            report: &report,
        };
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&line).expect("serialisable")
        );
        return 0;
    }
    let names = PairNames::in_scene(&scene, i, j);
    let _ = writeln!(
        out,
        "{}: A = shape {i} {} ({}), B = shape {j} {} ({})\n",
        path.display(),
        names.a,
        names.kind_a,
        names.b,
        names.kind_b
    );
    print_axes(&report, &names, out);
    if let Some(note) = names.rounded_note(&report.sat) {
        let _ = writeln!(out, "\n{note}");
    }
    let sat = verdict_sentence(&report.sat, &names);
    match text::chain_alone(&report) {
        Some(alone) => writeln!(out, "\n{alone}\n{sat}"),
        None => writeln!(out, "\n{sat}"),
    }
    .ok();
    for (k, line) in chain_lines(&report, &names).iter().enumerate() {
        let _ = writeln!(out, "{}{line}", if k == 0 { "\n" } else { "  " });
    }
    if let Some(verdict) = text::chain_verdict(&report, &names) {
        let _ = writeln!(out, "\n{verdict}");
    }
    print_outcome(&report, out);
    if naive {
        let _ = writeln!(out, "{}", naive_sentence(report.naive.as_ref(), &names));
    }
    0
}

/// The axes as aligned columns, the deciding row marked with `>`.
fn print_axes(report: &PairReport, names: &PairNames, out: &mut impl Write) {
    let deciding = report.sat.deciding_axis();
    let header = [
        String::new(),
        "#".into(),
        "axis from".into(),
        "axis".into(),
        format!("{} spans", names.a),
        format!("{} spans", names.b),
        "overlap".into(),
        "decision".into(),
    ];
    let mut rows = vec![header];
    for (k, t) in report.sat.axes.iter().enumerate() {
        rows.push([
            if k == deciding {
                ">".into()
            } else {
                String::new()
            },
            (k + 1).to_string(),
            axis_source(t.source, names),
            point(t.axis),
            interval(t.a),
            interval(t.b),
            text::overlap(report.sat.shown(t.overlap)),
            text::decision(&report.sat, k).into(),
        ]);
    }
    super::print_columns(&rows, "", out);
}

/// The MTV and contacts when intersecting, the closest points when apart.
fn print_outcome(report: &PairReport, out: &mut impl Write) {
    if let Some(contact) = &report.contact {
        let _ = writeln!(
            out,
            "MTV: move B by {} along {} (A toward B): translation {}",
            number(contact.depth),
            point(contact.normal),
            point(contact.normal * contact.depth)
        );
        for p in &contact.points {
            let _ = writeln!(
                out,
                "contact {} (depth {})",
                point(p.point),
                number(p.depth)
            );
        }
    } else if let Some(c) = report.proximity.closest {
        let _ = writeln!(
            out,
            "distance {}: closest points {} on A and {} on B",
            number(report.sat.shown(report.proximity.distance)),
            point(c.point_a),
            point(c.point_b)
        );
    }
}

/// The options of `collidoscope explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// A shape-set file.
    pub file: PathBuf,
    /// The pair to explain (default: the first intersecting pair, else 0 1).
    #[arg(long, num_args = 2, value_names = ["I", "J"])]
    pub pair: Option<Vec<usize>>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also show what the naive rule (smallest overlap, axis sign as it comes; a common
    /// tutorial bug) would have chosen.
    #[arg(long)]
    pub naive: bool,
}
