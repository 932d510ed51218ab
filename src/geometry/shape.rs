use super::{Capsule, Circle, ConvexPolygon, Pose};
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
}

impl ShapeKind {
    /// The kind's name as files and messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Circle => "circle",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Polygon => "polygon",
        }
    }

    /// All kinds, in file order of mention.
    pub const ALL: [ShapeKind; 3] = [ShapeKind::Circle, ShapeKind::Capsule, ShapeKind::Polygon];
}

impl fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A shape in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A disc around the local origin.
    Circle(Circle),
    /// A rounded segment.
    Capsule(Capsule),
    /// A convex polygon.
    Polygon(ConvexPolygon),
}

impl Shape {
    /// Which kind this is.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Polygon(_) => ShapeKind::Polygon,
        }
    }

    /// The shape's centre in local coordinates: the circle's centre, the capsule segment's
    /// midpoint, the polygon's area centroid.
    pub fn local_centre(&self) -> DVec2 {
        match self {
            Shape::Circle(_) => DVec2::ZERO,
            Shape::Capsule(c) => (c.a + c.b) * 0.5,
            Shape::Polygon(p) => p.centroid(),
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

impl From<ConvexPolygon> for Shape {
    fn from(p: ConvexPolygon) -> Self {
        Shape::Polygon(p)
    }
}

/// A shape placed in the world: what every query takes.
#[derive(Clone, Debug, PartialEq)]
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

    /// The shape's centre (see [`Shape::local_centre`]) in world coordinates.
    pub fn centre(&self) -> DVec2 {
        self.pose.apply(self.shape.local_centre())
    }
}
