//! The latency-aware engine: packets one at a time in arrival order, each checking only the
//! bucket rows (and, swept, the intervals between them) that its span of the track changed.
//!
//! A short span (at most [`ROW_BY_ROW`] buckets, as a player sending steadily makes) is
//! checked row by row, each row keeping every player's pose and box for the packets after it,
//! as LACE does. A longer one (a packet sent long after the one before it, or a clock far off)
//! is checked only where the player's box over a stretch of its track meets another player's
//! over the same stretch: stretches whose boxes are apart are left out whole, those that meet
//! are halved until they are a few buckets long. So a packet's cost follows the players near
//! it, not the length of its span, and no row is made for a bucket where nobody is near.

use super::findings::{Collision, Finding, Retraction, standing};
use super::log::{MAX_TIME_MS, Packet, PacketLog};
use super::swept::{SweptBox, swept_contact};
use super::track::{Knowledge, Sample, Track};
use crate::broad::{Aabb, Grid, auto_cell_size};
use crate::geometry::{Placed, Pose, Shape};
use crate::query::collide;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

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

/// A packet whose span holds at most this many buckets is checked row by row, the rows kept
/// for the packets after it; a longer span only where players' boxes meet (see the module).
pub const ROW_BY_ROW: u64 = 64;

/// The checks (a pair of players near each other at a bucket of a long span; a time of impact
/// between two buckets counts [`SWEPT_WEIGHT`]) an engine allows at the start; each packet it
/// takes allows [`CHECKS_PER_PACKET`] more. A packet that would ask for more than are left is
/// refused before any is made, naming its span, the step and the buckets in the span: so the
/// work a log costs is bounded by the packets it holds, never by the span of its clocks.
pub const CHECKS_AT_START: u64 = 1_000_000;

/// The checks each packet taken adds to what the engine allows (see [`CHECKS_AT_START`]).
pub const CHECKS_PER_PACKET: u64 = 10_000;

/// What a time of impact between two buckets counts for, against a check at one bucket.
pub const SWEPT_WEIGHT: u64 = 8;

/// A stretch of track whose buckets number at most this is checked bucket by bucket when the
/// players' boxes over it meet (longer ones are halved first).
const LEAF_BUCKETS: u64 = 8;

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
    /// Its span (from its player's packet before it to the one after it) asks for more
    /// checks where players' boxes meet than the engine allows (see [`CHECKS_AT_START`]).
    TooManyBuckets {
        /// The span of `sent` times it changes (ms).
        span: f64,
        /// The step (ms).
        step: f64,
        /// The buckets in the span.
        buckets: u64,
        /// The checks the engine allowed then.
        allowed: u64,
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
            PushError::TooManyBuckets {
                span,
                step,
                buckets,
                allowed,
            } => write!(
                f,
                "\"sent\": its span of {} ms (from its player's packet before it to the one after), cut by a step of {} ms into {buckets} buckets, has more checks where players are near each other than the {allowed} left ({CHECKS_AT_START} at the start, {CHECKS_PER_PACKET} more with each packet): choose a larger step",
                crate::text::number(*span),
                crate::text::number(*step)
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
    /// Standing collisions of buckets with no row held: bucket and pair, one small entry each
    /// (a long log at a small step may hold millions).
    settled: BTreeSet<(i64, u32, u32)>,
    /// Standing swept contacts by interval (its first bucket): pair and time.
    swept_live: BTreeMap<i64, Vec<(u32, u32, f64)>>,
    /// Each player's swept box by interval (its first bucket), as of its last packet there.
    swept_boxes: BTreeMap<i64, Vec<Option<SweptBox>>>,
    cell_size: f64,
    collisions: Vec<Collision>,
    retracted: Vec<Retraction>,
    packets: usize,
    /// Checks of long spans still allowed (see [`CHECKS_AT_START`]).
    allowance: u64,
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
            settled: BTreeSet::new(),
            swept_live: BTreeMap::new(),
            swept_boxes: BTreeMap::new(),
            collisions: Vec::new(),
            retracted: Vec::new(),
            packets: 0,
            allowance: CHECKS_AT_START,
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

    /// Whether the engine can take `packet` as far as the packet alone says: its player is one
    /// of the engine's, its numbers finite and within [`MAX_TIME_MS`] of time 0 (and within 2^52
    /// steps of it). [`PacketEngine::push`] also refuses a packet whose span asks for more
    /// checks than it allows (see [`CHECKS_AT_START`]).
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
        Ok(())
    }

    /// Take one packet, once [`PacketEngine::check`] accepts it and its span asks for no more
    /// checks than the engine allows (a packet refused is left out, the engine as it was).
    pub fn push(&mut self, packet: &Packet) -> Result<Effect, PushError> {
        self.check(packet)?;
        let i = packet.player;
        let sample = Sample {
            sent: packet.sent,
            position: packet.position,
            angle: packet.angle,
        };
        let span = self.tracks[i].insert(sample);
        let work = match span.map(|(lo, hi)| self.plan(i, lo, hi)).transpose() {
            Ok(work) => work,
            Err(e) => {
                self.tracks[i].remove(packet.sent);
                return Err(e);
            }
        };
        self.sent = Some(self.sent.map_or((packet.sent, packet.sent), |(lo, hi)| {
            (lo.min(packet.sent), hi.max(packet.sent))
        }));
        self.packets += 1;
        let spent = work.as_ref().map_or(0, |w| w.spent);
        self.allowance = (self.allowance - spent).saturating_add(CHECKS_PER_PACKET);
        let r = packet.received;
        self.heard[i] = r;
        self.newest = self.newest.max(r);
        let Some(work) = work else {
            return Ok(Effect {
                duplicate: true,
                ..Effect::default()
            });
        };
        Ok(self.take(i, r, work))
    }

    /// What a packet of player `i` whose span is `[lo, hi]` is to check, or why it may not.
    fn plan(&self, i: usize, lo: f64, hi: f64) -> Result<Work, PushError> {
        let step = self.settings.step_ms;
        let mut budget = self.allowance;
        let mut plan = |buckets: RangeInclusive<i64>, between: bool| {
            if count(&buckets) <= ROW_BY_ROW {
                return Ok(Plan::Each(buckets));
            }
            let mut near = self.standing_with(i, &buckets, between);
            self.near(i, (lo, hi), between, &mut near, &mut budget)
                .map_err(|()| PushError::TooManyBuckets {
                    span: hi - lo,
                    step,
                    buckets: count(&buckets_in(lo, hi, step)),
                    allowed: self.allowance,
                })?;
            near.sort_unstable();
            near.dedup();
            Ok(Plan::Near(buckets, near))
        };
        let rows = plan(buckets_in(lo, hi, step), false)?;
        let intervals = if self.settings.swept && hi > lo {
            Some(plan(intervals_meeting(lo, hi, step), true)?)
        } else {
            None
        };
        Ok(Work {
            rows,
            intervals,
            spent: self.allowance - budget,
        })
    }

    /// Every (bucket, partner) of a standing collision of player `i` in `buckets` (intervals,
    /// when `between`).
    fn standing_with(
        &self,
        i: usize,
        buckets: &RangeInclusive<i64>,
        between: bool,
    ) -> Vec<(i64, u32)> {
        let mine = |k: i64, pair: (u32, u32)| partner(pair, i).map(|j| (k, j));
        if between {
            let live = self.swept_live.range(buckets.clone());
            return live
                .flat_map(|(&k, live)| live.iter().filter_map(move |&(a, b, _)| mine(k, (a, b))))
                .collect();
        }
        let held = self.rows.range(buckets.clone());
        let held =
            held.flat_map(|(&k, row)| row.live.iter().filter_map(move |&pair| mine(k, pair)));
        let settled = self.settled.range(settled_in(buckets));
        held.chain(settled.filter_map(|&(k, a, b)| mine(k, (a, b))))
            .collect()
    }

    /// Add to `near` each (bucket, player j) (intervals, when `between`) within `[lo, hi]`
    /// where player `i`'s box and player j's over a stretch of their tracks meet. `Err` once
    /// `budget` is spent.
    fn near(
        &self,
        i: usize,
        (lo, hi): (f64, f64),
        between: bool,
        near: &mut Vec<(i64, u32)>,
        budget: &mut u64,
    ) -> Result<(), ()> {
        let mine = &self.tracks[i];
        for (j, theirs) in self.tracks.iter().enumerate() {
            let Some((first, last)) = theirs.range().filter(|_| j != i) else {
                continue;
            };
            let (a, b) = (lo.max(first), hi.min(last));
            if a > b {
                continue;
            }
            // Between two packets of either player both move straight: the stretches.
            let mut cuts: Vec<f64> = mine
                .breaks_between(a, b)
                .chain(theirs.breaks_between(a, b))
                .collect();
            cuts.sort_by(f64::total_cmp);
            cuts.dedup();
            let ends: Vec<f64> = std::iter::once(a)
                .chain(cuts)
                .chain(std::iter::once(b))
                .collect();
            for piece in ends.windows(2) {
                self.descend(i, j, (piece[0], piece[1]), between, near, budget)?;
            }
        }
        Ok(())
    }

    /// [`Self::near`] on one stretch `[u0, u1]` of both tracks.
    fn descend(
        &self,
        i: usize,
        j: usize,
        (u0, u1): (f64, f64),
        between: bool,
        near: &mut Vec<(i64, u32)>,
        budget: &mut u64,
    ) -> Result<(), ()> {
        let step = self.settings.step_ms;
        let buckets = if between {
            if u1 <= u0 {
                return Ok(());
            }
            intervals_meeting(u0, u1, step)
        } else {
            buckets_in(u0, u1, step)
        };
        let n = count(&buckets);
        if n == 0 {
            return Ok(());
        }
        let box_of = |p: usize| SweptBox::of(&self.tracks[p], &self.placed[p].shape, u0, u1);
        if !box_of(i).meets(&box_of(j)) {
            return Ok(());
        }
        if n <= LEAF_BUCKETS {
            let weight = if between { SWEPT_WEIGHT } else { 1 };
            *budget = budget.checked_sub(n * weight).ok_or(())?;
            near.extend(buckets.map(|k| (k, j as u32)));
            return Ok(());
        }
        let middle = self.bucket_time(buckets.start() + (n / 2) as i64);
        self.descend(i, j, (u0, middle), between, near, budget)?;
        self.descend(i, j, (middle, u1), between, near, budget)
    }

    fn take(&mut self, i: usize, r: f64, work: Work) -> Effect {
        let mut effect = Effect::default();
        let (found, retracted) = (self.collisions.len(), self.retracted.len());
        match work.rows {
            Plan::Each(buckets) => {
                for k in buckets {
                    self.check_row(i, k, r, &mut effect);
                }
            }
            Plan::Near(buckets, near) => self.check_near_rows(i, buckets, &near, r, &mut effect),
        }
        match work.intervals {
            Some(Plan::Each(intervals)) => {
                for k in intervals {
                    self.check_interval(i, k, r, &mut effect);
                }
            }
            Some(Plan::Near(intervals, near)) => {
                self.check_near_intervals(i, intervals, &near, r, &mut effect)
            }
            None => {}
        }
        effect.found = self.collisions.len() - found;
        effect.retracted = self.retracted.len() - retracted;
        self.retire();
        effect
    }

    /// A long span's rows: only the buckets where a player is near (`near`, sorted), with no
    /// row made; rows held in the span are dropped (their poses of player `i` changed; their
    /// standing collisions kept).
    fn check_near_rows(
        &mut self,
        i: usize,
        buckets: RangeInclusive<i64>,
        near: &[(i64, u32)],
        r: f64,
        effect: &mut Effect,
    ) {
        let held: Vec<i64> = self.rows.range(buckets).map(|(k, _)| *k).collect();
        for k in held {
            let row = self.rows.remove(&k).expect("held");
            self.settle_row(k, row);
        }
        let mut last = None;
        for &(k, j) in near {
            if last != Some(k) {
                effect.rows += 1;
                last = Some(k);
            }
            self.check_pair(i, j as usize, k, r, effect);
        }
    }

    /// Players `i` and `j` at bucket `k`, which has no row held: as [`Self::check_row`] checks
    /// one pair.
    fn check_pair(&mut self, i: usize, j: usize, k: i64, r: f64, effect: &mut Effect) {
        let t = self.bucket_time(k);
        let (Some(mine), Some(theirs)) = (self.tracks[i].pose_at(t), self.tracks[j].pose_at(t))
        else {
            return;
        };
        self.placed[i].pose = mine;
        self.placed[j].pose = theirs;
        let pair = (i.min(j) as u32, i.max(j) as u32);
        let key = (k, pair.0, pair.1);
        let standing = self.settled.contains(&key);
        let meet = Aabb::of(&self.placed[i]).overlaps(&Aabb::of(&self.placed[j]));
        if !standing && !meet {
            return;
        }
        effect.pairs += 1;
        let hit = collide(&self.placed[pair.0 as usize], &self.placed[pair.1 as usize]).is_some();
        match (hit, standing) {
            (true, false) => {
                self.settled.insert(key);
                let found = Found::new(pair, t, None, r, self.packets - 1);
                self.collisions.push(found.collision());
            }
            (false, true) => {
                self.settled.remove(&key);
                let found = Found::new(pair, t, None, r, self.packets - 1);
                self.retracted.push(found.retraction());
            }
            _ => {}
        }
    }

    /// A long span's intervals: only those where a player is near (`near`, sorted), with no
    /// box kept; boxes kept in the span are dropped (player `i`'s changed).
    fn check_near_intervals(
        &mut self,
        i: usize,
        intervals: RangeInclusive<i64>,
        near: &[(i64, u32)],
        r: f64,
        effect: &mut Effect,
    ) {
        let kept: Vec<i64> = self.swept_boxes.range(intervals).map(|(k, _)| *k).collect();
        for k in kept {
            self.swept_boxes.remove(&k);
        }
        for at_k in near.chunk_by(|x, y| x.0 == y.0) {
            let k = at_k[0].0;
            effect.intervals += 1;
            let (t0, t1) = (self.bucket_time(k), self.bucket_time(k + 1));
            let standing = self.swept_live.get(&k);
            let covers = self.tracks[i].covers(t0, t1);
            let mine = covers.then(|| SweptBox::of(&self.tracks[i], &self.placed[i].shape, t0, t1));
            let others: Vec<usize> = at_k
                .iter()
                .map(|&(_, j)| j as usize)
                .filter(|&j| {
                    let stands = standing.is_some_and(|live| {
                        live.iter()
                            .any(|&(a, b, _)| partner((a, b), i) == Some(j as u32))
                    });
                    let track = &self.tracks[j];
                    stands
                        || mine.is_some_and(|mine| {
                            track.covers(t0, t1)
                                && mine.meets(&SweptBox::of(track, &self.placed[j].shape, t0, t1))
                        })
                })
                .collect();
            self.settle_interval(i, k, others, r, effect);
        }
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
        let settled: Vec<(i64, u32, u32)> =
            self.settled.range(settled_in(&(k..=k))).copied().collect();
        for key in &settled {
            self.settled.remove(key);
        }
        let mut row = Row {
            poses: vec![None; n],
            boxes: vec![Aabb::new(Default::default(), Default::default()); n],
            grid: (n >= GRID_FROM).then(|| Grid::new(self.cell_size)),
            live: settled.iter().map(|&(_, a, b)| (a, b)).collect(),
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

    /// A row no longer held: its standing collisions kept in `settled`, where
    /// [`Self::build_row`] takes them back.
    fn settle_row(&mut self, k: i64, row: Row) {
        self.settled
            .extend(row.live.iter().map(|&(a, b)| (k, a, b)));
    }

    /// Whether a collision stands at bucket `k` for the pair.
    fn stands(&self, k: i64, pair: (u32, u32)) -> bool {
        match self.rows.get(&k) {
            Some(row) => row.live.contains(&pair),
            None => self.settled.contains(&(k, pair.0, pair.1)),
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
        self.settle_interval(i, k, others, r, effect);
    }

    /// The swept contacts of player `i` with each of `others` (sorted) between bucket `k` and
    /// the next, found again: new ones reported, those gone retracted.
    fn settle_interval(
        &mut self,
        i: usize,
        k: i64,
        others: Vec<usize>,
        r: f64,
        effect: &mut Effect,
    ) {
        let (t0, t1) = (self.bucket_time(k), self.bucket_time(k + 1));
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
            self.settle_row(k, row);
        }
        self.swept_boxes.retain(|k, _| *k >= keep_from);
    }

    /// Collisions reported and not retracted, sorted by time, then pair (what one pass over
    /// all packets at once finds).
    pub fn standing(&self) -> Vec<Finding> {
        standing(&self.collisions, &self.retracted)
    }
}

/// What one packet checks: its rows, and (swept) its intervals.
struct Work {
    rows: Plan,
    intervals: Option<Plan>,
    /// The checks it spends of what the engine allows.
    spent: u64,
}

/// Buckets (or intervals) to check: each of a short span's, or a long span's where a player is
/// near (bucket, partner), sorted.
enum Plan {
    Each(RangeInclusive<i64>),
    Near(RangeInclusive<i64>, Vec<(i64, u32)>),
}

/// The settled entries of `buckets`.
fn settled_in(buckets: &RangeInclusive<i64>) -> RangeInclusive<(i64, u32, u32)> {
    (*buckets.start(), 0, 0)..=(*buckets.end(), u32::MAX, u32::MAX)
}

/// How many buckets a range holds.
fn count(buckets: &RangeInclusive<i64>) -> u64 {
    if buckets.is_empty() {
        0
    } else {
        buckets.end().abs_diff(*buckets.start()) + 1
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
