//! A flight recorder: a capture kept in memory for the last few seconds only, written on
//! request (`recorder.save("snag.capture.jsonl.gz")`), at the first step that is not clean
//! if asked, or when the game panics. What is kept is a valid capture on its own: its first
//! frame holds every shape in full as it stood then, the frames after it as written.

use crate::capture::StepJudgement;
use crate::capture::analysis::step::InProcess;
use crate::capture::format::write::{CaptureWriter, NormalFrom, Penetration};
use crate::capture::{
    BodyPose, BodyShape, CaptureError, CaptureReader, Header, Keyframe, Manifold,
};
use crate::scene::{SceneShape, ShapeId, shape_object};
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::io::{self, Cursor, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Keeps the last `span` seconds of a capture in memory; see the module's comment.
///
/// ```
/// use collidoscope::capture::{BodyShape, Engine, FlightRecorder, Header, NormalFrom, Penetration};
/// use collidoscope::geometry::{Circle, DVec2};
/// use collidoscope::scene::Body;
///
/// let header = Header::f32_metres(Engine::new("my-engine", "1.0"));
/// let mut recorder = FlightRecorder::new(&header, NormalFrom::AToB, Penetration::NegativeSeparation, 2.0);
/// for step in 0..600 {
///     let ball = BodyShape::new(1, Circle::new(0.5).unwrap(), DVec2::new(step as f64 * 0.01, 1.0), DVec2::X)
///         .moving(Body::Dynamic, DVec2::new(0.6, 0.0), 0.0, true);
///     recorder.frame(step as f64 / 60.0, &[ball], &[]).unwrap();
/// }
/// // Ten seconds were run; the last two (and a frame) are kept.
/// let (first, last) = recorder.kept_frames().unwrap();
/// assert_eq!((first, last), (479, 599));
/// ```
pub struct FlightRecorder {
    shared: Arc<Mutex<Kept>>,
    /// The recorder's own writer ([`Self::frame`], [`Self::poses`], [`Self::shape`]); `None`
    /// for one that keeps what its [`Self::output`] is given.
    writer: Option<CaptureWriter<RecorderOutput>>,
}

/// What the recorder keeps (shared with its output and the panic hook).
#[derive(Default)]
struct Kept {
    /// The header's line and the capture read up to the frame before the oldest kept one,
    /// once the header is written.
    started: Option<Started>,
    /// Seconds kept.
    span: f64,
    /// Each kept frame's time and line (without its newline), oldest first.
    lines: VecDeque<(f64, Vec<u8>)>,
    /// Bytes held by `lines`.
    bytes: usize,
    /// Judge every step ([`FlightRecorder::save_on_first`]).
    judging: bool,
    /// Where to save at the first step that is not clean, until it is saved.
    on_first: Option<PathBuf>,
    /// What the first saved-on-first step said, once saved.
    saved_on: Option<(PathBuf, StepJudgement)>,
    /// The last step's judgement, when judging.
    judged: Option<StepJudgement>,
}

/// The recorder's capture once its header is written.
struct Started {
    header: Header,
    header_line: Vec<u8>,
    before: CaptureReader,
    judge: Option<InProcess>,
}

/// A flight recorder's input as a capture's output: give it to a [`CaptureWriter`] (or an
/// engine adapter that takes one) and the recorder keeps the last seconds of what it writes.
/// Plain text only (not [`CaptureWriter::compressed`]).
pub struct RecorderOutput {
    shared: Arc<Mutex<Kept>>,
    pending: Vec<u8>,
}

impl Write for RecorderOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.pending.is_empty() && buf.first() == Some(&0x1f) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a flight recorder keeps a capture's text: make the writer with CaptureWriter::new, not compressed",
            ));
        }
        self.pending.extend_from_slice(buf);
        let mut start = 0;
        let mut kept = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some(end) = self.pending[start..].iter().position(|b| *b == b'\n') {
            let line = self.pending[start..start + end].to_vec();
            start += end + 1;
            if let Err(e) = kept.take(line) {
                drop(kept);
                self.pending.drain(..start);
                return Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string()));
            }
        }
        drop(kept);
        self.pending.drain(..start);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl FlightRecorder {
    /// A recorder of the last `span` seconds (simulated time) of a capture with `header`, the
    /// engine's conventions as [`CaptureWriter::new`] takes them, written with its own
    /// [`Self::frame`] or [`Self::poses`].
    pub fn new(
        header: &Header,
        normal_from: NormalFrom,
        penetration: Penetration,
        span: f64,
    ) -> Self {
        let mut recorder = Self::keeping(span);
        let output = recorder.output();
        recorder.writer = Some(
            CaptureWriter::new(output, header, normal_from, penetration)
                .expect("writing to memory does not fail"),
        );
        recorder
    }

    /// A recorder of the last `span` seconds of what its [`Self::output`] is given: how an
    /// engine adapter's capture is recorded
    /// (`RapierCapture::new(recorder.output(), &header)`).
    pub fn keeping(span: f64) -> Self {
        let kept = Kept {
            span: span.max(0.0),
            ..Kept::default()
        };
        Self {
            shared: Arc::new(Mutex::new(kept)),
            writer: None,
        }
    }

    /// An output to give a [`CaptureWriter`]: what it writes is what the recorder keeps. One
    /// writer at a time.
    pub fn output(&self) -> RecorderOutput {
        RecorderOutput {
            shared: self.shared.clone(),
            pending: Vec::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Judge every step as it is recorded, and save what is kept to `path` at the first step
    /// that is not clean (a claim that disagrees, an event other than a normal flip): the
    /// seconds that led up to it. Only before the first frame.
    pub fn save_on_first(self, path: impl Into<PathBuf>) -> Self {
        {
            let mut kept = self.lock();
            if kept.lines.is_empty() {
                kept.judging = true;
                kept.on_first = Some(path.into());
                if let Some(started) = &mut kept.started {
                    started.judge = InProcess::new(&started.header_line).ok();
                }
            }
        }
        self
    }

    /// Save what is kept to `path` when the game panics (the panic is then reported as
    /// before). Replaces the panic hook, keeping the one before after it.
    pub fn save_on_panic(&self, path: impl Into<PathBuf>) {
        let path = path.into();
        let shared = Arc::downgrade(&self.shared);
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if let Some(shared) = shared.upgrade()
                && let Ok(kept) = shared.try_lock()
            {
                match kept.save(&path) {
                    Ok(()) => eprintln!(
                        "collidoscope: the flight recorder's last seconds are in {}",
                        path.display()
                    ),
                    Err(e) => eprintln!(
                        "collidoscope: {}: the flight recorder could not save: {e}",
                        path.display()
                    ),
                }
            }
            before(info);
        }));
    }

    fn writer(&mut self) -> Result<&mut CaptureWriter<RecorderOutput>, CaptureError> {
        self.writer.as_mut().ok_or_else(|| {
            CaptureError::Contract(
                "this recorder keeps what its output() is given: write the frames there".into(),
            )
        })
    }

    /// Record one frame, as [`CaptureWriter::frame`].
    pub fn frame(
        &mut self,
        time: f64,
        shapes: &[BodyShape],
        contacts: &[Manifold],
    ) -> Result<(), CaptureError> {
        self.writer()?.frame(time, shapes, contacts)
    }

    /// Record one frame, as [`CaptureWriter::poses`] (geometry given with [`Self::shape`]).
    pub fn poses(
        &mut self,
        time: f64,
        poses: &[BodyPose],
        contacts: &[Manifold],
    ) -> Result<(), CaptureError> {
        self.writer()?.poses(time, poses, contacts)
    }

    /// Give a shape's geometry and name, as [`CaptureWriter::shape`].
    pub fn shape(
        &mut self,
        id: u64,
        shape: impl Into<crate::geometry::Shape>,
        name: Option<&str>,
    ) -> Result<(), CaptureError> {
        self.writer()?.shape(id, shape, name)
    }

    /// Write what is kept to `path` (gzip when it ends in `.gz`), atomically: a capture of
    /// the last seconds.
    pub fn save(&self, path: impl AsRef<Path>) -> io::Result<()> {
        self.lock().save(path.as_ref())
    }

    /// The first and last frame kept.
    pub fn kept_frames(&self) -> Option<(u64, u64)> {
        self.lock().frames()
    }

    /// Bytes of frame lines held in memory (the shapes' state at the oldest frame, kept
    /// beside them, is about one full frame more).
    pub fn memory(&self) -> usize {
        self.lock().bytes
    }

    /// Where and at which step it saved on the first step that was not clean.
    pub fn saved_on(&self) -> Option<(PathBuf, StepJudgement)> {
        self.lock().saved_on.clone()
    }

    /// The judgement of the step last recorded, when judging ([`Self::save_on_first`]).
    pub fn judgement(&self) -> Option<StepJudgement> {
        self.lock().judged.clone()
    }
}

impl Kept {
    /// Take one line a writer wrote (without its newline): the header, then frames.
    fn take(&mut self, line: Vec<u8>) -> Result<(), CaptureError> {
        let Some(started) = &mut self.started else {
            let mut text = line.clone();
            text.push(b'\n');
            let before = CaptureReader::new(Path::new("(flight recorder)"), Cursor::new(text))
                .map_err(|e| {
                    CaptureError::Contract(format!("the flight recorder's header: {e}"))
                })?;
            let judge = if self.judging {
                InProcess::new(&line).ok()
            } else {
                None
            };
            self.started = Some(Started {
                header: before.header().clone(),
                header_line: line,
                before,
                judge,
            });
            return Ok(());
        };
        if let Some(judge) = &mut started.judge {
            match judge.judge(&line, None) {
                Ok(step) => self.judged = Some(step),
                Err(e) => {
                    started.judge = None;
                    return Err(CaptureError::Contract(format!(
                        "the flight recorder cannot read its own frame: {e}"
                    )));
                }
            }
        }
        let time = frame_time(&line).ok_or_else(|| {
            CaptureError::Contract("the flight recorder was given a frame with no time".into())
        })?;
        self.keep(time, line)
    }

    /// Keep `line`, drop what is older than the span, and save on the first step that is not
    /// clean when asked.
    fn keep(&mut self, time: f64, line: Vec<u8>) -> Result<(), CaptureError> {
        self.bytes += line.len();
        self.lines.push_back((time, line));
        let started = self.started.as_mut().expect("frames come after the header");
        // The oldest frame kept is the last at or before `time - span` (a few ulps of slack:
        // 479/60 is that time for 599/60 and a span of 2).
        let start = time - self.span + 4.0 * f64::EPSILON * time.abs().max(1.0);
        while self.lines.len() > 1 && self.lines[1].0 <= start {
            let (_, old) = self.lines.pop_front().expect("two lines");
            self.bytes -= old.len();
            started.before.read_written(&old).map_err(|e| {
                CaptureError::Contract(format!(
                    "the flight recorder cannot read its own frame: {e}"
                ))
            })?;
        }
        if let Some(path) = &self.on_first
            && let Some(step) = &self.judged
            && !step.is_clean()
        {
            let path = path.clone();
            let step = step.clone();
            self.save(&path).map_err(CaptureError::Io)?;
            self.on_first = None;
            self.saved_on = Some((path, step));
        }
        Ok(())
    }

    fn frames(&self) -> Option<(u64, u64)> {
        let number = |line: &[u8]| -> Option<u64> {
            let value: Value = serde_json::from_slice(line).ok()?;
            value.get("frame")?.as_u64()
        };
        Some((
            number(&self.lines.front()?.1)?,
            number(&self.lines.back()?.1)?,
        ))
    }

    /// The kept frames as a capture: the header, the oldest kept frame with every shape in
    /// full, then the others as written.
    fn text(&self) -> io::Result<Vec<u8>> {
        let Some(started) = &self.started else {
            return Err(io::Error::other("the flight recorder has no capture yet"));
        };
        let mut text = started.header_line.clone();
        text.push(b'\n');
        let Some((_, oldest)) = self.lines.front() else {
            return Ok(text);
        };
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        // The shapes as they stand after the oldest kept line.
        let mut reader = CaptureReader::resume(
            Path::new("(flight recorder)"),
            started.header.clone(),
            (Cursor::new(Vec::new()), 0),
            Keyframe::clone(started.before.state()),
        );
        reader
            .read_written(oldest)
            .map_err(|e| invalid(e.to_string()))?;
        text.extend_from_slice(&in_full(&reader, oldest)?);
        text.push(b'\n');
        for (_, line) in self.lines.iter().skip(1) {
            text.extend_from_slice(line);
            text.push(b'\n');
        }
        Ok(text)
    }

    fn save(&self, path: &Path) -> io::Result<()> {
        // Level 3: a recorder saves at a failing step, while the game runs.
        crate::files::write_text_atomically(path, &self.text()?, 3)
    }
}

/// The `time` of a frame line as a writer writes it (`{"frame":N,"time":T,...`).
fn frame_time(line: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(line.get(..line.len().min(96))?).ok()?;
    let after = &text[text.find("\"time\":")? + 7..];
    let end = after.find([',', '}'])?;
    after[..end].parse().ok()
}

/// Frame `line` (without its newline) written again with every shape of `reader` in full
/// (`reader` standing after that line: each shape's whole state, as a first frame gives it):
/// a frame a reader can start from.
fn in_full(reader: &CaptureReader, line: &[u8]) -> io::Result<Vec<u8>> {
    let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
    let mut first: Map<String, Value> =
        serde_json::from_slice(line).map_err(|e| invalid(e.to_string()))?;
    first.remove("removed");
    let shapes: Vec<Value> = reader
        .shapes()
        .map(|s| {
            let mut object = Map::new();
            object.insert("id".into(), s.id.into());
            object.extend(shape_object(&SceneShape {
                id: ShapeId(0),
                name: s.name.as_deref().map(str::to_string),
                placed: s.placed.clone(),
                motion: s.motion,
            }));
            if let Some(filter) = s.pairing.filter {
                object.insert("filter".into(), filter.to_json());
            }
            if let Some(body) = s.pairing.body_id {
                object.insert("body_id".into(), body.into());
            }
            Value::Object(object)
        })
        .collect();
    first.insert("shapes".into(), Value::Array(shapes));
    serde_json::to_vec(&Value::Object(first)).map_err(io::Error::from)
}
