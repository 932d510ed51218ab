//! `collidoscope raycast [--json] FILE... --from X Y --to X Y`: the segment against every
//! shape, through the broad phase.

use crate::broad::ray_cast_scene;
use crate::broad::{Grid, boxes_of};
use crate::geometry::DVec2;
use crate::query::RayHit;
use crate::text::{number, point};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// A hit as docs/format.md gives it: the shape, then the hit's fraction, point and normal.
#[derive(Serialize)]
struct HitLine {
    shape: usize,
    #[serde(flatten)]
    hit: RayHit,
}

#[derive(Serialize)]
struct FileLine<'a> {
    file: &'a str,
    hits: Vec<HitLine>,
}

/// Cast the segment in each file; 1 when any file is refused.
pub fn run(files: &[PathBuf], json: bool, from: DVec2, to: DVec2, out: &mut impl Write) -> u8 {
    super::each_scene(files, json, out, |name, scene, out| {
        let grid = Grid::build(&boxes_of(&scene), None);
        let hits = ray_cast_scene(&scene, Some(&grid), from, to);
        if json {
            let hits = hits
                .into_iter()
                .map(|(shape, hit)| HitLine { shape, hit })
                .collect();
            super::print_json_line(&FileLine { file: name, hits }, out);
            return;
        }
        let _ = writeln!(
            out,
            "{name}: {} hit{} from {} to {}",
            hits.len(),
            if hits.len() == 1 { "" } else { "s" },
            point(from),
            point(to)
        );
        let rows: Vec<[String; 4]> = hits
            .iter()
            .map(|(i, h)| {
                [
                    format!("{i} {}", scene.shapes[*i].display_name(*i)),
                    format!("fraction {}", number(h.fraction)),
                    format!("at {}", point(h.point)),
                    h.normal
                        .map_or("starts inside".into(), |n| format!("normal {}", point(n))),
                ]
            })
            .collect();
        super::print_columns(&rows, "  ", out);
    })
}

/// The options of `collidoscope raycast`.
#[derive(Debug, clap::Args)]
pub struct RaycastArgs {
    /// One JSON line per file instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Where the segment starts.
    #[arg(long, num_args = 2, value_names = ["X", "Y"], allow_negative_numbers = true, required = true)]
    pub from: Vec<f64>,
    /// Where it ends.
    #[arg(long, num_args = 2, value_names = ["X", "Y"], allow_negative_numbers = true, required = true)]
    pub to: Vec<f64>,
    /// Shape-set files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}
