//! The capture lab's commands, carried out in one place ([`CaptureLab::apply`]), with opening a second run to compare, exporting a fixture and replaying a recording.

use super::*;
use crate::app::words;

impl CaptureLab {
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
                    ok(words::following(&path, self.live.pause_at_first))
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
                    .filter(|e| index.position_of(e.frame()).is_some_and(|p| p > held))
                    .count();
                self.live.resume(Some(index));
                self.playback
                    .apply(PlaybackCommand::Last, &Frames(index.frames()));
                ok(words::gone_live(skipped, events))
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
                        let said = words::listening(listener.port());
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
                        .and_then(|_| ok(words::PICK_CANCELLED.into()));
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
                        let said = words::picked_pair(&first_name, &name);
                        self.apply(CaptureCommand::Select(Some(ClaimRef {
                            a: first,
                            b: id,
                            piece: None,
                        })));
                        ok(said)
                    }
                    _ => {
                        self.picked = Some(id);
                        ok(words::picked_first(&name))
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
                    .filter_map(|e| Some((index.position_of(e.frame())?, e)))
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
                ok(crate::capture::words::capture_event(&e, None))
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
            CaptureCommand::PlotWhat(what) => {
                self.plot.what = what;
                None
            }
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
                    return ok(crate::capture::words::runs_part(diff));
                };
                let said = crate::capture::words::runs_part(diff);
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
    pub(super) fn compare_with(
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
    pub(super) fn export(&mut self, path: &Path) -> Option<Message> {
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
    pub(super) fn replay(&mut self, recording: std::path::PathBuf) -> Option<Message> {
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
        let said = crate::app::words::replaying(&recording, &written);
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
    pub(super) fn replay(&mut self, recording: std::path::PathBuf) -> Option<Message> {
        Some(Message {
            text: format!(
                "{}: a Box2D recording, and this build has no Box2D to replay it (build with the box2d feature)",
                recording.display()
            ),
            error: true,
        })
    }
}
