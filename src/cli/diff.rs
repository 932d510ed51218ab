//! `collidoscope diff A B [--tolerance X] [--offset K] [--json]`: two captures of "the same"
//! run side by side, and where they first part (see [`crate::capture::diff_captures`]).

use crate::capture::{DiffSettings, diff_captures};
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// One JSON line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Values further apart than this differ (default: any difference in the bits).
    #[arg(long, value_name = "X")]
    pub tolerance: Option<f64>,
    /// Frame f of A goes with frame f + K of B (a client's and a server's ticks).
    #[arg(
        long,
        value_name = "K",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub offset: i64,
    /// The first run's capture (.capture.jsonl, gzip or not).
    pub a: PathBuf,
    /// The second run's capture.
    pub b: PathBuf,
}

pub fn after_help() -> &'static str {
    "\
Examples:
  collidoscope diff replay-1.capture.jsonl replay-2.capture.jsonl
  collidoscope diff client.capture.jsonl server.capture.jsonl --offset 3 --tolerance 1e-6
  collidoscope diff x86.capture.jsonl arm.capture.jsonl --json

Frames are aligned by number (frame f of A with frame f + K of B) and shapes by id. The first
frame where a shape's position, angle, velocity, angular velocity or presence differs is the
divergence: every shape that differs there, with both values, and the claims that differ at
that frame and the one before (a contact one run had and the other did not, or another normal
or depth); then how far apart the runs drift, to the end. Exit 0 when the runs agree, 1 when
they differ or a capture is refused (as diagnose refuses it), 2 when the arguments are wrong
or no frame is in both runs (each run's frames and the offset that would align them are said)."
}

/// Compare two captures; 0 when they agree, 1 when they differ or one is refused, 2 on wrong
/// usage or when no frame is in both runs.
pub fn run(args: &DiffArgs, out: &mut impl Write) -> u8 {
    if let Some(t) = args.tolerance
        && !(t.is_finite() && t >= 0.0)
    {
        eprintln!("collidoscope diff: --tolerance {t}: a number >= 0");
        return 2;
    }
    let settings = DiffSettings {
        tolerance: args.tolerance,
        offset: args.offset,
    };
    let diff = match diff_captures(&args.a, &args.b, settings) {
        Ok(d) => d,
        Err(e) => {
            super::report_unreadable(&e.path.to_string_lossy(), &e, args.json, out);
            return 1;
        }
    };
    if args.json {
        super::print_json_line(&diff, out);
    } else {
        for line in crate::capture::words::run_diff(&diff) {
            let _ = writeln!(out, "{line}");
        }
    }
    if diff.frames_compared == 0 {
        // Nothing was compared: not an agreement, but the frames (or the offset) given. The
        // text said why and what would help; the JSON line's reader hears it on stderr.
        if args.json {
            eprintln!(
                "collidoscope diff: {}",
                crate::capture::words::no_common_frame(&diff, true)
            );
        }
        return 2;
    }
    if diff.agree() { 0 } else { 1 }
}
