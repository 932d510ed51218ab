//! Questions about a pair of placed shapes, answered with plain data.
//!
//! One module per query: [`sat`] (the separating-axis test as a report, and the MTV),
//! [`naive`] (the tutorial rule "smallest overlap, axis sign as it comes", kept to show its
//! bug), [`mistakes`] (every known mistake as a test with the correct one's report), [`closest`] (closest points), [`contact`] (manifold points), [`collide`] (the fast
//! path), [`region`] (the intersection polygon), [`report`] (all of them for one pair, and the
//! distance query) and [`summary`] (the record `collidoscope query` prints). The types they
//! share live in [`types`]; the candidate axes that `sat` and `collide` both walk, in
//! [`candidates`].
//!
//! Dependencies point one way: `types` and `closest` need nothing here; `candidates` needs
//! them; `sat`, `contact` and `collide` build on `candidates`; `report` and `summary` on all.
//!
//! Conventions, for every query and every pair of kinds in either order:
//! - "A" is the first argument, "B" the second.
//! - `normal` is a unit vector pointing from A toward B: moving B by `depth * normal` (or A by
//!   `-depth * normal`) separates them.
//! - Intersecting means the interiors overlap (`depth > 0`); touching is not intersecting.
//! - Indices of edges and corners are in the order the shape's points were given; edge `i`
//!   joins point `i` to point `i + 1`.
//! - Points are in world coordinates.

pub(crate) mod candidates;
pub mod closest;
pub mod collide;
pub mod contact;
pub mod mistakes;
pub mod naive;
pub mod raycast;
pub mod region;
pub mod report;
pub mod sat;
pub mod summary;
pub mod sweep;
pub mod toi;
pub mod types;

pub use closest::{
    ClosestPoints, Proximity, closest_point_on_segment, closest_points_segment_segment,
    distance_to_core, distance_to_point,
};
pub use collide::collide;
pub use contact::{Contact, ContactPoint};
pub use mistakes::{Outcome, SHALLOW_THRESHOLD, mistaken_outcome, mistaken_report};
pub use naive::{NAIVE_THRESHOLD, NaiveMtv, naive_report};
pub use raycast::{RayHit, ray_cast};
pub use region::{Region, intersection_region};
pub use report::{PairReport, distance, pair_report};
pub use sat::sat_report;
pub use summary::{PairRecord, PairSummary, summarize};
pub use sweep::{convex_hull, poses_between, swept_outline};
pub use toi::{
    Toi, ToiMethod, ToiState, ToiStep, Velocity, inner_radius, safe_step, time_of_impact,
};
pub use types::{AxisRole, AxisSource, AxisTest, Mistake, Mtv, SatReport, Side, Verdict};
