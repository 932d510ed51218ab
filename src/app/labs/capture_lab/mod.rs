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
pub(crate) mod compare;

use crate::app::command::Message;
use crate::app::command::{CaptureCommand, ClaimRef, Command, Commands, Fit, TimelineId};
use crate::app::document::path_field::PathField;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::app::labs::capture_lab::capture_live::{BeganAgain, Live};
use crate::app::labs::capture_lab::compare::Compare;
use crate::app::labs::motion_lab::frame_pair::FramePair;
use crate::app::playback::{Playback, PlaybackCommand, Timeline};
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
                    let mut said = text::capture_judged(
                        index.path(),
                        index.frames().len(),
                        index.counts(),
                        &causes,
                    );
                    if !index.events().is_empty() {
                        said.push_str(&format!(
                            "; events: {} (E steps to them)",
                            text::capture_event_counts(index.events())
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
        if fresh && self.selected.is_some() && self.fit.is_none() {
            // Scrubbing or playing, the selected pair stays in view: the view moves only when
            // it leaves (a player that ran off the edge is brought back, the zoom kept).
            self.fit = Some(Fit::Reveal);
        }
        scanning || reading || comparing || self.playback.playing
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

    /// The selected claim's pair at the frame shown: its report, and the mistake's test.
    fn follow(&mut self, fresh: bool) {
        // A pair chosen from an event names its shapes in the event's order; the frame's claim
        // may name them the other way round: the claim's order is taken, so the claim is found
        // and explained.
        if let (Some(c), Some(s)) = (self.selected, self.shown.as_ref()) {
            let claimed = |a, b| {
                s.judged
                    .claims
                    .iter()
                    .any(|j| (j.a, j.b, j.piece()) == (a, b, c.piece))
            };
            if !claimed(c.a, c.b) && claimed(c.b, c.a) {
                self.selected = Some(ClaimRef {
                    a: c.b,
                    b: c.a,
                    piece: c.piece,
                });
            }
        }
        let shown = self.shown.as_ref();
        let pair = self.selected.zip(shown).and_then(|(c, s)| {
            let a = s.ids.iter().position(|id| *id == c.a)?;
            let b = s.ids.iter().position(|id| *id == c.b)?;
            Some((a, b))
        });
        self.pair
            .follow(shown.map(|s| (s.frame.frame, &s.scene)), pair, fresh);
        if fresh && let Some((mistake, _)) = self.mistake {
            self.show_mistake(Some(mistake));
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
            .find(|k| (k.a, k.b) == (a, b) && k.piece == c.piece)
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

    /// While following: hold the frame of the first disagreement or event when the break is
    /// armed, else show the newest frame.
    fn hold_or_follow(&mut self) {
        let Some(index) = &self.index else { return };
        if let Some(found) = self.live.check(index) {
            let (a, b, piece) = found.pair;
            self.message = Some(Message {
                text: found.said,
                error: false,
            });
            self.apply(CaptureCommand::Show {
                position: found.position,
                claim: ClaimRef { a, b, piece },
            });
            if found.event {
                // Stepped to as E steps to it: its picture drawn over the frame.
                self.apply(CaptureCommand::NextEvent(true));
            }
            // The move was the break's, not the user's.
            self.live.at_end = false;
            self.fit = Some(Fit::Pair);
        } else if self.live.at_end {
            self.playback
                .apply(PlaybackCommand::Last, &Frames(index.frames()));
        }
    }

    /// What the link to a game and a file waited for brought since the last look (in every
    /// lab): a game connected or gone, a followed file begun. Whether a capture began to be
    /// followed (the window shows the capture lab then).
    pub fn poll_link(&mut self) -> bool {
        let mut began = false;
        for event in self.live.link_events() {
            let said = match event {
                LinkEvent::Connected {
                    capture,
                    engine,
                    part,
                } if self.live.stopped_at.is_some() && self.index.is_some() => {
                    // A break holds a frame: the user is looking at it; the new game waits.
                    self.live.pending = Some(capture);
                    Message {
                        text: text::game_waiting(&engine, part),
                        error: false,
                    }
                }
                LinkEvent::Connected {
                    capture,
                    engine,
                    part,
                } => {
                    let opened = self.apply(CaptureCommand::Follow(capture.clone()));
                    began |= self.index.as_ref().is_some_and(|i| i.path() == capture);
                    self.live.received = Some(capture);
                    match opened {
                        Some(m) if m.error => m,
                        _ => Message {
                            text: text::game_connected(&engine, part, self.live.pause_at_first),
                            error: false,
                        },
                    }
                }
                LinkEvent::Ended {
                    capture,
                    frames,
                    problem,
                } => {
                    if let Some(index) = self.index.as_mut().filter(|i| i.path() == capture) {
                        index.stop_following();
                    }
                    if let Some(problem) = &problem {
                        self.live.refused =
                            Some((capture.clone(), text::game_gone(frames, Some(problem))));
                    }
                    Message {
                        error: problem.is_some(),
                        text: text::game_gone(frames, problem.as_deref()),
                    }
                }
                LinkEvent::TurnedAway => Message {
                    text: "a second game tried to connect while one streams: turned away (one game at a time)".into(),
                    error: true,
                },
            };
            self.message = Some(said);
        }
        // A followed capture that began again (the file written again from its start, or
        // another file at its path: the game run again): its new run followed, from its header
        // (waited for when not written yet), the earlier run said.
        let again_now = self.index.as_ref().and_then(BeganAgain::of);
        let now = again_now.is_some();
        if let Some(again) = again_now {
            let opened = self.apply(CaptureCommand::Follow(again.path.clone()));
            // The new run refused: said in red.
            self.message = opened.filter(|m| m.error);
            began = true;
            self.live.began_again = Some(again);
        }
        if let Some(path) = self.live.due() {
            let opened = self.apply(CaptureCommand::Follow(path));
            began |= self.index.as_ref().is_some_and(|i| i.is_live());
            self.message = opened;
        }
        if let Some(again) = self.live.began_again.take() {
            let new = self
                .index
                .as_ref()
                .filter(|i| i.path() == again.path && i.is_live());
            let waited = (self.live.awaiting.as_ref()).is_some_and(|(p, _)| *p == again.path);
            // Said at once, and again with the new run's header when it was waited for.
            if new.is_some() || (waited && now) {
                self.message = Some(Message {
                    text: again.said(new.map(CaptureIndex::header)),
                    error: false,
                });
            }
            if waited {
                self.live.began_again = Some(again);
            }
        }
        began
    }

    /// The status bar's live state, when something live goes on.
    pub fn live_state(&self) -> Option<String> {
        self.live.state(self.index.as_ref())
    }

    /// The port the lab listens on for a game, while it does.
    pub fn listening_port(&self) -> Option<u16> {
        self.live.listener.as_ref().map(|l| l.port())
    }

    /// The position a break holds while following (until Go live).
    pub fn held(&self) -> Option<usize> {
        self.live.stopped_at
    }

    /// Whether the frame shown follows the newest as the capture grows.
    pub fn at_end(&self) -> bool {
        self.live.at_end
    }

    /// Whether something live goes on (the window keeps drawing).
    pub fn is_live(&self) -> bool {
        self.live.busy(self.index.as_ref())
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

    /// Carry out a command of the lab; what it did, for the status bar.
    pub fn apply(&mut self, command: CaptureCommand) -> Option<Message> {
        let ok = |text: String| Some(Message { text, error: false });
        let failed = |text: String| Some(Message { text, error: true });
        match command {
            CaptureCommand::Open(path) => match CaptureIndex::open(&path) {
                Err(e) => failed(e.to_string()),
                Ok(index) => {
                    self.opened_index(index);
                    self.live.received = None;
                    self.live.at_end = false;
                    ok(format!(
                        "opened the capture {}: its claims are judged as its frames are read",
                        path.display()
                    ))
                }
            },
            CaptureCommand::OpenBytes { name, bytes } => {
                match CaptureIndex::from_bytes(std::path::Path::new(&name), bytes) {
                    Err(e) => failed(e.to_string()),
                    Ok(index) => {
                        self.opened_index(index);
                        self.live.received = None;
                        self.live.at_end = false;
                        ok(format!(
                            "opened the capture {name}: its claims are judged as its frames are read"
                        ))
                    }
                }
            }
            CaptureCommand::Follow(path) => match CaptureIndex::follow(&path) {
                Ok(index) => {
                    self.opened_index(index);
                    self.settled = true;
                    self.live.started();
                    ok(text::following(&path, self.live.pause_at_first))
                }
                Err(_) if path.is_file() || !path.exists() => {
                    if path.is_file() && crate::capture::CaptureIndex::header_written(&path) {
                        return failed(format!("{}: cannot follow it", path.display()));
                    }
                    self.live.wait_for(path.clone());
                    ok(format!(
                        "waiting for {} to begin: it is followed once the game writes its header",
                        path.display()
                    ))
                }
                Err(e) => failed(e.to_string()),
            },
            CaptureCommand::GoLive => {
                if let Some(next) = self.live.pending.take() {
                    return self.apply(CaptureCommand::Follow(next));
                }
                let index = self.index.as_ref().filter(|i| i.is_live());
                let Some(index) = index else {
                    return failed(match &self.live.listener {
                        Some(l) => format!(
                            "nothing is live now: the game's stream ended; listening on 127.0.0.1:{} for the next",
                            l.port()
                        ),
                        None => {
                            "nothing is live: File > Listen for a game, or Follow a capture".into()
                        }
                    });
                };
                // What came while the frame was held, said so that it is not missed.
                let held = self
                    .live
                    .stopped_at
                    .unwrap_or(self.playback.position as usize);
                let skipped = index
                    .divergences()
                    .iter()
                    .filter(|d| d.position > held)
                    .count();
                let events = index
                    .events()
                    .iter()
                    .filter(|e| index.position_of(e.frame).is_some_and(|p| p > held))
                    .count();
                self.live.resume(Some(index));
                self.playback
                    .apply(PlaybackCommand::Last, &Frames(index.frames()));
                ok(text::gone_live(skipped, events))
            }
            CaptureCommand::StopFollowing => {
                let index = self.index.as_mut()?;
                index.stop_following();
                self.live.at_end = false;
                ok(format!(
                    "stopped following {}: the frames written so far are kept",
                    index.path().display()
                ))
            }
            CaptureCommand::PauseAtFirst(on) => {
                self.live.pause_at_first = on;
                None
            }
            CaptureCommand::Listen(port) => {
                self.live.listener = None;
                let folder = std::env::temp_dir().join("collidoscope-received");
                match crate::capture::Listener::bind(port, &folder) {
                    Ok(listener) => {
                        let said = text::listening(listener.port());
                        self.live.listener = Some(listener);
                        ok(said)
                    }
                    Err(e) => failed(format!("cannot listen on 127.0.0.1:{port}: {e}")),
                }
            }
            CaptureCommand::StopListening => self
                .live
                .listener
                .take()
                .and_then(|l| ok(format!("stopped listening on 127.0.0.1:{}", l.port()))),
            CaptureCommand::SaveReceived(to) => {
                let Some(from) = self.live.received.clone() else {
                    return failed("no game has streamed a capture to save".into());
                };
                match Live::save(&from, &to) {
                    Ok(()) => ok(format!("saved what the game sent to {}", to.display())),
                    Err(e) => failed(e),
                }
            }
            CaptureCommand::Replay(recording) => self.replay(recording),
            CaptureCommand::Replayed(outcome) => {
                self.replaying = None;
                match outcome {
                    Ok((capture, said)) => {
                        let opened = self.apply(CaptureCommand::Open(capture));
                        match opened {
                            Some(m) if m.error => Some(m),
                            _ => ok(said),
                        }
                    }
                    Err(e) => failed(e),
                }
            }
            CaptureCommand::Close => {
                let path = self.index.take().map(|i| i.path().to_path_buf());
                let mut live = std::mem::take(&mut self.live);
                live.received = None;
                live.at_end = false;
                live.stopped_at = None;
                *self = Self {
                    opened: self.opened + 1,
                    live,
                    compare_path: std::mem::take(&mut self.compare_path),
                    ..Self::default()
                };
                path.map(|p| format!("closed the capture {}", p.display()))
                    .and_then(ok)
            }
            CaptureCommand::Pick(index) => {
                let shown = self.shown.as_ref()?;
                let Some(k) = index.filter(|k| *k < shown.ids.len()) else {
                    return self
                        .picked
                        .take()
                        .and_then(|_| ok(text::PICK_CANCELLED.into()));
                };
                let id = shown.ids[k];
                let name = shown.scene.shapes[k].display_name(k);
                match self.picked.take() {
                    Some(first) if first != id => {
                        let first_name = shown
                            .ids
                            .iter()
                            .position(|i| *i == first)
                            .map_or(format!("id {first}"), |k| {
                                shown.scene.shapes[k].display_name(k)
                            });
                        let said = text::picked_pair(&first_name, &name);
                        self.apply(CaptureCommand::Select(Some(ClaimRef {
                            a: first,
                            b: id,
                            piece: None,
                        })));
                        ok(said)
                    }
                    _ => {
                        self.picked = Some(id);
                        ok(text::picked_first(&name))
                    }
                }
            }
            CaptureCommand::Select(claim) => {
                self.picked = None;
                self.selected = claim;
                self.settled = true;
                self.mistake = None;
                self.fit = Some(Fit::Reveal);
                self.follow(false);
                None
            }
            CaptureCommand::Show { position, claim } => {
                self.play(PlaybackCommand::Seek(position as u64));
                self.selected = Some(claim);
                self.mistake = None;
                self.fit = Some(Fit::Reveal);
                None
            }
            CaptureCommand::NextEvent(forward) => {
                let index = self.index.as_ref()?;
                let here = self.playback.position as usize;
                let positioned: Vec<(usize, &crate::capture::CaptureEvent)> = index
                    .events()
                    .iter()
                    .filter_map(|e| Some((index.position_of(e.frame)?, e)))
                    .collect();
                // From the event selected, if the frame shown is still its frame; else from
                // the frame shown (its own events count as ahead).
                let current = self
                    .event
                    .filter(|k| positioned.get(*k).is_some_and(|(p, _)| *p == here));
                let chosen = match (current, forward) {
                    (Some(k), true) => (k + 1 < positioned.len()).then_some(k + 1),
                    (Some(k), false) => k.checked_sub(1),
                    (None, true) => positioned.iter().position(|(p, _)| *p >= here),
                    (None, false) => positioned.iter().rposition(|(p, _)| *p < here),
                };
                let Some(k) = chosen else {
                    let which = if forward { "after" } else { "before" };
                    return failed(format!("no event {which} this frame"));
                };
                let (position, e) = (positioned[k].0, positioned[k].1.clone());
                self.event = Some(k);
                self.chosen = Some((position, e.clone(), None));
                self.chosen_count += 1;
                self.apply(CaptureCommand::Show {
                    position,
                    claim: ClaimRef {
                        a: e.a,
                        b: e.b,
                        piece: None,
                    },
                });
                // The event's pair fills the view: its picture is about them.
                self.fit = Some(Fit::Pair);
                self.event = Some(k);
                ok(text::capture_event(&e, None))
            }
            CaptureCommand::NextDivergence(forward) => {
                let Some(k) = self.next_divergence(forward) else {
                    let which = if forward { "after" } else { "before" };
                    return failed(format!("no disagreeing claim {which} this one"));
                };
                let d = self.index.as_ref()?.divergences()[k].clone();
                self.apply(CaptureCommand::Show {
                    position: d.position,
                    claim: ClaimRef {
                        a: d.a,
                        b: d.b,
                        piece: d.piece,
                    },
                })
            }
            CaptureCommand::ShowMistake(mistake) => {
                self.show_mistake(mistake);
                None
            }
            CaptureCommand::ExportFrame(path) => self.export(&path),
            CaptureCommand::Compare(path) => {
                self.compare_next = false;
                // Kept in the field: to compare again after Stop comparing, or mend a typo.
                self.compare_path.text = path.display().to_string();
                self.compare_with(|| CaptureIndex::open(&path))
            }
            CaptureCommand::CompareBytes { name, bytes } => {
                self.compare_next = false;
                self.compare_with(|| CaptureIndex::from_bytes(Path::new(&name), bytes))
            }
            CaptureCommand::CompareNext(on) => {
                self.compare_next = on && self.index.is_some();
                None
            }
            CaptureCommand::CompareSettings(settings) => {
                self.compare_jump = None;
                let source = self.index.as_ref()?.source();
                self.compare.as_mut()?.set(source, settings);
                None
            }
            CaptureCommand::CloseCompare => self.compare.take().and_then(|c| {
                ok(format!(
                    "stopped comparing with {}",
                    c.index().path().display()
                ))
            }),
            CaptureCommand::JumpToParting => {
                let Some(compare) = &self.compare else {
                    return failed("no run is compared with this one: type a capture's path beside Compare with".into());
                };
                let Some(diff) = compare.diff() else {
                    return failed(if compare.running() {
                        "the runs are still being compared".into()
                    } else {
                        "the runs could not be compared".into()
                    });
                };
                let Some(frame) = compare.parting() else {
                    return ok(text::runs_part(diff));
                };
                let said = text::runs_part(diff);
                // The claim that differs there, if one does, is explained and brought into view.
                let claim = diff
                    .first_divergence
                    .as_ref()
                    .and_then(|f| f.claims.iter().find(|c| c.frame == frame))
                    .or(diff.first_claim_difference.as_ref())
                    .map(|c| ClaimRef {
                        a: c.a,
                        b: c.b,
                        piece: None,
                    });
                let Some(position) = self.index.as_ref()?.position_of(frame) else {
                    return failed(format!(
                        "the runs part at frame {frame}, not read yet: J again once it is"
                    ));
                };
                match claim {
                    Some(claim) => {
                        self.apply(CaptureCommand::Show { position, claim });
                        self.fit = Some(Fit::Pair);
                    }
                    None => {
                        // No claim differs there: the shape that differs most is brought into
                        // view with a contact of its own, once the frame is read.
                        let most = diff
                            .first_divergence
                            .as_ref()
                            .and_then(|f| f.shapes.first())
                            .map(|s| s.id);
                        self.play(PlaybackCommand::Seek(position as u64));
                        self.reveal = most;
                    }
                }
                ok(said)
            }
        }
    }

    /// Compare the capture `open` opens (or refuses) with the one shown, when one is.
    fn compare_with(
        &mut self,
        open: impl FnOnce() -> Result<CaptureIndex, crate::files::FileError>,
    ) -> Option<Message> {
        let failed = |text: String| Some(Message { text, error: true });
        let Some(a) = &self.index else {
            return failed("open a capture first, then compare a second run with it".into());
        };
        match open() {
            Err(e) => {
                self.compare_problem = Some(e.to_string());
                failed(e.to_string())
            }
            Ok(b) => {
                self.compare_problem = None;
                self.compare_jump = Some(self.moves);
                let said = format!(
                    "comparing {} (A) with {} (B, drawn as ghosts): the runs are compared frame by frame",
                    a.path().display(),
                    b.path().display()
                );
                self.compare = Some(Compare::new(a.source(), b, Default::default()));
                Some(Message {
                    text: said,
                    error: false,
                })
            }
        }
    }

    /// The second run compared with this one, if any.
    pub fn compare(&self) -> Option<&Compare> {
        self.compare.as_ref()
    }

    /// Whether the next capture the page's picker gives is to be compared, not opened.
    pub fn wants_compare(&self) -> bool {
        self.compare_next && self.index.is_some()
    }

    /// Pin the claimed pairs of the frame shown in the fixture file at `path` (an existing file
    /// only when asked twice).
    fn export(&mut self, path: &Path) -> Option<Message> {
        let Some(shown) = &self.shown else {
            return Some(Message {
                text: "no frame to export".into(),
                error: true,
            });
        };
        let scene = &shown.scene;
        let pairs: Vec<(usize, usize)> = scene
            .claims
            .iter()
            .filter_map(|c| scene.pair_of(c.a, c.b))
            .collect();
        let target = path.to_path_buf();
        if target.exists() && self.replacing.as_deref() != Some(path) {
            self.replacing = Some(target.clone());
            return Some(Message {
                text: format!(
                    "{} exists: press Export fixture of this frame again to replace it",
                    target.display()
                ),
                error: true,
            });
        }
        self.replacing = None;
        let pairs = (!pairs.is_empty()).then_some(pairs);
        Some(
            match crate::app::platform::export_fixture(scene, pairs.as_deref(), &target, None) {
                Ok(written) => Message {
                    text: written.join("; "),
                    error: false,
                },
                Err(e) => Message {
                    text: e,
                    error: true,
                },
            },
        )
    }

    /// Start replaying the Box2D recording `recording` into a capture beside it
    /// (`NAME.b2rec.capture.jsonl.gz`, said in the message), on its own thread (its end arrives
    /// as [`CaptureCommand::Replayed`]).
    #[cfg(feature = "box2d")]
    fn replay(&mut self, recording: std::path::PathBuf) -> Option<Message> {
        use std::sync::atomic::{AtomicU64, Ordering};
        let mut name = recording.clone().into_os_string();
        name.push(".capture.jsonl.gz");
        let capture = std::path::PathBuf::from(name);
        let written = capture.clone();
        let progress = std::sync::Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let (send, done) = std::sync::mpsc::channel();
        let (from, shared) = (recording.clone(), progress.clone());
        let started = std::thread::Builder::new()
            .name("replay".into())
            .spawn(move || {
                let tick = |k: u64, n: u64| {
                    shared[0].store(k, Ordering::Relaxed);
                    shared[1].store(n, Ordering::Relaxed);
                };
                // In a child process (this program's `replay-recording`): one of Box2D's
                // assertions on a damaged recording stops the child, never the window.
                let outcome = std::env::current_exe()
                    .map_err(|e| format!("cannot find collidoscope to replay it: {e}"))
                    .and_then(|exe| {
                        crate::capture::box2d::replay::replay_in_child(
                            &exe,
                            &from,
                            Some(&capture),
                            tick,
                        )
                    })
                    .map(|said| (capture.clone(), said));
                let _ = send.send(outcome);
            });
        if let Err(e) = started {
            return Some(Message {
                text: format!("cannot start replaying {}: {e}", recording.display()),
                error: true,
            });
        }
        let said = crate::text::replaying(&recording, &written);
        self.replaying = Some(Replaying {
            recording,
            progress,
            done,
        });
        Some(Message {
            text: said,
            error: false,
        })
    }

    #[cfg(not(feature = "box2d"))]
    fn replay(&mut self, recording: std::path::PathBuf) -> Option<Message> {
        Some(Message {
            text: format!(
                "{}: a Box2D recording, and this build has no Box2D to replay it (build with the box2d feature)",
                recording.display()
            ),
            error: true,
        })
    }

    /// The replay under way: its progress, and its end passed on as a command.
    fn replay_row(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(r) = &self.replaying else { return };
        if let Ok(outcome) = r.done.try_recv() {
            out.push(Command::Capture(CaptureCommand::Replayed(outcome)));
            return;
        }
        let load = |i: usize| r.progress[i].load(std::sync::atomic::Ordering::Relaxed);
        let (k, n) = (load(0), load(1));
        ui.add(
            egui::ProgressBar::new(if n == 0 { 0.0 } else { k as f32 / n as f32 }).text(format!(
                "replaying {} with Box2D: {k} of {n} frames",
                r.recording.display()
            )),
        );
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }

    /// The panel on the right: the capture, its counts, the selected claim explained, every
    /// disagreeing claim.
    pub fn ui(&mut self, ui: &mut egui::Ui, naive: bool, out: &mut Commands) {
        let panel = (crate::app::widgets::Side::Right, "capture");
        crate::app::side_panel(ui, panel, (380.0, 240.0, 0.42), |ui| {
            egui::ScrollArea::vertical()
                .id_salt("capture lab")
                .show(ui, |ui| {
                    ui.heading("Capture");
                    self.replay_row(ui, out);
                    self.live
                        .ui(ui, self.index.as_ref(), &mut self.follow_path, out);
                    let Some(index) = &self.index else {
                        // In the browser the live row has said where captures open.
                        if crate::app::platform::HAS_FILES {
                            ui.label(text::NO_CAPTURE);
                        }
                        return;
                    };
                    self.summary(ui, index);
                    self.export_row(ui, out);
                    ui.separator();
                    match &self.compare {
                        Some(compare) => compare.ui(ui, out),
                        None => compare::compare_row(
                            ui,
                            &mut self.compare_path,
                            self.compare_problem.as_deref(),
                            out,
                        ),
                    }
                    ui.separator();
                    self.frame_claims(ui, out);
                    ui.separator();
                    self.explained(ui, naive, out);
                    ui.separator();
                    self.divergence_list(ui, out);
                });
        });
    }

    /// What the lab says for the page (the browser's `#collidoscope-state`): the capture open
    /// and its counts, as the panel's summary says them.
    pub fn said(&self) -> Option<String> {
        let index = self.index.as_ref()?;
        let causes: Vec<(&str, u64)> = (0..ROWS)
            .map(|row| (row_name(row), self.by_row.0[row]))
            .collect();
        Some(format!(
            "{}: {}",
            index.path().display(),
            text::capture_counts(index.frames().len(), index.counts(), &causes)
        ))
    }

    fn summary(&self, ui: &mut egui::Ui, index: &CaptureIndex) {
        ui.label(RichText::new(index.path().display().to_string()).strong());
        ui.label(text::capture_header(index.header()));
        match index.state() {
            ScanState::Reading(_) if index.is_live() => {
                ui.label(format!(
                    "following as the game writes it: {} frames so far, each judged as it comes",
                    index.frames().len()
                ));
            }
            ScanState::Reading(share) => {
                ui.add(
                    egui::ProgressBar::new(*share as f32)
                        .show_percentage()
                        .text(format!(
                            "judging the claims: {} frames",
                            index.frames().len()
                        )),
                );
            }
            ScanState::Done => {}
            ScanState::Refused(message) => {
                ui.colored_label(palette::INVALID, message)
                    .on_hover_text("the frames before this line are shown");
            }
        }
        if let Some(warning) = index.warning() {
            ui.colored_label(palette::DECIDING, warning);
        }
        let causes: Vec<(&str, u64)> = (0..ROWS)
            .map(|row| (row_name(row), self.by_row.0[row]))
            .collect();
        ui.label(
            RichText::new(text::capture_counts(
                index.frames().len(),
                index.counts(),
                &causes,
            ))
            .strong(),
        );
    }

    /// The fixture path with Export fixture of this frame, and Close capture.
    fn export_row(&mut self, ui: &mut egui::Ui, out: &mut Commands) {
        if let (Some(index), Some(shown)) = (&self.index, &self.shown) {
            self.path
                .follow(Some(&fixture_stem(index.path(), shown.frame.frame)), None);
        }
        ui.horizontal(|ui| {
            let label = ui.label("Fixture:");
            let width = (ui.available_width() - 8.0).max(80.0);
            self.path.ui(ui, label.id, width);
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Export fixture of this frame")
                .on_hover_text("pin every claimed pair of the frame shown (with the engine's claims and precision) in the fixture file; an existing file is replaced only when you press Export again")
                .clicked()
            {
                out.push(match self.path.path() {
                    Ok(p) => Command::Capture(CaptureCommand::ExportFrame(p)),
                    Err(e) => Command::Say(Message { text: e, error: true }),
                });
            }
            if ui.button("Close capture").clicked() {
                out.push(Command::Capture(CaptureCommand::Close));
            }
        });
    }

    /// The claims of the frame shown, disagreeing ones first; a click explains one.
    fn frame_claims(&self, ui: &mut egui::Ui, out: &mut Commands) {
        if let Some(problem) = &self.problem {
            ui.colored_label(palette::INVALID, problem);
        }
        let Some(shown) = &self.shown else { return };
        let claims = &shown.judged.claims;
        let disagree = claims.iter().filter(|c| !c.agrees()).count();
        ui.label(
            RichText::new(format!(
                "Frame {} (t = {} s): {} claim{}, {disagree} disagree{}",
                shown.frame.frame,
                text::number(shown.frame.time),
                claims.len(),
                if claims.len() == 1 { "" } else { "s" },
                if disagree == 1 { "s" } else { "" },
            ))
            .strong(),
        );
        // What went wrong over time at this frame: each event, with its fix.
        if let Some(index) = &self.index {
            for e in index
                .events()
                .iter()
                .filter(|e| e.frame == shown.frame.frame)
            {
                ui.colored_label(palette::MTV, text::capture_event(e, None));
                ui.label(RichText::new(format!("fix: {}", text::event_fix(e.kind))).weak());
            }
        }
        if claims.is_empty() {
            ui.label(RichText::new("The engine reported no contact in this frame (nothing touching, or every body touching asleep: pairs of sleeping bodies are left out of a capture).").weak());
        }
        let mut order: Vec<&Judgement> = claims.iter().collect();
        order.sort_by_key(|c| c.agrees());
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        // A fifth of a tall window, never less than six rows or so.
        let height = (0.2 * ui.ctx().content_rect().height()).max(150.0);
        egui::ScrollArea::vertical()
            .id_salt("frame claims")
            .max_height(height)
            .show_rows(ui, row, order.len(), |ui, rows| {
                for c in &order[rows] {
                    let this = ClaimRef {
                        a: c.a,
                        b: c.b,
                        piece: c.piece(),
                    };
                    let (a, b) = c.display_names();
                    let piece = c.piece().map(|k| format!(" piece {k}")).unwrap_or_default();
                    let names: Vec<&str> = c.causes().map(|m| m.name()).collect();
                    let verdict = if c.agrees() {
                        "agrees".to_string()
                    } else if names.is_empty() {
                        "disagrees: no known mistake".to_string()
                    } else {
                        format!("disagrees: {}", names.join(", "))
                    };
                    let colour = if c.agrees() {
                        ui.visuals().text_color()
                    } else {
                        palette::INVALID.into()
                    };
                    let text = RichText::new(format!("{a} / {b}{piece}: {verdict}")).color(colour);
                    if ui
                        .selectable_label(self.selected == Some(this), text)
                        .on_hover_text("explain this claim")
                        .clicked()
                    {
                        out.push(Command::Capture(CaptureCommand::Select(Some(this))));
                    }
                }
            });
    }

    /// The selected claim: claimed against exact, the causes that reproduce it (each can
    /// draw its own test), and the pair's report at this frame.
    fn explained(&mut self, ui: &mut egui::Ui, naive: bool, out: &mut Commands) {
        let Some(shown) = &self.shown else { return };
        if let Some(first) = self.picked {
            let k = shown.ids.iter().position(|i| *i == first);
            let name = k.map_or(format!("id {first}"), |k| {
                shown.scene.shapes[k].display_name(k)
            });
            ui.colored_label(palette::DECIDING, text::picked_first(&name));
        }
        let Some(selected) = self.selected else {
            ui.label(text::SELECT_A_CLAIM);
            return;
        };
        match self.judgement() {
            Some(j) => {
                let (a, b) = j.display_names();
                for line in &text::judgement(j, (&a, &b)) {
                    ui.label(line);
                }
                let mistakes = j.check.matches.clone();
                if !mistakes.is_empty() {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Draw its test:");
                        let shown_now = self.shown_mistake();
                        for m in mistakes {
                            if ui
                                .selectable_label(shown_now == Some(m), m.name())
                                .on_hover_text(
                                    "draw this mistake's own test beside the correct one",
                                )
                                .clicked()
                            {
                                let next = (shown_now != Some(m)).then_some(m);
                                out.push(Command::Capture(CaptureCommand::ShowMistake(next)));
                            }
                        }
                    });
                }
            }
            None => {
                let name = |id: u64| match shown.ids.iter().position(|i| *i == id) {
                    Some(k) => shown.scene.shapes[k].display_name(k),
                    None => format!("id {id} (not in this frame)"),
                };
                let (a, b) = (name(selected.a), name(selected.b));
                match shown.left_out(selected.a, selected.b) {
                    Some((left, [pa, pb])) => {
                        let units = self
                            .index
                            .as_ref()
                            .map_or("", |i| i.header().units.as_str());
                        let lines =
                            text::left_out(&left, (&a, &b), (&pa, &pb), shown.frame.frame, units);
                        for (k, line) in lines.iter().enumerate() {
                            if k == 0 {
                                ui.label(RichText::new(line).strong());
                            } else {
                                ui.label(RichText::new(line).weak());
                            }
                        }
                    }
                    None => {
                        ui.label(text::not_in_frame(shown.frame.frame, (&a, &b)));
                    }
                }
            }
        }
        self.pair.ui(ui, &shown.scene, None, naive);
    }

    /// Every disagreeing claim of the capture; a click shows its frame and pair.
    fn divergence_list(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(index) = &self.index else { return };
        let divergences = index.divergences();
        ui.label(RichText::new("Disagreeing claims").strong());
        if divergences.is_empty() {
            ui.label(match index.state() {
                ScanState::Reading(_) => "none so far",
                ScanState::Refused(_) => {
                    "none in the frames before the refused line (the rest of the capture is not read)"
                }
                ScanState::Done => "none: every claim agrees",
            });
            return;
        }
        let frames = index.frames();
        let here = self.playback.position as usize;
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        let height = (0.3 * ui.ctx().content_rect().height()).max(220.0);
        egui::ScrollArea::vertical()
            .id_salt("divergences")
            .max_height(height)
            .show_rows(ui, row, divergences.len(), |ui, rows| {
                for d in &divergences[rows] {
                    let claim = ClaimRef {
                        a: d.a,
                        b: d.b,
                        piece: d.piece,
                    };
                    let current = d.position == here && self.selected == Some(claim);
                    let line = text::capture_divergence(frames[d.position].frame, d);
                    if ui
                        .selectable_label(current, line)
                        .on_hover_text("show this frame and explain this claim")
                        .clicked()
                    {
                        out.push(Command::Capture(CaptureCommand::Show {
                            position: d.position,
                            claim,
                        }));
                    }
                }
            });
        if index.unlisted() > 0 {
            ui.label(format!(
                "and {} more (counted, not listed)",
                index.unlisted()
            ));
        }
    }

    /// The timeline under the scene: transport, Next divergence, speed and loop, the frame
    /// slider, and the strip of divergences. It reads the playback and pushes commands.
    pub fn timeline(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(index) = &self.index else { return };
        let mut play = |c: PlaybackCommand| out.push(Command::Playback(TimelineId::Capture, c));
        let frames = index.frames();
        let mut divergence = None;
        let mut event = None;
        let mut go_live = false;
        egui::Panel::bottom("capture timeline").show(ui, |ui| {
            let last = frames.len().saturating_sub(1) as u64;
            // The event stepped to, said under its picture with its fix.
            if let Some(e) = self.chosen_event() {
                ui.add(egui::Label::new(
                    RichText::new(text::capture_event(e, None)).color(palette::MTV),
                ));
                ui.label(RichText::new(format!("fix: {}", text::event_fix(e.kind))).weak());
            }
            let playback = &self.playback;
            ui.horizontal_wrapped(|ui| {
                let tips = [
                    "first frame",
                    "step back",
                    "play the capture (space)",
                    "step forward",
                    "last frame",
                ];
                if let Some(c) = crate::app::transport(ui, playback.playing, tips) {
                    play(c);
                }
                if ui
                    .button("Previous divergence")
                    .on_hover_text("the disagreeing claim before this one (Shift+D)")
                    .clicked()
                {
                    divergence = Some(false);
                }
                if ui
                    .button("Next divergence")
                    .on_hover_text("the next disagreeing claim (D)")
                    .clicked()
                {
                    divergence = Some(true);
                }
                if !index.events().is_empty() {
                    if ui
                        .button("Previous event")
                        .on_hover_text(
                            "the event before: a seam, a tunnel, a stale contact... (Shift+E)",
                        )
                        .clicked()
                    {
                        event = Some(false);
                    }
                    if ui
                        .button("Next event")
                        .on_hover_text("the next event: a seam, a tunnel, a stale contact... (E)")
                        .clicked()
                    {
                        event = Some(true);
                    }
                }
                // The slider shows the frames' own numbers (a capture may start at any).
                let numbered = (frames.first().map_or(0, |f| f.frame), last);
                let id = "capture speed";
                for c in crate::app::loop_speed_slider_numbered(ui, playback, id, numbered) {
                    play(c);
                }
                if let Some(entry) = frames.get(playback.position as usize) {
                    ui.label(format!(
                        "step {}, t = {} s",
                        entry.frame,
                        text::number(entry.time)
                    ));
                }
                if index.is_live()
                    && !self.live.at_end
                    && ui
                        .button("Go live")
                        .on_hover_text("show the newest frame again and arm the break (L)")
                        .clicked()
                {
                    go_live = true;
                }
            });
            if let Some(k) = self.strip(ui, index, last) {
                play(PlaybackCommand::Seek(k));
            }
        });
        if let Some(forward) = divergence {
            out.push(Command::Capture(CaptureCommand::NextDivergence(forward)));
        }
        if let Some(forward) = event {
            out.push(Command::Capture(CaptureCommand::NextEvent(forward)));
        }
        if go_live {
            out.push(Command::Capture(CaptureCommand::GoLive));
        }
    }

    /// The strip: the capture as a bar, the frame shown as a line, a tick for every
    /// disagreeing claim in its cause's row (the last row: no known mistake). Hover for the
    /// row's name and the frame; click or drag to show a frame.
    fn strip(&self, ui: &mut egui::Ui, index: &CaptureIndex, last: u64) -> Option<u64> {
        let present: Vec<usize> = (0..ROWS).filter(|r| self.by_row.0[*r] > 0).collect();
        // The events' own row, under the causes' rows.
        let events = !index.events().is_empty();
        // The compared runs' own row, at the bottom.
        let compared = self.compare.as_ref().filter(|c| c.diff().is_some());
        let events_slot = present.len().max(1);
        let rows = events_slot + usize::from(events);
        let row_height = 6.0;
        // The compared runs' band, under the rows: taller, a colour of its own.
        let band = if compared.is_some() { 12.0 } else { 0.0 };
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), 8.0 + rows as f32 * row_height + band),
            egui::Sense::click_and_drag(),
        );
        let painter = ui.painter_at(rect);
        let look = crate::app::widgets::StripLook::of(ui);
        painter.rect_filled(rect, 3.0, look.ground);
        let x_of = |k: u64| rect.left() + rect.width() * (k as f32 / last.max(1) as f32);
        let top_of = |slot: usize| rect.top() + 4.0 + slot as f32 * row_height;
        // One tick per pixel column and row is enough, however many claims share it.
        let columns = rect.width().max(1.0) as usize + 1;
        let mut drawn = vec![false; columns * ROWS];
        for d in index.divergences() {
            let row = row_of(&d.causes);
            let x = x_of(d.position as u64);
            let column = ((x - rect.left()) as usize).min(columns - 1);
            if std::mem::replace(&mut drawn[row * columns + column], true) {
                continue;
            }
            let Some(slot) = present.iter().position(|r| *r == row) else {
                continue;
            };
            let colour = egui::Color32::from(row_colour(row));
            let top = top_of(slot);
            painter.line_segment(
                [egui::pos2(x, top), egui::pos2(x, top + row_height - 1.5)],
                (2.0, colour),
            );
        }
        if events {
            let top = top_of(events_slot);
            let mut drawn = vec![false; columns];
            for e in index.events() {
                let Some(position) = index.position_of(e.frame) else {
                    continue;
                };
                let x = x_of(position as u64);
                let column = ((x - rect.left()) as usize).min(columns - 1);
                if std::mem::replace(&mut drawn[column], true) {
                    continue;
                }
                painter.line_segment(
                    [egui::pos2(x, top), egui::pos2(x, top + row_height - 1.5)],
                    (2.0, egui::Color32::from(palette::MTV)),
                );
            }
        }
        if let Some(compare) = compared {
            let position_of = |frame: u64| index.position_of(frame);
            compare.strip_row(&painter, (top_of(rows), band), &x_of, &position_of, rect);
        }
        // Where a break held the frame while following: a flag at the top of the strip.
        if let Some(held) = self.live.stopped_at {
            crate::app::widgets::strip_flag(
                &painter,
                rect,
                x_of(held as u64),
                palette::INVALID,
                true,
            );
        }
        let x = x_of(self.playback.position);
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
            (2.0, look.marker),
        );
        let frame_at = |p: egui::Pos2| {
            let share = ((p.x - rect.left()) / rect.width()).clamp(0.0, 1.0);
            (share as f64 * last as f64).round() as u64
        };
        let scrubbed = (response.clicked() || response.dragged())
            .then(|| response.interact_pointer_pos())
            .flatten()
            .map(frame_at);
        let tip = match response.hover_pos() {
            Some(p) => {
                let slot = ((p.y - rect.top() - 4.0) / row_height).floor().max(0.0) as usize;
                let k = frame_at(p) as usize;
                let step = index.frames().get(k).map_or(0, |f| f.frame);
                let row = if events && slot == events_slot {
                    "events (E, Shift+E)".to_string()
                } else if let Some(c) = compared.filter(|_| slot >= rows) {
                    text::runs_apart_at(step, c.apart_at(step), c.same_again_at(step), c.parting())
                } else {
                    present.get(slot).map_or("", |r| row_name(*r)).to_string()
                };
                if row.is_empty() {
                    format!("frame {step}: click or drag to show it")
                } else {
                    format!("row {row}; frame {step}: click or drag to show it")
                }
            }
            None => String::new(),
        };
        response.on_hover_text(format!(
            "{tip}\nticks: the disagreeing claims, a row for each cause that reproduces them (the last: no known mistake); under them the events (seams, tunnels, stale contacts...){}",
            if compared.is_some() { "; at the bottom, how far apart the compared runs are (faint near, bright far), the purple mark where they part (J)" } else { "" }
        ));
        scrubbed
    }
}

/// The colour of a strip row.
fn row_colour(row: usize) -> crate::picture::Colour {
    match Cause::ALL.get(row) {
        Some(Cause::PreviousPoses) => palette::DECIDING,
        Some(Cause::Mistake(Mistake::NormalReversed)) => palette::MTV,
        Some(Cause::Mistake(Mistake::NaiveSmallestOverlap)) => palette::NAIVE,
        Some(Cause::Mistake(Mistake::InternalEdge)) => palette::CLAIMED,
        Some(Cause::Mistake(_)) => palette::OTHER_HIT,
        None => palette::INVALID,
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
