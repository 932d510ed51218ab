//! The view's gestures: what a press grabs (a handle, a ray end, a shape, the background),
//! what a drag does to it, and the commands it pushes.

use super::*;

/// What a drag in the view is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Gesture {
    Pan,
    /// A shape, whole or by one of its handles (what the drag makes of it is the core's
    /// [`dragged`]).
    Shape(ShapeId, Grip),
    /// One end of the casts lab's ray (0 its start, 1 its end), the other staying at `fixed`.
    RayEnd {
        end: usize,
        fixed: DVec2,
    },
}

/// How close (screen points) the pointer must be to grab a handle or a shape.
pub(super) const GRAB: f32 = 9.0;
/// How far beyond a shape the rotation handle stands (screen points).
pub(super) const ROTATE_REACH: f64 = 30.0;

impl SceneView {
    /// The handles of the selected shape (world).
    pub(super) fn handles(&self, ws: &Workspace) -> Vec<Handle> {
        let reach = ROTATE_REACH / self.camera.scale;
        ws.selected()
            .and_then(|id| ws.scene().get(id))
            .map(|s| {
                let mut handles = handles_of(&s.placed, reach);
                handles.extend(velocity_handle(&s.placed, &s.motion, ws.horizon(), reach));
                handles
            })
            .unwrap_or_default()
    }

    /// The handle under screen point `p`, if any.
    pub(super) fn handle_at(&self, p: Pos2, rect: Rect, handles: &[Handle]) -> Option<HandleKind> {
        handles
            .iter()
            .find(|h| {
                let at = draw::handle_on_screen(self.camera, paint::rect(rect), h);
                paint::pos(at).distance(p) <= GRAB
            })
            .map(|h| h.kind)
    }

    pub(super) fn handle_tooltip(
        &self,
        ui: &egui::Ui,
        response: &egui::Response,
        p: Pos2,
        handles: &[Handle],
    ) {
        if self.gesture.is_some() {
            return;
        }
        if let Some(kind) = self.handle_at(p, self.rect, handles) {
            ui.ctx().set_cursor_icon(match kind {
                HandleKind::Rotate => egui::CursorIcon::Alias,
                HandleKind::Corner(_) => egui::CursorIcon::Crosshair,
                HandleKind::Radius => egui::CursorIcon::ResizeHorizontal,
                HandleKind::Velocity => egui::CursorIcon::Move,
            });
            response.clone().on_hover_text_at_pointer(kind.tooltip());
        }
    }

    pub(super) fn pointer(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: Rect,
        (ws, view): (&Workspace, &LabView),
        handles: &[Handle],
        out: &mut Commands,
    ) {
        let camera = self.camera;
        let to_world = |p: Pos2| camera.to_world(paint::rect(rect), paint::point(p));
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            let w = to_world(p);
            match &mut self.new_polygon {
                Some(points) => points.push(w),
                None => out.push(Command::Select(self.shape_at(view.scene_of(ws), w))),
            }
        }
        if response.drag_started() {
            let origin = ui
                .input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos());
            let gesture = match origin {
                Some(_)
                    if response.dragged_by(PointerButton::Middle)
                        || response.dragged_by(PointerButton::Secondary) =>
                {
                    Some(Gesture::Pan)
                }
                Some(_) if !view.editable => Some(Gesture::Pan),
                Some(p) => Some(self.grab(p, rect, (ws, view), handles, out)),
                None => None,
            };
            self.gestures += 1;
            self.gesture = gesture.map(|g| (g, self.gestures));
            self.ray_before = view.ray.map(|r| (r.from, r.to));
        }
        // Two fingers pan (their pinch zooms, in `zoom`), whatever the first finger began: a
        // ray it drew goes back to where it was, a shape it moved stays where it got to.
        if response.dragged()
            && let Some(touch) = ui.input(|i| i.multi_touch())
        {
            if let Some((Gesture::RayEnd { .. }, _)) = self.gesture
                && let Some((from, to)) = self.ray_before.take()
            {
                out.push(Command::Ray(from, to));
            }
            self.gesture = Some((Gesture::Pan, self.gestures));
            let delta = paint::vector(touch.translation_delta);
            self.camera.centre -= self.camera.delta_to_world(delta);
            self.moved_by_user();
        } else if response.dragged() {
            let delta = response.drag_delta();
            let at = response.interact_pointer_pos().map(to_world);
            match (self.gesture, at) {
                (Some((Gesture::Pan, _)), _) | (None, _) => {
                    self.camera.centre -= self.camera.delta_to_world(paint::vector(delta));
                    self.moved_by_user();
                }
                (Some((Gesture::RayEnd { end, fixed }, _)), Some(at)) => {
                    out.push(if end == 0 {
                        Command::Ray(at, fixed)
                    } else {
                        Command::Ray(fixed, at)
                    });
                }
                (Some((gesture, serial)), Some(at)) => {
                    let delta = self.camera.delta_to_world(paint::vector(delta));
                    if let Some(shape) = self.dragged(ws, gesture, at, delta) {
                        out.edit(Edit::Replace {
                            shape,
                            gesture: Some(serial),
                        });
                    }
                }
                _ => {}
            }
        }
        if response.drag_stopped() {
            if let Some(r) = self.rejected.take() {
                out.say(format!("kept the last valid shape: {}", r.reason), true);
            }
            self.gesture = None;
        }
    }

    /// What a press at `p` grabs: a handle of the selected shape, else (in the casts lab) an
    /// end of the ray, else the topmost shape under it (which becomes selected), else the
    /// background: a new ray from there in the casts lab, a pan elsewhere.
    pub(super) fn grab(
        &self,
        p: Pos2,
        rect: Rect,
        (ws, view): (&Workspace, &LabView),
        handles: &[Handle],
        out: &mut Commands,
    ) -> Gesture {
        let w = self.camera.to_world(paint::rect(rect), paint::point(p));
        let on_screen = |q: DVec2| paint::pos(self.camera.to_screen(paint::rect(rect), q));
        let ray = view.ray.map(|r| (r.from, r.to));
        if let Some(id) = ws.selected()
            && let Some(shape) = ws.scene().get(id)
            && let Some(kind) = self.handle_at(p, rect, handles)
        {
            return Gesture::Shape(id, Grip::of_handle(kind, shape, w));
        }
        if let Some((from, to)) = ray {
            if on_screen(from).distance(p) <= GRAB {
                return Gesture::RayEnd { end: 0, fixed: to };
            }
            if on_screen(to).distance(p) <= GRAB {
                return Gesture::RayEnd {
                    end: 1,
                    fixed: from,
                };
            }
        }
        match self.shape_at(ws.scene(), w) {
            Some(id) => {
                out.push(Command::Select(Some(id)));
                Gesture::Shape(id, Grip::Body)
            }
            None if view.draws_rays => {
                out.push(Command::Ray(w, w));
                Gesture::RayEnd { end: 1, fixed: w }
            }
            None => Gesture::Pan,
        }
    }

    /// The topmost shape at world point `w`, with a few points of slack.
    pub(super) fn shape_at(&self, scene: &Scene, w: DVec2) -> Option<ShapeId> {
        let slack = GRAB as f64 / self.camera.scale;
        scene.topmost_at(w, slack)
    }

    /// The dragged shape after one frame of `gesture` with the pointer at `at` (moved by
    /// `delta` since the last frame). A polygon corner that would make the polygon invalid
    /// is shown in red with the reason, and the last valid polygon stays.
    pub(super) fn dragged(
        &mut self,
        ws: &Workspace,
        gesture: Gesture,
        at: DVec2,
        delta: DVec2,
    ) -> Option<SceneShape> {
        self.rejected = None;
        let Gesture::Shape(id, grip) = gesture else {
            return None;
        };
        let index = ws.scene().index_of(id)?;
        let shape = &ws.scene().shapes[index];
        match dragged(shape, grip, at, delta, ws.horizon()) {
            Ok(changed) => changed,
            Err(refused) => {
                self.rejected = Some(Rejected {
                    index,
                    outline: refused.outline,
                    reason: refused.reason,
                });
                None
            }
        }
    }
}

/// How far screen point `p` is from the screen segment `a`-`b` (for hovering a drawn axis).
pub(super) fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}
