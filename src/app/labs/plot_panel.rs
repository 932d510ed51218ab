//! The Plot panel under the scene, shared by the capture lab and the motion lab: a
//! [`Plot`] (built by the core, on the capture's reader thread or from the run's recording)
//! drawn with egui_plot, one panel per quantity over one linked time axis. The frame shown is
//! a vertical line; a click or a drag on the plot scrubs the timeline there; the frames of
//! events and disagreeing claims are marked as on the strip (hover one for what happened);
//! scroll pans, Ctrl+scroll zooms, a right-drag zooms to a box, a double-click fits again.
//! Each lab owns what it plots (its choice of quantities, its plot) and turns what the panel
//! says into its commands.

use crate::picture::palette;
use crate::picture::plot::{
    empty_lines, has_values, line_colours, mark_colour, panels, runs, wraps,
};
use crate::series::{self, Plot, Quantity, Side};
use eframe::egui::{self, Color32, RichText};
use egui_plot::{Line, LineStyle, PlotPoints, Points, VLine};

/// Where the first panel of the plot `id` was drawn last (its screen rectangle) and the
/// times at its left and right edges: what a test clicks at to scrub.
pub fn plot_area(ctx: &egui::Context, id: &str) -> Option<(egui::Rect, f64, f64)> {
    ctx.data(|d| d.get_temp(egui::Id::unique(("plot area", id))))
}

/// What the user did in the panel.
#[derive(Clone, Debug, PartialEq)]
pub enum PlotAction {
    /// Show the frame at this time (seconds): a click or a drag on the plot.
    Seek(f64),
    /// Plot these quantities from now on.
    What(Vec<Quantity>),
}

/// What a lab gives the panel to draw.
pub struct PlotInput<'a> {
    /// The egui id the panel's widgets are kept under (one per lab).
    pub id: &'a str,
    /// The plot, when there is one yet.
    pub plot: Option<&'a Plot>,
    /// The time of the frame shown (seconds).
    pub shown: Option<f64>,
    /// The quantities chosen.
    pub what: &'a [Quantity],
    /// What it plots, in words, or what to do to plot something.
    pub status: String,
    /// Whether the plot is still being read.
    pub reading: bool,
}

/// The quantities the panel offers, shapes' then pairs'.
const OFFERED: [Quantity; 12] = Quantity::ALL;

/// Whether the window is a phone's (narrower than [`crate::app::widgets::PHONE`]): there the
/// scene keeps the strip above the lab's panel, and the plot is the panel's first section.
pub fn on_phone(ui: &egui::Ui) -> bool {
    ui.ctx().content_rect().width() < crate::app::widgets::PHONE
}

/// The Plot panel, under the scene: the quantities to choose, then the plot (not on a phone,
/// where [`plot_section`] draws it in the lab's panel).
pub fn plot_panel(ui: &mut egui::Ui, input: &PlotInput) -> Vec<PlotAction> {
    if on_phone(ui) {
        return Vec::new();
    }
    let mut actions = Vec::new();
    let window = ui.ctx().content_rect().height();
    let default = (window * 0.3).clamp(110.0, 260.0);
    egui::Panel::bottom(format!("{} panel", input.id))
        .resizable(true)
        .default_size(default)
        .min_size(110.0)
        // The scene keeps at least half the window.
        .max_size((window * 0.5).max(110.0))
        .show(ui, |ui| {
            // The panel keeps the height it was given (or dragged to), its plots filling it.
            ui.set_min_height(ui.available_height());
            actions = contents(ui, input);
        });
    actions
}

/// The plot where the lab puts it: as the first section of its panel (`section`, on a phone),
/// else under the scene.
pub fn plot_at(ui: &mut egui::Ui, input: &PlotInput, section: bool) -> Vec<PlotAction> {
    if section {
        plot_section(ui, input)
    } else {
        plot_panel(ui, input)
    }
}

/// On a phone, the plot as the first section of the lab's panel (which scrolls), 260 points
/// tall: the strip above the panel stays the scene's.
pub fn plot_section(ui: &mut egui::Ui, input: &PlotInput) -> Vec<PlotAction> {
    let width = ui.available_width();
    let inner = ui.allocate_ui(egui::vec2(width, 260.0), |ui| {
        ui.set_min_size(egui::vec2(width, 260.0));
        contents(ui, input)
    });
    ui.separator();
    inner.inner
}

/// The quantities to choose, what is plotted, then the plot.
fn contents(ui: &mut egui::Ui, input: &PlotInput) -> Vec<PlotAction> {
    let mut actions = Vec::new();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Plot").strong())
            .on_hover_text(series::PANEL_TIP);
        for q in OFFERED {
            let on = input.what.contains(&q);
            let chip = ui.selectable_label(on, q.name()).on_hover_text(q.meaning());
            if chip.clicked() {
                let mut what: Vec<Quantity> = input.what.to_vec();
                if on {
                    what.retain(|w| *w != q);
                } else {
                    what.push(q);
                    what.sort();
                }
                if !what.is_empty() {
                    actions.push(PlotAction::What(what));
                }
            }
        }
        if input.reading {
            ui.spinner();
        }
    });
    ui.label(RichText::new(&input.status).weak());
    if let Some(plot) = input.plot.filter(|p| !p.series.is_empty()) {
        let empty = empty_lines(plot);
        if !empty.is_empty() {
            ui.label(RichText::new(series::no_values_words(&empty)).weak());
        }
        actions.extend(draw(ui, input.id, plot, input.shown));
    }
    actions
}

/// The plot's panels, stacked over one linked time axis; what a click, a drag or a hover did.
fn draw(ui: &mut egui::Ui, id: &str, plot: &Plot, shown: Option<f64>) -> Vec<PlotAction> {
    let mut actions = Vec::new();
    let quantities = panels(plot);
    let colours = line_colours(plot);
    let link = ui.make_persistent_id((id, "time"));
    // Every panel opens on the whole run (a panel added later too: the linked axis follows).
    let (t0, t1) = plot.time_span();
    let n = quantities.len().max(1) as f32;
    // The panels share the height the panel has (never more: the panel does not grow); the
    // last holds the time axis's numbers besides.
    let axis = 30.0;
    let height = ((ui.available_height() - axis - 4.0 * n) / n).max(20.0);
    for (k, &q) in quantities.iter().enumerate() {
        let unit = plot
            .series
            .iter()
            .find(|s| s.quantity == q)
            .map(|s| s.unit.clone())
            .unwrap_or_default();
        let last = k + 1 == quantities.len();
        let response = egui_plot::Plot::new((id, q.name()))
            .height(if last { height + axis } else { height })
            .include_x(t0)
            .include_x(t1)
            .link_axis(link, [true, false])
            .link_cursor(link, [true, false])
            .allow_drag(false)
            .allow_double_click_reset(true)
            .show_axes([last, true])
            .y_axis_min_width(48.0)
            .y_axis_formatter(|mark, _| crate::text::short_number(mark.value))
            .x_axis_label(if last { "time (s)" } else { "" })
            .legend(egui_plot::Legend::default().position(egui_plot::Corner::RightTop))
            .label_formatter(|hover| match hover {
                egui_plot::HoverPosition::NearDataPoint {
                    plot_name,
                    position,
                    ..
                } if !plot_name.is_empty() => Some(format!(
                    "{plot_name}\nt = {:.4} s: {:.6}",
                    position.x, position.y
                )),
                _ => None,
            })
            .show(ui, |p| {
                // The frame shown first: the marks stay visible over it.
                if let Some(t) = shown {
                    p.add(
                        VLine::new("", t)
                            .color(Color32::from(palette::DECIDING))
                            .width(1.5),
                    );
                }
                for (s, colour) in plot.series.iter().zip(&colours) {
                    if s.quantity != q || !has_values(s) {
                        continue;
                    }
                    // egui_plot starts a dash again at every point: an exact line is thin and
                    // light instead, tau thinner and grey.
                    let (colour, width) = match s.side {
                        Side::Exact => (palette::faded(*colour, 150), 1.2),
                        Side::Tolerance => (palette::faded(*colour, 170), 1.0),
                        _ => (*colour, 2.0),
                    };
                    let name = format!("{} ({unit})", s.label);
                    for run in runs(&plot.times, &s.values, wraps(q)) {
                        let points: Vec<[f64; 2]> = run.iter().map(|&(t, v)| [t, v]).collect();
                        if points.len() == 1 {
                            p.add(
                                Points::new(name.clone(), PlotPoints::from(points))
                                    .color(Color32::from(colour))
                                    .radius(2.5),
                            );
                        } else {
                            p.line(
                                Line::new(name.clone(), PlotPoints::from(points))
                                    .color(Color32::from(colour))
                                    .style(LineStyle::Solid)
                                    .width(width),
                            );
                        }
                    }
                }
                for m in &plot.markers {
                    p.add(
                        VLine::new("", m.time)
                            .color(Color32::from(palette::faded(mark_colour(m.kind), 150)))
                            .style(LineStyle::dashed_dense())
                            .width(1.0),
                    );
                }
                let r = p.response();
                let scrub = r.clicked() || r.dragged();
                // Where the pointer is now (a press's own position while it is held).
                let at = r.interact_pointer_pos().or(r.hover_pos());
                (scrub, at.map(|pos| p.plot_from_screen(pos)))
            });
        let (scrub, pointer) = response.inner;
        if k == 0 {
            // Where the time axis is on the screen (what a test clicks at).
            let bounds = response.transform.bounds();
            let area = (response.response.rect, bounds.min()[0], bounds.max()[0]);
            ui.ctx()
                .data_mut(|d| d.insert_temp(egui::Id::unique(("plot area", id)), area));
        }
        if let (true, Some(at)) = (scrub, pointer) {
            actions.push(PlotAction::Seek(at.x));
        }
        // A mark hovered: what happened there.
        if let Some(at) = pointer.filter(|_| response.response.hovered()) {
            let x = response.transform.position_from_point(&at).x;
            let near = plot.markers.iter().find(|m| {
                let mx = response
                    .transform
                    .position_from_point(&egui_plot::PlotPoint::new(m.time, at.y))
                    .x;
                (mx - x).abs() <= 4.0
            });
            if let Some(m) = near {
                response.response.on_hover_text(m.words());
            }
        }
    }
    actions
}
