//! The grab handles of the selected shape: where they are and what dragging them does.
//! The window finds what a press grabbed and where the pointer is; the shape a drag makes
//! is worked out here ([`dragged`]), in world units, so the window holds no geometry.

use crate::geometry::{DVec2, Placed, Shape, left_perp};
use crate::query::distance_to_core;
use crate::scene::{Body, Motion, SceneShape};

/// What a handle changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandleKind {
    /// Turn the shape about its centre (not on circles: turning one shows nothing).
    Rotate,
    /// A polygon or chain point, or a capsule's or segment's end (given order; 0 = a, 1 = b).
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
            HandleKind::Corner(_) => {
                "drag to move this point (a polygon stays convex, a capsule's or segment's ends and a chain's points stay apart)"
            }
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
        Shape::Segment(s) => {
            handles.push(handle(HandleKind::Corner(0), pose.apply(s.a())));
            handles.push(handle(HandleKind::Corner(1), pose.apply(s.b())));
        }
        Shape::Polygon(p) => {
            for (k, q) in p.points_as_given().into_iter().enumerate() {
                handles.push(handle(HandleKind::Corner(k), pose.apply(q)));
            }
        }
        Shape::Chain(c) => {
            for (k, q) in c.points().iter().enumerate() {
                handles.push(handle(HandleKind::Corner(k), pose.apply(*q)));
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

/// What a drag holds of a shape: the whole shape, or one of its handles with what the press
/// fixed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Grip {
    /// The shape itself: it moves with the pointer.
    Body,
    /// The rotation handle, grabbed `grab` radians off the shape's angle (seen from its
    /// centre), so the shape does not jump when the press was not exactly on the handle.
    Rotate {
        /// The pointer's angle about the centre at the press, less the shape's angle.
        grab: f64,
    },
    /// A polygon point or capsule end.
    Corner(usize),
    /// A circle's or capsule's radius.
    Radius,
    /// The velocity handle, grabbed at `press` (world) when the body moved at `start`.
    Velocity {
        /// The velocity at the press.
        start: DVec2,
        /// Where the press was.
        press: DVec2,
    },
}

impl Grip {
    /// What a press at `at` (world) on handle `kind` of `shape` holds.
    pub fn of_handle(kind: HandleKind, shape: &SceneShape, at: DVec2) -> Self {
        let placed = &shape.placed;
        match kind {
            HandleKind::Rotate => Grip::Rotate {
                grab: (at - placed.centre()).to_angle() - placed.pose.angle(),
            },
            HandleKind::Corner(k) => Grip::Corner(k),
            HandleKind::Radius => Grip::Radius,
            HandleKind::Velocity => Grip::Velocity {
                start: shape.motion.velocity,
                press: at,
            },
        }
    }
}

/// A drag the shape cannot follow: the outline it would have had (world) and why not.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// The outline the drag would have given (world).
    pub outline: Vec<DVec2>,
    /// Why it cannot be.
    pub reason: String,
}

/// `shape` after one frame of dragging `grip` with the pointer at `at` (world), having moved
/// by `delta` since the last frame; `horizon` is the span a velocity arrow covers. `Ok(None)`
/// when nothing changes (a radius handle on a polygon, a capsule end dragged onto the other);
/// `Err` when a polygon corner would make the polygon invalid, with the outline to show.
pub fn dragged(
    shape: &SceneShape,
    grip: Grip,
    at: DVec2,
    delta: DVec2,
    horizon: f64,
) -> Result<Option<SceneShape>, Refused> {
    let mut out = shape.clone();
    let placed = &mut out.placed;
    match grip {
        Grip::Body => placed.pose.position += delta,
        Grip::Rotate { grab } => {
            let angle = (at - placed.centre()).to_angle() - grab;
            placed.turn_about_centre(angle);
        }
        Grip::Corner(k) => {
            let local = placed.pose.inverse_apply(at);
            let pose = placed.pose;
            match &mut placed.shape {
                Shape::Capsule(c) => {
                    if c.set_end(k, local).is_err() {
                        return Ok(None);
                    }
                }
                Shape::Polygon(p) => {
                    let mut points = p.points_as_given();
                    if k >= points.len() {
                        return Ok(None);
                    }
                    points[k] = local;
                    match p.reshaped(points.clone()) {
                        Ok(valid) => *p = valid,
                        Err(e) => {
                            return Err(Refused {
                                outline: points.iter().map(|q| pose.apply(*q)).collect(),
                                reason: e.to_string(),
                            });
                        }
                    }
                }
                Shape::Segment(s) => {
                    if s.set_end(k, local).is_err() {
                        return Ok(None);
                    }
                }
                Shape::Chain(c) => {
                    if k >= c.points().len() {
                        return Ok(None);
                    }
                    let mut points = c.points().to_vec();
                    points[k] = local;
                    if let Err(e) = c.set_point(k, local) {
                        return Err(Refused {
                            outline: points.iter().map(|q| pose.apply(*q)).collect(),
                            reason: e.to_string(),
                        });
                    }
                }
                Shape::Circle(_) => return Ok(None),
            }
        }
        Grip::Velocity { start, press } => {
            out.motion.velocity = if start == DVec2::ZERO {
                // At rest the handle waits below the shape: the arrow runs from the centre to
                // the pointer, so the handle stays under it.
                (at - placed.centre()) / horizon
            } else {
                // By the pointer's movement since the press, so grabbing a handle held at the
                // view's edge does not jump.
                start + (at - press) / horizon
            };
        }
        Grip::Radius => {
            let r = distance_to_core(placed, at).max(1e-3);
            let set = match &mut placed.shape {
                Shape::Circle(c) => c.set_radius(r),
                Shape::Capsule(c) => c.set_radius(r),
                Shape::Polygon(_) | Shape::Segment(_) | Shape::Chain(_) => return Ok(None),
            };
            if set.is_err() {
                return Ok(None);
            }
        }
    }
    Ok((out != *shape).then_some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Capsule, ConvexPolygon, Pose};

    fn shape(shape: Shape, at: DVec2) -> SceneShape {
        SceneShape::new(None, Placed::new(shape, Pose::new(at, 0.0)))
    }

    fn square() -> Shape {
        Shape::Polygon(
            ConvexPolygon::new(vec![
                DVec2::new(-1.0, -1.0),
                DVec2::new(1.0, -1.0),
                DVec2::new(1.0, 1.0),
                DVec2::new(-1.0, 1.0),
            ])
            .unwrap(),
        )
    }

    #[test]
    fn a_body_grip_moves_by_the_pointers_movement() {
        let s = shape(square(), DVec2::new(2.0, 3.0));
        let moved = dragged(&s, Grip::Body, DVec2::ZERO, DVec2::new(0.5, -1.0), 1.0)
            .unwrap()
            .unwrap();
        assert_eq!(moved.placed.pose.position, DVec2::new(2.5, 2.0));
    }

    #[test]
    fn the_rotation_handle_turns_about_the_centre_keeping_the_grab_offset() {
        let s = shape(square(), DVec2::new(2.0, 0.0));
        // Grabbed 0.1 rad above the handle, dragged to a quarter turn (plus the same 0.1).
        let press = DVec2::new(2.0, 0.0) + DVec2::from_angle(0.1) * 3.0;
        let grip = Grip::of_handle(HandleKind::Rotate, &s, press);
        assert_eq!(grip, Grip::Rotate { grab: 0.1 });
        let at = DVec2::new(2.0, 0.0) + DVec2::from_angle(std::f64::consts::FRAC_PI_2 + 0.1) * 3.0;
        let turned = dragged(&s, grip, at, DVec2::ZERO, 1.0).unwrap().unwrap();
        assert!((turned.placed.pose.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
        assert_eq!(turned.placed.centre(), DVec2::new(2.0, 0.0));
    }

    #[test]
    fn a_corner_that_would_break_convexity_is_refused_with_the_outline_it_would_have() {
        let s = shape(square(), DVec2::new(10.0, 0.0));
        // Corner 2 (1, 1) dragged in past the centre: the square would fold.
        let refused =
            dragged(&s, Grip::Corner(2), DVec2::new(9.5, -0.5), DVec2::ZERO, 1.0).unwrap_err();
        assert_eq!(refused.outline[2], DVec2::new(9.5, -0.5));
        assert_eq!(refused.outline[0], DVec2::new(9.0, -1.0));
        assert!(!refused.reason.is_empty());
        // Dragged outwards it is still a convex quadrilateral.
        let out = dragged(&s, Grip::Corner(2), DVec2::new(12.0, 2.0), DVec2::ZERO, 1.0)
            .unwrap()
            .unwrap();
        let Shape::Polygon(p) = &out.placed.shape else {
            panic!()
        };
        assert_eq!(p.points_as_given()[2], DVec2::new(2.0, 2.0));
    }

    #[test]
    fn radius_handles_set_the_distance_to_the_core_and_polygons_have_none() {
        let capsule = Capsule::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.5).unwrap();
        let s = shape(Shape::Capsule(capsule), DVec2::ZERO);
        let wider = dragged(&s, Grip::Radius, DVec2::new(0.3, 2.0), DVec2::ZERO, 1.0)
            .unwrap()
            .unwrap();
        let Shape::Capsule(c) = &wider.placed.shape else {
            panic!()
        };
        assert_eq!(c.radius(), 2.0);
        let box_ = shape(square(), DVec2::ZERO);
        assert_eq!(
            dragged(&box_, Grip::Radius, DVec2::new(5.0, 0.0), DVec2::ZERO, 1.0),
            Ok(None)
        );
    }

    #[test]
    fn the_velocity_handle_sets_where_the_centre_is_at_the_horizon() {
        let s = shape(square(), DVec2::new(1.0, 1.0));
        // From rest: the arrow runs from the centre to the pointer over the horizon (2 s).
        let grip = Grip::of_handle(HandleKind::Velocity, &s, DVec2::new(1.0, -2.0));
        let v = dragged(&s, grip, DVec2::new(5.0, 1.0), DVec2::ZERO, 2.0)
            .unwrap()
            .unwrap();
        assert_eq!(v.motion.velocity, DVec2::new(2.0, 0.0));
        // Moving: by the pointer's movement since the press.
        let grip = Grip::Velocity {
            start: DVec2::new(2.0, 0.0),
            press: DVec2::new(5.0, 1.0),
        };
        let w = dragged(&v, grip, DVec2::new(5.0, 3.0), DVec2::ZERO, 2.0)
            .unwrap()
            .unwrap();
        assert_eq!(w.motion.velocity, DVec2::new(2.0, 1.0));
    }
}
