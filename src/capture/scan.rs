//! A whole capture judged on every core, as a stream: lines are read in batches, parsed in
//! parallel, applied in order (each frame's claimed pairs copied out with their poses and the
//! poses before), and the claims judged in parallel. Only a batch is ever in memory.

use super::{CaptureReader, FrameClaim, FrameJudgement, judge_claim};
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
    mut each: impl FnMut(FrameJudgement) -> bool,
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
            raw.push(line);
        }
        if raw.is_empty() {
            return Ok(());
        }
        let parsed: Vec<_> = raw.into_par_iter().map(|line| line.parse()).collect();
        let mut frames = Vec::with_capacity(parsed.len());
        let mut jobs = Vec::new();
        for line in parsed {
            let Some(frame) = reader.apply_line(line)? else {
                break;
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
    }
}
