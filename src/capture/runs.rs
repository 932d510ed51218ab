//! Claims that differ, gathered into runs: the frames, one after another, in which one pair's
//! claim differs and the same causes reproduce it. A mistake an engine repeats every step for
//! two seconds is one run of 120 frames, not 120 findings.

use super::FrameJudgement;
use crate::Cause;
use std::collections::HashMap;
use std::sync::Arc;

/// Consecutive frames in which one pair's claim differs, reproduced by the same causes.
#[derive(Clone, Debug, PartialEq)]
pub struct DifferingRun {
    /// The first frame and its time.
    pub first: (u64, f64),
    /// The last frame and its time.
    pub last: (u64, f64),
    /// Shape A's id (in the claims' order).
    pub a: u64,
    /// Shape B's id.
    pub b: u64,
    /// The chain's piece, for a claim about one.
    pub piece: Option<usize>,
    /// A's and B's names, if they have them.
    pub names: (Option<Arc<str>>, Option<Arc<str>>),
    /// What reproduces the claims (empty: no known mistake).
    pub causes: Vec<Cause>,
}

impl DifferingRun {
    /// How many frames it spans.
    pub fn frames(&self) -> u64 {
        self.last.0 - self.first.0 + 1
    }
}

/// What makes two differing claims belong to one run.
type RunKey = (u64, u64, Option<usize>, Vec<Cause>);

/// Gathers the differing claims of a capture's frames, given in order, into runs.
#[derive(Debug, Default)]
pub struct DifferingRuns {
    /// Runs that reached the last frame given, by key, with their place among all runs.
    open: HashMap<RunKey, (usize, DifferingRun)>,
    /// Runs that ended, with their place.
    done: Vec<(usize, DifferingRun)>,
    started: usize,
}

impl DifferingRuns {
    /// Take one frame's judged claims (frames in order).
    pub fn push(&mut self, judged: &FrameJudgement) {
        let at = (judged.frame, judged.time);
        let mut still_open = HashMap::with_capacity(self.open.len());
        for c in judged.claims.iter().filter(|c| !c.agrees()) {
            let key = (c.a, c.b, c.piece(), c.causes().collect::<Vec<_>>());
            if still_open.contains_key(&key) {
                continue;
            }
            let run = match self.open.remove(&key) {
                Some((place, mut run)) if run.last.0 + 1 == judged.frame => {
                    run.last = at;
                    (place, run)
                }
                ended => {
                    self.done.extend(ended);
                    self.started += 1;
                    let run = DifferingRun {
                        first: at,
                        last: at,
                        a: c.a,
                        b: c.b,
                        piece: c.piece(),
                        names: c.names.clone(),
                        causes: key.3.clone(),
                    };
                    (self.started - 1, run)
                }
            };
            still_open.insert(key, run);
        }
        // Runs with no claim in this frame have ended.
        self.done
            .extend(std::mem::replace(&mut self.open, still_open).into_values());
    }

    /// Every run, in the order they started.
    pub fn finish(mut self) -> Vec<DifferingRun> {
        self.done.extend(self.open.into_values());
        self.done.sort_by_key(|(place, _)| *place);
        self.done.into_iter().map(|(_, run)| run).collect()
    }
}
