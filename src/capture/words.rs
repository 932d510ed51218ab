//! A capture's words: its header, a claim that differs and why, an event with its fix, a run
//! of frames, two runs compared, why an engine left a pair out, a followed capture that began
//! again. Beside what they describe; the numbers are said as everywhere (`crate::text`).

#![allow(clippy::wildcard_imports)]

use crate::geometry::DVec2;
use crate::motion::event_in_short;
use crate::text::*;

/// What a followed capture that began again is said with (`diagnose --follow` and the
/// capture lab): how (`how`: the file written again from its start, or another file at its
/// path), after which frame of the earlier run (`None`: before its first), what the earlier
/// run came to when it is not said beside (`earlier`: frames, claims, agreeing), and the new
/// run's header once it is read.
pub fn capture_began_again(
    path: &std::path::Path,
    how: crate::capture::live::follow::FollowEnd,
    after_frame: Option<u64>,
    earlier: Option<(u64, u64, u64)>,
    header: Option<&crate::capture::Header>,
) -> String {
    use crate::capture::live::follow::FollowEnd;
    let how = match how {
        FollowEnd::Replaced => "a new file at its path",
        _ => "written again from its start",
    };
    let after = match after_frame {
        Some(frame) => format!("after frame {frame} of the earlier run"),
        None => "before the earlier run's first frame".into(),
    };
    let earlier = earlier
        .map(|(frames, claims, agreeing)| {
            format!(" ({})", capture_claim_counts(frames, claims, agreeing))
        })
        .unwrap_or_default();
    let new = match header {
        Some(h) => format!(
            "the new run ({}) is judged from its first frame",
            capture_header_in_brief(h)
        ),
        None => "the new run's header is not written yet: it is judged once it is".into(),
    };
    format!(
        "{}: the capture began again ({how}) {after}{earlier}; {new}",
        path.display()
    )
}

/// What a live capture lab says when a break holds the frame of an event.
pub fn capture_break_event(e: &crate::capture::CaptureEvent) -> String {
    format!(
        "paused at the first event: {}; the game runs on: Go live (L) follows it again",
        capture_event(e, None)
    )
}

/// One disagreeing claim of a capture, for a list: its frame, its pair, what reproduces it.
#[cfg(feature = "parallel")]
pub fn capture_divergence(frame: u64, d: &crate::capture::ListedClaim) -> String {
    if let Some(m) = &d.malformed {
        return format!("frame {frame}: malformed: {}", malformed(m));
    }
    let piece = d.piece.map(|k| format!(" piece {k}")).unwrap_or_default();
    let causes: Vec<&str> = d.causes.iter().map(|c| c.name()).collect();
    let causes = if causes.is_empty() {
        "no known mistake".to_string()
    } else {
        causes.join(", ")
    };
    format!(
        "frame {frame}: {} / {}{piece}: {causes}",
        d.names.0, d.names.1
    )
}

/// A capture's event in words, with the frame's time: `frame 15, t = 0.25 s: crate caught on
/// the seam between tile1 and tile2: ...`. `frames` names a run of frames (`frames 15-19`)
/// when the same event of the same pair repeats.
pub fn capture_event(e: &crate::capture::CaptureEvent, last_frame: Option<u64>) -> String {
    use crate::event::{Through, What};
    let when = match last_frame {
        Some(last) if last > e.frame() => format!("frames {}-{last}", e.frame()),
        _ => format!("frame {}", e.frame()),
    };
    let at = format!("{when}, t = {} s", short_number(e.time()));
    let other = |x: u64| if x == e.a { e.name(e.b) } else { e.name(e.a) };
    match &e.what {
        What::Seam(seam) => {
            let (x, t, u) = (
                e.name(seam.shape),
                e.name(seam.face_of),
                e.name(seam.covered_by),
            );
            let face = face_word(seam.normal);
            // Speeds to three decimals: an f32 engine's 6.836502 reads 6.837.
            let speed = short_number;
            let per_second = if e.units.is_empty() {
                String::new()
            } else {
                format!(" {}/s", e.units)
            };
            // What the solver did to the pair over the step, where the capture says it.
            let stopped = seam.impulse.map_or(String::new(), |j| {
                format!(", under an impulse of {}", impulse_words(j, &e.units))
            });
            if let Some(c) = seam.corner {
                let leans = seam.normal.angle_to(c.surface_normal).abs();
                return format!(
                    "{at}: {x} {} on the corner {} between {t} and {u}: the contact's normal {} leans {} from the floor's {}, which {t} and {u} make flat together; {x}'s speed into the corner went from {} to {}{per_second}{stopped}.",
                    if seam.caught { "caught" } else { "bumped" },
                    point(c.corner),
                    point(seam.normal),
                    angle(leans),
                    point(c.surface_normal),
                    speed(seam.speed_before),
                    speed(seam.speed_after)
                );
            }
            if seam.caught {
                format!(
                    "{at}: {x} caught on the seam between {u} and {t}: the contact's normal {} is {t}'s {face}, which {u} covers; {x}'s speed along the floor went from {} to {}{per_second}{stopped}.",
                    point(seam.normal),
                    speed(seam.speed_before),
                    speed(seam.speed_after)
                )
            } else {
                format!(
                    "{at}: {x} touched the seam between {u} and {t}: the contact's normal {} is {t}'s {face}, which {u} covers (its speed along the floor {} then {}{per_second}{stopped}, not caught).",
                    point(seam.normal),
                    speed(seam.speed_before),
                    speed(seam.speed_after)
                )
            }
        }
        What::Tunnelled { shape, through, .. } => {
            let (t, depth) = match *through {
                Through::Step { t, depth } => (t, depth),
                Through::Substep { enter, dt, .. } => (enter / dt, f64::NAN),
            };
            format!(
                "{at}: {} tunnelled through {} during the step (touching at {} of it, {} deep at most): no contact was claimed at frame {}.",
                e.name(*shape),
                other(*shape),
                number(t),
                number(depth),
                e.frame()
            )
        }
        What::PushedThrough {
            shape, from, to, ..
        } => format!(
            "{at}: {} was moved out through the far side of {}: its centre went from {} across {} to {}.",
            e.name(*shape),
            other(*shape),
            point(*from),
            other(*shape),
            point(*to)
        ),
        What::NormalFlip {
            normal_before,
            normal,
        } => format!(
            "{at}: the contact of {} and {} turned its normal back, from {} to {} (from {} toward {}).",
            e.name(e.a),
            e.name(e.b),
            point(*normal_before),
            point(*normal),
            e.name(e.a),
            e.name(e.b)
        ),
        What::Stale { .. } => format!(
            "{at}: the contact of {} and {} is stale: {}, not recomputed since.",
            e.name(e.a),
            e.name(e.b),
            stale_contact(e)
        ),
        _ => format!("{at}: {}", event_in_short(e.kind())),
    }
}

/// An impulse in its unit: `0.042 N s` in metres (kg m/s), `1.3 kg px/s` in another unit of
/// length, the number alone when the unit is not known.
pub fn impulse_words(j: f64, units: &str) -> String {
    match units {
        "m" => format!("{} N s", short_number(j)),
        "" => short_number(j),
        u => format!("{} kg {u}/s", short_number(j)),
    }
}

/// How many events of each capture kind, in words: `3 seam (2 caught), 1 tunnelled`; kinds
/// with none left out.
pub fn capture_event_counts(events: &[crate::capture::CaptureEvent]) -> String {
    use crate::motion::EventKind;
    crate::capture::EVENT_KINDS
        .iter()
        .filter_map(|k| {
            let of: Vec<_> = events.iter().filter(|e| e.kind() == *k).collect();
            if of.is_empty() {
                return None;
            }
            let caught = of
                .iter()
                .filter(|e| e.seam().is_some_and(|s| s.caught))
                .count();
            Some(match k {
                EventKind::Seam => format!("{} seam ({caught} caught)", of.len()),
                _ => format!("{} {}", of.len(), k.name()),
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A capture's header in one line: the engine and its settings, the precision, the units and
/// which way y points.
pub fn capture_header(header: &crate::capture::Header) -> String {
    let engine = &header.engine;
    let mut line = format!("{} {}", engine.name, engine.version);
    if !engine.settings.is_empty() {
        let settings: Vec<String> = engine
            .settings
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => format!("{k} {s}"),
                serde_json::Value::Number(n) => match n.as_f64() {
                    Some(x) if !n.is_u64() && !n.is_i64() => format!("{k} {}", number(x)),
                    _ => format!("{k} {n}"),
                },
                other => format!("{k} {}", crate::files::spelled(other)),
            })
            .collect();
        line.push_str(&format!(" ({})", settings.join(", ")));
    }
    let precision = match header.precision {
        crate::scene::Precision::F32 => {
            "f32: a claim agrees within tau = 2^-20 x M, M the pair's largest coordinate"
        }
        crate::scene::Precision::F64 => "f64: a claim agrees within 1e-6",
    };
    let y = if header.y_up { "y up" } else { "y down" };
    format!("{line}; {precision}; lengths in {}, {y}", header.units)
}

/// A capture's header in a few words, where a line says it in passing: `box2d 3.2.0, f32,
/// units m` (`, y down` when it is); [`capture_header`] says it whole.
pub fn capture_header_in_brief(h: &crate::capture::Header) -> String {
    format!(
        "{} {}, {}, units {}{}",
        h.engine.name,
        h.engine.version,
        h.precision.name(),
        h.units,
        if h.y_up { "" } else { ", y down" }
    )
}

/// A claim that differs between two runs at a frame.
pub fn claim_difference(c: &crate::capture::ClaimDifference) -> String {
    use crate::capture::ClaimChange;
    let pair = format!("ids {} and {}", c.a, c.b);
    let normal = |n: Option<DVec2>| n.map_or("none".into(), short_point);
    let depth = |x: Option<f64>| x.map_or("none".into(), short_number);
    match c.change {
        ClaimChange::OnlyInA => format!("frame {}: only A claims {pair}", c.frame),
        ClaimChange::OnlyInB => format!("frame {}: only B claims {pair}", c.frame),
        ClaimChange::Verdict => format!(
            "frame {}: A and B disagree whether {pair} intersect (normal in A {}, in B {})",
            c.frame,
            normal(c.normal_a),
            normal(c.normal_b)
        ),
        ClaimChange::Normal => format!(
            "frame {}: {pair}: normal {} in A, {} in B",
            c.frame,
            normal(c.normal_a),
            normal(c.normal_b)
        ),
        ClaimChange::Depth => format!(
            "frame {}: {pair}: depth {} in A, {} in B",
            c.frame,
            depth(c.depth_a),
            depth(c.depth_b)
        ),
    }
}

/// One pair's claims that differ over a capture, in a line: the pair, how many, the frames
/// (their runs, the first few) and times, and what reproduces them, a stale claim said as
/// stale with its ages as the events say it: `ground (id 0) / box 2 (id 4): 30 claims, frames
/// 1-30 (t = 0.017 to 0.5 s): stale, 1 to 29 frames old`.
pub fn differing_pair(p: &crate::capture::DifferingPair) -> String {
    use crate::capture::labelled_name;
    let runs: Vec<String> = p
        .runs
        .iter()
        .map(|&(x, y)| match x == y {
            true => x.to_string(),
            false => format!("{x}-{y}"),
        })
        .collect();
    let more = p.run_count.saturating_sub(p.runs.len() as u64);
    let frames = format!(
        "frame{} {}{}",
        if p.first.0 == p.last.0 { "" } else { "s" },
        runs.join(", "),
        match more {
            0 => String::new(),
            1 => " and 1 more run".into(),
            n => format!(" and {n} more runs"),
        }
    );
    let times = if p.first.0 == p.last.0 {
        format!("t = {} s", short_number(p.first.1))
    } else {
        format!(
            "t = {} to {} s",
            short_number(p.first.1),
            short_number(p.last.1)
        )
    };
    let ages = |(x, y): (u64, u64)| match (x, y) {
        (1, 1) => "1 frame old".to_string(),
        (x, y) if x == y => format!("{x} frames old"),
        (x, y) => format!("{x} to {y} frames old"),
    };
    let mut what = Vec::new();
    let whole = |n: u64| n == p.claims;
    if p.stale > 0 {
        let age = p.ages.map(ages).unwrap_or_default();
        what.push(match whole(p.stale) {
            true => format!("stale, {age}"),
            false => format!("{} stale ({age})", p.stale),
        });
    }
    for (causes, n) in &p.causes {
        let names = match causes.is_empty() {
            true => "no known mistake".to_string(),
            false => causes
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", "),
        };
        what.push(match whole(*n) {
            true => names,
            false => format!("{n} {names}"),
        });
    }
    let piece = p.piece.map(|k| format!(" piece {k}")).unwrap_or_default();
    format!(
        "{} / {}{piece}: {} claim{}, {frames} ({times}): {}",
        labelled_name(p.a, p.names.0.as_deref()),
        labelled_name(p.b, p.names.1.as_deref()),
        p.claims,
        if p.claims == 1 { "" } else { "s" },
        what.join("; ")
    )
}

/// A collision filter in a line: `category 0x2, mask 0x5, group -1`.
pub fn filter(f: &crate::capture::Filter) -> String {
    let mut text = format!("category {}, mask {}", bits(f.category), bits(f.mask));
    if f.group != 0 {
        text += &format!(", group {}", f.group);
    }
    if f.either {
        text += ", either way (Rapier's test mode Or)";
    }
    text
}

/// What differs between A's frame `a` and B's frame `b` shown side by side: how many shapes
/// and claims, the largest difference, or that they are the same.
#[cfg(feature = "parallel")]
pub fn frames_apart(a: u64, b: u64, here: &crate::capture::FrameComparison) -> String {
    let frames = if a == b {
        format!("At frame {a}")
    } else {
        format!("At A's frame {a} (B's {b})")
    };
    if here.shapes.is_empty() && here.claims.is_empty() {
        return format!("{frames}: the same in both runs");
    }
    let count = |n: usize, what: &str| {
        format!(
            "{n} {what}{} differ{}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" }
        )
    };
    let mut parts = Vec::new();
    if !here.shapes.is_empty() {
        let only = here
            .shapes
            .iter()
            .filter(|s| !s.difference.is_finite())
            .count();
        let mut how = Vec::new();
        if here.largest > 0.0 {
            how.push(format!(
                "positions up to {} apart",
                short_number(here.largest)
            ));
        }
        if only > 0 {
            how.push(format!("{only} in one run only"));
        }
        let how = if how.is_empty() {
            String::new()
        } else {
            format!(" ({})", how.join("; "))
        };
        parts.push(count(here.shapes.len(), "shape") + &how);
    }
    if !here.claims.is_empty() {
        parts.push(count(here.claims.len(), "claim"));
    }
    format!("{frames}: {}", parts.join(", "))
}

/// Why frame `frame` holds no claim about `names` (A, B): the stage of the engine's pipeline
/// that left the pair out, or what may have when none did; then the pair's filters, when
/// the capture gives them.
pub fn left_out(
    left: &crate::capture::LeftOut,
    names: (&str, &str),
    pairings: (&crate::capture::Pairing, &crate::capture::Pairing),
    frame: u64,
    units: &str,
) -> Vec<String> {
    use crate::capture::{FilterVerdict, LeftOut};
    let (a, b) = names;
    let head = format!("Frame {frame} holds no claim about {a} and {b}");
    let mut lines = vec![match left {
        LeftOut::SameBody(body) => format!(
            "{head}: both are on one rigid body (body {body}), and an engine never pairs the shapes of one body."
        ),
        LeftOut::NeitherDynamic(x, y) => format!(
            "{head}: neither is dynamic ({} and {}). Engines pair a dynamic body with anything and never two static ones; Box2D, Rapier and Avian by default also skip kinematic with static or kinematic.",
            x.name(),
            y.name()
        ),
        LeftOut::Filtered { verdict, .. } => format!(
            "{head}: left out by their collision filters, before any geometry: {}.",
            match verdict {
                FilterVerdict::GroupNever(g) => format!(
                    "they share the negative group {g}, which never collides, whatever the masks say"
                ),
                FilterVerdict::MaskOfA => format!("{a}'s mask leaves out {b}'s category"),
                FilterVerdict::MaskOfB => format!("{b}'s mask leaves out {a}'s category"),
                FilterVerdict::Neither => {
                    "neither one's mask takes the other's category".to_string()
                }
                FilterVerdict::Passes | FilterVerdict::GroupAlways(_) => "they pass".to_string(),
            }
        ),
        LeftOut::BoxesApart { gap, margin } => format!(
            "{head}: their bounding boxes are {} {units} apart, more than {}: the broad phase leaves them out (or, where it fattens boxes by more than that, the narrow phase: no point so far apart).",
            number(*gap),
            margin_words(*margin, units)
        ),
        LeftOut::BeyondMargin { distance, margin } => format!(
            "{head}: their boxes are within reach, but the shapes are {} {units} apart, more than {}: the narrow phase gives no contact point.",
            number(*distance),
            margin_words(*margin, units)
        ),
        LeftOut::NotLeftOut {
            distance,
            intersecting,
            margin,
            at_rest,
            ..
        } => {
            let place = if *intersecting {
                "they overlap".to_string()
            } else if *distance == 0.0 {
                "they touch".to_string()
            } else {
                format!(
                    "they are {} {units} apart, within {}",
                    number(*distance),
                    margin_words(*margin, units)
                )
            };
            let asleep = if *at_rest {
                " Both are at rest: if the engine had put them to sleep, the capture leaves their contact out (it was not recomputed)."
            } else {
                ""
            };
            format!(
                "{head}, and no stage the capture knows leaves them out: {place}, so the engine should have reported a contact.{asleep} What the capture does not record may: a sensor, a joint with collision off, a custom filter or hook. Else the engine missed it: pin this frame with Export fixture."
            )
        }
    }];
    let (fa, fb) = (pairings.0.filter, pairings.1.filter);
    match (fa, fb) {
        (Some(fa), Some(fb)) => lines.push(format!(
            "Filters: {a}: {}; {b}: {}.",
            filter(&fa),
            filter(&fb)
        )),
        (None, None) => lines.push(
            "The capture gives no collision filters (its engine adapter does not read them, or the game wrote none): every pair is taken as allowed.".into(),
        ),
        _ => lines.push(format!(
            "Only {} has a collision filter in the capture: the filter stage is not judged.",
            if fa.is_some() { a } else { b }
        )),
    }
    lines
}

/// What an engine gave that its capture holds as malformed, in words: `shape 7 ("ball"):
/// "position" must be finite numbers`, `the claim of ids 1 and 7: "normal" must be a unit
/// vector ...`.
pub fn malformed(m: &crate::capture::Malformed) -> String {
    use crate::capture::MalformedWhat;
    let id = |id: Option<u64>| id.map_or("?".to_string(), |id| id.to_string());
    match m.what {
        MalformedWhat::Shape { id: shape } => {
            let name = m.value.get("name").and_then(serde_json::Value::as_str);
            let name = name.map(|n| format!(" ({n:?})")).unwrap_or_default();
            format!("shape {}{name}: {}", id(shape), m.problem)
        }
        MalformedWhat::Claim { a, b } => {
            format!("the claim of ids {} and {}: {}", id(a), id(b), m.problem)
        }
    }
}

/// How a capture's malformed entries are counted, with the first: `2 malformed in 2 frames
/// (what the engine gave that a capture cannot hold), the first at frame 0, t = 0 s: shape 7
/// ("ball"): "position" must be finite numbers`.
pub fn malformed_counts(
    count: u64,
    frames: u64,
    (frame, time, first): (u64, f64, &crate::capture::Malformed),
) -> String {
    format!(
        "{count} malformed in {frames} frame{} (what the engine gave that a capture cannot hold), the first at frame {frame}, t = {} s: {}",
        plural(frames),
        short_number(time),
        malformed(first)
    )
}

/// The margin as a sentence's clause: `the engine's speculative margin 0.02 m`.
fn margin_words(margin: crate::capture::Margin, units: &str) -> String {
    match margin {
        crate::capture::Margin::Given(m) => {
            format!("the engine's speculative margin {} {units}", number(m))
        }
        crate::capture::Margin::Unknown => {
            "the engine's speculative margin (the capture's header does not give it: 0 is taken)"
                .into()
        }
    }
}

/// `diagnose --follow` gave up waiting for a capture that never came.
pub fn no_capture_came(
    path: &std::path::Path,
    why: crate::capture::live::follow::FollowEnd,
    idle: Option<std::time::Duration>,
) -> String {
    use crate::capture::live::follow::FollowEnd;
    match (why, idle) {
        (FollowEnd::Idle, Some(idle)) => format!(
            "{}: no file came in {} s of waiting (--idle)",
            path.display(),
            short_number(idle.as_secs_f64())
        ),
        _ => format!(
            "{}: no file came before the wait was stopped",
            path.display()
        ),
    }
}

/// Why no frame of two runs was compared, and what would help: each run's frames, and the
/// offset that puts B's first frame beside A's (`--offset K` on the command line, `cli`;
/// the window's offset otherwise). Never the offset in use: with it no frame met.
pub fn no_common_frame(d: &crate::capture::RunDiff, cli: bool) -> String {
    let range = |r: (u64, u64)| match r {
        (x, y) if x == y => format!("frame {x}"),
        (x, y) => format!("frames {x}-{y}"),
    };
    let (a, b) = match (d.frames_a, d.frames_b) {
        (None, None) => {
            return "no frame is in both runs: neither holds a frame (only a header)".into();
        }
        (None, Some(_)) => {
            return "no frame is in both runs: A holds no frame (only its header)".into();
        }
        (Some(_), None) => {
            return "no frame is in both runs: B holds no frame (only its header)".into();
        }
        (Some(a), Some(b)) => (a, b),
    };
    let alignment = match (d.offset, cli) {
        (0, _) => "aligned by number".to_string(),
        (k, true) => format!("with --offset {k}"),
        (k, false) => format!("with an offset of {k}"),
    };
    let mut said = format!(
        "no frame is in both runs ({alignment}): A holds {}, B holds {}",
        range(a),
        range(b)
    );
    // The offset that puts B's first frame beside A's first: never the one in use, which
    // met no frame.
    if let Ok(k) = i64::try_from(i128::from(b.0) - i128::from(a.0)) {
        let same_length = b.1 - b.0 == a.1 - a.0;
        let with = if cli {
            format!("try --offset {k}")
        } else {
            format!("try an offset of {k}")
        };
        said.push_str(&format!(
            "; {with}, which puts B's frame {} beside A's frame {}{}",
            b.0,
            a.0,
            if same_length {
                " (as many frames, numbered from elsewhere)"
            } else {
                ""
            }
        ));
    }
    said
}

/// What a file given where a capture is needed is instead, the file named:
/// `level.json is a shape set, not a capture`, `run.jsonl is empty (no header, no frame), not a
/// capture`, `notes.txt is not a capture: line 1, column 2: expected ident`.
pub fn not_a_capture(path: &std::path::Path, what: &crate::capture::NotACapture) -> String {
    use crate::capture::NotACapture;
    let file = path.display();
    match what {
        NotACapture::Missing => format!("{file} does not exist (no capture there)"),
        NotACapture::Directory => format!("{file} is a directory, not a capture"),
        NotACapture::Empty => format!("{file} is empty (no header, no frame), not a capture"),
        NotACapture::Format(f) if f == "collidoscope-shapes" => {
            format!("{file} is a shape set, not a capture")
        }
        NotACapture::Format(f) => format!("{file} is a \"{f}\" file, not a capture"),
        NotACapture::Refused(problem) => format!(
            "{file} is not a capture: {problem} (a capture's line 1 is its header, {{\"format\": \"collidoscope-capture\", ...}})"
        ),
    }
}

/// The offset that would line B's frames up with A's, when both runs hold as many frames
/// numbered from other starts and another offset is used: a server counting its ticks from
/// elsewhere.
pub fn offset_hint(d: &crate::capture::RunDiff) -> Option<i64> {
    let ((a0, a1), (b0, b1)) = (d.frames_a?, d.frames_b?);
    let k = i64::try_from(i128::from(b0) - i128::from(a0)).ok()?;
    let same_length = b1.checked_sub(b0)? == a1.checked_sub(a0)?;
    (same_length && k != d.offset).then_some(k)
}

/// Two runs compared (`collidoscope diff`): the lines of its text report.
pub fn run_diff(d: &crate::capture::RunDiff) -> Vec<String> {
    let mut lines = Vec::new();
    let range =
        |r: Option<(u64, u64)>| r.map_or("no frames".into(), |(x, y)| format!("frames {x}-{y}"));
    lines.push(format!("A: {} ({})", d.a, range(d.frames_a)));
    lines.push(format!("B: {} ({})", d.b, range(d.frames_b)));
    lines.push(format!(
        "{} frames compared ({}; poses, velocities and presence {})",
        d.frames_compared,
        diff_alignment(d.offset),
        diff_how(d.tolerance)
    ));
    if d.frames_compared == 0 {
        lines.push(capitalised(&no_common_frame(d, true)));
        return lines;
    }
    if let Some(k) = offset_hint(d) {
        lines.push(format!(
            "B's frames are A's {k:+} (as many, numbered from elsewhere): try --offset {k}"
        ));
    }
    let Some(first) = &d.first_divergence else {
        match &d.first_claim_difference {
            Some(c) => {
                lines.push("Every shape is the same in both runs, but a claim differs:".into());
                lines.push(format!("  {}", claim_difference(c)));
            }
            None => lines.push("The runs agree: every shape and every claim is the same.".into()),
        }
        return lines;
    };
    lines.push(format!(
        "First divergence: frame {} (t = {} s): {} shape{} differ{}",
        first.frame,
        short_number(first.time),
        first.shapes.len(),
        if first.shapes.len() == 1 { "" } else { "s" },
        if first.shapes.len() == 1 { "s" } else { "" },
    ));
    for s in first.shapes.iter().take(10) {
        lines.push(format!("  {}", shape_difference(s)));
    }
    if first.shapes.len() > 10 {
        lines.push(format!("  ... and {} more", first.shapes.len() - 10));
    }
    if first.claims.is_empty() {
        lines.push("Claims at that frame and the one before: the same in both runs.".into());
    } else {
        lines.push("Claims that differ, at that frame and the one before:".into());
        for c in &first.claims {
            lines.push(format!("  {}", claim_difference(c)));
        }
    }
    // How it grows: the first frame, then each frame where the largest difference first
    // passes another power of ten, then the last.
    lines.push("How far apart (the largest position difference of a shape in both runs):".into());
    let mut shown_decade = i32::MIN;
    let last = d.growth.len().saturating_sub(1);
    for (i, (frame, by)) in d.growth.iter().enumerate() {
        let decade = if *by > 0.0 {
            by.log10().floor() as i32
        } else {
            i32::MIN + 1
        };
        if i == 0 || i == last || decade > shown_decade {
            lines.push(format!("  frame {frame}: {}", short_number(*by)));
            shown_decade = shown_decade.max(decade);
        }
    }
    if !d.same_again.is_empty() {
        let runs: Vec<String> = d
            .same_again
            .iter()
            .map(|&(x, y)| match x == y {
                true => format!("frame {x}"),
                false => format!("frames {x}-{y}"),
            })
            .collect();
        lines.push(format!(
            "The same again (every shape and claim) at {}.",
            runs.join(", ")
        ));
    }
    lines
}

/// The strip's row of two compared runs, at a frame: how far apart their shapes' positions
/// are there (or that they are the same again), and where they part.
pub fn runs_apart_at(
    frame: u64,
    apart: Option<f64>,
    same_again: bool,
    parting: Option<u64>,
) -> String {
    match (apart, parting) {
        (_, None) => "compared runs: the same throughout".into(),
        (_, Some(f)) if frame < f => {
            format!("compared runs: the same here; they part at frame {f} (J)")
        }
        (_, Some(f)) if same_again => {
            format!("compared runs: the same here again; they part at frame {f} (J)")
        }
        (Some(d), Some(f)) => format!(
            "compared runs: positions apart by {} here; they part at frame {f} (J)",
            short_number(d)
        ),
        (None, Some(f)) => format!("compared runs: they part at frame {f} (J)"),
    }
}

/// Where two runs part, in a line: the frame and how many shapes, or that they agree.
pub fn runs_part(d: &crate::capture::RunDiff) -> String {
    if d.frames_compared == 0 {
        return no_common_frame(d, false);
    }
    match (&d.first_divergence, &d.first_claim_difference) {
        (Some(first), _) => {
            let most = d
                .growth
                .iter()
                .copied()
                .reduce(|x, y| if y.1 > x.1 { y } else { x })
                .unwrap_or((first.frame, 0.0));
            let end = d.growth.last().map_or(0.0, |g| g.1);
            format!(
                "the runs part at frame {} (t = {} s): {} shape{} differ{}; positions {} apart at most (frame {}), {} at the end{}{}",
                first.frame,
                short_number(first.time),
                first.shapes.len(),
                if first.shapes.len() == 1 { "" } else { "s" },
                if first.shapes.len() == 1 { "s" } else { "" },
                short_number(most.1),
                most.0,
                short_number(end),
                same_again(d),
                offset_hint(d).map_or(String::new(), |k| format!(
                    "; B's frames are A's {k:+}: try an offset of {k}"
                )),
            )
        }
        (None, Some(c)) => format!(
            "every shape is the same in both runs, but a claim differs at frame {}",
            c.frame
        ),
        (None, None) => format!(
            "the runs agree: {} frames compared, every shape and claim the same ({})",
            d.frames_compared,
            diff_how(d.tolerance)
        ),
    }
}

/// After the runs part, whether they come together again: `; the same again from frame 60`
/// when they stay so to the end, else how many frames are the same again.
fn same_again(d: &crate::capture::RunDiff) -> String {
    let (Some(&(from, to)), Some(&(end, _))) = (d.same_again.last(), d.growth.last()) else {
        return String::new();
    };
    if to == end {
        return format!("; the same again from frame {from}");
    }
    let frames: u64 = d.same_again.iter().map(|r| r.1 - r.0 + 1).sum();
    format!(
        "; the same again at {frames} frame{} after it",
        if frames == 1 { "" } else { "s" }
    )
}

/// A shape that differs between two runs: who, then each key that differs, by how much
/// (a distance for a position or a velocity) and in both runs (every digit):
/// `crate (id 7): position by 1.2e-7: (1, 2) in A, (1, 2.0000001) in B`.
pub fn shape_difference(s: &crate::capture::ShapeDifference) -> String {
    let who = crate::capture::labelled_name(s.id, s.name.as_deref());
    match (&s.in_a, &s.in_b) {
        (Some(a), Some(b)) => {
            let keys: Vec<String> = s
                .keys
                .iter()
                .map(|k| {
                    format!(
                        "{} by {}: {} in A, {} in B",
                        k.name(),
                        s.by(*k).map_or("?".into(), short_number),
                        state_value(*k, a),
                        state_value(*k, b)
                    )
                })
                .collect();
            format!("{who}: {}", keys.join("; "))
        }
        (Some(_), None) => format!("{who}: in A only"),
        (None, _) => format!("{who}: in B only"),
    }
}

/// What a stale claim is: `it is the exact contact of the poses 2 frames back`, or for a
/// contact kept and moved (the event's `normal`, the kept one) `it is the contact of the poses 2
/// frames back kept, its normal (0, 1) and points as they were, its separation moved along
/// that normal`.
fn stale_contact(e: &crate::capture::CaptureEvent) -> String {
    let (age, kept) = stale(e);
    let back = format!("{age} frame{} back", if age == 1 { "" } else { "s" });
    match kept {
        Some(n) => format!(
            "it is the contact of the poses {back} kept, its normal {} and points as they were, its separation moved along that normal",
            point(n)
        ),
        None => format!("it is the exact contact of the poses {back}"),
    }
}

/// A stale event's age and the normal it kept (0 and none for another kind).
fn stale(e: &crate::capture::CaptureEvent) -> (u64, Option<DVec2>) {
    match e.what {
        crate::event::What::Stale { age, normal } => (age, normal),
        _ => (0, None),
    }
}

/// A stale claim said first: `stale (3 frames old): the engine did not recompute this contact`.
pub fn stale_first(e: &crate::capture::CaptureEvent) -> String {
    let (age, _) = stale(e);
    format!(
        "stale ({age} frame{} old): the engine did not recompute this contact; {}, so no geometric mistake explains it",
        if age == 1 { "" } else { "s" },
        stale_contact(e)
    )
}

/// One key of a shape's state, every digit (two runs a ulp apart must not read the same).
fn state_value(key: crate::capture::ShapeKey, s: &crate::capture::ShapeState) -> String {
    use crate::capture::ShapeKey;
    let exact = |p: DVec2| format!("({}, {})", p.x, p.y);
    match key {
        ShapeKey::Position => exact(s.position),
        ShapeKey::Angle => s.angle.to_string(),
        ShapeKey::Velocity => exact(s.velocity),
        ShapeKey::AngularVelocity => s.angular_velocity.to_string(),
        ShapeKey::Presence => "present".into(),
    }
}

/// What a live capture lab says when a break holds the frame of a claim that disagrees:
/// frame `frame`, the pair's names `a` and `b`, the known mistakes that reproduce it.
pub fn capture_break_disagreement(frame: u64, a: &str, b: &str, causes: &[crate::Cause]) -> String {
    let why = if causes.is_empty() {
        "no known mistake reproduces it".to_string()
    } else {
        let names: Vec<&str> = causes.iter().map(|c| c.name()).collect();
        format!("reproduced by {}", names.join(", "))
    };
    format!(
        "paused at frame {frame}: the claim of {a} and {b} disagrees ({why}); the game runs on: Go live (L) follows it again"
    )
}

/// An event as a plot marks it: `seam: crate / tile 4`.
pub fn event_mark(e: &crate::capture::CaptureEvent) -> String {
    format!("{}: {} / {}", e.kind().name(), e.name(e.a), e.name(e.b))
}

/// A claim that disagrees, as a plot marks it: `tile 4 / crate disagrees (flipped-normal)`.
pub fn disagreeing_mark(j: &crate::Judgement) -> String {
    let (a, b) = j.display_names();
    let causes: Vec<&str> = j.causes().map(|c| c.name()).collect();
    if causes.is_empty() {
        format!("{a} / {b} disagrees")
    } else {
        format!("{a} / {b} disagrees ({})", causes.join(", "))
    }
}

/// A shape asked of a plot that no frame of the capture holds, with the names there are
/// (`limit` of them at most, then how many more).
pub fn no_such_shape(
    path: &str,
    given: &str,
    names: &std::collections::BTreeMap<String, u64>,
    limit: usize,
) -> String {
    let listed: Vec<String> = names
        .iter()
        .take(limit)
        .map(|(name, id)| {
            if name.starts_with("id ") {
                name.clone()
            } else {
                format!("{name} (id {id})")
            }
        })
        .collect();
    let more = names.len().saturating_sub(limit);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    if listed.is_empty() {
        return format!("{path}: no shape {given}: the capture has no shapes");
    }
    format!(
        "{path}: no shape {given} in any frame; the shapes are: {}{more}",
        listed.join(", ")
    )
}

/// A name asked of a plot that several shapes bear.
pub fn shared_name(given: &str, count: usize, chosen: u64) -> String {
    format!(
        "note: {count} shapes are named {given}; plotted the first seen (id {chosen}): give an id to choose another"
    )
}

/// A capture with no claim to plot by default.
pub fn nothing_to_plot(path: &str) -> String {
    format!(
        "{path}: no event, no disagreeing claim and no claim at all: name what to plot with --shape or --pair"
    )
}
