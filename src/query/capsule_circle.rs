//! A capsule and a circle (and, for `distance`, two circles) asked without building either
//! world view: `collide` is the separating-axis walk of [`super::fast_path`] for this one pair
//! of kinds, number for number (as [`super::polygon_circle`] does for a polygon), and
//! `distance` is the general query's closest points and margins, number for number. The same candidate axes in the same order
//! (the capsule's segment normal, then the line from the nearer end of its segment to the
//! centre when that end is the closest point), each measured by the same expressions from the
//! same origin (A's position), the direction by the smaller push (the centres on a tie), and
//! the same contact point. So it agrees with the report bit for bit (tested beside the walk in
//! `fast_path.rs`), and only skips the work of the general walk: the two views, the generic
//! dispatch on kinds and on features.

use super::closest::{CLEAR_MARGIN, ClosestPoints, Proximity, closest_point_on_segment};
use super::contact::{Contact, ContactPoint, ContactPoints};
use crate::geometry::{Capsule, DVec2, Feature, Interval, Pose, project_point, right_perp};

/// Two axes closer than this (in `1 - |cos|`) are one line (as the walk's `PARALLEL`).
const PARALLEL: f64 = 1e-12;

/// A capsule's (or a segment's) core as the general queries' view of it holds it, from
/// `origin` (A's position): its centre, its ends, their distance.
pub(super) struct Core {
    pub centre: DVec2,
    pub ends: (DVec2, DVec2),
    pub length: f64,
}

impl Core {
    /// The core with local ends `(a, b)` at `pose`, seen from `origin`, placed as
    /// `Rounded::at` places a capsule's or a segment's; `Err` for ends closer than rounding
    /// noise (the view is a point there).
    #[inline(always)]
    pub(super) fn of((a, b): (DVec2, DVec2), pose: Pose, origin: DVec2) -> Result<Self, ()> {
        let rotation = pose.rotation();
        let offset = pose.position - origin;
        let place = |p: DVec2| rotation.rotate(p) + offset;
        let centre = place((a + b) * 0.5);
        let (p0, p1) = (place(a), place(b));
        let length = (p1 - p0).length();
        if length <= f64::EPSILON * (p0.abs().max_element() + 1.0) {
            return Err(());
        }
        Ok(Self {
            centre,
            ends: (p0, p1),
            length,
        })
    }
}

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
    let origin = if capsule_is_a { pose.position } else { centre };
    let Core {
        centre: capsule_centre,
        ends: (p0, p1),
        length,
    } = Core::of((capsule.a(), capsule.b()), pose, origin)?;
    let normal = right_perp(p1 - p0) * (1.0 / length);
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

/// The distance of `capsule` at `pose` and the circle of `radius` at `centre` as
/// [`super::distance`] finds it (from A's position, the core's closest points, the radii taken
/// off A's first), number for number; `Err` where the general query must decide (a capsule
/// whose ends coincide, or cores within rounding of touching, where it asks the
/// separating-axis walk).
pub(crate) fn distance_capsule_circle(
    capsule: &Capsule,
    pose: Pose,
    centre: DVec2,
    radius: f64,
    capsule_is_a: bool,
) -> Result<Proximity, ()> {
    let origin = if capsule_is_a { pose.position } else { centre };
    let Core {
        centre: capsule_centre,
        ends: (p0, p1),
        ..
    } = Core::of((capsule.a(), capsule.b()), pose, origin)?;
    let rc = capsule.radius();
    let c = centre - origin;
    // The core's closest points: the centre and its nearest point of the segment.
    let (q, t) = closest_point_on_segment(c, p0, p1);
    let distance = q.distance_squared(c).sqrt();
    let on_capsule = ends_feature(t);
    let capsule = (q, on_capsule, rc, capsule_centre);
    let circle = (c, Feature::Vertex(0), radius, c);
    match capsule_is_a {
        true => from_closest(capsule, circle, distance, origin),
        false => from_closest(circle, capsule, distance, origin),
    }
}

/// The distance of two circles as [`super::distance`] finds it (from A's centre, the radii
/// taken off A's first), number for number; `Err` within rounding of touching, where the
/// general query asks the separating-axis walk.
pub(crate) fn distance_circles(
    (centre_a, radius_a): (DVec2, f64),
    (centre_b, radius_b): (DVec2, f64),
) -> Result<Proximity, ()> {
    let origin = centre_a;
    let (a, b) = (centre_a - origin, centre_b - origin);
    let distance = b.distance_squared(a).sqrt();
    let vertex = Feature::Vertex(0);
    from_closest(
        (a, vertex, radius_a, a),
        (b, vertex, radius_b, b),
        distance,
        origin,
    )
}

/// The feature of a capsule's or a segment's core at `t` along it (0 at its first end), as
/// its view names it: an end, else the one edge.
#[inline(always)]
pub(super) fn ends_feature(t: f64) -> Feature {
    if t <= 0.0 {
        Feature::Vertex(0)
    } else if t >= 1.0 {
        Feature::Vertex(1)
    } else {
        Feature::Edge(0)
    }
}

/// One shape of a pair as the general distance query sees it, from A's position: its core's
/// closest point to the other's, the feature that point lies on, its radius, its view's centre.
pub(super) type Closest = (DVec2, Feature, f64, DVec2);

/// The general query's answer for cores whose closest points are `a` and `b`, `distance` apart
/// (A's first; `origin` A's position): touching when clearly within their radii, apart with
/// the points on the surfaces when clearly beyond, `Err` between (the walk decides there).
pub(super) fn from_closest(
    a: Closest,
    b: Closest,
    distance: f64,
    origin: DVec2,
) -> Result<Proximity, ()> {
    let ((point_a, feature_a, radius_a, centre_a), (point_b, feature_b, radius_b, centre_b)) =
        (a, b);
    let reach = radius_a + radius_b;
    // Rounding of the coordinates measured, relative to A's position (as the general query).
    let scale = distance + reach + (centre_b.abs() + centre_a.abs()).max_element();
    let margin = CLEAR_MARGIN * scale;
    if distance < reach - margin {
        return Ok(Proximity {
            distance: 0.0,
            closest: None,
        });
    }
    if distance <= reach + margin {
        return Err(());
    }
    let axis = if distance > 0.0 {
        (point_b - point_a) / distance
    } else {
        DVec2::ZERO
    };
    Ok(Proximity {
        distance: (distance - radius_a - radius_b).max(0.0),
        closest: Some(ClosestPoints {
            point_a: point_a + axis * radius_a + origin,
            point_b: point_b - axis * radius_b + origin,
            feature_a,
            feature_b,
        }),
    })
}
