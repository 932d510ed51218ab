//! The numbers of the selected shape, edited as text: a value is applied when the field is
//! left (Enter, Tab or a click elsewhere), Esc puts the old value back, and a value the shape
//! refuses stays in the field with the reason beside it. A field that was not changed never
//! changes the scene: what it shows rounded is display only, and editing starts from the
//! exact value. Every applied value is one undo step.

use crate::app::command::Commands;
use crate::app::document::edit::Edit;
use crate::app::document::workspace::Workspace;
use crate::app::words;
use crate::geometry::{Chain, DVec2, Pose, Shape, ShapeError};
use crate::picture::palette;
use crate::query::{inner_radius, safe_step};
use crate::scene::{Body, SceneShape, ShapeId};
use crate::text;
use eframe::egui;

/// Which number of a shape a field edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    PositionX,
    PositionY,
    /// Degrees, counter-clockwise.
    Angle,
    Radius,
    /// Capsule end (0 = a, 1 = b), coordinate (0 = x, 1 = y).
    End(usize, usize),
    /// Polygon point (given order), coordinate (0 = x, 1 = y).
    Point(usize, usize),
    /// Velocity, coordinate (0 = x, 1 = y), units per second.
    Velocity(usize),
    /// Degrees per second, counter-clockwise.
    Spin,
}

/// A field being typed in.
#[derive(Clone, Debug)]
struct Typing {
    shape: ShapeId,
    field: Field,
    text: String,
    /// What the field held when typing began: leaving it unchanged applies nothing.
    original: String,
}

/// A value the shape refused, kept in its field with the reason.
#[derive(Clone, Debug)]
struct Refused {
    shape: ShapeId,
    field: Field,
    text: String,
    reason: String,
}

/// The numbers panel's own state.
#[derive(Default)]
pub struct NumbersPanel {
    typing: Option<Typing>,
    refused: Option<Refused>,
}

impl NumbersPanel {
    /// Whether a field is being typed in.
    pub fn is_editing(&self) -> bool {
        self.typing.is_some()
    }

    /// Drop a refused value (Esc outside the field): the field shows the shape's value again.
    pub fn forget_refused(&mut self) {
        self.refused = None;
    }

    /// Drop what was being typed (another document was opened).
    pub fn forget(&mut self) {
        self.typing = None;
        self.refused = None;
    }

    /// The fields of the selected shape.
    pub fn ui(&mut self, ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
        let Some(shape) = ws.selected().and_then(|id| ws.scene().get(id)).cloned() else {
            ui.label("Select a shape to edit its numbers.");
            return;
        };
        if self.refused.as_ref().is_some_and(|r| r.shape != shape.id) {
            self.refused = None;
        }
        ui.heading("Numbers");
        let mut rows: Vec<(String, Field, String, String)> = Vec::new();
        let name = shape.name.clone().unwrap_or_default();
        rows.push(("name".into(), Field::Name, name.clone(), name));
        let pose = shape.placed.pose;
        let mut number = |label: String, field: Field, x: f64| {
            rows.push((label, field, text::number(x), text::exact_number(x)));
        };
        number("position x".into(), Field::PositionX, pose.position.x);
        number("position y".into(), Field::PositionY, pose.position.y);
        number(
            "angle (deg)".into(),
            Field::Angle,
            pose.angle().to_degrees(),
        );
        match &shape.placed.shape {
            Shape::Circle(c) => number("radius".into(), Field::Radius, c.radius()),
            Shape::Capsule(c) => {
                for (end, which) in [("a", 0), ("b", 1)] {
                    let p = c.end(which);
                    number(format!("{end} x"), Field::End(which, 0), p.x);
                    number(format!("{end} y"), Field::End(which, 1), p.y);
                }
                number("radius".into(), Field::Radius, c.radius());
            }
            Shape::Segment(s) => {
                for (end, which) in [("a", 0), ("b", 1)] {
                    let p = s.end(which);
                    number(format!("{end} x"), Field::End(which, 0), p.x);
                    number(format!("{end} y"), Field::End(which, 1), p.y);
                }
            }
            Shape::Polygon(p) => {
                for (k, q) in p.points_as_given().into_iter().enumerate() {
                    number(format!("point {k} x"), Field::Point(k, 0), q.x);
                    number(format!("point {k} y"), Field::Point(k, 1), q.y);
                }
                // 0 is a plain polygon; more rounds it (a core grown by the radius).
                number("radius".into(), Field::Radius, p.radius());
            }
            Shape::Chain(c) => {
                for (k, q) in c.points().iter().enumerate() {
                    number(format!("point {k} x"), Field::Point(k, 0), q.x);
                    number(format!("point {k} y"), Field::Point(k, 1), q.y);
                }
            }
        }
        let still = shape.placed.shape.kind().is_static_only();
        let motion = shape.motion;
        if !still {
            number("velocity x".into(), Field::Velocity(0), motion.velocity.x);
            number("velocity y".into(), Field::Velocity(1), motion.velocity.y);
            number(
                "spin (deg/s)".into(),
                Field::Spin,
                motion.angular_velocity.to_degrees(),
            );
        }
        egui::Grid::new("numbers").num_columns(2).show(ui, |ui| {
            for (label, field, shown, exact) in rows {
                if let Some(text) = self.field(ui, shape.id, &label, field, shown, exact) {
                    match changed(&shape, field, &text) {
                        Ok(new) => {
                            self.refused = None;
                            out.edit(Edit::Replace {
                                shape: new,
                                gesture: None,
                            });
                        }
                        Err(reason) => {
                            self.refused = Some(Refused {
                                shape: shape.id,
                                field,
                                text,
                                reason,
                            })
                        }
                    }
                }
                ui.end_row();
                if let Some(r) = self
                    .refused
                    .as_ref()
                    .filter(|r| r.shape == shape.id && r.field == field)
                {
                    ui.label("");
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(format!("not applied: {}", r.reason))
                                .color(palette::INVALID),
                        )
                        .wrap(),
                    );
                    ui.end_row();
                }
            }
        });
        if let Shape::Chain(chain) = &shape.placed.shape {
            chain_editor(ui, &shape, chain, out);
        }
        if still {
            return;
        }
        body_chooser(ui, &shape, out);
        tunnelling_bound(ui, &shape);
    }

    /// One labelled field. Returns the text to apply when the user leaves a field they
    /// changed (not on Esc).
    fn field(
        &mut self,
        ui: &mut egui::Ui,
        shape: ShapeId,
        label: &str,
        field: Field,
        shown: String,
        exact: String,
    ) -> Option<String> {
        let this = |s: ShapeId, f: Field| s == shape && f == field;
        let typing = self.typing.as_ref().filter(|t| this(t.shape, t.field));
        let refused = self.refused.as_ref().filter(|r| this(r.shape, r.field));
        let mut text = match (typing, refused) {
            (Some(t), _) => t.text.clone(),
            (None, Some(r)) => r.text.clone(),
            (None, None) => shown,
        };
        let l = ui.label(label);
        let id = ui.make_persistent_id(("number field", shape, format!("{field:?}")));
        let mut edit = egui::TextEdit::singleline(&mut text)
            .id(id)
            .desired_width(110.0);
        if refused.is_some() && typing.is_none() {
            edit = edit.text_color(palette::INVALID.into());
        }
        let response = ui.add(edit).labelled_by(l.id);
        if response.has_focus() && typing.is_none() {
            // Typing starts from the exact value (or the refused text), never the rounded one.
            let start = refused.map_or(exact, |r| r.text.clone());
            let length = start.chars().count();
            self.typing = Some(Typing {
                shape,
                field,
                text: start.clone(),
                original: start,
            });
            if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), id) {
                let all = egui::text::CCursorRange::two(
                    egui::text::CCursor::new(0),
                    egui::text::CCursor::new(length),
                );
                state.cursor.set_char_range(Some(all));
                state.store(ui.ctx(), id);
            }
            ui.ctx().request_repaint();
            return None;
        }
        if let Some(t) = self.typing.as_mut().filter(|t| this(t.shape, t.field)) {
            t.text = text;
        }
        if response.lost_focus() {
            let typed = self.typing.take()?;
            if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                // Esc: the old value stays, and so does nothing refused.
                if self
                    .refused
                    .as_ref()
                    .is_some_and(|r| this(r.shape, r.field))
                {
                    self.refused = None;
                }
                return None;
            }
            if typed.text != typed.original {
                return Some(typed.text);
            }
        }
        None
    }
}

/// `shape` with `field` set from `typed`, or why not.
fn changed(shape: &SceneShape, field: Field, typed: &str) -> Result<SceneShape, String> {
    let mut new = shape.clone();
    if field == Field::Name {
        let name = typed.trim();
        new.name = (!name.is_empty()).then(|| name.to_string());
        return Ok(new);
    }
    let x = words::parse_number(typed)?;
    let reason = |e: ShapeError| e.to_string();
    let placed = &mut new.placed;
    let pose = placed.pose;
    match (field, &mut placed.shape) {
        (Field::PositionX, _) => placed.pose.position.x = x,
        (Field::PositionY, _) => placed.pose.position.y = x,
        (Field::Angle, _) => placed.pose = Pose::new(pose.position, x.to_radians()),
        (Field::Radius, Shape::Circle(c)) => c.set_radius(x).map_err(reason)?,
        (Field::Radius, Shape::Capsule(c)) => c.set_radius(x).map_err(reason)?,
        (Field::Radius, Shape::Polygon(p)) => *p = p.clone().with_radius(x).map_err(reason)?,
        (Field::End(which, axis), Shape::Capsule(c)) => {
            let p = with_coordinate(c.end(which), axis, x);
            c.set_end(which, p).map_err(reason)?
        }
        (Field::End(which, axis), Shape::Segment(s)) => {
            let p = with_coordinate(s.end(which), axis, x);
            s.set_end(which, p).map_err(reason)?
        }
        (Field::Point(k, axis), Shape::Chain(c)) if k < c.points().len() => {
            let p = with_coordinate(c.points()[k], axis, x);
            c.set_point(k, p).map_err(reason)?
        }
        (Field::Velocity(axis), _) => {
            new.motion.velocity = with_coordinate(new.motion.velocity, axis, x);
            return still_if_static(new);
        }
        (Field::Spin, _) => {
            new.motion.angular_velocity = x.to_radians();
            return still_if_static(new);
        }
        (Field::Point(k, axis), Shape::Polygon(p)) => {
            let mut points = p.points_as_given();
            points[k] = with_coordinate(points[k], axis, x);
            *p = p.reshaped(points).map_err(reason)?;
        }
        _ => return Err("this shape has no such number".into()),
    }
    Ok(new)
}

/// A static body does not move (the file format's rule): a velocity needs another body type.
fn still_if_static(shape: SceneShape) -> Result<SceneShape, String> {
    if shape.motion.body == Body::Static && shape.motion.moves() {
        return Err("a static body cannot move: choose kinematic or dynamic first".into());
    }
    Ok(shape)
}

/// Static, kinematic or dynamic (as in Box2D); making a body static stops it.
fn body_chooser(ui: &mut egui::Ui, shape: &SceneShape, out: &mut Commands) {
    let mut body = shape.motion.body;
    ui.horizontal(|ui| {
        let l = ui.label("body");
        egui::ComboBox::from_id_salt(("body", shape.id))
            .selected_text(body.name())
            .show_ui(ui, |ui| {
                for b in Body::ALL {
                    ui.selectable_value(&mut body, b, b.name());
                }
            })
            .response
            .labelled_by(l.id)
            .on_hover_text("static: never moves; kinematic: moves by its velocity, never pushed; dynamic: moves and is pushed out of contacts");
    });
    if body != shape.motion.body {
        let mut new = shape.clone();
        new.motion.body = body;
        if body == Body::Static {
            new.motion.velocity = DVec2::ZERO;
            new.motion.angular_velocity = 0.0;
        }
        out.edit(Edit::Replace {
            shape: new,
            gesture: None,
        });
    }
}

/// The largest step that cannot carry the shape through anything as thick as itself.
fn tunnelling_bound(ui: &mut egui::Ui, shape: &SceneShape) {
    let speed = shape.motion.velocity.length();
    let Some(step) = safe_step(&shape.placed.shape, speed) else {
        return;
    };
    let r = inner_radius(&shape.placed.shape);
    ui.label(format!(
        "Tunnelling bound: steps of at most {} s (inner radius {} less 1e-3 of it, over speed {}); a 1/60 s step moves {}.",
        text::number(step),
        text::number(r),
        text::number(speed),
        text::number(speed / 60.0)
    ))
    .on_hover_text("max dt = (r - e) / |v|, e = 1e-3 r: no step moves the shape further than its own inner radius");
}

fn with_coordinate(p: DVec2, axis: usize, x: f64) -> DVec2 {
    if axis == 0 {
        DVec2::new(x, p.y)
    } else {
        DVec2::new(p.x, x)
    }
}

/// A chain's points as a polygon's are edited: insert a point after any point (halfway to the
/// next; past the last, as far again as the last link is long), delete one, turn which side
/// is solid, close or open the loop. An edit the chain would refuse (too few points, two
/// points meeting) is offered disabled, with the reason on hover.
fn chain_editor(ui: &mut egui::Ui, shape: &SceneShape, chain: &Chain, out: &mut Commands) {
    let replace = |chain: Chain, out: &mut Commands| {
        let mut new = shape.clone();
        new.placed.shape = Shape::Chain(chain);
        out.edit(Edit::Replace {
            shape: new,
            gesture: None,
        });
    };
    let offer = |ui: &mut egui::Ui, label: &str, hover: &str, tried: Result<Chain, ShapeError>| {
        let enabled = tried.is_ok();
        let button = ui.add_enabled(enabled, egui::Button::new(label).small());
        let button = match &tried {
            Ok(_) => button.on_hover_text(hover),
            // What the chain would be refused for, said as what the edit would make.
            Err(e) => button
                .on_disabled_hover_text(format!("not possible: the chain would be refused: {e}")),
        };
        button.clicked().then(|| tried.ok()).flatten()
    };
    let points = chain.points();
    let n = points.len();
    let mut chosen = None;
    ui.label(egui::RichText::new("Chain points").strong());
    egui::Grid::new(("chain points", shape.id))
        .num_columns(3)
        .show(ui, |ui| {
            for k in 0..n {
                ui.label(format!("point {k}"));
                let next = if k + 1 < n {
                    (points[k] + points[k + 1]) * 0.5
                } else if chain.is_loop() {
                    (points[k] + points[0]) * 0.5
                } else {
                    points[k] * 2.0 - points[k - 1]
                };
                let mut inserted = chain.clone();
                let tried = inserted.insert_point(k + 1, next).map(|_| inserted);
                if let Some(c) = offer(ui, "+", "insert a point after this one", tried) {
                    chosen = Some(c);
                }
                let mut removed = chain.clone();
                let tried = removed.remove_point(k).map(|_| removed);
                if let Some(c) = offer(ui, "−", "delete this point", tried) {
                    chosen = Some(c);
                }
                ui.end_row();
            }
        });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Flip side")
            .on_hover_text("reverse the points: every piece's solid side turns to the other side")
            .clicked()
        {
            chosen = Some(chain.reversed());
        }
        let closed = Chain::new(points.to_vec(), !chain.is_loop());
        let label = if chain.is_loop() { "Open the loop" } else { "Close the loop" };
        if let Some(c) = offer(
            ui,
            label,
            "a loop joins the last point to the first; an open chain's first and last points are ghost points",
            closed,
        ) {
            chosen = Some(c);
        }
    });
    if let Some(c) = chosen {
        replace(c, out);
    }
}
