//! The Motion tab of the pair lab: the explained pair's time of impact over [0, T] as the
//! search found it, step by step (for teaching conservative advancement and Newton's method),
//! the span T (one step's dt) to follow it over, and each moving shape's tunnelling bound
//! against it; shown when either shape of the pair moves.

use crate::app::command::{Command, Commands};
use crate::app::document::workspace::Workspace;
use crate::app::words;
use crate::picture::palette;
use crate::query::safe_step;
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};

/// The tab's contents.
pub fn ui(ui: &mut egui::Ui, ws: &Workspace, names: &PairNames, out: &mut Commands) {
    let Some((velocities, toi)) = ws.pair_motion() else {
        ui.label("Neither shape of the pair moves: give one a velocity in the numbers panel.");
        return;
    };
    let horizon = ws.horizon();
    ui.horizontal(|ui| {
        let label = ui.label("Span T (one step's dt)");
        let mut t = horizon;
        let field = egui::DragValue::new(&mut t)
            .speed(0.005 * horizon.max(1e-3))
            .range(1e-6..=1e6)
            .suffix(" s");
        if ui
            .add(field)
            .labelled_by(label.id)
            .on_hover_text("the shapes are followed from t = 0 to T, as one step of a simulation with dt = T would move them")
            .changed()
        {
            out.push(Command::Horizon(t));
        }
    });
    let (a, b) = ws.pair_indices().expect("a moving pair is explained");
    let shapes = &ws.scene().shapes;
    for (name, shape, velocity) in [
        (&names.a, &shapes[a], velocities.0),
        (&names.b, &shapes[b], velocities.1),
    ] {
        let Some(step) = safe_step(&shape.placed.shape, velocity.linear.length()) else {
            continue;
        };
        let (sentence, colour) = if horizon > step {
            (
                format!(
                    "{name}: T = {} is {}x its largest safe step {}: a fixed step this long can carry {name} through a wall as thin as itself.",
                    text::number(horizon),
                    text::short_number(horizon / step),
                    text::number(step)
                ),
                palette::MTV,
            )
        } else {
            (
                format!(
                    "{name}: T = {} is within its largest safe step {}: it cannot pass through anything as thick as itself in one step.",
                    text::number(horizon),
                    text::number(step)
                ),
                palette::SEPARATING,
            )
        };
        ui.colored_label(colour, sentence).on_hover_text(
            "the tunnelling bound max dt = (r - e) / |v|, r the shape's inner radius, e = 1e-3 r",
        );
    }
    let headline = words::toi_headline(toi, names, horizon);
    ui.colored_label(palette::CLOSEST, RichText::new(headline).strong());
    ui.label(words::toi_method(toi.method));
    egui::ScrollArea::both()
        .id_salt("toi steps")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("toi steps grid")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for head in ["step", "t", "distance", "advance"] {
                        ui.label(RichText::new(head).strong());
                    }
                    ui.end_row();
                    // Short numbers, the exact ones on hover.
                    let cell = |ui: &mut egui::Ui, x: f64| {
                        ui.label(text::short_number(x))
                            .on_hover_text(text::exact_number(x));
                    };
                    for (k, step) in toi.steps.iter().enumerate() {
                        ui.label(format!("{}", k + 1));
                        cell(ui, step.t);
                        cell(ui, step.distance);
                        cell(ui, step.advance);
                        ui.end_row();
                    }
                });
        });
}
