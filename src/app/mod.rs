//! The window: drag shapes and watch the separating-axis test live.
//!
//! The app holds the scene and what the user is doing with it; every frame it asks the core
//! for the explained pair's report and draws it. It computes no geometry of its own.

mod camera;
mod document;
pub mod draw;
mod explain_panel;
mod history;
mod menu;
mod palette;
mod projection_plot;
mod scene_view;
mod shapes_panel;

pub use camera::Camera;

use crate::geometry::DVec2;
use crate::query::{PairReport, collide, report};
use crate::scene::{self, Scene};
use document::{Document, Recovery};
use draw::Rejected;
use eframe::egui;
use history::History;
use std::path::{Path, PathBuf};

/// The scene the window opens on when no file is given.
pub const DEFAULT_SCENE: &str = include_str!("../../shapes/default-scene.json");

/// The default scene, parsed.
pub fn default_scene() -> Scene {
    scene::parse(Path::new("default-scene.json"), DEFAULT_SCENE.as_bytes())
        .expect("the embedded default scene is valid (tests/shape_files.rs checks it)")
}

/// How the app starts.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A shape-set file to open instead of the default scene.
    pub file: Option<PathBuf>,
    /// Where the recovery file and recent list live; `None` for the user's data folder.
    pub data_dir: Option<PathBuf>,
    /// Keep no recovery file or recent list at all (tests).
    pub no_data_dir: bool,
}

/// An action that would discard unsaved changes, waiting for the user to confirm it.
#[derive(Clone, Debug, PartialEq)]
enum Discard {
    New,
    Open(PathBuf),
    Quit,
}

/// A message in the status bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Whether it reports a failure.
    pub error: bool,
}

/// The collidoscope window.
pub struct App {
    scene: Scene,
    history: History,
    document: Document,
    camera: Camera,
    /// Where the scene view was drawn last frame.
    view_rect: egui::Rect,
    fit_pending: bool,
    /// The explained pair (A, B).
    pair: (usize, usize),
    selected: Option<usize>,
    /// Step mode: the axis being told (index into the report's axes; one past the end is the
    /// verdict). `None` when step mode is off.
    step: Option<usize>,
    show_axes: bool,
    show_naive: bool,
    stack_axes: bool,
    /// The axis under the pointer in the table, plot or scene (last frame's).
    hovered_axis: Option<usize>,
    /// What a drag in the scene view is doing.
    gesture: Option<scene_view::Gesture>,
    rejected: Option<Rejected>,
    /// Corners of a polygon being added by clicking (world).
    new_polygon: Option<Vec<DVec2>>,
    regular_sides: usize,
    /// Whether a field of the numbers panel is being edited (one undo step per interaction).
    numbers_editing: bool,
    message: Option<Message>,
    path_field: String,
    confirm: Option<Discard>,
    recovery: Option<Recovery>,
    close_confirmed: bool,
    title: String,
    /// This frame's report of the explained pair, and the other intersecting pairs.
    report: Option<PairReport>,
    other_hits: Vec<(usize, usize)>,
}

impl App {
    /// The app on `options.file`, or on the default scene.
    pub fn new(options: Options) -> Self {
        let data_dir = if options.no_data_dir {
            None
        } else {
            options.data_dir.or_else(Document::default_data_dir)
        };
        let mut app = Self {
            scene: default_scene(),
            history: History::default(),
            document: Document::new(data_dir),
            camera: Camera::default(),
            view_rect: egui::Rect::NOTHING,
            fit_pending: true,
            pair: (0, 1),
            selected: None,
            step: None,
            show_axes: true,
            show_naive: false,
            stack_axes: false,
            hovered_axis: None,
            gesture: None,
            rejected: None,
            new_polygon: None,
            regular_sides: 6,
            numbers_editing: false,
            message: None,
            path_field: String::new(),
            confirm: None,
            recovery: None,
            close_confirmed: false,
            title: String::new(),
            report: None,
            other_hits: Vec::new(),
        };
        app.recovery = app.document.pending_recovery();
        if let Some(file) = options.file {
            app.open(&file);
        }
        app
    }

    /// The whole window, one panel after another.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.keyboard(ui.ctx());
        self.dropped_files(ui.ctx());
        self.refresh_report();
        self.menu_bar(ui);
        self.status_bar(ui);
        self.shapes_panel(ui);
        self.explain_panel(ui);
        self.scene_view(ui);
        self.dialogs(ui.ctx());
        self.autosave();
        self.window_title(ui.ctx());
        self.close_request(ui.ctx());
    }

    /// [`App::show`], for egui_kittest harnesses.
    pub fn ui_for_test(&mut self, ui: &mut egui::Ui) {
        self.show(ui);
    }

    /// The shapes.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The explained pair (A, B).
    pub fn pair(&self) -> (usize, usize) {
        self.pair
    }

    /// Explain the pair `(a, b)`.
    pub fn set_pair(&mut self, a: usize, b: usize) {
        if a != b && a < self.scene.shapes.len() && b < self.scene.shapes.len() {
            self.pair = (a, b);
            self.step = self.step.map(|_| 0);
            self.refresh_report();
        }
    }

    /// The explained pair's report (as of the last frame).
    pub fn report(&self) -> Option<&PairReport> {
        self.report.as_ref()
    }

    /// The current step of step mode, if on.
    pub fn step(&self) -> Option<usize> {
        self.step
    }

    /// The status bar message.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The open file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.document.path.as_deref()
    }

    /// Whether there are unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.document.dirty
    }

    /// Where a world point is on the screen (as of the last frame): for tests that aim the
    /// pointer at a shape.
    pub fn world_to_screen(&self, p: DVec2) -> egui::Pos2 {
        self.camera.to_screen(self.view_rect, p)
    }

    /// One frame's work without a window: the core's reports and the scene view's draw list
    /// for a view of `rect` (what the frame benchmark measures).
    pub fn frame_work(&mut self, rect: egui::Rect) -> draw::DrawList {
        self.refresh_report();
        if self.fit_pending {
            self.fit(rect);
        }
        draw::build(&self.draw_input(rect, &[]))
    }

    /// Replace the scene (a new document holding `scene`).
    pub fn set_scene(&mut self, scene: Scene) {
        self.new_document();
        self.scene = scene;
        self.fit_pending = true;
        self.refresh_report();
    }

    /// Ask the core about the explained pair and every other pair.
    fn refresh_report(&mut self) {
        let shapes = &self.scene.shapes;
        let n = shapes.len();
        if n < 2 {
            self.report = None;
            self.other_hits.clear();
            return;
        }
        if self.pair.0 >= n || self.pair.1 >= n || self.pair.0 == self.pair.1 {
            self.pair = (0, 1);
        }
        let (a, b) = self.pair;
        self.report = Some(report(&shapes[a].placed, &shapes[b].placed));
        self.other_hits.clear();
        for i in 0..n {
            for j in i + 1..n {
                if (i, j) != (a.min(b), a.max(b))
                    && collide(&shapes[i].placed, &shapes[j].placed).is_some()
                {
                    self.other_hits.push((i, j));
                }
            }
        }
        if let (Some(step), Some(r)) = (self.step, &self.report) {
            self.step = Some(step.min(r.sat.axes.len()));
        }
    }

    /// Apply an edit to the scene, recorded for undo.
    fn edit(&mut self, change: impl FnOnce(&mut Scene)) {
        self.history.record(self.scene.clone());
        change(&mut self.scene);
        self.document.changed();
        self.after_edit();
    }

    /// Keep indices valid after the shape list changed.
    fn after_edit(&mut self) {
        let n = self.scene.shapes.len();
        if self.selected.is_some_and(|s| s >= n) {
            self.selected = None;
        }
        self.refresh_report();
    }

    fn undo(&mut self) {
        let previous = self.history.undo(&self.scene);
        self.restore(previous);
    }

    fn redo(&mut self) {
        let next = self.history.redo(&self.scene);
        self.restore(next);
    }

    /// Show `scene` from the history, if there was one to go to.
    fn restore(&mut self, scene: Option<Scene>) {
        if let Some(scene) = scene {
            self.scene = scene;
            self.document.changed();
            self.rejected = None;
            self.after_edit();
        }
    }

    fn say(&mut self, text: impl Into<String>, error: bool) {
        self.message = Some(Message {
            text: text.into(),
            error,
        });
    }

    /// Open `path`, unless that would lose unsaved changes (then ask first).
    pub fn request_open(&mut self, path: &Path) {
        if self.document.dirty {
            self.confirm = Some(Discard::Open(path.to_path_buf()));
        } else {
            self.open(path);
        }
    }

    /// Open `path` now. A file that fails to load leaves the scene as it was.
    fn open(&mut self, path: &Path) {
        match scene::load(path) {
            Ok(scene) => {
                self.scene = scene;
                self.history.clear();
                self.document.opened(path);
                self.selected = None;
                self.pair = (0, 1);
                self.step = None;
                self.fit_pending = true;
                self.path_field = path.display().to_string();
                self.say(format!("opened {}", path.display()), false);
                self.refresh_report();
            }
            Err(e) => self.say(e.to_string(), true),
        }
    }

    /// Save to `path` (atomically); on failure the message says why and nothing is lost.
    fn save_as(&mut self, path: &Path) {
        match scene::save(&self.scene, path) {
            Ok(()) => {
                self.document.opened(path);
                self.path_field = path.display().to_string();
                self.say(format!("saved {}", path.display()), false);
            }
            Err(e) => self.say(e.to_string(), true),
        }
    }

    fn new_document(&mut self) {
        self.scene = Scene::default();
        self.history.clear();
        self.document.reset();
        self.selected = None;
        self.step = None;
        self.report = None;
        self.say("new scene", false);
    }

    fn keyboard(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let shortcut = |m, k| KeyboardShortcut::new(m, k);
        let typing = ctx.egui_wants_keyboard_input();
        let (redo, undo, redo_y, save, duplicate) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::S)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::D)),
            )
        });
        if undo {
            self.undo();
        }
        if redo || redo_y {
            self.redo();
        }
        if save {
            self.save();
        }
        if duplicate {
            self.duplicate_selected();
        }
        if typing {
            return;
        }
        let (delete, fit, next, previous, escape, enter) = ctx.input(|i| {
            (
                i.key_pressed(Key::Delete) || i.key_pressed(Key::Backspace),
                i.key_pressed(Key::F),
                i.key_pressed(Key::ArrowRight) || i.key_pressed(Key::N),
                i.key_pressed(Key::ArrowLeft) || i.key_pressed(Key::P),
                i.key_pressed(Key::Escape),
                i.key_pressed(Key::Enter),
            )
        });
        if delete {
            self.delete_selected();
        }
        if fit {
            self.fit_pending = true;
        }
        if next {
            self.step_next();
        }
        if previous {
            self.step_previous();
        }
        if escape {
            self.new_polygon = None;
            self.step = None;
        }
        if enter {
            self.finish_polygon();
        }
    }

    /// Save to the document's file, or ask where (the path field) when it has none.
    fn save(&mut self) {
        match self.document.path.clone() {
            Some(path) => self.save_as(&path),
            None => match file_dialog().save_file() {
                Some(path) => self.save_as(&path),
                None if !self.path_field.trim().is_empty() => {
                    let path = PathBuf::from(self.path_field.trim());
                    self.save_as(&path);
                }
                None => self.say("type a file name in the path field, then Save", true),
            },
        }
    }

    fn step_next(&mut self) {
        if let Some(r) = &self.report {
            let last = r.sat.axes.len();
            self.step = Some(self.step.map_or(0, |s| (s + 1).min(last)));
        }
    }

    fn step_previous(&mut self) {
        if self.report.is_some() {
            self.step = Some(self.step.map_or(0, |s| s.saturating_sub(1)));
        }
    }

    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.request_open(&path);
        }
    }

    fn autosave(&mut self) {
        let editing = self.gesture.is_some() || self.numbers_editing;
        let now = std::time::Instant::now();
        if let Some(problem) = self.document.autosave(&self.scene, now, editing) {
            self.say(problem, true);
        }
    }

    fn window_title(&mut self, ctx: &egui::Context) {
        let title = self.document.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if self.document.dirty {
            // Keep the autosave clock running while there are unsaved edits.
            ctx.request_repaint_after(document::AUTOSAVE_EVERY);
        }
    }

    /// Closing the window with unsaved changes asks first; a clean close removes the recovery
    /// copy.
    fn close_request(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.viewport().close_requested()) {
            return;
        }
        if self.document.dirty && !self.close_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm = Some(Discard::Quit);
        } else {
            self.document.discard_recovery();
        }
    }

    /// The confirmation and recovery dialogs.
    fn dialogs(&mut self, ctx: &egui::Context) {
        if let Some(action) = self.confirm.clone() {
            let name = self.document.title();
            let body = format!(
                "{} has changes that are not saved.",
                name.trim_end_matches(" - collidoscope")
            );
            match ask(
                ctx,
                "Discard unsaved changes?",
                &body,
                ["Discard changes", "Cancel"],
            ) {
                Some(true) => {
                    self.confirm = None;
                    match action {
                        Discard::New => self.new_document(),
                        Discard::Open(path) => {
                            self.document.dirty = false;
                            self.open(&path);
                        }
                        Discard::Quit => {
                            self.close_confirmed = true;
                            self.document.discard_recovery();
                            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                        }
                    }
                }
                Some(false) => self.confirm = None,
                None => {}
            }
        }
        if self.recovery.is_some() && self.confirm.is_none() {
            let when = self
                .recovery
                .as_ref()
                .and_then(|r| r.written)
                .and_then(|t| t.elapsed().ok());
            let age = when
                .map(|d| format!(" from {} s ago", d.as_secs()))
                .unwrap_or_default();
            let body = format!(
                "collidoscope did not close cleanly last time. An autosaved scene{age} is available."
            );
            match ask(
                ctx,
                "Recover unsaved work?",
                &body,
                ["Recover", "Discard it"],
            ) {
                Some(true) => {
                    let recovery = self.recovery.take().expect("shown only with a recovery");
                    self.history.record(self.scene.clone());
                    self.scene = recovery.scene;
                    self.document.path = recovery.path;
                    self.document.changed();
                    self.fit_pending = true;
                    self.say("recovered the autosaved scene (not saved yet)", false);
                    self.refresh_report();
                }
                Some(false) => {
                    self.recovery = None;
                    self.document.discard_recovery();
                }
                None => {}
            }
        }
    }
}

/// The system dialog for choosing a shape-set file.
fn file_dialog() -> rfd::FileDialog {
    rfd::FileDialog::new().add_filter("shape set", &["json"])
}

/// A modal question with two answers: `Some(true)` for the first, `Some(false)` for the
/// second, `None` while unanswered.
fn ask(ctx: &egui::Context, heading: &str, body: &str, [yes, no]: [&str; 2]) -> Option<bool> {
    let mut answer = None;
    egui::Modal::new(egui::Id::unique(heading)).show(ctx, |ui| {
        ui.heading(heading);
        ui.label(body);
        ui.horizontal(|ui| {
            if ui.button(yes).clicked() {
                answer = Some(true);
            }
            if ui.button(no).clicked() {
                answer = Some(false);
            }
        });
    });
    answer
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Open the window (blocking until it closes).
pub fn run(options: Options) -> eframe::Result {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("collidoscope")
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "collidoscope",
        native,
        Box::new(|_| Ok(Box::new(App::new(options)))),
    )
}
