//! The capture lab live: a capture followed as the game writes it (`collidoscope --follow
//! FILE`, File > Follow a capture), or streamed from a game over the loopback socket
//! (`collidoscope --listen`, File > Listen for a game). While live, the frame shown is the
//! newest; "pause at the first disagreement or event" holds the frame where things first went
//! wrong (the game runs on and the timeline keeps growing), marked on the timeline.

use crate::app::command::Message;
use crate::app::command::{CaptureCommand, Command, Commands};
use crate::app::document::path_field::PathField;
use crate::app::platform::Instant;
use crate::app::words;
use crate::capture::live::follow::FollowEnd;
use crate::capture::{CaptureIndex, LinkEvent, Listener};
use crate::motion::EventKind;
use crate::picture::palette;
use eframe::egui::{self, RichText};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How often a file to follow with no header yet is looked at again.
const AWAIT: Duration = Duration::from_millis(250);

/// What the lab does live; kept when another capture opens.
pub struct Live {
    /// The frame shown follows the newest one.
    pub at_end: bool,
    /// Hold the frame at the first disagreeing claim or event (other than a normal flip).
    pub pause_at_first: bool,
    /// The position a break held, until the user goes live again.
    pub stopped_at: Option<usize>,
    /// Disagreements and events already looked at for a break.
    pub watched: (usize, usize),
    /// A file to follow once its header is written, and when to look again.
    pub awaiting: Option<(PathBuf, Instant)>,
    /// Listening for a game.
    pub listener: Option<Listener>,
    /// The capture a game streamed (the file followed), to save.
    pub received: Option<PathBuf>,
    /// A received capture whose stream was refused, and why (said in red over it).
    pub refused: Option<(PathBuf, String)>,
    /// A game that connected while a break held a frame: followed at Go live.
    pub pending: Option<PathBuf>,
    /// A followed capture that began again, whose new run is waited for (its header not
    /// written yet): said again once it is followed.
    pub began_again: Option<BeganAgain>,
    /// Where Save received writes.
    pub save_path: PathField,
}

impl Default for Live {
    fn default() -> Self {
        Self {
            at_end: false,
            pause_at_first: true,
            stopped_at: None,
            watched: (0, 0),
            awaiting: None,
            listener: None,
            received: None,
            refused: None,
            pending: None,
            began_again: None,
            save_path: PathField::new(".capture.jsonl"),
        }
    }
}

/// A followed capture that began again (the game run again): what the status bar says of the
/// earlier run.
pub struct BeganAgain {
    /// The capture followed.
    pub path: PathBuf,
    /// How: written again from its start, or another file at its path.
    pub how: FollowEnd,
    /// The earlier run's last frame read.
    pub after_frame: Option<u64>,
    /// The earlier run's frames, claims and agreeing claims.
    pub earlier: (u64, u64, u64),
}

impl BeganAgain {
    /// How the capture followed as `index` began again, once following it ended so.
    pub fn of(index: &CaptureIndex) -> Option<Self> {
        let how = index.began_again()?;
        let (claims, agreeing) = index.counts();
        Some(Self {
            path: index.path().to_path_buf(),
            how,
            after_frame: index.frames().last().map(|f| f.frame),
            earlier: (index.frames().len() as u64, claims, agreeing),
        })
    }

    /// What the status bar says: with the new run's header once it is read.
    pub fn said(&self, header: Option<&crate::capture::Header>) -> String {
        crate::capture::words::capture_began_again(
            &self.path,
            self.how,
            self.after_frame,
            Some(self.earlier),
            header,
        )
    }
}

/// What a break found: the position to hold and the pair to explain, and what to say.
pub struct Break {
    /// The frame's position.
    pub position: usize,
    /// The pair (ids) and chain piece.
    pub pair: (u64, u64, Option<usize>),
    /// What the status bar says.
    pub said: String,
    /// Whether it is an event's (drawn as the event's picture), not a claim's.
    pub event: bool,
}

impl Live {
    /// Going live on a capture just opened to follow: at its end, a break armed.
    pub fn started(&mut self) {
        self.at_end = true;
        self.stopped_at = None;
        self.watched = (0, 0);
        self.awaiting = None;
    }

    /// The first disagreement or event found since the last look, when a break is armed and
    /// the capture is followed; everything found so far counts as looked at.
    pub fn check(&mut self, index: &CaptureIndex) -> Option<Break> {
        let (divergences, events) = (index.divergences(), index.events());
        let watched = std::mem::replace(&mut self.watched, (divergences.len(), events.len()));
        if !(self.pause_at_first && self.at_end) {
            return None;
        }
        let divergence = divergences.get(watched.0..).and_then(<[_]>::first);
        let event = events.get(watched.1..).and_then(|new| {
            new.iter()
                .filter(|e| e.kind() != EventKind::NormalFlip)
                .find_map(|e| Some((index.position_of(e.frame())?, e)))
        });
        let held = match (divergence, event) {
            (Some(d), Some((p, _))) if d.position <= p => None,
            (_, Some((p, e))) => Some(Break {
                position: p,
                pair: (e.a, e.b, None),
                said: crate::capture::words::capture_break_event(e),
                event: true,
            }),
            (Some(_), None) => None,
            (None, None) => return None,
        };
        let found = held.or_else(|| {
            let d = divergence?;
            let frame = index.frames().get(d.position).map_or(0, |f| f.frame);
            Some(Break {
                position: d.position,
                pair: (d.a, d.b, d.piece),
                said: crate::capture::words::capture_break_disagreement(
                    frame, &d.names.0, &d.names.1, &d.causes,
                ),
                event: false,
            })
        })?;
        self.at_end = false;
        self.stopped_at = Some(found.position);
        Some(found)
    }

    /// Go live again: the newest frame shown, the break armed for what comes next.
    pub fn resume(&mut self, index: Option<&CaptureIndex>) {
        self.at_end = true;
        self.stopped_at = None;
        if let Some(index) = index {
            self.watched = (index.divergences().len(), index.events().len());
        }
    }

    /// A file to follow whose header is not written yet: looked at again in a while.
    pub fn wait_for(&mut self, path: PathBuf) {
        self.awaiting = Some((path, Instant::now() + AWAIT));
    }

    /// The file waited for, once its header is written.
    pub fn due(&mut self) -> Option<PathBuf> {
        let (path, at) = self.awaiting.as_ref()?;
        if Instant::now() < *at {
            return None;
        }
        let path = path.clone();
        if CaptureIndex::header_written(&path) {
            self.awaiting = None;
            Some(path)
        } else {
            self.awaiting = Some((path, Instant::now() + AWAIT));
            None
        }
    }

    /// What the listener saw since the last look.
    pub fn link_events(&self) -> Vec<LinkEvent> {
        self.listener
            .as_ref()
            .map(Listener::events)
            .unwrap_or_default()
    }

    /// The status bar's live state: following a file, listening, or waiting for a file.
    pub fn state(&self, index: Option<&CaptureIndex>) -> Option<String> {
        let following = index.filter(|i| i.is_live()).map(|i| {
            let quiet = i.last_found().map(|t| t.elapsed().as_secs_f64());
            words::live_state(
                &i.path().display().to_string(),
                i.frames().len(),
                quiet,
                self.stopped_at
                    .and_then(|p| i.frames().get(p))
                    .map(|f| f.frame),
            )
        });
        let listening = self
            .listener
            .as_ref()
            .map(|l| format!("listening on 127.0.0.1:{}", l.port()));
        let waiting = self
            .awaiting
            .as_ref()
            .map(|(p, _)| format!("waiting for {} to begin", p.display()));
        let parts: Vec<String> = [following, listening, waiting]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }

    /// Whether anything live goes on (the window keeps drawing).
    pub fn busy(&self, index: Option<&CaptureIndex>) -> bool {
        self.listener.is_some() || self.awaiting.is_some() || index.is_some_and(|i| i.is_live())
    }

    /// The received capture at `from` saved to `to`, atomically (`.gz`: compressed).
    pub fn save(from: &Path, to: &Path) -> Result<(), String> {
        let text = std::fs::read(from)
            .map_err(|e| format!("{}: cannot read what was received: {e}", from.display()))?;
        crate::files::write_text_atomically(to, &text, 6)
            .map_err(|e| format!("{}: cannot save: {e}", to.display()))
    }
}

impl Live {
    /// The lab's live rows: following (the break, Go live, Stop), listening (Stop), the
    /// received capture (Save), or the buttons that start them.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        index: Option<&CaptureIndex>,
        follow_path: &mut PathField,
        out: &mut Commands,
    ) {
        let live = index.is_some_and(CaptureIndex::is_live);
        if live || self.listener.is_some() {
            ui.horizontal_wrapped(|ui| {
                if live {
                    let held = self
                        .stopped_at
                        .and_then(|p| index?.frames().get(p))
                        .map(|f| format!("LIVE · paused at frame {}", f.frame));
                    ui.label(
                        RichText::new(held.as_deref().unwrap_or("LIVE"))
                            .color(palette::MTV)
                            .strong(),
                    );
                    if self.at_end {
                        ui.label("showing the newest frame");
                    } else if ui
                        .button("Go live")
                        .on_hover_text(
                            "show the newest frame again and arm the break for what comes (L)",
                        )
                        .clicked()
                    {
                        out.push(Command::Capture(CaptureCommand::GoLive));
                    }
                    // A game's stream is the listener's: Stop listening ends it.
                    let received = self.received.as_deref() == index.map(CaptureIndex::path);
                    if !received
                        && ui
                            .button("Stop following")
                            .on_hover_text("read what is written now and end the capture there")
                            .clicked()
                    {
                        out.push(Command::Capture(CaptureCommand::StopFollowing));
                    }
                }
                if self.pending.is_some() {
                    ui.label(
                        RichText::new("another game is streaming: Go live (L) shows it").weak(),
                    );
                }
                if let Some(listener) = &self.listener {
                    ui.label(format!("listening on 127.0.0.1:{}", listener.port()));
                    if ui.button("Stop listening").clicked() {
                        out.push(Command::Capture(CaptureCommand::StopListening));
                    }
                }
            });
            let mut pause = self.pause_at_first;
            if ui
                .checkbox(&mut pause, "Pause at the first disagreement or event")
                .on_hover_text("while following or listening, hold the frame where a claim first disagrees or an event (a seam, a tunnel, a stale contact) first happens; the game runs on and the timeline keeps growing, flagged where it stopped")
                .changed()
            {
                out.push(Command::Capture(CaptureCommand::PauseAtFirst(pause)));
            }
        } else if index.is_none() && !crate::app::platform::HAS_FILES {
            ui.weak(words::DESKTOP_CAPTURES);
        } else if index.is_none() {
            // With no capture open: the ways to one that is live (File > Listen for a game
            // and File > Follow a capture do the same).
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Listen for a game")
                    .on_hover_text(format!(
                        "take a game's capture as it runs, over 127.0.0.1:{} (the game: CaptureWriter::new(ToWindow::spawn(), ...))",
                        crate::capture::live::DEFAULT_PORT
                    ))
                    .clicked()
                {
                    out.push(Command::Capture(CaptureCommand::Listen(
                        crate::capture::live::DEFAULT_PORT,
                    )));
                }
                {
                    let label = ui.label("or follow:");
                    let width = (ui.available_width() - 70.0).max(80.0);
                    follow_path.ui(ui, label.id, width);
                    if ui
                        .button("Follow")
                        .on_hover_text("show a capture as the game writes it (plain or gzip); waits for the file to begin")
                        .clicked()
                    {
                        out.push(match follow_path.path() {
                            Ok(p) => Command::Capture(CaptureCommand::Follow(p)),
                            Err(e) => Command::Say(Message { text: e, error: true }),
                        });
                    }
                }
            });
        }
        if let (Some((path, why)), Some(index)) = (&self.refused, index)
            && index.path() == path
        {
            ui.colored_label(palette::INVALID, why);
        }
        if self.received.is_some() {
            ui.horizontal(|ui| {
                let label = ui.label("Save as:");
                let width = (ui.available_width() - 110.0).max(80.0);
                self.save_path.ui(ui, label.id, width);
                if ui
                    .button("Save received")
                    .on_hover_text("write what the game sent as a capture (.gz: compressed)")
                    .clicked()
                {
                    out.push(match self.save_path.path() {
                        Ok(p) => Command::Capture(CaptureCommand::SaveReceived(p)),
                        Err(e) => Command::Say(Message {
                            text: e,
                            error: true,
                        }),
                    });
                }
            });
        }
    }
}
