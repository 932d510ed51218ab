//! The casts lab: a segment cast against every shape of the scene, as Box2D's Ray Cast
//! sample shows it. Drag on the background of the scene view to draw the ray, drag its ends
//! to move them, or type them here; the panel lists every hit (shape, fraction, point,
//! normal), the first emphasised, and the view draws them.

use crate::app::command::{Command, Commands};
use crate::app::document::workspace::Workspace;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::app::words;
use crate::broad::{Grid, boxes_of, ray_cast_scene, ray_cast_scene_first};
use crate::geometry::DVec2;
use crate::picture::draw::RayShown;
use crate::picture::palette;
use crate::query::RayHit;
use crate::text;
use eframe::egui::{self, RichText};

/// Scenes of more shapes than this are cast through a grid (fewer are simply all tested).
const GRID_FROM: usize = 64;

/// The ray and its hits.
#[derive(Default)]
pub struct CastsLab {
    /// The segment cast: from, to (world). Placed across the scene on first showing.
    pub ray: Option<(DVec2, DVec2)>,
    /// Only the first hit (the scene cast stops at the first cell past it).
    pub first_only: bool,
    /// The hits of the ray as of the last refresh: (list position, hit), by fraction.
    hits: Vec<(usize, RayHit)>,
    /// What the hits were cast for.
    cast_for: Option<CastFor>,
    /// The grid of the scene's shapes (entries are list positions), for its revision.
    grid: Option<(u64, Grid)>,
}

/// What a cast's hits were found for: the scene's revision, the ray (bit for bit), and
/// whether only the first hit was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct CastFor {
    revision: u64,
    ray_bits: [u64; 4],
    first_only: bool,
}

impl CastsLab {
    /// What the view draws in this lab: the document's shapes, the ray and its hits (and
    /// no pair's test); a drag on the background draws a new ray.
    pub fn view(&self) -> LabView<'_> {
        let mut view = LabView::document(PairShown::None);
        view.claim_and_motion = false;
        view.draws_rays = true;
        view.ray = self.ray.map(|(from, to)| RayShown {
            from,
            to,
            hits: self.hits(),
        });
        // The hits follow from what they were cast for: the ray, the scene, first-only.
        view.frame_key = hash_of(self.cast_for);
        view
    }

    /// Cast the ray again if the scene, the ray or `first_only` changed since the last cast.
    pub fn refresh(&mut self, ws: &Workspace) {
        let scene = ws.scene();
        let (from, to) = *self
            .ray
            .get_or_insert_with(|| crate::broad::ray_across(&boxes_of(scene)));
        let key = CastFor {
            revision: ws.revision(),
            ray_bits: [from.x, from.y, to.x, to.y].map(f64::to_bits),
            first_only: self.first_only,
        };
        if self.cast_for == Some(key) {
            return;
        }
        self.cast_for = Some(key);
        let grid = if scene.shapes.len() > GRID_FROM {
            if self.grid.as_ref().is_none_or(|(r, _)| *r != ws.revision()) {
                self.grid = Some((ws.revision(), Grid::build(&boxes_of(scene), None)));
            }
            self.grid.as_ref().map(|(_, g)| g)
        } else {
            None
        };
        self.hits = if self.first_only {
            ray_cast_scene_first(scene, grid, from, to)
                .into_iter()
                .collect()
        } else {
            ray_cast_scene(scene, grid, from, to)
        };
    }

    /// The hits of the last refresh, by fraction.
    pub fn hits(&self) -> &[(usize, RayHit)] {
        &self.hits
    }

    /// The panel on the right.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        device: words::Device,
        out: &mut Commands,
    ) {
        let panel = (crate::app::command::PanelSide::Right, "casts");
        crate::app::side_panel(ui, panel, (360.0, 240.0, 0.42), |ui| {
            ui.heading("Ray cast");
            ui.label(
                "The segment from its start (round end) to its end (arrow) against every shape, shapes solid: where it first reaches each, as a fraction of the way, the point and the outward normal there. A segment that starts inside a shape hits it at 0 with no normal.",
            );
            ui.label(RichText::new(words::CASTS_GESTURES.on(device)).weak());
            ui.separator();
            // The typed ends go through the same command as a drag.
            if let Some((from, to)) = self.ray {
                let (mut typed_from, mut typed_to) = (from, to);
                egui::Grid::new("ray ends").num_columns(3).show(ui, |ui| {
                    for (name, p) in [("from", &mut typed_from), ("to", &mut typed_to)] {
                        ui.label(name);
                        for (axis, v) in [("x", &mut p.x), ("y", &mut p.y)] {
                            ui.add(
                                egui::DragValue::new(v)
                                    .speed(0.02)
                                    .prefix(format!("{axis} ")),
                            )
                            .on_hover_text(format!("the segment's {name} {axis}"));
                        }
                        ui.end_row();
                    }
                });
                if (typed_from, typed_to) != (from, to) {
                    out.push(Command::Ray(typed_from, typed_to));
                }
            }
            ui.checkbox(&mut self.first_only, "First hit only")
                .on_hover_text("the closest hit alone, as a game's line-of-sight or bullet query asks: the scene is searched along the segment (through the broad phase's grid cells) and stops past the first hit");
            ui.separator();
            let no_length = self.ray.is_some_and(|(from, to)| from == to);
            let headline = match self.hits.len() {
                0 if no_length => {
                    "The segment has no length (its ends coincide) and starts inside no shape."
                        .to_string()
                }
                0 => "The segment reaches no shape.".to_string(),
                1 => "One hit.".to_string(),
                n => format!("{n} hits, the first emphasised."),
            };
            ui.label(RichText::new(headline).strong());
            hits_table(ui, ws, &self.hits, out);
        });
    }
}

/// Every hit as a row: shape, fraction, point, normal; the first in the hit colour. Clicking
/// a shape's name selects it.
fn hits_table(ui: &mut egui::Ui, ws: &Workspace, hits: &[(usize, RayHit)], out: &mut Commands) {
    egui::ScrollArea::both()
        .id_salt("ray hits")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("ray hits grid")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for head in ["shape", "fraction", "point", "normal"] {
                        ui.label(RichText::new(head).strong());
                    }
                    ui.end_row();
                    let scene = ws.scene();
                    for (k, (index, hit)) in hits.iter().enumerate() {
                        let shape = &scene.shapes[*index];
                        let strong = |t: String| {
                            let t = RichText::new(t);
                            if k == 0 {
                                t.strong().color(palette::CLOSEST)
                            } else {
                                t
                            }
                        };
                        if ui
                            .link(strong(shape.display_name(*index)))
                            .on_hover_text("select this shape")
                            .clicked()
                        {
                            out.push(Command::Select(Some(shape.id)));
                        }
                        ui.label(strong(text::number(hit.fraction)))
                            .on_hover_text(text::exact_number(hit.fraction));
                        ui.label(strong(text::short_point(hit.point)))
                            .on_hover_text(text::point(hit.point));
                        match hit.normal {
                            Some(n) => ui
                                .label(strong(text::short_point(n)))
                                .on_hover_text(text::point(n)),
                            None => ui.label(strong("none: starts inside".into())),
                        };
                        ui.end_row();
                    }
                });
        });
}
