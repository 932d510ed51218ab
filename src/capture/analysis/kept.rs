//! A contact an engine kept from an earlier step instead of recomputing it, moved the way the
//! engines move one: its normal and points kept, its separation moved along the kept normal
//! by how far the shapes moved apart there. Box2D v3's contact recycling does exactly this
//! (`b2Collide` in `physics_world.c`: the anchors kept, `separation = baseSeparation +
//! dot(dp, normal)`, `dp` the change of B's anchor relative to A's, each turned with its
//! body); parry's kept manifolds (Rapier) and Avian's recycled ones update only the separations
//! along the kept normal too.
//!
//! So a kept contact matches no exact result of an earlier frame (its separation moved), nor of
//! its own frame (its normal and points did not): the `stale` event looks for it as the exact
//! contact of frame k - m carried to frame k's poses by [`kept_contact`].

use crate::geometry::{DVec2, Placed, Pose};
use crate::query::{Outcome, summarize};

/// A contact kept from an earlier frame, as the engine reports it at a later one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeptContact {
    /// What it says at the later poses, compared with a claim as an exact result is.
    pub outcome: Outcome,
    /// The normal it kept (unit, from A toward B), also when it says apart.
    pub normal: DVec2,
}

/// What an engine that computed the contact of `then` (the two shapes at an earlier frame's
/// poses) and kept it reports at the poses `now` (A's, B's): each point of the exact result at
/// `then` (an intersecting pair's contacts, at separation -depth; an apart pair's midpoint of
/// its closest points, at separation distance) carried with A and with B to `now`, its
/// separation moved by (carried with B - carried with A) . normal, the normal (from A toward
/// B) kept; the smallest separation decides: intersecting at depth -s when s < 0, else apart
/// with distance s (a speculative claim's promise is judged against it). `None` when the
/// exact result has no normal to keep (shapes touching, or intersecting without a contact).
pub fn kept_contact(then: (&Placed, &Placed), now: (Pose, Pose)) -> Option<KeptContact> {
    let (a, b) = then;
    let exact = summarize(a, b);
    let (normal, points): (DVec2, Vec<(DVec2, f64)>) = if exact.intersecting {
        let normal = exact.normal?;
        let points = exact.contacts.iter().map(|p| (*p, -exact.depth)).collect();
        (normal, points)
    } else {
        let [on_a, on_b] = exact.closest?;
        let normal = (on_b - on_a).try_normalize()?;
        (normal, vec![((on_a + on_b) / 2.0, exact.distance)])
    };
    // A point of a body, carried from its pose `from` to `to`.
    let carried = |p: DVec2, from: &Pose, to: &Pose| to.apply(from.inverse_apply(p));
    let separation = points
        .iter()
        .map(|&(p, s)| {
            let moved = carried(p, &b.pose, &now.1) - carried(p, &a.pose, &now.0);
            s + moved.dot(normal)
        })
        .reduce(f64::min)?;
    let outcome = if separation < 0.0 {
        Outcome {
            intersecting: true,
            depth: -separation,
            normal: Some(normal),
            distance: Some(0.0),
        }
    } else {
        Outcome {
            intersecting: false,
            depth: 0.0,
            normal: None,
            distance: Some(separation),
        }
    };
    Some(KeptContact { outcome, normal })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, ConvexPolygon, Shape};

    /// A ball 0.1 into a floor, computed at frame j; by frame k the ball rose 0.04 and moved
    /// 0.3 along the floor: the kept contact is 0.06 deep along the kept normal (up).
    #[test]
    fn a_kept_contact_moves_its_depth_along_its_normal() {
        let floor = Placed::new(
            Shape::from(ConvexPolygon::rectangle(DVec2::new(5.0, 0.5)).unwrap()),
            Pose::at(DVec2::new(0.0, -0.5)),
        );
        let ball = Placed::new(
            Shape::from(Circle::new(0.5).unwrap()),
            Pose::at(DVec2::new(0.0, 0.4)),
        );
        let now = (floor.pose, Pose::at(DVec2::new(0.3, 0.44)));
        let kept = kept_contact((&floor, &ball), now).unwrap();
        assert!(kept.outcome.intersecting);
        assert!((kept.outcome.depth - 0.06).abs() < 1e-12, "{kept:?}");
        assert_eq!(
            (kept.outcome.normal, kept.normal),
            (Some(DVec2::Y), DVec2::Y)
        );
        // Risen by 0.15: apart by 0.05 along the kept normal.
        let now = (floor.pose, Pose::at(DVec2::new(0.3, 0.55)));
        let kept = kept_contact((&floor, &ball), now).unwrap();
        assert!(!kept.outcome.intersecting);
        assert!(
            (kept.outcome.distance.unwrap() - 0.05).abs() < 1e-12,
            "{kept:?}"
        );
        assert_eq!(kept.normal, DVec2::Y);
    }
}
