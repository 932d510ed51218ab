//! What happened over time in a capture (docs/format.md, "What happened over time: events in
//! captures"): read as motion, frame after frame, a capture names the collisions that went
//! wrong although each claim may be right: a crate caught on the seam between two floor tiles
//! (`seam`), a bullet through a wall with no contact (`tunnelled`), a body moved out through
//! the far side (`pushed-through`), a normal that turned back (`normal-flip`), a contact the
//! engine did not recompute (`stale`).
//!
//! Step k is what the engine did between frame k and frame k + 1: each shape moves straight,
//! its position and angle interpolated from frame k to frame k + 1 (the angle the short way).
//! [`EventFinder`] reads along with a [`CaptureReader`], one frame at a time, and never holds
//! the whole capture: the poses of the last [`STALE_AGES`] frames of the shapes that move,
//! and the last frame's claims.

pub use super::event::{CaptureEvent, KINDS};
use super::event::{captured, key};
use crate::Reported;
use crate::broad::{Aabb, Grid};
use crate::capture::format::ids::{IdMap, IdSet};
use crate::capture::{CaptureReader, Frame, FrameJudgement, Keyframe};
use crate::check_contact_at;
use crate::event::{Seam, SeamCorner, Through, What};
use crate::geometry::{DVec2, Placed, Pose};
use crate::motion::crosses_interior;
use crate::query::{ToiState, Velocity, collide, distance, seam_met, time_of_impact};
use crate::scene::{Body, Precision};
use std::collections::VecDeque;

/// How far back a stale claim is looked for (frames).
pub const STALE_AGES: u64 = 120;

/// What is kept of the frame before: its claims and its shapes' motion.
struct Last {
    frame: u64,
    time: f64,
    claims: Vec<LastClaim>,
    /// The pairs claimed intersecting, lower id first, with the normal from lower to higher.
    normals: IdMap<(u64, u64), DVec2>,
    /// That frame's `normal-flip` and `stale` events, told with its step's.
    held: Vec<CaptureEvent>,
}

/// A claim of the frame before, with its shapes' body and velocity then (`None`: the frame
/// did not hold the shape).
struct LastClaim {
    a: u64,
    b: u64,
    motion: [Option<(Body, DVec2)>; 2],
    /// What it said, kept only where the step may find a seam from it (one shape dynamic, the
    /// other not): the claims between dynamic bodies, most of a game's, are not copied.
    reported: Option<Reported>,
}

/// What is kept of a shape of the last frame: small, so that looking shapes up by id stays in
/// the cache (the geometry of a shape that moves is in [`EventFinder::kept`]).
struct Tracked {
    /// The first frame it was in.
    since: u64,
    /// A shape that moves: its place in the rows of poses and in [`EventFinder::kept`].
    slot: Option<u32>,
}

/// The grid of the boxes the shapes sweep over a step, kept from step to step: while the
/// frames hold the same shapes in the same order, each entry is moved to its new box, which
/// changes the cells of only the few that cross a cell's side (a game's bodies move a little
/// a step), where building it again made every cell's list afresh, a fifth of finding events.
/// The pairs it gives are the same either way: those whose boxes overlap.
#[derive(Default)]
struct Sweep {
    /// The shapes' ids, by entry.
    ids: Vec<u64>,
    grid: Option<Grid>,
    /// Steps since it was built: it is built again now and then, its cells sized anew.
    steps: u32,
}

/// How many steps a [`Sweep`] keeps its grid, at most.
const SWEEP_STEPS: u32 = 600;

impl Sweep {
    /// The grid of `boxes`, the box of the shape `ids` gives at each place.
    fn place(&mut self, ids: impl ExactSizeIterator<Item = u64> + Clone, boxes: &[Aabb]) -> &Grid {
        self.steps += 1;
        let same = ids.len() == self.ids.len() && ids.clone().zip(&self.ids).all(|(a, b)| a == *b);
        match &mut self.grid {
            Some(grid) if same && self.steps < SWEEP_STEPS => {
                for (i, b) in boxes.iter().enumerate() {
                    grid.occupy(i as u32, *b);
                }
            }
            grid => {
                *grid = Some(Grid::build(boxes, None));
                self.ids.clear();
                self.ids.extend(ids);
                self.steps = 0;
            }
        }
        self.grid.as_ref().expect("placed")
    }
}

/// A shape that moves as it was in the last frame (its geometry copied once), with its box.
struct Kept {
    placed: Placed,
    aabb: Aabb,
}

/// Reads a capture as motion, one frame at a time, and names its events.
///
/// Call [`EventFinder::frame`] right after the reader gives each frame (it reads the poses
/// the reader holds then), and [`EventFinder::finish`] after the last: each returns the
/// events it completed, in order.
pub struct EventFinder {
    precision: Precision,
    /// The capture's unit of length, given to the events' words.
    units: String,
    last: Option<Last>,
    /// Every shape of the last frame: since when, and for those that move, their slot.
    tracked: IdMap<u64, Tracked>,
    /// The shapes that move as they were in the last frame, by slot (`None`: a slot free).
    kept: Vec<Option<Kept>>,
    /// The tunnels' grid, kept from step to step.
    sweep: Sweep,
    /// The poses of the shapes that move, a row per frame (frame, a pose per slot), the newest
    /// last, up to [`STALE_AGES`] back.
    poses: VecDeque<(u64, Vec<Pose>)>,
    /// How many slots were given, and those given back.
    slots: u32,
    free: Vec<u32>,
    /// How many frames the reader had read when the last was remembered.
    remembered: u64,
    /// Whether the engine may keep a contact from an earlier step and move it (no header that
    /// says `"contact_recycling": false`): a stale claim may then be such a kept contact.
    keeps_contacts: bool,
}

impl EventFinder {
    /// A finder for a capture computed at `precision`.
    pub fn new(precision: Precision) -> Self {
        Self {
            precision,
            units: String::new(),
            last: None,
            tracked: IdMap::default(),
            kept: Vec::new(),
            sweep: Sweep::default(),
            poses: VecDeque::new(),
            slots: 0,
            free: Vec::new(),
            remembered: 0,
            keeps_contacts: true,
        }
    }

    /// A finder for the capture `header` describes: its precision, and its unit of length in
    /// the events' words.
    pub fn for_capture(header: &crate::capture::Header) -> Self {
        let recycling = header.engine.settings.get("contact_recycling");
        Self {
            units: header.units.clone(),
            keeps_contacts: recycling != Some(&serde_json::Value::Bool(false)),
            ..Self::new(header.precision)
        }
    }

    /// The events `frame` (the frame `reader` last read, judged as `judged`) completes: the
    /// step from the frame before to it, and the frame before's own events.
    pub fn frame(
        &mut self,
        reader: &CaptureReader,
        frame: &Frame,
        judged: &FrameJudgement,
    ) -> Vec<CaptureEvent> {
        let out = self.moved(reader.state(), frame);
        self.judged(reader.state(), frame, judged);
        out
    }

    /// The first half of [`EventFinder::frame`], which needs no judgement (so it can run
    /// while the frame's claims are judged): the step's events and the frame before's own,
    /// and `frame` kept for the next step.
    pub(in crate::capture) fn moved(
        &mut self,
        state: &Keyframe,
        frame: &Frame,
    ) -> Vec<CaptureEvent> {
        let mut last = self.last.take();
        let mut out = match &mut last {
            Some(last) => {
                let mut events = std::mem::take(&mut last.held);
                let mut sweep = std::mem::take(&mut self.sweep);
                events.extend(self.step(state, last, &mut sweep));
                self.sweep = sweep;
                events
            }
            None => Vec::new(),
        };
        self.remember_poses(state, frame.frame);
        let mut held = last
            .map(|l| normal_flips(&l.normals, frame))
            .unwrap_or_default();
        self.name(state, &mut held);
        self.last = Some(self.keep(state, frame, held));
        self.name(state, &mut out);
        out.sort_by_key(key);
        out
    }

    /// The second half: `frame`'s stale claims, once judged, told with its step's events.
    pub(in crate::capture) fn judged(
        &mut self,
        state: &Keyframe,
        frame: &Frame,
        judged: &FrameJudgement,
    ) {
        let mut stale = self.stale(state, frame, judged);
        self.name(state, &mut stale);
        if let Some(last) = &mut self.last {
            last.held.extend(stale);
        }
    }

    /// The last frame's own events (`normal-flip`, `stale`): its step has no frame after it.
    pub fn finish(&mut self) -> Vec<CaptureEvent> {
        let mut out = self.last.take().map(|l| l.held).unwrap_or_default();
        out.sort_by_key(key);
        out
    }

    /// The events' shapes named as the frame names them, and the capture's unit given.
    fn name(&self, state: &Keyframe, events: &mut [CaptureEvent]) {
        for e in events {
            name_shapes(state, e);
            e.units.clone_from(&self.units);
        }
    }

    /// The tolerance of the pair (the f32 rule's tau, or 1e-9 (1 + M) at f64).
    fn tau(&self, a: &Placed, b: &Placed) -> f64 {
        match self.precision {
            Precision::F32 => crate::f32_tolerance(a, b),
            Precision::F64 => 1e-9 * (1.0 + crate::largest_coordinate(a, b)),
        }
    }

    fn remember_poses(&mut self, reader: &Keyframe, k: u64) {
        // Read right after the frame remembered last: a shape's geometry is the one copied
        // unless the reader says it changed (no need to compare it).
        let next = reader.frames_read() == self.remembered + 1;
        self.remembered = reader.frames_read();
        // This frame's poses, one per slot, written in order (the oldest frame's row reused).
        let mut row = match self.poses.len() as u64 > STALE_AGES {
            true => self
                .poses
                .pop_front()
                .map(|(_, row)| row)
                .unwrap_or_default(),
            false => Vec::new(),
        };
        row.clear();
        row.resize(self.slots as usize, Pose::IDENTITY);
        for shape in reader.shapes() {
            let tracked = self.tracked.entry(shape.id).or_insert_with(|| Tracked {
                since: k,
                slot: None,
            });
            // A static shape is read from the frame; one that ever moved is kept.
            if shape.motion.body == Body::Static && tracked.slot.is_none() {
                continue;
            }
            let slot = *tracked.slot.get_or_insert_with(|| match self.free.pop() {
                Some(slot) => slot,
                None => {
                    self.slots += 1;
                    self.slots - 1
                }
            }) as usize;
            if slot >= row.len() {
                row.resize(slot + 1, Pose::IDENTITY);
            }
            row[slot] = shape.placed.pose;
            if slot >= self.kept.len() {
                self.kept.resize_with(slot + 1, || None);
            }
            match &mut self.kept[slot] {
                Some(kept)
                    if (next && reader.same_geometry(shape.id))
                        || kept.placed.shape == shape.placed.shape =>
                {
                    kept.placed.pose = shape.placed.pose;
                    kept.aabb = Aabb::of(&kept.placed);
                }
                kept => {
                    *kept = Some(Kept {
                        placed: shape.placed.clone(),
                        aabb: Aabb::of(&shape.placed),
                    })
                }
            }
        }
        self.poses.push_back((k, row));
        // Removed shapes are gone for good (their slots taken again by shapes that come later:
        // a frame before a shape came is never asked for its pose).
        if self.tracked.len() > reader.len() {
            let (free, kept) = (&mut self.free, &mut self.kept);
            self.tracked.retain(|id, t| {
                let there = reader.shape(*id).is_some();
                if !there && let Some(slot) = t.slot {
                    free.push(slot);
                    kept[slot as usize] = None;
                }
                there
            });
        }
    }

    /// The shape `id` as it was in the last frame remembered (`None` if it was not there),
    /// with its box (kept for a shape that moves, worked out for one that does not).
    fn at_last_boxed<'a>(&'a self, reader: &'a Keyframe, id: u64) -> Option<(&'a Placed, Aabb)> {
        match self.tracked.get(&id)?.slot {
            Some(slot) => {
                let kept = self.kept[slot as usize].as_ref()?;
                Some((&kept.placed, kept.aabb))
            }
            None => reader.shape(id).map(|s| (&s.placed, Aabb::of(&s.placed))),
        }
    }

    /// The pose of the shape `id` at frame `k` (within the history), its current one if it
    /// does not move.
    fn pose_at(&self, reader: &Keyframe, id: u64, k: u64) -> Option<Pose> {
        let tracked = self.tracked.get(&id).filter(|t| t.since <= k)?;
        match tracked.slot {
            Some(slot) => {
                let (_, row) = self.poses.iter().rev().find(|(f, _)| *f == k)?;
                row.get(slot as usize).copied()
            }
            None => reader.shape(id).map(|s| s.placed.pose),
        }
    }

    fn keep(&self, reader: &Keyframe, frame: &Frame, held: Vec<CaptureEvent>) -> Last {
        let mut normals = IdMap::default();
        let motion = |id: u64| reader.shape(id).map(|s| (s.motion.body, s.motion.velocity));
        let claims: Vec<LastClaim> = (frame.claims.iter())
            .map(|c| {
                let r = &c.reported;
                if r.intersecting
                    && let Some(n) = r.normal
                {
                    let n = if c.a < c.b { n } else { -n };
                    normals.insert((c.a.min(c.b), c.a.max(c.b)), n);
                }
                let motion = [motion(c.a), motion(c.b)];
                // A seam wants a dynamic shape against a static or kinematic one.
                let dynamic = motion.map(|m| m.map(|(body, _)| body == Body::Dynamic));
                let seam = matches!(
                    dynamic,
                    [Some(true), Some(false)] | [Some(false), Some(true)]
                );
                LastClaim {
                    a: c.a,
                    b: c.b,
                    motion,
                    reported: seam.then(|| r.clone()),
                }
            })
            .collect();
        Last {
            frame: frame.frame,
            time: frame.time,
            claims,
            normals,
            held,
        }
    }

    /// `stale`: each disagreeing claim of `frame` that agrees with the exact result at the
    /// poses of an earlier frame, or with that result kept and moved to this frame's poses as
    /// the engines move a kept contact ([`crate::capture::analysis::kept::kept_contact`]: then `normal` is the
    /// kept normal), the nearest such.
    fn stale(
        &self,
        reader: &Keyframe,
        frame: &Frame,
        judged: &FrameJudgement,
    ) -> Vec<CaptureEvent> {
        let mut out = Vec::new();
        for j in judged.claims.iter().filter(|j| !j.agrees()) {
            let (Some(sa), Some(sb)) = (reader.shape(j.a), reader.shape(j.b)) else {
                continue;
            };
            let since = |id: u64| self.tracked.get(&id).map(|t| t.since);
            let oldest = since(j.a).max(since(j.b)).unwrap_or(frame.frame);
            let reach = frame.frame.saturating_sub(oldest).min(STALE_AGES);
            let rule = crate::Agreement::for_pair(self.precision, &sa.placed, &sb.placed);
            let now = (sa.placed.pose, sb.placed.pose);
            let found = (1..=reach).find_map(|m| {
                let k = frame.frame - m;
                let (pa, pb) = (self.pose_at(reader, j.a, k)?, self.pose_at(reader, j.b, k)?);
                let a = Placed::new(sa.placed.shape.clone(), pa);
                let b = Placed::new(sb.placed.shape.clone(), pb);
                if check_contact_at(&a, &b, &j.claimed, self.precision).agrees {
                    return Some((m, None));
                }
                // A chain's piece is judged by the chain rule: no kept contact is made for it;
                // nor is one by an engine that says it recomputes every contact every step.
                if !self.keeps_contacts || j.claimed.piece.is_some() {
                    return None;
                }
                let kept = crate::capture::analysis::kept::kept_contact((&a, &b), now)?;
                rule.agrees(&kept.outcome, &j.claimed)
                    .then_some((m, Some(kept.normal)))
            });
            if let Some((m, kept)) = found {
                out.push(captured(
                    (frame.frame, frame.time),
                    (j.a, j.b),
                    What::Stale {
                        age: m,
                        normal: kept,
                    },
                ));
            }
        }
        out
    }

    /// The events of the step from `last` to the frame `reader` just read: `seam`,
    /// `tunnelled`, `pushed-through`.
    fn step(&self, reader: &Keyframe, last: &Last, sweep: &mut Sweep) -> Vec<CaptureEvent> {
        let at = (last.frame, last.time);
        let before_boxed = |id: u64| self.at_last_boxed(reader, id);
        let mut out = Vec::new();
        let mut claimed = IdSet::default();
        for claim in &last.claims {
            let (a, b) = (&claim.a, &claim.b);
            claimed.insert(((*a).min(*b), (*a).max(*b)));
            let (Some((pa, box_a)), Some((pb, box_b))) = (before_boxed(*a), before_boxed(*b))
            else {
                continue;
            };
            let [ma, mb] = claim.motion.each_ref().map(Option::as_ref);
            // Seam: X dynamic, T static or kinematic (the claim kept only then).
            for (x, t, px, pt, mx, mt, toward) in [
                (*b, *a, pb, pa, mb, ma, 1.0),
                (*a, *b, pa, pb, ma, mb, -1.0),
            ] {
                let (Some(&(Body::Dynamic, v0)), Some(&(bt, _))) = (mx, mt) else {
                    continue;
                };
                if bt == Body::Dynamic || pt.shape.as_chain().is_some() {
                    continue;
                }
                let Some(reported) = &claim.reported else {
                    continue;
                };
                if let Some(e) = self.seam(reader, at, reported, (x, px, v0), (t, pt), toward) {
                    out.push(e);
                }
            }
            // Pushed through: a dynamic shape's centre path across the other's inside.
            for (x, px, pt, box_t, mx) in [(*a, pa, pb, box_b, ma), (*b, pb, pa, box_a, mb)] {
                if !matches!(mx, Some((Body::Dynamic, _))) {
                    continue;
                }
                let Some(now) = reader.shape(x) else { continue };
                let (from, to) = (px.pose.position, now.placed.pose.position);
                // A path that misses T's box crosses nothing.
                if !box_t.meets_segment(from, to) {
                    continue;
                }
                if crosses_interior(pt, from, to) {
                    out.push(captured(
                        at,
                        (*a, *b),
                        What::PushedThrough {
                            shape: x,
                            from,
                            to,
                            push: None,
                        },
                    ));
                }
            }
        }
        out.extend(self.tunnels(reader, at, &claimed, sweep));
        out
    }

    /// A seam event, if the claim's normal names a face of T that U covers where they touch.
    fn seam(
        &self,
        reader: &Keyframe,
        at: (u64, f64),
        reported: &Reported,
        (x, px, v0): (u64, &Placed, DVec2),
        (t, pt): (u64, &Placed),
        toward: f64,
    ) -> Option<CaptureEvent> {
        // The claim's normal is from A toward B; `toward` turns it from T toward X.
        let n = reported.normal?.try_normalize()? * toward;
        let tau = self.tau(px, pt);
        let touch = match reported.contacts.as_deref().and_then(|c| c.first()) {
            Some(p) => *p,
            None if !reported.intersecting => {
                let proximity = distance(pt, px);
                proximity.closest?.point_a
            }
            None => return None,
        };
        // The other static or kinematic shapes U (a kinematic one at its frame-k pose), the
        // lowest id first: a seam where one covers the face the normal names, or carries a
        // face of T on straight through the corner met (the rule `simulate` uses too).
        let mut others: Vec<(u64, &Placed, f64)> = reader
            .shapes()
            .filter(|u| u.id != x && u.id != t && u.motion.body != Body::Dynamic)
            .filter_map(|u| match u.motion.body {
                Body::Static => Some((u.id, &u.placed, tau)),
                // A kinematic shape moves: its box is kept, not worked out.
                _ => self
                    .at_last_boxed(reader, u.id)
                    .map(|(p, _)| (u.id, p, tau)),
            })
            .collect();
        others.sort_unstable_by_key(|(id, _, _)| *id);
        let (covered_by, corner) = seam_met(pt, tau, touch, n, px.pose.position, others)?;
        let corner = corner.map(|c| (c.corner, c.surface_normal));
        let v1 = reader.shape(x).map_or(DVec2::ZERO, |s| s.motion.velocity);
        let (s0, s1) = (v0.dot(-n), v1.dot(-n));
        Some(captured(
            at,
            (x, t),
            What::Seam(Seam {
                shape: x,
                face_of: t,
                covered_by,
                normal: n,
                speed_before: s0,
                speed_after: s1,
                caught: s0 > 0.0 && s1 < s0 / 2.0,
                // What the solver did with this contact over the step: the claim's impulses
                // (a frame holds the step's solve), added up.
                impulse: reported.impulses.as_ref().map(|j| j.iter().sum()),
                corner: corner.map(|(corner, surface_normal)| SeamCorner {
                    corner,
                    surface_normal,
                }),
            }),
        ))
    }

    /// `tunnelled`: pairs with a dynamic shape, unclaimed in the frame before, apart at both
    /// ends of the step, whose straight motions overlap by more than tau during it.
    fn tunnels(
        &self,
        reader: &Keyframe,
        at: (u64, f64),
        claimed: &IdSet<(u64, u64)>,
        sweep: &mut Sweep,
    ) -> Vec<CaptureEvent> {
        struct Moving<'r> {
            id: u64,
            dynamic: bool,
            start: &'r Placed,
            end: &'r Placed,
            velocity: Velocity,
            /// How far from its position a point of it may be (its box's farthest corner).
            reach: f64,
            /// Its box at the start of the step.
            start_box: Aabb,
        }
        let mut shapes: Vec<Moving> = Vec::with_capacity(reader.len());
        for s in reader.shapes() {
            let Some((start, start_box)) = self.at_last_boxed(reader, s.id) else {
                continue;
            };
            let end = &s.placed;
            let turn = shortest_turn(start.pose.angle(), end.pose.angle());
            let velocity = Velocity {
                linear: end.pose.position - start.pose.position,
                angular: turn,
            };
            let at = start.pose.position;
            let reach = (start_box.min - at)
                .abs()
                .max((start_box.max - at).abs())
                .length();
            shapes.push(Moving {
                id: s.id,
                dynamic: s.motion.body == Body::Dynamic,
                start,
                end,
                velocity,
                reach,
                start_box,
            });
        }
        if !shapes
            .iter()
            .any(|m| m.dynamic && m.velocity != Velocity::default())
        {
            return Vec::new();
        }
        // A shape that stayed put covers its start box; one that moved, both.
        let boxes: Vec<Aabb> = shapes
            .iter()
            .map(|m| match m.velocity == Velocity::default() {
                true => m.start_box,
                false => m.start_box.union(&Aabb::of(m.end)),
            })
            .collect();
        let grid = sweep.place(shapes.iter().map(|m| m.id), &boxes);
        // The pairs that might have met: a dynamic shape, unclaimed, close enough that their
        // motions could close the gap between their boxes (the relative move, and each turn's
        // sweep at its reach).
        let mut near: Vec<(u32, u32, f64)> = Vec::new();
        grid.for_each_candidate(|i, j| {
            let (m, o) = (&shapes[i as usize], &shapes[j as usize]);
            if !(m.dynamic || o.dynamic) {
                return;
            }
            let (sm, so) = (&m.start_box, &o.start_box);
            let gap = (so.min - sm.max)
                .max(sm.min - so.max)
                .max(DVec2::ZERO)
                .length();
            let closing = (m.velocity.linear - o.velocity.linear).length()
                + m.velocity.angular.abs() * m.reach
                + o.velocity.angular.abs() * o.reach;
            // The claimed pairs looked up last: most candidates are too far apart.
            if gap <= closing && !claimed.contains(&(m.id.min(o.id), m.id.max(o.id))) {
                near.push((i, j, closing));
            }
        });
        let tunnel = |&(i, j, closing): &(u32, u32, f64)| -> Option<CaptureEvent> {
            let (m, o) = (&shapes[i as usize], &shapes[j as usize]);
            // Nor when they are farther apart than that (most near neighbours: far cheaper
            // than the time of impact), or not apart at the start (the pair's tolerance is
            // worked out only for those near enough).
            let start = distance(m.start, o.start).distance;
            if start > closing {
                return None;
            }
            let tau = self.tau(m.start, o.start);
            if start <= tau {
                return None;
            }
            let apart =
                |a: &Placed, b: &Placed| distance(a, b).distance > tau && collide(a, b).is_none();
            if collide(m.start, o.start).is_some() || !apart(m.end, o.end) {
                return None;
            }
            let toi = time_of_impact(m.start, m.velocity, o.start, o.velocity, 1.0);
            let (ToiState::Hit, Some(enter)) = (toi.state, toi.toi) else {
                return None;
            };
            let depth = deepest(m, o, enter);
            if depth <= tau {
                return None;
            }
            // The dynamic one (the lower id when both are).
            let x = match (m.dynamic, o.dynamic) {
                (true, true) => m.id.min(o.id),
                (true, false) => m.id,
                _ => o.id,
            };
            Some(captured(
                at,
                (m.id, o.id),
                What::Tunnelled {
                    shape: x,
                    piece: None,
                    through: Through::Step { t: enter, depth },
                },
            ))
        };
        // Measured exactly on every core where there are threads (the order is restored by
        // the caller's sort).
        #[cfg(feature = "parallel")]
        let out: Vec<CaptureEvent> = {
            use rayon::prelude::*;
            near.par_iter().filter_map(tunnel).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let out: Vec<CaptureEvent> = near.iter().filter_map(tunnel).collect();
        fn deepest(m: &Moving, o: &Moving, enter: f64) -> f64 {
            let depth_at = |t: f64| {
                let a = Placed::new(m.start.shape.clone(), m.velocity.advance(m.start.pose, t));
                let b = Placed::new(o.start.shape.clone(), o.velocity.advance(o.start.pose, t));
                collide(&a, &b).map_or(0.0, |c| c.depth)
            };
            // Sample the step after the first touch, then refine around the deepest sample
            // (golden section).
            let samples = 64;
            let (mut best_t, mut best) = (enter, 0.0);
            for k in 0..=samples {
                let t = enter + (1.0 - enter) * k as f64 / samples as f64;
                let d = depth_at(t);
                if d > best {
                    (best_t, best) = (t, d);
                }
            }
            let step = (1.0 - enter) / samples as f64;
            let (mut lo, mut hi) = ((best_t - step).max(enter), (best_t + step).min(1.0));
            let ratio = (5f64.sqrt() - 1.0) / 2.0;
            for _ in 0..60 {
                let (c, d) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
                if depth_at(c) > depth_at(d) {
                    hi = d;
                } else {
                    lo = c;
                }
            }
            best.max(depth_at(0.5 * (lo + hi)))
        }
        out
    }
}

/// `normal-flip`: pairs claimed intersecting in the frame before and in `frame` whose
/// normals (lower id toward higher) point against each other.
fn normal_flips(before: &IdMap<(u64, u64), DVec2>, frame: &Frame) -> Vec<CaptureEvent> {
    let mut out = Vec::new();
    let mut seen = IdSet::default();
    for c in &frame.claims {
        let (Some(n), true) = (c.reported.normal, c.reported.intersecting) else {
            continue;
        };
        let pair = (c.a.min(c.b), c.a.max(c.b));
        let n = if c.a < c.b { n } else { -n };
        if let Some(m) = before.get(&pair)
            && m.dot(n) < 0.0
            && seen.insert(pair)
        {
            out.push(captured(
                (frame.frame, frame.time),
                pair,
                What::NormalFlip {
                    normal_before: *m,
                    normal: n,
                },
            ));
        }
    }
    out
}

/// The shape's names for the event's words.
fn name_shapes(reader: &Keyframe, e: &mut CaptureEvent) {
    for id in e.shapes() {
        if let Some(s) = reader.shape(id) {
            e.names.insert(id, s.display_name());
        }
    }
}

/// The turn from angle `a` to angle `b` the short way round (radians, in [-pi, pi]).
pub(crate) fn shortest_turn(a: f64, b: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    let d = (b - a).rem_euclid(tau);
    if d > std::f64::consts::PI { d - tau } else { d }
}
