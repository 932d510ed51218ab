//! `collidoscope toi [--json] FILE... [--horizon T]`: the time of impact of every pair, each
//! shape moving by its velocities.

use crate::geometry::DVec2;
use crate::query::{ToiState, time_of_impact};
use crate::scene::Scene;
use crate::text::{number, point};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(Serialize)]
struct PairLine {
    a: usize,
    b: usize,
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

fn pairs(scene: &Scene, horizon: f64) -> Vec<PairLine> {
    let shapes = &scene.shapes;
    let velocity = |i: usize| shapes[i].motion.velocity();
    let mut lines = Vec::new();
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            let toi = time_of_impact(
                &shapes[i].placed,
                velocity(i),
                &shapes[j].placed,
                velocity(j),
                horizon,
            );
            lines.push(PairLine {
                a: i,
                b: j,
                state: toi.state.name(),
                toi: toi.toi,
                // FORMAT: point and normal only for a hit.
                point: toi.point.filter(|_| toi.state == ToiState::Hit),
                normal: toi.normal.filter(|_| toi.state == ToiState::Hit),
                steps: toi.steps.len(),
            });
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
            pairs.len(),
            number(horizon)
        );
        let rows: Vec<[String; 4]> = pairs
            .iter()
            .map(|p| {
                [
                    format!("{} {} / {} {}", p.a, shown(p.a), p.b, shown(p.b)),
                    p.state.to_string(),
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
