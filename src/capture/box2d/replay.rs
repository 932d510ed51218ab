//! Box2D's own recordings (`.b2rec`, written by `b2World_StartRecording` and
//! `b2SaveRecordingToFile`) replayed by Box2D itself (`b2RecPlayer`) and written as a capture:
//! a C or C++ game needs only Box2D's recording calls.
//!
//! The player opens a recording at its snapshot (the world when recording began), and each
//! `b2RecPlayer_StepFrame` runs one recorded `b2World_Step` and then the calls the game made
//! up to its next step (the first also runs those made before the first step). So the world the player holds
//! between two frames is the world just before a step, as [`Box2dCapture::before_step`] reads
//! it, and the contacts read after the frame are the step's. The world before the first step
//! (after the calls that preceded it: making the world's bodies, when the recording began
//! first) is read from a second player given the recording up to that step, so every recorded
//! step is a frame, from frame 0. Every shape the world's broad phase holds is read (found by an
//! overlap query over the whole world with every category and mask bit set, so filters hide
//! none). Bodies are named as the game named them (`b2Body_SetName`, which the recording
//! keeps); contact recycling is as the game had it.
//!
//! Box2D refuses a recording of another recording format; the header is checked first, so the
//! message can say which version the file is and which this build replays.
//!
//! Box2D's player checks what it reads (boxdd-sys hardens it against damaged files), but the
//! calls a recording replays reach Box2D's own assertions, which stop the process (a damaged
//! recording can create a polygon of no corners). So the command line and the window replay
//! in a child process ([`replay_in_child`], running `collidoscope replay-recording`): a
//! recording Box2D stops on is refused with Box2D's words, and nothing else is lost.

use super::{Box2dCapture, header_with};
use boxdd_sys::adapter::boxddRecPlayer_IsHealthy;
use boxdd_sys::ffi::*;
use collidoscope::capture::{CaptureError, CaptureWriter, NormalFrom, Penetration};
use std::io::Write;
use std::path::Path;

/// The recording format this build's Box2D replays (`B2_REC_VERSION_MAJOR.MINOR` in Box2D's
/// `recording.h`).
pub const RECORDING_VERSION: (u16, u16) = (3, 2);

/// `B2RC` read as a little-endian `u32`: a recording's first four bytes.
const MAGIC: u32 = 0x4352_3242;

/// What a replay wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The recorded steps replayed, one frame each (frames 0 to `frames - 1`; frame 0 is the
    /// world as the first step found it, also when the recording began before the game made
    /// its world).
    pub frames: u64,
    /// The recorded step's length, in seconds.
    pub dt: f64,
    /// The recorded sub-step count.
    pub substeps: i32,
    /// The first frame at which Box2D's replay stopped reproducing the state hashes the
    /// recording holds (the replay then shows what Box2D computes, not what the game saw).
    pub diverged_at: Option<u64>,
}

/// Why a recording cannot be replayed, said for the user.
fn refused(why: impl Into<String>) -> CaptureError {
    CaptureError::Recording(why.into())
}

/// Whether `bytes` start as a Box2D recording does (`B2RC`).
pub fn is_recording(bytes: &[u8]) -> bool {
    bytes.get(..4) == Some(&MAGIC.to_le_bytes()[..])
}

/// Check a recording's 32-byte header: its magic, its format version, pointer width and byte
/// order, as Box2D's reader does, but saying which version the file is.
pub fn check_header(bytes: &[u8]) -> Result<(), CaptureError> {
    if !is_recording(bytes) {
        return Err(refused(
            "it is not a Box2D recording: a .b2rec file starts with the bytes B2RC \
             (b2World_StartRecording and b2SaveRecordingToFile write one)",
        ));
    }
    if bytes.len() < 32 {
        return Err(refused(format!(
            "it ends inside its 32-byte header ({} bytes)",
            bytes.len()
        )));
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let version = (u16_at(4), u16_at(6));
    if version != RECORDING_VERSION {
        let (major, minor) = RECORDING_VERSION;
        return Err(refused(format!(
            "it is in Box2D's recording format {}.{}, and this build replays format \
             {major}.{minor} (Box2D {}, through boxdd-sys): replay it with the Box2D that \
             recorded it, or record it again with this one",
            version.0,
            version.1,
            box2d_version()
        )));
    }
    let (pointer_width, big_endian) = (bytes[17], bytes[18]);
    if usize::from(pointer_width) != size_of::<usize>() || big_endian != 0 {
        return Err(refused(format!(
            "it was recorded on a {}-bit {} machine, and Box2D replays a recording only where \
             pointers are as wide and bytes in the same order ({}-bit little-endian here)",
            u32::from(pointer_width) * 8,
            if big_endian != 0 {
                "big-endian"
            } else {
                "little-endian"
            },
            usize::BITS
        )));
    }
    check_steps(bytes)
}

/// The most sub-steps a recorded step may ask for: Box2D's documentation recommends 4, and a
/// damaged recording asking for millions would keep the replay busy for hours.
pub const MAX_SUBSTEPS: i32 = 1024;

/// Walk the recording's records (after the header and the world's snapshot: an opcode, a
/// 24-bit payload size, the payload) and check every `Step` (opcode 0x80: world, `dt`,
/// sub-step count) before Box2D runs it: a finite `dt` of at least 0 and 1 to
/// [`MAX_SUBSTEPS`] sub-steps. A walk that runs off the end stops there: Box2D's reader judges
/// the rest.
fn check_steps(bytes: &[u8]) -> Result<(), CaptureError> {
    let mut step = 0u64;
    for (at, opcode, payload) in records(bytes) {
        if opcode == STEP
            && let Some(args) = payload.get(..12)
        {
            let dt = f32::from_le_bytes(args[4..8].try_into().expect("4 bytes"));
            let substeps = i32::from_le_bytes(args[8..12].try_into().expect("4 bytes"));
            if !(dt.is_finite() && dt >= 0.0) {
                return Err(refused(format!(
                    "its step {step} (byte {at}) has the time step {dt}: damaged"
                )));
            }
            if !(1..=MAX_SUBSTEPS).contains(&substeps) {
                return Err(refused(format!(
                    "its step {step} (byte {at}) asks Box2D for {substeps} sub-steps, and \
                     collidoscope replays 1 to {MAX_SUBSTEPS} a step: damaged, or a world to \
                     replay in Box2D's own sample"
                )));
            }
            step += 1;
        }
    }
    Ok(())
}

/// The opcode of a recorded `b2World_Step`.
const STEP: u8 = 0x80;

/// A recording's records after its 32-byte header and the world's snapshot (whose size the
/// header's bytes 24 to 32 hold), in order: each one's byte offset, opcode and payload (cut
/// where the file ends). The walk stops where a record's 4 bytes run off the end.
fn records(bytes: &[u8]) -> impl Iterator<Item = (usize, u8, &[u8])> {
    let snapshot = bytes.get(24..32).map_or(u64::MAX, |b| {
        u64::from_le_bytes(b.try_into().expect("8 bytes"))
    });
    let mut at = 32usize.saturating_add(usize::try_from(snapshot).unwrap_or(usize::MAX));
    std::iter::from_fn(move || {
        let record = bytes.get(at..at.saturating_add(4))?;
        let size =
            usize::from(record[1]) | usize::from(record[2]) << 8 | usize::from(record[3]) << 16;
        let payload = at + 4;
        let end = payload.saturating_add(size).min(bytes.len());
        let found = (at, record[0], &bytes[payload..end]);
        at = payload.saturating_add(size);
        Some(found)
    })
}

/// Where the recording's first step starts (its length when it holds none): what comes
/// before it is the world's snapshot and the calls the game made before that step.
fn first_step_at(bytes: &[u8]) -> usize {
    records(bytes)
        .find(|(_, opcode, _)| *opcode == STEP)
        .map_or(bytes.len(), |(at, _, _)| at)
}

/// The linked Box2D's version, `3.2.0`.
fn box2d_version() -> String {
    // SAFETY: b2GetVersion reads constants.
    let v = unsafe { b2GetVersion() };
    format!("{}.{}.{}", v.major, v.minor, v.revision)
}

/// A recording player, destroyed when dropped.
struct Player(*mut b2RecPlayer);

impl Drop for Player {
    fn drop(&mut self) {
        // SAFETY: made by b2RecPlayer_Create, destroyed once.
        unsafe { b2RecPlayer_Destroy(self.0) }
    }
}

/// Replay the recording `bytes` with Box2D and write what each step computed to `out` as a
/// capture (gzip when `compressed`). `progress` is called after each frame with the frames
/// written and the recording's frame count.
pub fn replay<W: Write>(
    bytes: &[u8],
    out: W,
    compressed: bool,
    mut progress: impl FnMut(u64, u64),
) -> Result<(Replayed, W), CaptureError> {
    check_header(bytes)?;
    let size = i32::try_from(bytes.len())
        .map_err(|_| refused("it is 2 GiB or more: Box2D's player reads at most 2 GiB"))?;
    // SAFETY: the player copies `bytes`; a malformed recording gives NULL.
    let player = unsafe { b2RecPlayer_Create(bytes.as_ptr().cast(), size, 0) };
    if player.is_null() {
        return Err(refused(
            "Box2D's player could not open it: the recording is cut short or damaged",
        ));
    }
    let player = Player(player);
    // SAFETY: a live player.
    let info = unsafe { b2RecPlayer_GetInfo(player.0) };
    let dt = f64::from(info.timeStep);
    let total = u64::try_from(info.frameCount).unwrap_or(0);
    let header = header_with(info.subStepCount, dt, "recording");
    let writer = CaptureWriter::with_gzip(
        out,
        &header,
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
        compressed,
    )?;
    let mut capture = Box2dCapture::new(writer);
    let mut bodies = Vec::new();
    // Frame 0's shapes: the world as the first step found it. The player opens a recording at
    // its snapshot, and its first frame runs the calls the game made before the first step
    // (making the world, when the recording began first) with that step; so that world is read
    // from a second player given the recording up to its first step.
    let before_first = &bytes[..first_step_at(bytes)];
    // SAFETY: as above, for the recording's first part (its header and snapshot unchanged).
    let first =
        unsafe { b2RecPlayer_Create(before_first.as_ptr().cast(), before_first.len() as i32, 0) };
    if first.is_null() {
        return Err(refused(
            "Box2D's player could not open it: the recording is cut short or damaged",
        ));
    }
    let first = Player(first);
    // SAFETY: a live player: it runs every call before the first step and stops there.
    unsafe { b2RecPlayer_StepFrame(first.0) };
    // SAFETY: a live player.
    if !unsafe { boxddRecPlayer_IsHealthy(first.0) } {
        return Err(refused(
            "Box2D's player stopped reading it before its first step: the recording is cut \
             short or damaged there",
        ));
    }
    // SAFETY: a live player; its world lives as long as it does.
    world_bodies(unsafe { b2RecPlayer_GetWorldId(first.0) }, &mut bodies);
    capture.before_step(&bodies)?;
    drop(first);
    // SAFETY: a live player; its world lives as long as it does.
    let world = unsafe { b2RecPlayer_GetWorldId(player.0) };
    let mut frames = 0;
    loop {
        // SAFETY: a live player.
        let stepped = unsafe { b2RecPlayer_StepFrame(player.0) };
        // SAFETY: boxdd-sys's check of the player's reader (false once a read failed).
        if !unsafe { boxddRecPlayer_IsHealthy(player.0) } {
            return Err(refused(format!(
                "Box2D's player stopped reading it after {frames} frame(s): the recording is \
                 cut short or damaged there"
            )));
        }
        if !stepped {
            break;
        }
        // The world now holds the step's contacts, and is as the next step will find it.
        world_bodies(world, &mut bodies);
        capture.after_step(frames as f64 * dt, &bodies)?;
        frames += 1;
        progress(frames, total);
        capture.before_step(&bodies)?;
    }
    // SAFETY: a live player.
    let diverged = unsafe { b2RecPlayer_GetDivergeFrame(player.0) };
    let out = capture.finish()?;
    Ok((
        Replayed {
            frames,
            dt,
            substeps: info.subStepCount,
            diverged_at: u64::try_from(diverged).ok(),
        },
        out,
    ))
}

/// Replay the recording at `recording` into the capture file `capture` (gzip when its name
/// ends in `.gz`), written atomically: what `collidoscope import game.b2rec -o
/// game.capture.jsonl.gz` and the window's Open do. The error names the recording.
pub fn replay_file(
    recording: &Path,
    capture: &Path,
    progress: impl FnMut(u64, u64),
) -> Result<Replayed, String> {
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", recording.display());
    let bytes = std::fs::read(recording).map_err(|e| named(&format!("cannot read it: {e}")))?;
    let compressed = capture.extension().is_some_and(|e| e == "gz");
    let mut replayed = None;
    collidoscope::files::write_atomically_with(capture, |file| {
        let (r, buffered) = replay(&bytes, std::io::BufWriter::new(file), compressed, progress)?;
        buffered.into_inner().map_err(|e| e.into_error())?;
        replayed = Some(r);
        Ok::<(), CaptureError>(())
    })
    .map_err(|e| named(&e))?;
    replayed.ok_or_else(|| named(&"nothing was replayed"))
}

/// The exit status of `collidoscope replay-recording` when one of Box2D's assertions stopped
/// it (see [`stop_on_assertion`]).
pub const ASSERTION_EXIT: i32 = 3;

/// Make Box2D's assertions end the process with [`ASSERTION_EXIT`] after saying which one
/// failed (Box2D's default traps, which a shell reports as a crash): for the child process
/// that replays a recording.
pub fn stop_on_assertion() {
    unsafe extern "C" fn stop(
        condition: *const std::ffi::c_char,
        file: *const std::ffi::c_char,
        line: std::ffi::c_int,
    ) -> std::ffi::c_int {
        // SAFETY: Box2D passes its assertion's text and file name, NUL-terminated.
        let (condition, file) = unsafe {
            (
                std::ffi::CStr::from_ptr(condition).to_string_lossy(),
                std::ffi::CStr::from_ptr(file).to_string_lossy(),
            )
        };
        let file = file.rsplit('/').next().unwrap_or_default();
        eprintln!("Box2D's assertion {condition} failed ({file}, line {line})");
        std::process::exit(ASSERTION_EXIT)
    }
    // SAFETY: sets Box2D's global assertion handler to a function that never returns.
    unsafe { b2SetAssertFcn(Some(stop)) }
}

/// Replay `recording` in a child process (`exe replay-recording --progress RECORDING
/// [CAPTURE]`, `exe` being the collidoscope binary), into `capture` or, without one, onto this
/// process's standard output. `progress` gets the frames done and the recording's count as
/// the child reports them. `Ok`: what the child said of the replay; `Err`: why it was refused,
/// naming the recording, with Box2D's words when one of its assertions stopped the replay (a
/// half-written capture is removed).
pub fn replay_in_child(
    exe: &Path,
    recording: &Path,
    capture: Option<&Path>,
    mut progress: impl FnMut(u64, u64),
) -> Result<String, String> {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", recording.display());
    let mut command = Command::new(exe);
    command
        .args(["replay-recording", "--progress"])
        .arg(recording)
        .args(capture)
        .stdin(Stdio::null())
        .stdout(if capture.is_some() {
            Stdio::null()
        } else {
            Stdio::inherit()
        })
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .map_err(|e| named(&format!("cannot start {} to replay it: {e}", exe.display())))?;
    let mut said = Vec::new();
    if let Some(stderr) = child.stderr.take() {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let mut words = line.split(' ');
            match (words.next(), words.next(), words.next(), words.next()) {
                (Some("progress"), Some(k), Some(n), None) => {
                    if let (Ok(k), Ok(n)) = (k.parse(), n.parse()) {
                        progress(k, n);
                    }
                }
                _ => said.push(line),
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| named(&format!("the replay could not be waited for: {e}")))?;
    let words = said.join("\n");
    match status.code() {
        Some(0) => Ok(words),
        Some(1) | Some(2) => Err(words),
        other => {
            if let Some(capture) = capture {
                remove_unfinished(capture, child.id());
            }
            let why = match other {
                Some(ASSERTION_EXIT) => said.last().cloned().unwrap_or_default(),
                _ => format!("the replay ended with {status}"),
            };
            Err(named(&format!(
                "Box2D stopped while replaying it ({why}): the recording is damaged, or calls \
                 Box2D refuses"
            )))
        }
    }
}

/// Remove what a child process `pid` left half-written beside `capture` (the temporary file
/// `files::write_atomically_with` writes, `.NAME.PID-K.tmp`).
fn remove_unfinished(capture: &Path, pid: u32) {
    let Some(name) = capture
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
    else {
        return;
    };
    let folder = match capture.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let start = format!(".{name}.{pid}-");
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if file.starts_with(&start) && file.ends_with(".tmp") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Every body of `world` with a shape in its broad phase, each once, by id.
fn world_bodies(world: b2WorldId, bodies: &mut Vec<b2BodyId>) {
    unsafe extern "C" fn found(shape: b2ShapeId, context: *mut std::ffi::c_void) -> bool {
        // SAFETY: the context is the Vec passed below, alive for the query; the id is live.
        let (bodies, body) = unsafe {
            (
                &mut *context.cast::<Vec<b2BodyId>>(),
                b2Shape_GetBody(shape),
            )
        };
        bodies.push(body);
        true
    }
    bodies.clear();
    let everything = b2AABB {
        lowerBound: b2Vec2 {
            x: -f32::MAX / 4.0,
            y: -f32::MAX / 4.0,
        },
        upperBound: b2Vec2 {
            x: f32::MAX / 4.0,
            y: f32::MAX / 4.0,
        },
    };
    let all = b2QueryFilter {
        categoryBits: u64::MAX,
        maskBits: u64::MAX,
    };
    // SAFETY: the world is live and not stepping; the callback gets `bodies` as its context.
    unsafe {
        b2World_OverlapAABB(
            world,
            b2Vec2 { x: 0.0, y: 0.0 },
            everything,
            all,
            Some(found),
            (bodies as *mut Vec<b2BodyId>).cast(),
        );
    }
    // Each body once, in the order of their ids (the order the game made them in).
    bodies.sort_by_key(|b| (b.index1, b.generation));
    bodies.dedup_by_key(|b| (b.index1, b.generation));
}
