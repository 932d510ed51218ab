//! File > Export fixture: the explained pair (or every pair) pinned to its exact results in a
//! fixture file, with the Rust test that checks it beside it if wanted (what
//! `collidoscope fixture` writes).

use crate::app::command::{Command, Commands};
use crate::app::document::workspace::Workspace;
use crate::picture::palette;
use eframe::egui;
use std::path::{Path, PathBuf};

/// The window's own state.
#[derive(Default)]
pub struct ExportWindow {
    open: bool,
    every_pair: bool,
    path: String,
    rust: bool,
    rust_path: String,
    /// The existing file the user agreed to replace.
    replace: Option<PathBuf>,
}

impl ExportWindow {
    /// Show the window, with paths proposed beside `near` (the path field's file; for an
    /// untitled document, a file in the data folder).
    pub fn open(&mut self, near: &Path) {
        self.open = true;
        if self.path.is_empty() {
            let stem = near
                .file_stem()
                .map_or("case".into(), |s| s.to_string_lossy().into_owned());
            let folder = near.parent().unwrap_or(Path::new(""));
            self.path = folder
                .join(format!("{stem}-fixture.json"))
                .display()
                .to_string();
            self.rust_path = folder
                .join(format!("{}_fixture.rs", stem.replace('-', "_")))
                .display()
                .to_string();
        }
    }

    /// The window, when open.
    pub fn ui(&mut self, ctx: &egui::Context, ws: &Workspace, out: &mut Commands) {
        let mut open = self.open;
        let mut export = false;
        egui::Window::new("Export fixture")
            .open(&mut open)
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label("Pin exact results in a fixture: `collidoscope check` and the Rust test recompute them and report any drift.");
                let pair = ws.pair_indices();
                let names = pair.map(|(a, b)| {
                    let shapes = &ws.scene().shapes;
                    format!("{} / {}", shapes[a].display_name(a), shapes[b].display_name(b))
                });
                ui.add_enabled_ui(pair.is_some(), |ui| {
                    ui.radio_value(
                        &mut self.every_pair,
                        false,
                        format!("the explained pair ({})", names.unwrap_or_default()),
                    );
                });
                let n = ws.scene().shapes.len();
                ui.radio_value(
                    &mut self.every_pair,
                    true,
                    format!("every pair ({})", n * n.saturating_sub(1) / 2),
                );
                egui::Grid::new("export").num_columns(2).show(ui, |ui| {
                    let l = ui.label("fixture");
                    ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(300.0))
                        .labelled_by(l.id);
                    ui.end_row();
                    let tick = ui.checkbox(&mut self.rust, "Rust test");
                    ui.add_enabled(
                        self.rust,
                        egui::TextEdit::singleline(&mut self.rust_path).desired_width(300.0),
                    )
                    .labelled_by(tick.id)
                    .on_hover_text("a #[test] that embeds the fixture (include_str!) and checks it with collidoscope::fixture::verify");
                    ui.end_row();
                });
                let path = PathBuf::from(self.path.trim());
                let document = ws.document.path.as_deref() == Some(path.as_path());
                let exists = path.exists() && self.replace.as_deref() != Some(path.as_path());
                if document {
                    ui.colored_label(palette::INVALID, "That is the open document: choose another file.");
                } else if exists {
                    ui.horizontal(|ui| {
                        ui.colored_label(palette::INVALID, "The file exists.");
                        if ui.button("Replace it").clicked() {
                            self.replace = Some(path.clone());
                        }
                    });
                }
                let ready = !self.path.trim().is_empty()
                    && !document
                    && !exists
                    && (self.every_pair || pair.is_some())
                    && n >= 2;
                export = ui.add_enabled(ready, egui::Button::new("Export")).clicked();
            });
        if export {
            let pairs = if self.every_pair {
                None
            } else {
                ws.pair_indices().map(|p| vec![p])
            };
            out.push(Command::ExportFixture {
                pairs,
                path: PathBuf::from(self.path.trim()),
                rust: self
                    .rust
                    .then(|| PathBuf::from(self.rust_path.trim()))
                    .filter(|p| !p.as_os_str().is_empty()),
            });
            self.replace = None;
            open = false;
        }
        self.open = open;
    }
}
