//! The capture file: the stream reader ([`read`]; its input unpacked and read ahead,
//! `input.rs`), one line checked on its own ([`line`], [`parsed`], [`rules`]), the common
//! frame line read straight into numbers ([`fast`]; the writer's own layout byte by byte,
//! `written.rs`, its numbers rounded in `decimal.rs`), the
//! writer a game calls ([`write`]), the ids' table ([`ids`]), what decides whether an engine
//! pairs two shapes ([`pairing`]), a motion run written as a capture ([`own`]) and the writer's
//! errors ([`error`]).

mod decimal;
pub mod error;
pub mod fast;
pub mod ids;
mod input;
pub mod line;
pub mod own;
pub mod pairing;
pub mod parsed;
pub mod read;
pub mod rules;
pub mod write;
pub(in crate::capture) mod write_text;
mod written;
