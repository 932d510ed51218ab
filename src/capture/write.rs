//! Writing a capture while a game runs: [`CaptureWriter::frame`] once per step, one line
//! written and flushed (a crash keeps every earlier frame). The writer, never the reader, turns
//! the engine's conventions into the file's: the normal from A toward B, a positive depth,
//! angles from (cos, sin), a shape in full once and then only what changed.

use super::{FORMAT, Header, VERSION};
use crate::geometry::{DVec2, Shape};
use crate::scene::{Body, geometry_value};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
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
        }
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

/// One contact point as the engine reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint {
    /// Where, in world coordinates.
    pub point: DVec2,
    /// The separation (or depth, per [`Penetration`]).
    pub separation: f64,
}

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
    pub points: Vec<ManifoldPoint>,
    /// For a pair with a chain: the chain's piece it is about.
    pub piece: Option<usize>,
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

/// What was last written of a shape, to write only what changed.
struct Written {
    name: Option<String>,
    shape: Shape,
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
/// let contact = Manifold { a: 1, b: 2, normal: DVec2::Y, points: vec![ManifoldPoint { point: DVec2::new(-0.5, -0.005), separation: -0.01 }], piece: None };
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
    written: HashMap<u64, Written>,
    removed: HashSet<u64>,
    /// The line being written, kept between frames so its buffer is reused.
    line: Vec<u8>,
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
            written: HashMap::new(),
            removed: HashSet::new(),
            line: Vec::new(),
        };
        let line = serde_json::json!({
            "format": FORMAT,
            "version": VERSION,
            "engine": header.engine,
            "precision": header.precision.name(),
            "units": header.units,
            "y_up": header.y_up,
        });
        writer.line = line.to_string().into_bytes();
        writer.line.push(b'\n');
        writer.out.write_all(&writer.line)?;
        writer.out.flush()?;
        Ok(writer)
    }

    /// Number the next frame `frame` (the engine's step number; 0 by default). Only before
    /// the first frame.
    pub fn starting_at(mut self, frame: u64) -> Self {
        if self.time.is_none() {
            self.frame = frame;
        }
        self
    }

    /// Write one frame: every shape as the engine has it at the start of the step, and every
    /// contact manifold it reported for that step. Refused (`InvalidInput`, nothing written)
    /// when a manifold names a shape not passed, time runs backwards, an id is passed twice or
    /// a shape breaks the format's rules.
    pub fn frame(
        &mut self,
        time: f64,
        shapes: &[BodyShape],
        contacts: &[Manifold],
    ) -> io::Result<()> {
        let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
        if !(time.is_finite() && time >= 0.0) || self.time.is_some_and(|t| time < t) {
            return Err(invalid(format!(
                "frame {}: time {time} must be finite, >= 0 and not before the frame before",
                self.frame
            )));
        }
        let mut present: HashMap<u64, &BodyShape> = HashMap::with_capacity(shapes.len());
        for shape in shapes {
            if present.insert(shape.id, shape).is_some() {
                return Err(invalid(format!("id {} is passed twice", shape.id)));
            }
            if self.removed.contains(&shape.id) {
                return Err(invalid(format!(
                    "id {} was left out of an earlier frame (removed): an id never comes back, give the new shape a new id",
                    shape.id
                )));
            }
            if let Some(what) = not_finite(shape) {
                return Err(invalid(format!(
                    "id {}: {what} is not finite (a capture holds finite numbers only)",
                    shape.id
                )));
            }
            if shape.shape.kind().is_static_only() && shape.body != Body::Static {
                return Err(invalid(format!(
                    "id {}: a {} is static geometry, but its body is {}",
                    shape.id,
                    shape.shape.kind(),
                    shape.body.name()
                )));
            }
        }
        let claims = self.claims(&present, contacts)?;
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        line.extend_from_slice(b"{\"frame\":");
        push_int(&mut line, self.frame);
        line.extend_from_slice(b",\"time\":");
        push_number(&mut line, time);
        line.extend_from_slice(b",\"shapes\":[");
        let mut first = true;
        for shape in shapes {
            let start = line.len();
            if !first {
                line.push(b',');
            }
            line.extend_from_slice(b"{\"id\":");
            push_int(&mut line, shape.id);
            let keys = line.len();
            self.shape_keys(shape, &mut line);
            if line.len() == keys {
                // Nothing changed: the shape is left out of this frame's line.
                line.truncate(start);
                continue;
            }
            line.push(b'}');
            first = false;
        }
        line.push(b']');
        let mut gone: Vec<u64> = self
            .written
            .keys()
            .filter(|id| !present.contains_key(id))
            .copied()
            .collect();
        if !gone.is_empty() {
            gone.sort_unstable();
            line.extend_from_slice(b",\"removed\":[");
            for (i, id) in gone.iter().enumerate() {
                if i > 0 {
                    line.push(b',');
                }
                push_int(&mut line, *id);
                self.written.remove(id);
                self.removed.insert(*id);
            }
            line.push(b']');
        }
        line.extend_from_slice(b",\"claims\":[");
        for (i, (m, deepest)) in claims.into_iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            self.claim(m, deepest, &mut line);
        }
        line.extend_from_slice(b"]}\n");
        let result = self.out.write_all(&line).and_then(|_| self.out.flush());
        self.line = line;
        result?;
        self.frame += 1;
        self.time = Some(time);
        Ok(())
    }

    /// The manifolds a frame claims, each with its deepest separation: one per pair (the
    /// deepest manifold when the engine gives a pair more than one), pairs of two sleeping
    /// shapes left out.
    fn claims<'m>(
        &self,
        present: &HashMap<u64, &BodyShape>,
        contacts: &'m [Manifold],
    ) -> io::Result<Vec<(&'m Manifold, f64)>> {
        let mut chosen: Vec<(&Manifold, f64)> = Vec::new();
        let mut at: HashMap<(u64, u64), usize> = HashMap::new();
        for m in contacts {
            let (Some(a), Some(b)) = (present.get(&m.a), present.get(&m.b)) else {
                let missing = if present.contains_key(&m.a) { m.b } else { m.a };
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "frame {}: a manifold of ids {} and {} names id {missing}, which is not among this frame's shapes",
                        self.frame, m.a, m.b
                    ),
                ));
            };
            if m.points.is_empty() || m.a == m.b || (!a.awake && !b.awake) {
                continue;
            }
            if !m.normal.is_finite()
                || m.points
                    .iter()
                    .any(|p| !p.point.is_finite() || !p.separation.is_finite())
            {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "frame {}: the manifold of ids {} and {} has a number that is not finite",
                        self.frame, m.a, m.b
                    ),
                ));
            }
            let deepest = m
                .points
                .iter()
                .map(|p| self.separation(p))
                .fold(f64::INFINITY, f64::min);
            let key = (m.a.min(m.b), m.a.max(m.b));
            match at.get(&key) {
                Some(&i) if chosen[i].1 <= deepest => {}
                Some(&i) => chosen[i] = (m, deepest),
                None => {
                    at.insert(key, chosen.len());
                    chosen.push((m, deepest));
                }
            }
        }
        Ok(chosen)
    }

    fn separation(&self, p: &ManifoldPoint) -> f64 {
        match self.penetration {
            Penetration::NegativeSeparation => p.separation,
            Penetration::PositiveDepth => -p.separation,
        }
    }

    /// One claim as a JSON object, onto `text`.
    fn claim(&self, m: &Manifold, deepest: f64, text: &mut Vec<u8>) {
        text.extend_from_slice(b"{\"a\":");
        push_int(text, m.a);
        text.extend_from_slice(b",\"b\":");
        push_int(text, m.b);
        text.extend_from_slice(b",\"intersecting\":");
        let normal = match self.normal_from {
            NormalFrom::AToB => m.normal,
            NormalFrom::BToA => -m.normal,
        };
        if deepest < 0.0 {
            text.extend_from_slice(b"true,\"depth\":");
            push_number(text, -deepest);
            text.extend_from_slice(b",\"normal\":");
            push_point(text, normal);
            text.extend_from_slice(b",\"contacts\":[");
            let mut first = true;
            for p in m.points.iter().filter(|p| self.separation(p) < 0.0) {
                if !first {
                    text.push(b',');
                }
                first = false;
                push_point(text, p.point);
            }
            text.push(b']');
        } else if let Some(normal) = normal.try_normalize() {
            // A speculative manifold: the engine's normal and its smallest separation, the gap
            // its solver lets the pair close before it pushes, and its points.
            text.extend_from_slice(b"false,\"normal\":");
            // No -0 in a unit normal's zero component.
            push_point(text, normal + DVec2::ZERO);
            text.extend_from_slice(b",\"separation\":");
            push_number(text, deepest);
            text.extend_from_slice(b",\"contacts\":[");
            for (i, p) in m.points.iter().enumerate() {
                if i > 0 {
                    text.push(b',');
                }
                push_point(text, p.point);
            }
            text.push(b']');
        } else {
            text.extend_from_slice(b"false");
        }
        if let Some(piece) = m.piece {
            text.extend_from_slice(b",\"piece\":");
            push_int(text, piece as u64);
        }
        text.push(b'}');
    }

    /// The keys of `shape` to write after its id, onto `keys`: all of them the first time,
    /// then those that changed (bit for bit).
    fn shape_keys(&mut self, shape: &BodyShape, keys: &mut Vec<u8>) {
        let angle = shape.rotation.y.atan2(shape.rotation.x);
        // A static body does not move: its velocities are not written.
        let (velocity, angular_velocity) = match shape.body {
            Body::Static => (DVec2::ZERO, 0.0),
            _ => (shape.velocity, shape.angular_velocity),
        };
        let key = |keys: &mut Vec<u8>, name: &str| {
            keys.extend_from_slice(b",\"");
            keys.extend_from_slice(name.as_bytes());
            keys.extend_from_slice(b"\":");
        };
        // Compared where they are kept: a shape that did not change costs no copy.
        let before = self.written.get(&shape.id);
        let changed = |same: &dyn Fn(&Written) -> bool| before.is_none_or(|b| !same(b));
        let name = changed(&|b| b.name == shape.name);
        let geometry = changed(&|b| same_geometry(&b.shape, &shape.shape));
        let position = changed(&|b| same_point(b.position, shape.position));
        let turned = changed(&|b| b.angle.to_bits() == angle.to_bits());
        let body = changed(&|b| b.body == shape.body);
        let first_static = before.is_none() && shape.body == Body::Static;
        let moving = changed(&|b| same_point(b.velocity, velocity)) && !first_static;
        let spinning = changed(&|b| b.angular_velocity.to_bits() == angular_velocity.to_bits())
            && !first_static;
        if name && let Some(name) = &shape.name {
            key(keys, "name");
            serde_json::to_writer(&mut *keys, name).expect("strings serialise");
        }
        if before.is_none() {
            key(keys, "kind");
            push_name(keys, shape.shape.kind().name());
        }
        if geometry && let Value::Object(geometry) = geometry_value(&shape.shape) {
            for (name, value) in geometry {
                key(keys, &name);
                serde_json::to_writer(&mut *keys, &value).expect("geometry serialises");
            }
        }
        if position {
            key(keys, "position");
            push_point(keys, shape.position);
        }
        if turned {
            key(keys, "angle");
            push_number(keys, angle);
        }
        if body {
            key(keys, "body");
            push_name(keys, shape.body.name());
        }
        if moving {
            key(keys, "velocity");
            push_point(keys, velocity);
        }
        if spinning {
            key(keys, "angular_velocity");
            push_number(keys, angular_velocity);
        }
        match self.written.get_mut(&shape.id) {
            Some(w) => {
                if name {
                    w.name.clone_from(&shape.name);
                }
                if geometry {
                    w.shape = shape.shape.clone();
                }
                w.position = shape.position;
                w.angle = angle;
                w.body = shape.body;
                w.velocity = velocity;
                w.angular_velocity = angular_velocity;
            }
            None => {
                self.written.insert(
                    shape.id,
                    Written {
                        name: shape.name.clone(),
                        shape: shape.shape.clone(),
                        position: shape.position,
                        angle,
                        body: shape.body,
                        velocity,
                        angular_velocity,
                    },
                );
            }
        }
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
            x.winding() == y.winding() && points(x.points(), y.points())
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

/// A number in its shortest exact form (an f32's value is written as the f64 it equals).
/// Only finite numbers reach here ([`CaptureWriter::frame`] refuses the others).
fn push_number(text: &mut Vec<u8>, x: f64) {
    serde_json::to_writer(text, &x).expect("finite numbers serialise");
}

fn push_int(text: &mut Vec<u8>, n: u64) {
    write!(text, "{n}").expect("a Vec takes every byte");
}

/// One of the format's own names (a kind, a body type): plain ASCII, quoted as it is.
fn push_name(text: &mut Vec<u8>, name: &str) {
    text.push(b'"');
    text.extend_from_slice(name.as_bytes());
    text.push(b'"');
}

/// The first number of `shape` or `contact` that is not finite, named.
fn not_finite(shape: &BodyShape) -> Option<&'static str> {
    let finite = |p: DVec2| p.is_finite();
    [
        ("position", finite(shape.position)),
        (
            "rotation",
            finite(shape.rotation) && shape.rotation != DVec2::ZERO,
        ),
        ("velocity", finite(shape.velocity)),
        ("angular_velocity", shape.angular_velocity.is_finite()),
    ]
    .into_iter()
    .find(|(_, ok)| !ok)
    .map(|(name, _)| name)
}

fn push_point(text: &mut Vec<u8>, p: DVec2) {
    text.push(b'[');
    push_number(text, p.x);
    text.push(b',');
    push_number(text, p.y);
    text.push(b']');
}
