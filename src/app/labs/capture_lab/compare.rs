//! Two runs side by side in the capture lab: a second capture ("B") opened to compare with
//! the one shown ("A"), as `collidoscope diff` compares them. B's frame aligned with A's (frame
//! `f` of A with `f + offset` of B) is drawn as ghosts over A's, the shapes that differ there in
//! bold; the strip gets a row coloured by how far apart the runs are and a mark where they
//! first part (J shows it); the panel lists the shapes that differ at the frame shown with
//! both values, to the last digit, and the claims that differ.
//!
//! The runs are compared whole on a thread of their own (the page: here), while B's frames
//! are read as A's are, by a [`CaptureIndex`] of its own.

use crate::app::command::{CaptureCommand, Command, Commands};
use crate::app::document::path_field::PathField;
use crate::app::platform;
use crate::capture::{
    CaptureIndex, CaptureSource, DiffSettings, FrameComparison, RunDiff, ScanState, ShownFrame,
    compare_frames, diff_sources,
};
use crate::files::FileError;
use crate::picture::palette;
use crate::scene::Scene;
use crate::text;
use eframe::egui::{self, RichText};
use std::sync::mpsc::{Receiver, TryRecvError};

/// How long a frame of the window waits for B's frame before it goes on.
const FRAME_WAIT: std::time::Duration = std::time::Duration::from_millis(8);

/// The whole comparison of the two runs: under way, done, or refused.
enum Diffing {
    Running(Receiver<Result<RunDiff, FileError>>),
    Done(Box<RunDiff>),
    Refused(String),
}

/// The second run and how it stands against the first.
pub struct Compare {
    index: CaptureIndex,
    settings: DiffSettings,
    diff: Diffing,
    /// B's frame last read.
    shown: Option<ShownFrame>,
    /// Why B's frame asked for could not be read, and its position.
    problem: Option<(usize, String)>,
    /// A's frame number shown now, and whether B's frame read is the one aligned with it.
    a_frame: Option<u64>,
    aligned: bool,
    /// A's and B's positions compared, and what differs there.
    compared: Option<((usize, usize), FrameComparison)>,
    /// B's scene positions of the shapes that differ at the frame shown (drawn bold).
    apart: Vec<usize>,
    /// Bumped whenever B's frame shown or the comparison changes (what the view keys on).
    pub revision: u64,
    /// The comparison ended (or was done at once, where there are no threads) and the status
    /// bar has not said so yet.
    unsaid: bool,
}

/// The whole comparison of `a` and `b`, started on a thread of its own where there is one,
/// else done here.
fn start(a: CaptureSource, b: CaptureSource, settings: DiffSettings) -> Diffing {
    let (send, done) = std::sync::mpsc::channel();
    let (a2, b2) = (a.clone(), b.clone());
    let spawned = std::thread::Builder::new()
        .name("compare runs".into())
        .spawn(move || {
            let _ = send.send(diff_sources(&a2, &b2, settings));
        });
    match spawned {
        Ok(_) => Diffing::Running(done),
        Err(_) => match diff_sources(&a, &b, settings) {
            Ok(d) => Diffing::Done(Box::new(d)),
            Err(e) => Diffing::Refused(e.to_string()),
        },
    }
}

impl Compare {
    /// Compare `b` (just opened) with the run read from `a`.
    pub fn new(a: CaptureSource, b: CaptureIndex, settings: DiffSettings) -> Self {
        let diff = start(a, b.source(), settings);
        Self {
            unsaid: !matches!(diff, Diffing::Running(_)),
            index: b,
            settings,
            diff,
            shown: None,
            problem: None,
            a_frame: None,
            aligned: false,
            compared: None,
            apart: Vec::new(),
            revision: 0,
        }
    }

    /// Compare again with other settings (the offset, the tolerance).
    pub fn set(&mut self, a: CaptureSource, settings: DiffSettings) {
        self.settings = settings;
        self.diff = start(a, self.index.source(), settings);
        self.unsaid = !matches!(self.diff, Diffing::Running(_));
        self.compared = None;
        self.revision += 1;
    }

    /// The settings compared with.
    pub fn settings(&self) -> DiffSettings {
        self.settings
    }

    /// The second run's capture.
    pub fn index(&self) -> &CaptureIndex {
        &self.index
    }

    /// The whole comparison, once done.
    pub fn diff(&self) -> Option<&RunDiff> {
        match &self.diff {
            Diffing::Done(d) => Some(d),
            _ => None,
        }
    }

    /// Whether the whole comparison is still under way.
    pub fn running(&self) -> bool {
        matches!(self.diff, Diffing::Running(_))
    }

    /// A's frame number where the runs first part: the first divergence of a shape, else the
    /// first claim that differs.
    pub fn parting(&self) -> Option<u64> {
        let d = self.diff()?;
        d.first_divergence
            .as_ref()
            .map(|f| f.frame)
            .or(d.first_claim_difference.as_ref().map(|c| c.frame))
    }

    /// B's frame aligned with A's, as ghosts: its scene and the shapes that differ. While
    /// the next is read (playing), the last one stays, so that the ghosts do not flicker.
    pub fn ghost(&self) -> Option<(&Scene, &[usize])> {
        let reading = self.index.pending().is_some();
        let shown = self.shown.as_ref().filter(|_| self.aligned || reading)?;
        Some((&shown.scene, &self.apart))
    }

    /// What differs at the frame shown, when B has the frame aligned with it.
    pub fn here(&self) -> Option<&FrameComparison> {
        self.compared
            .as_ref()
            .filter(|_| self.aligned)
            .map(|(_, c)| c)
    }

    /// B's frame number aligned with A's frame `frame` (`None` below 0).
    fn b_frame(&self, frame: u64) -> Option<u64> {
        u64::try_from(i128::from(frame) + i128::from(self.settings.offset)).ok()
    }

    /// Take what the comparison and B's scan found; read B's frame aligned with A's frame
    /// `a` and compare the two. Returns what the status bar is to say (the comparison done)
    /// and whether anything is still under way.
    pub fn refresh(&mut self, a: Option<&ShownFrame>) -> (Option<(String, bool)>, bool) {
        let mut said = None;
        let scanning = matches!(self.index.state(), ScanState::Reading(_));
        self.index.update();
        if let Diffing::Running(done) = &self.diff {
            let outcome = match done.try_recv() {
                Ok(Ok(d)) => Some(Diffing::Done(Box::new(d))),
                Ok(Err(e)) => Some(Diffing::Refused(e.to_string())),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Diffing::Refused(
                    "the comparison stopped before its end".into(),
                )),
            };
            if let Some(outcome) = outcome {
                self.diff = outcome;
                self.revision += 1;
                self.unsaid = true;
            }
        }
        if std::mem::take(&mut self.unsaid) {
            said = match &self.diff {
                Diffing::Done(d) => {
                    let jump = if d.agree() { "" } else { " (J shows where)" };
                    Some((
                        format!("compared: {}{jump}", crate::capture::words::runs_part(d)),
                        false,
                    ))
                }
                Diffing::Refused(why) => Some((why.clone(), true)),
                Diffing::Running(_) => None,
            };
        }
        let Some(a) = a else {
            return (said, scanning || self.running());
        };
        self.a_frame = Some(a.frame.frame);
        let position = self
            .b_frame(a.frame.frame)
            .and_then(|f| self.index.position_of(f));
        if let Some(p) = position {
            let have = self.shown.as_ref().is_some_and(|s| s.position == p);
            let failed = self.problem.as_ref().is_some_and(|(q, _)| *q == p);
            if !have && !failed && self.index.pending() != Some(p) {
                self.index.request(p);
            }
        }
        if let Some((asked, read)) = self.index.take_shown(FRAME_WAIT) {
            match read {
                Ok(shown) => {
                    self.shown = Some(shown);
                    self.problem = None;
                }
                Err(e) => self.problem = Some((asked, e.to_string())),
            }
            self.revision += 1;
        }
        let aligned = position.is_some() && self.shown.as_ref().map(|s| s.position) == position;
        if aligned != self.aligned {
            self.aligned = aligned;
            self.revision += 1;
        }
        if let Some(b) = self.shown.as_ref().filter(|_| aligned) {
            let key = (a.position, b.position);
            if self.compared.as_ref().map(|(k, _)| *k) != Some(key) {
                let comparison = compare_frames(a, b, self.settings.tolerance);
                self.apart = comparison
                    .shapes
                    .iter()
                    .filter_map(|d| b.ids.iter().position(|id| *id == d.id))
                    .collect();
                self.compared = Some((key, comparison));
                self.revision += 1;
            }
        }
        let reading = self.index.pending().is_some();
        (said, scanning || reading || self.running())
    }

    /// The panel's section: B, the whole comparison, the offset and tolerance, and what
    /// differs at the frame shown.
    pub fn ui(&self, ui: &mut egui::Ui, out: &mut Commands) {
        ui.label(RichText::new("Compared with (B)").strong());
        ui.label(
            RichText::new(
                "B's shapes are drawn as purple outlines over A's, in bold red where they differ from A's at the frame shown",
            )
            .weak(),
        );
        ui.label(RichText::new(self.index.path().display().to_string()).strong());
        ui.label(crate::capture::words::capture_header(self.index.header()));
        if let ScanState::Refused(why) = self.index.state() {
            ui.colored_label(palette::INVALID, why);
        }
        match &self.diff {
            Diffing::Running(_) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("comparing the runs, frame by frame...");
                });
            }
            Diffing::Refused(why) => {
                ui.colored_label(palette::INVALID, why);
            }
            Diffing::Done(d) => {
                let colour = if d.frames_compared == 0 {
                    palette::DECIDING
                } else if d.agree() {
                    palette::SEPARATING
                } else {
                    palette::INVALID
                };
                ui.colored_label(colour, crate::capture::words::runs_part(d));
            }
        }
        self.settings_row(ui, out);
        ui.horizontal_wrapped(|ui| {
            if ui
                .add_enabled(
                    self.parting().is_some(),
                    egui::Button::new("Show where they part"),
                )
                .on_hover_text(
                    "the first frame where a shape or a claim differs between the runs (J)",
                )
                .clicked()
            {
                out.push(Command::Capture(CaptureCommand::JumpToParting));
            }
            if ui
                .button("Stop comparing")
                .on_hover_text("close the second run")
                .clicked()
            {
                out.push(Command::Capture(CaptureCommand::CloseCompare));
            }
        });
        self.here_ui(ui);
        if let Some(d) = self.diff() {
            egui::CollapsingHeader::new("As collidoscope diff says it")
                .id_salt("whole comparison")
                .show(ui, |ui| {
                    for line in crate::capture::words::run_diff(d) {
                        ui.label(RichText::new(line).monospace());
                    }
                });
        }
    }

    /// The offset and the tolerance, each change comparing again.
    fn settings_row(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let mut settings = self.settings;
        ui.horizontal_wrapped(|ui| {
            let offset_tip = "frame f of A goes with frame f + offset of B (a client and a server count their ticks from different starts)";
            ui.label("Offset:").on_hover_text(offset_tip);
            ui.add(egui::DragValue::new(&mut settings.offset).speed(0.1))
                .on_hover_text(offset_tip);
            let mut exact = settings.tolerance.is_none();
            ui.checkbox(&mut exact, "bit for bit")
                .on_hover_text("any difference in the bits differs; off: values further apart than the tolerance");
            if exact {
                settings.tolerance = None;
            } else {
                let mut t = settings.tolerance.unwrap_or(1e-6);
                ui.add(
                    egui::DragValue::new(&mut t)
                        .range(0.0..=f64::MAX)
                        .speed(1e-6)
                        .prefix("beyond ")
                        .custom_formatter(|x, _| text::short_number(x))
                        .custom_parser(|s| s.trim().parse().ok()),
                )
                .on_hover_text("values further apart than this differ (click to type one, 1e-7 for example)");
                settings.tolerance = Some(t);
            }
        });
        if settings != self.settings {
            out.push(Command::Capture(CaptureCommand::CompareSettings(settings)));
        }
    }

    /// What differs at the frame shown: each shape with both values, each claim.
    fn here_ui(&self, ui: &mut egui::Ui) {
        let Some(frame) = self.a_frame else { return };
        let b_frame = self.b_frame(frame);
        let Some(here) = self.here() else {
            let said = match (b_frame, &self.problem) {
                (_, Some((_, why))) => why.clone(),
                (Some(f), None) if self.index.position_of(f).is_none() => {
                    format!("B has no frame {f} to put beside A's frame {frame}")
                }
                (Some(_), None) => "reading B's frame...".into(),
                (None, None) => format!("B has no frame before its first for A's frame {frame}"),
            };
            ui.label(RichText::new(said).weak());
            return;
        };
        let b_frame = b_frame.unwrap_or(frame);
        ui.label(RichText::new(crate::capture::words::frames_apart(frame, b_frame, here)).strong());
        if here.shapes.is_empty() && here.claims.is_empty() {
            return;
        }
        let lines: Vec<String> = here
            .shapes
            .iter()
            .map(crate::capture::words::shape_difference)
            .chain(
                here.claims
                    .iter()
                    .map(crate::capture::words::claim_difference),
            )
            .collect();
        let height = (0.25 * ui.ctx().content_rect().height()).max(150.0);
        egui::ScrollArea::vertical()
            .id_salt("apart here")
            .max_height(height)
            .show(ui, |ui| {
                for line in lines.iter().take(200) {
                    ui.colored_label(palette::INVALID, line);
                }
                if lines.len() > 200 {
                    ui.label(format!("and {} more", lines.len() - 200));
                }
            });
    }

    /// The strip band's shade of each frame the runs differ at, from where they part: A's
    /// frame and how bright (0 the least apart, 1 the most, on a log scale of the largest
    /// position difference). A frame where the runs are the same again, every shape and claim,
    /// has none, as before they part.
    fn shades(&self) -> Vec<(u64, f32)> {
        let Some(d) = self.diff() else {
            return Vec::new();
        };
        let apart = || d.growth.iter().filter(|g| !d.same_again_at(g.0));
        let positive = apart().map(|g| g.1).filter(|x| *x > 0.0);
        let low = positive.clone().fold(f64::INFINITY, f64::min);
        let high = positive.fold(0.0, f64::max);
        let span = (high.log10() - low.log10()).max(1e-9);
        apart()
            .map(|&(frame, by)| {
                let share = if by > 0.0 {
                    ((by.log10() - low.log10()) / span).clamp(0.0, 1.0) as f32
                } else {
                    0.0
                };
                (frame, share)
            })
            .collect()
    }

    /// The band's shade at A's frame `frame` (0 to 1), `None` where the band shows the runs
    /// the same (before they part, and where they are the same again).
    pub fn shade_at(&self, frame: u64) -> Option<f32> {
        let shades = self.shades();
        let k = shades.partition_point(|s| s.0 < frame);
        shades.get(k).filter(|s| s.0 == frame).map(|s| s.1)
    }

    /// Whether the runs are the same again at A's frame `frame`, after they parted.
    pub fn same_again_at(&self, frame: u64) -> bool {
        self.diff().is_some_and(|d| d.same_again_at(frame))
    }

    /// The strip's band: each frame shaded by how far apart the runs are there, in the ghosts'
    /// purple (brighter is further, on a log scale from the least to the most; nothing where
    /// they are the same, before they part or again after), and the parting marked. `x_of`
    /// places a position of A's; `position_of` gives A's position of a frame number.
    pub fn strip_row(
        &self,
        painter: &egui::Painter,
        (top, height): (f32, f32),
        x_of: &dyn Fn(u64) -> f32,
        position_of: &dyn Fn(u64) -> Option<usize>,
        full: egui::Rect,
    ) {
        // The brightest of the frames in each pixel column (ten minutes at 60 Hz is 36,000
        // frames on a strip a thousand pixels wide); a frame wider than a column fills its
        // own width.
        let columns = full.width().max(1.0) as usize + 1;
        let half = 0.5 * (x_of(1) - x_of(0)).max(1.0);
        let mut brightest: Vec<Option<f32>> = vec![None; columns];
        for (frame, share) in self.shades() {
            let Some(p) = position_of(frame) else {
                continue;
            };
            let x = x_of(p as u64) - full.left();
            let first = ((x - half).max(0.0) as usize).min(columns - 1);
            let last = ((x + half).max(0.0) as usize).clamp(first, columns - 1);
            for cell in &mut brightest[first..=last] {
                *cell = Some(cell.map_or(share, |x| x.max(share)));
            }
        }
        let purple = palette::NAIVE;
        for (column, share) in brightest.iter().enumerate() {
            let Some(share) = *share else { continue };
            let x = full.left() + column as f32;
            let alpha = (60.0 + 195.0 * share) as u8;
            let colour = egui::Color32::from_rgba_unmultiplied(purple.r, purple.g, purple.b, alpha);
            let cell = egui::Rect::from_min_max(
                egui::pos2(x, top),
                egui::pos2(x + 1.0, top + height - 2.0),
            );
            painter.rect_filled(cell, 0.0, colour);
        }
        if let Some(p) = self.parting().and_then(position_of) {
            crate::app::widgets::strip_flag(painter, full, x_of(p as u64), palette::NAIVE, false);
        }
    }

    /// How far apart the runs are at A's frame `frame` (for the strip's hover).
    pub fn apart_at(&self, frame: u64) -> Option<f64> {
        let d = self.diff()?;
        let k = d.growth.partition_point(|g| g.0 < frame);
        d.growth.get(k).filter(|g| g.0 == frame).map(|g| g.1)
    }
}

/// Where to type the capture to compare with (the desktop), or the page's picker (the
/// browser): shown while a capture is open and none is compared.
pub fn compare_row(
    ui: &mut egui::Ui,
    path: &mut PathField,
    problem: Option<&str>,
    out: &mut Commands,
) {
    if !platform::HAS_FILES {
        if ui
            .button("Compare with a capture...")
            .on_hover_text("pick a second run of the same game (a replay, a client, another machine): drawn as ghosts over this one, where they part marked")
            .clicked()
        {
            out.push(Command::Capture(CaptureCommand::CompareNext(true)));
            let _ = platform::pick_file();
        }
    } else {
        ui.horizontal(|ui| {
            let label = ui.label("Compare with:");
            let width = (ui.available_width() - 90.0).max(80.0);
            let field = path.ui(ui, label.id, width)
                .on_hover_text("the path of a second run of the same game (a replay, a client, another machine); Enter compares");
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui
                .button("Compare")
                .on_hover_text("open it beside this one: drawn as ghosts, where the runs part marked on the timeline (J shows it)")
                .clicked()
                || entered
            {
            out.push(match path.text.trim() {
                "" => Command::Say(crate::app::command::Message {
                    text: "type the path of the capture to compare with first".into(),
                    error: true,
                }),
                typed => Command::Capture(CaptureCommand::Compare(typed.into())),
            });
            }
        });
    }
    // Why the last capture asked for could not be compared, until another is.
    if let Some(problem) = problem {
        ui.colored_label(palette::INVALID, problem);
    }
}
