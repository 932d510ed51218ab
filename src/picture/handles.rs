//! The grab handles of the selected shape: where they are and what dragging them does.

use crate::geometry::{DVec2, Placed, Shape, left_perp};
use crate::scene::{Body, Motion};

/// What a handle changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandleKind {
    /// Turn the shape about its centre (not on circles: turning one shows nothing).
    Rotate,
    /// A polygon point or capsule end (given order; capsule: 0 = a, 1 = b).
    Corner(usize),
    /// A circle's or capsule's radius.
    Radius,
    /// The tip of a moving body's velocity arrow: where its centre is at the end of the span.
    Velocity,
}

impl HandleKind {
    /// What dragging it does, for its tooltip.
    pub fn tooltip(self) -> &'static str {
        match self {
            HandleKind::Rotate => "drag to turn the shape about its centre",
            HandleKind::Corner(_) => "drag to move this corner (a polygon must stay convex)",
            HandleKind::Radius => "drag to change the radius",
            HandleKind::Velocity => {
                "drag to change the velocity: the arrow ends where the centre is at t = T"
            }
        }
    }
}

/// A handle and where it is (world).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handle {
    /// What it changes.
    pub kind: HandleKind,
    /// Where it is.
    pub at: DVec2,
    /// Where the arrow it heads starts (the velocity handle), else `None`.
    pub tail: Option<DVec2>,
}

/// The handles of `placed`; the rotation handle stands `reach` beyond the shape's bounding
/// circle, in the direction of its angle.
pub fn handles_of(placed: &Placed, reach: f64) -> Vec<Handle> {
    let pose = placed.pose;
    let mut handles = Vec::new();
    let handle = |kind, at| Handle {
        kind,
        at,
        tail: None,
    };
    match &placed.shape {
        Shape::Circle(c) => {
            handles.push(handle(
                HandleKind::Radius,
                pose.apply(DVec2::new(0.0, c.radius())),
            ));
            return handles;
        }
        Shape::Capsule(c) => {
            handles.push(handle(HandleKind::Corner(0), pose.apply(c.a())));
            handles.push(handle(HandleKind::Corner(1), pose.apply(c.b())));
            let side = left_perp((c.b() - c.a()).try_normalize().unwrap_or(DVec2::X));
            let rim = (c.a() + c.b()) * 0.5 + side * c.radius();
            handles.push(handle(HandleKind::Radius, pose.apply(rim)));
        }
        Shape::Polygon(p) => {
            for (k, q) in p.points_as_given().into_iter().enumerate() {
                handles.push(handle(HandleKind::Corner(k), pose.apply(q)));
            }
        }
    }
    let out = placed.shape.bounding_radius() + reach;
    handles.push(handle(
        HandleKind::Rotate,
        placed.centre() + DVec2::from_angle(pose.angle()) * out,
    ));
    handles
}

/// The velocity handle of a body that may move (`None` for a static one): the tip of its
/// velocity arrow, `velocity * horizon` from its centre; at rest, `reach` beyond its bounding
/// circle straight below, to drag a velocity out of.
pub fn velocity_handle(
    placed: &Placed,
    motion: &Motion,
    horizon: f64,
    reach: f64,
) -> Option<Handle> {
    if motion.body == Body::Static {
        return None;
    }
    let offset = if motion.velocity == DVec2::ZERO {
        DVec2::new(0.0, -(placed.shape.bounding_radius() + reach))
    } else {
        motion.velocity * horizon
    };
    Some(Handle {
        kind: HandleKind::Velocity,
        at: placed.centre() + offset,
        tail: Some(placed.centre()),
    })
}
