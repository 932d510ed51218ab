//! The motion lab: the scene run through time by the core's simulation, shown frame by frame.
//! Its panel sets the step, the substeps, the resolver (and a second one drawn as ghosts, so a
//! wrong resolver's drift shows beside the correct one) and continuous collision, and lists
//! the run's events; the timeline under the scene plays, steps and scrubs the run, with a
//! marker for every event (hover one for its sentence). Runs are recordings: saved, opened and
//! replayed as `collidoscope simulate --record` and `replay` do.

pub(crate) mod frame_pair;
mod plot;

use crate::app::command::Message;
use crate::app::command::{Command, Commands, MotionCommand, RunSettings, TimelineId};
use crate::app::document::path_field::PathField;
use crate::app::document::workspace::Workspace;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::app::labs::motion_lab::frame_pair::FramePair;
use crate::app::playback::{Frames, Playback, PlaybackCommand};
use crate::app::words;
use crate::motion::{
    Config, Cursor, Event, EventKind, Recording, Resolver, Simulation, Step, Sweep, counts, replay,
    sweeps,
};
use crate::picture::palette;
use crate::scene::Scene;
use crate::text;
use eframe::egui::{self, RichText};
use std::path::PathBuf;

/// Scenes up to this many shapes are run again by themselves after every change; bigger ones
/// wait for "Run".
const AUTO_RUN: usize = 2_000;

/// One run: the recording (and the ghost resolver's), and what it was run from.
struct Run {
    /// The scene revision it was run from (`None`: opened from a file).
    revision: Option<u64>,
    recording: Recording,
    ghost: Option<Recording>,
    /// Where it came from, for the panel.
    source: String,
}

/// The frame whose scenes are held: the run's and the ghost run's.
struct FrameShown {
    frame: u64,
    scene: Scene,
    ghost: Option<Scene>,
}

/// The lab's state.
pub struct MotionLab {
    /// What the next run is made with (the panel's fields).
    settings: RunSettings,
    /// The frame shown (0: the scene as it starts) and how the run plays.
    pub playback: Playback,
    run: Option<Run>,
    /// Bumped whenever another run replaces the one held (what a log made from it keys on).
    run_id: u64,
    /// The scenes of the shown frame (the run's, the ghost's) and the sweeps of its step.
    shown: Option<FrameShown>,
    /// Where in the run's frames the shown one was read (each block decoded once).
    cursor: Cursor,
    sweeps: Vec<Sweep>,
    /// The explained pair's report at the shown frame.
    pub pair: FramePair,
    /// The recording path field (beside the open document by default).
    pub path: PathField,
    /// The event chosen in the list (its index in the run's events) and its picture, drawn
    /// while its step is shown.
    chosen: Option<(usize, Option<crate::picture::EventPicture>)>,
    /// The gravity the field shows while it is off (what turning it on gives).
    last_gravity: crate::geometry::DVec2,
    /// Drags of the gravity fields so far (each one undo step).
    gravity_gestures: u64,
    /// The Plot panel's quantities and the plot made.
    pub plot: plot::MotionPlot,
}

/// Where the gravity fields' drag numbers start, apart from the scene view's.
const GRAVITY_GESTURES: u64 = 1 << 62;

impl Default for MotionLab {
    fn default() -> Self {
        Self {
            settings: RunSettings::default(),
            playback: Playback::new(1.0),
            run: None,
            run_id: 0,
            shown: None,
            cursor: Cursor::default(),
            sweeps: Vec::new(),
            pair: FramePair::default(),
            path: PathField::new(".rec"),
            chosen: None,
            last_gravity: crate::geometry::DVec2::new(0.0, -9.81),
            gravity_gestures: 0,
            plot: plot::MotionPlot::default(),
        }
    }
}

impl MotionLab {
    /// What the view draws in this lab: the run's frame shown (editable only at frame 0),
    /// the explained pair's report at that frame, the ghost run and the step's sweeps.
    pub fn view(&self, ws: &Workspace) -> LabView<'_> {
        let mut view = LabView::document(PairShown::Own {
            pair: self.pair.report(),
            focus_axis: self.pair.focus_axis(),
            claim: None,
            mistake: None,
        });
        view.scene = self.frame_scene();
        // The document's shapes are edited only at frame 0 of a run of the document.
        view.editable = self.frame() == 0 && self.opened_run_scene().is_none();
        view.claim_and_motion = false;
        view.ghost = self.ghost_scene();
        view.sweeps = self.sweeps();
        view.event = self.event_picture();
        // Every frame of a run moves the shapes.
        view.static_key = hash_of((1u8, self.drawn(), ws.revision()));
        view.frame_key = hash_of((self.drawn(), self.pair.focus_axis()));
        view
    }

    /// The chosen event's picture, while its step is the frame shown.
    pub fn event_picture(&self) -> Option<&crate::picture::EventPicture> {
        let (index, picture) = self.chosen.as_ref()?;
        let event = self.run.as_ref()?.recording.events().get(*index)?;
        picture.as_ref().filter(|_| event.step() == self.frame())
    }

    /// The event chosen in the list, if any.
    pub fn chosen_event(&self) -> Option<&Event> {
        let (index, _) = self.chosen.as_ref()?;
        self.run.as_ref()?.recording.events().get(*index)
    }

    /// What the next run is made with (the panel's fields).
    pub fn settings(&self) -> &RunSettings {
        &self.settings
    }

    /// The configuration the panel describes.
    pub fn config(&self) -> Config {
        self.settings.config()
    }

    /// Run the scene again when it or the settings changed (small scenes only), advance
    /// playback by `elapsed` seconds, and keep the shown frame's scenes.
    pub fn refresh(&mut self, ws: &Workspace, elapsed: f64) {
        let stale = match &self.run {
            None => true,
            Some(run) => {
                run.revision.is_some_and(|r| r != ws.revision())
                    || (run.revision.is_some()
                        && (run.recording.config() != self.config()
                            || run.recording.steps() != self.settings.steps
                            || run.ghost.as_ref().map(|g| g.config().resolver)
                                != self.settings.ghost))
            }
        };
        if stale && ws.scene().shapes.len() <= AUTO_RUN {
            // Shapes are edited only at frame 0: a scene that changed while a later frame was
            // shown was opened (or undone to), so it starts at its beginning.
            let reopened = self
                .run
                .as_ref()
                .is_some_and(|r| r.revision.is_some_and(|v| v != ws.revision()));
            if reopened {
                self.play(PlaybackCommand::First);
            }
            self.run_now(ws);
        }
        let frames = self.frames();
        self.playback.advance(elapsed, &frames);
        self.refresh_plot(ws);
        let Some(run) = &self.run else {
            self.shown = None;
            self.pair.follow(None, None, false);
            return;
        };
        let fresh = self.shown.as_ref().is_none_or(|s| s.frame != self.frame());
        if fresh {
            let recording = &run.recording;
            let frame = self.frame();
            // Borrowed from the blocks the cursor holds decoded: a thousand bodies' states
            // are not copied twice a frame.
            let (before, now) = self.cursor.step(recording, frame);
            // The scene of the last frame shown, its bodies moved: no copy while playing.
            let mut scene = match self.shown.take() {
                Some(shown) => shown.scene,
                None => recording.scene().clone(),
            };
            let ghost = run.ghost.as_ref().and_then(|g| g.scene_at(frame));
            if let Some(now) = now {
                recording.place(&mut scene, now);
            }
            self.sweeps = match (now, before) {
                (Some(now), Some(before)) => {
                    let step = Step {
                        bodies: recording.bodies(),
                        before,
                        now,
                        events: recording.events_of(frame),
                        step: frame,
                        dt: recording.config().dt,
                    };
                    sweeps(&scene, &step)
                }
                _ => Vec::new(),
            };
            self.shown = now.map(|_| FrameShown {
                frame,
                scene,
                ghost,
            });
        }
        let shown = self.shown.as_ref().map(|s| (s.frame, &s.scene));
        self.pair.follow(shown, ws.pair_indices(), fresh);
    }

    /// Run the workspace's scene with the panel's settings.
    fn run_now(&mut self, ws: &Workspace) {
        let config = self.config();
        let (recording, _) = Recording::run(
            Simulation::new(ws.scene().clone(), config),
            self.settings.steps,
        );
        let ghost = self.settings.ghost.map(|resolver| {
            let config = Config { resolver, ..config };
            Recording::run(
                Simulation::new(ws.scene().clone(), config),
                self.settings.steps,
            )
            .0
        });
        self.run_id += 1;
        self.run = Some(Run {
            revision: Some(ws.revision()),
            recording,
            ghost,
            source: "this scene".into(),
        });
        self.shown = None;
        self.chosen = None;
        self.cursor = Cursor::default();
    }

    /// The run's recording and an id that changes whenever another run replaces it.
    pub fn recording(&self) -> Option<(&Recording, u64)> {
        self.run.as_ref().map(|r| (&r.recording, self.run_id))
    }

    /// The last frame of the run (0 without one).
    pub fn last_frame(&self) -> u64 {
        self.run.as_ref().map_or(0, |r| r.recording.steps())
    }

    /// The frame whose scene is held (what the view draws; it follows `frame` at the next
    /// refresh), and how many frames and events the run has: what the view's cache keys on.
    pub fn drawn(&self) -> (Option<u64>, u64, usize, usize) {
        (
            self.shown.as_ref().map(|s| s.frame),
            self.last_frame(),
            self.events().len(),
            self.ghost_events().len(),
        )
    }

    /// What the explained pair says at the frame shown (the verdict, as the pair lab says
    /// it), once the frame is there: what the view draws, not the document at frame 0.
    pub fn said(&self) -> Option<String> {
        let ((a, b), report) = self.pair.report()?;
        let names = text::PairNames::in_scene(self.frame_scene()?, a, b);
        Some(text::step_sentences(report, &names, None, false).join(" "))
    }

    /// The scene at the shown frame, when a run exists.
    pub fn frame_scene(&self) -> Option<&Scene> {
        self.shown.as_ref().map(|s| &s.scene)
    }

    /// The sweeps of the step that led to the shown frame: fast bodies and tunnelled ones.
    pub fn sweeps(&self) -> &[Sweep] {
        &self.sweeps
    }

    /// The ghost resolver's scene at the shown frame.
    pub fn ghost_scene(&self) -> Option<&Scene> {
        self.shown.as_ref().and_then(|s| s.ghost.as_ref())
    }

    /// Every event of the run.
    pub fn events(&self) -> &[Event] {
        self.run.as_ref().map_or(&[], |r| r.recording.events())
    }

    /// Every event of the ghost resolver's run.
    pub fn ghost_events(&self) -> &[Event] {
        self.run
            .as_ref()
            .and_then(|r| r.ghost.as_ref())
            .map_or(&[], |g| g.events())
    }

    /// Another document was opened (or a new one started): a run opened from a file belongs
    /// to the document it was shown with, so it goes and the new scene is run (from frame 0).
    pub fn document_changed(&mut self) {
        if self.run.as_ref().is_some_and(|r| r.revision.is_none()) {
            self.run = None;
            self.shown = None;
            self.cursor = Cursor::default();
        }
        self.play(PlaybackCommand::First);
    }

    /// The scene of the frame shown when the run was opened from a file (not run from the
    /// document): what the shapes panel lists, read-only.
    pub fn opened_run_scene(&self) -> Option<&Scene> {
        self.run
            .as_ref()
            .filter(|r| r.revision.is_none())
            .and_then(|_| self.frame_scene())
    }

    /// The frame shown (0: the scene as it starts).
    pub fn frame(&self) -> u64 {
        self.playback.position
    }

    /// The run's frames as a timeline: frame k at k * dt of the run shown.
    fn frames(&self) -> Frames {
        Frames {
            last: self.last_frame(),
            dt: self
                .run
                .as_ref()
                .map_or(self.settings.dt_s, |r| r.recording.config().dt),
        }
    }

    /// Carry out a playback command on the run's frames.
    pub fn play(&mut self, command: PlaybackCommand) {
        let frames = self.frames();
        self.playback.apply(command, &frames);
    }

    /// The first step after the shown frame with an event (of either run).
    /// What Next event (and E) asks: the run's first event after the frame shown, chosen (its
    /// pair explained and drawn); a ghost run's, only its step shown.
    pub fn next_event_command(&self) -> Option<Command> {
        let step = self.next_event()?;
        Some(match self.events().iter().position(|e| e.step() == step) {
            Some(k) => Command::Motion(MotionCommand::ChooseEvent(k)),
            None => Command::Playback(TimelineId::Motion, PlaybackCommand::Seek(step)),
        })
    }

    /// The chosen event's pair as the document's shape ids, when the run is of the document.
    pub fn chosen_pair(
        &self,
        ws: &Workspace,
    ) -> Option<(crate::scene::ShapeId, crate::scene::ShapeId)> {
        let run = self.run.as_ref()?;
        run.revision?;
        let e = self.chosen_event()?;
        let shapes = &ws.scene().shapes;
        Some((shapes.get(e.a)?.id, shapes.get(e.b)?.id))
    }

    /// The step of the run's (or the ghost run's) first event after the frame shown.
    pub fn next_event(&self) -> Option<u64> {
        self.events()
            .iter()
            .chain(self.ghost_events())
            .map(|e| e.step())
            .filter(|s| *s > self.frame())
            .min()
    }

    /// The panel on the right: settings, the run and its events.
    pub fn ui(&mut self, ui: &mut egui::Ui, ws: &Workspace, naive: bool, out: &mut Commands) {
        self.path
            .follow(ws.document.path.as_deref(), ws.document.data_dir());
        let panel = (crate::app::command::PanelSide::Right, "motion");
        crate::app::side_panel(ui, panel, (360.0, 240.0, 0.42), |ui| {
            egui::ScrollArea::vertical()
                .id_salt("motion lab")
                .show(ui, |ui| {
                    if self.plot.shown && crate::app::labs::plot_panel::on_phone(ui) {
                        self.plot_section(ui, out);
                    }
                    self.panel(ui, ws, out);
                    // The frame's report before the events list, so it is in view.
                    if self.shown.is_some() {
                        ui.separator();
                        self.pair_at_frame(ui, ws, naive);
                        ui.separator();
                    }
                    self.events_list(ui, out);
                });
        });
    }

    fn panel(&mut self, ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
        ui.heading("Motion");
        ui.label(words::MOTION_STEP);
        ui.separator();
        let mut settings = self.settings.clone();
        egui::Grid::new("motion settings").num_columns(2).show(ui, |ui| {
            let label = ui.label("step dt");
            ui.add(egui::DragValue::new(&mut settings.dt_s).speed(0.0005).range(1e-5..=10.0).suffix(" s"))
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("steps");
            ui.add(egui::DragValue::new(&mut settings.steps).speed(1.0).range(1..=100_000))
                .labelled_by(label.id);
            ui.end_row();
            ui.label("substeps");
            ui.horizontal(|ui| {
                ui.checkbox(&mut settings.bound, "bounded")
                    .on_hover_text("as many as it takes for no moving body to move more than (r - e) in one: the tunnelling bound");
                let field = egui::DragValue::new(&mut settings.fixed).range(1..=1000).prefix("fixed ");
                ui.add_enabled(!settings.bound, field).on_hover_text("equal substeps per step");
            });
            ui.end_row();
            let label = ui.label("resolver");
            resolver_combo(ui, "resolver", &mut settings.resolver, label.id);
            ui.end_row();
            ui.label("ghost");
            let mut ghosted = settings.ghost.is_some();
            ui.horizontal(|ui| {
                let check = ui
                    .checkbox(&mut ghosted, "compare with")
                    .on_hover_text("run the same scene with a second resolver, drawn as purple outlines over this one");
                // By default the other side of the comparison: the correct test beside a
                // mistake, the naive rule beside the correct test.
                // With a chain in the scene, the mistake that catches on its seams.
                let chains = ws.scene().shapes.iter().any(|s| s.placed.shape.as_chain().is_some());
                let contrast = match settings.resolver {
                    Resolver::Sat if chains => Resolver::Mistake(crate::query::Mistake::InternalEdge),
                    Resolver::Sat => Resolver::Mistake(crate::query::Mistake::NaiveSmallestOverlap),
                    Resolver::Mistake(_) => Resolver::Sat,
                };
                let mut other = settings.ghost.unwrap_or(contrast);
                if ghosted {
                    resolver_combo(ui, "ghost resolver", &mut other, check.id);
                }
                settings.ghost = ghosted.then_some(other);
            });
            ui.end_row();
        });
        ui.checkbox(&mut settings.ccd, "Continuous collision")
            .on_hover_text("a dynamic body stops at its first contact with a static or kinematic shape (the time of impact) instead of moving through it");
        self.gravity_row(ui, ws, out);
        if settings != self.settings {
            out.push(Command::Motion(MotionCommand::Settings(settings)));
        }
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Run")
                .on_hover_text("run this scene again with these settings")
                .clicked()
            {
                out.push(Command::Motion(MotionCommand::Run));
            }
            if ws.scene().shapes.len() > AUTO_RUN {
                ui.label(RichText::new("big scene: press Run after a change").weak());
            }
        });
        ui.separator();
        self.recording_row(ui, out);
        let Some(run) = &self.run else {
            ui.label("No run yet.");
            return;
        };
        ui.label(format!(
            "Run of {}: {} steps of {} s, resolver {}, substeps {}{}.",
            run.source,
            run.recording.steps(),
            text::number(run.recording.config().dt),
            run.recording.config().resolver,
            run.recording.config().substeps,
            if run.recording.config().ccd {
                ", continuous collision"
            } else {
                ""
            }
        ));
        let events = run.recording.events();
        ui.label(RichText::new(counts(events)).strong());
        if let Some(ghost) = &run.ghost {
            ui.colored_label(
                palette::NAIVE,
                format!(
                    "ghost ({}): {}",
                    ghost.config().resolver,
                    counts(ghost.events())
                ),
            )
            .on_hover_text("its events are the dim ticks in the lower half of the timeline");
        }
    }

    /// The file's gravity, edited as the shapes are (Ctrl+Z undoes it): every dynamic body's
    /// velocity gains g · dt each step. A drag of one field is one undo step.
    fn gravity_row(&mut self, ui: &mut egui::Ui, ws: &Workspace, out: &mut Commands) {
        let gravity = ws.scene().gravity;
        let mut on = gravity.is_some();
        let mut g = gravity.unwrap_or(self.last_gravity);
        let mut dragging = false;
        ui.horizontal(|ui| {
            ui.checkbox(&mut on, "Gravity")
                .on_hover_text(words::GRAVITY_HELP);
            ui.add_enabled_ui(on, |ui| {
                for (axis, value) in [("gx", &mut g.x), ("gy", &mut g.y)] {
                    let label = ui.label(axis);
                    let field = ui
                        .add(egui::DragValue::new(value).speed(0.1).range(-1e9..=1e9))
                        .labelled_by(label.id);
                    if field.drag_started() {
                        self.gravity_gestures += 1;
                    }
                    dragging |= field.dragged();
                    field.on_hover_text(words::GRAVITY_HELP);
                }
            });
        });
        if on {
            self.last_gravity = g;
        }
        let wanted = on.then_some(g);
        if wanted != gravity {
            out.edit(crate::app::document::edit::Edit::Gravity {
                gravity: wanted,
                // Beside the scene view's drags: a range of its own.
                gesture: dragging.then_some(GRAVITY_GESTURES + self.gravity_gestures),
            });
        }
    }

    /// The run's events in sentences; a click shows that step.
    fn events_list(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(run) = &self.run else { return };
        let events = run.recording.events();
        let scene = run.recording.scene();
        let name = |i: usize| scene.shapes[i].display_name(i);
        let mut go = None;
        let chosen = self.chosen.as_ref().map(|(k, _)| *k);
        // Tall enough to read and click in, whatever the panel above it holds.
        egui::ScrollArea::vertical()
            .id_salt("motion events")
            .min_scrolled_height(200.0)
            .max_height(320.0)
            .show(ui, |ui| {
                for (k, e) in events.iter().enumerate().take(500) {
                    let text = RichText::new(e.sentence(name)).color(event_colour(e.kind()));
                    let current = chosen.map_or(e.step() == self.frame(), |c| {
                        c == k && e.step() == self.frame()
                    });
                    if ui
                        .selectable_label(current, text)
                        .on_hover_text(words::EVENT_CLICK)
                        .clicked()
                    {
                        go = Some(k);
                    }
                }
            });
        if let Some(k) = go {
            out.push(Command::Motion(MotionCommand::ChooseEvent(k)));
        }
    }

    /// The selected shape's pose at the frame shown, then the explained pair's report there.
    fn pair_at_frame(&mut self, ui: &mut egui::Ui, ws: &Workspace, naive: bool) {
        let Some(FrameShown { frame, scene, .. }) = &self.shown else {
            return;
        };
        if let Some(i) = ws.selected().and_then(|id| scene.index_of(id)) {
            let s = &scene.shapes[i];
            ui.label(format!(
                "{} at frame {frame}: at {}, angle {}°, velocity {}",
                s.display_name(i),
                text::point(s.placed.pose.position),
                text::number(s.placed.pose.angle().to_degrees()),
                text::point(s.motion.velocity)
            ));
        }
        self.pair.ui(ui, scene, ws.claim(), naive);
    }

    /// The recording path field with Save, Open, Replay and Export fixture: each a command.
    fn recording_row(&mut self, ui: &mut egui::Ui, out: &mut Commands) {
        if !crate::app::platform::HAS_FILES {
            // The browser: a run is saved as a download and opened with the page's picker (or
            // dropped); captures and fixtures are written by the desktop app.
            ui.horizontal_wrapped(|ui| {
                let label = ui.label("Download as:");
                self.path.ui(ui, label.id, 120.0);
                if ui
                    .button("Save run")
                    .on_hover_text("download the run as a recording (replay re-checks it)")
                    .clicked()
                {
                    let name = self
                        .path
                        .path()
                        .unwrap_or_else(|_| PathBuf::from("run.rec"));
                    out.push(Command::Motion(MotionCommand::SaveRun(name)));
                }
                if ui
                    .button("Open run...")
                    .on_hover_text("show a recording from your computer (or drop it on the page)")
                    .clicked()
                {
                    let _ = crate::app::platform::pick_file();
                }
                if ui
                    .button("Replay")
                    .on_hover_text(
                        "run the shown run's scene again and compare every step bit for bit",
                    )
                    .clicked()
                {
                    out.push(Command::Motion(MotionCommand::Replay));
                }
                if ui
                    .button("Export fixture of this frame")
                    .on_hover_text("download the fixture that pins every pair of the frame shown")
                    .clicked()
                {
                    let name = self
                        .path
                        .path()
                        .unwrap_or_else(|_| PathBuf::from("run.rec"));
                    out.push(Command::Motion(MotionCommand::ExportFrame(name)));
                }
            });
            ui.weak(words::DESKTOP_RUN_CAPTURE);
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Recording:");
            self.path.ui(ui, label.id, 140.0);
        });
        ui.horizontal_wrapped(|ui| {
            let path = self.path.path();
            let with_path = |make: fn(PathBuf) -> MotionCommand| match &path {
                Ok(p) => Command::Motion(make(p.clone())),
                Err(e) => Command::Say(Message {
                    text: e.clone(),
                    error: true,
                }),
            };
            if ui
                .button("Save run")
                .on_hover_text("write the run as a recording (replay re-checks it)")
                .clicked()
            {
                out.push(with_path(MotionCommand::SaveRun));
            }
            if ui
                .button("Save as capture")
                .on_hover_text("write the run as a capture beside the recording path (STEM.capture.jsonl.gz), this resolver as the engine: open it in the capture lab, or run collidoscope diagnose on it")
                .clicked()
            {
                out.push(with_path(MotionCommand::SaveCapture));
            }
            if ui
                .button("Open run")
                .on_hover_text("show a recording written by simulate --record or by Save run")
                .clicked()
            {
                out.push(with_path(MotionCommand::OpenRun));
            }
            if ui
                .button("Replay")
                .on_hover_text("run the shown run's scene again (Open run first to check a file) and compare every step bit for bit")
                .clicked()
            {
                out.push(Command::Motion(MotionCommand::Replay));
            }
            if ui
                .button("Export fixture of this frame")
                .on_hover_text("pin every pair of the frame shown, next to the recording path")
                .clicked()
            {
                out.push(with_path(MotionCommand::ExportFrame));
            }
        });
    }

    /// Show `recording` (read from `source`) as the run: the panel takes its settings.
    fn show_run(&mut self, recording: Recording, source: String) -> String {
        // The panel describes the run shown: its settings are the run's.
        self.settings = RunSettings::of(&recording, self.settings.fixed);
        self.run_id += 1;
        self.chosen = None;
        let said = format!("opened {source}");
        self.run = Some(Run {
            revision: None,
            recording,
            ghost: None,
            source,
        });
        self.shown = None;
        self.cursor = Cursor::default();
        self.play(PlaybackCommand::First);
        said
    }

    /// Carry out a command of the lab; what it did, for the status bar (settings say nothing).
    pub fn apply(&mut self, command: MotionCommand, ws: &Workspace) -> Option<Message> {
        let ok = |text: String| Some(Message { text, error: false });
        let failed = |text: String| Some(Message { text, error: true });
        match command {
            MotionCommand::Settings(settings) => {
                self.settings = settings;
                None
            }
            MotionCommand::PlotWhat(what) => {
                self.plot.what = what;
                None
            }
            MotionCommand::Run => {
                self.run_now(ws);
                self.play(PlaybackCommand::First);
                let run = self.run.as_ref().expect("just run");
                ok(format!(
                    "ran this scene: {} steps; {}",
                    run.recording.steps(),
                    counts(run.recording.events())
                ))
            }
            // In the browser a save is a download named as the path's file.
            MotionCommand::SaveRun(path) if !crate::app::platform::HAS_FILES => match &self.run {
                None => failed("no run to save".into()),
                Some(run) => {
                    let name = path
                        .file_name()
                        .map_or("run.rec".into(), |n| n.to_string_lossy().into_owned());
                    match crate::app::platform::download(&name, &run.recording.to_bytes()) {
                        Ok(()) => ok(words::downloaded(&name)),
                        Err(e) => failed(e),
                    }
                }
            },
            MotionCommand::SaveRun(path) => match &self.run {
                None => failed("no run to save".into()),
                Some(run) => match run.recording.save(&path) {
                    Ok(()) => ok(format!("saved {}", path.display())),
                    Err(e) => failed(e.to_string()),
                },
            },
            MotionCommand::SaveCapture(path) => match &self.run {
                None => failed("no run to save".into()),
                Some(run) => {
                    let stem = path
                        .file_stem()
                        .map_or("run".into(), |s| s.to_string_lossy());
                    let target = path.with_file_name(format!("{stem}.capture.jsonl.gz"));
                    match crate::capture::save_run(&run.recording, &target) {
                        Ok(()) => ok(format!(
                            "saved the run as a capture: {} (open it to judge its contacts)",
                            target.display()
                        )),
                        Err(e) => failed(e.to_string()),
                    }
                }
            },
            MotionCommand::OpenRun(path) => match Recording::load(&path) {
                Err(e) => failed(e.to_string()),
                Ok(recording) => ok(self.show_run(recording, path.display().to_string())),
            },
            MotionCommand::OpenRunBytes { name, bytes } => {
                match Recording::parse(std::path::Path::new(&name), &bytes) {
                    Err(e) => failed(e.to_string()),
                    Ok(recording) => ok(self.show_run(recording, name)),
                }
            }
            MotionCommand::Replay => match &self.run {
                None => failed("no run to replay".into()),
                Some(run) => match replay(&run.recording) {
                    Ok(steps) => ok(format!(
                        "the run shown ({}) is identical: {steps} steps replayed bit for bit",
                        run.source
                    )),
                    Err(d) => failed(format!(
                        "the run shown ({}) diverges at step {} (shape {})",
                        run.source, d.step, d.shape
                    )),
                },
            },
            MotionCommand::ChooseEvent(k) => {
                let run = self.run.as_ref()?;
                let recording = &run.recording;
                let event = recording.events().get(k)?.clone();
                let picture = match (
                    recording.scene_at(event.step().saturating_sub(1)),
                    recording.scene_at(event.step()),
                ) {
                    (Some(before), Some(now)) => {
                        crate::picture::run_event_picture(&event, &before, &now)
                    }
                    _ => None,
                };
                let scene = recording.scene();
                let said = event.sentence(|i: usize| scene.shapes[i].display_name(i));
                self.chosen = Some((k, picture));
                self.play(PlaybackCommand::Seek(event.step()));
                ok(said)
            }
            MotionCommand::ExportFrame(path) => match self.frame_scene() {
                None => failed("no frame to export".into()),
                Some(scene) => {
                    let target = path.with_file_name(format!("frame-{}.json", self.frame()));
                    match crate::app::platform::export_fixture(scene, None, &target, None) {
                        Ok(written) => ok(written.join("; ")),
                        Err(e) => failed(e),
                    }
                }
            },
        }
    }

    /// The timeline under the scene: the transport buttons, the scrubber with a marker for
    /// every event, the speed and loop. It reads the playback and pushes commands.
    pub fn timeline(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let mut next = None;
        let mut play = |c: PlaybackCommand| out.push(Command::Playback(TimelineId::Motion, c));
        egui::Panel::bottom("timeline").show(ui, |ui| {
            let last = self.last_frame();
            let playback = &self.playback;
            ui.horizontal_wrapped(|ui| {
                let tips = [
                    "first frame",
                    "step back",
                    "play the run (space)",
                    "step forward",
                    "last frame",
                ];
                if let Some(c) = crate::app::transport(ui, playback.playing, tips) {
                    play(c);
                }
                if ui
                    .button("Next event")
                    .on_hover_text("jump to the next step with an event, its pair explained and the event drawn")
                    .clicked()
                    && let Some(c) = self.next_event_command()
                {
                    next = Some(c);
                }
                for c in crate::app::loop_speed_slider(ui, playback, "speed", last) {
                    play(c);
                }
                ui.label(format!(
                    "t = {} s",
                    text::number(playback.position as f64 * self.frames().dt)
                ));
            });
            if let Some(k) = self.strip(ui, last) {
                play(PlaybackCommand::Seek(k));
            }
        });
        if let Some(c) = next {
            out.push(c);
        }
    }

    /// The scrubbing strip: the run as a bar, the shown frame as a line, every event a tick in
    /// its kind's colour; hover a tick for its sentence. Returns the frame clicked or dragged
    /// to.
    fn strip(&self, ui: &mut egui::Ui, last: u64) -> Option<u64> {
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), 30.0),
            egui::Sense::click_and_drag(),
        );
        let painter = ui.painter_at(rect);
        let look = crate::app::widgets::StripLook::of(ui);
        painter.rect_filled(rect, 3.0, look.ground);
        let x_of = |step: u64| rect.left() + rect.width() * (step as f32 / last.max(1) as f32);
        let scene = self.run.as_ref().map(|r| r.recording.scene().clone());
        let mut hovered = Vec::new();
        for e in self.events() {
            let x = x_of(e.step());
            let colour = egui::Color32::from(event_colour(e.kind()));
            let row = EventKind::ALL
                .iter()
                .position(|k| *k == e.kind())
                .unwrap_or(0) as f32;
            let (top, bottom) = (rect.top() + 1.0 + row * 3.0, rect.top() + 3.5 + row * 3.0);
            painter.line_segment([egui::pos2(x, top), egui::pos2(x, bottom)], (2.0, colour));
            if let Some(p) = response.hover_pos()
                && (p.x - x).abs() <= 3.0
                && p.y <= rect.center().y
            {
                hovered.push((e.clone(), false));
            }
        }
        for e in self.ghost_events() {
            let x = x_of(e.step());
            let colour = egui::Color32::from(palette::faded(event_colour(e.kind()), 120));
            painter.line_segment(
                [
                    egui::pos2(x, rect.center().y + 2.0),
                    egui::pos2(x, rect.bottom() - 1.0),
                ],
                (2.0, colour),
            );
            if let Some(p) = response.hover_pos()
                && (p.x - x).abs() <= 3.0
                && p.y > rect.center().y
            {
                hovered.push((e.clone(), true));
            }
        }
        let x = x_of(self.frame());
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
            (2.0, look.marker),
        );
        let scrubbed = (response.clicked() || response.dragged())
            .then(|| response.interact_pointer_pos())
            .flatten()
            .map(|p| {
                let share = ((p.x - rect.left()) / rect.width()).clamp(0.0, 1.0);
                (share as f64 * last as f64).round() as u64
            });
        if !hovered.is_empty()
            && let Some(scene) = scene
        {
            let name = |i: usize| scene.shapes[i].display_name(i);
            let ghost = self.settings.ghost.map(|r| r.name()).unwrap_or("ghost");
            let text: Vec<String> = hovered
                .iter()
                .take(6)
                .map(|(e, in_ghost)| match in_ghost {
                    true => format!("ghost run ({ghost}): {}", e.sentence(name)),
                    false => e.sentence(name),
                })
                .collect();
            response.on_hover_text(text.join("\n"));
        } else {
            response.on_hover_text("the run: click or drag to show a frame; ticks are events (upper half this run's, rows pushed-in, tunnelled, pushed-through, normal-flip, still-penetrating; lower half the ghost's)");
        }
        scrubbed
    }
}

/// A resolver chooser, named by the label `label`.
fn resolver_combo(ui: &mut egui::Ui, id: &str, resolver: &mut Resolver, label: egui::Id) {
    egui::ComboBox::from_id_salt(id)
        .selected_text(resolver.name())
        .show_ui(ui, |ui| {
            for r in Resolver::all() {
                ui.selectable_value(resolver, r, r.name());
            }
        })
        .response
        .labelled_by(label)
        .on_hover_text(
            "sat: the correct test; the others: the known mistakes, to watch one over time",
        );
}

/// The colour of an event's marker and sentence.
fn event_colour(kind: EventKind) -> crate::picture::Colour {
    match kind {
        EventKind::PushedIn => palette::NAIVE,
        EventKind::Tunnelled | EventKind::PushedThrough => palette::MTV,
        EventKind::NormalFlip => palette::DECIDING,
        EventKind::StillPenetrating => palette::OTHER_HIT,
        EventKind::Caught | EventKind::Seam => palette::CLAIMED,
        EventKind::Stale => palette::OTHER_HIT,
    }
}
