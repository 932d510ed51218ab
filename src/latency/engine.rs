//! The latency-aware engine: packets one at a time in arrival order, each checking only the
//! bucket rows (and, swept, the intervals between them) that its span of the track changed.

use super::findings::{Collision, Finding, Retraction, standing};
use super::log::{Packet, PacketLog};
use super::swept::{SweptBox, swept_contact};
use super::track::{Knowledge, Sample, Track};
use crate::broad::{Aabb, Grid, auto_cell_size};
use crate::geometry::{Placed, Pose, Shape};
use crate::query::collide;
use std::collections::{BTreeMap, HashMap};

/// From this many players on, each bucket row keeps a uniform grid of the players' boxes;
/// below it a row's boxes are scanned in a line (faster for a few dozen).
pub const GRID_FROM: usize = 64;

/// A row is retired (its cache dropped; its standing collisions kept) once every player still
/// sending has sent a packet after it. A player whose last packet was received this long
/// before the newest one (ms) has stopped sending and holds nothing back.
pub const STOPPED_AFTER: f64 = 1000.0;

/// What one packet did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Ignored: its player already had a packet with that `sent`.
    pub duplicate: bool,
    /// Bucket rows it checked.
    pub rows: usize,
    /// Intervals between rows it checked (swept).
    pub intervals: usize,
    /// Pairs it tested exactly (after the broad phase).
    pub pairs: usize,
    /// Collisions it reported.
    pub found: usize,
    /// Collisions it retracted.
    pub retracted: usize,
}

/// The engine's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Bucket step S (ms): buckets are the multiples of S.
    pub step_ms: f64,
    /// Also find contacts between bucket times.
    pub swept: bool,
}

/// One bucket row: every player's pose at that time (when it has one), their boxes, and the
/// collisions standing there.
struct Row {
    poses: Vec<Option<Pose>>,
    boxes: Vec<Aabb>,
    grid: Option<Grid>,
    /// Standing collisions (a < b).
    live: Vec<(u32, u32)>,
}

/// The most buckets the packets an engine takes may span at its step (a step far too small for
/// the log's length would otherwise run for hours).
pub const MAX_BUCKETS: f64 = 1e8;

/// How far from time 0 a packet's times may be (ms; about 31.7 years): beyond it, a bucket's
/// index no longer counts exactly.
pub const MAX_TIME_MS: f64 = 1e12;

/// Why the engine refused a packet (it is left out; the engine stays as it was).
#[derive(Clone, Debug, PartialEq)]
pub enum PushError {
    /// Its player is not one of the engine's.
    UnknownPlayer {
        /// The packet's player.
        player: usize,
        /// How many players the engine has.
        players: usize,
    },
    /// A number is not finite, or too far from time 0.
    Number {
        /// The field: `sent`, `received`, `angle`, `position`.
        field: &'static str,
        /// What is wrong with it.
        why: String,
    },
    /// Its `sent` would stretch the packets taken over more than [`MAX_BUCKETS`] buckets.
    TooManyBuckets {
        /// The span of `sent` times with it (ms).
        span: f64,
        /// The step (ms).
        step: f64,
    },
}

impl std::fmt::Display for PushError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PushError::UnknownPlayer { player, players } => write!(
                f,
                "\"player\" {player} is not a player (the engine has {players})"
            ),
            PushError::Number { field, why } => write!(f, "\"{field}\" {why}"),
            PushError::TooManyBuckets { span, step } => write!(
                f,
                "\"sent\": the packets would span {span} ms, which a step of {step} ms cuts into more than {MAX_BUCKETS:e} buckets: choose a larger step"
            ),
        }
    }
}

impl std::error::Error for PushError {}

/// The engine.
pub struct PacketEngine {
    settings: Settings,
    placed: Vec<Placed>,
    tracks: Vec<Track>,
    /// Last `received` of each player (ms), for retiring rows.
    heard: Vec<f64>,
    rows: BTreeMap<i64, Row>,
    /// Standing collisions of retired rows.
    settled: HashMap<i64, Vec<(u32, u32)>>,
    /// Standing swept contacts by interval (its first bucket): pair and time.
    swept_live: HashMap<i64, Vec<(u32, u32, f64)>>,
    /// Each player's swept box by interval (its first bucket), as of its last packet there.
    swept_boxes: HashMap<i64, Vec<Option<SweptBox>>>,
    cell_size: f64,
    collisions: Vec<Collision>,
    retracted: Vec<Retraction>,
    packets: usize,
    newest: f64,
    /// The earliest and latest `sent` taken.
    sent: Option<(f64, f64)>,
}

/// A player as the server knows it at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerAt {
    /// Which player (its place in the log's list).
    pub player: usize,
    /// Its shape where the server places it then.
    pub placed: Placed,
    /// Whether that pose was interpolated between two packets rather than received.
    pub interpolated: bool,
}

impl PacketEngine {
    /// Every player with a pose at `t` (ms) as the server knows it now (after the packets
    /// taken): where, and whether that pose was interpolated between two packets rather than
    /// received.
    pub fn players_at(&self, log: &PacketLog, t: f64) -> Vec<PlayerAt> {
        log.players
            .iter()
            .zip(&self.tracks)
            .enumerate()
            .filter_map(|(player, (p, track))| {
                let pose = track.pose_at(t)?;
                Some(PlayerAt {
                    player,
                    placed: Placed::new(p.shape.clone(), pose),
                    interpolated: track.knowledge_at(t) == Knowledge::Interpolated,
                })
            })
            .collect()
    }

    /// The bucket a view opens on: the first collision's, else the first bucket a packet was
    /// sent in (`sent`: the log's range), else 0.
    pub fn opening_bucket(&self, sent: Option<(f64, f64)>) -> i64 {
        let time = self
            .collisions()
            .first()
            .map(|c| c.time)
            .or(sent.map(|(lo, _)| lo))
            .unwrap_or(0.0);
        (time / self.settings().step_ms).floor() as i64
    }

    /// An engine for `players` (their shapes) with `settings`.
    pub fn new(players: &[Shape], settings: Settings) -> Self {
        Self::with_shapes(players.iter().cloned(), settings)
    }

    /// An engine for the log's players.
    pub fn for_log(log: &PacketLog, settings: Settings) -> Self {
        Self::with_shapes(log.players.iter().map(|p| p.shape.clone()), settings)
    }

    fn with_shapes(players: impl Iterator<Item = Shape>, settings: Settings) -> Self {
        let placed: Vec<Placed> = players.map(|s| Placed::new(s, Pose::IDENTITY)).collect();
        let n = placed.len();
        let boxes: Vec<Aabb> = placed.iter().map(Aabb::of).collect();
        Self {
            settings,
            cell_size: auto_cell_size(&boxes),
            placed,
            tracks: vec![Track::default(); n],
            heard: vec![f64::NEG_INFINITY; n],
            rows: BTreeMap::new(),
            settled: HashMap::new(),
            swept_live: HashMap::new(),
            swept_boxes: HashMap::new(),
            collisions: Vec::new(),
            retracted: Vec::new(),
            packets: 0,
            newest: f64::NEG_INFINITY,
            sent: None,
        }
    }

    /// The settings.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Every collision reported so far, in the order found.
    pub fn collisions(&self) -> &[Collision] {
        &self.collisions
    }

    /// Every retraction so far, in the order made.
    pub fn retracted(&self) -> &[Retraction] {
        &self.retracted
    }

    /// Each player's track as known now.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// How many packets it has taken.
    pub fn packets(&self) -> usize {
        self.packets
    }

    /// How many rows are held (not retired).
    pub fn rows_held(&self) -> usize {
        self.rows.len()
    }

    /// The time of bucket `k`.
    pub fn bucket_time(&self, k: i64) -> f64 {
        k as f64 * self.settings.step_ms
    }

    /// Whether the engine can take `packet`: its player is one of the engine's, its numbers
    /// finite and within [`MAX_TIME_MS`] of time 0 (and within 2^52 steps of it), and the
    /// `sent` times taken, with its own, span at most [`MAX_BUCKETS`] steps.
    pub fn check(&self, packet: &Packet) -> Result<(), PushError> {
        let players = self.placed.len();
        if packet.player >= players {
            return Err(PushError::UnknownPlayer {
                player: packet.player,
                players,
            });
        }
        let step = self.settings.step_ms;
        for (field, x) in [("sent", packet.sent), ("received", packet.received)] {
            let why = if !x.is_finite() {
                format!("must be a finite number, found {x}")
            } else if x.abs() > MAX_TIME_MS {
                format!("is {x:e} ms, farther from time 0 than {MAX_TIME_MS:e} ms")
            } else if x.abs() / step > 2f64.powi(52) {
                format!("is {x:e} ms, more than 2^52 steps of {step} ms from time 0")
            } else {
                continue;
            };
            return Err(PushError::Number { field, why });
        }
        if !packet.angle.is_finite() || !packet.position.is_finite() {
            let field = if packet.angle.is_finite() {
                "position"
            } else {
                "angle"
            };
            return Err(PushError::Number {
                field,
                why: "must be finite".into(),
            });
        }
        let (lo, hi) = self.sent.map_or((packet.sent, packet.sent), |(lo, hi)| {
            (lo.min(packet.sent), hi.max(packet.sent))
        });
        if (hi - lo) / step > MAX_BUCKETS {
            return Err(PushError::TooManyBuckets {
                span: hi - lo,
                step,
            });
        }
        Ok(())
    }

    /// Take one packet, once [`PacketEngine::check`] accepts it (a packet it refuses is left out,
    /// the engine as it was).
    pub fn push(&mut self, packet: &Packet) -> Result<Effect, PushError> {
        self.check(packet)?;
        self.sent = Some(self.sent.map_or((packet.sent, packet.sent), |(lo, hi)| {
            (lo.min(packet.sent), hi.max(packet.sent))
        }));
        Ok(self.take(packet))
    }

    fn take(&mut self, packet: &Packet) -> Effect {
        self.packets += 1;
        let i = packet.player;
        let r = packet.received;
        self.heard[i] = r;
        self.newest = self.newest.max(r);
        let sample = Sample {
            sent: packet.sent,
            position: packet.position,
            angle: packet.angle,
        };
        let mut effect = Effect::default();
        let Some((lo, hi)) = self.tracks[i].insert(sample) else {
            effect.duplicate = true;
            return effect;
        };
        let (found, retracted) = (self.collisions.len(), self.retracted.len());
        for k in buckets_in(lo, hi, self.settings.step_ms) {
            self.check_row(i, k, r, &mut effect);
        }
        if self.settings.swept && hi > lo {
            for k in intervals_meeting(lo, hi, self.settings.step_ms) {
                self.check_interval(i, k, r, &mut effect);
            }
        }
        effect.found = self.collisions.len() - found;
        effect.retracted = self.retracted.len() - retracted;
        self.retire();
        effect
    }

    /// Player `i`'s pose at bucket `k` changed: check it against every other player there.
    fn check_row(&mut self, i: usize, k: i64, r: f64, effect: &mut Effect) {
        effect.rows += 1;
        let t = self.bucket_time(k);
        let Some(pose) = self.tracks[i].pose_at(t) else {
            return;
        };
        if !self.rows.contains_key(&k) {
            let row = self.build_row(k, t);
            self.rows.insert(k, row);
        }
        let row = self.rows.get_mut(&k).expect("the row was just made");
        self.placed[i].pose = pose;
        let aabb = Aabb::of(&self.placed[i]);
        row.poses[i] = Some(pose);
        row.boxes[i] = aabb;
        let mut candidates: Vec<u32> = match &mut row.grid {
            Some(grid) => {
                grid.occupy(i as u32, aabb);
                grid.query(&aabb)
            }
            None => (0..row.boxes.len() as u32)
                .filter(|&j| {
                    row.poses[j as usize].is_some() && row.boxes[j as usize].overlaps(&aabb)
                })
                .collect(),
        };
        // Standing collisions with i are checked again even when the boxes no longer meet.
        candidates.extend(row.live.iter().filter_map(|&pair| partner(pair, i)));
        candidates.sort_unstable();
        candidates.dedup();
        for j in candidates {
            let j = j as usize;
            if j == i {
                continue;
            }
            let Some(other) = row.poses[j] else { continue };
            effect.pairs += 1;
            self.placed[j].pose = other;
            let pair = (i.min(j) as u32, i.max(j) as u32);
            // Always A the smaller index, as one pass asks: a contact resolved to touching
            // must get the same answer both ways.
            let hit =
                collide(&self.placed[pair.0 as usize], &self.placed[pair.1 as usize]).is_some();
            let standing = row.live.iter().position(|p| *p == pair);
            match (hit, standing) {
                (true, None) => {
                    row.live.push(pair);
                    let found = Found::new(pair, t, None, r, self.packets - 1);
                    self.collisions.push(found.collision());
                }
                (false, Some(at)) => {
                    row.live.swap_remove(at);
                    let found = Found::new(pair, t, None, r, self.packets - 1);
                    self.retracted.push(found.retraction());
                }
                _ => {}
            }
        }
    }

    /// A row made from the tracks (new, or one retired earlier and needed again).
    fn build_row(&mut self, k: i64, t: f64) -> Row {
        let n = self.tracks.len();
        let mut row = Row {
            poses: vec![None; n],
            boxes: vec![Aabb::new(Default::default(), Default::default()); n],
            grid: (n >= GRID_FROM).then(|| Grid::new(self.cell_size)),
            live: self.settled.remove(&k).unwrap_or_default(),
        };
        for (j, track) in self.tracks.iter().enumerate() {
            if let Some(pose) = track.pose_at(t) {
                self.placed[j].pose = pose;
                let aabb = Aabb::of(&self.placed[j]);
                row.poses[j] = Some(pose);
                row.boxes[j] = aabb;
                if let Some(grid) = &mut row.grid {
                    grid.insert(j as u32, aabb);
                }
            }
        }
        row
    }

    /// Whether a collision stands at bucket `k` for the pair.
    fn stands(&self, k: i64, pair: (u32, u32)) -> bool {
        match self.rows.get(&k) {
            Some(row) => row.live.contains(&pair),
            None => self.settled.get(&k).is_some_and(|l| l.contains(&pair)),
        }
    }

    /// Player `i`'s track changed within the interval from bucket `k` to `k + 1`: find the
    /// swept contacts there again.
    fn check_interval(&mut self, i: usize, k: i64, r: f64, effect: &mut Effect) {
        effect.intervals += 1;
        let (t0, t1) = (self.bucket_time(k), self.bucket_time(k + 1));
        let mut others: Vec<usize> = Vec::new();
        if self.tracks[i].covers(t0, t1) {
            // Player i's box is made again (its track changed here); the others' are kept
            // from when their own packets last changed this interval.
            let n = self.tracks.len();
            let boxes = self.swept_boxes.entry(k).or_insert_with(|| vec![None; n]);
            let mine = SweptBox::of(&self.tracks[i], &self.placed[i].shape, t0, t1);
            boxes[i] = Some(mine);
            for (j, track) in self.tracks.iter().enumerate() {
                if j == i || !track.covers(t0, t1) {
                    continue;
                }
                let theirs = *boxes[j]
                    .get_or_insert_with(|| SweptBox::of(track, &self.placed[j].shape, t0, t1));
                if mine.meets(&theirs) {
                    others.push(j);
                }
            }
        }
        if let Some(live) = self.swept_live.get(&k) {
            others.extend(
                live.iter()
                    .filter_map(|&(a, b, _)| partner((a, b), i))
                    .map(|j| j as usize),
            );
        }
        others.sort_unstable();
        others.dedup();
        for j in others {
            let pair = (i.min(j) as u32, i.max(j) as u32);
            let (a, b) = (pair.0 as usize, pair.1 as usize);
            let seen = self.stands(k, pair) || self.stands(k + 1, pair);
            let both = self.tracks[a].covers(t0, t1) && self.tracks[b].covers(t0, t1);
            let new = if both && !seen {
                effect.pairs += 1;
                let (pa, pb) = two_mut(&mut self.placed, a, b);
                swept_contact(pa, &self.tracks[a], pb, &self.tracks[b], t0, t1)
            } else {
                None
            };
            let live = self.swept_live.entry(k).or_default();
            let old_at = live.iter().position(|&(x, y, _)| (x, y) == pair);
            let old = old_at.map(|at| live[at].2);
            if old.map(f64::to_bits) == new.map(f64::to_bits) {
                continue;
            }
            let between = Some([t0, t1]);
            if let Some(at) = old_at {
                let (_, _, time) = live.swap_remove(at);
                let found = Found::new(pair, time, between, r, self.packets - 1);
                self.retracted.push(found.retraction());
            }
            if let Some(time) = new {
                live.push((pair.0, pair.1, time));
                let found = Found::new(pair, time, between, r, self.packets - 1);
                self.collisions.push(found.collision());
            }
            if live.is_empty() {
                self.swept_live.remove(&k);
            }
        }
    }

    /// Drop the rows every player still sending has passed (their standing collisions are
    /// kept, so a very late packet is still handled exactly: its rows are made again).
    fn retire(&mut self) {
        if !self.packets.is_multiple_of(64) {
            return;
        }
        let passed = self
            .tracks
            .iter()
            .zip(&self.heard)
            .filter(|(_, heard)| **heard >= self.newest - STOPPED_AFTER)
            .filter_map(|(t, _)| t.range().map(|(_, last)| last))
            .fold(f64::INFINITY, f64::min);
        if !passed.is_finite() {
            return;
        }
        // Keep the row at the horizon itself and the one before: the next packets' spans
        // usually start there.
        let keep_from = (passed / self.settings.step_ms).floor() as i64 - 1;
        while let Some(entry) = self.rows.first_entry() {
            if *entry.key() >= keep_from {
                break;
            }
            let (k, row) = entry.remove_entry();
            if !row.live.is_empty() {
                self.settled.insert(k, row.live);
            }
        }
        self.swept_boxes.retain(|k, _| *k >= keep_from);
    }

    /// Collisions reported and not retracted, sorted by time, then pair (what one pass over
    /// all packets at once finds).
    pub fn standing(&self) -> Vec<Finding> {
        standing(&self.collisions, &self.retracted)
    }
}

/// The other player of `pair`, when player `i` is in it.
fn partner((a, b): (u32, u32), i: usize) -> Option<u32> {
    if a as usize == i {
        Some(b)
    } else if b as usize == i {
        Some(a)
    } else {
        None
    }
}

/// The buckets k with k * step in `[lo, hi]`.
// `1..=0`: no bucket, on purpose.
#[allow(clippy::reversed_empty_ranges)]
pub fn buckets_in(lo: f64, hi: f64, step: f64) -> std::ops::RangeInclusive<i64> {
    // Beyond 2^52 steps from 0 a bucket's index is not exact (and the loops below would run
    // on): none (the engine refuses such packets; see `PacketEngine::check`).
    if !(lo.abs() / step <= 2f64.powi(52) && hi.abs() / step <= 2f64.powi(52)) {
        return 1..=0;
    }
    let mut first = (lo / step).ceil() as i64;
    while (first as f64) * step < lo {
        first += 1;
    }
    while ((first - 1) as f64) * step >= lo {
        first -= 1;
    }
    let mut last = (hi / step).floor() as i64;
    while (last as f64) * step > hi {
        last -= 1;
    }
    while ((last + 1) as f64) * step <= hi {
        last += 1;
    }
    first..=last
}

/// The intervals `[k step, (k + 1) step]` whose inside meets the inside of `[lo, hi]` (lo < hi).
// `1..=0`: no bucket, on purpose.
#[allow(clippy::reversed_empty_ranges)]
pub fn intervals_meeting(lo: f64, hi: f64, step: f64) -> std::ops::RangeInclusive<i64> {
    if !(lo.abs() / step <= 2f64.powi(52) && hi.abs() / step <= 2f64.powi(52)) {
        return 1..=0;
    }
    let mut first = (lo / step).floor() as i64;
    while ((first + 1) as f64) * step <= lo {
        first += 1;
    }
    while (first as f64) * step > lo {
        first -= 1;
    }
    let mut last = (hi / step).ceil() as i64 - 1;
    while (last as f64) * step >= hi {
        last -= 1;
    }
    while ((last + 1) as f64) * step < hi {
        last += 1;
    }
    first..=last
}

/// A finding as a packet changes it: the pair, when, and the packet (index and arrival).
struct Found {
    pair: (u32, u32),
    time: f64,
    between: Option<[f64; 2]>,
    at: f64,
    packet: usize,
}

impl Found {
    fn new(pair: (u32, u32), time: f64, between: Option<[f64; 2]>, at: f64, packet: usize) -> Self {
        Self {
            pair,
            time,
            between,
            at,
            packet,
        }
    }

    fn collision(&self) -> Collision {
        Collision {
            a: self.pair.0 as usize,
            b: self.pair.1 as usize,
            time: self.time,
            between: self.between,
            detected_at: self.at,
            packet: self.packet,
        }
    }

    fn retraction(&self) -> Retraction {
        Retraction {
            a: self.pair.0 as usize,
            b: self.pair.1 as usize,
            time: self.time,
            between: self.between,
            retracted_at: self.at,
            packet: self.packet,
        }
    }
}

/// Two distinct elements of a slice, both mutable.
fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    debug_assert!(a < b);
    let (x, y) = v.split_at_mut(b);
    (&mut x[a], &mut y[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_and_interval_ranges_are_exact_at_the_edges() {
        assert_eq!(buckets_in(0.0, 100.0, 25.0), 0..=4);
        assert_eq!(buckets_in(1.0, 99.0, 25.0), 1..=3);
        assert_eq!(buckets_in(56.0, 56.0, 25.0).count(), 0);
        assert_eq!(buckets_in(-30.0, -1.0, 25.0), -1..=-1);
        // Bucket times are k * step as f64 computes it (3 * 0.1 = 0.30000000000000004, while
        // 0.3 / 0.1 = 2.9999999999999996): every one in the range, none left out.
        assert_eq!(buckets_in(0.3, 0.9, 0.1), 3..=9);
        for (lo, hi, step) in [(0.3, 0.9, 0.1), (0.7, 2.1, 0.7), (-1.1, 3.3, 1.1)] {
            let range = buckets_in(lo, hi, step);
            assert!(
                range
                    .clone()
                    .all(|k| (lo..=hi).contains(&(k as f64 * step)))
            );
            let (before, after) = (range.start() - 1, range.end() + 1);
            assert!(!(lo..=hi).contains(&(before as f64 * step)));
            assert!(!(lo..=hi).contains(&(after as f64 * step)));
        }
        assert_eq!(intervals_meeting(0.0, 100.0, 25.0), 0..=3);
        assert_eq!(intervals_meeting(56.0, 105.0, 25.0), 2..=4);
        assert_eq!(intervals_meeting(50.0, 75.0, 25.0), 2..=2);
    }
}
