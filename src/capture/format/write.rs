//! Writing a capture while a game runs: [`CaptureWriter::frame`] once per step, one line
//! written and flushed (a crash keeps every earlier frame). The writer, never the reader, turns
//! the engine's conventions into the file's: the normal from A toward B, a positive depth,
//! angles from (cos, sin), a shape in full once and then only what changed.

use super::write_text::*;
use crate::Reported;
use crate::capture::format::error::CaptureError;
use crate::capture::format::ids::{IdMap, IdSet};
use crate::capture::format::parsed::{FrameLine, PoseChange, ShapeKeys};
use crate::capture::format::rules;
use crate::capture::{Filter, Header, Pairing, StepJudgement};
use crate::geometry::{DVec2, Shape, inline_list};
use crate::scene::{Body, check_reported, geometry_value};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::Value;
use std::io::{self, Write};

/// Which way the engine's contact normal points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NormalFrom {
    /// From shape A toward shape B (Box2D's `b2Manifold.normal`, Rapier's
    /// `manifold.data.normal`): written as it is.
    #[default]
    AToB,
    /// From B toward A: flipped for every contact.
    BToA,
}

/// How the engine states a contact point's penetration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Penetration {
    /// A signed separation, negative when penetrating (Box2D's `separation`, Rapier's `dist`).
    #[default]
    NegativeSeparation,
    /// A depth, positive when penetrating: negated to a separation.
    PositiveDepth,
}

/// One shape as the engine has it at the start of a step: what the game passes to
/// [`CaptureWriter::frame`] for every shape, every step.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyShape {
    /// A stable id for the whole capture (the engine's shape handle, say).
    pub id: u64,
    /// A name to show, if the game has one.
    pub name: Option<String>,
    /// The geometry in the body's frame.
    pub shape: Shape,
    /// The body's position.
    pub position: DVec2,
    /// The body's rotation as the engine keeps it: (cos, sin).
    pub rotation: DVec2,
    /// Its body type.
    pub body: Body,
    /// Linear velocity.
    pub velocity: DVec2,
    /// Angular velocity, radians per second.
    pub angular_velocity: f64,
    /// Whether the engine recomputes this shape's contacts in this step (an awake body that is
    /// not static).
    pub awake: bool,
    /// Its collision filter and body, where the engine has them (default: not given).
    pub pairing: Pairing,
}

impl BodyShape {
    /// A static shape (never awake, at rest) at `position`, turned by `rotation` (cos, sin).
    pub fn new(id: u64, shape: impl Into<Shape>, position: DVec2, rotation: DVec2) -> Self {
        Self {
            id,
            name: None,
            shape: shape.into(),
            position,
            rotation,
            body: Body::Static,
            velocity: DVec2::ZERO,
            angular_velocity: 0.0,
            awake: false,
            pairing: Pairing::default(),
        }
    }

    /// The same with the engine's collision filter for it.
    pub fn filtered(mut self, filter: Filter) -> Self {
        self.pairing.filter = Some(filter);
        self
    }

    /// The same on the rigid body `body_id` (shapes of one body are never paired).
    pub fn on_body(mut self, body_id: u64) -> Self {
        self.pairing.body_id = Some(body_id);
        self
    }

    /// The same, named.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The same on a moving body with these velocities; `awake` as the engine says.
    pub fn moving(
        mut self,
        body: Body,
        velocity: DVec2,
        angular_velocity: f64,
        awake: bool,
    ) -> Self {
        self.body = body;
        self.velocity = velocity;
        self.angular_velocity = angular_velocity;
        self.awake = awake && body != Body::Static;
        self
    }
}

impl BodyShape {
    /// Its state in this frame, without its geometry.
    pub fn pose(&self) -> BodyPose {
        BodyPose {
            id: self.id,
            position: self.position,
            rotation: self.rotation,
            body: self.body,
            velocity: self.velocity,
            angular_velocity: self.angular_velocity,
            awake: self.awake,
        }
    }
}

/// One shape's state in one frame, without its geometry: what a game passes to
/// [`CaptureWriter::poses`] for every shape, every step, once the shape's geometry was given
/// with [`CaptureWriter::shape`]. Plain numbers: a frame of them costs no allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyPose {
    /// The shape's id, as given to [`CaptureWriter::shape`].
    pub id: u64,
    /// The body's position.
    pub position: DVec2,
    /// The body's rotation as the engine keeps it: (cos, sin).
    pub rotation: DVec2,
    /// Its body type.
    pub body: Body,
    /// Linear velocity.
    pub velocity: DVec2,
    /// Angular velocity, radians per second.
    pub angular_velocity: f64,
    /// Whether the engine recomputes this shape's contacts in this step.
    pub awake: bool,
}

impl BodyPose {
    /// A static shape (never awake, at rest) at `position`, turned by `rotation` (cos, sin).
    pub fn new(id: u64, position: DVec2, rotation: DVec2) -> Self {
        Self {
            id,
            position,
            rotation,
            body: Body::Static,
            velocity: DVec2::ZERO,
            angular_velocity: 0.0,
            awake: false,
        }
    }

    /// The same on a moving body with these velocities; `awake` as the engine says.
    pub fn moving(
        mut self,
        body: Body,
        velocity: DVec2,
        angular_velocity: f64,
        awake: bool,
    ) -> Self {
        self.body = body;
        self.velocity = velocity;
        self.angular_velocity = angular_velocity;
        self.awake = awake && body != Body::Static;
        self
    }
}

/// One contact point as the engine reports it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ManifoldPoint {
    /// Where, in world coordinates.
    pub point: DVec2,
    /// The separation (or depth, per [`Penetration`]).
    pub separation: f64,
    /// The normal impulse the solver applied at this point over the step, where the engine
    /// gives it (written as the claim's `impulses`; never judged).
    pub impulse: Option<f64>,
}

impl ManifoldPoint {
    /// A point at `point` with `separation`, no impulse known.
    pub fn new(point: DVec2, separation: f64) -> Self {
        Self {
            point,
            separation,
            impulse: None,
        }
    }

    /// The same with the solver's normal impulse at it.
    pub fn with_impulse(mut self, impulse: f64) -> Self {
        self.impulse = Some(impulse);
        self
    }
}

/// The impulses of `points`, when every one has one that is finite and >= 0 (else none: an
/// impulse is shown, never judged, and an odd one does not spoil the claim).
fn impulses<'p>(points: impl Iterator<Item = &'p ManifoldPoint>) -> Option<Vec<f64>> {
    let impulses: Option<Vec<f64>> = points
        .map(|p| p.impulse.filter(|j| j.is_finite() && *j >= 0.0))
        .collect();
    impulses.filter(|j| !j.is_empty())
}

inline_list!(
    /// A manifold's points: up to two held inline (a 2D manifold's count in Box2D and Rapier).
    ManifoldPoints,
    ManifoldPoint,
    2
);

/// The first id an adapter gives the pieces of an engine's shape made of pieces (a compound's
/// part, a polyline's or heightfield's segment, a trimesh's triangle): 2^52, above every id
/// an engine's handle or entity gives before its generation reaches 2^20.
pub const FIRST_PART_ID: u64 = 1 << 52;

/// A contact manifold as the engine reports it: the pair in the engine's order, its normal and
/// points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifold {
    /// Shape A's id.
    pub a: u64,
    /// Shape B's id.
    pub b: u64,
    /// The manifold's unit normal, per [`NormalFrom`].
    pub normal: DVec2,
    /// Its points (none: no claim).
    pub points: ManifoldPoints,
    /// For a pair with a chain: the chain's piece it is about.
    pub piece: Option<usize>,
}

impl Manifold {
    /// The claim this manifold makes for (A, B), given the engine's conventions, with its
    /// deepest separation; or why a number of it is not finite. No point: apart. Some point
    /// penetrating: an
    /// intersecting claim (its depth the deepest point's, its contacts the penetrating
    /// points); else a speculative apart claim (the normal made unit, the smallest separation,
    /// every point), or a plain apart claim when the normal has no direction. What the capture
    /// writer writes, and what an engine's fixture test judges.
    pub fn claim(
        &self,
        normal_from: NormalFrom,
        penetration: Penetration,
    ) -> Result<(Reported, f64), String> {
        let m = self;
        if !m.normal.is_finite() {
            return Err(format!(
                "the normal [{}, {}] is not finite",
                m.normal.x, m.normal.y
            ));
        }
        if let Some(i) = m
            .points
            .iter()
            .position(|p| !p.point.is_finite() || !p.separation.is_finite())
        {
            return Err(format!("point {i} has a number that is not finite"));
        }
        let separation = |p: &ManifoldPoint| match penetration {
            Penetration::NegativeSeparation => p.separation,
            Penetration::PositiveDepth => -p.separation,
        };
        let deepest = m
            .points
            .iter()
            .map(separation)
            .fold(f64::INFINITY, f64::min);
        let normal = match normal_from {
            NormalFrom::AToB => m.normal,
            NormalFrom::BToA => -m.normal,
        };
        let claim = if m.points.is_empty() {
            // No point: the engine reports the pair apart.
            Reported {
                piece: m.piece,
                ..Reported::default()
            }
        } else if deepest < 0.0 {
            Reported {
                intersecting: true,
                depth: Some(-deepest),
                normal: Some(normal),
                contacts: Some(
                    m.points
                        .iter()
                        .filter(|p| separation(p) < 0.0)
                        .map(|p| p.point)
                        .collect(),
                ),
                impulses: impulses(m.points.iter().filter(|p| separation(p) < 0.0)),
                piece: m.piece,
                ..Reported::default()
            }
        } else {
            // A speculative manifold: the engine's normal (made unit) and its smallest
            // separation, the gap its solver lets the pair close, and its points; with no
            // direction, a plain apart claim.
            match normal.try_normalize() {
                Some(unit) => Reported {
                    intersecting: false,
                    normal: Some(unit + DVec2::ZERO),
                    separation: Some(deepest),
                    contacts: Some(m.points.iter().map(|p| p.point).collect()),
                    impulses: impulses(m.points.iter()),
                    piece: m.piece,
                    ..Reported::default()
                },
                None => Reported {
                    piece: m.piece,
                    ..Reported::default()
                },
            }
        };
        Ok((claim, deepest))
    }
}

/// The output: plain, or gzip flushed at every frame.
enum Sink<W: Write> {
    Plain(W),
    Gzip(Box<GzEncoder<W>>),
}

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Plain(w) => w.write(buf),
            Sink::Gzip(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.write_all(buf),
            Sink::Gzip(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Plain(w) => w.flush(),
            Sink::Gzip(w) => w.flush(),
        }
    }
}

/// A shape the writer knows: its geometry and name as given, and what was last written of it
/// (to write only what changed).
pub(super) struct Known {
    pub(super) name: Option<String>,
    pub(super) shape: Shape,
    pub(super) pairing: Pairing,
    pub(super) pairing_changed: bool,
    /// The pairing as last written (default before the shape's first frame).
    pub(super) written_pairing: Pairing,
    /// The geometry or the name changed since they were last written.
    pub(super) geometry_changed: bool,
    pub(super) name_changed: bool,
    /// Its pose as last written; `None` until its first frame in the file.
    pub(super) written: Option<WrittenPose>,
}

#[derive(Clone, Copy)]
pub(super) struct WrittenPose {
    position: DVec2,
    angle: f64,
    body: Body,
    velocity: DVec2,
    angular_velocity: f64,
}

/// Writes a capture, one frame per step.
///
/// ```
/// use collidoscope::capture::{BodyShape, CaptureReader, CaptureWriter, Engine, Header, Manifold, ManifoldPoint, NormalFrom, Penetration};
/// use collidoscope::geometry::{ConvexPolygon, DVec2};
/// use collidoscope::scene::Body;
///
/// let mut out = Vec::new();
/// let header = Header::f32_metres(Engine::new("my-engine", "1.0"));
/// let mut writer = CaptureWriter::new(&mut out, &header, NormalFrom::AToB, Penetration::NegativeSeparation).unwrap();
/// let ground = BodyShape::new(1, ConvexPolygon::rectangle(DVec2::new(10.0, 0.5)).unwrap(), DVec2::new(0.0, -0.5), DVec2::X);
/// let crate_ = BodyShape::new(2, ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap(), DVec2::new(0.0, 0.49), DVec2::X)
///     .moving(Body::Dynamic, DVec2::ZERO, 0.0, true);
/// let contact = Manifold { a: 1, b: 2, normal: DVec2::Y, points: vec![ManifoldPoint { point: DVec2::new(-0.5, -0.005), separation: -0.01, impulse: None }].into(), piece: None };
/// writer.frame(0.0, &[ground, crate_], &[contact]).unwrap();
/// drop(writer);
///
/// let text = String::from_utf8(out.clone()).unwrap();
/// assert!(text.lines().nth(1).unwrap().contains(r#""intersecting":true,"depth":0.01,"normal":[0.0,1.0]"#));
/// let mut reader = CaptureReader::new("crate.capture.jsonl".as_ref(), std::io::Cursor::new(out)).unwrap();
/// let frame = reader.next_frame().unwrap().unwrap();
/// assert_eq!(frame.claims[0].reported.depth, Some(0.01));
/// ```
pub struct CaptureWriter<W: Write> {
    out: Sink<W>,
    normal_from: NormalFrom,
    penetration: Penetration,
    frame: u64,
    time: Option<f64>,
    known: IdMap<u64, Known>,
    removed: IdSet<u64>,
    /// Kept between frames so their room is reused: the line being written, each id's place
    /// in the frame's poses, the poses of a frame given as shapes, the malformed entries.
    line: Vec<u8>,
    present: IdMap<u64, Presence>,
    poses: Vec<BodyPose>,
    malformed: Vec<u8>,
    /// The header's line, for a judge started before the first frame.
    header_line: Vec<u8>,
    /// Judging each frame as it is written ([`Self::judging`]), and the last step's
    /// judgement.
    /// (In a mutex only so that a writer can live in a `Sync` place, as a Bevy resource.)
    judge: Option<std::sync::Mutex<crate::capture::analysis::step::InProcess>>,
    judged: Option<StepJudgement>,
}

/// A manifold a frame claims: the claim it makes, checked, and its deepest separation.
struct Chosen<'m> {
    m: &'m Manifold,
    claim: Reported,
    deepest: f64,
}

/// A shape passed in the frame being written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Presence {
    /// Written as a shape; whether the engine recomputes its contacts in this step.
    Shape { awake: bool },
    /// Malformed in this frame: written in `malformed`, its claims too.
    Malformed,
}

impl<W: Write> CaptureWriter<W> {
    /// Write `header` to `out`; the engine's conventions say how to read its manifolds.
    pub fn new(
        out: W,
        header: &Header,
        normal_from: NormalFrom,
        penetration: Penetration,
    ) -> io::Result<Self> {
        Self::start(Sink::Plain(out), header, normal_from, penetration)
    }

    /// The same, gzip-compressed (flushed at every frame, so a crash still keeps what was
    /// written).
    pub fn compressed(
        out: W,
        header: &Header,
        normal_from: NormalFrom,
        penetration: Penetration,
    ) -> io::Result<Self> {
        // Level 3: measured on the capture benchmark's 1,000 bodies, 4% larger than the
        // default level 6 at half its time a frame.
        let sink = Sink::Gzip(Box::new(GzEncoder::new(out, Compression::new(3))));
        Self::start(sink, header, normal_from, penetration)
    }

    /// [`Self::compressed`] when `gzip`, else [`Self::new`]: for a writer whose output is
    /// chosen at run time (a file named `.gz`).
    pub fn with_gzip(
        out: W,
        header: &Header,
        normal_from: NormalFrom,
        penetration: Penetration,
        gzip: bool,
    ) -> io::Result<Self> {
        if gzip {
            Self::compressed(out, header, normal_from, penetration)
        } else {
            Self::new(out, header, normal_from, penetration)
        }
    }

    fn start(
        out: Sink<W>,
        header: &Header,
        normal_from: NormalFrom,
        penetration: Penetration,
    ) -> io::Result<Self> {
        let mut writer = Self {
            out,
            normal_from,
            penetration,
            frame: 0,
            time: None,
            known: IdMap::default(),
            removed: IdSet::default(),
            line: Vec::new(),
            present: IdMap::default(),
            poses: Vec::new(),
            malformed: Vec::new(),
            header_line: Vec::new(),
            judge: None,
            judged: None,
        };
        writer.header_line = header_line(header);
        writer.line.clone_from(&writer.header_line);
        writer.line.push(b'\n');
        writer.out.write_all(&writer.line)?;
        writer.out.flush()?;
        Ok(writer)
    }

    /// Judge every frame as it is written, in this process: the frame read back by the
    /// capture reader's rules and judged as `diagnose` judges it, each step's
    /// [`StepJudgement`] kept for [`Self::judgement`] (and given back by the adapters'
    /// `after_step`). Only before the first frame, as [`Self::starting_at`]: the judge must
    /// read every frame. The judge takes the frame's values as they were written (not its
    /// text read back: the same values, bit for bit). Costs about 1 us a claim, twice the write
    /// (1.0 ms a frame for 975 claims of 1,000 bodies, `benches/capture_frame.rs`).
    pub fn judging(mut self) -> Self {
        if self.time.is_none() {
            self.judge = crate::capture::analysis::step::InProcess::new(&self.header_line)
                .ok()
                .map(std::sync::Mutex::new);
        }
        self
    }

    /// The judgement of the step last written, when judging ([`Self::judging`]).
    pub fn judgement(&self) -> Option<&StepJudgement> {
        self.judged.as_ref()
    }

    /// The same, taken (the next step's replaces it anyway).
    pub fn take_judgement(&mut self) -> Option<StepJudgement> {
        self.judged.take()
    }

    /// Number the next frame `frame` (the engine's step number; 0 by default). Only before
    /// the first frame.
    pub fn starting_at(mut self, frame: u64) -> Self {
        if self.time.is_none() {
            self.frame = frame;
        }
        self
    }

    /// Give (or change) the geometry and name of shape `id`: written with the next frame that
    /// passes its pose ([`Self::poses`]). Given once, not every step: a shape that does not
    /// change costs nothing more. Giving the same geometry again (bit for bit) changes nothing.
    /// Refused ([`CaptureError::Contract`]) when the shape was written as another kind: an id
    /// never changes kind (the reader refuses it), so a new kind needs a new id.
    pub fn shape(
        &mut self,
        id: u64,
        shape: impl Into<Shape>,
        name: Option<&str>,
    ) -> Result<(), CaptureError> {
        let shape = shape.into();
        match self.known.get_mut(&id) {
            Some(known) => {
                if known.written.is_some() && known.shape.kind() != shape.kind() {
                    return Err(CaptureError::Contract(format!(
                        "id {id} was written as a {} and is given as a {}: an id never changes kind, give the new shape a new id",
                        known.shape.kind(),
                        shape.kind()
                    )));
                }
                if !same_geometry(&known.shape, &shape) {
                    known.shape = shape;
                    known.geometry_changed = true;
                }
                if known.name.as_deref() != name {
                    known.name = name.map(str::to_string);
                    known.name_changed = true;
                }
            }
            None => {
                self.known.insert(
                    id,
                    Known {
                        name: name.map(str::to_string),
                        shape,
                        pairing: Pairing::default(),
                        pairing_changed: false,
                        written_pairing: Pairing::default(),
                        geometry_changed: true,
                        name_changed: true,
                        written: None,
                    },
                );
            }
        }
        Ok(())
    }

    /// Give (or change) the collision filter and body of shape `id` (given with
    /// [`Self::shape`]): written with its next pose when they changed. Ignored for an id not
    /// given a shape; a body id of 2^53 or more (which a capture cannot hold) is left out.
    pub fn pairing(&mut self, id: u64, mut pairing: Pairing) {
        pairing.body_id = pairing
            .body_id
            .filter(|b| *b < crate::capture::format::parsed::ID_LIMIT);
        if let Some(known) = self.known.get_mut(&id)
            && known.pairing != pairing
        {
            known.pairing = pairing;
            known.pairing_changed = true;
        }
    }

    /// Write one frame: every shape as the engine has it at the start of the step, and every
    /// contact manifold it reported for that step. The same as [`Self::shape`] for each shape
    /// whose geometry or name changed, then [`Self::poses`].
    pub fn frame(
        &mut self,
        time: f64,
        shapes: &[BodyShape],
        contacts: &[Manifold],
    ) -> Result<(), CaptureError> {
        let mut poses = std::mem::take(&mut self.poses);
        poses.clear();
        for shape in shapes {
            let same = self
                .known
                .get(&shape.id)
                .is_some_and(|k| k.name == shape.name && same_geometry(&k.shape, &shape.shape));
            if !same
                && let Err(e) = self.shape(shape.id, shape.shape.clone(), shape.name.as_deref())
            {
                self.poses = poses;
                return Err(e);
            }
            self.pairing(shape.id, shape.pairing);
            poses.push(shape.pose());
        }
        let written = self.poses(time, &poses, contacts);
        self.poses = poses;
        written
    }

    /// Write one frame from each shape's state in it (its geometry given before with
    /// [`Self::shape`]) and every contact manifold the engine reported for that step.
    ///
    /// What the engine gives that a capture cannot hold is written as it came, marked
    /// malformed, and never stops the frame or the capture: a shape with a number that is not
    /// finite (a NaN pose: the engine's bug, shown in the frame it happened), an id of 2^53 or
    /// more, a segment on a moving body; a manifold with a zero or non-unit normal, or a
    /// number that is not finite, and every manifold of a malformed shape. The reader reads
    /// them back as malformed and `diagnose` names each.
    ///
    /// Refused ([`CaptureError::Contract`], nothing written) when the calls break the
    /// capture's contract: time not finite or running backwards, an id passed twice or back
    /// after it was removed, an id never given a shape, a manifold naming a shape not passed.
    pub fn poses(
        &mut self,
        time: f64,
        poses: &[BodyPose],
        contacts: &[Manifold],
    ) -> Result<(), CaptureError> {
        let contract = |message: String| Err(CaptureError::Contract(message));
        if !(time.is_finite() && time >= 0.0) || self.time.is_some_and(|t| time < t) {
            return contract(format!(
                "frame {}: time {time} must be finite, >= 0 and not before the frame before",
                self.frame
            ));
        }
        let mut present = std::mem::take(&mut self.present);
        let mut malformed = std::mem::take(&mut self.malformed);
        present.clear();
        malformed.clear();
        let checked = self.check_poses(poses, &mut present, &mut malformed);
        let written = checked.and_then(|()| {
            let claims = self.claims(&present, contacts, &mut malformed)?;
            self.write_line(time, poses, &present, &claims, &malformed)
                .map_err(CaptureError::Io)
        });
        self.present = present;
        self.malformed = malformed;
        let typed = written?;
        self.frame += 1;
        self.time = Some(time);
        if let Some(judge) = &mut self.judge {
            let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            let judge = judge
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match judge.judge(line, typed) {
                Ok(judged) => self.judged = Some(judged),
                Err(e) => {
                    // The reader refuses what the writer wrote: a bug of collidoscope's, said
                    // once; the capture goes on being written, no longer judged.
                    self.judge = None;
                    self.judged = None;
                    return Err(CaptureError::Contract(format!(
                        "the frame just written does not read back, so judging stops: {e}"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Each pose's id kept in `present` (malformed or not); the malformed ones written onto
    /// `malformed`.
    fn check_poses(
        &self,
        poses: &[BodyPose],
        present: &mut IdMap<u64, Presence>,
        malformed: &mut Vec<u8>,
    ) -> Result<(), CaptureError> {
        for pose in poses {
            if self.removed.contains(&pose.id) {
                return Err(CaptureError::Contract(format!(
                    "frame {}: id {} was left out of an earlier frame (removed): an id never comes back, give the new shape a new id",
                    self.frame, pose.id
                )));
            }
            let Some(known) = self.known.get(&pose.id) else {
                return Err(CaptureError::Contract(format!(
                    "frame {}: id {} has no shape: give it with `CaptureWriter::shape` before its first pose (or pass a `BodyShape` to `frame`)",
                    self.frame, pose.id
                )));
            };
            let presence = match body_problem(&known.shape, pose) {
                None => Presence::Shape {
                    awake: pose.awake && pose.body != Body::Static,
                },
                Some(problem) => {
                    malformed_shape(malformed, known, pose, &problem);
                    Presence::Malformed
                }
            };
            if present.insert(pose.id, presence).is_some() {
                return Err(CaptureError::Contract(format!(
                    "frame {}: id {} is passed twice",
                    self.frame, pose.id
                )));
            }
        }
        Ok(())
    }

    /// The manifolds a frame claims, each with its deepest separation: one per pair (the
    /// deepest manifold when the engine gives a pair more than one), pairs of two sleeping
    /// shapes left out; a manifold the capture cannot hold as a claim written onto `malformed`.
    fn claims<'m>(
        &self,
        present: &IdMap<u64, Presence>,
        contacts: &'m [Manifold],
        malformed: &mut Vec<u8>,
    ) -> Result<Vec<Chosen<'m>>, CaptureError> {
        let mut chosen: Vec<Chosen> = Vec::new();
        let mut at: IdMap<(u64, u64), usize> = IdMap::default();
        for m in contacts {
            let (Some(a), Some(b)) = (present.get(&m.a), present.get(&m.b)) else {
                let missing = if present.contains_key(&m.a) { m.b } else { m.a };
                return Err(CaptureError::Contract(format!(
                    "frame {}: a manifold of ids {} and {} names id {missing}, which is not among this frame's shapes",
                    self.frame, m.a, m.b
                )));
            };
            if m.points.is_empty() || m.a == m.b {
                continue;
            }
            if *a == Presence::Malformed || *b == Presence::Malformed {
                let id = if *a == Presence::Malformed { m.a } else { m.b };
                malformed_claim(
                    malformed,
                    m,
                    self.conventions(),
                    &format!(
                        "shape {id} is malformed in this frame, so its contacts cannot be judged"
                    ),
                );
                continue;
            }
            // Two shapes the engine did not recompute: the contact belongs to earlier poses.
            let awake = |p: &Presence| matches!(p, Presence::Shape { awake: true });
            if !awake(a) && !awake(b) {
                continue;
            }
            // The one check a reader runs on a claim, on what would be written.
            let checked = self
                .claim(m)
                .and_then(|(claim, deepest)| check_reported(&claim).map(|()| (claim, deepest)));
            let (claim, deepest) = match checked {
                Ok(checked) => checked,
                Err(problem) => {
                    malformed_claim(malformed, m, self.conventions(), &problem);
                    continue;
                }
            };
            let key = (m.a.min(m.b), m.a.max(m.b));
            match at.get(&key) {
                Some(&i) if chosen[i].deepest <= deepest => {}
                Some(&i) => chosen[i] = Chosen { m, claim, deepest },
                None => {
                    at.insert(key, chosen.len());
                    chosen.push(Chosen { m, claim, deepest });
                }
            }
        }
        Ok(chosen)
    }

    fn conventions(&self) -> (NormalFrom, Penetration) {
        (self.normal_from, self.penetration)
    }

    fn claim(&self, m: &Manifold) -> Result<(Reported, f64), String> {
        m.claim(self.normal_from, self.penetration)
    }

    /// Write the frame's line and flush it.
    fn write_line(
        &mut self,
        time: f64,
        poses: &[BodyPose],
        present: &IdMap<u64, Presence>,
        claims: &[Chosen],
        malformed: &[u8],
    ) -> io::Result<Option<FrameLine>> {
        // When judging, the line's values as the reader's typed path would read them back, for
        // as long as every entry is one it reads (numbers are written in their shortest exact
        // form, so they read back to the same bits).
        let mut typed = (self.judge.is_some() && malformed.is_empty()).then(|| FrameLine {
            frame: self.frame,
            time,
            shapes: Vec::with_capacity(poses.len()),
            removed: Vec::new(),
            claims: Vec::with_capacity(claims.len()),
            malformed: Vec::new(),
        });
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        line.extend_from_slice(b"{\"frame\":");
        push_int(&mut line, self.frame);
        line.extend_from_slice(b",\"time\":");
        push_number(&mut line, time);
        line.extend_from_slice(b",\"shapes\":[");
        let mut first = true;
        for pose in poses {
            if !matches!(present.get(&pose.id), Some(Presence::Shape { .. })) {
                continue;
            }
            let start = line.len();
            if !first {
                line.push(b',');
            }
            line.extend_from_slice(b"{\"id\":");
            push_int(&mut line, pose.id);
            let keys = line.len();
            let change = self.shape_keys(pose, &mut line);
            if line.len() == keys {
                // Nothing changed: the shape is left out of this frame's line.
                line.truncate(start);
                continue;
            }
            match (change, &mut typed) {
                (Some(change), Some(t)) => t.shapes.push((pose.id, ShapeKeys::Pose(change))),
                _ => typed = None,
            }
            line.push(b'}');
            first = false;
        }
        line.push(b']');
        // Shapes written before and not passed now are gone; the others the game knows but
        // never passed stay known.
        let mut gone: Vec<u64> = self
            .known
            .iter()
            .filter(|(id, k)| k.written.is_some() && !present.contains_key(id))
            .map(|(id, _)| *id)
            .collect();
        if !gone.is_empty() {
            gone.sort_unstable();
            line.extend_from_slice(b",\"removed\":[");
            for (i, id) in gone.iter().enumerate() {
                if i > 0 {
                    line.push(b',');
                }
                push_int(&mut line, *id);
                if let Some(t) = &mut typed {
                    t.removed.push(*id);
                }
                self.known.remove(id);
                self.removed.insert(*id);
            }
            line.push(b']');
        }
        line.extend_from_slice(b",\"claims\":[");
        for (i, Chosen { m, claim, .. }) in claims.iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            push_claim(&mut line, m.a, m.b, claim);
            if let Some(t) = &mut typed {
                // `distance` is not written: an engine's manifold states none.
                let written = Reported {
                    distance: None,
                    ..claim.clone()
                };
                t.claims.push((m.a, m.b, written));
            }
        }
        line.push(b']');
        if !malformed.is_empty() {
            line.extend_from_slice(b",\"malformed\":[");
            line.extend_from_slice(malformed);
            line.push(b']');
        }
        line.extend_from_slice(b"}\n");
        let result = self.out.write_all(&line).and_then(|_| self.out.flush());
        self.line = line;
        result.map(|()| typed)
    }

    /// The keys of the shape posed by `pose` to write after its id, onto `keys`: all of them
    /// the first time, then those that changed (bit for bit). Gives back the values written
    /// when they were only its pose and velocities (what the reader's typed path reads), else
    /// `None`.
    fn shape_keys(&mut self, pose: &BodyPose, keys: &mut Vec<u8>) -> Option<PoseChange> {
        let known = self
            .known
            .get_mut(&pose.id)
            .expect("a pose's shape is known");
        let angle = pose.rotation.y.atan2(pose.rotation.x);
        // A static body does not move: its velocities are not written.
        let (velocity, angular_velocity) = match pose.body {
            Body::Static => (DVec2::ZERO, 0.0),
            _ => (pose.velocity, pose.angular_velocity),
        };
        let key = |keys: &mut Vec<u8>, name: &str| {
            keys.extend_from_slice(b",\"");
            keys.extend_from_slice(name.as_bytes());
            keys.extend_from_slice(b"\":");
        };
        let before = known.written;
        let changed = |same: &dyn Fn(&WrittenPose) -> bool| before.is_none_or(|b| !same(&b));
        let position = changed(&|b| same_point(b.position, pose.position));
        let turned = changed(&|b| b.angle.to_bits() == angle.to_bits());
        let body = changed(&|b| b.body == pose.body);
        let first_static = before.is_none() && pose.body == Body::Static;
        // Anything but the pose and velocities (a name, a kind, geometry, a filter, a body
        // type) is the full reader's.
        let full = before.is_none()
            || (known.name_changed && known.name.is_some())
            || known.geometry_changed
            || known.pairing_changed
            || body;
        let moving = changed(&|b| same_point(b.velocity, velocity)) && !first_static;
        let spinning = changed(&|b| b.angular_velocity.to_bits() == angular_velocity.to_bits())
            && !first_static;
        if known.name_changed
            && let Some(name) = &known.name
        {
            key(keys, "name");
            serde_json::to_writer(&mut *keys, name).expect("strings serialise");
        }
        if before.is_none() {
            key(keys, "kind");
            push_name(keys, known.shape.kind().name());
        }
        if known.geometry_changed
            && let Value::Object(geometry) = geometry_value(&known.shape)
        {
            for (name, value) in geometry {
                key(keys, &name);
                serde_json::to_writer(&mut *keys, &value).expect("geometry serialises");
            }
        }
        if known.pairing_changed {
            let Pairing { filter, body_id } = known.pairing;
            let was = known.written_pairing;
            if filter != was.filter {
                key(keys, "filter");
                push_filter(keys, filter);
            }
            if body_id != was.body_id {
                key(keys, "body_id");
                match body_id {
                    Some(id) => push_int(keys, id),
                    None => keys.extend_from_slice(b"null"),
                }
            }
            known.written_pairing = known.pairing;
        }
        if position {
            key(keys, "position");
            push_point(keys, pose.position);
        }
        if turned {
            key(keys, "angle");
            push_number(keys, angle);
        }
        if body {
            key(keys, "body");
            push_name(keys, pose.body.name());
        }
        if moving {
            key(keys, "velocity");
            push_point(keys, velocity);
        }
        if spinning {
            key(keys, "angular_velocity");
            push_number(keys, angular_velocity);
        }
        known.name_changed = false;
        known.geometry_changed = false;
        known.pairing_changed = false;
        known.written = Some(WrittenPose {
            position: pose.position,
            angle,
            body: pose.body,
            velocity,
            angular_velocity,
        });
        (!full).then_some(PoseChange {
            position: position.then_some(pose.position),
            angle: turned.then_some(angle),
            velocity: moving.then_some(velocity),
            angular_velocity: spinning.then_some(angular_velocity),
        })
    }

    /// Finish the output (gzip's trailer) and give it back.
    pub fn finish(self) -> io::Result<W> {
        match self.out {
            Sink::Plain(mut w) => {
                w.flush()?;
                Ok(w)
            }
            Sink::Gzip(w) => w.finish(),
        }
    }
}

/// Why the shape posed by `pose` cannot be written as a shape, if it cannot: the rules the
/// reader checks ([`rules`]), and finite numbers (which JSON cannot hold otherwise).
fn body_problem(shape: &Shape, pose: &BodyPose) -> Option<String> {
    let finite = |p: DVec2| p.is_finite();
    let not_finite = [
        ("position", finite(pose.position)),
        (
            "rotation",
            finite(pose.rotation) && pose.rotation != DVec2::ZERO,
        ),
        ("velocity", finite(pose.velocity)),
        ("angular_velocity", pose.angular_velocity.is_finite()),
    ]
    .into_iter()
    .find(|(_, ok)| !ok);
    if let Some((key, _)) = not_finite {
        return Some(if key == "rotation" {
            format!("{key:?} must be finite (cos, sin), not zero")
        } else {
            format!("{key:?} must be finite numbers")
        });
    }
    rules::id(pose.id)
        .and_then(|()| rules::static_geometry(shape.kind(), pose.body))
        .and_then(|()| rules::within_reach(shape, pose.position))
        .err()
}

fn same_point(p: DVec2, q: DVec2) -> bool {
    p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits()
}

/// The same kind with the same numbers, bit for bit.
fn same_geometry(a: &Shape, b: &Shape) -> bool {
    let points = |p: &[DVec2], q: &[DVec2]| {
        p.len() == q.len() && p.iter().zip(q).all(|(x, y)| same_point(*x, *y))
    };
    match (a, b) {
        (Shape::Circle(x), Shape::Circle(y)) => x.radius().to_bits() == y.radius().to_bits(),
        (Shape::Capsule(x), Shape::Capsule(y)) => {
            same_point(x.a(), y.a())
                && same_point(x.b(), y.b())
                && x.radius().to_bits() == y.radius().to_bits()
        }
        // The points as kept and the winding they were given in: the given order, without
        // making it.
        (Shape::Polygon(x), Shape::Polygon(y)) => {
            x.winding() == y.winding()
                && x.radius().to_bits() == y.radius().to_bits()
                && points(x.points(), y.points())
        }
        (Shape::Segment(x), Shape::Segment(y)) => {
            same_point(x.a(), y.a()) && same_point(x.b(), y.b())
        }
        (Shape::Chain(x), Shape::Chain(y)) => {
            x.is_loop() == y.is_loop() && points(x.points(), y.points())
        }
        _ => false,
    }
}

/// A malformed shape's entry onto `out`: its keys as the game gave them (numbers that are not
/// finite as the strings "NaN", "inf", "-inf"), and the problem.
fn malformed_shape(out: &mut Vec<u8>, known: &Known, pose: &BodyPose, problem: &str) {
    if !out.is_empty() {
        out.push(b',');
    }
    out.extend_from_slice(b"{\"shape\":{\"id\":");
    push_int(out, pose.id);
    if let Some(name) = &known.name {
        out.extend_from_slice(b",\"name\":");
        serde_json::to_writer(&mut *out, name).expect("strings serialise");
    }
    out.extend_from_slice(b",\"kind\":");
    push_name(out, known.shape.kind().name());
    if let Value::Object(geometry) = geometry_value(&known.shape) {
        for (name, value) in geometry {
            out.extend_from_slice(b",");
            serde_json::to_writer(&mut *out, &name).expect("strings serialise");
            out.push(b':');
            serde_json::to_writer(&mut *out, &value).expect("geometry serialises");
        }
    }
    out.extend_from_slice(b",\"position\":");
    push_any_point(out, pose.position);
    out.extend_from_slice(b",\"rotation\":");
    push_any_point(out, pose.rotation);
    out.extend_from_slice(b",\"body\":");
    push_name(out, pose.body.name());
    out.extend_from_slice(b",\"velocity\":");
    push_any_point(out, pose.velocity);
    out.extend_from_slice(b",\"angular_velocity\":");
    push_any_number(out, pose.angular_velocity);
    out.extend_from_slice(b"},\"problem\":");
    serde_json::to_writer(&mut *out, problem).expect("strings serialise");
    out.push(b'}');
}

/// A malformed manifold's entry onto `out`: the manifold in the file's conventions (normal
/// from A toward B, negative separation when penetrating; numbers that are not finite as
/// strings), and the problem.
fn malformed_claim(
    out: &mut Vec<u8>,
    m: &Manifold,
    (normal_from, penetration): (NormalFrom, Penetration),
    problem: &str,
) {
    if !out.is_empty() {
        out.push(b',');
    }
    out.extend_from_slice(b"{\"claim\":{\"a\":");
    push_int(out, m.a);
    out.extend_from_slice(b",\"b\":");
    push_int(out, m.b);
    out.extend_from_slice(b",\"normal\":");
    push_any_point(
        out,
        match normal_from {
            NormalFrom::AToB => m.normal,
            NormalFrom::BToA => -m.normal,
        },
    );
    out.extend_from_slice(b",\"points\":[");
    for (i, p) in m.points.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"point\":");
        push_any_point(out, p.point);
        out.extend_from_slice(b",\"separation\":");
        push_any_number(
            out,
            match penetration {
                Penetration::NegativeSeparation => p.separation,
                Penetration::PositiveDepth => -p.separation,
            },
        );
        out.push(b'}');
    }
    out.push(b']');
    if let Some(piece) = m.piece {
        out.extend_from_slice(b",\"piece\":");
        push_int(out, piece as u64);
    }
    out.extend_from_slice(b"},\"problem\":");
    serde_json::to_writer(&mut *out, problem).expect("strings serialise");
    out.push(b'}');
}
