//! `collidoscope packets [--json] LOG... --step S [--swept]` and
//! `collidoscope packets --generate RECORDING [--latency MS] [--jitter MS] [--loss P] -o LOG`.

use crate::latency::{Collision, Network, PacketEngine, PacketLog, Retraction, Settings, generate};
use crate::motion::Recording;
use crate::text::{self, number};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Serialize)]
struct PacketsLine<'a> {
    file: &'a str,
    step: f64,
    collisions: Vec<&'a Collision>,
    retracted: Vec<&'a Retraction>,
    /// Extra: swept contacts were looked for.
    swept: bool,
    /// Extra: packets read, and how many were ignored as duplicates.
    packets: usize,
    duplicates: usize,
}

/// Run every log through the engine; 1 when any log is refused.
pub fn run(logs: &[PathBuf], settings: Settings, json: bool, out: &mut impl Write) -> u8 {
    let mut status = 0;
    for path in logs {
        let name = path.to_string_lossy();
        let log = match PacketLog::load(path) {
            Ok(log) => log,
            Err(e) => {
                status = 1;
                super::report_unreadable(&name, &e, json, out);
                continue;
            }
        };
        let mut engine = PacketEngine::for_log(&log, settings);
        let mut duplicates = 0;
        let mut refused = None;
        for (i, p) in log.packets.iter().enumerate() {
            match engine.push(p) {
                Ok(effect) => duplicates += effect.duplicate as usize,
                Err(e) => {
                    refused = Some(crate::files::FileError::new(
                        path,
                        crate::files::Problem::Document(format!("packet {i}: {e}")),
                    ));
                    break;
                }
            }
        }
        if let Some(e) = refused {
            status = 1;
            super::report_unreadable(&name, &e, json, out);
            continue;
        }
        let (collisions, retracted) = sorted(&engine);
        if json {
            super::print_json_line(
                &PacketsLine {
                    file: &name,
                    step: settings.step_ms,
                    collisions,
                    retracted,
                    swept: settings.swept,
                    packets: log.packets.len(),
                    duplicates,
                },
                out,
            );
            continue;
        }
        let player = |i: usize| log.players[i].display_name(i);
        let swept = collisions.iter().filter(|c| c.between.is_some()).count();
        let _ = writeln!(
            out,
            "{name}: {} packets from {} players ({duplicates} duplicates ignored), step {} ms{}",
            log.packets.len(),
            log.players.len(),
            number(settings.step_ms),
            if settings.swept { ", swept" } else { "" }
        );
        let _ = writeln!(
            out,
            "  {} collision{} ({swept} swept), {} retracted, {} standing at the end",
            collisions.len(),
            if collisions.len() == 1 { "" } else { "s" },
            retracted.len(),
            engine.standing().len()
        );
        const SHOWN: usize = 30;
        let mut lines: Vec<(f64, String)> = collisions
            .iter()
            .map(|c| {
                let (a, b) = (player(c.a), player(c.b));
                let line = text::latency_collision(&a, &b, c.time, c.between, c.detected_at);
                (c.detected_at, format!("collision: {line}"))
            })
            .chain(retracted.iter().map(|r| {
                let (a, b) = (player(r.a), player(r.b));
                let line = text::latency_retraction(&a, &b, r.time, r.retracted_at);
                (r.retracted_at, line)
            }))
            .collect();
        lines.sort_by(|x, y| x.0.total_cmp(&y.0));
        for (_, line) in lines.iter().take(SHOWN) {
            let _ = writeln!(out, "  {line}");
        }
        if lines.len() > SHOWN {
            let _ = writeln!(
                out,
                "  ... and {} more (--json lists them all)",
                lines.len() - SHOWN
            );
        }
    }
    status
}

/// Collisions and retractions sorted as docs/format.md says: by R, then time, then a, b.
pub fn sorted(engine: &PacketEngine) -> (Vec<&Collision>, Vec<&Retraction>) {
    let mut collisions: Vec<&Collision> = engine.collisions().iter().collect();
    collisions.sort_by(|x, y| {
        (x.detected_at.total_cmp(&y.detected_at))
            .then(x.time.total_cmp(&y.time))
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    let mut retracted: Vec<&Retraction> = engine.retracted().iter().collect();
    retracted.sort_by(|x, y| {
        (x.retracted_at.total_cmp(&y.retracted_at))
            .then(x.time.total_cmp(&y.time))
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    (collisions, retracted)
}

/// Write the log a network would deliver from a recording's moving bodies.
pub fn run_generate(
    recording: &Path,
    network: &Network,
    output: &Path,
    out: &mut impl Write,
) -> u8 {
    let recording_data = match Recording::load(recording) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let log = generate(&recording_data, network);
    if let Err(e) = log.save(output) {
        eprintln!("collidoscope packets: {e}");
        return 1;
    }
    let sent = (recording_data.steps() / network.every.max(1) + 1) as usize * log.players.len();
    let _ = writeln!(
        out,
        "{}: {} packets of {} players from {} ({} sent; latency {} ms, jitter {} ms, loss {})",
        output.display(),
        log.packets.len(),
        log.players.len(),
        recording.display(),
        sent,
        number(network.latency_ms),
        number(network.jitter_ms),
        number(network.loss)
    );
    0
}

/// The options of `collidoscope packets`.
#[derive(Debug, clap::Args)]
pub struct PacketsArgs {
    /// One JSON line per log instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// The bucket step S in ms (required to check logs).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub step: Option<f64>,
    /// Also find contacts between buckets.
    #[arg(long)]
    pub swept: bool,
    /// Make a packet log from this recording instead (with -o).
    #[arg(long, value_name = "RECORDING", conflicts_with_all = ["json", "step", "swept"])]
    pub generate: Option<PathBuf>,
    /// --generate: base one-way latency (ms).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 80.0,
        allow_negative_numbers = true
    )]
    pub latency: f64,
    /// --generate: jitter (ms): each packet's latency is off by up to this either way.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 20.0,
        allow_negative_numbers = true
    )]
    pub jitter: f64,
    /// --generate: the chance a packet is lost.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 0.05,
        allow_negative_numbers = true
    )]
    pub loss: f64,
    /// --generate: the chance a packet is held back one to three more send intervals.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub reorder: f64,
    /// --generate: the chance a packet arrives twice.
    #[arg(
        long,
        value_name = "P",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub duplicate: f64,
    /// --generate: send every N frames.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: u64,
    /// --generate: the random seed (the same seed gives the same log).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// --generate: the packet log to write.
    #[arg(short = 'o', long = "output", value_name = "LOG")]
    pub output: Option<PathBuf>,
    /// Packet logs to check.
    pub logs: Vec<PathBuf>,
}
