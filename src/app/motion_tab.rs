//! The Motion tab of the pair lab: the explained pair's time of impact over [0, 1] as the
//! search found it, step by step (for teaching conservative advancement and Newton's method),
//! shown when either shape of the pair moves.

use super::workspace::{MOTION_HORIZON, Workspace};
use crate::picture::palette;
use crate::query::{ToiMethod, ToiState};
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};

/// The tab's contents.
pub fn ui(ui: &mut egui::Ui, ws: &Workspace, names: &PairNames) {
    let Some((_, toi)) = ws.pair_motion() else {
        ui.label("Neither shape of the pair moves: give one a velocity in the numbers panel.");
        return;
    };
    let headline = match (toi.state, toi.toi) {
        (ToiState::Overlapped, _) => {
            format!("{} and {} already overlap at t = 0.", names.a, names.b)
        }
        (ToiState::Hit, Some(t)) => format!(
            "{} and {} first touch at t = {}{}.",
            names.a,
            names.b,
            text::number(t),
            match (toi.point, toi.normal) {
                (Some(p), Some(n)) => format!(", at {}, normal {}", text::point(p), text::point(n)),
                _ => String::new(),
            }
        ),
        _ => format!(
            "{} and {} do not touch before t = {}.",
            names.a,
            names.b,
            text::number(MOTION_HORIZON)
        ),
    };
    ui.colored_label(palette::CLOSEST, RichText::new(headline).strong());
    ui.label(match toi.method {
        ToiMethod::Newton => "Both only translate: the distance is convex in t, so Newton's method on it (t += d / closing speed) never passes the contact; the last corner-to-corner stretch is solved in closed form.".to_string(),
        ToiMethod::ConservativeAdvancement { bound } => format!(
            "Something turns: conservative advancement. The distance cannot drop faster than {} per second (|vB - vA| + |wA| RA + |wB| RB), so t += d / {} never steps past a contact.",
            text::number(bound),
            text::number(bound)
        ),
    });
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
                    for (k, step) in toi.steps.iter().enumerate() {
                        ui.label(format!("{}", k + 1));
                        ui.label(text::exact_number(step.t));
                        ui.label(format!("{:.3e}", step.distance));
                        ui.label(format!("{:.3e}", step.advance));
                        ui.end_row();
                    }
                });
        });
}
