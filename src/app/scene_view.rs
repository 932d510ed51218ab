//! The scene view: pan and zoom, select and drag shapes and their handles, click a new
//! polygon's corners, and paint what `picture::draw` builds from the core's reports.

use super::ViewOptions;
use super::command::{Command, Commands, Fit};
use super::edit::Edit;
use super::lab_view::{LabView, PairShown};
use super::paint;
use super::workspace::Workspace;
use crate::geometry::{ConvexPolygon, DVec2, Placed, Pose, Shape};
use crate::picture::draw::{self, BroadOverlay, DrawInput, DrawList, LayerHits, Rejected};
use crate::picture::handles::{Handle, HandleKind, handles_of, velocity_handle};
use crate::picture::{self, Camera, Label, fit, labels};
use crate::query::{distance_to_core, distance_to_point};
use crate::scene::{Scene, SceneShape, ShapeId};
use eframe::egui::{self, Align2, FontId, PointerButton, Pos2, Rect};

/// What a drag in the view is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gesture {
    Pan,
    Move(ShapeId),
    Rotate {
        id: ShapeId,
        grab: f64,
    },
    Corner(ShapeId, usize),
    Radius(ShapeId),
    /// The tip of a moving body's velocity arrow, grabbed at `press` (world) when the body
    /// moved at `start`.
    Velocity {
        id: ShapeId,
        start: DVec2,
        press: DVec2,
    },
    /// One end of the casts lab's ray (0 its start, 1 its end), the other staying at `fixed`.
    RayEnd {
        end: usize,
        fixed: DVec2,
    },
}

impl LabView<'_> {
    /// The scene drawn: the lab's, else the workspace's.
    fn scene_of<'s>(&'s self, ws: &'s Workspace) -> &'s Scene {
        self.scene.unwrap_or(ws.scene())
    }
}

/// How close (screen points) the pointer must be to grab a handle or a shape.
const GRAB: f32 = 9.0;
/// How far beyond a shape the rotation handle stands (screen points).
const ROTATE_REACH: f64 = 30.0;

/// How the view's shapes become triangles (what egui would use).
#[derive(Clone, Copy)]
struct Look {
    pixels_per_point: f32,
    tessellation: egui::epaint::TessellationOptions,
    font_texture: [usize; 2],
}

/// What a frame of the view shows, besides where it looks.
#[derive(Clone, Copy)]
struct FrameInputs<'a> {
    ws: &'a Workspace,
    options: &'a ViewOptions,
    view: &'a LabView<'a>,
}

/// One layer of a frame of the view, ready to paint.
struct Frame {
    key: u64,
    /// The scene's revision it was last known good for (the static layer).
    revision: u64,
    mesh: std::sync::Arc<egui::epaint::Mesh>,
    /// The labels kept, each with its box (screen).
    labels: Vec<(Label, picture::Rect)>,
    axis_segments: Vec<(usize, [Pos2; 2])>,
}

/// What one frame of the view paints, without a window (see [`super::App::frame_work`]).
pub struct PaintedFrame {
    /// The static and the dynamic layer, each tessellated into one mesh.
    pub shapes: Vec<egui::Shape>,
    /// The labels kept, static layer first.
    pub labels: Vec<Label>,
}

impl Frame {
    /// `list` with its labels placed (clear of `taken`) and its marks tessellated.
    fn new(
        key: u64,
        list: DrawList,
        rect: Rect,
        measure: &dyn Fn(&str) -> egui::Vec2,
        taken: &[picture::Rect],
        look: Look,
    ) -> Self {
        let measure = |text: &str| paint::vector(measure(text));
        let labels = labels::place_around(list.labels, paint::rect(rect), measure, taken);
        let mut tessellator = egui::epaint::Tessellator::new(
            look.pixels_per_point,
            look.tessellation,
            look.font_texture,
            Vec::new(),
        );
        let mut mesh = egui::epaint::Mesh::default();
        for mark in list.marks {
            tessellator.tessellate_shape(paint::shape(mark), &mut mesh);
        }
        let axis_segments = list
            .axis_segments
            .into_iter()
            .map(|(k, [a, b])| (k, [paint::pos(a), paint::pos(b)]))
            .collect();
        Self {
            key,
            revision: 0,
            mesh: std::sync::Arc::new(mesh),
            labels,
            axis_segments,
        }
    }
}

/// The scene view's own state.
pub struct SceneView {
    camera: Camera,
    /// Where it was drawn last frame.
    rect: Rect,
    /// A fit to do once the view's size is known.
    fit: Option<Fit>,
    /// The fit is the one on opening: the scene, unless that hides the headline.
    fit_on_open: bool,
    gesture: Option<(Gesture, u64)>,
    gestures: u64,
    rejected: Option<Rejected>,
    /// Corners of a polygon being added by clicking (world).
    new_polygon: Option<Vec<DVec2>>,
    /// The last frame's dynamic layer, reused while nothing it shows changes.
    frame: Option<Frame>,
    /// The last frame's static layer, reused while only dynamic shapes change.
    static_frame: Option<Frame>,
}

impl Default for SceneView {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            rect: Rect::NOTHING,
            fit: Some(Fit::Scene),
            fit_on_open: true,
            gesture: None,
            gestures: 0,
            rejected: None,
            new_polygon: None,
            frame: None,
            static_frame: None,
        }
    }
}

impl SceneView {
    /// The camera.
    pub fn camera(&self) -> Camera {
        self.camera
    }

    /// Where the view was drawn last frame.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// A world point on the screen, as of the last frame.
    pub fn world_to_screen(&self, p: DVec2) -> Pos2 {
        paint::pos(self.camera.to_screen(paint::rect(self.rect), p))
    }

    /// The selected shape's handles and where they are drawn on the screen (as of the last
    /// frame): for tests that grab them.
    pub fn handles_on_screen(&self, ws: &Workspace) -> Vec<(HandleKind, Pos2)> {
        self.handles(ws)
            .into_iter()
            .map(|h| {
                let at = draw::handle_on_screen(self.camera, paint::rect(self.rect), &h);
                (h.kind, paint::pos(at))
            })
            .collect()
    }

    /// Show part of the scene (at the next frame, when the view's size is known).
    pub fn request_fit(&mut self, fit: Fit) {
        self.fit = Some(fit);
        self.fit_on_open = false;
    }

    /// A document was opened: fit what it is about.
    pub fn fit_on_open(&mut self) {
        self.fit = Some(Fit::Scene);
        self.fit_on_open = true;
        self.gesture = None;
        self.rejected = None;
        self.new_polygon = None;
    }

    /// Whether a shape or handle is being dragged.
    pub fn is_dragging(&self) -> bool {
        matches!(self.gesture, Some((g, _)) if g != Gesture::Pan)
    }

    /// Whether a polygon is being added by clicking.
    pub fn is_adding_polygon(&self) -> bool {
        self.new_polygon.is_some()
    }

    /// How many corners the polygon being added has so far.
    pub fn polygon_corners(&self) -> Option<usize> {
        self.new_polygon.as_ref().map(Vec::len)
    }

    /// Start adding a polygon by clicking.
    pub fn start_polygon(&mut self) {
        self.new_polygon = Some(Vec::new());
    }

    /// Stop adding a polygon.
    pub fn cancel_polygon(&mut self) {
        self.new_polygon = None;
    }

    /// Take back the last corner clicked.
    pub fn remove_last_corner(&mut self) {
        if let Some(points) = &mut self.new_polygon {
            points.pop();
        }
    }

    /// The polygon clicked so far as a shape to add, or why it cannot be one (the corners
    /// stay, to fix). `None` when no polygon is being added.
    pub fn finish_polygon(&mut self, ws: &Workspace) -> Option<Result<SceneShape, String>> {
        let points = self.new_polygon.take()?;
        let centre = points.iter().copied().sum::<DVec2>() / points.len().max(1) as f64;
        let local: Vec<DVec2> = points.iter().map(|p| *p - centre).collect();
        Some(match ConvexPolygon::new(local) {
            Ok(p) => {
                let placed = Placed::new(p, Pose::at(centre));
                Ok(SceneShape::named(&ws.fresh_name("polygon"), placed))
            }
            Err(e) => {
                self.new_polygon = Some(points);
                Err(e.to_string())
            }
        })
    }

    /// The view in the middle of the window. Returns the axis under the pointer, if any.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        options: &ViewOptions,
        view: &LabView,
        out: &mut Commands,
    ) -> Option<usize> {
        let mut hovered_axis = None;
        egui::CentralPanel::default().show(ui, |ui| {
            let (response, painter) =
                ui.allocate_painter(ui.available_size(), egui::Sense::click_and_drag());
            let rect = response.rect;
            self.rect = rect;
            self.do_fit(rect, ws, view);
            self.zoom(ui, &response, rect);
            let handles = self.handles(ws);
            let handles = if view.editable { handles } else { Vec::new() };
            self.pointer(ui, &response, rect, (ws, view), &handles, out);
            let ctx = ui.ctx().clone();
            let font = FontId::proportional(13.0);
            let look = Look {
                pixels_per_point: ctx.pixels_per_point(),
                tessellation: ctx.tessellation_options(|o| *o),
                font_texture: ctx.fonts(|f| f.font_image_size()),
            };
            let measure = |text: &str| {
                painter
                    .layout_no_wrap(text.to_string(), font.clone(), egui::Color32::WHITE)
                    .size()
            };
            let shown = FrameInputs { ws, options, view };
            let (still, frame) = self.frame(rect, shown, &handles, look, &measure);
            if let Some(p) = response.hover_pos() {
                let near = frame
                    .axis_segments
                    .iter()
                    .map(|(k, [a, b])| (*k, distance_to_segment(p, *a, *b)))
                    .filter(|(_, d)| *d < 6.0)
                    .min_by(|x, y| x.1.total_cmp(&y.1));
                hovered_axis = near.map(|(k, _)| k);
            }
            let painter = painter.with_clip_rect(rect);
            painter.add(egui::Shape::Mesh(still.mesh.clone()));
            painter.add(egui::Shape::Mesh(frame.mesh.clone()));
            for (label, place) in still.labels.iter().chain(&frame.labels) {
                painter.text(
                    paint::pos(place.centre()),
                    Align2::CENTER_CENTER,
                    &label.text,
                    font.clone(),
                    egui::Color32::from(label.colour),
                );
            }
            if let Some(p) = response.hover_pos() {
                self.handle_tooltip(ui, &response, p, &handles);
            }
        });
        hovered_axis
    }

    /// One frame of the view, tessellated, with its labels placed: built again only when
    /// something it shows changed (the scene, the selection, the pair, the view, what the
    /// lab shows); a frame in which nothing changed reuses the last one whole.
    fn frame(
        &mut self,
        rect: Rect,
        shown: FrameInputs,
        handles: &[Handle],
        look: Look,
        measure: &dyn Fn(&str) -> egui::Vec2,
    ) -> (&Frame, &Frame) {
        let ws = shown.ws;
        let key = self.frame_key(rect, shown, look.pixels_per_point);
        if self.frame.as_ref().is_none_or(|f| f.key != key) {
            let dynamic = Self::dynamic_shapes(ws, shown.view);
            let static_key = self.static_key(rect, shown.view, look.pixels_per_point, &dynamic);
            let dynamic_ids: Vec<ShapeId> =
                dynamic.iter().map(|&i| ws.scene().shapes[i].id).collect();
            // The static layer stays while only dynamic shapes changed (a drag).
            let keep = self.static_frame.as_ref().is_some_and(|f| {
                f.key == static_key
                    && ws
                        .shapes_changed_since(f.revision)
                        .is_some_and(|ids| ids.iter().all(|id| dynamic_ids.contains(id)))
            });
            let build = |this: &Self, layer| this.build(layer, rect, shown, handles, &dynamic);
            if !keep {
                let list = build(self, draw::Layer::Static);
                self.static_frame = Some(Frame::new(static_key, list, rect, measure, &[], look));
            }
            let still = self.static_frame.as_mut().expect("just built or kept");
            still.revision = ws.revision();
            let taken: Vec<picture::Rect> = still.labels.iter().map(|(_, r)| *r).collect();
            let list = build(self, draw::Layer::Dynamic);
            self.frame = Some(Frame::new(key, list, rect, measure, &taken, look));
        }
        (
            self.static_frame.as_ref().expect("built with the frame"),
            self.frame.as_ref().expect("just built"),
        )
    }

    /// Where the view looks and how it is drawn, into `h`: what both layers depend on.
    fn hash_view(&self, rect: Rect, pixels_per_point: f32, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        let c = self.camera;
        for v in [c.centre.x, c.centre.y, c.scale] {
            v.to_bits().hash(h);
        }
        for v in [
            rect.min.x,
            rect.min.y,
            rect.max.x,
            rect.max.y,
            pixels_per_point,
        ] {
            v.to_bits().hash(h);
        }
    }

    /// What the static layer depends on besides the shapes themselves, hashed.
    fn static_key(
        &self,
        rect: Rect,
        view: &LabView,
        pixels_per_point: f32,
        dynamic: &[usize],
    ) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash_view(rect, pixels_per_point, &mut h);
        dynamic.hash(&mut h);
        view.static_key.hash(&mut h);
        h.finish()
    }

    /// Everything a frame of the view depends on, hashed.
    fn frame_key(&self, rect: Rect, shown: FrameInputs, pixels_per_point: f32) -> u64 {
        let FrameInputs { ws, options, view } = shown;
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let bits = |x: f64| x.to_bits();
        (ws.revision(), ws.is_stale(), ws.pair(), ws.selected()).hash(&mut h);
        bits(ws.horizon()).hash(&mut h);
        self.hash_view(rect, pixels_per_point, &mut h);
        (options.show_axes, options.show_naive).hash(&mut h);
        view.frame_key.hash(&mut h);
        if let Some(r) = &self.rejected {
            (r.index, &r.reason).hash(&mut h);
            r.outline
                .iter()
                .for_each(|p| (bits(p.x), bits(p.y)).hash(&mut h));
        }
        if let Some(points) = &self.new_polygon {
            points.len().hash(&mut h);
            points
                .iter()
                .for_each(|p| (bits(p.x), bits(p.y)).hash(&mut h));
        }
        h.finish()
    }

    /// The draw list of a view of `rect` (what one frame paints), without painting it.
    pub fn draw_list(
        &mut self,
        rect: Rect,
        ws: &Workspace,
        options: &ViewOptions,
        view: &LabView,
    ) -> PaintedFrame {
        self.rect = rect;
        self.do_fit(rect, ws, view);
        let handles = self.handles(ws);
        let look = Look {
            pixels_per_point: 1.0,
            tessellation: Default::default(),
            font_texture: [1, 1],
        };
        let shown = FrameInputs { ws, options, view };
        let estimated = |text: &str| {
            let size = labels::estimated_size(text);
            egui::vec2(size.x, size.y)
        };
        let (still, frame) = self.frame(rect, shown, &handles, look, &estimated);
        PaintedFrame {
            shapes: vec![
                egui::Shape::Mesh(still.mesh.clone()),
                egui::Shape::Mesh(frame.mesh.clone()),
            ],
            labels: still
                .labels
                .iter()
                .chain(&frame.labels)
                .map(|(label, _)| label.clone())
                .collect(),
        }
    }

    /// The list positions of the dynamic shapes: the selected one and the explained pair
    /// (none in the latency lab, whose players are not the scene's shapes).
    fn dynamic_shapes(ws: &Workspace, view: &LabView) -> Vec<usize> {
        if !view.document_shapes {
            return Vec::new();
        }
        let scene = ws.scene();
        let (a, b) = ws.pair().unzip();
        let mut dynamic: Vec<usize> = [ws.selected(), a, b]
            .into_iter()
            .flatten()
            .filter_map(|id| scene.index_of(id))
            .collect();
        dynamic.sort_unstable();
        dynamic.dedup();
        dynamic
    }

    fn build(
        &self,
        layer: draw::Layer,
        rect: Rect,
        shown: FrameInputs,
        handles: &[Handle],
        dynamic: &[usize],
    ) -> DrawList {
        let FrameInputs { ws, options, view } = shown;
        let scene = view.scene_of(ws);
        let (pair, focus_axis, axes_seen, verdict_shown, show_axes, mistake) = match &view.pair {
            PairShown::None => (None, None, 0, false, false, None),
            PairShown::Own { pair, focus_axis } => {
                let total = pair.map_or(0, |(_, r)| r.sat.axes.len());
                (*pair, *focus_axis, total, true, options.show_axes, None)
            }
            PairShown::Document {
                focus_axis,
                axes_seen,
                verdict_shown,
                mistake,
                axes,
            } => {
                let report = ws.report().filter(|_| !ws.is_stale());
                let pair = ws.pair_indices().zip(report);
                (
                    pair,
                    *focus_axis,
                    *axes_seen,
                    *verdict_shown,
                    *axes && options.show_axes,
                    mistake.as_ref(),
                )
            }
        };
        let others = matches!(view.pair, PairShown::Document { .. });
        let other_hits = ws
            .other_hits()
            .filter(|_| others)
            .filter_map(|(a, b)| Some((scene.index_of(a)?, scene.index_of(b)?)));
        let hits = LayerHits::new(layer, scene.shapes.len(), other_hits, dynamic);
        draw::build(&DrawInput {
            scene,
            pair,
            other_hits: &hits.other_hits,
            selected: ws
                .selected()
                .and_then(|id| scene.index_of(id))
                .filter(|_| view.document_shapes),
            focus_axis,
            axes_seen,
            verdict_shown,
            show_axes,
            broad: view.broad.map(|shown| BroadOverlay {
                shown,
                grid: ws.grid(),
                hits: ws.hits(),
            }),
            show_naive: options.show_naive,
            claim: ws.claim().filter(|_| view.claim_and_motion),
            motion: ws
                .pair_motion()
                .filter(|_| view.claim_and_motion)
                .map(|(velocities, toi)| draw::PairMotion {
                    velocities,
                    horizon: ws.horizon(),
                    toi,
                }),
            ray: view.ray,
            ghost: view.ghost,
            sweeps: view.sweeps,
            latency: view.latency,
            mistake,
            grid: Some(ws.grid()),
            rejected: self.rejected.as_ref(),
            new_polygon: self.new_polygon.as_deref().unwrap_or(&[]),
            handles,
            layer,
            dynamic,
            hit_by_dynamic: &hits.hit_by_dynamic,
            camera: self.camera,
            rect: paint::rect(rect),
        })
    }

    /// Do a pending fit. On opening, the view `render` shows too: the whole scene, unless
    /// that makes the headline (the MTV or the distance) too small to see.
    fn do_fit(&mut self, rect: Rect, ws: &Workspace, view: &LabView) {
        let Some(fit) = self.fit else { return };
        if rect.width() < 10.0 || rect.height() < 10.0 {
            return;
        }
        self.fit = None;
        // The latency lab fits every place its players are seen in the log.
        let (rect, scene, pair) = match view.fit_scene {
            Some(players) => (paint::rect(rect), players, None),
            _ => (
                paint::rect(rect),
                ws.scene(),
                ws.pair_indices().zip(ws.report()),
            ),
        };
        self.camera = if self.fit_on_open && fit == Fit::Scene {
            self.fit_on_open = false;
            fit::opening_view(self.camera, rect, scene, pair)
        } else {
            fit::fitted(fit, self.camera, rect, scene, pair)
        };
    }

    fn zoom(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) {
        let Some(at) = response.hover_pos() else {
            return;
        };
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = (scroll as f64 / 300.0).exp() * pinch as f64;
        if factor != 1.0 {
            self.camera
                .zoom_at(paint::rect(rect), paint::point(at), factor);
        }
    }

    /// The handles of the selected shape (world).
    fn handles(&self, ws: &Workspace) -> Vec<Handle> {
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
    fn handle_at(&self, p: Pos2, rect: Rect, handles: &[Handle]) -> Option<HandleKind> {
        handles
            .iter()
            .find(|h| {
                let at = draw::handle_on_screen(self.camera, paint::rect(rect), h);
                paint::pos(at).distance(p) <= GRAB
            })
            .map(|h| h.kind)
    }

    fn handle_tooltip(
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

    fn pointer(
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
        }
        if response.dragged() {
            let delta = response.drag_delta();
            let at = response.interact_pointer_pos().map(to_world);
            match (self.gesture, at) {
                (Some((Gesture::Pan, _)), _) | (None, _) => {
                    self.camera.centre -= self.camera.delta_to_world(paint::vector(delta))
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
    fn grab(
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
            let placed = &shape.placed;
            return match kind {
                HandleKind::Rotate => Gesture::Rotate {
                    id,
                    grab: (w - placed.centre()).to_angle() - placed.pose.angle(),
                },
                HandleKind::Corner(k) => Gesture::Corner(id, k),
                HandleKind::Radius => Gesture::Radius(id),
                HandleKind::Velocity => Gesture::Velocity {
                    id,
                    start: shape.motion.velocity,
                    press: w,
                },
            };
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
                Gesture::Move(id)
            }
            None if view.draws_rays => {
                out.push(Command::Ray(w, w));
                Gesture::RayEnd { end: 1, fixed: w }
            }
            None => Gesture::Pan,
        }
    }

    /// The topmost shape at world point `w`, with a few points of slack.
    fn shape_at(&self, scene: &Scene, w: DVec2) -> Option<ShapeId> {
        let slack = GRAB as f64 / self.camera.scale;
        scene
            .shapes
            .iter()
            .rev()
            .find(|s| distance_to_point(&s.placed, w) <= slack)
            .map(|s| s.id)
    }

    /// The dragged shape after one frame of `gesture` with the pointer at `at` (moved by
    /// `delta` since the last frame). A polygon corner that would make the polygon invalid
    /// is shown in red with the reason, and the last valid polygon stays.
    fn dragged(
        &mut self,
        ws: &Workspace,
        gesture: Gesture,
        at: DVec2,
        delta: DVec2,
    ) -> Option<SceneShape> {
        self.rejected = None;
        let id = match gesture {
            Gesture::Pan | Gesture::RayEnd { .. } => return None,
            Gesture::Move(id)
            | Gesture::Rotate { id, .. }
            | Gesture::Corner(id, _)
            | Gesture::Radius(id)
            | Gesture::Velocity { id, .. } => id,
        };
        let index = ws.scene().index_of(id)?;
        let mut shape = ws.scene().shapes[index].clone();
        let placed = &mut shape.placed;
        match gesture {
            Gesture::Pan | Gesture::RayEnd { .. } => {}
            Gesture::Move(_) => placed.pose.position += delta,
            Gesture::Rotate { grab, .. } => {
                let angle = (at - placed.centre()).to_angle() - grab;
                placed.turn_about_centre(angle);
            }
            Gesture::Corner(_, k) => {
                let local = placed.pose.inverse_apply(at);
                let pose = placed.pose;
                match &mut placed.shape {
                    Shape::Capsule(c) => c.set_end(k, local).ok()?,
                    Shape::Polygon(p) => {
                        let mut points = p.points_as_given();
                        points[k] = local;
                        match ConvexPolygon::new(points.clone()) {
                            Ok(valid) => *p = valid,
                            Err(e) => {
                                self.rejected = Some(Rejected {
                                    index,
                                    outline: points.iter().map(|q| pose.apply(*q)).collect(),
                                    reason: e.to_string(),
                                });
                                return None;
                            }
                        }
                    }
                    Shape::Circle(_) => return None,
                }
            }
            Gesture::Velocity { start, press, .. } => {
                shape.motion.velocity = if start == DVec2::ZERO {
                    // At rest the handle waits below the shape: the arrow runs from the centre
                    // to the pointer, so the handle stays under it.
                    (at - placed.centre()) / ws.horizon()
                } else {
                    // By the pointer's movement since the press, so grabbing a handle held at
                    // the view's edge does not jump.
                    start + (at - press) / ws.horizon()
                };
            }
            Gesture::Radius(_) => {
                let r = distance_to_core(placed, at).max(1e-3);
                match &mut placed.shape {
                    Shape::Circle(c) => c.set_radius(r).ok()?,
                    Shape::Capsule(c) => c.set_radius(r).ok()?,
                    Shape::Polygon(_) => return None,
                }
            }
        }
        (shape != ws.scene().shapes[index]).then_some(shape)
    }
}

/// How far screen point `p` is from the screen segment `a`-`b` (for hovering a drawn axis).
fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}
