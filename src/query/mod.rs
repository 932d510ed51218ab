//! Questions about a pair of placed shapes, answered with plain data. Every entry point is
//! here, at one path (`collidoscope::query::NAME`); the files behind them are private:
//!
//! | question | entry point | file |
//! |---|---|---|
//! | overlap, depth, normal, contact points (the fast path) | [`collide`] | `dispatch.rs`, `fast_path.rs` |
//! | every candidate axis, both intervals, the verdict and the MTV | [`sat_report`] | `sat.rs` |
//! | the tutorial rule "smallest overlap, axis sign as it comes", kept to show its bug | [`naive_report`] | `naive.rs` |
//! | what a known mistake reports, with its own axes | [`mistaken_report`], [`mistaken_outcome`] | `mistakes.rs` |
//! | distance and closest points | [`distance`], [`distance_to_point`] | `dispatch.rs`, `closest.rs`, `report.rs` |
//! | the manifold's points | [`Contact`] (inside [`collide`]'s answer) | `contact.rs` |
//! | the intersection polygon | [`intersection_region`] | `region.rs` |
//! | all of the above for one pair (what the window shows) | [`pair_report`] | `dispatch.rs`, `report.rs` |
//! | the record `collidoscope query --json` prints | [`summarize`], [`pair_records`] | `summary.rs`, `record.rs` |
//! | a chain's pieces against a shape, by the chain rule | [`chain_pieces`], [`chain_piece`] | `chain.rs`, `piece.rs` |
//! | a segment's first hit | [`ray_cast`] | `raycast.rs` |
//! | when two moving shapes first touch | [`time_of_impact`] | `chain_toi.rs`, `toi.rs` |
//! | when a moving shape meets each piece of a chain | [`chain_time_of_impact`] | `chain_toi.rs` |
//! | what a moving shape covers | [`swept_outline`], [`convex_hull`] | `sweep.rs` |
//!
//! The types they share live in `types.rs`; the candidate axes that `sat` and `fast_path` both
//! walk, in `candidates.rs`.
//!
//! Dependencies point one way: `types` and `closest` need nothing here; `candidates` needs
//! them; `sat`, `contact` and `fast_path` build on `candidates`; `record` and `piece` hold the
//! records and the chain rule's data; `report` (convex pairs) and `chain` (the chain rule,
//! piece by piece, on the convex queries) build on those; `dispatch` alone knows both kinds of
//! pair and hands each to its query; `summary`, `mistakes` and `chain_toi` build on it.
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
mod capsule_capsule;
mod capsule_circle;
mod chain;
mod chain_toi;
mod closest;
#[cfg(test)]
mod closest_tests;
mod contact;
mod dispatch;
mod fast_path;
mod inline_walk;
mod mistakes;
mod naive;
mod piece;
mod polygon_capsule;
mod polygon_circle;
mod polygon_polygon;
mod raycast;
mod record;
mod region;
mod report;
mod sat;
mod seam;
mod summary;
mod sweep;
mod toi;
mod types;
mod viewless;

pub use chain::{chain_contact, chain_piece, chain_pieces, piece_segment};
pub use chain_toi::{PieceToi, chain_time_of_impact, time_of_impact};
pub use closest::{
    ClosestPoints, Proximity, closest_point_on_segment, closest_points_segment_segment,
    distance_to_core, distance_to_point,
};
pub use contact::{Contact, ContactPoint, ContactPoints};
pub use dispatch::{collide, distance, pair_report};
pub use mistakes::{
    Outcome, SHALLOW_THRESHOLD, mistaken_outcome, mistaken_piece_report, mistaken_report,
    piece_outcome,
};
pub use naive::{NAIVE_THRESHOLD, NaiveMtv, naive_report};
pub use piece::{Admissible, CONVEX_TOLERANCE, ChainReport, PieceResult, SAME_DIRECTION};
pub use raycast::{RayHit, ray_cast};
pub use record::{PairRecord, PairSummary};
pub use region::{Region, intersection_region};
pub use report::PairReport;
pub use sat::sat_report;
pub use seam::{
    CornerSeam, FACE_ANGLE, corner_met, covers, face_met, faces, nearest_on_face, seam_met,
    surface_through,
};
pub use summary::{pair_records, summarize};
pub use sweep::{convex_hull, poses_between, swept_outline};
pub use toi::{Toi, ToiMethod, ToiState, ToiStep, ToiSteps, Velocity, inner_radius, safe_step};
pub use types::{
    AxisRole, AxisSource, AxisTest, ChainRule, Mistake, Mtv, SatReport, Side, TwoSided, Verdict,
};
