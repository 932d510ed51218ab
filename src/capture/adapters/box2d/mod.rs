//! Box2D v3 (through `boxdd-sys`): a world's bodies and contacts as capture frames. Feature
//! `box2d`.
//!
//! Box2D's `b2World_Step` computes its contacts at the start of the step, before it moves the
//! bodies, so a frame is read in two calls around the game's own step:
//!
//! ```ignore
//! let mut capture = Box2dCapture::new(CaptureWriter::new(file, &header(4, 1.0 / 60.0, false),
//!     NormalFrom::AToB, Penetration::NegativeSeparation)?);
//! loop {
//!     capture.before_step(&bodies)?;          // shapes and poses, before the step
//!     unsafe { b2World_Step(world, 1.0 / 60.0, 4) };
//!     capture.after_step(time, &bodies)?;     // its contacts, written with those poses
//!     time += 1.0 / 60.0;
//! }
//! ```
//!
//! What is read, and how:
//! - every shape of every body passed (sensors left out): circles (their centre offset
//!   applied to the pose), capsules, polygons (a rounded one with its radius, shape-set
//!   version 4), segments, and chains (a chain's segments become one
//!   collidoscope chain, open or looped as created, each segment its piece);
//! - ids: a shape's `index1 | generation << 32`; a chain's the same with 2^52 added;
//! - the pose is the body's transform (cos, sin as Box2D keeps them); velocities are the
//!   body's, moved from its centre of mass to its origin (`v + w x (origin - centre)`);
//!   `awake` is `b2Body_IsAwake` on a body that is not static;
//! - every touching contact (`b2Body_GetContactData`, once per contact): the normal as Box2D
//!   gives it (from A toward B), each point's world position as the body's centre of mass
//!   before the step plus `anchorA`, its `separation` (negative when penetrating); a contact on
//!   a chain's segment is a claim on that piece.
//!
//! Box2D reuses a contact from the step before without recomputing it (contact recycling, on
//! by default, `b2BodyDef.enableContactRecycling`): turn it off on every body while capturing
//! (`body_def.enableContactRecycling = false`, or `b2Body_EnableContactRecycling(id, false)`),
//! or expect its recycled contacts to disagree (`diagnose` names them `previous-poses`).

mod layout;
mod narrow;
pub mod replay;

pub use narrow::{
    B2Kind, B2Shape, Box2dNarrowPhase, b_in_a, box2d_manifold, dvec, to_box2d, transform, vec2,
    world_manifold,
};

use boxdd_sys::ffi::*;
use collidoscope::capture::{
    BodyShape, CaptureError, CaptureWriter, Engine, Filter, Header, MARGIN_SETTING, Manifold,
    ManifoldPoint, StepJudgement,
};
use collidoscope::geometry::{
    Capsule, Chain, Circle, ConvexPolygon, DVec2, Segment, Shape, ShapeError,
};
use collidoscope::scene::Body;
use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

/// The header for a Box2D world: engine `box2d` at the library's version, with the game's
/// `substeps`, `dt`, whether contact recycling is on and its speculative margin
/// (`B2_SPECULATIVE_DISTANCE`); f32, metres, y up.
pub fn header(substeps: i32, dt: f64, contact_recycling: bool) -> Header {
    header_with(substeps, dt, contact_recycling)
}

/// [`header`] with `contact_recycling` as the game states it: `true`, `false`, or a word
/// (`"recording"`: as a replayed recording had it, per body).
fn header_with(substeps: i32, dt: f64, contact_recycling: impl Into<serde_json::Value>) -> Header {
    // SAFETY: b2GetVersion reads constants.
    let v = unsafe { b2GetVersion() };
    // SAFETY: reads a global set before the world was made.
    let length_units = f64::from(unsafe { b2GetLengthUnitsPerMeter() });
    let engine = Engine::new("box2d", &format!("{}.{}.{}", v.major, v.minor, v.revision))
        // B2_SPECULATIVE_DISTANCE: 4 B2_LINEAR_SLOP, the slop 0.005 m in the world's units.
        .with_setting(MARGIN_SETTING, f64::from(4.0 * 0.005f32) * length_units)
        .with_setting("substeps", substeps)
        .with_setting("dt", dt)
        .with_setting("contact_recycling", contact_recycling);
    Header::f32_metres(engine)
}

/// A Box2D world being captured: [`Box2dCapture::before_step`] and
/// [`Box2dCapture::after_step`] around every `b2World_Step`.
pub struct Box2dCapture<W: Write> {
    writer: CaptureWriter<W>,
    shapes: Vec<BodyShape>,
    /// Each body's centre of mass before the step, by body key.
    centres: HashMap<u64, DVec2>,
    /// Each captured shape's id, by shape key: itself, or its chain's id and piece.
    ids: HashMap<u64, (u64, Option<usize>)>,
    /// The names given to bodies, by body key.
    names: HashMap<u64, String>,
}

fn body_key(id: b2BodyId) -> u64 {
    id.index1 as u32 as u64 | (id.generation as u64) << 32
}

fn shape_key(id: b2ShapeId) -> u64 {
    id.index1 as u32 as u64 | (id.generation as u64) << 32
}

/// The name Box2D keeps for `body` (`b2Body_SetName`), if any.
///
/// # Safety
/// `body` must be a live body.
unsafe fn body_name(body: b2BodyId) -> Option<String> {
    // SAFETY: a live body; Box2D returns NULL or its NUL-terminated name.
    let name = unsafe { b2Body_GetName(body) };
    if name.is_null() {
        return None;
    }
    // SAFETY: non-null, NUL-terminated, alive while the body is.
    let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy();
    (!name.is_empty()).then(|| name.into_owned())
}

fn chain_key(id: b2ChainId) -> u64 {
    (id.index1 as u32 as u64 | (id.generation as u64) << 32) + (1 << 52)
}

impl<W: Write> Box2dCapture<W> {
    /// Capture into `writer` (its header from [`header`], with `NormalFrom::AToB` and
    /// `Penetration::NegativeSeparation`, Box2D's conventions).
    pub fn new(writer: CaptureWriter<W>) -> Self {
        Self {
            writer,
            shapes: Vec::new(),
            centres: HashMap::new(),
            ids: HashMap::new(),
            names: HashMap::new(),
        }
    }

    /// Give `body` a name to show in the capture (every shape of it takes it): what the
    /// window's lists and `diagnose` call it instead of its id. Without one, a body's own
    /// Box2D name (`b2Body_SetName`) is used. A name given after the body's
    /// first frame is written with its next frame.
    pub fn name(&mut self, body: b2BodyId, name: impl Into<String>) {
        self.names.insert(body_key(body), name.into());
    }

    /// Read every shape of `bodies` (all the world's bodies that matter, static ones too) as
    /// Box2D has them before the step.
    pub fn before_step(&mut self, bodies: &[b2BodyId]) -> Result<(), CaptureError> {
        self.shapes.clear();
        self.centres.clear();
        self.ids.clear();
        let mut chains_done: HashSet<u64> = HashSet::new();
        for &body in bodies {
            // SAFETY: every call takes ids by value and checks them (`b2Body_IsValid` first);
            // the arrays passed are sized by the counts Box2D returns.
            unsafe {
                if !b2Body_IsValid(body) {
                    return Err(CaptureError::Contract(format!(
                        "Box2D body {}: not a valid body id (destroyed, or of another world)",
                        body.index1
                    )));
                }
                let transform = b2Body_GetTransform(body);
                let position = dvec(transform.p);
                let rotation = DVec2::new(transform.q.c as f64, transform.q.s as f64);
                let centre = dvec(b2Body_GetWorldCenter(body));
                self.centres.insert(body_key(body), centre);
                let kind = b2Body_GetType(body);
                let (body_type, velocity, angular_velocity) = if kind == b2BodyType_b2_staticBody {
                    (Body::Static, DVec2::ZERO, 0.0)
                } else {
                    let w = b2Body_GetAngularVelocity(body) as f64;
                    let v = dvec(b2Body_GetLinearVelocity(body));
                    let r = position - centre;
                    let body_type = if kind == b2BodyType_b2_kinematicBody {
                        Body::Kinematic
                    } else {
                        Body::Dynamic
                    };
                    (body_type, v + DVec2::new(-w * r.y, w * r.x), w)
                };
                let awake = body_type != Body::Static && b2Body_IsAwake(body);
                let count = b2Body_GetShapeCount(body).max(0) as usize;
                let mut shape_ids = vec![
                    b2ShapeId {
                        index1: 0,
                        world0: 0,
                        generation: 0
                    };
                    count
                ];
                let got = b2Body_GetShapes(body, shape_ids.as_mut_ptr(), count as i32).max(0);
                shape_ids.truncate(got as usize);
                for shape_id in shape_ids {
                    if b2Shape_IsSensor(shape_id) {
                        continue;
                    }
                    let fail = |why: String| CaptureError::Unsupported {
                        what: format!("Box2D body {}, shape {}", body.index1, shape_id.index1),
                        why,
                    };
                    let geometry_error = |e: ShapeError| fail(e.to_string());
                    // The name given here, else the body's own (`b2Body_SetName`, which a
                    // recording keeps).
                    let own = body_name(body);
                    let name = self.names.get(&body_key(body)).or(own.as_ref());
                    let at = |shape: Shape, position: DVec2, id: u64| {
                        let shape = BodyShape::new(id, shape, position, rotation).moving(
                            body_type,
                            velocity,
                            angular_velocity,
                            awake,
                        );
                        match name {
                            Some(name) => shape.named(name.as_str()),
                            None => shape,
                        }
                    };
                    let id = shape_key(shape_id);
                    let kind = b2Shape_GetType(shape_id);
                    let captured = if kind == b2ShapeType_b2_circleShape {
                        let c = b2Shape_GetCircle(shape_id);
                        let offset = dvec(c.center);
                        let centre_at =
                            position + DVec2::new(rotation.x, rotation.y).rotate(offset);
                        let circle = Circle::new(c.radius as f64).map_err(geometry_error)?;
                        at(circle.into(), centre_at, id)
                    } else if kind == b2ShapeType_b2_capsuleShape {
                        let c = b2Shape_GetCapsule(shape_id);
                        let capsule =
                            Capsule::new(dvec(c.center1), dvec(c.center2), c.radius as f64)
                                .map_err(geometry_error)?;
                        at(capsule.into(), position, id)
                    } else if kind == b2ShapeType_b2_polygonShape {
                        let p = b2Shape_GetPolygon(shape_id);
                        let points = p.vertices[..p.count.clamp(0, 8) as usize]
                            .iter()
                            .map(|v| dvec(*v))
                            .collect();
                        // A rounded polygon (b2MakeRoundedBox, b2MakeOffsetRoundedPolygon)
                        // keeps its radius: its core grown by it, as Box2D collides it.
                        let polygon = ConvexPolygon::new(points)
                            .and_then(|core| core.with_radius(p.radius as f64))
                            .map_err(geometry_error)?;
                        at(polygon.into(), position, id)
                    } else if kind == b2ShapeType_b2_segmentShape {
                        if body_type != Body::Static {
                            return Err(fail(
                                "a segment on a moving body: collidoscope's segments are static geometry".into(),
                            ));
                        }
                        let s = b2Shape_GetSegment(shape_id);
                        let segment =
                            Segment::new(dvec(s.point1), dvec(s.point2)).map_err(geometry_error)?;
                        at(segment.into(), position, id)
                    } else if kind == b2ShapeType_b2_chainSegmentShape {
                        if body_type != Body::Static {
                            return Err(fail(
                                "a chain on a moving body: collidoscope's chains are static geometry".into(),
                            ));
                        }
                        let chain_id = b2Shape_GetParentChain(shape_id);
                        let chain = chain_key(chain_id);
                        let (pieces, shape) = chain_of(chain_id).map_err(&fail)?;
                        for (segment, piece) in pieces {
                            self.ids.insert(segment, (chain, Some(piece)));
                        }
                        if !chains_done.insert(chain) {
                            continue;
                        }
                        at(shape.into(), position, chain)
                    } else {
                        return Err(fail(format!(
                            "shape type {kind} is not one collidoscope captures"
                        )));
                    };
                    let f = b2Shape_GetFilter(shape_id);
                    let filter = Filter::box2d(f.categoryBits, f.maskBits, f.groupIndex);
                    self.ids.entry(id).or_insert((id, None));
                    self.shapes
                        .push(captured.filtered(filter).on_body(body_key(body)));
                }
            }
        }
        Ok(())
    }

    /// After `b2World_Step`: every touching contact of `bodies`, written as the frame of the
    /// shapes read by [`Self::before_step`]; `time` is the simulated time at the step's start.
    ///
    /// With a judging writer ([`CaptureWriter::judging`]) it gives back the step's
    /// [`StepJudgement`] (`assert!(step.is_clean(), "{step}")`); else `None`.
    pub fn after_step(
        &mut self,
        time: f64,
        bodies: &[b2BodyId],
    ) -> Result<Option<StepJudgement>, CaptureError> {
        let mut seen: HashSet<(i32, u32)> = HashSet::new();
        let mut manifolds = Vec::new();
        for &body in bodies {
            // SAFETY: as in before_step; the array is sized by b2Body_GetContactCapacity.
            let contacts = unsafe {
                if !b2Body_IsValid(body) {
                    continue;
                }
                let capacity = b2Body_GetContactCapacity(body).max(0);
                let mut data: Vec<b2ContactData> = Vec::with_capacity(capacity as usize);
                let got = b2Body_GetContactData(body, data.as_mut_ptr(), capacity).max(0);
                data.set_len(got as usize);
                data
            };
            for contact in contacts {
                if !seen.insert((contact.contactId.index1, contact.contactId.generation)) {
                    continue;
                }
                let manifold = &contact.manifold;
                // SAFETY: the shape ids come from Box2D for live shapes.
                let body_a = unsafe { b2Shape_GetBody(contact.shapeIdA) };
                let (Some(&(a, piece_a)), Some(&(b, piece_b)), Some(&centre)) = (
                    self.ids.get(&shape_key(contact.shapeIdA)),
                    self.ids.get(&shape_key(contact.shapeIdB)),
                    self.centres.get(&body_key(body_a)),
                ) else {
                    return Err(CaptureError::Contract(format!(
                        "a contact of shapes {} and {}: a body of theirs was not passed to before_step",
                        contact.shapeIdA.index1, contact.shapeIdB.index1
                    )));
                };
                let points = manifold.points[..manifold.pointCount.clamp(0, 2) as usize]
                    .iter()
                    .map(|p| ManifoldPoint {
                        point: centre + dvec(p.anchorA),
                        separation: p.separation as f64,
                        // Every normal impulse of the step: substeps, warm start and
                        // restitution (what says a speculative point acted).
                        impulse: Some(p.totalNormalImpulse as f64),
                    })
                    .collect();
                manifolds.push(Manifold {
                    a,
                    b,
                    normal: dvec(manifold.normal),
                    points,
                    piece: piece_a.or(piece_b),
                });
            }
        }
        self.writer.frame(time, &self.shapes, &manifolds)?;
        Ok(self.writer.take_judgement())
    }

    /// Finish the capture (gzip's trailer, when compressed) and give the output back.
    pub fn finish(self) -> io::Result<W> {
        self.writer.finish()
    }
}

/// A Box2D chain as one collidoscope chain: each segment shape's key with its piece, and the
/// chain (local points, open or looped as Box2D made it).
///
/// # Safety
/// `chain` must be a live chain's id.
unsafe fn chain_of(chain: b2ChainId) -> Result<(Vec<(u64, usize)>, Chain), String> {
    // SAFETY: sized by b2Chain_GetSegmentCount; the caller's chain is live.
    let segments = unsafe {
        let count = b2Chain_GetSegmentCount(chain).max(0);
        let mut ids = vec![
            b2ShapeId {
                index1: 0,
                world0: 0,
                generation: 0
            };
            count as usize
        ];
        let got = b2Chain_GetSegments(chain, ids.as_mut_ptr(), count).max(0);
        ids.truncate(got as usize);
        ids.into_iter()
            .map(|id| (id, b2Shape_GetChainSegment(id)))
            .collect::<Vec<_>>()
    };
    let Some((_, first)) = segments.first() else {
        return Err("a chain with no segments".into());
    };
    // A loop's last segment ends where its first starts, and its ghosts wrap round.
    let last = segments[segments.len() - 1].1;
    let looped = segments.len() >= 3
        && last.segment.point2.x == first.segment.point1.x
        && last.segment.point2.y == first.segment.point1.y
        && last.ghost2.x == first.segment.point2.x
        && last.ghost2.y == first.segment.point2.y;
    let (points, offset) = if looped {
        (
            segments
                .iter()
                .map(|(_, s)| dvec(s.segment.point1))
                .collect(),
            0,
        )
    } else {
        let mut points = vec![dvec(first.ghost1)];
        points.extend(segments.iter().map(|(_, s)| dvec(s.segment.point1)));
        points.push(dvec(last.segment.point2));
        points.push(dvec(last.ghost2));
        (points, 1)
    };
    let chain = Chain::new(points, looped).map_err(|e| e.to_string())?;
    let pieces = segments
        .iter()
        .enumerate()
        .map(|(k, (id, _))| (shape_key(*id), k + offset))
        .collect();
    Ok((pieces, chain))
}
