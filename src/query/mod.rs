//! Questions about a pair of placed shapes, answered with plain data.
//!
//! One module per query: [`sat`] (the separating-axis test as a report, and the MTV),
//! [`naive`] (the seed article's smallest-overlap MTV, kept to show its bug), [`closest`]
//! (distance and closest points), [`contact`] (manifold points), [`collide`] (the fast path),
//! [`region`] (the intersection polygon), [`report`] (all of them for one pair) and
//! [`summary`] (the record `collidoscope query` prints).
//!
//! Conventions, for every query and every pair of kinds in either order:
//! - "A" is the first argument, "B" the second.
//! - `normal` is a unit vector pointing from A toward B: moving B by `depth * normal` (or A by
//!   `-depth * normal`) separates them.
//! - Intersecting means the interiors overlap (`depth > 0`); touching is not intersecting.
//! - Indices of edges and corners are in the order the shape's points were given; edge `i`
//!   joins point `i` to point `i + 1`.
//! - Points are in world coordinates.

pub mod closest;
pub mod collide;
pub mod contact;
pub mod naive;
pub mod region;
pub mod report;
pub mod sat;
pub mod summary;

pub use closest::{
    ClosestPoints, Proximity, closest_point_on_segment, closest_points_segment_segment, distance,
    distance_to_point,
};
pub use collide::collide;
pub use contact::{Contact, ContactPoint};
pub use naive::{NaiveMtv, naive_mtv};
pub use region::{Region, intersection_region};
pub use report::{PairReport, report};
pub use sat::{AxisSource, AxisTest, Mtv, SatReport, Side, Verdict, explain};
pub use summary::{PairSummary, summarize};
