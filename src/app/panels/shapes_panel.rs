//! The left panel: the shapes (select, make A or B), adding and removing them, and the numbers
//! of the selected one.

use crate::app::command::PanelSide;
use crate::app::command::{Command, Commands};
use crate::app::document::edit::Edit;
use crate::app::document::workspace::Workspace;
use crate::app::panels::numbers_panel::NumbersPanel;
use crate::app::view::scene_view::SceneView;
use crate::geometry::{Capsule, Chain, Circle, ConvexPolygon, DVec2, Placed, Pose, Segment, Shape};
use crate::import::Note;
use crate::picture::palette;
use crate::scene::{Scene, SceneShape, ShapeId};
use eframe::egui::{self, RichText};

/// The shapes panel's own state.
pub struct ShapesPanel {
    regular_sides: usize,
    /// The notes of the level last imported (skipped, approximated, split objects), until
    /// another document replaces it.
    pub import_notes: Vec<Note>,
}

impl Default for ShapesPanel {
    fn default() -> Self {
        Self {
            regular_sides: 6,
            import_notes: Vec::new(),
        }
    }
}

/// The shapes listed instead of the document's: a run opened from a file or a capture's
/// frame.
pub struct ReadOnlyList<'a> {
    /// Whose shapes.
    pub scene: &'a Scene,
    /// The note saying whose they are.
    pub note: &'a str,
    /// The list positions shown picked, when a click on a name picks the shape (the capture
    /// lab's pairs).
    pub picks: Option<Vec<usize>>,
}

impl ShapesPanel {
    /// The panel on the left.
    /// `read_only`: the shapes of a run opened from a file or of a capture's frame, shown
    /// instead of the document's (listed, not edited), with a note saying whose they are.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        numbers: &mut NumbersPanel,
        view: &SceneView,
        read_only: Option<ReadOnlyList>,
        out: &mut Commands,
    ) {
        // A frame's read-only list is narrower than the editable panel: the scene view
        // matters more there (a 1024-point window keeps most of its width for it).
        let (panel, size) = match read_only {
            Some(_) => ((PanelSide::Left, "frame shapes"), (160.0, 110.0, 0.16)),
            None => ((PanelSide::Left, "shapes"), (205.0, 150.0, 0.22)),
        };
        crate::app::side_panel(ui, panel, size, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Shapes");
                if let Some(ReadOnlyList { scene, note, picks }) = read_only {
                    ui.label(RichText::new(note).weak());
                    let mut fitter = crate::app::widgets::NameFitter::new(|| names_of(scene));
                    let room = ui.available_width();
                    for (i, s) in scene.shapes.iter().enumerate() {
                        let name = s.display_name(i);
                        let kind = format!(" ({})", s.placed.shape.kind().name());
                        let shown = fitter.fit(ui, &name, &kind, room);
                        let whole = format!("{name}{kind}");
                        let cut = shown != whole;
                        let label = match &picks {
                            // The capture lab's list: a click picks the shape for a pair.
                            Some(marked) => ui
                                .add(
                                    egui::Button::selectable(marked.contains(&i), shown).truncate(),
                                )
                                .on_hover_text("click two shapes to explain their pair"),
                            None => ui.add(egui::Label::new(shown).truncate()),
                        };
                        if label.clicked() {
                            out.push(Command::Select(Some(s.id)));
                        }
                        label.widget_info(|| {
                            egui::WidgetInfo::labeled(egui::Role::Label, true, &whole)
                        });
                        if cut {
                            label.on_hover_text(whole);
                        }
                    }
                    return;
                }
                self.notes(ui, ws, out);
                shape_list(ui, ws, out);
                ui.separator();
                self.add_buttons(ui, ws, view, out);
                ui.separator();
                numbers.ui(ui, ws, out);
            });
        });
    }

    /// The import's notes, each selecting the shape it names; alike notes (the same words of
    /// more than three objects of one file, as the command line groups them: 42 coins, each
    /// a trigger) stand under one heading, a row each.
    fn notes(&self, ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
        if self.import_notes.is_empty() {
            return;
        }
        let groups = crate::import::alike(&self.import_notes);
        let title = format!("Import notes ({})", self.import_notes.len());
        egui::CollapsingHeader::new(title)
            .default_open(true)
            .show(ui, |ui| {
                for notes in groups {
                    let what = notes[0].what.as_str();
                    if notes.len() > 3 {
                        // The heading short (the word before the colon: "approximated",
                        // "skipped"), the whole note its first line.
                        let word = what.split(':').next().unwrap_or(what);
                        egui::CollapsingHeader::new(
                            RichText::new(format!("{} objects {word}", notes.len())).small(),
                        )
                        .id_salt((&notes[0].file, what))
                        .show(ui, |ui| {
                            ui.label(RichText::new(what).small().weak());
                            for note in notes {
                                note_row(ui, ws, out, note, note.place.clone());
                            }
                        });
                    } else {
                        for note in notes {
                            note_row(ui, ws, out, note, format!("{}: {}", note.place, note.what));
                        }
                    }
                }
            });
        ui.separator();
    }

    fn add_buttons(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        view: &SceneView,
        out: &mut Commands,
    ) {
        // Near the middle of the view, each new shape a step from the last, so two clicks
        // do not stack two shapes into what looks like one.
        let k = ws.scene().shapes.len();
        let step = 40.0 / view.camera().scale;
        let at = view.camera().centre
            + DVec2::new((k % 4) as f64 - 1.5, ((k / 4) % 3) as f64 - 1.0) * step;
        let mut add = |stem: &str, shape: Shape| {
            let placed = Placed::new(shape, Pose::at(at));
            out.edit(Edit::Add(SceneShape::named(&ws.fresh_name(stem), placed)));
        };
        ui.horizontal_wrapped(|ui| {
            if ui.button("+ Circle").clicked() {
                add("circle", Circle::new(1.0).expect("valid").into());
            }
            if ui.button("+ Capsule").clicked() {
                let c =
                    Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).expect("valid");
                add("capsule", c.into());
            }
            if ui.button("+ Box").clicked() {
                let b = ConvexPolygon::rectangle(DVec2::splat(1.0)).expect("valid");
                add("box", b.into());
            }
            if ui
                .button("+ Rounded box")
                .on_hover_text(
                    "a box whose corners are rounded: a square core grown by a radius (Box2D's b2MakeRoundedBox, Rapier's RoundCuboid); set the radius in Numbers",
                )
                .clicked()
            {
                let b = ConvexPolygon::rectangle(DVec2::splat(0.8))
                    .and_then(|core| core.with_radius(0.2))
                    .expect("valid");
                add("rounded box", b.into());
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("+ Segment")
                .on_hover_text("a line with no thickness, solid on both sides (static)")
                .clicked()
            {
                let s = Segment::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)).expect("valid");
                add("segment", s.into());
            }
            if ui
                .button("+ Chain")
                .on_hover_text(
                    "a floor of four one-sided pieces, solid side up, with a ghost point at each end (static)",
                )
                .clicked()
            {
                // Right to left, so the front (the right-hand side of each piece) is up.
                let points = (-3..=3).rev().map(|x| DVec2::new(x as f64, 0.0)).collect();
                add("chain", Chain::new(points, false).expect("valid").into());
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui.button("+ Regular polygon").clicked() {
                let p = ConvexPolygon::regular(self.regular_sides, 1.0)
                    .expect("3 to 64 sides are valid");
                add("polygon", p.into());
            }
            ui.add(
                egui::DragValue::new(&mut self.regular_sides)
                    .range(3..=64)
                    .suffix(" sides"),
            )
            .on_hover_text("sides of the next regular polygon");
        });
        ui.horizontal_wrapped(|ui| {
            if !view.is_adding_polygon() {
                if ui
                    .button("+ Polygon by clicking")
                    .on_hover_text("click its corners in the scene")
                    .clicked()
                {
                    out.push(Command::StartPolygon);
                }
            } else {
                if ui.button("Finish polygon").clicked() {
                    out.push(Command::FinishPolygon);
                }
                if ui.button("Cancel").clicked() {
                    out.push(Command::CancelPolygon);
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            let selected = ws.selected();
            if ui
                .add_enabled(selected.is_some(), egui::Button::new("Duplicate"))
                .clicked()
            {
                duplicate_selected(ws, out);
            }
            if ui
                .add_enabled(selected.is_some(), egui::Button::new("Delete"))
                .clicked()
                && let Some(id) = selected
            {
                out.edit(Edit::Remove(id));
            }
        });
    }
}

/// One row per shape: its colour, name and kind (click selects), and A / B buttons.
fn shape_list(ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
    let scene = ws.scene();
    let pair = ws.pair();
    let mut fitter = crate::app::widgets::NameFitter::new(|| names_of(scene));
    for (i, shape) in scene.shapes.iter().enumerate() {
        let name = shape.display_name(i);
        let kind = format!(" ({})", shape.placed.shape.kind());
        ui.horizontal(|ui| {
            let colour = palette::shape_colour(shape.id, pair);
            let (swatch, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(swatch, 2.0, colour);
            if let Some((a, b)) = pair {
                if ui
                    .small_button("A")
                    .on_hover_text("explain this shape as A")
                    .clicked()
                    && shape.id != b
                {
                    out.push(Command::Explain(shape.id, b));
                }
                if ui
                    .small_button("B")
                    .on_hover_text("explain this shape as B")
                    .clicked()
                    && shape.id != a
                {
                    out.push(Command::Explain(a, shape.id));
                }
            }
            // Cut where the names are the same, the whole name on hover.
            let room = ui.available_width() - 2.0 * ui.spacing().button_padding.x;
            let label = fitter.fit(ui, &name, &kind, room);
            let whole = format!("{name}{kind}");
            let cut = label != whole;
            let selected = ws.selected() == Some(shape.id);
            let row = egui::Button::selectable(selected, label).truncate();
            let response = ui.add(row);
            // Read out (and found) by its whole name.
            response.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::Button, true, selected, &whole)
            });
            let response = if cut {
                response.on_hover_text(&whole)
            } else {
                response
            };
            if response.clicked() {
                out.push(Command::Select(Some(shape.id)));
            }
        });
    }
    if scene.shapes.is_empty() {
        ui.label("No shapes yet: add some below.");
    }
}

/// The names a scene's shapes have (for cutting long ones where they are alike).
pub fn names_of(scene: &Scene) -> impl Iterator<Item = &str> {
    scene.shapes.iter().filter_map(|s| s.name.as_deref())
}

/// Ask for a copy of the selected shape, a little to the side, under a fresh name.
pub fn duplicate_selected(ws: &Workspace, out: &mut Commands) {
    let Some(id) = ws.selected() else { return };
    let Some(shape) = ws.scene().get(id) else {
        return;
    };
    let mut copy = shape.clone();
    copy.name = Some(ws.fresh_name(&ws.name_of(id)));
    copy.placed.pose.position += DVec2::splat(0.5);
    out.edit(Edit::Add(copy));
}

/// One import note, `text`, selecting the shape it names when there is one.
fn note_row(ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands, note: &Note, text: String) {
    // The shape the note is about: the imported set's ids are the shapes' places in it; by
    // name when that shape has gone or been renamed since.
    let scene = ws.scene();
    let shape = note.shape.as_deref().and_then(|name| {
        let named = |s: &&SceneShape| s.name.as_deref() == Some(name);
        note.index
            .and_then(|i| scene.get(ShapeId(i as u32)))
            .filter(named)
            .or_else(|| scene.shapes.iter().find(named))
    });
    match shape {
        Some(s) => {
            let selected = ws.selected() == Some(s.id);
            if ui
                .selectable_label(selected, RichText::new(text).small())
                .on_hover_text("select the shape")
                .clicked()
            {
                out.push(Command::Select(Some(s.id)));
            }
        }
        None => {
            ui.label(RichText::new(text).small().weak());
        }
    }
}
