//! Everything collidoscope shows about one pair of convex shapes, computed once
//! ([`pair_report_convex`]: what the window draws, what `explain` prints and what tests assert
//! on), and the distance query beside it ([`distance_convex`]: intersecting decided as
//! [`collide`](super::collide()) decides it). A pair with a chain goes through the chain rule
//! (`chain.rs`); [`super::pair_report`] and [`super::distance`] take either.

use super::capsule_capsule::{distance_capsules, two_point};
use super::capsule_circle::{distance_capsule_circle, distance_circles};
use super::closest::{
    CLEAR_MARGIN, Proximity, closest_cores, closest_polygon_cores, proximity_from,
    proximity_of_apart,
};
use super::contact::{Contact, manifold};
use super::fast_path::{bounding_circles_clearly_apart, views_intersect};
use super::naive::{NaiveMtv, naive_report};
use super::piece::ChainReport;
use super::polygon_capsule::distance_polygon_capsule;
use super::polygon_circle::distance_polygon_circle;
use super::polygon_polygon::distance_polygons;
use super::region::{Region, region_of};
use super::sat::sat_report_rounded;
use super::types::SatReport;
use crate::geometry::{Placed, Rounded};
use serde::Serialize;

/// The full story of a pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairReport {
    /// The separating-axis test.
    pub sat: SatReport,
    /// What the naive rule (smallest overlap, axis sign as it comes) would have chosen.
    pub naive: Option<NaiveMtv>,
    /// Depth, normal and contact points when intersecting.
    pub contact: Option<Contact>,
    /// Distance and closest points (distance 0 and no points when intersecting).
    pub proximity: Proximity,
    /// The intersection region (empty when apart).
    pub region: Region,
    /// For a pair with a chain: every piece by the chain rule, and which one the rest of the
    /// report is about (its axes are that piece's as a two-sided segment; `contact` is the
    /// chain rule's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainReport>,
}

/// Every query on `a` and `b` (neither a chain), from one world view.
pub(crate) fn pair_report_convex(a: &Placed, b: &Placed) -> PairReport {
    let origin = a.pose.position;
    let ra = Rounded::new(a, origin);
    let rb = Rounded::new(b, origin);
    let sat = sat_report_rounded(&ra, &rb, origin);
    let naive = NaiveMtv::of(&naive_report(a, b));
    let contact = sat.mtv.map(|mtv| {
        let source = sat.axes[mtv.axis].source;
        let mut points = manifold(&ra, &rb, mtv.normal, mtv.depth, source);
        for p in &mut points {
            p.point += origin;
        }
        Contact {
            depth: mtv.depth,
            normal: mtv.normal,
            points,
        }
    });
    let (proximity, region) = if contact.is_some() {
        let none = Proximity {
            distance: 0.0,
            closest: None,
        };
        (none, region_of(&ra, &rb, origin))
    } else {
        (proximity_of_apart(&ra, &rb, origin), Region::default())
    };
    PairReport {
        sat,
        naive,
        contact,
        proximity,
        region,
        chain: None,
    }
}

/// The distance between `a` and `b` (neither a chain) and the closest points when they do not
/// intersect.
/// "Intersecting" is decided exactly as [`collide`](super::collide()) decides it.
///
/// The closest points come first (one view of each shape, no manifold): cores clearly
/// farther apart than the radii reach are apart, and clearly nearer intersect, whatever the
/// separating-axis test rounds to. Only within rounding of touching, or with the cores
/// overlapping, does the test decide. Two polygons take the test first, which leaves at the
/// first gap, and then the search that starts from the edges facing each other.
pub(crate) fn distance_convex(a: &Placed, b: &Placed) -> Proximity {
    use crate::geometry::Shape;
    if let (Shape::Circle(ca), Shape::Circle(cb)) = (&a.shape, &b.shape) {
        let fast = distance_circles(
            (a.pose.position, ca.radius()),
            (b.pose.position, cb.radius()),
        );
        return fast.unwrap_or_else(|()| distance_walk(a, b));
    }
    distance_past_circles(a, b)
}

/// [`distance_convex`] of a pair that is not two circles. Kept apart from the two circles,
/// which are cheaper than the registers this one saves on entry.
#[inline(never)]
fn distance_past_circles(a: &Placed, b: &Placed) -> Proximity {
    use crate::geometry::Shape;
    let fast = match (&a.shape, &b.shape) {
        (Shape::Polygon(p), Shape::Circle(c)) => {
            distance_polygon_circle(p, a.pose, b.pose.position, c.radius(), true)
        }
        (Shape::Circle(c), Shape::Polygon(p)) => {
            distance_polygon_circle(p, b.pose, a.pose.position, c.radius(), false)
        }
        (Shape::Capsule(k), Shape::Circle(c)) => {
            distance_capsule_circle(k, a.pose, b.pose.position, c.radius(), true)
        }
        (Shape::Circle(c), Shape::Capsule(k)) => {
            distance_capsule_circle(k, b.pose, a.pose.position, c.radius(), false)
        }
        (Shape::Polygon(p), Shape::Polygon(q)) => {
            let near = !bounding_circles_clearly_apart((&a.shape, a.pose), (&b.shape, b.pose));
            distance_polygons((p, a.pose), (q, b.pose), near)
        }
        (sa, sb) => match ((sa, two_point(sa)), (sb, two_point(sb))) {
            ((_, Some((ends_a, ra))), (_, Some((ends_b, rb)))) => {
                distance_capsules((ends_a, ra, a.pose), (ends_b, rb, b.pose))
            }
            ((Shape::Polygon(p), _), (_, Some((ends, r)))) => {
                distance_polygon_capsule(p, a.pose, (ends, r, b.pose), true)
            }
            ((_, Some((ends, r))), (Shape::Polygon(p), _)) => {
                distance_polygon_capsule(p, b.pose, (ends, r, a.pose), false)
            }
            _ => Err(()),
        },
    };
    fast.unwrap_or_else(|()| distance_walk(a, b))
}

/// [`distance_convex`] from both shapes' world views, for every pair of kinds.
pub(crate) fn distance_walk(a: &Placed, b: &Placed) -> Proximity {
    let touching = Proximity {
        distance: 0.0,
        closest: None,
    };
    let origin = a.pose.position;
    let ra = Rounded::new(a, origin);
    let rb = Rounded::new(b, origin);
    if ra.is_polygon() && rb.is_polygon() {
        if views_intersect(a, b, &ra, &rb) {
            return touching;
        }
        let found = closest_polygon_cores(&ra, &rb, None).map(|(c, _)| c);
        return proximity_from(found, (ra.radius, rb.radius), origin);
    }
    let found = closest_cores(&ra, &rb);
    let reach = ra.radius + rb.radius;
    if let Some(c) = found {
        // Rounding of the coordinates the test measures: they are relative to A's position.
        let scale = c.distance + reach + (rb.centre.abs() + ra.centre.abs()).max_element();
        let margin = CLEAR_MARGIN * scale;
        if c.distance > reach + margin {
            return proximity_from(found, (ra.radius, rb.radius), origin);
        }
        if c.distance < reach - margin {
            return touching;
        }
    }
    if views_intersect(a, b, &ra, &rb) {
        touching
    } else {
        proximity_from(found, (ra.radius, rb.radius), origin)
    }
}
