//! The Rapier capture adapter for rapier2d 0.36 (feature `rapier2d`, module
//! `collidoscope::capture::rapier`). The same adapter reads rapier2d 0.35
//! (`rapier2d-0-35`, `capture::rapier_0_35`) and 0.34 (`rapier2d-0-34`, `capture::rapier_0_34`):
//! enable the feature of the version your game depends on, and Cargo uses that one `rapier2d`
//! for both. The module re-exports the `rapier2d` it reads.

pub use ::rapier2d;

/// What differs in rapier2d 0.36 (parry2d 0.31).
mod shim {
    use super::rapier2d::dynamics::IntegrationParameters;
    use super::rapier2d::geometry::{ContactManifold, ContactPair};
    use super::rapier2d::math::Pose;
    use super::rapier2d::parry::shape::{Compound, CompoundFlags};

    pub const VERSION: &str = "0.36.1";
    pub type IntersectionOut = super::rapier2d::parry::query::ShapeIntersection;
    pub type DistanceOut = super::rapier2d::parry::query::ShapeDistance;

    pub fn manifolds(pair: &ContactPair) -> &[ContactManifold] {
        pair.manifolds()
    }

    pub fn contact_recycling(params: &IntegrationParameters) -> bool {
        params.contact_recycling
    }

    pub fn subshape_poses(m: &ContactManifold) -> (Option<Pose>, Option<Pose>) {
        (m.subshape_pos1().copied(), m.subshape_pos2().copied())
    }

    pub fn compound_fixes_internal_edges(c: &Compound) -> bool {
        c.flags().contains(CompoundFlags::FIX_INTERNAL_EDGES)
    }
}

// The one adapter, compiled once per version against that version's `rapier2d`.
#[allow(clippy::duplicate_mod)]
#[path = "adapter.rs"]
mod adapter;
pub use adapter::*;
