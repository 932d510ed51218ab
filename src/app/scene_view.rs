//! The scene view: pan and zoom, select and drag shapes and their handles, and paint what
//! `draw` builds from the core's reports.

use super::App;
use super::draw::{self, DrawInput, Rejected};
use crate::geometry::{ConvexPolygon, DVec2, Rounded, Shape, left_perp};
use crate::query::{closest_point_on_segment, distance_to_point};
use eframe::egui::{self, Align2, FontId, PointerButton, Pos2, Rect};

/// A grab handle of the selected shape.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Handle {
    Rotate,
    /// Polygon point or capsule end (given order; capsule: 0 = a, 1 = b).
    Vertex(usize),
    Radius,
}

/// What a drag in the view is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    Pan,
    Move(usize),
    Rotate { index: usize, grab: f64 },
    Vertex(usize, usize),
    Radius(usize),
}

/// How close (screen points) the pointer must be to grab a handle or a shape.
const GRAB: f32 = 9.0;

impl App {
    pub(super) fn scene_view(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            let (response, painter) =
                ui.allocate_painter(ui.available_size(), egui::Sense::click_and_drag());
            let rect = response.rect;
            self.view_rect = rect;
            if self.fit_pending {
                self.fit(rect);
            }
            self.zoom(ui, &response, rect);
            self.pointer(ui, &response, rect);
            let handles: Vec<DVec2> = self.handles().into_iter().map(|(_, p)| p).collect();
            let list = draw::build(&self.draw_input(rect, &handles));
            if let Some(p) = response.hover_pos() {
                let near = list
                    .axis_segments
                    .iter()
                    .map(|(k, [a, b])| (*k, distance_to_segment(p, *a, *b)))
                    .filter(|(_, d)| *d < 6.0)
                    .min_by(|x, y| x.1.total_cmp(&y.1));
                self.hovered_axis = near.map(|(k, _)| k);
            }
            let painter = painter.with_clip_rect(rect);
            painter.extend(list.shapes);
            for label in list.labels {
                painter.text(
                    label.at,
                    Align2::CENTER_CENTER,
                    label.text,
                    FontId::proportional(13.0),
                    label.colour,
                );
            }
        });
    }

    /// What `draw::build` needs of the app for a view of `rect`.
    pub(super) fn draw_input<'a>(&'a self, rect: Rect, handles: &'a [DVec2]) -> DrawInput<'a> {
        DrawInput {
            scene: &self.scene,
            pair: self.report.as_ref().map(|r| (self.pair, r)),
            other_hits: &self.other_hits,
            selected: self.selected,
            focus_axis: self.focus_axis(),
            show_axes: self.show_axes,
            show_naive: self.show_naive,
            rejected: self.rejected.as_ref(),
            new_polygon: self.new_polygon.as_deref().unwrap_or(&[]),
            handles,
            camera: self.camera,
            rect,
        }
    }

    pub(super) fn fit(&mut self, rect: Rect) {
        if rect.width() < 10.0 || rect.height() < 10.0 {
            return;
        }
        self.fit_pending = false;
        let bounds = self
            .scene
            .shapes
            .iter()
            .map(|s| s.placed.aabb())
            .reduce(|(a0, a1), (b0, b1)| (a0.min(b0), a1.max(b1)));
        match bounds {
            Some(b) => self.camera.fit(rect, b),
            None => self.camera = super::Camera::default(),
        }
    }

    fn zoom(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) {
        let Some(at) = response.hover_pos() else {
            return;
        };
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = (scroll as f64 / 300.0).exp() * pinch as f64;
        if factor != 1.0 {
            self.camera.zoom_at(rect, at, factor);
        }
    }

    /// The handles of the selected shape, in world coordinates.
    fn handles(&self) -> Vec<(Handle, DVec2)> {
        let Some(i) = self.selected else {
            return Vec::new();
        };
        let placed = &self.scene.shapes[i].placed;
        let pose = placed.pose;
        let centre = placed.centre();
        let reach = placed.shape.bounding_radius() + 30.0 / self.camera.scale;
        let mut handles = vec![(
            Handle::Rotate,
            centre + DVec2::from_angle(pose.angle()) * reach,
        )];
        match &placed.shape {
            Shape::Circle(c) => {
                handles.push((Handle::Radius, pose.apply(DVec2::new(0.0, c.radius))));
            }
            Shape::Capsule(c) => {
                handles.push((Handle::Vertex(0), pose.apply(c.a)));
                handles.push((Handle::Vertex(1), pose.apply(c.b)));
                let side = left_perp((c.b - c.a).try_normalize().unwrap_or(DVec2::X));
                handles.push((
                    Handle::Radius,
                    pose.apply((c.a + c.b) * 0.5 + side * c.radius),
                ));
            }
            Shape::Polygon(p) => {
                for (k, q) in p.points_as_given().into_iter().enumerate() {
                    handles.push((Handle::Vertex(k), pose.apply(q)));
                }
            }
        }
        handles
    }

    fn pointer(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) {
        let camera = self.camera;
        let to_world = |p: Pos2| camera.to_world(rect, p);
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let w = to_world(p);
            match &mut self.new_polygon {
                Some(points) => points.push(w),
                None => self.selected = self.shape_at(w),
            }
        }
        if response.drag_started() {
            let origin = ui
                .input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos());
            self.gesture = match origin {
                Some(_) if response.dragged_by(PointerButton::Middle) => Some(Gesture::Pan),
                Some(p) => Some(self.grab(p, rect)),
                None => None,
            };
            if !matches!(self.gesture, Some(Gesture::Pan) | None) {
                self.history.record(self.scene.clone());
            }
        }
        if response.dragged() {
            let delta = response.drag_delta();
            let at = response.interact_pointer_pos().map(to_world);
            match (self.gesture, at) {
                (Some(Gesture::Pan), _) | (None, _) => {
                    self.camera.centre -= self.camera.delta_to_world(delta)
                }
                (Some(gesture), Some(at)) => {
                    self.drag_shape(gesture, at, self.camera.delta_to_world(delta))
                }
                _ => {}
            }
        }
        if response.drag_stopped() {
            if let Some(r) = self.rejected.take() {
                self.say(format!("kept the last valid shape: {}", r.reason), true);
            }
            self.gesture = None;
        }
    }

    /// What a press at `p` grabs: a handle of the selected shape, else the topmost shape under
    /// it (which becomes selected), else the background (pan).
    fn grab(&mut self, p: Pos2, rect: Rect) -> Gesture {
        let w = self.camera.to_world(rect, p);
        if let Some(i) = self.selected {
            let hit = self
                .handles()
                .into_iter()
                .find(|(_, h)| self.camera.to_screen(rect, *h).distance(p) <= GRAB);
            if let Some((handle, _)) = hit {
                return match handle {
                    Handle::Rotate => {
                        let placed = &self.scene.shapes[i].placed;
                        let from = (w - placed.centre()).to_angle();
                        Gesture::Rotate {
                            index: i,
                            grab: from - placed.pose.angle(),
                        }
                    }
                    Handle::Vertex(k) => Gesture::Vertex(i, k),
                    Handle::Radius => Gesture::Radius(i),
                };
            }
        }
        match self.shape_at(w) {
            Some(i) => {
                self.selected = Some(i);
                Gesture::Move(i)
            }
            None => Gesture::Pan,
        }
    }

    /// The topmost shape at world point `w`, with a few points of slack.
    fn shape_at(&self, w: DVec2) -> Option<usize> {
        let slack = GRAB as f64 / self.camera.scale;
        (0..self.scene.shapes.len())
            .rev()
            .find(|&i| distance_to_point(&self.scene.shapes[i].placed, w) <= slack)
    }

    /// Apply one frame of a drag. A polygon corner that would make the polygon invalid is
    /// shown in red with the reason, and the last valid polygon stays.
    fn drag_shape(&mut self, gesture: Gesture, at: DVec2, delta: DVec2) {
        self.rejected = None;
        match gesture {
            Gesture::Pan => {}
            Gesture::Move(i) => self.scene.shapes[i].placed.pose.position += delta,
            Gesture::Rotate { index, grab } => {
                let placed = &mut self.scene.shapes[index].placed;
                let angle = (at - placed.centre()).to_angle() - grab;
                // Turn about the centre, not the local origin.
                let centre = placed.centre();
                placed.pose.set_angle(angle);
                let drift = placed.centre() - centre;
                placed.pose.position -= drift;
            }
            Gesture::Vertex(i, k) => {
                let placed = &mut self.scene.shapes[i].placed;
                let local = placed.pose.inverse_apply(at);
                match &mut placed.shape {
                    Shape::Capsule(c) => *(if k == 0 { &mut c.a } else { &mut c.b }) = local,
                    Shape::Polygon(p) => {
                        let mut points = p.points_as_given();
                        points[k] = local;
                        match ConvexPolygon::new(points.clone()) {
                            Ok(valid) => *p = valid,
                            Err(e) => {
                                let pose = placed.pose;
                                self.rejected = Some(Rejected {
                                    index: i,
                                    outline: points.iter().map(|q| pose.apply(*q)).collect(),
                                    reason: e.to_string(),
                                });
                            }
                        }
                    }
                    Shape::Circle(_) => {}
                }
            }
            Gesture::Radius(i) => {
                let placed = &mut self.scene.shapes[i].placed;
                let core = Rounded::new(placed, DVec2::ZERO);
                let (s0, s1) = core.segment(0);
                let r = closest_point_on_segment(at, s0, s1)
                    .0
                    .distance(at)
                    .max(1e-3);
                match &mut placed.shape {
                    Shape::Circle(c) => c.radius = r,
                    Shape::Capsule(c) => c.radius = r,
                    Shape::Polygon(_) => {}
                }
            }
        }
        self.document.changed();
        self.refresh_report();
    }
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}
