//! The projection plot: the shadows of A and B on each axis as bars on a number line, the
//! overlap or gap shaded and the ends labelled, the deciding axis marked. One axis, or every
//! axis seen so far stacked (each row centred on its own overlap or gap, since every axis has
//! its own origin).

use crate::app::words;
use crate::geometry::Interval;
use crate::picture::palette;
use crate::query::{AxisRole, PairReport};
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};
use egui_plot::{Line, Plot, PlotPoint, Polygon, Text};

/// Height of one row (points), enough for its labels above and below.
const ROW: f32 = 34.0;
/// Plot units between rows.
const PITCH: f64 = 3.0;

/// Plot `rows` (axis indices) of `report`; the deciding axis is marked only when `verdict`
/// may be shown. Returns the axis whose row is under the pointer.
pub fn ui(
    ui: &mut egui::Ui,
    report: &PairReport,
    names: &PairNames,
    rows: &[usize],
    verdict: bool,
) -> Option<usize> {
    if rows.is_empty() {
        ui.label("Step to an axis, or hover one, to see its projections.");
        return None;
    }
    let stacked = rows.len() > 1;
    let height = (60.0 + ROW * rows.len() as f32)
        .max(ui.available_height() - 8.0)
        .max(160.0);
    let label = |text: String, colour: egui::Color32| RichText::new(text).size(13.0).color(colour);
    let text_colour = ui.visuals().text_color();
    let plot_height = height.min(ui.available_height().max(160.0));
    let response = Plot::new("projection plot")
        .height(plot_height)
        .show_y(false)
        .show_axes([true, false])
        .show_grid([true, false])
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_boxed_zoom(false)
        .x_axis_label(if stacked {
            "offset from the middle of each row's overlap or gap"
        } else {
            "position along the axis"
        })
        .include_y(if stacked { 1.3 } else { 2.4 })
        .include_y(if stacked {
            -(rows.len() as f64 - 0.5) * PITCH
        } else {
            -1.4
        })
        .show(ui, |plot| {
            for (row, &k) in rows.iter().enumerate() {
                let t = &report.sat.axes[k];
                let y = -(row as f64) * PITCH;
                let between = t.a.between(&t.b);
                // Stacked rows share the x axis only as offsets from their own middle.
                let shift = if stacked { between.middle() } else { 0.0 };
                let deciding = verdict && report.sat.role(k) == AxisRole::Deciding;
                let bar = |name: &str, i: Interval, y: f64, colour| {
                    Polygon::new(
                        name.to_string(),
                        rect(i.min - shift, i.max - shift, y - 0.2, y + 0.2),
                    )
                    .fill_color(palette::faded(colour, 150))
                    .stroke(egui::Stroke::new(1.0, colour))
                };
                let (shade, colour) = if t.overlap > 0.0 {
                    ("overlap", palette::MTV)
                } else {
                    ("gap", palette::SEPARATING)
                };
                plot.polygon(
                    Polygon::new(
                        shade,
                        rect(between.min - shift, between.max - shift, y - 0.6, y + 0.6),
                    )
                    .fill_color(palette::faded(colour, 60))
                    .stroke(egui::Stroke::new(if deciding { 2.5 } else { 1.0 }, colour)),
                );
                plot.polygon(bar(&names.a, t.a, y + 0.25, palette::A));
                plot.polygon(bar(&names.b, t.b, y - 0.25, palette::B));
                let left = t.a.min.min(t.b.min) - shift;
                let mark = if deciding {
                    if report.sat.intersecting() {
                        "  (MTV)"
                    } else {
                        "  (first gap)"
                    }
                } else {
                    ""
                };
                let heading = format!(
                    "#{} {}{mark}",
                    k + 1,
                    text::overlap_or_gap(report.sat.shown(t.overlap))
                );
                let heading_colour = if deciding {
                    palette::DECIDING.into()
                } else {
                    text_colour
                };
                let heading_y = if stacked { y + 0.7 } else { y + 1.6 };
                plot.text(
                    Text::new(
                        "axis",
                        PlotPoint::new(left, heading_y),
                        label(heading, heading_colour),
                    )
                    .anchor(egui::Align2::LEFT_BOTTOM),
                );
                if !stacked {
                    // Ends: A's above its bar, B's below; a bar too short for two labels
                    // gets one.
                    let span = t.a.max.max(t.b.max) - t.a.min.min(t.b.min);
                    for (i, yy, anchor, colour) in [
                        (t.a, y + 0.55, egui::Align2::CENTER_BOTTOM, palette::A),
                        (t.b, y - 0.55, egui::Align2::CENTER_TOP, palette::B),
                    ] {
                        let ends = if i.length() < 0.3 * span {
                            vec![(i.middle(), words::short_interval(i))]
                        } else {
                            vec![
                                (i.min, text::short_number(i.min)),
                                (i.max, text::short_number(i.max)),
                            ]
                        };
                        for (x, words) in ends {
                            plot.text(
                                Text::new(
                                    "value",
                                    PlotPoint::new(x, yy),
                                    label(words, colour.into()),
                                )
                                .anchor(anchor),
                            );
                        }
                    }
                }
                plot.line(
                    Line::new(
                        "axis line",
                        vec![[left, y], [t.a.max.max(t.b.max) - shift, y]],
                    )
                    .color(palette::OVERLAPPING),
                );
            }
            plot.pointer_coordinate()
        });
    let at = response.inner?;
    let row = (-at.y / PITCH).round();
    (row >= 0.0 && (row as usize) < rows.len()).then(|| rows[row as usize])
}

fn rect(x0: f64, x1: f64, y0: f64, y1: f64) -> Vec<[f64; 2]> {
    vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
}
