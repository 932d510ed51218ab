//! `collidoscope check FILE...`: validate each file and, for a fixture, recompute every pinned
//! result. Files are checked on all cores (rayon), with a progress bar when stderr is a
//! terminal; the report keeps the arguments' order.

use crate::fixture;
use crate::scene;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// What checking one file found: the lines to print, and whether it passed.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCheck {
    /// `FILE: OK (...)`, the error, or one line per drifted field.
    pub lines: Vec<String>,
    /// Whether the file is valid and every pinned result agrees.
    pub ok: bool,
}

/// Check one file.
pub fn check_file(path: &Path) -> FileCheck {
    let name = path.display();
    if crate::lesson::is_lesson(path) {
        // A lesson is checked as presenting it reads it: every slide and every file it names.
        return match crate::lesson::Lesson::load(path) {
            Ok(lesson) => FileCheck {
                lines: vec![format!(
                    "{name}: OK (lesson, {} slide{})",
                    lesson.slides.len(),
                    if lesson.slides.len() == 1 { "" } else { "s" }
                )],
                ok: true,
            },
            Err(e) => FileCheck {
                lines: vec![e.to_string()],
                ok: false,
            },
        };
    }
    let scene = match scene::load(path) {
        Ok(scene) => scene,
        Err(e) => {
            return FileCheck {
                lines: vec![e.to_string()],
                ok: false,
            };
        }
    };
    let shapes = scene.shapes.len();
    match fixture::check(&scene) {
        None => FileCheck {
            lines: vec![format!("{name}: OK ({shapes} shapes)")],
            ok: true,
        },
        Some(v) if v.is_ok() => FileCheck {
            lines: vec![format!(
                "{name}: OK ({shapes} shapes, {} pinned pair{} agree{})",
                v.pairs,
                if v.pairs == 1 { "" } else { "s" },
                if v.pairs == 1 { "s" } else { "" }
            )],
            ok: true,
        },
        Some(v) => FileCheck {
            lines: v.drifts.iter().map(|d| format!("{name}: {d}")).collect(),
            ok: false,
        },
    }
}

/// Check every file on all cores, in argument order; a progress bar on a terminal.
pub fn check_files(files: &[PathBuf]) -> Vec<FileCheck> {
    let progress = if files.len() > 1 && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("checking {pos}/{len} files {wide_bar} {eta}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let checks = files
        .par_iter()
        .map(|path| {
            let check = check_file(path);
            progress.inc(1);
            check
        })
        .collect();
    progress.finish_and_clear();
    checks
}

/// Print each file's lines; 1 when any file is refused or drifted.
pub fn run(files: &[PathBuf], out: &mut impl Write) -> u8 {
    let mut status = 0;
    for check in check_files(files) {
        for line in &check.lines {
            let _ = writeln!(out, "{line}");
        }
        if !check.ok {
            status = 1;
        }
    }
    status
}

/// The options of `collidoscope check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Shape-set files or fixtures.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}
