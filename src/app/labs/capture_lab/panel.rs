//! The capture lab's panel: the capture's summary, Export fixture of this frame, the frame's claims, the pair explained, the list of disagreeing claims, and replaying a Box2D recording.

use super::*;
use crate::app::words;

impl CaptureLab {
    /// The replay under way: its progress, and its end passed on as a command.
    pub(super) fn replay_row(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(r) = &self.replaying else { return };
        if let Ok(outcome) = r.done.try_recv() {
            out.push(Command::Capture(CaptureCommand::Replayed(outcome)));
            return;
        }
        let load = |i: usize| r.progress[i].load(std::sync::atomic::Ordering::Relaxed);
        let (k, n) = (load(0), load(1));
        ui.add(
            egui::ProgressBar::new(if n == 0 { 0.0 } else { k as f32 / n as f32 }).text(format!(
                "replaying {} with Box2D: {k} of {n} frames",
                r.recording.display()
            )),
        );
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }

    /// The panel on the right: the capture, its counts, the selected claim explained, every
    /// disagreeing claim.
    pub fn ui(&mut self, ui: &mut egui::Ui, naive: bool, out: &mut Commands) {
        let panel = (crate::app::command::PanelSide::Right, "capture");
        crate::app::side_panel(ui, panel, (380.0, 240.0, 0.42), |ui| {
            egui::ScrollArea::vertical()
                .id_salt("capture lab")
                .show(ui, |ui| {
                    if self.plot.shown
                        && self.index.is_some()
                        && crate::app::labs::plot_panel::on_phone(ui)
                    {
                        self.plot_section(ui, out);
                    }
                    ui.heading("Capture");
                    self.replay_row(ui, out);
                    self.live
                        .ui(ui, self.index.as_ref(), &mut self.follow_path, out);
                    let Some(index) = &self.index else {
                        // In the browser the live row has said where captures open.
                        if crate::app::platform::HAS_FILES {
                            ui.label(words::NO_CAPTURE);
                        }
                        return;
                    };
                    self.summary(ui, index);
                    self.export_row(ui, out);
                    ui.separator();
                    match &self.compare {
                        Some(compare) => compare.ui(ui, out),
                        None => compare::compare_row(
                            ui,
                            &mut self.compare_path,
                            self.compare_problem.as_deref(),
                            out,
                        ),
                    }
                    ui.separator();
                    self.frame_claims(ui, out);
                    ui.separator();
                    self.explained(ui, naive, out);
                    ui.separator();
                    self.divergence_list(ui, out);
                });
        });
    }

    /// What the lab says for the page (the browser's `#collidoscope-state`): the capture open
    /// and its counts, as the panel's summary says them.
    pub fn said(&self) -> Option<String> {
        let index = self.index.as_ref()?;
        let causes: Vec<(&str, u64)> = (0..ROWS)
            .map(|row| (row_name(row), self.by_row.0[row]))
            .collect();
        Some(format!(
            "{}: {}",
            index.path().display(),
            words::capture_counts(index.frames().len(), index.counts(), &causes)
        ))
    }

    pub(super) fn summary(&self, ui: &mut egui::Ui, index: &CaptureIndex) {
        ui.label(RichText::new(index.path().display().to_string()).strong());
        ui.label(crate::capture::words::capture_header(index.header()));
        match index.state() {
            ScanState::Reading(_) if index.is_live() => {
                ui.label(format!(
                    "following as the game writes it: {} frames so far, each judged as it comes",
                    index.frames().len()
                ));
            }
            ScanState::Reading(share) => {
                ui.add(
                    egui::ProgressBar::new(*share as f32)
                        .show_percentage()
                        .text(format!(
                            "judging the claims: {} frames",
                            index.frames().len()
                        )),
                );
            }
            ScanState::Done => {}
            ScanState::Refused(message) => {
                ui.colored_label(palette::INVALID, message)
                    .on_hover_text("the frames before this line are shown");
            }
        }
        if let Some(warning) = index.warning() {
            ui.colored_label(palette::DECIDING, warning);
        }
        let causes: Vec<(&str, u64)> = (0..ROWS)
            .map(|row| (row_name(row), self.by_row.0[row]))
            .collect();
        ui.label(
            RichText::new(words::capture_counts(
                index.frames().len(),
                index.counts(),
                &causes,
            ))
            .strong(),
        );
    }

    /// The fixture path with Export fixture of this frame, and Close capture.
    pub(super) fn export_row(&mut self, ui: &mut egui::Ui, out: &mut Commands) {
        if let (Some(index), Some(shown)) = (&self.index, &self.shown) {
            self.path
                .follow(Some(&fixture_stem(index.path(), shown.frame.frame)), None);
        }
        ui.horizontal(|ui| {
            let label = ui.label("Fixture:");
            let width = (ui.available_width() - 8.0).max(80.0);
            self.path.ui(ui, label.id, width);
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Export fixture of this frame")
                .on_hover_text("pin every claimed pair of the frame shown (with the engine's claims and precision) in the fixture file; an existing file is replaced only when you press Export again")
                .clicked()
            {
                out.push(match self.path.path() {
                    Ok(p) => Command::Capture(CaptureCommand::ExportFrame(p)),
                    Err(e) => Command::Say(Message { text: e, error: true }),
                });
            }
            if ui.button("Close capture").clicked() {
                out.push(Command::Capture(CaptureCommand::Close));
            }
        });
    }

    /// The claims of the frame shown, disagreeing ones first; a click explains one.
    pub(super) fn frame_claims(&self, ui: &mut egui::Ui, out: &mut Commands) {
        if let Some(problem) = &self.problem {
            ui.colored_label(palette::INVALID, problem);
        }
        let Some(shown) = &self.shown else { return };
        let claims = &shown.judged.claims;
        let disagree = claims.iter().filter(|c| !c.agrees()).count();
        ui.label(
            RichText::new(format!(
                "Frame {} (t = {} s): {} claim{}, {disagree} disagree{}",
                shown.frame.frame,
                text::number(shown.frame.time),
                claims.len(),
                if claims.len() == 1 { "" } else { "s" },
                if disagree == 1 { "s" } else { "" },
            ))
            .strong(),
        );
        // What went wrong over time at this frame: each event, with its fix.
        if let Some(index) = &self.index {
            for e in index
                .events()
                .iter()
                .filter(|e| e.frame() == shown.frame.frame)
            {
                ui.colored_label(palette::MTV, crate::capture::words::capture_event(e, None));
                ui.label(
                    RichText::new(format!("fix: {}", crate::motion::event_fix(e.kind()))).weak(),
                );
            }
        }
        if claims.is_empty() {
            ui.label(RichText::new("The engine reported no contact in this frame (nothing touching, or every body touching asleep: pairs of sleeping bodies are left out of a capture).").weak());
        }
        let mut order: Vec<&Judgement> = claims.iter().collect();
        order.sort_by_key(|c| c.agrees());
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        // A fifth of a tall window, never less than six rows or so.
        let height = (0.2 * ui.ctx().content_rect().height()).max(150.0);
        egui::ScrollArea::vertical()
            .id_salt("frame claims")
            .max_height(height)
            .show_rows(ui, row, order.len(), |ui, rows| {
                for c in &order[rows] {
                    let this = ClaimRef {
                        a: c.a,
                        b: c.b,
                        piece: c.piece(),
                    };
                    let (a, b) = c.display_names();
                    let piece = c.piece().map(|k| format!(" piece {k}")).unwrap_or_default();
                    let names: Vec<&str> = c.causes().map(|m| m.name()).collect();
                    let verdict = if c.agrees() {
                        "agrees".to_string()
                    } else if names.is_empty() {
                        "disagrees: no known mistake".to_string()
                    } else {
                        format!("disagrees: {}", names.join(", "))
                    };
                    let colour = if c.agrees() {
                        ui.visuals().text_color()
                    } else {
                        palette::INVALID.into()
                    };
                    let text = RichText::new(format!("{a} / {b}{piece}: {verdict}")).color(colour);
                    if ui
                        .selectable_label(self.selected == Some(this), text)
                        .on_hover_text("explain this claim")
                        .clicked()
                    {
                        out.push(Command::Capture(CaptureCommand::Select(Some(this))));
                    }
                }
            });
    }

    /// The selected claim: claimed against exact, the causes that reproduce it (each can
    /// draw its own test), and the pair's report at this frame.
    pub(super) fn explained(&mut self, ui: &mut egui::Ui, naive: bool, out: &mut Commands) {
        let Some(shown) = &self.shown else { return };
        if let Some(first) = self.picked {
            let k = shown.ids.iter().position(|i| *i == first);
            let name = k.map_or(format!("id {first}"), |k| {
                shown.scene.shapes[k].display_name(k)
            });
            ui.colored_label(palette::DECIDING, words::picked_first(&name));
        }
        let Some(selected) = self.selected else {
            ui.label(words::SELECT_A_CLAIM);
            return;
        };
        match self.judgement() {
            Some(j) => {
                let (a, b) = j.display_names();
                for line in &crate::judgement(j, (&a, &b)) {
                    ui.label(line);
                }
                let mistakes = j.check.matches.clone();
                if !mistakes.is_empty() {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Draw its test:");
                        let shown_now = self.shown_mistake();
                        for m in mistakes {
                            if ui
                                .selectable_label(shown_now == Some(m), m.name())
                                .on_hover_text(
                                    "draw this mistake's own test beside the correct one",
                                )
                                .clicked()
                            {
                                let next = (shown_now != Some(m)).then_some(m);
                                out.push(Command::Capture(CaptureCommand::ShowMistake(next)));
                            }
                        }
                    });
                }
            }
            None => {
                let name = |id: u64| match shown.ids.iter().position(|i| *i == id) {
                    Some(k) => shown.scene.shapes[k].display_name(k),
                    None => format!("id {id} (not in this frame)"),
                };
                let (a, b) = (name(selected.a), name(selected.b));
                match shown.left_out(selected.a, selected.b) {
                    Some((left, [pa, pb])) => {
                        let units = self
                            .index
                            .as_ref()
                            .map_or("", |i| i.header().units.as_str());
                        let lines = crate::capture::words::left_out(
                            &left,
                            (&a, &b),
                            (&pa, &pb),
                            shown.frame.frame,
                            units,
                        );
                        for (k, line) in lines.iter().enumerate() {
                            if k == 0 {
                                ui.label(RichText::new(line).strong());
                            } else {
                                ui.label(RichText::new(line).weak());
                            }
                        }
                    }
                    None => {
                        ui.label(words::not_in_frame(shown.frame.frame, (&a, &b)));
                    }
                }
            }
        }
        self.pair.ui(ui, &shown.scene, None, naive);
    }

    /// Every disagreeing claim of the capture; a click shows its frame and pair.
    pub(super) fn divergence_list(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(index) = &self.index else { return };
        let divergences = index.divergences();
        ui.label(RichText::new("Disagreeing claims").strong());
        if divergences.is_empty() {
            ui.label(match index.state() {
                ScanState::Reading(_) => "none so far",
                ScanState::Refused(_) => {
                    "none in the frames before the refused line (the rest of the capture is not read)"
                }
                ScanState::Done => "none: every claim agrees",
            });
            return;
        }
        let frames = index.frames();
        let here = self.playback.position as usize;
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        let height = (0.3 * ui.ctx().content_rect().height()).max(220.0);
        egui::ScrollArea::vertical()
            .id_salt("divergences")
            .max_height(height)
            .show_rows(ui, row, divergences.len(), |ui, rows| {
                for d in &divergences[rows] {
                    let claim = ClaimRef {
                        a: d.a,
                        b: d.b,
                        piece: d.piece,
                    };
                    let current = d.position == here && self.selected == Some(claim);
                    let line =
                        crate::capture::words::capture_divergence(frames[d.position].frame, d);
                    if ui
                        .selectable_label(current, line)
                        .on_hover_text("show this frame and explain this claim")
                        .clicked()
                    {
                        out.push(Command::Capture(CaptureCommand::Show {
                            position: d.position,
                            claim,
                        }));
                    }
                }
            });
        if index.unlisted() > 0 {
            ui.label(format!(
                "and {} more (counted, not listed)",
                index.unlisted()
            ));
        }
    }
}
