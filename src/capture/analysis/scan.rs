//! A whole capture judged on every core, as a stream: lines are read in batches, parsed in
//! parallel, applied in order, and each frame's claims judged in parallel where the reader
//! holds them (nothing copied). Only a batch is ever in memory.

use crate::capture::analysis::events::EventFinder;
use crate::capture::analysis::judge::judge_at;
use crate::capture::{CaptureReader, FrameJudgement, RawLine};
use crate::files::FileError;
use rayon::prelude::*;

/// About this many bytes of lines are parsed and judged together.
const BATCH_BYTES: usize = 4 << 20;
/// And at most this many lines.
pub(in crate::capture) const BATCH_LINES: usize = 512;

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
pub fn scan_capture(
    reader: &mut CaptureReader,
    mut each: impl FnMut(FrameJudgement) -> bool,
    mut watch: Watch,
) -> Result<(), FileError> {
    let precision = reader.header().precision;
    loop {
        let mut raw = Vec::new();
        let mut bytes = 0;
        let mut stopped = false;
        while raw.len() < watch.lines.max(1) && bytes < BATCH_BYTES {
            let Some(line) = reader.raw_line()? else {
                break;
            };
            bytes += line.len();
            if !(watch.line)(&line) {
                stopped = true;
                break;
            }
            raw.push(line);
        }
        if raw.is_empty() {
            return Ok(());
        }
        let parsed: Vec<_> = raw.into_par_iter().map(|line| line.parse()).collect();
        let mut out = Vec::with_capacity(parsed.len());
        // A refused line ends the scan after the frames before it are handed out.
        let mut refused = None;
        for line in parsed {
            let mut frame = match reader.apply_line(line) {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    refused = Some(e);
                    break;
                }
            };
            let state = reader.state();
            let judge = || {
                frame
                    .claims
                    .par_iter()
                    .filter_map(|claim| judge_at(state, claim, precision))
                    .collect()
            };
            // The step's events need no judgement: found while the claims are judged.
            let (claims, events) = match watch.events.as_deref_mut() {
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
            out.push(judgement);
        }
        for judgement in out {
            if !each(judgement) {
                return Ok(());
            }
        }
        if let Some(e) = refused {
            return Err(e);
        }
        if stopped || !(watch.batch)(reader) {
            return Ok(());
        }
    }
}
