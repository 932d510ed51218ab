//! The projection plot: the shadows of A and B on one axis as bars on a number line, the
//! overlap shaded and the values labelled; optionally every axis stacked.

use super::{App, palette};
use crate::query::AxisTest;
use crate::text::{self, PairNames};
use eframe::egui;
use egui_plot::{Line, Plot, PlotPoint, Polygon, Text};

impl App {
    pub(super) fn projection_plot(&mut self, ui: &mut egui::Ui, names: &PairNames) {
        let Some(report) = &self.report else { return };
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("Projections").strong());
            ui.checkbox(&mut self.stack_axes, "all axes stacked");
        });
        let rows: Vec<(usize, AxisTest)> = if self.stack_axes {
            report.sat.axes.iter().copied().enumerate().collect()
        } else {
            match self.focus_axis() {
                Some(k) => vec![(k, report.sat.axes[k])],
                None => return,
            }
        };
        let height = (90.0 + 38.0 * rows.len() as f32).min(420.0);
        Plot::new("projection plot")
            .height(height)
            .show_y(false)
            .show_axes([true, false])
            .allow_scroll(false)
            .show(ui, |plot| {
                for (row, (k, t)) in rows.iter().enumerate() {
                    let y = -(row as f64) * 2.0;
                    let bar = |name: &str, lo: f64, hi: f64, y: f64, colour| {
                        Polygon::new(
                            name.to_string(),
                            vec![[lo, y - 0.3], [hi, y - 0.3], [hi, y + 0.3], [lo, y + 0.3]],
                        )
                        .fill_color(palette::faded(colour, 140))
                        .stroke(egui::Stroke::new(1.0, colour))
                    };
                    plot.polygon(bar(&names.a, t.a.min, t.a.max, y + 0.5, palette::A));
                    plot.polygon(bar(&names.b, t.b.min, t.b.max, y - 0.5, palette::B));
                    let (lo, hi) = (t.a.min.max(t.b.min), t.a.max.min(t.b.max));
                    let (from, to, colour, what) = if lo < hi {
                        (
                            lo,
                            hi,
                            palette::MTV,
                            format!("overlap {}", text::number(t.overlap)),
                        )
                    } else {
                        (
                            hi,
                            lo,
                            palette::SEPARATING,
                            format!("gap {}", text::number(-t.overlap)),
                        )
                    };
                    plot.polygon(
                        Polygon::new(
                            what.clone(),
                            vec![
                                [from, y - 0.9],
                                [to, y - 0.9],
                                [to, y + 0.9],
                                [from, y + 0.9],
                            ],
                        )
                        .fill_color(palette::faded(colour, 60))
                        .stroke(egui::Stroke::new(1.0, colour)),
                    );
                    for (value, yy) in [
                        (t.a.min, y + 1.05),
                        (t.a.max, y + 1.05),
                        (t.b.min, y - 1.05),
                        (t.b.max, y - 1.05),
                    ] {
                        plot.text(Text::new(
                            "value",
                            PlotPoint::new(value, yy),
                            text::number(value),
                        ));
                    }
                    plot.text(Text::new(
                        "axis",
                        PlotPoint::new((from + to) * 0.5, y),
                        format!("#{} {what}", k + 1),
                    ));
                    plot.line(
                        Line::new(
                            "axis line",
                            vec![[t.a.min.min(t.b.min), y], [t.a.max.max(t.b.max), y]],
                        )
                        .color(palette::OVERLAPPING),
                    );
                }
            });
    }
}
