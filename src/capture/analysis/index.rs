//! A capture opened to look around in, as the window's capture lab does: its frames are judged
//! on a thread of their own (every core, as `diagnose` does) while the first ones are already
//! shown, and the scan keeps what seeking needs: every few megabytes, the reader's state
//! ([`Keyframe`]) and where the next line starts. Showing frame k goes on from the last keyframe
//! before it (or from the frame shown, when that is nearer), so a capture of any length opens
//! in the time its first batch takes and is never held in memory. A compressed capture is
//! unpacked into a temporary file as it is scanned, since gzip cannot be read from the middle.

use crate::Cause;
use crate::capture::analysis::scan::{Watch, scan_capture};
use crate::capture::live::follow::{FollowEnd, Growing};
use crate::capture::{
    CaptureEvent, CaptureReader, EventFinder, Frame, FrameJudgement, Header, Keyframe, judge_frame,
};
use crate::capture::{MalformedWhat, display_name};
use crate::files::{FileError, Problem};
use crate::scene::Scene;
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, OnceLock};

/// A keyframe is kept after this many bytes of lines...
const KEY_BYTES: u64 = 16 << 20;
/// ...or this many frames, whichever comes first.
const KEY_FRAMES: usize = 2048;

/// The most text the window unpacks a compressed capture to (16 GiB, about 8 hours of 1,000
/// bodies): a capture that unpacks to more (a gzip bomb, or a game's whole week) is refused
/// there, never left to fill the disk.
pub const UNPACKED_LIMIT: u64 = 16 << 30;
/// At most this many disagreeing claims are listed (all are counted).
const MOST_LISTED: usize = 1_000_000;

/// One frame of the capture, as the scan found it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameEntry {
    /// The engine's step number.
    pub frame: u64,
    /// Simulated seconds.
    pub time: f64,
    /// How many claims it holds.
    pub claims: u32,
    /// How many of them disagree.
    pub disagreeing: u32,
}

/// A claim the index lists: one that disagrees with the exact result (the window's
/// "divergence"), or what the engine gave that the capture holds as malformed.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedClaim {
    /// Its frame's position in the capture (0 for the first frame).
    pub position: usize,
    /// Shape A's id.
    pub a: u64,
    /// Shape B's id.
    pub b: u64,
    /// The chain's piece it is about.
    pub piece: Option<usize>,
    /// The causes that reproduce it (none: no known mistake).
    pub causes: Vec<Cause>,
    /// A's and B's names to show.
    pub names: (String, String),
    /// Not a claim that disagrees but what the engine gave that the capture holds as
    /// malformed (a NaN pose, a zero normal): `a` and `b` are its shape's id (twice) or its
    /// claim's pair, 0 where they are not numbers.
    pub malformed: Option<crate::capture::Malformed>,
}

/// How far the scan has come.
#[derive(Clone, Debug, PartialEq)]
pub enum ScanState {
    /// Still reading: the share of the file read so far.
    Reading(f64),
    /// Every frame was read.
    Done,
    /// A line was refused: the frames before it are shown, the message says why.
    Refused(String),
}

/// A frame of the capture, read for showing: its shapes as a shape set (with the frame's
/// claims and the capture's precision), each shape's id, and its claims judged.
#[derive(Clone, Debug)]
pub struct ShownFrame {
    /// Its position in the capture.
    pub position: usize,
    /// The frame as read.
    pub frame: Frame,
    /// Its shapes and claims as a shape set.
    pub scene: Scene,
    /// The id of each of the scene's shapes, by its index.
    pub ids: Vec<u64>,
    /// The filter and body of each of the scene's shapes, by its index (as the capture gives
    /// them).
    pub pairings: Vec<crate::capture::Pairing>,
    /// The engine's speculative margin, from the header.
    pub margin: crate::capture::Margin,
    /// Its claims, judged.
    pub judged: FrameJudgement,
    /// The frame asked for beside it ([`CaptureIndex::request_beside`]: the one an event's
    /// picture needs), when it could be read.
    pub beside: Option<Box<ShownFrame>>,
}

impl ShownFrame {
    /// Why the engine may have left the pair of ids `a` and `b` out of this frame (the first
    /// stage that does, [`crate::capture::left_out`]), with each one's filter and body; `None` when
    /// either is not in the frame.
    pub fn left_out(
        &self,
        a: u64,
        b: u64,
    ) -> Option<(crate::capture::LeftOut, [crate::capture::Pairing; 2])> {
        let side = |id: u64| {
            let k = self.ids.iter().position(|i| *i == id)?;
            let shape = &self.scene.shapes[k];
            Some(crate::capture::PairMember {
                placed: &shape.placed,
                motion: &shape.motion,
                pairing: self.pairings.get(k).copied().unwrap_or_default(),
            })
        };
        let (a, b) = (side(a)?, side(b)?);
        Some((
            crate::capture::left_out(a, b, self.margin),
            [a.pairing, b.pairing],
        ))
    }
}

/// Where a reader may start again: before the frame at `next`, at byte `offset` of the text.
#[derive(Clone)]
struct Key {
    next: usize,
    offset: u64,
    state: Arc<Keyframe>,
}

/// What the scan thread sends.
enum Found {
    Batch {
        frames: Vec<FrameEntry>,
        divergences: Vec<ListedClaim>,
        key: Option<Key>,
        claims: u64,
        agreeing: u64,
    },
    /// Events the scan named (`seam`, `tunnelled`, ...), in order.
    Events(Vec<CaptureEvent>),
    Done(Option<String>),
    Refused(String),
}

/// The capture's text to seek in: the file itself, or its unpacked copy (removed on drop), or
/// the text in memory (a capture given as bytes: the browser's).
struct Text {
    path: PathBuf,
    temporary: bool,
    memory: Option<Arc<[u8]>>,
}

impl Drop for Text {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The reader of the frames shown, standing before the frame at `next`.
struct Cursor {
    reader: CaptureReader,
    next: usize,
}

/// A capture opened for showing: what the scan has found so far, and the frame shown.
pub struct CaptureIndex {
    path: PathBuf,
    header: Header,
    size: u64,
    read: Arc<AtomicU64>,
    frames: Vec<FrameEntry>,
    divergences: Vec<ListedClaim>,
    unlisted: u64,
    events: Vec<CaptureEvent>,
    keys: Vec<Key>,
    claims: u64,
    agreeing: u64,
    state: ScanState,
    warning: Option<String>,
    found: Receiver<Found>,
    /// While following the file as it is written, the flag that stops the scan at its end.
    following: Option<Arc<AtomicBool>>,
    /// When the scan last handed out frames.
    last_found: Option<std::time::Instant>,
    /// While following: why the followed file stopped being read, once it did.
    ended: Option<Arc<OnceLock<FollowEnd>>>,
    /// Reads the frames asked for with [`CaptureIndex::show`], on the caller's thread.
    seeker: Seeker,
    /// Reads the frames asked for with [`CaptureIndex::request`], on its own thread.
    worker: Option<Worker>,
}

/// Reads frames of the capture's text from its keyframes, going on from the last frame read
/// when the next asked for is ahead of it.
struct Seeker {
    path: PathBuf,
    header: Header,
    text: Arc<Text>,
    cursor: Option<Cursor>,
}

/// A frame asked of the reader thread: where, with the keyframes and frame count known then.
struct Request {
    position: usize,
    beside: Option<usize>,
    frames: usize,
    keys: Vec<Key>,
}

/// The reader thread of [`CaptureIndex::request`].
struct Worker {
    send: Sender<Request>,
    found: Receiver<(usize, Result<ShownFrame, FileError>)>,
    /// The latest position asked for whose frame has not come back yet.
    pending: Option<usize>,
}

impl Drop for CaptureIndex {
    fn drop(&mut self) {
        // A followed file would otherwise be waited on for ever.
        self.stop_following();
    }
}

/// Where a compressed capture is unpacked: `collidoscope-<process>-<n>.capture.jsonl` in the
/// temporary folder. The copy is removed when its index is dropped; the first call of a
/// process also removes the copies that processes no longer running left behind (killed, or
/// crashed), which are as large as the plain capture, gigabytes for a long one.
fn unpacked_copy_path() -> PathBuf {
    static COPIES: AtomicU64 = AtomicU64::new(0);
    static SWEPT: OnceLock<()> = OnceLock::new();
    let dir = std::env::temp_dir();
    SWEPT.get_or_init(|| remove_stale_copies(&dir));
    dir.join(format!(
        "collidoscope-{}-{}.capture.jsonl",
        std::process::id(),
        COPIES.fetch_add(1, Ordering::Relaxed)
    ))
}

/// The process that unpacked `name`, if it is one of the copies [`unpacked_copy_path`] names.
fn copy_owner(name: &str) -> Option<u32> {
    let rest = name
        .strip_prefix("collidoscope-")?
        .strip_suffix(".capture.jsonl")?;
    let (process, n) = rest.split_once('-')?;
    n.parse::<u64>().ok()?;
    process.parse().ok()
}

/// Removes from `dir` the unpacked copies whose process no longer runs. Only where a running
/// process can be told (Linux's `/proc`); elsewhere the copies of killed processes stay.
fn remove_stale_copies(dir: &Path) {
    let proc = Path::new("/proc/self");
    if !cfg!(target_os = "linux") || !proc.exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name.to_str().and_then(copy_owner) else {
            continue;
        };
        if owner != std::process::id() && !Path::new(&format!("/proc/{owner}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether `file` starts with gzip's magic bytes (it is left at its start).
fn is_gzip(file: &mut File) -> std::io::Result<bool> {
    let mut magic = [0u8; 2];
    let compressed = file.read_exact(&mut magic).is_ok() && magic == [0x1f, 0x8b];
    file.seek(SeekFrom::Start(0))?;
    Ok(compressed)
}

impl std::fmt::Debug for CaptureIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureIndex")
            .field("path", &self.path)
            .field("frames", &self.frames.len())
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

/// A file read through, counting the bytes.
struct Counted {
    file: File,
    read: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl CaptureIndex {
    /// Open the capture at `path`: its header is read (and refused) at once; its frames are
    /// scanned on another thread, found by [`Self::update`]. A compressed capture is unpacked
    /// into the temporary folder, up to [`UNPACKED_LIMIT`].
    pub fn open(path: &Path) -> Result<Self, FileError> {
        Self::open_unpacking_at_most(path, UNPACKED_LIMIT)
    }

    /// [`Self::open`], unpacking a compressed capture up to `bytes` of text: past that the scan
    /// stops with a refusal that says so (the frames before it are kept).
    pub fn open_unpacking_at_most(path: &Path, bytes: u64) -> Result<Self, FileError> {
        let fail = |e| FileError::new(path, Problem::io("cannot read the file", e));
        let mut file = File::open(path).map_err(fail)?;
        let size = file.metadata().map_err(fail)?.len();
        let compressed = is_gzip(&mut file).map_err(fail)?;
        let read = Arc::new(AtomicU64::new(0));
        let counted = Counted {
            file,
            read: read.clone(),
        };
        let reader = CaptureReader::reading_ahead(path, counted)?;
        Self::start(path, reader, (size, read), (compressed, bytes), None, None)
    }

    /// Open a capture given as bytes (the browser's picker or a drop), named `name` in
    /// messages: plain or gzip, unpacked in memory up to [`UNPACKED_LIMIT`]. Its frames are
    /// scanned as [`Self::open`] scans them: on another thread where there are threads, else
    /// here, before this returns.
    ///
    /// # Errors
    /// The header refused, a gzip stream that cannot be unpacked, or more than the limit.
    pub fn from_bytes(name: &Path, bytes: Vec<u8>) -> Result<Self, FileError> {
        let text: Arc<[u8]> = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = Vec::new();
            flate2::read::MultiGzDecoder::new(bytes.as_slice())
                .take(UNPACKED_LIMIT + 1)
                .read_to_end(&mut text)
                .map_err(|e| FileError::new(name, Problem::io("cannot unpack the capture", e)))?;
            if text.len() as u64 > UNPACKED_LIMIT {
                return Err(FileError::new(
                    name,
                    Problem::Document(format!(
                        "it unpacks to more than {}, the most the window unpacks",
                        crate::files::bytes(UNPACKED_LIMIT)
                    )),
                ));
            }
            text.into()
        } else {
            bytes.into()
        };
        let size = text.len() as u64;
        let read = Arc::new(AtomicU64::new(size));
        let reader = CaptureReader::new(name, std::io::Cursor::new(text.clone()))?;
        Self::start(
            name,
            reader,
            (size, read),
            (false, UNPACKED_LIMIT),
            None,
            Some(text),
        )
    }

    /// Follow the capture at `path` as the game writes it (a capture still being written,
    /// plain or gzip): the scan waits at the file's end for the next frame instead of ending
    /// there, and hands out each frame as soon as it is read, until
    /// [`Self::stop_following`] (or the index is dropped). Its header must be written
    /// already: a file with no header yet is refused ([`Self::header_written`] says when to
    /// try).
    pub fn follow(path: &Path) -> Result<Self, FileError> {
        let fail = |e| FileError::new(path, Problem::io("cannot read the file", e));
        let mut file = File::open(path).map_err(fail)?;
        let compressed = is_gzip(&mut file).map_err(fail)?;
        if !Self::header_written(path) {
            return Err(FileError::new(
                path,
                Problem::Document(
                    "no capture header yet: its first line is not a collidoscope-capture header"
                        .into(),
                ),
            ));
        }
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let growing = Growing::open(path, None, stop.clone()).map_err(fail)?;
        let done = growing.done();
        let ended = growing.end_watch();
        let read = Arc::new(AtomicU64::new(0));
        let reader = CaptureReader::new(path, growing)?;
        let mut index = Self::start(
            path,
            reader,
            (0, read),
            (compressed, UNPACKED_LIMIT),
            Some((stop, done)),
            None,
        )?;
        index.ended = Some(ended);
        Ok(index)
    }

    /// How the capture began again, when following ended because it did (the file written
    /// again from its start, or another file at its path: a game run again): follow it again
    /// for the new run.
    pub fn began_again(&self) -> Option<FollowEnd> {
        let ended = self.ended.as_ref()?.get().copied()?;
        (ended.began_again() && !self.is_live()).then_some(ended)
    }

    /// Whether the file at `path` has a whole capture header written (what
    /// [`Self::follow`] needs to start).
    pub fn header_written(path: &Path) -> bool {
        crate::capture::is_capture(path)
    }

    /// The scan started on `reader`: the file's size and the bytes read so far (for the
    /// share read), whether it is compressed and the most it may unpack to, and when
    /// following, the flag that stops it and the one the file sets once its end was met.
    fn start(
        path: &Path,
        reader: CaptureReader,
        (size, read): (u64, Arc<AtomicU64>),
        (compressed, bytes): (bool, u64),
        follow: Option<(Arc<AtomicBool>, Arc<AtomicBool>)>,
        memory: Option<Arc<[u8]>>,
    ) -> Result<Self, FileError> {
        let header = reader.header().clone();
        let in_memory = memory.is_some();
        let (text, copy) = if compressed {
            let copy = unpacked_copy_path();
            let out = File::create(&copy).map_err(|e| {
                FileError::new(
                    &copy,
                    Problem::io("cannot unpack the compressed capture here", e),
                )
            })?;
            let text = Text {
                path: copy,
                temporary: true,
                memory: None,
            };
            (text, Some(BufWriter::with_capacity(1 << 20, out)))
        } else {
            let text = Text {
                path: path.to_path_buf(),
                temporary: false,
                memory,
            };
            (text, None)
        };
        let (text, reader_header) = (Arc::new(text), header.clone());
        let (send, found) = channel();
        let (stop, done) = follow.unzip();
        // Where no thread can be had (the browser), a capture in memory is scanned here,
        // whole, before it is shown.
        if in_memory && cfg!(target_arch = "wasm32") {
            scan(reader, None, done, send);
        } else {
            std::thread::Builder::new()
                .name("capture scan".into())
                .spawn(move || scan(reader, copy.map(|out| (out, bytes)), done, send))
                .map_err(|e| FileError::new(path, Problem::io("cannot start reading", e)))?;
        }
        Ok(Self {
            path: path.to_path_buf(),
            header,
            size,
            read,
            frames: Vec::new(),
            divergences: Vec::new(),
            events: Vec::new(),
            unlisted: 0,
            keys: Vec::new(),
            claims: 0,
            agreeing: 0,
            state: ScanState::Reading(0.0),
            warning: None,
            found,
            following: stop,
            ended: None,
            last_found: None,
            seeker: Seeker {
                path: path.to_path_buf(),
                header: reader_header,
                text,
                cursor: None,
            },
            worker: None,
        })
    }

    /// Whether the capture is followed as it is written and the scan still waits for frames.
    pub fn is_live(&self) -> bool {
        self.following.is_some() && matches!(self.state, ScanState::Reading(_))
    }

    /// Stop following: the scan reads what is written now and ends there.
    pub fn stop_following(&mut self) {
        if let Some(stop) = &self.following {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// When the scan last handed out a frame (while following: how long the game has been
    /// quiet).
    pub fn last_found(&self) -> Option<std::time::Instant> {
        self.last_found
    }

    /// How many keyframes the scan kept so far (places a jump can start reading from).
    pub fn keyframes(&self) -> usize {
        self.keys.len()
    }

    /// Take in what the scan found since the last call; whether anything was.
    pub fn update(&mut self) -> bool {
        let mut any = false;
        while let Ok(found) = self.found.try_recv() {
            any = true;
            match found {
                Found::Batch {
                    frames,
                    divergences,
                    key,
                    claims,
                    agreeing,
                } => {
                    // Only a capture followed keeps the clock (the browser has no std clock).
                    if !frames.is_empty() && self.following.is_some() {
                        self.last_found = Some(std::time::Instant::now());
                    }
                    self.frames.extend(frames);
                    let room = MOST_LISTED.saturating_sub(self.divergences.len());
                    self.unlisted += divergences.len().saturating_sub(room) as u64;
                    self.divergences.extend(divergences.into_iter().take(room));
                    self.keys.extend(key);
                    self.claims += claims;
                    self.agreeing += agreeing;
                }
                Found::Events(events) => self.events.extend(events),
                Found::Done(warning) => {
                    self.state = ScanState::Done;
                    self.warning = warning;
                }
                Found::Refused(message) => self.state = ScanState::Refused(message),
            }
        }
        if let ScanState::Reading(share) = &mut self.state
            && self.following.is_none()
        {
            let read = self.read.load(Ordering::Relaxed) as f64;
            *share = (read / self.size.max(1) as f64).min(1.0);
        }
        any
    }

    /// Where to read the capture again from its start: its file, or the bytes it was given.
    pub fn source(&self) -> crate::capture::CaptureSource {
        match &self.seeker.text.memory {
            Some(bytes) => crate::capture::CaptureSource::Bytes {
                name: self.path.clone(),
                bytes: bytes.clone(),
            },
            None => crate::capture::CaptureSource::File(self.path.clone()),
        }
    }

    /// The file, as it was named.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Every frame found so far, in order.
    pub fn frames(&self) -> &[FrameEntry] {
        &self.frames
    }

    /// Every disagreeing claim found so far, in order (the first million; see
    /// [`Self::unlisted`]).
    pub fn divergences(&self) -> &[ListedClaim] {
        &self.divergences
    }

    /// Every event named so far (docs/format.md, "events"), in order.
    pub fn events(&self) -> &[CaptureEvent] {
        &self.events
    }

    /// The position of the frame numbered `frame` (the engine's step number), if read.
    pub fn position_of(&self, frame: u64) -> Option<usize> {
        let k = self.frames.partition_point(|f| f.frame < frame);
        (self.frames.get(k)?.frame == frame).then_some(k)
    }

    /// Disagreeing claims past the first million: counted, not listed.
    pub fn unlisted(&self) -> u64 {
        self.unlisted
    }

    /// Claims found so far, and how many of them agree.
    pub fn counts(&self) -> (u64, u64) {
        (self.claims, self.agreeing)
    }

    /// How far the scan has come.
    pub fn state(&self) -> &ScanState {
        &self.state
    }

    /// The warning about a last line cut off by a crash, once the scan met it.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Read the frame at `position` (its place in the capture, 0 for the first) from the
    /// nearest keyframe before it, or on from the frame read last when it is ahead, on the
    /// caller's thread; [`Self::request`] reads on another.
    pub fn show(&mut self, position: usize) -> Result<ShownFrame, FileError> {
        self.seeker.show(&self.keys, self.frames.len(), position)
    }

    /// Ask for the frame at `position` to be read on the index's reader thread (started at the
    /// first request): what the window does while the user scrubs, so that it never waits on
    /// the file. The latest request wins: ones not started when a newer comes are dropped.
    /// Its frame comes back through [`Self::take_shown`].
    pub fn request(&mut self, position: usize) {
        self.request_beside(position, None);
    }

    /// [`Self::request`], with the frame at `beside` read after it on the same thread and
    /// given with it ([`ShownFrame::beside`]): the next frame, or the earlier one, that an
    /// event's picture draws.
    pub fn request_beside(&mut self, position: usize, beside: Option<usize>) {
        let worker = self.worker.get_or_insert_with(|| {
            let mut seeker = Seeker {
                path: self.seeker.path.clone(),
                header: self.seeker.header.clone(),
                text: self.seeker.text.clone(),
                cursor: None,
            };
            let (send, asked) = channel::<Request>();
            let (tell, found) = channel();
            let spawned = std::thread::Builder::new()
                .name("capture frames".into())
                .spawn(move || {
                    while let Ok(mut request) = asked.recv() {
                        // The latest asked for wins.
                        while let Ok(newer) = asked.try_recv() {
                            request = newer;
                        }
                        let shown = seeker.show_beside(&request);
                        if tell.send((request.position, shown)).is_err() {
                            return;
                        }
                    }
                });
            // No thread to be had: the request is answered on this one (below).
            let _ = spawned;
            Worker {
                send,
                found,
                pending: None,
            }
        });
        worker.pending = Some(position);
        let request = Request {
            position,
            beside,
            frames: self.frames.len(),
            keys: self.keys.clone(),
        };
        if let Err(std::sync::mpsc::SendError(request)) = worker.send.send(request) {
            // The reader thread is gone (or never started): read here.
            let shown = self.seeker.show_beside(&request);
            let (tell, found) = channel();
            let _ = tell.send((position, shown));
            worker.found = found;
        }
    }

    /// The position asked for with [`Self::request`] whose frame has not been taken yet.
    pub fn pending(&self) -> Option<usize> {
        self.worker.as_ref().and_then(|w| w.pending)
    }

    /// The newest frame read since the last call, with the position asked for, if one is ready (waiting up to `wait` for
    /// one): while the user scrubs, the frame read for a request already overtaken still
    /// shows (it was under the pointer a read ago), so the window follows the pointer instead
    /// of waiting for it to stop. [`Self::pending`] clears once the latest request's frame
    /// is taken.
    pub fn take_shown(
        &mut self,
        wait: std::time::Duration,
    ) -> Option<(usize, Result<ShownFrame, FileError>)> {
        let worker = self.worker.as_mut()?;
        worker.pending?;
        // Where there is no thread (the browser) the frame was read when asked for, and the
        // clock a timed wait needs is not std's.
        let mut newest = if cfg!(target_arch = "wasm32") || wait.is_zero() {
            worker.found.try_recv().ok()?
        } else {
            worker.found.recv_timeout(wait).ok()?
        };
        while let Ok(newer) = worker.found.try_recv() {
            newest = newer;
        }
        let (position, shown) = newest;
        if worker.pending == Some(position) {
            worker.pending = None;
        }
        Some((position, shown))
    }
}

impl Seeker {
    /// The frame a request asks for, with the one it asks for beside it.
    fn show_beside(&mut self, request: &Request) -> Result<ShownFrame, FileError> {
        let (keys, frames) = (&request.keys, request.frames);
        let mut shown = self.show(keys, frames, request.position)?;
        shown.beside = request
            .beside
            .and_then(|q| self.show(keys, frames, q).ok())
            .map(Box::new);
        Ok(shown)
    }

    /// [`CaptureIndex::show`] with the keyframes and frame count known now.
    fn show(
        &mut self,
        keys: &[Key],
        frames: usize,
        position: usize,
    ) -> Result<ShownFrame, FileError> {
        if position >= frames {
            return Err(FileError::new(
                &self.path,
                Problem::Document(format!(
                    "frame position {position}: the capture has {frames} frames so far"
                )),
            ));
        }
        let key = keys.iter().rev().find(|k| k.next <= position);
        let cursor_usable = self
            .cursor
            .as_ref()
            .is_some_and(|c| c.next <= position && key.is_none_or(|k| c.next >= k.next));
        if !cursor_usable {
            let Some(key) = key else {
                return Err(FileError::new(
                    &self.path,
                    Problem::Document("the capture is still being opened".into()),
                ));
            };
            let fail = |e| FileError::new(&self.text.path, Problem::io("cannot read the file", e));
            let input: Box<dyn Read + Send> = match &self.text.memory {
                Some(text) => {
                    let mut memory = std::io::Cursor::new(text.clone());
                    memory.set_position(key.offset);
                    Box::new(memory)
                }
                None => {
                    let mut file = File::open(&self.text.path).map_err(fail)?;
                    file.seek(SeekFrom::Start(key.offset)).map_err(fail)?;
                    Box::new(file)
                }
            };
            let reader = CaptureReader::resume(
                &self.path,
                self.header.clone(),
                (input, key.offset),
                (*key.state).clone(),
            );
            self.cursor = Some(Cursor {
                reader,
                next: key.next,
            });
        }
        let cursor = self.cursor.as_mut().expect("a cursor was just made");
        // The frames before the one asked for are passed: the scan has read them whole and
        // found them good, and only where they leave the shapes matters for the one shown.
        if cursor.next < position {
            match cursor.reader.pass_frames(position - cursor.next) {
                Ok(passed) => cursor.next += passed,
                Err(e) => {
                    self.cursor = None;
                    return Err(e);
                }
            }
        }
        loop {
            let read = cursor.reader.next_frame();
            let frame = match read {
                Ok(Some(frame)) => frame,
                Ok(None) => {
                    self.cursor = None;
                    return Err(FileError::new(
                        &self.path,
                        Problem::Document(format!(
                            "frame position {position}: the file ended before it"
                        )),
                    ));
                }
                Err(e) => {
                    self.cursor = None;
                    return Err(e);
                }
            };
            cursor.next += 1;
            if cursor.next > position {
                let (scene, ids) = cursor.reader.scene(&frame);
                let pairings = ids
                    .iter()
                    .map(|id| {
                        cursor
                            .reader
                            .shape(*id)
                            .map(|s| s.pairing)
                            .unwrap_or_default()
                    })
                    .collect();
                let margin =
                    crate::capture::Margin::of_settings(&cursor.reader.header().engine.settings);
                let judged = judge_frame(&cursor.reader, &frame);
                return Ok(ShownFrame {
                    position,
                    frame,
                    scene,
                    ids,
                    pairings,
                    margin,
                    judged,
                    beside: None,
                });
            }
        }
    }
}

/// The scan: every frame judged in order, batches sent as they are done, a keyframe kept every
/// so often; a compressed capture's lines copied out for seeking. `copy` is where a compressed
/// capture's text is unpacked to, with the most bytes it may take.
/// `done`, when the file is followed, is set once its end was met for good: a gzip stream
/// cut there is its end, not damage.
fn scan(
    mut reader: CaptureReader,
    copy: Option<(BufWriter<File>, u64)>,
    done: Option<Arc<AtomicBool>>,
    send: Sender<Found>,
) {
    let following = done.is_some();
    let limit = copy.as_ref().map_or(u64::MAX, |(_, limit)| *limit);
    let copy = RefCell::new(copy.map(|(out, _)| (out, 0u64)));
    let copy_failed: RefCell<Option<String>> = RefCell::default();
    let start = reader.consumed();
    let first = Key {
        next: 0,
        offset: if copy.borrow().is_some() { 0 } else { start },
        state: Arc::new(reader.keyframe()),
    };
    let batch = RefCell::new((Vec::new(), Vec::new(), 0u64, 0u64));
    let position = RefCell::new(0usize);
    let since_key = RefCell::new((0u64, 0usize));
    let mut key = Some(first);
    let mut finder = EventFinder::for_capture(reader.header());
    let events: RefCell<Vec<CaptureEvent>> = RefCell::default();
    let each = |mut judged: FrameJudgement| {
        events.borrow_mut().append(&mut judged.events);
        let mut position = position.borrow_mut();
        let mut batch = batch.borrow_mut();
        let (frames, divergences, claims, agreeing) = &mut *batch;
        let mut disagreeing = 0;
        for claim in &judged.claims {
            *claims += 1;
            if claim.agrees() {
                *agreeing += 1;
                continue;
            }
            disagreeing += 1;
            divergences.push(ListedClaim {
                position: *position,
                a: claim.a,
                b: claim.b,
                piece: claim.piece(),
                causes: claim.causes().collect(),
                names: claim.display_names(),
                malformed: None,
            });
        }
        for m in std::mem::take(&mut judged.malformed) {
            disagreeing += 1;
            let (a, b) = match m.what {
                MalformedWhat::Shape { id } => (id.unwrap_or(0), id.unwrap_or(0)),
                MalformedWhat::Claim { a, b } => (a.unwrap_or(0), b.unwrap_or(0)),
            };
            divergences.push(ListedClaim {
                position: *position,
                a,
                b,
                piece: None,
                causes: Vec::new(),
                names: (display_name(a, None), display_name(b, None)),
                malformed: Some(m),
            });
        }
        frames.push(FrameEntry {
            frame: judged.frame,
            time: judged.time,
            claims: judged.claims.len() as u32,
            disagreeing,
        });
        *position += 1;
        true
    };
    let watch = Watch {
        line: Box::new(|raw| {
            if let Some((out, at)) = &mut *copy.borrow_mut() {
                let size = raw.bytes().len() as u64 + 1;
                if at.saturating_add(size) > limit {
                    copy_failed.borrow_mut().get_or_insert(format!(
                        "it unpacks to more than {}, the most the window unpacks (`collidoscope diagnose` reads it as a stream, with no copy)",
                        crate::files::bytes(limit)
                    ));
                    return false;
                }
                let written = out
                    .write_all(raw.bytes())
                    .and_then(|()| out.write_all(b"\n"));
                if let Err(e) = written {
                    copy_failed.borrow_mut().get_or_insert(e.to_string());
                    return false;
                }
                *at += size;
            }
            since_key.borrow_mut().0 += raw.len() as u64;
            true
        }),
        batch: Box::new(|reader| {
            let mut copy = copy.borrow_mut();
            if let Some((out, _)) = &mut *copy
                && let Err(e) = out.flush()
            {
                copy_failed.borrow_mut().get_or_insert(e.to_string());
            }
            if copy_failed.borrow().is_some() {
                // The batch's text may not all be in the copy: its frames cannot be shown.
                *batch.borrow_mut() = Default::default();
                return false;
            }
            let (frames, divergences, claims, agreeing) = std::mem::take(&mut *batch.borrow_mut());
            let mut since = since_key.borrow_mut();
            since.1 += frames.len();
            let next = *position.borrow();
            let due = since.0 >= KEY_BYTES || since.1 >= KEY_FRAMES;
            let new_key = due.then(|| {
                *since = (0, 0);
                Key {
                    next,
                    offset: match &*copy {
                        Some((_, at)) => *at,
                        None => reader.consumed(),
                    },
                    state: Arc::new(reader.keyframe()),
                }
            });
            // The first batch carries the keyframe before the first frame.
            let key = key.take().into_iter().chain(new_key);
            let named = std::mem::take(&mut *events.borrow_mut());
            send_keys(&send, frames, divergences, key, (claims, agreeing))
                && (named.is_empty() || send.send(Found::Events(named)).is_ok())
        }),
        events: Some(&mut finder),
        lines: if following {
            1
        } else {
            crate::capture::analysis::scan::BATCH_LINES
        },
    };
    let result = scan_capture(&mut reader, each, watch);
    // A refused line (or the unpacking limit) leaves the frames before it unsent: they are
    // shown all the same, once their text is in the copy (the frames are asked for as soon as
    // they arrive, before this thread ends and its writer is dropped).
    if let Some((out, _)) = &mut *copy.borrow_mut()
        && let Err(e) = out.flush()
    {
        copy_failed.borrow_mut().get_or_insert(e.to_string());
        *batch.borrow_mut() = Default::default();
    }
    let (frames, divergences, claims, agreeing) = batch.take();
    if (!frames.is_empty() || key.is_some())
        && !send_keys(
            &send,
            frames,
            divergences,
            key.into_iter(),
            (claims, agreeing),
        )
    {
        return;
    }
    let mut named = events.take();
    named.extend(finder.finish());
    if !named.is_empty() && send.send(Found::Events(named)).is_err() {
        return;
    }
    let last = match (result, copy_failed.take()) {
        (_, Some(problem)) => Found::Refused(format!(
            "{}: cannot unpack the compressed capture into the temporary folder: {problem}",
            reader.path().display()
        )),
        (Ok(()), None) => Found::Done(reader.warning().map(str::to_string)),
        (Err(_), None) if done.is_some_and(|d| d.load(Ordering::Relaxed)) => Found::Done(None),
        (Err(e), None) => Found::Refused(e.to_string()),
    };
    let _ = send.send(last);
}

/// Send a batch (a second keyframe, when there is one, as a batch of its own); whether the
/// window still listens.
fn send_keys(
    send: &Sender<Found>,
    frames: Vec<FrameEntry>,
    divergences: Vec<ListedClaim>,
    keys: impl Iterator<Item = Key>,
    (claims, agreeing): (u64, u64),
) -> bool {
    let mut keys = keys;
    let first = send.send(Found::Batch {
        frames,
        divergences,
        key: keys.next(),
        claims,
        agreeing,
    });
    first.is_ok()
        && keys.all(|key| {
            send.send(Found::Batch {
                frames: Vec::new(),
                divergences: Vec::new(),
                key: Some(key),
                claims: 0,
                agreeing: 0,
            })
            .is_ok()
        })
}

#[cfg(test)]
mod tests {
    use super::{copy_owner, remove_stale_copies};
    use std::path::Path;

    #[test]
    fn only_the_copies_of_processes_no_longer_running_are_swept() {
        assert_eq!(copy_owner("collidoscope-412-3.capture.jsonl"), Some(412));
        assert_eq!(copy_owner("collidoscope-412.capture.jsonl"), None);
        assert_eq!(copy_owner("collidoscope-412-x.capture.jsonl"), None);
        assert_eq!(copy_owner("collidoscope-412-3.capture.jsonl.gz"), None);
        if !Path::new("/proc/self").exists() {
            return;
        }
        let dir = std::env::temp_dir().join(format!("collidoscope-sweep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gone = (1..4_000_000u32)
            .rev()
            .find(|pid| !Path::new(&format!("/proc/{pid}")).exists())
            .unwrap();
        let own = std::process::id();
        let names = [
            format!("collidoscope-{gone}-0.capture.jsonl"),
            format!("collidoscope-{gone}-7.capture.jsonl"),
            format!("collidoscope-{own}-0.capture.jsonl"),
            "collidoscope-1-0.capture.jsonl".to_owned(),
            format!("collidoscope-{gone}.capture.jsonl"),
            format!("mine-{gone}-0.capture.jsonl"),
        ];
        for name in &names {
            std::fs::write(dir.join(name), "{}").unwrap();
        }
        remove_stale_copies(&dir);
        let left: Vec<bool> = names.iter().map(|name| dir.join(name).exists()).collect();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(left, [false, false, true, true, true, true]);
    }
}
