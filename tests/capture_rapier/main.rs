//! Real Rapier (rapier2d 0.36) worlds captured through the `rapier2d` adapter and judged frame
//! by frame: a ramp, a pyramid, capsules and balls in a bowl, fast balls with CCD, at the
//! origin in metres and ~500 px out at 32 px a metre (y down).
//!
//! The adapter is compiled here from its own source (`src/capture/adapters/rapier/`, the `rapier2d`
//! feature's module), so `cargo test` runs it against the engine without the feature.

#[allow(dead_code)]
#[path = "../../src/capture/adapters/rapier/v0_36.rs"]
mod rapier_capture;

mod common;
#[path = "../common/plot_check.rs"]
mod plot_check;

mod adapter;
mod events;
mod filters;
mod honest;
mod judging;
mod long_text;
mod mistakes;
mod pieces;
mod recycling;
