//! Claims that differ, gathered by pair: the runs of frames, one after another, in which the
//! pair's claim differs, how many, and what reproduces them (stale with its ages, as the events
//! say it, or the mistakes). A mistake an engine repeats every step for two seconds is one
//! line of 120 frames, not 120 findings; a pyramid whose contacts are recycled for three
//! seconds is a line per pair, not a line per change of cause.

use crate::Cause;
use crate::capture::FrameJudgement;
use std::collections::HashMap;
use std::sync::Arc;

/// How many runs of frames a [`DifferingPair`] keeps (it counts the rest): a pair that
/// flickers every other frame of ten minutes is said in a line, not 18,000 runs.
pub const KEPT_RUNS: usize = 4;

/// The claims of one pair that differ over a whole capture: when, how many, and what
/// reproduces them. A claim the events call `stale` (a contact the engine did not recompute)
/// counts as stale, whatever mistake happens to reproduce it too, as the events say it.
#[derive(Clone, Debug, PartialEq)]
pub struct DifferingPair {
    /// Shape A's id, as the pair's first differing claim orders it.
    pub a: u64,
    /// Shape B's id.
    pub b: u64,
    /// The chain's piece, for claims about one.
    pub piece: Option<usize>,
    /// A's and B's names, if they have them.
    pub names: (Option<Arc<str>>, Option<Arc<str>>),
    /// The first frame with a differing claim, and its time.
    pub first: (u64, f64),
    /// The last, and its time.
    pub last: (u64, f64),
    /// How many of its claims differ.
    pub claims: u64,
    /// The first [`KEPT_RUNS`] runs of consecutive frames (first and last frame).
    pub runs: Vec<(u64, u64)>,
    /// How many runs there are.
    pub run_count: u64,
    /// How many of its claims are stale.
    pub stale: u64,
    /// The least and the greatest age among them (frames back).
    pub ages: Option<(u64, u64)>,
    /// The claims that are not stale, by what reproduces them (an empty list: no known
    /// mistake), in the order first met.
    pub causes: Vec<(Vec<Cause>, u64)>,
}

impl DifferingPair {
    /// A differing claim at frame `at` (frames in order): the run it goes on, or a new one.
    fn frame(&mut self, at: (u64, f64)) {
        let started = self.run_count > 0;
        if started && self.last.0 + 1 == at.0 {
            // The run goes on; it is kept when it is one of the first.
            if self.runs.len() == self.run_count as usize
                && let Some(run) = self.runs.last_mut()
            {
                run.1 = at.0;
            }
        } else if !(started && self.last.0 == at.0) {
            self.run_count += 1;
            if self.runs.len() < KEPT_RUNS {
                self.runs.push((at.0, at.0));
            }
        }
        self.last = at;
    }
}

/// One pair's claim and its place: the pair's key, the frame, and the claim.
type PairKey = (u64, u64, Option<usize>);

/// Gathers the differing claims of a capture's frames, given in order, by pair; a claim is
/// counted once the events that may call it stale have come (the event finder says a frame's
/// stale claims with the next frame's events).
#[derive(Debug, Default)]
pub struct DifferingPairs {
    pairs: Vec<DifferingPair>,
    place: HashMap<PairKey, usize>,
    /// Differing claims of the frame before, waiting for their stale events.
    waiting: Vec<(u64, f64, crate::Judgement)>,
    /// Stale events' ages by frame and pair (lower id first), for the frames waiting.
    ages: HashMap<(u64, u64, u64), u64>,
}

impl DifferingPairs {
    /// Take one frame's judged claims (frames in order), with the events its judgement
    /// brought.
    pub fn push(&mut self, judged: &FrameJudgement) {
        self.take_events(&judged.events);
        let waiting = std::mem::take(&mut self.waiting);
        self.count(waiting);
        self.waiting = judged
            .claims
            .iter()
            .filter(|c| !c.agrees())
            .map(|c| (judged.frame, judged.time, c.clone()))
            .collect();
    }

    fn take_events(&mut self, events: &[crate::capture::CaptureEvent]) {
        for e in events {
            if e.kind() == crate::motion::EventKind::Stale {
                let age = e.age().unwrap_or(0);
                self.ages
                    .insert((e.frame(), e.a.min(e.b), e.a.max(e.b)), age);
            }
        }
    }

    fn count(&mut self, claims: Vec<(u64, f64, crate::Judgement)>) {
        let Some(counted) = claims.last().map(|c| c.0) else {
            return;
        };
        for (frame, time, c) in claims {
            let key = (c.a.min(c.b), c.a.max(c.b), c.piece());
            let at = (frame, time);
            let k = *self.place.entry(key).or_insert_with(|| {
                self.pairs.push(DifferingPair {
                    a: c.a,
                    b: c.b,
                    piece: c.piece(),
                    names: c.names.clone(),
                    first: at,
                    last: at,
                    claims: 0,
                    runs: Vec::new(),
                    run_count: 0,
                    stale: 0,
                    ages: None,
                    causes: Vec::new(),
                });
                self.pairs.len() - 1
            });
            let pair = &mut self.pairs[k];
            pair.frame(at);
            pair.claims += 1;
            match self.ages.get(&(frame, key.0, key.1)) {
                Some(&age) => {
                    pair.stale += 1;
                    pair.ages = Some(
                        pair.ages
                            .map_or((age, age), |(x, y)| (x.min(age), y.max(age))),
                    );
                }
                None => {
                    let causes: Vec<Cause> = c.causes().collect();
                    match pair.causes.iter_mut().find(|(k, _)| *k == causes) {
                        Some((_, n)) => *n += 1,
                        None => pair.causes.push((causes, 1)),
                    }
                }
            }
        }
        self.ages.retain(|k, _| k.0 > counted);
    }

    /// Every pair, in the order of their first differing claim; `events` are the capture's
    /// events not yet given (or all of them), for the last frame's stale claims.
    pub fn finish(mut self, events: &[crate::capture::CaptureEvent]) -> Vec<DifferingPair> {
        if let Some(frame) = self.waiting.first().map(|w| w.0) {
            let late: Vec<crate::capture::CaptureEvent> = events
                .iter()
                .filter(|e| e.frame() == frame)
                .cloned()
                .collect();
            self.take_events(&late);
        }
        let waiting = std::mem::take(&mut self.waiting);
        self.count(waiting);
        self.pairs
    }
}
