//! `collidoscope diagnose [--json] CAPTURE`: every claim of every frame judged at the capture's
//! precision, on every core, read as a stream; the first divergence in words.

use crate::capture::{
    CaptureEvent, CaptureReader, DifferingPairs, EventFinder, judge_capture_with_events,
};
use crate::motion::EventKind;
use crate::text::short_number;
use serde::Serialize;
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// How many pairs with differing claims the text lists (the rest are counted): with the
/// summary, the first divergence and the events, a long run's words fit a screen.
const LISTED_PAIRS: usize = 20;

/// The first claim that disagrees, as the JSON line gives it.
#[derive(Serialize)]
struct FirstDisagreement {
    frame: u64,
    a: u64,
    b: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    matches: Vec<crate::Cause>,
}

/// What the frames read so far came to.
#[derive(Default)]
struct Tally {
    /// Frames, claims, agreeing claims.
    counts: (u64, u64, u64),
    /// The first claim that disagrees, with its frame's number and time.
    first: Option<(u64, f64, crate::Judgement)>,
    pairs: DifferingPairs,
    /// Malformed entries: how many, in how many frames, and the first with its frame and time.
    malformed: (u64, u64),
    first_malformed: Option<(u64, f64, crate::capture::Malformed)>,
    events: Vec<CaptureEvent>,
    /// The number of the last frame read.
    last_frame: Option<u64>,
}

impl Tally {
    /// Count a frame judged (its events taken); `pairs`: gather the differing claims by pair
    /// (the text report's).
    fn add(&mut self, judged: &mut crate::capture::FrameJudgement, pairs: bool) {
        if pairs {
            self.pairs.push(judged);
        }
        self.events.append(&mut judged.events);
        self.last_frame = Some(judged.frame);
        self.counts.0 += 1;
        self.counts.1 += judged.claims.len() as u64;
        self.counts.2 += judged.claims.iter().filter(|c| c.agrees()).count() as u64;
        if self.first.is_none()
            && let Some(bad) = judged.claims.iter().find(|c| !c.agrees())
        {
            self.first = Some((judged.frame, judged.time, bad.clone()));
        }
        if let Some(m) = judged.malformed.first() {
            self.malformed.0 += judged.malformed.len() as u64;
            self.malformed.1 += 1;
            self.first_malformed
                .get_or_insert_with(|| (judged.frame, judged.time, m.clone()));
        }
    }
}

/// Diagnose one capture; 1 when a claim disagrees or the capture is refused.
pub fn run(path: &Path, json: bool, out: &mut impl Write) -> u8 {
    let name = path.to_string_lossy();
    let mut reader = match CaptureReader::open(path) {
        Ok(reader) => reader,
        Err(e) => {
            super::report_unreadable(&name, &e, json, out);
            return 1;
        }
    };
    // The JSON of the frames waits here until the whole capture is known to be sound: a
    // capture refused at its last line gives only its error.
    let mut frames_json = Spool::default();
    let mut tally = Tally::default();
    let mut spool_error = None;
    let mut finder = EventFinder::for_capture(reader.header());
    let result = judge_capture_with_events(&mut reader, &mut finder, |mut judged| {
        tally.add(&mut judged, !json);
        if json {
            let written = (if tally.counts.0 > 1 {
                frames_json.write_all(b",")
            } else {
                Ok(())
            })
            .and_then(|_| {
                serde_json::to_writer(&mut frames_json, &judged).map_err(io::Error::from)
            });
            if let Err(e) = written {
                spool_error = Some(e);
                return false;
            }
        }
        true
    });
    if let Err(e) = result {
        super::report_unreadable(&name, &e, json, out);
        return 1;
    }
    if let Some(e) = spool_error {
        eprintln!("collidoscope diagnose: {name}: cannot keep the report while reading: {e}");
        return 1;
    }
    tally.events.extend(finder.finish());
    if let Some(warning) = reader.warning() {
        eprintln!("{warning}");
    }
    report(&name, &reader, tally, json.then_some(&mut frames_json), out)
}

/// `diagnose --follow`: the capture at `path` read as the game writes it, each claim that
/// disagrees and each event printed (and flushed) as soon as its frame is read, the summary
/// when reading ends: on Ctrl-C or SIGTERM, or after `idle` seconds without growth. When the
/// capture begins again (the file written again from its start, or another file at its path:
/// the game run again), that is said with the earlier run's summary, and the new run is
/// judged from its header: the summary and the exit status at the end are the new run's, as
/// for the file on disk.
pub fn follow(path: &Path, json: bool, idle: Option<f64>, out: &mut impl Write) -> u8 {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let name = path.to_string_lossy();
    let stop = Arc::new(AtomicBool::new(false));
    let asked = stop.clone();
    // A second interrupt is the default one (the summary is on its way).
    let _ = ctrlc::set_handler(move || asked.store(true, Ordering::Relaxed));
    let idle = idle.map(std::time::Duration::from_secs_f64);
    // How the run before this one ended, with the frame it ended after and its report.
    let mut earlier: Option<Earlier> = None;
    loop {
        let run = follow_run(path, (idle, &stop), json, &mut earlier, out);
        let began_again = run.ended.filter(|e| e.began_again());
        match (run.reader, began_again) {
            // Began again before its header was read: the run before is still the one to name.
            (None, Some(_)) => continue,
            // Refused, said.
            (None, None) => return 1,
            (Some(reader), Some(how)) => {
                let after_frame = run.tally.last_frame;
                let mut report = Vec::new();
                // Named as the earlier run in words; the JSON line says so around it.
                let said_as = if json {
                    name.to_string()
                } else {
                    format!("{name}, the earlier run")
                };
                report_as(
                    &said_as,
                    &reader,
                    run.tally,
                    json.then_some(None),
                    &mut report,
                );
                earlier = Some(Earlier {
                    how,
                    after_frame,
                    report,
                });
            }
            (Some(reader), None) => {
                if let Some(warning) = reader.warning() {
                    eprintln!("{warning}");
                }
                return report_as(&name, &reader, run.tally, json.then_some(None), out);
            }
        }
    }
}

/// A run of a followed capture that ended by beginning again: how, after which frame, and its
/// report (words, or the `--json` summary line), said once the new run's header is read.
struct Earlier {
    how: crate::capture::live::follow::FollowEnd,
    after_frame: Option<u64>,
    report: Vec<u8>,
}

impl Earlier {
    /// Say that the capture began again (the new run's `header` when it was read): in words,
    /// the sentence then the earlier run's report; with `json`, one line `{"began_again":
    /// "rewritten" or "replaced", "after_frame", "said", "earlier": its summary}`, the sentence
    /// on stderr too.
    fn say(
        self,
        path: &Path,
        header: Option<&crate::capture::Header>,
        json: bool,
        out: &mut impl Write,
    ) {
        use crate::capture::live::follow::FollowEnd;
        let said = crate::capture::words::capture_began_again(
            path,
            self.how,
            self.after_frame,
            None,
            header,
        );
        if json {
            eprintln!("{said}");
            let earlier: serde_json::Value =
                serde_json::from_slice(&self.report).unwrap_or_default();
            let line = serde_json::json!({
                "began_again": if self.how == FollowEnd::Replaced { "replaced" } else { "rewritten" },
                "after_frame": self.after_frame,
                "said": said,
                "earlier": earlier,
            });
            let _ = writeln!(out, "{line}");
        } else {
            let _ = writeln!(out, "{said}");
            let _ = out.write_all(&self.report);
        }
        let _ = out.flush();
    }
}

/// How one run of a followed capture ended: its reader once its header was read (`None`:
/// refused, said already, or the capture began again before its header), what its frames
/// came to, and why reading ended.
struct RunEnd {
    reader: Option<CaptureReader>,
    tally: Tally,
    ended: Option<crate::capture::live::follow::FollowEnd>,
}

impl RunEnd {
    fn without_reader(ended: Option<crate::capture::live::follow::FollowEnd>) -> Self {
        Self {
            reader: None,
            tally: Tally::default(),
            ended,
        }
    }
}

/// Follow one run of the capture at `path` (with the idle time and the stop flag), from its
/// header to where reading ends, saying each frame's claims and events as they come. The run
/// before it, when `earlier` holds one, is said once this run's header is read or refused; a
/// refusal is said here, unless the capture began again (then what was refused was a line cut
/// where the game began again).
fn follow_run(
    path: &Path,
    (idle, stop): (
        Option<std::time::Duration>,
        &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ),
    json: bool,
    earlier: &mut Option<Earlier>,
    out: &mut impl Write,
) -> RunEnd {
    use crate::capture::live::follow::Growing;
    use std::sync::atomic::Ordering;
    let name = path.to_string_lossy();
    let mut refused = |e: &dyn std::fmt::Display, out: &mut _| {
        if let Some(before) = earlier.take() {
            before.say(path, None, json, out);
        }
        super::report_unreadable(&name, &e.to_string(), json, out);
        RunEnd::without_reader(None)
    };
    // A game not yet started (or its new file not yet made): its capture is waited for, as
    // the window waits for it.
    if !path.exists() {
        eprintln!("{}", crate::cli::words::waiting_for_capture(path, idle));
        if let Some(why) = crate::capture::live::follow::wait_for_file(path, idle, stop) {
            return refused(
                &crate::capture::words::no_capture_came(path, why, idle),
                out,
            );
        }
    }
    let growing = match Growing::open(path, idle, stop.clone()) {
        Ok(growing) => growing,
        Err(e) => {
            let e = crate::files::FileError::new(
                path,
                crate::files::Problem::io("cannot read the file", e),
            );
            return refused(&e, out);
        }
    };
    let done = growing.done();
    let ended = growing.end_watch();
    let mut reader = match CaptureReader::new(path, growing) {
        Ok(reader) => reader,
        Err(_) if ended.get().is_some_and(|e| e.began_again()) => {
            return RunEnd::without_reader(ended.get().copied());
        }
        Err(e) => return refused(&e, out),
    };
    if let Some(before) = earlier.take() {
        before.say(path, Some(reader.header()), json, out);
    }
    let mut finder = EventFinder::for_capture(reader.header());
    let mut tally = Tally::default();
    loop {
        match reader.next_frame() {
            Ok(Some(frame)) => {
                let mut judged = crate::capture::judge_frame(&reader, &frame);
                judged.events = finder.frame(&reader, &frame, &judged);
                said_at_once(&judged, json, out);
                tally.add(&mut judged, !json);
            }
            Ok(None) => break,
            // A gzip stream ends mid-member where the game stopped writing, and a line is cut
            // where the game began again: the end, not damage.
            Err(_) if done.load(Ordering::Relaxed) => break,
            Err(e) => {
                super::report_unreadable(&name, &e, json, out);
                return RunEnd::without_reader(None);
            }
        }
    }
    let last = finder.finish();
    if !last.is_empty() {
        let mut tail = crate::capture::FrameJudgement {
            frame: last[0].frame(),
            time: last[0].time(),
            claims: Vec::new(),
            events: last,
            malformed: Vec::new(),
        };
        said_at_once(&tail, json, out);
        tally.events.append(&mut tail.events);
    }
    RunEnd {
        reader: Some(reader),
        tally,
        ended: ended.get().copied(),
    }
}

/// What `--follow` prints as soon as a frame is read: with `json`, a line per claim that
/// disagrees (its judgement's keys with `frame` and `time`) and per event; else the frame's
/// judgement in words, when it is not clean.
fn said_at_once(judged: &crate::capture::FrameJudgement, json: bool, out: &mut impl Write) {
    if json {
        for c in judged.claims.iter().filter(|c| !c.agrees()) {
            if let Ok(serde_json::Value::Object(keys)) = serde_json::to_value(c) {
                let mut line = serde_json::Map::new();
                line.insert("frame".into(), judged.frame.into());
                line.insert("time".into(), judged.time.into());
                line.extend(keys);
                let _ = writeln!(out, "{}", serde_json::Value::Object(line));
            }
        }
        for e in &judged.events {
            if let Ok(text) = serde_json::to_string(e) {
                let _ = writeln!(out, "{text}");
            }
        }
    } else {
        let step = crate::capture::StepJudgement::of_frame(judged);
        // Every claim that disagrees and every event (a normal flip too), as they come.
        if !(step.disagreeing.is_empty() && step.events.is_empty() && step.malformed.is_empty()) {
            let _ = writeln!(out, "{step}");
        }
    }
    let _ = out.flush();
}

/// The report of a capture read to its end: with `frames` (the judged frames' JSON), the
/// `--json` line; else words. The exit status: 1 when a claim disagrees, an event other than
/// a normal flip happened, or an entry is malformed.
fn report(
    name: &str,
    reader: &CaptureReader,
    tally: Tally,
    frames: Option<&mut Spool>,
    out: &mut impl Write,
) -> u8 {
    report_as(name, reader, tally, frames.map(Some), out)
}

/// [`report`], the JSON line with its `frames` (`Some(Some)`), without them (`Some(None)`:
/// `diagnose --follow`), or words (`None`).
fn report_as(
    name: &str,
    reader: &CaptureReader,
    tally: Tally,
    json: Option<Option<&mut Spool>>,
    out: &mut impl Write,
) -> u8 {
    let Tally {
        counts,
        first,
        pairs,
        malformed,
        first_malformed,
        events,
        last_frame: _,
    } = tally;
    let header = reader.header().clone();
    // Any event but a normal flip is a collision that went wrong.
    let wrong = events.iter().any(|e| e.kind() != EventKind::NormalFlip);
    let (frames, claims, agreeing) = counts;
    if let Some(frames_json) = json {
        let divergence = first.as_ref().map(|(frame, _, c)| FirstDisagreement {
            frame: *frame,
            a: c.a,
            b: c.b,
            piece: c.piece(),
            matches: c.causes().collect(),
        });
        #[derive(Serialize)]
        struct Head<'a> {
            file: &'a str,
            engine: &'a crate::capture::Engine,
            precision: &'static str,
            units: &'a str,
        }
        let head = serde_json::to_string(&Head {
            file: name,
            engine: &header.engine,
            precision: header.precision.name(),
            units: &header.units,
        })
        .expect("serialisable");
        #[derive(Serialize)]
        struct Tail<'a> {
            claims: u64,
            agreeing: u64,
            first_divergence: Option<FirstDisagreement>,
            events: &'a [CaptureEvent],
            first_event: Option<&'a CaptureEvent>,
            malformed: u64,
            first_malformed: Option<FirstMalformed<'a>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            warning: Option<&'a str>,
        }
        #[derive(Serialize)]
        struct FirstMalformed<'a> {
            frame: u64,
            #[serde(flatten)]
            entry: &'a crate::capture::Malformed,
        }
        let tail = serde_json::to_string(&Tail {
            claims,
            agreeing,
            first_divergence: divergence,
            events: &events,
            first_event: events.first(),
            malformed: malformed.0,
            first_malformed: first_malformed
                .as_ref()
                .map(|(frame, _, entry)| FirstMalformed {
                    frame: *frame,
                    entry,
                }),
            warning: reader.warning(),
        })
        .expect("serialisable");
        // {head without its "}", "frames": [...], tail without its "{"}
        let written = match frames_json {
            Some(frames_json) => write!(out, "{},\"frames\":[", &head[..head.len() - 1])
                .and_then(|_| frames_json.copy_to(out))
                .and_then(|_| writeln!(out, "],{}", &tail[1..])),
            None => writeln!(out, "{},{}", &head[..head.len() - 1], &tail[1..]),
        };
        if let Err(e) = written {
            eprintln!("collidoscope diagnose: {name}: cannot write the report: {e}");
            return 1;
        }
    } else {
        let _ = writeln!(
            out,
            "{name}: {}",
            crate::capture::words::capture_header_in_brief(&header)
        );
        let _ = writeln!(
            out,
            "  {}",
            crate::text::capture_claim_counts(frames, claims, agreeing)
        );
        if let Some(warning) = reader.warning() {
            let _ = writeln!(out, "  note: {warning}");
        }
        if let Some((frame, time, m)) = &first_malformed {
            let _ = writeln!(
                out,
                "  {}",
                crate::capture::words::malformed_counts(
                    malformed.0,
                    malformed.1,
                    (*frame, *time, m)
                )
            );
        }
        match &first {
            None if claims == 0 => {
                let _ = writeln!(out, "  {}", crate::cli::words::NO_CLAIMS);
            }
            None => {
                let _ = writeln!(out, "  every claim agrees with the exact result");
            }
            Some((frame, time, c)) => {
                let _ = writeln!(
                    out,
                    "  first divergence: frame {frame}, t = {} s:",
                    short_number(*time)
                );
                // A contact the engine did not recompute is said first, as what it is: no
                // geometric mistake's fix applies to it.
                let pair = (c.a.min(c.b), c.a.max(c.b));
                let stale = events.iter().find(|e| {
                    e.kind() == EventKind::Stale && e.frame() == *frame && (e.a, e.b) == pair
                });
                let recycling = header
                    .engine
                    .settings
                    .get("contact_recycling")
                    .and_then(serde_json::Value::as_bool)
                    == Some(true);
                let lines = c.lines();
                match (stale, recycling) {
                    (Some(s), _) => {
                        let _ = writeln!(out, "    {}", crate::capture::words::stale_first(s));
                        for line in lines.iter().take(4) {
                            let _ = writeln!(out, "    {line}");
                        }
                        let _ = writeln!(
                            out,
                            "      fix: {}",
                            crate::motion::event_fix(EventKind::Stale)
                        );
                    }
                    (None, true) => {
                        for line in lines.iter().take(4) {
                            let _ = writeln!(out, "    {line}");
                        }
                        let _ = writeln!(out, "    {}", crate::cli::words::RECYCLED_UNEXPLAINED);
                    }
                    (None, false) => {
                        for line in lines {
                            let _ = writeln!(out, "    {line}");
                        }
                    }
                }
                // By pair, the first to differ first; as many as a screen holds.
                let pairs = pairs.finish(&events);
                let _ = writeln!(
                    out,
                    "  claims that differ, by pair ({} pair{}: its frames, and what reproduces its claims):",
                    pairs.len(),
                    plural(pairs.len() as u64)
                );
                for p in pairs.iter().take(LISTED_PAIRS) {
                    let _ = writeln!(out, "    {}", crate::capture::words::differing_pair(p));
                }
                if pairs.len() > LISTED_PAIRS {
                    let rest = &pairs[LISTED_PAIRS..];
                    let _ = writeln!(
                        out,
                        "    {}",
                        crate::cli::words::more_differing_pairs(
                            rest.len(),
                            rest.iter().map(|p| p.claims).sum()
                        )
                    );
                }
            }
        }
        if !events.is_empty() {
            let _ = writeln!(
                out,
                "  events: {}",
                crate::capture::words::capture_event_counts(&events)
            );
            for kind in crate::capture::EVENT_KINDS {
                let Some(at) = events.iter().position(|e| e.kind() == kind) else {
                    continue;
                };
                let last = run_end(&events, at);
                let _ = writeln!(
                    out,
                    "  {}",
                    crate::capture::words::capture_event(&events[at], Some(last))
                );
                let _ = writeln!(out, "    fix: {}", crate::motion::event_fix(kind));
            }
        }
    }
    u8::from(agreeing < claims || wrong || malformed.0 > 0)
}

/// The last frame of the run that the event at `at` starts: the same kind, pair and shape (and
/// age, for a stale claim) in each following frame.
fn run_end(events: &[CaptureEvent], at: usize) -> u64 {
    let e = &events[at];
    let mut last = e.frame();
    for next in &events[at + 1..] {
        if next.frame() > last + 1 {
            break;
        }
        if next.frame() == last + 1
            && (next.kind(), next.a, next.b, next.shape(), next.age())
                == (e.kind(), e.a, e.b, e.shape(), e.age())
        {
            last = next.frame();
        }
    }
    last
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Bytes kept in memory up to a limit, then in a temporary file (removed when dropped).
#[derive(Default)]
struct Spool {
    memory: Vec<u8>,
    file: Option<(File, PathBuf)>,
}

/// Past this many bytes the spool moves to a temporary file.
const SPOOL_IN_MEMORY: usize = 64 << 20;

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.file.is_none() && self.memory.len() + buf.len() > SPOOL_IN_MEMORY {
            let path = std::env::temp_dir().join(format!(
                "collidoscope-diagnose-{}-{}.json",
                std::process::id(),
                self.memory.len()
            ));
            let mut file = File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)?;
            file.write_all(&self.memory)?;
            self.memory = Vec::new();
            self.file = Some((file, path));
        }
        match &mut self.file {
            Some((file, _)) => file.write(buf),
            None => {
                self.memory.extend_from_slice(buf);
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Spool {
    fn copy_to(&mut self, out: &mut impl Write) -> io::Result<()> {
        match &mut self.file {
            None => out.write_all(&self.memory),
            Some((file, _)) => {
                file.rewind()?;
                let mut buffer = vec![0; 1 << 16];
                loop {
                    let n = file.read(&mut buffer)?;
                    if n == 0 {
                        return Ok(());
                    }
                    out.write_all(&buffer[..n])?;
                }
            }
        }
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        if let Some((_, path)) = &self.file {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// `diagnose --listen`: listen on 127.0.0.1:`port` for one game's stream (plain TCP or
/// WebSocket, as the window's listener takes them), keep what it sends as a capture in the
/// temporary folder, and judge it as `--follow` judges a file: each claim that disagrees and
/// each event said as soon as its frame comes, the summary when the game closes its stream (or
/// on Ctrl-C, or after `idle` seconds without a game or without a frame). A line the reader
/// refuses ends the stream, said with every frame before it judged.
pub fn listen(port: u16, json: bool, idle: Option<f64>, out: &mut impl Write) -> u8 {
    use crate::capture::live::{LinkEvent, Listener};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let idle = idle.map(std::time::Duration::from_secs_f64);
    let folder = std::env::temp_dir().join("collidoscope-received");
    let listener = match Listener::bind(port, &folder) {
        Ok(listener) => listener,
        Err(e) => {
            let name = format!("127.0.0.1:{port}");
            super::report_unreadable(&name, &format!("cannot listen there: {e}"), json, out);
            return 1;
        }
    };
    let port = listener.port();
    eprintln!("{}", crate::cli::words::listening_for_game(port, idle));
    let stop = Arc::new(AtomicBool::new(false));
    let asked = stop.clone();
    let _ = ctrlc::set_handler(move || asked.store(true, Ordering::Relaxed));
    let began = std::time::Instant::now();
    // What the listener said after the connection, when it came in the same batch (a short
    // stream may connect, send and end between two looks).
    let mut after = Vec::new();
    let (capture, engine) = loop {
        let mut events = listener.events().into_iter();
        let connected = events.by_ref().find_map(|e| match e {
            LinkEvent::Connected {
                capture, engine, ..
            } => Some((capture, engine)),
            _ => None,
        });
        if let Some(connected) = connected {
            after.extend(events);
            break connected;
        }
        if stop.load(Ordering::Relaxed) || idle.is_some_and(|idle| began.elapsed() >= idle) {
            let name = format!("127.0.0.1:{port}");
            super::report_unreadable(
                &name,
                &crate::cli::words::no_game_came(port, idle),
                json,
                out,
            );
            return 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    eprintln!(
        "{}",
        crate::cli::words::game_connected_kept(&engine, &capture)
    );
    // The stream's end ends the reading, as an interrupt does: the listener is watched on a
    // thread of its own, which keeps it (and so the connection) open until then.
    let ended = stop.clone();
    let watched = capture.clone();
    let problem: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
    let said = problem.clone();
    let watcher = std::thread::spawn(move || {
        loop {
            for event in after.drain(..).chain(listener.events()) {
                if let LinkEvent::Ended {
                    capture, problem, ..
                } = event
                    && capture == watched
                {
                    *said
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = problem;
                    ended.store(true, Ordering::Relaxed);
                }
            }
            if ended.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    });
    let run = follow_run(&capture, (idle, &stop), json, &mut None, out);
    stop.store(true, Ordering::Relaxed);
    let _ = watcher.join();
    let problem = problem
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    let Some(reader) = run.reader else {
        return 1;
    };
    let name = capture.to_string_lossy();
    let status = report_as(&name, &reader, run.tally, json.then_some(None), out);
    match problem {
        Some(problem) => {
            eprintln!("{problem}");
            1
        }
        None => status,
    }
}
