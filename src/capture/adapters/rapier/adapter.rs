//! Captures from a Rapier world (`f32`, 2D): every collider's shape and pose read before
//! `PhysicsPipeline::step`, and every contact manifold of the narrow phase read after it.
//! Written once for every Rapier version the adapter reads: the version's module (`v0_36.rs`,
//! `v0_35.rs`, `v0_34.rs`) names its `rapier2d` and the few calls that differ (`shim`).
//!
//! Rapier computes a step's contacts at the start of `PhysicsPipeline::step`, before it moves
//! the bodies, so the poses read *before* a step go with the contacts read *after* it. A game
//! wraps its own step in two calls:
//!
//! ```ignore
//! use collidoscope::capture::rapier::{RapierCapture, fresh_narrow_phase, header};
//!
//! params.contact_recycling = false; // see "Contacts kept from earlier steps" below
//! let mut narrow_phase = fresh_narrow_phase(); // optional, same section
//! let file = std::fs::File::create("game.capture.jsonl")?;
//! let mut capture = RapierCapture::new(file, &header(&params, "m", true))?;
//! // every step:
//! capture.before_step(&bodies, &colliders)?;
//! pipeline.step(gravity, &params, &mut islands, &mut broad_phase, &mut narrow_phase, /* ... */);
//! capture.after_step(time, &narrow_phase)?; // `time`: simulated seconds at the start of the step
//! ```
//!
//! What the capture holds:
//! - one shape per collider, with the id [`collider_id`] (index and generation of its
//!   handle). A ball is a circle centred on the collider's position; a cuboid a rectangle
//!   polygon; a capsule a capsule (its segment and radius, local); a convex polygon a polygon
//!   (its points in Rapier's order); a triangle a three-point polygon; a segment a segment,
//!   on a fixed body (or no body) only. A `RoundCuboid`, `RoundConvexPolygon` or
//!   `RoundTriangle` is the polygon of its inner shape with the border radius as its `radius`
//!   (shape-set version 4).
//! - the shapes made of pieces, one capture shape per piece, each with its own id (from
//!   [`FIRST_PART_ID`] up, given in the order first seen and kept while the capture runs) and
//!   the name `NAME/part k` (`NAME/segment k`, `NAME/triangle k`; `NAME` is the collider's
//!   name or `collider INDEX`): a `Compound`'s parts, each posed by the collider's pose times
//!   the part's; a `Polyline`'s and a `HeightField`'s segments as two-sided segments (what
//!   parry collides: each segment as a `Segment` shape), on a fixed body; a `TriMesh`'s
//!   triangles as polygons. A claim parry makes on a part or piece (`subshape1`, `subshape2`
//!   of its manifold) is a claim on that piece's shape, its points placed with the piece's
//!   pose. Refused by name: a `Polyline` with `PolylineFlags::ORIENTED`, a `Compound` with
//!   `CompoundFlags::FIX_INTERNAL_EDGES` and a `TriMesh` with `TriMeshFlags::FIX_INTERNAL_EDGES`
//!   (their normals are clamped by pseudo-normals of the whole surface, which no piece alone
//!   gives), and `HalfSpace`, `Voxels` and custom shapes. A refused collider is named in a
//!   [`CaptureError`], unless it can make no contact (a sensor, or disabled): such a collider
//!   is left out of the capture. Sensors and disabled colliders whose shape can be captured are
//!   kept, so that one switched on and off keeps its id (a capture never takes an id back once
//!   it was removed).
//! - the pose of each collider is its parent body's position times the collider's position
//!   relative to the body (what the step's narrow phase uses, also when the game moved the body
//!   since the last step), or the collider's own position when it has no body. The rotation
//!   is written as Rapier keeps it, (cos, sin).
//! - the body type: fixed (or no body) is static, kinematic (position or velocity based) is
//!   kinematic, dynamic (and a soft-body cluster's proxy) is dynamic. The velocity is the
//!   body's velocity at the collider's position (`v + w x r`, `r` from the body's centre of
//!   mass), which is what the format's `velocity` means; the angular velocity is the body's. A
//!   kinematic position-based body's velocity is the one Rapier computed in the step before.
//! - a shape is awake when its body is neither fixed nor sleeping: the writer leaves out a
//!   contact between two shapes that are not awake (Rapier did not recompute it in that step).
//! - the claims, from the manifolds of every contact pair with some active (solver) contact:
//!   A is `collider1`, B is `collider2`, the normal is `manifold.data.normal` (world, from
//!   `collider1` toward `collider2`), and each tracked point's separation is its `dist`
//!   (negative when penetrating, without the colliders' contact skins); its point is the
//!   midpoint of the two surface points (`local_p1` and `local_p2` placed with the poses read
//!   before the step). Rapier keeps points up to the prediction distance apart: a manifold with
//!   no negative `dist` is an apart claim.
//!
//! Contacts kept from earlier steps. Rapier's contact recycling
//! (`IntegrationParameters::contact_recycling`, on by default) skips a pair's update while
//! it moved less than `contact_recycle_distance` since its last update: its points, `dist` and
//! normal stay those of that update, possibly many steps before, and its claims disagree (a
//! resting stack keeps reporting the separations it had when it was built). Set it to `false`
//! while capturing. Parry also keeps the points and normal of a manifold while the two shapes
//! turned less than 1 degree relative to each other and the points moved less than 1e-3 (in
//! the world's unit) since they were computed, and recomputes only each point's `dist` along
//! the kept normal (`ContactManifold::try_update_contacts`; every pair without a ball, except
//! capsule against capsule). The depth is then the kept points' depth, which for a rounded
//! shape that rolled is short by up to `radius * (1 - cos(1 degree))`, 1.5e-4 of the radius: a
//! few such claims disagree at f32 near the origin. [`fresh_narrow_phase`] turns that off.
//!
//! With `IntegrationParameters::max_ccd_substeps` greater than 1, a step in which the CCD acts
//! runs the narrow phase again at the poses of each CCD substep, and the contacts read after
//! the step belong to the last substep, not to the poses read before it. Keep the default 1.

use super::rapier2d;
use super::shim::{self, DistanceOut, IntersectionOut};
use collidoscope::Reported;
use collidoscope::capture::adapters::narrow_phase::{
    NarrowPhase as FixtureNarrowPhase, asked_piece, engine_answer,
};
use collidoscope::capture::{
    BodyPose, CaptureError, CaptureWriter, Engine, Filter, Header, MARGIN_SETTING, Manifold,
    ManifoldPoint, ManifoldPoints, NormalFrom, Pairing, Penetration, StepJudgement,
};
use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Segment, Shape};
use collidoscope::scene::{Body, Precision};
use rapier2d::dynamics::{IntegrationParameters, RigidBodySet, RigidBodyType};
use rapier2d::geometry::{
    ColliderHandle, ColliderSet, ContactData, ContactManifoldData, InteractionTestMode,
    NarrowPhase, TypedShape,
};
use rapier2d::math::{Pose, Real, Vector};
use rapier2d::parry::query::details::NormalConstraints;
use rapier2d::parry::query::{
    ClosestPoints, Contact, ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher,
    NonlinearRigidMotion, PersistentQueryDispatcher, QueryDispatcher, ShapeCastHit,
    ShapeCastOptions, Unsupported,
};
use rapier2d::parry::shape::{PolylineFlags, Shape as ParryShape, SharedShape, TriMeshFlags};
use std::collections::HashMap;
use std::io::{self, Write};

/// The Rapier version this adapter reads (the `engine.version` of [`header`]).
pub const RAPIER_VERSION: &str = shim::VERSION;

/// The first id of a piece of a collider made of pieces (a `Compound`'s part, a `Polyline`'s
/// or `HeightField`'s segment, a `TriMesh`'s triangle): 2^52. A collider's own id reaches it
/// only when its handle's generation is 2^20 (a slot reused a million times).
pub use collidoscope::capture::FIRST_PART_ID;

/// The capture id of a collider: its handle's index in the low 32 bits and its generation
/// above them, `index | generation << 32`. `None` when the generation is 2^21 or more (the
/// id would not be below 2^53, the largest a capture holds).
pub fn collider_id(handle: ColliderHandle) -> Option<u64> {
    let (index, generation) = handle.into_raw_parts();
    let id = u64::from(index) | (u64::from(generation) << 32);
    (id < 1 << 53).then_some(id)
}

/// The header of a capture of a Rapier world: engine `rapier2d` at [`RAPIER_VERSION`], with the
/// settings that change which contacts Rapier reports (`contact_recycling`, `dt`,
/// `length_unit`, `prediction_distance`, `max_ccd_substeps`, `num_solver_iterations`),
/// precision f32, lengths in `units` (`"m"`, `"px"`, ...), and `y_up`: whether +y points up
/// in the game's world (`false` for screen pixels, +y down).
pub fn header(params: &IntegrationParameters, units: &str, y_up: bool) -> Header {
    let engine = Engine::new("rapier2d", RAPIER_VERSION)
        .with_setting("contact_recycling", shim::contact_recycling(params))
        .with_setting("dt", f64::from(params.dt))
        .with_setting("length_unit", f64::from(params.length_unit))
        .with_setting(
            "prediction_distance",
            f64::from(params.prediction_distance()),
        )
        .with_setting(MARGIN_SETTING, f64::from(params.prediction_distance()))
        .with_setting("max_ccd_substeps", params.max_ccd_substeps as u64)
        .with_setting("num_solver_iterations", params.num_solver_iterations as u64);
    Header {
        engine,
        precision: Precision::F32,
        units: units.to_string(),
        y_up,
    }
}

/// Writes a capture of a Rapier world: [`Self::before_step`] and [`Self::after_step`] around
/// every `PhysicsPipeline::step`.
pub struct RapierCapture<W: Write> {
    writer: CaptureWriter<W>,
    names: HashMap<ColliderHandle, String>,
    /// Each collider's shape as last given to the writer, in Rapier's numbers, with its body
    /// type and its pieces: a shape is converted and given again only when these change, never
    /// every step.
    given: HashMap<ColliderHandle, Given>,
    /// The ids of the pieces of colliders made of pieces, by collider and piece.
    part_ids: HashMap<(ColliderHandle, u32), u64>,
    /// The poses read by the last `before_step`, and each collider's pose then (its pieces
    /// are in `given`).
    shapes: Vec<BodyPose>,
    poses: HashMap<ColliderHandle, Pose>,
    /// The manifolds of a step, kept so their room is reused.
    contacts: Vec<Manifold>,
    read: bool,
}

/// A capture shape of a collider: the collider's whole shape (`part` `None`), or its piece
/// `part` (the `subshape` parry names in a manifold), posed by `local` in the collider's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PieceId {
    part: Option<u32>,
    id: u64,
    local: Pose,
}

/// What was given to the writer for a collider.
struct Given {
    raw: RawShape,
    body: Body,
    pieces: Vec<PieceId>,
}

/// A Rapier shape's own numbers, compared without converting it.
#[derive(Clone, Debug, PartialEq)]
enum RawShape {
    Ball(Real),
    Cuboid(Vector),
    Capsule(Vector, Vector, Real),
    Polygon(Vec<Vector>),
    Triangle([Vector; 3]),
    Segment(Vector, Vector),
    RoundCuboid(Vector, Real),
    RoundPolygon(Vec<Vector>, Real),
    RoundTriangle([Vector; 3], Real),
    /// A shape made of pieces, known by where its data lies, how many pieces it has and its
    /// bounding box (an edit in place changes the box or the count).
    Pieces(usize, usize, [Real; 4]),
    /// A shape the capture holds no kind for.
    Other,
}

impl RawShape {
    /// Whether `shape` has these numbers (bit for bit), allocating nothing.
    fn is(&self, shape: &TypedShape<'_>) -> bool {
        match (self, shape) {
            (RawShape::Ball(r), TypedShape::Ball(b)) => *r == b.radius,
            (RawShape::Cuboid(h), TypedShape::Cuboid(c)) => *h == c.half_extents,
            (RawShape::Capsule(a, b, r), TypedShape::Capsule(c)) => {
                (*a, *b, *r) == (c.segment.a, c.segment.b, c.radius)
            }
            (RawShape::Polygon(points), TypedShape::ConvexPolygon(p)) => points == p.points(),
            (RawShape::Triangle(t), TypedShape::Triangle(u)) => *t == [u.a, u.b, u.c],
            (RawShape::Segment(a, b), TypedShape::Segment(s)) => (*a, *b) == (s.a, s.b),
            (RawShape::RoundCuboid(h, r), TypedShape::RoundCuboid(c)) => {
                (*h, *r) == (c.inner_shape.half_extents, c.border_radius)
            }
            (RawShape::RoundPolygon(points, r), TypedShape::RoundConvexPolygon(p)) => {
                *r == p.border_radius && points == p.inner_shape.points()
            }
            (RawShape::RoundTriangle(t, r), TypedShape::RoundTriangle(u)) => {
                let i = &u.inner_shape;
                (*t, *r) == ([i.a, i.b, i.c], u.border_radius)
            }
            (RawShape::Pieces(..), shape) => *self == Self::of(shape),
            _ => false,
        }
    }

    fn of(shape: &TypedShape<'_>) -> Self {
        match shape {
            TypedShape::Ball(b) => RawShape::Ball(b.radius),
            TypedShape::Cuboid(c) => RawShape::Cuboid(c.half_extents),
            TypedShape::Capsule(c) => RawShape::Capsule(c.segment.a, c.segment.b, c.radius),
            TypedShape::ConvexPolygon(p) => RawShape::Polygon(p.points().to_vec()),
            TypedShape::Triangle(t) => RawShape::Triangle([t.a, t.b, t.c]),
            TypedShape::Segment(s) => RawShape::Segment(s.a, s.b),
            TypedShape::RoundCuboid(c) => {
                RawShape::RoundCuboid(c.inner_shape.half_extents, c.border_radius)
            }
            TypedShape::RoundConvexPolygon(p) => {
                RawShape::RoundPolygon(p.inner_shape.points().to_vec(), p.border_radius)
            }
            TypedShape::RoundTriangle(t) => {
                let i = &t.inner_shape;
                RawShape::RoundTriangle([i.a, i.b, i.c], t.border_radius)
            }
            TypedShape::Compound(c) => {
                let aabb = c.local_aabb();
                pieces_raw(
                    c as *const _ as usize,
                    c.shapes().len(),
                    aabb.mins,
                    aabb.maxs,
                )
            }
            TypedShape::Polyline(p) => {
                let aabb = p.local_aabb();
                pieces_raw(
                    p as *const _ as usize,
                    p.num_segments(),
                    aabb.mins,
                    aabb.maxs,
                )
            }
            TypedShape::HeightField(h) => {
                let aabb = h.root_aabb();
                pieces_raw(h as *const _ as usize, h.num_cells(), aabb.mins, aabb.maxs)
            }
            TypedShape::TriMesh(t) => {
                let aabb = t.local_aabb();
                pieces_raw(
                    t as *const _ as usize,
                    t.num_triangles(),
                    aabb.mins,
                    aabb.maxs,
                )
            }
            _ => RawShape::Other,
        }
    }
}

fn pieces_raw(at: usize, count: usize, mins: Vector, maxs: Vector) -> RawShape {
    RawShape::Pieces(at, count, [mins.x, mins.y, maxs.x, maxs.y])
}

impl<W: Write> RapierCapture<W> {
    /// Write `header` (see [`header`]) to `out`, with Rapier's conventions: the normal from
    /// `collider1` toward `collider2`, and `dist` negative when penetrating.
    pub fn new(out: W, header: &Header) -> io::Result<Self> {
        let writer = CaptureWriter::new(
            out,
            header,
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )?;
        Ok(Self::with_writer(writer))
    }

    /// The same, gzip-compressed (flushed at every frame).
    pub fn compressed(out: W, header: &Header) -> io::Result<Self> {
        let writer = CaptureWriter::compressed(
            out,
            header,
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )?;
        Ok(Self::with_writer(writer))
    }

    fn with_writer(writer: CaptureWriter<W>) -> Self {
        Self {
            writer,
            names: HashMap::new(),
            given: HashMap::new(),
            part_ids: HashMap::new(),
            shapes: Vec::new(),
            poses: HashMap::new(),
            contacts: Vec::new(),
            read: false,
        }
    }

    /// Give `collider` a name to show in the capture and in error messages. A name given
    /// after the collider's first frame is written with its next frame.
    pub fn name(&mut self, collider: ColliderHandle, name: impl Into<String>) {
        self.names.insert(collider, name.into());
        // Given to the writer again, with its name, at the next step.
        self.given.remove(&collider);
    }

    /// Read every collider's pose, body type, velocity and awake state, before
    /// `PhysicsPipeline::step`, and its shape when it is new or changed (a shape that stays
    /// the same is compared in Rapier's numbers, not converted again). Refused
    /// ([`CaptureError::Unsupported`], naming the collider) when a collider that can make
    /// contacts has a shape the capture cannot hold, or its id would be 2^53 or more.
    pub fn before_step(
        &mut self,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
    ) -> Result<(), CaptureError> {
        self.shapes.clear();
        self.poses.clear();
        self.read = false;
        for (handle, collider) in colliders.iter() {
            let fail = |why: String| CaptureError::Unsupported {
                what: self.label(handle),
                why,
            };
            let Some(id) = collider_id(handle) else {
                return Err(fail(
                    "its handle's generation is 2^21 or more, so its id would not be below 2^53"
                        .into(),
                ));
            };
            let body = collider.parent().and_then(|h| bodies.get(h));
            let pose = match (body, collider.position_wrt_parent()) {
                // What Rapier's step puts in the collider's position before its narrow phase.
                (Some(rb), Some(wrt_parent)) => *rb.position() * *wrt_parent,
                _ => *collider.position(),
            };
            let kind = match body.map(|rb| rb.body_type()) {
                None | Some(RigidBodyType::Fixed) => Body::Static,
                Some(RigidBodyType::KinematicPositionBased)
                | Some(RigidBodyType::KinematicVelocityBased) => Body::Kinematic,
                Some(_) => Body::Dynamic,
            };
            let can_touch = collider.is_enabled() && !collider.is_sensor();
            let typed = collider.shape().as_typed_shape();
            let known = self
                .given
                .get(&handle)
                .is_some_and(|g| g.body == kind && g.raw.is(&typed));
            if !known {
                match pieces_of(typed, kind) {
                    Ok(pieces) => {
                        let ids = self.give(handle, id, pieces)?;
                        let raw = RawShape::of(&typed);
                        self.given.insert(
                            handle,
                            Given {
                                raw,
                                body: kind,
                                pieces: ids,
                            },
                        );
                    }
                    Err(_) if !can_touch => continue,
                    Err(why) => return Err(fail(why)),
                }
            }
            // Read where they are kept: no copy of a collider's pieces each step.
            let pieces = self.given.get(&handle).map_or(&[][..], |g| &g.pieces);
            let groups = collider.collision_groups();
            let filter = Filter::layers(groups.memberships.bits(), groups.filter.bits())
                .with_either(groups.test_mode == InteractionTestMode::Or);
            let body_id = collider.parent().map(|h| {
                let (index, generation) = h.into_raw_parts();
                u64::from(index) | u64::from(generation) << 32
            });
            for piece in pieces {
                let at = pose * piece.local;
                let position = DVec2::new(f64::from(at.translation.x), f64::from(at.translation.y));
                let rotation =
                    DVec2::new(f64::from(at.rotation.cos()), f64::from(at.rotation.sin()));
                let mut captured = BodyPose::new(piece.id, position, rotation);
                if let Some(rb) = body {
                    // The body's velocity at the shape's position: v + w x r, r from the
                    // centre of mass (placed with the same pose as the collider).
                    let com = *rb.position() * rb.local_center_of_mass();
                    let r = at.translation - com;
                    let w = rb.angvel();
                    let v = rb.linvel() + Vector::new(-w * r.y, w * r.x);
                    let awake = !rb.is_sleeping() && kind != Body::Static;
                    captured = captured.moving(
                        kind,
                        DVec2::new(f64::from(v.x), f64::from(v.y)),
                        f64::from(w),
                        awake,
                    );
                }
                self.writer.pairing(
                    piece.id,
                    Pairing {
                        filter: Some(filter),
                        body_id: body_id.filter(|id| *id < 1 << 53),
                    },
                );
                self.shapes.push(captured);
            }
            self.poses.insert(handle, pose);
        }
        self.read = true;
        Ok(())
    }

    /// Give the writer the capture shapes of collider `handle` (id `id`): its whole shape, or
    /// each of its pieces with its own id and name. Gives back the pieces' ids and poses.
    fn give(
        &mut self,
        handle: ColliderHandle,
        id: u64,
        pieces: Vec<Piece>,
    ) -> Result<Vec<PieceId>, CaptureError> {
        let mut ids = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let Some(part) = piece.part else {
                let name = self.names.get(&handle).map(String::as_str);
                self.writer.shape(id, piece.shape, name)?;
                ids.push(PieceId {
                    part: None,
                    id,
                    local: piece.local,
                });
                continue;
            };
            let next = FIRST_PART_ID + self.part_ids.len() as u64;
            let part_id = *self.part_ids.entry((handle, part)).or_insert(next);
            let name = match self.names.get(&handle) {
                Some(name) => format!("{name}/{} {part}", piece.word),
                None => format!(
                    "collider {}/{} {part}",
                    handle.into_raw_parts().0,
                    piece.word
                ),
            };
            self.writer.shape(part_id, piece.shape, Some(&name))?;
            ids.push(PieceId {
                part: Some(part),
                id: part_id,
                local: piece.local,
            });
        }
        Ok(ids)
    }

    /// The contact manifolds of `narrow_phase`, after `PhysicsPipeline::step`, as the writer
    /// takes them, with the poses read by [`Self::before_step`]: what [`Self::after_step`]
    /// writes. Refused ([`CaptureError::Contract`]) unless `before_step` read the poses since
    /// the last frame, or when a pair names a collider `before_step` did not read (added
    /// between `before_step` and the step).
    pub fn contacts(&self, narrow_phase: &NarrowPhase) -> Result<Vec<Manifold>, CaptureError> {
        let mut contacts = Vec::new();
        self.contacts_into(narrow_phase, &mut contacts)?;
        Ok(contacts)
    }

    /// [`Self::contacts`] into `contacts` (cleared first), its room reused.
    fn contacts_into(
        &self,
        narrow_phase: &NarrowPhase,
        contacts: &mut Vec<Manifold>,
    ) -> Result<(), CaptureError> {
        if !self.read {
            return Err(not_read());
        }
        contacts.clear();
        for pair in narrow_phase.contact_pairs() {
            if !pair.has_any_active_contact() {
                continue;
            }
            let pose = |handle: ColliderHandle| {
                let pieces = self.given.get(&handle).map_or(&[][..], |g| &g.pieces);
                self.poses.get(&handle).map(|p| (pieces, p)).ok_or_else(|| {
                    CaptureError::Contract(format!(
                        "{} is in a contact pair of the step, but `before_step` did not read \
                         it (it was added between `before_step` and the step)",
                        self.label(handle)
                    ))
                })
            };
            let (pieces1, pose1) = pose(pair.collider1)?;
            let (pieces2, pose2) = pose(pair.collider2)?;
            for manifold in shim::manifolds(pair) {
                if manifold.points.is_empty() {
                    continue;
                }
                let (sub1, sub2) = shim::subshape_poses(manifold);
                let (Some(a), Some(b)) = (
                    piece_id(pieces1, manifold.subshape1),
                    piece_id(pieces2, manifold.subshape2),
                ) else {
                    return Err(CaptureError::Contract(format!(
                        "a manifold of {} and {} names a piece (subshapes {} and {}) the \
                         capture did not read",
                        self.label(pair.collider1),
                        self.label(pair.collider2),
                        manifold.subshape1,
                        manifold.subshape2
                    )));
                };
                // A piece's points are in its own frame: the collider's pose times the piece's.
                let (at1, at2) = (
                    sub1.map_or(*pose1, |p| *pose1 * p),
                    sub2.map_or(*pose2, |p| *pose2 * p),
                );
                let points: ManifoldPoints = manifold
                    .points
                    .iter()
                    .map(|p| ManifoldPoint {
                        point: (place(&at1, p.local_p1) + place(&at2, p.local_p2)) * 0.5,
                        separation: f64::from(p.dist),
                        // The solver's normal impulse at the point over the step.
                        impulse: Some(f64::from(p.data.impulse)),
                    })
                    .collect();
                let normal = manifold.data.normal;
                contacts.push(Manifold {
                    a,
                    b,
                    normal: DVec2::new(f64::from(normal.x), f64::from(normal.y)),
                    points,
                    piece: None,
                });
            }
        }
        Ok(())
    }

    /// Write one frame: the shapes read by [`Self::before_step`] and `contacts` (from
    /// [`Self::contacts`], or changed by the game). `time` is the simulated time at the start
    /// of the step, in seconds.
    /// Refused ([`CaptureError::Contract`]) unless `before_step` read the shapes since the
    /// last frame.
    ///
    /// When judging ([`Self::judging`]) it gives back the step's [`StepJudgement`]
    /// (`assert!(step.is_clean(), "{step}")`); else `None`.
    pub fn write(
        &mut self,
        time: f64,
        contacts: &[Manifold],
    ) -> Result<Option<StepJudgement>, CaptureError> {
        if !self.read {
            return Err(not_read());
        }
        self.writer.poses(time, &self.shapes, contacts)?;
        self.read = false;
        Ok(self.writer.take_judgement())
    }

    /// The same capture, each step judged in this process as it is written
    /// ([`CaptureWriter::judging`]): [`Self::after_step`] gives back its judgement. Only
    /// before the first frame.
    pub fn judging(mut self) -> Self {
        self.writer = self.writer.judging();
        self
    }

    /// After `PhysicsPipeline::step`: write the frame of this step, every contact manifold of
    /// `narrow_phase` with the shapes read before it. `time` is the simulated time at the start
    /// of the step, in seconds.
    pub fn after_step(
        &mut self,
        time: f64,
        narrow_phase: &NarrowPhase,
    ) -> Result<Option<StepJudgement>, CaptureError> {
        let mut contacts = std::mem::take(&mut self.contacts);
        let written = self
            .contacts_into(narrow_phase, &mut contacts)
            .and_then(|()| self.write(time, &contacts));
        self.contacts = contacts;
        written
    }

    /// Finish the output (the gzip trailer, when compressed) and give it back.
    pub fn finish(self) -> io::Result<W> {
        self.writer.finish()
    }

    /// `collider 3 (generation 0)`, and its name when it has one.
    fn label(&self, handle: ColliderHandle) -> String {
        let (index, generation) = handle.into_raw_parts();
        match self.names.get(&handle) {
            Some(name) => format!("collider {index} (generation {generation}) {name:?}"),
            None => format!("collider {index} (generation {generation})"),
        }
    }
}

fn not_read() -> CaptureError {
    CaptureError::Contract(
        "a step's contacts are read and written after `before_step` read its poses, once".into(),
    )
}

/// A local point of a collider placed with its pose, in f64.
fn place(pose: &Pose, p: Vector) -> DVec2 {
    let (c, s) = (
        f64::from(pose.rotation.cos()),
        f64::from(pose.rotation.sin()),
    );
    let (x, y) = (f64::from(p.x), f64::from(p.y));
    DVec2::new(
        c * x - s * y + f64::from(pose.translation.x),
        s * x + c * y + f64::from(pose.translation.y),
    )
}

fn point(p: Vector) -> DVec2 {
    DVec2::new(f64::from(p.x), f64::from(p.y))
}

/// The id of the capture shape a manifold's `subshape` names among a collider's pieces: the
/// whole collider's, or the piece's.
fn piece_id(pieces: &[PieceId], subshape: u32) -> Option<u64> {
    match pieces {
        [whole] if whole.part.is_none() => Some(whole.id),
        _ => pieces
            .iter()
            .find(|p| p.part == Some(subshape))
            .map(|p| p.id),
    }
}

/// One capture shape of a collider: its whole shape (`part` `None`), or its piece `part`
/// (called `word`: "part", "segment", "triangle"), posed by `local` in the collider's frame.
struct Piece {
    part: Option<u32>,
    word: &'static str,
    shape: Shape,
    local: Pose,
}

/// The capture shapes of a Rapier shape on a body of type `body`: itself, or its pieces
/// (see the module's documentation), or why there are none.
fn pieces_of(shape: TypedShape<'_>, body: Body) -> Result<Vec<Piece>, String> {
    let piece = |part: usize, word, shape, local| Piece {
        part: Some(part as u32),
        word,
        shape,
        local,
    };
    let fixed_only = |what: &str| {
        (body == Body::Static).then_some(()).ok_or_else(|| {
            format!(
                "its shape is a {what} on a {} body: its segments are captured as segments, \
                 which a capture holds on fixed bodies only (use a Compound of capsules or \
                 polygons on a moving body)",
                body.name()
            )
        })
    };
    let segment = |k: usize, s: &rapier2d::parry::shape::Segment| {
        Segment::new(point(s.a), point(s.b))
            .map(Shape::from)
            .map_err(|e| format!("its segment {k}: {e}"))
    };
    match shape {
        TypedShape::Compound(compound) => {
            if shim::compound_fixes_internal_edges(compound) {
                return Err(refused_flag(
                    "Compound",
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
                return Err(refused_flag("Polyline", "PolylineFlags::ORIENTED"));
            }
            fixed_only("Polyline")?;
            polyline
                .segments()
                .enumerate()
                .map(|(k, s)| segment(k, &s).map(|s| piece(k, "segment", s, Pose::IDENTITY)))
                .collect()
        }
        TypedShape::HeightField(field) => {
            fixed_only("HeightField")?;
            (0..field.num_cells())
                .filter_map(|k| field.segment_at(k).map(|s| (k, s)))
                .map(|(k, s)| segment(k, &s).map(|s| piece(k, "segment", s, Pose::IDENTITY)))
                .collect()
        }
        TypedShape::TriMesh(mesh) => {
            if mesh.flags().contains(TriMeshFlags::FIX_INTERNAL_EDGES) {
                return Err(refused_flag("TriMesh", "TriMeshFlags::FIX_INTERNAL_EDGES"));
            }
            mesh.triangles()
                .enumerate()
                .map(|(k, t)| {
                    ConvexPolygon::new(vec![point(t.a), point(t.b), point(t.c)])
                        .map(|p| piece(k, "triangle", p.into(), Pose::IDENTITY))
                        .map_err(|e| format!("its triangle {k}: {e}"))
                })
                .collect()
        }
        whole => Ok(vec![Piece {
            part: None,
            word: "",
            shape: shape_of(whole, body)?,
            local: Pose::IDENTITY,
        }]),
    }
}

/// Why a shape with a flag that clamps its normals is refused.
fn refused_flag(shape: &str, flag: &str) -> String {
    format!(
        "its shape is a {shape} with {flag}: its contact normals are clamped by pseudo-normals \
         of the whole surface, which no single piece gives, so its claims could not be judged \
         piece by piece; capture it without the flag"
    )
}

/// The capture's shape for a Rapier shape on a body of type `body`, or why there is none.
fn shape_of(shape: TypedShape<'_>, body: Body) -> Result<Shape, String> {
    let invalid = |what: &str, e: collidoscope::geometry::ShapeError| format!("its {what}: {e}");
    match shape {
        TypedShape::Ball(ball) => Circle::new(f64::from(ball.radius))
            .map(Shape::from)
            .map_err(|e| invalid("ball", e)),
        TypedShape::Cuboid(cuboid) => ConvexPolygon::rectangle(point(cuboid.half_extents))
            .map(Shape::from)
            .map_err(|e| invalid("cuboid", e)),
        TypedShape::Capsule(capsule) => Capsule::new(
            point(capsule.segment.a),
            point(capsule.segment.b),
            f64::from(capsule.radius),
        )
        .map(Shape::from)
        .map_err(|e| invalid("capsule", e)),
        TypedShape::ConvexPolygon(polygon) => {
            ConvexPolygon::new(polygon.points().iter().copied().map(point).collect())
                .map(Shape::from)
                .map_err(|e| invalid("convex polygon", e))
        }
        TypedShape::Triangle(triangle) => ConvexPolygon::new(vec![
            point(triangle.a),
            point(triangle.b),
            point(triangle.c),
        ])
        .map(Shape::from)
        .map_err(|e| invalid("triangle", e)),
        TypedShape::Segment(segment) if body == Body::Static => {
            Segment::new(point(segment.a), point(segment.b))
                .map(Shape::from)
                .map_err(|e| invalid("segment", e))
        }
        TypedShape::Segment(_) => Err(format!(
            "its shape is a Segment on a {} body, but a capture holds segments on fixed bodies \
             only: use a Capsule, or put the segment on a fixed body",
            body.name()
        )),
        TypedShape::RoundCuboid(c) => ConvexPolygon::rectangle(point(c.inner_shape.half_extents))
            .and_then(|p| p.with_radius(f64::from(c.border_radius)))
            .map(Shape::from)
            .map_err(|e| invalid("round cuboid", e)),
        TypedShape::RoundConvexPolygon(p) => {
            ConvexPolygon::new(p.inner_shape.points().iter().copied().map(point).collect())
                .and_then(|q| q.with_radius(f64::from(p.border_radius)))
                .map(Shape::from)
                .map_err(|e| invalid("round convex polygon", e))
        }
        TypedShape::RoundTriangle(t) => {
            let i = &t.inner_shape;
            ConvexPolygon::new(vec![point(i.a), point(i.b), point(i.c)])
                .and_then(|q| q.with_radius(f64::from(t.border_radius)))
                .map(Shape::from)
                .map_err(|e| invalid("round triangle", e))
        }
        other => Err(format!(
            "its shape is a {}, which a capture cannot hold (it holds Ball, Cuboid, Capsule, \
             ConvexPolygon, Triangle, their Round forms, Segment, Polyline and HeightField on a \
             fixed body, TriMesh, and Compound of these)",
            shape_name(&other)
        )),
    }
}

/// The Rapier name of a shape type the capture does not hold.
fn shape_name(shape: &TypedShape<'_>) -> &'static str {
    match shape {
        TypedShape::Compound(_) => "Compound (inside a Compound)",
        TypedShape::Polyline(_) => "Polyline (inside a Compound)",
        TypedShape::TriMesh(_) => "TriMesh (inside a Compound)",
        TypedShape::HeightField(_) => "HeightField (inside a Compound)",
        TypedShape::HalfSpace(_) => "HalfSpace",
        TypedShape::Voxels(_) => "Voxels",
        TypedShape::Custom(_) => "custom shape",
        _ => "shape of another kind",
    }
}

/// A narrow phase whose contact manifolds are computed again at every step: Rapier's
/// `NarrowPhase` with the query dispatcher [`FreshManifolds`] in front of parry's default one.
/// Give it to `PhysicsPipeline::step` in place of `NarrowPhase::new()` for a capture in which
/// every contact belongs to the poses read before its step (with
/// `IntegrationParameters::contact_recycling` set to `false`).
pub fn fresh_narrow_phase() -> NarrowPhase {
    NarrowPhase::with_query_dispatcher(FreshManifolds.chain(DefaultQueryDispatcher))
}

/// A query dispatcher that makes parry compute every contact manifold again instead of
/// reusing it.
///
/// Parry's polygon, cuboid and capsule manifolds keep their contact points and normal from
/// an earlier step while the two shapes turned less than 1 degree relative to each other and
/// the points moved less than 1e-3 (`ContactManifold::try_update_contacts`); only each point's
/// `dist` is recomputed, along the kept normal. The depth Rapier then reports is the kept
/// points' depth, not the shapes' (for a rounded shape that rolled by an angle `a`, short by
/// up to `radius * (1 - cos a)`), and whether it reuses a manifold does not show in Rapier's
/// data. Chained in front of parry's default dispatcher (as [`fresh_narrow_phase`] does),
/// this marks each manifold's shapes as changed (`ContactManifold::mark_shapes_deformed`) and
/// leaves the computation to the default dispatcher. Warm starting is kept: the new points
/// take the old points' impulses as usual. Every other query is left to the next dispatcher.
pub struct FreshManifolds;

impl QueryDispatcher for FreshManifolds {
    fn intersection_test(
        &self,
        _: &Pose,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
    ) -> Result<IntersectionOut, Unsupported> {
        Err(Unsupported)
    }

    fn distance(
        &self,
        _: &Pose,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
    ) -> Result<DistanceOut, Unsupported> {
        Err(Unsupported)
    }

    fn contact(
        &self,
        _: &Pose,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
        _: Real,
    ) -> Result<Option<Contact>, Unsupported> {
        Err(Unsupported)
    }

    fn closest_points(
        &self,
        _: &Pose,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
        _: Real,
    ) -> Result<ClosestPoints, Unsupported> {
        Err(Unsupported)
    }

    fn cast_shapes(
        &self,
        _: &Pose,
        _: Vector,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
        _: ShapeCastOptions,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        Err(Unsupported)
    }

    fn cast_shapes_nonlinear(
        &self,
        _: &NonlinearRigidMotion,
        _: &dyn ParryShape,
        _: &NonlinearRigidMotion,
        _: &dyn ParryShape,
        _: Real,
        _: Real,
        _: bool,
    ) -> Result<Option<ShapeCastHit>, Unsupported> {
        Err(Unsupported)
    }
}

type RapierManifold = ContactManifold<ContactManifoldData, ContactData>;

impl PersistentQueryDispatcher<ContactManifoldData, ContactData> for FreshManifolds {
    fn contact_manifolds(
        &self,
        _: &Pose,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
        _: Real,
        manifolds: &mut Vec<RapierManifold>,
        _: &mut Option<ContactManifoldsWorkspace>,
    ) -> Result<(), Unsupported> {
        for manifold in manifolds {
            mark_shapes_deformed(manifold);
        }
        Err(Unsupported)
    }

    fn contact_manifold_convex_convex(
        &self,
        _: &Pose,
        _: &dyn ParryShape,
        _: &dyn ParryShape,
        _: Option<&dyn NormalConstraints>,
        _: Option<&dyn NormalConstraints>,
        _: Real,
        manifold: &mut RapierManifold,
    ) -> Result<(), Unsupported> {
        mark_shapes_deformed(manifold);
        Err(Unsupported)
    }
}

/// What parry 0.31's `ContactManifold::mark_shapes_deformed` does, written out for the
/// versions before it: a zero second normal, which no kept manifold matches, so parry
/// computes the manifold again.
fn mark_shapes_deformed(manifold: &mut RapierManifold) {
    manifold.local_n2 = Vector::ZERO;
}

/// Rapier's narrow phase, for engine fixture tests
/// (`collidoscope fixture --rust TEST.rs --engine rapier2d`): each pinned pair rebuilt in
/// parry's shapes at f32 (a ball; a rectangle centred on its pose as a cuboid, any other
/// polygon as a convex polygon; a capsule; a segment; a chain's piece as a segment, which
/// parry collides on both sides) and asked for its contact manifolds through parry's default
/// query dispatcher, as Rapier's narrow phase asks, with `prediction` as the prediction
/// distance. The deepest manifold is the answer: its normal (`local_n1` placed with A's pose,
/// from A toward B) and each point's `dist` at the midpoint of its two surface points.
#[derive(Clone, Copy, Debug)]
pub struct RapierNarrowPhase {
    /// How far apart Rapier keeps contact points (default: `IntegrationParameters::default()`'s
    /// `prediction_distance()`).
    pub prediction: Real,
}

impl Default for RapierNarrowPhase {
    fn default() -> Self {
        Self {
            prediction: IntegrationParameters::default().prediction_distance(),
        }
    }
}

impl FixtureNarrowPhase for RapierNarrowPhase {
    fn name(&self) -> String {
        format!("rapier2d {RAPIER_VERSION} (parry's contact manifolds)")
    }

    fn contact(&self, a: &Placed, b: &Placed, piece: Option<usize>) -> Result<Reported, String> {
        let (shape1, pose1) = parry_shape(a, piece)?;
        let (shape2, pose2) = parry_shape(b, piece)?;
        let pos12 = pose1.inverse() * pose2;
        let mut manifolds: Vec<RapierManifold> = Vec::new();
        let mut workspace = None;
        DefaultQueryDispatcher
            .contact_manifolds(
                &pos12,
                &*shape1,
                &*shape2,
                self.prediction,
                &mut manifolds,
                &mut workspace,
            )
            .map_err(|_| "parry has no contact manifolds for these two shapes".to_string())?;
        let normal = |m: &RapierManifold| point(pose1.rotation * m.local_n1);
        let found: Vec<Manifold> = manifolds
            .iter()
            .map(|m| Manifold {
                a: 0,
                b: 1,
                normal: normal(m),
                points: m
                    .points
                    .iter()
                    .map(|p| ManifoldPoint {
                        point: (place(&pose1, p.local_p1) + place(&pose2, p.local_p2)) * 0.5,
                        separation: f64::from(p.dist),
                        impulse: None,
                    })
                    .collect(),
                piece,
            })
            .collect();
        engine_answer(&found, piece)
    }
}

/// `placed` as parry's shape at f32 with its pose, or why parry has none for it.
fn parry_shape(placed: &Placed, piece: Option<usize>) -> Result<(SharedShape, Pose), String> {
    let v = |p: DVec2| Vector::new(p.x as Real, p.y as Real);
    let shape = match &placed.shape {
        Shape::Circle(c) => SharedShape::ball(c.radius() as Real),
        Shape::Capsule(c) => SharedShape::capsule(v(c.a()), v(c.b()), c.radius() as Real),
        Shape::Segment(s) => SharedShape::segment(v(s.a()), v(s.b())),
        Shape::Chain(c) => {
            let p = asked_piece(c, piece)?;
            SharedShape::segment(v(p.p1), v(p.p2))
        }
        Shape::Polygon(p) if p.is_rounded() => {
            let r = p.radius() as Real;
            match p.centred_half_extents() {
                Some(half) => SharedShape::round_cuboid(half.x as Real, half.y as Real, r),
                None => SharedShape::round_convex_polyline(
                    p.points().iter().map(|q| v(*q)).collect(),
                    r,
                )
                .ok_or("parry's round_convex_polyline refuses the polygon's corners")?,
            }
        }
        Shape::Polygon(p) => match p.centred_half_extents() {
            Some(half) => SharedShape::cuboid(half.x as Real, half.y as Real),
            None => SharedShape::convex_polyline(p.points().iter().map(|q| v(*q)).collect())
                .ok_or("parry's convex_polyline refuses the polygon's corners")?,
        },
    };
    let pose = Pose::new(v(placed.pose.position), placed.pose.angle() as Real);
    Ok((shape, pose))
}
