//! A [`Plot`] (quantities over time) as a picture: one panel per quantity, stacked over one
//! time axis, a line per shape or pair (a pair's exact value dashed beside its claimed one,
//! tau dotted), the frames marked for events and disagreeing claims drawn across every panel
//! and numbered, and a legend under it naming the lines and the marks. `collidoscope plot`
//! writes it as SVG or PNG, in the themes and sizes of `render`.

use super::camera::Rect;
use super::frame::Picture;
use super::labels::{Importance, Label};
use super::mark::{Colour, Mark, Stroke, Vec2};
use super::palette::{self, Theme};
use crate::series::{MarkKind, Plot, Quantity, Side, Subject};
use crate::text::short_number;

/// The colours lines take, in turn, one per shape or pair and quantity.
pub const LINE_COLOURS: [Colour; 8] = [
    palette::A,
    palette::B,
    palette::CLOSEST,
    palette::DECIDING,
    palette::NAIVE,
    palette::SEPARATING,
    palette::CLAIMED,
    palette::OTHER,
];

/// The colour of a frame marked for `kind`.
pub fn mark_colour(kind: MarkKind) -> Colour {
    match kind {
        MarkKind::Event(_) | MarkKind::Found => palette::MTV,
        MarkKind::Disagrees => palette::CLAIMED,
        MarkKind::Retracted => palette::OTHER,
    }
}

/// The colour of each of `plot`'s lines: one per shape or pair, the same in every panel and
/// whatever else is plotted (tau grey).
pub fn line_colours(plot: &Plot) -> Vec<Colour> {
    let shapes = plot.shapes.len();
    plot.series
        .iter()
        .map(|s| match (s.side, s.subject) {
            (Side::Tolerance, _) => palette::OTHER,
            (_, Subject::Shape(n)) => LINE_COLOURS[n % LINE_COLOURS.len()],
            (_, Subject::Pair(n)) => LINE_COLOURS[(shapes + n) % LINE_COLOURS.len()],
        })
        .collect()
}

/// Whether a line has a value at some frame (one with none is left out of the picture and
/// named under it).
pub fn has_values(s: &crate::series::Series) -> bool {
    s.values.iter().any(|v| v.is_finite())
}

/// The labels of the lines with no value at any frame (the pair never claimed there, a
/// capture with no impulses), for a note.
pub fn empty_lines(plot: &Plot) -> Vec<&str> {
    plot.series
        .iter()
        .filter(|s| !has_values(s))
        .map(|s| s.label.as_str())
        .collect()
}

/// The quantities of `plot`'s lines that have a value somewhere, each once, in order: its
/// panels.
pub fn panels(plot: &Plot) -> Vec<Quantity> {
    let mut out = Vec::new();
    for s in plot.series.iter().filter(|s| has_values(s)) {
        if !out.contains(&s.quantity) {
            out.push(s.quantity);
        }
    }
    out
}

/// The range a panel's values span (0 kept in for quantities that are never below it), a
/// little room added; `(-1, 1)` with no value at all.
pub fn value_range(plot: &Plot, quantity: Quantity) -> (f64, f64) {
    let values = plot
        .series
        .iter()
        .filter(|s| s.quantity == quantity)
        .flat_map(|s| s.values.iter().copied())
        .filter(|v| v.is_finite());
    let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo > hi {
        return (-1.0, 1.0);
    }
    if matches!(
        quantity,
        Quantity::Speed | Quantity::Depth | Quantity::Impulse | Quantity::Error
    ) {
        lo = lo.min(0.0);
    }
    if hi - lo < 1e-12 * (1.0 + hi.abs()) {
        if hi == 0.0 && lo == 0.0 {
            return (0.0, 1.0);
        }
        let pad = if hi == 0.0 { 1.0 } else { hi.abs() * 0.1 };
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.06;
    lo -= if lo == 0.0 { 0.0 } else { pad };
    hi += pad;
    (lo, hi)
}

/// Round tick values from `lo` to `hi`, about `count` of them (steps of 1, 2 or 5 times a
/// power of ten).
pub fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater)
        || !lo.is_finite()
        || !hi.is_finite()
    {
        return vec![lo];
    }
    let rough = (hi - lo) / count.max(1) as f64;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// About how wide `text` is at the labels' 13 points.
fn text_width(text: &str) -> f32 {
    text.chars().count() as f32 * 7.0 + 4.0
}

/// The height of a legend row (points).
const ROW: f32 = 18.0;
/// The most marks the legend lists by name.
const MARKS_LISTED: usize = 8;

/// `plot` as a picture `size` pixels large in `theme`.
pub fn plot_picture(plot: &Plot, size: Vec2, theme: Theme) -> Picture {
    let scale = super::frame::Look::scale_for(size);
    let points = size / scale;
    let rect = Rect::from_min_size(Vec2::ZERO, points);
    let mut marks = Vec::new();
    let mut labels = Vec::new();
    let mut left_text = Vec::new();
    let text = |at: Vec2, words: String, colour: Colour| {
        let w = text_width(&words);
        (
            Label {
                at,
                text: words,
                colour,
                importance: Importance::Grid,
                fixed: true,
                other_side: None,
                names: None,
            },
            Rect::from_centre_size(at, Vec2::new(w, ROW - 2.0)),
        )
    };
    let colours = line_colours(plot);
    let quantities = panels(plot);
    let (left, right, top) = (78.0, points.x - 16.0, 22.0);
    // The legend: the lines in as many columns as fit, then the marks, one a row, as many as
    // leave the panels most of the height.
    let shown: Vec<(usize, &crate::series::Series)> = plot
        .series
        .iter()
        .enumerate()
        .filter(|(_, s)| has_values(s))
        .collect();
    let entries: Vec<String> = shown
        .iter()
        .map(|(_, s)| format!("{} ({})", s.label, s.unit))
        .collect();
    let empty = empty_lines(plot);
    let column = entries.iter().map(|e| text_width(e)).fold(0.0, f32::max) + 48.0;
    let columns = (((right - left) / column) as usize).clamp(1, 3);
    let line_rows = entries.len().div_ceil(columns);
    let room = ((points.y * 0.4) / ROW) as usize;
    let listed = plot
        .markers
        .len()
        .min(MARKS_LISTED)
        .min(room.saturating_sub(line_rows + 1));
    let more = plot.markers.len() - listed + plot.markers_left_out;
    let named = listed_marks(plot, listed);
    let legend_rows = line_rows + listed + usize::from(more > 0) + usize::from(!empty.is_empty());
    let legend = legend_rows as f32 * ROW + 8.0;
    let bottom = (points.y - legend - 34.0).max(top + 40.0);
    let (t0, t1) = plot.time_span();
    let x_of = |t: f64| left + ((t - t0) / (t1 - t0)) as f32 * (right - left);
    // Each panel's title stands in the gap above it, clear of its lines.
    let gap = 24.0;
    let n = quantities.len().max(1) as f32;
    let panel_h = ((bottom - top) - gap * (n - 1.0)) / n;
    for (k, &q) in quantities.iter().enumerate() {
        let ptop = top + k as f32 * (panel_h + gap);
        let pbot = ptop + panel_h;
        let (lo, hi) = value_range(plot, q);
        let y_of = |v: f64| pbot - ((v - lo) / (hi - lo)) as f32 * (pbot - ptop);
        marks.push(Mark::Rect {
            rect: Rect::from_two_points(Vec2::new(left, ptop), Vec2::new(right, pbot)),
            corner: 0.0,
            fill: Colour::TRANSPARENT,
            stroke: Stroke::new(1.0, palette::GRID_AXIS),
        });
        for v in ticks(lo, hi, ((panel_h / 36.0) as usize).clamp(2, 6)) {
            let y = y_of(v);
            marks.push(Mark::Segment {
                points: [Vec2::new(left, y), Vec2::new(right, y)],
                stroke: Stroke::new(1.0, palette::GRID),
            });
            let words = short_number(v);
            let w = text_width(&words);
            labels.push(text(
                Vec2::new(left - 4.0 - w / 2.0, y),
                words,
                palette::GRID_TEXT,
            ));
        }
        let unit = plot
            .series
            .iter()
            .find(|s| s.quantity == q)
            .map(|s| s.unit.clone())
            .unwrap_or_default();
        let title = format!("{} ({unit})", q.name());
        left_text.push((Vec2::new(left, ptop - 9.0), title, palette::RAY));
        for (s, &colour) in plot.series.iter().zip(&colours) {
            if s.quantity != q {
                continue;
            }
            let stroke = Stroke::new(if s.side == Side::Exact { 1.5 } else { 2.0 }, colour);
            for run in runs(&plot.times, &s.values, wraps(q)) {
                let points: Vec<Vec2> = run
                    .iter()
                    .map(|&(t, v)| Vec2::new(x_of(t), y_of(v)))
                    .collect();
                if let [dot] = points[..] {
                    marks.push(Mark::Circle {
                        centre: dot,
                        radius: 2.5,
                        fill: colour,
                        stroke: Stroke::NONE,
                    });
                } else {
                    marks.push(line_mark(points, s.side, stroke));
                }
            }
        }
        // The frames marked, across the panel.
        for m in &plot.markers {
            let x = x_of(m.time);
            marks.push(Mark::Dashed {
                points: vec![Vec2::new(x, ptop), Vec2::new(x, pbot)],
                stroke: Stroke::new(1.0, palette::faded(mark_colour(m.kind), 170)),
                dash: 4.0,
                gap: 3.0,
            });
        }
    }
    // Mark numbers over the top panel, the first `listed` of them, each clear of the last.
    let mut last_x = f32::NEG_INFINITY;
    for (i, m) in named.iter().enumerate() {
        let x = x_of(m.time);
        if x - last_x < 14.0 {
            continue;
        }
        last_x = x;
        labels.push(text(
            Vec2::new(x_of(m.time), top - 12.0),
            format!("{}", i + 1),
            mark_colour(m.kind),
        ));
    }
    // The time axis.
    for t in ticks(t0, t1, ((right - left) / 90.0) as usize) {
        let x = x_of(t);
        marks.push(Mark::Segment {
            points: [Vec2::new(x, bottom), Vec2::new(x, bottom + 4.0)],
            stroke: Stroke::new(1.0, palette::GRID_AXIS),
        });
        labels.push(text(
            Vec2::new(x, bottom + 12.0),
            short_number(t),
            palette::GRID_TEXT,
        ));
    }
    labels.push(text(
        Vec2::new(right - 60.0, bottom + 26.0),
        "time (s)".into(),
        palette::GRID_TEXT,
    ));
    // The legend.
    let mut y = bottom + 40.0;
    for (k, (&(i, s), entry)) in shown.iter().zip(entries).enumerate() {
        let colour = colours[i];
        let (row, col) = (k / columns, k % columns);
        let a = Vec2::new(left + col as f32 * column, y + row as f32 * ROW);
        marks.push(line_mark(
            vec![a, a + Vec2::new(24.0, 0.0)],
            s.side,
            Stroke::new(2.0, colour),
        ));
        left_text.push((a + Vec2::new(30.0, 0.0), entry, palette::RAY));
    }
    y += line_rows as f32 * ROW;
    for (i, m) in named.iter().enumerate() {
        left_text.push((
            Vec2::new(left, y),
            format!(
                "{}  frame {} ({} s): {}",
                i + 1,
                m.frame,
                short_number(m.time),
                m.text
            ),
            mark_colour(m.kind),
        ));
        y += ROW;
    }
    if more > 0 {
        left_text.push((
            Vec2::new(left, y),
            format!("and {more} more marks"),
            palette::GRID_TEXT,
        ));
        y += ROW;
    }
    if !empty.is_empty() {
        left_text.push((
            Vec2::new(left, y),
            crate::series::no_values_words(&empty),
            palette::GRID_TEXT,
        ));
    }
    Picture {
        rect,
        camera: super::Camera::default(),
        marks,
        backdrop: 0,
        labels,
        axis_lines: Vec::new(),
        scale,
        theme,
        caption: Vec::new(),
        left_text,
    }
}

/// A line of `side`: solid, dashed for an exact value, dotted for tau.
fn line_mark(points: Vec<Vec2>, side: Side, stroke: Stroke) -> Mark {
    match side {
        Side::Exact => Mark::Dashed {
            points,
            stroke,
            dash: 6.0,
            gap: 4.0,
        },
        Side::Tolerance => Mark::Dashed {
            points,
            stroke: Stroke::new(1.0, stroke.colour),
            dash: 2.0,
            gap: 3.0,
        },
        _ => Mark::Line {
            points,
            closed: false,
            stroke,
        },
    }
}

/// The runs of finite values of a line, with their times: a line breaks where a frame has no
/// value, and, for an angle (`wraps`), where it wraps past +-pi (a jump of more than pi from
/// one frame to the next), not drawn as a cliff. A lone value is a run of one (a dot).
pub fn runs(times: &[f64], values: &[f64], wraps: bool) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut run: Vec<(f64, f64)> = Vec::new();
    for (&t, &v) in times.iter().zip(values) {
        let wrapped = wraps
            && run
                .last()
                .is_some_and(|&(_, u)| (v - u).abs() > std::f64::consts::PI);
        if (!v.is_finite() || wrapped) && !run.is_empty() {
            out.push(std::mem::take(&mut run));
        }
        if v.is_finite() {
            run.push((t, v));
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

/// The `count` marks a legend names, in order of time: events before disagreeing claims
/// (a tunnel or a seam says more than one more claim off by 2e-5), the earliest of each.
pub fn listed_marks(plot: &Plot, count: usize) -> Vec<&crate::series::Marker> {
    let mut order: Vec<&crate::series::Marker> = plot.markers.iter().collect();
    order.sort_by_key(|m| matches!(m.kind, MarkKind::Disagrees));
    order.truncate(count);
    order.sort_by(|a, b| a.time.total_cmp(&b.time));
    order
}

/// Whether `quantity` is an angle that wraps at +-pi.
pub fn wraps(quantity: Quantity) -> bool {
    matches!(quantity, Quantity::Angle | Quantity::NormalAngle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_within_the_range() {
        let t = ticks(0.0, 1.0, 5);
        assert_eq!(t.len(), 6);
        assert!(
            t.iter()
                .enumerate()
                .all(|(k, v)| (v - 0.2 * k as f64).abs() < 1e-12)
        );
        assert_eq!(ticks(-3.0, 12.0, 3), vec![0.0, 5.0, 10.0]);
        assert_eq!(ticks(1.0, 1.0, 4), vec![1.0]);
    }

    #[test]
    fn a_line_breaks_where_a_frame_has_no_value() {
        let t = [0.0, 1.0, 2.0, 3.0, 4.0];
        let v = [1.0, f64::NAN, 2.0, 3.0, f64::NAN];
        assert_eq!(
            runs(&t, &v, false),
            vec![vec![(0.0, 1.0)], vec![(2.0, 2.0), (3.0, 3.0)]]
        );
        // An angle past pi starts a new run rather than a cliff.
        let a = [3.0, 3.1, -3.1, -3.0, 0.0];
        assert_eq!(runs(&t, &a, true).len(), 2);
        assert_eq!(runs(&t, &a, false).len(), 1);
    }
}
