//! A whole capture judged on every core, as a stream: lines are read in batches, parsed in
//! parallel, applied in order (each frame's claimed pairs copied out with their poses and the
//! poses before), and the claims judged in parallel. Only a batch is ever in memory.

use super::{CaptureReader, FrameClaim, FrameJudgement, RawLine, judge_claim};
use crate::files::FileError;
use crate::geometry::Placed;
use rayon::prelude::*;
use std::sync::Arc;

/// About this many bytes of lines are parsed and judged together.
const BATCH_BYTES: usize = 4 << 20;
/// And at most this many lines.
const BATCH_LINES: usize = 512;

/// One claim with everything its judgement needs.
struct Job {
    claim: FrameClaim,
    names: (Option<Arc<str>>, Option<Arc<str>>),
    now: (Placed, Placed),
    before: Option<(Placed, Placed)>,
}

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
    /// Each line read, in order, before it is parsed.
    pub line: Box<dyn FnMut(&RawLine) + 'a>,
    /// The reader after a batch; `false` stops the scan.
    pub batch: Box<dyn FnMut(&CaptureReader) -> bool + 'a>,
}

impl Default for Watch<'_> {
    fn default() -> Self {
        Self {
            line: Box::new(|_| {}),
            batch: Box::new(|_| true),
        }
    }
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
        while raw.len() < BATCH_LINES && bytes < BATCH_BYTES {
            let Some(line) = reader.raw_line()? else {
                break;
            };
            bytes += line.len();
            (watch.line)(&line);
            raw.push(line);
        }
        if raw.is_empty() {
            return Ok(());
        }
        let parsed: Vec<_> = raw.into_par_iter().map(|line| line.parse()).collect();
        let mut frames = Vec::with_capacity(parsed.len());
        let mut jobs = Vec::new();
        // A refused line ends the scan after the frames before it are handed out.
        let mut refused = None;
        for line in parsed {
            let frame = match reader.apply_line(line) {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    refused = Some(e);
                    break;
                }
            };
            let first = jobs.len();
            for claim in &frame.claims {
                let (Some(a), Some(b)) = (reader.shape(claim.a), reader.shape(claim.b)) else {
                    continue;
                };
                let before = reader
                    .previous(claim.a)
                    .zip(reader.previous(claim.b))
                    .map(|(a, b)| (a.clone(), b.clone()));
                jobs.push(Job {
                    claim: claim.clone(),
                    names: (a.name.clone(), b.name.clone()),
                    now: (a.placed.clone(), b.placed.clone()),
                    before,
                });
            }
            frames.push((frame.frame, frame.time, first..jobs.len()));
        }
        let mut judged: Vec<_> = jobs
            .par_iter()
            .map(|job| {
                judge_claim(
                    &job.claim,
                    job.names.clone(),
                    (&job.now.0, &job.now.1),
                    job.before.as_ref().map(|(a, b)| (a, b)),
                    precision,
                )
            })
            .collect();
        // Hand them out in order, from the back so each frame's claims move out whole.
        let mut out = Vec::with_capacity(frames.len());
        for (frame, time, range) in frames.into_iter().rev() {
            let claims = judged.split_off(range.start);
            out.push(FrameJudgement {
                frame,
                time,
                claims,
            });
        }
        for judgement in out.into_iter().rev() {
            if !each(judgement) {
                return Ok(());
            }
        }
        if let Some(e) = refused {
            return Err(e);
        }
        if !(watch.batch)(reader) {
            return Ok(());
        }
    }
}
