//! Quantities over time: a run's shapes and pairs frame by frame (a shape's speed, a pair's
//! claimed depth beside the exact one, the impulse that stopped it), with the frames of events
//! and disagreeing claims marked. Plain data: `collidoscope plot` draws it ([`crate::picture`])
//! and writes it as CSV ([`Plot::csv`]); the window's Plot panel draws the same [`Plot`].
//!
//! A source (a capture, a motion-lab recording) reads its frames and gives each one to a
//! [`PlotBuilder`] as numbers of the chosen shapes ([`ShapeNow`]) and pairs ([`PairNow`]); the
//! builder keeps one [`Series`] per shape or pair and quantity (a pair's claimed and exact
//! values as two), `NaN` where a frame has no value (the shape not there, the pair not claimed).

use crate::PairSummary;
use crate::Reported;
use crate::event::EventKind;
use crate::geometry::DVec2;
use crate::text::short_number;

/// What is plotted against time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantity {
    /// A shape's speed, |v|.
    Speed,
    /// A shape's velocity along x.
    Vx,
    /// A shape's velocity along y.
    Vy,
    /// A shape's angular velocity (radians per second, counter-clockwise).
    Angular,
    /// A shape's position along x.
    X,
    /// A shape's position along y.
    Y,
    /// A shape's angle (radians).
    Angle,
    /// A pair's depth (0 when apart): the claim's and the exact one.
    Depth,
    /// A pair's signed separation (the distance when apart, minus the depth when
    /// intersecting): the claim's and the exact one.
    Separation,
    /// The angle of a pair's normal (radians, from +x): the claim's, and the exact one (the
    /// MTV's direction, or from A's closest point toward B's when apart).
    NormalAngle,
    /// The normal impulse the engine's solver applied to a pair over the step, summed over
    /// the claim's points (as the capture gives it; never exact).
    Impulse,
    /// How far a claim is from the exact result, |m - m*| + |g - g*| (the MTVs and the gaps),
    /// beside tau, how far they may be.
    Error,
}

impl Quantity {
    /// Every quantity, shapes' first.
    pub const ALL: [Quantity; 12] = [
        Quantity::Speed,
        Quantity::Vx,
        Quantity::Vy,
        Quantity::Angular,
        Quantity::X,
        Quantity::Y,
        Quantity::Angle,
        Quantity::Depth,
        Quantity::Separation,
        Quantity::NormalAngle,
        Quantity::Impulse,
        Quantity::Error,
    ];

    /// Its name in `--what` and in CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Speed => "speed",
            Quantity::Vx => "vx",
            Quantity::Vy => "vy",
            Quantity::Angular => "angular",
            Quantity::X => "x",
            Quantity::Y => "y",
            Quantity::Angle => "angle",
            Quantity::Depth => "depth",
            Quantity::Separation => "separation",
            Quantity::NormalAngle => "normal-angle",
            Quantity::Impulse => "impulse",
            Quantity::Error => "error",
        }
    }

    /// What it is, in a line (the Plot panel's tip).
    pub fn meaning(self) -> &'static str {
        match self {
            Quantity::Speed => "a shape's speed, |v|",
            Quantity::Vx => "a shape's velocity along x",
            Quantity::Vy => "a shape's velocity along y",
            Quantity::Angular => "a shape's angular velocity (rad/s, counter-clockwise)",
            Quantity::X => "a shape's position along x",
            Quantity::Y => "a shape's position along y",
            Quantity::Angle => "a shape's angle (rad)",
            Quantity::Depth => {
                "a pair's depth: what was claimed (solid) beside the exact depth at the same poses (dashed)"
            }
            Quantity::Separation => {
                "a pair's signed separation (the gap when apart, minus the depth when overlapping): claimed and exact"
            }
            Quantity::NormalAngle => {
                "the angle of a pair's normal from +x (rad): claimed and exact"
            }
            Quantity::Impulse => {
                "the normal impulse the engine's solver applied to a pair over the step, summed over its points"
            }
            Quantity::Error => {
                "how far a claim is from the exact result, |m - m*| + |g - g*|, beside tau (dotted), how far it may be"
            }
        }
    }

    /// The quantity `name` names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|q| q.name() == name)
    }

    /// Whether it belongs to a pair (else to a shape).
    pub fn of_pair(self) -> bool {
        matches!(
            self,
            Quantity::Depth
                | Quantity::Separation
                | Quantity::NormalAngle
                | Quantity::Impulse
                | Quantity::Error
        )
    }

    /// Its unit, `units` the run's unit of length (`m`, `px`; empty: not known).
    pub fn unit(self, units: &str) -> String {
        let length = if units.is_empty() { "units" } else { units };
        match self {
            Quantity::Speed | Quantity::Vx | Quantity::Vy => format!("{length}/s"),
            Quantity::Angular => "rad/s".into(),
            Quantity::Angle | Quantity::NormalAngle => "rad".into(),
            Quantity::X
            | Quantity::Y
            | Quantity::Depth
            | Quantity::Separation
            | Quantity::Error => length.into(),
            Quantity::Impulse => match units {
                "m" => "N s".into(),
                "" => "mass x units/s".into(),
                u => format!("kg {u}/s"),
            },
        }
    }

    /// The sides a subject's quantity is plotted in: a shape's one line; a pair's claimed and
    /// exact (the impulse: claimed only; the error: the claim's beside tau).
    pub fn sides(self) -> &'static [Side] {
        match self {
            Quantity::Depth | Quantity::Separation | Quantity::NormalAngle => {
                &[Side::Claimed, Side::Exact]
            }
            Quantity::Impulse => &[Side::Claimed],
            Quantity::Error => &[Side::Claimed, Side::Tolerance],
            _ => &[Side::Shape],
        }
    }
}

/// The quantities `list` names (`speed,depth`), or the name that is not one, with the names
/// there are.
pub fn parse_quantities(list: &str) -> Result<Vec<Quantity>, String> {
    let mut out = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(q) = Quantity::from_name(name) else {
            return Err(format!(
                "--what {name}: not a quantity; the quantities are {}",
                Quantity::ALL.map(Quantity::name).join(", ")
            ));
        };
        if !out.contains(&q) {
            out.push(q);
        }
    }
    if out.is_empty() {
        return Err(format!(
            "--what: name at least one quantity: {}",
            Quantity::ALL.map(Quantity::name).join(", ")
        ));
    }
    Ok(out)
}

/// A shape as a plot is asked for it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShapeRef {
    /// As the user wrote it: a name, or failing that an id (`crate`, `17`).
    Given(String),
    /// By its id.
    Id(u64),
}

impl ShapeRef {
    /// Whether the shape `id` named `name` is this one.
    pub fn is(&self, id: u64, name: Option<&str>) -> bool {
        match self {
            ShapeRef::Id(want) => *want == id,
            ShapeRef::Given(given) => {
                name == Some(given.as_str())
                    || (given.parse::<u64>() == Ok(id) && name != Some(given.as_str()))
            }
        }
    }

    /// As it was asked for, in words.
    pub fn given(&self) -> String {
        match self {
            ShapeRef::Given(g) => format!("\"{g}\""),
            ShapeRef::Id(id) => format!("id {id}"),
        }
    }
}

/// What to plot of a capture (empty shapes and pairs: those of the first event or disagreeing
/// claim; empty quantities: `speed` and `depth`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlotRequest {
    /// The shapes.
    pub shapes: Vec<ShapeRef>,
    /// The pairs (A first: the normal is plotted from A toward B).
    pub pairs: Vec<(ShapeRef, ShapeRef)>,
    /// The quantities.
    pub what: Vec<Quantity>,
    /// The frames (inclusive).
    pub frames: Option<(u64, u64)>,
}

impl PlotRequest {
    /// Whether the quantities asked for belong to what is asked of (a shape's quantity needs a
    /// shape, a pair's a pair; nothing chosen: the defaults have both), else the words.
    pub fn check(&self) -> Result<(), String> {
        if self.shapes.is_empty() && self.pairs.is_empty() {
            return Ok(());
        }
        let what = self.quantities();
        if what.iter().any(|q| q.of_pair() && !self.pairs.is_empty())
            || what.iter().any(|q| !q.of_pair() && !self.shapes.is_empty())
        {
            return Ok(());
        }
        let names: Vec<&str> = what.iter().map(|q| q.name()).collect();
        Err(if self.pairs.is_empty() {
            format!(
                "nothing to plot: {} {} of a pair (--pair A B), and only shapes were chosen",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" }
            )
        } else {
            format!(
                "nothing to plot: {} {} of a shape (--shape NAME), and only pairs were chosen",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" }
            )
        })
    }

    /// What is asked for that gets no line, in words: shapes when only a pair's quantities are
    /// asked, pairs when only a shape's.
    pub fn notes(&self) -> Vec<String> {
        let what = self.quantities();
        let mut notes = Vec::new();
        if !self.shapes.is_empty() && what.iter().all(|q| q.of_pair()) {
            let given: Vec<String> = self.shapes.iter().map(ShapeRef::given).collect();
            notes.push(format!(
                "note: {} get no line: the quantities asked are a pair's (add speed, x, ... for a shape)",
                given.join(", ")
            ));
        }
        if !self.pairs.is_empty() && what.iter().all(|q| !q.of_pair()) {
            let given: Vec<String> = self
                .pairs
                .iter()
                .map(|(a, b)| format!("{} / {}", a.given(), b.given()))
                .collect();
            notes.push(format!(
                "note: {} get no line: the quantities asked are a shape's (add depth, impulse, ... for a pair)",
                given.join(", ")
            ));
        }
        notes
    }

    /// The request with each shape and pair once (the first time it was given).
    pub fn deduplicated(mut self) -> Self {
        let mut seen = Vec::new();
        self.shapes.retain(|s| {
            let new = !seen.contains(s);
            seen.push(s.clone());
            new
        });
        let mut pairs_seen = Vec::new();
        self.pairs.retain(|p| {
            let new = !pairs_seen.contains(p);
            pairs_seen.push(p.clone());
            new
        });
        self
    }

    /// The quantities asked for, or `speed` and `depth`.
    pub fn quantities(&self) -> Vec<Quantity> {
        if self.what.is_empty() {
            DEFAULT_QUANTITIES.to_vec()
        } else {
            self.what.clone()
        }
    }

    /// This request with `shapes` and `pairs` chosen for it (a source's defaults), those its
    /// quantities give no line dropped (no shape without a shape's quantity, no pair without a
    /// pair's).
    pub fn choosing(
        &self,
        mut shapes: Vec<ShapeRef>,
        mut pairs: Vec<(ShapeRef, ShapeRef)>,
    ) -> Self {
        let what = self.quantities();
        if !what.iter().any(|q| !q.of_pair()) {
            shapes.clear();
        }
        if !what.iter().any(|q| q.of_pair()) {
            pairs.clear();
        }
        PlotRequest {
            shapes,
            pairs,
            ..self.clone()
        }
    }
}

/// Why a plot could not be made.
#[derive(Debug)]
pub enum PlotError {
    /// The capture could not be read.
    File(crate::files::FileError),
    /// What was asked for is not in it (a shape no shape is, a pair never claimed), or does
    /// not go together (a shape's quantity asked of pairs only), in words.
    NotThere(String),
    /// The file could not be read at all, in words.
    Unreadable(String),
}

impl std::fmt::Display for PlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlotError::File(e) => write!(f, "{e}"),
            PlotError::NotThere(words) | PlotError::Unreadable(words) => f.write_str(words),
        }
    }
}

impl From<crate::files::FileError> for PlotError {
    fn from(e: crate::files::FileError) -> Self {
        PlotError::File(e)
    }
}

/// Which line of a quantity a series is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A shape's own value.
    Shape,
    /// What the engine (or the motion lab's resolver) claimed.
    Claimed,
    /// The exact value at the same poses.
    Exact,
    /// tau, how far a claim may be from the exact result and still agree.
    Tolerance,
}

impl Side {
    /// Its word in a series' label (empty for a shape's).
    pub fn word(self) -> &'static str {
        match self {
            Side::Shape => "",
            Side::Claimed => "claimed",
            Side::Exact => "exact",
            Side::Tolerance => "tau",
        }
    }
}

/// What a series is of: a shape, or a pair, each by its place in the plot's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// The `n`-th shape chosen.
    Shape(usize),
    /// The `n`-th pair chosen.
    Pair(usize),
}

/// One line of a plot: a quantity of a shape or a pair, a value per frame of the plot
/// (`NaN`: none at that frame).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Whose.
    pub subject: Subject,
    /// What.
    pub quantity: Quantity,
    /// Which line of it.
    pub side: Side,
    /// Its name in a legend and a CSV column (`crate speed`, `tile 3 / crate depth exact`).
    pub label: String,
    /// Its unit (`m/s`).
    pub unit: String,
    /// A value per frame of the plot.
    pub values: Vec<f64>,
}

/// What a frame of the plot is marked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// An event of this kind.
    Event(EventKind),
    /// A claim that disagrees with the exact result.
    Disagrees,
    /// A packet log's collision, found when a packet arrived (at the collision's time).
    Found,
    /// A packet log's collision a later packet took back (at the collision's time).
    Retracted,
}

/// A frame marked on the time axis, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// The frame (a capture's frame number, a recording's step).
    pub frame: u64,
    /// Its time (seconds).
    pub time: f64,
    /// Why.
    pub kind: MarkKind,
    /// What happened, in a few words (`seam: crate on tile 4`).
    pub text: String,
}

impl Marker {
    /// What happened at the frame, in a line: `frame 24 (t = 0.4 s): seam: crate / tile 4`.
    pub fn words(&self) -> String {
        format!(
            "frame {} (t = {} s): {}",
            self.frame,
            short_number(self.time),
            self.text
        )
    }
}

/// The place in a list (a run's shapes, a log's players: each one's name, if it has one) that
/// `r` names, or the words for none with the names there are (at most 40, then how many more):
/// `FILE: no shape "crat" in the run; the shapes (by name and place in the list) are: ...`.
pub fn find_in_list(
    names: &[Option<&str>],
    r: &ShapeRef,
    path: &str,
    (what, whose): (&str, &str),
) -> Result<usize, PlotError> {
    if let Some(i) = (0..names.len()).find(|&i| r.is(i as u64, names[i])) {
        return Ok(i);
    }
    let listed: Vec<String> = names
        .iter()
        .enumerate()
        .take(40)
        .map(|(i, name)| match name {
            Some(name) => format!("{name} ({i})"),
            None => format!("{i}"),
        })
        .collect();
    let more = names.len().saturating_sub(40);
    Err(PlotError::NotThere(format!(
        "{path}: no {what} {} in the {whose}; the {what}s (by name and place in the list) are: {}{}",
        r.given(),
        listed.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )))
}

/// What the Plot panel is, in its tip.
pub const PANEL_TIP: &str = "quantities over time: pick a shape (click it) or a pair (click two), \
or select a claim; the frame shown is the yellow line; click or drag on the plot to show that \
frame; scroll to pan, Ctrl+scroll to zoom, right-drag to zoom to a box, double-click to fit again; \
events and disagreeing claims are marked (hover one)";

/// The lines with no value at any frame, in words (a pair never claimed there, a capture whose
/// engine writes no impulses).
pub fn no_values_words(labels: &[&str]) -> String {
    format!("no value at any frame: {}", labels.join(", "))
}

/// No frame of a run (at `path`) within the frames asked for: the frames it has.
pub fn no_frames_words(path: &str, asked: Option<(u64, u64)>, has: Option<(u64, u64)>) -> String {
    let asked = match asked {
        Some((a, b)) => format!("no frame from {a} to {b}"),
        None => "no frame".into(),
    };
    match has {
        Some((first, last)) => format!("{path}: {asked}: its frames are {first} to {last}"),
        None => format!("{path}: {asked}: it has no frames"),
    }
}

/// What the Plot panel says when it has nothing to plot yet.
pub const NOTHING_CHOSEN: &str =
    "nothing to plot yet: pick a shape (click it) or a pair (click two), or select a claim";

/// Quantities over time for the chosen shapes and pairs of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plot {
    /// The run's unit of length (`m`, `px`; empty: not known).
    pub units: String,
    /// The shapes chosen, by their names (or `id 5`).
    pub shapes: Vec<String>,
    /// The pairs chosen, by their names.
    pub pairs: Vec<(String, String)>,
    /// The frames plotted, in order.
    pub frames: Vec<u64>,
    /// Each frame's time (seconds).
    pub times: Vec<f64>,
    /// The lines, in the order chosen: each shape's quantities, then each pair's.
    pub series: Vec<Series>,
    /// The frames marked, in order of time.
    pub markers: Vec<Marker>,
    /// How many events and disagreeing claims of the plotted shapes were left unmarked (past
    /// [`MARKERS_KEPT`]).
    pub markers_left_out: usize,
    /// Whether each pair was claimed at a frame plotted.
    pub claimed: Vec<bool>,
}

/// The most frames a plot marks (a long run with a stale contact every frame would bury the
/// lines under its marks); those past it are counted.
pub const MARKERS_KEPT: usize = 200;

/// A shape's numbers at a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeNow {
    /// Its position.
    pub position: DVec2,
    /// Its angle (radians).
    pub angle: f64,
    /// Its velocity.
    pub velocity: DVec2,
    /// Its angular velocity (radians per second).
    pub angular: f64,
}

impl ShapeNow {
    /// The numbers of a shape `placed` with `motion`.
    pub fn of(placed: &crate::Placed, motion: &crate::scene::Motion) -> Self {
        Self {
            position: placed.pose.position,
            angle: placed.pose.angle(),
            velocity: motion.velocity,
            angular: motion.angular_velocity,
        }
    }
}

/// The quantities plotted when none are asked for: a shape's speed and a pair's depth.
pub const DEFAULT_QUANTITIES: [Quantity; 2] = [Quantity::Speed, Quantity::Depth];

/// A pair's numbers at a frame: the exact result at its poses, and its claims (a pair with a
/// chain may have one per piece).
#[derive(Clone, Debug, PartialEq)]
pub struct PairNow {
    /// The exact result of the pair (its deepest piece for a chain).
    pub exact: PairSummary,
    /// The claims made about it at this frame.
    pub claims: Vec<ClaimNow>,
}

/// A claim at a frame, with what it is judged against.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimNow {
    /// What it says.
    pub reported: Reported,
    /// The exact result it is judged against (its piece's, for a claim about a chain's piece).
    pub exact: PairSummary,
    /// tau: how far it may be from the exact result and still agree.
    pub tolerance: f64,
}

/// Builds a [`Plot`] a frame at a time.
#[derive(Clone, Debug)]
pub struct PlotBuilder {
    plot: Plot,
    shapes: usize,
    pairs: usize,
    frames: Option<(u64, u64)>,
}

impl PlotBuilder {
    /// A plot of `shapes` shapes and `pairs` pairs (named later, by [`Self::finish`]), each
    /// with the quantities of `what` that belong to it, over the frames `frames` (inclusive;
    /// `None`: all).
    pub fn new(
        shapes: usize,
        pairs: usize,
        what: &[Quantity],
        frames: Option<(u64, u64)>,
        units: &str,
    ) -> Self {
        let mut series = Vec::new();
        let subjects = (0..shapes)
            .map(Subject::Shape)
            .chain((0..pairs).map(Subject::Pair));
        for subject in subjects {
            for &quantity in what {
                if quantity.of_pair() != matches!(subject, Subject::Pair(_)) {
                    continue;
                }
                for &side in quantity.sides() {
                    series.push(Series {
                        subject,
                        quantity,
                        side,
                        label: String::new(),
                        unit: quantity.unit(units),
                        values: Vec::new(),
                    });
                }
            }
        }
        Self {
            plot: Plot {
                units: units.into(),
                claimed: vec![false; pairs],
                series,
                ..Plot::default()
            },
            shapes,
            pairs,
            frames,
        }
    }

    /// The builder without claimed lines and tau: for a source that claims no contacts (a
    /// packet log), whose pairs have exact lines only.
    pub fn exact_only(mut self) -> Self {
        self.plot
            .series
            .retain(|s| matches!(s.side, Side::Shape | Side::Exact));
        self
    }

    /// Whether `frame` is within the frames asked for.
    pub fn wants(&self, frame: u64) -> bool {
        self.frames
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&frame))
    }

    /// The frames asked for (`None`: all).
    pub fn frame_range(&self) -> Option<(u64, u64)> {
        self.frames
    }

    /// Whether the frames asked for end before `frame` (a source may stop reading).
    pub fn done_before(&self, frame: u64) -> bool {
        self.frames.is_some_and(|(_, hi)| frame > hi)
    }

    /// How many lines the plot has.
    pub fn series_count(&self) -> usize {
        self.plot.series.len()
    }

    /// The frames added so far.
    pub fn frames(&self) -> usize {
        self.plot.frames.len()
    }

    /// Add a frame: `shape(n)` gives the `n`-th chosen shape's numbers, `pair(n)` the `n`-th
    /// pair's (`None`: not there at this frame).
    pub fn frame(
        &mut self,
        frame: u64,
        time: f64,
        mut shape: impl FnMut(usize) -> Option<ShapeNow>,
        mut pair: impl FnMut(usize) -> Option<PairNow>,
    ) {
        let shapes: Vec<_> = (0..self.shapes).map(&mut shape).collect();
        let pairs: Vec<_> = (0..self.pairs).map(&mut pair).collect();
        for (claimed, now) in self.plot.claimed.iter_mut().zip(&pairs) {
            *claimed |= now.as_ref().is_some_and(|p| !p.claims.is_empty());
        }
        self.plot.frames.push(frame);
        self.plot.times.push(time);
        for s in &mut self.plot.series {
            let value = match s.subject {
                Subject::Shape(n) => shapes[n].map_or(f64::NAN, |now| shape_value(s.quantity, now)),
                Subject::Pair(n) => pairs[n]
                    .as_ref()
                    .map_or(f64::NAN, |now| pair_value(s.quantity, s.side, now)),
            };
            s.values.push(value);
        }
    }

    /// Mark a frame (kept up to [`MARKERS_KEPT`]; those past it are counted).
    pub fn mark(&mut self, marker: Marker) {
        if self.plot.markers.len() < MARKERS_KEPT {
            self.plot.markers.push(marker);
        } else {
            self.plot.markers_left_out += 1;
        }
    }

    /// The plot so far, without its names (what a window shows while the source is read).
    pub fn plot(&self) -> &Plot {
        &self.plot
    }

    /// The plot, its shapes and pairs named (`shapes[n]`, `pairs[n]`) and its lines labelled.
    pub fn finish(mut self, shapes: Vec<String>, pairs: Vec<(String, String)>) -> Plot {
        name_plot(&mut self.plot, shapes, pairs);
        self.plot
    }
}

/// Name `plot`'s shapes and pairs, and label each line by them.
pub fn name_plot(plot: &mut Plot, shapes: Vec<String>, pairs: Vec<(String, String)>) {
    for s in &mut plot.series {
        let whose = match s.subject {
            Subject::Shape(n) => shapes.get(n).cloned().unwrap_or_default(),
            Subject::Pair(n) => pairs
                .get(n)
                .map(|(a, b)| format!("{a} / {b}"))
                .unwrap_or_default(),
        };
        s.label = series_label(&whose, s.quantity, s.side);
    }
    plot.shapes = shapes;
    plot.pairs = pairs;
    plot.markers.sort_by(|a, b| a.time.total_cmp(&b.time));
}

/// A line's label: `crate speed`, `tile 3 / crate depth exact`.
pub fn series_label(whose: &str, quantity: Quantity, side: Side) -> String {
    match side {
        Side::Shape => format!("{whose} {}", quantity.name()),
        Side::Tolerance => format!("{whose} tau"),
        side => format!("{whose} {} {}", quantity.name(), side.word()),
    }
}

/// A shape's `quantity` at a frame.
pub fn shape_value(quantity: Quantity, now: ShapeNow) -> f64 {
    match quantity {
        Quantity::Speed => now.velocity.length(),
        Quantity::Vx => now.velocity.x,
        Quantity::Vy => now.velocity.y,
        Quantity::Angular => now.angular,
        Quantity::X => now.position.x,
        Quantity::Y => now.position.y,
        Quantity::Angle => now.angle,
        _ => f64::NAN,
    }
}

/// A pair's `quantity` at a frame, the `side` asked: the claim's (of the deepest claim when
/// the pair has several; the impulse summed over them all; `NaN` when it has none), or the
/// exact one.
pub fn pair_value(quantity: Quantity, side: Side, now: &PairNow) -> f64 {
    let claim = deepest(&now.claims);
    match (side, quantity) {
        (Side::Exact, q) => summary_value(q, &now.exact),
        (Side::Tolerance, _) => now
            .claims
            .iter()
            .map(|c| c.tolerance)
            .reduce(f64::max)
            .unwrap_or(f64::NAN),
        (_, Quantity::Impulse) => {
            let impulses: Vec<f64> = now
                .claims
                .iter()
                .filter_map(|c| c.reported.impulses.as_ref())
                .flatten()
                .copied()
                .collect();
            if impulses.is_empty() {
                f64::NAN
            } else {
                impulses.iter().sum()
            }
        }
        (_, Quantity::Error) => now
            .claims
            .iter()
            .map(|c| crate::judge::agreement::claim_error(&c.exact, &c.reported))
            .reduce(f64::max)
            .unwrap_or(f64::NAN),
        (_, q) => claim.map_or(f64::NAN, |c| reported_value(q, &c.reported)),
    }
}

/// The claim that says the pair is deepest in (else the first).
fn deepest(claims: &[ClaimNow]) -> Option<&ClaimNow> {
    claims
        .iter()
        .filter(|c| c.reported.intersecting)
        .max_by(|a, b| {
            let depth = |c: &ClaimNow| c.reported.depth.unwrap_or(0.0);
            depth(a).total_cmp(&depth(b))
        })
        .or(claims.first())
}

/// What a claim says of `quantity` (`NaN`: it does not say).
fn reported_value(quantity: Quantity, r: &Reported) -> f64 {
    match quantity {
        Quantity::Depth if r.intersecting => r.depth.unwrap_or(f64::NAN),
        Quantity::Depth => 0.0,
        Quantity::Separation if r.intersecting => r.depth.map_or(f64::NAN, |d| -d),
        Quantity::Separation => r.distance.or(r.separation).unwrap_or(f64::NAN),
        Quantity::NormalAngle => r.normal.map_or(f64::NAN, angle_of),
        _ => f64::NAN,
    }
}

/// What the exact result says of `quantity`.
fn summary_value(quantity: Quantity, s: &PairSummary) -> f64 {
    match quantity {
        Quantity::Depth => s.depth,
        Quantity::Separation if s.intersecting => -s.depth,
        Quantity::Separation => s.distance,
        Quantity::NormalAngle => s
            .normal
            .or_else(|| s.closest.and_then(|[a, b]| (b - a).try_normalize()))
            .map_or(f64::NAN, angle_of),
        _ => f64::NAN,
    }
}

/// The angle of `v` from +x (radians, in (-pi, pi]).
fn angle_of(v: DVec2) -> f64 {
    v.y.atan2(v.x)
}

impl Plot {
    /// The plot with only its frames from the `from`-th on (its marks, names and lines kept).
    pub fn rows_from(&self, from: usize) -> Plot {
        let from = from.min(self.frames.len());
        Plot {
            frames: self.frames[from..].to_vec(),
            times: self.times[from..].to_vec(),
            series: self
                .series
                .iter()
                .map(|s| Series {
                    label: s.label.clone(),
                    unit: s.unit.clone(),
                    values: s.values[from..].to_vec(),
                    ..*s
                })
                .collect(),
            units: self.units.clone(),
            shapes: self.shapes.clone(),
            pairs: self.pairs.clone(),
            markers: self.markers.clone(),
            markers_left_out: self.markers_left_out,
            claimed: self.claimed.clone(),
        }
    }

    /// Add `tail`, the same plot's frames after this one's ([`Self::rows_from`]): its frames
    /// appended, its marks, names and labels taking the place of these.
    pub fn append(&mut self, tail: Plot) {
        self.frames.extend(tail.frames);
        self.times.extend(tail.times);
        for (s, t) in self.series.iter_mut().zip(tail.series) {
            s.values.extend(t.values);
            s.label = t.label;
        }
        self.shapes = tail.shapes;
        self.pairs = tail.pairs;
        self.markers = tail.markers;
        self.markers_left_out = tail.markers_left_out;
        self.claimed = tail.claimed;
    }

    /// The plot, or the words for its first pair never claimed in the frames plotted (of the
    /// run at `path`).
    pub fn check_claimed(&self, path: &str) -> Result<(), PlotError> {
        match self.pairs.iter().zip(&self.claimed).find(|(_, c)| !**c) {
            Some(((a, b), _)) => Err(PlotError::NotThere(never_claimed(
                path,
                (a, b),
                self.frames.len(),
            ))),
            None => Ok(()),
        }
    }

    /// The plot as CSV: a header row (`frame`, `time`, each line's label with its unit in
    /// brackets, `marks`), then a row per frame; every number written exactly (the shortest
    /// text that reads back as the same f64), an empty cell where a line has no value, and
    /// the frame's marks in words, `; ` between them.
    pub fn csv(&self) -> String {
        let mut out = String::from("frame,time");
        for s in &self.series {
            out.push(',');
            out.push_str(&csv_cell(&format!("{} ({})", s.label, s.unit)));
        }
        out.push_str(",marks\n");
        let mut marks = self.markers.iter().peekable();
        for (row, (&frame, &time)) in self.frames.iter().zip(&self.times).enumerate() {
            out.push_str(&format!("{frame},{time}"));
            for s in &self.series {
                out.push(',');
                let v = s.values[row];
                if v.is_finite() {
                    out.push_str(&v.to_string());
                }
            }
            let mut here = Vec::new();
            while let Some(m) = marks.next_if(|m| m.frame <= frame) {
                if m.frame == frame {
                    here.push(m.text.as_str());
                }
            }
            out.push(',');
            out.push_str(&csv_cell(&here.join("; ")));
            out.push('\n');
        }
        out
    }

    /// The times a plot's axis spans (seconds): its first frame's to its last's; a second
    /// around a lone frame; 0 to 1 with none.
    pub fn time_span(&self) -> (f64, f64) {
        match (self.times.first(), self.times.last()) {
            (Some(&a), Some(&b)) if b > a => (a, b),
            (Some(&a), _) => (a - 0.5, a + 0.5),
            _ => (0.0, 1.0),
        }
    }

    /// The position of the frame shown at or just before `time` (`None`: before the first).
    pub fn position_at(&self, time: f64) -> Option<usize> {
        let after = self.times.partition_point(|&t| t <= time);
        after.checked_sub(1)
    }

    /// What the plot shows, in a line: `crate speed and depth over 120 frames (0 to 2 s), 3
    /// marks`.
    pub fn summary(&self) -> String {
        let (Some(first), Some(last)) = (self.times.first(), self.times.last()) else {
            return "no frames plotted".into();
        };
        let mut whose: Vec<String> = self.shapes.clone();
        whose.extend(self.pairs.iter().map(|(a, b)| format!("{a} / {b}")));
        let mut what: Vec<&str> = Vec::new();
        for s in &self.series {
            if !what.contains(&s.quantity.name()) {
                what.push(s.quantity.name());
            }
        }
        let marks = self.markers.len() + self.markers_left_out;
        format!(
            "{}: {} over {} frame{} ({} to {} s), {marks} mark{}",
            whose.join(", "),
            what.join(", "),
            self.frames.len(),
            if self.frames.len() == 1 { "" } else { "s" },
            short_number(*first),
            short_number(*last),
            if marks == 1 { "" } else { "s" },
        )
    }
}

/// A pair asked of a plot that the engine never claimed in the frames plotted.
fn never_claimed(path: &str, (a, b): (&str, &str), frames: usize) -> String {
    format!(
        "{path}: no contact between {a} and {b} was claimed in the {frames} frame{} plotted: \
         choose a pair that was (diagnose lists a capture's claims), or plot the shapes with --shape",
        if frames == 1 { "" } else { "s" }
    )
}

/// A CSV cell: quoted when it holds a comma, a quote or a line end.
fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resting(depth: f64, impulses: Option<Vec<f64>>) -> ClaimNow {
        let exact = PairSummary {
            intersecting: true,
            depth: 0.01,
            normal: Some(DVec2::Y),
            distance: 0.0,
            closest: None,
            contacts: vec![],
        };
        ClaimNow {
            reported: Reported {
                impulses,
                ..Reported::intersecting(depth, DVec2::Y)
            },
            exact,
            tolerance: 1e-6,
        }
    }

    #[test]
    fn a_name_not_in_the_list_is_refused_with_the_names_there_are() {
        let names = [Some("crate"), None, Some("floor")];
        let given = |s: &str| ShapeRef::Given(s.into());
        assert_eq!(
            find_in_list(&names, &given("floor"), "run.rec", ("shape", "run")).ok(),
            Some(2)
        );
        assert_eq!(
            find_in_list(&names, &given("1"), "run.rec", ("shape", "run")).ok(),
            Some(1)
        );
        let Err(PlotError::NotThere(words)) =
            find_in_list(&names, &given("crat"), "run.rec", ("shape", "run"))
        else {
            panic!("found")
        };
        assert_eq!(
            words,
            "run.rec: no shape \"crat\" in the run; the shapes (by name and place in the list) are: crate (0), 1, floor (2)"
        );
        let many: Vec<Option<&str>> = vec![None; 45];
        let Err(PlotError::NotThere(words)) =
            find_in_list(&many, &given("ghost"), "log.json", ("player", "log"))
        else {
            panic!("found")
        };
        assert!(words.starts_with("log.json: no player \"ghost\" in the log; the players"));
        assert!(words.ends_with("38, 39 and 5 more"), "{words}");
    }

    #[test]
    fn every_quantity_has_a_name_that_reads_back() {
        for q in Quantity::ALL {
            assert_eq!(Quantity::from_name(q.name()), Some(q));
        }
        assert_eq!(
            parse_quantities("speed, depth,speed").unwrap(),
            vec![Quantity::Speed, Quantity::Depth]
        );
        let e = parse_quantities("speed,sped").unwrap_err();
        assert!(
            e.contains("--what sped") && e.contains("normal-angle"),
            "{e}"
        );
        assert!(parse_quantities(",").is_err());
    }

    #[test]
    fn a_frame_gives_each_line_its_value_and_nan_where_there_is_none() {
        let mut b = PlotBuilder::new(
            1,
            1,
            &[Quantity::Speed, Quantity::Depth, Quantity::Impulse],
            None,
            "m",
        );
        assert_eq!(b.series_count(), 4);
        let crate_now = ShapeNow {
            position: DVec2::new(1.0, 2.0),
            angle: 0.5,
            velocity: DVec2::new(3.0, -4.0),
            angular: 0.0,
        };
        b.frame(
            7,
            0.1,
            |_| Some(crate_now),
            |_| {
                Some(PairNow {
                    exact: resting(0.0, None).exact,
                    claims: vec![resting(0.02, Some(vec![0.25, 0.5]))],
                })
            },
        );
        b.frame(8, 0.2, |_| None, |_| None);
        let plot = b.finish(vec!["crate".into()], vec![("floor".into(), "crate".into())]);
        let values: Vec<(String, Vec<f64>)> = plot
            .series
            .iter()
            .map(|s| (s.label.clone(), s.values.clone()))
            .collect();
        assert_eq!(values[0].0, "crate speed");
        assert_eq!(values[0].1[0], 5.0);
        assert!(values[0].1[1].is_nan());
        assert_eq!(values[1].0, "floor / crate depth claimed");
        assert_eq!(values[1].1[0], 0.02);
        assert_eq!(values[2].0, "floor / crate depth exact");
        assert_eq!(values[2].1[0], 0.01);
        assert_eq!(values[3].0, "floor / crate impulse claimed");
        assert_eq!(values[3].1[0], 0.75);
        assert_eq!(plot.series[3].unit, "N s");
        let csv = plot.csv();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next().unwrap(),
            "frame,time,crate speed (m/s),floor / crate depth claimed (m),\
             floor / crate depth exact (m),floor / crate impulse claimed (N s),marks"
        );
        assert_eq!(lines.next().unwrap(), "7,0.1,5,0.02,0.01,0.75,");
        assert_eq!(lines.next().unwrap(), "8,0.2,,,,,");
    }

    #[test]
    fn only_the_frames_asked_for_are_wanted() {
        let b = PlotBuilder::new(1, 0, &[Quantity::X], Some((3, 5)), "px");
        assert!(!b.wants(2) && b.wants(3) && b.wants(5) && !b.wants(6));
        assert!(b.done_before(6) && !b.done_before(5));
        assert_eq!(b.plot().series[0].unit, "px");
    }

    #[test]
    fn a_plot_in_two_parts_is_the_whole() {
        let mut b = PlotBuilder::new(1, 0, &[Quantity::X, Quantity::Vy], None, "m");
        for k in 0..5u64 {
            let now = ShapeNow {
                position: DVec2::new(k as f64, 0.0),
                angle: 0.0,
                velocity: DVec2::new(0.0, -(k as f64)),
                angular: 0.0,
            };
            b.frame(k, k as f64 / 60.0, |_| Some(now), |_| None);
        }
        let whole = b.plot().clone();
        let mut head = whole.rows_from(0);
        head.frames.truncate(2);
        head.times.truncate(2);
        for s in &mut head.series {
            s.values.truncate(2);
        }
        head.append(whole.rows_from(2));
        assert_eq!(head, whole);
        assert_eq!(whole.rows_from(9).frames.len(), 0);
    }

    #[test]
    fn a_cell_with_a_comma_is_quoted() {
        assert_eq!(csv_cell("a, b"), "\"a, b\"");
        assert_eq!(csv_cell("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_cell("plain"), "plain");
    }
}
