//! The left panel: the shapes (select, make A or B), adding and removing them, and the numbers
//! of the selected one.

use super::{App, palette};
use crate::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Shape};
use crate::scene::SceneShape;
use eframe::egui;

impl App {
    pub(super) fn shapes_panel(&mut self, ui: &mut egui::Ui) {
        egui::Panel::left("shapes")
            .default_size(240.0)
            .min_size(180.0)
            .max_size(360.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.heading("Shapes");
                    self.shape_list(ui);
                    ui.separator();
                    self.add_buttons(ui);
                    ui.separator();
                    self.numbers(ui);
                });
            });
    }

    fn shape_list(&mut self, ui: &mut egui::Ui) {
        for i in 0..self.scene.shapes.len() {
            let shape = &self.scene.shapes[i];
            let label = format!("{} ({})", shape.display_name(i), shape.placed.shape.kind());
            ui.horizontal(|ui| {
                let colour = palette::shape_colour(i, self.pair);
                let (swatch, _) =
                    ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                ui.painter().rect_filled(swatch, 2.0, colour);
                if ui
                    .selectable_label(self.selected == Some(i), label)
                    .clicked()
                {
                    self.selected = Some(i);
                }
                if ui
                    .small_button("A")
                    .on_hover_text("explain this shape as A")
                    .clicked()
                    && i != self.pair.1
                {
                    self.set_pair(i, self.pair.1);
                }
                if ui
                    .small_button("B")
                    .on_hover_text("explain this shape as B")
                    .clicked()
                    && i != self.pair.0
                {
                    self.set_pair(self.pair.0, i);
                }
            });
        }
        if self.scene.shapes.is_empty() {
            ui.label("No shapes yet: add some below.");
        }
    }

    fn add_buttons(&mut self, ui: &mut egui::Ui) {
        let at = self.camera.centre;
        ui.horizontal_wrapped(|ui| {
            if ui.button("+ Circle").clicked() {
                self.add_shape("circle", Circle::new(1.0).expect("valid").into(), at);
            }
            if ui.button("+ Capsule").clicked() {
                let c =
                    Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).expect("valid");
                self.add_shape("capsule", c.into(), at);
            }
            if ui.button("+ Box").clicked() {
                let b = ConvexPolygon::rectangle(DVec2::splat(1.0)).expect("valid");
                self.add_shape("box", b.into(), at);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("+ Regular polygon").clicked() {
                let p = ConvexPolygon::regular(self.regular_sides, 1.0)
                    .expect("3 to 64 sides are valid");
                self.add_shape("polygon", p.into(), at);
            }
            ui.add(
                egui::DragValue::new(&mut self.regular_sides)
                    .range(3..=64)
                    .suffix(" sides"),
            );
        });
        ui.horizontal(|ui| {
            if self.new_polygon.is_none() {
                if ui.button("+ Polygon by clicking").clicked() {
                    self.new_polygon = Some(Vec::new());
                    self.say(
                        "click the corners in the scene; Enter or Finish to add, Esc to cancel",
                        false,
                    );
                }
            } else {
                if ui.button("Finish polygon").clicked() {
                    self.finish_polygon();
                }
                if ui.button("Cancel").clicked() {
                    self.new_polygon = None;
                }
            }
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.selected.is_some(), egui::Button::new("Duplicate"))
                .clicked()
            {
                self.duplicate_selected();
            }
            if ui
                .add_enabled(self.selected.is_some(), egui::Button::new("Delete"))
                .clicked()
            {
                self.delete_selected();
            }
        });
    }

    /// A name not yet in the scene: `stem-1`, `stem-2`, ...
    fn fresh_name(&self, stem: &str) -> String {
        (1..)
            .map(|k| format!("{stem}-{k}"))
            .find(|n| {
                !self
                    .scene
                    .shapes
                    .iter()
                    .any(|s| s.name.as_deref() == Some(n))
            })
            .expect("some name is free")
    }

    fn add_shape(&mut self, stem: &str, shape: Shape, at: DVec2) {
        let name = self.fresh_name(stem);
        let new = SceneShape::named(&name, Placed::new(shape, Pose::at(at)));
        self.edit(|scene| scene.shapes.push(new));
        self.selected = Some(self.scene.shapes.len() - 1);
    }

    /// Add the polygon clicked so far, if it is a valid convex polygon (else say why).
    pub(super) fn finish_polygon(&mut self) {
        let Some(points) = self.new_polygon.take() else {
            return;
        };
        let centre = points.iter().copied().sum::<DVec2>() / points.len().max(1) as f64;
        let local: Vec<DVec2> = points.iter().map(|p| *p - centre).collect();
        match ConvexPolygon::new(local) {
            Ok(p) => self.add_shape("polygon", p.into(), centre),
            Err(e) => {
                self.say(format!("polygon not added: {e}"), true);
                self.new_polygon = Some(points);
            }
        }
    }

    pub(super) fn duplicate_selected(&mut self) {
        let Some(i) = self.selected else { return };
        let mut copy = self.scene.shapes[i].clone();
        copy.name = Some(self.fresh_name(&self.scene.shapes[i].display_name(i)));
        copy.placed.pose.position += DVec2::splat(0.5);
        self.edit(|scene| scene.shapes.push(copy));
        self.selected = Some(self.scene.shapes.len() - 1);
    }

    pub(super) fn delete_selected(&mut self) {
        let Some(i) = self.selected else { return };
        self.edit(|scene| {
            scene.shapes.remove(i);
        });
        self.selected = None;
        // Keep explaining the same shapes where they survive.
        let shift = |k: usize| if k > i { k - 1 } else { k };
        let (a, b) = self.pair;
        if a != i && b != i {
            self.pair = (shift(a), shift(b));
        }
        self.refresh_report();
    }

    /// The selected shape's numbers, editable. An invalid value is shown with its reason and
    /// not applied.
    fn numbers(&mut self, ui: &mut egui::Ui) {
        let Some(i) = self.selected else {
            ui.label("Select a shape to edit its numbers.");
            return;
        };
        ui.heading("Numbers");
        let mut shape = self.scene.shapes[i].clone();
        let mut name = shape.name.clone().unwrap_or_default();
        let mut interacting = false;
        let mut track = |r: egui::Response| {
            interacting |= r.dragged() || r.has_focus();
            r
        };
        egui::Grid::new("numbers").num_columns(2).show(ui, |ui| {
            let l = ui.label("name");
            track(ui.text_edit_singleline(&mut name).labelled_by(l.id));
            ui.end_row();
            let mut p = shape.placed.pose.position;
            let shown_degrees = shape.placed.pose.angle().to_degrees();
            let mut degrees = shown_degrees;
            ui.label("position");
            ui.horizontal(|ui| {
                track(ui.add(egui::DragValue::new(&mut p.x).speed(0.01).prefix("x ")));
                track(ui.add(egui::DragValue::new(&mut p.y).speed(0.01).prefix("y ")));
            });
            ui.end_row();
            let label = ui.label("angle");
            track(
                ui.add(egui::DragValue::new(&mut degrees).speed(0.5).suffix(" deg"))
                    .labelled_by(label.id)
                    .on_hover_text("angle in degrees, counter-clockwise"),
            );
            ui.end_row();
            // An untouched angle keeps its exact radians (degrees do not round-trip them all).
            let angle = if degrees == shown_degrees {
                shape.placed.pose.angle()
            } else {
                degrees.to_radians()
            };
            shape.placed.pose = Pose::new(p, angle);
            match &mut shape.placed.shape {
                Shape::Circle(c) => {
                    track(radius_row(ui, &mut c.radius));
                }
                Shape::Capsule(c) => {
                    for (label, end) in [("a", &mut c.a), ("b", &mut c.b)] {
                        ui.label(label);
                        ui.horizontal(|ui| {
                            track(
                                ui.add(egui::DragValue::new(&mut end.x).speed(0.01).prefix("x ")),
                            );
                            track(
                                ui.add(egui::DragValue::new(&mut end.y).speed(0.01).prefix("y ")),
                            );
                        });
                        ui.end_row();
                    }
                    track(radius_row(ui, &mut c.radius));
                }
                Shape::Polygon(poly) => {
                    let mut points = poly.points_as_given();
                    for (k, q) in points.iter_mut().enumerate() {
                        ui.label(format!("point {k}"));
                        ui.horizontal(|ui| {
                            track(ui.add(egui::DragValue::new(&mut q.x).speed(0.01).prefix("x ")));
                            track(ui.add(egui::DragValue::new(&mut q.y).speed(0.01).prefix("y ")));
                        });
                        ui.end_row();
                    }
                    if points != poly.points_as_given() {
                        match ConvexPolygon::new(points) {
                            Ok(p) => *poly = p,
                            Err(e) => {
                                self.message = Some(super::Message {
                                    text: format!("not applied: {e}"),
                                    error: true,
                                })
                            }
                        }
                    }
                }
            }
        });
        shape.name = (!name.is_empty()).then_some(name);
        let valid = match &shape.placed.shape {
            Shape::Circle(c) => Circle::new(c.radius).map(|_| ()),
            Shape::Capsule(c) => Capsule::new(c.a, c.b, c.radius).map(|_| ()),
            Shape::Polygon(_) => Ok(()),
        };
        match valid {
            Err(ref e) => ui.colored_label(palette::INVALID, format!("not applied: {e}")),
            Ok(()) => ui.label(""),
        };
        if valid.is_ok() && shape != self.scene.shapes[i] {
            // One undo step per interaction with a field, not one per frame of dragging it.
            if !self.numbers_editing {
                self.history.record(self.scene.clone());
            }
            self.scene.shapes[i] = shape;
            self.document.changed();
            self.refresh_report();
        }
        self.numbers_editing = interacting;
    }
}

/// A labelled radius field, one grid row.
fn radius_row(ui: &mut egui::Ui, radius: &mut f64) -> egui::Response {
    let label = ui.label("radius");
    let response = ui
        .add(egui::DragValue::new(radius).speed(0.01))
        .labelled_by(label.id)
        .on_hover_text("radius");
    ui.end_row();
    response
}
