//! A capture streamed to a window on this machine while the game runs, as rerun's `spawn()`
//! and PhysX's visual debugger connect a game to their viewers: the same lines a capture file
//! holds, over a loopback socket.
//!
//! The game side is [`ToWindow`], an output for [`crate::capture::CaptureWriter`] (and so for every
//! engine adapter): it connects on a thread of its own, starting `collidoscope --listen` when
//! no window answers, and never blocks the game or fails it. Frames that find no window, or a
//! window that has fallen behind (more than [`QUEUE_FRAMES`] waiting), are dropped and
//! counted, never queued without bound; the frame sent after a gap carries every shape in full
//! (and the ids removed meanwhile), so the window's copy stays exact.
//!
//! The window side is [`Listener`]: bound to 127.0.0.1 only, one game at a time, each
//! connection read by the capture reader's rules ([`receive`]) into a capture file that the
//! capture lab follows as it grows. A line the reader refuses ends that connection with its
//! message; every frame before it is kept.

use crate::capture::{CaptureReader, Header};
use crate::files::FileError;
use serde_json::value::RawValue;
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The port a window listens on and a game connects to when none is named.
pub const DEFAULT_PORT: u16 = 9713;

/// At most this many frames wait for a slow window (two seconds at 60 steps a second); past
/// that, frames are dropped.
pub const QUEUE_FRAMES: usize = 120;

/// The program a game starts when no window answers: `COLLIDOSCOPE_BIN` when set, else
/// `collidoscope` on the path.
pub const BIN_VARIABLE: &str = "COLLIDOSCOPE_BIN";

/// How often a game looks for a window again while none answers.
const RETRY: Duration = Duration::from_millis(250);

/// What the game side of a link has done so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Whether a window is connected now.
    pub connected: bool,
    /// Frames handed to a window.
    pub sent: u64,
    /// Frames dropped: no window, or a window too far behind.
    pub dropped: u64,
    /// Connections made (a window restarted counts again).
    pub connections: u64,
    /// Why no window could be started or reached, when that is known.
    pub problem: Option<String>,
}

/// What the game's writer and its link thread share.
#[derive(Default)]
struct Shared {
    connected: AtomicBool,
    /// Bumped at each connection: lines made for an earlier one are not sent on it.
    generation: AtomicU64,
    sent: AtomicU64,
    dropped: AtomicU64,
    problem: Mutex<Option<String>>,
    /// The game is gone: send what is queued, then end.
    closing: AtomicBool,
}

/// Bytes for the link thread to send on the connection they were made for.
struct Message {
    generation: u64,
    bytes: Vec<u8>,
}

/// Where the window stands, as the game last sent to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InStep {
    /// Every frame so far reached it: the next goes as written.
    Yes,
    /// It missed frames: a capture holds every step, so the next begins another (the
    /// header, then a frame in full), on the same connection.
    Behind,
    /// A new connection: the header first, then a frame in full.
    New,
}

/// A capture's output that streams it to a window on this machine (see the module's
/// comment). Give it to [`crate::capture::CaptureWriter::new`] (not `compressed`: the lines go over
/// the socket as text).
///
/// ```no_run
/// use collidoscope::capture::{CaptureWriter, Engine, Header, NormalFrom, Penetration, ToWindow};
///
/// let header = Header::f32_metres(Engine::new("my-engine", "1.0"));
/// // Connects to the window on the default port, starting `collidoscope --listen` if none runs.
/// let mut writer = CaptureWriter::new(ToWindow::spawn(), &header, NormalFrom::AToB, Penetration::NegativeSeparation).unwrap();
/// // writer.frame(...) each step, as for a file.
/// ```
pub struct ToWindow {
    shared: Arc<Shared>,
    send: Option<SyncSender<Message>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Bytes written and not yet a whole line.
    pending: Vec<u8>,
    /// The header's line (without its newline), once written.
    header: Option<Vec<u8>>,
    /// Every shape's keys as last written (to send a frame in full after a gap).
    state: Written,
    in_step: InStep,
    /// The connection the last frame was sent on.
    generation: u64,
}

impl ToWindow {
    /// Stream to the window listening on the default port, starting one
    /// (`collidoscope --listen`) if none answers.
    pub fn spawn() -> Self {
        Self::start(DEFAULT_PORT, true)
    }

    /// Stream to the window listening on `port`, never starting one: frames are dropped
    /// until a window listens there (File > Listen for a game, or `collidoscope --listen`).
    pub fn connect(port: u16) -> Self {
        Self::start(port, false)
    }

    /// Stream to `port`, starting a window listening there if none answers.
    pub fn spawn_on(port: u16) -> Self {
        Self::start(port, true)
    }

    fn start(port: u16, spawn: bool) -> Self {
        let shared = Arc::new(Shared::default());
        let (send, queue) = std::sync::mpsc::sync_channel(QUEUE_FRAMES);
        let link = shared.clone();
        let thread = std::thread::Builder::new()
            .name("collidoscope link".into())
            .spawn(move || run_link(port, spawn, &link, &queue))
            .map_err(|e| {
                *shared
                    .problem
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) =
                    Some(format!("cannot start the link's thread: {e}"));
            })
            .ok();
        Self {
            shared,
            send: Some(send),
            thread,
            pending: Vec::new(),
            header: None,
            state: Written::default(),
            in_step: InStep::New,
            generation: 0,
        }
    }

    /// What the link has done so far.
    pub fn stats(&self) -> LinkStats {
        self.watch().stats()
    }

    /// Wait up to `timeout` for a window to connect (starting one takes a second or two):
    /// for a game that would rather not lose its first frames, once, before its first step.
    /// Whether one did. The only call of the link that waits.
    pub fn wait_for_window(&self, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        while !self.shared.connected.load(Ordering::Relaxed) {
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    /// A handle that says what the link has done, kept after the writer takes this output.
    pub fn watch(&self) -> LinkWatch {
        LinkWatch {
            shared: self.shared.clone(),
        }
    }

    /// Take in one whole line the writer wrote (without its newline).
    fn line(&mut self, line: &[u8]) -> io::Result<()> {
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        let Some(header) = &self.header else {
            // The header, checked as the reader checks it.
            let mut text = line.to_vec();
            text.push(b'\n');
            CaptureReader::new(Path::new("(to the window)"), io::Cursor::new(text))
                .map_err(|e| invalid(e.to_string()))?;
            self.header = Some(line.to_vec());
            return Ok(());
        };
        let header = header.clone();
        self.state.take_line(line).map_err(invalid)?;
        let dropped = || {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
        };
        if !self.shared.connected.load(Ordering::Relaxed) {
            dropped();
            self.in_step = InStep::New;
            return Ok(());
        }
        let generation = self.shared.generation.load(Ordering::Relaxed);
        if generation != self.generation {
            self.in_step = InStep::New;
        }
        let bytes = match self.in_step {
            InStep::Yes => {
                let mut bytes = Vec::with_capacity(line.len() + 1);
                bytes.extend_from_slice(line);
                bytes
            }
            // A capture holds every step: after a gap, the window begins another.
            InStep::Behind | InStep::New => {
                let mut bytes = header;
                bytes.push(b'\n');
                self.state.in_full(line, &mut bytes).map_err(invalid)?;
                bytes
            }
        };
        let mut bytes = bytes;
        bytes.push(b'\n');
        let Some(send) = &self.send else {
            dropped();
            return Ok(());
        };
        match send.try_send(Message { generation, bytes }) {
            Ok(()) => {
                self.generation = generation;
                self.in_step = InStep::Yes;
            }
            Err(TrySendError::Full(_)) => {
                dropped();
                if self.in_step == InStep::Yes {
                    self.in_step = InStep::Behind;
                }
            }
            Err(TrySendError::Disconnected(_)) => {
                dropped();
                self.in_step = InStep::New;
            }
        }
        Ok(())
    }
}

/// The shapes of a capture as its lines wrote them: each live shape's keys, each as its
/// latest line gave it, kept as the line's own text (nothing parsed but the structure), in the
/// order the shapes first came. The union of a shape's latest keys is its whole state (a line
/// writes only what changed), so a frame with every shape in full is theirs written out.
#[derive(Default)]
struct Written {
    slots: Vec<Option<(u64, Keys)>>,
    at: std::collections::HashMap<u64, usize>,
}

/// A shape's keys, each with its latest value as written.
type Keys = Vec<(String, Box<RawValue>)>;

/// A frame line's top level, its values unparsed.
type Top<'a> = Vec<(std::borrow::Cow<'a, str>, &'a RawValue)>;

/// A line's top-level keys in order, their values as written.
fn top_level(line: &[u8]) -> Result<Top<'_>, String> {
    struct Object<'a>(Top<'a>);
    impl<'de> serde::Deserialize<'de> for Object<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Visit;
            impl<'de> serde::de::Visitor<'de> for Visit {
                type Value = Object<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a JSON object")
                }
                fn visit_map<M: serde::de::MapAccess<'de>>(
                    self,
                    mut map: M,
                ) -> Result<Self::Value, M::Error> {
                    let mut keys = Vec::new();
                    while let Some(entry) = map.next_entry()? {
                        keys.push(entry);
                    }
                    Ok(Object(keys))
                }
            }
            d.deserialize_map(Visit)
        }
    }
    serde_json::from_slice::<Object>(line)
        .map(|k| k.0)
        .map_err(|e| format!("a line written does not read back: {e}"))
}

impl Written {
    /// Take in a frame line: its shapes' keys, its removed ids.
    fn take_line(&mut self, line: &[u8]) -> Result<(), String> {
        for (key, value) in top_level(line)? {
            match &*key {
                "shapes" => {
                    let shapes: Vec<&RawValue> =
                        serde_json::from_str(value.get()).map_err(|e| e.to_string())?;
                    for shape in shapes {
                        self.shape(shape)?;
                    }
                }
                "removed" => {
                    let removed: Vec<u64> =
                        serde_json::from_str(value.get()).map_err(|e| e.to_string())?;
                    for id in removed {
                        if let Some(k) = self.at.remove(&id) {
                            self.slots[k] = None;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Take in one shape's object of a line.
    fn shape(&mut self, shape: &RawValue) -> Result<(), String> {
        let bytes = shape.get().as_bytes();
        let keys = top_level(bytes)?;
        let id = keys
            .iter()
            .find(|(k, _)| k == "id")
            .and_then(|(_, v)| serde_json::from_str::<u64>(v.get()).ok())
            .ok_or("a shape written with no id")?;
        let k = *self.at.entry(id).or_insert_with(|| {
            self.slots.push(Some((id, Vec::new())));
            self.slots.len() - 1
        });
        let (_, kept) = self.slots[k].as_mut().expect("a live shape's slot");
        for (key, value) in keys {
            if key == "id" {
                continue;
            }
            match kept.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => *v = value.to_owned(),
                None => kept.push((key.into_owned(), value.to_owned())),
            }
        }
        Ok(())
    }

    /// Frame `line` (just taken in) written onto `out` with every live shape in full and no
    /// `removed`: a frame a new capture can begin with.
    fn in_full(&self, line: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let key = |out: &mut Vec<u8>, k: &str| {
            serde_json::to_writer(&mut *out, k).expect("a string serialises");
            out.push(b':');
        };
        out.push(b'{');
        let mut first = true;
        for (name, value) in top_level(line)? {
            if name == "removed" {
                continue;
            }
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
            key(out, &name);
            if name != "shapes" {
                out.extend_from_slice(value.get().as_bytes());
                continue;
            }
            out.push(b'[');
            for (i, (id, keys)) in self.slots.iter().flatten().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(format!("{{\"id\":{id}").as_bytes());
                for (k, v) in keys {
                    out.push(b',');
                    key(out, k);
                    out.extend_from_slice(v.get().as_bytes());
                }
                out.push(b'}');
            }
            out.push(b']');
        }
        out.push(b'}');
        Ok(())
    }
}

/// Says what a [`ToWindow`] link has done ([`ToWindow::watch`]).
#[derive(Clone)]
pub struct LinkWatch {
    shared: Arc<Shared>,
}

impl LinkWatch {
    /// What the link has done so far.
    pub fn stats(&self) -> LinkStats {
        LinkStats {
            connected: self.shared.connected.load(Ordering::Relaxed),
            sent: self.shared.sent.load(Ordering::Relaxed),
            dropped: self.shared.dropped.load(Ordering::Relaxed),
            connections: self.shared.generation.load(Ordering::Relaxed),
            problem: self
                .shared
                .problem
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        }
    }
}

impl Write for ToWindow {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.pending.is_empty() && buf.first() == Some(&0x1f) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a capture streams to the window as text: make the writer with CaptureWriter::new, not compressed",
            ));
        }
        self.pending.extend_from_slice(buf);
        let mut start = 0;
        while let Some(end) = self.pending[start..].iter().position(|b| *b == b'\n') {
            let line = self.pending[start..start + end].to_vec();
            start += end + 1;
            if let Err(e) = self.line(&line) {
                self.pending.drain(..start);
                return Err(e);
            }
        }
        self.pending.drain(..start);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for ToWindow {
    /// Sends what is queued (waiting a second at most for the window), then closes.
    fn drop(&mut self) {
        self.shared.closing.store(true, Ordering::Relaxed);
        self.send = None;
        if let Some(thread) = self.thread.take() {
            let deadline = std::time::Instant::now() + Duration::from_secs(1);
            while !thread.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }
}

/// The link's thread: connect (starting a window once, if asked), send, and connect again
/// when the window goes; until the game's side is dropped.
fn run_link(port: u16, spawn: bool, shared: &Shared, queue: &Receiver<Message>) {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let mut started = false;
    let say = |problem: Option<String>| {
        *shared
            .problem
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = problem;
    };
    loop {
        if shared.closing.load(Ordering::Relaxed) {
            return;
        }
        let mut stream = match TcpStream::connect_timeout(&address, Duration::from_millis(500)) {
            Ok(stream) => stream,
            Err(e) => {
                if spawn && !started {
                    started = true;
                    if let Err(problem) = start_window(port) {
                        say(Some(problem));
                    }
                } else if !spawn {
                    say(Some(format!(
                        "no window listens on 127.0.0.1:{port} ({e}): frames are dropped until one does (collidoscope --listen {port})"
                    )));
                }
                // Nothing is queued while no window is connected; what was (a window that
                // just went) is dropped.
                while queue.try_recv().is_ok() {
                    shared.dropped.fetch_add(1, Ordering::Relaxed);
                }
                std::thread::sleep(RETRY);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
        let generation = shared.generation.fetch_add(1, Ordering::Relaxed) + 1;
        say(None);
        shared.connected.store(true, Ordering::Relaxed);
        loop {
            match queue.recv_timeout(Duration::from_millis(100)) {
                Ok(message) if message.generation == generation => {
                    if stream.write_all(&message.bytes).is_err() {
                        shared.dropped.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    shared.sent.fetch_add(1, Ordering::Relaxed);
                }
                Ok(_) => {
                    shared.dropped.fetch_add(1, Ordering::Relaxed);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if window_gone(&stream) {
                        break;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let _ = stream.flush();
                    let _ = stream.shutdown(std::net::Shutdown::Write);
                    shared.connected.store(false, Ordering::Relaxed);
                    return;
                }
            }
        }
        shared.connected.store(false, Ordering::Relaxed);
    }
}

/// Whether the window closed its end (it never writes: anything read, or the end, means it
/// is gone).
fn window_gone(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let mut byte = [0u8; 1];
    let gone = match stream.peek(&mut byte) {
        Ok(_) => true,
        Err(e) => e.kind() != io::ErrorKind::WouldBlock,
    };
    let _ = stream.set_nonblocking(false);
    gone
}

/// Start `collidoscope --listen PORT` (the program [`BIN_VARIABLE`] names, else
/// `collidoscope` on the path), on its own.
fn start_window(port: u16) -> Result<(), String> {
    let program = std::env::var_os(BIN_VARIABLE).unwrap_or_else(|| "collidoscope".into());
    std::process::Command::new(&program)
        .arg("--listen")
        .arg(port.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| {
            format!(
                "cannot start the window ({} --listen {port}): {e}; install collidoscope on the path or set {BIN_VARIABLE}; frames are dropped until a window listens",
                program.to_string_lossy()
            )
        })
}

/// A game's stream read by the capture reader's rules: every line it accepts is written (and
/// flushed, frame by frame, so a reader follows it) to the output `begin` gives for the
/// capture it belongs to. A stream holds one capture, or several when the game fell behind
/// and dropped frames (a capture holds every step, so after a gap the game begins another with
/// its header): `begin` is called with each header, and the capture's number (1 for the
/// first), and once its header is written, `begun`. Returns how many frames were taken in all, and the error of the line that ended
/// it, if one did (every frame before it kept). `name` names the stream in messages.
pub fn receive<W: Write>(
    name: &Path,
    input: impl Read + Send + 'static,
    mut begin: impl FnMut(&Header, u64) -> io::Result<W>,
    mut begun: impl FnMut(&Header, u64),
) -> (u64, Result<(), FileError>) {
    let mut frames = 0;
    let result = (|| {
        let fail = |e: io::Error| {
            FileError::new(
                name,
                crate::files::Problem::io("cannot keep what was received", e),
            )
        };
        let mut lines = CaptureReader::new(name, input)?;
        let mut header = lines.header().clone();
        let mut count = 1;
        let mut begun_at = 1;
        loop {
            let head = header_line(&header);
            let segment_name = if count == 1 {
                name.to_path_buf()
            } else {
                PathBuf::from(format!(
                    "{}, the capture begun at line {begun_at}",
                    name.display()
                ))
            };
            let mut text = head.clone();
            text.push(b'\n');
            let mut segment = CaptureReader::new(&segment_name, io::Cursor::new(text.clone()))?;
            let mut out = begin(&header, count).map_err(fail)?;
            out.write_all(&text)
                .and_then(|()| out.flush())
                .map_err(fail)?;
            begun(&header, count);
            let next = loop {
                let Some(raw) = lines.raw_line()? else {
                    break None;
                };
                let bytes = raw.bytes();
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                if is_header(bytes) {
                    begun_at = lines.line();
                    let mut text = bytes.to_vec();
                    text.push(b'\n');
                    let at = PathBuf::from(format!("{}, line {begun_at}", name.display()));
                    break Some(
                        CaptureReader::new(&at, io::Cursor::new(text))?
                            .header()
                            .clone(),
                    );
                }
                segment.read_written(bytes)?;
                out.write_all(bytes)
                    .and_then(|()| out.write_all(b"\n"))
                    .and_then(|()| out.flush())
                    .map_err(fail)?;
                frames += 1;
            };
            match next {
                None => return Ok(()),
                Some(next) => {
                    header = next;
                    count += 1;
                }
            }
        }
    })();
    (frames, result)
}

/// Whether `line` is a capture's header (an object whose `format` is `collidoscope-capture`).
fn is_header(line: &[u8]) -> bool {
    let head = &line[..line.len().min(256)];
    head.windows(8).any(|w| w == b"\"format\"")
        && crate::capture::format::line::object(line).is_ok_and(|top| {
            top.get("format").and_then(serde_json::Value::as_str) == Some(crate::capture::FORMAT)
        })
}

/// A header's line as a writer writes it (without its newline).
fn header_line(header: &Header) -> Vec<u8> {
    crate::capture::format::write_text::header_line(header)
}

/// A capture written to two outputs at once: a file and the window, or the window and a
/// flight recorder (`Tee(ToWindow::spawn(), recorder.output())`). Both get every byte; the
/// first error is returned.
pub struct Tee<A, B>(pub A, pub B);

impl<A: Write, B: Write> Write for Tee<A, B> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(buf)?;
        self.1.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()?;
        self.1.flush()
    }
}

/// What a [`Listener`] saw.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkEvent {
    /// A game connected and its header was read: its frames go to `capture` as they come.
    Connected {
        /// The file the frames are written to (a capture, followed as it grows).
        capture: PathBuf,
        /// The engine the header names (`box2d 3.2`).
        engine: String,
        /// Which capture of the connection it is: 1, then 2, 3... each time the game fell
        /// behind and dropped frames (a capture holds every step, so it begins another).
        part: u64,
    },
    /// The game's connection ended: the frames taken, and the refused line's message when
    /// it ended on one.
    Ended {
        /// The file the frames went to.
        capture: PathBuf,
        /// Frames taken.
        frames: u64,
        /// Why the stream was refused, if it was.
        problem: Option<String>,
    },
    /// A second game tried to connect while one streams: turned away.
    TurnedAway,
}

/// The window's side of the link: listening on 127.0.0.1 for one game at a time.
pub struct Listener {
    port: u16,
    events: Receiver<LinkEvent>,
    stop: Arc<AtomicBool>,
}

impl Listener {
    /// Listen on 127.0.0.1:`port` (0: a free port, see [`Self::port`]); each game's frames
    /// are written to a capture file in `folder`.
    pub fn bind(port: u16, folder: &Path) -> io::Result<Self> {
        let socket = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        let port = socket.local_addr()?.port();
        socket.set_nonblocking(true)?;
        std::fs::create_dir_all(folder)?;
        let (tell, events) = std::sync::mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let (folder, stopped) = (folder.to_path_buf(), stop.clone());
        std::thread::Builder::new()
            .name("collidoscope listen".into())
            .spawn(move || accept(&socket, &folder, &stopped, &tell))?;
        Ok(Self { port, events, stop })
    }

    /// The port listened on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// What happened since the last call, oldest first.
    pub fn events(&self) -> Vec<LinkEvent> {
        self.events.try_iter().collect()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The listening thread: one game at a time, each read on a thread of its own.
fn accept(
    socket: &TcpListener,
    folder: &Path,
    stop: &Arc<AtomicBool>,
    tell: &std::sync::mpsc::Sender<LinkEvent>,
) {
    let busy = Arc::new(AtomicBool::new(false));
    let mut count = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let stream = match socket.accept() {
            Ok((stream, _)) => stream,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            Err(_) => {
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if busy.swap(true, Ordering::Relaxed) {
            drop(stream);
            if tell.send(LinkEvent::TurnedAway).is_err() {
                return;
            }
            continue;
        }
        count += 1;
        let capture = folder.join(format!(
            "received-{}-{count}.capture.jsonl",
            std::process::id()
        ));
        let (tell, busy, stop) = (tell.clone(), busy.clone(), stop.clone());
        let _ = std::thread::Builder::new()
            .name("collidoscope receive".into())
            .spawn(move || {
                take(stream, &capture, &stop, &tell);
                busy.store(false, Ordering::Relaxed);
            });
    }
}

/// One game's connection read into `capture`.
fn take(
    stream: TcpStream,
    capture: &Path,
    stop: &Arc<AtomicBool>,
    tell: &std::sync::mpsc::Sender<LinkEvent>,
) {
    let _ = stream.set_nonblocking(false);
    let port = stream.peer_addr().map_or(0, |a| a.port());
    let mut stopping = Stopping {
        stream: stream.try_clone().ok(),
        stop: stop.clone(),
        waiting_since: Some(std::time::Instant::now()),
    };
    // A game in a browser page speaks WebSocket (its first bytes are the handshake's `GET `);
    // any other game sends the capture's text as it is.
    let (name, input) = match opened(&mut stopping, &stream) {
        Ok((true, input)) => (
            PathBuf::from(format!(
                "the game's WebSocket stream (from 127.0.0.1:{port})"
            )),
            input,
        ),
        Ok((false, input)) => (
            PathBuf::from(format!("the game's stream (from 127.0.0.1:{port})")),
            input,
        ),
        Err(e) => {
            let _ = stream.shutdown(std::net::Shutdown::Both);
            let _ = tell.send(LinkEvent::Ended {
                capture: capture.to_path_buf(),
                frames: 0,
                problem: Some(format!("the game's stream (from 127.0.0.1:{port}): {e}")),
            });
            return;
        }
    };
    let current = std::cell::RefCell::new(capture.to_path_buf());
    let begin = |_: &Header, part: u64| {
        let path = if part == 1 {
            capture.to_path_buf()
        } else {
            let stem = capture.to_string_lossy();
            let stem = stem.trim_end_matches(".capture.jsonl");
            PathBuf::from(format!("{stem}-{part}.capture.jsonl"))
        };
        let file = std::fs::File::create(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        *current.borrow_mut() = path;
        Ok(io::BufWriter::new(file))
    };
    let begun = |header: &Header, part: u64| {
        let _ = tell.send(LinkEvent::Connected {
            capture: current.borrow().clone(),
            engine: format!("{} {}", header.engine.name, header.engine.version),
            part,
        });
    };
    let (frames, result) = receive(&name, input, begin, begun);
    // A refused line ends the connection.
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let _ = tell.send(LinkEvent::Ended {
        capture: current.into_inner(),
        frames,
        problem: result.err().map(|e| e.to_string()),
    });
}

/// A connection's input as a byte stream of the capture's text: its first bytes looked at, and
/// a WebSocket's handshake answered and its frames unwrapped (whether it was one).
fn opened(stopping: &mut Stopping, stream: &TcpStream) -> io::Result<(bool, Box<dyn Read + Send>)> {
    let mut first = Vec::new();
    let mut chunk = [0u8; 4];
    while first.len() < 4 {
        let n = stopping.read(&mut chunk[..4 - first.len()])?;
        if n == 0 {
            break;
        }
        first.extend_from_slice(&chunk[..n]);
    }
    let rest = Stopping {
        stream: stopping.stream.take(),
        stop: stopping.stop.clone(),
        waiting_since: None,
    };
    if !crate::capture::live::websocket::is_handshake(&first) {
        return Ok((false, Box::new(io::Cursor::new(first).chain(rest))));
    }
    let mut answer = stream.try_clone()?;
    let mut input = io::Cursor::new(first).chain(rest);
    let pending = crate::capture::live::websocket::accept(&mut input, &mut answer)?;
    Ok((
        true,
        Box::new(crate::capture::live::websocket::Frames::new(
            input, answer, pending,
        )),
    ))
}

/// A connection read until the window stops listening.
struct Stopping {
    stream: Option<TcpStream>,
    stop: Arc<AtomicBool>,
    /// Until the first bytes come: a connection that says nothing for [`SILENT`] is closed, so
    /// it cannot hold the window from a game (one game at a time).
    waiting_since: Option<std::time::Instant>,
}

/// How long a connection may send nothing at its start.
const SILENT: Duration = Duration::from_secs(5);

impl Read for Stopping {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let Some(stream) = &mut self.stream else {
            return Ok(0);
        };
        let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Ok(0);
            }
            match stream.read(buf) {
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    if self.waiting_since.is_some_and(|t| t.elapsed() >= SILENT) {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            format!(
                                "it sent nothing for {} s: closed, so that a game can connect",
                                SILENT.as_secs()
                            ),
                        ));
                    }
                }
                other => {
                    self.waiting_since = None;
                    return other;
                }
            }
        }
    }
}
