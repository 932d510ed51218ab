//! The top bar (File, Edit, View menus and the path field) and the status bar.

use super::{App, Discard, palette};
use crate::text;
use eframe::egui;
use std::path::PathBuf;

impl App {
    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| self.file_menu(ui));
                ui.menu_button("Edit", |ui| self.edit_menu(ui));
                ui.menu_button("View", |ui| {
                    if ui.button("Fit to scene (F)").clicked() {
                        self.fit_pending = true;
                    }
                    ui.checkbox(&mut self.show_axes, "Show axes");
                    ui.checkbox(&mut self.show_naive, "Show naive MTV");
                    ui.checkbox(&mut self.stack_axes, "Plot all axes");
                });
            });
            ui.horizontal(|ui| {
                let label = ui.label("File:");
                let field = egui::TextEdit::singleline(&mut self.path_field)
                    .hint_text("path/to/shapes.json")
                    .desired_width(360.0);
                let response = ui.add(field).labelled_by(label.id);
                let entered =
                    response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Open").clicked() || entered {
                    self.open_from_field();
                }
                if ui.button("Save").clicked() {
                    self.save_to_field();
                }
            });
        });
    }

    fn open_from_field(&mut self) {
        let path = PathBuf::from(self.path_field.trim());
        if path.as_os_str().is_empty() {
            self.say("type a file path first", true);
        } else {
            self.request_open(&path);
        }
    }

    fn save_to_field(&mut self) {
        let path = PathBuf::from(self.path_field.trim());
        if path.as_os_str().is_empty() {
            self.save();
        } else {
            self.save_as(&path);
        }
    }

    fn file_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("New").clicked() {
            if self.document.dirty {
                self.confirm = Some(Discard::New);
            } else {
                self.new_document();
            }
        }
        if ui.button("Open...").clicked() {
            // rfd answers None at once where no dialog can be shown; the path field remains.
            match super::file_dialog().pick_file() {
                Some(path) => self.request_open(&path),
                None => self.say(
                    "no file chosen (the path field above opens a file too)",
                    false,
                ),
            }
        }
        if ui.button("Save (Ctrl+S)").clicked() {
            self.save();
        }
        if ui.button("Save As...").clicked() {
            match super::file_dialog().save_file() {
                Some(path) => self.save_as(&path),
                None => self.say(
                    "no file chosen (type a path in the field and press Save)",
                    false,
                ),
            }
        }
        ui.separator();
        ui.label("Recent");
        for path in self.document.recent.clone() {
            if ui.button(path.display().to_string()).clicked() {
                self.request_open(&path);
            }
        }
    }

    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        if ui
            .add_enabled(self.history.can_undo(), egui::Button::new("Undo (Ctrl+Z)"))
            .clicked()
        {
            self.undo();
        }
        if ui
            .add_enabled(
                self.history.can_redo(),
                egui::Button::new("Redo (Ctrl+Shift+Z)"),
            )
            .clicked()
        {
            self.redo();
        }
        ui.separator();
        if ui
            .add_enabled(
                self.selected.is_some(),
                egui::Button::new("Duplicate (Ctrl+D)"),
            )
            .clicked()
        {
            self.duplicate_selected();
        }
        if ui
            .add_enabled(self.selected.is_some(), egui::Button::new("Delete (Del)"))
            .clicked()
        {
            self.delete_selected();
        }
    }

    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                match &self.message {
                    Some(m) if m.error => {
                        ui.colored_label(palette::INVALID, &m.text);
                    }
                    Some(m) => {
                        ui.label(&m.text);
                    }
                    None => {
                        ui.label(
                            "Drag shapes to move them; drag the background to pan; wheel to zoom.",
                        );
                    }
                }
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(format!("zoom {} px/unit", text::number(self.camera.scale)));
                });
            });
        });
    }
}
