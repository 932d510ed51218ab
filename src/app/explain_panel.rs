//! The right panel: which pair is explained, the verdict, every axis in a table, step mode for
//! teaching, and the projection plot.

use super::{App, palette};
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};

impl App {
    pub(super) fn explain_panel(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("explain")
            .default_size(440.0)
            .min_size(300.0)
            .max_size(620.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    self.pair_chooser(ui);
                    let Some(names) = self.pair_names() else {
                        ui.label("Add at least two shapes to explain a pair.");
                        return;
                    };
                    self.verdict(ui, &names);
                    ui.separator();
                    self.step_mode(ui, &names);
                    ui.separator();
                    self.axes_table(ui, &names);
                    ui.separator();
                    self.projection_plot(ui, &names);
                });
            });
    }

    fn pair_names(&self) -> Option<PairNames> {
        self.report.as_ref()?;
        let (a, b) = self.pair;
        let shapes = &self.scene.shapes;
        Some(PairNames {
            a: shapes[a].display_name(a),
            b: shapes[b].display_name(b),
            kind_a: shapes[a].placed.shape.kind(),
            kind_b: shapes[b].placed.shape.kind(),
        })
    }

    fn pair_chooser(&mut self, ui: &mut egui::Ui) {
        let n = self.scene.shapes.len();
        if n < 2 {
            return;
        }
        let names: Vec<String> = (0..n)
            .map(|i| self.scene.shapes[i].display_name(i))
            .collect();
        let (mut a, mut b) = self.pair;
        ui.horizontal(|ui| {
            for (side, colour, index) in [("A", palette::A, &mut a), ("B", palette::B, &mut b)] {
                let label = ui.colored_label(colour, side);
                egui::ComboBox::from_id_salt(("pair", side))
                    .selected_text(&names[*index])
                    .show_ui(ui, |ui| {
                        for (i, name) in names.iter().enumerate() {
                            ui.selectable_value(index, i, name);
                        }
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text(format!("shape {side} of the explained pair"));
            }
            if ui.button("Swap").clicked() {
                std::mem::swap(&mut a, &mut b);
            }
        });
        if (a, b) != self.pair {
            self.set_pair(a, b);
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.show_axes, "Show axes");
            ui.checkbox(&mut self.show_naive, "Show naive MTV");
        });
        if !self.other_hits.is_empty() {
            let list: Vec<String> = self
                .other_hits
                .iter()
                .map(|&(i, j)| format!("{} / {}", names[i], names[j]))
                .collect();
            ui.colored_label(
                palette::OTHER_HIT,
                format!("Also intersecting: {}", list.join(", ")),
            );
        }
    }

    fn verdict(&self, ui: &mut egui::Ui, names: &PairNames) {
        let Some(report) = &self.report else { return };
        ui.label(RichText::new(text::verdict_sentence(&report.sat, names)).strong());
        if self.show_naive {
            ui.colored_label(
                palette::NAIVE,
                text::naive_sentence(&report.sat, report.naive.as_ref(), names),
            );
        }
        if let Some(c) = &report.contact {
            let points: Vec<String> = c.points.iter().map(|p| text::point(p.point)).collect();
            ui.label(format!("Contacts: {}", points.join(", ")));
        } else if let Some(c) = report.proximity.closest {
            ui.label(format!(
                "Distance {}: closest points {} and {}",
                text::number(report.proximity.distance),
                text::point(c.point_a),
                text::point(c.point_b)
            ));
        }
    }

    fn step_mode(&mut self, ui: &mut egui::Ui, names: &PairNames) {
        let Some(report) = &self.report else { return };
        let total = report.sat.axes.len();
        ui.horizontal(|ui| {
            ui.label(RichText::new("Step through the test").strong());
            if ui.button("Previous").clicked() {
                self.step_previous();
            }
            if ui.button("Next").clicked() {
                self.step_next();
            }
            if self.step.is_some() && ui.button("Stop").clicked() {
                self.step = None;
            }
        });
        let Some(report) = &self.report else { return };
        match self.step {
            None => {
                ui.label(format!(
                    "Next (or the right arrow key) walks the {total} axes one at a time."
                ));
            }
            Some(k) if k < total => {
                ui.label(text::axis_sentence(&report.sat, k, names));
            }
            Some(_) => {
                ui.label(text::verdict_sentence(&report.sat, names));
            }
        }
    }

    fn axes_table(&mut self, ui: &mut egui::Ui, names: &PairNames) {
        let Some(report) = &self.report else { return };
        let deciding = report.sat.deciding_axis();
        let mut hovered = None;
        egui::ScrollArea::horizontal()
            .id_salt("axes scroll")
            .show(ui, |ui| {
                egui::Grid::new("axes")
                    .striped(true)
                    .num_columns(7)
                    .show(ui, |ui| {
                        for header in [
                            "#",
                            "axis from",
                            "axis",
                            &format!("{} spans", names.a),
                            &format!("{} spans", names.b),
                            "overlap",
                            "decision",
                        ] {
                            ui.label(RichText::new(header).strong());
                        }
                        ui.end_row();
                        for (k, t) in report.sat.axes.iter().enumerate() {
                            let colour = if k == deciding {
                                palette::DECIDING
                            } else if t.separating {
                                palette::SEPARATING
                            } else {
                                ui.visuals().text_color()
                            };
                            let current = self.step == Some(k) || self.hovered_axis == Some(k);
                            let cell = |text: String| {
                                let rich = RichText::new(text).color(colour);
                                if current { rich.underline() } else { rich }
                            };
                            let marker = if k == deciding { "> " } else { "" };
                            let row = [
                                ui.label(cell(format!("{marker}{}", k + 1))),
                                ui.label(cell(text::axis_source(t.source, names))),
                                ui.label(cell(text::point(t.axis))),
                                ui.label(cell(text::interval(t.a))),
                                ui.label(cell(text::interval(t.b))),
                                ui.label(cell(text::overlap(t.overlap))),
                                ui.label(cell(text::decision(&report.sat, k).into())),
                            ];
                            if row.iter().any(|r| r.hovered()) {
                                hovered = Some(k);
                            }
                            ui.end_row();
                        }
                    });
            });
        // The scene view and the plot highlight the axis hovered here (or in the scene).
        if hovered.is_some() || ui.ui_contains_pointer() {
            self.hovered_axis = hovered;
        }
    }

    /// The axis the plot and the scene bring forward: hovered, else the current step, else the
    /// deciding one.
    pub(super) fn focus_axis(&self) -> Option<usize> {
        let total = self.report.as_ref()?.sat.axes.len();
        self.hovered_axis
            .or(self.step.filter(|s| *s < total))
            .or(self.report.as_ref().map(|r| r.sat.deciding_axis()))
    }
}
