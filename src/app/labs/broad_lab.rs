//! The broad-phase lab: the uniform grid behind the intersecting pairs, made visible. Its
//! panel counts what the grid saves (candidate pairs against all n²/2) and sets the cell
//! size; the scene view draws the cells, their occupancy as a heat map, the candidate pairs
//! as thin lines and the intersecting ones in colour.

use crate::app::command::{Command, Commands};
use crate::app::document::workspace::Workspace;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::picture::draw::BroadShown;
use crate::text;
use eframe::egui::{self, RichText};

/// What the overlay shows, and the cell size asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadLab {
    /// The grid's cells, with their occupancy as a heat map.
    pub cells: bool,
    /// A thin line between the centres of every candidate pair on screen.
    pub candidates: bool,
    /// The intersecting pairs, coloured.
    pub hits: bool,
    /// The cell size chosen from the shapes' sizes, or `cell` when not.
    pub auto: bool,
    /// The cell size asked for.
    pub cell: f64,
}

impl Default for BroadLab {
    fn default() -> Self {
        Self {
            cells: true,
            candidates: true,
            hits: true,
            auto: true,
            cell: 2.0,
        }
    }
}

impl BroadLab {
    /// What the view draws in this lab: `pair`'s view (the pair lab's) without the axis ring,
    /// with the grid's cells, candidate pairs and hits as asked.
    pub fn view<'a>(&self, ws: &'a Workspace, mut pair: LabView<'a>) -> LabView<'a> {
        if let PairShown::Document { axes, .. } = &mut pair.pair {
            *axes = false;
        }
        let cell = ws.grid().cell_size().to_bits();
        pair.broad = Some(BroadShown {
            cells: self.cells,
            candidates: self.candidates,
            hits: self.hits,
        });
        // The cells follow every move: with them on, the static layer is built each time.
        pair.static_key = hash_of((self.cells, ws.revision(), cell));
        pair.frame_key = hash_of((
            pair.frame_key,
            self.cells,
            self.candidates,
            self.hits,
            cell,
            ws.hits().len(),
        ));
        pair
    }

    /// The panel on the right.
    pub fn ui(&mut self, ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
        let panel = (crate::app::command::PanelSide::Right, "broad");
        crate::app::side_panel(ui, panel, (300.0, 220.0, 0.42), |ui| {
            ui.heading("Broad phase");
            ui.label(
                    "A uniform grid: each shape's box records the cells it covers, each cell its shapes. Only boxes sharing a cell are compared, and only overlapping boxes reach the narrow phase.",
                );
            ui.separator();
            let n = ws.scene().shapes.len();
            let stats = ws.broad_stats();
            egui::Grid::new("broad counts")
                .num_columns(2)
                .show(ui, |ui| {
                    let mut row = |what: &str, value: String| {
                        ui.label(what);
                        ui.label(RichText::new(value).strong());
                        ui.end_row();
                    };
                    row("shapes", n.to_string());
                    row(
                        "all pairs (n²/2)",
                        (n * n.saturating_sub(1) / 2).to_string(),
                    );
                    row("candidate pairs", stats.candidates.to_string());
                    row("intersecting pairs", ws.hits().len().to_string());
                    row("occupied cells", stats.cells.to_string());
                    row("cell size", text::number(ws.grid().cell_size()));
                    if stats.aside > 0 {
                        row("shapes too big for cells", stats.aside.to_string());
                    }
                });
            ui.separator();
            let mut auto = self.auto;
            ui.checkbox(&mut auto, "cell size from the shapes")
                .on_hover_text(
                    "three times the median of the shapes' box sizes (their larger sides)",
                );
            if auto || auto != self.auto {
                // Shown (and, when leaving automatic, started from) the size in use.
                self.cell = ws.grid().cell_size();
            }
            let slider = egui::Slider::new(&mut self.cell, 0.05..=100.0)
                .logarithmic(true)
                .text("cell size");
            let moved = ui.add_enabled(!auto, slider).changed();
            if auto != self.auto || moved {
                self.auto = auto;
                out.push(Command::CellSize((!auto).then_some(self.cell)));
            }
            ui.separator();
            ui.checkbox(&mut self.cells, "cells and occupancy");
            ui.checkbox(&mut self.candidates, "candidate pairs (thin lines)");
            ui.checkbox(&mut self.hits, "intersecting pairs (red)");
        });
    }
}
