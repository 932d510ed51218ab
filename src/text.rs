//! Reports in words: how axes, features and verdicts are named and told, the same in the
//! command line and in the window's step mode.

use crate::geometry::{DVec2, Feature, Interval, ShapeKind};
use crate::query::{
    AxisRole, AxisSource, ChainRule, Mistake, NaiveMtv, PairReport, PairSummary, PieceResult,
    SatReport, Side, Verdict,
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

/// `(x, y)` with [`short_number`]s, for a narrow table cell.
pub fn short_point(p: DVec2) -> String {
    format!("({}, {})", short_number(p.x), short_number(p.y))
}

/// `(x, y)`.
pub fn point(p: DVec2) -> String {
    format!("({}, {})", number(p.x), number(p.y))
}

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

/// A packet log's collisions of one pair at consecutive buckets, found or taken back by one
/// packet, in a plot's mark: `collision: post / runner at 40 to 60 ms (5 buckets): found at 140
/// ms, 100 ms late` (one bucket: as [`latency_collision`] and [`latency_retraction`] say it).
/// `at` is when the packet arrived; `found` whether it found them (else took them back).
pub fn latency_run(
    a: &str,
    b: &str,
    (t0, t1): (f64, f64),
    buckets: usize,
    at: f64,
    found: bool,
) -> String {
    match (found, buckets) {
        (true, 1) => format!("collision: {}", latency_collision(a, b, t0, None, at)),
        (false, 1) => latency_retraction(a, b, t0, at),
        (true, n) => format!(
            "collision: {a} / {b} at {} to {} ms ({n} buckets): found at {} ms, {} ms late",
            ms(t0),
            ms(t1),
            ms(at),
            ms(at - t0)
        ),
        (false, n) => format!(
            "retracted {a} / {b} at {} to {} ms ({n} buckets): at {} ms a later packet moved them apart",
            ms(t0),
            ms(t1),
            ms(at)
        ),
    }
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

pub(crate) fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
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
