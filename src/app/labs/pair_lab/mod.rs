//! The pair lab: the separating-axis test of one pair, told on the right. Which pair, the
//! verdict, the other intersecting pairs, step mode for teaching, and the axes as a table or
//! as projections.

pub(crate) mod axes_table;
pub(crate) mod claimed_panel;
pub(crate) mod motion_tab;
pub(crate) mod projection_plot;

use crate::app::ViewOptions;
use crate::app::command::{Command, Commands, Fit};
use crate::app::document::workspace::Workspace;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::app::labs::pair_lab::claimed_panel::ClaimedPanel;
use crate::app::words;
use crate::picture::palette;
use crate::query::PairReport;
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};

/// What the lower part of the panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// Every axis in a table.
    #[default]
    Table,
    /// The projections on a number line.
    Projections,
    /// What another engine claimed, diagnosed.
    Claimed,
    /// The time of impact of a moving pair, step by step.
    Motion,
}

/// The pair lab's own state.
#[derive(Default)]
pub struct PairLab {
    /// Step mode: the axis being told (index into the report's axes; one past the end is the
    /// verdict). `None` when step mode is off.
    step: Option<usize>,
    /// The axis under the pointer in the table, plot or scene (last frame's).
    pub hovered_axis: Option<usize>,
    tab: Tab,
    /// Plot every axis stacked, rather than the one in focus.
    stacked: bool,
    /// How many axes the report had at the last frame.
    axes: usize,
    /// The Claimed tab.
    pub claimed: ClaimedPanel,
}

impl PairLab {
    /// What the view draws in this lab: the document's pair, as far as step mode has gone,
    /// with the axis in focus and a mistake's test when one is shown.
    pub fn view<'a>(&self, ws: &'a Workspace) -> LabView<'a> {
        let report = ws.report().filter(|_| !ws.is_stale());
        let total = report.map_or(0, |r| r.sat.axes.len());
        let focus_axis = report.and_then(|r| self.focus_axis(r));
        let (axes_seen, verdict_shown) = (self.axes_seen(total), self.verdict_shown(total));
        let mut view = LabView::document(PairShown::Document {
            focus_axis,
            axes_seen,
            verdict_shown,
            mistake: self.claimed.mistake_report(ws),
            axes: true,
        });
        view.frame_key = hash_of((
            self.claimed.shown_mistake(),
            focus_axis,
            axes_seen,
            verdict_shown,
        ));
        view
    }

    /// Keep step mode within the report's axes.
    pub fn follow(&mut self, ws: &Workspace) {
        self.axes = ws.report().map_or(0, |r| r.sat.axes.len());
        if ws.report().is_none() {
            self.step = None;
        }
        self.step = self.step.map(|s| s.min(self.axes));
        if self.hovered_axis.is_some_and(|k| k >= self.axes) {
            self.hovered_axis = None;
        }
    }

    /// Another pair is explained: step mode starts again from its first axis.
    pub fn pair_changed(&mut self) {
        self.step = self.step.map(|_| 0);
        self.hovered_axis = None;
    }

    /// What the pair says now, in words: the verdict, or the axis step mode is at.
    pub fn said(&self, ws: &Workspace) -> String {
        match (ws.report(), pair_names(ws)) {
            (Some(report), Some(names)) => {
                text::step_sentences(report, &names, self.step.map(|k| k + 1), false).join(" ")
            }
            _ => words::NO_PAIR.to_string(),
        }
    }

    /// The current step, if step mode is on.
    pub fn step(&self) -> Option<usize> {
        self.step
    }

    /// Tell the next axis (starting step mode).
    pub fn step_next(&mut self, ws: &Workspace) {
        if ws.report().is_some() {
            self.step = Some(self.step.map_or(0, |s| (s + 1).min(self.axes)));
        }
    }

    /// Tell the previous axis (starting step mode).
    pub fn step_previous(&mut self, ws: &Workspace) {
        if ws.report().is_some() {
            self.step = Some(self.step.map_or(0, |s| s.saturating_sub(1)));
        }
    }

    /// Show step `step` of step mode (index into the axes; one past the last is the verdict),
    /// or leave step mode (`None`): a lesson's slide sets it.
    pub fn show_step(&mut self, step: Option<usize>) {
        self.step = step;
        self.hovered_axis = None;
    }

    /// Leave step mode.
    pub fn stop_stepping(&mut self) {
        self.step = None;
    }

    /// How many axes have been told so far: all of them outside step mode.
    pub fn axes_seen(&self, total: usize) -> usize {
        self.step.map_or(total, |s| (s + 1).min(total))
    }

    /// Whether the verdict and the deciding axis may be shown: not while stepping, until the
    /// last step.
    pub fn verdict_shown(&self, total: usize) -> bool {
        self.step.is_none_or(|s| s >= total)
    }

    /// The axis the plot and the scene bring forward: hovered, else the current step, else
    /// the deciding one (once the verdict is shown).
    pub fn focus_axis(&self, report: &PairReport) -> Option<usize> {
        let total = report.sat.axes.len();
        self.hovered_axis
            .filter(|k| *k < self.axes_seen(total))
            .or(self.step.filter(|s| *s < total))
            .or(self
                .verdict_shown(total)
                .then(|| report.sat.deciding_axis()))
    }

    /// The panel on the right.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        options: &mut ViewOptions,
        out: &mut Commands,
    ) {
        let panel = (crate::app::command::PanelSide::Right, "explain");
        crate::app::side_panel(ui, panel, (400.0, 240.0, 0.42), |ui| {
            pair_chooser(ui, ws, out);
            let (Some(report), Some(names)) = (ws.report(), pair_names(ws)) else {
                ui.label("Add at least two shapes to explain a pair.");
                return;
            };
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut options.show_axes, "Show axes")
                    .on_hover_text(words::glossary("axis"));
                ui.checkbox(&mut options.show_naive, "Show naive MTV")
                    .on_hover_text(words::glossary("MTV"));
            });
            // The step buttons come before anything whose height changes, so they stay
            // under the pointer while stepping.
            self.step_buttons(ui, ws, report.sat.axes.len());
            ui.separator();
            self.step_sentence(ui, report, &names);
            self.verdict(ui, report, &names, options.show_naive);
            also_intersecting(ui, ws, out);
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.selectable_value(&mut self.tab, Tab::Table, "Axes table");
                ui.selectable_value(&mut self.tab, Tab::Projections, "Projections");
                let claimed = if ws.claim().is_some() {
                    "Claimed *"
                } else {
                    "Claimed"
                };
                ui.selectable_value(&mut self.tab, Tab::Claimed, claimed)
                    .on_hover_text("compare what another engine reported with the exact result");
                if ws.pair_motion().is_some() {
                    ui.selectable_value(&mut self.tab, Tab::Motion, "Motion")
                        .on_hover_text("when the moving pair first touches, step by step");
                } else if self.tab == Tab::Motion {
                    self.tab = Tab::Table;
                }
                if self.tab == Tab::Projections {
                    ui.checkbox(&mut self.stacked, "all axes");
                }
            });
            let seen = self.axes_seen(report.sat.axes.len());
            let verdict = self.verdict_shown(report.sat.axes.len());
            let hovered = match self.tab {
                Tab::Table => {
                    let current = self.step.or(self.hovered_axis);
                    // On a phone the panel under the scene scrolls already (a finger's drag
                    // scrolls it): the table only sideways there.
                    let phone = ui.ctx().content_rect().width() < crate::app::widgets::PHONE;
                    let place = axes_table::Place {
                        id: "axes",
                        scroll_down: !phone,
                        follow: self.step.is_some(),
                    };
                    axes_table::ui(ui, &report.sat, &names, seen, verdict, current, place)
                }
                Tab::Claimed => {
                    self.claimed.ui(ui, ws, &names, out);
                    None
                }
                Tab::Motion => {
                    motion_tab::ui(ui, ws, &names, out);
                    None
                }
                Tab::Projections => {
                    let rows: Vec<usize> = if self.stacked {
                        (0..seen).collect()
                    } else {
                        self.focus_axis(report).into_iter().collect()
                    };
                    projection_plot::ui(ui, report, &names, &rows, verdict)
                }
            };
            if hovered.is_some() || ui.ui_contains_pointer() {
                self.hovered_axis = hovered;
            }
        });
    }

    fn verdict(&self, ui: &mut egui::Ui, report: &PairReport, names: &PairNames, naive: bool) {
        if !self.verdict_shown(report.sat.axes.len()) {
            ui.label("The verdict is hidden while stepping: step to the end to see it.");
            return;
        }
        verdict_lines(ui, report, names, naive);
    }

    fn step_buttons(&mut self, ui: &mut egui::Ui, ws: &Workspace, total: usize) {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Step through the test").strong());
            if ui.button("Previous").clicked() {
                self.step_previous(ws);
            }
            if ui.button("Next").clicked() {
                self.step_next(ws);
            }
            if ui
                .add_enabled(self.step.is_some(), egui::Button::new("Stop"))
                .clicked()
            {
                self.step = None;
            }
            if let Some(k) = self.step {
                ui.label(words::step_place((k + 1).min(total + 1), total));
            }
        });
    }

    /// Step mode's sentence: how to start, the current axis, or that the verdict follows.
    fn step_sentence(&self, ui: &mut egui::Ui, report: &PairReport, names: &PairNames) {
        let total = report.sat.axes.len();
        match self.step {
            None => {
                ui.label(words::step_invitation(total));
            }
            Some(k) if k < total => {
                ui.label(text::axis_sentence(&report.sat, k, names));
            }
            Some(_) => {
                ui.label(format!("All {total} axes told; the verdict:"));
            }
        }
    }
}

/// The pair's names and kinds, for sentences.
fn pair_names(ws: &Workspace) -> Option<PairNames> {
    let (a, b) = ws.pair_indices()?;
    Some(PairNames::in_scene(ws.scene(), a, b))
}

fn pair_chooser(ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
    let Some((a, b)) = ws.pair() else { return };
    let shapes = &ws.scene().shapes;
    let (mut new_a, mut new_b) = (a, b);
    let combo_width = ((ui.available_width() - 110.0) / 2.0).clamp(60.0, 140.0);
    let mut fitter = crate::app::widgets::NameFitter::new(|| {
        crate::app::panels::shapes_panel::names_of(ws.scene())
    });
    // The list opens at most as wide as the panel, each long name cut where it is like the
    // others (the whole name on hover).
    let list_width = ui.available_width().max(combo_width);
    ui.horizontal(|ui| {
        for (side, colour, id) in [("A", palette::A, &mut new_a), ("B", palette::B, &mut new_b)] {
            let label = ui.colored_label(colour, side);
            let name = ws.name_of(*id);
            // The box's own text leaves room for its arrow.
            let shown = fitter.fit(ui, &name, "", combo_width - 24.0);
            egui::ComboBox::from_id_salt(("pair", side))
                .selected_text(shown)
                .width(combo_width)
                .show_ui(ui, |ui| {
                    ui.set_max_width(list_width);
                    for (i, shape) in shapes.iter().enumerate() {
                        let whole = shape.display_name(i);
                        let row = fitter.fit(ui, &whole, "", list_width - 16.0);
                        let cut = row != whole;
                        let response = ui.selectable_value(id, shape.id, row);
                        if cut {
                            response.on_hover_text(whole);
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(format!("shape {side} of the explained pair: {name}"));
        }
        if ui.button("Swap").clicked() {
            std::mem::swap(&mut new_a, &mut new_b);
        }
    });
    if (new_a, new_b) != (a, b) && new_a != new_b {
        out.push(Command::Explain(new_a, new_b));
    }
}

/// The other intersecting pairs as small buttons: a click explains that pair.
fn also_intersecting(ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
    const SHOWN: usize = 12;
    let hits: Vec<_> = ws.other_hits().collect();
    if hits.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            palette::OTHER_HIT,
            format!("Also intersecting ({}):", hits.len()),
        );
        let mut fitter = crate::app::widgets::NameFitter::new(|| {
            crate::app::panels::shapes_panel::names_of(ws.scene())
        });
        for &(a, b) in hits.iter().take(SHOWN) {
            let (name_a, name_b) = (ws.name_of(a), ws.name_of(b));
            let text = format!("{name_a} / {name_b}");
            // Never wider than the panel: a pair of long names (an imported level's paths)
            // gets a row of its own, each name cut where it is like the others.
            let full = ui.max_rect().width();
            let wide = ui.fonts_mut(|f| {
                f.layout_no_wrap(
                    text.clone(),
                    egui::FontId::proportional(10.0),
                    egui::Color32::WHITE,
                )
                .size()
                .x
            }) + 12.0
                > full;
            let response = if wide {
                let half = 0.5 * (full - 40.0);
                let shown = format!(
                    "{} / {}",
                    fitter.fit(ui, &name_a, "", half),
                    fitter.fit(ui, &name_b, "", half)
                );
                let button = egui::Button::new(shown).small().truncate();
                ui.add_sized([full, 0.0], button).on_hover_text(&text)
            } else {
                ui.add(egui::Button::new(text.as_str()).small())
            };
            if response
                .on_hover_text("explain this pair (the view moves to it when it is not in view)")
                .clicked()
            {
                out.push(Command::Explain(a, b));
                out.push(Command::Fit(Fit::Reveal));
            }
        }
        if hits.len() > SHOWN {
            ui.label(format!("and {} more", hits.len() - SHOWN));
        }
    });
}

/// The verdict in a sentence (and the naive rule's, when asked), then the contact points or
/// the distance and closest points.
pub fn verdict_lines(ui: &mut egui::Ui, report: &PairReport, names: &PairNames, naive: bool) {
    let sat = text::verdict_sentence(&report.sat, names);
    match text::chain_verdict(report, names) {
        // A pair with a chain: the chain rule's answer first, then the piece alone.
        Some(verdict) => {
            ui.label(RichText::new(verdict).strong());
            if let Some(alone) = text::chain_alone(report) {
                ui.label(RichText::new(alone).weak());
                ui.label(sat);
            }
            for line in text::chain_lines(report, names) {
                ui.label(RichText::new(line).weak());
            }
        }
        None => {
            // The verdict names the MTV and an axis: what they are, on hover.
            ui.label(RichText::new(sat).strong()).on_hover_text(format!(
                "{}\n\n{}",
                words::glossary("MTV"),
                words::glossary("axis")
            ));
        }
    }
    if let Some(note) = names.rounded_note(&report.sat) {
        ui.label(RichText::new(note).weak());
    }
    if naive {
        ui.colored_label(
            palette::NAIVE,
            text::naive_sentence(report.naive.as_ref(), names),
        );
    }
    if let Some(c) = &report.contact {
        let points: Vec<String> = c.points.iter().map(|p| text::point(p.point)).collect();
        ui.label(format!("Contacts: {}", points.join(", ")));
    } else if let Some(c) = report.proximity.closest {
        ui.label(format!(
            "Distance {}: closest points {} and {}",
            text::number(report.sat.shown(report.proximity.distance)),
            text::point(c.point_a),
            text::point(c.point_b)
        ));
    }
}
