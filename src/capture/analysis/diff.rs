//! Two runs side by side: where two captures of "the same" run first part.
//!
//! Frames are aligned by number (frame `f` of A with frame `f + offset` of B: a client and a
//! server count their ticks from different starts) and shapes by id. The first frame where a
//! shape's pose, velocity or presence differs (bit for bit, or beyond a tolerance) is the
//! divergence: every shape that differs there, by how much, and the claims of both runs at that
//! frame and the one before (a contact one run had and the other did not, or another normal).
//! After it, the largest pose difference of each frame says how the runs drift apart.
//!
//! The idea is Box2D's replay check (a hash of the world per step, a "DIVERGED" mark where two
//! replays part), with the shape and the contact named rather than a hash that differs. Both
//! captures are read as streams, one frame of each at a time, as `diagnose` reads one.

use crate::capture::{CaptureReader, CaptureSource, CapturedShape, Frame, FrameClaim};
use crate::files::FileError;
use crate::geometry::DVec2;
use serde::Serialize;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};

/// How two runs are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiffSettings {
    /// Values further apart than this differ; `None`: any difference in the bits does.
    pub tolerance: Option<f64>,
    /// Frame `f` of A goes with frame `f + offset` of B.
    pub offset: i64,
}

/// What can differ about a shape between the runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShapeKey {
    /// In one run's frame and not the other's.
    Presence,
    /// `position`, compared as a point (its distance, with a tolerance).
    Position,
    /// `angle`, radians.
    Angle,
    /// `velocity`, compared as a vector.
    Velocity,
    /// `angular_velocity`, radians per second.
    AngularVelocity,
}

impl ShapeKey {
    /// The key's name, as the capture file spells it.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKey::Presence => "presence",
            ShapeKey::Position => "position",
            ShapeKey::Angle => "angle",
            ShapeKey::Velocity => "velocity",
            ShapeKey::AngularVelocity => "angular_velocity",
        }
    }
}

/// A shape's state in one run's frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ShapeState {
    /// Where it is.
    pub position: DVec2,
    /// Its angle, radians.
    pub angle: f64,
    /// Units per second.
    pub velocity: DVec2,
    /// Radians per second.
    pub angular_velocity: f64,
}

impl ShapeState {
    /// The state of `shape` as a capture's frame has it.
    pub fn of(shape: &CapturedShape) -> Self {
        Self {
            position: shape.placed.pose.position,
            angle: shape.placed.pose.angle(),
            velocity: shape.motion.velocity,
            angular_velocity: shape.motion.angular_velocity,
        }
    }
}

/// One shape that differs at a frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapeDifference {
    /// The shape's id in both captures.
    pub id: u64,
    /// Its name, if either run gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What differs, in the order position, angle, velocity, angular velocity (or presence).
    pub keys: Vec<ShapeKey>,
    /// The largest difference of those: a distance (position, velocity) or radians (angle,
    /// angular velocity); infinite for presence.
    #[serde(serialize_with = "finite_or_null")]
    pub difference: f64,
    /// Its state in A (`None` where absent).
    pub in_a: Option<ShapeState>,
    /// Its state in B (`None` where absent).
    pub in_b: Option<ShapeState>,
}

/// How a claim of one run stands against the other's at the same frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimChange {
    /// Only A's frame claims the pair.
    OnlyInA,
    /// Only B's frame claims the pair.
    OnlyInB,
    /// Both claim it; they disagree on whether it intersects.
    Verdict,
    /// Both claim it intersecting, with other normals.
    Normal,
    /// Both claim it, the same verdict and normal, other depths.
    Depth,
}

/// One claim that differs between the runs at a frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimDifference {
    /// A's frame number.
    pub frame: u64,
    /// The pair's shape A, as the run that claims it names it (the normal points from A).
    pub a: u64,
    /// The pair's shape B.
    pub b: u64,
    /// How the claims differ.
    pub change: ClaimChange,
    /// Run A's normal (from `a` toward `b`) where it claims the pair intersecting.
    pub normal_a: Option<DVec2>,
    /// Run B's normal, from `a` toward `b` as well.
    pub normal_b: Option<DVec2>,
    /// Run A's depth, where it gives one.
    pub depth_a: Option<f64>,
    /// Run B's depth, where it gives one.
    pub depth_b: Option<f64>,
}

/// Where the runs first part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    /// A's frame number (B's is this plus the offset).
    pub frame: u64,
    /// A's time there, seconds.
    pub time: f64,
    /// Every shape that differs there, the largest difference first.
    pub shapes: Vec<ShapeDifference>,
    /// The claims that differ at the frame before and at this one.
    pub claims: Vec<ClaimDifference>,
}

/// Two runs compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunDiff {
    /// Run A's file, as given.
    pub a: String,
    /// Run B's file, as given.
    pub b: String,
    /// Frame pairs compared (both runs have the frame).
    pub frames_compared: u64,
    /// The first frame where they part, if they do.
    pub first_divergence: Option<Divergence>,
    /// From the divergence to the end: A's frame number and the largest position difference
    /// of any shape there present in both runs.
    pub growth: Vec<(u64, f64)>,
    /// The frames run A holds, first and last (`None`: no frames).
    pub frames_a: Option<(u64, u64)>,
    /// The frames run B holds.
    pub frames_b: Option<(u64, u64)>,
    /// The offset used: frame `f` of A with frame `f + offset` of B.
    pub offset: i64,
    /// The tolerance used (`None`: bit for bit).
    pub tolerance: Option<f64>,
    /// The first frame where one run claims a contact the other does not (or another normal),
    /// when it comes before the shapes part (or they never do).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_claim_difference: Option<ClaimDifference>,
    /// After the first divergence, the runs of A's frames (first and last) where the runs are
    /// the same again, every shape and claim: a difference that a later step undid.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub same_again: Vec<(u64, u64)>,
}

impl RunDiff {
    /// Whether the runs agree: every frame compared the same, shapes and claims.
    pub fn agree(&self) -> bool {
        self.first_divergence.is_none() && self.first_claim_difference.is_none()
    }

    /// Whether A's frame `frame`, after the first divergence, is the same in both runs again.
    pub fn same_again_at(&self, frame: u64) -> bool {
        let k = self.same_again.partition_point(|r| r.1 < frame);
        self.same_again.get(k).is_some_and(|r| r.0 <= frame)
    }
}

impl ShapeDifference {
    /// How far apart the two runs have `key`: a distance for a position or a velocity, the
    /// absolute difference for an angle or an angular velocity; `None` for presence or where
    /// a run does not hold the shape.
    pub fn by(&self, key: ShapeKey) -> Option<f64> {
        let (a, b) = (self.in_a?, self.in_b?);
        match key {
            ShapeKey::Presence => None,
            ShapeKey::Position => Some(a.position.distance(b.position)),
            ShapeKey::Angle => Some((a.angle - b.angle).abs()),
            ShapeKey::Velocity => Some(a.velocity.distance(b.velocity)),
            ShapeKey::AngularVelocity => Some((a.angular_velocity - b.angular_velocity).abs()),
        }
    }
}

fn finite_or_null<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else {
        s.serialize_none()
    }
}

/// Whether `x` and `y` differ: in their bits, or by more than the tolerance.
fn differs(x: f64, y: f64, tolerance: Option<f64>) -> bool {
    match tolerance {
        None => x.to_bits() != y.to_bits(),
        Some(t) => (x - y).abs() > t,
    }
}

fn differs_vec(x: DVec2, y: DVec2, tolerance: Option<f64>) -> bool {
    match tolerance {
        None => differs(x.x, y.x, None) || differs(x.y, y.y, None),
        Some(t) => x.distance(y) > t,
    }
}

/// A shape as a frame of one run has it: what is compared, and its name.
#[derive(Clone, Debug)]
struct Seen {
    id: u64,
    state: ShapeState,
    name: Option<Arc<str>>,
}

/// One run's frame, taken from its reader: the frame and its shapes by id.
struct Snapshot {
    frame: Frame,
    shapes: Vec<Seen>,
}

impl Snapshot {
    fn of(frame: Frame, reader: &CaptureReader) -> Self {
        let mut shapes: Vec<Seen> = reader
            .shapes()
            .map(|s| Seen {
                id: s.id,
                state: ShapeState::of(s),
                name: s.name.clone(),
            })
            .collect();
        shapes.sort_unstable_by_key(|s| s.id);
        Self { frame, shapes }
    }
}

/// How one shape differs between the runs, if it does.
fn shape_difference(
    a: Option<&Seen>,
    b: Option<&Seen>,
    tolerance: Option<f64>,
) -> Option<ShapeDifference> {
    let id = a.or(b)?.id;
    let name = a
        .and_then(|s| s.name.as_deref())
        .or_else(|| b.and_then(|s| s.name.as_deref()))
        .map(str::to_string);
    let (sa, sb) = (a.map(|s| s.state), b.map(|s| s.state));
    let (Some(x), Some(y)) = (sa, sb) else {
        return Some(ShapeDifference {
            id,
            name,
            keys: vec![ShapeKey::Presence],
            difference: f64::INFINITY,
            in_a: sa,
            in_b: sb,
        });
    };
    let mut keys = Vec::new();
    let mut largest = 0.0f64;
    let mut check = |key, differ: bool, by: f64| {
        if differ {
            keys.push(key);
            largest = largest.max(by);
        }
    };
    check(
        ShapeKey::Position,
        differs_vec(x.position, y.position, tolerance),
        x.position.distance(y.position),
    );
    check(
        ShapeKey::Angle,
        differs(x.angle, y.angle, tolerance),
        (x.angle - y.angle).abs(),
    );
    check(
        ShapeKey::Velocity,
        differs_vec(x.velocity, y.velocity, tolerance),
        x.velocity.distance(y.velocity),
    );
    check(
        ShapeKey::AngularVelocity,
        differs(x.angular_velocity, y.angular_velocity, tolerance),
        (x.angular_velocity - y.angular_velocity).abs(),
    );
    (!keys.is_empty()).then_some(ShapeDifference {
        id,
        name,
        keys,
        difference: largest,
        in_a: sa,
        in_b: sb,
    })
}

/// The claims of two frames (A's numbered `frame`) that differ.
fn claim_differences(
    frame: u64,
    a: &[FrameClaim],
    b: &[FrameClaim],
    tolerance: Option<f64>,
) -> Vec<ClaimDifference> {
    let key = |c: &FrameClaim| (c.a.min(c.b), c.a.max(c.b));
    // A claim's normal seen from the pair's lower id toward the higher, to compare claims that
    // name the pair in either order.
    let oriented = |c: &FrameClaim, n: DVec2| if c.a <= c.b { n } else { -n };
    let mut found = Vec::new();
    let make = |c: &FrameClaim, change, other: Option<&FrameClaim>, a_side: bool| {
        let (mine, theirs) = (
            (
                c.reported
                    .intersecting
                    .then_some(c.reported.normal)
                    .flatten(),
                c.reported.depth,
            ),
            other.map_or((None, None), |o| {
                let n = o
                    .reported
                    .intersecting
                    .then_some(o.reported.normal)
                    .flatten();
                // The other run's normal, as this claim orders the pair.
                let n = n.map(|n| if (o.a, o.b) == (c.a, c.b) { n } else { -n });
                (n, o.reported.depth)
            }),
        );
        let ((normal_a, depth_a), (normal_b, depth_b)) = if a_side {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        ClaimDifference {
            frame,
            a: c.a,
            b: c.b,
            change,
            normal_a,
            normal_b,
            depth_a,
            depth_b,
        }
    };
    // Both runs' claims by pair, merged (a frame of a big game holds hundreds: a search of
    // one list for each claim of the other would be quadratic). A pair claimed more than once
    // (the pieces of a chain) goes with the other run's claims of it in their order.
    let by_pair = |claims: &[FrameClaim]| {
        let mut order: Vec<((u64, u64), usize)> = claims
            .iter()
            .enumerate()
            .map(|(k, c)| (key(c), k))
            .collect();
        order.sort_unstable();
        order
    };
    let (xs, ys) = (by_pair(a), by_pair(b));
    let (mut i, mut j) = (0, 0);
    while i < xs.len() || j < ys.len() {
        let (c, d) = match (xs.get(i), ys.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => (Some(&a[x.1]), Some(&b[y.1])),
            (Some(x), Some(y)) if x.0 < y.0 => (Some(&a[x.1]), None),
            (Some(_), Some(y)) => (None, Some(&b[y.1])),
            (x, y) => (x.map(|x| &a[x.1]), y.map(|y| &b[y.1])),
        };
        i += usize::from(c.is_some());
        j += usize::from(d.is_some());
        let (c, d) = match (c, d) {
            (Some(c), Some(d)) => (c, d),
            (Some(c), None) => {
                found.push(make(c, ClaimChange::OnlyInA, None, true));
                continue;
            }
            (None, Some(d)) => {
                found.push(make(d, ClaimChange::OnlyInB, None, false));
                continue;
            }
            (None, None) => break,
        };
        let change = if c.reported.intersecting != d.reported.intersecting {
            Some(ClaimChange::Verdict)
        } else if let (true, Some(n), Some(m)) = (
            c.reported.intersecting,
            c.reported.normal,
            d.reported.normal,
        ) && differs_vec(oriented(c, n), oriented(d, m), tolerance)
        {
            Some(ClaimChange::Normal)
        } else if let (Some(x), Some(y)) = (c.reported.depth, d.reported.depth)
            && differs(x, y, tolerance)
        {
            Some(ClaimChange::Depth)
        } else {
            None
        };
        if let Some(change) = change {
            found.push(make(c, change, Some(d), true));
        }
    }
    found
}

/// The shapes of two aligned frames that differ, the largest difference first, and the
/// largest position difference of a shape present in both. Both lists are sorted by id.
fn frame_differences(
    a: &[Seen],
    b: &[Seen],
    tolerance: Option<f64>,
) -> (Vec<ShapeDifference>, f64) {
    let mut shapes = Vec::new();
    let mut largest = 0.0f64;
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (x, y) = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.id == y.id => (Some(x), Some(y)),
            (Some(x), Some(y)) if x.id < y.id => (Some(x), None),
            (Some(_), Some(y)) => (None, Some(y)),
            (x, y) => (x, y),
        };
        i += usize::from(x.is_some());
        j += usize::from(y.is_some());
        if let (Some(x), Some(y)) = (x, y) {
            largest = largest.max(x.state.position.distance(y.state.position));
        }
        if let Some(d) = shape_difference(x, y, tolerance) {
            shapes.push(d);
        }
    }
    shapes.sort_by(|x, y| y.difference.total_cmp(&x.difference).then(x.id.cmp(&y.id)));
    (shapes, largest)
}

/// Two aligned frames shown side by side (the window's compare mode): the shapes that differ,
/// the largest difference first, how far apart the shapes in both are, and the claims that
/// differ.
#[cfg(feature = "parallel")]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameComparison {
    /// Every shape that differs, the largest difference first.
    pub shapes: Vec<ShapeDifference>,
    /// The largest position difference of a shape present in both.
    pub largest: f64,
    /// The claims that differ (A's frame number).
    pub claims: Vec<ClaimDifference>,
}

/// Frame `a` of one run beside frame `b` of the other, compared as [`diff_captures`] compares
/// them.
#[cfg(feature = "parallel")]
pub fn compare_frames(
    a: &crate::capture::ShownFrame,
    b: &crate::capture::ShownFrame,
    tolerance: Option<f64>,
) -> FrameComparison {
    let seen = |f: &crate::capture::ShownFrame| {
        let mut shapes: Vec<Seen> = f
            .ids
            .iter()
            .zip(&f.scene.shapes)
            .map(|(id, s)| Seen {
                id: *id,
                state: ShapeState {
                    position: s.placed.pose.position,
                    angle: s.placed.pose.angle(),
                    velocity: s.motion.velocity,
                    angular_velocity: s.motion.angular_velocity,
                },
                name: s.name.as_deref().map(Arc::from),
            })
            .collect();
        shapes.sort_unstable_by_key(|s| s.id);
        shapes
    };
    let (shapes, largest) = frame_differences(&seen(a), &seen(b), tolerance);
    FrameComparison {
        shapes,
        largest,
        claims: claim_differences(a.frame.frame, &a.frame.claims, &b.frame.claims, tolerance),
    }
}

/// One run's frames, read on a thread of their own where there are threads (two captures
/// are then read in the time of one), else here.
enum Run {
    Thread(Receiver<Result<Snapshot, FileError>>),
    Here(Box<CaptureReader>),
}

impl Run {
    fn open(source: &CaptureSource) -> Result<Self, FileError> {
        let mut reader = source.reader()?;
        let (send, receive) = sync_channel::<Result<Snapshot, FileError>>(8);
        let spawned = std::thread::Builder::new()
            .name("collidoscope diff".into())
            .spawn(move || {
                loop {
                    let next = match reader.next_frame() {
                        Ok(Some(frame)) => Ok(Snapshot::of(frame, &reader)),
                        Ok(None) => break,
                        Err(e) => Err(e),
                    };
                    let stop = next.is_err();
                    if send.send(next).is_err() || stop {
                        break;
                    }
                }
            });
        match spawned {
            Ok(_) => Ok(Run::Thread(receive)),
            // No threads (a page): the reader went with the closure, so open it again here.
            Err(_) => Ok(Run::Here(Box::new(source.reader()?))),
        }
    }

    fn next(&mut self) -> Result<Option<Snapshot>, FileError> {
        match self {
            Run::Thread(receive) => receive.recv().ok().transpose(),
            Run::Here(reader) => Ok(reader
                .next_frame()?
                .map(|frame| Snapshot::of(frame, reader))),
        }
    }
}

/// Compare the captures at `a` and `b`. A capture that cannot be read is refused with the
/// reader's error, as `diagnose` refuses it.
pub fn diff_captures(a: &Path, b: &Path, settings: DiffSettings) -> Result<RunDiff, FileError> {
    diff_sources(
        &CaptureSource::File(a.to_path_buf()),
        &CaptureSource::File(b.to_path_buf()),
        settings,
    )
}

/// [`diff_captures`] of two captures from wherever they are read (a file, or bytes a page was
/// given).
pub fn diff_sources(
    a: &CaptureSource,
    b: &CaptureSource,
    settings: DiffSettings,
) -> Result<RunDiff, FileError> {
    let mut ra = Run::open(a)?;
    let mut rb = Run::open(b)?;
    let mut diff = RunDiff {
        a: a.name().to_string_lossy().into_owned(),
        b: b.name().to_string_lossy().into_owned(),
        frames_compared: 0,
        first_divergence: None,
        growth: Vec::new(),
        frames_a: None,
        frames_b: None,
        offset: settings.offset,
        tolerance: settings.tolerance,
        first_claim_difference: None,
        same_again: Vec::new(),
    };
    let next =
        |run: &mut Run, range: &mut Option<(u64, u64)>| -> Result<Option<Snapshot>, FileError> {
            let s = run.next()?;
            if let Some(s) = &s {
                let f = s.frame.frame;
                *range = Some(range.map_or((f, f), |(first, _)| (first, f)));
            }
            Ok(s)
        };
    // The claims of the last aligned frames, for the frame before a divergence.
    let mut before: Option<(u64, Vec<FrameClaim>, Vec<FrameClaim>)> = None;
    let mut fa = next(&mut ra, &mut diff.frames_a)?;
    let mut fb = next(&mut rb, &mut diff.frames_b)?;
    while let (Some(x), Some(y)) = (&fa, &fb) {
        // B's frame number less the offset, against A's.
        let aligned = i128::from(y.frame.frame) - i128::from(settings.offset);
        if aligned < i128::from(x.frame.frame) {
            fb = next(&mut rb, &mut diff.frames_b)?;
            continue;
        }
        if aligned > i128::from(x.frame.frame) {
            fa = next(&mut ra, &mut diff.frames_a)?;
            continue;
        }
        diff.frames_compared += 1;
        let (xf, yf) = (&x.frame, &y.frame);
        let (shapes, largest) = frame_differences(&x.shapes, &y.shapes, settings.tolerance);
        if diff.first_divergence.is_some() {
            diff.growth.push((xf.frame, largest));
            // The claims are merged only where every shape is the same (few frames, once the
            // runs have parted).
            if shapes.is_empty()
                && claim_differences(xf.frame, &xf.claims, &yf.claims, settings.tolerance)
                    .is_empty()
            {
                match diff.same_again.last_mut() {
                    Some(run) if run.1 + 1 == xf.frame => run.1 = xf.frame,
                    _ => diff.same_again.push((xf.frame, xf.frame)),
                }
            }
        } else if !shapes.is_empty() {
            let mut claims = Vec::new();
            if let Some((frame, ca, cb)) = &before {
                claims.extend(claim_differences(*frame, ca, cb, settings.tolerance));
            }
            claims.extend(claim_differences(
                xf.frame,
                &xf.claims,
                &yf.claims,
                settings.tolerance,
            ));
            diff.first_divergence = Some(Divergence {
                frame: xf.frame,
                time: xf.time,
                shapes,
                claims,
            });
            diff.growth.push((xf.frame, largest));
        } else if diff.first_claim_difference.is_none()
            && let Some(c) = claim_differences(xf.frame, &xf.claims, &yf.claims, settings.tolerance)
                .into_iter()
                .next()
        {
            diff.first_claim_difference = Some(c);
        }
        if diff.first_divergence.is_none() {
            before = Some((xf.frame, xf.claims.clone(), yf.claims.clone()));
        }
        fa = next(&mut ra, &mut diff.frames_a)?;
        fb = next(&mut rb, &mut diff.frames_b)?;
    }
    // The rest of the longer run, counted and checked to its end (a refusal there refuses it).
    while fa.is_some() {
        fa = next(&mut ra, &mut diff.frames_a)?;
    }
    while fb.is_some() {
        fb = next(&mut rb, &mut diff.frames_b)?;
    }
    Ok(diff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reported;

    fn claim(a: u64, b: u64, depth: f64, normal: DVec2) -> FrameClaim {
        FrameClaim {
            a,
            b,
            reported: Reported::intersecting(depth, normal),
        }
    }

    #[test]
    fn claims_are_matched_by_pair_in_either_order_and_in_their_order_when_repeated() {
        let a = [
            claim(3, 4, 0.1, DVec2::Y),
            claim(1, 2, 0.1, DVec2::X),
            // A chain's two pieces against the same shape.
            claim(7, 8, 0.1, DVec2::Y),
            claim(7, 8, 0.2, DVec2::Y),
        ];
        let b = [
            claim(5, 6, 0.1, DVec2::X),
            // The same pair named the other way round, its normal turned with it.
            claim(4, 3, 0.1, -DVec2::Y),
            claim(8, 7, 0.1, -DVec2::Y),
            claim(8, 7, 0.25, -DVec2::Y),
        ];
        let found = claim_differences(9, &a, &b, None);
        let changes: Vec<(u64, u64, ClaimChange)> =
            found.iter().map(|c| (c.a, c.b, c.change)).collect();
        assert_eq!(
            changes,
            [
                (1, 2, ClaimChange::OnlyInA),
                (5, 6, ClaimChange::OnlyInB),
                (7, 8, ClaimChange::Depth),
            ]
        );
        let depth = &found[2];
        assert_eq!((depth.depth_a, depth.depth_b), (Some(0.2), Some(0.25)));
        assert_eq!(
            depth.normal_b,
            Some(DVec2::Y),
            "B's normal as A names the pair"
        );
        assert!(found.iter().all(|c| c.frame == 9));
    }
}
