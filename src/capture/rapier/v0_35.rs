//! The Rapier capture adapter for rapier2d 0.35 (feature `rapier2d-0-35`, module
//! `collidoscope::capture::rapier_0_35`): the adapter of `capture::rapier` (read its comment),
//! against the rapier2d 0.35 your game depends on. The module re-exports that `rapier2d`.

pub use ::rapier2d_0_35 as rapier2d;

/// What differs in rapier2d 0.35 (parry2d 0.30): a pair's manifolds are a field, and parry's
/// intersection and distance queries return a bool and a number.
mod shim {
    use super::rapier2d::dynamics::IntegrationParameters;
    use super::rapier2d::geometry::{ContactManifold, ContactPair};

    pub const VERSION: &str = "0.35.3";
    pub type IntersectionOut = bool;
    pub type DistanceOut = super::rapier2d::math::Real;

    pub fn manifolds(pair: &ContactPair) -> &[ContactManifold] {
        &pair.manifolds
    }

    pub fn contact_recycling(params: &IntegrationParameters) -> bool {
        params.contact_recycling
    }
}

// The one adapter, compiled once per version against that version's `rapier2d`.
#[allow(clippy::duplicate_mod)]
#[path = "adapter.rs"]
mod adapter;
pub use adapter::*;
