//! File > Many shapes: a random scene of 100 to 100,000 shapes, from a seed.

use crate::app::command::{Command, Commands};
use crate::scene::generate::Generate;
use eframe::egui;

/// The window's own state.
#[derive(Default)]
pub struct GenerateWindow {
    /// Whether it is showing.
    pub open: bool,
    options: Generate,
}

impl GenerateWindow {
    /// The window, when open.
    pub fn ui(&mut self, ctx: &egui::Context, out: &mut Commands) {
        let mut open = self.open;
        let mut generate = false;
        egui::Window::new("Many shapes")
            .open(&mut open)
            .resizable(false)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label("A new scene of random circles, capsules, boxes and polygons.");
                egui::Grid::new("generate").num_columns(2).show(ui, |ui| {
                    let l = ui.label("shapes");
                    ui.add(
                        egui::DragValue::new(&mut self.options.count)
                            .range(100..=100_000)
                            .speed(50),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label("seed");
                    ui.add(egui::DragValue::new(&mut self.options.seed))
                        .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label("overlaps per shape");
                    ui.add(
                        egui::DragValue::new(&mut self.options.overlaps)
                            .range(0.1..=10.0)
                            .speed(0.05),
                    )
                    .labelled_by(l.id)
                    .on_hover_text(
                        "sets the area: about how many others each shape's box overlaps",
                    );
                    ui.end_row();
                });
                generate = ui.button("Generate").clicked();
            });
        if generate {
            out.push(Command::Generate(self.options));
            open = false;
        }
        self.open = open;
    }
}
