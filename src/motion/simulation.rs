//! One scene stepped through time (see the module documentation for what a step does).

use super::config::{Config, MAX_SUBSTEPS, Resolver, Substeps};
use super::events::Event;
use crate::broad::{Aabb, Grid};
use crate::event::{EventKind, Seam, SeamCorner, Through, What};
use crate::geometry::Shape;
use crate::geometry::{DVec2, Placed, Pose};
use crate::query::CornerSeam;
use crate::query::{
    ChainRule, ToiState, Velocity, chain_piece, chain_time_of_impact, collide, distance_to_point,
    mistaken_report, piece_outcome, piece_segment, ray_cast, safe_step, time_of_impact,
};
use crate::scene::{Body, Scene};
use std::collections::BTreeMap;

/// After a step, a pair with a dynamic body whose true depth is above this is
/// `still-penetrating`.
pub const STILL_PENETRATING: f64 = 1e-6;

/// A move counts as `pushed-in` when the true depth after it exceeds the depth before by more
/// than this much of it (and of 1): rounding never makes an event.
const DEEPER: f64 = 1e-9;

/// A scene being stepped.
#[derive(Clone, Debug)]
pub struct Simulation {
    scene: Scene,
    config: Config,
    /// Steps done.
    steps: u64,
    /// The resolver's normal (A toward B) of each pair resolved in the last step, by pair.
    last_normals: BTreeMap<(usize, usize), DVec2>,
    /// Each shape's place in an order its geometry decides (see [`geometric_ranks`]): pairs are
    /// taken A before B and one after another in this order, never by list position, so the
    /// same scene listed in another order runs the same, bit for bit.
    ranks: Vec<usize>,
}

/// The shapes' places in an order their geometry decides, whatever order the file lists them
/// in: by world bounding box (left, bottom, right, top), then pose, kind, body, velocity, the
/// shape's own numbers, and name. Only shapes alike in all of these (which then behave alike)
/// are left in list order.
pub fn geometric_ranks(scene: &Scene) -> Vec<usize> {
    let key = |k: usize| {
        let s = &scene.shapes[k];
        let (lo, hi) = s.placed.aabb();
        let pose = s.placed.pose;
        let v = s.motion.velocity;
        let mut numbers = vec![
            lo.x,
            lo.y,
            hi.x,
            hi.y,
            pose.position.x,
            pose.position.y,
            pose.angle(),
            s.placed.shape.kind() as u8 as f64,
            s.motion.body as u8 as f64,
            v.x,
            v.y,
            s.motion.angular_velocity,
        ];
        numbers.extend(shape_numbers(&s.placed.shape));
        numbers
    };
    let keys: Vec<Vec<f64>> = (0..scene.shapes.len()).map(key).collect();
    let mut order: Vec<usize> = (0..scene.shapes.len()).collect();
    order.sort_by(|&x, &y| {
        keys[x]
            .iter()
            .zip(&keys[y])
            .map(|(p, q)| p.total_cmp(q))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| keys[x].len().cmp(&keys[y].len()))
            .then_with(|| scene.shapes[x].name.cmp(&scene.shapes[y].name))
    });
    let mut ranks = vec![0; order.len()];
    for (rank, k) in order.into_iter().enumerate() {
        ranks[k] = rank;
    }
    ranks
}

/// The numbers that make a shape in its own frame.
fn shape_numbers(shape: &Shape) -> Vec<f64> {
    let points = |ps: &[DVec2]| ps.iter().flat_map(|p| [p.x, p.y]).collect::<Vec<f64>>();
    match shape {
        Shape::Circle(c) => vec![c.radius()],
        Shape::Capsule(c) => vec![c.a().x, c.a().y, c.b().x, c.b().y, c.radius()],
        Shape::Polygon(p) => {
            let mut numbers = points(&p.points_as_given());
            numbers.push(p.radius());
            numbers
        }
        Shape::Segment(s) => vec![s.a().x, s.a().y, s.b().x, s.b().y],
        Shape::Chain(c) => points(c.points()),
    }
}

/// What one step did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepOutcome {
    /// Its events, by kind, then pair.
    pub events: Vec<Event>,
    /// How many substeps it took.
    pub substeps: u32,
    /// How many contacts were resolved.
    pub resolved: usize,
}

/// The pair's contact as the resolver sees it: the normal (A toward B) and the depth. For a
/// pair with a chain, `piece`'s: by the chain rule, or by the resolver's mistake where it
/// applies to a piece (`internal-edge`: the piece as a two-sided segment).
fn resolver_mtv(
    resolver: Resolver,
    a: &Placed,
    b: &Placed,
    piece: Option<usize>,
) -> Option<(DVec2, f64)> {
    if let Some(k) = piece {
        let result = chain_piece(a, b, k)?;
        let mistake = match resolver {
            Resolver::Sat => None,
            Resolver::Mistake(m) => Some(m).filter(|m| m.on_pieces()),
        };
        let outcome = piece_outcome(mistake, &result)?;
        return outcome
            .normal
            .filter(|_| outcome.intersecting)
            .map(|n| (n, outcome.depth));
    }
    match resolver {
        Resolver::Sat => collide(a, b).map(|c| (c.normal, c.depth)),
        Resolver::Mistake(m) => mistaken_report(m, a, b).mtv.map(|m| (m.normal, m.depth)),
    }
}

/// A contact the resolver sees at a scene's poses: the pair (list positions, A first), the
/// chain's piece for a pair with a chain, the normal (A toward B) and the depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResolverContact {
    /// Shape A's list position.
    pub a: usize,
    /// Shape B's list position.
    pub b: usize,
    /// The chain's piece, for a pair with a chain.
    pub piece: Option<usize>,
    /// The normal, A toward B.
    pub normal: DVec2,
    /// How deep.
    pub depth: f64,
}

/// A contact measured for resolution within a substep: the pair (A ranked first), the chain's
/// piece, the resolver's normal (A toward B) and depth, the pair's true depth then, and the
/// seam its normal is on, if any (see `Simulation::seam`).
#[derive(Clone, Copy, Debug)]
struct Contact {
    i: usize,
    j: usize,
    piece: Option<usize>,
    normal: DVec2,
    depth: f64,
    depth_before: f64,
    seam: Option<SeamFound>,
}

/// One contact's push on a dynamic body: the push, the other shape's rank and the chain's
/// piece (what orders pushes of equal depth), and the contact's normal into the other shape.
#[derive(Clone, Copy, Debug)]
struct Push {
    push: DVec2,
    other_rank: usize,
    piece: Option<usize>,
    into: DVec2,
}

/// What a step gathers over its substeps: the resolver's normal of each pair resolved, the
/// events, and the pairs that passed through each other (told at the step's end when nothing
/// between them was resolved).
#[derive(Default)]
struct StepNotes {
    resolved: BTreeMap<(usize, usize), DVec2>,
    events: Vec<Event>,
    passed: BTreeMap<(usize, usize), Event>,
}

/// A seam a contact's normal is on: the dynamic body X, the shape T whose face or corner it
/// met, the shape U that covers that face (or carries the surface on through the corner), the
/// normal from T toward X, and for a corner seam the corner and the surface's normal.
#[derive(Clone, Copy, Debug)]
struct SeamFound {
    x: usize,
    t: usize,
    u: usize,
    n: DVec2,
    corner: Option<CornerSeam>,
}

/// What a substep's resolver saw (see [`Simulation::step_watched`]).
#[derive(Clone, Copy, Debug)]
pub struct Resolution<'a> {
    /// When (seconds from the run's start): the end of the substep.
    pub time: f64,
    /// The scene after the substep's motion, before its resolution (velocities as they were
    /// then, gravity added).
    pub scene: &'a Scene,
    /// The contacts resolved there (A the shape first in the geometric order).
    pub contacts: &'a [ResolverContact],
}

/// Every contact `resolver` resolves at `scene`'s poses (pairs with a dynamic body whose
/// boxes overlap, a chain's pair piece by piece), in pair order: what a step's first substep
/// starts from, and what a run saved as a capture reports as its engine's contacts.
pub fn resolver_contacts(scene: &Scene, resolver: Resolver) -> Vec<ResolverContact> {
    let shapes = &scene.shapes;
    let boxes: Vec<Aabb> = shapes.iter().map(|s| Aabb::of(&s.placed)).collect();
    let mut pairs: Vec<(usize, usize)> = Grid::build(&boxes, None)
        .candidate_pairs()
        .into_iter()
        .map(|(i, j)| (i as usize, j as usize))
        .collect();
    pairs.sort_unstable();
    let dynamic = |k: usize| shapes[k].motion.body == Body::Dynamic;
    let mut contacts = Vec::new();
    for (a, b) in pairs.into_iter().filter(|&(i, j)| dynamic(i) || dynamic(j)) {
        let (pa, pb) = (&shapes[a].placed, &shapes[b].placed);
        for piece in resolved_parts(&pa.shape, &pb.shape) {
            if let Some((normal, depth)) = resolver_mtv(resolver, pa, pb, piece) {
                contacts.push(ResolverContact {
                    a,
                    b,
                    piece,
                    normal,
                    depth,
                });
            }
        }
    }
    contacts
}

/// What a pair is resolved as: once (`None`), or piece by piece for a pair with a chain.
fn resolved_parts(a: &Shape, b: &Shape) -> Vec<Option<usize>> {
    match (a.as_chain(), b.as_chain()) {
        (Some(_), Some(_)) => Vec::new(),
        (Some(c), None) | (None, Some(c)) => c.piece_numbers().map(Some).collect(),
        (None, None) => vec![None],
    }
}

/// The unit direction along the surface a contact is with: a segment's `unit(b - a)` or a
/// chain's piece's `e1` (world), when the pair has one.
fn surface_direction(a: &Placed, b: &Placed, piece: Option<usize>) -> Option<DVec2> {
    [a, b].into_iter().find_map(|p| match &p.shape {
        Shape::Segment(s) => (p.pose.apply(s.b()) - p.pose.apply(s.a())).try_normalize(),
        Shape::Chain(c) => {
            let piece = c.piece(piece?)?;
            (p.pose.apply(piece.p2) - p.pose.apply(piece.p1)).try_normalize()
        }
        _ => None,
    })
}

/// Where continuous collision stops a pair's motion within `h`: the first touch, with its
/// normal (A toward B). With a chain, the first piece met on a face the rule admits (with
/// `internal-edge`, any piece met, as a two-sided segment would stop it); a piece the shape
/// starts behind lets it through.
fn first_stop(
    resolver: Resolver,
    (a, va): (&Placed, Velocity),
    (b, vb): (&Placed, Velocity),
    h: f64,
) -> Option<(f64, DVec2)> {
    let hit = |toi: &crate::query::Toi| match (toi.state, toi.toi, toi.normal) {
        (ToiState::Hit, Some(t), Some(normal)) => Some((t, normal)),
        _ => None,
    };
    let chain = a.shape.as_chain().is_some() || b.shape.as_chain().is_some();
    if chain && resolver == Resolver::Mistake(crate::query::Mistake::InternalEdge) {
        // Every piece as a two-sided segment, except one the shape starts behind.
        return chain_time_of_impact(a, va, b, vb, h)
            .iter()
            .filter(|p| p.rule != Some(ChainRule::Behind))
            .filter_map(|p| hit(&p.toi))
            .min_by(|x, y| x.0.total_cmp(&y.0));
    }
    hit(&time_of_impact(a, va, b, vb, h))
}

/// A velocity change along a surface above this part of `1 + |v|` is a catch.
const CAUGHT: f64 = 1e-6;

/// The pair's true depth (0 when apart or touching).
fn true_depth(a: &Placed, b: &Placed) -> f64 {
    collide(a, b).map_or(0.0, |c| c.depth)
}

/// `velocity` less its part along `n` when that part is positive (moving along `n` into
/// something): what is left slides.
fn without_part_along(velocity: DVec2, n: DVec2) -> DVec2 {
    let into = velocity.dot(n);
    if into > 0.0 {
        velocity - n * into
    } else {
        velocity
    }
}

impl Simulation {
    /// `scene` at time 0, to be stepped by `config`.
    pub fn new(scene: Scene, config: Config) -> Self {
        Self {
            ranks: geometric_ranks(&scene),
            scene,
            config,
            steps: 0,
            last_normals: BTreeMap::new(),
        }
    }

    /// The scene now.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// How it runs.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Every shape's position now, in list order.
    fn positions(&self) -> Vec<DVec2> {
        self.scene
            .shapes
            .iter()
            .map(|s| s.placed.pose.position)
            .collect()
    }

    /// How many steps have been done.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Into how many substeps the next step is split.
    pub fn substep_count(&self) -> u32 {
        match self.config.substeps {
            Substeps::Fixed(k) => k,
            Substeps::Bound => {
                let smallest = self
                    .scene
                    .shapes
                    .iter()
                    .filter(|s| s.motion.body != Body::Static)
                    .filter_map(|s| safe_step(&s.placed.shape, s.motion.velocity.length()))
                    .fold(f64::INFINITY, f64::min);
                let k = (self.config.dt / smallest).ceil();
                if k.is_nan() || k < 1.0 {
                    1
                } else {
                    k.min(MAX_SUBSTEPS as f64) as u32
                }
            }
        }
    }

    /// One step of `dt`: move, resolve, and tell what happened.
    pub fn step(&mut self) -> StepOutcome {
        self.step_watched(&mut |_| {})
    }

    /// [`Simulation::step`], showing `watch` what the resolver saw in each substep: the scene
    /// after the substep's motion and before its resolution, and the contacts it resolved
    /// there (what a run saved as a capture holds, frame by frame).
    pub fn step_watched(&mut self, watch: &mut dyn FnMut(Resolution)) -> StepOutcome {
        self.steps += 1;
        let substeps = self.substep_count();
        let h = self.config.dt / substeps as f64;
        let mut notes = StepNotes::default();
        let mut count = 0;
        let step_start = self.positions();
        let start_time = (self.steps - 1) as f64 * self.config.dt;
        for k in 0..substeps {
            let time = start_time + (k + 1) as f64 * h;
            count += self.substep((h, time), &step_start, &mut notes, watch);
        }
        let StepNotes {
            resolved,
            mut events,
            passed,
        } = notes;
        // One pushed-through event per pair and body in a step: the first substep's.
        let mut seen = std::collections::BTreeSet::new();
        events
            .retain(|e| e.kind() != EventKind::PushedThrough || seen.insert((e.a, e.b, e.shape())));
        // Passing through counts only when nothing between the two was resolved all step.
        events.extend(
            passed
                .into_iter()
                .filter(|(pair, _)| !resolved.contains_key(pair))
                .map(|(_, event)| event),
        );
        for (pair, normal) in &resolved {
            if let Some(before) = self.last_normals.get(pair)
                && before.dot(*normal) < 0.0
            {
                events.push(Event::new(
                    self.steps,
                    *pair,
                    What::NormalFlip {
                        normal_before: *before,
                        normal: *normal,
                    },
                ));
            }
        }
        events.extend(self.still_penetrating());
        // Told as list positions, a < b, whichever shape the step took first.
        for e in &mut events {
            if e.a > e.b {
                std::mem::swap(&mut e.a, &mut e.b);
                e.what.turned();
            }
        }
        events.sort_by_key(|e| (e.kind(), e.a, e.b));
        self.last_normals = resolved;
        StepOutcome {
            events,
            substeps,
            resolved: count,
        }
    }

    /// The pairs with a dynamic body that overlap by more than [`STILL_PENETRATING`] now.
    fn still_penetrating(&self) -> Vec<Event> {
        let shapes = &self.scene.shapes;
        let boxes: Vec<Aabb> = shapes.iter().map(|s| Aabb::of(&s.placed)).collect();
        let mut pairs = self.candidates(&boxes);
        pairs.retain(|&(i, j)| self.has_dynamic(i, j));
        pairs
            .into_iter()
            .filter_map(|(i, j)| {
                let depth = true_depth(&shapes[i].placed, &shapes[j].placed);
                (depth > STILL_PENETRATING)
                    .then(|| Event::new(self.steps, (i, j), What::StillPenetrating { depth }))
            })
            .collect()
    }

    /// A ghost collision on separate shapes (docs/format.md, "Seams"): the pair has a dynamic
    /// X and a static or kinematic T (not a chain), and the resolver's `normal` (from i toward
    /// j), turned from T toward X, is a face of T that another static or kinematic shape U
    /// covers at the pair's first contact point; or it meets a corner of T where U's face
    /// carries T's face on in a straight line while the normal leans from that surface ("A
    /// seam at a corner"). U the first such in rank order.
    fn seam(&self, i: usize, j: usize, normal: DVec2) -> Option<SeamFound> {
        let shapes = &self.scene.shapes;
        let still = |k: usize| shapes[k].motion.body != Body::Dynamic;
        let (x, t, n) = match (still(i), still(j)) {
            (true, false) => (j, i, normal),
            (false, true) => (i, j, -normal),
            _ => return None,
        };
        let (pt, px) = (&shapes[t].placed, &shapes[x].placed);
        if pt.shape.as_chain().is_some() {
            return None;
        }
        let touch = collide(pt, px)?.points.first()?.point;
        let largest = |p: &Placed| {
            let (lo, hi) = p.aabb();
            lo.abs().max(hi.abs()).max_element()
        };
        let m = largest(pt).max(largest(px));
        let e = |u: usize| 1e-9 * (1.0 + m.max(largest(&shapes[u].placed)));
        // The other static or kinematic shapes U, in rank order, each at its own e.
        let others = self
            .by_rank()
            .into_iter()
            .filter(|&u| u != x && u != t && still(u))
            .map(|u| (u, &shapes[u].placed, e(u)));
        let (u, corner) = crate::query::seam_met(pt, e(t), touch, n, px.pose.position, others)?;
        Some(SeamFound { x, t, u, n, corner })
    }

    fn has_dynamic(&self, i: usize, j: usize) -> bool {
        let dynamic = |k: usize| self.scene.shapes[k].motion.body == Body::Dynamic;
        dynamic(i) || dynamic(j)
    }

    /// Every pair whose boxes overlap, each A before B in rank order, in rank order.
    fn candidates(&self, boxes: &[Aabb]) -> Vec<(usize, usize)> {
        let grid = Grid::build(boxes, None);
        let rank = &self.ranks;
        let mut pairs: Vec<(usize, usize)> = grid
            .candidate_pairs()
            .into_iter()
            .map(|(i, j)| (i as usize, j as usize))
            .map(|(i, j)| if rank[i] <= rank[j] { (i, j) } else { (j, i) })
            .collect();
        pairs.sort_unstable_by_key(|&(i, j)| (rank[i], rank[j]));
        pairs
    }

    /// The shapes in rank order.
    fn by_rank(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ranks.len()).collect();
        order.sort_unstable_by_key(|&k| self.ranks[k]);
        order
    }

    /// The contact of `i` and `j` (of `piece`, for a pair with a chain) as the resolver sees
    /// it at the poses now, with what its events need.
    fn measure(&self, i: usize, j: usize, piece: Option<usize>) -> Option<Contact> {
        let shapes = &self.scene.shapes;
        let (pa, pb) = (&shapes[i].placed, &shapes[j].placed);
        let resolver = self.config.resolver;
        // A named mistake is a bug of an engine that takes a pair in its own order: it sees
        // the shape listed first as A, as it always did. The correct resolver takes the pair
        // in rank order.
        let (normal, depth) = match resolver {
            Resolver::Mistake(_) if i > j => {
                resolver_mtv(resolver, pb, pa, piece).map(|(n, depth)| (-n, depth))?
            }
            _ => resolver_mtv(resolver, pa, pb, piece)?,
        };
        Some(Contact {
            i,
            j,
            piece,
            normal,
            depth,
            depth_before: true_depth(pa, pb),
            seam: self.seam(i, j, normal),
        })
    }

    /// Resolve `contacts`, all measured at the same poses: each dynamic body is moved once, by
    /// its contacts' pushes combined deepest first (a push counts only for what the pushes
    /// before it did not already do along its direction, so two tiles under a box lift it
    /// once), and loses the part of its velocity that points into each; then their events.
    fn apply(
        &mut self,
        contacts: &[Contact],
        (step_start, substep_start): (&[DVec2], &[DVec2]),
        resolved: &mut BTreeMap<(usize, usize), DVec2>,
        events: &mut Vec<Event>,
    ) {
        let n = self.scene.shapes.len();
        let dynamic: Vec<bool> = (0..n)
            .map(|k| self.scene.shapes[k].motion.body == Body::Dynamic)
            .collect();
        let velocity_before: Vec<DVec2> = self
            .scene
            .shapes
            .iter()
            .map(|s| s.motion.velocity)
            .collect();
        let position_before = self.positions();
        // Each contact's push on each of its shapes (zero on one not pushed).
        let push = |c: &Contact| {
            let share = if dynamic[c.i] && dynamic[c.j] {
                0.5
            } else {
                1.0
            };
            let along = c.normal * c.depth * share;
            [
                if dynamic[c.i] { -along } else { DVec2::ZERO },
                if dynamic[c.j] { along } else { DVec2::ZERO },
            ]
        };
        // Each body's pushes.
        let mut pushes: Vec<Vec<Push>> = vec![Vec::new(); n];
        for c in contacts {
            let [on_i, on_j] = push(c);
            for (k, other, push, into) in [(c.i, c.j, on_i, c.normal), (c.j, c.i, on_j, -c.normal)]
            {
                if dynamic[k] {
                    pushes[k].push(Push {
                        push,
                        other_rank: self.ranks[other],
                        piece: c.piece,
                        into,
                    });
                }
            }
        }
        for (k, mut list) in pushes.into_iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            list.sort_by(|x, y| {
                y.push
                    .length()
                    .total_cmp(&x.push.length())
                    .then(x.other_rank.cmp(&y.other_rank))
                    .then(x.piece.cmp(&y.piece))
            });
            let mut total = DVec2::ZERO;
            let mut velocity = velocity_before[k];
            for Push { push, into, .. } in list {
                // What this push adds along its own direction to the pushes before it.
                if let Some(direction) = push.try_normalize() {
                    let more = push.length() - total.dot(direction);
                    if more > 0.0 {
                        total += direction * more;
                    }
                }
                velocity = without_part_along(velocity, into);
            }
            let s = &mut self.scene.shapes[k];
            s.placed.pose = Pose::new(s.placed.pose.position + total, s.placed.pose.angle());
            s.motion.velocity = velocity;
        }
        // The deepest part of a pair gives its normal for the next step's comparison.
        let mut deepest: BTreeMap<(usize, usize), (f64, DVec2)> = BTreeMap::new();
        for c in contacts {
            let kept = deepest.entry((c.i, c.j)).or_insert((c.depth, c.normal));
            if c.depth > kept.0 {
                *kept = (c.depth, c.normal);
            }
        }
        resolved.extend(
            deepest
                .into_iter()
                .map(|(pair, (_, normal))| (pair, normal)),
        );
        let shapes = &self.scene.shapes;
        let mut told = std::collections::BTreeSet::new();
        for c in contacts {
            let (i, j) = (c.i, c.j);
            let after = true_depth(&shapes[i].placed, &shapes[j].placed);
            if after > c.depth_before + DEEPER * (1.0 + c.depth_before)
                && told.insert((EventKind::PushedIn, i, j))
            {
                events.push(Event::new(
                    self.steps,
                    (i, j),
                    What::PushedIn {
                        depth_before: c.depth_before,
                        depth_after: after,
                        normal: c.normal,
                    },
                ));
            }
            // Pushed out on the far side: the body's centre, from the start of the substep
            // to where the resolution left it, crossed the other shape, and this contact's
            // push went the way the body was moving. The substep's path, not the step's: a
            // body whose path bent earlier in the step (off another body, around a wall's
            // end) never crossed what the line from the step's start crosses. The event
            // tells the step's sweep, from where the step began.
            let pushed = push(c);
            for (side, (k, other)) in [(i, j), (j, i)].into_iter().enumerate() {
                if !dynamic[k] {
                    continue;
                }
                let (from, to) = (substep_start[k], shapes[k].placed.pose.position);
                if pushed[side].dot(position_before[k] - from) > 0.0
                    && crosses_interior(&shapes[other].placed, from, to)
                {
                    events.push(Event::new(
                        self.steps,
                        (i, j),
                        What::PushedThrough {
                            shape: k,
                            from: step_start[k],
                            to,
                            push: Some(crate::event::Push {
                                depth: c.depth,
                                normal: c.normal,
                            }),
                        },
                    ));
                }
            }
            // A seam: the normal was a face another shape covers; the body's speed into it.
            if let Some(SeamFound { x, t, u, n, corner }) = c.seam
                && !events.iter().any(|e| {
                    e.kind() == EventKind::Seam && e.when == self.steps && (e.a, e.b) == (i, j)
                })
            {
                let before = velocity_before[x].dot(-n);
                let after = shapes[x].motion.velocity.dot(-n);
                events.push(Event::new(
                    self.steps,
                    (i, j),
                    What::Seam(Seam {
                        shape: x,
                        face_of: t,
                        covered_by: u,
                        normal: n,
                        speed_before: before,
                        speed_after: after,
                        caught: before > 0.0 && after < before / 2.0,
                        impulse: None,
                        corner: corner.map(|c| SeamCorner {
                            corner: c.corner,
                            surface_normal: c.surface_normal,
                        }),
                    }),
                ));
            }
            // Caught: this contact took velocity along a segment or piece.
            if let Some(e) = surface_direction(&shapes[i].placed, &shapes[j].placed, c.piece) {
                for (k, into) in [(i, c.normal), (j, -c.normal)] {
                    if !dynamic[k] {
                        continue;
                    }
                    let before = velocity_before[k];
                    let lost = (without_part_along(before, into) - before).dot(e).abs();
                    if lost > CAUGHT * (1.0 + before.length()) {
                        events.push(Event::new(
                            self.steps,
                            (i, j),
                            What::Caught {
                                shape: k,
                                piece: c.piece,
                                lost,
                            },
                        ));
                    }
                }
            }
        }
    }

    /// One substep of `h`: move every body that may move (stopping dynamic ones at their
    /// first contact under continuous collision), resolve every contact with a dynamic body,
    /// all measured at once (showing `watch` what was resolved), and note the pairs that
    /// passed through each other. Returns how many contacts it resolved.
    fn substep(
        &mut self,
        (h, time): (f64, f64),
        step_start: &[DVec2],
        notes: &mut StepNotes,
        watch: &mut dyn FnMut(Resolution),
    ) -> usize {
        let StepNotes {
            resolved,
            events,
            passed,
        } = notes;
        let n = self.scene.shapes.len();
        // Gravity first: every dynamic body's velocity gains g * h before it moves.
        if let Some(g) = self.scene.gravity {
            for s in &mut self.scene.shapes {
                if s.motion.body == Body::Dynamic {
                    s.motion.velocity += g * h;
                }
            }
        }
        let start: Vec<Placed> = self.scene.shapes.iter().map(|s| s.placed.clone()).collect();
        let velocities: Vec<Velocity> = self
            .scene
            .shapes
            .iter()
            .map(|s| match s.motion.body {
                Body::Static => Velocity::default(),
                _ => s.motion.velocity(),
            })
            .collect();
        let advance = |k: usize, t: f64| -> Placed {
            Placed::new(
                start[k].shape.clone(),
                velocities[k].advance(start[k].pose, t),
            )
        };
        let end: Vec<Placed> = (0..n).map(|k| advance(k, h)).collect();
        // The broad phase on the boxes swept over the substep.
        let swept: Vec<Aabb> = (0..n)
            .map(|k| {
                let (a, b) = (Aabb::of(&start[k]), Aabb::of(&end[k]));
                Aabb::new(a.min.min(b.min), a.max.max(b.max))
            })
            .collect();
        let mut pairs = self.candidates(&swept);
        pairs.retain(|&(i, j)| self.has_dynamic(i, j));
        let moved: Vec<bool> = velocities
            .iter()
            .map(|v| *v != Velocity::default())
            .collect();
        // Move: every body by its velocity; under continuous collision a dynamic body only
        // up to its first contact with a static or kinematic shape.
        let mut stops: Vec<Option<(f64, DVec2)>> = vec![None; n];
        if self.config.ccd {
            for &(i, j) in &pairs {
                let body = |k: usize| self.scene.shapes[k].motion.body;
                let d = match (body(i), body(j)) {
                    (Body::Dynamic, Body::Dynamic) => continue,
                    (Body::Dynamic, _) => i,
                    (_, Body::Dynamic) => j,
                    _ => continue,
                };
                let Some((t, normal)) = first_stop(
                    self.config.resolver,
                    (&start[i], velocities[i]),
                    (&start[j], velocities[j]),
                    h,
                ) else {
                    continue;
                };
                {
                    // The normal from the dynamic body toward the other.
                    let normal = if d == i { normal } else { -normal };
                    if stops[d].is_none_or(|(s, _)| t < s) {
                        stops[d] = Some((t, normal));
                    }
                }
            }
        }
        for (k, shape) in self.scene.shapes.iter_mut().enumerate() {
            if !moved[k] {
                continue;
            }
            shape.placed = match stops[k] {
                Some((t, normal)) => {
                    shape.motion.velocity = without_part_along(shape.motion.velocity, normal);
                    advance(k, t)
                }
                None => end[k].clone(),
            };
        }
        // The motion each body really made over the substep (a stopped one, only up to its
        // stop), for telling whether it passed through anything.
        let travel: Vec<Velocity> = (0..n)
            .map(|k| match stops[k] {
                Some((t, _)) => Velocity {
                    linear: velocities[k].linear * (t / h),
                    angular: velocities[k].angular * (t / h),
                },
                None => velocities[k],
            })
            .collect();
        // Resolve: every contact (a pair with a chain, piece by piece) measured at the poses
        // the motion left, then all applied together, so no pair goes first because of where
        // the file lists it.
        let this = &*self;
        let contacts: Vec<Contact> = pairs
            .iter()
            .flat_map(|&(i, j)| {
                resolved_parts(
                    &this.scene.shapes[i].placed.shape,
                    &this.scene.shapes[j].placed.shape,
                )
                .into_iter()
                .filter_map(move |piece| this.measure(i, j, piece))
            })
            .collect();
        watch(Resolution {
            time,
            scene: &self.scene,
            contacts: &contacts
                .iter()
                .map(|c| ResolverContact {
                    a: c.i,
                    b: c.j,
                    piece: c.piece,
                    normal: c.normal,
                    depth: c.depth,
                })
                .collect::<Vec<_>>(),
        });
        let substep_start: Vec<DVec2> = start.iter().map(|p| p.pose.position).collect();
        self.apply(&contacts, (step_start, &substep_start), resolved, events);
        let count = contacts.len();
        // Passing through: apart at both ends of the substep, overlapping on the way.
        for &(i, j) in &pairs {
            if resolved.contains_key(&(i, j)) || passed.contains_key(&(i, j)) {
                continue;
            }
            if !(moved[i] || moved[j]) {
                continue;
            }
            let shapes = &self.scene.shapes;
            if collide(&shapes[i].placed, &shapes[j].placed).is_some() {
                continue;
            }
            if let Some((enter, exit, piece)) =
                passage_of((&start[i], travel[i]), (&start[j], travel[j]), h)
            {
                // The body that passed: the faster one.
                let (fast, speed) = [i, j]
                    .into_iter()
                    .map(|k| (k, velocities[k].linear.length()))
                    .max_by(|x, y| x.1.total_cmp(&y.1))
                    .expect("two shapes");
                let e = Event::new(
                    self.steps,
                    (i, j),
                    What::Tunnelled {
                        shape: fast,
                        piece,
                        through: Through::Substep {
                            enter,
                            exit,
                            dt: h,
                            safe_dt: safe_step(&shapes[fast].placed.shape, speed),
                        },
                    },
                );
                passed.insert((i, j), e);
            }
        }
        count
    }
}

/// Whether the segment `from -> to` goes across the inside of `shape`: both ends outside it,
/// entering at one point and leaving at a later one with the stretch between them inside.
/// A segment that only touches the boundary (grazes a corner, runs along an edge) does not.
pub(crate) fn crosses_interior(shape: &Placed, from: DVec2, to: DVec2) -> bool {
    if shape.shape.kind().is_static_only() {
        // A segment or a chain has no inside to cross.
        return false;
    }
    let (Some(entry), Some(exit)) = (ray_cast(shape, from, to), ray_cast(shape, to, from)) else {
        return false;
    };
    if entry.normal.is_none() || exit.normal.is_none() {
        // An end inside or on the boundary.
        return false;
    }
    let (enter, leave) = (entry.fraction, 1.0 - exit.fraction);
    let length = (to - from).length();
    if (leave - enter) * length <= 1e-12 * (1.0 + from.abs().max_element()) {
        return false;
    }
    let middle = from.lerp(to, 0.5 * (enter + leave));
    distance_to_point(shape, middle) == 0.0 && entry.normal.is_some_and(|n| n.dot(to - from) < 0.0)
}

/// [`passage`] for any pair: with a chain, the first of its pieces (each a two-sided segment)
/// the other shape passes through, with the piece's number; a piece the shape starts behind
/// lets it through, so passing it from behind is no tunnelling.
fn passage_of(
    a: (&Placed, Velocity),
    b: (&Placed, Velocity),
    h: f64,
) -> Option<(f64, f64, Option<usize>)> {
    let chain = match (a.0.shape.as_chain(), b.0.shape.as_chain()) {
        (None, None) => return passage(a, b, h).map(|(enter, exit)| (enter, exit, None)),
        (Some(_), Some(_)) => return None,
        (Some(_), None) => a.0,
        (None, Some(_)) => b.0,
    };
    chain_time_of_impact(a.0, a.1, b.0, b.1, h)
        .into_iter()
        .filter(|p| p.toi.state == ToiState::Hit && p.rule != Some(ChainRule::Behind))
        .find_map(|p| {
            let segment = piece_segment(chain, p.piece)?;
            let (sa, sb) = if std::ptr::eq(chain, a.0) {
                ((&segment, a.1), b)
            } else {
                (a, (&segment, b.1))
            };
            passage(sa, sb, h).map(|(enter, exit)| (enter, exit, Some(p.piece)))
        })
}

/// Whether two shapes moving freely over `[0, h]` from `a` and `b` pass through each other:
/// apart at 0, they first touch at `enter` (the time of impact), last touch at `exit` (the
/// time of impact of the motion run backward from `h`), overlap in between, and either left
/// through the side opposite the one they entered by (the contact normals at `enter` and
/// `exit` point apart) or had a centre inside the other shape halfway through. Cutting across
/// a corner is not passing through. Returns `(enter, exit)`.
fn passage(a: (&Placed, Velocity), b: (&Placed, Velocity), h: f64) -> Option<(f64, f64)> {
    let forward = time_of_impact(a.0, a.1, b.0, b.1, h);
    let (ToiState::Hit, Some(enter)) = (forward.state, forward.toi) else {
        return None;
    };
    let at =
        |(p, v): (&Placed, Velocity), t: f64| Placed::new(p.shape.clone(), v.advance(p.pose, t));
    let back = |v: Velocity| Velocity {
        linear: -v.linear,
        angular: -v.angular,
    };
    let (a_end, b_end) = (at(a, h), at(b, h));
    let backward = time_of_impact(&a_end, back(a.1), &b_end, back(b.1), h);
    let (ToiState::Hit, Some(s)) = (backward.state, backward.toi) else {
        return None;
    };
    let exit = h - s;
    if exit <= enter {
        return None;
    }
    let middle = 0.5 * (enter + exit);
    let (a_mid, b_mid) = (at(a, middle), at(b, middle));
    collide(&a_mid, &b_mid)?;
    // Touching at the start (left there by an earlier resolution), the entry direction is not
    // measured: then only a centre inside counts.
    let opposed = enter > 0.0
        && s > 0.0
        && matches!(
            (forward.normal, backward.normal),
            (Some(n_in), Some(n_out)) if n_in.dot(n_out) < 0.0
        );
    let centre_inside = distance_to_point(&a_mid, b_mid.centre()) == 0.0
        || distance_to_point(&b_mid, a_mid.centre()) == 0.0;
    (opposed || centre_inside).then_some((enter, exit))
}

/// The contacts `resolver` sees between `a` and `b` (A toward B; a pair with a chain, piece by
/// piece) at their poses: what a plot of a motion-lab run shows as claimed.
pub fn resolver_pair(
    resolver: Resolver,
    a: &Placed,
    b: &Placed,
) -> Vec<(Option<usize>, DVec2, f64)> {
    resolved_parts(&a.shape, &b.shape)
        .into_iter()
        .filter_map(|piece| resolver_mtv(resolver, a, b, piece).map(|(n, d)| (piece, n, d)))
        .collect()
}
