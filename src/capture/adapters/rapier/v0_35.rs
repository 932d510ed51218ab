//! The Rapier capture adapter for rapier2d 0.35 (feature `rapier2d-0-35`, module
//! `collidoscope::capture::rapier_0_35`): the adapter of `capture::rapier` (read its comment),
//! against the rapier2d 0.35 your game depends on. The module re-exports that `rapier2d`.

pub use ::rapier2d_0_35 as rapier2d;

/// What differs in rapier2d 0.35 (parry2d 0.30): a pair's manifolds are a field, and parry's
/// intersection and distance queries return a bool and a number.
mod shim {
    use super::rapier2d::dynamics::IntegrationParameters;
    use super::rapier2d::geometry::{ContactManifold, ContactPair};
    use super::rapier2d::math::Pose;
    use super::rapier2d::parry::shape::Compound;

    pub const VERSION: &str = "0.35.3";
    pub type IntersectionOut = bool;
    pub type DistanceOut = super::rapier2d::math::Real;

    pub fn manifolds(pair: &ContactPair) -> &[ContactManifold] {
        &pair.manifolds
    }

    pub fn contact_recycling(params: &IntegrationParameters) -> bool {
        params.contact_recycling
    }

    pub fn subshape_poses(m: &ContactManifold) -> (Option<Pose>, Option<Pose>) {
        (m.subshape_pos1().copied(), m.subshape_pos2().copied())
    }

    /// parry 0.30's compounds have no flags: no internal edges are fixed.
    pub fn compound_fixes_internal_edges(_: &Compound) -> bool {
        false
    }
}

// The one adapter, compiled once per version against that version's `rapier2d`.
#[allow(clippy::duplicate_mod)]
#[path = "adapter.rs"]
mod adapter;
pub use adapter::*;
