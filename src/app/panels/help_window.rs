//! Help in one window (the Help menu, F1 or ?): getting started, the keys, and the words the
//! window uses; and the welcome a first start shows (what to drag, where the lessons are),
//! dismissed once and remembered.

use crate::app::command::{Command, Commands, HelpPage};
use crate::app::presenter::LessonCommand;
use crate::app::words;
use crate::lesson::LessonSource;
use eframe::egui::{self, RichText};

/// The help window's own state.
#[derive(Default)]
pub struct HelpWindow {
    open: bool,
    page: HelpPage,
}

/// The lesson a welcome offers first.
const FIRST_LESSON: &str = "sat-polygons";

impl HelpWindow {
    /// Show the window at `page`.
    pub fn show(&mut self, page: HelpPage) {
        self.open = true;
        self.page = page;
    }

    /// Whether the window is shown.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The window, when open, within `room` (what the panels leave), its words on how to work
    /// the window said for `device`.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        room: egui::Rect,
        device: words::Device,
        out: &mut Commands,
    ) {
        let mut open = self.open;
        // Within the space the panels leave (never over the menu bar), near its top, and as
        // tall as its page (scrolled only when the window is small).
        egui::Window::new("Help")
            .open(&mut open)
            .collapsible(false)
            .default_width(520.0)
            // Its height follows the page (a page taller than the room scrolls).
            .resizable([true, false])
            .constrain_to(room)
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos(room.center_top() + egui::vec2(0.0, 12.0))
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    for (page, (_, name)) in
                        HelpPage::ALL.into_iter().zip(words::help_names(device))
                    {
                        ui.selectable_value(&mut self.page, page, name);
                    }
                });
                ui.separator();
                egui::ScrollArea::vertical()
                    .max_height((room.height() - 110.0).max(120.0))
                    // A page that must scroll still takes the room there is.
                    .min_scrolled_height((room.height() - 110.0).max(120.0))
                    .show(ui, |ui| match self.page {
                        HelpPage::GettingStarted => getting_started(ui, device, out),
                        // Fingers see their gestures; the keys folded away (a phone has
                        // none, a tablet may).
                        HelpPage::Keys if device.touch => {
                            table(ui, "gestures", &words::gestures(device));
                            ui.add_space(6.0);
                            ui.collapsing(words::WITH_A_KEYBOARD, |ui| {
                                table(ui, "keys", &words::keys(device));
                            });
                        }
                        HelpPage::Keys => table(ui, "keys", &words::controls(device)),
                        HelpPage::Words => table(ui, "words", words::GLOSSARY),
                    });
            });
        self.open = open;
    }
}

fn getting_started(ui: &mut egui::Ui, device: words::Device, out: &mut Commands) {
    for paragraph in words::getting_started(device) {
        ui.label(paragraph);
        ui.add_space(4.0);
    }
    if ui.button("Start the first lesson").clicked() {
        out.push(start_first_lesson());
    }
}

/// Two columns: a name, and what it is.
fn table(ui: &mut egui::Ui, id: &str, rows: &[(&str, &str)]) {
    egui::Grid::new(id)
        .num_columns(2)
        .striped(true)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (name, meaning) in rows {
                ui.label(RichText::new(*name).strong());
                ui.add(egui::Label::new(*meaning).wrap());
                ui.end_row();
            }
        });
}

fn start_first_lesson() -> Command {
    Command::Lesson(LessonCommand::Open(LessonSource::BuiltIn(
        FIRST_LESSON.into(),
    )))
}

/// The welcome a first start shows.
#[derive(Default)]
pub struct Welcome {
    /// Shown now.
    pub open: bool,
}

impl Welcome {
    /// The welcome, when shown (at the lower left of `room`, what the panels leave): its words,
    /// the first lesson, help, and a button that closes it for good.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        room: egui::Rect,
        device: words::Device,
        out: &mut Commands,
    ) {
        if !self.open {
            return;
        }
        egui::Window::new("Welcome to collidoscope")
            .collapsible(false)
            .resizable(false)
            // Beside the pair it tells you to drag, not over it: the scene's lower left.
            .pivot(egui::Align2::LEFT_BOTTOM)
            .fixed_pos(room.left_bottom() + egui::vec2(12.0, -12.0))
            .show(ctx, |ui| {
                // Within the room on a phone (a 420-point welcome ran past a 390-point screen).
                ui.set_max_width(420.0f32.min(room.width() - 40.0).max(160.0));
                for line in words::welcome(device) {
                    ui.label(line);
                }
                ui.add_space(6.0);
                ui.horizontal(|ui| {
                    if ui.button("Start the first lesson").clicked() {
                        out.push(start_first_lesson());
                        out.push(Command::DismissWelcome);
                    }
                    if ui.button(words::help_button(device)).clicked() {
                        out.push(Command::Help(HelpPage::GettingStarted));
                        out.push(Command::DismissWelcome);
                    }
                    if ui.button("Close").clicked() {
                        out.push(Command::DismissWelcome);
                    }
                });
                ui.label(
                    RichText::new("This shows once; Help > Getting started has it all.").weak(),
                );
            });
    }
}
