//! The pair sets and the queries of the outside comparison, shared by the timing table
//! (`src/main.rs`) and the instruction-count guard (`src/bin/instructions.rs`).
//!
//! Every set is made from one fixed seed, so every run (and the guard under callgrind) sees the
//! same pairs. Every number is rounded to f32 first, so collidoscope, Box2D and parry see the
//! same geometry. Each engine's data lives in its own arrays.

#[allow(dead_code)]
#[path = "../../../tests/common/box2d.rs"]
pub mod box2d;
#[path = "../../../tests/common/reference.rs"]
pub mod reference;

use box2d::{B2Shape, box2d_distance, box2d_manifold, box2d_ray, box2d_toi, rounded_to_f32};
use collidoscope::geometry::{
    Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Shape, ShapeKind,
};
use collidoscope::query::{Velocity, collide, distance, pair_report, ray_cast, time_of_impact};
use parry2d_f64::math::Vector;
use parry2d_f64::query::{self, NonlinearRigidMotion, Ray};
use reference::{ReferenceShape, reference_cast, to_reference};
use std::hint::black_box;

/// Time of impact: over [0, 1] s.
pub const HORIZON: f64 = 1.0;

/// Every unordered pair of the kinds all three engines take, in the table's order.
pub const KIND_PAIRS: [(ShapeKind, ShapeKind); 6] = [
    (ShapeKind::Circle, ShapeKind::Circle),
    (ShapeKind::Circle, ShapeKind::Capsule),
    (ShapeKind::Circle, ShapeKind::Polygon),
    (ShapeKind::Capsule, ShapeKind::Capsule),
    (ShapeKind::Capsule, ShapeKind::Polygon),
    (ShapeKind::Polygon, ShapeKind::Polygon),
];

/// The kinds a ray is cast at.
pub const RAY_KINDS: [ShapeKind; 3] = [ShapeKind::Circle, ShapeKind::Capsule, ShapeKind::Polygon];

/// The short name of a kind in the table (`cc`, `cap-c`, `poly-poly`, ...).
pub fn short(kind: ShapeKind) -> &'static str {
    match kind {
        ShapeKind::Circle => "c",
        ShapeKind::Capsule => "cap",
        ShapeKind::Polygon => "poly",
        ShapeKind::Segment => "seg",
        ShapeKind::Chain => "chain",
    }
}

/// A pair's column name, the larger kind first as the table has it: `cc`, `cap-c`,
/// `poly-c`, `cap-cap`, `poly-cap`, `poly-poly`.
pub fn pair_name(a: ShapeKind, b: ShapeKind) -> String {
    if a == ShapeKind::Circle && b == ShapeKind::Circle {
        return "cc".into();
    }
    format!("{}-{}", short(b), short(a))
}

/// SplitMix64: a small generator with a fixed seed, the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }
}

/// A shape of `kind` at a random pose in [-4, 4]^2, the sizes of the repository's
/// property tests (circles of radius 0.1 to 2.5, capsules up to 4 long, polygons of 3 to 8
/// corners on an ellipse of half-axes 0.3 to 3 in either winding), rounded to f32, one Box2D
/// takes as it is.
pub fn random_shape(kind: ShapeKind, rng: &mut Rng) -> Placed {
    loop {
        let pose = Pose::new(
            DVec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)),
            rng.range(-3.2, 3.2),
        );
        let placed = match kind {
            ShapeKind::Circle => Placed::new(Circle::new(rng.range(0.1, 2.5)).unwrap(), pose),
            ShapeKind::Capsule => {
                let a = DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
                let b = DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
                let radius = rng.range(0.1, 1.5);
                match Capsule::new(a, b, radius) {
                    Ok(c) if a.distance(b) > 0.05 => Placed::new(c, pose),
                    _ => continue,
                }
            }
            ShapeKind::Polygon => {
                let n = 3 + (rng.next_u64() % 6) as usize;
                let mut angles: Vec<f64> = (0..n)
                    .map(|_| rng.range(0.0, std::f64::consts::TAU))
                    .collect();
                angles.sort_by(f64::total_cmp);
                let (rx, ry) = (rng.range(0.3, 3.0), rng.range(0.3, 3.0));
                let mut points: Vec<DVec2> = angles
                    .iter()
                    .map(|t| DVec2::new(rx * t.cos(), ry * t.sin()))
                    .collect();
                if rng.next_u64() % 2 == 1 {
                    points.reverse();
                }
                let sound = (0..n).all(|i| points[i].distance(points[(i + 1) % n]) > 0.05);
                match ConvexPolygon::new(points) {
                    Ok(p) if sound && p.area() > 0.05 => Placed::new(p, pose),
                    _ => continue,
                }
            }
            ShapeKind::Segment | ShapeKind::Chain => panic!("not compared"),
        };
        if let Some(rounded) = rounded_to_f32(&placed).filter(box2d::has_box2d) {
            return rounded;
        }
    }
}

/// The rounded sets: a rounded polygon (shape-set version 4) against a circle, a capsule, a
/// plain polygon and another rounded polygon, by column name (`None`: a rounded polygon).
pub const ROUNDED_PAIRS: [(&str, Option<ShapeKind>); 4] = [
    ("rpoly-c", Some(ShapeKind::Circle)),
    ("rpoly-cap", Some(ShapeKind::Capsule)),
    ("rpoly-poly", Some(ShapeKind::Polygon)),
    ("rpoly-rpoly", None),
];

/// A rounded polygon: a random polygon's core (as [`random_shape`] makes it) grown by 0.02 to
/// 0.3, rounded to f32, as Box2D's `b2MakeRoundedBox` / `b2MakePolygon(hull, radius)` and
/// Rapier's `RoundConvexPolygon` make one.
pub fn random_rounded(rng: &mut Rng) -> Placed {
    loop {
        let plain = random_shape(ShapeKind::Polygon, rng);
        let radius = rng.range(0.02, 0.3) as f32 as f64;
        let Shape::Polygon(core) = &plain.shape else {
            unreachable!("a polygon was asked for")
        };
        let rounded = Placed::new(core.clone().with_radius(radius).unwrap(), plain.pose);
        if box2d::has_box2d(&rounded) {
            return rounded;
        }
    }
}

/// One set of pairs, each engine's copy in its own array.
pub struct Pairs {
    pub kinds: (ShapeKind, ShapeKind),
    pub ours: Vec<(Placed, Placed)>,
    pub box2d: Vec<(B2Shape, B2Shape)>,
    pub parry: Vec<(ReferenceShape, ReferenceShape)>,
    /// For time of impact: B's velocity (A at rest) and both angular velocities.
    pub motion: Vec<(DVec2, f64, f64)>,
}

impl Pairs {
    fn of(
        kinds: (ShapeKind, ShapeKind),
        ours: Vec<(Placed, Placed)>,
        motion: Vec<(DVec2, f64, f64)>,
    ) -> Self {
        Self {
            kinds,
            box2d: ours
                .iter()
                .map(|(x, y)| (box2d::to_box2d(x), box2d::to_box2d(y)))
                .collect(),
            parry: ours
                .iter()
                .map(|(x, y)| (to_reference(x), to_reference(y)))
                .collect(),
            ours,
            motion,
        }
    }

    pub fn len(&self) -> usize {
        self.ours.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ours.is_empty()
    }
}

/// `count` pairs of `kinds` whose boxes overlap (what a broad phase hands on), half of them
/// intersecting, in a shuffled order (no pattern for a branch predictor to learn).
pub fn near_pairs(kinds: (ShapeKind, ShapeKind), count: usize, seed: u64) -> Pairs {
    let make = |rng: &mut Rng| (random_shape(kinds.0, rng), random_shape(kinds.1, rng));
    near_pairs_made(kinds, make, count, seed)
}

/// [`near_pairs`] of a rounded polygon and `other` (a rounded polygon when `None`).
pub fn rounded_near_pairs(other: Option<ShapeKind>, count: usize, seed: u64) -> Pairs {
    let make = |rng: &mut Rng| {
        let a = random_rounded(rng);
        let b = match other {
            Some(kind) => random_shape(kind, rng),
            None => random_rounded(rng),
        };
        (a, b)
    };
    let kinds = (ShapeKind::Polygon, other.unwrap_or(ShapeKind::Polygon));
    near_pairs_made(kinds, make, count, seed)
}

fn near_pairs_made(
    kinds: (ShapeKind, ShapeKind),
    mut make: impl FnMut(&mut Rng) -> (Placed, Placed),
    count: usize,
    seed: u64,
) -> Pairs {
    let mut rng = Rng::new(seed);
    let (mut hit, mut miss) = (Vec::new(), Vec::new());
    let want_hit = count / 2;
    let want_miss = count - want_hit;
    while hit.len() < want_hit || miss.len() < want_miss {
        let (x, y) = make(&mut rng);
        let ((x_min, x_max), (y_min, y_max)) = (x.aabb(), y.aabb());
        if !(x_min.cmple(y_max).all() && y_min.cmple(x_max).all()) {
            continue;
        }
        let (list, wanted) = if collide(&x, &y).is_some() {
            (&mut hit, want_hit)
        } else {
            (&mut miss, want_miss)
        };
        if list.len() < wanted {
            list.push((x, y));
        }
    }
    let mut ours: Vec<_> = hit.into_iter().chain(miss).collect();
    shuffle(&mut ours, &mut rng);
    Pairs::of(kinds, ours, Vec::new())
}

/// `count` pairs of `kinds` apart, A moved 6 units to the left and B heading at A's position
/// at 0.5 to 2 times their distance per second (about half of them meet within the horizon),
/// each turning at up to 3 rad/s when the motion rotates.
pub fn far_pairs(kinds: (ShapeKind, ShapeKind), count: usize, seed: u64) -> Pairs {
    let mut rng = Rng::new(seed);
    let (mut ours, mut motion) = (Vec::new(), Vec::new());
    while ours.len() < count {
        let (mut x, y) = (
            random_shape(kinds.0, &mut rng),
            random_shape(kinds.1, &mut rng),
        );
        x.pose.position = (x.pose.position + DVec2::new(-6.0, 0.0))
            .as_vec2()
            .as_dvec2();
        let (wa, wb, speed) = (
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(0.5, 2.0),
        );
        if collide(&x, &y).is_some() {
            continue;
        }
        let v = ((x.pose.position - y.pose.position) * speed)
            .as_vec2()
            .as_dvec2();
        motion.push((v, wa as f32 as f64, wb as f32 as f64));
        ours.push((x, y));
    }
    Pairs::of(kinds, ours, motion)
}

/// One set of rays at shapes of one kind: from 8 units out, in a random direction, toward a
/// point near the shape (most hit).
pub struct Rays {
    pub kind: ShapeKind,
    pub ours: Vec<(Placed, DVec2, DVec2)>,
    pub box2d: Vec<(B2Shape, DVec2, DVec2)>,
    pub parry: Vec<(ReferenceShape, Ray)>,
}

pub fn rays(kind: ShapeKind, count: usize, seed: u64) -> Rays {
    rays_made(kind, |rng| random_shape(kind, rng), count, seed)
}

/// [`rays`] at rounded polygons.
pub fn rounded_rays(count: usize, seed: u64) -> Rays {
    rays_made(ShapeKind::Polygon, random_rounded, count, seed)
}

fn rays_made(
    kind: ShapeKind,
    mut make: impl FnMut(&mut Rng) -> Placed,
    count: usize,
    seed: u64,
) -> Rays {
    let mut rng = Rng::new(seed);
    let ours: Vec<_> = (0..count)
        .map(|_| {
            let shape = make(&mut rng);
            let angle = rng.range(0.0, std::f64::consts::TAU);
            let (dx, dy) = (rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
            let at = shape.pose.position;
            let from = (at + DVec2::from_angle(angle) * 8.0).as_vec2().as_dvec2();
            let to = (at + DVec2::new(dx, dy) - (from - at) * 0.5)
                .as_vec2()
                .as_dvec2();
            (shape, from, to)
        })
        .collect();
    Rays {
        kind,
        box2d: ours
            .iter()
            .map(|(s, from, to)| (box2d::to_box2d(s), *from, *to))
            .collect(),
        parry: ours
            .iter()
            .map(|(s, from, to)| {
                let d = *to - *from;
                (
                    to_reference(s),
                    Ray::new(Vector::new(from.x, from.y), Vector::new(d.x, d.y)),
                )
            })
            .collect(),
        ours,
    }
}

/// shuffle `items` in place (Fisher-Yates).
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// The queries compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Collide,
    Distance,
    ToiTranslation,
    ToiRotation,
    Ray,
    /// What `collidoscope explain` prints: every axis measured, the contact, the closest
    /// points (collidoscope only).
    PairReport,
}

impl Query {
    pub const ALL: [Query; 6] = [
        Query::Collide,
        Query::Distance,
        Query::ToiTranslation,
        Query::ToiRotation,
        Query::Ray,
        Query::PairReport,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Query::Collide => "collide",
            Query::Distance => "distance",
            Query::ToiTranslation => "toi-translation",
            Query::ToiRotation => "toi-rotation",
            Query::Ray => "ray",
            Query::PairReport => "pair_report",
        }
    }

    pub fn parse(name: &str) -> Option<Query> {
        Query::ALL.into_iter().find(|q| q.name() == name)
    }

    /// Whether the query takes the apart-and-moving sets.
    pub fn moving(self) -> bool {
        matches!(self, Query::ToiTranslation | Query::ToiRotation)
    }
}

/// The engines compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Collidoscope,
    Box2d,
    Parry,
}

impl Engine {
    pub const ALL: [Engine; 3] = [Engine::Collidoscope, Engine::Box2d, Engine::Parry];
}

/// `query` by `engine` over every pair of `pairs`; returns how many answers were "hit" (so the
/// work cannot be thrown away, and runs can be checked against each other).
pub fn run_pairs(query: Query, engine: Engine, pairs: &Pairs) -> usize {
    let mut hits = 0usize;
    let mut count = |hit: bool| hits += usize::from(hit);
    match (query, engine) {
        (Query::Collide, Engine::Collidoscope) => {
            for (x, y) in &pairs.ours {
                count(black_box(collide(black_box(x), black_box(y))).is_some());
            }
        }
        (Query::Collide, Engine::Box2d) => {
            for (x, y) in &pairs.box2d {
                count(black_box(box2d_manifold(black_box(x), black_box(y))).pointCount > 0);
            }
        }
        (Query::Collide, Engine::Parry) => {
            for (x, y) in &pairs.parry {
                let c = query::contact(&x.pose, &*x.shape.0, &y.pose, &*y.shape.0, 0.0);
                count(black_box(c).ok().flatten().is_some());
            }
        }
        (Query::Distance, Engine::Collidoscope) => {
            for (x, y) in &pairs.ours {
                count(black_box(distance(black_box(x), black_box(y))).distance > 0.0);
            }
        }
        (Query::Distance, Engine::Box2d) => {
            for (x, y) in &pairs.box2d {
                count(black_box(box2d_distance(black_box(x), black_box(y))).0 > 0.0);
            }
        }
        (Query::Distance, Engine::Parry) => {
            for (x, y) in &pairs.parry {
                let c = query::closest_points(&x.pose, &*x.shape.0, &y.pose, &*y.shape.0, f64::MAX);
                count(matches!(
                    black_box(c),
                    Ok(query::ClosestPoints::WithinMargin(..))
                ));
            }
        }
        (Query::ToiTranslation | Query::ToiRotation, engine) => {
            let rotating = query == Query::ToiRotation;
            let spin = |w: f64| if rotating { w } else { 0.0 };
            match engine {
                Engine::Collidoscope => {
                    for ((x, y), (v, wa, wb)) in pairs.ours.iter().zip(&pairs.motion) {
                        let va = Velocity {
                            linear: DVec2::ZERO,
                            angular: spin(*wa),
                        };
                        let vb = Velocity {
                            linear: *v,
                            angular: spin(*wb),
                        };
                        count(black_box(time_of_impact(x, va, y, vb, HORIZON).toi).is_some());
                    }
                }
                Engine::Box2d => {
                    for ((x, y), (v, wa, wb)) in pairs.box2d.iter().zip(&pairs.motion) {
                        let t = box2d_toi(x, (DVec2::ZERO, spin(*wa)), y, (*v, spin(*wb)), HORIZON);
                        count(black_box(t).is_some());
                    }
                }
                Engine::Parry => {
                    for ((x, y), (v, wa, wb)) in pairs.parry.iter().zip(&pairs.motion) {
                        let hit = if rotating {
                            query::cast_shapes_nonlinear(
                                &nonlinear(x, DVec2::ZERO, *wa),
                                &*x.shape.0,
                                &nonlinear(y, *v, *wb),
                                &*y.shape.0,
                                0.0,
                                HORIZON,
                                true,
                            )
                            .ok()
                            .flatten()
                            .is_some()
                        } else {
                            reference_cast(x, DVec2::ZERO, y, *v, HORIZON).is_some()
                        };
                        count(black_box(hit));
                    }
                }
            }
        }
        (Query::PairReport, Engine::Collidoscope) => {
            for (x, y) in &pairs.ours {
                count(
                    black_box(pair_report(black_box(x), black_box(y)))
                        .contact
                        .is_some(),
                );
            }
        }
        (Query::PairReport, _) | (Query::Ray, _) => {}
    }
    hits
}

/// Rays by `engine`; returns how many hit.
pub fn run_rays(engine: Engine, rays: &Rays) -> usize {
    let mut hits = 0usize;
    match engine {
        Engine::Collidoscope => {
            for (s, from, to) in &rays.ours {
                hits += usize::from(black_box(ray_cast(black_box(s), *from, *to)).is_some());
            }
        }
        Engine::Box2d => {
            for (s, from, to) in &rays.box2d {
                hits += usize::from(black_box(box2d_ray(black_box(s), *from, *to)).is_some());
            }
        }
        Engine::Parry => {
            for (s, ray) in &rays.parry {
                let hit = s.shape.0.cast_ray_and_get_normal(&s.pose, ray, 1.0, true);
                hits += usize::from(black_box(hit).is_some());
            }
        }
    }
    hits
}

fn nonlinear(s: &ReferenceShape, v: DVec2, w: f64) -> NonlinearRigidMotion {
    NonlinearRigidMotion::new(s.pose, Vector::ZERO, Vector::new(v.x, v.y), w)
}

/// The CPU time this thread has used, in nanoseconds (what a pair costs, not what the
/// machine's other work costs it).
pub fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}
