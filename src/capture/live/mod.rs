//! A capture while the game runs: a file followed as it grows ([`follow`]), the game's link to a
//! window and the window's listener ([`link`], WebSocket connections through [`websocket`]),
//! and the flight recorder that keeps the last seconds ([`recorder`]).

pub mod follow;
pub mod link;
pub mod recorder;
pub mod websocket;

pub use link::*;
