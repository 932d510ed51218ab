//! `collidoscope toi [--json] FILE... [--horizon T]`: the time of impact of every pair, each
//! shape moving by its velocities.

use crate::geometry::DVec2;
use crate::query::{ChainRule, Toi, ToiState, chain_time_of_impact, time_of_impact};
use crate::scene::Scene;
use crate::text::{number, point};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(Serialize)]
struct PairLine {
    a: usize,
    b: usize,
    /// For a pair with a chain: the piece, and the chain rule's word.
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<Option<ChainRule>>,
    state: &'static str,
    toi: Option<f64>,
    point: Option<DVec2>,
    normal: Option<DVec2>,
    /// Extra: how many steps the search took.
    steps: usize,
}

#[derive(Serialize)]
struct FileLine<'a> {
    file: &'a str,
    pairs: Vec<PairLine>,
}

impl PairLine {
    fn new(a: usize, b: usize, toi: &Toi) -> Self {
        PairLine {
            a,
            b,
            piece: None,
            rule: None,
            state: toi.state.name(),
            toi: toi.toi,
            // FORMAT: point and normal only for a hit.
            point: toi.point.filter(|_| toi.state == ToiState::Hit),
            normal: toi.normal.filter(|_| toi.state == ToiState::Hit),
            steps: toi.steps.len(),
        }
    }
}

/// One line per pair; a pair with a chain gives one per piece, two chains none.
fn pairs(scene: &Scene, horizon: f64) -> Vec<PairLine> {
    let shapes = &scene.shapes;
    let velocity = |i: usize| shapes[i].motion.velocity();
    let mut lines = Vec::new();
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            let (a, b) = (&shapes[i].placed, &shapes[j].placed);
            if a.shape.as_chain().is_some() || b.shape.as_chain().is_some() {
                let pieces = chain_time_of_impact(a, velocity(i), b, velocity(j), horizon);
                lines.extend(pieces.iter().map(|p| PairLine {
                    piece: Some(p.piece),
                    rule: Some(p.rule),
                    ..PairLine::new(i, j, &p.toi)
                }));
                continue;
            }
            let toi = time_of_impact(a, velocity(i), b, velocity(j), horizon);
            lines.push(PairLine::new(i, j, &toi));
        }
    }
    lines
}

/// Report each file; 1 when any file is refused.
pub fn run(files: &[PathBuf], json: bool, horizon: f64, out: &mut impl Write) -> u8 {
    super::each_scene(files, json, out, |name, scene, out| {
        let pairs = pairs(&scene, horizon);
        if json {
            super::print_json_line(&FileLine { file: name, pairs }, out);
            return;
        }
        let shown = |i: usize| scene.shapes[i].display_name(i);
        let _ = writeln!(
            out,
            "{name}: {} pairs, horizon {}",
            pairs.chunk_by(|p, q| (p.a, p.b) == (q.a, q.b)).count(),
            number(horizon)
        );
        // The header counts pairs, not a chain's piece lines.
        let rows: Vec<[String; 4]> = pairs
            .iter()
            .map(|p| {
                [
                    format!("{} {} / {} {}", p.a, shown(p.a), p.b, shown(p.b))
                        + &p.piece.map(|k| format!(" piece {k}")).unwrap_or_default(),
                    match p.rule.flatten() {
                        Some(rule) => format!("{} ({})", p.state, rule.name()),
                        None => p.state.to_string(),
                    },
                    p.toi
                        .map(|t| format!("t {}", number(t)))
                        .unwrap_or_default(),
                    match (p.point, p.normal) {
                        (Some(q), Some(n)) => format!("at {} normal {}", point(q), point(n)),
                        _ => String::new(),
                    },
                ]
            })
            .collect();
        super::print_columns(&rows, "  ", out);
    })
}

/// The options of `collidoscope toi`.
#[derive(Debug, clap::Args)]
pub struct ToiArgs {
    /// One JSON line per file instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The end of the time span [default: 1].
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub horizon: Option<f64>,
    /// Shape-set files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}
