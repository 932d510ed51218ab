//! Labels that do not pile up or hide what they explain: placed in order of importance, each
//! at the spot around its anchor where it overlaps no label placed before it, stays inside the
//! view and crosses the fewest lines of the marks ([`Obstacles`]: outlines, arrows, axis bars,
//! contact rings), the nearest spot first among equals. A label with no free spot is dropped,
//! and so is a shape's name that every spot would strike through.

use super::mark::{Colour, Mark, Rect, Vec2};
use crate::geometry::{DVec2, Rounded};

/// How much a label matters: more important ones are placed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Importance {
    /// Grid numbers.
    Grid,
    /// Names of shapes outside the pair.
    Name,
    /// A note beside an axis that repeats an earlier one (`#5 parallel to #1`): the table
    /// says it too, so it is left out rather than struck through.
    Repeat,
    /// Names of the explained pair.
    PairName,
    /// An axis's overlap or gap.
    Axis,
    /// The label of the axis in focus (stepped to, hovered, deciding): placed before the other
    /// axes' labels, so that they give way to it rather than push it away from its bars.
    Focus,
    /// The headline: MTV, distance, a refused edit.
    Headline,
}

/// Text to paint at a point (text needs fonts, which only a painter has).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where it wants to be (screen, the label's centre).
    pub at: Vec2,
    /// What.
    pub text: String,
    /// Colour.
    pub colour: Colour,
    /// How much it matters.
    pub importance: Importance,
    /// Grid numbers stay where they are (they sit at the view's edge by design).
    pub fixed: bool,
    /// A second anchor, on the other side of what the label names (an axis's label inside
    /// its ring rather than outside it), tried when no spot around `at` is clear.
    pub other_side: Option<Vec2>,
    /// What the label names, as a segment on screen: an axis's line with its bars, an arrow
    /// from its tail to its tip. An axis's label is kept within [`AXIS_REACH`] label heights of
    /// it, beside it or past either end; any label that stands off more than [`LEADER`] label
    /// heights from it gets a leader line to it ([`leader`]).
    pub names: Option<[Vec2; 2]>,
}

/// An axis's label stands at most this many of its own heights from its axis's line: farther,
/// it would seem to name another line (or none), so it is left out rather than moved there.
pub const AXIS_REACH: f32 = 2.0;

/// A label farther than this many of its own heights from what it names gets a leader line.
pub const LEADER: f32 = 0.5;

/// The leader line of a placed label (its box `rect`): from the nearest point of its box to
/// the nearest point of what it names, when that is more than [`LEADER`] label heights away;
/// `None` for a label that names no segment or stands next to it.
pub fn leader(label: &Label, rect: Rect) -> Option<[Vec2; 2]> {
    let [p, q] = label.names?;
    let (on_box, on_named) = nearest(rect, p, q);
    // Starting a little off the box: the line does not touch the text.
    let from = on_box + (on_named - on_box).normalize_or_zero() * 2.0;
    (on_box.distance(on_named) > LEADER * rect.height()).then_some([from, on_named])
}

/// The leader lines of `placed` labels (each with its box), as marks to paint under them:
/// thin lines in each label's colour. A leader that would run through another label is left
/// out: it would strike that one through and seem to tie it to the arrow.
pub fn leader_marks<'a>(placed: impl Iterator<Item = &'a (Label, Rect)> + Clone) -> Vec<Mark> {
    let mut marks = Vec::new();
    for (label, rect) in placed.clone() {
        let Some([p, q]) = leader(label, *rect) else {
            continue;
        };
        let through = placed
            .clone()
            .any(|(_, other)| other != rect && clip(p, q, *other).is_some());
        if !through {
            marks.push(Mark::Segment {
                points: [p, q],
                stroke: super::mark::Stroke::new(1.0, super::palette::faded(label.colour, 200)),
            });
        }
    }
    marks
}

/// The nearest points of box `r` and segment `p`-`q` (the same point twice where they meet).
/// Between a box and a segment, both convex, the distance is least at a corner of the box or
/// an end of the segment, unless they cross.
fn nearest(r: Rect, p: Vec2, q: Vec2) -> (Vec2, Vec2) {
    if let Some((a, _)) = clip(p, q, r) {
        return (a, a);
    }
    let on_segment = |c: Vec2| {
        let d = q - p;
        let t = ((c - p).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        if t.is_finite() { p + d * t } else { p }
    };
    let corners = [
        r.min,
        Vec2::new(r.max.x, r.min.y),
        r.max,
        Vec2::new(r.min.x, r.max.y),
    ];
    let ends = [p, q].map(|e| (e.clamp(r.min, r.max), e));
    corners
        .map(|c| (c, on_segment(c)))
        .into_iter()
        .chain(ends)
        .min_by(|x, y| x.0.distance(x.1).total_cmp(&y.0.distance(y.1)))
        .unwrap_or((p, p))
}

/// How far box `r` is from segment `p`-`q` (0 where they meet).
pub fn distance_to_segment(r: Rect, [p, q]: [Vec2; 2]) -> f32 {
    let (a, b) = nearest(r, p, q);
    a.distance(b)
}

/// The lines labels keep clear of: the segments of the marks painted (screen), each with its
/// half width, cut into the square buckets of a grid over the view (each piece in one bucket)
/// for lookup by area.
#[derive(Clone, Debug, Default)]
pub struct Obstacles {
    /// The view the lines were clipped to.
    view: Option<Rect>,
    /// The grid's columns and rows.
    size: (usize, usize),
    /// Every bucket's pieces, bucket after bucket (row by row), each bucket's in the order its
    /// lines were added.
    pieces: Vec<Piece>,
    /// Where each bucket's pieces start in `pieces`, and where the last one's end.
    starts: Vec<u32>,
    /// The pieces as they are added, with their buckets (sorted into `pieces` when all are in).
    loose: Vec<(u32, Piece)>,
    /// The corners of the closed outlines (shapes, polygons), as drawn, one after another: a
    /// shape's name sitting inside its own outline is not struck through by it.
    corners: Vec<Vec2>,
    /// Where each closed outline's corners start in `corners`, and where the last one's end.
    outlines: Vec<u32>,
    /// The buckets filled, row by row: `None` for all of them; else only those that some
    /// labels' spots can look at ([`Obstacles::of_marks_for`]).
    wanted: Option<Vec<bool>>,
}

/// A piece of a line in one bucket: its ends, half its width, and the closed outline the line
/// belongs to (an index into `outlines`, or [`NO_OUTLINE`]).
type Piece = (Vec2, Vec2, f32, u32);

/// A segment that belongs to no closed outline.
const NO_OUTLINE: u32 = u32::MAX;

/// The side of an [`Obstacles`] bucket (points).
const BUCKET: f32 = 48.0;

/// A label's box is its text's plus this (points).
const LABEL_MARGIN: Vec2 = Vec2::new(4.0, 2.0);

/// Lines are looked for in the buckets this far around a label's box (points).
const LOOK_AROUND: f32 = 4.0;

/// At most this many shapes' outlines become obstacles (a crowd's names are few anyway).
const MAX_OUTLINES: usize = 3000;

/// Chords per turn of a rounded shape's outline as an obstacle (coarser than it is drawn).
const OUTLINE_CHORDS: usize = 16;

/// A shape reaching less than this far from its origin on screen (points) is a few chords as an
/// obstacle.
const SMALL: f64 = 16.0;

/// Chords per turn of a small rounded shape's outline as an obstacle.
const SMALL_CHORDS: usize = 6;

/// A filled dot smaller than this radius (points) is no obstacle: a crowd's shapes drawn as
/// dots (a contact's dot, 4 points, is one).
const DOT: f32 = 4.0;

impl Obstacles {
    /// The lines of `marks` that reach into `view`.
    pub fn of_marks(marks: &[Mark], view: Rect) -> Self {
        let mut o = Self::grid(view);
        o.add_marks(marks);
        o.sort();
        o
    }

    /// The lines of `marks` that `labels` can meet when placed against them alone
    /// ([`place_around`] with `size`): only the buckets their spots look at are filled (and,
    /// for a name, the row of buckets through its anchor, where its own outline is found), so
    /// that a crowd of shapes with few labels costs little. Placing those labels against these
    /// lines gives what placing them against [`Obstacles::of_marks`] gives; other labels only
    /// where [`Obstacles::serves`] says so.
    pub fn of_marks_for(
        marks: &[Mark],
        view: Rect,
        labels: &[Label],
        size: impl Fn(&str) -> Vec2,
    ) -> Self {
        let mut o = Self::grid(view);
        o.wanted = Some(o.wanted_by(labels, size));
        o.add_marks(marks);
        o.sort();
        o
    }

    /// Whether placing `labels` against these lines gives what placing them against all of
    /// them would: every bucket their spots look at is filled.
    pub fn serves(&self, labels: &[Label], size: impl Fn(&str) -> Vec2) -> bool {
        let Some(wanted) = &self.wanted else {
            return true;
        };
        let needed = self.wanted_by(labels, size);
        needed.iter().zip(wanted).all(|(n, w)| !n || *w)
    }

    /// The buckets that placing `labels` (measured by `size`) looks at.
    fn wanted_by(&self, labels: &[Label], size: impl Fn(&str) -> Vec2) -> Vec<bool> {
        let mut wanted = vec![false; self.size.0 * self.size.1];
        let Some(view) = self.view else {
            return wanted;
        };
        let inner = view.shrink(2.0);
        let mut mark = |lo: (usize, usize), hi: (usize, usize)| {
            for j in lo.1..=hi.1 {
                for i in lo.0..=hi.0 {
                    wanted[i + j * self.size.0] = true;
                }
            }
        };
        for first in labels.iter().filter(|l| !l.fixed && shown(l, view)) {
            if matches!(first.importance, Importance::Name | Importance::PairName) {
                let (_, j) = self.cell(first.at);
                mark((0, j), (self.size.0 - 1, j));
            }
            // An axis's label may be tried again as its number alone, a smaller box.
            for label in std::iter::once(first.clone()).chain(number_alone(first)) {
                let s = size(&label.text) + LABEL_MARGIN;
                for at in candidates(&label, s) {
                    if let Some(centre) = clamp_inside(at, s, inner) {
                        let grown = Rect::from_centre_size(centre, s).expand(LOOK_AROUND);
                        mark(self.cell(grown.min), self.cell(grown.max));
                    }
                }
            }
        }
        wanted
    }

    /// No lines yet, in buckets over `view`.
    fn grid(view: Rect) -> Self {
        let cells = |length: f32| {
            if length.is_finite() && length > 0.0 {
                (length / BUCKET).ceil().clamp(1.0, 4096.0) as usize
            } else {
                1
            }
        };
        let size = (cells(view.width()), cells(view.height()));
        Obstacles {
            view: Some(view),
            size,
            pieces: Vec::new(),
            starts: Vec::new(),
            loose: Vec::new(),
            corners: Vec::new(),
            outlines: vec![0],
            wanted: None,
        }
    }

    /// The pieces added, sorted by bucket (a stable counting sort: each bucket's in the order
    /// they were added).
    fn sort(&mut self) {
        let n = self.size.0 * self.size.1;
        let mut starts = vec![0u32; n + 1];
        for (k, _) in &self.loose {
            starts[*k as usize + 1] += 1;
        }
        for k in 0..n {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let filler = (Vec2::ZERO, Vec2::ZERO, 0.0, NO_OUTLINE);
        let mut pieces = vec![filler; self.loose.len()];
        // The loose pieces let go once sorted (a kept frame holds its lines once).
        for (k, piece) in std::mem::take(&mut self.loose) {
            let at = &mut next[k as usize];
            pieces[*at as usize] = piece;
            *at += 1;
        }
        self.pieces = pieces;
        self.starts = starts;
    }

    /// The pieces in bucket `k`.
    fn bucket(&self, k: usize) -> &[Piece] {
        match self.starts.get(k..k + 2) {
            Some(&[a, b]) => &self.pieces[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The corners of closed outline `k`.
    fn outline(&self, k: u32) -> &[Vec2] {
        let k = k as usize;
        &self.corners[self.outlines[k] as usize..self.outlines[k + 1] as usize]
    }

    /// Whether bucket `k` is filled.
    fn wants(&self, k: usize) -> bool {
        self.wanted.as_ref().is_none_or(|w| w[k])
    }

    /// Whether any filled bucket meets the box from `lo` to `hi` (screen): a mark wholly
    /// outside it adds nothing.
    fn wants_box(&self, lo: Vec2, hi: Vec2) -> bool {
        let Some(wanted) = &self.wanted else {
            return true;
        };
        if !(lo.is_finite() && hi.is_finite()) {
            return true;
        }
        let ((i0, j0), (i1, j1)) = (self.cell(lo), self.cell(hi));
        (j0..=j1).any(|j| (i0..=i1).any(|i| wanted[i + j * self.size.0]))
    }

    /// The bucket (column, row) of point `p`, clamped to the grid.
    fn cell(&self, p: Vec2) -> (usize, usize) {
        let Some(view) = self.view else { return (0, 0) };
        // The floor of a number not below 0 is its integer part (NaN goes to 0 too). Through
        // `i32`, whose saturating conversion is a few instructions where `usize`'s is a score:
        // past `i32::MAX` both end at the last bucket (at most 4,096 a side).
        let index = |v: f32, lo: f32, n: usize| {
            let k = (v - lo) / BUCKET;
            if k >= 1.0 {
                (k as i32 as usize).min(n - 1)
            } else {
                0
            }
        };
        (
            index(p.x, view.min.x, self.size.0),
            index(p.y, view.min.y, self.size.1),
        )
    }

    /// Add the lines of `marks` that reach into the view: every stroked or filled mark's
    /// outline (a filled dot's too, a contact's), dashed lines whole.
    fn add_marks(&mut self, marks: &[Mark]) {
        let mut outlines = 0;
        for mark in marks {
            match mark {
                Mark::Segment { points, stroke } if !stroke.is_none() => {
                    self.add(points[0], points[1], stroke.width, NO_OUTLINE);
                }
                Mark::Line {
                    points,
                    closed,
                    stroke,
                } if !stroke.is_none() => self.add_path(points, *closed, stroke.width),
                Mark::Dashed { points, stroke, .. } if !stroke.is_none() => {
                    self.add_path(points, false, stroke.width);
                }
                Mark::Polygon {
                    points,
                    fill,
                    stroke,
                } if !stroke.is_none() || !fill.is_transparent() => {
                    self.add_path(points, true, stroke.width);
                }
                Mark::Circle {
                    centre,
                    radius,
                    fill,
                    stroke,
                } if !stroke.is_none() || (!fill.is_transparent() && *radius >= DOT) => {
                    let margin = Vec2::splat(*radius + 2.0 + stroke.width);
                    if !self
                        .view
                        .is_some_and(|v| v.expand(*radius).contains(*centre))
                        || !self.wants_box(*centre - margin, *centre + margin)
                    {
                        continue;
                    }
                    let sides = if *radius < 6.0 { 6 } else { 16 };
                    let ring: Vec<Vec2> = (0..sides)
                        .map(|k| {
                            let a = std::f32::consts::TAU * k as f32 / sides as f32;
                            *centre + Vec2::new(a.cos(), a.sin()) * *radius
                        })
                        .collect();
                    self.add_path(&ring, true, stroke.width);
                }
                Mark::Shape {
                    shape,
                    pose,
                    per_turn,
                    camera,
                    rect,
                    stroke,
                    ..
                } if outlines < MAX_OUTLINES => {
                    // A shape smaller on screen than a dot is no obstacle either (a crowd's
                    // shapes, which carry no names); a small one is a few chords.
                    let reach = shape.bounding_radius() * camera.scale;
                    if reach < f64::from(DOT) {
                        continue;
                    }
                    outlines += 1;
                    // Its outline lies within `reach` of its centre (a point or two more in
                    // f32, and its stroke).
                    let centre = camera.to_screen(*rect, pose.apply(shape.local_centre()));
                    let margin = Vec2::splat(reach as f32 + 2.0 + stroke.width);
                    if !self.wants_box(centre - margin, centre + margin) {
                        continue;
                    }
                    let chords = if reach < SMALL {
                        SMALL_CHORDS
                    } else {
                        OUTLINE_CHORDS
                    };
                    // A coarse outline is enough to tell whether a label crosses it.
                    let start = self.corners.len();
                    self.corners.extend(
                        Rounded::at(shape, *pose, DVec2::ZERO)
                            .outline_with((*per_turn).min(chords))
                            .into_iter()
                            .map(|p| camera.to_screen(*rect, p)),
                    );
                    self.close_outline(start, stroke.width);
                }
                Mark::Rect { rect, stroke, .. } if !stroke.is_none() => {
                    let corners = [
                        rect.min,
                        Vec2::new(rect.max.x, rect.min.y),
                        rect.max,
                        Vec2::new(rect.min.x, rect.max.y),
                    ];
                    self.add_path(&corners, true, stroke.width);
                }
                _ => {}
            }
        }
    }

    fn add_path(&mut self, points: &[Vec2], closed: bool, width: f32) {
        if closed {
            let start = self.corners.len();
            self.corners.extend_from_slice(points);
            self.close_outline(start, width);
            return;
        }
        for w in points.windows(2) {
            self.add(w[0], w[1], width, NO_OUTLINE);
        }
    }

    /// The corners from `start` on, just added, as a closed outline (or, fewer than three, as
    /// an open path, not kept as an outline).
    fn close_outline(&mut self, start: usize, width: f32) {
        let end = self.corners.len();
        if end - start <= 2 {
            let points: Vec<Vec2> = self.corners.drain(start..).collect();
            for w in points.windows(2) {
                self.add(w[0], w[1], width, NO_OUTLINE);
            }
            return;
        }
        self.outlines.push(end as u32);
        let outline = (self.outlines.len() - 2) as u32;
        for k in start..end - 1 {
            self.add(self.corners[k], self.corners[k + 1], width, outline);
        }
        self.add(self.corners[end - 1], self.corners[start], width, outline);
    }

    /// One segment, kept where it reaches into the view (clipped to it, so a huge shape's
    /// far edges cost nothing to look up), cut at the buckets' edges.
    fn add(&mut self, p: Vec2, q: Vec2, width: f32, outline: u32) {
        let Some(view) = self.view else { return };
        // A segment inside the view is its own clip (`clip` gives t 0 and 1 for it exactly).
        let (p, q) = if view.contains(p) && view.contains(q) {
            (p, p + (q - p))
        } else {
            let Some(clipped) = clip(p, q, view) else {
                return;
            };
            clipped
        };
        let ((i0, j0), (i1, j1)) = (self.cell(p.min(q)), self.cell(p.max(q)));
        if (i0, j0) == (i1, j1) {
            // Most pieces of an outline lie in one bucket.
            let k = i0 + j0 * self.size.0;
            if self.wants(k) {
                self.loose.push((k as u32, (p, q, 0.5 * width, outline)));
            }
            return;
        }
        for j in j0..=j1 {
            for i in i0..=i1 {
                if !self.wants(i + j * self.size.0) {
                    continue;
                }
                let b = Rect::from_min_size(
                    view.min + Vec2::new(i as f32, j as f32) * BUCKET,
                    Vec2::splat(BUCKET),
                );
                if let Some((a, c)) = clip(p, q, b) {
                    let k = (i + j * self.size.0) as u32;
                    self.loose.push((k, (a, c, 0.5 * width, outline)));
                }
            }
        }
    }

    /// How much line runs through `r`: the summed length inside it of every segment (grown
    /// by its half width), but for the outlines in `own`.
    pub fn cost(&self, r: Rect, own: &[u32]) -> f32 {
        self.cost_up_to(r, own, f32::INFINITY)
    }

    /// [`Obstacles::cost`], told only up to a little past `enough` (more is not needed).
    fn cost_up_to(&self, r: Rect, own: &[u32], enough: f32) -> f32 {
        if self.starts.is_empty() {
            return 0.0;
        }
        let grown = r.expand(LOOK_AROUND);
        let ((i0, j0), (i1, j1)) = (self.cell(grown.min), self.cell(grown.max));
        let mut total = 0.0;
        for j in j0..=j1 {
            for i in i0..=i1 {
                for &(p, q, half, outline) in self.bucket(i + j * self.size.0) {
                    // Most pieces of a bucket miss the label's box by far.
                    let (lo, hi) = (p.min(q) - Vec2::splat(half), p.max(q) + Vec2::splat(half));
                    if hi.x < r.min.x || lo.x > r.max.x || hi.y < r.min.y || lo.y > r.max.y {
                        continue;
                    }
                    if own.contains(&outline) {
                        continue;
                    }
                    if let Some((a, b)) = clip(p, q, r.expand(half)) {
                        total += a.distance(b);
                        if total > enough {
                            return total;
                        }
                    }
                }
            }
        }
        total
    }

    /// The closed outlines around `p`: what a name anchored at `p` sits inside.
    fn outlines_around(&self, p: Vec2) -> Vec<u32> {
        let mut around: Vec<u32> = Vec::new();
        if self.starts.is_empty() {
            return around;
        }
        // Each outline tried once (a row holds hundreds of pieces of tens of outlines).
        let mut checked = vec![false; self.outlines.len()];
        // An outline around `p` has a piece level with it on either side: in the row of
        // buckets through `p` (within the view, where every segment was clipped).
        let (_, j) = self.cell(p);
        for i in 0..self.size.0 {
            for &(_, _, _, outline) in self.bucket(i + j * self.size.0) {
                if outline == NO_OUTLINE || std::mem::replace(&mut checked[outline as usize], true)
                {
                    continue;
                }
                if inside(self.outline(outline), p) {
                    around.push(outline);
                }
            }
        }
        around
    }

    /// Whether there are no lines at all.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }
}

/// Whether `p` is inside the closed outline `points` (even-odd rule).
fn inside(points: &[Vec2], p: Vec2) -> bool {
    let mut odd = false;
    let n = points.len();
    for k in 0..n {
        let (a, b) = (points[k], points[(k + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            odd = !odd;
        }
    }
    odd
}

/// The part of segment `p`-`q` inside `r` (Liang-Barsky), if any.
pub(super) fn clip(p: Vec2, q: Vec2, r: Rect) -> Option<(Vec2, Vec2)> {
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let d = q - p;
    for (start, delta, lo, hi) in [(p.x, d.x, r.min.x, r.max.x), (p.y, d.y, r.min.y, r.max.y)] {
        if !start.is_finite() || !delta.is_finite() {
            return None;
        }
        if delta.abs() < 1e-6 {
            if start < lo || start > hi {
                return None;
            }
            continue;
        }
        let (mut a, mut b) = ((lo - start) / delta, (hi - start) / delta);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        t0 = t0.max(a);
        t1 = t1.min(b);
        if t0 > t1 {
            return None;
        }
    }
    Some((p + d * t0, p + d * t1))
}

/// A name crossed by more line than this share of its height, at its best spot, is left out
/// (one line across it is about its height, one along it its width): better no name than one
/// struck through.
const NAME_CROSSED: f32 = 0.5;

/// Where each kept label goes: `(label, its box)`, most important first, clear of the boxes
/// `taken` by labels placed before and crossing as little of the `lines` as its spots allow.
/// `size` measures a text on screen.
pub fn place_around(
    mut labels: Vec<Label>,
    view: Rect,
    size: impl Fn(&str) -> Vec2,
    taken: &[Rect],
    lines: &[&Obstacles],
) -> Vec<(Label, Rect)> {
    labels.sort_by_key(|l| std::cmp::Reverse(l.importance));
    let mut placed: Vec<(Label, Rect)> = Vec::with_capacity(labels.len());
    // The leader lines of the labels placed so far: a later label keeps off them.
    let mut leaders: Vec<[Vec2; 2]> = Vec::new();
    let inner = view.shrink(2.0);
    // An axis's label with no clear spot is tried again as its number alone (`#5`): the axis
    // is named, and the table and the caption say its overlap.
    let mut queue: std::collections::VecDeque<Label> = labels.into();
    while let Some(label) = queue.pop_front() {
        if !label.fixed && !shown(&label, view) {
            // What it names is off screen.
            continue;
        }
        let s = size(&label.text) + LABEL_MARGIN;
        let free = |rect: &Rect| {
            placed.iter().all(|(_, other)| !other.intersects(*rect))
                && taken.iter().all(|other| !other.intersects(*rect))
                && leaders.iter().all(|[p, q]| clip(*p, *q, *rect).is_none())
        };
        if label.fixed {
            let rect = Rect::from_centre_size(label.at, s);
            if clamp_inside(label.at, s, inner).is_some() && free(&rect) {
                placed.push((label, rect));
            }
            continue;
        }
        // A shape's name is not struck through by the outline it sits inside (its own).
        let own: Vec<Vec<u32>> = match label.importance {
            Importance::Name | Importance::PairName => {
                lines.iter().map(|l| l.outlines_around(label.at)).collect()
            }
            _ => vec![Vec::new(); lines.len()],
        };
        // The nearest free spot that crosses no line; else the free spot that crosses least.
        let mut best: Option<(f32, Rect)> = None;
        // An axis's label stays by its own line, never farther than its reach (where it would
        // seem to name another line).
        let reach = label
            .names
            .filter(|_| by_its_line(&label))
            .map(|named| (named, AXIS_REACH * s.y));
        for at in candidates(&label, s) {
            let Some(centre) = clamp_inside(at, s, inner) else {
                continue;
            };
            let rect = Rect::from_centre_size(centre, s);
            if !free(&rect) {
                continue;
            }
            if reach.is_some_and(|(named, r)| distance_to_segment(rect, named) > r) {
                continue;
            }
            // A leader line through another label would seem to tie that one to the arrow
            // (and is left out): as bad as a line across this one.
            let crossing_leader = leader(&label, rect).is_some_and(|[p, q]| {
                let through = |other: &Rect| clip(p, q, *other).is_some();
                placed.iter().any(|(_, other)| through(other)) || taken.iter().any(through)
            });
            let penalty = if crossing_leader { s.y } else { 0.0 };
            let enough = best.map_or(f32::INFINITY, |(c, _)| c);
            let cost: f32 = penalty
                + lines
                    .iter()
                    .zip(&own)
                    .map(|(l, o)| l.cost_up_to(rect, o, enough))
                    .sum::<f32>();
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, rect));
            }
            if cost == 0.0 {
                break;
            }
        }
        let Some((cost, rect)) = best else { continue };
        // An axis's label struck through is left out too (the table says it), but not the
        // one in focus.
        let droppable = matches!(
            label.importance,
            Importance::Name | Importance::Repeat | Importance::Axis
        );
        if droppable && cost > NAME_CROSSED * s.y {
            if let Some(short) = number_alone(&label) {
                queue.push_front(short);
            }
            continue;
        }
        leaders.extend(leader(&label, rect));
        placed.push((label, rect));
    }
    placed
}

/// Whether what `label` names is in `view`.
fn shown(label: &Label, view: Rect) -> bool {
    view.contains(label.at) || label.other_side.is_some_and(|o| view.contains(o))
}

/// Whether `label` is an axis's, kept by the line it names.
fn by_its_line(label: &Label) -> bool {
    matches!(
        label.importance,
        Importance::Axis | Importance::Focus | Importance::Repeat
    )
}

/// The centres tried for `label` with its box of size `s`, in order: the spots around its
/// anchor, then around its other side; an axis's label also just past either end of its line.
fn candidates(label: &Label, s: Vec2) -> Vec<Vec2> {
    let anchors = std::iter::once(label.at).chain(label.other_side);
    let mut all: Vec<Vec2> = anchors
        .flat_map(|at| spots(s, label.importance).into_iter().map(move |o| at + o))
        .collect();
    if let Some(named) = label.names.filter(|_| by_its_line(label)) {
        all.extend(past_the_ends(named, s));
    }
    all
}

/// An axis's label or a repeat's note cut to its number (`#5 overlap 1.7`, `#5 parallel to
/// #1` to `#5`); `None` for any other label and for one that is a number already.
fn number_alone(label: &Label) -> Option<Label> {
    let axis = matches!(label.importance, Importance::Axis | Importance::Repeat);
    if !axis || !label.text.starts_with('#') {
        return None;
    }
    let (number, rest) = label.text.split_once(' ')?;
    (!rest.is_empty()).then(|| Label {
        text: number.to_string(),
        ..label.clone()
    })
}

/// The offsets tried for a label of size `s`, nearest first: on its anchor; then one label
/// height above or below; beside (its near edge 8 points from the anchor) and at the corners;
/// then up to five heights up or down, beside at each, and further beside. Never far from what
/// it labels: at most its half width and six heights away. A shape's name stays on its shape or
/// just above or below it (farther it would seem to name another); the pair's names may also
/// stand beside and up to three heights away.
fn spots(s: Vec2, importance: Importance) -> Vec<Vec2> {
    let (vy, bx) = (s.y + 2.0, 0.5 * s.x + 8.0);
    let v = |x: f32, y: f32| Vec2::new(x, y);
    let mut all = vec![v(0.0, 0.0), v(0.0, -vy), v(0.0, vy)];
    if importance == Importance::Name {
        return all;
    }
    all.extend([v(bx, 0.0), v(-bx, 0.0)]);
    // A headline (the MTV, the distance) or an axis's overlap may go further to stay
    // readable: each is one of a kind, and its colour says what it names.
    let rings = match importance {
        Importance::PairName => 3,
        Importance::Headline | Importance::Focus | Importance::Axis => 8,
        _ => 5,
    };
    for k in 1..=rings {
        let y = k as f32 * vy;
        if k > 1 {
            all.extend([v(0.0, -y), v(0.0, y)]);
        }
        all.extend([v(bx, -y), v(-bx, -y), v(bx, y), v(-bx, y)]);
        if importance != Importance::PairName && k % 2 == 0 {
            // Further beside, level with the anchor.
            all.extend([v(bx + y, 0.0), v(-bx - y, 0.0)]);
        }
    }
    all
}

/// Spots for a label of size `s` just past either end of segment `named` (along it, 8 points
/// clear of the end), and one label height to either side of each: where an axis's label goes
/// when the room beside the line is taken (at the view's edge, among other lines).
fn past_the_ends([p, q]: [Vec2; 2], s: Vec2) -> Vec<Vec2> {
    let along = (q - p).normalize_or_zero();
    let across = Vec2::new(-along.y, along.x);
    // Half the box's extent along the line, and across it.
    let half_along = 0.5 * (s.x * along.x.abs() + s.y * along.y.abs());
    let half_across = 0.5 * (s.x * across.x.abs() + s.y * across.y.abs());
    let mut all = Vec::new();
    for (end, out) in [(q, along), (p, -along)] {
        let centre = end + out * (8.0 + half_along);
        all.extend([
            centre,
            centre + across * (half_across + 2.0),
            centre - across * (half_across + 2.0),
        ]);
    }
    all
}

/// `centre` moved so that a box of `size` around it lies inside `view`, if it fits at all.
fn clamp_inside(centre: Vec2, size: Vec2, view: Rect) -> Option<Vec2> {
    if size.x > view.width()
        || size.y > view.height()
        || !centre.x.is_finite()
        || !centre.y.is_finite()
    {
        return None;
    }
    let half = size * 0.5;
    Some(Vec2::new(
        centre.x.clamp(view.min.x + half.x, view.max.x - half.x),
        centre.y.clamp(view.min.y + half.y, view.max.y - half.y),
    ))
}

/// A label's size without fonts (the frame benchmark, a rendered picture): 7 points a
/// character, 15 high, about what the window's 13-point font takes.
pub fn estimated_size(text: &str) -> Vec2 {
    Vec2::new(7.0 * text.chars().count() as f32, 15.0)
}

/// `text` broken into lines no wider than `width` (as `size` measures them), at spaces; a
/// word wider than the line stands alone on its line.
pub fn wrap(text: &str, width: f32, size: impl Fn(&str) -> Vec2) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && size(&longer).x > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = longer;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::mark::Stroke;
    use proptest::prelude::*;

    fn label(at: Vec2, text: &str, importance: Importance) -> Label {
        Label {
            at,
            text: text.into(),
            colour: Colour::WHITE,
            importance,
            fixed: false,
            other_side: None,
            names: None,
        }
    }

    fn line(p: Vec2, q: Vec2) -> Mark {
        Mark::Segment {
            points: [p, q],
            stroke: Stroke::new(4.0, Colour::WHITE),
        }
    }

    #[test]
    fn a_label_on_a_line_moves_to_the_nearest_spot_clear_of_it() {
        let view = Rect::from_min_size(Vec2::ZERO, Vec2::new(400.0, 300.0));
        // A thick bar straight through the anchor, left to right.
        let bar = Obstacles::of_marks(
            &[line(Vec2::new(0.0, 150.0), Vec2::new(400.0, 150.0))],
            view,
        );
        let at = Vec2::new(200.0, 150.0);
        let placed = place_around(
            vec![label(at, "MTV 0.3", Importance::Headline)],
            view,
            estimated_size,
            &[],
            &[&bar],
        );
        let (_, r) = &placed[0];
        assert_eq!(bar.cost(*r, &[]), 0.0);
        // One label height above: the first spot clear of the bar.
        assert!(
            (r.centre() - (at - Vec2::new(0.0, 19.0))).length() < 0.01,
            "{r:?}"
        );
    }

    #[test]
    fn a_name_struck_through_everywhere_is_left_out_but_not_by_its_own_outline() {
        let view = Rect::from_min_size(Vec2::ZERO, Vec2::new(400.0, 300.0));
        // Horizontal lines every 8 points: every spot of a name is crossed.
        let stripes: Vec<Mark> = (0..40)
            .map(|k| {
                line(
                    Vec2::new(0.0, 8.0 * k as f32),
                    Vec2::new(400.0, 8.0 * k as f32),
                )
            })
            .collect();
        let striped = Obstacles::of_marks(&stripes, view);
        let at = Vec2::new(200.0, 150.0);
        let name = |importance| label(at, "crate", importance);
        let kept = |importance| {
            place_around(
                vec![name(importance)],
                view,
                estimated_size,
                &[],
                &[&striped],
            )
            .len()
        };
        assert_eq!(kept(Importance::Name), 0);
        assert_eq!(kept(Importance::Headline), 1);
        // A small square around the anchor: a name inside it is not struck by it.
        let square = Mark::Polygon {
            points: vec![
                Vec2::new(185.0, 140.0),
                Vec2::new(215.0, 140.0),
                Vec2::new(215.0, 160.0),
                Vec2::new(185.0, 160.0),
            ],
            fill: Colour::WHITE,
            stroke: Stroke::new(1.5, Colour::WHITE),
        };
        let own = Obstacles::of_marks(&[square], view);
        let placed = place_around(
            vec![name(Importance::Name)],
            view,
            estimated_size,
            &[],
            &[&own],
        );
        assert_eq!(placed.len(), 1);
        assert_eq!(placed[0].1.centre(), at);
    }

    /// A random picture: bars, paths, polygons, rings and shapes (circles, capsules, polygons,
    /// some far larger than the view, some off it), and labels of every kind around them.
    fn picture() -> impl Strategy<Value = (Vec<Mark>, Vec<Label>)> {
        use crate::geometry::{Capsule, Circle, ConvexPolygon, Placed, Pose};
        use crate::picture::Camera;
        let point = || (-100.0f32..500.0, -100.0f32..400.0).prop_map(|(x, y)| Vec2::new(x, y));
        let stroke = (0.0f32..6.0).prop_map(|w| Stroke::new(w, Colour::WHITE));
        let mark = prop_oneof![
            (point(), point(), stroke.clone()).prop_map(|(p, q, stroke)| Mark::Segment {
                points: [p, q],
                stroke
            }),
            (
                prop::collection::vec(point(), 2..6),
                any::<bool>(),
                stroke.clone()
            )
                .prop_map(|(points, closed, stroke)| Mark::Line {
                    points,
                    closed,
                    stroke
                }),
            (point(), 0.0f32..80.0, stroke.clone()).prop_map(|(centre, radius, stroke)| {
                Mark::Circle {
                    centre,
                    radius,
                    fill: Colour::WHITE,
                    stroke,
                }
            }),
            (
                0usize..3,
                (-30.0f64..30.0, -30.0f64..30.0, 0.0f64..7.0),
                0.05f64..40.0,
                1.0f64..30.0,
                stroke,
            )
                .prop_map(|(kind, (x, y, angle), size, scale, stroke)| {
                    let pose = Pose::new(DVec2::new(x, y), angle);
                    let placed = match kind {
                        0 => Placed::new(Circle::new(size).unwrap(), pose),
                        1 => Placed::new(
                            Capsule::new(DVec2::new(-size, 0.3), DVec2::new(size, 0.0), 0.4 * size)
                                .unwrap(),
                            pose,
                        ),
                        _ => Placed::new(ConvexPolygon::regular(5, size).unwrap(), pose),
                    };
                    Mark::Shape {
                        shape: std::sync::Arc::new(placed.shape),
                        pose: placed.pose,
                        per_turn: 32,
                        camera: Camera {
                            centre: DVec2::new(2.0, -1.0),
                            scale,
                            y_down: false,
                        },
                        rect: Rect::from_min_size(Vec2::ZERO, Vec2::new(400.0, 300.0)),
                        fill: Colour::WHITE,
                        stroke,
                    }
                }),
        ];
        let importance = prop_oneof![
            Just(Importance::Grid),
            Just(Importance::Name),
            Just(Importance::Repeat),
            Just(Importance::PairName),
            Just(Importance::Axis),
            Just(Importance::Focus),
            Just(Importance::Headline),
        ];
        let text = prop_oneof![
            Just("crate"),
            Just("#5 overlap 1.7"),
            Just("#12 parallel to #1"),
            Just("MTV 0.25 along (0.6, 0.8)"),
            Just("s7"),
        ];
        let label = (
            point(),
            text,
            importance,
            any::<bool>(),
            prop::option::of(point()),
            prop::option::of((point(), point())),
        )
            .prop_map(|(at, text, importance, fixed, other_side, names)| Label {
                at,
                text: text.into(),
                colour: Colour::WHITE,
                importance,
                fixed: fixed && importance == Importance::Grid,
                other_side,
                names: names.map(|(p, q)| [p, q]),
            });
        (
            prop::collection::vec(mark, 0..40),
            prop::collection::vec(label, 0..8),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// The lines kept for a layer's own labels place them exactly where all its lines do,
        /// alone and above another layer's labels and lines.
        #[test]
        fn lines_near_the_labels_place_them_as_all_the_lines_do(
            (marks, labels) in picture(),
            (below, taken) in picture(),
            (_, later) in picture(),
        ) {
            let view = Rect::from_min_size(Vec2::ZERO, Vec2::new(400.0, 300.0));
            let all = Obstacles::of_marks(&marks, view);
            let near = Obstacles::of_marks_for(&marks, view, &labels, estimated_size);
            let others = Obstacles::of_marks(&below, view);
            let taken: Vec<Rect> = place_around(taken, view, estimated_size, &[], &[&others])
                .into_iter()
                .map(|(_, r)| r)
                .collect();
            for lines in [vec![], vec![&others]] {
                let with = |mine: &Obstacles| {
                    let mut all_lines = vec![mine];
                    all_lines.extend(lines.iter().copied());
                    place_around(labels.clone(), view, estimated_size, &taken, &all_lines)
                };
                prop_assert_eq!(with(&near), with(&all));
            }
            // Other labels where the lines kept serve them: placed as against all lines too.
            prop_assert!(near.serves(&labels, estimated_size));
            if near.serves(&later, estimated_size) {
                let place = |mine: &Obstacles| {
                    place_around(later.clone(), view, estimated_size, &[], &[mine])
                };
                prop_assert_eq!(place(&near), place(&all));
            }
        }
    }

    #[test]
    fn text_wraps_at_spaces_within_the_width() {
        let lines = wrap("one two three four", 7.0 * 9.0, estimated_size);
        assert_eq!(lines, vec!["one two", "three", "four"]);
        assert_eq!(wrap("  ", 10.0, estimated_size), Vec::<String>::new());
        assert_eq!(
            wrap("unbreakable", 7.0, estimated_size),
            vec!["unbreakable"]
        );
    }
}
