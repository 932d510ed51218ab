//! The capture lab while the game runs: a capture followed as it grows, a game listened for, the break held at the first disagreement or event, and going live again.

use super::*;
use crate::app::words;

impl CaptureLab {
    /// The selected claim's pair at the frame shown: its report, and the mistake's test.
    pub(super) fn follow(&mut self, fresh: bool) {
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

    /// While following: hold the frame of the first disagreement or event when the break is
    /// armed, else show the newest frame.
    pub(super) fn hold_or_follow(&mut self) {
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
                        text: words::game_waiting(&engine, part),
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
                            text: words::game_connected(&engine, part, self.live.pause_at_first),
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
                            Some((capture.clone(), words::game_gone(frames, Some(problem))));
                    }
                    Message {
                        error: problem.is_some(),
                        text: words::game_gone(frames, problem.as_deref()),
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
}
