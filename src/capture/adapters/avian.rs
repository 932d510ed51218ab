//! Captures from an Avian world (avian2d 0.8, a Bevy plugin, `f32`): [`CapturePlugin`] writes
//! the physics world every fixed step, in one line of the game's setup:
//!
//! ```ignore
//! app.add_plugins(collidoscope::capture::avian::CapturePlugin::to_file("game.capture.jsonl.gz"));
//! ```
//!
//! or, to watch it in a window as the game runs (the same lines, over a loopback socket:
//! [`ToWindow`]), `CapturePlugin::to_window(ToWindow::spawn())`.
//!
//! Where and when. Avian runs its narrow phase once a step, in `PhysicsSchedule`, before the
//! solver moves anything (`PhysicsStepSystems::NarrowPhase`, then `Solver`). The plugin's
//! system runs in `NarrowPhaseSystems::Last`: the poses it reads are the ones the narrow phase
//! used, and the contacts are the ones it just computed. The frame's time is the physics time
//! at the start of the step (`Time<Physics>`'s elapsed time less the step). A second system,
//! at the end of the step (`PhysicsStepSystems::Last`, after the solver has stored its
//! impulses), adds each point's `normal_impulse` (the solver's total over the step) and
//! writes the frame.
//!
//! What the capture holds:
//! - one shape per collider entity (id: the entity's index in the low 32 bits, its generation
//!   above; named by its `Name` when it has one): a ball is a circle, a cuboid a rectangle
//!   polygon, a capsule a capsule, a convex polygon or triangle a polygon, a segment a segment
//!   on a static body (or none), a round rectangle, round convex polygon or round triangle a
//!   polygon with its border radius as `radius` (shape-set version 4); scaled as Avian scales
//!   it (`Collider::shape_scaled`).
//! - a collider made of pieces as one shape per piece (ids from [`FIRST_PART_ID`], 2^52, stable
//!   per entity and piece; named `NAME/part k`, `NAME/segment k` or `NAME/triangle k`, `NAME`
//!   the collider's `Name` or `entity E`), each posed by the collider's pose times the piece's
//!   (in f32, as parry composes them): a compound's parts, a polyline's and a heightfield's
//!   segments as two-sided segments (what parry collides: each segment as a `Segment`) on a
//!   static body, a trimesh's triangles as polygons. Refused by name, as the Rapier adapter
//!   refuses them: a polyline with `PolylineFlags::ORIENTED`, a compound or trimesh with
//!   `FIX_INTERNAL_EDGES` (their normals are clamped by the whole surface's pseudo-normals, so
//!   no single piece gives them). Other shapes (ellipses, regular polygons, voxels, custom
//!   shapes) are refused once, naming the entity, and the capture stops; a sensor or a disabled
//!   collider with such a shape is left out.
//! - the pose: the collider's own `Position` and `Rotation` (world; Avian keeps (cos, sin)).
//! - the body: `RigidBody::Static` (or no body) is static, `Kinematic` kinematic, `Dynamic`
//!   dynamic; the velocity is the body's at the collider's position (`v + w x r`, `r` from the
//!   body's world centre of mass); awake unless the body is static or `Sleeping`.
//! - which piece a claim is about: Avian's manifolds do not keep the subshape parry collided
//!   (its `contact_manifolds` drops `subshape1`/`subshape2`), so the plugin finds it from the
//!   manifold itself. Each point lies halfway between the two surface points along the normal
//!   (`point = p1 + normal * dist / 2`), so `p1` and `p2` are known; the piece of a collider is
//!   the one whose surface holds that collider's points (the least distance, within 1e-4 of the
//!   coordinates' size); where several do (a point on the corner two pieces share), the pair of
//!   pieces whose exact contact normal is nearest the claimed one, and never the same pair for
//!   two manifolds of a step (parry makes one manifold per pair of subshapes).
//! - the claims: every manifold of every active pair of the `ContactGraph` (touching and
//!   speculative points alike; Avian keeps a point while it is within the speculative margin
//!   or approaching), A the pair's `collider1`, B its `collider2`. Avian's conventions, stated
//!   once: the normal is world-space from `collider1` toward `collider2`; a point's
//!   `penetration` is positive when overlapping and includes the two colliders'
//!   `CollisionMargin`s, which the plugin takes off (separation = margins - penetration); the
//!   point is the world midpoint of the two surface points.
//! - the header: engine `avian2d` 0.8.0, with `contact_tolerance`, `recycle_distance` and
//!   `recycle_angle` (`NarrowPhaseConfig`), `length_unit`, `substeps` and `dt`.
//!
//! Contacts kept from earlier steps. Avian's narrow phase keeps a pair's normal and points
//! while it moved less than `NarrowPhaseConfig::recycle_distance` (and turned less than
//! `recycle_angle`) and updates only their penetration; those claims belong to other poses and
//! disagree. The plugin sets `recycle_distance` to 0 when it is added (say
//! [`CapturePlugin::keep_recycling`] to leave it as the game has it).
//!
//! Bevy 0.20, which avian2d 0.8 needs, declares Rust 1.97.1: with an older toolchain, build
//! with `cargo build --ignore-rust-version` (it builds and runs on Rust 1.95).

use avian2d::collision::collider::contact_query::contact_manifolds;
use avian2d::collision::narrow_phase::NarrowPhaseSystems;
use avian2d::parry::math::{Pose2, Rot2};
use avian2d::parry::shape::{PolylineFlags, TriMeshFlags, TypedShape};
use avian2d::prelude::*;
use bevy::app::{App, Plugin};
use bevy::ecs::entity::Entity;
use bevy::ecs::name::Name;
use bevy::ecs::prelude::*;
use bevy::time::{Fixed, Time};
use collidoscope::Reported;
use collidoscope::capture::adapters::narrow_phase::{
    NarrowPhase as FixtureNarrowPhase, asked_piece, engine_answer,
};
use collidoscope::capture::{
    BodyPose, CaptureError, CaptureWriter, Engine, Filter, Header, MARGIN_SETTING, Manifold,
    ManifoldPoint, NormalFrom, Pairing, Penetration, StepJudgement, ToWindow,
};
use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Segment, Shape};
use collidoscope::query::{collide, distance, distance_to_point};
use collidoscope::scene::{Body, Precision};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// The avian2d version this adapter reads.
pub const AVIAN_VERSION: &str = "0.8.0";

/// The first id of a piece of a collider made of pieces (a compound's part, a polyline's or
/// heightfield's segment, a trimesh's triangle): 2^52, as the Rapier adapter's. An entity's own
/// id reaches it only when its generation is 2^20.
pub use collidoscope::capture::FIRST_PART_ID;

/// A Bevy plugin that writes a capture of the Avian world every physics step (see the
/// module's comment).
pub struct CapturePlugin {
    /// Where to write, moved into the app when the plugin is built (`Plugin::build` has only
    /// `&self`; a window's link cannot be cloned).
    to: Mutex<Option<Destination>>,
    units: String,
    y_up: bool,
    keep_recycling: bool,
    judging: bool,
}

impl CapturePlugin {
    /// Write the capture to `path`: gzip when the name ends in `.gz` (flushed every step, so a
    /// crash keeps every step before it). Lengths in metres, +y up; see [`Self::units`].
    pub fn to_file(path: impl Into<PathBuf>) -> Self {
        Self::to(Destination::File(path.into()))
    }

    /// Stream the capture to a window as the game runs, as the other adapters do with
    /// `CaptureWriter::new(ToWindow::spawn(), ...)`: `to_window(ToWindow::spawn())` connects to
    /// the window on the default port (starting `collidoscope --listen` when none answers),
    /// `to_window(ToWindow::connect(port))` to one already listening. Frames no window takes
    /// are dropped and counted, never blocking the game (see [`ToWindow`]).
    pub fn to_window(link: ToWindow) -> Self {
        Self::to(Destination::Window(Box::new(link)))
    }

    fn to(destination: Destination) -> Self {
        Self {
            to: Mutex::new(Some(destination)),
            units: "m".into(),
            y_up: true,
            keep_recycling: false,
            judging: false,
        }
    }

    /// Judge every step in the game's process as it is written ([`CaptureWriter::judging`]):
    /// [`AvianCaptureState::judgement`] is the last step's, and
    /// [`AvianCaptureState::first_not_clean`] the first that was not clean, for a system of
    /// the game to log or a test to assert on.
    pub fn judging(mut self) -> Self {
        self.judging = true;
        self
    }

    /// The game's unit of length (`"px"`, ...) and whether +y points up (`false` for screen
    /// pixels): shown, never converted.
    pub fn units(mut self, units: &str, y_up: bool) -> Self {
        self.units = units.into();
        self.y_up = y_up;
        self
    }

    /// Leave Avian's contact recycling as the game has it (its kept contacts then disagree,
    /// named `previous-poses`).
    pub fn keep_recycling(mut self) -> Self {
        self.keep_recycling = true;
        self
    }
}

impl Plugin for CapturePlugin {
    fn build(&self, app: &mut App) {
        let to = self
            .to
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        // Bevy builds a plugin once: a second build has nothing left to write to.
        let failed = to.is_none();
        app.insert_resource(AvianCaptureState {
            said: to.as_ref().map_or_else(String::new, ToString::to_string),
            to,
            units: self.units.clone(),
            y_up: self.y_up,
            writer: None,
            given: HashMap::new(),
            part_ids: HashMap::new(),
            poses: Vec::new(),
            manifolds: Vec::new(),
            pending: None,
            failed,
            stopped: None,
            judging: self.judging,
            judged: None,
            first_not_clean: None,
        });
        app.add_systems(
            PhysicsSchedule,
            (
                capture_step.in_set(NarrowPhaseSystems::Last),
                write_solved.in_set(PhysicsStepSystems::Last),
            ),
        );
    }

    fn finish(&self, app: &mut App) {
        if !self.keep_recycling {
            let world = app.world_mut();
            if let Some(mut config) = world.get_resource_mut::<NarrowPhaseConfig>() {
                config.recycle_distance = 0.0;
            }
        }
    }
}

/// Where a manifold of a step came from: the pair's two colliders and its place among the
/// pair's manifolds.
type ManifoldSource = (Entity, Entity, usize);

/// Where the plugin writes its capture.
enum Destination {
    /// A file, created at the first step (gzip when its name ends in `.gz`).
    File(PathBuf),
    /// A window, over the loopback socket.
    Window(Box<ToWindow>),
}

impl std::fmt::Display for Destination {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Destination::File(path) => write!(f, "{}", path.display()),
            Destination::Window(_) => f.write_str("the window"),
        }
    }
}

/// The capture's output: a file, or a window.
enum Output {
    File(BufWriter<File>),
    Window(Box<ToWindow>),
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::File(out) => out.write(bytes),
            Output::Window(out) => out.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::File(out) => out.flush(),
            Output::Window(out) => out.flush(),
        }
    }
}

/// The plugin's state: the writer (opened at the first step, when Avian's settings are
/// known), each collider's shape as last given, and the room reused every step.
#[derive(Resource)]
pub struct AvianCaptureState {
    /// Where the capture goes, until the writer is opened there.
    to: Option<Destination>,
    /// Where it goes, in words (a file's path, or the window).
    said: String,
    units: String,
    y_up: bool,
    writer: Option<CaptureWriter<Output>>,
    /// Each collider's scaled shape (its pointer) and body type as last given to the writer,
    /// with its capture shapes.
    given: HashMap<Entity, Given>,
    /// The ids of the pieces of colliders made of pieces, by entity and piece.
    part_ids: HashMap<(Entity, u32), u64>,
    poses: Vec<BodyPose>,
    manifolds: Vec<Manifold>,
    /// The step read at the end of the narrow phase and not yet written: its time, and for
    /// each of `manifolds` the Avian manifold it came from (the pair's colliders and the
    /// manifold's place), whose points' impulses the solver fills in.
    pending: Option<(f64, Vec<ManifoldSource>)>,
    /// A step failed (said once on stderr): nothing more is written.
    failed: bool,
    /// Why the capture stopped, as said on stderr.
    stopped: Option<String>,
    /// Judge every step ([`CapturePlugin::judging`]); the last step's judgement, and the
    /// first that was not clean.
    judging: bool,
    judged: Option<StepJudgement>,
    first_not_clean: Option<StepJudgement>,
}

impl AvianCaptureState {
    /// The judgement of the last step written, when judging ([`CapturePlugin::judging`]).
    pub fn judgement(&self) -> Option<&StepJudgement> {
        self.judged.as_ref()
    }

    /// The first step that was not clean (a claim that disagrees, an event other than a
    /// normal flip, something malformed), when judging.
    pub fn first_not_clean(&self) -> Option<&StepJudgement> {
        self.first_not_clean.as_ref()
    }

    /// Why the capture stopped (a collider it cannot hold, the file not writable), as said on
    /// stderr; `None` while it is written.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }
}

impl Drop for AvianCaptureState {
    fn drop(&mut self) {
        // The gzip trailer, when the app ends.
        if let Some(writer) = self.writer.take() {
            let _ = writer.finish().and_then(|mut out| out.flush());
        }
    }
}

/// The capture id of an entity: its index in the low 32 bits, its generation above; `None`
/// when that would not be below 2^53.
pub fn entity_id(entity: Entity) -> Option<u64> {
    let id = u64::from(entity.index_u32()) | u64::from(entity.generation().to_bits()) << 32;
    (id < 1 << 53).then_some(id)
}

fn dvec(v: bevy::math::Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

/// The header of a capture of this Avian world.
pub fn header(
    config: &NarrowPhaseConfig,
    length_unit: f32,
    substeps: u32,
    dt: f64,
    units: &str,
    y_up: bool,
) -> Header {
    let engine = Engine::new("avian2d", AVIAN_VERSION)
        .with_setting("contact_tolerance", f64::from(config.contact_tolerance))
        // The narrow phase's least reach (more with `SpeculativeCcd`, by the bodies' speed).
        .with_setting(
            MARGIN_SETTING,
            f64::from(length_unit * config.contact_tolerance),
        )
        .with_setting("recycle_distance", f64::from(config.recycle_distance))
        .with_setting("recycle_angle", f64::from(config.recycle_angle))
        .with_setting("length_unit", f64::from(length_unit))
        .with_setting("substeps", u64::from(substeps))
        .with_setting("dt", dt);
    Header {
        engine,
        precision: Precision::F32,
        units: units.into(),
        y_up,
    }
}

type ColliderRow<'a> = (
    Entity,
    &'a Collider,
    &'a Position,
    &'a Rotation,
    Option<&'a ColliderOf>,
    Option<&'a Name>,
    Has<Sensor>,
    Option<&'a CollisionMargin>,
    Option<&'a CollisionLayers>,
);

type BodyRow<'a> = (
    &'a RigidBody,
    &'a Position,
    &'a Rotation,
    &'a ComputedCenterOfMass,
    &'a LinearVelocity,
    &'a AngularVelocity,
    Has<Sleeping>,
    Option<&'a CollisionMargin>,
);

/// The plugin's system: the step's shapes, poses and contacts, written as a frame.
#[allow(clippy::too_many_arguments)]
fn capture_step(
    mut state: ResMut<AvianCaptureState>,
    time: Res<Time>,
    fixed: Option<Res<Time<Fixed>>>,
    graph: Res<ContactGraph>,
    config: Res<NarrowPhaseConfig>,
    length_unit: Option<Res<PhysicsLengthUnit>>,
    substeps: Option<Res<SubstepCount>>,
    colliders: Query<ColliderRow, Without<ColliderDisabled>>,
    bodies: Query<BodyRow>,
) {
    if state.failed {
        return;
    }
    let start = time.elapsed_secs_f64() - time.delta_secs_f64();
    if state.writer.is_none() {
        let dt = fixed.map_or(time.delta_secs_f64(), |f| f.timestep().as_secs_f64());
        let header = header(
            &config,
            length_unit.map_or(1.0, |u| u.0),
            substeps.map_or(1, |s| s.0),
            dt,
            &state.units,
            state.y_up,
        );
        let (from, pen) = (NormalFrom::AToB, Penetration::NegativeSeparation);
        let opened = match state.to.take() {
            Some(Destination::File(path)) => File::create(&path).and_then(|file| {
                let out = Output::File(BufWriter::new(file));
                let gz = path.extension().is_some_and(|e| e == "gz");
                CaptureWriter::with_gzip(out, &header, from, pen, gz)
            }),
            Some(Destination::Window(link)) => {
                CaptureWriter::new(Output::Window(link), &header, from, pen)
            }
            None => Err(std::io::Error::other("the capture's output was taken")),
        };
        let judging = state.judging;
        let opened = opened.map(|w| if judging { w.judging() } else { w });
        match opened {
            Ok(writer) => state.writer = Some(writer),
            Err(e) => {
                let said = format!(
                    "collidoscope: {}: cannot write the capture: {e}",
                    state.said
                );
                eprintln!("{said}");
                state.stopped = Some(said);
                state.failed = true;
                return;
            }
        }
    }
    // A step read whose solver never ran (the physics paused between): written as it was.
    write_pending(&mut state, None);
    if let Err(e) = read_step(&mut state, start, &graph, &colliders, &bodies) {
        stop(&mut state, &e);
    }
}

/// Once Avian's solver has stored the step's impulses: the step read at the end of its narrow
/// phase, each point's `normal_impulse` added, written.
fn write_solved(mut state: ResMut<AvianCaptureState>, graph: Res<ContactGraph>) {
    if !state.failed {
        write_pending(&mut state, Some(&graph));
    }
}

/// Write the step read and not yet written, if any: with the impulses `graph` holds for its
/// manifolds' points (the solver's, over the step), when given.
fn write_pending(state: &mut AvianCaptureState, graph: Option<&ContactGraph>) {
    let Some((time, sources)) = state.pending.take() else {
        return;
    };
    if let Some(graph) = graph {
        for (manifold, &(e1, e2, k)) in state.manifolds.iter_mut().zip(&sources) {
            let solved = graph
                .get(e1, e2)
                .and_then(|(_, pair)| pair.manifolds.get(k))
                .filter(|m| m.points.len() == manifold.points.len());
            if let Some(solved) = solved {
                for (point, p) in manifold.points.iter_mut().zip(&solved.points) {
                    point.impulse = Some(f64::from(p.normal_impulse));
                }
            }
        }
    }
    let AvianCaptureState {
        writer,
        poses,
        manifolds,
        ..
    } = state;
    let written = writer
        .as_mut()
        .expect("opened")
        .poses(time, poses, manifolds);
    if let Err(e) = written {
        stop(state, &e);
        return;
    }
    let judged = state
        .writer
        .as_mut()
        .and_then(CaptureWriter::take_judgement);
    if let Some(step) = &judged
        && !step.is_clean()
        && state.first_not_clean.is_none()
    {
        state.first_not_clean = Some(step.clone());
    }
    state.judged = judged;
}

/// Stop the capture, saying why once on stderr.
fn stop(state: &mut AvianCaptureState, e: &CaptureError) {
    let said = format!("collidoscope: {}: the capture stops here: {e}", state.said);
    eprintln!("{said}");
    state.stopped = Some(said);
    state.failed = true;
}

/// Read the step: every collider's shape and pose and every manifold, kept in `state` until
/// the solver has run ([`write_solved`]).
fn read_step(
    state: &mut AvianCaptureState,
    time: f64,
    graph: &ContactGraph,
    colliders: &Query<ColliderRow, Without<ColliderDisabled>>,
    bodies: &Query<BodyRow>,
) -> Result<(), CaptureError> {
    let AvianCaptureState {
        writer,
        given,
        part_ids,
        poses,
        manifolds,
        pending,
        ..
    } = state;
    let writer = writer.as_mut().expect("opened");
    poses.clear();
    manifolds.clear();
    let mut sources = Vec::new();
    // Each collider in the frame: its pose and its collision margin.
    let mut placed: HashMap<Entity, (Pose, f32)> = HashMap::new();
    for (entity, collider, position, rotation, of, name, sensor, margin, layers) in colliders {
        let label = || match name {
            Some(name) => format!("entity {entity} {:?}", name.as_str()),
            None => format!("entity {entity}"),
        };
        let Some(id) = entity_id(entity) else {
            return Err(CaptureError::Unsupported {
                what: label(),
                why: "its generation is 2^21 or more, so its id would not be below 2^53".into(),
            });
        };
        let body = of.and_then(|o| bodies.get(o.body).ok());
        let kind = match body.map(|b| b.0) {
            None | Some(RigidBody::Static) => Body::Static,
            Some(RigidBody::Kinematic) => Body::Kinematic,
            Some(RigidBody::Dynamic) => Body::Dynamic,
        };
        let scaled = collider.shape_scaled();
        let key = (
            std::sync::Arc::as_ptr(&scaled.0) as *const () as usize,
            kind,
        );
        if given.get(&entity).map(|g| g.key) != Some(key) {
            match pieces_of(scaled.as_typed_shape(), kind) {
                Ok(pieces) => {
                    let pieces = give(writer, part_ids, entity, id, name, pieces)?;
                    given.insert(entity, Given { key, pieces });
                }
                Err(_) if sensor => continue,
                Err(why) => return Err(CaptureError::Unsupported { what: label(), why }),
            }
        }
        let pieces = &given[&entity].pieces;
        let collider_pose = Pose2::from_parts(
            position.0,
            Rot2::from_cos_sin_unchecked(rotation.cos, rotation.sin),
        );
        let mut collision_margin = margin.map_or(0.0, |m| m.0);
        let layers = layers.copied().unwrap_or_default();
        let pairing = Pairing {
            filter: Some(Filter::layers(layers.memberships.0, layers.filters.0)),
            body_id: of.and_then(|o| entity_id(o.body)),
        };
        for piece in pieces {
            // A piece's pose is the collider's times the piece's, in f32 as parry composes it.
            let at = collider_pose * piece.local;
            let mut pose = BodyPose::new(
                piece.id,
                dvec(at.translation),
                DVec2::new(f64::from(at.rotation.cos()), f64::from(at.rotation.sin())),
            );
            if let Some((_, bpos, brot, com, v, w, sleeping, body_margin)) = body {
                let centre = bpos.0 + *brot * com.0;
                let r = at.translation - centre;
                let velocity = v.0 + w.0 * bevy::math::Vec2::new(-r.y, r.x);
                pose = pose.moving(
                    kind,
                    dvec(velocity),
                    f64::from(w.0),
                    !sleeping && kind != Body::Static,
                );
                if margin.is_none() {
                    collision_margin = body_margin.map_or(0.0, |m| m.0);
                }
            }
            writer.pairing(piece.id, pairing);
            poses.push(pose);
        }
        let pose = Pose::new(
            dvec(position.0),
            f64::from(rotation.sin).atan2(f64::from(rotation.cos)),
        );
        placed.insert(entity, (pose, collision_margin));
    }
    for pair in graph.active_pairs() {
        let (Some(&(pose1, m1)), Some(&(pose2, m2))) =
            (placed.get(&pair.collider1), placed.get(&pair.collider2))
        else {
            continue;
        };
        let sides = (
            Pieces {
                pose: pose1,
                pieces: &given[&pair.collider1].pieces,
            },
            Pieces {
                pose: pose2,
                pieces: &given[&pair.collider2].pieces,
            },
        );
        let mut taken: Vec<(u64, u64)> = Vec::new();
        for (k, m) in pair.manifolds.iter().enumerate() {
            if m.points.is_empty() {
                continue;
            }
            let mut manifold = manifold_of(m, (0, 0), m1 + m2, None);
            let (a, b) = attribute(&manifold, &sides, &taken);
            taken.push((a, b));
            (manifold.a, manifold.b) = (a, b);
            manifolds.push(manifold);
            sources.push((pair.collider1, pair.collider2, k));
        }
    }
    // Written once the solver has computed the step's impulses (`normal_impulse` reads 0 here).
    *pending = Some((time, sources));
    Ok(())
}

/// What was given to the writer for a collider: its scaled shape (its pointer) and body type,
/// and its capture shapes (one, its whole shape, or its pieces).
struct Given {
    key: (usize, Body),
    pieces: Vec<PieceOf>,
}

/// One capture shape of a collider: its id, its pose in the collider's frame (f32, as parry
/// holds a compound's parts), and the shape placed there (for finding a claim's piece).
struct PieceOf {
    id: u64,
    local: Pose2,
    shape: Placed,
}

/// A piece of a collider before it is given an id: its number (`None`: the collider's whole
/// shape), the word naming it ("part", "segment", "triangle"), its shape and its local pose.
struct Piece {
    part: Option<u32>,
    word: &'static str,
    shape: Shape,
    local: Pose2,
}

/// Give the writer the capture shapes of collider `entity` (id `id`): its whole shape, or each
/// of its pieces with its own id (stable per entity and piece) and name.
fn give(
    writer: &mut CaptureWriter<Output>,
    part_ids: &mut HashMap<(Entity, u32), u64>,
    entity: Entity,
    id: u64,
    name: Option<&Name>,
    pieces: Vec<Piece>,
) -> Result<Vec<PieceOf>, CaptureError> {
    let mut given = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let id = match piece.part {
            None => {
                writer.shape(id, piece.shape.clone(), name.map(|n| n.as_str()))?;
                id
            }
            Some(part) => {
                let next = FIRST_PART_ID + part_ids.len() as u64;
                let part_id = *part_ids.entry((entity, part)).or_insert(next);
                let name = match name {
                    Some(name) => format!("{}/{} {part}", name.as_str(), piece.word),
                    None => format!("entity {entity}/{} {part}", piece.word),
                };
                writer.shape(part_id, piece.shape.clone(), Some(&name))?;
                part_id
            }
        };
        let local = Pose::new(
            dvec(piece.local.translation),
            f64::from(piece.local.rotation.sin()).atan2(f64::from(piece.local.rotation.cos())),
        );
        given.push(PieceOf {
            id,
            local: piece.local,
            shape: Placed::new(piece.shape, local),
        });
    }
    Ok(given)
}

/// A collider of a pair: its pose in the frame and its capture shapes.
struct Pieces<'a> {
    pose: Pose,
    pieces: &'a [PieceOf],
}

impl Pieces<'_> {
    /// The pieces whose surface holds every one of `points` (world), the nearest first: those
    /// within `tolerance` of the least distance. All of them for a collider of one shape.
    fn holding(&self, points: &[DVec2], tolerance: f64) -> Vec<usize> {
        if self.pieces.len() == 1 {
            return vec![0];
        }
        let local: Vec<DVec2> = points.iter().map(|p| self.pose.inverse_apply(*p)).collect();
        let mut best = f64::INFINITY;
        let mut near: Vec<(f64, usize)> = Vec::new();
        for (k, piece) in self.pieces.iter().enumerate() {
            // A box test first: most pieces of a long polyline are far from the points.
            let (lo, hi) = piece.shape.aabb();
            let outside = local
                .iter()
                .map(|p| (lo - *p).max(*p - hi).max(DVec2::ZERO).length())
                .fold(0.0, f64::max);
            if outside > best + tolerance {
                continue;
            }
            let d = local
                .iter()
                .map(|p| distance_to_point(&piece.shape, *p))
                .fold(0.0, f64::max);
            best = best.min(d);
            near.push((d, k));
        }
        near.retain(|(d, _)| *d <= best + tolerance);
        near.sort_by(|x, y| x.0.total_cmp(&y.0));
        near.into_iter().map(|(_, k)| k).collect()
    }

    /// Piece `k` placed in the world.
    fn world(&self, k: usize) -> Placed {
        let piece = &self.pieces[k].shape;
        let pose = Pose::new(
            self.pose.apply(piece.pose.position),
            self.pose.angle() + piece.pose.angle(),
        );
        Placed::new(piece.shape.clone(), pose)
    }
}

/// The ids of the pieces `manifold` (ids not yet set; normal from the first collider toward
/// the second, separations as the capture holds them) is about, not one of the pairs `taken`
/// by the pair's earlier manifolds in the step (see the module's comment).
fn attribute(
    manifold: &Manifold,
    (one, two): &(Pieces, Pieces),
    taken: &[(u64, u64)],
) -> (u64, u64) {
    let n = manifold.normal;
    let on_one: Vec<DVec2> = manifold
        .points
        .iter()
        .map(|p| p.point - n * (p.separation * 0.5))
        .collect();
    let on_two: Vec<DVec2> = manifold
        .points
        .iter()
        .map(|p| p.point + n * (p.separation * 0.5))
        .collect();
    let size = on_one
        .iter()
        .chain(&on_two)
        .map(|p| p.abs().max_element())
        .fold(1.0, f64::max);
    let tolerance = 1e-4 * size;
    let (near_one, near_two) = (
        one.holding(&on_one, tolerance),
        two.holding(&on_two, tolerance),
    );
    let ids = |(i, j): (usize, usize)| (one.pieces[i].id, two.pieces[j].id);
    let nearest: Vec<(usize, usize)> = near_one
        .iter()
        .flat_map(|&i| near_two.iter().map(move |&j| (i, j)))
        .collect();
    let mut pairs: Vec<(usize, usize)> = nearest
        .iter()
        .copied()
        .filter(|&ij| !taken.contains(&ids(ij)))
        .collect();
    if pairs.is_empty() {
        // Every pair of nearest pieces was taken (which parry never does): the writer keeps
        // the deepest of a pair's claims.
        pairs = nearest;
    }
    if pairs.len() <= 1 {
        return ids(pairs.first().copied().unwrap_or((0, 0)));
    }
    // Several pieces hold the points: the pair whose exact normal is nearest the claimed one.
    let turned = |&(i, j): &(usize, usize)| {
        let (a, b) = (one.world(i), two.world(j));
        let exact = match collide(&a, &b) {
            Some(contact) => Some(contact.normal),
            None => distance(&a, &b)
                .closest
                .and_then(|c| (c.point_b - c.point_a).try_normalize()),
        };
        exact.map_or(f64::INFINITY, |e| 1.0 - e.dot(n))
    };
    let best = pairs
        .iter()
        .min_by(|x, y| turned(x).total_cmp(&turned(y)))
        .copied()
        .unwrap_or((0, 0));
    ids(best)
}

/// The capture shapes of a parry shape on a body of type `body`: itself, or its pieces (see
/// the module's comment), or why there are none.
fn pieces_of(shape: TypedShape<'_>, body: Body) -> Result<Vec<Piece>, String> {
    let piece = |part: usize, word, shape, local| Piece {
        part: Some(part as u32),
        word,
        shape,
        local,
    };
    let static_only = |what: &str| {
        (body == Body::Static).then_some(()).ok_or_else(|| {
            format!(
                "its collider is a {what} on a {} body: its segments are captured as segments, \
                 which a capture holds on static bodies only (use a compound of capsules or \
                 polygons on a moving body)",
                body.name()
            )
        })
    };
    let segment = |k: usize, s: &avian2d::parry::shape::Segment| {
        Segment::new(dvec(s.a), dvec(s.b))
            .map(Shape::from)
            .map_err(|e| format!("its segment {k}: {e}"))
    };
    match shape {
        TypedShape::Compound(compound) => {
            if compound
                .flags()
                .contains(avian2d::parry::shape::CompoundFlags::FIX_INTERNAL_EDGES)
            {
                return Err(refused_flag(
                    "compound",
                    "CompoundFlags::FIX_INTERNAL_EDGES",
                ));
            }
            compound
                .shapes()
                .iter()
                .enumerate()
                .map(|(k, (local, part))| {
                    shape_of(part.as_typed_shape(), body)
                        .map(|s| piece(k, "part", s, *local))
                        .map_err(|e| format!("its part {k}: {e}"))
                })
                .collect()
        }
        TypedShape::Polyline(polyline) => {
            if polyline.flags().contains(PolylineFlags::ORIENTED) {
                return Err(refused_flag("polyline", "PolylineFlags::ORIENTED"));
            }
            static_only("polyline")?;
            polyline
                .segments()
                .enumerate()
                .map(|(k, s)| segment(k, &s).map(|s| piece(k, "segment", s, Pose2::IDENTITY)))
                .collect()
        }
        TypedShape::HeightField(field) => {
            static_only("heightfield")?;
            (0..field.num_cells())
                .filter_map(|k| field.segment_at(k).map(|s| (k, s)))
                .map(|(k, s)| segment(k, &s).map(|s| piece(k, "segment", s, Pose2::IDENTITY)))
                .collect()
        }
        TypedShape::TriMesh(mesh) => {
            if mesh.flags().contains(TriMeshFlags::FIX_INTERNAL_EDGES) {
                return Err(refused_flag("trimesh", "TriMeshFlags::FIX_INTERNAL_EDGES"));
            }
            mesh.triangles()
                .enumerate()
                .map(|(k, t)| {
                    ConvexPolygon::new(vec![dvec(t.a), dvec(t.b), dvec(t.c)])
                        .map(|p| piece(k, "triangle", p.into(), Pose2::IDENTITY))
                        .map_err(|e| format!("its triangle {k}: {e}"))
                })
                .collect()
        }
        whole => Ok(vec![Piece {
            part: None,
            word: "",
            shape: shape_of(whole, body)?,
            local: Pose2::IDENTITY,
        }]),
    }
}

/// Why a shape with a flag that clamps its normals is refused.
fn refused_flag(shape: &str, flag: &str) -> String {
    format!(
        "its collider is a {shape} with {flag}: its contact normals are clamped by pseudo-normals \
         of the whole surface, which no single piece gives, so its claims could not be judged \
         piece by piece; build it without the flag"
    )
}

/// The capture's shape for a parry shape on a body of type `body`, or why there is none.
fn shape_of(shape: TypedShape<'_>, body: Body) -> Result<Shape, String> {
    let p = |v: bevy::math::Vec2| dvec(v);
    let invalid = |what: &str, e: collidoscope::geometry::ShapeError| format!("its {what}: {e}");
    match shape {
        TypedShape::Ball(b) => Circle::new(f64::from(b.radius))
            .map(Shape::from)
            .map_err(|e| invalid("circle", e)),
        TypedShape::Cuboid(c) => ConvexPolygon::rectangle(p(c.half_extents))
            .map(Shape::from)
            .map_err(|e| invalid("rectangle", e)),
        TypedShape::Capsule(c) => Capsule::new(p(c.segment.a), p(c.segment.b), f64::from(c.radius))
            .map(Shape::from)
            .map_err(|e| invalid("capsule", e)),
        TypedShape::ConvexPolygon(poly) => {
            ConvexPolygon::new(poly.points().iter().map(|q| p(*q)).collect())
                .map(Shape::from)
                .map_err(|e| invalid("convex polygon", e))
        }
        TypedShape::Triangle(t) => ConvexPolygon::new(vec![p(t.a), p(t.b), p(t.c)])
            .map(Shape::from)
            .map_err(|e| invalid("triangle", e)),
        TypedShape::Segment(s) if body == Body::Static => Segment::new(p(s.a), p(s.b))
            .map(Shape::from)
            .map_err(|e| invalid("segment", e)),
        TypedShape::Segment(_) => Err(format!(
            "its collider is a segment on a {} body, and a capture holds segments on static \
             bodies only: use a capsule, or put the segment on a static body",
            body.name()
        )),
        // A round shape is its inner shape grown by its border radius: a rounded polygon.
        TypedShape::RoundCuboid(c) => ConvexPolygon::rectangle(p(c.inner_shape.half_extents))
            .and_then(|q| q.with_radius(f64::from(c.border_radius)))
            .map(Shape::from)
            .map_err(|e| invalid("round rectangle", e)),
        TypedShape::RoundConvexPolygon(poly) => {
            ConvexPolygon::new(poly.inner_shape.points().iter().map(|q| p(*q)).collect())
                .and_then(|q| q.with_radius(f64::from(poly.border_radius)))
                .map(Shape::from)
                .map_err(|e| invalid("round convex polygon", e))
        }
        TypedShape::RoundTriangle(t) => {
            let i = &t.inner_shape;
            ConvexPolygon::new(vec![p(i.a), p(i.b), p(i.c)])
                .and_then(|q| q.with_radius(f64::from(t.border_radius)))
                .map(Shape::from)
                .map_err(|e| invalid("round triangle", e))
        }
        _ => Err(
            "its collider's shape has no kind in a capture (it holds circles, rectangles, \
             capsules, convex polygons, triangles, their round forms, segments, polylines and \
             heightfields on static bodies, trimeshes, and compounds of these)"
                .into(),
        ),
    }
}

/// Avian's narrow phase, for engine fixture tests
/// (`collidoscope fixture --rust TEST.rs --engine avian2d`): each pinned pair rebuilt as
/// Avian colliders at f32 (`Collider::circle`, `Collider::rectangle` for a rectangle centred
/// on its pose, `Collider::convex_hull` for any other polygon, `Collider::capsule_endpoints`,
/// `Collider::segment`; a chain's piece as a segment, which parry collides on both sides) and
/// asked through Avian's own `contact_query::contact_manifolds` with `prediction` (default:
/// `NarrowPhaseConfig`'s default contact tolerance); the deepest manifold is the answer.
#[derive(Clone, Copy, Debug)]
pub struct AvianNarrowPhase {
    /// How far apart Avian keeps speculative points.
    pub prediction: f32,
}

impl Default for AvianNarrowPhase {
    fn default() -> Self {
        Self {
            prediction: NarrowPhaseConfig::default().contact_tolerance,
        }
    }
}

impl FixtureNarrowPhase for AvianNarrowPhase {
    fn name(&self) -> String {
        format!("avian2d {AVIAN_VERSION} (contact_query::contact_manifolds)")
    }

    fn contact(&self, a: &Placed, b: &Placed, piece: Option<usize>) -> Result<Reported, String> {
        let (c1, p1, r1) = avian_collider(a, piece)?;
        let (c2, p2, r2) = avian_collider(b, piece)?;
        let mut found = Vec::new();
        contact_manifolds(&c1, p1, r1, &c2, p2, r2, self.prediction, &mut found);
        let found: Vec<Manifold> = found
            .iter()
            .map(|m| manifold_of(m, (0, 1), 0.0, piece))
            .collect();
        engine_answer(&found, piece)
    }
}

/// An Avian manifold as a capture holds it: ids `a` and `b`, each point's separation its
/// `penetration` negated with `margins` (the two colliders' `CollisionMargin`s) taken off.
fn manifold_of(
    m: &ContactManifold,
    (a, b): (u64, u64),
    margins: f32,
    piece: Option<usize>,
) -> Manifold {
    Manifold {
        a,
        b,
        normal: dvec(m.normal),
        points: m
            .points
            .iter()
            .map(|p| ManifoldPoint {
                point: dvec(p.point),
                separation: f64::from(margins - p.penetration),
                impulse: None,
            })
            .collect(),
        piece,
    }
}

/// `placed` as an Avian collider at f32 with its position and rotation.
fn avian_collider(
    placed: &Placed,
    piece: Option<usize>,
) -> Result<(Collider, bevy::math::Vec2, Rotation), String> {
    let v = |p: DVec2| bevy::math::Vec2::new(p.x as f32, p.y as f32);
    let collider = match &placed.shape {
        Shape::Circle(c) => Collider::circle(c.radius() as f32),
        Shape::Capsule(c) => Collider::capsule_endpoints(c.radius() as f32, v(c.a()), v(c.b())),
        Shape::Segment(s) => Collider::segment(v(s.a()), v(s.b())),
        Shape::Chain(c) => {
            let p = asked_piece(c, piece)?;
            Collider::segment(v(p.p1), v(p.p2))
        }
        Shape::Polygon(p) if p.is_rounded() => {
            let r = p.radius() as f32;
            match p.centred_half_extents() {
                Some(half) => {
                    Collider::round_rectangle(2.0 * half.x as f32, 2.0 * half.y as f32, r)
                }
                None => {
                    let corners: Vec<bevy::math::Vec2> = p.points().iter().map(|q| v(*q)).collect();
                    avian2d::parry::shape::SharedShape::round_convex_hull(&corners, r)
                        .map(Collider::from)
                        .ok_or("parry's round_convex_hull refuses the polygon's corners")?
                }
            }
        }
        Shape::Polygon(p) => match p.centred_half_extents() {
            Some(half) => Collider::rectangle(2.0 * half.x as f32, 2.0 * half.y as f32),
            None => {
                let corners: Vec<bevy::math::Vec2> = p.points().iter().map(|q| v(*q)).collect();
                Collider::convex_hull(&corners)
                    .ok_or("Avian's convex_hull refuses the polygon's corners")?
            }
        },
    };
    let rotation = Rotation::radians(placed.pose.angle() as f32);
    Ok((collider, v(placed.pose.position), rotation))
}
