//! `collidoscope import FILE [-o OUT] [--scale S] [--skip-unsupported] [--merge]`: a level's
//! collision geometry as a shape set (docs/format.md, "Import"); with `--merge`, its tiles
//! joined into chains (also on a shape set).

use crate::import::{Convert, import, is_shape_set_file, merge_imported};
use crate::scene::{save, to_json};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The command's arguments.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A Tiled map (.tmx, or JSON: .tmj, .json) or a Godot 4 text scene (.tscn); with --merge,
    /// also a shape set (.json).
    pub file: PathBuf,
    /// Where to write the shape set (atomically); without it, stdout.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// World units per source pixel.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    pub scale: f64,
    /// Leave out what collidoscope cannot hold (a note each) instead of refusing the file.
    #[arg(long)]
    pub skip_unsupported: bool,
    /// Replace each group of static polygons that touch along edges (a level's tiles) by
    /// chains along the group's outline: no seams left between them to catch on.
    #[arg(long)]
    pub merge: bool,
}

/// Run it: 0 imported, 1 refused, 2 wrong usage. Notes go to stderr.
pub fn run(args: &ImportArgs, out: &mut impl Write) -> u8 {
    if !(args.scale.is_finite() && args.scale > 0.0) {
        eprintln!(
            "collidoscope import: --scale must be a number > 0 (world units per pixel), found {}",
            args.scale
        );
        return 2;
    }
    if is_shape_set_file(&args.file) {
        if args.scale != 1.0 {
            eprintln!(
                "collidoscope import: --scale is for a level's pixels, and {} is a shape set (in world units already)",
                args.file.display()
            );
            return 2;
        }
        if !args.merge {
            eprintln!(
                "collidoscope import: {} is a shape set already: pass --merge to merge its tiles into chains",
                args.file.display()
            );
            return 2;
        }
    }
    if let Some(output) = &args.output {
        let itself = matches!(
            (output.canonicalize(), args.file.canonicalize()),
            (Ok(a), Ok(b)) if a == b
        );
        if itself || crate::import::is_level_file(output) {
            eprintln!(
                "collidoscope import: -o {} is {}: give another path (it would replace it)",
                output.display(),
                if itself {
                    "the level itself"
                } else {
                    "a level file (a Tiled map, tileset or template, or a Godot file)"
                }
            );
            return 2;
        }
    }
    let convert = Convert { scale: args.scale };
    let imported = match import(&args.file, convert, args.skip_unsupported) {
        Ok(imported) if args.merge => merge_imported(imported, &args.file),
        Ok(imported) => imported,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    for note in &imported.notes {
        eprintln!("{note}");
    }
    match &args.output {
        Some(path) => write(path, &imported.scene),
        None => {
            let _ = out.write_all(to_json(&imported.scene).as_bytes());
            0
        }
    }
}

fn write(path: &Path, scene: &crate::scene::Scene) -> u8 {
    match save(scene, path) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
