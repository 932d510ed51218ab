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
//! Every record is checked before Box2D runs one, read as Box2D's player will read it
//! (argument by argument, not by the size the record gives): whole, of a kind a call records,
//! the size it gives, steps of 1 to [`MAX_SUBSTEPS`] sub-steps, polygons of at most 8 corners;
//! a damaged one is refused naming its byte, the call and the field.
//!
//! Box2D's player checks what it reads (boxdd-sys hardens it against damaged files), but the
//! calls a recording replays reach Box2D's own assertions, which stop the process (a damaged
//! recording can create a polygon of no corners). So the command line and the window replay
//! in a child process ([`replay_in_child`], running `collidoscope replay-recording`): a
//! recording Box2D stops on is refused with Box2D's words, and nothing else is lost. The child
//! is given a deadline ([`Deadline::for_steps`]: a minute, and 50 ms a recorded step), and is
//! killed past it, with a message; whatever ends it, the capture it began is removed.

use super::layout::*;
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
    check_records(bytes)
}

/// The most sub-steps a recorded step may ask for: Box2D's documentation recommends 4, and a
/// damaged recording asking for millions would keep the replay busy for hours.
pub const MAX_SUBSTEPS: i32 = 1024;

/// The opcode of a recorded `b2World_Step`.
const STEP: u8 = 0x80;

/// One record of a recording as Box2D's player reads it.
#[derive(Clone, Copy, Debug)]
struct Record<'a> {
    /// Its byte offset in the file.
    at: usize,
    opcode: u8,
    /// The call that recorded it (`b2World_Step`), from its opcode.
    call: &'static str,
    /// The payload as the player reads it, argument by argument.
    payload: &'a [u8],
    /// The steps before it (for a step, its number).
    steps: u64,
}

impl Record<'_> {
    /// Where the record is, for a message: `byte 10736 (b2World_Step, step 10)`, or `(a state
    /// hash, after step 3)`, `(b2CreateBody, before the first step)`.
    fn place(&self) -> String {
        format!("byte {} ({}, {})", self.at, self.call, self.when())
    }

    /// When in the recording it comes: `step 10`, `after step 3`, `before the first step`.
    fn when(&self) -> String {
        match (self.opcode, self.steps) {
            (STEP, k) => format!("step {k}"),
            (_, 0) => "before the first step".to_string(),
            (_, k) => format!("after step {}", k - 1),
        }
    }
}

/// `n byte` or `n bytes`.
fn bytes_said(n: usize) -> String {
    format!("{n} byte{}", if n == 1 { "" } else { "s" })
}

/// The records after the header and the world's snapshot (whose size the header's bytes 24
/// to 32 hold) as Box2D's player reads them (`b2RecDispatchOne`): an opcode, a 24-bit size,
/// then each argument by its kind; the size only for an opcode no call records, which the
/// player skips. A record that runs off the file's end, has an opcode no call records, or gives
/// a size other than what the player reads is refused, naming its byte and the field (the
/// player would stop there, skip it, or go on reading from a place other than the size says);
/// the walk ends there. Every record a recording Box2D wrote holds exactly what the player
/// reads.
fn records(bytes: &[u8]) -> impl Iterator<Item = Result<Record<'_>, CaptureError>> {
    let snapshot = bytes.get(24..32).map_or(u64::MAX, |b| {
        u64::from_le_bytes(b.try_into().expect("8 bytes"))
    });
    let mut at = 32usize.saturating_add(usize::try_from(snapshot).unwrap_or(usize::MAX));
    let mut steps = 0u64;
    let mut done = false;
    std::iter::from_fn(move || {
        if done || at >= bytes.len() {
            return None;
        }
        let read = read_record(bytes, at, steps);
        match &read {
            Ok(record) => {
                at = record.at + 4 + record.payload.len();
                steps += u64::from(record.opcode == STEP);
            }
            Err(_) => done = true,
        }
        Some(read)
    })
}

/// The record at `at` as the player reads it (see [`records`]).
fn read_record(bytes: &[u8], at: usize, steps: u64) -> Result<Record<'_>, CaptureError> {
    let unknown = Record {
        at,
        opcode: bytes[at],
        call: "",
        payload: &[],
        steps,
    };
    let Some(head) = bytes.get(at..at + 4) else {
        return Err(refused(format!(
            "it ends inside its record at byte {at} ({}), in its size: the recording is cut \
             short or damaged there",
            unknown.when()
        )));
    };
    let size = usize::from(head[1]) | usize::from(head[2]) << 8 | usize::from(head[3]) << 16;
    let Some((call, args)) = layout(head[0]) else {
        return Err(refused(format!(
            "its record at byte {at} ({}) has the opcode 0x{:02X}, which no call of Box2D {} \
             records: damaged",
            unknown.when(),
            head[0],
            box2d_version()
        )));
    };
    let record = Record { call, ..unknown };
    let start = at + 4;
    let mut end = start;
    // A field's bytes, or the refusal of a record that runs off the end there.
    let mut take = |n: u64, field: &str| -> Result<&[u8], CaptureError> {
        let ends = u64::try_from(end).unwrap_or(u64::MAX).saturating_add(n);
        if ends > bytes.len() as u64 {
            return Err(refused(format!(
                "it ends inside its record at {}, in its {field}: the recording is cut short or \
                 damaged there",
                record.place()
            )));
        }
        let field = &bytes[end..ends as usize];
        end = ends as usize;
        Ok(field)
    };
    let le32 = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    for &(field, arg) in args {
        match arg {
            Bytes(n) => {
                take(n as u64, field)?;
            }
            Name => {
                let length = take(2, field)?;
                let length = u16::from_le_bytes([length[0], length[1]]);
                if length != u16::MAX {
                    take(u64::from(length), field)?;
                }
            }
            Points | Materials => {
                let count = le32(take(4, field)?) as i32;
                let each = if matches!(arg, Points) { 8 } else { MATERIAL };
                take(count.max(0) as u64 * each as u64, field)?;
            }
            Proxy => {
                let count = le32(take(4, field)?) as i32;
                let count = count.clamp(0, B2_MAX_POLYGON_VERTICES as i32);
                take(count as u64 * 8 + 4, field)?;
            }
            Hits(each) => {
                let count = le32(take(4, field)?);
                take(u64::from(count) * each as u64, field)?;
            }
        }
    }
    let read = end - start;
    if read != size {
        return Err(refused(format!(
            "its record at {} gives its size as {}, and Box2D's player reads {} there: its size \
             field is damaged",
            record.place(),
            bytes_said(size),
            bytes_said(read)
        )));
    }
    Ok(Record {
        payload: &bytes[start..end],
        ..record
    })
}

/// Walk the recording's records as Box2D's player will read them ([`records`]) and check
/// each before Box2D runs it: every record whole, of a kind a call records and the size it
/// says; every `Step` (world, `dt`, sub-step count) with a finite `dt` of at least 0 and 1 to
/// [`MAX_SUBSTEPS`] sub-steps; every polygon made or set with at most
/// `B2_MAX_POLYGON_VERTICES` corners (Box2D walks its corners by the count it holds).
fn check_records(bytes: &[u8]) -> Result<(), CaptureError> {
    for record in records(bytes) {
        let record = record?;
        let (step, at) = (record.steps, record.at);
        let i32_at = |i: usize| i32::from_le_bytes(record.payload[i..i + 4].try_into().expect("4"));
        match record.opcode {
            STEP => {
                let dt = f32::from_bits(i32_at(4) as u32);
                let substeps = i32_at(8);
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
            }
            // b2CreatePolygonShape (body, shape definition, polygon) and b2Shape_SetPolygon
            // (shape, polygon).
            0x43 | 0x5D => {
                let polygon = if record.opcode == 0x43 {
                    8 + SHAPE_DEF
                } else {
                    8
                };
                let corners = i32_at(polygon + std::mem::offset_of!(b2Polygon, count));
                if corners > B2_MAX_POLYGON_VERTICES as i32 {
                    return Err(refused(format!(
                        "its record at {} gives its polygon {corners} corners, and a Box2D \
                         polygon has at most {B2_MAX_POLYGON_VERTICES}: damaged",
                        record.place()
                    )));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where the recording's first step starts, as the player reads it (its length when it holds
/// none): what comes before it is the world's snapshot and the calls the game made before that
/// step.
fn first_step_at(bytes: &[u8]) -> usize {
    records(bytes)
        .map_while(Result::ok)
        .find(|record| record.opcode == STEP)
        .map_or(bytes.len(), |record| record.at)
}

/// The steps a recording holds, counted as the player reads them (up to a record it would
/// not read whole).
pub fn recorded_steps(bytes: &[u8]) -> u64 {
    records(bytes)
        .map_while(Result::ok)
        .filter(|record| record.opcode == STEP)
        .count() as u64
}

/// The linked Box2D's version, `3.2.0`.
fn box2d_version() -> String {
    // SAFETY: b2GetVersion reads constants.
    let v = unsafe { b2GetVersion() };
    format!("{}.{}.{}", v.major, v.minor, v.revision)
}

/// Box2D keeps its worlds in one process-wide array, and `b2CreateWorld` takes the first free
/// slot unguarded: two worlds made at once on two threads can take the same one (Box2D then
/// asserts, or worse). Each replay makes and destroys its players' worlds under this lock, so
/// replays asked for at once run one after the other.
static WORLDS: std::sync::Mutex<()> = std::sync::Mutex::new(());

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
    // Held until the players below are destroyed (dropped before it).
    let _worlds = WORLDS.lock().unwrap_or_else(|e| e.into_inner());
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

/// How long a replay in a child process may take before the child is stopped
/// ([`replay_in_child_within`]), and what it follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deadline {
    /// The time the child is given.
    pub limit: std::time::Duration,
    /// The recording's steps, when the limit follows them ([`Deadline::for_steps`]).
    pub steps: Option<u64>,
}

/// A replay's least deadline: a minute, for a recording of few steps (`text::replay_stopped`
/// says this and [`DEADLINE_PER_STEP`] in words).
pub const DEADLINE_FLOOR: std::time::Duration = std::time::Duration::from_secs(60);

/// A replay's deadline grows by this much for each recorded step: three times a 60 Hz game's
/// whole frame, where Box2D replays a step of a game's world in far less, and writing its
/// contacts as a capture takes a part.
pub const DEADLINE_PER_STEP: std::time::Duration = std::time::Duration::from_millis(50);

impl Deadline {
    /// The deadline of a recording of `steps` steps: [`DEADLINE_FLOOR`], and
    /// [`DEADLINE_PER_STEP`] for each step.
    pub fn for_steps(steps: u64) -> Self {
        let per_step = DEADLINE_PER_STEP.saturating_mul(u32::try_from(steps).unwrap_or(u32::MAX));
        Self {
            limit: DEADLINE_FLOOR.saturating_add(per_step),
            steps: Some(steps),
        }
    }

    /// A deadline of `limit`, whatever the recording holds.
    pub fn after(limit: std::time::Duration) -> Self {
        Self { limit, steps: None }
    }
}

/// Replay `recording` in a child process (`exe replay-recording --progress RECORDING
/// [CAPTURE]`, `exe` being the collidoscope binary), into `capture` or, without one, onto this
/// process's standard output, within the deadline its steps give ([`Deadline::for_steps`],
/// counted as Box2D's player reads them). `progress` gets the frames done and the recording's
/// count as the child reports them. `Ok`: what the child said of the replay; `Err`: why it was
/// refused, naming the recording, with Box2D's words when one of its assertions stopped the
/// replay, or that it did not finish in time (a half-written capture is removed).
pub fn replay_in_child(
    exe: &Path,
    recording: &Path,
    capture: Option<&Path>,
    progress: impl FnMut(u64, u64),
) -> Result<String, String> {
    // A recording that cannot be read gets the least deadline: the child refuses it at once.
    let steps = std::fs::read(recording).map_or(0, |bytes| recorded_steps(&bytes));
    replay_in_child_within(
        exe,
        recording,
        capture,
        Deadline::for_steps(steps),
        progress,
    )
}

/// [`replay_in_child`] within `deadline`: past it the child is killed, what it began to write
/// removed, and the refusal says so.
pub fn replay_in_child_within(
    exe: &Path,
    recording: &Path,
    capture: Option<&Path>,
    deadline: Deadline,
    mut progress: impl FnMut(u64, u64),
) -> Result<String, String> {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::{Duration, Instant};
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
    let until = Instant::now().checked_add(deadline.limit);
    let mut child = command
        .spawn()
        .map_err(|e| named(&format!("cannot start {} to replay it: {e}", exe.display())))?;
    let unfinished = |pid: u32| {
        if let Some(capture) = capture {
            remove_unfinished(capture, pid);
        }
    };
    // The child's lines come through a thread, so that this one keeps the time.
    let (send, lines) = std::sync::mpsc::channel();
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        if let Some(stderr) = stderr {
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                if send.send(line).is_err() {
                    break;
                }
            }
        }
    });
    let mut said = Vec::new();
    let mut reported = None;
    let mut hear = |line: String| {
        let mut words = line.split(' ');
        match (words.next(), words.next(), words.next(), words.next()) {
            (Some("progress"), Some(k), Some(n), None) => {
                if let (Ok(k), Ok(n)) = (k.parse(), n.parse()) {
                    reported = Some((k, n));
                    progress(k, n);
                }
            }
            _ => said.push(line),
        }
    };
    let mut open = true;
    let ended = loop {
        let left = until.map_or(Duration::MAX, |t| {
            t.saturating_duration_since(Instant::now())
        });
        if left.is_zero() {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                _ => break Err(None),
            }
        }
        if open {
            match lines.recv_timeout(left) {
                Ok(line) => {
                    hear(line);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => open = false,
                Err(RecvTimeoutError::Timeout) => continue,
            }
        }
        // Its standard error closed: the child is ending.
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) => std::thread::sleep(left.min(Duration::from_millis(5))),
            Err(e) => break Err(Some(e)),
        }
    };
    let status = match ended {
        Ok(status) => status,
        Err(why) => {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            lines.try_iter().for_each(&mut hear);
            unfinished(child.id());
            return Err(match why {
                Some(e) => named(&format!("the replay could not be waited for: {e}")),
                None => collidoscope::text::replay_stopped(
                    recording,
                    capture,
                    deadline.limit.as_secs_f64(),
                    deadline.steps,
                    reported,
                ),
            });
        }
    };
    let _ = reader.join();
    lines.try_iter().for_each(&mut hear);
    let words = said.join("\n");
    match status.code() {
        Some(0) => Ok(words),
        Some(1) | Some(2) => {
            unfinished(child.id());
            Err(words)
        }
        other => {
            unfinished(child.id());
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
