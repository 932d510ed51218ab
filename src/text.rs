//! Reports in words: how axes, features and verdicts are named and told, the same in the
//! command line and in the window's step mode.

use crate::geometry::{DVec2, Feature, Interval, ShapeKind};
use crate::query::{
    AxisRole, AxisSource, ChainRule, Mistake, NaiveMtv, PairReport, PairSummary, PieceResult,
    SatReport, Side, Toi, ToiMethod, ToiState, Verdict,
};
use crate::scene::Scene;

/// The two shapes of a pair as people see them.
#[derive(Clone, Debug, PartialEq)]
pub struct PairNames {
    /// A's name (or `#index`).
    pub a: String,
    /// B's name.
    pub b: String,
    /// A's kind.
    pub kind_a: ShapeKind,
    /// B's kind.
    pub kind_b: ShapeKind,
    /// Whether A and B are polygons listed clockwise (their edge normals, taken as they
    /// come, point inward).
    pub clockwise: [bool; 2],
    /// A's and B's radius when they are rounded polygons (0 otherwise).
    pub rounded: [f64; 2],
}

impl PairNames {
    /// The names and kinds of the shapes at positions `a` and `b` of `scene`'s list.
    pub fn in_scene(scene: &Scene, a: usize, b: usize) -> Self {
        let (sa, sb) = (&scene.shapes[a], &scene.shapes[b]);
        let rounded = |s: &crate::scene::SceneShape| match &s.placed.shape {
            crate::geometry::Shape::Polygon(p) => p.radius(),
            _ => 0.0,
        };
        let clockwise = |s: &crate::scene::SceneShape| {
            matches!(&s.placed.shape, crate::geometry::Shape::Polygon(p)
                if p.winding() == crate::geometry::Winding::Clockwise)
        };
        Self {
            a: sa.display_name(a),
            b: sb.display_name(b),
            kind_a: sa.placed.shape.kind(),
            kind_b: sb.placed.shape.kind(),
            clockwise: [clockwise(sa), clockwise(sb)],
            rounded: [rounded(sa), rounded(sb)],
        }
    }

    /// Why the spans of a rounded polygon are wider than its corners, and which axis its
    /// radius adds, in one sentence per rounded shape (`None` when neither is rounded).
    pub fn rounded_note(&self, report: &SatReport) -> Option<String> {
        let mut lines = Vec::new();
        for (name, r) in [(&self.a, self.rounded[0]), (&self.b, self.rounded[1])] {
            if r > 0.0 {
                lines.push(format!(
                    "{name} is a rounded polygon: every point within {} of its core (the dashed outline), so each of its spans is its core's shadow widened by {} at both ends.",
                    number(r),
                    number(r)
                ));
            }
        }
        if lines.is_empty() {
            return None;
        }
        let corners = report
            .axes
            .iter()
            .position(|t| matches!(t.source, AxisSource::ClosestFeatures { .. }));
        lines.push(match corners {
            Some(k) => format!(
                "Axis {} runs between the cores' closest corners: where rounded corners meet, that line, not an edge normal, can give the least overlap.",
                k + 1
            ),
            None => "The cores' edge normals are the axes here: the cores' closest points are not two corners, so the radius adds no axis.".into(),
        });
        Some(lines.join(" "))
    }

    fn of(&self, side: Side) -> (&str, ShapeKind) {
        match side {
            Side::A => (&self.a, self.kind_a),
            Side::B => (&self.b, self.kind_b),
        }
    }
}

/// A number for people: up to 6 decimals, no trailing zeros, no `-0`.
pub fn number(x: f64) -> String {
    // A number that is not zero never reads as 0: a rounding leftover such as 2.8e-17 is
    // shown as itself.
    if x != 0.0 && x.abs() < 5e-7 {
        return format!("{x:.1e}");
    }
    with_decimals(x, 6)
}

/// `x` with at most `decimals` decimals, no trailing zeros, no `-0`.
pub(crate) fn with_decimals(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// A number for a narrow table cell: up to 3 decimals (more digits only where 3 would show
/// nothing), no trailing zeros.
pub fn short_number(x: f64) -> String {
    if x != 0.0 && x.abs() < 5e-4 {
        return format!("{x:.1e}");
    }
    with_decimals(x, 3)
}

/// A time in milliseconds for the window: at most one decimal, no trailing zeros.
pub fn ms(x: f64) -> String {
    with_decimals(x, 1)
}

/// A bucket's time in ms with the decimals its step needs (up to 6): `225`, `0.1`,
/// `12.3465` at a step of 0.0015.
pub fn bucket_ms(t: f64, step: f64) -> String {
    let exact = |d: i32| {
        let scaled = step * 10f64.powi(d);
        (scaled - scaled.round()).abs() <= 1e-9 * scaled.max(1.0)
    };
    let decimals = (1..=6).find(|&d| exact(d)).unwrap_or(6) as usize;
    with_decimals(t, decimals)
}

/// The latency lab's log line: `second.log.json: 4 players, 364 of 364 packets arrived.`, with
/// `(206 taken: the rest are left out)` when a refused packet stopped the engine short.
pub fn latency_arrived(
    name: &str,
    players: usize,
    (arrived, total): (usize, usize),
    taken: Option<usize>,
) -> String {
    let short = taken
        .map(|n| format!(" ({n} taken: the rest are left out)"))
        .unwrap_or_default();
    format!("{name}: {players} players, {arrived} of {total} packets arrived{short}.")
}

/// `[min, max]` with [`short_number`]s.
pub fn short_interval(i: Interval) -> String {
    format!("[{}, {}]", short_number(i.min), short_number(i.max))
}

/// An axis's overlap for a narrow table cell: [`short_number`]s, `gap` before a gap.
pub fn short_overlap(overlap: f64) -> String {
    if overlap >= 0.0 {
        short_number(overlap)
    } else {
        format!("gap {}", short_number(-overlap))
    }
}

/// `(x, y)` with [`short_number`]s, for a narrow table cell.
pub fn short_point(p: DVec2) -> String {
    format!("({}, {})", short_number(p.x), short_number(p.y))
}

/// `(x, y)`.
pub fn point(p: DVec2) -> String {
    format!("({}, {})", number(p.x), number(p.y))
}

/// An event of the motion lab's list, on hover.
pub const EVENT_CLICK: &str = "show this step, its pair explained and the event drawn over it";

/// What a step of the motion lab does.
pub const MOTION_STEP: &str = "Each step moves kinematic and dynamic bodies by their velocities, then measures every contact with a dynamic body at once and resolves them together: each dynamic body moves out along the resolver's MTV (its pushes taken deepest first, none counted twice) and loses its velocity into the other shape. The order of the shapes in the file never matters.";

/// The motion lab's gravity field, explained.
pub const GRAVITY_HELP: &str = "the file's gravity (units per second squared, y up): every dynamic body's velocity gains g · dt each step, before it moves; saved with the shapes, undone with Ctrl+Z";

/// An angle given in radians, in degrees: `26.565 degrees`.
pub fn angle(radians: f64) -> String {
    format!("{} degrees", short_number(radians.to_degrees()))
}

/// `[min, max]`.
pub fn interval(i: Interval) -> String {
    format!("[{}, {}]", number(i.min), number(i.max))
}

/// A core feature in words: "vertex 2", "edge 1", "end a", "the segment", "the centre".
pub fn feature(f: Feature, kind: ShapeKind) -> String {
    match (kind, f) {
        (ShapeKind::Circle, _) => "the centre".into(),
        (ShapeKind::Capsule, Feature::Vertex(0)) => "end a".into(),
        (ShapeKind::Capsule, Feature::Vertex(_)) => "end b".into(),
        (ShapeKind::Capsule, Feature::Edge(_)) => "the segment".into(),
        (_, Feature::Vertex(i)) => format!("vertex {i}"),
        (_, Feature::Edge(i)) => format!("edge {i}"),
    }
}

/// Where an axis comes from, in words: "normal of edge 2 of crate".
pub fn axis_source(source: AxisSource, names: &PairNames) -> String {
    match source {
        AxisSource::EdgeNormal { of, edge } => {
            format!("normal of edge {edge} of {}", names.of(of).0)
        }
        AxisSource::SegmentNormal { of } => format!("normal of {}'s segment", names.of(of).0),
        AxisSource::VertexToCentre { polygon, vertex } => {
            let circle = match polygon {
                Side::A => &names.b,
                Side::B => &names.a,
            };
            format!(
                "vertex {vertex} of {} toward the centre of {circle}",
                names.of(polygon).0
            )
        }
        AxisSource::ClosestFeatures { a, b } => format!(
            "{} of {} toward {} of {} (closest points)",
            feature(a, names.kind_a),
            names.a,
            feature(b, names.kind_b),
            names.b
        ),
        AxisSource::EndToCentre { capsule, end } => {
            let circle = match capsule {
                Side::A => &names.b,
                Side::B => &names.a,
            };
            let end = if end == 0 { "a" } else { "b" };
            format!(
                "end {end} of {} toward the centre of {circle}",
                names.of(capsule).0
            )
        }
        AxisSource::CentreToCentre => format!("centre of {} toward centre of {}", names.a, names.b),
        AxisSource::AnyAxis => "any axis (the centres coincide): x".into(),
    }
}

/// An axis's signed overlap in words: `overlap 0.3`, `gap 0.2`, or `touching` (the one
/// wording the table, the plot and the scene view use).
pub fn overlap_or_gap(overlap: f64) -> String {
    if overlap > 0.0 {
        format!("overlap {}", number(overlap))
    } else if overlap < 0.0 {
        format!("gap {}", number(-overlap))
    } else {
        "touching".into()
    }
}

/// An axis's overlap for a table column headed "overlap": the amount, or `gap` and the
/// amount.
pub fn overlap(overlap: f64) -> String {
    if overlap >= 0.0 {
        number(overlap)
    } else {
        format!("gap {}", number(-overlap))
    }
}

/// An MTV's label: `MTV 0.3`; `MTV 0 (touching)` for one within the pair's rounding.
pub fn mtv(depth: f64) -> String {
    if depth == 0.0 {
        "MTV 0 (touching)".into()
    } else {
        format!("MTV {}", number(depth))
    }
}

/// A number typed by a person: decimal or scientific notation, surrounding blanks ignored.
/// The reason when it is not one: `"3x7" is not a number`.
pub fn parse_number(text: &str) -> Result<f64, String> {
    let trimmed = text.trim();
    match trimmed.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{trimmed:?} is too large (numbers must be finite)")),
        Err(_) if trimmed.is_empty() => Err("type a number".into()),
        Err(_) => Err(format!("{trimmed:?} is not a number")),
    }
}

/// A number written so that reading it back gives the same f64, bit for bit (what a field
/// shows while it is being edited).
pub fn exact_number(x: f64) -> String {
    if x == 0.0 { "0".into() } else { format!("{x}") }
}

/// What axis `k` decided, for a table.
pub fn decision(report: &SatReport, k: usize) -> &'static str {
    match report.role(k) {
        AxisRole::Deciding if report.intersecting() => "least overlap: MTV",
        AxisRole::Deciding => "separates: stop",
        AxisRole::Separating => "separates",
        AxisRole::Overlapping => "overlaps",
    }
}

/// Where an axis comes from, short enough for a table cell: "edge 2 of A", "A's segment",
/// "corner 3 of A" (toward the other shape's centre), "closest points", "centres".
pub fn axis_source_short(source: AxisSource) -> String {
    let side = |s: Side| match s {
        Side::A => "A",
        Side::B => "B",
    };
    match source {
        AxisSource::EdgeNormal { of, edge } => format!("edge {edge} of {}", side(of)),
        AxisSource::SegmentNormal { of } => format!("{}'s segment", side(of)),
        AxisSource::VertexToCentre { polygon, vertex } => {
            format!("corner {vertex} of {}", side(polygon))
        }
        AxisSource::EndToCentre { capsule, end } => {
            format!(
                "end {} of {}",
                if end == 0 { "a" } else { "b" },
                side(capsule)
            )
        }
        AxisSource::ClosestFeatures { .. } => "closest points".into(),
        AxisSource::CentreToCentre => "centres".into(),
        AxisSource::AnyAxis => "any (same centre)".into(),
    }
}

/// One step of the test, for teaching: "Axis 3 of 8: normal of edge 2 of crate. A spans [1.2,
/// 4], B spans [3.6, 5.1]: overlap 0.4, not separating."
pub fn axis_sentence(report: &SatReport, index: usize, names: &PairNames) -> String {
    let t = &report.axes[index];
    let shown = report.shown(t.overlap);
    let amount = if shown > 0.0 {
        format!("overlap {}, not separating", number(shown))
    } else if shown < 0.0 {
        format!("gap {}: separating", number(-shown))
    } else if t.separating {
        "they only touch: separating (touching is not intersecting)".into()
    } else {
        // An overlap within rounding: the test counts it, the geometry is a touch.
        "they touch (an overlap within rounding): not separating".into()
    };
    let mut sentence = format!(
        "Axis {} of {}: {}. {} spans {}, {} spans {}: {}.",
        index + 1,
        report.axes.len(),
        axis_source(t.source, names),
        names.a,
        interval(t.a),
        names.b,
        interval(t.b),
        amount
    );
    if let Some(first) = report.repeats(index) {
        sentence.push_str(&format!(" {}.", capitalised(&parallel_note(first))));
    }
    sentence
}

/// What a pair says at SAT step `step` of step mode (from 1; `None`: the whole test): the
/// step's axis sentence while axes remain, else the verdict (a chain piece's own), and the
/// naive rule's move after it when `naive`. A caption's sentences, and the presenter's.
pub fn step_sentences(
    report: &PairReport,
    names: &PairNames,
    step: Option<usize>,
    naive: bool,
) -> Vec<String> {
    let axes = report.sat.axes.len();
    match step.map(|k| k.clamp(1, axes + 1)) {
        Some(k) if k <= axes => vec![axis_sentence(&report.sat, k - 1, names)],
        _ => {
            let verdict = chain_verdict(report, names)
                .unwrap_or_else(|| verdict_sentence(&report.sat, names));
            let mut all = vec![verdict];
            if naive {
                all.push(naive_sentence(report.naive.as_ref(), names));
            }
            all
        }
    }
}

/// What a repeated axis is: `parallel to axis 2: same shadows` (`first` is the axis it
/// repeats, from 0).
pub fn parallel_note(first: usize) -> String {
    format!("parallel to axis {}: same shadows", first + 1)
}

/// `text` with its first letter a capital.
pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The verdict in one sentence, with the reason.
pub fn verdict_sentence(report: &SatReport, names: &PairNames) -> String {
    match report.verdict {
        // Every separating axis only touches: the boundaries meet.
        Verdict::Separated { first, gap, .. }
            if report.shown(report.axes[first].overlap) == 0.0 && report.shown(gap) == 0.0 =>
        {
            format!(
                "Touching: on axis {} ({}) the shadows only meet (a gap within rounding), so the boundaries touch but the interiors do not overlap.",
                first + 1,
                axis_source(report.axes[first].source, names)
            )
        }
        // The first axis only touches, another shows a real gap: apart.
        Verdict::Separated { first, widest, gap }
            if report.shown(report.axes[first].overlap) == 0.0 =>
        {
            format!(
                "Separated: on axis {} ({}) the shadows only meet, so a SAT test can stop there; axis {} ({}) shows a gap of {}: {} and {} do not intersect.",
                first + 1,
                axis_source(report.axes[first].source, names),
                widest + 1,
                axis_source(report.axes[widest].source, names),
                number(gap),
                names.a,
                names.b
            )
        }
        Verdict::Separated { first, widest, gap } => {
            let mut s = format!(
                "Separated: axis {} ({}) shows a gap, so a SAT test can stop there (the other axes are measured here only to show them); {} and {} do not intersect.",
                first + 1,
                axis_source(report.axes[first].source, names),
                names.a,
                names.b
            );
            if widest != first {
                s.push_str(&format!(
                    " The widest gap, {}, is on axis {}.",
                    number(gap),
                    widest + 1
                ));
            }
            s
        }
        Verdict::Touching { axis } => format!(
            "Touching: on axis {} ({}) the shadows only meet, so the boundaries touch but the interiors do not overlap.",
            axis + 1,
            axis_source(report.axes[axis].source, names)
        ),
        Verdict::Shallow {
            axis,
            depth,
            threshold,
        } => format!(
            "Called apart: every axis overlaps, but the least overlap, {} on axis {} ({}), is below this test's threshold {}, so it reports no contact.",
            number(depth),
            axis + 1,
            axis_source(report.axes[axis].source, names),
            number(threshold)
        ),
        Verdict::Intersecting { axis, .. }
            if report.mistake.is_none() && report.shown(report.axes[axis].overlap) == 0.0 =>
        {
            format!(
                "Touching: every axis overlaps, but the least overlap, on axis {} ({}), is within rounding, so the boundaries touch; the test still counts it as intersecting.",
                axis + 1,
                axis_source(report.axes[axis].source, names)
            )
        }
        Verdict::Intersecting { axis, depth } => {
            let mtv = report.mtv.expect("an intersecting report has an MTV");
            format!(
                "Intersecting: every axis overlaps. The least overlap is {} on axis {} ({}), so the MTV moves {} by {} along {}, {}.",
                number(depth),
                axis + 1,
                axis_source(report.axes[axis].source, names),
                names.b,
                number(depth),
                point(mtv.normal),
                match report.mistake {
                    Some(Mistake::NaiveSmallestOverlap) => "the axis as it comes",
                    Some(Mistake::NormalReversed) => "reversed: from B toward A",
                    _ => "the shorter way out",
                }
            )
        }
    }
}

/// What the naive rule (smallest overlap, axis sign as it comes: a common tutorial bug) would
/// have done, in one sentence.
pub fn naive_sentence(naive: Option<&NaiveMtv>, names: &PairNames) -> String {
    let Some(naive) = naive else {
        return "The naive rule finds an overlap under 1e-4 (or a gap) on some axis: nothing to push."
            .into();
    };
    let axis = axis_source(naive.source, names);
    let effect = if naive.pushes_inward {
        format!(
            "that pushes {} deeper into {} ({}): the common tutorial bug",
            names.b,
            names.a,
            naive_reason(naive.source, names)
        )
    } else {
        "that happens to point the right way here".into()
    };
    format!(
        "Naive rule (least interval overlap, axis sign as it comes): {}, moving {} by {} along {}; {}.",
        axis,
        names.b,
        number(naive.depth),
        point(naive.normal),
        effect
    )
}

/// Why the naive rule's axis, taken as it comes, points the wrong way, as it fits this pair.
pub(crate) fn naive_reason(source: AxisSource, names: &PairNames) -> String {
    match source {
        AxisSource::EdgeNormal { of: Side::A, .. } if names.clockwise[0] => format!(
            "{a} is listed clockwise, so its edge normal as it comes points into {a}",
            a = names.a
        ),
        AxisSource::EdgeNormal { of: Side::B, .. } if !names.clockwise[1] => format!(
            "an edge normal of {b} points out of {b}, toward {a}",
            a = names.a,
            b = names.b
        ),
        _ => "the shorter way out is the other way along that axis".into(),
    }
}

/// Why a speculative claim disagrees when its verdict agrees: it promised more room than
/// there is (`separation 0.05 > distance 0.02: the solver lets the pair sink in`).
pub fn broken_promise(separation: f64, distance: f64) -> String {
    format!(
        "separation {} > distance {}: the solver lets the pair close by more than the gap, so they sink in",
        number(separation),
        number(distance)
    )
}

/// How far a claim judged at f32 is from the exact result, against its tolerance:
/// `off by 2.3e-3 (tau 9.5e-6)`.
pub fn f32_error(error: f64, tau: f64) -> String {
    if error == 0.0 {
        return format!("exactly (tau {})", three_digits(tau));
    }
    format!("off by {} (tau {})", three_digits(error), three_digits(tau))
}

/// `x` to three significant digits: plainly from 0.001 to 99999 (`1.89`, `0.0123`, `412`),
/// else in scientific notation (`2.22e-5`, `1.5e7`), never `1.89e0`.
pub fn three_digits(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor();
    if (-3.0..5.0).contains(&magnitude) {
        let decimals = (2.0 - magnitude).max(0.0) as usize;
        return with_decimals(x, decimals);
    }
    let text = format!("{x:.2e}");
    // `2.20e-5` -> `2.2e-5`: no trailing zeros in the mantissa.
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{mantissa}e{exponent}")
        }
        None => text,
    }
}

/// `+0.1` or `-0.1`; a tiny difference in scientific notation.
pub(crate) fn signed(x: f64) -> String {
    if x.abs() < 5e-7 {
        format!("{x:+.1e}")
    } else {
        format!("{}{}", if x > 0.0 { "+" } else { "" }, number(x))
    }
}

/// A pair's time of impact in one sentence: `ball and wall first touch at t = 0.044, at
/// (-0.1, 0), normal (-1, 0).`, `... already overlap at t = 0.` or `... do not touch before
/// t = 1.`
pub fn toi_headline(toi: &Toi, names: &PairNames, horizon: f64) -> String {
    match (toi.state, toi.toi) {
        (ToiState::Overlapped, _) => {
            format!("{} and {} already overlap at t = 0.", names.a, names.b)
        }
        (ToiState::Hit, Some(t)) => format!(
            "{} and {} first touch at t = {}{}.",
            names.a,
            names.b,
            number(t),
            match (toi.point, toi.normal) {
                (Some(p), Some(n)) => format!(", at {}, normal {}", point(p), point(n)),
                _ => String::new(),
            }
        ),
        _ => format!(
            "{} and {} do not touch before t = {}.",
            names.a,
            names.b,
            number(horizon)
        ),
    }
}

/// How a time of impact was found, and why it never passes the contact.
pub fn toi_method(method: ToiMethod) -> String {
    match method {
        ToiMethod::Newton => "Both only translate: the distance is convex in t, so Newton's method on it (t += d / closing speed) never passes the contact; the last corner-to-corner stretch is solved in closed form.".to_string(),
        ToiMethod::ConservativeAdvancement { bound } => format!(
            "Something turns: conservative advancement. The distance cannot drop faster than {} per second (|vB - vA| + |wA| RA + |wB| RB), so t += d / {} never steps past a contact.",
            number(bound),
            number(bound)
        ),
    }
}

/// A collision a latency-aware server found, in one sentence (the window's lists, labels and
/// tooltips and `collidoscope packets` all say it this way): `runner / bullet at 225 ms: found
/// at 322.1 ms, 97.1 ms late`; a swept one `first contact at 223.6 ms (between the buckets
/// at 200 and 225 ms)`. Times in ms.
pub fn latency_collision(
    a: &str,
    b: &str,
    time: f64,
    between: Option<[f64; 2]>,
    detected_at: f64,
) -> String {
    let when = match between {
        Some([t0, t1]) => format!(
            "first contact at {} ms (between the buckets at {} and {} ms)",
            ms(time),
            ms(t0),
            ms(t1)
        ),
        None => format!("at {} ms", ms(time)),
    };
    format!(
        "{a} / {b} {when}: found at {} ms, {} ms late",
        ms(detected_at),
        ms(detected_at - time)
    )
}

/// A collision taken back, in one sentence: `retracted post / runner at 50 ms: at 200 ms a
/// later packet moved them apart`. Times in ms.
pub fn latency_retraction(a: &str, b: &str, time: f64, retracted_at: f64) -> String {
    format!(
        "retracted {a} / {b} at {} ms: at {} ms a later packet moved them apart",
        ms(time),
        ms(retracted_at)
    )
}

/// A pair's exact result in a few words: `intersecting, depth 0.2, normal (1, 0)` or `apart,
/// distance 0.066392`.
pub fn summary_sentence(e: &PairSummary) -> String {
    if e.intersecting {
        format!(
            "intersecting, depth {}, normal {}",
            number(e.depth),
            e.normal.map(point).unwrap_or_default()
        )
    } else {
        format!("apart, distance {}", number(e.distance))
    }
}

/// After the pairs a capture's text lists, the ones it leaves out.
pub fn more_differing_pairs(pairs: usize, claims: u64) -> String {
    format!(
        "and {pairs} more pair{} ({claims} claim{}): diagnose --json gives every claim",
        if pairs == 1 { "" } else { "s" },
        if claims == 1 { "" } else { "s" }
    )
}

/// For a pair with a chain, the chain rule's answer in one sentence: the headline the window
/// and `explain` give such a pair (`None` for other pairs).
pub fn chain_verdict(report: &PairReport, names: &PairNames) -> Option<String> {
    let chain = report.chain.as_ref()?;
    let Some(k) = chain.deciding.map(|k| &chain.pieces[k]) else {
        return Some(
            "Two chains never collide: each is solid on one side only, with no inside.".into(),
        );
    };
    // The shape that moves is the one that is not the chain.
    let (mover, sign) = if k.chain_is_a {
        (&names.b, 1.0)
    } else {
        (&names.a, -1.0)
    };
    Some(match &report.contact {
        Some(c) => format!(
            "By the chain rule, {mover} moves by {} along {} (piece {}, the deepest), the shorter admitted way out.",
            number(c.depth),
            point(c.normal * sign),
            k.piece
        ),
        None if chain.pieces.iter().all(|p| p.rule == ChainRule::Apart) => {
            format!("By the chain rule they do not collide: no piece reaches {mover}.")
        }
        None => "By the chain rule they do not collide: the pieces below say why.".into(),
    })
}

/// For a pair with a chain: what its axes and SAT verdict are (one piece alone, as a
/// two-sided segment), for the line before that verdict (`None` for other pairs).
pub fn chain_alone(report: &PairReport) -> Option<String> {
    let chain = report.chain.as_ref()?;
    let k = chain.pieces.get(chain.deciding?)?;
    Some(format!(
        "Piece {} alone, as a two-sided segment (the axes shown; what resolving the pieces one by one would use):",
        k.piece
    ))
}

/// For a pair with a chain: the chain rule's sentence for every piece that reaches the other
/// shape, after a heading (empty for other pairs, or when no piece reaches it).
pub fn chain_lines(report: &PairReport, names: &PairNames) -> Vec<String> {
    let Some(chain) = &report.chain else {
        return Vec::new();
    };
    let reaching: Vec<String> = chain
        .pieces
        .iter()
        .filter(|p| p.rule != ChainRule::Apart)
        .map(|p| chain_piece_sentence(p, names))
        .collect();
    if reaching.is_empty() {
        return Vec::new();
    }
    std::iter::once("The chain rule, piece by piece:".to_string())
        .chain(reaching)
        .collect()
}

/// What the chain rule did with one piece, in one sentence: "piece 2 snaps: its own normal
/// (-1, 0) would push crate back along the surface by 0.0005, past the flat seam at (2, 0), so
/// the face normal (0, 1) is used, 0.002".
pub fn chain_piece_sentence(p: &PieceResult, names: &PairNames) -> String {
    let other = if p.chain_is_a { &names.b } else { &names.a };
    // Directions as seen from the piece, toward the other shape.
    let from_piece = |n: DVec2| if p.chain_is_a { n } else { -n };
    let k = p.piece;
    match p.rule {
        ChainRule::Apart => format!("piece {k} does not reach {other}"),
        ChainRule::Behind => format!(
            "piece {k} lets {other} through: its centre is behind the piece, which is solid only on its front"
        ),
        ChainRule::Skip => {
            let (u, depth) = p.least.unwrap_or((p.admissible.face, 0.0));
            format!(
                "piece {k} leaves {other} to its neighbour: the least push, {} along {}, is the neighbour's face normal over the convex corner",
                number(depth),
                point(u)
            )
        }
        ChainRule::Admit => format!(
            "piece {k} admits its own result: {} along {}, within the directions it allows",
            number(p.summary.depth),
            point(p.summary.normal.map_or(p.admissible.face, from_piece))
        ),
        ChainRule::Snap => {
            let ghost = p
                .two_sided
                .normal
                .map(from_piece)
                .unwrap_or(p.admissible.face);
            let along = p.ends[1] - p.ends[0];
            // The two-sided normal points past the end it leans toward.
            // The seam at that end, and the edges into and out of it (in the chain's order).
            let (seam, into, out) = if ghost.dot(along) > 0.0 {
                (p.ends[1], along, p.ghosts[1] - p.ends[1])
            } else {
                (p.ends[0], p.ends[0] - p.ghosts[0], along)
            };
            let bend = crate::geometry::cross(into.normalize_or_zero(), out.normalize_or_zero());
            let corner = if bend < 0.0 {
                "concave corner"
            } else {
                "flat seam"
            };
            format!(
                "piece {k} snaps: its own normal {} would push {other} along the surface by {}, past the {corner} at {}, so the face normal {} is used, {}",
                point(ghost),
                number(p.two_sided.depth),
                point(seam),
                point(p.least.map_or(p.admissible.face, |(u, _)| u)),
                number(p.summary.depth)
            )
        }
    }
}

/// A Box2D recording being replayed in the window, where its capture goes: a new file beside
/// the recording, said so before it is written.
pub fn replaying(recording: &std::path::Path, capture: &std::path::Path) -> String {
    format!(
        "replaying {} with Box2D into a capture beside it, {} (opened when written)",
        recording.display(),
        capture.display()
    )
}

/// What replaying a Box2D recording did: the frames and step, where the capture went, and
/// whether Box2D's replay stopped reproducing the recorded state.
pub fn replayed(
    recording: &std::path::Path,
    capture: Option<&std::path::Path>,
    frames: u64,
    dt: f64,
    diverged_at: Option<u64>,
) -> String {
    let mut words = format!(
        "replayed {} with Box2D: {frames} frame{} of {} s",
        recording.display(),
        if frames == 1 { "" } else { "s" },
        number(dt)
    );
    if let Some(capture) = capture {
        words += &format!(", written to {}", capture.display());
    }
    if let Some(k) = diverged_at {
        words += &format!(
            "; from frame {k} Box2D's replay no longer reproduces the state hashes the \
             recording holds: the capture shows what Box2D computes now, which may not be what \
             the game saw"
        );
    }
    words
}

/// A replay of a Box2D recording stopped at its deadline (`seconds`: a minute, and 50 ms
/// for each of its `steps` when the deadline follows them): how far it had come (`reported`:
/// the frames the replay last said it had done, of how many), and that what it began to write
/// is gone (`capture`; without one it wrote to standard output, which stops there).
pub fn replay_stopped(
    recording: &std::path::Path,
    capture: Option<&std::path::Path>,
    seconds: f64,
    steps: Option<u64>,
    reported: Option<(u64, u64)>,
) -> String {
    let mut words = format!(
        "the replay of {} did not finish within {} s",
        recording.display(),
        with_decimals(seconds, 1)
    );
    if let Some(steps) = steps {
        words += &format!(
            " (a minute, and 50 ms for each of its {steps} step{})",
            if steps == 1 { "" } else { "s" }
        );
    }
    words += &match reported {
        Some((k, n)) => format!(", and was stopped after it said {k} of its {n} frames were done"),
        None => ", and was stopped before it said a frame was done".to_string(),
    };
    words += ": Box2D may be stuck on a damaged recording (or the world is too large to replay \
              in that time)";
    words += &match capture {
        Some(capture) => format!("; nothing was written to {}", capture.display()),
        None => "; the capture on standard output stops there".to_string(),
    };
    words
}

/// How many frames, claims and agreements a capture has so far, and how many disagree by cause
/// (`causes`: each cause's name and count, "no known mistake" among them).
pub fn capture_counts(
    frames: usize,
    (claims, agreeing): (u64, u64),
    causes: &[(&str, u64)],
) -> String {
    let mut line = format!(
        "{frames} frame{}, {claims} claim{}: {agreeing} agree, {} disagree",
        plural(frames as u64),
        plural(claims),
        claims - agreeing
    );
    let named: Vec<String> = causes
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(cause, n)| format!("{n} {cause}"))
        .collect();
    if !named.is_empty() {
        line.push_str(&format!(" ({})", named.join(", ")));
    }
    line
}

/// The page of a long log's timeline shown: `rows 0 to 499,975 ms of 172,800,024 buckets: the
/// page of the bucket shown (step the bucket to turn it)`.
pub fn latency_page(from: f64, to: f64, buckets: i64) -> String {
    format!(
        "rows {} to {} ms of {buckets} buckets: the page of the bucket shown (step the bucket to turn it)",
        ms(from),
        ms(to)
    )
}

/// What the latency lab shows, in a sentence (the page's state, the presenter's line under a
/// slide's words): `At 50 ms (12 of 12 packets arrived): runner / post at 50 ms: found at 60
/// ms, 10 ms late.`; `... no collision stands there.` when none does.
pub fn latency_state<'a>(
    time: f64,
    (arrived, total): (usize, usize),
    collisions: impl IntoIterator<Item = &'a str>,
) -> String {
    let collisions: Vec<&str> = collisions.into_iter().collect();
    let standing = if collisions.is_empty() {
        "no collision stands there".to_string()
    } else {
        collisions.join("; ")
    };
    format!(
        "At {} ms ({arrived} of {total} packets arrived): {standing}.",
        ms(time)
    )
}

/// What the latency lab shows while an engine for new settings is made: `shown: the engine at
/// a step of 25 ms, swept, until the new one is ready`.
pub fn latency_shown_until(step: f64, swept: bool) -> String {
    format!(
        "shown: the engine at a step of {} ms{}, until the new one is ready",
        number(step),
        if swept { ", swept" } else { "" }
    )
}

/// A packet the latency-aware engine refused, in the lab: `packet 12 refused: "sent" ...; the
/// packets after it are left out`.
pub fn packet_refused(at: usize, why: &str) -> String {
    format!("packet {at} refused: {why}; the packets after it are left out")
}

/// A capture's scan finished: every claim judged.
pub fn capture_judged(
    path: &std::path::Path,
    frames: usize,
    counts: (u64, u64),
    causes: &[(&str, u64)],
) -> String {
    format!(
        "judged every claim of {}: {}",
        path.display(),
        capture_counts(frames, counts, causes)
    )
}

pub(crate) fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The capture lab with no capture open.
pub const NO_CAPTURE: &str = "No capture open. A capture is what your game's physics engine did, frame by frame (docs/format.md, \"Captures\"): open one with File > Open or `collidoscope CAPTURE`, and every contact it reported is judged here at the engine's precision.";

/// The shapes panel over a run opened from a file.
pub const OPENED_RUN: &str =
    "The run opened from a file (read-only). Run, or open a document, to edit shapes again.";

/// The shapes panel over a capture's frame.
pub const CAPTURED_FRAME: &str = "The capture's frame shown (read-only): each shape as the engine had it when it computed the frame's contacts. Export fixture of this frame to edit them.";

/// Save refused: `path` is a level the importers read.
pub fn level_not_replaced(path: &std::path::Path) -> String {
    format!(
        "not saved: {} is a level (a Tiled map, tileset or template, or a Godot file), and saving would replace it with a shape set; type another path",
        path.display()
    )
}

/// A level imported into the window.
pub fn imported(path: &std::path::Path, shapes: usize, notes: usize) -> String {
    let mut line = format!(
        "imported {}: {shapes} shape{} (a new, unsaved set)",
        path.display(),
        if shapes == 1 { "" } else { "s" }
    );
    if notes > 0 {
        line.push_str(&format!(
            "; {notes} note{} in the shapes panel",
            if notes == 1 { "" } else { "s" }
        ));
    }
    line
}

/// A Godot shape under an Area2D.
pub const GODOT_TRIGGER: &str = "a trigger: its parent is an Area2D, which reports the bodies that enter it and stops none; imported as a solid shape";

/// A Godot shape that cannot move with its body: a segment or chain is static geometry.
pub fn godot_kept_static(
    kind: crate::geometry::ShapeKind,
    body_type: &str,
    body: crate::scene::Body,
) -> String {
    format!(
        "kept static: a {} is static geometry in collidoscope, though its parent {body_type} is {}",
        kind.name(),
        body.name()
    )
}

/// A Godot StaticBody2D's conveyor velocity, not kept.
pub fn godot_conveyor(key: &str) -> String {
    format!(
        "its parent StaticBody2D's {key} not kept: Godot moves the bodies touching it by it, not the body itself; imported at rest"
    )
}

/// A capture whose last line was cut off by a crash: `game.capture.jsonl: line 6: the last
/// line is cut off (...); it is left out, and the 4 frames before it are read` (`frames`
/// before it, in the singular for one).
pub fn cut_off_last_line(path: &std::path::Path, line: usize, frames: u64) -> String {
    let read = if frames == 1 {
        "the 1 frame before it is read".to_string()
    } else {
        format!("the {frames} frames before it are read")
    };
    format!(
        "{}: line {line}: the last line is cut off (the game stopped while writing it); it is left out, and {read}",
        path.display()
    )
}

/// A Godot shape with `one_way_collision`, kept whole.
pub const GODOT_ONE_WAY_KEPT: &str = "one_way_collision not kept: collidoscope has no one-way shape, so it is imported whole and collides from every side (Godot lets bodies through from below); to see it as Godot does, replace it by a one-sided chain along its top face";

/// Why a Godot scene gave no shapes: `nodes` nodes, `collision` of them collision nodes, the
/// names of those with scripts.
pub fn godot_no_shapes(nodes: usize, collision: usize, scripted: &[&str]) -> String {
    let mut line = if collision == 0 {
        format!(
            "no collision shapes: none of its {nodes} node{} (those of the scenes it instances included) is a CollisionShape2D, CollisionPolygon2D or TileMapLayer",
            if nodes == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "no collision shapes: its {collision} collision node{} give none (a TileMapLayer without cells, or whose tiles have no physics polygons)",
            if collision == 1 { "" } else { "s" }
        )
    };
    if !scripted.is_empty() {
        let names: Vec<String> = scripted.iter().take(3).map(|n| format!("{n:?}")).collect();
        let more = if scripted.len() > 3 { ", ..." } else { "" };
        line.push_str(&format!(
            "; {} node{} a script ({}{more}), which may build the level when the game runs: import reads no scripts, so import the scenes it loads",
            scripted.len(),
            if scripted.len() == 1 { " has" } else { "s have" },
            names.join(", ")
        ));
    }
    line
}

/// Long names cut where they are the same, not where they differ. An imported level's names
/// are paths (`TileMap/Floor[10,14]/physics_layer_0/polygon_0`) that differ in one part: the
/// parts other names of the list share go first, the most shared first (each dropped part
/// shown as `…`), then characters from the middle, so the part that tells a name from its
/// neighbours stays, even when one name of the list (`Player/CollisionShape2D`) shares nothing.
#[derive(Clone, Debug, Default)]
pub struct NameCutter {
    /// How many names of the list have each part (between `/`).
    shared: std::collections::HashMap<String, usize>,
    /// Every part, sorted (to find the beginnings parts share).
    parts: Vec<String>,
}

impl NameCutter {
    /// A cutter for the names of a list.
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut shared = std::collections::HashMap::<String, usize>::new();
        for name in names {
            let parts: std::collections::HashSet<&str> = name.split('/').collect();
            for part in parts {
                *shared.entry(part.to_string()).or_default() += 1;
            }
        }
        let mut parts: Vec<String> = shared.keys().cloned().collect();
        parts.sort_unstable();
        Self { shared, parts }
    }

    /// `name` as it is, if `fits` takes it; else with the parts other names share dropped, the
    /// most shared first and, among those shared alike, the middle ones first; else with the
    /// beginnings of the parts left that other parts share (`Tile Layer 1[` of
    /// `Tile Layer 1[10,10]`) cut to `…`, taking back what dropped parts fit again; else cut in
    /// the middle of its characters, keeping more of the end.
    pub fn cut(&self, name: &str, fits: impl Fn(&str) -> bool) -> String {
        if fits(name) {
            return name.to_string();
        }
        let whole: Vec<&str> = name.split('/').collect();
        let mut parts: Vec<Option<String>> = whole.iter().map(|p| Some(p.to_string())).collect();
        let n = parts.len();
        let count = |k: usize| self.shared.get(whole[k]).copied().unwrap_or(0);
        // The shared parts; the first and last carry the most, so the middle goes first.
        let mut order: Vec<(usize, usize)> = (0..n)
            .map(|k| (k, count(k)))
            .filter(|&(_, c)| c > 1)
            .collect();
        let middle = (n as f64 - 1.0) / 2.0;
        order.sort_by(|(a, ca), (b, cb)| {
            cb.cmp(ca)
                .then(((*a as f64 - middle).abs()).total_cmp(&(*b as f64 - middle).abs()))
        });
        let joined = |parts: &[Option<String>]| {
            let mut out: Vec<&str> = Vec::new();
            for p in parts {
                match p {
                    Some(p) => out.push(p),
                    // Runs of dropped parts are one `…`.
                    None if out.last() != Some(&"…") => out.push("…"),
                    None => {}
                }
            }
            out.join("/")
        };
        let mut dropped = Vec::new();
        for (k, _) in order {
            // A part that begins as others do (`Tile Layer 1[10,10]`) keeps its end first.
            if let Some(short) = self.without_shared_start(whole[k]) {
                parts[k] = Some(short);
                let text = joined(&parts);
                if fits(&text) {
                    return text;
                }
            }
            parts[k] = None;
            dropped.push(k);
            let text = joined(&parts);
            if fits(&text) {
                return text;
            }
        }
        // The beginnings other parts share, cut; then the dropped parts back, the last dropped
        // first, while they fit.
        for part in parts.iter_mut().flatten() {
            if let Some(short) = self.without_shared_start(part) {
                *part = short;
            }
        }
        if fits(&joined(&parts)) {
            for k in dropped.into_iter().rev() {
                let shown = self
                    .without_shared_start(whole[k])
                    .unwrap_or_else(|| whole[k].to_string());
                parts[k] = Some(shown);
                if !fits(&joined(&parts)) {
                    parts[k] = None;
                }
            }
            return joined(&parts);
        }
        middle_cut(&joined(&parts), fits)
    }

    /// `part` with its longest beginning that another part of the list also begins with cut to
    /// `…`, the beginning ending at a space, `_`, `-`, `.` or `[` (never inside brackets, where
    /// a cell's numbers are); `None` when no such beginning, or when fewer than three
    /// characters would be left (`…0` of `polygon_0` says too little).
    fn without_shared_start(&self, part: &str) -> Option<String> {
        let mut best = None;
        for (i, c) in part.char_indices() {
            if !matches!(c, ' ' | '_' | '-' | '.' | '[') {
                continue;
            }
            // A cell's `[` stays with its numbers.
            let start = if c == '[' {
                &part[..i]
            } else {
                &part[..i + c.len_utf8()]
            };
            if start.is_empty() {
                continue;
            }
            if start.len() == part.len() {
                break;
            }
            let from = self.parts.partition_point(|p| p.as_str() < start);
            let others = self.parts[from..]
                .iter()
                .take_while(|p| p.starts_with(start))
                .any(|p| p != part);
            if others && part[start.len()..].chars().count() >= 3 {
                best = Some(start.len());
            }
            if c == '[' {
                break;
            }
        }
        best.map(|at| format!("…{}", &part[at..]))
    }
}

/// `text` with characters cut from its middle (a third more kept of the end) until `fits`
/// takes it; `…` alone if nothing does.
pub(crate) fn middle_cut(text: &str, fits: impl Fn(&str) -> bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    for keep in (1..chars.len()).rev() {
        let tail = (keep * 4).div_ceil(7);
        let head = keep - tail;
        let cut: String = chars[..head]
            .iter()
            .chain(std::iter::once(&'…'))
            .chain(&chars[chars.len() - tail..])
            .collect();
        if fits(&cut) {
            return cut;
        }
    }
    "…".into()
}

/// Said when a lesson is presented: its keys, or to a finger the bar's buttons.
pub fn presenting(title: &str, slides: usize, device: Device) -> String {
    let how = if device.touch {
        "Next goes on, Back goes back, Restore restores the slide, Exit ends"
    } else {
        "Right or Space goes on, Left back, R restores, L projector look, Esc ends"
    };
    format!("presenting \"{title}\", {slides} slides: {how}")
}

/// Said when a presentation ends: the user's own scene back (`own`: it had a file or unsaved
/// edits), else the scene the window opened with (a lesson from a link or carried in a page
/// had nothing of the user's aside).
pub fn presentation_ended(title: &str, own: bool) -> String {
    if own {
        format!("ended \"{title}\": your own scene is back as you left it")
    } else {
        format!(
            "ended \"{title}\": the scene the window opened with is shown, yours to try things on"
        )
    }
}

/// Said when asked past the last slide.
pub const LAST_SLIDE: &str = "the last slide: Esc ends the presentation";

/// Said when asked back from the first slide's first step.
pub const FIRST_SLIDE: &str = "the first slide";

/// Where step mode is, as its sentence counts: "axis 3 of 7" at step k (from 1) of a test of
/// `axes` axes, "the verdict" at the step after the last axis.
pub fn step_place(k: usize, axes: usize) -> String {
    if k <= axes {
        format!("axis {k} of {axes}")
    } else {
        "the verdict".into()
    }
}

/// Where a presentation is: "slide 2 of 6", with "axis 3 of 7" (or "the verdict") while
/// stepping through a test of `axes` axes at step `k`.
pub fn slide_of(slide: usize, slides: usize, step: Option<(usize, usize)>) -> String {
    match step {
        Some((k, axes)) => format!("slide {slide} of {slides} · {}", step_place(k, axes)),
        None => format!("slide {slide} of {slides}"),
    }
}

/// The broad phase's saving in one sentence: "12 shapes make 66 pairs; the grid compares 4
/// candidate pairs, of which 2 intersect."
pub fn broad_counts(shapes: usize, candidates: usize, hits: usize) -> String {
    let pairs = shapes * shapes.saturating_sub(1) / 2;
    format!(
        "{shapes} shapes make {pairs} pairs; the grid compares {candidates} candidate {}, of which {hits} {}.",
        if candidates == 1 { "pair" } else { "pairs" },
        if hits == 1 { "intersects" } else { "intersect" }
    )
}

/// The window's title while a lesson is presented.
pub fn presenter_title(lesson: &str, slide: usize) -> String {
    format!("{lesson}: slide {slide} (presenting) - collidoscope")
}

/// A mistake in a few words, for a table of names (the command line's help).
pub fn mistake_in_short(m: crate::query::Mistake) -> &'static str {
    use crate::query::Mistake;
    match m {
        Mistake::NormalReversed => "the normal points from B toward A",
        Mistake::NaiveSmallestOverlap => {
            "least interval overlap, axis sign as it comes (1e-4 threshold)"
        }
        Mistake::EdgeNormalsOnly => "no axis from a corner or segment end toward a rounded shape",
        Mistake::ShallowIgnored => "a penetration under 1e-4 is called apart",
        Mistake::InternalEdge => "a chain's piece collided alone, two-sided",
    }
}

/// What the red face of a seam event's picture is called.
pub const SEAM_FACE: &str = "seam face";

/// What the red corner of a corner seam's picture is called.
pub const SEAM_CORNER: &str = "seam corner";

/// What the touch of a tunnelled event's picture is called.
pub const FIRST_TOUCH: &str = "first touch";

/// A face named by its outward normal: `top face`, `left face`, or `face (0.6, 0.8)`.
pub(crate) fn face_word(n: DVec2) -> String {
    let close = |d: DVec2| n.dot(d) > 1.0 - 1e-6;
    if close(DVec2::Y) {
        "top face".into()
    } else if close(-DVec2::Y) {
        "bottom face".into()
    } else if close(DVec2::X) {
        "right face".into()
    } else if close(-DVec2::X) {
        "left face".into()
    } else {
        format!("face facing {}", point(n))
    }
}

/// Said of a disagreeing claim no age explains when the engine recycles contacts.
pub const RECYCLED_UNEXPLAINED: &str = "contact recycling is on: a recycled contact may come from poses the capture never held (between frames, or moved less than the recycle distance); no geometric fix applies until recycling is off while capturing";

/// Rows of `name  words`, the names padded to one column, each line indented by two.
pub fn name_table<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let rows: Vec<(&str, &str)> = rows.into_iter().collect();
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(name, words)| format!("  {name:width$}  {words}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Help's first page: what the window shows and where to start, one paragraph each.
pub const GETTING_STARTED: &[&str] = &[
    "collidoscope shows how two convex shapes collide, the way a physics engine's separating-axis test (SAT) decides it.",
    "Drag a shape to move it. The pair being explained is A (blue) and B (orange); pick them in the panel on the right, or with the A and B buttons beside each shape on the left.",
    "Around the pair, every candidate axis is a short line with both shapes' shadows on it: red where the shadows overlap, green where a gap separates them. One gap on any axis means the shapes do not touch.",
    "When every axis overlaps, the shapes intersect: the MTV (the red arrow) is the shortest move that pushes B out of A. Step through the test (Next, or the Right arrow key) to see the axes one at a time.",
    "To learn it from the start, open Help > Lessons > The separating axis theorem between polygons: slides that step through the test, the scene live beside them.",
    "The labs along the top show more: the broad phase, ray casts, motion over time, late network packets, and a game's own captured frames.",
];

/// The window's keys and mouse, each with what it does (Help's Keys page; the README's
/// controls table says the same).
pub const CONTROLS: &[(&str, &str)] = &[
    ("drag a shape", "move it (and select it)"),
    (
        "drag a handle of the selected shape",
        "rotate, reshape, resize, or set its velocity",
    ),
    ("drag the background, or middle-drag", "pan"),
    ("mouse wheel / pinch", "zoom at the pointer"),
    ("F", "fit the scene"),
    ("G", "fit the explained pair with its axis ring"),
    ("Shift+G", "zoom onto the pair's MTV or closest points"),
    (
        "Right arrow or N / Left arrow or P",
        "step mode: next / previous axis (in a timeline: next / previous frame)",
    ),
    ("Space", "play or pause a timeline"),
    (
        "E",
        "motion lab: next event; capture lab: next event (Shift+E the one before)",
    ),
    (
        "D / Shift+D",
        "capture lab: next / previous disagreeing claim",
    ),
    (
        "J",
        "capture lab, comparing two runs: the frame where they first part",
    ),
    (
        "L",
        "capture lab, following or listening: go live again (the newest frame, the break armed)",
    ),
    ("Up / Down", "latency lab: the bucket before / after"),
    (
        "Esc",
        "leave step mode; cancel a polygon being clicked; capture lab: forget the first shape picked",
    ),
    ("Enter", "finish the polygon being clicked"),
    (
        "Backspace or Delete",
        "delete the selected shape (while clicking a polygon: its last corner)",
    ),
    ("Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y", "undo, redo"),
    ("Ctrl+S", "save"),
    ("Ctrl+D", "duplicate the selected shape"),
    (
        "Click two shapes (capture lab)",
        "explain their pair at the frame shown: the engine's claim, or which stage left the pair out (one body, not dynamic, filtered, boxes apart, beyond the margin)",
    ),
    ("F1 or ?", "this help"),
];

/// The words the window uses, each explained (Help's Words page, and the hover text where
/// they appear).
pub const GLOSSARY: &[(&str, &str)] = &[
    (
        "SAT",
        "the separating-axis test: two convex shapes are apart exactly when some axis shows a gap between their shadows",
    ),
    (
        "axis",
        "a direction the shapes are projected on; each candidate axis comes from an edge's normal, or from a corner or a capsule's end toward a rounded shape",
    ),
    (
        "shadow",
        "a shape projected on an axis: the interval from its lowest to its highest point along it",
    ),
    (
        "overlap",
        "how far the two shadows cover each other on an axis; a negative overlap is a gap",
    ),
    (
        "gap",
        "space between the two shadows on an axis: a line fits between the shapes, so they are apart",
    ),
    (
        "edge",
        "a side of a polygon; its normal (the direction straight out of it) is a candidate axis",
    ),
    (
        "corner",
        "a polygon's vertex; the direction from the corner nearest a circle toward the circle's centre is a candidate axis",
    ),
    (
        "MTV",
        "the minimum translation vector: the shortest move that separates the shapes, along the axis of least overlap, pointing the way out",
    ),
    (
        "normal",
        "a unit direction; a contact's normal points from A toward B",
    ),
    (
        "contact",
        "where the shapes touch or overlap: the points an engine pushes them apart at",
    ),
    (
        "closest points",
        "the nearest points of two shapes that are apart, and the distance between them",
    ),
    (
        "claim",
        "what an engine reported about a pair in a capture's frame: touching or apart, depth, normal, contacts; judged against the exact result",
    ),
    (
        "broad phase",
        "an engine's first pass: only shapes whose (fattened) bounding boxes overlap go on to the exact test",
    ),
    (
        "speculative margin",
        "how far apart an engine's narrow phase still reports a contact point (Box2D 2 cm, Rapier's prediction distance, Avian's contact tolerance)",
    ),
    (
        "collision filter",
        "per shape, the bits that say what it collides with: category (what it is), mask (what it meets), Box2D's group (shared negative: never, shared positive: always)",
    ),
];

/// A word's meaning from [`GLOSSARY`], as a tooltip says it: `MTV: the minimum translation
/// vector: ...`.
pub fn glossary(word: &str) -> String {
    GLOSSARY
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(w, meaning)| format!("{w}: {meaning}"))
        .unwrap_or_default()
}

/// The welcome on first start, in a few lines.
pub const WELCOME: &[&str] = &[
    "Drag the shapes: the lines around the pair are the separating-axis test, live.",
    "Red bars overlap, green bars are gaps; the red arrow is the MTV, the way out.",
    "New to SAT? The first lesson steps through it. Help (F1) has the keys and the words.",
];

/// [`WELCOME`] for `device`: a finger has no F1, and Help's second page is its Controls.
pub fn welcome(device: Device) -> Vec<&'static str> {
    let mut lines = WELCOME.to_vec();
    if device.touch {
        lines[2] =
            "New to SAT? The first lesson steps through it. Help has the controls and the words.";
    }
    lines
}

/// Where the window runs and how it is worked, for the sentences that say how: the desktop app
/// has a mouse (its wheel, its middle button) and keys; a web page may be worked by fingers,
/// with neither. The window's platform edge says where it runs; its last input says whether
/// fingers work it now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Device {
    /// In a web page, not the desktop app.
    pub browser: bool,
    /// Worked by touch: the last pointer input was a finger (a phone, a tablet).
    pub touch: bool,
}

/// A sentence on how to work the window, said to a mouse and keys and said to fingers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HowTo {
    /// With a mouse and keys.
    pub mouse: &'static str,
    /// With fingers: drags, taps and pinches, the buttons on screen; no wheel, no keys.
    pub touch: &'static str,
}

impl HowTo {
    /// The sentence for `device`.
    pub fn on(self, device: Device) -> &'static str {
        if device.touch { self.touch } else { self.mouse }
    }
}

/// The status bar's hint in the pair lab (and the broad phase's, where Right steps the pair
/// shown too).
pub const PAIR_HINT: HowTo = HowTo {
    mouse: "Drag shapes to move them; drag the background to pan; wheel to zoom; F fits the scene, G the pair; Right steps the test.",
    touch: "Drag shapes to move them, the background to pan; pinch to zoom; Next in the panel steps the test.",
};

/// The status bar's hint in the casts lab.
pub const CASTS_HINT: HowTo = HowTo {
    mouse: "Drag the background to draw a ray, its ends to move them; drag shapes to move them; middle or right drag pans; wheel to zoom; F fits the scene.",
    touch: "Drag the background to draw a ray, its ends to move them; drag shapes to move them; two fingers pan; pinch to zoom.",
};

/// The status bar's hint in the motion lab.
pub const MOTION_HINT: HowTo = HowTo {
    mouse: "Space plays or pauses, the arrow keys step, E jumps to the next event; shapes move only at frame 0 (later frames: drags pan).",
    touch: "Play runs the scene, < and > step it, Next event jumps to the next; shapes move only at frame 0 (later frames: drags pan).",
};

/// The status bar's hint in the latency lab.
pub const LATENCY_HINT: HowTo = HowTo {
    mouse: "Space plays the packets in arrival order, the arrow keys step a packet, Up and Down change the bucket shown; click a timeline row to show it; drags pan.",
    touch: "Play runs the packets in arrival order, < and > step a packet; tap a timeline row to show its bucket; drags pan.",
};

/// The status bar's hint in the capture lab.
pub const CAPTURE_HINT: HowTo = HowTo {
    mouse: "Space plays or pauses, the arrow keys step a frame, D jumps to the next disagreeing claim (Shift+D the one before); click a claim, or two shapes, to explain their pair; drags pan.",
    touch: "Play runs the frames, < and > step a frame, Next divergence finds the next disagreeing claim; tap a claim, or two shapes, to explain their pair; drags pan.",
};

/// The status bar's hint while a lesson is presented.
pub const PRESENTER_HINT: HowTo = HowTo {
    mouse: "Right, Page Down or Space: next step or slide; Left or Page Up: back; Home, End: first, last slide; R restores the slide; L projector look; F11 full screen; Esc ends. Drag shapes to ask \"what if\".",
    touch: "Next and Back step through the slide, then the slides; Restore brings the slide back as it opened; Exit ends. Drag shapes to ask \"what if\".",
};

/// How step mode starts, under the pair lab's step buttons: `total` axes told by Next (the
/// keys that do the same are in the status bar's hint and Help's Keys).
pub fn step_invitation(total: usize) -> String {
    let axes = if total == 1 {
        "its one axis".to_string()
    } else {
        format!("the {total} axes one at a time")
    };
    format!("Next walks {axes}, then the verdict.")
}

/// How to work the casts lab's ray, in its panel (how to pan with a mouse is the status bar's
/// hint; a finger's drag on the background draws, so two fingers pan).
pub const CASTS_GESTURES: HowTo = HowTo {
    mouse: "Drag on the background to draw a ray; drag its ends to move them.",
    touch: "Drag on the background to draw a ray; drag its ends to move them; two fingers pan.",
};

/// Help's three pages for `device`, each as the Help menu names it and as the help window's
/// tab does: a finger has no F1, and its Keys page is mostly the fingers' (a tablet's keyboard
/// keeps the keys' rows), so it is "Controls".
pub fn help_names(device: Device) -> [(&'static str, &'static str); 3] {
    let words = ("Words: SAT, axis, MTV...", "Words");
    if device.touch {
        [
            ("Getting started", "Getting started"),
            ("Controls", "Controls"),
            words,
        ]
    } else {
        [
            ("Getting started (F1)", "Getting started"),
            ("Keys", "Keys"),
            words,
        ]
    }
}

/// The welcome's button that opens Help, for `device` (F1 is a key).
pub fn help_button(device: Device) -> &'static str {
    if device.touch { "Help" } else { "Help (F1)" }
}

/// Help's first page for `device`: [`GETTING_STARTED`], where fingers work the window (a
/// phone, its panels under the scene) with the panels named rather than placed and the SAT
/// steps' Next said without its key.
pub fn getting_started(device: Device) -> Vec<&'static str> {
    let mut paragraphs = GETTING_STARTED.to_vec();
    if device.touch {
        paragraphs[1] = "Drag a shape to move it. The pair being explained is A (blue) and B (orange); pick them in the Explain panel, or with the A and B buttons beside each shape in the Shapes panel.";
        paragraphs[3] = "When every axis overlaps, the shapes intersect: the MTV (the red arrow) is the shortest move that pushes B out of A. Step through the test (Next, in the panel) to see the axes one at a time.";
    }
    paragraphs
}

/// The rows of [`CONTROLS`] worked by a pointer or a finger, not a key.
const GESTURES: [&str; 5] = [
    "drag a shape",
    "drag a handle of the selected shape",
    "drag the background, or middle-drag",
    "mouse wheel / pinch",
    "Click two shapes (capture lab)",
];

/// Help's Keys page for `device`: [`CONTROLS`], the mouse's rows said for fingers where
/// fingers work the window, and a save said as the page's download in the browser. Where
/// fingers work it, the page shows the gestures ([`gestures`]) and folds the keys away under
/// "With a keyboard" ([`keys`]): a tablet may have one, a phone has not.
pub fn controls(device: Device) -> Vec<(&'static str, &'static str)> {
    CONTROLS
        .iter()
        .map(|&(control, does)| match control {
            "drag the background, or middle-drag" if device.touch => ("drag the background", does),
            "mouse wheel / pinch" if device.touch => ("pinch", "zoom between the fingers"),
            "Click two shapes (capture lab)" if device.touch => {
                ("Tap two shapes (capture lab)", does)
            }
            "Ctrl+S" if device.browser => (control, "save: the shapes as a download"),
            _ => (control, does),
        })
        .collect()
}

/// The rows of [`controls`] worked by a pointer or a finger.
pub fn gestures(device: Device) -> Vec<(&'static str, &'static str)> {
    controls(device)
        .into_iter()
        .zip(CONTROLS)
        .filter(|(_, (control, _))| GESTURES.contains(control))
        .map(|(row, _)| row)
        .collect()
}

/// The rows of [`controls`] worked by keys.
pub fn keys(device: Device) -> Vec<(&'static str, &'static str)> {
    controls(device)
        .into_iter()
        .zip(CONTROLS)
        .filter(|(_, (control, _))| !GESTURES.contains(control))
        .map(|(row, _)| row)
        .collect()
}

/// The fold over the keys on Help's page where fingers work the window.
pub const WITH_A_KEYBOARD: &str = "With a keyboard (a tablet's)";

/// Bits as a person reads them: `all`, `none`, or hexadecimal (`0x6`).
pub(crate) fn bits(b: u64) -> String {
    match b {
        u64::MAX => "all".into(),
        0 => "none".into(),
        b if b == u64::from(u32::MAX) => "all 32".into(),
        b if b.count_ones() > 32 => format!("all but {:#x}", !b),
        b => format!("{b:#x}"),
    }
}

/// A pair asked about whose shapes are not both in the frame shown.
pub fn not_in_frame(frame: u64, names: (&str, &str)) -> String {
    format!(
        "Frame {frame} holds no claim about {} and {}: not both are in this frame.",
        names.0, names.1
    )
}

/// The second shape of a pair picked in a capture's frame.
pub fn picked_pair(a: &str, b: &str) -> String {
    format!("explaining {a} and {b}: their claim, or why the engine left them out")
}

/// A half-picked pair forgotten (a click on the background, Esc).
pub const PICK_CANCELLED: &str = "no shape picked: click two shapes to explain their pair";

/// The first shape of a pair picked in a capture's frame.
pub fn picked_first(name: &str) -> String {
    format!(
        "picked {name}: click a second shape to see the engine's claim about the pair, or why it left the pair out"
    )
}

/// What the capture lab says while no claim is explained.
pub const SELECT_A_CLAIM: &str = "Select a claim above, in the list of disagreeing claims below, or on the strip under the scene; or click two shapes in the scene to ask about any pair (its claim, or why the engine left it out).";

/// The status bar's live state of a followed capture: its file, the frames read so far, how
/// long since the last (seconds), and the frame a break holds.
pub fn live_state(file: &str, frames: usize, quiet: Option<f64>, held: Option<u64>) -> String {
    let mut said = format!(
        "live: {file}, {} frame{}",
        frames,
        if frames == 1 { "" } else { "s" }
    );
    match quiet {
        Some(q) if q >= 2.0 => said.push_str(&format!(", none for {} s", q.floor())),
        None => said.push_str(", waiting for the first frame"),
        _ => {}
    }
    if let Some(frame) = held {
        said.push_str(&format!("; paused at frame {frame}"));
    }
    said
}

/// What the capture lab says when it starts following `path`.
pub fn following(path: &std::path::Path, pause_at_first: bool) -> String {
    format!(
        "following {} as the game writes it: the newest frame is shown{}",
        path.display(),
        if pause_at_first {
            ", and the first disagreeing claim or event holds the frame"
        } else {
            ""
        }
    )
}

/// How many frames and claims a capture holds and how many agree:
/// `180 frames, 1040 claims: 230 agree, 810 differ`; `3 frames, no claim`.
pub fn capture_claim_counts(frames: u64, claims: u64, agreeing: u64) -> String {
    let frames = format!("{frames} frame{}", if frames == 1 { "" } else { "s" });
    match (claims, claims - agreeing) {
        (0, _) => format!("{frames}, no claim"),
        (n, 0) => format!(
            "{frames}, {n} claim{}: {agreeing} agree",
            if n == 1 { "" } else { "s" }
        ),
        (n, d) => format!(
            "{frames}, {n} claim{}: {agreeing} agree, {d} differ{}",
            if n == 1 { "" } else { "s" },
            if d == 1 { "s" } else { "" }
        ),
    }
}

/// A capture with no claim: nothing was judged, which is not agreement.
pub const NO_CLAIMS: &str = "no claim to judge: the engine reported no contact in any frame (the writer leaves out sleeping bodies' contacts; a game that passes no contacts to the writer gives none)";

/// `diagnose --follow` on a capture the game has not made yet.
pub fn waiting_for_capture(path: &std::path::Path, idle: Option<std::time::Duration>) -> String {
    format!(
        "collidoscope diagnose --follow: waiting for {} (no file there yet: the game has not started writing it){}",
        path.display(),
        match idle {
            Some(idle) => format!(
                "; giving up after {} s (--idle)",
                short_number(idle.as_secs_f64())
            ),
            None => "; Ctrl-C stops".into(),
        }
    )
}

/// `diagnose --listen`: what it listens for, said once on stderr.
pub fn listening_for_game(port: u16, idle: Option<std::time::Duration>) -> String {
    format!(
        "collidoscope diagnose --listen: waiting on 127.0.0.1:{port} for a game's capture (a game \
         in a browser page streams to ws://127.0.0.1:{port}; any other, plain TCP){}",
        match idle {
            Some(idle) => format!(
                "; giving up after {} s without one (--idle)",
                short_number(idle.as_secs_f64())
            ),
            None => "; Ctrl-C stops".into(),
        }
    )
}

/// `diagnose --listen`: a game connected; where what it sends is kept.
pub fn game_connected_kept(engine: &str, kept: &std::path::Path) -> String {
    format!(
        "collidoscope diagnose --listen: {engine} connected; its capture is kept as {}",
        kept.display()
    )
}

/// `diagnose --listen`: no game came.
pub fn no_game_came(port: u16, idle: Option<std::time::Duration>) -> String {
    match idle {
        Some(idle) => format!(
            "127.0.0.1:{port}: no game connected in {} s of waiting (--idle)",
            short_number(idle.as_secs_f64())
        ),
        None => format!("127.0.0.1:{port}: stopped before a game connected"),
    }
}

/// What the capture lab says when it listens for a game on `port`.
pub fn listening(port: u16) -> String {
    format!(
        "listening on 127.0.0.1:{port}: a game streams here with CaptureWriter::new(ToWindow::connect({port}), ...) (docs/format.md, \"Streaming to the window\")"
    )
}

/// What the capture lab says when a game running `engine` connects (`part` 1), or begins
/// capture `part` after falling behind.
pub fn game_connected(engine: &str, part: u64, pause_at_first: bool) -> String {
    if part > 1 {
        return format!(
            "the window fell behind and the game dropped frames: a capture holds every step, so its frames go on in capture {part} of this connection (shown now; the one before stays in the temporary folder)"
        );
    }
    format!(
        "a game connected ({engine}): its frames are shown live{}; Save received keeps them",
        if pause_at_first {
            ", held at the first disagreeing claim or event"
        } else {
            ""
        }
    )
}

/// What the capture lab says when a game connects while a break holds a frame.
pub fn game_waiting(engine: &str, part: u64) -> String {
    let what = if part > 1 {
        "the game's frames go on in another capture".to_string()
    } else {
        format!("a game connected ({engine})")
    };
    format!("{what} while a frame is held: Go live (L) shows it")
}

/// What the capture lab says on going live again: how many disagreeing claims and events came
/// while the frame was held (D and E step to them).
pub fn gone_live(skipped: usize, events: usize) -> String {
    if skipped == 0 && events == 0 {
        return "live: the newest frame is shown".into();
    }
    format!(
        "live: the newest frame is shown; while the frame was held, {skipped} disagreeing claim{} and {events} event{} came (D and E step to them)",
        if skipped == 1 { "" } else { "s" },
        if events == 1 { "" } else { "s" }
    )
}

/// What the capture lab says when the game's connection ends after `frames` frames, with the
/// refused line's message when it ended on one.
pub fn game_gone(frames: u64, problem: Option<&str>) -> String {
    let kept = format!("{frames} frame{} kept", if frames == 1 { "" } else { "s" });
    match problem {
        Some(p) => format!("the game's stream was refused and its connection closed ({kept}): {p}"),
        None => format!("the game disconnected ({kept}; Save received writes them to a file)"),
    }
}

/// The page's words when a bug stops the window in the browser.
pub fn window_stopped(panic: &str) -> String {
    format!(
        "collidoscope stopped: {panic}. This is a bug; reload the page to start again, and please report it with this message."
    )
}

/// In the browser, where a run is not saved as a capture.
pub const DESKTOP_RUN_CAPTURE: &str = "A run saved as a capture is written by the desktop app (cargo run --release) and the command line.";

/// A fixture saved as a download in the browser.
pub fn fixture_downloaded(name: &str, shapes: usize, pairs: usize) -> String {
    format!(
        "saved as a download, {name}: {shapes} shapes, {pairs} pinned pair{}",
        if pairs == 1 { "" } else { "s" }
    )
}

/// In the browser, the capture lab without a capture.
pub const DESKTOP_CAPTURES: &str = "No capture open. A capture is what your game's physics engine did, frame by frame: open one with File > Open (or drop it on the page), plain or gzip, and every contact it reported is judged here at the engine's precision. Following a capture as it is written, a game streaming live and Box2D recordings are the desktop app's (cargo run --release).";

/// What the window says of a pair when there is none to explain.
pub const NO_PAIR: &str = "No pair to explain: the scene has fewer than two shapes.";

/// An example a link names that the window does not carry.
pub fn unknown_example(name: &str, names: impl IntoIterator<Item = &'static str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    format!(
        "the link's `example` is `{name}`, which is not one of the built-in examples ({})",
        names.join(", ")
    )
}

/// A link's slide past the lesson's last.
pub fn no_such_slide(slide: usize, slides: usize) -> String {
    format!("the link asks for slide {slide}, and the lesson has {slides}; it opens at slide 1")
}

/// A link that could not be opened: what is wrong, and what is shown instead.
pub fn bad_link(problem: &str) -> String {
    let end = if problem.ends_with(['.', '?']) {
        ""
    } else {
        "."
    };
    format!("This link could not be opened as it is: {problem}{end}")
}

/// The page carried a lesson that could not be read.
pub fn page_lesson_unreadable(problem: &str) -> String {
    format!(
        "the lesson this page carries cannot be read ({problem}); export it again with collidoscope lesson export --interactive"
    )
}

/// Copy link's answer: the shapes, in `lab` (as a link names it), with the pair and view.
pub fn link_copied(shapes: usize, lab: &str, characters: usize) -> String {
    format!(
        "copied a link to these {shapes} shapes in the {lab} lab, with the pair and the view ({characters} characters): whoever opens it sees what you see"
    )
}

/// Copy link's answer while a lesson that can be linked is presented.
pub fn lesson_link_copied(title: &str, slide: usize, characters: usize) -> String {
    format!(
        "copied a link to slide {slide} of the lesson {title} ({characters} characters): whoever opens it sees this slide as it begins (its first step, the shapes where the lesson puts them)"
    )
}

/// Copy link's answer while a lesson read from a file is presented: what it copied instead.
pub fn file_lesson_link_copied(title: &str, shapes: usize, characters: usize) -> String {
    format!(
        "the lesson {title} is read from a file, which a link cannot carry (only a built-in lesson can be linked); copied a link to this slide's {shapes} shapes with its lab, pair and view instead ({characters} characters)"
    )
}

/// Copy link in the capture lab, which a link cannot carry.
pub const CAPTURE_NOT_LINKED: &str = "no link copied: the capture lab shows a capture, a file a link cannot carry; share the capture file itself, or Copy link in another lab for the document's shapes";

/// A link's scene, opened.
pub fn link_scene_opened(shapes: usize) -> String {
    format!("opened the {shapes} shapes the link carries (not saved yet)")
}

/// A save in the browser.
pub fn downloaded(name: &str) -> String {
    format!("saved as a download, {name}")
}

/// A file dropped in the browser that only the desktop app opens (Box2D recordings, levels):
/// `None` for what the browser opens (shape sets, lessons, runs, packet logs, captures).
pub fn not_in_browser(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let kind = if lower.ends_with(".b2rec") {
        "a Box2D recording (replayed by Box2D itself)"
    } else if [".tmx", ".tmj", ".tscn"].iter().any(|e| lower.ends_with(e)) {
        "a level (its tilesets are files beside it)"
    } else {
        return None;
    };
    Some(format!(
        "{name}: {kind} opens in the desktop app (cargo run --release); the browser opens shape sets, lessons, runs, packet logs and captures"
    ))
}

/// How two runs are compared: "bit for bit", or "beyond X".
pub fn diff_how(tolerance: Option<f64>) -> String {
    match tolerance {
        None => "bit for bit".to_string(),
        Some(t) => format!("beyond {}", short_number(t)),
    }
}

/// How two runs' frames are aligned.
pub fn diff_alignment(offset: i64) -> String {
    match offset {
        0 => "frames aligned by number".to_string(),
        k => format!("frame f of A with frame f{k:+} of B"),
    }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn fingers_in_the_browser_are_told_no_desktop_words() {
        use super::{Device, HowTo};
        let hints: [HowTo; 6] = [
            super::PAIR_HINT,
            super::CASTS_HINT,
            super::MOTION_HINT,
            super::LATENCY_HINT,
            super::CAPTURE_HINT,
            super::PRESENTER_HINT,
        ];
        let phone = Device {
            browser: true,
            touch: true,
        };
        let mut said: Vec<String> = hints.iter().map(|h| h.on(phone).to_string()).collect();
        said.extend(super::getting_started(phone).iter().map(|p| p.to_string()));
        said.push(super::step_invitation(7));
        said.push(super::CASTS_GESTURES.on(phone).to_string());
        said.extend(
            super::help_names(phone)
                .iter()
                .flat_map(|(menu, tab)| [menu.to_string(), tab.to_string()]),
        );
        said.push(super::help_button(phone).to_string());
        said.extend(super::welcome(phone).iter().map(|l| l.to_string()));
        said.push(super::unknown_example("nope", ["default-scene"]));
        // What the keys and the mouse do: a phone has neither (Help's Keys page keeps the
        // keys, for a tablet's keyboard; its mouse rows are said for fingers).
        let desktop = [
            "wheel",
            "arrow key",
            "middle",
            "right drag",
            "click",
            "Space",
            "Page Down",
            "F1",
            "F11",
            "Esc",
            "Shift",
            "the window's",
        ];
        for sentence in &said {
            for word in desktop {
                assert!(
                    !sentence.contains(word),
                    "{word:?} told to a finger: {sentence}"
                );
            }
        }
        let controls = super::controls(phone);
        for (control, does) in &controls {
            for word in ["wheel", "middle", "mouse", "Click", "pointer"] {
                assert!(
                    !control.contains(word) && !does.contains(word),
                    "{control}: {does}"
                );
            }
        }
        assert!(controls.contains(&("pinch", "zoom between the fingers")));
        // The same words with a mouse, on the desktop, as before: the wheel and the keys.
        let desktop_app = Device::default();
        assert!(super::PAIR_HINT.on(desktop_app).contains("wheel to zoom"));
        assert!(
            super::PRESENTER_HINT
                .on(desktop_app)
                .starts_with("Right, Page Down")
        );
        assert_eq!(super::controls(desktop_app), super::CONTROLS.to_vec());
        // A save in the browser is a download.
        let page = Device {
            browser: true,
            touch: false,
        };
        assert!(super::controls(page).contains(&("Ctrl+S", "save: the shapes as a download")));
    }

    #[test]
    fn a_latency_collision_is_said_one_way() {
        use super::{latency_collision, latency_retraction};
        assert_eq!(
            latency_collision("runner", "bullet", 225.0, None, 322.125),
            "runner / bullet at 225 ms: found at 322.1 ms, 97.1 ms late"
        );
        assert_eq!(
            latency_collision("p1", "p3", 16.5858, Some([0.0, 25.0]), 130.0),
            "p1 / p3 first contact at 16.6 ms (between the buckets at 0 and 25 ms): found at 130 ms, 113.4 ms late"
        );
        assert_eq!(
            latency_retraction("post", "runner", 50.0, 200.0),
            "retracted post / runner at 50 ms: at 200 ms a later packet moved them apart"
        );
    }

    #[test]
    fn a_number_that_is_not_zero_never_reads_as_zero() {
        assert_eq!(number(2.8e-17), "2.8e-17");
        assert_eq!(number(-3e-9), "-3.0e-9");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(1.0 / 3.0), "0.333333");
    }

    #[test]
    fn long_names_are_cut_where_they_are_the_same_not_where_they_differ() {
        use super::NameCutter;
        let names = [
            "TileMap/Floor[9,14]/physics_layer_0/polygon_0",
            "TileMap/Floor[10,14]/physics_layer_0/polygon_0",
            "TileMap/Wall[0,3]/physics_layer_0/polygon_1",
        ];
        let cutter = NameCutter::new(names);
        let within = |n: usize| move |s: &str| s.chars().count() <= n;
        assert_eq!(cutter.cut(names[1], within(60)), names[1]);
        assert_eq!(
            cutter.cut(names[1], within(36)),
            "TileMap/Floor[10,14]/…/polygon_0"
        );
        assert_eq!(
            cutter.cut(names[1], within(26)),
            "…/Floor[10,14]/…/polygon_0"
        );
        // One name that shares nothing with the others does not stop the others' cut.
        let level = NameCutter::new(names.into_iter().chain(["Player/CollisionShape2D"]));
        assert_eq!(level.cut(names[1], within(20)), "…/Floor[10,14]/…");
        assert_eq!(
            level.cut("Player/CollisionShape2D", within(12)),
            "Play…Shape2D"
        );
        // A Tiled level's cells: the layer's name before the cell is what they share, so it
        // goes before the cell's number or the piece does ("Tile …0,10]/…" told [10,10] from
        // nothing).
        let tiles = [
            "Tile Layer 1[10,10]/rectangle 1",
            "Tile Layer 1[10,10]/rectangle 2",
            "Tile Layer 1[20,10]/rectangle 1",
            "Tile Layer 1[3,10]/rectangle 1",
            "Crate/rectangle 1",
        ];
        let level = NameCutter::new(tiles);
        assert_eq!(level.cut(tiles[1], within(22)), "…[10,10]/rectangle 2");
        assert_eq!(level.cut(tiles[2], within(12)), "…[20,10]/…");
        assert_eq!(level.cut(tiles[0], within(40)), tiles[0]);
        // Nothing shared: cut in the middle, keeping more of the end.
        let plain = NameCutter::new(["a long name of a crate", "another"]);
        assert_eq!(
            plain.cut("a long name of a crate", within(12)),
            "a lo…a crate"
        );
    }

    #[test]
    fn three_digits_are_plain_where_plain_reads_well() {
        use super::{f32_error, three_digits};
        assert_eq!(three_digits(1.894), "1.89");
        assert_eq!(three_digits(412.3), "412");
        assert_eq!(three_digits(0.01234), "0.0123");
        assert_eq!(three_digits(2.2204e-5), "2.22e-5");
        assert_eq!(three_digits(9.5367431640625e-6), "9.54e-6");
        assert_eq!(three_digits(2.2e-5), "2.2e-5");
        assert_eq!(three_digits(1.5e7), "1.5e7");
        assert_eq!(f32_error(1.894, 6.31e-6), "off by 1.89 (tau 6.31e-6)");
        assert_eq!(f32_error(0.0, 6.31e-6), "exactly (tau 6.31e-6)");
    }
}
