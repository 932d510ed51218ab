//! A capsule and a circle, collided without building either world view: the separating-axis
//! walk of [`super::fast_path`] for this one pair of kinds, number for number (as
//! [`super::polygon_circle`] does for a polygon). The same candidate axes in the same order
//! (the capsule's segment normal, then the line from the nearer end of its segment to the
//! centre when that end is the closest point), each measured by the same expressions from the
//! same origin (A's position), the direction by the smaller push (the centres on a tie), and
//! the same contact point. So it agrees with the report bit for bit (tested beside the walk in
//! `fast_path.rs`), and only skips the work of the general walk: the two views, the generic
//! dispatch on kinds and on features.

use super::closest::closest_point_on_segment;
use super::contact::{Contact, ContactPoint, ContactPoints};
use crate::geometry::{Capsule, DVec2, Interval, Pose, project_point, right_perp};

/// Two axes closer than this (in `1 - |cos|`) are one line (as the walk's `PARALLEL`).
const PARALLEL: f64 = 1e-12;

/// The contact of `capsule` at `pose` and the circle of `radius` at `centre`, or `None` when
/// they do not intersect; `capsule_is_a` says which of the pair (A or B) the capsule is: the
/// normal points from A toward B. A capsule whose ends are closer than rounding noise (the
/// walk sees a circle there) gives `Err`: the caller takes the general walk.
pub(crate) fn collide_capsule_circle(
    capsule: &Capsule,
    pose: Pose,
    centre: DVec2,
    radius: f64,
    capsule_is_a: bool,
) -> Result<Option<Contact>, ()> {
    // The walk's frame: everything relative to A's position.
    let origin = if capsule_is_a { pose.position } else { centre };
    let rotation = pose.rotation();
    let offset = pose.position - origin;
    let place = |p: DVec2| rotation.rotate(p) + offset;
    let capsule_centre = place((capsule.a() + capsule.b()) * 0.5);
    let (p0, p1) = (place(capsule.a()), place(capsule.b()));
    let along = p1 - p0;
    let length = along.length();
    if length <= f64::EPSILON * (p0.abs().max_element() + 1.0) {
        return Err(());
    }
    let normal = right_perp(along) * (1.0 / length);
    let rc = capsule.radius();
    let c = centre - origin;
    let capsule_on = |u: DVec2| {
        let (d0, d1) = (p0.dot(u), p1.dot(u));
        let lo = if d1 < d0 { d1 } else { d0 };
        let hi = if d1 > d0 { d1 } else { d0 };
        Interval::new(lo - rc, hi + rc)
    };
    // Both shadows on `u`, A's first.
    let shadows = |u: DVec2| {
        let (cap, circle) = (capsule_on(u), project_point(c, radius, u));
        if capsule_is_a {
            (cap, circle)
        } else {
            (circle, cap)
        }
    };
    // The segment normal, the one face axis.
    let (fa, fb) = shadows(normal);
    let least = fa.overlap(&fb);
    if least <= 0.0 {
        return Ok(None);
    }
    // The line between the cores' closest points, when it joins an end of the segment to the
    // centre (inside the segment it is the normal's line) and is not the normal's line.
    let (q, t) = closest_point_on_segment(c, p0, p1);
    let d2 = q.distance_squared(c);
    let mut kept = (normal, fa, fb);
    let distance = d2.sqrt();
    if distance != 0.0 && (t <= 0.0 || t >= 1.0) {
        let axis = if capsule_is_a {
            (c - q) / distance
        } else {
            (q - c) / distance
        };
        if 1.0 - normal.dot(axis).abs() > PARALLEL {
            let (a, b) = shadows(axis);
            let overlap = a.overlap(&b);
            if overlap <= 0.0 {
                return Ok(None);
            }
            if overlap < least {
                kept = (axis, a, b);
            }
        }
    }
    let (axis, a, b) = kept;
    // The walk's measure: the smaller push, the centres on a tie.
    let (forward, backward) = (a.push_forward(&b), a.push_backward(&b));
    let mut sign =
        f64::from(u8::from(forward < backward)) - f64::from(u8::from(backward < forward));
    if sign == 0.0 {
        let (centre_a, centre_b) = if capsule_is_a {
            (capsule_centre, c)
        } else {
            (c, capsule_centre)
        };
        sign = if (centre_b - centre_a).dot(axis) >= 0.0 {
            1.0
        } else {
            -1.0
        };
    }
    let depth = a.overlap(&b);
    let n = axis * sign;
    // One point, halfway between the surfaces, from the circle's deepest point (the walk's
    // `single_point`), placed back from A's position.
    let point = if capsule_is_a {
        (c - n * radius + n * (0.5 * depth)) + origin
    } else {
        (c + n * radius - n * (0.5 * depth)) + origin
    };
    Ok(Some(Contact {
        depth,
        normal: n,
        points: ContactPoints::from_slice(&[ContactPoint { point, depth }]),
    }))
}
