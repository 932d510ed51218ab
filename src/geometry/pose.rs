use glam::DVec2;

/// Where a shape sits in the world: `world = rotate(angle) * local + position`.
///
/// `angle` is in radians, counter-clockwise. The rotation `(cos, sin)` is kept beside it, so
/// placing a shape costs no trigonometry; change the angle with [`Pose::set_angle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Translation applied after the rotation.
    pub position: DVec2,
    angle: f64,
    rotation: DVec2,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// No translation, no rotation.
    pub const IDENTITY: Pose = Pose {
        position: DVec2::ZERO,
        angle: 0.0,
        rotation: DVec2::X,
    };

    /// A pose from a position and an angle (radians, counter-clockwise).
    pub fn new(position: DVec2, angle: f64) -> Self {
        Self {
            position,
            angle,
            rotation: DVec2::from_angle(angle),
        }
    }

    /// A pure translation.
    pub fn at(position: DVec2) -> Self {
        Self::new(position, 0.0)
    }

    /// The same pose moved by `delta` (the rotation kept as it is: equal to
    /// `Pose::new(position + delta, angle)` without computing it again).
    pub fn translated(&self, delta: DVec2) -> Self {
        Self {
            position: self.position + delta,
            ..*self
        }
    }

    /// The angle in radians, counter-clockwise.
    pub fn angle(&self) -> f64 {
        self.angle
    }

    /// Turn to `angle` (radians, counter-clockwise), keeping the position.
    pub fn set_angle(&mut self, angle: f64) {
        *self = Self::new(self.position, angle);
    }

    /// The rotation as a unit complex number `(cos, sin)`.
    #[inline]
    pub fn rotation(&self) -> DVec2 {
        self.rotation
    }

    /// A local point in world coordinates.
    #[inline]
    pub fn apply(&self, local: DVec2) -> DVec2 {
        self.rotation.rotate(local) + self.position
    }

    /// A world point in local coordinates (the inverse of [`Pose::apply`]).
    #[inline]
    pub fn inverse_apply(&self, world: DVec2) -> DVec2 {
        let r = self.rotation;
        DVec2::new(r.x, -r.y).rotate(world - self.position)
    }

    /// This pose moved by `offset` and then turned by `angle` about `pivot` (a rigid motion
    /// applied on top of the pose).
    pub fn moved(&self, offset: DVec2, angle: f64, pivot: DVec2) -> Pose {
        let turn = DVec2::from_angle(angle);
        Pose::new(
            turn.rotate(self.position + offset - pivot) + pivot,
            self.angle + angle,
        )
    }
}
