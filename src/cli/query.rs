//! `collidoscope query [--json] [--intersecting] FILE...`: every pair of each file (or only
//! the intersecting ones).

use crate::query::{PairRecord, pair_records};
use crate::scene::Scene;
use crate::text::{number, point};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(Serialize)]
struct FileLine<'a> {
    file: &'a str,
    pairs: Vec<PairRecord>,
}

/// Every pair `i < j` of a scene, in file order; with `intersecting`, only the intersecting
/// ones, found through the broad phase.
fn pairs(scene: &Scene, intersecting: bool) -> Vec<PairRecord> {
    let shapes = &scene.shapes;
    if intersecting {
        return crate::broad::intersecting_pairs(scene, None)
            .into_iter()
            .flat_map(|(i, j)| pair_records(i, j, &shapes[i].placed, &shapes[j].placed))
            .filter(|r| r.summary.intersecting)
            .collect();
    }
    let mut lines = Vec::with_capacity(shapes.len() * shapes.len().saturating_sub(1) / 2);
    for (i, a) in shapes.iter().enumerate() {
        for (j, b) in shapes.iter().enumerate().skip(i + 1) {
            lines.extend(pair_records(i, j, &a.placed, &b.placed));
        }
    }
    lines
}

/// Report each file; 1 when any file is refused.
pub fn run(files: &[PathBuf], json: bool, intersecting: bool, out: &mut impl Write) -> u8 {
    super::each_scene(files, json, out, |name, scene, out| {
        let pairs = pairs(&scene, intersecting);
        if json {
            let line = FileLine { file: name, pairs };
            super::print_json_line(&line, out);
        } else {
            print_table(name, &scene, &pairs, out);
        }
    })
}

fn print_table(file: &str, scene: &Scene, pairs: &[PairRecord], out: &mut impl Write) {
    let name = |i: usize| scene.shapes[i].display_name(i);
    let _ = writeln!(
        out,
        "{file}: {} shapes, {} pairs",
        scene.shapes.len(),
        // Pairs, not a chain's piece entries.
        pairs.chunk_by(|p, q| (p.a, p.b) == (q.a, q.b)).count()
    );
    if pairs.is_empty() {
        return;
    }
    let rows: Vec<[String; 5]> = pairs
        .iter()
        // A chain's pieces that the shape does not reach say nothing.
        .filter(|p| p.rule != Some(crate::query::ChainRule::Apart))
        .map(|p| {
            let s = &p.summary;
            let (i, j) = p.indices();
            let mut pair = format!("{i} {} / {j} {}", name(i), name(j));
            if let (Some(piece), Some(rule)) = (p.piece, p.rule) {
                pair.push_str(&format!(" piece {piece} ({})", rule.name()));
            }
            if s.intersecting {
                let contacts: Vec<String> = s.contacts.iter().map(|c| point(*c)).collect();
                [
                    pair,
                    "intersecting".into(),
                    format!("depth {}", number(s.depth)),
                    format!("normal {}", s.normal.map(point).unwrap_or_default()),
                    format!("contacts {}", contacts.join(" ")),
                ]
            } else {
                let verdict = match p.rule {
                    Some(crate::query::ChainRule::Behind) => "passes through (behind)",
                    Some(crate::query::ChainRule::Skip) => "left to its neighbour",
                    _ if s.distance == 0.0 => "touching",
                    _ => "apart",
                };
                let closest = s
                    .closest
                    .map(|[p, q]| format!("closest {} -> {}", point(p), point(q)))
                    .unwrap_or_default();
                [
                    pair,
                    verdict.into(),
                    format!("distance {}", number(s.distance)),
                    String::new(),
                    closest,
                ]
            }
        })
        .collect();
    super::print_columns(&rows, "  ", out);
}

/// The options of `collidoscope query`.
#[derive(Debug, clap::Args)]
pub struct QueryArgs {
    /// One JSON line per file instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Only the intersecting pairs, found through the broad phase (for big files).
    #[arg(long)]
    pub intersecting: bool,
    /// Shape-set files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}
