//! The latency lab: a game server's packet log played in arrival order through the core's
//! latency-aware engine. The panel loads, saves or generates a log (from the motion lab's run
//! over a network model), sets the bucket step and swept contacts, and counts what was found,
//! how late (a histogram) and what was taken back; the timeline under the scene is the engine's
//! table (rows bucket times, columns players) with the collisions and arrows from their
//! detection back to their bucket; the scene shows the players' poses at the chosen bucket as
//! the server knows them then (interpolated ones dashed, the true ones as thin outlines).

pub(crate) mod latency_timeline;
pub(crate) mod latency_work;

use crate::app::command::Message;
use crate::app::command::{Command, Commands, LatencyCommand, PlaybackCommand, TimelineId};
use crate::app::document::path_field::PathField;
use crate::app::document::workspace::Workspace;
use crate::app::lab_view::{LabView, PairShown, hash_of};
use crate::app::labs::latency_lab::latency_work::{Digest, EngineWorker, TimelineFinding};
use crate::app::playback::{Playback, Timeline};
use crate::app::words;
use crate::geometry::Placed;
use crate::latency::{Collision, Network, Packet, PacketEngine, PacketLog, Settings, generate};
use crate::motion::Recording;
use crate::picture::draw::{LatencyCollision, LatencyShown};
use crate::scene::{Scene, SceneShape};
use crate::text;
use eframe::egui::{self, RichText};
use egui_plot::{Bar, BarChart, Plot};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a frame waits for the engine's work before showing what it had: work that takes
/// less (most packets) shows in the same frame.
const WORK_WAIT: Duration = Duration::from_millis(8);

/// The LACE article's three players, shown when the scene has no moving bodies to make a log
/// from.
pub const EXAMPLE_LOG: &str = include_str!("../../../../logs/lace-three-players.json");

/// A loaded log: where it came from, and the run it was made from (its true paths).
struct Source {
    log: Arc<PacketLog>,
    name: String,
    truth: Option<Recording>,
    /// The motion run's revision it was generated from (`None`: opened or the example).
    from_run: Option<(u64, u64)>,
    /// The earliest and latest `sent` (what the timeline's rows span).
    sent: Option<(f64, f64)>,
}

/// The players at the bucket shown, as the server knows them after the packets taken.
pub struct BucketView {
    key: (usize, i64, u64),
    /// Players with a pose there, as shapes (ids are player indices).
    pub scene: Scene,
    /// Per shape of `scene`: interpolated (not received) there.
    pub interpolated: Vec<bool>,
    /// The true poses then (from the recording the log came from).
    pub truth: Option<Scene>,
    /// The collisions standing at the bucket (swept ones: between it and the next).
    pub collisions: Vec<LatencyCollision>,
}

/// The lab's state.
pub struct LatencyLab {
    /// The engine's bucket step and swept contacts (the panel's fields).
    settings: Settings,
    /// The network model for generated logs.
    network: Network,
    /// The log path field (beside the open document by default).
    pub path: PathField,
    source: Option<Source>,
    /// The engine shown (its work done on `worker`, which it is lent to while that carries on
    /// from it).
    engine: Option<PacketEngine>,
    /// What the panel and the timeline show of the engine (kept while it is lent).
    digest: Digest,
    worker: EngineWorker,
    /// A packet the engine refused at some settings: those settings, its place in the log and
    /// why (those after it are left out at those settings; other settings try it again).
    refused: Option<(Settings, usize, String)>,
    /// Cancel stopped work carried on from the engine shown: playback stops at the packets
    /// it had taken when it comes back.
    stop_where_done: bool,
    /// How many packets were taken, in arrival order (the server's knowledge), and how they
    /// play.
    pub playback: Playback,
    /// The bucket shown in the scene (its index: time = index * step); `None` until a log's
    /// engine is made, then the first collision's.
    bucket: Option<i64>,
    /// Bumped whenever the engine is made anew (new log, step or swept).
    generation: u64,
    shown: Option<BucketView>,
    /// The players at their first and last packets (what the view fits).
    extent: Scene,
    /// A new log came: the view should fit it.
    wants_fit: bool,
}

impl Default for LatencyLab {
    fn default() -> Self {
        Self {
            settings: Settings {
                step_ms: 25.0,
                swept: true,
            },
            network: Network::default(),
            path: PathField::new(".log.json"),
            source: None,
            engine: None,
            digest: Digest::default(),
            worker: EngineWorker::default(),
            refused: None,
            stop_where_done: false,
            playback: Playback::new(0.25),
            bucket: None,
            generation: 0,
            shown: None,
            extent: Scene::default(),
            wants_fit: false,
        }
    }
}

impl BucketView {
    /// Packets taken, bucket and engine generation it was made for (what the view keys on).
    pub fn key(&self) -> (usize, i64, u64) {
        self.key
    }
}

impl LatencyLab {
    /// What the view draws in this lab: the players at the bucket shown as the server knows
    /// them (not the document's shapes: nothing to grab), and fits every place they are seen.
    pub fn view(&self) -> LabView<'_> {
        let mut view = LabView::document(PairShown::None);
        let shown = self.shown();
        view.scene = shown.map(|s| &s.scene);
        view.fit_scene = Some(self.fit_scene());
        view.editable = false;
        view.document_shapes = false;
        view.claim_and_motion = false;
        view.latency = shown.map(|s| LatencyShown {
            interpolated: &s.interpolated,
            truth: s.truth.as_ref(),
            collisions: &s.collisions,
        });
        // Its players are placed anew at every bucket and packet.
        let key = shown.map(|s| s.key());
        view.static_key = hash_of((2u8, key));
        view.frame_key = hash_of(key);
        view
    }

    /// The engine's settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// The network model for generated logs.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The log, when one is loaded.
    pub fn log(&self) -> Option<&PacketLog> {
        self.source.as_ref().map(|s| &*s.log)
    }

    /// The engine after the packets taken.
    pub fn engine(&self) -> Option<&PacketEngine> {
        self.engine.as_ref()
    }

    /// The players at the bucket shown.
    pub fn shown(&self) -> Option<&BucketView> {
        self.shown.as_ref()
    }

    /// What the view fits: the players at the bucket shown, or (none there) at their first
    /// and last packets.
    pub fn fit_scene(&self) -> &Scene {
        match &self.shown {
            Some(s) if !s.scene.shapes.is_empty() => &s.scene,
            _ => &self.extent,
        }
    }

    /// Whether a new log asks the view to fit it (asked once).
    pub fn take_fit(&mut self) -> bool {
        std::mem::take(&mut self.wants_fit)
    }

    /// The time of the bucket shown (ms).
    pub fn bucket_time(&self) -> f64 {
        self.bucket.unwrap_or(0) as f64 * self.shown_step()
    }

    /// Show this log (from `name`), all its packets taken, at its first collision's bucket.
    pub fn load(&mut self, log: PacketLog, name: String, truth: Option<Recording>) {
        self.extent = log.extent();
        self.wants_fit = true;
        self.source = Some(Source {
            sent: log.sent_range(),
            log: Arc::new(log),
            name,
            truth,
            from_run: None,
        });
        self.worker.cancel();
        self.engine = None;
        self.digest = Digest::default();
        self.refused = None;
        // Every packet taken (clamped to the log at the next refresh).
        self.playback.position = u64::MAX;
        self.playback.playing = false;
        self.bucket = None;
    }

    /// Keep the log, the engine and the shown bucket up to date: make a log from the motion
    /// run when there is none (the example when the run has no moving bodies), advance
    /// playback by `elapsed` seconds.
    pub fn refresh(&mut self, run: Option<(&Recording, u64)>, elapsed: f64) {
        let follows_run = self.source.as_ref().is_none_or(|s| s.from_run.is_some());
        if let Some((recording, revision)) = run {
            let key = Some((revision, recording.steps()));
            let stale = self.source.as_ref().is_none_or(|s| s.from_run != key);
            if follows_run && stale && !recording.bodies().is_empty() {
                self.generate_from(recording, revision);
            }
        }
        if self.source.is_none() {
            let log = PacketLog::parse(
                std::path::Path::new("lace-three-players.json"),
                EXAMPLE_LOG.as_bytes(),
            )
            .expect("the example log is valid");
            self.load(log, "the LACE example".into(), None);
        }
        let Some(source) = &self.source else { return };
        self.playback
            .advance(elapsed, &Arrivals(&source.log.packets));
        self.work();
        let (Some(source), Some(engine)) = (&self.source, &self.engine) else {
            return;
        };
        let bucket = *self
            .bucket
            .get_or_insert_with(|| engine.opening_bucket(source.sent));
        let key = (engine.packets(), bucket, self.generation);
        if self.shown.as_ref().is_none_or(|s| s.key != key) {
            self.shown = Some(shown_at(source, engine, &self.digest, bucket, key));
        }
    }

    /// Have the engine take the packets arrived at the panel's settings, on the worker: the
    /// latest asked for wins (work for other settings or packets is stopped, its engine kept
    /// to carry on from); work done within [`WORK_WAIT`] shows in this frame.
    fn work(&mut self) {
        let Some(source) = &self.source else { return };
        let (settings, upto) = self.wanted();
        match self.worker.busy() {
            Some(busy) if (busy.settings, busy.upto) == (settings, upto) => {}
            Some(_) => self.worker.cancel(),
            None if self.current() => return,
            None => {
                // Carried on from the engine shown when it is of these settings and not past
                // the packets asked for; else made anew (the one shown stays until then).
                let carry = self
                    .engine
                    .as_ref()
                    .is_some_and(|e| e.settings() == settings && e.packets() <= upto);
                let engine = if carry { self.engine.take() } else { None };
                self.worker
                    .start(source.log.clone(), settings, upto, engine);
            }
        }
        let Some(done) = self.worker.take(WORK_WAIT) else {
            return;
        };
        // Work for settings no longer wanted (the step field passed through them, or Cancel
        // went back) is shown only when there is nothing else to show.
        if done.engine.settings() != self.settings && self.engine.is_some() {
            return;
        }
        if std::mem::take(&mut self.stop_where_done) {
            self.playback.position = done.engine.packets() as u64;
        }
        let fresh = self.engine.as_ref().is_none_or(|e| {
            e.settings() != done.engine.settings() || e.packets() > done.engine.packets()
        });
        if fresh {
            self.generation += 1;
            // The same time shown at the new step.
            let old_step = self.shown_step();
            if let Some(k) = &mut self.bucket {
                let time = *k as f64 * old_step;
                *k = (time / done.engine.settings().step_ms).floor() as i64;
            }
        }
        if let Some((at, e)) = done.refused {
            let settings = done.engine.settings();
            self.refused = Some((settings, at, words::packet_refused(at, &e.to_string())));
        }
        self.engine = Some(done.engine);
        self.digest = done.digest;
    }

    /// The settings of the engine shown (the panel's until there is one): while one for new
    /// settings is being made, the old one's buckets, rows and times are shown.
    pub fn shown_settings(&self) -> Settings {
        self.engine.as_ref().map_or(self.settings, |e| e.settings())
    }

    /// The bucket step of the engine shown.
    pub fn shown_step(&self) -> f64 {
        self.shown_settings().step_ms
    }

    /// The engine's work under way: packets taken so far and to take.
    pub fn working(&self) -> Option<(usize, usize)> {
        self.worker.busy().map(|b| (b.progress(), b.upto))
    }

    /// The settings and the packets the engine is to have taken: those arrived, short of a
    /// packet refused and those after it.
    fn wanted(&self) -> (Settings, usize) {
        let arrived = self.arrived();
        let upto = match &self.refused {
            Some((refused_at, at, _)) if *refused_at == self.settings => arrived.min(*at),
            _ => arrived,
        };
        (self.settings, upto)
    }

    /// Whether the engine shown is the one wanted.
    fn current(&self) -> bool {
        let (settings, upto) = self.wanted();
        self.engine
            .as_ref()
            .is_some_and(|e| e.settings() == settings && e.packets() == upto)
    }

    /// Wait until the engine shown is the one wanted (tests, and a page's first frame).
    pub fn settle(&mut self) {
        while self.source.is_some() && !(self.worker.busy().is_none() && self.current()) {
            self.work();
        }
    }

    fn generate_from(&mut self, recording: &Recording, revision: u64) {
        let log = generate(recording, &self.network);
        self.load(log, "the motion lab's run".into(), Some(recording.clone()));
        if let Some(s) = &mut self.source {
            s.from_run = Some((revision, recording.steps()));
        }
    }

    /// The first and last bucket of the whole log (by `sent`).
    pub fn bucket_range(&self) -> Option<(i64, i64)> {
        let (lo, hi) = self.source.as_ref()?.sent?;
        Some((
            (lo / self.shown_step()).floor() as i64,
            (hi / self.shown_step()).ceil() as i64,
        ))
    }

    /// What the lab shows, in a sentence: the moment, the packets arrived by then and the
    /// collisions standing there (the document's pair is not drawn here, so its verdict would
    /// speak of shapes the view does not show).
    pub fn said(&self) -> Option<String> {
        let shown = self.shown()?;
        let total = self.log()?.packets.len();
        Some(words::latency_state(
            self.bucket_time(),
            (self.arrived(), total),
            shown.collisions.iter().map(|c| c.text.as_str()),
        ))
    }

    /// How many packets have been taken, in arrival order.
    pub fn arrived(&self) -> usize {
        let total = self.log().map_or(0, |l| l.packets.len());
        (self.playback.position as usize).min(total)
    }

    /// The bucket shown (its index: time = index * step).
    pub fn bucket(&self) -> i64 {
        self.bucket.unwrap_or(0)
    }

    /// Carry out a playback command on the log's packets (arrival order).
    pub fn play(&mut self, command: PlaybackCommand) {
        let Some(source) = &self.source else { return };
        self.playback.apply(command, &Arrivals(&source.log.packets));
    }

    /// Carry out a command on what the lab shows (`run`: the motion lab's, for Generate);
    /// buckets stay within the log. What it did, for the status bar.
    pub fn apply(
        &mut self,
        command: LatencyCommand,
        run: Option<(&Recording, u64)>,
    ) -> Option<Message> {
        let ok = |text: String| Some(Message { text, error: false });
        let failed = |text: String| Some(Message { text, error: true });
        let bucket = match command {
            LatencyCommand::Settings(settings) => {
                self.settings = settings;
                return None;
            }
            LatencyCommand::Network(network) => {
                self.network = network;
                return None;
            }
            LatencyCommand::StepBucket(delta) => self.bucket().saturating_add(delta),
            LatencyCommand::ShowBucket(k) => k,
            LatencyCommand::OpenLog(path) => {
                return match PacketLog::load(&path) {
                    Err(e) => failed(e.to_string()),
                    Ok(log) => {
                        let text =
                            format!("opened {}: {} packets", path.display(), log.packets.len());
                        self.load(log, path.display().to_string(), None);
                        ok(text)
                    }
                };
            }
            LatencyCommand::OpenLogBytes { name, bytes } => {
                return match PacketLog::parse(std::path::Path::new(&name), &bytes) {
                    Err(e) => failed(e.to_string()),
                    Ok(log) => {
                        let text = format!("opened {name}: {} packets", log.packets.len());
                        self.load(log, name, None);
                        ok(text)
                    }
                };
            }
            // In the browser a save is a download named as the path's file.
            LatencyCommand::SaveLog(path) if !crate::app::platform::HAS_FILES => {
                let name = path
                    .file_name()
                    .map_or("log.json".into(), |n| n.to_string_lossy().into_owned());
                return match &self.source {
                    None => failed("no log to save".into()),
                    Some(source) => {
                        match crate::app::platform::download(&name, source.log.to_json().as_bytes())
                        {
                            Ok(()) => ok(words::downloaded(&name)),
                            Err(e) => failed(e),
                        }
                    }
                };
            }
            LatencyCommand::SaveLog(path) => {
                return match &self.source {
                    None => failed("no log to save".into()),
                    Some(source) => match source.log.save(&path) {
                        Ok(()) => ok(format!("saved {}", path.display())),
                        Err(e) => failed(e.to_string()),
                    },
                };
            }
            LatencyCommand::Example => {
                self.source = None;
                self.refresh(None, 0.0);
                return ok("the LACE article's three players".into());
            }
            LatencyCommand::Cancel => {
                self.worker.busy()?;
                self.worker.cancel();
                self.playback.playing = false;
                match &self.engine {
                    // Back to the settings of the engine shown; its work for others is dropped.
                    Some(shown) => self.settings = shown.settings(),
                    // The work carried on from the engine shown: stop where it got to.
                    None => self.stop_where_done = true,
                }
                return ok("stopped the engine's work".into());
            }
            LatencyCommand::Generate => {
                return match run {
                    Some((recording, revision)) if !recording.bodies().is_empty() => {
                        self.generate_from(recording, revision);
                        let n = self.log().map_or(0, |l| l.packets.len());
                        ok(format!("generated {n} packets"))
                    }
                    _ => failed("the motion lab's run has no moving bodies".into()),
                };
            }
        };
        let (lo, hi) = self.bucket_range()?;
        self.bucket = Some(bucket.clamp(lo, hi));
        None
    }

    /// The panel on the right.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        ws: &Workspace,
        run: Option<(&Recording, u64)>,
        out: &mut Commands,
    ) {
        self.path
            .follow(ws.document.path.as_deref(), ws.document.data_dir());
        let panel = (crate::app::command::PanelSide::Right, "latency");
        crate::app::side_panel(ui, panel, (380.0, 240.0, 0.42), |ui| {
            egui::ScrollArea::vertical()
                .id_salt("latency lab")
                .show(ui, |ui| self.panel(ui, run, out));
        });
    }

    fn panel(&mut self, ui: &mut egui::Ui, run: Option<(&Recording, u64)>, out: &mut Commands) {
        ui.heading("Late packets");
        ui.label("A server gets its players' position packets late, out of order or never. Each packet goes into the time it was sent; poses between packets are interpolated; every bucket row a packet changes is checked again, so collisions are found in the past and taken back when a later packet shows the players apart (LACE; lag compensation).");
        ui.separator();
        self.log_row(ui, out);
        self.generate_row(ui, run, out);
        ui.separator();
        let mut settings = self.settings;
        egui::Grid::new("latency settings").num_columns(2).show(ui, |ui| {
            let label = ui.label("bucket step");
            ui.add(egui::DragValue::new(&mut settings.step_ms).speed(0.5).range(0.001..=10_000.0).max_decimals(6).suffix(" ms"))
                .labelled_by(label.id)
                .on_hover_text("buckets are the multiples of the step; each is a row of the timeline");
            ui.end_row();
            ui.label("");
            ui.checkbox(&mut settings.swept, "swept contacts")
                .on_hover_text("also find first contacts between two buckets that neither bucket saw (time of impact along the interpolated tracks)");
            ui.end_row();
        });
        if settings != self.settings {
            out.push(Command::Latency(LatencyCommand::Settings(settings)));
        }
        let Some(source) = &self.source else {
            return;
        };
        ui.separator();
        let taken = self.engine.as_ref().map(|e| e.packets());
        ui.label(words::latency_arrived(
            &source.name,
            source.log.players.len(),
            (self.arrived(), source.log.packets.len()),
            taken.filter(|n| *n < self.arrived() && self.working().is_none()),
        ));
        if let Some((done, upto)) = self.working() {
            ui.horizontal(|ui| {
                let part = done as f32 / upto.max(1) as f32;
                ui.add(
                    egui::ProgressBar::new(part)
                        .desired_width(200.0)
                        .text(format!("taking packets: {done} of {upto}")),
                );
                if ui
                    .button("Cancel")
                    .on_hover_text("stop: keep the engine shown (or the packets taken so far)")
                    .clicked()
                {
                    out.push(Command::Latency(LatencyCommand::Cancel));
                }
            });
        }
        let shown = self.shown_settings();
        if self.working().is_some() && shown != self.settings && self.engine.is_some() {
            ui.label(RichText::new(words::latency_shown_until(shown.step_ms, shown.swept)).weak());
        }
        if let Some((_, _, why)) = self
            .refused
            .as_ref()
            .filter(|(at, _, _)| *at == self.shown_settings())
        {
            ui.colored_label(egui::Color32::from(crate::picture::palette::INVALID), why);
        }
        if self.engine.is_none() && self.working().is_some() {
            return;
        }
        let digest = &self.digest;
        let counts = digest.counts;
        ui.label(
            RichText::new(format!(
                "{} collision{} ({} swept), {} retracted, {} standing",
                counts.collisions,
                if counts.collisions == 1 { "" } else { "s" },
                counts.swept,
                counts.retracted,
                counts.standing
            ))
            .strong(),
        );
        lateness_histogram(ui, digest.lateness.as_ref());
        let mut go = None;
        egui::ScrollArea::vertical()
            .id_salt("latency findings")
            .max_height(240.0)
            .show(ui, |ui| {
                for (packet, time, line, retraction) in &digest.findings {
                    let (packet, time, retraction) = (*packet, *time, *retraction);
                    let colour = if retraction {
                        egui::Color32::GRAY
                    } else {
                        egui::Color32::from(crate::picture::palette::MTV)
                    };
                    if ui
                        .selectable_label(false, RichText::new(line).color(colour))
                        .on_hover_text(
                            "show its bucket, as the server knew it just after that packet",
                        )
                        .clicked()
                    {
                        go = Some((packet + 1, time));
                    }
                }
            });
        if let Some((n, time)) = go {
            out.push(Command::Playback(
                TimelineId::Latency,
                PlaybackCommand::Seek(n as u64),
            ));
            out.push(Command::Latency(LatencyCommand::ShowBucket(
                (time / self.shown_step()).floor() as i64,
            )));
        }
    }

    fn log_row(&mut self, ui: &mut egui::Ui, out: &mut Commands) {
        ui.horizontal_wrapped(|ui| {
            if !crate::app::platform::HAS_FILES {
                // The browser: open with the page's picker (a packet log chosen or dropped
                // comes to this lab), save as a download named in the field.
                let label = ui.label("Download as:");
                self.path.ui(ui, label.id, 120.0);
                if ui
                    .button("Open log...")
                    .on_hover_text("read a packet log (collidoscope-packets) from your computer, or drop it on the page")
                    .clicked()
                {
                    let _ = crate::app::platform::pick_file();
                }
                if ui.button("Save log").on_hover_text("download the log shown").clicked() {
                    let name = self.path.path().unwrap_or_else(|_| PathBuf::from("log.json"));
                    out.push(Command::Latency(LatencyCommand::SaveLog(name)));
                }
                if ui
                    .button("LACE example")
                    .on_hover_text("the three players of the LACE article")
                    .clicked()
                {
                    out.push(Command::Latency(LatencyCommand::Example));
                }
                return;
            }
            let label = ui.label("Log:");
            self.path.ui(ui, label.id, 160.0);
            let path = self.path.path();
            let with_path = |make: fn(PathBuf) -> LatencyCommand| match &path {
                Ok(p) => Command::Latency(make(p.clone())),
                Err(e) => Command::Say(Message {
                    text: e.clone(),
                    error: true,
                }),
            };
            if ui
                .button("Open log")
                .on_hover_text("read a packet log (collidoscope-packets)")
                .clicked()
            {
                out.push(with_path(LatencyCommand::OpenLog));
            }
            if ui
                .button("Save log")
                .on_hover_text("write the log shown (atomically)")
                .clicked()
            {
                out.push(with_path(LatencyCommand::SaveLog));
            }
            if ui
                .button("LACE example")
                .on_hover_text("the three players of the LACE article")
                .clicked()
            {
                out.push(Command::Latency(LatencyCommand::Example));
            }
        });
    }

    fn generate_row(
        &mut self,
        ui: &mut egui::Ui,
        run: Option<(&Recording, u64)>,
        out: &mut Commands,
    ) {
        egui::CollapsingHeader::new("Generate from the motion lab's run")
            .id_salt("latency generate")
            .default_open(true)
            .show(ui, |ui| {
                let mut network = self.network;
                let n = &mut network;
                egui::Grid::new("latency network").num_columns(4).show(ui, |ui| {
                    let label = ui.label("latency");
                    ui.add(egui::DragValue::new(&mut n.latency_ms).range(0.0..=5000.0).suffix(" ms")).labelled_by(label.id);
                    let label = ui.label("jitter");
                    ui.add(egui::DragValue::new(&mut n.jitter_ms).range(0.0..=5000.0).suffix(" ms")).labelled_by(label.id)
                        .on_hover_text("each packet's latency is off by up to this, either way: above the send interval it reorders packets");
                    ui.end_row();
                    let label = ui.label("loss");
                    ui.add(egui::DragValue::new(&mut n.loss).speed(0.005).range(0.0..=1.0)).labelled_by(label.id)
                        .on_hover_text("the chance a packet never arrives");
                    let label = ui.label("reorder");
                    ui.add(egui::DragValue::new(&mut n.reorder).speed(0.005).range(0.0..=1.0)).labelled_by(label.id)
                        .on_hover_text("the chance a packet is held back one to three send intervals");
                    ui.end_row();
                    let label = ui.label("duplicate");
                    ui.add(egui::DragValue::new(&mut n.duplicate).speed(0.005).range(0.0..=1.0)).labelled_by(label.id)
                        .on_hover_text("the chance a packet arrives twice (the second is ignored)");
                    let label = ui.label("send every");
                    ui.add(egui::DragValue::new(&mut n.every).range(1..=600).suffix(" frames")).labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("seed");
                    ui.add(egui::DragValue::new(&mut n.seed)).labelled_by(label.id);
                    ui.end_row();
                });
                if network != self.network {
                    out.push(Command::Latency(LatencyCommand::Network(network)));
                }
                match run {
                    Some((recording, _)) if !recording.bodies().is_empty() => {
                        if ui
                            .button("Generate")
                            .on_hover_text("each moving body of the motion lab's run sends its pose every frame over this network")
                            .clicked()
                        {
                            out.push(Command::Latency(LatencyCommand::Generate));
                        }
                    }
                    _ => {
                        ui.label(RichText::new("This scene has no moving bodies: give shapes a velocity (numbers panel) to make a log from its motion run.").weak());
                    }
                }
            });
    }

    /// Every collision, with the bucket it concerns and whether it was taken back, for the
    /// timeline.
    pub fn marks(&self) -> &[TimelineFinding] {
        &self.digest.marks
    }
}

/// The players at bucket `k` as `engine` knows them.
fn shown_at(
    source: &Source,
    engine: &PacketEngine,
    digest: &Digest,
    k: i64,
    key: (usize, i64, u64),
) -> BucketView {
    let t = k as f64 * engine.settings().step_ms;
    let mut shapes = Vec::new();
    let mut interpolated = Vec::new();
    let mut position_of = vec![None; source.log.players.len()];
    for at in engine.players_at(&source.log, t) {
        position_of[at.player] = Some(shapes.len());
        interpolated.push(at.interpolated);
        let name = source.log.players[at.player].display_name(at.player);
        shapes.push(SceneShape::new(Some(name), at.placed));
    }
    let truth = source
        .truth
        .as_ref()
        .and_then(|r| crate::latency::truth_at(r, t));
    // The collisions standing at this bucket (swept ones: between it and the next), each with
    // the packet that found it.
    let back = digest.marks.iter().map(|m| m.retracted);
    let mut here: Vec<&Collision> = engine
        .collisions()
        .iter()
        .zip(back)
        .filter(|(f, back)| {
            !back
                && match f.between {
                    Some([t0, _]) => t0 == t,
                    None => f.time == t,
                }
        })
        .map(|(f, _)| f)
        .collect();
    here.sort_by(|x, y| x.time.total_cmp(&y.time).then((x.a, x.b).cmp(&(y.a, y.b))));
    let collisions = here
        .into_iter()
        .filter_map(|f| {
            let placed_at = |p: usize| {
                let pose = engine.tracks()[p].pose_at(f.time)?;
                Some(Placed::new(source.log.players[p].shape.clone(), pose))
            };
            let (pair, at_contact) = match f.between {
                Some(_) => (None, Some([placed_at(f.a)?, placed_at(f.b)?])),
                None => (Some((position_of[f.a]?, position_of[f.b]?)), None),
            };
            Some(LatencyCollision {
                pair,
                at_contact,
                text: text::latency_collision(
                    &source.log.players[f.a].display_name(f.a),
                    &source.log.players[f.b].display_name(f.b),
                    f.time,
                    f.between,
                    f.detected_at,
                ),
            })
        })
        .collect();
    BucketView {
        key,
        scene: Scene::from_shapes(shapes),
        interpolated,
        truth,
        collisions,
    }
}

/// How late each collision was found (detection minus its time), as a bar chart.
fn lateness_histogram(ui: &mut egui::Ui, lateness: Option<&(f64, Vec<u32>)>) {
    let Some((width, counts)) = lateness else {
        return;
    };
    let width = *width;
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, n)| Bar::new((i as f64 + 0.5) * width, *n as f64).width(width * 0.9))
        .collect();
    ui.label("How late each collision was found (ms after its time):");
    Plot::new("lateness")
        .height(110.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |p| p.bar_chart(BarChart::new("late", bars)));
}

/// A log's packets as a timeline: stop k is k packets taken, reached when the k-th arrives
/// (ms); stop 0 just before the first.
struct Arrivals<'a>(&'a [Packet]);

impl Timeline for Arrivals<'_> {
    fn last(&self) -> u64 {
        self.0.len() as u64
    }

    fn time_of(&self, k: u64) -> f64 {
        match k.checked_sub(1) {
            None => self.0.first().map_or(0.0, |p| p.received - 1.0),
            Some(i) => self.0.get(i as usize).map_or(0.0, |p| p.received),
        }
    }

    fn units_per_second(&self) -> f64 {
        1000.0
    }
}
