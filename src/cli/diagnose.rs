//! `collidoscope diagnose [--json] FILE...`: every claim of each file against the exact result,
//! with the known mistakes that reproduce it.

use crate::Judgement;
use crate::diagnose::diagnose;
use crate::scene::Scene;
use crate::text::{self, number};
use crate::{claim_sentence, differences};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(Serialize)]
struct FileLine<'a> {
    file: &'a str,
    claims: Vec<Judgement>,
}

/// Diagnose each file (a capture frame by frame, any other as a shape set); 1 when any claim
/// differs from the exact result or any file is refused (so a script or CI fails on a claim
/// that disagrees, as `check` does on a drifted fixture).
pub fn run(files: &[PathBuf], json: bool, out: &mut impl Write) -> u8 {
    let mut status = 0;
    for path in files {
        if crate::capture::is_capture(path) {
            status = status.max(super::diagnose_capture::run(path, json, out));
            continue;
        }
        let mut differs = false;
        let refused =
            super::each_scene(std::slice::from_ref(path), json, out, |name, scene, out| {
                let claims = diagnose(&scene);
                differs |= claims.iter().any(|d| !d.agrees());
                if json {
                    super::print_json_line(&FileLine { file: name, claims }, out);
                } else {
                    print_text(name, &scene, &claims, out);
                }
            });
        status = status.max(refused).max(u8::from(differs));
    }
    status
}

fn print_text(file: &str, scene: &Scene, diagnoses: &[Judgement], out: &mut impl Write) {
    let count = diagnoses.len();
    let _ = writeln!(
        out,
        "{file}: {count} claim{}",
        if count == 1 { "" } else { "s" }
    );
    for (judged, claim) in diagnoses.iter().zip(&scene.claims) {
        // Named with their indices, which `fixture --pair` takes.
        let name = |i: usize| match &scene.shapes[i].name {
            Some(name) => format!("{name} (shape {i})"),
            None => format!("#{i}"),
        };
        let d = &judged.check;
        let piece = match d.piece {
            Some((k, rule, _)) => format!(", piece {k} ({})", rule.name()),
            None => String::new(),
        };
        let (a, b) = judged.exact().indices();
        let _ = writeln!(out, "  {} / {}{piece}:", name(a), name(b));
        let _ = writeln!(out, "    claimed: {}", claim_sentence(claim));
        let _ = writeln!(out, "    exact:   {}", text::summary_sentence(&d.exact));
        if d.agrees {
            match crate::contacts_off(d) {
                Some(worst) => {
                    let _ = writeln!(
                        out,
                        "    agrees (verdict, depth, normal); the contacts are off by up to {}",
                        number(worst)
                    );
                }
                None => match d.tolerance.zip(d.error) {
                    Some((tau, error)) => {
                        let _ = writeln!(out, "    agrees at f32, {}", text::f32_error(error, tau));
                    }
                    None => {
                        let _ = writeln!(out, "    agrees");
                    }
                },
            }
            continue;
        }
        let by = match d.tolerance.zip(d.error) {
            Some((tau, error)) => format!("at f32, {}", text::f32_error(error, tau)),
            None => differences(d),
        };
        let _ = writeln!(out, "    differs: {by}");
        if d.matches.is_empty() {
            let _ = writeln!(out, "    no known mistake reproduces it");
        }
        for m in &d.matches {
            let _ = writeln!(out, "    reproduced by {m}: {}", m.explanation());
            let _ = writeln!(out, "      fix: {}", m.fix());
        }
    }
}

/// `diagnose --help`'s text after the options: examples, agreement, every cause it names and
/// the JSON lines, from the list of causes `diagnose` itself matches.
pub fn after_help() -> String {
    use crate::Cause;
    let causes = crate::cli::words::name_table(Cause::ALL.iter().map(|c| match c {
        Cause::Mistake(m) => (m.name(), crate::cli::words::mistake_in_short(*m)),
        Cause::PreviousPoses => (
            c.name(),
            "(captures) the correct contact of the frame before: not recomputed",
        ),
    }));
    format!(
        "\
Examples:
  collidoscope diagnose shapes/claimed-contacts.json
  collidoscope diagnose --json report.json
  collidoscope diagnose game.capture.jsonl.gz
  collidoscope diagnose --follow --json game.capture.jsonl
  collidoscope diagnose --listen 9713 --json --idle 30     (a game streams to ws://127.0.0.1:9713)

A claim agrees when the verdict is the same, depth and distance are within 1e-6 (absolute +
relative) and the normal's direction within 1e-5. A file or capture that says
\"precision\": \"f32\" is judged at f32: the minimum translation vectors and gaps within
tau = 2^-20 * (the largest coordinate of the pair's positions and bounding boxes).
Known mistakes, matched in this order:
{causes}
A capture's claims that differ are listed as runs: consecutive frames in which one pair's
claim differs with the same causes, each naming the shapes with the ids fixture --pair takes.
With --json, one line per file:
  {{\"file\":\"...\",\"claims\":[{{\"a\":0,\"b\":1,\"agrees\":false,\"exact\":{{...}},
   \"matches\":[\"normal-reversed\"],\"differences\":{{...}}}}]}}
and for a capture (gzip or not; read as a stream, judged on every core):
  {{\"file\":\"...\",\"engine\":{{...}},\"precision\":\"f32\",\"units\":\"m\",
   \"frames\":[{{\"frame\":0,\"time\":0.0,\"claims\":[{{\"a\":1,\"b\":2,\"agrees\":true,
   \"matches\":[],\"tolerance\":9.5e-6,\"error\":0.0,\"exact\":{{...}}}}]}}],
   \"claims\":4,\"agreeing\":4,\"first_divergence\":null,\"events\":[...],\"first_event\":null}}
A capture is also read as motion: what went wrong over time although each claim may agree
(events: seam, tunnelled, pushed-through, normal-flip, stale), counted, the first of each
kind said with its fix.

Exit status: 0 when every claim agrees and no event but a normal-flip happened; 1 when any
claim differs, a capture has an event (a seam that did not catch counts), or a file is
refused; 2 for wrong usage."
    )
}

/// The options of `collidoscope diagnose`.
#[derive(Debug, clap::Args)]
pub struct DiagnoseArgs {
    /// One JSON line per file instead of text.
    #[arg(long)]
    pub json: bool,
    /// Read one capture as the game still writes it: each claim that disagrees and each event
    /// as soon as its frame is read, the summary when it ends (Ctrl-C, or --idle).
    #[arg(long)]
    pub follow: bool,
    /// Listen on 127.0.0.1:PORT (loopback only) for one game that streams its capture (plain
    /// TCP, or WebSocket from a browser page: ws://127.0.0.1:PORT), and judge it as --follow
    /// does, with no window: for a game's own tests. Ends when the game closes the stream.
    #[arg(long, value_name = "PORT", conflicts_with = "follow")]
    pub listen: Option<u16>,
    /// With --follow or --listen: end after this many seconds without the capture growing (or,
    /// listening, without a game connecting) (default: never).
    #[arg(long, value_name = "SECONDS")]
    pub idle: Option<f64>,
    /// Shape-set files with claims, or captures (.capture.jsonl, gzip or not).
    #[arg(required_unless_present = "listen", conflicts_with = "listen")]
    pub files: Vec<PathBuf>,
}
