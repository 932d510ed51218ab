//! `collidoscope import FILE [-o OUT] [--scale S] [--skip-unsupported] [--merge]`: a level's
//! collision geometry as a shape set (docs/format.md, "Import"); with `--merge`, its tiles
//! joined into chains (also on a shape set). A Box2D recording (`.b2rec`) is replayed by Box2D
//! and written as a capture.

use crate::import::{Convert, import, is_shape_set_file, merge_imported};
use crate::scene::{save, to_json};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The command's arguments.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A Tiled map (.tmx, or JSON: .tmj, .json) or a Godot 4 text scene (.tscn); with --merge,
    /// also a shape set (.json); or a Box2D recording (.b2rec), replayed into a capture.
    pub file: PathBuf,
    /// Where to write the shape set (atomically); without it, stdout. For a recording, the
    /// capture (gzip when it ends in .gz).
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
    if crate::capture::is_box2d_recording(&args.file) {
        return run_recording(args, out);
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
        Ok(imported) if args.merge => merge_imported(imported, &args.file, args.scale),
        Ok(imported) => imported,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    // Alike notes (42 coins, each a trigger) one line each, with their count.
    for line in crate::import::note_lines(&imported.notes) {
        eprintln!("{line}");
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

/// `import game.b2rec [-o game.capture.jsonl.gz]`: the recording replayed by Box2D, each step
/// written as a capture frame; 0 written, 1 refused, 2 wrong usage.
fn run_recording(args: &ImportArgs, out: &mut impl Write) -> u8 {
    let file = args.file.display();
    let misused = if args.scale != 1.0 {
        Some("--scale")
    } else if args.merge {
        Some("--merge")
    } else if args.skip_unsupported {
        Some("--skip-unsupported")
    } else {
        None
    };
    if let Some(option) = misused {
        eprintln!(
            "collidoscope import: {option} is for a level, and {file} is a Box2D recording \
             (replayed into a capture as it is)"
        );
        return 2;
    }
    let named_as_capture = |p: &Path| {
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
    };
    if let Some(output) = &args.output
        && !named_as_capture(output)
    {
        eprintln!(
            "collidoscope import: -o {}: a recording is replayed into a capture: name it \
             NAME.capture.jsonl, or NAME.capture.jsonl.gz to compress it",
            output.display()
        );
        return 2;
    }
    replay_recording(&args.file, args.output.as_deref(), out)
}

#[cfg(feature = "box2d")]
fn replay_recording(file: &Path, output: Option<&Path>, _: &mut impl Write) -> u8 {
    use crate::capture::box2d::replay::replay_in_child;
    let progress = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let bar = indicatif::ProgressBar::new(0);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("replaying {pos}/{len} frames {wide_bar} {eta}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let tick = |k: u64, n: u64| {
        progress.set_length(n);
        progress.set_position(k);
    };
    // In a child process: one of Box2D's assertions on a damaged recording stops the child,
    // not this command.
    let result = std::env::current_exe()
        .map_err(|e| {
            format!(
                "{}: cannot find collidoscope to replay it: {e}",
                file.display()
            )
        })
        .and_then(|exe| replay_in_child(&exe, file, output, tick));
    progress.finish_and_clear();
    match result {
        Ok(words) => {
            eprintln!("{words}");
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// `collidoscope replay-recording [--progress] RECORDING [CAPTURE]` (hidden): the replay
/// itself, in the child process `import` and the window start. Box2D's assertions end it with
/// `ASSERTION_EXIT`; `--progress` prints `progress K N` lines on stderr.
#[cfg(feature = "box2d")]
pub fn run_replay(args: &ReplayArgs, out: &mut impl Write) -> u8 {
    use crate::capture::box2d::replay::{replay, replay_file, stop_on_assertion};
    stop_on_assertion();
    let file = &args.recording;
    let tick = |k: u64, n: u64| {
        if args.progress && (k == n || k.is_multiple_of(64)) {
            eprintln!("progress {k} {n}");
        }
    };
    let said = |r: &crate::capture::box2d::replay::Replayed, capture: Option<&Path>| {
        crate::text::replayed(file, capture, r.frames, r.dt, r.diverged_at)
    };
    let result = match &args.capture {
        Some(path) => replay_file(file, path, tick).map(|r| said(&r, Some(path))),
        None => std::fs::read(file)
            .map_err(|e| format!("cannot read it: {e}"))
            .and_then(|bytes| {
                replay(&bytes, &mut *out, false, tick)
                    .map(|(r, _)| said(&r, None))
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| format!("{}: {e}", file.display())),
    };
    match result {
        Ok(words) => {
            eprintln!("{words}");
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

#[cfg(not(feature = "box2d"))]
pub fn run_replay(args: &ReplayArgs, out: &mut impl Write) -> u8 {
    replay_recording(&args.recording, args.capture.as_deref(), out)
}

/// The arguments of the hidden `replay-recording`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Print `progress K N` lines on stderr.
    #[arg(long)]
    pub progress: bool,
    /// The Box2D recording.
    pub recording: PathBuf,
    /// The capture to write (atomically); without it, stdout.
    pub capture: Option<PathBuf>,
}

#[cfg(not(feature = "box2d"))]
fn replay_recording(file: &Path, _: Option<&Path>, _: &mut impl Write) -> u8 {
    eprintln!(
        "{}: a Box2D recording, and this build of collidoscope has no Box2D to replay it: build \
         it with the box2d feature (cargo install --path . --features box2d)",
        file.display()
    );
    1
}
