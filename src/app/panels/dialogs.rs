//! The modal questions: discard unsaved changes, replace an existing file, recover the work
//! of a session that did not close cleanly.

use crate::app::command::{Command, Commands};
use crate::app::document::Recovery;
use crate::app::document::workspace::Workspace;
use eframe::egui;
use std::path::PathBuf;

/// An action that would discard unsaved changes, waiting for the user to confirm it.
#[derive(Clone, Debug, PartialEq)]
pub enum Discard {
    /// File > New.
    New,
    /// Open this file, read already (read once: confirming does not read it again).
    Open(PathBuf, Box<crate::scene::Scene>),
    /// Import this level, read already.
    Import(PathBuf, Box<crate::import::Imported>),
    /// Close the window.
    Quit,
    /// Replace the scene with a generated one.
    Generate(crate::scene::generate::Generate),
    /// Open a built-in scene.
    Example(crate::app::Example),
}

/// The questions waiting for an answer.
#[derive(Default)]
pub struct Dialogs {
    discard: Option<Discard>,
    overwrite: Option<PathBuf>,
    /// A recovery copy found at start.
    pub recovery: Option<Recovery>,
}

impl Dialogs {
    /// Whether a question is waiting for an answer (the window takes no shortcuts then).
    pub fn is_open(&self) -> bool {
        self.discard.is_some() || self.overwrite.is_some() || self.recovery.is_some()
    }

    /// Ask before `action` discards unsaved changes.
    pub fn confirm_discard(&mut self, action: Discard) {
        self.discard = Some(action);
    }

    /// Ask before saving over `path`, an existing file that is not the open document.
    pub fn confirm_overwrite(&mut self, path: PathBuf) {
        self.overwrite = Some(path);
    }

    /// Show the question at hand, one at a time. Returns a discard the user agreed to.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        ws: &Workspace,
        out: &mut Commands,
    ) -> Option<Discard> {
        if let Some(action) = self.discard.clone() {
            let body = format!("{} has changes that are not saved.", ws.document.name());
            let answer = ask(
                ctx,
                "Discard unsaved changes?",
                &body,
                ["Discard changes", "Cancel"],
            );
            if answer.is_some() {
                self.discard = None;
            }
            return answer.filter(|yes| *yes).map(|_| action);
        }
        if let Some(path) = self.overwrite.clone() {
            let body = format!(
                "{} already exists and is not the open document. Saving replaces it.",
                path.display()
            );
            match ask(ctx, "Replace the file?", &body, ["Replace", "Cancel"]) {
                Some(true) => {
                    self.overwrite = None;
                    out.push(Command::SaveAs {
                        path,
                        confirmed: true,
                    });
                }
                Some(false) => {
                    self.overwrite = None;
                    out.say("not saved", false);
                }
                None => {}
            }
            return None;
        }
        if let Some(recovery) = &self.recovery {
            let age = recovery
                .written
                .and_then(|t| t.elapsed().ok())
                .map(|d| format!(" from {} s ago", d.as_secs()))
                .unwrap_or_default();
            let of = recovery
                .path
                .as_ref()
                .map(|p| format!(" (a copy of {})", p.display()))
                .unwrap_or_default();
            let body = format!(
                "collidoscope did not close cleanly last time. An autosaved scene{age}{of} is available."
            );
            match ask(
                ctx,
                "Recover unsaved work?",
                &body,
                ["Recover", "Discard it"],
            ) {
                Some(true) => {
                    let recovery = self.recovery.take().expect("shown only with a recovery");
                    out.push(Command::Recover(Box::new(recovery)));
                }
                Some(false) => {
                    self.recovery = None;
                    out.push(Command::DiscardRecovery);
                }
                None => {}
            }
        }
        None
    }
}

/// A modal question with two answers: `Some(true)` for the first, `Some(false)` for the
/// second, `None` while unanswered.
fn ask(ctx: &egui::Context, heading: &str, body: &str, [yes, no]: [&str; 2]) -> Option<bool> {
    let mut answer = None;
    egui::Modal::new(egui::Id::unique(heading)).show(ctx, |ui| {
        ui.set_max_width(420.0);
        ui.heading(heading);
        ui.label(body);
        ui.horizontal(|ui| {
            if ui.button(yes).clicked() {
                answer = Some(true);
            }
            if ui.button(no).clicked() {
                answer = Some(false);
            }
        });
    });
    answer
}
