//! The engine adapters: each fills a capture's frames from an engine's own world, and answers
//! a fixture's pairs with the engine's own narrow phase ([`narrow_phase::NarrowPhase`]).

pub mod narrow_phase;

#[cfg(feature = "avian2d")]
pub mod avian;
#[cfg(feature = "box2d")]
pub mod box2d;
#[cfg(feature = "rapier2d")]
#[path = "rapier/v0_36.rs"]
pub mod rapier;
#[cfg(feature = "rapier2d-0-34")]
#[path = "rapier/v0_34.rs"]
pub mod rapier_0_34;
#[cfg(feature = "rapier2d-0-35")]
#[path = "rapier/v0_35.rs"]
pub mod rapier_0_35;
