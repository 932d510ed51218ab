//! The explained pair at the motion lab's frame: the same report the pair lab shows (verdict,
//! contacts or closest points, every axis as a table or as projections, the document's claim
//! diagnosed), built from that frame's poses, so scrubbing the timeline scrubs the test too.

use crate::app::{axes_table, pair_lab, projection_plot};
use crate::diagnose::diagnose_claim;
use crate::query::{PairReport, pair_report};
use crate::scene::{Claim, Scene};
use crate::text::PairNames;
use eframe::egui::{self, RichText};

/// What the lower part shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tab {
    #[default]
    Table,
    Projections,
}

/// The pair's report at one frame, and how it is shown.
#[derive(Default)]
pub struct FramePair {
    /// The frame and the pair (positions in the shape list) the report is of.
    key: Option<(u64, usize, usize)>,
    report: Option<PairReport>,
    tab: Tab,
    /// The axis under the pointer (table or plot), else the deciding one.
    hovered_axis: Option<usize>,
}

impl FramePair {
    /// Build the report again when the frame shown or the pair changed; `fresh` says that the
    /// frame's scene itself was rebuilt (a new run, or another frame).
    pub fn follow(
        &mut self,
        scene: Option<(u64, &Scene)>,
        pair: Option<(usize, usize)>,
        fresh: bool,
    ) {
        let Some(((frame, scene), (a, b))) = scene.zip(pair) else {
            self.key = None;
            self.report = None;
            return;
        };
        let key = Some((frame, a, b));
        if key == self.key && !fresh {
            return;
        }
        let shapes = &scene.shapes;
        self.report = shapes
            .get(a)
            .zip(shapes.get(b))
            .map(|(sa, sb)| pair_report(&sa.placed, &sb.placed));
        self.key = key;
        if self
            .hovered_axis
            .is_some_and(|k| self.report.as_ref().is_none_or(|r| k >= r.sat.axes.len()))
        {
            self.hovered_axis = None;
        }
    }

    /// The pair (positions) and its report at the frame shown.
    pub fn report(&self) -> Option<((usize, usize), &PairReport)> {
        let (_, a, b) = self.key?;
        Some(((a, b), self.report.as_ref()?))
    }

    /// The axis the view brings forward: hovered in the panel, else the deciding one.
    pub fn focus_axis(&self) -> Option<usize> {
        let report = self.report.as_ref()?;
        self.hovered_axis.or(Some(report.sat.deciding_axis()))
    }

    /// The verdict, contacts or closest points, the claim if any, and the axes.
    pub fn ui(&mut self, ui: &mut egui::Ui, scene: &Scene, claim: Option<&Claim>, naive: bool) {
        let (Some((frame, a, b)), Some(report)) = (self.key, &self.report) else {
            return;
        };
        let names = PairNames::in_scene(scene, a, b);
        ui.label(RichText::new(format!("Frame {frame}, {} and {}:", names.a, names.b)).strong());
        pair_lab::verdict_lines(ui, report, &names, naive);
        if let Some(d) = claim.and_then(|c| diagnose_claim(scene, c)) {
            let line = if d.agrees() {
                "The document's claim agrees with this frame.".to_string()
            } else {
                format!(
                    "The document's claim (of its own poses) differs at this frame: {}.",
                    crate::differences(&d.check)
                )
            };
            ui.label(line)
                .on_hover_text("the pair lab's Claimed tab diagnoses it at the scene's own poses");
        }
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tab, Tab::Table, "Axes at this frame");
            ui.selectable_value(&mut self.tab, Tab::Projections, "Projections at this frame");
        });
        let total = report.sat.axes.len();
        let hovered = match self.tab {
            Tab::Table => {
                let place = axes_table::Place {
                    id: "motion axes table",
                    scroll_down: false,
                    follow: false,
                };
                // A narrow panel scrolls the table sideways rather than cutting its columns.
                let hovered = self.hovered_axis;
                egui::ScrollArea::horizontal()
                    .id_salt("motion axes scroll")
                    .show(ui, |ui| {
                        axes_table::ui(ui, &report.sat, &names, total, true, hovered, place)
                    })
                    .inner
            }
            Tab::Projections => {
                let rows: Vec<usize> = self.focus_axis().into_iter().collect();
                projection_plot::ui(ui, report, &names, &rows, true)
            }
        };
        // The row under the pointer, or none once the pointer has left the table.
        self.hovered_axis = hovered;
    }
}
