//! Contact points of two intersecting shapes: a Box2D-style manifold of one or two points.
//!
//! Follows Box2D v3 `b2ClipPolygons` (manifold.c), itself after Ericson 5.5 / Catto's
//! "Contact Manifolds" talk:
//!
//! ```text
//! reference face = the edge of A or B whose outward normal best matches the MTV normal
//! incident edge  = the edge of the other shape whose normal most opposes the reference normal
//! clip the incident edge to the slab between the reference face's ends
//! keep each clipped end that lies deeper than both radii; report it halfway between the surfaces
//! ```
//!
//! A circle (a 1-point core) has no edge, and an MTV along the line between two corners has no
//! face: both give one point, halfway between the deepest points of the two surfaces.
//! Conventions: `normal` points from A toward B; a point's `depth` is how far the surfaces
//! overlap there, along the normal.

use super::types::{AxisSource, Side};
use crate::geometry::inline_list;
use crate::geometry::{DVec2, Rounded};
use serde::Serialize;

/// One contact point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ContactPoint {
    /// Halfway between the two surfaces, world coordinates.
    pub point: DVec2,
    /// How deep the surfaces overlap at this point, along the normal (> 0).
    pub depth: f64,
}

inline_list!(
    /// A contact's points: one or two, held inline.
    ContactPoints,
    ContactPoint,
    2
);

/// The contact of two intersecting shapes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contact {
    /// The penetration depth (the MTV's length).
    pub depth: f64,
    /// Unit vector from A toward B: moving B by `depth * normal` separates them.
    pub normal: DVec2,
    /// One or two contact points.
    pub points: ContactPoints,
}

/// A face whose normal is within this (in `1 - cos`) of the MTV normal is a reference face.
pub(crate) const FACE_ALIGNMENT: f64 = 1e-6;
/// Prefer A's face unless B's is clearly better aligned (as Box2D prefers A's by a slop).
pub(crate) const PREFER_A: f64 = 1e-9;

/// The manifold of `a` and `b`, intersecting by `depth` along `normal` (A toward B), the MTV
/// found on an axis from `source`. Points are relative to the same origin as the inputs.
pub(crate) fn manifold(
    a: &Rounded,
    b: &Rounded,
    normal: DVec2,
    depth: f64,
    source: AxisSource,
) -> ContactPoints {
    if a.is_point() || b.is_point() {
        return single_point(a, b, normal, depth);
    }
    // The MTV's own axis usually names the reference face: no search needed.
    if let Some((side, face)) = named_face(a, b, normal, source) {
        let points = match side {
            Side::A => clip(a, face, b),
            Side::B => clip(b, face, a),
        };
        if !points.is_empty() {
            return points;
        }
    }
    let (face_a, align_a) = best_face(a, normal);
    let (face_b, align_b) = best_face(b, -normal);
    if align_a.max(align_b) < 1.0 - FACE_ALIGNMENT {
        return single_point(a, b, normal, depth);
    }
    let points = if align_b > align_a + PREFER_A {
        clip(b, face_b, a)
    } else {
        clip(a, face_a, b)
    };
    if points.is_empty() {
        single_point(a, b, normal, depth)
    } else {
        points
    }
}

/// The face an edge-normal axis comes from, when its outward normal is the MTV's direction
/// (A's face along `normal`, B's face against it).
fn named_face(
    a: &Rounded,
    b: &Rounded,
    normal: DVec2,
    source: AxisSource,
) -> Option<(Side, usize)> {
    let (side, shape, direction, candidates) = match source {
        AxisSource::EdgeNormal { of: Side::A, edge } => {
            (Side::A, a, normal, [a.internal_edge(edge), usize::MAX])
        }
        AxisSource::EdgeNormal { of: Side::B, edge } => {
            (Side::B, b, -normal, [b.internal_edge(edge), usize::MAX])
        }
        AxisSource::SegmentNormal { of: Side::A } => (Side::A, a, normal, [0, 1]),
        AxisSource::SegmentNormal { of: Side::B } => (Side::B, b, -normal, [0, 1]),
        _ => return None,
    };
    candidates
        .into_iter()
        .filter(|&i| i < shape.face_count())
        .find(|&i| shape.normal(i).dot(direction) >= 1.0 - FACE_ALIGNMENT)
        .map(|i| (side, i))
}

/// The face of `shape` whose outward normal is closest to `direction`, and that cosine.
fn best_face(shape: &Rounded, direction: DVec2) -> (usize, f64) {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, n) in shape.normals.iter().copied().enumerate() {
        let align = n.dot(direction);
        if align > best.1 {
            best = (i, align);
        }
    }
    best
}

/// One point halfway between the deepest points of the two surfaces along the normal. A
/// circle's deepest point is unambiguous, so it is measured from the circle when there is
/// one, else from B.
fn single_point(a: &Rounded, b: &Rounded, normal: DVec2, depth: f64) -> ContactPoints {
    if a.is_point() && !b.is_point() {
        let deepest_a = a.point(0) + normal * a.radius;
        let point = deepest_a - normal * (0.5 * depth);
        ContactPoints::from_slice(&[ContactPoint { point, depth }])
    } else {
        let (_, core_b) = b.support(-normal);
        contact_below(core_b, b.radius, normal, depth)
    }
}

/// The contact halfway between the surfaces, measured from B's deepest point: the point of
/// B's core farthest toward A (`core_b`), moved by B's radius toward A.
#[inline]
pub(crate) fn contact_below(
    core_b: DVec2,
    radius_b: f64,
    normal: DVec2,
    depth: f64,
) -> ContactPoints {
    let deepest_b = core_b - normal * radius_b;
    let point = deepest_b + normal * (0.5 * depth);
    ContactPoints::from_slice(&[ContactPoint { point, depth }])
}

/// Clip the incident edge of `incident` against face `face` of `reference`.
fn clip(reference: &Rounded, face: usize, incident: &Rounded) -> ContactPoints {
    let (v1, v2) = reference.edge(face);
    let n = reference.normal(face);
    // Both cores are counter-clockwise and face each other, so the incident edge runs against
    // the reference face: w1 lies toward v2's end, w2 toward v1's.
    let (w1, w2) = incident.edge(most_opposed_face(incident, n));
    clip_edge(((v1, v2), n, reference.radius), ((w1, w2), incident.radius))
}

/// Clip the incident edge `w1 -> w2` (its core's radius given) against the reference face
/// `v1 -> v2` with outward normal `n` (its core's radius given): the arithmetic of [`clip`],
/// for a caller that holds the two edges without views.
#[inline]
pub(crate) fn clip_edge(
    ((v1, v2), n, reference_radius): ((DVec2, DVec2), DVec2, f64),
    ((w1, w2), incident_radius): ((DVec2, DVec2), f64),
) -> ContactPoints {
    // Positions along the face, measured with its unnormalised direction (the clip does not
    // depend on its length): v1 at `lower`, v2 at `upper`; the slab between them is kept.
    let along = v2 - v1;
    let (lower, upper) = (along.dot(v1), along.dot(v2));
    let (at_w1, at_w2) = (along.dot(w1), along.dot(w2));
    if at_w1.max(at_w2) < lower || at_w1.min(at_w2) > upper {
        return ContactPoints::new();
    }
    // Each end of the incident edge, moved along the edge to the slab's side it overshoots.
    // A division only where an end is clipped, as in Box2D's b2ClipPolygons.
    let span = at_w1 - at_w2;
    let lerp = |at: f64| w2 + (w1 - w2) * ((at - at_w2) / span);
    let low_end = if at_w2 < lower && span > 0.0 {
        lerp(lower)
    } else {
        w2
    };
    let high_end = if at_w1 > upper && span > 0.0 {
        lerp(upper)
    } else {
        w1
    };

    let radii = reference_radius + incident_radius;
    let contact = |w: DVec2| {
        // How far the incident core lies beyond the reference face; the surfaces overlap
        // where that is less than the two radii. The point is halfway between the surfaces.
        let separation = (w - v1).dot(n);
        let point = w + n * (0.5 * (reference_radius - separation - incident_radius));
        ContactPoint {
            point,
            depth: radii - separation,
        }
    };
    let (low, high) = (contact(low_end), contact(high_end));
    // A clipped range of (almost) no length is one point, not two.
    let one_point = (high_end - low_end).length_squared() <= 1e-24 * (w1 - w2).length_squared();
    // From w1's end, the incident edge's own direction.
    let mut points = ContactPoints::new();
    if high.depth > 0.0 {
        points.push(high);
    }
    if low.depth > 0.0 && !one_point {
        points.push(low);
    }
    points
}

/// The face of `shape` whose outward normal points most against `n`.
fn most_opposed_face(shape: &Rounded, n: DVec2) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, m) in shape.normals.iter().copied().enumerate() {
        let d = m.dot(n);
        if d < best.1 {
            best = (i, d);
        }
    }
    best.0
}
