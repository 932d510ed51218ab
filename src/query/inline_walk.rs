//! The separating-axis walk of [`super::fast_path`] and the manifold of [`super::contact`] over
//! cores held inline, without building world views: two capsules
//! ([`super::capsule_capsule`]), a polygon with a capsule ([`super::polygon_capsule`]) and two
//! polygons ([`super::polygon_polygon`]).
//! Each core states, number for number, what the general view computes for it (its shadows,
//! its face axes in the order the file gave them, its faces, its support); this file walks
//! them as the general walk does: A's face axes then B's, the line between the cores'
//! closest points (given by the pair, which knows how to find it), the first least overlap
//! kept, the direction by the smaller push (the centres on a tie), then the reference face the
//! axis names, else the best aligned one (A's on a near tie), clipped, or one point. So every
//! answer is the general walk's to the bit (tested beside it on random pairs and set cases).

use super::contact::{Contact, ContactPoints, FACE_ALIGNMENT, PREFER_A, clip_edge, contact_below};
use crate::geometry::{DVec2, Interval};

/// Two axes closer than this (in `1 - |cos|`) are one line (as the walk's `PARALLEL`).
pub(super) const PARALLEL: f64 = 1e-12;

/// A core held inline, as the general walk's view of it would state it.
pub(super) trait InlineCore {
    /// How many face axes the walk takes from it (a polygon's edges, a segment's one line).
    fn axis_count(&self) -> usize;
    /// Face axis `k` (in the file's order) as the least-overlap search measures it: the
    /// outward normal and the core's own shadow on it.
    fn own_axis(&self, k: usize) -> (DVec2, Interval);
    /// Face axis `k` as the kept candidate states it: the normal as the file's winding gives
    /// it and the core's shadow on that.
    fn given_axis(&self, k: usize) -> (DVec2, Interval);
    /// The shadow on the unit axis `u`, radius included.
    fn project(&self, u: DVec2) -> Interval;
    /// Whether `axis` is the line of one of its face normals.
    fn repeats(&self, axis: DVec2) -> bool;
    /// The face that face axis `k` names when its outward normal is `direction` (within the
    /// manifold's alignment), if any.
    fn named_face(&self, k: usize, direction: DVec2) -> Option<usize>;
    /// The face whose outward normal is closest to `direction` (the first on a tie), and that
    /// cosine.
    fn best_face(&self, direction: DVec2) -> (usize, f64);
    /// The face whose outward normal points most against `n` (the first on a tie).
    fn most_opposed_face(&self, n: DVec2) -> usize;
    /// Face `i`: its edge (counter-clockwise) and outward normal.
    fn face(&self, i: usize) -> ((DVec2, DVec2), DVec2);
    /// The core corner farthest along `d` (the first on a tie).
    fn support(&self, d: DVec2) -> DVec2;
    /// The radius grown around the core.
    fn radius(&self) -> f64;
    /// The view's centre.
    fn centre(&self) -> DVec2;
}

/// An axis and the two cores' shadows on it, A's first.
type Shadows = (DVec2, (Interval, Interval));

/// Which axis the least overlap was found on.
#[derive(Clone, Copy)]
enum Source {
    /// Face axis `k` of A.
    OfA(usize),
    /// Face axis `k` of B.
    OfB(usize),
    /// The line between the cores' closest points.
    Closest,
}

/// The contact of `a` and `b` (seen from `origin`, A's position), or `None` when some axis
/// shows a gap. `closest` gives the line between the cores' closest points when the walk
/// would try it (both closest points corners, not a face normal's line), asked only when no
/// face axis has shown a gap.
#[inline(always)]
pub(super) fn collide_inline<A: InlineCore, B: InlineCore>(
    a: &A,
    b: &B,
    closest: impl FnOnce() -> Option<DVec2>,
    origin: DVec2,
) -> Option<Contact> {
    let (source, kept) = least_overlap(a, b, closest)?;
    let (axis, (sa, sb)) = match (kept, source) {
        (Some(kept), _) => kept,
        (None, Source::OfA(k)) => {
            let (axis, own) = a.given_axis(k);
            (axis, (own, b.project(axis)))
        }
        (None, Source::OfB(k)) => {
            let (axis, own) = b.given_axis(k);
            (axis, (a.project(axis), own))
        }
        (None, Source::Closest) => return None,
    };
    // The walk's measure: the smaller push, the centres on a tie.
    let (forward, backward) = (sa.push_forward(&sb), sa.push_backward(&sb));
    let mut sign =
        f64::from(u8::from(forward < backward)) - f64::from(u8::from(backward < forward));
    if sign == 0.0 {
        sign = if (b.centre() - a.centre()).dot(axis) >= 0.0 {
            1.0
        } else {
            -1.0
        };
    }
    let depth = sa.overlap(&sb);
    let normal = axis * sign;
    let mut points = manifold(a, b, normal, depth, source);
    for p in &mut points {
        p.point += origin;
    }
    Some(Contact {
        depth,
        normal,
        points,
    })
}

/// Whether `a` and `b` intersect: [`collide_inline`]'s verdict without its contact (every axis
/// the walk tries overlaps).
#[inline(always)]
pub(super) fn intersect_inline<A: InlineCore, B: InlineCore>(
    a: &A,
    b: &B,
    closest: impl FnOnce() -> Option<DVec2>,
) -> bool {
    least_overlap(a, b, closest)
        .is_some_and(|(source, kept)| kept.is_some() || !matches!(source, Source::Closest))
}

/// The walk's axes in its order, the first least overlap kept: where it was found, and the
/// closest points' line with both shadows when that line holds it; `None` at the first gap.
#[inline(always)]
fn least_overlap<A: InlineCore, B: InlineCore>(
    a: &A,
    b: &B,
    closest: impl FnOnce() -> Option<DVec2>,
) -> Option<(Source, Option<Shadows>)> {
    // The face axes, A's then B's, the owner's shadow first in the overlap.
    let (mut least, mut source) = (f64::INFINITY, Source::Closest);
    for k in 0..a.axis_count() {
        let (u, own) = a.own_axis(k);
        let overlap = own.overlap(&b.project(u));
        if overlap <= 0.0 {
            return None;
        }
        if overlap < least {
            (least, source) = (overlap, Source::OfA(k));
        }
    }
    for k in 0..b.axis_count() {
        let (u, own) = b.own_axis(k);
        let overlap = own.overlap(&a.project(u));
        if overlap <= 0.0 {
            return None;
        }
        if overlap < least {
            (least, source) = (overlap, Source::OfB(k));
        }
    }
    // The closest points' line, unless it is a face normal's.
    let mut kept = None;
    if let Some(axis) = closest().filter(|u| !a.repeats(*u) && !b.repeats(*u)) {
        let shadows = (a.project(axis), b.project(axis));
        let overlap = shadows.0.overlap(&shadows.1);
        if overlap <= 0.0 {
            return None;
        }
        if overlap < least {
            kept = Some((axis, shadows));
            source = Source::Closest;
        }
    }
    Some((source, kept))
}

/// The walk's manifold: the face the axis names, else the best aligned face (A's unless B's is
/// clearly better), clipped; one point when no face is aligned or the clip keeps nothing.
#[inline(always)]
fn manifold<A: InlineCore, B: InlineCore>(
    a: &A,
    b: &B,
    normal: DVec2,
    depth: f64,
    source: Source,
) -> ContactPoints {
    let named = match source {
        Source::OfA(k) => a.named_face(k, normal).map(|i| (true, i)),
        Source::OfB(k) => b.named_face(k, -normal).map(|i| (false, i)),
        Source::Closest => None,
    };
    if let Some((a_is_reference, face)) = named {
        let points = if a_is_reference {
            clip(a, face, b)
        } else {
            clip(b, face, a)
        };
        if !points.is_empty() {
            return points;
        }
    }
    let (face_a, align_a) = a.best_face(normal);
    let (face_b, align_b) = b.best_face(-normal);
    let points = if align_a.max(align_b) < 1.0 - FACE_ALIGNMENT {
        ContactPoints::new()
    } else if align_b > align_a + PREFER_A {
        clip(b, face_b, a)
    } else {
        clip(a, face_a, b)
    };
    if !points.is_empty() {
        return points;
    }
    // One point, below B's core corner deepest toward A.
    contact_below(b.support(-normal), b.radius(), normal, depth)
}

/// The clip of `incident`'s most opposed face against face `face` of `reference`.
#[inline(always)]
fn clip<R: InlineCore, I: InlineCore>(reference: &R, face: usize, incident: &I) -> ContactPoints {
    let (edge, n) = reference.face(face);
    let (incident_edge, _) = incident.face(incident.most_opposed_face(n));
    clip_edge(
        (edge, n, reference.radius()),
        (incident_edge, incident.radius()),
    )
}
