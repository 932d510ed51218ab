//! Real Rapier worlds run through the adapter: a world builder that places a scene at the
//! origin in metres or ~500 px from the origin at 32 px per metre (y down), and a runner that
//! captures N steps into memory, reads the capture back and judges every claim.

#![allow(dead_code)]

pub mod scenes;

use crate::rapier_capture::{RapierCapture, collider_id, header};
use collidoscope::Cause;
use collidoscope::capture::{CaptureEvent, CaptureReader, EventFinder, Manifold, judge_frame};
use rapier2d::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Cursor;
use std::path::Path;

/// Where a scene is placed: metres at the origin, or pixels.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub name: &'static str,
    pub origin: (f32, f32),
    /// Units per metre.
    pub s: f32,
    /// Screen pixels: +y down (the scene is mirrored, gravity points to +y).
    pub y_down: bool,
}

pub const METRES: Scale = Scale {
    name: "origin, m",
    origin: (0.0, 0.0),
    s: 1.0,
    y_down: false,
};

pub const PIXELS: Scale = Scale {
    name: "pixels (~500 px out, 32 px/m, y down)",
    origin: (500.0, 500.0),
    s: 32.0,
    y_down: true,
};

impl Scale {
    /// A point given in the scene's metres, y up.
    pub fn p(&self, x: f32, y: f32) -> Vector {
        let y = if self.y_down { -y } else { y };
        Vector::new(self.origin.0 + self.s * x, self.origin.1 + self.s * y)
    }
    /// A vector (velocity, offset) in the scene's metres, y up.
    pub fn v(&self, x: f32, y: f32) -> Vector {
        let y = if self.y_down { -y } else { y };
        Vector::new(self.s * x, self.s * y)
    }
    /// A length.
    pub fn l(&self, x: f32) -> f32 {
        self.s * x
    }
    /// An angle (counter-clockwise, y up).
    pub fn a(&self, angle: f32) -> f32 {
        if self.y_down { -angle } else { angle }
    }
    pub fn units(&self) -> &'static str {
        if self.s == 1.0 { "m" } else { "px" }
    }
}

pub struct World {
    pub scale: Scale,
    pub bodies: RigidBodySet,
    pub colliders: ColliderSet,
    pub impulse_joints: ImpulseJointSet,
    pub multibody_joints: MultibodyJointSet,
    pub soft_bodies: SoftBodySet,
    pub pipeline: PhysicsPipeline,
    pub islands: IslandManager,
    pub broad_phase: BroadPhaseBvh,
    pub narrow_phase: NarrowPhase,
    pub ccd: CCDSolver,
    pub params: IntegrationParameters,
    pub gravity: Vector,
    pub names: Vec<(ColliderHandle, String)>,
}

impl World {
    pub fn new(scale: Scale, recycling: bool) -> Self {
        let params = IntegrationParameters {
            contact_recycling: recycling,
            length_unit: scale.s,
            ..IntegrationParameters::default()
        };
        Self {
            scale,
            bodies: RigidBodySet::new(),
            colliders: ColliderSet::new(),
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            pipeline: PhysicsPipeline::new(),
            islands: IslandManager::new(),
            broad_phase: BroadPhaseBvh::new(),
            narrow_phase: NarrowPhase::new(),
            ccd: CCDSolver::new(),
            params,
            gravity: scale.v(0.0, -9.81),
            names: Vec::new(),
        }
    }

    /// A fixed body at (x, y) turned by `angle`, with `collider`.
    pub fn fixed(
        &mut self,
        name: &str,
        collider: ColliderBuilder,
        at: (f32, f32),
        angle: f32,
    ) -> ColliderHandle {
        self.placed(RigidBodyBuilder::fixed(), name, collider, at, angle)
    }

    /// A dynamic body at (x, y) turned by `angle`, with `collider`.
    pub fn dynamic(
        &mut self,
        name: &str,
        collider: ColliderBuilder,
        at: (f32, f32),
        angle: f32,
    ) -> ColliderHandle {
        self.placed(RigidBodyBuilder::dynamic(), name, collider, at, angle)
    }

    /// `body` at (x, y) in scene units turned by `angle`, with `collider`.
    fn placed(
        &mut self,
        body: RigidBodyBuilder,
        name: &str,
        collider: ColliderBuilder,
        (x, y): (f32, f32),
        angle: f32,
    ) -> ColliderHandle {
        let rb = body
            .translation(self.scale.p(x, y))
            .rotation(self.scale.a(angle));
        self.attach(name, rb, collider)
    }

    pub fn attach(
        &mut self,
        name: &str,
        rb: RigidBodyBuilder,
        collider: ColliderBuilder,
    ) -> ColliderHandle {
        let body = self.bodies.insert(rb);
        let handle = self
            .colliders
            .insert_with_parent(collider, body, &mut self.bodies);
        self.names.push((handle, name.to_string()));
        handle
    }

    pub fn step(&mut self) {
        self.pipeline.step(
            self.gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }
}

/// A box of half extents (hx, hy) in scene metres.
pub fn cuboid(scale: &Scale, hx: f32, hy: f32) -> ColliderBuilder {
    ColliderBuilder::cuboid(scale.l(hx), scale.l(hy))
}

/// What a capture's claims came to.
#[derive(Debug, Default)]
pub struct Run {
    pub frames: usize,
    pub claims: usize,
    pub intersecting: usize,
    pub agreeing: usize,
    /// For the claims that disagree: how many each cause reproduces (a claim may count in
    /// several), and how many nothing reproduces.
    pub causes: BTreeMap<&'static str, usize>,
    pub unexplained: usize,
    /// For the claims that disagree and are intersecting: how many each cause reproduces.
    pub intersecting_causes: BTreeMap<&'static str, usize>,
    pub intersecting_disagreeing: usize,
    /// The first few disagreements, in words.
    pub examples: Vec<String>,
    /// Largest error / tolerance among the claims that agree.
    pub worst_agreeing_ratio: f64,
    pub text_bytes: usize,
    /// Claims whose manifold Rapier or parry kept from the step before (its normal and points
    /// bit for bit the same: only `dist` may have changed), and how many of them disagree.
    pub reused: usize,
    pub reused_disagreeing: usize,
    /// Every claim, judged.
    pub records: Vec<Record>,
    /// What happened over time: the capture's events, in order.
    pub events: Vec<CaptureEvent>,
    /// The capture itself.
    pub capture: Vec<u8>,
}

/// One claim, judged.
#[derive(Clone, Debug)]
pub struct Record {
    pub frame: u64,
    pub a: u64,
    pub b: u64,
    /// The names of the shapes `a` and `b` (empty when unnamed).
    pub a_name: String,
    pub b_name: String,
    pub intersecting: bool,
    pub claimed_depth: f64,
    pub exact_depth: f64,
    pub agrees: bool,
    pub matches: Vec<Cause>,
    pub tolerance: f64,
    pub error: f64,
    /// The claim's impulses (the solver's, one per contact point), if written.
    pub impulses: Option<Vec<f64>>,
}

impl Run {
    pub fn line(&self, scene: &str, scale: &Scale, recycling: bool) -> String {
        format!(
            "{scene:<8} | {:<38} | recycling {:<5} | frames {:>4} | claims {:>5} (intersecting {:>5}) | agreeing {:>5} | disagreeing {:>4} (intersecting {:>4}) | kept manifolds {:>4} (disagreeing {:>4}) | causes {:?} | unexplained {} | worst agreeing error/tau {:.3}",
            scale.name,
            recycling,
            self.frames,
            self.claims,
            self.intersecting,
            self.agreeing,
            self.claims - self.agreeing,
            self.intersecting_disagreeing,
            self.reused,
            self.reused_disagreeing,
            self.causes,
            self.unexplained,
            self.worst_agreeing_ratio,
        )
    }
}

/// Capture `steps` steps of `world` (each step's manifolds passed through `mutate` before they
/// are written), read the capture back and judge every claim.
pub fn run(world: &mut World, steps: usize, mut mutate: impl FnMut(&mut Vec<Manifold>)) -> Run {
    let header = header(&world.params, world.scale.units(), !world.scale.y_down);
    let mut capture = RapierCapture::new(Vec::new(), &header).unwrap();
    for (handle, name) in &world.names {
        capture.name(*handle, name.clone());
    }
    let mut time = 0.0f64;
    let mut kept = Vec::new();
    let mut before = HashMap::new();
    for _ in 0..steps {
        capture
            .before_step(&world.bodies, &world.colliders)
            .unwrap();
        world.step();
        let now = manifold_bits(&world.narrow_phase);
        kept.push(
            now.iter()
                .filter(|(pair, bits)| before.get(*pair) == Some(*bits))
                .map(|(pair, _)| *pair)
                .collect(),
        );
        before = now;
        let mut contacts = capture.contacts(&world.narrow_phase).unwrap();
        mutate(&mut contacts);
        capture.write(time, &contacts).unwrap();
        time += f64::from(world.params.dt);
    }
    let bytes = capture.finish().unwrap();
    judge(bytes, &kept)
}

/// For every pair with active contacts, by ids: its manifolds' normals and points (local to
/// each collider), bit for bit.
fn manifold_bits(narrow_phase: &NarrowPhase) -> HashMap<(u64, u64), Vec<u32>> {
    narrow_phase
        .contact_pairs()
        .filter(|pair| pair.has_any_active_contact())
        .map(|pair| {
            let mut bits = Vec::new();
            for m in pair.manifolds() {
                bits.extend([m.local_n1.x.to_bits(), m.local_n1.y.to_bits()]);
                for p in &m.points {
                    bits.extend(
                        [p.local_p1.x, p.local_p1.y, p.local_p2.x, p.local_p2.y].map(f32::to_bits),
                    );
                }
            }
            let id = |h| collider_id(h).unwrap();
            ((id(pair.collider1), id(pair.collider2)), bits)
        })
        .collect()
}

/// Read a capture back and judge every claim of every frame; `kept[i]` holds the pairs of frame
/// i whose manifolds were kept from the frame before.
pub fn judge(bytes: Vec<u8>, kept: &[HashSet<(u64, u64)>]) -> Run {
    let mut run = Run {
        text_bytes: bytes.len(),
        capture: bytes.clone(),
        ..Run::default()
    };
    let mut reader = CaptureReader::new(Path::new("rapier.capture.jsonl"), Cursor::new(bytes))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut finder = EventFinder::for_capture(reader.header());
    while let Some(frame) = reader.next_frame().unwrap_or_else(|e| panic!("{e}")) {
        run.frames += 1;
        let judged = judge_frame(&reader, &frame);
        run.events.extend(finder.frame(&reader, &frame, &judged));
        assert_eq!(judged.claims.len(), frame.claims.len());
        let empty = HashSet::new();
        let kept_now = kept.get(run.frames - 1).unwrap_or(&empty);
        for claim in &judged.claims {
            run.claims += 1;
            let was_kept = kept_now.contains(&(claim.a, claim.b));
            let name = |id: u64| {
                reader
                    .shape(id)
                    .and_then(|s| s.name.as_deref())
                    .unwrap_or("")
                    .to_string()
            };
            run.records.push(Record {
                frame: frame.frame,
                a: claim.a,
                b: claim.b,
                a_name: name(claim.a),
                b_name: name(claim.b),
                intersecting: claim.claimed.intersecting,
                claimed_depth: claim.claimed.depth.unwrap_or(0.0),
                exact_depth: claim.check.exact.depth,
                agrees: claim.agrees(),
                matches: claim.causes().collect::<Vec<_>>().clone(),
                tolerance: claim.check.tolerance.unwrap(),
                error: claim.check.error.unwrap(),
                impulses: claim.claimed.impulses.clone(),
            });
            run.reused += was_kept as usize;
            run.reused_disagreeing += (was_kept && !claim.agrees()) as usize;
            let intersecting = claim.claimed.intersecting;
            run.intersecting += intersecting as usize;
            if claim.agrees() {
                run.agreeing += 1;
                if let (Some(e), Some(t)) = (claim.check.error, claim.check.tolerance) {
                    run.worst_agreeing_ratio = run.worst_agreeing_ratio.max(e / t);
                }
                continue;
            }
            if claim.causes().collect::<Vec<_>>().is_empty() {
                run.unexplained += 1;
            }
            if intersecting {
                run.intersecting_disagreeing += 1;
            }
            for cause in &claim.causes().collect::<Vec<_>>() {
                *run.causes.entry(cause.name()).or_default() += 1;
                if intersecting {
                    *run.intersecting_causes.entry(cause.name()).or_default() += 1;
                }
            }
            if run.examples.len() < 6 {
                run.examples.push(format!(
                    "frame {} (t = {:.4}){}: error {:?} tau {:?}\n    {}",
                    frame.frame,
                    frame.time,
                    if was_kept {
                        ", manifold kept from the step before"
                    } else {
                        ""
                    },
                    claim.check.error,
                    claim.check.tolerance,
                    claim.lines().join("\n    ")
                ));
            }
        }
    }
    assert!(reader.warning().is_none());
    run.events.extend(finder.finish());
    run
}

/// The number of claims a cause reproduces.
pub fn count(run: &Run, cause: Cause) -> usize {
    run.causes.get(cause.name()).copied().unwrap_or(0)
}

impl World {
    /// The same world with a narrow phase that recomputes every manifold (see
    /// `FreshManifolds`).
    pub fn with_fresh_manifolds(mut self) -> Self {
        self.narrow_phase = crate::rapier_capture::fresh_narrow_phase();
        self
    }
}
