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
//! at the start of the step (`Time<Physics>`'s elapsed time less the step).
//!
//! What the capture holds:
//! - one shape per collider entity (id: the entity's index in the low 32 bits, its generation
//!   above; named by its `Name` when it has one): a ball is a circle, a cuboid a rectangle
//!   polygon, a capsule a capsule, a convex polygon or triangle a polygon, a segment a segment
//!   on a static body (or none), a round rectangle, round convex polygon or round triangle a
//!   polygon with its border radius as `radius` (shape-set version 4); scaled as Avian scales
//!   it (`Collider::shape_scaled`). Other shapes (compounds, polylines, meshes, heightfields,
//!   ellipses) are refused
//!   once, naming the entity, and the capture stops; a sensor or a disabled collider with
//!   such a shape is left out.
//! - the pose: the collider's own `Position` and `Rotation` (world; Avian keeps (cos, sin)).
//! - the body: `RigidBody::Static` (or no body) is static, `Kinematic` kinematic, `Dynamic`
//!   dynamic; the velocity is the body's at the collider's position (`v + w x r`, `r` from the
//!   body's world centre of mass); awake unless the body is static or `Sleeping`.
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
use avian2d::parry::shape::TypedShape;
use avian2d::prelude::*;
use bevy::app::{App, Plugin};
use bevy::ecs::entity::Entity;
use bevy::ecs::name::Name;
use bevy::ecs::prelude::*;
use bevy::time::{Fixed, Time};
use collidoscope::Reported;
use collidoscope::capture::{
    BodyPose, CaptureError, CaptureWriter, Engine, Filter, Header, MARGIN_SETTING, Manifold,
    ManifoldPoint, NormalFrom, Pairing, Penetration, StepJudgement, ToWindow,
};
use collidoscope::fixture::{NarrowPhase as FixtureNarrowPhase, asked_piece, engine_answer};
use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Segment, Shape};
use collidoscope::scene::{Body, Precision};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// The avian2d version this adapter reads.
pub const AVIAN_VERSION: &str = "0.8.0";

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
            poses: Vec::new(),
            manifolds: Vec::new(),
            failed,
            judging: self.judging,
            judged: None,
            first_not_clean: None,
        });
        app.add_systems(
            PhysicsSchedule,
            capture_step.in_set(NarrowPhaseSystems::Last),
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
    /// Each collider's scaled shape (its pointer) and body type as last given to the writer.
    given: HashMap<Entity, (usize, Body)>,
    poses: Vec<BodyPose>,
    manifolds: Vec<Manifold>,
    /// A step failed (said once on stderr): nothing more is written.
    failed: bool,
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
                eprintln!(
                    "collidoscope: {}: cannot write the capture: {e}",
                    state.said
                );
                state.failed = true;
                return;
            }
        }
    }
    if let Err(e) = write_step(&mut state, start, &graph, &colliders, &bodies) {
        eprintln!("collidoscope: {}: the capture stops here: {e}", state.said);
        state.failed = true;
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

fn write_step(
    state: &mut AvianCaptureState,
    time: f64,
    graph: &ContactGraph,
    colliders: &Query<ColliderRow, Without<ColliderDisabled>>,
    bodies: &Query<BodyRow>,
) -> Result<(), CaptureError> {
    let AvianCaptureState {
        writer,
        given,
        poses,
        manifolds,
        ..
    } = state;
    let writer = writer.as_mut().expect("opened");
    poses.clear();
    manifolds.clear();
    let mut margins: HashMap<Entity, (u64, f32)> = HashMap::new();
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
        if given.get(&entity) != Some(&key) {
            match shape_of(scaled.as_typed_shape(), kind) {
                Ok(shape) => {
                    writer.shape(id, shape, name.map(|n| n.as_str()))?;
                    given.insert(entity, key);
                }
                Err(_) if sensor => continue,
                Err(why) => return Err(CaptureError::Unsupported { what: label(), why }),
            }
        }
        let mut pose = BodyPose::new(
            id,
            dvec(position.0),
            DVec2::new(f64::from(rotation.cos), f64::from(rotation.sin)),
        );
        let mut collision_margin = margin.map_or(0.0, |m| m.0);
        if let Some((_, bpos, brot, com, v, w, sleeping, body_margin)) = body {
            let centre = bpos.0 + *brot * com.0;
            let r = position.0 - centre;
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
        let layers = layers.copied().unwrap_or_default();
        let pairing = Pairing {
            filter: Some(Filter::layers(layers.memberships.0, layers.filters.0)),
            body_id: of.and_then(|o| entity_id(o.body)),
        };
        writer.pairing(id, pairing);
        poses.push(pose);
        margins.insert(entity, (id, collision_margin));
    }
    for pair in graph.active_pairs() {
        let (Some(&(a, m1)), Some(&(b, m2))) =
            (margins.get(&pair.collider1), margins.get(&pair.collider2))
        else {
            continue;
        };
        for m in &pair.manifolds {
            if m.points.is_empty() {
                continue;
            }
            manifolds.push(manifold_of(m, (a, b), m1 + m2, None));
        }
    }
    writer.poses(time, poses, manifolds)
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
             capsules, convex polygons, triangles, their round forms, and segments on static \
             bodies)"
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
