//! How a shape moves (format version 2): its body type and velocities, as in Box2D.

use crate::geometry::{DVec2, Pose};
use serde::Serialize;

/// How a body takes part in a simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// Never moves.
    #[default]
    Static,
    /// Moves by its velocity, never pushed.
    Kinematic,
    /// Moves by its velocity and is pushed out of contacts.
    Dynamic,
}

impl Body {
    /// Every body type, in the order files mention them.
    pub const ALL: [Body; 3] = [Body::Static, Body::Kinematic, Body::Dynamic];

    /// The name files use: `static`, `kinematic`, `dynamic`.
    pub fn name(self) -> &'static str {
        match self {
            Body::Static => "static",
            Body::Kinematic => "kinematic",
            Body::Dynamic => "dynamic",
        }
    }
}

/// A shape's motion: `position(t) = position + velocity * t`, `angle(t) = angle +
/// angular_velocity * t` (rotation about the shape's position).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Motion {
    /// The body type.
    pub body: Body,
    /// Units per second.
    pub velocity: DVec2,
    /// Radians per second, counter-clockwise.
    pub angular_velocity: f64,
}

impl Motion {
    /// Whether this is the default (a static body at rest): nothing a version-1 file lacks.
    pub fn is_default(&self) -> bool {
        // Bit for bit: a -0.0 velocity is written (so it reads back as itself), and what is
        // written must be what decides the file's version.
        self.body == Body::Static
            && self.velocity.x.to_bits() == 0
            && self.velocity.y.to_bits() == 0
            && self.angular_velocity.to_bits() == 0
    }

    /// The velocities as the queries take them.
    pub fn velocity(&self) -> crate::query::Velocity {
        crate::query::Velocity {
            linear: self.velocity,
            angular: self.angular_velocity,
        }
    }

    /// Whether it moves at all.
    pub fn moves(&self) -> bool {
        self.velocity != DVec2::ZERO || self.angular_velocity != 0.0
    }

    /// The pose at time `t` of a shape at `pose` at time 0.
    pub fn pose_at(&self, pose: Pose, t: f64) -> Pose {
        Pose::new(
            pose.position + self.velocity * t,
            pose.angle() + self.angular_velocity * t,
        )
    }
}
