//! `collidoscope simulate [--json] FILE --dt DT --steps N [--resolver R] [--substeps MODE]
//! [--ccd] [--record OUT]` and `collidoscope replay FILE`.

use crate::geometry::DVec2;
use crate::motion::{Config, Event, Recording, Simulation, counts, replay};
use crate::text::{number, point};
use serde::Serialize;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

#[derive(Serialize)]
struct FinalLine {
    shape: usize,
    position: DVec2,
    angle: f64,
    velocity: DVec2,
    /// Extra: the angular velocity.
    angular_velocity: f64,
}

#[derive(Serialize)]
struct SimulateLine<'a> {
    file: &'a str,
    steps: u64,
    #[serde(rename = "final")]
    final_: Vec<FinalLine>,
    events: &'a [Event],
    /// Extra: how the run was configured.
    dt: f64,
    resolver: &'static str,
    substeps: String,
    ccd: bool,
    /// Extra: substeps taken over the whole run.
    substeps_taken: u64,
}

/// Run `file` for `steps` steps; 1 when the file is refused or the recording cannot be
/// written.
pub fn run(
    file: &Path,
    config: Config,
    steps: u64,
    record: Option<&Path>,
    json: bool,
    out: &mut impl Write,
) -> u8 {
    let name = file.to_string_lossy();
    let scene = match crate::scene::load(file) {
        Ok(scene) => scene,
        Err(e) => {
            super::report_unreadable(&name, &e, json, out);
            return 1;
        }
    };
    let mut simulation = Simulation::new(scene, config);
    let mut recording = record.map(|_| Recording::start(&simulation));
    let mut events = Vec::new();
    let mut substeps_taken = 0u64;
    for _ in 0..steps {
        let outcome = simulation.step();
        substeps_taken += outcome.substeps as u64;
        if let Some(r) = &mut recording {
            r.push(&simulation, &outcome.events);
        }
        events.extend(outcome.events);
    }
    let mut status = 0;
    if let (Some(r), Some(path)) = (&recording, record)
        && let Err(e) = r.save(path)
    {
        eprintln!("collidoscope simulate: {e}");
        status = 1;
    }
    let scene = simulation.scene();
    if json {
        let final_ = scene
            .shapes
            .iter()
            .enumerate()
            .map(|(i, s)| FinalLine {
                shape: i,
                position: s.placed.pose.position,
                angle: s.placed.pose.angle(),
                velocity: s.motion.velocity,
                angular_velocity: s.motion.angular_velocity,
            })
            .collect();
        super::print_json_line(
            &SimulateLine {
                file: &name,
                steps,
                final_,
                events: &events,
                dt: config.dt,
                resolver: config.resolver.name(),
                substeps: config.substeps.to_string(),
                ccd: config.ccd,
                substeps_taken,
            },
            out,
        );
        return status;
    }
    let shown = |i: usize| scene.shapes[i].display_name(i);
    let _ = writeln!(
        out,
        "{name}: {steps} steps of {} s ({} substeps in all, substeps {}), resolver {}{}",
        number(config.dt),
        substeps_taken,
        config.substeps,
        config.resolver,
        if config.ccd {
            ", continuous collision"
        } else {
            ""
        }
    );
    let _ = writeln!(out, "  events: {}", counts(&events));
    const SHOWN: usize = 20;
    for e in events.iter().take(SHOWN) {
        let _ = writeln!(out, "  {}", e.sentence(shown));
    }
    if events.len() > SHOWN {
        let _ = writeln!(
            out,
            "  ... and {} more (--json lists them all)",
            events.len() - SHOWN
        );
    }
    let _ = writeln!(out, "  at the end:");
    let rows: Vec<[String; 4]> = scene
        .shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| s.motion.body != crate::scene::Body::Static)
        .map(|(i, s)| {
            [
                format!("{i} {}", shown(i)),
                format!("at {}", point(s.placed.pose.position)),
                format!("angle {}", number(s.placed.pose.angle())),
                format!("velocity {}", point(s.motion.velocity)),
            ]
        })
        .collect();
    super::print_columns(&rows, "    ", out);
    if let (Some(path), 0) = (record, status) {
        let r = recording.as_ref().expect("recorded");
        let _ = writeln!(
            out,
            "  recorded to {} ({} bytes of frames for {} bodies)",
            path.display(),
            r.frames_bytes(),
            r.bodies().len()
        );
    }
    status
}

/// Re-run a recording and compare: 0 when identical, 1 when it diverges or cannot be read.
pub fn run_replay(file: &Path, out: &mut impl Write) -> u8 {
    let recording = match Recording::load(file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let name = file.display();
    match replay(&recording) {
        Ok(steps) => {
            let _ = writeln!(
                out,
                "{name}: identical: {steps} steps replayed bit for bit ({} bodies, resolver {}, substeps {})",
                recording.bodies().len(),
                recording.config().resolver,
                recording.config().substeps
            );
            0
        }
        Err(d) => {
            let shown = recording.scene().shapes[d.shape].display_name(d.shape);
            let _ = writeln!(
                out,
                "{name}: diverges at step {}: shape {} {shown} recorded at {} angle {} velocity {}, simulated at {} angle {} velocity {}",
                d.step,
                d.shape,
                point(d.recorded.position),
                number(d.recorded.angle),
                point(d.recorded.velocity),
                point(d.simulated.position),
                number(d.simulated.angle),
                point(d.simulated.velocity)
            );
            1
        }
    }
}

/// `simulate --help`'s text after the options: examples, the step, every resolver and every
/// event, from the lists the simulation itself uses.
pub fn after_help() -> String {
    use crate::motion::{EventKind, Resolver};
    let resolvers = crate::cli::words::name_table(Resolver::all().map(|r| match r {
        Resolver::Sat => (
            "sat",
            "the exact test: the MTV the shorter way out (default)",
        ),
        Resolver::Mistake(m) => (m.name(), crate::cli::words::mistake_in_short(m)),
    }));
    let events = crate::cli::words::name_table(
        EventKind::ALL
            .iter()
            .map(|k| (k.name(), crate::motion::event_in_short(*k))),
    );
    format!(
        "\
Examples:
  collidoscope simulate shapes/bullet-and-wall.json --dt 0.1 --steps 20
  collidoscope simulate shapes/bullet-and-wall.json --dt 0.1 --steps 20 --substeps bound
  collidoscope simulate shapes/bullet-and-wall.json --dt 0.1 --steps 20 --ccd
  collidoscope simulate shapes/clockwise-obstacle.json --dt 0.016 --steps 120 \\
      --resolver naive-smallest-overlap --record naive.rec

Each step moves every kinematic and dynamic body by its velocity for DT (or each substep),
then resolves every intersecting pair with a dynamic body in pair order: the dynamic body
moves out along the resolver's MTV (two dynamic bodies: half each) and loses the part of its
velocity pointing into the other (it slides).
Resolvers (--resolver):
{resolvers}
Events, each naming the step (1 for the first), the pair (a < b) and the numbers that show it:
{events}
With --json, one line:
  {{\"file\":\"...\",\"steps\":20,\"final\":[{{\"shape\":0,\"position\":[0,0],\"angle\":0,
   \"velocity\":[0,0]}}],\"events\":[{{\"step\":1,\"kind\":\"tunnelled\",\"a\":0,\"b\":1}}]}}"
    )
}

/// The options of `collidoscope simulate`.
#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// One JSON line instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// The step, in seconds.
    #[arg(long, value_name = "DT", allow_negative_numbers = true)]
    pub dt: f64,
    /// How many steps.
    #[arg(long, value_name = "N")]
    pub steps: u64,
    /// sat (the correct test) or a named mistake (below).
    #[arg(long, value_name = "R", default_value = "sat")]
    pub resolver: String,
    /// fixed:K (K equal substeps) or bound (no body moves more than (r - e) per substep).
    #[arg(long, value_name = "MODE", default_value = "fixed:1")]
    pub substeps: String,
    /// Continuous collision: a dynamic body stops at its first contact with a static or
    /// kinematic shape (the time of impact) instead of moving through it.
    #[arg(long)]
    pub ccd: bool,
    /// Write every step's poses and events to this recording (replay re-checks it).
    #[arg(long, value_name = "OUT")]
    pub record: Option<PathBuf>,
    /// The shape-set file (version 2 bodies and velocities).
    pub file: PathBuf,
}

/// The options of `collidoscope replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A recording written by simulate --record (or the window).
    pub file: PathBuf,
}
