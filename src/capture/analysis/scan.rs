//! A whole capture judged on every core, as a stream: lines are read in batches, parsed in
//! parallel, applied in order, and each frame's claims judged in parallel where the reader
//! holds them (nothing copied). While one batch is applied and judged, the next is parsed and
//! the one after it read: only three batches are ever in memory.

use crate::capture::analysis::events::EventFinder;
use crate::capture::analysis::judge::judge_found;
use crate::capture::{CaptureReader, FrameJudgement, ParsedLine, RawLine};
use crate::files::FileError;
use crate::scene::Precision;
use rayon::prelude::*;

/// About this many bytes of lines are parsed and judged together: few joins of the cores
/// (each waits for the last line parsed or claim judged), three batches in memory.
const BATCH_BYTES: usize = 32 << 20;
/// And at most this many lines.
pub(in crate::capture) const BATCH_LINES: usize = 512;
/// The first batch's bytes: batches grow from this, doubling, to [`BATCH_BYTES`], so that the
/// first frames are handed out, and both cores busy, soon after the file is opened.
const FIRST_BATCH_BYTES: usize = 1 << 20;

/// Judge every frame of `reader` in order, calling `each` with each frame's judgement, in
/// file order. Stops at the first refused line (its error) or when `each` says so (`false`).
pub fn judge_capture(
    reader: &mut CaptureReader,
    each: impl FnMut(FrameJudgement) -> bool,
) -> Result<(), FileError> {
    scan_capture(reader, each, Watch::default())
}

/// What a scan shows to whoever watches it besides the judgements: each line as read, and
/// the reader after each batch of frames (standing after the last frame handed out).
pub struct Watch<'a> {
    /// Each line read, in order, before it is parsed; `false` stops the scan before that
    /// line (the frames before it are handed out).
    pub line: Box<dyn FnMut(&RawLine) -> bool + 'a>,
    /// The reader after a batch; `false` stops the scan.
    pub batch: Box<dyn FnMut(&CaptureReader) -> bool + 'a>,
    /// Names the events of each frame as it is read (into its judgement's `events`).
    pub events: Option<&'a mut EventFinder>,
    /// At most this many lines are read before they are judged and handed out: 1 for a
    /// capture still being written, so that each frame is handed out as soon as it is read
    /// (a batch would otherwise wait at the file's end for lines not yet written).
    pub lines: usize,
}

impl Default for Watch<'_> {
    fn default() -> Self {
        Self {
            line: Box::new(|_| true),
            batch: Box::new(|_| true),
            events: None,
            lines: BATCH_LINES,
        }
    }
}

/// [`judge_capture`], each frame's events named by `finder` as it is read (in the judgement's
/// `events`: those the frame completes); the last frame's own come from `finder.finish()`.
pub fn judge_capture_with_events(
    reader: &mut CaptureReader,
    finder: &mut EventFinder,
    each: impl FnMut(FrameJudgement) -> bool,
) -> Result<(), FileError> {
    scan_capture(
        reader,
        each,
        Watch {
            events: Some(finder),
            ..Watch::default()
        },
    )
}

/// [`judge_capture`], watched: how the window's capture lab indexes a capture as it judges it.
///
/// A whole file is read two batches ahead: while this batch's frames are applied and judged,
/// the next batch's lines are parsed and the lines of the batch after it read, on the other
/// cores. Each watcher still sees every line of a batch only after the batch before was
/// handed out, and the reader as it stands after the last frame handed out
/// ([`CaptureReader::consumed`] counts applied lines only).
pub fn scan_capture(
    reader: &mut CaptureReader,
    mut each: impl FnMut(FrameJudgement) -> bool,
    mut watch: Watch,
) -> Result<(), FileError> {
    let precision = reader.header().precision;
    let most = watch.lines.max(1);
    // A capture still being written (one line at a time) is never read ahead: the next line
    // may not be there yet, and this frame must not wait for it.
    let ahead = most > 1;
    let mut sizes = Sizes(FIRST_BATCH_BYTES);
    let mut batch = Batch::read(|| reader.raw_line(), most, sizes.take());
    let mut parsed_ahead: Option<Vec<ParsedLine>> = None;
    // The lines of the batch after `batch`, read while `batch` was parsed.
    let mut read_ahead: Option<Batch> = None;
    loop {
        // Each line to the watcher, in order: `false` stops the scan before that line.
        let mut stopped = false;
        let mut count = batch.lines.len();
        for (i, line) in batch.lines.iter().enumerate() {
            if !(watch.line)(line) {
                (stopped, count) = (true, i);
                break;
            }
        }
        if count == 0 {
            return match batch.error {
                Some(e) if !stopped => Err(e),
                _ => Ok(()),
            };
        }
        let mut parsed = match parsed_ahead.take() {
            Some(parsed) => parsed,
            None => parse(&batch.lines),
        };
        parsed.truncate(count);
        let next = if ahead && !stopped && batch.error.is_none() {
            read_ahead
                .take()
                .unwrap_or_else(|| Batch::read(|| reader.raw_line(), most, sizes.take()))
        } else {
            Batch::default()
        };
        // The batch after `next` is read only once `next` came whole (no error, not the end).
        let further = ahead && next.error.is_none() && next.full;
        let further_bytes = if further { sizes.take() } else { 0 };
        let mut lines = reader.take_lines();
        // This batch's lines, applied and judged on a thread of their own while this one hands
        // each frame's judgement out as soon as it is made (the caller's `each` runs here, on
        // its own thread): one frame's judgements are let go before the next ones are made,
        // where a batch's (some 40 MB) all alive at once made the allocator hand the memory
        // back to the system, and fault it in afresh, at every batch. Where no thread can be
        // had (the browser), they are applied and judged after this scope and handed out then.
        let mut job = Some((parsed, watch.events.as_deref_mut()));
        let mut handing = Handing::Going;
        // The batch after next is read on a thread of its own: reading lines is one long
        // sequential task, which in the pool would leave a core waiting for it at the join.
        // Where no thread can be had (the browser), it is read after the join.
        let (read, applied) = std::thread::scope(|scope| {
            let reading = further.then(|| {
                std::thread::Builder::new()
                    .name("capture lines".into())
                    .spawn_scoped(scope, || {
                        Batch::read(|| lines.raw_line(), most, further_bytes)
                    })
            });
            let (send, receive) = std::sync::mpsc::channel();
            let (job, reader, next) = (&mut job, &mut *reader, &next);
            let applying = std::thread::Builder::new()
                .name("capture frames".into())
                .spawn_scoped(scope, move || {
                    let (parsed, events) = job.take().expect("a batch is applied once");
                    let mut hand = |judgement| send.send(judgement).is_ok();
                    rayon::join(
                        || apply_and_judge(reader, parsed, events, precision, &mut hand),
                        || parse(&next.lines),
                    )
                });
            let applied = applying.ok().map(|applying| {
                // Ends when the applying thread is done (its sender dropped).
                for judgement in receive {
                    handing.hand(judgement, &mut each);
                }
                // A panic there goes on here, as it would have from a join on this thread.
                applying
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            });
            let read = reading
                .and_then(Result::ok)
                .map(|r| r.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            (read, applied)
        });
        let (refused, parsed_next) = applied.unwrap_or_else(|| {
            let (parsed, events) = job.take().expect("a batch no thread took");
            let mut out = Vec::new();
            let applied = rayon::join(
                || {
                    let mut keep = |judgement| {
                        out.push(judgement);
                        true
                    };
                    apply_and_judge(reader, parsed, events, precision, &mut keep)
                },
                || parse(&next.lines),
            );
            for judgement in out {
                handing.hand(judgement, &mut each);
            }
            applied
        });
        let further = match read {
            Some(batch) => Some(batch),
            None => further.then(|| Batch::read(|| lines.raw_line(), most, further_bytes)),
        };
        reader.give_lines(lines);
        read_ahead = further;
        if handing == Handing::Stopped {
            return Ok(());
        }
        if let Some(e) = refused {
            return Err(e);
        }
        if stopped {
            return Ok(());
        }
        if let Some(e) = batch.error {
            return Err(e);
        }
        if !(watch.batch)(reader) {
            return Ok(());
        }
        let done = if ahead {
            parsed_ahead = Some(parsed_next);
            std::mem::replace(&mut batch, next)
        } else {
            let bytes = sizes.take();
            std::mem::replace(&mut batch, Batch::read(|| reader.raw_line(), most, bytes))
        };
        reader.recycle(done.lines);
    }
}

/// The bytes of the batches read one after another: from the first's, doubling, up to
/// [`BATCH_BYTES`].
struct Sizes(usize);

impl Sizes {
    /// The next batch's bytes.
    fn take(&mut self) -> usize {
        let bytes = self.0;
        self.0 = (bytes * 2).min(BATCH_BYTES);
        bytes
    }
}

/// Lines read together: at most so many lines or about so many bytes, ended early by the
/// input's end or by a line the reader refuses (`error`, met after `lines`).
#[derive(Default)]
struct Batch {
    lines: Vec<RawLine>,
    /// The bytes of its lines.
    bytes: usize,
    /// It holds as many lines or bytes as it was read for (neither the input's end nor a
    /// refused line ended it): more may follow.
    full: bool,
    error: Option<FileError>,
}

impl Batch {
    /// The lines `raw_line` gives (a reader's, or its lines taken out while it applies), up
    /// to `most` lines or about `bytes` bytes (the line that reaches them kept whole).
    fn read(
        mut raw_line: impl FnMut() -> Result<Option<RawLine>, FileError>,
        most: usize,
        bytes: usize,
    ) -> Self {
        let mut batch = Self::default();
        loop {
            if batch.lines.len() >= most || batch.bytes >= bytes {
                batch.full = true;
                break;
            }
            match raw_line() {
                Ok(Some(line)) => {
                    batch.bytes += line.len();
                    batch.lines.push(line);
                }
                Ok(None) => break,
                Err(e) => {
                    batch.error = Some(e);
                    break;
                }
            }
        }
        batch
    }
}

/// Every line parsed, on every core.
fn parse(lines: &[RawLine]) -> Vec<ParsedLine> {
    lines.par_iter().map(RawLine::parsed).collect()
}

/// Whether the caller still takes judgements: once its `each` says `false`, the rest of the
/// batch is judged (the reader stands after it, as for a batch handed out whole) but not handed
/// out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Handing {
    Going,
    Stopped,
}

impl Handing {
    fn hand(&mut self, judgement: FrameJudgement, each: &mut impl FnMut(FrameJudgement) -> bool) {
        if *self == Handing::Going && !each(judgement) {
            *self = Handing::Stopped;
        }
    }
}

/// The parsed lines applied in order, each frame's claims judged (on every core) and, with a
/// finder, its events named, each frame's judgement given to `hand` as it is made (`false`
/// stops); the refused line that ended them, if one did.
fn apply_and_judge(
    reader: &mut CaptureReader,
    parsed: Vec<ParsedLine>,
    mut events: Option<&mut EventFinder>,
    precision: Precision,
    hand: &mut dyn FnMut(FrameJudgement) -> bool,
) -> Option<FileError> {
    for line in parsed {
        let mut frame = match reader.apply_line(line) {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            // A refused line ends the scan after the frames before it are handed out.
            Err(e) => return Some(e),
        };
        let state = reader.state();
        // The claims whose shapes the frame holds (a claim naming one not there is not
        // judged), each judged straight into its place in the list: a filtering collect
        // would gather rayon's lists and move each judgement twice more.
        let judge = || {
            let found: Vec<_> = (frame.claims.iter())
                .filter_map(|claim| Some((claim, (state.shape(claim.a)?, state.shape(claim.b)?))))
                .collect();
            let mut claims = Vec::new();
            (found.par_iter())
                .map(|&(claim, shapes)| judge_found(state, claim, shapes, precision))
                .collect_into_vec(&mut claims);
            claims
        };
        // The step's events need no judgement: found while the claims are judged.
        let (claims, events) = match events.as_deref_mut() {
            Some(finder) => {
                let (claims, events) = rayon::join(judge, || finder.moved(state, &frame));
                (claims, Some((finder, events)))
            }
            None => (judge(), None),
        };
        let mut judgement = FrameJudgement {
            frame: frame.frame,
            time: frame.time,
            claims,
            events: Vec::new(),
            malformed: std::mem::take(&mut frame.malformed),
        };
        if let Some((finder, events)) = events {
            finder.judged(state, &frame, &judgement);
            judgement.events = events;
        }
        if !hand(judgement) {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::io::Cursor;
    use std::path::Path;

    const HEADER: &str = r#"{"format": "collidoscope-capture", "version": 1, "engine": {"name": "box2d", "version": "3.2.0"}, "precision": "f32", "units": "m", "y_up": true}"#;

    /// A capture of `frames` frames of two circles drifting into each other, one claim each;
    /// frame `bad` (if any) numbered wrong. With each frame line's end (a byte offset).
    fn capture(frames: u64, bad: Option<u64>) -> (String, Vec<u64>) {
        let mut text = format!("{HEADER}\n");
        let mut ends = Vec::new();
        for k in 0..frames {
            let number = if Some(k) == bad { k + 7 } else { k };
            let x = 1.5 - 0.01 * k as f64;
            text.push_str(&format!(
                r#"{{"frame":{number},"time":{},"shapes":[{{"id":1,"kind":"circle","radius":0.5,"position":[0.0,0.0]}},{{"id":2,"kind":"circle","radius":0.5,"position":[{x},0.0]}}],"claims":[{{"a":1,"b":2,"intersecting":true,"depth":0.1,"normal":[1.0,0.0],"contacts":[[0.5,0.0]]}}]}}"#,
                k as f64 / 60.0
            ));
            text.push('\n');
            ends.push(text.len() as u64);
        }
        (text, ends)
    }

    /// Batches grow from the first's bytes, doubling, and stay at the largest.
    #[test]
    fn batches_grow_from_the_first_to_the_largest() {
        let mut sizes = Sizes(FIRST_BATCH_BYTES);
        let taken: Vec<usize> = (0..8).map(|_| sizes.take() >> 20).collect();
        assert_eq!(taken, [1, 2, 4, 8, 16, 32, 32, 32]);
    }

    fn reader(text: &str) -> CaptureReader {
        CaptureReader::new(Path::new("t.capture.jsonl"), Cursor::new(text.to_string())).unwrap()
    }

    /// What a watcher saw, in order.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Line(usize),
        Frame(u64),
        /// The reader after a batch: the line it stands at and the bytes it consumed.
        Batch(usize, u64),
    }

    fn scan(text: &str, lines: usize, stop_at: Option<usize>) -> (Vec<Seen>, Result<(), String>) {
        let seen = RefCell::new(Vec::new());
        let mut reader = reader(text);
        let result = scan_capture(
            &mut reader,
            |j| {
                seen.borrow_mut().push(Seen::Frame(j.frame));
                true
            },
            Watch {
                line: Box::new(|raw| {
                    seen.borrow_mut().push(Seen::Line(raw.line()));
                    Some(raw.line()) != stop_at
                }),
                batch: Box::new(|r| {
                    let standing = (r.keyframe().line(), r.consumed());
                    seen.borrow_mut().push(Seen::Batch(standing.0, standing.1));
                    true
                }),
                events: None,
                lines,
            },
        );
        (seen.into_inner(), result.map_err(|e| e.to_string()))
    }

    /// What the scan shows, batch by batch, when nothing is read ahead: each batch's lines,
    /// its frames, then the reader after them.
    fn expected(ends: &[u64], lines: usize, upto: usize) -> Vec<Seen> {
        let mut out = Vec::new();
        for batch in (0..upto).collect::<Vec<_>>().chunks(lines) {
            out.extend(batch.iter().map(|k| Seen::Line(k + 2)));
            out.extend(batch.iter().map(|k| Seen::Frame(*k as u64)));
            let last = *batch.last().unwrap();
            out.push(Seen::Batch(last + 2, ends[last]));
        }
        out
    }

    #[test]
    fn reading_ahead_shows_each_batch_after_the_one_before_is_handed_out() {
        let (text, ends) = capture(20, None);
        for lines in [1, 3, 7, 20, BATCH_LINES] {
            let (seen, result) = scan(&text, lines, None);
            assert_eq!(result, Ok(()));
            assert_eq!(seen, expected(&ends, lines, 20), "{lines} lines a batch");
        }
    }

    #[test]
    fn a_refused_line_read_ahead_ends_the_scan_after_the_frames_before_it() {
        let (text, ends) = capture(20, Some(10));
        let (seen, result) = scan(&text, 3, None);
        let message = result.unwrap_err();
        assert!(
            message.contains("line 12") && message.contains("\"frame\" is 17"),
            "{message}"
        );
        // Batches of lines 2-4, 5-7, 8-10, then 11-13: frame 9 (line 11) is handed out.
        let mut want = expected(&ends, 3, 9);
        want.extend([11, 12, 13].map(Seen::Line));
        want.push(Seen::Frame(9));
        assert_eq!(seen, want);
    }

    #[test]
    fn a_watcher_stopping_at_a_line_read_ahead_gets_every_frame_before_it() {
        let (text, ends) = capture(20, None);
        let (seen, result) = scan(&text, 4, Some(8));
        assert_eq!(result, Ok(()));
        // Lines 2-5 in the first batch, then 6, 7 and 8 (refused) of the second.
        let mut want = expected(&ends, 4, 4);
        want.extend([6, 7, 8].map(Seen::Line));
        want.extend([4, 5].map(Seen::Frame));
        assert_eq!(seen, want);
    }

    /// A caller that says `false` gets no judgement after it (the frames are handed out as
    /// they are judged, the rest of the batch judged all the same), the scan ends there, and no
    /// later batch is shown.
    #[test]
    fn a_caller_stopping_mid_batch_gets_nothing_after_it() {
        let (text, _) = capture(20, None);
        for (lines, stop) in [(7, 3), (7, 6), (7, 7), (1, 4), (BATCH_LINES, 12)] {
            let seen = RefCell::new(Vec::new());
            let result = scan_capture(
                &mut reader(&text),
                |j| {
                    seen.borrow_mut().push(Seen::Frame(j.frame));
                    j.frame != stop
                },
                Watch {
                    line: Box::new(|raw| {
                        seen.borrow_mut().push(Seen::Line(raw.line()));
                        true
                    }),
                    batch: Box::new(|r| {
                        seen.borrow_mut()
                            .push(Seen::Batch(r.keyframe().line(), r.consumed()));
                        true
                    }),
                    events: None,
                    lines,
                },
            );
            assert!(result.is_ok(), "{lines} lines a batch");
            let seen = seen.into_inner();
            let frames: Vec<u64> = (seen.iter())
                .filter_map(|s| match s {
                    Seen::Frame(f) => Some(*f),
                    _ => None,
                })
                .collect();
            assert_eq!(
                frames,
                (0..=stop).collect::<Vec<_>>(),
                "{lines} lines a batch"
            );
            // Nothing is seen after the frame that stopped it.
            assert_eq!(
                seen.last(),
                Some(&Seen::Frame(stop)),
                "{lines} lines a batch"
            );
        }
    }

    #[test]
    fn every_frame_is_judged_as_one_read_at_a_time_is() {
        let (text, _) = capture(30, None);
        let mut one = reader(&text);
        let mut alone = Vec::new();
        while let Some(frame) = one.next_frame().unwrap() {
            alone.push(crate::capture::judge_frame(&one, &frame));
        }
        let mut batched = Vec::new();
        judge_capture(&mut reader(&text), |j| {
            batched.push(j);
            true
        })
        .unwrap();
        assert_eq!(alone.len(), 30);
        assert_eq!(alone, batched);
    }
}
