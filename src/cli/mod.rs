//! The command line: `query`, `pairs`, `explain`, `check`, `fixture`, `diagnose` and
//! `render`, all reading through [`crate::scene`] and answering through [`crate::query`] (and
//! [`crate::broad`] for many shapes, [`crate::fixture`] and [`crate::diagnose`]); `render`
//! draws through [`crate::picture`], as the window does.

mod check;
mod diagnose;
mod diagnose_capture;
mod diff;
mod explain;
mod fixture;
mod import;
mod lesson;
mod packets;
mod pairs;
mod plot;
mod query;
mod raycast;
mod render;
mod simulate;
mod toi;
mod words;

pub use check::{FileCheck, check_file, check_files};

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  collidoscope query shapes/clockwise-obstacle.json
  collidoscope query --json shapes/*.json
  collidoscope query --intersecting big.json
  collidoscope pairs --json big.json
  collidoscope explain shapes/corner-false-positive.json
  collidoscope explain shapes/clockwise-obstacle.json --pair 0 1 --naive
  collidoscope render shapes/corner-false-positive.json -o corner.png
  collidoscope check shapes/*.json
  collidoscope fixture shapes/corner-false-positive.json -o tests/corner.json --rust tests/corner.rs
  collidoscope check tests/fixtures/*.json
  collidoscope diagnose shapes/claimed-contacts.json
  collidoscope simulate shapes/bullet-and-wall.json --dt 0.1 --steps 20 --substeps bound
  collidoscope replay run.rec
  collidoscope packets --generate run.rec --latency 80 --jitter 20 --loss 0.05 -o game.log.json
  collidoscope packets game.log.json --step 25 --swept";

/// See 2D collision geometry: the separating-axis test, the MTV, closest points and contacts.
#[derive(Debug, Parser)]
#[command(name = "collidoscope", version, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A file to open in the window: a shape set; a capture (.capture.jsonl, gzip or not: the
    /// capture lab); a lesson (presenter mode); or a level (.tmx, .tmj, .tscn: imported).
    file: Option<PathBuf>,
    /// Open the window following this capture as the game writes it (plain or gzip; waits
    /// for it to begin): the newest frame shown, held at the first disagreeing claim or event.
    #[arg(long, value_name = "CAPTURE")]
    follow: Option<PathBuf>,
    /// Open the window listening on 127.0.0.1 (loopback only) for a game that streams its
    /// capture (CaptureWriter::new(ToWindow::spawn(), ...)); PORT defaults to 9713.
    #[arg(long, value_name = "PORT", num_args = 0..=1, default_missing_value = "9713")]
    listen: Option<u16>,
    /// Open the window on a link of the web app's (`...?lesson=NAME&slide=K`, `?example=NAME`,
    /// or a scene shared by Copy link, `?scene=...`): the address, or just its query.
    #[arg(long, value_name = "URL")]
    link: Option<String>,
    /// Open the window on FILE (a capture) compared with this second run of the same game (a
    /// replay, a client, another machine): drawn as ghosts over it, where the runs first part
    /// marked on the timeline (J shows it), as `collidoscope diff FILE CAPTURE` compares them.
    #[arg(long, value_name = "CAPTURE", requires = "file")]
    compare: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Report every pair of shapes (i < j) in each file.
    #[command(after_help = "\
Examples:
  collidoscope query shapes/clockwise-obstacle.json
  collidoscope query --json a.json b.json

With --json, one line per file in argument order:
  {\"file\":\"a.json\",\"pairs\":[{\"a\":0,\"b\":1,\"intersecting\":true,\"depth\":0.15,
   \"normal\":[0.707,0.707],\"distance\":0.0,\"closest\":null,\"contacts\":[[4.1,2.1]]}]}
A file that cannot be read gives {\"file\":\"...\",\"error\":\"...\"} and exit status 1.
For big files, --intersecting reports only the intersecting pairs, found through the broad
phase (a uniform grid) instead of all n^2/2 pairs.")]
    Query(query::QueryArgs),
    /// Every intersecting pair of each file, through the broad phase (a uniform grid).
    #[command(after_help = "\
Examples:
  collidoscope pairs shapes/every-pair.json
  collidoscope pairs --json big.json
  collidoscope pairs --cell 2.5 big.json

With --json, one line per file in argument order:
  {\"file\":\"big.json\",\"pairs\":[[0,4],[2,3]],\"shapes\":100000,\"candidates\":171302,
   \"cell_size\":2.1,\"seconds\":{\"load\":0.2,\"broad\":0.01,\"narrow\":0.03}}
pairs are [i, j] with i < j, each once, sorted. A file that cannot be read gives
{\"file\":\"...\",\"error\":\"...\"} and exit status 1.")]
    Pairs(pairs::PairsArgs),
    /// The whole separating-axis test of one pair: every axis, both shadows, the decision.
    #[command(after_help = "\
Examples:
  collidoscope explain shapes/corner-false-positive.json
  collidoscope explain shapes/clockwise-obstacle.json --pair 0 1 --naive
  collidoscope explain shapes/every-pair.json --pair 4 5 --json")]
    Explain(explain::ExplainArgs),
    /// A picture of the scene as the window opens on it (shapes with names, the pair's axes
    /// with both shadows, the MTV and ghost or the closest points, contacts), as SVG or PNG.
    #[command(after_help = "\
Examples:
  collidoscope render shapes/corner-false-positive.json -o corner.png
  collidoscope render shapes/every-pair.json --pair 4 5 -o pair.svg --size 1280 800
  collidoscope render shapes/corner-false-positive.json -o step5.png --size 1920 1080 \\
      --theme light --step 5 --label-axes --caption

The format follows the output's extension (.svg or .png). Without --pair, the pair is the
one the window opens on: the first intersecting pair, else the first two shapes.
--step K draws step K of step mode (axes 1 to K; the verdict at the step after the last axis).")]
    Render(render::RenderArgs),
    /// Quantities over time of a capture, a motion-lab recording or a packet log: shapes'
    /// speeds and poses, pairs' claimed and exact depths, normals, impulses and errors, with
    /// the frames of events and disagreeing claims (a log's collisions and retractions)
    /// marked, as SVG or PNG, and as CSV.
    #[command(after_help = "\
Examples:
  collidoscope plot game.capture.jsonl -o snag.png
  collidoscope plot game.capture.jsonl --shape crate --pair floor crate \\
      --what speed,vy,depth,impulse --frames 0 120 -o snag.svg --csv snag.csv
  collidoscope plot run.recording --shape ball --what speed,x -o ball.png --theme light
  collidoscope plot server.packets.json --step 16 --pair p1 p2 --what x,separation -o lag.png

Without --shape and --pair, the plot shows the pair of the capture's first event or
disagreeing claim (the run's first event), and its shapes that move; without --what,
speed and depth. A pair's exact value is dashed beside the claimed one; error is
|m - m*| + |g - g*| (the MTVs and the gaps) beside tau, dotted. --csv writes every line
as a column, every number exact, the frame's marks in the last column.

A packet log is plotted at its bucket times (frame 0: the first multiple of --step at or
after its first packet; without --step, the median time between a player's packets):
players along their tracks as the server knows them after every packet, pairs' exact
depth, separation and normal, the collisions found (--swept: between buckets too) and
those taken back marked at their times.")]
    Plot(plot::PlotArgs),
    /// A level's collision geometry as a shape set: a Tiled map (.tmx, .tmj or .json) with its
    /// tilesets and templates, or a Godot 4 text scene (.tscn) with its instanced scenes,
    /// converted from y-down pixels; with --merge, its tiles joined into chains.
    #[command(after_help = "\
Examples:
  collidoscope import maps/level1.tmx -o level1.json
  collidoscope import maps/level2.tmj -o level2.json
  collidoscope import levels/world.tscn -o world.json
  collidoscope import levels/world.tscn --scale 0.01 --skip-unsupported > world.json
  collidoscope import levels/world.tscn --merge -o world.json
  collidoscope import level.json --merge -o merged.json

Every object skipped, approximated or split gets a note on stderr. --merge replaces each
group of static polygons that touch along edges by chains along its outline (outer loops
counter-clockwise, holes clockwise, collinear pieces joined), named merged 1, merged 2, ...;
a note says how many shapes each replaced. It also takes a shape set. Exit status:
0 imported, 1 refused (one message on stderr; OUT not written), 2 wrong usage.")]
    Import(import::ImportArgs),
    /// The replay of a Box2D recording, in the child process `import` and the window start
    /// (Box2D's assertions on a damaged recording end the child, not them).
    #[command(hide = true)]
    ReplayRecording(import::ReplayArgs),
    /// Lessons: slides that teach collision geometry, each a scene in a lab with a few
    /// sentences (the lesson file is in docs/format.md, "Lessons").
    #[command(after_help = "\
Examples:
  collidoscope lesson lessons/sat-polygons.json
  collidoscope lesson --builtin circles-corner-axis
  collidoscope lesson list
  collidoscope lesson export --builtin sat-polygons -o site/sat
  collidoscope lesson export lessons/my-lesson.json -o site/mine")]
    Lesson(lesson::LessonArgs),
    /// Check files: print OK or the error for each; for a fixture, recompute every pinned
    /// result and print each field that drifted.
    #[command(after_help = "\
Examples:
  collidoscope check shapes/*.json
  collidoscope check tests/fixtures/*.json

A fixture (a file with \"expect\") is OK when every pinned field agrees within its
\"tolerance\" (default 1e-9, absolute + relative); otherwise one line per drifted field:
  a.json: pair wall / ball (0 1): depth: expected 0.25, found 0.2600000000000001
Files are checked on all cores. Exit status 1 when any file is refused or drifted.")]
    Check(check::CheckArgs),
    /// The segment from --from to --to against every shape (solid), through the broad phase.
    #[command(after_help = "\
Examples:
  collidoscope raycast shapes/every-pair.json --from -5 0.2 --to 60 0.2
  collidoscope raycast --json scene.json --from -0.5 3 --to 4 -1

One entry per shape the segment reaches, at its first contact with it, sorted by fraction
then shape: point = from + fraction * (to - from), normal the outward surface normal there.
A segment that starts inside a shape (or on its boundary) hits it at fraction 0 with no normal.
With --json, one line per file:
  {\"file\":\"...\",\"hits\":[{\"shape\":0,\"fraction\":0.25,\"point\":[1,0],\"normal\":[-1,0]}]}")]
    Raycast(raycast::RaycastArgs),
    /// The time of impact of every pair (i < j), each shape moving by its velocity and
    /// angular velocity (file version 2) over t in [0, T].
    #[command(after_help = "\
Examples:
  collidoscope toi shapes/bullet-and-wall.json
  collidoscope toi --json scene.json --horizon 0.5

Each pair is overlapped (interiors overlap at t = 0), hit (they first touch at toi; the
contact point and the normal from A toward B then) or separated (no contact up to T).
Translations are solved by Newton's method on the exact distance (convex in t), so toi is
never after the first contact and at most 1e-9 (1 + T) before it; with rotation, by
conservative advancement (never after, at most 1e-6 T before).
With --json, one line per file:
  {\"file\":\"...\",\"pairs\":[{\"a\":0,\"b\":1,\"state\":\"hit\",\"toi\":0.046,
   \"point\":[-0.1,0],\"normal\":[1,0]}]}")]
    Toi(toi::ToiArgs),
    /// Step a scene through time: move kinematic and dynamic bodies by their velocities,
    /// resolve contacts with the chosen resolver, and report what went wrong.
    #[command(after_help = simulate::after_help())]
    Simulate(simulate::SimulateArgs),
    /// Run a recording's scene again and compare every step bit for bit.
    #[command(after_help = "\
Examples:
  collidoscope simulate scene.json --dt 0.016 --steps 600 --record run.rec
  collidoscope replay run.rec

Prints \"identical\" (exit 0) or the first step and shape that differ (exit 1).")]
    Replay(simulate::ReplayArgs),
    /// A game server's packet logs, checked as packets arrive: collisions found in the past
    /// when late packets come in, and retracted when a later packet moves players apart.
    #[command(after_help = "\
Examples:
  collidoscope packets game.log.json --step 25
  collidoscope packets --json game.log.json --step 25 --swept
  collidoscope packets --generate run.rec --latency 80 --jitter 20 --loss 0.05 -o game.log.json

Each packet goes into the time it was sent; a player's pose between two packets is
interpolated (position and angle), never extrapolated. Buckets are the multiples of S (ms).
A packet re-checks only the buckets between its neighbours on its player's track: a pair that
now intersects there is a collision (detected when the packet arrived); one reported before
that no longer does is retracted. --swept also finds first contacts between two buckets that
neither bucket saw, by the time of impact along the interpolated tracks.
With --json, one line per log, each list sorted by its R, then time, then a, b:
  {\"file\":\"...\",\"step\":25,\"collisions\":[{\"a\":0,\"b\":2,\"time\":16.6,
   \"between\":[0,25],\"detected_at\":130}],\"retracted\":[{\"a\":0,\"b\":1,\"time\":50,
   \"retracted_at\":140}]}
--generate makes a log from a recording (simulate --record, or the window's motion lab): each
moving body is a player sending its pose every frame (--every N: every N frames) over a
network with the given latency, jitter (uniform, either way), loss, reordering and
duplication (probabilities), from --seed.")]
    Packets(packets::PacketsArgs),
    /// Pin the exact results of a file's pairs: write a fixture (and a Rust test for it).
    #[command(after_help = "\
Examples:
  collidoscope fixture shapes/every-pair.json -o tests/fixtures/every-pair.json
  collidoscope fixture scene.json --pair 0 3 --pair 1 2 -o tests/bug-123.json --rust tests/bug_123.rs
  collidoscope fixture game.capture.jsonl --frame 57 -o tests/fixtures/frame-57.json
  collidoscope fixture game.capture.jsonl --frame 57 -o tests/snag.json --rust tests/snag.rs --engine rapier2d
  collidoscope fixture game.capture.jsonl --event 0 -o tests/fixtures/first-event.json

OUT is a version-2 shape set: the file's shapes plus \"expect\", the results of the chosen
pairs (default: every pair) exactly as `query --json` prints them. The Rust test embeds OUT
with include_str! (from the Cargo project's root when both files are in one project, so the
test may be moved anywhere in it; else beside the test) and checks it with
collidoscope::fixture::verify: the pinned results, and each claim the fixture holds judged as
diagnose judges it (a wrong contact fails the test); it needs collidoscope as a path
dev-dependency with default-features = false (its comment gives the line). With --engine
rapier2d|rapier2d-0-35|rapier2d-0-34|box2d|avian2d the test instead rebuilds every pinned pair in that engine's narrow
phase (parry's contact manifolds as Rapier or Avian call them, Box2D's b2Collide*) and judges
the engine's answers at f32 (collidoscope::fixture::verify_engine; it needs collidoscope's
feature of the engine's name): it fails while the engine disagrees. Of a capture, --frame N pins that
frame: its shapes (named, or \"id 5\"), its claims and the capture's precision; the pairs
pinned are the frame's claimed ones, or those --pair names by id. --event N (counted from 0 in
the order diagnose lists events) writes that event's step: the first frame's shapes, each
moving one with the velocity and turn that take it to the next frame over the step's time (toi
and simulate replay the step), the pair's claim, the pair pinned.")]
    Fixture(fixture::FixtureArgs),
    /// Compare the contacts another engine claimed (a file's "claims", or every frame of a
    /// capture) with the exact ones, and name the known mistakes that reproduce them.
    #[command(after_help = diagnose::after_help())]
    Diagnose(diagnose::DiagnoseArgs),
    /// Two captures of "the same" run side by side: the first frame, shape and contact where
    /// they part, and how far they drift.
    #[command(after_help = diff::after_help())]
    Diff(diff::DiffArgs),
}

/// What `main` should do after parsing the arguments.
pub enum AfterArgs {
    /// A command ran; exit with this status.
    Exit(ExitCode),
    /// Open the window, on this file or the default scene.
    OpenWindow(Option<PathBuf>),
    /// Open the window presenting this lesson (read and checked already).
    Present(crate::lesson::LessonSource),
    /// Open the window live (following a capture as it is written, listening for a game, or
    /// both), or on a link; with a file to open first, if given.
    Live {
        /// A file to open first.
        file: Option<PathBuf>,
        /// The capture to follow.
        follow: Option<PathBuf>,
        /// The port to listen on.
        listen: Option<u16>,
        /// A link's query (from its `?`).
        link: Option<String>,
        /// A second capture to compare with the file.
        compare: Option<PathBuf>,
    },
}

/// Parse the arguments and run the command they name.
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> AfterArgs {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print and succeed; usage errors exit with 2.
            let _ = e.print();
            return AfterArgs::Exit(ExitCode::from(e.exit_code() as u8));
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let status = match cli.command {
        None if cli.follow.is_some()
            || cli.listen.is_some()
            || cli.link.is_some()
            || cli.compare.is_some() =>
        {
            // The query of an address (`https://host/page?scene=...`), or the query alone.
            let link = cli
                .link
                .map(|l| l.find('?').map_or(l.clone(), |at| l[at..].to_string()));
            return AfterArgs::Live {
                file: cli.file,
                follow: cli.follow,
                listen: cli.listen,
                link,
                compare: cli.compare,
            };
        }
        None => return AfterArgs::OpenWindow(cli.file),
        Some(Command::Query(query::QueryArgs {
            json,
            intersecting,
            files,
        })) => query::run(&files, json, intersecting, &mut out),
        Some(Command::Pairs(pairs::PairsArgs { json, cell, files })) => match cell {
            Some(c) if !(c.is_finite() && c > 0.0) => {
                eprintln!("collidoscope pairs: --cell must be a number > 0, found {c}");
                2
            }
            _ => pairs::run(&files, json, cell, &mut out),
        },
        Some(Command::Explain(explain::ExplainArgs {
            file,
            pair,
            json,
            naive,
        })) => explain::run(&file, pair.map(|p| (p[0], p[1])), json, naive, &mut out),
        Some(Command::Check(check::CheckArgs { files })) => check::run(&files, &mut out),
        Some(Command::Fixture(fixture::FixtureArgs {
            file,
            frame,
            event,
            pair,
            output,
            rust,
            engine,
        })) => fixture::run(
            &file,
            (frame, event),
            &fixture::pairs_of(&pair),
            &output,
            rust.as_deref()
                .map(|path| crate::fixture::RustTest { path, engine }),
            &mut out,
        ),
        Some(Command::Diagnose(diagnose::DiagnoseArgs {
            idle: Some(idle), ..
        })) if !(idle.is_finite() && idle >= 0.0) => {
            eprintln!("collidoscope diagnose: --idle {idle}: seconds, a number >= 0");
            2
        }
        Some(Command::Diagnose(diagnose::DiagnoseArgs {
            follow: false,
            listen: None,
            idle: Some(_),
            ..
        })) => {
            eprintln!("collidoscope diagnose: --idle goes with --follow or --listen");
            2
        }
        Some(Command::Diagnose(diagnose::DiagnoseArgs {
            json,
            listen: Some(port),
            idle,
            ..
        })) => diagnose_capture::listen(port, json, idle, &mut out),
        Some(Command::Diagnose(diagnose::DiagnoseArgs {
            json,
            follow: true,
            idle,
            files,
            ..
        })) => match files.as_slice() {
            [file] => diagnose_capture::follow(file, json, idle, &mut out),
            _ => {
                eprintln!(
                    "collidoscope diagnose: --follow reads one capture, {} given",
                    files.len()
                );
                2
            }
        },
        Some(Command::Diagnose(diagnose::DiagnoseArgs { json, files, .. })) => {
            diagnose::run(&files, json, &mut out)
        }
        Some(Command::Diff(args)) => diff::run(&args, &mut out),
        Some(Command::Raycast(raycast::RaycastArgs {
            json,
            from,
            to,
            files,
        })) => {
            let (from, to) = (
                crate::geometry::DVec2::new(from[0], from[1]),
                crate::geometry::DVec2::new(to[0], to[1]),
            );
            if from.is_finite() && to.is_finite() {
                raycast::run(&files, json, from, to, &mut out)
            } else {
                eprintln!("collidoscope raycast: --from and --to must be finite numbers");
                2
            }
        }
        Some(Command::Toi(toi::ToiArgs {
            json,
            horizon,
            files,
        })) => match horizon.unwrap_or(1.0) {
            t if t.is_finite() && t >= 0.0 => toi::run(&files, json, t, &mut out),
            t => {
                eprintln!("collidoscope toi: --horizon must be a number >= 0, found {t}");
                2
            }
        },
        Some(Command::Simulate(simulate::SimulateArgs {
            json,
            dt,
            steps,
            resolver,
            substeps,
            ccd,
            record,
            file,
        })) => match simulate_config(dt, &resolver, &substeps, ccd) {
            Ok(config) => simulate::run(&file, config, steps, record.as_deref(), json, &mut out),
            Err(e) => {
                eprintln!("collidoscope simulate: {e}");
                2
            }
        },
        Some(Command::Replay(simulate::ReplayArgs { file })) => {
            simulate::run_replay(&file, &mut out)
        }
        Some(Command::Packets(packets::PacketsArgs {
            json,
            step,
            swept,
            generate,
            latency,
            jitter,
            loss,
            reorder,
            duplicate,
            every,
            seed,
            output,
            logs,
        })) => match generate {
            Some(recording) => {
                let network = crate::latency::Network {
                    latency_ms: latency,
                    jitter_ms: jitter,
                    loss,
                    reorder,
                    duplicate,
                    every,
                    seed,
                };
                match (check_network(&network), output, logs.is_empty()) {
                    (Err(e), ..) => {
                        eprintln!("collidoscope packets: {e}");
                        2
                    }
                    (Ok(()), Some(output), true) => {
                        packets::run_generate(&recording, &network, &output, &mut out)
                    }
                    (Ok(()), None, _) => {
                        eprintln!(
                            "collidoscope packets: --generate needs -o LOG, the log to write"
                        );
                        2
                    }
                    (Ok(()), Some(_), false) => {
                        eprintln!(
                            "collidoscope packets: --generate makes a log; check it in a second command"
                        );
                        2
                    }
                }
            }
            None => match (step, logs.is_empty()) {
                (_, true) => {
                    eprintln!(
                        "collidoscope packets: give a packet log to check (or --generate RECORDING -o LOG)"
                    );
                    2
                }
                (None, _) => {
                    eprintln!("collidoscope packets: --step S is required: the bucket step in ms");
                    2
                }
                (Some(s), _) if !(s.is_finite() && s > 0.0) => {
                    eprintln!("collidoscope packets: --step must be a number > 0 (ms), found {s}");
                    2
                }
                (Some(step), false) => packets::run(
                    &logs,
                    crate::latency::Settings {
                        step_ms: step,
                        swept,
                    },
                    json,
                    &mut out,
                ),
            },
        },
        Some(Command::Import(args)) => import::run(&args, &mut out),
        Some(Command::ReplayRecording(args)) => import::run_replay(&args, &mut out),
        Some(Command::Lesson(args)) => match &args.command {
            Some(command) => lesson::run(command, &mut out),
            None => match lesson::to_present(&args) {
                Ok(source) => return AfterArgs::Present(source),
                Err(status) => status,
            },
        },
        Some(Command::Render(args)) => render::run(&args),
        Some(Command::Plot(args)) => plot::run(&args),
    };
    // A closed pipe (`| head`) is not an error worth a message.
    let _ = out.flush();
    AfterArgs::Exit(ExitCode::from(status))
}

/// The configuration `simulate`'s options give.
fn simulate_config(
    dt: f64,
    resolver: &str,
    substeps: &str,
    ccd: bool,
) -> Result<crate::motion::Config, crate::motion::ConfigError> {
    Ok(crate::motion::Config {
        resolver: crate::motion::Resolver::from_name(resolver)?,
        substeps: crate::motion::Substeps::parse(substeps)?,
        ccd,
        ..crate::motion::Config::new(dt)?
    })
}

/// `packets --generate`'s network: latencies finite and >= 0, chances in [0, 1], N >= 1.
fn check_network(n: &crate::latency::Network) -> Result<(), String> {
    for (name, x) in [("--latency", n.latency_ms), ("--jitter", n.jitter_ms)] {
        if !(x.is_finite() && x >= 0.0) {
            return Err(format!("{name} must be a number of ms >= 0, found {x}"));
        }
    }
    for (name, p) in [
        ("--loss", n.loss),
        ("--reorder", n.reorder),
        ("--duplicate", n.duplicate),
    ] {
        if !(0.0..=1.0).contains(&p) {
            return Err(format!("{name} must be a chance from 0 to 1, found {p}"));
        }
    }
    if n.every == 0 {
        return Err("--every must be at least 1".into());
    }
    Ok(())
}

/// `--pair I J` checked against a scene of `n` shapes: two different indices below `n`.
fn check_pair((i, j): (usize, usize), n: usize) -> Result<(usize, usize), String> {
    if i >= n || j >= n || i == j {
        return Err(format!(
            "--pair {i} {j}: give two different shape indices below {n}"
        ));
    }
    Ok((i, j))
}

/// Print `value` as one JSON line.
fn print_json_line(value: &impl serde::Serialize, out: &mut impl Write) {
    let _ = writeln!(
        out,
        "{}",
        serde_json::to_string(value).expect("serialisable")
    );
}

/// Load each file and `answer` it (its name, its scene, where to print); a file that cannot be
/// read is reported as [`report_unreadable`] does. Returns 1 when any file is refused.
fn each_scene<W: Write>(
    files: &[PathBuf],
    json: bool,
    out: &mut W,
    mut answer: impl FnMut(&str, crate::scene::Scene, &mut W),
) -> u8 {
    let mut status = 0;
    for path in files {
        let name = path.to_string_lossy();
        match crate::scene::load(path) {
            Ok(scene) => answer(&name, scene, out),
            Err(e) => {
                status = 1;
                report_unreadable(&name, &e, json, out);
            }
        }
    }
    status
}

/// A file that could not be read: its message on stderr, and with `json` the line
/// `{"file": "...", "error": "..."}` on `out`.
fn report_unreadable(file: &str, error: &impl std::fmt::Display, json: bool, out: &mut impl Write) {
    #[derive(serde::Serialize)]
    struct ErrorLine<'a> {
        file: &'a str,
        error: String,
    }
    eprintln!("{error}");
    if json {
        print_json_line(
            &ErrorLine {
                file,
                error: error.to_string(),
            },
            out,
        );
    }
}

/// Print `rows` as left-aligned columns two spaces apart, each line after `indent`.
fn print_columns<const N: usize>(rows: &[[String; N]], indent: &str, out: &mut impl Write) {
    let widths: Vec<usize> = (0..N)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        let _ = writeln!(out, "{indent}{}", cells.join("  ").trim_end());
    }
}

/// The usage text, for `collidoscope` with no arguments in a build without the window.
pub fn print_help() {
    use clap::CommandFactory;
    let _ = Cli::command().print_help();
}
