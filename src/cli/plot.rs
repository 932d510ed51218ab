//! `collidoscope plot CAPTURE|RECORDING|LOG [--shape NAME|ID]... [--pair A B]... [--what W,...]
//! [--frames F1 F2] -o OUT.svg|OUT.png [--size W H] [--theme T] [--csv OUT.csv] [--step S]
//! [--swept]`: quantities over time ([`crate::series`]) as a picture ([`crate::picture::plot`])
//! and as CSV.

use super::render::{SIZES, format_of, write_picture};
use crate::capture::analysis::series::plot_capture;
use crate::picture::{Vec2, palette::Theme, plot::plot_picture};
use crate::series::{Plot, PlotError, PlotRequest, ShapeRef, parse_quantities};
use std::path::{Path, PathBuf};

/// The size of a plot when none is asked for (pixels).
pub const DEFAULT_SIZE: (u32, u32) = (960, 640);

/// Plot one run: 0 when written; 1 when the file cannot be read or an output cannot be
/// written; 2 for wrong usage (no output, an output that is neither .svg nor .png, a size out
/// of range, a quantity, shape or pair that is not there).
pub fn run(args: &PlotArgs) -> u8 {
    let path = args.file.as_path();
    if args.output.is_none() && args.csv.is_none() {
        eprintln!("collidoscope plot: name an output: -o OUT.svg|OUT.png, --csv OUT.csv, or both");
        return 2;
    }
    let format = match &args.output {
        Some(out) => match format_of(out) {
            Some(f) => Some(f),
            None => {
                eprintln!(
                    "collidoscope plot: {}: the picture's name must end in .svg or .png",
                    out.display()
                );
                return 2;
            }
        },
        None => None,
    };
    let (w, h) = args.size.as_ref().map_or(DEFAULT_SIZE, |s| (s[0], s[1]));
    if !SIZES.contains(&w) || !SIZES.contains(&h) {
        eprintln!(
            "collidoscope plot: --size {w} {h}: give a width and a height from {} to {} pixels",
            SIZES.start(),
            SIZES.end()
        );
        return 2;
    }
    let Some(theme) = Theme::from_name(&args.theme) else {
        eprintln!(
            "collidoscope plot: --theme {}: the themes are dark and light",
            args.theme
        );
        return 2;
    };
    let request = match request_of(args).and_then(|r| r.check().map(|()| r.deduplicated())) {
        Ok(r) => {
            for note in r.notes() {
                eprintln!("{note}");
            }
            r
        }
        Err(message) => {
            eprintln!("collidoscope plot: {message}");
            return 2;
        }
    };
    if let Some(step) = args.step
        && !(step.is_finite() && step > 0.0)
    {
        eprintln!("collidoscope plot: --step {step}: give a step above 0 ms");
        return 2;
    }
    let log = PacketLogOptions {
        step_ms: args.step,
        swept: args.swept,
    };
    let plot = match plot_file(path, &request, log) {
        Ok((plot, notes)) => {
            for note in notes {
                eprintln!("{note}");
            }
            plot
        }
        Err(PlotError::File(e)) => {
            eprintln!("{e}");
            return 1;
        }
        Err(PlotError::Unreadable(words)) => {
            eprintln!("{words}");
            return 1;
        }
        Err(PlotError::NotThere(words)) => {
            eprintln!("{words}");
            return 2;
        }
    };
    if let Some(csv) = &args.csv {
        if let Err(e) = crate::files::write_atomically(csv, plot.csv().as_bytes()) {
            eprintln!("{}: cannot write the table: {e}", csv.display());
            return 1;
        }
        println!("wrote {}", csv.display());
    }
    if let (Some(out), Some(format)) = (&args.output, format) {
        let picture = plot_picture(&plot, Vec2::new(w as f32, h as f32), theme);
        if let Err(status) = write_picture(&picture, out, format, (w, h), "plot") {
            return status;
        }
    }
    println!("{}", plot.summary());
    0
}

/// What the options ask for.
fn request_of(args: &PlotArgs) -> Result<PlotRequest, String> {
    let what = match &args.what {
        Some(list) => parse_quantities(list)?,
        None => Vec::new(),
    };
    let frames = match args.frames.as_deref() {
        Some(&[a, b]) if a <= b => Some((a, b)),
        Some(&[a, b]) => return Err(format!("--frames {a} {b}: the first frame comes first")),
        _ => None,
    };
    Ok(PlotRequest {
        shapes: args.shape.iter().cloned().map(ShapeRef::Given).collect(),
        pairs: args
            .pair
            .chunks(2)
            .map(|p| (ShapeRef::Given(p[0].clone()), ShapeRef::Given(p[1].clone())))
            .collect(),
        what,
        frames,
    })
}

/// How a packet log is plotted: its step (`None`: the median time between a player's
/// packets) and whether swept collisions are looked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PacketLogOptions {
    /// The bucket step (ms).
    pub step_ms: Option<f64>,
    /// Collisions between bucket times too.
    pub swept: bool,
}

/// The plot of the capture, recording or packet log at `path`, with notes to say. `log`'s
/// options are for a packet log only: given with another file, they are refused.
pub fn plot_file(
    path: &Path,
    request: &PlotRequest,
    log: PacketLogOptions,
) -> Result<(Plot, Vec<String>), PlotError> {
    let packet_log = head_names(path, crate::latency::FORMAT)
        || (!crate::capture::is_capture(path)
            && !head_names(path, "collidoscope-recording")
            && std::fs::read(path).is_ok_and(|b| crate::latency::is_packet_log_text(&b)));
    if packet_log {
        return crate::latency::plot_packet_log(path, log.step_ms, log.swept, request);
    }
    if log != PacketLogOptions::default() {
        return Err(PlotError::NotThere(format!(
            "{}: --step and --swept are for a packet log; this is not one",
            path.display()
        )));
    }
    if crate::capture::is_capture(path) {
        return plot_capture(path, request);
    }
    match crate::motion::Recording::load(path) {
        Ok(recording) => {
            crate::motion::plot_recording(&recording, request, &path.display().to_string())
                .map(|plot| (plot, Vec::new()))
        }
        Err(e) if head_names(path, "collidoscope-recording") => Err(PlotError::File(e)),
        Err(_) => {
            let words = match crate::capture::not_a_capture(path) {
                Some(what) if what.unreadable() => {
                    return Err(PlotError::Unreadable(crate::capture::words::not_a_capture(
                        path, &what,
                    )));
                }
                Some(what) => crate::capture::words::not_a_capture(path, &what),
                None => format!("{}: not a capture", path.display()),
            };
            Err(PlotError::NotThere(format!(
                "{words}; plot reads a capture, a motion-lab recording (simulate --record) or a packet log"
            )))
        }
    }
}

/// Whether the file's first 512 bytes name `format` (a recording's or a packet log's: its
/// errors are then the ones to tell).
fn head_names(path: &Path, format: &str) -> bool {
    use std::io::Read;
    let mut head = [0u8; 512];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    String::from_utf8_lossy(&head[..n]).contains(format)
}

/// The options of `collidoscope plot`.
#[derive(Debug, clap::Args)]
pub struct PlotArgs {
    /// A capture (.capture.jsonl, .gz too), a motion-lab recording (simulate --record) or a
    /// packet log.
    pub file: PathBuf,
    /// A shape to plot, by name or id (a recording's shape or a packet log's player: by name
    /// or place in the list); again for more.
    #[arg(long, value_name = "NAME|ID")]
    pub shape: Vec<String>,
    /// A pair to plot (A first: its normal points from A toward B); again for more.
    #[arg(long, num_args = 2, value_names = ["A", "B"], action = clap::ArgAction::Append)]
    pub pair: Vec<String>,
    /// The quantities, comma-separated: speed, vx, vy, angular, x, y, angle (a shape's);
    /// depth, separation, normal-angle, impulse, error (a pair's) [default: speed,depth].
    #[arg(long, value_name = "W,...")]
    pub what: Option<String>,
    /// Only frames F1 to F2 (the engine's frame numbers; a recording's steps).
    #[arg(long, num_args = 2, value_names = ["F1", "F2"])]
    pub frames: Option<Vec<u64>>,
    /// Where to write the picture: OUT.svg or OUT.png.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The picture's width and height in pixels [default: 960 640].
    #[arg(long, num_args = 2, value_names = ["W", "H"])]
    pub size: Option<Vec<u32>>,
    /// dark (the window's) or light (for paper and projectors).
    #[arg(long, value_name = "T", default_value = "dark")]
    pub theme: String,
    /// Write the same lines as CSV columns (every number exact), one row per frame.
    #[arg(long, value_name = "OUT.csv")]
    pub csv: Option<PathBuf>,
    /// A packet log's bucket step S (ms): its frames are the multiples of S [default: the
    /// median time between a player's packets].
    #[arg(long, value_name = "S")]
    pub step: Option<f64>,
    /// A packet log's collisions between bucket times too (as `packets --swept`).
    #[arg(long)]
    pub swept: bool,
}
