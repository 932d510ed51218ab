//! The window: drag shapes and watch the separating-axis test live.
//!
//! The app holds the workspace (the document, its selection and the core's report) and its
//! panels; every panel reads the workspace and asks for changes with [`Command`]s, which
//! [`App::run_commands`] carries out in one place. It computes no geometry of its own.

mod axes_table;
mod broad_lab;
mod casts_lab;
mod claimed_panel;
mod command;
mod dialogs;
mod document;
mod edit;
mod export_window;
mod frame_pair;
mod generate_window;
mod history;
mod lab_view;
mod latency_lab;
mod latency_timeline;
mod motion_lab;
mod motion_tab;
mod numbers_panel;
mod paint;
mod pair_lab;
mod path_field;
mod playback;
mod projection_plot;
mod scene_view;
mod shapes_panel;
mod status_bar;
mod top_bar;
mod workspace;

pub use crate::picture::Camera;
pub use command::{Command, Fit, LatencyCommand, MotionCommand, PlaybackCommand, TimelineId};
pub use edit::Edit;
pub use latency_lab::LatencyLab;
pub use motion_lab::MotionLab;
pub use scene_view::PaintedFrame;
pub use status_bar::Message;

use crate::fixture;
use crate::geometry::DVec2;
use crate::query::PairReport;
use crate::scene::{self, Scene, ShapeId};
use broad_lab::BroadLab;
use casts_lab::CastsLab;
use command::Commands;
use dialogs::Dialogs;
use document::Document;
use eframe::egui;
use export_window::ExportWindow;
use generate_window::GenerateWindow;
use lab_view::LabView;
use numbers_panel::NumbersPanel;
use pair_lab::PairLab;
use scene_view::SceneView;
use shapes_panel::ShapesPanel;
use status_bar::StatusBar;
use std::path::{Path, PathBuf};
use top_bar::TopBar;
use workspace::Workspace;

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

/// Which panels are shown, and what the scene view draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewOptions {
    /// The shapes panel on the left.
    pub shapes_panel: bool,
    /// The explain panel on the right.
    pub explain_panel: bool,
    /// Draw the candidate axes around the pair.
    pub show_axes: bool,
    /// Draw the naive MTV beside the correct one.
    pub show_naive: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            shapes_panel: true,
            explain_panel: true,
            show_axes: true,
            show_naive: false,
        }
    }
}

/// The lab the window shows: what the right panel tells and the scene view draws over the
/// shapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lab {
    /// The separating-axis test of one pair.
    #[default]
    Pair,
    /// The broad phase: the grid, candidate pairs and hits of the whole scene.
    Broad,
    /// Casts: a ray against the whole scene.
    Casts,
    /// Motion: the scene run through time, with a timeline.
    Motion,
    /// Late packets: a game server's packet log through the latency-aware engine.
    Latency,
}

/// Below this window width (points) only one side panel is shown, so the scene view keeps
/// most of the window.
const NARROW: f32 = 900.0;

/// The collidoscope window.
pub struct App {
    workspace: Workspace,
    options: ViewOptions,
    top_bar: TopBar,
    status_bar: StatusBar,
    shapes_panel: ShapesPanel,
    numbers_panel: NumbersPanel,
    /// The lab shown.
    lab: Lab,
    /// The pair lab: the separating-axis test of one pair.
    pair_lab: PairLab,
    /// The broad-phase lab: the grid of the whole scene.
    broad_lab: BroadLab,
    /// The casts lab: a ray cast against the scene.
    casts_lab: CastsLab,
    /// The motion lab: the scene run through time.
    motion_lab: MotionLab,
    latency_lab: LatencyLab,
    generate_window: GenerateWindow,
    export_window: ExportWindow,
    scene_view: SceneView,
    dialogs: Dialogs,
    commands: Commands,
    title: String,
    close_confirmed: bool,
    /// Of the two side panels, the shapes panel was turned on last (on a narrow window only
    /// one is shown).
    shapes_panel_last: bool,
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
            workspace: Workspace::new(default_scene(), data_dir),
            options: ViewOptions::default(),
            top_bar: TopBar::default(),
            status_bar: StatusBar::default(),
            shapes_panel: ShapesPanel::default(),
            numbers_panel: NumbersPanel::default(),
            lab: Lab::Pair,
            pair_lab: PairLab::default(),
            broad_lab: BroadLab::default(),
            casts_lab: CastsLab::default(),
            motion_lab: MotionLab::default(),
            latency_lab: LatencyLab::default(),
            generate_window: GenerateWindow::default(),
            export_window: ExportWindow::default(),
            scene_view: SceneView::default(),
            dialogs: Dialogs::default(),
            commands: Commands::default(),
            title: String::new(),
            close_confirmed: false,
            shapes_panel_last: false,
        };
        app.dialogs.recovery = app.workspace.document.pending_recovery();
        if let Some(file) = options.file {
            app.open(&file);
        }
        app.workspace.refresh();
        app
    }

    /// The whole window, one panel after another; then the commands they gave.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let elapsed = ctx.input(|i| i.stable_dt) as f64;
        if self.refresh_labs(elapsed) {
            ctx.request_repaint();
        }
        self.pair_lab.follow(&self.workspace);
        if self.latency_lab.take_fit() {
            self.scene_view.request_fit(Fit::Scene);
        }
        self.keyboard(&ctx);
        self.dropped_files(&ctx);
        let (left, right) = self.side_panels(ui.available_width());
        // The latency lab's players are not the document's shapes: no shapes panel there.
        // (On a narrow window its own panel takes the shapes panel's place.)
        let latency = self.lab == Lab::Latency;
        let (left, right) = (left && !latency, right || (latency && left));
        let (ws, out) = (&self.workspace, &mut self.commands);
        let before = self.options;
        self.top_bar.ui(ui, ws, &mut self.options, self.lab, out);
        if self.options.shapes_panel && !before.shapes_panel {
            self.shapes_panel_last = true;
        }
        if self.options.explain_panel && !before.explain_panel {
            self.shapes_panel_last = false;
        }
        self.status_bar
            .ui(ui, ws, self.scene_view.camera(), self.lab);
        if self.lab == Lab::Motion {
            self.motion_lab.timeline(ui, out);
        }
        if self.lab == Lab::Latency {
            latency_timeline::ui(&self.latency_lab, ui, out);
        }
        if left {
            self.shapes_panel
                .ui(ui, ws, &mut self.numbers_panel, &self.scene_view, out);
        }
        if right {
            match self.lab {
                Lab::Pair => self.pair_lab.ui(ui, ws, &mut self.options, out),
                Lab::Broad => self.broad_lab.ui(ui, ws, out),
                Lab::Casts => self.casts_lab.ui(ui, ws, out),
                Lab::Motion => self.motion_lab.ui(ui, ws, self.options.show_naive, out),
                Lab::Latency => self
                    .latency_lab
                    .ui(ui, ws, self.motion_lab.recording(), out),
            }
        }
        let labs = LabRefs {
            pair: &self.pair_lab,
            broad: &self.broad_lab,
            casts: &self.casts_lab,
            motion: &self.motion_lab,
            latency: &self.latency_lab,
        };
        let view = lab_view(self.lab, ws, labs);
        let hovered = self.scene_view.ui(ui, ws, &self.options, &view, out);
        // Hovering is a pure view state: it stays direct.
        self.pair_lab.hovered_axis = hovered;
        self.generate_window.ui(&ctx, out);
        self.export_window.ui(&ctx, ws, out);
        let discard = self.dialogs.ui(&ctx, ws, out);
        self.run_commands(&ctx);
        if let Some(action) = discard {
            self.discard_confirmed(&ctx, action);
        }
        self.autosave();
        self.window_title(&ctx);
        self.close_request(&ctx);
    }

    /// Bring the report and the lab shown up to date, playback advanced by `elapsed` seconds
    /// (the latency lab's log follows the motion lab's run). Returns whether a lab is playing.
    fn refresh_labs(&mut self, elapsed: f64) -> bool {
        self.workspace.refresh();
        match self.lab {
            Lab::Pair | Lab::Broad => false,
            Lab::Casts => {
                self.casts_lab.refresh(&self.workspace);
                false
            }
            Lab::Motion => {
                self.motion_lab.refresh(&self.workspace, elapsed);
                self.motion_lab.playback.playing
            }
            Lab::Latency => {
                self.motion_lab.refresh(&self.workspace, 0.0);
                self.latency_lab
                    .refresh(self.motion_lab.recording(), elapsed);
                self.latency_lab.playback.playing
            }
        }
    }

    /// Which side panels fit: both on a wide window; on a narrow one only one, so the scene
    /// view always keeps most of the window: the one turned on last (the View menu's ticks
    /// follow, so a tick always means the panel is on screen).
    fn side_panels(&mut self, width: f32) -> (bool, bool) {
        let options = &mut self.options;
        if width < NARROW && options.shapes_panel && options.explain_panel {
            if self.shapes_panel_last {
                options.explain_panel = false;
            } else {
                options.shapes_panel = false;
            }
        }
        (options.shapes_panel, options.explain_panel)
    }

    /// [`App::show`], for egui_kittest harnesses.
    pub fn ui_for_test(&mut self, ui: &mut egui::Ui) {
        self.show(ui);
    }

    /// The shapes.
    pub fn scene(&self) -> &Scene {
        self.workspace.scene()
    }

    /// The explained pair (A, B) as positions in the shape list.
    pub fn pair(&self) -> Option<(usize, usize)> {
        self.workspace.pair_indices()
    }

    /// Explain the shapes at positions `a` and `b` of the list.
    pub fn set_pair(&mut self, a: usize, b: usize) {
        let shapes = &self.workspace.scene().shapes;
        if let (Some(x), Some(y)) = (shapes.get(a), shapes.get(b)) {
            let (x, y) = (x.id, y.id);
            self.run(Command::Explain(x, y));
            self.workspace.refresh();
        }
    }

    /// The explained pair's report (as of the last frame).
    pub fn report(&self) -> Option<&PairReport> {
        self.workspace.report()
    }

    /// How many times the report has been built since the app started.
    pub fn report_builds(&self) -> u64 {
        self.workspace.report_builds()
    }

    /// The current step of step mode, if on.
    pub fn step(&self) -> Option<usize> {
        self.pair_lab.step()
    }

    /// Every intersecting pair the window marks (list positions, sorted), as of the last
    /// frame.
    pub fn hits(&self) -> Vec<(usize, usize)> {
        let scene = self.workspace.scene();
        let mut pairs: Vec<(usize, usize)> = self
            .workspace
            .hits()
            .iter()
            .filter_map(|(a, b)| Some((scene.index_of(*a)?, scene.index_of(*b)?)))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// The mistake whose test the Claimed tab shows beside the correct one.
    pub fn shown_mistake(&self) -> Option<crate::query::Mistake> {
        self.pair_lab.claimed.shown_mistake()
    }

    /// The status bar message.
    pub fn message(&self) -> Option<&Message> {
        self.status_bar.message()
    }

    /// The selected shape.
    pub fn selected(&self) -> Option<ShapeId> {
        self.workspace.selected()
    }

    /// How many corners of a polygon being added by clicking there are (`None`: not adding
    /// one).
    pub fn polygon_corners(&self) -> Option<usize> {
        self.scene_view.polygon_corners()
    }

    /// The open file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.workspace.document.path.as_deref()
    }

    /// What the path field holds.
    pub fn path_field(&self) -> &str {
        self.top_bar.path_field()
    }

    /// Whether there are unsaved changes.
    pub fn is_dirty(&self) -> bool {
        self.workspace.is_dirty()
    }

    /// The title bar text.
    pub fn title(&self) -> String {
        self.workspace.title()
    }

    /// Where the scene view was drawn last frame.
    pub fn view_rect(&self) -> egui::Rect {
        self.scene_view.rect()
    }

    /// The view of the scene: where it looks and at what zoom.
    pub fn camera(&self) -> Camera {
        self.scene_view.camera()
    }

    /// Where a world point is on the screen (as of the last frame): for tests that aim the
    /// pointer at a shape.
    pub fn world_to_screen(&self, p: DVec2) -> egui::Pos2 {
        self.scene_view.world_to_screen(p)
    }

    /// The selected shape's handles and where they are on the screen (as of the last frame).
    pub fn handles_on_screen(&self) -> Vec<(crate::picture::handles::HandleKind, egui::Pos2)> {
        self.scene_view.handles_on_screen(&self.workspace)
    }

    /// One frame's work without a window: the core's reports and the scene view's draw list
    /// for a view of `rect` (what the frame benchmark measures).
    pub fn frame_work(&mut self, rect: egui::Rect) -> PaintedFrame {
        self.refresh_labs(0.0);
        let labs = LabRefs {
            pair: &self.pair_lab,
            broad: &self.broad_lab,
            casts: &self.casts_lab,
            motion: &self.motion_lab,
            latency: &self.latency_lab,
        };
        let view = lab_view(self.lab, &self.workspace, labs);
        self.scene_view
            .draw_list(rect, &self.workspace, &self.options, &view)
    }

    /// Select the shape at list position `index` (or nothing), as a click does.
    pub fn select(&mut self, index: Option<usize>) {
        let id = index
            .and_then(|i| self.workspace.scene().shapes.get(i))
            .map(|s| s.id);
        self.run(Command::Select(id));
    }

    /// Show part of the scene, as F and G do (at the next frame).
    pub fn fit(&mut self, fit: Fit) {
        self.run(Command::Fit(fit));
    }

    /// Apply an edit as the panels do (for benchmarks and tests that drive the app without
    /// a pointer).
    pub fn apply_edit(&mut self, edit: Edit) {
        self.run(Command::Edit(edit));
    }

    /// Replace the scene (a new document holding `scene`).
    pub fn set_scene(&mut self, scene: Scene) {
        self.workspace = Workspace::new(scene, None);
        self.scene_view.fit_on_open();
        self.workspace.refresh();
    }

    /// Carry out the frame's commands, in order: the one place where the workspace changes.
    fn run_commands(&mut self, ctx: &egui::Context) {
        let commands = std::mem::take(&mut self.commands.0);
        if commands.is_empty() {
            return;
        }
        for command in commands {
            self.run(command);
        }
        // Show what they did at once.
        ctx.request_repaint();
    }

    /// Carry out one command as the window does at the end of a frame: the one way its state
    /// changes (the panels, the keys and tests all come through here).
    pub fn run(&mut self, command: Command) {
        let ws = &mut self.workspace;
        match command {
            Command::Edit(edit) => {
                ws.apply(edit);
                self.status_bar.scene_changed(ws.revision());
            }
            Command::Undo => ws.undo(),
            Command::Redo => ws.redo(),
            Command::Select(id) => ws.select(id),
            Command::Explain(a, b) => {
                ws.set_pair(a, b);
                self.pair_lab.pair_changed();
            }
            Command::New if ws.is_dirty() => self.dialogs.confirm_discard(dialogs::Discard::New),
            Command::New => {
                ws.new_document();
                self.after_document_change();
                self.say("new scene", false);
            }
            Command::Open(path) if ws.is_dirty() => match scene::load(&path) {
                // Nothing to discard changes for when the file cannot be read.
                Err(e) => self.say(e.to_string(), true),
                Ok(_) => self.dialogs.confirm_discard(dialogs::Discard::Open(path)),
            },
            Command::Open(path) => self.open(&path),
            Command::Save => self.save(),
            Command::SaveAs { path, confirmed } => self.save_as(&path, confirmed),
            Command::Recover(recovery) => {
                ws.recover(*recovery);
                self.after_document_change();
                self.say("recovered the autosaved scene (not saved yet)", false);
            }
            Command::DiscardRecovery => ws.document.discard_recovery(),
            Command::Fit(fit) => self.scene_view.request_fit(fit),
            Command::StartPolygon => {
                self.scene_view.start_polygon();
                self.say(
                    "click the corners in the scene; Backspace removes the last, Enter or Finish adds it, Esc cancels",
                    false,
                );
            }
            Command::FinishPolygon => {
                if let Some(result) = self.scene_view.finish_polygon(ws) {
                    match result {
                        Ok(shape) => ws.apply(Edit::Add(shape)),
                        Err(reason) => self.say(format!("polygon not added: {reason}"), true),
                    }
                }
            }
            Command::CancelPolygon => self.scene_view.cancel_polygon(),
            Command::Generate(options) if ws.is_dirty() => self
                .dialogs
                .confirm_discard(dialogs::Discard::Generate(options)),
            Command::Generate(options) => self.generate(options),
            Command::ShowGenerate => self.generate_window.open = true,
            Command::CellSize(size) => ws.set_cell_size(size),
            Command::Lab(lab) => {
                // The latency lab's players live elsewhere than the scene's shapes: fit them
                // on the way in, and the scene on the way out.
                if (lab == Lab::Latency) != (self.lab == Lab::Latency) {
                    self.scene_view.request_fit(Fit::Scene);
                }
                self.lab = lab;
            }
            Command::Horizon(t) => ws.set_horizon(t),
            Command::Ray(from, to) => self.casts_lab.ray = Some((from, to)),
            Command::Say(m) => self.say(m.text, m.error),
            Command::Playback(TimelineId::Motion, c) => self.motion_lab.play(c),
            Command::Playback(TimelineId::Latency, c) => self.latency_lab.play(c),
            Command::Latency(c) => {
                if let Some(m) = self.latency_lab.apply(c, self.motion_lab.recording()) {
                    self.say(m.text, m.error);
                }
            }
            Command::Motion(c) => {
                let m = self.motion_lab.apply(c, &self.workspace);
                self.say(m.text, m.error);
            }
            Command::LoadClaims(path) => self.load_claims(&path),
            Command::ShowExport => {
                let typed = self.top_bar.path_field().trim();
                let document = (!typed.is_empty()).then(|| Path::new(typed));
                let data_dir = self.workspace.document.data_dir();
                let near = path_field::proposal(document, data_dir, ".json")
                    .unwrap_or_else(|| PathBuf::from("case.json"));
                self.export_window.open(&near);
            }
            Command::ExportFixture { pairs, path, rust } => {
                match fixture::export(ws.scene(), pairs.as_deref(), &path, rust.as_deref()) {
                    Ok(written) => self.say(written.join("; "), false),
                    Err(e) => self.say(e, true),
                }
            }
        }
    }

    /// Take the claims of the file at `path`, its shape indices naming this scene's shapes.
    fn load_claims(&mut self, path: &Path) {
        let loaded = match scene::load(path) {
            Ok(loaded) => loaded,
            Err(e) => return self.say(e.to_string(), true),
        };
        let shapes = &self.workspace.scene().shapes;
        if loaded.shapes.len() != shapes.len() {
            return self.say(
                format!(
                    "{}: its claims are about {} shapes, this scene has {}",
                    path.display(),
                    loaded.shapes.len(),
                    shapes.len()
                ),
                true,
            );
        }
        let count = loaded.claims.len();
        let claims = loaded
            .claims
            .into_iter()
            .map(|mut c| {
                c.a = shapes[c.a.0 as usize].id;
                c.b = shapes[c.b.0 as usize].id;
                c
            })
            .collect();
        self.workspace.apply(Edit::Claims(claims));
        self.say(format!("{count} claims from {}", path.display()), false);
    }

    /// Replace the scene with a random one.
    fn generate(&mut self, options: crate::scene::generate::Generate) {
        let scene = crate::scene::generate::random_scene(options);
        self.workspace.generated(scene);
        self.after_document_change();
        self.say(
            format!("generated {} shapes (seed {})", options.count, options.seed),
            false,
        );
    }

    /// Show `lab`.
    pub fn set_lab(&mut self, lab: Lab) {
        self.run(Command::Lab(lab));
    }

    /// The casts lab's ray (from, to), once the lab has been shown.
    pub fn ray(&self) -> Option<(DVec2, DVec2)> {
        self.casts_lab.ray
    }

    /// The casts lab's hits as of the last frame: (list position, hit), by fraction.
    pub fn ray_hits(&self) -> &[(usize, crate::query::RayHit)] {
        self.casts_lab.hits()
    }

    /// The motion lab (its frame, run and events), for tests.
    pub fn motion_lab(&self) -> &MotionLab {
        &self.motion_lab
    }

    /// The motion lab, to drive it as its timeline does (benchmarks, tests).
    pub fn motion_lab_mut(&mut self) -> &mut MotionLab {
        &mut self.motion_lab
    }

    /// The latency lab.
    pub fn latency_lab(&self) -> &LatencyLab {
        &self.latency_lab
    }

    /// The latency lab, to change its settings.
    pub fn latency_lab_mut(&mut self) -> &mut LatencyLab {
        &mut self.latency_lab
    }

    /// The span a moving pair is followed over (the Motion tab's T).
    pub fn horizon(&self) -> f64 {
        self.workspace.horizon()
    }

    fn say(&mut self, text: impl Into<String>, error: bool) {
        self.status_bar.say(text, error, self.workspace.revision());
    }

    /// After new, open or recover: the view and the lab start over on the new scene.
    fn after_document_change(&mut self) {
        self.scene_view.fit_on_open();
        self.pair_lab.pair_changed();
        self.numbers_panel.forget();
        self.workspace.refresh();
    }

    /// Open `path` now. A file that fails to load leaves the scene and the document as they
    /// were.
    fn open(&mut self, path: &Path) {
        match scene::load(path) {
            Ok(scene) => {
                self.workspace.opened(scene, path);
                self.after_document_change();
                self.say(format!("opened {}", path.display()), false);
            }
            Err(e) => self.say(e.to_string(), true),
        }
    }

    /// Save to the document's file; without one, to the path field (asking before writing
    /// over another file); without that, say how to name one.
    fn save(&mut self) {
        if let Some(path) = self.workspace.document.path.clone() {
            self.save_as(&path, true);
            return;
        }
        // rfd answers None at once where no dialog can be shown; the path field remains.
        let chosen = top_bar::file_dialog().save_file().or_else(|| {
            let typed = self.top_bar.path_field().trim();
            (!typed.is_empty()).then(|| PathBuf::from(typed))
        });
        match chosen {
            Some(path) => self.save_as(&path, false),
            None => self.say(
                "not saved: type a file name in the path field, then Save",
                true,
            ),
        }
    }

    /// Save to `path` (atomically); on failure the message says why and nothing is lost.
    /// Replacing an existing file that is not the open document asks first.
    fn save_as(&mut self, path: &Path, confirmed: bool) {
        let is_document = self.workspace.document.path.as_deref() == Some(path);
        if !confirmed && !is_document && path.exists() {
            self.dialogs.confirm_overwrite(path.to_path_buf());
            return;
        }
        match scene::save(self.workspace.scene(), path) {
            Ok(()) => {
                self.workspace.saved(path);
                self.say(format!("saved {}", path.display()), false);
            }
            Err(e) => self.say(e.to_string(), true),
        }
    }

    fn keyboard(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        if self.dialogs.is_open() {
            // A question is waiting: its buttons answer it, no shortcut acts behind it.
            return;
        }
        let shortcut = |m, k| KeyboardShortcut::new(m, k);
        let (redo, undo, redo_y, save, duplicate) = ctx.input_mut(|i| {
            (
                i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::S)),
                i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::D)),
            )
        });
        let out = &mut self.commands;
        if undo {
            out.push(Command::Undo);
        }
        if redo || redo_y {
            out.push(Command::Redo);
        }
        if save {
            out.push(Command::Save);
        }
        if duplicate {
            shapes_panel::duplicate_selected(&self.workspace, out);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let pressed = |k: Key| ctx.input(|i| i.key_pressed(k));
        let clicking_polygon = self.scene_view.is_adding_polygon();
        if pressed(Key::Delete) || pressed(Key::Backspace) {
            if clicking_polygon {
                // While a polygon is being clicked, the key takes back its last corner.
                self.scene_view.remove_last_corner();
            } else if let Some(id) = self.workspace.selected() {
                out.edit(Edit::Remove(id));
            }
        }
        if pressed(Key::F) {
            out.push(Command::Fit(Fit::Scene));
        }
        if pressed(Key::G) {
            let shift = ctx.input(|i| i.modifiers.shift);
            out.push(Command::Fit(if shift { Fit::Headline } else { Fit::Pair }));
        }
        // A timeline's keys: a table from key to command, the same commands its buttons push.
        let timeline = match self.lab {
            Lab::Motion => Some(TimelineId::Motion),
            Lab::Latency => Some(TimelineId::Latency),
            _ => None,
        };
        if let Some(id) = timeline {
            let next_event = self.motion_lab.next_event().map(PlaybackCommand::Seek);
            let keys: [(&[Key], Option<Command>); 6] = [
                (
                    &[Key::Space],
                    Some(Command::Playback(id, PlaybackCommand::Toggle)),
                ),
                (
                    &[Key::ArrowRight, Key::N],
                    Some(Command::Playback(id, PlaybackCommand::Forward)),
                ),
                (
                    &[Key::ArrowLeft, Key::P],
                    Some(Command::Playback(id, PlaybackCommand::Back)),
                ),
                (
                    &[Key::E],
                    next_event
                        .filter(|_| id == TimelineId::Motion)
                        .map(|c| Command::Playback(id, c)),
                ),
                (
                    &[Key::ArrowDown],
                    (id == TimelineId::Latency)
                        .then_some(Command::Latency(LatencyCommand::StepBucket(1))),
                ),
                (
                    &[Key::ArrowUp],
                    (id == TimelineId::Latency)
                        .then_some(Command::Latency(LatencyCommand::StepBucket(-1))),
                ),
            ];
            for (pressed_keys, command) in keys {
                if pressed_keys.iter().any(|k| pressed(*k))
                    && let Some(command) = command
                {
                    out.push(command);
                }
            }
        } else {
            if pressed(Key::ArrowRight) || pressed(Key::N) {
                self.pair_lab.step_next(&self.workspace);
            }
            if pressed(Key::ArrowLeft) || pressed(Key::P) {
                self.pair_lab.step_previous(&self.workspace);
            }
        }
        if pressed(Key::Escape) {
            self.numbers_panel.forget_refused();
            if clicking_polygon {
                out.push(Command::CancelPolygon);
            } else {
                self.pair_lab.stop_stepping();
            }
        }
        if pressed(Key::Enter) && clicking_polygon {
            out.push(Command::FinishPolygon);
        }
    }

    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Option<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .find(|p| !p.as_os_str().is_empty())
        });
        if let Some(path) = dropped {
            self.commands.push(Command::Open(path));
        }
    }

    fn autosave(&mut self) {
        let editing = self.scene_view.is_dragging() || self.numbers_panel.is_editing();
        let now = std::time::Instant::now();
        if let Some(problem) = self.workspace.autosave(now, editing) {
            self.say(problem, true);
        }
    }

    fn window_title(&mut self, ctx: &egui::Context) {
        let title = self.workspace.title();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if self.workspace.is_dirty() {
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
        if self.workspace.is_dirty() && !self.close_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialogs.confirm_discard(dialogs::Discard::Quit);
        } else {
            self.workspace.document.discard_recovery();
        }
    }

    /// The user agreed to discard unsaved changes for `action`.
    fn discard_confirmed(&mut self, ctx: &egui::Context, action: dialogs::Discard) {
        match action {
            dialogs::Discard::New => {
                self.workspace.new_document();
                self.after_document_change();
                self.say("new scene", false);
            }
            dialogs::Discard::Open(path) => self.open(&path),
            dialogs::Discard::Generate(options) => self.generate(options),
            dialogs::Discard::Quit => {
                self.close_confirmed = true;
                self.workspace.document.discard_recovery();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}

/// A timeline's |< < Play/Pause > >| row, each button with its tooltip (in that order);
/// the command of the button clicked.
fn transport(ui: &mut egui::Ui, playing: bool, tips: [&str; 5]) -> Option<PlaybackCommand> {
    let play = if playing { "Pause" } else { "Play" };
    // One width for both words, so the buttons after it stay put.
    let buttons = [
        (egui::Button::new("|<"), PlaybackCommand::First),
        (egui::Button::new("<"), PlaybackCommand::Back),
        (
            egui::Button::new(play).min_size(egui::vec2(52.0, 0.0)),
            PlaybackCommand::Toggle,
        ),
        (egui::Button::new(">"), PlaybackCommand::Forward),
        (egui::Button::new(">|"), PlaybackCommand::Last),
    ];
    let mut clicked = None;
    for ((button, command), tip) in buttons.into_iter().zip(tips) {
        if ui.add(button).on_hover_text(tip).clicked() {
            clicked = Some(command);
        }
    }
    clicked
}

/// A timeline's playback speed: "speed" and a choice of `choices` (shown as `2x`).
fn speed_combo(ui: &mut egui::Ui, id: &str, speed: &mut f64, choices: &[f64], tip: &str) {
    let label = ui.label("speed");
    egui::ComboBox::from_id_salt(id)
        .selected_text(format!("{speed}x"))
        .show_ui(ui, |ui| {
            for &s in choices {
                ui.selectable_value(speed, s, format!("{s}x"));
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(tip);
}

/// A side panel sized as a share of the window (`default` points at most, `share` of the
/// width at most when resized), that never paints over the scene view and keeps its width
/// whatever it holds.
/// The labs, read by [`lab_view`].
struct LabRefs<'a> {
    pair: &'a PairLab,
    broad: &'a BroadLab,
    casts: &'a CastsLab,
    motion: &'a MotionLab,
    latency: &'a LatencyLab,
}

/// What the view draws for `lab`: each lab makes its own (the broad-phase lab over the pair
/// lab's).
fn lab_view<'a>(lab: Lab, ws: &'a Workspace, labs: LabRefs<'a>) -> LabView<'a> {
    match lab {
        Lab::Pair => labs.pair.view(ws),
        Lab::Broad => labs.broad.view(ws, labs.pair.view(ws)),
        Lab::Casts => labs.casts.view(),
        Lab::Motion => labs.motion.view(ws),
        Lab::Latency => labs.latency.view(),
    }
}

fn side_panel(
    ui: &mut egui::Ui,
    panel: egui::Panel,
    (default, min, share): (f32, f32, f32),
    add: impl FnOnce(&mut egui::Ui),
) {
    let width = ui.ctx().content_rect().width();
    panel
        .default_size(default.min(0.95 * share * width))
        .min_size(min)
        .max_size((share * width).max(min))
        .show(ui, |ui| {
            let clip = ui.max_rect().intersect(ui.clip_rect());
            ui.set_clip_rect(clip);
            ui.set_min_width(ui.available_width());
            add(ui)
        });
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
            .with_min_inner_size([480.0, 360.0])
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
