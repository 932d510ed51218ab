//! The window: drag shapes and watch the separating-axis test live.
//!
//! The app holds the workspace (the document, its selection and the core's report), its
//! panels and its labs; every panel reads them and asks for changes with [`Command`]s (lab
//! commands and playback nested in it), which [`App::run`] carries out in one place. It
//! computes no geometry and words no finding of its own.
//!
//! Where things are, a folder for each part:
//! - here: `mod.rs` the app and its frame ([`App::show`], a table of contents); `command.rs`
//!   what can be asked; `apply.rs` carrying it out; `keyboard.rs` keys as a table of commands;
//!   `presenter.rs` presenter mode; `playback.rs` one playback for every timeline;
//!   `lab_view.rs` what a lab gives the scene view; `widgets.rs` shared widgets;
//!   `test_api.rs` the window as tests drive it.
//! - `labs/`: each lab's state, `apply`, panel and overlay, a lab with parts in its own folder:
//!   `pair_lab/` (the axes table, projection plot, claimed panel, motion tab), `broad_lab.rs`,
//!   `casts_lab.rs`, `motion_lab/` (the frame pair), `latency_lab/` (its timeline, its
//!   worker), `capture_lab/` (following and listening live).
//! - `document/`: the document on disk (`mod.rs`), the workspace, edits, history, the path
//!   field, the data folder's writer, the built-in examples.
//! - `view/`: the scene view (its gestures, layers, meshes) and painting.
//! - `panels/`: the top bar, status bar, shapes and numbers panels, dialogs, help, and the
//!   export and generate windows.
//! - `platform/`: what differs between the desktop and the browser.

mod apply;
mod command;
mod keyboard;
mod lab_view;
mod platform;
mod playback;
mod presenter;
mod test_api;
mod widgets;

mod document;
mod labs;
mod panels;
mod view;
pub mod words;

// The parts by their own names, for the window's files that name them.
use document::edit;
use document::examples;
use document::path_field;
use document::workspace;
use labs::broad_lab;
use labs::capture_lab;
use labs::casts_lab;
use labs::latency_lab;
use labs::latency_lab::latency_timeline;
use labs::motion_lab;
use labs::pair_lab;
use labs::pair_lab::axes_table;
use labs::pair_lab::projection_plot;
use panels::dialogs;
use panels::export_window;
use panels::generate_window;
use panels::help_window;
use panels::numbers_panel;
use panels::shapes_panel;
use panels::status_bar;
use panels::top_bar;
use view::paint;
use view::scene_view;

pub use crate::picture::Camera;
pub use capture_lab::CaptureLab;
pub use command::Message;
pub use command::{
    CaptureCommand, ClaimRef, Command, Fit, HelpPage, LatencyCommand, MotionCommand,
    PlaybackCommand, RunSettings, TimelineId,
};
pub use edit::Edit;
pub use examples::Example;
pub use labs::plot_panel::plot_area;
pub use latency_lab::LatencyLab;
pub use motion_lab::MotionLab;
#[cfg(not(target_arch = "wasm32"))]
pub use platform::run;
/// Start the window in the browser, on the page's canvas (web/build.sh's crate calls it).
#[cfg(target_arch = "wasm32")]
pub use platform::web::start as start_web;
pub use presenter::{LessonCommand, Presenter};
pub use scene_view::PaintedFrame;

use crate::geometry::DVec2;
use crate::query::PairReport;
use crate::scene::{self, Scene, ShapeId};
use crate::text;
use broad_lab::BroadLab;
use casts_lab::CastsLab;
use command::Commands;
use dialogs::Dialogs;
use document::Document;
use eframe::egui;
use export_window::ExportWindow;
use generate_window::GenerateWindow;
use help_window::{HelpWindow, Welcome};
use lab_view::LabView;
use numbers_panel::NumbersPanel;
use pair_lab::PairLab;
use scene_view::SceneView;
use shapes_panel::ShapesPanel;
use status_bar::StatusBar;
use std::path::{Path, PathBuf};
use top_bar::TopBar;
use widgets::{loop_speed_slider, loop_speed_slider_numbered, side_panel, speed_combo, transport};
use workspace::Workspace;

/// The scene the window opens on when no file is given.
pub const DEFAULT_SCENE: &str = include_str!("../../shapes/default-scene.json");

/// The default scene, parsed.
pub fn default_scene() -> Scene {
    Example::Default.scene()
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
    /// A lesson to present at once (`collidoscope lesson FILE`).
    pub lesson: Option<crate::lesson::LessonSource>,
    /// A capture to follow as the game writes it (`collidoscope --follow FILE`).
    pub follow: Option<PathBuf>,
    /// Listen for a game on this port (`collidoscope --listen [PORT]`).
    pub listen: Option<u16>,
    /// A link's query to open (`?lesson=NAME&slide=K`, `?example=NAME`, `?scene=…` with
    /// `&lab=…&pair=I,J&view=X,Y,WIDTH`; `?slide=K` of the lesson given in `lesson`): the web
    /// page's address, or `collidoscope --link URL`.
    pub link: Option<String>,
    /// Something to say at once, as a problem (what the page around the window found wrong).
    pub problem: Option<String>,
    /// A second capture to compare with the one opened (`collidoscope FILE --compare B`).
    pub compare: Option<PathBuf>,
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
    /// Label every axis drawn with its number and overlap or gap (presenting a lesson), not
    /// only the deciding one and the one in focus.
    pub label_axes: bool,
    /// The projector look: the light theme, lines twice as thick, labels at 24 points.
    pub projector: bool,
    /// The Plot panel under the scene (capture lab, motion lab): quantities over time.
    pub plot_panel: bool,
    /// The solver's impulses drawn on a capture's contact points (capture lab).
    pub show_impulses: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        Self {
            shapes_panel: true,
            explain_panel: true,
            show_axes: true,
            show_naive: false,
            label_axes: false,
            projector: false,
            plot_panel: true,
            show_impulses: true,
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
    /// A game's own frames: a capture its engine wrote, every claim judged.
    Capture,
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
    /// The capture lab: a game's own frames, every claim judged.
    capture_lab: CaptureLab,
    generate_window: GenerateWindow,
    export_window: ExportWindow,
    help_window: HelpWindow,
    welcome: Welcome,
    scene_view: SceneView,
    dialogs: Dialogs,
    commands: Commands,
    title: String,
    close_confirmed: bool,
    /// Of the two side panels, the shapes panel was turned on last (on a narrow window only
    /// one is shown).
    shapes_panel_last: bool,
    /// The lesson presented, with the user's document kept aside.
    presenter: Option<Presenter>,
    /// Frames left in which to make the window fill the screen (a lesson given on the
    /// command line is presented on the whole screen).
    fill_screen: u8,
    /// The look last kept for the next start (the projector's or not).
    kept_projector: bool,
    /// The zoom the projector look gave the window for its screen, and the one the window had
    /// before (`None`: it gave none, and the window's zoom is the user's).
    projector_zoom: Option<(f32, f32)>,
    /// Where the window runs and whether fingers work it: what its words on how to work it
    /// say, and whether a drag on a label selects its text or scrolls.
    device: words::Device,
    /// The last link Copy link made, and whether it is still to go to the clipboard.
    copied: Option<String>,
    copy_pending: bool,
    /// The query the window last gave the page's address (`None`: it never did).
    address: Option<String>,
}

/// The screen the projector look is laid out for (points): a 720p projector; a larger screen
/// shows it larger.
const PROJECTOR_SCREEN: egui::Vec2 = egui::vec2(1280.0, 720.0);

/// How much larger the window's own words are in the projector look.
const PROJECTOR_TEXT: f32 = 1.3;

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
            capture_lab: CaptureLab::default(),
            generate_window: GenerateWindow::default(),
            export_window: ExportWindow::default(),
            help_window: HelpWindow::default(),
            welcome: Welcome::default(),
            scene_view: SceneView::default(),
            dialogs: Dialogs::default(),
            commands: Commands::default(),
            title: String::new(),
            close_confirmed: false,
            shapes_panel_last: false,
            presenter: None,
            fill_screen: if options.lesson.is_some() { 30 } else { 0 },
            kept_projector: false,
            projector_zoom: None,
            device: words::Device {
                browser: platform::IN_BROWSER,
                touch: platform::touch_first(),
            },
            copied: None,
            copy_pending: false,
            address: None,
        };
        app.dialogs.recovery = app.workspace.document.pending_recovery();
        // The look the window was last shown in (a lecturer's projector look survives a
        // reload of the page, and a restart on the desktop).
        let kept = platform::kept_projector(app.workspace.document.data_dir());
        app.options.projector = kept.unwrap_or(false);
        app.kept_projector = app.options.projector;
        // A first start with nothing to open says where to begin.
        app.welcome.open = options.file.is_none()
            && options.lesson.is_none()
            && options.link.is_none()
            && options.follow.is_none()
            && options.listen.is_none()
            && app.workspace.document.welcome_due();
        if let Some(file) = options.file {
            // As File > Open takes it: a shape set, a capture, a lesson or a level.
            app.run(Command::Open(file));
        }
        if let Some(path) = options.compare {
            app.run(Command::Capture(CaptureCommand::Compare(path)));
        }
        if let Some(source) = options.lesson {
            app.present(LessonCommand::Open(source));
            if let Some(p) = &mut app.presenter {
                p.carried = true;
            }
        }
        if let Some(query) = options.link {
            app.open_link(&query);
        }
        if let Some(problem) = options.problem {
            app.say(problem, true);
        }
        if let Some(port) = options.listen {
            app.lab = Lab::Capture;
            app.run(Command::Capture(CaptureCommand::Listen(port)));
        }
        if let Some(path) = options.follow {
            app.lab = Lab::Capture;
            app.run(Command::Capture(CaptureCommand::Follow(path)));
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
        } else if self.capture_lab.is_live() {
            // Following or listening: looked at again soon (a frame of a 60 Hz game).
            ctx.request_repaint_after(std::time::Duration::from_millis(16));
        }
        self.pair_lab.follow(&self.workspace);
        if self.latency_lab.take_fit() {
            self.scene_view.request_fit(Fit::Scene);
        }
        if let Some(fit) = self.capture_lab.take_fit() {
            self.scene_view.request_fit(fit);
        }
        self.keyboard(&ctx);
        self.dropped_files(&ctx);
        self.visuals(&ctx);
        self.projector_zoom(&ctx);
        self.follow_device(ui);
        if self.presenter.is_some() {
            let discard = self.show_presenting(ui);
            self.end_of_frame(&ctx, discard);
            return;
        }
        let (left, right) = self.side_panels(ui.available_width());
        // The latency lab's players are not the document's shapes: no shapes panel there.
        // (On a narrow window its own panel takes the shapes panel's place.)
        let latency = self.lab == Lab::Latency;
        let (left, right) = (left && !latency, right || (latency && left));
        let whole = self.status_whole(&ctx);
        let (ws, out) = (&self.workspace, &mut self.commands);
        let before = self.options;
        let device = self.device;
        self.top_bar
            .ui(ui, ws, (&mut self.options, device), self.lab, out);
        if self.options.shapes_panel && !before.shapes_panel {
            self.shapes_panel_last = true;
        }
        if self.options.explain_panel && !before.explain_panel {
            self.shapes_panel_last = false;
        }
        let live = self.capture_lab.live_state();
        self.status_bar.ui(
            ui,
            ws,
            (self.scene_view.camera(), whole),
            status_bar::hint(self.lab, self.device),
            live.as_deref(),
            out,
        );
        if self.lab == Lab::Motion {
            self.motion_lab.timeline(ui, out);
        }
        if self.lab == Lab::Latency {
            latency_timeline::ui(&self.latency_lab, ui, out);
        }
        if self.lab == Lab::Capture {
            self.capture_lab.timeline(ui, out);
        }
        // On a phone only one side panel fits, under the scene: a switch shows the other.
        if ctx.content_rect().width() < widgets::PHONE && !latency {
            widgets::panel_switch(ui, (left, right), out);
        }
        if left {
            // A run opened from a file, or a capture's frame, is shown read-only in place of
            // the document's shapes.
            let read_only = match self.lab {
                Lab::Motion => self
                    .motion_lab
                    .opened_run_scene()
                    .map(|s| (s, words::OPENED_RUN)),
                Lab::Capture => self
                    .capture_lab
                    .frame_scene()
                    .map(|s| (s, words::CAPTURED_FRAME)),
                _ => None,
            };
            let picks = (self.lab == Lab::Capture).then(|| self.capture_lab.list_marks());
            let read_only =
                read_only.map(|(scene, note)| shapes_panel::ReadOnlyList { scene, note, picks });
            self.shapes_panel.ui(
                ui,
                ws,
                &mut self.numbers_panel,
                &self.scene_view,
                read_only,
                out,
            );
        }
        if right {
            match self.lab {
                Lab::Pair => self.pair_lab.ui(ui, ws, &mut self.options, out),
                Lab::Broad => self.broad_lab.ui(ui, ws, out),
                Lab::Casts => self.casts_lab.ui(ui, ws, self.device, out),
                Lab::Motion => self.motion_lab.ui(ui, ws, self.options.show_naive, out),
                Lab::Latency => self
                    .latency_lab
                    .ui(ui, ws, self.motion_lab.recording(), out),
                Lab::Capture => self.capture_lab.ui(ui, self.options.show_naive, out),
            }
        }
        // The Plot panel, under the scene and between the side panels.
        if self.options.plot_panel {
            match self.lab {
                Lab::Motion => self.motion_lab.plot_panel(ui, out),
                Lab::Capture => self.capture_lab.plot_panel(ui, out),
                _ => {}
            }
        }
        // What the panels leave: the scene's place, where windows open.
        let room = ui.available_rect_before_wrap();
        let labs = lab_refs!(self);
        let view = lab_view(self.lab, ws, labs);
        let hovered = self.scene_view.ui(ui, ws, &self.options, &view, out);
        // Hovering is a pure view state: it stays direct.
        self.pair_lab.hovered_axis = hovered;
        self.generate_window.ui(&ctx, out);
        self.export_window.ui(&ctx, ws, out);
        self.help_window.ui(&ctx, room, self.device, out);
        if self.dialogs.recovery.is_none() {
            self.welcome.ui(&ctx, room, self.device, out);
        }
        let discard = self.dialogs.ui(&ctx, ws, out);
        self.end_of_frame(&ctx, discard);
    }

    /// After the panels: the commands they gave, the answer to a question, the autosave,
    /// the window's title, a close asked for.
    fn end_of_frame(&mut self, ctx: &egui::Context, discard: Option<dialogs::Discard>) {
        self.run_commands(ctx);
        if std::mem::take(&mut self.copy_pending)
            && let Some(link) = &self.copied
        {
            ctx.copy_text(link.clone());
        }
        if let Some(action) = discard {
            self.discard_confirmed(ctx, action);
        }
        self.autosave();
        self.keep_look();
        self.window_title(ctx);
        self.follow_address();
        self.fill_screen(ctx);
        self.close_request(ctx);
    }

    /// Make the window fill the screen while `fill_screen` frames remain: maximised where a
    /// window manager does that (the window opens maximised), else (a bare X server maximises
    /// nothing) moved to the screen's corner at the screen's size.
    fn fill_screen(&mut self, ctx: &egui::Context) {
        if self.fill_screen == 0 {
            return;
        }
        self.fill_screen -= 1;
        let (monitor, inner, maximized, fullscreen) = ctx.input(|i| {
            let v = i.viewport();
            (v.monitor_size, v.inner_rect, v.maximized, v.fullscreen)
        });
        ctx.request_repaint();
        let Some(monitor) = monitor else { return };
        let filled =
            inner.is_some_and(|r| r.width() >= monitor.x - 80.0 && r.height() >= monitor.y - 120.0);
        if filled || maximized == Some(true) || fullscreen == Some(true) {
            self.fill_screen = 0;
            return;
        }
        // Give a window manager a few frames to maximise it first.
        if self.fill_screen < 27 {
            ctx.send_viewport_cmd(egui::ViewportCommand::OuterPosition(egui::Pos2::ZERO));
            ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(monitor));
        }
    }

    /// The projector look grows with the screen it is shown on: laid out for 1280x720, at
    /// 1920x1080 the panel's words, the scene's labels and the status bar are half as large
    /// again (read from the back of a room, not from an arm's length); at most twice. Leaving
    /// the look gives the window back the zoom it had.
    fn projector_zoom(&mut self, ctx: &egui::Context) {
        let zoom = ctx.zoom_factor();
        // The screen's size at zoom 1 (the points the look was laid out in).
        let screen = ctx.content_rect().size() * zoom;
        let wanted = (screen.x / PROJECTOR_SCREEN.x)
            .min(screen.y / PROJECTOR_SCREEN.y)
            .clamp(1.0, 2.0);
        // In steps of 1/20, so a resize by a few points does not re-lay the window out.
        let wanted = (wanted * 20.0).floor() / 20.0;
        match (self.options.projector, self.projector_zoom) {
            (true, Some((given, _))) if given == wanted => {}
            (true, given) if screen.x > 0.0 => {
                let before = given.map_or(zoom, |(_, before)| before);
                ctx.set_zoom_factor(wanted * before);
                self.projector_zoom = Some((wanted, before));
            }
            (false, Some((_, before))) => {
                ctx.set_zoom_factor(before);
                self.projector_zoom = None;
            }
            _ => {}
        }
    }

    /// Whether the status bar says its words whole (wrapped) rather than cut to a line: a
    /// finger cannot hover for the rest of a cut line, a phone's width leaves a few words, and
    /// in the projector look the room cannot hover either (its larger words cut the
    /// presenter's hint at "F11 full scr..." even at 1920 wide).
    fn status_whole(&self, ctx: &egui::Context) -> bool {
        self.device.touch || self.options.projector || ctx.content_rect().width() < widgets::PHONE
    }

    /// The projector look is light; the window's own is dark. In the projector look the
    /// window's own words (the menus, the presenter's bar, the status bar, the tables) are a
    /// third larger, as the slide's words and the scene's labels are: at 1280x720 they were
    /// 12-13 pixels, too small from the back of a room (a lecturer's try, issue 61).
    fn visuals(&self, ctx: &egui::Context) {
        let theme = if self.options.projector {
            egui::Theme::Light
        } else {
            egui::Theme::Dark
        };
        if ctx.theme() != theme {
            ctx.set_theme(theme);
        }
        let scale = if self.options.projector {
            PROJECTOR_TEXT
        } else {
            1.0
        };
        let body = ctx.global_style().text_styles[&egui::TextStyle::Body].size;
        let wanted = egui::Style::default().text_styles[&egui::TextStyle::Body].size * scale;
        if body != wanted {
            ctx.all_styles_mut(|style| {
                for (name, font) in egui::Style::default().text_styles {
                    style.text_styles.insert(
                        name,
                        egui::FontId::new(font.size * scale, font.family.clone()),
                    );
                }
            });
        }
    }

    /// Follow the last pointer input: a finger's (a touch) makes the window a touch screen's,
    /// a mouse's (a move with no touch, a wheel) a mouse's. On a touch screen a drag on a
    /// label scrolls the panel under it, as on any phone, instead of selecting its text
    /// (egui's scroll areas follow a drag once it has seen a touch).
    fn follow_device(&mut self, ui: &mut egui::Ui) {
        let (touched, pointed) = ui.input(|i| {
            let touched = i
                .events
                .iter()
                .any(|e| matches!(e, egui::Event::Touch { .. }));
            let pointed = i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::PointerMoved(_) | egui::Event::MouseWheel { .. }
                )
            });
            (touched, pointed)
        });
        if touched || pointed {
            self.device.touch = touched;
        }
        let selectable = !self.device.touch;
        if ui.style().interaction.selectable_labels != selectable {
            ui.ctx()
                .all_styles_mut(|s| s.interaction.selectable_labels = selectable);
        }
        ui.style_mut().interaction.selectable_labels = selectable;
    }

    /// Bring the report and the lab shown up to date, playback advanced by `elapsed` seconds
    /// (the latency lab's log follows the motion lab's run). Returns whether a lab is playing.
    fn refresh_labs(&mut self, elapsed: f64) -> bool {
        self.workspace.refresh();
        // A game connecting, or a file followed beginning, shows the capture lab from any lab.
        if self.capture_lab.poll_link() {
            self.lab = Lab::Capture;
        }
        if let Some(message) = self.capture_lab.take_message() {
            self.commands.push(Command::Say(message));
        }
        match self.lab {
            Lab::Pair | Lab::Broad => false,
            Lab::Casts => {
                self.casts_lab.refresh(&self.workspace);
                false
            }
            Lab::Motion => {
                self.motion_lab.plot.shown = self.options.plot_panel;
                self.motion_lab.refresh(&self.workspace, elapsed);
                self.motion_lab.playback.playing
            }
            Lab::Latency => {
                self.motion_lab.refresh(&self.workspace, 0.0);
                self.latency_lab
                    .refresh(self.motion_lab.recording(), elapsed);
                // While the engine works, the progress is drawn again.
                self.latency_lab.playback.playing || self.latency_lab.working().is_some()
            }
            Lab::Capture => {
                self.capture_lab.plot.shown = self.options.plot_panel;
                let busy = self.capture_lab.refresh(elapsed);
                if let Some(message) = self.capture_lab.take_message() {
                    self.commands.push(Command::Say(message));
                }
                busy
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

    /// A file dropped on the window opens as File > Open takes it: by its path on the desktop;
    /// in the browser its bytes arrive a frame or two later, as a file the page's picker gave.
    fn dropped_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        if let Some(path) = platform::open_dropped(dropped) {
            self.commands.push(Command::Open(path));
        }
        match platform::take_opened() {
            Some(Ok((name, bytes))) => self.commands.push(Command::OpenBytes { name, bytes }),
            Some(Err(problem)) => self.say(problem, true),
            None => {}
        }
    }

    /// Keep the look shown for the next start, when it changed (the projector look turned on
    /// or off, or a presentation's ended with it).
    fn keep_look(&mut self) {
        let projector = self.options.projector;
        if projector != self.kept_projector {
            self.kept_projector = projector;
            let data_dir = self
                .user_workspace()
                .document
                .data_dir()
                .map(Path::to_path_buf);
            platform::keep_projector(data_dir.as_deref(), projector);
        }
    }

    fn autosave(&mut self) {
        // While a lesson is presented, the user's document (aside) is the one kept.
        let editing = self.presenter.is_none()
            && (self.scene_view.is_dragging() || self.numbers_panel.is_editing());
        let now = platform::Instant::now();
        if let Some(problem) = self.user_workspace().autosave(now, editing) {
            self.say(problem, true);
        }
    }

    /// The window's title: the document's, or the lesson's while one is presented.
    fn title_text(&self) -> String {
        match &self.presenter {
            Some(p) => words::presenter_title(&p.lesson().title, p.slide() + 1),
            None => self.workspace.title(),
        }
    }

    /// What the pair shown says, as the page publishes it: in the motion lab the frame's
    /// pair (what the view draws), elsewhere the document's.
    fn said(&self) -> String {
        match self.lab {
            Lab::Motion => self.motion_lab.said(),
            Lab::Latency => self.latency_lab.said(),
            Lab::Capture => self.capture_lab.said(),
            _ => None,
        }
        .unwrap_or_else(|| self.pair_lab.said(&self.workspace))
    }

    fn window_title(&mut self, ctx: &egui::Context) {
        let title = self.title_text();
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if !platform::HAS_FILES {
            let message = self.status_bar.message().map_or("", |m| m.text.as_str());
            platform::publish(&self.title, &self.said(), message);
        }
        if self.user_workspace().is_dirty() {
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
        if self.user_workspace().is_dirty() && !self.close_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialogs.confirm_discard(dialogs::Discard::Quit);
        } else {
            self.user_workspace().document.discard_recovery();
        }
    }
}

/// The labs of `$app`, read by [`lab_view`] (a macro: the fields are borrowed one by one,
/// beside a mutable borrow of the commands).
macro_rules! lab_refs {
    ($app:expr) => {
        LabRefs {
            pair: &$app.pair_lab,
            broad: &$app.broad_lab,
            casts: &$app.casts_lab,
            motion: &$app.motion_lab,
            latency: &$app.latency_lab,
            capture: &$app.capture_lab,
        }
    };
}
use lab_refs;

/// The labs, read by [`lab_view`].
struct LabRefs<'a> {
    pair: &'a PairLab,
    broad: &'a BroadLab,
    casts: &'a CastsLab,
    motion: &'a MotionLab,
    latency: &'a LatencyLab,
    capture: &'a CaptureLab,
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
        Lab::Capture => labs.capture.view(),
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
