//! The capture lab: a game's own frames (a capture its engine wrote), each claim judged at the
//! engine's precision. The timeline plays and scrubs the frames with a strip under it: a tick
//! for every claim that disagrees, a row per cause that reproduces it and one for "no known
//! mistake"; "Next divergence" jumps to the next one, and the first is shown on opening. The
//! frame shown draws every shape at its pose (y down when the capture says so) and the selected
//! claim as the Claimed tab draws one, beside the exact result and, when asked, a mistake's own
//! test. The panel names the engine, precision, units and tau, counts claims and agreements,
//! explains the selected claim (the pair's axes at that frame) and lists every disagreeing
//! claim (a click shows its frame and pair).
//!
//! The capture is read by [`CaptureIndex`]: scanned and judged on its own thread while the
//! first frames show, each frame read again from the nearest keyframe.

pub(crate) mod capture_live;
mod commands;
pub(crate) mod compare;
mod live;
mod panel;
mod plot;
mod strip;

use crate::app::command::Message;
use crate::app::command::{CaptureCommand, ClaimRef, Command, Commands, Fit, TimelineId};
use crate::app::document::path_field::PathField;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::app::labs::capture_lab::capture_live::{BeganAgain, Live};
use crate::app::labs::capture_lab::compare::Compare;
use crate::app::labs::motion_lab::frame_pair::FramePair;
use crate::app::playback::{Playback, PlaybackCommand, Timeline};
use crate::app::words;
use crate::capture::{CaptureEvent, CaptureIndex, FrameEntry, LinkEvent, ScanState, ShownFrame};
use crate::picture::EventPicture;
use crate::picture::palette;
use crate::query::{Mistake, SatReport, mistaken_piece_report, mistaken_report};
use crate::scene::{Claim, Scene};
use crate::text;
use crate::{Cause, Judgement};
use eframe::egui::{self, RichText};
use std::path::Path;

/// The capture's frames as a timeline: frame k at its own time (seconds).
struct Frames<'a>(&'a [FrameEntry]);

impl Timeline for Frames<'_> {
    fn last(&self) -> u64 {
        self.0.len().saturating_sub(1) as u64
    }

    fn time_of(&self, k: u64) -> f64 {
        self.0.get(k as usize).map_or(0.0, |f| f.time)
    }

    fn units_per_second(&self) -> f64 {
        1.0
    }
}

/// The strip's rows: one per cause, then "no known mistake".
const ROWS: usize = Cause::ALL.len() + 1;

/// The row of a disagreeing claim with `causes`: its first cause's, else the last.
fn row_of(causes: &[Cause]) -> usize {
    causes
        .first()
        .and_then(|c| Cause::ALL.iter().position(|k| k == c))
        .unwrap_or(ROWS - 1)
}

/// How long a frame of the window waits for the frame it asked for before it goes on (and
/// shows it in a later frame): a read from a nearby frame fits, a far jump does not hold the
/// window.
const FRAME_WAIT: std::time::Duration = std::time::Duration::from_millis(8);

/// The name of strip row `row`.
fn row_name(row: usize) -> &'static str {
    Cause::ALL.get(row).map_or("no known mistake", |c| c.name())
}

/// The lab's state.
pub struct CaptureLab {
    index: Option<CaptureIndex>,
    /// Bumped whenever another capture is opened (what the view's cache keys on).
    opened: u64,
    /// The frame shown (its position in the capture) and how the frames play.
    pub playback: Playback,
    shown: Option<ShownFrame>,
    /// Why the frame asked for could not be read, and its position (not asked for again
    /// until another is).
    problem: Option<String>,
    unreadable: Option<usize>,
    /// The claim explained: its pair (ids) and piece; kept while the frames change.
    selected: Option<ClaimRef>,
    /// The event shown (its place in the index's events), when one was stepped to.
    event: Option<usize>,
    /// The event stepped to: its frame's position, the event, and its picture once that
    /// frame is read (drawn while that frame is shown).
    chosen: Option<(usize, CaptureEvent, Option<EventPicture>)>,
    /// Bumped whenever another event is stepped to (what the view's cache keys on).
    chosen_count: u64,
    /// The first divergence was shown, or the user moved before the scan found one.
    settled: bool,
    /// The selected claim's pair at the frame shown.
    pair: FramePair,
    /// The first shape of a pair being picked in the scene (its id).
    picked: Option<u64>,
    /// The mistake whose own test is drawn beside the correct one, and that test.
    mistake: Option<(Mistake, SatReport)>,
    /// Where "Export fixture of this frame" writes: proposed as `GAME-frame-N.json` beside
    /// the capture (following the frame shown) until the user types a path of their own.
    pub path: PathField,
    /// The capture to follow as it is written.
    pub follow_path: PathField,
    /// An existing file the user was told Export would replace: a second Export replaces it.
    replacing: Option<std::path::PathBuf>,
    /// Each strip row's count of disagreeing claims, and how many divergences were counted.
    by_row: ([u64; ROWS], usize),
    /// What the view is to show once the frame is read: the first frame of a capture opened,
    /// the pair of a divergence jumped to.
    fit: Option<Fit>,
    /// What the status bar is to say next: the scan's end (every claim judged, or the line
    /// that refused the capture).
    message: Option<Message>,
    /// A Box2D recording being replayed into a capture on its own thread.
    replaying: Option<Replaying>,
    /// Following a capture as it is written, listening for a game, the break.
    live: Live,
    /// A second run compared with this one, drawn as ghosts.
    compare: Option<Compare>,
    /// Where the capture to compare with is typed.
    pub compare_path: PathField,
    /// The next capture the page's picker gives is compared, not opened.
    compare_next: bool,
    /// Why the last capture asked for could not be compared (shown until another is).
    compare_problem: Option<String>,
    /// Moves of the frame shown asked for by the user (what the comparison's jump checks).
    moves: u64,
    /// The moves counted when a comparison began: while no other comes, the frame where the
    /// runs part is shown once they are compared.
    compare_jump: Option<u64>,
    /// A shape to bring into view once the frame shown is read (where the compared runs part,
    /// the shape that differs most): the first claim it is in is explained.
    reveal: Option<u64>,
    /// The Plot panel's quantities and the plot being read.
    pub plot: plot::CapturePlot,
    /// The impulses of the frame shown, for View > Impulses.
    impulses: Option<crate::picture::draw::ImpulsesShown>,
}

/// A Box2D recording replayed on its own thread: the recording, the frames done and the
/// recording's count, and where the outcome arrives.
struct Replaying {
    recording: std::path::PathBuf,
    progress: std::sync::Arc<[std::sync::atomic::AtomicU64; 2]>,
    done: std::sync::mpsc::Receiver<Result<(std::path::PathBuf, String), String>>,
}

impl Default for CaptureLab {
    fn default() -> Self {
        Self {
            index: None,
            opened: 0,
            playback: Playback::new(1.0),
            shown: None,
            problem: None,
            unreadable: None,
            selected: None,
            event: None,
            chosen: None,
            chosen_count: 0,
            settled: false,
            pair: FramePair::default(),
            picked: None,
            mistake: None,
            path: PathField::new(".json"),
            follow_path: PathField::new(".capture.jsonl"),
            by_row: ([0; ROWS], 0),
            fit: None,
            replacing: None,
            message: None,
            replaying: None,
            live: Live::default(),
            compare: None,
            compare_path: PathField::new(".capture.jsonl"),
            compare_next: false,
            compare_problem: None,
            moves: 0,
            compare_jump: None,
            reveal: None,
            plot: plot::CapturePlot::default(),
            impulses: None,
        }
    }
}

impl CaptureLab {
    /// What the view draws in this lab: the frame shown (not editable), the selected claim's
    /// pair with its report and the claim, and a mistake's test when one is shown.
    pub fn view(&self) -> LabView<'_> {
        let scene = self.shown.as_ref().map(|s| &s.scene);
        let mut view = LabView::document(PairShown::Own {
            pair: self.pair.report(),
            focus_axis: self.pair.focus_axis(),
            claim: self.selected_claim(),
            mistake: self.mistake.as_ref().map(|(_, r)| r),
        });
        view.scene = scene;
        view.fit_scene = scene;
        view.editable = false;
        view.document_shapes = false;
        view.claim_and_motion = false;
        view.y_down = self.index.as_ref().is_some_and(|i| !i.header().y_up);
        view.event = self.event_picture();
        view.impulses = self.impulses.as_ref();
        view.marked = self.picked_index();
        if let Some((ghost, apart)) = self.compare.as_ref().and_then(Compare::ghost) {
            view.ghost = Some(ghost);
            view.ghost_apart = apart;
        }
        let position = self.shown.as_ref().map(|s| s.position);
        view.static_key = hash_of((2u8, self.opened, position));
        view.frame_key = hash_of((
            self.opened,
            position,
            self.selected,
            self.mistake.as_ref().map(|(m, _)| *m),
            self.pair.focus_axis(),
            self.chosen_count,
            view.event.is_some(),
            view.marked,
            self.compare.as_ref().map(|c| c.revision),
        ));
        view
    }

    /// The event stepped to, while its frame is shown.
    fn chosen_event(&self) -> Option<&CaptureEvent> {
        let shown = self.shown.as_ref()?;
        let (position, e, _) = self.chosen.as_ref()?;
        (*position == shown.position).then_some(e)
    }

    /// The picture of the event stepped to, while its frame is shown.
    pub fn event_picture(&self) -> Option<&EventPicture> {
        self.chosen_event()?;
        self.chosen.as_ref()?.2.as_ref()
    }

    /// Read what the picture of the event stepped to needs (the next frame, or the one a
    /// stale contact belongs to) once its frame is shown.
    fn draw_event(&mut self) {
        let (Some(index), Some(shown)) = (&self.index, &self.shown) else {
            return;
        };
        let Some((position, e, picture @ None)) = &mut self.chosen else {
            return;
        };
        if *position != shown.position {
            return;
        }
        let other = match e.other_frame().and_then(|f| index.position_of(f)) {
            Some(q) => match shown.beside.as_deref().filter(|b| b.position == q) {
                Some(beside) => Some(beside),
                // Asked for with the frame (see `advance`): drawn once it is read.
                None if index.pending().is_some() => return,
                None => None,
            },
            None => None,
        };
        *picture = crate::picture::event_picture(e, shown, other);
    }

    /// The frame shown, as a shape set (what the shapes panel lists, read-only).
    pub fn frame_scene(&self) -> Option<&Scene> {
        self.shown.as_ref().map(|s| &s.scene)
    }

    /// What the view should show now, once the frame asked for is read: the whole first frame
    /// of a capture opened, the pair of a divergence jumped to (when it is out of view).
    pub fn take_fit(&mut self) -> Option<Fit> {
        let ready = self
            .shown
            .as_ref()
            .is_some_and(|s| s.position as u64 == self.playback.position);
        if ready { self.fit.take() } else { None }
    }

    /// What the status bar is to say, once: the scan's end.
    pub fn take_message(&mut self) -> Option<Message> {
        self.message.take()
    }

    /// Whether a capture is open.
    pub fn is_open(&self) -> bool {
        self.index.is_some()
    }

    /// The first shape of a pair being picked in the scene (its id).
    pub fn picked(&self) -> Option<u64> {
        self.picked
    }

    /// Where the picked shape is in the frame shown's list.
    fn picked_index(&self) -> Option<usize> {
        let picked = self.picked?;
        self.shown.as_ref()?.ids.iter().position(|id| *id == picked)
    }

    /// The frame shown's shapes as the read-only list shows them: which one is picked, and
    /// which two are the explained pair.
    pub fn list_marks(&self) -> Vec<usize> {
        let Some(shown) = &self.shown else {
            return Vec::new();
        };
        let pair = self.selected.map_or([None, None], |c| {
            [c.a, c.b].map(|id| shown.ids.iter().position(|i| *i == id))
        });
        pair.into_iter()
            .chain([self.picked_index()])
            .flatten()
            .collect()
    }

    /// The capture open, if any.
    pub fn index(&self) -> Option<&CaptureIndex> {
        self.index.as_ref()
    }

    /// The frame shown, if any.
    pub fn shown(&self) -> Option<&ShownFrame> {
        self.shown.as_ref()
    }

    /// The claim explained, if any.
    pub fn selected(&self) -> Option<ClaimRef> {
        self.selected
    }

    /// The mistake whose test is drawn.
    pub fn shown_mistake(&self) -> Option<Mistake> {
        self.mistake.as_ref().map(|(m, _)| *m)
    }

    /// Carry out a playback command on the capture's frames (moving by hand settles the
    /// opening: the first divergence found later no longer takes the view).
    pub fn play(&mut self, command: PlaybackCommand) {
        self.settled = true;
        self.moves += 1;
        let Some(index) = &self.index else { return };
        // While following, the last frame goes live again; any other move holds the frame.
        if index.is_live() && command == PlaybackCommand::Last {
            self.live.resume(Some(index));
        } else {
            self.live.at_end = false;
        }
        self.playback.apply(command, &Frames(index.frames()));
    }

    /// Take what the scan found, advance playback by `elapsed` seconds, and read the frame
    /// shown when it changed. Returns whether the lab is busy (playing or scanning).
    pub fn refresh(&mut self, elapsed: f64) -> bool {
        let Some(index) = &mut self.index else {
            return false;
        };
        let scanning = matches!(index.state(), ScanState::Reading(_));
        if index.update() {
            self.count_rows();
            self.hold_or_follow();
        }
        let index = self.index.as_mut().expect("open");
        if scanning {
            self.message = match index.state() {
                // While reading, a break's message (a capture followed) stands.
                ScanState::Reading(_) => self.message.take(),
                ScanState::Done
                    if self
                        .live
                        .refused
                        .as_ref()
                        .is_some_and(|(p, _)| p == index.path()) =>
                {
                    self.live.refused.as_ref().map(|(_, why)| Message {
                        text: why.clone(),
                        error: true,
                    })
                }
                ScanState::Done => {
                    let causes: Vec<(&str, u64)> = (0..ROWS)
                        .map(|row| (row_name(row), self.by_row.0[row]))
                        .collect();
                    let mut said = words::capture_judged(
                        index.path(),
                        index.frames().len(),
                        index.counts(),
                        &causes,
                    );
                    if !index.events().is_empty() {
                        said.push_str(&format!(
                            "; events: {} (E steps to them)",
                            crate::capture::words::capture_event_counts(index.events())
                        ));
                    }
                    // A second run asked for and refused meanwhile is not hidden by the scan.
                    let refused = self.compare_problem.as_ref();
                    if let Some(problem) = refused {
                        said.push_str(&format!("; not compared: {problem}"));
                    }
                    Some(Message {
                        text: said,
                        error: refused.is_some(),
                    })
                }
                ScanState::Refused(problem) => Some(Message {
                    text: problem.clone(),
                    error: true,
                }),
            };
        }
        if !self.settled
            && let Some(first) = index.divergences().first().cloned()
        {
            self.settled = true;
            self.selected = Some(ClaimRef {
                a: first.a,
                b: first.b,
                piece: first.piece,
            });
            self.playback.apply(
                PlaybackCommand::Seek(first.position as u64),
                &Frames(index.frames()),
            );
            self.fit = Some(Fit::Pair);
        }
        if !self.settled && !scanning {
            self.settled = true;
        }
        let frames = Frames(index.frames());
        self.playback.advance(elapsed, &frames);
        let position = self.playback.position as usize;
        // The frame is read on the index's reader thread, the latest asked for winning: a
        // scrub never waits on the file. A frame ready within a few milliseconds is shown in
        // this very frame; a longer read shows when it is done.
        // The event stepped to is drawn with a second frame (the next, or the one a stale
        // contact belongs to), read on the same thread with its own.
        let beside = match &self.chosen {
            Some((at, e, None)) if *at == position => {
                e.other_frame().and_then(|f| index.position_of(f))
            }
            _ => None,
        };
        let shown_here = self.shown.as_ref().filter(|s| s.position == position);
        let wanted = !index.frames().is_empty()
            && self.unreadable != Some(position)
            && match shown_here {
                None => true,
                Some(s) => beside.is_some() && s.beside.as_ref().map(|b| b.position) != beside,
            };
        if wanted && index.pending() != Some(position) {
            index.request_beside(position, beside);
        }
        let mut fresh = false;
        if let Some((asked, read)) = index.take_shown(FRAME_WAIT) {
            fresh = true;
            match read {
                Ok(shown) => {
                    let units = &index.header().units;
                    self.impulses = Some(crate::picture::draw::ImpulsesShown::of_claims(
                        &shown.frame.claims,
                        units,
                    ))
                    .filter(|i| !i.arrows.is_empty());
                    self.shown = Some(shown);
                    self.problem = None;
                    self.unreadable = None;
                }
                Err(e) => {
                    self.problem = Some(e.to_string());
                    self.unreadable = Some(asked);
                }
            }
        }
        let reading = index.pending().is_some();
        self.follow(fresh);
        self.draw_event();
        let mut comparing = false;
        if let Some(compare) = &mut self.compare {
            let (said, busy) = compare.refresh(self.shown.as_ref());
            comparing = busy;
            if let Some((text, error)) = said {
                self.message = Some(Message { text, error });
                // Compared just now, the user not having moved since it began: shown where
                // the runs part.
                let parting = compare.parting().is_some();
                if !error && parting && self.compare_jump.take() == Some(self.moves) {
                    let jumped = self.apply(CaptureCommand::JumpToParting);
                    if let Some(m) = jumped.filter(|m| !m.error) {
                        self.message = Some(Message {
                            text: format!("compared: {}; shown here (J comes back to it)", m.text),
                            error: false,
                        });
                    }
                }
            }
        }
        self.reveal_shape();
        let plotting = self.refresh_plot();
        if fresh && self.selected.is_some() && self.fit.is_none() {
            // Scrubbing or playing, the selected pair stays in view: the view moves only when
            // it leaves (a player that ran off the edge is brought back, the zoom kept).
            self.fit = Some(Fit::Reveal);
        }
        scanning || reading || comparing || plotting || self.playback.playing
    }

    /// Once the frame shown is the one asked for, bring the shape to reveal into view: the
    /// first claim of that frame it is in is explained (the pair filling the view), else the
    /// shape is marked as picked.
    fn reveal_shape(&mut self) {
        let Some(id) = self.reveal else { return };
        let Some(shown) = self
            .shown
            .as_ref()
            .filter(|s| s.position as u64 == self.playback.position)
        else {
            return;
        };
        self.reveal = None;
        let claim = shown
            .judged
            .claims
            .iter()
            .find(|j| j.a == id || j.b == id)
            .map(|j| ClaimRef {
                a: j.a,
                b: j.b,
                piece: j.piece(),
            });
        match claim {
            Some(claim) => {
                self.apply(CaptureCommand::Select(Some(claim)));
                self.fit = Some(Fit::Pair);
            }
            None => self.picked = shown.ids.contains(&id).then_some(id),
        }
    }

    /// The claim explained, as the frame's scene holds it (`None` when this frame has none).
    fn selected_claim(&self) -> Option<&Claim> {
        let (c, shown) = self.selected.zip(self.shown.as_ref())?;
        let ((a, b), _) = self.pair.report()?;
        let (a, b) = (shown.scene.shapes[a].id, shown.scene.shapes[b].id);
        shown
            .scene
            .claims
            .iter()
            .find(|k| (k.a, k.b) == (a, b) && k.reported.piece == c.piece)
    }

    /// The selected claim's judgement at the frame shown.
    fn judgement(&self) -> Option<&Judgement> {
        let (c, shown) = self.selected.zip(self.shown.as_ref())?;
        shown
            .judged
            .claims
            .iter()
            .find(|j| (j.a, j.b, j.piece()) == (c.a, c.b, c.piece))
    }

    /// Draw `mistake`'s own test of the selected pair beside the correct one (or none).
    fn show_mistake(&mut self, mistake: Option<Mistake>) {
        let piece = self.selected.and_then(|c| c.piece);
        let test = mistake.zip(self.shown.as_ref()).and_then(|(m, s)| {
            let ((a, b), _) = self.pair.report()?;
            let (a, b) = (&s.scene.shapes[a].placed, &s.scene.shapes[b].placed);
            let report = match piece {
                Some(piece) => mistaken_piece_report(m, a, b, piece)?,
                None => mistaken_report(m, a, b),
            };
            Some((m, report))
        });
        self.mistake = test;
    }

    /// Show `index`, just opened (to read or to follow), from its first frame; what the lab
    /// does live is kept.
    fn opened_index(&mut self, index: CaptureIndex) {
        *self = Self {
            opened: self.opened + 1,
            path: std::mem::take(&mut self.path),
            follow_path: std::mem::take(&mut self.follow_path),
            compare_path: std::mem::take(&mut self.compare_path),
            live: std::mem::take(&mut self.live),
            ..Self::default()
        };
        self.fit = Some(Fit::Scene);
        self.index = Some(index);
    }

    /// Count the disagreeing claims found since the last count into the strip's rows.
    fn count_rows(&mut self) {
        let Some(index) = &self.index else { return };
        let (rows, counted) = &mut self.by_row;
        for d in &index.divergences()[*counted..] {
            rows[row_of(&d.causes)] += 1;
        }
        *counted = index.divergences().len();
    }

    /// The next disagreeing claim after the one shown (the frame shown, then the claim).
    fn next_divergence(&self, forward: bool) -> Option<usize> {
        let index = self.index.as_ref()?;
        let divergences = index.divergences();
        let here = self.playback.position as usize;
        let current = divergences.iter().position(|d| {
            d.position == here
                && Some(ClaimRef {
                    a: d.a,
                    b: d.b,
                    piece: d.piece,
                }) == self.selected
        });
        if forward {
            let start = match current {
                Some(k) => k + 1,
                None => divergences.partition_point(|d| d.position <= here),
            };
            (start < divergences.len()).then_some(start)
        } else {
            let end = match current {
                Some(k) => k,
                None => divergences.partition_point(|d| d.position < here),
            };
            end.checked_sub(1)
        }
    }
}

/// The "document" the fixture path field follows for frame `frame` of the capture at
/// `capture`: `levels/game-frame-57.capture` for `levels/game.capture.jsonl.gz`, so that it
/// proposes `levels/game-frame-57.json`.
fn fixture_stem(capture: &Path, frame: u64) -> std::path::PathBuf {
    let name = capture
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = [".gz", ".jsonl", ".capture"]
        .iter()
        .fold(name.as_str(), |n, suffix| {
            n.strip_suffix(suffix).unwrap_or(n)
        });
    capture.with_file_name(format!("{base}-frame-{frame}.capture"))
}
