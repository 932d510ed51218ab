//! Every candidate axis in a table: where it comes from, both shadows, the overlap or gap,
//! and what it decided. Narrow enough for the side panel (where both shadows' columns would
//! not fit beside each other, they share one, A over B; on a phone the axis's source shares
//! one with its overlap too); the full wording is in each row's tooltip.

use crate::app::words;
use crate::picture::palette;
use crate::query::{AxisRole, Mistake, SatReport};
use crate::text::{self, PairNames};
use eframe::egui::{self, RichText};

/// Where a table sits: its id, and whether it scrolls down itself (not inside a panel that
/// scrolls already).
pub struct Place<'a> {
    /// The table's id.
    pub id: &'a str,
    /// Whether it scrolls vertically itself.
    pub scroll_down: bool,
    /// Whether `current` is a step of step mode, whose row is brought into view once.
    pub follow: bool,
}

/// The first `seen` axes of `report` (all of them outside step mode); the deciding axis is
/// marked only when `verdict` may be shown; row `current` is highlighted. Returns the row
/// under the pointer.
pub fn ui(
    ui: &mut egui::Ui,
    report: &SatReport,
    names: &PairNames,
    seen: usize,
    verdict: bool,
    current: Option<usize>,
    place: Place,
) -> Option<usize> {
    let Place {
        id,
        scroll_down,
        follow,
    } = place;
    let mut hovered = None;
    let spans = |k: usize| {
        let t = &report.axes[k];
        (words::short_interval(t.a), words::short_interval(t.b))
    };
    // Both shadows in one column, A over B, when side by side they would run past the panel
    // (long numbers, a narrow panel), and the source over the overlap where even that would
    // (a phone): the last column stays in view, with no sideways scroll a finger cannot make.
    let fit = {
        let font = egui::TextStyle::Body.resolve(ui.style());
        let width = |text: &str| {
            ui.fonts_mut(|f| {
                f.layout_no_wrap(text.to_string(), font.clone(), egui::Color32::WHITE)
                    .size()
                    .x
            })
        };
        let widest = |texts: &mut dyn Iterator<Item = String>| {
            texts.map(|t| width(&t)).fold(0.0f32, f32::max)
        };
        let rows = 0..report.axes.len().min(seen);
        let columns = [
            widest(&mut rows.clone().map(|k| format!("{}", k + 1))).max(width("#")),
            widest(&mut rows.clone().map(|k| match report.repeats(k) {
                Some(j) => format!("same as {}", j + 1),
                None => words::axis_source_short(report.axes[k].source),
            }))
            .max(width("axis from")),
            widest(&mut rows.clone().map(|k| {
                format!(
                    "{} > MTV",
                    words::short_overlap(report.shown(report.axes[k].overlap))
                )
            }))
            .max(width("overlap")),
            widest(&mut rows.clone().map(|k| spans(k).0)).max(width("A spans")),
            widest(&mut rows.clone().map(|k| spans(k).1)).max(width("B spans")),
        ];
        // Each column's gap, and a little for the current row's stronger text.
        let [number, source, overlap, a, b] = columns;
        let room = ui.available_width() - 12.0;
        if number + source + overlap + a + b + 8.0 * 4.0 <= room {
            Fit::Wide
        } else if number + source + overlap + a.max(b) + 8.0 * 3.0 <= room {
            Fit::Stacked
        } else {
            Fit::Narrow
        }
    };
    let stacked = fit != Fit::Wide;
    // Both ways: on a narrow panel the table scrolls sideways rather than overflow it.
    // Inside a panel that scrolls already, only sideways, by its bar: a finger's drag on the
    // table scrolls the panel (taken here, it would move the table sideways only).
    let area = if scroll_down {
        egui::ScrollArea::both()
    } else {
        use egui::scroll_area::ScrollSource;
        egui::ScrollArea::horizontal()
            .scroll_source(ScrollSource::SCROLL_BAR | ScrollSource::MOUSE_WHEEL)
    };
    // One scroll position per pair: another pair's table starts at its left edge.
    area.id_salt((id, &names.a, &names.b))
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new((id, "grid"))
                .striped(true)
                .num_columns(match fit {
                    Fit::Wide => 5,
                    Fit::Stacked => 4,
                    Fit::Narrow => 3,
                })
                .spacing([8.0, 4.0])
                // Each column as wide as its widest cell, as measured above (egui's own
                // minimum, a button's width, made "#" 40 points wide and cut the last column).
                .min_col_width(0.0)
                .show(ui, |ui| {
                    let header = |ui: &mut egui::Ui, text: &str, tip: String| {
                        ui.label(RichText::new(text).strong()).on_hover_text(tip);
                    };
                    header(ui, "#", "the order a SAT loop tries the axes".into());
                    let source_tip = format!(
                            "where the candidate axis comes from\n\n{}\n\n{}\n\n{}",
                            words::glossary("axis"),
                            words::glossary("edge"),
                            words::glossary("corner")
                        );
                    let (overlap_name, overlap_tip) = if report.mistake == Some(Mistake::NaiveSmallestOverlap) {
                        let tip = "the naive rule's overlap: the length of the shadows' common part";
                        ("common", tip.to_string())
                    } else {
                        let overlap_tip = format!(
                            "how far B must move along the axis to leave A (a gap separates), and what the axis decided\n\n{}",
                            words::glossary("MTV")
                        );
                        ("overlap", overlap_tip)
                    };
                    if fit == Fit::Narrow {
                        let tip = format!("{source_tip}\n\nUnder it: {overlap_tip}");
                        header(ui, &format!("axis from,\n{overlap_name}"), tip);
                    } else {
                        header(ui, "axis from", source_tip);
                        header(ui, overlap_name, overlap_tip);
                    }
                    if stacked {
                        let tip = format!(
                            "{}'s shadow on the axis, over {}'s",
                            names.a, names.b
                        );
                        header(ui, "A, B spans", tip);
                    } else {
                        header(ui, "A spans", format!("{}'s shadow on the axis", names.a));
                        header(ui, "B spans", format!("{}'s shadow on the axis", names.b));
                    }
                    ui.end_row();
                    for (k, t) in report.axes.iter().enumerate().take(seen) {
                        let role = report.role(k);
                        let shown_role = if role == AxisRole::Deciding && !verdict {
                            if t.separating {
                                AxisRole::Separating
                            } else {
                                AxisRole::Overlapping
                            }
                        } else {
                            role
                        };
                        // In a light look (the projector's) each colour is its light
                        // counterpart, as the scene's are: the dark look's pale yellow and
                        // navy row do not read on white.
                        let theme = if ui.visuals().dark_mode {
                            palette::Theme::Dark
                        } else {
                            palette::Theme::Light
                        };
                        let text_colour = ui.visuals().text_color().into();
                        let role_colour = palette::axis_colour(shown_role, text_colour);
                        let colour = egui::Color32::from(if role_colour == text_colour {
                            role_colour
                        } else {
                            theme.colour(role_colour)
                        });
                        let current_row = egui::Color32::from(theme.colour(palette::CURRENT_ROW));
                        let is_current = current == Some(k);
                        let cell = |text: String| {
                            let rich = RichText::new(text).color(colour);
                            if is_current {
                                rich.strong().background_color(current_row)
                            } else {
                                rich
                            }
                        };
                        let decided = match shown_role {
                            AxisRole::Deciding if report.intersecting() => " > MTV",
                            AxisRole::Deciding => " > stop",
                            _ => "",
                        };
                        let repeats = report.repeats(k);
                        let tip = format!(
                            "{}\naxis {}\n{} spans {}, {} spans {}: {}\n{}{}",
                            text::axis_source(t.source, names),
                            text::point(t.axis),
                            names.a,
                            text::interval(t.a),
                            names.b,
                            text::interval(t.b),
                            text::overlap_or_gap(report.shown(t.overlap)),
                            if verdict {
                                text::decision(report, k)
                            } else if t.separating {
                                "separates"
                            } else {
                                "overlaps"
                            },
                            repeats.map_or(String::new(), |j| format!("\n{}", text::parallel_note(j)))
                        );
                        let (a_spans, b_spans) = spans(k);
                        // Short, the table is narrow: the tooltip says which edge.
                        let source = match repeats {
                            Some(j) => format!("same as {}", j + 1),
                            None => words::axis_source_short(t.source),
                        };
                        let overlap = format!("{}{decided}", words::short_overlap(report.shown(t.overlap)));
                        let mut row = vec![ui.label(cell(format!("{}", k + 1)))];
                        if fit == Fit::Narrow {
                            row.push(ui.label(cell(format!("{source}\n{overlap}"))));
                        } else {
                            row.push(ui.label(cell(source)));
                            row.push(ui.label(cell(overlap)));
                        }
                        if stacked {
                            row.push(ui.label(cell(format!("{a_spans}\n{b_spans}"))));
                        } else {
                            row.push(ui.label(cell(a_spans)));
                            row.push(ui.label(cell(b_spans)));
                        }
                        if row.iter().any(|r| r.hovered()) {
                            hovered = Some(k);
                            row[1].clone().on_hover_text(tip);
                        }
                        // A step brings its row into view once (on a phone the table is below
                        // the fold), and leaves the scrolling to the reader after.
                        if is_current && follow {
                            let id = ui.make_persistent_id("axes table row shown");
                            let shown = ui.data(|d| d.get_temp::<usize>(id));
                            if shown != Some(k) {
                                ui.data_mut(|d| d.insert_temp(id, k));
                                row[0].scroll_to_me(None);
                            }
                        }
                        ui.end_row();
                    }
                });
        });
    hovered
}

/// How the table's columns fit the room there is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// Five columns: #, source, overlap, A's shadow, B's.
    Wide,
    /// Four: both shadows in one, A over B.
    Stacked,
    /// Three: the source over the overlap too.
    Narrow,
}
