//! The status bar: the last message (it goes once the scene changes after it, or after a
//! while), and the zoom; above them a notice, a problem said whole (a bad link's, whose list
//! of lesson names runs past one line), that stays until dismissed or something else opens.

use crate::app::command::{Command, Commands, Message};
use crate::app::document::workspace::Workspace;
use crate::app::words;
use crate::picture::Camera;
use crate::picture::palette;
use crate::text;
use eframe::egui;

/// How long a message that reports no failure stays (seconds).
const INFO_SECONDS: f64 = 8.0;

/// The message and when it was said.
#[derive(Default)]
pub struct StatusBar {
    message: Option<Message>,
    /// The scene's revision when it was said; a later edit makes it stale.
    revision: u64,
    /// When it was said (egui's clock), set when first shown.
    shown_at: Option<f64>,
    /// A problem shown whole, wrapped, over the bar: kept through edits and time, until the
    /// user dismisses it or something else is opened.
    notice: Option<Message>,
}

impl StatusBar {
    /// Say `text` about the scene at `revision`.
    pub fn say(&mut self, text: impl Into<String>, error: bool, revision: u64) {
        self.message = Some(Message {
            text: text.into(),
            error,
        });
        self.revision = revision;
        self.shown_at = None;
    }

    /// The scene changed: a message about an earlier state no longer applies.
    pub fn scene_changed(&mut self, revision: u64) {
        if revision != self.revision {
            self.message = None;
        }
    }

    /// Say the problem `text` in full, over the bar, until [`StatusBar::dismiss_notice`]; the
    /// message said before it goes (the notice is newer).
    pub fn notice(&mut self, text: impl Into<String>) {
        self.message = None;
        self.notice = Some(Message {
            text: text.into(),
            error: true,
        });
    }

    /// The user dismissed the notice, or something else was opened.
    pub fn dismiss_notice(&mut self) {
        self.notice = None;
    }

    /// The message, if one is showing: the last said, else the notice.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref().or(self.notice.as_ref())
    }

    /// The bar at the bottom of the window; `hint` says what the mouse and keys do when there
    /// is no message; `live`, what goes on live (a capture followed, a game listened for),
    /// stays at its right while it does. A notice is drawn whole above it, with Dismiss. With
    /// `whole`, the message or hint is wrapped whole rather than cut to one line ending in
    /// "...": where a finger cannot hover for the rest, or a phone's width leaves a few words.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        (camera, whole): (Camera, bool),
        hint: &str,
        live: Option<&str>,
        out: &mut Commands,
    ) {
        if ws.revision() != self.revision {
            self.message = None;
        }
        let now = ui.input(|i| i.time);
        if let Some(m) = &self.message {
            let at = *self.shown_at.get_or_insert(now);
            if !m.error {
                let left = INFO_SECONDS - (now - at);
                if left <= 0.0 {
                    self.message = None;
                } else {
                    ui.ctx()
                        .request_repaint_after(std::time::Duration::from_secs_f64(left));
                }
            }
        }
        egui::Panel::bottom("status").show(ui, |ui| {
            if let Some(notice) = &self.notice {
                notice_row(ui, &notice.text, out);
            }
            let said = match &self.message {
                Some(m) if m.error => egui::RichText::new(&m.text).color(palette::INVALID),
                Some(m) => egui::RichText::new(&m.text),
                None => egui::RichText::new(hint),
            };
            let zoom = format!("zoom {} px/unit", text::short_number(camera.scale));
            let live_label = |ui: &mut egui::Ui, live: &str| {
                ui.add(egui::Label::new(egui::RichText::new(live).strong()).truncate())
                    .on_hover_text("the capture lab is live: a capture followed as it is written, or a game listened for");
            };
            if whole {
                // The words over the whole width, the zoom and what is live on a row of their
                // own.
                ui.add(egui::Label::new(said).wrap());
                ui.horizontal(|ui| {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.label(zoom);
                        if let Some(live) = live {
                            live_label(ui, live);
                        }
                    });
                });
                return;
            }
            ui.horizontal(|ui| {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(zoom);
                    if let Some(live) = live {
                        live_label(ui, live);
                    }
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        // Cut to the line (egui shows the whole on hover).
                        ui.add(egui::Label::new(said).truncate());
                    });
                });
            });
        });
    }
}

/// A notice, wrapped to the window's width, and its Dismiss button before it (where a
/// narrow window keeps it in reach).
fn notice_row(ui: &mut egui::Ui, text: &str, out: &mut Commands) {
    ui.horizontal_top(|ui| {
        if ui
            .button("Dismiss")
            .on_hover_text("close this message")
            .clicked()
        {
            out.push(Command::DismissNotice);
        }
        ui.add(egui::Label::new(egui::RichText::new(text).color(palette::INVALID)).wrap());
    });
    ui.separator();
}

/// What the mouse and keys (or fingers) do in `lab`, for the status bar.
pub fn hint(lab: crate::app::Lab, device: words::Device) -> &'static str {
    let how = match lab {
        crate::app::Lab::Casts => words::CASTS_HINT,
        crate::app::Lab::Latency => words::LATENCY_HINT,
        crate::app::Lab::Motion => words::MOTION_HINT,
        crate::app::Lab::Capture => words::CAPTURE_HINT,
        crate::app::Lab::Pair | crate::app::Lab::Broad => words::PAIR_HINT,
    };
    how.on(device)
}
