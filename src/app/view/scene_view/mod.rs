//! The scene view: pan and zoom, select and drag shapes and their handles, click a new
//! polygon's corners, and paint what `picture::draw` builds from the core's reports.

mod gestures;
mod layers;
mod meshes;

use gestures::{Gesture, distance_to_segment};
use layers::{Frame, FrameInputs, Look};
use meshes::Meshes;

use crate::app::ViewOptions;
use crate::app::command::{Command, Commands, Fit};
use crate::app::document::edit::Edit;
use crate::app::document::workspace::Workspace;
use crate::app::lab_view::{LabView, PairShown};
use crate::app::paint;
use crate::geometry::{DVec2, Placed};
use crate::picture::draw::{self, BroadOverlay, DrawInput, DrawList, LayerHits, Rejected};
use crate::picture::handles::{Grip, Handle, HandleKind, dragged, handles_of, velocity_handle};
use crate::picture::palette::Theme;
use crate::picture::{self, Camera, Label, fit, labels};
use crate::scene::{Scene, SceneShape, ShapeId};
use eframe::egui::{self, Align2, FontId, PointerButton, Pos2, Rect};

/// The labels' size (points).
const TEXT: f32 = 13.0;
/// The labels' size in the projector look (points): read from the back of a room at 1280x720.
const PROJECTOR_TEXT: f32 = 24.0;
/// How much thicker lines are in the projector look.
const PROJECTOR_WIDTHS: f32 = 2.0;

impl LabView<'_> {
    /// The scene drawn: the lab's, else the workspace's.
    fn scene_of<'s>(&'s self, ws: &'s Workspace) -> &'s Scene {
        self.scene.unwrap_or(ws.scene())
    }
}

/// A fit or a view, as the view keeps it to do again at a new size.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kept {
    Fit(Fit),
    View(DVec2, f64),
}

/// What one frame of the view paints, without a window (see [`crate::app::App::frame_work`]).
pub struct PaintedFrame {
    /// The static and the dynamic layer, each tessellated into one mesh.
    pub shapes: Vec<egui::Shape>,
    /// The labels kept, static layer first.
    pub labels: Vec<Label>,
    /// Where each of `labels` stands: its box (screen, min and max corners).
    pub boxes: Vec<egui::Rect>,
}

/// The scene view's own state.
pub struct SceneView {
    camera: Camera,
    /// Where it was drawn last frame.
    rect: Rect,
    /// A fit to do once the view's size is known.
    fit: Option<Fit>,
    /// A view to show once the view's size is known: its centre and how much of the world
    /// fits across it (a lesson's slide sets one).
    shown: Option<(DVec2, f64)>,
    /// The fit is the one on opening: the scene, unless that hides the headline.
    fit_on_open: bool,
    /// The last fit or view asked for, and the size of the window it was done at: while the
    /// user has not panned or zoomed since, a new size of the window (resized, or a
    /// presentation filling the screen) does it again, so what it showed stays shown. (A side
    /// panel that widens does not: the view would jump while the user works.)
    kept: Option<(Kept, egui::Vec2)>,
    gesture: Option<(Gesture, u64)>,
    gestures: u64,
    /// The casts lab's ray as it was when the gesture began: a second finger turns a drag
    /// that drew a ray into a pan, and the ray goes back.
    ray_before: Option<(DVec2, DVec2)>,
    rejected: Option<Rejected>,
    /// Corners of a polygon being added by clicking (world).
    new_polygon: Option<Vec<DVec2>>,
    /// The last frame's dynamic layer, reused while nothing it shows changes.
    frame: Option<Frame>,
    /// The last frame's static layer, reused while only dynamic shapes change.
    static_frame: Option<Frame>,
    /// Each shape's triangles in its own frame, moved into place each frame.
    meshes: Meshes,
    /// The shapes the marks of the last frames held, shared by the next while unchanged.
    shared: crate::picture::SharedShapes,
}

impl Default for SceneView {
    fn default() -> Self {
        Self {
            camera: Camera::default(),
            rect: Rect::NOTHING,
            fit: Some(Fit::Scene),
            shown: None,
            fit_on_open: true,
            kept: None,
            gesture: None,
            gestures: 0,
            ray_before: None,
            rejected: None,
            new_polygon: None,
            frame: None,
            static_frame: None,
            meshes: Meshes::default(),
            shared: crate::picture::SharedShapes::default(),
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
        self.shown = None;
        self.fit_on_open = false;
    }

    /// Show `width` world units across the view, centred on `centre` (at the next frame, when
    /// the view's size is known); in place of any fit asked for.
    pub fn request_view(&mut self, centre: DVec2, width: f64) {
        self.shown = Some((centre, width));
        self.fit = None;
        self.fit_on_open = false;
    }

    /// A document was opened: fit what it is about.
    pub fn fit_on_open(&mut self) {
        self.fit = Some(Fit::Scene);
        self.shown = None;
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
        Some(match Placed::polygon_through(&points) {
            Ok(placed) => Ok(SceneShape::named(&ws.fresh_name("polygon"), placed)),
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
            self.camera.y_down = view.y_down;
            let window = ui.ctx().content_rect().size();
            self.refit_on_resize(window);
            self.do_fit(rect, window, ws, view);
            self.zoom(ui, &response, rect);
            let handles = self.handles(ws);
            let handles = if view.editable { handles } else { Vec::new() };
            self.pointer(ui, &response, rect, (ws, view), &handles, out);
            let ctx = ui.ctx().clone();
            let (theme, widths, text) = if options.projector {
                (Theme::Light, PROJECTOR_WIDTHS, PROJECTOR_TEXT)
            } else {
                (Theme::Dark, 1.0, TEXT)
            };
            let font = FontId::proportional(text);
            let look = Look {
                pixels_per_point: ctx.pixels_per_point(),
                tessellation: ctx.tessellation_options(|o| *o),
                font_texture: ctx.fonts(|f| f.font_image_size()),
                theme,
                widths,
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
            // A label that had to stand off from what it names is tied to it by a leader line.
            for line in labels::leader_marks(still.labels.iter().chain(&frame.labels)) {
                painter.add(paint::shape(theme.restyle(line, widths)));
            }
            for (label, place) in still.labels.iter().chain(&frame.labels) {
                painter.text(
                    paint::pos(place.centre()),
                    Align2::CENTER_CENTER,
                    &label.text,
                    font.clone(),
                    egui::Color32::from(theme.colour(label.colour)),
                );
            }
            if let Some(p) = response.hover_pos() {
                self.handle_tooltip(ui, &response, p, &handles);
            }
        });
        hovered_axis
    }

    /// The window's size changed while the last fit or view still stands (nothing panned or
    /// zoomed since): ask for it again.
    fn refit_on_resize(&mut self, window: egui::Vec2) {
        if self.fit.is_some() || self.shown.is_some() {
            return;
        }
        let Some((kept, size)) = self.kept else {
            return;
        };
        if (window - size).length() < 1.0 {
            return;
        }
        match kept {
            Kept::Fit(fit) => self.fit = Some(fit),
            Kept::View(centre, width) => self.shown = Some((centre, width)),
        }
    }

    /// The user moved the view: a new size keeps their view, not the last fit.
    fn moved_by_user(&mut self) {
        self.kept = None;
    }

    /// Do a pending fit. On opening, the view `render` shows too: the whole scene, unless
    /// that makes the headline (the MTV or the distance) too small to see.
    fn do_fit(&mut self, rect: Rect, window: egui::Vec2, ws: &Workspace, view: &LabView) {
        if rect.width() < 10.0 || rect.height() < 10.0 {
            return;
        }
        if let Some((centre, width)) = self.shown.take() {
            self.camera.centre = centre;
            self.camera.scale = f64::from(rect.width()) / width;
            self.kept = Some((Kept::View(centre, width), window));
        }
        let Some(fit) = self.fit else { return };
        self.fit = None;
        if fit != Fit::Reveal {
            self.kept = Some((Kept::Fit(fit), window));
        }
        // The latency lab fits every place its players are seen in the log; the capture lab
        // its frame, around its own pair.
        let (rect, scene, pair) = match view.fit_scene {
            Some(scene) => {
                let pair = match &view.pair {
                    PairShown::Own { pair, .. } => *pair,
                    _ => None,
                };
                (paint::rect(rect), scene, pair)
            }
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
            self.moved_by_user();
        }
    }
}
