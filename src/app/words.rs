//! The window's words: its hints and help, the presenter's places, the labs' lists and
//! messages, what a link or a download says. The library's own sentences (a pair's report,
//! numbers, events, judgements) stay in `crate::text` and beside what they describe; these are
//! the window's alone, so the library a game links carries none of them.

use crate::geometry::Interval;
use crate::query::{AxisSource, Side, Toi, ToiMethod, ToiState};
use crate::text::*;

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

/// An event of the motion lab's list, on hover.
pub const EVENT_CLICK: &str = "show this step, its pair explained and the event drawn over it";

/// What a step of the motion lab does.
pub const MOTION_STEP: &str = "Each step moves kinematic and dynamic bodies by their velocities, then measures every contact with a dynamic body at once and resolves them together: each dynamic body moves out along the resolver's MTV (its pushes taken deepest first, none counted twice) and loses its velocity into the other shape. The order of the shapes in the file never matters.";

/// The motion lab's gravity field, explained.
pub const GRAVITY_HELP: &str = "the file's gravity (units per second squared, y up): every dynamic body's velocity gains g · dt each step, before it moves; saved with the shapes, undone with Ctrl+Z";

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

/// A Box2D recording being replayed in the window, where its capture goes: a new file beside
/// the recording, said so before it is written.
pub fn replaying(recording: &std::path::Path, capture: &std::path::Path) -> String {
    format!(
        "replaying {} with Box2D into a capture beside it, {} (opened when written)",
        recording.display(),
        capture.display()
    )
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
    controls_by_gesture(device, true)
}

/// The rows of [`controls`] worked by keys.
pub fn keys(device: Device) -> Vec<(&'static str, &'static str)> {
    controls_by_gesture(device, false)
}

/// The rows of [`controls`] that are gestures (`true`) or keys (`false`).
fn controls_by_gesture(device: Device, gesture: bool) -> Vec<(&'static str, &'static str)> {
    controls(device)
        .into_iter()
        .zip(CONTROLS)
        .filter(|(_, (control, _))| GESTURES.contains(control) == gesture)
        .map(|(row, _)| row)
        .collect()
}

/// The fold over the keys on Help's page where fingers work the window.
pub const WITH_A_KEYBOARD: &str = "With a keyboard (a tablet's)";

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

#[cfg(test)]
mod tests {
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
}
