//! The keys: shortcuts (undo, redo, save, duplicate) and a table from key to the command a
//! button would push, for the lab shown.

use super::*;

impl App {
    pub(super) fn keyboard(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        if self.dialogs.is_open() {
            // A question is waiting: its buttons answer it, no shortcut acts behind it.
            return;
        }
        if self.presenter.is_some() && !ctx.text_edit_focused() {
            // A lesson's keys: the steps and slides, R, L and Esc.
            self.presenter_keys(ctx);
        }
        let shortcut = |m, k| KeyboardShortcut::new(m, k);
        let (redo, undo, redo_y, save, duplicate) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::S)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::D)),
            )
        });
        let out = &mut self.commands;
        if undo {
            out.push(Command::Undo);
        }
        if redo || redo_y {
            out.push(Command::Redo);
        }
        if save {
            out.push(Command::Save);
        }
        if duplicate {
            shapes_panel::duplicate_selected(&self.workspace, out);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pressed = |k: Key| ctx.input(|i| i.key_pressed(k));
        // Every press is one step, however fast they come: several presses can arrive in one
        // frame when frames are slow.
        let presses =
            |keys: &[Key]| -> usize { ctx.input(|i| keys.iter().map(|k| i.num_presses(*k)).sum()) };
        // Each press of `k` with the modifiers its own event carries: a quick Shift+G can begin
        // and end, Shift and all, within one frame, so the frame's modifiers may have let go.
        let shifted_presses = |k: Key| -> Vec<bool> {
            ctx.input(|i| {
                i.events
                    .iter()
                    .filter_map(|e| match e {
                        egui::Event::Key {
                            key,
                            pressed: true,
                            modifiers,
                            ..
                        } if *key == k => Some(modifiers.shift),
                        _ => None,
                    })
                    .collect()
            })
        };
        let clicking_polygon = self.scene_view.is_adding_polygon();
        if pressed(Key::Delete) || pressed(Key::Backspace) {
            if clicking_polygon {
                // While a polygon is being clicked, the key takes back its last corner.
                self.scene_view.remove_last_corner();
            } else if let Some(id) = self.workspace.selected() {
                out.edit(Edit::Remove(id));
            }
        }
        if pressed(Key::F) {
            out.push(Command::Fit(Fit::Scene));
        }
        if pressed(Key::F1) || pressed(Key::Questionmark) {
            out.push(Command::Help(super::HelpPage::GettingStarted));
        }
        for shift in shifted_presses(Key::G) {
            out.push(Command::Fit(if shift { Fit::Headline } else { Fit::Pair }));
        }
        if self.presenter.is_some() {
            return;
        }
        // A timeline's keys: a table from key to command, the same commands its buttons push.
        let timeline = match self.lab {
            Lab::Motion => Some(TimelineId::Motion),
            Lab::Latency => Some(TimelineId::Latency),
            Lab::Capture => Some(TimelineId::Capture),
            _ => None,
        };
        if let Some(id) = timeline {
            let next_event = self.motion_lab.next_event_command();
            let keys: [(&[Key], Option<Command>); 6] = [
                (
                    &[Key::Space],
                    Some(Command::Playback(id, PlaybackCommand::Toggle)),
                ),
                (
                    &[Key::ArrowRight, Key::N],
                    Some(Command::Playback(id, PlaybackCommand::Forward)),
                ),
                (
                    &[Key::ArrowLeft, Key::P],
                    Some(Command::Playback(id, PlaybackCommand::Back)),
                ),
                (&[Key::E], next_event.filter(|_| id == TimelineId::Motion)),
                (
                    &[Key::ArrowDown],
                    (id == TimelineId::Latency)
                        .then_some(Command::Latency(LatencyCommand::StepBucket(1))),
                ),
                (
                    &[Key::ArrowUp],
                    (id == TimelineId::Latency)
                        .then_some(Command::Latency(LatencyCommand::StepBucket(-1))),
                ),
            ];
            for (pressed_keys, command) in keys {
                if let Some(command) = command {
                    for _ in 0..presses(pressed_keys) {
                        out.push(command.clone());
                    }
                }
            }
            if id == TimelineId::Capture {
                // D the next disagreeing claim, Shift+D the one before.
                for shift in shifted_presses(Key::D) {
                    out.push(Command::Capture(CaptureCommand::NextDivergence(!shift)));
                }
                // E the next event (a seam, a tunnel...), Shift+E the one before.
                for shift in shifted_presses(Key::E) {
                    out.push(Command::Capture(CaptureCommand::NextEvent(!shift)));
                }
                // J: where the compared runs first part.
                if pressed(Key::J) {
                    out.push(Command::Capture(CaptureCommand::JumpToParting));
                }
                // L: live again (the newest frame of a capture followed, the break armed).
                if pressed(Key::L) {
                    out.push(Command::Capture(CaptureCommand::GoLive));
                }
            }
        } else {
            for _ in 0..presses(&[Key::ArrowRight, Key::N]) {
                self.pair_lab.step_next(&self.workspace);
            }
            for _ in 0..presses(&[Key::ArrowLeft, Key::P]) {
                self.pair_lab.step_previous(&self.workspace);
            }
        }
        if pressed(Key::Escape) {
            self.numbers_panel.forget_refused();
            if clicking_polygon {
                out.push(Command::CancelPolygon);
            } else if self.lab == Lab::Capture && self.capture_lab.picked().is_some() {
                out.push(Command::Capture(CaptureCommand::Pick(None)));
            } else {
                self.pair_lab.stop_stepping();
            }
        }
        if pressed(Key::Enter) && clicking_polygon {
            out.push(Command::FinishPolygon);
        }
    }
}
