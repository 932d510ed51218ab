//! Reading a capture as a stream: the header, then one frame at a time, each applied to the
//! shapes of the frame before. Gzip is recognised by its first two bytes. A last line cut off
//! by a crash is dropped with a warning; anything else wrong refuses the capture, naming the
//! line, the place and the field.

mod passing;

use crate::capture::format::ids::IdMap;
use crate::capture::format::input::{decompressed, read_until_newline};
use crate::capture::format::line;
use crate::capture::format::parsed::{FrameLine, LineProblem, PoseChange, ShapeKeys};
use crate::capture::{CapturedShape, Header};
use crate::files::{FileError, Problem, spelled};
use crate::geometry::{Placed, Pose};
use crate::scene::{
    Body, Claim, Precision, Scene, SceneShape, parse_shape, piece_problem, shape_object,
};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard};

/// Whether the file at `path` is a capture: its first line (after gzip, if compressed) is a
/// JSON object whose `format` is `collidoscope-capture`. Unreadable files are not.
pub fn is_capture(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let Ok(mut input) = decompressed(BufReader::new(file), false) else {
        return false;
    };
    let mut first = Vec::new();
    // A capture's header is short; a shape-set file's first line may be its whole text.
    let _ = (&mut input).take(1 << 16).read_until(b'\n', &mut first);
    line::object(&first)
        .is_ok_and(|top| top.get("format").and_then(Value::as_str) == Some(crate::capture::FORMAT))
}

/// What a file given where a capture is needed is instead (`crate::capture::words::not_a_capture` says it).
#[derive(Clone, Debug, PartialEq)]
pub enum NotACapture {
    /// Nothing at the path.
    Missing,
    /// A directory.
    Directory,
    /// Nothing in it but white space (after gzip, if compressed).
    Empty,
    /// A JSON document whose `format` names another kind of file
    /// (`collidoscope-shapes`: a shape set).
    Format(String),
    /// Anything else: why the capture reader refuses it (the problem, where, without the path).
    Refused(Problem),
}

impl NotACapture {
    /// Whether the file could not be read at all (status 1 in the command line), rather than
    /// read as another kind of file (a wrong argument, status 2).
    pub fn unreadable(&self) -> bool {
        match self {
            NotACapture::Missing | NotACapture::Directory | NotACapture::Empty => true,
            NotACapture::Format(_) => false,
            NotACapture::Refused(problem) => matches!(problem, Problem::Io { .. }),
        }
    }
}

/// What the file at `path` is when it is not a capture; `None` when it is one.
pub fn not_a_capture(path: &Path) -> Option<NotACapture> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Some(NotACapture::Missing),
        Ok(meta) if meta.is_dir() => return Some(NotACapture::Directory),
        _ => {}
    }
    let refusal = match CaptureReader::open(path) {
        Ok(_) => return None,
        Err(e) => e.problem,
    };
    // A document of another kind (a shape set, a lesson) names itself in `format`; its text is
    // small, and more than 16 MiB of it is no such document.
    let mut text = Vec::new();
    if let Ok(file) = std::fs::File::open(path)
        && let Ok(input) = decompressed(BufReader::new(file), false)
    {
        let _ = input.take(1 << 24).read_to_end(&mut text);
    }
    if refusal == Problem::Empty || (!text.is_empty() && text.iter().all(u8::is_ascii_whitespace)) {
        return Some(NotACapture::Empty);
    }
    let format = serde_json::from_slice::<Value>(&text)
        .ok()
        .and_then(|top| top.get("format")?.as_str().map(str::to_string));
    Some(match format {
        Some(format) => NotACapture::Format(format),
        None => NotACapture::Refused(refusal),
    })
}

/// One frame of a capture: its step, time and claims. Its shapes are the reader's
/// ([`CaptureReader::shapes`]) until the next frame is read.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The engine's step number.
    pub frame: u64,
    /// Simulated seconds.
    pub time: f64,
    /// The contacts the engine reported, in the line's order.
    pub claims: Vec<FrameClaim>,
    /// What the engine gave that the writer could not hold as a shape or a claim, marked.
    pub malformed: Vec<crate::capture::Malformed>,
    /// The line of the file it came from (1-based; the header is line 1).
    pub line: usize,
}

/// One claim of a frame: the pair by id (A first, the normal from A toward B) and what the
/// engine said: the claim of [`crate::judge::Claim`], its shapes named by the capture's ids.
pub type FrameClaim = crate::judge::claim::Claim<u64>;

/// One line of a capture as read, not yet parsed.
#[derive(Clone, Debug)]
pub struct RawLine {
    line: usize,
    bytes: Vec<u8>,
    ended: bool,
    /// Bytes of the text read up to this line's end: where the line after it starts.
    end: u64,
}

impl RawLine {
    /// Its bytes, without the line end.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Its number in the file (1-based; the header is line 1).
    pub fn line(&self) -> usize {
        self.line
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Parse it on its own: everything a line can be checked for without the frames before it.
    pub fn parse(self) -> ParsedLine {
        self.parsed()
    }

    /// [`Self::parse`] for a line a scan has already read whole and found good, passed on the
    /// way to a later frame: a line in the writer's own layout has its claims left unread (its
    /// frame holds none), any other is parsed whole.
    pub fn parse_without_claims(self) -> ParsedLine {
        let frame = match crate::capture::format::fast::frame_line_without_claims(&self.bytes) {
            Some(line) => Ok(line),
            None => frame_line(&self.bytes),
        };
        ParsedLine {
            line: self.line,
            frame,
            ended: self.ended,
            end: self.end,
        }
    }

    /// [`Self::parse`], the line kept (to be shown to whoever watches it before it is applied).
    pub fn parsed(&self) -> ParsedLine {
        ParsedLine {
            line: self.line,
            frame: frame_line(&self.bytes),
            ended: self.ended,
            end: self.end,
        }
    }
}

/// A line parsed on its own, to be applied in file order ([`CaptureReader::apply_line`]).
#[derive(Debug)]
pub struct ParsedLine {
    line: usize,
    frame: Result<FrameLine, LineProblem>,
    ended: bool,
    end: u64,
}

/// A capture being read, frame by frame.
pub struct CaptureReader {
    /// Its input, and the file as it was named (for messages).
    lines: Lines,
    header: Header,
    /// Bytes of (uncompressed) text up to the end of the line last applied.
    consumed: u64,
    state: Keyframe,
    warning: Option<String>,
    /// No frame follows (a last line cut off by a crash was met).
    finished: bool,
}

/// Where a reader's lines come from: its input, read line by line. Taken out of the reader
/// ([`CaptureReader::take_lines`]), it reads on while the reader applies the lines before.
pub(in crate::capture) struct Lines {
    /// The file, as it was named (for messages).
    path: PathBuf,
    input: Box<dyn BufRead + Send>,
    /// Lines and bytes of text read from the input so far: ahead of the line last applied
    /// while lines are read in batches ([`CaptureReader::raw_line`]).
    read: (usize, u64),
    buffer: Vec<u8>,
    /// The longest line read (bytes, uncompressed): longer is refused, never read into memory.
    line_limit: usize,
    /// The input's end was met.
    ended: bool,
    /// Lines' buffers given back once read ([`Lines::give_back`]), each taken again for a
    /// line to come: a seek's runs of passed lines keep their memory from one jump to the
    /// next, and `diagnose` reads each batch into the buffers of the batch it judged, where
    /// the allocator would hand them back to the system and fault them in again.
    spare: Vec<Vec<u8>>,
    /// The bytes the spare buffers hold (their capacity).
    spare_bytes: usize,
}

/// At most this many bytes of spare buffers are kept: a batch of `diagnose`'s (32 MiB) and a
/// seek's run of lines (up to a keyframe's 16 MB), with room for lines a little longer.
const SPARE_BYTES: usize = 40 << 20;

/// The longest capture line read by default: 256 MiB, a frame of about a million bodies. A line
/// with no end (a gzip bomb without newlines) is refused at this length instead of filling
/// memory.
pub const LINE_LIMIT: usize = 256 << 20;

/// Where a reader stands after a frame: the shapes and everything else the next line is
/// applied to. Kept every so often, it lets a reader go on from that frame
/// ([`CaptureReader::resume`]) instead of from the start: how the window seeks in a capture.
#[derive(Clone, Debug, Default)]
pub struct Keyframe {
    /// Lines read so far (the header is line 1).
    line: usize,
    /// The shapes of the frame last read, in the order they appeared, with holes where shapes
    /// were removed (compacted now and then).
    slots: Vec<Option<CapturedShape>>,
    slot_of: IdMap<u64, usize>,
    /// Ids removed, with the frame they went in: they never come back. One record shared by
    /// every keyframe of a capture (see [`Removed`]).
    removed: Removed,
    /// For each shape the last frame added, changed or removed: where it was in the frame
    /// before (`None`: not there).
    previous: IdMap<u64, Option<Before>>,
    last: Option<(u64, f64)>,
    /// Frames read so far.
    frames: u64,
}

/// Where a shape was in the frame before the one last read.
#[derive(Clone, Debug)]
enum Before {
    /// At this pose, with the geometry it has now (it only moved: nothing is copied).
    Pose(Pose),
    /// As it was (its geometry changed too, or it is gone).
    Placed(Box<Placed>),
}

/// The ids removed from a capture, each with the frame it went in: one record shared by the
/// reader and every keyframe taken from it, so a game that spawns and removes a million bullets
/// keeps a million entries once, not once per keyframe.
///
/// Sharing is sound because the record only grows and an id never comes back: a reader that
/// stands at frame `f` (say, one resumed from an early keyframe while the scan has read far
/// ahead) sees only the entries of frames up to `f`.
#[derive(Clone, Debug, Default)]
pub(in crate::capture) struct Removed(Arc<RwLock<IdMap<u64, u64>>>);

impl Removed {
    /// Note `ids` as removed at `frame` (an id already noted keeps its first frame).
    fn record(&self, ids: &[u64], frame: u64) {
        if ids.is_empty() {
            return;
        }
        let mut map = self.0.write().unwrap_or_else(PoisonError::into_inner);
        for id in ids {
            map.entry(*id).or_insert(frame);
        }
    }

    /// The record as a reader at `frame` sees it.
    fn as_of(&self, frame: u64) -> RemovedAsOf<'_> {
        RemovedAsOf {
            map: self.0.read().unwrap_or_else(PoisonError::into_inner),
            frame,
        }
    }

    /// Whether two records are one (keyframes of one capture share theirs).
    #[cfg(test)]
    fn shared_with(&self, other: &Removed) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// [`Removed`] read at one frame.
struct RemovedAsOf<'a> {
    map: RwLockReadGuard<'a, IdMap<u64, u64>>,
    frame: u64,
}

impl RemovedAsOf<'_> {
    /// The frame `id` was removed in, if that is no later than the frame read.
    fn get(&self, id: u64) -> Option<u64> {
        if self.map.is_empty() {
            return None;
        }
        self.map.get(&id).copied().filter(|&g| g <= self.frame)
    }
}

impl Keyframe {
    /// The shape with `id` in the frame last read.
    pub(in crate::capture) fn shape(&self, id: u64) -> Option<&CapturedShape> {
        self.slots[*self.slot_of.get(&id)?].as_ref()
    }

    /// Where the shape with `id` was in the frame before the one last read.
    pub(in crate::capture) fn previous(&self, id: u64) -> Option<Placed> {
        self.last?;
        match self.previous.get(&id) {
            Some(Some(Before::Placed(placed))) => Some(Placed::clone(placed)),
            Some(Some(Before::Pose(pose))) => self
                .shape(id)
                .map(|s| Placed::new(s.placed.shape.clone(), *pose)),
            Some(None) => None,
            None => self.shape(id).map(|s| s.placed.clone()),
        }
    }

    /// Whether the shape with `id` has the geometry it had in the frame before (it is there,
    /// and at most moved).
    pub(in crate::capture) fn same_geometry(&self, id: u64) -> bool {
        self.last.is_some() && matches!(self.previous.get(&id), None | Some(Some(Before::Pose(_))))
    }

    /// How many frames were read so far.
    pub(in crate::capture) fn frames_read(&self) -> u64 {
        self.frames
    }

    /// The shapes of the frame last read.
    pub(in crate::capture) fn shapes(&self) -> impl Iterator<Item = &CapturedShape> {
        self.slots.iter().flatten()
    }

    /// The line it stands after (the header is line 1).
    pub fn line(&self) -> usize {
        self.line
    }

    /// How many shapes it holds.
    pub fn len(&self) -> usize {
        self.slot_of.len()
    }

    /// Whether it holds no shapes.
    pub fn is_empty(&self) -> bool {
        self.slot_of.is_empty()
    }
}

impl std::fmt::Debug for CaptureReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureReader")
            .field("path", &self.lines.path)
            .field("header", &self.header)
            .field("line", &self.state.line)
            .finish_non_exhaustive()
    }
}

/// Where a capture's text comes from, to read it again from its start: a file (plain or
/// gzip), or bytes a page was given (plain or gzip), named for messages.
#[derive(Clone, Debug)]
pub enum CaptureSource {
    /// The file at this path.
    File(PathBuf),
    /// Bytes in memory.
    Bytes {
        /// What names it in messages.
        name: PathBuf,
        /// What it holds.
        bytes: Arc<[u8]>,
    },
}

impl CaptureSource {
    /// The name messages give it.
    pub fn name(&self) -> &Path {
        match self {
            CaptureSource::File(path) => path,
            CaptureSource::Bytes { name, .. } => name,
        }
    }

    /// A reader from its start (its header read, or refused).
    pub fn reader(&self) -> Result<CaptureReader, FileError> {
        match self {
            CaptureSource::File(path) => CaptureReader::open(path),
            CaptureSource::Bytes { name, bytes } => {
                CaptureReader::new(name, std::io::Cursor::new(bytes.clone()))
            }
        }
    }
}

impl Lines {
    fn new(path: &Path, input: Box<dyn BufRead + Send>, read: (usize, u64)) -> Self {
        Self {
            path: path.to_path_buf(),
            input,
            read,
            buffer: Vec::new(),
            line_limit: LINE_LIMIT,
            ended: false,
            spare: Vec::new(),
            spare_bytes: 0,
        }
    }

    /// The next line, unparsed (`None` at the end): [`CaptureReader::raw_line`].
    pub(in crate::capture) fn raw_line(&mut self) -> Result<Option<RawLine>, FileError> {
        if self.ended {
            return Ok(None);
        }
        let Some(ended) = self.read_line()? else {
            self.ended = true;
            return Ok(None);
        };
        // The next line is likely about as long as this one: room for it at once, and for a
        // little more (a longer line would grow its buffer by copying it to twice the size).
        // A spare one is emptied as the next line is read into it.
        let want = self.buffer.len() + self.buffer.len() / 8 + 64;
        let room = match self.spare.pop() {
            Some(spare) => {
                self.spare_bytes -= spare.capacity();
                if spare.capacity() >= want {
                    spare
                } else {
                    Vec::with_capacity(want)
                }
            }
            None => Vec::with_capacity(want),
        };
        Ok(Some(RawLine {
            line: self.read.0,
            bytes: std::mem::replace(&mut self.buffer, room),
            ended,
            end: self.read.1,
        }))
    }

    /// A line's buffer, read and done with, kept for a line to come (up to a bound).
    fn give_back(&mut self, bytes: Vec<u8>) {
        if self.spare_bytes + bytes.capacity() <= SPARE_BYTES {
            self.spare_bytes += bytes.capacity();
            self.spare.push(bytes);
        }
    }

    /// Read one line into the buffer: `Some(true)` ended by `\n`, `Some(false)` the last line
    /// without one, `None` at the end.
    fn read_line(&mut self) -> Result<Option<bool>, FileError> {
        self.buffer.clear();
        let limit = self.line_limit + 1;
        let read = match read_until_newline(&mut *self.input, limit, &mut self.buffer) {
            Ok(n) => n,
            // A compressed capture whose game died: its stream ends early.
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => self.buffer.len(),
            Err(e) => {
                return Err(FileError::new(
                    &self.path,
                    Problem::io("cannot read the file", e),
                ));
            }
        };
        self.read.1 += read as u64;
        if read == 0 && self.buffer.is_empty() {
            return Ok(None);
        }
        self.read.0 += 1;
        let ended = self.buffer.last() == Some(&b'\n');
        if !ended && self.buffer.len() > self.line_limit {
            let line = self.read.0;
            let limit = self.line_limit;
            self.buffer = Vec::new();
            return Err(FileError::new(
                &self.path,
                Problem::Document(format!(
                    "line {line} is longer than {limit} bytes, the longest line this reader takes (a line holds one frame): the capture is refused here rather than read into memory"
                )),
            ));
        }
        if ended {
            self.buffer.pop();
            if self.buffer.last() == Some(&b'\r') {
                self.buffer.pop();
            }
        }
        Ok(Some(ended))
    }
}

impl CaptureReader {
    /// Open the capture at `path` (plain or gzip) and read its header.
    /// The file is read (and unpacked) ahead on a thread of its own.
    pub fn open(path: &Path) -> Result<Self, FileError> {
        let file = std::fs::File::open(path)
            .map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
        Self::reading_ahead(path, file)
    }

    /// Read a capture from `input` (plain or gzip); `path` only names it in messages.
    pub fn new(path: &Path, input: impl Read + Send + 'static) -> Result<Self, FileError> {
        Self::start(path, input, false)
    }

    /// The same, `input` read (and unpacked) ahead on a thread of its own, a few MiB at most:
    /// for a long capture, read while its frames are judged.
    pub fn reading_ahead(
        path: &Path,
        input: impl Read + Send + 'static,
    ) -> Result<Self, FileError> {
        Self::start(path, input, true)
    }

    fn start(
        path: &Path,
        input: impl Read + Send + 'static,
        ahead: bool,
    ) -> Result<Self, FileError> {
        let fail = |problem| FileError::new(path, problem);
        let input = decompressed(BufReader::with_capacity(1 << 16, input), ahead)
            .map_err(|e| fail(Problem::io("cannot read the file", e)))?;
        let mut reader = Self {
            lines: Lines::new(path, input, (0, 0)),
            header: Header::f32_metres(crate::capture::Engine::default()),
            consumed: 0,
            state: Keyframe::default(),
            warning: None,
            finished: false,
        };
        let ended = reader.lines.read_line()?;
        (reader.state.line, reader.consumed) = reader.lines.read;
        if reader.lines.buffer.iter().all(u8::is_ascii_whitespace) && ended.is_none() {
            return Err(fail(Problem::Empty));
        }
        reader.header = line::header(&reader.lines.buffer).map_err(|p| reader.error(p))?;
        Ok(reader)
    }

    /// Go on reading a capture from a keyframe: `input` is the capture's uncompressed text
    /// from byte `offset` on, the start of the line after the keyframe's; `path` and `header`
    /// are the capture's.
    pub fn resume(
        path: &Path,
        header: Header,
        (input, offset): (impl Read + Send + 'static, u64),
        keyframe: Keyframe,
    ) -> Self {
        Self {
            lines: Lines::new(
                path,
                Box::new(BufReader::with_capacity(1 << 16, input)),
                (keyframe.line, offset),
            ),
            header,
            consumed: offset,
            state: keyframe,
            warning: None,
            finished: false,
        }
    }

    /// The same reader refusing lines longer than `bytes` (default [`LINE_LIMIT`]): for a game
    /// or a server with less memory to spare.
    pub fn with_line_limit(mut self, bytes: usize) -> Self {
        self.lines.line_limit = bytes;
        self
    }

    /// The number of the line last read (1 for the header), applied or not.
    pub(in crate::capture) fn line(&self) -> usize {
        self.lines.read.0
    }

    /// Bytes of the (uncompressed) text up to the end of the line last applied: where the
    /// line after it starts.
    pub fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Where the reader stands now (after the frame last read).
    pub fn keyframe(&self) -> Keyframe {
        self.state.clone()
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file, as it was named.
    pub fn path(&self) -> &Path {
        &self.lines.path
    }

    /// The warning about a last line cut off by a crash, once it was met.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// The next frame, its shapes applied; `None` at the end.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, FileError> {
        match self.raw_line()? {
            Some(raw) => self.apply_line(raw.parse()),
            None => Ok(None),
        }
    }

    /// The next line, unparsed (`None` at the end). Lines parse on their own
    /// ([`RawLine::parse`], on any thread) and are applied in file order with
    /// [`Self::apply_line`]: how `diagnose` reads a long capture on every core.
    pub fn raw_line(&mut self) -> Result<Option<RawLine>, FileError> {
        if self.finished {
            return Ok(None);
        }
        self.lines.raw_line()
    }

    /// The input taken out, to read on from it ([`Lines::raw_line`]) while the lines read
    /// before are applied; the reader reads nothing until it is given back
    /// ([`Self::give_lines`]).
    #[cfg(feature = "parallel")]
    pub(in crate::capture) fn take_lines(&mut self) -> Lines {
        let none = Lines::new(
            &self.lines.path,
            Box::new(std::io::empty()),
            self.lines.read,
        );
        std::mem::replace(&mut self.lines, none)
    }

    /// The input given back after [`Self::take_lines`].
    #[cfg(feature = "parallel")]
    pub(in crate::capture) fn give_lines(&mut self, lines: Lines) {
        self.lines = lines;
    }

    /// Lines read and done with (parsed and applied): their buffers are kept for lines to
    /// come (up to a bound), not handed back to the system and faulted in again.
    #[cfg(feature = "parallel")]
    pub(in crate::capture) fn recycle(&mut self, done: Vec<RawLine>) {
        for line in done {
            self.lines.give_back(line.bytes);
        }
    }

    /// Apply a parsed line, in file order: the frame it holds (`None` for a last line cut off
    /// by a crash, dropped with [`Self::warning`]).
    pub fn apply_line(&mut self, parsed: ParsedLine) -> Result<Option<Frame>, FileError> {
        let ParsedLine {
            line,
            frame,
            ended,
            end,
        } = parsed;
        self.state.line = line;
        self.consumed = end;
        match frame {
            Ok(frame) => self.apply(frame).map(Some).map_err(|p| self.error(p)),
            // The game died mid-write: keep every frame before this one.
            Err(problem) if !ended && problem.syntax => {
                self.finished = true;
                self.warning = Some(crate::text::cut_off_last_line(
                    &self.lines.path,
                    line,
                    self.state.frames,
                ));
                Ok(None)
            }
            Err(problem) => Err(self.error(problem)),
        }
    }

    /// Read `line` (a frame line without its newline, as a writer in this process wrote it)
    /// as the capture's next line.
    pub(in crate::capture) fn read_written(&mut self, line: &[u8]) -> Result<Frame, FileError> {
        self.state.line += 1;
        self.lines.read.0 = self.state.line;
        match frame_line(line) {
            Ok(frame) => self.apply(frame).map_err(|p| self.error(p)),
            Err(problem) => Err(self.error(problem)),
        }
    }

    /// [`Self::read_written`] of a line the writer gives as the values the typed path reads
    /// from it.
    pub(in crate::capture) fn read_typed(&mut self, line: FrameLine) -> Result<Frame, FileError> {
        self.state.line += 1;
        self.lines.read.0 = self.state.line;
        self.apply(line).map_err(|p| self.error(p))
    }

    /// Every shape of the frame last read, in the order they first appeared.
    pub fn shapes(&self) -> impl Iterator<Item = &CapturedShape> {
        self.state.slots.iter().flatten()
    }

    /// The shape with `id` in the frame last read.
    pub fn shape(&self, id: u64) -> Option<&CapturedShape> {
        self.state.shape(id)
    }

    /// Where the shape with `id` was in the frame before the one last read (`None` when it was
    /// not there, or the last frame was the first).
    pub fn previous(&self, id: u64) -> Option<Placed> {
        self.state.previous(id)
    }

    /// Where it stands, to read shapes from on other threads.
    pub(in crate::capture) fn state(&self) -> &Keyframe {
        &self.state
    }

    /// The frame last read as a shape set: its shapes in the order they first appeared (named
    /// by their name, with the id added where a name repeats, or `id 5`), with their motion,
    /// the frame's claims on them and the capture's precision. Also the id of each shape, by
    /// its index in the set. What `fixture --frame` writes and the window's capture lab shows.
    pub fn scene(&self, frame: &Frame) -> (Scene, Vec<u64>) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for shape in self.shapes() {
            if let Some(name) = shape.name.as_deref() {
                *seen.entry(name).or_default() += 1;
            }
        }
        let mut ids = Vec::new();
        let shapes = self
            .shapes()
            .map(|shape| {
                ids.push(shape.id);
                let name = match shape.name.as_deref() {
                    Some(name) if seen.get(name) == Some(&1) => name.to_string(),
                    Some(name) => format!("{name} (id {})", shape.id),
                    None => format!("id {}", shape.id),
                };
                let mut scene_shape = SceneShape::new(Some(name), shape.placed.clone());
                scene_shape.motion = shape.motion;
                scene_shape
            })
            .collect();
        let mut scene = Scene::from_shapes(shapes);
        let index: HashMap<u64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        scene.claims = frame
            .claims
            .iter()
            .filter_map(|c| {
                let (a, b) = (*index.get(&c.a)?, *index.get(&c.b)?);
                Some(Claim {
                    a: scene.shapes[a].id,
                    b: scene.shapes[b].id,
                    reported: c.reported.clone(),
                })
            })
            .collect();
        scene.precision = match self.header.precision {
            Precision::F32 => Some(Precision::F32),
            Precision::F64 => None,
        };
        (scene, ids)
    }

    fn error(&self, problem: LineProblem) -> FileError {
        let place = match problem.column {
            Some(column) => format!("line {}, column {column}", self.state.line),
            None => format!("line {}", self.state.line),
        };
        FileError::new(
            &self.lines.path,
            Problem::Document(format!("{place}: {}", problem.message)),
        )
    }

    fn apply(&mut self, line: FrameLine) -> Result<Frame, LineProblem> {
        let FrameLine {
            frame,
            time,
            shapes,
            removed,
            claims,
            malformed,
        } = line;
        if let Some((before, before_time)) = self.state.last {
            // Every number from the file in checked arithmetic: a frame 2^64 - 1 has no next.
            let Some(next) = before.checked_add(1) else {
                return Err(format!(
                    "\"frame\" is {frame} after frame {before}, the largest frame number a capture can hold: no frame can follow it"
                )
                .into());
            };
            if frame != next {
                return Err(format!(
                    "\"frame\" is {frame}, but the line before is frame {before} (a capture holds every step: expected {next})"
                )
                .into());
            }
            if time < before_time {
                return Err(format!(
                    "\"time\" is {time}, earlier than frame {before}'s {before_time}"
                )
                .into());
            }
        }
        self.state.previous.clear();
        for (index, id) in removed.iter().enumerate() {
            let Some(slot) = self.state.slot_of.remove(id) else {
                return Err(format!(
                    "\"removed\" {index}: id {id} is not in the frame before{}",
                    self.gone(*id)
                )
                .into());
            };
            let shape = self.state.slots[slot]
                .take()
                .map(|s| Before::Placed(Box::new(s.placed)));
            self.state.previous.insert(*id, shape);
        }
        self.state.removed.record(&removed, frame);
        let gone = self.state.removed.as_of(frame);
        for (index, (id, keys)) in shapes.into_iter().enumerate() {
            if let Some(gone) = gone.get(id) {
                return Err(format!(
                    "shape {index} (id {id}): \"id\" {id} was removed at frame {gone} (a removed id never comes back)"
                )
                .into());
            }
            let place =
                |message: String| LineProblem::new(format!("shape {index} (id {id}): {message}"));
            match self.state.slot_of.get(&id) {
                Some(&slot) => {
                    let shape = self.state.slots[slot].as_mut().expect("a live slot");
                    let pose = shape.placed.pose;
                    let before = match change(shape, &keys).map_err(place)? {
                        Some(was) => Before::Placed(Box::new(was)),
                        None => Before::Pose(pose),
                    };
                    self.state.previous.entry(id).or_insert(Some(before));
                }
                None => {
                    let keys = match keys {
                        ShapeKeys::Pose(change) => change.keys(),
                        ShapeKeys::Keys(keys) => keys,
                    };
                    let shape = build(id, keys).map_err(place)?;
                    self.state.slot_of.insert(id, self.state.slots.len());
                    self.state.slots.push(Some(shape));
                    self.state.previous.entry(id).or_insert(None);
                }
            }
        }
        drop(gone);
        self.compact();
        // Each pair claimed so far, with the claim that claimed it.
        let mut seen: IdMap<(u64, u64), usize> =
            IdMap::with_capacity_and_hasher(claims.len(), Default::default());
        for (index, (a, b, reported)) in claims.iter().enumerate() {
            let fail = |message: String| {
                LineProblem::new(format!("claim {index} (ids {a} and {b}): {message}"))
            };
            let shape_of = |key: &str, id: u64| {
                self.shape(id).ok_or_else(|| {
                    fail(format!(
                        "{key:?} is id {id}, which is not in frame {frame}{}",
                        self.gone(id)
                    ))
                })
            };
            let (sa, sb) = (shape_of("a", *a)?, shape_of("b", *b)?);
            if let Some(first) = seen.insert((*a.min(b), *a.max(b)), index) {
                return Err(fail(format!(
                    "\"b\" is id {b}, but claim {first} already claims ids {a} and {b} in this frame (a pair at most once, in either order)"
                )));
            }
            // Only a pair with a chain, or a claim naming a piece, has a piece to check.
            let chain = |s: &CapturedShape| s.placed.shape.as_chain().is_some();
            if reported.piece.is_none() && !chain(sa) && !chain(sb) {
                continue;
            }
            let label = |s: &CapturedShape| {
                let mut label = format!("id {}", s.id);
                if let Some(name) = &s.name {
                    label.push_str(&format!(" {name:?}"));
                }
                label.push_str(&format!(" ({})", s.placed.shape.kind()));
                label
            };
            piece_problem(
                reported.piece,
                (&sa.placed.shape, label(sa)),
                (&sb.placed.shape, label(sb)),
            )
            .map_err(fail)?;
        }
        self.state.last = Some((frame, time));
        self.state.frames += 1;
        Ok(Frame {
            frame,
            time,
            claims: claims
                .into_iter()
                .map(|(a, b, reported)| FrameClaim { a, b, reported })
                .collect(),
            malformed,
            line: self.state.line,
        })
    }

    /// ` (removed at frame 8)` for an id that was removed, else nothing.
    fn gone(&self, id: u64) -> String {
        let now = self.state.last.map_or(0, |(frame, _)| frame);
        match self.state.removed.as_of(now).get(id) {
            Some(frame) => format!(" (removed at frame {frame})"),
            None => String::new(),
        }
    }

    /// Drop the holes once they are half the slots.
    fn compact(&mut self) {
        if self.state.slots.len() < 64 || self.state.slot_of.len() * 2 > self.state.slots.len() {
            return;
        }
        self.state.slots.retain(Option::is_some);
        self.state.slot_of = self
            .state
            .slots
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, s)| (s.id, i))
            .collect();
    }
}

/// A frame line, checked on its own: the common line by the typed path (`fast.rs`), anything
/// else (and every problem) by the full reader (`line.rs`).
fn frame_line(bytes: &[u8]) -> Result<FrameLine, LineProblem> {
    match crate::capture::format::fast::frame_line(bytes) {
        Some(line) => Ok(line),
        None => line::full_frame_line(bytes),
    }
}

/// The keys a shape entry may change without its geometry being built again.
const POSE_KEYS: [&str; 4] = ["position", "angle", "velocity", "angular_velocity"];

/// A new shape, checked as a shape-set file's shape is.
fn build(id: u64, mut keys: Map<String, Value>) -> Result<CapturedShape, String> {
    let mut pairing = crate::capture::Pairing::default();
    pairing.take_from(&mut keys)?;
    let shape =
        parse_shape(0, &Value::Object(keys), crate::scene::VERSION).map_err(shape_message)?;
    Ok(CapturedShape {
        id,
        name: shape.name.map(Arc::from),
        placed: shape.placed,
        motion: shape.motion,
        pairing,
    })
}

/// A shape-set problem without its `shape 0 ...` label (the capture names the shape itself),
/// its field quoted: `"radius" must be > 0, found -1`, `"points": not convex at point 2 ...`.
fn shape_message(problem: Problem) -> String {
    match problem {
        Problem::Shape {
            message,
            field: Some(field),
            ..
        } => match message.strip_prefix(field) {
            Some(rest) if rest.starts_with(' ') => format!("{field:?}{rest}"),
            _ => format!("{field:?}: {message}"),
        },
        Problem::Shape { message, .. } => message,
        other => other.to_string(),
    }
}

/// Change `shape` by the keys given: a pose (and the velocities of a moving body) in place,
/// anything else by building the shape again from its keys with these over them. Gives back
/// the shape as it was when it was built again.
fn change(shape: &mut CapturedShape, keys: &ShapeKeys) -> Result<Option<Placed>, String> {
    let moving = shape.motion.body != Body::Static;
    let rest;
    let keys = match keys {
        ShapeKeys::Pose(change) if moving || !change.moves() => {
            apply_pose(shape, change)?;
            return Ok(None);
        }
        // A static shape given a velocity: built again, which names the problem.
        ShapeKeys::Pose(change) => {
            rest = change.keys();
            &rest
        }
        // The filter and body change in place; the other keys as below.
        ShapeKeys::Keys(keys)
            if crate::capture::PAIRING_KEYS
                .iter()
                .any(|k| keys.contains_key(*k)) =>
        {
            let mut others = keys.clone();
            shape.pairing.take_from(&mut others)?;
            if others.is_empty() {
                return Ok(None);
            }
            rest = others;
            &rest
        }
        ShapeKeys::Keys(keys) => keys,
    };
    let kind = shape.placed.shape.kind();
    if let Some(Value::String(given)) = keys.get("kind")
        && given != kind.name()
    {
        return Err(format!(
            "\"kind\" is {}, but id {} is a {kind} (an id never changes kind)",
            spelled(&Value::String(given.clone())),
            shape.id
        ));
    }
    let in_place = keys.keys().all(|k| {
        matches!(k.as_str(), "position" | "angle") || (moving && POSE_KEYS.contains(&k.as_str()))
    });
    if in_place {
        return change_pose(shape, keys).map(|()| None);
    }
    let mut merged = shape_object(&SceneShape {
        id: crate::scene::ShapeId(0),
        name: shape.name.as_deref().map(str::to_string),
        placed: shape.placed.clone(),
        motion: shape.motion,
    });
    for (key, value) in keys {
        merged.insert(key.clone(), value.clone());
    }
    let mut rebuilt = build(shape.id, merged)?;
    rebuilt.pairing = shape.pairing;
    debug_assert_eq!(rebuilt.placed.shape.kind(), kind);
    Ok(Some(std::mem::replace(shape, rebuilt).placed))
}

fn change_pose(shape: &mut CapturedShape, keys: &Map<String, Value>) -> Result<(), String> {
    let fields = crate::files::Fields(keys);
    let change = PoseChange {
        position: fields.optional_point("position")?,
        angle: fields.optional_number("angle")?,
        velocity: fields.optional_point("velocity")?,
        angular_velocity: fields.optional_number("angular_velocity")?,
    };
    apply_pose(shape, &change)
}

fn apply_pose(shape: &mut CapturedShape, change: &PoseChange) -> Result<(), String> {
    let position = change.position.unwrap_or(shape.placed.pose.position);
    let angle = change.angle.unwrap_or_else(|| shape.placed.pose.angle());
    crate::capture::format::rules::within_reach(&shape.placed.shape, position)?;
    if let Some(v) = change.velocity {
        shape.motion.velocity = v;
    }
    if let Some(w) = change.angular_velocity {
        shape.motion.angular_velocity = w;
    }
    shape.placed.pose = Pose::new(position, angle);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const HEADER: &str = r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "box2d", "version": "3.2.0"}, "precision": "f32", "units": "m", "y_up": true}"#;

    fn circle(id: u64) -> String {
        format!(r#"{{"id": {id}, "kind": "circle", "radius": 1, "position": [{id}, 0]}}"#)
    }

    /// Lines' buffers given back are kept up to [`SPARE_BYTES`] (a whole batch of
    /// `diagnose`'s, where a count of 64 kept only part of one), and a line is read into a
    /// spare one with room for it and a little more, or into a new one where the spare is
    /// too small.
    #[test]
    fn spare_buffers_are_kept_by_their_bytes_and_reused_with_room() {
        let line = "x".repeat(1000);
        let text = format!("{line}\n{line}\n{line}\n");
        let mut lines = Lines::new(
            Path::new("spare.jsonl"),
            Box::new(Cursor::new(text.into_bytes())),
            (0, 0),
        );
        for _ in 0..100 {
            lines.give_back(Vec::with_capacity(1 << 20));
        }
        assert_eq!(lines.spare.len(), SPARE_BYTES >> 20);
        assert_eq!(lines.spare_bytes, SPARE_BYTES);
        // The first line's buffer was the empty one it started with; each line after is read
        // into a spare (1 MiB, room enough), and the one left for the next line has room for
        // a line an eighth longer than this one.
        let first = lines.raw_line().unwrap().unwrap();
        assert_eq!(first.bytes.len(), 1000);
        assert_eq!(lines.spare.len(), (SPARE_BYTES >> 20) - 1);
        assert_eq!(lines.spare_bytes, SPARE_BYTES - (1 << 20));
        assert!(lines.buffer.capacity() >= 1000 + 1000 / 8);
        lines.spare.push(Vec::with_capacity(10));
        lines.spare_bytes += 10;
        lines.raw_line().unwrap().unwrap();
        // Too small a spare is let go: a new buffer with the room wanted.
        assert_eq!(lines.spare.len(), (SPARE_BYTES >> 20) - 1);
        assert!(lines.buffer.capacity() >= 1000 + 1000 / 8);
        assert_eq!(
            lines.spare_bytes,
            lines.spare.iter().map(Vec::capacity).sum::<usize>()
        );
    }

    /// Keyframes share the record of removed ids (a game's bullets are kept once, not once
    /// per keyframe), and a reader resumed from an early keyframe, while another has read on,
    /// sees only the removals up to where it stands.
    #[test]
    fn keyframes_share_the_removed_ids_and_a_resumed_reader_sees_only_its_past() {
        let frame0 = format!(
            r#"{{"frame": 0, "time": 0, "shapes": [{}, {}, {}]}}"#,
            circle(1),
            circle(2),
            circle(3)
        );
        let rest = [
            r#"{"frame": 1, "time": 0.1, "removed": [1]}"#.to_string(),
            r#"{"frame": 2, "time": 0.2, "removed": [2]}"#.to_string(),
            format!(r#"{{"frame": 3, "time": 0.3, "shapes": [{}]}}"#, circle(4)),
        ]
        .join("\n");
        let text = format!("{HEADER}\n{frame0}\n{rest}\n");
        let path = Path::new("bullets.capture.jsonl");
        let mut reader = CaptureReader::new(path, Cursor::new(text.clone())).unwrap();
        reader.next_frame().unwrap().unwrap();
        let (early, offset) = (reader.keyframe(), reader.consumed());
        while reader.next_frame().unwrap().is_some() {}
        let late = reader.keyframe();
        assert!(early.removed.shared_with(&late.removed));
        assert_eq!(late.removed.as_of(3).get(1), Some(1));
        assert_eq!(early.removed.as_of(0).get(1), None);

        // Resumed at frame 0: ids 1 and 2 are still there to be removed.
        let tail = text.as_bytes()[offset as usize..].to_vec();
        let header = reader.header().clone();
        let mut resumed = CaptureReader::resume(
            path,
            header.clone(),
            (Cursor::new(tail), offset),
            early.clone(),
        );
        let frames: Vec<u64> = std::iter::from_fn(|| resumed.next_frame().unwrap())
            .map(|f| f.frame)
            .collect();
        assert_eq!(frames, [1, 2, 3]);

        // And an id removed before where the reader stands is refused as before.
        let again = format!(r#"{{"frame": 4, "time": 0.4, "shapes": [{}]}}"#, circle(1));
        let mut resumed = CaptureReader::resume(
            path,
            header,
            (Cursor::new(format!("{again}\n")), text.len() as u64),
            late,
        );
        let refused = resumed.next_frame().unwrap_err().to_string();
        assert!(
            refused.contains("\"id\" 1 was removed at frame 1"),
            "{refused}"
        );
    }
}
