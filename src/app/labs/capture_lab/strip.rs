//! The capture lab's timeline under the scene: the transport row and the strip of frames (each frame's claims coloured by cause, events on their own row, the compared runs' row).

use super::*;

impl CaptureLab {
    /// The timeline under the scene: transport, Next divergence, speed and loop, the frame
    /// slider, and the strip of divergences. It reads the playback and pushes commands.
    pub fn timeline(&self, ui: &mut egui::Ui, out: &mut Commands) {
        let Some(index) = &self.index else { return };
        let mut play = |c: PlaybackCommand| out.push(Command::Playback(TimelineId::Capture, c));
        let frames = index.frames();
        let mut divergence = None;
        let mut event = None;
        let mut go_live = false;
        egui::Panel::bottom("capture timeline").show(ui, |ui| {
            let last = frames.len().saturating_sub(1) as u64;
            // The event stepped to, said under its picture with its fix.
            if let Some(e) = self.chosen_event() {
                ui.add(egui::Label::new(
                    RichText::new(crate::capture::words::capture_event(e, None))
                        .color(palette::MTV),
                ));
                ui.label(
                    RichText::new(format!("fix: {}", crate::motion::event_fix(e.kind()))).weak(),
                );
            }
            let playback = &self.playback;
            ui.horizontal_wrapped(|ui| {
                let tips = [
                    "first frame",
                    "step back",
                    "play the capture (space)",
                    "step forward",
                    "last frame",
                ];
                if let Some(c) = crate::app::transport(ui, playback.playing, tips) {
                    play(c);
                }
                if ui
                    .button("Previous divergence")
                    .on_hover_text("the disagreeing claim before this one (Shift+D)")
                    .clicked()
                {
                    divergence = Some(false);
                }
                if ui
                    .button("Next divergence")
                    .on_hover_text("the next disagreeing claim (D)")
                    .clicked()
                {
                    divergence = Some(true);
                }
                if !index.events().is_empty() {
                    if ui
                        .button("Previous event")
                        .on_hover_text(
                            "the event before: a seam, a tunnel, a stale contact... (Shift+E)",
                        )
                        .clicked()
                    {
                        event = Some(false);
                    }
                    if ui
                        .button("Next event")
                        .on_hover_text("the next event: a seam, a tunnel, a stale contact... (E)")
                        .clicked()
                    {
                        event = Some(true);
                    }
                }
                // The slider shows the frames' own numbers (a capture may start at any).
                let numbered = (frames.first().map_or(0, |f| f.frame), last);
                let id = "capture speed";
                for c in crate::app::loop_speed_slider_numbered(ui, playback, id, numbered) {
                    play(c);
                }
                if let Some(entry) = frames.get(playback.position as usize) {
                    ui.label(format!(
                        "step {}, t = {} s",
                        entry.frame,
                        text::number(entry.time)
                    ));
                }
                if index.is_live()
                    && !self.live.at_end
                    && ui
                        .button("Go live")
                        .on_hover_text("show the newest frame again and arm the break (L)")
                        .clicked()
                {
                    go_live = true;
                }
            });
            if let Some(k) = self.strip(ui, index, last) {
                play(PlaybackCommand::Seek(k));
            }
        });
        if let Some(forward) = divergence {
            out.push(Command::Capture(CaptureCommand::NextDivergence(forward)));
        }
        if let Some(forward) = event {
            out.push(Command::Capture(CaptureCommand::NextEvent(forward)));
        }
        if go_live {
            out.push(Command::Capture(CaptureCommand::GoLive));
        }
    }

    /// The strip: the capture as a bar, the frame shown as a line, a tick for every
    /// disagreeing claim in its cause's row (the last row: no known mistake). Hover for the
    /// row's name and the frame; click or drag to show a frame.
    pub(super) fn strip(&self, ui: &mut egui::Ui, index: &CaptureIndex, last: u64) -> Option<u64> {
        let present: Vec<usize> = (0..ROWS).filter(|r| self.by_row.0[*r] > 0).collect();
        // The events' own row, under the causes' rows.
        let events = !index.events().is_empty();
        // The compared runs' own row, at the bottom.
        let compared = self.compare.as_ref().filter(|c| c.diff().is_some());
        let events_slot = present.len().max(1);
        let rows = events_slot + usize::from(events);
        let row_height = 6.0;
        // The compared runs' band, under the rows: taller, a colour of its own.
        let band = if compared.is_some() { 12.0 } else { 0.0 };
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), 8.0 + rows as f32 * row_height + band),
            egui::Sense::click_and_drag(),
        );
        let painter = ui.painter_at(rect);
        let look = crate::app::widgets::StripLook::of(ui);
        painter.rect_filled(rect, 3.0, look.ground);
        let x_of = |k: u64| rect.left() + rect.width() * (k as f32 / last.max(1) as f32);
        let top_of = |slot: usize| rect.top() + 4.0 + slot as f32 * row_height;
        // One tick per pixel column and row is enough, however many claims share it.
        let columns = rect.width().max(1.0) as usize + 1;
        let mut drawn = vec![false; columns * ROWS];
        for d in index.divergences() {
            let row = row_of(&d.causes);
            let x = x_of(d.position as u64);
            let column = ((x - rect.left()) as usize).min(columns - 1);
            if std::mem::replace(&mut drawn[row * columns + column], true) {
                continue;
            }
            let Some(slot) = present.iter().position(|r| *r == row) else {
                continue;
            };
            let colour = egui::Color32::from(row_colour(row));
            let top = top_of(slot);
            painter.line_segment(
                [egui::pos2(x, top), egui::pos2(x, top + row_height - 1.5)],
                (2.0, colour),
            );
        }
        if events {
            let top = top_of(events_slot);
            let mut drawn = vec![false; columns];
            for e in index.events() {
                let Some(position) = index.position_of(e.frame()) else {
                    continue;
                };
                let x = x_of(position as u64);
                let column = ((x - rect.left()) as usize).min(columns - 1);
                if std::mem::replace(&mut drawn[column], true) {
                    continue;
                }
                painter.line_segment(
                    [egui::pos2(x, top), egui::pos2(x, top + row_height - 1.5)],
                    (2.0, egui::Color32::from(palette::MTV)),
                );
            }
        }
        if let Some(compare) = compared {
            let position_of = |frame: u64| index.position_of(frame);
            compare.strip_row(&painter, (top_of(rows), band), &x_of, &position_of, rect);
        }
        // Where a break held the frame while following: a flag at the top of the strip.
        if let Some(held) = self.live.stopped_at {
            crate::app::widgets::strip_flag(
                &painter,
                rect,
                x_of(held as u64),
                palette::INVALID,
                true,
            );
        }
        let x = x_of(self.playback.position);
        painter.line_segment(
            [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
            (2.0, look.marker),
        );
        let frame_at = |p: egui::Pos2| {
            let share = ((p.x - rect.left()) / rect.width()).clamp(0.0, 1.0);
            (share as f64 * last as f64).round() as u64
        };
        let scrubbed = (response.clicked() || response.dragged())
            .then(|| response.interact_pointer_pos())
            .flatten()
            .map(frame_at);
        let tip = match response.hover_pos() {
            Some(p) => {
                let slot = ((p.y - rect.top() - 4.0) / row_height).floor().max(0.0) as usize;
                let k = frame_at(p) as usize;
                let step = index.frames().get(k).map_or(0, |f| f.frame);
                let row = if events && slot == events_slot {
                    "events (E, Shift+E)".to_string()
                } else if let Some(c) = compared.filter(|_| slot >= rows) {
                    crate::capture::words::runs_apart_at(
                        step,
                        c.apart_at(step),
                        c.same_again_at(step),
                        c.parting(),
                    )
                } else {
                    present.get(slot).map_or("", |r| row_name(*r)).to_string()
                };
                if row.is_empty() {
                    format!("frame {step}: click or drag to show it")
                } else {
                    format!("row {row}; frame {step}: click or drag to show it")
                }
            }
            None => String::new(),
        };
        response.on_hover_text(format!(
            "{tip}\nticks: the disagreeing claims, a row for each cause that reproduces them (the last: no known mistake); under them the events (seams, tunnels, stale contacts...){}",
            if compared.is_some() { "; at the bottom, how far apart the compared runs are (faint near, bright far), the purple mark where they part (J)" } else { "" }
        ));
        scrubbed
    }
}

/// The colour of a strip row.
fn row_colour(row: usize) -> crate::picture::Colour {
    match Cause::ALL.get(row) {
        Some(Cause::PreviousPoses) => palette::DECIDING,
        Some(Cause::Mistake(Mistake::NormalReversed)) => palette::MTV,
        Some(Cause::Mistake(Mistake::NaiveSmallestOverlap)) => palette::NAIVE,
        Some(Cause::Mistake(Mistake::InternalEdge)) => palette::CLAIMED,
        Some(Cause::Mistake(_)) => palette::OTHER_HIT,
        None => palette::INVALID,
    }
}
