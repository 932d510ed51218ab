//! `collidoscope diagnose [--json] CAPTURE`: every claim of every frame judged at the capture's
//! precision, on every core, read as a stream; the first divergence in words.

use crate::capture::{
    CaptureEvent, CaptureReader, DifferingRuns, EventFinder, judge_capture_with_events,
};
use crate::motion::EventKind;
use crate::text::short_number;
use serde::Serialize;
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The first claim that disagrees, as the JSON line gives it.
#[derive(Serialize)]
struct Divergence {
    frame: u64,
    a: u64,
    b: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    matches: Vec<crate::Cause>,
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
    let mut counts = (0u64, 0u64, 0u64); // frames, claims, agreeing
    // The first claim that disagrees, with its frame's number and time.
    let mut first: Option<(u64, f64, crate::Judgement)> = None;
    let mut runs = DifferingRuns::default();
    // Malformed entries: how many, in how many frames, and the first with its frame and time.
    let mut malformed = (0u64, 0u64);
    let mut first_malformed: Option<(u64, f64, crate::capture::Malformed)> = None;
    let mut spool_error = None;
    let mut finder = EventFinder::for_capture(reader.header());
    let mut events: Vec<CaptureEvent> = Vec::new();
    let result = judge_capture_with_events(&mut reader, &mut finder, |mut judged| {
        events.append(&mut judged.events);
        counts.0 += 1;
        counts.1 += judged.claims.len() as u64;
        counts.2 += judged.claims.iter().filter(|c| c.agrees()).count() as u64;
        if first.is_none()
            && let Some(bad) = judged.claims.iter().find(|c| !c.agrees())
        {
            first = Some((judged.frame, judged.time, bad.clone()));
        }
        if let Some(m) = judged.malformed.first() {
            malformed.0 += judged.malformed.len() as u64;
            malformed.1 += 1;
            first_malformed.get_or_insert_with(|| (judged.frame, judged.time, m.clone()));
        }
        if !json {
            runs.push(&judged);
        }
        if json {
            let written = (if counts.0 > 1 {
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
    events.extend(finder.finish());
    if let Some(warning) = reader.warning() {
        eprintln!("{warning}");
    }
    let header = reader.header().clone();
    // Any event but a normal flip is a collision that went wrong.
    let wrong = events.iter().any(|e| e.kind != EventKind::NormalFlip);
    let (frames, claims, agreeing) = counts;
    if json {
        let divergence = first.as_ref().map(|(frame, _, c)| Divergence {
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
            file: &name,
            engine: &header.engine,
            precision: header.precision.name(),
            units: &header.units,
        })
        .expect("serialisable");
        #[derive(Serialize)]
        struct Tail<'a> {
            claims: u64,
            agreeing: u64,
            first_divergence: Option<Divergence>,
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
        let written = write!(out, "{},\"frames\":[", &head[..head.len() - 1])
            .and_then(|_| frames_json.copy_to(out))
            .and_then(|_| writeln!(out, "],{}", &tail[1..]));
        if let Err(e) = written {
            eprintln!("collidoscope diagnose: {name}: cannot write the report: {e}");
            return 1;
        }
    } else {
        let _ = writeln!(
            out,
            "{name}: {} {}, {}, units {}{}",
            header.engine.name,
            header.engine.version,
            header.precision.name(),
            header.units,
            if header.y_up { "" } else { ", y down" }
        );
        let _ = writeln!(
            out,
            "  {frames} frame{}, {claims} claim{}: {agreeing} agree{}",
            plural(frames),
            plural(claims),
            match claims - agreeing {
                0 => String::new(),
                n => format!(", {n} differ{}", if n == 1 { "s" } else { "" }),
            }
        );
        if let Some(warning) = reader.warning() {
            let _ = writeln!(out, "  note: {warning}");
        }
        if let Some((frame, time, m)) = &first_malformed {
            let _ = writeln!(
                out,
                "  {}",
                crate::text::malformed_counts(malformed.0, malformed.1, (*frame, *time, m))
            );
        }
        match &first {
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
                    e.kind == EventKind::Stale && e.frame == *frame && (e.a, e.b) == pair
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
                        let _ =
                            writeln!(out, "    {}", crate::text::stale_first(s.age.unwrap_or(0)));
                        for line in lines.iter().take(4) {
                            let _ = writeln!(out, "    {line}");
                        }
                        let _ = writeln!(
                            out,
                            "      fix: {}",
                            crate::text::event_fix(EventKind::Stale)
                        );
                    }
                    (None, true) => {
                        for line in lines.iter().take(4) {
                            let _ = writeln!(out, "    {line}");
                        }
                        let _ = writeln!(out, "    {}", crate::text::RECYCLED_UNEXPLAINED);
                    }
                    (None, false) => {
                        for line in lines {
                            let _ = writeln!(out, "    {line}");
                        }
                    }
                }
                let _ = writeln!(
                    out,
                    "  claims that differ (runs of frames with the same pair and causes):"
                );
                for run in runs.finish() {
                    let _ = writeln!(out, "    {}", crate::text::differing_run(&run));
                }
            }
        }
        if !events.is_empty() {
            let _ = writeln!(
                out,
                "  events: {}",
                crate::text::capture_event_counts(&events)
            );
            for kind in crate::capture::EVENT_KINDS {
                let Some(at) = events.iter().position(|e| e.kind == kind) else {
                    continue;
                };
                let last = run_end(&events, at);
                let _ = writeln!(
                    out,
                    "  {}",
                    crate::text::capture_event(&events[at], Some(last))
                );
                let _ = writeln!(out, "    fix: {}", crate::text::event_fix(kind));
            }
        }
    }
    u8::from(agreeing < claims || wrong || malformed.0 > 0)
}

/// The last frame of the run that the event at `at` starts: the same kind, pair and shape (and
/// age, for a stale claim) in each following frame.
fn run_end(events: &[CaptureEvent], at: usize) -> u64 {
    let e = &events[at];
    let mut last = e.frame;
    for next in &events[at + 1..] {
        if next.frame > last + 1 {
            break;
        }
        if next.frame == last + 1
            && (next.kind, next.a, next.b, next.shape, next.age)
                == (e.kind, e.a, e.b, e.shape, e.age)
        {
            last = next.frame;
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
