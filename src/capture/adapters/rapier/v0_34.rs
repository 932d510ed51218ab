//! The Rapier capture adapter for rapier2d 0.34 (feature `rapier2d-0-34`, module
//! `collidoscope::capture::rapier_0_34`): the adapter of `capture::rapier` (read its comment),
//! against the rapier2d 0.34 your game depends on. The module re-exports that `rapier2d`.

pub use ::rapier2d_0_34 as rapier2d;

/// What differs in rapier2d 0.34 (parry2d 0.29): a pair's manifolds are a field, and parry's
/// intersection and distance queries return a bool and a number; it has no contact recycling.
/// When parry keeps a manifold (shapes turned less than 1 degree), parry 0.29 recomputes each
/// kept point's `local_p1` as well as its `dist`.
mod shim {
    use super::rapier2d::dynamics::IntegrationParameters;
    use super::rapier2d::geometry::{ContactManifold, ContactPair};
    use super::rapier2d::math::Pose;
    use super::rapier2d::parry::shape::Compound;

    pub const VERSION: &str = "0.34.0";
    pub type IntersectionOut = bool;
    pub type DistanceOut = super::rapier2d::math::Real;

    pub fn manifolds(pair: &ContactPair) -> &[ContactManifold] {
        &pair.manifolds
    }

    /// Rapier 0.34 has no contact recycling.
    pub fn contact_recycling(_: &IntegrationParameters) -> bool {
        false
    }

    pub fn subshape_poses(m: &ContactManifold) -> (Option<Pose>, Option<Pose>) {
        (m.subshape_pos1, m.subshape_pos2)
    }

    /// parry 0.29's compounds have no flags: no internal edges are fixed.
    pub fn compound_fixes_internal_edges(_: &Compound) -> bool {
        false
    }
}

// The one adapter, compiled once per version against that version's `rapier2d`.
#[allow(clippy::duplicate_mod)]
#[path = "adapter.rs"]
mod adapter;
pub use adapter::*;
