//! A step judged in the game's own process: the frame the writer just wrote, read back by
//! the capture reader's rules and judged as `diagnose` judges it (every claim at the capture's
//! precision, the events the frame completed), so a game logs what went wrong as it happens
//! and a test fails at the step where it did (`assert!(step.is_clean(), "{step}")`).

use crate::Judgement;
use crate::capture::analysis::events::{CaptureEvent, EventFinder};
use crate::capture::format::parsed::FrameLine;
use crate::capture::words::{capture_event, malformed};
use crate::capture::{CaptureReader, Malformed, judge_frame};
use crate::files::FileError;
use crate::motion::EventKind;
use crate::motion::event_fix;
use crate::text::short_number;
use std::io::Cursor;
use std::path::Path;

/// What one step of a capture came to: its claims that disagree (with the known mistakes
/// that reproduce them), the events the frame completed (a seam, a tunnel, ...: an event is
/// found once the frame after its step is read, so it arrives one step late), and what the
/// engine gave that the capture holds as malformed.
#[derive(Clone, Debug)]
pub struct StepJudgement {
    /// The frame (the engine's step number).
    pub frame: u64,
    /// Simulated seconds at its start.
    pub time: f64,
    /// How many claims the frame holds.
    pub claims: usize,
    /// The claims that disagree with the exact result, judged.
    pub disagreeing: Vec<Judgement>,
    /// The events this frame completed.
    pub events: Vec<CaptureEvent>,
    /// The malformed entries of the frame (a NaN pose, a zero normal).
    pub malformed: Vec<Malformed>,
}

impl StepJudgement {
    /// A frame's judgement (its events found) as a step's: the claims that disagree, the
    /// events, what is malformed.
    pub fn of_frame(judged: &crate::capture::FrameJudgement) -> Self {
        Self {
            frame: judged.frame,
            time: judged.time,
            claims: judged.claims.len(),
            disagreeing: judged
                .claims
                .iter()
                .filter(|c| !c.agrees())
                .cloned()
                .collect(),
            events: judged.events.clone(),
            malformed: judged.malformed.clone(),
        }
    }

    /// Whether nothing went wrong: every claim agrees, no event but a normal flip (as
    /// `diagnose` exits 0), nothing malformed.
    pub fn is_clean(&self) -> bool {
        self.disagreeing.is_empty()
            && self.malformed.is_empty()
            && self
                .events
                .iter()
                .all(|e| e.kind() == EventKind::NormalFlip)
    }
}

impl std::fmt::Display for StepJudgement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut lines = step_judgement(self).into_iter();
        if let Some(first) = lines.next() {
            f.write_str(&first)?;
        }
        for line in lines {
            write!(f, "\n{line}")?;
        }
        Ok(())
    }
}

/// The writer's reader of its own lines.
pub(in crate::capture) struct InProcess {
    reader: CaptureReader,
    finder: EventFinder,
}

impl InProcess {
    /// A judge for the capture whose header line (without its newline) is `header`.
    pub(in crate::capture) fn new(header: &[u8]) -> Result<Self, FileError> {
        let mut text = header.to_vec();
        text.push(b'\n');
        let reader = CaptureReader::new(Path::new("(in process)"), Cursor::new(text))?;
        let finder = EventFinder::for_capture(reader.header());
        Ok(Self { reader, finder })
    }

    /// Read and judge the frame line just written (without its newline); `typed`, when the
    /// writer gives it, is the line's values as the reader's typed path reads them, taken
    /// without reading the text again (in a debug build, checked against the text).
    pub(in crate::capture) fn judge(
        &mut self,
        line: &[u8],
        typed: Option<FrameLine>,
    ) -> Result<StepJudgement, FileError> {
        let frame = match typed {
            Some(typed) => {
                debug_assert!(
                    crate::capture::format::fast::frame_line(line).as_ref() == Some(&typed),
                    "the writer's values differ from its line's: {}",
                    String::from_utf8_lossy(line)
                );
                self.reader.read_typed(typed)?
            }
            None => self.reader.read_written(line)?,
        };
        let mut judged = judge_frame(&self.reader, &frame);
        judged.events = self.finder.frame(&self.reader, &frame, &judged);
        Ok(StepJudgement::of_frame(&judged))
    }
}

/// A step judged in the game's process, in lines: the frame and its counts, then each
/// disagreeing claim (its causes and fix), each event with its fix, each malformed entry.
pub fn step_judgement(step: &crate::capture::StepJudgement) -> Vec<String> {
    let bad = step.disagreeing.len();
    let mut lines = vec![format!(
        "frame {} (t = {} s): {} claim{}, {}",
        step.frame,
        short_number(step.time),
        step.claims,
        if step.claims == 1 { "" } else { "s" },
        match (bad, step.events.len()) {
            (0, 0) => "every claim agrees".to_string(),
            (0, e) => format!(
                "every claim agrees; {e} event{}",
                if e == 1 { "" } else { "s" }
            ),
            (d, 0) => format!("{d} disagree{}", if d == 1 { "s" } else { "" }),
            (d, e) => format!(
                "{d} disagree{}; {e} event{}",
                if d == 1 { "s" } else { "" },
                if e == 1 { "" } else { "s" }
            ),
        }
    )];
    for j in &step.disagreeing {
        lines.extend(j.lines().into_iter().map(|l| format!("  {l}")));
    }
    for e in &step.events {
        lines.push(format!("  {}", capture_event(e, None)));
        lines.push(format!("    fix: {}", event_fix(e.kind())));
    }
    for m in &step.malformed {
        lines.push(format!("  {}", malformed(m)));
    }
    lines
}
