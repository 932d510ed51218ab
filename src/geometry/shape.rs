use super::{Capsule, Chain, Circle, ConvexPolygon, Pose, Segment, ShapeError};
use glam::DVec2;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The kinds of shape collidoscope knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShapeKind {
    /// A disc.
    Circle,
    /// A segment grown by a radius.
    Capsule,
    /// A convex polygon.
    Polygon,
    /// A segment: a capsule of radius 0 (file version 3).
    Segment,
    /// A row of one-sided segments with ghost points (file version 3).
    Chain,
}

impl ShapeKind {
    /// The kind's name as files and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Circle => "circle",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Polygon => "polygon",
            ShapeKind::Segment => "segment",
            ShapeKind::Chain => "chain",
        }
    }

    /// All kinds, in file order of mention.
    pub const ALL: [ShapeKind; 5] = [
        ShapeKind::Circle,
        ShapeKind::Capsule,
        ShapeKind::Polygon,
        ShapeKind::Segment,
        ShapeKind::Chain,
    ];

    /// The kinds with an inside, which can move.
    pub const SOLID: [ShapeKind; 3] = [ShapeKind::Circle, ShapeKind::Capsule, ShapeKind::Polygon];

    /// Whether shapes of this kind are static geometry only (segments and chains).
    pub fn is_static_only(self) -> bool {
        matches!(self, ShapeKind::Segment | ShapeKind::Chain)
    }
}

impl fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A shape in its local frame.
// The polygon is large on purpose: its corners, normals and extents inline (up to 8), so a
// query reads a shape where it lies. Boxing it would bring back the pointer chase.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
// The kind in the first byte, each kind's fields right after it. Without it Rust keeps the kind
// in the polygon's winding (a spare value of its byte), and a capsule's fields go wherever they
// miss that byte: measured in the versus table (10,000 pairs, three runs each), collide
// capsule-circle 1.41-1.54x Box2D to 0.81-1.01x, two circles 1.13-1.16x to 0.90-0.93x.
#[repr(u8)]
pub enum Shape {
    /// A disc around the local origin.
    Circle(Circle),
    /// A rounded segment.
    Capsule(Capsule),
    /// A convex polygon.
    Polygon(ConvexPolygon),
    /// A segment (a capsule of radius 0 in every query).
    Segment(Segment),
    /// One-sided pieces with ghost points (see [`Chain`]).
    Chain(Chain),
}

impl Shape {
    /// Which kind this is.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Polygon(_) => ShapeKind::Polygon,
            Shape::Segment(_) => ShapeKind::Segment,
            Shape::Chain(_) => ShapeKind::Chain,
        }
    }

    /// The radius of a circle around [`Shape::local_centre`] that holds the whole shape.
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Shape::Circle(c) => c.radius(),
            Shape::Capsule(c) => 0.5 * c.a().distance(c.b()) + c.radius(),
            Shape::Polygon(p) => p.bounding_radius(),
            Shape::Segment(s) => 0.5 * s.a().distance(s.b()),
            Shape::Chain(c) => {
                let centre = c.centre();
                c.points()
                    .iter()
                    .map(|p| p.distance(centre))
                    .fold(0.0, f64::max)
            }
        }
    }

    /// The shape's centre in local coordinates: the circle's centre, the capsule's or
    /// segment's midpoint, the polygon's area centroid, the mean of a chain's points.
    pub fn local_centre(&self) -> DVec2 {
        match self {
            Shape::Circle(_) => DVec2::ZERO,
            Shape::Capsule(c) => (c.a() + c.b()) * 0.5,
            Shape::Polygon(p) => p.centroid(),
            Shape::Segment(s) => (s.a() + s.b()) * 0.5,
            Shape::Chain(c) => c.centre(),
        }
    }

    /// The radius grown around the core: a circle's, capsule's or rounded polygon's, 0 for
    /// the others.
    pub fn radius(&self) -> f64 {
        match self {
            Shape::Circle(c) => c.radius(),
            Shape::Capsule(c) => c.radius(),
            Shape::Polygon(p) => p.radius(),
            Shape::Segment(_) | Shape::Chain(_) => 0.0,
        }
    }

    /// The chain, when this is one.
    pub fn as_chain(&self) -> Option<&Chain> {
        match self {
            Shape::Chain(c) => Some(c),
            _ => None,
        }
    }
}

impl From<Circle> for Shape {
    fn from(c: Circle) -> Self {
        Shape::Circle(c)
    }
}

impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Self {
        Shape::Capsule(c)
    }
}

impl From<Segment> for Shape {
    fn from(s: Segment) -> Self {
        Shape::Segment(s)
    }
}

impl From<Chain> for Shape {
    fn from(c: Chain) -> Self {
        Shape::Chain(c)
    }
}

impl From<ConvexPolygon> for Shape {
    fn from(p: ConvexPolygon) -> Self {
        Shape::Polygon(p)
    }
}

/// A shape placed in the world: what every query takes.
// Laid out as written: the shape (its kind and its own fields first), then the pose.
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
pub struct Placed {
    /// The shape in its local frame.
    pub shape: Shape,
    /// Where it sits.
    pub pose: Pose,
}

impl Placed {
    /// `shape` placed at `pose`.
    pub fn new(shape: impl Into<Shape>, pose: Pose) -> Self {
        Self {
            shape: shape.into(),
            pose,
        }
    }

    /// The convex polygon through these world points (in their order), placed at their mean
    /// with angle 0: what clicking corners in the window makes.
    pub fn polygon_through(points: &[DVec2]) -> Result<Self, ShapeError> {
        let centre = points.iter().copied().sum::<DVec2>() / points.len().max(1) as f64;
        let local = points.iter().map(|p| *p - centre).collect();
        Ok(Self::new(ConvexPolygon::new(local)?, Pose::at(centre)))
    }

    /// The world-space axis-aligned bounding box, `(min corner, max corner)`.
    pub fn aabb(&self) -> (DVec2, DVec2) {
        let place = |p: DVec2| self.pose.apply(p);
        let (core_min, core_max, radius) = match &self.shape {
            Shape::Circle(c) => (self.pose.position, self.pose.position, c.radius()),
            Shape::Capsule(c) => {
                let (a, b) = (place(c.a()), place(c.b()));
                (a.min(b), a.max(b), c.radius())
            }
            Shape::Segment(s) => {
                let (a, b) = (place(s.a()), place(s.b()));
                (a.min(b), a.max(b), 0.0)
            }
            Shape::Polygon(p) => {
                let (lo, hi) = bounds(p.points().iter().map(|q| place(*q)));
                (lo, hi, p.radius())
            }
            Shape::Chain(c) => {
                let (lo, hi) = bounds(c.points().iter().map(|q| place(*q)));
                (lo, hi, 0.0)
            }
        };
        (
            core_min - DVec2::splat(radius),
            core_max + DVec2::splat(radius),
        )
    }

    /// The shape's centre (see [`Shape::local_centre`]) in world coordinates.
    pub fn centre(&self) -> DVec2 {
        self.pose.apply(self.shape.local_centre())
    }

    /// Turn the shape to `angle` (radians, counter-clockwise) about its centre (see
    /// [`Shape::local_centre`]), which stays where it is. Turning about the pose's position
    /// instead would swing a shape whose centre is off its local origin.
    pub fn turn_about_centre(&mut self, angle: f64) {
        let centre = self.centre();
        self.pose.set_angle(angle);
        self.pose.position += centre - self.centre();
    }
}

/// The corners of the box around `points` (at least one).
fn bounds(mut points: impl Iterator<Item = DVec2>) -> (DVec2, DVec2) {
    let first = points.next().unwrap_or(DVec2::ZERO);
    points.fold((first, first), |(lo, hi), q| (lo.min(q), hi.max(q)))
}
