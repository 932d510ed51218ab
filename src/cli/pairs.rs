//! `collidoscope pairs [--json] [--cell SIZE] FILE...`: every intersecting pair of each file,
//! found through the broad phase (a uniform grid), never by testing all n² pairs.

use crate::broad::{Grid, boxes_of, intersecting_candidates};
use crate::scene;
use crate::text::number;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Serialize)]
struct FileLine<'a> {
    file: &'a str,
    pairs: &'a [(usize, usize)],
    shapes: usize,
    /// Box pairs the grid handed to the narrow phase.
    candidates: usize,
    cell_size: f64,
    /// Seconds spent loading, building the grid, and walking its candidates through the
    /// narrow phase.
    seconds: Seconds,
}

#[derive(Serialize)]
struct Seconds {
    load: f64,
    broad: f64,
    narrow: f64,
}

/// Report each file; 1 when any file is refused.
pub fn run(files: &[PathBuf], json: bool, cell: Option<f64>, out: &mut impl Write) -> u8 {
    let mut status = 0;
    for path in files {
        let name = path.to_string_lossy();
        let started = Instant::now();
        let scene = match scene::load(path) {
            Ok(scene) => scene,
            Err(e) => {
                status = 1;
                super::report_unreadable(&name, &e, json, out);
                continue;
            }
        };
        let loaded = Instant::now();
        let grid = Grid::build(&boxes_of(&scene), cell);
        let built = Instant::now();
        let found = intersecting_candidates(&scene, &grid);
        let (pairs, candidates) = (found.pairs, found.candidates);
        let done = Instant::now();
        if json {
            let line = FileLine {
                file: &name,
                pairs: &pairs,
                shapes: scene.shapes.len(),
                candidates,
                cell_size: grid.cell_size(),
                seconds: Seconds {
                    load: (loaded - started).as_secs_f64(),
                    broad: (built - loaded).as_secs_f64(),
                    narrow: (done - built).as_secs_f64(),
                },
            };
            super::print_json_line(&line, out);
        } else {
            let n = scene.shapes.len();
            let _ = writeln!(
                out,
                "{name}: {n} shapes, {} intersecting pairs ({candidates} candidate pairs from a grid of cell {}; all pairs would be {})",
                pairs.len(),
                number(grid.cell_size()),
                n * n.saturating_sub(1) / 2
            );
            let rows: Vec<[String; 2]> = pairs
                .iter()
                .map(|&(i, j)| {
                    [
                        format!("{i} {j}"),
                        format!(
                            "{} / {}",
                            scene.shapes[i].display_name(i),
                            scene.shapes[j].display_name(j)
                        ),
                    ]
                })
                .collect();
            super::print_columns(&rows, "  ", out);
        }
    }
    status
}

/// The options of `collidoscope pairs`.
#[derive(Debug, clap::Args)]
pub struct PairsArgs {
    /// One JSON line per file instead of a list.
    #[arg(long)]
    pub json: bool,
    /// The grid's cell size (default: chosen from the shapes' sizes).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true)]
    pub cell: Option<f64>,
    /// Shape-set files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}
