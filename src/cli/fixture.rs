//! `collidoscope fixture FILE [--pair I J]... -o OUT [--rust TEST.rs [--engine NAME]]`: pin
//! the exact results of a file's pairs, and optionally write the Rust test that checks them
//! (or asks the engine again).

use crate::fixture;
use crate::scene;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

/// Write the fixture (and the test); 1 when the file cannot be read or a file cannot be
/// written, 2 for a pair that is not in the file.
pub fn run(
    file: &Path,
    (frame, event): (Option<u64>, Option<usize>),
    pairs: &[(usize, usize)],
    output: &Path,
    rust: Option<fixture::RustTest>,
    out: &mut impl Write,
) -> u8 {
    if let Some(n) = event {
        if let Some(what) = crate::capture::not_a_capture(file) {
            return not_a_capture(&format!("--event {n}"), file, &what);
        }
        return run_on_event(file, n, output, rust, out);
    }
    if crate::capture::is_capture(file) {
        return run_on_frame(file, frame, pairs, output, rust, out);
    }
    if let Some(frame) = frame {
        let what = crate::capture::not_a_capture(file);
        // Read as a capture it may still be one now (a game writing its header meanwhile).
        let Some(what) = what else {
            return run_on_frame(file, Some(frame), pairs, output, rust, out);
        };
        return not_a_capture(&format!("--frame {frame}"), file, &what);
    }
    let scene = match scene::load(file) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let n = scene.shapes.len();
    if let Some((i, j)) = pairs.iter().find(|(i, j)| i == j || *i >= n || *j >= n) {
        let why = if i == j {
            "a pair needs two different shapes".to_string()
        } else {
            format!(
                "{} has {n} shape{}",
                file.display(),
                if n == 1 { "" } else { "s" }
            )
        };
        eprintln!("collidoscope fixture: --pair {i} {j}: {why}");
        return 2;
    }
    let chosen = (!pairs.is_empty()).then_some(pairs);
    export(&scene, chosen, output, rust, out)
}

/// Say what `file`, given with `flag` (`--frame 3`), is instead of a capture: 1 when it
/// cannot be read (missing, a directory, empty), 2 when it is another kind of file.
fn not_a_capture(flag: &str, file: &Path, what: &crate::capture::NotACapture) -> u8 {
    eprintln!(
        "collidoscope fixture: {flag}: {}",
        crate::capture::words::not_a_capture(file, what)
    );
    if what.unreadable() { 1 } else { 2 }
}

/// Write the fixture of `scene` (and the test) and say what was written; 1 when a file
/// cannot be written.
fn export(
    scene: &scene::Scene,
    pairs: Option<&[(usize, usize)]>,
    output: &Path,
    rust: Option<fixture::RustTest>,
    out: &mut impl Write,
) -> u8 {
    match fixture::export(scene, pairs, output, rust) {
        Ok(written) => {
            for line in written {
                let _ = writeln!(out, "{line}");
            }
            0
        }
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// A fixture of one frame of a capture: its shapes at that frame, its claims, the capture's
/// precision, pinning the frame's claimed pairs (or the `--pair` ids given).
fn run_on_frame(
    file: &Path,
    frame: Option<u64>,
    pairs: &[(usize, usize)],
    output: &Path,
    rust: Option<fixture::RustTest>,
    out: &mut impl Write,
) -> u8 {
    let Some(wanted) = frame else {
        eprintln!(
            "collidoscope fixture: {} is a capture: say which frame (--frame N)",
            file.display()
        );
        return 2;
    };
    let mut reader = match crate::capture::CaptureReader::open(file) {
        Ok(reader) => reader,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let rust = rust.map(|r| engine_of_capture(r, reader.header()));
    let mut range: Option<(u64, u64)> = None;
    let found = loop {
        match reader.next_frame() {
            Ok(Some(f)) if f.frame == wanted => break f,
            Ok(Some(f)) => range = Some((range.map_or(f.frame, |r| r.0), f.frame)),
            Ok(None) => {
                let has = match range {
                    Some((first, last)) => format!("frames {first} to {last}"),
                    None => "no frames".into(),
                };
                eprintln!(
                    "collidoscope fixture: --frame {wanted}: {} has {has}",
                    file.display()
                );
                return 2;
            }
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        }
    };
    let (scene, ids) = reader.scene(&found);
    let index = |id: usize| ids.iter().position(|i| *i as usize == id);
    let chosen: Vec<(usize, usize)> = if pairs.is_empty() {
        scene
            .claims
            .iter()
            .filter_map(|c| scene.pair_of(c.a, c.b))
            .collect()
    } else {
        let mut chosen = Vec::new();
        for &(a, b) in pairs {
            match (index(a), index(b)) {
                (Some(i), Some(j)) if i != j => chosen.push((i, j)),
                _ => {
                    eprintln!(
                        "collidoscope fixture: --pair {a} {b}: give two different ids of frame {wanted}"
                    );
                    return 2;
                }
            }
        }
        chosen
    };
    export(&scene, Some(&chosen), output, rust, out)
}

/// A fixture that reproduces event `n` of a capture: the shapes of its step's first frame, each
/// moving one with the velocity (and turn) that takes it to its pose in the next frame over the
/// step's time, the pair's claim, the pair pinned.
fn run_on_event(
    file: &Path,
    n: usize,
    output: &Path,
    rust: Option<fixture::RustTest>,
    out: &mut impl Write,
) -> u8 {
    use crate::capture::{CaptureReader, EventFinder, judge_frame};
    let open = || CaptureReader::open(file);
    // First pass: find the event.
    let mut reader = match open() {
        Ok(reader) => reader,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let rust = rust.map(|r| engine_of_capture(r, reader.header()));
    let mut finder = EventFinder::for_capture(reader.header());
    let mut seen = 0usize;
    let mut found = None;
    let mut ended = false;
    while found.is_none() && !ended {
        let events = match reader.next_frame() {
            Ok(Some(frame)) => {
                let judged = judge_frame(&reader, &frame);
                finder.frame(&reader, &frame, &judged)
            }
            Ok(None) => {
                ended = true;
                finder.finish()
            }
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        };
        for e in events {
            if seen == n {
                found = Some(e);
            }
            seen += 1;
        }
    }
    let Some(event) = found else {
        eprintln!(
            "collidoscope fixture: --event {n}: {} has {seen} event{}",
            file.display(),
            if seen == 1 { "" } else { "s" }
        );
        return 2;
    };
    // Second pass: the step's two frames.
    let mut reader = match open() {
        Ok(reader) => reader,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let (mut scene, ids, time) = loop {
        match reader.next_frame() {
            Ok(Some(f)) if f.frame == event.frame() => {
                let (scene, ids) = reader.scene(&f);
                break (scene, ids, f.time);
            }
            Ok(Some(_)) => {}
            Ok(None) => return 2,
            Err(e) => {
                eprintln!("{e}");
                return 1;
            }
        }
    };
    if let Ok(Some(next)) = reader.next_frame() {
        let dt = next.time - time;
        for (shape, id) in scene.shapes.iter_mut().zip(&ids) {
            let Some(now) = reader.shape(*id) else {
                continue;
            };
            if shape.motion.body == crate::scene::Body::Static || dt <= 0.0 {
                continue;
            }
            let (p0, p1) = (shape.placed.pose, now.placed.pose);
            shape.motion.velocity = (p1.position - p0.position) / dt;
            shape.motion.angular_velocity =
                crate::capture::analysis::events::shortest_turn(p0.angle(), p1.angle()) / dt;
        }
    }
    let index = |id: u64| ids.iter().position(|i| *i == id);
    let (Some(i), Some(j)) = (index(event.a), index(event.b)) else {
        return 2;
    };
    let (a, b) = (scene.shapes[i].id, scene.shapes[j].id);
    scene
        .claims
        .retain(|c| (c.a, c.b) == (a, b) || (c.a, c.b) == (b, a));
    let _ = writeln!(
        out,
        "event {n}: {}",
        crate::capture::words::capture_event(&event, None)
    );
    export(&scene, Some(&[(i, j)]), output, rust, out)
}

/// `--pair I J` values, flattened by the parser, back into pairs.
pub fn pairs_of(values: &[usize]) -> Vec<(usize, usize)> {
    values.chunks_exact(2).map(|p| (p[0], p[1])).collect()
}

/// The options of `collidoscope fixture`.
#[derive(Debug, clap::Args)]
pub struct FixtureArgs {
    /// A shape-set file, or a capture (with --frame).
    pub file: PathBuf,
    /// For a capture: the frame to pin (its shapes, claims and claimed pairs).
    #[arg(long, value_name = "N", conflicts_with = "event")]
    pub frame: Option<u64>,
    /// For a capture: the event to reproduce (counted from 0 in the order `diagnose` lists
    /// them): its step's two frames as one shape set, each moving shape at the first frame
    /// with the velocity that takes it to the second, and the pair's claim.
    #[arg(long, value_name = "N")]
    pub event: Option<usize>,
    /// A pair to pin (repeatable; default: every pair, or a capture frame's claimed pairs;
    /// for a capture, shape ids).
    #[arg(long, num_args = 2, value_names = ["I", "J"], action = clap::ArgAction::Append)]
    pub pair: Vec<usize>,
    /// The fixture to write.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Also write a Rust #[test] that checks the fixture.
    #[arg(long, value_name = "TEST.rs")]
    pub rust: Option<PathBuf>,
    /// With --rust: the test rebuilds every pinned pair in this engine's narrow phase and
    /// judges its answers at f32 (it needs collidoscope's feature of the same name: rapier2d
    /// for Rapier 0.36, rapier2d-0-35, rapier2d-0-34, box2d, avian2d). Without it, the test
    /// judges the fixture's own claims.
    #[arg(long, value_name = "ENGINE", requires = "rust", value_parser = engine_name)]
    pub engine: Option<fixture::TestEngine>,
}

/// `--engine`'s value: `rapier2d` (0.36), `rapier2d-0-35`, `rapier2d-0-34`, `box2d` or
/// `avian2d`: the collidoscope feature the test needs.
fn engine_name(name: &str) -> Result<fixture::TestEngine, String> {
    fixture::TestEngine::named(name).ok_or_else(|| {
        let names: Vec<&str> = fixture::TestEngine::ALL.iter().map(|e| e.name()).collect();
        format!("expected one of {}", names.join(", "))
    })
}

/// `--engine` for a fixture of a capture: a Rapier capture's test asks the Rapier version its
/// header names (the feature of that version), said in a note when it differs from the one
/// given; an engine other than the capture's is said in a note and kept.
fn engine_of_capture<'a>(
    rust: fixture::RustTest<'a>,
    header: &crate::capture::Header,
) -> fixture::RustTest<'a> {
    let (Some(asked), Some(made)) = (
        rust.engine,
        fixture::TestEngine::of_capture(&header.engine.name, &header.engine.version),
    ) else {
        return rust;
    };
    let by = format!("{} {}", header.engine.name, header.engine.version);
    if asked == made {
        rust
    } else if asked.is_rapier() && made.is_rapier() {
        eprintln!(
            "note: the capture was made by {by}: the test asks it through collidoscope's feature {} (not {})",
            made.name(),
            asked.name()
        );
        fixture::RustTest {
            engine: Some(made),
            ..rust
        }
    } else {
        eprintln!(
            "note: the capture was made by {by}, and the test asks {} (--engine {}): it judges that engine's answers, not the capture's",
            asked.name(),
            asked.name()
        );
        rust
    }
}
