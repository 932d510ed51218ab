//! The latency lab's timeline: playback of the packets in arrival order, then the engine's
//! table: a row per bucket time, a column per player, each cell received (a packet sent then),
//! interpolated or unknown as the server knows it now; collisions as red bars across their
//! players' columns (grey and crossed once retracted), each with an arrow in the right margin
//! from when it was detected back to its bucket; the server's "now" as a line.

use crate::app::command::{Command, Commands, LatencyCommand, PlaybackCommand, TimelineId};
use crate::app::labs::latency_lab::LatencyLab;
use crate::app::labs::latency_lab::latency_work::TimelineFinding;
use crate::app::words;
use crate::latency::Knowledge;
use crate::picture::palette;
use crate::text;
use eframe::egui::{self, Color32, Pos2, Rect, Sense, Stroke, pos2, vec2};

const ROW: f32 = 16.0;
const LABELS: f32 = 84.0;
const ARROWS: f32 = 70.0;
/// The most bucket rows the table holds at once: a longer log (a clock days off, a tiny step)
/// is shown a page of this many rows at a time, the page of the bucket shown (positions past a
/// few million points would no longer be exact in the window's f32).
const PAGE_ROWS: i64 = 20_000;

/// The colour of a cell in `look`.
fn cell_colour(k: Knowledge, look: &crate::app::widgets::StripLook) -> Color32 {
    match k {
        Knowledge::Received => Color32::from_rgb(70, 150, 90),
        Knowledge::Interpolated => Color32::from_rgb(60, 95, 140),
        Knowledge::Unknown => look.unknown,
    }
}

/// The bottom panel.
pub fn ui(lab: &LatencyLab, ui: &mut egui::Ui, out: &mut Commands) {
    let panel = egui::Panel::bottom("latency timeline")
        .resizable(true)
        .default_size(250.0)
        .min_size(120.0);
    panel.show(ui, |ui| {
        controls(lab, ui, out);
        table(lab, ui, out);
    });
}

fn controls(lab: &LatencyLab, ui: &mut egui::Ui, out: &mut Commands) {
    let total = lab.log().map_or(0, |l| l.packets.len());
    let mut play = |c: PlaybackCommand| out.push(Command::Playback(TimelineId::Latency, c));
    let arrived = lab.arrived();
    ui.horizontal_wrapped(|ui| {
        let tips = [
            "before the first packet",
            "one packet back",
            "the packets in arrival order, at the speed they arrived (Space)",
            "one more packet",
            "every packet",
        ];
        if let Some(c) = crate::app::transport(ui, lab.playback.playing, tips) {
            play(c);
        }
        let mut speed = lab.playback.speed;
        crate::app::speed_combo(
            ui,
            "latency speed",
            &mut speed,
            &[0.05, 0.1, 0.25, 0.5, 1.0, 2.0],
            "playback speed (1x: as fast as the packets came)",
        );
        if speed != lab.playback.speed {
            play(PlaybackCommand::Speed(speed));
        }
        let mut n = arrived;
        if ui
            .add(egui::Slider::new(&mut n, 0..=total.max(1)).text("packets arrived"))
            .changed()
        {
            play(PlaybackCommand::Seek(n as u64));
        }
        let now = arrived
            .checked_sub(1)
            .and_then(|i| lab.log()?.packets.get(i))
            .map(|p| p.received);
        ui.label(match now {
            Some(r) => format!("server time {} ms", text::ms(r)),
            None => "no packet yet".to_string(),
        });
        ui.label(format!(
            "bucket shown: {} ms",
            words::bucket_ms(lab.bucket_time(), lab.shown_step())
        ));
    });
    ui.horizontal(|ui| {
        for (k, name) in [
            (Knowledge::Received, "received"),
            (Knowledge::Interpolated, "interpolated"),
            (Knowledge::Unknown, "unknown"),
        ] {
            let (rect, _) = ui.allocate_exact_size(vec2(12.0, 12.0), Sense::hover());
            let look = crate::app::widgets::StripLook::of(ui);
            ui.painter().rect_filled(rect, 2.0, cell_colour(k, &look));
            ui.label(name);
        }
        ui.colored_label(
            Color32::from(palette::MTV),
            "collision (arrow: from when it was found)",
        );
        ui.colored_label(Color32::GRAY, "retracted");
    });
}

fn table(lab: &LatencyLab, ui: &mut egui::Ui, out: &mut Commands) {
    let (Some((k_lo, k_hi)), Some(log), Some(engine)) =
        (lab.bucket_range(), lab.log(), lab.engine())
    else {
        return;
    };
    let players = log.players.len().max(1);
    let look = crate::app::widgets::StripLook::of(ui);
    let width = ui.available_width();
    let col = ((width - LABELS - ARROWS) / players as f32).max(3.0);
    // The players' names over their columns.
    let (header, _) = ui.allocate_exact_size(vec2(width, 16.0), Sense::hover());
    for (i, p) in log.players.iter().enumerate() {
        let x = header.left() + LABELS + (i as f32 + 0.5) * col;
        if col >= 24.0 || i % ((24.0 / col).ceil() as usize).max(1) == 0 {
            ui.painter().text(
                pos2(x, header.center().y),
                egui::Align2::CENTER_CENTER,
                p.display_name(i),
                egui::FontId::proportional(look.small * 1.1),
                look.text,
            );
        }
    }
    let step = lab.shown_step();
    let bucket = lab.bucket();
    let all = k_hi - k_lo + 1;
    // The page of the bucket shown.
    let (k_lo, k_hi) = if all > PAGE_ROWS {
        let first = k_lo + (bucket.clamp(k_lo, k_hi) - k_lo) / PAGE_ROWS * PAGE_ROWS;
        ui.label(
            egui::RichText::new(words::latency_page(
                first as f64 * step,
                (first + PAGE_ROWS - 1).min(k_hi) as f64 * step,
                all,
            ))
            .weak(),
        );
        (first, (first + PAGE_ROWS - 1).min(k_hi))
    } else {
        (k_lo, k_hi)
    };
    let rows = (k_hi - k_lo + 1).max(1) as usize;
    let now = lab
        .arrived()
        .checked_sub(1)
        .and_then(|i| log.packets.get(i))
        .map(|p| p.received);
    let marks = lab.marks();
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt(("latency table", k_lo))
        .auto_shrink(false)
        .show_viewport(ui, |ui, viewport| {
            let (rect, response) =
                ui.allocate_exact_size(vec2(width, rows as f32 * ROW), Sense::click());
            let painter = ui.painter();
            let y_of = |t: f64| rect.top() + ((t / step - k_lo as f64) as f32 + 0.5) * ROW;
            let x_of = |p: usize| rect.left() + LABELS + (p as f32 + 0.5) * col;
            // The bucket stepped to (keys, findings) is brought into view, once.
            let moved = ui.data_mut(|d| {
                let id = egui::Id::unique("latency table bucket");
                let before = d.get_temp::<i64>(id);
                d.insert_temp(id, bucket);
                before != Some(bucket)
            });
            if moved && (k_lo..=k_hi).contains(&bucket) {
                let top = rect.top() + (bucket - k_lo) as f32 * ROW;
                let row = Rect::from_min_size(pos2(rect.left(), top), vec2(width, ROW));
                ui.scroll_to_rect(row, None);
            }
            let first = ((viewport.min.y / ROW).floor() as i64).max(0);
            let last = ((viewport.max.y / ROW).ceil() as i64).min(rows as i64 - 1);
            for row in first..=last {
                let k = k_lo + row;
                let t = k as f64 * step;
                let top = rect.top() + row as f32 * ROW;
                if k == bucket {
                    painter.rect_filled(
                        Rect::from_min_size(pos2(rect.left(), top), vec2(width, ROW)),
                        0.0,
                        look.quiet,
                    );
                }
                painter.text(
                    pos2(rect.left() + LABELS - 6.0, top + ROW / 2.0),
                    egui::Align2::RIGHT_CENTER,
                    format!("{} ms", words::bucket_ms(t, step)),
                    egui::FontId::monospace(look.small),
                    look.text,
                );
                for (p, track) in engine.tracks().iter().enumerate() {
                    let cell = Rect::from_min_size(
                        pos2(rect.left() + LABELS + p as f32 * col + 1.0, top + 1.0),
                        vec2((col - 2.0).max(1.0), ROW - 2.0),
                    );
                    painter.rect_filled(cell, 2.0, cell_colour(track.knowledge_at(t), &look));
                }
            }
            if let Some(r) = now {
                let y = y_of(r);
                painter.line_segment(
                    [pos2(rect.left(), y), pos2(rect.right(), y)],
                    Stroke::new(1.5, look.marker),
                );
                painter.text(
                    pos2(rect.right() - 2.0, y - 2.0),
                    egui::Align2::RIGHT_BOTTOM,
                    "server now",
                    egui::FontId::proportional(look.small),
                    look.marker,
                );
            }
            let mut hovered = Vec::new();
            let pointer = response.hover_pos();
            // Only the marks whose row or arrow is in view.
            let (t_first, t_last) = ((k_lo + first) as f64 * step, (k_lo + last + 1) as f64 * step);
            let in_view = |m: &&TimelineFinding| {
                let t = m.between.map_or(m.time, |b| b[0]);
                t.min(m.detected_at) <= t_last && t.max(m.detected_at) >= t_first
            };
            for (n, m) in marks.iter().enumerate().filter(|(_, m)| in_view(m)) {
                let colour = if m.retracted {
                    Color32::GRAY
                } else {
                    Color32::from(palette::MTV)
                };
                let y = y_of(m.between.map_or(m.time, |b| b[0]))
                    + if m.between.is_some() { ROW * 0.35 } else { 0.0 };
                let (xa, xb) = (x_of(m.a), x_of(m.b));
                painter.line_segment([pos2(xa, y), pos2(xb, y)], Stroke::new(2.5, colour));
                painter.circle_filled(pos2(xa, y), 3.5, colour);
                painter.circle_filled(pos2(xb, y), 3.5, colour);
                if m.retracted {
                    let c = pos2((xa + xb) / 2.0, y);
                    let d = 4.0;
                    for s in [-1.0, 1.0] {
                        painter.line_segment(
                            [c + vec2(-d, -d * s), c + vec2(d, d * s)],
                            Stroke::new(1.5, look.marker),
                        );
                    }
                }
                // From detection back to the bucket, in the right margin.
                let x = rect.right() - ARROWS + 8.0 + (n % 7) as f32 * 8.0;
                let from = pos2(x, y_of(m.detected_at));
                let to = pos2(x, y);
                arrow(painter, from, to, colour);
                painter.line_segment([pos2(xb.max(xa), y), to], Stroke::new(0.5, colour));
                if let Some(p) = pointer
                    && ((p.y - y).abs() < ROW / 2.0 && p.x >= xa.min(xb) - 4.0 && p.x <= xa.max(xb) + 4.0
                        || (p.x - x).abs() < 4.0 && p.y >= from.y.min(to.y) && p.y <= from.y.max(to.y))
                {
                    hovered.push(*m);
                }
            }
            if response.clicked()
                && let Some(p) = response.interact_pointer_pos()
            {
                clicked = Some(k_lo + ((p.y - rect.top()) / ROW).floor() as i64);
            }
            let names = |i: usize| log.players[i].display_name(i);
            if !hovered.is_empty() {
                let lines: Vec<String> = hovered
                    .iter()
                    .take(6)
                    .map(|m| {
                        format!(
                            "{}{}",
                            text::latency_collision(
                                &names(m.a),
                                &names(m.b),
                                m.time,
                                m.between,
                                m.detected_at
                            ),
                            if m.retracted {
                                "; retracted since (a later packet moved them apart)"
                            } else {
                                ""
                            }
                        )
                    })
                    .collect();
                response.on_hover_text(lines.join("\n"));
            } else {
                response.on_hover_text("a row per bucket time, a column per player: green received, blue interpolated, grey unknown as the server knows it now. Click a row to show that bucket.");
            }
        });
    if let Some(k) = clicked {
        out.push(Command::Latency(LatencyCommand::ShowBucket(
            k.clamp(k_lo, k_hi),
        )));
    }
}

/// A line from `from` to `to` with a head at `to`.
fn arrow(painter: &egui::Painter, from: Pos2, to: Pos2, colour: Color32) {
    painter.line_segment([from, to], Stroke::new(1.5, colour));
    let dir = (to - from).normalized();
    if !dir.x.is_finite() || !dir.y.is_finite() {
        return;
    }
    let side = vec2(-dir.y, dir.x) * 3.5;
    let back = to - dir * 7.0;
    painter.line_segment([to, back + side], Stroke::new(1.5, colour));
    painter.line_segment([to, back - side], Stroke::new(1.5, colour));
}
